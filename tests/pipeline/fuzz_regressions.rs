//! Inputs found by fuzzing (`scripts/fuzz.sh`), each pinned with what went wrong.

use juggler::render::{build_frame, Camera};
use juggler::scene::Scene;
use juggler::spec::PatternSpec;

/// Runs the fuzzers' whole-pipeline check on one pattern.
fn pipeline(pattern: &str, t: f64) -> Scene {
    let scene = Scene::new(&PatternSpec::from_notation(pattern)).expect("valid pattern");
    let pose = scene.pose_at(t);
    assert!(pose.props.iter().all(|p| p.position.is_finite()));
    let camera = Camera::framing(&pose, 320.0 / 240.0);
    assert!(!build_frame(&pose, &camera, 320, 240).shapes.is_empty());
    scene
}

/// fuzz/artifacts/pipeline/oom-abc77d40: a pass with 126 bounces slowed the tempo until one
/// loop lasted hours and the hand paths' waypoints exhausted memory. Bounces are capped at
/// `MAX_BOUNCES`, so the same pattern animates at a sane tempo.
#[test]
fn a_throw_with_126_bounces_animates_at_a_bounded_tempo() {
    let pattern = format!("<4P2|5P|5P1><4P2|5P{}|5P1>", "B".repeat(126));
    let scene = pipeline(&pattern, 1.0);
    let eight = pipeline("<4P2|5P|5P1><4P2|5PBBBBBBBB|5P1>", 1.0);
    assert_eq!(
        scene.timing().bps,
        eight.timing().bps,
        "more than 8 B bounce 8 times"
    );
    assert!(
        scene.loop_duration() < 600.0,
        "loop {} s",
        scene.loop_duration()
    );
}

/// Juggling Lab's list "basic_solo", `[34]1` at 3.5 beats a second with its hands: a ring
/// held 0.196 s leaned over the whole hold, and the lean's window, bounded by `clamp` between
/// the hold's start and end less the easing, met bounds that had rounded past each other and
/// panicked building the scene. The window is bounded with `max` and `min` now.
#[test]
fn a_lean_over_a_whole_short_hold_builds() {
    let spec = PatternSpec::parse("pattern=[34]1;bps=3.5;hands=(10)(32.5).;prop=ring")
        .expect("a settings string");
    let scene = Scene::new(&spec).expect("valid pattern");
    for k in 0..100 {
        let pose = scene.pose_at(k as f64 * scene.loop_duration() / 100.0);
        assert!(pose
            .props
            .iter()
            .all(|p| p.position.is_finite() && p.axis.is_finite()));
    }
}
