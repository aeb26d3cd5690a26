//! The stage disc, its grid and the shadows on it.

use glam::Vec3;

use super::paint::Painter;
use super::{Layer, Part};
use crate::body::{JugglerPose, Pose, PropPose};
use crate::types::PropKind;

/// Largest radius of the stage disc, metres.
const MAX_STAGE: f32 = 60.0;

impl Painter<'_> {
    /// The stage disc around the jugglers and a grid on it.
    pub(super) fn floor(&self, pose: &Pose, out: &mut Vec<Layer>) {
        let positions: Vec<Vec3> = pose
            .jugglers
            .iter()
            .map(|j| j.placement.position)
            .filter(|p| p.is_finite())
            .collect();
        let centre = if positions.is_empty() {
            Vec3::ZERO
        } else {
            positions.iter().copied().sum::<Vec3>() / positions.len() as f32
        };
        let reach = positions
            .iter()
            .map(|p| p.distance(centre))
            .fold(0.0f32, f32::max);
        // The stage reaches beyond the camera's distance so its edge stays far back; the grid
        // covers the jugglers' surroundings.
        let eye_distance =
            Vec3::new(self.view.eye.x - centre.x, 0.0, self.view.eye.z - centre.z).length();
        // Bounded whatever the input (the grid has at most a few hundred lines).
        let reach = reach.min(MAX_STAGE);
        let stage = (reach + 3.0).max(reach + 0.8 * eye_distance).min(MAX_STAGE);
        let radius = reach + 3.0;
        let mut shapes = Vec::new();
        shapes.extend(self.floor_ellipse(
            centre,
            Vec3::X * stage,
            Vec3::Z * stage,
            self.style.floor,
            96,
        ));
        let step = self.style.grid_spacing.max(0.05);
        let width = 0.012;
        let lines = (radius / step).floor() as i32;
        for k in -lines..=lines {
            let offset = k as f32 * step;
            let half = (radius * radius - offset * offset).max(0.0).sqrt();
            if half < step * 0.5 {
                continue;
            }
            for (a, b) in [
                (
                    Vec3::new(centre.x + offset, 0.0, centre.z - half),
                    Vec3::new(centre.x + offset, 0.0, centre.z + half),
                ),
                (
                    Vec3::new(centre.x - half, 0.0, centre.z + offset),
                    Vec3::new(centre.x + half, 0.0, centre.z + offset),
                ),
            ] {
                shapes.extend(self.line(a, b, width, self.style.grid));
            }
        }
        out.push(Layer {
            part: Part::Floor,
            depth: f32::INFINITY,
            shapes,
        });
    }

    pub(super) fn juggler_shadow(&self, j: usize, juggler: &JugglerPose, out: &mut Vec<Layer>) {
        let place = &juggler.placement;
        let centre = 0.5 * (juggler.feet[0] + juggler.feet[1]);
        let centre = Vec3::new(centre.x, 0.0, centre.z);
        let shape = self.floor_ellipse(
            centre,
            place.rotate(Vec3::X) * 0.34,
            place.rotate(Vec3::Z) * 0.24,
            self.style.shadow,
            24,
        );
        out.push(Layer {
            part: Part::Shadow { juggler: Some(j) },
            depth: f32::INFINITY,
            shapes: shape.into_iter().collect(),
        });
    }

    pub(super) fn prop_shadow(&self, prop: &PropPose, out: &mut Vec<Layer>) {
        let r = match prop.kind {
            PropKind::Ball => 0.5 * prop.size,
            PropKind::Club => 0.22 * prop.size,
            PropKind::Ring => 0.35 * prop.size,
        };
        let height = prop.position.y.max(0.0);
        // Fainter and wider the higher the prop flies.
        let fade = (1.15 - 0.25 * height).clamp(0.25, 1.0);
        let mut color = self.style.shadow;
        color.a = (color.a as f32 * fade).round() as u8;
        let r = r * (1.0 + 0.15 * height);
        let shape = self.floor_ellipse(prop.position, Vec3::X * r, Vec3::Z * r, color, 16);
        out.push(Layer {
            part: Part::Shadow { juggler: None },
            depth: f32::INFINITY,
            shapes: shape.into_iter().collect(),
        });
    }
}
