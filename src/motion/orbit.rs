//! Prop time lines: the cycle of flights and dwells one prop goes through, shared by all
//! props of an orbit (prop `p` of an orbit runs `p` periods behind prop 0).

use glam::DVec3;

use super::plan::{hand_slot, Plan};
use crate::schedule::Schedule;

/// One piece of a prop's cycle; times in beats on the track's time line.
#[derive(Clone, Debug, PartialEq)]
pub enum Segment {
    /// In the air: the flight of throw `throw` (an index into `Plan::throws`).
    Air { start: f64, end: f64, throw: usize },
    /// In hand slot `hand`, offset from the hand's point by `offset0` at `start` moving
    /// linearly to `offset1` at `end`.
    Held {
        start: f64,
        end: f64,
        hand: usize,
        offset0: DVec3,
        offset1: DVec3,
    },
}

impl Segment {
    pub fn start(&self) -> f64 {
        match self {
            Segment::Air { start, .. } | Segment::Held { start, .. } => *start,
        }
    }
}

/// The cycle of one orbit of the plan (a cycle of its `next` permutation).
#[derive(Clone, Debug, PartialEq)]
pub struct Track {
    /// Segments in time order, covering `[segments[0].start, + cycle)`.
    pub segments: Vec<Segment>,
    /// Beats for one prop to come back to where it was.
    pub cycle: f64,
    /// Props travelling this cycle.
    pub props: usize,
    /// Index into `Schedule::orbits`.
    pub orbit: usize,
}

impl Track {
    /// The segment prop `p` is in at `beats`, and the time (beats) on the track's time line.
    pub fn locate(&self, p: usize, period: f64, beats: f64) -> (&Segment, f64) {
        let t0 = self.segments[0].start();
        let tau = t0 + (beats - p as f64 * period - t0).rem_euclid(self.cycle);
        let i = self.segments.partition_point(|s| s.start() <= tau).max(1) - 1;
        (&self.segments[i], tau)
    }
}

/// The tracks of every orbit, ordered by schedule orbit. `catch_offset[i]` and
/// `throw_offset[i]` are the spread offsets of throw `i`'s prop at its catch and release.
pub fn tracks(
    plan: &Plan,
    schedule: &Schedule,
    catch_offset: &[DVec3],
    throw_offset: &[DVec3],
) -> Vec<Track> {
    let n = plan.throws.len();
    // Schedule orbit of every schedule throw.
    let mut orbit_of = vec![0usize; schedule.throws.len()];
    for (o, orbit) in schedule.orbits.iter().enumerate() {
        for &i in &orbit.throws {
            if let Some(slot) = orbit_of.get_mut(i) {
                *slot = o;
            }
        }
    }
    let mut visited = vec![false; n];
    let mut out = Vec::new();
    for start in 0..n {
        if visited[start] {
            continue;
        }
        let mut cycle = Vec::new();
        let mut i = start;
        while !visited[i] {
            visited[i] = true;
            cycle.push(i);
            i = plan.throws[i].next.min(n - 1);
        }
        let orbit = orbit_of.get(plan.original[start]).copied().unwrap_or(0);
        out.push(track(plan, &cycle, orbit, catch_offset, throw_offset));
    }
    out.sort_by_key(|t| t.orbit);
    out
}

fn track(
    plan: &Plan,
    cycle: &[usize],
    orbit: usize,
    catch_offset: &[DVec3],
    throw_offset: &[DVec3],
) -> Track {
    let total: u64 = cycle.iter().map(|&i| plan.throws[i].value as u64).sum();
    let period = plan.period.max(1) as u64;
    let props = (total / period).max(1) as usize;
    let cycle_beats = total.max(1) as f64;
    // Tosses in cycle order with the absolute beat of each on the track's time line.
    let mut beat = plan.throws[cycle[0]].beat as f64;
    let mut tosses = Vec::new();
    for &i in cycle {
        if plan.times[i].is_some() {
            tosses.push((i, beat));
        }
        beat += plan.throws[i].value as f64;
    }
    if tosses.is_empty() {
        // Held forever by one hand.
        let t = &plan.throws[cycle[0]];
        let start = t.beat as f64;
        let seg = Segment::Held {
            start,
            end: start + cycle_beats,
            hand: hand_slot(t.from),
            offset0: DVec3::ZERO,
            offset1: DVec3::ZERO,
        };
        return Track {
            segments: vec![seg],
            cycle: cycle_beats,
            props,
            orbit,
        };
    }
    let release_at = |k: usize| -> f64 {
        let (i, b) = tosses[k % tosses.len()];
        let wrap = (k / tosses.len()) as f64 * cycle_beats;
        let tt = plan.times[i].map_or(0.0, |tt| tt.release - plan.throws[i].beat as f64);
        b + tt + wrap
    };
    let mut segments = Vec::with_capacity(tosses.len() * 2);
    for (k, &(i, b)) in tosses.iter().enumerate() {
        let (release, catch) = match plan.times[i] {
            Some(tt) => (tt.release, tt.catch),
            None => continue,
        };
        let shift = b - plan.throws[i].beat as f64;
        let start = release + shift;
        let caught = catch + shift;
        segments.push(Segment::Air {
            start,
            end: caught,
            throw: i,
        });
        let next_release = release_at(k + 1);
        let (j, _) = tosses[(k + 1) % tosses.len()];
        segments.push(Segment::Held {
            start: caught,
            end: next_release.max(caught),
            hand: hand_slot(plan.throws[i].to),
            offset0: catch_offset[i],
            offset1: throw_offset[j],
        });
    }
    Track {
        segments,
        cycle: cycle_beats,
        props,
        orbit,
    }
}
