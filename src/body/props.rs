//! Props: sizes, colours and orientation (club spin, ring plane).
//!
//! - Ball: no orientation (axis +y).
//! - Ring: its face is shown to the audience, as ring jugglers do (not edge-on as in Juggling
//!   Lab): its normal is the holder's facing direction, so the ring plane runs across the body
//!   (left-right and up-down), in the hand and in throws to oneself, which travel within that
//!   plane. A pass flies edge first, as a ring thrown forward does: its normal runs across the
//!   thrower's body, turning to across the catcher's; the hand turns it edge on over the last
//!   30 % of the dwell before a pass and back to the audience over the first 30 % after one
//!   is caught. A ring's normal is only defined up to sign; the flight picks the catcher's sign
//!   nearest the thrower's.
//! - Club: the axis runs from the knob toward the body. A held club points along the hand's up
//!   direction, which turns during the dwell from the catch attitude (body about 66° up,
//!   forward) back to the throw attitude (body forward, about 6° down and 6° in: gunswap's
//!   handle (0.1, 0.1, 1)). In flight it spins about the thrower's lateral axis, top travelling
//!   toward the thrower, a whole number of turns (gunswap's floor(n/2) for self throws; passes
//!   at least one) plus exactly the angle from the release attitude to the catcher's catch
//!   attitude, so every club arrives handle-first: 1.2 turns for a 3, 2.2 for a 5, about 1.33
//!   for a pass to a partner facing the thrower. A small extra rotation, growing linearly over
//!   the flight, absorbs any part of the catch attitude the spin plane cannot reach.

use std::f32::consts::TAU;

use glam::{Quat, Vec3};

use crate::layout::Placement;
use crate::motion::Flight;
use crate::types::{Hand, HandRef, PropKind, Rgba};

/// Ball diameter, metres.
pub(crate) const BALL_DIAMETER: f32 = 0.10;
/// Distance from the knob to the club's pivot (centre of mass), metres.
pub const CLUB_PIVOT_FROM_KNOB: f32 = 0.20;
pub use crate::types::{CLUB_LENGTH, CLUB_PIECES, CLUB_PROFILE, CLUB_RADIUS};

/// A club with its pivot at `position` along `axis` (`PropPose::axis`) as drawn: the pieces of
/// its profile (`CLUB_PIECES`) as capsules (segment ends, radius), knob to tip.
pub fn club_capsules(position: Vec3, axis: Vec3) -> impl Iterator<Item = (Vec3, Vec3, f32)> {
    let knob = position - axis * CLUB_PIVOT_FROM_KNOB;
    CLUB_PIECES.iter().map(move |&(a, b, r)| {
        (
            knob + axis * (a * CLUB_LENGTH),
            knob + axis * (b * CLUB_LENGTH),
            r * CLUB_LENGTH,
        )
    })
}
/// Ring outer and inner diameters, metres.
pub(crate) const RING_DIAMETER: f32 = 0.25;
pub(crate) const RING_INNER_DIAMETER: f32 = 0.20;

/// Turn of the club from the throw attitude to the catch attitude, in turns (gunswap's 0.2).
const CATCH_TURN: f32 = 0.2;

use crate::types::PALETTE;

/// Size of a prop: ball diameter, club length, ring outer diameter (metres).
pub(crate) fn prop_size(kind: PropKind) -> f32 {
    match kind {
        PropKind::Ball => BALL_DIAMETER,
        PropKind::Club => CLUB_LENGTH,
        PropKind::Ring => RING_DIAMETER,
    }
}

/// Colour of prop number `prop` on orbit `orbit`: the user's `colors` cyclically, else the
/// built-in palette; indexed by orbit when `by_orbit`, else by prop.
pub(crate) fn prop_color(colors: &[Rgba], by_orbit: bool, prop: usize, orbit: usize) -> Rgba {
    let index = if by_orbit { orbit } else { prop };
    let colors = if colors.is_empty() {
        &PALETTE[..]
    } else {
        colors
    };
    colors[index % colors.len()]
}

/// Where a prop is in its cycle, as orientation needs it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum PropPhase {
    /// In a hand; `progress` runs from 0 at the catch to 1 at the next throw; `passes`: it was
    /// caught from a partner's pass, it will be thrown as a pass.
    Held {
        by: HandRef,
        progress: f32,
        passes: (bool, bool),
    },
    /// In the air; `progress` runs from 0 at the release to 1 at the catch; `ends`: where the
    /// thrower stood at the release and the catcher at the catch.
    Flying {
        flight: Flight,
        progress: f32,
        ends: FlightEnds,
    },
}

/// The thrower's placement at a flight's release and the catcher's at its catch: a prop in
/// flight turns from the attitude it left the one hand in to the one the other hand meets it
/// in, whatever the jugglers do meanwhile (one who turns under a throw does not turn its spin).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct FlightEnds {
    pub from: Placement,
    pub to: Placement,
}

#[cfg(test)]
impl FlightEnds {
    /// The ends of `flight` for jugglers who stand at `placements` (by juggler) all along.
    pub(crate) fn standing(flight: &Flight, placements: &[Placement]) -> Self {
        let place = |juggler: usize| {
            placements.get(juggler).copied().unwrap_or(Placement {
                position: Vec3::ZERO,
                facing: 0.0,
            })
        };
        FlightEnds {
            from: place(flight.from.juggler),
            to: place(flight.to.juggler),
        }
    }
}

/// How a throw is made, where the pattern asks for more than the automatic choice.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct ThrowStyle {
    /// Whole turns in flight (0 = flat); `None` = automatic (`club_turns` for clubs, no flip
    /// for rings). A ring with spins flips end over end about the thrower's lateral axis.
    pub spins: Option<u32>,
    /// Rings are thrown flat ("pancakes"): their plane is horizontal in flight, and the hand
    /// turns them from flat to facing the audience after the catch and back before the throw.
    pub pancake: bool,
}

/// How far a held ring is turned away from facing the audience, eased from 0 to 1: turned
/// fully at the catch (`ends.0`) easing back over the first 30 % of the dwell, and turning
/// over the last 30 % to fully at the throw (`ends.1`).
fn turned_at_ends(progress: f32, (at_catch, at_throw): (bool, bool)) -> f32 {
    let p = progress.clamp(0.0, 1.0);
    let turn = if at_catch && p < 0.3 {
        1.0 - p / 0.3
    } else if at_throw && p > 0.7 {
        (p - 0.7) / 0.3
    } else {
        0.0
    };
    turn * turn * (3.0 - 2.0 * turn)
}

/// A held pancake ring's normal in the holder's own frame: flat (normal down: the ring's top
/// tipped forward, away from the body, so its centre is in front of the hand) at the catch,
/// facing the audience for the middle of the dwell, flat again at the throw.
pub(crate) fn held_pancake_normal(progress: f32) -> Vec3 {
    slerp(Vec3::Z, Vec3::NEG_Y, turned_at_ends(progress, (true, true)))
}

/// A held ring's normal in the holder's own frame: facing the audience, turned edge on toward
/// the partner (normal across the body) over the first 30 % of the dwell after a pass is
/// caught and over the last 30 % before a pass is thrown, so that a pass flies edge first.
pub(crate) fn held_ring_normal(progress: f32, passes: (bool, bool)) -> Vec3 {
    slerp(Vec3::Z, Vec3::X, turned_at_ends(progress, passes))
}

/// Orientation axis of a prop (see `PropPose::axis`) in world coordinates, automatic spins
/// and rings facing the audience. `placements` are the jugglers' placements, by juggler.
#[cfg(test)]
fn prop_axis(kind: PropKind, phase: PropPhase, placements: &[Placement]) -> Vec3 {
    prop_axis_styled(kind, phase, placements, ThrowStyle::default())
}

/// Orientation axis of a prop thrown in `style` (spins, pancake rings), world coordinates.
pub(crate) fn prop_axis_styled(
    kind: PropKind,
    phase: PropPhase,
    placements: &[Placement],
    style: ThrowStyle,
) -> Vec3 {
    let place = |juggler: usize| {
        placements.get(juggler).copied().unwrap_or(Placement {
            position: Vec3::ZERO,
            facing: 0.0,
        })
    };
    match (kind, phase) {
        (PropKind::Ball, _) => Vec3::Y,
        (PropKind::Ring, PropPhase::Held { by, progress, .. }) if style.pancake => {
            place(by.juggler).rotate(held_pancake_normal(progress))
        }
        (
            PropKind::Ring,
            PropPhase::Held {
                by,
                progress,
                passes,
            },
        ) => place(by.juggler).rotate(held_ring_normal(progress, passes)),
        (PropKind::Ring, PropPhase::Flying { .. }) if style.pancake => Vec3::NEG_Y,
        (
            PropKind::Ring,
            PropPhase::Flying {
                flight,
                progress,
                ends,
            },
        ) if flight.from.juggler != flight.to.juggler => {
            // A pass flies edge first: its plane holds the way it travels.
            let from = ends.from.rotate(Vec3::X);
            let to = ends.to.rotate(Vec3::X);
            let to = if to.dot(from) < 0.0 { -to } else { to };
            slerp(from, to, progress)
        }
        (PropKind::Ring, PropPhase::Flying { progress, ends, .. }) => {
            let thrower = ends.from;
            let from = thrower.rotate(Vec3::Z);
            let to = ends.to.rotate(Vec3::Z);
            let to = if to.dot(from) < 0.0 { -to } else { to };
            match style.spins {
                // Flips end over end, top toward the thrower, like a club.
                Some(turns) if turns > 0 => {
                    club_flight_axis(from, to, thrower.rotate(Vec3::NEG_X), turns, progress)
                }
                _ => slerp(from, to, progress),
            }
        }
        (PropKind::Club, PropPhase::Held { by, progress, .. }) => {
            place(by.juggler).rotate(held_club_axis(by.hand, progress))
        }
        (
            PropKind::Club,
            PropPhase::Flying {
                flight,
                progress,
                ends,
            },
        ) => {
            let thrower = ends.from;
            let (release, catch) = club_flight_ends(&flight, ends);
            let spin = thrower.rotate(Vec3::NEG_X);
            let turns = style.spins.unwrap_or_else(|| {
                club_turns(flight.value, flight.from.juggler != flight.to.juggler)
            });
            club_flight_axis(release, catch, spin, turns, progress)
        }
    }
}

/// The axes of a flying prop at its release and at its catch (what [`prop_axis_styled`] gives
/// at progress 0 and 1), without turning it through its spins.
pub(crate) fn flight_end_axes(
    kind: PropKind,
    flight: Flight,
    ends: FlightEnds,
    style: ThrowStyle,
) -> (Vec3, Vec3) {
    match kind {
        PropKind::Club => club_flight_ends(&flight, ends),
        _ => {
            let at = |progress| {
                prop_axis_styled(
                    kind,
                    PropPhase::Flying {
                        flight,
                        progress,
                        ends,
                    },
                    &[],
                    style,
                )
            };
            (at(0.0), at(1.0))
        }
    }
}

/// World axes of a club at the release (the thrower's throw attitude) and at the catch (the
/// catcher's catch attitude) of `flight`.
fn club_flight_ends(flight: &Flight, ends: FlightEnds) -> (Vec3, Vec3) {
    (
        ends.from.rotate(club_throw_axis(flight.from.hand)),
        ends.to.rotate(club_catch_axis(flight.to.hand)),
    )
}

/// Club axis (knob → body) at the throw, in the thrower's own frame: forward, about 6° down
/// and 6° toward the body's centre line.
pub(crate) fn club_throw_axis(side: Hand) -> Vec3 {
    Vec3::new(-side.side_sign() * 0.1, -0.1, 1.0).normalize()
}

/// Club axis at the catch, in the catcher's own frame: the throw attitude turned 0.2 turn
/// about the lateral axis, top toward the juggler (body about 66° up, forward).
pub(crate) fn club_catch_axis(side: Hand) -> Vec3 {
    Quat::from_axis_angle(Vec3::NEG_X, CATCH_TURN * TAU) * club_throw_axis(side)
}

/// The hand's up direction (and a held club's axis) in the juggler's own frame, from the
/// catch attitude (`progress` 0) to the throw attitude (`progress` 1).
pub(crate) fn held_club_axis(side: Hand, progress: f32) -> Vec3 {
    let p = progress.clamp(0.0, 1.0);
    let eased = p * p * (3.0 - 2.0 * p);
    slerp(club_catch_axis(side), club_throw_axis(side), eased)
}

/// Whole turns a club makes on a throw of siteswap `value`: gunswap's floor(n/2) for self
/// throws (3: single, 5: double, 7: triple), and at least one, one fewer for odd heights,
/// for passes (3p, 4p: single; 5p, 6p: double).
pub(crate) fn club_turns(value: u32, pass: bool) -> u32 {
    if pass {
        (value.saturating_sub(1) / 2).max(1)
    } else {
        value / 2
    }
}

/// Club axis during a flight: `release` turned by `progress` of (`turns` whole turns plus the
/// angle from `release` to `catch`) about `spin`, with a linear correction so that progress 1
/// gives `catch` exactly. All vectors in the same (world) frame.
pub(crate) fn club_flight_axis(
    release: Vec3,
    catch: Vec3,
    spin: Vec3,
    turns: u32,
    progress: f32,
) -> Vec3 {
    let p = progress.clamp(0.0, 1.0);
    let spin = spin.normalize_or(Vec3::X);
    let total = turns as f32 * TAU + angle_about(spin, release, catch);
    let spun_end = Quat::from_axis_angle(spin, total) * release;
    let correction = Quat::from_rotation_arc(spun_end.normalize_or(release), catch);
    let q = Quat::IDENTITY.slerp(correction, p) * Quat::from_axis_angle(spin, p * total);
    (q * release).normalize_or(release)
}

/// Angle in [0, 2π) that turns `a` onto `b` about `axis`, both projected onto the plane
/// perpendicular to it.
fn angle_about(axis: Vec3, a: Vec3, b: Vec3) -> f32 {
    let a = a - axis * a.dot(axis);
    let b = b - axis * b.dot(axis);
    if a.length_squared() < 1e-12 || b.length_squared() < 1e-12 {
        return 0.0;
    }
    axis.dot(a.cross(b)).atan2(a.dot(b)).rem_euclid(TAU)
}

/// Spherical interpolation between two unit vectors (falls back to `a` when they are opposite).
fn slerp(a: Vec3, b: Vec3, t: f32) -> Vec3 {
    let q = Quat::from_rotation_arc(a, b);
    (Quat::IDENTITY.slerp(q, t) * a).normalize_or(a)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::Layout;

    #[test]
    fn the_club_pieces_hold_the_drawn_profile_and_the_widest_capsule_holds_them() {
        // Each station of the profile (and the profile between stations, linear) lies inside
        // a piece at least as thick, and the pieces run knob to tip without gaps.
        for w in CLUB_PROFILE.windows(2) {
            let ((s0, r0), (s1, r1)) = (w[0], w[1]);
            for k in 0..=20 {
                let f = k as f32 / 20.0;
                let (s, r) = (s0 + (s1 - s0) * f, r0 + (r1 - r0) * f);
                let held = CLUB_PIECES
                    .iter()
                    .any(|&(a, b, pr)| (a..=b).contains(&s) && pr >= r - 1e-6);
                assert!(held, "station {s:.3} radius {r:.3}");
            }
        }
        assert_eq!(CLUB_PIECES[0].0, 0.0);
        assert_eq!(CLUB_PIECES[CLUB_PIECES.len() - 1].1, 1.0);
        for w in CLUB_PIECES.windows(2) {
            assert_eq!(w[0].1, w[1].0);
        }
        let widest = CLUB_PIECES.iter().map(|p| p.2).fold(0.0, f32::max);
        assert!((widest * CLUB_LENGTH - CLUB_RADIUS).abs() < 1e-6);
        // The handle is a third as thick as the body.
        assert!((CLUB_PIECES[1].2 * CLUB_LENGTH - 0.0126).abs() < 1e-4);
    }

    fn flight(from: HandRef, to: HandRef, value: u32) -> Flight {
        Flight {
            from,
            to,
            value,
            release: 0.0,
            catch: 1.0,
            spins: None,
            throw: None,
        }
    }

    fn angle(a: Vec3, b: Vec3) -> f32 {
        a.dot(b).clamp(-1.0, 1.0).acos()
    }

    #[test]
    fn flight_end_axes_are_the_axes_at_release_and_catch() {
        let layout = Layout::circle(2);
        let styles = [
            ThrowStyle::default(),
            ThrowStyle {
                spins: Some(2),
                pancake: false,
            },
            ThrowStyle {
                spins: None,
                pancake: true,
            },
        ];
        for (to, value) in [
            (HandRef::new(0, Hand::Left), 5),
            (HandRef::new(1, Hand::Left), 3),
        ] {
            let f = flight(HandRef::new(0, Hand::Right), to, value);
            for kind in [PropKind::Ball, PropKind::Club, PropKind::Ring] {
                for style in styles {
                    let ends = FlightEnds::standing(&f, &layout.jugglers);
                    let (release, catch) = flight_end_axes(kind, f, ends, style);
                    let at = |progress| {
                        let phase = PropPhase::Flying {
                            flight: f,
                            progress,
                            ends,
                        };
                        prop_axis_styled(kind, phase, &layout.jugglers, style)
                    };
                    assert!(angle(release, at(0.0)) < 1e-3, "{kind:?} {style:?}");
                    assert!(angle(catch, at(1.0)) < 1e-3, "{kind:?} {style:?}");
                }
            }
        }
    }

    #[test]
    fn sizes_and_colours() {
        assert_eq!(prop_size(PropKind::Ball), 0.10);
        assert_eq!(prop_size(PropKind::Club), 0.485);
        assert_eq!(prop_size(PropKind::Ring), 0.25);
        assert_eq!(prop_color(&[], false, 11, 0), PALETTE[1]);
        assert_eq!(prop_color(&[], true, 11, 2), PALETTE[2]);
        let mine = [Rgba::rgb(1, 2, 3), Rgba::rgb(4, 5, 6)];
        assert_eq!(prop_color(&mine, false, 3, 0), mine[1]);
        // The palette's colours are distinct.
        for (i, a) in PALETTE.iter().enumerate() {
            assert!(PALETTE[i + 1..].iter().all(|b| b != a));
        }
    }

    #[test]
    fn club_attitudes_at_throw_and_catch() {
        let throw = club_throw_axis(Hand::Right);
        // Forward, 5.7° down and 5.7° in (toward +x for the right hand).
        assert!(throw.z > 0.99 && throw.y < 0.0 && throw.x > 0.0);
        assert!((throw.y.asin().to_degrees() + 5.67).abs() < 0.05, "{throw}");
        let catch = club_catch_axis(Hand::Right);
        assert!((angle(throw, catch) - 0.2 * TAU).abs() < 0.01);
        assert!(
            catch.y > 0.85 && catch.z > 0.3,
            "body up and forward: {catch}"
        );
        assert_eq!(held_club_axis(Hand::Left, 0.0), club_catch_axis(Hand::Left));
        assert!(held_club_axis(Hand::Left, 1.0).distance(club_throw_axis(Hand::Left)) < 1e-6);
    }

    #[test]
    fn turns_per_throw_height() {
        let self_turns: Vec<u32> = (1..=9).map(|n| club_turns(n, false)).collect();
        assert_eq!(self_turns, [0, 1, 1, 2, 2, 3, 3, 4, 4]);
        let pass_turns: Vec<u32> = (1..=7).map(|n| club_turns(n, true)).collect();
        assert_eq!(pass_turns, [1, 1, 1, 1, 2, 2, 3]);
    }

    #[test]
    fn a_cascade_club_makes_1_2_turns_and_lands_handle_first() {
        let layout = Layout::circle(1);
        let f = flight(HandRef::new(0, Hand::Right), HandRef::new(0, Hand::Left), 3);
        let at = |p: f32| {
            prop_axis(
                PropKind::Club,
                PropPhase::Flying {
                    flight: f,
                    progress: p,
                    ends: FlightEnds::standing(&f, &layout.jugglers),
                },
                &layout.jugglers,
            )
        };
        assert!(at(0.0).distance(club_throw_axis(Hand::Right)) < 1e-5);
        assert!(at(1.0).distance(club_catch_axis(Hand::Left)) < 1e-5);
        // Accumulate the turned angle: 1.2 turns in all, always forward (top toward juggler).
        let mut total = 0.0;
        let steps = 600;
        for i in 0..steps {
            let (a, b) = (
                at(i as f32 / steps as f32),
                at((i + 1) as f32 / steps as f32),
            );
            assert!(a.cross(b).dot(Vec3::NEG_X) >= -1e-6, "spins one way");
            total += angle(a, b);
        }
        assert!((total / TAU - 1.2).abs() < 0.01, "{}", total / TAU);
    }

    #[test]
    fn a_pass_to_a_facing_partner_arrives_handle_first() {
        let layout = Layout::circle(2);
        let f = flight(HandRef::new(0, Hand::Right), HandRef::new(1, Hand::Left), 3);
        let phase = |p| PropPhase::Flying {
            flight: f,
            progress: p,
            ends: FlightEnds::standing(&f, &layout.jugglers),
        };
        let end = prop_axis(PropKind::Club, phase(1.0), &layout.jugglers);
        let expected = layout.jugglers[1].rotate(club_catch_axis(Hand::Left));
        assert!(end.distance(expected) < 1e-5);
        // The club's body points back toward the thrower (juggler 0 is at −z) and up.
        assert!(end.z < 0.0 && end.y > 0.85);
        // Held by the catcher right after: continuous.
        let held = PropPhase::Held {
            by: f.to,
            progress: 0.0,
            passes: (true, false),
        };
        assert!(prop_axis(PropKind::Club, held, &layout.jugglers).distance(end) < 1e-5);
    }

    #[test]
    fn rings_face_the_audience_and_passes_fly_edge_first() {
        let layout = Layout::circle(3);
        let pass = flight(HandRef::new(0, Hand::Right), HandRef::new(1, Hand::Left), 4);
        let own = flight(HandRef::new(0, Hand::Right), HandRef::new(0, Hand::Left), 4);
        for p in [0.0, 0.3, 1.0] {
            for f in [pass, own] {
                let ring = PropPhase::Flying {
                    flight: f,
                    progress: p,
                    ends: FlightEnds::standing(&f, &layout.jugglers),
                };
                let n = prop_axis(PropKind::Ring, ring, &layout.jugglers);
                assert!((n.length() - 1.0).abs() < 1e-5 && n.y.abs() < 1e-5);
                assert_eq!(prop_axis(PropKind::Ball, ring, &layout.jugglers), Vec3::Y);
                if p == 0.0 {
                    // At the release a ring thrown to oneself faces along the thrower's
                    // facing direction; a pass is edge on to the partner (normal across).
                    let facing = layout.jugglers[0].rotate(Vec3::Z);
                    let across = layout.jugglers[0].rotate(Vec3::X);
                    let along = if f == pass { across } else { facing };
                    assert!(n.dot(along).abs() > 1.0 - 1e-5, "{n:?} vs {along:?}");
                }
            }
        }
        let held = |progress, passes| {
            let held = PropPhase::Held {
                by: HandRef::new(0, Hand::Left),
                progress,
                passes,
            };
            prop_axis(PropKind::Ring, held, &layout.jugglers)
        };
        let facing = layout.jugglers[0].rotate(Vec3::Z);
        let across = layout.jugglers[0].rotate(Vec3::X);
        // Mid dwell it faces the audience; it turns edge on just after a pass is caught and
        // just before one is thrown, and stays facing for throws to oneself.
        assert!(held(0.5, (true, true)).distance(facing) < 1e-6);
        assert!(held(0.0, (true, false)).distance(across) < 1e-6);
        assert!(held(1.0, (false, true)).distance(across) < 1e-6);
        assert!(held(1.0, (true, false)).distance(facing) < 1e-6);
        assert!(held(0.0, (false, false)).distance(facing) < 1e-6);
    }
}
