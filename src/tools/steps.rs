//! The generator in steps, without threads: [`Steps::next_batch`] searches a bounded amount
//! and returns the patterns found so far, so that the web page can list patterns between
//! frames. It lists the same patterns in the same order as [`super::Generator::for_each`].

use super::general::{self, PieceSearch, Progress};
use super::solo;
use super::state::{throw_char, State};
use super::{Generator, Searcher};

/// Search steps one [`Steps::next_batch`] makes at most (a few milliseconds).
pub const STEPS_PER_BATCH: u64 = 200_000;

/// One generated pattern, owned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    /// In Juggling Lab's notation.
    pub pattern: String,
    /// The period in beats (a synchronous pair is two beats).
    pub period: usize,
    pub ground_state: bool,
    /// Throws from the ground state into the pattern's state (empty for ground patterns, and
    /// when sequences were not asked for).
    pub get_in: String,
    /// Throws from the pattern's state back to the ground state.
    pub get_out: String,
}

/// The search of one (period, start state) of either search.
enum Stepping<'a> {
    Solo(solo::Stepper<'a>),
    General(PieceSearch<'a>),
}

/// Where a search's patterns start.
#[derive(Clone)]
enum Start {
    Solo(State),
    General(general::Counts),
}

/// The search under way: its start state's facts and the search.
struct Current<'a> {
    period: usize,
    ground_state: bool,
    start: Start,
    /// Get-in and get-out, worked out at the first pattern.
    sequences: Option<(String, String)>,
    stepping: Stepping<'a>,
}

type Tasks<'a> = Box<dyn Iterator<Item = Current<'a>> + 'a>;

/// A generator search run in steps; see the module documentation.
pub struct Steps<'a> {
    generator: &'a Generator,
    tasks: Tasks<'a>,
    current: Option<Current<'a>>,
    done: bool,
}

impl Generator {
    /// The search in steps, for callers without threads (the web page): call
    /// [`Steps::next_batch`] until [`Steps::is_done`].
    pub fn steps(&self) -> Steps<'_> {
        let tasks: Tasks<'_> = match &self.search {
            Searcher::Solo(plan) => {
                let ground = super::state::ground(plan.props);
                Box::new(plan.tasks().map(move |(l, s0)| Current {
                    period: l as usize,
                    ground_state: s0 == ground,
                    start: Start::Solo(s0),
                    sequences: None,
                    stepping: Stepping::Solo(solo::Stepper::new(plan, l, s0)),
                }))
            }
            Searcher::General(plan) => Box::new(plan.tasks().filter_map(move |(period, start)| {
                let stepping = PieceSearch::new(plan, period, &start)?;
                Some(Current {
                    period,
                    ground_state: start[..] == *plan.ground_state(),
                    start: Start::General(start),
                    sequences: None,
                    stepping: Stepping::General(stepping),
                })
            })),
        };
        Steps {
            generator: self,
            tasks,
            current: None,
            done: false,
        }
    }
}

impl Steps<'_> {
    /// Searches on for at most `n` more patterns and at most [`STEPS_PER_BATCH`] steps, and
    /// returns the patterns found (fewer than `n`, even none, when the steps ran out: call
    /// again until [`Steps::is_done`]).
    pub fn next_batch(&mut self, n: usize) -> Vec<Pattern> {
        let mut out = Vec::new();
        let mut steps = STEPS_PER_BATCH;
        while out.len() < n && steps > 0 && !self.done {
            let Some(current) = &mut self.current else {
                self.current = self.tasks.next();
                self.done = self.current.is_none();
                continue;
            };
            let chunk = steps.min(10_000);
            steps -= chunk;
            let mut texts: Vec<String> = Vec::new();
            let wanted = n - out.len();
            let progress = match &mut current.stepping {
                Stepping::Solo(stepper) => stepper.step(chunk, &mut |throws| {
                    texts.push(throws.iter().map(|&t| throw_char(t)).collect());
                    texts.len() < wanted
                }),
                Stepping::General(search) => search.step(chunk, &mut |text| {
                    texts.push(text.to_string());
                    texts.len() < wanted
                }),
            };
            if !texts.is_empty() && current.sequences.is_none() {
                current.sequences = Some(match (&self.generator.search, &current.start) {
                    (Searcher::Solo(plan), Start::Solo(s0)) => plan.sequences(*s0),
                    (Searcher::General(plan), Start::General(start)) => plan.sequences(start),
                    _ => Default::default(),
                });
            }
            let (get_in, get_out) = current.sequences.clone().unwrap_or_default();
            out.extend(texts.into_iter().map(|pattern| Pattern {
                pattern,
                period: current.period,
                ground_state: current.ground_state,
                get_in: get_in.clone(),
                get_out: get_out.clone(),
            }));
            if progress == Progress::Done {
                self.current = None;
            }
        }
        out
    }

    /// Every pattern has been returned.
    pub fn is_done(&self) -> bool {
        self.done
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::{generate, GroundFilter, Listing, Query};

    #[test]
    fn steps_list_what_the_threads_list_in_the_same_order() {
        let mut queries = Vec::new();
        for (b, h, l) in [(3, 5, 5), (4, 7, 5), (5, 7, 1)] {
            for listing in [Listing::Default, Listing::Full, Listing::Prime] {
                let mut q = Query::new(b, Some(h), l);
                q.listing = listing;
                queries.push(q);
            }
        }
        let mut q = Query::new(4, Some(6), 4);
        q.sync = true;
        queries.push(q);
        let mut q = Query::new(3, Some(4), 3);
        q.multiplex = 2;
        queries.push(q);
        let mut q = Query::new(6, Some(4), 3);
        q.jugglers = 2;
        queries.push(q);
        let mut q = Query::new(6, Some(4), 2);
        q.jugglers = 2;
        q.permutations = true;
        q.ground = GroundFilter::ExcitedOnly;
        queries.push(q);
        let mut total = 0;
        for q in queries {
            let generator = generate(&q).unwrap();
            let mut threads = Vec::new();
            generator.for_each(&mut |f| {
                threads.push(Pattern {
                    pattern: f.pattern.to_string(),
                    period: f.period,
                    ground_state: f.ground_state,
                    get_in: f.get_in.to_string(),
                    get_out: f.get_out.to_string(),
                });
                true
            });
            let mut steps = generator.steps();
            let mut stepped = Vec::new();
            let mut calls = 0;
            while !steps.is_done() {
                stepped.extend(steps.next_batch(3));
                calls += 1;
            }
            assert_eq!(stepped, threads, "{q:?}");
            assert!(calls > threads.len() / 3, "{q:?}");
            total += threads.len();
        }
        assert!(total > 500, "{total}");
    }
}
