//! Animated GIF encoding: one global palette, frame differencing, parallel LZW.
//!
//! Frames are rendered and quantised in parallel chunks (rayon), differenced against the
//! previous frame (only the changed rectangle is stored, unchanged pixels inside it are
//! transparent), LZW-compressed in parallel, and written in order. At most one chunk of
//! indexed frames is held in memory.

use std::io::Write;
use std::path::PathBuf;

use gif::{DisposalMethod, Encoder, Repeat};
use rayon::prelude::*;

use super::options::FramePlan;
use super::palette::{Palette, TRANSPARENT};
use super::{ExportError, PoseSource, Progress};
use crate::render::raster::Canvas;
use crate::render::{build_frame, Camera};

/// Frames rendered per parallel chunk at most (one chunk of indexed frames is held).
const CHUNK: usize = 32;
/// Consecutive frames drawn on one canvas at most.
const BLOCK: usize = 8;
/// Pixel budget of one chunk of indexed frames (bytes), keeping memory bounded for large
/// images.
const CHUNK_BYTES: usize = 128 << 20;

/// Frames per chunk and per block for images of `pixels` pixels: at most [`CHUNK`] and
/// [`CHUNK_BYTES`], at least two blocks per chunk for both cores.
fn chunking(pixels: usize) -> (usize, usize) {
    let chunk = (CHUNK_BYTES / pixels.max(1)).clamp(2, CHUNK);
    let block = (chunk / 2).clamp(1, BLOCK);
    (chunk, block)
}

/// Write failures keep their I/O error (the caller names the file); others are encoding
/// errors.
fn gif_error(e: gif::EncodingError) -> ExportError {
    match e {
        gif::EncodingError::Io(source) => ExportError::Io {
            path: PathBuf::new(),
            source,
        },
        other => ExportError::Encode(format!("GIF: {other}")),
    }
}

/// Write the frames of `plan` as an infinitely looping GIF to `writer`.
pub fn write_gif<W: Write>(
    source: &dyn PoseSource,
    camera: &Camera,
    plan: &FramePlan,
    size: (u32, u32),
    progress: &dyn Progress,
    writer: W,
) -> Result<W, ExportError> {
    let (width, height) = size;
    let (w16, h16) = match (u16::try_from(width), u16::try_from(height)) {
        (Ok(w), Ok(h)) => (w, h),
        _ => return Err(ExportError::BadSize(format!("{width}x{height}"))),
    };
    let palette = sample_palette(source, camera, plan, size)?;
    let mut encoder = Encoder::new(writer, w16, h16, &palette.table()).map_err(gif_error)?;
    encoder.set_repeat(Repeat::Infinite).map_err(gif_error)?;

    let mut previous: Option<Vec<u8>> = None;
    let (chunk, block) = chunking(width as usize * height as usize);
    for chunk_start in (0..plan.count).step_by(chunk) {
        let chunk_end = (chunk_start + chunk).min(plan.count);
        // Fixed blocks drawn in order on a fresh canvas each: the canvas redraws only what
        // changes between consecutive frames, and fixed blocks keep the output identical
        // however the threads are scheduled.
        let blocks: Vec<Vec<Vec<u8>>> = (chunk_start..chunk_end)
            .step_by(block)
            .collect::<Vec<_>>()
            .into_par_iter()
            .map(|block_start| {
                let Some(mut canvas) = Canvas::new(width, height) else {
                    return Vec::new();
                };
                (block_start..(block_start + block).min(chunk_end))
                    .map(|i| {
                        let frame =
                            build_frame(&source.pose_at(plan.time(i)), camera, width, height);
                        canvas.draw(&frame);
                        let mut out = Vec::new();
                        palette.quantize_rgba(canvas.rgba(), &mut out);
                        out
                    })
                    .collect()
            })
            .collect();
        let indexed: Vec<Vec<u8>> = blocks.into_iter().flatten().collect();
        if indexed.len() != chunk_end - chunk_start {
            return Err(ExportError::BadSize(format!("{width}x{height}")));
        }
        let encoded: Vec<gif::Frame<'static>> = (0..indexed.len())
            .into_par_iter()
            .map(|k| {
                let before = if k == 0 {
                    previous.as_deref()
                } else {
                    Some(indexed[k - 1].as_slice())
                };
                let mut frame = difference(before, &indexed[k], w16, h16);
                frame.delay = plan.gif_delay(chunk_start + k);
                frame.make_lzw_pre_encoded();
                frame
            })
            .collect();
        for frame in &encoded {
            encoder
                .write_lzw_pre_encoded_frame(frame)
                .map_err(gif_error)?;
            progress.advance(1);
        }
        previous = indexed.into_iter().last();
    }
    encoder.into_inner().map_err(gif_error)
}

/// The palette from three frames spread over the plan.
fn sample_palette(
    source: &dyn PoseSource,
    camera: &Camera,
    plan: &FramePlan,
    (width, height): (u32, u32),
) -> Result<Palette, ExportError> {
    let picks: Vec<usize> = {
        let mut v = vec![0, plan.count / 3, 2 * plan.count / 3];
        v.dedup();
        v
    };
    let rendered: Vec<(crate::render::Frame, Vec<u8>)> = picks
        .par_iter()
        .map(|&i| {
            let frame = build_frame(&source.pose_at(plan.time(i)), camera, width, height);
            let pixels = Canvas::new(width, height).map(|mut c| {
                c.draw(&frame);
                c.rgba().to_vec()
            });
            (frame, pixels.unwrap_or_default())
        })
        .collect();
    let frames: Vec<&crate::render::Frame> = rendered.iter().map(|(f, _)| f).collect();
    let samples: Vec<&[u8]> = rendered.iter().map(|(_, p)| p.as_slice()).collect();
    Ok(Palette::for_frames(&frames, &samples))
}

/// The GIF frame that turns `before` into `now`: the whole image for the first frame,
/// otherwise the bounding rectangle of the changed pixels with unchanged ones transparent
/// (a 1×1 transparent frame when nothing changed). Disposal: keep.
pub fn difference(
    before: Option<&[u8]>,
    now: &[u8],
    width: u16,
    height: u16,
) -> gif::Frame<'static> {
    let (w, h) = (width as usize, height as usize);
    let mut frame = gif::Frame {
        dispose: DisposalMethod::Keep,
        ..gif::Frame::default()
    };
    let Some(before) = before else {
        frame.width = width;
        frame.height = height;
        frame.buffer = now.to_vec().into();
        return frame;
    };
    let rows_changed: Vec<usize> = (0..h)
        .filter(|&y| before[y * w..(y + 1) * w] != now[y * w..(y + 1) * w])
        .collect();
    frame.transparent = Some(TRANSPARENT);
    let (Some(&top), Some(&bottom)) = (rows_changed.first(), rows_changed.last()) else {
        frame.width = 1;
        frame.height = 1;
        frame.buffer = vec![TRANSPARENT].into();
        return frame;
    };
    let (mut left, mut right) = (w, 0);
    for &y in &rows_changed {
        let (b, n) = (&before[y * w..(y + 1) * w], &now[y * w..(y + 1) * w]);
        // Only look outside the columns already known to change.
        if let Some(x) = (0..left.min(w)).find(|&x| b[x] != n[x]) {
            left = x;
        }
        if let Some(x) = (right.max(left)..w).rev().find(|&x| b[x] != n[x]) {
            right = right.max(x);
        }
    }
    let mut buffer = Vec::with_capacity((right + 1 - left) * (bottom + 1 - top));
    for y in top..=bottom {
        for x in left..=right {
            let i = y * w + x;
            buffer.push(if before[i] == now[i] {
                TRANSPARENT
            } else {
                now[i]
            });
        }
    }
    frame.left = left as u16;
    frame.top = top as u16;
    frame.width = (right + 1 - left) as u16;
    frame.height = (bottom + 1 - top) as u16;
    frame.buffer = buffer.into();
    frame
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_shrink_for_large_images() {
        assert_eq!(chunking(400 * 450), (32, 8));
        assert_eq!(chunking(4096 * 4096), (8, 4));
        assert_eq!(chunking(8192 * 8192), (2, 1));
    }

    #[test]
    fn first_frame_is_whole() {
        let now = vec![1u8; 12];
        let f = difference(None, &now, 4, 3);
        assert_eq!((f.left, f.top, f.width, f.height), (0, 0, 4, 3));
        assert_eq!(f.transparent, None);
        assert_eq!(&*f.buffer, &now[..]);
    }

    #[test]
    fn only_the_changed_rectangle_is_stored() {
        #[rustfmt::skip]
        let before = vec![
            0, 0, 0, 0, 0,
            0, 0, 0, 0, 0,
            0, 0, 0, 0, 0,
            0, 0, 0, 0, 0,
        ];
        #[rustfmt::skip]
        let now = vec![
            0, 0, 0, 0, 0,
            0, 7, 0, 0, 0,
            0, 0, 0, 8, 0,
            0, 0, 0, 0, 0,
        ];
        let f = difference(Some(&before), &now, 5, 4);
        assert_eq!((f.left, f.top, f.width, f.height), (1, 1, 3, 2));
        assert_eq!(f.transparent, Some(TRANSPARENT));
        let t = TRANSPARENT;
        assert_eq!(&*f.buffer, &[7, t, t, t, t, 8]);
    }

    #[test]
    fn unchanged_frame_is_one_transparent_pixel() {
        let img = vec![3u8; 20];
        let f = difference(Some(&img), &img, 5, 4);
        assert_eq!((f.width, f.height), (1, 1));
        assert_eq!(&*f.buffer, &[TRANSPARENT]);
    }
}
