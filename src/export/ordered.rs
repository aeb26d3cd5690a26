//! Frames handed over in order, for encoders that take one frame after another (APNG,
//! video): rendered in parallel fixed blocks (`for_each_rgb_frame`, native), or one at a
//! time in the same blocks ([`RgbFrames`], every target), so both give the same pixels.

#[cfg(not(target_arch = "wasm32"))]
use rayon::prelude::*;

use super::plan::FramePlan;
use super::ExportError;
use crate::render::raster::Canvas;
use crate::render::Picture;
use crate::render::PoseSource;

/// Frames per parallel chunk at most.
const CHUNK: usize = 32;
/// Consecutive frames drawn on one canvas at most.
const BLOCK: usize = 8;
/// Bytes of RGB frames held at once at most.
const CHUNK_BYTES: usize = 128 << 20;

/// Frames per chunk and per block for RGB frames of `pixels` pixels.
fn chunking(pixels: usize) -> (usize, usize) {
    let chunk = (CHUNK_BYTES / (3 * pixels).max(1)).clamp(2, CHUNK);
    let block = (chunk / 2).clamp(1, BLOCK);
    (chunk, block)
}

/// Whether frame `i` starts a block (a fresh canvas) when frames are drawn `chunk` at a
/// time in blocks of `block`.
fn starts_block(i: usize, (chunk, block): (usize, usize)) -> bool {
    (i % chunk).is_multiple_of(block)
}

/// The frames of a plan, rendered one at a time (RGB, 3 bytes a pixel, rows top to bottom).
pub struct RgbFrames {
    plan: FramePlan,
    size: (u32, u32),
    chunking: (usize, usize),
    canvas: Option<Canvas>,
    next: usize,
    rgb: Vec<u8>,
}

impl RgbFrames {
    pub fn new(plan: &FramePlan, (width, height): (u32, u32)) -> RgbFrames {
        RgbFrames {
            plan: *plan,
            size: (width, height),
            chunking: chunking(width as usize * height as usize),
            canvas: None,
            next: 0,
            rgb: Vec::new(),
        }
    }

    /// Frames rendered so far.
    pub fn rendered(&self) -> usize {
        self.next
    }

    /// The next frame and its index, `None` after the last.
    pub fn next(
        &mut self,
        source: &dyn PoseSource,
        picture: &Picture,
    ) -> Result<Option<(usize, &[u8])>, ExportError> {
        let i = self.next;
        if i >= self.plan.count {
            return Ok(None);
        }
        let (width, height) = self.size;
        if starts_block(i, self.chunking) || self.canvas.is_none() {
            self.canvas = Some(
                Canvas::new(width, height)
                    .ok_or_else(|| ExportError::BadSize(format!("{width}x{height}")))?,
            );
        }
        let frame = picture.frame(source, self.plan.time(i), width, height);
        if let Some(canvas) = self.canvas.as_mut() {
            canvas.draw(&frame);
            self.rgb.clear();
            canvas.write_rgb(&mut self.rgb);
        }
        self.next += 1;
        Ok(Some((i, &self.rgb)))
    }
}

#[cfg(not(target_arch = "wasm32"))]
/// Render the frames of `plan` (RGB, 3 bytes a pixel, rows top to bottom) and pass them to
/// `sink` in order, with their index. Rendering runs in parallel fixed blocks, so the pixels
/// do not depend on thread scheduling; at most one chunk of frames is held.
pub(crate) fn for_each_rgb_frame(
    source: &dyn PoseSource,
    picture: &Picture,
    plan: &FramePlan,
    (width, height): (u32, u32),
    mut sink: impl FnMut(usize, &[u8]) -> Result<(), ExportError>,
) -> Result<(), ExportError> {
    let (chunk, block) = chunking(width as usize * height as usize);
    for chunk_start in (0..plan.count).step_by(chunk) {
        let chunk_end = (chunk_start + chunk).min(plan.count);
        let blocks: Vec<Option<Vec<Vec<u8>>>> = (chunk_start..chunk_end)
            .step_by(block)
            .collect::<Vec<_>>()
            .into_par_iter()
            .map(|block_start| {
                let mut canvas = Canvas::new(width, height)?;
                Some(
                    (block_start..(block_start + block).min(chunk_end))
                        .map(|i| {
                            let frame = picture.frame(source, plan.time(i), width, height);
                            canvas.draw(&frame);
                            let mut rgb = Vec::with_capacity(3 * (width * height) as usize);
                            canvas.write_rgb(&mut rgb);
                            rgb
                        })
                        .collect(),
                )
            })
            .collect();
        let mut i = chunk_start;
        for block in blocks {
            let block = block.ok_or_else(|| ExportError::BadSize(format!("{width}x{height}")))?;
            for rgb in block {
                sink(i, &rgb)?;
                i += 1;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::auto_camera;
    use crate::render::fixture::Cascade;

    #[test]
    fn frames_arrive_in_order_and_match_direct_rendering() {
        let cascade = Cascade::default();
        let camera = crate::render::Picture::from(auto_camera(&cascade, 4.0 / 3.0, None));
        let plan = FramePlan {
            start: 0.0,
            interval: 0.05,
            count: 21,
            speed: 1.0,
        };
        let mut seen = Vec::new();
        for_each_rgb_frame(&cascade, &camera, &plan, (80, 60), |i, rgb| {
            assert_eq!(rgb.len(), 80 * 60 * 3);
            if i == 17 {
                let want =
                    crate::export::render_frame(&cascade, &camera, 80, 60, plan.time(17)).unwrap();
                let differing = want.pixels.iter().zip(rgb).filter(|(a, b)| a != b).count();
                assert!(differing <= 3, "{differing} bytes differ");
            }
            seen.push(i);
            Ok(())
        })
        .unwrap();
        assert_eq!(seen, (0..21).collect::<Vec<_>>());
    }

    #[test]
    fn one_at_a_time_gives_the_parallel_pixels() {
        let cascade = Cascade::default();
        let camera = crate::render::Picture::from(auto_camera(&cascade, 4.0 / 3.0, None));
        let plan = FramePlan {
            start: 0.3,
            interval: 0.04,
            count: 45,
            speed: 1.0,
        };
        let mut parallel = Vec::new();
        for_each_rgb_frame(&cascade, &camera, &plan, (96, 72), |_, rgb| {
            parallel.push(rgb.to_vec());
            Ok(())
        })
        .unwrap();
        let mut frames = RgbFrames::new(&plan, (96, 72));
        let mut k = 0;
        while let Some((i, rgb)) = frames.next(&cascade, &camera).unwrap() {
            assert_eq!(i, k);
            assert!(rgb == parallel[i].as_slice(), "frame {i} differs");
            k += 1;
        }
        assert_eq!((k, frames.rendered()), (45, 45));
    }

    #[test]
    fn chunks_stay_within_the_memory_budget() {
        assert_eq!(chunking(400 * 450), (32, 8));
        let (chunk, _) = chunking(8192 * 8192);
        assert_eq!(chunk, 2);
    }
}
