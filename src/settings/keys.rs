//! The one table of settings keys: for every setting its name in each source (Juggling Lab
//! settings strings and JML list lines, TOML pattern files, command-line options and the web
//! page's links), the numbers it holds with their unit and range, its default and a doc line.
//!
//! Every source reads numbers through the table's [`Number`]s, so a bad number is refused
//! everywhere alike, in one message form naming the key, the value and the range:
//! `bps must be between 0.1 and 200 beats per second, not fast` (prefixed with `file:line:`
//! where there is a file). docs/notation.md's settings table is [`markdown`] of [`KEYS`]
//! (a test fails when they differ). Inside these ranges every stage is finite: no `NaN` or
//! infinite position comes out of accepted input.

use std::fmt;

/// A unit of a settings number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// A plain number (a fraction).
    None,
    BeatsPerSecond,
    Beats,
    MetresPerSecond2,
    CentimetresPerSecond2,
    Metres,
    Centimetres,
    Degrees,
    Seconds,
    /// Whole turns of a prop.
    Turns,
}

impl Unit {
    /// The unit as messages and docs write it ("" for a plain number).
    pub fn name(self) -> &'static str {
        match self {
            Unit::None => "",
            Unit::BeatsPerSecond => "beats per second",
            Unit::Beats => "beats",
            Unit::MetresPerSecond2 => "m/s²",
            Unit::CentimetresPerSecond2 => "cm/s²",
            Unit::Metres => "metres",
            Unit::Centimetres => "cm",
            Unit::Degrees => "degrees",
            Unit::Seconds => "seconds",
            Unit::Turns => "turns",
        }
    }
}

/// A number a setting holds: its unit and range, and how settings strings write it when
/// they use another unit (centimetres for metres).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Number {
    /// What the number is, as the docs name it.
    pub what: &'static str,
    pub unit: Unit,
    pub min: f64,
    pub max: f64,
    /// `min` itself is not allowed.
    pub min_excluded: bool,
    /// `max` itself is not allowed.
    pub max_excluded: bool,
    /// Only whole numbers are allowed (a count).
    pub whole: bool,
    /// In settings strings: the unit written there and how many of it make one `unit`
    /// (100 cm per metre); `None` = the same unit.
    pub in_strings: Option<(Unit, f64)>,
}

impl Number {
    const fn closed(what: &'static str, unit: Unit, min: f64, max: f64) -> Number {
        Number {
            what,
            unit,
            min,
            max,
            min_excluded: false,
            max_excluded: false,
            whole: false,
            in_strings: None,
        }
    }

    const fn in_centimetres(self, unit: Unit) -> Number {
        Number {
            in_strings: Some((unit, 100.0)),
            ..self
        }
    }

    /// Whether `value` (in `unit`) is allowed; never for NaN or infinities.
    pub fn contains(&self, value: f64) -> bool {
        value.is_finite()
            && (!self.whole || value.fract() == 0.0)
            && if self.min_excluded {
                value > self.min
            } else {
                value >= self.min
            }
            && if self.max_excluded {
                value < self.max
            } else {
                value <= self.max
            }
    }

    /// `value` when it is allowed, else the error naming `key`.
    pub fn check(&self, key: &str, value: f64) -> Result<f64, ValueError> {
        if self.contains(value) {
            Ok(value)
        } else {
            Err(self.error(key, &show(value)))
        }
    }

    /// The number written in `text` (trimmed), checked.
    pub fn parse(&self, key: &str, text: &str) -> Result<f64, ValueError> {
        match text.trim().parse::<f64>() {
            Ok(v) if self.contains(v) => Ok(v),
            _ => Err(self.error(key, text.trim())),
        }
    }

    /// This number as settings strings write it: range and unit in their unit.
    pub fn in_string(&self) -> Number {
        match self.in_strings {
            Some((unit, per)) => Number {
                unit,
                min: self.min * per,
                max: self.max * per,
                in_strings: None,
                ..*self
            },
            None => *self,
        }
    }

    /// The number written in `text` of a settings string (in its unit there), checked there.
    /// Returns it as written; divide by [`Number::per_unit`] for `unit`.
    pub(crate) fn parse_in_string(&self, key: &str, text: &str) -> Result<f64, ValueError> {
        self.in_string().parse(key, text)
    }

    /// An `f32` of a settings string in this number's unit: `text` read as an `f32` in the
    /// strings' unit, checked there, then converted (in `f32`, as Juggling Lab's readers do).
    pub(crate) fn parse_f32_in_string(&self, key: &str, text: &str) -> Result<f32, ValueError> {
        let written = self.in_string();
        match text.trim().parse::<f32>() {
            Ok(v) if written.contains(f64::from(v)) => Ok(v / self.per_unit() as f32),
            _ => Err(written.error(key, text.trim())),
        }
    }

    /// How many of the settings strings' unit make one of `unit` (1 when they are the same).
    pub(crate) fn per_unit(&self) -> f64 {
        self.in_strings.map_or(1.0, |(_, per)| per)
    }

    /// The error for `value` (as written) given to `key`.
    pub fn error(&self, key: &str, value: &str) -> ValueError {
        ValueError {
            key: key.to_string(),
            value: shorten(value),
            number: *self,
        }
    }

    /// The range as docs write it: `0.1 – 200 beats per second`, `0 – 2 beats, both excluded`.
    pub fn range_text(&self) -> String {
        if self.min == f64::MIN && self.max == f64::MAX {
            return format!("any finite number of {}", self.unit.name());
        }
        let unit = match self.unit.name() {
            "" => String::new(),
            name => format!(" {name}"),
        };
        let excluded = match (self.min_excluded, self.max_excluded) {
            (true, true) => ", both excluded",
            (true, false) => ", min excluded",
            (false, true) => ", max excluded",
            (false, false) => "",
        };
        let whole = if self.whole { "whole numbers " } else { "" };
        format!(
            "{whole}{} – {}{unit}{excluded}",
            show(self.min),
            show(self.max)
        )
    }
}

/// A value given to a key that is not a number in the key's range.
#[derive(Clone, Debug, PartialEq)]
pub struct ValueError {
    /// The key as the source names it (`bps`, `--bps`, `hands coordinate`).
    pub key: String,
    /// The value as written (control characters escaped, long values cut).
    pub value: String,
    /// The number expected, in the unit the source writes.
    pub number: Number,
}

impl fmt::Display for ValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = &self.number;
        let unit = match n.unit.name() {
            "" => String::new(),
            name => format!(" {name}"),
        };
        if n.min == f64::MIN && n.max == f64::MAX {
            return write!(
                f,
                "{} must be a finite number of{unit}, not {}",
                self.key, self.value
            );
        }
        let ex = |excluded: bool| if excluded { " (excluded)" } else { "" };
        write!(
            f,
            "{} must be {}between {}{} and {}{}{unit}, not {}",
            self.key,
            if n.whole { "a whole number " } else { "" },
            show(n.min),
            ex(n.min_excluded),
            show(n.max),
            ex(n.max_excluded),
            self.value
        )
    }
}

impl std::error::Error for ValueError {}

/// A number as messages write it: plain, or in exponent form when very large or small.
pub fn show(v: f64) -> String {
    let a = v.abs();
    if a != 0.0 && a.is_finite() && !(1e-4..1e6).contains(&a) {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

/// A value as echoed in a message: control characters escaped, at most 40 characters.
fn shorten(value: &str) -> String {
    const MAX: usize = 40;
    let escaped = crate::text::escape_control(value);
    match escaped.char_indices().nth(MAX) {
        Some((cut, _)) => format!("{}...", &escaped[..cut]),
        None => escaped.into_owned(),
    }
}

/// Beats per second.
pub const BPS: Number = Number::closed("beats per second", Unit::BeatsPerSecond, 0.1, 200.0);
/// Beats a caught prop stays in the hand before its next throw.
pub const DWELL: Number = Number {
    min_excluded: true,
    max_excluded: true,
    ..Number::closed("dwell", Unit::Beats, 0.0, 2.0)
};
/// One beat's dwell of a hand siteswap (a hand free for many beats may hold that long; 0 =
/// the pattern's dwell).
pub const BEAT_DWELL: Number = Number::closed("dwell of one beat", Unit::Beats, 0.0, 10_000.0);
/// Gravity.
pub const GRAVITY: Number = Number::closed("gravity", Unit::MetresPerSecond2, 0.001, 1000.0)
    .in_centimetres(Unit::CentimetresPerSecond2);
/// Juggling Lab's prop diameter (read and checked; props keep juggler's own sizes).
pub const PROP_DIAMETER: Number = Number {
    min_excluded: true,
    ..Number::closed("prop diameter", Unit::Centimetres, 0.0, 1000.0)
};
/// Juggling Lab's `bouncefrac`: the share of its energy a bouncing prop keeps at each bounce
/// (the rebound speed is its square root times the impact's). Above 1 the bounce gives energy,
/// as a bat does (Juggling Lab's own list has `bouncefrac=1.5`, "Table Tennis"); at most 10,
/// so eight bounces stay within reach of a flight.
pub const BOUNCE_FRACTION: Number = Number {
    min_excluded: true,
    ..Number::closed("energy kept per bounce", Unit::None, 0.0, 10.0)
};
/// Juggling Lab's spread of several catches in one hand on one beat (read and checked).
pub const SQUEEZE_BEATS: Number = Number::closed("spread of catches", Unit::Beats, 0.0, 2.0);
/// A coordinate of a hand's throw or catch point.
pub const HAND_POINT: Number = Number::closed("hand point coordinate", Unit::Metres, -10.0, 10.0)
    .in_centimetres(Unit::Centimetres);
/// A juggler's position on the floor (x or z; settings strings' height too).
pub const POSITION: Number = Number::closed("juggler position", Unit::Metres, -1000.0, 1000.0)
    .in_centimetres(Unit::Centimetres);
/// The direction a juggler faces.
pub const FACING: Number = Number::closed("juggler facing", Unit::Degrees, -3600.0, 3600.0);
/// Shoulder width, upper arm, forearm and hand.
pub const BODY_LENGTH: Number = Number::closed("body length", Unit::Metres, 0.01, 5.0);
/// Shoulder height above the floor.
pub const SHOULDER_HEIGHT: Number = Number::closed("shoulder height", Unit::Metres, 0.1, 5.0);
/// Camera angle around the vertical axis.
pub const AZIMUTH: Number = Number::closed("camera azimuth", Unit::Degrees, -3600.0, 3600.0);
/// Camera angle above the horizon (the view stops 1° short of straight up and down).
pub const ELEVATION: Number = Number::closed("camera elevation", Unit::Degrees, -90.0, 90.0);
/// Camera distance from the scene's centre.
pub const CAMERA_DISTANCE: Number = Number::closed("camera distance", Unit::Metres, 0.1, 10_000.0);
/// Turns of a club or ring per throw value.
pub const SPINS: Number = Number::closed("spins", Unit::Turns, 0.0, 9.0);
/// Jugglers sharing one plain siteswap (`jugglers=2`: a four-handed siteswap), at most the
/// budget's [`crate::budget::SHARING_JUGGLERS`].
pub const JUGGLERS: Number = Number {
    whole: true,
    ..Number::closed(
        "jugglers",
        Unit::None,
        1.0,
        crate::budget::SHARING_JUGGLERS.max as f64,
    )
};
/// A time in the animation (reduced modulo the loop).
pub const TIME: Number = Number::closed("time", Unit::Seconds, f64::MIN, f64::MAX);

/// One setting as every source names it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Key {
    /// Name in Juggling Lab settings strings and JML list lines (`None`: not there).
    pub string: Option<&'static str>,
    /// Name in TOML pattern files.
    pub toml: Option<&'static str>,
    /// Command-line option; the web page's link takes it without the dashes.
    pub option: Option<&'static str>,
    /// The numbers the value holds, each with its unit and range.
    pub numbers: &'static [Number],
    /// What is written besides numbers (forms, words).
    pub forms: &'static str,
    pub default: &'static str,
    pub doc: &'static str,
}

const fn key(string: Option<&'static str>, toml: Option<&'static str>) -> Key {
    Key {
        string,
        toml,
        option: None,
        numbers: &[],
        forms: "",
        default: "",
        doc: "",
    }
}

/// Every setting, in the order of the docs' table.
pub const KEYS: &[Key] = &[
    Key {
        forms: "Juggling Lab notation",
        default: "required",
        doc: "the pattern",
        ..key(Some("pattern"), Some("siteswap"))
    },
    Key {
        option: Some("--jugglers"),
        numbers: &[JUGGLERS],
        forms: "TOML: the number form of `jugglers`",
        default: "as the pattern is written",
        doc: "jugglers sharing a plain siteswap, read as a 2N-handed siteswap (hands A right, \
              B right, …, A left, B left, …: `975;jugglers=2` is the Holy Grail); a passing \
              pattern must be written for as many",
        ..key(Some("jugglers"), Some("jugglers"))
    },
    Key {
        default: "the pattern",
        doc: "the name shown",
        ..key(Some("title"), Some("name"))
    },
    Key {
        doc: "free text for pattern libraries",
        ..key(None, Some("description"))
    },
    Key {
        option: Some("--bps"),
        numbers: &[BPS],
        forms: "settings strings: 0 or less = automatic",
        default: "from the throw heights",
        doc: "tempo",
        ..key(Some("bps"), Some("bps"))
    },
    Key {
        option: Some("--dwell"),
        numbers: &[DWELL],
        default: "1.3",
        doc: "beats a caught prop stays in the hand before its next throw",
        ..key(Some("dwell"), Some("dwell"))
    },
    Key {
        numbers: &[BEAT_DWELL],
        forms: "a list, cycled over the beats",
        doc: "a dwell per beat, as hand siteswaps (`hss`) have them; the pattern's dwell is \
              then the shortest",
        ..key(None, Some("beat_dwells"))
    },
    Key {
        option: Some("--gravity"),
        numbers: &[GRAVITY],
        default: "9.81 m/s²",
        doc: "gravity",
        ..key(Some("gravity"), Some("gravity"))
    },
    Key {
        option: Some("--prop"),
        forms: "`ball`, `club`, `ring` (settings strings also `image`, `square`: balls)",
        default: "ball",
        doc: "prop kind",
        ..key(Some("prop"), Some("prop"))
    },
    Key {
        forms: "a list of `ball`, `club`, `ring`",
        default: "every prop `prop`",
        doc: "each prop's own kind, by prop, cycled: clubs and balls together",
        ..key(None, Some("props"))
    },
    Key {
        forms: "names, `{r,g,b}`, `(…)^N`, `mixed`, `orbits` (TOML: a list of names or \
                `#rrggbb`, or such a string)",
        default: "built-in palette",
        doc: "prop colours, used cyclically",
        ..key(Some("colors"), Some("colors"))
    },
    Key {
        option: Some("--color-by-orbit"),
        forms: "true or false",
        default: "false",
        doc: "one colour per orbit instead of per prop",
        ..key(None, Some("color_by_orbit"))
    },
    Key {
        numbers: &[HAND_POINT],
        forms: "Juggling Lab's `hands` (TOML: `[{ throw, catch }]` or such a string; \
                `juggler_hands` per juggler)",
        default: "Juggling Lab's table",
        doc: "throw and catch points, cycled over each juggler's beats (also where a hand holds or is empty)",
        ..key(Some("hands"), Some("hands"))
    },
    Key {
        numbers: &[POSITION, FACING],
        forms: "Juggling Lab's `body` (TOML: `[{ x, z, facing }]` or such a string)",
        default: "a circle facing its centre",
        doc: "where the jugglers stand, or how they move beat by beat",
        ..key(Some("body"), Some("jugglers"))
    },
    Key {
        numbers: &[BODY_LENGTH, SHOULDER_HEIGHT],
        forms: "`{ shoulder_width, shoulder_height, upper_arm, forearm, hand }`; `bodies`: \
                one per juggler over it",
        default: "adult proportions",
        doc: "body proportions",
        ..key(None, Some("body"))
    },
    Key {
        option: Some("--azimuth"),
        numbers: &[AZIMUTH],
        default: "automatic",
        doc: "camera angle around the vertical axis (0 = from the front)",
        ..key(None, Some("camera.azimuth"))
    },
    Key {
        option: Some("--elevation"),
        numbers: &[ELEVATION],
        default: "automatic",
        doc: "camera angle above the horizon (the view stops at ±89)",
        ..key(None, Some("camera.elevation"))
    },
    Key {
        option: Some("--distance"),
        numbers: &[CAMERA_DISTANCE],
        default: "frames all jugglers",
        doc: "camera distance",
        ..key(None, Some("camera.distance"))
    },
    Key {
        numbers: &[SPINS],
        forms: "`{ \"3\" = 1, \"5\" = 2 }` by throw value",
        default: "automatic",
        doc: "turns of a club or ring per throw value (a throw's own `~N` wins)",
        ..key(None, Some("spins"))
    },
    Key {
        forms: "`face` or `pancake`",
        default: "face",
        doc: "rings thrown showing their face, or flat",
        ..key(None, Some("ring_throws"))
    },
    Key {
        forms: "a hand siteswap; `pattern` is then the object siteswap",
        doc: "Juggling Lab's hand siteswap, converted to passing notation",
        ..key(Some("hss"), None)
    },
    Key {
        forms: "true or false",
        default: "false",
        doc: "`hss` option: hold props in hands that do not throw",
        ..key(Some("hold"), None)
    },
    Key {
        forms: "true or false",
        default: "true",
        doc: "`hss` option: dwell as long as the hand is free",
        ..key(Some("dwellmax"), None)
    },
    Key {
        forms: "hands to jugglers, as Juggling Lab writes it",
        doc: "`hss` option: which juggler each hand belongs to",
        ..key(Some("handspec"), None)
    },
    Key {
        numbers: &[PROP_DIAMETER],
        default: "10",
        doc: "read and checked, not used (props keep their own sizes)",
        ..key(Some("propdiam"), None)
    },
    Key {
        numbers: &[BOUNCE_FRACTION],
        default: "0.9",
        doc: "energy a bouncing prop keeps at each bounce (above 1 it gains, as off a bat)",
        ..key(Some("bouncefrac"), Some("bounce_energy"))
    },
    Key {
        numbers: &[SQUEEZE_BEATS],
        default: "0.4",
        doc: "read and checked, not used",
        ..key(Some("squeezebeats"), None)
    },
];

/// The key of a settings-string name (case-insensitive, trimmed).
pub(crate) fn string_key(name: &str) -> Option<&'static Key> {
    let name = name.trim();
    KEYS.iter()
        .find(|k| k.string.is_some_and(|s| s.eq_ignore_ascii_case(name)))
}

/// The docs' settings table (docs/notation.md): one row per key of [`KEYS`].
pub fn markdown() -> String {
    let code = |name: Option<&str>| name.map_or(String::new(), |n| format!("`{n}`"));
    let mut out = String::from(
        "| settings string | TOML | option | numbers | forms | default | meaning |\n\
         |---|---|---|---|---|---|---|\n",
    );
    for k in KEYS {
        let numbers: Vec<String> = k
            .numbers
            .iter()
            .map(|n| {
                let strings = match n.in_strings {
                    Some(_) => format!(" (settings strings: {})", n.in_string().range_text()),
                    None => String::new(),
                };
                match k.numbers.len() {
                    1 => format!("{}{strings}", n.range_text()),
                    _ => format!("{}: {}{strings}", n.what, n.range_text()),
                }
            })
            .collect();
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} |\n",
            code(k.string),
            code(k.toml),
            code(k.option),
            numbers.join("; "),
            k.forms,
            k.default,
            k.doc
        ));
    }
    out
}
