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
//! Near full reach the circle shrinks to a point infinitely fast (`h ∝ √(l1 + l2 − d)`), so an
//! exact solver with a fixed shoulder flings the elbow across the last centimetres whenever a
//! hand sweeps through full reach. The last `SOFT_REACH` of the reach is therefore softened
//! ("soft IK"): past `d_soft = (l1 + l2)(1 − SOFT_REACH)` the arm spans only
//! `d_eff = d_soft + w·(1 − e^(−(d − d_soft)/w))` (w the band width), which straightens it
//! smoothly and only asymptotically, and the shoulder yields the difference `d − d_eff` toward
//! the hand (a reaching shrug), so the arm still ends exactly at the hand. At full reach the
//! shoulder has moved `w/e` (3 cm for the default arm). The shrug follows the difference up to
//! `SHRUG_EXACT`, then saturates smoothly at `2·SHRUG_EXACT`; beyond that the straight arm
//! ends short of the hand, pointing at it. Closer than `|l1 − l2|` the arm folds completely.
//! For hands ahead of the shoulder and not outward of it (where juggling hands are) the seed's
//! plane is used exactly; elsewhere it is bent smoothly toward the body's forward direction
//! (see `arm_axes`), so elbows never swing through the body. Nothing here produces NaN for
//! finite inputs.

use glam::Vec3;

use crate::types::Hand;

/// Horizontal shoulder–hand distance (metres) under which the arm counts as near vertical and
/// the body's forward direction steadies the circle (see `arm_axes`).
pub(crate) const NEAR_VERTICAL: f32 = 0.2;

/// Outward shoulder–hand offset (metres) past which the reference plane no longer follows the
/// hand sideways (see `arm_axes`).
pub(crate) const OUTWARD_FADE: f32 = 0.5;

/// Forward shoulder–hand offset (metres) under which the reference plane stops following a
/// hand that goes beside or behind the shoulder (see `arm_axes`).
pub(crate) const MIN_AHEAD: f32 = 0.1;

/// Inward shoulder–hand offset (metres) past which a hand counts as crossing the body: the
/// elbow then starts to turn forward and out (see `cross_swivel`). Standard hands stay within
/// 0.15 m inward of their shoulder.
pub(crate) const CROSS_START: f32 = 0.2;

/// Inward offset (metres) beyond `CROSS_START` over which the crossing turn grows to its full
/// `CROSS_SWIVEL`.
pub(crate) const CROSS_WIDTH: f32 = 0.3;

/// Extra chicken-wing angle (radians) of an arm whose hand is fully across the body.
pub(crate) const CROSS_SWIVEL: f32 = 0.5;

/// How far behind the shoulders' frontal plane an elbow may go before the chicken wing opens
/// (metres), and the bound it then approaches but never reaches (see `solve_natural_elbow`).
pub(crate) const BEHIND_KNEE: f32 = 0.02;
pub(crate) const BEHIND_CAP: f32 = 0.04;

/// Largest opening of the chicken wing beyond the body's swivel that keeps an elbow forward
/// (radians).
pub(crate) const MAX_EXTRA_SWIVEL: f32 = 1.3;
/// Steps `solve_natural_elbow` takes toward the bound.
const WING_STEPS: usize = 4;
/// How far behind the knee (metres) the seed's elbow must be for the wing to open by
/// `tanh(1)` of `MAX_EXTRA_SWIVEL` at most.
const WING_SOFTNESS: f32 = 0.11;

/// Fraction of the full reach (`upper + fore`) over which the arm straightens softly.
pub(crate) const SOFT_REACH: f32 = 0.10;

/// Largest shoulder shift (metres) that follows the soft-IK difference exactly; shifts then
/// saturate at twice this.
pub const SHRUG_EXACT: f32 = 0.04;

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

    /// Shoulder–hand distance where the soft band starts: closer, the shoulder stays put.
    pub fn soft_start(&self) -> f32 {
        self.reach() * (1.0 - SOFT_REACH)
    }

    /// The distance the arm spans for a hand `d` from the shoulder: `d` up to `soft_start`,
    /// then approaching the full reach smoothly (C¹) and never quite getting there.
    pub(crate) fn soft_distance(&self, d: f32) -> f32 {
        let soft = self.soft_start();
        if d <= soft {
            return d;
        }
        let w = self.reach() - soft;
        soft + w * (1.0 - (-(d - soft) / w).exp())
    }

    /// How far the shoulder yields toward a hand `d` away: the soft-IK difference
    /// `d − soft_distance(d)` up to `SHRUG_EXACT`, then saturating smoothly (C¹) at twice that.
    pub(crate) fn shrug(&self, d: f32) -> f32 {
        let gap = d - self.soft_distance(d);
        if gap <= SHRUG_EXACT {
            gap
        } else {
            SHRUG_EXACT + SHRUG_EXACT * ((gap - SHRUG_EXACT) / SHRUG_EXACT).tanh()
        }
    }
}

/// Whether the hand was reachable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reach {
    /// Both segments have their exact lengths and the arm ends at the hand (the shoulder may
    /// have yielded up to `SHRUG_EXACT` toward it).
    Reached,
    /// The hand is beyond what the arm and the shrug reach: the arm points at it, nearly
    /// straight, and ends short of it.
    Stretched,
    /// The hand is closer than `|upper − fore|`: the arm is folded completely.
    TooClose,
}

/// Result of the elbow solver.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct ElbowSolution {
    /// The shoulder joint: the given shoulder, moved up to `2·SHRUG_EXACT` toward the hand
    /// when the hand is near or beyond full reach.
    pub shoulder: Vec3,
    pub elbow: Vec3,
    /// Where the forearm ends: the hand itself when in reach, else the end of the arm.
    pub arm_end: Vec3,
    pub reach: Reach,
}

/// The elbow of an arm from `shoulder` to `hand` with the given segment `lengths` and
/// chicken-wing angle `swivel` (radians, positive = elbow outward), following seed 000.
///
/// `side` says which way "outward" is (`Left`: +n, `Right`: −n, see the module doc), and
/// `forward` is the direction the body faces (it orients the plane for hands beside, behind or
/// under the shoulder).
/// Works in any frame whose y axis is up. (The body uses `solve_natural_elbow`, this circle
/// with the chicken wing opened for hands close in front.)
#[cfg(test)]
pub(crate) fn solve_elbow(
    shoulder: Vec3,
    hand: Vec3,
    lengths: ArmLengths,
    swivel: f32,
    side: Hand,
    forward: Vec3,
) -> ElbowSolution {
    circle(shoulder, hand, lengths, side, forward).solution(hand, swivel)
}

/// The elbow of `solve_elbow`, with the chicken wing opened further where the seed's elbow
/// would go more than `BEHIND_KNEE` behind the frontal plane of `shoulder` (a hand close in
/// front of the body pulls the elbow back through the torso's side): the angle is raised just
/// enough that the elbow stays within a smooth bound that never reaches `BEHIND_CAP` behind
/// (`knee + (cap − knee)·tanh(excess / (cap − knee))`, C¹ at the knee), turned by at most
/// `MAX_EXTRA_SWIVEL`, continuously in the hand. The circle, and so both segment lengths, are the seed's.
/// The elbow is then turned `after` radians more on the circle (positive = outward), a turn
/// the wing does not answer (the scene's turn forward of an elbow the wing keeps behind).
pub(crate) fn solve_natural_elbow(
    shoulder: Vec3,
    hand: Vec3,
    lengths: ArmLengths,
    (swivel, after): (f32, f32),
    side: Hand,
    forward: Vec3,
) -> ElbowSolution {
    let c = circle(shoulder, hand, lengths, side, forward);
    let f = Vec3::new(forward.x, 0.0, forward.z).normalize_or(Vec3::Z);
    // Elbow ahead of the shoulder: base + a·cos ω + b·sin ω.
    let base = (c.shoulder + c.axis * c.along - shoulder).dot(f);
    let (a, b) = (c.radius * c.u1.dot(f), c.radius * c.u2.dot(f));
    let behind = -(base + a * swivel.cos() + b * swivel.sin());
    let r = a.hypot(b);
    if behind.is_nan() || behind <= BEHIND_KNEE || r < 1e-6 {
        return c.solution(hand, swivel + after);
    }
    let span = BEHIND_CAP - BEHIND_KNEE;
    let target = BEHIND_KNEE + span * ((behind - BEHIND_KNEE) / span).tanh();
    // Newton steps outward toward the bound (the slope `dz/dω` kept at least R/4, so a step at
    // the circle's backmost point still moves), each saturated at `MAX_EXTRA_SWIVEL /
    // WING_STEPS`: continuous in the hand.
    // The whole turn grows smoothly with how far the seed's elbow is behind, so the wing opens
    // at a bounded rate as a hand comes in (never all at once where the bound is out of reach).
    let most = MAX_EXTRA_SWIVEL * ((behind - BEHIND_KNEE) / WING_SOFTNESS).tanh();
    let mut w = swivel;
    let step = (most / WING_STEPS as f32).max(1e-6);
    for _ in 0..WING_STEPS {
        let need = (-(base + a * w.cos() + b * w.sin()) - target).max(0.0);
        let slope = (b * w.cos() - a * w.sin()).max(0.25 * r);
        w += step * (need / (slope * step)).tanh();
    }
    c.solution(hand, w + after)
}

/// The circle of possible elbows of one arm (seed 000) and where the arm ends.
#[derive(Clone, Copy)]
struct Circle {
    shoulder: Vec3,
    axis: Vec3,
    along: f32,
    radius: f32,
    u1: Vec3,
    u2: Vec3,
    d: f32,
    fore: f32,
    reach: Reach,
}

fn circle(shoulder: Vec3, hand: Vec3, lengths: ArmLengths, side: Hand, forward: Vec3) -> Circle {
    let ArmLengths {
        upper: l1,
        fore: l2,
    } = lengths;
    let offset = hand - shoulder;
    let full = offset.length();
    let (axis, horizontal) = arm_axes(offset, full, forward, side);
    // Soft IK: the arm spans `d`, the shoulder yields `shift` toward the hand.
    let d = lengths.soft_distance(full);
    let shift = lengths.shrug(full);
    let shoulder = shoulder + axis * shift;

    let (along, reach) = if d <= (l1 - l2).abs() {
        (if l1 >= l2 { l1 } else { -l1 }, Reach::TooClose)
    } else {
        // Circle centre: the projection of the elbow on the shoulder–hand axis.
        let reach = if shift + d >= full - 1e-6 {
            Reach::Reached
        } else {
            Reach::Stretched
        };
        (
            ((d * d + l1 * l1 - l2 * l2) / (2.0 * d)).clamp(-l1, l1),
            reach,
        )
    };
    let radius = (l1 * l1 - along * along).max(0.0).sqrt();

    let n = Vec3::Y.cross(horizontal);
    // n is horizontal and perpendicular to the reference direction; remove any part along the
    // axis (non-zero only when `arm_axes` leaned the reference toward the forward direction).
    let n = (n - axis * n.dot(axis)).normalize_or(Vec3::X);
    Circle {
        shoulder,
        axis,
        along,
        radius,
        u1: n.cross(axis),
        u2: n * side.side_sign(),
        d,
        fore: l2,
        reach,
    }
}

impl Circle {
    /// The arm with its elbow at chicken-wing angle `swivel` on the circle.
    fn solution(&self, hand: Vec3, swivel: f32) -> ElbowSolution {
        let Circle {
            shoulder,
            axis,
            along,
            radius,
            u1,
            u2,
            d,
            fore,
            reach,
        } = *self;
        let elbow = shoulder + axis * along + radius * (u1 * swivel.cos() + u2 * swivel.sin());
        let arm_end = match reach {
            Reach::Reached => hand,
            Reach::Stretched => shoulder + axis * d,
            Reach::TooClose => elbow + (hand - elbow).normalize_or(-axis) * fore,
        };
        ElbowSolution {
            shoulder,
            elbow,
            arm_end,
            reach,
        }
    }
}

/// The extra chicken-wing angle for a hand `offset` from the shoulder across the body (crossed
/// arms, mills mess), added to the body's swivel by `body::juggler` (`solve_elbow` itself stays
/// the seed's circle): 0 up to
/// `CROSS_START` inward of the shoulder, then growing smoothly (smoothstep, C¹) to
/// `CROSS_SWIVEL` over `CROSS_WIDTH`. The seed's elbow below the shoulder–hand line would hang
/// straight down along the chest there; a juggler crossing the arms brings the elbow forward
/// and out, in front of the chest, which is where the outward direction `u2` of a plane turned
/// across the body points.
pub(crate) fn cross_swivel(offset: Vec3, forward: Vec3, side: Hand) -> f32 {
    let forward_flat = Vec3::new(forward.x, 0.0, forward.z).normalize_or(Vec3::Z);
    let outward = Vec3::Y.cross(forward_flat) * side.side_sign();
    let inward = -offset.dot(outward);
    let x = ((inward - CROSS_START) / CROSS_WIDTH).clamp(0.0, 1.0);
    CROSS_SWIVEL * x * x * (3.0 - 2.0 * x)
}

/// Unit shoulder→hand axis and the unit horizontal direction used to orient the circle.
///
/// The seed's reference plane is the vertical plane through S and H: its horizontal direction
/// is the hand's offset `(outward, ahead)` from the shoulder. It is used as is for hands ahead
/// of the shoulder (`ahead ≥ MIN_AHEAD`) and not outward of it, which is where juggling hands
/// are. Elsewhere three smooth (C¹) corrections keep the elbow natural and steady:
/// - outward: a hand outward of the shoulder turns the plane sideways and "below the line"
///   then points the elbow inward, through the back; the outward part fades out
///   (`x·(1 − x/OUTWARD_FADE)²`, none past `OUTWARD_FADE`), so a hand at the side hangs the
///   elbow behind instead;
/// - behind: the forward part never drops below `MIN_AHEAD / 2` (easing off exponentially
///   under `MIN_AHEAD`), so a hand beside or behind the shoulder still bends the arm backward,
///   never forward through the body, and the plane is never undefined;
/// - near vertical: within `NEAR_VERTICAL` of horizontal offset the direction is pulled
///   further toward the forward direction, so the plane turns slowly while the hand passes
///   under the shoulder.
///
/// The reference is thus always ahead of the shoulder; the circle is only undefined for a hand
/// straight sideways from the shoulder at its height (the normal of the plane), where the
/// fallback keeps it finite.
fn arm_axes(offset: Vec3, d: f32, forward: Vec3, side: Hand) -> (Vec3, Vec3) {
    let forward_flat = Vec3::new(forward.x, 0.0, forward.z).normalize_or(Vec3::Z);
    let outward = Vec3::Y.cross(forward_flat) * side.side_sign();
    let axis = if d > 1e-6 { offset / d } else { -Vec3::Y };
    let out = offset.dot(outward);
    let lateral = if out <= 0.0 {
        out
    } else if out < OUTWARD_FADE {
        out * (1.0 - out / OUTWARD_FADE).powi(2)
    } else {
        0.0
    };
    let fwd = offset.dot(forward_flat);
    let half = MIN_AHEAD / 2.0;
    let ahead = if fwd >= MIN_AHEAD {
        fwd
    } else {
        half + half * ((fwd - MIN_AHEAD) / half).exp()
    };
    let flat = outward * lateral + forward_flat * ahead;
    let near = (1.0 - flat.length() / NEAR_VERTICAL).max(0.0);
    let horizontal =
        (flat + forward_flat * (NEAR_VERTICAL * near * near)).normalize_or(forward_flat);
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
        // Hands ahead of the shoulder and inside it, where the seed's plane is used as is.
        let s = Vec3::new(-0.23, 1.40, 0.0);
        for h in [
            Vec3::new(-0.12, 1.0, 0.3),
            Vec3::new(-0.20, 0.8, 0.35),
            Vec3::new(0.20, 1.2, 0.25),
            Vec3::new(-0.1, 1.6, 0.25),
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
        assert_eq!(sol.reach, Reach::Reached);
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
    fn seed_001_worked_example_is_this_circle_at_omega_pi_and_zero() {
        // Seed 001's two-link chain: segments l1 = 3 and l2 = 2 from the origin, target
        // p_d = (−3, √7, 0). The seed's numbers: r = 4; cos φ = (16 − 9 − 4)/(−12) = −0.25,
        // φ = 1.8235, θ2z = φ − π = −1.3181; the bent chain ends at p3 = (3.5, −1.93649, 0);
        // θ1z = asin(0.48412) = 0.50536, heading β = π, elevation γ = 0.72272. Its polar form
        // puts joint 2 (the elbow) at R_y(β)·R_z(γ + θ1z)·(3, 0, 0) = (−1.00810, 2.82555, 0),
        // above the root–target line; its axis-angle form turns the bent chain by 2.9242 about
        // z, which puts the elbow at (3·cos 2.9242, 3·sin 2.9242, 0) = (−2.92940, 0.64700, 0),
        // below it. Both are this solver's circle: ω = π and ω = 0 (Juggling Lab's pose). The
        // target lies ahead when the body faces its heading (−x), so seed 000's vertical plane
        // is used as is.
        let lengths = ArmLengths {
            upper: 3.0,
            fore: 2.0,
        };
        let target = Vec3::new(-3.0, 7f32.sqrt(), 0.0);
        let p3 = Vec3::new(3.5, -1.93649, 0.0);
        assert!((p3.length() - 4.0).abs() < 1e-4 && (target.length() - 4.0).abs() < 1e-6);
        let rotation = glam::Quat::from_rotation_z(2.9242);
        assert!((rotation * p3).distance(target) < 1e-3, "{}", rotation * p3);
        for side in Hand::BOTH {
            let polar = solve_elbow(
                Vec3::ZERO,
                target,
                lengths,
                std::f32::consts::PI,
                side,
                Vec3::NEG_X,
            );
            let axis_angle = solve_elbow(Vec3::ZERO, target, lengths, 0.0, side, Vec3::NEG_X);
            for sol in [polar, axis_angle] {
                // In reach (4 < the soft band's start, 4.5): no shrug, exact segments.
                assert_eq!(sol.reach, Reach::Reached);
                assert_eq!(sol.shoulder, Vec3::ZERO);
                assert_eq!(sol.arm_end, target);
                let (upper, fore) = (sol.elbow, target - sol.elbow);
                assert!((upper.length() - 3.0).abs() < 1e-5 && (fore.length() - 2.0).abs() < 1e-5);
                // The seed's joint angles read back from the elbow: φ at the elbow, θ1z at the
                // root (between the upper arm and the root–target line).
                let phi = (-upper).angle_between(fore);
                assert!((phi - 1.8235).abs() < 1e-4, "{phi}");
                assert!((phi - std::f32::consts::PI + 1.3181).abs() < 1e-4);
                assert!((upper.angle_between(target) - 0.50536).abs() < 1e-4);
                assert!(
                    sol.elbow.z.abs() < 1e-5,
                    "in the seed's plane: {}",
                    sol.elbow
                );
            }
            assert!(
                polar.elbow.distance(Vec3::new(-1.00810, 2.82555, 0.0)) < 1e-4,
                "{}",
                polar.elbow
            );
            // Polar form: elevation γ + θ1z along the heading β = π.
            let elevation = 0.72272 + 0.50536_f32;
            let seed_polar = Vec3::new(-3.0 * elevation.cos(), 3.0 * elevation.sin(), 0.0);
            assert!(polar.elbow.distance(seed_polar) < 1e-3, "{seed_polar}");
            assert!(
                axis_angle.elbow.distance(Vec3::new(-2.92940, 0.64700, 0.0)) < 1e-4,
                "{}",
                axis_angle.elbow
            );
            assert!(
                axis_angle
                    .elbow
                    .distance(rotation * Vec3::new(3.0, 0.0, 0.0))
                    < 1e-4
            );
        }
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
        assert_eq!(sol.reach, Reach::Reached);
        assert!((sol.elbow.distance(s) - 0.30).abs() < 1e-6);
        assert!((sol.elbow.distance(h) - 0.45).abs() < 1e-6);
    }

    #[test]
    fn out_of_reach_is_a_straight_arm_with_a_bounded_shrug() {
        let s = Vec3::new(-0.23, 1.40, 0.0);
        let dir = Vec3::new(-0.3, -0.8, 0.5).normalize();
        let far = solve(s, s + dir * 1.5, ARM, 0.2, Hand::Right);
        assert_eq!(far.reach, Reach::Stretched);
        // The shoulder yields its maximum, 2·SHRUG_EXACT = 8 cm, toward the hand.
        assert!(
            far.shoulder.distance(s + dir * 0.08) < 1e-5,
            "{}",
            far.shoulder
        );
        assert!(far.elbow.distance(far.shoulder + dir * 0.41) < 5e-3);
        assert!(far.arm_end.distance(far.shoulder + dir * 0.82) < 1e-5);
        assert!((far.elbow.distance(far.shoulder) - 0.41).abs() < 1e-6);
    }

    #[test]
    fn soft_band_shrugs_the_shoulder_and_keeps_the_arm_exact() {
        // Soft band from 0.738 m (90 % of 0.82), w = 0.082:
        // at full reach d_eff = 0.738 + 0.082·(1 − 1/e) = 0.789834, the shoulder yields 0.030166.
        assert!((ARM.soft_start() - 0.738).abs() < 1e-6);
        assert_eq!(ARM.soft_distance(0.70), 0.70);
        assert_eq!(ARM.shrug(0.70), 0.0);
        let d_eff = ARM.soft_distance(0.82);
        assert!((d_eff - 0.789834).abs() < 1e-5, "{d_eff}");
        assert!((ARM.shrug(0.82) - 0.030166).abs() < 1e-5);
        let s = Vec3::new(-0.23, 1.40, 0.0);
        let dir = Vec3::new(0.1, -0.9, 0.4).normalize();
        let hand = s + dir * 0.82;
        let sol = solve(s, hand, ARM, 0.2, Hand::Right);
        assert_eq!(sol.reach, Reach::Reached);
        assert!(sol.shoulder.distance(s + dir * 0.030166) < 1e-5);
        assert!((sol.elbow.distance(sol.shoulder) - 0.41).abs() < 1e-5);
        assert!((sol.elbow.distance(hand) - 0.41).abs() < 1e-5);
        assert_eq!(sol.arm_end, hand);
        // The shrug saturates smoothly: C¹ where it leaves the exact regime, bounded by 8 cm.
        let mut prev = 0.0;
        for k in 700..1500 {
            let shrug = ARM.shrug(k as f32 / 1000.0);
            assert!(shrug >= prev - 1e-6 && shrug - prev < 1.1e-3 && shrug <= 0.08);
            prev = shrug;
        }
    }

    #[test]
    fn elbow_speed_is_bounded_through_full_reach() {
        // Sweep the hand outward through full reach in 1 mm steps: the elbow never moves more
        // than √(R/8w) ≈ 1.6 mm per step (plus the along-axis part and rounding).
        let s = Vec3::new(-0.23, 1.40, 0.0);
        let dir = Vec3::new(-0.2, -0.9, 0.35).normalize();
        let mut prev = solve(s, s + dir * 0.6, ARM, 0.2, Hand::Right).elbow;
        for k in 601..1000 {
            let e = solve(s, s + dir * (k as f32 / 1000.0), ARM, 0.2, Hand::Right).elbow;
            assert!(e.distance(prev) < 2e-3, "d={k} mm: {}", e.distance(prev));
            prev = e;
        }
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
                assert!(
                    (sol.elbow.distance(sol.shoulder) - l.upper).abs() < 1e-5,
                    "{h} {l:?}"
                );
            }
        }
    }

    #[test]
    fn hand_passing_close_under_the_shoulder_turns_the_elbow_slowly() {
        // A hand sweeping 1 mm at a time under the shoulder, 2–5 cm in front of it (as a
        // passing hand does): the seed's vertical plane alone would swing the elbow 5 mm per
        // mm of hand there; leaning it toward the forward direction keeps it under 3.5.
        let s = Vec3::new(-0.23, 1.40, 0.0);
        for z in [0.02, 0.035, 0.05] {
            let at = |x: f32| solve(s, Vec3::new(x, 0.77, z), ARM, 0.2, Hand::Right).elbow;
            let mut prev = at(-0.33);
            for k in 1..=200 {
                let e = at(-0.33 + k as f32 * 1e-3);
                assert!(
                    e.distance(prev) < 3.5e-3,
                    "z={z} step {k}: {}",
                    e.distance(prev)
                );
                prev = e;
            }
        }
    }

    #[test]
    fn hand_at_the_side_hangs_the_elbow_behind_not_inward() {
        // A passing hand out at the side, level with the body (seen in `<3p|2p>`): the seed's
        // plane is then the frontal plane and would put the elbow at the spine (x ≈ 0); here it
        // stays within 8 cm of the shoulder's side and well behind.
        let s = Vec3::new(0.23, 1.40, 0.0);
        for z in [-0.05, -0.02, 0.0, 0.02, 0.05] {
            let sol = solve(s, Vec3::new(0.34, 0.93, z), ARM, 0.2, Hand::Left);
            assert!(sol.elbow.x > 0.15, "z={z}: {}", sol.elbow);
            assert!(sol.elbow.z < -0.2, "behind the shoulder: {}", sol.elbow);
        }
    }

    #[test]
    fn crossed_arm_brings_the_elbow_forward_and_out_of_the_chest() {
        // Crossed-arm reverse cascade: the right hand throws 0.30 m left of the centre line,
        // 0.53 m inward of its shoulder. The seed's elbow would hang down in front of the chest
        // (z < 0.12); the crossing turn adds the full CROSS_SWIVEL and brings it forward.
        let s = Vec3::new(-0.23, 1.40, 0.0);
        let h = Vec3::new(0.30, 1.0, 0.3);
        let extra = cross_swivel(h - s, Vec3::Z, Hand::Right);
        assert!((extra - CROSS_SWIVEL).abs() < 1e-6);
        let seed = solve(s, h, ARM, 0.2, Hand::Right).elbow;
        let sol = solve(s, h, ARM, 0.2 + extra, Hand::Right);
        let crossed = sol.elbow;
        assert!(
            crossed.z > seed.z + 0.04 && crossed.z > 0.2,
            "{seed} -> {crossed}"
        );
        assert!((crossed.distance(sol.shoulder) - 0.41).abs() < 1e-5);
        assert!((crossed.distance(h) - 0.41).abs() < 1e-5);
        // Standard hands (at most 0.2 m inward) are untouched, and the turn is C¹ at both ends.
        assert_eq!(
            cross_swivel(Vec3::new(0.2, -0.4, 0.3), Vec3::Z, Hand::Right),
            0.0
        );
        let at = |x: f32| cross_swivel(Vec3::new(x, -0.4, 0.3), Vec3::Z, Hand::Right);
        assert!(at(CROSS_START + 1e-3) < 1e-4);
        assert!((at(CROSS_START + CROSS_WIDTH - 1e-3) - CROSS_SWIVEL).abs() < 1e-4);
        assert!((at(CROSS_START + CROSS_WIDTH / 2.0) - CROSS_SWIVEL / 2.0).abs() < 1e-5);
    }

    #[test]
    fn hand_behind_the_shoulder_bends_the_arm_backward() {
        // Reaching behind the back (toward the centre, 15 cm behind): the elbow goes back and
        // out, not forward through the chest.
        let s = Vec3::new(-0.23, 1.40, 0.0);
        let sol = solve(s, Vec3::new(0.0, 0.95, -0.15), ARM, 0.2, Hand::Right);
        assert!(sol.elbow.z < 0.0 && sol.elbow.x < -0.3, "{}", sol.elbow);
    }

    #[test]
    fn vertical_arm_hangs_the_circle_off_the_forward_direction() {
        // Hand straight below the shoulder: with ω = 0 the elbow bends in the sagittal plane.
        let s = Vec3::new(-0.23, 1.40, 0.0);
        let sol = solve(s, s - Vec3::Y * 0.6, ARM, 0.0, Hand::Right);
        assert!((sol.elbow.x - s.x).abs() < 1e-5, "{}", sol.elbow);
        assert!(sol.elbow.z.abs() > 0.2);
    }

    #[test]
    fn hand_close_in_front_opens_the_chicken_wing_instead_of_pulling_the_elbow_back() {
        // Left hand 20 cm in front of the shoulder line and 30 cm below the shoulder, 10 cm
        // inward: the seed's elbow (ω = 0.2) is 12.4 cm behind the shoulder, at the back of
        // the torso's side; the natural elbow stays within BEHIND_CAP, further out to the side,
        // with exact segments.
        let s = Vec3::new(0.23, 1.40, 0.0);
        let h = Vec3::new(0.13, 1.10, 0.20);
        let seed = solve(s, h, ARM, 0.2, Hand::Left);
        assert!((seed.elbow.z + 0.124).abs() < 0.005, "{}", seed.elbow);
        let nat = solve_natural_elbow(s, h, ARM, (0.2, 0.0), Hand::Left, Vec3::Z);
        assert!(nat.elbow.z > -BEHIND_CAP, "{}", nat.elbow);
        assert!(nat.elbow.z < -BEHIND_KNEE, "{}", nat.elbow);
        assert!(
            nat.elbow.x > seed.elbow.x + 0.05,
            "{} {}",
            nat.elbow,
            seed.elbow
        );
        assert!((nat.elbow.distance(nat.shoulder) - 0.41).abs() < 1e-5);
        assert!((nat.elbow.distance(h) - 0.41).abs() < 1e-5);
        // A cascade hand (38 cm in front, 40 cm below): the seed's elbow is already within the
        // knee, so nothing changes.
        let h = Vec3::new(0.12, 1.0, 0.38);
        assert_eq!(
            solve_natural_elbow(s, h, ARM, (0.2, 0.0), Hand::Left, Vec3::Z),
            solve(s, h, ARM, 0.2, Hand::Left)
        );
        // The opening is continuous: the hand drawn in toward the body by 1 mm steps moves
        // the elbow by at most 1 cm a step, never more than BEHIND_CAP behind.
        let mut last = None;
        for k in 0..=300 {
            let h = Vec3::new(0.13, 1.10, 0.40 - k as f32 * 0.001);
            let e = solve_natural_elbow(s, h, ARM, (0.2, 0.0), Hand::Right.other(), Vec3::Z).elbow;
            assert!(e.z > -BEHIND_CAP, "{h} {e}");
            if let Some(l) = last {
                assert!(e.distance(l) < 0.01, "{h}: {l} -> {e}");
            }
            last = Some(e);
        }
    }
}
