//! Props: shaded balls, clubs as lathe profiles seen from any side, rings as bands.

use glam::{Vec2, Vec3};

use super::paint::Painter;
use super::{Layer, Part};
use crate::body::props::{RING_DIAMETER, RING_INNER_DIAMETER};
use crate::body::PropPose;
use crate::render::style::{outline, shade, tint};
use crate::render::Shape;
use crate::types::PropKind;

impl Painter<'_> {
    pub(super) fn prop(&self, index: usize, prop: &PropPose, out: &mut Vec<Layer>) {
        let mut shapes = Vec::new();
        match prop.kind {
            PropKind::Ball => self.ball(prop, &mut shapes),
            PropKind::Club => self.club(prop, &mut shapes),
            PropKind::Ring => self.ring(prop, &mut shapes),
        }
        out.push(Layer {
            part: Part::Prop { index },
            depth: self.view.depth(prop.position),
            shapes,
        });
    }

    /// A shaded ball: outline, dark base, lit body offset toward the light (upper left),
    /// highlight and a specular dot.
    fn ball(&self, prop: &PropPose, out: &mut Vec<Shape>) {
        let Some((c, depth)) = self.view.project(prop.position) else {
            return;
        };
        let r = 0.5 * prop.size.max(0.0) * self.view.scale(depth);
        let color = prop.color;
        let light = Vec2::new(-0.62, -0.78);
        out.push(Shape::Circle {
            center: c,
            radius: r + self.style.outline_px,
            color: outline(color),
        });
        out.push(Shape::Circle {
            center: c,
            radius: r,
            color: shade(color, 0.72),
        });
        out.push(Shape::Circle {
            center: c + light * (0.2 * r),
            radius: 0.78 * r,
            color,
        });
        out.push(Shape::Circle {
            center: c + light * (0.42 * r),
            radius: 0.36 * r,
            color: tint(color, 0.35),
        });
        out.push(Shape::Circle {
            center: c + light * (0.56 * r),
            radius: 0.13 * r,
            color: tint(color, 0.8),
        });
    }

    /// A club seen from any side: a lathe profile (knob, handle, body) projected along its
    /// axis, drawn as tapered polygons with the body end disc for end-on views.
    fn club(&self, prop: &PropPose, out: &mut Vec<Shape>) {
        // Profile stations: (distance from the knob, radius), as fractions of the length.
        const PROFILE: [(f32, f32); 10] = crate::body::props::CLUB_PROFILE;
        const PIVOT: f32 = 0.41; // 0.20 m of 0.485 m from the knob.
        const HANDLE_END: usize = 4; // stations up to here are the handle.
        let length = prop.size.max(0.01);
        let axis = prop.axis.try_normalize().unwrap_or(Vec3::Y);
        let knob = prop.position - axis * (PIVOT * length);
        let stations: Vec<Option<(Vec2, f32)>> = PROFILE
            .iter()
            .map(|&(s, r)| {
                self.view
                    .project(knob + axis * (s * length))
                    .map(|(px, d)| (px, r * length * self.view.scale(d)))
            })
            .collect();
        let stations: Option<Vec<(Vec2, f32)>> = stations.into_iter().collect();
        let Some(stations) = stations else { return };
        let start = stations[0].0;
        let end = stations[PROFILE.len() - 1].0;
        let dir = (end - start).try_normalize().unwrap_or(Vec2::Y);
        let normal = Vec2::new(-dir.y, dir.x);
        let outline_px = self.style.outline_px;
        let side = |range: std::ops::RangeInclusive<usize>,
                    grow: f32,
                    scale: f32,
                    shift: f32|
         -> Vec<Vec2> {
            let mut left = Vec::new();
            let mut right = Vec::new();
            for &(c, r) in &stations[range] {
                let w = r * scale + grow;
                left.push(c + normal * (w + shift * r));
                right.push(c - normal * (w - shift * r));
            }
            right.reverse();
            left.extend(right);
            left
        };
        let color = prop.color;
        let all = 0..=PROFILE.len() - 1;
        let (widest_c, widest_r) = stations[6];
        // Outline of everything first.
        out.push(Shape::Circle {
            center: widest_c,
            radius: widest_r + outline_px,
            color: outline(color),
        });
        out.push(Shape::Polygon {
            points: side(all.clone(), outline_px, 1.0, 0.0),
            color: outline(color),
        });
        // Seen nearly end-on the profile collapses: the widest section shows as a disc, in
        // front of the handle or behind it depending on which end is nearer.
        let projected = start.distance(end);
        let full = length * self.view.scale(self.view.depth(prop.position));
        let end_on = projected < 0.5 * full;
        let body_nearer = self.view.depth(knob + axis * length) < self.view.depth(knob);
        // Seen from its body's end, a club shows its stripe as a ring and its dark end cap
        // in the middle (a highlight there made it look like a ball); seen from its knob,
        // the body's shoulder behind the handle, shaded.
        let body_disc = |out: &mut Vec<Shape>| {
            let facing = end_on && body_nearer;
            out.push(Shape::Circle {
                center: widest_c,
                radius: widest_r,
                color: if facing { color } else { shade(color, 0.85) },
            });
            if facing {
                let (cap_c, cap_r) = stations[PROFILE.len() - 1];
                for (radius, ring) in [(0.8, tint(color, 0.75)), (0.62, color)] {
                    out.push(Shape::Circle {
                        center: widest_c,
                        radius: radius * widest_r,
                        color: ring,
                    });
                }
                out.push(Shape::Circle {
                    center: cap_c,
                    radius: cap_r + outline_px,
                    color: outline(color),
                });
                out.push(Shape::Circle {
                    center: cap_c,
                    radius: cap_r,
                    color: shade(color, 0.5),
                });
            }
        };
        let handle = |out: &mut Vec<Shape>| {
            out.push(Shape::Polygon {
                points: side(1..=HANDLE_END, 0.0, 1.0, 0.0),
                color: self.style.club_handle,
            });
            out.push(Shape::Circle {
                center: stations[1].0,
                radius: stations[1].1,
                color,
            });
        };
        if end_on && body_nearer {
            handle(out);
            out.push(Shape::Polygon {
                points: side(HANDLE_END..=PROFILE.len() - 1, 0.0, 1.0, 0.0),
                color,
            });
            body_disc(out);
            return;
        }
        body_disc(out);
        out.push(Shape::Polygon {
            points: side(all, 0.0, 1.0, 0.0),
            color,
        });
        handle(out);
        if !end_on {
            // A stripe and a highlight along the body.
            out.push(Shape::Polygon {
                points: side(5..=6, 0.0, 1.0, 0.0),
                color: tint(color, 0.75),
            });
            out.push(Shape::Polygon {
                points: side(5..=8, 0.0, 0.28, 0.45),
                color: tint(color, 0.45),
            });
        }
    }

    /// A ring: its centre circle projected in 3D and drawn as a band of short thick segments
    /// (an ellipse seen obliquely, a bar edge-on), outlined, with a lit upper half.
    fn ring(&self, prop: &PropPose, out: &mut Vec<Shape>) {
        const SEGMENTS: usize = 28;
        let outer = 0.5 * prop.size.max(0.01);
        let inner = outer * (RING_INNER_DIAMETER / RING_DIAMETER);
        let mid = 0.5 * (outer + inner);
        let band = outer - inner;
        let normal = prop.axis.try_normalize().unwrap_or(Vec3::Z);
        let u = normal.any_orthonormal_vector();
        let v = normal.cross(u);
        let points: Vec<Vec3> = (0..=SEGMENTS)
            .map(|k| {
                let a = std::f32::consts::TAU * k as f32 / SEGMENTS as f32;
                prop.position + (u * a.cos() + v * a.sin()) * mid
            })
            .collect();
        let segments: Vec<(Vec2, Vec2, f32, f32)> = points
            .windows(2)
            .filter_map(|w| {
                self.segment(w[0], w[1])
                    .map(|(a, b, scale)| (a, b, scale, 0.5 * (w[0] + w[1]).y - prop.position.y))
            })
            .collect();
        let color = prop.color;
        for &(from, to, scale, _) in &segments {
            out.push(Shape::Line {
                from,
                to,
                width: band * scale + 2.0 * self.style.outline_px,
                color: outline(color),
            });
        }
        for &(from, to, scale, _) in &segments {
            out.push(Shape::Line {
                from,
                to,
                width: band * scale,
                color,
            });
        }
        for &(from, to, scale, rise) in &segments {
            if rise > 0.25 * mid {
                out.push(Shape::Line {
                    from,
                    to,
                    width: 0.35 * band * scale,
                    color: tint(color, 0.45),
                });
            }
        }
    }
}
