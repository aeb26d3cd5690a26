//! `juggler tojml PATTERN [--out F.jml] [--force]`: the pattern as event-based JML for
//! Juggling Lab, on standard output or into a file (staged, never replacing a file without
//! `--force`).

use juggler::convert::jml;
use juggler::scene::Scene;

use super::convert::write_out;
use super::input::load_spec;
use super::{CliError, TojmlArgs};

/// Runs the command: exit 0 written, 1 invalid pattern, 2 usage (existing file, unwritable).
pub fn run(args: &TojmlArgs) -> Result<u8, CliError> {
    let spec = load_spec(&args.pattern, &args.choice.choice(), &args.options)?;
    let scene = Scene::new(&spec).map_err(|e| {
        CliError::invalid(format!(
            "{}: {e}",
            juggler::text::escape_control(spec.source.text())
        ))
    })?;
    let text = jml::write_checked(&scene).map_err(|e| {
        CliError::invalid(format!(
            "{}: {e}",
            juggler::text::escape_control(spec.source.text())
        ))
    })?;
    write_out(
        args.out.as_deref(),
        args.force,
        &text,
        "give a file name ending in .jml",
    )
}
