//! The siteswap generator: every solo asynchronous pattern of a number of props, a maximum
//! throw and a period, with Juggling Lab's options and the same set of patterns as its
//! generator (J2).
//!
//! Patterns are cycles in the state graph. A pattern is found from its start state `s0` by a
//! depth-first search over the throws of each beat. Which cycles are listed, and in which
//! rotation, follows J2's rules (learnt from its documentation and behaviour):
//! - states compare by the highest beat at which they differ (a prop landing later is
//!   greater), so the ground state is the least state;
//! - without `-rot` a pattern is listed from its least state, so each is listed once;
//! - by default (not `-f`) a pattern may not pass through its start state in the middle
//!   (`333` and `423` are not listed as period-3 patterns: they are `3` and `42`+`3`);
//!   with `-f` it may, and among the rotations starting in that state the greatest
//!   sequence is listed; with `-prime` no state may be visited twice;
//! - a state can only start a period-`L` pattern if a prop landing at beat `k + L` implies
//!   one landing at beat `k` (used to prune).
//!
//! Excited-state patterns carry a get-in sequence from the ground state and a get-out back to
//! it, as [`super::state::shortest_transition`] finds them.

use rayon::prelude::*;
use regex::Regex;

use super::query::{
    binomial, compile, GenError, GroundFilter, Listing, Matching, Query, MAX_PERIOD,
};
use super::state::{ground, shortest_transition, throw_char, State, MAX_HEIGHT};

/// One generated pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Found {
    pub throws: Vec<u32>,
    /// The state before the first throw.
    pub state: State,
    pub ground_state: bool,
    /// Throws from the ground state into `state` (empty for ground state patterns).
    pub get_in: Vec<u32>,
    /// Throws from `state` back to the ground state.
    pub get_out: Vec<u32>,
}

#[cfg(test)]
impl Found {
    pub fn text(&self) -> String {
        self.throws.iter().map(|&t| throw_char(t)).collect()
    }
}

/// A validated query, ready to run.
#[derive(Debug)]
pub(crate) struct Plan {
    props: u32,
    height: u32,
    periods: Vec<u32>,
    ground: GroundFilter,
    listing: Listing,
    rotations: bool,
    lame: bool,
    exclude: Vec<Regex>,
    include: Vec<Regex>,
}

/// Checks a query and works out the throw height and the periods to search.
pub(crate) fn plan(q: &Query) -> Result<Plan, GenError> {
    if q.props < 1 {
        return Err(GenError::NoProps);
    }
    let period_max = match q.period_max {
        Some(p) => p,
        None => {
            if q.listing != Listing::Prime {
                return Err(GenError::UnboundedNeedsPrime);
            }
            let Some(h) = q.max_throw else {
                return Err(GenError::Underspecified);
            };
            // A prime pattern visits each state at most once.
            let states = binomial(u64::from(h), u64::from(q.props)).max(1);
            if states > u128::from(MAX_PERIOD) {
                return Err(GenError::TooLong(states));
            }
            states as u32
        }
    };
    if q.period_min < 1 || period_max < q.period_min {
        return Err(GenError::BadPeriod(q.period_min, period_max));
    }
    let height = match q.max_throw {
        Some(h) => u64::from(h),
        None => u64::from(q.props) * u64::from(period_max),
    };
    if height < 1 {
        return Err(GenError::HeightTooSmall);
    }
    if height > u64::from(MAX_HEIGHT) {
        return Err(GenError::TooHigh(height));
    }
    Ok(Plan {
        props: q.props,
        height: height as u32,
        periods: (q.period_min..=period_max).collect(),
        ground: q.ground,
        listing: q.listing,
        rotations: q.rotations,
        lame: q.lame,
        exclude: compile(&q.exclude, Matching::Exclude)?,
        include: compile(&q.include, Matching::Include)?,
    })
}

impl Plan {
    /// The throw height searched (the maximum throw, or props × period when unbounded).
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Start states of period-`l` patterns, in Juggling Lab's order (props placed at the
    /// lowest beats first, so the ground state comes first).
    fn start_states(&self, l: u32) -> Vec<State> {
        let g = ground(self.props);
        if self.ground == GroundFilter::GroundOnly {
            return if self.props <= self.height {
                vec![g]
            } else {
                Vec::new()
            };
        }
        let mut out = Vec::new();
        fn place(h: u32, l: u32, left: u32, from: u32, s: State, out: &mut Vec<State>) {
            if left == 0 {
                out.push(s);
                return;
            }
            for i in from..h {
                if h - i < left {
                    break;
                }
                // A prop at beat i + L needs one at beat i.
                if i >= l && s >> (i - l) & 1 == 0 {
                    continue;
                }
                place(h, l, left - 1, i + 1, s | 1u128 << i, out);
            }
        }
        place(self.height, l, self.props, 0, 0, &mut out);
        if self.ground == GroundFilter::ExcitedOnly {
            out.retain(|&s| s != g);
        }
        out
    }

    /// The (period, start state) pairs to search, in output order.
    fn tasks(&self) -> Vec<(u32, State)> {
        self.periods
            .iter()
            .flat_map(|&l| self.start_states(l).into_iter().map(move |s| (l, s)))
            .collect()
    }

    /// Counts the patterns on all cores. The work is split into the partial patterns of the
    /// first two beats of every start state, because a few start states (the ground state
    /// first) hold most of the patterns.
    pub fn count(&self) -> u64 {
        // Patterns shorter than the split are found (and counted) in the first pass.
        let (short, prefixes): (Vec<u64>, Vec<Vec<Prefix>>) = self
            .tasks()
            .into_par_iter()
            .map(|(l, s0)| {
                let mut search = Search::new(self, l, s0);
                search.split_at = Some(2);
                search.run(&mut |_: &[u32]| {});
                (search.found, std::mem::take(&mut search.prefixes))
            })
            .unzip();
        short.iter().sum::<u64>()
            + prefixes
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .into_par_iter()
                .map(|p| {
                    let mut search = Search::new(self, p.l, p.states[0]);
                    search.resume(p, &mut |_: &[u32]| {});
                    search.found
                })
                .sum::<u64>()
    }

    /// Finds the patterns and hands them to `sink` in a fixed order (start states in chunks
    /// searched in parallel, each chunk delivered as soon as it is done). `sink` returns
    /// `false` to stop. Returns the number of patterns delivered.
    pub fn generate(&self, sink: &mut dyn FnMut(&Found) -> bool) -> u64 {
        let tasks = self.tasks();
        let g = ground(self.props);
        let mut delivered = 0u64;
        for chunk in tasks.chunks(64) {
            let results: Vec<Vec<Found>> = chunk
                .par_iter()
                .map(|&(l, s0)| {
                    let mut patterns: Vec<Vec<u32>> = Vec::new();
                    let mut search = Search::new(self, l, s0);
                    search.run(&mut |t: &[u32]| patterns.push(t.to_vec()));
                    if patterns.is_empty() {
                        return Vec::new();
                    }
                    let get_in = shortest_transition(g, s0).unwrap_or_default();
                    let get_out = shortest_transition(s0, g).unwrap_or_default();
                    patterns
                        .into_iter()
                        .map(|throws| Found {
                            throws,
                            state: s0,
                            ground_state: s0 == g,
                            get_in: get_in.clone(),
                            get_out: get_out.clone(),
                        })
                        .collect()
                })
                .collect();
            for found in results.iter().flatten() {
                delivered += 1;
                if !sink(found) {
                    return delivered;
                }
            }
        }
        delivered
    }
}

/// A partial pattern to continue searching from.
struct Prefix {
    l: u32,
    states: Vec<State>,
    throws: Vec<u32>,
    text: String,
}

/// The depth-first search for the patterns of one period through one start state.
struct Search<'a> {
    plan: &'a Plan,
    l: u32,
    s0: State,
    /// `states[i]` = state before throw `i`.
    states: Vec<State>,
    throws: Vec<u32>,
    text: String,
    found: u64,
    /// Stop at this beat and keep the partial patterns in `prefixes` instead.
    split_at: Option<u32>,
    prefixes: Vec<Prefix>,
}

impl<'a> Search<'a> {
    fn new(plan: &'a Plan, l: u32, s0: State) -> Search<'a> {
        Search {
            plan,
            l,
            s0,
            states: Vec::with_capacity(l as usize + 1),
            throws: Vec::with_capacity(l as usize),
            text: String::new(),
            found: 0,
            split_at: None,
            prefixes: Vec::new(),
        }
    }

    /// Continues the search from a partial pattern.
    fn resume(&mut self, p: Prefix, emit: &mut dyn FnMut(&[u32])) {
        let pos = p.throws.len() as u32;
        let s = *p.states.last().unwrap_or(&self.s0);
        self.states = p.states;
        self.throws = p.throws;
        self.text = p.text;
        self.beat(pos, s, emit);
    }

    fn run(&mut self, emit: &mut dyn FnMut(&[u32])) {
        self.states.push(self.s0);
        self.beat(0, self.s0, emit);
    }

    /// Tries every throw at beat `pos` from state `s`.
    fn beat(&mut self, pos: u32, s: State, emit: &mut dyn FnMut(&[u32])) {
        if self.split_at == Some(pos) && pos < self.l {
            self.prefixes.push(Prefix {
                l: self.l,
                states: self.states.clone(),
                throws: self.throws.clone(),
                text: self.text.clone(),
            });
            return;
        }
        if pos == self.l {
            if s == self.s0 && self.complete_ok() {
                self.found += 1;
                emit(&self.throws);
            }
            return;
        }
        let base = s >> 1;
        if s & 1 == 0 {
            self.step(pos, 0, base, emit);
            return;
        }
        // Throws landing at beat pos + j >= L must fill a place of the start state.
        let before_end = self.l - pos - 1; // throws 1..=before_end land before the end
        let low = if before_end >= 128 {
            State::MAX
        } else {
            (1u128 << before_end) - 1
        };
        let wrap = if before_end >= 128 {
            0
        } else {
            self.s0 << before_end
        };
        let height_mask = if self.plan.height >= 128 {
            State::MAX
        } else {
            (1u128 << self.plan.height) - 1
        };
        let mut cands = !base & (low | wrap) & height_mask;
        while cands != 0 {
            let bit = cands & cands.wrapping_neg();
            cands &= cands - 1;
            let value = bit.trailing_zeros() + 1;
            self.step(pos, value, base | bit, emit);
        }
    }

    /// Makes throw `value` at beat `pos`, reaching state `next`, and goes on if allowed.
    fn step(&mut self, pos: u32, value: u32, next: State, emit: &mut dyn FnMut(&[u32])) {
        let plan = self.plan;
        let l = self.l;
        // Only states that can lie on a period-L pattern.
        if l < 128 && (next >> l) & !next != 0 {
            return;
        }
        let end = pos + 1 == l;
        if !end && next == self.s0 && plan.listing != Listing::Full {
            return;
        }
        if !plan.rotations && next < self.s0 {
            return;
        }
        if plan.listing == Listing::Prime && !end && self.states[1..].contains(&next) {
            return;
        }
        if plan.lame && value == 1 && self.throws.last() == Some(&1) {
            return;
        }
        self.throws.push(value);
        let text_len = self.text.len();
        let keep = if plan.exclude.is_empty() && plan.include.is_empty() {
            true
        } else {
            self.text.push(throw_char(value));
            !plan.exclude.iter().any(|re| re.is_match(&self.text))
        };
        if keep {
            self.states.push(next);
            self.beat(pos + 1, next, emit);
            self.states.pop();
        }
        self.text.truncate(text_len);
        self.throws.pop();
    }

    /// Checks of a whole pattern: inclusions and, for composite patterns under `-f`, that
    /// this is the rotation to list.
    fn complete_ok(&self) -> bool {
        let plan = self.plan;
        if !plan.include.iter().all(|re| re.is_match(&self.text)) {
            return false;
        }
        if plan.listing == Listing::Full && !plan.rotations {
            let l = self.l as usize;
            for i in 1..l {
                if self.states[i] == self.s0 {
                    let rotated = self.throws[i..].iter().chain(&self.throws[..i]);
                    // List the greatest of the rotations starting in the start state.
                    if rotated.cmp(self.throws.iter()) == std::cmp::Ordering::Greater {
                        return false;
                    }
                }
            }
        }
        true
    }
}

#[cfg(test)]
#[path = "solo/tests.rs"]
mod tests;
