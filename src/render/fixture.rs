//! Hand-built poses for the renderer's and the export's unit tests: a juggler standing
//! with Juggling Lab's body proportions, arms solved with JL's drooping elbow, and a simple
//! 3-ball cascade whose balls fly true parabolas between the hands.
//!
//! This is not the body or motion model (`scene` is); it only needs to be plausible and
//! exactly periodic so that renderer and export can be tested on their own.

use glam::Vec3;

use crate::body::dims::BodyDims;
use crate::body::{ArmPose, JugglerPose, Pose, PropPose};
use crate::layout::Placement;
use crate::types::{Hand, HandRef, PropKind, Rgba};

/// Shoulder joints in a juggler's own frame (left at +x).
pub const SHOULDER: Vec3 = Vec3::new(0.23, 1.40, 0.0);
/// Head centre in a juggler's own frame.
pub const HEAD: Vec3 = Vec3::new(0.0, 1.58, 0.0);

/// Elbow of an arm from shoulder to hand with equal segments `len`: Juggling Lab's elbow,
/// in the vertical plane through shoulder and hand, below their line (straight arm when out
/// of reach).
pub fn elbow(shoulder: Vec3, hand: Vec3, len: f32) -> Vec3 {
    let d = hand - shoulder;
    let dist = d.length();
    if dist < 1e-6 {
        return shoulder - Vec3::Y * len;
    }
    let dir = d / dist;
    let reach = dist.min(2.0 * len);
    let along = 0.5 * reach;
    let off = (len * len - along * along).max(0.0).sqrt();
    let down = (-Vec3::Y - dir * (-Vec3::Y).dot(dir))
        .try_normalize()
        .unwrap_or(Vec3::X);
    shoulder + dir * along.min(len) + down * off
}

/// A juggler of the default body standing at `placement` with hands at the given own-frame
/// points (`[left, right]`).
pub fn standing(placement: Placement, hands_local: [Vec3; 2]) -> JugglerPose {
    let dims = BodyDims::default();
    let w = |v: Vec3| placement.to_world(v);
    let arms = Hand::BOTH.map(|hand| {
        let sign = hand.side_sign();
        let shoulder = w(Vec3::new(sign * SHOULDER.x, SHOULDER.y, SHOULDER.z));
        let hand_pos = w(hands_local[hand.index()]);
        let elbow = elbow(shoulder, hand_pos, dims.upper_arm);
        let wrist = hand_pos - (hand_pos - elbow).normalize_or_zero() * 0.05;
        ArmPose {
            shoulder,
            elbow,
            wrist,
            hand: hand_pos,
        }
    });
    let side = |x: f32, y: f32, z: f32| Hand::BOTH.map(|h| w(Vec3::new(h.side_sign() * x, y, z)));
    JugglerPose {
        placement,
        head: w(HEAD),
        gaze: placement.forward(),
        neck: w(Vec3::new(0.0, SHOULDER.y, 0.0)),
        hips: side(0.10, 0.92, 0.0),
        knees: side(0.11, 0.50, 0.04),
        feet: side(0.12, 0.05, 0.0),
        arms,
        dims,
    }
}

/// A ball of the default size (0.10 m).
pub fn ball(position: Vec3, color: Rgba) -> PropPose {
    PropPose {
        kind: PropKind::Ball,
        position,
        axis: Vec3::Y,
        held_by: None,
        orbit: 0,
        color,
        size: 0.10,
    }
}

/// Colours of the cascade's balls.
pub const CASCADE_COLORS: [Rgba; 3] = [
    Rgba::rgb(220, 50, 47),
    Rgba::rgb(38, 139, 210),
    Rgba::rgb(230, 180, 20),
];

/// A 3-ball cascade at 3 beats per second with a dwell of 1 beat: balls thrown at 0.12 m
/// from the centre, caught at 0.30 m, hands 1.00 m up and 0.30 m forward. Exactly periodic
/// with [`Cascade::loop_duration`] (6 beats: every ball back in its first hand).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cascade {
    pub placement: Placement,
    pub beat: f64,
    pub dwell: f64,
    pub kind: PropKind,
    pub gravity: f32,
}

impl Default for Cascade {
    fn default() -> Self {
        Cascade {
            placement: Placement {
                position: Vec3::ZERO,
                facing: 0.0,
            },
            beat: 1.0 / 3.0,
            dwell: 1.0,
            kind: PropKind::Ball,
            gravity: 9.81,
        }
    }
}

impl Cascade {
    pub fn loop_duration(&self) -> f64 {
        6.0 * self.beat
    }

    /// Own-frame throw and catch points of a hand.
    fn point(hand: Hand, x: f32) -> Vec3 {
        Vec3::new(hand.side_sign() * x, 1.0, 0.3)
    }

    /// Hand throwing on beat `b` (right on even beats).
    fn thrower(b: i64) -> Hand {
        if b.rem_euclid(2) == 0 {
            Hand::Right
        } else {
            Hand::Left
        }
    }

    /// Own-frame position of ball `i` at beat time `u`, and the hand holding it.
    fn ball_at(&self, i: i64, u: f64) -> (Vec3, Option<Hand>) {
        let b = i + 3 * ((u - i as f64) / 3.0).floor() as i64;
        let s = u - b as f64;
        let flight = 3.0 - self.dwell;
        let from = Cascade::thrower(b);
        let to = from.other();
        if s < flight {
            let t = (s * self.beat) as f32;
            let duration = (flight * self.beat) as f32;
            let a = Cascade::point(from, 0.12);
            let c = Cascade::point(to, 0.30);
            let v = (c - a) / duration + Vec3::Y * (0.5 * self.gravity * duration);
            (a + v * t - Vec3::Y * (0.5 * self.gravity * t * t), None)
        } else {
            // Held: from the catch point down through a dip and in to the throw point.
            let f = ((s - flight) / self.dwell) as f32;
            let c = Cascade::point(to, 0.30);
            let a = Cascade::point(to, 0.12);
            let p = c + (a - c) * f - Vec3::Y * (0.2 * (std::f32::consts::PI * f).sin());
            (p, Some(to))
        }
    }

    /// Own-frame hand position at beat time `u`.
    fn hand_at(&self, hand: Hand, u: f64) -> Vec3 {
        // Each hand throws every second beat; after its throw it is empty until the catch.
        let first = if hand == Hand::Right { 0 } else { 1 };
        let b = first + 2 * ((u - first as f64) / 2.0).floor() as i64;
        let s = u - b as f64;
        let empty = 2.0 - self.dwell;
        if s < empty {
            let f = (s / empty) as f32;
            let a = Cascade::point(hand, 0.12);
            let c = Cascade::point(hand, 0.30);
            a + (c - a) * f + Vec3::Y * (0.12 * (std::f32::consts::PI * f).sin())
        } else {
            let f = ((s - empty) / self.dwell) as f32;
            let c = Cascade::point(hand, 0.30);
            let a = Cascade::point(hand, 0.12);
            c + (a - c) * f - Vec3::Y * (0.2 * (std::f32::consts::PI * f).sin())
        }
    }

    /// The scene at time `t` seconds.
    pub fn pose_at(&self, t: f64) -> Pose {
        let u = t / self.beat;
        let hands = Hand::BOTH.map(|h| self.hand_at(h, u));
        let juggler = standing(self.placement, hands);
        let props = (0..3)
            .map(|i| {
                let (local, held) = self.ball_at(i, u);
                let spin = (u as f32) * 1.3 + i as f32;
                let axis = match self.kind {
                    PropKind::Ball => Vec3::Y,
                    PropKind::Club => self
                        .placement
                        .rotate(Vec3::new(0.0, spin.sin(), spin.cos())),
                    PropKind::Ring => self.placement.rotate(Vec3::X),
                };
                PropPose {
                    kind: self.kind,
                    position: self.placement.to_world(local),
                    axis,
                    held_by: held.map(|h| HandRef::new(0, h)),
                    orbit: 0,
                    color: CASCADE_COLORS[i as usize],
                    size: match self.kind {
                        PropKind::Ball => 0.10,
                        PropKind::Club => 0.485,
                        PropKind::Ring => 0.25,
                    },
                }
            })
            .collect();
        Pose {
            time: t,
            jugglers: vec![juggler],
            props,
        }
    }
}

impl crate::render::framing::PoseSource for Cascade {
    fn pose_at(&self, t: f64) -> Pose {
        Cascade::pose_at(self, t)
    }
    fn loop_duration(&self) -> f64 {
        Cascade::loop_duration(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elbow_keeps_both_segments_at_their_length() {
        let s = Vec3::new(-0.23, 1.4, 0.0);
        for hand in [
            Vec3::new(-0.3, 1.0, 0.3),
            Vec3::new(-0.1, 0.9, 0.35),
            Vec3::new(-0.5, 1.2, 0.1),
        ] {
            let e = elbow(s, hand, 0.41);
            assert!((e.distance(s) - 0.41).abs() < 1e-4);
            assert!((e.distance(hand) - 0.41).abs() < 1e-4);
            assert!(
                e.y < 0.5 * (s.y + hand.y),
                "elbow droops below the shoulder-hand line"
            );
        }
        // Out of reach: a straight arm toward the hand.
        let e = elbow(s, s + Vec3::new(0.0, -1.0, 0.0), 0.41);
        assert!((e - (s - Vec3::Y * 0.41)).length() < 1e-3);
    }

    #[test]
    fn cascade_is_periodic_and_balls_meet_the_hands() {
        let c = Cascade::default();
        let a = c.pose_at(0.123);
        let b = c.pose_at(0.123 + c.loop_duration());
        for (p, q) in a.props.iter().zip(&b.props) {
            assert!(p.position.distance(q.position) < 1e-4);
        }
        // A held ball is at its hand.
        for t in [0.0, 0.05, 0.4, 0.9, 1.3] {
            let pose = c.pose_at(t);
            for prop in &pose.props {
                if let Some(h) = prop.held_by {
                    let hand = pose.jugglers[0].arms[h.hand.index()].hand;
                    assert!(prop.position.distance(hand) < 1e-4, "t={t}");
                }
            }
        }
    }
}
