//! What an export makes, before any file is named: the format, the image size, and when each
//! frame is taken ([`FramePlan`]). Pure arithmetic, the same for the command line and the web
//! page.

#[cfg(not(target_arch = "wasm32"))]
use std::path::Path;

use super::ExportError;

/// Largest accepted image side, pixels.
pub(crate) const MAX_SIDE: u32 = 8192;
/// Most frames one export may write.
pub(crate) const MAX_FRAMES: usize = 200_000;
/// Highest accepted frame rate.
pub(crate) const MAX_FPS: f64 = 1000.0;
/// GIF delays are counted in hundredths of a second and browsers slow down delays below
/// 0.02 s, so a GIF plays at most 50 frames per second.
pub(crate) const MAX_GIF_FPS: f64 = 50.0;
/// Slowest and fastest accepted `--speed` (animation speed, 1 = real time).
pub(crate) const MIN_SPEED: f64 = 0.01;
pub(crate) const MAX_SPEED: f64 = 100.0;

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
#[cfg(not(target_arch = "wasm32"))]
const OTHER_MEDIA: &[&str] = &[
    "jpg", "jpeg", "webp", "bmp", "tif", "tiff", "svg", "avif", "heic", "ico", "mov", "mkv", "avi",
    "m4v", "mpg", "mpeg", "ogv", "wmv", "flv",
];

/// Extensions of pattern files (`juggler convert` writes them): refused by `export` rather than
/// taken for a frame directory.
#[cfg(not(target_arch = "wasm32"))]
const PATTERN_FILES: &[&str] = &["jml", "jif", "toml", "json", "txt"];

/// How long the export runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Length {
    /// No length given: one loop.
    Default,
    /// Whole loops of the pattern (the animation repeats seamlessly).
    Loops(u32),
    /// A duration in seconds.
    Seconds(f64),
}

impl Length {
    /// The frame times at `fps` frames per second from `start`, for a pattern whose loop
    /// lasts `loop_duration` seconds.
    ///
    /// Whole loops: `round(duration × fps)` frames spread evenly over exactly the loops, so
    /// the frame after the last is the first again (seamless repetition); the frame interval
    /// is then within half a frame of `1 / fps`. A duration: frames every `1 / fps` seconds.
    /// At `speed` (1 = real time, 0.5 = slow motion) the frames show `speed / fps` seconds of
    /// the pattern each and play `1 / fps` seconds each: `round(duration × fps / speed)`
    /// frames.
    pub fn plan(
        self,
        fps: f64,
        speed: f64,
        start: f64,
        loop_duration: f64,
    ) -> Result<FramePlan, ExportError> {
        let (duration, seamless) = match self {
            Length::Default | Length::Loops(_) => {
                let n = match self {
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
        let exact = duration * fps / speed;
        if !exact.is_finite() || exact > MAX_FRAMES as f64 {
            return Err(ExportError::TooManyFrames(exact));
        }
        let count = (exact.round() as usize).max(1);
        let interval = if seamless {
            duration / count as f64
        } else {
            speed / fps
        };
        Ok(FramePlan {
            start,
            interval,
            count,
            speed,
        })
    }
}

/// What an export renders, checked: format, image size, frame rate, length, start and speed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrameSpec {
    pub format: Format,
    pub width: u32,
    pub height: u32,
    pub fps: f64,
    pub length: Length,
    pub start: f64,
    /// Animation speed: 1 real time (what `new` sets), 0.5 slow motion ([`FrameSpec::with_speed`]).
    pub speed: f64,
}

impl FrameSpec {
    /// Checks size `WxH` (sides 1..=8192, even for video), fps finite in (0, 1000] (at most
    /// 50 for a GIF), `(loops, duration)`: loops ≥ 1 or a finite positive duration (not both,
    /// neither = one loop), a finite start, and a video quality `crf` (video only, in range).
    pub fn new(
        format: Format,
        size: &str,
        fps: f64,
        (loops, duration): (Option<u32>, Option<f64>),
        start: f64,
        crf: Option<u32>,
    ) -> Result<FrameSpec, ExportError> {
        let (width, height) = parse_size(size)?;
        if format.is_video() && (width % 2 == 1 || height % 2 == 1) {
            return Err(ExportError::OddVideoSize {
                width,
                height,
                format: format.name(),
            });
        }
        if let Some(crf) = crf {
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
        if !fps.is_finite() || fps <= 0.0 || fps > MAX_FPS {
            return Err(ExportError::BadFps(fps));
        }
        if format == Format::Gif && fps > MAX_GIF_FPS {
            return Err(ExportError::GifFps(fps));
        }
        let length = match (loops, duration) {
            (Some(_), Some(_)) => return Err(ExportError::LoopsAndDuration),
            (Some(0), None) => return Err(ExportError::BadLoops),
            (Some(n), None) => Length::Loops(n),
            (None, Some(d)) if d.is_finite() && d > 0.0 => Length::Seconds(d),
            (None, Some(d)) => return Err(ExportError::BadDuration(d)),
            (None, None) => Length::Default,
        };
        if !start.is_finite() {
            return Err(ExportError::BadStart(start));
        }
        Ok(FrameSpec {
            format,
            width,
            height,
            fps,
            length,
            start,
            speed: 1.0,
        })
    }

    /// The same at animation speed `speed` (from `MIN_SPEED` to `MAX_SPEED`; 1 = real time,
    /// 0.5 = slow motion: the output twice as long as the pattern time it shows).
    pub fn with_speed(self, speed: f64) -> Result<FrameSpec, ExportError> {
        if !(MIN_SPEED..=MAX_SPEED).contains(&speed) {
            return Err(ExportError::BadSpeed(speed));
        }
        Ok(FrameSpec { speed, ..self })
    }

    /// The frame times for a pattern whose loop lasts `loop_duration` seconds.
    pub fn plan(&self, loop_duration: f64) -> Result<FramePlan, ExportError> {
        self.length
            .plan(self.fps, self.speed, self.start, loop_duration)
    }
}

/// Highest constant rate factor (H.264 takes 0..=51, VP9 0..=63).
pub(crate) fn max_crf(format: Format) -> u32 {
    if format == Format::WebM {
        63
    } else {
        51
    }
}

/// When each frame is taken.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FramePlan {
    /// Pattern time of the first frame, seconds.
    pub start: f64,
    /// Pattern seconds between frames.
    pub interval: f64,
    pub count: usize,
    /// Pattern seconds per second of playback (1 = real time, 0.5 = slow motion): frames
    /// play `interval / speed` seconds each.
    pub speed: f64,
}

impl FramePlan {
    /// Time of frame `i` (seconds).
    pub fn time(&self, i: usize) -> f64 {
        self.start + i as f64 * self.interval
    }

    /// Pattern time covered: `count × interval`.
    pub fn duration(&self) -> f64 {
        self.count as f64 * self.interval
    }

    /// Playback time: the pattern time covered at `speed`.
    pub fn playback(&self) -> f64 {
        self.duration() / self.speed
    }

    /// GIF delay of frame `i` in hundredths of a second: the frame boundaries are rounded
    /// cumulatively, so the delays alternate and add up to the animation's length rounded to
    /// hundredths (30 fps: 3, 3, 4, 3, 3, 4, ...); at least 2.
    pub fn gif_delay(&self, i: usize) -> u16 {
        self.delay_in(i, 100).clamp(2, u16::MAX as u32) as u16
    }

    /// Playback delay of frame `i` in units of `1 / per_second` s. Frame boundaries `k × interval / speed`
    /// are rounded down after a shift that makes the last one the whole duration rounded to
    /// the nearest unit, so the delays add up to the duration in those units (with a
    /// tolerance for floating-point error).
    pub fn delay_in(&self, i: usize, per_second: u32) -> u32 {
        let step = self.interval / self.speed * per_second as f64;
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
/// `.webm` are files; other image or video extensions and pattern files' are refused;
/// anything else is a frame directory. (Paths are the command line's: not in the web build.)
#[cfg(not(target_arch = "wasm32"))]
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
        other if PATTERN_FILES.contains(&other) => {
            return Err(ExportError::PatternFile(other.to_string()))
        }
        _ => Format::PngFrames,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
        for bad in ["a.jml", "b.JIF", "c.toml"] {
            assert!(
                matches!(format_of(Path::new(bad)), Err(ExportError::PatternFile(_))),
                "{bad}"
            );
        }
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
    fn one_loop_plan_spreads_frames_evenly_over_exactly_the_loop() {
        // 2.07 s loop at 30 fps: 62.1 -> 62 frames, interval 2.07 / 62.
        let plan = Length::Default.plan(30.0, 1.0, 0.0, 2.07).unwrap();
        assert_eq!(plan.count, 62);
        assert!((plan.interval - 2.07 / 62.0).abs() < 1e-12);
        assert!((plan.time(62) - 2.07).abs() < 1e-12);
        assert!((plan.duration() - 2.07).abs() < 1e-12);
        assert!(matches!(
            Length::Loops(2).plan(30.0, 1.0, 0.0, 0.0),
            Err(ExportError::NoLoop(_))
        ));
        let plan = Length::Loops(2).plan(30.0, 1.0, 0.0, 2.07).unwrap();
        assert_eq!(plan.count, 124);

        let plan = Length::Seconds(1.0).plan(24.0, 1.0, 0.5, 7.0).unwrap();
        assert_eq!(plan.count, 24);
        assert!((plan.time(1) - (0.5 + 1.0 / 24.0)).abs() < 1e-12);

        assert!(matches!(
            Length::Seconds(1.0e6).plan(24.0, 1.0, 0.0, 1.0),
            Err(ExportError::TooManyFrames(_))
        ));
    }

    /// Slow motion: half speed shows the same loop in twice the frames, each playing 1 / fps,
    /// so a 2.07 s loop plays 4.14 s in every format (GIF delays included).
    #[test]
    fn half_speed_plays_the_loop_twice_as_long() {
        let plan = Length::Default.plan(30.0, 0.5, 0.0, 2.07).unwrap();
        assert_eq!(plan.count, 124);
        assert!((plan.duration() - 2.07).abs() < 1e-12);
        assert!((plan.playback() - 4.14).abs() < 1e-12);
        let hundredths: u32 = (0..plan.count).map(|i| u32::from(plan.gif_delay(i))).sum();
        assert_eq!(hundredths, 414);
        let spec = FrameSpec::new(Format::Gif, "64x48", 30.0, (None, None), 0.0, None).unwrap();
        assert!(matches!(
            spec.with_speed(0.0),
            Err(ExportError::BadSpeed(_))
        ));
        assert_eq!(spec.with_speed(0.5).unwrap().plan(2.07).unwrap(), plan);
    }

    #[test]
    fn gif_delays_keep_the_total_length() {
        let plan = FramePlan {
            start: 0.0,
            interval: 1.0 / 30.0,
            count: 30,
            speed: 1.0,
        };
        let delays: Vec<u16> = (0..30).map(|i| plan.gif_delay(i)).collect();
        assert_eq!(delays.iter().map(|&d| d as u32).sum::<u32>(), 100);
        assert_eq!(&delays[..6], &[3, 3, 4, 3, 3, 4]);
        // 1.3 s at 25 fps: 4 each, 130 hundredths.
        let plan = FramePlan {
            start: 0.0,
            interval: 1.3 / 33.0,
            count: 33,
            speed: 1.0,
        };
        let sum: u32 = (0..33).map(|i| plan.gif_delay(i) as u32).sum();
        assert_eq!(sum, 130);
        // Milliseconds for APNG: 1 s in 30 frames adds up to 1000.
        let plan = FramePlan {
            start: 0.0,
            interval: 1.0 / 30.0,
            count: 30,
            speed: 1.0,
        };
        let ms: Vec<u32> = (0..30).map(|i| plan.delay_in(i, 1000)).collect();
        assert_eq!(ms.iter().sum::<u32>(), 1000);
        assert_eq!(&ms[..3], &[33, 33, 34]);
        let fast = FramePlan {
            start: 0.0,
            interval: 0.001,
            count: 5,
            speed: 1.0,
        };
        assert_eq!(fast.gif_delay(0), 2);
    }
}
