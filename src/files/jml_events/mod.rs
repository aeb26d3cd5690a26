//! Juggling Lab patterns defined by explicit events (`<pattern>` with `<setup>`,
//! `<symmetry>`, `<prop>`, `<event>` and `<position>`), read into the motion's event layer
//! (`motion::Choreography`) once, where the file is read (`files::jml`).
//!
//! Juggling Lab's conventions (JML 1.2 and version 3 alike; 1.0 swapped y and z), in
//! centimetres and seconds: an event's `x, y, z` are in the juggler's frame with x toward the
//! juggler's right, y forward (Juggling Lab adds a 30 cm juggling-plane offset), z up from the
//! juggler's position (which is 100 cm above the floor by default); `<position x y z angle>`
//! is the juggler's place in the world (z up, angle in degrees, 0 facing +y). Here that
//! becomes juggler-local metres with x toward the left hand, y up from the floor and z forward.
//!
//! Symmetries: exactly one `delay` symmetry (the loop: after `delay` seconds every event
//! repeats with its paths permuted by `pperm`); `switch` (the same events at the same time for
//! the jugglers and hands `jperm` maps to, `*` = the other hand, x mirrored); `switchdelay`
//! (the same, a fraction of the loop later). They are expanded into the events of one loop.
//!
//! Four phases, each in its file, each linear (or `n log n`) in what it reads: `raw` (the
//! elements as checked values), `symmetry` (one loop of events), `link` (every throw with its
//! catch and the prop's next throw), `build` (prop paths, hands, jugglers). Errors are
//! [`EventError`]s at the element at fault.
//!
//! Props a hand holds together sit side by side in lanes (`motion::lanes::spread_held_props`,
//! as juggler holds siteswap multiplexes), so juggler's own JML reads back as it animates.

mod build;
pub(crate) mod error;
mod link;
mod perm;
mod raw;
mod symmetry;

use glam::Vec3;

pub use error::{EventError, EventErrorKind};
pub(crate) use raw::prop_color;

use super::xml::Element;
use crate::layout::Placement;
use crate::spec::EventPattern;

/// Juggling Lab's gravity, 980 cm/s², in m/s².
pub const GRAVITY: f64 = 9.8;
/// Juggling Lab's offset of the juggling plane in front of the body, cm.
const JUGGLE_PLANE_OFFSET: f64 = 30.0;
/// Juggling Lab's default height of a juggler's position above the floor, cm.
const POSITION_HEIGHT: f64 = 100.0;
/// Largest coordinate accepted, cm (1 km, as `settings::keys::POSITION` allows).
const MAX_CM: f64 = 100_000.0;
/// Events closer than this (seconds) count as simultaneous.
const TIME_EPS: f64 = 1e-7;

/// Reads a `<pattern>` element of events; `version` is the JML version of its file (`1.0`
/// swaps y and z).
pub(crate) fn read_pattern(pattern: &Element, version: &str) -> Result<EventPattern, EventError> {
    let raw = raw::read(pattern, version)?;
    let events = symmetry::expand(&raw)?;
    let links = link::link(&events, raw.delay, &raw.sigma)?;
    build::build(raw, &events, links)
}

/// A Juggling Lab world placement (cm, z up, degrees) as a juggler placement.
fn world_placement(x: f64, y: f64, z: f64, angle_deg: f64) -> Placement {
    Placement {
        position: Vec3::new(
            (-x / 100.0) as f32,
            ((z - POSITION_HEIGHT) / 100.0) as f32,
            (y / 100.0) as f32,
        ),
        facing: angle_deg.to_radians().rem_euclid(std::f64::consts::TAU) as f32,
    }
}

#[cfg(test)]
mod tests;
