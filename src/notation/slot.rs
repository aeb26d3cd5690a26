//! One throw element of an expanded period, and the error expanding can end with (shared by
//! the expansion and Prechac's fine beats).

use super::ast::{Modifier, Span};
use super::error::ParseErrorKind;
use crate::types::Hand;

/// One throw element of the expanded period (0s included: they are empty catch slots).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    /// 0-based beat in the period.
    pub beat: u32,
    /// 0-based juggler.
    pub juggler: usize,
    pub hand: Hand,
    /// Position inside a multiplex (0 for a plain throw).
    pub index: usize,
    pub value: u32,
    /// 0-based receiving juggler.
    pub to_juggler: usize,
    pub to_hand: Hand,
    pub modifier: Option<Modifier>,
    /// `~N`: spins asked for this throw (`None` = automatic).
    pub spins: Option<u8>,
    /// Written as part of a sync pair.
    pub sync: bool,
    /// The throw's text.
    pub span: Span,
}

/// A semantic error found while expanding: its kind, byte offset and, for the kinds whose
/// message holds numbers (Prechac delays and times), the message.
#[derive(Debug)]
pub(crate) struct ExpandError {
    pub at: usize,
    pub kind: ParseErrorKind,
    pub detail: Option<String>,
}

impl ExpandError {
    pub fn new(at: usize, kind: ParseErrorKind) -> Self {
        ExpandError {
            at,
            kind,
            detail: None,
        }
    }

    pub fn with_detail(at: usize, kind: ParseErrorKind, detail: String) -> Self {
        ExpandError {
            at,
            kind,
            detail: Some(detail),
        }
    }
}

/// Right before left, the order Juggling Lab processes hands in.
pub fn hand_order(hand: Hand) -> u8 {
    match hand {
        Hand::Right => 0,
        Hand::Left => 1,
    }
}
