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
