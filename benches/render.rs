//! Frame building, rasterisation and both encoders.
//!
//! `cargo bench --bench render`. Poses come from the scene of `3` (balls, or clubs), computed
//! before timing where a benchmark times one frame; the export benchmarks include the poses
//! (a few microseconds a frame).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use juggler::export::gif_anim::write_gif;
use juggler::export::png_frames::encode_png;
use juggler::export::{self, ExportOptions, ExportRequest, FramePlan, Silent};
use juggler::render::raster::{rasterize, Canvas};
use juggler::render::{auto_camera, build_frame, Camera};
use juggler::scene::Scene;
use juggler::spec::PatternSpec;
use juggler::types::PropKind;

/// The scene of the 3-ball (or 3-club) cascade.
fn three(prop: PropKind) -> Scene {
    let mut spec = PatternSpec::from_notation("3");
    spec.settings.prop = prop;
    Scene::new(&spec).expect("3")
}

fn camera(cascade: &Scene, w: u32, h: u32) -> Camera {
    auto_camera(cascade, w as f32 / h as f32, None)
}

fn frame_building(c: &mut Criterion) {
    let cascade = three(PropKind::Ball);
    let cam = camera(&cascade, 640, 480);
    let pose = cascade.pose_at(0.3);
    c.bench_function("build_frame 3 balls 640x480", |b| {
        b.iter(|| build_frame(black_box(&pose), &cam, 640, 480))
    });
    let clubs = three(PropKind::Club);
    let pose = clubs.pose_at(0.3);
    c.bench_function("build_frame 3 clubs 640x480", |b| {
        b.iter(|| build_frame(black_box(&pose), &cam, 640, 480))
    });
}

fn rasterisation(c: &mut Criterion) {
    let cascade = three(PropKind::Ball);
    for (w, h) in [(640u32, 480u32), (400, 450)] {
        let cam = camera(&cascade, w, h);
        // Consecutive frames of an animation (the canvas redraws what changes) ...
        let frames: Vec<_> = (0..60)
            .map(|i| build_frame(&cascade.pose_at(i as f64 / 30.0), &cam, w, h))
            .collect();
        let mut canvas = Canvas::new(w, h).expect("size");
        let mut i = 0;
        c.bench_function(&format!("rasterise {w}x{h} (animation)"), |b| {
            b.iter(|| {
                i = (i + 1) % frames.len();
                canvas.draw(black_box(&frames[i]))
            })
        });
        // ... and one frame drawn whole on a fresh canvas.
        c.bench_function(&format!("rasterise {w}x{h} (whole frame)"), |b| {
            b.iter(|| rasterize(black_box(&frames[7])))
        });
    }
}

fn png_encoding(c: &mut Criterion) {
    let cascade = three(PropKind::Ball);
    let cam = camera(&cascade, 640, 480);
    let frame = build_frame(&cascade.pose_at(0.3), &cam, 640, 480);
    let mut canvas = Canvas::new(640, 480).expect("size");
    canvas.draw(&frame);
    let image = canvas.to_rgb();
    let mut out = Vec::with_capacity(1 << 20);
    c.bench_function("png encode 640x480", |b| {
        b.iter(|| {
            out.clear();
            encode_png(black_box(&image), &mut out).expect("encode");
        })
    });
}

fn gif_encoding(c: &mut Criterion) {
    let cascade = three(PropKind::Ball);
    let (w, h) = (400u32, 450u32);
    let cam = camera(&cascade, w, h);
    // One loop at 30 fps (2 s: 60 frames), in memory.
    let plan = FramePlan {
        start: 0.0,
        interval: cascade.loop_duration() / 60.0,
        count: 60,
        speed: 1.0,
    };
    let mut group = c.benchmark_group("gif");
    group.sample_size(20);
    group.bench_function("3 balls 400x450 one loop (60 frames)", |b| {
        b.iter(|| {
            write_gif(
                &cascade,
                &cam.into(),
                &plan,
                (w, h),
                &Silent,
                Vec::with_capacity(1 << 20),
            )
            .expect("gif")
        })
    });
    group.finish();
}

fn png_frames_per_second(c: &mut Criterion) {
    let cascade = three(PropKind::Ball);
    let dir = tempfile::tempdir().expect("tempdir");
    let mut group = c.benchmark_group("png frames");
    group.sample_size(10);
    group.bench_function("export 60 frames 640x480 to disk", |b| {
        b.iter(|| {
            let out = dir.path().join("frames");
            let options = ExportOptions::new(&ExportRequest {
                out: out.clone(),
                size: "640x480".into(),
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
            let cam = camera(&cascade, 640, 480);
            export::export(&cascade, &cam.into(), &options, &Silent).expect("export")
        })
    });
    group.finish();
}

criterion_group!(
    benches,
    frame_building,
    rasterisation,
    png_encoding,
    gif_encoding,
    png_frames_per_second
);
criterion_main!(benches);
