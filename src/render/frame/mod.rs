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
//! and arms), `props.rs` (balls, clubs, rings).

use super::camera::Camera;
use super::style::Style;
use super::{Frame, Shape};
use crate::body::Pose;
use crate::types::Hand;

mod figure;
mod floor;
mod order;
mod paint;
mod props;

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
    let layers = build_layers(pose, camera, width, height, style);
    Frame {
        width,
        height,
        background: style.background,
        shapes: layers.into_iter().flat_map(|l| l.shapes).collect(),
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
    for (i, prop) in pose.props.iter().enumerate() {
        painter.prop(i, prop, &mut layers);
    }
    order_against_bodies(pose, &painter.view, &mut layers);
    // Far to near; stable, so equal depths keep their construction order.
    layers.sort_by(|a, b| b.depth.total_cmp(&a.depth));
    floor.extend(layers);
    floor.retain(|l| !l.shapes.is_empty());
    floor
}

#[cfg(test)]
mod tests;
