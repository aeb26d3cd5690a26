//! Elbows kept from going far behind the shoulders.
//!
//! The body places an elbow from its hand alone (`body::elbow`): on the circle of seed 000,
//! turned out by the body's swivel and, where that is behind the shoulders, opened outward.
//! Where a hand is far out to the side (Juggling Lab's event files put hands 45–50 cm out,
//! 20–30 cm outward of the shoulder) the circle's backmost point lies outward of that elbow,
//! so opening outward takes it further back, up to 10 cm behind. Inward of that point the
//! elbow could hang under the shoulder, but closer in that side is in the chest, and an elbow
//! gets from one side of the backmost point to the other only by passing it (or over the top):
//! which side to take depends on the whole loop.
//!
//! So the scene plans, for each arm whose elbow the body puts more than `TRIGGER` behind, a
//! turn of the elbow on its circle over the whole loop, or one hand period where the hands and
//! the jugglers' places repeat with it (`Scene::elbow_period`; `BodyMotion::forward`, after the
//! wing): sampled `RATE` times a second, one of the turns `−MOST..=MOST` in steps of `STEP` at
//! each sample, changing by at most one step from a sample to the next (`STEP·RATE` radians
//! per second). Dynamic programming around the loop picks the turns of least total cost (an
//! elbow behind `AIM`, deeper in the chest or the other forearm than the body puts it, lifted
//! above where the body puts it, or turned at all: see `costs`). Between samples the turn
//! follows a cyclic Catmull-Rom curve, so the elbow moves smoothly. Other arms keep the
//! body's elbows exactly.

use glam::Vec3;

use super::elbow_room::Fit;
use super::Scene;
use crate::body::juggler::juggler_pose_moving;
use crate::layout::Placement;
use crate::types::Hand;

/// How far behind the shoulders' frontal plane (metres) an elbow may go before its arm is
/// planned, and how far behind the plan aims to keep it.
const TRIGGER: f32 = 0.045;
const AIM: f32 = 0.035;
/// Samples per second of the plan, and instants each sample's cost is measured at (the
/// sample and evenly between it and the next).
const RATE: f64 = 20.0;
const SUB: usize = 2;
/// Turn step (radians) and the largest turn either way.
const STEP: f32 = 0.1;
const MOST: f32 = 2.0;
/// The most samples a loop is planned over, and the most arm poses the plan may make
/// (a longer loop or a larger scene keeps its elbows as the body puts them).
const MAX_SAMPLES: usize = 1600;
const MAX_POSES: usize = 200_000;

/// Cost per squared centimetre an elbow is behind past `TRIGGER`.
const PAST: f32 = 80.0;
/// Cost per centimetre an elbow is lifted above where the body puts it.
const LIFT: f32 = 0.5;
/// Cost per squared radian of turn.
const TURN: f32 = 0.5;
/// How many steps either way of none the turn at the loop's cheapest sample may be.
const START_BINS: usize = 5;
/// Cost of changing the turn by one step between samples.
const STEP_COST: f32 = 0.05;

/// A planned forward turn of one elbow: the turn at `at.len()` samples `dt` apart around the
/// loop (empty: none).
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct ForwardTurn {
    dt: f64,
    at: Vec<f32>,
}

impl ForwardTurn {
    /// The turn (radians, positive = outward) at `t` seconds: a cyclic Catmull-Rom curve
    /// through the samples.
    pub(super) fn at(&self, t: f64) -> f32 {
        let n = self.at.len();
        if n == 0 || !t.is_finite() {
            return 0.0;
        }
        let u = (t / self.dt).rem_euclid(n as f64);
        let k = (u.floor() as usize).min(n - 1);
        let f = (u - k as f64) as f32;
        let p = |m: usize| self.at[(k + n + m - 1) % n];
        let (p0, p1, p2, p3) = (p(0), p(1), p(2), p(3));
        let (f2, f3) = (f * f, f * f * f);
        0.5 * (2.0 * p1
            + (p2 - p0) * f
            + (2.0 * p0 - 5.0 * p1 + 4.0 * p2 - p3) * f2
            + (3.0 * p1 - p0 - 3.0 * p2 + p3) * f3)
    }
}

/// Plans the forward turns of every arm of `scene` whose elbow the body puts more than
/// `TRIGGER` behind the shoulders (stored in its body plans).
pub(super) fn plan(scene: &mut Scene) {
    let period = scene.elbow_period(false);
    if !(period.is_finite() && period > 0.0) || scene.dims.is_empty() {
        return;
    }
    let wanted = (period * RATE).ceil();
    let jugglers = scene.motion.jugglers();
    if wanted > MAX_SAMPLES as f64 || wanted as usize * SUB * jugglers > MAX_POSES {
        return;
    }
    let n = (wanted as usize).max(4);
    let dt = period / n as f64;
    // The hands and placements at each sample and `SUB − 1` instants after it, and which arms
    // go behind.
    let mut at: Vec<Vec<(Placement, [Vec3; 2])>> = Vec::with_capacity(n * SUB);
    let mut behind = vec![false; 2 * jugglers];
    for k in 0..n * SUB {
        let t = k as f64 * dt / SUB as f64;
        let state = scene.motion.state_at(t);
        let placements = scene.placements_at(t);
        let row: Vec<(Placement, [Vec3; 2])> = (0..jugglers)
            .map(|j| (placements[j], state.hands[j].map(|h| h.position)))
            .collect();
        for (j, (place, hands)) in row.iter().enumerate() {
            let pose = juggler_pose_moving(
                place,
                dims(scene, j),
                *hands,
                scene.body_motion(&scene.bodies[j], t),
            );
            for side in Hand::BOTH {
                behind[2 * j + side.index()] |= Fit::of(&pose, side).behind > TRIGGER;
            }
        }
        at.push(row);
    }
    let bins = 2 * (MOST / STEP).round() as usize + 1;
    let arms = behind.iter().filter(|&&b| b).count();
    if arms * n * SUB * bins > MAX_POSES {
        return;
    }
    for j in 0..jugglers {
        for side in Hand::BOTH {
            if !behind[2 * j + side.index()] {
                continue;
            }
            let costs = costs(scene, &at, j, side, dt, bins);
            let path = cheapest_loop(&costs, n, bins);
            let mid = bins / 2;
            if path.iter().all(|&b| b == mid) {
                continue;
            }
            scene.bodies[j].forward[side.index()] = ForwardTurn {
                dt,
                at: path.iter().map(|&b| turn_of(b, mid)).collect(),
            };
        }
    }
}

fn dims(scene: &Scene, j: usize) -> &crate::body::BodyDims {
    &scene.dims[j.min(scene.dims.len() - 1)]
}

fn turn_of(bin: usize, mid: usize) -> f32 {
    (bin as f32 - mid as f32) * STEP
}

/// The cost of each turn (`bins` of them, the middle one none) of the elbow of `side` of
/// juggler `j` at each sample, `costs[k·bins + b]`, summed over the sample and the `SUB − 1`
/// instants after it (`at`), in centimetre units: four times the square and the size of how
/// far it is behind `AIM`, of how much deeper it is in the chest and of how much deeper its
/// forearm is in the other than as the body puts it, `PAST` times the square of how far it is
/// behind past `TRIGGER`, `LIFT` per centimetre it is lifted above where the body puts it, and
/// `TURN` times the squared turn.
fn costs(
    scene: &Scene,
    at: &[Vec<(Placement, [Vec3; 2])>],
    j: usize,
    side: Hand,
    dt: f64,
    bins: usize,
) -> Vec<f32> {
    let mid = bins / 2;
    let mut out = vec![0.0; at.len() / SUB * bins];
    for (k, row) in at.iter().enumerate() {
        let (place, hands) = &row[j];
        let t = k as f64 * dt / SUB as f64;
        let body = scene.body_motion(&scene.bodies[j], t);
        let pose = |turn: f32| {
            let mut body = body;
            body.forward[side.index()] += turn;
            juggler_pose_moving(place, dims(scene, j), *hands, body)
        };
        let height =
            |p: &crate::body::JugglerPose| p.placement.to_local(p.arms[side.index()].elbow).y;
        let natural = pose(0.0);
        let (was, was_height) = (Fit::of(&natural, side), height(&natural));
        for b in 0..bins {
            let turn = turn_of(b, mid);
            let p = pose(turn);
            let fit = Fit::of(&p, side);
            let cm = |x: f32| 100.0 * x.max(0.0);
            let (behind, chest, forearm) = (
                cm(fit.behind - AIM),
                cm(fit.chest - was.chest),
                cm(was.forearms.min(0.0) - fit.forearms),
            );
            let lift = cm(height(&p) - was_height);
            // Past `TRIGGER`, steeply: the plan may not trade an elbow past it for less lift.
            let past = cm(fit.behind - TRIGGER);
            out[k / SUB * bins + b] += (4.0
                * (behind * behind + behind + chest * chest + chest + forearm * forearm + forearm)
                + PAST * past * past
                + LIFT * lift
                + TURN * turn * turn)
                / SUB as f32;
        }
    }
    out
}

/// The bins, one per sample, of least total cost around the loop (`costs[k·bins + b]`),
/// moving at most one bin between neighbouring samples, the last sample's bin next to the
/// first's.
fn cheapest_loop(costs: &[f32], n: usize, bins: usize) -> Vec<usize> {
    let mid = bins / 2;
    // The loop is walked from the sample where the body's elbow costs least, its turn there
    // within `START_BINS` of none.
    let first = (0..n)
        .min_by(|&a, &b| costs[a * bins + mid].total_cmp(&costs[b * bins + mid]))
        .unwrap_or(0);
    let cost = |k: usize, b: usize| costs[((first + k) % n) * bins + b];
    let mut best: (f32, Vec<usize>) = (f32::INFINITY, vec![mid; n]);
    let mut back = vec![0u8; n * bins];
    let mut acc = vec![f32::INFINITY; bins];
    let mut next = vec![f32::INFINITY; bins];
    for start in mid.saturating_sub(START_BINS)..=(mid + START_BINS).min(bins - 1) {
        acc.fill(f32::INFINITY);
        acc[start] = cost(0, start);
        for k in 1..n {
            for b in 0..bins {
                let mut low = f32::INFINITY;
                let mut from = 1u8;
                for (d, m) in [(0u8, b.wrapping_sub(1)), (1, b), (2, b + 1)] {
                    if m < bins {
                        let c = acc[m] + if d == 1 { 0.0 } else { STEP_COST };
                        if c < low {
                            (low, from) = (c, d);
                        }
                    }
                }
                next[b] = low + cost(k, b);
                back[k * bins + b] = from;
            }
            std::mem::swap(&mut acc, &mut next);
        }
        // Close the loop: the last bin within one of the start.
        let (mut low, mut last) = (f32::INFINITY, start);
        let near = start.saturating_sub(1)..=(start + 1).min(bins - 1);
        for (m, &a) in acc.iter().enumerate().filter(|(m, _)| near.contains(m)) {
            let c = a + if m == start { 0.0 } else { STEP_COST };
            if c < low {
                (low, last) = (c, m);
            }
        }
        if low < best.0 {
            let mut path = vec![0; n];
            let mut b = last;
            for k in (0..n).rev() {
                path[(first + k) % n] = b;
                if k > 0 {
                    b = (b + back[k * bins + b] as usize) - 1;
                }
            }
            best = (low, path);
        }
    }
    best.1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_curve_passes_through_its_samples_around_the_loop() {
        let turn = ForwardTurn {
            dt: 0.5,
            at: vec![0.0, 1.0, 1.0, 0.0],
        };
        for (t, want) in [
            (0.0, 0.0),
            (0.5, 1.0),
            (1.0, 1.0),
            (1.5, 0.0),
            (2.0, 0.0),
            (-1.5, 1.0),
        ] {
            assert!((turn.at(t) - want).abs() < 1e-6, "t={t}: {}", turn.at(t));
        }
        // Symmetric between the two equal samples, and continuous.
        assert!((turn.at(0.75) - turn.at(0.75 + 1e-4)).abs() < 1e-3);
        assert!(turn.at(0.75) >= 1.0);
        assert_eq!(ForwardTurn::default().at(1.0), 0.0);
    }

    #[test]
    fn the_cheapest_loop_steps_one_bin_at_a_time_and_closes() {
        // Five bins, six samples: bin 4 is free at samples 2 and 3 only (bin 2 dear there),
        // bin 2 elsewhere, bin 3 costs 1 on the way there and back (samples 1 and 4), 3
        // elsewhere: going to bin 4 and back is cheapest (2.2; staying in bin 3, 6.1).
        let (n, bins) = (6, 5);
        let mut costs = vec![3.0; n * bins];
        for k in 0..n {
            let cheap = if k == 2 || k == 3 { 4 } else { 2 };
            if k == 1 || k == 4 {
                costs[k * bins + 3] = 1.0;
            }
            costs[k * bins + cheap] = 0.0;
            if k == 2 || k == 3 {
                costs[k * bins + 2] = 10.0;
            }
        }
        let path = cheapest_loop(&costs, n, bins);
        assert_eq!(path[2], 4, "{path:?}");
        assert_eq!(path[3], 4);
        for k in 0..n {
            let (a, b) = (path[k], path[(k + 1) % n]);
            assert!(a.abs_diff(b) <= 1, "{path:?}");
        }
    }
}
