//! Every library pattern animates: `scene::Scene` builds from its spec, and every joint of every
//! juggler and every prop stays finite (and above the floor, within reach of the scene) over a
//! whole loop.

use glam::Vec3;
use juggler::files::{self, library_dir, library_files};
use juggler::scene::Scene;

#[test]
fn every_library_pattern_animates_without_nan() {
    let mut checked = 0;
    for path in library_files(&library_dir()).expect("library readable") {
        for p in files::read_path(&path).unwrap_or_else(|e| panic!("{e}")) {
            let (spec, at) = (&p.spec, &p.at);
            let scene = Scene::new(spec).unwrap_or_else(|e| panic!("{at}: '{}': {e}", spec.name));
            let duration = scene.loop_duration();
            assert!(
                duration.is_finite() && duration > 0.0,
                "{at}: loop {duration}"
            );
            let props = scene.schedule().props;
            let samples = 48;
            for i in 0..=samples {
                let t = duration * i as f64 / samples as f64;
                let pose = scene.pose_at(t);
                let what = |part: &str| format!("{at}: '{}' {part} at t = {t}", spec.name);
                assert_eq!(pose.props.len(), props, "{}", what("prop count"));
                for j in &pose.jugglers {
                    let mut points: Vec<Vec3> = vec![j.head, j.neck];
                    points.extend(j.hips.iter().chain(&j.knees).chain(&j.feet));
                    for arm in &j.arms {
                        points.extend([arm.shoulder, arm.elbow, arm.wrist, arm.hand]);
                    }
                    assert!(
                        points.iter().all(|v| v.is_finite()),
                        "{}: {j:?}",
                        what("juggler")
                    );
                }
                for prop in &pose.props {
                    assert!(
                        prop.position.is_finite() && prop.axis.is_finite() && prop.size > 0.0,
                        "{}: {prop:?}",
                        what("prop")
                    );
                    // Nothing sinks through the floor or flies off to infinity.
                    assert!(
                        prop.position.y > -0.3 && prop.position.length() < 50.0,
                        "{}: {prop:?}",
                        what("prop")
                    );
                }
            }
            checked += 1;
        }
    }
    assert!(checked >= 100, "only {checked} patterns animated");
}
