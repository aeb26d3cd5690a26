//! Pattern files: juggler's own TOML format, Juggling Lab JML pattern lists, plain-text
//! siteswap lists, and the shipped pattern library (`patterns/`).
//!
//! Every reader turns text into `spec::PatternSpec`s and reports problems as a [`FileError`]
//! naming the file, line, column and problem. Only [`load_path`], [`read_path`] and the
//! library functions touch the file system.

use std::path::Path;

pub mod argument;
pub mod color;
pub mod error;
pub mod jif;
pub mod jml;
pub mod jml_events;
pub mod library;
pub mod text_list;
pub mod toml_format;
mod xml;

pub use error::{FileError, Location};
pub use library::find_in_library;
#[cfg(not(target_arch = "wasm32"))]
pub use library::{library_dir, library_files};
pub use toml_format::from_toml_str;

use crate::spec::{PatternSource, PatternSpec};

/// A bare siteswap or a Juggling Lab settings string (`pattern=531;bps=4`), as read by
/// `settings::read`; the error is its message.
fn settings_spec(text: &str) -> Result<PatternSpec, String> {
    PatternSpec::parse(text).map_err(|e| e.to_string())
}

/// A pattern read from a file, with where its notation is written.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadedPattern {
    pub spec: PatternSpec,
    /// The location of the pattern's siteswap in the file.
    pub at: Location,
}

/// The pattern file formats juggler reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// juggler's TOML format (`.toml`).
    Toml,
    /// Juggling Lab JML (`.jml`, `.xml`).
    Jml,
    /// One siteswap or JL settings string per line (`.txt`).
    Text,
    /// The Juggling Interchange Format (`.jif`, passist's JSON).
    Jif,
}

impl FileKind {
    /// The kind of a path, from its extension (case-insensitive).
    pub fn of_path(path: &Path) -> Option<FileKind> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "toml" => Some(FileKind::Toml),
            "jml" | "xml" => Some(FileKind::Jml),
            "txt" => Some(FileKind::Text),
            "jif" => Some(FileKind::Jif),
            _ => None,
        }
    }
}

/// Reads patterns from text of the given kind without checking their siteswaps.
pub fn read_str(text: &str, kind: FileKind, origin: &str) -> Result<Vec<LoadedPattern>, FileError> {
    match kind {
        FileKind::Toml => toml_format::read_toml_str(text, origin),
        FileKind::Jml => jml::read_str(text, origin),
        FileKind::Text => text_list::read_text_list(text, origin),
        FileKind::Jif => jif::read_str(text, origin),
    }
}

/// Reads a pattern file (kind from its extension) without checking the siteswaps.
pub fn read_path(path: &Path) -> Result<Vec<LoadedPattern>, FileError> {
    let origin = path.display().to_string();
    let kind = FileKind::of_path(path).ok_or_else(|| FileError::UnknownFileType {
        path: origin.clone(),
    })?;
    let text = read_text_file(path)?;
    read_str(&text, kind, &origin)
}

/// Everything a file yields, leniently: its patterns in file order (siteswaps not checked)
/// and the errors met. A JML list keeps the patterns it can import and reports the others;
/// other kinds yield all their patterns or one error. `juggler list` numbers these patterns
/// 1, 2, ... and `--index N` chooses among them in the same order.
pub fn read_path_lenient(path: &Path) -> (Vec<LoadedPattern>, Vec<FileError>) {
    if FileKind::of_path(path) == Some(FileKind::Jml) {
        let origin = path.display().to_string();
        return match read_text_file(path) {
            Err(e) => (Vec::new(), vec![e]),
            Ok(text) => match jml::import_lenient(&text, &origin) {
                Ok(import) => (import.patterns, import.problems),
                Err(e) => (Vec::new(), vec![e]),
            },
        };
    }
    match read_path(path) {
        Ok(patterns) => (patterns, Vec::new()),
        Err(e) => (Vec::new(), vec![e]),
    }
}

/// The largest pattern file read (64 MiB: about 1.4 million TOML patterns).
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// Opens a file for reading only if it is a regular file: a named pipe, device (`/dev/zero`),
/// socket or directory is refused before a byte is read (a pipe or device could be endless or
/// block forever). Every reader of a user's file opens it here: pattern files, `check --file`,
/// `list`, the window's loader, `convert`/`tojml` and the JIF, JML and TOML loaders.
pub fn open_regular(path: &Path) -> Result<std::fs::File, FileError> {
    let origin = path.display().to_string();
    let io = |source| FileError::Io {
        path: origin.clone(),
        source,
    };
    // Opened without blocking: opening a named pipe for reading waits for a writer (`pose
    // fifo.toml` hung); the file is then refused unless it is a regular one (O_NONBLOCK
    // changes nothing for reading a regular file).
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(io)?;
    if !file.metadata().map_err(io)?.is_file() {
        return Err(FileError::NotRegular { path: origin });
    }
    Ok(file)
}

/// The text of a pattern file: a regular file (never a device or pipe, which could be
/// endless: [`open_regular`]) of at most [`MAX_FILE_BYTES`], in UTF-8.
pub fn read_text_file(path: &Path) -> Result<String, FileError> {
    use std::io::Read;
    let origin = path.display().to_string();
    let io = |source| FileError::Io {
        path: origin.clone(),
        source,
    };
    let file = open_regular(path)?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(FileError::TooLarge {
            path: origin,
            limit: MAX_FILE_BYTES,
        });
    }
    String::from_utf8(bytes).map_err(|_| {
        io(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "stream did not contain valid UTF-8",
        ))
    })
}

/// Checks a pattern's siteswap with `schedule::from_notation_shared` (its `jugglers=N`) and its animated cycle against
/// the budget; an invalid one is an error at the pattern's location.
pub fn check_siteswap(pattern: &LoadedPattern) -> Result<(), FileError> {
    let notation = match &pattern.spec.source {
        PatternSource::Siteswap(notation) => notation,
        // Checked when read (`jml::import_events`).
        PatternSource::Events(_) => return Ok(()),
    };
    let error = |message: String| FileError::Siteswap {
        at: pattern.at.clone(),
        notation: notation.clone(),
        message,
    };
    let schedule = crate::schedule::from_notation_shared(notation, pattern.spec.settings.shared_by)
        .map_err(|e| error(e.to_string()))?;
    // Valid only when it animates within the budget with its `hands` and `body` cycles.
    pattern
        .spec
        .settings
        .check_cycle(&schedule)
        .map_err(|e| error(e.to_string()))
}

/// The specs of patterns whose siteswaps are all valid; else the first invalid one's error.
fn checked(patterns: Vec<LoadedPattern>) -> Result<Vec<PatternSpec>, FileError> {
    patterns.iter().try_for_each(check_siteswap)?;
    Ok(patterns.into_iter().map(|p| p.spec).collect())
}

/// Loads every pattern of a file's text (`origin` names it in messages), as [`load_path`]
/// does: the web page's way to open a user's file.
pub fn load_str(text: &str, kind: FileKind, origin: &str) -> Result<Vec<PatternSpec>, FileError> {
    let loaded = read_str(text, kind, origin)?;
    if loaded.is_empty() {
        return Err(FileError::Empty {
            origin: origin.to_string(),
        });
    }
    checked(loaded)
}

/// Loads every pattern of a file: `.toml`, `.jml`/`.xml` or `.txt`. A file without patterns,
/// or with an invalid siteswap, is an error.
pub fn load_path(path: &Path) -> Result<Vec<PatternSpec>, FileError> {
    let loaded = read_path(path)?;
    if loaded.is_empty() {
        return Err(FileError::Empty {
            origin: path.display().to_string(),
        });
    }
    checked(loaded)
}
