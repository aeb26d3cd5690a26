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
enum Stepping {
    Solo(solo::Stepper),
    General(Box<PieceSearch>),
}

/// Where a search's patterns start.
#[derive(Clone)]
enum Start {
    Solo(State),
    General(general::Counts),
}

/// The search under way: its start state's facts and the search.
struct Current {
    period: usize,
    ground_state: bool,
    start: Start,
    /// Get-in and get-out, worked out at the first pattern.
    sequences: Option<(String, String)>,
    stepping: Stepping,
}

/// The (period, start state) pairs still to search.
type Tasks = Box<dyn Iterator<Item = (usize, Start)> + Send>;

/// A generator search run in steps; see the module documentation. It owns its plan (shared
/// with the [`Generator`] it came from), so it can be kept between frames and dropped at any
/// time to cancel.
pub struct Steps {
    search: Searcher,
    tasks: Tasks,
    current: Option<Current>,
    done: bool,
}

impl Generator {
    /// The search in steps, for callers without threads (the web page): call
    /// [`Steps::next_batch`] or [`Steps::run_for`] until [`Steps::is_done`].
    pub fn steps(&self) -> Steps {
        let tasks: Tasks = match &self.search {
            Searcher::Solo(plan) => {
                Box::new(plan.tasks().map(|(l, s0)| (l as usize, Start::Solo(s0))))
            }
            Searcher::General(plan) => Box::new(
                plan.tasks()
                    .map(|(period, start)| (period, Start::General(start))),
            ),
        };
        Steps {
            search: self.search.clone(),
            tasks,
            current: None,
            done: false,
        }
    }
}

/// Search steps between two looks at the clock in [`Steps::run_for`] (well under a
/// millisecond).
const STEPS_PER_LOOK: u64 = 4_000;

impl Steps {
    /// Searches on for at most `n` more patterns and at most [`STEPS_PER_BATCH`] steps, and
    /// returns the patterns found (fewer than `n`, even none, when the steps ran out: call
    /// again until [`Steps::is_done`]).
    pub fn next_batch(&mut self, n: usize) -> Vec<Pattern> {
        let mut out = Vec::new();
        self.search_steps(n, STEPS_PER_BATCH, &mut out);
        out
    }

    /// Searches on for about `seconds` by the clock `now` (in seconds; looked at every few
    /// thousand steps) and at most `n` more patterns, appending those found to `out`.
    /// Returns the steps made.
    pub fn run_for(
        &mut self,
        n: usize,
        seconds: f64,
        now: &mut dyn FnMut() -> f64,
        out: &mut Vec<Pattern>,
    ) -> u64 {
        let start = now();
        let wanted = out.len() + n;
        let mut steps = 0;
        while out.len() < wanted && !self.done {
            steps += self.search_steps(wanted - out.len(), STEPS_PER_LOOK, out);
            if now() - start >= seconds {
                break;
            }
        }
        steps
    }

    /// Searches at most `steps` steps for at most `n` patterns, appending them to `out`;
    /// returns the steps made.
    fn search_steps(&mut self, n: usize, steps: u64, out: &mut Vec<Pattern>) -> u64 {
        let wanted = out.len() + n;
        let mut left = steps;
        while out.len() < wanted && left > 0 && !self.done {
            let Some(current) = &mut self.current else {
                // Starting a task counts as a step (most start states are refused at once).
                left -= 1;
                match self.tasks.next() {
                    Some((period, start)) => self.current = self.set_up(period, start),
                    None => self.done = true,
                }
                continue;
            };
            let chunk = left.min(10_000);
            left -= chunk;
            let mut texts: Vec<String> = Vec::new();
            let wanted = wanted - out.len();
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
                current.sequences = Some(match (&self.search, &current.start) {
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
        steps - left
    }

    /// The search of a (period, start state), `None` when the state cannot start a pattern.
    fn set_up(&self, period: usize, start: Start) -> Option<Current> {
        let (stepping, ground_state) = match (&self.search, &start) {
            (Searcher::Solo(plan), Start::Solo(s0)) => (
                Stepping::Solo(solo::Stepper::new(plan, period as u32, *s0)),
                *s0 == super::state::ground(plan.props),
            ),
            (Searcher::General(plan), Start::General(counts)) => (
                Stepping::General(Box::new(PieceSearch::new(plan, period, counts)?)),
                counts[..] == *plan.ground_state(),
            ),
            _ => return None,
        };
        Some(Current {
            period,
            ground_state,
            start,
            sequences: None,
            stepping,
        })
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

    /// [`Steps::run_for`] stops when its time is up (by the clock it is given, looked at
    /// every [`STEPS_PER_LOOK`] steps), resumes where it stopped, and lists what the threads
    /// list.
    #[test]
    fn time_slices_resume_and_list_what_the_threads_list() {
        let mut q = Query::new(8, Some(6), 6);
        q.jugglers = 2;
        let generator = generate(&q).unwrap();
        let wanted = 3000;
        let mut threads = Vec::new();
        generator.for_each(&mut |f| {
            threads.push(f.pattern.to_string());
            threads.len() < wanted
        });
        // A clock that advances a millisecond each time it is read.
        let mut t = 0.0;
        let mut clock = || {
            t += 0.001;
            t
        };
        let mut steps = generator.steps();
        let mut found = Vec::new();
        let mut slices = 0;
        while found.len() < wanted {
            let made = steps.run_for(wanted - found.len(), 0.006, &mut clock, &mut found);
            assert!(made > 0 && made <= 6 * STEPS_PER_LOOK, "{made}");
            slices += 1;
        }
        let found: Vec<String> = found.into_iter().map(|p| p.pattern).collect();
        assert_eq!(found, threads);
        assert!(slices >= 3, "{slices}");
        // The search goes on after the slices.
        assert!(!steps.is_done());
        assert_eq!(steps.next_batch(1).len(), 1);
    }
}
