//! Elbows turned out of the way of props that pass an arm.
//!
//! The arm's segments are exact for any elbow on the circle of seed 000 around the
//! shoulder–hand axis, so an elbow can turn on that circle (a chicken-wing turn) without moving
//! the hand. Where a prop would pass through an upper arm or forearm that neither throws,
//! catches nor holds it (the club falling past the crossed arm's elbow in the Mills Mess into
//! the hand under it; a prop held in the other hand), the scene samples the loop (one hand
//! period where the arms and props repeat with it, `Scene::elbow_period`), finds each arm's
//! contacts, and turns that elbow by
//! the smallest angle (`STEP` up to `MAX_TURN`, either way) that clears every prop by `AIM`
//! all through the contact, without taking the elbow further behind the shoulders than 5 cm
//! (or than it was), into the torso, or its forearm into the other forearm. The turn eases in
//! and out on either side along a raised cosine no quicker than `MAX_RATE` (and over at least
//! `RAMP`), so the elbow moves smoothly.
//! Contacts closer than `JOIN` apart share one turn; turns add up where their ramps meet.

use glam::Vec3;

use super::{held_capsules, Scene};
use crate::body::dims::BodyDims;
use crate::body::juggler::juggler_pose_moving;
use crate::body::{ArmPose, JugglerPose, PropPose};
use crate::layout::Placement;
use crate::motion::{segments_distance, MotionState};
use crate::types::{Hand, HandRef, PropKind};

/// Samples per second of the loop, and the most samples a loop is planned over (a longer loop
/// keeps its elbows as the body puts them).
const RATE: f64 = 160.0;
const MAX_SAMPLES: usize = 7200;
/// The most work a plan may take: samples × arms × (props + 1), each a pose or a measure (a
/// scene of hundreds of jugglers keeps its elbows as the body puts them).
const MAX_WORK: f64 = 5.0e5;
/// How far a shoulder may move from its place in the body (following the hand, shrugging
/// toward it), metres.
const SHOULDER_MOVES: f32 = 0.15;
/// An arm closer than `DETECT` to a prop is turned; the turn aims for `AIM` (metres).
const DETECT: f32 = 0.005;
const AIM: f32 = 0.02;
/// Turns tried, radians: multiples of `STEP` up to `MAX_TURN`, either way; turns that meet
/// add up to at most `MAX_TURN`.
const STEP: f32 = 0.1;
const MAX_TURN: f32 = 2.0;
/// Least time a turn takes to ease in or out (seconds).
const RAMP: f64 = 0.08;
/// Fastest turning of an elbow while a turn eases in or out (radians per second: an elbow
/// 20 cm from the shoulder–hand axis moves at most 1.2 m/s by it, where the hands move 2–4).
const MAX_RATE: f64 = 6.0;
/// Contacts of one arm less than `JOIN` seconds apart share one turn; turns further apart
/// add up where their ramps meet.
const JOIN: f64 = 0.05;
/// Seconds after its own throw or before its own catch in which a prop may touch the arm of
/// the hand that throws or catches it.
const OWN_HAND_WINDOW: f64 = 0.12;
/// How far an elbow may go behind its shoulders' frontal plane (metres).
const BEHIND_LIMIT: f32 = 0.05;

/// One planned turn of an elbow: the whole `angle` (radians, positive = outward) from `from`
/// to `to` (seconds in the planned period, `from ≤ to`, `to` may pass its end), eased in before
/// and out after over `ramp` seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct ElbowTurn {
    from: f64,
    to: f64,
    angle: f32,
    ramp: f64,
}

/// How long a turn by `angle` radians takes to ease in or out: a raised cosine whose
/// steepest rate is `MAX_RATE`, and at least `RAMP`.
fn ramp_for(angle: f32) -> f64 {
    (f64::from(angle.abs()) * std::f64::consts::FRAC_PI_2 / MAX_RATE).max(RAMP)
}

/// The elbow turn of `turns` at `t` (seconds) in a loop of `period` seconds.
pub(super) fn turn_at(turns: &[ElbowTurn], t: f64, period: f64) -> f32 {
    if !(period.is_finite() && period > 0.0) {
        return 0.0;
    }
    turns
        .iter()
        .map(|turn| {
            let s = (t - turn.from).rem_euclid(period);
            let width = turn.to - turn.from;
            let d = if s <= width {
                0.0
            } else {
                (s - width).min(period - s)
            };
            if d >= turn.ramp {
                0.0
            } else {
                let w = 0.5 + 0.5 * (std::f64::consts::PI * d / turn.ramp).cos();
                turn.angle * w as f32
            }
        })
        .sum()
}

/// Plans the elbow turns of every arm of `scene` (stored in its body plans).
pub(super) fn plan(scene: &mut Scene) {
    let period = scene.elbow_period(true);
    if !(period.is_finite() && period > 0.0) || scene.dims.is_empty() {
        return;
    }
    for body in &mut scene.bodies {
        body.turn_period = period;
    }
    let wanted = (period * RATE).ceil();
    let arms = 2 * scene.motion.jugglers();
    // The work: every sample's poses and each arm against each prop.
    let work = wanted * (arms * (1 + scene.props())) as f64;
    if !(wanted <= MAX_SAMPLES as f64 && work <= MAX_WORK) {
        return;
    }
    let n = (wanted as usize).max(2);
    let dt = period / n as f64;
    let mut samples = Samples {
        dt,
        at: (0..n).map(|_| None).collect(),
    };
    // Where each arm meets a prop: `hits[k][2·j + side]` at sample k.
    let jugglers = scene.motion.jugglers();
    let hits: Vec<Vec<bool>> = (0..n)
        .map(|k| {
            // Made and dropped one at a time: memory does not grow with the loop.
            let s = Sample::new(scene, k as f64 * dt);
            let mut row = vec![false; 2 * jugglers];
            for j in 0..jugglers {
                if s.near[j].iter().all(|near| near.is_empty()) {
                    continue;
                }
                let pose = s.juggler(scene, j, 0.0, Hand::Left);
                for side in Hand::BOTH {
                    let arm = HandRef::new(j, side);
                    row[arm.slot()] = s.clearance(arm, &pose) < DETECT;
                }
            }
            row
        })
        .collect();
    for j in 0..jugglers {
        for side in Hand::BOTH {
            let arm = HandRef::new(j, side);
            let arm_hits: Vec<bool> = hits.iter().map(|row| row[arm.slot()]).collect();
            for run in runs(&arm_hits, (JOIN / dt).ceil() as usize) {
                if let Some(turn) = best_turn(scene, &mut samples, &run, arm) {
                    scene.bodies[j].turns[side.index()].push(turn);
                }
                samples.at.iter_mut().for_each(|s| *s = None);
            }
        }
    }
}

/// The samples a turn is tried on, made when first needed (and dropped after each stretch).
struct Samples {
    dt: f64,
    at: Vec<Option<Sample>>,
}

impl Samples {
    fn get(&mut self, scene: &Scene, k: usize) -> &Sample {
        let dt = self.dt;
        self.at[k].get_or_insert_with(|| Sample::new(scene, k as f64 * dt))
    }
}

/// One sampled instant of the scene: the motion, where the jugglers stand, and the
/// props near each juggler.
struct Sample {
    t: f64,
    state: MotionState,
    placements: Vec<Placement>,
    /// Poses of the props near some arm, by prop index.
    props: Vec<Option<PropPose>>,
    /// Per juggler and arm: the props that may reach the arm (not its own throw, hold or
    /// catch).
    near: Vec<[Vec<usize>; 2]>,
}

impl Sample {
    fn new(scene: &Scene, t: f64) -> Sample {
        let state = scene.motion.state_at(t);
        let placements = scene.placements_at(t);
        let mut sample = Sample {
            t,
            props: vec![None; state.props.len()],
            near: Vec::with_capacity(placements.len()),
            state,
            placements,
        };
        for (j, place) in sample.placements.iter().enumerate() {
            let dims = &scene.dims[j.min(scene.dims.len() - 1)];
            let near = Hand::BOTH.map(|side| {
                // Every point of an arm lies in the ellipsoid of points whose distances from
                // the shoulder and the hand add up to at most the arm's length; a prop can
                // only touch the arm within its reach of that ellipsoid.
                let shoulder = place.to_world(dims.shoulder(side));
                let hand = sample.state.hands[j][side.index()].position;
                let arm = HandRef::new(j, side);
                let length = dims.upper_arm + dims.forearm + SHOULDER_MOVES;
                (0..sample.state.props.len())
                    .filter(|&i| {
                        let p = &sample.state.props[i];
                        let reach = 2.0 * (extent(scene.kind(i)) + 0.5 * dims.upper_arm_width);
                        p.held_by != Some(arm)
                            && !sample.own(i, arm)
                            && p.position.distance(shoulder) + p.position.distance(hand)
                                < length + reach
                    })
                    .collect::<Vec<usize>>()
            });
            for &i in near.iter().flatten() {
                if sample.props[i].is_none() {
                    sample.props[i] = Some(scene.prop_pose(i, &sample.state, &sample.placements));
                }
            }
            sample.near.push(near);
        }
        sample
    }

    /// Juggler `j` at this sample with the turns planned so far, the elbow of `side` turned
    /// `extra` radians more.
    fn juggler(&self, scene: &Scene, j: usize, extra: f32, side: Hand) -> JugglerPose {
        let mut body = scene.body_motion(&scene.bodies[j], self.t);
        body.turn[side.index()] += extra;
        let dims = &scene.dims[j.min(scene.dims.len() - 1)];
        let hands = self.state.hands[j].map(|h| h.position);
        juggler_pose_moving(&self.placements[j], dims, hands, body)
    }

    /// Least clearance (metres) of the props near the arm of `hand` from that arm
    /// in `juggler` (a pose of that juggler at this sample), except props that hand has just
    /// thrown or is about to catch.
    fn clearance(&self, hand: HandRef, juggler: &JugglerPose) -> f32 {
        let arm = juggler.arms[hand.hand.index()];
        let dims = &juggler.dims;
        let segments = arm_capsules(&arm, dims);
        let mut least = f32::INFINITY;
        for &i in &self.near[hand.juggler][hand.hand.index()] {
            let Some(prop) = &self.props[i] else { continue };
            let capsules = prop_capsules(prop);
            // A ring is eight capsules within `reach` of its centre: a segment further than
            // the least clearance so far from that sphere cannot lower it.
            let centre = prop.position;
            let reach = if capsules.len() > 1 {
                capsules
                    .iter()
                    .map(|&(c0, c1, cr)| c0.distance(centre).max(c1.distance(centre)) + cr)
                    .fold(0.0, f32::max)
            } else {
                f32::INFINITY
            };
            for &(a, b, r) in &segments {
                if reach.is_finite() {
                    let (c, a, b) = (centre.as_dvec3(), a.as_dvec3(), b.as_dvec3());
                    if segments_distance(c, c, a, b) as f32 - reach - r > least + 1e-3 {
                        continue;
                    }
                }
                for capsule in &capsules {
                    least = least.min(capsule_gap(capsule, &(a, b, r)));
                }
            }
        }
        least
    }

    /// Whether prop `i`, flying, may touch the arm of `hand`: just thrown or about to be caught
    /// by it.
    fn own(&self, i: usize, hand: HandRef) -> bool {
        let Some(flight) = self.state.props.get(i).and_then(|s| s.flight) else {
            return false;
        };
        (flight.from == hand && self.t - flight.release < OWN_HAND_WINDOW)
            || (flight.to == hand && flight.catch - self.t < OWN_HAND_WINDOW)
    }
}

/// How far any part of a prop of `kind` may be from the point of its flight (metres): a ball's
/// radius; a club's far end from its pivot, the pivot 15 cm from the grip the flight follows;
/// a ring's rim, its centre 11 cm above the grip.
pub(super) fn extent(kind: PropKind) -> f32 {
    match kind {
        PropKind::Ball => 0.06,
        PropKind::Club => 0.30 + 0.15 + 0.05,
        PropKind::Ring => 0.125 + 0.11,
    }
}

/// The gap between two capsules (segment ends, radius), metres; negative where they overlap.
pub(super) fn capsule_gap(p: &(Vec3, Vec3, f32), q: &(Vec3, Vec3, f32)) -> f32 {
    segments_distance(
        p.0.as_dvec3(),
        p.1.as_dvec3(),
        q.0.as_dvec3(),
        q.1.as_dvec3(),
    ) as f32
        - p.2
        - q.2
}

/// An arm as the capsules it fills (segment ends, radius): the upper arm and the forearm.
pub(super) fn arm_capsules(arm: &ArmPose, dims: &BodyDims) -> [(Vec3, Vec3, f32); 2] {
    [
        (arm.shoulder, arm.elbow, 0.5 * dims.upper_arm_width),
        (arm.elbow, arm.hand, 0.5 * dims.forearm_width),
    ]
}

/// The gap between a juggler's two forearms (metres; negative where they pass through each
/// other).
pub(super) fn forearms_gap(pose: &JugglerPose) -> f32 {
    let [l, r] = pose.arms;
    segments_distance(
        l.elbow.as_dvec3(),
        l.hand.as_dvec3(),
        r.elbow.as_dvec3(),
        r.hand.as_dvec3(),
    ) as f32
        - pose.dims.forearm_width
}

/// A prop as the capsules it fills (segment ends, radius).
pub(super) fn prop_capsules(prop: &PropPose) -> Vec<(Vec3, Vec3, f32)> {
    held_capsules(prop.kind, prop.position, prop.axis)
}

/// A prop as drawn (segment ends, radius): a club the pieces of its profile
/// (`body::props::club_capsules`), other props as `prop_capsules`.
pub(super) fn drawn_capsules(prop: &PropPose) -> Vec<(Vec3, Vec3, f32)> {
    if prop.kind != PropKind::Club {
        return prop_capsules(prop);
    }
    crate::body::props::club_capsules(prop.position, prop.axis).collect()
}

/// Runs of `true` in the cyclic `hits`, each with the samples between hits fewer than `join`
/// apart taken in: the sample indices of each run in order (a run may wrap past the end).
pub(super) fn runs(hits: &[bool], join: usize) -> Vec<Vec<usize>> {
    let n = hits.len();
    let Some(start) = (0..n).find(|&k| !hits[k]) else {
        return if n > 0 {
            vec![(0..n).collect()]
        } else {
            Vec::new()
        };
    };
    // Walk once around the loop from a sample without a hit.
    let mut out: Vec<Vec<usize>> = Vec::new();
    let mut gap = usize::MAX;
    for step in 1..=n {
        let k = (start + step) % n;
        if hits[k] {
            match out.last_mut() {
                Some(run) if gap < join => {
                    let last = *run.last().expect("runs are never empty");
                    run.extend(cyclic(last + 1, k, n));
                    run.push(k);
                }
                _ => out.push(vec![k]),
            }
            gap = 0;
        } else {
            gap = gap.saturating_add(1);
        }
    }
    // The first and last runs join across the start when close enough.
    if out.len() > 1 {
        let first = out[0][0];
        let last = *out[out.len() - 1].last().expect("runs are never empty");
        if (first + n - last) % n <= join {
            let head = out.remove(0);
            let tail = out.last_mut().expect("two runs");
            tail.extend(cyclic(last + 1, first, n));
            tail.extend(head);
        }
    }
    out
}

/// Sample indices from `from` up to, not including, `to`, going round a loop of `n`.
fn cyclic(from: usize, to: usize, n: usize) -> impl Iterator<Item = usize> {
    let count = (to + n - from % n) % n;
    (0..count).map(move |m| (from + m) % n)
}

/// The smallest turn of the elbow of `arm` over `run` (sample indices) that clears every prop
/// by `AIM` at every sample of the run, else the one that clears most if that gains at least
/// `AIM`; in neither case may the turn, there or in its ramps, bring the elbow too far behind,
/// into the chest or its forearm into the other, bring a prop within `DETECT` of the arm in
/// a ramp, or, with the turns planned before, turn the elbow more than `MAX_TURN` or faster
/// than `1.5·MAX_RATE`.
fn best_turn(
    scene: &Scene,
    samples: &mut Samples,
    run: &[usize],
    arm: HandRef,
) -> Option<ElbowTurn> {
    let (j, side) = (arm.juggler, arm.hand);
    let period = scene.bodies[j].turn_period;
    let (n, dt) = (samples.at.len(), samples.dt);
    let (first, last) = (run[0], run[run.len() - 1]);
    let from = first as f64 * dt;
    let to = from + ((last + n - first) % n) as f64 * dt;
    let planned = scene.bodies[j].turns[side.index()].clone();
    // Clearance and fit of the arm as planned so far, per sample (made when first needed).
    let mut before: Vec<Option<(f32, Fit)>> = (0..n).map(|_| None).collect();
    let mut start = f32::INFINITY;
    for &k in run {
        let s = samples.get(scene, k);
        let pose = s.juggler(scene, j, 0.0, side);
        let c = s.clearance(arm, &pose);
        start = start.min(c);
        before[k] = Some((c, Fit::of(&pose, side)));
    }
    let mut best: Option<(ElbowTurn, f32)> = None;
    let steps = (MAX_TURN / STEP).round() as i32;
    for m in 1..=steps {
        for sign in [1.0, -1.0] {
            let angle = sign * STEP * m as f32;
            let turn = ElbowTurn {
                from,
                to,
                angle,
                ramp: ramp_for(angle),
            };
            // The run's samples, then those of the ramps on either side.
            let ramp = ((turn.ramp / dt).ceil() as usize).min(n.saturating_sub(run.len()) / 2);
            let ramps = (1..=ramp).flat_map(|r| [(first + n - r) % n, (last + r) % n]);
            let mut least = f32::INFINITY;
            let mut fits = true;
            for (k, in_run) in run
                .iter()
                .map(|&k| (k, true))
                .chain(ramps.map(|k| (k, false)))
            {
                let s = samples.get(scene, k);
                let total = |t: f64| turn_at(&planned, t, period) + turn_at(&[turn], t, period);
                let now = total(s.t);
                if now.abs() > MAX_TURN + 1e-4
                    || f64::from((total(s.t + dt) - now).abs()) > 1.5 * MAX_RATE * dt
                {
                    fits = false;
                    break;
                }
                let (was_clear, was) = before[k].get_or_insert_with(|| {
                    let pose = s.juggler(scene, j, 0.0, side);
                    (s.clearance(arm, &pose), Fit::of(&pose, side))
                });
                let pose = s.juggler(scene, j, turn_at(&[turn], s.t, period), side);
                if !Fit::of(&pose, side).keeps(was) {
                    fits = false;
                    break;
                }
                let clear = s.clearance(arm, &pose);
                if in_run {
                    least = least.min(clear);
                } else if clear < was_clear.min(DETECT) {
                    fits = false;
                    break;
                }
            }
            if !fits {
                continue;
            }
            if least >= AIM {
                return Some(turn);
            }
            if best.as_ref().is_none_or(|(_, c)| least > *c) {
                best = Some((turn, least));
            }
        }
    }
    best.filter(|&(_, c)| c >= start + AIM)
        .map(|(turn, _)| turn)
}

/// How an arm sits with the body: how far its elbow is behind the shoulders, how deep it is in
/// the chest, how far its forearm clears the other.
pub(super) struct Fit {
    pub(super) behind: f32,
    pub(super) chest: f32,
    pub(super) forearms: f32,
}

impl Fit {
    pub(super) fn of(pose: &JugglerPose, side: Hand) -> Fit {
        let local = |p: Vec3| pose.placement.to_local(p);
        let dims = &pose.dims;
        let arm = pose.arms[side.index()];
        let elbow = local(arm.elbow);
        let shoulders = 0.5 * (local(pose.arms[0].shoulder).z + local(pose.arms[1].shoulder).z);
        let half_upper = 0.5 * dims.upper_arm_width;
        // The torso is drawn as an upright capsule of radius `torso_radius` around the body's
        // axis.
        let from_axis = Vec3::new(elbow.x, 0.0, elbow.z - shoulders).length();
        let chest = (dims.torso_radius() + half_upper - from_axis).max(0.0);
        let forearms = forearms_gap(pose);
        Fit {
            behind: shoulders - elbow.z,
            chest,
            forearms,
        }
    }

    /// Whether this arm is no worse placed than `was`.
    fn keeps(&self, was: &Fit) -> bool {
        self.behind <= was.behind.max(BEHIND_LIMIT)
            && self.chest <= was.chest + 1e-4
            && self.forearms >= was.forearms.min(0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_turn_eases_in_and_out_around_its_span_across_the_loop_end() {
        let turns = [ElbowTurn {
            from: 1.9,
            to: 2.1,
            angle: 0.4,
            ramp: RAMP,
        }];
        let at = |t: f64| turn_at(&turns, t, 2.0);
        assert!((at(1.95) - 0.4).abs() < 1e-6);
        assert!((at(0.05) - 0.4).abs() < 1e-6);
        assert!((at(0.1 + 0.5 * RAMP) - 0.2).abs() < 1e-5);
        assert!((at(1.9 - 0.5 * RAMP) - 0.2).abs() < 1e-5);
        assert_eq!(at(1.0), 0.0);
    }

    #[test]
    fn hits_close_together_make_one_run_and_runs_wrap_past_the_end() {
        let hits = [
            true, false, false, false, true, true, false, false, false, false, true,
        ];
        assert_eq!(runs(&hits, 3), vec![vec![4, 5], vec![10, 0]]);
        assert_eq!(runs(&hits, 4), vec![vec![10, 0, 1, 2, 3, 4, 5]]);
        assert_eq!(runs(&hits, 5), vec![vec![4, 5, 6, 7, 8, 9, 10, 0]]);
        assert_eq!(runs(&[false; 4], 2), Vec::<Vec<usize>>::new());
        assert_eq!(runs(&[true; 3], 2), vec![vec![0, 1, 2]]);
    }
}
