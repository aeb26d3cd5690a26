//! Continuous motion of hands and props: timing, flight parabolas, dwell paths.
//!
//! OWNER: motion helper. The public types below are the contract with `body`/`scene`; add
//! fields if needed, keep these names and meanings. Positions are world coordinates in metres
//! (y up); juggler placement comes from `layout::Layout`.
//!
//! Data flow, all pure: `Timing::new(&Schedule, &Settings)` (validated bps/dwell/gravity;
//! Juggling Lab's automatic bps) → `Motion::new` builds, once:
//! - `plan`: release and catch time (beats) of every toss, per Juggling Lab's rules (catch
//!   `dwell` beats before the next throw, clamps, 1s released early), and each hand's events;
//! - `positions` + `hand_path::event_point`: the world point of every event (JL's table by
//!   throw value, or custom `DwellPoints` cycled per toss beat of each hand);
//! - `flight`: an exact parabola (or floor bounce) from release point to catch point;
//! - `hand_path` + `spline`: a periodic C¹ cubic per hand through its events, velocity equal
//!   to the launch velocity at throws, along the incoming prop at catches, minimum
//!   acceleration elsewhere (JL's `MINIMIZE_RMSACCEL`), plus a short push before and a
//!   follow-through after each throw so the hand scoops at waist level instead of
//!   spreading the push over the whole dwell;
//! - `orbit`: per orbit, the cycle of flights and holds one prop goes through.
//!
//! `Motion::state_at(t)` then costs one binary search per hand and per prop.
//!
//! Invariants: `Motion::new` and `state_at` never fail, panic or return NaN for a valid
//! schedule; a held prop is at its hand (multiplexes spread by `MULTIPLEX_SPREAD`); a flying
//! prop is at or above the floor; hands and props are continuous in position and velocity at
//! every throw and catch (except that a hand never moves faster than `MAX_THROW_HAND_SPEED`);
//! `state_at(t + loop_duration())` equals `state_at(t)`. Motion knows nothing about bodies,
//! cameras or notation text.

use glam::{DVec3, Vec3};

use crate::layout::{Layout, Placement};
use crate::schedule::{Schedule, ThrowKind};
use crate::spec::DwellPoints;
use crate::types::{Hand, HandRef};

mod flight;
mod hand_path;
mod orbit;
mod plan;
mod positions;
mod spline;
#[cfg(test)]
pub(crate) mod testutil;
mod timing;

pub use flight::BOUNCE_ENERGY;
pub use hand_path::{MAX_THROW_HAND_SPEED, MULTIPLEX_SPREAD};
pub use positions::{catch_x, throw_x, HAND_PLANE_Y, HAND_PLANE_Z, REST_X};
pub use timing::{auto_bps, MotionError};

use flight::{BounceMode, FlightPath};
use orbit::{Segment, Track};
use plan::{hand_of_slot, Plan};
use positions::DwellSpec;
use spline::PeriodicSpline;

/// Timing of the animation in seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Timing {
    /// Beats per second.
    pub bps: f64,
    /// Beats a hand holds a prop before throwing it.
    pub dwell: f64,
    /// m/s².
    pub gravity: f64,
}

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
}

impl Flight {
    /// 0 at release, 1 at the catch.
    pub fn progress(&self, t: f64) -> f64 {
        ((t - self.release) / (self.catch - self.release)).clamp(0.0, 1.0)
    }
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
/// use juggler::motion::{Motion, Timing};
/// use juggler::schedule::from_notation;
/// use juggler::spec::Settings;
///
/// let schedule = from_notation("3").unwrap();
/// let timing = Timing::new(&schedule, &Settings::default()).unwrap();
/// assert_eq!(timing.bps, 2.9); // Juggling Lab's tempo for a 3-ball cascade
/// let motion = Motion::new(&schedule, timing, &Layout::circle(1), &[]);
/// let state = motion.state_at(0.25);
/// assert_eq!(state.props.len(), 3);
/// let later = motion.state_at(0.25 + motion.loop_duration());
/// assert!(state.props[0].position.distance(later.props[0].position) < 1e-4);
/// ```
#[derive(Clone, Debug)]
pub struct Motion {
    timing: Timing,
    jugglers: usize,
    /// Beats after which the hands repeat (the schedule period, times the repeats needed by
    /// custom dwell points).
    period: f64,
    /// Per hand slot (`juggler * 2 + hand.index()`), its periodic path.
    hands: Vec<PeriodicSpline>,
    /// Per plan throw, its flight (`None` for holds).
    flights: Vec<Option<FlightPath>>,
    /// Per plan throw: thrower, catcher, value.
    throw_info: Vec<(HandRef, HandRef, u32)>,
    tracks: Vec<Track>,
    /// Per prop, (track, index within the track).
    prop_tracks: Vec<(usize, usize)>,
    loop_beats: f64,
}

impl Motion {
    /// The motion of `schedule` with `timing`, jugglers placed by `layout` (missing
    /// placements come from the default circle), using custom dwell points when
    /// `hand_positions` is not empty. Never fails for a valid schedule.
    pub fn new(
        schedule: &Schedule,
        timing: Timing,
        layout: &Layout,
        hand_positions: &[DwellPoints],
    ) -> Motion {
        Motion::with_juggler_hands(schedule, timing, layout, &[hand_positions.to_vec()])
    }

    /// Like [`Motion::new`] with custom dwell points per juggler: juggler `j` uses
    /// `hands[j % hands.len()]` (Juggling Lab's `hands=` with `|`); an empty list uses the
    /// built-in positions.
    pub fn with_juggler_hands(
        schedule: &Schedule,
        timing: Timing,
        layout: &Layout,
        hands: &[Vec<DwellPoints>],
    ) -> Motion {
        let per_juggler: Vec<Vec<DwellSpec>> = hands
            .iter()
            .map(|h| h.iter().copied().map(DwellSpec::from).collect())
            .collect();
        let no_custom: Vec<DwellSpec> = Vec::new();
        let custom_of = |juggler: usize| -> &Vec<DwellSpec> {
            if per_juggler.is_empty() {
                &no_custom
            } else {
                &per_juggler[juggler % per_juggler.len()]
            }
        };
        let copies = (0..schedule.jugglers).fold(1u32, |acc, j| {
            let c = custom_copies(schedule, custom_of(j).len(), j);
            lcm(u128::from(acc), u128::from(c)).min(u128::from(u32::MAX)) as u32
        });
        let plan = Plan::new(schedule, copies, timing.dwell);
        let beat = timing.beat_seconds();
        let placements = placements(layout, plan.jugglers);

        // World point of every event; spread offsets and events of every toss.
        let n = plan.throws.len();
        let mut throw_offset = vec![DVec3::ZERO; n];
        let mut catch_offset = vec![DVec3::ZERO; n];
        let mut release_point = vec![DVec3::ZERO; n];
        let mut catch_point = vec![DVec3::ZERO; n];
        let mut event_points: Vec<Vec<DVec3>> = Vec::with_capacity(plan.hand_events.len());
        for (slot, events) in plan.hand_events.iter().enumerate() {
            let hand = hand_of_slot(slot);
            let placement = &placements[hand.juggler.min(placements.len() - 1)];
            let mut points = Vec::with_capacity(events.len());
            for e in events {
                let point = hand_path::event_point(&plan, e, custom_of(hand.juggler))
                    .world(hand.hand, placement);
                for (k, &i) in e.throws.iter().enumerate() {
                    throw_offset[i] = hand_path::spread(placement, k, e.throws.len());
                    release_point[i] = point + throw_offset[i];
                }
                for &i in &e.catches {
                    let (k, m) = plan.catch_slot[i];
                    catch_offset[i] = hand_path::spread(placement, k, m);
                    catch_point[i] = point + catch_offset[i];
                }
                points.push(point);
            }
            event_points.push(points);
        }

        let flights: Vec<Option<FlightPath>> = (0..n)
            .map(|i| {
                let tt = plan.times[i]?;
                let duration = (tt.catch - tt.release) * beat;
                let (p0, p1, g) = (release_point[i], catch_point[i], timing.gravity);
                Some(match plan.throws[i].kind {
                    ThrowKind::Bounce {
                        bounces,
                        forced,
                        hyper,
                    } => FlightPath::bounce(
                        p0,
                        p1,
                        duration,
                        g,
                        BounceMode::from_kind(bounces, forced, hyper),
                    ),
                    _ => FlightPath::parabola(p0, p1, duration, g),
                })
            })
            .collect();
        let hands = plan
            .hand_events
            .iter()
            .enumerate()
            .map(|(slot, events)| {
                let hand = hand_of_slot(slot);
                let placement = &placements[hand.juggler.min(placements.len() - 1)];
                let rest = hand_path::rest_position(hand, placement);
                hand_path::hand_spline(events, &event_points[slot], &flights, &plan, beat, rest)
            })
            .collect();

        let tracks = orbit::tracks(&plan, schedule, &catch_offset, &throw_offset);
        let prop_tracks: Vec<(usize, usize)> = tracks
            .iter()
            .enumerate()
            .flat_map(|(k, t)| (0..t.props).map(move |p| (k, p)))
            .collect();
        let lcm_props = tracks
            .iter()
            .fold(1u128, |acc, t| lcm(acc, t.props.max(1) as u128));
        let period = plan.period as f64;
        Motion {
            timing,
            jugglers: plan.jugglers,
            period,
            hands,
            flights,
            throw_info: plan
                .throws
                .iter()
                .map(|t| (t.from, t.to, t.value))
                .collect(),
            tracks,
            prop_tracks,
            loop_beats: period * lcm_props as f64,
        }
    }

    /// The timing this motion runs at.
    pub fn timing(&self) -> Timing {
        self.timing
    }

    /// Beats per second.
    pub fn bps(&self) -> f64 {
        self.timing.bps
    }

    /// Number of jugglers.
    pub fn jugglers(&self) -> usize {
        self.jugglers
    }

    /// Number of props (all jugglers together).
    pub fn prop_count(&self) -> usize {
        self.prop_tracks.len()
    }

    /// Seconds after which the hands repeat their movement.
    pub fn hand_period(&self) -> f64 {
        self.timing.seconds(self.period)
    }

    /// Seconds after which every prop is exactly where it was: the period times the least
    /// common multiple of the props per orbit.
    pub fn loop_duration(&self) -> f64 {
        self.timing.seconds(self.loop_beats)
    }

    /// Position and velocity of one hand at time `t` (seconds).
    pub fn hand_at(&self, hand: HandRef, t: f64) -> HandState {
        match self.hands.get(plan::hand_slot(hand)) {
            Some(spline) => hand_state(spline, t),
            None => HandState {
                position: Vec3::ZERO,
                velocity: Vec3::ZERO,
            },
        }
    }

    /// Where every hand and prop is at time `t` (seconds; any real number, the pattern
    /// loops). Cost: one binary search per hand and per prop.
    pub fn state_at(&self, t: f64) -> MotionState {
        let t = if t.is_finite() { t } else { 0.0 };
        let hands64: Vec<(DVec3, DVec3)> = self.hands.iter().map(|s| s.eval(t)).collect();
        let hands = (0..self.jugglers)
            .map(|j| {
                Hand::BOTH.map(|h| {
                    let (p, v) = hands64[j * 2 + h.index()];
                    HandState {
                        position: p.as_vec3(),
                        velocity: v.as_vec3(),
                    }
                })
            })
            .collect();
        let beat = self.timing.beat_seconds();
        let beats = t * self.timing.bps;
        let props = self
            .prop_tracks
            .iter()
            .map(|&(k, p)| {
                let track = &self.tracks[k];
                let (segment, tau) = track.locate(p, self.period, beats);
                match *segment {
                    Segment::Air { start, end, throw } => {
                        let since = (tau - start) * beat;
                        let (from, to, value) = self.throw_info[throw];
                        let (position, velocity) = match &self.flights[throw] {
                            Some(f) => (f.position(since), f.velocity(since)),
                            None => (DVec3::ZERO, DVec3::ZERO),
                        };
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
                                catch: release + (end - start) * beat,
                            }),
                            orbit: track.orbit,
                            dwell_progress: 0.0,
                        }
                    }
                    Segment::Held {
                        start,
                        end,
                        hand,
                        offset0,
                        offset1,
                    } => {
                        let (hp, hv) = hands64[hand];
                        let length = end - start;
                        let f = if length > 0.0 {
                            ((tau - start) / length).clamp(0.0, 1.0)
                        } else {
                            1.0
                        };
                        let drift = if length > 0.0 {
                            (offset1 - offset0) / (length * beat)
                        } else {
                            DVec3::ZERO
                        };
                        PropState {
                            position: (hp + offset0.lerp(offset1, f)).as_vec3(),
                            velocity: (hv + drift).as_vec3(),
                            held_by: Some(hand_of_slot(hand)),
                            flight: None,
                            orbit: track.orbit,
                            dwell_progress: f,
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

/// The placement of every juggler: the layout's, or the default circle's where the layout
/// has none or a non-finite one.
fn placements(layout: &Layout, jugglers: usize) -> Vec<Placement> {
    let circle = Layout::circle(jugglers);
    (0..jugglers)
        .map(|j| match layout.jugglers.get(j) {
            Some(p) if p.position.is_finite() && p.facing.is_finite() => *p,
            _ => circle.jugglers.get(j).copied().unwrap_or(Placement {
                position: Vec3::ZERO,
                facing: 0.0,
            }),
        })
        .collect()
}

fn hand_state(spline: &PeriodicSpline, t: f64) -> HandState {
    let (p, v) = spline.eval(if t.is_finite() { t } else { 0.0 });
    HandState {
        position: p.as_vec3(),
        velocity: v.as_vec3(),
    }
}

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

fn lcm(a: u128, b: u128) -> u128 {
    (a / gcd(a, b).max(1)).saturating_mul(b)
}

/// How many schedule periods one hand period spans so that `custom` dwell points, cycled over
/// juggler `juggler`'s tosses, repeat with the pattern.
fn custom_copies(schedule: &Schedule, custom: usize, juggler: usize) -> u32 {
    if custom <= 1 {
        return 1;
    }
    let mut slots: std::collections::BTreeSet<(usize, Hand, u32)> = Default::default();
    for t in schedule
        .throws
        .iter()
        .filter(|t| t.kind != ThrowKind::Hold && t.from.juggler == juggler)
    {
        slots.insert((t.from.juggler, t.from.hand, t.beat));
    }
    let mut per_juggler: std::collections::BTreeMap<usize, u128> = Default::default();
    for (j, _, _) in slots {
        *per_juggler.entry(j).or_default() += 1;
    }
    let len = custom as u128;
    let copies = per_juggler
        .values()
        .fold(1u128, |acc, &c| lcm(acc, len / gcd(len, c)));
    copies.min(u32::MAX as u128) as u32
}

#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;
