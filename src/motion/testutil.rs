//! Test-only schedules from the notation parser.

use crate::schedule::{from_notation, Schedule};

/// The schedule of a valid siteswap (panics on an invalid one: test input only).
pub fn schedule(pattern: &str) -> Schedule {
    match from_notation(pattern) {
        Ok(s) => s,
        Err(e) => panic!("test pattern {pattern:?} is invalid: {e}"),
    }
}

/// A solo asynchronous siteswap such as `531`, `[43]23` or `3B`.
pub fn async_schedule(pattern: &str) -> Schedule {
    schedule(pattern)
}

/// `(4,4)`: both hands throw a 4 to themselves together every 2 beats.
pub fn sync_44() -> Schedule {
    schedule("(4,4)")
}

/// `<3p|3p>`: two jugglers passing every throw, right hand to the partner's left.
pub fn passing_3p() -> Schedule {
    schedule("<3p|3p>")
}
