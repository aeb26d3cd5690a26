//! `juggler check`.

use super::{CliError, CheckArgs};

pub fn run(_args: &CheckArgs) -> Result<u8, CliError> {
    Err(CliError::usage("`check` is not available yet"))
}
