//! Animated PNG: full colour (RGB, 8 bits), looping forever, written by the `png` crate.
//! One frame gives an ordinary still PNG. Frame delays are in milliseconds, rounded
//! cumulatively so they add up to the animation's length. After the first frame only the
//! rectangle that changed is stored (disposal: none, blend: source), so files stay small.
//! The command line's `write_apng` takes frames rendered in parallel; [`ApngStream`] (every
//! target, the web page's) renders and writes one frame per call, in the same blocks, so
//! both write the same bytes.

use std::io::Write;

#[cfg(not(target_arch = "wasm32"))]
use super::ordered::for_each_rgb_frame;
use super::ordered::RgbFrames;
use super::plan::FramePlan;
use super::ExportError;
#[cfg(not(target_arch = "wasm32"))]
use super::Progress;
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

/// The encoder's side of an (animated) PNG: frames go in one after another.
struct ApngWriter<W: Write> {
    writer: png::Writer<W>,
    plan: FramePlan,
    width: usize,
    count: u32,
    previous: Option<Vec<u8>>,
    region: Vec<u8>,
}

impl<W: Write> ApngWriter<W> {
    fn new(plan: &FramePlan, (width, height): (u32, u32), writer: W) -> Result<Self, ExportError> {
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
        Ok(ApngWriter {
            writer: encoder.write_header().map_err(png_error)?,
            plan: *plan,
            width: width as usize,
            count,
            previous: None,
            region: Vec::new(),
        })
    }

    /// Writes frame `i` (RGB): whole the first time, then the rectangle that changed.
    fn push(&mut self, i: usize, rgb: &[u8]) -> Result<(), ExportError> {
        let writer = &mut self.writer;
        if self.count > 1 {
            let ms = self.plan.delay_in(i, 1000).min(u16::MAX as u32) as u16;
            writer.set_frame_delay(ms, 1000).map_err(png_error)?;
        }
        match &self.previous {
            None => writer.write_image_data(rgb).map_err(png_error)?,
            Some(before) => {
                // An unchanged frame still needs one pixel.
                let (x0, y0, x1, y1) =
                    changed_rect(before, rgb, self.width).unwrap_or((0, 0, 1, 1));
                self.region.clear();
                for y in y0..y1 {
                    let row = 3 * (y * self.width);
                    self.region
                        .extend_from_slice(&rgb[row + 3 * x0..row + 3 * x1]);
                }
                // Home, resize, move: the frame must fit the image after every step.
                writer.set_frame_position(0, 0).map_err(png_error)?;
                writer
                    .set_frame_dimension((x1 - x0) as u32, (y1 - y0) as u32)
                    .map_err(png_error)?;
                writer
                    .set_frame_position(x0 as u32, y0 as u32)
                    .map_err(png_error)?;
                writer.write_image_data(&self.region).map_err(png_error)?;
            }
        }
        if self.count > 1 {
            let keep = self.previous.get_or_insert_with(Vec::new);
            keep.clear();
            keep.extend_from_slice(rgb);
        }
        Ok(())
    }

    fn finish(self) -> Result<(), ExportError> {
        self.writer.finish().map_err(png_error)
    }
}

#[cfg(not(target_arch = "wasm32"))]
/// Write the frames of `plan` as one (animated) PNG to `writer`.
pub(crate) fn write_apng<W: Write>(
    source: &dyn PoseSource,
    picture: &Picture,
    plan: &FramePlan,
    size: (u32, u32),
    progress: &dyn Progress,
    writer: W,
) -> Result<(), ExportError> {
    let mut apng = ApngWriter::new(plan, size, writer)?;
    for_each_rgb_frame(source, picture, plan, size, |i, rgb| {
        apng.push(i, rgb)?;
        progress.advance(1);
        Ok(())
    })?;
    apng.finish()
}

/// An (animated) PNG rendered and written one frame per [`ApngStream::next`].
pub struct ApngStream<W: Write> {
    apng: ApngWriter<W>,
    frames: RgbFrames,
}

impl<W: Write> ApngStream<W> {
    /// Starts a PNG of the frames of `plan` at `size`, writing its header to `writer`.
    pub fn new(plan: &FramePlan, size: (u32, u32), writer: W) -> Result<Self, ExportError> {
        Ok(ApngStream {
            apng: ApngWriter::new(plan, size, writer)?,
            frames: RgbFrames::new(plan, size),
        })
    }

    /// Frames written so far.
    pub fn written(&self) -> usize {
        self.frames.rendered()
    }

    /// Whether every frame is written.
    pub fn done(&self) -> bool {
        self.frames.rendered() >= self.apng.plan.count
    }

    /// Renders and writes the next frame (nothing once [`ApngStream::done`]).
    pub fn next(&mut self, source: &dyn PoseSource, picture: &Picture) -> Result<(), ExportError> {
        if let Some((i, rgb)) = self.frames.next(source, picture)? {
            self.apng.push(i, rgb)?;
        }
        Ok(())
    }

    /// Writes the end of the file (its writer then holds the whole PNG).
    pub fn finish(self) -> Result<(), ExportError> {
        self.apng.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_writes_the_bytes_of_the_parallel_writer() {
        use crate::render::auto_camera;
        use crate::render::fixture::Cascade;
        let cascade = Cascade::default();
        let camera = crate::render::Picture::from(auto_camera(&cascade, 4.0 / 3.0, None));
        let plan = FramePlan {
            start: 0.0,
            interval: 0.05,
            count: 40,
            speed: 1.0,
        };
        let mut parallel = Vec::new();
        write_apng(
            &cascade,
            &camera,
            &plan,
            (64, 48),
            &super::super::Silent,
            &mut parallel,
        )
        .unwrap();
        let mut streamed = Vec::new();
        let mut stream = ApngStream::new(&plan, (64, 48), &mut streamed).unwrap();
        while !stream.done() {
            stream.next(&cascade, &camera).unwrap();
        }
        assert_eq!(stream.written(), 40);
        stream.finish().unwrap();
        assert!(streamed.len() > 500);
        assert!(
            streamed == parallel,
            "{} vs {} bytes",
            streamed.len(),
            parallel.len()
        );
    }

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
