//! A fixed GIF palette for a whole animation, and fast colour quantisation into it.
//!
//! The frames of one animation are drawn with a small, known set of colours (the frame
//! description's fills) plus the anti-aliased blends at their edges. The palette holds those
//! known colours exactly, then the colours most frequent in a few sampled frames (mostly edge
//! blends), then a 4×4×4 colour cube as a safety net: 255 entries at most, index 255 being
//! reserved for "transparent" (unchanged pixels in frame differencing).
//!
//! Quantising a pixel: a repeat of the previous pixel costs one comparison; a palette colour
//! is found exactly in a small hash table; anything else goes through a 32×32×32 lookup table
//! filled lazily (nearest palette colour of the cell) and shared by all threads.

use std::sync::atomic::{AtomicU8, Ordering};

use crate::render::{Frame, Shape};
use crate::types::Rgba;

/// Index marking a transparent pixel; never used for a colour.
pub(crate) const TRANSPARENT: u8 = 255;
/// Most colours in the palette.
pub(crate) const MAX_COLORS: usize = 255;
const CUBE_LEVELS: [u8; 4] = [0, 85, 170, 255];
const HASH_BITS: u32 = 10;
const EMPTY: u32 = u32::MAX;
const UNFILLED: u8 = TRANSPARENT;

/// A palette of at most 255 colours with its exact-match table and shared lookup table.
pub struct Palette {
    colors: Vec<[u8; 3]>,
    /// Open addressing: `(rgb << 8) | index`, `EMPTY` for a free slot.
    exact: Vec<u32>,
    /// Nearest colour of each 5-bit-per-channel cell, `UNFILLED` until first needed.
    lut: Vec<AtomicU8>,
}

fn pack(c: [u8; 3]) -> u32 {
    (c[0] as u32) << 16 | (c[1] as u32) << 8 | c[2] as u32
}

fn slot(rgb: u32) -> usize {
    (rgb.wrapping_mul(0x9E37_79B1) >> (32 - HASH_BITS)) as usize
}

/// Squared distance with weights close to perceived brightness (2, 4, 3).
fn distance(a: [u8; 3], b: [u8; 3]) -> u32 {
    let d = |i: usize| (a[i] as i32 - b[i] as i32).unsigned_abs();
    2 * d(0) * d(0) + 4 * d(1) * d(1) + 3 * d(2) * d(2)
}

impl Palette {
    /// `known` colours first (exactly), then `frequent` ones (most frequent first), then the
    /// colour cube, skipping duplicates, up to `MAX_COLORS`.
    pub fn new(known: &[[u8; 3]], frequent: &[[u8; 3]]) -> Palette {
        let cube: Vec<[u8; 3]> = CUBE_LEVELS
            .iter()
            .flat_map(|&r| {
                CUBE_LEVELS
                    .iter()
                    .flat_map(move |&g| CUBE_LEVELS.iter().map(move |&b| [r, g, b]))
            })
            .collect();
        let mut colors: Vec<[u8; 3]> = Vec::with_capacity(MAX_COLORS);
        let room_before_cube = MAX_COLORS - cube.len();
        for &c in known.iter().chain(frequent) {
            if colors.len() >= room_before_cube {
                break;
            }
            if !colors.contains(&c) {
                colors.push(c);
            }
        }
        for c in cube {
            if !colors.contains(&c) {
                colors.push(c);
            }
        }
        let mut exact = vec![EMPTY; 1 << HASH_BITS];
        for (i, &c) in colors.iter().enumerate() {
            let rgb = pack(c);
            let mut s = slot(rgb);
            while exact[s] != EMPTY {
                s = (s + 1) & ((1 << HASH_BITS) - 1);
            }
            exact[s] = rgb << 8 | i as u32;
        }
        let lut = (0..1 << 15).map(|_| AtomicU8::new(UNFILLED)).collect();
        Palette { colors, exact, lut }
    }

    /// The palette for frames drawn with these frame descriptions, tuned by the pixels of
    /// `samples` (RGBA bytes of rendered frames).
    pub(crate) fn for_frames(frames: &[&Frame], samples: &[&[u8]]) -> Palette {
        let mut known = Vec::new();
        for frame in frames {
            for c in frame_colors(frame) {
                if !known.contains(&c) {
                    known.push(c);
                }
            }
        }
        Palette::new(&known, &frequent_colors(samples, 3, 160))
    }

    #[cfg(test)]
    fn colors(&self) -> &[[u8; 3]] {
        &self.colors
    }

    /// The GIF colour table: 256 RGB triples (unused entries and the transparent one black).
    pub(crate) fn table(&self) -> Vec<u8> {
        let mut table = vec![0u8; 256 * 3];
        for (i, c) in self.colors.iter().enumerate() {
            table[3 * i..3 * i + 3].copy_from_slice(c);
        }
        table
    }

    /// Index of exactly this colour, if it is in the palette.
    pub(crate) fn exact(&self, c: [u8; 3]) -> Option<u8> {
        let rgb = pack(c);
        let mut s = slot(rgb);
        loop {
            let e = self.exact[s];
            if e == EMPTY {
                return None;
            }
            if e >> 8 == rgb {
                return Some((e & 0xFF) as u8);
            }
            s = (s + 1) & ((1 << HASH_BITS) - 1);
        }
    }

    /// Index of the palette colour nearest to `c` (full search).
    pub(crate) fn nearest(&self, c: [u8; 3]) -> u8 {
        let mut best = (u32::MAX, 0usize);
        for (i, &p) in self.colors.iter().enumerate() {
            let d = distance(c, p);
            if d < best.0 {
                best = (d, i);
            }
        }
        best.1 as u8
    }

    /// Index for a pixel: exact colour if present, else the nearest colour of its
    /// 5-bit-per-channel cell.
    pub(crate) fn index(&self, c: [u8; 3]) -> u8 {
        if let Some(i) = self.exact(c) {
            return i;
        }
        let cell =
            ((c[0] as usize >> 3) << 10) | ((c[1] as usize >> 3) << 5) | (c[2] as usize >> 3);
        let cached = self.lut[cell].load(Ordering::Relaxed);
        if cached != UNFILLED {
            return cached;
        }
        let centre = [(c[0] & 0xF8) | 4, (c[1] & 0xF8) | 4, (c[2] & 0xF8) | 4];
        let i = self.nearest(centre);
        // Racing threads compute the same value: a relaxed store is enough.
        self.lut[cell].store(i, Ordering::Relaxed);
        i
    }

    /// Quantise RGBA pixels (alpha ignored) into `out` (cleared first).
    pub fn quantize_rgba(&self, rgba: &[u8], out: &mut Vec<u8>) {
        out.clear();
        out.resize(rgba.len() / 4, 0);
        self.quantize_into(rgba, out);
    }

    /// Quantise RGBA pixels (alpha ignored) into `out`, one index per pixel.
    pub(crate) fn quantize_into(&self, rgba: &[u8], out: &mut [u8]) {
        let mut last = u32::MAX;
        let mut last_index = 0u8;
        for (px, slot) in rgba.chunks_exact(4).zip(out.iter_mut()) {
            let word = u32::from_le_bytes([px[0], px[1], px[2], 0]);
            if word != last {
                last = word;
                last_index = self.index([px[0], px[1], px[2]]);
            }
            *slot = last_index;
        }
    }
}

/// The solid colours a frame is drawn with: its background and each shape's fill, with
/// translucent fills blended over the background and over the floor-like colours below them.
pub(crate) fn frame_colors(frame: &Frame) -> Vec<[u8; 3]> {
    let mut out: Vec<[u8; 3]> = Vec::new();
    let mut push = |c: [u8; 3]| {
        if !out.contains(&c) {
            out.push(c);
        }
    };
    let bg = frame.background;
    push([bg.r, bg.g, bg.b]);
    let mut opaque: Vec<Rgba> = vec![bg];
    for shape in &frame.shapes {
        let c = match shape {
            Shape::Circle { color, .. }
            | Shape::Line { color, .. }
            | Shape::Polygon { color, .. } => *color,
            Shape::Text { color, halo, .. } => {
                push([halo.r, halo.g, halo.b]);
                *color
            }
        };
        if c.a == 255 {
            push([c.r, c.g, c.b]);
            if opaque.len() < 4 && !opaque.contains(&c) {
                opaque.push(c);
            }
        } else if c.a > 0 {
            // Shadows and the like: over the first few opaque colours (background, floor).
            for under in opaque.clone() {
                push(blend(c, under));
            }
        }
    }
    out
}

/// `top` (with its alpha) over an opaque `under`.
fn blend(top: Rgba, under: Rgba) -> [u8; 3] {
    let a = top.a as u32;
    let mix = |t: u8, u: u8| ((t as u32 * a + u as u32 * (255 - a) + 127) / 255) as u8;
    [
        mix(top.r, under.r),
        mix(top.g, under.g),
        mix(top.b, under.b),
    ]
}

/// The `limit` most frequent colours among every `step`-th pixel of the RGBA samples.
pub(crate) fn frequent_colors(samples: &[&[u8]], step: usize, limit: usize) -> Vec<[u8; 3]> {
    let mut counts: std::collections::HashMap<u32, u32> = std::collections::HashMap::new();
    for sample in samples {
        // Runs of one colour (mostly background) are counted at once.
        let mut run = (u32::MAX, 0u32);
        for px in sample.chunks_exact(4).step_by(step.max(1)) {
            let rgb = pack([px[0], px[1], px[2]]);
            if rgb == run.0 {
                run.1 += 1;
            } else {
                if run.1 > 0 {
                    *counts.entry(run.0).or_insert(0) += run.1;
                }
                run = (rgb, 1);
            }
        }
        if run.1 > 0 {
            *counts.entry(run.0).or_insert(0) += run.1;
        }
    }
    let mut by_count: Vec<(u32, u32)> = counts.into_iter().collect();
    by_count.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    by_count
        .into_iter()
        .take(limit)
        .map(|(rgb, _)| [(rgb >> 16) as u8, (rgb >> 8) as u8, rgb as u8])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec2;

    #[test]
    fn known_colours_are_exact_and_first() {
        let known = [[232, 236, 242], [52, 101, 164], [220, 50, 47]];
        let p = Palette::new(&known, &[]);
        assert_eq!(&p.colors()[..3], &known);
        for (i, c) in known.iter().enumerate() {
            assert_eq!(p.exact(*c), Some(i as u8));
            assert_eq!(p.index(*c), i as u8);
        }
        assert!(p.colors().len() <= MAX_COLORS);
        // The cube is there: pure white maps exactly.
        assert_eq!(
            p.colors()[p.index([255, 255, 255]) as usize],
            [255, 255, 255]
        );
    }

    #[test]
    fn other_colours_map_to_a_near_palette_colour_and_never_to_transparent() {
        let p = Palette::new(&[[200, 30, 30]], &[]);
        for c in [[201, 29, 33], [0, 0, 1], [254, 128, 7], [90, 91, 92]] {
            let i = p.index(c);
            assert_ne!(i, TRANSPARENT);
            let chosen = p.colors()[i as usize];
            // Within the cube's half step (42) on each channel, plus the cell's rounding.
            for k in 0..3 {
                assert!(
                    (chosen[k] as i32 - c[k] as i32).abs() <= 50,
                    "{c:?} -> {chosen:?}"
                );
            }
        }
        assert_eq!(p.colors()[p.index([201, 29, 33]) as usize], [200, 30, 30]);
    }

    #[test]
    fn palette_never_exceeds_255_colours() {
        let many: Vec<[u8; 3]> = (0..400u32)
            .map(|i| [(i % 256) as u8, (i / 2) as u8, 7])
            .collect();
        let p = Palette::new(&many, &many);
        assert_eq!(p.colors().len(), MAX_COLORS);
        assert_eq!(p.table().len(), 768);
        assert!(many.iter().all(|c| p.index(*c) != TRANSPARENT));
    }

    #[test]
    fn quantize_runs_and_changes() {
        let p = Palette::new(&[[10, 20, 30], [200, 0, 0]], &[]);
        let rgba = [
            10, 20, 30, 255, 10, 20, 30, 255, 200, 0, 0, 255, 10, 20, 30, 255,
        ];
        let mut out = Vec::new();
        p.quantize_rgba(&rgba, &mut out);
        assert_eq!(out, [0, 0, 1, 0]);
    }

    #[test]
    fn frame_colours_include_fills_and_blended_shadows() {
        let frame = Frame {
            width: 4,
            height: 4,
            background: Rgba::rgb(200, 200, 200),
            shapes: vec![
                Shape::Circle {
                    center: Vec2::ZERO,
                    radius: 1.0,
                    color: Rgba::rgb(255, 0, 0),
                },
                Shape::Circle {
                    center: Vec2::ZERO,
                    radius: 1.0,
                    color: Rgba::with_alpha(0, 0, 0, 51),
                },
            ],
        };
        let colors = frame_colors(&frame);
        assert!(colors.contains(&[200, 200, 200]));
        assert!(colors.contains(&[255, 0, 0]));
        // 20 % black over the background: 200 * 0.8 = 160.
        assert!(colors.contains(&[160, 160, 160]));
    }

    #[test]
    fn frequent_colours_are_sorted_by_count() {
        let a: Vec<u8> = [[1u8, 1, 1, 255]; 5].concat();
        let b: Vec<u8> = [[2u8, 2, 2, 255]; 2].concat();
        let c = frequent_colors(&[&a, &b], 1, 10);
        assert_eq!(c, [[1, 1, 1], [2, 2, 2]]);
    }
}
