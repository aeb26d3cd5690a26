//! The general generator: synchronous (`-s`), multiplex (`-m N`) and passing (`-j N`)
//! patterns, with the same set of patterns, in the same rotation and notation, as Juggling
//! Lab's generator (J2). Solo asynchronous patterns without multiplexes go through the faster
//! bit-set search (`tools::solo`); this search handles them too (tests compare the two).
//!
//! # Glossary
//! - *place*: where props are thrown from and caught: one per juggler (asynchronous) or one
//!   per hand (synchronous, left then right, juggler by juggler). `juggler_of[place]` is its
//!   juggler, numbered from 1 as J2 does.
//! - *rhythm*: beats between two throws of one place: 1 asynchronous, 2 synchronous (places
//!   throw on even beats only). A place's *capacity* on a beat is the most props it can catch
//!   then: the multiplex `N` of `-m N` on beats it throws, 0 on the others.
//! - *height*: the highest throw searched (the maximum throw, or props × period).
//! - *state* ([`plan::Counts`]): per beat ahead and place, the props landing there; index
//!   `beat * places + place`, `height` beats. The *ground state* puts one prop on each of
//!   the lowest places the rhythm allows; it is `ground_beats` long.
//! - *start state*: the state before a pattern's first beat. Every way of placing the props
//!   is one, in order of (beat, place); a state where a place holds more props at beat
//!   `k + period` than at beat `k` cannot start a period-`period` pattern.
//! - *free places* (`free` in [`search`]): for the whole period, how many more props may land
//!   in each place at each time: the capacity within the period, and after it exactly what
//!   the start state has there, so that the period ends in the start state.
//! - *throw table* ([`table`]): per beat, place and multiplex *slot*, a value (0 = none) and
//!   a target place; the throws of one place are listed greatest first.
//! - *multiplexing filter* ([`squeeze`]): J2's rule against squeeze catches (props from two
//!   places, or of two values, landing together) and against filling a place promised to a
//!   start state's prop with a lower throw; on with `-m N` unless `-mf`.
//!
//! # Rules (learnt from J2's documentation and behaviour)
//! - on each beat every prop landing is thrown to some place and beat (a throw of value `v`
//!   to place `p`); the props of one multiplex are listed in decreasing order;
//! - states compare first by their largest count, then by the highest beat (and place) where
//!   they differ; the listing rules of the solo search (`-f`, `-prime`, `-rot`) apply on beats
//!   where every rhythm is in phase;
//! - without `-mf`, a hand may not catch props thrown from two different places or with two
//!   different values on one beat (a cluster `[33]` from one place is allowed, and holds, a 2
//!   from the same hand, do not count); `-mc` forbids clusters; `-mt` needs a multiplex that
//!   is not just a hold;
//! - passing: `-cp` keeps patterns where every juggler is connected to juggler 1 by passes,
//!   `-sym` those where every juggler does juggler 1's throws at some offset, and unless `-jp`
//!   a pattern is dropped when juggler `m + 1` scores higher than juggler `m` on J2's scoring
//!   of throws (which removes most, not all, relabellings of the same pattern); `-d D` keeps
//!   ground state patterns where during the first `D` beats every juggler but the leader
//!   (`-l`) makes the ground state pattern's throws.
//!
//! # Files
//! [`plan`] checks a query and lists start states; [`search`] is the depth-first search;
//! [`filters`] the tests of whole patterns; [`squeeze`] the multiplexing filter; [`table`] the
//! throws chosen; [`notation`] writes a beat in Juggling Lab's notation; [`sequences`] the
//! get-in and get-out throws.

pub(crate) mod bits;
pub(crate) mod filters;
pub(crate) mod notation;
pub(crate) mod plan;
pub(crate) mod search;
pub(crate) mod sequences;
pub(crate) mod squeeze;
pub(crate) mod table;

pub(crate) use plan::{plan, Plan};
use std::sync::Arc;

use crate::tools::query::Task;
pub(crate) use plan::Counts;
pub(crate) use search::Progress;

/// The search of one (period, start state): on bit sets where [`bits::applies`], else on
/// counts.
#[derive(Clone, Debug)]
pub(crate) enum PieceSearch {
    Bits(bits::BitSearch),
    Counts(search::Search),
}

impl PieceSearch {
    /// Sets up the search, or `None` when `start` cannot start a period-`period` pattern.
    pub(crate) fn new(plan: &Arc<Plan>, period: usize, start: &Counts) -> Option<PieceSearch> {
        let mut search = if bits::applies(plan) {
            PieceSearch::Bits(bits::BitSearch::new(plan, period, start)?)
        } else {
            PieceSearch::Counts(search::Search::new(plan, period, start)?)
        };
        search.set_need_text(true);
        Some(search)
    }

    /// Whether the pattern text is kept (listing, regular expressions).
    pub(crate) fn set_need_text(&mut self, need: bool) {
        match self {
            PieceSearch::Bits(s) => s.set_need_text(need),
            PieceSearch::Counts(s) => s.need_text = need,
        }
    }

    /// Runs at most `steps` steps; `emit` receives each pattern's text and returns `false`
    /// to stop.
    pub(crate) fn step(&mut self, steps: u64, emit: &mut dyn FnMut(&str) -> bool) -> Progress {
        match self {
            PieceSearch::Bits(s) => s.step(steps, emit),
            PieceSearch::Counts(s) => s.step(steps, emit),
        }
    }

    /// Runs to the end.
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))] // the threads' pieces, native only
    pub(crate) fn run(&mut self, emit: &mut dyn FnMut(&str) -> bool) -> Progress {
        loop {
            match self.step(u64::MAX, emit) {
                Progress::Paused => {}
                end => return end,
            }
        }
    }

    /// Cuts the search at the start of `beat` into pieces, `None` when the period is `beat`
    /// or less.
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))] // the threads' pieces, native only
    pub(crate) fn cut_at(self, beat: usize) -> Option<PieceSearch> {
        match self {
            PieceSearch::Bits(s) => s.cut_at(beat).map(PieceSearch::Bits),
            PieceSearch::Counts(s) => s.cut_at(beat).map(PieceSearch::Counts),
        }
    }

    /// The next piece of a search made by [`PieceSearch::cut_at`], `None` after the last.
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))] // the threads' pieces, native only
    pub(crate) fn next_piece(&mut self) -> Option<PieceSearch> {
        match self {
            PieceSearch::Bits(s) => s.next_piece().map(PieceSearch::Bits),
            PieceSearch::Counts(s) => s.next_piece().map(PieceSearch::Counts),
        }
    }
}

/// Counting runs on one thread when every period is shorter (measured: `gen 8 5 4 -j 2 -no`
/// spends more on handing out pieces than on searching).
#[cfg(not(target_arch = "wasm32"))]
const SHARED_PERIOD: usize = 6;

/// Searches are cut into pieces at the start of this beat (when longer), so that the
/// patterns of one start state are found on several cores.
const CUT_BEAT: usize = 2;

impl Plan {
    /// Whether the pattern text is needed while searching (regular expressions).
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))] // the threads' pieces, native only
    fn text_needed(&self) -> bool {
        !self.exclude.is_empty() || !self.include.is_empty()
    }

    /// The pieces of work in output order: every (period, start state), cut into the ways
    /// of throwing its first beats.
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))] // the threads' pieces, native only
    pub(crate) fn jobs(
        self: &Arc<Self>,
        need_text: bool,
    ) -> impl Iterator<Item = (Arc<Task<Counts>>, PieceSearch)> + Send + '_ {
        self.tasks().flat_map(move |(period, start)| {
            let search = PieceSearch::new(self, period, &start);
            let task = Arc::new(Task {
                period,
                ground_state: start[..] == *self.ground_state(),
                start,
            });
            let pieces: Box<dyn Iterator<Item = PieceSearch> + Send> = match search {
                None => Box::new(std::iter::empty()),
                Some(mut search) => {
                    search.set_need_text(need_text);
                    match search.clone().cut_at(CUT_BEAT) {
                        Some(mut cut) => Box::new(std::iter::from_fn(move || cut.next_piece())),
                        None => Box::new(std::iter::once(search)),
                    }
                }
            };
            pieces.map(move |piece| (task.clone(), piece))
        })
    }

    /// The get-in and get-out of a start state (empty when not asked for).
    pub(crate) fn sequences(&self, start: &Counts) -> (String, String) {
        if self.sequences {
            sequences::get_in_and_out(self, start)
        } else {
            (String::new(), String::new())
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl Plan {
    /// Counts the patterns (on all cores).
    pub(crate) fn count(self: &Arc<Self>) -> u64 {
        use rayon::prelude::*;
        let count = |(_, mut search): (_, PieceSearch)| {
            let mut found = 0;
            search.run(&mut |_: &str| {
                found += 1;
                true
            });
            found
        };
        let jobs = self.jobs(self.text_needed());
        if self.periods.iter().all(|&p| p < SHARED_PERIOD) {
            // Small searches: handing pieces to threads costs more than it saves.
            jobs.map(count).sum()
        } else {
            jobs.par_bridge().map(count).sum()
        }
    }

    /// Finds the patterns and hands them to `sink` in Juggling Lab's order, as they are
    /// found (on all cores). `sink` returns `false` to stop. Returns the number of patterns
    /// delivered.
    pub(crate) fn generate(
        self: &Arc<Self>,
        sink: &mut dyn FnMut(&crate::tools::Found) -> bool,
    ) -> u64 {
        crate::tools::stream::ordered(
            self.jobs(true),
            &|mut search: PieceSearch, emit| {
                search.run(emit);
            },
            &|start| self.sequences(start),
            sink,
        )
    }
}

#[cfg(test)]
mod tests;
