//! Phase 1, reading: a `<pattern>` element's `<setup>`, `<prop>`s, `<symmetry>`s, `<event>`s
//! and `<position>`s as plain values, every number checked, every element's offset kept for
//! the later phases' errors. Nothing is expanded here.

use super::error::{EventError, EventErrorKind};
use super::perm::{juggler_perm, path_perm, JPerm, Perm};
use super::{world_placement, MAX_CM, POSITION_HEIGHT};
use crate::files::color::parse_color;
use crate::files::xml::Element;
use crate::layout::Placement;
use crate::motion::{BounceMode, CatchKind, TossKind};
use crate::spec::PathProp;
use crate::types::{Hand, PropKind, Rgba};

/// Loop length accepted, seconds.
const MIN_DELAY: f64 = 0.01;
const MAX_DELAY: f64 = 10_000.0;
/// Most paths and jugglers read (a guard against hostile files).
const MAX_PATHS: usize = 10_000;
const MAX_JUGGLERS: usize = 1_000;

/// What an event does with one path (0-based).
#[derive(Clone, Copy, Debug)]
pub(super) enum Transition {
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

impl Transition {
    /// The same transition of another path.
    pub(super) fn with_path(self, path: usize) -> Transition {
        match self {
            Transition::Throw {
                kind,
                gravity,
                bounce_energy,
                bounce_plane,
                ..
            } => Transition::Throw {
                path,
                kind,
                gravity,
                bounce_energy,
                bounce_plane,
            },
            Transition::Catch { kind, .. } => Transition::Catch { path, kind },
            Transition::Holding { .. } => Transition::Holding { path },
        }
    }
}

/// One `<event>` as written: Juggling Lab's centimetres in the juggler's frame (x right,
/// y forward, z up), seconds.
#[derive(Clone, Debug)]
pub(super) struct RawEvent {
    pub(super) x: f64,
    pub(super) y: f64,
    pub(super) z: f64,
    pub(super) t: f64,
    /// 0-based.
    pub(super) juggler: usize,
    pub(super) hand: Hand,
    pub(super) transitions: Vec<Transition>,
    /// Byte offset of the `<event>`.
    pub(super) at: usize,
}

/// One `<position>`: where juggler `juggler` (0-based) stands at `time`.
#[derive(Clone, Debug)]
pub(super) struct RawPosition {
    pub(super) juggler: usize,
    pub(super) time: f64,
    pub(super) placement: Placement,
}

/// A `switch` or `switchdelay` symmetry.
#[derive(Clone, Debug)]
pub(super) struct Switch {
    pub(super) jperm: JPerm,
    pub(super) pperm: Perm,
    /// `switchdelay`: the images come a fraction of the loop later.
    pub(super) delayed: bool,
}

/// A `<pattern>` read: everything the later phases need, nothing expanded.
#[derive(Clone, Debug)]
pub(super) struct RawPattern {
    pub(super) title: Option<String>,
    pub(super) jugglers: usize,
    pub(super) paths: usize,
    /// Per path, its prop's kind and colour.
    pub(super) path_props: Vec<PathProp>,
    /// The loop: after `delay` seconds every event repeats with its paths permuted by `sigma`.
    pub(super) delay: f64,
    pub(super) sigma: Perm,
    pub(super) switches: Vec<Switch>,
    pub(super) events: Vec<RawEvent>,
    pub(super) positions: Vec<RawPosition>,
    /// Byte offsets of the `<pattern>` and its `<setup>`.
    pub(super) at: usize,
    pub(super) setup_at: usize,
}

/// Reads a `<pattern>` of events; `version` is the JML version (`1.0` swaps y and z).
pub(super) fn read(pattern: &Element, version: &str) -> Result<RawPattern, EventError> {
    let title = pattern
        .children
        .iter()
        .find(|c| c.name == "title")
        .map(|t| t.text.trim().to_string())
        .filter(|t| !t.is_empty());
    let setup = pattern.child("setup").ok_or(EventError::new(
        pattern.offset,
        EventErrorKind::MissingElement { element: "setup" },
    ))?;
    let jugglers = count(setup, "jugglers", Some(1), MAX_JUGGLERS)?;
    let paths = count(setup, "paths", None, MAX_PATHS)?;
    let path_props = path_props(pattern, setup, paths)?;
    let (delay, sigma, switches) = symmetries(pattern, paths, jugglers)?;

    let mut events = Vec::new();
    let mut positions = Vec::new();
    // Per juggler, its `<position>`s so far (keyframes of its path: within the budget).
    let mut per_juggler = vec![0u128; jugglers];
    for c in &pattern.children {
        match c.name.as_str() {
            "event" => events.push(event(c, version, jugglers, paths)?),
            "position" => {
                let p = position(c, jugglers)?;
                per_juggler[p.juggler] += 1;
                crate::budget::check(crate::budget::EVENT_POSITIONS, per_juggler[p.juggler])
                    .map_err(|e| EventError::new(c.offset, EventErrorKind::Budget(e)))?;
                positions.push(p);
            }
            _ => {}
        }
    }
    if events.is_empty() {
        return Err(EventError::new(
            pattern.offset,
            EventErrorKind::MissingElement { element: "event" },
        ));
    }
    Ok(RawPattern {
        title,
        jugglers,
        paths,
        path_props,
        delay,
        sigma,
        switches,
        events,
        positions,
        at: pattern.offset,
        setup_at: setup.offset,
    })
}

/// The `<prop>`s and which of them each path carries (`<setup props=...>`, else the first).
fn path_props(
    pattern: &Element,
    setup: &Element,
    paths: usize,
) -> Result<Vec<PathProp>, EventError> {
    let mut props: Vec<PathProp> = Vec::new();
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
        props.push(PathProp { kind, color });
    }
    if props.is_empty() {
        props.push(PathProp {
            kind: PropKind::Ball,
            color: None,
        });
    }
    let error = |kind| EventError::new(setup.offset, kind);
    let assignment: Vec<usize> = match setup.attr("props").map(str::trim) {
        Some(list) if !list.is_empty() => {
            let v = list
                .split(',')
                .map(|s| match s.trim().parse::<usize>() {
                    Ok(n) if (1..=props.len()).contains(&n) => Ok(n - 1),
                    _ => Err(error(EventErrorKind::PropNumber {
                        list: list.to_string(),
                        item: s.trim().to_string(),
                        props: props.len(),
                    })),
                })
                .collect::<Result<Vec<usize>, _>>()?;
            if v.len() != paths {
                return Err(error(EventErrorKind::PropCount {
                    list: list.to_string(),
                    named: v.len(),
                    paths,
                }));
            }
            v
        }
        _ => vec![0; paths],
    };
    Ok(assignment.iter().map(|&i| props[i]).collect())
}

/// The `<symmetry>`s: the one `delay` symmetry (the loop: its seconds and path permutation)
/// and the `switch`/`switchdelay` ones.
fn symmetries(
    pattern: &Element,
    paths: usize,
    jugglers: usize,
) -> Result<(f64, Perm, Vec<Switch>), EventError> {
    let mut delay: Option<(f64, Perm)> = None;
    let mut switches = Vec::new();
    for s in pattern.children.iter().filter(|c| c.name == "symmetry") {
        let error = |kind| EventError::new(s.offset, kind);
        let kind = s.attr("type").unwrap_or("").trim().to_ascii_lowercase();
        let pperm = path_perm(required(s, "pperm")?, paths).map_err(error)?;
        match kind.as_str() {
            "delay" => {
                let seconds = number(s, "delay", None)?;
                if !(MIN_DELAY..=MAX_DELAY).contains(&seconds) {
                    return Err(error(EventErrorKind::LoopLength {
                        seconds,
                        min: MIN_DELAY,
                        max: MAX_DELAY,
                    }));
                }
                if delay.is_some() {
                    return Err(error(EventErrorKind::SecondLoop));
                }
                delay = Some((seconds, pperm));
            }
            "switch" | "switchdelay" => {
                let jperm = juggler_perm(required(s, "jperm")?, jugglers).map_err(error)?;
                switches.push(Switch {
                    jperm,
                    pperm,
                    delayed: kind == "switchdelay",
                });
            }
            _ => return Err(error(EventErrorKind::UnknownSymmetry { kind })),
        }
    }
    let (delay, sigma) = delay.ok_or(EventError::new(pattern.offset, EventErrorKind::NoLoop))?;
    Ok((delay, sigma, switches))
}

fn position(c: &Element, jugglers: usize) -> Result<RawPosition, EventError> {
    let j = count(c, "juggler", Some(1), MAX_JUGGLERS)?;
    if j > jugglers {
        return Err(EventError::new(
            c.offset,
            EventErrorKind::PositionJuggler {
                juggler: j,
                jugglers,
            },
        ));
    }
    let (x, y) = (number(c, "x", None)?, number(c, "y", None)?);
    let z = number(c, "z", Some(POSITION_HEIGHT))?;
    let t = number(c, "t", None)?;
    let angle = number(c, "angle", Some(0.0))?;
    Ok(RawPosition {
        juggler: j - 1,
        time: t,
        placement: world_placement(x, y, z, angle),
    })
}

fn event(
    e: &Element,
    version: &str,
    jugglers: usize,
    paths: usize,
) -> Result<RawEvent, EventError> {
    let (x, mut y, mut z) = (
        number(e, "x", None)?,
        number(e, "y", Some(0.0))?,
        number(e, "z", Some(0.0))?,
    );
    if version == "1.0" {
        std::mem::swap(&mut y, &mut z);
    }
    let t = number(e, "t", None)?;
    let hand_text = required(e, "hand")?;
    let bad_hand = |problem: String| {
        EventError::new(
            e.offset,
            EventErrorKind::BadValue {
                element: e.name.clone(),
                attribute: "hand".into(),
                value: hand_text.to_string(),
                problem,
            },
        )
    };
    let (juggler, side) = match hand_text.split_once(':') {
        Some((j, h)) => (j.trim().parse::<usize>().ok(), h),
        None => (Some(1), hand_text),
    };
    let hand = match side.trim().to_ascii_lowercase().as_str() {
        "left" => Hand::Left,
        "right" => Hand::Right,
        _ => return Err(bad_hand("is not like 1:left or 2:right".into())),
    };
    let juggler = match juggler {
        Some(j) if (1..=jugglers).contains(&j) => j - 1,
        _ => return Err(bad_hand(format!("names a juggler outside 1..{jugglers}"))),
    };
    let transitions = e
        .children
        .iter()
        .map(|c| transition(c, paths))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(RawEvent {
        x,
        y,
        z,
        t,
        juggler,
        hand,
        transitions,
        at: e.offset,
    })
}

/// One element inside an `<event>`: a throw, a catch (`catch`, `softcatch`, `grabcatch`) or
/// a holding.
fn transition(c: &Element, paths: usize) -> Result<Transition, EventError> {
    let error = |kind| EventError::new(c.offset, kind);
    let text = required(c, "path")?;
    let path = match text.trim().parse::<usize>() {
        Ok(n) if (1..=paths).contains(&n) => n - 1,
        _ => {
            return Err(error(EventErrorKind::BadValue {
                element: c.name.clone(),
                attribute: "path".into(),
                value: text.to_string(),
                problem: format!("is not a path from 1 to {paths}"),
            }))
        }
    };
    let kind_attr = c.attr("type").unwrap_or("").trim().to_ascii_lowercase();
    Ok(match c.name.as_str() {
        "throw" => {
            let modifier = c.attr("mod").unwrap_or("");
            let bounce = kind_attr == "bounce";
            Transition::Throw {
                path,
                kind: throw_kind(&kind_attr, modifier).map_err(error)?,
                gravity: throw_gravity(modifier).map_err(error)?,
                bounce_energy: if bounce {
                    bounce_fraction(modifier).map_err(error)?
                } else {
                    None
                },
                bounce_plane: if bounce {
                    bounce_plane(modifier).map_err(error)?
                } else {
                    None
                },
            }
        }
        "catch" => Transition::Catch {
            path,
            kind: if kind_attr == "soft" {
                CatchKind::Soft
            } else {
                CatchKind::Catch
            },
        },
        "softcatch" => Transition::Catch {
            path,
            kind: CatchKind::Soft,
        },
        "grabcatch" => Transition::Catch {
            path,
            kind: CatchKind::Catch,
        },
        "holding" => Transition::Holding { path },
        other => {
            return Err(error(EventErrorKind::UnknownTransition {
                element: other.to_string(),
            }))
        }
    })
}

/// A required attribute's text.
fn required<'a>(e: &'a Element, name: &str) -> Result<&'a str, EventError> {
    e.attr(name).ok_or_else(|| missing(e, name))
}

fn missing(e: &Element, name: &str) -> EventError {
    EventError::new(
        e.offset,
        EventErrorKind::MissingAttribute {
            element: e.name.clone(),
            attribute: name.to_string(),
        },
    )
}

fn bad_value(e: &Element, name: &str, value: &str, problem: String) -> EventError {
    EventError::new(
        e.offset,
        EventErrorKind::BadValue {
            element: e.name.clone(),
            attribute: name.to_string(),
            value: value.to_string(),
            problem,
        },
    )
}

/// A number attribute: finite, and within ±`MAX_CM` (coordinates, times and angles alike).
fn number(e: &Element, name: &str, default: Option<f64>) -> Result<f64, EventError> {
    match e.attr(name) {
        Some(v) => match v.trim().parse::<f64>() {
            Ok(x) if x.is_finite() && x.abs() <= MAX_CM => Ok(x),
            Ok(x) if x.is_finite() => Err(bad_value(
                e,
                name,
                v,
                format!("is outside -{MAX_CM}..{MAX_CM}"),
            )),
            _ => Err(bad_value(e, name, v, "is not a finite number".into())),
        },
        None => default.ok_or_else(|| missing(e, name)),
    }
}

/// A count attribute: a whole number from 1 to `max`.
fn count(e: &Element, name: &str, default: Option<usize>, max: usize) -> Result<usize, EventError> {
    match e.attr(name) {
        Some(v) => match v.trim().parse::<usize>() {
            Ok(n) if (1..=max).contains(&n) => Ok(n),
            _ => Err(bad_value(
                e,
                name,
                v,
                format!("is not a whole number from 1 to {max}"),
            )),
        },
        None => default.ok_or_else(|| missing(e, name)),
    }
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
pub(super) fn color_value(text: &str) -> Option<Rgba> {
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

/// The value of `key=` in a throw modifier (`;`-separated `key=value` entries, keys in any
/// case), trimmed; `None` when the key is not there.
fn modifier_value<'a>(modifier: &'a str, key: &str) -> Option<&'a str> {
    modifier
        .split(';')
        .filter_map(|entry| entry.split_once('=').or(Some((entry, ""))))
        .find(|(k, _)| k.trim().eq_ignore_ascii_case(key))
        .map(|(_, value)| value.trim())
}

fn modifier_error(message: String) -> EventErrorKind {
    EventErrorKind::ThrowModifier { message }
}

/// A throw's own gravity: its `g=` modifier (Juggling Lab's cm/s², any throw type), in m/s².
pub(super) fn throw_gravity(modifier: &str) -> Result<Option<f64>, EventErrorKind> {
    let Some(value) = modifier_value(modifier, "g") else {
        return Ok(None);
    };
    let gravity = crate::settings::keys::GRAVITY;
    let g = gravity
        .parse_in_string("throw modifier g", value)
        .map_err(|e| modifier_error(e.to_string()))?;
    Ok(Some(g / gravity.per_unit()))
}

/// A bounce's `bouncefrac=`: the share of its energy the prop keeps at each bounce
/// (Juggling Lab's default 0.9; the rebound speed is its square root times the impact's;
/// above 1 the bounce gives energy, `keys::BOUNCE_FRACTION`).
pub(super) fn bounce_fraction(modifier: &str) -> Result<Option<f64>, EventErrorKind> {
    let Some(value) = modifier_value(modifier, "bouncefrac") else {
        return Ok(None);
    };
    let f = crate::settings::keys::BOUNCE_FRACTION
        .parse("bouncefrac", value)
        .map_err(|e| modifier_error(e.to_string()))?;
    Ok(Some(f))
}

/// A bounce's `bounceplane=`: the height of the surface it bounces off (Juggling Lab's
/// centimetres above the floor, default 0), in metres.
pub(super) fn bounce_plane(modifier: &str) -> Result<Option<f64>, EventErrorKind> {
    let Some(value) = modifier_value(modifier, "bounceplane") else {
        return Ok(None);
    };
    let h = value
        .parse::<f64>()
        .ok()
        .filter(|h| h.is_finite() && h.abs() <= MAX_CM)
        .ok_or_else(|| {
            modifier_error(format!(
                "bounce modifier bounceplane={value} is not a height from -{MAX_CM} to {MAX_CM} cm"
            ))
        })?;
    Ok(Some(h / 100.0))
}

/// A throw's type and modifiers: `toss` or `bounce` with `bounces`, `forced`, `hyper`
/// (`g=` is read by `throw_gravity`, `bouncefrac=` by `bounce_fraction`, `bounceplane=` by
/// `bounce_plane`).
pub(super) fn throw_kind(kind: &str, modifier: &str) -> Result<TossKind, EventErrorKind> {
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
                            .ok_or_else(|| {
                                modifier_error(format!(
                                    "bounce modifier bounces={value} is not a whole number of 1 or more"
                                ))
                            })?
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
        other => Err(EventErrorKind::ThrowType {
            kind: other.to_string(),
        }),
    }
}
