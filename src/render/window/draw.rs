//! Puts a `render::Frame` on the macroquad window. The juggling in the window comes only from
//! here, so it matches the headless export of the same frame.

use glam::Vec2;
use macroquad::models::{Mesh, Vertex};
use macroquad::prelude as mq;

use super::tessellate::{self, FEATHER};
use crate::render::Frame;
use crate::types::Rgba;

/// macroquad colour of an `Rgba`.
pub fn color(c: Rgba) -> mq::Color {
    mq::Color::from_rgba(c.r, c.g, c.b, c.a)
}

/// Draws `frame` with its top-left corner at `offset` (window pixels): clears the whole window
/// to the frame's background, then draws every shape in painter's order, each as one mesh
/// with anti-aliased edges.
pub fn draw_frame(frame: &Frame, offset: Vec2) {
    // A clear, not a rectangle: filling the window with a blended quad costs more than all the
    // shapes together under a software renderer (Xvfb). The controls cover the rest.
    mq::clear_background(color(frame.background));
    let mut mesh = Mesh {
        vertices: Vec::new(),
        indices: Vec::new(),
        texture: None,
    };
    for shape in &frame.shapes {
        let shape_mesh = tessellate::shape_mesh(shape, offset, FEATHER);
        if shape_mesh.indices.is_empty() {
            continue;
        }
        mesh.vertices.clear();
        mesh.indices.clear();
        mesh.vertices
            .extend(shape_mesh.vertices.iter().map(|v| Vertex {
                position: mq::vec3(v.position.x, v.position.y, 0.0),
                uv: mq::Vec2::ZERO,
                color: [v.color.r, v.color.g, v.color.b, v.color.a],
                normal: mq::Vec4::ZERO,
            }));
        mesh.indices.extend_from_slice(&shape_mesh.indices);
        mq::draw_mesh(&mesh);
    }
}
