//! `juggler pose --json` stays byte-identical across refactors: every library pattern and
//! shared vector (as balls, clubs and rings) and every Juggling Lab event file of
//! `tests/data/jml_events/` at 8 times each, against the digests in
//! `tests/data/pose_golden.tsv`. A change of behaviour that is meant (new motion, say)
//! rewrites the file with `JUGGLER_BLESS=1 cargo test --test pipeline pose_golden` and the
//! commit says why.

use std::fmt::Write as _;
use std::path::PathBuf;

use juggler::convert::pose::pose_json;
use juggler::scene::Scene;
use juggler::spec::PatternSpec;
use juggler::types::PropKind;

use crate::common;

const TIMES: [f64; 8] = [0.0, 0.137, 0.5, 1.0, 2.345, 4.9, 11.1, 97.3];

/// FNV-1a, 64 bits: a stable digest of a JSON line.
fn digest(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Every case: a label and its spec.
fn cases() -> Vec<(String, PatternSpec)> {
    let mut cases = Vec::new();
    for spec in common::vector_and_library_specs() {
        for prop in [PropKind::Ball, PropKind::Club, PropKind::Ring] {
            let mut spec = spec.clone();
            let label = format!("{} [{}] {}", spec.name, spec.source.text(), prop.name());
            spec.settings.prop = prop;
            cases.push((label, spec));
        }
    }
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/jml_events");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/data/jml_events")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    for file in files {
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        for (k, spec) in juggler::files::load_path(&file)
            .unwrap_or_else(|e| panic!("{e}"))
            .into_iter()
            .enumerate()
        {
            cases.push((format!("{name}#{k} {}", spec.name), spec));
        }
    }
    cases
}

fn table() -> String {
    let mut out = String::new();
    for (label, spec) in cases() {
        let label = label.replace(['\t', '\n'], " ");
        let scene = Scene::new(&spec).unwrap_or_else(|e| panic!("{label}: {e}"));
        for t in TIMES {
            let json = pose_json(&scene, &scene.pose_at(t));
            let _ = writeln!(out, "{label}\t{t}\t{:016x}", digest(&json));
        }
    }
    out
}

#[test]
fn pose_json_matches_the_golden_digests() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/pose_golden.tsv");
    let got = table();
    if std::env::var_os("JUGGLER_BLESS").is_some() {
        std::fs::write(&path, &got).expect("write the golden file");
        return;
    }
    let want = std::fs::read_to_string(&path).expect("tests/data/pose_golden.tsv");
    let (got, want): (Vec<&str>, Vec<&str>) = (got.lines().collect(), want.lines().collect());
    let differ: Vec<String> = got
        .iter()
        .zip(&want)
        .filter(|(g, w)| g != w)
        .map(|(g, w)| format!("  got  {g}\n  want {w}"))
        .take(20)
        .collect();
    assert!(
        differ.is_empty() && got.len() == want.len(),
        "pose --json changed ({} lines now, {} golden); first differences:\n{}",
        got.len(),
        want.len(),
        differ.join("\n")
    );
}
