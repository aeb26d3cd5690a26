//! A whole juggler at an instant: the body (torso, head, legs) from the proportions, the
//! placement and how the body takes part in the juggling (`BodyMotion`: a knee dip, the
//! head's gaze), and the two arms from the shoulders to the hands of the motion model.
//!
//! - Dip: the hips, torso, shoulders and head go down by `dip` metres; the feet stay and the
//!   knees bend forward so that thigh and shin keep their lengths (a planar two-link in the
//!   juggler's sagittal plane; the sideways offsets of the legs do not change).
//! - Shoulders follow the hand a little: up to 3.5 cm up when the hand rises above its usual
//!   height (0.40 m below the shoulder, 0.30 m in front), 1 cm down below it, and up to 3 cm
//!   forward or 2 cm back, with a smooth (tanh) saturation; zero at the usual hand position.
//!   The arm is then solved from the moved shoulder, so its segments keep their lengths.
//! - A hand across the body turns its elbow forward and out (`elbow::cross_swivel`); with both
//!   arms crossed, the arm whose hand is lower (the motion lifts the hand on top,
//!   `motion/forearms.rs`) takes that turn back, its elbow hanging under the other forearm.

use glam::{Vec2, Vec3};

use crate::body::dims::BodyDims;
use crate::body::elbow::{cross_swivel, solve_natural_elbow, ElbowSolution};
use crate::body::{ArmPose, JugglerPose};
use crate::layout::Placement;
use crate::types::Hand;

/// How much lower (metres) a crossed arm's hand must be than the other's, the other crossed
/// too, for its elbow to pass fully under the other arm, and the share of the crossing turn
/// (`cross_swivel`) it then takes back (more would put the elbow into the chest).
const UNDER_DROP: f32 = 0.10;
const UNDER_TURN: f32 = 1.0;
/// The other hand counts as crossed from `UNDER_ACROSS` (metres) before the middle line on,
/// fully from the middle line.
const UNDER_ACROSS: f32 = 0.12;

/// How the body moves with the juggling at one instant, in the juggler's own frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct BodyMotion {
    /// How far hips, torso, shoulders and head are lowered by bending the knees (metres, ≥ 0).
    pub dip: f32,
    /// Unit direction the head looks along (own frame; +z = straight ahead).
    pub gaze: Vec3,
    /// Extra chicken-wing turn of each elbow, `[left, right]` (radians, positive = outward):
    /// the scene turns an elbow out of the way of a prop passing the arm.
    pub turn: [f32; 2],
    /// Turn of each elbow on its circle after the body has placed it, wing and all,
    /// `[left, right]` (radians, positive = outward): the scene turns an elbow the body keeps
    /// far behind the shoulders forward.
    pub forward: [f32; 2],
}

impl BodyMotion {
    /// Standing still, looking straight ahead.
    pub(crate) const STILL: BodyMotion = BodyMotion {
        dip: 0.0,
        gaze: Vec3::Z,
        turn: [0.0; 2],
        forward: [0.0; 2],
    };
}

/// The pose of a juggler standing still at `placement` whose hands are at `hands` (world
/// coordinates, `[left, right]`). Total: any finite input gives a finite pose.
pub fn juggler_pose(placement: &Placement, dims: &BodyDims, hands: [Vec3; 2]) -> JugglerPose {
    juggler_pose_moving(placement, dims, hands, BodyMotion::STILL)
}

/// The pose of a juggler at `placement` with hands at `hands` (world) whose body moves as
/// `body` says (knee dip, gaze). Total: any finite input gives a finite pose.
pub(crate) fn juggler_pose_moving(
    placement: &Placement,
    dims: &BodyDims,
    hands: [Vec3; 2],
    body: BodyMotion,
) -> JugglerPose {
    let world = |local: Vec3| placement.to_world(local);
    let dip = if body.dip.is_finite() {
        body.dip.clamp(0.0, 0.25 * dims.waist_height)
    } else {
        0.0
    };
    let down = Vec3::Y * dip;
    let shoulders = Hand::BOTH
        .map(|side| body_shoulder(dims, side, placement.to_local(hands[side.index()]), dip));
    // A hand across the body turns the elbow forward and out, in front of the chest.
    let forward = placement.forward();
    let cross = Hand::BOTH.map(|side| {
        let i = side.index();
        cross_swivel(hands[i] - placement.to_world(shoulders[i]), forward, side)
    });
    let [left, right] = Hand::BOTH.map(|side| {
        let (i, o) = (side.index(), 1 - side.index());
        // Both arms crossed: the arm whose hand is lower passes under the other, its elbow
        // turned less (hanging lower) as its hand is lower, up to `UNDER_DROP` lower, and as
        // the other arm is crossed; smooth in both hands, so the elbows never jump.
        let smooth = |x: f32| {
            let x = x.clamp(0.0, 1.0);
            x * x * (3.0 - 2.0 * x)
        };
        // How far the other hand is across the middle line (own frame: the left side is +x).
        let other = Hand::BOTH[o];
        let across = -other.side_sign() * placement.to_local(hands[o]).x;
        let under = smooth((hands[o].y - hands[i].y) / UNDER_DROP)
            * smooth((across + UNDER_ACROSS) / UNDER_ACROSS);
        let turn = if body.turn[i].is_finite() {
            body.turn[i]
        } else {
            0.0
        };
        let swivel = dims.swivel + cross[i] * (1.0 - UNDER_TURN * under) + turn;
        let after = if body.forward[i].is_finite() {
            body.forward[i]
        } else {
            0.0
        };
        arm_from(
            placement,
            dims,
            side,
            shoulders[i],
            hands[i],
            (swivel, after),
        )
    });
    let gaze = body.gaze.normalize_or(Vec3::Z);
    JugglerPose {
        placement: *placement,
        head: world(dims.head_centre() - down),
        gaze: placement.rotate(gaze),
        neck: world(dims.neck_base() - down),
        hips: Hand::BOTH.map(|side| world(dims.hip(side) - down)),
        knees: Hand::BOTH.map(|side| world(bent_knee(dims, side, dip))),
        feet: Hand::BOTH.map(|side| world(dims.foot(side))),
        arms: [left, right],
        dims: *dims,
    }
}

/// Smooth saturation: about `x` for small `x`, never beyond `limit` in size.
fn soft(x: f32, limit: f32) -> f32 {
    if limit <= 0.0 {
        0.0
    } else {
        limit * (x / limit).tanh()
    }
}

/// Where the body carries a shoulder (own frame) when its hand is at `hand` (own frame) and the
/// knees dip by `dip`: the standing shoulder, lowered by the dip and following the hand a
/// little. (The elbow solver may still shrug it toward a hand near full reach.)
pub fn body_shoulder(dims: &BodyDims, side: Hand, hand: Vec3, dip: f32) -> Vec3 {
    let rest = dims.shoulder(side);
    rest - Vec3::Y * dip + shoulder_follow(dims, rest, hand)
}

/// How far a shoulder at `rest` (own frame) moves toward a hand at `hand` (own frame).
fn shoulder_follow(dims: &BodyDims, rest: Vec3, hand: Vec3) -> Vec3 {
    if !hand.is_finite() {
        return Vec3::ZERO;
    }
    let k = dims.scale();
    let dy = hand.y - (rest.y - 0.40 * k);
    let dz = hand.z - 0.30 * k;
    let up = if dy >= 0.0 {
        soft(0.10 * dy, 0.035 * k)
    } else {
        soft(0.10 * dy, 0.01 * k)
    };
    let forward = if dz >= 0.0 {
        soft(0.08 * dz, 0.03 * k)
    } else {
        soft(0.08 * dz, 0.02 * k)
    };
    Vec3::new(0.0, up, forward)
}

/// A knee (own frame) when the hips are `dip` lower than standing: the foot stays, the knee
/// moves forward in the sagittal plane so that thigh and shin keep their lengths.
pub(crate) fn bent_knee(dims: &BodyDims, side: Hand, dip: f32) -> Vec3 {
    let (hip, knee, foot) = (dims.hip(side), dims.knee(side), dims.foot(side));
    if dip <= 0.0 {
        return knee;
    }
    // In the (z, y) plane: the sideways (x) offsets between hip, knee and foot stay as they are,
    // so the 3D lengths stay exact when the planar ones do.
    let plane = |v: Vec3| Vec2::new(v.z, v.y);
    let (h, k0, f) = (plane(hip) - Vec2::Y * dip, plane(knee), plane(foot));
    let (thigh, shin) = (plane(hip).distance(k0), k0.distance(f));
    let d = h
        .distance(f)
        .clamp((thigh - shin).abs() + 1e-6, thigh + shin - 1e-6);
    let u = (f - h).normalize_or(Vec2::NEG_Y);
    let along = (thigh * thigh - shin * shin + d * d) / (2.0 * d);
    let across = (thigh * thigh - along * along).max(0.0).sqrt();
    // The knee bends forward (+z): the perpendicular of the hip→foot line pointing forward.
    let mut normal = Vec2::new(-u.y, u.x);
    if normal.x < 0.0 {
        normal = -normal;
    }
    let k = h + u * along + normal * across;
    Vec3::new(knee.x, k.y, k.x)
}

/// One arm from the body's shoulder at `shoulder` (own frame) to the hand at `hand` (world),
/// elbow by seed 000 with the body's swivel, turned further forward and out for a hand across
/// the body (`elbow::cross_swivel`); `swivel` is that chicken-wing angle and the scene's turn
/// after the wing (`BodyMotion::forward`). The shoulder is the body's, except near full reach,
/// where it yields a few centimetres toward the hand (see `elbow`). The wrist lies on the forearm,
/// `dims.hand` before the arm's end; `hand` is kept as given even when it is out of reach
/// (props stay in the hand the motion model says).
fn arm_from(
    placement: &Placement,
    dims: &BodyDims,
    side: Hand,
    shoulder: Vec3,
    hand: Vec3,
    swivel: (f32, f32),
) -> ArmPose {
    let ElbowSolution {
        shoulder,
        elbow,
        arm_end,
        ..
    } = solve_natural_elbow(
        placement.to_world(shoulder),
        hand,
        dims.arm(),
        swivel,
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
            // Elbow down and out: about 1.00 m high, ~0.35 m out (gunswap's 0.32 with the wing
            // opened a little), within 4 cm behind the shoulders.
            assert!((arm.elbow.y - 1.0).abs() < 0.02, "{}", arm.elbow);
            let out = arm.elbow.x * side.side_sign();
            assert!(out > 0.33 && out < 0.37, "{}", arm.elbow);
            assert!(arm.elbow.z < 0.0 && arm.elbow.z > -0.04, "{}", arm.elbow);
        }
        assert!((pose.head.y - 1.58).abs() < 1e-6);
        assert_eq!(pose.hips[0], Vec3::new(0.17, 0.95, 0.0));
        assert!(pose.feet.iter().all(|f| f.y >= 0.0 && f.y < 0.1));
        assert_eq!(pose.dims, dims);
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
        // The body carries the shoulder 2.85 cm up and 1.46 cm forward toward the raised, far
        // hand; from there it has yielded its full 8 cm toward the hand; the arm is nearly
        // straight.
        let rest = body_shoulder(&dims, Hand::Right, far, 0.0);
        let follow = rest - dims.shoulder(Hand::Right);
        assert!(
            (follow.y - 0.0285).abs() < 2e-4 && (follow.z - 0.0146).abs() < 2e-4,
            "{follow}"
        );
        assert!((arm.shoulder.distance(rest) - 0.08).abs() < 1e-5);
        assert!(arm.elbow.distance(arm.shoulder + dir * 0.41) < 1e-2);
        assert!(arm.wrist.distance(arm.shoulder + dir * 0.74) < 1e-2);
    }

    #[test]
    fn a_knee_dip_lowers_the_upper_body_and_bends_the_knees_with_exact_legs() {
        let p = Layout::circle(1).jugglers[0];
        let dims = BodyDims::default();
        let hands = Hand::BOTH.map(|s| local_hand(s, 0.12, 1.0, 0.3));
        let still = juggler_pose(&p, &dims, hands);
        let gaze = Vec3::new(0.0, 0.5, 0.75).normalize();
        let dipped = juggler_pose_moving(
            &p,
            &dims,
            hands,
            BodyMotion {
                dip: 0.06,
                gaze,
                turn: [0.0; 2],
                forward: [0.0; 2],
            },
        );
        for (a, b) in [
            (still.head, dipped.head),
            (still.neck, dipped.neck),
            (still.hips[0], dipped.hips[0]),
            (still.hips[1], dipped.hips[1]),
        ] {
            assert!((a - b).distance(Vec3::Y * 0.06) < 1e-6, "{a} {b}");
        }
        assert_eq!(still.feet, dipped.feet);
        assert!((dipped.gaze - gaze).length() < 1e-6);
        for side in 0..2 {
            let thigh = |j: &JugglerPose| j.hips[side].distance(j.knees[side]);
            let shin = |j: &JugglerPose| j.knees[side].distance(j.feet[side]);
            assert!((thigh(&still) - thigh(&dipped)).abs() < 1e-5);
            assert!((shin(&still) - shin(&dipped)).abs() < 1e-5);
            // The knee goes forward (about 11 cm for a 6 cm dip) and down.
            let forward = dipped.knees[side].z - still.knees[side].z;
            assert!(forward > 0.08 && forward < 0.15, "{forward}");
            assert!(dipped.knees[side].y < still.knees[side].y);
            // Arms still exact from the lowered shoulders.
            let arm = dipped.arms[side];
            assert!((arm.shoulder.y - 1.34).abs() < 1e-5, "{}", arm.shoulder);
            assert!((arm.shoulder.distance(arm.elbow) - 0.41).abs() < 1e-5);
            assert!((arm.elbow.distance(arm.hand) - 0.41).abs() < 1e-5);
        }
        // Nonsense dips are clamped, never NaN.
        let wild = juggler_pose_moving(
            &p,
            &dims,
            hands,
            BodyMotion {
                dip: f32::NAN,
                gaze,
                turn: [f32::NAN; 2],
                forward: [f32::NAN; 2],
            },
        );
        assert_eq!(wild.hips, still.hips);
        let deep = juggler_pose_moving(
            &p,
            &dims,
            hands,
            BodyMotion {
                dip: 5.0,
                gaze,
                turn: [0.0; 2],
                forward: [0.0; 2],
            },
        );
        assert!((still.neck.y - deep.neck.y - 0.25 * dims.waist_height).abs() < 1e-5);
        assert!(deep.knees.iter().all(|k| k.is_finite()));
    }

    #[test]
    fn shoulders_follow_the_hand_a_little() {
        let dims = BodyDims::default();
        let rest = dims.shoulder(Hand::Left);
        // At the usual hand position nothing moves.
        assert_eq!(
            body_shoulder(&dims, Hand::Left, Vec3::new(0.3, 1.0, 0.3), 0.0),
            rest
        );
        // A hand 30 cm higher lifts the shoulder 3.5·tanh(0.03/0.035) = 2.43 cm; arbitrarily
        // high, at most 3.5 cm.
        let up = |y: f32| body_shoulder(&dims, Hand::Left, Vec3::new(0.3, y, 0.3), 0.0).y - rest.y;
        assert!((up(1.3) - 0.0243).abs() < 2e-4, "{}", up(1.3));
        assert!(up(9.0) <= 0.035 && up(9.0) > 0.0349);
        assert!(up(0.5) < 0.0 && up(-9.0) >= -0.01);
    }

    #[test]
    fn with_both_arms_crossed_the_lower_hands_elbow_hangs_under_the_other_arm() {
        // Arms crossed at the forearms: the left hand 25 cm right of the middle, the right hand
        // 25 cm left of it, 40 cm in front. Level hands: both elbows turned forward and out
        // alike (mirror images). The right hand 15 cm lower: its elbow hangs lower than it
        // did, the left elbow stays where it was; both arms keep their lengths.
        let placement = Placement {
            position: Vec3::ZERO,
            facing: 0.0,
        };
        let dims = BodyDims::default();
        let (l, r) = (Vec3::new(-0.25, 1.05, 0.4), Vec3::new(0.25, 1.05, 0.4));
        let level = juggler_pose(&placement, &dims, [l, r]);
        let [el, er] = level.arms.map(|a| a.elbow);
        assert!(
            (el.y - er.y).abs() < 1e-5 && (el.x + er.x).abs() < 1e-5,
            "{el} {er}"
        );
        let low = r - Vec3::Y * 0.15;
        let under = juggler_pose(&placement, &dims, [l, low]);
        let plain_low = {
            // The right arm at the same hand with the left hand uncrossed (no under turn).
            let p = juggler_pose(&placement, &dims, [Vec3::new(0.25, 1.05, 0.4), low]);
            p.arms[1].elbow
        };
        assert!(under.arms[0].elbow.distance(el) < 1e-5);
        assert!(
            under.arms[1].elbow.y < plain_low.y - 0.015,
            "{} vs {}",
            under.arms[1].elbow,
            plain_low
        );
        for arm in under.arms {
            assert!((arm.shoulder.distance(arm.elbow) - 0.41).abs() < 1e-4);
        }
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
            let swivel = dims.swivel
                + cross_swivel(hand - placement.to_world(dims.shoulder(side)), placement.forward(), side);
            let arm = arm_from(&placement, &dims, side, dims.shoulder(side), hand, (swivel, 0.0));
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
