//! Headless back-end: puts a [`Frame`] on a CPU pixmap with tiny-skia (anti-aliased, alpha
//! blended). The only file that imports tiny-skia.

use tiny_skia::{Color, FillRule, LineCap, Paint, PathBuilder, Pixmap, Stroke, Transform};

use super::{Frame, Shape};
use crate::types::Rgba;

/// Largest image side accepted by [`rasterize`] (pixels).
pub const MAX_SIDE: u32 = 16_384;

/// An opaque RGB image, row-major, 3 bytes per pixel, no padding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RgbImage {
    pub width: u32,
    pub height: u32,
    pub pixels: Vec<u8>,
}

impl RgbImage {
    /// The colour at pixel (x, y), or `None` outside the image.
    pub fn get(&self, x: u32, y: u32) -> Option<[u8; 3]> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let i = 3 * (y as usize * self.width as usize + x as usize);
        Some([self.pixels[i], self.pixels[i + 1], self.pixels[i + 2]])
    }
}

/// A reusable drawing surface (keeps its pixel buffer between frames of the same size).
pub struct Canvas {
    pixmap: Pixmap,
}

impl Canvas {
    /// A canvas of `width` × `height`; `None` if a side is 0 or above [`MAX_SIDE`].
    pub fn new(width: u32, height: u32) -> Option<Canvas> {
        if width == 0 || height == 0 || width > MAX_SIDE || height > MAX_SIDE {
            return None;
        }
        Some(Canvas {
            pixmap: Pixmap::new(width, height)?,
        })
    }

    pub fn width(&self) -> u32 {
        self.pixmap.width()
    }

    pub fn height(&self) -> u32 {
        self.pixmap.height()
    }

    /// Clear to the frame's background and draw its shapes in order. Shapes are placed in
    /// pixel coordinates; if the frame's size differs from the canvas they are still drawn at
    /// the same pixel positions (clipped).
    pub fn draw(&mut self, frame: &Frame) {
        self.pixmap.fill(color(frame.background));
        let mut paint = Paint {
            anti_alias: true,
            ..Paint::default()
        };
        for shape in &frame.shapes {
            draw_shape(&mut self.pixmap, shape, &mut paint);
        }
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
    pub fn write_rgb(&self, out: &mut Vec<u8>) {
        for px in self.pixmap.data().chunks_exact(4) {
            out.extend_from_slice(&px[..3]);
        }
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

fn draw_shape(pixmap: &mut Pixmap, shape: &Shape, paint: &mut Paint<'_>) {
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
                pixmap.fill_path(&path, paint, FillRule::Winding, Transform::identity(), None);
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
                    pixmap.fill_path(&path, paint, FillRule::Winding, Transform::identity(), None);
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
                pixmap.stroke_path(&path, paint, &stroke, Transform::identity(), None);
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
                pixmap.fill_path(&path, paint, FillRule::Winding, Transform::identity(), None);
            }
        }
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
