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

pub(crate) mod filters;
pub(crate) mod notation;
pub(crate) mod plan;
pub(crate) mod search;
pub(crate) mod sequences;
pub(crate) mod squeeze;
pub(crate) mod table;

pub(crate) use plan::{plan, Plan};

#[cfg(not(target_arch = "wasm32"))]
impl Plan {
    /// Whether the pattern text is needed while searching (regular expressions).
    fn text_needed(&self) -> bool {
        !self.exclude.is_empty() || !self.include.is_empty()
    }

    /// Counts the patterns (start states searched in parallel).
    pub(crate) fn count(&self) -> u64 {
        use rayon::prelude::*;
        self.tasks()
            .into_par_iter()
            .map(
                |(period, start)| match search::Search::new(self, period, &start) {
                    Some(mut search) => {
                        search.need_text = self.text_needed();
                        let mut found = 0;
                        search.run(&mut |_: &str| {
                            found += 1;
                            true
                        });
                        found
                    }
                    None => 0,
                },
            )
            .sum()
    }

    /// Finds the patterns and hands them to `sink` in Juggling Lab's order (start states in
    /// chunks searched in parallel). `sink` returns `false` to stop. Returns the number of
    /// patterns delivered.
    pub(crate) fn generate(&self, sink: &mut dyn FnMut(&crate::tools::Found) -> bool) -> u64 {
        use rayon::prelude::*;
        struct Task {
            patterns: Vec<String>,
            period: usize,
            ground_state: bool,
            get_in: String,
            get_out: String,
        }
        let tasks = self.tasks();
        let mut delivered = 0;
        for chunk in tasks.chunks(32) {
            let results: Vec<Option<Task>> = chunk
                .par_iter()
                .map(|(period, start)| {
                    let mut search = search::Search::new(self, *period, start)?;
                    let mut patterns = Vec::new();
                    search.run(&mut |t: &str| {
                        patterns.push(t.to_string());
                        true
                    });
                    if patterns.is_empty() {
                        return None;
                    }
                    let (get_in, get_out) = if self.sequences {
                        sequences::get_in_and_out(self, start)
                    } else {
                        (String::new(), String::new())
                    };
                    Some(Task {
                        patterns,
                        period: *period,
                        ground_state: start[..] == *self.ground_state(),
                        get_in,
                        get_out,
                    })
                })
                .collect();
            for task in results.iter().flatten() {
                for pattern in &task.patterns {
                    delivered += 1;
                    let found = crate::tools::Found {
                        pattern,
                        period: task.period,
                        ground_state: task.ground_state,
                        get_in: &task.get_in,
                        get_out: &task.get_out,
                    };
                    if !sink(&found) {
                        return delivered;
                    }
                }
            }
        }
        delivered
    }
}

#[cfg(test)]
mod tests;
