//! juggler's own TOML pattern format, written (the reader and the file's serde model are
//! `files::toml_format`'s): one pattern as top-level keys, several as `[[pattern]]` tables,
//! keys with default values left out.

use toml::Spanned;

use super::ConvertError;
use crate::files::toml_format::{
    BodyEntry, CameraEntry, Checked, ColorValue, Colors, HandEntry, Hands, JugglerEntry, Jugglers,
    PatternEntry, PatternListFile, Point, RingThrows, SpinTable,
};
use crate::settings::{BodySpec, Dwell, DwellPoints, Settings};
use crate::spec::{PatternSource, PatternSpec};

/// The entry for a spec, leaving out every key that has its default value.
fn entry(spec: &PatternSpec, siteswap: &str) -> PatternEntry {
    let s = &spec.settings;
    let d = Settings::default();
    let some_if = |cond: bool| cond.then_some(());
    let (dwell, beat_dwells) = match &s.dwell {
        Dwell::Uniform(v) => (
            some_if(s.dwell != d.dwell).map(|_| Spanned::new(0..0, Checked::new(*v))),
            None,
        ),
        Dwell::PerBeat(beats) => (None, Some(beats.iter().map(|b| Checked::new(*b)).collect())),
    };
    PatternEntry {
        name: some_if(spec.name != siteswap).map(|_| spec.name.clone()),
        siteswap: Spanned::new(0..0, siteswap.to_string()),
        description: some_if(!spec.description.is_empty()).map(|_| spec.description.clone()),
        bps: s.bps.map(Checked::new),
        dwell,
        beat_dwells,
        gravity: some_if(s.gravity != d.gravity).map(|_| Checked::new(s.gravity)),
        bounce_energy: s.bounce_energy.map(Checked::new),
        prop: some_if(s.prop != d.prop).map(|_| s.prop),
        // Every prop of `prop`'s kind (`Settings::set_every_prop`) needs no list.
        props: some_if(s.prop_kinds.iter().any(|k| *k != s.prop)).map(|_| s.prop_kinds.clone()),
        colors: some_if(!s.colors.is_empty())
            .map(|_| Colors::List(s.colors.iter().copied().map(ColorValue).collect())),
        color_by_orbit: some_if(s.color_by_orbit).map(|_| true),
        jugglers: match s.shared_by {
            Some(n) => Some(Jugglers::Count(n)),
            None => some_if(!s.positions.is_empty()).map(|_| {
                if s.moving() {
                    return Jugglers::Jl(s.positions.clone());
                }
                Jugglers::List(
                    s.placements()
                        .iter()
                        .map(|p| JugglerEntry {
                            x: Checked::of_f32(p.x),
                            z: Checked::of_f32(p.z),
                            facing: Checked::of_f32(p.facing_deg),
                        })
                        .collect(),
                )
            }),
        },
        hands: some_if(s.hands.len() == 1).map(|_| Hands::List(hand_entries(&s.hands[0]))),
        juggler_hands: some_if(s.hands.len() > 1)
            .map(|_| s.hands.iter().map(|h| hand_entries(h)).collect()),
        body: some_if(s.bodies.shared != BodySpec::default())
            .map(|_| BodyEntry::from(s.bodies.shared)),
        bodies: (!s.bodies.jugglers.is_empty()).then(|| {
            s.bodies
                .jugglers
                .iter()
                .copied()
                .map(BodyEntry::from)
                .collect()
        }),
        camera: s.camera.map(|c| CameraEntry {
            azimuth: Checked::of_f32(c.azimuth_deg),
            elevation: Checked::of_f32(c.elevation_deg),
            distance: c.distance.map(Checked::of_f32),
        }),
        spins: some_if(!s.spins.is_empty()).map(|_| SpinTable(s.spins.clone())),
        ring_throws: some_if(s.pancake_rings).map(|_| RingThrows::Pancake),
    }
}

fn hand_entries(points: &[DwellPoints]) -> Vec<HandEntry> {
    points
        .iter()
        .map(|h| HandEntry {
            throw: Point(h.throw),
            catch: Point(h.catch),
        })
        .collect()
}

/// Writes patterns in juggler's TOML format: one pattern as top-level keys, several (or none)
/// as `[[pattern]]` tables. Keys with default values are left out. For specs whose values are
/// in range, `files::from_toml_str(&to_toml(specs)?, _)` gives `specs` back. A pattern given
/// by its events has no siteswap for the file: an error naming it.
pub fn to_toml(specs: &[PatternSpec]) -> Result<String, ConvertError> {
    let entries = specs
        .iter()
        .map(|spec| match &spec.source {
            PatternSource::Siteswap(_)
                if spec.settings.shared_by.is_some() && !spec.settings.positions.is_empty() =>
            {
                Err(ConvertError::SharedAndPlaced {
                    name: spec.name.clone(),
                    shared_by: spec.settings.shared_by.unwrap_or(0),
                })
            }
            PatternSource::Siteswap(siteswap) => Ok(entry(spec, siteswap)),
            PatternSource::Events(_) => Err(ConvertError::NoSiteswap {
                name: spec.name.clone(),
                format: "TOML",
            }),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let result = match <[PatternEntry; 1]>::try_from(entries) {
        Ok([single]) => toml::to_string(&single),
        Err(entries) => toml::to_string(&PatternListFile { pattern: entries }),
    };
    // Serialising these plain structs cannot fail: every field is a string, number, bool,
    // array or table, and the list wrapper is a table.
    Ok(escape_controls(&result.unwrap_or_else(|e| {
        format!("# could not write patterns: {e}\n")
    })))
}

/// How many of the quotes (`quote`) starting `at`, where a multi-line string's closing
/// delimiter was found, belong to the value: one or two before the three that close it.
fn quotes_before_delimiter(at: &str, quote: u8) -> usize {
    let run = at.bytes().take_while(|&b| b == quote).count();
    run.saturating_sub(3).min(2)
}

/// TOML text with no control character raw (DEL, C1 such as a terminal's CSI U+009B, line
/// separators, bidi controls; the serialiser escapes only C0): in a basic string each is
/// written `\uXXXX`, and a literal string (`'...'`, `'''...'''`, which cannot escape) holding one
/// is rewritten as a basic string. The value read back is the same.
fn escape_controls(text: &str) -> String {
    use crate::text::needs_escape;
    let raw = |c: char| needs_escape(c) && c != '\n' && c != '\t';
    if !text.chars().any(raw) {
        return text.to_string();
    }
    let basic = |content: &str| {
        let mut out = String::from("\"");
        for c in content.chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '\n' => out.push_str("\\n"),
                '\t' => out.push_str("\\t"),
                c if needs_escape(c) => out.push_str(&format!("\\u{:04X}", u32::from(c))),
                c => out.push(c),
            }
        }
        out.push('"');
        out
    };
    let mut out = String::with_capacity(text.len() + 16);
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if rest.starts_with("'''") {
            // A multi-line literal: its first line break is not part of the value.
            let body = &rest[3..];
            // One or two quotes may end the value right before the delimiter (`''''`).
            let mut end = body.find("'''").unwrap_or(body.len());
            end += quotes_before_delimiter(&body[end..], b'\'');
            let content = &body[..end];
            let value = content.strip_prefix('\n').unwrap_or(content);
            out.push_str(&basic(value));
            rest = body.get(end + 3..).unwrap_or("");
        } else if c == '\'' {
            let body = &rest[1..];
            let end = body.find('\'').unwrap_or(body.len());
            let content = &body[..end];
            if content.chars().any(raw) {
                out.push_str(&basic(content));
            } else {
                out.push('\'');
                out.push_str(content);
                out.push('\'');
            }
            rest = body.get(end + 1..).unwrap_or("");
        } else if c == '"' {
            // A basic string (one line, or multi-line `"""`): escapes kept, raw controls
            // escaped.
            let quotes = if rest.starts_with("\"\"\"") { 3 } else { 1 };
            out.push_str(&rest[..quotes]);
            let mut i = quotes;
            let bytes = rest.as_bytes();
            while i < rest.len() {
                if bytes[i] == b'\\' {
                    let next = rest[i + 1..].chars().next().map_or(0, char::len_utf8);
                    out.push_str(&rest[i..i + 1 + next]);
                    i += 1 + next;
                    continue;
                }
                if rest[i..].starts_with(&"\"\"\""[..quotes]) {
                    // One or two quotes may end a multi-line value right before its closing
                    // delimiter (four or five quotes in a row).
                    if quotes == 3 {
                        let extra = quotes_before_delimiter(&rest[i..], b'"');
                        out.push_str(&rest[i..i + extra]);
                        i += extra;
                    }
                    break;
                }
                let ch = rest[i..].chars().next().unwrap_or(' ');
                if raw(ch) {
                    out.push_str(&format!("\\u{:04X}", u32::from(ch)));
                } else {
                    out.push(ch);
                }
                i += ch.len_utf8();
            }
            let close = (i + quotes).min(rest.len());
            out.push_str(&rest[i..close]);
            rest = &rest[close..];
        } else {
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 27, escaping class: a name with C1 (CSI), DEL or a bidi override reached the
    /// terminal raw from `convert --format toml` (the serialiser chose a literal string); now
    /// every one is escaped and the file reads back to the same name.
    #[test]
    fn toml_output_has_no_raw_control_characters() {
        for name in [
            "a\u{9b}b",
            "a\"b\\c\u{9b}d\u{202e}",
            "a\"b\\c\u{9b}d\n",
            "x'y\u{7f}",
            "\u{1b}[31mred\u{7}",
            "plain 'name'",
        ] {
            let mut spec = PatternSpec::from_notation("3");
            spec.name = name.to_string();
            let text = to_toml(std::slice::from_ref(&spec)).unwrap();
            assert!(
                !text
                    .chars()
                    .any(|c| crate::text::needs_escape(c) && c != '\n'),
                "{text:?}"
            );
            let back = crate::files::from_toml_str(&text, "t.toml").unwrap();
            assert_eq!(back[0].name, name, "{text}");
        }
        assert_eq!(escape_controls("a = 'b\u{9b}'\n"), "a = \"b\\u009B\"\n");
        assert_eq!(
            escape_controls("a = \"\\\"\u{9b}\"\n"),
            "a = \"\\\"\\u009B\"\n"
        );
    }
    /// A value ending in a quote is written with its quote right before the closing
    /// delimiter (`name = """'""""`: the value `'"`); the escaping of controls took the first
    /// three quotes for the end, lost its place and escaped a line separator inside the next
    /// pattern's literal string, which read back as the six characters `\u2028` (found by
    /// `any_valid_spec_round_trips` in CI). Multi-line literals alike (`''''`).
    #[test]
    fn a_value_ending_in_a_quote_keeps_the_escaping_in_step() {
        let mut first = PatternSpec::from_notation("3");
        first.name = "'\"".to_string();
        let mut second = PatternSpec::from_notation("a");
        second.description = "\\A\u{2028}".to_string();
        let specs = vec![first, second];
        let text = to_toml(&specs).unwrap();
        let back: Vec<PatternSpec> = read_toml_str(&text, "p.toml")
            .unwrap()
            .into_iter()
            .map(|p| p.spec)
            .collect();
        assert_eq!(back, specs, "{text}");
        for (text, value) in [
            ("a = \"\"\"x\"\"\"\"\nb = '\u{2028}'\n", "x\""),
            ("a = \"\"\"x\"\"\"\"\"\nb = '\u{2028}'\n", "x\"\""),
            ("a = \'\'\'x\'\'\'\'\nb = '\u{2028}'\n", "x\'"),
        ] {
            let escaped = escape_controls(text);
            let read: toml::Table = toml::from_str(&escaped).expect(&escaped);
            assert_eq!(read["a"].as_str(), Some(value), "{escaped}");
            assert_eq!(read["b"].as_str(), Some("\u{2028}"), "{escaped}");
        }
    }
    use crate::files::from_toml_str;
    use crate::files::toml_format::read_toml_str;
    use crate::settings::{Bodies, CameraSpec, PlacementSpec};
    use crate::types::{PropKind, Rgba};

    #[test]
    fn jugglers_sharing_a_siteswap_are_a_number_and_exclude_places() {
        let spec = PatternSpec::parse("975;jugglers=2;prop=club").unwrap();
        let text = to_toml(std::slice::from_ref(&spec)).unwrap();
        assert_eq!(text, "siteswap = \"975\"\nprop = \"club\"\njugglers = 2\n");
        let back = from_toml_str(&text, "t.toml").unwrap();
        assert_eq!(back[0].settings.shared_by, Some(2));
        assert_eq!(back[0], spec);
        let e = from_toml_str("siteswap = \"975\"\njugglers = 0\n", "t.toml").unwrap_err();
        assert!(
            e.to_string()
                .contains("jugglers must be a whole number between 1 and 26, not 0"),
            "{e}"
        );
        let e = from_toml_str("siteswap = \"<3p|3p>\"\njugglers = 3\n", "t.toml").unwrap_err();
        assert!(
            e.to_string().contains("written for 2 jugglers, not the 3"),
            "{e}"
        );
        let mut placed = spec.clone();
        placed.settings.positions = vec![crate::settings::still(PlacementSpec {
            x: 0.0,
            z: 1.0,
            facing_deg: 0.0,
        })];
        assert!(matches!(
            to_toml(&[placed]),
            Err(ConvertError::SharedAndPlaced { shared_by: 2, .. })
        ));
    }

    #[test]
    fn writes_only_non_default_keys() {
        let mut spec = PatternSpec::from_notation("531");
        assert_eq!(
            to_toml(std::slice::from_ref(&spec)).unwrap(),
            "siteswap = \"531\"\n"
        );
        spec.settings.prop = PropKind::Club;
        spec.settings.hands = vec![vec![DwellPoints {
            throw: [0.1, 0.0, 0.0],
            catch: [0.3, 0.0, 0.0],
        }]];
        let text = to_toml(std::slice::from_ref(&spec)).unwrap();
        assert!(text.contains("prop = \"club\""), "{text}");
        assert!(text.contains("0.3"), "{text}");
        assert!(!text.contains("0.30000001"), "{text}");
        assert!(!text.contains("dwell"), "{text}");
    }

    #[test]
    fn round_trip_of_a_full_spec_and_lists() {
        let full = from_toml_str(
            r##"name = "Full"
siteswap = "<3p|3p>"
bps = 3.3
dwell = 1.1
gravity = 1.62
prop = "club"
colors = ["#aabbcc", "yellow", "#01020304"]
color_by_orbit = true
jugglers = [{ x = 0.1, z = -1.3, facing = 10 }, { x = 0, z = 1.3, facing = 190.5 }]
hands = [{ throw = [0.1, 0.2, 0.3], catch = [0.3] }]
body = { shoulder_width = 0.44, shoulder_height = 1.5, upper_arm = 0.3, forearm = 0.31, hand = 0.07 }
camera = { azimuth = -20, elevation = 12.5, distance = 6 }
"##,
            "full.toml",
        )
        .unwrap();
        for specs in [
            full.clone(),
            vec![],
            vec![full[0].clone(), PatternSpec::from_notation("3")],
        ] {
            let text = to_toml(&specs).unwrap();
            assert_eq!(from_toml_str(&text, "rt.toml").unwrap(), specs, "{text}");
        }
    }

    mod props {
        use super::*;
        use proptest::prelude::*;

        fn finite(lo: f32, hi: f32) -> impl Strategy<Value = f32> {
            lo..hi
        }

        fn point() -> impl Strategy<Value = [f32; 3]> {
            [finite(-1.0, 1.0), finite(-1.0, 1.0), finite(-1.0, 1.0)]
        }

        prop_compose! {
            fn settings()(
                bps in proptest::option::of(0.1f64..20.0),
                dwell in 0.001f64..1.999,
                gravity in 0.1f64..50.0,
                prop in prop_oneof![Just(PropKind::Ball), Just(PropKind::Club), Just(PropKind::Ring)],
                colors in proptest::collection::vec(any::<(u8, u8, u8, u8)>(), 0..4),
                color_by_orbit in any::<bool>(),
                hands in proptest::collection::vec((point(), point()), 0..3),
                placements in proptest::collection::vec((finite(-5.0, 5.0), finite(-5.0, 5.0), finite(-360.0, 360.0)), 0..3),
                body in proptest::option::of(0.01f32..2.0),
                beat_dwells in proptest::collection::vec(0.0f64..20.0, 0..4),
                bodies in proptest::collection::vec(proptest::option::of(0.3f32..2.0), 0..3),
                camera in proptest::option::of((finite(-360.0, 360.0), finite(-90.0, 90.0), proptest::option::of(0.1f32..30.0))),
                spins in proptest::collection::btree_map(0u32..36, 0u32..=9, 0..4),
                pancake_rings in any::<bool>(),
                bounce_energy in proptest::option::of(0.01f64..10.0),
            ) -> Settings {
                let hands: Vec<DwellPoints> = hands.into_iter().map(|(catch, throw)| DwellPoints { catch, throw }).collect();
                Settings {
                    bps,
                    dwell: if beat_dwells.len() > 1 { Dwell::PerBeat(beat_dwells) } else { Dwell::Uniform(dwell) },
                    gravity,
                    prop,
                    prop_kinds: Vec::new(),
                    colors: colors.into_iter().map(|(r, g, b, a)| Rgba::with_alpha(r, g, b, a)).collect(),
                    color_by_orbit,
                    hands: if hands.is_empty() { Vec::new() } else { vec![hands] },
                    positions: placements
                        .into_iter()
                        .map(|(x, z, facing_deg)| crate::settings::still(PlacementSpec { x, z, facing_deg }))
                        .collect(),
                    bodies: Bodies {
                        shared: BodySpec { upper_arm: body, forearm: body, ..BodySpec::default() },
                        jugglers: bodies.into_iter().map(|h| BodySpec { shoulder_height: h, ..BodySpec::default() }).collect(),
                    },
                    camera: camera.map(|(azimuth_deg, elevation_deg, distance)| CameraSpec { azimuth_deg, elevation_deg, distance }),
                    spins: spins.into_iter().collect(),
                    pancake_rings,
                    // Written with `jugglers` as a number, tested on its own (it excludes places).
                    shared_by: None,
                    bounce_energy,
                }
            }
        }

        prop_compose! {
            fn spec()(
                name in "[ -~]{0,20}",
                notation in "[0-9a-z<>|()\\[\\],*!xp ]{1,12}",
                description in "\\PC{0,30}",
                settings in settings(),
            ) -> PatternSpec {
                // Notations are stored trimmed; a blank one is not a pattern.
                let notation = match notation.trim() { "" => "3".to_string(), t => t.to_string() };
                PatternSpec { name, source: PatternSource::Siteswap(notation), description, settings }
            }
        }

        proptest! {
            #[test]
            fn any_valid_spec_round_trips(specs in proptest::collection::vec(spec(), 0..4)) {
                // Arbitrary notations need not be valid siteswaps: read without checking them.
                let text = to_toml(&specs).unwrap();
                let back: Vec<PatternSpec> =
                    read_toml_str(&text, "p.toml").unwrap().into_iter().map(|p| p.spec).collect();
                prop_assert_eq!(back, specs, "{}", text);
            }
        }
    }
}
