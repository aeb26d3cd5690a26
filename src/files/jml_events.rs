//! Juggling Lab patterns defined by explicit events (`<pattern>` with `<setup>`,
//! `<symmetry>`, `<prop>`, `<event>` and `<position>`), read into the motion's event layer
//! (`motion::Choreography`).
//!
//! Juggling Lab's conventions (JML 1.2 and version 3 alike; 1.0 swapped y and z), in
//! centimetres and seconds: an event's `x, y, z` are in the juggler's frame with x toward the
//! juggler's right, y forward (Juggling Lab adds a 30 cm juggling-plane offset), z up from the
//! juggler's position (which is 100 cm above the floor by default); `<position x y z angle>`
//! is the juggler's place in the world (z up, angle in degrees, 0 facing +y). Here that
//! becomes juggler-local metres with x toward the left hand, y up from the floor and z forward.
//!
//! Symmetries: exactly one `delay` symmetry (the loop: after `delay` seconds every event
//! repeats with its paths permuted by `pperm`); `switch` (the same events at the same time for
//! the jugglers and hands `jperm` maps to, `*` = the other hand, x mirrored); `switchdelay`
//! (the same, a fraction of the loop later). They are expanded into the events of one loop.
//!
//! A pattern is kept as a self-contained JML text in `PatternSpec::notation` (see
//! [`is_event_notation`]); `scene::Scene::new` reads it with [`read`].
//!
//! Props a hand holds together sit side by side in lanes (`motion::lanes::spread_held_props`,
//! as juggler holds siteswap multiplexes), so juggler's own JML reads back as it animates.

use glam::{DVec3, Vec3};

use super::color::parse_color;
use super::xml::{parse_tree, Element};
use crate::layout::Placement;
use crate::motion::lanes::{spread, spread_held_props};
use crate::motion::{
    BounceMode, CatchKind, Choreography, HandEvent, JugglerPath, PathSegment, PropPath, Toss,
    TossKind,
};
use crate::types::{Hand, HandRef, PropKind, Rgba};

/// Juggling Lab's gravity, 980 cm/s², in m/s².
pub const GRAVITY: f64 = 9.8;
/// Juggling Lab's offset of the juggling plane in front of the body, cm.
const JUGGLE_PLANE_OFFSET: f64 = 30.0;
/// Juggling Lab's default height of a juggler's position above the floor, cm.
const POSITION_HEIGHT: f64 = 100.0;
/// Largest coordinate accepted, cm (1 km, as `settings::keys::POSITION` allows).
const MAX_CM: f64 = 100_000.0;
/// Loop length accepted, seconds.
const MIN_DELAY: f64 = 0.01;
const MAX_DELAY: f64 = 10_000.0;
/// Events closer than this (seconds) count as simultaneous.
const TIME_EPS: f64 = 1e-7;
/// Most paths, jugglers and events read (a guard against hostile files).
const MAX_PATHS: usize = 10_000;
const MAX_JUGGLERS: usize = 1_000;
const MAX_LOOP_EVENTS: usize = 200_000;

/// Whether a spec's notation is an event pattern (a JML text) rather than a siteswap.
pub fn is_event_notation(notation: &str) -> bool {
    let t = notation.trim_start();
    t.starts_with("<jml") || t.starts_with("<?xml")
}

/// An event pattern ready to animate.
#[derive(Clone, Debug)]
pub struct EventPattern {
    pub title: Option<String>,
    pub choreography: Choreography,
    pub jugglers: usize,
    /// Number of paths (props) as the file declares them.
    pub paths: usize,
    /// Per motion prop (in `Motion` order: per prop path, its props), the JML path (0-based)
    /// it is at time 0.
    pub prop_path: Vec<usize>,
    /// Per JML path, its prop kind and colour (`None` = the default palette).
    pub path_prop: Vec<(PropKind, Option<Rgba>)>,
    /// Throws per second of the busiest juggler, as a nominal beat rate.
    pub bps: f64,
}

/// Reads a self-contained JML text holding one event `<pattern>` (the first one).
pub fn read(text: &str) -> Result<EventPattern, String> {
    let root = parse_tree(text, "pattern").map_err(|e| e.to_string())?;
    let version = root.attr("version").unwrap_or("3").trim().to_string();
    let pattern = if root.name == "pattern" {
        &root
    } else {
        find_pattern(&root).ok_or("no <pattern> element")?
    };
    read_pattern(pattern, &version)
}

fn find_pattern(e: &Element) -> Option<&Element> {
    e.children.iter().find_map(|c| {
        if c.name == "pattern" {
            Some(c)
        } else {
            find_pattern(c)
        }
    })
}

/// A path permutation, 0-based: `map[p]` is where path `p` goes.
type Perm = Vec<usize>;

/// Juggler permutation with hand switches: juggler `j` goes to `(map[j].0, map[j].1 = switch)`.
type JPerm = Vec<(usize, bool)>;

#[derive(Clone, Debug)]
enum Trans {
    Throw {
        path: usize,
        kind: TossKind,
        /// This throw's own gravity (`g=`), m/s².
        gravity: Option<f64>,
        /// Energy kept at each bounce (`bouncefrac=`).
        bounce_energy: Option<f64>,
        /// Height of the bounce surface, m (`bounceplane=`).
        bounce_plane: Option<f64>,
    },
    Catch {
        path: usize,
        kind: CatchKind,
    },
    Holding {
        path: usize,
    },
}

#[derive(Clone, Debug)]
struct RawEvent {
    x: f64,
    y: f64,
    z: f64,
    t: f64,
    juggler: usize,
    hand: Hand,
    trans: Vec<Trans>,
}

/// A number attribute: finite, and within ±`MAX_CM` (coordinates, times and angles alike).
fn number(e: &Element, name: &str, default: Option<f64>) -> Result<f64, String> {
    match e.attr(name) {
        Some(v) => match v.trim().parse::<f64>() {
            Ok(x) if x.is_finite() && x.abs() <= MAX_CM => Ok(x),
            Ok(x) if x.is_finite() => Err(format!(
                "<{}> {name}=\"{v}\" is outside -{MAX_CM}..{MAX_CM}",
                e.name
            )),
            _ => Err(format!(
                "<{}> {name}=\"{v}\" is not a finite number",
                e.name
            )),
        },
        None => default.ok_or_else(|| format!("<{}> has no {name}=", e.name)),
    }
}

fn count(e: &Element, name: &str, default: Option<usize>, max: usize) -> Result<usize, String> {
    match e.attr(name) {
        Some(v) => match v.trim().parse::<usize>() {
            Ok(n) if (1..=max).contains(&n) => Ok(n),
            _ => Err(format!(
                "<{}> {name}=\"{v}\" is not a whole number from 1 to {max}",
                e.name
            )),
        },
        None => default.ok_or_else(|| format!("<{}> has no {name}=", e.name)),
    }
}

fn read_pattern(pattern: &Element, version: &str) -> Result<EventPattern, String> {
    let title = pattern
        .children
        .iter()
        .find(|c| c.name == "title")
        .map(|t| t.text.trim().to_string())
        .filter(|t| !t.is_empty());
    let setup = pattern
        .children
        .iter()
        .find(|c| c.name == "setup")
        .ok_or("the pattern has no <setup>")?;
    let jugglers = count(setup, "jugglers", Some(1), MAX_JUGGLERS)?;
    let paths = count(setup, "paths", None, MAX_PATHS)?;

    // Props and which prop each path carries.
    let mut props: Vec<(PropKind, Option<Rgba>)> = Vec::new();
    for p in pattern.children.iter().filter(|c| c.name == "prop") {
        let kind = match p
            .attr("type")
            .unwrap_or("ball")
            .trim()
            .to_ascii_lowercase()
            .as_str()
        {
            "club" => PropKind::Club,
            "ring" => PropKind::Ring,
            // Balls, and Juggling Lab's image props, drawn as balls.
            _ => PropKind::Ball,
        };
        // A colour Juggling Lab would read but juggler does not falls back to the palette.
        let color = p.attr("mod").and_then(prop_color).and_then(color_value);
        props.push((kind, color));
    }
    if props.is_empty() {
        props.push((PropKind::Ball, None));
    }
    let assignment: Vec<usize> = match setup.attr("props").map(str::trim) {
        Some(list) if !list.is_empty() => {
            let v: Result<Vec<usize>, String> = list
                .split(',')
                .map(|s| match s.trim().parse::<usize>() {
                    Ok(n) if (1..=props.len()).contains(&n) => Ok(n - 1),
                    _ => Err(format!(
                        "<setup> props=\"{list}\": '{}' is not a prop number from 1 to {}",
                        s.trim(),
                        props.len()
                    )),
                })
                .collect();
            let v = v?;
            if v.len() != paths {
                return Err(format!(
                    "<setup> props=\"{list}\" names {} props for {paths} paths",
                    v.len()
                ));
            }
            v
        }
        _ => vec![0; paths],
    };
    let path_prop: Vec<(PropKind, Option<Rgba>)> = assignment.iter().map(|&i| props[i]).collect();

    // Symmetries.
    let mut delay: Option<(f64, Perm)> = None;
    let mut others: Vec<(JPerm, Perm, bool)> = Vec::new();
    for s in pattern.children.iter().filter(|c| c.name == "symmetry") {
        let kind = s.attr("type").unwrap_or("").trim().to_ascii_lowercase();
        let pperm = path_perm(s.attr("pperm").ok_or("<symmetry> has no pperm=")?, paths)?;
        match kind.as_str() {
            "delay" => {
                let d = number(s, "delay", None)?;
                if !(MIN_DELAY..=MAX_DELAY).contains(&d) {
                    return Err(format!(
                        "<symmetry type=\"delay\"> delay=\"{d}\" is not between {MIN_DELAY} and {MAX_DELAY} seconds"
                    ));
                }
                if delay.is_some() {
                    return Err("more than one delay <symmetry>".into());
                }
                delay = Some((d, pperm));
            }
            "switch" | "switchdelay" => {
                let jperm =
                    juggler_perm(s.attr("jperm").ok_or("<symmetry> has no jperm=")?, jugglers)?;
                others.push((jperm, pperm, kind == "switchdelay"));
            }
            other => {
                return Err(format!(
                    "<symmetry type=\"{other}\"> is not delay, switch or switchdelay"
                ))
            }
        }
    }
    let (delay, sigma) = delay.ok_or("the pattern has no delay <symmetry> (its loop)")?;

    // Events and positions.
    let mut events = Vec::new();
    let mut positions: Vec<(usize, f64, Placement)> = Vec::new();
    for c in &pattern.children {
        match c.name.as_str() {
            "event" => events.push(raw_event(c, version, jugglers, paths)?),
            "position" => {
                let j = count(c, "juggler", Some(1), MAX_JUGGLERS)?;
                if j > jugglers {
                    return Err(format!(
                        "<position> juggler={j} but the pattern has {jugglers}"
                    ));
                }
                let (x, y) = (number(c, "x", None)?, number(c, "y", None)?);
                let z = number(c, "z", Some(POSITION_HEIGHT))?;
                let t = number(c, "t", None)?;
                let angle = number(c, "angle", Some(0.0))?;
                positions.push((j - 1, t, world_placement(x, y, z, angle)));
            }
            _ => {}
        }
    }
    if events.is_empty() {
        return Err("the pattern has no <event>".into());
    }
    let loop_events = expand(&events, &others, delay, &sigma, jugglers)?;
    build(
        loop_events,
        delay,
        &sigma,
        jugglers,
        paths,
        &positions,
        title,
        path_prop,
    )
}

/// A Juggling Lab world placement (cm, z up, degrees) as a juggler placement.
fn world_placement(x: f64, y: f64, z: f64, angle_deg: f64) -> Placement {
    Placement {
        position: Vec3::new(
            (-x / 100.0) as f32,
            ((z - POSITION_HEIGHT) / 100.0) as f32,
            (y / 100.0) as f32,
        ),
        facing: angle_deg.to_radians().rem_euclid(std::f64::consts::TAU) as f32,
    }
}

/// Juggling Lab's default placements of jugglers without `<position>`s: one at the origin,
/// several on a circle of radius 70 cm (wider when they would stand closer than 130 cm),
/// juggler `i` at angle `360 i / n` facing the centre.
fn default_placement(j: usize, jugglers: usize) -> Placement {
    if jugglers <= 1 {
        return world_placement(0.0, 0.0, POSITION_HEIGHT, 0.0);
    }
    let theta = 360.0 / jugglers as f64;
    let mut r = 70.0;
    if r * (0.5 * theta).to_radians().sin() < 65.0 {
        r = 65.0 / (0.5 * theta).to_radians().sin();
    }
    let a = (theta * j as f64).to_radians();
    world_placement(
        r * a.cos(),
        r * a.sin(),
        POSITION_HEIGHT,
        90.0 + theta * j as f64,
    )
}

/// The `color=` entry of a JML prop modifier such as `color=blue;highlight=true`.
pub(crate) fn prop_color(modifier: &str) -> Option<&str> {
    modifier.split(';').find_map(|entry| {
        let (key, value) = entry.split_once('=')?;
        key.trim()
            .eq_ignore_ascii_case("color")
            .then(|| value.trim())
    })
}

/// A prop colour: `{r,g,b}` (0-255 each) or a name / `#rrggbb` as `files::color` reads them.
fn color_value(text: &str) -> Option<Rgba> {
    let t = text.trim();
    if let Some(inner) = t.strip_prefix('{').and_then(|r| r.strip_suffix('}')) {
        let v: Vec<u8> = inner
            .split(',')
            .map(|c| c.trim().parse::<u8>())
            .collect::<Result<_, _>>()
            .ok()?;
        return match v[..] {
            [r, g, b] => Some(Rgba { r, g, b, a: 255 }),
            _ => None,
        };
    }
    parse_color(t).ok()
}

fn raw_event(
    e: &Element,
    version: &str,
    jugglers: usize,
    paths: usize,
) -> Result<RawEvent, String> {
    let (x, mut y, mut z) = (
        number(e, "x", None)?,
        number(e, "y", Some(0.0))?,
        number(e, "z", Some(0.0))?,
    );
    if version == "1.0" {
        std::mem::swap(&mut y, &mut z);
    }
    let t = number(e, "t", None)?;
    let hand_text = e.attr("hand").ok_or("<event> has no hand=")?;
    let (juggler, side) = match hand_text.split_once(':') {
        Some((j, h)) => (j.trim().parse::<usize>().ok(), h),
        None => (Some(1), hand_text),
    };
    let hand = match side.trim().to_ascii_lowercase().as_str() {
        "left" => Hand::Left,
        "right" => Hand::Right,
        _ => {
            return Err(format!(
                "<event> hand=\"{hand_text}\" is not like 1:left or 2:right"
            ))
        }
    };
    let juggler = match juggler {
        Some(j) if (1..=jugglers).contains(&j) => j - 1,
        _ => {
            return Err(format!(
                "<event> hand=\"{hand_text}\" names a juggler outside 1..{jugglers}"
            ))
        }
    };
    let mut trans = Vec::new();
    for c in &e.children {
        let path = match c.attr("path") {
            Some(p) => match p.trim().parse::<usize>() {
                Ok(n) if (1..=paths).contains(&n) => n - 1,
                _ => {
                    return Err(format!(
                        "<{}> path=\"{p}\" is not a path from 1 to {paths}",
                        c.name
                    ))
                }
            },
            None => return Err(format!("<{}> has no path=", c.name)),
        };
        let kind_attr = c.attr("type").unwrap_or("").trim().to_ascii_lowercase();
        trans.push(match c.name.as_str() {
            "throw" => {
                let modifier = c.attr("mod").unwrap_or("");
                Trans::Throw {
                    path,
                    kind: throw_kind(&kind_attr, modifier)?,
                    gravity: throw_gravity(modifier)?,
                    bounce_energy: if kind_attr == "bounce" {
                        bounce_fraction(modifier)?
                    } else {
                        None
                    },
                    bounce_plane: if kind_attr == "bounce" {
                        bounce_plane(modifier)?
                    } else {
                        None
                    },
                }
            }
            "catch" => Trans::Catch {
                path,
                kind: if kind_attr == "soft" {
                    CatchKind::Soft
                } else {
                    CatchKind::Catch
                },
            },
            "softcatch" => Trans::Catch {
                path,
                kind: CatchKind::Soft,
            },
            "grabcatch" => Trans::Catch {
                path,
                kind: CatchKind::Catch,
            },
            "holding" => Trans::Holding { path },
            other => return Err(format!("<event> holds an unknown element <{other}>")),
        });
    }
    Ok(RawEvent {
        x,
        y,
        z,
        t,
        juggler,
        hand,
        trans,
    })
}

/// The value of `key=` in a throw modifier (`;`-separated `key=value` entries, keys in any
/// case), trimmed; `None` when the key is not there.
fn modifier_value<'a>(modifier: &'a str, key: &str) -> Option<&'a str> {
    modifier
        .split(';')
        .filter_map(|entry| entry.split_once('=').or(Some((entry, ""))))
        .find(|(k, _)| k.trim().eq_ignore_ascii_case(key))
        .map(|(_, value)| value.trim())
}

/// A throw's own gravity: its `g=` modifier (Juggling Lab's cm/s², any throw type), in m/s².
fn throw_gravity(modifier: &str) -> Result<Option<f64>, String> {
    let Some(value) = modifier_value(modifier, "g") else {
        return Ok(None);
    };
    let gravity = crate::settings::keys::GRAVITY;
    let g = gravity
        .parse_in_string("throw modifier g", value)
        .map_err(|e| e.to_string())?;
    Ok(Some(g / gravity.per_unit()))
}

/// A bounce's `bouncefrac=`: the fraction of its energy the prop keeps at each bounce
/// (Juggling Lab's default 0.9; the rebound speed is its square root times the impact's).
fn bounce_fraction(modifier: &str) -> Result<Option<f64>, String> {
    let Some(value) = modifier_value(modifier, "bouncefrac") else {
        return Ok(None);
    };
    let f = value
        .parse::<f64>()
        .ok()
        .filter(|&f| f > 0.0 && f <= 1.0)
        .ok_or_else(|| {
            format!("bounce modifier bouncefrac={value} is not a fraction above 0 and at most 1")
        })?;
    Ok(Some(f))
}

/// A bounce's `bounceplane=`: the height of the surface it bounces off (Juggling Lab's
/// centimetres above the floor, default 0), in metres.
fn bounce_plane(modifier: &str) -> Result<Option<f64>, String> {
    let Some(value) = modifier_value(modifier, "bounceplane") else {
        return Ok(None);
    };
    let h = value
        .parse::<f64>()
        .ok()
        .filter(|h| h.is_finite() && h.abs() <= MAX_CM)
        .ok_or_else(|| {
            format!(
                "bounce modifier bounceplane={value} is not a height from -{MAX_CM} to {MAX_CM} cm"
            )
        })?;
    Ok(Some(h / 100.0))
}

/// A throw's type and modifiers: `toss` or `bounce` with `bounces`, `forced`, `hyper`
/// (`g=` is read by `throw_gravity`, `bouncefrac=` by `bounce_fraction`, `bounceplane=` by
/// `bounce_plane`).
fn throw_kind(kind: &str, modifier: &str) -> Result<TossKind, String> {
    match kind {
        "" | "toss" => Ok(TossKind::Toss),
        "bounce" => {
            let (mut bounces, mut forced, mut hyper) = (1u8, false, false);
            for entry in modifier.split(';').filter(|e| !e.trim().is_empty()) {
                let (key, value) = entry.split_once('=').unwrap_or((entry, ""));
                let value = value.trim();
                match key.trim().to_ascii_lowercase().as_str() {
                    "bounces" => {
                        bounces = value
                            .parse::<u32>()
                            .ok()
                            .filter(|&b| b >= 1)
                            .map(|b| b.min(u8::MAX as u32) as u8)
                            .ok_or_else(|| format!("bounce modifier bounces={value} is not a whole number of 1 or more"))?
                    }
                    "forced" => forced = value.eq_ignore_ascii_case("true"),
                    "hyper" => hyper = value.eq_ignore_ascii_case("true"),
                    _ => {}
                }
            }
            Ok(TossKind::Bounce(BounceMode::from_kind(
                bounces, forced, hyper,
            )))
        }
        other => Err(format!("throw type '{other}' is not toss or bounce")),
    }
}

/// A path permutation in cycle notation `(1,2)(3)` or as a list `2,1,3`.
fn path_perm(text: &str, n: usize) -> Result<Perm, String> {
    let signed = signed_perm(text, n, false)?;
    Ok((1..=n as i64)
        .map(|i| (signed(i).unsigned_abs() as usize) - 1)
        .collect())
}

/// A juggler permutation; `2*` means juggler 2 with hands switched.
fn juggler_perm(text: &str, n: usize) -> Result<JPerm, String> {
    let signed = signed_perm(text, n, true)?;
    Ok((1..=n as i64)
        .map(|i| {
            let v = signed(i);
            (v.unsigned_abs() as usize - 1, v < 0)
        })
        .collect())
}

/// Parses a permutation of `1..=n` (with `*` marking reversed elements when `reverses`) into
/// its signed map.
fn signed_perm(text: &str, n: usize, reverses: bool) -> Result<impl Fn(i64) -> i64, String> {
    let bad = |why: &str| format!("permutation \"{text}\" {why}");
    let mut map: std::collections::HashMap<i64, i64> = Default::default();
    let element = |s: &str| -> Result<i64, String> {
        let s = s.trim();
        let (s, neg) = match s.strip_suffix('*') {
            Some(rest) if reverses => (rest.trim(), true),
            _ => (s, false),
        };
        match s.parse::<i64>() {
            Ok(v) if v >= 1 && v <= n as i64 => Ok(if neg { -v } else { v }),
            _ => Err(bad(&format!("has '{s}', not a number from 1 to {n}"))),
        }
    };
    if text.trim().is_empty() {
        // Identity.
    } else if !text.contains('(') {
        let items: Vec<&str> = text.split(',').collect();
        if items.len() != n {
            return Err(bad(&format!("lists {} elements for {n}", items.len())));
        }
        for (i, s) in items.iter().enumerate() {
            map.insert(i as i64 + 1, element(s)?);
        }
    } else {
        for cycle in text.split(')').filter(|c| !c.trim().is_empty()) {
            let body = cycle
                .trim()
                .strip_prefix('(')
                .ok_or_else(|| bad("is not in cycle notation"))?;
            let items: Result<Vec<i64>, String> = body.split(',').map(element).collect();
            let items = items?;
            for (k, &a) in items.iter().enumerate() {
                let b = items[(k + 1) % items.len()];
                if map.insert(a, b).is_some() {
                    return Err(bad("uses an element twice"));
                }
            }
        }
    }
    // Complete: -a maps to -map(a); check it is one-to-one.
    let mut full: std::collections::HashMap<i64, i64> = map.clone();
    for (&a, &b) in &map {
        full.entry(-a).or_insert(-b);
    }
    let mut seen = std::collections::HashSet::new();
    for i in 1..=n as i64 {
        let v = full.get(&i).copied().unwrap_or(i);
        if !seen.insert(v.abs()) {
            return Err(bad("is not one-to-one"));
        }
    }
    Ok(move |i: i64| full.get(&i).copied().unwrap_or(i))
}

fn compose(first: &Perm, then: &Perm) -> Perm {
    first.iter().map(|&p| then[p]).collect()
}

fn inverse(p: &Perm) -> Perm {
    let mut inv = vec![0; p.len()];
    for (i, &v) in p.iter().enumerate() {
        inv[v] = i;
    }
    inv
}

/// Order of juggler `j` under a juggler permutation with hand switches.
fn jorder(perm: &JPerm) -> usize {
    let mut order = 1;
    for j in 0..perm.len() {
        let (mut k, mut flip, mut m) = (j, false, 0);
        loop {
            let (nk, f) = perm[k];
            k = nk;
            flip ^= f;
            m += 1;
            if (k == j && !flip) || m > 4 * perm.len() {
                break;
            }
        }
        order = lcm(order, m);
    }
    order
}

fn lcm(a: usize, b: usize) -> usize {
    fn gcd(a: usize, b: usize) -> usize {
        if b == 0 {
            a
        } else {
            gcd(b, a % b)
        }
    }
    a / gcd(a, b).max(1) * b
}

/// One event of the loop after expanding the symmetries; paths are loop-0 labels.
#[derive(Clone, Debug)]
struct LoopEvent {
    time: f64,
    slot: usize,
    /// Juggler-local metres.
    position: DVec3,
    trans: Vec<Trans>,
}

/// The events of one loop `[0, delay)`.
fn expand(
    events: &[RawEvent],
    others: &[(JPerm, Perm, bool)],
    delay: f64,
    sigma: &Perm,
    jugglers: usize,
) -> Result<Vec<LoopEvent>, String> {
    let entries = others
        .iter()
        .filter(|s| s.2)
        .fold(1usize, |acc, s| lcm(acc, jorder(&s.0)))
        .min(1000);
    let step: Vec<usize> = others
        .iter()
        .map(|s| {
            if s.2 {
                entries / jorder(&s.0).max(1)
            } else {
                0
            }
        })
        .collect();
    let inv_sigma = inverse(sigma);
    let mut out = Vec::new();
    for e in events {
        // Images: (juggler, hand index, entry) -> path permutation from the primary event.
        let mut images: std::collections::BTreeMap<(usize, usize, usize), Perm> =
            Default::default();
        images.insert((e.juggler, e.hand.index(), 0), (0..sigma.len()).collect());
        loop {
            let mut added = Vec::new();
            for (&(j, h, l), p) in &images {
                for (s, &d) in others.iter().zip(&step) {
                    let (nj, flip) = s.0[j];
                    let nh = if flip { 1 - h } else { h };
                    let mut np = compose(p, &s.1);
                    let mut nl = l + d;
                    if nl >= entries {
                        np = compose(&np, &inv_sigma);
                        nl -= entries;
                    }
                    match images.get(&(nj, nh, nl)) {
                        Some(existing) if *existing != np => {
                            return Err("the symmetries are inconsistent".into())
                        }
                        Some(_) => {}
                        None => added.push(((nj, nh, nl), np)),
                    }
                }
            }
            if added.is_empty() {
                break;
            }
            for (k, v) in added {
                images.entry(k).or_insert(v);
            }
            if images.len() > 2 * jugglers * entries {
                return Err("the symmetries are inconsistent".into());
            }
        }
        for ((j, h, l), p) in images {
            let base = e.t + l as f64 * delay / entries as f64;
            // Loops k with base + k delay in [0, delay).
            let k0 = (-base / delay).floor() as i64;
            for k in [k0 - 1, k0, k0 + 1] {
                let mut time = base + k as f64 * delay;
                if time.abs() < TIME_EPS {
                    time = 0.0;
                }
                if !(0.0..delay - TIME_EPS).contains(&time) {
                    continue;
                }
                let mut perm = p.clone();
                let step = if k >= 0 { sigma } else { &inv_sigma };
                for _ in 0..k.unsigned_abs() {
                    perm = compose(&perm, step);
                }
                let hand = if h == 0 { Hand::Left } else { Hand::Right };
                let x = if h != e.hand.index() { -e.x } else { e.x };
                out.push(LoopEvent {
                    time,
                    slot: HandRef::new(j, hand).slot(),
                    position: DVec3::new(
                        -x / 100.0,
                        (POSITION_HEIGHT + e.z) / 100.0,
                        (e.y + JUGGLE_PLANE_OFFSET) / 100.0,
                    ),
                    trans: e
                        .trans
                        .iter()
                        .map(|t| match *t {
                            Trans::Throw {
                                path,
                                kind,
                                gravity,
                                bounce_energy,
                                bounce_plane,
                            } => Trans::Throw {
                                path: perm[path],
                                kind,
                                gravity,
                                bounce_energy,
                                bounce_plane,
                            },
                            Trans::Catch { path, kind } => Trans::Catch {
                                path: perm[path],
                                kind,
                            },
                            Trans::Holding { path } => Trans::Holding { path: perm[path] },
                        })
                        .collect(),
                });
                if out.len() > MAX_LOOP_EVENTS {
                    return Err(format!("more than {MAX_LOOP_EVENTS} events in one loop"));
                }
            }
        }
    }
    out.sort_by(|a, b| a.time.total_cmp(&b.time).then(a.slot.cmp(&b.slot)));
    Ok(out)
}

/// Loop events as a choreography: tosses linked to their catches, prop paths, hands, jugglers.
#[allow(clippy::too_many_arguments)]
fn build(
    events: Vec<LoopEvent>,
    delay: f64,
    sigma: &Perm,
    jugglers: usize,
    paths: usize,
    positions: &[(usize, f64, Placement)],
    title: Option<String>,
    path_prop: Vec<(PropKind, Option<Rgba>)>,
) -> Result<EventPattern, String> {
    // The cycles of sigma: label_in(k, p) is the loop-0 label of physical path p in loop k
    // (sigma^-k (p)), found in p's cycle.
    let mut cycle_of = vec![(0usize, 0usize); paths];
    let mut cycles: Vec<Vec<usize>> = Vec::new();
    let mut seen = vec![false; paths];
    for start in 0..paths {
        if seen[start] {
            continue;
        }
        let mut c = Vec::new();
        let mut p = start;
        while !seen[p] {
            seen[p] = true;
            cycle_of[p] = (cycles.len(), c.len());
            c.push(p);
            p = sigma[p];
        }
        cycles.push(c);
    }
    let label_in = |k: i64, p: usize| {
        let (c, i) = cycle_of[p];
        let len = cycles[c].len() as i64;
        cycles[c][(i as i64 - k).rem_euclid(len) as usize]
    };

    // Throw and catch transitions by loop-0 label: (label) -> [(event index, time)].
    let mut throws_of: Vec<Vec<usize>> = vec![Vec::new(); paths];
    let mut catches_of: Vec<Vec<usize>> = vec![Vec::new(); paths];
    for (i, e) in events.iter().enumerate() {
        for t in &e.trans {
            match *t {
                Trans::Throw { path, .. } => throws_of[path].push(i),
                Trans::Catch { path, .. } => catches_of[path].push(i),
                Trans::Holding { .. } => {}
            }
        }
    }
    // The first event (index, loop) after `after` seconds carrying physical path p in `table`.
    let next = |table: &Vec<Vec<usize>>, p: usize, after: f64| -> Option<(usize, i64)> {
        let k0 = (after / delay).floor() as i64;
        let len = cycles[cycle_of[p].0].len() as i64;
        for k in k0..k0 + len + 1 {
            let label = label_in(k, p);
            let found = table[label]
                .iter()
                .copied()
                .filter(|&i| events[i].time + k as f64 * delay > after + TIME_EPS)
                .min_by(|&a, &b| events[a].time.total_cmp(&events[b].time));
            if let Some(i) = found {
                return Some((i, k));
            }
        }
        None
    };

    // Tosses: every throw of the loop, with its catch.
    let mut tosses: Vec<Toss> = Vec::new();
    let mut toss_at: std::collections::HashMap<(usize, usize), usize> = Default::default();
    let mut catch_event: Vec<usize> = Vec::new();
    let mut toss_label: Vec<usize> = Vec::new();
    let mut caught_at: Vec<Vec<usize>> = vec![Vec::new(); events.len()];
    let mut catch_rank: Vec<usize> = Vec::new();
    let mut throw_event: Vec<usize> = Vec::new();
    for (i, e) in events.iter().enumerate() {
        let throws: Vec<(usize, TossKind, [Option<f64>; 3])> = e
            .trans
            .iter()
            .filter_map(|t| match *t {
                Trans::Throw {
                    path,
                    kind,
                    gravity,
                    bounce_energy,
                    bounce_plane,
                } => Some((path, kind, [gravity, bounce_energy, bounce_plane])),
                _ => None,
            })
            .collect();
        for (k, &(path, kind, [gravity, bounce_energy, bounce_plane])) in throws.iter().enumerate()
        {
            let (c, loops) = next(&catches_of, path, e.time).ok_or_else(|| {
                format!(
                    "path {} is thrown at t={:.4} s but never caught",
                    path + 1,
                    e.time
                )
            })?;
            let (rank, catch_kind) = events[c]
                .trans
                .iter()
                .filter(|t| matches!(t, Trans::Catch { .. }))
                .enumerate()
                .find_map(|(rank, t)| match *t {
                    Trans::Catch { path: q, kind } if q == label_in(loops, path) => {
                        Some((rank, kind))
                    }
                    _ => None,
                })
                .unwrap_or((0, CatchKind::Catch));
            catch_rank.push(rank);
            throw_event.push(i);
            toss_at.insert((i, path), tosses.len());
            caught_at[c].push(tosses.len());
            catch_event.push(c);
            toss_label.push(path);
            tosses.push(Toss {
                from: HandRef::from_slot(e.slot),
                to: HandRef::from_slot(events[c].slot),
                release: e.time,
                catch: events[c].time + loops as f64 * delay,
                release_offset: spread(k, throws.len()),
                catch_offset: DVec3::ZERO,
                kind,
                gravity,
                bounce_energy,
                bounce_plane,
                catch_kind,
                value: None,
                spins: None,
                path: 0,
            });
        }
    }

    // Prop paths: follow each prop from toss to toss.
    let mut next_toss: Vec<(usize, i64)> = Vec::with_capacity(tosses.len());
    for (i, t) in tosses.iter().enumerate() {
        let path = toss_label[i];
        let (e, loops) = next(&throws_of, path, t.catch).ok_or_else(|| {
            format!(
                "path {} is caught at t={:.4} s but never thrown again",
                path + 1,
                t.catch
            )
        })?;
        let label = label_in(loops, path);
        let j = *toss_at
            .get(&(e, label))
            .ok_or("internal: a throw without its toss")?;
        if events[e].slot != events[catch_event[i]].slot {
            return Err(format!(
                "path {} is caught by {} at t={:.4} s but next thrown by {}",
                path + 1,
                hand_name(events[catch_event[i]].slot),
                t.catch,
                hand_name(events[e].slot)
            ));
        }
        next_toss.push((j, loops));
    }
    // Props caught to be thrown together are spread beside each other in the hand as
    // juggler's siteswap motion spreads them: a catch's place is its rank among the props
    // next thrown at the same event (earliest caught first, then as listed in the event),
    // of as many places as that event throws them.
    let mut gathered: std::collections::HashMap<usize, Vec<(i64, usize, usize)>> =
        Default::default();
    for (i, &(j, loops)) in next_toss.iter().enumerate() {
        let ahead = tosses[j].release + loops as f64 * delay - tosses[i].catch;
        gathered.entry(throw_event[j]).or_default().push((
            (-ahead * 1e6).round() as i64,
            catch_rank[i],
            i,
        ));
    }
    // Catches more than half the shortest time between throws apart are not one bundle
    // (a prop caught a beat or more earlier and held meanwhile has its own place).
    let mut throw_times: Vec<f64> = throw_event.iter().map(|&e| events[e].time).collect();
    throw_times.sort_by(f64::total_cmp);
    let shortest = throw_times
        .windows(2)
        .map(|w| w[1] - w[0])
        .chain(
            throw_times
                .first()
                .zip(throw_times.last())
                .map(|(a, b)| a + delay - b),
        )
        .filter(|&d| d > TIME_EPS)
        .fold(delay, f64::min);
    let apart = (shortest * 0.5 * 1e6).round() as i64;
    for group in gathered.values_mut() {
        group.sort_unstable();
        let mut start = 0;
        for end in 1..=group.len() {
            if end < group.len() && group[end].0 - group[end - 1].0 <= apart {
                continue;
            }
            let bundle = &group[start..end];
            for (k, &(_, _, i)) in bundle.iter().enumerate() {
                tosses[i].catch_offset = spread(k, bundle.len());
            }
            start = end;
        }
    }
    let mut prop_paths: Vec<PropPath> = Vec::new();
    let mut prop_path_label: Vec<usize> = Vec::new();
    let mut visited = vec![false; tosses.len()];
    for start in 0..tosses.len() {
        if visited[start] {
            continue;
        }
        let mut segments = Vec::new();
        let (mut i, mut offset) = (start, 0.0);
        let mut guard = 0;
        loop {
            visited[i] = true;
            let t = tosses[i];
            let (j, loops) = next_toss[i];
            let next_offset = offset + loops as f64 * delay;
            segments.push(PathSegment::Air {
                start: t.release + offset,
                end: t.catch + offset,
                toss: i,
            });
            segments.push(PathSegment::Held {
                start: t.catch + offset,
                end: tosses[j].release + next_offset,
                hand: t.to.slot(),
                offset0: t.catch_offset,
                offset1: tosses[j].release_offset,
            });
            offset = next_offset;
            i = j;
            guard += 1;
            if i == start || guard > tosses.len() {
                break;
            }
        }
        if i != start {
            return Err("the throws and catches of the paths do not form cycles".into());
        }
        let props = (offset / delay).round().max(1.0) as usize;
        let index = prop_paths.len();
        for s in &segments {
            if let PathSegment::Air { toss, .. } = *s {
                tosses[toss].path = index;
            }
        }
        let label = toss_label[start];
        let mut p = label;
        for _ in 0..props {
            prop_path_label.push(p);
            p = sigma[p];
        }
        prop_paths.push(PropPath {
            segments,
            cycle: offset,
            props,
            orbit: index,
        });
    }
    // Paths that are never thrown: held by the hand that holds them.
    let thrown: std::collections::HashSet<usize> = prop_path_label.iter().copied().collect();
    for p in 0..paths {
        if thrown.contains(&p) {
            continue;
        }
        let holder = events.iter().find(|e| {
            e.trans.iter().any(
                |t| matches!(*t, Trans::Holding { path } | Trans::Catch { path, .. } if path == p),
            )
        });
        let Some(holder) = holder else {
            return Err(format!("path {} has no events", p + 1));
        };
        let index = prop_paths.len();
        prop_paths.push(PropPath {
            segments: vec![PathSegment::Held {
                start: 0.0,
                end: delay,
                hand: holder.slot,
                offset0: DVec3::ZERO,
                offset1: DVec3::ZERO,
            }],
            cycle: delay,
            props: 1,
            orbit: index,
        });
        prop_path_label.push(p);
    }
    if prop_path_label.len() != paths {
        return Err(format!(
            "the events move {} props but <setup> declares {paths} paths",
            prop_path_label.len()
        ));
    }
    // Props held together in one hand keep side-by-side lanes from catch to throw, as
    // juggler's siteswap motion holds them (so its own JML reads back the same).
    spread_held_props(&mut prop_paths, &mut tosses, delay);

    // Hand events, per hand slot, merging simultaneous ones.
    let mut hands: Vec<Vec<HandEvent>> = vec![Vec::new(); jugglers * 2];
    for (i, e) in events.iter().enumerate() {
        let throws: Vec<usize> = e
            .trans
            .iter()
            .filter_map(|t| match *t {
                Trans::Throw { path, .. } => toss_at.get(&(i, path)).copied(),
                _ => None,
            })
            .collect();
        let list = &mut hands[e.slot];
        match list.last_mut() {
            Some(last) if (e.time - last.time).abs() < TIME_EPS => {
                last.throws.extend(throws);
                last.catches.extend(caught_at[i].iter().copied());
            }
            _ => list.push(HandEvent {
                time: e.time,
                position: e.position,
                throws,
                catches: caught_at[i].clone(),
            }),
        }
    }

    // Jugglers: keyframes from <position>s, else Juggling Lab's default place.
    let juggler_paths = (0..jugglers)
        .map(|j| {
            let mut keys: Vec<(f64, Placement)> = positions
                .iter()
                .filter(|p| p.0 == j)
                .map(|p| (p.1.rem_euclid(delay), p.2))
                .collect();
            keys.sort_by(|a, b| a.0.total_cmp(&b.0));
            keys.dedup_by(|a, b| (a.0 - b.0).abs() < TIME_EPS);
            if keys.is_empty() {
                keys.push((0.0, default_placement(j, jugglers)));
            }
            JugglerPath {
                keys,
                period: delay,
            }
        })
        .collect();

    let busiest = (0..jugglers)
        .map(|j| {
            let mut times: Vec<f64> = events
                .iter()
                .filter(|e| {
                    HandRef::from_slot(e.slot).juggler == j
                        && e.trans.iter().any(|t| matches!(t, Trans::Throw { .. }))
                })
                .map(|e| e.time)
                .collect();
            times.dedup_by(|a, b| (*a - *b).abs() < TIME_EPS);
            times.len()
        })
        .max()
        .unwrap_or(0)
        .max(1);
    Ok(EventPattern {
        title,
        choreography: Choreography {
            hand_period: delay,
            jugglers: juggler_paths,
            hands,
            tosses,
            paths: prop_paths,
        },
        jugglers,
        paths,
        prop_path: prop_path_label,
        path_prop,
        bps: busiest as f64 / delay,
    })
}

fn hand_name(slot: usize) -> String {
    let h = HandRef::from_slot(slot);
    format!(
        "juggler {}'s {} hand",
        h.juggler + 1,
        if h.hand == Hand::Left {
            "left"
        } else {
            "right"
        }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One juggler, one ball from hand to hand; `extra` goes inside `<pattern>`.
    fn one_ball(symmetry: &str, events: &str) -> String {
        format!(
            "<jml version=\"3\"><pattern><setup jugglers=\"1\" paths=\"1\"/>{symmetry}{events}</pattern></jml>"
        )
    }

    const ROUND_TRIP: &str = "<event x=\"20\" t=\"0\" hand=\"1:right\"><throw path=\"1\"/></event>\
        <event x=\"-25\" t=\"0.5\" hand=\"1:left\"><softcatch path=\"1\"/></event>\
        <event x=\"-20\" t=\"0.6\" hand=\"1:left\"><throw path=\"1\"/></event>\
        <event x=\"25\" t=\"1.1\" hand=\"1:right\"><catch path=\"1\" type=\"grab\"/></event>";

    #[test]
    fn permutations_in_cycle_and_list_notation() {
        assert_eq!(path_perm("(1,3,2)", 3).unwrap(), vec![2, 0, 1]);
        assert_eq!(path_perm("(1)(2,3)", 3).unwrap(), vec![0, 2, 1]);
        assert_eq!(path_perm("2,3,1", 3).unwrap(), vec![1, 2, 0]);
        assert_eq!(path_perm("", 2).unwrap(), vec![0, 1]);
        // Juggler 1 to itself with hands switched; 1 -> 2 -> 1 with a switch.
        assert_eq!(juggler_perm("(1,1*)", 1).unwrap(), vec![(0, true)]);
        assert_eq!(jorder(&juggler_perm("(1,1*)", 1).unwrap()), 2);
        assert_eq!(
            juggler_perm("(1,2*)", 2).unwrap(),
            vec![(1, true), (0, true)]
        );
        assert_eq!(jorder(&juggler_perm("(1,2)", 2).unwrap()), 2);
        assert!(path_perm("(1,4)", 3)
            .unwrap_err()
            .contains("not a number from 1 to 3"));
        assert!(path_perm("(1,2)(2,3)", 3).unwrap_err().contains("twice"));
        assert!(path_perm("1,1,2", 3).unwrap_err().contains("one-to-one"));
    }

    #[test]
    fn softcatch_and_grab_elements_are_catches() {
        let p = read(&one_ball(
            "<symmetry type=\"delay\" pperm=\"(1)\" delay=\"1.2\"/>",
            ROUND_TRIP,
        ))
        .unwrap();
        let ch = &p.choreography;
        assert_eq!(ch.tosses.len(), 2);
        let kinds: Vec<CatchKind> = ch.tosses.iter().map(|t| t.catch_kind).collect();
        assert_eq!(kinds, [CatchKind::Soft, CatchKind::Catch]);
        // Right hand (slot 1) at x = 20 cm: 0.2 m toward negative x, hand plane height.
        let right = &ch.hands[1];
        assert_eq!(right[0].position, DVec3::new(-0.2, 1.0, 0.3));
        assert_eq!((right[0].time, right[1].time), (0.0, 1.1));
        // 2 throws per 1.2 s loop.
        assert!((p.bps - 2.0 / 1.2).abs() < 1e-12);
        assert_eq!((p.jugglers, p.paths, p.prop_path.clone()), (1, 1, vec![0]));
    }

    #[test]
    fn props_held_together_keep_lanes_a_hand_width_apart() {
        // Each hand catches ball 1, then ball 2 before throwing ball 1: both are in the left
        // hand from 0.8 s to 1.0 s and in the right from 1.8 s to 2.0 s.
        let events = "<event x=\"20\" t=\"0\" hand=\"1:right\"><throw path=\"1\"/></event>\
            <event x=\"20\" t=\"0.2\" hand=\"1:right\"><throw path=\"2\"/></event>\
            <event x=\"-25\" t=\"0.5\" hand=\"1:left\"><catch path=\"1\"/></event>\
            <event x=\"-25\" t=\"0.8\" hand=\"1:left\"><catch path=\"2\"/></event>\
            <event x=\"-20\" t=\"1.0\" hand=\"1:left\"><throw path=\"1\"/></event>\
            <event x=\"-20\" t=\"1.3\" hand=\"1:left\"><throw path=\"2\"/></event>\
            <event x=\"25\" t=\"1.5\" hand=\"1:right\"><catch path=\"1\"/></event>\
            <event x=\"25\" t=\"1.8\" hand=\"1:right\"><catch path=\"2\"/></event>";
        let text = format!(
            "<jml version=\"3\"><pattern><setup jugglers=\"1\" paths=\"2\"/>\
             <symmetry type=\"delay\" pperm=\"(1)(2)\" delay=\"2\"/>{events}</pattern></jml>"
        );
        let p = read(&text).unwrap();
        let timing = crate::motion::Timing {
            bps: p.bps,
            dwell: 1.0,
            gravity: GRAVITY,
        };
        let m = crate::motion::Motion::from_events(&p.choreography, timing);
        for (t, hand) in [(0.9, Hand::Left), (1.9, Hand::Right)] {
            let s = m.state_at(t);
            let held: Vec<Vec3> = s
                .props
                .iter()
                .filter(|q| q.held_by == Some(HandRef::new(0, hand)))
                .map(|q| q.position)
                .collect();
            assert_eq!(held.len(), 2, "t = {t}");
            // Side by side across the juggler (x), 10.5 cm apart, about the hand.
            let d = held[0] - held[1];
            assert!((d.x.abs() - 0.105).abs() < 1e-5, "t = {t}: {d}");
            assert!(d.y.abs() < 1e-6 && d.z.abs() < 1e-6, "t = {t}: {d}");
            let hand_at = s.hands[0][hand.index()].position;
            assert!(((held[0] + held[1]) / 2.0).distance(hand_at) < 1e-5);
        }
        // Alone in the hand, a prop sits at the hand... but keeps its lane from catch to
        // throw: ball 1 caught at 0.5 s is already in the lane it shares from 0.8 s.
        let s = m.state_at(0.6);
        let left = s.hands[0][0].position;
        let one = s.props.iter().find(|q| q.held_by.is_some()).unwrap();
        assert!((one.position.distance(left) - 0.0525).abs() < 1e-5);
    }

    #[test]
    fn events_outside_the_loop_are_moved_into_it() {
        // The same pattern written one loop later and with a negative time.
        let shifted = ROUND_TRIP
            .replace("t=\"0\"", "t=\"1.2\"")
            .replace("t=\"1.1\"", "t=\"-0.1\"");
        let p = read(&one_ball(
            "<symmetry type=\"delay\" pperm=\"(1)\" delay=\"1.2\"/>",
            &shifted,
        ))
        .unwrap();
        let right = &p.choreography.hands[1];
        assert_eq!(right.len(), 2);
        assert!(right[0].time.abs() < 1e-9 && (right[1].time - 1.1).abs() < 1e-9);
    }

    #[test]
    fn inconsistent_patterns_are_explained() {
        let delay = "<symmetry type=\"delay\" pperm=\"(1)\" delay=\"1.2\"/>";
        let err = |s: &str, e: &str| read(&one_ball(s, e)).unwrap_err();
        assert_eq!(
            err("", ROUND_TRIP),
            "the pattern has no delay <symmetry> (its loop)"
        );
        assert!(err(
            "<symmetry type=\"delay\" pperm=\"(1)\" delay=\"-1\"/>",
            ROUND_TRIP
        )
        .contains("not between 0.01 and 10000 seconds"));
        assert_eq!(
            err(
                delay,
                "<event x=\"1\" t=\"0\" hand=\"1:right\"><throw path=\"1\"/></event>"
            ),
            "path 1 is thrown at t=0.0000 s but never caught"
        );
        // Caught by the left hand, thrown again by the right.
        let wrong_hand = "<event x=\"20\" t=\"0\" hand=\"1:right\"><throw path=\"1\"/></event>\
            <event x=\"-25\" t=\"0.5\" hand=\"1:left\"><catch path=\"1\"/></event>";
        assert_eq!(
            err(delay, wrong_hand),
            "path 1 is caught by juggler 1's left hand at t=0.5000 s but next thrown by juggler 1's right hand"
        );
        assert!(err(delay, &ROUND_TRIP.replace("1:left", "3:left")).contains("outside 1..1"));
        assert!(err(delay, &ROUND_TRIP.replace("1:left", "1:middle")).contains("not like 1:left"));
        assert!(err(delay, &ROUND_TRIP.replace("x=\"20\"", "x=\"NaN\"")).contains("finite"));
        assert!(err(delay, &ROUND_TRIP.replace("path=\"1\"", "path=\"2\"")).contains("from 1 to 1"));
        assert!(err(
            delay,
            &ROUND_TRIP.replacen(
                "<throw path=\"1\"/>",
                "<throw path=\"1\" type=\"spin\"/>",
                1
            )
        )
        .contains("not toss or bounce"));
        assert!(read("<jml><pattern><setup paths=\"0\"/></pattern></jml>")
            .unwrap_err()
            .contains("paths=\"0\""));
        // Hostile numbers: a kilometre-wide throw, a loop of a microsecond.
        assert!(err(delay, &ROUND_TRIP.replace("x=\"20\"", "x=\"1e9\""))
            .contains("is outside -100000..100000"));
        assert!(err(
            "<symmetry type=\"delay\" pperm=\"(1)\" delay=\"0.000001\"/>",
            ROUND_TRIP
        )
        .contains("not between"));
        assert!(read("<jml><patternlist/></jml>")
            .unwrap_err()
            .contains("no <pattern>"));
    }

    #[test]
    fn bounce_modifiers_and_colours() {
        assert_eq!(throw_kind("toss", "g=500").unwrap(), TossKind::Toss);
        assert_eq!(throw_gravity("g=500").unwrap(), Some(5.0));
        assert_eq!(throw_gravity("bounces=2; G = 1960 ").unwrap(), Some(19.6));
        assert_eq!(throw_gravity("bounces=2").unwrap(), None);
        assert!(throw_gravity("g=0").is_err());
        assert!(throw_gravity("g=lots").is_err());
        assert_eq!(
            bounce_fraction("bounces=2;bouncefrac=0.5").unwrap(),
            Some(0.5)
        );
        assert_eq!(bounce_fraction("bounces=2").unwrap(), None);
        assert_eq!(
            bounce_plane("bounces=2;bounceplane=75").unwrap(),
            Some(0.75)
        );
        assert_eq!(bounce_plane("bounces=2").unwrap(), None);
        assert!(bounce_plane("bounceplane=high").is_err());
        assert!(bounce_plane("bounceplane=1e9").is_err());
        assert!(bounce_fraction("bouncefrac=1.5").is_err());
        assert!(bounce_fraction("bouncefrac=0").is_err());
        assert_eq!(
            throw_kind("bounce", "bounces=2;forced=true;hyper=true").unwrap(),
            TossKind::Bounce(BounceMode::from_kind(2, true, true))
        );
        assert!(throw_kind("bounce", "bounces=0").is_err());
        assert_eq!(
            color_value("{250,0,10}"),
            Some(Rgba {
                r: 250,
                g: 0,
                b: 10,
                a: 255
            })
        );
        assert_eq!(color_value("{1,2}"), None);
        assert_eq!(color_value("red"), parse_color("red").ok());
    }

    #[test]
    fn default_places_follow_juggling_lab() {
        // Two jugglers 1.4 m apart facing each other; six on a circle wide enough for 1.3 m
        // between neighbours.
        let a = default_placement(0, 2);
        let b = default_placement(1, 2);
        assert!((a.position - Vec3::new(-0.7, 0.0, 0.0)).length() < 1e-6);
        assert!((b.position - Vec3::new(0.7, 0.0, 0.0)).length() < 1e-5);
        assert!((a.forward() - Vec3::X).length() < 1e-6);
        assert!((b.forward() + Vec3::X).length() < 1e-5);
        let p0 = default_placement(0, 6).position;
        let p1 = default_placement(1, 6).position;
        assert!((p0.distance(p1) - 1.3).abs() < 1e-5);
    }
}
