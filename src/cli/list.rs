//! `juggler list [DIR|FILE]`: the patterns of a directory (default: the shipped library) or of
//! one pattern file, as a table of their facts.

use std::path::{Path, PathBuf};

use juggler::files::{self, library, FileError, LoadedPattern};
use juggler::schedule;
use juggler::spec::PatternSource;
use juggler::text::escape_control;

use super::{print_out, CliError, ListArgs};

/// One table row: a pattern and what its siteswap is.
struct Row {
    name: String,
    notation: String,
    prop: &'static str,
    line: usize,
    facts: Result<Facts, String>,
}

struct Facts {
    props: usize,
    period: u32,
    jugglers: usize,
}

/// One listed file: its rows and the patterns it could not import (with their lines).
struct Section {
    origin: String,
    rows: Vec<Row>,
    problems: Vec<(Option<usize>, String)>,
}

pub fn run(args: &ListArgs) -> Result<u8, CliError> {
    let shared_by = match &args.jugglers {
        Some(n) => Some(
            juggler::settings::keys::JUGGLERS
                .parse("--jugglers", n)
                .map_err(|e| CliError::usage(e.to_string()))? as usize,
        ),
        None => None,
    };
    let mut problems: Vec<String> = Vec::new();
    let mut sections: Vec<Section> = Vec::new();
    let mut add = |origin: String,
                   patterns: &[LoadedPattern],
                   errors: Vec<(Option<usize>, String)>,
                   problems: &mut Vec<String>| {
        problems.extend(errors.iter().map(|(_, e)| e.clone()));
        let rows: Vec<Row> = patterns.iter().map(|p| row(p, shared_by)).collect();
        for (p, r) in patterns.iter().zip(&rows) {
            if let Err(message) = &r.facts {
                problems.push(
                    FileError::Siteswap {
                        at: p.at.clone(),
                        notation: p.spec.source.text().to_string(),
                        message: message.clone(),
                    }
                    .to_string(),
                );
            }
        }
        sections.push(Section {
            origin,
            rows,
            problems: errors,
        });
    };
    let target = args.path.clone().or_else(library::override_dir);
    match target {
        Some(target) => {
            for path in pattern_files(&target)? {
                let (patterns, errors) = files::read_path_lenient(&path);
                let errors = errors
                    .iter()
                    .map(|e| (e.location().map(|at| at.line), e.to_string()))
                    .collect();
                add(path.display().to_string(), &patterns, errors, &mut problems);
            }
        }
        // The shipped library, embedded in the binary.
        None => {
            let library = library::library();
            problems.extend(library.problems.iter().cloned());
            for file in &library.files {
                add(
                    file.origin.clone(),
                    &file.patterns,
                    Vec::new(),
                    &mut problems,
                );
            }
        }
    }
    if args.json {
        print_out(&render_json(&sections))?;
    } else {
        print_out(&render(&sections))?;
    }
    if problems.is_empty() {
        Ok(0)
    } else {
        for p in &problems {
            super::print_err(&format!("{}\n", escape_control(p)));
        }
        let s = if problems.len() == 1 { "" } else { "s" };
        Err(CliError::invalid(format!(
            "{} problem{s} found",
            problems.len()
        )))
    }
}

/// One JSON object per line for every pattern, in file order: the imported patterns numbered
/// as `--index` counts them, and the patterns that could not be imported (`"index": null`,
/// with the error).
fn render_json(sections: &[Section]) -> String {
    let mut out = String::new();
    for section in sections {
        let mut lines: Vec<(usize, serde_json::Value)> = Vec::new();
        for (i, r) in section.rows.iter().enumerate() {
            let mut value = serde_json::json!({
                "index": i + 1,
                "file": section.origin,
                "line": r.line,
                "name": r.name,
                "siteswap": (!r.notation.is_empty()).then_some(&r.notation),
                "prop": r.prop,
            });
            let map = value.as_object_mut().expect("an object");
            match &r.facts {
                Ok(f) => {
                    map.insert("valid".into(), true.into());
                    map.insert("props".into(), f.props.into());
                    map.insert("jugglers".into(), f.jugglers.into());
                    map.insert("period".into(), f.period.into());
                }
                Err(e) => {
                    map.insert("valid".into(), false.into());
                    map.insert("error".into(), e.clone().into());
                }
            }
            lines.push((r.line, value));
        }
        for (line, error) in &section.problems {
            lines.push((
                line.unwrap_or(0),
                serde_json::json!({
                    "index": null,
                    "file": section.origin,
                    "line": line,
                    "name": null,
                    "valid": false,
                    "error": error,
                }),
            ));
        }
        // Stable: patterns and problems on one line keep their order.
        lines.sort_by_key(|(line, _)| *line);
        for (_, value) in lines {
            out.push_str(&value.to_string());
            out.push('\n');
        }
    }
    out
}

/// The pattern files to list: the file itself, or the pattern files of a directory.
fn pattern_files(target: &Path) -> Result<Vec<PathBuf>, CliError> {
    if target.is_dir() {
        let files = files::library_files(target).map_err(|e| CliError::invalid(e.to_string()))?;
        if files.is_empty() {
            return Err(CliError::invalid(format!(
                "{}: no pattern files (.toml, .jml, .xml, .txt) in this directory",
                target.display()
            )));
        }
        Ok(files)
    } else if target.is_file() {
        Ok(vec![target.to_path_buf()])
    } else if target.exists() {
        Err(CliError::invalid(format!(
            "{}: not a regular file or directory",
            target.display()
        )))
    } else {
        Err(CliError::invalid(format!(
            "{}: no such file or directory",
            target.display()
        )))
    }
}

/// The row of pattern `p`; `shared_by` (`--jugglers`) wins over the pattern's own
/// `jugglers=`.
fn row(p: &LoadedPattern, shared_by: Option<usize>) -> Row {
    let notation = match &p.spec.source {
        PatternSource::Siteswap(notation) => notation,
        // A pattern given by its events (checked when read): no siteswap; one period is one
        // loop. The table shows "(events)", JSON a null siteswap.
        PatternSource::Events(events) => {
            return Row {
                name: p.spec.name.clone(),
                notation: String::new(),
                prop: p.spec.settings.prop.name(),
                line: p.at.line,
                facts: Ok(Facts {
                    props: events.pattern.props(),
                    period: 1,
                    jugglers: events.pattern.jugglers(),
                }),
            };
        }
    };
    Row {
        name: p.spec.name.clone(),
        notation: notation.clone(),
        prop: p.spec.settings.prop.name(),
        line: p.at.line,
        facts: schedule::from_notation_shared(notation, shared_by.or(p.spec.settings.shared_by))
            .map_err(|e| e.to_string())
            // Valid only when it animates within the budget, as `check` says too.
            .and_then(|s| match p.spec.settings.check_cycle(&s) {
                Ok(()) => Ok(s),
                Err(e) => Err(e.to_string()),
            })
            .map(|s| Facts {
                props: s.props,
                // Each juggler's beats, as `check` counts them.
                period: (s.pattern_period / s.subdivision.max(1)).max(1),
                jugglers: s.jugglers,
            }),
    }
}

/// The table: one heading line per file, then one line per pattern with aligned columns,
/// numbered within its file as `--index` counts.
fn render(sections: &[Section]) -> String {
    const HEADERS: [&str; 7] = [
        "#", "NAME", "SITESWAP", "PROPS", "PERIOD", "JUGGLERS", "VALID",
    ];
    let cells = |(i, r): (usize, &Row)| -> [String; 7] {
        let index = (i + 1).to_string();
        let name = escape_control(&r.name).into_owned();
        let notation = if r.notation.is_empty() {
            "(events)".to_string()
        } else {
            escape_control(&r.notation).into_owned()
        };
        match &r.facts {
            Ok(f) => [
                index,
                name,
                notation,
                format!(
                    "{} {}{}",
                    f.props,
                    r.prop,
                    if f.props == 1 { "" } else { "s" }
                ),
                f.period.to_string(),
                f.jugglers.to_string(),
                "yes".into(),
            ],
            Err(_) => [
                index,
                name,
                notation,
                "-".into(),
                "-".into(),
                "-".into(),
                "no".into(),
            ],
        }
    };
    let all: Vec<[String; 7]> = sections
        .iter()
        .flat_map(|s| s.rows.iter().enumerate().map(cells))
        .collect();
    // Cells longer than MAX_ALIGN characters overflow their column instead of widening it
    // for every row: the table stays linear in size whatever one pattern's name is.
    const MAX_ALIGN: usize = 48;
    let mut widths = HEADERS.map(|h| h.chars().count());
    for c in &all {
        for (w, cell) in widths.iter_mut().zip(c) {
            *w = (*w).max(cell.chars().count().min(MAX_ALIGN));
        }
    }
    let line = |c: &[String; 7]| -> String {
        let mut s = String::new();
        for (i, (cell, w)) in c.iter().zip(widths).enumerate() {
            if i + 1 == c.len() {
                s.push_str(cell);
            } else {
                // Padded by hand: `{:<w$}` panics for widths of 65 536 and more.
                s.push_str(cell);
                let pad = w.saturating_sub(cell.chars().count()) + 2;
                s.extend(std::iter::repeat_n(' ', pad));
            }
        }
        s.trim_end().to_string() + "\n"
    };
    let mut out = line(&HEADERS.map(String::from));
    let mut rows = all.iter();
    let total: usize = sections.iter().map(|s| s.rows.len()).sum();
    for section in sections {
        let n = section.rows.len();
        let s = if n == 1 { "" } else { "s" };
        out.push_str(&format!(
            "# {} ({n} pattern{s})\n",
            escape_control(&section.origin),
        ));
        for c in rows.by_ref().take(n) {
            out.push_str(&line(c));
        }
    }
    let s = if total == 1 { "" } else { "s" };
    out.push_str(&format!(
        "{total} pattern{s} in {} file{}\n",
        sections.len(),
        if sections.len() == 1 { "" } else { "s" }
    ));
    out
}
