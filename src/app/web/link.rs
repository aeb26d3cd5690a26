//! Share links: the page's address says what is on screen, so copying it shares exactly that.
//!
//! `index.html?pattern=531&prop=club&speed=0.5&azimuth=30&elevation=20&zoom=0.8&at=1.25`:
//! the query holds the pattern text as typed (siteswap, Juggling Lab settings string or library
//! name, read like a command-line argument), the command line's options (`prop`, `bps`,
//! `dwell`, `gravity`, `azimuth`, `elevation`, `distance`, `at`) and the page's own view
//! (`speed`, the playback speed; `zoom`, the camera's distance factor; `at` when paused). A
//! pattern of a user's file travels whole in the fragment, compressed (`#toml=` for patterns
//! written as juggler's TOML, names, props, colours and all; `#jml=` for Juggling Lab event
//! patterns), so a link to the 3rd pattern of a JML file opens that pattern with no file.
//!
//! `jugglers=N` (passist's links: `?pattern=975&jugglers=2`, a four-handed siteswap) belongs
//! to the pattern: it is read into the pattern's text as a settings string
//! (`975;jugglers=2`, what the field shows), and such a text is written back as the two keys.
//!
//! Conflicts are resolved in the open: a settings string's own `prop=`, `bps=`, `dwell=` or
//! `gravity=` wins over the same option of the link, and the address then drops the link's
//! (one prop in the URL). Old links (`?pattern=...&prop=...&bps=...`) read as before.

use crate::files::FileKind;
use crate::render::ViewOverrides;
use crate::settings::{keys, Dwell};
use crate::spec::PatternSpec;
use crate::types::PropKind;

/// Largest pattern text a link's fragment may unpack to (a decompression bomb is refused).
pub const MAX_LINK_TEXT: usize = 4 << 20;

/// A pattern of a user's file, carried whole in a link.
#[derive(Clone, Debug, PartialEq)]
pub struct FilePattern {
    /// [`FileKind::Toml`] (one pattern in juggler's format), [`FileKind::Jml`] (a Juggling
    /// Lab event pattern) or [`FileKind::Jif`] (a JIF file's pattern).
    pub kind: FileKind,
    pub text: String,
}

impl FilePattern {
    /// The link form of `spec`: its own JML or JIF when it is an event pattern, else its
    /// TOML.
    pub fn of_spec(spec: &PatternSpec) -> FilePattern {
        let events_kind = match spec.source.events().map(|e| e.format) {
            Some(crate::spec::EventFormat::Jif) => FileKind::Jif,
            _ => FileKind::Jml,
        };
        match crate::convert::toml::to_toml(std::slice::from_ref(spec)) {
            Ok(text) if spec.source.siteswap().is_some() => FilePattern {
                kind: FileKind::Toml,
                text,
            },
            _ => FilePattern {
                kind: events_kind,
                text: spec.source.text().to_string(),
            },
        }
    }

    /// The pattern it carries (the first of the text), checked.
    pub fn spec(&self) -> Result<PatternSpec, String> {
        let specs = crate::files::load_str(&self.text, self.kind, "the link")
            .map_err(|e| first_line(&e.to_string()))?;
        specs
            .into_iter()
            .next()
            .ok_or_else(|| "the link holds no pattern".to_string())
    }

    fn key(&self) -> &'static str {
        match self.kind {
            FileKind::Jml => "jml",
            FileKind::Jif => "jif",
            _ => "toml",
        }
    }
}

fn first_line(text: &str) -> String {
    text.lines().next().unwrap_or("").to_string()
}

/// What a share link asks for. Numbers are checked against the same ranges as the command
/// line; a bad value is left out and described in `problems`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LinkQuery {
    /// Pattern text, as typed (siteswap, settings string or library name).
    pub pattern: Option<String>,
    /// A pattern of a user's file (the fragment); wins over `pattern`.
    pub file: Option<FilePattern>,
    pub prop: Option<PropKind>,
    pub bps: Option<f64>,
    pub dwell: Option<f64>,
    pub gravity: Option<f64>,
    /// Camera angles in degrees, distance in metres.
    pub azimuth: Option<f32>,
    pub elevation: Option<f32>,
    pub distance: Option<f32>,
    /// The camera's distance as a factor of the automatic framing (the page's zoom).
    pub zoom: Option<f32>,
    /// Playback speed (1 = real time).
    pub speed: Option<f64>,
    /// Open paused at this pattern time, seconds (a moment to look at).
    pub at: Option<f64>,
    /// View, labels, trail and loop of beats.
    pub learn: super::super::learn::LearnLink,
    /// One message per key whose value was refused (unknown keys are ignored, like any
    /// page's tracking parameters).
    pub problems: Vec<String>,
}

/// The pattern settings a link can set, as Juggling Lab's settings strings name them.
const PATTERN_KEYS: [&str; 4] = ["prop", "bps", "dwell", "gravity"];

impl LinkQuery {
    /// Reads an address's query and fragment (`?a=1&b=2#toml=...`), each with or without its
    /// leading `?`/`#`. Later keys win over earlier ones; `+` is a space and `%XX` a byte
    /// (invalid UTF-8 is replaced, a lone `%` kept).
    pub fn parse(address: &str) -> LinkQuery {
        let mut q = LinkQuery::default();
        let (query, fragment) = address.split_once('#').unwrap_or((address, ""));
        let query = query.strip_prefix('?').unwrap_or(query);
        let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
        let file_key = |key: &str| matches!(key.trim(), "toml" | "jml" | "jif");
        // Keys written after `#` as after `?` (`#pattern=531`, as some sites' links put them)
        // count like the query's, after it.
        let plain = pairs(query).chain(pairs(fragment).filter(|(key, _)| !file_key(key)));
        let mut jugglers = None;
        for (key, value) in plain {
            let set = match key.trim() {
                "jugglers" => keys::JUGGLERS
                    .parse("jugglers", &value)
                    .map(|n| jugglers = Some(n as usize))
                    .map_err(|e| format!("jugglers={value} in the link: {e}")),
                key => q.set(key, &value),
            };
            if let Err(problem) = set {
                q.problems.push(problem);
            }
        }
        if let (Some(n), Some(pattern)) = (jugglers, &q.pattern) {
            q.pattern = Some(with_jugglers(pattern, n));
        }
        for (key, value) in pairs(fragment) {
            let kind = match key.trim() {
                "toml" => FileKind::Toml,
                "jml" => FileKind::Jml,
                "jif" => FileKind::Jif,
                _ => continue,
            };
            match unpack(&value) {
                Ok(text) => q.file = Some(FilePattern { kind, text }),
                Err(e) => q.problems.push(format!("{key}= in the link: {e}")),
            }
        }
        q
    }

    fn set(&mut self, key: &str, value: &str) -> Result<(), String> {
        // The settings table's numbers, named as the link names them.
        let number = |number: keys::Number| -> Result<f64, String> {
            number
                .parse(key, value)
                .map_err(|e| format!("{key}={value} in the link: {e}"))
        };
        // The page's own numbers (zoom, speed): a finite number within `low..=high`.
        let between = |low: f64, high: f64| -> Result<f64, String> {
            number(keys::TIME)
                .ok()
                .filter(|v| (low..=high).contains(v))
                .ok_or_else(|| {
                    format!(
                        "{key}={value} in the link: {key} must be between {low} and {high}, not {}",
                        value.trim()
                    )
                })
        };
        match key {
            "pattern" => self.pattern = Some(value.to_string()),
            "prop" => {
                self.prop = Some(
                    value
                        .parse()
                        .map_err(|e| format!("prop={value} in the link: {e}"))?,
                )
            }
            "bps" => self.bps = Some(number(keys::BPS)?),
            "dwell" => self.dwell = Some(number(keys::DWELL)?),
            "gravity" => self.gravity = Some(number(keys::GRAVITY)?),
            "azimuth" => self.azimuth = Some(number(keys::AZIMUTH)? as f32),
            // The view stops 1° short of straight up and down (`render::framing`).
            "elevation" => self.elevation = Some(number(keys::ELEVATION)? as f32),
            "distance" => self.distance = Some(number(keys::CAMERA_DISTANCE)? as f32),
            "zoom" => {
                let (low, high) = (super::super::Orbit::MIN_ZOOM, super::super::Orbit::MAX_ZOOM);
                self.zoom = Some(between(f64::from(low), f64::from(high))? as f32);
            }
            "speed" => {
                let speeds = super::super::state::SPEEDS;
                self.speed = Some(between(speeds[0], speeds[speeds.len() - 1])?);
            }
            "at" => self.at = Some(number(keys::TIME)?),
            key if super::super::learn::LearnLink::KEYS.contains(&key) => {
                self.learn.set(key, value)?
            }
            _ => {}
        }
        Ok(())
    }

    /// The address for this link (`?pattern=...&...#toml=...`, keys in a fixed order), or
    /// `""` when it asks for nothing. `parse(to_address(q))` gives `q` back.
    pub fn to_address(&self) -> String {
        let mut pairs: Vec<(&str, String)> = Vec::new();
        if let (Some(p), None) = (&self.pattern, &self.file) {
            match split_jugglers(p) {
                Some((pattern, jugglers)) => {
                    pairs.push(("pattern", pattern.to_string()));
                    pairs.push(("jugglers", jugglers.to_string()));
                }
                None => pairs.push(("pattern", p.clone())),
            }
        }
        if let Some(p) = self.prop {
            pairs.push(("prop", p.name().to_string()));
        }
        let numbers = [
            ("bps", self.bps),
            ("dwell", self.dwell),
            ("gravity", self.gravity),
            ("speed", self.speed),
            ("azimuth", self.azimuth.map(f64::from)),
            ("elevation", self.elevation.map(f64::from)),
            ("distance", self.distance.map(f64::from)),
            ("zoom", self.zoom.map(f64::from)),
            ("at", self.at),
        ];
        for (key, value) in numbers {
            if let Some(v) = value {
                pairs.push((key, format!("{v}")));
            }
        }
        pairs.extend(self.learn.pairs());
        let mut address = String::new();
        if !pairs.is_empty() {
            let body: Vec<String> = pairs
                .iter()
                .map(|(k, v)| format!("{k}={}", percent_encode(v)))
                .collect();
            address = format!("?{}", body.join("&"));
        }
        if let Some(file) = &self.file {
            address.push_str(&format!("#{}={}", file.key(), pack(&file.text)));
        }
        address
    }

    /// The same link showing typed `pattern` instead (playing from its start). A settings
    /// string's own pattern settings win: the link's same options are dropped.
    pub fn with_pattern(&self, pattern: &str) -> LinkQuery {
        let mut link = LinkQuery {
            pattern: Some(pattern.to_string()),
            file: None,
            at: None,
            problems: Vec::new(),
            ..self.clone()
        };
        for key in settings_keys(pattern) {
            match key.as_str() {
                "prop" => link.prop = None,
                "bps" => link.bps = None,
                "dwell" => link.dwell = None,
                "gravity" => link.gravity = None,
                _ => {}
            }
        }
        link
    }

    /// The same link showing a pattern of a user's file (playing from its start).
    pub fn with_file(&self, spec: &PatternSpec) -> LinkQuery {
        LinkQuery {
            pattern: None,
            file: Some(FilePattern::of_spec(spec)),
            at: None,
            problems: Vec::new(),
            ..self.clone()
        }
    }

    /// Applies the link's pattern settings to `spec` (they win over the pattern's own, but
    /// not over those `typed`, a settings string, sets itself).
    pub fn apply(&self, spec: &mut PatternSpec, typed: &str) {
        let own = settings_keys(typed);
        let free = |key: &str| !own.iter().any(|k| k == key);
        let s = &mut spec.settings;
        if let Some(prop) = self.prop.filter(|_| free("prop")) {
            s.set_every_prop(prop);
        }
        if let Some(bps) = self.bps.filter(|_| free("bps")) {
            s.bps = Some(bps);
        }
        if let Some(dwell) = self.dwell.filter(|_| free("dwell")) {
            s.dwell = Dwell::Uniform(dwell);
        }
        if let Some(gravity) = self.gravity.filter(|_| free("gravity")) {
            s.gravity = gravity;
        }
    }

    /// The link's camera (degrees turned to radians), over the pattern's own camera settings.
    pub fn view(&self, spec: &PatternSpec) -> ViewOverrides {
        ViewOverrides {
            azimuth: self.azimuth.map(f32::to_radians),
            elevation: self.elevation.map(f32::to_radians),
            distance: self.distance,
            ..ViewOverrides::default()
        }
        .over_pattern(spec)
    }
}

/// `key=value` pairs of a query or fragment, decoded.
fn pairs(text: &str) -> impl Iterator<Item = (String, String)> + '_ {
    text.split('&').filter(|p| !p.is_empty()).map(|pair| {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        (percent_decode(key), percent_decode(value))
    })
}

/// The pattern settings a settings string sets itself (`prop`, `bps`, `dwell`, `gravity`),
/// lower case; none for other text.
pub fn settings_keys(text: &str) -> Vec<String> {
    if !is_settings_string(text) {
        return Vec::new();
    }
    text.split(';')
        .filter_map(|entry| entry.split_once('='))
        .map(|(key, _)| key.trim().to_ascii_lowercase())
        .filter(|key| PATTERN_KEYS.contains(&key.as_str()))
        .collect()
}

fn is_settings_string(text: &str) -> bool {
    use crate::files::argument::{self, Argument, Source};
    matches!(
        argument::read(text),
        Ok(Argument::Pattern {
            source: Source::Settings,
            ..
        })
    )
}

/// A link's `pattern` with its `jugglers=N`: a settings string keeps its own `jugglers=`,
/// other text becomes `PATTERN;jugglers=N`.
fn with_jugglers(pattern: &str, jugglers: usize) -> String {
    if !is_settings_string(pattern) {
        return format!("{};jugglers={jugglers}", pattern.trim());
    }
    let own = pattern.split(';').any(|entry| {
        entry
            .split_once('=')
            .is_some_and(|(key, _)| key.trim().eq_ignore_ascii_case("jugglers"))
    });
    if own {
        pattern.to_string()
    } else {
        with_setting(pattern, "jugglers", &jugglers.to_string())
    }
}

/// `PATTERN;jugglers=N` (a pattern without `;` or `=` and a whole number): its two parts, as
/// the link writes them (passist's form, `?pattern=975&jugglers=2`).
fn split_jugglers(text: &str) -> Option<(&str, usize)> {
    let (pattern, rest) = text.split_once(';')?;
    let value = rest.strip_prefix("jugglers=")?;
    let n: usize = value.parse().ok()?;
    let plain =
        !pattern.is_empty() && !pattern.contains(['=', '&', '#']) && pattern.trim() == pattern;
    (plain && n.to_string() == value && keys::JUGGLERS.contains(n as f64)).then_some((pattern, n))
}

/// `text` (a settings string) with `key` set to `value`: the value of its last `key=` entry
/// replaced, or the entry added at the end.
pub fn with_setting(text: &str, key: &str, value: &str) -> String {
    let mut entries: Vec<String> = text.split(';').map(str::to_string).collect();
    let found = entries.iter().rposition(|entry| {
        entry
            .split_once('=')
            .is_some_and(|(k, _)| k.trim().eq_ignore_ascii_case(key))
    });
    match found {
        Some(i) => {
            let (k, _) = entries[i].split_once('=').unwrap_or((key, ""));
            entries[i] = format!("{k}={value}");
        }
        None => {
            if entries.last().is_some_and(|e| e.trim().is_empty()) {
                entries.pop();
            }
            entries.push(format!("{key}={value}"));
        }
    }
    entries.join(";")
}

/// Decodes `%XX` escapes and `+` (a space in form encoding). A `%` not followed by two hex
/// digits stays as it is; invalid UTF-8 becomes U+FFFD.
pub fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => match (
                bytes.get(i + 1).and_then(|&b| hex(b)),
                bytes.get(i + 2).and_then(|&b| hex(b)),
            ) {
                (Some(h), Some(l)) => {
                    out.push((h * 16 + l) as u8);
                    i += 3;
                    continue;
                }
                _ => out.push(b'%'),
            },
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Escapes everything but letters, digits and `-_.~()*,!:/@` (which stay readable in a
/// link: `(4,2x)*` is written as it is), so the value survives any query parser.
pub fn percent_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~()*,!:/@".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

const BASE64URL: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Text compressed (raw deflate) and written in base64url without padding: safe in a URL.
pub fn pack(text: &str) -> String {
    let bytes = miniz_oxide::deflate::compress_to_vec(text.as_bytes(), 9);
    let mut out = String::with_capacity(bytes.len() * 4 / 3 + 3);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | (u32::from(b) << (16 - 8 * i)));
        for k in 0..=chunk.len() {
            out.push(BASE64URL[(n >> (18 - 6 * k) & 63) as usize] as char);
        }
    }
    out
}

/// The text [`pack`] packed; an error for anything else (bad characters, bad compressed data,
/// more than [`MAX_LINK_TEXT`] bytes, not UTF-8).
pub fn unpack(packed: &str) -> Result<String, String> {
    let mut bytes = Vec::with_capacity(packed.len() * 3 / 4);
    let (mut n, mut bits) = (0u32, 0u32);
    for c in packed.trim().trim_end_matches('=').bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'-' | b'+' => 62,
            b'_' | b'/' => 63,
            _ => return Err(format!("'{}' is not base64", c as char)),
        };
        n = (n << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            bytes.push((n >> bits) as u8);
            n &= (1 << bits) - 1;
        }
    }
    let text = miniz_oxide::inflate::decompress_to_vec_with_limit(&bytes, MAX_LINK_TEXT)
        .map_err(|_| "the pattern data is damaged (cut short?)".to_string())?;
    String::from_utf8(text).map_err(|_| "the pattern data is not text".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::files::argument::{self, Argument};

    #[test]
    fn a_query_with_every_key_is_read_with_numbers_and_the_prop() {
        let q = LinkQuery::parse(
            "?pattern=531&prop=club&bps=4.5&dwell=0.8&gravity=3.7&azimuth=-30&elevation=15&distance=7&at=1.25&speed=0.5&zoom=0.8",
        );
        assert_eq!((q.speed, q.zoom), (Some(0.5), Some(0.8)));
        assert_eq!(q.pattern.as_deref(), Some("531"));
        assert_eq!(q.prop, Some(PropKind::Club));
        assert_eq!(q.bps, Some(4.5));
        assert_eq!(q.dwell, Some(0.8));
        assert_eq!(q.gravity, Some(3.7));
        assert_eq!(q.azimuth, Some(-30.0));
        assert_eq!(q.elevation, Some(15.0));
        assert_eq!(q.distance, Some(7.0));
        assert_eq!(q.at, Some(1.25));
        assert!(q.problems.is_empty(), "{:?}", q.problems);
    }

    #[test]
    fn keys_after_the_hash_count_like_the_querys() {
        // `#pattern=975;jugglers=2;prop=club` showed the default `3` before.
        let q = LinkQuery::parse("#pattern=975&jugglers=2&prop=club");
        assert_eq!(q.pattern.as_deref(), Some("975;jugglers=2"));
        assert_eq!(q.prop, Some(PropKind::Club));
        // After the query's own keys: the fragment's come later and win.
        let q = LinkQuery::parse("?pattern=531&speed=2#speed=0.5");
        assert_eq!((q.pattern.as_deref(), q.speed), (Some("531"), Some(0.5)));
        // Bad values there are reported like the query's.
        let q = LinkQuery::parse("#pattern=3&speed=fast");
        assert_eq!(q.problems.len(), 1, "{:?}", q.problems);
        assert!(
            q.problems[0].starts_with("speed=fast in the link"),
            "{:?}",
            q.problems
        );
    }

    #[test]
    fn escapes_and_plus_decode_to_the_typed_pattern() {
        // A passing pattern, a settings string and a library name, as browsers encode them.
        assert_eq!(
            LinkQuery::parse("pattern=%3C 3p%7C3p %3E")
                .pattern
                .as_deref(),
            Some("< 3p|3p >")
        );
        assert_eq!(
            LinkQuery::parse("pattern=pattern%3D531%3Bbps%3D4%3Bprop%3Dring")
                .pattern
                .as_deref(),
            Some("pattern=531;bps=4;prop=ring")
        );
        assert_eq!(
            LinkQuery::parse("?pattern=Mills+Mess").pattern.as_deref(),
            Some("Mills Mess")
        );
        assert_eq!(
            LinkQuery::parse("?pattern=Rubenstein%E2%80%99s%20Revenge")
                .pattern
                .as_deref(),
            Some("Rubenstein\u{2019}s Revenge")
        );
        // A bare `%` or a bad escape stays; invalid UTF-8 is replaced, never a panic.
        assert_eq!(percent_decode("50%"), "50%");
        assert_eq!(percent_decode("%zz%4"), "%zz%4");
        assert_eq!(percent_decode("%FF"), "\u{FFFD}");
        assert_eq!(percent_decode("a%2Bb+c"), "a+b c");
    }

    #[test]
    fn bad_values_are_reported_and_left_out_unknown_keys_ignored() {
        let q =
            LinkQuery::parse("pattern=3&bps=fast&dwell=2.5&prop=knife&elevation=91&utm_source=x");
        assert_eq!(q.pattern.as_deref(), Some("3"));
        assert_eq!(
            (q.bps, q.dwell, q.prop, q.elevation),
            (None, None, None, None)
        );
        assert_eq!(q.problems.len(), 4, "{:?}", q.problems);
        assert_eq!(
            q.problems[0],
            "bps=fast in the link: bps must be between 0.1 and 200 beats per second, not fast"
        );
        assert!(q.problems[1].starts_with("dwell=2.5 in the link"));
        assert!(q.problems[2].contains("knife"));
        assert!(q.problems[3].contains("-90 and 90"), "{}", q.problems[3]);
        // Hostile numbers: not finite, overflowing, empty.
        for bad in [
            "at=nan",
            "at=inf",
            "bps=1e400",
            "azimuth=",
            "distance=-1",
            "gravity=NaN",
        ] {
            let q = LinkQuery::parse(bad);
            assert_eq!(q.problems.len(), 1, "{bad}: {:?}", q.problems);
            assert_eq!(
                LinkQuery {
                    problems: vec![],
                    ..q
                },
                LinkQuery::default(),
                "{bad}"
            );
        }
        assert_eq!(LinkQuery::parse("bps=0.05").problems.len(), 1);
        assert_eq!(LinkQuery::parse("bps=260").problems.len(), 1);
        assert_eq!(LinkQuery::parse("").pattern, None);
        assert_eq!(LinkQuery::parse("?&&pattern").pattern.as_deref(), Some(""));
        // The last of a repeated key wins.
        assert_eq!(
            LinkQuery::parse("pattern=3&pattern=531").pattern.as_deref(),
            Some("531")
        );
    }

    #[test]
    fn the_address_round_trips_and_keeps_notation_readable() {
        let q = LinkQuery::parse("?bps=4&prop=ring").with_pattern("(4,2x)*");
        assert_eq!(q.to_address(), "?pattern=(4,2x)*&prop=ring&bps=4");
        // A new pattern plays from its start: the moment of the old link is dropped.
        let paused = LinkQuery::parse("pattern=531&at=0.5&bps=4").with_pattern("3");
        assert_eq!(paused.to_address(), "?pattern=3&bps=4");
        let tricky = LinkQuery::default().with_pattern("<3p|3p> & #1 = 50%+[33]");
        let text = tricky.to_address();
        assert_eq!(
            text,
            "?pattern=%3C3p%7C3p%3E%20%26%20%231%20%3D%2050%25%2B%5B33%5D"
        );
        assert_eq!(LinkQuery::parse(&text), tricky);
        assert_eq!(LinkQuery::default().to_address(), "");
        let all = LinkQuery::parse("pattern=3&azimuth=12.5&elevation=-20&distance=4&gravity=9");
        assert_eq!(LinkQuery::parse(&all.to_address()), all);
    }

    #[test]
    fn a_typed_settings_string_wins_over_the_link_and_the_address_shows_one_prop() {
        let link = LinkQuery::parse("bps=3&prop=club&azimuth=90");
        let typed = "pattern=531;bps=5;prop=ring";
        let mut spec = match argument::read(typed).unwrap() {
            Argument::Pattern { spec, .. } => *spec,
            other => panic!("{other:?}"),
        };
        link.apply(&mut spec, typed);
        assert_eq!(spec.settings.bps, Some(5.0));
        assert_eq!(spec.settings.prop, PropKind::Ring);
        assert_eq!(
            link.with_pattern(typed).to_address(),
            "?pattern=pattern%3D531%3Bbps%3D5%3Bprop%3Dring&azimuth=90"
        );
        // Where the text says nothing, the link's settings apply.
        let mut plain = PatternSpec::from_notation("531");
        link.apply(&mut plain, "531");
        assert_eq!(
            (plain.settings.bps, plain.settings.prop),
            (Some(3.0), PropKind::Club)
        );
        let view = link.view(&plain);
        assert!((view.azimuth.unwrap() - std::f32::consts::FRAC_PI_2).abs() < 1e-6);
        assert_eq!(view.elevation, None);
        // A library name or siteswap sets nothing itself.
        assert!(settings_keys("Mills Mess").is_empty());
        assert!(
            settings_keys("prop=ring").is_empty(),
            "no pattern: not a settings string"
        );
        assert_eq!(
            settings_keys("pattern=3;Prop=club;dwell=1"),
            ["prop", "dwell"]
        );
    }

    #[test]
    fn a_setting_is_replaced_or_added() {
        assert_eq!(
            with_setting("pattern=531;prop=ring", "prop", "club"),
            "pattern=531;prop=club"
        );
        assert_eq!(
            with_setting("pattern=531; Prop = ring ;bps=4", "prop", "ball"),
            "pattern=531; Prop =ball;bps=4"
        );
        assert_eq!(
            with_setting("pattern=531;", "prop", "club"),
            "pattern=531;prop=club"
        );
        assert_eq!(
            with_setting("pattern=531", "prop", "club"),
            "pattern=531;prop=club"
        );
    }

    #[test]
    fn a_files_pattern_travels_packed_in_the_fragment() {
        let toml = "[[pattern]]\nname = 'Mine'\nsiteswap = '531'\nprop = 'club'\ncolors = ['red', '#00ff00']\n";
        let specs = crate::files::load_str(toml, FileKind::Toml, "mine.toml").unwrap();
        let link = LinkQuery::parse("speed=0.5").with_file(&specs[0]);
        let address = link.to_address();
        assert!(address.starts_with("?speed=0.5#toml="), "{address}");
        assert!(
            !address.contains('%') && !address.contains('+'),
            "{address}"
        );
        let back = LinkQuery::parse(&address);
        assert_eq!(back, link);
        let spec = back.file.unwrap().spec().unwrap();
        assert_eq!(spec, specs[0]);
        assert_eq!(spec.settings.colors.len(), 2);
        // Round trips of any text, and a compact form of a long one.
        for text in ["", "a", "ab", "abc", "abcd", "ünïcödé <jml> & ; # ?"] {
            assert_eq!(unpack(&pack(text)).unwrap(), text);
        }
        let long = "<event x=\"10\" y=\"20\" hand=\"1:left\"/>\n".repeat(200);
        assert!(pack(&long).len() < long.len() / 10);
        // Damaged or hostile data is an error, never a panic.
        for bad in ["!!!", "AAAA", &pack("hello")[..3]] {
            assert!(unpack(bad).is_err(), "{bad}");
        }
        let bomb = pack(&"a".repeat(MAX_LINK_TEXT + 1));
        assert!(bomb.len() < 10_000);
        assert!(unpack(&bomb).is_err());
        let q = LinkQuery::parse("#toml=AAAA");
        assert!(
            q.file.is_none() && q.problems[0].starts_with("toml= in the link"),
            "{q:?}"
        );
    }

    #[test]
    fn passists_jugglers_key_round_trips_and_animates_a_four_handed_siteswap() {
        let q = LinkQuery::parse("?pattern=975&jugglers=2&prop=club");
        assert_eq!(q.pattern.as_deref(), Some("975;jugglers=2"));
        assert_eq!(q.to_address(), "?pattern=975&jugglers=2&prop=club");
        assert_eq!(LinkQuery::parse(&q.to_address()), q);
        let text = q.pattern.clone().unwrap();
        let mut spec = match argument::read(&text).unwrap() {
            Argument::Pattern { spec, .. } => *spec,
            other => panic!("{other:?}"),
        };
        q.apply(&mut spec, &text);
        let scene = crate::scene::Scene::new(&spec).unwrap();
        assert_eq!((scene.jugglers(), scene.props()), (2, 7));
        assert_eq!(spec.settings.prop, PropKind::Club);
        // A settings string keeps its own jugglers=; a file's pattern ignores the key.
        let own = LinkQuery::parse("pattern=pattern%3D975%3Bjugglers%3D2&jugglers=3");
        assert_eq!(own.pattern.as_deref(), Some("pattern=975;jugglers=2"));
        assert_eq!(LinkQuery::parse(&own.to_address()), own);
        let added = LinkQuery::parse("pattern=pattern%3D531%3Bbps%3D4&jugglers=2");
        assert_eq!(
            added.pattern.as_deref(),
            Some("pattern=531;bps=4;jugglers=2")
        );
        // Bad counts are problems, the pattern stays as written.
        for bad in ["0", "27", "2.5", "two"] {
            let q = LinkQuery::parse(&format!("pattern=975&jugglers={bad}"));
            assert_eq!(q.pattern.as_deref(), Some("975"), "{bad}");
            assert!(
                q.problems[0].starts_with(&format!(
                    "jugglers={bad} in the link: jugglers must be a whole number"
                )),
                "{:?}",
                q.problems
            );
        }
    }
}
