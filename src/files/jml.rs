//! Import of Juggling Lab's JML files (XML): single patterns and pattern lists.
//!
//! Supported:
//! - `<jml><patternlist>` with `<line notation="siteswap">settings</line>` entries (title,
//!   notation and settings such as `bps`, `dwell`, `prop`, `colors`, `hands`; see
//!   `settings`); lines without a notation are headings and are skipped;
//! - `<pattern>` elements (in a list line with `notation="jml"`, or directly in `<jml>`) that
//!   carry a siteswap `<basepattern>`: imported from the base pattern, with the `<title>`,
//!   the first `<prop type>` and the props' `color=` modifiers.
//!
//! A pattern defined only by explicit `<event>`s and `<position>`s (no siteswap base pattern)
//! is read here, once, by `jml_events` into a `spec::PatternSource::Events` that keeps it as
//! a self-contained JML text; one that is inconsistent is rejected with an error naming the
//! pattern, the line of the element at fault and why. A pattern with a siteswap base pattern
//! is read from that.

use std::sync::Arc;

use super::color::parse_color;
use super::error::{FileError, Location, Locator};
use super::jml_events::{self, prop_color};
use super::settings_spec;
use super::xml::{parse_tree, Element};
use super::LoadedPattern;
use crate::settings::Settings;
use crate::spec::{EventFormat, EventSource, PatternSource, PatternSpec};
use crate::types::PropKind;

/// The result of a lenient import: what could be imported, and why the rest could not.
#[derive(Debug)]
pub struct JmlImport {
    pub patterns: Vec<LoadedPattern>,
    /// One error per pattern that could not be imported, in file order.
    pub problems: Vec<FileError>,
}

/// Imports every pattern of a JML file; any pattern that cannot be imported, or whose siteswap
/// is invalid, is an error.
pub fn import_str(text: &str, origin: &str) -> Result<Vec<PatternSpec>, FileError> {
    super::checked(read_str(text, origin)?)
}

/// Like [`import_str`], keeping where each pattern is written, without checking the siteswaps.
pub fn read_str(text: &str, origin: &str) -> Result<Vec<LoadedPattern>, FileError> {
    let import = import_lenient(text, origin)?;
    match import.problems.into_iter().next() {
        Some(problem) => Err(problem),
        None => Ok(import.patterns),
    }
}

/// Imports what can be imported; errors only when the file is not well-formed JML.
pub fn import_lenient(text: &str, origin: &str) -> Result<JmlImport, FileError> {
    let root = parse_tree(text, origin)?;
    let locator = Locator::new(origin, text);
    let at = |offset: usize| locator.at(offset);
    if root.name != "jml" {
        return Err(FileError::Xml {
            at: at(root.offset),
            message: format!("root element is <{}>, expected <jml>", root.name),
        });
    }
    let source = Source {
        text,
        version: root.attr("version").unwrap_or("3").trim().to_string(),
    };
    let mut import = JmlImport {
        patterns: Vec::new(),
        problems: Vec::new(),
    };
    let mut found = false;
    for child in &root.children {
        match child.name.as_str() {
            "pattern" => {
                found = true;
                push(&mut import, import_pattern(child, "", &source, &at));
            }
            "patternlist" => {
                found = true;
                for line in child.children.iter().filter(|c| c.name == "line") {
                    if let Some(result) = import_line(line, &source, &at) {
                        push(&mut import, result);
                    }
                }
            }
            _ => {}
        }
    }
    if !found {
        return Err(FileError::Xml {
            at: at(root.offset),
            message: "<jml> holds no <pattern> or <patternlist>".into(),
        });
    }
    Ok(import)
}

fn push(import: &mut JmlImport, result: Result<LoadedPattern, FileError>) {
    let result = result.and_then(|p| match p.spec.settings.check() {
        Ok(()) => Ok(p),
        Err(e) => Err(FileError::BadSetting {
            at: p.at.clone(),
            message: format!("pattern '{}': {e}", p.spec.name),
        }),
    });
    match result {
        Ok(p) => import.patterns.push(p),
        Err(e) => import.problems.push(e),
    }
}

/// One `<line>` of a pattern list; `None` for headings and blank lines.
fn import_line(
    line: &Element,
    source: &Source,
    at: &dyn Fn(usize) -> Location,
) -> Option<Result<LoadedPattern, FileError>> {
    let display = line.attr("display").unwrap_or("").trim();
    let notation = line.attr("notation")?.trim().to_ascii_lowercase();
    Some(match notation.as_str() {
        "siteswap" => {
            let content = line.text.trim();
            settings_spec(content)
                .map(|mut spec| {
                    if spec.siteswap() == Some(spec.name.as_str()) && !display.is_empty() {
                        spec.name = display.to_string();
                    }
                    LoadedPattern {
                        spec,
                        at: at(line.offset),
                    }
                })
                .map_err(|message| FileError::BadSetting {
                    at: at(line.offset),
                    message: format!("pattern '{}': {message}", name_or(display, content)),
                })
        }
        "jml" => match line.child("pattern") {
            Some(pattern) => import_pattern(pattern, display, source, at),
            None => Err(FileError::Xml {
                at: at(line.offset),
                message: format!("line '{display}' has notation=\"jml\" but no <pattern>"),
            }),
        },
        other => Err(FileError::UnsupportedJml {
            at: at(line.offset),
            what: format!(
                "pattern '{display}' uses notation '{other}' (only siteswap is supported)"
            ),
        }),
    })
}

fn name_or<'a>(display: &'a str, fallback: &'a str) -> &'a str {
    if display.is_empty() {
        fallback
    } else {
        display
    }
}

/// A `<pattern>` element: imported from its siteswap `<basepattern>`.
fn import_pattern(
    pattern: &Element,
    display: &str,
    source: &Source,
    at: &dyn Fn(usize) -> Location,
) -> Result<LoadedPattern, FileError> {
    let title = pattern.child("title").map(|t| t.text.trim()).unwrap_or("");
    let label = name_or(title, name_or(display, "untitled")).to_string();
    let base = pattern.children.iter().find(|c| {
        c.name == "basepattern"
            && c.attr("notation")
                .is_some_and(|n| n.eq_ignore_ascii_case("siteswap"))
    });
    let Some(base) = base else {
        return import_events(pattern, &label, source, at);
    };
    let bad = |message: String| FileError::BadSetting {
        at: at(base.offset),
        message: format!("pattern '{label}': {message}"),
    };
    let content = base.text.trim();
    let has_events = pattern.children.iter().any(|c| c.name == "event");
    let mut spec = match settings_spec(content) {
        Ok(spec) => spec,
        // Juggling Lab animates a pattern from its events; the base pattern is only what it
        // was made from. A broken base pattern beside events is no reason to refuse it.
        Err(_) if has_events => return import_events(pattern, &label, source, at),
        Err(message) => return Err(bad(message)),
    };
    if has_events && crate::schedule::from_notation(spec.siteswap().unwrap_or_default()).is_err() {
        return import_events(pattern, &label, source, at);
    }
    if !title.is_empty() {
        spec.name = title.to_string();
    } else if spec.siteswap() == Some(spec.name.as_str()) && !display.is_empty() {
        spec.name = display.to_string();
    }
    let props: Vec<&Element> = pattern
        .children
        .iter()
        .filter(|c| c.name == "prop")
        .collect();
    if let Some(kind) = props.first().and_then(|p| p.attr("type")) {
        spec.settings.prop = kind.parse::<PropKind>().map_err(bad)?;
    }
    let mut colors = Vec::new();
    for prop in &props {
        if let Some(color) = prop.attr("mod").and_then(prop_color) {
            colors.push(parse_color(color).map_err(bad)?);
        }
    }
    if !colors.is_empty() {
        spec.settings.colors = colors;
    }
    Ok(LoadedPattern {
        spec,
        at: at(pattern.offset),
    })
}

/// The file a pattern is read from: its text and JML version.
struct Source<'a> {
    text: &'a str,
    version: String,
}

/// A `<pattern>` defined by events: read here, once, into an [`EventSource`] that keeps it
/// as a self-contained JML text beside what was read; a broken one is an error at the
/// element at fault.
fn import_events(
    pattern: &Element,
    label: &str,
    source: &Source,
    at: &dyn Fn(usize) -> Location,
) -> Result<LoadedPattern, FileError> {
    // The version as the self-contained text writes it (and as reading that text back sees it).
    let version = source.version.replace(['"', '<', '&'], "");
    let events =
        jml_events::read_pattern(pattern, version.trim()).map_err(|e| FileError::Events {
            at: at(e.at),
            pattern: label.to_string(),
            source: Box::new(e),
        })?;
    let body = source.text.get(pattern.offset..pattern.end).unwrap_or("");
    let mut settings = Settings {
        gravity: jml_events::GRAVITY,
        ..Settings::default()
    };
    if let Some(first) = events.path_props().first() {
        settings.prop = first.kind;
    }
    let spec = PatternSpec {
        name: label.to_string(),
        source: PatternSource::Events(Arc::new(EventSource {
            format: EventFormat::Jml,
            text: format!("<jml version=\"{version}\">\n{body}\n</jml>"),
            pattern: events,
        })),
        description: String::new(),
        settings,
    };
    Ok(LoadedPattern {
        spec,
        at: at(pattern.offset),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::{Dwell, DwellPoints};
    use crate::types::Rgba;

    const LIST: &str = r#"<?xml version="1.0"?>
<!DOCTYPE jml SYSTEM "file://jml.dtd">
<jml version="1.2">
<patternlist>
<title>Test list</title>
<line display="3 Balls"/>
<line display="531 &amp; more" notation="siteswap">
pattern=531;bps=4.5
</line>
<line display="Reverse" notation="siteswap">
pattern=3;
hands=(32.5)(10).;
title=Reverse Cascade
</line>
<line display="Passing" notation="siteswap">pattern=&lt;3p|3p&gt;;prop=ring</line>
<line display="Eating" notation="jml">
<pattern>
<title>Eating an apple</title>
<basepattern notation="siteswap">pattern=33333423;dwell=1.0</basepattern>
<prop type="ball" mod="color=red"/>
<prop type="ball" mod="color=blue;highlight=true"/>
<setup jugglers="1" paths="3" props="1,2,1"/>
<event x="10" y="0" z="0" t="0" hand="1:right"><throw path="1" type="toss"/></event>
</pattern>
</line>
</patternlist>
</jml>
"#;

    #[test]
    fn pattern_list_with_settings() {
        let got = read_str(LIST, "list.jml").unwrap();
        let names: Vec<&str> = got.iter().map(|p| p.spec.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "531 & more",
                "Reverse Cascade",
                "Passing",
                "Eating an apple"
            ]
        );
        assert_eq!(got[0].spec.source.text(), "531");
        assert_eq!(got[0].spec.settings.bps, Some(4.5));
        assert_eq!(got[0].at.line, 7);
        assert_eq!(
            got[1].spec.settings.hands,
            vec![vec![DwellPoints {
                throw: [0.325, 0.0, 0.0],
                catch: [0.1, 0.0, 0.0]
            }]]
        );
        assert_eq!(got[2].spec.source.text(), "<3p|3p>");
        assert_eq!(got[2].spec.settings.prop, PropKind::Ring);
        assert_eq!(got[3].spec.source.text(), "33333423");
        assert_eq!(got[3].spec.settings.dwell, Dwell::Uniform(1.0));
        assert_eq!(
            got[3].spec.settings.colors,
            vec![Rgba::rgb(255, 0, 0), Rgba::rgb(0, 0, 255)]
        );
        assert_eq!(got[3].at.line, 17);
    }

    #[test]
    fn single_pattern_file() {
        let text = "<jml><pattern><title>Ring thing</title><prop type=\"ring\"/>\
                    <basepattern notation=\"siteswap\">pattern=(4,4)</basepattern></pattern></jml>";
        let specs = import_str(text, "one.jml").unwrap();
        assert_eq!(specs.len(), 1);
        assert_eq!(specs[0].name, "Ring thing");
        assert_eq!(specs[0].source.text(), "(4,4)");
        assert_eq!(specs[0].settings.prop, PropKind::Ring);
    }

    #[test]
    fn broken_event_pattern_is_rejected_by_name_and_line() {
        let text = "<jml>\n<patternlist>\n<line display=\"ok\" notation=\"siteswap\">pattern=3</line>\n\
                    <line display=\"Mills\" notation=\"jml\">\n<pattern>\n<title>441 Mills Mess</title>\n\
                    <event x=\"1\" y=\"0\" z=\"0\" t=\"0\" hand=\"1:right\"/>\n</pattern>\n</line>\n\
                    </patternlist>\n</jml>\n";
        let err = import_str(text, "m.jml").unwrap_err();
        let msg = err.to_string();
        assert_eq!(
            msg,
            "m.jml:5:1: pattern '441 Mills Mess': the pattern has no <setup>"
        );
        // The lenient import keeps the good pattern and reports the other.
        let lenient = import_lenient(text, "m.jml").unwrap();
        assert_eq!(lenient.patterns.len(), 1);
        assert_eq!(lenient.problems.len(), 1);
    }

    #[test]
    fn malformed_xml_is_located() {
        let cases = [
            ("<jml>\n<patternlist>\n</jml>", "m.jml:3:"),
            ("<jml>\n<pattern>\n", "never closed"),
            ("<notjml/>", "root element is <notjml>, expected <jml>"),
            (
                "<jml><title>x</title></jml>",
                "holds no <pattern> or <patternlist>",
            ),
            ("", "no XML element found"),
            ("<jml><pattern/></jml><jml/>", "second root element"),
            ("<jml>&bogus;</jml>", "unknown entity"),
            ("<jml><line a=\"1\" a=\"2\"/></jml>", "bad attribute"),
            (&"<a>".repeat(100_000), "nested more than 64 deep"),
        ];
        for (text, expected) in cases {
            let msg = import_str(text, "m.jml").unwrap_err().to_string();
            assert!(msg.contains(expected), "{text:?}: {msg}");
            assert!(msg.starts_with("m.jml:"), "{text:?}: {msg}");
        }
    }

    #[test]
    fn bad_settings_name_the_pattern() {
        let text = "<jml><patternlist>\n<line display=\"Slow\" notation=\"siteswap\">pattern=3;dwell=9</line>\
                    </patternlist></jml>";
        let msg = import_str(text, "s.jml").unwrap_err().to_string();
        assert_eq!(
            msg,
            "s.jml:2:1: pattern 'Slow': dwell must be between 0 (excluded) and 2 (excluded) beats, not 9"
        );
        let text = "<jml><pattern><prop type=\"image\"/>\
                    <basepattern notation=\"siteswap\">pattern=3</basepattern></pattern></jml>";
        let msg = import_str(text, "s.jml").unwrap_err().to_string();
        assert!(msg.contains("prop type 'image' not recognized"), "{msg}");
    }

    #[test]
    fn other_notations_are_unsupported() {
        let text = "<jml><patternlist><line display=\"x\" notation=\"mhn\">1 2 3</line></patternlist></jml>";
        let msg = import_str(text, "o.jml").unwrap_err().to_string();
        assert!(msg.contains("uses notation 'mhn'"), "{msg}");
    }

    mod props {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            #[test]
            fn arbitrary_text_never_panics(text in "\\PC{0,300}") {
                let _ = import_lenient(&text, "p.jml");
            }

            #[test]
            fn xml_like_text_never_panics(text in "[<>/=\"&;a-z #!?\\[\\]-]{0,120}") {
                let _ = import_lenient(&text, "p.jml");
                let _ = import_lenient(&format!("<jml><patternlist>{text}</patternlist></jml>"), "p.jml");
            }

            #[test]
            fn generated_lists_import_every_line(
                entries in proptest::collection::vec(("[A-Za-z][A-Za-z0-9 ]{0,10}", "[1-9]{1,4}", 1u32..100), 1..6)
            ) {
                let mut text = String::from("<?xml version=\"1.0\"?>\n<jml version=\"3\">\n<patternlist>\n");
                for (title, notation, tenths) in &entries {
                    text.push_str(&format!(
                        "<line display=\"{title}\" notation=\"siteswap\">\npattern={notation};bps={}.{}\n</line>\n",
                        tenths / 10, tenths % 10
                    ));
                }
                text.push_str("</patternlist>\n</jml>\n");
                let got = read_str(&text, "g.jml").unwrap();
                prop_assert_eq!(got.len(), entries.len());
                for (i, (p, (title, notation, tenths))) in got.iter().zip(&entries).enumerate() {
                    let display = title.trim();
                    let expected_name = if display.is_empty() { notation.as_str() } else { display };
                    prop_assert_eq!(&p.spec.name, expected_name);
                    prop_assert_eq!(p.spec.source.text(), notation);
                    let bps = *tenths as f64 / 10.0;
                    prop_assert!((p.spec.settings.bps.unwrap() - bps).abs() < 1e-9);
                    prop_assert_eq!(p.at.line, 4 + 3 * i);
                }
            }
        }
    }
}
