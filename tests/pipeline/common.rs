//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

/// One row of the shared siteswap vectors.
pub struct Vector {
    pub pattern: String,
    pub valid: bool,
    pub props: Option<usize>,
}

/// The shared vectors (`../shared/vectors/siteswaps.tsv` beside the repository), or the copy in
/// `tests/data/` on a checkout without `shared/`.
pub fn vectors() -> Vec<Vector> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let shared = root.join("../shared/vectors/siteswaps.tsv");
    let path = if shared.is_file() {
        shared
    } else {
        root.join("tests/data/siteswaps.tsv")
    };
    let text = std::fs::read_to_string(&path).expect("siteswap vectors readable");
    text.lines()
        .skip(1)
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let cols: Vec<&str> = line.split('\t').collect();
            Vector {
                pattern: cols[0].to_string(),
                valid: cols.get(1) == Some(&"true"),
                props: cols.get(2).and_then(|p| p.parse().ok()),
            }
        })
        .collect()
}

/// The four-handed siteswaps passers know by name (`tests/data/four_handed.txt`: the named
/// patterns of passist's list), comments and blank lines left out.
pub fn four_handed() -> Vec<&'static str> {
    include_str!("../data/four_handed.txt")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

/// The patterns of the valid vectors.
pub fn valid_vectors() -> Vec<String> {
    vectors()
        .into_iter()
        .filter(|v| v.valid)
        .map(|v| v.pattern)
        .collect()
}

/// Every valid vector and every pattern of the shipped library's TOML files, in a fixed order.
pub fn vector_and_library_specs() -> Vec<juggler::spec::PatternSpec> {
    let mut specs: Vec<juggler::spec::PatternSpec> = valid_vectors()
        .iter()
        .map(|p| juggler::spec::PatternSpec::from_notation(p))
        .collect();
    let mut files: Vec<_> = std::fs::read_dir(juggler::files::library_dir())
        .expect("patterns/ readable")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    for file in files {
        specs.extend(juggler::files::load_path(&file).unwrap_or_else(|e| panic!("{e}")));
    }
    specs
}
