//! The choreography contract: the one description of a pattern between its source and the
//! motion engine, the types every stage from the schedule to the motion exchanges.
//!
//! A [`Choreography`] says, in seconds and metres, which hand throws, catches or holds which
//! prop, when, and where (in the juggler's own frame), and where every juggler stands over
//! time. Sources build one: `from_schedule` (siteswaps, `hands=`, `body=`, hand siteswaps) and
//! the JML event reader in `files`; [`super::Motion::from_events`] alone turns it into
//! continuous motion (flights, hand paths, prop time lines).
//!
//! Invariants every source keeps and the engine relies on:
//! - Times are seconds. Every hand event lies in `[0, hand_period)`, each hand's events sorted
//!   by time; a toss's `catch - release` (its flight time) is positive and its release lies
//!   within about a beat of `[0, hand_period)`.
//! - Positions are juggler-local metres (`layout` frame: y up, facing +z, right hand at
//!   negative x); the juggler's placement at the event's time maps them into the world.
//! - Hands are indexed by slot, [`HandRef::slot`] (juggler 0's left hand, its right hand,
//!   juggler 1's left hand, ...), in `Choreography::hands` and in `PathSegment::Held::hand`.
//! - `HandEvent::throws`/`catches` and `PathSegment::Air::toss` index `Choreography::tosses`;
//!   `Toss::path` indexes `Choreography::paths`, the path whose `Air` segment the toss is.
//! - A prop path's segments are in time order and cover one `cycle` from the first one's
//!   start, never empty; `props = cycle / hand_period`, prop `p` running `p` hand periods
//!   behind prop 0. Everything repeats after `hand_period` × the least common multiple of the
//!   paths' `props` (the loop).
//! - Props thrown, caught or held together are offset from the hand's event point
//!   (`Toss::release_offset`/`catch_offset`, `PathSegment::Held` offsets) in lanes
//!   `MULTIPLEX_SPREAD` apart along the juggler's left-right axis (`lanes`), or restacked along
//!   another axis (`Choreography::restack_lanes`).
//! - A juggler path has at least one keyframe, sorted by time in `[0, period)`.
//!
//! This file depends on nothing else in `motion` but `flight` (a toss's [`BounceMode`] and the
//! path it flies).

use glam::{DVec3, Vec3};

use super::flight::{BounceMode, FlightPath, BOUNCE_ENERGY};
use crate::layout::Placement;
use crate::types::HandRef;

/// Everything the motion engine needs to animate one pattern.
#[derive(Clone, Debug, PartialEq)]
pub struct Choreography {
    /// Seconds after which every hand repeats its events and every juggler its placement.
    pub hand_period: f64,
    /// Per juggler, where they stand and face over one hand period.
    pub jugglers: Vec<JugglerPath>,
    /// Per hand slot ([`HandRef::slot`]), its events sorted by time in `[0, hand_period)`.
    pub hands: Vec<Vec<HandEvent>>,
    /// Every flight of one hand period.
    pub tosses: Vec<Toss>,
    /// The prop paths: each is the cycle of flights and holds its props go through.
    pub paths: Vec<PropPath>,
    /// Vertical offsets of hands over the hand period (at most one per slot), added to their
    /// paths and to their events' throw and catch points (`forearms.rs`: crossed forearms pass
    /// one over the other). Sources leave it empty.
    pub lifts: Vec<HandLift>,
    /// Per hand slot, which part of its held props' lanes it carries (`carry.rs`), if any: set
    /// by the flight lanes (a ball laned two steps in depth would otherwise be caught and thrown
    /// 11 cm in front of the fist, a club laned two steps sideways with its handle 10 cm beside
    /// it). Sources leave it empty.
    pub hands_carry: Vec<Option<HandCarry>>,
    /// How many copies of the pattern's own cycle the flight lanes treat as distinct within
    /// the hand period (1: flights a cycle apart share a lane). More where a flight would meet
    /// its own repeat a cycle later in the air (`o`, `z`: props on one parabola a hand's throw
    /// apart), so that successive throws of one hand take lanes of their own
    /// (`flight_lanes.rs`). Sources leave it 1.
    pub lane_copies: u32,
}

/// Which parts of its held props' lanes a hand carries (`carry.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Carrying {
    /// The forward part (balls: their lanes run in depth).
    Forward,
    /// The forward and the sideways parts (clubs: their lanes run sideways, and a club's
    /// handle is in the fist at the catch and the throw); never the backward part (carrying
    /// lanes back took elbows behind the shoulders).
    ForwardAndSideways,
    /// The forward part from the lane a prop is caught in to the one it is thrown in, not
    /// the slides between (rings: held ones slide quickly apart in depth, `held_rings.rs`,
    /// which the hand does not follow).
    ForwardLanes,
}

/// How a hand carries its held props' lanes (`Choreography::hands_carry`): which parts, and
/// what share of them (1: all; less where carrying them all would take its forearm into
/// flights passing it or nearer its other forearm, or the hand above the carrying's
/// acceleration bound, `flight_lanes.rs`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HandCarry {
    pub way: Carrying,
    pub share: f64,
}

impl HandCarry {
    /// All of `way`.
    pub fn all(way: Carrying) -> HandCarry {
        HandCarry { way, share: 1.0 }
    }
}

/// A smooth periodic vertical offset of one hand (metres, up), sampled every `period /
/// values.len()` seconds from time 0 and interpolated by a periodic Catmull–Rom spline (C¹).
#[derive(Clone, Debug, PartialEq)]
pub struct HandLift {
    /// Hand slot ([`crate::types::HandRef::slot`]).
    pub slot: usize,
    /// Seconds after which the lift repeats (the hand period).
    pub period: f64,
    /// Offsets at `k · period / len`.
    pub values: Vec<f64>,
}

impl HandLift {
    /// Offset (metres) and its rate (m/s) at time `t` (any real number; periodic).
    pub fn at(&self, t: f64) -> (f64, f64) {
        let n = self.values.len();
        if n == 0 || self.period.is_nan() || self.period <= 0.0 || !t.is_finite() {
            return (0.0, 0.0);
        }
        let step = self.period / n as f64;
        let u = t.rem_euclid(self.period) / step;
        let i = (u.floor() as usize).min(n - 1);
        let f = (u - i as f64).clamp(0.0, 1.0);
        let p = |k: isize| self.values[(i as isize + k).rem_euclid(n as isize) as usize];
        let (p0, p1, p2, p3) = (p(-1), p(0), p(1), p(2));
        // Catmull–Rom: tangents (p2 − p0)/2, (p3 − p1)/2.
        let (m1, m2) = (0.5 * (p2 - p0), 0.5 * (p3 - p1));
        let (f2, f3) = (f * f, f * f * f);
        let h00 = 2.0 * f3 - 3.0 * f2 + 1.0;
        let h10 = f3 - 2.0 * f2 + f;
        let h01 = -2.0 * f3 + 3.0 * f2;
        let h11 = f3 - f2;
        let value = h00 * p1 + h10 * m1 + h01 * p2 + h11 * m2;
        let d00 = 6.0 * f2 - 6.0 * f;
        let d10 = 3.0 * f2 - 4.0 * f + 1.0;
        let d01 = -6.0 * f2 + 6.0 * f;
        let d11 = 3.0 * f2 - 2.0 * f;
        let rate = (d00 * p1 + d10 * m1 + d01 * p2 + d11 * m2) / step;
        (value, rate)
    }

    /// The offset at `t` as a world vector (up).
    pub(crate) fn offset(&self, t: f64) -> DVec3 {
        DVec3::Y * self.at(t).0
    }
}

/// One moment of a hand's cycle.
#[derive(Clone, Debug, PartialEq)]
pub struct HandEvent {
    /// Seconds in `[0, hand_period)`.
    pub time: f64,
    /// Where the hand is at `time`, juggler-local, metres.
    pub position: DVec3,
    /// Tosses released here (indices into `Choreography::tosses`).
    pub throws: Vec<usize>,
    /// Tosses caught here.
    pub catches: Vec<usize>,
}

/// How a prop flies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TossKind {
    /// A free parabola from release to catch.
    Toss,
    /// Off the floor.
    Bounce(BounceMode),
}

/// How a hand meets an arriving prop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CatchKind {
    /// The hand moves along the incoming prop (siteswap catches, JML `<catch>`).
    Catch,
    /// JML `<softcatch>`.
    Soft,
}

/// One flight: who throws it when and where, who catches it when and where.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Toss {
    pub from: HandRef,
    pub to: HandRef,
    /// Release and catch times (seconds) on one time line; `catch - release` is the flight
    /// time (positive). The release lies within about a beat of `[0, hand_period)`.
    pub release: f64,
    pub catch: f64,
    /// Offset of this prop from the throwing hand's event position (multiplexes are spread
    /// side by side), juggler-local.
    pub release_offset: DVec3,
    /// Offset of this prop from the catching hand's event position, juggler-local.
    pub catch_offset: DVec3,
    pub kind: TossKind,
    /// Gravity of this flight (m/s²) when it has its own (a JML throw's `g=`); `None` =
    /// the pattern's.
    pub gravity: Option<f64>,
    /// Fraction of its energy a bouncing prop keeps at each bounce (a JML throw's
    /// `bouncefrac=`); `None` = `flight::BOUNCE_ENERGY`.
    pub bounce_energy: Option<f64>,
    /// Height (m) of the surface a bounce hits (a JML throw's `bounceplane=`); `None` = the
    /// floor.
    pub bounce_plane: Option<f64>,
    pub catch_kind: CatchKind,
    /// Siteswap value in the jugglers' own beats when the source has one (a Prechac `3.5p`,
    /// written on half beats, counts as 4); `throw` names the schedule throw as written.
    pub value: Option<u32>,
    /// Turns of a spinning prop in flight; `None` = automatic.
    pub spins: Option<f64>,
    /// Index into `Choreography::paths` of the path this flight belongs to.
    pub path: usize,
    /// Index into the schedule's throws of the throw this flight makes, when the source is
    /// a siteswap (its text labels the throw); `None` for JML events.
    pub throw: Option<usize>,
}

impl Toss {
    /// A plain toss from `from` at `release` to `to` at `catch` (seconds): thrown and caught
    /// at the hand's own event points, under the pattern's gravity, no bounce, spins chosen
    /// automatically, path 0.
    pub(crate) fn plain(from: HandRef, to: HandRef, release: f64, catch: f64) -> Self {
        Self {
            from,
            to,
            release,
            catch,
            release_offset: DVec3::ZERO,
            catch_offset: DVec3::ZERO,
            kind: TossKind::Toss,
            gravity: None,
            bounce_energy: None,
            bounce_plane: None,
            catch_kind: CatchKind::Catch,
            value: None,
            spins: None,
            path: 0,
            throw: None,
        }
    }

    /// The path this toss's prop flies from `p0` at the release to `p1` at the catch (world
    /// points), under its own gravity or else `gravity`: a parabola, or its bounces.
    pub(crate) fn flight_path(&self, p0: DVec3, p1: DVec3, gravity: f64) -> FlightPath {
        let duration = self.catch - self.release;
        let g = self
            .gravity
            .filter(|g| g.is_finite() && *g > 0.0)
            .unwrap_or(gravity);
        match self.kind {
            TossKind::Bounce(mode) => FlightPath::bounce_off(
                p0,
                p1,
                duration,
                g,
                mode,
                self.bounce_energy.unwrap_or(BOUNCE_ENERGY),
                self.bounce_plane.unwrap_or(0.0),
            ),
            TossKind::Toss => FlightPath::parabola(p0, p1, duration, g),
        }
    }
}

/// One piece of a prop path; times in seconds on the path's own time line.
#[derive(Clone, Debug, PartialEq)]
pub enum PathSegment {
    /// In the air: flight `toss` (an index into `Choreography::tosses`).
    Air { start: f64, end: f64, toss: usize },
    /// In hand slot `hand` ([`HandRef::slot`]), offset from the hand (juggler-local) by `offset0` at `start`
    /// moving linearly to `offset1` at `end`.
    Held {
        start: f64,
        end: f64,
        hand: usize,
        offset0: DVec3,
        offset1: DVec3,
    },
}

impl PathSegment {
    pub(crate) fn start(&self) -> f64 {
        match self {
            PathSegment::Air { start, .. } | PathSegment::Held { start, .. } => *start,
        }
    }
}

/// The cycle of flights and holds some props travel; prop `p` of a path runs `p` hand
/// periods behind prop 0.
#[derive(Clone, Debug, PartialEq)]
pub struct PropPath {
    /// Segments in time order, covering `[segments[0].start(), + cycle)`; never empty.
    pub segments: Vec<PathSegment>,
    /// Seconds for one prop to come back to where it was.
    pub cycle: f64,
    /// Props travelling this path (`cycle / hand_period`).
    pub props: usize,
    /// The source's orbit number (`Schedule::orbits` index), for colours.
    pub orbit: usize,
}

impl PropPath {
    /// The index of the segment prop `p` is in at time `t` (seconds), and the time on the
    /// path's line.
    pub(crate) fn locate_index(&self, p: usize, hand_period: f64, t: f64) -> (usize, f64) {
        let t0 = self.segments[0].start();
        let tau = t0 + (t - p as f64 * hand_period - t0).rem_euclid(self.cycle);
        let i = self.segments.partition_point(|s| s.start() <= tau).max(1) - 1;
        (i, tau)
    }

    /// Per segment: for a held one, the start and end of the whole hold it belongs to
    /// (the run of consecutive held segments of the same hand, around the cycle), on the path's
    /// time line; `(start, end)` of the segment itself otherwise.
    pub(crate) fn hold_spans(&self) -> Vec<(f64, f64)> {
        let segs = &self.segments;
        let m = segs.len();
        let held_by = |s: &PathSegment| match *s {
            PathSegment::Held { hand, .. } => Some(hand),
            PathSegment::Air { .. } => None,
        };
        let end_of = |s: &PathSegment| match *s {
            PathSegment::Held { end, .. } | PathSegment::Air { end, .. } => end,
        };
        (0..m)
            .map(|k| {
                let (mut first, mut last) = (segs[k].start(), end_of(&segs[k]));
                let Some(hand) = held_by(&segs[k]) else {
                    return (first, last);
                };
                // Back to the hold's start, then forward to its end (at most once round).
                let (mut i, mut shift) = (k, 0.0);
                for _ in 1..m {
                    if i == 0 {
                        shift += self.cycle;
                    }
                    i = (i + m - 1) % m;
                    if held_by(&segs[i]) != Some(hand) {
                        break;
                    }
                    first = segs[i].start() - shift;
                }
                let (mut i, mut shift) = (k, 0.0);
                for _ in 1..m {
                    i = (i + 1) % m;
                    if i == 0 {
                        shift += self.cycle;
                    }
                    if held_by(&segs[i]) != Some(hand) {
                        break;
                    }
                    last = end_of(&segs[i]) + shift;
                }
                (first, last)
            })
            .collect()
    }
}

impl PropPath {
    /// Per segment: the toss of the nearest flight before it and after it on the path
    /// (cyclically; `None` for a path that is never thrown). For a held segment these are the
    /// flight that brought its prop into the hand and the one that takes it out.
    pub(crate) fn hold_tosses(&self) -> Vec<(Option<usize>, Option<usize>)> {
        let segs = &self.segments;
        let m = segs.len();
        let air = |k: usize| match segs[k] {
            PathSegment::Air { toss, .. } => Some(toss),
            PathSegment::Held { .. } => None,
        };
        let mut out = vec![(None, None); m];
        let mut last = None;
        for i in 0..2 * m {
            let k = i % m;
            if i >= m {
                out[k].0 = last;
            }
            if let Some(t) = air(k) {
                last = Some(t);
            }
        }
        let mut next = None;
        for i in (0..2 * m).rev() {
            let k = i % m;
            if i < m {
                out[k].1 = next;
            }
            if let Some(t) = air(k) {
                next = Some(t);
            }
        }
        out
    }
}

/// Where one juggler stands over time.
#[derive(Clone, Debug, PartialEq)]
pub struct JugglerPath {
    /// Keyframes `(time in [0, period), placement)` sorted by time; never empty. `at` moves
    /// linearly between keyframes (facing the short way round), cyclically; `Motion` moves the
    /// position and turns the facing (the same short way) along smooth periodic curves through
    /// the keyframes.
    pub keys: Vec<(f64, Placement)>,
    /// Seconds after which the path repeats.
    pub period: f64,
}

impl JugglerPath {
    /// A juggler who never moves.
    pub(crate) fn fixed(placement: Placement) -> Self {
        JugglerPath {
            keys: vec![(0.0, placement)],
            period: 1.0,
        }
    }

    /// The placement at time `t` (any real number).
    pub(crate) fn at(&self, t: f64) -> Placement {
        let n = self.keys.len();
        if n <= 1 || self.period.is_nan() || self.period <= 0.0 {
            return self.keys.first().map_or(ORIGIN, |k| k.1);
        }
        let t0 = self.keys[0].0;
        let local = t0 + (t - t0).rem_euclid(self.period);
        let i = self.keys.partition_point(|k| k.0 <= local).max(1) - 1;
        let j = (i + 1) % n;
        let (ta, a) = self.keys[i];
        let (mut tb, b) = self.keys[j];
        if j == 0 {
            tb += self.period;
        }
        let f = if tb > ta {
            ((local - ta) / (tb - ta)).clamp(0.0, 1.0) as f32
        } else {
            0.0
        };
        let turn = short_turn(a.facing, b.facing);
        Placement {
            position: a.position.lerp(b.position, f),
            facing: a.facing + turn * f,
        }
    }
}

/// The turn (radians, in [−π, π)) from facing `from` to facing `to` the short way round.
pub(super) fn short_turn(from: f32, to: f32) -> f32 {
    (to - from + std::f32::consts::PI).rem_euclid(std::f32::consts::TAU) - std::f32::consts::PI
}

/// A juggler standing at the origin, facing +z.
pub(super) const ORIGIN: Placement = Placement {
    position: Vec3::ZERO,
    facing: 0.0,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::motion::{Motion, Timing};
    use crate::types::Hand;

    #[test]
    fn juggler_paths_interpolate_position_and_turn_the_short_way() {
        let path = JugglerPath {
            keys: vec![
                (
                    0.0,
                    Placement {
                        position: Vec3::ZERO,
                        facing: 3.0,
                    },
                ),
                (
                    1.0,
                    Placement {
                        position: Vec3::new(2.0, 0.0, 0.0),
                        facing: -3.0,
                    },
                ),
            ],
            period: 4.0,
        };
        let mid = path.at(0.5);
        assert!((mid.position.x - 1.0).abs() < 1e-6);
        // From 3 rad to -3 rad the short way passes through π.
        assert!(
            (mid.facing - std::f32::consts::PI).abs() < 1e-5,
            "{}",
            mid.facing
        );
        // Back from the second key to the first over the remaining 3 s; periodic.
        assert!((path.at(2.5).position.x - 1.0).abs() < 1e-6);
        assert!((path.at(4.5).position.x - mid.position.x).abs() < 1e-6);
    }

    #[test]
    fn a_hand_made_choreography_passes_its_event_points_and_flies_ballistically() {
        // One ball: right throws at 0 s from (-0.2, 1, 0.3), left catches at 0.6 s at
        // (0.3, 1, 0.3) and throws it back at 1.0 s from (0.2, 1, 0.3), right catches at
        // 1.6 s; the right hand also passes (−0.4, 1.3, 0.2) at 1.8 s holding nothing.
        let (r, l) = (HandRef::new(0, Hand::Right), HandRef::new(0, Hand::Left));
        let toss = |from, to, release, catch| Toss::plain(from, to, release, catch);
        let ev = |time, x: f64, y, z, throws: Vec<usize>, catches: Vec<usize>| HandEvent {
            time,
            position: DVec3::new(x, y, z),
            throws,
            catches,
        };
        let ch = Choreography {
            hand_period: 2.0,
            jugglers: vec![JugglerPath::fixed(Placement {
                position: Vec3::new(1.0, 0.0, 0.0),
                facing: 0.0,
            })],
            hands: vec![
                vec![
                    ev(0.6, 0.3, 1.0, 0.3, vec![], vec![0]),
                    ev(1.0, 0.2, 1.0, 0.3, vec![1], vec![]),
                ],
                vec![
                    ev(0.0, -0.2, 1.0, 0.3, vec![0], vec![]),
                    ev(1.6, -0.3, 1.0, 0.3, vec![], vec![1]),
                    ev(1.8, -0.4, 1.3, 0.2, vec![], vec![]),
                ],
            ],
            tosses: vec![toss(r, l, 0.0, 0.6), toss(l, r, 1.0, 1.6)],
            paths: vec![PropPath {
                segments: vec![
                    PathSegment::Air {
                        start: 0.0,
                        end: 0.6,
                        toss: 0,
                    },
                    PathSegment::Held {
                        start: 0.6,
                        end: 1.0,
                        hand: 0,
                        offset0: DVec3::ZERO,
                        offset1: DVec3::ZERO,
                    },
                    PathSegment::Air {
                        start: 1.0,
                        end: 1.6,
                        toss: 1,
                    },
                    PathSegment::Held {
                        start: 1.6,
                        end: 2.0,
                        hand: 1,
                        offset0: DVec3::ZERO,
                        offset1: DVec3::ZERO,
                    },
                ],
                cycle: 2.0,
                props: 1,
                orbit: 0,
            }],
            lifts: Vec::new(),
            hands_carry: Vec::new(),
            lane_copies: 1,
        };
        let m = Motion::from_events(
            &ch,
            Timing {
                bps: 1.0,
                dwell: 1.0,
                gravity: 9.81,
            },
        );
        assert_eq!((m.prop_count(), m.loop_duration()), (1, 2.0));
        let offset = DVec3::new(1.0, 0.0, 0.0);
        for (slot, events) in ch.hands.iter().enumerate() {
            for e in events {
                let h = m.hand_at(HandRef::from_slot(slot), e.time);
                let want = e.position + offset;
                assert!(
                    (h.position.as_dvec3() - want).length() < 1e-5,
                    "slot {slot} at {}: {:?}",
                    e.time,
                    h.position
                );
            }
        }
        // In flight: a parabola from release to catch point, mid-way 9.81 × 0.3² / 2 higher.
        let mid = m.state_at(0.3).props[0];
        assert!(mid.held_by.is_none());
        let chord = DVec3::new(0.05, 1.0, 0.3) + offset;
        let rise = 9.81 * 0.3 * 0.3 / 2.0;
        assert!((mid.position.as_dvec3() - (chord + DVec3::Y * rise)).length() < 1e-5);
        // Held: at its hand; seamless over the loop.
        let held = m.state_at(0.8);
        assert_eq!(held.props[0].held_by, Some(l));
        assert!(held.props[0].position.distance(held.hands[0][0].position) < 1e-6);
        let again = m.state_at(0.8 + 2.0);
        assert!(held.props[0].position.distance(again.props[0].position) < 1e-5);
    }
}
