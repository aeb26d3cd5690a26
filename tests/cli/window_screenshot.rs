//! The window under a display (Xvfb when there is none): `--screenshot` draws exactly the
//! frame at `--at T`, with the juggler where it should be, and a different time gives a
//! different picture.

use crate::window_support;

use std::path::{Path, PathBuf};

use window_support::{run_on_display, Image, HEIGHT, PANEL_LEFT, VIEW_BOTTOM, VIEW_TOP, WIDTH};

fn screenshot(dir: &Path, pattern: &str, at: f64) -> Image {
    let path: PathBuf = dir.join(format!("shot-{}-{at}.png", pattern.len()));
    let at = at.to_string();
    let out = run_on_display(&[
        pattern,
        "--screenshot",
        path.to_str().expect("utf-8 path"),
        "--at",
        &at,
        // Some tests take the same frame twice: replacing it needs --force.
        "--force",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{pattern} at {at}: {stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("saved 1280x720 screenshot"), "{stdout}");
    let image = Image::read(&path);
    assert_eq!((image.width, image.height), (WIDTH, HEIGHT));
    image
}

/// Checks the picture is not blank and that the jugglers are where the default camera puts
/// them; returns the number of juggler pixels in the viewport.
fn assert_jugglers_drawn(image: &Image, pattern: &str, jugglers: usize) {
    let bg = image.dominant(0, VIEW_TOP, WIDTH, VIEW_BOTTOM);
    // Figures stand in the middle of the view; the facts panel is in the bottom-right corner
    // (x from PANEL_LEFT on), so look left of it.
    let (top, bottom) = (VIEW_TOP, VIEW_BOTTOM);
    let third = WIDTH / 3;
    let left = image.count_unlike(bg, 0, top, third, bottom);
    let centre = image.count_unlike(bg, third, top, 2 * third, bottom);
    let right = image.count_unlike(bg, 2 * third, top, PANEL_LEFT, bottom);
    let total = left + centre + right;
    assert!(total > 5_000, "{pattern}: only {total} juggler pixels");
    if jugglers == 1 {
        assert!(
            centre > 4 * (left + right),
            "{pattern}: solo juggler off centre: {left} {centre} {right}"
        );
    } else {
        let left_half = image.count_unlike(bg, 0, top, WIDTH / 2, bottom);
        let right_half = image.count_unlike(bg, WIDTH / 2, top, PANEL_LEFT, bottom);
        assert!(
            left_half > 2_000 && right_half > 2_000,
            "{pattern}: {left_half} | {right_half}"
        );
    }
    // The controls are drawn too: the top bar is dark, not the frame's background.
    let bar = image.at(WIDTH / 2, 4);
    assert!(bar.iter().all(|&c| c < 80), "{pattern}: top bar {bar:?}");
}

fn check(pattern: &str, jugglers: usize) {
    let dir = tempfile::tempdir().expect("temp dir");
    let early = screenshot(dir.path(), pattern, 0.0);
    assert_jugglers_drawn(&early, pattern, jugglers);
    let later = screenshot(dir.path(), pattern, 0.37);
    assert_jugglers_drawn(&later, pattern, jugglers);
    let moved = early.count_different(&later, 0, VIEW_TOP, WIDTH, VIEW_BOTTOM);
    assert!(
        moved > 200,
        "{pattern}: t=0 and t=0.37 differ in only {moved} pixels"
    );
    // Exactly frame T: the same time gives the same picture.
    let again = screenshot(dir.path(), pattern, 0.37);
    assert_eq!(
        later.count_different(&again, 0, 0, WIDTH, HEIGHT),
        0,
        "{pattern}: not repeatable"
    );
}

#[test]
fn three_ball_cascade() {
    check("3", 1);
}

#[test]
fn synchronous_fountain() {
    check("(4,4)", 1);
}

#[test]
fn two_juggler_passing() {
    check("<3p|3p>", 2);
}

#[test]
fn pattern_files_and_settings_strings_open_too() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/patterns/clubs.toml");
    let image = screenshot(dir.path(), file, 0.2);
    assert_jugglers_drawn(&image, file, 1);
    let settings = "pattern=<3p|3p>;bps=3";
    let image = screenshot(dir.path(), settings, 0.2);
    assert_jugglers_drawn(&image, settings, 2);
}

#[test]
fn unwritable_screenshot_path_is_an_error_not_a_panic() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("no/such/dir/shot.png");
    let out = run_on_display(&["3", "--screenshot", path.to_str().expect("utf-8 path")]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("cannot write screenshot"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(!path.exists());
}
