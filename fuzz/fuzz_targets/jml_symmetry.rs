//! JML symmetries and events: an event pattern of 1-4 jugglers and 1-8 paths whose
//! `<symmetry>`s, `<event>`s and `<position>`s are any text is read or refused with a
//! located error, and what is read animates without NaN, in time linear in the file (no
//! symmetry expansion loop by loop, no hang, no unbounded memory).
#![no_main]

use juggler::files::{read_str, FileKind};
use juggler::scene::Scene;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 {
        return;
    }
    let jugglers = 1 + data[0] % 4;
    let paths = 1 + data[1] % 8;
    let Ok(body) = std::str::from_utf8(&data[2..]) else { return };
    let text = format!(
        "<?xml version=\"1.0\"?>\n<jml version=\"1.2\">\n<pattern>\n\
         <setup jugglers=\"{jugglers}\" paths=\"{paths}\"/>\n{body}\n</pattern>\n</jml>\n"
    );
    let Ok(patterns) = read_str(&text, FileKind::Jml, "fuzz.jml") else { return };
    for p in patterns {
        assert!(p.at.line >= 1 && p.at.column >= 1);
        let Ok(scene) = Scene::new(&p.spec) else { continue };
        for t in [0.0, 0.31, 2.7] {
            let pose = scene.pose_at(t);
            assert!(pose.props.iter().all(|prop| prop.position.is_finite()), "t={t}");
        }
    }
});
