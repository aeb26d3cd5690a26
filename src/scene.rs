//! Everything needed to show one pattern: notation → schedule → timing → layout → motion →
//! bodies. Built once by `Scene::new` (the only step that can fail); after that every query is
//! total: `pose_at(t)` gives the whole scene at any time, looping seamlessly.

use glam::Vec3;

mod catch_dips;
mod elbow_forward;
mod elbow_room;
mod held_leans;

use crate::body::dims::BodyDims;
use crate::body::juggler::{juggler_pose_moving, BodyMotion};
use crate::body::props::{
    flight_end_axes, prop_axis_styled, prop_color, prop_size, FlightEnds, PropPhase, ThrowStyle,
    CLUB_LENGTH, CLUB_PIVOT_FROM_KNOB, RING_DIAMETER, RING_INNER_DIAMETER,
};
use crate::body::{BodyError, Pose, PropPose};
use crate::layout::{Layout, Placement};
use crate::motion::{FlightTimes, Motion, MotionError, Timing};
use crate::schedule::{self, PatternError, Schedule, ThrowKind};
use crate::spec::{EventPattern, PathProp, PatternSource, PatternSpec};
use crate::types::{Hand, HandRef, PropKind, Rgba};

/// Why a pattern spec cannot be animated.
#[derive(Debug, thiserror::Error)]
pub enum SceneError {
    /// The notation does not parse or is not a valid pattern (with its column or beat).
    #[error(transparent)]
    Pattern(#[from] PatternError),
    /// A timing setting (bps, dwell, gravity) is out of range.
    #[error(transparent)]
    Timing(#[from] MotionError),
    /// A body dimension is out of range.
    #[error(transparent)]
    Body(#[from] BodyError),
    /// The pattern with its `hands` and `body` cycles would animate a cycle over the budget.
    #[error(transparent)]
    Budget(#[from] crate::budget::BudgetError),
    /// A juggler placement has a coordinate or angle that is not a finite number.
    #[error("placement of juggler {juggler} is not finite")]
    Placement { juggler: usize },
}

/// Distance from the hand to a held club's pivot along the club: the hand grips the handle
/// 5 cm from the knob and the pivot is 20 cm from the knob.
const CLUB_GRIP_TO_PIVOT: f32 = 0.15;
/// Height of a held ring's centre above the hand: held near the bottom of the rim.
const RING_GRIP_TO_CENTRE: f32 = 0.11;
/// Rings held together in one hand are stacked face to face this far apart (metres), toward
/// the audience and a little sideways (3.1 cm forward, 1.6 cm across, so the rims of a stack
/// show from the front; forward and down for pancake rings, whose face turns between down and
/// forward in the hand), not side by side in one plane where they would cut through each
/// other.
pub const RING_STACK_SPACING: f64 = 0.035;

/// One pattern, ready to be evaluated at any time.
#[derive(Clone, Debug)]
pub struct Scene {
    spec: PatternSpec,
    /// The siteswap's schedule; `None` for a pattern given by its events.
    schedule: Option<Schedule>,
    /// Each juggler's beats in one period as written (see [`Scene::period_beats`]).
    period_beats: u32,
    timing: Timing,
    layout: Layout,
    motion: Motion,
    /// Body proportions per juggler.
    dims: Vec<BodyDims>,
    /// Colour of each prop, by prop index.
    colors: Vec<Rgba>,
    /// Kind of each prop, by prop index (clubs and balls may fly together).
    kinds: Vec<PropKind>,
    /// Per orbit: its props are never thrown (only held), so they have no dwell to follow.
    held_only: Vec<bool>,
    /// Per juggler: how the body takes part (knee dips for high throws, gaze).
    bodies: Vec<BodyPlan>,
    /// Every toss of one hand period and when it is released, bounces and is caught.
    flights: Vec<FlightTimes>,
    /// Per prop: how a held club or ring leans out of the way of what passes it, over the loop.
    held_leans: Vec<Vec<held_leans::HeldLean>>,
}

/// What happens at a moment of the pattern that one can hear or step to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EventKind {
    /// A prop lands in a hand.
    Catch,
    /// A bouncing prop hits the floor.
    Bounce,
    /// A prop leaves a hand.
    Throw,
    /// A beat of the pattern's tempo; `accent` on the first beat of each period as written.
    Beat { accent: bool },
}

/// One throw, floor contact, catch or beat, at `time` seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PatternEvent {
    pub time: f64,
    pub kind: EventKind,
    /// The hand that throws (a throw or a bounce) or catches (a catch); `None` for a beat.
    pub hand: Option<HandRef>,
    /// Index into the schedule's throws of the throw, when the pattern is a siteswap.
    pub throw: Option<usize>,
    /// The kind of prop (the pattern's).
    pub prop: PropKind,
}

/// Most events one call of [`Scene::events_between`] returns (a span of about a day of a
/// fast pattern); later ones are left out.
pub const MAX_EVENTS: usize = 1_000_000;

/// Labels are shown while a prop has flown less than this fraction of its flight.
const LABEL_FLIGHT_FRACTION: f64 = 0.5;

/// How one juggler's body moves with the pattern, worked out once from the motion.
#[derive(Clone, Debug, Default, PartialEq)]
struct BodyPlan {
    /// High throws: (release time within the hand period, seconds; dip depth, metres).
    dips: Vec<(f64, f32)>,
    /// Unit direction the head looks along, own frame.
    gaze: Vec3,
    /// Time scale of the dips (≤ 1): high throws that follow each other quickly get shorter
    /// dips, so the body still rises between them (a 10-ball `a` bobs with every throw).
    pace: f64,
    /// Elbow turns out of the way of props passing each arm, `[left, right]`
    /// (`elbow_room`), repeating every `turn_period` seconds.
    turns: [Vec<elbow_room::ElbowTurn>; 2],
    turn_period: f64,
    /// Elbow turns forward, on the circle after the body has placed the elbow, where it would
    /// be far behind the shoulders, `[left, right]` (`elbow_forward`).
    forward: [elbow_forward::ForwardTurn; 2],
}

/// Throws whose apex is more than this far above the hands make the knees dip (metres).
const DIP_FROM_HEIGHT: f32 = 0.8;
/// Dip per metre of apex height above `DIP_FROM_HEIGHT`, and the deepest dip (metres).
const DIP_PER_METRE: f32 = 0.035;
const DIP_MAX: f32 = 0.07;
/// The dip starts this long before the release, is deepest at `DIP_LOW` before it and has
/// risen again `DIP_AFTER` after it (seconds): the legs push the throw up.
const DIP_BEFORE: f64 = 0.40;
const DIP_LOW: f64 = 0.15;
const DIP_AFTER: f64 = 0.08;
/// The head looks at most this far up (radians, 40°) and this far down (10°).
const GAZE_UP_MAX: f32 = 0.70;
const GAZE_DOWN_MAX: f32 = 0.17;

impl BodyPlan {
    /// Knee dip at time `t` (seconds): the deepest of the dips of all high throws near `t`.
    fn dip_at(&self, t: f64, period: f64) -> f32 {
        let mut dip = 0.0f32;
        if period.is_nan() || period <= 0.0 {
            return dip;
        }
        let t = t.rem_euclid(period);
        for &(release, depth) in &self.dips {
            // Every copy of this release whose window covers t (the window may be longer
            // than the period): s = t − release − n·period for n = 0, 1, …
            let (before, low, after) = (
                DIP_BEFORE * self.pace,
                DIP_LOW * self.pace,
                DIP_AFTER * self.pace,
            );
            let mut s = (t - release).rem_euclid(period) + period;
            while s > -before {
                let shape = if s > after {
                    0.0
                } else if s <= -low {
                    let x = (s + before) / (before - low);
                    0.5 - 0.5 * (std::f64::consts::PI * x).cos()
                } else {
                    let x = (s + low) / (low + after);
                    0.5 + 0.5 * (std::f64::consts::PI * x).cos()
                };
                dip = dip.max(depth * shape as f32);
                s -= period;
            }
        }
        dip
    }
}

/// Works out each juggler's body motion by sampling one hand period of the motion: the
/// flights each juggler throws (their release times and apex heights) and the highest point
/// its props reach.
fn plan_bodies(motion: &Motion, layout: &Layout, dims: &[BodyDims]) -> Vec<BodyPlan> {
    let jugglers = motion.jugglers();
    let period = motion.hand_period();
    let g = motion.timing().gravity as f32;
    let mut plans = vec![BodyPlan::default(); jugglers];
    let mut peaks: Vec<Option<Vec3>> = vec![None; jugglers];
    const SAMPLES: usize = 240;
    if period.is_finite() && period > 0.0 {
        for k in 0..SAMPLES {
            let t = period * k as f64 / SAMPLES as f64;
            for prop in motion.state_at(t).props {
                let Some(flight) = prop.flight else { continue };
                let j = flight.from.juggler;
                let (Some(plan), Some(place)) = (plans.get_mut(j), layout.jugglers.get(j)) else {
                    continue;
                };
                let mut release = flight.release.rem_euclid(period);
                if release > period - 1e-6 {
                    release = 0.0;
                }
                let air = (flight.catch - flight.release) as f32;
                let height = g * air * air / 8.0;
                let depth = ((height - DIP_FROM_HEIGHT) * DIP_PER_METRE).min(DIP_MAX);
                if depth > 0.0 && !plan.dips.iter().any(|&(r, _)| (r - release).abs() < 1e-6) {
                    plan.dips
                        .push((release, depth * dims[j.min(dims.len() - 1)].scale()));
                }
                let local = place.to_local(prop.position);
                if peaks[j].is_none_or(|p| local.y > p.y) {
                    peaks[j] = Some(local);
                }
            }
        }
    }
    for plan in plans.iter_mut() {
        // The shortest time between two dips' releases (around the period's end too).
        plan.dips.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut gap = period;
        for (k, &(r, _)) in plan.dips.iter().enumerate() {
            let next = plan
                .dips
                .get(k + 1)
                .map_or(plan.dips[0].0 + period, |d| d.0);
            gap = gap.min(next - r);
        }
        let window = DIP_BEFORE + DIP_AFTER;
        plan.pace = if gap > 1e-9 {
            (gap / window).clamp(0.25, 1.0)
        } else {
            1.0
        };
        // Quick dips are shallower: half as deep at a quarter of the time.
        let depth_scale = (0.5 + 0.5 * (plan.pace - 0.25) / 0.75) as f32;
        for dip in &mut plan.dips {
            dip.1 *= depth_scale;
        }
    }
    for (j, plan) in plans.iter_mut().enumerate() {
        let head = dims[j.min(dims.len() - 1)].head_centre();
        plan.gaze = match peaks[j] {
            // Look at the middle of the pattern's top (x = 0), as jugglers do.
            Some(peak) => {
                let to = Vec3::new(0.0, peak.y - head.y, peak.z.max(0.3));
                let pitch = to.y.atan2(to.z).clamp(-GAZE_DOWN_MAX, GAZE_UP_MAX);
                Vec3::new(0.0, pitch.sin(), pitch.cos())
            }
            None => Vec3::Z,
        };
    }
    plans
}

/// Where hands work for props of `kinds` (the pattern's `prop` when none): with clubs when
/// any prop is a club.
fn hands_kind(prop: PropKind, kinds: &[PropKind]) -> PropKind {
    if kinds.contains(&PropKind::Club) {
        PropKind::Club
    } else {
        kinds.first().copied().unwrap_or(prop)
    }
}

/// Rings held together stack face to face (or on top of each other when flat) instead of
/// side by side.
fn restack_rings(
    choreography: &mut crate::motion::Choreography,
    settings: &crate::settings::Settings,
    kinds: &[PropKind],
) {
    let rings = if kinds.is_empty() {
        settings.prop == PropKind::Ring
    } else {
        kinds.iter().all(|k| *k == PropKind::Ring)
    };
    if rings {
        // Rings held together stack face to face (forward and down when flat), toward the
        // audience and a little sideways so that the rims of a stack show.
        let stack = if settings.pancake_rings {
            glam::DVec3::new(0.0, -1.0, 1.0).normalize()
        } else {
            glam::DVec3::new(0.5, 0.0, 1.0).normalize()
        };
        choreography.restack_lanes(stack, RING_STACK_SPACING);
    }
}

/// A juggler's `body=` cycle as keyframes in beats: each beat's positions at even steps
/// within it, left-out ones skipped; `None` when it gives no position.
fn beat_path(beats: &crate::settings::BodyBeats) -> Option<crate::motion::BeatPath> {
    let mut keys = Vec::new();
    for (k, beat) in beats.iter().enumerate() {
        for (i, p) in beat.iter().enumerate() {
            if let Some(p) = p {
                let at = Layout::from_specs(1, std::slice::from_ref(p)).jugglers[0];
                keys.push((k as f64 + i as f64 / beat.len() as f64, at));
            }
        }
    }
    (!keys.is_empty()).then(|| crate::motion::BeatPath {
        period: beats.len().clamp(1, u32::MAX as usize) as u32,
        keys,
    })
}

/// Offset from the grip (the hand's point) to the centre of a prop of `kind` whose axis is
/// `axis`, held (or last held) by a juggler placed at `holder`.
fn grip_offset(kind: PropKind, pancake: bool, axis: Vec3, holder: Option<&Placement>) -> Vec3 {
    match kind {
        PropKind::Ball => Vec3::ZERO,
        PropKind::Club => axis * CLUB_GRIP_TO_PIVOT,
        // A ring is held at its rim: the centre is the ring's radius along the ring's
        // plane, away from the hand (up for a ring facing the audience, forward for a
        // flat one, whose top the hand has tipped forward).
        PropKind::Ring if pancake => {
            let lateral = holder.map_or(Vec3::X, |p| p.rotate(Vec3::X));
            axis.cross(lateral).normalize_or(Vec3::Y) * RING_GRIP_TO_CENTRE
        }
        PropKind::Ring => Vec3::Y * RING_GRIP_TO_CENTRE,
    }
}

/// Hands closer than this (centres, metres) hold their clubs less turned toward the middle,
/// parallel at `CLUBS_PARALLEL` and closer: two clubs held side by side, each turned 6° inward,
/// would cross their bodies when the hands scoop in before a synchronous throw (columns).
const CLUBS_TURN_IN_FROM: f32 = 0.20;
const CLUBS_PARALLEL: f32 = 0.15;

/// A club held by `by` along `axis` (world), turned less toward the body's middle as the
/// juggler's two hands (`hands`, world) come closer than `CLUBS_TURN_IN_FROM`: continuous in the
/// hands, and the attitude of `held_club_axis` itself wherever the hands are further apart (so
/// at the throws and catches of every pattern whose hands are that far apart then, a flight
/// starts and ends in the held attitude).
fn held_club_parted(axis: Vec3, by: HandRef, hands: [Vec3; 2], placement: &Placement) -> Vec3 {
    let apart = hands[0].distance(hands[1]);
    if apart.is_nan() || apart >= CLUBS_TURN_IN_FROM {
        return axis;
    }
    let x = ((apart - CLUBS_PARALLEL) / (CLUBS_TURN_IN_FROM - CLUBS_PARALLEL)).clamp(0.0, 1.0);
    let keep = x * x * (3.0 - 2.0 * x);
    let mut local = placement.to_local(placement.position + axis);
    // Only the part toward the middle (inward: −x for the left hand, +x for the right).
    if local.x * by.hand.side_sign() < 0.0 {
        local.x *= keep;
    }
    placement.rotate(local.normalize_or(Vec3::Z))
}

/// The steps both builders take once the events are placed: rings held together stacked,
/// events of one hand lying on the other parted, flights moved into lanes clear of each other.
fn keep_props_and_hands_apart(
    choreography: &mut crate::motion::Choreography,
    settings: &crate::settings::Settings,
    kinds: &[PropKind],
    hands_for: PropKind,
    timing: Timing,
    dims: &[BodyDims],
) {
    restack_rings(choreography, settings, kinds);
    choreography.part_meeting_hands();
    separate_flights(choreography, hands_for, settings, timing, dims);
}

/// The motion of `choreography`, rings held in a juggler's two hands at once first slid apart
/// in depth where their rims would cut (`Choreography::part_held_rings`; rings face the
/// audience, so rings held side by side lie in one plane).
fn part_held_rings(
    choreography: &mut crate::motion::Choreography,
    settings: &crate::settings::Settings,
    kinds: &[PropKind],
    timing: Timing,
) -> Motion {
    let motion = Motion::from_events(choreography, timing);
    let rings = if kinds.is_empty() {
        settings.prop == PropKind::Ring
    } else {
        kinds.iter().all(|k| *k == PropKind::Ring)
    };
    // Where each hand's held props are placed from: its path (a hand carrying its rings' lanes
    // moves off it; the props' offsets already hold the lanes).
    let hand = |h: crate::types::HandRef, t: f64| {
        motion
            .placement_at(h.juggler, t)
            .to_local(motion.hand_path_at(h, t).position)
            .as_dvec3()
    };
    // Centres of the rings in flight near juggler `j` at `t`, in its frame (a ring's centre is
    // its grip's point raised by the ring's radius, as it faces the audience).
    let flying = |j: usize, t: f64| {
        let place = motion.placement_at(j, t);
        motion
            .state_at(t)
            .props
            .iter()
            .filter(|p| p.flight.is_some())
            .map(|p| {
                place.to_local(p.position).as_dvec3() + glam::DVec3::Y * RING_GRIP_TO_CENTRE as f64
            })
            .filter(|c| c.length() < 2.0)
            .collect()
    };
    if rings
        && !settings.pancake_rings
        && choreography.part_held_rings(motion.jugglers(), hand, flying)
    {
        Motion::from_events(choreography, timing)
    } else {
        motion
    }
}

/// The motion of `choreography` once both builders have placed its events (hands placed for
/// the props of `hands_for`): props and hands kept apart (`keep_props_and_hands_apart`), held
/// rings slid apart (`part_held_rings`), then crossed forearms passing one over the other
/// (`lift_crossed_forearms`), measured on the bodies of `dims`; where hands were lifted, the
/// props are kept apart once more from the placed events with the hands lifted.
fn settle_motion(
    choreography: &mut crate::motion::Choreography,
    settings: &crate::settings::Settings,
    (kinds, hands_for): (&[PropKind], PropKind),
    timing: Timing,
    dims: &[BodyDims],
) -> Motion {
    // (Kept only for patterns small enough to be laned.)
    let placed = (choreography.tosses.len() <= crate::motion::MAX_LANED_TOSSES)
        .then(|| choreography.clone());
    keep_props_and_hands_apart(choreography, settings, kinds, hands_for, timing, dims);
    let motion = part_held_rings(choreography, settings, kinds, timing);
    let motion = lift_crossed_forearms(choreography, (settings, kinds), timing, motion, dims);
    let Some(placed) = placed.filter(|_| !choreography.lifts.is_empty()) else {
        return motion;
    };
    // The lanes again, from the placed events, with the hands lifted: a lift can raise a held
    // prop into a flight laned past the unlifted hand.
    let lifts = std::mem::take(&mut choreography.lifts);
    *choreography = placed;
    choreography.lifts = lifts;
    keep_props_and_hands_apart(choreography, settings, kinds, hands_for, timing, dims);
    part_held_rings(choreography, settings, kinds, timing)
}

/// The motion of `choreography` with crossed forearms passing one over the other
/// (`motion::ForearmLifts`), measured on the arms the body draws for `dims` and the props their
/// hands hold (`kinds`, else the settings' prop): the motion is built again after each round
/// that lifted something.
fn lift_crossed_forearms(
    choreography: &mut crate::motion::Choreography,
    (settings, kinds): (&crate::settings::Settings, &[PropKind]),
    timing: Timing,
    motion: Motion,
    dims: &[BodyDims],
) -> Motion {
    let (prop, pancake) = (settings.prop, settings.pancake_rings);
    let Some(mut plan) = crate::motion::ForearmLifts::new(choreography, motion.jugglers()) else {
        return motion;
    };
    if dims.is_empty() {
        return motion;
    }
    let mut motion = motion;
    while plan.round(choreography, |j, t| {
        let placement = motion.placement_at(j, t);
        let hands = Hand::BOTH.map(|h| motion.hand_at(HandRef::new(j, h), t).position);
        let d = &dims[j.min(dims.len() - 1)];
        let pose = juggler_pose_moving(&placement, d, hands, BodyMotion::STILL);
        let local = |v: Vec3| placement.to_local(v);
        let placements: Vec<_> = (0..motion.jugglers())
            .map(|k| motion.placement_at(k, t))
            .collect();
        let mut held: [Vec<(Vec3, Vec3, f32, f32)>; 2] = [Vec::new(), Vec::new()];
        for (i, p) in motion.state_at(t).props.iter().enumerate() {
            let Some(by) = p.held_by.filter(|by| by.juggler == j) else {
                continue;
            };
            let kind = kinds.get(i).copied().unwrap_or(prop);
            let phase = PropPhase::Held {
                by,
                progress: p.dwell_progress as f32,
                passes: (false, false),
            };
            let style = ThrowStyle {
                spins: None,
                pancake,
            };
            let mut axis = prop_axis_styled(kind, phase, &placements, style);
            if kind == PropKind::Club {
                axis = held_club_parted(axis, by, hands, &placement);
            }
            let centre = p.position + grip_offset(kind, pancake, axis, placements.get(j));
            let (c, n) = (local(centre), local(centre + axis) - local(centre));
            // A ring's chords stand out of its rim by up to 8.6 mm (`held_capsules`).
            let slack = if kind == PropKind::Ring {
                RING_CHORD_OUT
            } else {
                0.0
            };
            held[by.hand.index()].extend(
                held_capsules(kind, c, n)
                    .into_iter()
                    .map(|(a, b, r)| (a, b, r, slack)),
            );
        }
        crate::motion::Forearms {
            elbows: pose.arms.map(|a| local(a.elbow)),
            hands: pose.arms.map(|a| local(a.hand)),
            width: d.forearm_width,
            held,
        }
    }) {
        motion = Motion::from_events(choreography, timing);
    }
    motion
}

/// How far a ring's chords (`held_capsules`) stand out of its rim at their ends, metres: a
/// chord lies up to R(1 − cos 22.5°) inside the rim, and its capsule is that much wider.
const RING_CHORD_OUT: f32 = 0.0086;

/// A held prop of `kind` with centre `c` and axis `n` (`PropPose::axis`) as capsules (segment
/// ends, radius): a ball one sphere, a club one capsule from knob to tip, a ring eight chords
/// of its rim.
fn held_capsules(kind: PropKind, c: Vec3, n: Vec3) -> Vec<(Vec3, Vec3, f32)> {
    /// A club's widest radius, and a ring's mid-rim radius and half width, metres.
    const CLUB_RADIUS: f32 = 0.0418;
    const RING_MID_RADIUS: f32 = 0.25 * (RING_DIAMETER + RING_INNER_DIAMETER);
    const RING_HALF_WIDTH: f32 = 0.25 * (RING_DIAMETER - RING_INNER_DIAMETER);
    match kind {
        PropKind::Ball => vec![(c, c, 0.5 * prop_size(kind))],
        PropKind::Club => {
            let knob = c - n * CLUB_PIVOT_FROM_KNOB;
            vec![(knob, knob + n * CLUB_LENGTH, CLUB_RADIUS)]
        }
        PropKind::Ring => {
            // The cosines and sines of the chords' ends, worked out once (the scene measures
            // rings against arms and props hundreds of thousands of times in a large pattern).
            static TURNS: std::sync::LazyLock<[(f32, f32); 9]> = std::sync::LazyLock::new(|| {
                std::array::from_fn(|k| {
                    let a = std::f32::consts::TAU * k as f32 / 8.0;
                    (a.cos(), a.sin())
                })
            });
            let e1 = n.cross(Vec3::Y).normalize_or(Vec3::X);
            let e2 = n.cross(e1).normalize_or(Vec3::Y);
            let at: [Vec3; 9] =
                std::array::from_fn(|k| c + RING_MID_RADIUS * (e1 * TURNS[k].0 + e2 * TURNS[k].1));
            // A chord lies up to R(1 − cos 22.5°) = 8.6 mm inside the rim.
            (0..8)
                .map(|k| (at[k], at[k + 1], RING_HALF_WIDTH + RING_CHORD_OUT))
                .collect()
        }
    }
}

/// Moves the choreography's flights into lanes clear of each other
/// (`Choreography::separate_flights`), measuring each flying prop of `kind` as it is drawn:
/// turned and centred on its grip as `prop_pose` does.
fn separate_flights(
    choreography: &mut crate::motion::Choreography,
    kind: PropKind,
    settings: &crate::settings::Settings,
    timing: Timing,
    dims: &[BodyDims],
) {
    let pancake = settings.pancake_rings;
    let shape = |toss: &crate::motion::Toss,
                 progress: f64,
                 (from, to): (Placement, Placement)|
     -> (glam::DVec3, glam::DVec3) {
        let value = toss.value.unwrap_or_else(|| {
            let beats = (toss.catch - toss.release) * timing.bps + timing.dwell;
            if beats.is_finite() {
                beats.round().clamp(1.0, 1e6) as u32
            } else {
                1
            }
        });
        let flight = crate::motion::Flight {
            from: toss.from,
            to: toss.to,
            value,
            release: toss.release,
            catch: toss.catch,
            spins: toss.spins,
            throw: toss.throw,
        };
        let spins = match flight.spins {
            Some(n) if n.is_finite() && n >= 0.0 => Some(n.round().min(1e3) as u32),
            _ => settings
                .spins
                .iter()
                .find(|s| s.0 == flight.value)
                .map(|s| s.1),
        };
        let style = ThrowStyle { spins, pancake };
        let progress = progress.clamp(0.0, 1.0) as f32;
        let ends = FlightEnds { from, to };
        let axis = prop_axis_styled(
            kind,
            PropPhase::Flying {
                flight,
                progress,
                ends,
            },
            &[],
            style,
        );
        let (at_release, at_catch) = flight_end_axes(kind, flight, ends, style);
        let release = grip_offset(kind, pancake, at_release, Some(&from));
        let catch = grip_offset(kind, pancake, at_catch, Some(&to));
        (release.lerp(catch, progress).as_dvec3(), axis.as_dvec3())
    };
    choreography.part_sync_crossings(kind, timing.gravity, &shape);
    // The hands and arms as they are before the lanes (a lane moves a prop, not its hand).
    let bodies = |ch: &crate::motion::Choreography| -> Box<dyn crate::motion::Reach + '_> {
        Box::new(BeforeLanes {
            motion: Motion::from_events(ch, timing),
            dims,
        })
    };
    choreography.separate_flights(kind, pancake, timing.gravity, &shape, &bodies);
}

/// The jugglers as the lane solver measures them: hands on their paths before the lanes,
/// arms as the body poses them there (no knee dip, no elbow turned aside yet).
struct BeforeLanes<'a> {
    motion: Motion,
    dims: &'a [BodyDims],
}

impl crate::motion::Reach for BeforeLanes<'_> {
    fn hand(&self, slot: usize, t: f64) -> glam::DVec3 {
        self.motion
            .hand_at(HandRef::from_slot(slot), t)
            .position
            .as_dvec3()
    }

    fn forearms(
        &self,
        juggler: usize,
        t: f64,
        near: glam::DVec3,
        within: f64,
    ) -> Option<[(glam::DVec3, glam::DVec3, f64); 2]> {
        let dims = self.dims.get(juggler).copied().unwrap_or_default();
        let placement = self.motion.placement_at(juggler, t);
        // Arms reach from the shoulders (which shrug and dip a little: 10 cm to spare).
        let reach = f64::from(dims.upper_arm + dims.forearm + dims.upper_arm_width) + 0.1 + within;
        let far =
            |hand: Hand| near.distance(placement.to_world(dims.shoulder(hand)).as_dvec3()) > reach;
        if far(Hand::Left) && far(Hand::Right) {
            return None;
        }
        Some(self.forearms_moved(juggler, t, [glam::DVec3::ZERO; 2]))
    }

    fn forearms_moved(
        &self,
        juggler: usize,
        t: f64,
        moved: [glam::DVec3; 2],
    ) -> [(glam::DVec3, glam::DVec3, f64); 2] {
        let dims = self.dims.get(juggler).copied().unwrap_or_default();
        let placement = self.motion.placement_at(juggler, t);
        let hands = Hand::BOTH.map(|hand| {
            self.motion.hand_at(HandRef::new(juggler, hand), t).position
                + moved[hand.index()].as_vec3()
        });
        let pose = crate::body::juggler::juggler_pose(&placement, &dims, hands);
        let radius = 0.5 * f64::from(dims.forearm_width);
        pose.arms
            .map(|arm| (arm.elbow.as_dvec3(), arm.hand.as_dvec3(), radius))
    }
}

impl Scene {
    /// Parse, validate and lay out `spec`; fails on a bad pattern, timing, body or placement.
    pub fn new(spec: &PatternSpec) -> Result<Scene, SceneError> {
        match &spec.source {
            PatternSource::Siteswap(notation) => Scene::from_siteswap(spec, notation),
            PatternSource::Events(events) => Scene::from_events(spec, &events.pattern),
        }
    }

    /// A siteswap's scene: its schedule, timing, layout and motion by Juggling Lab's rules.
    fn from_siteswap(spec: &PatternSpec, notation: &str) -> Result<Scene, SceneError> {
        let settings = &spec.settings;
        let schedule = schedule::from_notation_shared(notation, settings.shared_by)?;
        let timing = Timing::new(&schedule, settings)?;
        let placements = settings.placements();
        if let Some(juggler) = placements
            .iter()
            .position(|p| !(p.x.is_finite() && p.z.is_finite() && p.facing_deg.is_finite()))
        {
            return Err(SceneError::Placement { juggler });
        }
        let mut layout = Layout::from_specs(schedule.jugglers, &placements);
        let dims = (0..schedule.jugglers)
            .map(|j| BodyDims::from_spec(Some(&settings.bodies.of(j))))
            .collect::<Result<Vec<_>, _>>()?;
        // The settings' ranges were checked where they were built; their cycles meet the
        // pattern here.
        settings.check_cycle(&schedule)?;
        // The event layer with the hands placed for the prop (clubs further in front), then
        // the motion (as `Motion::new` builds it for balls).
        let moving = settings.moving();
        let kinds: Vec<PropKind> = (0..schedule.props).map(|i| settings.kind_of(i)).collect();
        let hands_for = hands_kind(settings.prop, &kinds);
        let mut choreography = if !moving && settings.dwell.per_beat().is_empty() {
            crate::motion::from_schedule_per_juggler(
                &schedule,
                timing,
                &layout,
                &settings.hands,
                hands_for,
            )
        } else {
            // Jugglers who move (`body=` with several positions); hand siteswaps with their own
            // dwell per beat.
            let moves: Vec<_> = if moving {
                settings.positions.iter().map(beat_path).collect()
            } else {
                Vec::new()
            };
            crate::motion::from_schedule_moving(
                &schedule,
                timing,
                &layout,
                &settings.hands,
                &moves,
                settings.dwell.per_beat(),
                hands_for,
            )
        };
        crate::motion::place_for_prop(&mut choreography, hands_for);
        // Juggling Lab's `bouncefrac`: every bounce keeps that share of its energy.
        if let Some(energy) = settings.bounce_energy {
            for toss in &mut choreography.tosses {
                if matches!(toss.kind, crate::motion::TossKind::Bounce(_)) {
                    toss.bounce_energy = Some(energy);
                }
            }
        }
        let motion = settle_motion(
            &mut choreography,
            settings,
            (&kinds, hands_for),
            timing,
            &dims,
        );
        if moving {
            // The layout of moving jugglers is where they stand at time 0.
            for (j, p) in layout.jugglers.iter_mut().enumerate() {
                *p = motion.placement_at(j, 0.0);
            }
        }
        let colors = motion
            .state_at(0.0)
            .props
            .iter()
            .enumerate()
            .map(|(i, p)| prop_color(&settings.colors, settings.color_by_orbit, i, p.orbit))
            .collect();
        let bodies = plan_bodies(&motion, &layout, &dims);
        let held_only = schedule
            .orbits
            .iter()
            .map(|o| {
                o.throws.iter().all(|&i| {
                    schedule
                        .throws
                        .get(i)
                        .is_some_and(|t| t.kind == ThrowKind::Hold)
                })
            })
            .collect();
        let mut scene = Scene {
            held_only,
            bodies,
            flights: motion.flight_times(),
            spec: spec.clone(),
            period_beats: (schedule.pattern_period / schedule.subdivision.max(1)).max(1),
            schedule: Some(schedule),
            timing,
            layout,
            motion,
            dims,
            colors,
            kinds,
            held_leans: Vec::new(),
        };
        scene.plan_turns();
        Ok(scene)
    }

    /// A pattern given by its events (read where its file was read): the events give the
    /// timing, places and jugglers; the settings give prop kind, gravity and bodies. It has
    /// no schedule; its period is one loop of the events, as many beats as the busiest
    /// juggler throws in it (so the period lasts one loop at `timing().bps`).
    fn from_events(spec: &PatternSpec, events: &EventPattern) -> Result<Scene, SceneError> {
        let settings = &spec.settings;
        let timing = Timing {
            bps: events.bps(),
            dwell: settings.dwell.value(),
            gravity: settings.gravity,
        };
        // A file that mixes kinds draws each prop as given, unless every prop's kind is
        // chosen (`Settings::set_every_prop`: `--prop`, the page's buttons); else every prop
        // is the pattern's `prop`.
        let file_kind = |path: usize| events.path_props.get(path).map(|p| p.kind);
        let mixed = events
            .path_props
            .windows(2)
            .any(|pair| pair[0].kind != pair[1].kind);
        let kinds: Vec<PropKind> = events
            .path_of_prop
            .iter()
            .enumerate()
            .map(|(i, &path)| {
                if !settings.prop_kinds.is_empty() {
                    return settings.kind_of(i);
                }
                mixed
                    .then(|| file_kind(path))
                    .flatten()
                    .unwrap_or(settings.prop)
            })
            .collect();
        let mut choreography = events.choreography.clone();
        let hands_for = hands_kind(settings.prop, &kinds);
        let jugglers = events.jugglers;
        let dims = (0..jugglers)
            .map(|j| BodyDims::from_spec(Some(&settings.bodies.of(j))))
            .collect::<Result<Vec<_>, _>>()?;
        // Rings held together stack as in siteswap patterns (so tojml's rings read back).
        let motion = settle_motion(
            &mut choreography,
            settings,
            (&kinds, hands_for),
            timing,
            &dims,
        );
        let layout = Layout {
            jugglers: (0..jugglers).map(|j| motion.placement_at(j, 0.0)).collect(),
        };
        let colors = events
            .path_of_prop
            .iter()
            .enumerate()
            .map(|(i, &path)| match events.path_props.get(path) {
                Some(PathProp {
                    color: Some(color), ..
                }) => *color,
                _ => prop_color(&settings.colors, settings.color_by_orbit, i, path),
            })
            .collect();
        let held_only = events
            .choreography
            .paths
            .iter()
            .map(|p| {
                p.segments
                    .iter()
                    .all(|s| matches!(s, crate::motion::PathSegment::Held { .. }))
            })
            .collect();
        let bodies = plan_bodies(&motion, &layout, &dims);
        let mut scene = Scene {
            held_only,
            bodies,
            flights: motion.flight_times(),
            spec: spec.clone(),
            schedule: None,
            period_beats: events.throws_per_loop,
            timing,
            layout,
            motion,
            dims,
            colors,
            kinds,
            held_leans: Vec::new(),
        };
        scene.plan_turns();
        Ok(scene)
    }

    /// The whole scene at time `t` seconds (any real number; the pattern loops). `t` is
    /// reduced modulo the loop first (exactly: `rem_euclid` of two doubles is exact), so a
    /// time like 1e17 s is as precise as its remainder; `Pose::time` is `t` as given.
    pub fn pose_at(&self, t: f64) -> Pose {
        let t = if t.is_finite() { t } else { 0.0 };
        let looped = self.loop_time(t);
        let mut pose = self.pose_in_loop(looped);
        pose.time = t;
        pose
    }

    /// `t` reduced into `[0, loop_duration)`.
    pub fn loop_time(&self, t: f64) -> f64 {
        let duration = self.loop_duration();
        if duration.is_finite() && duration > 0.0 {
            // rem_euclid can round up to `duration` itself for tiny negative `t`.
            let r = t.rem_euclid(duration);
            if r >= duration {
                0.0
            } else {
                r
            }
        } else {
            t
        }
    }

    fn pose_in_loop(&self, t: f64) -> Pose {
        self.pose_of(t, &self.motion.state_at(t))
    }

    /// The scene at `t` (in the loop) whose motion is in `state` there.
    fn pose_of(&self, t: f64, state: &crate::motion::MotionState) -> Pose {
        let placements = self.placements_at(t);
        let jugglers = state
            .hands
            .iter()
            .zip(&placements)
            .zip(&self.dims)
            .zip(&self.bodies)
            .map(|(((hands, placement), dims), plan)| {
                let body = self.body_motion(plan, t);
                juggler_pose_moving(placement, dims, hands.map(|h| h.position), body)
            })
            .collect();
        let props = (0..state.props.len())
            .map(|i| self.prop_pose(i, state, &placements))
            .collect();
        Pose {
            time: state.time,
            jugglers,
            props,
        }
    }

    /// Where every juggler stands at `t` (the layout's places; jugglers of event patterns
    /// may move).
    fn placements_at(&self, t: f64) -> Vec<crate::layout::Placement> {
        (0..self.layout.jugglers.len())
            .map(|j| self.motion.placement_at(j, t))
            .collect()
    }

    /// Plans where hands step off their paths so props do not pass through their arms
    /// (`catch_dips`), then the elbows' turns over the loop: forward where the body puts them
    /// far behind the shoulders, then aside where a prop would still pass through an arm (which
    /// keeps them as far forward); then the held clubs' and rings' leans, measured on those
    /// arms.
    fn plan_turns(&mut self) {
        catch_dips::plan(self);
        elbow_forward::plan(self);
        elbow_room::plan(self);
        held_leans::plan(self);
    }

    /// The time over which the elbows are planned: the hand period where the arms and the
    /// props that pass them repeat with it (every juggler stands still or repeats its moves
    /// within it and, `with_props`, all props are alike, so from one hand period to the next
    /// props only change places), else the loop. Three jugglers passing repeat 15 times a
    /// loop: their elbows are planned over one hand period.
    fn elbow_period(&self, with_props: bool) -> f64 {
        let (hand, whole) = (self.motion.hand_period(), self.loop_duration());
        let repeats = |long: f64, short: f64| {
            let r = long / short;
            r.is_finite() && r > 0.5 && (r - r.round()).abs() < 1e-6
        };
        let steady = (0..self.motion.jugglers()).all(|j| {
            let path = self.motion.juggler_path(j);
            path.keys.len() <= 1 || repeats(hand, path.period)
        });
        let alike = !with_props || (1..self.props()).all(|i| self.kind(i) == self.kind(0));
        if repeats(whole, hand) && steady && alike {
            hand
        } else {
            whole
        }
    }

    /// How the body of the juggler planned by `plan` moves at `t` (in the loop): knee dip,
    /// gaze and the elbows' turns.
    fn body_motion(&self, plan: &BodyPlan, t: f64) -> BodyMotion {
        BodyMotion {
            dip: plan.dip_at(t, self.motion.hand_period()),
            gaze: plan.gaze,
            turn: [0, 1].map(|h| elbow_room::turn_at(&plan.turns[h], t, plan.turn_period)),
            forward: [0, 1].map(|h| plan.forward[h].at(t)),
        }
    }

    /// The kind of prop `index` (the pattern's prop when not given per prop).
    fn kind(&self, index: usize) -> PropKind {
        self.kinds
            .get(index)
            .copied()
            .unwrap_or(self.spec.settings.prop)
    }

    /// Prop `index` of the motion in `motion`.
    fn prop_pose(
        &self,
        index: usize,
        motion: &crate::motion::MotionState,
        placements: &[crate::layout::Placement],
    ) -> PropPose {
        let (t, state) = (motion.time, &motion.props[index]);
        let kind = self.kind(index);
        let phase = match (state.flight, state.held_by) {
            // The thrower as it stood at the release, the catcher as it will stand at the
            // catch (a juggler who turns under a throw does not turn its flight).
            (Some(flight), _) => PropPhase::Flying {
                flight,
                progress: flight.progress(t) as f32,
                ends: FlightEnds {
                    from: self
                        .motion
                        .placement_at(flight.from.juggler, flight.release),
                    to: self.motion.placement_at(flight.to.juggler, flight.catch),
                },
            },
            (None, Some(by)) => {
                // A prop that is never thrown rests halfway between catch and throw attitude.
                let still = self.held_only.get(state.orbit).copied().unwrap_or(false);
                let progress = if still {
                    0.5
                } else {
                    state.dwell_progress as f32
                };
                let pass = |other: Option<HandRef>| {
                    !still && other.is_some_and(|h| h.juggler != by.juggler)
                };
                PropPhase::Held {
                    by,
                    progress,
                    passes: (pass(state.dwell_from), pass(state.dwell_to)),
                }
            }
            // Neither held nor flying cannot happen for a valid motion; treat as in the hand.
            (None, None) => PropPhase::Held {
                by: crate::types::HandRef::new(0, crate::types::Hand::Left),
                progress: 0.0,
                passes: (false, false),
            },
        };
        let style = ThrowStyle {
            spins: match phase {
                PropPhase::Flying { flight, .. } => self.spins_of(&flight),
                PropPhase::Held { .. } => None,
            },
            pancake: self.spec.settings.pancake_rings,
        };
        let mut axis = prop_axis_styled(kind, phase, placements, style);
        if let (PropKind::Club, PropPhase::Held { by, .. }) = (kind, phase) {
            if let (Some(hands), Some(place)) =
                (motion.hands.get(by.juggler), placements.get(by.juggler))
            {
                axis = held_club_parted(axis, by, hands.map(|h| h.position), place);
            }
        }
        // The motion moves the grip (the hand's point): release and catch are planned for it.
        // The centre of mass is the grip plus the grip-to-centre offset. In flight the offset
        // runs linearly in time from its value at the release to its value at the catch; a
        // linear term added to the grip's parabola leaves a parabola under the same gravity, so
        // the centre of mass flies ballistically and meets the hand exactly at both ends.
        let grip_offset =
            |axis: Vec3, holder: Option<&Placement>| grip_offset(kind, style.pancake, axis, holder);
        let offset = match phase {
            PropPhase::Held { by, .. } => {
                let offset = grip_offset(axis, placements.get(by.juggler));
                // Leaned out of the way of what passes it (`held_leans`): turned about the grip.
                let lean = self.held_leans.get(index).filter(|l| !l.is_empty());
                match (lean, placements.get(by.juggler)) {
                    (Some(leans), Some(place)) => {
                        let turn = held_leans::lean_at(leans, t, self.loop_duration());
                        axis = held_leans::turned(axis, turn, place).normalize_or(axis);
                        held_leans::turned(offset, turn, place)
                    }
                    _ => offset,
                }
            }
            PropPhase::Flying {
                flight,
                progress,
                ends,
            } => {
                let (at_release, at_catch) = flight_end_axes(kind, flight, ends, style);
                let release = grip_offset(at_release, Some(&ends.from));
                let catch = grip_offset(at_catch, Some(&ends.to));
                release.lerp(catch, progress)
            }
        };
        PropPose {
            kind,
            position: state.position + offset,
            axis,
            held_by: state.held_by,
            orbit: state.orbit,
            color: self
                .colors
                .get(index)
                .copied()
                .unwrap_or(crate::types::PALETTE[0]),
            size: prop_size(kind),
        }
    }

    /// Spins of the throw that made `flight`: its own (`~N`, carried in the toss record of
    /// the event layer), else the pattern's per-value table, else `None` (automatic).
    fn spins_of(&self, flight: &crate::motion::Flight) -> Option<u32> {
        match flight.spins {
            Some(n) if n.is_finite() && n >= 0.0 => Some(n.round().min(1e3) as u32),
            _ => self
                .spec
                .settings
                .spins
                .iter()
                .find(|s| s.0 == flight.value)
                .map(|s| s.1),
        }
    }

    /// Seconds after which the whole scene repeats exactly.
    pub fn loop_duration(&self) -> f64 {
        self.motion.loop_duration()
    }

    /// The validated throw schedule of a siteswap; `None` for a pattern given by its events
    /// (see [`Scene::jugglers`], [`Scene::props`] and [`Scene::period_beats`] for what every
    /// pattern has).
    pub fn schedule(&self) -> Option<&Schedule> {
        self.schedule.as_ref()
    }

    /// Beats in one period of the pattern as written, each juggler's own beats: the
    /// schedule's `pattern_period` (over its fine beats per beat, so `975` shared by two
    /// jugglers has 3, the period of each passer's `4.5p 2.5p 3.5p`); for a pattern given by
    /// its events, one loop of them, counted in the throws its busiest juggler makes in it
    /// (one loop lasts that many beats at [`Scene::beats_per_second`]).
    pub fn period_beats(&self) -> u32 {
        self.period_beats
    }

    /// Fine beats of the schedule (and of [`Scene::timing`]) per beat of a juggler: more
    /// than 1 for Prechac notation and shared siteswaps (`Schedule::subdivision`), else 1.
    pub fn subdivision(&self) -> u32 {
        self.schedule.as_ref().map_or(1, |s| s.subdivision.max(1))
    }

    /// Each juggler's beats per second (what `bps=` sets; [`Scene::timing`] counts fine
    /// beats, [`Scene::subdivision`] of them per beat).
    pub fn beats_per_second(&self) -> f64 {
        self.timing.bps / f64::from(self.subdivision())
    }

    /// Each juggler's dwell in its own beats.
    pub fn dwell_beats(&self) -> f64 {
        self.timing.dwell / f64::from(self.subdivision())
    }

    /// Number of jugglers (of the schedule, or of the events).
    pub fn jugglers(&self) -> usize {
        self.motion.jugglers()
    }

    /// Number of props in the pattern.
    pub fn props(&self) -> usize {
        self.motion.prop_count()
    }

    /// Beats per second, dwell and gravity in use, in the schedule's beats (fine beats for
    /// Prechac notation and shared siteswaps: [`Scene::beats_per_second`] and
    /// [`Scene::dwell_beats`] give each juggler's).
    pub fn timing(&self) -> Timing {
        self.timing
    }

    /// Where the jugglers stand.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The spec this scene was built from.
    pub fn spec(&self) -> &PatternSpec {
        &self.spec
    }

    /// The body proportions of juggler `juggler` (0-based; the last juggler's beyond the end).
    pub fn dims(&self, juggler: usize) -> &BodyDims {
        &self.dims[juggler.min(self.dims.len() - 1)]
    }

    /// The underlying motion model (hands and props without bodies).
    pub fn motion(&self) -> &Motion {
        &self.motion
    }

    /// Every throw, floor contact and catch with `from <= time < to` (seconds; the pattern
    /// repeats, so any span), sorted by time, catches before bounces before throws at equal
    /// times. Each toss repeats every hand period: its times are the motion's release,
    /// contacts and catch plus whole hand periods, so a catch here is exactly where the prop
    /// comes to be held. At most [`MAX_EVENTS`].
    pub fn events_between(&self, from: f64, to: f64) -> Vec<PatternEvent> {
        let period = self.motion.hand_period();
        let mut events = Vec::new();
        if !(from.is_finite() && to.is_finite() && from < to && period > 0.0) {
            return events;
        }
        'tosses: for f in &self.flights {
            let moments = std::iter::once((f.release, EventKind::Throw, f.from))
                .chain(f.bounces.iter().map(|&b| (b, EventKind::Bounce, f.from)))
                .chain(std::iter::once((f.catch, EventKind::Catch, f.to)));
            for (at, kind, hand) in moments {
                let first = ((from - at) / period).ceil();
                if !first.is_finite() {
                    continue;
                }
                let mut n = first;
                loop {
                    let time = at + n * period;
                    if time >= to {
                        break;
                    }
                    if time >= from {
                        if events.len() >= MAX_EVENTS {
                            break 'tosses;
                        }
                        events.push(PatternEvent {
                            time,
                            kind,
                            hand: Some(hand),
                            throw: f.throw,
                            prop: self.spec.settings.prop,
                        });
                    }
                    n += 1.0;
                }
            }
        }
        events.sort_by(|a, b| a.time.total_cmp(&b.time).then(a.kind.cmp(&b.kind)));
        events
    }

    /// The beats with `from <= time < to`: beat `k` at `k / bps` seconds (the throws of beat
    /// `k` are made then; each juggler's own beats, [`Scene::beats_per_second`]), accented
    /// every written period. At most [`MAX_EVENTS`].
    pub fn beats_between(&self, from: f64, to: f64) -> Vec<PatternEvent> {
        let bps = self.beats_per_second();
        let period = u64::from(self.period_beats.max(1));
        let mut beats = Vec::new();
        if !(from.is_finite() && to.is_finite() && from < to && bps > 0.0) {
            return beats;
        }
        let mut k = (from * bps).ceil();
        while k.is_finite() && beats.len() < MAX_EVENTS {
            let time = k / bps;
            if time >= to {
                break;
            }
            if time >= from {
                beats.push(PatternEvent {
                    time,
                    kind: EventKind::Beat {
                        accent: (k.rem_euclid(period as f64)) == 0.0,
                    },
                    hand: None,
                    throw: None,
                    prop: self.spec.settings.prop,
                });
            }
            k += 1.0;
        }
        beats
    }

    /// The text of throw `throw` (an index into the schedule's throws) as the notation writes
    /// it: `5`, `3p`, `4x`.
    pub fn throw_text(&self, throw: usize) -> Option<String> {
        let schedule = self.schedule.as_ref()?;
        let notation = self.spec.source.siteswap()?;
        // On fine beats each juggler's own value (`4.5pB`), as `check` and the diagrams say.
        schedule
            .throws
            .get(throw)
            .map(|t| schedule.own_text(t).unwrap_or_else(|| t.text(notation)))
    }

    /// The labels to show at time `t`: each prop in the first half of its flight, with the
    /// text of the throw that sent it (`(prop index, text)`, props in order). Props of a JML
    /// event pattern are labelled with their value.
    pub fn labels_at(&self, t: f64) -> Vec<(usize, String)> {
        let looped = self.loop_time(if t.is_finite() { t } else { 0.0 });
        self.motion
            .state_at(looped)
            .props
            .iter()
            .enumerate()
            .filter_map(|(i, p)| {
                let flight = p.flight?;
                if flight.progress(looped) >= LABEL_FLIGHT_FRACTION {
                    return None;
                }
                let text = match flight.throw.and_then(|k| self.throw_text(k)) {
                    Some(text) => text,
                    None => schedule::value_text(flight.value),
                };
                Some((i, text))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::{still, BodySpec, Dwell, PlacementSpec};
    use crate::types::{Hand, HandRef};

    fn spec(notation: &str) -> PatternSpec {
        PatternSpec::from_notation(notation)
    }

    #[test]
    fn passers_count_their_own_beats_in_labels_tempo_and_period() {
        let scene = Scene::new(&PatternSpec::parse("975;jugglers=2;bps=3").unwrap()).unwrap();
        assert_eq!((scene.subdivision(), scene.period_beats()), (2, 3));
        assert!((scene.beats_per_second() - 3.0).abs() < 1e-12);
        assert!((scene.dwell_beats() - 1.3).abs() < 1e-9);
        let mut labels: Vec<String> = (0..200)
            .flat_map(|i| scene.labels_at(scene.loop_duration() * f64::from(i) / 200.0))
            .map(|(_, text)| text)
            .collect();
        labels.sort();
        labels.dedup();
        assert_eq!(
            labels,
            ["2.5pA", "2.5pB", "3.5pA", "3.5pB", "4.5pA", "4.5pB"]
        );
        // The metronome ticks each juggler's beats, accented every 3.
        let beats = scene.beats_between(0.0, 2.0 - 1e-9);
        assert_eq!(beats.len(), 6);
        let accents: Vec<bool> = beats
            .iter()
            .map(|b| matches!(b.kind, EventKind::Beat { accent: true }))
            .collect();
        assert_eq!(accents, [true, false, false, true, false, false]);
    }

    #[test]
    fn every_catch_event_is_where_a_flying_prop_comes_to_be_held() {
        for notation in ["531", "(4,2x)*", "<3p|3p>", "[33]33", "5B3 1", "423"] {
            let scene = Scene::new(&spec(notation)).unwrap();
            let loop_s = scene.loop_duration();
            let events = scene.events_between(0.0, loop_s);
            let count = |k: EventKind| events.iter().filter(|e| e.kind == k).count();
            assert!(count(EventKind::Catch) > 0, "{notation}");
            assert_eq!(
                count(EventKind::Catch),
                count(EventKind::Throw),
                "{notation}"
            );
            assert!(events.windows(2).all(|w| w[0].time <= w[1].time));
            assert!(events.iter().all(|e| (0.0..loop_s).contains(&e.time)));
            for e in events.iter().filter(|e| e.kind == EventKind::Catch) {
                let (before, after) = (scene.pose_at(e.time - 1e-7), scene.pose_at(e.time));
                let caught = before
                    .props
                    .iter()
                    .zip(&after.props)
                    .any(|(b, a)| b.held_by.is_none() && a.held_by == e.hand);
                assert!(caught, "{notation}: catch at {}", e.time);
            }
            for e in events.iter().filter(|e| e.kind == EventKind::Throw) {
                let (before, after) = (scene.pose_at(e.time - 1e-7), scene.pose_at(e.time + 1e-7));
                let thrown = before
                    .props
                    .iter()
                    .zip(&after.props)
                    .any(|(b, a)| b.held_by == e.hand && a.held_by.is_none());
                assert!(thrown, "{notation}: throw at {}", e.time);
            }
        }
        // Bounces of 5B3 1: one floor contact per 5B, low down.
        let scene = Scene::new(&spec("5B3 1")).unwrap();
        let bounces = scene.events_between(0.0, scene.loop_duration());
        let bounces: Vec<_> = bounces
            .iter()
            .filter(|e| e.kind == EventKind::Bounce)
            .collect();
        assert!(!bounces.is_empty());
        for b in bounces {
            let low = scene
                .pose_at(b.time)
                .props
                .iter()
                .map(|p| p.position.y)
                .fold(f32::MAX, f32::min);
            assert!(low < 0.2, "bounce at {}: lowest prop {low}", b.time);
        }
    }

    #[test]
    fn labels_name_the_throw_as_written_while_the_prop_rises() {
        let scene = Scene::new(&spec("<3p|3p>")).unwrap();
        let throw = scene
            .events_between(0.0, 2.0)
            .into_iter()
            .find(|e| e.kind == EventKind::Throw)
            .unwrap();
        let labels = scene.labels_at(throw.time + 0.01);
        assert!(labels.iter().any(|(_, text)| text == "3p"), "{labels:?}");
        let scene = Scene::new(&spec("(4,2x)*")).unwrap();
        let texts: std::collections::BTreeSet<String> = (0..40)
            .flat_map(|i| scene.labels_at(i as f64 * 0.05))
            .map(|(_, t)| t)
            .collect();
        assert_eq!(
            texts.into_iter().collect::<Vec<_>>(),
            vec!["2x".to_string(), "4".to_string()]
        );
        // A prop past the middle of its flight has no label.
        let scene = Scene::new(&spec("5")).unwrap();
        for i in 0..50 {
            let t = i as f64 * 0.037;
            let state = scene.motion().state_at(t);
            let labelled: Vec<usize> = scene.labels_at(t).into_iter().map(|(p, _)| p).collect();
            for (p, s) in state.props.iter().enumerate() {
                let rising = s.flight.is_some_and(|f| f.progress(t) < 0.5);
                assert_eq!(labelled.contains(&p), rising, "t {t} prop {p}");
            }
        }
    }

    fn with_prop(notation: &str, prop: PropKind) -> Scene {
        let mut s = spec(notation);
        s.settings.prop = prop;
        Scene::new(&s).unwrap()
    }

    /// Elbows are planned over one hand period where the scene repeats with it: three jugglers
    /// passing repeat 15 times a loop, and their arms (turns included) are the same one hand
    /// period later. With balls and clubs mixed, props change kind from one hand period to
    /// the next: the turns aside are planned over the loop (the forward turns, which see no
    /// props, still over a hand period).
    #[test]
    fn elbows_are_planned_over_a_hand_period_where_the_scene_repeats() {
        let scene = with_prop("<5p|5p|5p>", PropKind::Club);
        let hand = scene.motion().hand_period();
        assert!((scene.loop_duration() / hand - 15.0).abs() < 1e-9);
        assert_eq!(scene.elbow_period(true), hand);
        for k in 0..40 {
            let t = 0.173 * k as f64;
            let (a, b) = (scene.pose_at(t), scene.pose_at(t + hand));
            for (ja, jb) in a.jugglers.iter().zip(&b.jugglers) {
                for (x, y) in ja.arms.iter().zip(&jb.arms) {
                    assert!(x.elbow.distance(y.elbow) < 1e-4, "t={t}: {x:?} {y:?}");
                }
            }
        }
        let mut mixed = spec("<5p|5p|5p>");
        mixed.settings.prop_kinds = vec![PropKind::Club, PropKind::Ball];
        let mixed = Scene::new(&mixed).unwrap();
        assert_eq!(mixed.elbow_period(true), mixed.loop_duration());
        assert_eq!(mixed.elbow_period(false), mixed.motion().hand_period());
        assert!(mixed.loop_duration() > 2.0 * mixed.motion().hand_period());
    }

    #[test]
    fn bad_specs_name_the_stage_that_rejects_them() {
        assert!(matches!(
            Scene::new(&spec("3(")),
            Err(SceneError::Pattern(PatternError::Syntax(_)))
        ));
        assert!(matches!(
            Scene::new(&spec("532")),
            Err(SceneError::Pattern(PatternError::Invalid(_)))
        ));
        let mut s = spec("3");
        s.settings.dwell = Dwell::Uniform(2.5);
        assert!(matches!(Scene::new(&s), Err(SceneError::Timing(_))));
        let mut s = spec("3");
        s.settings.bodies.shared = BodySpec {
            forearm: Some(-1.0),
            ..BodySpec::default()
        };
        assert!(matches!(Scene::new(&s), Err(SceneError::Body(_))));
        let mut s = spec("<3p|3p>");
        s.settings.positions = vec![
            still(PlacementSpec {
                x: 0.0,
                z: 0.0,
                facing_deg: 0.0,
            }),
            still(PlacementSpec {
                x: f32::NAN,
                z: 2.0,
                facing_deg: 180.0,
            }),
        ];
        assert!(matches!(
            Scene::new(&s),
            Err(SceneError::Placement { juggler: 1 })
        ));
    }

    #[test]
    fn each_juggler_can_have_its_own_body() {
        let mut s = spec("<3p|3p>");
        s.settings.bodies.shared = BodySpec {
            upper_arm: Some(0.35),
            ..BodySpec::default()
        };
        s.settings.bodies.jugglers = vec![
            BodySpec::default(),
            BodySpec {
                forearm: Some(0.38),
                shoulder_height: Some(1.30),
                ..BodySpec::default()
            },
        ];
        let scene = Scene::new(&s).unwrap();
        // Juggler 0: the shared body. Juggler 1: its own entry over the shared body.
        assert_eq!(
            (scene.dims(0).upper_arm, scene.dims(0).forearm),
            (0.35, 0.41)
        );
        assert_eq!(
            (scene.dims(1).upper_arm, scene.dims(1).forearm),
            (0.35, 0.38)
        );
        let pose = scene.pose_at(0.3);
        for (j, forearm) in [(0, 0.41), (1, 0.38)] {
            let arm = pose.jugglers[j].arms[0];
            assert!((arm.shoulder.distance(arm.elbow) - 0.35).abs() < 1e-5);
            assert!(
                (arm.elbow.distance(arm.hand) - forearm).abs() < 1e-5,
                "juggler {j}"
            );
        }
        let shoulder_y = |j: usize| pose.jugglers[j].placement.to_local(pose.jugglers[j].neck).y;
        assert!((shoulder_y(0) - 1.40).abs() < 1e-4 && (shoulder_y(1) - 1.30).abs() < 1e-4);
        // A bad per-juggler value is an error like a bad shared one.
        s.settings.bodies.jugglers[1].forearm = Some(f32::NAN);
        assert!(matches!(Scene::new(&s), Err(SceneError::Body(_))));
    }

    #[test]
    fn cascade_pose_holds_props_in_the_hands_and_loops() {
        let scene = Scene::new(&spec("3")).unwrap();
        assert_eq!(scene.timing().bps, 2.9);
        let duration = scene.loop_duration();
        for k in 0..50 {
            let t = 0.037 * k as f64;
            let pose = scene.pose_at(t);
            assert_eq!(pose.jugglers.len(), 1);
            assert_eq!(pose.props.len(), 3);
            for p in &pose.props {
                if let Some(h) = p.held_by {
                    let hand = pose.jugglers[h.juggler].arms[h.hand.index()].hand;
                    assert!(p.position.distance(hand) < 1e-5, "ball centred on the hand");
                }
                assert_eq!((p.kind, p.size, p.axis), (PropKind::Ball, 0.10, Vec3::Y));
            }
            let again = scene.pose_at(t + duration);
            for (a, b) in pose.props.iter().zip(&again.props) {
                assert!(a.position.distance(b.position) < 1e-4, "t={t}");
            }
            let (e1, e2) = (
                pose.jugglers[0].arms[0].elbow,
                again.jugglers[0].arms[0].elbow,
            );
            assert!(e1.distance(e2) < 1e-4);
        }
    }

    #[test]
    fn held_clubs_sit_in_the_hand_along_its_up_direction() {
        let scene = with_prop("3", PropKind::Club);
        let mut held = 0;
        for k in 0..60 {
            let t = 0.031 * k as f64;
            let pose = scene.pose_at(t);
            for p in &pose.props {
                if let Some(h) = p.held_by {
                    held += 1;
                    let hand = pose.jugglers[0].arms[h.hand.index()].hand;
                    // The pivot is 15 cm along the club from the gripping hand, beside it by the
                    // club's flight lane (sideways, at most three 5 cm steps).
                    let lane = p.position - (hand + p.axis * CLUB_GRIP_TO_PIVOT);
                    assert!(lane.y.abs() + lane.z.abs() < 1e-5 && lane.x.abs() <= 0.15 + 1e-5);
                    // Body of the club forward of the hand, never pointing back at the juggler.
                    assert!(p.axis.z > 0.0, "t={t}: {:?}", p.axis);
                }
            }
        }
        assert!(held > 60, "clubs are held part of the time");
    }

    #[test]
    fn colours_by_prop_by_orbit_or_from_the_settings() {
        let scene = Scene::new(&spec("531")).unwrap();
        let colours: Vec<Rgba> = scene.pose_at(0.0).props.iter().map(|p| p.color).collect();
        assert_eq!(colours.len(), 3);
        assert!(colours[0] != colours[1] && colours[1] != colours[2] && colours[0] != colours[2]);
        let mut s = spec("531");
        s.settings.color_by_orbit = true;
        let scene = Scene::new(&s).unwrap();
        for p in scene.pose_at(0.4).props {
            assert_eq!(p.color, crate::types::PALETTE[p.orbit]);
        }
        let mut s = spec("3");
        s.settings.colors = vec![Rgba::rgb(9, 9, 9)];
        let scene = Scene::new(&s).unwrap();
        assert!(scene
            .pose_at(1.0)
            .props
            .iter()
            .all(|p| p.color == Rgba::rgb(9, 9, 9)));
    }

    #[test]
    fn placements_from_the_spec_place_the_bodies() {
        let mut s = spec("<3p|3p>");
        s.settings.positions = vec![
            still(PlacementSpec {
                x: -1.5,
                z: 0.0,
                facing_deg: 90.0,
            }),
            still(PlacementSpec {
                x: 1.5,
                z: 0.0,
                facing_deg: -90.0,
            }),
        ];
        let scene = Scene::new(&s).unwrap();
        let pose = scene.pose_at(0.2);
        assert!(
            pose.jugglers[0]
                .placement
                .position
                .distance(Vec3::new(-1.5, 0.0, 0.0))
                < 1e-6
        );
        // Juggler 0 faces +x, so its left (+x in its own frame) is the world's −z.
        let left = pose.jugglers[0].arms[Hand::Left.index()].shoulder;
        // (The body carries the shoulder a few centimetres up and forward with the hand.)
        let carried = left - Vec3::new(-1.5, 1.4, -0.23);
        assert!(carried.z.abs() < 1e-5 && carried.length() < 0.05, "{left}");
        // Its hands are where the motion model puts them in its own frame: about 1 m up,
        // not behind its back.
        for arm in pose.jugglers[0].arms {
            let local = pose.jugglers[0].placement.to_local(arm.hand);
            assert!(local.z > -0.1 && (local.y - 1.0).abs() < 0.4, "{local}");
        }
    }

    #[test]
    fn the_body_dips_for_high_throws_and_looks_up_at_the_peak() {
        // (lowest, highest) neck height over the loop, and the gaze.
        let neck_range = |notation: &str| {
            let scene = Scene::new(&spec(notation)).unwrap();
            let step = scene.loop_duration() / 400.0;
            let (mut lo, mut hi) = (f32::INFINITY, f32::NEG_INFINITY);
            for k in 0..400 {
                let pose = scene.pose_at(k as f64 * step);
                let y = pose.jugglers[0].neck.y;
                (lo, hi) = (lo.min(y), hi.max(y));
            }
            (lo, hi, scene.pose_at(0.0).jugglers[0].gaze)
        };
        // A 3-ball cascade (apex 0.6 m above the hands) keeps the body still.
        let (lo, hi, _) = neck_range("3");
        assert_eq!((lo, hi), (1.4, 1.4));
        // A 10-ball `a` (5.5 throws a second) bobs about 4 cm with every throw and rises fully
        // between throws; the head looks 40° up.
        let (lo, hi, gaze) = neck_range("a");
        assert!((1.35..1.365).contains(&lo) && hi > 1.395, "{lo} {hi}");
        assert!((gaze.y - 0.70f32.sin()).abs() < 1e-4, "{gaze}");
        // In 91 only the 9s dip (one every 0.36 s, so shorter and shallower: 4.7 cm).
        let (lo, hi, _) = neck_range("91");
        assert!((lo - 1.353).abs() < 2e-3 && hi > 1.399, "{lo} {hi}");
    }

    /// Turns a flying club makes from release to catch (accumulated angle of its axis).
    fn club_turns_in_flight(scene: &Scene, prop: usize) -> f32 {
        let step = scene.loop_duration() / 4000.0;
        let (mut total, mut started, mut prev) = (0.0f32, false, None::<Vec3>);
        for k in 0..8000 {
            let p = scene.pose_at(k as f64 * step).props[prop];
            match (p.held_by, started) {
                (None, _) => {
                    started |= prev.is_some();
                    if let (Some(a), true) = (prev, started) {
                        total += a.dot(p.axis).clamp(-1.0, 1.0).acos();
                    }
                    prev = Some(p.axis);
                }
                (Some(_), true) => return total / std::f32::consts::TAU,
                (Some(_), false) => prev = Some(p.axis),
            }
        }
        total / std::f32::consts::TAU
    }

    #[test]
    fn spins_per_throw_from_the_notation_and_the_pattern_file() {
        // Automatic: a 3 is a single (1 turn + 0.2 from the throw to the catch attitude).
        let auto = with_prop("3", PropKind::Club);
        assert!((club_turns_in_flight(&auto, 0) - 1.2).abs() < 0.02);
        // `~N` asks for N turns: doubles and flats.
        let doubles = with_prop("3~2", PropKind::Club);
        assert!((club_turns_in_flight(&doubles, 0) - 2.2).abs() < 0.02);
        // The spins travel in the event layer's toss record to every flight.
        let flights: Vec<_> = (0..20)
            .flat_map(|k| doubles.motion().state_at(0.1 * k as f64).props)
            .filter_map(|p| p.flight)
            .collect();
        assert!(flights.len() > 20 && flights.iter().all(|f| f.spins == Some(2.0)));
        assert!(auto
            .motion()
            .state_at(0.1)
            .props
            .iter()
            .all(|p| p.flight.is_none_or(|f| f.spins.is_none())));
        let flats = with_prop("3~0", PropKind::Club);
        assert!((club_turns_in_flight(&flats, 0) - 0.2).abs() < 0.02);
        // The pattern's per-value table, and a throw's own `~N` wins over it.
        let mut s = spec("3");
        s.settings.prop = PropKind::Club;
        s.settings.spins = vec![(3, 3)];
        let triples = Scene::new(&s).unwrap();
        assert!((club_turns_in_flight(&triples, 0) - 3.2).abs() < 0.02);
        s.source = PatternSource::Siteswap("3~1".into());
        let singles = Scene::new(&s).unwrap();
        assert!((club_turns_in_flight(&singles, 0) - 1.2).abs() < 0.02);
        // Spins do not move the centre of mass: the same positions as the automatic choice
        // (release and catch attitudes are the same, only the turns in between differ).
        for k in 0..40 {
            let t = 0.05 * k as f64;
            for (a, b) in auto.pose_at(t).props.iter().zip(&doubles.pose_at(t).props) {
                assert_eq!(a.held_by, b.held_by);
                assert!(a.position.distance(b.position) < 1e-5, "t={t}");
            }
        }
    }

    #[test]
    fn pancake_rings_fly_flat_and_on_the_parabola() {
        let mut s = spec("531");
        s.settings.prop = PropKind::Ring;
        s.settings.pancake_rings = true;
        let scene = Scene::new(&s).unwrap();
        let g = scene.timing().gravity as f32;
        let h = 0.01;
        let (mut flying, mut held_faces) = (0, 0);
        for k in 0..300 {
            let t = scene.loop_duration() * k as f64 / 300.0;
            let pose = scene.pose_at(t);
            let (before, after) = (scene.pose_at(t - h), scene.pose_at(t + h));
            for (i, ring) in pose.props.iter().enumerate() {
                let Some(by) = ring.held_by else {
                    // Flat in flight.
                    assert!(ring.axis.y.abs() > 0.9999, "{:?}", ring.axis);
                    if before.props[i].held_by.is_none() && after.props[i].held_by.is_none() {
                        flying += 1;
                        let a = (after.props[i].position - 2.0 * ring.position
                            + before.props[i].position)
                            / (h * h) as f32;
                        assert!((a.y + g).abs() < 0.01 * g && a.x.abs() + a.z.abs() < 0.05);
                    }
                    continue;
                };
                if ring.axis.z.abs() > 0.999 {
                    // Mid-dwell the hand shows the ring's face to the audience, centre above.
                    held_faces += 1;
                    let hand = pose.jugglers[0].arms[by.hand.index()].hand;
                    let d = ring.position - hand;
                    // Beside the hand by the ring's flight lane (in depth, at most three 5.5 cm
                    // steps).
                    let lane = Vec3::Z * d.z.clamp(-0.165, 0.165);
                    assert!(
                        d.distance(Vec3::Y * 0.11 + lane) < 5e-3,
                        "{d} {:?}",
                        ring.axis
                    );
                }
            }
        }
        assert!(flying > 200 && held_faces > 20, "{flying} {held_faces}");
        // At the catch and the throw a pancake ring lies flat, its centre in front of the hand.
        let held = crate::body::props::held_pancake_normal(0.0);
        assert!(held.distance(Vec3::NEG_Y) < 1e-6);
    }

    #[test]
    fn never_thrown_clubs_keep_still() {
        // In "2" every prop is held (JL's default for 2s): nothing should turn.
        let scene = with_prop("2", PropKind::Club);
        let first = scene.pose_at(0.0);
        assert!(first.props.iter().all(|p| p.held_by.is_some()));
        for k in 1..40 {
            let pose = scene.pose_at(0.05 * k as f64);
            for (a, b) in first.props.iter().zip(&pose.props) {
                assert!(
                    a.axis.distance(b.axis) < 1e-5,
                    "{:?} vs {:?}",
                    a.axis,
                    b.axis
                );
            }
        }
        let by = HandRef::new(0, Hand::Left);
        assert!(first.props.iter().any(|p| p.held_by == Some(by)));
    }
}
