//! End-to-end tests of `juggler check`: output, JSON contract, files and exit codes.

use std::process::{Command, Output};

fn juggler(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_juggler"))
        .args(args)
        .output()
        .expect("run juggler")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn json(args: &[&str]) -> (serde_json::Value, i32) {
    let o = juggler(args);
    let v =
        serde_json::from_str(stdout(&o).trim()).unwrap_or_else(|e| panic!("{e}: {}", stdout(&o)));
    (v, o.status.code().unwrap_or(-1))
}

#[test]
fn valid_pattern_json_has_the_contract_fields() {
    let (v, code) = json(&["check", "531", "--json"]);
    assert_eq!(code, 0);
    assert_eq!(v["valid"], true);
    assert_eq!(v["pattern"], "531");
    assert_eq!(v["props"], 3);
    assert_eq!(v["period"], 3);
    assert_eq!(v["jugglers"], 1);
    assert_eq!(v["sync"], false);
    assert_eq!(v["ground_state"], true);
    assert_eq!(v["max_throw"], 5);
    let orbits = v["orbits"].as_array().expect("orbits array");
    assert_eq!(orbits.len(), 2);
    assert_eq!(orbits[0]["props"], 2);
    assert_eq!(orbits[0]["throws"][0]["value"], 5);
    assert_eq!(orbits[0]["throws"][1]["value"], 1);
    // Key order as in the contract.
    let text = stdout(&juggler(&["check", "531", "--json"]));
    assert!(text.starts_with(
        r#"{"valid":true,"pattern":"531","props":3,"period":3,"jugglers":1,"sync":false,"ground_state":true,"max_throw":5,"orbits":["#
    ));
}

#[test]
fn sync_and_passing_facts() {
    let (v, _) = json(&["check", "(4,2x)*", "--json"]);
    assert_eq!(
        (
            v["props"].as_u64(),
            v["period"].as_u64(),
            v["sync"].as_bool()
        ),
        (Some(3), Some(4), Some(true))
    );
    let (v, _) = json(&["check", "<3p|3p>", "--json"]);
    assert_eq!(
        (v["props"].as_u64(), v["jugglers"].as_u64()),
        (Some(6), Some(2))
    );
    let (v, _) = json(&["check", "51", "--json"]);
    assert_eq!(v["ground_state"], false);
}

#[test]
fn invalid_pattern_json() {
    let (v, code) = json(&["check", "543", "--json"]);
    assert_eq!(code, 1);
    assert_eq!(v["valid"], false);
    assert_eq!(v["pattern"], "543");
    assert_eq!(v["error"]["kind"], "invalid");
    assert_eq!(v["error"]["beat"], 6);
    assert!(v["error"]["column"].is_null());
    assert_eq!(
        v["error"]["message"],
        "Pattern is not valid: too many objects landing on beat 6 for juggler 1, left hand"
    );
    let (v, code) = json(&["check", "532", "--json"]);
    assert_eq!(code, 1);
    assert!(v["error"]["beat"].is_null());
    assert!(v["error"]["message"]
        .as_str()
        .unwrap_or("")
        .starts_with("Invalid pattern average"));
}

#[test]
fn syntax_error_json_has_the_column() {
    let (v, code) = json(&["check", "(4,4", "--json"]);
    assert_eq!(code, 1);
    assert_eq!(v["error"]["kind"], "syntax");
    assert_eq!(v["error"]["column"], 4);
    assert!(v["error"]["beat"].is_null());
    let (v, _) = json(&["check", "3 B", "--json"]);
    assert_eq!(v["error"]["column"], 3);
}

#[test]
fn human_summary_and_caret() {
    let o = juggler(&["check", "531"]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    assert!(out.contains("531: valid"), "{out}");
    assert!(
        out.contains("props 3, period 3, jugglers 1, async, ground state, max throw 5"),
        "{out}"
    );
    // An invalid pattern points at the throw that finds no free catch.
    let out = stdout(&juggler(&["check", "543"]));
    assert!(
        out.contains("too many objects landing on beat 6 for juggler 1, left hand\n  543\n   ^\n"),
        "{out}"
    );
    let o = juggler(&["check", "[33}"]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(out.contains("cannot parse '}' at column 4"), "{out}");
    assert!(
        out.contains("  [33}\n     ^ expected"),
        "caret under column 4:\n{out}"
    );
}

#[test]
fn settings_strings_are_accepted() {
    let (v, code) = json(&["check", "pattern=<3p|3p>;bps=3;dwell=1", "--json"]);
    assert_eq!(code, 0);
    assert_eq!(v["props"], 6);
    let (v, code) = json(&["check", "pattern=3;dwell=3", "--json"]);
    assert_eq!(code, 1);
    assert_eq!(
        v["error"]["message"],
        "dwell must be between 0 (excluded) and 2 (excluded) beats, not 3"
    );
}

#[test]
fn file_checks_every_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("list.txt");
    std::fs::write(&path, "# my list\n531\n\n543\n  (4,4)  \n").expect("write list");
    let p = path.to_string_lossy().into_owned();
    let o = juggler(&["check", "--file", &p, "--json"]);
    assert_eq!(o.status.code(), Some(1), "one invalid line");
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect();
    let summary: Vec<(String, bool)> = lines
        .iter()
        .map(|v| {
            (
                v["pattern"].as_str().unwrap_or("").to_string(),
                v["valid"] == true,
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            ("531".into(), true),
            ("543".into(), false),
            ("(4,4)".into(), true)
        ]
    );

    std::fs::write(&path, "531\n(4,4)\n").expect("write list");
    let o = juggler(&["check", "--file", &p]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    assert!(
        out.contains("531: valid") && out.contains("(4,4): valid"),
        "{out}"
    );
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(juggler(&["check"]).status.code(), Some(2));
    assert_eq!(
        juggler(&["check", "--file", "/nonexistent/list.txt"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(juggler(&["check", "531", "--bogus"]).status.code(), Some(2));
}
