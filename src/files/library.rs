//! The shipped pattern library: the `patterns/` directory of TOML files, one per family,
//! embedded in the binary at build time (so a moved binary and the web build, which has no
//! file system, both have it). On native builds `$JUGGLER_PATTERNS` names another directory
//! to use instead.
//!
//! The library is parsed lazily, once per process ([`library`]), and only consulted for
//! arguments that are neither siteswaps nor files (see [`super::argument`]).

use std::sync::OnceLock;

use super::{read_str, FileKind, LoadedPattern};
use crate::spec::PatternSpec;

/// Environment variable that overrides the library directory (native builds only).
pub const PATTERNS_ENV: &str = "JUGGLER_PATTERNS";

/// The shipped library files, `(file name, text)`, embedded at build time. A test checks that
/// this list is exactly the `.toml` files of `patterns/`.
pub const EMBEDDED: &[(&str, &str)] = &[
    (
        "cascades.toml",
        include_str!("../../patterns/cascades.toml"),
    ),
    ("clubs.toml", include_str!("../../patterns/clubs.toml")),
    ("mixed.toml", include_str!("../../patterns/mixed.toml")),
    (
        "multiplex.toml",
        include_str!("../../patterns/multiplex.toml"),
    ),
    ("passing.toml", include_str!("../../patterns/passing.toml")),
    ("rings.toml", include_str!("../../patterns/rings.toml")),
    ("sync.toml", include_str!("../../patterns/sync.toml")),
    ("tricks3.toml", include_str!("../../patterns/tricks3.toml")),
    ("tricks4.toml", include_str!("../../patterns/tricks4.toml")),
    ("tricks5.toml", include_str!("../../patterns/tricks5.toml")),
];

/// One file of the library and the patterns read from it (unchecked siteswaps).
#[derive(Clone, Debug)]
pub struct LibraryFile {
    /// The file name (`cascades.toml`).
    pub name: String,
    /// Where it was read from: the path of a `$JUGGLER_PATTERNS` file, or `patterns/NAME`
    /// for the embedded library.
    pub origin: String,
    pub patterns: Vec<LoadedPattern>,
}

impl LibraryFile {
    /// The file name without its extension (`cascades`).
    pub fn stem(&self) -> &str {
        self.name
            .rsplit_once('.')
            .map_or(self.name.as_str(), |(stem, _)| stem)
    }
}

/// The pattern library in use: its files in name order, and the problems met while reading
/// it (files of a `$JUGGLER_PATTERNS` directory that could not be read are skipped).
#[derive(Clone, Debug, Default)]
pub struct Library {
    pub files: Vec<LibraryFile>,
    pub problems: Vec<String>,
    /// The override directory, when `$JUGGLER_PATTERNS` was used.
    pub directory: Option<String>,
}

impl Library {
    /// The library of `(file name, text)` sources, read as their extension says; `origin_dir`
    /// prefixes the origins in messages.
    pub fn from_sources<'a>(
        sources: impl IntoIterator<Item = (&'a str, &'a str)>,
        origin_dir: &str,
    ) -> Library {
        let mut library = Library::default();
        for (name, text) in sources {
            let origin = format!("{origin_dir}/{name}");
            let Some(kind) = FileKind::of_path(std::path::Path::new(name)) else {
                continue;
            };
            match read_str(text, kind, &origin) {
                Ok(patterns) => library.files.push(LibraryFile {
                    name: name.to_string(),
                    origin,
                    patterns,
                }),
                Err(e) => library.problems.push(e.to_string()),
            }
        }
        library.files.sort_by(|a, b| a.name.cmp(&b.name));
        library
    }

    /// The embedded library (the shipped `patterns/`).
    pub fn embedded() -> Library {
        Library::from_sources(EMBEDDED.iter().copied(), "patterns")
    }

    /// The library of a directory's pattern files (`.toml`, `.jml`, `.xml`, `.txt`).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn from_dir(dir: &std::path::Path) -> Library {
        let mut library = Library {
            directory: Some(dir.display().to_string()),
            ..Library::default()
        };
        let paths = match native::library_files(dir) {
            Ok(paths) => paths,
            Err(e) => {
                library.problems.push(e.to_string());
                return library;
            }
        };
        for path in paths {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            match super::read_path(&path) {
                Ok(patterns) => library.files.push(LibraryFile {
                    name,
                    origin: path.display().to_string(),
                    patterns,
                }),
                Err(e) => library.problems.push(e.to_string()),
            }
        }
        library
    }

    /// Every pattern, file by file.
    pub fn patterns(&self) -> impl Iterator<Item = &LoadedPattern> {
        self.files.iter().flat_map(|f| f.patterns.iter())
    }

    /// The pattern named `name`: a file stem names the file's first pattern, else a pattern
    /// name; both compared case-insensitively with `-`, `_` and spaces alike. No prefix or
    /// fuzzy matching (see [`Library::close_matches`] for suggestions).
    pub fn find(&self, name: &str) -> Option<PatternSpec> {
        let wanted = normalize(name);
        if wanted.is_empty() {
            return None;
        }
        let by_stem = self
            .files
            .iter()
            .filter(|f| normalize(f.stem()) == wanted)
            .find_map(|f| f.patterns.first());
        by_stem
            .or_else(|| self.patterns().find(|p| normalize(&p.spec.name) == wanted))
            .map(|p| p.spec.clone())
    }

    /// Up to `n` library names (pattern names and file stems) close to `name`, best first:
    /// names holding it as whole words, and names or runs of their words within a small edit
    /// distance of it (about one typo per three characters).
    pub fn close_matches(&self, name: &str, n: usize) -> Vec<String> {
        let wanted = normalize(name);
        if wanted.is_empty() || n == 0 {
            return Vec::new();
        }
        let candidates = self
            .files
            .iter()
            .map(|f| f.stem().to_string())
            .chain(self.patterns().map(|p| p.spec.name.clone()));
        let mut scored: Vec<(usize, usize, String)> = Vec::new();
        for (order, candidate) in candidates.enumerate() {
            if scored.iter().any(|(_, _, c)| *c == candidate) {
                continue;
            }
            if let Some(score) = closeness(&wanted, &normalize(&candidate)) {
                scored.push((score, order, candidate));
            }
        }
        scored.sort_by_key(|(score, order, c)| (*score, c.chars().count(), *order));
        scored.into_iter().take(n).map(|(_, _, c)| c).collect()
    }
}

/// Up to `n` of `candidates` close to `name`, best first, by the same measure as
/// [`Library::close_matches`] (used for the pattern names of one file: `--name`).
pub fn close_names<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
    n: usize,
) -> Vec<String> {
    let wanted = normalize(name);
    if wanted.is_empty() || n == 0 {
        return Vec::new();
    }
    let mut scored: Vec<(usize, usize, &str)> = Vec::new();
    for (order, candidate) in candidates.into_iter().enumerate() {
        if scored.iter().any(|(_, _, c)| *c == candidate) {
            continue;
        }
        if let Some(score) = closeness(&wanted, &normalize(candidate)) {
            scored.push((score, order, candidate));
        }
    }
    scored.sort_by_key(|(score, order, c)| (*score, c.chars().count(), *order));
    scored
        .into_iter()
        .take(n)
        .map(|(_, _, c)| c.to_string())
        .collect()
}

static LIBRARY: OnceLock<Library> = OnceLock::new();

/// Whether the library has been read in this process (it is read on first use only).
pub fn is_loaded() -> bool {
    LIBRARY.get().is_some()
}

/// The library in use, read on first use and kept for the process: the `$JUGGLER_PATTERNS`
/// directory when that is set (native builds), else the embedded library.
pub fn library() -> &'static Library {
    LIBRARY.get_or_init(|| {
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(dir) = native::override_dir() {
            return Library::from_dir(&dir);
        }
        Library::embedded()
    })
}

/// Finds a library pattern by file stem or pattern name (see [`Library::find`]).
pub fn find(name: &str) -> Option<PatternSpec> {
    library().find(name)
}

/// Up to `n` library names close to `name` (see [`Library::close_matches`]).
pub fn close_matches(name: &str, n: usize) -> Vec<String> {
    library().close_matches(name, n)
}

/// The library's files with their patterns, for browsing.
pub fn files() -> &'static [LibraryFile] {
    &library().files
}

/// Finds a library pattern by file stem or pattern name (see [`Library::find`]).
pub fn find_in_library(name: &str) -> Option<PatternSpec> {
    find(name)
}

/// Case-folded, with `-` and `_` read as spaces and runs of spaces collapsed: "3-Ball  Cascade"
/// and "3 ball cascade" compare equal, while notation characters (`(`, `,`, `[`, ...) are kept
/// so that a siteswap never matches a differently written name.
pub fn normalize(name: &str) -> String {
    name.to_lowercase()
        .replace(['-', '_'], " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// How close a normalized candidate is to a normalized query (lower is closer), or `None`
/// when it is not close: the edit distance to the whole candidate or (plus one) to a run of
/// its words as long as the query, at most one edit per three characters of the query.
fn closeness(wanted: &str, candidate: &str) -> Option<usize> {
    // Long names are not worth comparing character by character (and the cost is quadratic).
    const MAX_CHARS: usize = 200;
    let w: Vec<char> = wanted.chars().collect();
    let c: Vec<char> = candidate.chars().collect();
    if w.len() > MAX_CHARS || c.len() > MAX_CHARS {
        return None;
    }
    let limit = (w.len() / 3).max(1);
    let mut best = edit_distance(&w, &c);
    let words: Vec<&str> = candidate.split(' ').collect();
    let query_words = wanted.split(' ').count();
    if words.len() > query_words {
        for run in words.windows(query_words) {
            let run: Vec<char> = run.join(" ").chars().collect();
            best = best.min(edit_distance(&w, &run) + 1);
        }
    }
    (best <= limit).then_some(best)
}

/// Optimal-string-alignment distance: insertions, deletions, substitutions and swaps of
/// neighbouring characters each cost 1.
fn edit_distance(a: &[char], b: &[char]) -> usize {
    // Row r of the table lives in rows[r % 3].
    let width = b.len() + 1;
    let mut rows = vec![vec![0usize; width]; 3];
    for (j, cell) in rows[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        let (cur, prev, prev2) = (i % 3, (i + 2) % 3, (i + 1) % 3);
        rows[cur][0] = i;
        for j in 1..width {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (rows[prev][j] + 1)
                .min(rows[cur][j - 1] + 1)
                .min(rows[prev][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(rows[prev2][j - 2] + 1);
            }
            rows[cur][j] = d;
        }
    }
    rows[a.len() % 3][b.len()]
}

#[cfg(not(target_arch = "wasm32"))]
pub use native::{find_in_dir, library_dir, library_files, override_dir};

/// The file-system side: `$JUGGLER_PATTERNS` and directories of pattern files.
#[cfg(not(target_arch = "wasm32"))]
mod native {
    use std::path::{Path, PathBuf};

    use super::super::{FileError, FileKind};
    use super::{Library, PATTERNS_ENV};
    use crate::spec::PatternSpec;

    /// `$JUGGLER_PATTERNS`, when it is set and not empty.
    pub fn override_dir() -> Option<PathBuf> {
        match std::env::var_os(PATTERNS_ENV) {
            Some(dir) if !dir.is_empty() => Some(PathBuf::from(dir)),
            _ => None,
        }
    }

    /// The library directory: `$JUGGLER_PATTERNS` if set (and not empty), else the `patterns/`
    /// directory of the source tree this binary was built from (which the embedded library
    /// was made of; a moved binary does not need it).
    pub fn library_dir() -> PathBuf {
        override_dir()
            .unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/patterns")))
    }

    /// The pattern files (`.toml`, `.jml`, `.xml`, `.txt`) directly inside `dir`, sorted by
    /// name.
    pub fn library_files(dir: &Path) -> Result<Vec<PathBuf>, FileError> {
        let io = |source| FileError::Io {
            path: dir.display().to_string(),
            source,
        };
        let mut files = Vec::new();
        for entry in std::fs::read_dir(dir).map_err(io)? {
            let path = entry.map_err(io)?.path();
            if path.is_file() && FileKind::of_path(&path).is_some() {
                files.push(path);
            }
        }
        files.sort();
        Ok(files)
    }

    /// Finds a pattern of the files of `dir` by file stem or pattern name (see
    /// [`Library::find`]); files that fail to load are skipped.
    pub fn find_in_dir(dir: &Path, name: &str) -> Option<PatternSpec> {
        Library::from_dir(dir).find(name)
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    fn write(dir: &Path, name: &str, text: &str) {
        std::fs::write(dir.join(name), text).unwrap();
    }

    #[test]
    fn finds_by_stem_and_by_name() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "solo.toml", "[[pattern]]\nname = \"Three-Ball Cascade\"\nsiteswap = \"3\"\n\n[[pattern]]\nname = \"Box\"\nsiteswap = \"(4,2x)*\"\n");
        write(dir.path(), "broken.toml", "siteswap = ");
        write(dir.path(), "notes.md", "not a pattern file");
        write(dir.path(), "more.txt", "531\n");
        let files = library_files(dir.path()).unwrap();
        let names: Vec<String> = files
            .iter()
            .map(|f| f.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["broken.toml", "more.txt", "solo.toml"]);
        let library = Library::from_dir(dir.path());
        assert_eq!(library.files.len(), 2);
        assert_eq!(library.problems.len(), 1, "{:?}", library.problems);
        assert!(library.problems[0].contains("broken.toml"));

        assert_eq!(find_in_dir(dir.path(), "SOLO").unwrap().source.text(), "3");
        assert_eq!(
            find_in_dir(dir.path(), "box").unwrap().source.text(),
            "(4,2x)*"
        );
        assert_eq!(
            find_in_dir(dir.path(), "three ball cascade")
                .unwrap()
                .source
                .text(),
            "3"
        );
        assert_eq!(find_in_dir(dir.path(), "531").unwrap().source.text(), "531");
        assert!(find_in_dir(dir.path(), "mills mess").is_none());
        // No prefix matching, and notation punctuation is significant.
        assert!(find_in_dir(dir.path(), "three").is_none());
        write(
            dir.path(),
            "more.toml",
            "[[pattern]]\nname = \"531\"\nsiteswap = \"531\"\n",
        );
        assert!(find_in_dir(dir.path(), "[53]1").is_none());
        assert_eq!(
            find_in_dir(dir.path(), " 531 ").unwrap().source.text(),
            "531"
        );
        assert!(find_in_dir(dir.path(), "- _").is_none());
        assert!(find_in_dir(&dir.path().join("missing"), "box").is_none());
    }

    #[test]
    fn missing_directory_is_an_io_error() {
        let err = library_files(Path::new("/nonexistent/juggler/patterns")).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("/nonexistent/juggler/patterns: cannot read"),
            "{err}"
        );
    }

    #[test]
    fn embedded_library_is_exactly_the_patterns_directory() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("patterns");
        let on_disk: Vec<(String, String)> = library_files(&dir)
            .unwrap()
            .into_iter()
            .map(|p| {
                let name = p.file_name().unwrap().to_string_lossy().into_owned();
                (name, std::fs::read_to_string(&p).unwrap())
            })
            .collect();
        let embedded: Vec<(String, String)> = EMBEDDED
            .iter()
            .map(|(n, t)| (n.to_string(), t.to_string()))
            .collect();
        let names = |v: &[(String, String)]| v.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
        assert_eq!(
            names(&embedded),
            names(&on_disk),
            "add new patterns/ files to library::EMBEDDED"
        );
        assert_eq!(embedded, on_disk);
        let library = Library::embedded();
        assert!(library.problems.is_empty(), "{:?}", library.problems);
        assert_eq!(library.files.len(), EMBEDDED.len());
        assert!(library.patterns().count() >= 100);
        assert_eq!(library.files[0].origin, "patterns/cascades.toml");
        // The reading rule only looks names up when they have a word in them.
        for file in &library.files {
            assert!(
                super::super::argument::has_word(file.stem()),
                "{}",
                file.name
            );
            for p in &file.patterns {
                // Nothing the reading rule takes for a path or settings string.
                let name = &p.spec.name;
                assert!(
                    !name.contains(['/', '=']) && !super::super::argument::has_file_extension(name),
                    "library name {name:?} reads as a path or settings string"
                );
                assert!(
                    super::super::argument::has_word(&p.spec.name)
                        || super::super::argument::is_valid_siteswap(&p.spec.name),
                    "library name {:?} can never be looked up",
                    p.spec.name
                );
            }
        }
    }

    #[test]
    fn embedded_lookup_by_name_stem_and_close_matches() {
        let library = Library::embedded();
        let mills = library.find("mills-mess").unwrap();
        assert_eq!(
            (mills.name.as_str(), mills.source.text()),
            ("Mills Mess", "3")
        );
        assert_eq!(
            library.find("rubenstein's revenge").unwrap().name,
            "Rubenstein's Revenge"
        );
        assert_eq!(library.find("3_ball_CASCADE").unwrap().source.text(), "3");
        // A file stem names the file's first pattern.
        assert_eq!(
            library.find("cascades").unwrap().name,
            library.files[0].patterns[0].spec.name
        );
        assert!(library.find("cascade").is_none());
        let close = library.close_matches("cascade", 4);
        assert_eq!(close.len(), 4, "{close:?}");
        for name in &close {
            assert!(normalize(name).contains("cascade"), "{close:?}");
        }
        // One typo (a swap) in a two-word name.
        assert_eq!(library.close_matches("mils mess", 1), ["Mills Mess"]);
        assert_eq!(library.close_matches("Mlils Mess", 1), ["Mills Mess"]);
        assert!(library.close_matches("zzzzzzzzzz", 5).is_empty());
        assert!(library.close_matches("", 5).is_empty());
    }

    #[test]
    fn edit_distance_counts_swaps_as_one() {
        let d = |a: &str, b: &str| {
            edit_distance(
                &a.chars().collect::<Vec<_>>(),
                &b.chars().collect::<Vec<_>>(),
            )
        };
        assert_eq!(d("", ""), 0);
        assert_eq!(d("abc", ""), 3);
        assert_eq!(d("", "ab"), 2);
        assert_eq!(d("kitten", "sitting"), 3);
        assert_eq!(d("cascade", "casacde"), 1);
        assert_eq!(d("mills", "mils"), 1);
        assert_eq!(d("ab", "ba"), 1);
    }
}
