//! Everything needed to show one pattern: notation → schedule → timing → layout → motion →
//! bodies. Built once by `Scene::new` (the only step that can fail); after that every query is
//! total: `pose_at(t)` gives the whole scene at any time, looping seamlessly.

use glam::Vec3;

use crate::body::dims::BodyDims;
use crate::body::juggler::juggler_pose;
use crate::body::props::{prop_axis, prop_color, prop_size, PropPhase};
use crate::body::{BodyError, Pose, PropPose};
use crate::layout::Layout;
use crate::motion::{Motion, MotionError, PropState, Timing};
use crate::schedule::{self, PatternError, Schedule};
use crate::spec::PatternSpec;
use crate::types::{PropKind, Rgba};

/// Why a pattern spec cannot be animated.
#[derive(Debug, thiserror::Error)]
pub enum SceneError {
    /// The notation does not parse or is not a valid pattern (with its column or beat).
    #[error(transparent)]
    Pattern(#[from] PatternError),
    /// A timing setting (bps, dwell, gravity) is out of range.
    #[error(transparent)]
    Timing(#[from] MotionError),
    /// A body dimension is out of range.
    #[error(transparent)]
    Body(#[from] BodyError),
    /// A juggler placement has a coordinate or angle that is not a finite number.
    #[error("placement of juggler {juggler} is not finite")]
    Placement { juggler: usize },
}

/// Distance from the hand to a held club's pivot along the club: the hand grips the handle
/// 5 cm from the knob and the pivot is 20 cm from the knob.
const CLUB_GRIP_TO_PIVOT: f32 = 0.15;
/// Height of a held ring's centre above the hand: held near the bottom of the rim.
const RING_GRIP_TO_CENTRE: f32 = 0.11;

/// One pattern, ready to be evaluated at any time.
#[derive(Clone, Debug)]
pub struct Scene {
    spec: PatternSpec,
    schedule: Schedule,
    timing: Timing,
    layout: Layout,
    motion: Motion,
    dims: BodyDims,
    /// Colour of each prop, by prop index.
    colors: Vec<Rgba>,
}

impl Scene {
    /// Parse, validate and lay out `spec`; fails on a bad pattern, timing, body or placement.
    pub fn new(spec: &PatternSpec) -> Result<Scene, SceneError> {
        let settings = &spec.settings;
        let schedule = schedule::from_notation(&spec.notation)?;
        let timing = Timing::new(&schedule, settings)?;
        let dims = BodyDims::from_spec(settings.body.as_ref())?;
        if let Some(juggler) = settings
            .placements
            .iter()
            .position(|p| !(p.x.is_finite() && p.z.is_finite() && p.facing_deg.is_finite()))
        {
            return Err(SceneError::Placement { juggler });
        }
        let layout = Layout::from_specs(schedule.jugglers, &settings.placements);
        let motion = Motion::new(&schedule, timing, &layout, &settings.hand_positions);
        let colors = motion
            .state_at(0.0)
            .props
            .iter()
            .enumerate()
            .map(|(i, p)| prop_color(&settings.colors, settings.color_by_orbit, i, p.orbit))
            .collect();
        Ok(Scene {
            spec: spec.clone(),
            schedule,
            timing,
            layout,
            motion,
            dims,
            colors,
        })
    }

    /// The whole scene at time `t` seconds (any real number; the pattern loops).
    pub fn pose_at(&self, t: f64) -> Pose {
        let state = self.motion.state_at(t);
        let jugglers = state
            .hands
            .iter()
            .zip(&self.layout.jugglers)
            .map(|(hands, placement)| {
                juggler_pose(placement, &self.dims, hands.map(|h| h.position))
            })
            .collect();
        let props = state
            .props
            .iter()
            .enumerate()
            .map(|(i, p)| self.prop_pose(i, p, state.time))
            .collect();
        Pose {
            time: state.time,
            jugglers,
            props,
        }
    }

    fn prop_pose(&self, index: usize, state: &PropState, t: f64) -> PropPose {
        let kind = self.spec.settings.prop;
        let phase = match (state.flight, state.held_by) {
            (Some(flight), _) => PropPhase::Flying {
                flight,
                progress: flight.progress(t) as f32,
            },
            (None, Some(by)) => PropPhase::Held {
                by,
                progress: state.dwell_progress as f32,
            },
            // Neither held nor flying cannot happen for a valid motion; treat as in the hand.
            (None, None) => PropPhase::Held {
                by: crate::types::HandRef::new(0, crate::types::Hand::Left),
                progress: 0.0,
            },
        };
        let axis = prop_axis(kind, phase, &self.layout.jugglers);
        // Grip offset: full in the hand, fading out in flight (the flight path is the centre's).
        let grip = match phase {
            PropPhase::Held { .. } => 1.0,
            PropPhase::Flying { progress, .. } => (1.0 - 4.0 * progress * (1.0 - progress)).powi(3),
        };
        let offset = match kind {
            PropKind::Ball => Vec3::ZERO,
            PropKind::Club => axis * CLUB_GRIP_TO_PIVOT,
            PropKind::Ring => Vec3::Y * RING_GRIP_TO_CENTRE,
        };
        PropPose {
            kind,
            position: state.position + offset * grip,
            axis,
            held_by: state.held_by,
            orbit: state.orbit,
            color: self
                .colors
                .get(index)
                .copied()
                .unwrap_or(crate::body::props::PALETTE[0]),
            size: prop_size(kind),
        }
    }

    /// Seconds after which the whole scene repeats exactly.
    pub fn loop_duration(&self) -> f64 {
        self.motion.loop_duration()
    }

    /// The validated throw schedule.
    pub fn schedule(&self) -> &Schedule {
        &self.schedule
    }

    /// Beats per second, dwell and gravity in use.
    pub fn timing(&self) -> Timing {
        self.timing
    }

    /// Where the jugglers stand.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The spec this scene was built from.
    pub fn spec(&self) -> &PatternSpec {
        &self.spec
    }

    /// The body proportions every juggler of this scene has.
    pub fn dims(&self) -> &BodyDims {
        &self.dims
    }

    /// The underlying motion model (hands and props without bodies).
    pub fn motion(&self) -> &Motion {
        &self.motion
    }
}
