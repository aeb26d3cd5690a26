//! Writing a pattern as event-based JML (Juggling Lab's format, version 3 as Juggling Lab
//! 1.6.6 writes it): `<setup>`, `<prop>`s, one `<symmetry type="delay">` over one hand period
//! (the time after which the hands repeat) with the permutation of the props over it and,
//! inside that period, an `<event>` for every throw and catch (with the props the hand holds
//! meanwhile), plus a `<position>` per juggler.
//!
//! Coordinates are Juggling Lab's: centimetres; an event's `x` is to the juggler's right, `y`
//! forward from the hand plane, `z` up from it (the hand plane is juggler's
//! `HAND_PLANE_Y`/`HAND_PLANE_Z`); a position's `x`,`y` lie on the floor (juggler's world
//! x = -x, z = y) and its `angle` is the juggler's facing in degrees. Times are seconds.
//!
//! The events are where juggler's own motion puts the hands (`Motion::hand_path_at`: the
//! hands' paths, without the flight lanes a hand carries its balls in, which a read-back
//! lanes again) at the release and catch times of every flight, so Juggling Lab animates the
//! same throws and catches at the same places and times. A pattern defined by JML events already is written
//! as its own events (settings given beside it, such as another prop kind, are not written).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write as _;

use crate::motion::{HAND_PLANE_Y, HAND_PLANE_Z};
use crate::scene::Scene;
use crate::schedule::ThrowKind;
use crate::spec::{EventFormat, PatternSource};
use crate::types::{Hand, HandRef, PropKind, Rgba};

/// Times closer than this (seconds) are one event.
const SAME_TIME: f64 = 1e-6;

/// One flight of one prop, in seconds (release within the loop).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct WrittenThrow {
    pub(crate) path: usize,
    pub(crate) from: HandRef,
    pub(crate) to: HandRef,
    pub(crate) release: f64,
    pub(crate) catch: f64,
    pub(crate) kind: ThrowKind,
}

/// One hand event as written.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct WrittenEvent {
    pub(crate) time: f64,
    /// Juggler-local position in Juggling Lab's centimetres (x right, y forward, z up).
    pub(crate) position: [f64; 3],
    pub(crate) throws: Vec<usize>,
    pub(crate) catches: Vec<usize>,
    pub(crate) holds: Vec<usize>,
}

/// The events of one pattern over one hand period, per hand slot (`HandRef::slot`).
#[derive(Clone, Debug)]
pub(crate) struct JmlEvents {
    /// Seconds after which the hands repeat (the JML `delay` symmetry): the events lie in
    /// `[0, period)`.
    pub(crate) period: f64,
    /// The JML `pperm` of that symmetry, 0-based: one period later, what prop `p` did prop
    /// `pperm[p]` does.
    pub(crate) pperm: Vec<usize>,
    /// Every flight released within one loop.
    pub(crate) throws: Vec<WrittenThrow>,
    pub(crate) hands: Vec<Vec<WrittenEvent>>,
}

fn slot(h: HandRef) -> usize {
    h.slot()
}

/// Every flight of every prop that the events of `[0, period)` throw or catch (releases
/// reduced into the loop `[0, loop)`), from the motion: sampled from the longest flight
/// before the period to its end, so the work is linear in the period's events, not in the
/// loop's length.
fn flights(scene: &Scene, period: f64) -> Vec<WrittenThrow> {
    let motion = scene.motion();
    let schedule = scene.schedule();
    let loop_seconds = scene.loop_duration();
    let bps = motion.bps();
    // Sampled finely enough to meet every flight (the shortest last a good part of a beat);
    // each flight found carries its exact release and catch times.
    let step = (1.0 / (bps * 40.0)).min(loop_seconds / 64.0);
    // No flight lasts longer than its value in beats (a siteswap); else the whole loop.
    let longest = schedule.map_or(loop_seconds, |s| (f64::from(s.max_throw) + 1.0) / bps);
    let from = -longest.min(loop_seconds) - step;
    let samples = ((period + 2.0 * step - from) / step).ceil() as usize + 1;
    // Which kind each schedule throw is, by thrower, value and beat.
    let kinds: HashMap<(usize, u32, u32), ThrowKind> = schedule
        .map(|schedule| {
            schedule
                .throws
                .iter()
                .map(|t| ((t.from.slot(), t.value, t.beat), t.kind))
                .collect()
        })
        .unwrap_or_default();
    // Per path, the releases met so far (in microseconds, within the loop).
    let ticks = |t: f64| (t / SAME_TIME).round() as i64;
    let loop_ticks = ticks(loop_seconds).max(1);
    let mut seen: Vec<HashSet<i64>> = vec![HashSet::new(); motion.prop_count()];
    let mut out: Vec<WrittenThrow> = Vec::new();
    for k in 0..samples {
        let t = from + k as f64 * step;
        let state = motion.state_at(t);
        for (path, prop) in state.props.iter().enumerate() {
            let Some(f) = prop.flight else { continue };
            let release = f.release.rem_euclid(loop_seconds);
            let tick = ticks(release);
            let known = &mut seen[path];
            if [-1, 0, 1]
                .iter()
                .any(|d| known.contains(&(tick + d).rem_euclid(loop_ticks)))
            {
                continue;
            }
            known.insert(tick.rem_euclid(loop_ticks));
            // The schedule throw it is: same thrower and value, nearest beat.
            let beat = (f.release * bps).round() as i64;
            let kind = schedule
                .and_then(|schedule| {
                    let period = i64::from(schedule.period.max(1));
                    [0i64, -1, 1].iter().find_map(|d| {
                        let b = (beat + d).rem_euclid(period) as u32;
                        kinds.get(&(f.from.slot(), f.value, b)).copied()
                    })
                })
                .unwrap_or(ThrowKind::Toss);
            out.push(WrittenThrow {
                path,
                from: f.from,
                to: f.to,
                release,
                catch: release + (f.catch - f.release),
                kind,
            });
        }
    }
    out.sort_by(|a, b| a.release.total_cmp(&b.release).then(a.path.cmp(&b.path)));
    out
}

/// A hand's juggler-local position at `t`, in Juggling Lab's centimetres.
fn jl_position(scene: &Scene, hand: HandRef, t: f64) -> [f64; 3] {
    let world = scene.motion().hand_path_at(hand, t).position;
    let local = scene.motion().placement_at(hand.juggler, t).to_local(world);
    let round = |v: f64| (v * 1e4).round() / 1e4;
    [
        round(-f64::from(local.x) * 100.0),
        round((f64::from(local.z) - HAND_PLANE_Z) * 100.0),
        round((f64::from(local.y) - HAND_PLANE_Y) * 100.0),
    ]
}

/// What every prop does one hand period later: `perm[p]` is the prop that, `period` seconds
/// after any time, is where prop `p` was (found from the motion itself, at a few times).
/// Candidates are the props within a centimetre one period later (a grid of cells), so the
/// work is linear in the props; the nearest of all is taken when none is that close.
fn period_permutation(scene: &Scene, period: f64) -> Vec<usize> {
    const CELL: f32 = 0.01;
    let motion = scene.motion();
    let n = motion.prop_count();
    let times: Vec<f64> = (0..7).map(|k| period * (k as f64 + 0.37) / 7.0).collect();
    let now: Vec<_> = times.iter().map(|&t| motion.state_at(t)).collect();
    let later: Vec<_> = times.iter().map(|&t| motion.state_at(t + period)).collect();
    let cell = |p: glam::Vec3| {
        let c = (p / CELL).floor();
        (c.x as i64, c.y as i64, c.z as i64)
    };
    let mut grid: HashMap<(i64, i64, i64), Vec<usize>> = HashMap::new();
    if let Some(first) = later.first() {
        for (q, prop) in first.props.iter().enumerate() {
            grid.entry(cell(prop.position)).or_default().push(q);
        }
    }
    let mut taken = vec![false; n];
    (0..n)
        .map(|a| {
            let miss = |q: usize| -> f32 {
                now.iter()
                    .zip(&later)
                    .map(|(x, y)| x.props[a].position.distance(y.props[q].position))
                    .sum()
            };
            let nearest = |candidates: &mut dyn Iterator<Item = usize>| {
                candidates
                    .filter(|&q| !taken[q])
                    .min_by(|&x, &y| miss(x).total_cmp(&miss(y)).then(x.cmp(&y)))
            };
            let near = now.first().and_then(|first| {
                let (x, y, z) = cell(first.props[a].position);
                let mut around = (-1..=1).flat_map(|dx| {
                    (-1..=1).flat_map(move |dy| (-1..=1).map(move |dz| (x + dx, y + dy, z + dz)))
                });
                let mut candidates = around
                    .by_ref()
                    .filter_map(|c| grid.get(&c))
                    .flatten()
                    .copied();
                nearest(&mut candidates)
            });
            let q = near.or_else(|| nearest(&mut (0..n))).unwrap_or(a);
            taken[q] = true;
            q
        })
        .collect()
}

/// The events of `scene` over one hand period.
pub(crate) fn events(scene: &Scene) -> JmlEvents {
    let loop_seconds = scene.loop_duration();
    let hand_period = scene.motion().hand_period();
    // One hand period, or the whole loop if the motion's period does not divide it.
    let copies = loop_seconds / hand_period;
    let period = if hand_period > 0.0 && (copies - copies.round()).abs() < 1e-6 {
        hand_period
    } else {
        loop_seconds
    };
    let pperm = if period < loop_seconds {
        period_permutation(scene, period)
    } else {
        (0..scene.motion().prop_count()).collect()
    };
    let throws = flights(scene, period);
    let jugglers = scene.motion().jugglers();
    let mut hands: Vec<Vec<WrittenEvent>> = vec![Vec::new(); jugglers * 2];
    let mut index: Vec<HashMap<i64, Vec<usize>>> = vec![HashMap::new(); jugglers * 2];
    let mut add = |hand: HandRef, time: f64, throw: Option<usize>, catch: Option<usize>| {
        let mut time = time.rem_euclid(loop_seconds);
        if loop_seconds - time < SAME_TIME {
            time = 0.0;
        }
        // Events after the first period repeat those in it (paths permuted by `pperm`).
        if time >= period - SAME_TIME {
            return;
        }
        // Times within SAME_TIME are one event (found among neighbouring microseconds).
        let events = &mut hands[slot(hand)];
        let at = &mut index[slot(hand)];
        let tick = (time / SAME_TIME).floor() as i64;
        let found = (tick - 1..=tick + 1)
            .filter_map(|k| at.get(&k))
            .flatten()
            .copied()
            .find(|&i: &usize| (events[i].time - time).abs() < SAME_TIME);
        let i = match found {
            Some(i) => i,
            None => {
                events.push(WrittenEvent {
                    time,
                    ..WrittenEvent::default()
                });
                at.entry(tick).or_default().push(events.len() - 1);
                events.len() - 1
            }
        };
        events[i].throws.extend(throw);
        events[i].catches.extend(catch);
    };
    for t in &throws {
        add(t.from, t.release, Some(t.path), None);
        add(t.to, t.catch, None, Some(t.path));
    }
    // Juggling Lab wants events for every hand: an idle hand gets one without transitions
    // (holding whatever it holds) where the motion rests it.
    for events in hands.iter_mut().filter(|e| e.is_empty()) {
        events.push(WrittenEvent::default());
    }
    for events in hands.iter_mut() {
        events.sort_by(|a, b| a.time.total_cmp(&b.time));
    }
    // Events of all hands in order of time: the motion's state is computed once per distinct
    // time (jugglers in step share them), with the props each hand holds then.
    let mut order: Vec<(f64, usize, usize)> = hands
        .iter()
        .enumerate()
        .flat_map(|(s, events)| events.iter().enumerate().map(move |(i, e)| (e.time, s, i)))
        .collect();
    order.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    for group in order.chunk_by(|a, b| a.0 == b.0) {
        let time = group[0].0;
        let state = scene.motion().state_at(time);
        let mut held: HashMap<usize, Vec<usize>> = HashMap::new();
        for (path, prop) in state.props.iter().enumerate() {
            if let Some(by) = prop.held_by {
                held.entry(by.slot()).or_default().push(path);
            }
        }
        for &(_, s, i) in group {
            let hand = HandRef::from_slot(s);
            let e = &mut hands[s][i];
            e.position = jl_position(scene, hand, e.time);
            // Props thrown or caught together are listed in the order the motion spreads
            // them along the juggler's left-right axis, which is the order the reader
            // spreads them in.
            let placement = scene.motion().placement_at(hand.juggler, e.time);
            let across = |path: &usize| {
                state
                    .props
                    .get(*path)
                    .map_or(0.0, |p| placement.to_local(p.position).x)
            };
            e.throws.sort_by(|a, b| across(a).total_cmp(&across(b)));
            e.catches.sort_by(|a, b| across(a).total_cmp(&across(b)));
            // Props in this hand that it neither throws nor catches now.
            for &path in held.get(&s).map_or(&[][..], Vec::as_slice) {
                if !e.throws.contains(&path) && !e.catches.contains(&path) {
                    e.holds.push(path);
                }
            }
        }
    }
    JmlEvents {
        period,
        pperm,
        throws,
        hands,
    }
}

fn escape(text: &str) -> String {
    crate::text::escape_xml(text)
}

/// A number as JML writes it: at most 4 decimals, no trailing zeros, never `-0`.
fn num(v: f64) -> String {
    let r = (v * 1e4).round() / 1e4;
    let r = if r == 0.0 { 0.0 } else { r };
    let mut s = format!("{r:.4}");
    while s.ends_with('0') {
        s.pop();
    }
    if s.ends_with('.') {
        s.pop();
    }
    s
}

/// A time in seconds as written: to the microsecond (Juggling Lab reads any precision; the
/// loop of a pattern read back must match its events closely).
fn time(v: f64) -> String {
    let r = (v * 1e6).round() / 1e6;
    let r = if r == 0.0 { 0.0 } else { r };
    let mut s = format!("{r:.6}");
    while s.ends_with('0') {
        s.pop();
    }
    if s.ends_with('.') {
        s.pop();
    }
    s
}

/// A 0-based permutation in Juggling Lab's 1-based cycle notation, `(1,2,3)(4)`.
fn cycles(perm: &[usize]) -> String {
    let mut seen = vec![false; perm.len()];
    let mut out = String::new();
    for start in 0..perm.len() {
        if seen[start] {
            continue;
        }
        let mut items = Vec::new();
        let mut p = start;
        while !seen[p] {
            seen[p] = true;
            items.push((p + 1).to_string());
            p = perm[p].min(perm.len() - 1);
        }
        let _ = write!(out, "({})", items.join(","));
    }
    out
}

fn prop_type(kind: PropKind) -> &'static str {
    match kind {
        PropKind::Ball => "ball",
        PropKind::Ring => "ring",
        // Juggling Lab 1.6.6 draws clubs as images only; balls keep the pattern readable.
        PropKind::Club => "ball",
    }
}

fn hand_name(h: HandRef) -> String {
    format!(
        "{}:{}",
        h.juggler + 1,
        if h.hand == Hand::Left {
            "left"
        } else {
            "right"
        }
    )
}

/// The JML text of a built scene, or why JML cannot hold it: a throw's own spins (`3~2`,
/// juggler's notation) have no place in a JML throw (Juggling Lab turns clubs by its own
/// rule), so they are refused rather than dropped. What `tojml`, `convert` and the web page
/// write.
pub fn write_checked(scene: &Scene) -> Result<String, super::ConvertError> {
    if let Some(schedule) = scene.schedule() {
        if let Some(t) = schedule.throws.iter().find(|t| t.spins.is_some()) {
            return Err(super::ConvertError::Modifier {
                name: scene.spec().name.clone(),
                modifier: format!("~{}", t.spins.unwrap_or(0)),
                beat: t.beat / schedule.subdivision.max(1) + 1,
                format: "JML",
            });
        }
    }
    Ok(write(scene))
}

/// The JML text of a built scene (spins of `~N` left to Juggling Lab's rule; see
/// [`write_checked`]).
pub fn write(scene: &Scene) -> String {
    // A pattern that is events already (read from Juggling Lab's JML) is written as those
    // events: its holding waypoints, bounce modifiers and turns are kept exactly.
    if let PatternSource::Events(events) = &scene.spec().source {
        match events.format {
            EventFormat::Jml => return with_doctype(&events.text),
            // Written from its motion, as a siteswap's is.
            EventFormat::Jif => {}
        }
    }
    let ev = events(scene);
    let spec = scene.spec();
    let paths = scene.motion().prop_count();
    let jugglers = scene.motion().jugglers();
    // One <prop> per distinct colour, in order of first use.
    let pose = scene.pose_at(0.0);
    let mut colors: Vec<Rgba> = Vec::new();
    let assignment: Vec<usize> = pose
        .props
        .iter()
        .map(|p| match colors.iter().position(|c| *c == p.color) {
            Some(i) => i + 1,
            None => {
                colors.push(p.color);
                colors.len()
            }
        })
        .collect();
    let mut x = String::new();
    x.push_str("<?xml version=\"1.0\"?>\n<!DOCTYPE jml SYSTEM \"file://jml.dtd\">\n");
    x.push_str("<jml version=\"3\">\n<pattern>\n");
    let _ = writeln!(x, "<title>{}</title>", escape(&spec.name));
    let ptype = prop_type(spec.settings.prop);
    for c in &colors {
        let _ = writeln!(
            x,
            "<prop type=\"{ptype}\" mod=\"color={{{},{},{}}}\"/>",
            c.r, c.g, c.b
        );
    }
    let props: Vec<String> = assignment.iter().map(usize::to_string).collect();
    let _ = writeln!(
        x,
        "<setup jugglers=\"{jugglers}\" paths=\"{paths}\" props=\"{}\"/>",
        props.join(",")
    );
    let _ = writeln!(
        x,
        "<symmetry type=\"delay\" pperm=\"{}\" delay=\"{}\"/>",
        cycles(&ev.pperm),
        time(ev.period)
    );
    // Each juggler's keyframes (one for a juggler who stands still), repeated over the period.
    for j in 0..jugglers {
        let path = scene.motion().juggler_path(j);
        let repeats = if path.keys.len() > 1 && path.period > 0.0 {
            (ev.period / path.period).round().max(1.0) as usize
        } else {
            1
        };
        for r in 0..repeats {
            for (t, placement) in &path.keys {
                let t = if path.keys.len() > 1 {
                    t + r as f64 * path.period
                } else {
                    0.0
                };
                let _ = writeln!(
                    x,
                    "<position x=\"{}\" y=\"{}\" z=\"100\" t=\"{}\" angle=\"{}\" juggler=\"{}\"/>",
                    num(-f64::from(placement.position.x) * 100.0),
                    num(f64::from(placement.position.z) * 100.0),
                    time(t),
                    num(f64::from(placement.facing).to_degrees()),
                    j + 1
                );
            }
        }
    }
    let gravity = scene.timing().gravity;
    // Each path's flights, in order of release.
    let mut throws_of: HashMap<usize, Vec<usize>> = HashMap::new();
    for (i, t) in ev.throws.iter().enumerate() {
        throws_of.entry(t.path).or_default().push(i);
    }
    let mut all: BTreeMap<(u64, usize), String> = BTreeMap::new();
    for (s, events) in ev.hands.iter().enumerate() {
        let hand = HandRef::from_slot(s);
        for e in events {
            let mut body = String::new();
            for &p in &e.throws {
                let of_path = throws_of.get(&p).map_or(&[][..], Vec::as_slice);
                let t = of_path
                    .iter()
                    .map(|&i| &ev.throws[i])
                    .find(|t| (t.release - e.time).abs() < 1e-6)
                    .or_else(|| of_path.first().map(|&i| &ev.throws[i]));
                let mut mods: Vec<String> = Vec::new();
                let kind = match t.map(|t| t.kind) {
                    Some(ThrowKind::Bounce {
                        bounces,
                        forced,
                        hyper,
                    }) => {
                        mods.push(format!("bounces={bounces}"));
                        if forced {
                            mods.push("forced=true".into());
                        }
                        if hyper {
                            mods.push("hyper=true".into());
                        }
                        if let Some(energy) = spec.settings.bounce_energy {
                            mods.push(format!("bouncefrac={}", num(energy)));
                        }
                        "bounce"
                    }
                    _ => "toss",
                };
                if (gravity - 9.81).abs() > 1e-9 {
                    mods.push(format!("g={}", num(gravity * 100.0)));
                }
                let m = if mods.is_empty() {
                    String::new()
                } else {
                    format!(" mod=\"{}\"", mods.join(";"))
                };
                let _ = writeln!(body, "<throw path=\"{}\" type=\"{kind}\"{m}/>", p + 1);
            }
            for &p in &e.catches {
                let _ = writeln!(body, "<catch path=\"{}\"/>", p + 1);
            }
            for &p in &e.holds {
                let _ = writeln!(body, "<holding path=\"{}\"/>", p + 1);
            }
            let [ex, ey, ez] = e.position;
            let text = format!(
                "<event x=\"{}\" y=\"{}\" z=\"{}\" t=\"{}\" hand=\"{}\">\n{body}</event>\n",
                num(ex),
                num(ey),
                num(ez),
                time(e.time),
                hand_name(hand)
            );
            all.insert(((e.time * 1e6).round() as u64, s), text);
        }
    }
    for text in all.values() {
        x.push_str(text);
    }
    x.push_str("</pattern>\n</jml>\n");
    x
}

/// A JML text with the XML declaration and document type Juggling Lab wants before `<jml>`.
fn with_doctype(text: &str) -> String {
    let text = text.trim();
    let mut out = String::with_capacity(text.len() + 96);
    if !text.starts_with("<?xml") {
        out.push_str("<?xml version=\"1.0\"?>\n");
    }
    if !text.contains("<!DOCTYPE") {
        if let Some(at) = text.find("<jml") {
            out.push_str(&text[..at]);
            out.push_str("<!DOCTYPE jml SYSTEM \"file://jml.dtd\">\n");
            out.push_str(&text[at..]);
            out.push('\n');
            return out;
        }
    }
    out.push_str(text);
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::PatternSpec;

    fn scene(text: &str) -> Scene {
        scene_of(&PatternSpec::parse(text).unwrap())
    }

    fn scene_of(spec: &PatternSpec) -> Scene {
        Scene::new(spec).unwrap()
    }

    #[test]
    fn cascade_events_at_the_motion_s_hands() {
        let s = scene("3");
        let ev = events(&s);
        // 3 balls over a loop of 6 beats at 2.9 bps: 6 throws, each caught.
        let loop_seconds = s.loop_duration();
        assert!((loop_seconds - 6.0 / 2.9).abs() < 1e-9, "{loop_seconds}");
        assert_eq!(ev.throws.len(), 6);
        for t in &ev.throws {
            assert!(t.release >= 0.0 && t.release < loop_seconds);
            // A 3 is in the air 3 beats less the dwell (1.3 beats): 1.7 beats.
            assert!(((t.catch - t.release) * 2.9 - 1.7).abs() < 1e-6, "{t:?}");
            assert_ne!(t.from.hand, t.to.hand);
        }
        // The events cover one hand period (2 beats: one throw per hand); one period later
        // prop 1 does what prop 0 did, 2 what 1 did, 0 what 2 did.
        assert!((ev.period - 2.0 / 2.9).abs() < 1e-9, "{}", ev.period);
        assert_eq!(ev.pperm, [1, 2, 0]);
        let total: usize = ev.hands.iter().flatten().map(|e| e.throws.len()).sum();
        assert_eq!(total, 2);
        assert!(ev.hands.iter().flatten().all(|e| e.time < ev.period));
        for (s_i, events) in ev.hands.iter().enumerate() {
            let hand = HandRef {
                juggler: 0,
                hand: if s_i == 0 { Hand::Left } else { Hand::Right },
            };
            for e in events {
                let p = jl_position(&s, hand, e.time);
                assert_eq!(p, e.position);
                // Juggling Lab's x is to the juggler's right: the right hand works at x > 0.
                assert_eq!(e.position[0] > 0.0, hand.hand == Hand::Right, "{e:?}");
            }
        }
    }

    #[test]
    fn written_text_has_setup_symmetry_and_every_path() {
        let text = write(&scene_of(
            &PatternSpec::parse("pattern=<3p|3p>;title=A & B").unwrap(),
        ));
        assert!(text.contains("<title>A &amp; B</title>"));
        assert!(text.contains("<setup jugglers=\"2\" paths=\"6\" props=\"1,2,3,4,5,6\"/>"));
        // One hand period (2 beats at 2.9 bps) with each juggler's three props cycling.
        assert!(
            text.contains("<symmetry type=\"delay\" pperm=\"(1,2,3)(4,5,6)\" delay=\"0.689655\"/>")
        );
        assert_eq!(text.matches("<position ").count(), 2);
        // Each hand throws once in the period; every prop appears in it (thrown, caught or
        // held).
        assert_eq!(text.matches("<throw ").count(), 4);
        assert_eq!(text.matches("<catch ").count(), 4);
        for p in 1..=6 {
            assert!(text.contains(&format!(" path=\"{p}\"")), "path {p}");
        }
        assert!(text.contains("hand=\"2:left\""));
    }

    #[test]
    fn bounces_and_gravity_are_modifiers() {
        let text = write(&scene_of(
            &PatternSpec::parse("pattern=3B;gravity=490").unwrap(),
        ));
        assert!(
            text.contains("type=\"bounce\" mod=\"bounces=1;g=490\""),
            "{text}"
        );
        let text = write(&scene_of(&PatternSpec::parse("5BBF").unwrap()));
        assert!(text.contains("mod=\"bounces=2;forced=true\""), "{text}");
        // A settings string's bouncefrac goes with every bounce.
        let text = write(&scene_of(
            &PatternSpec::parse("pattern=3B;bouncefrac=1.5").unwrap(),
        ));
        assert!(
            text.contains("type=\"bounce\" mod=\"bounces=1;bouncefrac=1.5\""),
            "{text}"
        );
    }

    #[test]
    fn idle_hands_get_one_event() {
        // 534 with hand pattern 3: juggler 2's left hand never throws or catches.
        let ev = events(&scene("pattern=534;hss=3"));
        let idle = &ev.hands[2];
        assert_eq!(idle.len(), 1);
        assert!(idle[0].throws.is_empty() && idle[0].catches.is_empty());
        assert_eq!(idle[0].time, 0.0);
        // Juggler 2's right hand throws its own 3 every 3 beats.
        assert!(ev.hands[3].iter().all(|e| e.throws.len() <= 1));
        // One beat in three is juggler 2's.
        let second = ev.throws.iter().filter(|t| t.from.juggler == 1).count();
        assert_eq!(second * 3, ev.throws.len());
    }

    #[test]
    fn permutations_are_written_as_cycles() {
        assert_eq!(cycles(&[1, 2, 0, 3]), "(1,2,3)(4)");
        assert_eq!(cycles(&[0, 1]), "(1)(2)");
        assert_eq!(cycles(&[]), "");
        assert_eq!(time(2.0 / 2.9), "0.689655");
        assert_eq!(time(1.5), "1.5");
    }

    #[test]
    fn numbers_are_short() {
        assert_eq!(num(-0.00001), "0");
        assert_eq!(num(12.5), "12.5");
        assert_eq!(num(1.0 / 3.0), "0.3333");
        assert_eq!(num(-20.0), "-20");
    }
}
