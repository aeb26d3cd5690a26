//! Phase 3, linking: every throw of the loop with the catch that ends its flight, every catch
//! with the throw the same prop makes next (one hand must do both), and props caught to be
//! thrown together placed side by side in the hand.

use std::collections::HashMap;

use glam::DVec3;

use super::error::{EventError, EventErrorKind};
use super::perm::Cycles;
use super::raw::Transition;
use super::symmetry::LoopEvent;
use super::TIME_EPS;
use crate::motion::lanes::spread;
use crate::motion::{CatchKind, Toss, TossKind};

/// The flights of one loop and how they follow each other.
pub(super) struct Links {
    /// Every throw of the loop with its catch (`path` not set yet: prop paths are built next).
    pub(super) tosses: Vec<Toss>,
    /// Per toss, the loop-0 label of the path it throws.
    pub(super) labels: Vec<usize>,
    /// Per toss, the toss its prop makes next and how many loops later.
    pub(super) next: Vec<(usize, i64)>,
    /// Per loop event, the tosses it catches.
    pub(super) caught_at: Vec<Vec<usize>>,
    /// The toss of (loop event, label).
    pub(super) toss_at: HashMap<(usize, usize), usize>,
}

/// Per loop-0 label, the loop events that throw (or catch) it, in time order (the events are
/// sorted), so the first one after a time is a binary search.
struct ByLabel {
    events: Vec<Vec<usize>>,
}

impl ByLabel {
    fn new(events: &[LoopEvent], paths: usize, of: impl Fn(&Transition) -> Option<usize>) -> Self {
        let mut by_label = vec![Vec::new(); paths];
        for (i, e) in events.iter().enumerate() {
            for t in &e.transitions {
                if let Some(label) = of(t) {
                    by_label[label].push(i);
                }
            }
        }
        ByLabel { events: by_label }
    }
}

/// The loop's timing and its path permutation, to follow a physical path across loops.
struct Follow<'a> {
    events: &'a [LoopEvent],
    delay: f64,
    sigma: Cycles,
}

impl Follow<'_> {
    /// The loop-0 label of physical path `p` in loop `k`: sigma^-k(p).
    fn label_in(&self, k: i64, p: usize) -> usize {
        self.sigma.power(p, -k)
    }

    /// The first event (index, loop) after `after` seconds carrying physical path `p` in
    /// `table`.
    fn next(&self, table: &ByLabel, p: usize, after: f64) -> Option<(usize, i64)> {
        let k0 = (after / self.delay).floor() as i64;
        let len = self.sigma.length(p) as i64;
        for k in k0..k0 + len + 1 {
            let list = &table.events[self.label_in(k, p)];
            let shift = k as f64 * self.delay;
            let first = list.partition_point(|&i| self.events[i].time + shift <= after + TIME_EPS);
            if let Some(&i) = list.get(first) {
                return Some((i, k));
            }
        }
        None
    }
}

/// Links the throws and catches of one loop of `events` (`delay` seconds; `sigma` renames
/// the paths from one loop to the next).
pub(super) fn link(events: &[LoopEvent], delay: f64, sigma: &[usize]) -> Result<Links, EventError> {
    let paths = sigma.len();
    let follow = Follow {
        events,
        delay,
        sigma: Cycles::of(sigma),
    };
    let throws_of = ByLabel::new(events, paths, |t| match *t {
        Transition::Throw { path, .. } => Some(path),
        _ => None,
    });
    let catches_of = ByLabel::new(events, paths, |t| match *t {
        Transition::Catch { path, .. } => Some(path),
        _ => None,
    });

    // Tosses: every throw of the loop, with its catch.
    let mut tosses: Vec<Toss> = Vec::new();
    let mut toss_at: HashMap<(usize, usize), usize> = HashMap::new();
    let mut catch_event: Vec<usize> = Vec::new();
    let mut labels: Vec<usize> = Vec::new();
    let mut caught_at: Vec<Vec<usize>> = vec![Vec::new(); events.len()];
    let mut catch_rank: Vec<usize> = Vec::new();
    let mut throw_event: Vec<usize> = Vec::new();
    for (i, e) in events.iter().enumerate() {
        let throws: Vec<(usize, TossKind, [Option<f64>; 3])> = e
            .transitions
            .iter()
            .filter_map(|t| match *t {
                Transition::Throw {
                    path,
                    kind,
                    gravity,
                    bounce_energy,
                    bounce_plane,
                } => Some((path, kind, [gravity, bounce_energy, bounce_plane])),
                _ => None,
            })
            .collect();
        for (k, &(path, kind, [gravity, bounce_energy, bounce_plane])) in throws.iter().enumerate()
        {
            let (c, loops) = follow.next(&catches_of, path, e.time).ok_or_else(|| {
                EventError::new(
                    e.at,
                    EventErrorKind::NeverCaught {
                        path: path + 1,
                        by: e.hand(),
                        time: e.time,
                    },
                )
            })?;
            let caught = follow.label_in(loops, path);
            let (rank, catch_kind) = events[c]
                .transitions
                .iter()
                .filter(|t| matches!(t, Transition::Catch { .. }))
                .enumerate()
                .find_map(|(rank, t)| match *t {
                    Transition::Catch { path: q, kind } if q == caught => Some((rank, kind)),
                    _ => None,
                })
                .unwrap_or((0, CatchKind::Catch));
            catch_rank.push(rank);
            throw_event.push(i);
            toss_at.insert((i, path), tosses.len());
            caught_at[c].push(tosses.len());
            catch_event.push(c);
            labels.push(path);
            tosses.push(Toss {
                from: e.hand(),
                to: events[c].hand(),
                release: e.time,
                catch: events[c].time + loops as f64 * delay,
                release_offset: spread(k, throws.len()),
                catch_offset: DVec3::ZERO,
                kind,
                gravity,
                bounce_energy,
                bounce_plane,
                catch_kind,
                value: None,
                spins: None,
                path: 0,
                throw: None,
            });
        }
    }

    // Each catch with the throw its prop makes next, by the hand that caught it.
    let mut next: Vec<(usize, i64)> = Vec::with_capacity(tosses.len());
    for (i, t) in tosses.iter().enumerate() {
        let path = labels[i];
        let caught = &events[catch_event[i]];
        let (e, loops) = follow.next(&throws_of, path, t.catch).ok_or_else(|| {
            EventError::new(
                caught.at,
                EventErrorKind::NeverThrownAgain {
                    path: path + 1,
                    by: caught.hand(),
                    time: t.catch,
                },
            )
        })?;
        let label = follow.label_in(loops, path);
        let j = *toss_at
            .get(&(e, label))
            .ok_or(EventError::new(events[e].at, EventErrorKind::NotCycles))?;
        if events[e].slot != caught.slot {
            return Err(EventError::new(
                caught.at,
                EventErrorKind::ThrownByAnotherHand {
                    path: path + 1,
                    caught_by: caught.hand(),
                    time: t.catch,
                    thrown_by: events[e].hand(),
                },
            ));
        }
        next.push((j, loops));
    }
    bundle_catches(&mut tosses, &next, &throw_event, &catch_rank, events, delay);
    Ok(Links {
        tosses,
        labels,
        next,
        caught_at,
        toss_at,
    })
}

/// Props caught to be thrown together are spread beside each other in the hand as
/// juggler's siteswap motion spreads them: a catch's place is its rank among the props
/// next thrown at the same event (earliest caught first, then as listed in the event),
/// of as many places as that event throws them.
fn bundle_catches(
    tosses: &mut [Toss],
    next: &[(usize, i64)],
    throw_event: &[usize],
    catch_rank: &[usize],
    events: &[LoopEvent],
    delay: f64,
) {
    let mut gathered: HashMap<usize, Vec<(i64, usize, usize)>> = HashMap::new();
    for (i, &(j, loops)) in next.iter().enumerate() {
        let ahead = tosses[j].release + loops as f64 * delay - tosses[i].catch;
        gathered.entry(throw_event[j]).or_default().push((
            (-ahead * 1e6).round() as i64,
            catch_rank[i],
            i,
        ));
    }
    // Catches more than half the shortest time between throws apart are not one bundle
    // (a prop caught a beat or more earlier and held meanwhile has its own place).
    let mut throw_times: Vec<f64> = throw_event.iter().map(|&e| events[e].time).collect();
    throw_times.sort_by(f64::total_cmp);
    let shortest = throw_times
        .windows(2)
        .map(|w| w[1] - w[0])
        .chain(
            throw_times
                .first()
                .zip(throw_times.last())
                .map(|(a, b)| a + delay - b),
        )
        .filter(|&d| d > TIME_EPS)
        .fold(delay, f64::min);
    let apart = (shortest * 0.5 * 1e6).round() as i64;
    for group in gathered.values_mut() {
        group.sort_unstable();
        let mut start = 0;
        for end in 1..=group.len() {
            if end < group.len() && group[end].0 - group[end - 1].0 <= apart {
                continue;
            }
            let bundle = &group[start..end];
            for (k, &(_, _, i)) in bundle.iter().enumerate() {
                tosses[i].catch_offset = spread(k, bundle.len());
            }
            start = end;
        }
    }
}
