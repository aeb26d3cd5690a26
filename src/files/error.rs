//! Errors of the file stage: every message names the file (or other origin), the 1-based line
//! and column where that is known, and the problem.

use std::fmt;

use thiserror::Error;

/// Where in a file something was found: origin name (usually the path), 1-based line and column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    pub origin: String,
    pub line: usize,
    pub column: usize,
}

impl Location {
    /// The location of byte offset `offset` of `text` (clamped to the text's length).
    pub fn of_offset(origin: &str, text: &str, offset: usize) -> Location {
        let (line, column) = line_column(text, offset);
        Location {
            origin: origin.to_string(),
            line,
            column,
        }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.origin, self.line, self.column)
    }
}

/// Locates many offsets of one text in linear total time (a file's patterns, in file order):
/// line starts are indexed once, and columns are counted on from the previous offset when it
/// is earlier on the same line (so even a one-line file of many patterns stays linear).
pub struct Locator<'a> {
    origin: &'a str,
    text: &'a str,
    line_starts: Vec<usize>,
    /// The last offset located and its 0-based column in characters.
    cursor: std::cell::Cell<(usize, usize)>,
}

impl<'a> Locator<'a> {
    pub fn new(origin: &'a str, text: &'a str) -> Self {
        // A byte-order mark is no column: the first line starts after it.
        let first = text.len() - text.strip_prefix('\u{feff}').unwrap_or(text).len();
        let line_starts = std::iter::once(first)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Locator {
            origin,
            text,
            line_starts,
            cursor: std::cell::Cell::new((first, 0)),
        }
    }

    /// The location of byte offset `offset` (clamped to the text), as [`Location::of_offset`].
    pub fn at(&self, offset: usize) -> Location {
        let mut offset = offset.min(self.text.len()).max(self.line_starts[0]);
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.line_starts.partition_point(|&s| s <= offset) - 1;
        let start = self.line_starts[line];
        let (last, last_column) = self.cursor.get();
        let column = if last >= start && last <= offset {
            last_column + self.text[last..offset].chars().count()
        } else {
            self.text[start..offset].chars().count()
        };
        self.cursor.set((offset, column));
        Location {
            origin: self.origin.to_string(),
            line: line + 1,
            column: column + 1,
        }
    }
}

/// 1-based line and column (in characters) of byte offset `offset` of `text`.
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let in_line = &before[line_start..];
    // A byte-order mark is no column.
    let in_line = in_line.strip_prefix('\u{feff}').unwrap_or(in_line);
    let column = in_line.chars().count() + 1;
    (line, column)
}

/// Everything that can go wrong while reading pattern files.
#[derive(Debug, Error)]
pub enum FileError {
    /// The file could not be read.
    #[error("{path}: cannot read: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    /// Not valid TOML, a value of the wrong type, an unknown or missing key, or a value out of range.
    #[error("{at}: {message}")]
    Toml { at: Location, message: String },
    /// Not well-formed XML, or XML that is not JML.
    #[error("{at}: {message}")]
    Xml { at: Location, message: String },
    /// A JML pattern that juggler cannot import (e.g. one defined only by explicit events).
    #[error("{at}: unsupported JML: {what}")]
    UnsupportedJml { at: Location, what: String },
    /// A JML pattern of events that cannot be animated: the element at fault and why.
    #[error("{at}: pattern '{pattern}': {source}")]
    Events {
        at: Location,
        pattern: String,
        #[source]
        source: Box<super::jml_events::error::EventError>,
    },
    /// A JIF file that cannot be read or animated: the JSON path at fault and why.
    #[error("{origin}: {source}")]
    Jif {
        origin: String,
        #[source]
        source: Box<super::jif::JifError>,
    },
    /// A bad value in a Juggling Lab settings string or a plain-text pattern list.
    #[error("{at}: {message}")]
    BadSetting { at: Location, message: String },
    /// A pattern whose siteswap is not valid.
    #[error("{at}: invalid siteswap '{notation}': {message}")]
    Siteswap {
        at: Location,
        notation: String,
        message: String,
    },
    /// A path that is a directory, device or pipe rather than a regular file.
    #[error("{path}: not a regular file")]
    NotRegular { path: String },
    /// A file larger than `files::MAX_FILE_BYTES`.
    #[error("{path}: larger than {limit} bytes; not read")]
    TooLarge { path: String, limit: u64 },
    /// A path whose extension names no known pattern file type.
    #[error("{path}: unknown pattern file type (expected .toml, .jml, .xml, .jif or .txt)")]
    UnknownFileType { path: String },
    /// A file that holds no pattern at all.
    #[error("{origin}: no patterns in this file")]
    Empty { origin: String },
}

impl FileError {
    /// The location the error points at, when it has one.
    pub fn location(&self) -> Option<&Location> {
        match self {
            FileError::Toml { at, .. }
            | FileError::Xml { at, .. }
            | FileError::UnsupportedJml { at, .. }
            | FileError::BadSetting { at, .. }
            | FileError::Events { at, .. }
            | FileError::Siteswap { at, .. } => Some(at),
            FileError::Io { .. }
            | FileError::Jif { .. }
            | FileError::NotRegular { .. }
            | FileError::TooLarge { .. }
            | FileError::UnknownFileType { .. }
            | FileError::Empty { .. } => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locator_agrees_with_line_column_in_any_order() {
        let text = "ab\nçd\n\nxyz é\n";
        let locator = Locator::new("f", text);
        let offsets: Vec<usize> = (0..=text.len() + 2).chain((0..text.len()).rev()).collect();
        for offset in offsets {
            let (line, column) = line_column(text, offset);
            let at = locator.at(offset);
            assert_eq!((at.line, at.column), (line, column), "offset {offset}");
        }
    }

    #[test]
    fn line_column_counts_from_one() {
        let text = "ab\ncd\n\u{e9}x";
        assert_eq!(line_column(text, 0), (1, 1));
        assert_eq!(line_column(text, 1), (1, 2));
        assert_eq!(line_column(text, 3), (2, 1));
        assert_eq!(line_column(text, 4), (2, 2));
        // 'é' is two bytes but one column: 'x' is column 2 of line 3.
        assert_eq!(line_column(text, 8), (3, 2));
        // Offsets past the end clamp; offsets inside a character move back to its start.
        assert_eq!(line_column(text, 100), (3, 3));
        assert_eq!(line_column(text, 7), (3, 1));
    }

    #[test]
    fn display_names_origin_line_and_column() {
        let err = FileError::Toml {
            at: Location::of_offset("p.toml", "a = 1\nb = ", 10),
            message: "missing value".into(),
        };
        assert_eq!(err.to_string(), "p.toml:2:5: missing value");
        assert_eq!(err.location().map(|l| l.line), Some(2));
    }
}
