//! `juggler check`.

use super::{CheckArgs, CliError};

pub fn run(_args: &CheckArgs) -> Result<u8, CliError> {
    Err(CliError::usage("`check` is not available yet"))
}
