//! Every row of the shared siteswap vectors (pattern, validity, props) passes.

use std::path::PathBuf;

use juggler::schedule::from_notation;

fn vectors() -> String {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let shared = root.join("../shared/vectors/siteswaps.tsv");
    let path = if shared.exists() {
        shared
    } else {
        root.join("tests/data/siteswaps.tsv")
    };
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

#[test]
fn every_vector_row_passes() {
    let text = vectors();
    let mut failures = Vec::new();
    let mut rows = 0;
    for line in text.lines().skip(1).filter(|l| !l.trim().is_empty()) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (pattern, valid) = (cols[0], cols[1] == "true");
        rows += 1;
        match (from_notation(pattern), valid) {
            (Ok(s), true) => {
                let props: usize = cols[2].parse().expect("props column");
                if s.props != props {
                    failures.push(format!("{pattern}: {} props, expected {props}", s.props));
                }
            }
            (Err(_), false) => {}
            (Ok(s), false) => failures.push(format!(
                "{pattern}: accepted with {} props, expected invalid",
                s.props
            )),
            (Err(e), true) => failures.push(format!("{pattern}: rejected ({e}), expected valid")),
        }
    }
    assert!(rows >= 50, "only {rows} rows read");
    assert!(
        failures.is_empty(),
        "{} failing rows:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
