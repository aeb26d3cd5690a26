//! End-to-end tests of the export formats (MP4, WebM, animated PNG, GIF timing), the loop
//! length rule, file modes, interruption and `--force` safety. Video tests need `ffmpeg` and
//! `ffprobe` (CI installs them); without them they print a note and pass.

use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_juggler");
const RING20: &str = "<3p|3p|3p|3p|3p|3p|3p|3p|3p|3p|3p|3p|3p|3p|3p|3p|3p|3p|3p|3p>";

fn juggler(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("run juggler")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn ok(out: &Output) -> String {
    assert!(out.status.success(), "{}", text(&out.stderr));
    text(&out.stdout)
}

/// The frame count in a summary line (`..: 62 frames, ...`).
fn frames_in(summary: &str) -> usize {
    let before = summary.split(" frames,").next().unwrap();
    before.rsplit(' ').next().unwrap().parse().unwrap()
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    v.sort();
    v
}

fn have(tool: &str) -> bool {
    let found = Command::new(tool)
        .arg("-version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !found {
        // In CI (`.ci/run` sets JUGGLER_CI) a missing tool fails the test instead of skipping it.
        assert!(
            std::env::var_os("JUGGLER_CI").is_none(),
            "{tool} is not installed, and CI needs it (./scripts/setup.sh installs ffmpeg)"
        );
        println!("note: {tool} is not installed; skipping this check (apt-get install ffmpeg)");
    }
    found
}

/// `ffprobe` facts of the first video stream: key=value pairs.
fn probe(path: &Path) -> std::collections::HashMap<String, String> {
    let out = Command::new("ffprobe")
        .args([
            "-v",
            "error",
            "-count_frames",
            "-select_streams",
            "v:0",
            "-show_entries",
            "stream=codec_name,pix_fmt,width,height,r_frame_rate,nb_read_frames:format=duration",
            "-of",
            "default=noprint_wrappers=1",
        ])
        .arg(path)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    text(&out.stdout)
        .lines()
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

mod video {
    use super::*;

    #[test]
    fn mp4_is_h264_yuv420p_with_exact_frames_rate_and_duration() {
        if !have("ffmpeg") || !have("ffprobe") {
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("clip.mp4");
        let summary = ok(&juggler(&[
            "export",
            "3",
            "--out",
            out.to_str().unwrap(),
            "--size",
            "160x120",
            "--fps",
            "25",
            "--duration",
            "1.2",
        ]));
        assert!(summary.contains("wrote MP4"), "{summary}");
        assert_eq!(frames_in(&summary), 30);
        let p = probe(&out);
        assert_eq!(p["codec_name"], "h264");
        assert_eq!(p["pix_fmt"], "yuv420p");
        assert_eq!((p["width"].as_str(), p["height"].as_str()), ("160", "120"));
        assert_eq!(p["r_frame_rate"], "25/1");
        assert_eq!(p["nb_read_frames"], "30");
        let duration: f64 = p["duration"].parse().unwrap();
        assert!((duration - 1.2).abs() < 0.002, "{duration}");
        assert_eq!(names(dir.path()), ["clip.mp4"], "no staging left");
    }

    #[test]
    fn webm_is_vp9_with_exact_frames_rate_and_duration_of_one_loop() {
        if !have("ffmpeg") || !have("ffprobe") {
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("clip.webm");
        let summary = ok(&juggler(&[
            "export",
            "531",
            "--out",
            out.to_str().unwrap(),
            "--size",
            "96x72",
            "--fps",
            "24",
            "--crf",
            "40",
        ]));
        let frames = frames_in(&summary);
        let p = probe(&out);
        assert_eq!(p["codec_name"], "vp9");
        assert_eq!(p["r_frame_rate"], "24/1");
        assert_eq!(p["nb_read_frames"], frames.to_string());
        let duration: f64 = p["duration"].parse().unwrap();
        assert!(
            (duration - frames as f64 / 24.0).abs() < 0.002,
            "{duration} s for {frames} frames"
        );
    }

    #[test]
    fn odd_video_sizes_and_bad_crf_are_refused_before_any_work() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("a.mp4");
        let run = juggler(&[
            "export",
            "3",
            "--out",
            out.to_str().unwrap(),
            "--size",
            "401x450",
        ]);
        assert_eq!(run.status.code(), Some(2));
        assert!(
            text(&run.stderr).contains("use --size 402x450"),
            "{}",
            text(&run.stderr)
        );
        let run = juggler(&["export", "3", "--out", out.to_str().unwrap(), "--crf", "52"]);
        assert_eq!(run.status.code(), Some(2));
        assert!(
            text(&run.stderr).contains("0 (best) to 51"),
            "{}",
            text(&run.stderr)
        );
        let gif = dir.path().join("a.gif");
        let run = juggler(&["export", "3", "--out", gif.to_str().unwrap(), "--crf", "20"]);
        assert_eq!(run.status.code(), Some(2));
        assert!(names(dir.path()).is_empty());
    }

    #[test]
    fn missing_ffmpeg_is_one_line_naming_the_package_and_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("a.mp4");
        let run = Command::new(BIN)
            .args([
                "export",
                "3",
                "--out",
                out.to_str().unwrap(),
                "--size",
                "64x48",
            ])
            .env("JUGGLER_FFMPEG", dir.path().join("no-such-ffmpeg"))
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(2));
        let err = text(&run.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains("Debian package 'ffmpeg'"), "{err}");
        assert!(names(dir.path()).is_empty(), "{:?}", names(dir.path()));
    }

    #[test]
    fn other_media_extensions_are_refused_not_made_directories() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["a.mov", "b.jpg", "c.mkv"] {
            let out = dir.path().join(name);
            let run = juggler(&["export", "3", "--out", out.to_str().unwrap()]);
            assert_eq!(run.status.code(), Some(2), "{name}");
            assert!(
                text(&run.stderr).contains("cannot write ."),
                "{}",
                text(&run.stderr)
            );
        }
        assert!(names(dir.path()).is_empty());
        // A pattern file's name: told to convert, nothing made.
        for name in ["a.jml", "b.toml"] {
            let out = dir.path().join(name);
            let run = juggler(&["export", "3", "--out", out.to_str().unwrap()]);
            assert_eq!(run.status.code(), Some(2), "{name}");
            let err = text(&run.stderr);
            assert!(err.contains("juggler convert"), "{err}");
        }
        assert!(names(dir.path()).is_empty());
    }
}

mod animated_png {
    use super::*;

    #[test]
    fn png_output_is_one_looping_animated_png_never_a_directory() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("pic.png");
        let summary = ok(&juggler(&[
            "export",
            "3",
            "--out",
            out.to_str().unwrap(),
            "--size",
            "80x60",
            "--fps",
            "30",
        ]));
        assert!(out.is_file());
        let frames = frames_in(&summary);
        assert_eq!(frames, 62, "2.069 s at 30 fps");
        let decoder =
            png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&out).unwrap()));
        let mut reader = decoder.read_info().unwrap();
        let control = reader.info().animation_control.unwrap();
        assert_eq!((control.num_frames, control.num_plays), (62, 0));
        let mut buf = vec![0; reader.output_buffer_size()];
        let mut total_ms = 0u32;
        let mut decoded = 0;
        // Compose the frames and compare each with the PNG frame sequence of the same export.
        let frames_dir = dir.path().join("frames");
        ok(&juggler(&[
            "export",
            "3",
            "--out",
            frames_dir.to_str().unwrap(),
            "--size",
            "80x60",
            "-q",
        ]));
        let mut canvas = vec![0u8; 80 * 60 * 3];
        let mut partial = 0;
        for i in 0..62 {
            let info = reader.next_frame(&mut buf).unwrap();
            assert_eq!(info.color_type, png::ColorType::Rgb);
            let fc = reader.info().frame_control.unwrap();
            assert_eq!(fc.delay_den, 1000);
            assert_eq!(fc.dispose_op, png::DisposeOp::None);
            total_ms += fc.delay_num as u32;
            let (fw, fh) = (fc.width as usize, fc.height as usize);
            if fw * fh < 80 * 60 {
                partial += 1;
            }
            for y in 0..fh {
                let to = 3 * ((y + fc.y_offset as usize) * 80 + fc.x_offset as usize);
                canvas[to..to + 3 * fw].copy_from_slice(&buf[3 * y * fw..3 * (y + 1) * fw]);
            }
            let want = std::fs::read(frames_dir.join(format!("frame_{i:05}.png"))).unwrap();
            let mut frame_reader = png::Decoder::new(std::io::Cursor::new(want))
                .read_info()
                .unwrap();
            let mut pixels = vec![0; frame_reader.output_buffer_size()];
            frame_reader.next_frame(&mut pixels).unwrap();
            assert!(canvas == pixels, "frame {i} differs from the PNG frame");
            decoded += 1;
        }
        assert_eq!(decoded, 62);
        assert!(
            partial >= 50,
            "later frames store only what changed ({partial} of 61)"
        );
        // 6 beats at 2.9 beats per second: 2068.97 ms.
        assert_eq!(total_ms, 2069);
    }

    #[test]
    fn a_one_frame_png_is_a_still_image() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("still.apng");
        let summary = ok(&juggler(&[
            "export",
            "3",
            "--out",
            out.to_str().unwrap(),
            "--size",
            "64x48",
            "--duration",
            "0.01",
        ]));
        assert_eq!(frames_in(&summary), 1);
        let decoder =
            png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&out).unwrap()));
        let reader = decoder.read_info().unwrap();
        assert!(reader.info().animation_control.is_none());
        assert_eq!((reader.info().width, reader.info().height), (64, 48));
    }
}

mod timing_and_loops {
    use super::*;

    fn gif_delays(path: &Path) -> Vec<u16> {
        let mut options = gif::DecodeOptions::new();
        options.set_color_output(gif::ColorOutput::Indexed);
        let mut reader = options
            .read_info(std::fs::File::open(path).unwrap())
            .unwrap();
        let mut delays = Vec::new();
        while let Some(frame) = reader.read_next_frame().unwrap() {
            delays.push(frame.delay);
        }
        delays
    }

    #[test]
    fn gif_delays_alternate_and_sum_to_the_animation_length() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("a.gif");
        ok(&juggler(&[
            "export",
            "3",
            "--out",
            out.to_str().unwrap(),
            "--size",
            "64x48",
        ]));
        let delays = gif_delays(&out);
        assert_eq!(delays.len(), 62);
        assert_eq!(&delays[..6], &[3, 3, 4, 3, 3, 4]);
        // 2.069 s: 207 hundredths.
        assert_eq!(delays.iter().map(|&d| d as u32).sum::<u32>(), 207);
    }

    #[test]
    fn props_alike_export_one_period_of_the_picture_not_the_prop_permutation() {
        let dir = tempfile::tempdir().unwrap();
        // One colour: every prop looks the same. 20 jugglers, 2 beats at 2.9 bps = 0.69 s.
        let one = dir.path().join("ring.gif");
        let spec = format!("pattern={RING20};colors=red");
        let summary = ok(&juggler(&[
            "export",
            &spec,
            "--out",
            one.to_str().unwrap(),
            "--size",
            "64x48",
        ]));
        assert_eq!(frames_in(&summary), 21, "{summary}");
        assert!(
            summary.contains("every prop is back in its own place after 20.69 s"),
            "{summary}"
        );
        // Coloured by orbit: the same.
        let by_orbit = dir.path().join("orbit.gif");
        let summary = ok(&juggler(&[
            "export",
            "3",
            "--color-by-orbit",
            "--out",
            by_orbit.to_str().unwrap(),
            "--size",
            "64x48",
        ]));
        assert_eq!(frames_in(&summary), 21, "{summary}");
        // Per-prop colours: the full loop (3 props: 6 beats).
        let own = dir.path().join("own.gif");
        let summary = ok(&juggler(&[
            "export",
            "3",
            "--out",
            own.to_str().unwrap(),
            "--size",
            "64x48",
        ]));
        assert_eq!(frames_in(&summary), 62, "{summary}");
        // --loops counts picture loops.
        let two = dir.path().join("two.gif");
        let summary = ok(&juggler(&[
            "export",
            &spec,
            "--loops",
            "2",
            "--out",
            two.to_str().unwrap(),
            "--size",
            "32x32",
            "-q",
        ]));
        assert!(summary.is_empty());
        assert_eq!(gif_delays(&two).len(), 41);
    }

    #[test]
    fn a_default_loop_longer_than_ten_seconds_says_so() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("seven.gif");
        let summary = ok(&juggler(&[
            "export",
            "<3p|3p|3p|3p|3p|3p|3p>",
            "--out",
            out.to_str().unwrap(),
            "--size",
            "32x32",
            "--fps",
            "10",
        ]));
        assert!(summary.contains("the loop lasts 14.48 s"), "{summary}");
        assert!(summary.contains("--loops or --duration"), "{summary}");
        let short = dir.path().join("short.gif");
        let summary = ok(&juggler(&[
            "export",
            "<3p|3p|3p|3p|3p|3p|3p>",
            "--duration",
            "1",
            "--out",
            short.to_str().unwrap(),
            "--size",
            "32x32",
        ]));
        assert!(!summary.contains("loop lasts"), "{summary}");
    }
}

mod files_and_signals {
    use super::*;

    /// Run juggler under `umask 027` and return the output.
    fn with_umask(args: &[&str]) -> Output {
        let mut command = String::from("umask 027; exec \"$0\"");
        for (i, _) in args.iter().enumerate() {
            command.push_str(&format!(" \"${}\"", i + 1));
        }
        Command::new("sh")
            .arg("-c")
            .arg(command)
            .arg(BIN)
            .args(args)
            .output()
            .unwrap()
    }

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn gif_export_gets_umask_mode() {
        let dir = tempfile::tempdir().unwrap();
        let gif = dir.path().join("a.gif");
        ok(&with_umask(&[
            "export",
            "3",
            "--out",
            gif.to_str().unwrap(),
            "--size",
            "32x32",
        ]));
        assert_eq!(mode(&gif), 0o640);
        let png = dir.path().join("a.png");
        ok(&with_umask(&[
            "export",
            "3",
            "--out",
            png.to_str().unwrap(),
            "--size",
            "32x32",
        ]));
        assert_eq!(mode(&png), 0o640);
        let frames = dir.path().join("frames");
        ok(&with_umask(&[
            "export",
            "3",
            "--out",
            frames.to_str().unwrap(),
            "--size",
            "32x32",
            "--duration",
            "0.1",
        ]));
        assert_eq!(mode(&frames), 0o750);
        assert_eq!(mode(&frames.join("frame_00000.png")), 0o640);
        if have("ffmpeg") {
            let mp4 = dir.path().join("a.mp4");
            ok(&with_umask(&[
                "export",
                "3",
                "--out",
                mp4.to_str().unwrap(),
                "--size",
                "32x32",
            ]));
            assert_eq!(mode(&mp4), 0o640);
        }
    }

    /// Start a long export and wait until its staging entry exists.
    fn start_long(dir: &Path, out: &Path, extra: &[&str]) -> Child {
        let child = Command::new(BIN)
            .args([
                "export",
                "531",
                "--out",
                out.to_str().unwrap(),
                "--size",
                "320x240",
            ])
            .args(["--duration", "200", "-q"])
            .args(extra)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let began = Instant::now();
        while !hidden(dir)
            .iter()
            .any(|n| n.starts_with(".juggler-export-"))
        {
            assert!(
                began.elapsed() < Duration::from_secs(20),
                "no staging appeared"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
        // Let it write some frames.
        std::thread::sleep(Duration::from_millis(300));
        child
    }

    fn hidden(dir: &Path) -> Vec<String> {
        names(dir)
            .into_iter()
            .filter(|n| n.starts_with('.'))
            .collect()
    }

    fn signal(child: &Child, signal: i32) {
        let pid = libc::pid_t::try_from(child.id()).unwrap();
        // SAFETY: kill(2) on our own child.
        assert_eq!(unsafe { libc::kill(pid, signal) }, 0);
    }

    fn interrupt_leaves_nothing(name: &str, sig: i32) {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join(name);
        let mut child = start_long(dir.path(), &out, &[]);
        signal(&child, sig);
        let status = child.wait().unwrap();
        assert_eq!(status.signal(), Some(sig), "{status:?}");
        assert!(names(dir.path()).is_empty(), "{:?}", names(dir.path()));
    }

    #[test]
    fn sigint_during_export_leaves_no_staging() {
        interrupt_leaves_nothing("a.gif", libc::SIGINT);
        interrupt_leaves_nothing("frames", libc::SIGINT);
    }

    #[test]
    fn sigterm_during_video_export_leaves_no_staging() {
        interrupt_leaves_nothing("a.png", libc::SIGTERM);
        if have("ffmpeg") {
            interrupt_leaves_nothing("a.mp4", libc::SIGTERM);
        }
    }

    #[test]
    fn sigkill_staging_is_hidden_and_removed_by_the_next_export() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("a.gif");
        let mut child = start_long(dir.path(), &out, &[]);
        signal(&child, libc::SIGKILL);
        child.wait().unwrap();
        let left = names(dir.path());
        assert!(
            !left.is_empty() && left.iter().all(|n| n.starts_with(".juggler-export-")),
            "{left:?}"
        );
        ok(&juggler(&[
            "export",
            "3",
            "--out",
            out.to_str().unwrap(),
            "--size",
            "32x32",
        ]));
        assert_eq!(names(dir.path()), ["a.gif"]);
    }

    #[test]
    fn force_frames_reexport_killed_midway_keeps_the_old_sequence_whole() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("frames");
        let o = out.to_str().unwrap();
        ok(&juggler(&[
            "export",
            "3",
            "--out",
            o,
            "--size",
            "32x32",
            "--duration",
            "0.5",
        ]));
        std::fs::write(out.join("notes.txt"), b"mine").unwrap();
        let before: Vec<(String, Vec<u8>)> = names(&out)
            .into_iter()
            .map(|n| (n.clone(), std::fs::read(out.join(&n)).unwrap()))
            .collect();
        assert_eq!(before.len(), 16);
        let mut child = start_long(dir.path(), &out, &["--force"]);
        signal(&child, libc::SIGKILL);
        child.wait().unwrap();
        let after: Vec<(String, Vec<u8>)> = names(&out)
            .into_iter()
            .map(|n| (n.clone(), std::fs::read(out.join(&n)).unwrap()))
            .collect();
        assert_eq!(after, before, "old sequence untouched");
        // A complete --force re-export: exactly the new sequence, other files kept, and the
        // killed run's staging cleaned.
        ok(&juggler(&[
            "export",
            "3",
            "--out",
            o,
            "--size",
            "32x32",
            "--duration",
            "0.2",
            "--force",
        ]));
        let mut want: Vec<String> = (0..6).map(|i| format!("frame_{i:05}.png")).collect();
        want.push("notes.txt".into());
        assert_eq!(names(&out), want);
        assert_eq!(std::fs::read(out.join("notes.txt")).unwrap(), b"mine");
        assert_eq!(names(dir.path()), ["frames"]);
    }

    #[test]
    fn frames_into_a_linked_directory_keep_the_link() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real");
        std::fs::create_dir(&real).unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        ok(&juggler(&[
            "export",
            "3",
            "--out",
            link.to_str().unwrap(),
            "--size",
            "32x32",
            "--duration",
            "0.1",
        ]));
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(
            names(&real),
            ["frame_00000.png", "frame_00001.png", "frame_00002.png"]
        );
        assert_eq!(names(dir.path()), ["link", "real"]);
    }

    #[test]
    fn force_replaces_only_regular_files_never_devices_or_directories() {
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("null.gif");
        std::os::unix::fs::symlink("/dev/null", &link).unwrap();
        let fifo = dir.path().join("pipe.mp4");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a valid path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
        let as_dir = dir.path().join("d.png");
        std::fs::create_dir(&as_dir).unwrap();
        for (out, message) in [
            (&link, "not a regular file"),
            (&fifo, "not a regular file"),
            (&as_dir, "is a directory"),
        ] {
            let run = juggler(&[
                "export",
                "3",
                "--out",
                out.to_str().unwrap(),
                "--force",
                "--size",
                "32x32",
            ]);
            assert_eq!(run.status.code(), Some(2), "{out:?}");
            assert!(text(&run.stderr).contains(message), "{}", text(&run.stderr));
        }
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert!(Path::new("/dev/null").metadata().is_ok());
        assert!(as_dir.is_dir());
        // A regular file is replaced with --force.
        let gif = dir.path().join("old.gif");
        std::fs::write(&gif, b"old").unwrap();
        ok(&juggler(&[
            "export",
            "3",
            "--out",
            gif.to_str().unwrap(),
            "--force",
            "--size",
            "32x32",
        ]));
        assert_eq!(&std::fs::read(&gif).unwrap()[..6], b"GIF89a");
        let _: PathBuf = gif;
    }
}
