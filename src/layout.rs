//! Where jugglers stand and how a juggler's own frame maps to the world.
//!
//! A juggler's own frame: origin on the floor between the feet, y up, facing +z, so the right
//! hand is at negative x. World frame: the same axes for a juggler placed at the origin with
//! facing 0. Several jugglers stand on a circle facing its centre, neighbours about 2.4 m apart
//! (real passers stand 2–3 m apart).

use glam::Vec3;

use crate::settings::PlacementSpec;

/// Distance between neighbouring jugglers in the default layout, metres.
pub const NEIGHBOUR_DISTANCE: f32 = 2.4;

/// One juggler's place in the world.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placement {
    /// Floor point between the feet.
    pub position: Vec3,
    /// Rotation about +y in radians; 0 faces +z.
    pub facing: f32,
}

impl Placement {
    /// World point of a point given in this juggler's own frame.
    pub fn to_world(&self, local: Vec3) -> Vec3 {
        self.position + self.rotate(local)
    }

    /// World direction of a direction given in this juggler's own frame.
    pub fn rotate(&self, local: Vec3) -> Vec3 {
        let (s, c) = self.facing.sin_cos();
        Vec3::new(
            c * local.x + s * local.z,
            local.y,
            -s * local.x + c * local.z,
        )
    }

    /// Own-frame point of a world point.
    pub fn to_local(&self, world: Vec3) -> Vec3 {
        let d = world - self.position;
        let (s, c) = self.facing.sin_cos();
        Vec3::new(c * d.x - s * d.z, d.y, s * d.x + c * d.z)
    }

    /// Unit vector the juggler faces, in the world.
    pub fn forward(&self) -> Vec3 {
        self.rotate(Vec3::Z)
    }
}

/// The placement of every juggler of a pattern.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    pub jugglers: Vec<Placement>,
}

impl Layout {
    /// One juggler at the origin facing +z; several on a circle facing its centre, with
    /// neighbours `NEIGHBOUR_DISTANCE` apart. Juggler 0 stands at -z (facing +z, toward the
    /// default camera), the others follow counter-clockwise seen from above.
    pub fn circle(jugglers: usize) -> Layout {
        if jugglers <= 1 {
            return Layout {
                jugglers: vec![Placement {
                    position: Vec3::ZERO,
                    facing: 0.0,
                }],
            };
        }
        let n = jugglers as f32;
        let radius = NEIGHBOUR_DISTANCE / (2.0 * (std::f32::consts::PI / n).sin());
        let placements = (0..jugglers)
            .map(|i| {
                let angle = std::f32::consts::TAU * i as f32 / n;
                // Position on the circle; juggler 0 at (0, 0, -r).
                let position = Vec3::new(-radius * angle.sin(), 0.0, -radius * angle.cos());
                // Face the centre: the facing direction is -position / r.
                let facing = (-position.x).atan2(-position.z);
                Placement { position, facing }
            })
            .collect();
        Layout {
            jugglers: placements,
        }
    }

    /// The placements the user gave, or the default circle when they gave none
    /// (missing entries, when fewer are given than there are jugglers, come from the circle).
    pub fn from_specs(jugglers: usize, specs: &[PlacementSpec]) -> Layout {
        let mut layout = Layout::circle(jugglers);
        for (placement, spec) in layout.jugglers.iter_mut().zip(specs) {
            *placement = Placement {
                position: Vec3::new(spec.x, 0.0, spec.z),
                facing: spec.facing_deg.to_radians(),
            };
        }
        layout
    }

    /// Centre of all jugglers' floor positions.
    pub fn centre(&self) -> Vec3 {
        let sum: Vec3 = self.jugglers.iter().map(|p| p.position).sum();
        sum / self.jugglers.len().max(1) as f32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solo_juggler_faces_plus_z_with_right_hand_at_negative_x() {
        let layout = Layout::circle(1);
        let p = layout.jugglers[0];
        assert_eq!(p.forward(), Vec3::Z);
        assert!(p.to_world(Vec3::new(-0.2, 1.0, 0.3)).x < 0.0);
    }

    #[test]
    fn two_jugglers_face_each_other_2_4_m_apart() {
        let layout = Layout::circle(2);
        let [a, b] = [layout.jugglers[0], layout.jugglers[1]];
        assert!((a.position.distance(b.position) - 2.4).abs() < 1e-5);
        let towards_b = (b.position - a.position).normalize();
        assert!(a.forward().dot(towards_b) > 0.9999);
        assert!(b.forward().dot(-towards_b) > 0.9999);
    }

    #[test]
    fn circle_neighbours_are_2_4_m_apart_and_face_the_centre() {
        for n in 3..=10 {
            let layout = Layout::circle(n);
            for i in 0..n {
                let a = layout.jugglers[i];
                let b = layout.jugglers[(i + 1) % n];
                assert!(
                    (a.position.distance(b.position) - 2.4).abs() < 1e-4,
                    "n={n}"
                );
                let to_centre = (-a.position).normalize();
                assert!(a.forward().dot(to_centre) > 0.9999, "n={n} i={i}");
            }
        }
    }

    #[test]
    fn local_and_world_round_trip() {
        let layout = Layout::circle(3);
        let p = layout.jugglers[2];
        let local = Vec3::new(0.3, 1.2, -0.4);
        assert!(p.to_local(p.to_world(local)).distance(local) < 1e-5);
    }
}
