//! JIF files (`files::jif`): any text loads or is refused with an error naming its JSON path;
//! what loads (completed as passist completes a file, budget checked before unrolling) animates
//! without NaN at any time.
#![no_main]

use juggler::files::{read_str, FileKind};
use juggler::scene::Scene;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(patterns) = read_str(text, FileKind::Jif, "fuzz.jif") else { return };
    for p in patterns {
        assert_eq!(p.spec.settings.check(), Ok(()), "{:?}", p.spec.settings);
        let Ok(scene) = Scene::new(&p.spec) else { continue };
        for t in [0.0, 0.43, 5.1] {
            let pose = scene.pose_at(t);
            assert!(pose.props.iter().all(|prop| prop.position.is_finite()), "t={t}");
        }
    }
});
