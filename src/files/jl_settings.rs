//! Juggling Lab settings strings as they appear in JML pattern lists and text lists:
//! `pattern=531;bps=4.2;dwell=1.0;prop=ring;hands=(10)(32.5).;title=Five three one`.
//!
//! Keys are case-insensitive, entries are split on `;`, values trimmed, empty entries skipped
//! and a repeated key keeps its last value (as in Juggling Lab). Mapped onto a `PatternSpec`:
//! `pattern`, `title` (name), `bps` (≤ 0 = automatic, as JL), `dwell` (0 < d < 2), `gravity`
//! (cm/s², converted to m/s²), `prop` (`ball`, `ring`; juggler adds `club`), `colors` (`mixed`
//! or a list of `{name}` / `{r,g,b}`), `hands` (dwell points per throw: the first point of a
//! beat's entry, or the one marked `T`, is the throw; the one marked `C`, else the last, is the
//! catch; centimetres `(x, up, forward)`; only the first juggler's entries are used).
//! `propdiam`, `bouncefrac`, `squeezebeats` and `body` are accepted and ignored (juggler has no
//! equivalent setting); the hand-siteswap keys (`hss`, `hold`, `dwellmax`, `handspec`) and any
//! other key are errors.

use crate::spec::{DwellPoints, PatternSpec};
use crate::types::{PropKind, Rgba};

use super::color::parse_color;

/// Keys Juggling Lab knows that juggler accepts without using them.
const IGNORED_KEYS: [&str; 4] = ["propdiam", "bouncefrac", "squeezebeats", "body"];

/// Parses a JL settings string. Errors are messages without a location (the caller adds it).
pub fn parse_settings(text: &str) -> Result<PatternSpec, String> {
    let cleaned: String = text.chars().filter(|c| *c != '\n' && *c != '\r').collect();
    let mut pairs: Vec<(String, String)> = Vec::new();
    for entry in cleaned.split(';') {
        let entry = entry.trim();
        if entry.is_empty() {
            continue;
        }
        let Some((key, value)) = entry.split_once('=') else {
            return Err(format!("parameter '{entry}' has no value"));
        };
        let key = key.trim().to_ascii_lowercase();
        let value = value.trim().to_string();
        pairs.retain(|(k, _)| *k != key);
        pairs.push((key, value));
    }
    let get = |k: &str| {
        pairs
            .iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.as_str())
    };

    let unknown: Vec<&str> = pairs
        .iter()
        .map(|(k, _)| k.as_str())
        .filter(|k| {
            ![
                "pattern", "title", "bps", "dwell", "gravity", "prop", "colors", "hands",
            ]
            .contains(k)
                && !IGNORED_KEYS.contains(k)
        })
        .collect();
    if let Some(hss) = unknown
        .iter()
        .find(|k| ["hss", "hold", "dwellmax", "handspec"].contains(k))
    {
        return Err(format!("'{hss}': hand siteswaps (hss) are not supported"));
    }
    if !unknown.is_empty() {
        let quoted: Vec<String> = unknown.iter().map(|k| format!("\"{k}\"")).collect();
        let plural = if unknown.len() == 1 { "" } else { "s" };
        return Err(format!("unknown setting{plural} {}", quoted.join(", ")));
    }

    let notation = match get("pattern") {
        Some(p) if !p.is_empty() => p,
        _ => return Err("no pattern specified (expected pattern=...)".into()),
    };
    let mut spec = PatternSpec::from_notation(notation);
    if let Some(title) = get("title").filter(|t| !t.is_empty()) {
        spec.name = title.to_string();
    }
    let s = &mut spec.settings;
    if let Some(v) = get("bps") {
        let bps = number(v, "bps")?;
        // As in Juggling Lab, a non-positive bps means "choose automatically".
        s.bps = (bps > 0.0).then_some(bps);
    }
    if let Some(v) = get("dwell") {
        let dwell = number(v, "dwell")?;
        if !(dwell > 0.0 && dwell < 2.0) {
            return Err(format!("'dwell' value should be between 0 and 2, not {v}"));
        }
        s.dwell = dwell;
    }
    if let Some(v) = get("gravity") {
        let g = number(v, "gravity")?;
        if g <= 0.0 {
            return Err(format!("'gravity' must be positive (cm/s²), not {v}"));
        }
        s.gravity = g / 100.0;
    }
    if let Some(v) = get("prop") {
        s.prop = v.parse::<PropKind>()?;
    }
    if let Some(v) = get("colors") {
        s.colors = parse_colors(v)?;
    }
    if let Some(v) = get("hands") {
        s.hand_positions = parse_hands(v)?;
    }
    Ok(spec)
}

fn number(v: &str, key: &str) -> Result<f64, String> {
    match v.parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        _ => Err(format!("number format error in '{key}' value '{v}'")),
    }
}

/// `mixed` (the built-in palette), or `{red}{0,0,255}...`; a bare colour name is one colour.
fn parse_colors(v: &str) -> Result<Vec<Rgba>, String> {
    if v.eq_ignore_ascii_case("mixed") {
        return Ok(Vec::new());
    }
    if !v.contains('{') {
        return v.split(',').map(parse_color).collect();
    }
    let mut colors = Vec::new();
    let mut rest = v.trim();
    while !rest.is_empty() {
        let inner = rest
            .strip_prefix('{')
            .and_then(|r| r.split_once('}'))
            .ok_or_else(|| {
                format!("error in color format '{v}' (expected {{name}} or {{r,g,b}} items)")
            })?;
        colors.push(parse_one_color(inner.0)?);
        rest = inner.1.trim_start();
    }
    Ok(colors)
}

fn parse_one_color(item: &str) -> Result<Rgba, String> {
    let parts: Vec<&str> = item.split(',').map(str::trim).collect();
    if parts.len() == 3 {
        let channel = |p: &str| {
            p.parse::<u8>()
                .map_err(|_| format!("colour component '{p}' is not a number 0-255"))
        };
        return Ok(Rgba::rgb(
            channel(parts[0])?,
            channel(parts[1])?,
            channel(parts[2])?,
        ));
    }
    parse_color(item)
}

/// JL `hands`: one `.`-terminated entry per beat, each a list of points `(x[,up[,forward]])` in
/// cm, optionally marked `T` (throw) or `C` (catch); `-` is an empty slot; `|` starts the next
/// juggler (ignored here).
fn parse_hands(v: &str) -> Result<Vec<DwellPoints>, String> {
    let first_juggler = v.split('|').next().unwrap_or("");
    // Entries end with a '.' outside parentheses (inside, '.' is a decimal point).
    let mut result = Vec::new();
    let (mut depth, mut start) = (0i32, 0usize);
    for (i, c) in first_juggler.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            '.' if depth == 0 => {
                let entry = first_juggler[start..i].trim();
                if !entry.is_empty() {
                    result.push(parse_hand_entry(entry)?);
                }
                start = i + 1;
            }
            _ => {}
        }
    }
    let last = first_juggler[start..].trim();
    if !last.is_empty() {
        result.push(parse_hand_entry(last)?);
    }
    Ok(result)
}

fn parse_hand_entry(entry: &str) -> Result<DwellPoints, String> {
    // As Juggling Lab: the first point is the throw (an optional leading `T` says so), `C`
    // marks the point after it as the catch (else the last point is), `-` is an empty slot.
    let mut points: Vec<Option<[f32; 3]>> = Vec::new();
    let mut catch_at = None;
    let mut rest = entry;
    while let Some(c) = rest.chars().next() {
        match c {
            ' ' => rest = &rest[1..],
            '-' => {
                points.push(None);
                rest = &rest[1..];
            }
            'T' | 't' if points.is_empty() => rest = &rest[1..],
            'C' | 'c' if !points.is_empty() && catch_at.is_none() => {
                catch_at = Some(points.len());
                rest = &rest[1..];
            }
            '(' => {
                let (inner, after) = rest[1..]
                    .split_once(')')
                    .ok_or_else(|| format!("missing ')' in 'hands' entry '{entry}'"))?;
                points.push(Some(parse_point(inner, entry)?));
                rest = after;
            }
            other => return Err(format!("unexpected '{other}' in 'hands' entry '{entry}'")),
        }
    }
    if points.len() < 2 {
        return Err(format!(
            "must have at least 2 coordinates per throw in 'hands' (entry '{entry}')"
        ));
    }
    let throw = points[0].ok_or_else(|| format!("no throw point in 'hands' entry '{entry}'"))?;
    let catch = points
        .get(catch_at.unwrap_or(points.len() - 1))
        .copied()
        .flatten()
        .ok_or_else(|| format!("no catch point in 'hands' entry '{entry}'"))?;
    Ok(DwellPoints { catch, throw })
}

fn parse_point(inner: &str, entry: &str) -> Result<[f32; 3], String> {
    let mut p = [0.0f32; 3];
    let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
    if parts.is_empty() || parts.len() > 3 {
        return Err(format!(
            "a point has 1 to 3 coordinates in 'hands' entry '{entry}'"
        ));
    }
    for (slot, part) in p.iter_mut().zip(&parts) {
        let cm: f32 = match part.parse::<f32>() {
            Ok(x) if x.is_finite() => x,
            _ => {
                return Err(format!(
                    "coordinate '{part}' is not a number in 'hands' entry '{entry}'"
                ))
            }
        };
        *slot = cm / 100.0;
    }
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_settings_string() {
        let spec = parse_settings(
            "pattern=(4,2x)(2x,4);bps=4.0; dwell=1.0 ;prop=RING;colors={red}{0,0,255};gravity=490;Title=Box",
        )
        .unwrap();
        assert_eq!(spec.notation, "(4,2x)(2x,4)");
        assert_eq!(spec.name, "Box");
        assert_eq!(spec.settings.bps, Some(4.0));
        assert_eq!(spec.settings.dwell, 1.0);
        assert_eq!(spec.settings.prop, PropKind::Ring);
        assert_eq!(
            spec.settings.colors,
            vec![Rgba::rgb(255, 0, 0), Rgba::rgb(0, 0, 255)]
        );
        assert!((spec.settings.gravity - 4.9).abs() < 1e-12);
    }

    #[test]
    fn newlines_empty_entries_and_repeats() {
        let spec = parse_settings("pattern=3;\nbps=3;;bps=5;\ntitle=Three").unwrap();
        assert_eq!(spec.settings.bps, Some(5.0));
        assert_eq!(spec.name, "Three");
        // bps <= 0 means automatic, as in Juggling Lab.
        assert_eq!(
            parse_settings("pattern=3;bps=0").unwrap().settings.bps,
            None
        );
        // No title: named after the pattern.
        assert_eq!(parse_settings("pattern= 531 ").unwrap().name, "531");
    }

    #[test]
    fn hands_map_to_dwell_points_in_metres() {
        let spec = parse_settings("pattern=3;hands=(32.5)(10).").unwrap();
        assert_eq!(
            spec.settings.hand_positions,
            vec![DwellPoints {
                throw: [0.325, 0.0, 0.0],
                catch: [0.1, 0.0, 0.0]
            }]
        );
        let spec =
            parse_settings("pattern=3;hands=(10)(35,15).T(10,0,5)(20)C(-5)(20).|(1)(2).").unwrap();
        assert_eq!(spec.settings.hand_positions.len(), 2);
        assert_eq!(spec.settings.hand_positions[0].catch, [0.35, 0.15, 0.0]);
        assert_eq!(spec.settings.hand_positions[1].throw, [0.1, 0.0, 0.05]);
        assert_eq!(spec.settings.hand_positions[1].catch, [-0.05, 0.0, 0.0]);
    }

    #[test]
    fn errors_say_what_is_wrong() {
        let cases = [
            ("bps=4", "no pattern specified"),
            (
                "pattern=3;bps=fast",
                "number format error in 'bps' value 'fast'",
            ),
            ("pattern=3;bps=NaN", "number format error in 'bps'"),
            ("pattern=3;dwell=2", "between 0 and 2"),
            ("pattern=3;prop=image", "prop type 'image' not recognized"),
            ("pattern=3;colors={mauve}", "colour 'mauve' not recognized"),
            ("pattern=3;colors={1,2,300}", "'300' is not a number 0-255"),
            ("pattern=3;colors={red", "error in color format"),
            ("pattern=3;hands=(10).", "at least 2 coordinates"),
            ("pattern=3;hands=(10)(x).", "'x' is not a number"),
            ("pattern=3;hands=(10)(20", "missing ')'"),
            ("pattern=3;hands=(10)?(20).", "unexpected '?'"),
            ("pattern=3;hands=(10)T(20).", "unexpected 'T'"),
            ("pattern=3;hands=-(20).", "no throw point"),
            ("pattern=3;hands=(10)(20)-.", "no catch point"),
            (
                "pattern=3;hss=3;hold=true",
                "hand siteswaps (hss) are not supported",
            ),
            (
                "pattern=3;speed=2;zoom=1",
                "unknown settings \"speed\", \"zoom\"",
            ),
            ("pattern=3;speed", "parameter 'speed' has no value"),
        ];
        for (input, expected) in cases {
            let err = parse_settings(input).unwrap_err();
            assert!(err.contains(expected), "{input}: {err}");
        }
    }

    #[test]
    fn ignored_and_colour_shorthands() {
        let spec = parse_settings("pattern=3;propdiam=12;bouncefrac=0.8;colors=mixed").unwrap();
        assert!(spec.settings.colors.is_empty());
        let spec = parse_settings("pattern=3;colors=red,#00ff00").unwrap();
        assert_eq!(
            spec.settings.colors,
            vec![Rgba::rgb(255, 0, 0), Rgba::rgb(0, 255, 0)]
        );
    }
}
