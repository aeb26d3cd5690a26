//! `juggler list`.

use super::{CliError, ListArgs};

pub fn run(_args: &ListArgs) -> Result<u8, CliError> {
    Err(CliError::usage("`list` is not available yet"))
}
