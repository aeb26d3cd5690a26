//! Settings: everything besides the pattern that shapes its animation, each stored once.
//!
//! Every source builds a [`Settings`] and checks it where it builds it: Juggling Lab settings
//! strings ([`read`], also used by JML list lines and text lists), TOML pattern files
//! (`files::toml_format`), command-line options and the web page's links. They all read
//! numbers through one table ([`keys`]: name in each source, unit, range, doc line), so a bad
//! number is refused everywhere alike, and expand `(...)^N` repeats of `hands`, `body` and
//! `colors` on parsed values against the resource budget ([`crate::budget`]).
//!
//! Stored once, the general form: a dwell per beat ([`Dwell`]), hands per juggler, a cycle of
//! positions per juggler (a still juggler's has one), bodies as a shared spec with per-juggler
//! overrides. The simple forms are derived: [`Dwell::value`], [`Settings::hands_of`],
//! [`Settings::placements`], [`Settings::moving`], [`Bodies::of`].
//!
//! ```
//! let text = juggler::settings::read("pattern=<3p|3p>;dwell=1;body=(0,-50).|(180,50).").unwrap();
//! assert_eq!(text.pattern, "<3p|3p>");
//! assert_eq!(text.settings.dwell.value(), 1.0);
//! assert_eq!(text.settings.placements()[1].x, -0.5);
//! assert!(!text.settings.moving());
//! ```

mod body;
mod colors;
mod error;
mod hands;
pub mod keys;
mod repeat;
mod string;
mod values;

use serde::{Deserialize, Serialize};

pub use error::SettingsError;
pub use keys::ValueError;
pub use string::{is_settings_key, read, SettingsText};
pub use values::{still, Bodies, BodyBeats, BodySpec, CameraSpec, DwellPoints, PlacementSpec};

pub(crate) use body::{format_body, parse_body};
pub(crate) use colors::parse_colors;
pub(crate) use hands::parse_hands;

use crate::budget::{self, BudgetError};
use crate::schedule::Schedule;
use crate::types::{PropKind, Rgba};

/// The dwell when none is given, beats.
pub const DEFAULT_DWELL: f64 = 1.3;

/// How long a caught prop stays in the hand before its next throw, in beats.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Dwell {
    /// The same dwell before every throw.
    Uniform(f64),
    /// Per beat of the pattern (cycled), the dwell before that beat's throw: Juggling Lab's
    /// hand siteswaps, whose hands dwell as long as they are free. A beat of 0 (or less) takes
    /// the pattern's one dwell, [`Dwell::value`].
    PerBeat(Vec<f64>),
}

impl Default for Dwell {
    fn default() -> Self {
        Dwell::Uniform(DEFAULT_DWELL)
    }
}

impl Dwell {
    /// The dwell of beats dwelling `beats` each (a hand siteswap's): one dwell when every
    /// beat that dwells at all dwells as long (within 1e-9 beats), else the list.
    pub(crate) fn of_beats(beats: Vec<f64>) -> Dwell {
        let shortest = crate::notation::hss::shortest_dwell(&beats);
        if beats
            .iter()
            .any(|d| *d > 0.0 && (d - shortest).abs() > 1e-9)
        {
            Dwell::PerBeat(beats)
        } else {
            Dwell::Uniform(shortest)
        }
    }

    /// The pattern's one dwell (timing and the beats without their own): the uniform dwell,
    /// or the shortest positive dwell of the beats, within 0.05 and 1.95.
    pub fn value(&self) -> f64 {
        match self {
            Dwell::Uniform(d) => *d,
            Dwell::PerBeat(beats) => crate::notation::hss::shortest_dwell(beats),
        }
    }

    /// Each beat's own dwell, cycled; empty when every beat takes [`Dwell::value`].
    pub fn per_beat(&self) -> &[f64] {
        match self {
            Dwell::Uniform(_) => &[],
            Dwell::PerBeat(beats) => beats,
        }
    }
}

/// Animation settings. `None` means "choose automatically"; empty lists mean the defaults.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// Beats per second; `None` = Juggling Lab's automatic choice from the throw heights.
    pub bps: Option<f64>,
    pub dwell: Dwell,
    /// Gravity in m/s².
    pub gravity: f64,
    pub prop: PropKind,
    /// Each prop's own kind (by prop index, cycled), for patterns that mix them; empty =
    /// every prop is [`Settings::prop`].
    pub prop_kinds: Vec<PropKind>,
    /// Prop colours, used cyclically (per orbit when `color_by_orbit`, else per prop).
    /// Empty = the built-in palette.
    pub colors: Vec<Rgba>,
    pub color_by_orbit: bool,
    /// Per juggler (juggler `j` uses entry `j % len`, like Juggling Lab's `hands=` with `|`),
    /// its dwell paths, cycled over that juggler's beats as Juggling Lab's `hands=` entries
    /// (entry `i` on beat `i`, a synchronous beat's right hand `i + 1`; a hand holding or
    /// empty on its beat goes there too). Empty = the built-in positions (Juggling Lab's table
    /// by throw height).
    pub hands: Vec<Vec<DwellPoints>>,
    /// Per juggler (0-based), where it stands or how it moves: its cycle of beats (a still
    /// juggler's is one beat with one position, [`still`]). Jugglers beyond the list stand in
    /// the default layout (a circle facing its centre).
    pub positions: Vec<BodyBeats>,
    /// Body proportions: a shared spec and per-juggler overrides.
    pub bodies: Bodies,
    pub camera: Option<CameraSpec>,
    /// Spins per throw value, `(value, spins)` (0 = flat): a club or ring thrown with that
    /// value turns that many times. A throw's own `~N` in the notation wins; values not listed
    /// get the automatic choice.
    pub spins: Vec<(u32, u32)>,
    /// Rings are thrown flat ("pancakes", the ring's plane horizontal in flight) instead of
    /// showing their face to the audience.
    pub pancake_rings: bool,
    /// `jugglers=N`: a plain siteswap is shared by this many jugglers, a 2N-handed siteswap
    /// (`notation::parse_shared`); `None` = read as written.
    pub shared_by: Option<usize>,
    /// Share of its energy a bouncing prop keeps at each bounce (Juggling Lab's `bouncefrac`,
    /// [`keys::BOUNCE_FRACTION`]); `None` = 0.9. A JML throw's own `bouncefrac=` wins.
    #[serde(default)]
    pub bounce_energy: Option<f64>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            bps: None,
            dwell: Dwell::default(),
            gravity: 9.81,
            prop: PropKind::Ball,
            prop_kinds: Vec::new(),
            colors: Vec::new(),
            color_by_orbit: false,
            hands: Vec::new(),
            positions: Vec::new(),
            bodies: Bodies::default(),
            camera: None,
            spins: Vec::new(),
            pancake_rings: false,
            shared_by: None,
            bounce_energy: None,
        }
    }
}

impl Settings {
    /// The dwell paths of juggler `juggler` (empty = the built-in positions).
    pub fn hands_of(&self, juggler: usize) -> &[DwellPoints] {
        match self.hands.len() {
            0 => &[],
            n => &self.hands[juggler % n],
        }
    }

    /// Where each juggler of [`Settings::positions`] stands at the start: its first
    /// position (up to the first juggler that gives none, which [`Settings::check`] refuses).
    pub fn placements(&self) -> Vec<PlacementSpec> {
        self.positions
            .iter()
            .map_while(values::first_position)
            .collect()
    }

    /// Whether some juggler moves (takes two different positions): then every juggler of
    /// [`Settings::positions`] follows its cycle.
    pub fn moving(&self) -> bool {
        self.positions.iter().any(values::moves)
    }

    /// Makes every prop `kind`: the pattern's prop, and each prop's own kind of a pattern
    /// that mixes them (a TOML `props` list, a JIF or JML file's props), what `--prop`, the
    /// page's prop buttons and a link's `prop=` choose.
    pub fn set_every_prop(&mut self, kind: PropKind) {
        self.prop = kind;
        self.prop_kinds = vec![kind];
    }

    /// The kind of prop `index` (0-based, in the motion's order).
    pub fn kind_of(&self, index: usize) -> PropKind {
        match self.prop_kinds.len() {
            0 => self.prop,
            n => self.prop_kinds[index % n],
        }
    }

    /// Checks every number against its range in [`keys`] (named as TOML files name them)
    /// and every list against the budget: what a source that builds settings by hand calls.
    pub fn check(&self) -> Result<(), SettingsError> {
        use keys::*;
        if let Some(bps) = self.bps {
            BPS.check("bps", bps)?;
        }
        match &self.dwell {
            Dwell::Uniform(d) => {
                DWELL.check("dwell", *d)?;
            }
            Dwell::PerBeat(beats) => {
                for d in beats {
                    BEAT_DWELL.check("beat_dwells", *d)?;
                }
            }
        }
        GRAVITY.check("gravity", self.gravity)?;
        if let Some(jugglers) = self.shared_by {
            JUGGLERS.check("jugglers", jugglers as f64)?;
        }
        let budget = |key, limit: budget::Limit, count: usize| {
            limit
                .check(count as u128)
                .map_err(|error| SettingsError::Budget { key, error })
        };
        budget(
            "hands",
            budget::HAND_POINTS,
            self.hands.iter().map(Vec::len).sum(),
        )?;
        for points in self.hands.iter().flatten() {
            for v in points.throw.iter().chain(&points.catch) {
                HAND_POINT.check("hands coordinate", wide(*v))?;
            }
        }
        budget("colors", budget::COLORS, self.colors.len())?;
        for (j, beats) in self.positions.iter().enumerate() {
            if values::first_position(beats).is_none() {
                let message = format!("juggler {} has no position", j + 1);
                return Err(SettingsError::form("jugglers", message));
            }
            budget("jugglers", budget::BODY_BEATS, beats.len())?;
            let keyframes = beats.iter().flatten().flatten().count();
            budget("jugglers", budget::BODY_KEYFRAMES, keyframes)?;
            for p in beats.iter().flatten().flatten() {
                POSITION.check("x", wide(p.x))?;
                POSITION.check("z", wide(p.z))?;
                FACING.check("facing", wide(p.facing_deg))?;
            }
        }
        for body in self.bodies.specs() {
            for (name, value) in body.lengths() {
                let number = if name == "shoulder_height" {
                    SHOULDER_HEIGHT
                } else {
                    BODY_LENGTH
                };
                if let Some(v) = value {
                    number.check(name, wide(v))?;
                }
            }
        }
        if let Some(camera) = &self.camera {
            AZIMUTH.check("azimuth", wide(camera.azimuth_deg))?;
            ELEVATION.check("elevation", wide(camera.elevation_deg))?;
            if let Some(d) = camera.distance {
                CAMERA_DISTANCE.check("distance", wide(d))?;
            }
        }
        for &(_, spins) in &self.spins {
            SPINS.check("spins", f64::from(spins))?;
        }
        Ok(())
    }

    /// Checks the cycle the animation plans for `schedule` with these settings against the
    /// budget: the period repeated until every juggler's `hands` cycle fits a whole number of
    /// times over its beats, and (up to 256 repeats) every moving juggler's `body` cycle, as
    /// Juggling Lab repeats a pattern (`motion::from_schedule`). With `hands` every hand goes
    /// to its points on every beat (holds and 0s too), so the cycle's beats of all jugglers
    /// count as throws.
    pub fn check_cycle(&self, schedule: &Schedule) -> Result<(), BudgetError> {
        let copies = self.cycle_copies(schedule);
        let beats = copies.saturating_mul(u128::from(schedule.period.max(1)));
        budget::check(budget::CYCLE_BEATS, beats)?;
        let throws = copies.saturating_mul(schedule.throws.len() as u128);
        budget::check(budget::CYCLE_THROWS, throws)?;
        if self.hands.iter().any(|h| !h.is_empty()) {
            let jugglers = schedule.jugglers.max(1) as u128;
            budget::check(budget::CYCLE_THROWS, beats.saturating_mul(jugglers))?;
        }
        Ok(())
    }

    /// How many periods of `schedule` the animated cycle spans (see [`Settings::check_cycle`]).
    fn cycle_copies(&self, schedule: &Schedule) -> u128 {
        let mut copies = 1u128;
        for juggler in 0..schedule.jugglers.max(1) {
            let custom = self.hands_of(juggler).len();
            copies = lcm(copies, hands_copies(custom, schedule.period));
        }
        if self.moving() {
            const MAX_BODY_COPIES: u128 = 256;
            let period = u128::from(schedule.period.max(1));
            for beats in &self.positions {
                let cycle = (beats.len() as u128).max(1);
                let c = lcm(copies, cycle / gcd(cycle, period));
                if c <= MAX_BODY_COPIES {
                    copies = c;
                }
            }
        }
        copies
    }
}

/// How many periods of `period` beats a `hands` cycle of `custom` entries (entry `i` on beat
/// `i`, Juggling Lab's numbering) needs to repeat whole with the pattern.
pub(crate) fn hands_copies(custom: usize, period: u32) -> u128 {
    if custom <= 1 {
        return 1;
    }
    let (len, period) = (custom as u128, u128::from(period.max(1)));
    len / gcd(len, period)
}

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// Least common multiple (saturating).
fn lcm(a: u128, b: u128) -> u128 {
    (a / gcd(a, b).max(1)).saturating_mul(b)
}

/// An `f32` setting as the `f64` it was written as (`1e30`, not `1.0000000150474662e30`).
fn wide(v: f32) -> f64 {
    v.to_string().parse().unwrap_or(f64::from(v))
}

#[cfg(test)]
mod tests;
