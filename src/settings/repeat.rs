//! Juggling Lab's repeats in settings values (`hands`, `body`, `colors`): `(X)^N` is X
//! written N times (spaces allowed around `^`; repeats nest). They are read once into
//! [`Piece`]s of parsed items, sized with saturating arithmetic, checked against the budget
//! and only then expanded, item by item: the text is never rewritten, and a repeated part is
//! never read again per copy.
//!
//! A `(` starts a repeat when its matching `)` is followed by `^` and digits; any other `(`
//! belongs to an item (a coordinate). A repeat holds whole items.

use super::error::SettingsError;
use crate::budget::{self, Limit};

/// Deepest nesting of repeats.
pub(crate) const MAX_NESTING: usize = 64;

/// A settings value as read: items and repeats of items.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Piece<T> {
    Item(T),
    Repeat {
        body: Vec<Piece<T>>,
        times: u64,
        /// Items one copy of `body` expands to (saturated).
        items: u128,
    },
}

/// What an item reader makes of the text at its start: an item (or nothing, for characters
/// that are skipped) and the bytes it took (at least one).
pub(crate) type Read<T> = (Option<T>, usize);

/// Reads `text` into pieces: repeats where a `(` starts one, else items by `item`, which
/// gets the rest of the text (up to the end of the enclosing repeat) and returns an error
/// message for `key`'s value.
pub(crate) fn read<T>(
    text: &str,
    key: &'static str,
    item: &mut dyn FnMut(&str) -> Result<Read<T>, SettingsError>,
) -> Result<Vec<Piece<T>>, SettingsError> {
    let close = matching_parens(text);
    let mut reader = Reader {
        text,
        close,
        key,
        item,
    };
    reader.sequence(0, text.len(), 0)
}

/// For each byte that is a `(`, the byte offset of its matching `)` (else `usize::MAX`):
/// one pass with a stack.
fn matching_parens(text: &str) -> Vec<usize> {
    let bytes = text.as_bytes();
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
    close
}

struct Reader<'a, 'f, T> {
    text: &'a str,
    close: Vec<usize>,
    key: &'static str,
    item: &'f mut dyn FnMut(&str) -> Result<Read<T>, SettingsError>,
}

impl<T> Reader<'_, '_, T> {
    /// The pieces of `text[start..end]`.
    fn sequence(
        &mut self,
        start: usize,
        end: usize,
        depth: usize,
    ) -> Result<Vec<Piece<T>>, SettingsError> {
        let mut pieces = Vec::new();
        let mut pos = start;
        while pos < end {
            if let Some((close, times, after)) = self.repeat_at(pos, end) {
                if depth >= MAX_NESTING {
                    return Err(SettingsError::form(self.key, "repeats nested too deep"));
                }
                let body = self.sequence(pos + 1, close, depth + 1)?;
                let items = count(&body, &|_| 1);
                pieces.push(Piece::Repeat { body, times, items });
                pos = after;
                continue;
            }
            let (item, took) = (self.item)(&self.text[pos..end])?;
            pieces.extend(item.map(Piece::Item));
            pos += took.max(1);
            // Stay on a character boundary (item readers take whole characters).
            while !self.text.is_char_boundary(pos) {
                pos += 1;
            }
        }
        Ok(pieces)
    }

    /// When a repeat starts at `pos` (inside `..end`): its `)`, its count (saturated) and
    /// where the text after it starts.
    fn repeat_at(&self, pos: usize, end: usize) -> Option<(usize, u64, usize)> {
        let bytes = self.text.as_bytes();
        if bytes[pos] != b'(' {
            return None;
        }
        let close = self.close[pos];
        if close >= end {
            return None;
        }
        let mut at = close + 1;
        while at < end && bytes[at] == b' ' {
            at += 1;
        }
        if at >= end || bytes[at] != b'^' {
            return None;
        }
        at += 1;
        while at < end && bytes[at] == b' ' {
            at += 1;
        }
        let digits = bytes[at..end]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        if digits == 0 {
            return None;
        }
        let times = self.text[at..at + digits].parse().unwrap_or(u64::MAX);
        Some((close, times, at + digits))
    }
}

/// How many items `pieces` expand to, counting each item as `weight` says (saturating).
pub(crate) fn count<T>(pieces: &[Piece<T>], weight: &dyn Fn(&T) -> u128) -> u128 {
    pieces.iter().fold(0u128, |total, piece| {
        let n = match piece {
            Piece::Item(t) => weight(t),
            Piece::Repeat { body, times, .. } => {
                u128::from(*times).saturating_mul(count(body, weight))
            }
        };
        total.saturating_add(n)
    })
}

/// Checks that `pieces` expand to at most `limit` items counted by `weight`.
pub(crate) fn check<T>(
    pieces: &[Piece<T>],
    key: &'static str,
    limit: Limit,
    weight: &dyn Fn(&T) -> u128,
) -> Result<(), SettingsError> {
    budget::check(limit, count(pieces, weight))
        .map_err(|error| SettingsError::Budget { key, error })
}

/// Calls `f` with every item of the expansion, in order. Check the size first ([`check`]
/// with [`budget::SETTING_ITEMS`]): repeats of nothing are skipped, so the work is the number
/// of items.
pub(crate) fn for_each<T, E>(
    pieces: &[Piece<T>],
    f: &mut dyn FnMut(&T) -> Result<(), E>,
) -> Result<(), E> {
    for piece in pieces {
        match piece {
            Piece::Item(t) => f(t)?,
            Piece::Repeat { body, times, items } => {
                if *items == 0 {
                    continue;
                }
                for _ in 0..*times {
                    for_each(body, f)?;
                }
            }
        }
    }
    Ok(())
}

/// Reads a value and checks that it expands to at most [`budget::SETTING_ITEMS`] items.
pub(crate) fn read_checked<T>(
    text: &str,
    key: &'static str,
    item: &mut dyn FnMut(&str) -> Result<Read<T>, SettingsError>,
) -> Result<Vec<Piece<T>>, SettingsError> {
    let pieces = read(text, key, item)?;
    check(&pieces, key, budget::SETTING_ITEMS, &|_| 1)?;
    Ok(pieces)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Characters as items, expanded back to text (for tests of the repeat rules only).
    fn expand(text: &str) -> Result<String, SettingsError> {
        let pieces = read_checked(text, "hands", &mut |rest| {
            let c = rest.chars().next().expect("not empty");
            Ok((Some(c), c.len_utf8()))
        })?;
        let mut out = String::new();
        for_each(&pieces, &mut |c: &char| -> Result<(), ()> {
            out.push(*c);
            Ok(())
        })
        .expect("no error");
        Ok(out)
    }

    #[test]
    fn repeats_expand_like_juggling_lab() {
        let e = |s| expand(s).unwrap();
        assert_eq!(e("he(l)^2o"), "hello");
        assert_eq!(e("((ab )^2c)^2"), "ab ab cab ab c");
        assert_eq!(e("(ab) ^ 3x"), "abababx");
        assert_eq!(e("(x)^0y"), "y");
        assert_eq!(e("é(ü)^2"), "éüü");
        // Not repeats: no `^`, or no number after it; an unclosed `(`.
        assert_eq!(e("(10)(20)."), "(10)(20).");
        assert_eq!(e("(a)^b"), "(a)^b");
        assert_eq!(e("((a)^2"), "(aa");
        let deep = format!("{}x{}", "(".repeat(100), ")^1".repeat(100));
        assert_eq!(
            expand(&deep).unwrap_err().to_string(),
            "Error in 'hands' setting: repeats nested too deep"
        );
    }

    #[test]
    fn settings_expansion_checked_before_allocating() {
        // Sizes multiply through nesting and saturate; nothing is expanded before the check.
        let err = expand("(((x)^4294967295)^4294967295)^4294967295").unwrap_err();
        assert!(
            err.to_string()
                .contains("items in one settings value after expanding its repeats"),
            "{err}"
        );
        let err = expand(&format!("(x)^{}", "9".repeat(40))).unwrap_err();
        assert!(
            err.to_string().contains("more than the limit of 1000000"),
            "{err}"
        );
        // Repeats of nothing cost nothing however large their count.
        assert_eq!(expand("(()^99999999999)^99999999999y").unwrap(), "y");
        assert_eq!(expand("((x)^0)^99999999999").unwrap(), "");
    }
}
