//! Rendering: a camera, and a `Frame` (what to draw, where, in which order and colour) built
//! from a `Pose`. Back-ends only put a `Frame` on a surface: `raster` (tiny-skia, headless) and
//! `gl` (macroquad). They (and the application, `crate::app`) are the only files that import
//! those crates.

use glam::Vec2;

use crate::types::Rgba;

pub mod camera;
#[cfg(test)]
pub(crate) mod fixture;
pub(crate) mod frame;
pub(crate) mod framing;
pub(crate) mod gl;
pub(crate) mod glyphs;
mod picture;
pub mod raster;
pub(crate) mod style;

pub use camera::Camera;
pub use camera::Follow;
pub use frame::{build_frame, build_frame_with, build_layers, Layer, Overlay, Part, Trail};
pub use framing::{auto_camera, camera_with, PoseSource, ViewKind, ViewOverrides};
pub use picture::{trail_of, Picture};
pub use style::Style;

/// One thing to draw, in pixel coordinates (origin top-left, y down).
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// A filled disc.
    Circle {
        center: Vec2,
        radius: f32,
        color: Rgba,
    },
    /// A thick segment with round caps.
    Line {
        from: Vec2,
        to: Vec2,
        width: f32,
        color: Rgba,
    },
    /// A filled polygon (non-self-intersecting).
    Polygon { points: Vec<Vec2>, color: Rgba },
    /// A line of text in the stroke font of `glyphs`: the left end of its baseline at `at`,
    /// capitals `height` pixels high, in `color` over a `halo` that keeps it readable on any
    /// background. Never mirrored, whatever the camera.
    Text {
        at: Vec2,
        text: String,
        height: f32,
        color: Rgba,
        halo: Rgba,
    },
}

/// Everything to draw for one image, back to front.
#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    pub width: u32,
    pub height: u32,
    pub background: Rgba,
    /// Painter's order: draw in sequence, later shapes cover earlier ones.
    pub shapes: Vec<Shape>,
}
