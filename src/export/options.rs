//! Export options, validated once before any work: image size, frame rate, length, start,
//! output kind. A value of [`ExportOptions`] is always valid.

use std::path::{Path, PathBuf};

use super::plan::{format_of, Format, FramePlan, FrameSpec, Length};
use super::staging::{existing_frames, parent_dir};
use super::ExportError;
use crate::sound::SoundParts;

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
    frames: FrameSpec,
    force: bool,
    crf: Option<u32>,
    sound: Option<SoundParts>,
}

impl ExportOptions {
    /// Validate a request: size `WxH` with sides 1..=8192, fps finite in (0, 1000] (at most
    /// 50 for a GIF), loops ≥ 1 or a finite positive duration (not both), a finite start,
    /// and an output path that is not obviously wrong (a `.gif` that is a directory, a frame
    /// directory that is a file, existing output without `force`).
    pub fn new(request: &ExportRequest) -> Result<ExportOptions, ExportError> {
        let format = format_of(&request.out)?;
        let frames = FrameSpec::new(
            format,
            &request.size,
            request.fps,
            (request.loops, request.duration),
            request.start,
            request.crf,
        )?
        .with_speed(request.speed)?;
        if request.sound.is_some() && !format.is_video() {
            return Err(ExportError::SoundNotVideo);
        }
        let options = ExportOptions {
            out: request.out.clone(),
            frames,
            force: request.force,
            crf: request.crf,
            sound: request.sound,
        };
        options.check_output()?;
        Ok(options)
    }

    /// Refuse outputs that cannot work or would overwrite without `force`.
    fn check_output(&self) -> Result<(), ExportError> {
        let out = &self.out;
        match self.frames.format {
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
        self.frames.format
    }
    pub fn width(&self) -> u32 {
        self.frames.width
    }
    pub fn height(&self) -> u32 {
        self.frames.height
    }
    pub(crate) fn fps(&self) -> f64 {
        self.frames.fps
    }
    pub(crate) fn length(&self) -> Length {
        self.frames.length
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
    pub(crate) fn plan(&self, loop_duration: f64) -> Result<FramePlan, ExportError> {
        self.frames.plan(loop_duration)
    }
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
}
