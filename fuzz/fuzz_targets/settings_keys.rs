//! Settings keys: every key of `settings::keys::KEYS` with any value, in a settings string
//! (`pattern=3;KEY=VALUE`) and as a TOML key (`KEY = VALUE`): read or refused with a message,
//! never a panic; what is read has every number in its documented range and animates without
//! NaN, within the budget (no hang, no unbounded memory).
#![no_main]

use juggler::files::{read_str, FileKind};
use juggler::scene::Scene;
use juggler::settings::keys::KEYS;
use juggler::spec::PatternSpec;
use libfuzzer_sys::fuzz_target;

fn animate(spec: &PatternSpec) {
    assert_eq!(spec.settings.check(), Ok(()), "{:?}", spec.settings);
    let Ok(scene) = Scene::new(spec) else { return };
    let pose = scene.pose_at(0.73);
    assert!(pose.props.iter().all(|p| p.position.is_finite()));
    for juggler in &pose.jugglers {
        for arm in &juggler.arms {
            assert!(arm.elbow.is_finite() && arm.hand.is_finite());
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else { return };
    let Ok(value) = std::str::from_utf8(rest) else { return };
    let key = &KEYS[usize::from(pick) % KEYS.len()];
    // The second key lets two settings meet (hands with body, jugglers with colors, ...).
    let other = &KEYS[usize::from(pick / 7) % KEYS.len()];
    let (value, second) = value.split_once('\u{1}').unwrap_or((value, "1"));
    if let Some(name) = key.string {
        let mut text = if name == "pattern" {
            format!("pattern={value}")
        } else {
            format!("pattern=3;{name}={value}")
        };
        if let Some(o) = other.string.filter(|o| *o != "pattern" && *o != name) {
            text.push_str(&format!(";{o}={second}"));
        }
        if let Ok(spec) = PatternSpec::parse(&text) {
            animate(&spec);
        }
    }
    if let Some(name) = key.toml {
        let mut toml = if name == "siteswap" {
            format!("siteswap = {value}\n")
        } else {
            format!("siteswap = \"3\"\n{name} = {value}\n")
        };
        if let Some(o) = other.toml.filter(|o| *o != "siteswap" && *o != name) {
            toml.push_str(&format!("{o} = {second}\n"));
        }
        if let Ok(patterns) = read_str(&toml, FileKind::Toml, "fuzz.toml") {
            for p in patterns {
                assert!(p.at.line >= 1 && p.at.column >= 1);
                animate(&p.spec);
            }
        }
    }
});
