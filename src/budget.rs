//! The one resource budget: how many of each thing any input may expand to, checked before
//! anything of that size is allocated.
//!
//! Every reader that expands what was written (repeats `(...)^N`, per-juggler forms, cycles
//! that repeat a pattern) computes the size of the result first, with saturating arithmetic,
//! and asks [`check`] (or [`Limit::check`]) before allocating. A refusal names the limit:
//!
//! ```
//! use juggler::budget::{self, HAND_POINTS};
//! assert!(budget::check(HAND_POINTS, 10).is_ok());
//! let err = budget::check(HAND_POINTS, 19_940).unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "too large: 19940 dwell paths in `hands`, more than the limit of 10000"
//! );
//! ```
//!
//! With these limits every command's memory is bounded by what it prints or draws, not by a
//! count written in the input (ARCHITECTURE.md, "Hostile input").

use thiserror::Error;

/// A limit on how many of one thing an input may expand to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit {
    /// What is counted, as messages name it (plural).
    pub what: &'static str,
    /// The largest count allowed.
    pub max: u64,
}

/// Beats in one period of a pattern after its repeats are expanded.
pub const BEATS: Limit = Limit {
    what: "beats in one period",
    max: 100_000,
};

/// Throw elements in one period (all jugglers, hands and multiplex positions, 0s included).
pub const THROWS: Limit = Limit {
    what: "throws in one period",
    max: 100_000,
};

/// Beats in the cycle the animation plans: the period repeated until every juggler's
/// `hands` and `body` cycles fit a whole number of times (Juggling Lab's rule).
pub const CYCLE_BEATS: Limit = Limit {
    what: "beats in one animated cycle",
    max: 100_000,
};

/// Throws in that cycle.
pub const CYCLE_THROWS: Limit = Limit {
    what: "throws in one animated cycle",
    max: 100_000,
};

/// Items of one settings value (`hands`, `body`, `colors`) after its repeats are expanded:
/// points, marks, dots and colours.
pub const SETTING_ITEMS: Limit = Limit {
    what: "items in one settings value after expanding its repeats",
    max: 1_000_000,
};

/// Dwell paths of a `hands` setting, all jugglers together.
pub const HAND_POINTS: Limit = Limit {
    what: "dwell paths in `hands`",
    max: 10_000,
};

/// Items of a `body` setting, all jugglers together: positions, left-out positions (`-`),
/// beat ends (`.`) and juggler separators (`|`).
pub const BODY_POSITIONS: Limit = Limit {
    what: "positions, `-`, `.` and `|` in `body`",
    max: 100_000,
};

/// Beats in one juggler's `body` cycle.
pub const BODY_BEATS: Limit = Limit {
    what: "beats in one juggler's `body` cycle",
    max: 256,
};

/// Positions one moving juggler passes through in its cycle (keyframes of its path: the
/// path's curve is fitted by a dense solve, cubic in their number).
pub const BODY_KEYFRAMES: Limit = Limit {
    what: "positions in one juggler's `body` cycle",
    max: 256,
};

/// `<position>`s of one juggler in a JML pattern given by events (keyframes of its path,
/// fitted like a `body` cycle's).
pub const EVENT_POSITIONS: Limit = Limit {
    what: "<position>s of one juggler",
    max: 256,
};

/// Prop colours of a `colors` setting.
pub const COLORS: Limit = Limit {
    what: "colours in `colors`",
    max: 10_000,
};

/// Beats in the period of a pattern the generator (`gen`) searches for.
pub const GEN_PERIOD: Limit = Limit {
    what: "beats in a generated pattern's period",
    max: 4096,
};

/// Cells of one generator search's tables (`gen`, `trans`): states and throws of every beat
/// of the period at every place and throw height, and the multiplexing filter's.
pub const GEN_CELLS: Limit = Limit {
    what: "cells in one generator search (period × throw height × throwing places)",
    max: 4_000_000,
};

/// Jugglers one plain siteswap may be shared by (`jugglers=N`, a k-handed siteswap; juggler
/// letters run A to Z).
pub const SHARING_JUGGLERS: Limit = Limit {
    what: "jugglers sharing one siteswap",
    max: 26,
};

/// Every limit, for documentation and tests.
pub const LIMITS: [Limit; 14] = [
    BEATS,
    THROWS,
    CYCLE_BEATS,
    CYCLE_THROWS,
    SETTING_ITEMS,
    HAND_POINTS,
    BODY_POSITIONS,
    BODY_BEATS,
    BODY_KEYFRAMES,
    EVENT_POSITIONS,
    COLORS,
    GEN_PERIOD,
    GEN_CELLS,
    SHARING_JUGGLERS,
];

/// A count over its limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("too large: {count} {}, more than the limit of {}", limit.what, limit.max)]
pub struct BudgetError {
    pub limit: Limit,
    /// The count asked for (saturated at `u128::MAX`).
    pub count: u128,
}

impl Limit {
    /// `Ok` when `count` is within this limit, else the error naming it.
    pub fn check(self, count: u128) -> Result<(), BudgetError> {
        if count <= u128::from(self.max) {
            Ok(())
        } else {
            Err(BudgetError { limit: self, count })
        }
    }
}

/// `Ok` when `count` is within `limit`, else the error naming it: call it with the size of
/// what is about to be allocated (computed with saturating arithmetic), before allocating.
pub fn check(limit: Limit, count: u128) -> Result<(), BudgetError> {
    limit.check(count)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_at_the_limit_passes_and_one_more_is_named() {
        assert_eq!(check(BODY_BEATS, 256), Ok(()));
        let err = check(BODY_BEATS, 257).unwrap_err();
        assert_eq!(
            err.to_string(),
            "too large: 257 beats in one juggler's `body` cycle, more than the limit of 256"
        );
        assert!(check(COLORS, u128::MAX).is_err());
    }

    #[test]
    fn every_limit_is_listed_once() {
        for (i, a) in LIMITS.iter().enumerate() {
            assert!(a.max > 0);
            assert!(LIMITS[i + 1..].iter().all(|b| b.what != a.what), "{a:?}");
        }
    }
}
