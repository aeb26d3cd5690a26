//! Shapes -> coloured triangles with soft edges, as plain data the window uploads as meshes.
//!
//! Every `Shape` becomes a closed outline (a disc an n-gon, a round-capped line a capsule, a
//! polygon itself), filled with triangles (a fan when convex, ear clipping otherwise) and
//! surrounded by a one-pixel "feather" ring whose outer edge is fully transparent. The ring
//! anti-aliases edges without multisampling, which software OpenGL (Xvfb) cannot afford at
//! 60 frames per second, and each shape is one mesh, so translucent shapes blend once.

use glam::Vec2;

use crate::render::Shape;
use crate::types::Rgba;

/// Width of the transparent-going ring around every shape, pixels.
pub const FEATHER: f32 = 1.0;

/// One corner of a triangle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Vertex {
    pub position: Vec2,
    pub color: Rgba,
}

/// Triangles of one shape: `indices` are triples into `vertices`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Mesh {
    pub vertices: Vec<Vertex>,
    pub indices: Vec<u16>,
}

impl Mesh {
    /// Number of triangles.
    pub fn triangles(&self) -> usize {
        self.indices.len() / 3
    }
}

/// The mesh of `shape` moved by `offset`, with a feather ring of `feather` pixels (0 = hard
/// edges). Shapes with non-finite coordinates, no area or a transparent colour give an empty
/// mesh.
pub fn shape_mesh(shape: &Shape, offset: Vec2, feather: f32) -> Mesh {
    let (mut outline, color) = match shape {
        Shape::Circle {
            center,
            radius,
            color,
        } => (disc_outline(*center, *radius), *color),
        Shape::Line {
            from,
            to,
            width,
            color,
        } => (capsule_outline(*from, *to, *width / 2.0), *color),
        Shape::Polygon { points, color } => (points.clone(), *color),
    };
    if color.a == 0 || outline.iter().any(|p| !p.is_finite()) {
        return Mesh::default();
    }
    outline.dedup_by(|a, b| a.distance_squared(*b) < 1e-8);
    while outline.len() > 1 && outline[0].distance_squared(outline[outline.len() - 1]) < 1e-8 {
        outline.pop();
    }
    // u16 indices: two vertices per outline point.
    if outline.len() < 3 || outline.len() > 16_000 {
        return Mesh::default();
    }
    for p in &mut outline {
        *p += offset;
    }
    fill_with_feather(&outline, color, feather)
}

/// Sides of the polygon approximating a disc of `radius` pixels: the sagitta stays under about
/// a quarter pixel, between 8 and 96 sides.
pub fn disc_sides(radius: f32) -> usize {
    // sagitta = r (1 - cos(pi / n)) ~ r pi^2 / (2 n^2) <= 0.25  =>  n >= pi sqrt(2 r)
    let n = (std::f32::consts::PI * (2.0 * radius.max(0.0)).sqrt()).ceil();
    n.clamp(8.0, 96.0) as usize
}

fn disc_outline(center: Vec2, radius: f32) -> Vec<Vec2> {
    if !(radius.is_finite() && radius > 0.0) {
        return Vec::new();
    }
    let n = disc_sides(radius);
    (0..n)
        .map(|i| {
            let a = std::f32::consts::TAU * i as f32 / n as f32;
            center + radius * Vec2::new(a.cos(), a.sin())
        })
        .collect()
}

/// A stadium: the segment `from`-`to` thickened by `r` on each side with round ends.
fn capsule_outline(from: Vec2, to: Vec2, r: f32) -> Vec<Vec2> {
    if !(r.is_finite() && r > 0.0) {
        return Vec::new();
    }
    let d = to - from;
    if d.length_squared() < 1e-8 {
        return disc_outline(from, r);
    }
    let angle = d.y.atan2(d.x);
    // An even number of segments per end, so the cap's tip is a vertex.
    let half = (disc_sides(r).div_ceil(2).max(4) + 1) & !1;
    let mut points = Vec::with_capacity(2 * (half + 1));
    // Around `to` from one side to the other, then around `from`.
    for (end, start) in [
        (to, angle - std::f32::consts::FRAC_PI_2),
        (from, angle + std::f32::consts::FRAC_PI_2),
    ] {
        for i in 0..=half {
            let a = start + std::f32::consts::PI * i as f32 / half as f32;
            points.push(end + r * Vec2::new(a.cos(), a.sin()));
        }
    }
    points
}

fn fill_with_feather(outline: &[Vec2], color: Rgba, feather: f32) -> Mesh {
    let n = outline.len();
    let mut mesh = Mesh {
        vertices: outline
            .iter()
            .map(|&position| Vertex { position, color })
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
        mesh.vertices.push(Vertex {
            position: point + miter * feather * stretch,
            color: clear,
        });
    }
    for i in 0..n {
        let j = (i + 1) % n;
        let (a, b, c, d) = (i as u16, j as u16, (n + j) as u16, (n + i) as u16);
        mesh.indices.extend([a, b, c, a, c, d]);
    }
    mesh
}

/// Splits a simple polygon (either orientation, convex or not) into triangles by ear clipping.
/// Returns index triples into `points`; fewer than 3 points or a degenerate polygon give fewer
/// (possibly no) triangles, never a panic.
pub fn triangulate(points: &[Vec2]) -> Vec<[usize; 3]> {
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
    fn disc_sides_grow_with_radius() {
        assert_eq!(disc_sides(0.5), 8);
        assert_eq!(disc_sides(8.0), 13); // pi * 4 = 12.57
        assert_eq!(disc_sides(50.0), 32); // pi * 10 = 31.4
        assert_eq!(disc_sides(10_000.0), 96);
        assert_eq!(disc_sides(f32::NAN), 8);
    }

    #[test]
    fn disc_mesh_covers_the_disc_and_fades_out_one_pixel_beyond() {
        let shape = Shape::Circle {
            center: v(50.0, 40.0),
            radius: 20.0,
            color: RED,
        };
        let mesh = shape_mesh(&shape, v(0.0, 10.0), FEATHER);
        let n = disc_sides(20.0); // 20 sides
        assert_eq!(mesh.vertices.len(), 2 * n);
        assert_eq!(mesh.triangles(), (n - 2) + 2 * n);
        // The filled n-gon's area, moved by the offset: (n/2) r^2 sin(2 pi / n).
        let expected = n as f32 / 2.0 * 400.0 * (std::f32::consts::TAU / n as f32).sin();
        assert!(
            (fill_area(&mesh) - expected).abs() < 0.01,
            "{}",
            fill_area(&mesh)
        );
        for (i, vert) in mesh.vertices.iter().enumerate() {
            let r = vert.position.distance(v(50.0, 50.0));
            if i < n {
                assert!((r - 20.0).abs() < 1e-3 && vert.color == RED);
            } else {
                assert!(r > 20.9 && r < 21.1, "{r}");
                assert_eq!(vert.color.a, 0);
            }
        }
    }

    #[test]
    fn line_mesh_is_a_capsule_of_the_line_width() {
        let shape = Shape::Line {
            from: v(0.0, 0.0),
            to: v(100.0, 0.0),
            width: 10.0,
            color: RED,
        };
        let mesh = shape_mesh(&shape, Vec2::ZERO, 0.0);
        // Rectangle 100 x 10 plus a disc of radius 5 (as a 12-gon: 95.5% of the disc).
        let area = fill_area(&mesh);
        let disc = std::f32::consts::PI * 25.0;
        assert!(
            area < 1000.0 + disc && area > 1000.0 + 0.95 * disc,
            "{area}"
        );
        let xs = mesh.vertices.iter().map(|p| p.position.x);
        let (lo, hi) = xs.fold((f32::MAX, f32::MIN), |(lo, hi), x| (lo.min(x), hi.max(x)));
        assert!((lo + 5.0).abs() < 1e-3 && (hi - 105.0).abs() < 1e-3);
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
        // A zero-length line is a dot.
        let dot = Shape::Line {
            from: v(3.0, 3.0),
            to: v(3.0, 3.0),
            width: 4.0,
            color: RED,
        };
        assert_eq!(
            shape_mesh(&dot, Vec2::ZERO, 0.0).vertices.len(),
            disc_sides(2.0)
        );
    }
}
