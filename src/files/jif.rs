//! JIF, the Juggling Interchange Format (JSON, as passist writes and reads it): jugglers with
//! `position`/`lookAt`, `limbs` (hands), `props`, `throws` (`time`, `duration` in beats,
//! `from`/`to` limb, `prop`, optional `spins`), `repetition` (`period`, `limbPermutation`,
//! `propPermutation`) and `timeStretchFactor` (JIF beats per beat of one juggler).
//!
//! Three steps, each its own function: [`parse`] reads the JSON into a typed [`Jif`] (an
//! error names the JSON path, `throws[3].to`); [`Jif::complete`] fills in what a partial file
//! leaves out as passist's completer does (limbs for every limb a throw names, jugglers for
//! the limbs, two hands each: juggler `i % n`, right hands first; names A, B, ...; jugglers on
//! a circle of radius 1.2 + 0.2 n m facing its centre); [`Complete::schedule`] turns the throws
//! into a [`Schedule`] on fine beats (every time and duration a whole number of them, the
//! limb permutation unrolled), which [`read_str`] animates as a pattern of events.

use std::sync::Arc;

use serde_json::{Map, Value};
use thiserror::Error;

use super::{FileError, LoadedPattern, Location};
use crate::layout::{Layout, Placement};
use crate::motion::Timing;
use crate::notation::{Expansion, Pattern, PatternNode, Ratio, Slot, Span};
use crate::schedule::Schedule;
use crate::settings::Settings;
use crate::spec::{EventFormat, EventPattern, EventSource, PathProp, PatternSource, PatternSpec};
use crate::types::{Hand, PropKind, Rgba};
use glam::Vec3;

/// A JIF file that cannot be read or animated: the JSON path of the value at fault (`""`
/// for the whole document) and why.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{}{message}", if path.is_empty() { String::new() } else { format!("{path}: ") })]
pub struct JifError {
    pub path: String,
    pub message: String,
}

fn fail<T>(path: impl Into<String>, message: impl Into<String>) -> Result<T, JifError> {
    Err(JifError {
        path: path.into(),
        message: message.into(),
    })
}

/// A juggler of a JIF file.
#[derive(Clone, Debug, PartialEq)]
pub struct JifJuggler {
    pub name: Option<String>,
    /// Metres, y up.
    pub position: Option<[f64; 3]>,
    pub look_at: Option<[f64; 3]>,
}

/// A limb: which juggler it belongs to and what it is.
#[derive(Clone, Debug, PartialEq)]
pub struct JifLimb {
    pub juggler: Option<usize>,
    /// `right hand`, `left hand`, ... as written.
    pub kind: Option<String>,
}

/// A prop: its kind (`club`, `ball`, `ring`) and colour.
#[derive(Clone, Debug, PartialEq)]
pub struct JifProp {
    pub kind: Option<PropKind>,
    pub color: Option<Rgba>,
}

/// One throw: when (JIF beats), how long until it is thrown again, from and to which limb.
#[derive(Clone, Debug, PartialEq)]
pub struct JifThrow {
    pub time: f64,
    pub duration: f64,
    pub from: usize,
    pub to: usize,
    pub prop: Option<usize>,
    pub spins: Option<u8>,
    pub label: Option<String>,
}

/// How the throws repeat: after `period` JIF beats, limb `i` plays what limb
/// `limb_permutation[i]` played.
#[derive(Clone, Debug, PartialEq)]
pub struct JifRepetition {
    pub period: f64,
    pub limb_permutation: Option<Vec<usize>>,
    pub prop_permutation: Option<Vec<usize>>,
}

/// A JIF document as written (before completion).
#[derive(Clone, Debug, PartialEq)]
pub struct Jif {
    pub name: Option<String>,
    pub time_stretch: f64,
    pub jugglers: Vec<JifJuggler>,
    pub limbs: Vec<JifLimb>,
    pub props: Vec<JifProp>,
    pub throws: Vec<JifThrow>,
    pub repetition: Option<JifRepetition>,
    /// juggler's own `juggler` object: the animation's timing, when a file juggler wrote
    /// gives it (passist ignores it).
    pub timing: Option<JifTiming>,
}

/// The `juggler` object: beats of a juggler per second, dwell in those beats, gravity m/s².
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JifTiming {
    pub beats_per_second: f64,
    pub dwell: f64,
    pub gravity: f64,
}

/// Most throws a JIF file may list (before its repetition is unrolled).
const MAX_LISTED: usize = 100_000;

/// Reads JIF text into a [`Jif`]; unknown keys are ignored, known ones must have their type.
pub fn parse(text: &str) -> Result<Jif, JifError> {
    let value: Value = serde_json::from_str(text).or_else(|e| {
        fail(
            "",
            format!(
                "not JSON: {} (line {}, column {})",
                strip_position(&e.to_string()),
                e.line(),
                e.column()
            ),
        )
    })?;
    let Value::Object(root) = value else {
        return fail("", "a JIF document is a JSON object");
    };
    let name = match root.get("meta") {
        None | Some(Value::Null) => None,
        Some(Value::Object(meta)) => optional_string(meta, "name", "meta.name")?,
        Some(_) => return fail("meta", "must be an object"),
    };
    let time_stretch = match root.get("timeStretchFactor") {
        None | Some(Value::Null) => 1.0,
        Some(v) => positive(v, "timeStretchFactor")?,
    };
    let jugglers = array(&root, "jugglers")?
        .iter()
        .enumerate()
        .map(|(i, v)| juggler(v, &format!("jugglers[{i}]")))
        .collect::<Result<_, _>>()?;
    let limbs = array(&root, "limbs")?
        .iter()
        .enumerate()
        .map(|(i, v)| limb(v, &format!("limbs[{i}]")))
        .collect::<Result<_, _>>()?;
    let props = array(&root, "props")?
        .iter()
        .enumerate()
        .map(|(i, v)| prop(v, &format!("props[{i}]")))
        .collect::<Result<_, _>>()?;
    let listed = array(&root, "throws")?;
    if listed.len() > MAX_LISTED {
        return fail(
            "throws",
            format!(
                "{} throws, more than the limit of {MAX_LISTED}",
                listed.len()
            ),
        );
    }
    let throws = listed
        .iter()
        .enumerate()
        .map(|(i, v)| throw(v, &format!("throws[{i}]")))
        .collect::<Result<_, _>>()?;
    let repetition = match root.get("repetition") {
        None | Some(Value::Null) => None,
        Some(Value::Object(r)) => Some(repetition(r)?),
        Some(_) => return fail("repetition", "must be an object"),
    };
    let timing = match root.get("juggler") {
        None | Some(Value::Null) => None,
        Some(Value::Object(t)) => Some(timing(t)?),
        Some(_) => return fail("juggler", "must be an object"),
    };
    Ok(Jif {
        name,
        time_stretch,
        jugglers,
        limbs,
        props,
        throws,
        repetition,
        timing,
    })
}

/// The `juggler` object, each number in its setting's range.
fn timing(t: &Map<String, Value>) -> Result<JifTiming, JifError> {
    use crate::settings::keys;
    let get = |key: &str, number_range: &keys::Number, default: f64| -> Result<f64, JifError> {
        let path = format!("juggler.{key}");
        match t.get(key).filter(|v| !v.is_null()) {
            None => Ok(default),
            Some(v) => {
                let x = number(v, &path)?;
                number_range
                    .check(&path, x)
                    .or_else(|e| fail(path, e.to_string()))
            }
        }
    };
    Ok(JifTiming {
        beats_per_second: get("beatsPerSecond", &keys::BPS, BEATS_PER_SECOND)?,
        dwell: get("dwell", &keys::DWELL, DWELL)?,
        gravity: get("gravity", &keys::GRAVITY, Settings::default().gravity)?,
    })
}

/// serde_json's message without its " at line L column C" (given separately).
fn strip_position(message: &str) -> &str {
    message.split(" at line ").next().unwrap_or(message)
}

fn array<'a>(root: &'a Map<String, Value>, key: &str) -> Result<&'a [Value], JifError> {
    match root.get(key) {
        None | Some(Value::Null) => Ok(&[]),
        Some(Value::Array(items)) => Ok(items),
        Some(_) => fail(key, "must be an array"),
    }
}

fn object<'a>(v: &'a Value, path: &str) -> Result<&'a Map<String, Value>, JifError> {
    match v {
        Value::Object(m) => Ok(m),
        _ => fail(path, "must be an object"),
    }
}

fn optional_string(
    m: &Map<String, Value>,
    key: &str,
    path: &str,
) -> Result<Option<String>, JifError> {
    match m.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => fail(path, "must be a string"),
    }
}

fn number(v: &Value, path: &str) -> Result<f64, JifError> {
    match v.as_f64() {
        Some(x) if x.is_finite() => Ok(x),
        _ => fail(path, "must be a number"),
    }
}

fn positive(v: &Value, path: &str) -> Result<f64, JifError> {
    let x = number(v, path)?;
    if x > 0.0 && x <= 1e6 {
        Ok(x)
    } else {
        fail(
            path,
            format!(
                "must be a positive number up to 1000000, not {}",
                crate::settings::keys::show(x)
            ),
        )
    }
}

fn index(v: &Value, path: &str) -> Result<usize, JifError> {
    match v.as_u64() {
        Some(n) if n <= MAX_LISTED as u64 => Ok(n as usize),
        _ => fail(path, "must be a whole number from 0 to 100000"),
    }
}

fn point(v: &Value, path: &str) -> Result<[f64; 3], JifError> {
    let Value::Array(items) = v else {
        return fail(path, "must be an array of 2 or 3 numbers");
    };
    let numbers = items
        .iter()
        .enumerate()
        .map(|(i, x)| number(x, &format!("{path}[{i}]")))
        .collect::<Result<Vec<f64>, _>>()?;
    let limit = |x: f64| x.abs() <= 1000.0;
    if !numbers.iter().all(|&x| limit(x)) {
        return fail(path, "coordinates must be within ±1000 m");
    }
    match numbers[..] {
        // Two coordinates are x and z on the floor, as passist reads them.
        [x, z] => Ok([x, 0.0, z]),
        [x, y, z] => Ok([x, y, z]),
        _ => fail(path, "must be an array of 2 or 3 numbers"),
    }
}

fn juggler(v: &Value, path: &str) -> Result<JifJuggler, JifError> {
    let m = object(v, path)?;
    let get = |key: &str| m.get(key).filter(|v| !v.is_null());
    Ok(JifJuggler {
        name: optional_string(m, "name", &format!("{path}.name"))?,
        position: get("position")
            .map(|p| point(p, &format!("{path}.position")))
            .transpose()?,
        look_at: get("lookAt")
            .map(|p| point(p, &format!("{path}.lookAt")))
            .transpose()?,
    })
}

fn limb(v: &Value, path: &str) -> Result<JifLimb, JifError> {
    let m = object(v, path)?;
    Ok(JifLimb {
        juggler: m
            .get("juggler")
            .filter(|v| !v.is_null())
            .map(|j| index(j, &format!("{path}.juggler")))
            .transpose()?,
        kind: optional_string(m, "type", &format!("{path}.type"))?,
    })
}

fn prop(v: &Value, path: &str) -> Result<JifProp, JifError> {
    let m = object(v, path)?;
    let kind = match optional_string(m, "type", &format!("{path}.type"))? {
        None => None,
        Some(t) => Some(t.parse::<PropKind>().or_else(|_| {
            fail(
                format!("{path}.type"),
                format!("prop type '{t}' not known (ball, club or ring)"),
            )
        })?),
    };
    let color = match optional_string(m, "color", &format!("{path}.color"))? {
        None => None,
        Some(c) => {
            Some(super::color::parse_color(&c).or_else(|e| fail(format!("{path}.color"), e))?)
        }
    };
    Ok(JifProp { kind, color })
}

fn throw(v: &Value, path: &str) -> Result<JifThrow, JifError> {
    let m = object(v, path)?;
    let required = |key: &str| {
        m.get(key).filter(|v| !v.is_null()).ok_or_else(|| JifError {
            path: format!("{path}.{key}"),
            message: "missing".into(),
        })
    };
    let time = number(required("time")?, &format!("{path}.time"))?;
    if !(0.0..=1e6).contains(&time) {
        return fail(
            format!("{path}.time"),
            format!(
                "must be from 0 to 1000000, not {}",
                crate::settings::keys::show(time)
            ),
        );
    }
    let spins = match m.get("spins").filter(|v| !v.is_null()) {
        None => None,
        Some(s) => match s.as_u64() {
            Some(n) if n <= u64::from(crate::notation::MAX_SPINS) => Some(n as u8),
            _ => {
                return fail(
                    format!("{path}.spins"),
                    format!(
                        "must be a whole number from 0 to {}",
                        crate::notation::MAX_SPINS
                    ),
                )
            }
        },
    };
    Ok(JifThrow {
        time,
        duration: positive(required("duration")?, &format!("{path}.duration"))?,
        from: index(required("from")?, &format!("{path}.from"))?,
        to: index(required("to")?, &format!("{path}.to"))?,
        prop: m
            .get("prop")
            .filter(|v| !v.is_null())
            .map(|p| index(p, &format!("{path}.prop")))
            .transpose()?,
        spins,
        label: optional_string(m, "label", &format!("{path}.label"))?,
    })
}

fn repetition(r: &Map<String, Value>) -> Result<JifRepetition, JifError> {
    let period = match r.get("period").filter(|v| !v.is_null()) {
        Some(p) => positive(p, "repetition.period")?,
        None => return fail("repetition.period", "missing"),
    };
    let permutation = |key: &str| -> Result<Option<Vec<usize>>, JifError> {
        match r.get(key).filter(|v| !v.is_null()) {
            None => Ok(None),
            Some(Value::Array(items)) => items
                .iter()
                .enumerate()
                .map(|(i, v)| index(v, &format!("repetition.{key}[{i}]")))
                .collect::<Result<Vec<_>, _>>()
                .map(Some),
            Some(_) => fail(format!("repetition.{key}"), "must be an array"),
        }
    };
    Ok(JifRepetition {
        period,
        limb_permutation: permutation("limbPermutation")?,
        prop_permutation: permutation("propPermutation")?,
    })
}

/// A completed juggler: name and placement.
#[derive(Clone, Debug, PartialEq)]
pub struct Juggler {
    pub name: String,
    pub position: [f64; 3],
    pub look_at: [f64; 3],
}

/// A JIF with everything a partial file leaves out filled in (see the module comment).
#[derive(Clone, Debug, PartialEq)]
pub struct Complete {
    pub name: Option<String>,
    pub time_stretch: f64,
    pub jugglers: Vec<Juggler>,
    /// Per limb: its juggler and hand.
    pub limbs: Vec<(usize, Hand)>,
    pub props: Vec<JifProp>,
    pub throws: Vec<JifThrow>,
    pub repetition: Option<JifRepetition>,
    pub timing: Option<JifTiming>,
}

/// passist's default name of juggler `i`: A, B, ..., Z, AA, AB, ...
pub fn juggler_name(i: usize) -> String {
    let mut n = i + 1;
    let mut name = Vec::new();
    while n > 0 {
        let m = (n - 1) % 26;
        name.push(b'A' + m as u8);
        n = (n - m) / 26;
    }
    name.reverse();
    String::from_utf8(name).unwrap_or_default()
}

/// passist's default position of juggler `index` of `n` (metres): alone at the origin, else
/// on a circle of radius 1.2 + 0.2 n.
fn default_position(index: usize, n: usize) -> [f64; 3] {
    if n <= 1 {
        return [0.0; 3];
    }
    let radius = 1.2 + n as f64 * 0.2;
    let a = std::f64::consts::TAU * index as f64 / n as f64;
    let round = |x: f64| (x * 1000.0).round() / 1000.0;
    [round(radius * a.cos()), 0.0, round(radius * a.sin())]
}

impl Jif {
    /// Fills in limbs, jugglers and their details as passist's completer does; refuses what
    /// cannot be animated (limbs that are not hands, two limbs for one hand).
    pub fn complete(&self) -> Result<Complete, JifError> {
        let needed = self
            .throws
            .iter()
            .map(|t| t.from.max(t.to) + 1)
            .max()
            .unwrap_or(0);
        let mut limbs = self.limbs.clone();
        limbs.resize(
            limbs.len().max(needed),
            JifLimb {
                juggler: None,
                kind: None,
            },
        );
        let named = limbs.iter().filter_map(|l| l.juggler).max();
        let needed_jugglers = match named {
            Some(j) => j + 1,
            None => limbs.len().div_ceil(2),
        };
        let n = self.jugglers.len().max(needed_jugglers).max(1);
        let mut hands = Vec::with_capacity(limbs.len());
        for (i, limb) in limbs.iter().enumerate() {
            let juggler = limb.juggler.unwrap_or(i % n);
            let hand = match limb.kind.as_deref() {
                None if i < n => Hand::Right,
                None => Hand::Left,
                Some("right hand") => Hand::Right,
                Some("left hand") => Hand::Left,
                Some(other) => {
                    return fail(
                        format!("limbs[{i}].type"),
                        format!("'{other}': only 'right hand' and 'left hand' can be animated"),
                    )
                }
            };
            if let Some(first) = hands.iter().position(|&h| h == (juggler, hand)) {
                return fail(
                    format!("limbs[{i}]"),
                    format!("the same hand as limbs[{first}]"),
                );
            }
            hands.push((juggler, hand));
        }
        let jugglers = (0..n)
            .map(|i| {
                let given = self.jugglers.get(i);
                let solo = n == 1;
                Juggler {
                    name: given
                        .and_then(|j| j.name.clone())
                        .unwrap_or_else(|| juggler_name(i)),
                    position: given
                        .and_then(|j| j.position)
                        .unwrap_or_else(|| default_position(i, n)),
                    look_at: given.and_then(|j| j.look_at).unwrap_or(if solo {
                        [0.0, 0.0, 1.0]
                    } else {
                        [0.0; 3]
                    }),
                }
            })
            .collect();
        for (i, t) in self.throws.iter().enumerate() {
            if let Some(p) = t.prop {
                if p >= MAX_LISTED {
                    return fail(format!("throws[{i}].prop"), "too large");
                }
            }
        }
        if let Some(perm) = self
            .repetition
            .as_ref()
            .and_then(|r| r.limb_permutation.as_ref())
        {
            check_permutation(perm, hands.len(), "repetition.limbPermutation")?;
        }
        Ok(Complete {
            name: self.name.clone(),
            time_stretch: self.time_stretch,
            jugglers,
            limbs: hands,
            props: self.props.clone(),
            throws: self.throws.clone(),
            repetition: self.repetition.clone(),
            timing: self.timing,
        })
    }
}

fn check_permutation(perm: &[usize], len: usize, path: &str) -> Result<(), JifError> {
    if perm.len() != len {
        return fail(path, format!("has {} entries for {len} limbs", perm.len()));
    }
    let mut seen = vec![false; len];
    for (i, &p) in perm.iter().enumerate() {
        if p >= len || std::mem::replace(&mut seen[p], true) {
            return fail(format!("{path}[{i}]"), "not a permutation of the limbs");
        }
    }
    Ok(())
}

/// The smallest `d <= 720` with `x * d` whole (within 1e-6), if any.
fn denominator(x: f64) -> Option<u64> {
    (1..=720u64).find(|&d| {
        let scaled = x * d as f64;
        (scaled - scaled.round()).abs() < 1e-6 * d as f64
    })
}

/// Cycle lengths' least common multiple: how often a permutation must be applied to come back.
fn order(perm: &[usize]) -> u64 {
    let mut seen = vec![false; perm.len()];
    let mut order = 1u64;
    for start in 0..perm.len() {
        let mut len = 0u64;
        let mut i = start;
        while !seen[i] {
            seen[i] = true;
            i = perm[i];
            len += 1;
        }
        if len > 0 {
            order = crate::notation::prechac::lcm(order, len);
        }
    }
    order
}

impl Complete {
    /// The throws as a validated schedule on fine beats: `subdivision` of them per beat of a
    /// juggler (`timeStretchFactor` JIF beats), the repetition's limb permutation unrolled
    /// into one period. Errors name the throw at fault.
    pub fn schedule(&self) -> Result<Schedule, JifError> {
        let Some(rep) = &self.repetition else {
            return fail(
                "repetition",
                "missing: a pattern must repeat (give its period)",
            );
        };
        if self.throws.is_empty() {
            return fail("throws", "no throws");
        }
        // Fine beats per JIF beat: every time, duration, the period and the stretch whole.
        let mut fine: u64 = 1;
        let whole = |x: f64, path: String, fine: &mut u64| -> Result<(), JifError> {
            match denominator(x) {
                Some(d) => {
                    *fine = crate::notation::prechac::lcm(*fine, d);
                    Ok(())
                }
                None => fail(
                    path,
                    format!("{x} is not a fraction with a denominator up to 720"),
                ),
            }
        };
        for (i, t) in self.throws.iter().enumerate() {
            whole(t.time, format!("throws[{i}].time"), &mut fine)?;
            whole(t.duration, format!("throws[{i}].duration"), &mut fine)?;
        }
        whole(rep.period, "repetition.period".into(), &mut fine)?;
        let stretch = denominator(self.time_stretch)
            .and_then(|d| Ratio::new((self.time_stretch * d as f64).round() as u64, d))
            .filter(|r| r.num() > 0)
            .ok_or_else(|| JifError {
                path: "timeStretchFactor".into(),
                message: "not a fraction with a denominator up to 720".into(),
            })?;
        fine = crate::notation::prechac::lcm(fine, stretch.den());
        let subdivision = fine / stretch.den() * stretch.num();
        let identity: Vec<usize> = (0..self.limbs.len()).collect();
        let perm = rep.limb_permutation.as_ref().unwrap_or(&identity);
        let copies = order(perm);
        let scale = |x: f64| (x * fine as f64).round() as u64;
        let period = scale(rep.period).saturating_mul(copies);
        let count = (self.throws.len() as u128) * u128::from(copies);
        let too_large = |e: crate::budget::BudgetError| JifError {
            path: "repetition".into(),
            message: e.to_string(),
        };
        crate::budget::check(crate::budget::BEATS, u128::from(period)).map_err(too_large)?;
        crate::budget::check(crate::budget::THROWS, count).map_err(too_large)?;
        if u64::from(u32::try_from(subdivision).unwrap_or(u32::MAX)) != subdivision
            || subdivision > crate::budget::BEATS.max
        {
            return fail("timeStretchFactor", "too many fine beats per beat");
        }
        let mut slots = Vec::with_capacity(count as usize);
        let mut mapped = identity.clone();
        for copy in 0..copies {
            for (i, t) in self.throws.iter().enumerate() {
                let (juggler, hand) = self.limbs[mapped[t.from]];
                let (to_juggler, to_hand) = self.limbs[mapped[t.to]];
                let beat = (scale(t.time) + copy * scale(rep.period)) % period;
                let value = u32::try_from(scale(t.duration)).map_err(|_| JifError {
                    path: format!("throws[{i}].duration"),
                    message: "too long".into(),
                })?;
                slots.push(Slot {
                    beat: beat as u32,
                    juggler,
                    hand,
                    index: 0,
                    value,
                    to_juggler,
                    to_hand,
                    modifier: None,
                    spins: t.spins,
                    sync: false,
                    // The throw's index in the file, for errors.
                    span: Span::new(i, i + 1),
                });
            }
            mapped = mapped.iter().map(|&l| perm[l]).collect();
        }
        slots.sort_by_key(|s| (s.beat, s.juggler, s.hand == Hand::Left, s.span.start));
        for k in 1..slots.len() {
            let (a, b) = (slots[k - 1], slots[k]);
            if (a.beat, a.juggler, a.hand) == (b.beat, b.juggler, b.hand) {
                slots[k].index = a.index + 1;
            }
        }
        let jugglers = self.jugglers.len();
        let pattern = Pattern {
            text: String::new(),
            root: PatternNode {
                elements: Vec::new(),
                mirror: false,
                span: Span::default(),
            },
            delays: None,
            expanded: Expansion {
                period: period as u32,
                written_period: period as u32,
                jugglers,
                mirrored: false,
                auto_mirrored: false,
                slots,
                subdivision: subdivision as u32,
                delays: vec![Ratio::ZERO; jugglers],
                prechac: true,
            },
        };
        crate::schedule::build(&pattern).map_err(|e| {
            let path = e
                .span()
                .map(|s| format!("throws[{}]", s.start))
                .unwrap_or_else(|| "throws".into());
            JifError {
                path,
                message: e.to_string(),
            }
        })
    }

    /// Where the jugglers stand: at `position`, facing `lookAt` (facing +z when it is their
    /// own place).
    pub fn layout(&self) -> Layout {
        Layout {
            jugglers: self
                .jugglers
                .iter()
                .map(|j| {
                    let [x, _, z] = j.position;
                    let (dx, dz) = (j.look_at[0] - x, j.look_at[2] - z);
                    let facing = if dx.abs() + dz.abs() < 1e-9 {
                        0.0
                    } else {
                        dx.atan2(dz)
                    };
                    Placement {
                        position: Vec3::new(x as f32, 0.0, z as f32),
                        facing: facing as f32,
                    }
                })
                .collect(),
        }
    }
}

/// passist's speed: beats of one juggler per second.
pub const BEATS_PER_SECOND: f64 = 2.8;
/// Beats a hand holds a prop before throwing it (Juggling Lab's default dwell).
const DWELL: f64 = 1.3;

impl Complete {
    /// The file's timing (its `juggler` object), else passist's speed and Juggling Lab's
    /// dwell and gravity.
    pub fn timing(&self) -> JifTiming {
        self.timing.unwrap_or(JifTiming {
            beats_per_second: BEATS_PER_SECOND,
            dwell: DWELL,
            gravity: Settings::default().gravity,
        })
    }
}

/// A JIF document read into the events of one loop, with its name and prop kind.
pub fn read_events(text: &str) -> Result<(EventPattern, Complete), JifError> {
    let complete = parse(text)?.complete()?;
    let schedule = complete.schedule()?;
    let sub = f64::from(schedule.subdivision.max(1));
    let given = complete.timing();
    let timing = Timing {
        bps: given.beats_per_second * sub,
        dwell: given.dwell * sub,
        gravity: given.gravity,
    };
    let layout = complete.layout();
    let kind = complete
        .props
        .first()
        .and_then(|p| p.kind)
        .unwrap_or(PropKind::Club);
    // Hands work where clubs need them when any prop is a club.
    let hands_for = if complete
        .props
        .iter()
        .any(|p| p.kind == Some(PropKind::Club))
    {
        PropKind::Club
    } else {
        kind
    };
    let mut choreography =
        crate::motion::from_schedule_per_juggler(&schedule, timing, &layout, &[], hands_for);
    crate::motion::place_for_prop(&mut choreography, hands_for);
    let props: usize = choreography.paths.iter().map(|p| p.props).sum();
    let path_props = (0..props)
        .map(|i| {
            let given = complete.props.get(i);
            PathProp {
                kind: given.and_then(|p| p.kind).unwrap_or(kind),
                color: given.and_then(|p| p.color),
            }
        })
        .collect();
    let path_of_prop = file_prop_of_each(&complete, &schedule, &choreography, timing, props);
    // Per juggler, the beats it throws on in one loop.
    let loop_beats = choreography.hand_period * timing.bps;
    let copies = (loop_beats / f64::from(schedule.period.max(1)))
        .round()
        .max(1.0);
    let busiest = (0..schedule.jugglers)
        .map(|j| {
            let mut beats: Vec<u32> = schedule
                .throws
                .iter()
                .filter(|t| t.from.juggler == j)
                .map(|t| t.beat)
                .collect();
            beats.dedup();
            beats.len()
        })
        .max()
        .unwrap_or(1);
    let pattern = EventPattern {
        title: complete.name.clone(),
        choreography,
        jugglers: schedule.jugglers,
        paths: props,
        path_of_prop,
        path_props,
        throws_per_loop: ((busiest as f64 * copies) as u32).max(1),
    };
    Ok((pattern, complete))
}

/// Per prop of the motion, the file's prop it is: the `prop` of the file's throws it makes
/// (each throw of the file's first repetition found in the motion at its time); props no
/// throw names take the file's remaining props in order.
fn file_prop_of_each(
    complete: &Complete,
    schedule: &crate::schedule::Schedule,
    choreography: &crate::motion::Choreography,
    timing: Timing,
    props: usize,
) -> Vec<usize> {
    let mut of_prop: Vec<Option<usize>> = vec![None; props];
    if complete.throws.iter().any(|t| t.prop.is_some()) {
        let motion = crate::motion::Motion::from_events(choreography, timing);
        // The file's throw `i` in the schedule: its first copy (the earliest beat).
        let mut first: Vec<Option<usize>> = vec![None; complete.throws.len()];
        for (k, t) in schedule.throws.iter().enumerate() {
            if let Some(slot) = first.get_mut(t.span.0) {
                if slot.is_none_or(|f| schedule.throws[f].beat > t.beat) {
                    *slot = Some(k);
                }
            }
        }
        for (i, throw) in complete.throws.iter().enumerate() {
            let (Some(file_prop), Some(k)) = (throw.prop, first[i]) else {
                continue;
            };
            let seconds = f64::from(schedule.throws[k].beat) / timing.bps;
            if let Some(m) = motion.prop_making(k, seconds) {
                if of_prop[m].is_none() && file_prop < props && !of_prop.contains(&Some(file_prop))
                {
                    of_prop[m] = Some(file_prop);
                }
            }
        }
    }
    let unused: Vec<usize> = (0..props)
        .filter(|p| !of_prop.contains(&Some(*p)))
        .collect();
    let mut unused = unused.into_iter();
    of_prop
        .into_iter()
        .map(|p| p.or_else(|| unused.next()).unwrap_or(0))
        .collect()
}

/// Reads a `.jif` file's text: one pattern, animated from its throws.
pub fn read_str(text: &str, origin: &str) -> Result<Vec<LoadedPattern>, FileError> {
    let (events, complete) = read_events(text).map_err(|e| FileError::Jif {
        origin: origin.to_string(),
        source: Box::new(e),
    })?;
    let kind = events.path_props.first().map_or(PropKind::Club, |p| p.kind);
    let name = complete.name.clone().unwrap_or_else(|| {
        std::path::Path::new(origin)
            .file_stem()
            .map_or_else(|| origin.to_string(), |s| s.to_string_lossy().into_owned())
    });
    let settings = Settings {
        prop: kind,
        gravity: complete
            .timing
            .map_or(Settings::default().gravity, |t| t.gravity),
        ..Settings::default()
    };
    let spec = PatternSpec {
        name,
        source: PatternSource::Events(Arc::new(EventSource {
            format: EventFormat::Jif,
            text: text.to_string(),
            pattern: events,
        })),
        description: String::new(),
        settings,
    };
    Ok(vec![LoadedPattern {
        spec,
        at: Location {
            origin: origin.to_string(),
            line: 1,
            column: 1,
        },
    }])
}

#[cfg(test)]
mod tests;
