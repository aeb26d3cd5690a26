//! The general two-link analytic solver of seed 001: joint angles for a chain of two segments
//! of lengths `l1` and `l2` (which may differ), rooted at the origin and lying along +x at rest,
//! so that its end reaches a target `p_d`.
//!
//! Step 1 (length): the law of cosines `r² = l1² + l2² − 2·l1·l2·cos φ` gives the interior
//! angle φ at joint 2 and the joint-2 rotation `θ2z = φ − π` about z.
//! Step 2a: the root rotation `θ1z` about z brings the bent chain back onto the x axis:
//! `sin θ1z = −l2·sin θ2z / r` (computed with `atan2`, which agrees with the seed's `asin`
//! whenever `l1 + l2·cos θ2z > 0` and stays right when a long forearm folds back past the root).
//! Step 2b (polar form): heading `β = atan2(p_dz, p_dx)` about y and elevation
//! `γ = asin(p_dy / r)` about z aim the chain at the target:
//! `p3 = R_y(β)·R_z(γ)·R_z(θ1z)·(d2 + R_z(θ2z)·d3)`. The heading rotation here is the one that
//! turns +x toward `(cos β, 0, sin β)` (the seed leaves the sign of `R_y` open; its example
//! has `p_dz = 0`).
//! Step 2 (axis-angle form): with `r0` the chain end after step 1 and `e0 = p_d − r0`,
//! the root rotates by `atan2(|r0 × e0|, r0·r0 + r0·e0)` about `(r0 × e0)/|r0 × e0|`.
//!
//! Out of reach the cosine is clamped: the chain lies straight (`φ = π`) and points at the
//! target; inside `|l1 − l2|` it folds completely (`φ = 0`). No input gives NaN.

use glam::{Quat, Vec3};

/// Joint angles of a two-link chain (radians), as computed by seed 001.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TwoLinkAngles {
    /// Distance from the root to the target, `r`.
    pub distance: f32,
    /// Interior angle at joint 2 (the elbow), φ: π when the chain is straight.
    pub elbow_angle: f32,
    /// Joint-2 rotation about z, `φ − π`.
    pub theta2z: f32,
    /// Root rotation about z that brings the bent chain's end onto the x axis.
    pub theta1z: f32,
    /// Heading β about y (`atan2(p_dz, p_dx)`).
    pub heading: f32,
    /// Elevation γ about z (`asin(p_dy / r)`).
    pub elevation: f32,
    /// Axis-angle form of the root rotation: unit axis…
    pub root_axis: Vec3,
    /// …and angle.
    pub root_angle: f32,
    /// Whether `l1 + l2 >= r >= |l1 − l2|` (the end really reaches the target).
    pub reachable: bool,
}

/// A two-link chain: segment lengths `l1` (root to joint 2) and `l2` (joint 2 to the end).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TwoLink {
    pub l1: f32,
    pub l2: f32,
}

impl TwoLink {
    /// Joint angles that put the chain's end on `target` (root at the origin).
    pub fn solve(&self, target: Vec3) -> TwoLinkAngles {
        let TwoLink { l1, l2 } = *self;
        let r = target.length();
        // Step 1: law of cosines for the elbow's interior angle.
        let cos_phi = if l1 * l2 > 0.0 {
            (r * r - l1 * l1 - l2 * l2) / (-2.0 * l1 * l2)
        } else {
            -1.0
        };
        let reachable = (-1.0..=1.0).contains(&cos_phi);
        let elbow_angle = cos_phi.clamp(-1.0, 1.0).acos();
        let theta2z = elbow_angle - std::f32::consts::PI;
        // Step 2a: bring the bent chain's end back onto the x axis.
        let theta1z = (-l2 * theta2z.sin()).atan2(l1 + l2 * theta2z.cos());
        // Step 2b: aim along the target.
        let heading = target.z.atan2(target.x);
        let elevation = if r > 0.0 {
            (target.y / r).clamp(-1.0, 1.0).asin()
        } else {
            0.0
        };
        // Axis-angle form.
        let r0 = self.bent_end(theta2z);
        let e0 = target - r0;
        let cross = r0.cross(e0);
        let root_angle = cross.length().atan2(r0.dot(r0) + r0.dot(e0));
        // r0 lies in the x–y plane, so z is a valid axis whenever the cross product vanishes.
        let root_axis = cross.normalize_or(Vec3::Z);
        TwoLinkAngles {
            distance: r,
            elbow_angle,
            theta2z,
            theta1z,
            heading,
            elevation,
            root_axis,
            root_angle,
            reachable,
        }
    }

    /// End of the chain after step 1 only (joint 2 rotated by `theta2z`, root unrotated).
    pub fn bent_end(&self, theta2z: f32) -> Vec3 {
        Vec3::new(
            self.l1 + self.l2 * theta2z.cos(),
            self.l2 * theta2z.sin(),
            0.0,
        )
    }

    /// Root rotation of the polar form: `R_y(β)·R_z(γ)·R_z(θ1z)`.
    pub fn polar_root(&self, a: &TwoLinkAngles) -> Quat {
        // Turning +x toward (cos β, 0, sin β) is a rotation by −β about +y.
        Quat::from_rotation_y(-a.heading) * Quat::from_rotation_z(a.elevation + a.theta1z)
    }

    /// Joint 2 (elbow) and end positions of the polar form (forward kinematics).
    pub fn forward_polar(&self, a: &TwoLinkAngles) -> (Vec3, Vec3) {
        let root = self.polar_root(a);
        (
            root * Vec3::new(self.l1, 0.0, 0.0),
            root * self.bent_end(a.theta2z),
        )
    }

    /// Joint 2 (elbow) and end positions of the axis-angle form (forward kinematics).
    pub fn forward_axis_angle(&self, a: &TwoLinkAngles) -> (Vec3, Vec3) {
        let root = Quat::from_axis_angle(a.root_axis, a.root_angle);
        (
            root * Vec3::new(self.l1, 0.0, 0.0),
            root * self.bent_end(a.theta2z),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const SEED: TwoLink = TwoLink { l1: 3.0, l2: 2.0 };

    fn close(a: f32, b: f32) -> bool {
        (a - b).abs() < 1e-4
    }

    #[test]
    fn seed_001_worked_example() {
        let target = Vec3::new(-3.0, 7f32.sqrt(), 0.0);
        let a = SEED.solve(target);
        assert!(close(a.distance, 4.0));
        assert!(close(a.elbow_angle.cos(), -0.25));
        assert!(close(a.elbow_angle, 1.8235), "{}", a.elbow_angle);
        assert!(close(a.theta2z, -1.3181), "{}", a.theta2z);
        assert!(close(a.theta1z.sin(), 0.48412), "{}", a.theta1z.sin());
        assert!(close(a.theta1z, 0.50536), "{}", a.theta1z);
        assert!(close(a.heading, std::f32::consts::PI), "{}", a.heading);
        assert!(close(a.elevation, 0.72272), "{}", a.elevation);
        assert!(a.reachable);
        // Step 1 check: p3 = (3.5, −1.93649, 0), 4 from the root.
        let p3 = SEED.bent_end(a.theta2z);
        assert!(p3.distance(Vec3::new(3.5, -1.93649, 0.0)) < 1e-4, "{p3}");
        // Step 2a check: rotating by θ1z puts it at (4, 0, 0).
        let on_x = Quat::from_rotation_z(a.theta1z) * p3;
        assert!(on_x.distance(Vec3::new(4.0, 0.0, 0.0)) < 1e-4, "{on_x}");
        // Axis-angle: e0 = (−6.5, 4.58224, 0), r0 × e0 = (0, 0, 3.45065), φ = 2.9242 about z.
        let e0 = target - p3;
        assert!(e0.distance(Vec3::new(-6.5, 4.58224, 0.0)) < 1e-4);
        assert!(close(p3.cross(e0).z, 3.45065), "{}", p3.cross(e0));
        assert!(close(a.root_angle, 2.9242), "{}", a.root_angle);
        assert!(a.root_axis.distance(Vec3::Z) < 1e-6);
        // Both forms put the end on the target.
        assert!(SEED.forward_polar(&a).1.distance(target) < 1e-4);
        assert!(SEED.forward_axis_angle(&a).1.distance(target) < 1e-4);
    }

    #[test]
    fn out_of_reach_points_straight_at_the_target() {
        let target = Vec3::new(1.0, 2.0, -6.0);
        let a = SEED.solve(target);
        assert!(!a.reachable);
        assert!(close(a.elbow_angle, std::f32::consts::PI));
        let (elbow, end) = SEED.forward_polar(&a);
        let dir = target.normalize();
        assert!(elbow.distance(dir * 3.0) < 1e-4, "{elbow}");
        assert!(end.distance(dir * 5.0) < 1e-4, "{end}");
        let (elbow, end) = SEED.forward_axis_angle(&a);
        assert!(elbow.distance(dir * 3.0) < 1e-4 && end.distance(dir * 5.0) < 1e-4);
    }

    #[test]
    fn degenerate_targets_give_no_nan() {
        for t in [
            Vec3::ZERO,
            Vec3::Y,
            Vec3::new(0.5, 0.0, 0.0),
            Vec3::new(-5.0, 0.0, 0.0),
        ] {
            for chain in [
                SEED,
                TwoLink { l1: 1.0, l2: 3.0 },
                TwoLink { l1: 0.0, l2: 1.0 },
            ] {
                let a = chain.solve(t);
                let (e1, p1) = chain.forward_polar(&a);
                let (e2, p2) = chain.forward_axis_angle(&a);
                assert!(e1.is_finite() && p1.is_finite() && e2.is_finite() && p2.is_finite());
            }
        }
    }

    #[test]
    fn polar_elbow_is_the_seed_000_circle_with_the_elbow_up() {
        // Seed 001 bends the chain in the vertical plane through the target, elbow above the
        // line: seed 000's circle at ω = π (for the hand whose shoulder the target is inside of,
        // where seed 000's plane is used as is).
        use crate::body::elbow::{solve_elbow, ArmLengths};
        use crate::types::Hand;
        let chain = TwoLink { l1: 0.41, l2: 0.33 };
        for target in [
            Vec3::new(0.1, -0.4, 0.3),
            Vec3::new(-0.5, 0.2, 0.2),
            Vec3::new(0.3, 0.1, 0.4),
        ] {
            let (elbow, _) = chain.forward_polar(&chain.solve(target));
            let lengths = ArmLengths {
                upper: 0.41,
                fore: 0.33,
            };
            let circle = solve_elbow(
                Vec3::ZERO,
                target,
                lengths,
                std::f32::consts::PI,
                if target.x > 0.0 {
                    Hand::Right
                } else {
                    Hand::Left
                },
                Vec3::Z,
            );
            assert!(
                elbow.distance(circle.elbow) < 1e-5,
                "{target}: {elbow} vs {}",
                circle.elbow
            );
        }
    }

    proptest! {
        #[test]
        fn both_forms_reach_every_reachable_target(
            l1 in 0.2f32..3.0, l2 in 0.2f32..3.0,
            x in -1.0f32..1.0, y in -1.0f32..1.0, z in -1.0f32..1.0, frac in 0.0f32..1.0,
        ) {
            let dir = Vec3::new(x, y, z);
            prop_assume!(dir.length() > 0.1);
            let chain = TwoLink { l1, l2 };
            let lo = (l1 - l2).abs() + 1e-2;
            let hi = l1 + l2 - 1e-2;
            let target = dir.normalize() * (lo + frac * (hi - lo));
            let a = chain.solve(target);
            prop_assert!(a.reachable);
            for (elbow, end) in [chain.forward_polar(&a), chain.forward_axis_angle(&a)] {
                prop_assert!(end.distance(target) < 2e-4 * (l1 + l2), "{} vs {}", end, target);
                prop_assert!((elbow.length() - l1).abs() < 1e-4);
                prop_assert!((elbow.distance(end) - l2).abs() < 1e-4);
            }
        }
    }
}
