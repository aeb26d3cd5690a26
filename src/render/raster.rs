//! Headless back-end: puts a [`Frame`] on a CPU pixmap with tiny-skia (anti-aliased, alpha
//! blended). The only file that imports tiny-skia.

use tiny_skia::{Color, FillRule, LineCap, Paint, PathBuilder, Pixmap, Stroke, Transform};

use super::{Frame, Shape};
use crate::types::Rgba;

/// Largest image side accepted by [`rasterize`] (pixels).
pub(crate) const MAX_SIDE: u32 = 16_384;

/// An opaque RGB image, row-major, 3 bytes per pixel, no padding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RgbImage {
    pub width: u32,
    pub height: u32,
    pub pixels: Vec<u8>,
}

impl RgbImage {
    /// The colour at pixel (x, y), or `None` outside the image.
    #[cfg(test)]
    pub(crate) fn get(&self, x: u32, y: u32) -> Option<[u8; 3]> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let i = 3 * (y as usize * self.width as usize + x as usize);
        Some([self.pixels[i], self.pixels[i + 1], self.pixels[i + 2]])
    }
}

/// Extra pixels drawn around a redrawn rectangle (see `Canvas::redraw_rect`).
const SCRATCH_MARGIN: u32 = 8;

/// Above this fraction of the image, a dirty region is redrawn whole.
const MAX_DIRTY_FRACTION: f32 = 0.6;

/// A reusable drawing surface (keeps its pixels between frames of the same size).
///
/// Successive frames of an animation mostly repeat the same shapes: the floor, the standing
/// bodies; only arms and props move. The canvas compares a frame with the previous one it
/// drew, and when the shapes that stayed keep their order it redraws only the rectangles
/// covered by shapes that appeared or disappeared (each rectangle cleared and every shape
/// touching it drawn again, in order). The leading shapes that frames keep sharing (floor,
/// grid, still shadows) are kept rendered once as a base and copied instead of redrawn. The
/// pixels are those of drawing every shape (up to anti-aliasing noise where tiny-skia clips
/// at a redrawn rectangle); the cost is that of the changes.
pub struct Canvas {
    pixmap: Pixmap,
    /// What the pixels show: the last frame's background and shapes (`None` = nothing yet).
    shown: Option<(Rgba, Vec<Shape>)>,
    /// The common start of recent frames (floor, grid, still shadows) rendered once.
    base: Option<Base>,
    /// Scratch surface for redrawing one rectangle.
    scratch: Option<Pixmap>,
    /// Pixels the last `draw` may have changed: `(x0, y0, x1, y1)`, empty when none.
    changed: (u32, u32, u32, u32),
    /// The same as disjoint rectangles (those redrawn), inside `changed`.
    changed_rects: Vec<(u32, u32, u32, u32)>,
}

/// A rendered run of leading shapes.
struct Base {
    background: Rgba,
    shapes: Vec<Shape>,
    pixmap: Pixmap,
}

/// Frames with more shapes than this are drawn whole, without comparing them with the
/// previous frame.
const MAX_TRACKED_SHAPES: usize = 8192;

/// Leading shapes two frames must share before they are kept rendered as a base.
const MIN_BASE: usize = 4;

impl Canvas {
    /// A canvas of `width` × `height`; `None` if a side is 0 or above 16 384 pixels.
    pub fn new(width: u32, height: u32) -> Option<Canvas> {
        if width == 0 || height == 0 || width > MAX_SIDE || height > MAX_SIDE {
            return None;
        }
        Some(Canvas {
            pixmap: Pixmap::new(width, height)?,
            shown: None,
            base: None,
            scratch: None,
            changed: (0, 0, width, height),
            changed_rects: vec![(0, 0, width, height)],
        })
    }

    pub(crate) fn width(&self) -> u32 {
        self.pixmap.width()
    }

    pub(crate) fn height(&self) -> u32 {
        self.pixmap.height()
    }

    /// Show `frame`: its background and its shapes in order. Shapes are placed in pixel
    /// coordinates; if the frame's size differs from the canvas they are still drawn at the
    /// same pixel positions (clipped).
    pub fn draw(&mut self, frame: &Frame) {
        if self.paint(frame) {
            match &mut self.shown {
                Some((background, shapes)) => {
                    *background = frame.background;
                    shapes.clone_from(&frame.shapes);
                }
                None => self.shown = Some((frame.background, frame.shapes.clone())),
            }
        }
    }

    /// [`Canvas::draw`] of a frame that is not needed afterwards: its shapes are kept (to
    /// compare the next frame with) without copying them (the GIF writer's way).
    pub(crate) fn show(&mut self, frame: Frame) {
        if self.paint(&frame) {
            self.shown = Some((frame.background, frame.shapes));
        }
    }

    /// Put `frame` on the pixels; whether its shapes are to be remembered as shown.
    fn paint(&mut self, frame: &Frame) -> bool {
        let (w, h) = (self.width(), self.height());
        let mut paint = Paint {
            anti_alias: true,
            ..Paint::default()
        };
        self.changed = (0, 0, w, h);
        self.changed_rects.clear();
        self.changed_rects.push(self.changed);
        if frame.shapes.len() > MAX_TRACKED_SHAPES {
            // A crowd: nearly every part moves, and comparing shapes costs more than drawing.
            self.base = None;
            self.shown = None;
            self.pixmap.fill(color(frame.background));
            for shape in &frame.shapes {
                draw_shape(&mut self.pixmap, shape, &mut paint, Transform::identity());
            }
            return false;
        }
        self.update_base(frame, &mut paint);
        let dirty = match &self.shown {
            Some((background, shapes)) if *background == frame.background => {
                dirty_rects(shapes, &frame.shapes, w, h)
            }
            _ => None,
        };
        match dirty {
            Some(rects) => {
                self.changed = rects
                    .iter()
                    .copied()
                    .reduce(|a, b| a.union(&b))
                    .map_or((0, 0, 0, 0), |r| (r.x0, r.y0, r.x1, r.y1));
                self.changed_rects.clear();
                self.changed_rects
                    .extend(rects.iter().map(|r| (r.x0, r.y0, r.x1, r.y1)));
                let extents: Vec<Option<Bounds>> = frame.shapes.iter().map(bounds).collect();
                for rect in rects {
                    self.redraw_rect(frame, &extents, rect, &mut paint);
                }
            }
            None => {
                let start = match &self.base {
                    Some(base) => {
                        self.pixmap.data_mut().copy_from_slice(base.pixmap.data());
                        base.shapes.len()
                    }
                    None => {
                        self.pixmap.fill(color(frame.background));
                        0
                    }
                };
                for shape in &frame.shapes[start..] {
                    draw_shape(&mut self.pixmap, shape, &mut paint, Transform::identity());
                }
            }
        }
        true
    }

    /// Keep `base` a rendered start of `frame`: drop it when the frame does not begin with it;
    /// render a new one when the frame shares a long enough start with the previous frame.
    fn update_base(&mut self, frame: &Frame, paint: &mut Paint<'_>) {
        let fits = |base: &Base| {
            base.background == frame.background
                && frame.shapes.len() >= base.shapes.len()
                && frame.shapes[..base.shapes.len()] == base.shapes[..]
        };
        if self.base.as_ref().is_some_and(|b| !fits(b)) {
            self.base = None;
        }
        if self.base.is_some() {
            return;
        }
        let Some((background, previous)) = &self.shown else {
            return;
        };
        if *background != frame.background {
            return;
        }
        let common = frame
            .shapes
            .iter()
            .zip(previous)
            .take_while(|(a, b)| a == b)
            .count();
        if common < MIN_BASE {
            return;
        }
        let Some(mut pixmap) = Pixmap::new(self.width(), self.height()) else {
            return;
        };
        pixmap.fill(color(frame.background));
        for shape in &frame.shapes[..common] {
            draw_shape(&mut pixmap, shape, paint, Transform::identity());
        }
        self.base = Some(Base {
            background: frame.background,
            shapes: frame.shapes[..common].to_vec(),
            pixmap,
        });
    }

    /// Redraw the pixels of `rect` from scratch: the rendered base (or the background), then
    /// every later shape touching it. The drawing surface extends `SCRATCH_MARGIN` pixels
    /// beyond the rectangle so that the edges clipped at its border (where tiny-skia's
    /// clipping shifts anti-aliasing slightly) stay outside the copied pixels.
    fn redraw_rect(
        &mut self,
        frame: &Frame,
        extents: &[Option<Bounds>],
        rect: Rect,
        paint: &mut Paint<'_>,
    ) {
        let (w, h) = (self.width(), self.height());
        let outer = Rect {
            x0: rect.x0.saturating_sub(SCRATCH_MARGIN),
            y0: rect.y0.saturating_sub(SCRATCH_MARGIN),
            x1: (rect.x1 + SCRATCH_MARGIN).min(w),
            y1: (rect.y1 + SCRATCH_MARGIN).min(h),
        };
        let (ow, oh) = (outer.x1 - outer.x0, outer.y1 - outer.y0);
        let scratch = match self.scratch.take() {
            Some(p) if p.width() == ow && p.height() == oh => Some(p),
            _ => Pixmap::new(ow, oh),
        };
        let Some(mut scratch) = scratch else { return };
        let stride = w as usize * 4;
        let scratch_stride = ow as usize * 4;
        let start = match &self.base {
            Some(base) => {
                let from = base.pixmap.data();
                let row = ow as usize * 4;
                for (y, dst) in scratch
                    .data_mut()
                    .chunks_exact_mut(scratch_stride)
                    .enumerate()
                {
                    let at = (outer.y0 as usize + y) * stride + outer.x0 as usize * 4;
                    dst.copy_from_slice(&from[at..at + row]);
                }
                base.shapes.len()
            }
            None => {
                scratch.fill(color(frame.background));
                0
            }
        };
        let shift = Transform::from_translate(-(outer.x0 as f32), -(outer.y0 as f32));
        for (shape, extent) in frame.shapes[start..].iter().zip(&extents[start..]) {
            if extent.is_some_and(|b| b.touches(&outer)) {
                draw_shape(&mut scratch, shape, paint, shift);
            }
        }
        let row = (rect.x1 - rect.x0) as usize * 4;
        let dx = (rect.x0 - outer.x0) as usize * 4;
        let data = self.pixmap.data_mut();
        let source = scratch.data();
        for y in rect.y0..rect.y1 {
            let from = (y - outer.y0) as usize * scratch_stride + dx;
            let at = y as usize * stride + rect.x0 as usize * 4;
            data[at..at + row].copy_from_slice(&source[from..from + row]);
        }
        self.scratch = Some(scratch);
    }

    /// The canvas as RGB bytes (alpha dropped: the background is opaque).
    pub fn to_rgb(&self) -> RgbImage {
        let mut pixels = Vec::with_capacity(self.pixmap.data().len() / 4 * 3);
        self.write_rgb(&mut pixels);
        RgbImage {
            width: self.width(),
            height: self.height(),
            pixels,
        }
    }

    /// Append the canvas' RGB bytes to `out`.
    pub(crate) fn write_rgb(&self, out: &mut Vec<u8>) {
        for px in self.pixmap.data().chunks_exact(4) {
            out.extend_from_slice(&px[..3]);
        }
    }

    /// The pixel rectangle `(x0, y0, x1, y1)` outside which the last [`Canvas::draw`] left
    /// every pixel as it was (the whole image after a full redraw; empty when nothing
    /// changed).
    #[cfg(test)]
    fn changed_area(&self) -> (u32, u32, u32, u32) {
        self.changed
    }

    /// The changed area more closely: disjoint rectangles `(x0, y0, x1, y1)` outside
    /// which every pixel is as it was (none when nothing changed).
    pub(crate) fn changed_rects(&self) -> &[(u32, u32, u32, u32)] {
        &self.changed_rects
    }

    /// The canvas' premultiplied RGBA bytes.
    pub fn rgba(&self) -> &[u8] {
        self.pixmap.data()
    }
}

/// Draw `frame` on a fresh canvas of its own size and return the RGB pixels; `None` for an
/// empty or oversized frame.
pub fn rasterize(frame: &Frame) -> Option<RgbImage> {
    let mut canvas = Canvas::new(frame.width, frame.height)?;
    canvas.draw(frame);
    Some(canvas.to_rgb())
}

/// An integer pixel rectangle, `x0..x1` × `y0..y1`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Rect {
    x0: u32,
    y0: u32,
    x1: u32,
    y1: u32,
}

impl Rect {
    fn area(&self) -> u64 {
        (self.x1 - self.x0) as u64 * (self.y1 - self.y0) as u64
    }
    fn union(&self, o: &Rect) -> Rect {
        Rect {
            x0: self.x0.min(o.x0),
            y0: self.y0.min(o.y0),
            x1: self.x1.max(o.x1),
            y1: self.y1.max(o.y1),
        }
    }
    fn overlaps(&self, o: &Rect) -> bool {
        self.x0 < o.x1 && o.x0 < self.x1 && self.y0 < o.y1 && o.y0 < self.y1
    }
}

/// A shape's pixel extent (floating point), or `None` if it draws nothing.
#[derive(Clone, Copy, Debug)]
struct Bounds {
    x0: f32,
    y0: f32,
    x1: f32,
    y1: f32,
}

impl Bounds {
    fn touches(&self, r: &Rect) -> bool {
        self.x0 < r.x1 as f32
            && self.x1 > r.x0 as f32
            && self.y0 < r.y1 as f32
            && self.y1 > r.y0 as f32
    }

    /// The pixels it may touch (anti-aliasing included), clipped to the image.
    fn pixels(&self, w: u32, h: u32) -> Option<Rect> {
        let x0 = (self.x0 - 2.0).floor().max(0.0);
        let y0 = (self.y0 - 2.0).floor().max(0.0);
        let x1 = (self.x1 + 2.0).ceil().min(w as f32);
        let y1 = (self.y1 + 2.0).ceil().min(h as f32);
        (x0 < x1 && y0 < y1).then_some(Rect {
            x0: x0 as u32,
            y0: y0 as u32,
            x1: x1 as u32,
            y1: y1 as u32,
        })
    }
}

fn bounds(shape: &Shape) -> Option<Bounds> {
    let b = match shape {
        Shape::Circle { center, radius, .. } => {
            if !finite(*center) || !positive(*radius) {
                return None;
            }
            Bounds {
                x0: center.x - radius,
                y0: center.y - radius,
                x1: center.x + radius,
                y1: center.y + radius,
            }
        }
        Shape::Line {
            from, to, width, ..
        } => {
            if !finite(*from) || !finite(*to) || !positive(*width) {
                return None;
            }
            let r = 0.5 * width;
            Bounds {
                x0: from.x.min(to.x) - r,
                y0: from.y.min(to.y) - r,
                x1: from.x.max(to.x) + r,
                y1: from.y.max(to.y) + r,
            }
        }
        Shape::Polygon { points, .. } => {
            if points.len() < 3 || !points.iter().all(|p| finite(*p)) {
                return None;
            }
            let mut b = Bounds {
                x0: f32::MAX,
                y0: f32::MAX,
                x1: f32::MIN,
                y1: f32::MIN,
            };
            for p in points {
                b = Bounds {
                    x0: b.x0.min(p.x),
                    y0: b.y0.min(p.y),
                    x1: b.x1.max(p.x),
                    y1: b.y1.max(p.y),
                };
            }
            b
        }
        Shape::Text {
            at, text, height, ..
        } => {
            if !finite(*at) || !positive(*height) {
                return None;
            }
            // The halo reaches a fifth of the height beyond the strokes; descenders and
            // brackets a third of it below the baseline and above the capitals.
            let m = 0.4 * height;
            Bounds {
                x0: at.x - m,
                y0: at.y - height - m,
                x1: at.x + crate::render::glyphs::text_width(text, *height) + m,
                y1: at.y + 0.34 * height + m,
            }
        }
    };
    Some(b)
}

/// Exact identity of a shape (bit patterns of its numbers), for comparing frames.
fn key(shape: &Shape) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    let c = |c: &Rgba| [c.r, c.g, c.b, c.a];
    match shape {
        Shape::Circle {
            center,
            radius,
            color,
        } => (
            0u8,
            center.x.to_bits(),
            center.y.to_bits(),
            radius.to_bits(),
            c(color),
        )
            .hash(&mut h),
        Shape::Line {
            from,
            to,
            width,
            color,
        } => (
            1u8,
            from.x.to_bits(),
            from.y.to_bits(),
            to.x.to_bits(),
            to.y.to_bits(),
            width.to_bits(),
            c(color),
        )
            .hash(&mut h),
        Shape::Polygon { points, color } => {
            2u8.hash(&mut h);
            for p in points {
                (p.x.to_bits(), p.y.to_bits()).hash(&mut h);
            }
            c(color).hash(&mut h);
        }
        Shape::Text {
            at,
            text,
            height,
            color,
            halo,
        } => (
            3u8,
            at.x.to_bits(),
            at.y.to_bits(),
            text,
            height.to_bits(),
            c(color),
            c(halo),
        )
            .hash(&mut h),
    }
    h.finish()
}

/// The rectangles to redraw to turn `old` into `new`, or `None` when the whole image should
/// be redrawn (shapes that stayed changed their order, or the changes cover most of it).
fn dirty_rects(old: &[Shape], new: &[Shape], w: u32, h: u32) -> Option<Vec<Rect>> {
    use std::collections::HashMap;
    let old_keys: Vec<u64> = old.iter().map(key).collect();
    let new_keys: Vec<u64> = new.iter().map(key).collect();
    let mut remaining: HashMap<u64, usize> = HashMap::with_capacity(old_keys.len());
    for k in &old_keys {
        *remaining.entry(*k).or_insert(0) += 1;
    }
    // Shapes of `new` also in `old` stay; the rest appeared.
    let mut stays = vec![false; new.len()];
    for (i, k) in new_keys.iter().enumerate() {
        if let Some(n) = remaining.get_mut(k).filter(|n| **n > 0) {
            *n -= 1;
            stays[i] = true;
        }
    }
    let mut kept: HashMap<u64, usize> = HashMap::new();
    for (i, k) in new_keys.iter().enumerate() {
        if stays[i] {
            *kept.entry(*k).or_insert(0) += 1;
        }
    }
    // The shapes that stayed must keep their order; old shapes not kept disappeared.
    let mut kept_in_old = Vec::new();
    let mut changed: Vec<&Shape> = Vec::new();
    for (shape, k) in old.iter().zip(&old_keys) {
        match kept.get_mut(k).filter(|n| **n > 0) {
            Some(n) => {
                *n -= 1;
                kept_in_old.push(*k);
            }
            None => changed.push(shape),
        }
    }
    let kept_in_new: Vec<u64> = new_keys
        .iter()
        .zip(&stays)
        .filter(|(_, s)| **s)
        .map(|(k, _)| *k)
        .collect();
    if kept_in_old != kept_in_new {
        return None;
    }
    changed.extend(
        new.iter()
            .zip(&stays)
            .filter(|(_, s)| !**s)
            .map(|(shape, _)| shape),
    );

    if changed.len() > MAX_PRECISE_CHANGES {
        return tile_rects(&changed, w, h);
    }
    let mut rects: Vec<Rect> = changed
        .iter()
        .filter_map(|s| bounds(s))
        .filter_map(|b| b.pixels(w, h))
        .collect();
    // Merge overlapping rectangles until none overlap.
    // Passes of absorbing every later rectangle a rectangle overlaps (it grows as it
    // absorbs), until a pass merges nothing.
    let mut merged = true;
    while merged {
        merged = false;
        let mut i = 0;
        while i < rects.len() {
            let mut j = i + 1;
            while j < rects.len() {
                if rects[i].overlaps(&rects[j]) {
                    rects[i] = rects[i].union(&rects[j]);
                    rects.swap_remove(j);
                    merged = true;
                    j = i + 1;
                } else {
                    j += 1;
                }
            }
            i += 1;
        }
    }
    let area: u64 = rects.iter().map(Rect::area).sum();
    (area as f32 <= MAX_DIRTY_FRACTION * w as f32 * h as f32).then_some(rects)
}

/// Above this many changed shapes, changed areas are gathered on a grid of tiles instead of
/// merging rectangles pairwise (which grows with the square of their number).
const MAX_PRECISE_CHANGES: usize = 256;
/// Side of a tile, pixels.
const TILE: u32 = 32;

/// The rectangles covering the tiles that changed shapes touch (runs of tiles along each
/// tile row), or `None` when they cover most of the image.
fn tile_rects(changed: &[&Shape], w: u32, h: u32) -> Option<Vec<Rect>> {
    let (cols, rows) = (w.div_ceil(TILE) as usize, h.div_ceil(TILE) as usize);
    let mut touched = vec![false; cols * rows];
    for rect in changed
        .iter()
        .filter_map(|s| bounds(s))
        .filter_map(|b| b.pixels(w, h))
    {
        for ty in (rect.y0 / TILE) as usize..=((rect.y1 - 1) / TILE) as usize {
            for tx in (rect.x0 / TILE) as usize..=((rect.x1 - 1) / TILE) as usize {
                touched[ty * cols + tx] = true;
            }
        }
    }
    let count = touched.iter().filter(|&&t| t).count();
    if count as f32 > MAX_DIRTY_FRACTION * (cols * rows) as f32 {
        return None;
    }
    let mut rects = Vec::new();
    for ty in 0..rows {
        let mut tx = 0;
        while tx < cols {
            if !touched[ty * cols + tx] {
                tx += 1;
                continue;
            }
            let start = tx;
            while tx < cols && touched[ty * cols + tx] {
                tx += 1;
            }
            rects.push(Rect {
                x0: start as u32 * TILE,
                y0: ty as u32 * TILE,
                x1: (tx as u32 * TILE).min(w),
                y1: ((ty as u32 + 1) * TILE).min(h),
            });
        }
    }
    Some(rects)
}

fn color(c: Rgba) -> Color {
    Color::from_rgba8(c.r, c.g, c.b, c.a)
}

fn finite(v: glam::Vec2) -> bool {
    // Keep coordinates within a range tiny-skia handles robustly.
    v.is_finite() && v.x.abs() < 1.0e6 && v.y.abs() < 1.0e6
}

/// A usable size: finite, above zero and not absurdly large.
fn positive(v: f32) -> bool {
    v.is_finite() && v > 0.0 && v < 1.0e6
}

/// Shapes at most this many pixels wide and high are blended straight into the pixels they
/// cover (coverage = the shape's area spread over its box) instead of going through
/// tiny-skia's path pipeline, whose fixed cost dominates for the dot-sized figures of
/// large scenes.
const SPLAT_SIDE: f32 = 3.0;

/// The area of a shape in square pixels.
fn area(shape: &Shape) -> f32 {
    match shape {
        Shape::Circle { radius, .. } => std::f32::consts::PI * radius * radius,
        Shape::Line {
            from, to, width, ..
        } => from.distance(*to) * width + std::f32::consts::FRAC_PI_4 * width * width,
        Shape::Polygon { points, .. } => {
            let n = points.len();
            let twice: f32 = (0..n)
                .map(|i| {
                    let (a, b) = (points[i], points[(i + 1) % n]);
                    a.x * b.y - b.x * a.y
                })
                .sum();
            0.5 * twice.abs()
        }
        // Text is never splatted: its box, at least a pixel wide and high.
        Shape::Text { .. } => bounds(shape).map_or(0.0, |b| (b.x1 - b.x0) * (b.y1 - b.y0)),
    }
}

fn shape_color(shape: &Shape) -> Rgba {
    match shape {
        Shape::Circle { color, .. }
        | Shape::Line { color, .. }
        | Shape::Polygon { color, .. }
        | Shape::Text { color, .. } => *color,
    }
}

/// Blend a dot-sized shape with extent `b` into the premultiplied pixels, shifted by
/// `(dx, dy)`. A line is blended as a row of small boxes along it, so that it keeps its
/// direction; other shapes as their box.
fn splat(pixmap: &mut Pixmap, b: Bounds, shape: &Shape, dx: f32, dy: f32) {
    let c = shape_color(shape);
    if let Shape::Line {
        from, to, width, ..
    } = shape
    {
        let steps = (from.distance(*to) / 0.75).ceil().max(1.0);
        let share = area(shape) / (steps + 1.0);
        let r = 0.5 * width.max(0.75);
        for i in 0..=(steps as u32) {
            let p = from.lerp(*to, i as f32 / steps);
            let part = Bounds {
                x0: p.x - r + dx,
                y0: p.y - r + dy,
                x1: p.x + r + dx,
                y1: p.y + r + dy,
            };
            splat_box(pixmap, part, share, c);
        }
        return;
    }
    let moved = Bounds {
        x0: b.x0 + dx,
        y0: b.y0 + dy,
        x1: b.x1 + dx,
        y1: b.y1 + dy,
    };
    splat_box(pixmap, moved, area(shape), c);
}

/// Blend colour `c` with total coverage `area` (square pixels) spread evenly over box `b`.
fn splat_box(pixmap: &mut Pixmap, b: Bounds, area: f32, c: Rgba) {
    let (w, h) = (pixmap.width() as i64, pixmap.height() as i64);
    let (x0, y0, x1, y1) = (b.x0, b.y0, b.x1, b.y1);
    let box_area = ((x1 - x0) * (y1 - y0)).max(1e-6);
    let density = (area / box_area).min(1.0);
    let alpha = c.a as f32 / 255.0;
    let data = pixmap.data_mut();
    for py in (y0.floor() as i64).max(0)..(y1.ceil() as i64).min(h) {
        let oy = (y1.min(py as f32 + 1.0) - y0.max(py as f32)).max(0.0);
        for px in (x0.floor() as i64).max(0)..(x1.ceil() as i64).min(w) {
            let ox = (x1.min(px as f32 + 1.0) - x0.max(px as f32)).max(0.0);
            let a = (ox * oy * density * alpha).min(1.0);
            if a <= 0.0 {
                continue;
            }
            let at = 4 * (py * w + px) as usize;
            let keep = 1.0 - a;
            for (k, src) in [c.r, c.g, c.b].into_iter().enumerate() {
                let v = src as f32 * a + data[at + k] as f32 * keep;
                data[at + k] = v.round().min(255.0) as u8;
            }
            let v = 255.0 * a + data[at + 3] as f32 * keep;
            data[at + 3] = v.round().min(255.0) as u8;
        }
    }
}

fn draw_shape(pixmap: &mut Pixmap, shape: &Shape, paint: &mut Paint<'_>, transform: Transform) {
    if let Shape::Text { .. } = shape {
        // Text is drawn as the lines of its glyphs, as the window draws it.
        for line in crate::render::glyphs::drawn(shape) {
            draw_shape(pixmap, &line, paint, transform);
        }
        return;
    }
    if let Some(b) = bounds(shape) {
        if b.x1 - b.x0 <= SPLAT_SIDE && b.y1 - b.y0 <= SPLAT_SIDE {
            splat(pixmap, b, shape, transform.tx, transform.ty);
            return;
        }
    }
    match shape {
        Shape::Circle {
            center,
            radius,
            color: c,
        } => {
            if !finite(*center) || !positive(*radius) {
                return;
            }
            if let Some(path) = PathBuilder::from_circle(center.x, center.y, *radius) {
                paint.set_color(color(*c));
                pixmap.fill_path(&path, paint, FillRule::Winding, transform, None);
            }
        }
        Shape::Line {
            from,
            to,
            width,
            color: c,
        } => {
            if !finite(*from) || !finite(*to) || !positive(*width) {
                return;
            }
            paint.set_color(color(*c));
            if from.distance_squared(*to) < 1e-6 {
                // A zero-length round-capped line is a dot.
                if let Some(path) = PathBuilder::from_circle(from.x, from.y, 0.5 * width) {
                    pixmap.fill_path(&path, paint, FillRule::Winding, transform, None);
                }
                return;
            }
            let mut pb = PathBuilder::new();
            pb.move_to(from.x, from.y);
            pb.line_to(to.x, to.y);
            if let Some(path) = pb.finish() {
                let stroke = Stroke {
                    width: *width,
                    line_cap: LineCap::Round,
                    ..Stroke::default()
                };
                pixmap.stroke_path(&path, paint, &stroke, transform, None);
            }
        }
        Shape::Polygon { points, color: c } => {
            if points.len() < 3 || !points.iter().all(|p| finite(*p)) {
                return;
            }
            let mut pb = PathBuilder::new();
            pb.move_to(points[0].x, points[0].y);
            for p in &points[1..] {
                pb.line_to(p.x, p.y);
            }
            pb.close();
            if let Some(path) = pb.finish() {
                paint.set_color(color(*c));
                pixmap.fill_path(&path, paint, FillRule::Winding, transform, None);
            }
        }
        Shape::Text { .. } => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec2;

    fn frame(shapes: Vec<Shape>) -> Frame {
        Frame {
            width: 40,
            height: 30,
            background: Rgba::rgb(10, 20, 30),
            shapes,
        }
    }

    #[test]
    fn background_fills_the_image() {
        let img = rasterize(&frame(vec![])).unwrap();
        assert_eq!(
            (img.width, img.height, img.pixels.len()),
            (40, 30, 40 * 30 * 3)
        );
        assert!(img.pixels.chunks(3).all(|p| p == [10, 20, 30]));
    }

    #[test]
    fn shapes_cover_their_pixels_in_painter_order() {
        let red = Rgba::rgb(255, 0, 0);
        let green = Rgba::rgb(0, 255, 0);
        let blue = Rgba::rgb(0, 0, 255);
        let img = rasterize(&frame(vec![
            Shape::Circle {
                center: Vec2::new(10.0, 10.0),
                radius: 5.0,
                color: red,
            },
            Shape::Line {
                from: Vec2::new(20.0, 5.0),
                to: Vec2::new(35.0, 5.0),
                width: 4.0,
                color: green,
            },
            Shape::Polygon {
                points: vec![
                    Vec2::new(20.0, 15.0),
                    Vec2::new(38.0, 15.0),
                    Vec2::new(38.0, 28.0),
                    Vec2::new(20.0, 28.0),
                ],
                color: blue,
            },
            // Drawn last: covers part of the blue square.
            Shape::Circle {
                center: Vec2::new(30.0, 22.0),
                radius: 3.0,
                color: red,
            },
        ]))
        .unwrap();
        assert_eq!(img.get(10, 10), Some([255, 0, 0]));
        assert_eq!(img.get(27, 5), Some([0, 255, 0]));
        assert_eq!(img.get(22, 26), Some([0, 0, 255]));
        assert_eq!(img.get(30, 22), Some([255, 0, 0]));
        assert_eq!(img.get(2, 28), Some([10, 20, 30]));
        // Round caps extend the line by half its width (anti-aliased, so nearly full green).
        let [r, g, _] = img.get(36, 5).unwrap();
        assert!(g > 220 && r < 20, "{g} {r}");
        assert_eq!(img.get(39, 5), Some([10, 20, 30]));
    }

    #[test]
    fn alpha_blends_over_what_is_below() {
        let img = rasterize(&frame(vec![Shape::Circle {
            center: Vec2::new(20.0, 15.0),
            radius: 8.0,
            color: Rgba::with_alpha(255, 255, 255, 128),
        }]))
        .unwrap();
        let [r, g, b] = img.get(20, 15).unwrap();
        // 10 + (255 - 10) * 128/255 ≈ 133, and so on.
        assert!(
            (r as i32 - 133).abs() <= 2
                && (g as i32 - 138).abs() <= 2
                && (b as i32 - 143).abs() <= 2
        );
    }

    #[test]
    fn degenerate_shapes_are_skipped_without_panic() {
        let c = Rgba::rgb(1, 2, 3);
        let img = rasterize(&frame(vec![
            Shape::Circle {
                center: Vec2::new(f32::NAN, 1.0),
                radius: 3.0,
                color: c,
            },
            Shape::Circle {
                center: Vec2::new(5.0, 5.0),
                radius: -1.0,
                color: c,
            },
            Shape::Line {
                from: Vec2::ZERO,
                to: Vec2::new(f32::INFINITY, 0.0),
                width: 2.0,
                color: c,
            },
            Shape::Polygon {
                points: vec![Vec2::ZERO, Vec2::ONE],
                color: c,
            },
            Shape::Polygon {
                points: vec![Vec2::ZERO, Vec2::ONE, Vec2::new(2.0, 2.0)],
                color: c,
            },
        ]))
        .unwrap();
        assert!(img.pixels.chunks(3).all(|p| p == [10, 20, 30]));
    }

    #[test]
    fn zero_length_line_is_a_dot() {
        let img = rasterize(&frame(vec![Shape::Line {
            from: Vec2::new(20.0, 15.0),
            to: Vec2::new(20.0, 15.0),
            width: 6.0,
            color: Rgba::rgb(200, 0, 0),
        }]))
        .unwrap();
        assert_eq!(img.get(20, 15), Some([200, 0, 0]));
    }

    #[test]
    fn cached_common_start_gives_the_same_pixels_as_drawing_everything() {
        let grey = Rgba::rgb(120, 120, 120);
        let floor: Vec<Shape> = (0..10)
            .map(|i| Shape::Line {
                from: Vec2::new(0.0, 3.0 * i as f32),
                to: Vec2::new(40.0, 3.0 * i as f32 + 1.0),
                width: 1.5,
                color: grey,
            })
            .collect();
        let frame_at = |x: f32, bg: Rgba| {
            let mut shapes = floor.clone();
            shapes.push(Shape::Circle {
                center: Vec2::new(x, 15.0),
                radius: 4.0,
                color: Rgba::with_alpha(200, 0, 0, 200),
            });
            Frame {
                width: 40,
                height: 30,
                background: bg,
                shapes,
            }
        };
        let mut canvas = Canvas::new(40, 30).unwrap();
        let bg = Rgba::rgb(10, 20, 30);
        for (x, bg) in [
            (5.0, bg),
            (12.0, bg),
            (20.5, bg),
            (33.0, Rgba::rgb(90, 90, 90)),
            (8.0, bg),
        ] {
            let frame = frame_at(x, bg);
            canvas.draw(&frame);
            assert_eq!(canvas.to_rgb(), rasterize(&frame).unwrap(), "x={x}");
        }
        // A frame that shares nothing with the cache.
        let other = frame(vec![Shape::Circle {
            center: Vec2::new(3.0, 3.0),
            radius: 2.0,
            color: grey,
        }]);
        canvas.draw(&other);
        assert_eq!(canvas.to_rgb(), rasterize(&other).unwrap());
    }

    #[test]
    fn pixels_outside_the_changed_area_keep_their_values() {
        use crate::render::build_frame;
        use crate::render::fixture::Cascade;
        let cascade = Cascade::default();
        let poses: Vec<_> = (0..4).map(|i| cascade.pose_at(i as f64 * 0.5)).collect();
        let camera = crate::render::Camera::framing_all(&poses, 200.0 / 150.0, None);
        let mut canvas = Canvas::new(200, 150).unwrap();
        canvas.draw(&build_frame(&cascade.pose_at(0.0), &camera, 200, 150));
        assert_eq!(canvas.changed_area(), (0, 0, 200, 150));
        let mut smaller = 0;
        for i in 1..20 {
            let before = canvas.rgba().to_vec();
            canvas.draw(&build_frame(
                &cascade.pose_at(i as f64 * 0.033),
                &camera,
                200,
                150,
            ));
            let (x0, y0, x1, y1) = canvas.changed_area();
            if (x1 - x0) * (y1 - y0) < 200 * 150 / 2 {
                smaller += 1;
            }
            let rects = canvas.changed_rects().to_vec();
            let inside = |&(a, b, c, d): &(u32, u32, u32, u32), x: u32, y: u32| {
                x >= a && x < c && y >= b && y < d
            };
            for y in 0..150u32 {
                for x in 0..200u32 {
                    let covering = rects.iter().filter(|r| inside(r, x, y)).count();
                    assert!(covering <= 1, "frame {i}: rectangles overlap at ({x}, {y})");
                    if covering == 1 {
                        assert!(inside(&(x0, y0, x1, y1), x, y), "frame {i}: ({x}, {y})");
                        continue;
                    }
                    let at = 4 * (y * 200 + x) as usize;
                    assert_eq!(
                        canvas.rgba()[at..at + 4],
                        before[at..at + 4],
                        "frame {i} ({x}, {y})"
                    );
                }
            }
        }
        assert!(
            smaller >= 10,
            "the changed area is usually small: {smaller} of 19"
        );
    }

    #[test]
    fn dot_sized_shapes_cover_their_area_where_they_are() {
        let white = Rgba::rgb(255, 255, 255);
        let mut f = frame(vec![
            Shape::Circle {
                center: Vec2::new(10.5, 10.5),
                radius: 0.5,
                color: Rgba::rgb(0, 0, 0),
            },
            // A 2.5 px horizontal line, 0.5 px wide, along row 20.
            Shape::Line {
                from: Vec2::new(5.0, 20.5),
                to: Vec2::new(7.5, 20.5),
                width: 0.5,
                color: Rgba::rgb(0, 0, 0),
            },
        ]);
        f.background = white;
        let image = rasterize(&f).unwrap();
        let darkness = |x0: u32, x1: u32, y0: u32, y1: u32| -> f32 {
            let mut sum = 0.0;
            for y in y0..y1 {
                for x in x0..x1 {
                    sum += (255 - image.get(x, y).unwrap()[0]) as f32 / 255.0;
                }
            }
            sum
        };
        // The disc: pi/4 of a pixel, all inside pixel (10, 10).
        let disc = std::f32::consts::FRAC_PI_4;
        assert!((darkness(10, 11, 10, 11) - disc).abs() < 0.02);
        assert!(darkness(8, 13, 8, 13) - darkness(10, 11, 10, 11) < 0.01);
        // The line: 2.5 x 0.5 plus its round caps, on rows 20 (and a little 19, 21), not above
        // (its boxes overlap a little, and overlaps blend rather than add: within 15 %).
        let line = 2.5 * 0.5 + std::f32::consts::FRAC_PI_4 * 0.25;
        let got = darkness(3, 10, 18, 23);
        assert!((got - line).abs() < 0.15 * line, "{got} vs {line}");
        assert!(darkness(3, 10, 20, 21) > 0.6 * line);
        assert_eq!(darkness(3, 10, 10, 18), 0.0);
    }

    #[test]
    fn incremental_drawing_of_an_animation_matches_drawing_each_frame_whole() {
        use crate::render::fixture::Cascade;
        use crate::render::{build_frame, Camera};
        use crate::types::PropKind;
        for kind in [PropKind::Ball, PropKind::Club] {
            let cascade = Cascade {
                kind,
                ..Cascade::default()
            };
            let poses: Vec<_> = (0..4).map(|i| cascade.pose_at(i as f64 * 0.5)).collect();
            let camera = Camera::framing_all(&poses, 200.0 / 150.0, None);
            let mut canvas = Canvas::new(200, 150).unwrap();
            for i in 0..30 {
                let frame = build_frame(&cascade.pose_at(i as f64 * 0.021), &camera, 200, 150);
                canvas.draw(&frame);
                let whole = rasterize(&frame).unwrap();
                let got = canvas.to_rgb();
                let worst = got
                    .pixels
                    .iter()
                    .zip(&whole.pixels)
                    .map(|(a, b)| a.abs_diff(*b))
                    .max()
                    .unwrap();
                let differing = got
                    .pixels
                    .iter()
                    .zip(&whole.pixels)
                    .filter(|(a, b)| a != b)
                    .count();
                // Clipping at the redrawn rectangles can move anti-aliasing by a few levels.
                assert!(worst <= 24, "{kind:?} frame {i}: differs by {worst}");
                assert!(
                    differing * 1000 <= got.pixels.len(),
                    "{kind:?} frame {i}: {differing} values differ"
                );
            }
        }
    }

    #[test]
    fn swapped_order_of_unchanged_shapes_is_redrawn_whole() {
        let a = Shape::Circle {
            center: Vec2::new(10.0, 10.0),
            radius: 6.0,
            color: Rgba::rgb(255, 0, 0),
        };
        let b = Shape::Circle {
            center: Vec2::new(14.0, 10.0),
            radius: 6.0,
            color: Rgba::rgb(0, 0, 255),
        };
        let first = frame(vec![a.clone(), b.clone()]);
        let second = frame(vec![b, a]);
        let mut canvas = Canvas::new(40, 30).unwrap();
        canvas.draw(&first);
        canvas.draw(&second);
        assert_eq!(canvas.to_rgb(), rasterize(&second).unwrap());
        assert_eq!(canvas.to_rgb().get(12, 10), Some([255, 0, 0]));
    }

    #[test]
    fn empty_or_huge_frames_are_refused() {
        assert!(rasterize(&Frame {
            width: 0,
            height: 10,
            background: Rgba::rgb(0, 0, 0),
            shapes: vec![]
        })
        .is_none());
        assert!(Canvas::new(MAX_SIDE + 1, 1).is_none());
    }
}
