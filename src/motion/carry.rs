//! Hands carry their props' lanes: a flight lane (`flight_lanes.rs`) moves a prop a few centimetres
//! off its hand's event points, and a held prop slides from the lane it arrived in to the lane it
//! leaves in (`PathSegment::Held` offsets). Without more, the hand would stay on its path and catch
//! and throw its ball up to `MAX_FLIGHT_LANE` in front of its fist (645, 753, 97531, 423: 11 cm),
//! its club with the handle 10 cm beside it. A hand the lanes mark (`Choreography::hands_carry`:
//! one prop at a time, or balls, on its own side of the body or crossing it clear of the other
//! forearm, no bounce caught) follows the forward
//! part of the offsets of the ball it holds, and the forward and sideways parts of a club's
//! (`Carrying`, `Carried`), all of them or a share (`HandCarry`: where all would take its
//! forearm into flights passing it or its hand above the carrying's acceleration bound, the
//! rest of the way the prop comes into the hand as a hand carrying nothing lets it): at every
//! start and end of a held piece the hand's offset is that part
//! (the lanes move it smoothly from the catch lane to the throw lane, in pieces), so the ball is in
//! the hand from catch to throw (a hand holding several balls goes to the mean of theirs). A ring's
//! hand follows the forward part of its lanes straight from the catch to the throw, not the quick
//! slides that part held rings (`held_rings.rs`), so the rim is in the fist except while it slides;
//! while the hand is empty, a cubic joins the offset it threw from to the one it catches at with
//! the slopes of the holds on either side, so the hand moves with continuous velocity. Props,
//! flights and the hands' paths are unchanged: only the hand (and so its arm) moves;
//! `Motion::hand_path_at` gives the path without it.

use glam::DVec3;

use super::choreography::{Carrying, Choreography, HandCarry, PathSegment};
use crate::types::{Hand, HandRef};

/// Most held pieces (and events) of one hand followed: 128 holds of 8 pieces (larger patterns
/// keep their hands on their paths; each knot looks at every piece).
const MAX_PIECES: usize = 1024;
/// Offsets below this (metres) are taken as zero: the hand needs no carrying.
const NEGLIGIBLE: f64 = 1e-6;

/// Which part of its held props' offsets (lanes run sideways or in depth) a hand carries:
/// the forward part (toward the audience), for a juggler facing `forward` (unit, in the
/// offsets' frame). A hand reaching forward keeps its elbow by its side; carrying lanes back
/// took elbows behind the shoulders (tried at stop 44), carrying passes' lanes sideways put
/// elbows into the torso (PPS, Bookends) and hands of one-count triangles above 200 m/s².
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Carried {
    forward: DVec3,
    way: Carrying,
    share: f64,
}

impl Carried {
    /// For a juggler facing `facing` (radians; 0 gives juggler-local directions).
    pub(super) fn of(facing: f32, carry: HandCarry) -> Carried {
        let (sin, cos) = f64::from(facing).sin_cos();
        Carried {
            forward: DVec3::new(sin, 0.0, cos),
            way: carry.way,
            share: carry.share,
        }
    }

    /// Whether the hand goes straight from lane to lane (`Carrying::ForwardLanes`): the prop
    /// then slides straight too, as a hand that carries nothing lets it.
    pub(super) fn lanes_only(self) -> bool {
        self.way == Carrying::ForwardLanes
    }

    /// The part of `offset` the hand carries (its share of it).
    pub(super) fn part(self, offset: DVec3) -> DVec3 {
        let along = offset.dot(self.forward);
        self.share
            * match self.way {
                Carrying::Forward | Carrying::ForwardLanes => self.forward * along.max(0.0),
                Carrying::ForwardAndSideways => offset - self.forward * along.min(0.0),
            }
    }
}

/// Whether hand slot `slot` (of events `events`) stays on its own side of the body: a hand
/// crossing over (the Mills Mess, Juggling Lab's Follow and Reachunder) carried forward met
/// the other forearm and its props, so a crossing hand carries only where its forearm is
/// measured to stay as clear of the other (`flight_lanes.rs`, `CROSSED_CLEAR`).
pub(super) fn stays_on_its_side(slot: usize, events: &[super::choreography::HandEvent]) -> bool {
    let side = match HandRef::from_slot(slot).hand {
        Hand::Right => -1.0,
        Hand::Left => 1.0,
    };
    events.iter().all(|e| e.position.x * side > 0.0)
}

/// One hand's carrying offset over a hand period (juggler-local metres).
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Carry {
    period: f64,
    /// Knots sorted by time in `[0, period)`: time, offset, slope (m/s).
    knots: Vec<(f64, DVec3, DVec3)>,
}

impl Carry {
    /// Offset and its rate at `t` (any real number; periodic).
    pub(super) fn at(&self, t: f64) -> (DVec3, DVec3) {
        let n = self.knots.len();
        if n == 0 || !t.is_finite() {
            return (DVec3::ZERO, DVec3::ZERO);
        }
        let u = t.rem_euclid(self.period);
        let i = self.knots.partition_point(|k| k.0 <= u);
        let (k0, k1, u) = if i == 0 || i == n {
            // Between the last knot and the first of the next period.
            let u = if i == 0 { u + self.period } else { u };
            (n - 1, 0, u)
        } else {
            (i - 1, i, u)
        };
        let (t0, p0, m0) = self.knots[k0];
        let (mut t1, p1, m1) = self.knots[k1];
        if k1 <= k0 {
            t1 += self.period;
        }
        let h = t1 - t0;
        if h.is_nan() || h <= 0.0 {
            return (p0, DVec3::ZERO);
        }
        let s = ((u - t0) / h).clamp(0.0, 1.0);
        let (s2, s3) = (s * s, s * s * s);
        let p = p0 * (2.0 * s3 - 3.0 * s2 + 1.0)
            + m0 * (h * (s3 - 2.0 * s2 + s))
            + p1 * (-2.0 * s3 + 3.0 * s2)
            + m1 * (h * (s3 - s2));
        let v = (p0 * (6.0 * s2 - 6.0 * s) + p1 * (6.0 * s - 6.0 * s2)) / h
            + m0 * (3.0 * s2 - 4.0 * s + 1.0)
            + m1 * (3.0 * s2 - 2.0 * s);
        (p, v)
    }
}

/// A held piece of one hand on the hand period's time line: start, end, offsets at both, and
/// whether its end is a knot (the last piece of its hold; a hold cut into pieces counts each
/// prop once at the cuts).
struct Piece {
    start: f64,
    end: f64,
    offset0: DVec3,
    offset1: DVec3,
    starts_hold: bool,
    ends_hold: bool,
}

impl Piece {
    /// The piece's offset at `t` on the hand period's line, if it holds then (its start
    /// moved by whole periods to the first time at or before `t`).
    fn at(&self, t: f64, period: f64, at_end: bool) -> Option<DVec3> {
        let length = self.end - self.start;
        let since = (t - self.start).rem_euclid(period);
        let since = if since > period - 1e-9 { 0.0 } else { since };
        if since > length + 1e-9 {
            return None;
        }
        // A knot at the piece's end belongs to the next piece unless the hold ends there.
        if !at_end && length > 0.0 && since >= length - 1e-9 && !self.ends_hold {
            return None;
        }
        let f = if length > 0.0 {
            (since / length).clamp(0.0, 1.0)
        } else {
            1.0
        };
        Some(self.offset0.lerp(self.offset1, f))
    }
}

/// Per hand slot, how it carries its props (`None`: it stays on its path: the lanes do not
/// mark it, no held prop is off it, or the pattern is too large).
pub(super) fn hand_carry(ch: &Choreography, slots: usize) -> Vec<Option<Carry>> {
    let period = ch.hand_period;
    let mut pieces: Vec<Vec<Piece>> = (0..slots).map(|_| Vec::new()).collect();
    if !(period.is_finite() && period > 0.0) {
        return vec![None; slots];
    }
    for path in &ch.paths {
        let m = path.segments.len();
        for (k, segment) in path.segments.iter().enumerate() {
            let PathSegment::Held {
                start,
                end,
                hand,
                offset0,
                offset1,
            } = *segment
            else {
                continue;
            };
            let Some(way) = ch.hands_carry.get(hand).copied().flatten() else {
                continue;
            };
            let Some(list) = pieces.get_mut(hand) else {
                continue;
            };
            let length = end - start;
            // A piece of a hand period or more holds at every knot; longer ones are cut to
            // one period (the hand cannot follow a slide over several).
            if !(length.is_finite() && length >= 0.0 && start.is_finite()) {
                continue;
            }
            let ends_hold = !matches!(
                path.segments[(k + 1) % m],
                PathSegment::Held { hand: h, .. } if h == hand
            ) || m == 1;
            let starts_hold = !matches!(
                path.segments[(k + m - 1) % m],
                PathSegment::Held { hand: h, .. } if h == hand
            ) || m == 1;
            let (end, offset1) = if length > period {
                let f = period / length;
                (start + period, offset0.lerp(offset1, f))
            } else {
                (end, offset1)
            };
            list.push(Piece {
                start: start.rem_euclid(period),
                end: start.rem_euclid(period) + (end - start),
                offset0: Carried::of(0.0, way).part(offset0),
                offset1: Carried::of(0.0, way).part(offset1),
                starts_hold,
                ends_hold,
            });
        }
    }
    pieces
        .into_iter()
        .enumerate()
        .map(|(slot, list)| {
            let events: Vec<f64> = ch
                .hands
                .get(slot)
                .map(|e| e.iter().map(|e| e.time).collect())
                .unwrap_or_default();
            let lanes_only = ch
                .hands_carry
                .get(slot)
                .copied()
                .flatten()
                .is_some_and(|c| c.way == Carrying::ForwardLanes);
            carry_of(&list, &events, period, lanes_only)
        })
        .collect()
}

/// The carry of a hand holding `pieces`, whose own events (Juggling Lab's points it passes
/// on an empty beat) are at `events`: there, if it holds nothing, it is at its point. With
/// `lanes_only` the hand follows its props from catch to throw alone (knots where holds
/// begin and end), not how they slide in between.
fn carry_of(pieces: &[Piece], events: &[f64], period: f64, lanes_only: bool) -> Option<Carry> {
    if pieces.is_empty() || pieces.len() > MAX_PIECES || events.len() > MAX_PIECES {
        return None;
    }
    if pieces
        .iter()
        .all(|p| p.offset0.length() < NEGLIGIBLE && p.offset1.length() < NEGLIGIBLE)
    {
        return None;
    }
    // Knots at every piece's start and end, in [0, period).
    let wrap = |t: f64| {
        let t = t.rem_euclid(period);
        if t > period - 1e-9 {
            0.0
        } else {
            t
        }
    };
    let mut times: Vec<f64> = pieces
        .iter()
        .flat_map(|p| {
            [
                (p.starts_hold || !lanes_only).then_some(wrap(p.start)),
                (p.ends_hold || !lanes_only).then_some(wrap(p.end)),
            ]
        })
        .flatten()
        .chain(events.iter().map(|&t| wrap(t)))
        .filter(|t| t.is_finite())
        .collect();
    times.sort_by(f64::total_cmp);
    times.dedup_by(|a, b| (*a - *b).abs() < 1e-9);
    // Pieces covering each knot (a sweep would do; the pieces are at most `MAX_PIECES`).
    let mut knots: Vec<(f64, DVec3, DVec3)> = Vec::with_capacity(times.len());
    for &t in &times {
        let (sum, n) = pieces
            .iter()
            .filter_map(|p| p.at(t, period, false))
            .fold((DVec3::ZERO, 0usize), |(s, n), o| (s + o, n + 1));
        if n > 0 && sum.is_finite() {
            knots.push((t, sum / n as f64, DVec3::ZERO));
        } else if n == 0 {
            knots.push((t, DVec3::ZERO, DVec3::ZERO));
        }
    }
    let n = knots.len();
    if n == 0 {
        return None;
    }
    if n == 1 {
        return Some(Carry { period, knots });
    }
    // Each interval between knots: its chord slope and whether the hand holds something
    // all through it.
    let chords: Vec<(DVec3, bool)> = (0..n)
        .map(|i| {
            let (t0, p0, _) = knots[i];
            let (t1, p1, _) = knots[(i + 1) % n];
            let t1 = if i + 1 == n { t1 + period } else { t1 };
            let h = t1 - t0;
            let mid = 0.5 * (t0 + t1);
            let held = pieces.iter().any(|p| p.at(mid, period, true).is_some());
            if h > 1e-9 {
                ((p1 - p0) / h, held)
            } else {
                (DVec3::ZERO, held)
            }
        })
        .collect();
    for i in 0..n {
        let (before, held_before) = chords[(i + n - 1) % n];
        let (after, held_after) = chords[i];
        knots[i].2 = match (held_before, held_after) {
            (true, false) => before,
            (false, true) => after,
            // Between two holds (or two empty stretches): the mean slope, flat along an axis
            // where the offset turns back, so the hand never overshoots the props it holds.
            _ => {
                let mean = |a: f64, b: f64| if a * b > 0.0 { 0.5 * (a + b) } else { 0.0 };
                DVec3::new(
                    mean(before.x, after.x),
                    mean(before.y, after.y),
                    mean(before.z, after.z),
                )
            }
        };
    }
    Some(Carry { period, knots })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn piece(start: f64, end: f64, o0: f64, o1: f64) -> Piece {
        Piece {
            start,
            end,
            offset0: DVec3::new(0.0, 0.0, o0),
            offset1: DVec3::new(0.0, 0.0, o1),
            starts_hold: true,
            ends_hold: true,
        }
    }

    #[test]
    fn a_hand_holding_one_prop_at_a_time_is_where_its_prop_is_and_moves_smoothly_between() {
        // Period 1 s: a ball held 0.1–0.4 s sliding from 0.11 m to 0.055 m in depth, another
        // 0.6–0.9 s at 0 throughout (a hold round the period's end also counts).
        let pieces = [piece(0.1, 0.4, 0.11, 0.055), piece(0.6, 0.9, 0.0, 0.0)];
        let carry = carry_of(&pieces, &[], 1.0, false).unwrap();
        for i in 0..=30 {
            let t = 0.1 + 0.3 * f64::from(i) / 30.0;
            let want = 0.11 + (0.055 - 0.11) * (t - 0.1) / 0.3;
            let (p, v) = carry.at(t);
            assert!((p.z - want).abs() < 1e-9, "{t}: {p} want {want}");
            assert!((v.z + 0.055 / 0.3).abs() < 1e-6, "{t}: {v}");
            let (p, v) = carry.at(t + 0.5);
            assert!(p.z.abs() < 1e-9 && v.z.abs() < 1e-9, "{t}: {p} {v}");
        }
        // Between the holds: continuous in position and velocity, and periodic.
        let step = 1e-4;
        let mut last = carry.at(-step);
        for i in 0..=10_000 {
            let t = f64::from(i) * step;
            let now = carry.at(t);
            assert!((now.0 - last.0).length() < 2.0 * step, "{t}");
            assert!((now.1 - last.1).length() < 50.0 * step, "{t}");
            last = now;
        }
        assert!((carry.at(0.25).0 - carry.at(3.25).0).length() < 1e-12);
    }

    #[test]
    fn a_hand_carries_the_forward_part_of_a_lane_and_a_clubs_sideways_and_stays_on_its_side() {
        let c = Carried::of(0.0, HandCarry::all(Carrying::Forward));
        assert_eq!(
            c.part(DVec3::new(0.05, 0.0, 0.11)),
            DVec3::new(0.0, 0.0, 0.11)
        );
        assert_eq!(c.part(DVec3::new(-0.05, 0.0, -0.055)), DVec3::ZERO);
        // A club's hand carries the sideways part too, never the backward one.
        let club = Carried::of(0.0, HandCarry::all(Carrying::ForwardAndSideways));
        assert_eq!(
            club.part(DVec3::new(0.05, 0.0, 0.11)),
            DVec3::new(0.05, 0.0, 0.11)
        );
        assert_eq!(
            club.part(DVec3::new(-0.05, 0.0, -0.055)),
            DVec3::new(-0.05, 0.0, 0.0)
        );
        // A hand carrying a share of its lanes carries that share of each part.
        let quarter = HandCarry {
            way: Carrying::ForwardAndSideways,
            share: 0.25,
        };
        assert_eq!(
            Carried::of(0.0, quarter).part(DVec3::new(-0.08, 0.0, -0.055)),
            DVec3::new(-0.02, 0.0, 0.0)
        );
        // A juggler facing the other way (half a turn): forward is -z in the world.
        let back = Carried::of(std::f32::consts::PI, HandCarry::all(Carrying::Forward))
            .part(DVec3::new(0.0, 0.0, -0.11));
        assert!(
            (back - DVec3::new(0.0, 0.0, -0.11)).length() < 1e-6,
            "{back}"
        );
        let event = |x: f64| super::super::choreography::HandEvent {
            time: 0.0,
            position: DVec3::new(x, 1.0, 0.38),
            throws: Vec::new(),
            catches: Vec::new(),
        };
        let right = HandRef::new(0, Hand::Right).slot();
        let left = HandRef::new(0, Hand::Left).slot();
        assert!(stays_on_its_side(right, &[event(-0.12), event(-0.3)]));
        assert!(!stays_on_its_side(right, &[event(-0.12), event(0.05)]));
        assert!(stays_on_its_side(left, &[event(0.12)]));
        assert!(!stays_on_its_side(left, &[event(-0.12)]));
    }

    #[test]
    fn a_ring_hand_follows_its_lanes_not_the_slides_between() {
        // A ring held 0.1–0.4 s from 0.04 m to 0.02 m in depth, slid 0.03 m further forward
        // over 0.2–0.3 s (three pieces of one hold): the hand goes straight from lane to lane.
        let part = |start: f64, end: f64, o0: f64, o1: f64, first: bool, last: bool| Piece {
            start,
            end,
            offset0: DVec3::new(0.0, 0.0, o0),
            offset1: DVec3::new(0.0, 0.0, o1),
            starts_hold: first,
            ends_hold: last,
        };
        let pieces = [
            part(0.1, 0.2, 0.04, 0.0633, true, false),
            part(0.2, 0.3, 0.0633, 0.0567, false, false),
            part(0.3, 0.4, 0.0567, 0.02, false, true),
        ];
        let lanes = carry_of(&pieces, &[], 1.0, true).unwrap();
        for i in 0..=30 {
            let t = 0.1 + 0.3 * f64::from(i) / 30.0;
            let want = 0.04 - 0.02 * (t - 0.1) / 0.3;
            let (p, _) = lanes.at(t);
            assert!((p.z - want).abs() < 1e-9, "{t}: {p} want {want}");
        }
        // Following every piece, the hand slides with the ring (the lanes alone: 0.03 m).
        let every = carry_of(&pieces, &[], 1.0, false).unwrap();
        assert!(every.at(0.25).0.z > 0.055, "{}", every.at(0.25).0);
    }

    #[test]
    fn a_multiplex_spread_averages_out_and_lanes_do_not() {
        // Two props held together 0.2–0.5 s at ±0.025 m sideways, both in a lane 0.055 m deep.
        let spread = |x: f64| Piece {
            start: 0.2,
            end: 0.5,
            offset0: DVec3::new(x, 0.0, 0.055),
            offset1: DVec3::new(x, 0.0, 0.055),
            starts_hold: true,
            ends_hold: true,
        };
        let carry = carry_of(&[spread(0.025), spread(-0.025)], &[], 1.0, false).unwrap();
        let (p, _) = carry.at(0.3);
        assert!(p.x.abs() < 1e-12 && (p.z - 0.055).abs() < 1e-12, "{p}");
        // No offsets: no carrying.
        assert!(carry_of(&[piece(0.1, 0.4, 0.0, 0.0)], &[], 1.0, false).is_none());
    }
}
