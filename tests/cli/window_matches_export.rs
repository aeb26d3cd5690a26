//! A window frame and an exported frame of the same pattern, time and camera look the same:
//! both come from the same `Frame`; only the anti-aliasing of edges differs.

use crate::window_support;

use std::process::Command;

use window_support::{run_on_display, Image, PANEL_LEFT, VIEW_BOTTOM, VIEW_TOP, WIDTH};

#[test]
fn window_view_and_export_frame_agree() {
    let dir = tempfile::tempdir().expect("temp dir");
    let frames = dir.path().join("frames");
    std::fs::create_dir(&frames).expect("frame dir");
    let shot = dir.path().join("window.png");
    let size = format!("{WIDTH}x{}", VIEW_BOTTOM - VIEW_TOP);
    for pattern in ["<3p|3p>", "531"] {
        let out = Command::new(env!("CARGO_BIN_EXE_juggler"))
            .args(["export", pattern, "--out", frames.to_str().expect("utf-8")])
            .args([
                "--size",
                &size,
                "--start",
                "0.37",
                "--duration",
                "0.01",
                "--fps",
                "100",
            ])
            .args(["--force", "--quiet"])
            .output()
            .expect("run export");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let out = run_on_display(&[
            pattern,
            "--screenshot",
            shot.to_str().expect("utf-8"),
            "--at",
            "0.37",
            // The same file for every pattern: replacing it needs --force.
            "--force",
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );

        let exported = Image::read(&frames.join("frame_00000.png"));
        let window = Image::read(&shot);
        assert_eq!(
            (exported.width, exported.height),
            (WIDTH, VIEW_BOTTOM - VIEW_TOP)
        );
        let (mut total, mut far, mut n) = (0u64, 0usize, 0usize);
        for y in 0..exported.height {
            for x in 0..WIDTH {
                // The facts panel covers the bottom-right corner of the window's view.
                if x >= PANEL_LEFT && y + VIEW_TOP >= VIEW_BOTTOM - 10 - 156 {
                    continue;
                }
                let (a, b) = (window.at(x, y + VIEW_TOP), exported.at(x, y));
                let d = (0..3).map(|i| a[i].abs_diff(b[i])).max().unwrap_or(0);
                total += u64::from(d);
                far += usize::from(d > 40);
                n += 1;
            }
        }
        let mean = total as f64 / n as f64;
        let far_share = far as f64 / n as f64;
        assert!(mean < 3.0, "{pattern}: mean difference {mean:.2}");
        assert!(
            far_share < 0.02,
            "{pattern}: {:.2}% of pixels differ clearly",
            100.0 * far_share
        );
    }
}
