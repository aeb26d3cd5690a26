//! The syntax tree of a siteswap, as written (before expansion).
//!
//! Every node carries the byte span of its text in [`super::Pattern::text`]. Nothing here is
//! resolved yet: repeats, `*` and hands are applied by [`super::expand`].

use crate::types::Hand;

/// A byte range `start..end` in the notation text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }
}

/// `pattern = element {element} ["*"]`: a sequence of elements, optionally followed by a copy
/// with the hands swapped (`*`).
#[derive(Clone, Debug, PartialEq)]
pub struct PatternNode {
    pub elements: Vec<Element>,
    /// A trailing `*`: repeat everything with left and right hands swapped.
    pub mirror: bool,
    pub span: Span,
}

/// One element of a pattern.
#[derive(Clone, Debug, PartialEq)]
pub enum Element {
    /// `(pattern^N)`.
    Group(Group),
    /// Throws of a single juggler outside `<>`.
    Solo(Vec<Item>),
    /// `<..|..><..|..>`: one or more passing groups in a row.
    Passing(Vec<PassGroup>),
}

/// `group = "(" pattern ["^" number] ")"`.
#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    pub pattern: Box<PatternNode>,
    /// How often the inner pattern is played (1 when no `^N` is written; may be 0).
    pub repeats: u64,
    pub span: Span,
}

/// `<s1|s2|...>`: one sequence of items per juggler (juggler 0 first).
#[derive(Clone, Debug, PartialEq)]
pub struct PassGroup {
    pub parts: Vec<Vec<Item>>,
    pub span: Span,
}

/// One item of a juggler's sequence.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// An async throw or multiplex: one beat, one hand.
    Multi(Multi),
    /// `(left,right)`: both hands throw on one beat.
    Pair(Pair),
    /// `R` or `L`: the next async throw is made by this hand (takes no beat).
    HandSpec { hand: Hand, span: Span },
}

/// A single throw or a multiplex `[..]`/`{..}` (a one-element multiplex is a plain throw).
#[derive(Clone, Debug, PartialEq)]
pub struct Multi {
    pub throws: Vec<Throw>,
    /// Written with brackets.
    pub bracketed: bool,
    pub span: Span,
}

/// `pair = "(" multi "," multi ")" ["!"]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Pair {
    /// The first slot: the LEFT hand's throw (as in Juggling Lab).
    pub left: Multi,
    /// The second slot: the RIGHT hand's throw.
    pub right: Multi,
    /// A trailing `!`: the pair takes one beat instead of two.
    pub bang: bool,
    pub span: Span,
}

/// Where a pass goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PassTarget {
    /// `p`: the next juggler (the last one passes to the first).
    Next,
    /// `pN`: juggler `N`, stored 0-based.
    Juggler(usize),
    /// `pB` (Prechac notation, the passing community's letters): juggler `B`, stored 0-based.
    Letter(usize),
}

/// The digits written after a decimal point (`3.5` -> 5 in 1 place, `1.67` -> 67 in 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decimals {
    pub digits: u32,
    pub places: u8,
}

/// A number with optional decimals, as a delay in `{0,0.5}` is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DecimalNumber {
    pub whole: u64,
    pub decimals: Option<Decimals>,
    pub span: Span,
}

/// `{d1,d2,...}` before a passing pattern (Prechac notation): each juggler's delay in beats.
#[derive(Clone, Debug, PartialEq)]
pub struct DelayPrefix {
    pub delays: Vec<DecimalNumber>,
    pub span: Span,
}

/// What a modifier asks for, decided by its first letter (NOTATION.md §5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModifierKind {
    /// `B…`: bounce off the floor `bounces` times; `F` anywhere = forced (thrown down),
    /// `H` anywhere = hyper.
    Bounce {
        bounces: u8,
        forced: bool,
        hyper: bool,
    },
    /// `F…`: a forced single bounce.
    Forced,
    /// `H…`: carried, not thrown.
    Hold,
    /// `T…`: a plain toss.
    Toss,
    /// Any other first letter: a toss (Juggling Lab ignores it silently).
    Other,
}

/// The uppercase letters after a throw, with their meaning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Modifier {
    pub kind: ModifierKind,
    /// The letters as written, e.g. `BHF`.
    pub span: Span,
}

impl Modifier {
    /// The meaning of a run of modifier letters (`letters` is non-empty and uppercase).
    pub fn classify(letters: &str) -> ModifierKind {
        match letters.as_bytes().first() {
            Some(b'B') => {
                let bounces = letters.bytes().filter(|&c| c == b'B').count();
                ModifierKind::Bounce {
                    bounces: u8::try_from(bounces).unwrap_or(u8::MAX),
                    forced: letters.contains('F'),
                    hyper: letters.contains('H'),
                }
            }
            Some(b'F') => ModifierKind::Forced,
            Some(b'H') => ModifierKind::Hold,
            Some(b'T') => ModifierKind::Toss,
            _ => ModifierKind::Other,
        }
    }
}

/// `throw = value ["x"] ["p" [number]] [modifier] ["/"]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Throw {
    /// Beats until the prop is thrown again (0..=35); the whole part of a Prechac value.
    pub value: u32,
    /// Prechac notation: the decimals of a fractional value (`3.5p`), inside `<>` only.
    pub decimals: Option<Decimals>,
    /// `x`: land in the other hand than the value's parity says (in Prechac notation, after
    /// a pass: a crossed pass, landing in the same hand).
    pub cross: bool,
    /// `p`/`pN` inside `<>`.
    pub pass: Option<PassTarget>,
    pub modifier: Option<Modifier>,
    /// `~N` (juggler's own notation, not Juggling Lab's): the prop turns N times in this
    /// throw (0 = flat); `None` = the automatic choice.
    pub spins: Option<u8>,
    pub span: Span,
}
