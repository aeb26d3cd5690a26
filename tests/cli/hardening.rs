//! Hostile-input hardening, end to end: one test per class of fault, named after the fault it
//! pins (issue 15).

use std::path::Path;
use std::process::{Command, Output};

fn juggler_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_juggler"))
        .args(args)
        .current_dir(dir)
        .env_remove("JUGGLER_PATTERNS")
        .output()
        .expect("juggler runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn a_file_or_directory_named_like_a_siteswap_does_not_shadow_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("531"), "not a pattern").unwrap();
    std::fs::create_dir(dir.path().join("3")).unwrap();
    for (arg, bps) in [("531", "3.50 beats/s"), ("3", "2.90 beats/s")] {
        let out = juggler_in(dir.path(), &["pose", arg]);
        let stdout = text(&out.stdout);
        assert!(out.status.success(), "{arg}: {}", text(&out.stderr));
        assert!(
            stdout.starts_with(&format!("{arg} at t = 0.000 s ({bps}")),
            "{stdout}"
        );
    }
    // Written as a path, the file is read (and is not a pattern file).
    let out = juggler_in(dir.path(), &["pose", "./531"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "juggler: ./531: unknown pattern file type (expected .toml, .jml, .xml, .jif or .txt)\n"
    );
    let out = juggler_in(dir.path(), &["pose", "./3"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).starts_with("juggler: ./3 is a directory: give one pattern file"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn an_unknown_library_name_is_not_read_as_a_siteswap() {
    let dir = tempfile::tempdir().unwrap();
    let out = juggler_in(dir.path(), &["pose", "cascade"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.starts_with("juggler: no pattern named \"cascade\"; close matches: "),
        "{stderr}"
    );
    assert!(stderr.contains("\"3-ball cascade\""), "{stderr}");
    assert!(!stderr.contains("average"), "{stderr}");
    let out = juggler_in(dir.path(), &["pose", "Rubinstein's Revenge"]);
    assert!(
        text(&out.stderr).starts_with(
            "juggler: no pattern named \"Rubinstein's Revenge\"; close matches: \"Rubenstein's Revenge\"\n"
        ),
        "{}",
        text(&out.stderr)
    );
    // check --json keeps its one-record-per-pattern contract.
    let out = juggler_in(dir.path(), &["check", "--json", "cascade"]);
    assert_eq!(out.status.code(), Some(1));
    let record: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(record["valid"], false);
    assert_eq!(record["error"]["kind"], "name");
    assert!(record["error"]["message"]
        .as_str()
        .unwrap()
        .starts_with("no pattern named \"cascade\"; close matches: "));
    // A mistyped siteswap still gets the siteswap's own message.
    let out = juggler_in(dir.path(), &["pose", "532"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).starts_with("juggler: Invalid pattern average"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_moved_binary_still_has_the_pattern_library() {
    let dir = tempfile::tempdir().unwrap();
    let moved = dir.path().join("juggler");
    std::fs::copy(env!("CARGO_BIN_EXE_juggler"), &moved).unwrap();
    let run = |args: &[&str]| {
        // Another test thread forking while the copy was open for writing keeps it busy
        // (ETXTBSY) for a moment.
        for _ in 0..50 {
            match Command::new(&moved)
                .args(args)
                .current_dir(dir.path())
                .env_remove("JUGGLER_PATTERNS")
                .output()
            {
                Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy => {
                    std::thread::sleep(std::time::Duration::from_millis(100));
                }
                result => return result.unwrap(),
            }
        }
        panic!("the copied binary stayed busy");
    };
    let out = run(&["pose", "Mills Mess"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).starts_with("Mills Mess at t = 0.000 s (2.90 beats/s, dwell 0.8 beats"),
        "{}",
        text(&out.stdout)
    );
    let out = run(&["list"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("# patterns/tricks3.toml ("), "{stdout}");
    assert!(stdout.ends_with(" in 10 files\n"), "{stdout}");
}

/// Runs juggler with stdout and stderr sent where the test says.
fn juggler_to(args: &[&str], stdout: std::process::Stdio, stderr: std::process::Stdio) -> Output {
    Command::new(env!("CARGO_BIN_EXE_juggler"))
        .args(args)
        .env_remove("JUGGLER_PATTERNS")
        .stdout(stdout)
        .stderr(stderr)
        .output()
        .expect("juggler runs")
}

fn dev_full() -> std::process::Stdio {
    std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full")
        .into()
}

#[test]
fn a_full_stdout_is_an_error_with_exit_code_2_in_every_command() {
    for args in [
        &["check", "531"][..],
        &["check", "--json", "531"],
        &["pose", "531"],
        &["pose", "--json", "531"],
        &["list"],
        &["--help"],
        &["check", "--help"],
        &["--version"],
    ] {
        let out = juggler_to(args, dev_full(), std::process::Stdio::piped());
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(
            text(&out.stderr),
            "juggler: cannot write to standard output: No space left on device (os error 28)\n",
            "{args:?}"
        );
    }
}

#[test]
fn errors_written_to_a_full_stderr_do_not_panic() {
    for (args, code) in [
        (&["pose", "("][..], 1),
        (&["pose", "cascade"], 1),
        (&["list", "/nonexistent/dir"], 1),
        (&["--bogus"], 2),
        (&["pose", "531", "--bps", "nan"], 2),
    ] {
        let out = juggler_to(args, std::process::Stdio::piped(), dev_full());
        assert_eq!(out.status.code(), Some(code), "{args:?}");
    }
}

#[test]
fn a_closed_stdout_pipe_ends_output_quietly() {
    for args in [&["list"][..], &["check", "531"], &["pose", "--json", "531"]] {
        let (reader, writer) = std::io::pipe().expect("pipe");
        drop(reader);
        let out = juggler_to(args, writer.into(), std::process::Stdio::piped());
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert_eq!(text(&out.stderr), "", "{args:?}");
    }
    // check --file stops reading once nobody listens (here: a list longer than any pipe buffer).
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("many.txt");
    std::fs::write(&list, "531\n".repeat(20_000)).unwrap();
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    let out = juggler_to(
        &["check", "--file", list.to_str().unwrap()],
        writer.into(),
        std::process::Stdio::piped(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn a_screenshot_never_overwrites_without_force_nor_replaces_a_device() {
    let dir = tempfile::tempdir().unwrap();
    let existing = dir.path().join("existing.png");
    std::fs::write(&existing, b"precious").unwrap();
    let out = juggler_in(dir.path(), &["531", "--screenshot", "existing.png"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "juggler: existing.png: already exists (add --force to overwrite it)\n"
    );
    for special in ["/dev/null", "."] {
        let out = juggler_in(dir.path(), &["531", "--screenshot", special, "--force"]);
        assert_eq!(out.status.code(), Some(2), "{special}");
        assert_eq!(
            text(&out.stderr),
            format!("juggler: {special}: not a regular file; a screenshot never replaces it\n")
        );
    }
    assert_eq!(std::fs::read(&existing).unwrap(), b"precious");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn a_huge_written_repeat_count_is_refused_before_allocating() {
    let dir = tempfile::tempdir().unwrap();
    for command in ["pose", "check"] {
        let out = juggler_in(dir.path(), &[command, "([4444]^1000000)"]);
        assert_eq!(out.status.code(), Some(1), "{command}");
        let all = text(&out.stdout) + &text(&out.stderr);
        assert!(
            all.contains(
                "pattern too large: more than 100000 beats or 100000 throws after expansion"
            ),
            "{command}: {all}"
        );
    }
    // At the limit it still works, in bounded time and memory.
    let out = juggler_in(dir.path(), &["pose", "--json", "([4444]^25000)"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
}

fn json_of(out: &Output) -> serde_json::Value {
    assert!(out.status.success(), "{}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("JSON")
}

#[test]
fn a_huge_time_is_reduced_modulo_the_loop_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let far = json_of(&juggler_in(
        dir.path(),
        &["pose", "531", "--json", "--time", "1e17"],
    ));
    let duration = far["loop_duration"].as_f64().unwrap();
    assert_eq!(duration, 12.0 / 7.0);
    let reduced = 1e17f64.rem_euclid(duration);
    let near = json_of(&juggler_in(
        dir.path(),
        &["pose", "531", "--json", "--time", &reduced.to_string()],
    ));
    assert_eq!(far["time"].as_f64(), Some(1e17));
    assert_eq!(far["jugglers"], near["jugglers"]);
    assert_eq!(far["props"], near["props"]);
    let out = juggler_in(dir.path(), &["pose", "531", "--json", "--time", "-1e300"]);
    let stdout = text(&out.stdout);
    let pose: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    assert_eq!(pose["time"].as_f64(), Some(-1e300));
    // NaN would be written as null inside a coordinate list.
    assert!(
        !stdout.contains("[null") && !stdout.contains(",null"),
        "{stdout}"
    );
}

#[test]
fn settings_outside_their_range_are_refused_everywhere_instead_of_giving_nan() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("slow.toml"),
        "siteswap = \"531\"\nbps = 1e-308\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("heavy.jml"),
        "<jml><patternlist><line display=\"x\" notation=\"siteswap\">pattern=531;gravity=1e308</line></patternlist></jml>",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("far.toml"),
        "siteswap = \"3\"\njugglers = [{ x = 0, z = 1e30, facing = 0 }]\n",
    )
    .unwrap();
    let cases: [(&[&str], i32, &str); 7] = [
        (
            &["pose", "531", "--bps", "1e-308"],
            2,
            "--bps must be between 0.1 and 200 beats per second, not 1e-308",
        ),
        (
            &["pose", "531", "--gravity", "1e308"],
            2,
            "--gravity must be between 0.001 and 1000 m/s², not 1e308",
        ),
        (
            &["pose", "531", "--dwell", "2"],
            2,
            "--dwell must be between 0 (excluded) and 2 (excluded) beats, not 2",
        ),
        (
            &["pose", "pattern=531;bps=1e-308"],
            1,
            "bps must be between 0.1 and 200 beats per second, not 1e-308",
        ),
        (
            &["pose", "slow.toml"],
            1,
            "slow.toml:2:7: bps must be between 0.1 and 200 beats per second, not 1e-308",
        ),
        (
            &["pose", "heavy.jml"],
            1,
            "heavy.jml:1:19: pattern 'x': gravity must be between 0.1 and 100000 cm/s², not 1e308",
        ),
        (
            &["pose", "far.toml"],
            1,
            "far.toml:2:26: z must be between -1000 and 1000 metres, not 1e30",
        ),
    ];
    for (args, code, message) in cases {
        let out = juggler_in(dir.path(), args);
        assert_eq!(
            out.status.code(),
            Some(code),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(
            text(&out.stderr).contains(message),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn check_file_shares_the_txt_reader_and_streams_with_a_line_cap() {
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("list.txt");
    std::fs::write(
        &list,
        b"\xef\xbb\xbf531 # the classic\r3\r\n# comment\n441\r",
    )
    .unwrap();
    let out = juggler_in(dir.path(), &["check", "--json", "--file", "list.txt"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let patterns: Vec<String> = text(&out.stdout)
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["pattern"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(patterns, ["531", "3", "441"]);
    // The same file through the other commands' reader.
    let out = juggler_in(dir.path(), &["list", "list.txt"]);
    assert!(
        text(&out.stdout).ends_with("3 patterns in 1 file\n"),
        "{}",
        text(&out.stdout)
    );
    // An endless line stops at the cap instead of filling memory; a device that could be
    // endless is not read at all.
    std::fs::write(dir.path().join("long.txt"), "5".repeat(70_000)).unwrap();
    let out = juggler_in(dir.path(), &["check", "--file", "long.txt"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "juggler: long.txt:1:1: line longer than 65536 bytes\n"
    );
    let out = juggler_in(dir.path(), &["check", "--file", "/dev/zero"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "juggler: cannot read /dev/zero: not a regular file (a pipe or device); give - to read standard input\n"
    );
    let out = juggler_in(dir.path(), &["check", "--file", "."]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn list_survives_names_longer_than_the_format_width_limit() {
    let dir = tempfile::tempdir().unwrap();
    let name = "n".repeat(70_000);
    std::fs::write(
        dir.path().join("long.toml"),
        format!("[[pattern]]\nname = \"{name}\"\nsiteswap = \"531\"\n\n[[pattern]]\nname = \"b\"\nsiteswap = \"{}\"\n{}", "3".repeat(66_000), "[[pattern]]\nsiteswap = \"441\"\n".repeat(1000)),
    )
    .unwrap();
    let out = juggler_in(dir.path(), &["list", "long.toml"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let row = stdout
        .lines()
        .find(|l| l.starts_with("1 ") && l.contains(&name))
        .expect("the long name's row");
    // After the `#` column (its width set by the 1002 patterns).
    assert!(row.starts_with("1     n"), "{}", &row[..10]);
    let row = &row[6..];
    assert!(
        row[name.len()..].starts_with("  531 "),
        "{}",
        &row[name.len()..name.len() + 20]
    );
    assert!(
        row.ends_with("  3 balls  3       1         yes"),
        "{}",
        &row[row.len() - 60..]
    );
    assert!(stdout.ends_with("1002 patterns in 1 file\n"));
    // Long cells overflow their column instead of widening it for all 1002 rows: the table
    // is about as long as its cells (it was 137 MB).
    assert!(stdout.len() < 300_000, "{} bytes", stdout.len());
    assert!(stdout.contains("\n3     441                                               441"));
}

#[test]
fn control_characters_in_input_are_escaped_in_human_output() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("esc.toml"),
        "name = \"red\\u001b[31m alert\\u0007\"\nsiteswap = \"531\"\n",
    )
    .unwrap();
    for args in [
        &["list", "esc.toml"][..],
        &["pose", "esc.toml"],
        &["export", "esc.toml", "--out", "e.gif", "--size", "32x24"],
    ] {
        let out = juggler_in(dir.path(), args);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let stdout = text(&out.stdout);
        assert!(
            !stdout.contains('\u{1b}') && !stdout.contains('\u{7}'),
            "{args:?}"
        );
        assert!(
            stdout.contains("red\\e[31m alert\\u{7}"),
            "{args:?}: {stdout}"
        );
    }
    let out = juggler_in(dir.path(), &["check", "3\u{1b}[2J"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(!text(&out.stdout).contains('\u{1b}'));
    assert!(
        text(&out.stdout).starts_with("3\\e[2J: invalid"),
        "{}",
        text(&out.stdout)
    );
    // Blank input is named in quotes, not left as a bare colon.
    let out = juggler_in(dir.path(), &["check", ""]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).starts_with("\"\": invalid"),
        "{}",
        text(&out.stdout)
    );
    let out = juggler_in(dir.path(), &["trans", "3", " "]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).starts_with("juggler: \" \": invalid"),
        "{}",
        text(&out.stderr)
    );
    let out = juggler_in(dir.path(), &["pose", "qqqq\u{1b}[2J"]);
    assert_eq!(
        text(&out.stderr).lines().next().unwrap(),
        "juggler: no pattern named \"qqqq\\e[2J\""
    );
}

#[test]
fn large_pattern_files_load_in_every_format() {
    // 16 000 TOML patterns took 6.7 s to list when every pattern's line was counted from the
    // start of the file; the speed itself is measured in benches/files.rs (100 000 patterns).
    const N: usize = 20_000;
    let dir = tempfile::tempdir().unwrap();
    let mut toml = String::new();
    let mut jml = String::from("<jml><patternlist>\n");
    let mut txt = String::new();
    for i in 0..N {
        toml.push_str(&format!(
            "[[pattern]]\nname = \"p{i}\"\nsiteswap = \"531\"\n"
        ));
        jml.push_str(&format!(
            "<line display=\"p{i}\" notation=\"siteswap\">531</line>\n"
        ));
        txt.push_str("531 # p\n");
    }
    jml.push_str("</patternlist></jml>\n");
    std::fs::write(dir.path().join("big.toml"), toml).unwrap();
    std::fs::write(dir.path().join("big.jml"), jml).unwrap();
    std::fs::write(dir.path().join("big.txt"), txt).unwrap();
    for file in ["big.toml", "big.jml", "big.txt"] {
        let out = juggler_in(dir.path(), &["list", file]);
        assert!(out.status.success(), "{file}: {}", text(&out.stderr));
        assert!(
            text(&out.stdout).ends_with(&format!("{N} patterns in 1 file\n")),
            "{file}"
        );
    }
    let out = juggler_in(dir.path(), &["check", "--file", "big.txt"]);
    assert!(out.status.success());
    assert_eq!(text(&out.stdout).matches("531: valid").count(), N);
}

#[test]
fn a_user_library_name_with_a_slash_is_found_when_no_such_file_exists() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib");
    std::fs::create_dir(&lib).unwrap();
    std::fs::write(
        lib.join("mine.toml"),
        "[[pattern]]\nname = \"Half/shower\"\nsiteswap = \"(4,2x)*\"\nbps = 3\n",
    )
    .unwrap();
    let run = |arg: &str| {
        Command::new(env!("CARGO_BIN_EXE_juggler"))
            .args(["pose", arg])
            .current_dir(dir.path())
            .env("JUGGLER_PATTERNS", &lib)
            .output()
            .unwrap()
    };
    let out = run("half/SHOWER");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).starts_with("Half/shower at t = 0.000 s (3.00 beats/s"));
    let out = run("half/nothing");
    assert_eq!(
        text(&out.stderr),
        "juggler: half/nothing: no such pattern file\n"
    );
}

#[test]
fn an_unreadable_library_override_is_named_when_a_name_is_not_found() {
    let out = Command::new(env!("CARGO_BIN_EXE_juggler"))
        .args(["pose", "Mills Mess"])
        .env("JUGGLER_PATTERNS", "/nonexistent/juggler-lib")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).ends_with(
            "(the library /nonexistent/juggler-lib of JUGGLER_PATTERNS has problems: \
             /nonexistent/juggler-lib: cannot read: No such file or directory (os error 2))\n"
        ),
        "{}",
        text(&out.stderr)
    );
}

/// Issue 27: `hands=(10)(20)C.` made every command panic (exit 101, index out of bounds),
/// lost the rest of a `check --file` and aborted a `list`; now each refuses it with the
/// message (exit 1) and goes on with the other patterns.
#[test]
fn settings_never_panic_in_any_command() {
    let dir = tempfile::tempdir().unwrap();
    let bad = "pattern=3;hands=(10)(20)C.";
    std::fs::write(
        dir.path().join("hands.toml"),
        "siteswap = \"3\"\nhands = \"(10)(20)C.\"\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("list.txt"), format!("3\n{bad}\n531\n")).unwrap();
    let message = "Error in 'hands' setting: 'C' must be followed by a coordinate";
    for args in [
        &["check", bad][..],
        &["pose", bad],
        &["tojml", bad],
        &["diagram", bad, "--out", "d.svg"],
        &["export", bad, "--out", "e.gif"],
        &["list", "hands.toml"],
        &["check", "--file", "list.txt"],
    ] {
        let out = juggler_in(dir.path(), args);
        let all = text(&out.stdout) + &text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {all}");
        assert!(all.contains(message), "{args:?}: {all}");
        assert!(!all.contains("panicked"), "{args:?}: {all}");
    }
    // The other lines of the list are still checked.
    let out = juggler_in(dir.path(), &["check", "--file", "list.txt"]);
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("3: valid") && stdout.contains("531: valid"),
        "{stdout}"
    );
    assert!(!dir.path().join("d.svg").exists() && !dir.path().join("e.gif").exists());
}

/// Issue 27: 57 bytes asked for 41 GB and 33 bytes took 3.8 GB (and `check` called them
/// valid); under a 2 GB address-space cap every command now refuses them at once, naming
/// the limit.
#[test]
fn settings_expansion_checked_before_allocating_under_a_memory_cap() {
    let dir = tempfile::tempdir().unwrap();
    // (siteswap, settings-string key, TOML key, value, the limit named)
    let cases = [
        (
            "<3|3>",
            "hands",
            "hands",
            "<((10)(20).)^9973|((10)(20).)^9967>",
            "too large: 19940 dwell paths in `hands`, more than the limit of 10000",
        ),
        (
            "3",
            "body",
            "jugglers",
            "((0,1)(0,2))^5000.",
            "too large: 10000 positions in one juggler's `body` cycle, more than the limit of 256",
        ),
        // Within every settings limit, but the pattern repeats to fit its hands cycles:
        // 97 × 89 × 83 periods.
        (
            "<3|3|3>",
            "hands",
            "hands",
            "<((10)(20).)^97|((10)(20).)^89|((10)(20).)^83>",
            "beats in one animated cycle, more than the limit of 100000",
        ),
    ];
    for (k, (siteswap, key, toml_key, value, message)) in cases.into_iter().enumerate() {
        let file = format!("case{k}.toml");
        std::fs::write(
            dir.path().join(&file),
            format!("siteswap = \"{siteswap}\"\n{toml_key} = \"{value}\"\n"),
        )
        .unwrap();
        let string = format!("pattern={siteswap};{key}={value}");
        for args in [
            ["check", string.as_str()],
            ["pose", string.as_str()],
            ["pose", file.as_str()],
            ["list", file.as_str()],
        ] {
            let started = std::time::Instant::now();
            let out = Command::new("prlimit")
                .args(["--as=2000000000", "--"])
                .arg(env!("CARGO_BIN_EXE_juggler"))
                .args(args)
                .current_dir(dir.path())
                .env_remove("JUGGLER_PATTERNS")
                .output()
                .expect("prlimit runs");
            let took = started.elapsed();
            let all = text(&out.stdout) + &text(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{args:?}: {all}");
            assert!(all.contains(message), "{args:?}: {all}");
            assert!(took.as_secs_f64() < 1.0, "{args:?}: {took:?}");
        }
    }
}

/// Issue 27: `gravity=abc`, `propdiam=abc` and `bouncefrac=-5` were ignored (exit 0) while
/// `bps=abc` was an error; now a bad number is an error in every key and every source, in
/// one message form (key, value, range; file:line where there is a file).
#[test]
fn a_bad_number_is_an_error_in_every_key_and_source() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("g.toml"),
        "siteswap = \"3\"\ngravity = \"abc\"\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("b.jml"),
        "<jml><patternlist><line display=\"x\" notation=\"siteswap\">pattern=3;bouncefrac=-5</line></patternlist></jml>",
    )
    .unwrap();
    let cases: [(&[&str], i32, &str); 8] = [
        (
            &["pose", "pattern=3;gravity=abc"],
            1,
            "gravity must be between 0.1 and 100000 cm/s², not abc",
        ),
        (
            &["check", "pattern=3;propdiam=abc"],
            1,
            "propdiam must be between 0 (excluded) and 1000 cm, not abc",
        ),
        (
            &["check", "pattern=3;bouncefrac=-5"],
            1,
            "bouncefrac must be between 0 (excluded) and 10, not -5",
        ),
        (
            &["pose", "g.toml"],
            1,
            "g.toml:2:11: gravity must be between 0.001 and 1000 m/s², not \"abc\"",
        ),
        (
            &["pose", "b.jml"],
            1,
            "b.jml:1:19: pattern 'x': bouncefrac must be between 0 (excluded) and 10, not -5",
        ),
        (
            &["pose", "3", "--gravity", "abc"],
            2,
            "--gravity must be between 0.001 and 1000 m/s², not abc",
        ),
        (
            &["export", "3", "--distance", "3e38", "--out", "x.gif"],
            2,
            "--distance must be between 0.1 and 10000 metres, not 3e38",
        ),
        (
            &["export", "3", "--azimuth", "3e38", "--out", "x.gif"],
            2,
            "--azimuth must be between -3600 and 3600 degrees, not 3e38",
        ),
    ];
    for (args, code, message) in cases {
        let out = juggler_in(dir.path(), args);
        let all = text(&out.stdout) + &text(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {all}");
        assert!(all.contains(message), "{args:?}: {all}");
    }
    // The camera's elevation has one range everywhere: 90 is accepted on the command line as
    // in files (the view stops at 89).
    let out = juggler_in(
        dir.path(),
        &[
            "export",
            "3",
            "--elevation",
            "90",
            "--size",
            "32x24",
            "--duration",
            "0.1",
            "--quiet",
            "--out",
            "e.gif",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
}

/// `juggler ARGS` in `dir` with its address space capped at `bytes` (`prlimit --as`), and
/// how long it took.
fn capped(dir: &Path, bytes: u64, args: &[&str]) -> (Output, std::time::Duration) {
    let started = std::time::Instant::now();
    let out = Command::new("prlimit")
        .arg(format!("--as={bytes}"))
        .arg("--")
        .arg(env!("CARGO_BIN_EXE_juggler"))
        .args(args)
        .current_dir(dir)
        .env_remove("JUGGLER_PATTERNS")
        .output()
        .expect("prlimit runs");
    (out, started.elapsed())
}

/// A cascade given by events, with `positions` `<position>`s of its juggler spread over
/// its 0.7 s loop.
fn events_with_positions(positions: usize) -> String {
    let keys: String = (0..positions)
        .map(|i| {
            format!(
                "<position x=\"{}\" y=\"0\" z=\"100\" t=\"{:.6}\" angle=\"0\" juggler=\"1\"/>\n",
                i % 50,
                i as f64 * 0.7 / positions as f64
            )
        })
        .collect();
    format!(
        "<jml version=\"1.2\"><pattern><title>Walk</title><prop type=\"ball\"/>\n\
         <setup jugglers=\"1\" paths=\"3\" props=\"1,1,1\"/>\n\
         <symmetry type=\"delay\" pperm=\"(1,3,2)\" delay=\"0.7\"/>\n\
         <symmetry type=\"switchdelay\" jperm=\"(1,1*)\" pperm=\"(1,2,3)\"/>\n\
         <event x=\"12\" y=\"0\" z=\"0\" t=\"0\" hand=\"1:right\"><throw path=\"1\" type=\"toss\"/></event>\n\
         <event x=\"30\" y=\"0\" z=\"0\" t=\"0.25\" hand=\"1:right\"><catch path=\"3\"/></event>\n\
         {keys}</pattern></jml>\n"
    )
}

/// Issue 27, budget class: 20 000 `<position>` keyframes (1.3 MB) took 3.9 GB and aborted;
/// now one juggler's `<position>`s are within the budget (256), refused at the first one
/// over it with file:line, under a 2 GB address-space cap and at once.
#[test]
fn budget_event_positions_are_refused_before_allocating() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("many.jml"), events_with_positions(20_000)).unwrap();
    std::fs::write(dir.path().join("some.jml"), events_with_positions(256)).unwrap();
    for command in ["pose", "check", "list"] {
        let (out, took) = capped(dir.path(), 2_000_000_000, &[command, "many.jml"]);
        let all = text(&out.stdout) + &text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{command}: {all}");
        assert!(
            all.contains(
                "many.jml:263:1: pattern 'Walk': too large: 257 <position>s of one juggler, \
                 more than the limit of 256"
            ),
            "{command}: {all}"
        );
        assert!(took.as_secs_f64() < 2.0, "{command}: {took:?}");
    }
    let (out, _) = capped(dir.path(), 2_000_000_000, &["pose", "some.jml"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
}

/// Issue 27, budget class: with orbits of eight prime lengths the full loop is 111 546 435
/// periods, and `--color-by-orbit` asked for 1 355 500 982 frames though the picture
/// repeats every period; the picture's loop is now found among short multiples of the
/// period when the full loop is too long to factor.
#[test]
fn budget_export_frames_come_from_the_pictures_period() {
    let dir = tempfile::tempdir().unwrap();
    let pattern = "<3|5|7|b|d|h|j|n>";
    let (out, took) = capped(
        dir.path(),
        2_000_000_000,
        &[
            "export",
            pattern,
            "--color-by-orbit",
            "--size",
            "32x24",
            "--out",
            "o.gif",
        ],
    );
    let all = text(&out.stdout) + &text(&out.stderr);
    assert!(out.status.success(), "{all}");
    assert!(
        all.contains(": 12 frames, 32x24, 0.41 s of animation"),
        "{all}"
    );
    // The note is a line of its own, not an escaped `\n`.
    assert!(all.contains("\none loop of the picture (0.41 s)"), "{all}");
    assert!(took.as_secs_f64() < 10.0, "{took:?}");
    // With a colour per prop the picture does last the full loop: refused, with the count.
    let (out, _) = capped(
        dir.path(),
        2_000_000_000,
        &["export", pattern, "--out", "p.gif"],
    );
    let all = text(&out.stdout) + &text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{all}");
    assert!(all.contains("frames is too many (at most 200000)"), "{all}");
}

/// Issue 27, budget class: the largest patterns the budget allows (100 000 throws in one
/// period) export a frame and print their pose within 500 MB of address space
/// (ARCHITECTURE.md, "Hostile input": about 185 MB resident).
#[test]
fn budget_the_largest_pattern_exports_under_a_memory_cap() {
    let dir = tempfile::tempdir().unwrap();
    for pattern in ["(b^100000)", "((4,4)^50000)", "([zzzzzzzzzz]^10000)"] {
        let (out, took) = capped(
            dir.path(),
            500_000_000,
            &[
                "export",
                pattern,
                "--size",
                "64x64",
                "--duration",
                "0.05",
                "--quiet",
                "--out",
                "big.gif",
                "--force",
            ],
        );
        assert!(out.status.success(), "{pattern}: {}", text(&out.stderr));
        assert!(took.as_secs_f64() < 20.0, "{pattern}: {took:?}");
        let (out, _) = capped(dir.path(), 500_000_000, &["pose", pattern, "--time", "1"]);
        assert!(out.status.success(), "{pattern}: {}", text(&out.stderr));
    }
}

/// Seconds `juggler ARGS` takes in `dir` (one run), asserting it succeeds.
fn seconds(dir: &Path, args: &[&str]) -> f64 {
    let started = std::time::Instant::now();
    let out = juggler_in(dir, args);
    assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
    started.elapsed().as_secs_f64()
}

/// Issue 27, linear class: `tojml` of 40 000 throws took 548 s (every flight found was
/// compared with all before it), of rings of 2, 3, 5, 7 and 11 jugglers past 60 s (it
/// sampled the whole 6930-period loop), of 3000 jugglers 16 s (every event asked the state
/// of all 9000 props); one element with 50 000 attributes took 4.6 s to read (quick-xml's
/// duplicate check). Each now takes time linear in its input: four times the input takes
/// well under eight times as long (quadratic would be sixteen).
#[test]
fn linear_loaders_and_writers_scale_with_their_input() {
    let dir = tempfile::tempdir().unwrap();
    // The two sizes run in turns, best of three each, so a load on the machine in one moment
    // (other builds, the other core) weighs on both alike.
    let ratio = |small: &[&str], large: &[&str]| {
        let (mut a, mut b) = (f64::INFINITY, f64::INFINITY);
        for _ in 0..3 {
            a = a.min(seconds(dir.path(), small));
            b = b.min(seconds(dir.path(), large));
        }
        (b / a.max(0.02), a, b)
    };
    // tojml of a long period, and reading its events back.
    let (r, a, b) = ratio(
        &["tojml", "(3^2500)", "--out", "small.jml", "--force"],
        &["tojml", "(3^10000)", "--out", "large.jml", "--force"],
    );
    assert!(r < 8.0, "tojml: {a:.3} s then {b:.3} s");
    let (r, a, b) = ratio(&["pose", "small.jml"], &["pose", "large.jml"]);
    assert!(r < 8.0, "event JML: {a:.3} s then {b:.3} s");
    // One element with many attributes.
    for n in [12_500, 50_000] {
        let attributes: String = (0..n).map(|i| format!(" a{i}=\"{i}\"")).collect();
        std::fs::write(
            dir.path().join(format!("attributes{n}.jml")),
            events_with_positions(1).replace("<setup ", &format!("<setup{attributes} ")),
        )
        .unwrap();
    }
    let (r, a, b) = ratio(
        &["pose", "attributes12500.jml"],
        &["pose", "attributes50000.jml"],
    );
    assert!(r < 8.0, "attributes: {a:.3} s then {b:.3} s");
    // A repeated attribute is still an error, with its element's place.
    std::fs::write(
        dir.path().join("twice.jml"),
        "<jml><pattern><setup a=\"1\" a=\"2\"/></pattern></jml>",
    )
    .unwrap();
    let out = juggler_in(dir.path(), &["pose", "twice.jml"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("twice.jml:1:15: bad attribute in <setup>: 'a' is given twice")
    );
    // Many jugglers, and rings of prime sizes whose loop is thousands of periods.
    let ring = |sizes: &[usize]| {
        let mut parts = Vec::new();
        let mut base = 0;
        for &n in sizes {
            parts.extend((0..n).map(|i| format!("3p{}", base + (i + 1) % n + 1)));
            base += n;
        }
        format!("<{}>", parts.join("|"))
    };
    let rings = ring(&[2, 3, 5, 7, 11]);
    let (r, a, b) = ratio(
        &["tojml", &ring(&[250; 3]), "--out", "j750.jml", "--force"],
        &["tojml", &ring(&[1000; 3]), "--out", "j3000.jml", "--force"],
    );
    assert!(r < 8.0, "jugglers: {a:.3} s then {b:.3} s");
    let best = seconds(dir.path(), &["tojml", &rings]).min(seconds(dir.path(), &["tojml", &rings]));
    assert!(best < 5.0, "tojml {rings}: {best:.3} s");
}

/// Issue 27, linear class: `pose fifo.toml` on a named pipe blocked forever (opening a
/// pipe waits for a writer), and `check --file fifo.txt` did too; every reader now refuses a
/// file that is not a regular one (a pipe, or a device such as `/dev/zero`, also behind a
/// link with a pattern file's name) before reading it, through `files::open_regular`.
#[test]
fn non_regular_files_are_refused_before_reading() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["fifo.toml", "fifo.jml", "fifo.jif", "fifo.txt"] {
        let made = Command::new("mkfifo")
            .arg(dir.path().join(name))
            .status()
            .expect("mkfifo runs");
        assert!(made.success());
    }
    for name in ["zero.toml", "zero.jml", "zero.jif", "zero.txt"] {
        std::os::unix::fs::symlink("/dev/zero", dir.path().join(name)).unwrap();
    }
    let cases: &[(&[&str], i32, &str)] = &[
        (&["pose", "fifo.toml"], 1, "fifo.toml: not a regular file"),
        (&["check", "fifo.toml"], 1, "fifo.toml: not a regular file"),
        (&["list", "fifo.toml"], 1, "fifo.toml: not a regular file"),
        (&["list", "fifo.jml"], 1, "fifo.jml: not a regular file"),
        (&["tojml", "fifo.toml"], 1, "fifo.toml: not a regular file"),
        (&["tojml", "fifo.jif"], 1, "fifo.jif: not a regular file"),
        (
            &["convert", "fifo.jml", "--out", "x.toml"],
            1,
            "fifo.jml: not a regular file",
        ),
        (
            &["export", "fifo.toml", "--out", "x.gif"],
            1,
            "fifo.toml: not a regular file",
        ),
        (
            &["export", "fifo.jif", "--out", "x.gif"],
            1,
            "fifo.jif: not a regular file",
        ),
        (
            &["diagram", "fifo.toml", "--out", "x.svg"],
            1,
            "fifo.toml: not a regular file",
        ),
        (
            &["check", "--file", "fifo.txt"],
            2,
            "fifo.txt: not a regular file",
        ),
        (
            &["check", "--file", "/dev/zero"],
            2,
            "/dev/zero: not a regular file",
        ),
        (
            &["check", "--file", "zero.txt"],
            2,
            "zero.txt: not a regular file",
        ),
        (&["check", "zero.txt"], 2, "zero.txt: not a regular file"),
        (&["pose", "zero.toml"], 1, "zero.toml: not a regular file"),
        (&["tojml", "zero.jml"], 1, "zero.jml: not a regular file"),
        (&["pose", "zero.jif"], 1, "zero.jif: not a regular file"),
        (&["list", "/dev/zero"], 1, "/dev/zero: not a regular file"),
        // The window loads its pattern before it looks for a display.
        (&["fifo.toml"], 1, "fifo.toml: not a regular file"),
    ];
    for (args, code, message) in cases {
        let mut child = Command::new(env!("CARGO_BIN_EXE_juggler"))
            .args(*args)
            .current_dir(dir.path())
            .env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY")
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let started = std::time::Instant::now();
        while child.try_wait().unwrap().is_none() && started.elapsed().as_secs() < 10 {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        if child.try_wait().unwrap().is_none() {
            child.kill().unwrap();
            panic!("{args:?} blocked on the pipe or device");
        }
        let out = child.wait_with_output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(*code),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(
            text(&out.stderr).contains(message),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
}

/// `juggler ARGS` in `dir` under umask 027.
fn juggler_umask_027(dir: &Path, args: &[&str]) -> Output {
    Command::new("sh")
        .arg("-c")
        .arg("umask 027; exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_juggler"))
        .args(args)
        .current_dir(dir)
        .env_remove("JUGGLER_PATTERNS")
        .output()
        .expect("sh runs")
}

/// Issue 27, files class: `export 3 --out DIR` into an existing directory replaced it
/// without `--force` (inode and owner changed); SIGINT during `export … --out nest/a/frames`
/// left the new `nest/a`; `diagram` wrote 0600 files; `--force` over a 0600 file made it
/// 0644. Now the directory stays itself, created directories go with the interrupted
/// export, and every output honours the umask and keeps a replaced file's mode.
#[test]
fn files_outputs_keep_directories_and_modes_and_leave_no_litter() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let small = ["--size", "32x24", "--duration", "0.1", "--quiet"];
    // An existing directory stays itself without --force.
    std::fs::create_dir(d.join("frames")).unwrap();
    std::fs::write(d.join("frames/notes.txt"), "mine").unwrap();
    let inode = std::fs::metadata(d.join("frames")).unwrap().ino();
    let out = juggler_in(
        d,
        &[&["export", "3", "--out", "frames"][..], &small].concat(),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(std::fs::metadata(d.join("frames")).unwrap().ino(), inode);
    assert_eq!(
        std::fs::read_to_string(d.join("frames/notes.txt")).unwrap(),
        "mine"
    );
    assert!(d.join("frames/frame_00000.png").is_file());
    // Modes: the umask for new files, the old mode for replaced ones.
    let mode = |name: &str| {
        std::fs::metadata(d.join(name))
            .unwrap()
            .permissions()
            .mode()
            & 0o777
    };
    for (args, name) in [
        (vec!["export", "3", "--out", "a.gif"], "a.gif"),
        (vec!["tojml", "3", "--out", "a.jml"], "a.jml"),
        (vec!["diagram", "531", "--out", "a.svg"], "a.svg"),
    ] {
        let args = if args[0] == "export" {
            [&args[..], &small].concat()
        } else {
            args
        };
        let out = juggler_umask_027(d, &args);
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
        assert_eq!(mode(name), 0o640, "{args:?}");
        std::fs::set_permissions(d.join(name), std::fs::Permissions::from_mode(0o600)).unwrap();
        let forced = [&args[..], &["--force"]].concat();
        let out = juggler_in(d, &forced);
        assert!(out.status.success(), "{forced:?}: {}", text(&out.stderr));
        assert_eq!(mode(name), 0o600, "{forced:?}");
    }
    // SIGINT during an export into new nested directories removes them.
    let child = Command::new(env!("CARGO_BIN_EXE_juggler"))
        .args([
            "export",
            "3",
            "--out",
            "nest/a/frames",
            "--duration",
            "30",
            "-q",
        ])
        .current_dir(d)
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while !d.join("nest/a").exists() && started.elapsed().as_secs() < 10 {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    std::thread::sleep(std::time::Duration::from_millis(200));
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    // Ended by the signal (re-raised after the cleanup).
    use std::os::unix::process::ExitStatusExt;
    const SIGINT: i32 = 2;
    assert_eq!(out.status.signal(), Some(SIGINT), "{out:?}");
    assert!(!d.join("nest").exists(), "nest/ left behind");
}

/// Issue 27, wrong answers and messages: `check '0~1'` called a spin on a 0 valid; a UTF-8
/// byte-order mark put every location of an event JML 3 bytes early (13:48 for 14:1);
/// `diagram` did not read library names or files; TOML range errors print file:line and the
/// number as written.
#[test]
fn wrong_answers_and_messages_are_right() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let out = juggler_in(d, &["check", "0~1"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).contains("a 0 throws nothing and takes no spin '~1' (beat 1)"));
    // The same fault at the same place with and without a byte-order mark.
    let faulty = events_with_positions(1).replace("<catch path=\"3\"/>", "<catch path=\"9\"/>");
    std::fs::write(d.join("plain.jml"), &faulty).unwrap();
    std::fs::write(d.join("bom.jml"), format!("\u{feff}{faulty}")).unwrap();
    let plain = text(&juggler_in(d, &["pose", "plain.jml"]).stderr);
    let bom = text(&juggler_in(d, &["pose", "bom.jml"]).stderr);
    assert!(
        plain.contains("plain.jml:6:51: pattern 'Walk': <catch> path=\"9\""),
        "{plain}"
    );
    assert_eq!(bom.replace("bom.jml", "plain.jml"), plain);
    std::fs::write(
        d.join("bom.toml"),
        "\u{feff}siteswap = \"3\"\nbps = 1e300\n",
    )
    .unwrap();
    let out = juggler_in(d, &["pose", "bom.toml"]);
    assert!(
        text(&out.stderr)
            .contains("bom.toml:2:7: bps must be between 0.1 and 200 beats per second, not 1e300"),
        "{}",
        text(&out.stderr)
    );
    // diagram reads its argument like every command.
    let out = juggler_in(d, &["diagram", "mills-mess", "--out", "m.svg"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(std::fs::read_to_string(d.join("m.svg"))
        .unwrap()
        .contains("<svg"));
}

/// Issue 27, escaping: control characters from a title or name (settings string, TOML
/// `\u001b`, JML `&#x1b;`) never reach the terminal, JSON, XML or SVG raw, in any command.
#[test]
fn escaping_control_characters_never_reach_output_raw() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("esc.jml"),
        events_with_positions(1).replace("<title>Walk</title>", "<title>A&#x1b;[31mB&#7;C</title>"),
    )
    .unwrap();
    std::fs::write(
        d.join("esc.toml"),
        "siteswap = \"3\"\nname = \"A\\u001b[31mB\\u0007C\"\n",
    )
    .unwrap();
    let raw = |bytes: &[u8]| bytes.iter().any(|&b| (b < 0x20 && b != b'\n') || b == 0x7f);
    for source in ["esc.jml", "esc.toml", "pattern=3;title=A\u{1b}[31mB\u{7}C"] {
        for args in [
            &["pose", source][..],
            &["pose", source, "--json"],
            &["check", source],
            &["check", source, "--json"],
            &["list", source],
            &["list", source, "--json"],
            &["tojml", source],
            &[
                "export",
                source,
                "--out",
                "t.gif",
                "--size",
                "32x24",
                "--duration",
                "0.1",
                "--force",
            ],
            &["diagram", source, "--out", "d.svg", "--force"],
        ] {
            let out = juggler_in(d, args);
            assert!(!raw(&out.stdout) && !raw(&out.stderr), "{args:?}: {out:?}");
        }
        if let Ok(svg) = std::fs::read(d.join("d.svg")) {
            assert!(!raw(&svg), "{source}: SVG");
        }
    }
}

/// Issue 27, modifiers class: `convert 5B --out x.jif` wrote a plain 5 (JIF has no bounce or
/// hold) and `tojml 3~2` a plain 3 (a JML throw has no spin), exit 0; a format that cannot
/// hold a modifier now says so (exit 1, nothing written), and the formats that can keep it.
#[test]
fn modifiers_are_never_dropped_by_writers() {
    let dir = tempfile::tempdir().unwrap();
    for (args, message) in [
        (
            &["convert", "5B", "--out", "x.jif"][..],
            "5B: pattern '5B' has the throw modifier 'B' (beat 1), and a JIF file cannot hold it; write it to .jml or .toml",
        ),
        (
            &["convert", "3 4H2", "--out", "x.jif"],
            "has the throw modifier 'H' (beat 2), and a JIF file cannot hold it",
        ),
        (
            &["convert", "(4B,4)", "--out", "x.jif"],
            "has the throw modifier 'B' (beat 1), and a JIF file cannot hold it",
        ),
        (
            &["tojml", "3~2"],
            "3~2: pattern '3~2' has the throw modifier '~2' (beat 1), and a JML file cannot hold it; write it to .jif or .toml",
        ),
        (
            &["convert", "53~01", "--out", "x.jml"],
            "has the throw modifier '~0' (beat 2), and a JML file cannot hold it",
        ),
    ] {
        let out = juggler_in(dir.path(), args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(text(&out.stderr).contains(message), "{args:?}: {}", text(&out.stderr));
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(!dir.path().join("x.jif").exists() && !dir.path().join("x.jml").exists());
    }
    // Where the format holds the modifier it is kept: JML bounces, JIF spins, TOML text.
    let out = juggler_in(dir.path(), &["tojml", "5B"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stdout).matches("type=\"bounce\"").count(), 2);
    let out = juggler_in(dir.path(), &["convert", "3~2", "--format", "jif"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stdout).matches("\"spins\": 2").count(), 6);
    let out = juggler_in(dir.path(), &["convert", "3 4H2", "--format", "toml"]);
    assert_eq!(text(&out.stdout), "siteswap = \"3 4H2\"\n");
}

/// Issue 27, escaping class: a pattern name holding C1 (U+009B, a terminal's CSI), DEL or a
/// bidi override reached the terminal raw through `list --json`, `check --json`, JIF and
/// TOML output (serde_json and the TOML writer escape only C0); every output now escapes it.
#[test]
fn output_escaping_reaches_no_control_character_raw() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("e.toml"),
        "[[pattern]]\nname = \"a\\u001b[31m\\u009b\\u007f\\u202e'\\\"<&>\"\nsiteswap = \"3\"\n",
    )
    .unwrap();
    let raw = |s: &str| {
        s.chars()
            .filter(|&c| (c.is_control() && c != '\n') || ('\u{202a}'..='\u{202e}').contains(&c))
            .count()
    };
    for args in [
        &["list", "e.toml", "--json"][..],
        &["list", "e.toml"],
        &["check", "e.toml", "--json"],
        &["check", "--json", "pattern=3;title=a\u{9b}\u{202e}"],
        &["check", "--json", "3\u{9b}"],
        &["pose", "e.toml"],
        &["convert", "e.toml", "--format", "jif"],
        &["convert", "e.toml", "--format", "toml"],
        &["tojml", "e.toml"],
    ] {
        let out = juggler_in(dir.path(), args);
        let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
        assert!(!stdout.is_empty(), "{args:?}: {stderr}");
        assert_eq!(raw(&stdout), 0, "{args:?}: {stdout:?}");
        assert_eq!(raw(&stderr), 0, "{args:?}: {stderr:?}");
    }
    let out = juggler_in(dir.path(), &["list", "e.toml", "--json"]);
    assert!(text(&out.stdout).contains(r#""name":"a\u001b[31m\u009b\u007f\u202e'\"<&>""#));
    // The TOML written reads back to the same name.
    let out = juggler_in(dir.path(), &["convert", "e.toml", "--out", "back.toml"]);
    assert_eq!(out.status.code(), Some(0));
    let out = juggler_in(dir.path(), &["list", "back.toml", "--json"]);
    assert!(text(&out.stdout).contains(r#""name":"a\u001b[31m\u009b\u007f\u202e'\"<&>""#));
}

/// Issue 27, hang class (found by the `pipeline` fuzz target): a 57-prop multiplex of 30s,
/// `[15uuu…upg]` (1667 props, every flight overlapping 60 copies of every other), spent
/// 40 s in the flight-lane search; the search now has a work budget and the rest keep their
/// own lanes (2 s alone). Killed after 60 s (a loaded machine), as a hang.
#[test]
fn fuzz_hang_flight_lanes_of_a_huge_multiplex_are_budgeted() {
    let dir = tempfile::tempdir().unwrap();
    let pattern = format!("[15{}pg]", "u".repeat(54));
    let child = Command::new(env!("CARGO_BIN_EXE_juggler"))
        .args(["pose", &pattern])
        .current_dir(dir.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let id = child.id();
    // Output is read while it runs (1667 prop lines fill a pipe).
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || send.send(child.wait_with_output().unwrap()));
    let Ok(out) = receive.recv_timeout(std::time::Duration::from_secs(60)) else {
        unsafe { libc::kill(id as i32, libc::SIGKILL) };
        panic!("pose {pattern} still running after 60 s");
    };
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("\n  1667 ball ("),
        "{}",
        text(&out.stdout)
    );
}
