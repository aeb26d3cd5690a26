//! `juggler export`.

use super::{CliError, ExportArgs};

pub fn run(_args: &ExportArgs) -> Result<u8, CliError> {
    Err(CliError::usage("`export` is not available yet"))
}
