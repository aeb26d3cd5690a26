//! A juggler's figure: legs, pelvis, torso, neck and head as one body layer, and each arm as
//! three layers (upper arm, forearm, hand).

use glam::Vec3;

use super::paint::Painter;
use super::{Layer, Part};
use crate::body::dims::BodyDims;
use crate::body::JugglerPose;
use crate::render::style::shade;
use crate::render::Shape;
use crate::types::{Hand, Rgba};

impl Painter<'_> {
    pub(super) fn juggler(&self, j: usize, p: &JugglerPose, out: &mut Vec<Layer>) {
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
            let joints = [leg_tops[side], p.knees[side], p.feet[side]];
            self.leg(joints, &p.dims, forward, &mut body);
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
        // Half-depths of the sections as fractions of the chest's, the torso capsule's radius.
        let depth = p.dims.torso_radius();
        let seat_half = half_hips + 0.4 * p.dims.thigh_width;
        let mut pelvis_points = ring(hip_mid - Vec3::Y * 0.06, seat_half, depth * 0.91);
        pelvis_points.extend(ring(belt, waist_half, depth * 0.86));
        self.outlined_hull(self.hull(&pelvis_points), style.trousers, &mut body);

        let chest_half = half_shoulders * style.chest_fraction;
        let mut torso_points = ring(belt + Vec3::Y * 0.02, waist_half * 0.98, depth * 0.86);
        torso_points.extend(ring(waist, waist_half, depth * 0.88));
        torso_points.extend(ring(
            shoulder_mid - Vec3::Y * 0.12 + forward * 0.01,
            chest_half,
            depth,
        ));
        torso_points.extend(ring(shoulder_mid, chest_half * 0.92, depth * 0.77));
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
        let neck_top = p.head - Vec3::Y * (p.dims.head_radius() * 0.55);
        self.outlined_line(
            p.neck,
            neck_top,
            p.dims.neck_width,
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

    /// A leg from its `[hip, knee, foot]` joints, with its shoe.
    fn leg(&self, joints: [Vec3; 3], dims: &BodyDims, forward: Vec3, out: &mut Vec<Shape>) {
        let style = self.style;
        let [hip, knee, foot] = joints;
        let ankle = Vec3::new(foot.x, foot.y.max(0.06), foot.z);
        let heel = ankle - forward * 0.03 - Vec3::Y * 0.015;
        let toe = ankle + forward * 0.14 - Vec3::Y * 0.015;
        // Shoe first, then thigh and shin as one outlined stroke (no seam at the knee).
        self.outlined_line(heel, toe, 0.075, style.shoes, out);
        let mut fills = Vec::new();
        for (a, b, w) in [
            (hip, knee, dims.thigh_width),
            (knee, ankle, dims.shin_width),
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
        let r = p.dims.head_radius().max(0.01);
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
            p.dims.upper_arm_width,
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
            p.dims.forearm_width,
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
            palm.extend(self.line(arm.wrist, arm.hand, p.dims.forearm_width, style.skin));
        }
        self.outlined_disc(arm.hand, p.dims.hand_radius, style.skin, &mut palm);
        // A prop held in this hand sits at the same point: draw the hand just before it.
        out.push(Layer {
            part: Part::Hand { juggler: j, hand },
            depth: self.view.depth(arm.hand) + 0.02,
            shapes: palm,
        });
    }
}
