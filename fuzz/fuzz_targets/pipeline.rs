//! Pattern string + time -> pose -> frame description: no panic, no NaN, shapes inside reason.
#![no_main]

use juggler::render::{build_frame, Camera};
use juggler::scene::Scene;
use juggler::spec::PatternSpec;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 {
        return;
    }
    // First byte picks the time, the rest is the pattern.
    let t = f64::from(data[0]) * 0.37 - 10.0;
    let Ok(text) = std::str::from_utf8(&data[1..]) else { return };
    let Ok(scene) = Scene::new(&PatternSpec::from_notation(text)) else { return };
    if scene.schedule().is_some_and(|s| s.props > 200 || s.period > 200) {
        return;
    }
    let pose = scene.pose_at(t);
    for prop in &pose.props {
        assert!(prop.position.is_finite(), "prop position not finite at t={t}");
    }
    for juggler in &pose.jugglers {
        for arm in &juggler.arms {
            assert!(arm.elbow.is_finite() && arm.hand.is_finite(), "arm not finite at t={t}");
        }
    }
    let camera = Camera::framing(&pose, 320.0 / 240.0);
    let frame = build_frame(&pose, &camera, 320, 240);
    assert!(!frame.shapes.is_empty());
});
