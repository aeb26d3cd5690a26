//! Validation of an expanded pattern and construction of its [`Schedule`].
//!
//! Rules, in Juggling Lab's order (NOTATION.md §7): some beats exist; the average rule; every
//! landing finds a free catch slot (one per element the receiving hand throws on that beat,
//! 0s included); then holds stay in their hand and 0s carry no modifier but `H`.

use super::error::Invalid;
use super::state;
use super::{Orbit, Schedule, ThrowEvent, ThrowKind};
use crate::notation::{Expansion, ModifierKind, Pattern, Ratio, Slot};
use crate::types::{Hand, HandRef};

/// Validates a parsed pattern and builds its schedule.
pub fn build(pattern: &Pattern) -> Result<Schedule, Invalid> {
    let e = &pattern.expanded;
    if e.period == 0 {
        return Err(Invalid::NoBeats);
    }
    let sum: u64 = e.slots.iter().map(|s| u64::from(s.value)).sum();
    if !sum.is_multiple_of(u64::from(e.period)) && e.prechac {
        let beats = |n: u64| Ratio::new(n, u64::from(e.subdivision.max(1))).unwrap_or(Ratio::ZERO);
        return Err(Invalid::AverageOf {
            sum: beats(sum),
            period: beats(u64::from(e.period)),
        });
    }
    if !sum.is_multiple_of(u64::from(e.period)) {
        // A mirrored period (`531` played as `531*`, or a written `*`) is its first half
        // twice over: the message counts what was written (`532`: 10 over 3 beats).
        let halves: u64 = if e.mirrored && sum.is_multiple_of(2) && e.period.is_multiple_of(2) {
            2
        } else {
            1
        };
        return Err(Invalid::Average {
            sum: sum / halves,
            period: e.period / halves as u32,
        });
    }
    let props = usize::try_from(sum / u64::from(e.period)).unwrap_or(usize::MAX);
    let classes = Classes::new(e);
    let mut arrivals = land(e, &classes)?;
    check_modifiers(pattern)?;

    // Throw events: the non-zero slots, in slot order.
    let mut throw_of_slot = vec![usize::MAX; e.slots.len()];
    let mut throws = Vec::with_capacity(e.slots.len());
    for (k, s) in e.slots.iter().enumerate().filter(|(_, s)| s.value > 0) {
        throw_of_slot[k] = throws.len();
        throws.push(ThrowEvent {
            beat: s.beat,
            from: HandRef::new(s.juggler, s.hand),
            to: HandRef::new(s.to_juggler, s.to_hand),
            value: s.value,
            next: usize::MAX,
            kind: kind(s, e, &classes),
            modifier: s
                .modifier
                .map(|m| pattern.slice(m.span).to_string())
                .unwrap_or_default(),
            span: (s.span.start, s.span.end),
            spins: s.spins.map(u32::from),
        });
    }
    // Each class's arriving props take its non-zero slots in arrival order: the order of the
    // slots, of the period's shortest repeat where the period repeats itself, so that a pattern
    // written twice over (`([2x2],[4x2])([2x2],[4x2])`) keeps the props together as written
    // once (in slot order, the second copy's hand threw the prop it had just caught where the
    // first threw the one it had held, holding three props at once instead of two).
    // (A mirrored period whose repeat is itself mirrored, `[32][32][32]` as `[32]`: each slot of
    // the repeat's first half, then the slot mirroring it, as `land` takes them.)
    let repeat = repeat_beats(pattern);
    let half = repeat / 2;
    let mirrored = e.mirrored && repeat.is_multiple_of(2) && (e.period / 2) % repeat == half;
    if repeat < e.period && (!e.mirrored || mirrored) {
        let place = |k: usize| {
            let beat = e.slots[k].beat;
            let slot = k - e.slots.partition_point(|s| s.beat < beat);
            let beat = beat % repeat;
            if mirrored && beat >= half {
                (beat - half, slot, 1)
            } else {
                (beat, slot, 0)
            }
        };
        arrivals.sort_by_cached_key(|&k| place(k));
    }
    let mut taken = vec![0u32; classes.len.len()];
    for from in arrivals.into_iter().filter(|&k| e.slots[k].value > 0) {
        let class = classes.target(&e.slots[from]);
        let nth = taken[class] as usize;
        taken[class] += 1;
        if let Some(to) = classes
            .slots(class)
            .filter(|&k| e.slots[k].value > 0)
            .nth(nth)
        {
            throws[throw_of_slot[from]].next = throw_of_slot[to];
        }
    }
    let orbits = orbits(&throws, e.period);
    let state = state::landings(e, &throws);
    let ground_state = state::is_ground(e, &state, props);
    Ok(Schedule {
        jugglers: e.jugglers,
        period: e.period,
        pattern_period: e.written_period,
        props,
        sync: e.slots.iter().any(|s| s.sync),
        max_throw: e.slots.iter().map(|s| s.value).max().unwrap_or(0),
        ground_state,
        mirrored: e.mirrored,
        orbits,
        state,
        throws,
        subdivision: e.subdivision,
        delays: if e.prechac {
            e.delays.clone()
        } else {
            Vec::new()
        },
    })
}

/// The fewest beats after which the period's slots repeat themselves (the same throws from
/// the same hands), dividing the period; the period where they do not.
fn repeat_beats(pattern: &Pattern) -> u32 {
    let e = &pattern.expanded;
    let period = e.period;
    if period == 0 || e.slots.is_empty() {
        return period;
    }
    // Where each beat's slots begin (the slots are in beat order), and the slots of a beat.
    let mut starts = Vec::with_capacity(period as usize + 1);
    for beat in 0..=period {
        starts.push(e.slots.partition_point(|s| s.beat < beat));
    }
    let at = |beat: u32| &e.slots[starts[beat as usize]..starts[beat as usize + 1]];
    let modifier = |s: &Slot| s.modifier.map(|m| pattern.slice(m.span));
    let same = |a: &Slot, b: &Slot| {
        (
            a.juggler,
            a.hand,
            a.index,
            a.value,
            a.to_juggler,
            a.to_hand,
            a.spins,
            a.sync,
        ) == (
            b.juggler,
            b.hand,
            b.index,
            b.value,
            b.to_juggler,
            b.to_hand,
            b.spins,
            b.sync,
        ) && modifier(a) == modifier(b)
    };
    (1..period)
        .filter(|d| period.is_multiple_of(*d))
        .find(|&d| {
            (0..period).all(|b| {
                let (x, y) = (at(b), at((b + d) % period));
                x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
            })
        })
        .unwrap_or(period)
}

/// Catch slots grouped by (juggler, hand, beat): slots of one class are contiguous.
pub(super) struct Classes {
    period: u32,
    /// First slot index of each class and how many slots it has.
    start: Vec<u32>,
    len: Vec<u32>,
    /// Non-zero slots of each class.
    nonzero: Vec<u32>,
}

impl Classes {
    fn new(e: &Expansion) -> Self {
        let n = e.jugglers * 2 * e.period as usize;
        let mut c = Classes {
            period: e.period,
            start: vec![0; n],
            len: vec![0; n],
            nonzero: vec![0; n],
        };
        for (k, s) in e.slots.iter().enumerate() {
            let class = c.of(s.juggler, s.hand, s.beat);
            if c.len[class] == 0 {
                c.start[class] = k as u32;
            }
            c.len[class] += 1;
            if s.value > 0 {
                c.nonzero[class] += 1;
            }
        }
        c
    }

    pub(super) fn of(&self, juggler: usize, hand: Hand, beat: u32) -> usize {
        HandRef::new(juggler, hand).slot() * self.period as usize + beat as usize
    }

    /// The class a slot's prop lands in.
    fn target(&self, s: &Slot) -> usize {
        let beat = (u64::from(s.beat) + u64::from(s.value)) % u64::from(self.period);
        self.of(s.to_juggler, s.to_hand, beat as u32)
    }

    fn slots(&self, class: usize) -> std::ops::Range<usize> {
        let start = self.start[class] as usize;
        start..start + self.len[class] as usize
    }

    /// Non-zero throws made by a hand on a beat.
    pub(super) fn nonzero(&self, juggler: usize, hand: Hand, beat: u32) -> u32 {
        self.nonzero[self.of(juggler, hand, beat % self.period)]
    }
}

/// Assigns every landing a catch slot, in Juggling Lab's order: "master" throws by beat,
/// juggler, right before left, multiplex position, each with its mirror image when the
/// period's second half mirrors the first. Returns the slots in the order they were caught.
fn land(e: &Expansion, classes: &Classes) -> Result<Vec<usize>, Invalid> {
    let mut arrivals = Vec::with_capacity(e.slots.len());
    let mut filled = vec![0u32; classes.len.len()];
    let half = e.period / 2;
    let masters = if e.mirrored {
        e.slots.partition_point(|s| s.beat < half)
    } else {
        e.slots.len()
    };
    for m in 0..masters {
        let s = &e.slots[m];
        let mirror = if e.mirrored {
            mirror_of(e, classes, s)
        } else {
            None
        };
        let targets = [Some(m), mirror];
        let full = targets.iter().flatten().any(|&k| {
            let t = classes.target(&e.slots[k]);
            filled[t] >= classes.len[t]
        });
        if full && e.prechac {
            let lands = u64::from(s.beat) + u64::from(s.value);
            return Err(Invalid::CollisionAt {
                juggler: s.to_juggler,
                hand: s.to_hand,
                time: Ratio::new(lands, u64::from(e.subdivision)).unwrap_or(Ratio::ZERO),
                span: s.span,
            });
        }
        if full {
            return Err(Invalid::Collision {
                juggler: s.to_juggler,
                hand: s.to_hand,
                beat: u64::from(s.beat) + u64::from(s.value) + 1,
                span: s.span,
            });
        }
        for k in targets.into_iter().flatten() {
            filled[classes.target(&e.slots[k])] += 1;
            arrivals.push(k);
        }
    }
    Ok(arrivals)
}

/// The slot in the second half of a mirrored period that copies `s` with hands swapped.
fn mirror_of(e: &Expansion, classes: &Classes, s: &Slot) -> Option<usize> {
    let class = classes.of(s.juggler, s.hand.other(), s.beat + e.period / 2);
    classes.slots(class).find(|&k| e.slots[k].index == s.index)
}

/// Holds must stay in the hand; a `0` takes no modifier but `H`, and no spin.
fn check_modifiers(pattern: &Pattern) -> Result<(), Invalid> {
    for s in &pattern.expanded.slots {
        if let (0, Some(spins)) = (s.value, s.spins) {
            return Err(Invalid::SpinOnZero {
                spins: u32::from(spins),
                beat: s.beat + 1,
                span: s.span,
            });
        }
        let Some(m) = s.modifier else { continue };
        if s.value == 0 {
            if m.kind != ModifierKind::Hold {
                return Err(Invalid::ModifierOnZero {
                    modifier: pattern.slice(m.span).to_string(),
                    beat: s.beat + 1,
                    span: s.span,
                });
            }
        } else if m.kind == ModifierKind::Hold {
            if s.to_juggler != s.juggler {
                return Err(Invalid::JugglerChangedDuringCarry {
                    juggler: s.juggler,
                    hand: s.hand,
                    beat: s.beat,
                    span: s.span,
                });
            }
            if s.to_hand != s.hand {
                return Err(Invalid::HandChangedDuringCarry {
                    juggler: s.juggler,
                    hand: s.hand,
                    beat: s.beat,
                    span: s.span,
                });
            }
        }
    }
    Ok(())
}

/// How a non-zero slot leaves the hand (NOTATION.md §1 and §5).
fn kind(s: &Slot, e: &Expansion, classes: &Classes) -> ThrowKind {
    match s.modifier.map(|m| m.kind) {
        Some(ModifierKind::Bounce {
            bounces,
            forced,
            hyper,
        }) => ThrowKind::Bounce {
            bounces,
            forced,
            hyper,
        },
        Some(ModifierKind::Forced) => ThrowKind::Bounce {
            bounces: 1,
            forced: true,
            hyper: false,
        },
        Some(ModifierKind::Hold) => ThrowKind::Hold,
        Some(ModifierKind::Toss | ModifierKind::Other) => ThrowKind::Toss,
        None => {
            // In the juggler's own beats (fine beats of Prechac notation divided out).
            let beat = e.subdivision.max(1);
            let same_hand = s.to_juggler == s.juggler && s.to_hand == s.hand;
            let next_beat = (s.beat + beat) % e.period;
            let busy_next_beat = classes.nonzero(s.juggler, s.hand, next_beat) > 0;
            if same_hand && (s.value <= beat || (s.value == 2 * beat && !busy_next_beat)) {
                ThrowKind::Hold
            } else {
                ThrowKind::Toss
            }
        }
    }
}

/// The cycles of the `next` permutation, each starting at its lowest throw index.
fn orbits(throws: &[ThrowEvent], period: u32) -> Vec<Orbit> {
    let mut seen = vec![false; throws.len()];
    let mut orbits = Vec::new();
    for first in 0..throws.len() {
        if seen[first] {
            continue;
        }
        let mut cycle = Vec::new();
        let mut sum: u64 = 0;
        let mut k = first;
        while !seen[k] {
            seen[k] = true;
            cycle.push(k);
            sum += u64::from(throws[k].value);
            k = throws[k].next;
        }
        orbits.push(Orbit {
            throws: cycle,
            props: (sum / u64::from(period)) as usize,
        });
    }
    orbits
}
