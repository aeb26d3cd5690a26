//! The shipped pattern library: every file loads, every pattern round-trips through TOML.

use std::collections::HashSet;
use std::path::Path;

use juggler::convert::toml::to_toml;
use juggler::files::{self, from_toml_str, library_dir, library_files};

fn library() -> Vec<(String, Vec<files::LoadedPattern>)> {
    let dir = library_dir();
    let paths = library_files(&dir).expect("library directory is readable");
    paths
        .iter()
        .map(|p| {
            let loaded = files::read_path(p).unwrap_or_else(|e| panic!("{e}"));
            (p.display().to_string(), loaded)
        })
        .collect()
}

#[test]
fn library_has_at_least_100_patterns_in_several_families() {
    let lib = library();
    let total: usize = lib.iter().map(|(_, p)| p.len()).sum();
    assert!(total >= 100, "only {total} patterns");
    let stems: HashSet<String> = lib
        .iter()
        .map(|(path, _)| {
            Path::new(path)
                .file_stem()
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    for family in [
        "cascades",
        "tricks3",
        "tricks4",
        "multiplex",
        "sync",
        "passing",
        "clubs",
        "rings",
    ] {
        assert!(stems.contains(family), "missing family file {family}.toml");
    }
}

#[test]
fn every_library_pattern_has_a_unique_name_and_a_description() {
    let mut seen = HashSet::new();
    for (path, patterns) in library() {
        assert!(!patterns.is_empty(), "{path} has no patterns");
        for p in patterns {
            let key: String = p
                .spec
                .name
                .to_lowercase()
                .chars()
                .filter(|c| c.is_alphanumeric())
                .collect();
            assert!(
                seen.insert(key),
                "{}: duplicate name '{}'",
                p.at,
                p.spec.name
            );
            assert!(
                !p.spec.description.is_empty(),
                "{}: '{}' has no description",
                p.at,
                p.spec.name
            );
        }
    }
}

#[test]
fn every_library_pattern_round_trips_through_toml() {
    for (path, patterns) in library() {
        let specs: Vec<_> = patterns.into_iter().map(|p| p.spec).collect();
        let text = to_toml(&specs).unwrap();
        let back =
            from_toml_str(&text, "round-trip").unwrap_or_else(|e| panic!("{path}: {e}\n{text}"));
        assert_eq!(back, specs, "{path}");
        // And each pattern alone (written as top-level keys).
        for spec in &specs {
            let one = to_toml(std::slice::from_ref(spec)).unwrap();
            assert_eq!(
                from_toml_str(&one, "one").unwrap(),
                vec![spec.clone()],
                "{one}"
            );
        }
    }
}

#[test]
fn find_in_library_by_name_and_by_stem() {
    let cascade = files::find_in_library("3-Ball Cascade").expect("3-ball cascade in the library");
    assert_eq!(cascade.source.text(), "3");
    let why_not = files::find_in_library("why not").expect("Why Not in the library");
    assert_eq!(why_not.source.text(), "<3p 4 1 3p 3|4p 3 4p 4 1>");
    let first_of_rings = files::find_in_library("RINGS").expect("rings.toml");
    assert_eq!(first_of_rings.settings.prop, juggler::types::PropKind::Ring);
    assert_eq!(
        files::find_in_library("mills mess").unwrap().name,
        "Mills Mess"
    );
    assert_eq!(
        files::find_in_library("3_ball_cascade")
            .unwrap()
            .source
            .text(),
        "3"
    );
    // Library names never shadow a siteswap written differently.
    for siteswap in ["97", "8844", "[53]1", "(4,4)(1)", "5", "mills"] {
        assert!(files::find_in_library(siteswap).is_none(), "{siteswap}");
    }
    assert!(files::find_in_library("no such pattern anywhere").is_none());
}
