//! Whole pose of the scene at one time: motion state, arms (seed-000 elbows), bodies and props.
//! Goal: under 5 µs per juggler. Also the cost of building a scene (`Scene::new`: schedule,
//! motion, flight lanes, forearm lifts, elbows turned aside), paid once per pattern typed.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use glam::Vec3;

use juggler::body::dims::BodyDims;
use juggler::body::juggler::juggler_pose;
use juggler::layout::Layout;
use juggler::scene::Scene;
use juggler::spec::PatternSpec;
use juggler::types::PropKind;

fn scene(pattern: &str, prop: PropKind) -> Scene {
    let mut spec = PatternSpec::from_notation(pattern);
    spec.settings.prop = prop;
    Scene::new(&spec).expect("benchmark patterns are valid")
}

fn bench(c: &mut Criterion) {
    let placement = Layout::circle(1).jugglers[0];
    let dims = BodyDims::default();
    let hands = [Vec3::new(0.3, 0.9, 0.3), Vec3::new(-0.12, 1.0, 0.3)];
    c.bench_function("juggler_pose (body and arms only)", |b| {
        b.iter(|| juggler_pose(black_box(&placement), &dims, black_box(hands)))
    });
    for (pattern, prop) in [
        ("3", PropKind::Ball),
        ("3", PropKind::Club),
        ("3", PropKind::Ring),
        ("97531", PropKind::Ball),
        ("<3p|3p>", PropKind::Club),
    ] {
        let scene = scene(pattern, prop);
        let mut t = 0.0;
        c.bench_function(&format!("pose_at {pattern} {}", prop.name()), |b| {
            b.iter(|| {
                t += 0.0123;
                scene.pose_at(black_box(t))
            })
        });
    }
    // A juggler turning in circles: the hands are carried by the turning body.
    let turning = "pattern=5;body=(0)...(90)...(180)...(270)...";
    let mut spec = juggler::files::argument::load(turning)
        .expect("a valid settings string")
        .remove(0);
    spec.settings.prop = PropKind::Ball;
    let scene = Scene::new(&spec).expect("benchmark patterns are valid");
    let mut t = 0.0;
    c.bench_function("pose_at turning 5 ball", |b| {
        b.iter(|| {
            t += 0.0123;
            scene.pose_at(black_box(t))
        })
    });
    let mut group = c.benchmark_group("Scene::new");
    group.sample_size(20);
    for (pattern, prop) in [
        ("531", PropKind::Ball),
        ("Mills Mess", PropKind::Club),
        ("<5p|5p|5p>", PropKind::Club),
    ] {
        let mut spec = juggler::files::argument::load(pattern)
            .expect("a library name or siteswap")
            .remove(0);
        spec.settings.prop = prop;
        group.bench_function(format!("{pattern} {}", prop.name()), |b| {
            b.iter(|| Scene::new(black_box(&spec)).expect("valid"))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
