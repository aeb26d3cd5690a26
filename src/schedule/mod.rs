//! Validation and the throw schedule of a parsed pattern.
//!
//! The types below are what `motion`'s builders read.
//!
//! Invariants of a `Schedule` (the last stage that can fail; everything after it is total):
//! - `period >= 1`, `jugglers >= 1`;
//! - `throws` lists every throw element of one period with a non-zero value (multiplex
//!   elements separately; 0s are empty hands and are not listed), sorted by
//!   (beat, juggler, hand: right before left, multiplex position);
//! - for every throw `i`, `throws[i].next` is the index of the throw this same prop makes next,
//!   which is made by `throws[i].to` at beat `(beat + value) % period`; `next` is a permutation;
//! - the sum of all values equals `props * period`.

use serde::Serialize;

use crate::types::HandRef;

mod build;
mod error;
mod state;

pub use build::build;
pub use error::{Invalid, PatternError};
pub use state::Landings;

/// Parses and validates a siteswap: [`crate::notation::parse`] then [`build`].
pub fn from_notation(input: &str) -> Result<Schedule, PatternError> {
    let pattern = crate::notation::parse(input)?;
    Ok(build(&pattern)?)
}

/// How a prop leaves the hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ThrowKind {
    /// Thrown in the air (the default).
    Toss,
    /// Carried, not thrown (a held 2, `H`, same-hand 1x).
    Hold,
    /// Bounced off the floor `bounces` times; `forced` = thrown down; `hyper` flips the catch.
    Bounce {
        bounces: u8,
        forced: bool,
        hyper: bool,
    },
}

/// One throw element of one period.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ThrowEvent {
    /// Beat of the throw, 0-based, `< period`.
    pub beat: u32,
    pub from: HandRef,
    pub to: HandRef,
    /// Beats until this prop is thrown again (> 0).
    pub value: u32,
    /// Index into `Schedule::throws` of this prop's next throw.
    pub next: usize,
    pub kind: ThrowKind,
    /// Modifier letters as written (e.g. "BH"), empty when none.
    pub modifier: String,
    /// Byte range of this throw in the notation text.
    pub span: (usize, usize),
    /// Spins asked for with `~N` (0 = flat); `None` = the automatic choice.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spins: Option<u32>,
}

/// A cycle of throws that some props go through.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Orbit {
    /// Indices into `Schedule::throws`, in the order a prop makes them.
    pub throws: Vec<usize>,
    /// How many props travel this orbit (= sum of its values / period).
    pub props: usize,
}

/// Everything later stages need to know about a valid pattern.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Schedule {
    pub jugglers: usize,
    /// Beats in one period after expansion of repeats, `*` and auto-mirroring.
    pub period: u32,
    /// The period as the pattern is written: `period` without Juggling Lab's
    /// auto-mirroring (`531` has `period` 6 but `pattern_period` 3). What `check` reports.
    pub pattern_period: u32,
    pub throws: Vec<ThrowEvent>,
    /// Props of all jugglers together.
    pub props: usize,
    /// Whether the pattern contains sync throws.
    pub sync: bool,
    pub max_throw: u32,
    pub ground_state: bool,
    pub orbits: Vec<Orbit>,
    /// The second half of the period repeats the first with hands swapped (`*` or Juggling
    /// Lab's auto-mirroring of odd vanilla patterns).
    pub mirrored: bool,
    /// The landing schedule at the start of a period, per juggler: left hand, then right.
    pub state: Vec<Landings>,
}

impl Schedule {
    /// The orbits as the pattern is written: for an auto-mirrored pattern (`531` played as
    /// `531*`) an orbit and its mirror image are one orbit, listed once per written throw
    /// (`531`: `5 1` with 2 props and `3` with 1). Otherwise the same as `orbits`.
    /// Throw indices refer to `throws`.
    pub fn written_orbits(&self) -> Vec<Orbit> {
        if self.pattern_period == self.period {
            return self.orbits.clone();
        }
        let pp = self.pattern_period;
        let id = |i: usize| {
            let t = &self.throws[i];
            (t.beat % pp, t.from.juggler, t.span.0)
        };
        let mut groups: Vec<Orbit> = Vec::new();
        let mut group_of: std::collections::HashMap<(u32, usize, usize), usize> =
            std::collections::HashMap::new();
        for orbit in &self.orbits {
            if let Some(&g) = orbit.throws.iter().find_map(|&i| group_of.get(&id(i))) {
                groups[g].props += orbit.props;
                continue;
            }
            let mut throws = Vec::new();
            for &i in &orbit.throws {
                if group_of.contains_key(&id(i)) {
                    break;
                }
                group_of.insert(id(i), groups.len());
                throws.push(i);
            }
            groups.push(Orbit {
                throws,
                props: orbit.props,
            });
        }
        groups
    }
}

#[cfg(test)]
mod tests;
