//! The value types of [`Settings`](super::Settings): hand points, where jugglers stand and how
//! they move, body proportions and the camera. Metres and degrees, as every source converts
//! them on reading.

use serde::{Deserialize, Serialize};

/// Catch and throw point of one throw's dwell, in a juggler's own frame, metres:
/// `x` outward from the body's centre line (mirrored for the left hand, so positive is always
/// away from the body), `y` up relative to the hand plane (1.00 m above the floor),
/// `z` forward relative to the hand plane (0.30 m in front of the body).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct DwellPoints {
    pub catch: [f32; 3],
    pub throw: [f32; 3],
}

/// Where one juggler stands: floor position (x, z) in metres and the direction faced,
/// in degrees (0 = facing +z, toward the default camera; 90 = facing +x).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlacementSpec {
    pub x: f32,
    pub z: f32,
    pub facing_deg: f32,
}

/// One juggler's place over the pattern: a cycle of beats, each holding the positions the
/// juggler takes at even steps within it (a beat of `k` entries has them at `0, 1/k, 2/k, ...`
/// of the beat); `None` = a position left out (Juggling Lab's `-`), passed through on the way
/// between the others. A juggler who stands still has one beat holding one position
/// ([`still`]).
pub type BodyBeats = Vec<Vec<Option<PlacementSpec>>>;

/// The [`BodyBeats`] of a juggler standing still at `at`.
pub fn still(at: PlacementSpec) -> BodyBeats {
    vec![vec![Some(at)]]
}

/// The first position a juggler's cycle gives (where it stands at the start), if any.
pub(crate) fn first_position(beats: &BodyBeats) -> Option<PlacementSpec> {
    beats.iter().flatten().find_map(|p| *p)
}

/// Whether a juggler's cycle takes two different positions.
pub(crate) fn moves(beats: &BodyBeats) -> bool {
    let first = first_position(beats);
    beats.iter().flatten().flatten().any(|p| Some(*p) != first)
}

/// Body proportions in metres (any left `None` keeps the adult default).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BodySpec {
    pub shoulder_width: Option<f32>,
    pub shoulder_height: Option<f32>,
    pub upper_arm: Option<f32>,
    pub forearm: Option<f32>,
    pub hand: Option<f32>,
}

impl BodySpec {
    /// This spec's values, with `fallback`'s where this one has none.
    pub fn or(self, fallback: BodySpec) -> BodySpec {
        BodySpec {
            shoulder_width: self.shoulder_width.or(fallback.shoulder_width),
            shoulder_height: self.shoulder_height.or(fallback.shoulder_height),
            upper_arm: self.upper_arm.or(fallback.upper_arm),
            forearm: self.forearm.or(fallback.forearm),
            hand: self.hand.or(fallback.hand),
        }
    }

    /// The lengths as `(name, value)`, named as files write them.
    pub fn lengths(&self) -> [(&'static str, Option<f32>); 5] {
        [
            ("shoulder_width", self.shoulder_width),
            ("shoulder_height", self.shoulder_height),
            ("upper_arm", self.upper_arm),
            ("forearm", self.forearm),
            ("hand", self.hand),
        ]
    }
}

/// The jugglers' bodies: one shared spec (all `None` = the adult defaults) and, per juggler
/// (0-based), its own values over the shared ones. Jugglers beyond `jugglers` take `shared`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Bodies {
    pub shared: BodySpec,
    pub jugglers: Vec<BodySpec>,
}

impl Bodies {
    /// The body of juggler `juggler`: its own values over the shared ones.
    pub fn of(&self, juggler: usize) -> BodySpec {
        match self.jugglers.get(juggler) {
            Some(own) => own.or(self.shared),
            None => self.shared,
        }
    }

    /// Every spec given (the shared one first).
    pub fn specs(&self) -> impl Iterator<Item = &BodySpec> {
        std::iter::once(&self.shared).chain(&self.jugglers)
    }
}

/// Camera placement: orbit angles around the scene's centre and distance.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CameraSpec {
    /// Degrees around the vertical axis; 0 = looking from +z toward -z.
    pub azimuth_deg: f32,
    /// Degrees above the horizon (positive looks down on the scene).
    pub elevation_deg: f32,
    /// Metres from the target; `None` = frame all jugglers.
    pub distance: Option<f32>,
}
