//! `juggler check`: validity and facts of siteswaps, as a human summary or JSON.

use std::fmt::Write as _;

use juggler::notation::settings::{parse_input, SettingsError};
use juggler::notation::{self, Pattern};
use juggler::schedule::{self, PatternError, Schedule};
use juggler::tools::analysis::{analyse, vanilla_throws, Analysis};
use serde::Serialize;

use super::{print_out, CheckArgs, CliError, EXIT_INVALID};

/// Runs the command: exit 0 when every pattern is valid, 1 otherwise.
pub fn run(args: &CheckArgs) -> Result<u8, CliError> {
    let inputs: Vec<String> = match (&args.file, &args.pattern) {
        (Some(path), _) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| CliError::usage(format!("cannot read {}: {e}", path.display())))?;
            text.lines()
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
                .map(String::from)
                .collect()
        }
        (None, Some(pattern)) => vec![pattern.clone()],
        (None, None) => return Err(CliError::usage("give a PATTERN or --file F")),
    };
    let mut all_valid = true;
    let mut out = String::new();
    for (n, input) in inputs.iter().enumerate() {
        let outcome = check(input);
        all_valid &= outcome.is_ok();
        if args.json {
            out.push_str(&json_report(input, &outcome));
            out.push('\n');
        } else {
            if n > 0 {
                out.push('\n');
            }
            out.push_str(&human_report(input, &outcome));
        }
    }
    print_out(&out)?;
    Ok(if all_valid { 0 } else { EXIT_INVALID })
}

/// Why a line did not check out.
enum Failure {
    Settings(SettingsError),
    /// The pattern error and the notation text its spans index.
    Pattern(Box<PatternError>, String),
}

impl Failure {
    fn kind(&self) -> &'static str {
        match self {
            Failure::Settings(_) => "syntax",
            Failure::Pattern(e, _) => e.kind(),
        }
    }
    fn message(&self) -> String {
        match self {
            Failure::Settings(e) => e.to_string(),
            Failure::Pattern(e, _) => e.to_string(),
        }
    }
}

fn check(input: &str) -> Result<(Pattern, Schedule), Failure> {
    let spec = parse_input(input).map_err(Failure::Settings)?;
    let pattern = notation::parse(&spec.notation)
        .map_err(|e| Failure::Pattern(Box::new(e.into()), spec.notation.clone()))?;
    let schedule = schedule::build(&pattern)
        .map_err(|e| Failure::Pattern(Box::new(e.into()), pattern.text.clone()))?;
    Ok((pattern, schedule))
}

fn human_report(input: &str, outcome: &Result<(Pattern, Schedule), Failure>) -> String {
    let mut s = String::new();
    match outcome {
        Ok((pattern, sch)) => {
            let _ = writeln!(s, "{input}: valid");
            let _ = writeln!(
                s,
                "  props {}, period {}, jugglers {}, {}, {}, max throw {}",
                sch.props,
                sch.pattern_period,
                sch.jugglers,
                if sch.sync { "sync" } else { "async" },
                if sch.ground_state {
                    "ground state"
                } else {
                    "excited state"
                },
                sch.max_throw
            );
            let _ = writeln!(s, "  orbits:");
            for orbit in &sch.written_orbits() {
                let throws: Vec<&str> = orbit
                    .throws
                    .iter()
                    .map(|&i| {
                        let (a, b) = sch.throws[i].span;
                        pattern.text.get(a..b).unwrap_or("?")
                    })
                    .collect();
                let plural = if orbit.props == 1 { "" } else { "s" };
                let _ = writeln!(s, "    {} prop{plural}: {}", orbit.props, throws.join(" "));
            }
            let _ = writeln!(s, "  state (props landing on the next beats):");
            for l in &sch.state {
                let counts: String = l
                    .counts
                    .iter()
                    .map(|c| char::from_digit(*c, 36).unwrap_or('+'))
                    .collect();
                let _ = writeln!(
                    s,
                    "    juggler {} {:5} {}",
                    l.juggler + 1,
                    l.hand.name(),
                    counts
                );
            }
            s.push_str(&analysis_text(sch));
        }
        Err(failure) => {
            let _ = writeln!(s, "{input}: invalid");
            let _ = writeln!(s, "  {}", failure.message());
            match failure {
                Failure::Pattern(e, text) => match &**e {
                    PatternError::Syntax(e) => {
                        for line in e.caret().lines() {
                            let _ = writeln!(s, "  {line}");
                        }
                    }
                    PatternError::Invalid(e) => {
                        if let Some(span) = e.span() {
                            // Carets under the throw at fault.
                            let before = text.get(..span.start).map_or(0, |t| t.chars().count());
                            let width = text
                                .get(span.start..span.end)
                                .map_or(1, |t| t.chars().count().max(1));
                            let _ = writeln!(
                                s,
                                "  {text}\n  {}{}",
                                " ".repeat(before),
                                "^".repeat(width)
                            );
                        }
                    }
                },
                Failure::Settings(_) => {}
            }
        }
    }
    s
}

#[derive(Serialize)]
struct ValidJson<'a> {
    valid: bool,
    pattern: &'a str,
    props: usize,
    period: u32,
    jugglers: usize,
    sync: bool,
    ground_state: bool,
    max_throw: u32,
    orbits: Vec<OrbitJson<'a>>,
    state: Vec<StateJson<'a>>,
    /// Prime/composite, visited states, get-in/get-out (solo asynchronous patterns; null
    /// otherwise).
    analysis: Option<Analysis>,
}

#[derive(Serialize)]
struct OrbitJson<'a> {
    props: usize,
    throws: Vec<ThrowJson<'a>>,
}

#[derive(Serialize)]
struct ThrowJson<'a> {
    beat: u32,
    juggler: usize,
    hand: &'static str,
    value: u32,
    text: &'a str,
}

#[derive(Serialize)]
struct StateJson<'a> {
    juggler: usize,
    hand: &'static str,
    landings: &'a [u32],
}

#[derive(Serialize)]
struct InvalidJson<'a> {
    valid: bool,
    pattern: &'a str,
    error: ErrorJson,
}

#[derive(Serialize)]
struct ErrorJson {
    kind: &'static str,
    message: String,
    column: Option<usize>,
    beat: Option<u64>,
}

fn json_report(input: &str, outcome: &Result<(Pattern, Schedule), Failure>) -> String {
    let result = match outcome {
        Ok((pattern, sch)) => serde_json::to_string(&ValidJson {
            valid: true,
            pattern: input,
            props: sch.props,
            period: sch.pattern_period,
            jugglers: sch.jugglers,
            sync: sch.sync,
            ground_state: sch.ground_state,
            max_throw: sch.max_throw,
            orbits: sch
                .written_orbits()
                .iter()
                .map(|o| OrbitJson {
                    props: o.props,
                    throws: o
                        .throws
                        .iter()
                        .map(|&i| {
                            let t = &sch.throws[i];
                            ThrowJson {
                                beat: t.beat,
                                juggler: t.from.juggler,
                                hand: t.from.hand.name(),
                                value: t.value,
                                text: pattern.text.get(t.span.0..t.span.1).unwrap_or(""),
                            }
                        })
                        .collect(),
                })
                .collect(),
            state: sch
                .state
                .iter()
                .map(|l| StateJson {
                    juggler: l.juggler,
                    hand: l.hand.name(),
                    landings: &l.counts,
                })
                .collect(),
            analysis: vanilla_throws(sch).and_then(|t| analyse(&t)),
        }),
        Err(failure) => {
            let (column, beat) = match failure {
                Failure::Pattern(e, _) => (e.column(), e.beat()),
                Failure::Settings(_) => (None, None),
            };
            serde_json::to_string(&InvalidJson {
                valid: false,
                pattern: input,
                error: ErrorJson {
                    kind: failure.kind(),
                    message: failure.message(),
                    column,
                    beat,
                },
            })
        }
    };
    result.unwrap_or_else(|e| {
        format!("{{\"valid\":false,\"error\":{{\"kind\":\"internal\",\"message\":\"{e}\"}}}}")
    })
}

/// The siteswap analysis lines of the human report: prime or composite, the states visited
/// and the way in and out of the ground state.
fn analysis_text(sch: &Schedule) -> String {
    let Some(a) = vanilla_throws(sch).and_then(|t| analyse(&t)) else {
        return "  analysis (prime, states, get-in/out): solo asynchronous patterns only\n".into();
    };
    let mut s = String::new();
    if a.prime {
        let _ = writeln!(s, "  prime: no state is visited twice");
    } else {
        let _ = writeln!(
            s,
            "  composite: made of the prime cycles {}",
            a.decomposition.join(" + ")
        );
    }
    let _ = writeln!(s, "  states visited (x = a prop lands that many beats on):");
    let _ = writeln!(s, "    {}", a.states.join("  "));
    if a.ground_state {
        let _ = writeln!(s, "  starts in the ground state: no get-in/get-out needed");
    } else {
        let _ = writeln!(
            s,
            "  excited state: get in from the ground state with {}, get out with {}",
            a.get_in, a.get_out
        );
    }
    s
}
