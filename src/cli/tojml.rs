//! `juggler tojml PATTERN [--out F.jml] [--force]`: the pattern as event-based JML for
//! Juggling Lab, on standard output or into a file (staged, never replacing a file without
//! `--force`).

use std::io::Write;

use juggler::convert::jml;
use juggler::export::staging::StagedFile;
use juggler::scene::Scene;

use super::input::load_spec;
use super::{print_out, CliError, TojmlArgs};

/// Runs the command: exit 0 written, 1 invalid pattern, 2 usage (existing file, unwritable).
pub fn run(args: &TojmlArgs) -> Result<u8, CliError> {
    let spec = load_spec(&args.pattern, &args.choice.choice(), &args.options)?;
    let scene = Scene::new(&spec).map_err(|e| {
        CliError::invalid(format!(
            "{}: {e}",
            juggler::text::escape_control(spec.source.text())
        ))
    })?;
    let Some(out) = &args.out else {
        print_out(&jml::write(&scene))?;
        return Ok(0);
    };
    if out.is_dir() {
        return Err(CliError::usage(format!(
            "{} is a directory: give a file name ending in .jml",
            out.display()
        )));
    }
    if !args.force && std::fs::symlink_metadata(out).is_ok() {
        return Err(CliError::usage(format!(
            "{} exists; use --force to replace it",
            out.display()
        )));
    }
    let usage = |e: juggler::export::ExportError| CliError::usage(e.to_string());
    let staged = StagedFile::new(out, args.force).map_err(usage)?;
    let text = jml::write(&scene);
    let mut writer = staged.writer().map_err(usage)?;
    writer
        .write_all(text.as_bytes())
        .and_then(|()| writer.flush())
        .map_err(|e| CliError::usage(format!("cannot write {}: {e}", out.display())))?;
    drop(writer);
    staged.commit().map_err(usage)?;
    Ok(0)
}
