//! What is drawn over the juggling: a prop's trail (its path over one loop, cut into pieces
//! ordered in depth with everything else, so the body hides the part behind it) and throw
//! labels (text by the props, drawn last, on top of everything).

use glam::{Vec2, Vec3};

use super::paint::Painter;
use super::{Layer, Part};
use crate::body::Pose;
use crate::render::style::shade;
use crate::render::Shape;
use crate::types::Rgba;

/// Segments of a trail drawn as one layer (one depth).
pub(super) const TRAIL_CHUNK: usize = 6;
/// World width of a trail's line, metres.
const TRAIL_WIDTH: f32 = 0.012;
/// Label height as a fraction of the image height, and its bounds in pixels.
const LABEL_FRACTION: f32 = 0.045;
const LABEL_MIN_PX: f32 = 10.0;
const LABEL_MAX_PX: f32 = 48.0;

/// A prop's path over one loop: world points in time order (the last joins the first), drawn
/// as a line in `color`.
#[derive(Clone, Debug, PartialEq)]
pub struct Trail {
    pub points: Vec<Vec3>,
    pub color: Rgba,
}

impl Trail {
    /// The midpoint of each chunk of [`TRAIL_CHUNK`] segments: where its layer is ordered.
    pub(super) fn anchors(&self) -> Vec<Vec3> {
        let n = self.points.len();
        (0..n.div_ceil(TRAIL_CHUNK))
            .map(|c| {
                let mid = (c * TRAIL_CHUNK + TRAIL_CHUNK / 2).min(n - 1);
                self.points[mid]
            })
            .collect()
    }
}

impl Painter<'_> {
    /// The trail's layers, one per chunk of segments, at the depth of its middle.
    pub(super) fn trail(&self, trail: &Trail, out: &mut Vec<Layer>) {
        let n = trail.points.len();
        if n < 2 {
            return;
        }
        for (chunk, anchor) in trail.anchors().into_iter().enumerate() {
            let shapes: Vec<Shape> = (chunk * TRAIL_CHUNK..((chunk + 1) * TRAIL_CHUNK).min(n))
                .filter_map(|i| {
                    let (a, b) = (trail.points[i], trail.points[(i + 1) % n]);
                    self.line(a, b, TRAIL_WIDTH, trail.color)
                })
                .collect();
            out.push(Layer {
                part: Part::Trail { chunk },
                depth: self.view.depth(anchor),
                shapes,
            });
        }
    }

    /// Labels `(prop, text)` beside their props: left of the text a little right of the
    /// prop's edge, capitals centred on the prop, in a dark tone of the prop's colour over a
    /// white halo. Props behind the camera get none.
    pub(super) fn labels(
        &self,
        pose: &Pose,
        labels: &[(usize, String)],
        image_height: u32,
        out: &mut Vec<Shape>,
    ) {
        let height = (LABEL_FRACTION * image_height as f32).clamp(LABEL_MIN_PX, LABEL_MAX_PX);
        for (index, text) in labels {
            let Some(prop) = pose.props.get(*index) else {
                continue;
            };
            let Some((centre, depth)) = self.view.project(prop.position) else {
                continue;
            };
            // A club's size is its length, seen end-on or across: the label goes by its body.
            let half_width = match prop.kind {
                crate::types::PropKind::Club => 0.12 * prop.size,
                _ => 0.5 * prop.size,
            };
            let radius = half_width * self.view.scale(depth);
            out.push(Shape::Text {
                at: centre + Vec2::new(radius + 0.3 * height, 0.5 * height),
                text: text.clone(),
                height,
                color: shade(prop.color, 0.55),
                halo: Rgba::rgb(255, 255, 255),
            });
        }
    }
}
