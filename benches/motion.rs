//! Cost of evaluating the whole motion state at one time (goal: under 5 µs per juggler).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use juggler::layout::Layout;
use juggler::motion::{Motion, Timing};
use juggler::schedule::{Orbit, Schedule, ThrowEvent, ThrowKind};
use juggler::spec::Settings;
use juggler::types::{Hand, HandRef};

/// A schedule from (beat, from, to, value) elements; `next` linked by landing slot.
/// (Built by hand so the benchmark does not depend on the notation parser.)
fn build(jugglers: usize, period: u32, mut els: Vec<(u32, HandRef, HandRef, u32)>) -> Schedule {
    els.sort_by_key(|e| (e.0, e.1.juggler, e.1.hand == Hand::Left));
    let n = els.len();
    let mut used = vec![false; n];
    let mut throws = Vec::with_capacity(n);
    for &(beat, from, to, value) in &els {
        let landing = (beat + value) % period;
        let next = (0..n)
            .find(|&j| !used[j] && els[j].0 == landing && els[j].1 == to)
            .unwrap_or(0);
        used[next] = true;
        let kind = if value == 2 {
            ThrowKind::Hold
        } else {
            ThrowKind::Toss
        };
        throws.push(ThrowEvent {
            beat,
            from,
            to,
            value,
            next,
            kind,
            modifier: String::new(),
            span: (0, 0),
        });
    }
    let mut seen = vec![false; n];
    let mut orbits = Vec::new();
    for s in 0..n {
        let mut cycle = Vec::new();
        let mut i = s;
        while !seen[i] {
            seen[i] = true;
            cycle.push(i);
            i = throws[i].next;
        }
        if !cycle.is_empty() {
            let sum: u32 = cycle.iter().map(|&i| throws[i].value).sum();
            orbits.push(Orbit {
                throws: cycle,
                props: (sum / period) as usize,
            });
        }
    }
    let props = (throws.iter().map(|t| t.value).sum::<u32>() / period) as usize;
    let max_throw = throws.iter().map(|t| t.value).max().unwrap_or(0);
    Schedule {
        jugglers,
        period,
        throws,
        props,
        sync: false,
        max_throw,
        ground_state: true,
        orbits,
    }
}

/// Solo async siteswap of multiplexes (each inner vec one beat), doubled when odd.
fn solo(beats: &[&[u32]]) -> Schedule {
    let mut beats: Vec<&[u32]> = beats.to_vec();
    if beats.len() % 2 == 1 {
        beats.extend(beats.clone());
    }
    let hand = |b: u32| {
        HandRef::new(
            0,
            if b.is_multiple_of(2) {
                Hand::Right
            } else {
                Hand::Left
            },
        )
    };
    let els = beats
        .iter()
        .enumerate()
        .flat_map(|(b, vs)| {
            vs.iter()
                .map(move |&v| (b as u32, hand(b as u32), hand(b as u32 + v), v))
        })
        .collect();
    build(1, beats.len() as u32, els)
}

/// `<5p|5p>`: two jugglers passing every throw.
fn passing_5p() -> Schedule {
    let el = |beat: u32, j: usize, h: Hand| {
        (beat, HandRef::new(j, h), HandRef::new(1 - j, h.other()), 5)
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

fn motion(schedule: &Schedule) -> Motion {
    let timing = Timing::new(schedule, &Settings::default()).expect("valid timing");
    Motion::new(schedule, timing, &Layout::circle(schedule.jugglers), &[])
}

fn state_at(c: &mut Criterion) {
    let cases = [
        ("3", solo(&[&[3]])),
        ("97531", solo(&[&[9], &[7], &[5], &[3], &[1]])),
        ("<5p|5p>", passing_5p()),
        ("[5555] (20 props)", solo(&[&[5, 5, 5, 5]])),
    ];
    for (name, schedule) in cases {
        let m = motion(&schedule);
        let mut t = 0.0;
        c.bench_function(&format!("state_at {name}"), |b| {
            b.iter(|| {
                t += 0.0123;
                black_box(m.state_at(black_box(t)))
            })
        });
    }
    let schedule = solo(&[&[9], &[7], &[5], &[3], &[1]]);
    c.bench_function("Motion::new 97531", |b| {
        b.iter(|| black_box(motion(black_box(&schedule))))
    });
}

criterion_group!(benches, state_at);
criterion_main!(benches);
