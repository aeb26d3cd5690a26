//! Turning a pattern argument into a `PatternSpec`: a pattern file, a Juggling Lab settings
//! string, a siteswap, or the name of a pattern in the shipped library; then applying the
//! command-line overrides.

use juggler::files::argument::{self, ArgumentError, Choice};
use juggler::settings::{keys, Dwell};
use juggler::spec::PatternSpec;

use super::{CliError, PatternOptions};

/// Every pattern the argument names (a file may hold several), by the one reading rule of
/// `files::argument` (settings string, file path, siteswap, library name).
pub fn load_specs(arg: &str) -> Result<Vec<PatternSpec>, CliError> {
    argument::load(arg).map_err(cli_error)
}

/// The CLI error (message, exit code) of an argument error.
fn cli_error(e: ArgumentError) -> CliError {
    match &e {
        ArgumentError::UnknownName { .. } => {
            let library = juggler::files::library::library();
            let problems = match (&library.directory, library.problems.first()) {
                (Some(dir), Some(first)) => format!(
                    "\n  (the library {} of JUGGLER_PATTERNS has problems: {first})",
                    juggler::text::shell_quote(dir)
                ),
                _ => String::new(),
            };
            CliError::invalid(format!(
                "{e}\n  (`juggler list` shows the pattern library){problems}"
            ))
        }
        ArgumentError::Directory { path } => CliError::usage(format!(
            "{e}, or use `juggler list {}`",
            juggler::text::shell_quote(path)
        )),
        e if e.is_usage() => CliError::usage(e.to_string()),
        e => CliError::invalid(e.to_string()),
    }
}

/// The one pattern the argument names (the first of a file, or the one `choice` picks), with
/// the overrides applied.
pub fn load_spec(
    arg: &str,
    choice: &Choice,
    options: &PatternOptions,
) -> Result<PatternSpec, CliError> {
    let mut spec = argument::load_one(arg, choice).map_err(cli_error)?;
    apply_options(&mut spec, options)?;
    Ok(spec)
}

/// Command-line settings override what the pattern file or settings string said; numbers
/// are read through the settings table (`settings::keys`), in its one message form.
pub fn apply_options(spec: &mut PatternSpec, options: &PatternOptions) -> Result<(), CliError> {
    let settings = &mut spec.settings;
    let usage = |e: keys::ValueError| CliError::usage(e.to_string());
    if let Some(bps) = &options.bps {
        settings.bps = Some(keys::BPS.parse("--bps", bps).map_err(usage)?);
    }
    if let Some(dwell) = &options.dwell {
        settings.dwell = Dwell::Uniform(keys::DWELL.parse("--dwell", dwell).map_err(usage)?);
    }
    if let Some(gravity) = &options.gravity {
        settings.gravity = keys::GRAVITY.parse("--gravity", gravity).map_err(usage)?;
    }
    if let Some(prop) = &options.prop {
        settings.set_every_prop(prop.parse().map_err(CliError::usage)?);
    }
    if options.color_by_orbit {
        settings.color_by_orbit = true;
    }
    if let Some(jugglers) = &options.jugglers {
        settings.shared_by = Some(
            keys::JUGGLERS
                .parse("--jugglers", jugglers)
                .map_err(usage)? as usize,
        );
    }
    Ok(())
}
