//! Synchronous crossing throws that would meet: in `(4x,4x)` or `(6x,6x)` with clubs the two
//! hands throw at the same time, mirror images of each other, and the two clubs cross in the
//! middle at one height with their axes parallel (both spin in the sagittal plane at one
//! rate). Flight lanes cannot part them (a club is a 48 cm capsule turning in the plane the
//! other crosses; measured: no lane within 14 cm clears them, nor a lead in time below a
//! quarter beat), so the hands part them as jugglers do: the crossing throws leave from the
//! hands' sides (toward the catch points, so the clubs cross faster and nearer their peak)
//! and one hand's club flies a few centimetres higher and in front of the other's, the other
//! lower and behind. Each moved flight keeps its release and catch times and flies an exact
//! parabola from the thrower's hand to the catcher's: the hand events move with it.
//!
//! Any two crossing tosses of a juggler's two hands released and caught at the same times are
//! a pair, mirror images or not (`(0,[44])(4x,4x)`, whose 4x are caught beside a held club,
//! met 8.1 cm deep); a pattern read back from its JML export holds the moved points, already
//! clear, and the search leaves them. The events move where they throw or catch only that
//! prop. Where a crossing prop leaves or arrives with others (`(2,2)([42x],[42x])`:
//! each hand throws a 4 and a 2x together) the hands keep their points and the two crossing
//! props fly off them instead (the tosses' offsets, as flight lanes do), higher and lower by
//! at most `OFFSET_RISE` between them and the one in front, from where the hand holds them;
//! where a hand throws two crossing props at once, its pairs are parted one after the other,
//! each measured against the others.

use std::collections::HashMap;

use glam::DVec3;

use super::choreography::{Choreography, TossKind, ORIGIN};
use super::flight_lanes::{pair_intrusion, Arc, FlightShape};
use crate::types::{Hand, PropKind};

/// Time (seconds) within which two throws (and their catches) count as simultaneous.
const SAME_TIME: f64 = 1e-3;

/// Distinct pairs searched in one pattern (about 10 ms each); pairs beyond them stay where
/// they are (a long pattern of custom hand points all different).
const MAX_SEARCHES: usize = 64;

/// How far a crossing throw moves from its own throw point toward its hand's catch point
/// (fractions of the way), in order of preference.
const WIDEN: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];
/// Height differences between the two clubs' flights (metres; the right hand's higher by
/// half, the left hand's lower by half).
const RISE: [f64; 19] = [
    0.0, 0.02, 0.04, 0.06, 0.08, 0.10, 0.12, 0.14, 0.16, 0.18, 0.20, 0.22, 0.24, 0.26, 0.28, 0.30,
    0.32, 0.34, 0.36,
];
/// Most height difference (metres) between two crossing props that leave their hands with
/// others (a multiplex): they fly off their hands' points by half of it each, and a club
/// caught and thrown further off its fist shows.
const OFFSET_RISE: f64 = 0.12;
/// Depth differences (metres; the right hand's club in front by half, the left's behind).
const DEPTH: [f64; 11] = [
    0.0, 0.02, -0.02, 0.04, -0.04, 0.06, -0.06, 0.08, -0.08, 0.10, -0.10,
];

/// New throw points of the right and the left hand, and how the right and the left hand's
/// flights move.
type Parting = (DVec3, DVec3, (DVec3, DVec3));

/// One simultaneous crossing pair of a juggler: the right hand's toss and the left hand's,
/// with the events that throw and catch each (hand slot, index in that hand's events): the
/// right hand's toss is thrown at `right_throw` and caught (by the left hand) at
/// `right_catch`.
#[derive(Clone, Copy, Debug)]
struct Pair {
    right: usize,
    left: usize,
    right_throw: (usize, usize),
    right_catch: (usize, usize),
    left_throw: (usize, usize),
    left_catch: (usize, usize),
    /// An event of the pair throws or catches other props too (a multiplex): the two props
    /// move off their hands' points (the tosses' offsets), the hands stay.
    by_offset: bool,
}

/// One toss of a pair: its index and the events (hand slot, index) that throw and catch it.
type Flight = (usize, (usize, usize), (usize, usize));

impl Pair {
    /// The right hand's toss and the left hand's, with their events.
    fn flights(&self) -> [Flight; 2] {
        [
            (self.right, self.right_throw, self.right_catch),
            (self.left, self.left_throw, self.left_catch),
        ]
    }
}

impl Choreography {
    /// Parts the simultaneous crossing throws of clubs that would meet (see the module doc).
    /// `shape` turns and centres each flying club as drawn; `gravity` is the pattern's.
    pub(crate) fn part_sync_crossings(&mut self, kind: PropKind, gravity: f64, shape: FlightShape) {
        if kind != PropKind::Club || !gravity.is_finite() || gravity <= 0.0 {
            return;
        }
        let period = self.hand_period;
        if !(period.is_finite() && period > 0.0) || self.tosses.len() > 2000 {
            return;
        }
        // A pattern repeated many times (`((4x,4x)^500)`) holds the same pair over and over:
        // each distinct pair is searched once (`((4x,4x)^500)` 4.7 s before).
        let mut searched: HashMap<Vec<u64>, Option<Parting>> = HashMap::new();
        // Jugglers placed as the motion moves them (partings move hand events, not jugglers).
        let stances = super::stances(self);
        let pairs = self.sync_crossing_pairs();
        for (n, &pair) in pairs.iter().enumerate() {
            // The other pairs thrown or caught with this one (a hand throwing two crossing
            // props at once, `([2x2x],[2x2x])`): parted one after the other, each measured
            // against the others as they are by then.
            let others: Vec<Flight> = pairs
                .iter()
                .enumerate()
                .filter(|&(m, b)| m != n && shares_events(&pair, b))
                .flat_map(|(_, b)| b.flights())
                .collect();
            let mut key = self.parting_key(pair);
            for &(i, throw, catch) in &others {
                let t = &self.tosses[i];
                for p in [
                    self.point(throw),
                    self.point(catch),
                    t.release_offset,
                    t.catch_offset,
                ] {
                    key.extend([p.x.to_bits(), p.y.to_bits(), p.z.to_bits()]);
                }
            }
            let best = match searched.get(&key) {
                Some(best) => *best,
                None if searched.len() >= MAX_SEARCHES => continue,
                None => {
                    let best = self.best_parting(pair, &others, gravity, shape, &stances);
                    searched.insert(key, best);
                    best
                }
            };
            let Some(best) = best else {
                continue;
            };
            let (throw_right, throw_left, (right, left)) = best;
            if pair.by_offset {
                // The throw points stay (not widened): each prop moves off both its points.
                for (i, moved) in [(pair.right, right), (pair.left, left)] {
                    let t = &mut self.tosses[i];
                    if moved.is_finite() {
                        t.release_offset += moved;
                        t.catch_offset += moved;
                    }
                }
                continue;
            }
            let plan = [
                (pair.right_throw, throw_right + right),
                (pair.right_catch, self.point(pair.right_catch) + right),
                (pair.left_throw, throw_left + left),
                (pair.left_catch, self.point(pair.left_catch) + left),
            ];
            for ((slot, k), to) in plan {
                if let Some(e) = self.hands.get_mut(slot).and_then(|h| h.get_mut(k)) {
                    if to.is_finite() {
                        e.position = to;
                    }
                }
            }
        }
    }

    /// Every simultaneous crossing pair: a right-hand toss across and a left-hand one released
    /// and caught at the same times, each left toss in one pair.
    fn sync_crossing_pairs(&self) -> Vec<Pair> {
        // The event of `slot` that throws (or catches) toss `i`, and whether it throws or
        // catches nothing else.
        let only = |slot: usize, i: usize, throw: bool| -> Option<((usize, usize), bool)> {
            let events = self.hands.get(slot)?;
            let k = events.iter().position(|e| {
                if throw {
                    e.throws.contains(&i)
                } else {
                    e.catches.contains(&i)
                }
            })?;
            let e = &events[k];
            let alone = if throw {
                e.throws.len() == 1 && e.catches.is_empty()
            } else {
                e.catches.len() == 1 && e.throws.is_empty()
            };
            Some(((slot, k), alone))
        };
        let mut pairs = Vec::new();
        // Left tosses already in a pair (a multiplex may throw two crossing props a hand).
        let mut paired = Vec::new();
        for (r, tr) in self.tosses.iter().enumerate() {
            let crossing = |t: &super::choreography::Toss| {
                t.kind == TossKind::Toss
                    && t.from.juggler == t.to.juggler
                    && t.from.hand != t.to.hand
            };
            if tr.from.hand != Hand::Right || !crossing(tr) {
                continue;
            }
            let partner = self.tosses.iter().enumerate().find(|&(l, tl)| {
                !paired.contains(&l)
                    && tl.from.hand == Hand::Left
                    && tl.from.juggler == tr.from.juggler
                    && crossing(tl)
                    && (tl.release - tr.release).abs() < SAME_TIME
                    && (tl.catch - tr.catch).abs() < SAME_TIME
            });
            let Some((l, tl)) = partner else {
                continue;
            };
            let events = (
                only(tr.from.slot(), r, true),
                only(tr.to.slot(), r, false),
                only(tl.from.slot(), l, true),
                only(tl.to.slot(), l, false),
            );
            let (Some((rt, a)), Some((rc, b)), Some((lt, c)), Some((lc, d))) = events else {
                continue;
            };
            // Props alone in their events are parted by moving the events; props thrown or
            // caught with others, off them. (A pattern read back from its JML export holds the
            // moved points, already clear: the search leaves them as they are.)
            paired.push(l);
            pairs.push(Pair {
                right: r,
                left: l,
                right_throw: rt,
                right_catch: rc,
                left_throw: lt,
                left_catch: lc,
                by_offset: !(a && b && c && d),
            });
        }
        pairs
    }

    /// Where event `k` of hand slot `slot` is.
    fn point(&self, (slot, k): (usize, usize)) -> DVec3 {
        self.hands[slot][k].position
    }

    /// What `best_parting` depends on for `pair`, bit for bit (durations to the nanosecond):
    /// the four event points, the two tosses' durations, spins, values and gravity, and where
    /// every juggler stands at the throw and the catch.
    fn parting_key(&self, pair: Pair) -> Vec<u64> {
        let (tr, tl) = (&self.tosses[pair.right], &self.tosses[pair.left]);
        let mut key = Vec::with_capacity(32 + 8 * self.jugglers.len());
        for p in [
            self.point(pair.right_throw),
            self.point(pair.right_catch),
            self.point(pair.left_throw),
            self.point(pair.left_catch),
        ] {
            key.extend([p.x.to_bits(), p.y.to_bits(), p.z.to_bits()]);
        }
        for t in [tr, tl] {
            for p in [t.release_offset, t.catch_offset] {
                key.extend([p.x.to_bits(), p.y.to_bits(), p.z.to_bits()]);
            }
            key.push(((t.catch - t.release) * 1e9).round().to_bits());
            key.push(t.spins.unwrap_or(f64::NAN).to_bits());
            key.push(u64::from(t.value.unwrap_or(u32::MAX)));
            key.push(t.gravity.unwrap_or(f64::NAN).to_bits());
        }
        for j in &self.jugglers {
            for time in [tr.release, tr.catch, tl.release, tl.catch] {
                let p = j.at(time);
                key.extend(
                    [p.position.x, p.position.y, p.position.z, p.facing]
                        .map(|v| u64::from(v.to_bits())),
                );
            }
        }
        key
    }

    /// The smallest change that parts `pair` (new throw points of the right and left hand,
    /// and how the right and the left hand's flights move), or the
    /// least bad one; `None` when they are already clear.
    fn best_parting(
        &self,
        pair: Pair,
        others: &[Flight],
        gravity: f64,
        shape: FlightShape,
        stances: &[super::Stance],
    ) -> Option<Parting> {
        let (tr, tl) = (&self.tosses[pair.right], &self.tosses[pair.left]);
        let juggler = tr.from.juggler;
        let place = |t: f64| stances.get(juggler).map_or(ORIGIN, |s| s.at(t));
        let places = |t: &super::choreography::Toss| (place(t.release), place(t.catch));
        let at_pair = |t, (a, b)| Arc::of(t, (a, b), places(t), gravity, shape);
        let (rt, rc, lt, lc) = (
            self.point(pair.right_throw),
            self.point(pair.right_catch),
            self.point(pair.left_throw),
            self.point(pair.left_catch),
        );
        let (Some(right), Some(left)) = (at_pair(tr, (rt, rc)), at_pair(tl, (lt, lc))) else {
            return None;
        };
        // The other crossing props thrown or caught with them, where they fly now.
        let others: Vec<Arc> = others
            .iter()
            .filter_map(|&(i, throw, catch)| {
                at_pair(&self.tosses[i], (self.point(throw), self.point(catch)))
            })
            .collect();
        // The two flights against each other and their own and each other's repeats.
        let period = self.hand_period;
        let depth = |rt: DVec3, rc: DVec3, lt: DVec3, lc: DVec3| {
            let right = right.moved(tr, (rt, rc), places(tr));
            let left = left.moved(tl, (lt, lc), places(tl));
            let all = [
                (&right, &left, false),
                (&right, &right, true),
                (&left, &left, true),
            ];
            let worst = all
                .iter()
                .map(|&(p, q, same)| pair_intrusion(p, q, (period, same), PropKind::Club))
                .chain(others.iter().flat_map(|o| {
                    [&right, &left].map(|p| pair_intrusion(p, o, (period, false), PropKind::Club))
                }))
                .fold(0.0, f64::max);
            worst.is_finite().then_some(worst)
        };
        let now = depth(rt, rc, lt, lc)?;
        if now <= 0.0 {
            return None;
        }
        // Every candidate: the throw points and the two flights' moves, and how far the
        // hands' points move in all.
        let mut candidates = Vec::with_capacity(WIDEN.len() * RISE.len() * DEPTH.len());
        // Props thrown with others leave from their hands' points (a hand's multiplex
        // leaves together).
        let widen: &[f64] = if pair.by_offset { &WIDEN[..1] } else { &WIDEN };
        for &w in widen {
            // Each hand's throw point toward its own catch point (where the other hand's
            // toss arrives).
            let (wr, wl) = (rt + (lc - rt) * w * DVec3::X, lt + (rc - lt) * w * DVec3::X);
            let rises = RISE
                .into_iter()
                .filter(|&r| !pair.by_offset || r <= OFFSET_RISE + 1e-9);
            for rise in rises {
                for d in DEPTH {
                    let (right, left) = shifts(rise, d);
                    let size = 2.0 * (wr - rt).length() + 2.0 * (right - left).length();
                    candidates.push((wr, wl, right, left, size));
                }
            }
        }
        // The smallest that clears (the first in the list of those as small), tried in order
        // of size; else the least overlap, the first in the list of those as good.
        let mut by_size: Vec<usize> = (0..candidates.len()).collect();
        by_size.sort_by(|&a, &b| candidates[a].4.total_cmp(&candidates[b].4));
        let mut overlap = vec![None; candidates.len()];
        for k in by_size {
            let (wr, wl, right, left, _) = candidates[k];
            let b = depth(wr + right, rc + right, wl + left, lc + left);
            if b.is_some_and(|b| b <= 0.0) {
                return (wr != rt || right != left).then_some((wr, wl, (right, left)));
            }
            overlap[k] = b;
        }
        let mut best = (now, (rt, lt, DVec3::ZERO, DVec3::ZERO));
        for (k, &(wr, wl, right, left, _)) in candidates.iter().enumerate() {
            if let Some(b) = overlap[k] {
                if b < best.0 - 1e-4 {
                    best = (b, (wr, wl, right, left));
                }
            }
        }
        let (_, (wr, wl, right, left)) = best;
        (wr != rt || right != left).then_some((wr, wl, (right, left)))
    }
}

/// Whether two pairs throw or catch at one event of a hand.
fn shares_events(a: &Pair, b: &Pair) -> bool {
    let ends = |p: &Pair| [p.right_throw, p.right_catch, p.left_throw, p.left_catch];
    ends(a).iter().any(|e| ends(b).contains(e))
}

/// How the right hand's and the left hand's flights move for a height difference `rise` and
/// a depth difference `depth` (the right hand's higher by `rise`, in front by `depth`): half
/// the height each way, and only the flight in front moves in depth (forward), so that no
/// hand works further back than before.
fn shifts(rise: f64, depth: f64) -> (DVec3, DVec3) {
    let up = DVec3::Y * (0.5 * rise);
    let front = DVec3::Z * depth.abs();
    if depth >= 0.0 {
        (up + front, -up)
    } else {
        (up, -up + front)
    }
}
