//! The timed plan of one period: when every toss is released and caught (in beats), and the
//! events each hand goes through. No positions here; those come from `positions`.
//!
//! Times follow Juggling Lab: beat `b` is the moment of a throw; the prop thrown at `b` with
//! value `v` is caught `dwell` beats before its next throw at `b + v`, but no sooner than 0.3
//! beat after the catching hand's previous toss and no later than 0.02 beat before its next
//! throw. A toss that would fly less than 0.3 beat (a 1) is released early instead.

use crate::schedule::{Schedule, ThrowEvent, ThrowKind};
use crate::types::{Hand, HandRef};

/// Least time between a hand's toss and its next catch, and least flight time, in beats.
pub(crate) const MIN_AIR_BEATS: f64 = 0.3;
/// Least time between a catch and the catching hand's next throw, in beats.
pub(crate) const MIN_CATCH_LEAD: f64 = 0.02;
/// Least time a prop spends in a hand or in the air, in beats (guards degenerate timings).
const EPS: f64 = 0.05;
/// Props caught by one hand for one multiplex throw are caught one after another over this
/// many beats, highest throw first (Juggling Lab's `squeezebeats`; Juggling Lab spreads them
/// after the usual catch time, juggler before it: `squeeze`).
pub(crate) const SQUEEZE_BEATS: f64 = 0.4;
/// Events of one hand closer than this (beats) become one event.
const MERGE_BEATS: f64 = 1e-6;

/// Release and catch of one toss, in beats on the time line where this throw's beat is `beat`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct TossTimes {
    pub(crate) release: f64,
    pub(crate) catch: f64,
}

/// One moment in a hand's cycle: it releases `throws` and/or catches `catches`
/// (indices into `Plan::throws`).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct HandEvent {
    /// Beats, in `[0, period)`.
    pub(crate) time: f64,
    pub(crate) throws: Vec<usize>,
    pub(crate) catches: Vec<usize>,
    /// Which of its juggler's beats this dwell belongs to, numbered as Juggling Lab numbers
    /// `hands=` entries: the beat (a synchronous beat's right hand one more), of the throw
    /// made here, of the beat a caught prop lands on, or of the beat this event stands for.
    /// Custom dwell points cycle over this index.
    pub(crate) dwell_index: usize,
    /// Whether the hand is at its throw point here (it throws, or it stands for a beat of the
    /// hand holding or empty); otherwise at a catch point.
    pub(crate) at_throw: bool,
}

/// Timed plan of one period (possibly several schedule periods, see `unroll`).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Plan {
    pub(crate) period: u32,
    pub(crate) jugglers: usize,
    pub(crate) throws: Vec<ThrowEvent>,
    /// For each throw, the index of the schedule throw it copies.
    pub(crate) original: Vec<usize>,
    /// For each throw, `Some` for a toss (in the air), `None` for a hold.
    pub(crate) times: Vec<Option<TossTimes>>,
    /// Per hand slot, its events sorted by time.
    pub(crate) hand_events: Vec<Vec<HandEvent>>,
    /// Per hand slot, how many distinct beats of the period it tosses on.
    pub(crate) toss_beats: Vec<usize>,
    /// Per throw, `(k, m)`: its prop is the `k`-th of `m` props the catching hand gathers
    /// for one throw beat (`(0, 1)` for a lone catch).
    pub(crate) catch_slot: Vec<(usize, usize)>,
    /// Per throw, `Some((k, n))` when its catching hand gathers props one after another for
    /// one throw beat (`SQUEEZE_BEATS`): its catch is the `k`-th of `n` catches (props thrown
    /// together are caught together); `None` for a prop caught alone or with all the others
    /// at once.
    pub(crate) gathered: Vec<Option<(usize, usize)>>,
    /// Beats per juggler beat (`Schedule::subdivision`: more than 1 for Prechac patterns).
    pub(crate) subdivision: u32,
}

/// `schedule` repeated `copies` times as one period (indices `copy * n + i`).
pub(crate) fn unroll(schedule: &Schedule, copies: u32) -> (Vec<ThrowEvent>, Vec<usize>) {
    let copies = copies.max(1);
    let n = schedule.throws.len();
    let p = schedule.period.max(1);
    let u = p as u64 * copies as u64;
    let mut throws = Vec::with_capacity(n * copies as usize);
    let mut original = Vec::with_capacity(n * copies as usize);
    for c in 0..copies {
        for (i, t) in schedule.throws.iter().enumerate() {
            let beat = t.beat + c * p;
            let next = t.next.min(n.saturating_sub(1));
            let landing = (beat as u64 + t.value as u64) % u;
            let next_beat = schedule.throws.get(next).map_or(0, |x| x.beat) as u64;
            let copy = ((landing + u - next_beat) % u) / p as u64;
            throws.push(ThrowEvent {
                beat,
                next: copy as usize * n + next,
                ..t.clone()
            });
            original.push(i);
        }
    }
    (throws, original)
}

fn is_toss(t: &ThrowEvent) -> bool {
    !matches!(t.kind, ThrowKind::Hold)
}

impl Plan {
    /// The value of throw `i` in its juggler's own beats, to the nearest whole one (a Prechac
    /// `3.5p` counts as 4 for heights, hand places and spins).
    pub(crate) fn juggler_value(&self, i: usize) -> u32 {
        let value = f64::from(self.throws[i].value) / f64::from(self.subdivision.max(1));
        value.round() as u32
    }

    /// Time the throws of `schedule` repeated `copies` times with `dwell` beats of dwell.
    #[cfg(test)]
    pub(crate) fn new(schedule: &Schedule, copies: u32, dwell: f64) -> Plan {
        Plan::with_beat_dwells(schedule, copies, dwell, &[], false)
    }

    /// Like [`Plan::new`] with a dwell per beat (Juggling Lab's hand siteswaps): the prop
    /// thrown at beat `b` is caught `beat_dwells[b % len]` beats before it (empty = `dwell`).
    /// With `every_beat` (custom dwell points, Juggling Lab's `hands=`), a hand also goes to
    /// its points on the beats where it holds or is empty, as Juggling Lab's hands do: an
    /// event at the beat (its throw point) and one `dwell` before it (its catch point).
    pub(crate) fn with_beat_dwells(
        schedule: &Schedule,
        copies: u32,
        dwell: f64,
        beat_dwells: &[f64],
        every_beat: bool,
    ) -> Plan {
        let dwell_before = |beat: f64| -> f64 {
            let n = beat_dwells.len();
            match beat_dwells.get((beat.round().max(0.0) as usize) % n.max(1)) {
                Some(&d) if n > 0 && d.is_finite() && d > 0.0 => d,
                _ => dwell,
            }
        };
        let (throws, original) = unroll(schedule, copies);
        let period = schedule.period.max(1) * copies.max(1);
        let jugglers = schedule.jugglers.max(1).max(
            throws
                .iter()
                .map(|t| t.from.juggler.max(t.to.juggler) + 1)
                .max()
                .unwrap_or(1),
        );
        let hands = jugglers * 2;
        let pf = period as f64;

        // Sorted distinct toss beats of every hand.
        let mut beats: Vec<Vec<u32>> = vec![Vec::new(); hands];
        for t in throws.iter().filter(|t| is_toss(t)) {
            beats[t.from.slot()].push(t.beat);
        }
        for b in &mut beats {
            b.sort_unstable();
            b.dedup();
        }

        // Catch times (relative to each toss's own beat).
        let catch_of = |t: &ThrowEvent| -> f64 {
            let landing = t.beat as f64 + t.value as f64;
            let mut c = landing - dwell_before(landing);
            let own = &beats[t.to.slot()];
            if let Some(prev) = previous_beat(own, landing, pf) {
                c = c.max(prev + MIN_AIR_BEATS);
            }
            c.min(landing - MIN_CATCH_LEAD)
        };
        let mut catches: Vec<f64> = throws.iter().map(catch_of).collect();
        let (catch_slot, gathered) = squeeze(&throws, &mut catches, &beats, pf);

        // Where each prop arrived in the throwing hand (relative to the throw's beat).
        let mut prev = vec![usize::MAX; throws.len()];
        for (i, t) in throws.iter().enumerate() {
            if let Some(p) = prev.get_mut(t.next) {
                *p = i;
            }
        }
        let arrived = |i: usize| -> Option<f64> {
            let mut held = 0.0;
            let mut j = prev[i];
            for _ in 0..throws.len() {
                let tj = throws.get(j)?;
                if is_toss(tj) {
                    let landing = tj.beat as f64 + tj.value as f64;
                    return Some(throws[i].beat as f64 - held - (landing - catches[j]));
                }
                held += tj.value as f64;
                j = prev[j];
            }
            None
        };

        let times: Vec<Option<TossTimes>> = throws
            .iter()
            .enumerate()
            .map(|(i, t)| {
                if !is_toss(t) {
                    return None;
                }
                let catch = catches[i];
                let mut release = (t.beat as f64).min(catch - MIN_AIR_BEATS);
                let start = arrived(i).unwrap_or(catch - 1.0);
                if start + EPS <= catch - EPS {
                    release = release.clamp(start + EPS, catch - EPS);
                } else {
                    release = 0.5 * (start + catch);
                }
                Some(TossTimes { release, catch })
            })
            .collect();

        let active = hand_beats(&throws, hands, period, schedule.sync, every_beat);
        let mut hand_events = hand_events(&throws, &times, &active, hands, pf);
        if every_beat {
            add_beat_events(&mut hand_events, &active, pf, &dwell_before);
        }
        let toss_beats = beats.iter().map(Vec::len).collect();
        Plan {
            period,
            jugglers,
            throws,
            original,
            times,
            hand_events,
            toss_beats,
            catch_slot,
            gathered,
            subdivision: schedule.subdivision.max(1),
        }
    }
}

/// Spread the catches of props landing in one hand for the same throw beat over
/// `SQUEEZE_BEATS` (highest throw first, the last at the usual catch time), never earlier than
/// the hand's previous toss + `MIN_AIR_BEATS`; props thrown together are caught together.
/// Returns each throw's `(k, m)` catch slot and, where the catches are spread, the place of
/// its catch among them (`Plan::gathered`).
#[allow(clippy::type_complexity)]
fn squeeze(
    throws: &[ThrowEvent],
    catches: &mut [f64],
    beats: &[Vec<u32>],
    period: f64,
) -> (Vec<(usize, usize)>, Vec<Option<(usize, usize)>>) {
    let mut slots = vec![(0, 1); throws.len()];
    let mut gathered = vec![None; throws.len()];
    let mut groups: std::collections::BTreeMap<(usize, u64), Vec<usize>> = Default::default();
    for (i, t) in throws.iter().enumerate().filter(|(_, t)| is_toss(t)) {
        let landing = (t.beat as u64 + t.value as u64) % period as u64;
        groups.entry((t.to.slot(), landing)).or_default().push(i);
    }
    for ((hand, _), mut group) in groups {
        let m = group.len();
        if m < 2 {
            continue;
        }
        // Props thrown together (same beat, hand and value) arrive together: one bundle.
        group.sort_by_key(|&i| {
            let t = &throws[i];
            (std::cmp::Reverse(t.value), t.beat, t.from.slot(), i)
        });
        let bundle = |i: usize| {
            let t = &throws[i];
            (t.value, t.beat, t.from.slot())
        };
        let mut bundles = 0;
        let mut index = Vec::with_capacity(m);
        for (k, &i) in group.iter().enumerate() {
            if k > 0 && bundle(i) != bundle(group[k - 1]) {
                bundles += 1;
            }
            index.push(bundles);
        }
        let count = bundles + 1;
        for (k, &i) in group.iter().enumerate() {
            slots[i] = (k, m);
            if count < 2 {
                continue;
            }
            gathered[i] = Some((index[k], count));
            let t = &throws[i];
            let landing = t.beat as f64 + t.value as f64;
            let earliest = previous_beat(&beats[hand], landing, period)
                .map_or(f64::NEG_INFINITY, |b| b + MIN_AIR_BEATS);
            let spread = SQUEEZE_BEATS.min(catches[i] - earliest).max(0.0);
            catches[i] -= spread * (count - 1 - index[k]) as f64 / (count - 1) as f64;
        }
    }
    (slots, gathered)
}

/// The latest beat of `beats` (sorted, in `[0, period)`) strictly before `t`, unwrapped.
fn previous_beat(beats: &[u32], t: f64, period: f64) -> Option<f64> {
    if beats.is_empty() {
        return None;
    }
    let base = (t / period).floor() * period;
    let local = t - base;
    let i = beats.partition_point(|&b| (b as f64) < local);
    Some(if i == 0 {
        base + *beats.last()? as f64 - period
    } else {
        base + beats[i - 1] as f64
    })
}

/// Per hand slot, the beats of the period it acts on as Juggling Lab counts them (sorted): its
/// throws and holds, the beats its catches land on, and, where those keep one parity, every
/// second beat between them (a 0 is a beat of its hand too) when `fill` (custom points, whose
/// cycle the budget counts with every beat of every hand). A hand with none takes its
/// partner's parity in a synchronous pattern and the other one otherwise.
fn hand_beats(
    throws: &[ThrowEvent],
    hands: usize,
    period: u32,
    sync: bool,
    fill: bool,
) -> Vec<Vec<u32>> {
    let p = period.max(1);
    let mut known: Vec<Vec<u32>> = vec![Vec::new(); hands];
    for t in throws {
        known[t.from.slot()].push(t.beat % p);
        let landing = (u64::from(t.beat) + u64::from(t.value)) % u64::from(p);
        known[t.to.slot()].push(landing as u32);
    }
    for k in &mut known {
        k.sort_unstable();
        k.dedup();
    }
    let parity = |k: &[u32]| -> Option<Option<u32>> {
        // Some(None): no beats; Some(Some(q)): all of parity q; None: mixed.
        match k.first() {
            None => Some(None),
            Some(&b) => k.iter().all(|&x| x % 2 == b % 2).then_some(Some(b % 2)),
        }
    };
    if !fill || !p.is_multiple_of(2) {
        return known;
    }
    for j in 0..hands / 2 {
        let (l, r) = (
            HandRef::new(j, Hand::Left).slot(),
            HandRef::new(j, Hand::Right).slot(),
        );
        let (pl, pr) = (parity(&known[l]), parity(&known[r]));
        let other = |q: u32| if sync { q } else { 1 - q };
        let (ql, qr) = match (pl, pr) {
            (Some(Some(a)), Some(Some(b))) => (Some(a), Some(b)),
            (Some(None), Some(Some(b))) => (Some(other(b)), Some(b)),
            (Some(Some(a)), Some(None)) => (Some(a), Some(other(a))),
            (Some(None), Some(None)) => (Some(other(0)), Some(0)),
            (Some(Some(a)), None) => (Some(a), None),
            (None, Some(Some(b))) => (None, Some(b)),
            _ => (None, None),
        };
        for (slot, q) in [(l, ql), (r, qr)] {
            if let Some(q) = q {
                known[slot] = (0..p).filter(|b| b % 2 == q).collect();
            }
        }
    }
    known
}

/// Juggling Lab's `hands=` entry number of hand `slot`'s beat `beat`: the beat, plus one for
/// the right hand of a synchronous beat (both hands act on it).
fn entry_index(active: &[Vec<u32>], slot: usize, beat: u32) -> usize {
    let hand = HandRef::from_slot(slot);
    let sync_right = hand.hand == Hand::Right
        && active
            .get(HandRef::new(hand.juggler, Hand::Left).slot())
            .is_some_and(|l| l.binary_search(&beat).is_ok());
    beat as usize + usize::from(sync_right)
}

/// Events for the beats a hand holds or is empty on (see [`Plan::with_beat_dwells`]): at the
/// beat, unless it throws there, and `dwell` before it, unless a catch lands on it there (or
/// halfway after the hand's previous event when that is less than `MIN_AIR_BEATS` earlier).
fn add_beat_events(
    out: &mut [Vec<HandEvent>],
    active: &[Vec<u32>],
    period: f64,
    dwell_before: &dyn Fn(f64) -> f64,
) {
    for (slot, events) in out.iter_mut().enumerate() {
        let mut thrown: Vec<usize> = events
            .iter()
            .filter(|e| !e.throws.is_empty())
            .map(|e| e.dwell_index)
            .collect();
        let mut caught: Vec<usize> = events
            .iter()
            .filter(|e| e.throws.is_empty() && !e.catches.is_empty())
            .map(|e| e.dwell_index)
            .collect();
        thrown.sort_unstable();
        caught.sort_unstable();
        let mut added = Vec::new();
        for &k in &active[slot] {
            let index = entry_index(active, slot, k);
            if thrown.binary_search(&index).is_err() {
                added.push(HandEvent {
                    time: f64::from(k),
                    throws: Vec::new(),
                    catches: Vec::new(),
                    dwell_index: index,
                    at_throw: true,
                });
            }
        }
        events.extend(added);
        events.sort_by(|a, b| a.time.total_cmp(&b.time));
        let times: Vec<f64> = events.iter().map(|e| e.time).collect();
        let mut added = Vec::new();
        for &k in &active[slot] {
            let index = entry_index(active, slot, k);
            if caught.binary_search(&index).is_ok() {
                continue;
            }
            let beat = f64::from(k);
            // The latest event before the beat (cyclically), as beats before it.
            let i = times.partition_point(|&t| t < beat - MERGE_BEATS);
            let gap = match i.checked_sub(1) {
                Some(i) => beat - times[i],
                None => times.last().map_or(period, |&t| beat + period - t),
            };
            let dwell = dwell_before(beat);
            let before = if dwell <= gap - MIN_AIR_BEATS {
                dwell
            } else {
                0.5 * gap
            };
            if before > 2.0 * MERGE_BEATS {
                added.push(HandEvent {
                    time: (beat - before).rem_euclid(period),
                    throws: Vec::new(),
                    catches: Vec::new(),
                    dwell_index: index,
                    at_throw: false,
                });
            }
        }
        events.extend(added);
        events.sort_by(|a, b| a.time.total_cmp(&b.time));
    }
}

fn hand_events(
    throws: &[ThrowEvent],
    times: &[Option<TossTimes>],
    active: &[Vec<u32>],
    hands: usize,
    period: f64,
) -> Vec<Vec<HandEvent>> {
    // (hand, time, is_catch, throw index)
    let mut raw: Vec<(usize, f64, bool, usize)> = Vec::new();
    for (i, (t, tt)) in throws.iter().zip(times).enumerate() {
        if let Some(tt) = tt {
            raw.push((t.from.slot(), tt.release.rem_euclid(period), false, i));
            raw.push((t.to.slot(), tt.catch.rem_euclid(period), true, i));
        }
    }
    raw.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)).then(a.3.cmp(&b.3)));
    let mut out: Vec<Vec<HandEvent>> = vec![Vec::new(); hands];
    for (hand, time, is_catch, i) in raw {
        let events = &mut out[hand];
        let merge = events.last().is_some_and(|e| time - e.time < MERGE_BEATS);
        if !merge {
            events.push(HandEvent {
                time,
                throws: Vec::new(),
                catches: Vec::new(),
                dwell_index: 0,
                at_throw: !is_catch,
            });
        }
        if let Some(e) = events.last_mut() {
            if is_catch {
                e.catches.push(i);
            } else {
                e.throws.push(i);
                e.at_throw = true;
            }
        }
    }
    // Merge across the period boundary (an event just below `period` and one at 0).
    for events in &mut out {
        if events.len() > 1 {
            let last = events.len() - 1;
            if events[0].time + period - events[last].time < MERGE_BEATS {
                if let Some(e) = events.pop() {
                    events[0].throws.extend(e.throws);
                    events[0].catches.extend(e.catches);
                }
            }
        }
    }
    for (slot, events) in out.iter_mut().enumerate() {
        for e in events.iter_mut() {
            let beat = match (e.throws.first(), e.catches.first()) {
                (Some(&i), _) => throws[i].beat,
                (None, Some(&i)) => {
                    let t = &throws[i];
                    ((u64::from(t.beat) + u64::from(t.value)) % period.max(1.0) as u64) as u32
                }
                (None, None) => 0,
            };
            e.dwell_index = entry_index(active, slot, beat);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::motion::testutil::async_schedule;

    #[test]
    fn cascade_catches_dwell_beats_before_the_throw() {
        let s = async_schedule("3");
        let plan = Plan::new(&s, 1, 1.3);
        assert_eq!(plan.period, 2);
        for (t, tt) in plan.throws.iter().zip(&plan.times) {
            let tt = tt.unwrap();
            assert_eq!(tt.release, t.beat as f64);
            assert!((tt.catch - (t.beat as f64 + 3.0 - 1.3)).abs() < 1e-12);
        }
        // Right hand: throw at 0, then catch (the left's 3 from beat 1) at 4 - 1.3 = 2.7,
        // i.e. 0.7 in the period of 2 beats.
        let right = &plan.hand_events[HandRef::new(0, Hand::Right).slot()];
        assert_eq!(right.len(), 2);
        assert_eq!(right[0].time, 0.0);
        assert_eq!(right[0].throws.len(), 1);
        assert!((right[1].time - 0.7).abs() < 1e-12);
        assert_eq!(right[1].catches.len(), 1);
        let left = &plan.hand_events[HandRef::new(0, Hand::Left).slot()];
        assert!((left[0].time - 1.0).abs() < 1e-12 && (left[1].time - 1.7).abs() < 1e-12);
    }

    #[test]
    fn ones_are_released_early_and_fly_0_3_beat() {
        let s = async_schedule("51");
        let plan = Plan::new(&s, 1, 1.3);
        for (t, tt) in plan.throws.iter().zip(&plan.times) {
            let tt = tt.unwrap();
            if t.value == 1 {
                // Released 0.6 beat early: dwell + 0.3 - 1.
                assert!((tt.release - (t.beat as f64 - 0.6)).abs() < 1e-12, "{tt:?}");
                assert!((tt.catch - tt.release - 0.3).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn holds_have_no_events_and_catches_respect_the_previous_toss() {
        let s = async_schedule("42");
        let plan = Plan::new(&s, 1, 1.3);
        // The left hand only holds a 2: no events at all.
        assert!(plan.hand_events[HandRef::new(0, Hand::Left).slot()].is_empty());
        assert!(plan.times.iter().filter(|t| t.is_none()).count() == 1);
        // Large dwell: the catch is pushed to 0.3 beat after the hand's previous toss.
        let plan = Plan::new(&async_schedule("3"), 1, 1.9);
        let tt = plan.times[0].unwrap();
        assert!((tt.catch - (3.0 - 2.0 + 0.3)).abs() < 1e-12, "{tt:?}");
    }

    #[test]
    fn multiplex_catches_are_squeezed_highest_first_but_bundles_stay_together() {
        // [54]: the left hand gathers the right's 5 (beat 0) and its own 4 (beat 1) for its
        // multiplex on beat 5: the 5 at 5 - 1.3 - 0.4 = 3.3, the 4 at 3.7.
        let plan = Plan::new(&async_schedule("[54]"), 1, 1.3);
        let find = |beat: u32, value: u32| {
            let i = (0..plan.throws.len())
                .find(|&i| plan.throws[i].beat == beat && plan.throws[i].value == value)
                .unwrap();
            (plan.times[i].unwrap().catch, plan.catch_slot[i])
        };
        let (c5, s5) = find(0, 5);
        let (c4, s4) = find(1, 4);
        assert!((c5 - 3.3).abs() < 1e-12, "{c5}");
        assert!((c4 - 3.7).abs() < 1e-12, "{c4}");
        assert_eq!((s5, s4), ((0, 2), (1, 2)));
        // [33]: both props thrown together are caught together.
        let plan = Plan::new(&async_schedule("[33]"), 1, 1.3);
        let catches: Vec<f64> = plan.times.iter().map(|t| t.unwrap().catch).collect();
        assert!(
            catches
                .iter()
                .all(|c| (c.rem_euclid(1.0) - 0.7).abs() < 1e-12),
            "{catches:?}"
        );
    }

    #[test]
    fn unrolling_keeps_next_a_permutation_of_the_right_beats() {
        let s = async_schedule("531");
        let (throws, original) = unroll(&s, 3);
        let n = throws.len();
        let u = s.period * 3;
        let mut seen = vec![false; n];
        for t in &throws {
            assert!(!seen[t.next]);
            seen[t.next] = true;
            assert_eq!(throws[t.next].beat, (t.beat + t.value) % u);
        }
        assert_eq!(original[n - 1], s.throws.len() - 1);
    }
}
