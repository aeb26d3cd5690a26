//! Cost of evaluating the whole motion state at one time (goal: under 5 µs per juggler).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use juggler::layout::Layout;
use juggler::motion::{Motion, Timing};
use juggler::schedule::{from_notation, Schedule};
use juggler::settings::Settings;

fn schedule(pattern: &str) -> Schedule {
    from_notation(pattern).expect("benchmark patterns are valid")
}

fn motion(schedule: &Schedule) -> Motion {
    let timing = Timing::new(schedule, &Settings::default()).expect("valid timing");
    Motion::new(schedule, timing, &Layout::circle(schedule.jugglers), &[])
}

fn state_at(c: &mut Criterion) {
    // `[5555]`: four 5s from each hand every beat, 20 props.
    for pattern in ["3", "97531", "<5p|5p>", "[5555]"] {
        let m = motion(&schedule(pattern));
        let mut t = 0.0;
        c.bench_function(
            &format!("state_at {pattern} ({} props)", m.prop_count()),
            |b| {
                b.iter(|| {
                    t += 0.0123;
                    black_box(m.state_at(black_box(t)))
                })
            },
        );
    }
    let s = schedule("97531");
    c.bench_function("Motion::new 97531", |b| {
        b.iter(|| black_box(motion(black_box(&s))))
    });
}

criterion_group!(benches, state_at);
criterion_main!(benches);
