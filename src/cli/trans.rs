//! `juggler trans`: transitions between two siteswaps and back.

use juggler::schedule;
use juggler::tools::{self, TextTransition};
use serde::Serialize;

use super::{print_out, CliError, TransArgs};

/// At most this many transitions are listed.
const LIMIT: usize = 200;

/// The schedule of a siteswap, or of a settings string's (`975;jugglers=2` is read as
/// shared, and so refused by the finder as a pattern on fine beats).
fn schedule_of(text: &str) -> Result<schedule::Schedule, CliError> {
    let invalid = |e: &dyn std::fmt::Display| {
        CliError::invalid(format!("{}: invalid: {e}", juggler::text::input_name(text)))
    };
    match schedule::from_notation(text) {
        Ok(schedule) => Ok(schedule),
        Err(e) if text.contains('=') => {
            let spec = juggler::settings::read(text).map_err(|_| invalid(&e))?;
            schedule::from_notation_shared(&spec.pattern, spec.settings.shared_by)
                .map_err(|e| invalid(&e))
        }
        Err(e) => Err(invalid(&e)),
    }
}

#[derive(Serialize)]
struct TransJson<'a> {
    from: &'a str,
    to: &'a str,
    throws: String,
    back: String,
    pattern: String,
}

/// Runs the command: exit 0 with transitions, 1 when none can exist or a pattern is bad.
pub fn run(args: &TransArgs) -> Result<u8, CliError> {
    let sa = schedule_of(&args.from)?;
    let sb = schedule_of(&args.to)?;
    // One more than shown tells whether the search stopped at the limit.
    let mut found = tools::transitions((&args.from, &sa), (&args.to, &sb), LIMIT + 1)
        .map_err(|e| CliError::invalid(e.to_string()))?;
    let stopped = found.len() > LIMIT;
    found.truncate(LIMIT);
    print(&found, stopped, args.json)
}

/// Prints the transitions; `stopped`: there are more than shown (the search stopped at
/// [`LIMIT`]), said in the header (text) or a last line `{"stopped_at_limit":LIMIT}` (JSON).
fn print(found: &[TextTransition], stopped: bool, json: bool) -> Result<u8, CliError> {
    let shown = |t: &str| {
        if t.is_empty() {
            "(none needed)".to_string()
        } else {
            t.to_string()
        }
    };
    let mut out = String::new();
    if json {
        for t in found {
            let line = juggler::text::json(
                &TransJson {
                    from: &t.from,
                    to: &t.to,
                    throws: t.there.clone(),
                    back: t.back.clone(),
                    pattern: t.pattern.clone(),
                },
                false,
            );
            out.push_str(&line);
            out.push('\n');
        }
        if stopped {
            out.push_str(&format!("{{\"stopped_at_limit\":{LIMIT}}}\n"));
        }
    } else if let Some(first) = found.first() {
        let n = found.len();
        let (ta, tb) = (&first.from, &first.to);
        let how_many = if stopped {
            format!("the first {n} shortest transitions (stopped at the limit of {LIMIT})")
        } else {
            format!("{n} shortest transition{}", if n == 1 { "" } else { "s" })
        };
        out.push_str(&format!(
            "{ta} -> {tb}: {how_many}; back {tb} -> {ta}: {}\n",
            shown(&first.back),
        ));
        out.push_str("  throws    whole pattern (A twice, throws, B twice, back)\n");
        let width = found
            .iter()
            .map(|t| shown(&t.there).len())
            .max()
            .unwrap_or(8)
            .max(8);
        for t in found {
            out.push_str(&format!("  {:<width$}  {}\n", shown(&t.there), t.pattern));
        }
    } else {
        return Err(CliError::invalid(
            "no transition found within the throw heights of the two patterns".to_string(),
        ));
    }
    print_out(&out)?;
    Ok(0)
}
