//! Expansion of the syntax tree into the throws of one period.
//!
//! Applies repeats `^N`, `*` (copy with hands swapped), hand specifiers, the alternation of
//! async throws and Juggling Lab's auto-mirroring of odd vanilla patterns, all on parsed
//! values. Checks the juggler and beat counts and the size limits first, so nothing big is
//! ever allocated for a pattern that will be refused.

use super::ast::{Element, Item, Modifier, Multi, PassTarget, PatternNode, Span};
use super::error::ParseErrorKind;
use crate::types::Hand;

/// Most beats a pattern may have after expansion. With [`MAX_THROWS`] this bounds the memory
/// of every command by what it draws or prints, not by a written repeat count: a period at the
/// limit takes about 130 MB to animate (`pose`, `export`, window) and 6 MB of `check --json`
/// output, while `([4444]^1000000)` (17 bytes) is refused instead of needing 2.9 GB. The
/// number is the resource budget's ([`crate::budget::BEATS`]).
pub const MAX_BEATS: u64 = crate::budget::BEATS.max;
/// Most throw elements (all jugglers, hands and multiplex positions, 0s included) after
/// expansion ([`crate::budget::THROWS`]).
pub const MAX_THROWS: u64 = crate::budget::THROWS.max;

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

/// The expanded period of a pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expansion {
    /// Beats in one period (0 only for degenerate input such as `R` or `(3^0)`).
    pub period: u32,
    pub jugglers: usize,
    /// The second half of the period is the first with hands swapped (a top-level `*` or
    /// auto-mirroring).
    pub mirrored: bool,
    /// The mirroring was added by Juggling Lab's rule for odd vanilla patterns (`531` is
    /// played as `531*`), not written.
    pub auto_mirrored: bool,
    /// Sorted by beat, juggler, hand (right before left) and multiplex position.
    pub slots: Vec<Slot>,
}

/// A semantic error found while expanding: its kind and byte offset.
pub(crate) type ExpandError = (usize, ParseErrorKind);

/// Checks and expands a parsed pattern.
pub(crate) fn expand(root: &PatternNode) -> Result<Expansion, ExpandError> {
    let jugglers = juggler_count(root, &mut None)?;
    let size = measure(root)?;
    let mut beats = size.beats;
    if beats > MAX_BEATS || size.throws > MAX_THROWS {
        return Err((root.span.start, ParseErrorKind::TooLarge));
    }
    let mut walk = Walk {
        jugglers,
        right_on_even: vec![true; jugglers],
        beat: 0,
        vanilla: true,
        slots: Vec::with_capacity(usize::try_from(size.throws).unwrap_or(0)),
    };
    walk.pattern(root);
    let auto_mirror = !root.mirror && walk.vanilla && !beats.is_multiple_of(2);
    if auto_mirror {
        if beats * 2 > MAX_BEATS || size.throws * 2 > MAX_THROWS {
            return Err((root.span.start, ParseErrorKind::TooLarge));
        }
        walk.mirror_from(0, 0);
        beats *= 2;
    }
    let mut slots = walk.slots;
    slots.sort_by_key(|s| (s.beat, s.juggler, hand_order(s.hand), s.index));
    Ok(Expansion {
        period: u32::try_from(beats).unwrap_or(u32::MAX),
        jugglers,
        mirrored: root.mirror || auto_mirror,
        auto_mirrored: auto_mirror,
        slots,
    })
}

/// Right before left, the order Juggling Lab processes hands in.
pub fn hand_order(hand: Hand) -> u8 {
    match hand {
        Hand::Right => 0,
        Hand::Left => 1,
    }
}

/// The number of jugglers, checking that every element agrees (`seen` = count found so far).
fn juggler_count(node: &PatternNode, seen: &mut Option<usize>) -> Result<usize, ExpandError> {
    for element in &node.elements {
        let (count, at) = match element {
            Element::Group(g) => (juggler_count(&g.pattern, seen)?, g.span.start),
            Element::Solo(items) => (1, item_start(items)),
            Element::Passing(groups) => {
                for g in groups {
                    check_count(seen, g.parts.len(), g.span.start)?;
                }
                continue;
            }
        };
        check_count(seen, count, at)?;
    }
    Ok(seen.unwrap_or(1))
}

fn check_count(seen: &mut Option<usize>, count: usize, at: usize) -> Result<(), ExpandError> {
    match *seen {
        Some(n) if n != count => Err((at, ParseErrorKind::InconsistentJugglers)),
        _ => {
            *seen = Some(count);
            Ok(())
        }
    }
}

fn item_start(items: &[Item]) -> usize {
    match items.first() {
        Some(Item::Multi(m)) => m.span.start,
        Some(Item::Pair(p)) => p.span.start,
        Some(Item::HandSpec { span, .. }) => span.start,
        None => 0,
    }
}

/// Beats and throw elements of a subtree after expansion (saturating: only compared with
/// the limits).
#[derive(Clone, Copy, Default)]
struct Size {
    beats: u64,
    throws: u64,
}

impl Size {
    fn add(self, other: Size) -> Size {
        Size {
            beats: self.beats.saturating_add(other.beats),
            throws: self.throws.saturating_add(other.throws),
        }
    }
    fn times(self, n: u64) -> Size {
        Size {
            beats: self.beats.saturating_mul(n),
            throws: self.throws.saturating_mul(n),
        }
    }
}

fn measure(node: &PatternNode) -> Result<Size, ExpandError> {
    let mut size = Size::default();
    for element in &node.elements {
        let s = match element {
            Element::Group(g) => measure(&g.pattern)?.times(g.repeats),
            Element::Solo(items) => measure_items(items),
            Element::Passing(groups) => {
                let mut total = Size::default();
                for g in groups {
                    let mut beats = None;
                    for part in &g.parts {
                        let s = measure_items(part);
                        if beats.is_some_and(|b| b != s.beats) {
                            return Err((g.span.start, ParseErrorKind::InconsistentBeats));
                        }
                        beats = Some(s.beats);
                        total.throws = total.throws.saturating_add(s.throws);
                    }
                    total.beats = total.beats.saturating_add(beats.unwrap_or(0));
                }
                total
            }
        };
        size = size.add(s);
    }
    Ok(if node.mirror { size.times(2) } else { size })
}

/// Beats of a subtree (saturating), ignoring errors.
fn measure_beats(node: &PatternNode) -> u64 {
    measure(node).map(|s| s.beats).unwrap_or(u64::MAX)
}

fn measure_items(items: &[Item]) -> Size {
    items.iter().fold(Size::default(), |acc, item| {
        acc.add(match item {
            Item::Multi(m) => Size {
                beats: 1,
                throws: m.throws.len() as u64,
            },
            Item::Pair(p) => Size {
                beats: if p.bang { 1 } else { 2 },
                throws: (p.left.throws.len() + p.right.throws.len()) as u64,
            },
            Item::HandSpec { .. } => Size::default(),
        })
    })
}

/// The state of the expansion walk (Juggling Lab's "first pass").
struct Walk {
    jugglers: usize,
    /// Per juggler: are async throws on even beats made by the right hand?
    right_on_even: Vec<bool>,
    /// Absolute beat of the next item.
    beat: u64,
    /// No pair, no `x`, no hand specifier after beat 0 so far.
    vanilla: bool,
    slots: Vec<Slot>,
}

impl Walk {
    fn pattern(&mut self, node: &PatternNode) {
        let (first_slot, first_beat) = (self.slots.len(), self.beat);
        for element in &node.elements {
            match element {
                Element::Group(g) => {
                    // Repeating something without beats changes nothing after the first time.
                    let repeats = if g.repeats > 1 && measure_beats(&g.pattern) == 0 {
                        1
                    } else {
                        g.repeats
                    };
                    for _ in 0..repeats {
                        self.pattern(&g.pattern);
                    }
                }
                Element::Solo(items) => {
                    let start = self.beat;
                    self.beat = self.items(0, items, start);
                }
                Element::Passing(groups) => {
                    for g in groups {
                        let start = self.beat;
                        let mut end = start;
                        for (j, part) in g.parts.iter().enumerate() {
                            end = self.items(j, part, start);
                        }
                        self.beat = end;
                    }
                }
            }
        }
        if node.mirror {
            self.mirror_from(first_slot, first_beat);
        }
    }

    /// Appends a copy of the slots from `first_slot` on, hands swapped, after the current beat.
    fn mirror_from(&mut self, first_slot: usize, first_beat: u64) {
        let shift = self.beat - first_beat;
        let shift32 = u32::try_from(shift).unwrap_or(u32::MAX);
        for k in first_slot..self.slots.len() {
            let s = self.slots[k];
            self.slots.push(Slot {
                beat: s.beat.saturating_add(shift32),
                hand: s.hand.other(),
                to_hand: s.to_hand.other(),
                ..s
            });
        }
        self.beat += shift;
    }

    /// Walks one juggler's items from `beat`; returns the beat after them.
    fn items(&mut self, juggler: usize, items: &[Item], mut beat: u64) -> u64 {
        for item in items {
            match item {
                Item::Multi(m) => {
                    let right = beat.is_multiple_of(2) == self.right_on_even[juggler];
                    let hand = if right { Hand::Right } else { Hand::Left };
                    self.multi(juggler, hand, m, beat, false);
                    beat += 1;
                }
                Item::Pair(p) => {
                    self.vanilla = false;
                    self.multi(juggler, Hand::Left, &p.left, beat, true);
                    self.multi(juggler, Hand::Right, &p.right, beat, true);
                    beat += if p.bang { 1 } else { 2 };
                }
                Item::HandSpec { hand, .. } => {
                    let is_right = *hand == Hand::Right;
                    self.right_on_even[juggler] = if beat.is_multiple_of(2) {
                        is_right
                    } else {
                        !is_right
                    };
                    if beat > 0 {
                        self.vanilla = false;
                    }
                }
            }
        }
        beat
    }

    fn multi(&mut self, juggler: usize, hand: Hand, m: &Multi, beat: u64, sync: bool) {
        let beat = u32::try_from(beat).unwrap_or(u32::MAX);
        for (index, t) in m.throws.iter().enumerate() {
            if t.cross {
                self.vanilla = false;
            }
            let (to_juggler, to_hand) = if t.value == 0 {
                (juggler, hand)
            } else {
                let to_juggler = match t.pass {
                    None => juggler,
                    Some(PassTarget::Next) => (juggler + 1) % self.jugglers,
                    Some(PassTarget::Juggler(n)) => n % self.jugglers,
                };
                let same = (t.value % 2 == 0) != t.cross;
                (to_juggler, if same { hand } else { hand.other() })
            };
            self.slots.push(Slot {
                beat,
                juggler,
                hand,
                index,
                value: t.value,
                to_juggler,
                to_hand,
                modifier: t.modifier,
                spins: t.spins,
                sync,
                span: t.span,
            });
        }
    }
}
