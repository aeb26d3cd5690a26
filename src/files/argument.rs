//! The one reading rule for a pattern argument (a command-line argument, the window's pattern
//! field, the web app's input): the same in every command and front end.
//!
//! In this order, on the text with line breaks removed and surrounding spaces trimmed:
//! 1. `KEY=...` where `KEY` is a Juggling Lab settings key (`pattern`, `bps`, ...) is a
//!    **settings string**.
//! 2. Text ending in a pattern file extension (`.toml`, `.jml`, `.xml`, `.txt`, any case) is
//!    a **file path**.
//! 3. A **valid siteswap** is that siteswap, even when a file or directory of that name exists
//!    and even when a library pattern has that name (`531`, `3`, `(4,2x)*`, `5/5/5/1/4`). The
//!    library is not consulted at all.
//! 4. Other text holding a `/` is a **file path** (`./531`, `dir/mine`, `/tmp/x`); write `./`
//!    to read a file whose name is a valid siteswap.
//! 5. Other text holding `=` is a settings string (whose reader reports the unknown key).
//! 6. Text without two letters in a row (`532`, `5 3 [`) is a mistyped **siteswap**: its
//!    parser or validity check reports what is wrong and where.
//! 7. A **library name**: a pattern name or file stem of the library, compared
//!    case-insensitively with `-`, `_` and spaces alike (`Mills Mess`, `mills-mess`,
//!    `tricks3`). Only now is the library read (once per process).
//! 8. Text that looks like a name (a run of four or more letters, two words of two or more
//!    letters, an apostrophe between letters, or a non-ASCII letter: `cascade`, `Rubenstein's Revenge`) is an **unknown
//!    name**: `no pattern named "…"` with the library's close matches.
//! 9. Anything else is read as a siteswap, whose parser or validity check reports what is
//!    wrong and where (`bx`, `3bb`).
//!
//! [`read`] needs no file system (the web build uses it); [`load`] (native builds) also
//! reads the file a path names.
//!
//! **Choosing one pattern** (`--index N`, `--name NAME`, a [`Choice`]): [`load_one`] takes
//! the N-th pattern (1-based) of the file the argument names, in the order `juggler list`
//! numbers them (the patterns the file yields; a JML list's patterns that cannot be imported
//! are not counted), or the one whose name matches (compared like library names). A library
//! file's stem (`tricks3`) chooses among that library file's patterns. Only the chosen
//! pattern's siteswap must be valid. Without a choice a file gives its first pattern.

use std::fmt;

use super::library;
use crate::settings::{is_settings_key, SettingsError};
use crate::spec::PatternSpec;
use crate::text::{escape_control, truncate};

/// File extensions (lower case) that make an argument a file path.
pub const FILE_EXTENSIONS: [&str; 5] = ["toml", "jml", "xml", "jif", "txt"];

/// How many close matches an unknown name lists.
pub const CLOSE_MATCHES: usize = 5;

/// What the reading rule made of an argument.
#[derive(Clone, Debug, PartialEq)]
pub enum Argument {
    /// One pattern: a siteswap (not necessarily valid: building it reports where it is
    /// wrong), a settings string, or a library pattern.
    Pattern {
        spec: Box<PatternSpec>,
        source: Source,
    },
    /// The path of a pattern file (trimmed argument text).
    File(String),
}

/// Where a [`Argument::Pattern`] came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    Siteswap,
    Settings,
    Library,
}

/// Which pattern of a file to take: by 1-based index or by name (at most one of them; none =
/// the first).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Choice {
    pub index: Option<usize>,
    pub name: Option<String>,
}

impl Choice {
    /// Whether a pattern is chosen at all.
    pub fn is_some(&self) -> bool {
        self.index.is_some() || self.name.is_some()
    }

    /// How the user wrote it (`--index 3`, `--name "Mills Mess"`), for messages.
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))] // the page has no --index/--name
    fn shown(&self) -> String {
        match (&self.index, &self.name) {
            (Some(i), _) => format!("--index {i}"),
            (None, Some(n)) => format!("--name {}", crate::text::shell_quote(n)),
            (None, None) => String::new(),
        }
    }
}

/// Why an argument names no pattern.
#[derive(Debug)]
pub enum ArgumentError {
    /// A settings string with a bad value or key.
    Settings(SettingsError),
    /// A name that is not in the library, with up to [`CLOSE_MATCHES`] close ones.
    UnknownName { name: String, close: Vec<String> },
    /// The path names no file (and is no siteswap either).
    NoSuchFile { path: String },
    /// The path names a directory.
    Directory { path: String },
    /// The file could not be read or holds a bad pattern.
    File(super::FileError),
    /// Files cannot be read in this build (the web app).
    NoFileSystem { path: String },
    /// `--index`/`--name` with an argument that is one pattern, not a file.
    NotAFile {
        choice: String,
        arg: String,
        kind: &'static str,
    },
    /// `--index N` beyond the file's patterns (or 0).
    IndexOutOfRange {
        origin: String,
        index: usize,
        count: usize,
    },
    /// `--name` matching no pattern of the file, with up to [`CLOSE_MATCHES`] close ones.
    NoPatternNamed {
        origin: String,
        name: String,
        close: Vec<String>,
    },
    /// `--name` matching several patterns of the file: their 1-based indexes.
    AmbiguousName {
        origin: String,
        name: String,
        indexes: Vec<usize>,
    },
}

impl ArgumentError {
    /// Whether the error is about how the program was called or its environment (exit code 2)
    /// rather than about invalid input (exit code 1).
    pub fn is_usage(&self) -> bool {
        matches!(
            self,
            ArgumentError::Directory { .. }
                | ArgumentError::NoFileSystem { .. }
                | ArgumentError::NotAFile { .. }
                | ArgumentError::IndexOutOfRange { .. }
                | ArgumentError::AmbiguousName { .. }
        )
    }
}

impl fmt::Display for ArgumentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown = |s: &str| escape_control(&truncate(s, 200)).into_owned();
        match self {
            ArgumentError::Settings(e) => write!(f, "{}", escape_control(&e.to_string())),
            ArgumentError::UnknownName { name, close } => {
                write!(f, "no pattern named \"{}\"", shown(name))?;
                if !close.is_empty() {
                    let list: Vec<String> =
                        close.iter().map(|c| format!("\"{}\"", shown(c))).collect();
                    write!(f, "; close matches: {}", list.join(", "))?;
                }
                Ok(())
            }
            ArgumentError::NoSuchFile { path } => {
                write!(f, "{}: no such pattern file", shown(path))
            }
            ArgumentError::Directory { path } => {
                write!(f, "{} is a directory: give one pattern file", shown(path))
            }
            ArgumentError::File(e) => write!(f, "{}", escape_control(&e.to_string())),
            ArgumentError::NoFileSystem { path } => {
                write!(f, "{}: pattern files cannot be read here", shown(path))
            }
            ArgumentError::NotAFile { choice, arg, kind } => write!(
                f,
                "{} chooses a pattern of a file, but \"{}\" is {kind}",
                escape_control(choice),
                shown(arg)
            ),
            ArgumentError::IndexOutOfRange {
                origin,
                index,
                count,
            } => match count {
                1 => write!(
                    f,
                    "{} holds 1 pattern: --index {index} is out of range (use --index 1)",
                    shown(origin)
                ),
                _ => write!(
                    f,
                    "{} holds {count} patterns: --index {index} is out of range (1 to {count}; \
                     `juggler list` numbers them)",
                    shown(origin)
                ),
            },
            ArgumentError::NoPatternNamed {
                origin,
                name,
                close,
            } => {
                write!(
                    f,
                    "{} has no pattern named \"{}\"",
                    shown(origin),
                    shown(name)
                )?;
                if !close.is_empty() {
                    let list: Vec<String> =
                        close.iter().map(|c| format!("\"{}\"", shown(c))).collect();
                    write!(f, "; close matches: {}", list.join(", "))?;
                }
                Ok(())
            }
            ArgumentError::AmbiguousName {
                origin,
                name,
                indexes,
            } => {
                let list: Vec<String> = indexes.iter().map(usize::to_string).collect();
                write!(
                    f,
                    "{} has {} patterns named \"{}\" (numbers {}): choose one with --index",
                    shown(origin),
                    indexes.len(),
                    shown(name),
                    list.join(", ")
                )
            }
        }
    }
}

impl std::error::Error for ArgumentError {}

/// The argument's text as the rule reads it: line breaks removed, trimmed.
fn clean(arg: &str) -> String {
    arg.chars()
        .filter(|c| !matches!(c, '\r' | '\n'))
        .collect::<String>()
        .trim()
        .to_string()
}

/// Whether `text` ends in a pattern file extension.
pub fn has_file_extension(text: &str) -> bool {
    text.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty() && FILE_EXTENSIONS.contains(&ext.to_ascii_lowercase().as_str())
    })
}

/// Whether `text` starts with `KEY=` for a Juggling Lab settings key.
fn is_settings_string(text: &str) -> bool {
    text.split_once('=')
        .is_some_and(|(key, _)| is_settings_key(key))
}

/// Whether `text` is a valid siteswap (parses and passes the validity rules).
pub fn is_valid_siteswap(text: &str) -> bool {
    crate::schedule::from_notation(text).is_ok()
}

/// Whether `text` has two letters in a row (every library name and file stem has).
pub fn has_word(text: &str) -> bool {
    let mut previous = false;
    for c in text.chars() {
        let letter = c.is_alphabetic();
        if letter && previous {
            return true;
        }
        previous = letter;
    }
    false
}

/// Whether invalid, unknown text reads as a name someone meant rather than a mistyped
/// siteswap: a run of 4+ letters, two words of 2+ letters, an apostrophe between letters, or
/// a non-ASCII letter.
pub fn looks_like_name(text: &str) -> bool {
    let wordy = text
        .split_whitespace()
        .filter(|w| {
            w.as_bytes()
                .windows(2)
                .any(|p| p.iter().all(u8::is_ascii_alphabetic))
        })
        .count();
    if wordy >= 2 {
        return true;
    }
    let chars: Vec<char> = text.chars().collect();
    let mut run = 0;
    for (i, &c) in chars.iter().enumerate() {
        if c.is_alphabetic() && !c.is_ascii() {
            return true;
        }
        run = if c.is_ascii_alphabetic() { run + 1 } else { 0 };
        if run >= 4 {
            return true;
        }
        let letter = |j: Option<usize>| {
            j.and_then(|j| chars.get(j))
                .is_some_and(|c| c.is_alphabetic())
        };
        if matches!(c, '\'' | '’') && letter(i.checked_sub(1)) && letter(Some(i + 1)) {
            return true;
        }
    }
    false
}

fn siteswap(text: &str) -> Result<Argument, ArgumentError> {
    PatternSpec::parse(text)
        .map(|spec| Argument::Pattern {
            spec: Box::new(spec),
            source: Source::Siteswap,
        })
        .map_err(ArgumentError::Settings)
}

/// Reads a pattern argument by the rule of this module, without touching any file: a path is
/// returned as [`Argument::File`] for the caller to read.
pub fn read(arg: &str) -> Result<Argument, ArgumentError> {
    let text = clean(arg);
    if is_settings_string(&text) {
        return PatternSpec::parse(&text)
            .map(|spec| Argument::Pattern {
                spec: Box::new(spec),
                source: Source::Settings,
            })
            .map_err(ArgumentError::Settings);
    }
    if has_file_extension(&text) {
        return Ok(Argument::File(text));
    }
    if is_valid_siteswap(&text) {
        return siteswap(&text);
    }
    if text.contains('/') || text.contains(std::path::MAIN_SEPARATOR) {
        return Ok(Argument::File(text));
    }
    if text.contains('=') {
        return PatternSpec::parse(&text)
            .map(|spec| Argument::Pattern {
                spec: Box::new(spec),
                source: Source::Settings,
            })
            .map_err(ArgumentError::Settings);
    }
    if text.is_empty() {
        return siteswap(&text);
    }
    // The library is read only for text with a word in it: `532` or `5 3 [` are mistyped
    // siteswaps and go straight to the siteswap checker.
    if !has_word(&text) {
        return siteswap(&text);
    }
    if let Some(spec) = library::find(&text) {
        return Ok(Argument::Pattern {
            spec: Box::new(spec),
            source: Source::Library,
        });
    }
    if looks_like_name(&text) {
        return Err(ArgumentError::UnknownName {
            close: library::close_matches(&text, CLOSE_MATCHES),
            name: text,
        });
    }
    siteswap(&text)
}

/// Every pattern an argument names (a file may hold several; its siteswaps are checked):
/// [`read`], then the file of a path. A path naming nothing that parses as notation is read
/// as that (invalid) siteswap when it has no letters other than `x` and `p`, so `5/5/5/1/3`
/// reports its average rather than a missing file (while `dir/531` is a missing file).
#[cfg(not(target_arch = "wasm32"))]
pub fn load(arg: &str) -> Result<Vec<PatternSpec>, ArgumentError> {
    use std::path::Path;
    match read(arg)? {
        Argument::Pattern { spec, .. } => Ok(vec![*spec]),
        Argument::File(path) => {
            let p = Path::new(&path);
            if p.is_dir() {
                return Err(ArgumentError::Directory { path });
            }
            if !p.exists() {
                let notation_letters_only = !path
                    .chars()
                    .any(|c| c.is_ascii_lowercase() && !matches!(c, 'x' | 'p'));
                if !has_file_extension(&path)
                    && notation_letters_only
                    && crate::notation::parse(&path).is_ok()
                {
                    return Ok(vec![PatternSpec::from_notation(&path)]);
                }
                // A name of a user's library (`$JUGGLER_PATTERNS`) may hold a `/`.
                if has_word(&path) {
                    if let Some(spec) = library::find(&path) {
                        return Ok(vec![spec]);
                    }
                }
                return Err(ArgumentError::NoSuchFile { path });
            }
            super::load_path(p).map_err(ArgumentError::File)
        }
    }
}

/// The 0-based position of the pattern `choice` picks among `names` (a file's pattern names,
/// in order; `origin` names the file in errors). No choice picks the first.
pub fn choose(origin: &str, names: &[&str], choice: &Choice) -> Result<usize, ArgumentError> {
    if let Some(index) = choice.index {
        return if (1..=names.len()).contains(&index) {
            Ok(index - 1)
        } else {
            Err(ArgumentError::IndexOutOfRange {
                origin: origin.to_string(),
                index,
                count: names.len(),
            })
        };
    }
    let Some(name) = &choice.name else {
        return Ok(0);
    };
    let wanted = library::normalize(name);
    let found: Vec<usize> = names
        .iter()
        .enumerate()
        .filter(|(_, n)| !wanted.is_empty() && library::normalize(n) == wanted)
        .map(|(i, _)| i)
        .collect();
    match found.as_slice() {
        [only] => Ok(*only),
        [] => Err(ArgumentError::NoPatternNamed {
            origin: origin.to_string(),
            name: name.clone(),
            close: library::close_names(name, names.iter().copied(), CLOSE_MATCHES),
        }),
        several => Err(ArgumentError::AmbiguousName {
            origin: origin.to_string(),
            name: name.clone(),
            indexes: several.iter().map(|i| i + 1).collect(),
        }),
    }
}

/// The pattern `choice` picks among `patterns` (read from `origin`); its siteswap is checked.
#[cfg_attr(target_arch = "wasm32", allow(dead_code))] // the page has no --index/--name
fn pick(
    origin: &str,
    patterns: Vec<super::LoadedPattern>,
    choice: &Choice,
) -> Result<PatternSpec, ArgumentError> {
    let names: Vec<&str> = patterns.iter().map(|p| p.spec.name.as_str()).collect();
    let i = choose(origin, &names, choice)?;
    let chosen = patterns
        .into_iter()
        .nth(i)
        .expect("choose gives an index in range");
    super::check_siteswap(&chosen).map_err(ArgumentError::File)?;
    Ok(chosen.spec)
}

/// The one pattern an argument names: with a [`Choice`], the chosen pattern of the file (or
/// library file) it names; without one, the first pattern [`load`] gives.
#[cfg(not(target_arch = "wasm32"))]
pub fn load_one(arg: &str, choice: &Choice) -> Result<PatternSpec, ArgumentError> {
    use std::path::Path;
    if !choice.is_some() {
        return Ok(load(arg)?.swap_remove(0));
    }
    let not_a_file = |kind: &'static str| ArgumentError::NotAFile {
        choice: choice.shown(),
        arg: clean(arg),
        kind,
    };
    match read(arg)? {
        Argument::Pattern {
            source: Source::Library,
            ..
        } => {
            let wanted = library::normalize(&clean(arg));
            match library::files()
                .iter()
                .find(|f| library::normalize(f.stem()) == wanted)
            {
                Some(file) => pick(&file.origin, file.patterns.clone(), choice),
                None => Err(not_a_file("a pattern of the library, not a library file")),
            }
        }
        Argument::Pattern {
            source: Source::Siteswap,
            ..
        } => Err(not_a_file("a siteswap")),
        Argument::Pattern {
            source: Source::Settings,
            ..
        } => Err(not_a_file("a settings string")),
        Argument::File(path) => {
            let p = Path::new(&path);
            if p.is_dir() {
                return Err(ArgumentError::Directory { path });
            }
            if !p.exists() {
                return Err(ArgumentError::NoSuchFile { path });
            }
            let (patterns, problems) = super::read_path_lenient(p);
            if patterns.is_empty() {
                return Err(ArgumentError::File(problems.into_iter().next().unwrap_or(
                    super::FileError::Empty {
                        origin: p.display().to_string(),
                    },
                )));
            }
            pick(&p.display().to_string(), patterns, choice)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(arg: &str) -> String {
        match read(arg) {
            Ok(Argument::Pattern { spec, source }) => format!("{source:?} {}", spec.source.text()),
            Ok(Argument::File(p)) => format!("File {p}"),
            Err(e) => format!("Err {e}"),
        }
    }

    #[test]
    fn choose_by_index_and_name() {
        let names = ["3", "Mills Mess", "mills-mess variant", "Box", "box"];
        let by = |index: Option<usize>, name: Option<&str>| {
            choose(
                "f.txt",
                &names,
                &Choice {
                    index,
                    name: name.map(String::from),
                },
            )
            .map_err(|e| e.to_string())
        };
        assert_eq!(by(None, None), Ok(0));
        assert_eq!(by(Some(1), None), Ok(0));
        assert_eq!(by(Some(5), None), Ok(4));
        assert_eq!(
            by(Some(6), None),
            Err("f.txt holds 5 patterns: --index 6 is out of range (1 to 5; `juggler list` numbers them)".into())
        );
        assert!(by(Some(0), None).unwrap_err().contains("--index 0 is out"));
        assert_eq!(by(None, Some("MILLS_mess")), Ok(1));
        assert_eq!(
            by(None, Some("box")),
            Err(
                "f.txt has 2 patterns named \"box\" (numbers 4, 5): choose one with --index".into()
            )
        );
        assert_eq!(
            by(None, Some("Mils Mess")),
            Err("f.txt has no pattern named \"Mils Mess\"; close matches: \"Mills Mess\", \"mills-mess variant\"".into())
        );
        let one = choose(
            "o.toml",
            &["x"],
            &Choice {
                index: Some(2),
                name: None,
            },
        );
        assert_eq!(
            one.unwrap_err().to_string(),
            "o.toml holds 1 pattern: --index 2 is out of range (use --index 1)"
        );
    }

    #[test]
    fn load_one_chooses_within_files_and_library_files() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("two.txt");
        std::fs::write(&file, "3\n532\n441\n").unwrap();
        let f = file.to_str().unwrap();
        let pick = |index| {
            load_one(
                f,
                &Choice {
                    index: Some(index),
                    name: None,
                },
            )
        };
        assert_eq!(pick(3).unwrap().source.text(), "441");
        assert!(matches!(pick(2), Err(ArgumentError::File(_))));
        // Without a choice, the first pattern (every siteswap of the file checked).
        assert!(load_one(f, &Choice::default()).is_err());
        // A library file's stem chooses among that file's patterns.
        let file = &library::files()[0];
        let second = load_one(
            file.stem(),
            &Choice {
                index: Some(2),
                name: None,
            },
        )
        .unwrap();
        assert_eq!(second, file.patterns[1].spec);
        let err = load_one(
            "531",
            &Choice {
                index: Some(1),
                name: None,
            },
        )
        .unwrap_err();
        assert!(err.is_usage());
    }

    #[test]
    fn siteswaps_stay_siteswaps() {
        assert_eq!(kind("531"), "Siteswap 531");
        assert_eq!(kind(" (4,2x)* "), "Siteswap (4,2x)*");
        assert_eq!(kind("5/5/5/1/4"), "Siteswap 5/5/5/1/4");
        assert_eq!(kind("<3p|3p>"), "Siteswap <3p|3p>");
        // "abc" is a valid 11-ball siteswap, not a name.
        assert_eq!(kind("abc"), "Siteswap abc");
        // Invalid siteswaps that do not look like names reach the siteswap checker.
        assert_eq!(kind("532"), "Siteswap 532");
        assert_eq!(kind("(4,2x)"), "Siteswap (4,2x)");
        assert_eq!(kind("5 3 ["), "Siteswap 5 3 [");
    }

    #[test]
    fn paths_settings_and_names() {
        assert_eq!(kind("mine.TOML"), "File mine.TOML");
        assert_eq!(kind("list.txt"), "File list.txt");
        assert_eq!(kind("./531"), "File ./531");
        assert_eq!(kind("/tmp/x"), "File /tmp/x");
        assert_eq!(kind("pattern=531;title=a/b"), "Settings 531");
        assert_eq!(kind("BPS=3;pattern=3"), "Settings 3");
        assert!(kind("foo=3").starts_with("Err Unused input parameter"));
        assert_eq!(kind("Mills Mess"), "Library 3");
        assert_eq!(kind("mills_mess"), "Library 3");
        assert_eq!(kind("Rubenstein's Revenge"), kind("rubenstein's revenge"));
        assert!(kind("Rubenstein's Revenge").starts_with("Library "));
    }

    #[test]
    fn unknown_names_list_close_matches() {
        let err = read("cascade").unwrap_err();
        let ArgumentError::UnknownName { name, close } = &err else {
            panic!("{err:?}");
        };
        assert_eq!(name, "cascade");
        assert_eq!(close.len(), CLOSE_MATCHES);
        assert!(
            close.iter().all(|c| c.to_lowercase().contains("cascade")),
            "{close:?}"
        );
        assert!(err
            .to_string()
            .starts_with("no pattern named \"cascade\"; close matches: \""));
        let err = read("Rubinstein's Revenge").unwrap_err();
        assert!(
            err.to_string()
                .ends_with("close matches: \"Rubenstein's Revenge\""),
            "{err}"
        );
        let err = read("qqqqqq\u{1b}[2J").unwrap_err();
        assert_eq!(err.to_string(), "no pattern named \"qqqqqq\\e[2J\"");
    }

    #[test]
    fn what_looks_like_a_name() {
        for name in [
            "cascade",
            "Mills",
            "it's",
            "Kaskade-für",
            "box of 3",
            "shower",
            "my box",
        ] {
            assert!(looks_like_name(name), "{name}");
        }
        for siteswap in [
            "531", "db97531", "(4,2x)*", "[54]24", "abc", "7bx", "<3p|3p>", "xyz",
        ] {
            assert!(!looks_like_name(siteswap), "{siteswap}");
        }
    }

    #[test]
    fn load_reads_files_and_refuses_directories() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("two.txt");
        std::fs::write(&file, "3\n531 # comment\n").unwrap();
        let specs = load(file.to_str().unwrap()).unwrap();
        assert_eq!(specs.len(), 2);
        assert_eq!(specs[1].source.text(), "531");
        let err = load(dir.path().to_str().unwrap()).unwrap_err();
        assert!(err.is_usage());
        assert!(err
            .to_string()
            .ends_with("is a directory: give one pattern file"));
        let missing = dir.path().join("none.toml");
        let err = load(missing.to_str().unwrap()).unwrap_err();
        assert!(
            err.to_string().ends_with("none.toml: no such pattern file"),
            "{err}"
        );
        // A mistyped siteswap with the no-op `/` is read as that siteswap.
        assert_eq!(load("5/5/5/1/3").unwrap()[0].source.text(), "5/5/5/1/3");
        let err = load("nodir/531").unwrap_err();
        assert_eq!(err.to_string(), "nodir/531: no such pattern file");
    }
}
