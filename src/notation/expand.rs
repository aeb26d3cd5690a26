//! Expansion of the syntax tree into the throws of one period.
//!
//! Applies repeats `^N`, `*` (copy with hands swapped), hand specifiers, the alternation of
//! async throws and Juggling Lab's auto-mirroring of odd vanilla patterns, all on parsed
//! values. Checks the juggler and beat counts and the size limits first, so nothing big is
//! ever allocated for a pattern that will be refused.

use super::ast::{DelayPrefix, Element, Item, Multi, PassTarget, PatternNode, Throw};
use super::error::ParseErrorKind;
use super::prechac::{self, Ratio};
pub use super::slot::Slot;
use super::slot::{hand_order, ExpandError};
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
    /// Beats of the period as written (`Schedule::pattern_period`): `period` without
    /// Juggling Lab's auto-mirroring; of a shared siteswap, each juggler's own period (`975`
    /// shared by two: 3 beats, 6 fine beats, of a `period` of 12 fine beats in which every
    /// hand is back).
    pub written_period: u32,
    /// Sorted by beat, juggler, hand (right before left) and multiplex position.
    pub slots: Vec<Slot>,
    /// Beats of `period` (and of every slot's `beat` and `value`) per beat of a juggler: 1,
    /// except in Prechac notation, where fine beats make fractional passes and delays whole
    /// (`<3.5p|3.5px>`: 2).
    pub subdivision: u32,
    /// Each juggler's delay in their own beats (all 0 but in Prechac notation).
    pub delays: Vec<Ratio>,
    /// Read as Prechac notation (or a k-handed siteswap): passes are straight unless crossed,
    /// beats may be fine beats.
    pub prechac: bool,
}

/// How the notation is read.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Reading<'a> {
    /// Juggling Lab's notation.
    JugglingLab,
    /// Prechac notation, with the delay prefix if one is written.
    Prechac(Option<&'a DelayPrefix>),
}

/// Checks and expands a parsed pattern.
pub(crate) fn expand(root: &PatternNode, reading: Reading) -> Result<Expansion, ExpandError> {
    let jugglers = juggler_count(root, &mut None)?;
    let size = measure(root)?;
    let fine = match reading {
        Reading::JugglingLab => None,
        Reading::Prechac(prefix) => Some(Fine::new(root, prefix, jugglers)?),
    };
    let subdivision = fine.as_ref().map_or(1, |f| f.subdivision);
    let mut beats = size.beats;
    let too_large = |beats: u64, throws: u64| {
        crate::budget::check(
            crate::budget::BEATS,
            u128::from(beats) * u128::from(subdivision),
        )
        .and(crate::budget::check(
            crate::budget::THROWS,
            u128::from(throws),
        ))
        .map_err(|_| ExpandError::new(root.span.start, ParseErrorKind::TooLarge))
    };
    too_large(beats, size.throws)?;
    let mut walk = Walk {
        jugglers,
        right_on_even: vec![true; jugglers],
        beat: 0,
        vanilla: true,
        pairs: false,
        fine: fine.clone(),
        slots: Vec::with_capacity(usize::try_from(size.throws).unwrap_or(0)),
    };
    walk.pattern(root);
    // Juggling Lab mirrors odd vanilla patterns; universal-siteswap every odd pattern without
    // sync pairs (`<3.5p|3.5px>` has an `x` and is still played on both sides).
    let auto_mirror = !root.mirror
        && !beats.is_multiple_of(2)
        && if fine.is_some() {
            !walk.pairs
        } else {
            walk.vanilla
        };
    if auto_mirror {
        too_large(beats * 2, size.throws * 2)?;
        walk.mirror_from(0, 0);
        beats *= 2;
    }
    let mut slots = walk.slots;
    let mut delays = vec![Ratio::ZERO; jugglers];
    match fine {
        None => slots.sort_by_key(|s| (s.beat, s.juggler, hand_order(s.hand), s.index)),
        Some(fine) => {
            let sub = u64::from(fine.subdivision);
            let fine_delays = prechac::delays(&slots, jugglers, sub, fine.given.as_deref())?;
            let fine_period = sub.saturating_mul(beats).max(1);
            let fine_delays: Vec<u64> = fine_delays.iter().map(|d| d % fine_period).collect();
            delays = fine_delays
                .iter()
                .map(|&d| Ratio::new(d, sub).unwrap_or(Ratio::ZERO))
                .collect();
            slots = prechac::to_fine_beats(slots, sub, &fine_delays, beats)?;
            beats = fine_period;
        }
    }
    let period = u32::try_from(beats).unwrap_or(u32::MAX);
    Ok(Expansion {
        period,
        written_period: if auto_mirror { period / 2 } else { period },
        jugglers,
        mirrored: root.mirror || auto_mirror,
        auto_mirrored: auto_mirror,
        slots,
        subdivision,
        delays,
        prechac: matches!(reading, Reading::Prechac(_)),
    })
}

/// How Prechac values become fine beats.
#[derive(Clone, Debug)]
struct Fine {
    /// Fine beats per beat: the least common multiple of every value's and delay's
    /// denominator.
    subdivision: u32,
    /// `.3` and `.6` are thirds (a multiple of 3 jugglers).
    thirds: bool,
    /// The delay prefix's delays, if written.
    given: Option<Vec<Ratio>>,
}

impl Fine {
    fn new(
        root: &PatternNode,
        prefix: Option<&DelayPrefix>,
        jugglers: usize,
    ) -> Result<Fine, ExpandError> {
        let thirds = jugglers.is_multiple_of(3);
        let mut subdivision: u64 = 1;
        for_each_throw(root, &mut |t| {
            let v = prechac::read_decimal(u64::from(t.value), t.decimals, thirds);
            subdivision = prechac::lcm(subdivision, v.den());
        });
        let given = match prefix {
            None => None,
            Some(p) => {
                if p.delays.len() != jugglers {
                    return Err(ExpandError::with_detail(
                        p.span.start,
                        ParseErrorKind::DelayCount,
                        format!("{} delays given for {jugglers} jugglers", p.delays.len()),
                    ));
                }
                let delays: Vec<Ratio> = p
                    .delays
                    .iter()
                    .map(|d| prechac::read_delay(d, thirds))
                    .collect();
                for d in &delays {
                    subdivision = prechac::lcm(subdivision, d.den());
                }
                Some(delays)
            }
        };
        if subdivision > crate::budget::BEATS.max {
            return Err(ExpandError::new(root.span.start, ParseErrorKind::TooLarge));
        }
        Ok(Fine {
            subdivision: subdivision as u32,
            thirds,
            given,
        })
    }

    /// A throw's value in fine beats.
    fn value(&self, t: &Throw) -> u32 {
        let v = prechac::read_decimal(u64::from(t.value), t.decimals, self.thirds);
        let fine = v.num() * (u64::from(self.subdivision) / v.den());
        u32::try_from(fine).unwrap_or(u32::MAX)
    }
}

/// Calls `f` on every throw of the tree, in text order.
fn for_each_throw(node: &PatternNode, f: &mut impl FnMut(&Throw)) {
    let items = |items: &[Item], f: &mut dyn FnMut(&Throw)| {
        for item in items {
            let multis: &[&Multi] = match item {
                Item::Multi(m) => &[m],
                Item::Pair(p) => &[&p.left, &p.right],
                Item::HandSpec { .. } => &[],
            };
            for m in multis {
                m.throws.iter().for_each(&mut *f);
            }
        }
    };
    for element in &node.elements {
        match element {
            Element::Group(g) => for_each_throw(&g.pattern, f),
            Element::Solo(list) => items(list, f),
            Element::Passing(groups) => {
                for g in groups {
                    for part in &g.parts {
                        items(part, f);
                    }
                }
            }
        }
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
        Some(n) if n != count => Err(ExpandError::new(at, ParseErrorKind::InconsistentJugglers)),
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
                            return Err(ExpandError::new(
                                g.span.start,
                                ParseErrorKind::InconsistentBeats,
                            ));
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
    /// A sync pair so far.
    pairs: bool,
    /// Prechac notation: values in fine beats, passes straight unless crossed.
    fine: Option<Fine>,
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
                    self.pairs = true;
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
            let value = self.fine.as_ref().map_or(t.value, |f| f.value(t));
            let (to_juggler, to_hand) = if value == 0 {
                (juggler, hand)
            } else {
                let to_juggler = match t.pass {
                    None => juggler,
                    Some(PassTarget::Next) => (juggler + 1) % self.jugglers,
                    Some(PassTarget::Juggler(n) | PassTarget::Letter(n)) => n % self.jugglers,
                };
                // Juggling Lab: the value's parity, flipped by `x`. Prechac passes: straight
                // (into the other hand) unless crossed with `x`.
                let same = if self.fine.is_some() && t.pass.is_some() {
                    t.cross
                } else {
                    (t.value % 2 == 0) != t.cross
                };
                (to_juggler, if same { hand } else { hand.other() })
            };
            self.slots.push(Slot {
                beat,
                juggler,
                hand,
                index,
                value,
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
