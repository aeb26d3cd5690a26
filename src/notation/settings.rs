//! Juggling Lab settings strings (`pattern=531;bps=4;dwell=1;prop=ring`), read into a
//! [`PatternSpec`] (NOTATION.md §8). Units are converted here: centimetres to metres,
//! cm/s² to m/s².

use thiserror::Error;

use crate::spec::{DwellPoints, PatternSpec, PlacementSpec, Settings};
use crate::types::{PropKind, Rgba};

/// Why a settings string cannot be used (Juggling Lab's messages where it has one).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SettingsError {
    #[error("Parameter '{0}' has no value")]
    NoValue(String),
    #[error("Unused input parameter{}: {}", if .0.len() > 1 { "s" } else { "" }, quote_list(.0))]
    Unused(Vec<String>),
    #[error("No pattern specified")]
    NoPattern,
    #[error("Number format error in '{0}' value")]
    NumberFormat(&'static str),
    #[error("'{0}' value must be a finite number")]
    NotFinite(&'static str),
    #[error("'Dwell' value should be between 0 and 2")]
    DwellRange,
    #[error("Gravity value must be positive")]
    Gravity,
    #[error("Prop diameter value must be positive")]
    PropDiameter,
    #[error("Prop type '{0}' not recognized")]
    Prop(String),
    #[error("Error in color format")]
    ColorFormat,
    #[error("Prop color '{0}' not recognized")]
    Color(String),
    #[error("Error in 'hands' setting: {0}")]
    Hands(String),
    #[error("Error in 'body' setting: {0}")]
    Body(String),
    #[error("'{0}' is not supported yet")]
    Unsupported(&'static str),
    /// A value outside its documented range (`ranges`).
    #[error("{0}")]
    Range(String),
}

fn quote_list(keys: &[String]) -> String {
    keys.iter()
        .map(|k| format!("\"{k}\""))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A bare siteswap (no `=`) or a settings string, as a [`PatternSpec`]. The pattern itself
/// is not validated here (see `schedule::from_notation`).
pub fn parse_input(input: &str) -> Result<PatternSpec, SettingsError> {
    if input.contains('=') {
        parse_settings(input)
    } else {
        let notation: String = input
            .chars()
            .filter(|c| !matches!(c, '\r' | '\n'))
            .collect();
        if notation.trim().is_empty() {
            return Err(SettingsError::NoPattern);
        }
        Ok(PatternSpec::from_notation(&notation))
    }
}

const KNOWN: [&str; 16] = [
    "pattern",
    "bps",
    "dwell",
    "hands",
    "body",
    "gravity",
    "propdiam",
    "bouncefrac",
    "squeezebeats",
    "prop",
    "colors",
    "hss",
    "hold",
    "dwellmax",
    "handspec",
    "title",
];

/// Whether `key` (case-insensitive, trimmed) is a Juggling Lab settings key (`pattern`,
/// `bps`, ...): an argument starting with `key=` for such a key is a settings string.
pub fn is_settings_key(key: &str) -> bool {
    let key = key.trim().to_ascii_lowercase();
    KNOWN.contains(&key.as_str())
}

/// Parses `key=value;key=value` (keys case-insensitive, values trimmed, empty entries
/// skipped, a repeated key keeps its last value).
pub fn parse_settings(input: &str) -> Result<PatternSpec, SettingsError> {
    let config: String = input
        .chars()
        .filter(|c| !matches!(c, '\r' | '\n'))
        .collect();
    let mut values: Vec<(String, String)> = Vec::new();
    for entry in config.split(';') {
        if entry.trim().is_empty() {
            continue;
        }
        let Some((key, value)) = entry.split_once('=') else {
            return Err(SettingsError::NoValue(entry.trim().to_string()));
        };
        let key = key.trim().to_ascii_lowercase();
        values.retain(|(k, _)| *k != key);
        values.push((key, value.trim().to_string()));
    }
    let get = |key: &str| {
        values
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    };

    let has_hss = get("hss").is_some();
    let unused: Vec<String> = values
        .iter()
        .map(|(k, _)| k)
        .filter(|k| {
            !KNOWN.contains(&k.as_str())
                || (!has_hss && ["hold", "dwellmax", "handspec"].contains(&k.as_str()))
        })
        .cloned()
        .collect();
    if !unused.is_empty() {
        return Err(SettingsError::Unused(unused));
    }
    let notation = match get("pattern") {
        Some(p) if !p.is_empty() => p.to_string(),
        _ => return Err(SettingsError::NoPattern),
    };
    if has_hss {
        return Err(SettingsError::Unsupported("hss (hand siteswap)"));
    }

    let mut settings = Settings::default();
    if let Some(v) = get("bps") {
        let bps = number(v, "bps")?.ok_or(SettingsError::NumberFormat("bps"))?;
        settings.bps = (bps > 0.0).then_some(bps);
    }
    if let Some(v) = get("dwell") {
        let dwell = number(v, "dwell")?.ok_or(SettingsError::NumberFormat("dwell"))?;
        if !(dwell > 0.0 && dwell < 2.0) {
            return Err(SettingsError::DwellRange);
        }
        settings.dwell = dwell;
    }
    if let Some(g) = get("gravity")
        .map(|v| number(v, "gravity"))
        .transpose()?
        .flatten()
    {
        if g <= 0.0 {
            return Err(SettingsError::Gravity);
        }
        crate::ranges::GRAVITY_CM
            .check(g)
            .map_err(|e| SettingsError::Range(e.to_string()))?;
        settings.gravity = g / 100.0;
    }
    if let Some(d) = get("propdiam")
        .map(|v| number(v, "propdiam"))
        .transpose()?
        .flatten()
    {
        if d <= 0.0 {
            return Err(SettingsError::PropDiameter);
        }
    }
    for key in ["bouncefrac", "squeezebeats"] {
        if let Some(v) = get(key) {
            number(
                v,
                if key == "bouncefrac" {
                    "bouncefrac"
                } else {
                    "squeezebeats"
                },
            )?;
        }
    }
    if let Some(p) = get("prop") {
        settings.prop = match p.to_ascii_lowercase().as_str() {
            "ball" => PropKind::Ball,
            "ring" => PropKind::Ring,
            "club" => PropKind::Club,
            _ => return Err(SettingsError::Prop(p.to_string())),
        };
    }
    if let Some(c) = get("colors") {
        settings.colors = colors(c)?;
    }
    if let Some(h) = get("hands") {
        settings.hand_positions = hands(h)?;
    }
    if let Some(b) = get("body") {
        settings.placements = body(b)?;
    }
    crate::ranges::check_settings(&settings).map_err(|e| SettingsError::Range(e.to_string()))?;
    let name = get("title")
        .filter(|t| !t.is_empty())
        .unwrap_or(&notation)
        .to_string();
    Ok(PatternSpec {
        name,
        notation,
        description: String::new(),
        settings,
    })
}

/// A number: `Ok(None)` when it does not parse, an error when it is NaN or infinite.
fn number(v: &str, key: &'static str) -> Result<Option<f64>, SettingsError> {
    match v.trim().parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(Some(x)),
        Ok(_) => Err(SettingsError::NotFinite(key)),
        Err(_) => Ok(None),
    }
}

const MIXED: [&str; 10] = [
    "red", "green", "blue", "yellow", "cyan", "magenta", "orange", "pink", "gray", "black",
];

/// Juggling Lab's (Java's) named colours.
fn named_color(name: &str) -> Option<Rgba> {
    Some(match name {
        "transparent" => Rgba::with_alpha(0, 0, 0, 0),
        "black" => Rgba::rgb(0, 0, 0),
        "blue" => Rgba::rgb(0, 0, 255),
        "cyan" => Rgba::rgb(0, 255, 255),
        "gray" => Rgba::rgb(128, 128, 128),
        "green" => Rgba::rgb(0, 255, 0),
        "magenta" => Rgba::rgb(255, 0, 255),
        "orange" => Rgba::rgb(255, 200, 0),
        "pink" => Rgba::rgb(255, 175, 175),
        "red" => Rgba::rgb(255, 0, 0),
        "white" => Rgba::rgb(255, 255, 255),
        "yellow" => Rgba::rgb(255, 255, 0),
        _ => return None,
    })
}

/// `mixed`, or a list of `{name}` / `{r,g,b}` (0-255).
fn colors(v: &str) -> Result<Vec<Rgba>, SettingsError> {
    if v.trim().eq_ignore_ascii_case("mixed") {
        return Ok(MIXED.iter().filter_map(|n| named_color(n)).collect());
    }
    let mut out = Vec::new();
    for block in v
        .split('}')
        .map(|b| b.replace('{', " "))
        .filter(|b| !b.trim().is_empty())
    {
        let parts: Vec<&str> = block.split(',').map(str::trim).collect();
        match parts.as_slice() {
            [name] => {
                let name = name.to_ascii_lowercase();
                out.push(named_color(&name).ok_or(SettingsError::Color(name))?);
            }
            [r, g, b] => {
                let c = |s: &str| s.parse::<u8>().map_err(|_| SettingsError::ColorFormat);
                out.push(Rgba::rgb(c(r)?, c(g)?, c(b)?));
            }
            _ => return Err(SettingsError::ColorFormat),
        }
    }
    Ok(out)
}

/// `hands=`: per beat, `.`-terminated, points `(x,up,forward)` in cm; the throw is the point
/// marked `T` (else the first), the catch the one marked `C` (else the last). Only the first
/// juggler's entries (before any `|`) are used: `Settings::hand_positions` is shared.
/// In Juggling Lab an entry's catch comes *after* its throw (the empty hand travels from the
/// throw to the catch), while a `DwellPoints` pairs a throw with the catch *before* it. That
/// catch is made by the same hand, whose next entry is two entries on (entries alternate hands
/// beat by beat, and left/right within a sync pair): so entry i's catch becomes the catch of
/// throw i + 2 (cyclically).
fn hands(v: &str) -> Result<Vec<DwellPoints>, SettingsError> {
    let first = v.split('|').next().unwrap_or("");
    let mut out = Vec::new();
    for entry in beats(first)
        .into_iter()
        .map(str::trim)
        .filter(|e| !e.is_empty())
    {
        let (mut throw, mut catch) = (None, None);
        let mut points = Vec::new();
        let mut mark = None;
        let mut rest = entry;
        while let Some(c) = rest.chars().next() {
            match c {
                'T' | 't' | 'C' | 'c' => {
                    mark = Some(c.to_ascii_uppercase());
                    rest = &rest[1..];
                }
                '-' | ' ' => rest = &rest[1..],
                '(' => {
                    let end = rest
                        .find(')')
                        .ok_or_else(|| SettingsError::Hands(format!("missing ')' in '{entry}'")))?;
                    let p = point(&rest[1..end]).map_err(SettingsError::Hands)?;
                    match mark.take() {
                        Some('T') => throw = Some(p),
                        Some(_) => catch = Some(p),
                        None => {}
                    }
                    points.push(p);
                    rest = &rest[end + 1..];
                }
                other => {
                    return Err(SettingsError::Hands(format!(
                        "unexpected '{other}' in '{entry}'"
                    )))
                }
            }
        }
        if points.len() < 2 {
            return Err(SettingsError::Hands(
                "must have at least 2 coordinates per throw".into(),
            ));
        }
        out.push(DwellPoints {
            throw: throw.unwrap_or(points[0]),
            catch: catch.unwrap_or(points[points.len() - 1]),
        });
    }
    let catches_after: Vec<[f32; 3]> = out.iter().map(|p| p.catch).collect();
    let n = out.len();
    for (i, points) in out.iter_mut().enumerate() {
        points.catch = catches_after[(i + 2 * n - 2) % n];
    }
    Ok(out)
}

/// Splits on the `.` that end beats (those outside parentheses; inside they are decimals).
fn beats(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            '.' if depth <= 0 => {
                out.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&text[start..]);
    out
}

/// `x[,up[,forward]]` in cm -> metres `[x, y, z]` of the juggler's frame.
fn point(text: &str) -> Result<[f32; 3], String> {
    let mut p = [0.0f32; 3];
    let parts: Vec<&str> = text.split(',').collect();
    if parts.len() > 3 {
        return Err(format!("too many coordinates in '({text})'"));
    }
    for (slot, part) in p.iter_mut().zip(parts) {
        let v: f32 = part
            .trim()
            .parse()
            .map_err(|_| format!("bad coordinate '{}'", part.trim()))?;
        if !v.is_finite() {
            return Err(format!("bad coordinate '{}'", part.trim()));
        }
        *slot = v / 100.0;
    }
    Ok(p)
}

/// `body=`: per juggler (`|`-separated) beats of `(angle,x,y[,z])` in degrees and cm; the
/// first beat gives the juggler's placement (Juggling Lab's x,y floor plane -> juggler's
/// x = -x, z = y).
fn body(v: &str) -> Result<Vec<PlacementSpec>, SettingsError> {
    let mut out = Vec::new();
    for juggler in v.split('|') {
        let Some(beat) = beats(juggler)
            .into_iter()
            .map(str::trim)
            .find(|b| !b.is_empty())
        else {
            return Err(SettingsError::Body("a juggler without positions".into()));
        };
        let inner = beat
            .strip_prefix('(')
            .and_then(|b| b.split(')').next())
            .ok_or_else(|| {
                SettingsError::Body(format!("expected '(angle,x,y,z)', found '{beat}'"))
            })?;
        let nums: Vec<f32> = inner
            .split(',')
            .map(|s| s.trim().parse::<f32>().ok().filter(|v| v.is_finite()))
            .collect::<Option<_>>()
            .ok_or_else(|| SettingsError::Body(format!("bad number in '({inner})'")))?;
        let at = |i: usize| nums.get(i).copied().unwrap_or(0.0);
        out.push(PlacementSpec {
            x: -at(1) / 100.0,
            z: at(2) / 100.0,
            facing_deg: at(0),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bare_siteswap_is_a_pattern() {
        let spec = parse_input("531").unwrap();
        assert_eq!((spec.notation.as_str(), spec.name.as_str()), ("531", "531"));
        assert_eq!(spec.settings, Settings::default());
        assert_eq!(parse_input("  \r\n"), Err(SettingsError::NoPattern));
    }

    #[test]
    fn settings_map_with_units() {
        let spec = parse_input(
            "pattern=(4,2x)*;BPS=4.5; dwell = 1 ;gravity=490;prop=ring;colors={red}{0,128,255};title=Box",
        )
        .unwrap();
        assert_eq!(spec.notation, "(4,2x)*");
        assert_eq!(spec.name, "Box");
        let s = &spec.settings;
        assert_eq!(
            (s.bps, s.dwell, s.gravity, s.prop),
            (Some(4.5), 1.0, 4.9, PropKind::Ring)
        );
        assert_eq!(s.colors, [Rgba::rgb(255, 0, 0), Rgba::rgb(0, 128, 255)]);
    }

    #[test]
    fn last_value_wins_and_empty_entries_are_skipped() {
        let spec = parse_settings(";pattern=3;;pattern=531;bps=0;").unwrap();
        assert_eq!(spec.notation, "531");
        assert_eq!(spec.settings.bps, None, "bps <= 0 means computed");
    }

    #[test]
    fn hands_become_dwell_points_in_metres() {
        let spec = parse_settings("pattern=3;hands=(10)(32.5).(32.5)(10).").unwrap();
        let h = &spec.settings.hand_positions;
        assert_eq!(h.len(), 2);
        // Each throw pairs with the catch its own hand made two entries earlier.
        assert_eq!(
            h[0],
            DwellPoints {
                throw: [0.1, 0.0, 0.0],
                catch: [0.325, 0.0, 0.0]
            }
        );
        assert_eq!(
            h[1],
            DwellPoints {
                throw: [0.325, 0.0, 0.0],
                catch: [0.1, 0.0, 0.0]
            }
        );
        let spec = parse_settings("pattern=3;hands=(10)(30).(20)(40).(5)(50).").unwrap();
        let catches: Vec<f32> = spec
            .settings
            .hand_positions
            .iter()
            .map(|p| p.catch[0])
            .collect();
        assert_eq!(catches, [0.4, 0.5, 0.3], "throw i takes entry i-2's catch");
        let spec = parse_settings("pattern=3;hands=(0,5,0)C(30,0,20)(15)T(10,-5,0).").unwrap();
        assert_eq!(
            spec.settings.hand_positions[0],
            DwellPoints {
                throw: [0.1, -0.05, 0.0],
                catch: [0.3, 0.0, 0.2]
            }
        );
    }

    #[test]
    fn body_becomes_placements() {
        let spec = parse_settings("pattern=<3p|3p>;body=(0,-50,0).|(180,50,100).").unwrap();
        let p = &spec.settings.placements;
        assert_eq!(p.len(), 2);
        assert_eq!((p[0].x, p[0].z, p[0].facing_deg), (0.5, 0.0, 0.0));
        assert_eq!((p[1].x, p[1].z, p[1].facing_deg), (-0.5, 1.0, 180.0));
    }

    #[test]
    fn mixed_colors() {
        let spec = parse_settings("pattern=3;colors=mixed").unwrap();
        assert_eq!(spec.settings.colors.len(), 10);
        assert_eq!(spec.settings.colors[1], Rgba::rgb(0, 255, 0));
    }

    #[test]
    fn errors_with_juggling_lab_messages() {
        let cases: [(&str, &str); 14] = [
            ("pattern=3;bps", "Parameter 'bps' has no value"),
            ("pattern=3;foo=1", "Unused input parameter: \"foo\""),
            (
                "pattern=3;foo=1;bar=2",
                "Unused input parameters: \"foo\", \"bar\"",
            ),
            ("bps=3", "No pattern specified"),
            ("pattern=3;bps=fast", "Number format error in 'bps' value"),
            ("pattern=3;bps=NaN", "'bps' value must be a finite number"),
            (
                "pattern=3;bps=Infinity",
                "'bps' value must be a finite number",
            ),
            (
                "pattern=3;dwell=2",
                "'Dwell' value should be between 0 and 2",
            ),
            ("pattern=3;dwell=x", "Number format error in 'dwell' value"),
            (
                "pattern=3;propdiam=0",
                "Prop diameter value must be positive",
            ),
            ("pattern=3;prop=image", "Prop type 'image' not recognized"),
            ("pattern=3;colors={1,2}", "Error in color format"),
            (
                "pattern=3;colors={mauve}",
                "Prop color 'mauve' not recognized",
            ),
            (
                "pattern=3;hands=(10).",
                "Error in 'hands' setting: must have at least 2 coordinates per throw",
            ),
        ];
        for (input, message) in cases {
            assert_eq!(
                parse_input(input).unwrap_err().to_string(),
                message,
                "{input}"
            );
        }
        assert_eq!(
            parse_input("pattern=3;hold=true"),
            Err(SettingsError::Unused(vec!["hold".into()]))
        );
        assert!(matches!(
            parse_input("pattern=3;hss=3"),
            Err(SettingsError::Unsupported(_))
        ));
        // Unparsable gravity is ignored, as in Juggling Lab.
        assert_eq!(
            parse_input("pattern=3;gravity=lots")
                .unwrap()
                .settings
                .gravity,
            9.81
        );
    }
}
