//! The depth-first search for the period-`period` patterns through one start state, with an
//! explicit stack so that it can stop after any number of steps and resume ([`Search::step`]),
//! and be cut into independent pieces for parallel work ([`Search::cut_at`]).
//!
//! A beat is filled place by place: each prop landing in a place is thrown (a frame on the
//! stack tries every free (value, target) in increasing order); when every place has thrown,
//! the beat is checked (`-x`, clusters, `-d`, the multiplexing filter, the new state) and the
//! next beat begins, or the pattern is complete.

use std::cmp::Ordering;
use std::sync::Arc;

use super::filters::Complete;
use super::plan::{Counts, Plan};
use super::squeeze::Slot;
use super::table::ThrowTable;
use crate::tools::query::Listing;

/// What a step of the search produced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Progress {
    /// The steps ran out; call again.
    Paused,
    /// Every pattern has been found.
    Done,
    /// The sink asked to stop.
    Stopped,
}

/// A choice point: the throw of one prop landing in `place` on `beat`, the multiplex slot
/// `slot` of that place.
#[derive(Clone, Copy, Debug)]
struct Frame {
    beat: usize,
    place: usize,
    slot: usize,
    /// The next candidate to try: throw value and target place.
    value: usize,
    target: usize,
    /// The candidate in place (value, target), undone before the next one.
    applied: Option<(usize, usize)>,
    /// The pattern text's length when the frame was made.
    text_len: usize,
}

/// The search of one (period, start state); see the module documentation.
#[derive(Clone, Debug)]
pub(crate) struct Search {
    plan: Arc<Plan>,
    period: usize,
    /// `states[b]`: the state before beat `b`.
    states: Vec<Counts>,
    table: ThrowTable,
    /// Free landing places for the whole period: index `place * (period + height) + time`.
    free: Vec<u8>,
    /// Props still to throw: index `beat * places + place`.
    to_throw: Vec<u8>,
    /// The multiplexing filter: index `(beat * places + place) * filter_beats + beats ahead`.
    filter: Vec<Slot>,
    text: String,
    /// The pattern's text is kept (for listing, or for regular expressions).
    pub(crate) need_text: bool,
    stack: Vec<Frame>,
    /// The beat the search goes down into at its next step (at the start, or a piece).
    entry: Option<usize>,
    /// Frames below this belong to the search this one was cut from.
    floor: usize,
    /// While cutting into pieces: the beat at which they are cut off, and the last piece.
    cut_beat: Option<usize>,
    cut: Option<Box<Search>>,
}

impl Search {
    /// Sets up the search, or `None` when `start` cannot start a period-`period` pattern.
    pub(crate) fn new(plan: &Arc<Plan>, period: usize, start: &[u8]) -> Option<Search> {
        let (places, height, filter_beats) = (plan.places, plan.height, plan.filter_beats);
        let mut filter = if plan.squeeze_filter {
            vec![Slot::default(); (period + 1) * places * filter_beats]
        } else {
            Vec::new()
        };
        for place in 0..places {
            for beat in 0..height {
                let props = start[beat * places + place];
                if plan.squeeze_filter {
                    filter[place * filter_beats + beat] = if props == 0 {
                        Slot::default()
                    } else {
                        Slot::lower_bound(place, beat + 1)
                    };
                }
                if plan.squeeze_filter && props == 0 {
                    continue;
                }
                // The same place one, two, ... periods later holds no more props, and (with
                // the filter) J2 refuses fewer there unless this beat is among the first three.
                for later in (beat + period..height).step_by(period) {
                    let later_props = start[later * places + place];
                    if later_props > props {
                        return None;
                    }
                    if plan.squeeze_filter && later_props != 0 {
                        if later_props < props && beat > 2 {
                            return None;
                        }
                        filter[place * filter_beats + beat].value = (later + 1) as u16;
                    }
                }
            }
        }
        let width = period + height;
        let mut free = vec![0u8; places * width];
        for place in 0..places {
            for time in 0..width {
                // Within the period a place takes what its rhythm allows; after it, what the
                // start state has there (so the period ends in the start state).
                let mut n = if time < period {
                    i32::from(plan.capacity(time))
                } else {
                    i32::from(start[(time - period) * places + place])
                };
                if time < height {
                    n -= i32::from(start[time * places + place]);
                }
                free[place * width + time] = n.max(0) as u8;
            }
        }
        let mut states = vec![vec![0u8; height * places]; period + 1];
        states[0].copy_from_slice(start);
        let mut search = Search {
            plan: Arc::clone(plan),
            period,
            states,
            table: ThrowTable::new(period, places, plan.multiplex),
            free,
            to_throw: vec![0; period * places],
            filter,
            text: String::new(),
            need_text: true,
            stack: Vec::new(),
            entry: Some(0),
            floor: 0,
            cut_beat: None,
            cut: None,
        };
        search.start_beat(0);
        Some(search)
    }

    /// Runs at most `steps` steps (choices tried); `emit` receives each pattern's text and
    /// returns `false` to stop.
    pub(crate) fn step(&mut self, steps: u64, emit: &mut dyn FnMut(&str) -> bool) -> Progress {
        for _ in 0..steps {
            match self.advance(emit) {
                Progress::Paused => {}
                end => return end,
            }
        }
        Progress::Paused
    }

    /// Cuts the search at the start of `beat` into pieces, each searching the patterns that
    /// begin with one way of throwing the beats before; `None` when the period is `beat` or
    /// less (nothing to cut). [`Search::next_piece`] gives the pieces in order.
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))] // the threads' pieces, native only
    pub(crate) fn cut_at(mut self, beat: usize) -> Option<Search> {
        if self.period <= beat || beat == 0 {
            return None;
        }
        self.cut_beat = Some(beat);
        Some(self)
    }

    /// The next piece of a search made by [`Search::cut_at`], `None` after the last.
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))] // the threads' pieces, native only
    pub(crate) fn next_piece(&mut self) -> Option<Search> {
        let mut none = |_: &str| true;
        loop {
            let progress = self.advance(&mut none);
            if let Some(piece) = self.cut.take() {
                return Some(*piece);
            }
            if progress != Progress::Paused {
                return None;
            }
        }
    }

    fn places_index(&self, beat: usize, place: usize) -> usize {
        beat * self.plan.places + place
    }

    fn start_beat(&mut self, beat: usize) {
        let places = self.plan.places;
        let range = beat * places..(beat + 1) * places;
        self.to_throw[range].copy_from_slice(&self.states[beat][..places]);
        self.table.clear_beat(beat);
    }

    /// Goes down from `beat`: pushes the frame of its next prop to throw, or finishes the
    /// beat (and the beats after it that throw nothing).
    fn descend(
        &mut self,
        mut beat: usize,
        mut min_value: usize,
        mut min_target: usize,
        emit: &mut dyn FnMut(&str) -> bool,
    ) -> Progress {
        let places = self.plan.places;
        loop {
            if self.cut_beat == Some(beat) {
                let mut piece = Box::new(self.clone());
                piece.cut_beat = None;
                piece.floor = piece.stack.len();
                piece.entry = Some(beat);
                self.cut = Some(piece);
                return Progress::Paused;
            }
            let index = beat * places;
            if let Some(place) = (0..places).find(|&p| self.to_throw[index + p] != 0) {
                self.to_throw[index + place] -= 1;
                self.stack.push(Frame {
                    beat,
                    place,
                    slot: usize::from(self.to_throw[index + place]),
                    value: min_value,
                    target: min_target,
                    applied: None,
                    text_len: self.text.len(),
                });
                return Progress::Paused;
            }
            // Every prop of this beat is thrown.
            if self.need_text {
                let (values, targets) = self.table.beat_throws(beat);
                self.plan
                    .writer
                    .write_beat(beat, values, targets, &mut self.text);
            }
            if !self.beat_valid(beat) {
                return Progress::Paused;
            }
            if beat + 1 < self.period {
                beat += 1;
                self.start_beat(beat);
                (min_value, min_target) = (1, 0);
                continue;
            }
            let complete = self.states[0] == self.states[self.period]
                && Complete {
                    plan: &self.plan,
                    period: self.period,
                    table: &self.table,
                    states: &self.states,
                    text: &self.text,
                    order_checked: false,
                }
                .listed();
            if complete && !emit(&self.text) {
                return Progress::Stopped;
            }
            return Progress::Paused;
        }
    }

    /// One step: the top frame's next candidate (or its end).
    fn advance(&mut self, emit: &mut dyn FnMut(&str) -> bool) -> Progress {
        if let Some(beat) = self.entry.take() {
            return self.descend(beat, 1, 0, emit);
        }
        if self.stack.len() <= self.floor {
            return Progress::Done;
        }
        let width = self.period + self.plan.height;
        let places = self.plan.places;
        let top = self.stack.len() - 1;
        let mut frame = self.stack[top];
        if let Some((value, target)) = frame.applied.take() {
            self.free[target * width + frame.beat + value] += 1;
            self.text.truncate(frame.text_len);
        }
        // Candidates in order of value, then target place.
        let next = (frame.value..=self.plan.height)
            .flat_map(|value| {
                let first = if value == frame.value {
                    frame.target
                } else {
                    0
                };
                (first..places).map(move |target| (value, target))
            })
            .find(|&(value, target)| self.free[target * width + frame.beat + value] > 0);
        let Some((value, target)) = next else {
            self.stack.pop();
            let index = self.places_index(frame.beat, frame.place);
            self.to_throw[index] += 1;
            return Progress::Paused;
        };
        self.free[target * width + frame.beat + value] -= 1;
        let index = self.table.index(frame.beat, frame.place, frame.slot);
        self.table.targets[index] = target as u8;
        self.table.values[index] = value as u16;
        frame.applied = Some((value, target));
        (frame.value, frame.target) = (value, target + 1);
        self.stack[top] = frame;
        // The props of one place are thrown in decreasing order (a multiplex is a set).
        let (min_value, min_target) = if frame.slot != 0 {
            (value, target)
        } else {
            (1, 0)
        };
        self.descend(frame.beat, min_value, min_target, emit)
    }

    /// The checks of a finished beat; computes the state after it.
    fn beat_valid(&mut self, beat: usize) -> bool {
        if !self.throws_valid(beat) {
            return false;
        }
        if self.plan.squeeze_filter && !self.filter_admits(beat) {
            return false;
        }
        self.next_state(beat + 1);
        self.state_valid(beat + 1)
    }

    /// `-x`, `-mc` and `-d` on the throws of `beat`.
    fn throws_valid(&self, beat: usize) -> bool {
        let p = &*self.plan;
        let t = &self.table;
        if p.exclude.iter().any(|re| re.is_match(&self.text)) {
            return false;
        }
        if !p.clustered && p.throws_on(beat) {
            // No two throws of one place alike.
            for place in 0..p.places {
                let throws: Vec<(usize, usize)> = t.throws(beat, place).collect();
                if (1..throws.len()).any(|i| throws[..i].contains(&throws[i])) {
                    return false;
                }
            }
        }
        if p.jugglers > 1 && beat < p.delay {
            return self.delay_valid(beat);
        }
        true
    }

    /// `-d`: during the delay every juggler but the leader makes the ground state pattern's
    /// throws.
    fn delay_valid(&self, beat: usize) -> bool {
        let p = &*self.plan;
        // The props landing now, per place, with the place's juggler.
        let now = || self.states[beat].iter().zip(&p.juggler_of);
        let mut throwing = 0;
        if p.throws_on(beat) {
            for (&props, &juggler) in now() {
                throwing += 1;
                if props != 1 && juggler != p.leader {
                    return false;
                }
            }
        }
        // Where the ground state pattern's throws of this beat land: the last `throwing`
        // places of the ground state, counted from the end.
        let mut lands = vec![(0usize, 0usize); p.places];
        let mut left = p.props;
        'place: for ahead in 0..p.height {
            for place in 0..p.places {
                if left == 0 {
                    break 'place;
                }
                if p.throws_on(beat + 1 + ahead) {
                    left -= 1;
                    if left < throwing {
                        lands[left] = (place, ahead + 1);
                    }
                }
            }
        }
        if left != 0 {
            return false;
        }
        for (place, (&props, &juggler)) in now().enumerate() {
            if props == 0 || juggler == p.leader {
                continue;
            }
            let throw = (
                self.table.target(beat, place, 0),
                self.table.value(beat, place, 0),
            );
            match lands[..throwing].iter().position(|&spot| spot == throw) {
                Some(i) => lands[i].1 = 0,
                None => return false,
            }
        }
        true
    }

    /// The multiplexing filter after `beat`'s throws; `false` on a squeeze catch.
    fn filter_admits(&mut self, beat: usize) -> bool {
        let p = &*self.plan;
        let (places, filter_beats) = (p.places, p.filter_beats);
        for place in 0..places {
            let from = (beat * places + place) * filter_beats;
            let to = ((beat + 1) * places + place) * filter_beats;
            let landing = self.filter[from];
            self.filter.copy_within(from + 1..from + filter_beats, to);
            self.filter[to + filter_beats - 1] = Slot::default();
            // What lands now lands again one period later.
            if !self.filter[to + self.period - 1].admit(place, landing) {
                return false;
            }
        }
        for place in 0..places {
            for (value, target) in self.table.throws(beat, place) {
                let slot = ((beat + 1) * places + target) * filter_beats + value - 1;
                if !self.filter[slot].admit(target, Slot::throw(place, value)) {
                    return false;
                }
            }
        }
        true
    }

    /// `states[beat]` from the state and throws of the beat before.
    fn next_state(&mut self, beat: usize) {
        let places = self.plan.places;
        let (before, after) = self.states.split_at_mut(beat);
        let previous = &before[beat - 1];
        let next = &mut after[0];
        let shifted = previous.len() - places;
        next[..shifted].copy_from_slice(&previous[places..]);
        next[shifted..].fill(0);
        for place in 0..places {
            for (value, target) in self.table.throws(beat - 1, place) {
                next[(value - 1) * places + target] += 1;
            }
        }
    }

    /// The state before `beat` can lie on a listed pattern.
    fn state_valid(&self, beat: usize) -> bool {
        let p = &*self.plan;
        let (places, height, period) = (p.places, p.height, self.period);
        let state = &self.states[beat];
        // A place holds no more props one period later.
        if height > period {
            let later = &state[period * places..];
            if later.iter().zip(state.iter()).any(|(l, now)| l > now) {
                return false;
            }
        }
        if beat.is_multiple_of(p.rhythm) {
            let order = compare_states(&self.states[0], state);
            if p.listing != Listing::Full && beat != period && order == Ordering::Equal {
                return false;
            }
            if !p.rotations && order == Ordering::Greater {
                return false;
            }
        }
        if p.listing == Listing::Prime
            && (1..beat).any(|b| (beat - b).is_multiple_of(p.rhythm) && self.states[b] == *state)
        {
            return false;
        }
        true
    }
}

/// Juggling Lab's order of states: by the largest count, then by the highest beat and place
/// where they differ.
pub(crate) fn compare_states(a: &[u8], b: &[u8]) -> Ordering {
    let most = |s: &[u8]| s.iter().max().copied().unwrap_or(0);
    most(a)
        .cmp(&most(b))
        .then_with(|| a.iter().rev().cmp(b.iter().rev()))
}
