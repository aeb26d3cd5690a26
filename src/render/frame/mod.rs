//! Building a [`Frame`] from a [`Pose`]: the juggler figures, the props and the floor,
//! projected through a [`Camera`] and ordered back to front.
//!
//! The scene is first cut into [`Layer`]s, each a small group of shapes with one depth and a
//! [`Part`] label (a limb, a torso with its head, a prop, the floor). Floor layers come first;
//! all other layers are sorted far to near by their depth, so a prop behind a juggler's body
//! is drawn before it and a prop in front after it, and the limbs of the far side are drawn
//! before the torso. The torso is treated as an upright cylinder around the body's axis, so
//! its depth is the depth of that axis; arms and props lie outside it, so comparing their own
//! depth with the axis' depth tells which side of the body they are on.
//!
//! Files: `order.rs` (the depth order against bodies), `paint.rs` (the painter: projection
//! and primitive shapes), `floor.rs` (stage, grid, shadows), `figure.rs` (a juggler's body
//! and arms), `props.rs` (balls, clubs, rings), `overlay.rs` (a prop's trail and the throw
//! labels, drawn over the juggling).

use super::camera::Camera;
use super::style::Style;
use super::{Frame, Shape};
use crate::body::Pose;
use crate::types::Hand;

mod figure;
mod floor;
mod order;
mod overlay;
mod paint;
mod props;

pub use overlay::Trail;

use order::order_against_bodies;
use paint::Painter;

/// What a layer depicts (juggler and prop indices are 0-based, as in the `Pose`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// The floor disc and its grid.
    Floor,
    /// A shadow on the floor: of juggler `Some(j)` or, with `None`, of a prop.
    Shadow {
        juggler: Option<usize>,
    },
    /// Legs, pelvis, torso, neck and head of a juggler: drawn as one block.
    Body {
        juggler: usize,
    },
    UpperArm {
        juggler: usize,
        hand: Hand,
    },
    Forearm {
        juggler: usize,
        hand: Hand,
    },
    Hand {
        juggler: usize,
        hand: Hand,
    },
    Prop {
        index: usize,
    },
    /// A piece of a prop's trail ([`Trail`]).
    Trail {
        chunk: usize,
    },
}

/// What is drawn over the juggling of a frame: labels `(prop, text)` by their props and a
/// prop's trail.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Overlay<'a> {
    pub labels: &'a [(usize, String)],
    pub trail: Option<&'a Trail>,
}

/// A group of shapes drawn together, with the camera depth used to order it.
#[derive(Clone, Debug, PartialEq)]
pub struct Layer {
    pub part: Part,
    /// Metres in front of the eye; floor layers use `f32::INFINITY` (always drawn first).
    pub depth: f32,
    pub shapes: Vec<Shape>,
}

/// The frame of `pose` seen through `camera` in a `width` × `height` image, default style.
pub fn build_frame(pose: &Pose, camera: &Camera, width: u32, height: u32) -> Frame {
    build_frame_styled(pose, camera, width, height, &Style::default())
}

/// [`build_frame`] with an explicit style.
pub(crate) fn build_frame_styled(
    pose: &Pose,
    camera: &Camera,
    width: u32,
    height: u32,
    style: &Style,
) -> Frame {
    build_frame_over(pose, camera, width, height, style, &Overlay::default())
}

/// [`build_frame`] with `overlay` drawn over the juggling: the trail in depth order with
/// the figures and props, the labels on top of everything.
pub fn build_frame_with(
    pose: &Pose,
    camera: &Camera,
    width: u32,
    height: u32,
    overlay: &Overlay,
) -> Frame {
    build_frame_over(pose, camera, width, height, &Style::default(), overlay)
}

fn build_frame_over(
    pose: &Pose,
    camera: &Camera,
    width: u32,
    height: u32,
    style: &Style,
    overlay: &Overlay,
) -> Frame {
    let camera = camera.for_pose(pose);
    let layers = layers_over(pose, &camera, width, height, style, overlay.trail);
    let mut shapes: Vec<Shape> = layers.into_iter().flat_map(|l| l.shapes).collect();
    if !overlay.labels.is_empty() {
        let painter = Painter {
            view: camera.view(width, height),
            style,
        };
        painter.labels(pose, overlay.labels, height, &mut shapes);
    }
    Frame {
        width,
        height,
        background: style.background,
        shapes,
    }
}

/// The layers of a frame, already in drawing order (back to front).
pub fn build_layers(
    pose: &Pose,
    camera: &Camera,
    width: u32,
    height: u32,
    style: &Style,
) -> Vec<Layer> {
    layers_over(pose, &camera.for_pose(pose), width, height, style, None)
}

fn layers_over(
    pose: &Pose,
    camera: &Camera,
    width: u32,
    height: u32,
    style: &Style,
    trail: Option<&Trail>,
) -> Vec<Layer> {
    let painter = Painter {
        view: camera.view(width, height),
        style,
    };
    let mut floor = Vec::new();
    painter.floor(pose, &mut floor);
    for (j, juggler) in pose.jugglers.iter().enumerate() {
        painter.juggler_shadow(j, juggler, &mut floor);
    }
    for prop in &pose.props {
        painter.prop_shadow(prop, &mut floor);
    }

    let mut layers = Vec::new();
    for (j, juggler) in pose.jugglers.iter().enumerate() {
        painter.juggler(j, juggler, &mut layers);
    }
    // Through a juggler's eyes (a camera riding with it) the body is all around the eye:
    // only its arms are seen.
    if let Some(rider) = camera.follow.map(|f| f.juggler) {
        layers.retain(|l| l.part != Part::Body { juggler: rider });
    }
    for (i, prop) in pose.props.iter().enumerate() {
        painter.prop(i, prop, &mut layers);
    }
    let trail_anchors = trail.map(Trail::anchors).unwrap_or_default();
    if let Some(trail) = trail {
        painter.trail(trail, &mut layers);
    }
    order_against_bodies(pose, &painter.view, &mut layers, &trail_anchors);
    // Far to near; stable, so equal depths keep their construction order.
    layers.sort_by(|a, b| b.depth.total_cmp(&a.depth));
    floor.extend(layers);
    floor.retain(|l| !l.shapes.is_empty());
    floor
}

#[cfg(test)]
mod tests;
