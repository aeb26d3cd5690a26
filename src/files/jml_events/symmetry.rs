//! Phase 2, symmetries: the events as written, with their `switch` and `switchdelay` images,
//! moved into one loop `[0, delay)` with their paths renamed by the loop's permutation, in
//! juggler-local metres.

use std::collections::BTreeMap;

use glam::DVec3;

use super::error::{EventError, EventErrorKind};
use super::perm::{compose, inverse, jorder, lcm, Cycles, Perm};
use super::raw::{RawEvent, RawPattern, Transition};
use super::{JUGGLE_PLANE_OFFSET, POSITION_HEIGHT, TIME_EPS};
use crate::types::{Hand, HandRef};

/// Most events of one loop after expanding the symmetries (a guard against hostile files).
const MAX_LOOP_EVENTS: usize = 200_000;
/// Most `switchdelay` entries per loop.
const MAX_ENTRIES: usize = 1000;

/// One event of the loop after expanding the symmetries; paths are loop-0 labels.
#[derive(Clone, Debug)]
pub(super) struct LoopEvent {
    /// Seconds, in `[0, delay)`.
    pub(super) time: f64,
    /// The hand (`HandRef::slot`).
    pub(super) slot: usize,
    /// Juggler-local metres.
    pub(super) position: DVec3,
    pub(super) transitions: Vec<Transition>,
    /// Byte offset of the `<event>` it comes from.
    pub(super) at: usize,
}

impl LoopEvent {
    pub(super) fn hand(&self) -> HandRef {
        HandRef::from_slot(self.slot)
    }
}

/// The events of one loop `[0, delay)`, sorted by time, then hand.
pub(super) fn expand(raw: &RawPattern) -> Result<Vec<LoopEvent>, EventError> {
    let switches = &raw.switches;
    // Entries of the loop: `switchdelay` images come `step` entries of `delay / entries`
    // seconds later.
    let entries = switches
        .iter()
        .filter(|s| s.delayed)
        .fold(1usize, |acc, s| lcm(acc, jorder(&s.jperm)).min(MAX_ENTRIES));
    let step: Vec<usize> = switches
        .iter()
        .map(|s| {
            if s.delayed {
                entries / jorder(&s.jperm).max(1)
            } else {
                0
            }
        })
        .collect();
    let inv_sigma = inverse(&raw.sigma);
    let sigma = Cycles::of(&raw.sigma);
    let mut out = Vec::new();
    for e in &raw.events {
        let images = images(e, raw, entries, &step, &inv_sigma)?;
        for ((j, h, l), p) in images {
            let base = e.t + l as f64 * raw.delay / entries as f64;
            // Loops k with base + k delay in [0, delay).
            let k0 = (-base / raw.delay).floor() as i64;
            for k in [k0 - 1, k0, k0 + 1] {
                let mut time = base + k as f64 * raw.delay;
                if time.abs() < TIME_EPS {
                    time = 0.0;
                }
                if !(0.0..raw.delay - TIME_EPS).contains(&time) {
                    continue;
                }
                // k loops later, path p of this image is sigma^k of it.
                let hand = if h == 0 { Hand::Left } else { Hand::Right };
                let x = if h != e.hand.index() { -e.x } else { e.x };
                out.push(LoopEvent {
                    time,
                    slot: HandRef::new(j, hand).slot(),
                    position: DVec3::new(
                        -x / 100.0,
                        (POSITION_HEIGHT + e.z) / 100.0,
                        (e.y + JUGGLE_PLANE_OFFSET) / 100.0,
                    ),
                    transitions: e
                        .transitions
                        .iter()
                        .map(|t| {
                            let path = match *t {
                                Transition::Throw { path, .. }
                                | Transition::Catch { path, .. }
                                | Transition::Holding { path } => path,
                            };
                            t.with_path(sigma.power(p[path], k))
                        })
                        .collect(),
                    at: e.at,
                });
                if out.len() > MAX_LOOP_EVENTS {
                    return Err(EventError::new(
                        e.at,
                        EventErrorKind::TooManyEvents {
                            limit: MAX_LOOP_EVENTS,
                        },
                    ));
                }
            }
        }
    }
    out.sort_by(|a, b| a.time.total_cmp(&b.time).then(a.slot.cmp(&b.slot)));
    Ok(out)
}

/// Where (juggler, hand index, entry) the symmetries copy event `e`, with the path
/// permutation from the event as written to each copy: the closure of the switches over the
/// event, each copy reached once (time linear in the copies times the switches).
fn images(
    e: &RawEvent,
    raw: &RawPattern,
    entries: usize,
    step: &[usize],
    inv_sigma: &Perm,
) -> Result<BTreeMap<(usize, usize, usize), Perm>, EventError> {
    let inconsistent = || EventError::new(e.at, EventErrorKind::InconsistentSymmetries);
    let start = (e.juggler, e.hand.index(), 0);
    let mut images: BTreeMap<(usize, usize, usize), Perm> = BTreeMap::new();
    images.insert(start, (0..raw.sigma.len()).collect());
    let mut queue = vec![start];
    while let Some((j, h, l)) = queue.pop() {
        let p = images[&(j, h, l)].clone();
        for (s, &d) in raw.switches.iter().zip(step) {
            let (nj, flip) = s.jperm[j];
            let nh = if flip { 1 - h } else { h };
            let mut np = compose(&p, &s.pperm);
            let mut nl = l + d;
            if nl >= entries {
                np = compose(&np, inv_sigma);
                nl -= entries;
            }
            match images.get(&(nj, nh, nl)) {
                Some(existing) if *existing != np => return Err(inconsistent()),
                Some(_) => {}
                None => {
                    images.insert((nj, nh, nl), np);
                    queue.push((nj, nh, nl));
                    if images.len() > 2 * raw.jugglers * entries {
                        return Err(inconsistent());
                    }
                }
            }
        }
    }
    Ok(images)
}
