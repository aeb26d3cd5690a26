//! Puts a `render::Frame` on the macroquad window: one `match` over `Shape`, nothing else.
//! The juggling in the window comes only from here, so it matches the headless export.

use glam::Vec2;
use macroquad::prelude as mq;

use crate::render::{Frame, Shape};
use crate::types::Rgba;

/// macroquad colour of an `Rgba`.
pub fn color(c: Rgba) -> mq::Color {
    mq::Color::from_rgba(c.r, c.g, c.b, c.a)
}

fn point(p: Vec2, offset: Vec2) -> mq::Vec2 {
    mq::vec2(p.x + offset.x, p.y + offset.y)
}

/// Draws `frame` with its top-left corner at `offset` (window pixels): the background
/// rectangle, then every shape in painter's order.
pub fn draw_frame(frame: &Frame, offset: Vec2) {
    mq::draw_rectangle(
        offset.x,
        offset.y,
        frame.width as f32,
        frame.height as f32,
        color(frame.background),
    );
    for shape in &frame.shapes {
        draw_shape(shape, offset);
    }
}

fn draw_shape(shape: &Shape, offset: Vec2) {
    match shape {
        Shape::Circle {
            center,
            radius,
            color: c,
        } => {
            draw_disc(point(*center, offset), *radius, color(*c));
        }
        Shape::Line {
            from,
            to,
            width,
            color: c,
        } => {
            let (a, b, c) = (point(*from, offset), point(*to, offset), color(*c));
            mq::draw_line(a.x, a.y, b.x, b.y, *width, c);
            // Round caps.
            draw_disc(a, width / 2.0, c);
            draw_disc(b, width / 2.0, c);
        }
        Shape::Polygon { points, color: c } => {
            let c = color(*c);
            for [i, j, k] in triangulate(points) {
                mq::draw_triangle(
                    point(points[i], offset),
                    point(points[j], offset),
                    point(points[k], offset),
                    c,
                );
            }
        }
    }
}

/// A filled disc with enough sides to look round at its size.
fn draw_disc(center: mq::Vec2, radius: f32, c: mq::Color) {
    if !(radius.is_finite() && radius > 0.0) {
        return;
    }
    mq::draw_poly(center.x, center.y, disc_sides(radius), radius, 0.0, c);
}

/// Sides of the polygon approximating a disc of `radius` pixels: the sagitta stays under about
/// a quarter pixel, between 8 and 96 sides.
pub fn disc_sides(radius: f32) -> u8 {
    // sagitta = r (1 - cos(pi / n)) ~ r pi^2 / (2 n^2) <= 0.25  =>  n >= pi sqrt(2 r)
    let n = (std::f32::consts::PI * (2.0 * radius.max(0.0)).sqrt()).ceil();
    n.clamp(8.0, 96.0) as u8
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
        let ear = (0..m).find(|&i| {
            let (a, b, c) = (
                remaining[(i + m - 1) % m],
                remaining[i],
                remaining[(i + 1) % m],
            );
            is_ear(points, &remaining, a, b, c, orientation)
        });
        match ear {
            Some(i) => {
                let (a, b, c) = (
                    remaining[(i + m - 1) % m],
                    remaining[i],
                    remaining[(i + 1) % m],
                );
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
    let turn = cross(pa, pb, pc);
    if turn * orient <= 0.0 {
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

    fn area_of(points: &[Vec2], triangles: &[[usize; 3]]) -> f32 {
        triangles
            .iter()
            .map(|&[a, b, c]| cross(points[a], points[b], points[c]).abs() / 2.0)
            .sum()
    }

    fn v(x: f32, y: f32) -> Vec2 {
        Vec2::new(x, y)
    }

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
            // No triangle covers the missing square's centre.
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
        // A thin handle joined to a wide body: concave at both joints.
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
        let expected = signed_area(&club).abs();
        assert!((area_of(&club, &t) - expected).abs() < 1e-4, "{expected}");
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
}
