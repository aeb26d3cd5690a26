//! Body proportions: the one place that says how big a juggler is.
//!
//! Defaults are Juggling Lab's adult figure (MOTION.md §4): shoulders at (±0.23, 1.40, 0),
//! upper arm and forearm 0.41 m, waist ±0.17 at 0.95 m, head 0.20 × 0.26 above a 0.05 neck,
//! plus gunswap's 0.08 m hand link and 0.2 rad outward elbow swivel; the chest's depth and the
//! limbs' thicknesses are the drawn figure's. `BodySpec` overrides the arm and shoulder numbers
//! per pattern; a different shoulder height scales the torso, legs and head with it (the limbs'
//! thicknesses stay).
//!
//! Every juggler's `JugglerPose` carries its `BodyDims`, so the renderer draws and the checks
//! measure the same body: the torso capsule (`torso_radius`), the cylinder that decides what
//! is in front of a body (`body_radius`), the limbs' widths.

use glam::Vec3;

use crate::body::elbow::ArmLengths;
use crate::settings::BodySpec;
use crate::types::Hand;

/// Shoulder height of the default adult, metres (torso, legs and head scale with it).
const ADULT_SHOULDER_HEIGHT: f32 = 1.40;

/// A juggler's body proportions, metres (angles in radians). Always valid: build it with
/// `Default` or `from_spec`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodyDims {
    /// Distance between the two shoulder joints.
    pub shoulder_width: f32,
    /// Height of the shoulder joints above the floor.
    pub shoulder_height: f32,
    pub upper_arm: f32,
    /// Elbow to the hand's holding point (the wrist lies `hand` before it).
    pub forearm: f32,
    /// Wrist to the hand's holding point.
    pub hand: f32,
    /// Width of the torso at the waist.
    pub waist_width: f32,
    pub waist_height: f32,
    pub neck: f32,
    pub head_width: f32,
    pub head_height: f32,
    /// Depth of the torso front to back at the chest, its deepest section (the waist and
    /// hips are drawn a little shallower).
    pub chest_depth: f32,
    /// Thicknesses of the limbs and the neck as drawn, and the radius of the hand's ball.
    pub upper_arm_width: f32,
    pub forearm_width: f32,
    pub hand_radius: f32,
    pub thigh_width: f32,
    pub shin_width: f32,
    pub neck_width: f32,
    /// Chicken-wing angle of the elbows (seed 000), positive = outward.
    pub swivel: f32,
}

impl Default for BodyDims {
    fn default() -> Self {
        BodyDims {
            shoulder_width: 0.46,
            shoulder_height: ADULT_SHOULDER_HEIGHT,
            upper_arm: 0.41,
            forearm: 0.41,
            hand: 0.08,
            waist_width: 0.34,
            waist_height: 0.95,
            neck: 0.05,
            head_width: 0.20,
            head_height: 0.26,
            chest_depth: 0.23,
            upper_arm_width: 0.095,
            forearm_width: 0.075,
            hand_radius: 0.045,
            thigh_width: 0.15,
            shin_width: 0.115,
            neck_width: 0.085,
            swivel: 0.2,
        }
    }
}

/// Why a body could not be built from the settings.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum BodyError {
    /// A body dimension is not a finite number in its plausible range.
    #[error("body {field} = {value} m is out of range ({min}..={max} m)")]
    OutOfRange {
        field: &'static str,
        value: f32,
        min: f32,
        max: f32,
    },
    /// The hand link must be shorter than the forearm it ends.
    #[error("hand length {hand} m must be shorter than the forearm ({forearm} m)")]
    HandLongerThanForearm { hand: f32, forearm: f32 },
}

/// Allowed range of each overridable dimension, metres.
const LIMITS: [(&str, f32, f32); 5] = [
    ("shoulder_width", 0.10, 1.00),
    ("shoulder_height", 0.50, 2.50),
    ("upper_arm", 0.10, 1.20),
    ("forearm", 0.10, 1.20),
    ("hand", 0.0, 0.30),
];

impl BodyDims {
    /// The adult defaults with the spec's overrides; torso, legs and head scale with a changed
    /// shoulder height. Rejects non-finite or implausible values and a hand link that is not
    /// shorter than the forearm.
    pub fn from_spec(spec: Option<&BodySpec>) -> Result<BodyDims, BodyError> {
        let mut dims = BodyDims::default();
        let Some(spec) = spec else {
            return Ok(dims);
        };
        let given = [
            spec.shoulder_width,
            spec.shoulder_height,
            spec.upper_arm,
            spec.forearm,
            spec.hand,
        ];
        for ((field, min, max), value) in LIMITS.iter().zip(given) {
            if let Some(v) = value {
                if !(v.is_finite() && (*min..=*max).contains(&v)) {
                    return Err(BodyError::OutOfRange {
                        field,
                        value: v,
                        min: *min,
                        max: *max,
                    });
                }
            }
        }
        if let Some(h) = spec.shoulder_height {
            let k = h / ADULT_SHOULDER_HEIGHT;
            dims.shoulder_height = h;
            dims.waist_height *= k;
            dims.neck *= k;
            dims.head_width *= k;
            dims.head_height *= k;
            dims.chest_depth *= k;
        }
        dims.shoulder_width = spec.shoulder_width.unwrap_or(dims.shoulder_width);
        dims.upper_arm = spec.upper_arm.unwrap_or(dims.upper_arm);
        dims.forearm = spec.forearm.unwrap_or(dims.forearm);
        dims.hand = spec.hand.unwrap_or(dims.hand);
        if dims.hand >= dims.forearm {
            return Err(BodyError::HandLongerThanForearm {
                hand: dims.hand,
                forearm: dims.forearm,
            });
        }
        Ok(dims)
    }

    /// Upper arm and forearm as the elbow solver wants them.
    pub fn arm(&self) -> ArmLengths {
        ArmLengths {
            upper: self.upper_arm,
            fore: self.forearm,
        }
    }

    /// Factor of this body's height relative to the default adult.
    pub(crate) fn scale(&self) -> f32 {
        self.shoulder_height / ADULT_SHOULDER_HEIGHT
    }

    /// A shoulder joint in the juggler's own frame (left at +x).
    pub fn shoulder(&self, hand: Hand) -> Vec3 {
        Vec3::new(
            hand.side_sign() * self.shoulder_width / 2.0,
            self.shoulder_height,
            0.0,
        )
    }

    /// A hip joint (a lower corner of the torso) in the juggler's own frame.
    pub(crate) fn hip(&self, hand: Hand) -> Vec3 {
        Vec3::new(
            hand.side_sign() * self.waist_width / 2.0,
            self.waist_height,
            0.0,
        )
    }

    /// A knee in the juggler's own frame: legs nearly straight, knees slightly forward.
    pub(crate) fn knee(&self, hand: Hand) -> Vec3 {
        let k = self.scale();
        Vec3::new(hand.side_sign() * 0.155 * k, 0.50 * k, 0.03 * k)
    }

    /// A foot (ankle) in the juggler's own frame.
    pub(crate) fn foot(&self, hand: Hand) -> Vec3 {
        let k = self.scale();
        Vec3::new(hand.side_sign() * 0.15 * k, 0.03 * k, 0.02 * k)
    }

    /// Base of the neck, between the shoulders.
    pub fn neck_base(&self) -> Vec3 {
        Vec3::new(0.0, self.shoulder_height, 0.0)
    }

    /// Centre of the head: above the neck by the neck length and half the head's height.
    pub(crate) fn head_centre(&self) -> Vec3 {
        Vec3::new(
            0.0,
            self.shoulder_height + self.neck + self.head_height / 2.0,
            0.0,
        )
    }

    /// Radius of a round head of the same size (mean of the ellipse's half axes).
    pub fn head_radius(&self) -> f32 {
        (self.head_width + self.head_height) / 4.0
    }

    /// Radius of the torso as a capsule around the line from the base of the neck to the
    /// middle of the hips: half the chest's depth front to back, so a prop in front of the
    /// drawn chest is outside it. The sides of the torso reach further (the shoulders are
    /// 46 cm apart) but that is where the arms are.
    pub fn torso_radius(&self) -> f32 {
        self.chest_depth / 2.0
    }

    /// Radius of the upright cylinder around the body's axis that stands for the whole body
    /// (legs, torso, head) when deciding whether a limb or prop is in front of it or behind
    /// it: half the waist's width.
    pub(crate) fn body_radius(&self) -> f32 {
        self.waist_width / 2.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_juggling_labs_adult() {
        let d = BodyDims::default();
        assert_eq!(d.shoulder(Hand::Right), Vec3::new(-0.23, 1.40, 0.0));
        assert_eq!(d.shoulder(Hand::Left), Vec3::new(0.23, 1.40, 0.0));
        assert_eq!(d.hip(Hand::Left), Vec3::new(0.17, 0.95, 0.0));
        assert_eq!(
            d.arm(),
            ArmLengths {
                upper: 0.41,
                fore: 0.41
            }
        );
        // Head from 1.45 to 1.71 m.
        assert!((d.head_centre().y - 1.58).abs() < 1e-6);
        assert!((d.head_radius() - 0.115).abs() < 1e-6);
        assert_eq!((d.torso_radius(), d.body_radius()), (0.115, 0.17));
        assert_eq!(BodyDims::from_spec(None), Ok(d));
    }

    #[test]
    fn overrides_replace_single_values_and_scale_the_figure() {
        let spec = BodySpec {
            shoulder_height: Some(1.12),
            upper_arm: Some(0.30),
            ..BodySpec::default()
        };
        let d = BodyDims::from_spec(Some(&spec)).unwrap();
        assert_eq!(d.upper_arm, 0.30);
        assert_eq!(d.forearm, 0.41);
        assert!((d.waist_height - 0.76).abs() < 1e-6, "0.95 × 0.8");
        assert!((d.head_centre().y - (1.12 + 0.04 + 0.104)).abs() < 1e-6);
        assert!((d.foot(Hand::Left).y - 0.024).abs() < 1e-6);
        assert!((d.torso_radius() - 0.092).abs() < 1e-6, "0.115 × 0.8");
        assert_eq!(d.forearm_width, BodyDims::default().forearm_width);
    }

    #[test]
    fn rejects_implausible_values() {
        for spec in [
            BodySpec {
                upper_arm: Some(f32::NAN),
                ..BodySpec::default()
            },
            BodySpec {
                forearm: Some(-0.4),
                ..BodySpec::default()
            },
            BodySpec {
                shoulder_width: Some(3.0),
                ..BodySpec::default()
            },
            BodySpec {
                shoulder_height: Some(f32::INFINITY),
                ..BodySpec::default()
            },
        ] {
            assert!(matches!(
                BodyDims::from_spec(Some(&spec)),
                Err(BodyError::OutOfRange { .. })
            ));
        }
        let spec = BodySpec {
            forearm: Some(0.2),
            hand: Some(0.25),
            ..BodySpec::default()
        };
        assert_eq!(
            BodyDims::from_spec(Some(&spec)),
            Err(BodyError::HandLongerThanForearm {
                hand: 0.25,
                forearm: 0.2
            })
        );
    }
}
