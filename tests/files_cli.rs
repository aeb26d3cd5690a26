//! `juggler list` end to end: the shipped library, single files, malformed files.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn juggler(args: &[&str], patterns_dir: Option<&Path>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_juggler"));
    cmd.args(args);
    match patterns_dir {
        Some(dir) => cmd.env("JUGGLER_PATTERNS", dir),
        None => cmd.env_remove("JUGGLER_PATTERNS"),
    };
    cmd.output().expect("juggler runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The cells of the table row whose first column is `name`.
fn row<'a>(stdout: &'a str, name: &str) -> Vec<&'a str> {
    let line = stdout
        .lines()
        .find(|l| l.starts_with(name) && l[name.len()..].starts_with("  "))
        .unwrap_or_else(|| panic!("no row '{name}' in\n{stdout}"));
    line[name.len()..]
        .split("  ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect()
}

#[test]
fn lists_the_shipped_library() {
    let out = juggler(&["list"], None);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}\n{}", stdout, text(&out.stderr));
    assert!(stdout.starts_with("NAME"), "{stdout}");
    assert_eq!(row(&stdout, "531"), ["531", "3 balls", "3", "1", "yes"]);
    assert_eq!(
        row(&stdout, "Why Not"),
        ["<3p 4 1 3p 3|4p 3 4p 4 1>", "6 clubs", "5", "2", "yes"]
    );
    assert_eq!(
        row(&stdout, "3-person feed")[1..],
        ["9 clubs", "4", "3", "yes"]
    );
    assert_eq!(
        row(&stdout, "7-ring cascade")[1..],
        ["7 rings", "1", "1", "yes"]
    );
    let last = stdout.lines().last().unwrap();
    let total: usize = last.split(' ').next().unwrap().parse().unwrap();
    assert!(total >= 100, "{last}");
    assert!(last.ends_with("in 10 files"), "{last}");
}

#[test]
fn lists_one_file_and_honours_the_library_override() {
    let out = juggler(&["list", data("list.txt").to_str().unwrap()], None);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert_eq!(
        row(&stdout, "Sync fountain"),
        ["(4,4)", "4 balls", "2", "1", "yes"]
    );
    assert!(stdout.ends_with("3 patterns in 1 file\n"), "{stdout}");

    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("mine.toml"),
        "name = \"Mine\"\nsiteswap = \"441\"\nprop = \"ring\"\n",
    )
    .unwrap();
    let out = juggler(&["list"], Some(dir.path()));
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert_eq!(row(&stdout, "Mine"), ["441", "3 rings", "3", "1", "yes"]);
    assert!(stdout.ends_with("1 pattern in 1 file\n"), "{stdout}");
}

#[test]
fn invalid_siteswap_is_listed_and_reported_with_its_line() {
    let out = juggler(&["list", data("bad_siteswap.toml").to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert_eq!(row(&stdout, "Good"), ["531", "3 balls", "3", "1", "yes"]);
    assert_eq!(row(&stdout, "Collides"), ["432", "-", "-", "-", "no"]);
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("bad_siteswap.toml:7:12: invalid siteswap '432': "),
        "{stderr}"
    );
    assert!(stderr.contains("juggler: 1 problem found"), "{stderr}");
}

#[test]
fn files_that_fail_to_load_exit_1_with_the_error() {
    for (file, expected) in [
        (
            "unknown_key.toml",
            "unknown_key.toml:3:1: unknown field `dwel`",
        ),
        ("wrong_type.toml", "wrong_type.toml:3:7: invalid type"),
        ("bad_syntax.toml", "bad_syntax.toml:6:"),
        ("malformed.jml", "malformed.jml:6:1: malformed XML"),
        (
            "events.jml",
            "events.jml:7:1: pattern 'Tornado': path 2 is thrown at t=0.2058 s but never caught",
        ),
    ] {
        let out = juggler(&["list", data(file).to_str().unwrap()], None);
        assert_eq!(out.status.code(), Some(1), "{file}");
        let stderr = text(&out.stderr);
        assert!(stderr.contains(expected), "{file}: {stderr}");
        assert!(!stderr.contains("panicked"), "{file}: {stderr}");
    }
    // The importable part of a JML list is still shown.
    let out = juggler(&["list", data("events.jml").to_str().unwrap()], None);
    assert_eq!(
        row(&text(&out.stdout), "4 fountain"),
        ["4", "4 balls", "1", "1", "yes"]
    );
}

#[test]
fn a_directory_with_a_bad_file_lists_the_good_ones() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.toml"), "siteswap = \"3\"\n").unwrap();
    std::fs::write(dir.path().join("b.toml"), "siteswap = \"3\"\nbogus = 1\n").unwrap();
    let out = juggler(&["list", dir.path().to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert_eq!(row(&stdout, "3"), ["3", "3 balls", "1", "1", "yes"]);
    assert!(text(&out.stderr).contains("b.toml:2:1: unknown field `bogus`"));
}

#[test]
fn missing_paths_and_empty_directories() {
    let out = juggler(&["list", "/nonexistent/patterns"], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("/nonexistent/patterns: no such file or directory"));

    let dir = tempfile::tempdir().unwrap();
    let out = juggler(&["list", dir.path().to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("no pattern files"));
}
