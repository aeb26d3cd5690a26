//! Siteswap notation: text -> syntax tree -> expanded period.
//!
//! Accepts everything Juggling Lab 1.6.6's siteswap notation accepts (see NOTATION.md), with
//! juggler's documented differences (`P`/`X` as pass/cross, bounded `pN`, no wildcard, size
//! limits). `notation` knows nothing about validity rules, seconds or metres: those are
//! `schedule`'s and `motion`'s.
//!
//! ```
//! let p = juggler::notation::parse("(4,2x)*").unwrap();
//! assert_eq!(p.expanded.period, 4);
//! ```

pub mod ast;
pub mod error;
pub mod expand;
mod grammar;
pub mod hss;
pub mod k_handed;
pub mod prechac;
mod slot;

pub use ast::{
    DecimalNumber, Decimals, DelayPrefix, Element, Group, Item, Modifier, ModifierKind, Multi,
    Pair, PassGroup, PassTarget, PatternNode, Span, Throw,
};
pub use error::{ParseError, ParseErrorKind};
pub use expand::{Expansion, Slot, MAX_BEATS, MAX_THROWS};
pub use grammar::{MAX_DECIMALS, MAX_NESTING, MAX_SPINS};
pub use k_handed::{local_view, parse_k_handed, parse_shared, LocalThrow};
pub use prechac::Ratio;

use error::Expected;

/// A parsed and expanded siteswap.
#[derive(Clone, Debug, PartialEq)]
pub struct Pattern {
    /// The notation the spans index: the input with tabs and line breaks removed, trimmed.
    pub text: String,
    /// The syntax tree as written.
    pub root: PatternNode,
    /// Prechac notation's `{d1,d2,...}` before the pattern, if written.
    pub delays: Option<DelayPrefix>,
    /// One period with repeats, `*`, hands and auto-mirroring applied.
    pub expanded: Expansion,
}

impl Pattern {
    /// Number of jugglers (1 for solo patterns).
    pub fn jugglers(&self) -> usize {
        self.expanded.jugglers
    }

    /// The text of a span.
    pub fn slice(&self, span: Span) -> &str {
        self.text.get(span.start..span.end).unwrap_or("")
    }
}

/// Parses a siteswap in Juggling Lab's notation and expands it to one period.
///
/// Never panics; errors carry the 1-based column of the problem in `input`.
pub fn parse(input: &str) -> Result<Pattern, ParseError> {
    let cleaned = Cleaned::new(input);
    let text = cleaned.text.as_str();
    if text.is_empty() {
        return Err(cleaned.error(ParseErrorKind::Empty, 0, Expected::default()));
    }
    if let Some(at) = too_deep(text) {
        return Err(cleaned.error(ParseErrorKind::TooDeep, at, Expected::default()));
    }
    let cx = grammar::Ctx::new(text);
    let Some((delays, root)) = grammar::input(&cx, text) else {
        return Err(match cx.fatal.get() {
            Some((at, kind)) => cleaned.error(kind, at, Expected::default()),
            None => {
                let (at, expected) = cx.furthest();
                cleaned.error(ParseErrorKind::Unexpected, at, expected)
            }
        });
    };
    let reading = if cx.prechac {
        expand::Reading::Prechac(delays.as_ref())
    } else {
        expand::Reading::JugglingLab
    };
    let expanded = expand::expand(&root, reading).map_err(|e| {
        let mut error = cleaned.error(e.kind, e.at, Expected::default());
        if let Some(detail) = e.detail {
            error.detail = detail;
        }
        error
    })?;
    Ok(Pattern {
        text: cleaned.text,
        root,
        delays,
        expanded,
    })
}

/// The error `kind` at byte offset `at` of the cleaned `input` (the offsets spans use).
pub(crate) fn error_at(input: &str, kind: ParseErrorKind, at: usize) -> ParseError {
    Cleaned::new(input).error(kind, at, Expected::default())
}

/// A juggler's letter as passers write it (`A` = juggler 0), or the number past 26.
pub fn juggler_letter(juggler: usize) -> String {
    match u8::try_from(juggler) {
        Ok(n) if n < 26 => char::from(b'A' + n).to_string(),
        _ => (juggler + 1).to_string(),
    }
}

/// Where `(` nesting first exceeds [`MAX_NESTING`] (+1 for a sync pair inside the deepest
/// group): a cheap guard before the recursive grammar (groups are its only recursion).
fn too_deep(text: &str) -> Option<usize> {
    let mut depth: usize = 0;
    for (at, c) in text.char_indices() {
        match c {
            '(' => {
                depth += 1;
                if depth > MAX_NESTING + 1 {
                    return Some(at);
                }
            }
            ')' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

/// The input without tabs and line breaks, trimmed, with the original column of each byte.
struct Cleaned {
    original: String,
    text: String,
    /// For each byte of `text`, the 1-based column in `original` of its character.
    columns: Vec<usize>,
}

impl Cleaned {
    fn new(input: &str) -> Self {
        let mut text = String::with_capacity(input.len());
        let mut columns = Vec::with_capacity(input.len());
        for (col, c) in input.chars().enumerate() {
            if matches!(c, '\t' | '\r' | '\n') {
                continue;
            }
            text.push(c);
            columns.extend(std::iter::repeat_n(col + 1, c.len_utf8()));
        }
        let end = text.trim_end().len();
        text.truncate(end);
        columns.truncate(end);
        let start = text.len() - text.trim_start().len();
        text.drain(..start);
        columns.drain(..start);
        let original = input
            .chars()
            .map(|c| if c.is_whitespace() { ' ' } else { c })
            .collect();
        Cleaned {
            original,
            text,
            columns,
        }
    }

    /// Column of the byte offset `at` of `text`; the end maps to the last character (as in
    /// Juggling Lab).
    fn column(&self, at: usize) -> usize {
        self.columns
            .get(at)
            .or(self.columns.last())
            .copied()
            .unwrap_or(1)
    }

    /// The token at `at`: a run of modifier letters or spaces, else one character.
    fn token(&self, at: usize) -> String {
        let rest = self.text.get(at..).unwrap_or("");
        let Some(first) = rest.chars().next() else {
            return String::new();
        };
        let run = |f: fn(&char) -> bool| rest.chars().take_while(f).collect::<String>();
        if first == ' ' {
            run(|c| *c == ' ')
        } else if first.is_ascii_uppercase() && first != 'L' && first != 'R' {
            run(char::is_ascii_uppercase)
        } else {
            first.to_string()
        }
    }

    fn error(&self, kind: ParseErrorKind, at: usize, expected: Expected) -> ParseError {
        let expected = if kind == ParseErrorKind::Unexpected {
            expected.describe()
        } else {
            String::new()
        };
        let detail = match kind {
            ParseErrorKind::Unexpected => String::new(),
            ParseErrorKind::Empty => "no pattern given".into(),
            ParseErrorKind::Wildcard => "wildcard '?' is not supported".into(),
            ParseErrorKind::PassInSolo => "pass 'P' in a solo pattern (passes need <..|..>)".into(),
            ParseErrorKind::InconsistentJugglers => "inconsistent number of jugglers".into(),
            ParseErrorKind::InconsistentBeats => "inconsistent number of beats between jugglers".into(),
            ParseErrorKind::NumberTooLarge => "repeat count too large".into(),
            ParseErrorKind::TooLarge => format!(
                "pattern too large: more than {MAX_BEATS} beats or {MAX_THROWS} throws after expansion"
            ),
            ParseErrorKind::TooDeep => format!("brackets nested more than {MAX_NESTING} deep"),
            ParseErrorKind::TooManyDecimals => {
                format!("more than {MAX_DECIMALS} digits after the decimal point")
            }
            ParseErrorKind::NoSuchJuggler => format!(
                "pass to juggler {} of a pattern without one",
                self.token(at)
            ),
            ParseErrorKind::FractionalSelf => {
                "a throw to oneself cannot have a fractional value (only passes can)".into()
            }
            ParseErrorKind::TooManyJugglers => format!(
                "a siteswap can be shared by at most {} jugglers",
                k_handed::MAX_JUGGLERS
            ),
            ParseErrorKind::NotKHanded => {
                "a siteswap shared by several jugglers must be asynchronous, without passes, sync pairs, hand specifiers or '*'".into()
            }
            // Their messages come with the error (`error_with`).
            ParseErrorKind::DelayCount
            | ParseErrorKind::JugglerCount
            | ParseErrorKind::InconsistentDelays
            | ParseErrorKind::LandsOffBeat => String::new(),
        };
        let column = if self.text.is_empty() {
            1
        } else {
            self.column(at)
        };
        ParseError {
            kind,
            column,
            found: self.token(at),
            expected,
            detail,
            input: self.original.clone(),
        }
    }
}

#[cfg(test)]
mod tests;
