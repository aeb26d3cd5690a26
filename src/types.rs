//! Small shared value types used by every stage.

use serde::{Deserialize, Serialize};

/// One of a juggler's two hands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Hand {
    Left,
    Right,
}

impl Hand {
    /// Both hands, in the order used for `[T; 2]` arrays indexed by hand.
    pub const BOTH: [Hand; 2] = [Hand::Left, Hand::Right];

    /// Index into a `[T; 2]` array: Left = 0, Right = 1.
    pub fn index(self) -> usize {
        match self {
            Hand::Left => 0,
            Hand::Right => 1,
        }
    }

    pub fn other(self) -> Hand {
        match self {
            Hand::Left => Hand::Right,
            Hand::Right => Hand::Left,
        }
    }

    /// +1 for the left hand, -1 for the right: the sign of x in a juggler's own frame
    /// (the juggler faces +z, so their right hand is at negative x).
    pub fn side_sign(self) -> f32 {
        match self {
            Hand::Left => 1.0,
            Hand::Right => -1.0,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Hand::Left => "left",
            Hand::Right => "right",
        }
    }
}

/// A particular hand of a particular juggler (jugglers are 0-based in code).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct HandRef {
    pub juggler: usize,
    pub hand: Hand,
}

impl HandRef {
    pub fn new(juggler: usize, hand: Hand) -> Self {
        HandRef { juggler, hand }
    }

    /// Index of this hand in flat per-hand arrays: `juggler * 2 + hand.index()` (juggler 0's
    /// left hand, its right hand, juggler 1's left hand, ...).
    pub fn slot(self) -> usize {
        self.juggler * 2 + self.hand.index()
    }

    /// The hand at `slot` of a flat per-hand array (the inverse of [`HandRef::slot`]).
    pub fn from_slot(slot: usize) -> HandRef {
        let hand = if slot.is_multiple_of(2) {
            Hand::Left
        } else {
            Hand::Right
        };
        HandRef::new(slot / 2, hand)
    }
}

/// The kind of prop being juggled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PropKind {
    #[default]
    Ball,
    Club,
    Ring,
}

impl PropKind {
    pub fn name(self) -> &'static str {
        match self {
            PropKind::Ball => "ball",
            PropKind::Club => "club",
            PropKind::Ring => "ring",
        }
    }
}

impl std::str::FromStr for PropKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "ball" => Ok(PropKind::Ball),
            "club" => Ok(PropKind::Club),
            "ring" => Ok(PropKind::Ring),
            other => Err(format!(
                "prop type '{other}' not recognized (expected ball, club or ring)"
            )),
        }
    }
}

/// An sRGB colour with alpha, 8 bits per channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Rgba {
    pub r: u8,
    pub g: u8,
    pub b: u8,
    pub a: u8,
}

impl Rgba {
    pub const fn rgb(r: u8, g: u8, b: u8) -> Self {
        Rgba { r, g, b, a: 255 }
    }
    #[allow(clippy::self_named_constructors)]
    pub const fn with_alpha(r: u8, g: u8, b: u8, a: u8) -> Self {
        Rgba { r, g, b, a }
    }
}

/// Built-in prop colours: distinct, saturated, readable on light and dark backgrounds.
pub const PALETTE: [Rgba; 10] = [
    Rgba::rgb(230, 57, 70),   // red
    Rgba::rgb(33, 118, 255),  // blue
    Rgba::rgb(255, 183, 3),   // amber
    Rgba::rgb(46, 196, 113),  // green
    Rgba::rgb(155, 89, 182),  // purple
    Rgba::rgb(255, 127, 36),  // orange
    Rgba::rgb(23, 190, 207),  // cyan
    Rgba::rgb(240, 98, 180),  // pink
    Rgba::rgb(141, 110, 74),  // brown
    Rgba::rgb(120, 130, 140), // slate
];

/// Club length, metres.
pub const CLUB_LENGTH: f32 = 0.485;
/// A club's lathe profile as drawn: stations from knob to tip and the radius there, both as
/// fractions of its length (knob, handle, neck, body at its widest 4.17 cm, tip).
pub const CLUB_PROFILE: [(f32, f32); 10] = [
    (0.000, 0.022),
    (0.018, 0.032),
    (0.040, 0.020),
    (0.300, 0.026),
    (0.450, 0.052),
    (0.600, 0.078),
    (0.720, 0.086),
    (0.860, 0.076),
    (0.960, 0.052),
    (1.000, 0.026),
];
/// A club as the capsules that hold its profile, for measuring contacts: pieces from knob to
/// tip (fractions of its length), each as thick as the profile's widest within it. The handle
/// is 1.3 cm thick in radius, the body 4.2 cm: one capsule of the body's radius along the whole
/// club counted a handle passing 3 cm from another as a contact.
pub const CLUB_PIECES: [(f32, f32, f32); 6] = [
    (0.0, 0.04, 0.032),
    (0.04, 0.30, 0.026),
    (0.30, 0.45, 0.052),
    (0.45, 0.60, 0.078),
    (0.60, 0.86, 0.086),
    (0.86, 1.0, 0.076),
];
/// A club's widest radius (the profile's), metres: one capsule of it from knob to tip holds
/// every piece.
pub const CLUB_RADIUS: f32 = 0.086 * CLUB_LENGTH;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_slots_round_trip() {
        for slot in 0..10 {
            assert_eq!(HandRef::from_slot(slot).slot(), slot);
        }
        assert_eq!(HandRef::new(1, Hand::Right).slot(), 3);
        assert_eq!(HandRef::from_slot(2), HandRef::new(1, Hand::Left));
    }
}
