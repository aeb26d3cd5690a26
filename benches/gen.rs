//! The siteswap generator: counting (all cores) and listing a small query, plus the counting
//! query of the issue (`gen 8 - 9 -no`, 28,068,701 patterns) with few samples; counting
//! synchronous, multiplex and passing queries (J2's general search).

use criterion::{criterion_group, criterion_main, Criterion};
use juggler::tools::{generate as plan, Listing, Query};

fn bench(c: &mut Criterion) {
    let small = plan(&Query::new(5, Some(7), 5)).unwrap();
    assert_eq!(small.count(), 22); // Juggling Lab: gen 5 7 5 -> 22 patterns
    c.bench_function("gen 5 7 5 list", |b| {
        b.iter(|| {
            let mut n = 0u64;
            small.for_each(&mut |_| {
                n += 1;
                true
            });
            n
        })
    });
    let mut q = Query::new(4, None, 6);
    q.listing = Listing::Full;
    let full = plan(&q).unwrap();
    c.bench_function("gen 4 - 6 -f -no", |b| b.iter(|| full.count()));
    let mut group = c.benchmark_group("large");
    group.sample_size(10);
    let large = plan(&Query::new(8, None, 9)).unwrap();
    group.bench_function("gen 8 - 9 -no", |b| b.iter(|| large.count()));
    group.finish();
    let mut general = c.benchmark_group("general");
    general.sample_size(10);
    let mut q = Query::new(6, Some(9), 12);
    q.sync = true;
    let sync = plan(&q).unwrap();
    assert_eq!(sync.count(), 115_824); // Juggling Lab: gen 6 9 12 -s -no
    general.bench_function("gen 6 9 12 -s -no", |b| b.iter(|| sync.count()));
    let mut q = Query::new(4, Some(6), 8);
    q.multiplex = 2;
    let mux = plan(&q).unwrap();
    assert_eq!(mux.count(), 37_880); // Juggling Lab: gen 4 6 8 -m 2 -no
    general.bench_function("gen 4 6 8 -m 2 -no", |b| b.iter(|| mux.count()));
    let mut q = Query::new(8, Some(5), 4);
    q.jugglers = 2;
    let pass = plan(&q).unwrap();
    assert_eq!(pass.count(), 1_699); // Juggling Lab: gen 8 5 4 -j 2 -no
    general.bench_function("gen 8 5 4 -j 2 -no", |b| b.iter(|| pass.count()));
    general.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
