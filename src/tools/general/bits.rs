//! The fast form of the general search, for queries without multiplexes (`-m 1`) whose
//! states fit 128 bits (places × height ≤ 128) and without `-d`: the common synchronous and
//! passing queries. It lists the same patterns in the same order as [`super::search`], with
//! a state as a bit set: bit `beat * places + place` set = a prop lands in `place`, `beat`
//! beats from now. Juggling Lab's order of states is then the order of the numbers (every
//! state holds a prop, so the largest count is 1 for all).
//!
//! A beat is filled place by place (the places with a prop landing, in order); each tries
//! every free landing bit in increasing order, which is the order of (value, target place).
//! A landing bit is free when nothing lands there yet and, within the period, the target
//! throws on that beat, or after the period, the start state has a prop there (so that the
//! period ends in the start state).

use std::cmp::Ordering;
use std::sync::Arc;

use super::filters::Complete;
use super::plan::{Counts, Plan};
use super::search::Progress;
use super::table::ThrowTable;
use crate::tools::query::Listing;

/// A state: bit `beat * places + place`.
type Bits = u128;

/// The lowest `n` bits.
fn low_bits(n: usize) -> Bits {
    if n >= 128 {
        Bits::MAX
    } else {
        (1 << n) - 1
    }
}

/// `bits << n`, 0 when everything is shifted out.
fn shifted_up(bits: Bits, n: usize) -> Bits {
    if n >= 128 {
        0
    } else {
        bits << n
    }
}

/// `bits >> n`, 0 when everything is shifted out.
fn shifted_down(bits: Bits, n: usize) -> Bits {
    if n >= 128 {
        0
    } else {
        bits >> n
    }
}

/// Whether a plan can be searched with bit sets.
pub(crate) fn applies(plan: &Plan) -> bool {
    plan.multiplex == 1
        && !plan.squeeze_filter
        && plan.places * plan.height <= 128
        && (plan.jugglers == 1 || plan.delay == 0)
}

/// J2's juggler order (without `-jp`) as numbers, for asynchronous passing without
/// multiplexes: a juggler's throws, best beat first, compare as the number whose digit `c`
/// (base period + 1, higher scores more significant) counts its beats with score code `c`
/// (0 = no throw, then a self and a pass of each value, in J2's order of scores). Juggler
/// `m + 1` may not have a greater number than juggler `m`.
#[derive(Clone, Debug)]
struct OrderKeys {
    places: usize,
    /// Per score code, its digit's weight.
    weight: Vec<u128>,
    /// Per beat and place: the weight of its throw.
    digits: Vec<u128>,
    /// Per juggler (place): its number, the sum of its digits, kept as they change.
    keys: Vec<u128>,
}

impl OrderKeys {
    fn new(plan: &Plan, period: usize) -> Option<OrderKeys> {
        if plan.jugglers == 1 || plan.permutations || plan.places != plan.jugglers {
            return None;
        }
        let base = u128::try_from(period).ok()? + 1;
        let codes = 2 * plan.height + 1;
        let weight = (0..codes)
            .map(|code| base.checked_pow(u32::try_from(code).ok()?))
            .collect::<Option<Vec<u128>>>()?;
        // The largest number must fit: period beats of the highest code.
        weight[codes - 1].checked_mul(base)?;
        Some(OrderKeys {
            places: plan.places,
            digits: vec![weight[0]; period * plan.places],
            keys: vec![weight[0] * period as u128; plan.places],
            weight,
        })
    }

    /// The code of a throw of `value` (a pass or not): self and pass of 1, then of 2, ...
    fn set(&mut self, beat: usize, place: usize, value: usize, pass: bool) {
        self.put(beat, place, self.weight[2 * value - 1 + usize::from(pass)]);
    }

    /// Sets a digit, keeping its juggler's number.
    fn put(&mut self, beat: usize, place: usize, digit: u128) {
        let index = beat * self.places + place;
        let key = &mut self.keys[place];
        *key = *key - self.digits[index] + digit;
        self.digits[index] = digit;
    }

    fn clear_beat(&mut self, beat: usize) {
        for place in 0..self.places {
            self.put(beat, place, self.weight[0]);
        }
    }

    /// Whether no juggler's number is greater than the juggler's before.
    fn in_order(&self) -> bool {
        self.keys.windows(2).all(|pair| pair[1] <= pair[0])
    }
}

/// A choice point: the throw of the prop landing in `place` on `beat`.
#[derive(Clone, Copy, Debug)]
struct Frame {
    beat: usize,
    place: usize,
    /// The next state as far as the beat's earlier places have thrown.
    before: Bits,
    /// Landing bits still to try, lowest first.
    remaining: Bits,
}

/// The search of one (period, start state); see the module documentation.
#[derive(Clone, Debug)]
pub(crate) struct BitSearch {
    plan: Arc<Plan>,
    period: usize,
    /// `states[b]`: the state before beat `b`.
    states: Vec<Bits>,
    /// `states[0]`.
    start: Bits,
    /// Per beat: where its throws may land (before taking out what lands there already).
    allowed: Vec<Bits>,
    /// Per landing bit: the throw's value and target place.
    throw_of: Vec<(u8, u8)>,
    table: ThrowTable,
    text: String,
    /// Per beat: the length of the text before it.
    text_start: Vec<usize>,
    /// The beats whose text `text` holds (written when a pattern is complete, or every beat
    /// for `-x`).
    written: usize,
    /// The pattern's text is kept (for listing, or for regular expressions).
    need_text: bool,
    /// The text is written as each beat is thrown (`-x` reads it).
    eager_text: bool,
    /// The throws are kept in the table (for the text or the whole-pattern tests).
    table_needed: bool,
    /// The bits of one beat's places.
    row: Bits,
    /// Complete patterns pass [`Complete::listed`] (some of its tests apply).
    whole_checks: bool,
    stack: Vec<Frame>,
    order: Option<OrderKeys>,
    /// The beat the search goes down into at its next step (at the start, or a piece).
    entry: Option<usize>,
    /// Frames below this belong to the search this one was cut from.
    floor: usize,
    /// While cutting into pieces: the beat at which they are cut off, and the last piece.
    cut_beat: Option<usize>,
    cut: Option<Box<BitSearch>>,
}

impl BitSearch {
    /// Sets up the search (the plan must pass [`applies`]), or `None` when `start` cannot
    /// start a period-`period` pattern.
    pub(crate) fn new(plan: &Arc<Plan>, period: usize, start: &Counts) -> Option<BitSearch> {
        let places = plan.places;
        let start_bits = start
            .iter()
            .enumerate()
            .fold(0, |bits, (i, &n)| bits | Bits::from(n != 0) << i);
        // A place holds no more props one period later.
        if shifted_down(start_bits, period * places) & !start_bits != 0 {
            return None;
        }
        let row = low_bits(places);
        let height_mask = low_bits(plan.height * places);
        let allowed = (0..period)
            .map(|beat| {
                // Throws of values 1..=before_end land within the period.
                let before_end = period - beat - 1;
                let within = (0..before_end.min(plan.height))
                    .filter(|ahead| plan.throws_on(beat + ahead + 1))
                    .fold(0, |bits, ahead| bits | row << (ahead * places));
                (within | shifted_up(start_bits, before_end * places)) & height_mask
            })
            .collect();
        let mut states = vec![0; period + 1];
        states[0] = start_bits;
        let mut text_start = vec![0; period + 1];
        text_start[0] = 0;
        Some(BitSearch {
            plan: Arc::clone(plan),
            period,
            states,
            start: start_bits,
            allowed,
            throw_of: (0..plan.height * places)
                .map(|bit| ((bit / places + 1) as u8, (bit % places) as u8))
                .collect(),
            table: ThrowTable::new(period, places, 1),
            text: String::new(),
            text_start,
            written: 0,
            need_text: true,
            eager_text: !plan.exclude.is_empty(),
            table_needed: true,
            row: low_bits(places),
            whole_checks: true,
            stack: Vec::new(),
            order: OrderKeys::new(plan, period),
            entry: Some(0),
            floor: 0,
            cut_beat: None,
            cut: None,
        })
    }

    /// Whether the pattern text is kept (listing, regular expressions).
    pub(crate) fn set_need_text(&mut self, need: bool) {
        let p = &*self.plan;
        self.need_text = need;
        self.eager_text = need && !p.exclude.is_empty();
        self.whole_checks = !p.include.is_empty()
            || (!p.sync && p.lame)
            || (p.listing == Listing::Full && !p.rotations)
            || (p.jugglers > 1
                && (p.connected || p.symmetric || (!p.permutations && self.order.is_none())));
        self.table_needed = self.need_text || self.whole_checks;
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

    /// Cuts the search at the start of `beat` into pieces (see [`super::search::Search::cut_at`]).
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))] // the threads' pieces, native only
    pub(crate) fn cut_at(mut self, beat: usize) -> Option<BitSearch> {
        if self.period <= beat || beat == 0 {
            return None;
        }
        self.cut_beat = Some(beat);
        Some(self)
    }

    /// The next piece of a search made by [`BitSearch::cut_at`], `None` after the last.
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))] // the threads' pieces, native only
    pub(crate) fn next_piece(&mut self) -> Option<BitSearch> {
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

    /// Starts `beat`: its text begins here and its table is empty.
    fn start_beat(&mut self, beat: usize) {
        if self.eager_text {
            self.text_start[beat] = self.text.len();
        }
        self.written = self.written.min(beat);
        if self.table_needed {
            self.table.clear_beat(beat);
        }
        if let Some(order) = &mut self.order {
            order.clear_beat(beat);
        }
    }

    /// Writes the text of the beats not written since their throws changed.
    fn write_text(&mut self) {
        let from = self.written;
        self.text.truncate(self.text_start[from]);
        for beat in from..self.period {
            self.text_start[beat] = self.text.len();
            let (values, targets) = self.table.beat_throws(beat);
            self.plan
                .writer
                .write_beat(beat, values, targets, &mut self.text);
        }
        self.text_start[self.period] = self.text.len();
        self.written = self.period;
    }

    /// Goes down from `beat`, whose places before `from_place` have thrown (the next state
    /// so far is `next`): pushes the frame of its next throwing place, or finishes the beat
    /// (and the beats after it that throw nothing).
    fn descend(
        &mut self,
        mut beat: usize,
        mut from_place: usize,
        mut next: Bits,
        emit: &mut dyn FnMut(&str) -> bool,
    ) -> Progress {
        let places = self.plan.places;
        loop {
            let landing = self.states[beat] & self.row & !low_bits(from_place);
            if landing != 0 {
                let place = landing.trailing_zeros() as usize;
                self.stack.push(Frame {
                    beat,
                    place,
                    before: next,
                    remaining: self.allowed[beat] & !next,
                });
                return Progress::Paused;
            }
            // Every prop of this beat is thrown.
            if self.eager_text {
                self.text.truncate(self.text_start[beat]);
                let (values, targets) = self.table.beat_throws(beat);
                self.plan
                    .writer
                    .write_beat(beat, values, targets, &mut self.text);
            }
            if !self.beat_valid(beat, next) {
                return Progress::Paused;
            }
            if beat + 1 < self.period {
                beat += 1;
                if self.cut_beat == Some(beat) {
                    let mut piece = Box::new(self.clone());
                    piece.cut_beat = None;
                    piece.floor = piece.stack.len();
                    piece.entry = Some(beat);
                    self.cut = Some(piece);
                    return Progress::Paused;
                }
                self.start_beat(beat);
                from_place = 0;
                next = self.states[beat] >> places;
                continue;
            }
            // `next` is the state after the last beat (read from the register, not from
            // `states`: a fresh 16-byte store read back at once stalls).
            let complete =
                self.start == next && self.order.as_ref().is_none_or(OrderKeys::in_order);
            if complete && self.need_text && !self.eager_text {
                self.write_text();
            }
            let complete = complete
                && (!self.whole_checks
                    || Complete {
                        plan: &self.plan,
                        period: self.period,
                        table: &self.table,
                        states: &self.states,
                        text: &self.text,
                        order_checked: self.order.is_some(),
                    }
                    .listed());
            if complete && !emit(&self.text) {
                return Progress::Stopped;
            }
            return Progress::Paused;
        }
    }

    /// One step: the top frame's next candidate (or its end).
    fn advance(&mut self, emit: &mut dyn FnMut(&str) -> bool) -> Progress {
        if let Some(beat) = self.entry.take() {
            self.start_beat(beat);
            let next = self.states[beat] >> self.plan.places;
            return self.descend(beat, 0, next, emit);
        }
        if self.stack.len() <= self.floor {
            return Progress::Done;
        }
        let top = self.stack.len() - 1;
        let frame = &mut self.stack[top];
        if frame.remaining == 0 {
            self.stack.pop();
            return Progress::Paused;
        }
        let bit = frame.remaining & frame.remaining.wrapping_neg();
        frame.remaining &= frame.remaining - 1;
        let frame = *frame;
        let (value, target) = self.throw_of[bit.trailing_zeros() as usize];
        let (value, target) = (usize::from(value), usize::from(target));
        self.written = self.written.min(frame.beat);
        if self.table_needed {
            let index = self.table.index(frame.beat, frame.place, 0);
            self.table.values[index] = value as u16;
            self.table.targets[index] = target as u8;
        }
        if let Some(order) = &mut self.order {
            order.set(frame.beat, frame.place, value, target != frame.place);
        }
        self.descend(frame.beat, frame.place + 1, frame.before | bit, emit)
    }

    /// The checks of a finished beat whose throws make the state `next`.
    fn beat_valid(&mut self, beat: usize, next: Bits) -> bool {
        let p = &*self.plan;
        if p.exclude.iter().any(|re| re.is_match(&self.text)) {
            return false;
        }
        self.states[beat + 1] = next;
        let beat = beat + 1;
        let (places, period) = (p.places, self.period);
        // A place holds no more props one period later.
        if p.height > period && shifted_down(next, period * places) & !next != 0 {
            return false;
        }
        if !p.sync || beat.is_multiple_of(2) {
            let order = self.start.cmp(&next);
            if p.listing != Listing::Full && beat != period && order == Ordering::Equal {
                return false;
            }
            if !p.rotations && order == Ordering::Greater {
                return false;
            }
        }
        if p.listing == Listing::Prime
            && (1..beat).any(|b| (beat - b).is_multiple_of(p.rhythm) && self.states[b] == next)
        {
            return false;
        }
        true
    }
}
