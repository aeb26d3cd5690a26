//! The page's generator and transition finder: a search that runs a bounded piece of work per
//! [`ToolsJob::step`], so the page lists results as they come and never freezes.

use crate::schedule;
use crate::tools::{self, GroundFilter, Query};

use super::actions::ToolsRequest;

/// Results listed at most.
pub const MAX_RESULTS: usize = 500;

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
    /// Results computed at once, handed out a few per step.
    Ready(std::vec::IntoIter<ToolsResult>),
}

/// Results handed to the page per step.
const PER_STEP: usize = 20;

impl ToolsJob {
    /// Starts `request`; `playing` is the pattern text playing (transitions start from it).
    pub fn new(request: &ToolsRequest, playing: &str) -> Result<ToolsJob, String> {
        let found = match request {
            ToolsRequest::Generate { .. } => generate(request)?,
            ToolsRequest::Transitions { from, to } => {
                let from = from.as_deref().unwrap_or(playing).trim().to_string();
                transitions(&from, to.trim())?
            }
        };
        Ok(ToolsJob {
            results: Vec::new(),
            done: false,
            search: Search::Ready(found.into_iter()),
        })
    }

    /// Does a piece of the search; `true` when new results came.
    pub fn step(&mut self) -> bool {
        if self.done {
            return false;
        }
        let Search::Ready(rest) = &mut self.search;
        let before = self.results.len();
        for r in rest.by_ref().take(PER_STEP) {
            if self.results.len() < MAX_RESULTS {
                self.results.push(r);
            }
        }
        if self.results.len() == before || self.results.len() >= MAX_RESULTS {
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

fn generate(request: &ToolsRequest) -> Result<Vec<ToolsResult>, String> {
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
        return Ok(Vec::new());
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
    let generator = tools::generate(&q).map_err(|e| e.to_string())?;
    // The search in steps: no threads in the page.
    let mut steps = generator.steps();
    let mut out = Vec::new();
    while out.len() < MAX_RESULTS && !steps.is_done() {
        for f in steps.next_batch(MAX_RESULTS - out.len()) {
            let label = if f.ground_state || f.get_in.is_empty() {
                f.pattern.clone()
            } else {
                format!(
                    "{} (excited: in {}, out {})",
                    f.pattern, f.get_in, f.get_out
                )
            };
            out.push(ToolsResult {
                pattern: f.pattern,
                label,
            });
        }
    }
    Ok(out)
}

fn transitions(from: &str, to: &str) -> Result<Vec<ToolsResult>, String> {
    let schedule_of =
        |text: &str| schedule::from_notation(text).map_err(|e| format!("{text}: invalid: {e}"));
    let (sa, sb) = (schedule_of(from)?, schedule_of(to)?);
    let found =
        tools::transitions((from, &sa), (to, &sb), MAX_RESULTS).map_err(|e| e.to_string())?;
    let shown = |s: &str| {
        if s.is_empty() {
            "(none)".to_string()
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

    fn run(job: &mut ToolsJob) -> Vec<String> {
        while !job.done() {
            job.step();
        }
        job.results().iter().map(|r| r.pattern.clone()).collect()
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
