//! Bodies: arm IK, body proportions, whole juggler poses.
//!
//! The types below ([`Pose`], [`JugglerPose`], [`ArmPose`], [`PropPose`]) are the contract with
//! `render` and the pose JSON. All positions are world coordinates in metres.
//!
//! - `elbow`: seed 000's chicken-wing circle, the elbow every juggler uses (ω = 0.2 outward);
//!   seed 001's two-link worked example is one of its tests (its two forms are the circle at
//!   ω = π and ω = 0);
//! - `dims`: body proportions (adult defaults, `settings::BodySpec` overrides);
//! - `juggler`: a whole juggler from its placement and the two hand positions;
//! - `props`: prop sizes, colours, club spin and ring plane.
//!
//! Invariants: everything here is a total function of finite inputs (no `Result` after
//! `BodyDims::from_spec`, no NaN, out-of-reach hands give a straight arm), and nothing here
//! knows about time, beats or the notation.

pub mod dims;
pub mod elbow;
pub mod juggler;
pub mod props;

pub use dims::{BodyDims, BodyError};

use glam::Vec3;

use crate::layout::Placement;
use crate::types::{HandRef, PropKind, Rgba};

/// One arm at an instant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ArmPose {
    pub shoulder: Vec3,
    pub elbow: Vec3,
    /// Where the forearm ends (the hand's centre is `hand`).
    pub wrist: Vec3,
    /// The hand: the point that holds props (the motion model's hand position).
    pub hand: Vec3,
}

/// A whole juggler at an instant.
#[derive(Clone, Debug, PartialEq)]
pub struct JugglerPose {
    pub placement: Placement,
    /// Centre of the head (its radius is `dims.head_radius()`).
    pub head: Vec3,
    /// Unit vector the juggler looks along (the head turns toward the pattern's peak).
    pub gaze: Vec3,
    /// Base of the neck (between the shoulders); the torso is a capsule of radius
    /// `dims.torso_radius()` around the segment from here to the middle of the hips.
    pub neck: Vec3,
    /// Left and right hip joints.
    pub hips: [Vec3; 2],
    /// Left and right knees and feet.
    pub knees: [Vec3; 2],
    pub feet: [Vec3; 2],
    /// `[left, right]` arms.
    pub arms: [ArmPose; 2],
    /// The body's sizes: segment lengths, head, torso and limb widths (the renderer draws
    /// them, the checks measure them).
    pub dims: BodyDims,
}

/// A prop at an instant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PropPose {
    pub kind: PropKind,
    /// Ball: centre. Club: the pivot (centre of mass). Ring: centre.
    pub position: Vec3,
    /// Club: unit vector from the knob toward the body (the club's long axis).
    /// Ring: unit normal of the ring's plane. Ball: +y.
    pub axis: Vec3,
    pub held_by: Option<HandRef>,
    pub orbit: usize,
    pub color: Rgba,
    /// Size: ball diameter, club length, ring outer diameter (metres).
    pub size: f32,
}

/// The whole scene at one time.
#[derive(Clone, Debug, PartialEq)]
pub struct Pose {
    pub time: f64,
    pub jugglers: Vec<JugglerPose>,
    pub props: Vec<PropPose>,
}
