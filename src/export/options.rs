//! Export options, validated once before any work: image size, frame rate, length, start,
//! output kind. A value of [`ExportOptions`] is always valid.

use std::path::{Path, PathBuf};

use super::staging::{existing_frames, parent_dir};
use super::ExportError;
use crate::sound::SoundParts;

/// Largest accepted image side, pixels.
pub(crate) const MAX_SIDE: u32 = 8192;
/// Most frames one export may write.
pub(crate) const MAX_FRAMES: usize = 200_000;
/// Highest accepted frame rate.
pub(crate) const MAX_FPS: f64 = 1000.0;
/// Slowest and fastest accepted `--speed` (animation speed, 1 = real time).
pub(crate) const MIN_SPEED: f64 = 0.01;
pub(crate) const MAX_SPEED: f64 = 100.0;
/// GIF delays are counted in hundredths of a second and browsers slow down delays below
/// 0.02 s, so a GIF plays at most 50 frames per second.
pub(crate) const MAX_GIF_FPS: f64 = 50.0;

/// What is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `frame_00000.png`, `frame_00001.png`, ... in a directory.
    PngFrames,
    /// One animated GIF file, looping forever.
    Gif,
    /// One PNG file (`.png` or `.apng`): an animated PNG in full colour, looping forever, or a
    /// still PNG when the export is one frame.
    Apng,
    /// An H.264 video (yuv420p) in an MP4 file, encoded by `ffmpeg`.
    Mp4,
    /// A VP9 video in a WebM file, encoded by `ffmpeg`.
    WebM,
}

impl Format {
    /// Whether `ffmpeg` encodes it.
    pub(crate) fn is_video(self) -> bool {
        matches!(self, Format::Mp4 | Format::WebM)
    }

    /// Short name for messages.
    pub fn name(self) -> &'static str {
        match self {
            Format::PngFrames => "PNG frames",
            Format::Gif => "GIF",
            Format::Apng => "PNG",
            Format::Mp4 => "MP4",
            Format::WebM => "WebM",
        }
    }
}

/// Extensions of image and video formats juggler does not write: such a path is refused
/// rather than taken for a frame directory.
const OTHER_MEDIA: &[&str] = &[
    "jpg", "jpeg", "webp", "bmp", "tif", "tiff", "svg", "avif", "heic", "ico", "mov", "mkv", "avi",
    "m4v", "mpg", "mpeg", "ogv", "wmv", "flv",
];

/// How long the export runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Length {
    /// No length given: one loop.
    Default,
    /// Whole loops of the pattern (the animation repeats seamlessly).
    Loops(u32),
    /// A duration in seconds.
    Seconds(f64),
}

/// Options as the user gave them (e.g. from the command line), before validation.
#[derive(Clone, Debug, PartialEq)]
pub struct ExportRequest {
    pub out: PathBuf,
    /// `WxH`, e.g. `640x480`.
    pub size: String,
    pub fps: f64,
    pub loops: Option<u32>,
    pub duration: Option<f64>,
    pub start: f64,
    pub force: bool,
    /// Video quality (ffmpeg's constant rate factor): lower is better and larger. `None`:
    /// 20 for MP4, 32 for WebM.
    pub crf: Option<u32>,
    /// Animation speed: 1 plays the pattern in real time, 0.5 in slow motion (the output
    /// twice as long as the pattern time it shows; sounds stay on their catches).
    pub speed: f64,
    /// An audio track of these sounds (videos only).
    pub sound: Option<SoundParts>,
}

/// Validated export options.
#[derive(Clone, Debug, PartialEq)]
pub struct ExportOptions {
    out: PathBuf,
    format: Format,
    width: u32,
    height: u32,
    fps: f64,
    length: Length,
    start: f64,
    force: bool,
    crf: Option<u32>,
    speed: f64,
    sound: Option<SoundParts>,
}

/// Highest constant rate factor (H.264 takes 0..=51, VP9 0..=63).
pub(crate) fn max_crf(format: Format) -> u32 {
    if format == Format::WebM {
        63
    } else {
        51
    }
}

impl ExportOptions {
    /// Validate a request: size `WxH` with sides 1..=8192, fps finite in (0, 1000] (at most
    /// 50 for a GIF), loops ≥ 1 or a finite positive duration (not both), a finite start,
    /// and an output path that is not obviously wrong (a `.gif` that is a directory, a frame
    /// directory that is a file, existing output without `force`).
    pub fn new(request: &ExportRequest) -> Result<ExportOptions, ExportError> {
        let (width, height) = parse_size(&request.size)?;
        let format = format_of(&request.out)?;
        if format.is_video() && (width % 2 == 1 || height % 2 == 1) {
            return Err(ExportError::OddVideoSize {
                width,
                height,
                format: format.name(),
            });
        }
        if let Some(crf) = request.crf {
            if !format.is_video() {
                return Err(ExportError::CrfNotVideo);
            }
            if crf > max_crf(format) {
                return Err(ExportError::BadCrf {
                    crf,
                    max: max_crf(format),
                });
            }
        }
        if !request.fps.is_finite() || request.fps <= 0.0 || request.fps > MAX_FPS {
            return Err(ExportError::BadFps(request.fps));
        }
        if format == Format::Gif && request.fps > MAX_GIF_FPS {
            return Err(ExportError::GifFps(request.fps));
        }
        let length = match (request.loops, request.duration) {
            (Some(_), Some(_)) => return Err(ExportError::LoopsAndDuration),
            (Some(0), None) => return Err(ExportError::BadLoops),
            (Some(n), None) => Length::Loops(n),
            (None, Some(d)) if d.is_finite() && d > 0.0 => Length::Seconds(d),
            (None, Some(d)) => return Err(ExportError::BadDuration(d)),
            (None, None) => Length::Default,
        };
        if !request.start.is_finite() {
            return Err(ExportError::BadStart(request.start));
        }
        if !(MIN_SPEED..=MAX_SPEED).contains(&request.speed) {
            return Err(ExportError::BadSpeed(request.speed));
        }
        if request.sound.is_some() && !format.is_video() {
            return Err(ExportError::SoundNotVideo);
        }
        let options = ExportOptions {
            out: request.out.clone(),
            format,
            width,
            height,
            fps: request.fps,
            length,
            start: request.start,
            force: request.force,
            crf: request.crf,
            speed: request.speed,
            sound: request.sound,
        };
        options.check_output()?;
        Ok(options)
    }

    /// Refuse outputs that cannot work or would overwrite without `force`.
    fn check_output(&self) -> Result<(), ExportError> {
        let out = &self.out;
        match self.format {
            Format::Gif | Format::Apng | Format::Mp4 | Format::WebM => {
                if out.is_dir() {
                    return Err(ExportError::OutputIsDirectory(out.clone()));
                }
                if let Ok(meta) = std::fs::symlink_metadata(out) {
                    if !self.force {
                        return Err(ExportError::Exists(out.clone()));
                    }
                    // Only a regular file (or a link to one) is ever replaced.
                    let regular = meta.is_file()
                        || (meta.file_type().is_symlink()
                            && std::fs::metadata(out).is_ok_and(|m| m.is_file()));
                    if !regular {
                        return Err(ExportError::NotRegular(out.clone()));
                    }
                }
                let parent = parent_dir(out);
                if !parent.is_dir() {
                    return Err(ExportError::NoDirectory(parent));
                }
            }
            Format::PngFrames => {
                if out.exists() && !out.is_dir() {
                    return Err(ExportError::OutputIsFile(out.clone()));
                }
                let existing = existing_frames(out);
                if let Some(dir) = existing.iter().find(|p| p.is_dir()) {
                    return Err(ExportError::OutputIsDirectory(dir.clone()));
                }
                if !self.force {
                    if let Some(first) = existing.first() {
                        return Err(ExportError::Exists(first.clone()));
                    }
                }
            }
        }
        Ok(())
    }

    pub(crate) fn out(&self) -> &Path {
        &self.out
    }
    pub(crate) fn format(&self) -> Format {
        self.format
    }
    pub fn width(&self) -> u32 {
        self.width
    }
    pub fn height(&self) -> u32 {
        self.height
    }
    pub(crate) fn fps(&self) -> f64 {
        self.fps
    }
    pub(crate) fn length(&self) -> Length {
        self.length
    }
    pub(crate) fn force(&self) -> bool {
        self.force
    }
    pub(crate) fn crf(&self) -> Option<u32> {
        self.crf
    }
    pub(crate) fn sound(&self) -> Option<SoundParts> {
        self.sound
    }

    /// The frame times for a pattern whose loop lasts `loop_duration` seconds.
    ///
    /// Whole loops: `round(duration × fps / speed)` frames spread evenly over exactly the
    /// loops, so the frame after the last is the first again (seamless repetition); the frame
    /// interval is then within half a frame of `speed / fps`. A duration: frames every
    /// `speed / fps` seconds of pattern time.
    pub(crate) fn plan(&self, loop_duration: f64) -> Result<FramePlan, ExportError> {
        let (duration, seamless) = match self.length {
            Length::Default | Length::Loops(_) => {
                let n = match self.length {
                    Length::Loops(n) => n,
                    _ => 1,
                };
                if !loop_duration.is_finite() || loop_duration <= 0.0 {
                    return Err(ExportError::NoLoop(loop_duration));
                }
                (n as f64 * loop_duration, true)
            }
            Length::Seconds(d) => (d, false),
        };
        let exact = duration * self.fps / self.speed;
        if !exact.is_finite() || exact > MAX_FRAMES as f64 {
            return Err(ExportError::TooManyFrames(exact));
        }
        let count = (exact.round() as usize).max(1);
        let interval = if seamless {
            duration / count as f64
        } else {
            self.speed / self.fps
        };
        Ok(FramePlan {
            start: self.start,
            interval,
            count,
        })
    }
}

/// When each frame is taken (in pattern time).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FramePlan {
    pub start: f64,
    /// Seconds between frames.
    pub interval: f64,
    pub count: usize,
}

impl FramePlan {
    /// Time of frame `i` (seconds).
    pub(crate) fn time(&self, i: usize) -> f64 {
        self.start + i as f64 * self.interval
    }

    /// Total time covered: `count × interval`.
    pub(crate) fn duration(&self) -> f64 {
        self.count as f64 * self.interval
    }

    /// GIF delay of frame `i` in hundredths of a second: the frame boundaries are rounded
    /// cumulatively, so the delays alternate and add up to the animation's length rounded to
    /// hundredths (30 fps: 3, 3, 4, 3, 3, 4, ...); at least 2.
    pub(crate) fn gif_delay(&self, i: usize) -> u16 {
        self.delay_in(i, 100).clamp(2, u16::MAX as u32) as u16
    }

    /// Delay of frame `i` in units of `1 / per_second` s. Frame boundaries `k × interval`
    /// are rounded down after a shift that makes the last one the whole duration rounded to
    /// the nearest unit, so the delays add up to the duration in those units (with a
    /// tolerance for floating-point error).
    pub(crate) fn delay_in(&self, i: usize, per_second: u32) -> u32 {
        let step = self.interval * per_second as f64;
        let total = self.count as f64 * step;
        let shift = total.round() - total;
        let at = |k: usize| {
            if k == 0 {
                0.0
            } else {
                (k as f64 * step + shift + 1e-6).floor().max(0.0)
            }
        };
        (at(i + 1) - at(i)).clamp(0.0, u32::MAX as f64) as u32
    }
}

/// `WxH` (also `W×H` or `W*H`), both sides 1..=8192.
pub(crate) fn parse_size(text: &str) -> Result<(u32, u32), ExportError> {
    let bad = || ExportError::BadSize(text.to_string());
    let lower = text.trim().to_ascii_lowercase();
    let (w, h) = lower
        .split_once('x')
        .or_else(|| lower.split_once('×'))
        .or_else(|| lower.split_once('*'))
        .ok_or_else(bad)?;
    let w: u32 = w.trim().parse().map_err(|_| bad())?;
    let h: u32 = h.trim().parse().map_err(|_| bad())?;
    if w == 0 || h == 0 || w > MAX_SIDE || h > MAX_SIDE {
        return Err(bad());
    }
    Ok((w, h))
}

/// The output kind from the path's extension (any case): `.gif`, `.png`/`.apng`, `.mp4`,
/// `.webm` are files; other image or video extensions are refused; anything else is a frame
/// directory.
pub(crate) fn format_of(out: &Path) -> Result<Format, ExportError> {
    let Some(ext) = out.extension().and_then(|e| e.to_str()) else {
        return Ok(Format::PngFrames);
    };
    let ext = ext.to_ascii_lowercase();
    Ok(match ext.as_str() {
        "gif" => Format::Gif,
        "png" | "apng" => Format::Apng,
        "mp4" => Format::Mp4,
        "webm" => Format::WebM,
        other if OTHER_MEDIA.contains(&other) => {
            return Err(ExportError::UnsupportedFormat(other.to_string()))
        }
        _ => Format::PngFrames,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(out: &Path) -> ExportRequest {
        ExportRequest {
            out: out.to_path_buf(),
            size: "640x480".into(),
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
    fn sizes_parse_and_bad_sizes_are_refused() {
        assert_eq!(parse_size("640x480").unwrap(), (640, 480));
        assert_eq!(parse_size(" 400 X 450 ").unwrap(), (400, 450));
        assert_eq!(parse_size("1×1").unwrap(), (1, 1));
        for bad in [
            "",
            "640",
            "0x480",
            "640x0",
            "-1x5",
            "axb",
            "9000x10",
            "640x480x2",
            "1.5x3",
        ] {
            assert!(
                matches!(parse_size(bad), Err(ExportError::BadSize(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn format_follows_the_extension() {
        let f = |p: &str| format_of(Path::new(p)).unwrap();
        assert_eq!(f("a/b.gif"), Format::Gif);
        assert_eq!(f("B.GIF"), Format::Gif);
        assert_eq!(f("frames"), Format::PngFrames);
        assert_eq!(f("frames.d"), Format::PngFrames);
        assert_eq!(f("pic.png"), Format::Apng);
        assert_eq!(f("pic.APNG"), Format::Apng);
        assert_eq!(f("clip.mp4"), Format::Mp4);
        assert_eq!(f("clip.WebM"), Format::WebM);
        for bad in ["a.jpg", "a.mov", "b.MKV", "c.webp"] {
            assert!(
                matches!(
                    format_of(Path::new(bad)),
                    Err(ExportError::UnsupportedFormat(_))
                ),
                "{bad}"
            );
        }
    }

    #[test]
    fn bad_numbers_are_refused_before_any_work() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("f");
        let with = |f: &dyn Fn(&mut ExportRequest)| {
            let mut r = request(&out);
            f(&mut r);
            ExportOptions::new(&r)
        };
        assert!(matches!(
            with(&|r| r.fps = 0.0),
            Err(ExportError::BadFps(_))
        ));
        assert!(matches!(
            with(&|r| r.fps = -30.0),
            Err(ExportError::BadFps(_))
        ));
        assert!(matches!(
            with(&|r| r.fps = f64::NAN),
            Err(ExportError::BadFps(_))
        ));
        assert!(matches!(
            with(&|r| r.loops = Some(0)),
            Err(ExportError::BadLoops)
        ));
        assert!(matches!(
            with(&|r| r.duration = Some(-1.0)),
            Err(ExportError::BadDuration(_))
        ));
        assert!(matches!(
            with(&|r| r.duration = Some(f64::INFINITY)),
            Err(ExportError::BadDuration(_))
        ));
        assert!(matches!(
            with(&|r| r.start = f64::NAN),
            Err(ExportError::BadStart(_))
        ));
        assert!(matches!(
            with(&|r| {
                r.loops = Some(2);
                r.duration = Some(3.0)
            }),
            Err(ExportError::LoopsAndDuration)
        ));
        let gif = dir.path().join("a.gif");
        let mut r = request(&gif);
        r.fps = 60.0;
        assert!(matches!(
            ExportOptions::new(&r),
            Err(ExportError::GifFps(_))
        ));
        // Nothing was created.
        assert!(!out.exists() && !gif.exists());
    }

    #[test]
    fn existing_output_needs_force() {
        let dir = tempfile::tempdir().unwrap();
        let gif = dir.path().join("a.gif");
        std::fs::write(&gif, b"old").unwrap();
        assert!(matches!(
            ExportOptions::new(&request(&gif)),
            Err(ExportError::Exists(_))
        ));
        let mut r = request(&gif);
        r.force = true;
        assert!(ExportOptions::new(&r).is_ok());

        let frames = dir.path().join("frames");
        std::fs::create_dir(&frames).unwrap();
        // Unrelated files in the directory are fine.
        std::fs::write(frames.join("notes.txt"), b"x").unwrap();
        assert!(ExportOptions::new(&request(&frames)).is_ok());
        std::fs::write(frames.join("frame_00003.png"), b"x").unwrap();
        std::fs::create_dir(frames.join("frame_00009.png")).unwrap();
        let mut forced = request(&frames);
        forced.force = true;
        assert!(matches!(
            ExportOptions::new(&forced),
            Err(ExportError::OutputIsDirectory(_))
        ));
        std::fs::remove_dir(frames.join("frame_00009.png")).unwrap();
        assert!(matches!(
            ExportOptions::new(&request(&frames)),
            Err(ExportError::Exists(_))
        ));
        let mut r = request(&frames);
        r.force = true;
        assert!(ExportOptions::new(&r).is_ok());
    }

    #[test]
    fn wrong_kinds_of_output_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let as_dir = dir.path().join("x.gif");
        std::fs::create_dir(&as_dir).unwrap();
        assert!(matches!(
            ExportOptions::new(&request(&as_dir)),
            Err(ExportError::OutputIsDirectory(_))
        ));
        let file = dir.path().join("file");
        std::fs::write(&file, b"x").unwrap();
        assert!(matches!(
            ExportOptions::new(&request(&file)),
            Err(ExportError::OutputIsFile(_))
        ));
        let missing = dir.path().join("no/such/dir/a.gif");
        assert!(matches!(
            ExportOptions::new(&request(&missing)),
            Err(ExportError::NoDirectory(_))
        ));
    }

    #[test]
    fn one_loop_plan_spreads_frames_evenly_over_exactly_the_loop() {
        let dir = tempfile::tempdir().unwrap();
        let options = ExportOptions::new(&request(&dir.path().join("f"))).unwrap();
        // 2.07 s loop at 30 fps: 62.1 -> 62 frames, interval 2.07 / 62.
        let plan = options.plan(2.07).unwrap();
        assert_eq!(plan.count, 62);
        assert!((plan.interval - 2.07 / 62.0).abs() < 1e-12);
        assert!((plan.time(62) - 2.07).abs() < 1e-12);
        assert!((plan.duration() - 2.07).abs() < 1e-12);
        assert!(matches!(options.plan(0.0), Err(ExportError::NoLoop(_))));

        let mut r = request(&dir.path().join("f"));
        r.duration = Some(1.0);
        r.fps = 24.0;
        r.start = 0.5;
        let plan = ExportOptions::new(&r).unwrap().plan(7.0).unwrap();
        assert_eq!(plan.count, 24);
        assert!((plan.time(1) - (0.5 + 1.0 / 24.0)).abs() < 1e-12);

        r.duration = Some(1.0e6);
        assert!(matches!(
            ExportOptions::new(&r).unwrap().plan(1.0),
            Err(ExportError::TooManyFrames(_))
        ));
    }

    #[test]
    fn gif_delays_keep_the_total_length() {
        let plan = FramePlan {
            start: 0.0,
            interval: 1.0 / 30.0,
            count: 30,
        };
        let delays: Vec<u16> = (0..30).map(|i| plan.gif_delay(i)).collect();
        assert_eq!(delays.iter().map(|&d| d as u32).sum::<u32>(), 100);
        assert_eq!(&delays[..6], &[3, 3, 4, 3, 3, 4]);
        // 1.3 s at 25 fps: 4 each, 130 hundredths.
        let plan = FramePlan {
            start: 0.0,
            interval: 1.3 / 33.0,
            count: 33,
        };
        let sum: u32 = (0..33).map(|i| plan.gif_delay(i) as u32).sum();
        assert_eq!(sum, 130);
        // Milliseconds for APNG: 1 s in 30 frames adds up to 1000.
        let plan = FramePlan {
            start: 0.0,
            interval: 1.0 / 30.0,
            count: 30,
        };
        let ms: Vec<u32> = (0..30).map(|i| plan.delay_in(i, 1000)).collect();
        assert_eq!(ms.iter().sum::<u32>(), 1000);
        assert_eq!(&ms[..3], &[33, 33, 34]);
        let fast = FramePlan {
            start: 0.0,
            interval: 0.001,
            count: 5,
        };
        assert_eq!(fast.gif_delay(0), 2);
    }
}
