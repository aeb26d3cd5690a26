//! MP4 (H.264, yuv420p) and WebM (VP9) through `ffmpeg`: raw RGB frames are piped to its
//! standard input (no temporary images); it writes the staging file, which the caller
//! renames into place when ffmpeg succeeded.
//!
//! The video's frame rate is exactly the requested one and it holds exactly the planned
//! frames, so it lasts `frames / fps` seconds.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};

use super::ordered::for_each_rgb_frame;
use super::plan::{Format, FramePlan};
use super::staging::{register_child, unregister_child};
use super::{ExportError, Progress};
use crate::render::Picture;
use crate::render::PoseSource;

/// The ffmpeg program (overridable with `JUGGLER_FFMPEG`, e.g. for a build elsewhere).
pub(crate) fn ffmpeg_program() -> std::ffi::OsString {
    std::env::var_os("JUGGLER_FFMPEG").unwrap_or_else(|| "ffmpeg".into())
}

/// Default constant rate factors: visually lossless-looking for flat-coloured frames.
pub(crate) fn default_crf(format: Format) -> u32 {
    if format == Format::WebM {
        32
    } else {
        20
    }
}

/// `fps` as an exact fraction for ffmpeg (`30`, `2997/100`).
pub(crate) fn rate_text(fps: f64) -> String {
    if fps.fract() == 0.0 {
        return format!("{}", fps as u64);
    }
    // Up to 6 decimals, reduced.
    let den = 1_000_000u64;
    let num = (fps * den as f64).round() as u64;
    let g = gcd(num, den);
    format!("{}/{}", num / g, den / g)
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a.max(1)
    } else {
        gcd(b, a % b)
    }
}

/// What ffmpeg writes: the video's size, format, frame rate and quality, the sound track
/// (a WAV file, if any) and the file written (a staging file: the container is named).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Output<'a> {
    pub(crate) size: (u32, u32),
    pub(crate) format: Format,
    pub(crate) fps: f64,
    pub(crate) crf: Option<u32>,
    pub(crate) audio: Option<&'a Path>,
    pub(crate) path: &'a Path,
}

/// The ffmpeg arguments for `output`: raw RGB frames on standard input, the WAV file as a
/// second input encoded as AAC (MP4) or Opus (WebM).
pub(crate) fn ffmpeg_args(output: &Output) -> Vec<std::ffi::OsString> {
    let Output {
        size: (width, height),
        format,
        fps,
        audio,
        path: out,
        ..
    } = *output;
    let crf = output.crf.unwrap_or_else(|| default_crf(format));
    let rate = rate_text(fps);
    let mut args: Vec<std::ffi::OsString> = [
        "-hide_banner",
        "-nostdin",
        "-loglevel",
        "error",
        "-y",
        "-f",
        "rawvideo",
        "-pix_fmt",
        "rgb24",
        "-s",
        &format!("{width}x{height}"),
        "-framerate",
        &rate,
        "-i",
        "pipe:0",
    ]
    .iter()
    .map(Into::into)
    .collect();
    match audio {
        Some(wav) => {
            args.extend(["-f", "wav", "-i"].iter().map(Into::into));
            args.push(wav.as_os_str().to_owned());
            let codec: &[&str] = match format {
                Format::WebM => &["-c:a", "libopus", "-b:a", "96k"],
                _ => &["-c:a", "aac", "-b:a", "128k"],
            };
            args.extend(["-map", "0:v", "-map", "1:a"].iter().map(Into::into));
            args.extend(codec.iter().map(Into::into));
        }
        None => args.push("-an".into()),
    }
    args.extend(["-pix_fmt", "yuv420p", "-r", &rate].iter().map(Into::into));
    let crf = crf.to_string();
    let codec: &[&str] = match format {
        Format::WebM => &[
            "-c:v",
            "libvpx-vp9",
            "-crf",
            &crf,
            "-b:v",
            "0",
            "-row-mt",
            "1",
            "-deadline",
            "good",
            "-cpu-used",
            "4",
            "-f",
            "webm",
        ],
        _ => &[
            "-c:v",
            "libx264",
            "-crf",
            &crf,
            "-preset",
            "medium",
            "-movflags",
            "+faststart",
            "-f",
            "mp4",
        ],
    };
    args.extend(codec.iter().map(Into::into));
    args.push(out.as_os_str().to_owned());
    args
}

/// Encode the frames of `plan` into `output.path` (already created) with ffmpeg.
pub(crate) fn write_video(
    source: &dyn PoseSource,
    picture: &Picture,
    plan: &FramePlan,
    output: Output,
    progress: &dyn Progress,
) -> Result<(), ExportError> {
    let size = output.size;
    let mut child = Command::new(ffmpeg_program())
        .args(ffmpeg_args(&output))
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => ExportError::NoFfmpeg,
            _ => ExportError::Ffmpeg(e.to_string()),
        })?;
    register_child(child.id());
    // Read ffmpeg's messages as they come, so a chatty ffmpeg never blocks.
    let stderr = child.stderr.take();
    let messages = std::thread::spawn(move || {
        let mut text = String::new();
        if let Some(mut s) = stderr {
            let _ = s.read_to_string(&mut text);
        }
        text
    });
    let mut stdin = child.stdin.take();
    let mut broken = false;
    let rendered = for_each_rgb_frame(source, picture, plan, size, |_, rgb| {
        if let Some(pipe) = stdin.as_mut() {
            if pipe.write_all(rgb).is_err() {
                // ffmpeg stopped reading: its own message says why.
                broken = true;
                stdin = None;
            }
        }
        progress.advance(1);
        Ok(())
    });
    drop(stdin);
    let status = child.wait();
    unregister_child(child.id());
    let text = messages.join().unwrap_or_default();
    rendered?;
    let status = status.map_err(|e| ExportError::Ffmpeg(e.to_string()))?;
    if !status.success() || broken {
        let last = text
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("no message")
            .trim()
            .to_string();
        return Err(ExportError::Ffmpeg(format!("{status}: {last}")));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_are_exact_fractions() {
        assert_eq!(rate_text(30.0), "30");
        assert_eq!(rate_text(29.97), "2997/100");
        assert_eq!(rate_text(12.5), "25/2");
    }

    #[test]
    fn arguments_name_the_codec_and_container() {
        let output = |format, size, fps, crf, audio, path| Output {
            size,
            format,
            fps,
            crf: Some(crf),
            audio,
            path,
        };
        let strings = |o: &Output| -> Vec<String> {
            ffmpeg_args(o)
                .into_iter()
                .map(|a| a.into_string().unwrap())
                .collect()
        };
        let args = strings(&output(
            Format::Mp4,
            (400, 450),
            25.0,
            20,
            None,
            Path::new("/tmp/.x.tmp"),
        ));
        let joined = args.join(" ");
        assert!(
            joined.contains("-s 400x450 -framerate 25 -i pipe:0"),
            "{joined}"
        );
        assert!(joined.contains("-c:v libx264 -crf 20"), "{joined}");
        assert!(joined.ends_with("-f mp4 /tmp/.x.tmp"), "{joined}");
        assert!(joined.contains("-i pipe:0 -an"), "{joined}");
        let webm = strings(&output(
            Format::WebM,
            (2, 2),
            30.0,
            31,
            None,
            Path::new("o"),
        ));
        assert!(webm.join(" ").contains("-c:v libvpx-vp9 -crf 31 -b:v 0"));
        // With a sound track: the WAV file is the second input, AAC in MP4, Opus in WebM.
        let wav = Path::new("/tmp/.s.tmp");
        let mp4 = strings(&output(
            Format::Mp4,
            (2, 2),
            30.0,
            20,
            Some(wav),
            Path::new("o"),
        ))
        .join(" ");
        assert!(
            mp4.contains("-i pipe:0 -f wav -i /tmp/.s.tmp -map 0:v -map 1:a -c:a aac"),
            "{mp4}"
        );
        assert!(!mp4.contains("-an"));
        let webm = strings(&output(
            Format::WebM,
            (2, 2),
            30.0,
            20,
            Some(wav),
            Path::new("o"),
        ))
        .join(" ");
        assert!(webm.contains("-c:a libopus"), "{webm}");
    }
}
