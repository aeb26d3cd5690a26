//! `juggler diagram`: a ladder or causal diagram of a pattern as an SVG file.

use std::io::Write;
use std::path::Path;

use juggler::files::argument::Choice;
use juggler::spec::PatternSource;
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
    // The temporary file is 0600; the diagram gets the mode of the file it replaces, else
    // what the umask gives a new file.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = match std::fs::metadata(path) {
            Ok(m) => m.permissions().mode() & 0o7777,
            Err(_) => 0o666 & !umask(),
        };
        tmp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(mode))
            .map_err(io)?;
    }
    if force {
        tmp.persist(path).map_err(|e| io(e.error))?;
    } else {
        tmp.persist_noclobber(path).map_err(|e| io(e.error))?;
    }
    Ok(())
}

/// The process's umask (read by setting it and setting it back at once).
#[cfg(unix)]
#[allow(clippy::useless_conversion)] // `mode_t` is u32 here, u16 on some systems
fn umask() -> u32 {
    // SAFETY: umask only swaps the process's file mode mask; it is restored at once.
    let mask = unsafe { libc::umask(0o022) };
    // SAFETY: as above.
    unsafe { libc::umask(mask) };
    u32::from(mask)
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
    // The one reading rule of every command: siteswap, settings string, file or library name.
    let options = super::PatternOptions {
        jugglers: args.jugglers.clone(),
        ..super::PatternOptions::default()
    };
    let spec = super::input::load_spec(&args.pattern, &Choice::default(), &options)?;
    let shown = juggler::text::escape_control(&spec.name).into_owned();
    let PatternSource::Siteswap(notation_text) = &spec.source else {
        return Err(CliError::invalid(format!(
            "{shown}: a pattern given by its events has no siteswap to draw"
        )));
    };
    let pattern = notation::parse_shared(notation_text, spec.settings.shared_by)
        .map_err(|e| CliError::invalid(format!("{shown}: {e}")))?;
    let sch = schedule::build(&pattern).map_err(|e| CliError::invalid(format!("{shown}: {e}")))?;
    let title = juggler::text::escape_control(notation_text);
    let svg = if causal {
        causal_svg(&diagram::causal(&pattern, &sch), &title)
    } else {
        ladder_svg(&ladder(&sch), &title)
    };
    write_atomic(&args.out, &svg, args.force)?;
    Ok(0)
}
