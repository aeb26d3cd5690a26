//! Colour names and `#rrggbb` hex colours, as used in pattern files and Juggling Lab settings.

use crate::types::Rgba;

/// Juggling Lab's colour names (Java AWT values), in the order JL lists them.
pub const NAMED_COLORS: [(&str, Rgba); 12] = [
    ("transparent", Rgba::with_alpha(0, 0, 0, 0)),
    ("black", Rgba::rgb(0, 0, 0)),
    ("blue", Rgba::rgb(0, 0, 255)),
    ("cyan", Rgba::rgb(0, 255, 255)),
    ("gray", Rgba::rgb(128, 128, 128)),
    ("green", Rgba::rgb(0, 255, 0)),
    ("magenta", Rgba::rgb(255, 0, 255)),
    ("orange", Rgba::rgb(255, 200, 0)),
    ("pink", Rgba::rgb(255, 175, 175)),
    ("red", Rgba::rgb(255, 0, 0)),
    ("white", Rgba::rgb(255, 255, 255)),
    ("yellow", Rgba::rgb(255, 255, 0)),
];

/// Parses a colour name (case-insensitive; `grey` = `gray`), `#rrggbb` or `#rrggbbaa`.
pub fn parse_color(text: &str) -> Result<Rgba, String> {
    let t = text.trim();
    if let Some(hex) = t.strip_prefix('#') {
        return parse_hex(hex).ok_or_else(|| {
            format!("colour '{t}' is not of the form #rrggbb or #rrggbbaa (hex digits)")
        });
    }
    let lower = t.to_ascii_lowercase();
    let lower = if lower == "grey" {
        "gray".to_string()
    } else {
        lower
    };
    NAMED_COLORS
        .iter()
        .find(|(name, _)| *name == lower)
        .map(|(_, c)| *c)
        .ok_or_else(|| {
            let names: Vec<&str> = NAMED_COLORS.iter().map(|(n, _)| *n).collect();
            format!(
                "colour '{t}' not recognized (expected #rrggbb or one of {})",
                names.join(", ")
            )
        })
}

fn parse_hex(hex: &str) -> Option<Rgba> {
    if !(hex.len() == 6 || hex.len() == 8) || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
    let a = if hex.len() == 8 { byte(6)? } else { 255 };
    Some(Rgba::with_alpha(byte(0)?, byte(2)?, byte(4)?, a))
}

/// The name of a colour if it has one, else `#rrggbb` (or `#rrggbbaa` when not opaque).
/// `parse_color(&color_text(c)) == Ok(c)` for every colour.
pub fn color_text(c: Rgba) -> String {
    if let Some((name, _)) = NAMED_COLORS.iter().find(|(_, named)| *named == c) {
        return (*name).to_string();
    }
    if c.a == 255 {
        format!("#{:02x}{:02x}{:02x}", c.r, c.g, c.b)
    } else {
        format!("#{:02x}{:02x}{:02x}{:02x}", c.r, c.g, c.b, c.a)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn names_and_hex() {
        assert_eq!(parse_color("red"), Ok(Rgba::rgb(255, 0, 0)));
        assert_eq!(parse_color(" Orange "), Ok(Rgba::rgb(255, 200, 0)));
        assert_eq!(parse_color("grey"), Ok(Rgba::rgb(128, 128, 128)));
        assert_eq!(parse_color("#1a2B3c"), Ok(Rgba::rgb(0x1a, 0x2b, 0x3c)));
        assert_eq!(
            parse_color("#01020380"),
            Ok(Rgba::with_alpha(1, 2, 3, 0x80))
        );
    }

    #[test]
    fn bad_colours_say_why() {
        let err = parse_color("mauve").unwrap_err();
        assert!(err.contains("'mauve' not recognized"), "{err}");
        assert!(err.contains("yellow"), "{err}");
        assert!(parse_color("#12345").unwrap_err().contains("#rrggbb"));
        assert!(parse_color("#12345g").is_err());
        // Multi-byte characters must not panic the hex slicing.
        assert!(parse_color("#ééé").is_err());
    }

    #[test]
    fn text_prefers_names() {
        assert_eq!(color_text(Rgba::rgb(0, 0, 255)), "blue");
        assert_eq!(color_text(Rgba::rgb(1, 2, 3)), "#010203");
        assert_eq!(color_text(Rgba::with_alpha(1, 2, 3, 4)), "#01020304");
    }

    proptest! {
        #[test]
        fn text_round_trips(r: u8, g: u8, b: u8, a: u8) {
            let c = Rgba::with_alpha(r, g, b, a);
            prop_assert_eq!(parse_color(&color_text(c)), Ok(c));
        }
    }
}
