//! The siteswap generator: counting (all cores) and listing a small query, plus the counting
//! query of the issue (`gen 8 - 9 -no`, 28,068,701 patterns) with few samples.

use criterion::{criterion_group, criterion_main, Criterion};
use juggler::tools::gen::{plan, Listing, Query};

fn bench(c: &mut Criterion) {
    let small = plan(&Query::new(5, Some(7), 5)).unwrap();
    assert_eq!(small.count(), 22); // Juggling Lab: gen 5 7 5 -> 22 patterns
    c.bench_function("gen 5 7 5 list", |b| {
        b.iter(|| {
            let mut n = 0u64;
            small.generate(&mut |_| {
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
}

criterion_group!(benches, bench);
criterion_main!(benches);
