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
