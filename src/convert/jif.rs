//! JIF written (the Juggling Interchange Format, passist's JSON; the reader is `files::jif`):
//! complete, so passist needs nothing filled in.
//!
//! One `throws` entry per throw of the loop: `time` and `duration` in the schedule's beats,
//! `timeStretchFactor` of them per beat of a juggler (fine beats of Prechac notation and
//! k-handed siteswaps: the four-handed `7` has 2), limbs all right hands then all left hands
//! (passist's order), jugglers where the scene places them looking ahead, one prop per prop
//! with its colour and the id it has at each throw. The schedule's period is repeated until
//! every prop is back where it started, so the repetition's permutations are the identity.
//! The animation's timing travels in a `juggler` object passist ignores (`beatsPerSecond`
//! and `dwell` per beat of a juggler, `gravity` in m/s²), so reading the file back gives the
//! same motion.

use serde_json::{json, Value};

use super::ConvertError;
use crate::scene::Scene;
use crate::spec::{EventFormat, PatternSource};
use crate::types::{Hand, HandRef};

/// Most throws a written file lists (the loop until props return, all jugglers).
const MAX_WRITTEN: u128 = crate::budget::THROWS.max as u128;

/// The limb index of a hand: all right hands first, then all left hands.
fn limb(hand: HandRef, jugglers: usize) -> usize {
    match hand.hand {
        Hand::Right => hand.juggler,
        Hand::Left => jugglers + hand.juggler,
    }
}

/// Rounds to a millimetre (and to 1e-9 of a beat for times), so files read well.
fn round(x: f64, places: i32) -> f64 {
    let scale = 10f64.powi(places);
    let r = (x * scale).round() / scale;
    if r == 0.0 {
        0.0
    } else {
        r
    }
}

/// The scene's pattern as JIF text.
pub fn write(scene: &Scene) -> Result<String, ConvertError> {
    let spec = scene.spec();
    // A JIF file's pattern is written from its throws again (completed); other patterns of
    // events have no schedule.
    let from_file = match &spec.source {
        PatternSource::Events(events) if events.format == EventFormat::Jif => {
            crate::files::jif::parse(&events.text)
                .and_then(|jif| jif.complete())
                .and_then(|complete| Ok((complete.schedule()?, complete.timing())))
                .ok()
        }
        _ => None,
    };
    // The schedule, and the timing per beat of a juggler.
    let (schedule, timing) = match (scene.schedule(), &from_file) {
        (Some(schedule), _) => {
            let sub = f64::from(schedule.subdivision.max(1));
            let t = scene.timing();
            let timing = crate::files::jif::JifTiming {
                beats_per_second: t.bps / sub,
                dwell: t.dwell / sub,
                gravity: t.gravity,
            };
            (schedule, timing)
        }
        (None, Some((schedule, timing))) => (schedule, *timing),
        (None, None) => {
            return Err(ConvertError::NoSiteswap {
                name: spec.name.clone(),
                format: "JIF",
            })
        }
    };
    // JIF throws have a time, duration, limbs, prop and spins: a bounce or hold modifier
    // would be lost (`convert 5B --out x.jif` wrote a plain 5), so it is refused.
    if let Some(t) = schedule.throws.iter().find(|t| {
        matches!(t.kind, crate::schedule::ThrowKind::Bounce { .. })
            || t.modifier
                .chars()
                .any(|c| !matches!(c, 'x' | 'X' | 'p' | 'P'))
    }) {
        return Err(ConvertError::Modifier {
            name: spec.name.clone(),
            modifier: t.modifier.clone(),
            beat: t.beat / schedule.subdivision.max(1) + 1,
            format: "JIF",
        });
    }
    let jugglers = schedule.jugglers;
    let sub = schedule.subdivision.max(1);
    // Periods until every prop is back where it started: the orbits' prop counts' lcm.
    let copies = schedule.orbits.iter().fold(1u64, |acc, o| {
        crate::notation::prechac::lcm(acc, o.props.max(1) as u64)
    });
    let count = u128::from(copies) * schedule.throws.len() as u128;
    if count > MAX_WRITTEN {
        return Err(ConvertError::TooLarge {
            name: spec.name.clone(),
            throws: count,
        });
    }
    let period = u64::from(schedule.period);
    // Throw occurrences in time order over `copies` periods, each with its prop: the prop of
    // the occurrence that threw it to here, or a new one for those in hand or air at time 0.
    let mut occurrences: Vec<(u64, usize)> = (0..copies)
        .flat_map(|c| (0..schedule.throws.len()).map(move |i| (c, i)))
        .map(|(c, i)| (c * period + u64::from(schedule.throws[i].beat), i))
        .collect();
    occurrences.sort();
    let mut prop_at: std::collections::HashMap<(u64, usize), usize> =
        std::collections::HashMap::with_capacity(occurrences.len());
    let mut props = 0usize;
    // Per prop of the file, the scene's prop it is (found by its first throw in the motion).
    let mut scene_prop: Vec<Option<usize>> = Vec::new();
    let fine_bps = timing.beats_per_second * f64::from(sub);
    let mut throws = Vec::with_capacity(occurrences.len());
    for &(time, i) in &occurrences {
        let t = &schedule.throws[i];
        let prop = match prop_at.remove(&(time, i)) {
            Some(p) => p,
            None => {
                props += 1;
                scene_prop.push(scene.motion().prop_making(i, time as f64 / fine_bps));
                props - 1
            }
        };
        let lands = time + u64::from(t.value);
        let total = copies * period;
        prop_at.insert((lands % total, t.next), prop);
        let mut entry = json!({
            "time": time,
            "duration": t.value,
            "from": limb(t.from, jugglers),
            "to": limb(t.to, jugglers),
            "prop": prop,
        });
        if let Some(spins) = t.spins {
            entry["spins"] = json!(spins);
        }
        throws.push(entry);
    }
    let layout = scene.layout();
    let jugglers_json: Vec<Value> = (0..jugglers)
        .map(|j| {
            let p = layout.jugglers.get(j).copied().unwrap_or(crate::layout::Placement {
                position: glam::Vec3::ZERO,
                facing: 0.0,
            });
            let ahead = p.position + p.forward();
            json!({
                "name": crate::files::jif::juggler_name(j),
                "position": [round(f64::from(p.position.x), 3), 0.0, round(f64::from(p.position.z), 3)],
                "lookAt": [round(f64::from(ahead.x), 3), 0.0, round(f64::from(ahead.z), 3)],
            })
        })
        .collect();
    let limbs: Vec<Value> = [Hand::Right, Hand::Left]
        .iter()
        .flat_map(|&hand| {
            (0..jugglers).map(move |j| {
                json!({
                    "juggler": j,
                    "type": if hand == Hand::Right { "right hand" } else { "left hand" },
                })
            })
        })
        .collect();
    let pose = scene.pose_at(0.0);
    let props_json: Vec<Value> = (0..props)
        .map(|p| {
            let index = scene_prop
                .get(p)
                .copied()
                .flatten()
                .unwrap_or(p % pose.props.len().max(1));
            let (kind, color) = pose.props.get(index).map_or(
                (spec.settings.prop, crate::types::Rgba::rgb(192, 57, 43)),
                |prop| (prop.kind, prop.color),
            );
            let color = format!("#{:02x}{:02x}{:02x}", color.r, color.g, color.b);
            json!({ "type": kind.name(), "color": color })
        })
        .collect();
    let doc = json!({
        "meta": { "name": spec.name, "generator": "juggler" },
        "timeStretchFactor": sub,
        "jugglers": jugglers_json,
        "limbs": limbs,
        "props": props_json,
        "throws": throws,
        "repetition": {
            "period": copies * period,
            "limbPermutation": (0..2 * jugglers).collect::<Vec<_>>(),
            "propPermutation": (0..props).collect::<Vec<_>>(),
        },
        "juggler": {
            "beatsPerSecond": round(timing.beats_per_second, 9),
            "dwell": round(timing.dwell, 9),
            "gravity": round(timing.gravity, 9),
        },
    });
    let mut text = crate::text::json(&doc, true);
    text.push('\n');
    Ok(text)
}
