//! `juggler trans`: transitions between two siteswaps and back.

use juggler::schedule;
use juggler::tools::analysis::vanilla_throws;
use juggler::tools::state::throws_text;
use juggler::tools::trans::{transitions, TransError};
use serde::Serialize;

use super::{print_out, CliError, TransArgs};

/// At most this many transitions are listed.
const LIMIT: usize = 200;

fn throws_of(text: &str) -> Result<Vec<u32>, CliError> {
    let sch = schedule::from_notation(text)
        .map_err(|e| CliError::invalid(format!("{text}: invalid: {e}")))?;
    let throws = vanilla_throws(&sch).ok_or_else(|| {
        CliError::invalid(format!(
            "{text}: transitions are found for solo asynchronous siteswaps without multiplexes \
             or x-modified throws (sync, multiplex and passing patterns are not supported yet)"
        ))
    })?;
    if throws.iter().any(|&t| t > 35) {
        return Err(CliError::invalid(format!(
            "{text}: throws above 35 cannot be written in the result"
        )));
    }
    Ok(throws)
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
    let a = throws_of(&args.from)?;
    let b = throws_of(&args.to)?;
    let (ta, tb) = (throws_text(&a), throws_text(&b));
    let found = transitions(&a, &b, LIMIT).map_err(|e| match e {
        TransError::DifferentProps { .. } => CliError::invalid(e.to_string()),
        TransError::Invalid(_) => CliError::invalid(e.to_string()),
    })?;
    let shown = |t: &[u32]| {
        if t.is_empty() {
            "(none)".to_string()
        } else {
            throws_text(t)
        }
    };
    let mut out = String::new();
    if args.json {
        for t in &found {
            let line = serde_json::to_string(&TransJson {
                from: &ta,
                to: &tb,
                throws: throws_text(&t.there),
                back: throws_text(&t.back),
                pattern: t.pattern_text(),
            })
            .unwrap_or_default();
            out.push_str(&line);
            out.push('\n');
        }
    } else if let Some(first) = found.first() {
        let n = found.len();
        out.push_str(&format!(
            "{ta} -> {tb}: {n} transition{} of {} throw{}; back {tb} -> {ta}: {} ({} throw{})\n",
            if n == 1 { "" } else { "s" },
            first.there.len(),
            if first.there.len() == 1 { "" } else { "s" },
            shown(&first.back),
            first.back.len(),
            if first.back.len() == 1 { "" } else { "s" },
        ));
        out.push_str("  throws    whole pattern (A twice, throws, B twice, back)\n");
        for t in &found {
            out.push_str(&format!("  {:<8}  {}\n", shown(&t.there), t.pattern_text()));
        }
        if n == LIMIT {
            out.push_str(&format!("  (first {LIMIT} shown)\n"));
        }
    }
    print_out(&out)?;
    Ok(0)
}
