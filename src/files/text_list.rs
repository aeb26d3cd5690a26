//! Plain-text pattern lists: one siteswap or Juggling Lab settings string per line; blank
//! lines and `#` comments (whole lines or line ends) are skipped.
//!
//! The one `.txt` reader of every command ([`TextEntries`]): it streams (memory bounded by
//! the longest line, whatever the number of lines), caps line length at [`MAX_LINE_BYTES`],
//! skips a UTF-8 byte order mark, and ends lines at `\n`, `\r\n` or a lone `\r`.

use std::io::BufRead;

use super::error::{FileError, Location};
use super::settings_spec;
use super::LoadedPattern;

/// The longest line a text list may have, in bytes (without its line ending).
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// One non-blank entry of a text list: its text (comment removed, trimmed) and where it
/// starts (1-based line, 1-based column in characters).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextEntry {
    pub line: usize,
    pub column: usize,
    pub text: String,
}

/// Why a line could not be read.
#[derive(Debug)]
pub enum LineError {
    /// Longer than [`MAX_LINE_BYTES`]: reading stops here.
    TooLong { line: usize },
    /// Not UTF-8 text: the line is skipped.
    NotUtf8 { line: usize },
    /// The reader failed: reading stops here.
    Io(std::io::Error),
}

impl LineError {
    /// The error as a [`FileError`] of `origin`.
    pub fn into_file_error(self, origin: &str) -> FileError {
        let at = |line| Location {
            origin: origin.to_string(),
            line,
            column: 1,
        };
        match self {
            LineError::TooLong { line } => FileError::BadSetting {
                at: at(line),
                message: format!("line longer than {MAX_LINE_BYTES} bytes"),
            },
            LineError::NotUtf8 { line } => FileError::BadSetting {
                at: at(line),
                message: "line is not UTF-8 text".into(),
            },
            LineError::Io(source) => FileError::Io {
                path: origin.to_string(),
                source,
            },
        }
    }

    /// Whether reading cannot go on after this error.
    pub fn is_fatal(&self) -> bool {
        !matches!(self, LineError::NotUtf8 { .. })
    }
}

/// The entries of a text list read from `reader`, one at a time.
pub struct TextEntries<R> {
    reader: R,
    /// The number of the line being read (1-based).
    line: usize,
    /// The previous line ended in `\r`: a `\n` right after it belongs to that ending.
    after_cr: bool,
    buf: Vec<u8>,
    done: bool,
}

impl<R: BufRead> TextEntries<R> {
    pub fn new(reader: R) -> Self {
        TextEntries {
            reader,
            line: 0,
            after_cr: false,
            buf: Vec::new(),
            done: false,
        }
    }

    /// The next raw line into `self.buf`: `Ok(false)` at the end of the input.
    fn next_line(&mut self) -> Result<bool, LineError> {
        self.buf.clear();
        let mut any = false;
        loop {
            let chunk = match self.reader.fill_buf() {
                Ok(chunk) => chunk,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(LineError::Io(e)),
            };
            if chunk.is_empty() {
                if any {
                    self.line += 1;
                }
                return Ok(any);
            }
            if std::mem::take(&mut self.after_cr) && chunk[0] == b'\n' {
                self.reader.consume(1);
                continue;
            }
            any = true;
            let end = chunk.iter().position(|&b| b == b'\n' || b == b'\r');
            let take = end.unwrap_or(chunk.len());
            if self.buf.len() + take > MAX_LINE_BYTES {
                self.line += 1;
                return Err(LineError::TooLong { line: self.line });
            }
            self.buf.extend_from_slice(&chunk[..take]);
            match end {
                Some(i) => {
                    self.after_cr = chunk[i] == b'\r';
                    self.reader.consume(i + 1);
                    self.line += 1;
                    return Ok(true);
                }
                None => self.reader.consume(take),
            }
        }
    }
}

impl<R: BufRead> Iterator for TextEntries<R> {
    type Item = Result<TextEntry, LineError>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.done {
            match self.next_line() {
                Ok(false) => self.done = true,
                Err(e) => {
                    self.done = e.is_fatal();
                    return Some(Err(e));
                }
                Ok(true) => {
                    let line = self.line;
                    let Ok(mut text) = std::str::from_utf8(&self.buf) else {
                        return Some(Err(LineError::NotUtf8 { line }));
                    };
                    if line == 1 {
                        text = text.strip_prefix('\u{feff}').unwrap_or(text);
                    }
                    if let Some(entry) = entry(line, text) {
                        return Some(Ok(entry));
                    }
                }
            }
        }
        None
    }
}

/// The entry of one line: `None` when it is blank or only a comment.
fn entry(line: usize, text: &str) -> Option<TextEntry> {
    let content = text.split('#').next().unwrap_or("");
    let trimmed = content.trim();
    if trimmed.is_empty() {
        return None;
    }
    let indent = content.len() - content.trim_start().len();
    Some(TextEntry {
        line,
        column: content[..indent].chars().count() + 1,
        text: trimmed.to_string(),
    })
}

/// Reads a text list; `origin` names it in errors.
pub fn read_text_list(text: &str, origin: &str) -> Result<Vec<LoadedPattern>, FileError> {
    let mut patterns = Vec::new();
    for entry in TextEntries::new(text.as_bytes()) {
        let entry = entry.map_err(|e| e.into_file_error(origin))?;
        let at = Location {
            origin: origin.to_string(),
            line: entry.line,
            column: entry.column,
        };
        let spec = settings_spec(&entry.text).map_err(|message| FileError::BadSetting {
            at: at.clone(),
            message,
        })?;
        patterns.push(LoadedPattern { spec, at });
    }
    Ok(patterns)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(bytes: &[u8]) -> Vec<String> {
        TextEntries::new(bytes)
            .map(|e| match e {
                Ok(e) => format!("{}:{} {}", e.line, e.column, e.text),
                Err(LineError::TooLong { line }) => format!("{line}: too long"),
                Err(LineError::NotUtf8 { line }) => format!("{line}: not utf-8"),
                Err(LineError::Io(e)) => format!("io {e}"),
            })
            .collect()
    }

    #[test]
    fn lines_comments_and_settings() {
        let text = "# my list\n3\n\n  531   # the classic\npattern=(4,4);bps=3;title=Sync\n";
        let got = read_text_list(text, "l.txt").unwrap();
        let names: Vec<&str> = got.iter().map(|p| p.spec.name.as_str()).collect();
        assert_eq!(names, ["3", "531", "Sync"]);
        assert_eq!(got[1].spec.source.text(), "531");
        assert_eq!((got[1].at.line, got[1].at.column), (4, 3));
        assert_eq!(got[2].spec.settings.bps, Some(3.0));
    }

    #[test]
    fn bad_settings_line_is_located() {
        let err = read_text_list("3\npattern=3;dwell=7\n", "l.txt").unwrap_err();
        assert_eq!(
            err.to_string(),
            "l.txt:2:1: dwell must be between 0 (excluded) and 2 (excluded) beats, not 7"
        );
    }

    #[test]
    fn every_line_ending_and_a_byte_order_mark() {
        assert_eq!(
            entries(b"\xef\xbb\xbf531\r\n3\r441\n\r\n 51 # c\r"),
            ["1:1 531", "2:1 3", "3:1 441", "5:2 51"]
        );
        // A lone CR ends a line: `531\r3\r` is two patterns.
        assert_eq!(entries(b"531\r3\r"), ["1:1 531", "2:1 3"]);
        // A CRLF split across reads is still one line ending.
        let reader = std::io::BufReader::with_capacity(4, &b"531\r\n3\n"[..]);
        let got: Vec<String> = TextEntries::new(reader).map(|e| e.unwrap().text).collect();
        assert_eq!(got, ["531", "3"]);
        // The mark only counts at the very start.
        assert_eq!(entries(b"3\n\xef\xbb\xbf4\n"), ["1:1 3", "2:1 \u{feff}4"]);
        assert!(entries(b"").is_empty());
        assert_eq!(
            entries(b"no newline at the end"),
            ["1:1 no newline at the end"]
        );
    }

    #[test]
    fn long_lines_stop_and_bad_utf8_skips() {
        let mut long = b"3\n".to_vec();
        long.extend(std::iter::repeat_n(b'5', MAX_LINE_BYTES + 1));
        long.extend(b"\n441\n");
        assert_eq!(entries(&long), ["1:1 3", "2: too long"]);
        let mut exact = vec![b'3'; MAX_LINE_BYTES];
        exact.push(b'\n');
        assert_eq!(entries(&exact).len(), 1);
        assert_eq!(
            entries(b"3\n\xff\xfe\n441"),
            ["1:1 3", "2: not utf-8", "3:1 441"]
        );
        let err = read_text_list(&"5".repeat(MAX_LINE_BYTES + 1), "l.txt").unwrap_err();
        assert_eq!(err.to_string(), "l.txt:1:1: line longer than 65536 bytes");
    }
}
