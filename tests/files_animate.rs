//! Every library pattern animates: its schedule, timing and motion build, and the hands, props
//! and arms stay finite over a whole loop. (Uses motion and body directly; a `scene` that
//! bundles them can replace this plumbing.)

use glam::Vec3;
use juggler::body::dims::BodyDims;
use juggler::body::juggler::juggler_pose;
use juggler::files::{self, library_dir, library_files};
use juggler::layout::Layout;
use juggler::motion::{Motion, Timing};
use juggler::schedule::from_notation;
use juggler::types::Hand;

fn finite(v: Vec3) -> bool {
    v.is_finite()
}

#[test]
fn every_library_pattern_animates_without_nan() {
    let mut checked = 0;
    for path in library_files(&library_dir()).expect("library readable") {
        for p in files::read_path(&path).unwrap_or_else(|e| panic!("{e}")) {
            let spec = &p.spec;
            let at = &p.at;
            let schedule = from_notation(&spec.notation).unwrap_or_else(|e| panic!("{at}: {e}"));
            let timing =
                Timing::new(&schedule, &spec.settings).unwrap_or_else(|e| panic!("{at}: {e}"));
            let layout = Layout::from_specs(schedule.jugglers, &spec.settings.placements);
            let motion = Motion::new(&schedule, timing, &layout, &spec.settings.hand_positions);
            let dims = BodyDims::from_spec(spec.settings.body.as_ref())
                .unwrap_or_else(|e| panic!("{at}: {e}"));
            let duration = motion.loop_duration();
            assert!(
                duration.is_finite() && duration > 0.0,
                "{at}: loop {duration}"
            );
            let samples = 60;
            for i in 0..=samples {
                let t = duration * i as f64 / samples as f64;
                let state = motion.state_at(t);
                assert_eq!(
                    state.props.len(),
                    schedule.props,
                    "{at}: '{}' at {t}",
                    spec.name
                );
                for (j, hands) in state.hands.iter().enumerate() {
                    for h in hands {
                        assert!(
                            finite(h.position) && finite(h.velocity),
                            "{at}: '{}' hand at {t}",
                            spec.name
                        );
                    }
                    let pose = juggler_pose(
                        &layout.jugglers[j],
                        &dims,
                        [
                            hands[Hand::Left.index()].position,
                            hands[Hand::Right.index()].position,
                        ],
                    );
                    for arm in &pose.arms {
                        assert!(
                            [arm.shoulder, arm.elbow, arm.wrist, arm.hand]
                                .into_iter()
                                .all(finite),
                            "{at}: '{}' arm at {t}: {arm:?}",
                            spec.name
                        );
                    }
                    assert!(
                        finite(pose.head) && finite(pose.neck),
                        "{at}: '{}' head at {t}",
                        spec.name
                    );
                }
                for prop in &state.props {
                    assert!(
                        finite(prop.position) && finite(prop.velocity),
                        "{at}: '{}' prop at {t}",
                        spec.name
                    );
                    // Nothing falls through the floor or flies off to infinity.
                    assert!(
                        prop.position.y > -0.5 && prop.position.length() < 100.0,
                        "{at}: '{}' prop at {:?}",
                        spec.name,
                        prop.position
                    );
                }
            }
            checked += 1;
        }
    }
    assert!(checked >= 100, "only {checked} patterns animated");
}
