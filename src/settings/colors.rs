//! Juggling Lab's `colors=` value: prop colours, used cyclically.

use super::error::SettingsError;
use super::repeat::{self, Read};
use crate::budget;
use crate::types::Rgba;

const KEY: &str = "colors";

/// Juggling Lab's `mixed` colours, in order.
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

/// Juggling Lab's `colors=` value: `mixed` (ten named colours), `orbits` (the mixed colours,
/// one per orbit: the `bool` is true), or `{...}` blocks each holding a colour name
/// (case-insensitive) or `r,g,b` (0-255), with `(...)^N` repeats of whole blocks; used
/// cyclically. Text between blocks is read as a block of its own.
pub(crate) fn parse_colors(v: &str) -> Result<(Vec<Rgba>, bool), SettingsError> {
    let mixed = || MIXED.iter().filter_map(|n| named_color(n)).collect();
    let trimmed = v.trim();
    if trimmed == "mixed" {
        return Ok((mixed(), false));
    }
    if trimmed == "orbits" {
        return Ok((mixed(), true));
    }
    let pieces = repeat::read_checked(trimmed, KEY, &mut block)?;
    repeat::check(&pieces, KEY, budget::COLORS, &|_| 1)?;
    let mut out = Vec::new();
    repeat::for_each(&pieces, &mut |c: &Rgba| -> Result<(), SettingsError> {
        out.push(*c);
        Ok(())
    })?;
    if out.is_empty() {
        return Err(SettingsError::ColorFormat);
    }
    Ok((out, false))
}

/// One colour block at the start of `rest`: `{...}`, or text up to the next brace or
/// parenthesis; blanks are skipped.
fn block(rest: &str) -> Result<Read<Rgba>, SettingsError> {
    let c = rest.chars().next().unwrap_or(' ');
    if c.is_whitespace() || c == '}' {
        return Ok((None, c.len_utf8()));
    }
    let (inner, took) = if c == '{' {
        match rest.find('}') {
            Some(end) => (&rest[1..end], end + 1),
            None => (&rest[1..], rest.len()),
        }
    } else {
        // After the first character, which may be more than one byte (`Ǎ` panicked).
        let first = c.len_utf8();
        let end = rest[first..]
            .find(['{', '}', '('])
            .map_or(rest.len(), |e| e + first);
        (&rest[..end], end)
    };
    let inner = inner.trim();
    if inner.is_empty() {
        return Ok((None, took));
    }
    let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
    let color = match parts.as_slice() {
        [name] => {
            let name = name.to_ascii_lowercase();
            named_color(&name).ok_or_else(|| {
                SettingsError::Color(crate::text::escape_control(&name).into_owned())
            })?
        }
        [r, g, b] => {
            let c = |s: &str| s.parse::<u8>().map_err(|_| SettingsError::ColorFormat);
            Rgba::rgb(c(r)?, c(g)?, c(b)?)
        }
        _ => return Err(SettingsError::ColorFormat),
    };
    Ok((Some(color), took))
}
