//! Juggling Lab settings strings (`pattern=531;bps=4;dwell=1;prop=ring`), read into a
//! [`PatternSpec`] (NOTATION.md §8). Units are converted here: centimetres to metres,
//! cm/s² to m/s².

use thiserror::Error;

use crate::spec::{BodyBeats, DwellPoints, PatternSpec, PlacementSpec, Settings};
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
    #[error("Error in '{0}' setting: {1}")]
    Repeats(&'static str, String),
    /// A hand siteswap that cannot be converted.
    #[error("{0}")]
    Hss(super::hss::HssError),
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
            // Juggling Lab's picture props (an image file; a square since 1.7) are drawn as
            // balls, as the JML reader does for `<prop type="image">`.
            "image" | "square" => PropKind::Ball,
            _ => return Err(SettingsError::Prop(p.to_string())),
        };
    }
    if let Some(c) = get("colors") {
        (settings.colors, settings.color_by_orbit) = parse_colors(c)?;
    }
    if let Some(h) = get("hands") {
        let mut hands = parse_hands(h)?;
        if hands.len() > 1 {
            settings.hand_positions = hands[0].clone();
            settings.juggler_hand_positions = hands;
        } else {
            settings.hand_positions = hands.pop().unwrap_or_default();
        }
    }
    if let Some(b) = get("body") {
        (settings.placements, settings.body_moves) = parse_body_moves(b)?;
    }
    let name = get("title")
        .filter(|t| !t.is_empty())
        .unwrap_or(&notation)
        .to_string();
    // A hand siteswap: `pattern` is the object siteswap, converted with the hand pattern into
    // passing notation (`notation::hss`); its dwell is Juggling Lab's shortest, and every
    // beat's own when they differ.
    let mut notation = notation;
    if let Some(hand_pattern) = get("hss") {
        let hss = super::hss::convert(
            &notation,
            hand_pattern,
            get("hold").is_some_and(super::hss::parse_bool),
            get("dwellmax").is_none_or(super::hss::parse_bool),
            get("handspec"),
            settings.dwell,
        )
        .map_err(SettingsError::Hss)?;
        settings.dwell = hss.dwell();
        // Beats dwelling differently are kept beat by beat (as Juggling Lab times them).
        if hss
            .dwell_beats
            .iter()
            .any(|d| *d > 0.0 && (d - settings.dwell).abs() > 1e-9)
        {
            settings.beat_dwells = hss.dwell_beats.clone();
        }
        notation = hss.notation;
    }
    crate::ranges::check_settings(&settings).map_err(|e| SettingsError::Range(e.to_string()))?;
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

/// Longest settings value after expanding `(...)^N` repeats (1 MiB).
pub const MAX_EXPANDED: usize = 1 << 20;

/// Deepest nesting of `(...)^N` repeats expanded.
const MAX_REPEAT_NESTING: usize = 64;

/// Juggling Lab's repeats in `hands`, `body` and `colors` values: `(X)^N` is X written N
/// times (spaces allowed around `^`; nested repeats expand inside out); a `(` that does not
/// start such a repeat is an ordinary character. `key` names the setting in errors.
pub fn expand_repeats(text: &str, key: &'static str) -> Result<String, SettingsError> {
    let mut out = String::new();
    expand_into(text, &mut out, 0, key)?;
    Ok(out)
}

fn expand_into(
    text: &str,
    out: &mut String,
    depth: usize,
    key: &'static str,
) -> Result<(), SettingsError> {
    let too_long = || SettingsError::Repeats(key, "too long after expanding repeats".into());
    if depth > MAX_REPEAT_NESTING {
        return Err(SettingsError::Repeats(
            key,
            "repeats nested too deep".into(),
        ));
    }
    let bytes = text.as_bytes();
    // Matching ')' of every '(' (one pass with a stack).
    let mut close = vec![usize::MAX; bytes.len()];
    let mut open = Vec::new();
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'(' => open.push(i),
            b')' => {
                if let Some(o) = open.pop() {
                    close[o] = i;
                }
            }
            _ => {}
        }
    }
    let mut pos = 0;
    let mut plain = 0;
    while pos < bytes.len() {
        if bytes[pos] == b'(' && close[pos] != usize::MAX {
            let end = close[pos];
            let after = &text[end + 1..];
            let rest = after.trim_start_matches(' ');
            if let Some(count) = rest.strip_prefix('^') {
                let count = count.trim_start_matches(' ');
                let digits = count.bytes().take_while(u8::is_ascii_digit).count();
                if digits > 0 {
                    out.push_str(&text[plain..pos]);
                    let times: usize = count[..digits].parse().unwrap_or(usize::MAX);
                    let inner = &text[pos + 1..end];
                    let start = out.len();
                    for _ in 0..times {
                        expand_into(inner, out, depth + 1, key)?;
                        if out.len() > MAX_EXPANDED {
                            return Err(too_long());
                        }
                        if out.len() == start {
                            break; // an empty body stays empty however often repeated
                        }
                    }
                    pos = text.len() - (count.len() - digits);
                    plain = pos;
                    continue;
                }
            }
        }
        pos += 1;
    }
    out.push_str(&text[plain..]);
    if out.len() > MAX_EXPANDED {
        return Err(too_long());
    }
    Ok(())
}

/// Juggling Lab's `colors=` value: `mixed` (ten named colours), `orbits` (the mixed colours,
/// one per orbit: the `bool` is true), or `{...}` blocks each holding a colour name
/// (case-insensitive) or `r,g,b` (0-255), with `(...)^N` repeats; used cyclically.
pub fn parse_colors(v: &str) -> Result<(Vec<Rgba>, bool), SettingsError> {
    let mixed = || MIXED.iter().filter_map(|n| named_color(n)).collect();
    let trimmed = v.trim();
    if trimmed == "mixed" {
        return Ok((mixed(), false));
    }
    if trimmed == "orbits" {
        return Ok((mixed(), true));
    }
    let expanded = expand_repeats(trimmed, "colors")?;
    let mut out = Vec::new();
    for block in expanded
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
    if out.is_empty() {
        return Err(SettingsError::ColorFormat);
    }
    Ok((out, false))
}

/// One beat of a `hands` entry: its points (`None` = `-`, a point Juggling Lab interpolates)
/// and the index of the catch point.
struct HandsBeat {
    points: Vec<Option<[f32; 3]>>,
    catch: usize,
}

/// Juggling Lab's `hands=` value, per juggler: after `(...)^N` repeats are expanded and
/// `<`, `>`, `{`, `}` removed, jugglers are separated by `|` (or `!`) and each beat ends with
/// `.`; a beat is a list of points `(x[,up[,forward]])` in cm or `-` placeholders, the first
/// the throw (optionally marked `T`), the catch marked `C` (else the last). Entry `i` of a
/// juggler is the hand that throws on that juggler's beat `i` (a sync pair: left, then
/// right). Only the throw and catch points are used (juggler's hands move between them on
/// their own path).
///
/// In Juggling Lab an entry's catch comes *after* its throw (the empty hand travels from the
/// throw to the catch), while a `DwellPoints` pairs a throw with the catch *before* it. That
/// catch is made by the same hand, whose next entry is two entries on: so entry i's catch
/// becomes the catch of throw i + 2 (cyclically, per juggler).
pub fn parse_hands(v: &str) -> Result<Vec<Vec<DwellPoints>>, SettingsError> {
    let err = |m: &str| SettingsError::Hands(m.to_string());
    let expanded = expand_repeats(v, "hands")?;
    let clean: String = expanded
        .chars()
        .filter(|c| !matches!(c, '<' | '>' | '{' | '}'))
        .collect();
    let mut jugglers: Vec<Vec<HandsBeat>> = vec![Vec::new()];
    let mut points: Vec<Option<[f32; 3]>> = Vec::new();
    let (mut got_throw, mut catch) = (false, None);
    let mut rest = clean.as_str();
    while let Some(c) = rest.chars().next() {
        let mut advance = c.len_utf8();
        match c {
            ' ' | '\t' => {}
            '.' => {
                if points.len() < 2 {
                    return Err(err("must have at least 2 coordinates per throw"));
                }
                let catch_at = catch.unwrap_or(points.len() - 1);
                if points[0].is_none() {
                    return Err(err("must specify throw coordinate"));
                }
                if points[catch_at].is_none() {
                    return Err(err("must specify catch coordinate"));
                }
                let beat = HandsBeat {
                    points: std::mem::take(&mut points),
                    catch: catch_at,
                };
                jugglers.last_mut().expect("one juggler").push(beat);
                (got_throw, catch) = (false, None);
            }
            '-' => points.push(None),
            'T' | 't' => {
                if !points.is_empty() {
                    return Err(err("'T' must be first coordinate"));
                }
                if got_throw {
                    return Err(err("can only specify one throw coordinate"));
                }
                got_throw = true;
            }
            'C' | 'c' => {
                if points.is_empty() {
                    return Err(err("first coordinate in 'hands' must be a throw"));
                }
                if catch.is_some() {
                    return Err(err("can only specify one catch coordinate"));
                }
                catch = Some(points.len());
            }
            '(' => {
                let end = rest
                    .find(')')
                    .ok_or_else(|| err("missing ')' in hands coordinate"))?;
                points.push(Some(point(&rest[1..end]).map_err(SettingsError::Hands)?));
                advance = end + 1;
            }
            '|' | '!' => {
                if !points.is_empty() || got_throw || catch.is_some() {
                    return Err(err("hands specifier must end with '.'"));
                }
                jugglers.push(Vec::new());
            }
            other => {
                return Err(SettingsError::Hands(format!(
                    "unknown character '{other}' in hands specifier"
                )))
            }
        }
        rest = &rest[advance..];
    }
    if !points.is_empty() || got_throw || catch.is_some() {
        return Err(err("hands specifier must end with '.'"));
    }
    let mut out = Vec::with_capacity(jugglers.len());
    for (j, beats) in jugglers.into_iter().enumerate() {
        if beats.is_empty() {
            return Err(SettingsError::Hands(format!(
                "juggler {} has no hand positions",
                j + 1
            )));
        }
        let n = beats.len();
        let dwell: Vec<DwellPoints> = (0..n)
            .map(|i| {
                let own = &beats[i];
                let previous = &beats[(i + 2 * n - 2) % n];
                DwellPoints {
                    throw: own.points[0].expect("checked"),
                    catch: previous.points[previous.catch].expect("checked"),
                }
            })
            .collect();
        out.push(dwell);
    }
    Ok(out)
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
            .map_err(|_| format!("number format error in hand coordinate '{}'", part.trim()))?;
        if !v.is_finite() {
            return Err(format!(
                "number format error in hand coordinate '{}'",
                part.trim()
            ));
        }
        *slot = v / 100.0;
    }
    Ok(p)
}

/// Juggling Lab's `body=` value: after `(...)^N` repeats are expanded and `<`, `>`, `{`, `}`
/// removed, jugglers are separated by `|` (or `!`), each beat ends with `.` and holds
/// positions `(angle[,x[,y[,z]]])` (degrees, cm; `-` = left out, passed on the way) taken at
/// even steps within the beat. Juggling Lab's x,y floor plane becomes juggler's x = -x, z = y;
/// angle = facing; the height z is not used. Each juggler's first given position.
pub fn parse_body(v: &str) -> Result<Vec<PlacementSpec>, SettingsError> {
    parse_body_moves(v).map(|(firsts, _)| firsts)
}

/// Longest cycle of beats a juggler's `body=` may have.
pub const MAX_BODY_BEATS: usize = 256;

/// Like [`parse_body`], also returning every juggler's cycle of beats when any juggler moves
/// (has two different positions), else an empty list.
pub fn parse_body_moves(v: &str) -> Result<(Vec<PlacementSpec>, Vec<BodyBeats>), SettingsError> {
    let err = |m: String| SettingsError::Body(m);
    let expanded = expand_repeats(v, "body")?;
    let clean: String = expanded
        .chars()
        .filter(|c| !matches!(c, '<' | '>' | '{' | '}'))
        .collect();
    let mut jugglers: Vec<BodyBeats> = vec![Vec::new()];
    let mut beat: Vec<Option<PlacementSpec>> = Vec::new();
    let mut rest = clean.as_str();
    while let Some(c) = rest.chars().next() {
        let mut advance = c.len_utf8();
        match c {
            ' ' | '\t' => {}
            '.' => {
                if beat.is_empty() {
                    beat.push(None);
                }
                jugglers
                    .last_mut()
                    .expect("one juggler")
                    .push(std::mem::take(&mut beat));
            }
            '-' => beat.push(None),
            '(' => {
                let end = rest
                    .find(')')
                    .ok_or_else(|| err("missing ')' in body coordinate".into()))?;
                let inner = &rest[1..end];
                let nums: Vec<f32> = inner
                    .split(',')
                    .map(|s| s.trim().parse::<f32>().ok().filter(|v| v.is_finite()))
                    .collect::<Option<_>>()
                    .ok_or_else(|| {
                        err(format!(
                            "number format error in body coordinate '({inner})'"
                        ))
                    })?;
                if nums.len() > 4 {
                    return Err(err(format!("too many numbers in '({inner})'")));
                }
                let at = |i: usize| nums.get(i).copied().unwrap_or(0.0);
                beat.push(Some(PlacementSpec {
                    x: -at(1) / 100.0,
                    z: at(2) / 100.0,
                    facing_deg: at(0),
                }));
                advance = end + 1;
            }
            '|' | '!' => {
                if !beat.is_empty() {
                    return Err(err("body specifier must end with '.'".into()));
                }
                jugglers.push(Vec::new());
            }
            other => {
                return Err(err(format!(
                    "unknown character '{other}' in body specifier"
                )))
            }
        }
        rest = &rest[advance..];
    }
    if !beat.is_empty() {
        return Err(err("body specifier must end with '.'".into()));
    }
    if let Some(j) = jugglers.iter().position(|b| b.len() > MAX_BODY_BEATS) {
        return Err(err(format!(
            "juggler {} moves over {} beats, more than {MAX_BODY_BEATS}",
            j + 1,
            jugglers[j].len()
        )));
    }
    let firsts = jugglers
        .iter()
        .enumerate()
        .map(|(j, beats)| {
            beats
                .iter()
                .flatten()
                .find_map(|p| *p)
                .ok_or_else(|| err(format!("juggler {} has no position", j + 1)))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let moves = jugglers
        .iter()
        .zip(&firsts)
        .any(|(beats, first)| beats.iter().flatten().flatten().any(|p| p != first));
    Ok((firsts, if moves { jugglers } else { Vec::new() }))
}

/// Jugglers' places as a Juggling Lab `body=` value: juggler `j` moving through `moves[j]`
/// when there is one, else standing at `placements[j]` (one beat); read back by
/// [`parse_body_moves`].
pub fn format_body(placements: &[PlacementSpec], moves: &[BodyBeats]) -> String {
    let position = |p: &PlacementSpec| {
        let cm = |v: f32| {
            let r = (v * 100.0 * 1e4).round() / 1e4;
            if r == 0.0 {
                0.0
            } else {
                r
            }
        };
        format!("({},{},{})", p.facing_deg, cm(-p.x), cm(p.z))
    };
    (0..placements.len().max(moves.len()))
        .map(|j| match (moves.get(j), placements.get(j)) {
            (Some(beats), _) => beats
                .iter()
                .map(|beat| {
                    let mut b: String = beat
                        .iter()
                        .map(|p| p.as_ref().map_or("-".to_string(), position))
                        .collect();
                    b.push('.');
                    b
                })
                .collect::<String>(),
            (None, Some(p)) => format!("{}.", position(p)),
            (None, None) => String::new(),
        })
        .collect::<Vec<_>>()
        .join("|")
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
        // T marks the first point, C a catch before the last; `-` is a placeholder point.
        let spec = parse_settings("pattern=3;hands=T(10,-5,0)(0,5,0)C(30,0,20)-(15).").unwrap();
        assert_eq!(
            spec.settings.hand_positions[0],
            DwellPoints {
                throw: [0.1, -0.05, 0.0],
                catch: [0.3, 0.0, 0.2]
            }
        );
    }

    #[test]
    fn hands_per_juggler_in_every_juggling_lab_form() {
        // `<...|...>`, `{...|...}` and `!` separate jugglers; repeats `(...)^N` expand.
        let forms = [
            "<(10)(32.5).|(32.5)(10).>",
            "{(10)(32.5).|(32.5)(10).}",
            "(10)(32.5).!(32.5)(10).",
            "<((10)(32.5).)^1|(32.5) (10) .>",
        ];
        for form in forms {
            let spec = parse_settings(&format!("pattern=<3p|3p>;hands={form}")).unwrap();
            let s = &spec.settings;
            assert_eq!(s.juggler_hand_positions.len(), 2, "{form}");
            assert_eq!(s.juggler_hand_positions[0][0].throw, [0.1, 0.0, 0.0]);
            assert_eq!(s.juggler_hand_positions[0][0].catch, [0.325, 0.0, 0.0]);
            assert_eq!(s.juggler_hand_positions[1][0].throw, [0.325, 0.0, 0.0]);
            assert_eq!(s.juggler_hand_positions[1][0].catch, [0.1, 0.0, 0.0]);
            assert_eq!(s.hand_positions, s.juggler_hand_positions[0]);
        }
        // Repeats: four entries, each juggler's own catch rotation (entry i takes i-2's catch).
        let spec = parse_settings("pattern=3;hands=((10)(20).(30)(40).)^2").unwrap();
        let h = &spec.settings.hand_positions;
        assert_eq!(h.len(), 4);
        assert!(spec.settings.juggler_hand_positions.is_empty());
        let catches: Vec<f32> = h.iter().map(|p| p.catch[0]).collect();
        assert_eq!(catches, [0.2, 0.4, 0.2, 0.4]);
    }

    #[test]
    fn hands_errors_follow_juggling_lab() {
        let cases = [
            ("(10)(32.5)", "hands specifier must end with '.'"),
            ("(10)T(32.5).", "'T' must be first coordinate"),
            ("TT(10)(32.5).", "can only specify one throw coordinate"),
            (
                "C(10)(32.5).",
                "first coordinate in 'hands' must be a throw",
            ),
            ("(10)C(20)C(32.5).", "can only specify one catch coordinate"),
            ("-(10).", "must specify throw coordinate"),
            ("(10)C-(5).", "must specify catch coordinate"),
            ("(10)x(20).", "unknown character 'x' in hands specifier"),
            ("(10(20).", "number format error in hand coordinate '10(20'"),
            ("(10)(20", "missing ')' in hands coordinate"),
            ("(10)(20).|", "juggler 2 has no hand positions"),
            ("(10)(20)|(1)(2).", "hands specifier must end with '.'"),
        ];
        for (hands, message) in cases {
            assert_eq!(
                parse_input(&format!("pattern=3;hands={hands}"))
                    .unwrap_err()
                    .to_string(),
                format!("Error in 'hands' setting: {message}"),
                "{hands}"
            );
        }
        // A repeat that would grow past the limit is refused, not allocated.
        let err = parse_input("pattern=3;hands=((10)(20).)^999999999").unwrap_err();
        assert_eq!(
            err.to_string(),
            "Error in 'hands' setting: too long after expanding repeats"
        );
    }

    #[test]
    fn repeats_expand_like_juggling_lab() {
        let e = |s| expand_repeats(s, "hands").unwrap();
        assert_eq!(e("he(l)^2o"), "hello");
        assert_eq!(e("((ab )^2c)^2"), "ab ab cab ab c");
        assert_eq!(e("(ab) ^ 3x"), "abababx");
        assert_eq!(e("(x)^0y"), "y");
        // Not repeats: no `^`, or no number after it; an unclosed `(`.
        assert_eq!(e("(10)(20)."), "(10)(20).");
        assert_eq!(e("(a)^b"), "(a)^b");
        assert_eq!(e("((a)^2"), "(aa");
        let deep = format!("{}x{}", "(".repeat(100), ")^1".repeat(100));
        assert!(expand_repeats(&deep, "body").is_err());
    }

    #[test]
    fn body_forms_and_errors() {
        for form in [
            "<(0,-50,0).|(180,50,100).>",
            "{(0,-50).|(180,50,100,90).}",
            "(0,-50,0)(10,-40).-.!-.(180,50,100).",
        ] {
            let spec = parse_settings(&format!("pattern=<3p|3p>;body={form}")).unwrap();
            let p = &spec.settings.placements;
            assert_eq!(p.len(), 2, "{form}");
            assert_eq!((p[0].x, p[0].z, p[0].facing_deg), (0.5, 0.0, 0.0), "{form}");
            assert_eq!(
                (p[1].x, p[1].z, p[1].facing_deg),
                (-0.5, 1.0, 180.0),
                "{form}"
            );
        }
        for (body, message) in [
            ("(0,0,0)", "body specifier must end with '.'"),
            ("(0,0,0", "missing ')' in body coordinate"),
            ("(0,a).", "number format error in body coordinate '(0,a)'"),
            ("(0,0).|-.", "juggler 2 has no position"),
            ("(0,0).*", "unknown character '*' in body specifier"),
            (
                "(0,0).((5,0).)^300",
                "juggler 1 moves over 301 beats, more than 256",
            ),
        ] {
            assert_eq!(
                parse_input(&format!("pattern=3;body={body}"))
                    .unwrap_err()
                    .to_string(),
                format!("Error in 'body' setting: {message}"),
                "{body}"
            );
        }
    }

    #[test]
    fn color_forms() {
        let colors = |v: &str| parse_colors(v).map_err(|e| e.to_string());
        let (list, by_orbit) = colors("({red})^2{0,0,255}{Blue}").unwrap();
        assert_eq!(
            list,
            [
                Rgba::rgb(255, 0, 0),
                Rgba::rgb(255, 0, 0),
                Rgba::rgb(0, 0, 255),
                Rgba::rgb(0, 0, 255)
            ]
        );
        assert!(!by_orbit);
        let (list, by_orbit) = colors(" orbits ").unwrap();
        assert_eq!(
            (list.len(), list[0], by_orbit),
            (10, Rgba::rgb(255, 0, 0), true)
        );
        assert_eq!(colors("mixed").unwrap().0[9], Rgba::rgb(0, 0, 0));
        assert_eq!(colors("{1,2,3,4}"), Err("Error in color format".into()));
        assert_eq!(colors("{256,0,0}"), Err("Error in color format".into()));
        assert_eq!(colors(""), Err("Error in color format".into()));
        assert_eq!(
            colors("{mauve}"),
            Err("Prop color 'mauve' not recognized".into())
        );
        let spec = parse_settings("pattern=3;colors=orbits").unwrap();
        assert!(spec.settings.color_by_orbit);
    }

    #[test]
    fn moving_bodies_keep_every_beat() {
        let at = |facing_deg, x, z| Some(PlacementSpec { x, z, facing_deg });
        // Juggler 1: two positions in beat 0, one left out in beat 1, an empty beat 2 (one
        // left-out position); juggler 2 stands still over two beats.
        let (firsts, moves) =
            parse_body_moves("<(0,-50,0)(45,-50,20).-(90,0,50).-.|(180,50,0).-.>").unwrap();
        assert_eq!(firsts[0], at(0.0, 0.5, 0.0).unwrap());
        assert_eq!(firsts[1], at(180.0, -0.5, 0.0).unwrap());
        assert_eq!(
            moves,
            vec![
                vec![
                    vec![at(0.0, 0.5, 0.0), at(45.0, 0.5, 0.2)],
                    vec![None, at(90.0, 0.0, 0.5)],
                    vec![None],
                ],
                vec![vec![at(180.0, -0.5, 0.0)], vec![None]],
            ]
        );
        // Written back as the same body (an empty beat as one `-`).
        assert_eq!(
            format_body(&firsts, &moves),
            "(0,-50,0)(45,-50,20).-(90,0,50).-.|(180,50,0).-."
        );
        let spec = parse_settings("pattern=3;body=(0,-50,0)(45,-50,20).-(90,0,50).-.").unwrap();
        assert_eq!(spec.settings.body_moves.len(), 1);
        // Nobody moves: one place each, no moves kept (repeats of one place, too).
        assert_eq!(parse_body_moves("(0,0).|(180,50).").unwrap().1.len(), 0);
        assert_eq!(parse_body_moves("(10,5).-.(10,5).").unwrap().1.len(), 0);
        assert_eq!(
            format_body(&parse_body("(10,5).|(0,-20,3).").unwrap(), &[]),
            "(10,5,0).|(0,-20,3)."
        );
    }

    #[test]
    fn hand_siteswaps_keep_each_beat_s_dwell() {
        // 5 with hand pattern 423: three hands free 4, 2 and 3 beats dwell 3.3, 1.3 and 2.3
        // beats before their throws (Juggling Lab's dwellmax): the prop thrown at beat b was
        // caught that long before.
        let spec = parse_settings("pattern=5;hss=423").unwrap();
        assert_eq!(spec.settings.dwell, 1.3);
        let want = [1.3, 3.3, 2.3, 1.3, 3.3, 2.3];
        assert_eq!(spec.settings.beat_dwells.len(), 6);
        for (d, w) in spec.settings.beat_dwells.iter().zip(want) {
            assert!((d - w).abs() < 1e-9, "{:?}", spec.settings.beat_dwells);
        }
        let scene = crate::scene::Scene::new(&spec).unwrap();
        let m = scene.motion();
        let bps = m.bps();
        // Every flight of every prop over two loops: (release, catch) in seconds.
        let mut flights: Vec<Vec<(f64, f64)>> = vec![Vec::new(); m.prop_count()];
        let loop_s = scene.loop_duration();
        for k in 0..4000 {
            let state = m.state_at(2.0 * loop_s * k as f64 / 4000.0);
            for (p, prop) in state.props.iter().enumerate() {
                if let Some(f) = prop.flight {
                    if flights[p]
                        .last()
                        .is_none_or(|l| (l.0 - f.release).abs() > 1e-6)
                    {
                        flights[p].push((f.release, f.catch));
                    }
                }
            }
        }
        let mut checked = 0;
        for f in &flights {
            for w in f.windows(2) {
                let beat = (w[1].0 * bps).round() as usize;
                let dwell = (w[1].0 - w[0].1) * bps;
                assert!(
                    (dwell - want[beat % 6]).abs() < 1e-6,
                    "beat {beat}: {dwell}"
                );
                checked += 1;
            }
        }
        assert!(checked > 30, "{checked}");
        // TOML keeps them.
        let toml = crate::files::to_toml(std::slice::from_ref(&spec));
        assert!(toml.contains("beat_dwells = [1.3, 3.3"), "{toml}");
        let back = crate::files::from_toml_str(&toml, "hss.toml").unwrap();
        assert_eq!(back[0].settings, spec.settings);
        // One dwell for every beat: no list.
        assert!(parse_settings("pattern=3;hss=2")
            .unwrap()
            .settings
            .beat_dwells
            .is_empty());
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
            ("pattern=3;prop=cube", "Prop type 'cube' not recognized"),
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
        assert_eq!(
            parse_input("pattern=3;hss=3").unwrap().notation,
            "<(0,3x)!|(0,0)!><(0,0)!|(0,3x)!><(3x,0)!|(0,0)!>"
        );
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
