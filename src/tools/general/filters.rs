//! The tests a whole pattern passes before it is listed: `-i` expressions, `-lame`, the
//! rotation listed under `-f`, and for passing `-cp`, `-sym` and J2's juggler ordering
//! (unless `-jp`).

use std::cmp::Ordering;

use super::plan::Plan;
use super::table::ThrowTable;
use crate::tools::query::Listing;

/// A complete pattern of `period` beats: its throws, and the states before each beat
/// (`states[period]` = `states[0]`).
pub(crate) struct Complete<'a, S> {
    pub(crate) plan: &'a Plan,
    pub(crate) period: usize,
    pub(crate) table: &'a ThrowTable,
    pub(crate) states: &'a [S],
    pub(crate) text: &'a str,
    /// J2's juggler order (without `-jp`) was checked already.
    pub(crate) order_checked: bool,
}

impl<S: PartialEq> Complete<'_, S> {
    /// Whether the pattern is listed.
    pub(crate) fn listed(&self) -> bool {
        let p = self.plan;
        if !p.include.iter().all(|re| re.is_match(self.text)) {
            return false;
        }
        if !p.sync && p.lame && p.multiplex == 1 && self.has_two_self_ones() {
            return false;
        }
        if p.listing == Listing::Full && !p.rotations && !self.greatest_rotation() {
            return false;
        }
        if p.jugglers > 1 {
            if p.connected && !self.connected() {
                return false;
            }
            if !p.permutations && !self.order_checked && !self.jugglers_in_order() {
                return false;
            }
            if p.symmetric && !self.symmetric() {
                return false;
            }
        }
        true
    }

    /// `-lame`: a juggler makes a self 1 on two beats in a row.
    fn has_two_self_ones(&self) -> bool {
        let (p, t) = (self.plan, self.table);
        let self_one = |beat: usize, place: usize| {
            t.value(beat, place, 0) == 1
                && p.juggler_of[t.target(beat, place, 0)] == p.juggler_of[place]
        };
        (0..self.period - 1).any(|beat| {
            (0..p.places).any(|place| self_one(beat, place) && self_one(beat + 1, place))
        })
    }

    /// Under `-f`, among the rotations starting in the start state the greatest is listed.
    fn greatest_rotation(&self) -> bool {
        let rhythm = self.plan.rhythm;
        (rhythm..self.period).step_by(rhythm).all(|beat| {
            self.states[0] != self.states[beat] || self.compare_rotations(0, beat) != Ordering::Less
        })
    }

    /// Compares the pattern read from `a` with the pattern read from `b`, loop by loop (a
    /// loop runs from a visit of `a`'s state to the next).
    fn compare_rotations(&self, a: usize, b: usize) -> Ordering {
        let period = self.period;
        let mut beat = 0;
        while beat < period {
            let order = self.compare_loops((a + beat) % period, (b + beat) % period);
            if order != Ordering::Equal {
                return order;
            }
            beat += 1;
            while beat < period && self.states[a] != self.states[(a + beat) % period] {
                beat += 1;
            }
        }
        Ordering::Equal
    }

    /// Compares the loops starting at beats `a` and `b` (both in the state of `a`): throw by
    /// throw, and a loop that closes earlier is the lesser.
    fn compare_loops(&self, mut a: usize, mut b: usize) -> Ordering {
        let start = &self.states[a];
        let mut order = Ordering::Equal;
        let mut beats = 0;
        loop {
            beats += 1;
            if order == Ordering::Equal {
                order = self.compare_throws(a, b);
            }
            if beats % self.plan.rhythm == 0 {
                let a_closes = self.states[a + 1] == *start;
                let b_closes = self.states[b + 1] == *start;
                match (a_closes, b_closes) {
                    (true, true) => return order,
                    (true, false) => return Ordering::Less,
                    (false, true) => return Ordering::Greater,
                    (false, false) => {}
                }
            }
            a += 1;
            b += 1;
            if a >= self.period || b >= self.period {
                return order;
            }
        }
    }

    /// Compares the throws of two beats: place by place, slot by slot, value then target.
    fn compare_throws(&self, a: usize, b: usize) -> Ordering {
        let (p, t) = (self.plan, self.table);
        let slots = usize::from(p.capacity(a));
        for place in 0..p.places {
            for slot in 0..slots {
                let order = t
                    .value(a, place, slot)
                    .cmp(&t.value(b, place, slot))
                    .then(t.target(a, place, slot).cmp(&t.target(b, place, slot)));
                if order != Ordering::Equal {
                    return order;
                }
            }
        }
        Ordering::Equal
    }

    /// `-cp`: every juggler is joined to juggler 1 by passes (either way).
    fn connected(&self) -> bool {
        let (p, t) = (self.plan, self.table);
        let mut joined = vec![false; p.jugglers];
        joined[0] = true;
        let mut changed = true;
        while changed {
            changed = false;
            for beat in 0..self.period {
                for place in 0..p.places {
                    let thrower = p.juggler_of[place] - 1;
                    if joined[thrower] {
                        continue;
                    }
                    if t.throws(beat, place)
                        .any(|(_, target)| joined[p.juggler_of[target] - 1])
                    {
                        joined[thrower] = true;
                        changed = true;
                    }
                }
            }
        }
        joined.iter().all(|&j| j)
    }

    /// J2's scores of every juggler's throws on every beat: higher throws score more, then
    /// throws to another place, then passes. `scores[(juggler - 1) * period + beat]`.
    fn scores(&self, scores: &mut [i64]) {
        let (p, t) = (self.plan, self.table);
        let unit = 2 * p.multiplex as i64;
        let mut index = 0;
        for beat in 0..self.period {
            for place in 0..p.places {
                let juggler = p.juggler_of[place];
                let row = (juggler - 1) * self.period + beat;
                for slot in index..index + p.multiplex {
                    let value = t.values[slot];
                    if value == 0 {
                        break;
                    }
                    let target = usize::from(t.targets[slot]);
                    let mut score = 4 * i64::from(value) * unit * unit;
                    if target != place {
                        score += 2 * unit;
                        if p.juggler_of[target] != juggler {
                            score += 1;
                        }
                    }
                    scores[row] += score;
                }
                index += p.multiplex;
            }
        }
    }

    /// Without `-jp`: no juggler's scores, best beat first, are greater than the juggler's
    /// before (compared as sequences).
    fn jugglers_in_order(&self) -> bool {
        const SHORT: usize = 64;
        let period = self.period;
        let size = period * self.plan.jugglers;
        let mut short = [0i64; SHORT];
        let mut long = Vec::new();
        let scores = if size <= SHORT {
            &mut short[..size]
        } else {
            long.resize(size, 0);
            &mut long[..]
        };
        scores.fill(0);
        self.scores(scores);
        // Most patterns are decided by the best beats alone.
        let best = |row: &[i64]| row.iter().copied().max().unwrap_or(0);
        let mut sorted = false;
        for juggler in 1..self.plan.jugglers {
            let (before, next) =
                scores[(juggler - 1) * period..(juggler + 1) * period].split_at_mut(period);
            match best(next).cmp(&best(before)) {
                Ordering::Greater => return false,
                Ordering::Less => continue,
                Ordering::Equal => {}
            }
            if !sorted {
                // Sorted once for all pairs (sorting keeps each row's best beat).
                for row in scores.chunks_mut(period) {
                    row.sort_unstable();
                }
                sorted = true;
            }
            let (before, next) =
                scores[(juggler - 1) * period..(juggler + 1) * period].split_at(period);
            // Rows sorted in increasing order, compared from their best beats.
            if next.iter().rev().gt(before.iter().rev()) {
                return false;
            }
        }
        true
    }

    /// `-sym`: every juggler makes juggler 1's throws at some beat offset (passes to juggler 1
    /// matching passes to that juggler).
    fn symmetric(&self) -> bool {
        let (p, t) = (self.plan, self.table);
        let period = self.period;
        (2..=p.jugglers).all(|juggler| {
            (0..period).any(|offset| {
                (0..period).all(|beat| {
                    let other = (beat + offset) % period;
                    let theirs = (0..p.places).filter(|&place| p.juggler_of[place] == juggler);
                    // Juggler 1's places are the first ones.
                    theirs.enumerate().all(|(first, place)| {
                        (0..p.multiplex)
                            .map(|slot| {
                                (
                                    t.value(beat, first, slot),
                                    t.target(beat, first, slot),
                                    t.value(other, place, slot),
                                    t.target(other, place, slot),
                                )
                            })
                            .take_while(|&(v1, _, vj, _)| v1 != 0 || vj != 0)
                            .all(|(v1, t1, vj, tj)| {
                                v1 == vj
                                    && (p.juggler_of[t1] == 1) == (p.juggler_of[tj] == juggler)
                                    && (t1 == first) == (tj == place)
                            })
                    })
                })
            })
        })
    }
}
