//! Held clubs and rings leaned out of the way of props and bodies that pass them.
//!
//! A held club has the attitude of its hand (`body::props::held_club_axis`, turned parallel
//! to the other club where the hands meet): 48 cm of club pointing forward and up from the
//! grip; a held ring stands 25 cm across above the hand, facing the audience. Where another
//! prop passes through one (a club falling past the hand that carries its neighbour across in
//! a windmill, the other hand's club as the hands pass one above the other in Rubenstein's
//! Revenge) or it passes through an arm, the torso or a head (the other forearm sweeping
//! under a held ring in the Mills Mess), the juggler tips it aside with the wrist. The scene
//! samples its loop, finds each held club's and ring's contacts, and turns that prop about
//! its grip by the smallest angle (`ANGLES`, each of several ways) that clears everything by
//! `AIM` all through the contact, else by the one that gains most where that gains `AIM`; no
//! lean brings the prop closer to other props, or to bodies, than it was anywhere it is then
//! within `DETECT` (`SLACK` where a contact only deepens as the lean begins or ends). A lean
//! eases in and out along a raised cosine no quicker than `MAX_RATE`, within the hold: the
//! prop is in the attitude of its hand at the catch and at the throw, so flights start and
//! end as planned. A scene that repeats with its hand period, its props changing places, is
//! planned on three hand periods instead of its loop, and the leans of the middle one are
//! copied to the props in the same places in the others (`Span`). Clubs are measured as drawn
//! (`elbow_room::drawn_capsules`: a handle 1.3 cm thick in radius, a body 4.2 cm), so a
//! handle passing near another club is no contact to lean from, nor a reason to refuse a lean.

use glam::{Quat, Vec3};

use super::elbow_room::{capsule_gap, drawn_capsules, prop_capsules, runs};
use super::Scene;
use crate::body::PropPose;
use crate::layout::Placement;
use crate::motion::MotionState;
use crate::types::{Hand, HandRef, PropKind};

/// Samples per second of the loop, and the most samples a loop is planned over (a longer loop
/// keeps its props as the hands hold them).
const RATE: f64 = 160.0;
const MAX_SAMPLES: usize = 14_400;
/// The most work a plan may take: samples × (props + body parts), each a pose or a measure.
const MAX_WORK: f64 = 6.0e5;
/// The most work a plan may take in all, each pose of the scene and each measure of one prop
/// counted by the props and body parts it looks at (the heaviest of Juggling Lab's lists, the
/// library's and the vectors' take 1.4·10⁶). A scene past it (the Juggling Lab Logo: 175
/// jugglers holding clubs or rings, 6·10⁸ and minutes of planning) keeps the leans planned so
/// far, or none where finding what to lean is past it.
const MAX_SPENT: f64 = 4.0e6;
/// A held prop closer than `DETECT` to something is leaned; the lean aims for `AIM` (metres).
const DETECT: f32 = 0.0;
const AIM: f32 = 0.01;
/// How much deeper a contact may become where a lean only begins or ends (metres).
const SLACK: f32 = 0.005;
/// Leans tried, radians (smallest first), each about the axes of `turn_axes`.
const ANGLES: [f32; 10] = [0.12, 0.24, 0.36, 0.48, 0.6, 0.75, 0.9, 1.05, 1.2, 1.35];
/// Fastest turning of a prop while a lean eases in or out (radians per second), and the
/// shortest easing (seconds).
const MAX_RATE: f64 = 11.0;
const MIN_RAMP: f64 = 0.03;
/// How long a prop stays leaned before and after the contact, where its hold allows.
const LINGER: f64 = 0.02;
/// Contacts of one hold less than `JOIN` seconds apart share one lean.
const JOIN: f64 = 0.05;
/// Farthest any part of a prop of `kind` is from its centre (a club's tip 28.5 cm from the
/// pivot and its body's radius, a ring's outer rim), metres.
fn reach(kind: PropKind, size: f32) -> f32 {
    match kind {
        PropKind::Club => 0.33,
        PropKind::Ring => 0.13,
        PropKind::Ball => 0.5 * size,
    }
}

/// Whether props of `kind` lean when held (a ball looks the same turned any way).
fn leans(kind: PropKind) -> bool {
    matches!(kind, PropKind::Club | PropKind::Ring)
}

/// One planned lean of a held club or ring: turned by `turn` (an axis in the holder's own frame
/// scaled by the angle, radians) from `from` to `to` (seconds in the loop, `from ≤ to`, either
/// may lie outside the loop), eased in over `ramp_in` before and out over `ramp_out` after.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct HeldLean {
    from: f64,
    to: f64,
    ramp_in: f64,
    ramp_out: f64,
    turn: Vec3,
}

impl HeldLean {
    /// How much of the lean applies at `t` (seconds) in a loop of `period`, 0 to 1.
    fn weight(&self, t: f64, period: f64) -> f32 {
        let start = self.from - self.ramp_in;
        let s = start + (t - start).rem_euclid(period);
        let ease =
            |x: f64, r: f64| 0.5 - 0.5 * (std::f64::consts::PI * (x / r).clamp(0.0, 1.0)).cos();
        let w = if s < self.from {
            ease(s - start, self.ramp_in)
        } else if s <= self.to {
            1.0
        } else if s < self.to + self.ramp_out {
            ease(self.to + self.ramp_out - s, self.ramp_out)
        } else {
            0.0
        };
        w as f32
    }
}

/// The samples a plan is made on: `n` samples `dt` apart from `t0`. `cyclic`: they cover the
/// loop (sample `n` is sample 0 again); else a window of the loop (a scene that repeats with
/// the hand period is planned on three of them and its leans copied to the props that take
/// the same places in the others).
#[derive(Clone, Copy)]
struct Span {
    t0: f64,
    dt: f64,
    n: usize,
    cyclic: bool,
}

impl Span {
    fn time(self, k: usize) -> f64 {
        self.t0 + k as f64 * self.dt
    }

    /// Sample `k` moved by `by` samples: round the loop, or `None` outside the window.
    fn step(self, k: usize, by: i64) -> Option<usize> {
        let to = k as i64 + by;
        if self.cyclic {
            Some(to.rem_euclid(self.n as i64) as usize)
        } else {
            (0..self.n as i64).contains(&to).then_some(to as usize)
        }
    }

    /// Samples from `first` to `last` (going round the loop where cyclic).
    fn between(self, first: usize, last: usize) -> usize {
        if self.cyclic {
            (last + self.n - first) % self.n
        } else {
            last.saturating_sub(first)
        }
    }
}

/// The turn (holder's frame, scaled axis) of the leans `leans` at `t` in a loop of `period`.
pub(super) fn lean_at(leans: &[HeldLean], t: f64, period: f64) -> Vec3 {
    if !(period.is_finite() && period > 0.0) {
        return Vec3::ZERO;
    }
    leans
        .iter()
        .map(|l| l.turn * l.weight(t, period))
        .fold(Vec3::ZERO, |a, b| a + b)
}

/// A direction or offset `v` (world) of a prop held by a juggler placed at `place`, turned
/// by `turn` (in that juggler's frame).
pub(super) fn turned(v: Vec3, turn: Vec3, place: &Placement) -> Vec3 {
    if turn == Vec3::ZERO {
        return v;
    }
    let local = place.to_local(place.position + v);
    place.rotate(Quat::from_scaled_axis(turn) * local)
}

/// The axes (unit, holder's frame) a held prop whose axis is `axis` there is leaned about: a
/// club about eight axes across its length (its tip tipped eight ways); a ring about its
/// normal and about the vertical of its plane, either way (swung sideways in its plane
/// about the grip, or turned a little away from facing the audience: it stays upright).
fn turn_axes(kind: PropKind, axis: Vec3) -> Vec<Vec3> {
    if kind == PropKind::Club {
        let e1 = axis.cross(Vec3::X).normalize_or(Vec3::Y);
        let e2 = axis.cross(e1).normalize_or(Vec3::Z);
        (0..8)
            .map(|d| {
                let phi = std::f32::consts::TAU * d as f32 / 8.0;
                e1 * phi.cos() + e2 * phi.sin()
            })
            .collect()
    } else {
        let n = axis.normalize_or(Vec3::Z);
        let up = n.cross(Vec3::Y.cross(n).normalize_or(Vec3::X));
        [n, up].into_iter().flat_map(|a| [a, -a]).collect()
    }
}

/// Plans the leans of every held club and ring of `scene` (stored in `scene.held_leans`);
/// the work it took (`MAX_SPENT`).
pub(super) fn plan(scene: &mut Scene) -> f64 {
    let props = scene.props();
    scene.held_leans = vec![Vec::new(); props];
    if !(0..props).any(|i| leans(scene.kind(i))) {
        return 0.0;
    }
    let period = scene.loop_duration();
    if !(period.is_finite() && period > 0.0) {
        return 0.0;
    }
    // A scene that repeats with its hand period, props changing places (three jugglers
    // passing repeat 15 times a loop), is planned on three hand periods, the middle one's
    // contacts leaned and the leans copied to the other periods.
    let hand = scene.elbow_period(true);
    let repeats = (period / hand).round();
    let span = if repeats >= 4.0 && (period / hand - repeats).abs() < 1e-6 {
        let per_hand = (hand * 2.0 * RATE).ceil().max(2.0);
        let dt = hand / per_hand;
        Span {
            t0: -hand,
            dt,
            n: 3 * per_hand as usize,
            cyclic: false,
        }
    } else {
        let n = (period * RATE).ceil().max(2.0);
        Span {
            t0: 0.0,
            dt: period / n,
            n: n as usize,
            cyclic: true,
        }
    };
    // The loop's samples bound the copies too (each prop's leans are read at every pose).
    let parts = props + 6 * scene.motion.jugglers();
    if !(period * RATE <= MAX_SAMPLES as f64 && span.n as f64 * parts as f64 <= MAX_WORK) {
        return 0.0;
    }
    let (n, dt) = (span.n, span.dt);
    let spent = std::cell::Cell::new(0.0);
    // Per prop: its hold at each sample (a number that changes from one hold to the next) and
    // whether it touches something there.
    let mut holds: Vec<Vec<Option<u32>>> = vec![Vec::new(); props];
    let mut hits: Vec<Vec<bool>> = vec![Vec::new(); props];
    let mut count = vec![0u32; props];
    let mut last: Vec<Option<(HandRef, f64)>> = vec![None; props];
    for k in 0..n {
        // Made and dropped one at a time: memory does not grow with the loop.
        if spent.get() > MAX_SPENT {
            return spent.get();
        }
        let m = Moment::new(scene, span.time(k), &spent);
        for c in 0..props {
            let state = &m.state.props[c];
            let held = state
                .held_by
                .filter(|_| state.flight.is_none() && leans(scene.kind(c)));
            let hold = held.map(|by| {
                let progress = state.dwell_progress;
                if last[c].is_none_or(|(h, p)| h != by || progress < p) {
                    count[c] += 1;
                }
                last[c] = Some((by, progress));
                count[c]
            });
            if held.is_none() {
                last[c] = None;
            }
            holds[c].push(hold);
            hits[c].push(hold.is_some() && m.clearance(c, &m.props[c], &spent).least() < DETECT);
        }
    }
    // A hold running through the loop's end goes on at its start: held by one hand at the
    // last sample and the first, the dwell going on.
    if span.cyclic {
        let (end, start) = (
            scene.motion.state_at(span.time(n - 1)),
            scene.motion.state_at(0.0),
        );
        for (c, h) in holds.iter_mut().enumerate() {
            let (a, b) = (&end.props[c], &start.props[c]);
            let same = a.held_by.is_some()
                && a.held_by == b.held_by
                && b.dwell_progress >= a.dwell_progress;
            if let (Some(Some(first)), Some(Some(last))) = (h.first().copied(), h.last().copied()) {
                if first != last && same {
                    for v in h.iter_mut().take_while(|v| **v == Some(first)) {
                        *v = Some(last);
                    }
                }
            }
        }
    }
    let join = (JOIN / dt).ceil() as usize;
    for c in 0..props {
        if !hits[c].iter().any(|&h| h) {
            continue;
        }
        for run in runs(&hits[c], join) {
            // In a window, only the contacts that begin in its middle hand period.
            if !span.cyclic && !(n / 3..2 * n / 3).contains(&run[0]) {
                continue;
            }
            // One lean per hold the run passes through.
            let mut pieces: Vec<Vec<usize>> = Vec::new();
            let mut current: Option<u32> = None;
            for k in run {
                match holds[c][k] {
                    Some(h) if Some(h) == current => {
                        if let Some(p) = pieces.last_mut() {
                            p.push(k);
                        }
                    }
                    Some(h) => {
                        current = Some(h);
                        pieces.push(vec![k]);
                    }
                    None => current = None,
                }
            }
            for piece in pieces {
                if spent.get() > MAX_SPENT {
                    return spent.get();
                }
                if let Some(lean) = best_lean(scene, &holds[c], &piece, (c, span), &spent) {
                    scene.held_leans[c].push(lean);
                    if !span.cyclic {
                        copy_to_other_periods(scene, c, lean, span.time(piece[0]), hand);
                    }
                }
            }
        }
    }
    spent.get()
}

/// Copies `lean`, planned for prop `c` around `at` (seconds), to the props that take `c`'s
/// place in its hand one, two, ... hand periods later (the scene repeats with `hand`, its
/// props changing places), each to the prop held there nearest to where `c` was.
fn copy_to_other_periods(scene: &mut Scene, c: usize, lean: HeldLean, at: f64, hand: f64) {
    let period = scene.loop_duration();
    let now = scene.motion.state_at(scene.loop_time(at));
    let (Some(by), place) = (now.props[c].held_by, now.props[c].position) else {
        return;
    };
    let repeats = (period / hand).round() as usize;
    for m in 1..repeats {
        let shift = m as f64 * hand;
        let then = scene.motion.state_at(scene.loop_time(at + shift));
        let nearest = then
            .props
            .iter()
            .enumerate()
            .filter(|(_, p)| p.held_by == Some(by) && p.flight.is_none())
            .min_by(|(_, p), (_, q)| {
                p.position
                    .distance(place)
                    .total_cmp(&q.position.distance(place))
            });
        if let Some((other, p)) = nearest {
            if other != c && p.position.distance(place) < 0.01 {
                scene.held_leans[other].push(HeldLean {
                    from: lean.from + shift,
                    to: lean.to + shift,
                    ..lean
                });
            }
        }
    }
}

/// The lean of held prop `c` over `piece` (sample indices in one hold, `holds` its holds per
/// sample) that clears everything by `AIM` with the smallest angle, else the one that clears
/// most if that gains `AIM`.
fn best_lean(
    scene: &mut Scene,
    holds: &[Option<u32>],
    piece: &[usize],
    (c, span): (usize, Span),
    spent: &std::cell::Cell<f64>,
) -> Option<HeldLean> {
    let (n, dt) = (span.n, span.dt);
    let hold = holds[piece[0]];
    let (first, last) = (piece[0], piece[piece.len() - 1]);
    // The hold's samples before and after the piece.
    let same = |k: usize, by: i64| span.step(k, by).is_some_and(|k| holds[k] == hold);
    let before = (1..n).take_while(|&r| same(first, -(r as i64))).count();
    let after = (1..n).take_while(|&r| same(last, r as i64)).count();
    let len = span.between(first, last);
    let run_start = span.time(first);
    let run_end = run_start + len as f64 * dt;
    // A prop held all through the loop (never thrown) eases in and out within one loop around
    // the contact (its hold has no ends: the lean may not be longer than the loop).
    let (a, b) = if span.cyclic && before + len + after + 1 >= n {
        let gap = 0.5 * (n as f64 * dt - (run_end - run_start));
        (run_start - gap, run_end + gap)
    } else {
        (run_start - before as f64 * dt, run_end + after as f64 * dt)
    };
    if b - a < 2.0 * MIN_RAMP {
        return None;
    }
    let mut moments: Vec<Option<Moment>> = (0..n).map(|_| None).collect();
    // The prop's clearance as planned so far, at each sample of the hold.
    let mut base: Vec<Option<Clearance>> = vec![None; n];
    let mut start = f32::INFINITY;
    for &k in piece {
        let m = moments[k].get_or_insert_with(|| Moment::new(scene, span.time(k), spent));
        let clear = m.clearance(c, &m.props[c], spent);
        base[k] = Some(clear);
        start = start.min(clear.least());
    }
    // Cleared meanwhile (a prop leaned before this one, away from it).
    if start >= DETECT {
        return None;
    }
    // The axes to lean about, from the prop's axis in its holder's frame at the piece's
    // middle.
    let mid = piece[piece.len() / 2];
    let (axes, holder) = {
        let m = moments[mid].get_or_insert_with(|| Moment::new(scene, span.time(mid), spent));
        let by = m.props[c].held_by?;
        let place = m.placements.get(by.juggler)?;
        let axis = place.to_local(place.position + m.props[c].axis);
        (turn_axes(m.props[c].kind, axis), by)
    };
    // The smallest angle that clears in full, else the lean that gains most.
    let mut best: Option<(HeldLean, f32)> = None;
    for angle in ANGLES {
        let mut found: Option<(HeldLean, f32)> = None;
        for &about in &axes {
            let turn = about * angle;
            let lean = window(turn, (a, b), (run_start, run_end));
            if spent.get() > MAX_SPENT {
                return None;
            }
            let Some(trial) = try_lean(
                scene,
                (&mut moments, &mut base),
                (c, holder),
                lean,
                span,
                spent,
            ) else {
                continue;
            };
            if trial.full >= AIM && found.as_ref().is_none_or(|(_, l)| trial.full > *l) {
                found = Some((lean, trial.full));
            }
            if best.as_ref().is_none_or(|(_, g)| trial.gain > *g) {
                best = Some((lean, trial.gain));
            }
        }
        if let Some((lean, _)) = found {
            return Some(lean);
        }
    }
    best.filter(|&(_, gain)| gain >= AIM).map(|(lean, _)| lean)
}

/// A lean by `turn` over the contact `run_start..run_end`, lingering around it and easing in
/// and out within the hold `a..b`.
fn window(turn: Vec3, (a, b): (f64, f64), (run_start, run_end): (f64, f64)) -> HeldLean {
    let ramp = (f64::from(turn.length()) * std::f64::consts::FRAC_PI_2 / MAX_RATE)
        .max(MIN_RAMP)
        .min(0.5 * (b - a));
    // (`max`/`min`, not `clamp`: a + ramp may round past b − ramp.)
    let (lo, hi) = (a + ramp, (b - ramp).max(a + ramp));
    let from = (run_start - LINGER).max(lo).min(hi);
    let to = (run_end + LINGER).max(from).min(hi);
    HeldLean {
        from,
        to,
        ramp_in: ramp,
        ramp_out: ramp,
        turn,
    }
}

/// What a lean does to a held prop's clearance: the least where it leans in full, and how much it
/// raises the least over all the time it takes (easing in and out too).
struct Trial {
    full: f32,
    gain: f32,
}

/// Prop `c` (held by `holder`) leaned by `lean`, or `None` where that brings it closer to the
/// other props, or to the bodies, than it was anywhere it is then within `DETECT` (a lean
/// trades no contact for another).
fn try_lean(
    scene: &mut Scene,
    (moments, base): (&mut [Option<Moment>], &mut [Option<Clearance>]),
    (c, holder): (usize, HandRef),
    lean: HeldLean,
    span: Span,
    spent: &std::cell::Cell<f64>,
) -> Option<Trial> {
    let dt = span.dt;
    let period = scene.loop_duration();
    let k0 = ((lean.from - lean.ramp_in - span.t0) / dt).ceil() as i64;
    let k1 = ((lean.to + lean.ramp_out - span.t0) / dt).floor() as i64;
    let (mut full, mut all, mut all_before) = (f32::INFINITY, f32::INFINITY, f32::INFINITY);
    scene.held_leans[c].push(lean);
    let mut fits = true;
    for kk in k0..=k1 {
        let Some(k) = span.step(0, kk) else {
            continue;
        };
        let t = span.t0 + kk as f64 * dt;
        let m = moments[k].get_or_insert_with(|| Moment::new(scene, span.time(k), spent));
        if m.props[c].held_by != Some(holder) {
            continue;
        }
        let club = scene.prop_pose(c, &m.state, &m.placements);
        let clear = m.clearance(c, &club, spent);
        let was = *base[k].get_or_insert_with(|| m.clearance(c, &m.props[c], spent));
        if clear.props < was.props.min(DETECT) - SLACK
            || clear.bodies < was.bodies.min(DETECT) - SLACK
        {
            fits = false;
            break;
        }
        let (clear, was) = (clear.least(), was.least());
        if [t, t + period, t - period]
            .iter()
            .any(|t| (lean.from..=lean.to).contains(t))
        {
            full = full.min(clear);
        }
        all = all.min(clear);
        all_before = all_before.min(was);
    }
    scene.held_leans[c].pop();
    (fits && full.is_finite()).then_some(Trial {
        full,
        gain: all - all_before,
    })
}

/// A held prop's least clearance (metres) from the other props and from the bodies.
#[derive(Clone, Copy, Debug)]
struct Clearance {
    props: f32,
    bodies: f32,
}

impl Clearance {
    fn least(self) -> f32 {
        self.props.min(self.bodies)
    }
}

/// One sampled instant of the scene: the motion, where the jugglers stand, every prop as
/// planned so far, and each juggler's arms, torso and head as capsules.
struct Moment {
    state: MotionState,
    placements: Vec<Placement>,
    props: Vec<PropPose>,
    /// Per juggler: left upper arm, left forearm, right upper arm, right forearm, torso,
    /// head (segment ends, radius).
    bodies: Vec<[(Vec3, Vec3, f32); 6]>,
}

impl Moment {
    /// The scene at `t`, its cost (the props and body parts posed) added to `spent`.
    fn new(scene: &Scene, t: f64, spent: &std::cell::Cell<f64>) -> Moment {
        spent.set(spent.get() + (scene.props() + 6 * scene.motion.jugglers()) as f64);
        let t = scene.loop_time(t);
        let state = scene.motion.state_at(t);
        let pose = scene.pose_of(t, &state);
        let bodies = pose
            .jugglers
            .iter()
            .map(|j| {
                let d = &j.dims;
                let [l, r] = j.arms;
                let hips = 0.5 * (j.hips[0] + j.hips[1]);
                [
                    (l.shoulder, l.elbow, 0.5 * d.upper_arm_width),
                    (l.elbow, l.hand, 0.5 * d.forearm_width),
                    (r.shoulder, r.elbow, 0.5 * d.upper_arm_width),
                    (r.elbow, r.hand, 0.5 * d.forearm_width),
                    (j.neck, hips, d.torso_radius()),
                    (j.head, j.head, d.head_radius()),
                ]
            })
            .collect();
        Moment {
            placements: pose.jugglers.iter().map(|j| j.placement).collect(),
            props: pose.props,
            bodies,
            state,
        }
    }

    /// Least clearance (metres) of `held` (prop `c`, held) from the other props and from the
    /// bodies, except the arm that holds it; its cost (the props and body parts looked at)
    /// added to `spent`.
    fn clearance(&self, c: usize, held: &PropPose, spent: &std::cell::Cell<f64>) -> Clearance {
        spent.set(spent.get() + (self.props.len() + 6 * self.bodies.len()) as f64);
        let mut clear = Clearance {
            props: f32::INFINITY,
            bodies: f32::INFINITY,
        };
        let Some(by) = held.held_by else {
            return clear;
        };
        // Clubs as drawn (thin handles), where the capsule of the widest radius that holds
        // one comes near.
        let caps = drawn_capsules(held);
        let widest = (held.kind == PropKind::Club).then(|| prop_capsules(held));
        let whole = widest.as_deref().unwrap_or(&caps);
        let held_reach = reach(held.kind, held.size);
        let gap = |a: &[(Vec3, Vec3, f32)], b: &[(Vec3, Vec3, f32)]| {
            a.iter()
                .flat_map(|p| b.iter().map(move |q| capsule_gap(p, q)))
                .fold(f32::INFINITY, f32::min)
        };
        for (j, prop) in self.props.iter().enumerate() {
            if j == c {
                continue;
            }
            let far =
                prop.position.distance(held.position) - held_reach - reach(prop.kind, prop.size);
            if far > clear.props.min(0.05) {
                continue;
            }
            let theirs = prop_capsules(prop);
            let clubs = held.kind == PropKind::Club || prop.kind == PropKind::Club;
            if clubs && gap(whole, &theirs) > clear.props.min(0.05) {
                continue;
            }
            let theirs = if prop.kind == PropKind::Club {
                drawn_capsules(prop)
            } else {
                theirs
            };
            clear.props = clear.props.min(gap(&caps, &theirs));
        }
        for (j, parts) in self.bodies.iter().enumerate() {
            for (k, part) in parts.iter().enumerate() {
                let own_arm = j == by.juggler
                    && k < 4
                    && (k / 2 == Hand::Left.index()) == (by.hand == Hand::Left);
                // A sphere about the part's middle holds it: further than the least so far
                // (or than 5 cm) from the prop's, it cannot lower it.
                let half = 0.5 * part.0.distance(part.1) + part.2;
                let far = (0.5 * (part.0 + part.1)).distance(held.position) - half - held_reach;
                if own_arm || far > clear.bodies.min(0.05) {
                    continue;
                }
                let part = std::slice::from_ref(part);
                if held.kind == PropKind::Club && gap(whole, part) > clear.bodies.min(0.05) {
                    continue;
                }
                clear.bodies = clear.bodies.min(gap(&caps, part));
            }
        }
        clear
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lean_eases_in_and_out_around_its_span_across_the_loop_end() {
        let lean = HeldLean {
            from: 1.9,
            to: 2.1,
            ramp_in: 0.1,
            ramp_out: 0.05,
            turn: Vec3::X * 0.4,
        };
        let at = |t: f64| lean_at(&[lean], t, 2.0).x;
        assert!((at(1.95) - 0.4).abs() < 1e-6);
        assert!((at(0.05) - 0.4).abs() < 1e-6);
        assert!((at(1.85) - 0.2).abs() < 1e-5);
        assert!((at(0.125) - 0.2).abs() < 1e-5);
        assert_eq!(at(1.0), 0.0);
        assert_eq!(at(1.8), 0.0);
        assert_eq!(at(0.15), 0.0);
    }

    /// Sixty jugglers each holding two rings: finding what to lean measures every held ring
    /// against everything at every sample, 9·10⁶ of work; the plan stops within a sample's
    /// work of its budget (the Juggling Lab Logo, 175 jugglers holding rings against each
    /// other, took minutes to plan before it had one).
    #[test]
    fn planning_leans_stops_at_its_budget() {
        let jugglers = vec!["(2,2)"; 60].join("|");
        let spec = crate::spec::PatternSpec::parse(&format!("pattern=<{jugglers}>;prop=ring"))
            .expect("a settings string");
        let mut scene = Scene::new(&spec).expect("valid pattern");
        let spent = plan(&mut scene);
        let parts = (scene.props() + 6 * scene.motion.jugglers()) as f64;
        let sample = parts * (1.0 + scene.props() as f64);
        assert!(
            spent > MAX_SPENT && spent <= MAX_SPENT + sample,
            "spent {spent}, budget {MAX_SPENT}, a sample {sample}"
        );
    }
}
