//! Animated GIF encoding: one global palette, frame differencing, LZW with run chains.
//!
//! Frames are drawn in fixed blocks of consecutive frames, each block on a fresh canvas that
//! redraws only what changes; a frame is quantised (only the redrawn rectangles), differenced
//! against the previous frame (only the changed rectangle is stored, unchanged pixels inside
//! it are transparent), LZW-compressed and written in order. The command line's [`write_gif`]
//! renders and compresses the blocks of a chunk in parallel (rayon, native only) and holds at
//! most one chunk of indexed frames; [`GifStream`] (every target, the web page's) encodes one
//! frame per call, for work spread between a page's animation frames. Both follow the same
//! blocks, so they write the same bytes.

use std::io::Write;
use std::path::PathBuf;

use gif::{DisposalMethod, Encoder, Repeat};
#[cfg(not(target_arch = "wasm32"))]
use rayon::prelude::*;

use super::palette::{Palette, TRANSPARENT};
use super::plan::FramePlan;
use super::ExportError;
#[cfg(not(target_arch = "wasm32"))]
use super::Progress;
use crate::render::raster::Canvas;
use crate::render::Picture;
use crate::render::PoseSource;

/// Frames rendered per parallel chunk at most (the first and last indexed image of each of
/// its blocks are held, and its encoded frames).
const CHUNK: usize = 64;
/// Consecutive frames drawn on one canvas at most.
const BLOCK: usize = 32;
/// Pixel budget of one chunk of indexed frames (bytes), keeping memory bounded for large
/// images.
const CHUNK_BYTES: usize = 128 << 20;

/// Frames per chunk and per block at most for images of `pixels` pixels: at most [`CHUNK`]
/// and [`CHUNK_BYTES`], at least two blocks per chunk for both cores.
fn chunking(pixels: usize) -> (usize, usize) {
    let chunk = (CHUNK_BYTES / pixels.max(1)).clamp(2, CHUNK);
    let block = (chunk / 2).clamp(1, BLOCK);
    (chunk, block)
}

/// The frames `range` split into blocks of at most `block` frames, at least two when there
/// are two frames, of sizes differing by one at most (an even load for both cores). Fixed
/// by the numbers alone, so the output does not depend on the machine.
fn blocks_of(range: std::ops::Range<usize>, block: usize) -> Vec<std::ops::Range<usize>> {
    let len = range.len();
    let n = len.div_ceil(block.max(1)).max(2).min(len);
    (0..n)
        .map(|k| range.start + len * k / n..range.start + len * (k + 1) / n)
        .collect()
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

#[cfg(not(target_arch = "wasm32"))]
/// Write the frames of `plan` as an infinitely looping GIF to `writer`.
pub fn write_gif<W: Write>(
    source: &dyn PoseSource,
    picture: &Picture,
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
    let bad_size = || ExportError::BadSize(format!("{width}x{height}"));
    let (chunk, block) = chunking(width as usize * height as usize);
    let (palette, mut started) = start(
        source,
        picture,
        plan,
        size,
        &blocks_of(0..chunk.min(plan.count), block),
    )
    .ok_or_else(bad_size)?;
    let mut encoder = Encoder::new(writer, w16, h16, &palette.table()).map_err(gif_error)?;
    encoder.set_repeat(Repeat::Infinite).map_err(gif_error)?;

    let mut previous: Option<Vec<u8>> = None;
    for chunk_start in (0..plan.count).step_by(chunk) {
        let chunk_end = (chunk_start + chunk).min(plan.count);
        // Fixed blocks drawn in order on a fresh canvas each: the canvas redraws only what
        // changes between consecutive frames, and only that area is quantised and searched
        // for differences. Fixed blocks keep the output identical however the threads are
        // scheduled. The first chunk's canvases come with their first frame drawn.
        let canvases = std::mem::take(&mut started);
        let blocks: Vec<Option<Block>> = blocks_of(chunk_start..chunk_end, block)
            .into_iter()
            .zip(
                canvases
                    .into_iter()
                    .map(Some)
                    .chain(std::iter::repeat_with(|| None)),
            )
            .collect::<Vec<_>>()
            .into_par_iter()
            .map(|(frames, canvas)| {
                render_block(source, picture, plan, (w16, h16), &palette, frames, canvas)
            })
            .collect();
        let blocks: Vec<Block> = blocks
            .into_iter()
            .collect::<Option<_>>()
            .ok_or_else(bad_size)?;
        // The first frame of each block against the last of the block before.
        let mut befores: Vec<Option<&[u8]>> = vec![previous.as_deref()];
        befores.extend(blocks.iter().map(|b| Some(b.last.as_slice())));
        let firsts: Vec<gif::Frame<'static>> = blocks
            .par_iter()
            .zip(befores.par_iter())
            .map(|(b, before)| {
                let mut frame = difference(*before, &b.first, w16, h16);
                frame.delay = plan.gif_delay(b.start);
                super::lzw::pre_encode(&mut frame);
                frame
            })
            .collect();
        for (b, first) in blocks.iter().zip(&firsts) {
            for frame in std::iter::once(first).chain(&b.rest) {
                encoder
                    .write_lzw_pre_encoded_frame(frame)
                    .map_err(gif_error)?;
                progress.advance(1);
            }
        }
        previous = blocks.into_iter().last().map(|b| b.last);
    }
    encoder.into_inner().map_err(gif_error)
}

/// A GIF encoded one frame at a time, in the blocks [`write_gif`] uses (so the bytes are
/// the same): the palette is chosen when the stream starts, then each [`GifStream::next`]
/// draws, quantises, differences, compresses and writes one frame.
pub struct GifStream<W: Write> {
    encoder: Encoder<W>,
    palette: Palette,
    plan: FramePlan,
    size: (u16, u16),
    /// The blocks of the chunk being written, and the one being drawn.
    blocks: Vec<std::ops::Range<usize>>,
    block: usize,
    canvas: Option<Canvas>,
    /// The frame written last, as palette indices.
    indexed: Vec<u8>,
    fresh: Vec<u8>,
    next: usize,
    chunk: usize,
    block_frames: usize,
}

impl<W: Write> GifStream<W> {
    /// Starts a GIF of the frames of `plan` at `size`: draws the three frames the palette is
    /// made of and writes the header to `writer`.
    pub fn new(
        source: &dyn PoseSource,
        picture: &Picture,
        plan: &FramePlan,
        size: (u32, u32),
        writer: W,
    ) -> Result<GifStream<W>, ExportError> {
        let (width, height) = size;
        let bad_size = || ExportError::BadSize(format!("{width}x{height}"));
        let (w16, h16) = match (u16::try_from(width), u16::try_from(height)) {
            (Ok(w), Ok(h)) => (w, h),
            _ => return Err(bad_size()),
        };
        let mut frames = Vec::new();
        let mut canvases = Vec::new();
        for i in palette_picks(plan) {
            let frame = picture.frame(source, plan.time(i), width, height);
            let mut canvas = Canvas::new(width, height).ok_or_else(bad_size)?;
            canvas.draw(&frame);
            frames.push(frame);
            canvases.push(canvas);
        }
        let frames: Vec<&crate::render::Frame> = frames.iter().collect();
        let pixels: Vec<&[u8]> = canvases.iter().map(Canvas::rgba).collect();
        let palette = Palette::for_frames(&frames, &pixels);
        let mut encoder = Encoder::new(writer, w16, h16, &palette.table()).map_err(gif_error)?;
        encoder.set_repeat(Repeat::Infinite).map_err(gif_error)?;
        let (chunk, block_frames) = chunking(width as usize * height as usize);
        Ok(GifStream {
            encoder,
            palette,
            plan: *plan,
            size: (w16, h16),
            blocks: Vec::new(),
            block: 0,
            canvas: None,
            indexed: Vec::new(),
            fresh: Vec::new(),
            next: 0,
            chunk,
            block_frames,
        })
    }

    /// Frames written so far.
    pub fn written(&self) -> usize {
        self.next
    }

    /// Whether every frame is written.
    pub fn done(&self) -> bool {
        self.next >= self.plan.count
    }

    /// Draws and writes the next frame (nothing once [`GifStream::done`]).
    pub fn next(&mut self, source: &dyn PoseSource, picture: &Picture) -> Result<(), ExportError> {
        let i = self.next;
        if i >= self.plan.count {
            return Ok(());
        }
        let (w16, h16) = self.size;
        let (width, height) = (u32::from(w16), u32::from(h16));
        if i.is_multiple_of(self.chunk) {
            let end = (i + self.chunk).min(self.plan.count);
            self.blocks = blocks_of(i..end, self.block_frames);
            self.block = 0;
        }
        while self.blocks[self.block].end <= i {
            self.block += 1;
        }
        let frame = picture.frame(source, self.plan.time(i), width, height);
        let mut out = if self.blocks[self.block].start == i {
            // A block's first frame: a fresh canvas, the whole image against the last one.
            let mut canvas = Canvas::new(width, height)
                .ok_or_else(|| ExportError::BadSize(format!("{width}x{height}")))?;
            canvas.show(frame);
            let mut now = vec![0u8; width as usize * height as usize];
            self.palette.quantize_into(canvas.rgba(), &mut now);
            let before = (i > 0).then_some(self.indexed.as_slice());
            let out = difference(before, &now, w16, h16);
            self.indexed = now;
            self.canvas = Some(canvas);
            out
        } else {
            let canvas = self
                .canvas
                .as_mut()
                .ok_or_else(|| ExportError::Encode("GIF: no canvas".into()))?;
            canvas.show(frame);
            step(
                &self.palette,
                canvas.rgba(),
                (w16, h16),
                canvas.changed_rects(),
                &mut self.indexed,
                &mut self.fresh,
            )
        };
        out.delay = self.plan.gif_delay(i);
        super::lzw::pre_encode(&mut out);
        self.encoder
            .write_lzw_pre_encoded_frame(&out)
            .map_err(gif_error)?;
        self.next += 1;
        Ok(())
    }

    /// The finished GIF's writer (after the trailer).
    pub fn finish(self) -> Result<W, ExportError> {
        self.encoder.into_inner().map_err(gif_error)
    }
}

/// The frames the palette is made of: the first, one third and two thirds in.
fn palette_picks(plan: &FramePlan) -> Vec<usize> {
    let mut picks = vec![0, plan.count / 3, 2 * plan.count / 3];
    picks.dedup();
    picks
}

#[cfg(not(target_arch = "wasm32"))]
/// Consecutive frames drawn on one canvas: the first as a whole indexed image (to be
/// differenced against the block before), the others encoded, and the last indexed image.
struct Block {
    start: usize,
    first: Vec<u8>,
    rest: Vec<gif::Frame<'static>>,
    last: Vec<u8>,
}

#[cfg(not(target_arch = "wasm32"))]
fn render_block(
    source: &dyn PoseSource,
    picture: &Picture,
    plan: &FramePlan,
    (w16, h16): (u16, u16),
    palette: &Palette,
    frames: std::ops::Range<usize>,
    drawn: Option<Canvas>,
) -> Option<Block> {
    let (width, height) = (w16 as u32, h16 as u32);
    let first_drawn = drawn.is_some();
    let mut canvas = match drawn {
        Some(canvas) => canvas,
        None => Canvas::new(width, height)?,
    };
    let mut indexed = vec![0u8; width as usize * height as usize];
    let mut fresh = Vec::new();
    let mut first = Vec::new();
    let mut rest = Vec::new();
    let start = frames.start;
    for i in frames {
        if !(i == start && first_drawn) {
            canvas.show(picture.frame(source, plan.time(i), width, height));
        }
        if i == start {
            palette.quantize_into(canvas.rgba(), &mut indexed);
            first.clone_from(&indexed);
            continue;
        }
        let mut out = step(
            palette,
            canvas.rgba(),
            (w16, h16),
            canvas.changed_rects(),
            &mut indexed,
            &mut fresh,
        );
        out.delay = plan.gif_delay(i);
        super::lzw::pre_encode(&mut out);
        rest.push(out);
    }
    Some(Block {
        start,
        first,
        rest,
        last: indexed,
    })
}

/// The GIF frame that turns the indexed image `indexed` into the RGBA image `rgba`, which
/// differs from the image `indexed` was made of only inside the disjoint rectangles `rects`
/// (what the canvas redrew): only those are quantised and compared. `indexed` becomes the
/// new image; `fresh` is scratch space. The same frame as [`difference`] of the two indexed
/// images.
fn step(
    palette: &Palette,
    rgba: &[u8],
    (width, height): (u16, u16),
    rects: &[(u32, u32, u32, u32)],
    indexed: &mut [u8],
    fresh: &mut Vec<u8>,
) -> gif::Frame<'static> {
    let w = width as usize;
    let _ = height;
    let span = |&(x0, y0, x1, y1): &(u32, u32, u32, u32)| {
        (x0 as usize, y0 as usize, x1 as usize, y1 as usize)
    };
    fresh.clear();
    fresh.resize(
        rects
            .iter()
            .map(|r| {
                let (x0, y0, x1, y1) = span(r);
                (x1 - x0) * (y1 - y0)
            })
            .sum(),
        0,
    );
    // Quantise the rectangles and find the bounding box of the changed pixels.
    let (mut top, mut bottom, mut left, mut right) = (usize::MAX, 0, usize::MAX, 0);
    let mut at = 0;
    for r in rects {
        let (x0, y0, x1, y1) = span(r);
        let rw = x1 - x0;
        for y in y0..y1 {
            let new = &mut fresh[at..at + rw];
            at += rw;
            palette.quantize_into(&rgba[4 * (y * w + x0)..4 * (y * w + x1)], new);
            let old = &indexed[y * w + x0..y * w + x1];
            if old == new {
                continue;
            }
            top = top.min(y);
            bottom = y.max(bottom);
            // Only look outside the columns already known to change.
            if let Some(k) = (0..rw)
                .take_while(|&k| x0 + k < left)
                .find(|&k| old[k] != new[k])
            {
                left = x0 + k;
            }
            if let Some(k) = (0..rw)
                .rev()
                .take_while(|&k| x0 + k > right)
                .find(|&k| old[k] != new[k])
            {
                right = x0 + k;
            }
        }
    }
    let mut frame = gif::Frame {
        dispose: DisposalMethod::Keep,
        transparent: Some(TRANSPARENT),
        ..gif::Frame::default()
    };
    if top == usize::MAX {
        frame.width = 1;
        frame.height = 1;
        frame.buffer = vec![TRANSPARENT].into();
        return frame;
    }
    let (bw, bh) = (right + 1 - left, bottom + 1 - top);
    let mut buffer = vec![TRANSPARENT; bw * bh];
    let mut at = 0;
    for r in rects {
        let (x0, y0, x1, y1) = span(r);
        let rw = x1 - x0;
        let (xa, xb) = (x0.max(left), x1.min(right + 1));
        for y in y0..y1 {
            let new = &fresh[at..at + rw];
            at += rw;
            let row = &mut indexed[y * w + x0..y * w + x1];
            if (top..=bottom).contains(&y) && xa < xb {
                let out = &mut buffer[(y - top) * bw + xa - left..(y - top) * bw + xb - left];
                for ((o, &n), &b) in out
                    .iter_mut()
                    .zip(&new[xa - x0..xb - x0])
                    .zip(&row[xa - x0..xb - x0])
                {
                    if n != b {
                        *o = n;
                    }
                }
            }
            row.copy_from_slice(new);
        }
    }
    frame.left = left as u16;
    frame.top = top as u16;
    frame.width = bw as u16;
    frame.height = bh as u16;
    frame.buffer = buffer.into();
    frame
}

#[cfg(not(target_arch = "wasm32"))]
/// The palette from three frames spread over the plan (the first, one third and two thirds
/// in), and the canvases of the blocks `first_blocks` (the first chunk's) with their first
/// frame drawn, all drawn in parallel: the first block's canvas, showing frame 0, is the
/// palette's first sample. `None` for an unusable size.
fn start(
    source: &dyn PoseSource,
    picture: &Picture,
    plan: &FramePlan,
    (width, height): (u32, u32),
    first_blocks: &[std::ops::Range<usize>],
) -> Option<(Palette, Vec<Canvas>)> {
    let picks = palette_picks(plan);
    let draw = |i: usize| {
        let frame = picture.frame(source, plan.time(i), width, height);
        let mut canvas = Canvas::new(width, height)?;
        canvas.draw(&frame);
        Some((frame, canvas))
    };
    let (samples, started): (Vec<Option<_>>, Vec<Option<_>>) = rayon::join(
        || picks[1..].par_iter().map(|&i| draw(i)).collect(),
        || first_blocks.par_iter().map(|r| draw(r.start)).collect(),
    );
    let samples: Vec<(crate::render::Frame, Canvas)> =
        samples.into_iter().collect::<Option<_>>()?;
    let started: Vec<(crate::render::Frame, Canvas)> =
        started.into_iter().collect::<Option<_>>()?;
    let zero = started
        .first()
        .filter(|_| first_blocks.first().is_some_and(|r| r.start == 0))?;
    let frames: Vec<&crate::render::Frame> = std::iter::once(&zero.0)
        .chain(samples.iter().map(|(f, _)| f))
        .collect();
    let pixels: Vec<&[u8]> = std::iter::once(zero.1.rgba())
        .chain(samples.iter().map(|(_, c)| c.rgba()))
        .collect();
    let palette = Palette::for_frames(&frames, &pixels);
    Some((palette, started.into_iter().map(|(_, c)| c).collect()))
}

/// The GIF frame that turns `before` into `now`: the whole image for the first frame,
/// otherwise the bounding rectangle of the changed pixels with unchanged ones transparent
/// (a 1×1 transparent frame when nothing changed). Disposal: keep.
pub(crate) fn difference(
    before: Option<&[u8]>,
    now: &[u8],
    width: u16,
    height: u16,
) -> gif::Frame<'static> {
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
    difference_in(
        before,
        now,
        width,
        height,
        (0, 0, width as u32, height as u32),
    )
}

/// [`difference`] for a frame after the first when only the rectangle `(x0, y0, x1, y1)`
/// can differ: only that area is searched.
pub(crate) fn difference_in(
    before: &[u8],
    now: &[u8],
    width: u16,
    height: u16,
    (x0, y0, x1, y1): (u32, u32, u32, u32),
) -> gif::Frame<'static> {
    let w = width as usize;
    let _ = height;
    let (x0, x1) = (x0 as usize, (x1 as usize).max(x0 as usize));
    let mut frame = gif::Frame {
        dispose: DisposalMethod::Keep,
        ..gif::Frame::default()
    };
    let rows_changed: Vec<usize> = (y0 as usize..y1 as usize)
        .filter(|&y| before[y * w + x0..y * w + x1] != now[y * w + x0..y * w + x1])
        .collect();
    frame.transparent = Some(TRANSPARENT);
    let (Some(&top), Some(&bottom)) = (rows_changed.first(), rows_changed.last()) else {
        frame.width = 1;
        frame.height = 1;
        frame.buffer = vec![TRANSPARENT].into();
        return frame;
    };
    let (mut left, mut right) = (x1, x0);
    for &y in &rows_changed {
        let (b, n) = (&before[y * w..(y + 1) * w], &now[y * w..(y + 1) * w]);
        // Only look outside the columns already known to change.
        if let Some(x) = (x0..left.min(x1)).find(|&x| b[x] != n[x]) {
            left = x;
        }
        if let Some(x) = (right.max(left)..x1).rev().find(|&x| b[x] != n[x]) {
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
    fn the_stream_writes_the_bytes_of_the_parallel_writer() {
        use crate::render::auto_camera;
        use crate::render::fixture::Cascade;
        let cascade = Cascade::default();
        let camera = crate::render::Picture::from(auto_camera(&cascade, 4.0 / 3.0, None));
        // 150 frames of 120x90: three chunks of 64, blocks of 32 (a partial last chunk).
        let plan = FramePlan {
            start: 0.1,
            interval: 0.03,
            count: 150,
            speed: 1.0,
        };
        let parallel = write_gif(
            &cascade,
            &camera,
            &plan,
            (120, 90),
            &super::super::Silent,
            Vec::new(),
        )
        .unwrap();
        let mut stream = GifStream::new(&cascade, &camera, &plan, (120, 90), Vec::new()).unwrap();
        while !stream.done() {
            stream.next(&cascade, &camera).unwrap();
        }
        assert_eq!(stream.written(), 150);
        let streamed = stream.finish().unwrap();
        assert!(streamed.len() > 1000);
        assert!(
            streamed == parallel,
            "{} vs {} bytes",
            streamed.len(),
            parallel.len()
        );
    }

    #[test]
    fn chunks_shrink_for_large_images() {
        assert_eq!(chunking(400 * 450), (64, 32));
        assert_eq!(chunking(4096 * 4096), (8, 4));
        assert_eq!(chunking(8192 * 8192), (2, 1));
    }

    #[test]
    fn blocks_are_even_and_cover_the_chunk() {
        assert_eq!(blocks_of(0..62, 32), [0..31, 31..62]);
        assert_eq!(blocks_of(64..128, 32), [64..96, 96..128]);
        assert_eq!(blocks_of(0..70, 32), [0..23, 23..46, 46..70]);
        let one = blocks_of(10..11, 32);
        assert_eq!((one.len(), one[0].clone()), (1, 10..11));
        assert_eq!(blocks_of(0..3, 1), [0..1, 1..2, 2..3]);
    }

    /// A palette whose colour `i` is `[i, 0, 0]` (exact for `i < 255`).
    fn grey_palette() -> Palette {
        let colours: Vec<[u8; 3]> = (0..200u8).map(|i| [i, 0, 0]).collect();
        Palette::new(&colours, &[])
    }

    fn rgba_of(indices: &[u8]) -> Vec<u8> {
        indices.iter().flat_map(|&i| [i, 0, 0, 255]).collect()
    }

    #[test]
    fn stepping_over_rectangles_equals_differencing_whole_images() {
        let palette = grey_palette();
        let (w, h) = (23usize, 17usize);
        let mut seed = 7u32;
        let mut rand = |n: u32| {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed % n
        };
        let start: Vec<u8> = (0..w * h).map(|_| rand(4) as u8).collect();
        let cases: [&[(u32, u32, u32, u32)]; 5] = [
            &[(2, 3, 9, 8), (12, 0, 23, 5), (0, 10, 23, 17)],
            &[(5, 5, 6, 6)],
            &[(0, 0, 23, 17)],
            &[(20, 16, 23, 17), (0, 0, 1, 1)],
            &[],
        ];
        for rects in cases {
            // Change some pixels inside the rectangles (some rectangles not at all).
            let mut next = start.clone();
            for &(x0, y0, x1, y1) in rects.iter().skip(1) {
                for y in y0..y1 {
                    for x in x0..x1 {
                        if rand(3) == 0 {
                            next[y as usize * w + x as usize] = 100 + rand(50) as u8;
                        }
                    }
                }
            }
            let want = difference(Some(&start), &next, w as u16, h as u16);
            let mut indexed = start.clone();
            let mut fresh = Vec::new();
            let got = step(
                &palette,
                &rgba_of(&next),
                (w as u16, h as u16),
                rects,
                &mut indexed,
                &mut fresh,
            );
            assert_eq!(indexed, next, "{rects:?}");
            assert_eq!(
                (got.left, got.top, got.width, got.height),
                (want.left, want.top, want.width, want.height),
                "{rects:?}"
            );
            assert_eq!(got.buffer, want.buffer, "{rects:?}");
            assert_eq!(got.transparent, Some(TRANSPARENT));
        }
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
