//! The general generator: synchronous (`-s`), multiplex (`-m N`) and passing (`-j N`)
//! patterns, with the same set of patterns, in the same rotation and notation, as Juggling
//! Lab's generator (J2). Solo asynchronous patterns without multiplexes go through the faster
//! bit-set search in [`super::gen`]; this search handles them too (tests compare the two).
//!
//! The model (learnt from J2's documentation and behaviour):
//! - there are `hands` throwing places: one per juggler (asynchronous) or two per juggler
//!   (synchronous, throwing on even beats only); a state counts, per place and beat ahead, the
//!   props landing there (at most `N` with `-m N`, 0 on beats a hand does not throw);
//! - start states are every way of placing the props, in order of (beat, place); a state
//!   where a place holds more props at beat `k + L` than at beat `k` cannot start a period-`L`
//!   pattern;
//! - on each beat every prop landing is thrown to some place and beat (a throw of value `v`
//!   to place `h`); the props of one multiplex are listed in decreasing order;
//! - states compare first by their largest count, then by the highest beat (and place) where
//!   they differ; the listing rules of [`super::gen`] (`-f`, `-prime`, `-rot`) apply on beats
//!   where every rhythm is in phase;
//! - without `-mf`, a hand may not catch props thrown from two different places or with two
//!   different values on one beat (a cluster `[33]` from one place is allowed, and holds, a 2
//!   from the same hand, do not count), and a landing place may only be filled by a throw no
//!   lower than what already lands there later; `-mc` forbids clusters; `-mt` needs a
//!   multiplex that is not just a hold;
//! - passing: `-cp` keeps patterns where every juggler is connected to juggler 1 by passes,
//!   `-sym` those where every juggler does juggler 1's throws at some offset, and unless `-jp`
//!   a pattern is dropped when juggler `m + 1` scores higher than juggler `m` on J2's scoring
//!   of throws (which removes most, not all, relabellings of the same pattern); `-d D` keeps
//!   ground state patterns where during the first `D` beats every juggler but the leader
//!   (`-l`) makes the ground state pattern's throws.

use rayon::prelude::*;
use regex::Regex;

use super::gen::{GenError, GroundFilter, Listing, Query};
use super::state::throw_char;

/// One generated pattern, as text in Juggling Lab's notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FoundText {
    pub pattern: String,
    pub ground_state: bool,
    /// Throws from the ground state into the pattern's state (empty for ground patterns).
    pub get_in: String,
    /// Throws from the pattern's state back to the ground state.
    pub get_out: String,
}

const MP_EMPTY: u8 = 0;
const MP_THROW: u8 = 1;
const MP_LOWER_BOUND: u8 = 2;
/// A hold: a throw of this value to the throwing hand.
const HOLD: usize = 2;

#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    kind: u8,
    from: u8,
    value: u16,
}

/// A validated general query.
#[derive(Debug)]
pub struct MultiPlan {
    props: usize,
    jugglers: usize,
    hands: usize,
    /// Beats of the rhythm: 1 asynchronous, 2 synchronous.
    rp: usize,
    mult: u8,
    maxocc: usize,
    ht: usize,
    periods: Vec<usize>,
    /// Juggler (1-based) of each place.
    person: Vec<usize>,
    /// Ground state, `gsl` beats, index `k * hands + h`.
    ground: Vec<u8>,
    gsl: usize,
    ground_filter: GroundFilter,
    listing: Listing,
    rotations: bool,
    mpflag: bool,
    clustered: bool,
    lame: bool,
    connected: bool,
    symmetric: bool,
    permutations: bool,
    delay: usize,
    leader: usize,
    sync: bool,
    slot_size: usize,
    exclude: Vec<Regex>,
    include: Vec<Regex>,
    sequences: bool,
}

/// Juggling Lab's regular expressions: `[`, `]`, `(`, `)` and `|` stand for themselves, and
/// stand for the regular-expression operators when written with a backslash.
pub fn standard_regex(term: &str) -> String {
    let mut out = String::with_capacity(term.len() + 8);
    let mut chars = term.chars().peekable();
    while let Some(c) = chars.next() {
        let special = matches!(c, '[' | ']' | '(' | ')' | '|');
        if c == '\\' && matches!(chars.peek(), Some('[' | ']' | '(' | ')' | '|')) {
            out.push(chars.next().unwrap_or('\\'));
        } else if special {
            out.push('\\');
            out.push(c);
        } else {
            out.push(c);
        }
    }
    out
}

fn binomial(n: u64, k: u64) -> u128 {
    if k > n {
        return 0;
    }
    let mut r: u128 = 1;
    for i in 0..k.min(n - k) {
        r = r.saturating_mul(u128::from(n - i)) / u128::from(i + 1);
    }
    r
}

/// Largest number of jugglers (their numbers are written with one digit).
pub const MAX_JUGGLERS: u32 = 9;
/// Largest number of props thrown together.
pub const MAX_MULTIPLEX: u32 = 9;
/// Largest throw the general search takes.
pub const MAX_GENERAL_HEIGHT: u32 = 127;

/// Checks a general query (sync, multiplex or passing).
pub fn plan(q: &Query) -> Result<MultiPlan, GenError> {
    if q.props < 1 {
        return Err(GenError::NoProps);
    }
    if q.jugglers < 1 || q.jugglers > MAX_JUGGLERS {
        return Err(GenError::Jugglers(q.jugglers));
    }
    if q.multiplex < 1 || q.multiplex > MAX_MULTIPLEX {
        return Err(GenError::Multiplex(q.multiplex));
    }
    let jugglers = q.jugglers as usize;
    let (hands, rp) = if q.sync {
        (2 * jugglers, 2)
    } else {
        (jugglers, 1)
    };
    let props = q.props as usize;
    let period_min = if q.period_from_rhythm {
        rp as u32
    } else {
        q.period_min
    };
    let period_max = match q.period_max {
        Some(p) => p,
        None => {
            if q.listing != Listing::Prime {
                return Err(GenError::UnboundedNeedsPrime);
            }
            let Some(h) = q.max_throw else {
                return Err(GenError::Underspecified);
            };
            let states = binomial(u64::from(h) * hands as u64, u64::from(q.props));
            if states > 4096 {
                return Err(GenError::TooLong(states));
            }
            let s = states as u32;
            s - s % rp as u32
        }
    };
    let height = match q.max_throw {
        Some(h) => u64::from(h),
        None => u64::from(q.props) * u64::from(period_max),
    };
    if height < 1 {
        return Err(GenError::HeightTooSmall);
    }
    if period_min < 1 || period_max < 1 || period_max < period_min {
        return Err(GenError::BadPeriod(period_min, period_max));
    }
    if jugglers > 1 && !q.permutations && q.ground != GroundFilter::Both {
        return Err(GenError::NeedsPermutations);
    }
    if period_min % rp as u32 != 0 || period_max % rp as u32 != 0 {
        return Err(GenError::PeriodMultiple(rp as u32));
    }
    if height > u64::from(MAX_GENERAL_HEIGHT) {
        return Err(GenError::TooHigh(height));
    }
    if period_max > 4096 {
        return Err(GenError::TooLong(u128::from(period_max)));
    }
    let ht = height as usize;
    let repunit = |_hand: usize, beat: usize| -> u8 { u8::from(!q.sync || beat.is_multiple_of(2)) };
    // Ground state: props on the lowest places the rhythm allows, no multiplexes.
    let gsl;
    {
        let mut left = props;
        let mut i = 0;
        'find: loop {
            for h in 0..hands {
                if repunit(h, i) != 0 {
                    left -= 1;
                    if left == 0 {
                        gsl = i + 1;
                        break 'find;
                    }
                }
            }
            i += 1;
        }
    }
    let gsl = gsl.max(ht);
    let mut ground = vec![0u8; gsl * hands];
    {
        let mut left = props;
        let mut i = 0;
        while left > 0 {
            for h in 0..hands {
                if left > 0 && repunit(h, i) != 0 {
                    ground[i * hands + h] = 1;
                    left -= 1;
                }
            }
            i += 1;
        }
    }
    let mut slot_size = ht.max(period_max as usize);
    slot_size += rp - slot_size % rp;
    let maxocc = q.multiplex as usize;
    let mut exclude = Vec::new();
    for re in &q.exclude {
        let mut full = standard_regex(re);
        if !full.contains('^') {
            full = format!(".*{full}.*");
        }
        exclude.push(
            Regex::new(&format!("^(?:{full})$"))
                .map_err(|e| GenError::Regex(re.clone(), e.to_string()))?,
        );
    }
    let mut include = Vec::new();
    for re in &q.include {
        let mut full = standard_regex(re);
        if !full.contains('^') {
            full = format!(".*{full}");
        }
        if !full.contains('$') {
            full = format!("{full}.*");
        }
        include.push(
            Regex::new(&format!("^(?:{full})$"))
                .map_err(|e| GenError::Regex(re.clone(), e.to_string()))?,
        );
    }
    if q.true_multiplex {
        // A multiplex with a throw that is not a hold (a 2 to the throwing hand).
        let re = match (jugglers == 1, q.sync) {
            (true, false) => r".*\[[^2]*\].*",
            (true, true) => r".*\[([^2\]]*2x)*[^2\]]*\].*",
            (false, false) => r".*\[([^2\]]*(2p|.p2|2p.))*[^2\]]*\].*",
            (false, true) => r".*\[([^2\]]*(2p|.p2|2p.|2x|2xp|.xp2|2xp.))*[^2\]]*\].*",
        };
        include.push(
            Regex::new(&format!("^(?:{re})$"))
                .map_err(|e| GenError::Regex("-mt".to_string(), e.to_string()))?,
        );
    }
    Ok(MultiPlan {
        props,
        jugglers,
        hands,
        rp,
        mult: q.multiplex as u8,
        maxocc,
        ht,
        periods: (period_min as usize..=period_max as usize)
            .step_by(rp)
            .collect(),
        person: (0..hands).map(|h| h / (hands / jugglers) + 1).collect(),
        ground,
        gsl,
        ground_filter: q.ground,
        listing: q.listing,
        rotations: q.rotations,
        mpflag: !q.squeeze && maxocc > 1,
        clustered: q.clustered,
        lame: q.lame,
        connected: q.connected,
        symmetric: q.symmetric,
        permutations: q.permutations,
        delay: q.delay as usize,
        leader: q.leader as usize,
        sync: q.sync,
        slot_size,
        exclude,
        include,
        sequences: q.sequences,
    })
}

impl MultiPlan {
    /// The highest throw searched.
    pub fn height(&self) -> u32 {
        self.ht as u32
    }

    fn repunit(&self, hand: usize, beat: usize) -> u8 {
        let _ = hand;
        u8::from(!self.sync || beat.is_multiple_of(2))
    }

    /// Most props place `hand` can take `index` beats after beat `beat`.
    fn rhythm(&self, beat: usize, hand: usize, index: usize) -> u8 {
        self.mult * self.repunit(hand, beat + index)
    }

    /// Start states of period-`l` patterns, in Juggling Lab's order.
    fn start_states(&self, l: usize) -> Vec<Vec<u8>> {
        let size = self.ht * self.hands;
        if self.ground_filter == GroundFilter::GroundOnly {
            if self.gsl > self.ht {
                return Vec::new();
            }
            return vec![self.ground[..size].to_vec()];
        }
        let mut out = Vec::new();
        let mut s = vec![0u8; size];
        self.place(l, 0, 0, 0, &mut s, &mut out);
        if self.ground_filter == GroundFilter::ExcitedOnly {
            out.retain(|s| s[..] != self.ground[..size]);
        }
        out
    }

    #[allow(clippy::too_many_arguments)]
    fn place(
        &self,
        l: usize,
        placed: usize,
        min_i: usize,
        min_j: usize,
        s: &mut Vec<u8>,
        out: &mut Vec<Vec<u8>>,
    ) {
        if placed == self.props {
            out.push(s.clone());
            return;
        }
        let hands = self.hands;
        let mut j = min_j;
        for i in min_i..self.ht {
            while j < hands {
                let idx = i * hands + j;
                if s[idx] < self.rhythm(0, j, i) {
                    s[idx] += 1;
                    if i < l || s[idx] <= s[(i - l) * hands + j] {
                        self.place(l, placed + 1, i, j, s, out);
                    }
                    s[idx] -= 1;
                }
                j += 1;
            }
            j = 0;
        }
    }

    fn tasks(&self) -> Vec<(usize, Vec<u8>)> {
        self.periods
            .iter()
            .flat_map(|&l| self.start_states(l).into_iter().map(move |s| (l, s)))
            .collect()
    }

    /// Counts the patterns (start states searched in parallel).
    pub fn count(&self) -> u64 {
        self.tasks()
            .into_par_iter()
            .map(|(l, s0)| match Search::new(self, l, &s0) {
                Some(mut search) => {
                    search.need_text = !self.exclude.is_empty() || !self.include.is_empty();
                    search.start_beat(0);
                    search.cycles(0, 1, 0, &mut |_: &str| {})
                }
                None => 0,
            })
            .sum()
    }

    /// Finds the patterns and hands them to `sink` in Juggling Lab's order (start states in
    /// chunks searched in parallel). `sink` returns `false` to stop. Returns the number of
    /// patterns delivered.
    pub fn generate(&self, sink: &mut dyn FnMut(&FoundText) -> bool) -> u64 {
        let tasks = self.tasks();
        let size = self.ht * self.hands;
        let mut delivered = 0;
        for chunk in tasks.chunks(32) {
            let results: Vec<Vec<FoundText>> = chunk
                .par_iter()
                .map(|(l, s0)| {
                    let Some(mut search) = Search::new(self, *l, s0) else {
                        return Vec::new();
                    };
                    let mut patterns = Vec::new();
                    search.start_beat(0);
                    search.cycles(0, 1, 0, &mut |t: &str| patterns.push(t.to_string()));
                    if patterns.is_empty() {
                        return Vec::new();
                    }
                    let (get_in, get_out) = if self.sequences {
                        self.start_end(s0)
                    } else {
                        (String::new(), String::new())
                    };
                    let ground_state = s0[..] == self.ground[..size];
                    patterns
                        .into_iter()
                        .map(|pattern| FoundText {
                            pattern,
                            ground_state,
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

    /// Writes the throws of one beat (`values`/`to`: per place, `maxocc` throws) in Juggling
    /// Lab's notation; `beat` decides which places throw.
    pub(crate) fn write_beat(&self, beat: usize, values: &[u16], to: &[u8], out: &mut String) {
        let hands = self.hands;
        if (0..hands).all(|h| self.rhythm(beat, h, 0) == 0) {
            return;
        }
        let mut x_space = !out.is_empty();
        if self.jugglers > 1 {
            out.push('<');
            x_space = false;
        }
        for juggler in 1..=self.jugglers {
            let lo = self.person.iter().position(|&p| p == juggler).unwrap_or(0);
            let mut hi = lo;
            while hi < hands && self.person[hi] == juggler {
                hi += 1;
            }
            let throwing = (lo..hi).filter(|&h| self.rhythm(beat, h, 0) != 0).count();
            if throwing > 0 {
                let parens = throwing > 1;
                if parens {
                    out.push('(');
                    x_space = false;
                }
                for h in lo..hi {
                    if self.rhythm(beat, h, 0) == 0 {
                        continue;
                    }
                    let base = h * self.maxocc;
                    let multiplex = self.maxocc > 1 && values[base + 1] > 0;
                    if multiplex {
                        out.push('[');
                        x_space = false;
                    }
                    let mut any = false;
                    for k in 0..self.maxocc {
                        let v = values[base + k];
                        if v == 0 {
                            break;
                        }
                        any = true;
                        if v == 33 && x_space {
                            out.push(' ');
                        }
                        out.push(throw_char(u32::from(v)));
                        x_space = true;
                        if hands > 1 {
                            let dest = to[base + k] as usize;
                            let target = self.person[dest];
                            if self.sync {
                                let dest_hand = dest
                                    - self.person.iter().position(|&p| p == target).unwrap_or(0);
                                if dest_hand != h - lo {
                                    out.push('x');
                                }
                            }
                            if target != juggler {
                                out.push('p');
                                if self.jugglers > 2 {
                                    out.push(throw_char(target as u32));
                                }
                            }
                        }
                        if multiplex
                            && self.jugglers > 1
                            && k + 1 < self.maxocc
                            && values[base + k + 1] > 0
                        {
                            out.push('/');
                            x_space = false;
                        }
                    }
                    if !any {
                        out.push('0');
                        x_space = true;
                    }
                    if multiplex {
                        out.push(']');
                        x_space = false;
                    }
                    if h + 1 < hi && parens {
                        out.push(',');
                        x_space = false;
                    }
                }
                if parens {
                    out.push(')');
                    x_space = false;
                }
            }
            if juggler < self.jugglers {
                out.push('|');
                x_space = false;
            }
        }
        if self.jugglers > 1 {
            out.push('>');
        }
    }

    /// Juggling Lab's get-in and get-out throws between the ground state and `s0`.
    fn start_end(&self, s0: &[u8]) -> (String, String) {
        let (hands, ht, gsl, occ) = (self.hands, self.ht, self.gsl, self.maxocc);
        // Get-in: wait until the ground state's remaining props fit under s0.
        let mut beats = 0;
        let mut rest = vec![0u8; ht * hands];
        'wait: loop {
            for j in 0..hands {
                for k in 0..ht {
                    let g = if k + beats < gsl {
                        self.ground[(k + beats) * hands + j]
                    } else {
                        0
                    };
                    if g > s0[k * hands + j] {
                        beats += self.rp;
                        continue 'wait;
                    }
                    rest[k * hands + j] = s0[k * hands + j] - g;
                }
            }
            break;
        }
        let mut get_in = String::new();
        for i in 0..beats {
            let mut values = vec![0u16; hands * occ];
            let mut to: Vec<u8> = (0..hands * occ).map(|x| (x / occ) as u8).collect();
            for j in 0..hands {
                if i >= gsl || self.ground[i * hands + j] == 0 {
                    continue;
                }
                'first: for k in 0..ht {
                    for m in 0..hands {
                        if rest[k * hands + m] > 0 {
                            rest[k * hands + m] -= 1;
                            values[j * occ] = (k + beats - i) as u16;
                            to[j * occ] = m as u8;
                            break 'first;
                        }
                    }
                }
            }
            self.write_beat(i, &values, &to, &mut get_in);
        }
        // Get-out: wait until s0's remaining props fit under the ground state.
        let mut beats = 0;
        let mut rest = vec![0u8; gsl * hands];
        'wait2: loop {
            for j in 0..hands {
                for k in 0..gsl {
                    let v = if k + beats < ht {
                        s0[(k + beats) * hands + j]
                    } else {
                        0
                    };
                    if v > self.ground[k * hands + j] {
                        beats += self.rp;
                        continue 'wait2;
                    }
                    rest[k * hands + j] = self.ground[k * hands + j] - v;
                }
            }
            break;
        }
        let mut get_out = String::new();
        for i in 0..beats {
            let mut values = vec![0u16; hands * occ];
            let mut to: Vec<u8> = (0..hands * occ).map(|x| (x / occ) as u8).collect();
            if i < ht {
                for j in 0..hands {
                    for q in 0..s0[i * hands + j] as usize {
                        'first2: for k in 0..gsl {
                            for m in 0..hands {
                                if rest[k * hands + m] > 0 {
                                    rest[k * hands + m] -= 1;
                                    values[j * occ + q] = (k + beats - i) as u16;
                                    to[j * occ + q] = m as u8;
                                    break 'first2;
                                }
                            }
                        }
                    }
                }
            }
            self.write_beat(i, &values, &to, &mut get_out);
        }
        (get_in, get_out)
    }
}

/// The search for the period-`l` patterns through one start state.
struct Search<'a> {
    p: &'a MultiPlan,
    l: usize,
    /// `states[b]`: the state before beat `b`, index `k * hands + h`.
    states: Vec<Vec<u8>>,
    /// Throw values and target places: index `(beat * hands + h) * maxocc + slot`.
    values: Vec<u16>,
    to: Vec<u8>,
    /// Free landing places: index `h * (l + ht) + beat`.
    holes: Vec<i32>,
    throws_left: Vec<u8>,
    /// Multiplexing filter: index `(beat * hands + h) * slot_size + k`.
    mp: Vec<Slot>,
    text: String,
    /// The pattern's text is kept (for listing, or for regular expressions).
    need_text: bool,
}

impl<'a> Search<'a> {
    /// Sets up the search, or `None` when `s0` cannot start a period-`l` pattern.
    fn new(p: &'a MultiPlan, l: usize, s0: &[u8]) -> Option<Search<'a>> {
        let (hands, ht, ss) = (p.hands, p.ht, p.slot_size);
        let mut mp = if p.mpflag {
            vec![Slot::default(); (l + 1) * hands * ss]
        } else {
            Vec::new()
        };
        for i in 0..hands {
            for j in 0..ht {
                let k = s0[j * hands + i];
                if p.mpflag && k == 0 {
                    mp[i * ss + j] = Slot::default();
                    continue;
                }
                if p.mpflag {
                    mp[i * ss + j] = Slot {
                        kind: MP_LOWER_BOUND,
                        from: i as u8,
                        value: (j + 1) as u16,
                    };
                }
                let mut m = j + l;
                while m < ht {
                    let q = s0[m * hands + i];
                    if q > k {
                        return None;
                    }
                    if p.mpflag && q != 0 {
                        if q < k && j > HOLD {
                            return None;
                        }
                        mp[i * ss + j].value = (m + 1) as u16;
                    }
                    m += l;
                }
            }
        }
        let width = l + ht;
        let mut holes = vec![0i32; hands * width];
        for h in 0..hands {
            for ti in 0..width {
                let mut n = if ti < l {
                    i32::from(p.mult * p.repunit(h, ti))
                } else {
                    i32::from(s0[(ti - l) * hands + h])
                };
                if ti < ht {
                    n -= i32::from(s0[ti * hands + h]);
                }
                holes[h * width + ti] = n;
            }
        }
        let mut states = vec![vec![0u8; ht * hands]; l + 1];
        states[0].copy_from_slice(s0);
        Some(Search {
            p,
            l,
            states,
            values: vec![0; l * hands * p.maxocc],
            to: vec![0; l * hands * p.maxocc],
            holes,
            throws_left: vec![0; l * hands],
            mp,
            text: String::new(),
            need_text: true,
        })
    }

    fn start_beat(&mut self, pos: usize) {
        let (hands, occ) = (self.p.hands, self.p.maxocc);
        for h in 0..hands {
            self.throws_left[pos * hands + h] = self.states[pos][h];
            for k in 0..occ {
                let idx = (pos * hands + h) * occ + k;
                self.to[idx] = h as u8;
                self.values[idx] = 0;
            }
        }
    }

    /// Assigns the next throw of beat `pos`, or finishes the beat.
    fn cycles(
        &mut self,
        pos: usize,
        min_throw: usize,
        min_hand: usize,
        emit: &mut dyn FnMut(&str),
    ) -> u64 {
        let p = self.p;
        let hands = p.hands;
        let Some(h) = (0..hands).find(|&h| self.throws_left[pos * hands + h] != 0) else {
            let len = self.text.len();
            let occ = p.maxocc;
            let range = pos * hands * occ..(pos + 1) * hands * occ;
            if self.need_text {
                let mut text = std::mem::take(&mut self.text);
                p.write_beat(pos, &self.values[range.clone()], &self.to[range], &mut text);
                self.text = text;
            }
            let n = self.beat_done(pos, emit);
            self.text.truncate(len);
            return n;
        };
        self.throws_left[pos * hands + h] -= 1;
        let slot = self.throws_left[pos * hands + h] as usize;
        let idx = (pos * hands + h) * p.maxocc + slot;
        let width = self.l + p.ht;
        let mut num = 0;
        let mut k = min_hand;
        for j in min_throw..=p.ht {
            let ti = pos + j;
            while k < hands {
                if self.holes[k * width + ti] > 0 {
                    self.holes[k * width + ti] -= 1;
                    self.to[idx] = k as u8;
                    self.values[idx] = j as u16;
                    num += if slot != 0 {
                        self.cycles(pos, j, k, emit)
                    } else {
                        self.cycles(pos, 1, 0, emit)
                    };
                    self.holes[k * width + ti] += 1;
                }
                k += 1;
            }
            k = 0;
        }
        self.throws_left[pos * hands + h] += 1;
        num
    }

    /// Checks a finished beat and goes on to the next one (or completes the pattern).
    fn beat_done(&mut self, pos: usize, emit: &mut dyn FnMut(&str)) -> u64 {
        if !self.throws_valid(pos) {
            return 0;
        }
        if self.p.mpflag && !self.multiplexing_valid(pos) {
            return 0;
        }
        self.calculate_state(pos + 1);
        if !self.state_valid(pos + 1) {
            return 0;
        }
        if pos + 1 < self.l {
            self.start_beat(pos + 1);
            return self.cycles(pos + 1, 1, 0, emit);
        }
        if self.states[0] == self.states[self.l] && self.pattern_valid() {
            emit(&self.text);
            1
        } else {
            0
        }
    }

    fn value(&self, beat: usize, h: usize, k: usize) -> usize {
        usize::from(self.values[(beat * self.p.hands + h) * self.p.maxocc + k])
    }

    fn target(&self, beat: usize, h: usize, k: usize) -> usize {
        usize::from(self.to[(beat * self.p.hands + h) * self.p.maxocc + k])
    }

    fn throws_valid(&self, pos: usize) -> bool {
        let p = self.p;
        let (hands, occ) = (p.hands, p.maxocc);
        if p.exclude.iter().any(|re| re.is_match(&self.text)) {
            return false;
        }
        if !p.clustered {
            for i in 0..hands {
                if p.rhythm(pos, i, 0) == 0 {
                    continue;
                }
                let mut j = 0;
                while j < occ && self.value(pos, i, j) != 0 {
                    for m in 0..j {
                        if self.value(pos, i, j) == self.value(pos, i, m)
                            && self.target(pos, i, j) == self.target(pos, i, m)
                        {
                            return false;
                        }
                    }
                    j += 1;
                }
            }
        }
        if p.jugglers > 1 && pos < p.delay {
            let mut thrown = 0;
            for i in 0..hands {
                if p.rhythm(pos, i, 0) != 0 {
                    thrown += 1;
                    if self.states[pos][i] != 1 && p.person[i] != p.leader {
                        return false;
                    }
                }
            }
            // Where the ground state pattern throws on this beat.
            let mut dest_hand = vec![0usize; hands];
            let mut dest_value = vec![0usize; hands];
            let mut left = p.props;
            'place: for i in 0..p.ht {
                for j in 0..hands {
                    if left == 0 {
                        break 'place;
                    }
                    if p.rhythm(pos + 1, j, i) != 0 {
                        left -= 1;
                        if left < thrown {
                            dest_hand[left] = j;
                            dest_value[left] = i + 1;
                        }
                    }
                }
            }
            if left != 0 {
                return false;
            }
            for i in 0..hands {
                if self.states[pos][i] == 0 || p.person[i] == p.leader {
                    continue;
                }
                let spot = (0..thrown).find(|&b| {
                    dest_hand[b] == self.target(pos, i, 0) && dest_value[b] == self.value(pos, i, 0)
                });
                match spot {
                    Some(b) => dest_value[b] = 0,
                    None => return false,
                }
            }
        }
        true
    }

    fn multiplexing_valid(&mut self, pos: usize) -> bool {
        let p = self.p;
        let (hands, ss, occ) = (p.hands, p.slot_size, p.maxocc);
        for j in 0..hands {
            let from = (pos * hands + j) * ss;
            let dest = ((pos + 1) * hands + j) * ss;
            let first = self.mp[from];
            for k in 0..ss - 1 {
                self.mp[dest + k] = self.mp[from + k + 1];
            }
            self.mp[dest + ss - 1] = Slot::default();
            if add_throw(
                &mut self.mp[dest + self.l - 1],
                j,
                first.kind,
                first.value,
                first.from,
            ) {
                return false;
            }
        }
        for j in 0..hands {
            for k in 0..occ {
                let m = self.value(pos, j, k);
                if m == 0 {
                    break;
                }
                let t = self.target(pos, j, k);
                let dest = ((pos + 1) * hands + t) * ss + m - 1;
                if add_throw(&mut self.mp[dest], t, MP_THROW, m as u16, j as u8) {
                    return false;
                }
            }
        }
        true
    }

    fn calculate_state(&mut self, pos: usize) {
        let p = self.p;
        let (hands, ht, occ) = (p.hands, p.ht, p.maxocc);
        let (before, after) = self.states.split_at_mut(pos);
        let prev = &before[pos - 1];
        let next = &mut after[0];
        next[..(ht - 1) * hands].copy_from_slice(&prev[hands..]);
        next[(ht - 1) * hands..].fill(0);
        for j in 0..hands {
            for k in 0..occ {
                let idx = ((pos - 1) * hands + j) * occ + k;
                let v = usize::from(self.values[idx]);
                if v == 0 {
                    break;
                }
                next[(v - 1) * hands + usize::from(self.to[idx])] += 1;
            }
        }
    }

    fn state_valid(&self, pos: usize) -> bool {
        let p = self.p;
        let (hands, ht, l) = (p.hands, p.ht, self.l);
        let s = &self.states[pos];
        if ht > l {
            for j in 0..hands {
                for o in 0..ht - l {
                    if s[(o + l) * hands + j] > s[o * hands + j] {
                        return false;
                    }
                }
            }
        }
        if pos.is_multiple_of(p.rp) {
            let cs = compare_states(&self.states[0], s);
            if p.listing != Listing::Full && pos != l && cs == std::cmp::Ordering::Equal {
                return false;
            }
            if !p.rotations && cs == std::cmp::Ordering::Greater {
                return false;
            }
        }
        if p.listing == Listing::Prime {
            for j in 1..pos {
                if (pos - j).is_multiple_of(p.rp) && self.states[j] == *s {
                    return false;
                }
            }
        }
        true
    }

    fn pattern_valid(&self) -> bool {
        let p = self.p;
        let (hands, occ, l) = (p.hands, p.maxocc, self.l);
        if !p.include.iter().all(|re| re.is_match(&self.text)) {
            return false;
        }
        if !p.sync && p.lame && occ == 1 {
            for i in 0..l - 1 {
                for j in 0..hands {
                    if self.value(i, j, 0) == 1
                        && p.person[self.target(i, j, 0)] == p.person[j]
                        && self.value(i + 1, j, 0) == 1
                        && p.person[self.target(i + 1, j, 0)] == p.person[j]
                    {
                        return false;
                    }
                }
            }
        }
        if p.listing == Listing::Full && !p.rotations {
            for i in (p.rp..l).step_by(p.rp) {
                if self.states[0] == self.states[i] && self.compare_rotations(0, i) < 0 {
                    return false;
                }
            }
        }
        if p.jugglers > 1 && p.connected {
            let mut conn = vec![false; p.jugglers];
            conn[0] = true;
            let mut changed = true;
            while changed {
                changed = false;
                for i in 0..l {
                    for j in 0..hands {
                        if conn[p.person[j] - 1] {
                            continue;
                        }
                        let mut k = 0;
                        while k < occ && self.value(i, j, k) > 0 {
                            if conn[p.person[self.target(i, j, k)] - 1] {
                                conn[p.person[j] - 1] = true;
                                changed = true;
                            }
                            k += 1;
                        }
                    }
                }
            }
            if conn.iter().any(|&c| !c) {
                return false;
            }
        }
        if p.jugglers > 1 && !p.permutations && !self.permutation_ok() {
            return false;
        }
        if p.jugglers > 1 && p.symmetric && !self.symmetric() {
            return false;
        }
        true
    }

    /// J2's score of juggler `m`'s throws on beat `i`.
    fn score(&self, i: usize, m: usize) -> i64 {
        let p = self.p;
        let occ = p.maxocc as i64;
        let mut score = 0;
        for j in 0..p.hands {
            if p.person[j] != m {
                continue;
            }
            let mut k = 0;
            while k < p.maxocc && self.value(i, j, k) > 0 {
                score += 4 * self.value(i, j, k) as i64 * (2 * occ) * (2 * occ);
                let t = self.target(i, j, k);
                if t != j {
                    score += 2 * (2 * occ);
                    if p.person[t] != m {
                        score += 1;
                    }
                }
                k += 1;
            }
        }
        score
    }

    /// False when juggler `m + 1`'s throws, best beat first, outscore juggler `m`'s.
    fn permutation_ok(&self) -> bool {
        // Scores of jugglers m and m + 1 on each beat, taken greatest first (the first beat
        // of the greatest on ties), compared pair by pair until one is greater.
        const SHORT: usize = 64;
        let l = self.l;
        if l > SHORT {
            let scores = |m: usize| {
                let mut v: Vec<i64> = (0..l).map(|i| self.score(i, m)).collect();
                v.sort_unstable_by(|x, y| y.cmp(x));
                v
            };
            return (1..self.p.jugglers).all(|m| scores(m) >= scores(m + 1));
        }
        let mut a = [0i64; SHORT];
        let mut b = [0i64; SHORT];
        for (i, x) in a[..l].iter_mut().enumerate() {
            *x = self.score(i, 1);
        }
        a[..l].sort_unstable_by(|x, y| y.cmp(x));
        for m in 1..self.p.jugglers {
            for (i, x) in b[..l].iter_mut().enumerate() {
                *x = self.score(i, m + 1);
            }
            b[..l].sort_unstable_by(|x, y| y.cmp(x));
            if b[..l] > a[..l] {
                return false;
            }
            std::mem::swap(&mut a, &mut b);
        }
        true
    }

    /// Every juggler makes juggler 1's throws at some beat offset (J2's `-sym` test).
    fn symmetric(&self) -> bool {
        let p = self.p;
        let l = self.l;
        'jugglers: for j in 2..=p.jugglers {
            'offsets: for offset in 0..l {
                for i in 0..l {
                    let mut h1 = 0;
                    let index = (i + offset) % l;
                    for h in 1..p.hands {
                        if p.person[h] != j {
                            continue;
                        }
                        for k in 0..p.maxocc {
                            let v1 = self.value(i, h1, k);
                            let t1 = self.target(i, h1, k);
                            let vj = self.value(index, h, k);
                            let tj = self.target(index, h, k);
                            if v1 == 0 && vj == 0 {
                                break;
                            }
                            if v1 != vj
                                || (p.person[t1] == 1) != (p.person[tj] == j)
                                || (t1 == h1) != (tj == h)
                            {
                                continue 'offsets;
                            }
                        }
                        h1 += 1;
                    }
                }
                continue 'jugglers;
            }
            return false;
        }
        true
    }

    fn compare_rotations(&self, pos1: usize, pos2: usize) -> i32 {
        let l = self.l;
        let mut i = 0;
        while i < l {
            let res = self.compare_loops((pos1 + i) % l, (pos2 + i) % l);
            if res != 0 {
                return res;
            }
            i += 1;
            while i < l {
                if self.states[pos1] == self.states[(pos1 + i) % l] {
                    break;
                }
                i += 1;
            }
        }
        0
    }

    fn compare_loops(&self, mut pos1: usize, mut pos2: usize) -> i32 {
        let start = &self.states[pos1];
        let mut result = 0;
        let mut i = 0;
        loop {
            i += 1;
            if result == 0 {
                result = self.compare_throws(pos1, pos2);
            }
            if i % self.p.rp == 0 {
                let e1 = self.states[pos1 + 1] == *start;
                let e2 = self.states[pos2 + 1] == *start;
                if e1 {
                    return if e2 { result } else { -1 };
                }
                if e2 {
                    return 1;
                }
            }
            pos1 += 1;
            pos2 += 1;
            if pos1 >= self.l || pos2 >= self.l {
                return result;
            }
        }
    }

    fn compare_throws(&self, pos1: usize, pos2: usize) -> i32 {
        let p = self.p;
        for i in 0..p.hands {
            for j in 0..usize::from(p.rhythm(pos1, i, 0)) {
                let (v1, v2) = (self.value(pos1, i, j), self.value(pos2, i, j));
                if v1 != v2 {
                    return if v1 > v2 { 1 } else { -1 };
                }
                let (t1, t2) = (self.target(pos1, i, j), self.target(pos2, i, j));
                if t1 != t2 {
                    return if t1 > t2 { 1 } else { -1 };
                }
            }
        }
        0
    }
}

/// Adds a throw (or a shifted filter entry) to a multiplexing filter place; `true` when it
/// collides.
fn add_throw(dest: &mut Slot, slot_hand: usize, kind: u8, value: u16, from: u8) -> bool {
    match kind {
        MP_EMPTY => false,
        MP_LOWER_BOUND => {
            if dest.kind == MP_EMPTY {
                *dest = Slot { kind, from, value };
            }
            false
        }
        _ => {
            if usize::from(from) == slot_hand && usize::from(value) == HOLD {
                return false;
            }
            match dest.kind {
                MP_EMPTY => {
                    *dest = Slot {
                        kind: MP_THROW,
                        from,
                        value,
                    };
                    false
                }
                MP_LOWER_BOUND => {
                    if dest.value <= value || usize::from(dest.value) <= HOLD {
                        *dest = Slot {
                            kind: MP_THROW,
                            from,
                            value,
                        };
                        false
                    } else {
                        true
                    }
                }
                _ => !(dest.from == from && dest.value == value),
            }
        }
    }
}

/// Juggling Lab's order of states: by the largest count, then by the highest beat and place
/// where they differ.
fn compare_states(a: &[u8], b: &[u8]) -> std::cmp::Ordering {
    let ma = a.iter().max().copied().unwrap_or(0);
    let mb = b.iter().max().copied().unwrap_or(0);
    ma.cmp(&mb).then_with(|| a.iter().rev().cmp(b.iter().rev()))
}

#[cfg(test)]
#[path = "multi/tests.rs"]
mod tests;
