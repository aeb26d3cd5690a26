//! Lanes: props thrown, caught or held together by one hand sit side by side, each in its own
//! lane `MULTIPLEX_SPREAD` apart along the juggler's left-right axis, so they never overlap.
//!
//! `spread` gives the offset of one prop of several thrown or caught together;
//! `spread_held_props` gives every hold of a choreography's prop paths a lane for its whole
//! time in the hand (cutting holds longer than a hand period at the hand's throws) and makes
//! the flights at both ends of a hold start and end in that lane; both `from_schedule` and the
//! JML event reader use it, so a pattern and its JML export lane alike.
//! `Choreography::restack_lanes` turns the lanes to another axis (rings stacked face to face).
//!
//! Lanes depend only on times modulo the hand period, a time within 1 µs short of a whole
//! period counting as 0 (`phase`), so JML's rounded times lane as the siteswap's exact ones.

use glam::DVec3;

use super::choreography::{Choreography, PathSegment, PropPath, Toss};

/// Distance between neighbouring props held or thrown together (multiplexes), metres.
pub const MULTIPLEX_SPREAD: f64 = 0.105;

impl Choreography {
    /// Turns the lanes of props held or thrown together, which run along the juggler's
    /// left-right axis `MULTIPLEX_SPREAD` apart (every toss offset and held offset of
    /// `from_schedule` and of the JML event reader), to run along `direction` (juggler-local, unit) `spacing` metres
    /// apart: rings held together are stacked face to face, not side by side in one plane.
    pub(crate) fn restack_lanes(&mut self, direction: DVec3, spacing: f64) {
        let scale = spacing / MULTIPLEX_SPREAD;
        let turn = |o: &mut DVec3| *o = DVec3::new(0.0, o.y, o.z) + direction * (o.x * scale);
        for t in &mut self.tosses {
            turn(&mut t.release_offset);
            turn(&mut t.catch_offset);
        }
        for path in &mut self.paths {
            for s in &mut path.segments {
                if let PathSegment::Held {
                    offset0, offset1, ..
                } = s
                {
                    turn(offset0);
                    turn(offset1);
                }
            }
        }
    }
}

/// Offset of element `k` of `m` props thrown or caught together, along the juggler's own
/// left-right axis.
pub(crate) fn spread(k: usize, m: usize) -> DVec3 {
    if m <= 1 {
        return DVec3::ZERO;
    }
    DVec3::X * ((k as f64 - (m as f64 - 1.0) / 2.0) * MULTIPLEX_SPREAD)
}

/// Props held at the same time in one hand sit in lanes `MULTIPLEX_SPREAD` apart across the
/// hand, each keeping its lane from its catch to its throw (so a squeezed catch or two props
/// meeting from different catches never overlap). Lanes are handed out per hand in order of
/// the holds (modulo the hand period), the lowest lane free of every hold overlapping this one;
/// a hand that never holds two props keeps its offsets (zero). The catch and release offsets
/// of the tosses at both ends of a hold follow its lanes, so flights still end and start
/// exactly at the prop. If a toss would need two lanes (not seen), its hold keeps the original
/// offsets. The JML event reader lanes its props the same way.
///
/// A hold longer than the hand period (the held 2 of `[32]1`: the prop caught from the 1 is
/// still in the hand when the next one arrives) overlaps its own path's next prop, so it is cut
/// into pieces at the hand's throws: the last piece (one period, ending at the throw) and the
/// first (from the catch) get different lanes, and when the throw frees the last piece's lane
/// the prop behind slides over into it during the first half of the time before the next
/// catch ([`hold_pieces`]).
pub(crate) fn spread_held_props(paths: &mut [PropPath], tosses: &mut [Toss], period: f64) {
    // Every piece of every hold: (hand, start modulo the period, how long it takes its lane).
    let mut pieces: Vec<(usize, f64, f64)> = Vec::new();
    // Per path and segment, the pieces of a hold (indices into `pieces`) and their bounds.
    let mut cut: Vec<Vec<Cut>> = Vec::with_capacity(paths.len());
    for path in paths.iter() {
        let flies = path
            .segments
            .iter()
            .any(|s| matches!(s, PathSegment::Air { .. }));
        let mut per_segment = Vec::with_capacity(path.segments.len());
        for seg in &path.segments {
            let PathSegment::Held {
                start, end, hand, ..
            } = *seg
            else {
                per_segment.push(None);
                continue;
            };
            if end.partial_cmp(&start) != Some(std::cmp::Ordering::Greater) {
                per_segment.push(None);
                continue;
            }
            let split = if flies {
                hold_pieces(start, end, period)
            } else {
                // Held forever: one piece, never thrown.
                HoldPieces {
                    bounds: vec![start, end],
                    slide: 0.0,
                }
            };
            let mut ids = Vec::new();
            for w in 0..split.bounds.len() - 1 {
                let (a, b) = (split.bounds[w], split.bounds[w + 1]);
                // A piece that slides out keeps its lane until the slide is over.
                let out = if w + 2 < split.bounds.len() {
                    split.slide
                } else {
                    0.0
                };
                ids.push(pieces.len());
                pieces.push((hand, phase(a, period), (b - a + out).min(period)));
            }
            per_segment.push(Some((ids, split)));
        }
        cut.push(per_segment);
    }
    let mut lanes = assign_lanes(&pieces, period);
    order_caught_together(&mut lanes, &pieces, &cut, paths, tosses, period);
    // Lanes per hand; a hand that never holds two props at once keeps its offsets.
    let mut count: std::collections::HashMap<usize, usize> = Default::default();
    for (q, &l) in pieces.iter().zip(&lanes) {
        let c = count.entry(q.0).or_insert(1);
        *c = (*c).max(l + 1);
    }
    let offsets: Vec<Option<DVec3>> = pieces
        .iter()
        .zip(&lanes)
        .map(|(q, &l)| {
            let c = count.get(&q.0).copied().unwrap_or(1);
            (c >= 2).then(|| spread(outward_first(q.0, l, c), c))
        })
        .collect();
    // Each toss's catch and release lane; a toss asked for two different lanes keeps its own.
    let n = tosses.len();
    let mut catch_lane: Vec<Option<DVec3>> = vec![None; n];
    let mut release_lane: Vec<Option<DVec3>> = vec![None; n];
    let mut conflict = vec![false; n];
    // The tosses before and after segment `k`.
    let ends = |segments: &[PathSegment], k: usize| {
        let m = segments.len();
        let toss_of = |s: &PathSegment| match *s {
            PathSegment::Air { toss, .. } => Some(toss).filter(|&t| t < n),
            PathSegment::Held { .. } => None,
        };
        (
            toss_of(&segments[(k + m - 1) % m]),
            toss_of(&segments[(k + 1) % m]),
        )
    };
    // The lanes of a cut hold's first and last pieces, when it has lanes.
    let first_last = |ids: &[usize]| -> Option<(DVec3, DVec3)> {
        Some((offsets[*ids.first()?]?, offsets[*ids.last()?]?))
    };
    for (p, per_segment) in cut.iter().enumerate() {
        for (k, entry) in per_segment.iter().enumerate() {
            let Some((first, last)) = entry.as_ref().and_then(|(ids, _)| first_last(ids)) else {
                continue;
            };
            let (before, after) = ends(&paths[p].segments, k);
            for (toss, lane, slot) in [
                (before, first, &mut catch_lane),
                (after, last, &mut release_lane),
            ] {
                if let Some(t) = toss {
                    match slot[t] {
                        Some(l) if l.distance(lane) > 1e-9 => conflict[t] = true,
                        _ => slot[t] = Some(lane),
                    }
                }
            }
        }
    }
    for (p, per_segment) in cut.into_iter().enumerate() {
        let old = std::mem::take(&mut paths[p].segments);
        let mut segments = Vec::with_capacity(old.len());
        for (k, (seg, entry)) in old.iter().zip(per_segment).enumerate() {
            let (before, after) = ends(&old, k);
            let lanes_of = entry.as_ref().and_then(|(ids, _)| {
                ids.iter()
                    .map(|&i| offsets[i])
                    .collect::<Option<Vec<DVec3>>>()
            });
            let (Some(lanes), Some((_, split)), PathSegment::Held { hand, .. }) =
                (lanes_of, entry, seg)
            else {
                segments.push(seg.clone());
                continue;
            };
            if [before, after]
                .iter()
                .any(|t| t.is_some_and(|t| conflict[t]))
            {
                segments.push(seg.clone());
                continue;
            }
            if let Some(t) = before {
                tosses[t].catch_offset = lanes[0];
            }
            if let Some(t) = after {
                tosses[t].release_offset = lanes[lanes.len() - 1];
            }
            let held = |start, end, offset0, offset1| PathSegment::Held {
                start,
                end,
                hand: *hand,
                offset0,
                offset1,
            };
            for (w, &lane) in lanes.iter().enumerate() {
                let (a, b) = (split.bounds[w], split.bounds[w + 1]);
                if w > 0 && split.slide > 0.0 {
                    segments.push(held(a, a + split.slide, lanes[w - 1], lane));
                    segments.push(held(a + split.slide, b, lane, lane));
                } else {
                    segments.push(held(a, b, lane, lane));
                }
            }
        }
        paths[p].segments = segments;
    }
}

/// Props caught together and thrown together by one hand (holds of one span) take their
/// lanes among themselves in the order they were thrown in: across the hands of a pass
/// between jugglers facing each other mirrored (the thrower's right-most prop lands in the
/// catcher's left-most lane), to oneself in the same order, so props thrown side by side do
/// not cross each other in the air.
fn order_caught_together(
    lanes: &mut [usize],
    pieces: &[(usize, f64, f64)],
    cut: &[Vec<Cut>],
    paths: &[PropPath],
    tosses: &[Toss],
    period: f64,
) {
    let n = tosses.len();
    // The piece each toss is released from, and the toss each whole hold arrives by.
    let mut released_from: Vec<Option<usize>> = vec![None; n];
    let mut arrival: Vec<Option<usize>> = vec![None; pieces.len()];
    let mut leaving: Vec<Option<usize>> = vec![None; pieces.len()];
    let mut whole: Vec<usize> = Vec::new();
    for (path, per_segment) in paths.iter().zip(cut) {
        let m = path.segments.len();
        let toss_at = |k: usize| match path.segments[k % m] {
            PathSegment::Air { toss, .. } => Some(toss).filter(|&t| t < n),
            PathSegment::Held { .. } => None,
        };
        for (k, entry) in per_segment.iter().enumerate() {
            let Some((ids, _)) = entry else {
                continue;
            };
            let (Some(&first), Some(&last)) = (ids.first(), ids.last()) else {
                continue;
            };
            if let Some(t) = toss_at(k + 1) {
                released_from[t] = Some(last);
                leaving[last] = Some(t);
            }
            if let Some(t) = toss_at(k + m - 1) {
                arrival[first] = Some(t);
                if ids.len() == 1 {
                    whole.push(first);
                }
            }
        }
    }
    whole.sort_by(|&a, &b| {
        let (a, b) = (pieces[a], pieces[b]);
        a.0.cmp(&b.0)
            .then(a.1.total_cmp(&b.1))
            .then(a.2.total_cmp(&b.2))
    });
    let same = |a: usize, b: usize| {
        let (a, b) = (pieces[a], pieces[b]);
        a.0 == b.0 && (a.1 - b.1).abs() < 1e-6 && (a.2 - b.2).abs() < 1e-6
    };
    let groups: Vec<&[usize]> = whole.chunk_by(|&a, &b| same(a, b)).collect();
    // Twice, so that a hand's order follows a thrower's order settled after it.
    for _ in 0..2 {
        let mut count: std::collections::HashMap<usize, usize> = Default::default();
        for (q, &l) in pieces.iter().zip(lanes.iter()) {
            let c = count.entry(q.0).or_insert(1);
            *c = (*c).max(l + 1);
        }
        for group in groups.iter().filter(|g| g.len() > 1) {
            // Where each prop left its thrower, across the catcher (lanes from its right).
            let key = |piece: usize| -> f64 {
                let Some(t) = arrival[piece] else {
                    return 0.0;
                };
                let Some(from) = released_from[t] else {
                    return 0.0;
                };
                let c = count.get(&pieces[from].0).copied().unwrap_or(1);
                if c < 2 {
                    return 0.0;
                }
                let x =
                    outward_first(pieces[from].0, lanes[from], c) as f64 - (c as f64 - 1.0) / 2.0;
                if tosses[t].from.juggler == tosses[t].to.juggler {
                    x
                } else {
                    -x
                }
            };
            let mut members: Vec<usize> = group.to_vec();
            let mut free: Vec<usize> = members.iter().map(|&p| lanes[p]).collect();
            // In order across the hand, from the juggler's right (`outward_first`).
            let hand = pieces[group[0]].0;
            free.sort_by_key(|&l| outward_first(hand, l, usize::MAX));
            let across = |p: usize| outward_first(hand, lanes[p], usize::MAX);
            members.sort_by(|&a, &b| key(a).total_cmp(&key(b)).then(across(a).cmp(&across(b))));
            for (p, l) in members.into_iter().zip(free) {
                lanes[p] = l;
            }
        }
    }
    // Props thrown together that part (one crossing to the other hand, one staying) leave
    // from lanes that do not cross: the crossing one inside, nearer the other hand; props
    // caught together from both hands likewise, the one from the other hand inside.
    let crossing = |t: usize| {
        let t = &tosses[t];
        t.from.juggler == t.to.juggler && t.from.hand != t.to.hand
    };
    // Each hand's pieces by start, and its longest: the pieces that may overlap one start
    // within its start less that, or its own length after it (modulo the period).
    let mut by_hand: std::collections::HashMap<usize, (Vec<(f64, usize)>, f64)> =
        Default::default();
    for (q, &(hand, start, length)) in pieces.iter().enumerate() {
        let entry = by_hand.entry(hand).or_insert((Vec::new(), 0.0));
        entry.0.push((start, q));
        entry.1 = entry.1.max(length);
    }
    for (list, _) in by_hand.values_mut() {
        list.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    let near = |q: usize| {
        let (hand, start, length) = pieces[q];
        let (list, longest) = by_hand
            .get(&hand)
            .map_or((&[][..], 0.0), |(l, m)| (&l[..], *m));
        [-period, 0.0, period].into_iter().flat_map(move |shift| {
            let (lo, hi) = (start - longest - shift, start + length - shift);
            let first = list.partition_point(|e| e.0 < lo);
            list[first..]
                .iter()
                .take_while(move |e| e.0 <= hi)
                .map(|e| e.1)
        })
    };
    // Higher lanes lie further inside in either hand (`outward_first`).
    let inside = |_slot: usize| 1.0;
    for end in [true, false] {
        // (piece, hand, phase of the throw or catch, the toss)
        let mut ends: Vec<(usize, usize, f64, usize)> = (0..pieces.len())
            .filter_map(|q| {
                let (hand, start, length) = pieces[q];
                if end {
                    leaving[q].map(|t| (q, hand, phase(start + length, period), t))
                } else {
                    arrival[q].map(|t| (q, hand, start, t))
                }
            })
            .collect();
        ends.sort_by(|a, b| a.1.cmp(&b.1).then(a.2.total_cmp(&b.2)));
        let groups: Vec<Vec<(usize, usize, f64, usize)>> = ends
            .chunk_by(|a, b| a.1 == b.1 && (a.2 - b.2).abs() < 1e-6)
            .filter(|g| g.len() > 1)
            .map(<[_]>::to_vec)
            .collect();
        for group in groups {
            let mut members = group.clone();
            members.sort_by(|a, b| {
                let k = |m: &(usize, usize, f64, usize)| -> f64 {
                    if crossing(m.3) {
                        inside(m.1)
                    } else {
                        0.0
                    }
                };
                k(a).total_cmp(&k(b)).then(lanes[a.0].cmp(&lanes[b.0]))
            });
            let mut free: Vec<usize> = group.iter().map(|m| lanes[m.0]).collect();
            free.sort_unstable();
            let proposal: Vec<(usize, usize)> = members.iter().map(|m| m.0).zip(free).collect();
            // Only where no other hold of the hand overlapping a moved one has its new lane.
            let ok = proposal.iter().all(|&(q, l)| {
                near(q).all(|o| {
                    o == q
                        || proposal.iter().any(|&(m, _)| m == o)
                        || lanes[o] != l
                        || !overlaps(pieces[o], pieces[q], period)
                })
            });
            if ok {
                for (q, l) in proposal {
                    lanes[q] = l;
                }
            }
        }
    }
}

/// The place across the hand (0 = the juggler's right-most of `count`) of lane `lane` of the
/// hand in slot `slot`: lanes are numbered from the outside of each hand inward, so the prop
/// a hand holds first sits outside and a prop arriving from the other hand comes in inside
/// it instead of through it.
fn outward_first(slot: usize, lane: usize, count: usize) -> usize {
    match crate::types::HandRef::from_slot(slot).hand {
        crate::types::Hand::Right => lane,
        crate::types::Hand::Left => count.saturating_sub(1).saturating_sub(lane),
    }
}

/// Whether two holds `(hand, start, length)` share some time modulo `period`.
fn overlaps(a: (usize, f64, f64), b: (usize, f64, f64), period: f64) -> bool {
    (b.1 - a.1).rem_euclid(period) < a.2 - 1e-9 || (a.1 - b.1).rem_euclid(period) < b.2 - 1e-9
}

/// The pieces of one hold (indices into the pieces) and their bounds; `None` for a segment
/// that is not a hold.
type Cut = Option<(Vec<usize>, HoldPieces)>;

/// Where `t` falls in a cycle of `period` seconds, in `[0, period)`; a time a rounding error
/// short of a whole number of periods (a piece of a long hold starting one period before its
/// throw at the end of the loop, or times read back from JML's microseconds) is 0, so the
/// lanes do not depend on how the loop's times were rounded.
fn phase(t: f64, period: f64) -> f64 {
    let p = t.rem_euclid(period);
    if period - p < 1e-6 {
        0.0
    } else {
        p
    }
}

/// The lane of every hold `(hand, start modulo period, length ≤ period)`: in order of hand and
/// start, the lowest lane free of every earlier hold of the same hand it overlaps (circular
/// intervals modulo `period`).
fn assign_lanes(holds: &[(usize, f64, f64)], period: f64) -> Vec<usize> {
    let mut order: Vec<usize> = (0..holds.len()).collect();
    order.sort_by(|&a, &b| {
        let (a, b) = (holds[a], holds[b]);
        a.0.cmp(&b.0).then(a.1.total_cmp(&b.1))
    });
    let overlaps = |a: (usize, f64, f64), b: (usize, f64, f64)| {
        (b.1 - a.1).rem_euclid(period) < a.2 - 1e-9 || (a.1 - b.1).rem_euclid(period) < b.2 - 1e-9
    };
    let mut lanes = vec![0usize; holds.len()];
    let mut used = Vec::new();
    // First position in `order` of the current hand, longest of its holds so far.
    let (mut first, mut longest) = (0, 0.0f64);
    for n in 0..order.len() {
        let i = order[n];
        let (hand, start, length) = holds[i];
        if holds[order[first]].0 != hand {
            (first, longest) = (n, 0.0);
        }
        used.clear();
        // Earlier holds reaching this one's start, and (around the period) holds at the
        // start of the period this one reaches.
        for &j in order[first..n].iter().rev() {
            if start - holds[j].1 >= longest {
                break;
            }
            if overlaps(holds[j], holds[i]) {
                used.push(lanes[j]);
            }
        }
        for &j in &order[first..n] {
            if holds[j].1 + period - start >= length {
                break;
            }
            if overlaps(holds[j], holds[i]) {
                used.push(lanes[j]);
            }
        }
        lanes[i] = (0..).find(|l| !used.contains(l)).unwrap_or(0);
        longest = longest.max(length);
    }
    lanes
}

/// How a hold from `start` to `end` (seconds, `end > start`) is cut at the hand's throws.
#[derive(Clone, Debug, PartialEq)]
struct HoldPieces {
    /// Piece `w` runs from `bounds[w]` to `bounds[w + 1]`; every piece but the first lasts
    /// one period and ends (modulo the period) at the hold's throw.
    bounds: Vec<f64>,
    /// Seconds at the start of every piece but the first in which the prop slides over from
    /// the previous piece's lane: half the time from the throw to the next catch.
    slide: f64,
}

/// Cuts a hold longer than one hand period `period` into one period pieces ending at its
/// throw (modulo the period), the first piece taking the rest; a shorter hold is one piece.
fn hold_pieces(start: f64, end: f64, period: f64) -> HoldPieces {
    let length = end - start;
    if period.is_nan() || period <= 0.0 || length <= period + 1e-9 {
        return HoldPieces {
            bounds: vec![start, end],
            slide: 0.0,
        };
    }
    let count = ((length - 1e-9) / period).ceil().min(64.0) as usize;
    let mut bounds = vec![start];
    for w in 1..count {
        bounds.push(end - (count - w) as f64 * period);
    }
    bounds.push(end);
    HoldPieces {
        bounds,
        slide: 0.5 * (count as f64 * period - length).max(0.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{Hand, HandRef};

    #[test]
    fn held_lanes_do_not_depend_on_the_loop_end_rounding() {
        // [32]1's one path as juggler's JML reader builds it from the file's microseconds
        // (loop 2.068965 s of three 0.689655 s hand periods) and as the siteswap times give
        // it (2.9 beats/s): the long hold's last piece starts one period before the loop's
        // end, which modulo the period is 0 (or a rounding error short of 0.689655). Both
        // must give the same lanes: the long-held prop outside, the next catch beside it.
        let right = HandRef::new(0, Hand::Right);
        let left = HandRef::new(0, Hand::Left);
        let lanes = |beat: f64, round: bool| {
            let r = |t: f64| if round { (t * 1e6).round() / 1e6 } else { t };
            let period = r(2.0 * beat);
            let at = |beats: f64| r(beats * beat);
            let toss = |from, to, release, catch| Toss::plain(from, to, release, catch);
            let mut tosses = vec![
                toss(right, left, 0.0, at(1.7)),
                toss(left, right, at(2.4), at(2.7)),
            ];
            let held = |start, end, hand| PathSegment::Held {
                start,
                end,
                hand: HandRef::slot(hand),
                offset0: DVec3::ZERO,
                offset1: DVec3::ZERO,
            };
            let mut paths = vec![PropPath {
                segments: vec![
                    PathSegment::Air {
                        start: 0.0,
                        end: at(1.7),
                        toss: 0,
                    },
                    held(at(1.7), at(2.4), left),
                    PathSegment::Air {
                        start: at(2.4),
                        end: at(2.7),
                        toss: 1,
                    },
                    held(at(2.7), 3.0 * period, right),
                ],
                cycle: 3.0 * period,
                props: 3,
                orbit: 0,
            }];
            spread_held_props(&mut paths, &mut tosses, period);
            // Catch lane of the 1 and release lane of the held 2.
            (tosses[1].catch_offset.x, tosses[0].release_offset.x)
        };
        let h = MULTIPLEX_SPREAD / 2.0;
        assert_eq!(lanes(1.0 / 2.9, false), (h, -h));
        assert_eq!(lanes(1.0 / 2.9, true), (h, -h));
    }

    #[test]
    fn a_hold_longer_than_the_period_is_cut_at_its_throws() {
        // Held 3.3 s with a 2 s hand period: a first piece of 1.3 s, then one whole period
        // ending at the throw; the prop behind slides over in half the 0.7 s the last piece
        // leaves free before the next catch.
        let pieces = hold_pieces(0.7, 4.0, 2.0);
        assert_eq!(pieces.bounds, vec![0.7, 2.0, 4.0]);
        assert!((pieces.slide - 0.35).abs() < 1e-12);
        // A hold within one period is one piece.
        assert_eq!(
            hold_pieces(0.5, 1.5, 2.0),
            HoldPieces {
                bounds: vec![0.5, 1.5],
                slide: 0.0
            }
        );
    }

    #[test]
    fn overlapping_holds_of_one_hand_take_the_lowest_free_lanes() {
        // Hand 1 holds [0, 1.5) and [1, 2) of a 2 s period, and [1.8, 2.3) wraps round onto
        // the first hold's start; hand 0's hold overlaps none of them.
        let holds = [(1, 0.0, 1.5), (1, 1.0, 1.0), (1, 1.8, 0.5), (0, 0.2, 1.0)];
        assert_eq!(assign_lanes(&holds, 2.0), vec![0, 1, 2, 0]);
        // A start a rounding error short of the period counts as 0.
        assert_eq!(phase(2.0 - 1e-7, 2.0), 0.0);
        assert!((phase(5.5, 2.0) - 1.5).abs() < 1e-12);
    }
}
