//! Frames rendered in parallel and handed over in order, for encoders that take one frame
//! after another (APNG, video).

use rayon::prelude::*;

use super::options::FramePlan;
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
        let camera = auto_camera(&cascade, 4.0 / 3.0, None);
        let plan = FramePlan {
            start: 0.0,
            interval: 0.05,
            count: 21,
        };
        let mut seen = Vec::new();
        for_each_rgb_frame(&cascade, &camera.into(), &plan, (80, 60), |i, rgb| {
            assert_eq!(rgb.len(), 80 * 60 * 3);
            if i == 17 {
                let want =
                    crate::export::render_frame(&cascade, &camera.into(), 80, 60, plan.time(17))
                        .unwrap();
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
    fn chunks_stay_within_the_memory_budget() {
        assert_eq!(chunking(400 * 450), (32, 8));
        let (chunk, _) = chunking(8192 * 8192);
        assert_eq!(chunk, 2);
    }
}
