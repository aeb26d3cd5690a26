//! The shipped pattern library: the `patterns/` directory of TOML files, one per family.

use std::path::{Path, PathBuf};

use super::{read_path, FileError, FileKind};
use crate::spec::PatternSpec;

/// Environment variable that overrides the library directory.
pub const PATTERNS_ENV: &str = "JUGGLER_PATTERNS";

/// The library directory: `$JUGGLER_PATTERNS` if set (and not empty), else the `patterns/`
/// directory of the source tree this binary was built from.
pub fn library_dir() -> PathBuf {
    match std::env::var_os(PATTERNS_ENV) {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/patterns")),
    }
}

/// The pattern files (`.toml`, `.jml`, `.xml`, `.txt`) directly inside `dir`, sorted by name.
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

/// Case-folded, with `-` and `_` read as spaces and runs of spaces collapsed: "3-Ball  Cascade"
/// and "3 ball cascade" compare equal, while notation characters (`(`, `,`, `[`, ...) are kept
/// so that a siteswap never matches a differently written name.
fn normalize(name: &str) -> String {
    name.to_lowercase()
        .replace(['-', '_'], " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Finds a pattern of `dir` by file stem (the file's first pattern) or by pattern name, both
/// compared case-insensitively with `-`, `_` and spaces alike. Files that fail to load are
/// skipped. No prefix or fuzzy matching: the CLI tries library names before reading an
/// argument as a siteswap, so a near match must never shadow a siteswap.
pub fn find_in_dir(dir: &Path, name: &str) -> Option<PatternSpec> {
    let wanted = normalize(name);
    if wanted.is_empty() {
        return None;
    }
    let files = library_files(dir).ok()?;
    let stem_match = files.iter().find(|f| {
        f.file_stem()
            .is_some_and(|s| normalize(&s.to_string_lossy()) == wanted)
    });
    if let Some(file) = stem_match {
        if let Some(first) = read_path(file).ok().and_then(|p| p.into_iter().next()) {
            return Some(first.spec);
        }
    }
    files
        .iter()
        .filter_map(|f| read_path(f).ok())
        .flatten()
        .map(|p| p.spec)
        .find(|spec| normalize(&spec.name) == wanted)
}

/// Finds a library pattern by file stem or pattern name (see [`find_in_dir`]).
pub fn find_in_library(name: &str) -> Option<PatternSpec> {
    find_in_dir(&library_dir(), name)
}

#[cfg(test)]
mod tests {
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

        assert_eq!(find_in_dir(dir.path(), "SOLO").unwrap().notation, "3");
        assert_eq!(find_in_dir(dir.path(), "box").unwrap().notation, "(4,2x)*");
        assert_eq!(
            find_in_dir(dir.path(), "three ball cascade")
                .unwrap()
                .notation,
            "3"
        );
        assert_eq!(find_in_dir(dir.path(), "531").unwrap().notation, "531");
        assert!(find_in_dir(dir.path(), "mills mess").is_none());
        // No prefix matching, and notation punctuation is significant.
        assert!(find_in_dir(dir.path(), "three").is_none());
        write(
            dir.path(),
            "more.toml",
            "[[pattern]]\nname = \"531\"\nsiteswap = \"531\"\n",
        );
        assert!(find_in_dir(dir.path(), "[53]1").is_none());
        assert_eq!(find_in_dir(dir.path(), " 531 ").unwrap().notation, "531");
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
}
