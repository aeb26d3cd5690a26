//! The page's generator and transition finder: a search that runs for a time slice per
//! [`ToolsJob::step`] (a few milliseconds of each frame), so the page lists results as they
//! come and keeps drawing. The generator's search is resumed where it stopped
//! ([`tools::Steps`], which owns its plan); transitions are found at once (they are few and
//! quick) and handed out a slice per step.

use crate::schedule;
use crate::tools::{self, GroundFilter, Query, Steps};

use super::actions::ToolsRequest;

/// Results listed at most.
pub const MAX_RESULTS: usize = 500;

/// Seconds of a frame a step searches at most.
pub const STEP_SECONDS: f64 = 0.006;

/// One pattern found.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct ToolsResult {
    /// The pattern to play (a siteswap).
    pub pattern: String,
    /// How it is shown: the pattern, or a transition's throws there and back.
    pub label: String,
}

/// A search in progress.
pub struct ToolsJob {
    results: Vec<ToolsResult>,
    done: bool,
    search: Search,
}

enum Search {
    /// The generator, searching on where it stopped.
    Generate(Box<Steps>),
    /// Results computed at once, handed out a few per step.
    Ready(std::vec::IntoIter<ToolsResult>),
}

/// Transitions handed to the page per step.
const PER_STEP: usize = 20;

impl ToolsJob {
    /// Starts `request`; `playing` is the pattern text playing (transitions start from it).
    pub fn new(request: &ToolsRequest, playing: &str) -> Result<ToolsJob, String> {
        let search = match request {
            ToolsRequest::Generate { .. } => Search::Generate(Box::new(generate(request)?)),
            ToolsRequest::Transitions { from, to } => {
                let from = from.as_deref().unwrap_or(playing).trim().to_string();
                Search::Ready(transitions(&from, to.trim())?.into_iter())
            }
        };
        Ok(ToolsJob {
            results: Vec::new(),
            done: false,
            search,
        })
    }

    /// Searches on for about `seconds` by the clock `now` (seconds); `true` when new results
    /// came. Stops for good at [`MAX_RESULTS`] results or when the search is over.
    pub fn step(&mut self, now: &mut dyn FnMut() -> f64, seconds: f64) -> bool {
        if self.done {
            return false;
        }
        let before = self.results.len();
        let room = MAX_RESULTS - before;
        match &mut self.search {
            Search::Generate(steps) => {
                let mut found = Vec::new();
                steps.run_for(room, seconds, now, &mut found);
                self.results.extend(found.into_iter().map(result));
                self.done = steps.is_done();
            }
            Search::Ready(rest) => {
                self.results.extend(rest.by_ref().take(PER_STEP.min(room)));
                self.done = rest.len() == 0;
            }
        }
        if self.results.len() >= MAX_RESULTS {
            self.done = true;
        }
        self.results.len() > before
    }

    /// Stops the search (the results so far stay).
    pub fn cancel(&mut self) {
        self.done = true;
    }

    pub fn results(&self) -> &[ToolsResult] {
        &self.results
    }

    pub fn done(&self) -> bool {
        self.done
    }
}

/// How the page lists a generated pattern.
fn result(f: tools::Pattern) -> ToolsResult {
    let label = if f.ground_state || f.get_in.is_empty() {
        f.pattern.clone()
    } else {
        format!(
            "{} (excited: in {}, out {})",
            f.pattern, f.get_in, f.get_out
        )
    };
    ToolsResult {
        pattern: f.pattern,
        label,
    }
}

/// The generator's search for a request, not started.
fn generate(request: &ToolsRequest) -> Result<Steps, String> {
    let generator = tools::generate(&query(request)?).map_err(|e| e.to_string())?;
    // The search in steps: no threads in the page.
    Ok(generator.steps())
}

/// The generator query of a request.
fn query(request: &ToolsRequest) -> Result<Query, String> {
    let ToolsRequest::Generate {
        props,
        max_throw,
        period,
        sync,
        jugglers,
        ground,
        include,
        exclude,
    } = request
    else {
        return Err("not a generator request".to_string());
    };
    let mut q = Query::new(*props, *max_throw, period.unwrap_or(1));
    q.period_max = *period;
    q.sync = *sync;
    q.jugglers = (*jugglers).max(1);
    q.ground = match ground.as_str() {
        "ground" => GroundFilter::GroundOnly,
        "excited" => GroundFilter::ExcitedOnly,
        _ => GroundFilter::Both,
    };
    q.include = include.clone();
    q.exclude = exclude.clone();
    Ok(q)
}

fn transitions(from: &str, to: &str) -> Result<Vec<ToolsResult>, String> {
    let schedule_of = |text: &str| {
        schedule::from_notation(text)
            .map_err(|e| format!("{}: invalid: {e}", crate::text::input_name(text)))
    };
    let (sa, sb) = (schedule_of(from)?, schedule_of(to)?);
    let found =
        tools::transitions((from, &sa), (to, &sb), MAX_RESULTS).map_err(|e| e.to_string())?;
    let shown = |s: &str| {
        if s.is_empty() {
            "(none needed)".to_string()
        } else {
            s.to_string()
        }
    };
    Ok(found
        .into_iter()
        .map(|t| ToolsResult {
            label: format!("{} → {} → back {}", t.from, shown(&t.there), shown(&t.back)),
            pattern: t.pattern,
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A clock that advances `tick` seconds each time it is read.
    fn ticking(tick: f64) -> impl FnMut() -> f64 {
        let mut t = 0.0;
        move || {
            t += tick;
            t
        }
    }

    fn run(job: &mut ToolsJob) -> Vec<String> {
        let mut clock = ticking(0.001);
        while !job.done() {
            job.step(&mut clock, STEP_SECONDS);
        }
        job.results().iter().map(|r| r.pattern.clone()).collect()
    }

    /// The page's search, run a time slice at a time, lists what the command line's search
    /// (on threads, all at once) lists, in its order, up to [`MAX_RESULTS`].
    #[test]
    fn steps_list_what_the_one_shot_search_lists() {
        let requests = [
            r#"{"tool":"generate","props":3,"max_throw":5,"period":3}"#,
            r#"{"tool":"generate","props":5,"max_throw":7,"period":5}"#,
            r#"{"tool":"generate","props":4,"max_throw":6,"period":4,"sync":true}"#,
            r#"{"tool":"generate","props":6,"max_throw":4,"period":3,"jugglers":2}"#,
            r#"{"tool":"generate","props":4,"max_throw":7,"period":5,"ground":"excited"}"#,
            r#"{"tool":"generate","props":5,"max_throw":8,"period":5,"exclude":["1"],"include":["8"]}"#,
            r#"{"tool":"generate","props":8,"max_throw":6,"period":6,"jugglers":2}"#,
        ];
        let mut steps_taken = Vec::new();
        for json in requests {
            let request: ToolsRequest = serde_json::from_str(json).unwrap();
            let generator = tools::generate(&query(&request).unwrap()).unwrap();
            let mut one_shot = Vec::new();
            generator.for_each(&mut |f| {
                one_shot.push(result(tools::Pattern {
                    pattern: f.pattern.to_string(),
                    period: f.period,
                    ground_state: f.ground_state,
                    get_in: f.get_in.to_string(),
                    get_out: f.get_out.to_string(),
                }));
                one_shot.len() < MAX_RESULTS
            });
            let mut job = ToolsJob::new(&request, "3").unwrap();
            let mut clock = ticking(0.001);
            let mut steps = 0;
            while !job.done() {
                job.step(&mut clock, STEP_SECONDS);
                steps += 1;
            }
            assert_eq!(job.results(), &one_shot[..], "{json}");
            steps_taken.push((one_shot.len(), steps));
        }
        // gen 3 5 3 has 4 patterns, found in one slice; gen 8 6 6 -j 2 is capped at
        // MAX_RESULTS, found over several slices.
        assert_eq!(steps_taken[0], (4, 1));
        assert_eq!(steps_taken[6].0, MAX_RESULTS);
        assert!(steps_taken.iter().all(|&(n, _)| n > 0), "{steps_taken:?}");
    }

    /// A long search lists its results progressively, a slice at a time, and can be stopped.
    #[test]
    fn a_long_search_lists_progressively_and_stops_when_cancelled() {
        // `gen 8 6 6 -j 2 -i '.*6p.*6p.*6p.*6p.*6p.*'`: 99,285 of the 13,787,981 patterns.
        let request: ToolsRequest = serde_json::from_str(
            r#"{"tool":"generate","props":8,"max_throw":6,"period":6,"jugglers":2,
                "include":[".*6p.*6p.*6p.*6p.*6p.*"]}"#,
        )
        .unwrap();
        let mut job = ToolsJob::new(&request, "3").unwrap();
        let mut clock = ticking(0.001);
        let mut counts = Vec::new();
        while counts.len() < 10_000 && job.results().len() < 100 {
            job.step(&mut clock, STEP_SECONDS);
            counts.push(job.results().len());
        }
        let mut distinct = counts.clone();
        distinct.dedup();
        // The first 100 take over 100 slices (124 at 4,000 steps per look of the clock), in
        // six arrivals or more: 0, 18, 24, 28, 32, 96, 114.
        assert!(
            counts.len() > 100 && counts.len() < 10_000,
            "{}",
            counts.len()
        );
        assert!(!job.done());
        assert!(distinct.len() >= 6, "{distinct:?}");
        assert!(counts.windows(2).all(|w| w[0] <= w[1]), "{counts:?}");
        job.cancel();
        let kept = job.results().len();
        assert!(!job.step(&mut clock, STEP_SECONDS));
        assert!(job.done());
        assert_eq!(job.results().len(), kept);
    }

    #[test]
    fn gen_3_5_3_lists_the_command_lines_patterns() {
        let request: ToolsRequest =
            serde_json::from_str(r#"{"tool":"generate","props":3,"max_throw":5,"period":3}"#)
                .unwrap();
        let mut job = ToolsJob::new(&request, "3").unwrap();
        // `juggler gen 3 5 3` prints 441, 522, 531 and the excited 450 (with its get-in 4
        // and get-out 2).
        assert_eq!(run(&mut job), ["441", "522", "531", "450"]);
        assert_eq!(job.results()[3].label, "450 (excited: in 4, out 2)");
    }

    #[test]
    fn transitions_start_from_the_pattern_playing() {
        let request: ToolsRequest =
            serde_json::from_str(r#"{"tool":"transitions","to":"51"}"#).unwrap();
        let mut job = ToolsJob::new(&request, "3").unwrap();
        let found = run(&mut job);
        assert!(!found.is_empty());
        assert!(
            job.results()[0].label.starts_with("3 → "),
            "{:?}",
            job.results()[0]
        );
        let bad: ToolsRequest =
            serde_json::from_str(r#"{"tool":"transitions","to":"532"}"#).unwrap();
        assert!(ToolsJob::new(&bad, "3").is_err());
    }
}
