//! Pattern file throughput: reading the shipped library, writing it back as TOML, importing JML.

use std::hint::black_box;
use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion};
use juggler::files::{self, jml, library_dir, library_files, to_toml};

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
        b.iter(|| black_box(to_toml(black_box(&specs))))
    });

    let list =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/list.jml"))
            .expect("sample JML");
    c.bench_function("import JML pattern list", |b| {
        b.iter(|| black_box(jml::import_str(black_box(&list), "list.jml").expect("imports")))
    });
}

criterion_group!(benches, bench_files);
criterion_main!(benches);
