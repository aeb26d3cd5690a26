//! How a picture of the animation is taken: the camera and what is drawn over the juggling
//! (throw labels, a prop's trail). The export and the window both make their frames with
//! [`Picture::frame`], so the same choices give the same pixels.

use super::frame::{build_frame_with, Overlay, Trail};
use super::framing::PoseSource;
use super::{Camera, Frame};

/// Samples of a trail per second of loop, and the fewest and most of them.
const TRAIL_SAMPLES_PER_SECOND: f64 = 90.0;
const TRAIL_MIN_SAMPLES: usize = 90;
const TRAIL_MAX_SAMPLES: usize = 3000;

/// The camera, and what is drawn over the juggling.
#[derive(Clone, Debug, PartialEq)]
pub struct Picture {
    pub camera: Camera,
    /// Each throw's value written by its prop as it leaves the hand.
    pub labels: bool,
    /// A prop's path over one loop ([`trail_of`]).
    pub trail: Option<Trail>,
}

impl From<Camera> for Picture {
    /// The camera alone: no labels, no trail.
    fn from(camera: Camera) -> Picture {
        Picture {
            camera,
            labels: false,
            trail: None,
        }
    }
}

impl Picture {
    /// The frame of `source` at `t` seconds in a `width` × `height` image.
    pub fn frame(&self, source: &dyn PoseSource, t: f64, width: u32, height: u32) -> Frame {
        let labels = if self.labels {
            source.labels_at(t)
        } else {
            Vec::new()
        };
        let overlay = Overlay {
            labels: &labels,
            trail: self.trail.as_ref(),
        };
        build_frame_with(&source.pose_at(t), &self.camera, width, height, &overlay)
    }
}

/// The path prop `prop` (0-based) of `source` travels over one loop (until every prop is
/// back in its own place), in the prop's colour; `None` for a prop the pattern does not have.
pub fn trail_of(source: &dyn PoseSource, prop: usize) -> Option<Trail> {
    let duration = source.loop_duration();
    if !(duration.is_finite() && duration > 0.0) {
        return None;
    }
    let first = source.pose_at(0.0);
    let color = first.props.get(prop)?.color;
    let samples = ((duration * TRAIL_SAMPLES_PER_SECOND).ceil() as usize)
        .clamp(TRAIL_MIN_SAMPLES, TRAIL_MAX_SAMPLES);
    let points = (0..samples)
        .filter_map(|i| {
            let t = duration * i as f64 / samples as f64;
            source.pose_at(t).props.get(prop).map(|p| p.position)
        })
        .collect();
    Some(Trail { points, color })
}
