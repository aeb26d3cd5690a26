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

const VERTEX: &str = r#"#version 100
attribute vec3 position;
attribute vec2 texcoord;
attribute vec4 color0;
varying lowp vec4 color;
uniform mat4 Model;
uniform mat4 Projection;
void main() {
    gl_Position = Projection * Model * vec4(position, 1);
    color = color0 / 255.0;
}"#;

const FRAGMENT: &str = r#"#version 100
varying lowp vec4 color;
void main() {
    gl_FragColor = color;
}"#;

/// A material drawing vertex colours with alpha blending and no texture lookup (cheaper than
/// macroquad's default material under software OpenGL). `None` if the shader does not build;
/// the default material then does the same job.
pub fn flat_material() -> Option<mq::Material> {
    use macroquad::miniquad::{BlendFactor, BlendState, BlendValue, Equation, PipelineParams};
    let blend = BlendState::new(
        Equation::Add,
        BlendFactor::Value(BlendValue::SourceAlpha),
        BlendFactor::OneMinusValue(BlendValue::SourceAlpha),
    );
    mq::load_material(
        mq::ShaderSource::Glsl {
            vertex: VERTEX,
            fragment: FRAGMENT,
        },
        mq::MaterialParams {
            pipeline_params: PipelineParams {
                color_blend: Some(blend),
                ..Default::default()
            },
            ..Default::default()
        },
    )
    .ok()
}

/// Draws `frame` with its top-left corner at `offset` (window pixels): clears the whole window
/// to the frame's background, then draws every shape in painter's order, each as one mesh
/// with anti-aliased edges.
pub fn draw_frame(frame: &Frame, offset: Vec2, material: Option<&mq::Material>) {
    // A clear, not a rectangle: filling the window with a blended quad costs more than all the
    // shapes together under a software renderer (Xvfb). The controls cover the rest.
    mq::clear_background(color(frame.background));
    if let Some(m) = material {
        mq::gl_use_material(m);
    }
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
    mq::gl_use_default_material();
}
