//! The painter: world shapes projected through a camera view into pixel shapes (discs, thick
//! lines, polygons, outlined or not), clipped to the near plane.

use glam::{Vec2, Vec3};

use crate::render::camera::{View, NEAR};
use crate::render::style::{outline, Style};
use crate::render::Shape;
use crate::types::Rgba;

/// Projects and styles parts of the scene.
pub(super) struct Painter<'a> {
    pub(super) view: View,
    pub(super) style: &'a Style,
}

impl Painter<'_> {
    /// A disc of world radius `r` around `c`.
    pub(super) fn disc(&self, c: Vec3, r: f32, color: Rgba) -> Option<Shape> {
        let (center, depth) = self.view.project(c)?;
        Some(Shape::Circle {
            center,
            radius: r * self.view.scale(depth),
            color,
        })
    }

    /// A disc of world radius `r` around `c`, with a dark outline: two shapes.
    pub(super) fn outlined_disc(&self, c: Vec3, r: f32, color: Rgba, out: &mut Vec<Shape>) {
        if let Some((center, depth)) = self.view.project(c) {
            let radius = r * self.view.scale(depth);
            out.push(Shape::Circle {
                center,
                radius: radius + self.style.outline_px,
                color: outline(color),
            });
            out.push(Shape::Circle {
                center,
                radius,
                color,
            });
        }
    }

    /// The segment `a`–`b` clipped to the near plane, in pixels, with the pixel scale at its
    /// middle.
    pub(super) fn segment(&self, a: Vec3, b: Vec3) -> Option<(Vec2, Vec2, f32)> {
        let (da, db) = (self.view.depth(a), self.view.depth(b));
        if da < NEAR && db < NEAR {
            return None;
        }
        let cut = |p: Vec3, dp: f32, q: Vec3, dq: f32| {
            if dp >= NEAR {
                p
            } else {
                p + (q - p) * ((NEAR - dp) / (dq - dp))
            }
        };
        let (a, b) = (cut(a, da, b, db), cut(b, db, a, da));
        let (pa, _) = self.view.project(a)?;
        let (pb, _) = self.view.project(b)?;
        let scale = self.view.scale(self.view.depth(0.5 * (a + b)));
        Some((pa, pb, scale))
    }

    /// A thick line of world width `w`.
    pub(super) fn line(&self, a: Vec3, b: Vec3, w: f32, color: Rgba) -> Option<Shape> {
        let (from, to, scale) = self.segment(a, b)?;
        Some(Shape::Line {
            from,
            to,
            width: w * scale,
            color,
        })
    }

    /// A thick line with a dark outline: two shapes.
    pub(super) fn outlined_line(
        &self,
        a: Vec3,
        b: Vec3,
        w: f32,
        color: Rgba,
        out: &mut Vec<Shape>,
    ) {
        if let Some((from, to, scale)) = self.segment(a, b) {
            let width = w * scale;
            out.push(Shape::Line {
                from,
                to,
                width: width + 2.0 * self.style.outline_px,
                color: outline(color),
            });
            out.push(Shape::Line {
                from,
                to,
                width,
                color,
            });
        }
    }

    /// A planar polygon given in world space, clipped to the near plane.
    pub(super) fn polygon(&self, points: &[Vec3], color: Rgba) -> Option<Shape> {
        let clipped = clip_near(points, |p| self.view.depth(p));
        let projected: Vec<Vec2> = clipped
            .iter()
            .filter_map(|p| self.view.project(*p))
            .map(|(px, _)| px)
            .collect();
        (projected.len() >= 3).then_some(Shape::Polygon {
            points: projected,
            color,
        })
    }

    /// The convex hull of the projections of `points` (points behind the eye are dropped).
    pub(super) fn hull(&self, points: &[Vec3]) -> Vec<Vec2> {
        let projected: Vec<Vec2> = points
            .iter()
            .filter_map(|p| self.view.project(*p))
            .map(|(px, _)| px)
            .collect();
        convex_hull(projected)
    }

    /// A convex pixel polygon with a dark outline: the polygon grown by the outline width
    /// underneath, then the polygon.
    pub(super) fn outlined_hull(&self, hull: Vec<Vec2>, color: Rgba, out: &mut Vec<Shape>) {
        if hull.len() < 3 {
            return;
        }
        out.push(Shape::Polygon {
            points: grow(&hull, self.style.outline_px),
            color: outline(color),
        });
        out.push(Shape::Polygon {
            points: hull,
            color,
        });
    }

    /// A horizontal ellipse on the floor (y = 0) around `c`, with semi-axes along `u` and `v`.
    pub(super) fn floor_ellipse(
        &self,
        c: Vec3,
        u: Vec3,
        v: Vec3,
        color: Rgba,
        segments: usize,
    ) -> Option<Shape> {
        let points: Vec<Vec3> = (0..segments)
            .map(|k| {
                let a = std::f32::consts::TAU * k as f32 / segments as f32;
                Vec3::new(c.x, 0.0, c.z) + u * a.cos() + v * a.sin()
            })
            .collect();
        self.polygon(&points, color)
    }
}

/// Sutherland–Hodgman clipping of a polygon against the plane `depth(p) = NEAR`.
fn clip_near(points: &[Vec3], depth: impl Fn(Vec3) -> f32) -> Vec<Vec3> {
    let mut out = Vec::with_capacity(points.len() + 2);
    for (i, &p) in points.iter().enumerate() {
        let q = points[(i + 1) % points.len()];
        let (dp, dq) = (depth(p), depth(q));
        if dp >= NEAR {
            out.push(p);
        }
        if (dp >= NEAR) != (dq >= NEAR) {
            out.push(p + (q - p) * ((NEAR - dp) / (dq - dp)));
        }
    }
    out
}

/// Convex hull (Andrew's monotone chain), counter-clockwise in pixel space, without
/// repeated or collinear points.
pub(super) fn convex_hull(mut points: Vec<Vec2>) -> Vec<Vec2> {
    points.retain(|p| p.is_finite());
    points.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    points.dedup();
    if points.len() < 3 {
        return points;
    }
    let cross = |o: Vec2, a: Vec2, b: Vec2| (a - o).perp_dot(b - o);
    let mut hull: Vec<Vec2> = Vec::with_capacity(points.len() * 2);
    for pass in 0..2 {
        let start = hull.len();
        let iter: Box<dyn Iterator<Item = &Vec2>> = if pass == 0 {
            Box::new(points.iter())
        } else {
            Box::new(points.iter().rev())
        };
        for &p in iter {
            while hull.len() >= start + 2
                && cross(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0.0
            {
                hull.pop();
            }
            hull.push(p);
        }
        hull.pop();
    }
    hull
}

/// A convex polygon grown outward by about `by` pixels (vertices pushed away from the
/// centroid).
fn grow(points: &[Vec2], by: f32) -> Vec<Vec2> {
    let centroid = points.iter().copied().sum::<Vec2>() / points.len() as f32;
    points
        .iter()
        .map(|&p| p + (p - centroid).try_normalize().unwrap_or(Vec2::ZERO) * by)
        .collect()
}
