//! k-handed siteswap: one plain siteswap shared by `N` jugglers (the passing community's
//! four-handed siteswap for two: `975` is the Holy Grail).
//!
//! The `2N` hands throw in turn, one per beat: A right, B right, ..., then A left, B left,
//! ... (passist's order for two jugglers, universal-siteswap's for any number; passist
//! alternates sides for an odd number of jugglers instead), so every juggler alternates
//! hands. A throw of value `v` from hand `h` is caught by hand `(h + v) mod 2N`.
//! Each juggler throws every `N` beats, so the schedule's beats are fine beats with
//! `subdivision = N`: the four-handed `7` is Prechac's `<3.5p|3.5px>`, juggler B half a beat
//! behind A.

use super::ast::{Element, Item, PatternNode};
use super::error::ParseErrorKind;
use super::expand::{Expansion, Slot};
use super::prechac::{lcm, Ratio};
use super::{ParseError, Pattern};
use crate::types::Hand;

/// Most jugglers a k-handed siteswap may be shared by.
pub const MAX_JUGGLERS: usize = crate::budget::SHARING_JUGGLERS.max as usize;

/// The juggler and hand of hand number `index` (0-based) of `jugglers` jugglers.
pub fn hand_of(index: usize, jugglers: usize) -> (usize, Hand) {
    let n = jugglers.max(1);
    let index = index % (2 * n);
    (index % n, if index < n { Hand::Right } else { Hand::Left })
}

/// Reads `input` as the pattern of `jugglers=N` (`shared_by`): `None` reads it as
/// [`super::parse`] does; `Some(n)` reads a plain siteswap as shared by `n` jugglers
/// ([`parse_k_handed`]) and accepts a passing pattern (`<…|…>`, Prechac notation) of exactly
/// `n` jugglers as written. `Some(0)`, a passing pattern of another number of jugglers and a
/// number over [`MAX_JUGGLERS`] are errors.
pub fn parse_shared(input: &str, shared_by: Option<usize>) -> Result<Pattern, ParseError> {
    let Some(jugglers) = shared_by else {
        return super::parse(input);
    };
    let detailed = |kind, detail: String| {
        let mut error = super::error_at(input, kind, 0);
        error.detail = detail;
        Err(error)
    };
    if jugglers == 0 {
        return detailed(
            ParseErrorKind::JugglerCount,
            "jugglers=0: a pattern needs at least one juggler".into(),
        );
    }
    let solo = super::parse(input)?;
    let written = solo.expanded.jugglers;
    if written > 1 || solo.expanded.prechac {
        if written == jugglers {
            return Ok(solo);
        }
        return detailed(
            ParseErrorKind::JugglerCount,
            format!("the pattern is written for {written} jugglers, not the {jugglers} of jugglers={jugglers}"),
        );
    }
    parse_k_handed(input, jugglers)
}

/// Reads `input` as a siteswap shared by `jugglers` jugglers (1 = an ordinary siteswap).
///
/// The siteswap must be asynchronous without passes, hand specifiers or `*` (multiplexes,
/// modifiers and spins are kept); errors give the column as [`super::parse`] does.
pub fn parse_k_handed(input: &str, jugglers: usize) -> Result<Pattern, ParseError> {
    let solo = super::parse(input)?;
    if jugglers <= 1 {
        return Ok(solo);
    }
    let refuse = |at: usize, kind| Err(super::error_at(input, kind, at));
    if jugglers > MAX_JUGGLERS {
        return refuse(0, ParseErrorKind::TooManyJugglers);
    }
    if let Some(at) = not_plain(&solo.root) {
        return refuse(at, ParseErrorKind::NotKHanded);
    }
    let e = &solo.expanded;
    let written = if e.auto_mirrored {
        e.period / 2
    } else {
        e.period
    };
    let hands = 2 * jugglers as u64;
    let period = lcm(u64::from(written), hands);
    let per_period = e.slots.iter().filter(|s| s.beat < written).count() as u64;
    let throws = u128::from(period / u64::from(written.max(1))) * u128::from(per_period);
    if crate::budget::check(crate::budget::BEATS, u128::from(period)).is_err()
        || crate::budget::check(crate::budget::THROWS, throws).is_err()
    {
        return refuse(0, ParseErrorKind::TooLarge);
    }
    let mut slots = Vec::with_capacity(throws as usize);
    for beat in 0..period {
        let (juggler, hand) = hand_of((beat % hands) as usize, jugglers);
        let written_beat = (beat % u64::from(written)) as u32;
        for s in e.slots.iter().filter(|s| s.beat == written_beat) {
            let (to_juggler, to_hand) =
                hand_of(((beat + u64::from(s.value)) % hands) as usize, jugglers);
            slots.push(Slot {
                beat: beat as u32,
                juggler,
                hand,
                to_juggler,
                to_hand,
                sync: false,
                ..*s
            });
        }
    }
    // Juggler A throws on every `jugglers`-th beat of the written siteswap: its own throws
    // repeat after lcm(written, jugglers) of those (fine) beats.
    let own_period = lcm(u64::from(written), jugglers as u64);
    let expanded = Expansion {
        period: period as u32,
        written_period: own_period as u32,
        jugglers,
        mirrored: false,
        auto_mirrored: false,
        slots,
        subdivision: jugglers as u32,
        delays: (0..jugglers as u64)
            .map(|j| Ratio::new(j, jugglers as u64).unwrap_or(Ratio::ZERO))
            .collect(),
        prechac: true,
    };
    Ok(Pattern { expanded, ..solo })
}

/// The first byte offset of something a k-handed siteswap cannot hold: a sync pair, a hand
/// specifier, a passing group or `*`.
fn not_plain(node: &PatternNode) -> Option<usize> {
    for element in &node.elements {
        let found = match element {
            Element::Group(g) => not_plain(&g.pattern),
            Element::Passing(groups) => groups.first().map(|g| g.span.start),
            Element::Solo(items) => items.iter().find_map(|item| match item {
                Item::Multi(_) => None,
                Item::Pair(p) => Some(p.span.start),
                Item::HandSpec { span, .. } => Some(span.start),
            }),
        };
        if found.is_some() {
            return found;
        }
    }
    node.mirror.then(|| node.span.end.saturating_sub(1))
}

/// The passers' name of a four-handed throw value (two jugglers), as the passing community
/// calls them: 2 zip, 4 flip, 5 zap, 6 self, 7 single, 8 heff, 9 double, 10 trelf.
pub fn four_handed_name(value: u32) -> Option<&'static str> {
    Some(match value {
        2 => "zip",
        4 => "flip",
        5 => "zap",
        6 => "self",
        7 => "single",
        8 => "heff",
        9 => "double",
        10 => "trelf",
        _ => return None,
    })
}

/// One throw as the juggler who makes it sees it (Prechac's local view).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocalThrow {
    /// When, in the juggler's own beats from the start of the period (delay included).
    pub time: Ratio,
    pub hand: Hand,
    /// The value in the juggler's beats (`3.5` for a four-handed 7).
    pub value: Ratio,
    /// The receiving juggler of a pass (`None` for a self).
    pub to: Option<usize>,
    /// Lands in the hand of the same side: a crossed pass (right to right), or a self
    /// that stays in its hand.
    pub same_side: bool,
    /// The passers' name of a throw of two jugglers (see [`four_handed_name`]).
    pub name: Option<&'static str>,
}

/// Each juggler's throws of one period in their own beats, in time order (0s left out).
pub fn local_view(e: &Expansion) -> Vec<Vec<LocalThrow>> {
    let sub = u64::from(e.subdivision.max(1));
    let mut view = vec![Vec::new(); e.jugglers];
    for s in e.slots.iter().filter(|s| s.value > 0) {
        let to = (s.to_juggler != s.juggler).then_some(s.to_juggler);
        // The same throw in four-handed units (twice its value in the juggler's beats), where
        // it is one: passes odd, selfs even.
        let four = u64::from(s.value) * 2;
        let name = (e.jugglers == 2 && four.is_multiple_of(sub))
            .then_some(four / sub)
            .filter(|v| (v % 2 == 1) == to.is_some())
            .and_then(|v| four_handed_name(u32::try_from(v).ok()?));
        view[s.juggler].push(LocalThrow {
            time: Ratio::new(u64::from(s.beat), sub).unwrap_or(Ratio::ZERO),
            hand: s.hand,
            value: Ratio::new(u64::from(s.value), sub).unwrap_or(Ratio::ZERO),
            to,
            same_side: s.to_hand == s.hand,
            name,
        });
    }
    view
}
