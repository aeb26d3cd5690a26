//! Shapes -> coloured triangles with smooth edges, as plain data the window uploads as meshes.
//!
//! Discs and round-capped lines become one quad each (two triangles) whose vertices carry the
//! pixel coordinates of the capsule they show; the window's fragment shader keeps the pixels
//! within the capsule's radius and fades the last pixel out (signed-distance anti-aliasing).
//! Polygons are filled with triangles (a fan when convex, ear clipping otherwise) and ringed by
//! a one-pixel "feather" whose outer edge is transparent. Both anti-alias edges without
//! multisampling, which software OpenGL (Xvfb) cannot afford at 60 frames per second, with few
//! triangles; each shape is one mesh, so translucent shapes blend once.

use glam::Vec2;

use crate::render::Shape;
use crate::types::Rgba;

/// Width of the soft edge around every shape, pixels.
pub(crate) const FEATHER: f32 = 1.0;

/// How a vertex's fragment coverage is computed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Coverage {
    /// Fully covered; edges come from the vertex colours (polygon fill and feather ring).
    Solid,
    /// Covered where within `radius` of the segment from (0, 0) to (`length`, 0) in the
    /// vertex's `local` coordinates (pixels): a disc when `length` is 0.
    Capsule { radius: f32, length: f32 },
}

/// One corner of a triangle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Vertex {
    /// Window pixels.
    pub position: Vec2,
    pub color: Rgba,
    /// Pixel coordinates in the frame of the capsule (along it, across it); zero for `Solid`.
    pub local: Vec2,
    pub coverage: Coverage,
}

/// Triangles of one shape: `indices` are triples into `vertices`.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Mesh {
    pub vertices: Vec<Vertex>,
    pub indices: Vec<u16>,
}

impl Mesh {
    /// Number of triangles.
    #[cfg(test)]
    fn triangles(&self) -> usize {
        self.indices.len() / 3
    }
}

/// The mesh of `shape` moved by `offset`, with soft edges `feather` pixels wide (0 = hard
/// polygon edges). Shapes with non-finite coordinates, no area or a transparent colour give
/// an empty mesh.
pub(crate) fn shape_mesh(shape: &Shape, offset: Vec2, feather: f32) -> Mesh {
    match shape {
        Shape::Circle {
            center,
            radius,
            color,
        } => capsule_mesh(*center + offset, *center + offset, *radius, *color, feather),
        Shape::Line {
            from,
            to,
            width,
            color,
        } => capsule_mesh(*from + offset, *to + offset, *width / 2.0, *color, feather),
        Shape::Polygon { points, color } => polygon_mesh(points, offset, *color, feather),
        // Text is drawn as its glyphs' lines (`glyphs::without_text` before meshing).
        Shape::Text { .. } => Mesh::default(),
    }
}

/// A quad covering the capsule of radius `r` around `from`-`to`, one soft edge beyond it.
fn capsule_mesh(from: Vec2, to: Vec2, r: f32, color: Rgba, feather: f32) -> Mesh {
    if color.a == 0 || !(r.is_finite() && r > 0.0 && from.is_finite() && to.is_finite()) {
        return Mesh::default();
    }
    let d = to - from;
    let length = d.length();
    let along = if length > 1e-6 { d / length } else { Vec2::X };
    let across = along.perp();
    let m = r + feather.max(0.0) + 0.5;
    let coverage = Coverage::Capsule { radius: r, length };
    let corner = |u: f32, v: f32| Vertex {
        position: from + along * u + across * v,
        color,
        local: Vec2::new(u, v),
        coverage,
    };
    Mesh {
        vertices: vec![
            corner(-m, -m),
            corner(length + m, -m),
            corner(length + m, m),
            corner(-m, m),
        ],
        indices: vec![0, 1, 2, 0, 2, 3],
    }
}

/// Coverage of a pixel whose centre is at `local` in a capsule's frame: 1 inside, 0 outside,
/// a linear ramp over the pixel straddling the edge. The window's fragment shader computes
/// exactly this.
#[cfg(test)]
fn capsule_coverage(local: Vec2, radius: f32, length: f32) -> f32 {
    let u = local.x - local.x.clamp(0.0, length.max(0.0));
    let distance = Vec2::new(u, local.y).length();
    (radius - distance + 0.5).clamp(0.0, 1.0)
}

fn polygon_mesh(points: &[Vec2], offset: Vec2, color: Rgba, feather: f32) -> Mesh {
    if color.a == 0 || points.iter().any(|p| !p.is_finite()) {
        return Mesh::default();
    }
    let mut outline: Vec<Vec2> = points.iter().map(|&p| p + offset).collect();
    outline.dedup_by(|a, b| a.distance_squared(*b) < 1e-8);
    while outline.len() > 1 && outline[0].distance_squared(outline[outline.len() - 1]) < 1e-8 {
        outline.pop();
    }
    // u16 indices: two vertices per outline point.
    if outline.len() < 3 || outline.len() > 16_000 {
        return Mesh::default();
    }
    fill_with_feather(&outline, color, feather)
}

fn solid(position: Vec2, color: Rgba) -> Vertex {
    Vertex {
        position,
        color,
        local: Vec2::ZERO,
        coverage: Coverage::Solid,
    }
}

fn fill_with_feather(outline: &[Vec2], color: Rgba, feather: f32) -> Mesh {
    let n = outline.len();
    let mut mesh = Mesh {
        vertices: outline
            .iter()
            .map(|&position| solid(position, color))
            .collect(),
        indices: Vec::with_capacity(3 * (n - 2) + if feather > 0.0 { 6 * n } else { 0 }),
    };
    for [a, b, c] in triangulate(outline) {
        mesh.indices.extend([a as u16, b as u16, c as u16]);
    }
    if !(feather > 0.0 && feather.is_finite()) {
        return mesh;
    }
    let orientation = if signed_area(outline) >= 0.0 {
        1.0
    } else {
        -1.0
    };
    // Outward unit normal of edge i (from point i to point i + 1).
    let edge_normal = |i: usize| {
        let e = outline[(i + 1) % n] - outline[i];
        (orientation * Vec2::new(e.y, -e.x)).normalize_or_zero()
    };
    let clear = Rgba { a: 0, ..color };
    for (i, &point) in outline.iter().enumerate() {
        let (before, after) = (edge_normal((i + n - 1) % n), edge_normal(i));
        let miter = (before + after).normalize_or_zero();
        // Keep the ring about `feather` wide along both edges, but never a long spike.
        let stretch = 1.0 / miter.dot(after).max(0.5);
        mesh.vertices
            .push(solid(point + miter * feather * stretch, clear));
    }
    for i in 0..n {
        let j = (i + 1) % n;
        let (a, b, c, d) = (i as u16, j as u16, (n + j) as u16, (n + i) as u16);
        mesh.indices.extend([a, b, c, a, c, d]);
    }
    mesh
}

/// The outline of a thick polyline through `points`, `half_width` either side, with square
/// ends and mitred joints (a joint's offset never more than twice `half_width`): the points of
/// one side in order, then the other side's back. Drawn as one polygon, a translucent line
/// blends once everywhere, also where its segments meet. Fewer than 2 distinct points give none.
pub(crate) fn polyline_outline(points: &[Vec2], half_width: f32) -> Vec<Vec2> {
    let mut points = points.to_vec();
    points.dedup_by(|a, b| a.distance_squared(*b) < 1e-8);
    let n = points.len();
    if n < 2 || !(half_width > 0.0 && half_width.is_finite()) {
        return Vec::new();
    }
    let normal = |segment: usize| (points[segment + 1] - points[segment]).normalize().perp();
    let offsets: Vec<Vec2> = (0..n)
        .map(|i| {
            let after = normal(i.min(n - 2));
            let before = normal(i.saturating_sub(1));
            let miter = (before + after).normalize_or_zero();
            if miter == Vec2::ZERO {
                return after * half_width; // the line turns back on itself
            }
            miter * (half_width / miter.dot(after).max(0.5))
        })
        .collect();
    let side = points.iter().zip(&offsets).map(|(&p, &o)| p + o);
    let back = points.iter().zip(&offsets).rev().map(|(&p, &o)| p - o);
    side.chain(back).collect()
}

/// Splits a simple polygon (either orientation, convex or not) into triangles by ear clipping.
/// Returns index triples into `points`; fewer than 3 points or a degenerate polygon give fewer
/// (possibly no) triangles, never a panic.
pub(crate) fn triangulate(points: &[Vec2]) -> Vec<[usize; 3]> {
    let n = points.len();
    if n < 3 {
        return Vec::new();
    }
    if is_convex(points) {
        return (1..n - 1).map(|i| [0, i, i + 1]).collect();
    }
    let orientation = signed_area(points).signum();
    let mut remaining: Vec<usize> = (0..n).collect();
    let mut triangles = Vec::with_capacity(n - 2);
    while remaining.len() > 3 {
        let m = remaining.len();
        let corner = |i: usize| {
            (
                remaining[(i + m - 1) % m],
                remaining[i],
                remaining[(i + 1) % m],
            )
        };
        match (0..m).find(|&i| {
            let (a, b, c) = corner(i);
            is_ear(points, &remaining, a, b, c, orientation)
        }) {
            Some(i) => {
                let (a, b, c) = corner(i);
                triangles.push([a, b, c]);
                remaining.remove(i);
            }
            // Self-intersecting or degenerate input: fan the rest rather than loop forever.
            None => {
                triangles
                    .extend((1..m - 1).map(|i| [remaining[0], remaining[i], remaining[i + 1]]));
                return triangles;
            }
        }
    }
    triangles.push([remaining[0], remaining[1], remaining[2]]);
    triangles
}

fn cross(o: Vec2, a: Vec2, b: Vec2) -> f32 {
    (a - o).perp_dot(b - o)
}

fn signed_area(points: &[Vec2]) -> f32 {
    let n = points.len();
    (0..n)
        .map(|i| points[i].perp_dot(points[(i + 1) % n]))
        .sum::<f32>()
        / 2.0
}

fn is_convex(points: &[Vec2]) -> bool {
    let n = points.len();
    let mut sign = 0.0f32;
    for i in 0..n {
        let c = cross(points[i], points[(i + 1) % n], points[(i + 2) % n]);
        if c != 0.0 {
            if sign != 0.0 && c.signum() != sign {
                return false;
            }
            sign = c.signum();
        }
    }
    true
}

fn is_ear(points: &[Vec2], remaining: &[usize], a: usize, b: usize, c: usize, orient: f32) -> bool {
    let (pa, pb, pc) = (points[a], points[b], points[c]);
    if cross(pa, pb, pc) * orient <= 0.0 {
        return false; // reflex or flat corner
    }
    !remaining
        .iter()
        .any(|&p| p != a && p != b && p != c && inside_triangle(points[p], pa, pb, pc, orient))
}

fn inside_triangle(p: Vec2, a: Vec2, b: Vec2, c: Vec2, orient: f32) -> bool {
    cross(a, b, p) * orient >= 0.0
        && cross(b, c, p) * orient >= 0.0
        && cross(c, a, p) * orient >= 0.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: f32, y: f32) -> Vec2 {
        Vec2::new(x, y)
    }

    #[test]
    fn a_polyline_outline_is_offset_by_the_half_width_with_mitred_joints() {
        let straight = polyline_outline(&[v(0.0, 0.0), v(10.0, 0.0), v(20.0, 0.0)], 1.0);
        let want = [
            (0.0, 1.0),
            (10.0, 1.0),
            (20.0, 1.0),
            (20.0, -1.0),
            (10.0, -1.0),
            (0.0, -1.0),
        ];
        assert_eq!(straight, want.map(|(x, y)| v(x, y)).to_vec());
        // A right angle: the joint's corners are on the bisector, sqrt(2) half widths out.
        let corner = polyline_outline(&[v(0.0, 0.0), v(10.0, 0.0), v(10.0, 10.0)], 1.0);
        let want = [
            (0.0, 1.0),
            (9.0, 1.0),
            (9.0, 10.0),
            (11.0, 10.0),
            (11.0, -1.0),
            (0.0, -1.0),
        ];
        for (got, want) in corner.iter().zip(want) {
            assert!(got.distance(v(want.0, want.1)) < 1e-5, "{corner:?}");
        }
        assert_eq!(corner.len(), 6);
        // A sharp turn: the mitre is capped at twice the half width.
        let sharp = polyline_outline(&[v(0.0, 0.0), v(10.0, 0.0), v(0.0, 0.5)], 1.0);
        assert!(sharp
            .iter()
            .all(|p| p.distance(v(10.0, 0.0)) <= 10.0 + 2.0 + 1e-4));
        assert!((sharp[1] - v(10.0, 0.0)).length() <= 2.0 + 1e-5);
        // Repeated points count once; a single point or a bad width gives nothing.
        assert_eq!(
            polyline_outline(&[v(0.0, 0.0), v(0.0, 0.0), v(5.0, 0.0)], 1.0).len(),
            4
        );
        assert!(polyline_outline(&[v(1.0, 1.0), v(1.0, 1.0)], 1.0).is_empty());
        assert!(polyline_outline(&[v(0.0, 0.0), v(5.0, 0.0)], f32::NAN).is_empty());
        // As a polygon it fills the line's area: length x width.
        let mesh = shape_mesh(
            &Shape::Polygon {
                points: straight,
                color: Rgba::rgb(1, 2, 3),
            },
            Vec2::ZERO,
            0.0,
        );
        let area: f32 = mesh
            .indices
            .chunks(3)
            .map(|t| {
                let [a, b, c] = [0, 1, 2].map(|k| mesh.vertices[t[k] as usize].position);
                (b - a).perp_dot(c - a).abs() / 2.0
            })
            .sum();
        assert!((area - 40.0).abs() < 1e-3, "{area}");
    }

    fn area_of(points: &[Vec2], triangles: &[[usize; 3]]) -> f32 {
        triangles
            .iter()
            .map(|&[a, b, c]| cross(points[a], points[b], points[c]).abs() / 2.0)
            .sum()
    }

    /// Area covered by the opaque (fill) triangles of a mesh.
    fn fill_area(mesh: &Mesh) -> f32 {
        mesh.indices
            .chunks(3)
            .filter(|t| t.iter().all(|&i| mesh.vertices[i as usize].color.a > 0))
            .map(|t| {
                let p = |k: usize| mesh.vertices[t[k] as usize].position;
                cross(p(0), p(1), p(2)).abs() / 2.0
            })
            .sum()
    }

    const RED: Rgba = Rgba {
        r: 200,
        g: 0,
        b: 0,
        a: 255,
    };

    #[test]
    fn convex_polygon_is_fanned() {
        let square = [v(0.0, 0.0), v(2.0, 0.0), v(2.0, 2.0), v(0.0, 2.0)];
        let t = triangulate(&square);
        assert_eq!(t, vec![[0, 1, 2], [0, 2, 3]]);
        assert_eq!(area_of(&square, &t), 4.0);
    }

    #[test]
    fn concave_l_shape_is_covered_exactly_in_both_orientations() {
        // An L of area 3 (a 2x2 square missing its top-right unit square).
        let mut l = vec![
            v(0.0, 0.0),
            v(2.0, 0.0),
            v(2.0, 1.0),
            v(1.0, 1.0),
            v(1.0, 2.0),
            v(0.0, 2.0),
        ];
        for _ in 0..2 {
            let t = triangulate(&l);
            assert_eq!(t.len(), 4);
            assert!((area_of(&l, &t) - 3.0).abs() < 1e-5);
            let hole = v(1.5, 1.5);
            for &[a, b, c] in &t {
                let o = cross(l[a], l[b], l[c]).signum();
                assert!(!inside_triangle(hole, l[a], l[b], l[c], o));
            }
            l.reverse();
        }
    }

    #[test]
    fn club_like_concave_outline_keeps_its_area() {
        // A thin handle joined to a wide body: concave at both joints; area 12 + 8 + 24 = 44.
        let club = [
            v(0.0, -1.0),
            v(6.0, -1.0),
            v(8.0, -3.0),
            v(12.0, -3.0),
            v(12.0, 3.0),
            v(8.0, 3.0),
            v(6.0, 1.0),
            v(0.0, 1.0),
        ];
        let t = triangulate(&club);
        assert_eq!(t.len(), 6);
        assert!((area_of(&club, &t) - 44.0).abs() < 1e-4);
    }

    #[test]
    fn degenerate_polygons_do_not_panic() {
        assert!(triangulate(&[]).is_empty());
        assert!(triangulate(&[v(0.0, 0.0), v(1.0, 1.0)]).is_empty());
        let line = [v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0), v(3.0, 0.0)];
        assert_eq!(area_of(&line, &triangulate(&line)), 0.0);
        let bowtie = [
            v(0.0, 0.0),
            v(2.0, 2.0),
            v(2.0, 0.0),
            v(0.0, 2.0),
            v(1.0, 3.0),
        ];
        assert!(triangulate(&bowtie).len() <= 3);
    }

    #[test]
    fn a_disc_is_one_quad_one_soft_pixel_larger_than_it() {
        let shape = Shape::Circle {
            center: v(50.0, 40.0),
            radius: 20.0,
            color: RED,
        };
        let mesh = shape_mesh(&shape, v(0.0, 10.0), FEATHER);
        assert_eq!((mesh.vertices.len(), mesh.triangles()), (4, 2));
        let coverage = Coverage::Capsule {
            radius: 20.0,
            length: 0.0,
        };
        for vert in &mesh.vertices {
            // Corners 21.5 px from the centre (50, 50) along both axes.
            let d = vert.position - v(50.0, 50.0);
            assert!((d.x.abs() - 21.5).abs() < 1e-4 && (d.y.abs() - 21.5).abs() < 1e-4);
            assert_eq!(vert.local, d);
            assert_eq!((vert.coverage, vert.color), (coverage, RED));
        }
    }

    #[test]
    fn a_line_quad_runs_along_the_line_in_local_coordinates() {
        let shape = Shape::Line {
            from: v(10.0, 10.0),
            to: v(10.0, 110.0),
            width: 10.0,
            color: RED,
        };
        let mesh = shape_mesh(&shape, Vec2::ZERO, FEATHER);
        assert_eq!(mesh.triangles(), 2);
        let m = 5.0 + FEATHER + 0.5;
        let locals: Vec<Vec2> = mesh.vertices.iter().map(|p| p.local).collect();
        assert_eq!(
            locals,
            vec![v(-m, -m), v(100.0 + m, -m), v(100.0 + m, m), v(-m, m)]
        );
        // Local x runs down the line: the second corner is past the line's end.
        assert!((mesh.vertices[1].position.y - (110.0 + m)).abs() < 1e-4);
        assert!(matches!(
            mesh.vertices[0].coverage,
            Coverage::Capsule { radius, length } if radius == 5.0 && length == 100.0
        ));
    }

    #[test]
    fn capsule_coverage_is_one_inside_zero_outside_and_half_on_the_edge() {
        // A line of length 100 and radius 5 along local x.
        let c = |x: f32, y: f32| capsule_coverage(v(x, y), 5.0, 100.0);
        assert_eq!(c(50.0, 0.0), 1.0);
        assert_eq!(c(50.0, 4.4), 1.0);
        assert_eq!(c(50.0, 5.0), 0.5);
        assert_eq!(c(50.0, 5.6), 0.0);
        // Round caps: distance to the end point.
        assert_eq!(c(-3.0, -4.0), 0.5);
        assert_eq!(c(104.0, 0.0), 1.0);
        assert_eq!(c(106.0, 0.0), 0.0);
        // A disc (length 0), and a radius below half a pixel only partly covers its centre.
        assert_eq!(capsule_coverage(v(3.0, 4.0), 5.0, 0.0), 0.5);
        assert_eq!(capsule_coverage(v(0.0, 0.0), 0.25, 0.0), 0.75);
    }

    #[test]
    fn unusable_shapes_give_empty_meshes() {
        let cases = [
            Shape::Circle {
                center: v(0.0, 0.0),
                radius: 0.0,
                color: RED,
            },
            Shape::Circle {
                center: v(f32::NAN, 0.0),
                radius: 3.0,
                color: RED,
            },
            Shape::Circle {
                center: v(0.0, 0.0),
                radius: 3.0,
                color: Rgba { a: 0, ..RED },
            },
            Shape::Line {
                from: v(0.0, 0.0),
                to: v(1.0, 0.0),
                width: -1.0,
                color: RED,
            },
            Shape::Line {
                from: v(0.0, 0.0),
                to: v(f32::INFINITY, 0.0),
                width: 2.0,
                color: RED,
            },
            Shape::Polygon {
                points: vec![v(0.0, 0.0), v(1.0, 1.0), v(0.0, 0.0)],
                color: RED,
            },
        ];
        for shape in cases {
            assert_eq!(
                shape_mesh(&shape, Vec2::ZERO, FEATHER),
                Mesh::default(),
                "{shape:?}"
            );
        }
        // A zero-length line is a dot: a disc quad.
        let dot = Shape::Line {
            from: v(3.0, 3.0),
            to: v(3.0, 3.0),
            width: 4.0,
            color: RED,
        };
        let mesh = shape_mesh(&dot, Vec2::ZERO, 0.0);
        assert!(matches!(
            mesh.vertices[0].coverage,
            Coverage::Capsule { radius, length } if radius == 2.0 && length == 0.0
        ));
    }

    #[test]
    fn concave_polygon_feather_points_outward() {
        let l = vec![
            v(0.0, 0.0),
            v(20.0, 0.0),
            v(20.0, 10.0),
            v(10.0, 10.0),
            v(10.0, 20.0),
            v(0.0, 20.0),
        ];
        for points in [l.clone(), l.into_iter().rev().collect()] {
            let mesh = shape_mesh(&Shape::Polygon { points, color: RED }, Vec2::ZERO, 1.0);
            assert!((fill_area(&mesh) - 300.0).abs() < 1e-3);
            // The ring vertex of the corner (0, 0) lies outside the shape, toward (-1, -1).
            let ring = &mesh.vertices[6..];
            assert!(
                ring.iter()
                    .any(|p| p.position.distance(v(-1.0, -1.0)) < 1e-3),
                "{ring:?}"
            );
            // The reflex corner (10, 10) moves into the missing square.
            assert!(ring
                .iter()
                .any(|p| p.position.x > 10.0 && p.position.y > 10.0));
        }
    }
}
