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

use std::sync::Arc;

use regex::Regex;

use crate::budget::{self, GEN_PERIOD};

use super::general::Progress;
use super::query::{
    binomial, compile, GenError, GroundFilter, Listing, Matching, Query, Task, MAX_PERIOD,
};
use super::state::{ground, shortest_transition, throw_char, State, MAX_HEIGHT};

/// A validated query, ready to run.
#[derive(Debug)]
pub(crate) struct Plan {
    pub(crate) props: u32,
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
    if q.leader != 1 {
        return Err(GenError::Leader {
            leader: q.leader,
            jugglers: 1,
        });
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
    budget::check(GEN_PERIOD, u128::from(period_max))?;
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
    /// lowest beats first, so the ground state comes first), one after the other.
    /// The (period, start state) pairs to search, in output order.
    pub(crate) fn tasks(&self) -> impl Iterator<Item = (u32, State)> + Send + 'static {
        let rule = StartStates::new(self, 0);
        self.periods.clone().into_iter().flat_map(move |l| {
            let mut states = rule.clone();
            states.period = l;
            rule.filtered(states).map(move |s| (l, s))
        })
    }

    /// The pieces of work in output order: every (period, start state), split into the
    /// partial patterns of its first two beats (a few start states, the ground state first,
    /// hold most of the patterns).
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))] // the threads' pieces, native only
    fn jobs(self: &Arc<Self>) -> impl Iterator<Item = (Arc<Task<State>>, Job)> + Send + '_ {
        let g = ground(self.props);
        self.tasks().flat_map(move |(l, s0)| {
            let task = Arc::new(Task {
                period: l as usize,
                ground_state: s0 == g,
                start: s0,
            });
            let jobs = if l <= SPLIT_BEAT {
                vec![Job::Whole(l, s0)]
            } else {
                let mut search = Search::new(self, l, s0);
                search.split_at = Some(SPLIT_BEAT);
                search.run(&mut |_: &[u32]| true);
                search.prefixes.into_iter().map(Job::Prefix).collect()
            };
            jobs.into_iter().map(move |job| (task.clone(), job))
        })
    }

    /// Runs one job; `emit` returns `false` to stop.
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))] // the threads' pieces, native only
    fn run_job(self: &Arc<Self>, job: Job, emit: &mut dyn FnMut(&[u32]) -> bool) -> u64 {
        let mut search = match &job {
            Job::Whole(l, s0) => Search::new(self, *l, *s0),
            Job::Prefix(p) => Search::new(self, p.l, p.states[0]),
        };
        match job {
            Job::Whole(..) => search.run(emit),
            Job::Prefix(p) => search.resume(p, emit),
        }
        search.found
    }

    /// The get-in and get-out of a start state, as text.
    pub(crate) fn sequences(&self, s0: State) -> (String, String) {
        let g = ground(self.props);
        let text = |t: Option<Vec<u32>>| {
            t.unwrap_or_default()
                .iter()
                .map(|&t| throw_char(t))
                .collect()
        };
        (
            text(shortest_transition(g, s0)),
            text(shortest_transition(s0, g)),
        )
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl Plan {
    /// Counts the patterns on all cores.
    pub fn count(self: &Arc<Self>) -> u64 {
        use rayon::prelude::*;
        self.jobs()
            .par_bridge()
            .map(|(_, job)| self.run_job(job, &mut |_| true))
            .sum()
    }

    /// Finds the patterns and hands them to `sink` in Juggling Lab's order, as they are
    /// found (on all cores). `sink` returns `false` to stop. Returns the number of patterns
    /// delivered.
    pub fn generate(self: &Arc<Self>, sink: &mut dyn FnMut(&crate::tools::Found) -> bool) -> u64 {
        crate::tools::stream::ordered(
            self.jobs(),
            &|job, emit| {
                let mut text = String::new();
                self.run_job(job, &mut |throws| {
                    text.clear();
                    text.extend(throws.iter().map(|&t| throw_char(t)));
                    emit(&text)
                });
            },
            &|&s0| self.sequences(s0),
            sink,
        )
    }
}

/// Patterns shorter than this are searched whole; longer ones are split into their first
/// beats' partial patterns.
#[cfg_attr(target_arch = "wasm32", allow(dead_code))] // the threads' pieces, native only
const SPLIT_BEAT: u32 = 2;

/// A piece of work: a whole search, or the search under one partial pattern.
#[cfg_attr(target_arch = "wasm32", allow(dead_code))] // the threads' pieces, native only
enum Job {
    Whole(u32, State),
    Prefix(Prefix),
}

/// Start states of period-`l` patterns in Juggling Lab's order, one after the other: the
/// beats of the props in increasing order, lowest first (a prop at beat `i + l` needs one at
/// beat `i`).
#[derive(Clone)]
struct StartStates {
    height: u32,
    /// Which start states are searched.
    filter: GroundFilter,
    period: u32,
    props: u32,
    /// The beats of the props placed so far.
    beats: Vec<u32>,
    state: State,
    /// The lowest beat the next prop may take.
    from: u32,
}

impl StartStates {
    fn new(plan: &Plan, period: u32) -> StartStates {
        StartStates {
            height: plan.height,
            filter: plan.ground,
            period,
            props: plan.props,
            beats: Vec::new(),
            state: 0,
            from: 0,
        }
    }
}

impl StartStates {
    /// `states` (a fresh copy of this one with its period set) as the ground filter wants
    /// them: start states of period-`l` patterns, in Juggling Lab's order (props placed at
    /// the lowest beats first, so the ground state comes first), one after the other.
    fn filtered(&self, states: StartStates) -> Box<dyn Iterator<Item = State> + Send + 'static> {
        let g = ground(self.props);
        match self.filter {
            GroundFilter::GroundOnly => {
                Box::new((self.props <= self.height).then_some(g).into_iter())
            }
            GroundFilter::Both => Box::new(states),
            GroundFilter::ExcitedOnly => Box::new(states.filter(move |&s| s != g)),
        }
    }
}

impl Iterator for StartStates {
    type Item = State;

    fn next(&mut self) -> Option<State> {
        loop {
            if self.beats.len() as u32 == self.props {
                let found = self.state;
                let last = self.beats.pop()?;
                self.state &= !(1 << last);
                self.from = last + 1;
                return Some(found);
            }
            let left = self.props - self.beats.len() as u32;
            let (height, period, state) = (self.height, self.period, self.state);
            let beat = (self.from..height)
                .take_while(|&i| height - i >= left)
                .find(|&i| i < period || state >> (i - period) & 1 != 0);
            match beat {
                Some(i) => {
                    self.beats.push(i);
                    self.state |= 1 << i;
                    self.from = i + 1;
                }
                None => {
                    let last = self.beats.pop()?;
                    self.state &= !(1 << last);
                    self.from = last + 1;
                }
            }
        }
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
struct Search {
    plan: Arc<Plan>,
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
    /// The emitter asked to stop.
    stopped: bool,
}

impl Search {
    fn new(plan: &Arc<Plan>, l: u32, s0: State) -> Search {
        Search {
            plan: Arc::clone(plan),
            l,
            s0,
            states: Vec::with_capacity(l as usize + 1),
            throws: Vec::with_capacity(l as usize),
            text: String::new(),
            found: 0,
            split_at: None,
            prefixes: Vec::new(),
            stopped: false,
        }
    }

    /// Continues the search from a partial pattern.
    fn resume(&mut self, p: Prefix, emit: &mut dyn FnMut(&[u32]) -> bool) {
        let pos = p.throws.len() as u32;
        let s = *p.states.last().unwrap_or(&self.s0);
        self.states = p.states;
        self.throws = p.throws;
        self.text = p.text;
        self.beat(pos, s, emit);
    }

    fn run(&mut self, emit: &mut dyn FnMut(&[u32]) -> bool) {
        self.states.push(self.s0);
        self.beat(0, self.s0, emit);
    }

    /// Tries every throw at beat `pos` from state `s`.
    fn beat(&mut self, pos: u32, s: State, emit: &mut dyn FnMut(&[u32]) -> bool) {
        if self.stopped {
            return;
        }
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
                self.stopped = !emit(&self.throws);
            }
            return;
        }
        let (base, candidates) = self.candidates(pos, s);
        let Some(mut cands) = candidates else {
            self.step(pos, 0, base, emit);
            return;
        };
        while cands != 0 {
            let bit = cands & cands.wrapping_neg();
            cands &= cands - 1;
            let value = bit.trailing_zeros() + 1;
            self.step(pos, value, base | bit, emit);
        }
    }

    /// The throws possible at beat `pos` from state `s`: the state with the beat gone
    /// (`base`), and the landing bits of the throws, lowest first (`None` when nothing lands
    /// now: the throw is a 0).
    fn candidates(&self, pos: u32, s: State) -> (State, Option<State>) {
        let base = s >> 1;
        if s & 1 == 0 {
            return (base, None);
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
        (base, Some(!base & (low | wrap) & height_mask))
    }

    /// Whether throw `value` at beat `pos`, reaching state `next`, may be part of a listed
    /// pattern.
    fn may_throw(&self, pos: u32, value: u32, next: State) -> bool {
        let plan = &*self.plan;
        let l = self.l;
        // Only states that can lie on a period-L pattern.
        if l < 128 && (next >> l) & !next != 0 {
            return false;
        }
        let end = pos + 1 == l;
        if !end && next == self.s0 && plan.listing != Listing::Full {
            return false;
        }
        if !plan.rotations && next < self.s0 {
            return false;
        }
        if plan.listing == Listing::Prime && !end && self.states[1..].contains(&next) {
            return false;
        }
        !(plan.lame && value == 1 && self.throws.last() == Some(&1))
    }

    /// Adds throw `value` to the pattern; `false` (and nothing added) when `-x` excludes
    /// the pattern so far.
    fn push_throw(&mut self, value: u32) -> bool {
        let plan = &*self.plan;
        if !plan.exclude.is_empty() || !plan.include.is_empty() {
            self.text.push(throw_char(value));
            if plan.exclude.iter().any(|re| re.is_match(&self.text)) {
                self.text.pop();
                return false;
            }
        }
        self.throws.push(value);
        true
    }

    /// Takes the last throw off.
    fn pop_throw(&mut self) {
        let plan = &*self.plan;
        if !plan.exclude.is_empty() || !plan.include.is_empty() {
            self.text.pop();
        }
        self.throws.pop();
    }

    /// Makes throw `value` at beat `pos`, reaching state `next`, and goes on if allowed.
    fn step(&mut self, pos: u32, value: u32, next: State, emit: &mut dyn FnMut(&[u32]) -> bool) {
        if !self.may_throw(pos, value, next) || !self.push_throw(value) {
            return;
        }
        self.states.push(next);
        self.beat(pos + 1, next, emit);
        self.states.pop();
        self.pop_throw();
    }

    /// Checks of a whole pattern: inclusions and, for composite patterns under `-f`, that
    /// this is the rotation to list.
    fn complete_ok(&self) -> bool {
        let plan = &*self.plan;
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

/// A choice point of the [`Stepper`]: the throws still to try at one beat.
#[derive(Clone, Copy, Debug)]
struct Choice {
    pos: u32,
    base: State,
    /// The 0 (nothing lands) is still to try.
    zero: bool,
    /// Landing bits still to try, lowest first.
    remaining: State,
    /// A throw of this choice is in the pattern.
    applied: bool,
}

/// The search of one (period, start state) in steps, with the [`Search`]'s rules and order
/// and an explicit stack instead of recursion: it can stop after any number of steps and go
/// on later (the web page searches between frames).
pub(crate) struct Stepper {
    search: Search,
    choices: Vec<Choice>,
    started: bool,
}

impl Stepper {
    pub(crate) fn new(plan: &Arc<Plan>, l: u32, s0: State) -> Stepper {
        Stepper {
            search: Search::new(plan, l, s0),
            choices: Vec::new(),
            started: false,
        }
    }

    /// Runs at most `steps` steps; `emit` receives each pattern's throws and returns `false`
    /// to pause (the next call goes on after that pattern).
    pub(crate) fn step(&mut self, steps: u64, emit: &mut dyn FnMut(&[u32]) -> bool) -> Progress {
        for _ in 0..steps {
            match self.advance(emit) {
                Progress::Paused => {}
                end => return end,
            }
        }
        Progress::Paused
    }

    /// Pushes the choice of beat `pos` from state `s`.
    fn enter(&mut self, pos: u32, s: State) {
        let (base, candidates) = self.search.candidates(pos, s);
        self.choices.push(Choice {
            pos,
            base,
            zero: candidates.is_none(),
            remaining: candidates.unwrap_or(0),
            applied: false,
        });
    }

    fn advance(&mut self, emit: &mut dyn FnMut(&[u32]) -> bool) -> Progress {
        let search = &mut self.search;
        if !self.started {
            self.started = true;
            search.states.push(search.s0);
            let s0 = search.s0;
            self.enter(0, s0);
            return Progress::Paused;
        }
        let Some(choice) = self.choices.last_mut() else {
            return Progress::Done;
        };
        if choice.applied {
            choice.applied = false;
            search.states.pop();
            search.pop_throw();
        }
        let (value, next) = if choice.zero {
            choice.zero = false;
            (0, choice.base)
        } else if choice.remaining != 0 {
            let bit = choice.remaining & choice.remaining.wrapping_neg();
            choice.remaining &= choice.remaining - 1;
            (bit.trailing_zeros() + 1, choice.base | bit)
        } else {
            self.choices.pop();
            return Progress::Paused;
        };
        let pos = choice.pos;
        if !search.may_throw(pos, value, next) || !search.push_throw(value) {
            return Progress::Paused;
        }
        search.states.push(next);
        choice.applied = true;
        if pos + 1 < search.l {
            self.enter(pos + 1, next);
        } else if next == search.s0 && search.complete_ok() && !emit(&search.throws) {
            return Progress::Stopped;
        }
        Progress::Paused
    }
}

#[cfg(test)]
#[path = "solo/tests.rs"]
mod tests;
