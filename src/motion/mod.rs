//! Continuous motion of hands and props: timing, flight parabolas, dwell paths.
//!
//! OWNER: motion helper. The public types below are the contract with `body`/`scene`; add
//! fields if needed, keep these names and meanings. Positions are world coordinates in metres
//! (y up); juggler placement comes from `layout::Layout`.

use glam::Vec3;

use crate::types::HandRef;

/// Timing of the animation in seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Timing {
    /// Beats per second.
    pub bps: f64,
    /// Beats a hand holds a prop before throwing it.
    pub dwell: f64,
    /// m/s².
    pub gravity: f64,
}

/// State of one hand at an instant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HandState {
    pub position: Vec3,
    pub velocity: Vec3,
}

/// A prop in the air.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Flight {
    pub from: HandRef,
    pub to: HandRef,
    /// Siteswap value of the throw.
    pub value: u32,
    /// Absolute times (seconds) of this flight's release and catch.
    pub release: f64,
    pub catch: f64,
}

impl Flight {
    /// 0 at release, 1 at the catch.
    pub fn progress(&self, t: f64) -> f64 {
        ((t - self.release) / (self.catch - self.release)).clamp(0.0, 1.0)
    }
}

/// State of one prop at an instant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PropState {
    pub position: Vec3,
    pub velocity: Vec3,
    /// The hand holding the prop, `None` while it flies.
    pub held_by: Option<HandRef>,
    /// The flight in progress (`Some` exactly when `held_by` is `None`).
    pub flight: Option<Flight>,
    /// Index into `Schedule::orbits` of the orbit this prop travels.
    pub orbit: usize,
}

/// Where everything is at one time.
#[derive(Clone, Debug, PartialEq)]
pub struct MotionState {
    pub time: f64,
    /// Per juggler, `[left, right]` (index with `Hand::index`).
    pub hands: Vec<[HandState; 2]>,
    pub props: Vec<PropState>,
}
