//! Test-only schedules built by hand (independent of the notation parser).

use crate::schedule::{Orbit, Schedule, ThrowEvent, ThrowKind};
use crate::types::{Hand, HandRef};

/// One throw element for `build`.
#[derive(Clone, Copy, Debug)]
pub struct El {
    pub beat: u32,
    pub from: HandRef,
    pub to: HandRef,
    pub value: u32,
    pub kind: ThrowKind,
}

/// A schedule from throw elements (assumed valid): sorts them, links `next` by landing slot,
/// finds orbits.
pub fn build(jugglers: usize, period: u32, mut els: Vec<El>) -> Schedule {
    els.sort_by_key(|e| (e.beat, e.from.juggler, e.from.hand == Hand::Left));
    let n = els.len();
    let mut used = vec![false; n];
    let mut next = vec![0; n];
    for (i, e) in els.iter().enumerate() {
        let landing = (e.beat + e.value) % period;
        let j = (0..n)
            .find(|&j| !used[j] && els[j].beat == landing && els[j].from == e.to)
            .expect("test schedule is valid");
        used[j] = true;
        next[i] = j;
    }
    let throws: Vec<ThrowEvent> = els
        .iter()
        .enumerate()
        .map(|(i, e)| ThrowEvent {
            beat: e.beat,
            from: e.from,
            to: e.to,
            value: e.value,
            next: next[i],
            kind: e.kind,
            modifier: String::new(),
            span: (0, 0),
        })
        .collect();
    let mut seen = vec![false; n];
    let mut orbits = Vec::new();
    for s in 0..n {
        if seen[s] {
            continue;
        }
        let mut cycle = Vec::new();
        let mut i = s;
        while !seen[i] {
            seen[i] = true;
            cycle.push(i);
            i = next[i];
        }
        let sum: u32 = cycle.iter().map(|&i| throws[i].value).sum();
        orbits.push(Orbit {
            throws: cycle,
            props: (sum / period) as usize,
        });
    }
    let total: u32 = throws.iter().map(|t| t.value).sum();
    Schedule {
        jugglers,
        period,
        props: (total / period) as usize,
        sync: false,
        max_throw: throws.iter().map(|t| t.value).max().unwrap_or(0),
        ground_state: false,
        orbits,
        throws,
    }
}

fn value(c: char) -> u32 {
    c.to_digit(36).expect("siteswap digit")
}

/// A solo asynchronous siteswap such as `531` or `[43]23` (odd periods doubled, like
/// Juggling Lab; 2s held; a `B` after a value makes it a single lifted bounce).
pub fn async_schedule(pattern: &str) -> Schedule {
    let mut beats: Vec<Vec<(u32, ThrowKind)>> = Vec::new();
    let mut chars = pattern.chars().peekable();
    let parse_one = |c: char, chars: &mut std::iter::Peekable<std::str::Chars>| {
        let v = value(c);
        let mut kind = if v == 2 {
            ThrowKind::Hold
        } else {
            ThrowKind::Toss
        };
        if chars.peek() == Some(&'B') {
            chars.next();
            kind = ThrowKind::Bounce {
                bounces: 1,
                forced: false,
                hyper: false,
            };
        }
        (v, kind)
    };
    while let Some(c) = chars.next() {
        if c == '[' {
            let mut group = Vec::new();
            while let Some(c) = chars.next() {
                if c == ']' {
                    break;
                }
                group.push(parse_one(c, &mut chars));
            }
            beats.push(group);
        } else {
            let one = parse_one(c, &mut chars);
            beats.push(vec![one]);
        }
    }
    if beats.len() % 2 == 1 {
        beats.extend(beats.clone());
    }
    let period = beats.len() as u32;
    let hand = |b: u32| {
        if b.is_multiple_of(2) {
            Hand::Right
        } else {
            Hand::Left
        }
    };
    let els = beats
        .iter()
        .enumerate()
        .flat_map(|(b, group)| {
            let b = b as u32;
            group
                .iter()
                .filter(|(v, _)| *v > 0)
                .map(move |&(v, kind)| El {
                    beat: b,
                    from: HandRef::new(0, hand(b)),
                    to: HandRef::new(0, hand(b + v)),
                    value: v,
                    kind,
                })
        })
        .collect();
    build(1, period, els)
}

/// `(4,4)`: both hands throw a 4 to themselves together every 2 beats.
pub fn sync_44() -> Schedule {
    let el = |h: Hand| El {
        beat: 0,
        from: HandRef::new(0, h),
        to: HandRef::new(0, h),
        value: 4,
        kind: ThrowKind::Toss,
    };
    let mut s = build(1, 2, vec![el(Hand::Left), el(Hand::Right)]);
    s.sync = true;
    s
}

/// `<3p|3p>`: two jugglers passing every throw, right hand to the partner's left.
pub fn passing_3p() -> Schedule {
    let el = |beat: u32, j: usize, h: Hand| El {
        beat,
        from: HandRef::new(j, h),
        to: HandRef::new(1 - j, h.other()),
        value: 3,
        kind: ThrowKind::Toss,
    };
    build(
        2,
        2,
        vec![
            el(0, 0, Hand::Right),
            el(0, 1, Hand::Right),
            el(1, 0, Hand::Left),
            el(1, 1, Hand::Left),
        ],
    )
}
