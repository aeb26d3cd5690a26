//! `juggler list [DIR|FILE]`: the patterns of a directory (default: the shipped library) or of
//! one pattern file, as a table of their facts.

use std::path::{Path, PathBuf};

use juggler::files::{self, jml, library, FileError, FileKind, LoadedPattern};
use juggler::schedule;
use juggler::text::escape_control;

use super::{print_out, CliError, ListArgs};

/// One table row: a pattern and what its siteswap is.
struct Row {
    name: String,
    notation: String,
    prop: &'static str,
    facts: Result<Facts, String>,
}

struct Facts {
    props: usize,
    period: u32,
    jugglers: usize,
}

pub fn run(args: &ListArgs) -> Result<u8, CliError> {
    let mut problems: Vec<String> = Vec::new();
    let mut sections: Vec<(String, Vec<Row>)> = Vec::new();
    let mut add = |origin: String, patterns: &[LoadedPattern], problems: &mut Vec<String>| {
        let rows: Vec<Row> = patterns.iter().map(row).collect();
        for (p, r) in patterns.iter().zip(&rows) {
            if let Err(message) = &r.facts {
                problems.push(
                    FileError::Siteswap {
                        at: p.at.clone(),
                        notation: p.spec.notation.clone(),
                        message: message.clone(),
                    }
                    .to_string(),
                );
            }
        }
        sections.push((origin, rows));
    };
    let target = args.path.clone().or_else(library::override_dir);
    match target {
        Some(target) => {
            for path in pattern_files(&target)? {
                let (patterns, errors) = read_file(&path);
                problems.extend(errors.iter().map(FileError::to_string));
                add(path.display().to_string(), &patterns, &mut problems);
            }
        }
        // The shipped library, embedded in the binary.
        None => {
            let library = library::library();
            problems.extend(library.problems.iter().cloned());
            for file in &library.files {
                add(file.origin.clone(), &file.patterns, &mut problems);
            }
        }
    }
    print_out(&render(&sections))?;
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

/// Everything a file yields: its patterns and the errors met (a JML list keeps the patterns
/// it can import and reports the others).
fn read_file(path: &Path) -> (Vec<LoadedPattern>, Vec<FileError>) {
    if FileKind::of_path(path) == Some(FileKind::Jml) {
        let origin = path.display().to_string();
        return match files::read_text_file(path) {
            Err(e) => (Vec::new(), vec![e]),
            Ok(text) => match jml::import_lenient(&text, &origin) {
                Ok(import) => (import.patterns, import.problems),
                Err(e) => (Vec::new(), vec![e]),
            },
        };
    }
    match files::read_path(path) {
        Ok(patterns) => (patterns, Vec::new()),
        Err(e) => (Vec::new(), vec![e]),
    }
}

fn row(p: &LoadedPattern) -> Row {
    if files::jml_events::is_event_notation(&p.spec.notation) {
        // A pattern defined by Juggling Lab events: no siteswap; one period is one loop.
        return Row {
            name: escape_control(&p.spec.name).into_owned(),
            notation: "(events)".into(),
            prop: p.spec.settings.prop.name(),
            facts: files::jml_events::read(&p.spec.notation).map(|e| Facts {
                props: e.paths,
                period: 1,
                jugglers: e.jugglers,
            }),
        };
    }
    Row {
        name: escape_control(&p.spec.name).into_owned(),
        notation: escape_control(&p.spec.notation).into_owned(),
        prop: p.spec.settings.prop.name(),
        facts: schedule::from_notation(&p.spec.notation)
            .map(|s| Facts {
                props: s.props,
                period: s.pattern_period,
                jugglers: s.jugglers,
            })
            .map_err(|e| e.to_string()),
    }
}

/// The table: one heading line per file, then one line per pattern with aligned columns.
fn render(sections: &[(String, Vec<Row>)]) -> String {
    const HEADERS: [&str; 6] = ["NAME", "SITESWAP", "PROPS", "PERIOD", "JUGGLERS", "VALID"];
    let cells = |r: &Row| -> [String; 6] {
        match &r.facts {
            Ok(f) => [
                r.name.clone(),
                r.notation.clone(),
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
                r.name.clone(),
                r.notation.clone(),
                "-".into(),
                "-".into(),
                "-".into(),
                "no".into(),
            ],
        }
    };
    let all: Vec<[String; 6]> = sections
        .iter()
        .flat_map(|(_, rows)| rows.iter().map(cells))
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
    let line = |c: &[String; 6]| -> String {
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
    let total: usize = sections.iter().map(|(_, r)| r.len()).sum();
    for (path, section) in sections {
        let s = if section.len() == 1 { "" } else { "s" };
        out.push_str(&format!(
            "# {} ({} pattern{s})\n",
            escape_control(path),
            section.len()
        ));
        for c in rows.by_ref().take(section.len()) {
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
