//! Parse errors: where the text stops making sense, what was there and what was expected.

use std::fmt;

/// Why a siteswap could not be parsed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParseErrorKind {
    /// A token the grammar does not allow at this place (the general syntax error).
    Unexpected,
    /// The pattern is empty.
    Empty,
    /// `?` (Juggling Lab's wildcard) is not supported.
    Wildcard,
    /// `P` (pass) written outside `<>`.
    PassInSolo,
    /// Passing groups (or solo throws beside them) with different juggler counts.
    InconsistentJugglers,
    /// The jugglers of one `<>` group cover different numbers of beats.
    InconsistentBeats,
    /// A repeat count that does not fit in 64 bits.
    NumberTooLarge,
    /// More than [`super::MAX_BEATS`] beats (or [`super::MAX_THROWS`] throws) after expansion.
    TooLarge,
    /// Brackets nested deeper than [`super::MAX_NESTING`].
    TooDeep,
    /// More digits after a decimal point than [`super::MAX_DECIMALS`].
    TooManyDecimals,
    /// Prechac notation: a pass to a letter past the last juggler (`pC` with 2 jugglers).
    NoSuchJuggler,
    /// Prechac notation: a throw to oneself with a fractional value.
    FractionalSelf,
    /// Prechac notation: the delay prefix lists another number of delays than jugglers.
    DelayCount,
    /// Prechac notation: no delays make the passes land on beats (the message names the
    /// juggler and both delays).
    InconsistentDelays,
    /// A k-handed siteswap for more jugglers than [`super::k_handed::MAX_JUGGLERS`].
    TooManyJugglers,
    /// `jugglers=N` that cannot hold: 0, or a passing pattern written for another number of
    /// jugglers (the message names both).
    JugglerCount,
    /// A k-handed siteswap with a sync pair, pass, hand specifier or `*`.
    NotKHanded,
    /// Prechac notation: a throw lands between its receiver's beats (the message names the
    /// time and the juggler).
    LandsOffBeat,
}

/// A siteswap that cannot be parsed, with the position of the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub kind: ParseErrorKind,
    /// 1-based character column in the input as given (the column of the last character when
    /// the input ended too early, as Juggling Lab does).
    pub column: usize,
    /// The offending token (a whole run of modifier letters or spaces), empty at end of input.
    pub found: String,
    /// What would have been accepted there, e.g. `a throw value or ')'`; empty when not a
    /// simple syntax error.
    pub expected: String,
    /// Extra detail for the non-syntax kinds.
    pub detail: String,
    /// The input the column refers to (one line, tabs and line breaks shown as spaces).
    pub input: String,
}

impl ParseError {
    /// The message alone, without the caret picture.
    pub fn message(&self) -> String {
        self.to_string()
    }

    /// The pattern on one line and a caret under the offending column, e.g.
    /// ```text
    /// 3 B
    ///   ^ expected a throw value
    /// ```
    pub fn caret(&self) -> String {
        let col = self.column.max(1);
        let pad = " ".repeat(col - 1);
        let note = if self.expected.is_empty() {
            self.detail.clone()
        } else {
            format!("expected {}", self.expected)
        };
        format!("{}\n{}^ {}", self.input, pad, note)
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            ParseErrorKind::Unexpected => {
                let found = if self.found.is_empty() {
                    "end of pattern".to_string()
                } else {
                    format!("'{}'", self.found)
                };
                write!(f, "cannot parse {} at column {}", found, self.column)?;
                if !self.expected.is_empty() {
                    write!(f, ": expected {}", self.expected)?;
                }
                Ok(())
            }
            _ => write!(f, "{} (column {})", self.detail, self.column),
        }
    }
}

impl std::error::Error for ParseError {}

/// Bit set of things the grammar would have accepted at a position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Expected(pub u32);

impl Expected {
    pub const VALUE: Expected = Expected(1);
    pub const COMMA: Expected = Expected(1 << 1);
    pub const CLOSE_PAREN: Expected = Expected(1 << 2);
    pub const CLOSE_BRACKET: Expected = Expected(1 << 3);
    pub const CLOSE_BRACE: Expected = Expected(1 << 4);
    pub const CLOSE_ANGLE: Expected = Expected(1 << 5);
    pub const BAR: Expected = Expected(1 << 6);
    pub const COUNT: Expected = Expected(1 << 7);
    pub const END: Expected = Expected(1 << 8);
    pub const THROW_START: Expected = Expected(1 << 9);
    pub const CARET: Expected = Expected(1 << 10);
    pub const STAR: Expected = Expected(1 << 11);
    pub const SPINS: Expected = Expected(1 << 12);
    pub const DECIMALS: Expected = Expected(1 << 13);
    pub const DELAY: Expected = Expected(1 << 14);

    const NAMES: [&'static str; 15] = [
        "a throw value",
        "','",
        "')'",
        "']'",
        "'}'",
        "'>'",
        "'|'",
        "a repeat count",
        "end of pattern",
        "a throw",
        "'^'",
        "'*'",
        "a number of spins (0 to 9)",
        "a digit after the decimal point",
        "a delay (a number of beats)",
    ];
    /// The order expectations are listed in (indices into `NAMES`).
    const ORDER: [usize; 15] = [14, 13, 12, 0, 9, 7, 1, 10, 11, 6, 2, 3, 4, 5, 8];

    pub fn union(self, other: Expected) -> Expected {
        Expected(self.0 | other.0)
    }

    /// Human list: `a throw value, ',' or ')'`.
    pub fn describe(self) -> String {
        // "a throw, ..." already covers "a throw value".
        let bits = if self.0 & Self::THROW_START.0 != 0 {
            self.0 & !Self::VALUE.0
        } else {
            self.0
        };
        let names: Vec<&str> = Self::ORDER
            .iter()
            .filter(|&&i| bits & (1 << i) != 0)
            .map(|&i| Self::NAMES[i])
            .collect();
        match names.len() {
            0 => String::new(),
            1 => names[0].to_string(),
            n => format!("{} or {}", names[..n - 1].join(", "), names[n - 1]),
        }
    }
}
