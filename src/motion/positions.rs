//! Where hands throw and catch: Juggling Lab's built-in table, custom dwell points, and the
//! conversion from a juggler's own frame to the world.

use glam::DVec3;

use crate::layout::Placement;
use crate::settings::DwellPoints;
use crate::types::Hand;

/// Height of the hand plane above the floor, metres.
pub(crate) const HAND_PLANE_Y: f64 = 1.00;
/// Distance of the hand plane in front of the body, metres.
pub(crate) const HAND_PLANE_Z: f64 = 0.30;
/// Distance from the centre line of a hand with nothing to do, metres.
pub(crate) const REST_X: f64 = 0.25;
/// Lowest height of any throw or catch point (custom points are raised to it), metres.
pub(crate) const MIN_EVENT_HEIGHT: f64 = 0.05;

/// Juggling Lab's distance (metres, outward from the centre line) of a throw of `value`
/// toward the other hand (`crossing`) or back to the same hand.
pub(crate) fn throw_x(value: u32, crossing: bool) -> f64 {
    let i = table_index(value);
    if crossing {
        [0.17, 0.17, 0.12, 0.10, 0.18, 0.25, 0.25, 0.30][i]
    } else {
        [0.20, 0.25, 0.12, 0.10, 0.075, 0.05, 0.05, 0.05][i]
    }
}

/// Juggling Lab's distance (metres, outward) of the catch of a throw of `value`.
pub(crate) fn catch_x(value: u32) -> f64 {
    [0.17, 0.25, 0.30, 0.40, 0.45, 0.45, 0.50, 0.50][table_index(value)]
}

fn table_index(value: u32) -> usize {
    (value.clamp(1, 8) - 1) as usize
}

/// A point in a hand's own terms: `out` from the centre line, `up` and `forward` relative to
/// the hand plane (y = 1.00 m, z = 0.30 m in front of the body), as in `DwellPoints`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct HandPoint {
    pub(crate) out: f64,
    pub(crate) up: f64,
    pub(crate) forward: f64,
}

impl HandPoint {
    /// A point on the hand plane `out` metres from the centre line.
    pub(crate) fn on_plane(out: f64) -> Self {
        HandPoint {
            out,
            up: 0.0,
            forward: 0.0,
        }
    }

    /// From a `DwellPoints` coordinate triple (non-finite entries count as 0).
    pub(crate) fn from_array(p: [f32; 3]) -> Self {
        let f = |v: f32| if v.is_finite() { v as f64 } else { 0.0 };
        HandPoint {
            out: f(p[0]),
            up: f(p[1]),
            forward: f(p[2]),
        }
    }

    /// The point in the juggler's own frame for `hand` (left mirrored to +x).
    pub(crate) fn local(self, hand: Hand) -> DVec3 {
        let y = (HAND_PLANE_Y + self.up).max(MIN_EVENT_HEIGHT);
        DVec3::new(
            hand.side_sign() as f64 * self.out,
            y,
            HAND_PLANE_Z + self.forward,
        )
    }
}

/// Catch and throw points of one dwell, in hand terms.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct DwellSpec {
    pub(crate) catch: HandPoint,
    pub(crate) throw: HandPoint,
}

impl From<DwellPoints> for DwellSpec {
    fn from(d: DwellPoints) -> Self {
        DwellSpec {
            catch: HandPoint::from_array(d.catch),
            throw: HandPoint::from_array(d.throw),
        }
    }
}

/// Where a hand with nothing to do rests, juggler-local.
pub(crate) fn rest_position(hand: Hand) -> DVec3 {
    HandPoint::on_plane(REST_X).local(hand)
}

/// World point (f64) of a point in a juggler's own frame.
pub(crate) fn to_world(placement: &Placement, local: DVec3) -> DVec3 {
    let (s, c) = (placement.facing as f64).sin_cos();
    let p = placement.position.as_dvec3();
    p + DVec3::new(
        c * local.x + s * local.z,
        local.y,
        -s * local.x + c * local.z,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    #[test]
    fn juggling_lab_table_in_metres() {
        assert_eq!(throw_x(3, true), 0.12);
        assert_eq!(catch_x(3), 0.30);
        assert_eq!(throw_x(5, true), 0.18);
        assert_eq!(throw_x(4, false), 0.10);
        assert_eq!(throw_x(2, false), 0.25);
        assert_eq!(catch_x(5), 0.45);
        // Above 8 reads as 8.
        assert_eq!(throw_x(11, true), 0.30);
        assert_eq!(catch_x(24), 0.50);
    }

    #[test]
    fn right_hand_is_at_negative_x_and_left_mirrors_it() {
        let p = Placement {
            position: Vec3::ZERO,
            facing: 0.0,
        };
        let right = to_world(&p, HandPoint::on_plane(0.3).local(Hand::Right));
        let left = to_world(&p, HandPoint::on_plane(0.3).local(Hand::Left));
        assert!((right - DVec3::new(-0.3, 1.0, 0.3)).length() < 1e-12);
        assert!((left - DVec3::new(0.3, 1.0, 0.3)).length() < 1e-12);
    }

    #[test]
    fn world_conversion_agrees_with_layout() {
        let p = Placement {
            position: Vec3::new(1.0, 0.0, -2.0),
            facing: 0.7,
        };
        let local = DVec3::new(-0.2, 1.1, 0.35);
        let ours = to_world(&p, local);
        let theirs = p.to_world(local.as_vec3()).as_dvec3();
        assert!((ours - theirs).length() < 1e-6);
    }

    #[test]
    fn custom_points_below_the_floor_are_raised() {
        let p = HandPoint::from_array([0.1, -3.0, f32::NAN]);
        let l = p.local(Hand::Left);
        assert_eq!(l, DVec3::new(0.1f32 as f64, MIN_EVENT_HEIGHT, HAND_PLANE_Z));
    }
}
