//! The three-link solver of seed 002: upper arm `l1`, forearm `l2` and hand `l3`, given where
//! the hand's end goes and which way the hand points (its up vector `E_y`), in a juggler's own
//! frame (y up, x left, z forward).
//!
//! 1. `E_L = E − O`; the wrist target is `P_T = E_L − l3·E_y` (the hand link reduces the
//!    problem to two links).
//! 2. Yaw `θ_y = atan2(x_T, z_T)`; projected onto the turned plane `P_T = (r_T, y_T, 0)` with
//!    `r_T = √(x_T² + z_T²)`, angle `θ_E = atan2(y_T, r_T)` and distance `d = √(y_T² + r_T²)`.
//! 3. Planar two-link: `cos θ_a = (d² + l1² − l2²)/(2·d·l1)` (the seed prints `2·d·l2`; the law
//!    of cosines for the angle at O between `d` and `l1` has `2·d·l1`), `θ_0 = θ_a − θ_E`;
//!    `cos θ_b = (l1² + l2² − d²)/(2·l1·l2)`, `θ_1 = π − θ_b`. Rotating joint 1 by `−θ_0` and
//!    joint 2 by `+θ_1` (the seed's "use θ1 if you used −θ0") puts the elbow below the
//!    shoulder–wrist line, in the vertical plane through it.
//! 4. Roll β about the shoulder–wrist axis so that the arm's plane contains `E_y`:
//!    `β = atan2(E_y·O_y, E_y·O_x)` with `O_z` along the axis, `O_y` the plane's up and
//!    `O_x = O_y × O_z`. β = π/2 means no roll (`E_y` already in the plane, on the up side),
//!    so the base turns by `β − π/2` and the elbow stays on the side opposite `E_y`.
//! 5. Wrist angle: with `J_y` the forearm's direction and `J_z = n × J_y` its perpendicular in
//!    the arm plane (`n = O_z × O_y'` the plane's normal after the roll; `J_z` is on the up side
//!    whenever the forearm points toward the wrist target along the axis, as the seed draws it),
//!    `θ_2 = atan2(J_z·E_y, J_y·E_y)` (0 = straight wrist), continuous in the pose.
//!
//! Out of reach the arm is straight toward the wrist target; nothing gives NaN.

use glam::{Quat, Vec3};

/// Segment lengths of a three-link arm, metres.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ThreeLink {
    /// Upper arm.
    pub l1: f32,
    /// Forearm.
    pub l2: f32,
    /// Hand (wrist to the end effector).
    pub l3: f32,
}

/// Every quantity of seed 002 for one solve, and the resulting joint positions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ThreeLinkPose {
    /// Wrist target relative to the origin, `P_T = E − O − l3·E_y`.
    pub wrist_target: Vec3,
    /// Yaw about y, `θ_y`.
    pub yaw: f32,
    /// Elevation of `P_T` in the turned plane, `θ_E`.
    pub theta_e: f32,
    /// `|P_T|`.
    pub distance: f32,
    /// Interior angles of the shoulder–elbow–wrist triangle at the shoulder and the elbow.
    pub theta_a: f32,
    pub theta_b: f32,
    /// Joint angles: shoulder `θ_0 = θ_a − θ_E`, elbow `θ_1 = π − θ_b`, wrist `θ_2`.
    pub theta0: f32,
    pub theta1: f32,
    pub theta2: f32,
    /// The seed's β; the base rolls by `β − π/2`.
    pub roll: f32,
    pub elbow: Vec3,
    pub wrist: Vec3,
    /// Where the hand link ends (the target when reachable).
    pub end: Vec3,
    /// Whether the wrist target is within `[|l1 − l2|, l1 + l2]`.
    pub reachable: bool,
}

impl ThreeLink {
    /// Solve for a chain rooted at `origin` whose hand ends at `end` pointing along `up`.
    pub fn solve(&self, origin: Vec3, end: Vec3, up: Vec3) -> ThreeLinkPose {
        let ThreeLink { l1, l2, l3 } = *self;
        let up = up.normalize_or(Vec3::Y);
        // 1. Wrist target.
        let pt = end - origin - l3 * up;
        // 2. Yaw and projection onto the turned plane.
        let yaw = pt.x.atan2(pt.z);
        let r_t = (pt.x * pt.x + pt.z * pt.z).sqrt();
        let theta_e = pt.y.atan2(r_t);
        let d = pt.length();
        // 3. Planar two-link by the law of cosines (2·d·l1, not the seed's 2·d·l2).
        let cos_a = if d * l1 > 0.0 {
            (d * d + l1 * l1 - l2 * l2) / (2.0 * d * l1)
        } else {
            1.0
        };
        let cos_b = if l1 * l2 > 0.0 {
            (l1 * l1 + l2 * l2 - d * d) / (2.0 * l1 * l2)
        } else {
            -1.0
        };
        let reachable = (-1.0..=1.0).contains(&cos_a) && (-1.0..=1.0).contains(&cos_b);
        let theta_a = cos_a.clamp(-1.0, 1.0).acos();
        let theta_b = cos_b.clamp(-1.0, 1.0).acos();
        let theta0 = theta_a - theta_e;
        let theta1 = std::f32::consts::PI - theta_b;

        // The turned plane: horizontal forward f (after the yaw) and y.
        let f = Vec3::new(yaw.sin(), 0.0, yaw.cos());
        let in_plane = |angle: f32| f * angle.cos() + Vec3::Y * angle.sin();
        let upper_dir = in_plane(-theta0);
        let fore_dir = in_plane(-theta0 + theta1);
        let elbow_flat = upper_dir * l1;

        // 4. Roll about the shoulder–wrist axis.
        let axis = if d > 1e-6 { pt / d } else { upper_dir };
        let o_y = plane_up(axis, f);
        let o_x = o_y.cross(axis);
        let e_t = o_x * up.dot(o_x) + o_y * up.dot(o_y);
        let roll = up.dot(o_y).atan2(up.dot(o_x));
        let turn = if e_t.length() > 1e-5 {
            Quat::from_axis_angle(axis, roll - std::f32::consts::FRAC_PI_2)
        } else {
            Quat::IDENTITY
        };
        let elbow = origin + turn * elbow_flat;
        let fore = turn * fore_dir;
        let wrist = elbow + fore * l2;

        // 5. Wrist angle in the (rolled) arm plane.
        // `J_z` is `J_y` turned a quarter turn within the arm plane, toward the plane's up side
        // when the forearm points along the shoulder–wrist axis. It comes from the plane's
        // normal (`axis × side`, exact because `side ⊥ axis`), not from the part of `side`
        // perpendicular to `J_y`: that part vanishes when the forearm runs along `side` (a
        // right angle at the wrist) and f32 rounding then gave it a random direction.
        let j_y = fore;
        let side = turn * o_y;
        let normal = axis.cross(side).normalize_or(j_y.any_orthonormal_vector());
        let j_z = normal.cross(j_y).normalize_or(side);
        let theta2 = j_z.dot(up).atan2(j_y.dot(up));
        let end = wrist + l3 * up;

        ThreeLinkPose {
            wrist_target: pt,
            yaw,
            theta_e,
            distance: d,
            theta_a,
            theta_b,
            theta0,
            theta1,
            theta2,
            roll,
            elbow,
            wrist,
            end,
            reachable,
        }
    }
}

/// Unit vector perpendicular to `axis` in the vertical plane through it, on the upper side
/// (for a vertical axis: the side away from the way it leans, i.e. `∓f`).
fn plane_up(axis: Vec3, f: Vec3) -> Vec3 {
    let up = Vec3::Y - axis * axis.y;
    if up.length() > 1e-5 {
        up.normalize()
    } else {
        -f * axis.y.signum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::f32::consts::{FRAC_PI_2, PI};

    const ARM: ThreeLink = ThreeLink {
        l1: 3.0,
        l2: 2.0,
        l3: 1.0,
    };

    fn close(a: f32, b: f32) -> bool {
        (a - b).abs() < 1e-4
    }

    #[test]
    fn worked_example_with_the_seed_001_triangle() {
        // Hand end (−3, √7 + 1, 0), palm up: the wrist target is seed 001's (−3, √7, 0).
        let end = Vec3::new(-3.0, 7f32.sqrt() + 1.0, 0.0);
        let p = ARM.solve(Vec3::ZERO, end, Vec3::Y);
        assert!(p.wrist_target.distance(Vec3::new(-3.0, 7f32.sqrt(), 0.0)) < 1e-5);
        assert!(close(p.yaw, -FRAC_PI_2), "{}", p.yaw);
        assert!(close(p.theta_e, 0.72273), "{}", p.theta_e);
        assert!(close(p.distance, 4.0));
        // cos θ_a = (16 + 9 − 4)/(2·4·3) = 0.875: the seed's typo (2·d·l2) would give 1.3125.
        assert!(close(p.theta_a.cos(), 0.875));
        assert!(close(p.theta_a, 0.50536), "{}", p.theta_a);
        assert!(close(p.theta_b.cos(), -0.25));
        assert!(close(p.theta_b, 1.82348), "{}", p.theta_b);
        assert!(close(p.theta0, 0.50536 - 0.72273), "{}", p.theta0);
        assert!(close(p.theta1, PI - 1.82348), "{}", p.theta1);
        // No roll needed: β = π/2.
        assert!(close(p.roll, FRAC_PI_2), "{}", p.roll);
        assert!(
            p.elbow.distance(Vec3::new(-2.92944, 0.64707, 0.0)) < 1e-4,
            "{}",
            p.elbow
        );
        // Wrist angle: π/2 − (θ_E − θ_a + θ_1) = 0.035306.
        assert!(close(p.theta2, 0.035306), "{}", p.theta2);
        assert!(p.end.distance(end) < 1e-5);
        assert!(p.reachable);
    }

    #[test]
    fn triangle_relations_hold() {
        let p = ARM.solve(
            Vec3::new(0.5, 1.0, 0.0),
            Vec3::new(2.0, 3.0, 2.5),
            Vec3::new(0.2, 1.0, 0.3),
        );
        let (a, b) = (p.theta_a, p.theta_b);
        // Law of sines: sin θ_a / l2 = sin θ_b / d; angles of the triangle sum to π.
        assert!(close(a.sin() / ARM.l2, b.sin() / p.distance));
        let c = (ARM.l2 * ARM.l2 + p.distance * p.distance - ARM.l1 * ARM.l1)
            / (2.0 * ARM.l2 * p.distance);
        assert!(close(a + b + c.acos(), PI));
        // Law of cosines as in the seed, with the 2·d·l1 fix.
        let d = p.distance;
        assert!(close(
            ARM.l2 * ARM.l2,
            d * d + ARM.l1 * ARM.l1 - 2.0 * d * ARM.l1 * a.cos()
        ));
    }

    #[test]
    fn tilted_hand_rolls_the_arm_plane() {
        // Hand out in front, up vector tilted toward +x: the elbow swings toward −x.
        let origin = Vec3::new(0.23, 1.4, 0.0);
        let end = Vec3::new(0.2, 1.1, 0.5);
        let up = Vec3::new(1.0, 1.0, 0.0).normalize();
        let p = ThreeLink {
            l1: 0.41,
            l2: 0.33,
            l3: 0.08,
        }
        .solve(origin, end, up);
        let axis = p.wrist_target.normalize();
        assert!(
            (p.elbow - origin).dot(axis.cross(up)).abs() < 1e-5,
            "coplanar"
        );
        assert!(p.elbow.x < origin.x - 0.05, "{}", p.elbow);
        assert!(p.end.distance(end) < 1e-5);
    }

    #[test]
    fn out_of_reach_is_straight_and_finite() {
        let p = ARM.solve(Vec3::ZERO, Vec3::new(0.0, 0.0, 20.0), Vec3::Y);
        assert!(!p.reachable);
        assert!(p.elbow.distance(p.wrist_target.normalize() * 3.0) < 1e-4);
        assert!(p.wrist.distance(p.wrist_target.normalize() * 5.0) < 1e-4);
        for (end, up) in [
            (Vec3::Y, Vec3::Y),
            (Vec3::ZERO, Vec3::ZERO),
            (Vec3::new(0.0, -4.0, 0.0), Vec3::NEG_Y),
            (Vec3::new(0.0, 1.0, 0.0), Vec3::Z),
        ] {
            let p = ARM.solve(Vec3::ZERO, end, up);
            for v in [p.elbow, p.wrist, p.end] {
                assert!(v.is_finite(), "{end} {up}: {p:?}");
            }
            assert!(p.theta2.is_finite() && p.roll.is_finite());
        }
    }

    #[test]
    fn wrist_angle_is_exact_with_a_right_angle_at_the_wrist() {
        // The case that made `reachable_targets_are_hit_with_exact_lengths` fail once: the
        // wrist target is 0.2433 m away, so d² + l2² = l1² and the forearm runs perpendicular
        // to the shoulder–wrist axis. J_z used to be a normalised 8e-5 m remainder, and θ_2
        // came out 2.5 mrad wrong (cos θ_2 0.8998 against the true 0.8987).
        let arm = ThreeLink {
            l1: 0.41,
            l2: 0.33,
            l3: 0.08,
        };
        let origin = Vec3::new(0.23, 1.4, 0.0);
        let dir = Vec3::new(0.0, -0.782_529_35, 0.857_466_16).normalize();
        let up = Vec3::new(-0.774_797_6, 0.063_430_02, -0.486_740_14).normalize();
        let wrist = origin + dir * (0.09 + 0.235_822_3 * 0.65);
        let p = arm.solve(origin, wrist + up * arm.l3, up);
        let fore = (p.wrist - p.elbow).normalize();
        assert!(fore.dot(dir).abs() < 2e-3, "forearm across the axis");
        assert!((fore.dot(up) - p.theta2.cos()).abs() < 1e-5, "{}", p.theta2);
    }

    proptest! {
        #[test]
        fn reachable_targets_are_hit_with_exact_lengths(
            x in -1.0f32..1.0, y in -1.0f32..1.0, z in -1.0f32..1.0, frac in 0.05f32..0.95,
            ux in -1.0f32..1.0, uy in -1.0f32..1.0, uz in -1.0f32..1.0,
        ) {
            let arm = ThreeLink { l1: 0.41, l2: 0.33, l3: 0.08 };
            let dir = Vec3::new(x, y, z);
            let up = Vec3::new(ux, uy, uz);
            prop_assume!(dir.length() > 0.1 && up.length() > 0.1);
            let up = up.normalize();
            let origin = Vec3::new(0.23, 1.4, 0.0);
            let wrist = origin + dir.normalize() * (0.09 + frac * 0.65);
            let end = wrist + up * arm.l3;
            let p = arm.solve(origin, end, up);
            prop_assert!(p.reachable);
            prop_assert!(p.end.distance(end) < 1e-4);
            prop_assert!(p.wrist.distance(wrist) < 1e-4);
            prop_assert!((p.elbow.distance(origin) - arm.l1).abs() < 1e-4);
            prop_assert!((p.elbow.distance(p.wrist) - arm.l2).abs() < 1e-4);
            // The hand link leaves the forearm at θ_2 within the arm's plane.
            let fore = (p.wrist - p.elbow).normalize();
            prop_assert!((fore.dot(up) - p.theta2.cos()).abs() < 1e-3);
            // The elbow hangs on the side opposite the hand's up vector.
            let axis = p.wrist_target.normalize();
            let up_perp = up - axis * up.dot(axis);
            prop_assume!(up_perp.length() > 0.05);
            prop_assert!((p.elbow - origin).dot(up_perp) <= 1e-5);
        }
    }
}
