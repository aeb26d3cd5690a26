//! Puts a `render::Frame` on the macroquad window. The juggling in the window comes only from
//! here, so it matches the headless export of the same frame.

use std::cell::RefCell;

use glam::Vec2;
use macroquad::models::{Mesh, Vertex};
use macroquad::prelude as mq;

use super::tessellate::{self, Coverage, FEATHER};
use crate::render::{Frame, Shape};
use crate::types::Rgba;

/// macroquad colour of an `Rgba`.
pub(crate) fn color(c: Rgba) -> mq::Color {
    mq::Color::from_rgba(c.r, c.g, c.b, c.a)
}

const VERTEX: &str = r#"#version 100
attribute vec3 position;
attribute vec2 texcoord;
attribute vec4 color0;
attribute vec4 normal;
varying lowp vec4 color;
varying highp vec4 capsule;
uniform mat4 Model;
uniform mat4 Projection;
void main() {
    gl_Position = Projection * Model * vec4(position, 1);
    color = color0 / 255.0;
    capsule = vec4(texcoord, normal.xy);
}"#;

/// Coverage as in `tessellate::capsule_coverage`: `capsule` is the pixel's position in the
/// capsule's frame (xy), its radius (z) and length (w).
const FRAGMENT: &str = r#"#version 100
#ifdef GL_FRAGMENT_PRECISION_HIGH
precision highp float;
#else
precision mediump float;
#endif
varying lowp vec4 color;
varying highp vec4 capsule;
void main() {
    float u = capsule.x - clamp(capsule.x, 0.0, capsule.w);
    float alpha = clamp(capsule.z - length(vec2(u, capsule.y)) + 0.5, 0.0, 1.0);
    gl_FragColor = vec4(color.rgb, color.a * alpha);
}"#;

/// Polygons (`Coverage::Solid`): the vertex colour, edges from the feather ring's alpha.
const FLAT_VERTEX: &str = r#"#version 100
attribute vec3 position;
attribute vec4 color0;
varying lowp vec4 color;
uniform mat4 Model;
uniform mat4 Projection;
void main() {
    gl_Position = Projection * Model * vec4(position, 1);
    color = color0 / 255.0;
}"#;

const FLAT_FRAGMENT: &str = r#"#version 100
precision mediump float;
varying lowp vec4 color;
void main() {
    gl_FragColor = color;
}"#;

/// The materials of the juggling, both with vertex colours and alpha blending: one for
/// discs and lines, cut out by their signed distance (see `tessellate`), one for polygons.
/// Two shaders, not one with a branch: a pixel of a polygon (the floor covers much of the
/// window) then costs only its colour, which matters under software WebGL/OpenGL.
#[derive(Clone)]
pub(crate) struct Materials {
    capsule: mq::Material,
    flat: mq::Material,
}

/// The materials for [`draw_frame`]; `None` if a shader does not build (drawing then falls
/// back to hard-edged shapes). Also makes the flat one the material of [`with_flat_material`].
pub(crate) fn materials() -> Option<Materials> {
    let materials = Materials {
        capsule: material(VERTEX, FRAGMENT)?,
        flat: material(FLAT_VERTEX, FLAT_FRAGMENT)?,
    };
    MATERIALS.with(|m| *m.borrow_mut() = Some(materials.clone()));
    Some(materials)
}

thread_local! {
    /// The materials, once [`materials`] has built them, for the controls.
    static MATERIALS: RefCell<Option<Materials>> = const { RefCell::new(None) };
}

/// Runs `draw` (macroquad shapes without a texture, such as the controls' rectangles) with
/// the flat material, then returns to macroquad's default one. macroquad's own shader samples
/// its white texture at every pixel, which costs several times a plain colour under software
/// WebGL (SwiftShader): the bars and panels of the controls cover a fifth of the window.
/// Consecutive calls still batch into one draw call. Draws as before if there is no flat
/// material.
pub(crate) fn with_flat_material(draw: impl FnOnce()) {
    MATERIALS.with(|m| match &*m.borrow() {
        Some(m) => {
            mq::gl_use_material(&m.flat);
            draw();
            mq::gl_use_default_material();
        }
        None => draw(),
    });
}

fn material(vertex: &str, fragment: &str) -> Option<mq::Material> {
    use macroquad::miniquad::{BlendFactor, BlendState, BlendValue, Equation, PipelineParams};
    let blend = BlendState::new(
        Equation::Add,
        BlendFactor::Value(BlendValue::SourceAlpha),
        BlendFactor::OneMinusValue(BlendValue::SourceAlpha),
    );
    mq::load_material(
        mq::ShaderSource::Glsl { vertex, fragment },
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
/// with anti-aliased edges. macroquad batches consecutive meshes of one material into one
/// draw call.
pub(crate) fn draw_frame(frame: &Frame, offset: Vec2, materials: Option<&Materials>) {
    // A clear, not a rectangle: filling the window with a blended quad costs more than all the
    // shapes together under a software renderer (Xvfb). The controls cover the rest.
    mq::clear_background(color(frame.background));
    draw_shapes(&frame.shapes, offset, materials);
}

/// Draws a disc of the controls (window pixels) with the smooth edge of the juggling's discs:
/// without multisampling macroquad's polygon would show stair steps.
pub(crate) fn smooth_disc(center: Vec2, radius: f32, color: mq::Color) {
    draw_controls_shape(&Shape::Circle {
        center,
        radius,
        color: rgba(color),
    });
}

/// Draws a line of the controls through `points`, `width` pixels wide with square ends (as
/// `macroquad::shapes::draw_line`), as one polygon with the juggling's smooth edges: without
/// multisampling macroquad's lines would show stair steps, and drawn segment by segment a
/// translucent line would blend twice where its segments meet.
pub(crate) fn smooth_polyline(points: &[Vec2], width: f32, color: mq::Color) {
    // The soft edge (`FEATHER` wide, half covered on average) lies outside the polygon: make
    // the polygon narrower by it, so that the line looks `width` wide (hairlines stay visible).
    let half_width = (width - FEATHER).max(width / 2.0) / 2.0;
    let outline = tessellate::polyline_outline(points, half_width);
    if !outline.is_empty() {
        draw_controls_shape(&Shape::Polygon {
            points: outline,
            color: rgba(color),
        });
    }
}

fn draw_controls_shape(shape: &Shape) {
    MATERIALS.with(|m| draw_shapes(std::slice::from_ref(shape), Vec2::ZERO, m.borrow().as_ref()));
}

/// macroquad's own conversion of a colour to bytes (so a shape matches its macroquad look).
fn rgba(c: mq::Color) -> Rgba {
    let [r, g, b, a]: [u8; 4] = c.into();
    Rgba { r, g, b, a }
}

/// Draws `shapes` moved by `offset` in painter's order, each as one mesh with anti-aliased
/// edges; returns to macroquad's default material.
fn draw_shapes(shapes: &[Shape], offset: Vec2, materials: Option<&Materials>) {
    // Which material is in use: `Some(true)` the capsule one, `Some(false)` the flat one.
    let mut in_use = None;
    let mut mesh = Mesh {
        vertices: Vec::new(),
        indices: Vec::new(),
        texture: None,
    };
    // Text as the lines of its glyphs, as the raster back-end draws it.
    let shapes = crate::render::glyphs::without_text(shapes);
    for shape in shapes.iter() {
        let shape_mesh = tessellate::shape_mesh(shape, offset, FEATHER);
        if shape_mesh.indices.is_empty() {
            continue;
        }
        mesh.vertices.clear();
        mesh.indices.clear();
        mesh.vertices
            .extend(shape_mesh.vertices.iter().map(|v| Vertex {
                position: mq::vec3(v.position.x, v.position.y, 0.0),
                uv: mq::vec2(v.local.x, v.local.y),
                color: [v.color.r, v.color.g, v.color.b, v.color.a],
                normal: match v.coverage {
                    Coverage::Solid => mq::Vec4::ZERO,
                    Coverage::Capsule { radius, length } => mq::vec4(radius, length, 1.0, 0.0),
                },
            }));
        mesh.indices.extend_from_slice(&shape_mesh.indices);
        if let Some(m) = materials {
            let capsule = shape_mesh.vertices[0].coverage != Coverage::Solid;
            if in_use != Some(capsule) {
                mq::gl_use_material(if capsule { &m.capsule } else { &m.flat });
                in_use = Some(capsule);
            }
        }
        mq::draw_mesh(&mesh);
    }
    mq::gl_use_default_material();
}
