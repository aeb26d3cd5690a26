//! The elbow on the circle of possible elbows, rotated outward by the "chicken wing" angle ω
//! (seed 000, gunswap's write-up of Juggling Lab's method).
//!
//! With the shoulder S and the hand H fixed, the elbow E can only lie on a circle around the
//! S–H axis. The seed works in a frame turned about y so that the hand lies in the x–y plane
//! (`H'' = (√(H'x² + H'z²), H'y, 0)`), takes `u1` perpendicular to the axis in the vertical
//! plane, pointing down, and `u2` horizontal, and places
//! `E'' = c·Ĥ'' + h·(u1·cos ω + u2·sin ω)`, then turns back. Written with vectors that is:
//!
//! - `â = (H − S)/|H − S|`, `ĥ` the horizontal direction of `â`, `n = ŷ × ĥ`;
//! - `u1 = n × â` (the seed's `⟨H''y, −H''x, 0⟩/|H'|`: down, in the vertical plane through S, H);
//! - `u2 = ±n` (the seed's `⟨0, 0, 1⟩` turned by θ), signed so that it points away from the body:
//!   `+n` for the left hand, `−n` for the right (the seed's `hand` input);
//! - `E = S + c·â + h·(u1·cos ω + u2·sin ω)`.
//!
//! The seed has equal segments (`c = |H'|/2`, `h = √(l² − |H'|²/4)`); this solver takes an
//! upper arm `l1` and a forearm `l2`, which moves the circle's centre to `c = (d² + l1² − l2²)/(2d)`
//! and gives `h = √(l1² − c²)` (Juggling Lab's "droop" `√(4U²L² − (U²+L²−D²)²)/(2D)`).
//! ω = 0 is Juggling Lab's pose (elbow straight below the line, in the vertical plane).
//!
//! Out of reach (`d > l1 + l2`) the arm points straight at the hand (the limit of the circle,
//! so the elbow moves continuously); a hand closer than `|l1 − l2|` folds the arm completely.
//! Degenerate inputs (hand on the shoulder, arm vertical) fall back to the body's forward
//! direction; nothing here produces NaN for finite inputs.

use glam::Vec3;

use crate::types::Hand;

/// Horizontal distance (metres) under which the arm counts as vertical and the body's forward
/// direction stands in for the hand's horizontal direction.
const VERTICAL_EPS: f32 = 1e-4;

/// Lengths of the two arm segments, metres.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ArmLengths {
    /// Shoulder to elbow.
    pub upper: f32,
    /// Elbow to hand.
    pub fore: f32,
}

impl ArmLengths {
    /// Longest shoulder–hand distance the arm can reach.
    pub fn reach(&self) -> f32 {
        self.upper + self.fore
    }
}

/// Whether the hand was reachable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// Both segments have their exact lengths and the arm ends at the hand.
    InReach,
    /// The hand is further than `upper + fore`: the arm is straight and points at it.
    TooFar,
    /// The hand is closer than `|upper − fore|`: the arm is folded completely.
    TooClose,
}

/// Result of the elbow solver.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ElbowSolution {
    pub elbow: Vec3,
    /// Where the forearm ends: the hand itself when in reach, else the end of the arm.
    pub arm_end: Vec3,
    pub reach: Reach,
}

/// The elbow of an arm from `shoulder` to `hand` with the given segment `lengths` and
/// chicken-wing angle `swivel` (radians, positive = elbow outward), following seed 000.
///
/// `side` says which way "outward" is (`Left`: +n, `Right`: −n, see the module doc), and
/// `forward` is the direction the body faces (used only when the arm is vertical).
/// Works in any frame whose y axis is up.
pub fn solve_elbow(
    shoulder: Vec3,
    hand: Vec3,
    lengths: ArmLengths,
    swivel: f32,
    side: Hand,
    forward: Vec3,
) -> ElbowSolution {
    let ArmLengths {
        upper: l1,
        fore: l2,
    } = lengths;
    let offset = hand - shoulder;
    let d = offset.length();
    let (axis, horizontal) = arm_axes(offset, d, forward);

    let (along, reach) = if d >= l1 + l2 {
        (l1, Reach::TooFar)
    } else if d <= (l1 - l2).abs() {
        (if l1 >= l2 { l1 } else { -l1 }, Reach::TooClose)
    } else {
        // Circle centre: the projection of the elbow on the shoulder–hand axis.
        (
            ((d * d + l1 * l1 - l2 * l2) / (2.0 * d)).clamp(-l1, l1),
            Reach::InReach,
        )
    };
    let radius = (l1 * l1 - along * along).max(0.0).sqrt();

    let n = Vec3::Y.cross(horizontal);
    // n is horizontal and perpendicular to the arm's horizontal direction; remove any part
    // along the axis (only non-zero when the vertical fallback bent `horizontal`).
    let n = (n - axis * n.dot(axis)).normalize_or(Vec3::X);
    let u1 = n.cross(axis);
    let u2 = n * side.side_sign();
    let elbow = shoulder + axis * along + radius * (u1 * swivel.cos() + u2 * swivel.sin());

    let arm_end = match reach {
        Reach::InReach => hand,
        Reach::TooFar => shoulder + axis * (l1 + l2),
        Reach::TooClose => elbow + (hand - elbow).normalize_or(-axis) * l2,
    };
    ElbowSolution {
        elbow,
        arm_end,
        reach,
    }
}

/// Unit shoulder→hand axis and the unit horizontal direction used to orient the circle.
fn arm_axes(offset: Vec3, d: f32, forward: Vec3) -> (Vec3, Vec3) {
    let forward_flat = Vec3::new(forward.x, 0.0, forward.z).normalize_or(Vec3::Z);
    let axis = if d > 1e-6 { offset / d } else { -Vec3::Y };
    let flat = Vec3::new(axis.x, 0.0, axis.z);
    let horizontal = if flat.length() * d > VERTICAL_EPS {
        flat.normalize()
    } else {
        // Vertical arm: the seed's θ is undefined; hang the circle off the forward direction.
        forward_flat
    };
    (axis, horizontal)
}

#[cfg(test)]
mod tests {
    use super::*;

    const ARM: ArmLengths = ArmLengths {
        upper: 0.41,
        fore: 0.41,
    };

    fn solve(s: Vec3, h: Vec3, l: ArmLengths, w: f32, side: Hand) -> ElbowSolution {
        solve_elbow(s, h, l, w, side, Vec3::Z)
    }

    /// The seed's own formulas, transcribed literally (equal segments), for comparison.
    fn seed_000(s: Vec3, h: Vec3, l: f32, w: f32, hand_sign: f32) -> Vec3 {
        let hp = h - s;
        let hpp = Vec3::new((hp.x * hp.x + hp.z * hp.z).sqrt(), hp.y, 0.0);
        let theta = hp.z.atan2(hp.x);
        let len = hp.length();
        let hh = (l * l - 0.25 * len * len).sqrt();
        let u1 = Vec3::new(hpp.y, -hpp.x, 0.0) / len;
        let u2 = Vec3::new(0.0, 0.0, 1.0);
        let e2 = hpp / 2.0 + hh * u1 * w.cos() + hh * u2 * (hand_sign * w).sin();
        let e1 = Vec3::new(
            e2.x * theta.cos() - e2.z * theta.sin(),
            e2.y,
            e2.x * theta.sin() + e2.z * theta.cos(),
        );
        s + e1
    }

    #[test]
    fn matches_the_seed_formulas_for_equal_segments() {
        let s = Vec3::new(-0.23, 1.40, 0.0);
        for h in [
            Vec3::new(-0.12, 1.0, 0.3),
            Vec3::new(-0.50, 0.8, 0.35),
            Vec3::new(0.20, 1.2, 0.25),
            Vec3::new(-0.3, 1.6, 0.1),
        ] {
            for w in [0.0, 0.2, -0.3, 1.0] {
                let ours = solve(s, h, ARM, w, Hand::Right).elbow;
                // In this frame the seed's u2 turned by θ is −n, i.e. the right hand's sign.
                let seed = seed_000(s, h, 0.41, w, 1.0);
                assert!(ours.distance(seed) < 1e-5, "h={h} w={w}: {ours} vs {seed}");
                let m = Vec3::new(-1.0, 1.0, 1.0);
                let left = solve(s * m, h * m, ARM, w, Hand::Left).elbow;
                let seed_left = seed_000(s * m, h * m, 0.41, w, -1.0);
                assert!(left.distance(seed_left) < 1e-5, "left h={h} w={w}");
            }
        }
    }

    #[test]
    fn worked_example_juggling_lab_pose() {
        // Shoulder (−0.23, 1.40, 0), 3-ball throw point (−0.12, 1.00, 0.30), ω = 0:
        // d² = 0.11² + 0.40² + 0.30² = 0.2621, c = d/2, h = √(0.1681 − 0.2621/4) = 0.320273.
        // The elbow is in the vertical plane through S and H, below the line.
        let s = Vec3::new(-0.23, 1.40, 0.0);
        let h = Vec3::new(-0.12, 1.00, 0.30);
        let sol = solve(s, h, ARM, 0.0, Hand::Right);
        assert_eq!(sol.reach, Reach::InReach);
        let e = sol.elbow;
        let mid = (s + h) / 2.0;
        assert!(
            (e.distance(mid) - 0.320273).abs() < 1e-5,
            "{}",
            e.distance(mid)
        );
        // In the vertical plane through S and H: the normal is ŷ × ĥ.
        let n = Vec3::Y.cross(Vec3::new(0.11, 0.0, 0.30).normalize());
        assert!((e - s).dot(n).abs() < 1e-6);
        // Below and behind the midpoint (JL: elbows about 1.00 m high, behind the shoulders).
        assert!((e.y - 1.00).abs() < 0.02, "{e}");
        assert!(e.z < 0.0, "{e}");
    }

    #[test]
    fn swivel_moves_the_elbow_outward_for_both_hands() {
        let sr = Vec3::new(-0.23, 1.40, 0.0);
        let hr = Vec3::new(-0.12, 1.00, 0.30);
        let flat = solve(sr, hr, ARM, 0.0, Hand::Right).elbow;
        let wing = solve(sr, hr, ARM, 0.2, Hand::Right).elbow;
        assert!(
            wing.x < flat.x - 0.05,
            "right elbow goes to −x: {flat} -> {wing}"
        );
        let mirror = Vec3::new(-1.0, 1.0, 1.0);
        let left = solve(sr * mirror, hr * mirror, ARM, 0.2, Hand::Left).elbow;
        assert!(
            left.distance(wing * mirror) < 1e-6,
            "left is the mirror of right"
        );
        // gunswap measured 0.31–0.33 m out with ω = 0.3; ω = 0.2 gives a bit less.
        assert!(wing.x < -0.30 && wing.x > -0.34, "{wing}");
    }

    #[test]
    fn unequal_segments_keep_their_lengths() {
        let l = ArmLengths {
            upper: 0.30,
            fore: 0.45,
        };
        let s = Vec3::new(0.2, 1.4, 0.0);
        let h = Vec3::new(0.3, 0.9, 0.4);
        let sol = solve(s, h, l, 0.2, Hand::Left);
        assert_eq!(sol.reach, Reach::InReach);
        assert!((sol.elbow.distance(s) - 0.30).abs() < 1e-6);
        assert!((sol.elbow.distance(h) - 0.45).abs() < 1e-6);
    }

    #[test]
    fn out_of_reach_is_a_straight_arm_and_continuous() {
        let s = Vec3::new(-0.23, 1.40, 0.0);
        let dir = Vec3::new(-0.3, -0.8, 0.5).normalize();
        let far = solve(s, s + dir * 1.5, ARM, 0.2, Hand::Right);
        assert_eq!(far.reach, Reach::TooFar);
        assert!(far.elbow.distance(s + dir * 0.41) < 1e-6);
        assert!(far.arm_end.distance(s + dir * 0.82) < 1e-6);
        // Approaching full reach the elbow converges to the straight-arm elbow.
        let near = solve(s, s + dir * (0.82 - 1e-6), ARM, 0.2, Hand::Right);
        assert!(near.elbow.distance(far.elbow) < 2e-3);
    }

    #[test]
    fn degenerate_inputs_never_give_nan() {
        let s = Vec3::new(-0.23, 1.40, 0.0);
        for h in [
            s,
            s + Vec3::new(0.0, -0.5, 0.0),
            s + Vec3::new(0.0, 0.5, 0.0),
            s + Vec3::new(1e-7, -0.3, 0.0),
            s + Vec3::new(0.0, 0.0, 5.0),
        ] {
            for l in [
                ARM,
                ArmLengths {
                    upper: 0.5,
                    fore: 0.1,
                },
                ArmLengths {
                    upper: 0.1,
                    fore: 0.5,
                },
            ] {
                let sol = solve(s, h, l, 0.2, Hand::Right);
                assert!(
                    sol.elbow.is_finite() && sol.arm_end.is_finite(),
                    "{h} {l:?}"
                );
                assert!((sol.elbow.distance(s) - l.upper).abs() < 1e-5, "{h} {l:?}");
            }
        }
    }

    #[test]
    fn vertical_arm_hangs_the_circle_off_the_forward_direction() {
        // Hand straight below the shoulder: with ω = 0 the elbow bends in the sagittal plane.
        let s = Vec3::new(-0.23, 1.40, 0.0);
        let sol = solve(s, s - Vec3::Y * 0.6, ARM, 0.0, Hand::Right);
        assert!((sol.elbow.x - s.x).abs() < 1e-5, "{}", sol.elbow);
        assert!(sol.elbow.z.abs() > 0.2);
    }
}
