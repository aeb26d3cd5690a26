//! Pattern file throughput: reading the shipped library, writing it back as TOML, importing JML.

use std::hint::black_box;
use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion};
use juggler::convert::toml::to_toml;
use juggler::files::{self, jml, library_dir, library_files};

fn bench_files(c: &mut Criterion) {
    let paths = library_files(&library_dir()).expect("library readable");
    let texts: Vec<(String, String)> = paths
        .iter()
        .map(|p| {
            (
                p.display().to_string(),
                std::fs::read_to_string(p).expect("readable"),
            )
        })
        .collect();
    let specs: Vec<_> = paths
        .iter()
        .flat_map(|p| files::load_path(p).expect("library loads"))
        .collect();

    c.bench_function("parse library TOML (all files)", |b| {
        b.iter(|| {
            for (origin, text) in &texts {
                black_box(files::from_toml_str(black_box(text), origin).expect("parses"));
            }
        })
    });

    c.bench_function("write library as TOML", |b| {
        b.iter(|| black_box(to_toml(black_box(&specs)).unwrap()))
    });

    // JIF: passist's format, read (completed, scheduled, animated) and written.
    let jif_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/jif");
    for name in ["seven_one_count.jif", "club_and_two_balls.jif"] {
        let text = std::fs::read_to_string(jif_dir.join(name)).expect("sample JIF");
        c.bench_function(&format!("load JIF {name}"), |b| {
            b.iter(|| {
                black_box(files::read_str(black_box(&text), files::FileKind::Jif, name).unwrap())
            })
        });
    }
    for pattern in ["975;jugglers=2", "<3.3p3|3.3p3|4.3p3>"] {
        let spec = juggler::spec::PatternSpec::parse(pattern).unwrap();
        let scene = juggler::scene::Scene::new(&spec).unwrap();
        c.bench_function(&format!("write JIF {pattern}"), |b| {
            b.iter(|| black_box(juggler::convert::jif::write(black_box(&scene)).unwrap()))
        });
    }

    let list =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/list.jml"))
            .expect("sample JML");
    c.bench_function("import JML pattern list", |b| {
        b.iter(|| black_box(jml::import_str(black_box(&list), "list.jml").expect("imports")))
    });
}

/// `n` patterns in each format, as a user's big collection would hold them.
fn many(n: usize) -> (String, String, String) {
    let siteswaps = ["531", "(4,2x)*", "<3p|3p>", "[54]24", "97531"];
    let mut toml = String::new();
    let mut jml = String::from("<?xml version=\"1.0\"?>\n<jml version=\"1.2\">\n<patternlist>\n");
    let mut txt = String::new();
    for i in 0..n {
        let s = siteswaps[i % siteswaps.len()];
        toml.push_str(&format!(
            "[[pattern]]\nname = \"p{i}\"\nsiteswap = \"{s}\"\nbps = 3.5\n\n"
        ));
        let escaped = s.replace('<', "&lt;").replace('>', "&gt;");
        jml.push_str(&format!(
            "<line display=\"p{i}\" notation=\"siteswap\">pattern={escaped};bps=3.5</line>\n"
        ));
        txt.push_str(&format!("{s} # p{i}\n"));
    }
    jml.push_str("</patternlist>\n</jml>\n");
    (toml, jml, txt)
}

/// Loaders must be linear: 100 000 patterns per format, read (not validated).
fn bench_big_files(c: &mut Criterion) {
    const N: usize = 100_000;
    let (toml, jml, txt) = many(N);
    let mut group = c.benchmark_group("100000 patterns");
    group.sample_size(10);
    group.measurement_time(std::time::Duration::from_secs(8));
    group.bench_function("load TOML", |b| {
        b.iter(|| {
            let p = files::read_str(black_box(&toml), files::FileKind::Toml, "big.toml").unwrap();
            assert_eq!(p.len(), N);
        })
    });
    group.bench_function("load JML", |b| {
        b.iter(|| {
            let p = files::read_str(black_box(&jml), files::FileKind::Jml, "big.jml").unwrap();
            assert_eq!(p.len(), N);
        })
    });
    group.bench_function("load .txt", |b| {
        b.iter(|| {
            let p = files::read_str(black_box(&txt), files::FileKind::Text, "big.txt").unwrap();
            assert_eq!(p.len(), N);
        })
    });
    // What `check --file` does per line: stream, parse, validate.
    group.bench_function("check --file .txt (stream + validate)", |b| {
        b.iter(|| {
            let mut valid = 0;
            for entry in files::text_list::TextEntries::new(black_box(txt.as_bytes())) {
                let entry = entry.unwrap();
                valid += usize::from(juggler::schedule::from_notation(&entry.text).is_ok());
            }
            assert_eq!(valid, N);
        })
    });
    group.finish();
}

criterion_group!(benches, bench_files, bench_big_files);
criterion_main!(benches);
