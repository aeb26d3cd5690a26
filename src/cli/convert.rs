//! `juggler convert PATTERN --out FILE [--force]`: the pattern written in the format the file's
//! extension names (`.jif` passist's JSON, `.jml` Juggling Lab, `.toml` juggler's own), or
//! with `--format` on standard output. `tojml` is the JML case.

use std::io::Write;
use std::path::Path;

use juggler::convert::{jif, jml, toml};
use juggler::export::staging::StagedFile;
use juggler::scene::Scene;

use super::input::load_spec;
use super::{print_out, CliError, ConvertArgs};

/// The formats `convert` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Jif,
    Jml,
    Toml,
}

impl Format {
    fn named(name: &str) -> Option<Format> {
        match name.to_ascii_lowercase().as_str() {
            "jif" => Some(Format::Jif),
            "jml" => Some(Format::Jml),
            "toml" => Some(Format::Toml),
            _ => None,
        }
    }

    fn of_path(path: &Path) -> Option<Format> {
        Format::named(path.extension()?.to_str()?)
    }
}

/// Runs the command: exit 0 written, 1 invalid pattern or one the format cannot hold, 2 usage
/// (unknown format, existing file, unwritable).
pub fn run(args: &ConvertArgs) -> Result<u8, CliError> {
    let format = match (&args.format, &args.out) {
        (Some(name), _) => Format::named(name).ok_or_else(|| {
            CliError::usage(format!(
                "unknown format '{}': give jif, jml or toml",
                juggler::text::escape_control(name)
            ))
        })?,
        (None, Some(out)) => Format::of_path(out).ok_or_else(|| {
            CliError::usage(format!(
                "{}: give a file name ending in .jif, .jml or .toml (or --format)",
                out.display()
            ))
        })?,
        (None, None) => {
            return Err(CliError::usage(
                "give --out FILE (.jif, .jml or .toml) or --format jif|jml|toml".to_string(),
            ))
        }
    };
    let spec = load_spec(&args.pattern, &args.choice.choice(), &args.options)?;
    // A siteswap is named by its text; a file's pattern of events by its name.
    let shown = spec.siteswap().unwrap_or(&spec.name).to_string();
    let invalid = |e: &dyn std::fmt::Display| {
        CliError::invalid(format!("{}: {e}", juggler::text::escape_control(&shown)))
    };
    let text = match format {
        Format::Toml => toml::to_toml(std::slice::from_ref(&spec)).map_err(|e| invalid(&e))?,
        Format::Jml | Format::Jif => {
            let scene = Scene::new(&spec).map_err(|e| invalid(&e))?;
            if format == Format::Jml {
                jml::write_checked(&scene).map_err(|e| invalid(&e))?
            } else {
                jif::write(&scene).map_err(|e| invalid(&e))?
            }
        }
    };
    write_out(args.out.as_deref(), args.force, &text, "give a file name")
}

/// Writes `text` to standard output, or to the file `out` whole or not at all (staged, then
/// renamed; an existing file only with `force`; `hint` says what to give instead of a
/// directory).
pub(super) fn write_out(
    out: Option<&Path>,
    force: bool,
    text: &str,
    hint: &str,
) -> Result<u8, CliError> {
    let Some(out) = out else {
        print_out(text)?;
        return Ok(0);
    };
    if out.is_dir() {
        return Err(CliError::usage(format!(
            "{} is a directory: {hint}",
            out.display()
        )));
    }
    if !force && std::fs::symlink_metadata(out).is_ok() {
        return Err(CliError::usage(format!(
            "{} exists; use --force to replace it",
            out.display()
        )));
    }
    let usage = |e: juggler::export::ExportError| CliError::usage(e.to_string());
    let staged = StagedFile::new(out, force).map_err(usage)?;
    let mut writer = staged.writer().map_err(usage)?;
    writer
        .write_all(text.as_bytes())
        .and_then(|()| writer.flush())
        .map_err(|e| CliError::usage(format!("cannot write {}: {e}", out.display())))?;
    drop(writer);
    staged.commit().map_err(usage)?;
    Ok(0)
}
