//! Continuous motion of hands and props: where every hand and prop is at any time.
//!
//! Two steps, all pure, with one contract between them (`choreography`):
//!
//! 1. A source builds a [`Choreography`] (seconds, juggler-local metres): per hand slot its
//!    events (time, position, tosses thrown and caught), per toss one record (thrower,
//!    catcher, release and catch time, lane offsets, toss or bounce, catch kind, value, spins,
//!    prop path), per juggler its placement over time, and the prop paths. A siteswap's comes
//!    from [`from_schedule()`] (`from_schedule.rs`: `plan` times every toss, `positions` gives
//!    Juggling Lab's throw and catch points, `orbit` the prop paths, `lanes` the side-by-side
//!    places of props held together); the JML event reader in `files` builds one directly.
//! 2. [`Motion::from_events`] (the one motion engine) places the events in the world (each
//!    juggler's placement at the event's time) and builds, once: `flight`, an exact parabola
//!    (or bounce) per toss; `hand_path` + `spline`, a periodic C¹ cubic per hand through its
//!    events (velocity equal to the launch velocity at throws, along the incoming prop at
//!    catches, free at events that only hold, minimum acceleration elsewhere, Juggling Lab's
//!    `MINIMIZE_RMSACCEL`, plus a short push before each throw and a give after each catch).
//!
//! `Motion::new(schedule, timing, layout, hand_positions)` is the two steps in one call;
//! `Motion::state_at(t)` then costs one binary search per hand and per prop.
//!
//! Invariants: `Motion::from_events` and `state_at` never fail, panic or return NaN; a held
//! prop is at its hand (in its lane); a flying prop is on its parabola, at or above the floor;
//! hands and props are continuous in position and velocity at every throw and catch (except
//! that a hand never moves faster than `hand_path::MAX_THROW_HAND_SPEED`);
//! `state_at(t + loop_duration())` equals `state_at(t)`. Positions are world coordinates in
//! metres (y up). Motion knows nothing about bodies, cameras or notation text.
//!
//! Files, lowest first (each uses only those before it): `flight`, `spline`, `positions`,
//! `timing`, `plan`, `choreography` (the contract), `lanes`, `orbit`, `hand_path`,
//! `from_schedule`, `flight_lanes`, `sync_crossing`, and this file (`Motion`).

use glam::{DVec3, Vec3};

use crate::layout::{Layout, Placement};
use crate::schedule::Schedule;
use crate::settings::DwellPoints;
use crate::types::{Hand, HandRef};

mod carry;
mod choreography;
mod crossing;
mod dips;
mod flight;
mod flight_lanes;
mod forearms;
mod from_schedule;
mod hand_path;
mod held_rings;
pub(crate) mod lanes;
mod orbit;
mod plan;
mod positions;
mod spline;
mod sync_crossing;
mod timing;

pub use choreography::{
    CatchKind, Choreography, HandEvent, HandLift, JugglerPath, PathSegment, PropPath, Toss,
    TossKind,
};
pub(crate) use dips::HandDip;
pub use flight::BounceMode;
pub use flight_lanes::MAX_FLIGHT_LANE;
pub(crate) use flight_lanes::{segments_distance, Reach, MAX_TOSSES as MAX_LANED_TOSSES};
pub use forearms::{ForearmLifts, Forearms};
pub use from_schedule::from_schedule;
pub(crate) use from_schedule::{
    from_schedule_moving, from_schedule_per_juggler, place_for_prop, BeatPath,
};
pub use lanes::MULTIPLEX_SPREAD;
pub(crate) use positions::{HAND_PLANE_Y, HAND_PLANE_Z};
pub use spline::{CATCH_MIN_SPEED_CAP, CATCH_MIN_SPEED_FRACTION};
pub use timing::{MotionError, Timing};

use flight::FlightPath;
use positions::to_world;
use spline::PeriodicSpline;

/// State of one hand at an instant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HandState {
    pub position: Vec3,
    pub velocity: Vec3,
}

/// A prop in the air.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Flight {
    pub from: HandRef,
    pub to: HandRef,
    /// Siteswap value of the throw.
    pub value: u32,
    /// Absolute times (seconds) of this flight's release and catch.
    pub release: f64,
    pub catch: f64,
    /// Spins asked for this throw (the toss record's `spins`; `None` = automatic).
    pub spins: Option<f64>,
    /// Index into the schedule's throws of the throw this flight makes (siteswap sources;
    /// `None` for JML events).
    pub throw: Option<usize>,
}

impl Flight {
    /// 0 at release, 1 at the catch.
    pub(crate) fn progress(&self, t: f64) -> f64 {
        ((t - self.release) / (self.catch - self.release)).clamp(0.0, 1.0)
    }
}

/// When one toss of the choreography happens: it repeats every hand period, so its release,
/// floor contacts and catch happen at these times plus any whole number of hand periods.
#[derive(Clone, Debug, PartialEq)]
pub struct FlightTimes {
    pub from: HandRef,
    pub to: HandRef,
    /// Siteswap value (or the nominal one of a JML toss, see [`Flight::value`]).
    pub value: u32,
    /// Seconds of the release and of the catch (the flight's own time line, as the toss
    /// record gives them).
    pub release: f64,
    pub catch: f64,
    /// Seconds of each floor contact of a bounce, in order, between release and catch.
    pub bounces: Vec<f64>,
    /// Index into the schedule's throws, as [`Flight::throw`].
    pub throw: Option<usize>,
}

/// State of one prop at an instant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PropState {
    pub position: Vec3,
    pub velocity: Vec3,
    /// The hand holding the prop, `None` while it flies.
    pub held_by: Option<HandRef>,
    /// The flight in progress (`Some` exactly when `held_by` is `None`).
    pub flight: Option<Flight>,
    /// Index into `Schedule::orbits` of the orbit this prop travels.
    pub orbit: usize,
    /// While held: progress of the dwell, 0 at the catch to 1 at the next release
    /// (for the orientation of clubs in the hand); 0 in flight.
    pub dwell_progress: f64,
    /// While held: the hand that threw it to the holder and the hand its next throw goes to
    /// (`None` in flight and for a prop that is never thrown).
    pub dwell_from: Option<HandRef>,
    pub dwell_to: Option<HandRef>,
}

/// Where everything is at one time.
#[derive(Clone, Debug, PartialEq)]
pub struct MotionState {
    pub time: f64,
    /// Per juggler, `[left, right]` (index with `Hand::index`).
    pub hands: Vec<[HandState; 2]>,
    pub props: Vec<PropState>,
}

/// Continuous motion of a valid pattern: build once, evaluate at any time.
///
/// ```
/// use juggler::layout::Layout;
/// use juggler::motion::{from_schedule, Motion, Timing};
/// use juggler::schedule::from_notation;
/// use juggler::settings::Settings;
///
/// let schedule = from_notation("3").unwrap();
/// let timing = Timing::new(&schedule, &Settings::default()).unwrap();
/// assert_eq!(timing.bps, 2.9); // Juggling Lab's tempo for a 3-ball cascade
/// let choreography = from_schedule(&schedule, timing, &Layout::circle(1), &[]);
/// assert_eq!(choreography.tosses.len(), 2); // one per hand and period of 2 beats
/// let motion = Motion::from_events(&choreography, timing);
/// let state = motion.state_at(0.25);
/// assert_eq!(state.props.len(), 3);
/// let later = motion.state_at(0.25 + motion.loop_duration());
/// assert!(state.props[0].position.distance(later.props[0].position) < 1e-4);
/// ```
#[derive(Clone, Debug)]
pub struct Motion {
    timing: Timing,
    /// Where every juggler stands over time.
    jugglers: Vec<Stance>,
    /// Seconds after which the hands repeat.
    period: f64,
    /// Per hand slot ([`HandRef::slot`]), its periodic path.
    hands: Vec<PeriodicSpline>,
    /// Per hand slot, the times in `[0, period)` of its events (`Choreography::hands`).
    event_times: Vec<Vec<f64>>,
    /// Per hand slot, the vertical offset added to its path (`Choreography::lifts`).
    lifts: Vec<Option<HandLift>>,
    /// Per hand slot, whether its path is in its juggler's own frame (a juggler who moves).
    own_frame: Vec<bool>,
    /// Per hand slot, how it carries its held props' lanes off its path (`carry.rs`).
    carry: Vec<Option<carry::Carry>>,
    /// Per hand slot, its steps off its path (`dips.rs`; set by the scene), and the period
    /// they repeat with.
    dips: Vec<Vec<HandDip>>,
    dip_period: f64,
    /// Per toss, its flight.
    flights: Vec<FlightPath>,
    /// Per toss: thrower, catcher, value, spins asked for, schedule throw.
    throw_info: Vec<ThrowInfo>,
    /// Per toss: release and catch time (seconds, the toss record's).
    toss_times: Vec<(f64, f64)>,
    paths: Vec<PropPath>,
    /// Per path and segment: for a held segment, the start and end of the whole hold it is
    /// part of (consecutive held segments of one hand, on the path's time line).
    holds: Vec<Vec<(f64, f64)>>,
    /// Per path and segment: the tosses of the flights before and after it
    /// (`PropPath::hold_tosses`).
    hold_tosses: Vec<Vec<(Option<usize>, Option<usize>)>>,
    /// Per prop, (path, index within the path).
    prop_paths: Vec<(usize, usize)>,
    loop_seconds: f64,
}

impl Motion {
    /// The motion of `schedule` with `timing`, jugglers placed by `layout` (missing
    /// placements come from the default circle), using custom dwell points when
    /// `hand_positions` is not empty: [`from_schedule()`] then [`Motion::from_events`].
    /// Never fails for a valid schedule.
    pub fn new(
        schedule: &Schedule,
        timing: Timing,
        layout: &Layout,
        hand_positions: &[DwellPoints],
    ) -> Motion {
        let choreography = from_schedule(schedule, timing, layout, hand_positions);
        Motion::from_events(&choreography, timing)
    }

    /// The motion of a choreography (any source) under `timing` (its gravity; its bps is
    /// reported by `bps()`). Never fails or panics; hand events must lie in one hand period.
    pub fn from_events(ch: &Choreography, timing: Timing) -> Motion {
        let jugglers = stances(ch);
        let placement_at = |slot: usize, t: f64| {
            jugglers[HandRef::from_slot(slot).juggler.min(jugglers.len() - 1)].at(t)
        };

        // World point of every event, release and catch point of every toss.
        let n = ch.tosses.len();
        let mut release_point = vec![DVec3::ZERO; n];
        let mut catch_point = vec![DVec3::ZERO; n];
        let mut event_points: Vec<Vec<DVec3>> = Vec::with_capacity(ch.hands.len());
        let slots = ch.hands.len().max(jugglers.len() * 2);
        let mut lifts: Vec<Option<HandLift>> = vec![None; slots];
        for lift in &ch.lifts {
            if let Some(l) = lifts.get_mut(lift.slot) {
                *l = Some(lift.clone());
            }
        }
        for (slot, events) in ch.hands.iter().enumerate() {
            let mut points = Vec::with_capacity(events.len());
            for e in events {
                let placement = placement_at(slot, e.time);
                // The hand's path is lifted where it throws and catches; so are its flights.
                let lift = lifts[slot]
                    .as_ref()
                    .map_or(DVec3::ZERO, |l| l.offset(e.time));
                for &i in &e.throws {
                    if let Some(t) = ch.tosses.get(i) {
                        release_point[i] =
                            to_world(&placement, e.position + t.release_offset) + lift;
                    }
                }
                for &i in &e.catches {
                    if let Some(t) = ch.tosses.get(i) {
                        catch_point[i] = to_world(&placement, e.position + t.catch_offset) + lift;
                    }
                }
                points.push(to_world(&placement, e.position));
            }
            event_points.push(points);
        }

        let g = timing.gravity;
        let flights: Vec<FlightPath> = ch
            .tosses
            .iter()
            .enumerate()
            .map(|(i, t)| t.flight_path(release_point[i], catch_point[i], g))
            .collect();
        let period = ch.hand_period;
        // The hands of a juggler who moves or turns are fitted in the juggler's own frame, so
        // they travel with the body between events (fitted in the world, a hand would cut
        // straight across where the body walks or turns: behind a juggler in a weave or a
        // pirouette); those of a juggler standing still, in the world.
        let stance_of =
            |slot: usize| &jugglers[HandRef::from_slot(slot).juggler.min(jugglers.len() - 1)];
        let own_frame: Vec<bool> = (0..slots).map(|slot| stance_of(slot).moves()).collect();
        let fit = |slot: usize, passing: &[spline::Knot]| {
            let events = ch.hands.get(slot).map_or(&[][..], Vec::as_slice);
            let hand = HandRef::from_slot(slot).hand;
            let crosses = !carry::stays_on_its_side(slot, events);
            if own_frame[slot] {
                let stance = stance_of(slot);
                let seen = |t: f64, local: DVec3, v: DVec3| stance.velocity_seen(t, local, v);
                let frame = hand_path::HandFrame {
                    rest: positions::rest_position(hand),
                    forward: DVec3::Z,
                    velocity: Some(&seen),
                    crosses,
                };
                let points: Vec<DVec3> = events.iter().map(|e| e.position).collect();
                return hand_path::hand_spline(
                    events, &points, &flights, &ch.tosses, period, frame, passing,
                );
            }
            let points = event_points.get(slot).map_or(&[][..], Vec::as_slice);
            let placement = placement_at(slot, 0.0);
            let frame = hand_path::HandFrame {
                rest: to_world(&placement, positions::rest_position(hand)),
                forward: placement.forward().as_dvec3(),
                velocity: None,
                crosses,
            };
            hand_path::hand_spline(events, points, &flights, &ch.tosses, period, frame, passing)
        };
        let carry = if ch.hands_carry.iter().any(Option::is_some) {
            carry::hand_carry(ch, slots)
        } else {
            vec![None; slots]
        };
        let mut hands: Vec<PeriodicSpline> = (0..slots).map(|slot| fit(slot, &[])).collect();
        // A juggler's two hands pass each other apart in depth (crossing arms), measured where
        // they are drawn: with the lifts that take one forearm over the other.
        for left in (0..slots.saturating_sub(1)).step_by(2) {
            let right = left + 1;
            let times = |slot: usize| -> Vec<f64> {
                ch.hands
                    .get(slot)
                    .map(|e| e.iter().map(|e| e.time).collect())
                    .unwrap_or_default()
            };
            let (tl, tr) = (times(left), times(right));
            if tl.is_empty() || tr.is_empty() {
                continue;
            }
            let own = own_frame[left];
            let passing = hand_path::separate_hands(
                [&hands[left], &hands[right]],
                |side, t| {
                    let lift = DVec3::Y * lifts[left + side].as_ref().map_or(0.0, |l| l.at(t).0);
                    let carried = carry[left + side]
                        .as_ref()
                        .map_or(DVec3::ZERO, |c| c.at(t).0);
                    if own {
                        lift + carried
                    } else {
                        lift + rotate(&placement_at(left, t), carried)
                    }
                },
                [&tl, &tr],
                period,
                |t| {
                    if own {
                        DVec3::Z
                    } else {
                        placement_at(left, t).forward().as_dvec3()
                    }
                },
                |side, p, t| {
                    let local = if own {
                        p
                    } else {
                        placement_at(left, t).to_local(p.as_vec3()).as_dvec3()
                    };
                    // Left hand: +x is its own side; right hand: −x.
                    let out = if side == 0 { local.x } else { -local.x };
                    -out
                },
            );
            for (slot, knots) in [(left, &passing[0]), (right, &passing[1])] {
                if !knots.is_empty() {
                    hands[slot] = fit(slot, knots);
                }
            }
        }

        let prop_paths: Vec<(usize, usize)> = ch
            .paths
            .iter()
            .enumerate()
            .flat_map(|(k, t)| (0..t.props).map(move |p| (k, p)))
            .collect();
        let lcm_props = ch.paths.iter().fold(1u128, |acc, t| {
            from_schedule::lcm(acc, t.props.max(1) as u128)
        });
        Motion {
            timing,
            jugglers,
            period,
            hands,
            lifts,
            own_frame,
            carry,
            dips: Vec::new(),
            dip_period: period,
            flights,
            throw_info: ch
                .tosses
                .iter()
                .map(|t| {
                    // Without a siteswap value: the value whose flight this is at the
                    // nominal tempo (flight beats + dwell), for club spins.
                    let nominal = || {
                        let beats = (t.catch - t.release) * timing.bps + timing.dwell;
                        if beats.is_finite() {
                            beats.round().clamp(1.0, 1e6) as u32
                        } else {
                            1
                        }
                    };
                    ThrowInfo {
                        from: t.from,
                        to: t.to,
                        value: t.value.unwrap_or_else(nominal),
                        spins: t.spins,
                        throw: t.throw,
                    }
                })
                .collect(),
            toss_times: ch.tosses.iter().map(|t| (t.release, t.catch)).collect(),
            paths: ch.paths.clone(),
            holds: ch.paths.iter().map(PropPath::hold_spans).collect(),
            hold_tosses: ch.paths.iter().map(PropPath::hold_tosses).collect(),
            prop_paths,
            loop_seconds: period * lcm_props as f64,
            event_times: ch
                .hands
                .iter()
                .map(|events| events.iter().map(|e| e.time).collect())
                .collect(),
        }
    }

    /// The timing this motion runs at.
    pub fn timing(&self) -> Timing {
        self.timing
    }

    /// Beats per second.
    pub(crate) fn bps(&self) -> f64 {
        self.timing.bps
    }

    /// Number of jugglers.
    pub fn jugglers(&self) -> usize {
        self.hands.len() / 2
    }

    /// Juggler `juggler`'s stance (the last juggler's beyond the end).
    fn stance(&self, juggler: usize) -> &Stance {
        &self.jugglers[juggler.min(self.jugglers.len() - 1)]
    }

    /// Where juggler `juggler` stands at time `t` (the last juggler's beyond the end).
    pub fn placement_at(&self, juggler: usize, t: f64) -> Placement {
        self.stance(juggler).at(t)
    }

    /// The keyframes juggler `juggler` moves through (the last juggler's beyond the end).
    pub(crate) fn juggler_path(&self, juggler: usize) -> &JugglerPath {
        &self.stance(juggler).path
    }

    /// Number of props (all jugglers together).
    pub fn prop_count(&self) -> usize {
        self.prop_paths.len()
    }

    /// Seconds after which the hands repeat their movement.
    pub fn hand_period(&self) -> f64 {
        self.period
    }

    /// Seconds after which every prop is exactly where it was: the hand period times the least
    /// common multiple of the props per path.
    pub fn loop_duration(&self) -> f64 {
        self.loop_seconds
    }

    /// Every toss of one hand period with its release, floor contacts and catch (each
    /// repeats every [`Motion::hand_period`]), in the choreography's order.
    pub fn flight_times(&self) -> Vec<FlightTimes> {
        self.throw_info
            .iter()
            .zip(&self.toss_times)
            .zip(&self.flights)
            .map(|((info, &(release, catch)), flight)| FlightTimes {
                from: info.from,
                to: info.to,
                value: info.value,
                release,
                catch,
                bounces: flight.contacts().into_iter().map(|c| release + c).collect(),
                throw: info.throw,
            })
            .collect()
    }

    /// The prop (index into [`MotionState::props`]) that makes schedule throw `throw` at the
    /// release nearest `seconds` (whole hand periods from the toss's first), `None` when no
    /// flight makes that throw. How file formats that number their props (JIF) find which
    /// prop of the motion is theirs.
    pub(crate) fn prop_making(&self, throw: usize, seconds: f64) -> Option<usize> {
        let period = self.period;
        if !(period > 0.0 && seconds.is_finite()) {
            return None;
        }
        let (release, flying) = self
            .throw_info
            .iter()
            .zip(&self.toss_times)
            .filter(|(info, _)| info.throw == Some(throw))
            .map(|(_, &(release, catch))| {
                let shift = ((seconds - release) / period).round() * period;
                (release + shift, catch - release)
            })
            .min_by(|a, b| (a.0 - seconds).abs().total_cmp(&(b.0 - seconds).abs()))?;
        let state = self.state_at(release + 0.01 * flying);
        state.props.iter().position(|p| {
            p.flight.is_some_and(|f| {
                f.throw == Some(throw) && (f.release - release).abs() < 1e-6 * period.max(1.0)
            })
        })
    }

    /// The times in `[0, hand_period)` at which one hand passes through the points its
    /// source gives it (its throws, catches and the source's other events; they repeat
    /// every [`Motion::hand_period`]).
    pub fn hand_event_times(&self, hand: HandRef) -> &[f64] {
        self.event_times.get(hand.slot()).map_or(&[], Vec::as_slice)
    }

    /// Position and velocity of one hand at time `t` (seconds).
    pub fn hand_at(&self, hand: HandRef, t: f64) -> HandState {
        let (p, v) = self.hand_eval(hand.slot(), t);
        HandState {
            position: p.as_vec3(),
            velocity: v.as_vec3(),
        }
    }

    /// Where one hand's path puts it at `t` (seconds): where it is (`hand_at`) but for the
    /// part of its props' flight lanes it carries (`carry.rs`), which the flight lanes
    /// add again to a pattern read back from its events.
    pub fn hand_path_at(&self, hand: HandRef, t: f64) -> HandState {
        let (p, v) = self.hand_path_eval(hand.slot(), t);
        HandState {
            position: p.as_vec3(),
            velocity: v.as_vec3(),
        }
    }

    /// Position and velocity of hand slot `slot` at `t` (world, f64): its path plus its lift,
    /// plus where it carries its held props' lanes (`carry.rs`).
    fn hand_eval(&self, slot: usize, t: f64) -> (DVec3, DVec3) {
        self.carried(slot, t, self.hand_path_eval(slot, t))
    }

    /// A point `(p, v)` of hand slot `slot`'s path at `t` moved to where the hand carries its
    /// props.
    fn carried(&self, slot: usize, t: f64, (p, v): (DVec3, DVec3)) -> (DVec3, DVec3) {
        match self.carry.get(slot).and_then(Option::as_ref) {
            Some(carry) => {
                let (offset, rate) = carry.at(if t.is_finite() { t } else { 0.0 });
                let placement = self.placement_at(HandRef::from_slot(slot).juggler, t);
                (p + rotate(&placement, offset), v + rotate(&placement, rate))
            }
            None => (p, v),
        }
    }

    /// Position and velocity of hand slot `slot`'s path at `t` (world, f64) plus its lift and
    /// its dips: the point its held props' offsets are from.
    fn hand_path_eval(&self, slot: usize, t: f64) -> (DVec3, DVec3) {
        let t = if t.is_finite() { t } else { 0.0 };
        let Some(spline) = self.hands.get(slot) else {
            return (DVec3::ZERO, DVec3::ZERO);
        };
        let (p, v) = spline.eval(t);
        let (p, v) = if self.own_frame.get(slot).copied().unwrap_or(false) {
            self.stance(HandRef::from_slot(slot).juggler)
                .to_world(t, p, v)
        } else {
            (p, v)
        };
        let (p, v) = match self.lifts.get(slot).and_then(Option::as_ref) {
            Some(lift) => {
                let (y, rate) = lift.at(t);
                (p + DVec3::Y * y, v + DVec3::Y * rate)
            }
            None => (p, v),
        };
        match self.dips.get(slot) {
            Some(dips) if !dips.is_empty() => {
                let (off, rate) = dips::dip_at(dips, self.dip_period, t);
                if off == DVec3::ZERO && rate == DVec3::ZERO {
                    return (p, v);
                }
                let placement = self.placement_at(HandRef::from_slot(slot).juggler, t);
                (p + rotate(&placement, off), v + rotate(&placement, rate))
            }
            _ => (p, v),
        }
    }

    /// Sets the dips of hand slot `slot` off its path (sorted by start, not overlapping,
    /// times in `[0, period)`): the hand's path, and the props it holds, move by them.
    pub(crate) fn set_dips(&mut self, slot: usize, dips: Vec<HandDip>, period: f64) {
        if !(period.is_finite() && period > 0.0) {
            return;
        }
        if self.dips.len() <= slot {
            self.dips.resize(slot + 1, Vec::new());
        }
        self.dip_period = period;
        self.dips[slot] = dips;
    }

    /// Where every hand and prop is at time `t` (seconds; any real number, the pattern
    /// loops). Cost: one binary search per hand and per prop.
    pub fn state_at(&self, t: f64) -> MotionState {
        let t = if t.is_finite() { t } else { 0.0 };
        // Hands on their paths (held props are placed from these) and as they carry their
        // props.
        let paths64: Vec<(DVec3, DVec3)> = (0..self.hands.len())
            .map(|s| self.hand_path_eval(s, t))
            .collect();
        let hands = (0..self.jugglers())
            .map(|j| {
                Hand::BOTH.map(|h| {
                    let slot = HandRef::new(j, h).slot();
                    let (p, v) = self.carried(slot, t, paths64[slot]);
                    HandState {
                        position: p.as_vec3(),
                        velocity: v.as_vec3(),
                    }
                })
            })
            .collect();
        let props = self
            .prop_paths
            .iter()
            .map(|&(k, p)| {
                let path = &self.paths[k];
                let (index, tau) = path.locate_index(p, self.period, t);
                match path.segments[index] {
                    PathSegment::Air { start, end, toss } => {
                        let since = tau - start;
                        let ThrowInfo {
                            from,
                            to,
                            value,
                            spins,
                            throw,
                        } = self.throw_info[toss];
                        let f = &self.flights[toss];
                        let (position, velocity) = (f.position(since), f.velocity(since));
                        let release = t - since;
                        PropState {
                            position: position.as_vec3(),
                            velocity: velocity.as_vec3(),
                            held_by: None,
                            flight: Some(Flight {
                                from,
                                to,
                                value,
                                release,
                                catch: release + (end - start),
                                spins,
                                throw,
                            }),
                            orbit: path.orbit,
                            dwell_progress: 0.0,
                            dwell_from: None,
                            dwell_to: None,
                        }
                    }
                    PathSegment::Held {
                        start,
                        end,
                        hand,
                        offset0,
                        offset1,
                    } => {
                        let (hp, hv) = paths64.get(hand).copied().unwrap_or_default();
                        let (first, last) = self.holds[k][index];
                        let length = end - start;
                        let f = if length > 0.0 {
                            ((tau - start) / length).clamp(0.0, 1.0)
                        } else {
                            1.0
                        };
                        let drift = if length > 0.0 {
                            (offset1 - offset0) / length
                        } else {
                            DVec3::ZERO
                        };
                        let holder = HandRef::from_slot(hand);
                        let placement = self.placement_at(holder.juggler, t);
                        let (before, after) = self.hold_tosses[k][index];
                        let info = |toss: Option<usize>| toss.and_then(|i| self.throw_info.get(i));
                        PropState {
                            position: (hp + rotate(&placement, offset0.lerp(offset1, f))).as_vec3(),
                            velocity: (hv + rotate(&placement, drift)).as_vec3(),
                            held_by: Some(holder),
                            flight: None,
                            orbit: path.orbit,
                            dwell_progress: if last > first {
                                ((tau - first) / (last - first)).clamp(0.0, 1.0)
                            } else {
                                1.0
                            },
                            dwell_from: info(before).map(|i| i.from),
                            dwell_to: info(after).map(|i| i.to),
                        }
                    }
                }
            })
            .collect();
        MotionState {
            time: t,
            hands,
            props,
        }
    }
}

/// What a toss's flights share, kept per toss.
#[derive(Clone, Copy, Debug, PartialEq)]
struct ThrowInfo {
    from: HandRef,
    to: HandRef,
    value: u32,
    spins: Option<f64>,
    throw: Option<usize>,
}

/// One juggler's placement over time: facing as `JugglerPath::at` (linear, as Juggling Lab
/// turns jugglers), position along a periodic minimum-acceleration curve through the
/// keyframes (Juggling Lab's spline for `<position>`s), so a walking juggler does not turn
/// corners instantly.
#[derive(Clone, Debug)]
pub(crate) struct Stance {
    path: JugglerPath,
    curve: Option<PeriodicSpline>,
    /// The facing as a smooth curve through the keyframes (turning the short way from each to
    /// the next): a periodic curve (in its `x`) plus a steady turn (radians a second) that
    /// makes up the whole turns a loop may take (a juggler turning in circles).
    facing: Option<(PeriodicSpline, f64)>,
}

impl Stance {
    fn new(path: JugglerPath) -> Stance {
        let moving = path.keys.len() >= 2 && path.period > 0.0 && path.period.is_finite();
        let curve = moving.then(|| {
            let knots: Vec<spline::Knot> = path
                .keys
                .iter()
                .map(|(t, p)| spline::Knot {
                    time: *t,
                    position: p.position.as_dvec3(),
                    velocity: spline::KnotVelocity::Free,
                })
                .collect();
            PeriodicSpline::fit(&knots, path.period)
        });
        let facing = moving.then(|| {
            let short = |from: f32, to: f32| f64::from(choreography::short_turn(from, to));
            let mut angles = vec![f64::from(path.keys[0].1.facing)];
            for w in path.keys.windows(2) {
                let last = angles[angles.len() - 1];
                angles.push(last + short(w[0].1.facing, w[1].1.facing));
            }
            let (first, last) = (
                path.keys[0].1.facing,
                path.keys[path.keys.len() - 1].1.facing,
            );
            let whole = angles[angles.len() - 1] + short(last, first) - angles[0];
            let rate = whole / path.period;
            let knots: Vec<spline::Knot> = path
                .keys
                .iter()
                .zip(&angles)
                .map(|((t, _), a)| spline::Knot {
                    time: *t,
                    position: DVec3::new(a - rate * t, 0.0, 0.0),
                    velocity: spline::KnotVelocity::Free,
                })
                .collect();
            (PeriodicSpline::fit(&knots, path.period), rate)
        });
        Stance {
            path,
            curve,
            facing,
        }
    }

    /// The facing (radians) and how fast it turns (radians a second) at `t`.
    fn turning(&self, t: f64) -> Option<(f64, f64)> {
        let (curve, rate) = self.facing.as_ref()?;
        let (a, w) = curve.eval(t);
        let trend = rate * t.rem_euclid(self.path.period);
        let (facing, turning) = ((a.x + trend).rem_euclid(std::f64::consts::TAU), w.x + rate);
        (facing.is_finite() && turning.is_finite()).then_some((facing, turning))
    }

    /// Whether the juggler moves or turns at all.
    fn moves(&self) -> bool {
        self.curve.is_some()
            && self.path.keys.iter().any(|(_, p)| {
                p.position != self.path.keys[0].1.position || p.facing != self.path.keys[0].1.facing
            })
    }

    /// A point and velocity of the juggler's own frame at `t` in the world.
    fn to_world(&self, t: f64, local: DVec3, velocity: DVec3) -> (DVec3, DVec3) {
        let (placement, v0, turning) = self.frame(t);
        let r = rotate(&placement, local);
        (
            placement.position.as_dvec3() + r,
            v0 + rotate(&placement, velocity) + DVec3::new(r.z, 0.0, -r.x) * turning,
        )
    }

    /// A world velocity `v` at `t`, at the point `local` of the juggler's own frame, as seen
    /// in that frame (what `to_world` takes).
    fn velocity_seen(&self, t: f64, local: DVec3, v: DVec3) -> DVec3 {
        let (placement, v0, turning) = self.frame(t);
        let r = rotate(&placement, local);
        let relative = v - v0 - DVec3::new(r.z, 0.0, -r.x) * turning;
        let back = Placement {
            position: Vec3::ZERO,
            facing: -placement.facing,
        };
        rotate(&back, relative)
    }

    pub(crate) fn at(&self, t: f64) -> Placement {
        self.frame(t).0
    }

    /// Where the juggler stands at `t`, how fast its origin moves (world) and how fast it
    /// turns (radians a second, about +y); each curve evaluated once.
    fn frame(&self, t: f64) -> (Placement, DVec3, f64) {
        let mut p = self.path.at(t);
        let mut velocity = DVec3::ZERO;
        if let Some(curve) = &self.curve {
            let (position, v) = curve.eval(t);
            if position.is_finite() {
                p.position = position.as_vec3();
            }
            if v.is_finite() {
                velocity = v;
            }
        }
        let mut turning = 0.0;
        if let Some((facing, w)) = self.turning(t) {
            p.facing = facing as f32;
            turning = w;
        }
        (p, velocity, turning)
    }
}

/// Where each juggler of `ch` stands as the motion moves them (smooth curves through the
/// keyframes; one juggler at the origin when there are none): what the stages before the
/// motion (flight lanes, synchronous crossings) place flights by, so that the flights they
/// plan are the ones drawn.
pub(crate) fn stances(ch: &Choreography) -> Vec<Stance> {
    if ch.jugglers.is_empty() {
        vec![Stance::new(JugglerPath::fixed(Placement {
            position: Vec3::ZERO,
            facing: 0.0,
        }))]
    } else {
        ch.jugglers.iter().cloned().map(Stance::new).collect()
    }
}

/// World direction of a juggler-local direction.
fn rotate(placement: &Placement, local: DVec3) -> DVec3 {
    let (s, c) = (placement.facing as f64).sin_cos();
    DVec3::new(
        c * local.x + s * local.z,
        local.y,
        -s * local.x + c * local.z,
    )
}

#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;
#[cfg(test)]
pub(crate) mod testutil;
