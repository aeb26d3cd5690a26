//! `juggler window`.

use super::{CliError, ViewArgs};

pub fn run(_args: &ViewArgs) -> Result<u8, CliError> {
    Err(CliError::usage("`window` is not available yet"))
}
