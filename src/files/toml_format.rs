//! juggler's own pattern file format: TOML, read and written with serde.
//!
//! A file holds one pattern as top-level keys, or a list of patterns as `[[pattern]]` tables:
//!
//! ```toml
//! [[pattern]]
//! name = "Reverse cascade"
//! siteswap = "3"
//! description = "Throws from outside the catches, over the top."
//! hands = [{ throw = [0.325], catch = [0.10] }]
//! ```
//!
//! Keys of a pattern (all but `siteswap` optional; a missing key takes its default). Their
//! units and ranges are `settings::keys`' (docs/notation.md's settings table):
//! - `name` (default: the siteswap), `siteswap` (Juggling Lab notation), `description`;
//! - `bps` (beats per second; default: chosen from the throw heights), `dwell` (beats;
//!   default 1.3), `gravity` (m/s²; default 9.81), `bounce_energy` (share of its energy a
//!   bouncing prop keeps at each bounce, Juggling Lab's `bouncefrac`; default 0.9); `beat_dwells` (a dwell per beat, cycled,
//!   as hand siteswaps have them; `dwell`, when also given, must be their shortest);
//! - `prop` (`"ball"`, `"club"` or `"ring"`), `props` (each prop's own kind, cycled:
//!   `props = ["club", "ball", "ball"]`), `colors` (names or `"#rrggbb"`, used cyclically),
//!   `color_by_orbit` (bool);
//! - `jugglers`: where they stand, `[{ x = 0.0, z = -1.2, facing = 0.0 }, ...]` (metres on the
//!   floor, facing in degrees, 0 = facing +z), or a number: how many jugglers share a plain
//!   siteswap (`siteswap = "975"`, `jugglers = 2`: the four-handed Holy Grail);
//! - `hands`: dwell paths cycled per throw, `[{ throw = [x, y, z], catch = [x, y, z] }, ...]` in
//!   metres (x outward from the body's centre line, y up from the hand plane, z forward; one to
//!   three numbers, missing ones are 0); `juggler_hands`: one such list per juggler (juggler `j`
//!   uses entry `j` modulo their number);
//! - `hands`, `jugglers` and `colors` may instead be strings in Juggling Lab's settings forms
//!   (`hands = "<(10)(32.5).|(32.5)(10).>"`, `jugglers = "(0,-50).|(180,50)."`,
//!   `colors = "orbits"`, `colors = "{red}({0,128,255})^2"`; see `settings`);
//! - `body`: `{ shoulder_width, shoulder_height, upper_arm, forearm, hand }` in metres, each optional;
//! - `bodies`: one such table per juggler (in juggler order), each field overriding `body`;
//! - `camera`: `{ azimuth, elevation, distance }` in degrees and metres (`distance` optional);
//! - `spins`: turns per throw value for clubs and rings, `{ "3" = 1, "5" = 2, "2" = 0 }` (keys
//!   are throw values as written in a siteswap, `0`–`9` and `a`–`z`; 0 = flat, at most 9);
//!   a throw's own `~N` in the siteswap wins, unlisted values are chosen automatically;
//! - `ring_throws`: `"face"` (default: the ring shows its face to the audience) or
//!   `"pancake"` (thrown flat, the ring's plane horizontal in flight).
//!
//! Unknown keys, wrong types and out-of-range values are errors naming the file, line and
//! column of the value, numbers in the settings table's one message form.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserializer};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};
use toml::Spanned;

use super::color::{color_text, parse_color};
use super::error::{FileError, Location, Locator};
use super::LoadedPattern;
use crate::settings::keys::{self, Number};
use crate::settings::{
    self, Bodies, BodyBeats, BodySpec, CameraSpec, Dwell, DwellPoints, PlacementSpec, Settings,
    SettingsError,
};
use crate::spec::{PatternSource, PatternSpec};
use crate::types::{PropKind, Rgba};

/// A file with a list of patterns: `[[pattern]]` tables.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PatternListFile {
    pub(crate) pattern: Vec<PatternEntry>,
}

/// One pattern as written in a file. Optional keys that are absent take their defaults.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PatternEntry {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) name: Option<String>,
    pub(crate) siteswap: Spanned<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) bps: Option<Checked<Bps>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) dwell: Option<Spanned<Checked<DwellBeats>>>,
    /// Per beat, the dwell before its throw (hand siteswaps converted by Juggling Lab's
    /// rules); written only when beats differ.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) beat_dwells: Option<Vec<Checked<BeatDwell>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) gravity: Option<Checked<Gravity>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) bounce_energy: Option<Checked<BounceEnergy>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) prop: Option<PropKind>,
    /// Each prop's own kind, cycled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) props: Option<Vec<PropKind>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) colors: Option<Colors>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) color_by_orbit: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) jugglers: Option<Jugglers>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) hands: Option<Hands>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) juggler_hands: Option<Vec<Vec<HandEntry>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) body: Option<BodyEntry>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) bodies: Option<Vec<BodyEntry>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) camera: Option<CameraEntry>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) spins: Option<SpinTable>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) ring_throws: Option<RingThrows>,
}

/// How rings are thrown.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum RingThrows {
    Face,
    Pancake,
}

/// `spins = { "3" = 1, "5" = 2 }`: turns per throw value, `(value, spins)` by value.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SpinTable(pub(crate) Vec<(u32, u32)>);

/// The throw value a siteswap character stands for (`0`–`9`, `a`–`z`).
fn throw_value(key: &str) -> Option<u32> {
    match key.as_bytes() {
        [c @ b'0'..=b'9'] => Some(u32::from(c - b'0')),
        [c @ b'a'..=b'z'] => Some(u32::from(c - b'a') + 10),
        _ => None,
    }
}

impl Serialize for SpinTable {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for &(value, spins) in &self.0 {
            let key = char::from_digit(value, 36)
                .map(String::from)
                .unwrap_or_default();
            map.serialize_entry(&key, &spins)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for SpinTable {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<SpinTable, D::Error> {
        struct V;
        impl<'de> de::Visitor<'de> for V {
            type Value = SpinTable;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a table of throw values to spins, like { \"3\" = 1, \"5\" = 2 }")
            }
            fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<SpinTable, A::Error> {
                let mut out: Vec<(u32, u32)> = Vec::new();
                while let Some((key, spins)) = map.next_entry::<String, NumberValue>()? {
                    let Some(value) = throw_value(&key) else {
                        return Err(de::Error::custom(format!(
                            "spins: '{}' is not a throw value (0-9 or a-z)",
                            crate::text::escape_control(&key)
                        )));
                    };
                    let name = format!("spins for '{key}'");
                    let spins = spins.checked(&keys::SPINS, &name)?;
                    if spins.fract() != 0.0 {
                        return Err(de::Error::custom(
                            keys::SPINS.error(&name, &keys::show(spins)),
                        ));
                    }
                    out.retain(|&(v, _)| v != value);
                    out.push((value, spins as u32));
                }
                out.sort_unstable();
                Ok(SpinTable(out))
            }
        }
        d.deserialize_map(V)
    }
}

/// A value given where a number is expected: the number, or a description of what was
/// written instead (for the one message form).
enum NumberValue {
    Number(f64),
    Other(String),
}

impl NumberValue {
    /// The number, checked against `number` and named `key` in the error.
    fn checked<E: de::Error>(self, number: &Number, key: &str) -> Result<f64, E> {
        match self {
            NumberValue::Number(v) => number.check(key, v).map_err(E::custom),
            NumberValue::Other(text) => Err(E::custom(number.error(key, &text))),
        }
    }
}

impl<'de> Deserialize<'de> for NumberValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> de::Visitor<'de> for V {
            type Value = NumberValue;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a number")
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<NumberValue, E> {
                Ok(NumberValue::Number(v))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<NumberValue, E> {
                Ok(NumberValue::Number(v as f64))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<NumberValue, E> {
                Ok(NumberValue::Number(v as f64))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<NumberValue, E> {
                Ok(NumberValue::Other(format!("\"{v}\"")))
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<NumberValue, E> {
                Ok(NumberValue::Other(v.to_string()))
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, _: A) -> Result<NumberValue, A::Error> {
                Ok(NumberValue::Other("an array".into()))
            }
            fn visit_map<A: de::MapAccess<'de>>(self, _: A) -> Result<NumberValue, A::Error> {
                Ok(NumberValue::Other("a table".into()))
            }
        }
        d.deserialize_any(V)
    }
}

/// A number of the settings table, with the key that names it in messages.
pub(crate) trait Quantity {
    const NUMBER: Number;
    const KEY: &'static str;
}

macro_rules! quantities {
    ($($name:ident = $number:expr, $key:literal;)*) => {
        $(
            #[derive(Debug, Clone, Copy, PartialEq)]
            pub(crate) struct $name;
            impl Quantity for $name {
                const NUMBER: Number = $number;
                const KEY: &'static str = $key;
            }
        )*
    };
}

quantities! {
    Bps = keys::BPS, "bps";
    DwellBeats = keys::DWELL, "dwell";
    BeatDwell = keys::BEAT_DWELL, "beat_dwells";
    Gravity = keys::GRAVITY, "gravity";
    BounceEnergy = keys::BOUNCE_FRACTION, "bounce_energy";
    PositionX = keys::POSITION, "x";
    PositionZ = keys::POSITION, "z";
    Facing = keys::FACING, "facing";
    HandCoordinate = keys::HAND_POINT, "hands coordinate";
    ShoulderWidth = keys::BODY_LENGTH, "shoulder_width";
    ShoulderHeight = keys::SHOULDER_HEIGHT, "shoulder_height";
    UpperArm = keys::BODY_LENGTH, "upper_arm";
    Forearm = keys::BODY_LENGTH, "forearm";
    HandLength = keys::BODY_LENGTH, "hand";
    Azimuth = keys::AZIMUTH, "azimuth";
    Elevation = keys::ELEVATION, "elevation";
    Distance = keys::CAMERA_DISTANCE, "distance";
}

/// A number checked against its quantity's range when read.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Checked<Q>(f64, PhantomData<Q>);

impl<Q> Checked<Q> {
    pub(crate) fn new(v: f64) -> Self {
        Checked(v, PhantomData)
    }

    /// An `f32` setting, written with its shortest decimal form (`0.3` stays `0.3`).
    pub(crate) fn of_f32(v: f32) -> Self {
        Checked::new(format!("{v}").parse().unwrap_or(f64::from(v)))
    }

    fn f32(self) -> f32 {
        self.0 as f32
    }
}

impl<Q> Serialize for Checked<Q> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(self.0)
    }
}

impl<'de, Q: Quantity> Deserialize<'de> for Checked<Q> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        NumberValue::deserialize(d)?
            .checked(&Q::NUMBER, Q::KEY)
            .map(Checked::new)
    }
}

/// Where one juggler stands.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct JugglerEntry {
    pub(crate) x: Checked<PositionX>,
    pub(crate) z: Checked<PositionZ>,
    /// Degrees; 0 = facing +z.
    pub(crate) facing: Checked<Facing>,
}

/// One dwell path: throw and catch points.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct HandEntry {
    pub(crate) throw: Point,
    pub(crate) catch: Point,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct BodyEntry {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) shoulder_width: Option<Checked<ShoulderWidth>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) shoulder_height: Option<Checked<ShoulderHeight>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) upper_arm: Option<Checked<UpperArm>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) forearm: Option<Checked<Forearm>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) hand: Option<Checked<HandLength>>,
}

impl From<BodyEntry> for BodySpec {
    fn from(b: BodyEntry) -> BodySpec {
        BodySpec {
            shoulder_width: b.shoulder_width.map(Checked::f32),
            shoulder_height: b.shoulder_height.map(Checked::f32),
            upper_arm: b.upper_arm.map(Checked::f32),
            forearm: b.forearm.map(Checked::f32),
            hand: b.hand.map(Checked::f32),
        }
    }
}

impl From<BodySpec> for BodyEntry {
    fn from(b: BodySpec) -> BodyEntry {
        BodyEntry {
            shoulder_width: b.shoulder_width.map(Checked::of_f32),
            shoulder_height: b.shoulder_height.map(Checked::of_f32),
            upper_arm: b.upper_arm.map(Checked::of_f32),
            forearm: b.forearm.map(Checked::of_f32),
            hand: b.hand.map(Checked::of_f32),
        }
    }
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CameraEntry {
    pub(crate) azimuth: Checked<Azimuth>,
    pub(crate) elevation: Checked<Elevation>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) distance: Option<Checked<Distance>>,
}

/// A point `[x, y, z]` in metres; one to three numbers in the file, missing ones are 0.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Point(pub(crate) [f32; 3]);

impl Serialize for Point {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.map(Checked::<HandCoordinate>::of_f32).serialize(s)
    }
}

impl<'de> Deserialize<'de> for Point {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let values = Vec::<Checked<HandCoordinate>>::deserialize(d)?;
        if values.is_empty() || values.len() > 3 {
            return Err(de::Error::custom(format!(
                "a point has 1 to 3 numbers [x, y, z] in metres, not {}",
                values.len()
            )));
        }
        let mut p = [0.0; 3];
        for (slot, v) in p.iter_mut().zip(values) {
            *slot = v.f32();
        }
        Ok(Point(p))
    }
}

/// A colour: a name or `#rrggbb` in the file.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct ColorValue(pub(crate) Rgba);

impl Serialize for ColorValue {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&color_text(self.0))
    }
}

impl<'de> Deserialize<'de> for ColorValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl de::Visitor<'_> for V {
            type Value = ColorValue;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a colour name or \"#rrggbb\"")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<ColorValue, E> {
                parse_color(s).map(ColorValue).map_err(E::custom)
            }
        }
        d.deserialize_str(V)
    }
}

/// A list in juggler's own form, or a string in Juggling Lab's settings form (`hands`,
/// `body`, `colors`), read by `settings`.
macro_rules! list_or_jl {
    ($name:ident, $item:ty, $jl:ty, $parse:expr, $expecting:literal) => {
        #[derive(Debug, Clone)]
        pub(crate) enum $name {
            List(Vec<$item>),
            Jl($jl),
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                match self {
                    $name::List(items) => items.serialize(s),
                    // Written as lists (see `from_spec`) unless only the text says it all.
                    $name::Jl(v) => match JlText::jl_text(v) {
                        Some(text) => text.serialize(s),
                        None => Err(serde::ser::Error::custom("not written")),
                    },
                }
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl<'de> de::Visitor<'de> for V {
                    type Value = $name;
                    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        f.write_str($expecting)
                    }
                    fn visit_str<E: de::Error>(self, s: &str) -> Result<$name, E> {
                        let parse: fn(&str) -> Result<$jl, SettingsError> = $parse;
                        parse(s).map($name::Jl).map_err(E::custom)
                    }
                    fn visit_seq<A: de::SeqAccess<'de>>(self, seq: A) -> Result<$name, A::Error> {
                        Vec::<$item>::deserialize(de::value::SeqAccessDeserializer::new(seq))
                            .map($name::List)
                    }
                }
                d.deserialize_any(V)
            }
        }
    };
}

list_or_jl!(
    Colors,
    ColorValue,
    (Vec<Rgba>, bool),
    settings::parse_colors,
    "a list of colours, or Juggling Lab's colors string (\"mixed\", \"orbits\", \"{red}{0,0,255}\")"
);
list_or_jl!(
    Hands,
    HandEntry,
    Vec<Vec<DwellPoints>>,
    settings::parse_hands,
    "a list of { throw, catch } tables, or Juggling Lab's hands string"
);
/// The Juggling Lab text a parsed settings value is written back as, when TOML lists cannot
/// hold it.
trait JlText {
    fn jl_text(&self) -> Option<String> {
        None
    }
}
impl JlText for (Vec<Rgba>, bool) {}
impl JlText for Vec<Vec<DwellPoints>> {}
impl JlText for Vec<BodyBeats> {
    fn jl_text(&self) -> Option<String> {
        Some(settings::format_body(self))
    }
}

/// `jugglers`: where they stand (a list of tables, or Juggling Lab's body string), or how
/// many share a plain siteswap (`jugglers = 2`, a four-handed siteswap).
#[derive(Debug, Clone)]
pub(crate) enum Jugglers {
    List(Vec<JugglerEntry>),
    Jl(Vec<BodyBeats>),
    Count(usize),
}

impl Serialize for Jugglers {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Jugglers::List(items) => items.serialize(s),
            Jugglers::Jl(beats) => settings::format_body(beats).serialize(s),
            Jugglers::Count(n) => s.serialize_u64(*n as u64),
        }
    }
}

impl<'de> Deserialize<'de> for Jugglers {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> de::Visitor<'de> for V {
            type Value = Jugglers;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(
                    "a list of { x, z, facing } tables, Juggling Lab's body string, or the \
                     number of jugglers sharing a plain siteswap",
                )
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Jugglers, E> {
                settings::parse_body(s).map(Jugglers::Jl).map_err(E::custom)
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, seq: A) -> Result<Jugglers, A::Error> {
                Vec::<JugglerEntry>::deserialize(de::value::SeqAccessDeserializer::new(seq))
                    .map(Jugglers::List)
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Jugglers, E> {
                let n = NumberValue::Number(v).checked::<E>(&keys::JUGGLERS, "jugglers")?;
                Ok(Jugglers::Count(n as usize))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Jugglers, E> {
                self.visit_f64(v as f64)
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Jugglers, E> {
                self.visit_f64(v as f64)
            }
        }
        d.deserialize_any(V)
    }
}

fn dwell_points(hands: Vec<HandEntry>) -> Vec<DwellPoints> {
    hands
        .into_iter()
        .map(|h| DwellPoints {
            catch: h.catch.0,
            throw: h.throw.0,
        })
        .collect()
}

impl PatternEntry {
    /// The spec; an error with the byte offset of the value at fault.
    fn into_spec(self) -> Result<PatternSpec, (usize, SettingsError)> {
        let notation = self.siteswap.into_inner().trim().to_string();
        let defaults = Settings::default();
        let (colors, by_orbit) = match self.colors {
            None => (Vec::new(), false),
            Some(Colors::List(list)) => (list.into_iter().map(|c| c.0).collect(), false),
            Some(Colors::Jl(jl)) => jl,
        };
        let mut hands = match self.hands {
            None => Vec::new(),
            Some(Hands::List(list)) if list.is_empty() => Vec::new(),
            Some(Hands::List(list)) => vec![dwell_points(list)],
            Some(Hands::Jl(per_juggler)) => per_juggler,
        };
        if let Some(per_juggler) = self.juggler_hands.filter(|p| !p.is_empty()) {
            hands = per_juggler.into_iter().map(dwell_points).collect();
        }
        let shared_by = match &self.jugglers {
            Some(Jugglers::Count(n)) => Some(*n),
            _ => None,
        };
        let positions = match self.jugglers {
            None | Some(Jugglers::Count(_)) => Vec::new(),
            Some(Jugglers::List(list)) => list
                .into_iter()
                .map(|j| {
                    settings::still(PlacementSpec {
                        x: j.x.f32(),
                        z: j.z.f32(),
                        facing_deg: j.facing.f32(),
                    })
                })
                .collect(),
            Some(Jugglers::Jl(positions)) => positions,
        };
        let dwell = match self.beat_dwells.filter(|b| !b.is_empty()) {
            Some(beats) => {
                let per_beat = Dwell::PerBeat(beats.into_iter().map(|d| d.0).collect());
                let derived = per_beat.value();
                match self.dwell {
                    Some(d) if (d.get_ref().0 - derived).abs() > 1e-9 => {
                        let dwell = d.get_ref().0;
                        let error = SettingsError::DwellMismatch { dwell, derived };
                        return Err((d.span().start, error));
                    }
                    _ => per_beat,
                }
            }
            None => self
                .dwell
                .map_or(defaults.dwell, |d| Dwell::Uniform(d.into_inner().0)),
        };
        let settings = Settings {
            bps: self.bps.map(|b| b.0),
            dwell,
            gravity: self.gravity.map_or(defaults.gravity, |g| g.0),
            prop: self.prop.unwrap_or(defaults.prop),
            prop_kinds: self.props.unwrap_or_default(),
            colors,
            color_by_orbit: self.color_by_orbit.unwrap_or(defaults.color_by_orbit) || by_orbit,
            hands,
            positions,
            bodies: Bodies {
                shared: self.body.map(BodySpec::from).unwrap_or_default(),
                jugglers: self
                    .bodies
                    .unwrap_or_default()
                    .into_iter()
                    .map(BodySpec::from)
                    .collect(),
            },
            camera: self.camera.map(|c| CameraSpec {
                azimuth_deg: c.azimuth.f32(),
                elevation_deg: c.elevation.f32(),
                distance: c.distance.map(Checked::f32),
            }),
            spins: self.spins.map(|s| s.0).unwrap_or_default(),
            pancake_rings: self.ring_throws == Some(RingThrows::Pancake),
            shared_by,
            bounce_energy: self.bounce_energy.map(|b| b.0),
        };
        Ok(PatternSpec {
            name: self.name.unwrap_or_else(|| notation.clone()),
            source: PatternSource::Siteswap(notation),
            description: self.description.unwrap_or_default(),
            settings,
        })
    }
}

/// Reads a TOML pattern file's text; `origin` (usually the path) names it in errors. Every
/// siteswap must be valid.
pub fn from_toml_str(text: &str, origin: &str) -> Result<Vec<PatternSpec>, FileError> {
    super::checked(read_toml_str(text, origin)?)
}

/// Like [`from_toml_str`], keeping where each pattern's siteswap is written, without checking
/// the siteswaps. Every value is checked where it is read (its range, at its line and
/// column).
pub fn read_toml_str(text: &str, origin: &str) -> Result<Vec<LoadedPattern>, FileError> {
    let locator = Locator::new(origin, text);
    let toml_error = |e: toml::de::Error| FileError::Toml {
        at: Location::of_offset(origin, text, e.span().map_or(0, |s| s.start)),
        message: e.message().trim().to_string(),
    };
    let table: toml::Table = toml::from_str(text).map_err(toml_error)?;
    let entries = if table.contains_key("pattern") {
        toml::from_str::<PatternListFile>(text)
            .map_err(toml_error)?
            .pattern
    } else {
        vec![toml::from_str::<PatternEntry>(text).map_err(toml_error)?]
    };
    entries
        .into_iter()
        .map(|entry| {
            let at = locator.at(entry.siteswap.span().start);
            if entry.siteswap.get_ref().trim().is_empty() {
                return Err(FileError::Toml {
                    at,
                    message: "siteswap is empty".into(),
                });
            }
            let error = |at: Location, e: SettingsError| FileError::Toml {
                at,
                message: e.to_string(),
            };
            let spec = entry
                .into_spec()
                .map_err(|(offset, e)| error(locator.at(offset), e))?;
            // Values were checked where they are written; this checks what only the whole
            // says (the budget of lists given as lists).
            spec.settings.check().map_err(|e| error(at.clone(), e))?;
            Ok(LoadedPattern { spec, at })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err_of(text: &str) -> FileError {
        match from_toml_str(text, "t.toml") {
            Ok(specs) => panic!("expected an error, got {specs:?}"),
            Err(e) => e,
        }
    }

    #[test]
    fn single_pattern_with_defaults() {
        let specs = from_toml_str("siteswap = \"531\"\n", "t.toml").unwrap();
        assert_eq!(specs, vec![PatternSpec::from_notation("531")]);
    }

    #[test]
    fn every_key_maps_to_the_spec() {
        let text = r##"
name = "Test"
siteswap = " (4,4) "
description = "All keys"
bps = 4
dwell = 0.8
gravity = 9.5
bounce_energy = 1.5
prop = "ring"
colors = ["red", "#102030"]
color_by_orbit = true
jugglers = [{ x = 0, z = -1.2, facing = 0 }, { x = 0.5, z = 1.2, facing = 180 }]
hands = [{ throw = [0.1], catch = [0.3, 0.05] }, { throw = [0.2, 0, 0.1], catch = [0.25, 0, 0] }]
body = { shoulder_width = 0.5, forearm = 0.3 }
bodies = [{}, { shoulder_height = 1.3 }]
camera = { azimuth = 340, elevation = 20 }
"##;
        let spec = from_toml_str(text, "t.toml").unwrap().remove(0);
        assert_eq!(spec.name, "Test");
        assert_eq!(spec.source.text(), "(4,4)");
        assert_eq!(spec.description, "All keys");
        let s = &spec.settings;
        assert_eq!(s.bps, Some(4.0));
        assert_eq!(s.dwell, Dwell::Uniform(0.8));
        assert_eq!(s.gravity, 9.5);
        assert_eq!(s.bounce_energy, Some(1.5));
        assert_eq!(s.prop, PropKind::Ring);
        assert_eq!(
            s.colors,
            vec![Rgba::rgb(255, 0, 0), Rgba::rgb(0x10, 0x20, 0x30)]
        );
        assert!(s.color_by_orbit);
        assert!(!s.moving());
        assert_eq!(
            s.placements(),
            vec![
                PlacementSpec {
                    x: 0.0,
                    z: -1.2,
                    facing_deg: 0.0
                },
                PlacementSpec {
                    x: 0.5,
                    z: 1.2,
                    facing_deg: 180.0
                }
            ]
        );
        assert_eq!(
            s.hands,
            vec![vec![
                DwellPoints {
                    throw: [0.1, 0.0, 0.0],
                    catch: [0.3, 0.05, 0.0]
                },
                DwellPoints {
                    throw: [0.2, 0.0, 0.1],
                    catch: [0.25, 0.0, 0.0]
                }
            ]]
        );
        assert_eq!(
            s.bodies.shared,
            BodySpec {
                shoulder_width: Some(0.5),
                forearm: Some(0.3),
                ..BodySpec::default()
            }
        );
        assert_eq!(
            s.bodies.jugglers,
            vec![
                BodySpec::default(),
                BodySpec {
                    shoulder_height: Some(1.3),
                    ..BodySpec::default()
                }
            ]
        );
        assert_eq!(
            s.camera,
            Some(CameraSpec {
                azimuth_deg: 340.0,
                elevation_deg: 20.0,
                distance: None
            })
        );
    }

    #[test]
    fn list_of_patterns_keeps_order_and_lines() {
        let text = "[[pattern]]\nsiteswap = \"3\"\n\n[[pattern]]\nname = \"Box\"\nsiteswap = \"(4,2x)*\"\n";
        let loaded = read_toml_str(text, "l.toml").unwrap();
        assert_eq!(loaded.len(), 2);
        assert_eq!(loaded[0].spec.source.text(), "3");
        assert_eq!(loaded[1].spec.name, "Box");
        assert_eq!((loaded[0].at.line, loaded[0].at.column), (2, 12));
        assert_eq!((loaded[1].at.line, loaded[1].at.column), (6, 12));
    }

    #[test]
    fn unknown_key_is_named_with_its_line() {
        let e = err_of("siteswap = \"3\"\nbpm = 3\n");
        let msg = e.to_string();
        assert!(msg.starts_with("t.toml:2:1: "), "{msg}");
        assert!(msg.contains("unknown field `bpm`"), "{msg}");
    }

    #[test]
    fn unknown_key_inside_a_list_entry() {
        let e = err_of(
            "[[pattern]]\nsiteswap = \"3\"\n[[pattern]]\nsiteswap = \"4\"\ncolour = \"red\"\n",
        );
        let msg = e.to_string();
        assert!(msg.starts_with("t.toml:5:1: "), "{msg}");
        assert!(msg.contains("`colour`"), "{msg}");
    }

    #[test]
    fn wrong_type_names_line_and_column() {
        let msg = err_of("siteswap = \"3\"\ndwell = \"slow\"\n").to_string();
        assert_eq!(
            msg,
            "t.toml:2:9: dwell must be between 0 (excluded) and 2 (excluded) beats, not \"slow\""
        );
    }

    #[test]
    fn out_of_range_values_are_errors() {
        let cases = [
            (
                "dwell = 2.5",
                "dwell must be between 0 (excluded) and 2 (excluded) beats, not 2.5",
            ),
            ("dwell = 0", "dwell must be between 0 (excluded) and 2"),
            (
                "bps = -1",
                "bps must be between 0.1 and 200 beats per second, not -1",
            ),
            (
                "bps = nan",
                "must be between 0.1 and 200 beats per second, not NaN",
            ),
            ("bps = 1e-308", "not 1e-308"),
            (
                "bps = true",
                "bps must be between 0.1 and 200 beats per second, not true",
            ),
            (
                "gravity = 0",
                "gravity must be between 0.001 and 1000 m/s², not 0",
            ),
            (
                "gravity = 1e308",
                "gravity must be between 0.001 and 1000 m/s², not 1e308",
            ),
            (
                "bounce_energy = 0",
                "bounce_energy must be between 0 (excluded) and 10, not 0",
            ),
            (
                "beat_dwells = [1, -1]",
                "beat_dwells must be between 0 and 10000 beats, not -1",
            ),
            (
                "dwell = 1\nbeat_dwells = [1.5, 2.5]",
                "dwell 1 is not the dwell of beat_dwells (1.5, their shortest): give one of them",
            ),
            ("prop = \"knife\"", "unknown variant `knife`"),
            ("colors = [\"mauve\"]", "colour 'mauve' not recognized"),
            ("hands = [{ throw = [], catch = [0.3] }]", "1 to 3 numbers"),
            (
                "hands = [{ throw = [0.1, 0, 0, 0], catch = [0.3] }]",
                "1 to 3 numbers",
            ),
            ("hands = [{ throw = [0.1] }]", "missing field `catch`"),
            (
                "body = { forearm = -0.3 }",
                "forearm must be between 0.01 and 5 metres, not -0.3",
            ),
            (
                "camera = { azimuth = 0, elevation = 95 }",
                "elevation must be between -90 and 90 degrees, not 95",
            ),
            (
                "camera = { azimuth = 0, elevation = 0, distance = 3e38 }",
                "distance must be between 0.1 and 10000 metres, not 3e38",
            ),
            (
                "jugglers = [{ x = 0, z = inf, facing = 0 }]",
                "z must be between -1000 and 1000 metres, not inf",
            ),
            (
                "hands = [{ throw = [11], catch = [0] }]",
                "hands coordinate must be between -10 and 10 metres, not 11",
            ),
            (
                "hands = \"(10)(20)C.\"",
                "'C' must be followed by a coordinate",
            ),
            (
                "jugglers = \"((0,1)(0,2))^5000.\"",
                "more than the limit of 256",
            ),
            (
                "spins = { \"A\" = 1 }",
                "spins: 'A' is not a throw value (0-9 or a-z)",
            ),
            ("spins = { \"10\" = 1 }", "'10' is not a throw value"),
            (
                "spins = { \"5\" = 10 }",
                "spins for '5' must be between 0 and 9 turns, not 10",
            ),
            ("spins = { \"5\" = -1 }", "not -1"),
            ("spins = { \"5\" = 1.5 }", "not 1.5"),
            ("spins = [1, 2]", "a table of throw values to spins"),
            (
                "ring_throws = \"flat\"",
                "unknown variant `flat`, expected `face` or `pancake`",
            ),
        ];
        for (line, expected) in cases {
            let msg = err_of(&format!("siteswap = \"3\"\n{line}\n")).to_string();
            assert!(msg.starts_with("t.toml:2:"), "{line}: {msg}");
            assert!(msg.contains(expected), "{line}: {msg}");
        }
    }

    #[test]
    fn spins_and_pancake_rings_are_read() {
        let text = "siteswap = \"531\"\nprop = \"ring\"\nspins = { \"5\" = 2, \"3\" = 0, \"a\" = 3 }\nring_throws = \"pancake\"\n";
        let specs = from_toml_str(text, "t.toml").unwrap();
        let s = &specs[0].settings;
        assert_eq!(s.spins, [(3, 0), (5, 2), (10, 3)]);
        assert!(s.pancake_rings);
        let face = from_toml_str("siteswap = \"3\"\nring_throws = \"face\"\n", "t.toml").unwrap();
        assert!(!face[0].settings.pancake_rings && face[0].settings.spins.is_empty());
    }

    #[test]
    fn bad_toml_syntax_is_located() {
        let msg = err_of("siteswap = \"3\"\nname = \"unterminated\n").to_string();
        assert!(msg.starts_with("t.toml:2:"), "{msg}");
        let msg = err_of("[[pattern]]\nsiteswap = 3\n").to_string();
        assert!(msg.starts_with("t.toml:2:12: "), "{msg}");
        assert!(msg.contains("invalid type: integer"), "{msg}");
    }

    #[test]
    fn deeply_nested_values_are_errors_not_crashes() {
        for text in [
            format!("siteswap = \"3\"\nhands = {}", "[".repeat(100_000)),
            format!("siteswap = \"3\"\ncamera = {}", "{ a = ".repeat(50_000)),
        ] {
            assert!(from_toml_str(&text, "deep.toml").is_err());
        }
    }

    #[test]
    fn missing_or_empty_siteswap() {
        let msg = err_of("name = \"x\"\n").to_string();
        assert!(msg.contains("missing field `siteswap`"), "{msg}");
        let msg = err_of("siteswap = \"  \"\n").to_string();
        assert_eq!(msg, "t.toml:1:12: siteswap is empty");
    }

    #[test]
    fn invalid_siteswap_is_located() {
        let text =
            "[[pattern]]\nsiteswap = \"531\"\n\n[[pattern]]\nname = \"Bad\"\nsiteswap = \"432\"\n";
        let msg = err_of(text).to_string();
        assert_eq!(
            msg,
            "t.toml:6:12: invalid siteswap '432': Pattern is not valid: too many objects landing \
             on beat 5 for juggler 1, right hand"
        );
        let msg = err_of("siteswap = \"5(\"\n").to_string();
        assert!(
            msg.starts_with("t.toml:1:12: invalid siteswap '5(': cannot parse"),
            "{msg}"
        );
        // Reading without the check keeps the pattern.
        assert_eq!(
            read_toml_str(text, "t.toml").unwrap()[1].spec.source.text(),
            "432"
        );
    }

    #[test]
    fn list_mixed_with_top_level_keys_is_rejected() {
        let msg = err_of("name = \"x\"\n[[pattern]]\nsiteswap = \"3\"\n").to_string();
        assert!(msg.contains("unknown field `name`"), "{msg}");
    }

    mod props {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            #[test]
            fn arbitrary_text_never_panics(text in "\\PC{0,200}") {
                let _ = from_toml_str(&text, "p.toml");
            }

            #[test]
            fn near_valid_text_never_panics(
                key in prop_oneof![Just("siteswap"), Just("dwell"), Just("hands"), Just("colors"), Just("jugglers"), Just("camera")],
                value in "[\\[\\]{}=\"#.,0-9a-z -]{0,30}",
            ) {
                let _ = from_toml_str(&format!("siteswap = \"3\"\n{key} = {value}\n"), "p.toml");
                let _ = from_toml_str(&format!("[[pattern]]\n{key} = {value}\n"), "p.toml");
            }
        }
    }
}
