//! `juggler gen`: the siteswap generator with Juggling Lab's options.

use std::io::Write;

use juggler::tools::{self, Found, GroundFilter, Listing, Query};
use serde::Serialize;

use super::{CliError, GenArgs};

/// What the options ask for besides the query.
struct Output {
    json: bool,
    /// 0 = patterns only, 1 = patterns and the count (-n), 2 = count only (-no).
    count: u8,
    sequences: bool,
    ground_only: bool,
    props: u32,
    sync: bool,
}

fn number(args: &[String], i: usize, what: &str) -> Result<u32, CliError> {
    let text = args
        .get(i)
        .ok_or_else(|| CliError::usage(format!("{} needs a number", args[i - 1])))?;
    text.parse()
        .map_err(|_| CliError::usage(format!("{what}: {text:?} is not a whole number")))
}

/// Reads `OBJECTS MAXTHROW PERIOD [options]` as Juggling Lab's generator does.
fn parse(args: &[String]) -> Result<(Query, Output), CliError> {
    if args.len() < 3 {
        return Err(CliError::usage(
            "usage: juggler gen OBJECTS MAXTHROW PERIOD [options] (see juggler gen --help)",
        ));
    }
    let props = number(args, 0, "number of objects")?;
    let max_throw = if args[1] == "-" {
        None
    } else {
        Some(number(args, 1, "maximum throw")?)
    };
    let (period_min, period_max) = parse_period(&args[2])?;
    let mut q = Query::new(props, max_throw, period_min.unwrap_or(1));
    q.period_max = period_max;
    q.period_from_rhythm = period_min.is_none();
    let mut out = Output {
        json: false,
        count: 0,
        sequences: true,
        ground_only: false,
        props,
        sync: false,
    };
    let mut i = 3;
    while i < args.len() {
        match args[i].as_str() {
            "-n" => out.count = 1,
            "-no" => out.count = 2,
            "-se" => out.sequences = false,
            "-g" => q.ground = GroundFilter::GroundOnly,
            "-ng" => q.ground = GroundFilter::ExcitedOnly,
            "-f" => q.listing = Listing::Full,
            "-prime" => q.listing = Listing::Prime,
            "-rot" => q.rotations = true,
            "-lame" => q.lame = true,
            "-s" => q.sync = true,
            "-mf" => q.squeeze = true,
            "-mc" => q.clustered = false,
            "-mt" => q.true_multiplex = true,
            "-cp" => q.connected = true,
            "-sym" => q.symmetric = true,
            "-jp" => q.permutations = true,
            "--json" | "-json" => out.json = true,
            "-x" | "-i" => {
                let include = args[i] == "-i";
                let mut any = false;
                while i + 1 < args.len() && !args[i + 1].starts_with('-') {
                    i += 1;
                    any = true;
                    if include {
                        q.include.push(args[i].clone());
                    } else {
                        q.exclude.push(args[i].clone());
                    }
                }
                if !any {
                    return Err(CliError::usage(format!(
                        "{} needs at least one regular expression",
                        if include { "-i" } else { "-x" }
                    )));
                }
            }
            "-m" => {
                i += 1;
                q.multiplex = number(args, i, "simultaneous throws (-m)")?;
            }
            "-j" => {
                i += 1;
                q.jugglers = number(args, i, "jugglers (-j)")?;
            }
            "-d" => {
                i += 1;
                q.delay = number(args, i, "communication delay (-d)")?;
                // Juggling Lab: a communication delay means ground state patterns only.
                q.ground = GroundFilter::GroundOnly;
            }
            "-l" => {
                i += 1;
                q.leader = number(args, i, "leader (-l)")?;
            }
            other => {
                return Err(CliError::usage(format!(
                    "unknown option {other:?} (see juggler gen --help)"
                )))
            }
        }
        i += 1;
    }
    q.sequences = out.sequences && out.count < 2;
    out.ground_only = q.ground == GroundFilter::GroundOnly;
    out.sync = q.sync;
    Ok((q, out))
}

/// `5`, `1-5`, `-5`, `3-` or `-` (unbounded); an open start is `None` (the rhythm's period:
/// 1, or 2 for synchronous patterns).
fn parse_period(text: &str) -> Result<(Option<u32>, Option<u32>), CliError> {
    let bad = || {
        CliError::usage(format!(
            "period {text:?}: give a number or a range like 1-5, -5, 3- or -"
        ))
    };
    let num = |s: &str| s.parse::<u32>().map_err(|_| bad());
    match text.split_once('-') {
        None => {
            let p = num(text)?;
            Ok((Some(p), Some(p)))
        }
        Some(("", "")) => Ok((None, None)),
        Some(("", hi)) => Ok((None, Some(num(hi)?))),
        Some((lo, "")) => Ok((Some(num(lo)?), None)),
        Some((lo, hi)) => Ok((Some(num(lo)?), Some(num(hi)?))),
    }
}

#[derive(Serialize)]
struct PatternJson {
    pattern: String,
    period: usize,
    ground_state: bool,
    get_in: String,
    get_out: String,
}

/// Writes `found` as `juggler gen` prints it into `text` (without the line break).
fn line(found: &Found, out: &Output, text: &mut String) {
    text.clear();
    if out.json {
        let json = PatternJson {
            period: found.period,
            pattern: found.pattern.to_string(),
            ground_state: found.ground_state,
            get_in: found.get_in.to_string(),
            get_out: found.get_out.to_string(),
        };
        text.push_str(&serde_json::to_string(&json).unwrap_or_default());
        return;
    }
    if out.ground_only {
        text.push_str(found.pattern);
        return;
    }
    if !out.sequences {
        let mark = if found.ground_state { ' ' } else { '*' };
        text.push(mark);
        text.push(' ');
        text.push_str(found.pattern);
        text.push(' ');
        text.push(mark);
    } else {
        // Juggling Lab right-aligns asynchronous get-ins to the number of props.
        let width = if out.sync { 0 } else { out.props as usize };
        let pad = width.saturating_sub(found.get_in.chars().count());
        text.extend(std::iter::repeat_n(' ', pad));
        text.push_str(found.get_in);
        text.push_str("  ");
        text.push_str(found.pattern);
        text.push_str("  ");
        text.push_str(found.get_out);
    }
    let kept = text.trim_end().len();
    text.truncate(kept);
}

/// Bytes of output gathered before they are written.
const OUTPUT_BUFFER: usize = 64 << 10;

/// The text around a pattern's line (what [`line`] writes before and after the pattern,
/// with the line break), made once per get-in and get-out rather than per pattern.
#[derive(Default)]
struct Around {
    /// The [`Found::start`] it was made for.
    start: Option<u64>,
    before: String,
    after: String,
}

impl Around {
    /// The text before and after `found.pattern` in its line, `None` where [`line`] must
    /// write it (JSON, or a pattern ending in white space, which the line's trimming cuts).
    fn of(&mut self, found: &Found, out: &Output) -> Option<(&str, &str)> {
        if out.json || found.pattern.ends_with(char::is_whitespace) || found.pattern.is_empty() {
            return None;
        }
        if self.start != Some(found.start) {
            // The line of a one-character stand-in for the pattern (trimmed alike: neither
            // ends in white space), cut around it.
            const STAND_IN: &str = "\u{1}";
            let mut text = String::new();
            let stand_in = Found {
                pattern: STAND_IN,
                ..*found
            };
            line(&stand_in, out, &mut text);
            let (before, after) = text.split_once(STAND_IN)?;
            self.before = before.to_string();
            self.after = after.to_string();
            self.after.push('\n');
            self.start = Some(found.start);
        }
        Some((&self.before, &self.after))
    }
}

/// Runs the command: exit 0 (also when nothing is found), 2 for a bad query.
pub fn run(args: &GenArgs) -> Result<u8, CliError> {
    let (query, out) = parse(&args.args)?;
    let generator = tools::generate(&query).map_err(|e| CliError::usage(e.to_string()))?;
    let height = generator.height();
    if out.count < 2 && height > 35 {
        return Err(CliError::usage(format!(
            "throws up to {height} can be generated, but throws above 35 have no siteswap letter; \
             give a maximum throw of at most 35, or count with -no"
        )));
    }
    let stdout = std::io::stdout();
    let mut w = std::io::BufWriter::with_capacity(OUTPUT_BUFFER, stdout.lock());
    let mut failed: Option<std::io::Error> = None;
    let mut text = String::new();
    let mut around = Around::default();
    let mut write = |l: &Found| {
        let written = if let Some((before, after)) = around.of(l, &out) {
            w.write_all(before.as_bytes())
                .and_then(|()| w.write_all(l.pattern.as_bytes()))
                .and_then(|()| w.write_all(after.as_bytes()))
        } else {
            line(l, &out, &mut text);
            text.push('\n');
            w.write_all(text.as_bytes())
        };
        match written {
            Ok(()) => true,
            Err(e) => {
                failed = Some(e);
                false
            }
        }
    };
    let count = if out.count == 2 {
        generator.count()
    } else {
        generator.for_each(&mut write)
    };
    if failed.is_none() && out.count > 0 {
        let text = if out.json {
            format!("{{\"count\":{count}}}\n")
        } else if count == 1 {
            "1 pattern\n".to_string()
        } else {
            format!("{count} patterns\n")
        };
        if let Err(e) = w.write_all(text.as_bytes()) {
            failed = Some(e);
        }
    }
    if failed.is_none() {
        if let Err(e) = w.flush() {
            failed = Some(e);
        }
    }
    match failed {
        Some(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(CliError::usage(format!(
            "cannot write to standard output: {e}"
        ))),
        _ => Ok(0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn periods() {
        assert_eq!(parse_period("5").unwrap(), (Some(5), Some(5)));
        assert_eq!(parse_period("1-5").unwrap(), (Some(1), Some(5)));
        assert_eq!(parse_period("-5").unwrap(), (None, Some(5)));
        assert_eq!(parse_period("3-").unwrap(), (Some(3), None));
        assert_eq!(parse_period("-").unwrap(), (None, None));
        assert!(parse_period("a").is_err());
    }
}
