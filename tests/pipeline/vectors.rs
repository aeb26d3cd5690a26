//! Every row of the shared siteswap vectors (pattern, validity, props) passes.

use crate::common;

use juggler::schedule::from_notation;

#[test]
fn every_vector_row_passes() {
    let mut failures = Vec::new();
    let mut rows = 0;
    for vector in common::vectors() {
        let pattern = vector.pattern.as_str();
        rows += 1;
        match (from_notation(pattern), vector.valid) {
            (Ok(s), true) => {
                let props = vector.props.expect("props column of a valid row");
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
