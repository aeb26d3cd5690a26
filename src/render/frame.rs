//! Building a [`Frame`] from a [`Pose`]: the juggler figures, the props and the floor,
//! projected through a [`Camera`] and ordered back to front.
//!
//! The scene is first cut into [`Layer`]s, each a small group of shapes with one depth and a
//! [`Part`] label (a limb, a torso with its head, a prop, the floor). Floor layers come first;
//! all other layers are sorted far to near by their depth, so a prop behind a juggler's body
//! is drawn before it and a prop in front after it, and the limbs of the far side are drawn
//! before the torso. The torso is treated as an upright cylinder around the body's axis, so
//! its depth is the depth of that axis; arms and props lie outside it, so comparing their own
//! depth with the axis' depth tells which side of the body they are on.

use glam::{Vec2, Vec3};

use super::camera::{Camera, View, NEAR};
use super::style::{outline, shade, tint, Style};
use super::{Frame, Shape};
use crate::body::{JugglerPose, Pose, PropPose};
use crate::types::{Hand, PropKind, Rgba};

/// What a layer depicts (juggler and prop indices are 0-based, as in the `Pose`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// The floor disc and its grid.
    Floor,
    /// A shadow on the floor: of juggler `Some(j)` or, with `None`, of a prop.
    Shadow {
        juggler: Option<usize>,
    },
    /// Legs, pelvis, torso, neck and head of a juggler: drawn as one block.
    Body {
        juggler: usize,
    },
    UpperArm {
        juggler: usize,
        hand: Hand,
    },
    Forearm {
        juggler: usize,
        hand: Hand,
    },
    Hand {
        juggler: usize,
        hand: Hand,
    },
    Prop {
        index: usize,
    },
}

/// A group of shapes drawn together, with the camera depth used to order it.
#[derive(Clone, Debug, PartialEq)]
pub struct Layer {
    pub part: Part,
    /// Metres in front of the eye; floor layers use `f32::INFINITY` (always drawn first).
    pub depth: f32,
    pub shapes: Vec<Shape>,
}

/// The frame of `pose` seen through `camera` in a `width` × `height` image, default style.
pub fn build_frame(pose: &Pose, camera: &Camera, width: u32, height: u32) -> Frame {
    build_frame_styled(pose, camera, width, height, &Style::default())
}

/// [`build_frame`] with an explicit style.
pub fn build_frame_styled(
    pose: &Pose,
    camera: &Camera,
    width: u32,
    height: u32,
    style: &Style,
) -> Frame {
    let layers = build_layers(pose, camera, width, height, style);
    Frame {
        width,
        height,
        background: style.background,
        shapes: layers.into_iter().flat_map(|l| l.shapes).collect(),
    }
}

/// The layers of a frame, already in drawing order (back to front).
pub fn build_layers(
    pose: &Pose,
    camera: &Camera,
    width: u32,
    height: u32,
    style: &Style,
) -> Vec<Layer> {
    let painter = Painter {
        view: camera.view(width, height),
        style,
    };
    let mut floor = Vec::new();
    painter.floor(pose, &mut floor);
    for (j, juggler) in pose.jugglers.iter().enumerate() {
        painter.juggler_shadow(j, juggler, &mut floor);
    }
    for prop in &pose.props {
        painter.prop_shadow(prop, &mut floor);
    }

    let mut layers = Vec::new();
    for (j, juggler) in pose.jugglers.iter().enumerate() {
        painter.juggler(j, juggler, &mut layers);
    }
    for (i, prop) in pose.props.iter().enumerate() {
        painter.prop(i, prop, &mut layers);
    }
    order_against_bodies(pose, &painter.view, &mut layers);
    // Far to near; stable, so equal depths keep their construction order.
    layers.sort_by(|a, b| b.depth.total_cmp(&a.depth));
    floor.extend(layers);
    floor.retain(|l| !l.shapes.is_empty());
    floor
}

/// Largest radius of the stage disc, metres.
const MAX_STAGE: f32 = 60.0;

/// Horizontal radius of the upright cylinder standing for a juggler's body when deciding
/// what is in front of it (metres).
const BODY_RADIUS: f32 = 0.17;

/// The point of a layer that decides its side of a body: the middle of a limb, the hand,
/// the prop's centre.
fn anchor(part: Part, pose: &Pose) -> Option<Vec3> {
    let arm = |j: usize, hand: Hand| pose.jugglers.get(j).map(|p| p.arms[hand.index()]);
    match part {
        Part::UpperArm { juggler, hand } => {
            arm(juggler, hand).map(|a| 0.5 * (a.shoulder + a.elbow))
        }
        Part::Forearm { juggler, hand } => arm(juggler, hand).map(|a| 0.5 * (a.elbow + a.wrist)),
        Part::Hand { juggler, hand } => arm(juggler, hand).map(|a| a.hand),
        Part::Prop { index } => pose.props.get(index).map(|p| p.position),
        Part::Floor | Part::Shadow { .. } | Part::Body { .. } => None,
    }
}

/// Seen along the ray from the eye through `p`, is `p` in front of the upright cylinder
/// (axis through `axis` on the floor, radius `radius`, from the floor to `top`)?
/// `Some(true)` in front, `Some(false)` behind, `None` when the ray misses the cylinder.
fn in_front_of_cylinder(eye: Vec3, p: Vec3, axis: Vec3, radius: f32, top: f32) -> Option<bool> {
    let d = p - eye;
    let (ex, ez) = (eye.x - axis.x, eye.z - axis.z);
    // Parameter range where the ray is inside the infinite cylinder.
    let a = d.x * d.x + d.z * d.z;
    let c = ex * ex + ez * ez - radius * radius;
    let (s0, s1) = if a < 1e-12 {
        if c > 0.0 {
            return None;
        }
        (f32::MIN, f32::MAX)
    } else {
        let b = 2.0 * (ex * d.x + ez * d.z);
        let disc = b * b - 4.0 * a * c;
        if disc < 0.0 {
            return None;
        }
        let root = disc.sqrt();
        ((-b - root) / (2.0 * a), (-b + root) / (2.0 * a))
    };
    // ... and between the floor and the top.
    let (h0, h1) = if d.y.abs() < 1e-12 {
        if eye.y < 0.0 || eye.y > top {
            return None;
        }
        (f32::MIN, f32::MAX)
    } else {
        let (sa, sb) = ((0.0 - eye.y) / d.y, (top - eye.y) / d.y);
        (sa.min(sb), sa.max(sb))
    };
    let enter = s0.max(h0).max(0.0);
    let leave = s1.min(h1);
    if enter > leave {
        return None;
    }
    if enter >= 1.0 {
        return Some(true);
    }
    if leave <= 1.0 {
        return Some(false);
    }
    // `p` is inside the cylinder: in front when it lies before the axis along the ray.
    Some((axis.x - p.x) * d.x + (axis.z - p.z) * d.z > 0.0)
}

/// Keep limbs and props on the right side of each body they overlap: a layer whose ray meets
/// a body before reaching it is drawn before that body, one met after it is drawn after it.
/// (The body is an upright cylinder around its axis; depth alone misorders e.g. a club held
/// low in front of the legs seen from above.)
fn order_against_bodies(pose: &Pose, view: &View, layers: &mut [Layer]) {
    const GAP: f32 = 1e-3;
    let bodies: Vec<(usize, Vec3, f32, f32)> = layers
        .iter()
        .filter_map(|l| match l.part {
            Part::Body { juggler } => pose.jugglers.get(juggler).map(|p| {
                let centre =
                    0.25 * (p.arms[0].shoulder + p.arms[1].shoulder + p.hips[0] + p.hips[1]);
                (juggler, centre, p.head.y + p.head_radius, l.depth)
            }),
            _ => None,
        })
        .collect();
    // A ray can only meet a body whose on-screen box holds the point it goes through: look
    // bodies up in a grid of their boxes instead of testing every body (large scenes).
    let grid = BodyGrid::new(view, &bodies);
    let mut candidates = Vec::new();
    for layer in layers.iter_mut() {
        let Some(p) = anchor(layer.part, pose) else {
            continue;
        };
        grid.candidates(view, p, &mut candidates);
        for &b in &candidates {
            let (_, axis, top, body_depth) = bodies[b];
            match in_front_of_cylinder(view.eye, p, axis, BODY_RADIUS, top) {
                Some(true) => layer.depth = layer.depth.min(body_depth - GAP),
                Some(false) => layer.depth = layer.depth.max(body_depth + GAP),
                None => {}
            }
        }
    }
}

/// Bodies by the screen cells their projected bounding boxes cover. A body with a corner
/// behind the camera has no box and is a candidate everywhere.
struct BodyGrid {
    /// Bodies without a screen box.
    everywhere: Vec<usize>,
    origin: Vec2,
    cell: f32,
    cols: usize,
    rows: usize,
    cells: Vec<Vec<usize>>,
    /// Each body's box (min, max), for the exact check inside a cell.
    boxes: Vec<Option<(Vec2, Vec2)>>,
}

impl BodyGrid {
    const SIDE: usize = 48;

    fn new(view: &View, bodies: &[(usize, Vec3, f32, f32)]) -> BodyGrid {
        let boxes: Vec<Option<(Vec2, Vec2)>> = bodies
            .iter()
            .map(|&(_, axis, top, _)| {
                let mut lo = Vec2::splat(f32::INFINITY);
                let mut hi = Vec2::splat(f32::NEG_INFINITY);
                for corner in 0..8 {
                    let dx = if corner & 1 == 0 {
                        -BODY_RADIUS
                    } else {
                        BODY_RADIUS
                    };
                    let dz = if corner & 2 == 0 {
                        -BODY_RADIUS
                    } else {
                        BODY_RADIUS
                    };
                    let y = if corner & 4 == 0 { 0.0 } else { top };
                    let (q, _) = view.project(Vec3::new(axis.x + dx, y, axis.z + dz))?;
                    lo = lo.min(q);
                    hi = hi.max(q);
                }
                (lo.is_finite() && hi.is_finite()).then_some((lo - 1.0, hi + 1.0))
            })
            .collect();
        let everywhere = (0..bodies.len()).filter(|&b| boxes[b].is_none()).collect();
        let (mut lo, mut hi) = (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY));
        for (a, b) in boxes.iter().flatten() {
            lo = lo.min(*a);
            hi = hi.max(*b);
        }
        let mut grid = BodyGrid {
            everywhere,
            origin: lo,
            cell: 1.0,
            cols: 0,
            rows: 0,
            cells: Vec::new(),
            boxes,
        };
        if !(lo.is_finite() && hi.is_finite()) {
            return grid;
        }
        let extent = (hi - lo).max(Vec2::splat(1.0));
        grid.cell = extent.max_element() / Self::SIDE as f32;
        grid.cols = ((extent.x / grid.cell).ceil() as usize).clamp(1, Self::SIDE);
        grid.rows = ((extent.y / grid.cell).ceil() as usize).clamp(1, Self::SIDE);
        grid.cells = vec![Vec::new(); grid.cols * grid.rows];
        for (b, bounds) in grid.boxes.iter().enumerate() {
            let Some((a, c)) = bounds else { continue };
            let (x0, y0) = grid.cell_of(*a);
            let (x1, y1) = grid.cell_of(*c);
            for y in y0..=y1 {
                for x in x0..=x1 {
                    grid.cells[y * grid.cols + x].push(b);
                }
            }
        }
        grid
    }

    fn cell_of(&self, q: Vec2) -> (usize, usize) {
        let c = (q - self.origin) / self.cell;
        (
            (c.x.max(0.0) as usize).min(self.cols - 1),
            (c.y.max(0.0) as usize).min(self.rows - 1),
        )
    }

    /// Bodies whose ray test may hit for a layer anchored at `p` (all of them when `p` is
    /// behind the camera).
    fn candidates(&self, view: &View, p: Vec3, out: &mut Vec<usize>) {
        out.clear();
        let Some((q, _)) = view.project(p) else {
            out.extend(0..self.boxes.len());
            return;
        };
        out.extend_from_slice(&self.everywhere);
        if self.cells.is_empty() {
            return;
        }
        let (x, y) = self.cell_of(q);
        for &b in &self.cells[y * self.cols + x] {
            if let Some((lo, hi)) = self.boxes[b] {
                if q.x >= lo.x && q.x <= hi.x && q.y >= lo.y && q.y <= hi.y {
                    out.push(b);
                }
            }
        }
        out.sort_unstable();
    }
}

/// Projects and styles parts of the scene.
struct Painter<'a> {
    view: View,
    style: &'a Style,
}

impl Painter<'_> {
    // ---- primitives -------------------------------------------------------------------

    /// A disc of world radius `r` around `c`.
    fn disc(&self, c: Vec3, r: f32, color: Rgba) -> Option<Shape> {
        let (center, depth) = self.view.project(c)?;
        Some(Shape::Circle {
            center,
            radius: r * self.view.scale(depth),
            color,
        })
    }

    /// A disc of world radius `r` around `c`, with a dark outline: two shapes.
    fn outlined_disc(&self, c: Vec3, r: f32, color: Rgba, out: &mut Vec<Shape>) {
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
    fn segment(&self, a: Vec3, b: Vec3) -> Option<(Vec2, Vec2, f32)> {
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
    fn line(&self, a: Vec3, b: Vec3, w: f32, color: Rgba) -> Option<Shape> {
        let (from, to, scale) = self.segment(a, b)?;
        Some(Shape::Line {
            from,
            to,
            width: w * scale,
            color,
        })
    }

    /// A thick line with a dark outline: two shapes.
    fn outlined_line(&self, a: Vec3, b: Vec3, w: f32, color: Rgba, out: &mut Vec<Shape>) {
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
    fn polygon(&self, points: &[Vec3], color: Rgba) -> Option<Shape> {
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
    fn hull(&self, points: &[Vec3]) -> Vec<Vec2> {
        let projected: Vec<Vec2> = points
            .iter()
            .filter_map(|p| self.view.project(*p))
            .map(|(px, _)| px)
            .collect();
        convex_hull(projected)
    }

    /// A convex pixel polygon with a dark outline: the polygon grown by the outline width
    /// underneath, then the polygon.
    fn outlined_hull(&self, hull: Vec<Vec2>, color: Rgba, out: &mut Vec<Shape>) {
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
    fn floor_ellipse(
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

    // ---- floor ------------------------------------------------------------------------

    /// The stage disc around the jugglers and a grid on it.
    fn floor(&self, pose: &Pose, out: &mut Vec<Layer>) {
        let positions: Vec<Vec3> = pose
            .jugglers
            .iter()
            .map(|j| j.placement.position)
            .filter(|p| p.is_finite())
            .collect();
        let centre = if positions.is_empty() {
            Vec3::ZERO
        } else {
            positions.iter().copied().sum::<Vec3>() / positions.len() as f32
        };
        let reach = positions
            .iter()
            .map(|p| p.distance(centre))
            .fold(0.0f32, f32::max);
        // The stage reaches beyond the camera's distance so its edge stays far back; the grid
        // covers the jugglers' surroundings.
        let eye_distance =
            Vec3::new(self.view.eye.x - centre.x, 0.0, self.view.eye.z - centre.z).length();
        // Bounded whatever the input (the grid has at most a few hundred lines).
        let reach = reach.min(MAX_STAGE);
        let stage = (reach + 3.0).max(reach + 0.8 * eye_distance).min(MAX_STAGE);
        let radius = reach + 3.0;
        let mut shapes = Vec::new();
        shapes.extend(self.floor_ellipse(
            centre,
            Vec3::X * stage,
            Vec3::Z * stage,
            self.style.floor,
            96,
        ));
        let step = self.style.grid_spacing.max(0.05);
        let width = 0.012;
        let lines = (radius / step).floor() as i32;
        for k in -lines..=lines {
            let offset = k as f32 * step;
            let half = (radius * radius - offset * offset).max(0.0).sqrt();
            if half < step * 0.5 {
                continue;
            }
            for (a, b) in [
                (
                    Vec3::new(centre.x + offset, 0.0, centre.z - half),
                    Vec3::new(centre.x + offset, 0.0, centre.z + half),
                ),
                (
                    Vec3::new(centre.x - half, 0.0, centre.z + offset),
                    Vec3::new(centre.x + half, 0.0, centre.z + offset),
                ),
            ] {
                shapes.extend(self.line(a, b, width, self.style.grid));
            }
        }
        out.push(Layer {
            part: Part::Floor,
            depth: f32::INFINITY,
            shapes,
        });
    }

    fn juggler_shadow(&self, j: usize, juggler: &JugglerPose, out: &mut Vec<Layer>) {
        let place = &juggler.placement;
        let centre = 0.5 * (juggler.feet[0] + juggler.feet[1]);
        let centre = Vec3::new(centre.x, 0.0, centre.z);
        let shape = self.floor_ellipse(
            centre,
            place.rotate(Vec3::X) * 0.34,
            place.rotate(Vec3::Z) * 0.24,
            self.style.shadow,
            24,
        );
        out.push(Layer {
            part: Part::Shadow { juggler: Some(j) },
            depth: f32::INFINITY,
            shapes: shape.into_iter().collect(),
        });
    }

    fn prop_shadow(&self, prop: &PropPose, out: &mut Vec<Layer>) {
        let r = match prop.kind {
            PropKind::Ball => 0.5 * prop.size,
            PropKind::Club => 0.22 * prop.size,
            PropKind::Ring => 0.35 * prop.size,
        };
        let height = prop.position.y.max(0.0);
        // Fainter and wider the higher the prop flies.
        let fade = (1.15 - 0.25 * height).clamp(0.25, 1.0);
        let mut color = self.style.shadow;
        color.a = (color.a as f32 * fade).round() as u8;
        let r = r * (1.0 + 0.15 * height);
        let shape = self.floor_ellipse(prop.position, Vec3::X * r, Vec3::Z * r, color, 16);
        out.push(Layer {
            part: Part::Shadow { juggler: None },
            depth: f32::INFINITY,
            shapes: shape.into_iter().collect(),
        });
    }

    // ---- juggler ----------------------------------------------------------------------

    fn juggler(&self, j: usize, p: &JugglerPose, out: &mut Vec<Layer>) {
        let style = self.style;
        let shirt = style.shirt(j);
        let forward = p.placement.forward();
        let shoulders = [p.arms[0].shoulder, p.arms[1].shoulder];
        let shoulder_mid = 0.5 * (shoulders[0] + shoulders[1]);
        let hip_mid = 0.5 * (p.hips[0] + p.hips[1]);
        let axis_mid = 0.5 * (shoulder_mid + hip_mid);
        let lateral = (shoulders[0] - shoulders[1])
            .try_normalize()
            .unwrap_or_else(|| p.placement.rotate(Vec3::X));
        let half_shoulders = 0.5 * shoulders[0].distance(shoulders[1]).max(0.1);
        // Legs start under the torso: when the hips are given as the torso's lower corners
        // (wide), the leg tops are drawn further in, as hip joints.
        let waist_half_guess = half_shoulders * 0.8;
        let leg_tops = [0, 1].map(|side| {
            let out = p.hips[side] - hip_mid;
            let half = out.length().min(0.6 * waist_half_guess);
            hip_mid + out.try_normalize().unwrap_or(Vec3::ZERO) * half
        });
        let half_hips = 0.5 * leg_tops[0].distance(leg_tops[1]).max(0.08);

        let mut body = Vec::new();
        // Legs, far one first.
        let mut legs = [0usize, 1];
        legs.sort_by(|&a, &b| {
            let da = self.view.depth(0.5 * (leg_tops[a] + p.feet[a]));
            let db = self.view.depth(0.5 * (leg_tops[b] + p.feet[b]));
            db.total_cmp(&da)
        });
        for side in legs {
            self.leg(
                leg_tops[side],
                p.knees[side],
                p.feet[side],
                forward,
                &mut body,
            );
        }

        // Pelvis and torso: hulls of elliptical cross-sections of an upright body.
        let ring = |centre: Vec3, half_width: f32, half_depth: f32| -> Vec<Vec3> {
            (0..12)
                .map(|k| {
                    let a = std::f32::consts::TAU * k as f32 / 12.0;
                    centre + lateral * (half_width * a.cos()) + forward * (half_depth * a.sin())
                })
                .collect()
        };
        let belt = hip_mid + Vec3::Y * (0.2 * (shoulder_mid.y - hip_mid.y));
        let waist = hip_mid + Vec3::Y * (0.3 * (shoulder_mid.y - hip_mid.y));
        // A slight V from the shoulders to the waist, never narrower than the hips.
        let waist_half = waist_half_guess.max(half_hips * 0.9);
        let depth = style.torso_depth;
        let seat_half = half_hips + 0.4 * style.thigh_width;
        let mut pelvis_points = ring(hip_mid - Vec3::Y * 0.06, seat_half, depth * 0.95);
        pelvis_points.extend(ring(belt, waist_half, depth * 0.9));
        self.outlined_hull(self.hull(&pelvis_points), style.trousers, &mut body);

        let chest_half = half_shoulders * style.chest_fraction;
        let mut torso_points = ring(belt + Vec3::Y * 0.02, waist_half * 0.98, depth * 0.9);
        torso_points.extend(ring(waist, waist_half, depth * 0.92));
        torso_points.extend(ring(
            shoulder_mid - Vec3::Y * 0.12 + forward * 0.01,
            chest_half,
            depth * 1.05,
        ));
        torso_points.extend(ring(shoulder_mid, chest_half * 0.92, depth * 0.8));
        // Rounded shoulder tops.
        for s in shoulders {
            torso_points.extend(ring(
                s - lateral.dot(s - shoulder_mid).signum() * lateral * 0.03,
                0.045,
                0.045,
            ));
        }
        self.outlined_hull(self.hull(&torso_points), shirt, &mut body);

        // Neck and head.
        let neck_top = p.head - Vec3::Y * (p.head_radius * 0.55);
        self.outlined_line(
            p.neck,
            neck_top,
            style.neck_width,
            shade(style.skin, 0.92),
            &mut body,
        );
        self.head(p, forward, lateral, &mut body);

        out.push(Layer {
            part: Part::Body { juggler: j },
            depth: self.view.depth(axis_mid),
            shapes: body,
        });

        for (side, hand) in Hand::BOTH.into_iter().enumerate() {
            self.arm(j, p, side, hand, shirt, out);
        }
    }

    fn leg(&self, hip: Vec3, knee: Vec3, foot: Vec3, forward: Vec3, out: &mut Vec<Shape>) {
        let style = self.style;
        let ankle = Vec3::new(foot.x, foot.y.max(0.06), foot.z);
        let heel = ankle - forward * 0.03 - Vec3::Y * 0.015;
        let toe = ankle + forward * 0.14 - Vec3::Y * 0.015;
        // Shoe first, then thigh and shin as one outlined stroke (no seam at the knee).
        self.outlined_line(heel, toe, 0.075, style.shoes, out);
        let mut fills = Vec::new();
        for (a, b, w) in [
            (hip, knee, style.thigh_width),
            (knee, ankle, style.shin_width),
        ] {
            let mut pair = Vec::new();
            self.outlined_line(a, b, w, style.trousers, &mut pair);
            let mut pair = pair.into_iter();
            out.extend(pair.next());
            fills.extend(pair);
        }
        out.extend(fills);
    }

    fn head(&self, p: &JugglerPose, forward: Vec3, lateral: Vec3, out: &mut Vec<Shape>) {
        let style = self.style;
        let r = p.head_radius.max(0.01);
        let to_eye = self.view.eye - p.head;
        let hair_centre = p.head + Vec3::Y * (0.17 * r) - forward * (0.25 * r);
        let mut hair = Vec::new();
        self.outlined_disc(hair_centre, r, style.hair, &mut hair);
        let mut face = Vec::new();
        self.outlined_disc(p.head, r, style.skin, &mut face);
        // Eyes on the visible half of the head only, turned with the gaze (the head looks up
        // toward a high pattern): the face's forward and up directions are `forward` and `y`
        // rotated by the gaze's pitch.
        let gaze = p.gaze.try_normalize().unwrap_or(forward);
        let pitch_up = gaze.y.clamp(-0.9, 0.9);
        let flat = (1.0 - pitch_up * pitch_up).sqrt();
        let face_fwd = forward * flat + Vec3::Y * pitch_up;
        let face_up = Vec3::Y * flat - forward * pitch_up;
        for s in [-1.0f32, 1.0] {
            let offset = face_fwd * (0.9 * r) + lateral * (0.36 * s * r) + face_up * (0.08 * r);
            if offset.dot(to_eye) > 0.15 * r * to_eye.length() {
                face.extend(self.disc(p.head + offset, 0.085 * r, Rgba::rgb(40, 32, 30)));
            }
        }
        // Hair behind the face (seen from the front) or over it (seen from behind).
        if self.view.depth(hair_centre) >= self.view.depth(p.head) {
            out.extend(hair);
            out.extend(face);
        } else {
            out.extend(face);
            out.extend(hair);
        }
    }

    fn arm(
        &self,
        j: usize,
        p: &JugglerPose,
        side: usize,
        hand: Hand,
        shirt: Rgba,
        out: &mut Vec<Layer>,
    ) {
        let style = self.style;
        let arm = &p.arms[side];
        let mut upper = Vec::new();
        self.outlined_line(
            arm.shoulder,
            arm.elbow,
            style.upper_arm_width,
            shade(shirt, 0.9),
            &mut upper,
        );
        out.push(Layer {
            part: Part::UpperArm { juggler: j, hand },
            depth: self.view.depth(0.5 * (arm.shoulder + arm.elbow)),
            shapes: upper,
        });
        let mut fore = Vec::new();
        self.outlined_line(
            arm.elbow,
            arm.wrist,
            style.forearm_width,
            style.skin,
            &mut fore,
        );
        out.push(Layer {
            part: Part::Forearm { juggler: j, hand },
            depth: self.view.depth(0.5 * (arm.elbow + arm.wrist)),
            shapes: fore,
        });
        let mut palm = Vec::new();
        if arm.wrist.distance(arm.hand) > 1e-3 {
            palm.extend(self.line(arm.wrist, arm.hand, style.forearm_width, style.skin));
        }
        self.outlined_disc(arm.hand, style.hand_radius, style.skin, &mut palm);
        // A prop held in this hand sits at the same point: draw the hand just before it.
        out.push(Layer {
            part: Part::Hand { juggler: j, hand },
            depth: self.view.depth(arm.hand) + 0.02,
            shapes: palm,
        });
    }

    // ---- props ------------------------------------------------------------------------

    fn prop(&self, index: usize, prop: &PropPose, out: &mut Vec<Layer>) {
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
        const PROFILE: [(f32, f32); 10] = [
            (0.000, 0.022),
            (0.018, 0.032),
            (0.040, 0.020),
            (0.300, 0.026),
            (0.450, 0.052),
            (0.600, 0.078),
            (0.720, 0.086),
            (0.860, 0.076),
            (0.960, 0.052),
            (1.000, 0.026),
        ];
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
        let light = Vec2::new(-0.62, -0.78);
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
        let body_disc = |out: &mut Vec<Shape>| {
            out.push(Shape::Circle {
                center: widest_c,
                radius: widest_r,
                color: if end_on { color } else { shade(color, 0.85) },
            });
            if end_on {
                out.push(Shape::Circle {
                    center: widest_c + light * (0.4 * widest_r),
                    radius: 0.35 * widest_r,
                    color: tint(color, 0.45),
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
        let inner = outer * 0.8;
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
pub fn convex_hull(mut points: Vec<Vec2>) -> Vec<Vec2> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::Placement;
    use crate::render::fixture::{ball, standing, Cascade};

    const W: u32 = 640;
    const H: u32 = 480;

    /// A solo juggler at the origin, hands in front at hip height, with the given props.
    fn solo(props: Vec<PropPose>) -> Pose {
        let placement = Placement {
            position: Vec3::ZERO,
            facing: 0.0,
        };
        let juggler = standing(
            placement,
            [Vec3::new(0.3, 1.0, 0.3), Vec3::new(-0.3, 1.0, 0.3)],
        );
        Pose {
            time: 0.0,
            jugglers: vec![juggler],
            props,
        }
    }

    fn front_camera() -> Camera {
        Camera {
            target: Vec3::new(0.0, 1.0, 0.0),
            azimuth: 0.0,
            elevation: 0.1,
            distance: 5.0,
            ..Camera::default()
        }
    }

    fn index_of(layers: &[Layer], part: Part) -> usize {
        layers
            .iter()
            .position(|l| l.part == part)
            .unwrap_or_else(|| panic!("{part:?} missing"))
    }

    fn red() -> Rgba {
        Rgba::rgb(220, 30, 30)
    }

    #[test]
    fn one_layer_per_limb_and_prop_and_five_discs_per_ball() {
        let pose = solo(vec![
            ball(Vec3::new(0.0, 1.6, 0.3), red()),
            ball(Vec3::new(0.3, 1.0, 0.3), red()),
            ball(Vec3::new(-0.2, 1.9, 0.3), red()),
        ]);
        let layers = build_layers(&pose, &front_camera(), W, H, &Style::default());
        let count = |f: &dyn Fn(&Part) -> bool| layers.iter().filter(|l| f(&l.part)).count();
        assert_eq!(count(&|p| matches!(p, Part::Body { juggler: 0 })), 1);
        assert_eq!(count(&|p| matches!(p, Part::UpperArm { .. })), 2);
        assert_eq!(count(&|p| matches!(p, Part::Forearm { .. })), 2);
        assert_eq!(count(&|p| matches!(p, Part::Hand { .. })), 2);
        assert_eq!(count(&|p| matches!(p, Part::Prop { .. })), 3);
        assert_eq!(count(&|p| matches!(p, Part::Shadow { juggler: None })), 3);
        for l in layers
            .iter()
            .filter(|l| matches!(l.part, Part::Prop { .. }))
        {
            assert_eq!(l.shapes.len(), 5);
            assert!(l.shapes.iter().all(|s| matches!(s, Shape::Circle { .. })));
        }
        // Each limb is an outlined thick line: outline + fill.
        for l in layers
            .iter()
            .filter(|l| matches!(l.part, Part::UpperArm { .. } | Part::Forearm { .. }))
        {
            assert_eq!(l.shapes.len(), 2);
            assert!(l.shapes.iter().all(|s| matches!(s, Shape::Line { .. })));
        }
        // The frame is exactly the layers flattened.
        let frame = build_frame(&pose, &front_camera(), W, H);
        assert_eq!(
            frame.shapes.len(),
            layers.iter().map(|l| l.shapes.len()).sum::<usize>()
        );
        assert_eq!((frame.width, frame.height), (W, H));
    }

    #[test]
    fn prop_behind_the_body_is_drawn_before_it_and_prop_in_front_after() {
        let behind = ball(Vec3::new(0.05, 1.2, -0.3), red());
        let front = ball(Vec3::new(-0.05, 1.2, 0.3), Rgba::rgb(30, 30, 220));
        let pose = solo(vec![behind, front]);
        let layers = build_layers(&pose, &front_camera(), W, H, &Style::default());
        let body = index_of(&layers, Part::Body { juggler: 0 });
        assert!(index_of(&layers, Part::Prop { index: 0 }) < body);
        assert!(index_of(&layers, Part::Prop { index: 1 }) > body);

        // The same in the flat frame: the torso is the polygon in the shirt colour.
        let frame = build_frame(&pose, &front_camera(), W, H);
        let shirt = Style::default().shirt(0);
        let torso = frame
            .shapes
            .iter()
            .position(|s| matches!(s, Shape::Polygon { color, .. } if *color == shirt))
            .expect("torso");
        let first_of = |c: Rgba| {
            frame
                .shapes
                .iter()
                .position(|s| matches!(s, Shape::Circle { color, .. } if *color == c))
                .expect("prop")
        };
        assert!(first_of(red()) < torso);
        assert!(first_of(Rgba::rgb(30, 30, 220)) > torso);

        // Seen from behind, the order flips.
        let back = Camera {
            azimuth: std::f32::consts::PI,
            ..front_camera()
        };
        let layers = build_layers(&pose, &back, W, H, &Style::default());
        let body = index_of(&layers, Part::Body { juggler: 0 });
        assert!(index_of(&layers, Part::Prop { index: 0 }) > body);
        assert!(index_of(&layers, Part::Prop { index: 1 }) < body);
    }

    #[test]
    fn cylinder_test_tells_front_from_behind_along_the_ray() {
        let eye = Vec3::new(0.0, 1.0, 5.0);
        let axis = Vec3::ZERO;
        // Straight in front of / behind the body at chest height.
        assert_eq!(
            in_front_of_cylinder(eye, Vec3::new(0.0, 1.0, 0.4), axis, 0.17, 1.7),
            Some(true)
        );
        assert_eq!(
            in_front_of_cylinder(eye, Vec3::new(0.0, 1.0, -0.4), axis, 0.17, 1.7),
            Some(false)
        );
        // Well to the side: the ray misses the body.
        assert_eq!(
            in_front_of_cylinder(eye, Vec3::new(0.6, 1.0, -0.4), axis, 0.17, 1.7),
            None
        );
        // Above the head, behind: from a level eye the ray passes over the body.
        assert_eq!(
            in_front_of_cylinder(eye, Vec3::new(0.0, 2.5, -0.3), axis, 0.17, 1.7),
            None
        );
        // From high above, a point low in front of the legs is in front.
        let high = Vec3::new(0.0, 6.0, 3.0);
        assert_eq!(
            in_front_of_cylinder(high, Vec3::new(0.0, 0.8, 0.3), axis, 0.17, 1.7),
            Some(true)
        );
        // ... and one behind the back at the same height is behind.
        assert_eq!(
            in_front_of_cylinder(high, Vec3::new(0.0, 0.8, -0.3), axis, 0.17, 1.7),
            Some(false)
        );
    }

    #[test]
    fn prop_held_low_in_front_is_drawn_over_the_legs_even_from_high_above() {
        // Depth alone would put it behind: from 60° up, lower points are farther.
        let low_front = ball(Vec3::new(0.05, 0.75, 0.3), red());
        let cam = Camera {
            elevation: 60f32.to_radians(),
            ..front_camera()
        };
        let placement = Placement {
            position: Vec3::ZERO,
            facing: 0.0,
        };
        let juggler = standing(
            placement,
            [Vec3::new(0.12, 0.9, 0.3), Vec3::new(-0.12, 0.9, 0.3)],
        );
        let pose = Pose {
            time: 0.0,
            jugglers: vec![juggler],
            props: vec![low_front],
        };
        let layers = build_layers(&pose, &cam, W, H, &Style::default());
        let body = index_of(&layers, Part::Body { juggler: 0 });
        assert!(index_of(&layers, Part::Prop { index: 0 }) > body);
        // Both hands (in front of the hips, over the legs on screen) too.
        for hand in Hand::BOTH {
            assert!(
                index_of(&layers, Part::Hand { juggler: 0, hand }) > body,
                "{hand:?}"
            );
        }
    }

    #[test]
    fn far_arm_is_drawn_before_the_torso_and_near_arm_after() {
        // Camera on the juggler's left (+x): the left arm is near, the right arm far.
        let side = Camera {
            azimuth: std::f32::consts::FRAC_PI_2,
            ..front_camera()
        };
        let layers = build_layers(&solo(vec![]), &side, W, H, &Style::default());
        let body = index_of(&layers, Part::Body { juggler: 0 });
        for part in [
            Part::UpperArm {
                juggler: 0,
                hand: Hand::Right,
            },
            Part::Forearm {
                juggler: 0,
                hand: Hand::Right,
            },
        ] {
            assert!(index_of(&layers, part) < body, "{part:?}");
        }
        for part in [
            Part::UpperArm {
                juggler: 0,
                hand: Hand::Left,
            },
            Part::Forearm {
                juggler: 0,
                hand: Hand::Left,
            },
        ] {
            assert!(index_of(&layers, part) > body, "{part:?}");
        }
    }

    #[test]
    fn floor_and_shadows_come_first() {
        let pose = solo(vec![ball(Vec3::new(0.0, 2.0, 0.3), red())]);
        let layers = build_layers(&pose, &front_camera(), W, H, &Style::default());
        assert_eq!(layers[0].part, Part::Floor);
        let last_floor = layers.iter().rposition(|l| l.depth.is_infinite()).unwrap();
        assert!(layers[..=last_floor]
            .iter()
            .all(|l| matches!(l.part, Part::Floor | Part::Shadow { .. })));
        assert!(layers[last_floor + 1..]
            .iter()
            .all(|l| !matches!(l.part, Part::Floor | Part::Shadow { .. })));
        // Non-floor layers are ordered far to near.
        assert!(layers[last_floor + 1..]
            .windows(2)
            .all(|w| w[0].depth >= w[1].depth));
    }

    #[test]
    fn ball_size_scales_with_perspective() {
        let near = ball(Vec3::new(-0.5, 1.0, 1.0), red());
        let far = ball(Vec3::new(0.5, 1.0, -4.0), red());
        let cam = Camera {
            elevation: 0.0,
            ..front_camera()
        };
        let layers = build_layers(&solo(vec![near, far]), &cam, W, H, &Style::default());
        let radius = |i: usize| match &layers[index_of(&layers, Part::Prop { index: i })].shapes[1]
        {
            Shape::Circle { radius, .. } => *radius,
            s => panic!("{s:?}"),
        };
        // Depths 4 and 9 m: radii in the ratio 9:4; focal = 240 / tan(15°).
        let focal = 240.0 / (15f32.to_radians()).tan();
        assert!((radius(0) - 0.05 * focal / 4.0).abs() < 1e-3);
        assert!((radius(1) - 0.05 * focal / 9.0).abs() < 1e-3);
    }

    #[test]
    fn ball_is_centred_on_its_projection() {
        let pos = Vec3::new(0.4, 1.7, 0.2);
        let cam = front_camera();
        let layers = build_layers(&solo(vec![ball(pos, red())]), &cam, W, H, &Style::default());
        let expected = cam.project(pos, W, H).unwrap().0;
        match &layers[index_of(&layers, Part::Prop { index: 0 })].shapes[0] {
            Shape::Circle { center, .. } => assert!(center.distance(expected) < 1e-4),
            s => panic!("{s:?}"),
        }
    }

    #[test]
    fn club_spins_visibly_and_ring_shows_its_plane() {
        let cam = Camera {
            elevation: 0.0,
            ..front_camera()
        };
        let club = |axis: Vec3| PropPose {
            kind: PropKind::Club,
            position: Vec3::new(0.0, 1.8, 0.3),
            axis,
            held_by: None,
            orbit: 0,
            color: red(),
            size: 0.485,
        };
        let extent = |prop: PropPose| {
            let layers = build_layers(&solo(vec![prop]), &cam, W, H, &Style::default());
            let shapes = &layers[index_of(&layers, Part::Prop { index: 0 })].shapes;
            let mut lo = Vec2::splat(f32::MAX);
            let mut hi = Vec2::splat(f32::MIN);
            for s in shapes {
                if let Shape::Polygon { points, .. } = s {
                    for p in points {
                        lo = lo.min(*p);
                        hi = hi.max(*p);
                    }
                }
            }
            hi - lo
        };
        let upright = extent(club(Vec3::Y));
        let flat = extent(club(Vec3::X));
        assert!(upright.y > 3.0 * upright.x, "{upright}");
        assert!(flat.x > 3.0 * flat.y, "{flat}");
        // Club length on screen: 0.485 m at depth 4.7 m.
        let focal = 240.0 / (15f32.to_radians()).tan();
        assert!((upright.y - 0.485 * focal / 4.7).abs() < 4.0, "{upright}");

        // A ring facing the camera is a round band; edge-on it is a thin bar.
        let ring = |axis: Vec3| PropPose {
            kind: PropKind::Ring,
            size: 0.25,
            ..club(axis)
        };
        let line_extent = |prop: PropPose| {
            let layers = build_layers(&solo(vec![prop]), &cam, W, H, &Style::default());
            let shapes = &layers[index_of(&layers, Part::Prop { index: 0 })].shapes;
            let mut lo = Vec2::splat(f32::MAX);
            let mut hi = Vec2::splat(f32::MIN);
            for s in shapes {
                if let Shape::Line { from, to, .. } = s {
                    lo = lo.min(*from).min(*to);
                    hi = hi.max(*from).max(*to);
                }
            }
            hi - lo
        };
        let face = line_extent(ring(Vec3::Z));
        let edge = line_extent(ring(Vec3::X));
        assert!((face.x - face.y).abs() < 1.0, "{face}");
        assert!(edge.x < 0.5 && edge.y > 0.9 * face.y, "{edge} {face}");
    }

    #[test]
    fn eyes_only_when_the_face_is_seen() {
        let eye_color = Rgba::rgb(40, 32, 30);
        let eyes = |cam: &Camera| {
            build_frame(&solo(vec![]), cam, W, H)
                .shapes
                .iter()
                .filter(|s| matches!(s, Shape::Circle { color, .. } if *color == eye_color))
                .count()
        };
        assert_eq!(eyes(&front_camera()), 2);
        assert_eq!(
            eyes(&Camera {
                azimuth: std::f32::consts::PI,
                ..front_camera()
            }),
            0
        );
        assert_eq!(
            eyes(&Camera {
                azimuth: std::f32::consts::FRAC_PI_2,
                ..front_camera()
            }),
            1
        );
    }

    /// Pixel bounding box of a shape.
    fn bounds(s: &Shape) -> (Vec2, Vec2) {
        match s {
            Shape::Circle { center, radius, .. } => (
                *center - Vec2::splat(*radius),
                *center + Vec2::splat(*radius),
            ),
            Shape::Line {
                from, to, width, ..
            } => (
                from.min(*to) - Vec2::splat(0.5 * width),
                from.max(*to) + Vec2::splat(0.5 * width),
            ),
            Shape::Polygon { points, .. } => points.iter().fold(
                (Vec2::splat(f32::MAX), Vec2::splat(f32::MIN)),
                |(lo, hi), p| (lo.min(*p), hi.max(*p)),
            ),
        }
    }

    #[test]
    fn default_framing_keeps_the_figure_and_props_inside_the_image() {
        for kind in [PropKind::Ball, PropKind::Club, PropKind::Ring] {
            let cascade = Cascade {
                kind,
                ..Cascade::default()
            };
            let poses: Vec<Pose> = (0..24)
                .map(|i| cascade.pose_at(i as f64 * cascade.loop_duration() / 24.0))
                .collect();
            for (w, h) in [(640, 480), (400, 450), (200, 600)] {
                let cam = Camera::framing_all(&poses, w as f32 / h as f32, None);
                for pose in &poses {
                    for layer in build_layers(pose, &cam, w, h, &Style::default()) {
                        if matches!(layer.part, Part::Floor | Part::Shadow { .. }) {
                            continue;
                        }
                        for s in &layer.shapes {
                            let (lo, hi) = bounds(s);
                            assert!(
                                lo.x >= 0.0 && lo.y >= 0.0 && hi.x <= w as f32 && hi.y <= h as f32,
                                "{kind:?} {w}x{h} {:?}: {lo} {hi}",
                                layer.part
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn convex_hull_of_a_square_with_inner_points() {
        let pts = vec![
            Vec2::new(0.0, 0.0),
            Vec2::new(1.0, 0.0),
            Vec2::new(0.5, 0.5),
            Vec2::new(1.0, 1.0),
            Vec2::new(0.0, 1.0),
            Vec2::new(0.5, 0.0),
            Vec2::new(0.2, 0.7),
        ];
        let hull = convex_hull(pts);
        assert_eq!(hull.len(), 4);
        for corner in [Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::Y] {
            assert!(hull.contains(&corner));
        }
    }

    #[test]
    fn points_behind_the_camera_never_produce_non_finite_shapes() {
        // The camera sits inside the scene: parts are clipped, nothing is NaN.
        let cam = Camera {
            target: Vec3::new(0.0, 1.2, 0.2),
            distance: 0.3,
            ..front_camera()
        };
        let pose = Cascade::default().pose_at(0.2);
        let frame = build_frame(&pose, &cam, W, H);
        for s in &frame.shapes {
            let (lo, hi) = bounds(s);
            assert!(lo.is_finite() && hi.is_finite(), "{s:?}");
        }
    }
}

#[cfg(test)]
mod proptests {
    use super::*;
    use crate::body::ArmPose;
    use crate::layout::Placement;
    use crate::render::raster::rasterize;
    use proptest::prelude::*;

    fn coord() -> impl Strategy<Value = f32> {
        prop_oneof![
            8 => -20.0f32..20.0,
            1 => Just(f32::NAN),
            1 => Just(f32::INFINITY),
            1 => Just(0.0f32),
        ]
    }

    fn point() -> impl Strategy<Value = Vec3> {
        (coord(), coord(), coord()).prop_map(|(x, y, z)| Vec3::new(x, y, z))
    }

    fn juggler() -> impl Strategy<Value = JugglerPose> {
        (
            proptest::collection::vec(point(), 15),
            -10.0f32..10.0,
            coord(),
        )
            .prop_map(|(p, facing, r)| {
                let arm = |i: usize| ArmPose {
                    shoulder: p[i],
                    elbow: p[i + 1],
                    wrist: p[i + 2],
                    hand: p[i + 3],
                };
                JugglerPose {
                    placement: Placement {
                        position: p[0],
                        facing,
                    },
                    head: p[1],
                    head_radius: r,
                    gaze: Vec3::Z,
                    neck: p[2],
                    torso_radius: 0.115,
                    hips: [p[3], p[4]],
                    knees: [p[5], p[6]],
                    feet: [p[13], p[14]],
                    arms: [arm(7), arm(9)],
                    upper_arm: 0.41,
                    forearm: 0.41,
                }
            })
    }

    fn prop() -> impl Strategy<Value = PropPose> {
        (0..3usize, point(), point(), coord()).prop_map(|(k, position, axis, size)| PropPose {
            kind: [PropKind::Ball, PropKind::Club, PropKind::Ring][k],
            position,
            axis,
            held_by: None,
            orbit: 0,
            color: Rgba::rgb(200, 40, 40),
            size,
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn any_pose_and_camera_give_a_frame_without_panicking(
            jugglers in proptest::collection::vec(juggler(), 0..3),
            props in proptest::collection::vec(prop(), 0..5),
            target in point(),
            azimuth in -10.0f32..10.0,
            elevation in -2.0f32..2.0,
            distance in prop_oneof![Just(0.0f32), 0.01f32..30.0, Just(f32::NAN)],
        ) {
            let pose = Pose { time: 0.0, jugglers, props };
            let camera = Camera { target, azimuth, elevation, distance, ..Camera::default() };
            let frame = build_frame(&pose, &camera, 64, 48);
            prop_assert!(rasterize(&frame).is_some());
            // Automatic framing of any pose is total too.
            let framed = Camera::framing(&pose, 4.0 / 3.0);
            let _ = build_frame(&pose, &framed, 64, 48);
        }
    }
}
