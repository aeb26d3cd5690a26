//! Without a display the window does not panic: one line explaining why, a hint to use
//! `juggler export`, exit code 2. An invalid pattern is reported before any window opens.

use std::process::Command;

fn juggler(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_juggler"));
    c.args(args)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY");
    c
}

#[test]
fn no_display_prints_one_line_suggesting_export_and_exits_2() {
    for args in [
        &["3"][..],
        &[][..],
        &["531", "--screenshot", "never.png"][..],
        &["show", "3"][..],
    ] {
        let out = juggler(args).output().expect("run juggler");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains("no display"), "{stderr}");
        assert!(stderr.contains("juggler export"), "{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
    assert!(!std::path::Path::new("never.png").exists());
}

#[test]
fn unreachable_x_display_is_reported_without_a_panic() {
    let out = juggler(&["3"])
        .env("DISPLAY", ":987")
        .output()
        .expect("run juggler");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("cannot connect to the X display ':987'"),
        "{stderr}"
    );
    assert!(stderr.contains("juggler export"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn invalid_pattern_exits_1_with_a_caret_before_opening_a_window() {
    let out = juggler(&["5%4"]).output().expect("run juggler");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains('^'), "{stderr}");
}

#[test]
fn non_finite_screenshot_time_is_a_usage_error() {
    let out = juggler(&["3", "--screenshot", "x.png", "--at", "NaN"])
        .output()
        .expect("run juggler");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--at"));
}
