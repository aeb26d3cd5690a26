//! PNG frame sequences: every frame rendered, encoded and written on its own (rayon over
//! frames, one reusable canvas per worker), so memory stays bounded however long the export.

use std::io::Write;
use std::path::Path;

use rayon::prelude::*;

use super::plan::FramePlan;
use super::staging::StagedFrames;
use super::{ExportError, Progress};
use crate::render::PoseSource;

/// Consecutive frames drawn on one canvas.
const BLOCK: usize = 8;
use crate::render::raster::{Canvas, RgbImage};
use crate::render::Picture;

/// Encode an RGB image as PNG (fast deflate: frames are flat-coloured, so it still
/// compresses well).
pub fn encode_png<W: Write>(image: &RgbImage, writer: W) -> Result<(), ExportError> {
    let mut encoder = png::Encoder::new(writer, image.width, image.height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    let png_error = |e: png::EncodingError| ExportError::Encode(format!("PNG: {e}"));
    let mut writer = encoder.write_header().map_err(png_error)?;
    writer.write_image_data(&image.pixels).map_err(png_error)?;
    writer.finish().map_err(png_error)
}

/// Write PNG file `path` (created new) from an image.
fn write_png_file(image: &RgbImage, path: &Path) -> Result<(), ExportError> {
    let io = |e: std::io::Error| ExportError::Io {
        path: path.to_path_buf(),
        source: e,
    };
    let file = std::fs::File::create(path).map_err(io)?;
    let mut writer = std::io::BufWriter::with_capacity(1 << 16, file);
    encode_png(image, &mut writer)?;
    writer.flush().map_err(io)
}

/// Render the frames of `plan` into the staging directory, in parallel.
pub(crate) fn write_frames(
    source: &dyn PoseSource,
    picture: &Picture,
    plan: &FramePlan,
    (width, height): (u32, u32),
    staged: &StagedFrames,
    progress: &dyn Progress,
) -> Result<(), ExportError> {
    // Fixed blocks of consecutive frames, each drawn in order on a fresh canvas (which then
    // redraws only what changes): the output does not depend on thread scheduling.
    let blocks: Vec<usize> = (0..plan.count).step_by(BLOCK).collect();
    blocks.into_par_iter().try_for_each(|block_start| {
        let mut canvas = Canvas::new(width, height)
            .ok_or_else(|| ExportError::BadSize(format!("{width}x{height}")))?;
        let mut image = RgbImage {
            width,
            height,
            pixels: Vec::new(),
        };
        for i in block_start..(block_start + BLOCK).min(plan.count) {
            let frame = picture.frame(source, plan.time(i), width, height);
            canvas.draw(&frame);
            image.pixels.clear();
            canvas.write_rgb(&mut image.pixels);
            write_png_file(&image, &staged.staged_path(i))?;
            progress.advance(1);
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn png_round_trips() {
        let image = RgbImage {
            width: 3,
            height: 2,
            pixels: (0..18).map(|v| v * 10).collect(),
        };
        let mut bytes = Vec::new();
        encode_png(&image, &mut bytes).unwrap();
        let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert_eq!(
            (info.width, info.height, info.color_type),
            (3, 2, png::ColorType::Rgb)
        );
        assert_eq!(&buf[..info.buffer_size()], &image.pixels[..]);
    }
}
