//! The window's typing rule, library list, browsing and panels, driven through the binary
//! with `--keys` (keys replayed before the screenshot) under a display (Xvfb when there is
//! none): a name typed into a playing window plays exactly what the command line plays, a
//! pattern picked from the list and PageDown after a typed pattern reach the right patterns,
//! and at phone and small desktop sizes the panels leave the juggler in view.

use crate::window_support;

use std::path::Path;

use window_support::{run_on_display, Image, PANEL_LEFT, VIEW_BOTTOM, VIEW_TOP};

/// Skin colour of the figures (`render::style`): only the juggler has it.
const SKIN: [u8; 3] = [234, 189, 154];
/// Background of the help and library panels (`app::ui`).
const SIDE_BG: [u8; 3] = [22, 26, 33];

fn shot(dir: &Path, name: &str, args: &[&str]) -> Image {
    let path = dir.join(format!("{name}.png"));
    let mut all: Vec<&str> = args.to_vec();
    let path_text = path.to_str().expect("utf-8 path").to_string();
    all.extend(["--screenshot", &path_text, "--at", "0.3", "--force"]);
    let out = run_on_display(&all);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
    Image::read(&path)
}

fn count_near(image: &Image, colour: [u8; 3], tolerance: u8) -> usize {
    image
        .pixels
        .iter()
        .filter(|p| (0..3).all(|i| p[i].abs_diff(colour[i]) <= tolerance))
        .count()
}

#[test]
fn names_with_shortcut_letters_typed_into_the_window_play_in_full() {
    let dir = tempfile::tempdir().expect("temp dir");
    for (i, name) in ["Rubenstein's Revenge", "High-low shower"]
        .iter()
        .enumerate()
    {
        let direct = shot(dir.path(), &format!("direct{i}"), &[name]);
        let keys = format!("{name}{{Enter}}");
        let typed = shot(dir.path(), &format!("typed{i}"), &["3", "--keys", &keys]);
        let (w, h) = (direct.width, direct.height);
        assert_eq!(
            direct.count_different(&typed, 0, 0, w, h),
            0,
            "typing {name:?} into a window playing 3 differs from opening it"
        );
    }
}

#[test]
fn library_picks_and_page_down_after_a_typed_pattern() {
    let dir = tempfile::tempdir().expect("temp dir");
    // Pick Rubenstein's Revenge (tricks3) from the list, type 531, then PageDown: the pattern
    // after Rubenstein's Revenge in tricks3.toml, 612, as if picked from the list itself.
    let browsed = shot(
        dir.path(),
        "browsed",
        &[
            "3",
            "--keys",
            "{Ctrl+L}rubenstein{Enter}{Esc}531{Enter}{PageDown}",
        ],
    );
    let picked = shot(
        dir.path(),
        "picked",
        &["3", "--keys", "{Ctrl+L}612{Enter}{Esc}"],
    );
    let (w, h) = (browsed.width, browsed.height);
    assert_eq!(browsed.count_different(&picked, 0, 0, w, h), 0);
    // And that is not what 531 looks like.
    let typed = shot(dir.path(), "typed", &["531"]);
    assert!(browsed.count_different(&typed, 0, VIEW_TOP, PANEL_LEFT, VIEW_BOTTOM) > 500);
}

#[test]
fn panels_leave_the_juggler_in_view_at_small_sizes() {
    let dir = tempfile::tempdir().expect("temp dir");
    for size in ["500x400", "390x844"] {
        let (w, h) = size.split_once('x').unwrap();
        let (w, h): (usize, usize) = (w.parse().unwrap(), h.parse().unwrap());
        let plain = shot(dir.path(), &format!("plain{size}"), &["3", "--size", size]);
        assert_eq!((plain.width, plain.height), (w, h));
        let skin_plain = count_near(&plain, SKIN, 3);
        assert!(skin_plain > 300, "{size}: {skin_plain} skin pixels");
        for keys in ["{F1}{Ctrl+D}", "{Ctrl+L}{Ctrl+D}"] {
            let image = shot(
                dir.path(),
                &format!("panels{size}"),
                &["3", "--size", size, "--keys", keys],
            );
            assert_eq!((image.width, image.height), (w, h));
            // The panel is there (a fifth of the window or more) and so is the juggler.
            let panel = count_near(&image, SIDE_BG, 2);
            assert!(panel > w * h / 5, "{size} {keys}: panel {panel} pixels");
            let skin = count_near(&image, SKIN, 3);
            assert!(
                skin * 8 > skin_plain,
                "{size} {keys}: {skin} skin pixels, {skin_plain} without panels"
            );
        }
    }
}

#[test]
fn a_click_on_a_throw_of_the_diagram_rings_its_prop_and_esc_clears_it() {
    // The yellow of the highlight ring (`app::ui`).
    const RING: [u8; 3] = [255, 235, 77];
    let dir = tempfile::tempdir().expect("temp dir");
    // 531 at 1280x720: the diagram strip is y 520..656; the throw of beat 0 (a 5 from the
    // right hand) starts at the top rail's first column.
    let on_throw = "{Ctrl+D}{click 118 555}";
    let lit = shot(dir.path(), "lit", &["531", "--keys", on_throw]);
    let rings = count_near(&lit, RING, 12);
    assert!(rings > 40, "{rings} ring pixels");
    // The ring is in the view, around a prop (not in the diagram or the bars).
    let in_view = (VIEW_TOP..520)
        .flat_map(|y| (0..PANEL_LEFT).map(move |x| (x, y)))
        .filter(|&(x, y)| {
            lit.at(x, y)
                .iter()
                .zip(RING)
                .all(|(a, b)| a.abs_diff(b) <= 12)
        })
        .count();
    assert!(in_view > 40, "{in_view} ring pixels in the view");
    for (name, keys) in [
        ("cleared", format!("{on_throw}{{Esc}}")),
        ("missed", "{Ctrl+D}{click 700 530}".to_string()),
        ("closed", "{click 700 530}".to_string()),
    ] {
        let image = shot(dir.path(), name, &["531", "--keys", &keys]);
        assert_eq!(count_near(&image, RING, 12), 0, "{keys}");
    }
}

#[test]
fn bad_key_scripts_and_sizes_are_usage_errors() {
    for args in [
        ["3", "--keys", "{Hyper}"],
        ["3", "--keys", "{Enter"],
        ["3", "--size", "50x50"],
        ["3", "--size", "big"],
    ] {
        let out = run_on_display(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("--keys") || stderr.contains("--size"),
            "{stderr}"
        );
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}
