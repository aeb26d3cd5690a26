//! Depth order against bodies: a juggler's body is an upright cylinder around its axis (of the
//! body's own `BodyDims::body_radius`); a limb or prop whose ray from the eye meets that
//! cylinder before reaching it is drawn before the body, one met after it is drawn after it.

use glam::{Vec2, Vec3};

use super::{Layer, Part};
use crate::body::Pose;
use crate::render::camera::View;
use crate::types::Hand;

/// A juggler's body as the order sees it: an upright cylinder from the floor to the top of
/// the head, and the depth of its layer.
#[derive(Clone, Copy)]
struct Cylinder {
    /// A point of the axis (its height does not matter).
    axis: Vec3,
    radius: f32,
    top: f32,
    depth: f32,
}

/// The point of a layer that decides its side of a body: the middle of a limb, the hand,
/// the prop's centre.
fn anchor(part: Part, pose: &Pose, trail: &[Vec3]) -> Option<Vec3> {
    let arm = |j: usize, hand: Hand| pose.jugglers.get(j).map(|p| p.arms[hand.index()]);
    match part {
        Part::UpperArm { juggler, hand } => {
            arm(juggler, hand).map(|a| 0.5 * (a.shoulder + a.elbow))
        }
        Part::Forearm { juggler, hand } => arm(juggler, hand).map(|a| 0.5 * (a.elbow + a.wrist)),
        Part::Hand { juggler, hand } => arm(juggler, hand).map(|a| a.hand),
        Part::Prop { index } => pose.props.get(index).map(|p| p.position),
        Part::Trail { chunk } => trail.get(chunk).copied(),
        Part::Floor | Part::Shadow { .. } | Part::Body { .. } => None,
    }
}

/// Seen along the ray from the eye through `p`, is `p` in front of the upright cylinder
/// (axis through `axis` on the floor, radius `radius`, from the floor to `top`)?
/// `Some(true)` in front, `Some(false)` behind, `None` when the ray misses the cylinder.
pub(super) fn in_front_of_cylinder(
    eye: Vec3,
    p: Vec3,
    axis: Vec3,
    radius: f32,
    top: f32,
) -> Option<bool> {
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
/// `trail` holds the anchors of the trail's layers (`Part::Trail { chunk }`), if any.
pub(super) fn order_against_bodies(pose: &Pose, view: &View, layers: &mut [Layer], trail: &[Vec3]) {
    const GAP: f32 = 1e-3;
    let bodies: Vec<Cylinder> = layers
        .iter()
        .filter_map(|l| match l.part {
            Part::Body { juggler } => pose.jugglers.get(juggler).map(|p| Cylinder {
                axis: 0.25 * (p.arms[0].shoulder + p.arms[1].shoulder + p.hips[0] + p.hips[1]),
                radius: p.dims.body_radius(),
                top: p.head.y + p.dims.head_radius(),
                depth: l.depth,
            }),
            _ => None,
        })
        .collect();
    // A ray can only meet a body whose on-screen box holds the point it goes through: look
    // bodies up in a grid of their boxes instead of testing every body (large scenes).
    let grid = BodyGrid::new(view, &bodies);
    let mut candidates = Vec::new();
    for layer in layers.iter_mut() {
        let Some(p) = anchor(layer.part, pose, trail) else {
            continue;
        };
        grid.candidates(view, p, &mut candidates);
        for &b in &candidates {
            let body = bodies[b];
            match in_front_of_cylinder(view.eye, p, body.axis, body.radius, body.top) {
                Some(true) => layer.depth = layer.depth.min(body.depth - GAP),
                Some(false) => layer.depth = layer.depth.max(body.depth + GAP),
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

    fn new(view: &View, bodies: &[Cylinder]) -> BodyGrid {
        let boxes: Vec<Option<(Vec2, Vec2)>> = bodies
            .iter()
            .map(
                |&Cylinder {
                     axis, radius, top, ..
                 }| {
                    let mut lo = Vec2::splat(f32::INFINITY);
                    let mut hi = Vec2::splat(f32::NEG_INFINITY);
                    for corner in 0..8 {
                        let dx = if corner & 1 == 0 { -radius } else { radius };
                        let dz = if corner & 2 == 0 { -radius } else { radius };
                        let y = if corner & 4 == 0 { 0.0 } else { top };
                        let (q, _) = view.project(Vec3::new(axis.x + dx, y, axis.z + dz))?;
                        lo = lo.min(q);
                        hi = hi.max(q);
                    }
                    (lo.is_finite() && hi.is_finite()).then_some((lo - 1.0, hi + 1.0))
                },
            )
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
