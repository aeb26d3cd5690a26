//! A checked general query ([`Plan`]): the places, the ground state, the periods and start
//! states to search, and the compiled filters.

use regex::Regex;

use super::notation::BeatWriter;
use crate::budget::{self, GEN_CELLS, GEN_PERIOD};
use crate::tools::query::{
    anchored, binomial, compile, GenError, GroundFilter, Listing, Matching, Query, MAX_HEIGHT,
    MAX_JUGGLERS, MAX_MULTIPLEX, MAX_PERIOD,
};

/// Props landing per (beat ahead, place): index `beat * places + place`.
pub(crate) type Counts = Vec<u8>;

/// A validated general query.
#[derive(Debug)]
pub(crate) struct Plan {
    pub(crate) props: usize,
    pub(crate) jugglers: usize,
    /// Throwing places: one per juggler, or one per hand when synchronous.
    pub(crate) places: usize,
    /// Beats between two throws of one place: 1 asynchronous, 2 synchronous.
    pub(crate) rhythm: usize,
    /// Most props one place throws (and catches) on one beat (`-m`).
    pub(crate) multiplex: usize,
    /// The highest throw.
    pub(crate) height: usize,
    pub(crate) periods: Vec<usize>,
    /// The juggler (1-based) of each place.
    pub(crate) juggler_of: Vec<usize>,
    /// The ground state, `ground_beats` beats long.
    pub(crate) ground: Counts,
    pub(crate) ground_beats: usize,
    pub(crate) ground_filter: GroundFilter,
    pub(crate) listing: Listing,
    pub(crate) rotations: bool,
    /// The multiplexing filter is on: no squeeze catches (`-m N` without `-mf`).
    pub(crate) squeeze_filter: bool,
    pub(crate) clustered: bool,
    pub(crate) lame: bool,
    pub(crate) connected: bool,
    pub(crate) symmetric: bool,
    pub(crate) permutations: bool,
    /// `-d`: beats of communication delay, and the leader (1-based).
    pub(crate) delay: usize,
    pub(crate) leader: usize,
    pub(crate) sync: bool,
    /// Beats the multiplexing filter looks ahead (a multiple of `rhythm`).
    pub(crate) filter_beats: usize,
    pub(crate) exclude: Vec<Regex>,
    pub(crate) include: Vec<Regex>,
    pub(crate) sequences: bool,
    pub(crate) writer: BeatWriter,
}

/// Checks a general query (sync, multiplex or passing).
pub(crate) fn plan(q: &Query) -> Result<Plan, GenError> {
    if q.props < 1 {
        return Err(GenError::NoProps);
    }
    if q.jugglers < 1 || q.jugglers > MAX_JUGGLERS {
        return Err(GenError::Jugglers(q.jugglers));
    }
    if q.multiplex < 1 || q.multiplex > MAX_MULTIPLEX {
        return Err(GenError::Multiplex(q.multiplex));
    }
    if q.leader < 1 || q.leader > q.jugglers {
        return Err(GenError::Leader {
            leader: q.leader,
            jugglers: q.jugglers,
        });
    }
    let jugglers = q.jugglers as usize;
    let (places, rhythm) = if q.sync {
        (2 * jugglers, 2)
    } else {
        (jugglers, 1)
    };
    let props = q.props as usize;
    let period_min = if q.period_from_rhythm {
        rhythm as u32
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
            // A prime pattern visits each state at most once.
            let states = binomial(u64::from(h) * places as u64, u64::from(q.props));
            if states > u128::from(MAX_PERIOD) {
                return Err(GenError::TooLong(states));
            }
            let s = states as u32;
            s - s % rhythm as u32
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
    if period_min % rhythm as u32 != 0 || period_max % rhythm as u32 != 0 {
        return Err(GenError::PeriodMultiple(rhythm as u32));
    }
    if height > u64::from(MAX_HEIGHT) {
        return Err(GenError::TooHigh(height));
    }
    budget::check(GEN_PERIOD, u128::from(period_max))?;
    // The ground state: its props on the beats the rhythm throws on.
    budget::check(GEN_CELLS, u128::from(q.props) * rhythm as u128)?;
    let height = height as usize;
    let throws_on = |beat: usize| !q.sync || beat.is_multiple_of(2);
    // Ground state: props on the lowest places the rhythm allows, no multiplexes.
    let mut ground = Vec::new();
    let mut left = props;
    let mut beat = 0;
    while left > 0 {
        for _ in 0..places {
            let prop = left > 0 && throws_on(beat);
            ground.push(u8::from(prop));
            left -= usize::from(prop);
        }
        beat += 1;
    }
    let ground_beats = beat.max(height);
    ground.resize(ground_beats * places, 0);
    let mut filter_beats = height.max(period_max as usize);
    filter_beats += rhythm - filter_beats % rhythm;
    let multiplex = q.multiplex as usize;
    let squeeze_filter = !q.squeeze && multiplex > 1;
    // The largest tables of one search: the states, and the multiplexing filter.
    let beats = period_max as u128 + 1;
    let filter = if squeeze_filter {
        filter_beats as u128
    } else {
        0
    };
    budget::check(
        GEN_CELLS,
        beats * places as u128 * (height as u128 + filter),
    )?;
    let exclude = compile(&q.exclude, Matching::Exclude)?;
    let mut include = compile(&q.include, Matching::Include)?;
    if q.true_multiplex {
        // A multiplex with a throw that is not a hold (a 2 to the throwing hand).
        let re = match (jugglers == 1, q.sync) {
            (true, false) => r".*\[[^2]*\].*",
            (true, true) => r".*\[([^2\]]*2x)*[^2\]]*\].*",
            (false, false) => r".*\[([^2\]]*(2p|.p2|2p.))*[^2\]]*\].*",
            (false, true) => r".*\[([^2\]]*(2p|.p2|2p.|2x|2xp|.xp2|2xp.))*[^2\]]*\].*",
        };
        include.push(anchored(re).map_err(|e| GenError::Regex("-mt".to_string(), e))?);
    }
    let writer = BeatWriter::new(jugglers, q.sync, multiplex).with_pieces(height);
    Ok(Plan {
        props,
        jugglers,
        places,
        rhythm,
        multiplex,
        height,
        periods: (period_min as usize..=period_max as usize)
            .step_by(rhythm)
            .collect(),
        juggler_of: writer.juggler_of.clone(),
        ground,
        ground_beats,
        ground_filter: q.ground,
        listing: q.listing,
        rotations: q.rotations,
        squeeze_filter,
        clustered: q.clustered,
        lame: q.lame,
        connected: q.connected,
        symmetric: q.symmetric,
        permutations: q.permutations,
        delay: q.delay as usize,
        leader: q.leader as usize,
        sync: q.sync,
        filter_beats,
        exclude,
        include,
        sequences: q.sequences,
        writer,
    })
}

impl Plan {
    /// Whether the places throw on `beat` (every beat, or even beats when synchronous).
    pub(crate) fn throws_on(&self, beat: usize) -> bool {
        !self.sync || beat.is_multiple_of(2)
    }

    /// Most props one place can take on `beat`.
    pub(crate) fn capacity(&self, beat: usize) -> u8 {
        if self.throws_on(beat) {
            self.multiplex as u8
        } else {
            0
        }
    }

    /// The ground state cut to `height` beats (the length of the search's states).
    pub(crate) fn ground_state(&self) -> &[u8] {
        &self.ground[..self.height * self.places]
    }

    /// What the start states depend on: they are every way of placing the props, in order
    /// of (beat, place), one period after the other (Juggling Lab's order).
    fn start_rule(&self) -> StartRule {
        StartRule {
            places: self.places,
            props: self.props,
            capacity: [self.capacity(0), self.capacity(1)],
            height: self.height,
            ground: self.ground_state().to_vec(),
            ground_fits: self.ground_beats <= self.height,
            filter: self.ground_filter,
        }
    }

    /// The (period, start state) pairs to search, in output order (owning what it needs
    /// of the plan).
    pub(crate) fn tasks(&self) -> impl Iterator<Item = (usize, Counts)> + Send + 'static {
        let rule = self.start_rule();
        self.periods
            .clone()
            .into_iter()
            .flat_map(move |l| rule.states(l).map(move |s| (l, s)))
    }
}

/// What the start states of a plan depend on.
#[derive(Clone, Debug)]
struct StartRule {
    places: usize,
    props: usize,
    /// Props a place can catch on an even and an odd beat.
    capacity: [u8; 2],
    height: usize,
    /// The ground state, and whether it fits the height.
    ground: Counts,
    ground_fits: bool,
    filter: GroundFilter,
}

impl StartRule {
    fn states(&self, period: usize) -> Box<dyn Iterator<Item = Counts> + Send + 'static> {
        match self.filter {
            GroundFilter::GroundOnly => {
                Box::new(self.ground_fits.then(|| self.ground.clone()).into_iter())
            }
            GroundFilter::Both => Box::new(StartStates::new(self, period)),
            GroundFilter::ExcitedOnly => {
                let ground = self.ground.clone();
                Box::new(StartStates::new(self, period).filter(move |s| *s != ground))
            }
        }
    }
}

/// The start states of one period, one after the other: the props' indices (`beat * places
/// + place`) in increasing order, several at one index up to its capacity; a place may not
/// hold more props at beat `k + period` than at beat `k`.
struct StartStates {
    places: usize,
    props: usize,
    /// Props a place can catch on an even and an odd beat.
    capacity: [u8; 2],
    period: usize,
    /// The index of each prop placed so far.
    placed: Vec<usize>,
    state: Counts,
    /// The lowest index the next prop may take.
    from: usize,
}

impl StartStates {
    fn new(plan: &StartRule, period: usize) -> StartStates {
        StartStates {
            places: plan.places,
            props: plan.props,
            capacity: plan.capacity,
            period,
            placed: Vec::new(),
            state: vec![0; plan.height * plan.places],
            from: 0,
        }
    }

    /// Takes the last prop off; `false` when none is left.
    fn take_last(&mut self) -> bool {
        let Some(last) = self.placed.pop() else {
            return false;
        };
        self.state[last] -= 1;
        self.from = last + 1;
        true
    }
}

impl Iterator for StartStates {
    type Item = Counts;

    fn next(&mut self) -> Option<Counts> {
        let places = self.places;
        let later = self.period * places;
        loop {
            if self.placed.len() == self.props {
                let found = self.state.clone();
                self.take_last();
                return Some(found);
            }
            let state = &self.state;
            let free = (self.from..state.len()).find(|&index| {
                state[index] < self.capacity[index / places % 2]
                    && (index < later || state[index] < state[index - later])
            });
            match free {
                Some(index) => {
                    self.state[index] += 1;
                    self.placed.push(index);
                    self.from = index;
                }
                None => {
                    if !self.take_last() {
                        return None;
                    }
                }
            }
        }
    }
}
