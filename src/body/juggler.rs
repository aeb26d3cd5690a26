//! A whole juggler at an instant: the fixed body (torso, head, legs) from the proportions and
//! the placement, and the two arms from the shoulders to the hands of the motion model.

use glam::Vec3;

use crate::body::dims::BodyDims;
use crate::body::elbow::{solve_elbow, ElbowSolution};
use crate::body::{ArmPose, JugglerPose};
use crate::layout::Placement;
use crate::types::Hand;

/// The pose of a juggler standing at `placement` whose hands are at `hands` (world
/// coordinates, `[left, right]`). Total: any finite input gives a finite pose.
pub fn juggler_pose(placement: &Placement, dims: &BodyDims, hands: [Vec3; 2]) -> JugglerPose {
    let world = |local: Vec3| placement.to_world(local);
    let [left, right] = Hand::BOTH.map(|side| arm_pose(placement, dims, side, hands[side.index()]));
    JugglerPose {
        placement: *placement,
        head: world(dims.head_centre()),
        head_radius: dims.head_radius(),
        neck: world(dims.neck_base()),
        hips: Hand::BOTH.map(|side| world(dims.hip(side))),
        knees: Hand::BOTH.map(|side| world(dims.knee(side))),
        feet: Hand::BOTH.map(|side| world(dims.foot(side))),
        arms: [left, right],
        upper_arm: dims.upper_arm,
        forearm: dims.forearm,
    }
}

/// One arm from its shoulder to the hand at `hand` (world), elbow by seed 000 with the body's
/// swivel. The shoulder is the body's, except near full reach, where it yields a few
/// centimetres toward the hand (see `elbow`). The wrist lies on the forearm, `dims.hand`
/// before the arm's end; `hand` is kept as given even when it is out of reach (props stay in
/// the hand the motion model says).
pub fn arm_pose(placement: &Placement, dims: &BodyDims, side: Hand, hand: Vec3) -> ArmPose {
    let ElbowSolution {
        shoulder,
        elbow,
        arm_end,
        ..
    } = solve_elbow(
        placement.to_world(dims.shoulder(side)),
        hand,
        dims.arm(),
        dims.swivel,
        side,
        placement.forward(),
    );
    let wrist = arm_end + (elbow - arm_end).normalize_or(Vec3::Y) * dims.hand;
    ArmPose {
        shoulder,
        elbow,
        wrist,
        hand,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::elbow::SHRUG_EXACT;
    use crate::layout::Layout;
    use proptest::prelude::*;

    fn local_hand(side: Hand, x_out: f32, y: f32, z: f32) -> Vec3 {
        Vec3::new(side.side_sign() * x_out, y, z)
    }

    #[test]
    fn solo_juggler_at_the_throw_points_of_a_cascade() {
        let p = Layout::circle(1).jugglers[0];
        let dims = BodyDims::default();
        let hands = Hand::BOTH.map(|s| local_hand(s, 0.12, 1.0, 0.3));
        let pose = juggler_pose(&p, &dims, hands);
        for side in Hand::BOTH {
            let arm = pose.arms[side.index()];
            assert_eq!(arm.shoulder, dims.shoulder(side));
            assert!((arm.elbow.distance(arm.shoulder) - 0.41).abs() < 1e-5);
            assert!((arm.elbow.distance(arm.hand) - 0.41).abs() < 1e-5);
            assert!((arm.wrist.distance(arm.hand) - 0.08).abs() < 1e-5);
            assert!((arm.wrist.distance(arm.elbow) - 0.33).abs() < 1e-5);
            // Elbow down and out: about 1.00 m high, ~0.32 m out (gunswap), a bit behind.
            assert!((arm.elbow.y - 1.0).abs() < 0.02, "{}", arm.elbow);
            let out = arm.elbow.x * side.side_sign();
            assert!(out > 0.30 && out < 0.34, "{}", arm.elbow);
            assert!(arm.elbow.z < 0.0);
        }
        assert!((pose.head.y - 1.58).abs() < 1e-6);
        assert_eq!(pose.hips[0], Vec3::new(0.17, 0.95, 0.0));
        assert!(pose.feet.iter().all(|f| f.y >= 0.0 && f.y < 0.1));
        assert_eq!((pose.upper_arm, pose.forearm), (0.41, 0.41));
    }

    #[test]
    fn passing_partner_is_the_same_pose_turned() {
        // Juggler 1 of two faces −z from (0, 0, 1.2): its pose is juggler 0's rotated by π.
        let layout = Layout::circle(2);
        let dims = BodyDims::default();
        let local = Hand::BOTH.map(|s| local_hand(s, 0.3, 0.85, 0.35));
        let [a, b] = [layout.jugglers[0], layout.jugglers[1]];
        let pa = juggler_pose(&a, &dims, local.map(|h| a.to_world(h)));
        let pb = juggler_pose(&b, &dims, local.map(|h| b.to_world(h)));
        for side in 0..2 {
            let ea = a.to_local(pa.arms[side].elbow);
            let eb = b.to_local(pb.arms[side].elbow);
            assert!(ea.distance(eb) < 1e-5, "{ea} vs {eb}");
        }
        assert!(a.to_local(pa.head).distance(b.to_local(pb.head)) < 1e-5);
        // Juggler 1's left shoulder is on the world's −x side (it faces −z).
        assert!(pb.arms[0].shoulder.x < 0.0);
    }

    #[test]
    fn out_of_reach_hand_keeps_its_position_and_a_straight_arm() {
        let p = Layout::circle(1).jugglers[0];
        let dims = BodyDims::default();
        let far = Vec3::new(-1.5, 1.4, 0.5);
        let pose = juggler_pose(&p, &dims, [Vec3::new(0.12, 1.0, 0.3), far]);
        let arm = pose.arms[1];
        assert_eq!(arm.hand, far);
        let dir = (far - arm.shoulder).normalize();
        // The shoulder has yielded its full 8 cm toward the hand; the arm is nearly straight.
        let rest = dims.shoulder(Hand::Right);
        assert!((arm.shoulder.distance(rest) - 0.08).abs() < 1e-5);
        assert!(arm.elbow.distance(arm.shoulder + dir * 0.41) < 1e-2);
        assert!(arm.wrist.distance(arm.shoulder + dir * 0.74) < 1e-2);
    }

    proptest! {
        #[test]
        fn any_hand_gives_a_finite_pose_with_exact_segments(
            x in -2.0f32..2.0, y in -0.5f32..2.5, z in -2.0f32..2.0,
            px in -5.0f32..5.0, pz in -5.0f32..5.0, facing in -7.0f32..7.0,
            left in any::<bool>(),
        ) {
            let placement = Placement { position: Vec3::new(px, 0.0, pz), facing };
            let dims = BodyDims::default();
            let side = if left { Hand::Left } else { Hand::Right };
            let hand = placement.to_world(Vec3::new(x, y, z));
            let arm = arm_pose(&placement, &dims, side, hand);
            for p in [arm.shoulder, arm.elbow, arm.wrist, arm.hand] {
                prop_assert!(p.is_finite());
            }
            prop_assert!((arm.shoulder.distance(arm.elbow) - 0.41).abs() < 1e-4);
            prop_assert!((arm.elbow.distance(arm.wrist) - 0.33).abs() < 1e-4);
            let rest = placement.to_world(dims.shoulder(side));
            let d = rest.distance(hand);
            let shrug = arm.shoulder.distance(rest);
            prop_assert!(shrug <= 2.0 * SHRUG_EXACT + 1e-4);
            if d <= dims.arm().soft_start() {
                prop_assert!(shrug < 1e-4);
            }
            if d <= dims.arm().reach() {
                prop_assert!((arm.elbow.distance(hand) - 0.41).abs() < 1e-4, "d={}", d);
            }
        }
    }
}
