//! `juggler diagram`: a ladder or causal diagram of a pattern as an SVG file.

use std::io::Write;
use std::path::Path;

use juggler::tools::diagram::{self, causal_svg, ladder, ladder_svg};
use juggler::{notation, schedule};

use super::{CliError, DiagramArgs};

/// Writes `text` to `path` through a temporary file in the same directory and a rename, so a
/// reader never sees half a file; an existing file is replaced only with `force`, and never
/// anything but a regular file.
fn write_atomic(path: &Path, text: &str, force: bool) -> Result<(), CliError> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if !m.is_file() => {
            return Err(CliError::usage(format!(
                "{} exists and is not a regular file; not replaced",
                path.display()
            )))
        }
        Ok(_) if !force => {
            return Err(CliError::usage(format!(
                "{} exists; use --force to replace it",
                path.display()
            )))
        }
        _ => {}
    }
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let io = |e: std::io::Error| CliError::usage(format!("cannot write {}: {e}", path.display()));
    let mut tmp = tempfile::Builder::new()
        .prefix(".juggler-diagram-")
        .tempfile_in(dir)
        .map_err(io)?;
    tmp.write_all(text.as_bytes()).map_err(io)?;
    tmp.flush().map_err(io)?;
    if force {
        tmp.persist(path).map_err(|e| io(e.error))?;
    } else {
        tmp.persist_noclobber(path).map_err(|e| io(e.error))?;
    }
    Ok(())
}

/// Runs the command: exit 0 written, 1 invalid pattern, 2 usage (existing file, bad kind).
pub fn run(args: &DiagramArgs) -> Result<u8, CliError> {
    let causal = match args.kind.as_str() {
        "ladder" => false,
        "causal" => true,
        other => {
            return Err(CliError::usage(format!(
                "--kind {other:?}: use ladder or causal"
            )))
        }
    };
    let text = juggler::settings::read(&args.pattern)
        .map_err(|e| CliError::invalid(format!("{}: {e}", args.pattern)))?;
    let pattern = notation::parse(&text.pattern)
        .map_err(|e| CliError::invalid(format!("{}: {e}", args.pattern)))?;
    let sch = schedule::build(&pattern)
        .map_err(|e| CliError::invalid(format!("{}: {e}", args.pattern)))?;
    let svg = if causal {
        causal_svg(&diagram::causal(&pattern, &sch), &text.pattern)
    } else {
        ladder_svg(&ladder(&sch), &text.pattern)
    };
    write_atomic(&args.out, &svg, args.force)?;
    Ok(0)
}
