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
        "juggler: ./531: unknown pattern file type (expected .toml, .jml, .xml or .txt)\n"
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
