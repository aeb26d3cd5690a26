//! Animated PNG: full colour (RGB, 8 bits), looping forever, written by the `png` crate.
//! One frame gives an ordinary still PNG. Frame delays are in milliseconds, rounded
//! cumulatively so they add up to the animation's length.

use std::io::Write;

use super::options::FramePlan;
use super::ordered::for_each_rgb_frame;
use super::{ExportError, PoseSource, Progress};
use crate::render::Camera;

fn png_error(e: png::EncodingError) -> ExportError {
    match e {
        png::EncodingError::IoError(source) => ExportError::Io {
            path: std::path::PathBuf::new(),
            source,
        },
        other => ExportError::Encode(format!("PNG: {other}")),
    }
}

/// Write the frames of `plan` as one (animated) PNG to `writer`.
pub fn write_apng<W: Write>(
    source: &dyn PoseSource,
    camera: &Camera,
    plan: &FramePlan,
    (width, height): (u32, u32),
    progress: &dyn Progress,
    writer: W,
) -> Result<(), ExportError> {
    let mut encoder = png::Encoder::new(writer, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    let count =
        u32::try_from(plan.count).map_err(|_| ExportError::TooManyFrames(plan.count as f64))?;
    if count > 1 {
        // 0 plays: loop forever.
        encoder.set_animated(count, 0).map_err(png_error)?;
    }
    let mut writer = encoder.write_header().map_err(png_error)?;
    for_each_rgb_frame(source, camera, plan, (width, height), |i, rgb| {
        if count > 1 {
            let ms = plan.delay_in(i, 1000).min(u16::MAX as u32) as u16;
            writer.set_frame_delay(ms, 1000).map_err(png_error)?;
        }
        writer.write_image_data(rgb).map_err(png_error)?;
        progress.advance(1);
        Ok(())
    })?;
    writer.finish().map_err(png_error)
}
