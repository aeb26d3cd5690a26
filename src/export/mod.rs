//! Headless export: a pattern's animation as PNG frames or an animated GIF, rendered with the
//! same frame description as the window (`render::build_frame`) and rasterised on the CPU
//! (`render::raster`), so it works without a display or GPU.
//!
//! * [`ExportOptions`] validates everything up front (size, fps, length, output path).
//! * [`export`] creates the staging output first (so an unwritable target fails before any
//!   rendering), renders frames in parallel (rayon), writes them atomically (see
//!   [`staging`]) and reports progress through a [`Progress`] the caller supplies (the
//!   library itself never prints).
//!
//! Frames come from any [`PoseSource`] (`render::framing`): the scene of a pattern, or a
//! hand-built one in tests.

use std::path::PathBuf;

use crate::render::raster::{rasterize, RgbImage};
use crate::render::Picture;
use crate::render::PoseSource;

// Writing files (parallel rendering, atomic staging, ffmpeg) is native only; the encoders
// (GIF with its palette and LZW, APNG) and the frame plan build for every target, the web
// page encoding one frame at a time.
pub mod apng;
pub mod gif_anim;
pub(crate) mod lzw;
#[cfg(not(target_arch = "wasm32"))]
pub(crate) mod options;
pub mod ordered;
pub mod palette;
pub mod plan;
#[cfg(not(target_arch = "wasm32"))]
pub mod png_frames;
#[cfg(not(target_arch = "wasm32"))]
pub mod staging;
#[cfg(not(target_arch = "wasm32"))]
pub(crate) mod video;

#[cfg(not(target_arch = "wasm32"))]
pub use options::{ExportOptions, ExportRequest};
#[cfg(not(target_arch = "wasm32"))]
use plan::Length;
pub use plan::{Format, FramePlan, FrameSpec};

/// Receives progress: `start` once with the number of frames, then `advance` as frames are
/// written (possibly from several threads).
pub trait Progress: Sync {
    fn start(&self, _total: usize) {}
    fn advance(&self, _frames: usize) {}
}

/// Progress that reports nothing.
pub struct Silent;
impl Progress for Silent {}

/// Errors of the export stage.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error("invalid size '{0}': expected WxH with both sides between 1 and {max}", max = plan::MAX_SIDE)]
    BadSize(String),
    #[error("invalid frame rate {0}: expected a number above 0 and at most {max}", max = plan::MAX_FPS)]
    BadFps(f64),
    #[error("frame rate {0} is too high for a GIF (GIF players slow down delays under 0.02 s): use --fps {max} or less", max = plan::MAX_GIF_FPS)]
    GifFps(f64),
    #[error("--loops must be at least 1")]
    BadLoops,
    #[error("invalid duration {0}: expected a number of seconds above 0")]
    BadDuration(f64),
    #[error("give either --loops or --duration, not both")]
    LoopsAndDuration,
    #[error("invalid start time {0}: expected a finite number of seconds")]
    BadStart(f64),
    #[error("{0:.0} frames is too many (at most {max}): lower --fps or the length", max = plan::MAX_FRAMES)]
    TooManyFrames(f64),
    #[error("the pattern has no loop to export (loop duration {0} s): give --duration")]
    NoLoop(f64),
    #[error("{} already exists (use --force to overwrite)", .0.display())]
    Exists(PathBuf),
    #[error("{} is a directory, not a GIF file", .0.display())]
    OutputIsDirectory(PathBuf),
    #[error("{} is a file: PNG frames need a directory (or name a .gif, .png, .mp4 or .webm file)", .0.display())]
    OutputIsFile(PathBuf),
    #[error("cannot write .{0} files: name a .gif, .png (animated PNG), .apng, .mp4 or .webm file, or a directory for PNG frames")]
    UnsupportedFormat(String),
    #[error("export draws pictures and video: `juggler convert PATTERN -o FILE.{0}` writes a .{0} pattern file (export names a .gif, .png, .apng, .mp4 or .webm file, or a directory for PNG frames)")]
    PatternFile(String),
    #[error("{format} video needs an even width and height (yuv420p), got {width}x{height}: use --size {}x{}", width + width % 2, height + height % 2)]
    OddVideoSize {
        width: u32,
        height: u32,
        format: &'static str,
    },
    #[error("invalid speed {0}: expected a number from {min} to {max} (1 = real time, 0.5 = slow motion)", min = plan::MIN_SPEED, max = plan::MAX_SPEED)]
    BadSpeed(f64),
    #[error("--sound is for video output (.mp4, .webm): other formats have no sound")]
    SoundNotVideo,
    #[error("--crf is for video output (.mp4, .webm)")]
    CrfNotVideo,
    #[error("--crf {crf} is out of range: expected 0 (best) to {max}")]
    BadCrf { crf: u32, max: u32 },
    #[error("{} is not a regular file: only regular files are replaced, even with --force", .0.display())]
    NotRegular(PathBuf),
    #[error("ffmpeg is needed for video export but was not found: install the Debian package 'ffmpeg' (apt-get install ffmpeg)")]
    NoFfmpeg,
    #[error("ffmpeg failed: {0}")]
    Ffmpeg(String),
    #[error("directory {} does not exist", .0.display())]
    NoDirectory(PathBuf),
    #[error("cannot write {}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("encoding failed: {0}")]
    Encode(String),
}

#[cfg(not(target_arch = "wasm32"))]
impl ExportError {
    /// The error with `path` as the file of an I/O error that names none.
    fn naming(self, path: &std::path::Path) -> ExportError {
        match self {
            ExportError::Io { path: p, source } if p.as_os_str().is_empty() => ExportError::Io {
                path: path.to_path_buf(),
                source,
            },
            other => other,
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
/// What an export wrote.
#[derive(Clone, Debug, PartialEq)]
pub struct ExportSummary {
    /// The GIF file or the frame directory.
    pub path: PathBuf,
    pub format: Format,
    pub frames: usize,
    pub width: u32,
    pub height: u32,
    /// Seconds of animation covered.
    pub duration: f64,
    /// Bytes written in total.
    pub bytes: u64,
    /// Seconds of the loop the export is made of: the picture's loop (props looking alike
    /// trade places) or the full loop.
    pub loop_duration: f64,
    /// Seconds until every prop is back in its own place.
    pub full_loop: f64,
    /// Whether the length was chosen by default (no `--loops` or `--duration`).
    pub default_length: bool,
}

#[cfg(not(target_arch = "wasm32"))]
/// The sound track of a video of `plan` at `fps`: the cues of `parts` of every event the
/// frames show, each where its event's time falls between the frames (frame `i` shows pattern
/// time `plan.time(i)` at `i / fps` seconds, so the pattern runs at `interval × fps`: the
/// chosen speed, exactly), as long as the video.
pub(crate) fn sound_track(
    source: &dyn PoseSource,
    plan: &FramePlan,
    parts: crate::sound::SoundParts,
    fps: f64,
) -> Vec<f32> {
    let seconds = plan.count as f64 / fps;
    let speed = plan.interval * fps;
    let length = (seconds * f64::from(crate::sound::SAMPLE_RATE)).round() as usize;
    let events = source.events_between(plan.start, plan.start + seconds * speed);
    let cues = crate::sound::cues_between(&events, parts);
    crate::sound::mix(&cues, plan.start, speed, length)
}

/// One rendered frame, as the export would write it (before encoding).
pub fn render_frame(
    source: &dyn PoseSource,
    picture: &Picture,
    width: u32,
    height: u32,
    t: f64,
) -> Option<RgbImage> {
    rasterize(&picture.frame(source, t, width, height))
}

#[cfg(not(target_arch = "wasm32"))]
/// Export the animation of `source` as `options` say, pictured as `picture` says (its
/// camera, labels and trail).
pub fn export(
    source: &dyn PoseSource,
    picture: &Picture,
    options: &ExportOptions,
    progress: &dyn Progress,
) -> Result<ExportSummary, ExportError> {
    let full_loop = source.loop_duration();
    let loop_duration = source.picture_loop_duration();
    let plan = options.plan(loop_duration)?;
    let size = (options.width(), options.height());
    let (path, bytes) = match options.format() {
        Format::Apng => {
            let staged = staging::StagedFile::new(options.out(), options.force())?;
            progress.start(plan.count);
            let mut writer = staged.writer()?;
            apng::write_apng(source, picture, &plan, size, progress, &mut writer)
                .map_err(|e| e.naming(options.out()))?;
            finish_file(writer, options.out())?;
            let path = staged.commit()?;
            let bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
            (path, bytes)
        }
        Format::Mp4 | Format::WebM => {
            let staged = staging::StagedFile::new(options.out(), options.force())?;
            progress.start(plan.count);
            // The sound track goes to ffmpeg as a WAV file staged beside the video (removed
            // when done, or by the signal handler).
            let track = match options.sound() {
                Some(parts) => {
                    let wav = staging::StagedFile::new(options.out(), true)?;
                    let samples = sound_track(source, &plan, parts, options.fps());
                    std::fs::write(wav.path(), crate::sound::wav(&samples)).map_err(|e| {
                        ExportError::Io {
                            path: wav.path().to_path_buf(),
                            source: e,
                        }
                    })?;
                    Some(wav)
                }
                None => None,
            };
            video::write_video(
                source,
                picture,
                &plan,
                video::Output {
                    size,
                    format: options.format(),
                    fps: options.fps(),
                    crf: options.crf(),
                    audio: track.as_ref().map(|t| t.path()),
                    path: staged.path(),
                },
                progress,
            )?;
            drop(track);
            let path = staged.commit()?;
            let bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
            (path, bytes)
        }
        Format::Gif => {
            let staged = staging::StagedFile::new(options.out(), options.force())?;
            progress.start(plan.count);
            let writer =
                gif_anim::write_gif(source, picture, &plan, size, progress, staged.writer()?)
                    .map_err(|e| e.naming(options.out()))?;
            let file = writer.into_inner().map_err(|e| ExportError::Io {
                path: options.out().to_path_buf(),
                source: e.into_error(),
            })?;
            file.sync_all().map_err(|e| ExportError::Io {
                path: options.out().to_path_buf(),
                source: e,
            })?;
            let path = staged.commit()?;
            let bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
            (path, bytes)
        }
        Format::PngFrames => {
            let staged = staging::StagedFrames::new(options.out(), options.force())?;
            progress.start(plan.count);
            png_frames::write_frames(source, picture, &plan, size, &staged, progress)?;
            let bytes = (0..plan.count)
                .map(|i| {
                    std::fs::metadata(staged.staged_path(i))
                        .map(|m| m.len())
                        .unwrap_or(0)
                })
                .sum();
            (staged.commit(plan.count)?, bytes)
        }
    };
    Ok(ExportSummary {
        path,
        format: options.format(),
        frames: plan.count,
        width: options.width(),
        height: options.height(),
        duration: plan.duration(),
        bytes,
        loop_duration,
        full_loop,
        default_length: options.length() == Length::Default,
    })
}

#[cfg(not(target_arch = "wasm32"))]
/// Flush and sync a finished staging file.
fn finish_file(
    mut writer: std::io::BufWriter<std::fs::File>,
    out: &std::path::Path,
) -> Result<(), ExportError> {
    use std::io::Write;
    let io = |source| ExportError::Io {
        path: out.to_path_buf(),
        source,
    };
    writer.flush().map_err(io)?;
    let file = writer.into_inner().map_err(|e| io(e.into_error()))?;
    file.sync_all().map_err(io)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::auto_camera;
    use crate::render::fixture::{Cascade, CASCADE_COLORS};

    fn request(out: PathBuf) -> ExportRequest {
        ExportRequest {
            out,
            size: "160x120".into(),
            fps: 30.0,
            loops: None,
            duration: None,
            start: 0.0,
            force: false,
            crf: None,
            speed: 1.0,
            sound: None,
        }
    }

    #[test]
    fn png_export_writes_one_file_per_frame_of_the_right_size() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("frames");
        let cascade = Cascade::default();
        let options = ExportOptions::new(&request(out.clone())).unwrap();
        let camera = auto_camera(&cascade, 160.0 / 120.0, None);
        let summary = export(&cascade, &camera.into(), &options, &Silent).unwrap();
        // 6 beats at 3 bps = 2 s at 30 fps.
        assert_eq!(summary.frames, 60);
        let files = staging::existing_frames(&out);
        assert_eq!(files.len(), 60);
        assert_eq!(
            std::fs::read_dir(&out).unwrap().count(),
            60,
            "no staging left behind"
        );
        let decoder = png::Decoder::new(std::io::BufReader::new(
            std::fs::File::open(&files[59]).unwrap(),
        ));
        let info = decoder.read_info().unwrap();
        assert_eq!((info.info().width, info.info().height), (160, 120));
    }

    #[test]
    fn gif_frame_after_the_last_equals_the_first() {
        let cascade = Cascade::default();
        let dir = tempfile::tempdir().unwrap();
        let options = ExportOptions::new(&request(dir.path().join("a.gif"))).unwrap();
        let plan = options.plan(cascade.loop_duration()).unwrap();
        let camera = auto_camera(&cascade, 160.0 / 120.0, None);
        let first = render_frame(&cascade, &camera.into(), 160, 120, plan.time(0)).unwrap();
        let after_last =
            render_frame(&cascade, &camera.into(), 160, 120, plan.time(plan.count)).unwrap();
        let differing = first
            .pixels
            .iter()
            .zip(&after_last.pixels)
            .filter(|(a, b)| a != b)
            .count();
        assert!(differing <= 3, "{differing} bytes differ");
        // And the frame before differs (the loop is not trivially static).
        let last = render_frame(
            &cascade,
            &camera.into(),
            160,
            120,
            plan.time(plan.count - 1),
        )
        .unwrap();
        assert!(first.pixels != last.pixels);
    }

    #[test]
    fn a_ball_is_drawn_where_the_motion_puts_it() {
        let cascade = Cascade::default();
        let (w, h) = (320u32, 240u32);
        let camera = auto_camera(&cascade, w as f32 / h as f32, None);
        for t in [0.05, 0.31, 0.77] {
            let pose = cascade.pose_at(t);
            let image = render_frame(&cascade, &camera.into(), w, h, t).unwrap();
            // The highest ball is never covered by the body: check its centre pixel.
            let (i, prop) = pose
                .props
                .iter()
                .enumerate()
                .max_by(|a, b| a.1.position.y.total_cmp(&b.1.position.y))
                .unwrap();
            let (px, _) = camera.project(prop.position, w, h).unwrap();
            let got = image.get(px.x as u32, px.y as u32).unwrap();
            let want = CASCADE_COLORS[i];
            let close = |a: u8, b: u8| (a as i32 - b as i32).abs() <= 60;
            // Within the lit body of the ball (between its shade and highlight).
            assert!(
                close(got[0], want.r) && close(got[1], want.g) && close(got[2], want.b),
                "t={t}: {got:?} vs {want:?}"
            );
        }
    }

    #[test]
    fn gif_export_is_a_valid_looping_gif() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("a.gif");
        let cascade = Cascade::default();
        let options = ExportOptions::new(&request(out.clone())).unwrap();
        let camera = auto_camera(&cascade, 160.0 / 120.0, None);
        let summary = export(&cascade, &camera.into(), &options, &Silent).unwrap();
        assert_eq!(summary.frames, 60);
        let mut decoder = gif::DecodeOptions::new();
        decoder.set_color_output(gif::ColorOutput::RGBA);
        let mut reader = decoder
            .read_info(std::fs::File::open(&out).unwrap())
            .unwrap();
        assert_eq!((reader.width(), reader.height()), (160, 120));
        let mut frames = 0;
        let mut total_delay = 0u32;
        while let Some(frame) = reader.read_next_frame().unwrap() {
            frames += 1;
            total_delay += frame.delay as u32;
        }
        assert_eq!(frames, 60);
        assert_eq!(total_delay, 200, "two seconds in hundredths");
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            1,
            "no temporary file left"
        );
    }

    #[test]
    fn gif_frames_decode_to_the_rendered_images() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("a.gif");
        let cascade = Cascade::default();
        let mut r = request(out.clone());
        r.duration = Some(0.2);
        let options = ExportOptions::new(&r).unwrap();
        let plan = options.plan(cascade.loop_duration()).unwrap();
        let camera = auto_camera(&cascade, 160.0 / 120.0, None);
        export(&cascade, &camera.into(), &options, &Silent).unwrap();
        let mut decoder = gif::DecodeOptions::new();
        decoder.set_color_output(gif::ColorOutput::RGBA);
        let mut reader = decoder
            .read_info(std::fs::File::open(&out).unwrap())
            .unwrap();
        // Compose the frames (disposal: keep) and compare with direct rendering.
        let mut canvas = vec![0u8; 160 * 120 * 4];
        let mut i = 0;
        while let Some(frame) = reader.read_next_frame().unwrap() {
            for y in 0..frame.height as usize {
                for x in 0..frame.width as usize {
                    let src = 4 * (y * frame.width as usize + x);
                    if frame.buffer[src + 3] == 0 {
                        continue;
                    }
                    let dst = 4 * ((y + frame.top as usize) * 160 + x + frame.left as usize);
                    canvas[dst..dst + 4].copy_from_slice(&frame.buffer[src..src + 4]);
                }
            }
            let want = render_frame(&cascade, &camera.into(), 160, 120, plan.time(i)).unwrap();
            let mut total = 0u64;
            for (a, b) in canvas.chunks(4).zip(want.pixels.chunks(3)) {
                total += (0..3)
                    .map(|k| (a[k] as i64 - b[k] as i64).unsigned_abs())
                    .sum::<u64>();
            }
            let mean = total as f64 / (160.0 * 120.0 * 3.0);
            assert!(mean < 2.0, "frame {i}: mean error {mean}");
            i += 1;
        }
        assert_eq!(i, plan.count);
    }

    #[test]
    fn the_same_export_gives_the_same_bytes() {
        let cascade = Cascade {
            kind: crate::types::PropKind::Club,
            ..Cascade::default()
        };
        let camera = auto_camera(&cascade, 160.0 / 120.0, None);
        let plan = FramePlan {
            start: 0.1,
            interval: 1.0 / 30.0,
            count: 45,
            speed: 1.0,
        };
        let run = || {
            gif_anim::write_gif(
                &cascade,
                &camera.into(),
                &plan,
                (160, 120),
                &Silent,
                Vec::new(),
            )
            .unwrap()
        };
        assert_eq!(run(), run());
    }

    #[test]
    fn unwritable_target_fails_before_rendering_and_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("a.gif");
        let options = ExportOptions::new(&request(out.clone())).unwrap();
        // Remove the directory after validation: the staging file cannot be created.
        drop(dir);
        struct Counting(std::sync::atomic::AtomicUsize);
        impl Progress for Counting {
            fn start(&self, _: usize) {
                self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            }
        }
        let progress = Counting(Default::default());
        let err = export(
            &Cascade::default(),
            &crate::render::Camera::default().into(),
            &options,
            &progress,
        )
        .unwrap_err();
        assert!(matches!(err, ExportError::Io { .. }), "{err}");
        assert_eq!(progress.0.load(std::sync::atomic::Ordering::SeqCst), 0);
        assert!(!out.exists());
    }
}
