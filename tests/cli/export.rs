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
                "--distance must be between 0.1 and 10000 metres, not -2",
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

mod output {
    use super::*;
    use juggler::export::render_frame;
    use juggler::render::{camera_with, ViewOverrides};
    use juggler::scene::Scene;
    use juggler::spec::PatternSpec;

    fn scene(notation: &str) -> Scene {
        Scene::new(&PatternSpec::from_notation(notation)).expect("valid pattern")
    }

    fn read_png(path: &Path) -> (u32, u32, Vec<u8>) {
        let decoder =
            png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert_eq!(info.color_type, png::ColorType::Rgb);
        buf.truncate(info.buffer_size());
        (info.width, info.height, buf)
    }

    #[test]
    fn png_frames_one_loop_right_count_and_size() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("frames");
        let run = juggler(&[
            "export",
            "3",
            "--out",
            out.to_str().unwrap(),
            "--size",
            "320x240",
            "--fps",
            "20",
        ]);
        assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
        let expected = (scene("3").loop_duration() * 20.0).round() as usize;
        let mut names: Vec<String> = std::fs::read_dir(&out)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        assert_eq!(names.len(), expected);
        assert_eq!(names[0], "frame_00000.png");
        assert_eq!(
            names[expected - 1],
            format!("frame_{:05}.png", expected - 1)
        );
        let (w, h, _) = read_png(&out.join(&names[expected - 1]));
        assert_eq!((w, h), (320, 240));
        // The summary line says what was written.
        let stdout = String::from_utf8_lossy(&run.stdout);
        assert!(
            stdout.contains(&format!("{expected} frames, 320x240")),
            "{stdout}"
        );
    }

    #[test]
    fn loops_duration_and_start() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("f");
        let run = juggler(&[
            "export",
            "3",
            "-o",
            out.to_str().unwrap(),
            "--size",
            "64x48",
            "--fps",
            "10",
            "--loops",
            "2",
            "-q",
        ]);
        assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
        assert_eq!(
            entries(&out),
            (2.0 * scene("3").loop_duration() * 10.0).round() as usize
        );
        assert!(run.stdout.is_empty(), "--quiet prints nothing");

        let out = dir.path().join("g");
        let run = juggler(&[
            "export",
            "3",
            "-o",
            out.to_str().unwrap(),
            "--size",
            "64x48",
            "--fps",
            "10",
            "--duration",
            "0.55",
            "--start",
            "1.5",
        ]);
        assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
        assert_eq!(entries(&out), 6);
    }

    #[test]
    fn a_prop_is_drawn_where_the_motion_model_puts_it() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("frames");
        let (w, h) = (320u32, 240u32);
        let run = juggler(&[
            "export",
            "531",
            "--out",
            out.to_str().unwrap(),
            "--size",
            "320x240",
            "--fps",
            "10",
        ]);
        assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
        let scene = scene("531");
        // The camera the command uses: automatic framing over the loop.
        let camera = camera_with(&scene, w as f32 / h as f32, &ViewOverrides::default());
        let frames = (scene.loop_duration() * 10.0).round() as usize;
        let interval = scene.loop_duration() / frames as f64;
        let mut checked = 0;
        for i in (0..frames).step_by(3) {
            let t = i as f64 * interval;
            let pose = scene.pose_at(t);
            // The highest prop in the air is never hidden by a body.
            let Some(prop) = pose
                .props
                .iter()
                .filter(|p| p.held_by.is_none() && p.position.y > 1.9)
                .max_by(|a, b| a.position.y.total_cmp(&b.position.y))
            else {
                continue;
            };
            let (px, _) = camera.project(prop.position, w, h).expect("in view");
            let (_, _, pixels) = read_png(&out.join(format!("frame_{i:05}.png")));
            let at = 3 * (px.y as usize * w as usize + px.x as usize);
            let got = &pixels[at..at + 3];
            let c = prop.color;
            let near = |a: u8, b: u8| (a as i32 - b as i32).abs() <= 60;
            assert!(
                near(got[0], c.r) && near(got[1], c.g) && near(got[2], c.b),
                "frame {i}: {got:?} vs {c:?}"
            );
            checked += 1;
        }
        assert!(checked >= 3, "only {checked} frames had a high prop");
    }

    #[test]
    fn one_loop_gif_joins_seamlessly() {
        let dir = tempfile::tempdir().unwrap();
        let gif = dir.path().join("three.gif");
        let run = juggler(&[
            "export",
            "3",
            "--out",
            gif.to_str().unwrap(),
            "--size",
            "200x150",
        ]);
        assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
        let scene = scene("3");
        let frames = (scene.loop_duration() * 30.0).round() as usize;
        // The file: that many frames, delays adding up to the loop, looping forever.
        let mut options = gif::DecodeOptions::new();
        options.set_color_output(gif::ColorOutput::RGBA);
        let mut reader = options
            .read_info(std::fs::File::open(&gif).unwrap())
            .unwrap();
        let (mut count, mut delay) = (0usize, 0u32);
        while let Some(frame) = reader.read_next_frame().unwrap() {
            count += 1;
            delay += frame.delay as u32;
        }
        assert_eq!(count, frames);
        assert_eq!(delay as f64, (scene.loop_duration() * 100.0).round());
        assert_eq!(reader.repeat(), gif::Repeat::Infinite);
        // The frame after the last is the first again.
        let camera = camera_with(&scene, 200.0 / 150.0, &ViewOverrides::default());
        let interval = scene.loop_duration() / frames as f64;
        let first = render_frame(&scene, &camera.into(), 200, 150, 0.0).unwrap();
        let after_last =
            render_frame(&scene, &camera.into(), 200, 150, frames as f64 * interval).unwrap();
        let differing = first
            .pixels
            .iter()
            .zip(&after_last.pixels)
            .filter(|(a, b)| a.abs_diff(**b) > 2)
            .count();
        assert!(differing <= 6, "{differing} values differ");
        let last = render_frame(
            &scene,
            &camera.into(),
            200,
            150,
            (frames - 1) as f64 * interval,
        )
        .unwrap();
        assert!(last.pixels != first.pixels, "the animation moves");
    }

    #[test]
    fn force_overwrites_and_removes_stale_frames() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("frames");
        std::fs::create_dir(&out).unwrap();
        for i in 0..500 {
            std::fs::write(out.join(format!("frame_{i:05}.png")), b"old").unwrap();
        }
        std::fs::write(out.join("notes.txt"), b"mine").unwrap();
        let run = juggler(&[
            "export",
            "3",
            "-o",
            out.to_str().unwrap(),
            "--size",
            "32x24",
            "--fps",
            "5",
            "--force",
        ]);
        assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
        let frames = (scene("3").loop_duration() * 5.0).round() as usize;
        assert_eq!(entries(&out), frames + 1);
        assert_eq!(read_png(&out.join("frame_00000.png")).0, 32);
        assert_eq!(std::fs::read(out.join("notes.txt")).unwrap(), b"mine");
    }

    #[test]
    fn invalid_pattern_exits_1_before_writing() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("frames");
        let run = juggler(&["export", "54", "--out", out.to_str().unwrap()]);
        assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
        assert!(!out.exists());
    }

    /// Run the export with writes limited to `blocks` and the file-size signal ignored, so a
    /// write fails midway with "file too large".
    fn export_with_small_file_limit(args: &[&str], blocks: u32) -> Output {
        let mut command = format!(
            "trap '' XFSZ; ulimit -f {blocks}; exec '{}' export",
            env!("CARGO_BIN_EXE_juggler")
        );
        for a in args {
            command.push_str(&format!(" '{a}'"));
        }
        Command::new("sh")
            .arg("-c")
            .arg(command)
            .output()
            .expect("run sh")
    }

    #[test]
    fn a_failing_gif_export_leaves_no_file() {
        let dir = tempfile::tempdir().unwrap();
        let gif = dir.path().join("a.gif");
        let args = ["3", "--out", gif.to_str().unwrap(), "--size", "640x480"];
        let run = export_with_small_file_limit(&args, 20);
        assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
        assert!(stderr(&run).contains("cannot write"), "{}", stderr(&run));
        assert!(!gif.exists());
        assert_eq!(entries(dir.path()), 0, "no temporary file left");
    }

    #[test]
    fn a_failing_png_export_leaves_no_frame_and_no_directory() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("frames");
        let run = export_with_small_file_limit(
            &["3", "--out", out.to_str().unwrap(), "--size", "640x480"],
            20,
        );
        assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
        assert!(!out.exists(), "the directory the export created is removed");
        assert_eq!(entries(dir.path()), 0);

        // Into an existing directory with old frames and --force: the old frames survive.
        std::fs::create_dir(&out).unwrap();
        std::fs::write(out.join("frame_00000.png"), b"old").unwrap();
        let run = export_with_small_file_limit(
            &[
                "3",
                "--out",
                out.to_str().unwrap(),
                "--size",
                "640x480",
                "--force",
            ],
            20,
        );
        assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
        assert_eq!(entries(&out), 1);
        assert_eq!(std::fs::read(out.join("frame_00000.png")).unwrap(), b"old");
    }
}
