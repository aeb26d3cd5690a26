//! Siteswap tools on top of `notation` and `schedule`: the pattern generator
//! ([`generate`]), the transition finder ([`transitions`]), pattern analysis for `check`
//! (`analysis`) and ladder/causal diagrams as pure data and SVG text (`diagram`). Pure: no
//! I/O.
//!
//! Each front picks its search: solo asynchronous siteswaps without multiplexes use a bit set
//! as their state (`state`, `solo`, `trans`); synchronous, multiplex and passing patterns use
//! counts per throwing place and beat (`general`, `trans_general`).

pub mod analysis;
pub mod diagram;
mod general;
mod query;
mod solo;
pub(crate) mod state;
mod steps;
#[cfg(not(target_arch = "wasm32"))]
mod stream;
mod trans;
mod trans_general;

use std::sync::Arc;

use crate::schedule::Schedule;

pub use query::{
    Found, GenError, GroundFilter, Listing, Query, MAX_HEIGHT, MAX_JUGGLERS, MAX_MULTIPLEX,
    MAX_PERIOD,
};
pub use steps::{Pattern, Steps, STEPS_PER_BATCH};
pub use trans::{TextTransition, TransError};

/// A checked generator query, ready to run.
#[derive(Debug)]
pub struct Generator {
    search: Searcher,
}

#[derive(Clone, Debug)]
enum Searcher {
    /// Solo asynchronous without multiplexes: the bit-set search.
    Solo(Arc<solo::Plan>),
    /// Synchronous, multiplex or passing: J2's general search.
    General(Arc<general::Plan>),
}

/// Checks a query and picks its search.
pub fn generate(query: &Query) -> Result<Generator, GenError> {
    let search = if query.is_general() {
        Searcher::General(Arc::new(general::plan(query)?))
    } else {
        Searcher::Solo(Arc::new(solo::plan(query)?))
    };
    Ok(Generator { search })
}

impl Generator {
    /// The highest throw searched (the maximum throw, or props × period when unbounded).
    pub fn height(&self) -> u32 {
        match &self.search {
            Searcher::Solo(plan) => plan.height(),
            Searcher::General(plan) => plan.height as u32,
        }
    }

    /// Counts the patterns (on all cores).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn count(&self) -> u64 {
        match &self.search {
            Searcher::Solo(plan) => plan.count(),
            Searcher::General(plan) => plan.count(),
        }
    }

    /// Finds the patterns and hands them to `sink` in Juggling Lab's order; `sink` returns
    /// `false` to stop. Returns the number of patterns delivered.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn for_each(&self, sink: &mut dyn FnMut(&Found) -> bool) -> u64 {
        match &self.search {
            Searcher::Solo(plan) => plan.generate(sink),
            Searcher::General(plan) => plan.generate(sink),
        }
    }
}

/// Every shortest transition from pattern A to B (at most `limit`), each with the shortest
/// way back; A and B are given as text and their schedules. Solo asynchronous siteswaps are
/// searched on bit-set states, the others in the place model.
pub fn transitions(
    a: (&str, &Schedule),
    b: (&str, &Schedule),
    limit: usize,
) -> Result<Vec<TextTransition>, TransError> {
    let vanilla = |(text, sch): (&str, &Schedule)| -> Result<Option<Vec<u32>>, TransError> {
        trans_general::only_passes_and_crossings(text, sch)?;
        let Some(throws) = analysis::vanilla_throws(sch) else {
            return Ok(None);
        };
        if throws.iter().any(|&t| t > 35) {
            return Err(TransError::Unwritable(text.to_string()));
        }
        Ok(Some(throws))
    };
    match (vanilla(a)?, vanilla(b)?) {
        (Some(ta), Some(tb)) => {
            let (from, to) = (state::throws_text(&ta), state::throws_text(&tb));
            Ok(trans::transitions(&ta, &tb, limit)?
                .into_iter()
                .map(|t| TextTransition {
                    from: from.clone(),
                    to: to.clone(),
                    there: state::throws_text(&t.there),
                    back: state::throws_text(&t.back),
                    pattern: t.pattern_text(),
                    beats: t.there.len(),
                })
                .collect())
        }
        _ => trans_general::transitions(a, b, limit),
    }
}
