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

/// The cells of the table row whose name column (after the `#` column) is `name`.
fn row<'a>(stdout: &'a str, name: &str) -> Vec<&'a str> {
    let line = stdout
        .lines()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
        .map(|l| {
            l.trim_start_matches(|c: char| c.is_ascii_digit())
                .trim_start()
        })
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
    assert!(stdout.starts_with("#   NAME"), "{stdout}");
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
        (
            "wrong_type.toml",
            "wrong_type.toml:3:7: bps must be between 0.1 and 200 beats per second, not \"fast\"",
        ),
        ("bad_syntax.toml", "bad_syntax.toml:6:"),
        ("malformed.jml", "malformed.jml:6:1: malformed XML"),
        (
            "events.jml",
            "events.jml:15:1: pattern 'Tornado': path 2 is thrown by juggler 1's right hand at t=0.2058 s but never caught",
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

/// The JSON objects `juggler list FILE --json` prints, one per line.
fn json_lines(stdout: &str) -> Vec<serde_json::Value> {
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

#[test]
fn list_json_has_one_object_per_pattern_in_file_order() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mixed.txt");
    std::fs::write(&file, "# mine\n3\n531 # x\n532\n<3p|3p>\n").unwrap();
    let out = juggler(&["list", file.to_str().unwrap(), "--json"], None);
    assert_eq!(out.status.code(), Some(1), "the invalid 532 is a problem");
    let got = json_lines(&text(&out.stdout));
    assert_eq!(got.len(), 4);
    let fields = |v: &serde_json::Value| {
        (
            v["index"].as_u64(),
            v["line"].as_u64(),
            v["siteswap"].as_str().map(String::from),
            v["valid"].as_bool(),
            v["props"].as_u64(),
            v["jugglers"].as_u64(),
            v["period"].as_u64(),
        )
    };
    assert_eq!(
        fields(&got[1]),
        (
            Some(2),
            Some(3),
            Some("531".into()),
            Some(true),
            Some(3),
            Some(1),
            Some(3)
        )
    );
    assert_eq!(
        fields(&got[3]),
        (
            Some(4),
            Some(5),
            Some("<3p|3p>".into()),
            Some(true),
            Some(6),
            Some(2),
            Some(1)
        )
    );
    assert_eq!(got[2]["valid"], false);
    assert!(got[2]["props"].is_null());
    assert!(got[2]["error"]
        .as_str()
        .unwrap()
        .starts_with("Invalid pattern average"));
    assert_eq!(got[0]["name"], "3");
    assert_eq!(got[0]["prop"], "ball");

    // A JML list: a pattern that cannot be imported is listed (without an index) in its place.
    let out = juggler(
        &["list", data("events.jml").to_str().unwrap(), "--json"],
        None,
    );
    let got = json_lines(&text(&out.stdout));
    assert_eq!(got.len(), 2);
    assert_eq!(
        (got[0]["index"].as_u64(), got[0]["name"].as_str()),
        (Some(1), Some("4 fountain"))
    );
    assert!(got[1]["index"].is_null());
    assert_eq!(got[1]["valid"], false);
    assert!(got[1]["error"].as_str().unwrap().contains("'Tornado'"));
}

#[test]
fn the_table_numbers_patterns_as_index_counts() {
    let out = juggler(&["list", data("list.jml").to_str().unwrap()], None);
    let stdout = text(&out.stdout);
    let numbered: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()) && !l.contains(" in 1 file"))
        .collect();
    assert_eq!(numbered.len(), 5, "{stdout}");
    assert!(numbered[4].starts_with("5  Eating an apple"), "{stdout}");
    // The 5th pattern is the one --index 5 and --name choose.
    for choice in [["--index", "5"], ["--name", "eating-an-APPLE"]] {
        let out = juggler(
            &[
                "pose",
                data("list.jml").to_str().unwrap(),
                choice[0],
                choice[1],
                "--json",
            ],
            None,
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        let pose: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        // 33333423 at dwell 1.0: its props trade places, so the loop is two 8-beat periods.
        let bps = pose["bps"].as_f64().unwrap();
        assert_eq!(pose["dwell"], 1.0);
        assert!((pose["loop_duration"].as_f64().unwrap() * bps - 16.0).abs() < 1e-9);
    }
}

#[test]
fn choosing_a_pattern_reports_bad_choices() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("l.txt");
    std::fs::write(&file, "3\n531\n532\npattern=441;title=Three Four\n").unwrap();
    let f = file.to_str().unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec!["pose", f];
        args.extend_from_slice(extra);
        let out = juggler(&args, None);
        (out.status.code(), text(&out.stdout), text(&out.stderr))
    };
    let (code, stdout, _) = run(&["--index", "4"]);
    assert_eq!(code, Some(0));
    assert!(stdout.starts_with("Three Four at t = 0.000 s"), "{stdout}");
    assert!(stdout.contains("loop 5.294 s"), "441 at 3.4 bps: 18 beats");
    let (code, stdout, _) = run(&["--name", "three_four"]);
    assert_eq!(code, Some(0));
    assert!(stdout.starts_with("Three Four at"), "{stdout}");
    // Only the chosen pattern must be valid; choosing the bad one reports it with its line.
    let (code, _, stderr) = run(&["--index", "3"]);
    assert_eq!(code, Some(1));
    assert!(
        stderr.contains("l.txt:3:1: invalid siteswap '532'"),
        "{stderr}"
    );
    for (args, code, message) in [
        (
            vec!["--index", "5"],
            2,
            "holds 4 patterns: --index 5 is out of range (1 to 4; `juggler list` numbers them)",
        ),
        (vec!["--index", "0"], 2, "--index 0 is out of range"),
        (
            vec!["--name", "Three Fuor"],
            1,
            "has no pattern named \"Three Fuor\"; close matches: \"Three Four\"",
        ),
        (
            vec!["--index", "1", "--name", "3"],
            2,
            "cannot be used with",
        ),
    ] {
        let (got, _, stderr) = run(&args);
        assert_eq!(got, Some(code), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
    let dup = dir.path().join("dup.txt");
    std::fs::write(&dup, "pattern=3;title=A\npattern=531;title=a\n").unwrap();
    let out = juggler(&["pose", dup.to_str().unwrap(), "--name", "A"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr)
        .contains("has 2 patterns named \"A\" (numbers 1, 2): choose one with --index"));
    // A siteswap is one pattern, not a file; a library file's stem is a file.
    let out = juggler(&["pose", "531", "--index", "1"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr)
        .contains("--index 1 chooses a pattern of a file, but \"531\" is a siteswap"));
    let out = juggler(
        &["export", "531", "--name", "x", "--out", "/tmp/none.gif"],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(!Path::new("/tmp/none.gif").exists());
}

#[test]
fn tojml_writes_event_jml_and_never_overwrites_without_force() {
    // Standard output: one event per throw and per catch of the loop.
    let out = juggler(&["tojml", "pattern=531;title=Five <3>"], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let jml = text(&out.stdout);
    assert!(jml.starts_with("<?xml version=\"1.0\"?>"), "{jml}");
    assert!(jml.contains("<jml version=\"3\">"));
    assert!(jml.contains("<title>Five &lt;3&gt;</title>"));
    assert!(jml.contains("<setup jugglers=\"1\" paths=\"3\" props=\"1,2,3\"/>"));
    // 531 mirrored: 6 beats, after which every prop is back in its place (6 throws).
    assert!(jml.contains("<symmetry type=\"delay\" pperm=\"(1)(2)(3)\" delay=\"1.714286\"/>"));
    assert_eq!(jml.matches("<throw ").count(), 6);
    assert_eq!(jml.matches("<catch ").count(), 6);
    // The same first events as Juggling Lab's own layout of 531, 8 cm further in front (ball
    // hands work in front of its hand plane): the 5 thrown from 18 cm at t = 0, the 1 caught
    // at 45 cm at 0.2 s, at 5 beats/s.
    assert!(jml.contains("<event x=\"18\" y=\"8\" z=\"0\" t=\"0\" hand=\"1:right\">\n<throw path=\"1\" type=\"toss\"/>"), "{jml}");
    assert!(
        jml.contains(
            "<event x=\"45\" y=\"8\" z=\"0\" t=\"0.2\" hand=\"1:right\">\n<catch path=\"3\"/>"
        ),
        "{jml}"
    );

    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("p.jml");
    let f = file.to_str().unwrap();
    let out = juggler(&["tojml", "<3p|3p>", "--out", f], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let first = std::fs::read_to_string(&file).unwrap();
    assert!(first.contains("hand=\"2:left\""));
    // No overwrite without --force; the file stays as it was and no staging file is left.
    let out = juggler(&["tojml", "3", "--out", f], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("exists; use --force"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), first);
    let out = juggler(&["tojml", "3", "--out", f, "--force"], None);
    assert!(out.status.success());
    assert!(std::fs::read_to_string(&file)
        .unwrap()
        .contains("paths=\"3\""));
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["p.jml"]);
    // A bad pattern writes nothing; a directory is refused; --index chooses.
    let bad = dir.path().join("bad.jml");
    let out = juggler(&["tojml", "532", "--out", bad.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(!bad.exists());
    let out = juggler(&["tojml", "3", "--out", dir.path().to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(2));
    let out = juggler(
        &["tojml", data("list.txt").to_str().unwrap(), "--index", "3"],
        None,
    );
    assert!(text(&out.stdout).contains("<title>Sync fountain</title>"));
}

#[test]
fn hand_siteswaps_load_with_juggling_lab_s_jugglers_and_props() {
    // Reference values from Juggling Lab 1.6.6's layout (`jl.sh tojml`: <setup jugglers paths>).
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("hss.jml");
    std::fs::write(
        &file,
        "<jml version=\"3\"><patternlist>\
         <line display=\"Two-handed\" notation=\"siteswap\">pattern=[43]23;hss=2</line>\
         <line display=\"Pass 534\" notation=\"siteswap\">pattern=534;hss=3</line>\
         <line display=\"Held\" notation=\"siteswap\">pattern=4;hss=3;hold=true;dwellmax=false</line>\
         <line display=\"Spec\" notation=\"siteswap\">pattern=6;hss=4;handspec=(3,1)(4,2)</line>\
         <line display=\"Three\" notation=\"siteswap\">pattern=7;hss=5</line>\
         <line display=\"Bad\" notation=\"siteswap\">pattern=3;hss=321</line>\
         </patternlist></jml>",
    )
    .unwrap();
    let out = juggler(&["list", file.to_str().unwrap(), "--json"], None);
    let got = json_lines(&text(&out.stdout));
    let facts: Vec<(Option<u64>, Option<u64>)> = got
        .iter()
        .map(|d| (d["jugglers"].as_u64(), d["props"].as_u64()))
        .collect();
    assert_eq!(
        facts[..5],
        [
            (Some(1), Some(4)),
            (Some(2), Some(4)),
            (Some(2), Some(4)),
            (Some(2), Some(6)),
            (Some(3), Some(7))
        ]
    );
    // Hand 2 is juggler 2's right hand, which only throws its own 3s.
    assert_eq!(
        got[1]["siteswap"],
        "<(0,5)!|(0,0)!><(0,0)!|(0,3x)!><(4x,0)!|(0,0)!>"
    );
    // The bad hand pattern is reported with Juggling Lab's message.
    assert!(got[5]["index"].is_null());
    assert!(got[5]["error"]
        .as_str()
        .unwrap()
        .contains("pattern 'Bad': Hand pattern is invalid"));
    // check reports the layout too; the pattern animates.
    let out = juggler(&["check", "pattern=534;hss=3", "--json"], None);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (v["jugglers"].as_u64(), v["props"].as_u64()),
        (Some(2), Some(4))
    );
    let out = juggler(&["pose", "pattern=534;hss=3", "--json", "-t", "0.7"], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let pose: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(pose["jugglers"].as_array().unwrap().len(), 2);
}
