//! Parse + validate throughput over a list of patterns: every valid vanilla siteswap up to
//! period 5 and height 9, plus sync, multiplex and passing patterns and the test vectors.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use juggler::schedule::{from_notation, from_notation_shared};

/// All vanilla siteswaps of period `n` with throws <= `max` (permutation test: i + v_i
/// distinct mod n), written in base 36.
fn vanilla(n: usize, max: u32, out: &mut Vec<String>) {
    fn go(n: usize, max: u32, prefix: &mut Vec<u32>, out: &mut Vec<String>) {
        if prefix.len() == n {
            let sum: u32 = prefix.iter().sum();
            if sum > 0 {
                out.push(
                    prefix
                        .iter()
                        .map(|&v| char::from_digit(v, 36).unwrap_or('0'))
                        .collect(),
                );
            }
            return;
        }
        let i = prefix.len();
        for v in 0..=max {
            let land = (i + v as usize) % n;
            if prefix
                .iter()
                .enumerate()
                .all(|(j, &w)| (j + w as usize) % n != land)
            {
                prefix.push(v);
                go(n, max, prefix, out);
                prefix.pop();
            }
        }
    }
    go(n, max, &mut Vec::new(), out);
}

fn patterns() -> Vec<String> {
    let mut list = Vec::new();
    for n in 1..=5 {
        vanilla(n, 9, &mut list);
    }
    list.retain(|p| p.len() < 5 || list_filter(p));
    for p in [
        "(4,2x)*",
        "(6x,4)*",
        "([44],[44])(4,4)",
        "(4,2x)(2x,4)",
        "<3p|3p>",
        "<5p|3p><3|3>",
        "<[3p3p]33|[3p3p]33>",
        "<(4xp,4x)|(4xp,4x)>",
        "[54][22]2",
        "[43]23",
        "(3^10)",
        "b97531",
    ] {
        list.push(p.to_string());
    }
    let vectors = include_str!("../tests/data/siteswaps.tsv");
    list.extend(
        vectors
            .lines()
            .skip(1)
            .filter_map(|l| l.split('\t').next())
            .map(String::from),
    );
    list
}

/// Keeps one period-5 pattern in three, so the list stays a typical mix.
fn list_filter(p: &str) -> bool {
    p.bytes().map(u32::from).sum::<u32>() % 3 == 0
}

fn bench(c: &mut Criterion) {
    let list = patterns();
    assert!(list.len() >= 500, "only {} patterns", list.len());
    let mut group = c.benchmark_group("validate");
    group.throughput(Throughput::Elements(list.len() as u64));
    group.bench_function(format!("{}_patterns", list.len()), |b| {
        b.iter(|| {
            let mut props = 0usize;
            for p in &list {
                if let Ok(s) = from_notation(std::hint::black_box(p)) {
                    props += s.props;
                }
            }
            props
        })
    });
    group.throughput(Throughput::Elements(1));
    group.bench_function("531", |b| {
        b.iter(|| from_notation(std::hint::black_box("531")))
    });
    group.bench_function("(4,2x)*", |b| {
        b.iter(|| from_notation(std::hint::black_box("(4,2x)*")))
    });
    group.bench_function("<3p|3p><3|3>", |b| {
        b.iter(|| from_notation(std::hint::black_box("<3p|3p><3|3>")))
    });
    // Prechac notation: fractional passes, inferred and written delays, three jugglers.
    for p in [
        "<3.5p|3.5px>",
        "<3.3p3|3.3p3|4.3p3>",
        "{0,0.5}<4.5px2.5px3.5p|3.5px4.5p2.5p>",
    ] {
        group.bench_function(p, |b| b.iter(|| from_notation(std::hint::black_box(p))));
    }
    // Four-handed siteswaps (`jugglers=2`): named patterns of the passing community.
    let four_handed = [
        "975", "867", "744", "77722", "966", "996", "7", "86", "978", "9797", "7777266", "96672",
        "7a666", "9964", "86277",
    ];
    for p in ["975", "77722"] {
        group.bench_function(format!("{p};jugglers=2"), |b| {
            b.iter(|| from_notation_shared(std::hint::black_box(p), Some(2)))
        });
    }
    group.throughput(Throughput::Elements(four_handed.len() as u64));
    group.bench_function(format!("{}_four_handed", four_handed.len()), |b| {
        b.iter(|| {
            let mut props = 0usize;
            for p in &four_handed {
                if let Ok(s) = from_notation_shared(std::hint::black_box(p), Some(2)) {
                    props += s.props;
                }
            }
            props
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
