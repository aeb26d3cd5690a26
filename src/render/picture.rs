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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::framing::camera_with;
    use crate::render::raster::rasterize;
    use crate::render::{Shape, ViewOverrides};
    use crate::scene::Scene;
    use crate::spec::PatternSpec;

    fn scene(notation: &str) -> Scene {
        Scene::new(&PatternSpec::from_notation(notation)).unwrap()
    }

    #[test]
    fn labels_change_the_pixels_where_the_value_is_written_and_nowhere_else() {
        let s = scene("531");
        let (w, h) = (480u32, 360u32);
        let camera = camera_with(&s, w as f32 / h as f32, &ViewOverrides::default());
        let plain = Picture::from(camera);
        let labelled = Picture {
            labels: true,
            ..plain.clone()
        };
        let mut seen = 0;
        for t in [0.05, 0.33, 0.61, 0.9, 1.2] {
            let frame = labelled.frame(&s, t, w, h);
            let boxes: Vec<(f32, f32, f32, f32)> = frame
                .shapes
                .iter()
                .filter_map(|shape| match shape {
                    Shape::Text {
                        at, text, height, ..
                    } => {
                        let m = 0.4 * height;
                        let width = crate::render::glyphs::text_width(text, *height);
                        Some((at.x - m, at.y - height - m, at.x + width + m, at.y + m))
                    }
                    _ => None,
                })
                .collect();
            assert_eq!(boxes.len(), s.labels_at(t).len(), "t {t}");
            let a = rasterize(&plain.frame(&s, t, w, h)).unwrap();
            let b = rasterize(&frame).unwrap();
            let mut changed = vec![0usize; boxes.len()];
            for y in 0..h {
                for x in 0..w {
                    if a.get(x, y) == b.get(x, y) {
                        continue;
                    }
                    let (px, py) = (x as f32 + 0.5, y as f32 + 0.5);
                    let inside = boxes
                        .iter()
                        .position(|&(x0, y0, x1, y1)| px >= x0 && px <= x1 && py >= y0 && py <= y1);
                    let Some(i) = inside else {
                        panic!("t {t}: pixel ({x}, {y}) changed outside every label {boxes:?}");
                    };
                    changed[i] += 1;
                }
            }
            // Every label is written: a good share of its box changed.
            assert!(changed.iter().all(|&n| n > 40), "t {t}: {changed:?}");
            seen += boxes.len();
        }
        assert!(seen >= 5, "{seen} labels");
    }

    #[test]
    fn a_trail_goes_round_the_props_path_in_its_colour() {
        let s = scene("3");
        let trail = trail_of(&s, 1).unwrap();
        let pose = s.pose_at(0.0);
        assert_eq!(trail.color, pose.props[1].color);
        assert!(trail.points.len() >= TRAIL_MIN_SAMPLES);
        // The path is closed: its first point is where the prop is at time 0 and its last
        // one just before it comes back.
        assert!(trail.points[0].distance(pose.props[1].position) < 1e-6);
        let gap = trail.points[trail.points.len() - 1].distance(trail.points[0]);
        assert!(gap < 0.1, "{gap}");
        assert!(trail_of(&s, 3).is_none());
        // Drawn: the picture with the trail has more shapes in the prop's colour.
        let camera = camera_with(&s, 1.0, &ViewOverrides::default());
        let with = Picture {
            trail: Some(trail.clone()),
            ..Picture::from(camera)
        };
        let count = |p: &Picture| {
            p.frame(&s, 0.1, 200, 200)
                .shapes
                .iter()
                .filter(|sh| matches!(sh, Shape::Line { color, .. } if *color == trail.color))
                .count()
        };
        assert!(count(&with) >= trail.points.len() - 10);
        assert_eq!(count(&Picture::from(camera)), 0);
    }
}
