//! Test-only schedules, built through the real notation parser.

use crate::schedule::{from_notation, Schedule};

/// The schedule of a valid siteswap (panics with the error otherwise: test input only).
pub fn async_schedule(pattern: &str) -> Schedule {
    from_notation(pattern).unwrap_or_else(|e| panic!("{pattern}: {e}"))
}

pub fn sync_44() -> Schedule {
    async_schedule("(4,4)")
}

pub fn passing_3p() -> Schedule {
    async_schedule("<3p|3p>")
}
