//! The output side of pattern data: what a scene or pattern is written as (JSON of poses,
//! Juggling Lab's JML, juggler's TOML). Readers of pattern files live in `files`; this module
//! only writes.

pub mod jif;
pub mod jml;
pub mod pose;
pub mod toml;

use thiserror::Error;

/// Why a pattern cannot be written in a format.
#[derive(Debug, Error, PartialEq)]
pub enum ConvertError {
    /// A pattern given by its events, asked for in a format that holds siteswaps only.
    #[error(
        "pattern '{name}' is given by its events, and a {format} pattern file holds siteswaps only"
    )]
    NoSiteswap { name: String, format: &'static str },
    /// A siteswap shared by several jugglers (`jugglers=N`) whose jugglers also stand at
    /// given places: TOML's `jugglers` holds one or the other.
    #[error("pattern '{name}' has both jugglers={shared_by} and the jugglers' places, and TOML's `jugglers` holds one of them")]
    SharedAndPlaced { name: String, shared_by: usize },
    /// A pattern with a throw modifier the format cannot hold (a bounce or hold in JIF, a
    /// spin `~N` in JML): said, never dropped.
    #[error("pattern '{name}' has the throw modifier '{modifier}' (beat {beat}), and a {format} file cannot hold it; write it to {}", if *format == "JIF" { ".jml or .toml" } else { ".jif or .toml" })]
    Modifier {
        name: String,
        modifier: String,
        beat: u32,
        format: &'static str,
    },
    /// A pattern whose written loop (until every prop is back) would list too many throws.
    #[error("pattern '{name}' would list {throws} throws before its props are back in place, more than the limit of 100000")]
    TooLarge { name: String, throws: u128 },
}
