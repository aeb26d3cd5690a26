//! TOML pattern files: any text loads or is refused with a located error, in time linear in
//! its size; every pattern that loads has its settings inside their documented ranges and can
//! be animated without NaN when its siteswap is valid and small.
#![no_main]

use juggler::files::{read_str, FileKind};
use juggler::scene::Scene;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(patterns) = read_str(text, FileKind::Toml, "fuzz.toml") else { return };
    for p in patterns {
        assert!(!p.spec.source.text().trim().is_empty());
        assert_eq!(p.spec.settings.check(), Ok(()), "{:?}", p.spec.settings);
        assert!(p.at.line >= 1 && p.at.column >= 1);
        let Ok(scene) = Scene::new(&p.spec) else { continue };
        if scene.schedule().map_or(0, |s| s.period) > 64 {
            continue;
        }
        let pose = scene.pose_at(1.25);
        assert!(pose.props.iter().all(|prop| prop.position.is_finite()));
    }
});
