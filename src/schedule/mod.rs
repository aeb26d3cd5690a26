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

/// Parses and validates the pattern of `jugglers=N` ([`crate::notation::parse_shared`]: a
/// plain siteswap shared by `shared_by` jugglers), then [`build`].
pub fn from_notation_shared(
    input: &str,
    shared_by: Option<usize>,
) -> Result<Schedule, PatternError> {
    let pattern = crate::notation::parse_shared(input, shared_by)?;
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

impl ThrowEvent {
    /// The throw as written in `notation` (the text the schedule was built from), spaces
    /// left out: `5`, `3p`, `2x`, `5B`; its value in siteswap digits when the span is not
    /// in `notation` (see [`value_text`]).
    pub fn text(&self, notation: &str) -> String {
        let written: String = notation
            .get(self.span.0..self.span.1)
            .unwrap_or("")
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        if written.is_empty() {
            value_text(self.value)
        } else {
            written
        }
    }
}

/// A throw value in siteswap digits: `0`–`9`, then `a`–`z` for 10–35, beyond that the
/// number in braces (`{40}`).
pub fn value_text(value: u32) -> String {
    match char::from_digit(value, 36) {
        Some(c) => c.to_string(),
        None => format!("{{{value}}}"),
    }
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
    /// Beats of this schedule per beat of a juggler: 1, except for Prechac notation and
    /// k-handed siteswaps, whose beats are fine beats (`<3.5p|3.5px>` and the four-handed
    /// `7`: 2, so juggler B throws a fine beat after juggler A). Every `beat`, `value` and
    /// `period` above is in these beats.
    #[serde(skip_serializing_if = "is_one")]
    pub subdivision: u32,
    /// Each juggler's delay in their own beats (Prechac notation; empty otherwise).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub delays: Vec<crate::notation::Ratio>,
}

fn is_one(n: &u32) -> bool {
    *n == 1
}

impl Schedule {
    /// A number of this schedule's beats in beats of a juggler (fine beats of Prechac
    /// notation divided out): what timing tables, dwell and spins are meant in.
    pub fn juggler_beats(&self, beats: u32) -> f64 {
        f64::from(beats) / f64::from(self.subdivision.max(1))
    }

    /// A throw of a schedule on fine beats as its juggler counts it: its value in the
    /// jugglers' beats, `p` and the catcher's letter for a pass (`4.5pB`, `3`; `975` shared
    /// by two is written `9`). `None` on whole beats, where the text as written says it.
    pub fn own_text(&self, t: &ThrowEvent) -> Option<String> {
        if self.subdivision <= 1 {
            return None;
        }
        let pass = if t.to.juggler == t.from.juggler {
            String::new()
        } else {
            format!("p{}", crate::notation::juggler_letter(t.to.juggler))
        };
        let value = crate::notation::Ratio::new(u64::from(t.value), u64::from(self.subdivision))
            .map_or_else(|| t.value.to_string(), |r| r.to_string());
        Some(format!("{value}{pass}"))
    }

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
