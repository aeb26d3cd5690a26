//! Juggling Lab settings strings (`pattern=531;bps=4;dwell=1;prop=ring`, NOTATION.md §8):
//! the pattern text, its title and the [`Settings`], every key read through the table
//! ([`super::keys`]) and converted to metres and m/s².

use super::body::parse_body;
use super::colors::parse_colors;
use super::error::SettingsError;
use super::hands::parse_hands;
use super::keys::{
    self, BOUNCE_FRACTION, BPS, DWELL, GRAVITY, JUGGLERS, PROP_DIAMETER, SQUEEZE_BEATS,
};
use super::{Dwell, Settings};
use crate::notation::hss;
use crate::types::PropKind;

/// What a settings string (or a bare siteswap) says.
#[derive(Clone, Debug, PartialEq)]
pub struct SettingsText {
    /// The pattern in Juggling Lab's notation (a hand siteswap already converted).
    pub pattern: String,
    /// The name to show: `title`, else the pattern as written.
    pub title: String,
    pub settings: Settings,
}

/// A bare siteswap (no `=`) or a settings string. The pattern itself is not validated here
/// (see `schedule::from_notation`).
pub fn read(input: &str) -> Result<SettingsText, SettingsError> {
    if input.contains('=') {
        return read_string(input);
    }
    let pattern: String = input
        .chars()
        .filter(|c| !matches!(c, '\r' | '\n'))
        .collect();
    let pattern = pattern.trim();
    if pattern.is_empty() {
        return Err(SettingsError::NoPattern);
    }
    Ok(SettingsText {
        pattern: pattern.to_string(),
        title: pattern.to_string(),
        settings: Settings::default(),
    })
}

/// Whether `key` (case-insensitive, trimmed) is a Juggling Lab settings key (`pattern`,
/// `bps`, ...): an argument starting with `key=` for such a key is a settings string.
pub fn is_settings_key(key: &str) -> bool {
    keys::string_key(key).is_some()
}

/// Reads `key=value;key=value` (keys case-insensitive, values trimmed, empty entries
/// skipped, a repeated key keeps its last value). The first entry may be the pattern alone
/// (`975;jugglers=2`) when no `pattern=` is given.
pub(crate) fn read_string(input: &str) -> Result<SettingsText, SettingsError> {
    let config: String = input
        .chars()
        .filter(|c| !matches!(c, '\r' | '\n'))
        .collect();
    let mut values: Vec<(String, String)> = Vec::new();
    let has_pattern_key = config.split(';').any(|entry| {
        entry
            .split_once('=')
            .is_some_and(|(key, _)| key.trim().eq_ignore_ascii_case("pattern"))
    });
    let first = config.split(';').position(|entry| !entry.trim().is_empty());
    for (index, entry) in config.split(';').enumerate() {
        if entry.trim().is_empty() {
            continue;
        }
        if Some(index) == first && !has_pattern_key && !entry.contains('=') {
            values.push(("pattern".into(), entry.trim().to_string()));
            continue;
        }
        let Some((key, value)) = entry.split_once('=') else {
            let entry = crate::text::escape_control(entry.trim()).into_owned();
            return Err(SettingsError::NoValue(entry));
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
            !is_settings_key(k)
                || (!has_hss && ["hold", "dwellmax", "handspec"].contains(&k.as_str()))
        })
        .cloned()
        .collect();
    if !unused.is_empty() {
        return Err(SettingsError::Unused(unused));
    }
    let pattern = match get("pattern") {
        Some(p) if !p.is_empty() => p.to_string(),
        _ => return Err(SettingsError::NoPattern),
    };
    let mut settings = Settings::default();
    if let Some(v) = get("bps") {
        // Juggling Lab: 0 or less means "computed".
        let bps = match v.trim().parse::<f64>() {
            Ok(b) if b <= 0.0 => None,
            _ => Some(BPS.parse("bps", v)?),
        };
        settings.bps = bps;
    }
    if let Some(v) = get("dwell") {
        settings.dwell = Dwell::Uniform(DWELL.parse("dwell", v)?);
    }
    if let Some(v) = get("jugglers") {
        settings.shared_by = Some(JUGGLERS.parse("jugglers", v)? as usize);
    }
    if let Some(v) = get("gravity") {
        settings.gravity = GRAVITY.parse_in_string("gravity", v)? / GRAVITY.per_unit();
    }
    if let Some(v) = get("bouncefrac") {
        settings.bounce_energy = Some(BOUNCE_FRACTION.parse("bouncefrac", v)?);
    }
    // Read and checked like Juggling Lab, not used (juggler's props keep their own sizes).
    if let Some(v) = get("propdiam") {
        PROP_DIAMETER.parse("propdiam", v)?;
    }
    if let Some(v) = get("squeezebeats") {
        SQUEEZE_BEATS.parse("squeezebeats", v)?;
    }
    if let Some(p) = get("prop") {
        settings.prop = match p.to_ascii_lowercase().as_str() {
            "ball" => PropKind::Ball,
            "ring" => PropKind::Ring,
            "club" => PropKind::Club,
            // Juggling Lab's picture props (an image file; a square since 1.7) are drawn as
            // balls, as the JML reader does for `<prop type="image">`.
            "image" | "square" => PropKind::Ball,
            _ => {
                return Err(SettingsError::Prop(
                    crate::text::escape_control(p).into_owned(),
                ))
            }
        };
    }
    if let Some(c) = get("colors") {
        (settings.colors, settings.color_by_orbit) = parse_colors(c)?;
    }
    if let Some(h) = get("hands") {
        settings.hands = parse_hands(h)?;
    }
    if let Some(b) = get("body") {
        settings.positions = parse_body(b)?;
    }
    let title = get("title")
        .filter(|t| !t.is_empty())
        .unwrap_or(&pattern)
        .to_string();
    // A hand siteswap: `pattern` is the object siteswap, converted with the hand pattern into
    // passing notation (`notation::hss`), with Juggling Lab's dwell of every beat.
    let mut pattern = pattern;
    if let Some(hand_pattern) = get("hss") {
        let converted = hss::convert(
            &pattern,
            hand_pattern,
            get("hold").is_some_and(hss::parse_bool),
            get("dwellmax").is_none_or(hss::parse_bool),
            get("handspec"),
            settings.dwell.value(),
        )
        .map_err(SettingsError::Hss)?;
        settings.dwell = Dwell::of_beats(converted.dwell_beats);
        pattern = converted.notation;
    }
    Ok(SettingsText {
        pattern,
        title,
        settings,
    })
}
