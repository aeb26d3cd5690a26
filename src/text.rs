//! Text shown to people: user input echoed in messages and tables has its control characters
//! escaped (a pattern file cannot move the terminal's cursor or change its colours), and
//! command hints quote their arguments the way a POSIX shell reads them back.

use std::borrow::Cow;

/// `text` with every control character (C0, DEL, C1, and the Unicode line and paragraph
/// separators and bidirectional overrides) written as a visible escape: `\t`, `\n`, `\r`,
/// `\e` for ESC, else `\u{XX}`. Text without such characters is returned as is.
pub fn escape_control(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if needs_escape(c) {
            match c {
                '\t' => out.push_str("\\t"),
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\u{1b}' => out.push_str("\\e"),
                c => out.push_str(&format!("\\u{{{:X}}}", u32::from(c))),
            }
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// [`escape_control`] line by line: the `\n` line breaks of `text` are kept, every other
/// control character is escaped.
pub fn escape_control_lines(text: &str) -> Cow<'_, str> {
    if !text.chars().any(|c| c != '\n' && needs_escape(c)) {
        return Cow::Borrowed(text);
    }
    let lines: Vec<Cow<str>> = text.split('\n').map(escape_control).collect();
    Cow::Owned(lines.join("\n"))
}

/// Whether `c` is written escaped: C0, DEL, C1, line and paragraph separators, bidi controls.
pub fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{2028}' | '\u{2029}'            // line / paragraph separator
            | '\u{202A}'..='\u{202E}'          // bidi embeddings and overrides
            | '\u{2066}'..='\u{2069}'          // bidi isolates
        )
}

/// `value` as JSON (compact, or indented with `pretty`) whose strings carry no control
/// character raw: serde_json escapes C0, and this also writes DEL, C1 (`\u009b` is a
/// terminal's CSI), the line and paragraph separators and the bidirectional controls as
/// `\uXXXX`, so JSON shown in a terminal cannot drive it. Every JSON the commands print or
/// write goes through here.
pub fn json<T: serde::Serialize + ?Sized>(value: &T, pretty: bool) -> String {
    struct Escaping<F>(F);
    impl<F: serde_json::ser::Formatter> serde_json::ser::Formatter for Escaping<F> {
        fn write_string_fragment<W: ?Sized + std::io::Write>(
            &mut self,
            writer: &mut W,
            fragment: &str,
        ) -> std::io::Result<()> {
            let mut start = 0;
            for (i, c) in fragment.char_indices() {
                if needs_escape(c) {
                    writer.write_all(&fragment.as_bytes()[start..i])?;
                    write!(writer, "\\u{:04x}", u32::from(c))?;
                    start = i + c.len_utf8();
                }
            }
            writer.write_all(&fragment.as_bytes()[start..])
        }
        fn begin_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
            self.0.begin_array(w)
        }
        fn end_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
            self.0.end_array(w)
        }
        fn begin_array_value<W: ?Sized + std::io::Write>(
            &mut self,
            w: &mut W,
            first: bool,
        ) -> std::io::Result<()> {
            self.0.begin_array_value(w, first)
        }
        fn end_array_value<W: ?Sized + std::io::Write>(
            &mut self,
            w: &mut W,
        ) -> std::io::Result<()> {
            self.0.end_array_value(w)
        }
        fn begin_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
            self.0.begin_object(w)
        }
        fn end_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
            self.0.end_object(w)
        }
        fn begin_object_key<W: ?Sized + std::io::Write>(
            &mut self,
            w: &mut W,
            first: bool,
        ) -> std::io::Result<()> {
            self.0.begin_object_key(w, first)
        }
        fn begin_object_value<W: ?Sized + std::io::Write>(
            &mut self,
            w: &mut W,
        ) -> std::io::Result<()> {
            self.0.begin_object_value(w)
        }
        fn end_object_value<W: ?Sized + std::io::Write>(
            &mut self,
            w: &mut W,
        ) -> std::io::Result<()> {
            self.0.end_object_value(w)
        }
    }
    let mut out = Vec::new();
    let written = if pretty {
        let formatter = Escaping(serde_json::ser::PrettyFormatter::new());
        value.serialize(&mut serde_json::Serializer::with_formatter(
            &mut out, formatter,
        ))
    } else {
        let formatter = Escaping(serde_json::ser::CompactFormatter);
        value.serialize(&mut serde_json::Serializer::with_formatter(
            &mut out, formatter,
        ))
    };
    match written {
        // Only ASCII escapes are added to serde_json's UTF-8.
        Ok(()) => String::from_utf8(out).unwrap_or_default(),
        Err(_) => String::new(),
    }
}

/// `text` for XML and SVG character data and attribute values: `&<>"'` as entities, C0
/// controls but tab and line feed (which XML 1.0 cannot hold), DEL and C1 left out, line
/// separators and bidi controls as character references; never a control character raw.
pub fn escape_xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' | '\t' => out.push(c),
            c if c.is_control() => {}
            c if needs_escape(c) => out.push_str(&format!("&#x{:X};", u32::from(c))),
            c => out.push(c),
        }
    }
    out
}

/// `arg` as one word for a POSIX shell: unchanged when it holds only characters no shell
/// treats specially (letters, digits, `-_.,/:=+@%`), else in single quotes with each `'`
/// written `'\''`. Control characters are escaped too (see [`escape_control`]), so a hint
/// never writes them raw to the terminal.
pub fn shell_quote(arg: &str) -> Cow<'_, str> {
    let plain = !arg.is_empty()
        && arg
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.,/:=+@%".contains(c))
        && !arg.starts_with('-')
        && !arg.starts_with('=');
    if plain {
        return Cow::Borrowed(arg);
    }
    let quoted = format!("'{}'", arg.replace('\'', "'\\''"));
    match escape_control(&quoted) {
        Cow::Borrowed(_) => Cow::Owned(quoted),
        Cow::Owned(escaped) => Cow::Owned(escaped),
    }
}

/// A pattern as typed, for the front of a message: blank input written `""`, so the message
/// does not begin with a bare colon (`"": invalid`, not `: invalid`).
pub fn input_name(text: &str) -> Cow<'_, str> {
    if text.trim().is_empty() {
        Cow::Owned(format!("\"{text}\""))
    } else {
        Cow::Borrowed(text)
    }
}

/// `text` cut to at most `max` characters, ending in `…` when cut (for echoing long input
/// in a one-line message).
pub fn truncate(text: &str, max: usize) -> Cow<'_, str> {
    match text.char_indices().nth(max) {
        None => Cow::Borrowed(text),
        Some(_) => {
            let keep: String = text.chars().take(max.saturating_sub(1)).collect();
            Cow::Owned(keep + "…")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_input_is_named_in_quotes() {
        assert_eq!(input_name(""), "\"\"");
        assert_eq!(input_name("  "), "\"  \"");
        assert_eq!(input_name("531"), "531");
    }

    #[test]
    fn xml_escape_leaves_no_control_character_raw() {
        assert_eq!(
            escape_xml("a\u{1b}[31m\u{7}\u{9b}\u{7f}\u{202e}<&>\"'\tb\n"),
            "a[31m&#x202E;&lt;&amp;&gt;&quot;&apos;\tb\n"
        );
    }

    #[test]
    fn json_escapes_every_control_character_not_only_c0() {
        let value = serde_json::json!({"name": "a\u{9b}\u{7f}\u{202e}b\n\u{1b}\"", "n": [1, 2]});
        assert_eq!(
            json(&value, false),
            r#"{"n":[1,2],"name":"a\u009b\u007f\u202eb\n\u001b\""}"#
        );
        assert_eq!(
            json(&value, true),
            "{\n  \"n\": [\n    1,\n    2\n  ],\n  \"name\": \"a\\u009b\\u007f\\u202eb\\n\\u001b\\\"\"\n}"
        );
        let back: serde_json::Value = serde_json::from_str(&json(&value, false)).unwrap();
        assert_eq!(back, value);
    }

    #[test]
    fn control_characters_are_escaped() {
        assert!(matches!(escape_control("531 (4,2x)*"), Cow::Borrowed(_)));
        assert_eq!(escape_control("a\u{1b}[31mred"), "a\\e[31mred");
        assert_eq!(escape_control("x\ty\r\nz"), "x\\ty\\r\\nz");
        assert_eq!(escape_control("\u{7}\u{7f}\u{9b}"), "\\u{7}\\u{7F}\\u{9B}");
        assert_eq!(escape_control("ab\u{202E}cd"), "ab\\u{202E}cd");
        // Printable non-ASCII text stays as written.
        assert_eq!(escape_control("Kaskade für 3 Bälle"), "Kaskade für 3 Bälle");
    }

    #[test]
    fn line_breaks_survive_line_by_line_escaping() {
        assert_eq!(escape_control_lines("a\n\u{1b}b\n"), "a\n\\eb\n");
        assert!(matches!(escape_control_lines("a\nb"), Cow::Borrowed(_)));
    }

    #[test]
    fn shell_quoting() {
        assert_eq!(shell_quote("531"), "531");
        assert_eq!(shell_quote("out/anim.gif"), "out/anim.gif");
        assert_eq!(shell_quote("pattern=531;bps=4"), "'pattern=531;bps=4'");
        assert_eq!(shell_quote("(4,2x)*"), "'(4,2x)*'");
        assert_eq!(shell_quote("<3p|3p>"), "'<3p|3p>'");
        assert_eq!(
            shell_quote("Rubenstein's Revenge"),
            "'Rubenstein'\\''s Revenge'"
        );
        assert_eq!(shell_quote(""), "''");
        assert_eq!(shell_quote("-3"), "'-3'");
        assert_eq!(shell_quote("$(rm -rf ~)"), "'$(rm -rf ~)'");
        assert_eq!(shell_quote("a\nb"), "'a\\nb'");
    }

    #[test]
    fn truncation_counts_characters() {
        assert_eq!(truncate("531", 3), "531");
        assert_eq!(truncate("5311", 3), "53…");
        assert_eq!(truncate("ääää", 3), "ää…");
    }
}
