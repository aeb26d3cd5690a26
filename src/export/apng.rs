//! Animated PNG: full colour (RGB, 8 bits), looping forever, written by the `png` crate.
//! One frame gives an ordinary still PNG. Frame delays are in milliseconds, rounded
//! cumulatively so they add up to the animation's length. After the first frame only the
//! rectangle that changed is stored (disposal: none, blend: source), so files stay small.

use std::io::Write;

use super::options::FramePlan;
use super::ordered::for_each_rgb_frame;
use super::{ExportError, Progress};
use crate::render::Picture;
use crate::render::PoseSource;

fn png_error(e: png::EncodingError) -> ExportError {
    match e {
        png::EncodingError::IoError(source) => ExportError::Io {
            path: std::path::PathBuf::new(),
            source,
        },
        other => ExportError::Encode(format!("PNG: {other}")),
    }
}

/// The rectangle `(x0, y0, x1, y1)` of pixels that differ between two RGB images `width`
/// pixels wide, or `None` when they are equal.
fn changed_rect(before: &[u8], now: &[u8], width: usize) -> Option<(usize, usize, usize, usize)> {
    let row = 3 * width;
    let rows: Vec<usize> = (0..now.len() / row)
        .filter(|&y| before[y * row..(y + 1) * row] != now[y * row..(y + 1) * row])
        .collect();
    let (&top, &bottom) = (rows.first()?, rows.last()?);
    let (mut left, mut right) = (width, 0);
    for &y in &rows {
        let (b, n) = (
            &before[y * row..(y + 1) * row],
            &now[y * row..(y + 1) * row],
        );
        let differs = |x: usize| b[3 * x..3 * x + 3] != n[3 * x..3 * x + 3];
        if let Some(x) = (0..left).find(|&x| differs(x)) {
            left = x;
        }
        if let Some(x) = (right.max(left)..width).rev().find(|&x| differs(x)) {
            right = right.max(x);
        }
    }
    Some((left, top, right + 1, bottom + 1))
}

/// Write the frames of `plan` as one (animated) PNG to `writer`.
pub(crate) fn write_apng<W: Write>(
    source: &dyn PoseSource,
    picture: &Picture,
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
    let mut previous: Option<Vec<u8>> = None;
    let mut region = Vec::new();
    for_each_rgb_frame(source, picture, plan, (width, height), |i, rgb| {
        if count > 1 {
            let ms = plan.delay_in(i, 1000).min(u16::MAX as u32) as u16;
            writer.set_frame_delay(ms, 1000).map_err(png_error)?;
        }
        match &previous {
            None => writer.write_image_data(rgb).map_err(png_error)?,
            Some(before) => {
                // An unchanged frame still needs one pixel.
                let (x0, y0, x1, y1) =
                    changed_rect(before, rgb, width as usize).unwrap_or((0, 0, 1, 1));
                region.clear();
                for y in y0..y1 {
                    let row = 3 * (y * width as usize);
                    region.extend_from_slice(&rgb[row + 3 * x0..row + 3 * x1]);
                }
                // Home, resize, move: the frame must fit the image after every step.
                writer.set_frame_position(0, 0).map_err(png_error)?;
                writer
                    .set_frame_dimension((x1 - x0) as u32, (y1 - y0) as u32)
                    .map_err(png_error)?;
                writer
                    .set_frame_position(x0 as u32, y0 as u32)
                    .map_err(png_error)?;
                writer.write_image_data(&region).map_err(png_error)?;
            }
        }
        if count > 1 {
            let keep = previous.get_or_insert_with(Vec::new);
            keep.clear();
            keep.extend_from_slice(rgb);
        }
        progress.advance(1);
        Ok(())
    })?;
    writer.finish().map_err(png_error)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changed_rect_bounds_the_differing_pixels() {
        let before = vec![0u8; 3 * 5 * 4];
        let mut now = before.clone();
        assert_eq!(changed_rect(&before, &now, 5), None);
        now[3 * (5 + 1) + 2] = 9; // (1, 1), blue
        now[3 * (2 * 5 + 3)] = 9; // (3, 2), red
        assert_eq!(changed_rect(&before, &now, 5), Some((1, 1, 4, 3)));
    }
}
