//! Prop paths of a siteswap plan: the cycle of flights and dwells one prop goes through,
//! shared by all props of an orbit (prop `p` of an orbit runs `p` periods behind prop 0).

use glam::DVec3;

use super::choreography::{PathSegment, PropPath};
use super::plan::Plan;
use crate::schedule::Schedule;

/// The paths of every orbit, ordered by schedule orbit, in seconds (`beat` seconds per beat).
/// `catch_offset[i]` and `throw_offset[i]` are the (juggler-local) spread offsets of plan throw
/// `i`'s prop at its catch and release; `toss_of[i]` its index among the tosses.
pub(crate) fn tracks(
    plan: &Plan,
    schedule: &Schedule,
    catch_offset: &[DVec3],
    throw_offset: &[DVec3],
    toss_of: &[Option<usize>],
    beat: f64,
) -> Vec<PropPath> {
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
        let offsets = Offsets {
            catch: catch_offset,
            throw: throw_offset,
            toss_of,
        };
        out.push(track(plan, &cycle, orbit, &offsets, beat));
    }
    out.sort_by_key(|t| t.orbit);
    out
}

struct Offsets<'a> {
    catch: &'a [DVec3],
    throw: &'a [DVec3],
    toss_of: &'a [Option<usize>],
}

fn track(plan: &Plan, cycle: &[usize], orbit: usize, o: &Offsets, beat: f64) -> PropPath {
    let total: u64 = cycle.iter().map(|&i| plan.throws[i].value as u64).sum();
    let period = plan.period.max(1) as u64;
    let props = (total / period).max(1) as usize;
    let cycle_beats = total.max(1) as f64;
    // Tosses in cycle order with the absolute beat of each on the track's time line.
    let mut beat_at = plan.throws[cycle[0]].beat as f64;
    let mut tosses = Vec::new();
    for &i in cycle {
        if plan.times[i].is_some() {
            tosses.push((i, beat_at));
        }
        beat_at += plan.throws[i].value as f64;
    }
    if tosses.is_empty() {
        // Held forever by one hand.
        let t = &plan.throws[cycle[0]];
        let start = t.beat as f64;
        let seg = PathSegment::Held {
            start: start * beat,
            end: (start + cycle_beats) * beat,
            hand: t.from.slot(),
            offset0: DVec3::ZERO,
            offset1: DVec3::ZERO,
        };
        return PropPath {
            segments: vec![seg],
            cycle: cycle_beats * beat,
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
        let Some(toss) = o.toss_of[i] else { continue };
        let shift = b - plan.throws[i].beat as f64;
        let start = release + shift;
        let caught = catch + shift;
        segments.push(PathSegment::Air {
            start: start * beat,
            end: caught * beat,
            toss,
        });
        let next_release = release_at(k + 1);
        let (j, _) = tosses[(k + 1) % tosses.len()];
        segments.push(PathSegment::Held {
            start: caught * beat,
            end: next_release.max(caught) * beat,
            hand: plan.throws[i].to.slot(),
            offset0: o.catch[i],
            offset1: o.throw[j],
        });
    }
    PropPath {
        segments,
        cycle: cycle_beats * beat,
        props,
        orbit,
    }
}
