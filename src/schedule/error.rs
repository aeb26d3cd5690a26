//! Why a parsed pattern cannot be juggled.

use thiserror::Error;

use crate::notation::{juggler_letter, ParseError, Ratio, Span};
use crate::types::Hand;

/// A validity rule a parsed pattern breaks (Juggling Lab's messages where it has one).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum Invalid {
    /// Nothing takes a beat (`R`, `(3^0)`).
    #[error("Pattern has no beats: nothing is thrown")]
    NoBeats,
    /// The values do not sum to a multiple of the period.
    #[error("Invalid pattern average: the throws sum to {sum} over {period} beats, not a whole number of props")]
    Average { sum: u64, period: u32 },
    /// Prechac notation: the values (in the jugglers' beats) do not sum to a multiple of the
    /// period.
    #[error("Invalid pattern average: the throws sum to {sum} beats over a period of {period} beats, not a whole number of props")]
    AverageOf { sum: Ratio, period: Ratio },
    /// A hand must catch more props on a beat than it throws there (or throws nothing).
    /// `beat` is Juggling Lab's number: 0-based beat of the throw + value + 1.
    #[error("Pattern is not valid: too many objects landing on beat {beat} for juggler {}, {} hand", juggler + 1, hand.name())]
    Collision {
        juggler: usize,
        hand: Hand,
        beat: u64,
        span: Span,
    },
    /// Prechac notation: a hand must catch more props at a time than it throws there.
    /// `time` is when they land, in the jugglers' beats.
    #[error("Pattern is not valid: too many objects landing at time {time} for juggler {}, {} hand", juggler_letter(*juggler), hand.name())]
    CollisionAt {
        juggler: usize,
        hand: Hand,
        time: Ratio,
        span: Span,
    },
    /// A hold (`H`) that would end in the other hand.
    #[error("Hand changed during carry: the held throw on beat {} (juggler {}, {} hand) lands in the other hand", beat + 1, juggler + 1, hand.name())]
    HandChangedDuringCarry {
        juggler: usize,
        hand: Hand,
        beat: u32,
        span: Span,
    },
    /// A hold (`H`) passed to another juggler.
    #[error("Juggler number changed during carry: the held throw on beat {} (juggler {}, {} hand) is a pass", beat + 1, juggler + 1, hand.name())]
    JugglerChangedDuringCarry {
        juggler: usize,
        hand: Hand,
        beat: u32,
        span: Span,
    },
    /// A modifier other than `H` on a `0`. `beat` is 1-based, as Juggling Lab prints it.
    #[error("Can't add modifier '{modifier}' to 0 throw on beat {beat}")]
    ModifierOnZero {
        modifier: String,
        beat: u32,
        span: Span,
    },
    /// A spin (`~N`, juggler's own notation) on a `0`, which throws nothing. `beat` is
    /// 1-based.
    #[error("a 0 throws nothing and takes no spin '~{spins}' (beat {beat})")]
    SpinOnZero { spins: u32, beat: u32, span: Span },
}

impl Invalid {
    /// The beat the message names, if any.
    pub fn beat(&self) -> Option<u64> {
        match self {
            Invalid::NoBeats
            | Invalid::Average { .. }
            | Invalid::AverageOf { .. }
            | Invalid::CollisionAt { .. } => None,
            Invalid::Collision { beat, .. } => Some(*beat),
            Invalid::HandChangedDuringCarry { beat, .. }
            | Invalid::JugglerChangedDuringCarry { beat, .. } => Some(u64::from(*beat) + 1),
            Invalid::ModifierOnZero { beat, .. } | Invalid::SpinOnZero { beat, .. } => {
                Some(u64::from(*beat))
            }
        }
    }

    /// The time the message names in the jugglers' beats (Prechac notation, shared
    /// siteswaps: a collision between the beats), if any.
    pub fn time(&self) -> Option<Ratio> {
        match self {
            Invalid::CollisionAt { time, .. } => Some(*time),
            _ => None,
        }
    }

    /// The text of the throw at fault, if one is.
    pub fn span(&self) -> Option<Span> {
        match self {
            Invalid::NoBeats | Invalid::Average { .. } | Invalid::AverageOf { .. } => None,
            Invalid::Collision { span, .. }
            | Invalid::CollisionAt { span, .. }
            | Invalid::HandChangedDuringCarry { span, .. }
            | Invalid::JugglerChangedDuringCarry { span, .. }
            | Invalid::ModifierOnZero { span, .. }
            | Invalid::SpinOnZero { span, .. } => Some(*span),
        }
    }
}

/// Any reason a siteswap string is not a juggleable pattern.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PatternError {
    #[error("{0}")]
    Syntax(ParseError),
    #[error("{0}")]
    Invalid(Invalid),
}

impl PatternError {
    /// `"syntax"` or `"invalid"` (the JSON `kind`).
    pub fn kind(&self) -> &'static str {
        match self {
            PatternError::Syntax(_) => "syntax",
            PatternError::Invalid(_) => "invalid",
        }
    }

    /// 1-based column of a syntax error.
    pub fn column(&self) -> Option<usize> {
        match self {
            PatternError::Syntax(e) => Some(e.column),
            PatternError::Invalid(_) => None,
        }
    }

    /// The beat an invalid pattern fails on, numbered as in the message.
    pub fn beat(&self) -> Option<u64> {
        match self {
            PatternError::Syntax(_) => None,
            PatternError::Invalid(e) => e.beat(),
        }
    }

    /// The time in the jugglers' beats an invalid Prechac pattern fails at ([`Invalid::time`]).
    pub fn time(&self) -> Option<Ratio> {
        match self {
            PatternError::Syntax(_) => None,
            PatternError::Invalid(e) => e.time(),
        }
    }
}

impl From<ParseError> for PatternError {
    fn from(e: ParseError) -> Self {
        PatternError::Syntax(e)
    }
}

impl From<Invalid> for PatternError {
    fn from(e: Invalid) -> Self {
        PatternError::Invalid(e)
    }
}
