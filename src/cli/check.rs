//! `juggler check`: validity and facts of siteswaps, as a human summary or JSON.

use std::fmt::Write as _;

use juggler::budget::BudgetError;
use juggler::notation::{self, Pattern};
use juggler::schedule::{self, PatternError, Schedule};
use juggler::settings::{self, SettingsError};
use juggler::spec::{EventFormat, EventSource, PatternSource, PatternSpec};
use juggler::tools::analysis::{analyse, vanilla_throws, Analysis};
use serde::Serialize;

use super::{print_err, print_out, write_out, CheckArgs, CliError, EXIT_INVALID};
use juggler::files::argument::{self, Argument, ArgumentError, Source};
use juggler::files::text_list::TextEntries;
use juggler::text::{escape_control, escape_control_lines};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::sync::Arc;

/// Runs the command: exit 0 when every pattern is valid, 1 otherwise.
pub fn run(args: &CheckArgs) -> Result<u8, CliError> {
    let jugglers = match &args.jugglers {
        Some(n) => Some(
            settings::keys::JUGGLERS
                .parse("--jugglers", n)
                .map_err(|e| CliError::usage(e.to_string()))? as usize,
        ),
        None => None,
    };
    let json = Reporting {
        json: args.json,
        jugglers,
    };
    match (&args.file, &args.pattern) {
        (Some(path), _) => check_file(path, json),
        (None, Some(pattern)) => check_argument(pattern, json),
        (None, None) => Err(CliError::usage("give a PATTERN or --file F")),
    }
}

/// How to report: as JSON, and the `--jugglers` that wins over every pattern's own.
#[derive(Clone, Copy)]
struct Reporting {
    json: bool,
    jugglers: Option<usize>,
}

/// `check PATTERN`, read by the one reading rule: a siteswap or settings string is checked as
/// written; a library name checks its pattern's siteswap; a file checks each of its patterns.
fn check_argument(arg: &str, reporting: Reporting) -> Result<u8, CliError> {
    let json = reporting.json;
    let inputs = match argument::read(arg) {
        Ok(Argument::Pattern {
            source: Source::Library,
            spec,
        }) => vec![Input::from(*spec)],
        Ok(Argument::File(path)) if path.to_ascii_lowercase().ends_with(".txt") => {
            return check_file(Path::new(&path), reporting)
        }
        Ok(Argument::File(_)) => super::input::load_specs(arg)?
            .into_iter()
            .map(Input::from)
            .collect(),
        Err(e @ ArgumentError::UnknownName { .. }) if json => {
            let value = serde_json::json!({
                "valid": false,
                "pattern": arg,
                "error": {"kind": "name", "message": e.to_string(), "column": null, "beat": null},
            });
            print_out(&format!("{}\n", juggler::text::json(&value, false)))?;
            return Ok(EXIT_INVALID);
        }
        Err(e @ ArgumentError::UnknownName { .. }) => return Err(CliError::invalid(e.to_string())),
        // Siteswaps and settings strings (including their errors) are reported as written.
        Ok(Argument::Pattern { .. }) | Err(_) => vec![Input::text(arg)],
    };
    let mut out = Output::default();
    let mut all_valid = true;
    for input in &inputs {
        all_valid &= report(input, reporting, &mut out)?;
        if out.closed {
            break;
        }
    }
    out.flush()?;
    Ok(if all_valid { 0 } else { EXIT_INVALID })
}

/// Standard output for reports printed one at a time, written in blocks of at most
/// [`Output::BLOCK`] bytes (memory stays bounded; one write per block, not per line).
#[derive(Default)]
struct Output {
    /// Reports printed so far (human reports are separated by a blank line).
    count: usize,
    /// The reader went away: nothing more to print.
    closed: bool,
    pending: String,
}

impl Output {
    const BLOCK: usize = 64 * 1024;

    fn emit(&mut self, text: &str) -> Result<(), CliError> {
        self.pending.push_str(text);
        if self.pending.len() >= Self::BLOCK {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<(), CliError> {
        if !self.closed && !self.pending.is_empty() {
            self.closed = !write_out(&self.pending)?;
        }
        self.pending.clear();
        Ok(())
    }
}

/// What `check` reports on: a siteswap or settings string as written (with the `jugglers=N`
/// of the file it came from), or a pattern given by its events (read, and so checked, where
/// its file was read).
enum Input {
    Text {
        text: String,
        shared_by: Option<usize>,
    },
    Events(Arc<EventSource>),
}

impl Input {
    fn text(text: &str) -> Input {
        Input::Text {
            text: text.to_string(),
            shared_by: None,
        }
    }
}

impl From<PatternSpec> for Input {
    fn from(spec: PatternSpec) -> Input {
        match spec.source {
            PatternSource::Siteswap(text) => Input::Text {
                text,
                shared_by: spec.settings.shared_by,
            },
            PatternSource::Events(events) => Input::Events(events),
        }
    }
}

/// The report of a pattern given by events (Juggling Lab's JML or a JIF file): its title,
/// props, jugglers and loop.
fn events_report(source: &EventSource, json: bool) -> String {
    let events = &source.pattern;
    let (unnamed, defined_by) = match source.format {
        EventFormat::Jml => ("(JML events)", "Juggling Lab events"),
        EventFormat::Jif => ("(JIF throws)", "JIF throws"),
    };
    let name = events.title().unwrap_or(unnamed);
    if json {
        format!(
            "{}\n",
            serde_json::json!({
                "valid": true, "pattern": name, "events": true, "props": events.props(),
                "jugglers": events.jugglers(), "loop_seconds": events.loop_seconds(),
            })
        )
    } else {
        format!(
            "{name}: valid\n  defined by {defined_by}: props {}, jugglers {}, loop {:.4} s\n",
            events.props(),
            events.jugglers(),
            events.loop_seconds()
        )
    }
}

/// Checks one pattern and prints its report; whether it is valid.
fn report(input: &Input, reporting: Reporting, out: &mut Output) -> Result<bool, CliError> {
    let json = reporting.json;
    let (input, shared_by) = match input {
        Input::Text { text, shared_by } => (text, reporting.jugglers.or(*shared_by)),
        Input::Events(events) => {
            let mut text = events_report(events, json);
            if !json {
                text = escape_control_lines(&text).into_owned();
                if out.count > 0 {
                    text.insert(0, '\n');
                }
            }
            out.count += 1;
            out.emit(&text)?;
            return Ok(true);
        }
    };
    let outcome = check(input, shared_by);
    let mut text = String::new();
    if json {
        text.push_str(&json_report(input, &outcome));
        text.push('\n');
    } else {
        if out.count > 0 {
            text.push('\n');
        }
        text.push_str(&escape_control_lines(&human_report(input, &outcome)));
    }
    out.count += 1;
    out.emit(&text)?;
    Ok(outcome.is_ok())
}

/// `check --file`: every line of a text list (the shared `.txt` reader: comments, BOM, any
/// line ending), read and reported one at a time, so memory does not grow with the file.
fn check_file(path: &Path, reporting: Reporting) -> Result<u8, CliError> {
    let json = reporting.json;
    let shown = escape_control(&path.display().to_string()).into_owned();
    let reader: Box<dyn BufRead> = if path.as_os_str() == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        if path.is_dir() {
            return Err(CliError::usage(format!(
                "cannot read {shown}: it is a directory"
            )));
        }
        // A named pipe or device (`/dev/zero`) is refused before reading: it could block
        // forever or never end.
        let file = juggler::files::open_regular(path).map_err(|e| match e {
            juggler::files::FileError::Io { source, .. } => {
                CliError::usage(format!("cannot read {shown}: {source}"))
            }
            _ => CliError::usage(format!(
                "cannot read {shown}: not a regular file (a pipe or device); give - to read standard input"
            )),
        })?;
        Box::new(BufReader::new(file))
    };
    let mut out = Output::default();
    let mut all_valid = true;
    for entry in TextEntries::new(reader) {
        if out.closed {
            break;
        }
        match entry {
            Ok(entry) => all_valid &= report(&Input::text(&entry.text), reporting, &mut out)?,
            Err(e) => {
                let fatal = e.is_fatal();
                let error = e.into_file_error(&shown);
                all_valid = false;
                if json {
                    let value = serde_json::json!({
                        "valid": false,
                        "pattern": null,
                        "error": {"kind": "file", "message": error.to_string(), "column": null, "beat": null},
                    });
                    out.emit(&format!("{}\n", juggler::text::json(&value, false)))?;
                } else {
                    // In order with the reports before it.
                    out.flush()?;
                    print_err(&format!("juggler: {error}\n"));
                }
                if fatal {
                    break;
                }
            }
        }
    }
    out.flush()?;
    Ok(if all_valid { 0 } else { EXIT_INVALID })
}

/// Why a line did not check out.
enum Failure {
    Settings(SettingsError),
    /// A valid pattern whose `hands` or `body` cycles would animate past the budget.
    Budget(BudgetError),
    /// The pattern error and the notation text its spans index.
    Pattern(Box<PatternError>, String),
}

impl Failure {
    fn kind(&self) -> &'static str {
        match self {
            Failure::Settings(_) => "syntax",
            Failure::Budget(_) => "invalid",
            Failure::Pattern(e, _) => e.kind(),
        }
    }
    fn message(&self) -> String {
        match self {
            Failure::Settings(e) => e.to_string(),
            Failure::Budget(e) => e.to_string(),
            Failure::Pattern(e, _) => e.to_string(),
        }
    }
}

/// Checks `input` (a siteswap or settings string); `shared_by`, when given, wins over the
/// settings string's own `jugglers=`.
fn check(input: &str, shared_by: Option<usize>) -> Result<(Pattern, Schedule), Failure> {
    let spec = settings::read(input).map_err(Failure::Settings)?;
    let shared_by = shared_by.or(spec.settings.shared_by);
    let pattern = notation::parse_shared(&spec.pattern, shared_by)
        .map_err(|e| Failure::Pattern(Box::new(e.into()), spec.pattern.clone()))?;
    let schedule = schedule::build(&pattern)
        .map_err(|e| Failure::Pattern(Box::new(e.into()), pattern.text.clone()))?;
    // Valid only when it animates within the budget, as every other command needs.
    spec.settings
        .check_cycle(&schedule)
        .map_err(Failure::Budget)?;
    Ok((pattern, schedule))
}

/// Prechac notation: each juggler's delay and own view of one period (time, hand, value,
/// pass target straight or crossed, and for two jugglers the passers' name).
fn local_views(pattern: &Pattern) -> String {
    let e = &pattern.expanded;
    let mut s = String::new();
    let delays: Vec<String> = e
        .delays
        .iter()
        .enumerate()
        .map(|(j, d)| format!("{} {d}", notation::juggler_letter(j)))
        .collect();
    let _ = writeln!(s, "  delays (beats): {}", delays.join(", "));
    let _ = writeln!(s, "  each juggler's throws (time hand value):");
    for (j, throws) in notation::local_view(e).iter().enumerate() {
        let items: Vec<String> = throws
            .iter()
            .map(|t| {
                let side = if t.hand == juggler::types::Hand::Right {
                    "R"
                } else {
                    "L"
                };
                let what = match t.to {
                    Some(to) => format!(
                        "{}p{} {}",
                        t.value,
                        notation::juggler_letter(to),
                        if t.same_side { "crossed" } else { "straight" }
                    ),
                    None => t.value.to_string(),
                };
                let name = t.name.map(|n| format!(" ({n})")).unwrap_or_default();
                format!("{} {side} {what}{name}", t.time)
            })
            .collect();
        let _ = writeln!(
            s,
            "    {}: {}",
            notation::juggler_letter(j),
            items.join(", ")
        );
    }
    s
}

fn human_report(input: &str, outcome: &Result<(Pattern, Schedule), Failure>) -> String {
    let mut s = String::new();
    match outcome {
        Ok((pattern, sch)) => {
            let _ = writeln!(s, "{input}: valid");
            // Prechac notation counts in each juggler's beats (the schedule's are fine beats).
            let sub = u64::from(sch.subdivision.max(1));
            let beats = |n: u32| notation::Ratio::new(u64::from(n), sub).map(|r| r.to_string());
            let _ = writeln!(
                s,
                "  props {}, period {}, jugglers {}, {}, {}, max throw {}",
                sch.props,
                beats(sch.pattern_period).unwrap_or_default(),
                sch.jugglers,
                if sch.sync { "sync" } else { "async" },
                if sch.ground_state {
                    "ground state"
                } else {
                    "excited state"
                },
                beats(sch.max_throw).unwrap_or_default()
            );
            if pattern.expanded.prechac {
                s.push_str(&local_views(pattern));
            }
            let _ = writeln!(s, "  orbits:");
            for orbit in &sch.written_orbits() {
                let throws: Vec<String> = orbit
                    .throws
                    .iter()
                    .map(|&i| {
                        let t = &sch.throws[i];
                        if pattern.expanded.prechac {
                            // Each juggler's own value, as the throws above name it.
                            let pass = if t.to.juggler == t.from.juggler {
                                String::new()
                            } else {
                                format!("p{}", notation::juggler_letter(t.to.juggler))
                            };
                            format!(
                                "{} {}{pass}",
                                notation::juggler_letter(t.from.juggler),
                                beats(t.value).unwrap_or_default()
                            )
                        } else {
                            let (a, b) = t.span;
                            pattern.text.get(a..b).unwrap_or("?").to_string()
                        }
                    })
                    .collect();
                let plural = if orbit.props == 1 { "" } else { "s" };
                let sep = if pattern.expanded.prechac { ", " } else { " " };
                let _ = writeln!(s, "    {} prop{plural}: {}", orbit.props, throws.join(sep));
            }
            if sub > 1 {
                let _ = writeln!(
                    s,
                    "  state (props landing on the next fine beats, {sub} to a beat):"
                );
            } else {
                let _ = writeln!(s, "  state (props landing on the next beats):");
            }
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
            let _ = writeln!(s, "{}: invalid", juggler::text::input_name(input));
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
                Failure::Settings(_) | Failure::Budget(_) => {}
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
    /// Each juggler's beats (a number with a fraction when fine beats make it one).
    period: serde_json::Value,
    jugglers: usize,
    sync: bool,
    ground_state: bool,
    max_throw: serde_json::Value,
    /// Fine beats per beat of a juggler (Prechac notation, shared siteswaps): the unit of
    /// `fine_beat`, `fine_value` and the state's `landings`. Left out when 1.
    #[serde(skip_serializing_if = "is_one")]
    fine_beats_per_beat: u32,
    /// Each juggler's delay in its beats (Prechac notation, shared siteswaps).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    delays: Vec<serde_json::Value>,
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
    /// When, in the jugglers' beats (juggler B of `<3.5p|3.5px>` throws at 0.5).
    beat: serde_json::Value,
    juggler: usize,
    hand: &'static str,
    /// In the jugglers' beats (`3.5`).
    value: serde_json::Value,
    /// `beat` and `value` in fine beats (with `fine_beats_per_beat` above 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    fine_beat: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    fine_value: Option<u32>,
    text: &'a str,
}

fn is_one(n: &u32) -> bool {
    *n == 1
}

/// `fine` fine beats, `sub` to a beat, as a JSON number of beats: whole beats as integers.
fn beats_json(fine: u64, sub: u32) -> serde_json::Value {
    let sub = u64::from(sub.max(1));
    if fine.is_multiple_of(sub) {
        (fine / sub).into()
    } else {
        (fine as f64 / sub as f64).into()
    }
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
    /// Prechac notation and shared siteswaps: when the props collide, in the jugglers'
    /// beats (`4`, `3.5`).
    #[serde(skip_serializing_if = "Option::is_none")]
    time: Option<serde_json::Value>,
}

fn json_report(input: &str, outcome: &Result<(Pattern, Schedule), Failure>) -> String {
    match outcome {
        Ok((pattern, sch)) => json_string(&ValidJson {
            valid: true,
            pattern: input,
            props: sch.props,
            period: beats_json(sch.pattern_period.into(), sch.subdivision),
            jugglers: sch.jugglers,
            sync: sch.sync,
            ground_state: sch.ground_state,
            max_throw: beats_json(sch.max_throw.into(), sch.subdivision),
            fine_beats_per_beat: sch.subdivision.max(1),
            delays: sch
                .delays
                .iter()
                .map(|d| {
                    if d.is_whole() {
                        d.num().into()
                    } else {
                        d.to_f64().into()
                    }
                })
                .collect(),
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
                            let fine = (sch.subdivision > 1).then_some(());
                            ThrowJson {
                                beat: beats_json(t.beat.into(), sch.subdivision),
                                juggler: t.from.juggler,
                                hand: t.from.hand.name(),
                                value: beats_json(t.value.into(), sch.subdivision),
                                fine_beat: fine.map(|_| t.beat),
                                fine_value: fine.map(|_| t.value),
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
            let (column, beat, time) = match failure {
                Failure::Pattern(e, _) => (
                    e.column(),
                    e.beat(),
                    e.time().map(|t| -> serde_json::Value {
                        if t.is_whole() {
                            t.num().into()
                        } else {
                            t.to_f64().into()
                        }
                    }),
                ),
                Failure::Settings(_) | Failure::Budget(_) => (None, None, None),
            };
            json_string(&InvalidJson {
                valid: false,
                pattern: input,
                error: ErrorJson {
                    kind: failure.kind(),
                    message: failure.message(),
                    column,
                    beat,
                    time,
                },
            })
        }
    }
}

/// JSON with every control character escaped ([`juggler::text::json`]).
fn json_string<T: serde::Serialize>(value: &T) -> String {
    juggler::text::json(value, false)
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
