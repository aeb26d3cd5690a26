//! Hands that step aside for the props that would pass through their arms.
//!
//! A club caught after a short or slow flight turns its body down past the point where its
//! catcher's hand waits for the handle: in its last half turn it hangs body down, its tip at
//! the waiting fist (`[b9753]0020[22]0[222]0[2222]0` with clubs: 0.2 s before the catch of
//! a half-second flight, 3.3 cm into the forearm), where turning the elbow barely moves the
//! forearm; a bounced ring rises into the forearm of the hand waiting above it (the JML test
//! file "Bounce, soft catches and a held ball", −4.7 cm 0.17 s before the catch). A juggler
//! waits lower, further back or aside, and meets the handle or the rim. So the scene samples
//! the last `LOOK` seconds of every prop's flight against its catcher's arm, outside
//! the `OWN_HAND_WINDOW` before the catch in which a prop may touch the arm catching it, and
//! where the prop comes within `DETECT` of the arm, the hand steps off its path
//! (`motion::HandDip`): easing away after its last throw or catch, by the least of `DEPTHS` in
//! one of `WAYS` (down first) that clears the prop by `AIM` (else the one clearing it most, if
//! that gains 5 mm), and back by the catch, eased no harder than `MAX_ACCELERATION`. The same
//! from a throw for a prop sweeping through the arm that threw it in its first `LOOK` seconds
//! after the throw's window (a club thrown from a crossed arm), and then, over one hand period,
//! for props passing an arm that neither throws nor catches them (a club falling past a
//! crossed or raised arm): each stretch of contacts cleared by one step between the hand's
//! throws and catches around it; after those, in the same way, for props passing a prop the
//! hand holds (Juggling Lab's Follow with clubs: a club cutting 3.3 cm into the held one, now
//! 1.9), where the step keeps the arm as clear of them as it was. A hand steps aside once at a
//! time (a later step meeting one planned is left out). A step is not taken where it brings
//! the arm nearer another prop or the other forearm, or a prop the hand holds nearer another
//! prop, than `AIM` where they were not, or a prop the hand holds into its other arm, takes
//! the elbow more than `BEHIND` behind the shoulders (or further than it was) or
//! the hand above `ACCELERATION_CAP` (or above what it reached). Where the hand throws or
//! catches anything within the contact, or a prop of its own is in the arm for longer than the
//! look (a long flight falling past it), the hand keeps to its path (the elbow planners after
//! it still turn its elbow aside). Throws and catches keep their points and speeds. Balls
//! step aside too (a ball of 441 Shuffle with Juggling Lab's hands, 0.7 mm into the forearm
//! 0.12 s before its catch, clears by 2.6 cm).

use glam::Vec3;

use super::elbow_room::{arm_capsules, capsule_gap, forearms_gap, prop_capsules};
use super::Scene;
use crate::body::juggler::juggler_pose_moving;
use crate::body::{JugglerPose, PropPose};
use crate::layout::Placement;
use crate::motion::{HandDip, MotionState};
use crate::types::HandRef;

/// Samples per second.
const RATE: f64 = 200.0;
/// Seconds before a catch in which the prop is measured against its catcher's arm.
const LOOK: f64 = 0.45;
/// Seconds after its own throw or before its own catch in which a prop may touch the arm of
/// the hand that throws or catches it (as the contact measure grants).
const OWN_HAND_WINDOW: f64 = 0.12;
/// A prop closer than `DETECT` (metres) to its catcher's arm makes the hand step aside; the
/// step aims to clear it by `AIM`.
const DETECT: f32 = 0.005;
const AIM: f32 = 0.015;
/// How far a hand steps off its path, metres, tried in order, each in the directions of
/// `WAYS`.
const DEPTHS: [f32; 7] = [0.02, 0.04, 0.06, 0.08, 0.10, 0.12, 0.14];
/// Ways a hand steps (juggler-local; x toward the hand's own side): down, up, out, in, back,
/// forward.
const WAYS: [Vec3; 6] = [
    Vec3::NEG_Y,
    Vec3::Y,
    Vec3::X,
    Vec3::NEG_X,
    Vec3::NEG_Z,
    Vec3::Z,
];
/// Steepest acceleration the easing of a dip adds to the hand (m/s²; the hand as a whole is
/// held to `ACCELERATION_CAP`). At 50 m/s² the ring of `(4xB,4xB)` with one of Juggling Lab's
/// column hands stayed 1.1 cm in the forearm, the hand's step too shallow for its 0.1 s.
const MAX_ACCELERATION: f64 = 75.0;
/// Longest easing down (seconds), and the least time after the hand's last throw or catch
/// before it starts.
const MAX_EASE: f64 = 0.2;
const AFTER_EVENT: f64 = 0.02;
/// A step may take an elbow this far behind the shoulders' frontal plane (metres), or as far
/// as it was (the elbow planner after it turns forward an elbow more than 4.5 cm behind: the
/// bounce test file's ring is cleared by a step that the body alone puts 5.0 cm behind, and
/// no elbow of that scene ends more than 4.4 cm behind; a step for Follow's club ended 5.6 cm
/// behind), and a hand to this acceleration (m/s²), or as high as it was.
const BEHIND: f32 = 0.055;
const ACCELERATION_CAP: f32 = 195.0;
/// Contacts of one arm with passing props less than `JOIN` seconds apart share one step.
const JOIN: f64 = 0.05;
/// The most samples × props the plan may measure (a pattern of many props keeps its hands on
/// their paths).
const MAX_WORK: f64 = 4.0e5;

/// Plans the steps aside of every hand of `scene` whose arm a prop would pass through, and
/// sets them on its motion.
pub(super) fn plan(scene: &mut Scene) {
    let props = scene.props();
    let kind = scene.kind(0);
    if props == 0 || scene.dims.is_empty() || (1..props).any(|i| scene.kind(i) != kind) {
        return;
    }
    let period = scene.motion.hand_period();
    // One hand period, where the hands and the jugglers' places repeat with it.
    if !(period.is_finite() && period > 0.0) || (scene.elbow_period(true) - period).abs() > 1e-9 {
        return;
    }
    let work = scene.flights.len() as f64 * (LOOK + MAX_EASE) * RATE * props as f64;
    if work > MAX_WORK {
        return;
    }
    let slots = 2 * scene.motion.jugglers();
    let mut dips: Vec<Vec<HandDip>> = vec![Vec::new(); slots];
    // Catches, then throws, by hand and time, each with the flights caught or thrown there.
    for anchor in [Anchor::Catch, Anchor::Throw] {
        let mut events: Vec<(HandRef, f64, Vec<usize>)> = Vec::new();
        for (k, f) in scene.flights.iter().enumerate() {
            // Long enough to leave room after the throw's window and before the catch's (a
            // NaN time is not).
            let long = f.catch - f.release > 2.0 * OWN_HAND_WINDOW;
            if !long {
                continue;
            }
            let (hand, t) = match anchor {
                Anchor::Catch => (f.to, f.catch),
                Anchor::Throw => (f.from, f.release),
            };
            let at = t.rem_euclid(period);
            match events
                .iter_mut()
                .find(|(h, t, _)| *h == hand && same_time(*t, at, period))
            {
                Some(c) => c.2.push(k),
                None => events.push((hand, at, vec![k])),
            }
        }
        for (hand, _, flights) in events {
            let Some(planned) = dips.get_mut(hand.slot()) else {
                continue;
            };
            if let Some(dip) = plan_step(scene, hand, &flights, period, anchor) {
                // A hand steps aside once at a time: a step after a throw that would meet one
                // before a catch is left out.
                if planned.iter().all(|d| apart(d, &dip, period)) {
                    planned.push(dip);
                }
            }
        }
    }
    plan_passing(scene, period, &mut dips);
    for (slot, mut list) in dips.into_iter().enumerate() {
        if list.is_empty() {
            continue;
        }
        list.sort_by(|a, b| a.start.total_cmp(&b.start));
        scene.motion.set_dips(slot, list, period);
    }
}

/// Steps aside of the hands whose arms props pass through away from their own throws and
/// catches (a club falling past a crossed or raised arm, a prop the other hand holds), added
/// to `dips` where they meet none planned: the contacts sampled at `RATE` over one hand period
/// (`period`), each stretch of them (those less than `JOIN` apart taken together) cleared by
/// one step between the hand's throws and catches around it.
fn plan_passing(scene: &Scene, period: f64, dips: &mut [Vec<HandDip>]) {
    let step = 1.0 / RATE;
    let n = (period * RATE).ceil().max(2.0) as usize;
    let arms = dips.len();
    let props = scene.props();
    if (n * arms * (props + 1)) as f64 > MAX_WORK {
        return;
    }
    let reach = 2.0 * super::elbow_room::extent(scene.kind(0));
    // Props an arm may meet: not held by it, not just thrown or about to be caught by it.
    let passing = |hand: HandRef| {
        move |state: &MotionState, i: usize, t: f64| {
            state.props[i].held_by != Some(hand) && !own(state, i, t, hand)
        }
    };
    let mut hits = vec![vec![false; n]; arms];
    // Samples where a passing prop meets a prop the hand holds (its arm clear).
    let mut held_hits = vec![vec![false; n]; arms];
    for k in 0..n {
        let t = k as f64 * step;
        let state = scene.motion.state_at(t);
        let placements = scene.placements_at(t);
        // Poses made once a sample, when first needed.
        let mut poses: Vec<Option<PropPose>> = vec![None; state.props.len()];
        let mut bodies: Vec<Option<JugglerPose>> = vec![None; placements.len()];
        for (slot, (arm_hits, held_hits)) in hits.iter_mut().zip(&mut held_hits).enumerate() {
            let hand = HandRef::from_slot(slot);
            let j = hand.juggler;
            let Some(place) = placements.get(j) else {
                continue;
            };
            let dims = &scene.dims[j.min(scene.dims.len() - 1)];
            // Every point of an arm lies where its distances from the shoulder and the hand add
            // up to at most the arm's length; a prop touches it only within its reach of that.
            let shoulder = place.to_world(dims.shoulder(hand.hand));
            let at = state.hands[j][hand.hand.index()].position;
            let length = dims.upper_arm + dims.forearm + 0.15 + reach + dims.upper_arm_width;
            let is_target = passing(hand);
            let near: Vec<usize> = (0..state.props.len())
                .filter(|&i| {
                    let p = state.props[i].position;
                    p.distance(shoulder) + p.distance(at) < length && is_target(&state, i, t)
                })
                .collect();
            if near.is_empty() {
                continue;
            }
            let body = bodies[j].get_or_insert_with(|| {
                let hands = state.hands[j].map(|h| h.position);
                let motion = scene.body_motion(&scene.bodies[j], t);
                juggler_pose_moving(place, dims, hands, motion)
            });
            // Whether a passing prop comes within `DETECT` of `capsules`.
            let passing: Vec<_> = near
                .iter()
                .flat_map(|&i| {
                    prop_capsules(
                        poses[i].get_or_insert_with(|| scene.prop_pose(i, &state, &placements)),
                    )
                })
                .collect();
            let meets = |capsules: &[(Vec3, Vec3, f32)]| {
                passing
                    .iter()
                    .any(|c| capsules.iter().any(|s| capsule_gap(c, s) < DETECT))
            };
            let in_arm = meets(&arm_capsules(&body.arms[hand.hand.index()], dims));
            // Else a prop the hand holds, met by a passing one.
            let on_held = !in_arm
                && (0..state.props.len())
                    .filter(|&h| state.props[h].held_by == Some(hand))
                    .any(|h| {
                        meets(&prop_capsules(poses[h].get_or_insert_with(|| {
                            scene.prop_pose(h, &state, &placements)
                        })))
                    });
            arm_hits[k] = in_arm;
            held_hits[k] = on_held;
        }
    }
    // The arms' contacts first, then the held props'.
    let passes = hits.iter().enumerate().chain(held_hits.iter().enumerate());
    for (pass, (slot, contacts)) in passes.enumerate() {
        let for_held = pass >= arms;
        let hand = HandRef::from_slot(slot);
        let events = hand_events(scene, hand);
        for run in super::elbow_room::runs(contacts, (JOIN * RATE).ceil() as usize) {
            let (Some(&a), Some(&b)) = (run.first(), run.last()) else {
                continue;
            };
            let t1 = a as f64 * step;
            let t2 = t1 + ((b + n - a) % n) as f64 * step;
            // The hand's throw or catch before the stretch and after it; none within.
            let gap = |from: f64, forward: bool| gap(&events, from, forward, period);
            let (before, after) = (gap(t1, false), gap(t2, true));
            if gap(t1, true) < t2 - t1 + 1e-9 {
                continue;
            }
            let low_from = t1 - step;
            let low_to = t2 + step;
            let start = (t1 - before + AFTER_EVENT).max(low_from - MAX_EASE);
            let end = (t2 + after - AFTER_EVENT).min(low_to + MAX_EASE);
            let is_target = passing(hand);
            let Some(dip) = choose(scene, hand, (start, low_from, low_to, end), period, &|t| {
                let mut probe = probe_at(scene, hand, t, true, &is_target);
                probe.held_meets_targets = for_held;
                probe
            }) else {
                continue;
            };
            if dips[slot].iter().all(|d| apart(d, &dip, period)) {
                dips[slot].push(dip);
            }
        }
    }
}

/// The times of `hand`'s throws and catches (`Scene::flights`' time line).
fn hand_events(scene: &Scene, hand: HandRef) -> Vec<f64> {
    scene
        .flights
        .iter()
        .flat_map(|f| {
            let thrown = (f.from == hand).then_some(f.release);
            let caught = (f.to == hand).then_some(f.catch);
            thrown.into_iter().chain(caught)
        })
        .collect()
}

/// Seconds from `from` to the next of `events` (`forward`), or from the last of them before
/// it, in a loop of `period` seconds (an event at `from` itself does not count); `period` when
/// there is none.
fn gap(events: &[f64], from: f64, forward: bool, period: f64) -> f64 {
    events
        .iter()
        .map(|&e| {
            if forward {
                (e - from).rem_euclid(period)
            } else {
                (from - e).rem_euclid(period)
            }
        })
        .filter(|&d| d > 1e-9)
        .fold(period, f64::min)
}

/// Whether two steps of one hand (times in a loop of `period` seconds) do not overlap.
fn apart(a: &HandDip, b: &HandDip, period: f64) -> bool {
    let inside = |t: f64, d: &HandDip| (t - d.start).rem_euclid(period) < d.end - d.start;
    !inside(a.start, b) && !inside(b.start, a)
}

/// The event a step aside leans on: it ends at a catch (the prop's last moments before it) or
/// starts at a throw (the prop's first moments after the throw's window).
#[derive(Clone, Copy, PartialEq)]
enum Anchor {
    Catch,
    Throw,
}

/// Whether two times of a loop of `period` seconds are one.
fn same_time(a: f64, b: f64, period: f64) -> bool {
    let d = (a - b).rem_euclid(period);
    d.min(period - d) < 1e-6
}

/// One sampled instant before a catch: the motion, where the jugglers stand, the props caught
/// there (outside the catch's window) and the other props that may touch the catching arm.
struct Probe {
    t: f64,
    state: MotionState,
    placements: Vec<Placement>,
    targets: Vec<PropPose>,
    others: Vec<PropPose>,
    /// The props the hand holds, and every prop it does not hold near it.
    held: Vec<PropPose>,
    near: Vec<PropPose>,
    /// Whether the props the hand holds count against the targets too (props passing it).
    held_meets_targets: bool,
}

/// What a probe measures with the catching hand stepped off its path: the least clearance of
/// the props caught there from its arm (outside the catch's window), of the other props from
/// it, and of the two forearms.
#[derive(Clone, Copy)]
struct Clearances {
    targets: f32,
    /// The targets' least clearance from the arm alone.
    arm_targets: f32,
    /// The least clearance of the props the hand holds from its other arm.
    held_arm: f32,
    others: f32,
    forearms: f32,
    /// The least clearance of the props the hand holds from the props near it.
    held: f32,
    /// How far the arm's elbow is behind the shoulders' frontal plane (metres).
    behind: f32,
}

impl Probe {
    fn pose(&self, scene: &Scene, hand: HandRef, off: Vec3) -> JugglerPose {
        let j = hand.juggler;
        let mut hands = self.state.hands[j].map(|h| h.position);
        let place = &self.placements[j];
        hands[hand.hand.index()] += place.to_world(off) - place.to_world(Vec3::ZERO);
        let body = scene.body_motion(&scene.bodies[j], self.t);
        let dims = &scene.dims[j.min(scene.dims.len() - 1)];
        juggler_pose_moving(&self.placements[j], dims, hands, body)
    }

    fn measure(&self, scene: &Scene, hand: HandRef, off: Vec3) -> Clearances {
        let pose = self.pose(scene, hand, off);
        let arm = pose.arms[hand.hand.index()];
        let dims = &pose.dims;
        let segments = arm_capsules(&arm, dims);
        let least = |props: &[PropPose]| {
            props
                .iter()
                .flat_map(prop_capsules)
                .flat_map(|c| segments.iter().map(move |s| capsule_gap(&c, s)))
                .fold(f32::INFINITY, f32::min)
        };
        let forearms = forearms_gap(&pose);
        // The props the hand holds move with it.
        let shift = pose.arms[hand.hand.index()].hand
            - self.state.hands[hand.juggler][hand.hand.index()].position;
        let held: Vec<(Vec3, Vec3, f32)> = self
            .held
            .iter()
            .flat_map(prop_capsules)
            .map(|(a, b, r)| (a + shift, b + shift, r))
            .collect();
        // The least clearance of the held props from `capsules`.
        let from_held = |capsules: &[(Vec3, Vec3, f32)]| {
            held.iter()
                .flat_map(|c| capsules.iter().map(move |d| capsule_gap(c, d)))
                .fold(f32::INFINITY, f32::min)
        };
        let capsules =
            |props: &[PropPose]| props.iter().flat_map(prop_capsules).collect::<Vec<_>>();
        let held_near = from_held(&capsules(&self.near));
        // And from the other arm.
        let held_arm = from_held(&arm_capsules(&pose.arms[1 - hand.hand.index()], dims));
        let behind = -pose.placement.to_local(arm.elbow).z;
        let held_targets = if self.held_meets_targets {
            from_held(&capsules(&self.targets))
        } else {
            f32::INFINITY
        };
        let arm_targets = least(&self.targets);
        Clearances {
            targets: arm_targets.min(held_targets),
            arm_targets,
            held_arm,
            others: least(&self.others),
            forearms,
            held: held_near,
            behind,
        }
    }
}

/// The step aside of `hand` before its catch (or after its throw, `anchor`) of `flights`
/// (indices into `Scene::flights`, caught or thrown together), if a prop of them sweeps
/// through its arm outside the event's window and a step clears it.
fn plan_step(
    scene: &Scene,
    hand: HandRef,
    flights: &[usize],
    period: f64,
    anchor: Anchor,
) -> Option<HandDip> {
    let first = &scene.flights[flights[0]];
    let event = match anchor {
        Anchor::Catch => first.catch,
        Anchor::Throw => first.release,
    };
    // Whether prop `i` flying at `t` in `state` is one of the flights caught (thrown) here
    // and outside its own windows.
    let ours = |state: &MotionState, i: usize, t: f64| {
        state.props[i].flight.is_some_and(|f| {
            let here = match anchor {
                Anchor::Catch => {
                    f.to == hand
                        && same_time(f.catch, event, period)
                        && flights.iter().any(|&k| scene.flights[k].from == f.from)
                }
                Anchor::Throw => {
                    f.from == hand
                        && same_time(f.release, event, period)
                        && flights.iter().any(|&k| scene.flights[k].to == f.to)
                }
            };
            here && !(f.to == hand && f.catch - t < OWN_HAND_WINDOW)
                && !(f.from == hand && t - f.release < OWN_HAND_WINDOW)
        })
    };
    let probe = |t: f64, full: bool| probe_at(scene, hand, t, full, &ours);
    let step = 1.0 / RATE;
    // The look: the last `LOOK` seconds of the flights before the catch's window, or the
    // first after the throw's.
    let (from, last) = match anchor {
        Anchor::Catch => {
            let release = flights
                .iter()
                .map(|&k| scene.flights[k].release)
                .fold(f64::NEG_INFINITY, f64::max);
            ((event - LOOK).max(release), event - OWN_HAND_WINDOW)
        }
        Anchor::Throw => {
            let catch = flights
                .iter()
                .map(|&k| scene.flights[k].catch)
                .fold(f64::INFINITY, f64::min);
            (event + OWN_HAND_WINDOW, (event + LOOK).min(catch))
        }
    };
    // The contacts: the first and last sample where a prop of ours comes within `DETECT`.
    let samples = ((last - from) / step).floor().max(0.0) as usize;
    let mut hit: Option<(f64, f64)> = None;
    for k in 0..=samples {
        let t = from + k as f64 * step;
        let p = probe(t, false);
        if p.targets.is_empty() {
            continue;
        }
        if p.measure(scene, hand, Vec3::ZERO).targets < DETECT {
            hit = Some(hit.map_or((t, t), |(a, _)| (a, t)));
        }
    }
    let (t1, t2) = hit?;
    // A prop in the arm where the look begins (ends) passes it for longer than its last (first)
    // moments (a long flight falling past the arm): the hand keeps to its path.
    let long = match anchor {
        Anchor::Catch => t1 <= from + 0.5 * step && event - LOOK > from - 1e-9,
        Anchor::Throw => t2 >= from + samples as f64 * step - 0.5 * step,
    };
    if long {
        return None;
    }
    // The hand's throws and catches: the step lies between the one before and the one after
    // the contact, and none may come between the contact and the anchor.
    let events = hand_events(scene, hand);
    let mid = 0.5 * (t1 + t2);
    let (before, after) = (
        gap(&events, mid, false, period),
        gap(&events, mid, true, period),
    );
    let (start, low_from, low_to, end) = match anchor {
        Anchor::Catch => {
            if after < event - mid - 1e-6 {
                return None;
            }
            let low_from = t1 - step;
            let start = (mid - before + AFTER_EVENT).max(low_from - MAX_EASE);
            (start, low_from, (t2 + step).min(last + 0.5 * step), event)
        }
        Anchor::Throw => {
            if before < mid - event - 1e-6 {
                return None;
            }
            let low_to = t2 + step;
            let end = (mid + after - AFTER_EVENT).min(low_to + MAX_EASE);
            (event, (t1 - step).max(from - 0.5 * step), low_to, end)
        }
    };
    choose(scene, hand, (start, low_from, low_to, end), period, &|t| {
        probe(t, true)
    })
}

/// `hand` at `t`: the props `target` picks (by state, index and time) as targets and, with
/// `full`, the other props that may meet the arm (not just thrown or about to be caught by
/// it), the props it holds and every prop near it.
fn probe_at(
    scene: &Scene,
    hand: HandRef,
    t: f64,
    full: bool,
    target: &dyn Fn(&MotionState, usize, f64) -> bool,
) -> Probe {
    let state = scene.motion.state_at(t);
    let placements = scene.placements_at(t);
    let mut targets = Vec::new();
    let mut others = Vec::new();
    let (mut held, mut near) = (Vec::new(), Vec::new());
    let at = state.hands[hand.juggler][hand.hand.index()].position;
    for i in 0..state.props.len() {
        let p = &state.props[i];
        if !full {
            if target(&state, i, t) {
                targets.push(scene.prop_pose(i, &state, &placements));
            }
            continue;
        }
        if p.held_by == Some(hand) {
            held.push(scene.prop_pose(i, &state, &placements));
            continue;
        }
        let close = p.position.distance(at) < 1.2;
        if close {
            near.push(scene.prop_pose(i, &state, &placements));
        }
        if target(&state, i, t) {
            targets.push(scene.prop_pose(i, &state, &placements));
        } else if close && !own(&state, i, t, hand) {
            others.push(scene.prop_pose(i, &state, &placements));
        }
    }
    Probe {
        t,
        state,
        placements,
        targets,
        others,
        held,
        near,
        held_meets_targets: false,
    }
}

/// Whether prop `i`, flying in `state` at `t`, may touch the arm of `hand`: just thrown or
/// about to be caught by it.
fn own(state: &MotionState, i: usize, t: f64, hand: HandRef) -> bool {
    state.props[i].flight.is_some_and(|f| {
        (f.from == hand && t - f.release < OWN_HAND_WINDOW)
            || (f.to == hand && f.catch - t < OWN_HAND_WINDOW)
    })
}

/// The step of `hand` from `start` easing to full by `low_from`, full until `low_to`, none
/// again at `end` that clears the targets of the probes (`probe(t)`, sampled at `RATE` from
/// `start` to `end`) by `AIM`, else the one clearing them most if that gains 5 mm, and brings
/// nothing else nearer than `AIM` where it was not.
fn choose(
    scene: &Scene,
    hand: HandRef,
    (start, low_from, low_to, end): (f64, f64, f64, f64),
    period: f64,
    probe: &dyn Fn(f64) -> Probe,
) -> Option<HandDip> {
    let step = 1.0 / RATE;
    let (rise, fall) = (low_from - start, end - low_to);
    // A step longer than the loop (a hand that never throws, passed all the time) would meet
    // itself.
    if rise < 2.0 * step || fall < 2.0 * step || low_to < low_from || end - start > period - step {
        return None;
    }
    // A raised cosine of depth d over T seconds accelerates at most d π² / (2 T²).
    let deepest = 2.0 * MAX_ACCELERATION * rise.min(fall).powi(2) / std::f64::consts::PI.powi(2);
    let dip = |offset: Vec3| HandDip {
        start,
        low_from,
        low_to,
        end,
        offset: offset.as_dvec3(),
    };
    // Its own side: +x for a left hand, −x for a right one.
    let side = match hand.hand {
        crate::types::Hand::Left => 1.0,
        crate::types::Hand::Right => -1.0,
    };
    // The probes the step is measured on: all through it.
    let n = ((end - start) / step).floor().max(0.0) as usize;
    let probes: Vec<Probe> = (0..=n).map(|k| probe(start + k as f64 * step)).collect();
    let base: Vec<Clearances> = probes
        .iter()
        .map(|p| p.measure(scene, hand, Vec3::ZERO))
        .collect();
    let base_least = base.iter().map(|c| c.targets).fold(f32::INFINITY, f32::min);
    // A step for the props a hand holds (its arm clear of the targets) keeps its arm clear.
    let arm_clear = base
        .iter()
        .map(|c| c.arm_targets)
        .fold(f32::INFINITY, f32::min)
        >= DETECT;
    // The hand's acceleration with a step (world offset `at(t)`), by second differences.
    let accel = |at: &dyn Fn(f64) -> Vec3, t: f64| {
        const H: f64 = 0.002;
        let p = |t: f64| scene.motion.hand_at(hand, t).position + at(t);
        ((p(t + H) - 2.0 * p(t) + p(t - H)) / (H * H) as f32).length()
    };
    let place = |t: f64, off: Vec3| {
        let place = scene.motion.placement_at(hand.juggler, t);
        place.to_world(off) - place.to_world(Vec3::ZERO)
    };
    let base_accel = probes
        .iter()
        .map(|p| accel(&|_| Vec3::ZERO, p.t))
        .fold(0.0, f32::max);
    let accel_cap = base_accel.max(ACCELERATION_CAP);
    let mut best: Option<(f32, Vec3)> = None;
    let tries = DEPTHS
        .into_iter()
        .filter(|&d| f64::from(d) <= deepest)
        .flat_map(|d| WAYS.map(|w| Vec3::new(w.x * side, w.y, w.z) * d));
    for offset in tries {
        let trial = dip(offset);
        let mut least = f32::INFINITY;
        let mut fine = true;
        for (p, b) in probes.iter().zip(&base) {
            let share = trial.share_at(p.t - start).0 as f32;
            let c = p.measure(scene, hand, offset * share);
            least = least.min(c.targets);
            let on = |t: f64| place(t, offset * trial.share_at(t - start).0 as f32);
            if c.others < b.others.min(AIM) - 1e-4
                || c.forearms < b.forearms.min(AIM) - 1e-4
                || c.held < b.held.min(AIM) - 1e-4
                || c.held_arm < b.held_arm.min(DETECT) - 1e-4
                || (arm_clear && c.arm_targets < b.arm_targets.min(AIM) - 1e-4)
                || c.behind > b.behind.max(BEHIND) + 1e-4
                || accel(&on, p.t) > accel_cap
            {
                fine = false;
                break;
            }
        }
        if !fine {
            continue;
        }
        if least >= AIM {
            return Some(trial.shifted(period));
        }
        if best.is_none_or(|(l, _)| least > l) {
            best = Some((least, offset));
        }
    }
    let (least, offset) = best?;
    (least > base_least + 0.005).then(|| dip(offset).shifted(period))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_of_one_hand_overlap_also_across_the_end_of_the_loop() {
        let step = |start: f64, end: f64| HandDip {
            start,
            low_from: start,
            low_to: end,
            end,
            offset: glam::DVec3::NEG_Y * 0.02,
        };
        // A loop of 1 s: one step from 0.9 s to 1.2 s (0.2 s into the next loop).
        let wraps = step(0.9, 1.2);
        assert!(!apart(&wraps, &step(0.1, 0.3), 1.0));
        assert!(!apart(&step(0.1, 0.3), &wraps, 1.0));
        assert!(apart(&wraps, &step(0.25, 0.5), 1.0));
        assert!(!apart(&step(0.2, 0.4), &step(0.3, 0.6), 1.0));
        assert!(apart(&step(0.2, 0.4), &step(0.4, 0.6), 1.0));
    }
}
