//! `juggler list [DIR|FILE]`: the patterns of a directory (default: the shipped library) or of
//! one pattern file, as a table of their facts.

use std::path::{Path, PathBuf};

use juggler::files::{self, jml, FileError, FileKind, LoadedPattern};
use juggler::schedule;

use super::{CliError, ListArgs};

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
    let target = args.path.clone().unwrap_or_else(files::library_dir);
    let paths = pattern_files(&target)?;
    let mut problems: Vec<String> = Vec::new();
    let mut sections: Vec<(PathBuf, Vec<Row>)> = Vec::new();
    for path in paths {
        let (patterns, errors) = read_file(&path);
        problems.extend(errors.iter().map(FileError::to_string));
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
        sections.push((path, rows));
    }
    print!("{}", render(&sections));
    if problems.is_empty() {
        Ok(0)
    } else {
        for p in &problems {
            eprintln!("{p}");
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
        return match std::fs::read_to_string(path) {
            Err(source) => (
                Vec::new(),
                vec![FileError::Io {
                    path: origin,
                    source,
                }],
            ),
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
    Row {
        name: p.spec.name.clone(),
        notation: p.spec.notation.clone(),
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
fn render(sections: &[(PathBuf, Vec<Row>)]) -> String {
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
    let mut widths = HEADERS.map(|h| h.chars().count());
    for c in &all {
        for (w, cell) in widths.iter_mut().zip(c) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |c: &[String; 6]| -> String {
        let mut s = String::new();
        for (i, (cell, w)) in c.iter().zip(widths).enumerate() {
            if i + 1 == c.len() {
                s.push_str(cell);
            } else {
                s.push_str(&format!("{cell:<w$}  "));
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
            path.display(),
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
