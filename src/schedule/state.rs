//! The state of a pattern (its landing schedule) and whether it is the ground state.

use serde::Serialize;

use super::ThrowEvent;
use crate::notation::Expansion;
use crate::types::Hand;

/// The props one hand will catch on the coming beats, at the start of a period
/// (from throws made before beat 0, as if the pattern had always been running).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Landings {
    pub juggler: usize,
    pub hand: Hand,
    /// `counts[k]` = props landing in this hand on beat `k` (`0 <= k < max_throw`).
    pub counts: Vec<u32>,
}

/// The landing schedule of every hand (per juggler: left, then right).
pub fn landings(e: &Expansion, throws: &[ThrowEvent]) -> Vec<Landings> {
    let max = throws.iter().map(|t| t.value).max().unwrap_or(0) as usize;
    let mut state: Vec<Landings> = (0..e.jugglers)
        .flat_map(|juggler| {
            Hand::BOTH.map(|hand| Landings {
                juggler,
                hand,
                counts: vec![0; max],
            })
        })
        .collect();
    let period = i64::from(e.period);
    for t in throws {
        // Copies of this throw made `m` periods earlier that are still in the air at beat 0.
        let mut land = i64::from(t.beat) + i64::from(t.value) - period;
        let hand = &mut state[t.to.slot()];
        while land >= 0 {
            if let Some(c) = hand.counts.get_mut(land as usize) {
                *c += 1;
            }
            land -= period;
        }
    }
    state
}

/// A pattern is in the ground state when its props land as early as the hands can catch
/// them: every beat's catches (one per throw slot a hand has on that beat, a `0` included:
/// an empty hand could catch there) are all filled until the props run out. That is the
/// state reached from holding every prop, so `450` (state `xx-x`) is excited, as in Juggling
/// Lab and `check`'s analysis.
pub fn is_ground(e: &Expansion, state: &[Landings], props: usize) -> bool {
    let beats = state.first().map_or(0, |l| l.counts.len());
    let mut capacity_per_beat = vec![0u64; e.period as usize];
    for s in &e.slots {
        capacity_per_beat[s.beat as usize] += 1;
    }
    let mut remaining = props as u64;
    for k in 0..beats {
        let landed: u64 = state.iter().map(|l| u64::from(l.counts[k])).sum();
        let capacity = capacity_per_beat[k % e.period as usize];
        let expected = remaining.min(capacity);
        if landed != expected {
            return false;
        }
        remaining -= expected;
    }
    remaining == 0
}
