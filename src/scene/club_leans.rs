//! Held clubs leaned out of the way of props and bodies that pass them.
//!
//! A held club has the attitude of its hand (`body::props::held_club_axis`, turned parallel
//! to the other club where the hands meet): 48 cm of club pointing forward and up from the
//! grip. Where another prop passes through it (a club falling past the hand that carries its
//! neighbour across in a windmill, the other hand's club as the hands pass one above the
//! other in Rubenstein's Revenge) or it passes through an arm, the torso or a head, the
//! juggler tips it aside with the wrist. The scene samples its loop, finds each held club's
//! contacts, and leans that club about its grip by the smallest angle (`ANGLES`, in any of
//! `DIRECTIONS` ways) that clears everything by `AIM` all through the contact, else by the one
//! that clears most where that gains `AIM`; a lean may not bring anything within `DETECT`
//! of the club while it eases in or out. A lean eases in and out along a raised cosine no
//! quicker than `MAX_RATE`, within the hold: the club is in the attitude of its hand at the
//! catch and at the throw, so flights start and end as planned.

use glam::{Quat, Vec3};

use super::elbow_room::{prop_capsules, runs};
use super::Scene;
use crate::body::PropPose;
use crate::layout::Placement;
use crate::motion::{segments_distance, MotionState};
use crate::types::{Hand, HandRef, PropKind};

/// Samples per second of the loop, and the most samples a loop is planned over (a longer loop
/// keeps its clubs as the hands hold them).
const RATE: f64 = 240.0;
const MAX_SAMPLES: usize = 14_400;
/// The most work a plan may take: samples × (props + body parts), each a pose or a measure.
const MAX_WORK: f64 = 2.0e6;
/// A held club closer than `DETECT` to something is leaned; the lean aims for `AIM` (metres).
const DETECT: f32 = 0.0;
const AIM: f32 = 0.01;
/// How much deeper a contact may become where a lean only begins or ends (metres).
const SLACK: f32 = 0.005;
/// Leans tried, radians (smallest first), each in `DIRECTIONS` directions around the club.
const ANGLES: [f32; 5] = [0.12, 0.24, 0.36, 0.48, 0.6];
const DIRECTIONS: usize = 8;
/// Fastest turning of a club while a lean eases in or out (radians per second), and the
/// shortest easing (seconds).
const MAX_RATE: f64 = 8.0;
const MIN_RAMP: f64 = 0.03;
/// How long a club stays leaned before and after the contact, where its hold allows.
const LINGER: f64 = 0.02;
/// Contacts of one hold less than `JOIN` seconds apart share one lean.
const JOIN: f64 = 0.05;
/// Farthest any part of a held club is from its pivot (the tip, 28.5 cm, and the body's
/// radius), metres.
const CLUB_REACH: f32 = 0.33;

/// One planned lean of a held club: turned by `turn` (an axis in the holder's own frame
/// scaled by the angle, radians) from `from` to `to` (seconds in the loop, `from ≤ to`, either
/// may lie outside the loop), eased in over `ramp_in` before and out over `ramp_out` after.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct ClubLean {
    from: f64,
    to: f64,
    ramp_in: f64,
    ramp_out: f64,
    turn: Vec3,
}

impl ClubLean {
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

/// The turn (holder's frame, scaled axis) of the leans `leans` at `t` in a loop of `period`.
pub(super) fn lean_at(leans: &[ClubLean], t: f64, period: f64) -> Vec3 {
    if !(period.is_finite() && period > 0.0) {
        return Vec3::ZERO;
    }
    leans
        .iter()
        .map(|l| l.turn * l.weight(t, period))
        .fold(Vec3::ZERO, |a, b| a + b)
}

/// `axis` (world) of a club held by a juggler placed at `place`, turned by `turn`.
pub(super) fn leaned(axis: Vec3, turn: Vec3, place: &Placement) -> Vec3 {
    if turn == Vec3::ZERO {
        return axis;
    }
    let local = place.to_local(place.position + axis);
    place
        .rotate(Quat::from_scaled_axis(turn) * local)
        .normalize_or(axis)
}

/// Plans the leans of every held club of `scene` (stored in `scene.club_leans`).
pub(super) fn plan(scene: &mut Scene) {
    let props = scene.props();
    scene.club_leans = vec![Vec::new(); props];
    if !(0..props).any(|i| scene.kind(i) == PropKind::Club) {
        return;
    }
    let period = scene.loop_duration();
    if !(period.is_finite() && period > 0.0) {
        return;
    }
    let wanted = (period * RATE).ceil();
    let parts = props + 6 * scene.motion.jugglers();
    if !(wanted <= MAX_SAMPLES as f64 && wanted * parts as f64 <= MAX_WORK) {
        return;
    }
    let n = (wanted as usize).max(2);
    let dt = period / n as f64;
    // Per club: its hold at each sample (a number that changes from one hold to the next) and
    // whether it touches something there.
    let mut holds: Vec<Vec<Option<u32>>> = vec![Vec::new(); props];
    let mut hits: Vec<Vec<bool>> = vec![Vec::new(); props];
    let mut count = vec![0u32; props];
    let mut last: Vec<Option<(HandRef, f64)>> = vec![None; props];
    for k in 0..n {
        // Made and dropped one at a time: memory does not grow with the loop.
        let m = Moment::new(scene, k as f64 * dt);
        for c in 0..props {
            let state = &m.state.props[c];
            let held = state
                .held_by
                .filter(|_| state.flight.is_none() && scene.kind(c) == PropKind::Club);
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
            hits[c].push(hold.is_some() && m.clearance(scene, c, &m.props[c]).least() < DETECT);
        }
    }
    // A hold running through the loop's end goes on at its start.
    for (c, h) in holds.iter_mut().enumerate() {
        if let (Some(Some(first)), Some(Some(end))) = (h.first().copied(), h.last().copied()) {
            if first != end && same_hold_round_the_end(scene, c, n, dt) {
                for v in h.iter_mut().take_while(|v| **v == Some(first)) {
                    *v = Some(end);
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
                if let Some(lean) = best_lean(scene, &holds[c], &piece, c, (n, dt)) {
                    scene.club_leans[c].push(lean);
                }
            }
        }
    }
}

/// Whether club `c` is in one hold across the loop's end (held by one hand at its last sample
/// and its first, the dwell going on).
fn same_hold_round_the_end(scene: &Scene, c: usize, n: usize, dt: f64) -> bool {
    let end = scene.motion.state_at((n - 1) as f64 * dt);
    let start = scene.motion.state_at(0.0);
    let (a, b) = (&end.props[c], &start.props[c]);
    a.held_by.is_some() && a.held_by == b.held_by && b.dwell_progress >= a.dwell_progress
}

/// The lean of club `c` over `piece` (sample indices in one hold, `holds` its holds per
/// sample) that clears everything by `AIM` with the smallest angle, else the one that clears
/// most if that gains `AIM`.
fn best_lean(
    scene: &mut Scene,
    holds: &[Option<u32>],
    piece: &[usize],
    c: usize,
    (n, dt): (usize, f64),
) -> Option<ClubLean> {
    let hold = holds[piece[0]];
    let (first, last) = (piece[0], piece[piece.len() - 1]);
    // The hold's samples before and after the piece.
    let before = (1..n)
        .take_while(|&r| holds[(first + n - r) % n] == hold)
        .count();
    let after = (1..n)
        .take_while(|&r| holds[(last + r) % n] == hold)
        .count();
    let len = (last + n - first) % n;
    let run_start = first as f64 * dt;
    let run_end = run_start + len as f64 * dt;
    let (a, b) = (run_start - before as f64 * dt, run_end + after as f64 * dt);
    if b - a < 2.0 * MIN_RAMP {
        return None;
    }
    let mut moments: Vec<Option<Moment>> = (0..n).map(|_| None).collect();
    // The club's clearance as planned so far, at each sample of the hold.
    let mut base: Vec<Option<Clearance>> = vec![None; n];
    let mut start = f32::INFINITY;
    for &k in piece {
        let m = moments[k].get_or_insert_with(|| Moment::new(scene, k as f64 * dt));
        let clear = m.clearance(scene, c, &m.props[c]);
        base[k] = Some(clear);
        start = start.min(clear.least());
    }
    // Cleared meanwhile (a club leaned before this one, away from it).
    if start >= DETECT {
        return None;
    }
    // Directions around the club's own axis, in its holder's frame, at the piece's middle.
    let mid = piece[piece.len() / 2];
    let (axis, holder) = {
        let m = moments[mid].get_or_insert_with(|| Moment::new(scene, mid as f64 * dt));
        let by = m.props[c].held_by?;
        let place = m.placements.get(by.juggler)?;
        (place.to_local(place.position + m.props[c].axis), by)
    };
    let e1 = axis.cross(Vec3::X).normalize_or(Vec3::Y);
    let e2 = axis.cross(e1).normalize_or(Vec3::Z);
    // The smallest angle that clears in full, else the lean that gains most.
    let mut best: Option<(ClubLean, f32)> = None;
    for angle in ANGLES {
        let mut found: Option<(ClubLean, f32)> = None;
        for d in 0..DIRECTIONS {
            let phi = std::f32::consts::TAU * d as f32 / DIRECTIONS as f32;
            let turn = (e1 * phi.cos() + e2 * phi.sin()) * angle;
            let lean = window(turn, (a, b), (run_start, run_end));
            let Some(trial) = try_lean(scene, &mut moments, &mut base, c, holder, lean, (n, dt))
            else {
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
fn window(turn: Vec3, (a, b): (f64, f64), (run_start, run_end): (f64, f64)) -> ClubLean {
    let ramp = (f64::from(turn.length()) * std::f64::consts::FRAC_PI_2 / MAX_RATE)
        .max(MIN_RAMP)
        .min(0.5 * (b - a));
    let from = (run_start - LINGER).clamp(a + ramp, b - ramp);
    let to = (run_end + LINGER).clamp(from, b - ramp);
    ClubLean {
        from,
        to,
        ramp_in: ramp,
        ramp_out: ramp,
        turn,
    }
}

/// What a lean does to a club's clearance: the least where it leans in full, and how much it
/// raises the least over all the time it takes (easing in and out too).
struct Trial {
    full: f32,
    gain: f32,
}

/// Club `c` (held by `holder`) leaned by `lean`, or `None` where that brings it closer to the
/// other props, or to the bodies, than it was anywhere it is then within `DETECT` (a lean
/// trades no contact for another).
fn try_lean(
    scene: &mut Scene,
    moments: &mut [Option<Moment>],
    base: &mut [Option<Clearance>],
    c: usize,
    holder: HandRef,
    lean: ClubLean,
    (n, dt): (usize, f64),
) -> Option<Trial> {
    let period = n as f64 * dt;
    let k0 = ((lean.from - lean.ramp_in) / dt).ceil() as i64;
    let k1 = ((lean.to + lean.ramp_out) / dt).floor() as i64;
    let (mut full, mut all, mut all_before) = (f32::INFINITY, f32::INFINITY, f32::INFINITY);
    scene.club_leans[c].push(lean);
    let mut fits = true;
    for kk in k0..=k1 {
        let k = kk.rem_euclid(n as i64) as usize;
        let t = kk as f64 * dt;
        let m = moments[k].get_or_insert_with(|| Moment::new(scene, k as f64 * dt));
        if m.props[c].held_by != Some(holder) {
            continue;
        }
        let club = scene.prop_pose(c, &m.state, &m.placements);
        let clear = m.clearance(scene, c, &club);
        let was = *base[k].get_or_insert_with(|| m.clearance(scene, c, &m.props[c]));
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
    scene.club_leans[c].pop();
    (fits && full.is_finite()).then_some(Trial {
        full,
        gain: all - all_before,
    })
}

/// A held club's least clearance (metres) from the other props and from the bodies.
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
    fn new(scene: &Scene, t: f64) -> Moment {
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

    /// Least clearance (metres) of `club` (prop `c`, held) from the other props and from the
    /// bodies, except the arm that holds it.
    fn clearance(&self, scene: &Scene, c: usize, club: &PropPose) -> Clearance {
        let mut clear = Clearance {
            props: f32::INFINITY,
            bodies: f32::INFINITY,
        };
        let Some(by) = club.held_by else {
            return clear;
        };
        let caps = prop_capsules(club);
        let distance = |p: &(Vec3, Vec3, f32), q: &(Vec3, Vec3, f32)| {
            segments_distance(
                p.0.as_dvec3(),
                p.1.as_dvec3(),
                q.0.as_dvec3(),
                q.1.as_dvec3(),
            ) as f32
                - p.2
                - q.2
        };
        for (j, prop) in self.props.iter().enumerate() {
            if j == c {
                continue;
            }
            let reach = match scene.kind(j) {
                PropKind::Club => CLUB_REACH,
                PropKind::Ring => 0.13,
                PropKind::Ball => 0.5 * prop.size,
            };
            if prop.position.distance(club.position) - CLUB_REACH - reach > clear.props.min(0.05) {
                continue;
            }
            for q in prop_capsules(prop) {
                clear.props = clear.props.min(distance(&caps[0], &q));
            }
        }
        for (j, parts) in self.bodies.iter().enumerate() {
            for (k, part) in parts.iter().enumerate() {
                let own_arm = j == by.juggler
                    && k < 4
                    && (k / 2 == Hand::Left.index()) == (by.hand == Hand::Left);
                if own_arm {
                    continue;
                }
                clear.bodies = clear.bodies.min(distance(&caps[0], part));
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
        let lean = ClubLean {
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
}
