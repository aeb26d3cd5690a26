//! `juggler pose`.

use super::{CliError, PoseArgs};

pub fn run(_args: &PoseArgs) -> Result<u8, CliError> {
    Err(CliError::usage("`pose` is not available yet"))
}
