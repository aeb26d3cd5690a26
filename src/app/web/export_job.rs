//! The page's export: the pattern playing as an animated GIF or PNG, encoded here by the
//! project's own encoders (`export::gif_anim::GifStream`, `export::apng::ApngStream`) one
//! frame per [`ExportJob::step`], so the page can spread the work between its animation
//! frames; or as video frames (RGBA) the page's browser encodes (WebCodecs) into WebM or MP4.
//! Frames, timing and length are the command line's (`juggler export`): the picture loop,
//! `loops` times, at `fps`.

use std::cell::RefCell;
use std::io::Write;
use std::rc::Rc;

use crate::export::apng::ApngStream;
use crate::export::gif_anim::GifStream;
use crate::export::{Format, FramePlan, FrameSpec};
use crate::render::raster::Canvas;
use crate::render::{Camera, Picture, PoseSource};
use crate::scene::Scene;

use super::actions::ExportSettings;

/// Largest side of an export from the page, pixels (memory of one tab).
pub const MAX_PAGE_SIDE: u32 = 1920;

/// A byte buffer shared with the encoder that writes it.
#[derive(Clone, Default)]
struct SharedBytes(Rc<RefCell<Vec<u8>>>);

impl Write for SharedBytes {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

enum Work {
    Gif(Box<GifStream<Vec<u8>>>),
    Apng(Box<ApngStream<SharedBytes>>, SharedBytes),
    /// Frames for the browser's video encoder.
    Video {
        canvas: Canvas,
        next: usize,
    },
}

/// What one step did.
#[derive(Debug, PartialEq)]
pub enum Step<'a> {
    /// One more frame is encoded.
    Encoded,
    /// Frame `index` for the browser's video encoder: RGBA, rows top to bottom.
    VideoFrame { index: usize, rgba: &'a [u8] },
    /// The file is complete (empty for video: the browser has it).
    Done(Vec<u8>),
}

/// One export in progress.
pub struct ExportJob {
    scene: Scene,
    picture: Picture,
    plan: FramePlan,
    spec: FrameSpec,
    /// The download's name: the pattern's name and the format's extension.
    pub file_name: String,
    work: Option<Work>,
}

impl ExportJob {
    /// Starts exporting `scene` (named `name`) as `settings` say, through `camera` (the
    /// view on screen, framed for the export's size by the caller).
    pub fn new(
        scene: Scene,
        camera_for: impl Fn(u32, u32) -> Camera,
        name: &str,
        settings: &ExportSettings,
    ) -> Result<ExportJob, String> {
        let format = settings.format()?;
        let spec = FrameSpec::new(
            format,
            &settings.size,
            settings.fps,
            (Some(settings.loops), None),
            0.0,
            None,
        )
        .map_err(|e| e.to_string())?;
        if spec.width > MAX_PAGE_SIDE || spec.height > MAX_PAGE_SIDE {
            return Err(format!(
                "{}x{} is too large for the page (at most {MAX_PAGE_SIDE} a side)",
                spec.width, spec.height
            ));
        }
        let plan = spec
            .plan(scene.picture_loop_duration())
            .map_err(|e| e.to_string())?;
        let picture = Picture::from(camera_for(spec.width, spec.height));
        let size = (spec.width, spec.height);
        let work = match format {
            Format::Gif => Work::Gif(Box::new(
                GifStream::new(&scene, &picture, &plan, size, Vec::new())
                    .map_err(|e| e.to_string())?,
            )),
            Format::Apng => {
                let bytes = SharedBytes::default();
                let stream =
                    ApngStream::new(&plan, size, bytes.clone()).map_err(|e| e.to_string())?;
                Work::Apng(Box::new(stream), bytes)
            }
            Format::WebM | Format::Mp4 => Work::Video {
                canvas: Canvas::new(spec.width, spec.height)
                    .ok_or_else(|| format!("{}x{}: no canvas", spec.width, spec.height))?,
                next: 0,
            },
            Format::PngFrames => return Err("frame directories are for the command line".into()),
        };
        Ok(ExportJob {
            scene,
            picture,
            plan,
            spec,
            file_name: format!("{}.{}", file_stem(name), extension(format)),
            work: Some(work),
        })
    }

    pub fn format(&self) -> Format {
        self.spec.format
    }

    pub fn size(&self) -> (u32, u32) {
        (self.spec.width, self.spec.height)
    }

    pub fn fps(&self) -> f64 {
        self.spec.fps
    }

    /// Frames in the export.
    pub fn frames(&self) -> usize {
        self.plan.count
    }

    /// Microseconds from the start to frame `i` (a video frame's timestamp).
    pub fn timestamp_us(&self, i: usize) -> f64 {
        (i as f64 * self.plan.interval * 1e6).round()
    }

    /// Frames done so far.
    pub fn done(&self) -> usize {
        match &self.work {
            Some(Work::Gif(s)) => s.written(),
            Some(Work::Apng(s, _)) => s.written(),
            Some(Work::Video { next, .. }) => *next,
            None => self.plan.count,
        }
    }

    /// Does the next piece of work: encodes a frame, hands out a video frame, or finishes.
    pub fn step(&mut self) -> Result<Step<'_>, String> {
        let scene: &dyn PoseSource = &self.scene;
        let err = |e: crate::export::ExportError| e.to_string();
        match self.work.take() {
            None => Ok(Step::Done(Vec::new())),
            Some(Work::Gif(mut stream)) => {
                if stream.done() {
                    return stream.finish().map(Step::Done).map_err(err);
                }
                stream.next(scene, &self.picture).map_err(err)?;
                self.work = Some(Work::Gif(stream));
                Ok(Step::Encoded)
            }
            Some(Work::Apng(mut stream, bytes)) => {
                if stream.done() {
                    stream.finish().map_err(err)?;
                    let out = std::mem::take(&mut *bytes.0.borrow_mut());
                    return Ok(Step::Done(out));
                }
                stream.next(scene, &self.picture).map_err(err)?;
                self.work = Some(Work::Apng(stream, bytes));
                Ok(Step::Encoded)
            }
            Some(Work::Video { mut canvas, next }) => {
                if next >= self.plan.count {
                    return Ok(Step::Done(Vec::new()));
                }
                let (w, h) = self.size();
                let frame = self.picture.frame(scene, self.plan.time(next), w, h);
                canvas.draw(&frame);
                self.work = Some(Work::Video {
                    canvas,
                    next: next + 1,
                });
                match &self.work {
                    Some(Work::Video { canvas, .. }) => Ok(Step::VideoFrame {
                        index: next,
                        rgba: canvas.rgba(),
                    }),
                    _ => unreachable!("the video work was just put back"),
                }
            }
        }
    }
}

/// The file extension of a format.
fn extension(format: Format) -> &'static str {
    match format {
        Format::Gif => "gif",
        Format::Apng => "png",
        Format::WebM => "webm",
        Format::Mp4 => "mp4",
        Format::PngFrames => "png",
    }
}

/// A file name from a pattern's name: letters, digits and `-_.()+,` kept, spaces too, runs
/// of anything else one `_`, at most 80 characters; `pattern` when nothing is left.
pub fn file_stem(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_alphanumeric() || " -_.()+,".contains(c) {
            out.push(c);
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    let out: String = out.chars().take(80).collect();
    let out = out.trim_matches(|c: char| c == '_' || c == '.' || c.is_whitespace());
    if out.is_empty() {
        "pattern".to_string()
    } else {
        out.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::auto_camera;
    use crate::spec::PatternSpec;

    fn settings(format: &str, size: &str, loops: u32) -> ExportSettings {
        ExportSettings {
            format: format.into(),
            size: size.into(),
            loops,
            fps: 30.0,
        }
    }

    fn scene(notation: &str) -> Scene {
        Scene::new(&PatternSpec::from_notation(notation)).unwrap()
    }

    fn run(job: &mut ExportJob) -> (usize, Vec<u8>) {
        let mut steps = 0;
        loop {
            match job.step().unwrap() {
                Step::Done(bytes) => return (steps, bytes),
                _ => steps += 1,
            }
        }
    }

    #[test]
    fn a_gif_from_the_page_is_the_command_lines_gif() {
        let s = scene("3");
        let mut job = ExportJob::new(
            s.clone(),
            |w, h| auto_camera(&s, w as f32 / h as f32, None),
            "3",
            &settings("gif", "160x120", 1),
        )
        .unwrap();
        assert_eq!(job.file_name, "3.gif");
        let frames = job.frames();
        assert_eq!(frames, (s.picture_loop_duration() * 30.0).round() as usize);
        let (steps, gif) = run(&mut job);
        assert_eq!((steps, job.done()), (frames, frames));
        // The same frames through the command line's parallel writer.
        let camera = auto_camera(&s, 160.0 / 120.0, None);
        let plan = FrameSpec::new(Format::Gif, "160x120", 30.0, (Some(1), None), 0.0, None)
            .unwrap()
            .plan(s.picture_loop_duration())
            .unwrap();
        let cli = crate::export::gif_anim::write_gif(
            &s,
            &camera.into(),
            &plan,
            (160, 120),
            &crate::export::Silent,
            Vec::new(),
        )
        .unwrap();
        assert!(gif == cli, "{} vs {} bytes", gif.len(), cli.len());
    }

    #[test]
    fn png_and_video_frames_come_out_and_bad_settings_are_refused() {
        let s = scene("(4,4)");
        let camera = |w: u32, h: u32| auto_camera(&s, w as f32 / h as f32, None);
        let mut png =
            ExportJob::new(s.clone(), camera, "(4,4)", &settings("png", "64x48", 2)).unwrap();
        assert_eq!(png.file_name, "(4,4).png");
        let frames = png.frames();
        let (_, bytes) = run(&mut png);
        assert_eq!(&bytes[1..4], b"PNG");
        let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
        let reader = decoder.read_info().unwrap();
        assert_eq!(
            reader
                .info()
                .animation_control
                .map(|a| a.num_frames as usize),
            Some(frames)
        );

        let mut video =
            ExportJob::new(s.clone(), camera, "<3p|3p>", &settings("webm", "64x48", 1)).unwrap();
        assert_eq!(video.file_name, "3p_3p.webm");
        match video.step().unwrap() {
            Step::VideoFrame { index, rgba } => assert_eq!((index, rgba.len()), (0, 64 * 48 * 4)),
            other => panic!("{other:?}"),
        }
        assert_eq!(
            video.timestamp_us(30),
            (30.0 * video.plan.interval * 1e6).round()
        );

        for (bad, why) in [
            (settings("webm", "65x48", 1), "even"),
            (settings("bmp", "64x48", 1), "cannot export"),
            (settings("gif", "4000x48", 1), "too large"),
            (settings("gif", "64x48", 0), "loops"),
        ] {
            let e = ExportJob::new(s.clone(), camera, "x", &bad).err().unwrap();
            assert!(e.contains(why), "{e}");
        }
    }

    #[test]
    fn file_names_keep_what_is_safe() {
        assert_eq!(file_stem("Mills Mess"), "Mills Mess");
        assert_eq!(file_stem("<3p|3p>"), "3p_3p");
        assert_eq!(file_stem("pattern=531;bps=4"), "pattern_531_bps_4");
        assert_eq!(file_stem("../../etc/passwd"), "etc_passwd");
        assert_eq!(file_stem("///"), "pattern");
        assert_eq!(file_stem(&"x".repeat(300)).len(), 80);
    }
}
