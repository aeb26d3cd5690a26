//! Turning a pattern argument into a `PatternSpec`: a pattern file, a Juggling Lab settings
//! string, a siteswap, or the name of a pattern in the shipped library; then applying the
//! command-line overrides.

use std::path::Path;

use juggler::files;
use juggler::notation::settings::parse_input;
use juggler::spec::PatternSpec;

use super::{CliError, PatternOptions};

/// File extensions read as pattern files.
const FILE_EXTENSIONS: [&str; 4] = ["toml", "jml", "xml", "txt"];

/// Every pattern the argument names (a file may hold several).
pub fn load_specs(arg: &str) -> Result<Vec<PatternSpec>, CliError> {
    let path = Path::new(arg);
    let has_file_extension = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| FILE_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()));
    if path.is_file() || has_file_extension {
        if !path.exists() {
            return Err(CliError::invalid(format!("{arg}: no such pattern file")));
        }
        let specs = files::load_path(path).map_err(|e| CliError::invalid(e.to_string()))?;
        if specs.is_empty() {
            return Err(CliError::invalid(format!(
                "{arg}: the file holds no pattern"
            )));
        }
        return Ok(specs);
    }
    if path.is_dir() {
        return Err(CliError::usage(format!(
            "{arg} is a directory: give one pattern file, or use `juggler list {arg}`"
        )));
    }
    // A library name wins over reading the word as a siteswap: "cascade" is made of
    // base-36 throw values but a user typing it means the pattern.
    if let Some(spec) = files::find_in_library(arg) {
        return Ok(vec![spec]);
    }
    parse_input(arg)
        .map(|spec| vec![spec])
        .map_err(|e| CliError::invalid(e.to_string()))
}

/// The one pattern the argument names (the first of a file), with the overrides applied.
pub fn load_spec(arg: &str, options: &PatternOptions) -> Result<PatternSpec, CliError> {
    let mut spec = load_specs(arg)?.swap_remove(0);
    apply_options(&mut spec, options)?;
    Ok(spec)
}

/// Command-line settings override what the pattern file or settings string said.
pub fn apply_options(spec: &mut PatternSpec, options: &PatternOptions) -> Result<(), CliError> {
    let settings = &mut spec.settings;
    if let Some(bps) = options.bps {
        settings.bps = Some(bps);
    }
    if let Some(dwell) = options.dwell {
        settings.dwell = dwell;
    }
    if let Some(gravity) = options.gravity {
        settings.gravity = gravity;
    }
    if let Some(prop) = &options.prop {
        settings.prop = prop.parse().map_err(CliError::usage)?;
    }
    if options.color_by_orbit {
        settings.color_by_orbit = true;
    }
    Ok(())
}
