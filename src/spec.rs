//! What a user asks to see: a siteswap plus the settings that shape its animation.
//!
//! Every input route ends here: a bare siteswap on the command line, a Juggling Lab settings
//! string (`pattern=531;bps=4`, parsed by `notation::settings`), a TOML pattern file or a JML
//! pattern list (both in `files`). `scene::Scene::new(&PatternSpec)` turns it into motion.

use serde::{Deserialize, Serialize};

use crate::types::{PropKind, Rgba};

/// A named pattern with its settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PatternSpec {
    /// Display name (defaults to the notation).
    pub name: String,
    /// The siteswap, in Juggling Lab's notation (see `notation`).
    pub notation: String,
    /// Free text for pattern libraries.
    pub description: String,
    pub settings: Settings,
}

impl PatternSpec {
    /// A spec with default settings, named after its notation.
    pub fn from_notation(notation: &str) -> Self {
        PatternSpec {
            name: notation.trim().to_string(),
            notation: notation.trim().to_string(),
            description: String::new(),
            settings: Settings::default(),
        }
    }
}

/// Animation settings. `None` means "choose automatically".
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// Beats per second; `None` = Juggling Lab's automatic choice from the throw heights.
    pub bps: Option<f64>,
    /// Beats a caught prop stays in the hand before its next throw (0 < dwell < 2).
    pub dwell: f64,
    /// Gravity in m/s².
    pub gravity: f64,
    pub prop: PropKind,
    /// Prop colours, used cyclically (per orbit when `color_by_orbit`, else per prop).
    /// Empty = the built-in palette.
    pub colors: Vec<Rgba>,
    pub color_by_orbit: bool,
    /// Custom dwell paths, cycled over each juggler's throws in beat order (left before right
    /// on a shared beat), like Juggling Lab's `hands=` and gunswap's dwell paths.
    /// Empty = the built-in positions (Juggling Lab's table by throw height).
    pub hand_positions: Vec<DwellPoints>,
    /// Per-juggler dwell paths (Juggling Lab's `hands=` with `|` between jugglers): juggler
    /// `j` (0-based) uses entry `j % len`, like Juggling Lab. When not empty it replaces
    /// `hand_positions` (which then holds entry 0, for readers of one juggler's hands).
    #[serde(default)]
    pub juggler_hand_positions: Vec<Vec<DwellPoints>>,
    /// Per beat of the pattern (cycled), the dwell in beats before that beat's throw: Juggling
    /// Lab's hand siteswaps, whose hands dwell as long as they are free. Empty = `dwell`
    /// everywhere (`dwell` then holds the shortest).
    #[serde(default)]
    pub beat_dwells: Vec<f64>,
    /// Where the jugglers stand; empty = the default layout (circle facing the centre).
    pub placements: Vec<PlacementSpec>,
    /// Jugglers who move (Juggling Lab's `body=` giving a juggler several positions): per
    /// juggler (0-based; jugglers beyond the list stand at `placements`), its cycle of beats.
    /// Empty = everyone stands still at `placements` (which hold each juggler's first
    /// position).
    #[serde(default)]
    pub body_moves: Vec<BodyBeats>,
    /// Body proportions for every juggler; `None` = adult defaults.
    pub body: Option<BodySpec>,
    /// Per-juggler body proportions (index = juggler, 0-based), each field overriding `body`;
    /// jugglers without an entry use `body`.
    pub bodies: Vec<BodySpec>,
    pub camera: Option<CameraSpec>,
    /// Spins per throw value, `(value, spins)` (0 = flat): a club or ring thrown with that
    /// value turns that many times. A throw's own `~N` in the notation wins; values not listed
    /// get the automatic choice.
    pub spins: Vec<(u32, u32)>,
    /// Rings are thrown flat ("pancakes", the ring's plane horizontal in flight) instead of
    /// showing their face to the audience.
    pub pancake_rings: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            bps: None,
            dwell: 1.3,
            gravity: 9.81,
            prop: PropKind::Ball,
            colors: Vec::new(),
            color_by_orbit: false,
            hand_positions: Vec::new(),
            juggler_hand_positions: Vec::new(),
            beat_dwells: Vec::new(),
            placements: Vec::new(),
            body_moves: Vec::new(),
            body: None,
            bodies: Vec::new(),
            camera: None,
            spins: Vec::new(),
            pancake_rings: false,
        }
    }
}

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

/// One juggler's cycle of moves: per beat, the positions it takes at even steps within that
/// beat (a beat of `k` entries has them at `0, 1/k, 2/k, ...` of the beat); `None` = a
/// position left out (Juggling Lab's `-`), passed through on the way between the others.
pub type BodyBeats = Vec<Vec<Option<PlacementSpec>>>;

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
}

/// The body of juggler `juggler`: its own entry over the shared one.
pub fn body_of(settings: &Settings, juggler: usize) -> Option<BodySpec> {
    match (settings.bodies.get(juggler), settings.body) {
        (Some(own), Some(shared)) => Some(own.or(shared)),
        (Some(own), None) => Some(*own),
        (None, shared) => shared,
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
