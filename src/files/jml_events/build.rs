//! Phase 4, building: the linked flights as the motion's choreography: each prop's cycle of
//! flights and holds (`PropPath`), paths that are only held, lanes for props held together,
//! every hand's events and every juggler's places.

use glam::DVec3;

use super::error::{EventError, EventErrorKind};
use super::link::Links;
use super::raw::{RawPattern, Transition};
use super::symmetry::LoopEvent;
use super::{world_placement, POSITION_HEIGHT, TIME_EPS};
use crate::layout::Placement;
use crate::motion::lanes::spread_held_props;
use crate::motion::{Choreography, HandEvent, JugglerPath, PathSegment, PropPath};
use crate::spec::EventPattern;
use crate::types::HandRef;

/// The choreography of one loop of linked events.
pub(super) fn build(
    raw: RawPattern,
    events: &[LoopEvent],
    links: Links,
) -> Result<EventPattern, EventError> {
    let Links {
        mut tosses,
        labels,
        next,
        caught_at,
        toss_at,
    } = links;
    let (delay, paths) = (raw.delay, raw.paths);
    let (mut prop_paths, path_of_prop) = prop_paths(&raw, events, &mut tosses, &labels, &next)?;
    // Props held together in one hand keep side-by-side lanes from catch to throw, as
    // juggler's siteswap motion holds them (so its own JML reads back the same).
    spread_held_props(&mut prop_paths, &mut tosses, delay);

    // Hand events, per hand slot, merging simultaneous ones.
    let mut hands: Vec<Vec<HandEvent>> = vec![Vec::new(); raw.jugglers * 2];
    for (i, e) in events.iter().enumerate() {
        let throws: Vec<usize> = e
            .transitions
            .iter()
            .filter_map(|t| match *t {
                Transition::Throw { path, .. } => toss_at.get(&(i, path)).copied(),
                _ => None,
            })
            .collect();
        let list = &mut hands[e.slot];
        match list.last_mut() {
            Some(last) if (e.time - last.time).abs() < TIME_EPS => {
                last.throws.extend(throws);
                last.catches.extend(caught_at[i].iter().copied());
            }
            _ => list.push(HandEvent {
                time: e.time,
                position: e.position,
                throws,
                catches: caught_at[i].clone(),
            }),
        }
    }

    Ok(EventPattern {
        title: raw.title.clone(),
        jugglers: raw.jugglers,
        paths,
        throws_per_loop: busiest(events, raw.jugglers),
        choreography: Choreography {
            hand_period: delay,
            jugglers: juggler_paths(&raw),
            hands,
            tosses,
            paths: prop_paths,
            lifts: Vec::new(),
            hands_carry: Vec::new(),
            lane_copies: 1,
        },
        path_of_prop,
        path_props: raw.path_props,
    })
}

/// Every prop's path: the cycles of flights and holds the links make (a prop path of `n`
/// props runs `n` loops), then the paths that are only ever held. With them, per prop of the
/// motion, the JML path it is at time 0.
fn prop_paths(
    raw: &RawPattern,
    events: &[LoopEvent],
    tosses: &mut [crate::motion::Toss],
    labels: &[usize],
    next: &[(usize, i64)],
) -> Result<(Vec<PropPath>, Vec<usize>), EventError> {
    let (delay, paths) = (raw.delay, raw.paths);
    let mut prop_paths: Vec<PropPath> = Vec::new();
    let mut path_of_prop: Vec<usize> = Vec::new();
    // Props the cycles move (counted, not listed beyond the paths: a hostile file's cycle
    // may claim far more props than it has paths).
    let mut moved = 0usize;
    let mut thrown = vec![false; paths];
    let mut visited = vec![false; tosses.len()];
    for start in 0..tosses.len() {
        if visited[start] {
            continue;
        }
        let mut segments = Vec::new();
        let (mut i, mut offset) = (start, 0.0);
        let mut guard = 0;
        loop {
            visited[i] = true;
            let t = tosses[i];
            let (j, loops) = next[i];
            let next_offset = offset + loops as f64 * delay;
            segments.push(PathSegment::Air {
                start: t.release + offset,
                end: t.catch + offset,
                toss: i,
            });
            segments.push(PathSegment::Held {
                start: t.catch + offset,
                end: tosses[j].release + next_offset,
                hand: t.to.slot(),
                offset0: t.catch_offset,
                offset1: tosses[j].release_offset,
            });
            offset = next_offset;
            i = j;
            guard += 1;
            if i == start || guard > tosses.len() {
                break;
            }
        }
        if i != start {
            return Err(EventError::new(raw.at, EventErrorKind::NotCycles));
        }
        let props = (offset / delay).round().max(1.0) as usize;
        let index = prop_paths.len();
        for s in &segments {
            if let PathSegment::Air { toss, .. } = *s {
                tosses[toss].path = index;
            }
        }
        // Prop k of this path is the label sigma^k of the first toss's label.
        let mut p = labels[start];
        for _ in 0..props.min(paths + 1) {
            if path_of_prop.len() <= paths {
                path_of_prop.push(p);
            }
            thrown[p] = true;
            p = raw.sigma[p];
        }
        moved = moved.saturating_add(props);
        prop_paths.push(PropPath {
            segments,
            cycle: offset,
            props,
            orbit: index,
        });
    }
    // Paths that are never thrown: held by the hand that first holds or catches them.
    let mut first_holder: Vec<Option<usize>> = vec![None; paths];
    for (i, e) in events.iter().enumerate() {
        for t in &e.transitions {
            if let Transition::Holding { path } | Transition::Catch { path, .. } = *t {
                first_holder[path].get_or_insert(i);
            }
        }
    }
    for p in 0..paths {
        if thrown[p] {
            continue;
        }
        let Some(holder) = first_holder[p] else {
            return Err(EventError::new(
                raw.setup_at,
                EventErrorKind::PathWithoutEvents { path: p + 1 },
            ));
        };
        let index = prop_paths.len();
        prop_paths.push(PropPath {
            segments: vec![PathSegment::Held {
                start: 0.0,
                end: delay,
                hand: events[holder].slot,
                offset0: DVec3::ZERO,
                offset1: DVec3::ZERO,
            }],
            cycle: delay,
            props: 1,
            orbit: index,
        });
        path_of_prop.push(p);
        moved = moved.saturating_add(1);
    }
    if moved != paths {
        return Err(EventError::new(
            raw.setup_at,
            EventErrorKind::PropsMoved { moved, paths },
        ));
    }
    Ok((prop_paths, path_of_prop))
}

/// Every juggler's places: keyframes from its `<position>`s within the loop, else Juggling
/// Lab's default place.
fn juggler_paths(raw: &RawPattern) -> Vec<JugglerPath> {
    let mut keys: Vec<Vec<(f64, Placement)>> = vec![Vec::new(); raw.jugglers];
    for p in &raw.positions {
        keys[p.juggler].push((p.time.rem_euclid(raw.delay), p.placement));
    }
    keys.into_iter()
        .enumerate()
        .map(|(j, mut keys)| {
            keys.sort_by(|a, b| a.0.total_cmp(&b.0));
            keys.dedup_by(|a, b| (a.0 - b.0).abs() < TIME_EPS);
            if keys.is_empty() {
                keys.push((0.0, default_placement(j, raw.jugglers)));
            }
            JugglerPath {
                keys,
                period: raw.delay,
            }
        })
        .collect()
}

/// The most times one juggler throws in a loop (throws at one time count once; at least 1).
fn busiest(events: &[LoopEvent], jugglers: usize) -> u32 {
    // Per juggler: throw times counted, and the last time counted.
    let mut counts: Vec<(u32, Option<f64>)> = vec![(0, None); jugglers];
    for e in events {
        if !e
            .transitions
            .iter()
            .any(|t| matches!(t, Transition::Throw { .. }))
        {
            continue;
        }
        let Some((count, last)) = counts.get_mut(HandRef::from_slot(e.slot).juggler) else {
            continue;
        };
        if last.is_none_or(|l| (e.time - l).abs() >= TIME_EPS) {
            *count += 1;
            *last = Some(e.time);
        }
    }
    counts.iter().map(|c| c.0).max().unwrap_or(0).max(1)
}

/// Juggling Lab's default placements of jugglers without `<position>`s: one at the origin,
/// several on a circle of radius 70 cm (wider when they would stand closer than 130 cm),
/// juggler `i` at angle `360 i / n` facing the centre.
pub(super) fn default_placement(j: usize, jugglers: usize) -> Placement {
    if jugglers <= 1 {
        return world_placement(0.0, 0.0, POSITION_HEIGHT, 0.0);
    }
    let theta = 360.0 / jugglers as f64;
    let mut r = 70.0;
    if r * (0.5 * theta).to_radians().sin() < 65.0 {
        r = 65.0 / (0.5 * theta).to_radians().sin();
    }
    let a = (theta * j as f64).to_radians();
    world_placement(
        r * a.cos(),
        r * a.sin(),
        POSITION_HEIGHT,
        90.0 + theta * j as f64,
    )
}
