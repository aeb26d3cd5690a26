//! End-to-end tests of `juggler export`: the binary run on real patterns.

use std::path::Path;
use std::process::{Command, Output};

fn juggler(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_juggler"))
        .args(args)
        .output()
        .expect("run juggler")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn entries(dir: &Path) -> usize {
    std::fs::read_dir(dir).map(|d| d.count()).unwrap_or(0)
}

mod arguments {
    use super::*;

    #[test]
    fn bad_arguments_exit_2_with_a_clear_message_and_write_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let gif = dir.path().join("a.gif");
        let gif = gif.to_str().unwrap();
        let frames = dir.path().join("frames");
        let frames = frames.to_str().unwrap();
        let cases: [(&[&str], &str); 9] = [
            (
                &["3", "--out", gif, "--size", "0x480"],
                "invalid size '0x480'",
            ),
            (&["3", "--out", gif, "--size", "640"], "invalid size '640'"),
            (
                &["3", "--out", frames, "--fps", "-30"],
                "invalid frame rate -30",
            ),
            (
                &["3", "--out", frames, "--fps", "0"],
                "invalid frame rate 0",
            ),
            (&["3", "--out", gif, "--fps", "60"], "too high for a GIF"),
            (
                &["3", "--out", frames, "--duration", "-1"],
                "invalid duration -1",
            ),
            (
                &["3", "--out", frames, "--loops", "0"],
                "--loops must be at least 1",
            ),
            (
                &["3", "--out", frames, "--elevation", "120"],
                "--elevation must be between",
            ),
            (
                &["3", "--out", frames, "--distance=-2"],
                "--distance must be a positive",
            ),
        ];
        for (args, message) in cases {
            let mut full = vec!["export"];
            full.extend_from_slice(args);
            let out = juggler(&full);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
            assert!(stderr(&out).contains(message), "{args:?}: {}", stderr(&out));
        }
        assert_eq!(entries(dir.path()), 0, "nothing written");
    }

    #[test]
    fn existing_output_is_not_overwritten_without_force() {
        let dir = tempfile::tempdir().unwrap();
        let gif = dir.path().join("a.gif");
        std::fs::write(&gif, b"precious").unwrap();
        let out = juggler(&["export", "3", "--out", gif.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2));
        assert!(
            stderr(&out).contains("already exists (use --force to overwrite)"),
            "{}",
            stderr(&out)
        );
        assert_eq!(std::fs::read(&gif).unwrap(), b"precious");

        let frames = dir.path().join("frames");
        std::fs::create_dir(&frames).unwrap();
        std::fs::write(frames.join("frame_00000.png"), b"old").unwrap();
        let out = juggler(&["export", "3", "--out", frames.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2));
        assert_eq!(
            std::fs::read(frames.join("frame_00000.png")).unwrap(),
            b"old"
        );
    }

    #[test]
    fn a_gif_path_that_is_a_directory_or_in_a_missing_directory_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let as_dir = dir.path().join("x.gif");
        std::fs::create_dir(&as_dir).unwrap();
        let out = juggler(&["export", "3", "--out", as_dir.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2));
        assert!(stderr(&out).contains("is a directory"), "{}", stderr(&out));
        let missing = dir.path().join("nope").join("a.gif");
        let out = juggler(&["export", "3", "--out", missing.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2));
        assert!(stderr(&out).contains("does not exist"), "{}", stderr(&out));
    }

    #[test]
    fn loops_and_duration_conflict() {
        let dir = tempfile::tempdir().unwrap();
        let out = juggler(&[
            "export",
            "3",
            "--out",
            dir.path().join("f").to_str().unwrap(),
            "--loops",
            "2",
            "--duration",
            "1",
        ]);
        assert_eq!(out.status.code(), Some(2));
        assert_eq!(entries(dir.path()), 0);
    }
}
