//! Whole exports of real patterns, and the stages of one frame of a large scene.
//!
//! `cargo bench --bench export`. Goals (BENCHMARKS.md): the 825-juggler scene at most 30 ms
//! per frame at 400x450; the GIF of `3` and of the 20-juggler ring (compared with Juggling
//! Lab's `togif` outside CI); MP4 encode rate at 1280x720 (needs ffmpeg).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use juggler::export::gif_anim::write_gif;
use juggler::export::palette::Palette;
use juggler::export::{self, ExportOptions, ExportRequest, FramePlan, Silent};
use juggler::render::raster::Canvas;
use juggler::render::{auto_camera, build_frame, Camera, PoseSource};
use juggler::scene::Scene;
use juggler::spec::PatternSpec;

/// A passing ring of `n` jugglers, each running a 3-ball cascade in its own place
/// (`<3|3|...>`): the synthetic stand-in for Juggling Lab's 825-juggler "Face Animation",
/// which is an event-based JML pattern that juggler cannot load yet.
fn crowd(n: usize) -> Scene {
    let notation = format!("<{}>", vec!["3"; n].join("|"));
    Scene::new(&PatternSpec::from_notation(&notation)).expect("crowd")
}

fn ring20() -> Scene {
    let notation = format!("<{}>", vec!["3p"; 20].join("|"));
    let spec =
        juggler::spec::PatternSpec::parse(&format!("pattern={notation};colors=red")).expect("ring");
    Scene::new(&spec).expect("ring")
}

fn camera(source: &dyn PoseSource, w: u32, h: u32) -> Camera {
    auto_camera(source, w as f32 / h as f32, None)
}

fn one_loop(source: &dyn PoseSource, fps: f64) -> FramePlan {
    let duration = source.picture_loop_duration();
    let count = (duration * fps).round().max(1.0) as usize;
    FramePlan {
        start: 0.0,
        interval: duration / count as f64,
        count,
        speed: 1.0,
    }
}

fn large_scene(c: &mut Criterion) {
    let scene = crowd(825);
    let (w, h) = (400u32, 450u32);
    let cam = camera(&scene, w, h);
    let mut group = c.benchmark_group("825 jugglers 400x450");
    group.sample_size(10);
    group.bench_function("pose_at", |b| b.iter(|| scene.pose_at(black_box(0.37))));
    let pose = scene.pose_at(0.37);
    group.bench_function("build_frame", |b| {
        b.iter(|| build_frame(black_box(&pose), &cam, w, h))
    });
    // Drawing frames in sequence on one canvas, as the export does.
    let frames: Vec<_> = (0..8)
        .map(|i| build_frame(&scene.pose_at(i as f64 / 30.0), &cam, w, h))
        .collect();
    group.bench_function("draw 8 consecutive frames", |b| {
        b.iter(|| {
            let mut canvas = Canvas::new(w, h).expect("canvas");
            for f in &frames {
                canvas.draw(f);
            }
            canvas.rgba()[0]
        })
    });
    let palette = Palette::new(&[[255, 255, 255]], &[]);
    let mut canvas = Canvas::new(w, h).expect("canvas");
    canvas.draw(&frames[0]);
    group.bench_function("quantize one frame", |b| {
        b.iter(|| {
            let mut out = Vec::new();
            palette.quantize_rgba(canvas.rgba(), &mut out);
            out
        })
    });
    let plan = FramePlan {
        start: 0.0,
        interval: 1.0 / 30.0,
        count: 30,
        speed: 1.0,
    };
    group.bench_function("GIF of 30 frames (per frame: / 30)", |b| {
        b.iter(|| write_gif(&scene, &cam.into(), &plan, (w, h), &Silent, Vec::new()).expect("gif"))
    });
    group.finish();
}

fn gifs(c: &mut Criterion) {
    let mut group = c.benchmark_group("gif 400x450 one loop");
    group.sample_size(10);
    let three = Scene::new(&PatternSpec::from_notation("3")).expect("3");
    let cam = camera(&three, 400, 450);
    let plan = one_loop(&three, 30.0);
    group.bench_function("3 (62 frames)", |b| {
        b.iter(|| {
            write_gif(&three, &cam.into(), &plan, (400, 450), &Silent, Vec::new()).expect("gif")
        })
    });
    let ring = ring20();
    let cam = camera(&ring, 400, 450);
    let plan = one_loop(&ring, 30.0);
    group.bench_function("20-juggler ring, one colour (21 frames)", |b| {
        b.iter(|| {
            write_gif(&ring, &cam.into(), &plan, (400, 450), &Silent, Vec::new()).expect("gif")
        })
    });
    group.finish();
}

fn mp4(c: &mut Criterion) {
    let available = std::process::Command::new("ffmpeg")
        .arg("-version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !available {
        eprintln!("ffmpeg not installed: MP4 benchmark skipped");
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let three = Scene::new(&PatternSpec::from_notation("3")).expect("3");
    let mut group = c.benchmark_group("mp4 1280x720");
    group.sample_size(10);
    group.bench_function("3, 60 frames", |b| {
        b.iter(|| {
            let options = ExportOptions::new(&ExportRequest {
                out: dir.path().join("a.mp4"),
                size: "1280x720".into(),
                fps: 30.0,
                loops: None,
                duration: Some(2.0),
                start: 0.0,
                force: true,
                crf: None,
                speed: 1.0,
                sound: None,
            })
            .expect("options");
            let cam = camera(&three, 1280, 720);
            export::export(&three, &cam.into(), &options, &Silent).expect("export")
        })
    });
    group.finish();
}

criterion_group!(benches, large_scene, gifs, mp4);
criterion_main!(benches);
