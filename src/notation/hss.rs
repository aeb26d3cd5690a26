//! Hand siteswaps (`hss=`): Juggling Lab's conversion of an object siteswap plus a hand
//! siteswap into passing notation, one `(l,r)!` pair per beat and juggler, with the jugglers
//! and hands Juggling Lab assigns (facts learnt from Juggling Lab's documentation and
//! behaviour; the code is juggler's own).
//!
//! - The object pattern is an asynchronous siteswap (values `0-9a-z`, multiplexes `[..]`,
//!   bounce suffixes `B`, `BL`, `BF`, `BH`, `BHL`, `BHF`); the hand pattern a vanilla
//!   siteswap whose average is the number of hands.
//! - Hands are numbered along the hand pattern's orbits in order of their first beat; the
//!   default `handspec` gives hand 1 to juggler 1's right hand, hand 2 to juggler 2's right, ...
//!   and, once every juggler has a right hand, the left hands in the same order (an odd count
//!   of hands leaves the last juggler one-handed). `handspec=(l,r)(l,r)...` assigns them
//!   explicitly, one pair per juggler.
//! - The period is the lcm of the object period and the hand orbits' period. Each throw
//!   becomes a pair on its beat for the juggler of the throwing hand (`0` for every other hand),
//!   with `x` where the hand parity needs it, `pN` when another juggler catches, and with
//!   `hold=true` an `H` on a throw the same hand catches at the hand pattern's value.
//! - Dwell per beat: 0.3 beats when a hand throws on successive beats (else the `dwell`
//!   setting) with `dwellmax=false`; with `dwellmax=true` (the default) as long as the hand is
//!   free, less 0.7; never more than the shortest throw caught there less 0.7.

use thiserror::Error;

/// Juggling Lab's default dwell for hand siteswaps, beats.
pub const HSS_DWELL: f64 = 0.3;

/// Why a hand siteswap cannot be converted (Juggling Lab's messages).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum HssError {
    #[error("Syntax error in object pattern at position {0}")]
    ObjectSyntaxAt(usize),
    #[error("Syntax error in object pattern")]
    ObjectSyntax,
    #[error("Bad average for object pattern")]
    ObjectAverage,
    #[error("Object pattern is invalid")]
    ObjectInvalid,
    #[error("Syntax error in hand pattern at position {0}")]
    HandSyntaxAt(usize),
    #[error("Bad average for hand pattern")]
    HandAverage,
    #[error("Hand pattern is invalid")]
    HandInvalid,
    #[error("Syntax error in handspec syntax at position {0}")]
    HandspecSyntaxAt(usize),
    #[error("Error in handspec syntax")]
    HandspecSyntax,
    #[error("Hand number {0} assigned more than once")]
    HandTwice(usize),
    #[error("Hand number {0} is out of range in handspec")]
    HandOutOfRange(usize),
    #[error("Specify at least one hand for each juggler")]
    JugglerWithoutHand,
    #[error("Too many jugglers in handspec: Max {0} jugglers possible")]
    TooManyJugglers(usize),
    #[error("Hand {0} missing in handspec")]
    HandMissing(usize),
    #[error("Juggler not assigned to hand {0}")]
    HandUnassigned(usize),
    #[error("No hand to throw object at beat {0}")]
    NoHandAtBeat(usize),
    #[error("Please enter true/false for {0}")]
    Bool(&'static str),
    #[error("hand siteswap too long: its period would be {0} beats (at most {max})", max = MAX_PERIOD)]
    TooLong(u128),
}

/// Longest converted period accepted, beats.
pub const MAX_PERIOD: u128 = 10_000;

/// A converted hand siteswap.
#[derive(Clone, Debug, PartialEq)]
pub struct Hss {
    /// Passing notation, `<(l,r)!|...><...>`, one group per beat.
    pub notation: String,
    pub jugglers: usize,
    /// Hands of the hand pattern (its average).
    pub hands: usize,
    /// Dwell per beat of the converted period (Juggling Lab's; see the module doc).
    pub dwell_beats: Vec<f64>,
}

impl Hss {
    /// One dwell for the whole pattern (`settings::Dwell::value` of these beats): the shortest
    /// dwell of a beat where something is caught.
    pub fn dwell(&self) -> f64 {
        shortest_dwell(&self.dwell_beats)
    }
}

/// The one dwell of beats dwelling `dwell_beats` each: the shortest of a beat where something
/// is caught (above 0), within 0.05 and 1.95.
pub fn shortest_dwell(dwell_beats: &[f64]) -> f64 {
    dwell_beats
        .iter()
        .copied()
        .filter(|d| *d > 0.0)
        .fold(f64::INFINITY, f64::min)
        .clamp(0.05, 1.95)
}

/// One throw of the object pattern: value and bounce suffix.
#[derive(Clone, Debug, PartialEq)]
struct ObjectThrow {
    value: usize,
    bounce: String,
}

fn value_of(c: char) -> Option<usize> {
    c.to_digit(36)
        .filter(|_| c.is_ascii_digit() || c.is_ascii_lowercase())
        .map(|v| v as usize)
}

/// The object pattern: per beat its throws (a multiplex has several).
fn object_pattern(text: &str) -> Result<Vec<Vec<ObjectThrow>>, HssError> {
    let mut beats: Vec<Vec<ObjectThrow>> = Vec::new();
    let (mut in_mux, mut mux_has) = (false, false);
    // After a value: may take `B`; after `B`: `F`, `L` or `H`; after `BH`: `F` or `L`.
    let (mut b1, mut b2, mut b3) = (false, false, false);
    for (i, c) in text.chars().enumerate() {
        let at = HssError::ObjectSyntaxAt(i + 1);
        if let Some(v) = value_of(c) {
            let t = ObjectThrow {
                value: v,
                bounce: String::new(),
            };
            if in_mux {
                beats.last_mut().ok_or(at)?.push(t);
                mux_has = true;
            } else {
                beats.push(vec![t]);
            }
            (b1, b2, b3) = (true, false, false);
            continue;
        }
        let last = beats.last_mut().and_then(|b| b.last_mut());
        match c {
            c if c.is_whitespace() => (b1, b2, b3) = (false, false, false),
            '[' if !in_mux => {
                in_mux = true;
                mux_has = false;
                beats.push(Vec::new());
                (b1, b2, b3) = (false, false, false);
            }
            ']' if in_mux && mux_has => {
                in_mux = false;
                (b1, b2, b3) = (false, false, false);
            }
            'B' if b1 => {
                last.ok_or(at)?.bounce = "B".into();
                (b1, b2) = (false, true);
            }
            'F' | 'L' if b2 => {
                last.ok_or(at)?.bounce.push(c);
                b2 = false;
            }
            'F' | 'L' if b3 => {
                last.ok_or(at)?.bounce.push(c);
                b3 = false;
            }
            'H' if b2 => {
                last.ok_or(at)?.bounce.push('H');
                (b2, b3) = (false, true);
            }
            _ => return Err(at),
        }
    }
    if in_mux || beats.is_empty() {
        return Err(HssError::ObjectSyntax);
    }
    let sum: usize = beats.iter().flatten().map(|t| t.value).sum();
    if !sum.is_multiple_of(beats.len()) {
        return Err(HssError::ObjectAverage);
    }
    // Every beat catches as many throws as it throws.
    let n = beats.len();
    let mut landing = vec![0usize; n];
    for (i, b) in beats.iter().enumerate() {
        for t in b {
            landing[(i + t.value) % n] += 1;
        }
    }
    if landing.iter().zip(&beats).any(|(l, b)| *l != b.len()) {
        return Err(HssError::ObjectInvalid);
    }
    Ok(beats)
}

/// The hand pattern's values and its number of hands.
fn hand_pattern(text: &str) -> Result<(Vec<usize>, usize), HssError> {
    let mut values = Vec::new();
    for (i, c) in text.chars().enumerate() {
        match value_of(c) {
            Some(v) => values.push(v),
            None if c.is_whitespace() => {}
            None => return Err(HssError::HandSyntaxAt(i + 1)),
        }
    }
    if values.is_empty() {
        return Err(HssError::HandSyntaxAt(1));
    }
    let sum: usize = values.iter().sum();
    if !sum.is_multiple_of(values.len()) {
        return Err(HssError::HandAverage);
    }
    let n = values.len();
    let mut hit = vec![0usize; n];
    for (i, v) in values.iter().enumerate() {
        hit[(i + v) % n] += 1;
    }
    if hit.iter().any(|h| *h != 1) {
        return Err(HssError::HandInvalid);
    }
    Ok((values, sum / n))
}

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

fn lcm(a: u128, b: u128) -> u128 {
    if a == 0 || b == 0 {
        a.max(b)
    } else {
        a / gcd(a, b) * b
    }
}

/// The lcm of the hand pattern's orbit lengths (sum of values along each cycle).
fn hand_orbit_period(values: &[usize]) -> u128 {
    let n = values.len();
    let mut seen = vec![false; n];
    let mut period = 1u128;
    for start in 0..n {
        if seen[start] {
            continue;
        }
        let (mut i, mut total) = (start, 0u128);
        loop {
            seen[i] = true;
            total += values[i] as u128;
            i = (i + values[i]) % n;
            if i == start {
                break;
            }
        }
        if total != 0 {
            period = lcm(period, total);
        }
    }
    period
}

/// `(juggler 1-based, right?)` of every hand.
type HandMap = Vec<(usize, bool)>;

fn default_handspec(hands: usize) -> HandMap {
    let jugglers = hands.div_ceil(2);
    (0..hands)
        .map(|i| {
            if i < jugglers {
                (i + 1, true)
            } else {
                (i + 1 - jugglers, false)
            }
        })
        .collect()
}

/// `handspec=(l,r)(l,r)...`: hand numbers (1-based) of each juggler's left and right hand,
/// either may be left out.
fn parse_handspec(text: &str, hands: usize) -> Result<HandMap, HssError> {
    let mut map: Vec<Option<(usize, bool)>> = vec![None; hands];
    let mut juggler = 0usize;
    let mut closed_any = false;
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        if c != '(' {
            return Err(HssError::HandspecSyntaxAt(i + 1));
        }
        juggler += 1;
        i += 1;
        let mut left_present = false;
        for right in [false, true] {
            let mut number = String::new();
            let mut number_done = false;
            loop {
                let Some(&c) = chars.get(i) else {
                    return Err(HssError::HandspecSyntax);
                };
                let at = HssError::HandspecSyntaxAt(i + 1);
                i += 1;
                if c.is_ascii_digit() {
                    if number_done {
                        return Err(at);
                    }
                    number.push(c);
                } else if c.is_whitespace() {
                    number_done = !number.is_empty();
                } else if (c == ',' && !right) || (c == ')' && right) {
                    break;
                } else {
                    return Err(at);
                }
            }
            if number.is_empty() {
                if right && !left_present {
                    return Err(HssError::JugglerWithoutHand);
                }
                continue;
            }
            let h: usize = number.parse().unwrap_or(usize::MAX);
            if h == 0 || h > hands {
                return Err(HssError::HandOutOfRange(h));
            }
            if !right && map[h - 1].is_some() {
                return Err(HssError::HandTwice(h));
            }
            map[h - 1] = Some((juggler, right));
            left_present |= !right;
        }
        closed_any = true;
    }
    if juggler > hands {
        return Err(HssError::TooManyJugglers(hands));
    }
    if !closed_any {
        return Err(HssError::HandspecSyntax);
    }
    if map.first().is_some_and(Option::is_none) {
        return Err(HssError::HandMissing(1));
    }
    map.iter()
        .enumerate()
        .map(|(i, m)| m.ok_or(HssError::HandUnassigned(i + 1)))
        .collect()
}

/// Juggling Lab's boolean settings: `true` (any case) is true, anything else false.
pub fn parse_bool(text: &str) -> bool {
    text.trim().eq_ignore_ascii_case("true")
}

/// Converts object pattern `pattern` and hand pattern `hss` (options as in Juggling Lab:
/// `hold` default false, `dwellmax` default true, `handspec` default none, `dwell` the
/// pattern's dwell setting).
pub fn convert(
    pattern: &str,
    hss: &str,
    hold: bool,
    dwellmax: bool,
    handspec: Option<&str>,
    dwell: f64,
) -> Result<Hss, HssError> {
    let objects = object_pattern(pattern)?;
    let (hand_values, hands) = hand_pattern(hss)?;
    let handmap = match handspec {
        Some(spec) => parse_handspec(spec, hands)?,
        None => default_handspec(hands),
    };
    let jugglers = handmap.iter().map(|(j, _)| *j).max().unwrap_or(1).max(1);
    let period = lcm(objects.len() as u128, hand_orbit_period(&hand_values));
    if period > MAX_PERIOD {
        return Err(HssError::TooLong(period));
    }
    let period = period as usize;
    let os = |i: usize| &objects[i % objects.len()];
    let hs = |i: usize| hand_values[i % hand_values.len()];

    // The hand (1-based, along the hand orbits) throwing on each beat; None for a 0.
    let mut hand_at: Vec<Option<usize>> = vec![None; period];
    let mut next_hand = 0;
    for i in 0..period {
        if hs(i) == 0 {
            if os(i).iter().any(|t| t.value != 0) {
                return Err(HssError::NoHandAtBeat(i + 1));
            }
            continue;
        }
        if hand_at[i].is_none() {
            next_hand += 1;
            let mut k = i;
            loop {
                hand_at[k] = Some(next_hand);
                k = (k + hs(k)) % period;
                if k == i {
                    break;
                }
            }
        }
    }
    // (juggler, right hand?) per beat; juggler 0 = nobody.
    let who: Vec<(usize, Option<bool>)> = hand_at
        .iter()
        .map(|h| match h {
            Some(h) => {
                let (j, right) = handmap[(h - 1) % handmap.len()];
                (j, Some(right))
            }
            None => (0, None),
        })
        .collect();

    // Dwell per beat.
    let mut min_caught = vec![0usize; period];
    for i in 0..period {
        for t in os(i) {
            if t.value > 0 {
                let k = (i + t.value) % period;
                if min_caught[k] == 0 || t.value < min_caught[k] {
                    min_caught[k] = t.value;
                }
            }
        }
    }
    let cap = |d: f64, caught: usize| {
        if d >= caught as f64 {
            caught as f64 - (1.0 - HSS_DWELL)
        } else {
            d
        }
    };
    let mut dwell_beats = vec![0.0; period];
    if !dwellmax {
        let successive = (0..period).any(|i| who[i] == who[(i + 1) % period]);
        let d = if successive { HSS_DWELL } else { dwell };
        for i in 0..period {
            dwell_beats[i] = cap(d, min_caught[i]);
        }
    } else {
        for i in 0..period {
            let mut j = (i + 1) % period;
            let mut diff = 1;
            while who[i] != who[j] {
                j = (j + 1) % period;
                diff += 1;
            }
            dwell_beats[j] = diff as f64 - (1.0 - HSS_DWELL);
        }
        for i in 0..period {
            let d = cap(dwell_beats[i], min_caught[i]);
            dwell_beats[i] = if d <= 0.0 { HSS_DWELL } else { d };
        }
    }

    // The throws with their suffixes.
    let throw_text = |i: usize, t: &ObjectThrow| -> String {
        let (sj, sh) = who[i];
        let (tj, th) = who[(i + t.value) % period];
        let mut s = value_char(t.value).to_string();
        let cross = if t.value.is_multiple_of(2) {
            sh != th
        } else {
            sh == th
        };
        if cross {
            s.push('x');
        }
        if sj != tj {
            s.push_str(&format!("p{tj}"));
        } else if hold && t.value == hs(i) {
            s.push('H');
        }
        s.push_str(&t.bounce);
        // A space ends every throw, so `5p3 4` never reads as a pass to juggler 34.
        s.push(' ');
        s
    };
    let mut notation = String::new();
    for (i, &(thrower, right)) in who.iter().enumerate() {
        notation.push('<');
        for j in 1..=jugglers {
            let throws: String = if thrower == j {
                let b = os(i);
                if b.len() > 1 {
                    let inner: String = b.iter().map(|t| throw_text(i, t)).collect();
                    format!("[{}]", inner.trim_end())
                } else {
                    throw_text(i, &b[0]).trim_end().to_string()
                }
            } else {
                "0".into()
            };
            let pair = match right {
                Some(false) if thrower == j => format!("({throws},0)!"),
                Some(true) if thrower == j => format!("(0,{throws})!"),
                _ => "(0,0)!".to_string(),
            };
            notation.push_str(&pair);
            notation.push(if j == jugglers { '>' } else { '|' });
        }
    }
    Ok(Hss {
        notation,
        jugglers,
        hands,
        dwell_beats,
    })
}

fn value_char(v: usize) -> char {
    std::char::from_digit(v as u32, 36).unwrap_or('0')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conv(p: &str, h: &str) -> Hss {
        convert(p, h, false, true, None, 1.3).unwrap()
    }

    #[test]
    fn two_handed_cascade_is_one_juggler() {
        // Object 3 with hand pattern 2 (each hand throws every other beat): one juggler,
        // right hand on even beats, left on odd; period lcm(1, 2) = 2.
        let h = conv("3", "2");
        assert_eq!((h.jugglers, h.hands), (1, 2));
        assert_eq!(h.notation, "<(0,3)!><(3,0)!>");
        // dwellmax: a hand is free for 2 beats, so it dwells 2 - 0.7 = 1.3 beats.
        assert_eq!(h.dwell_beats, vec![1.3, 1.3]);
        let s = crate::schedule::from_notation(&h.notation).unwrap();
        assert_eq!((s.props, s.jugglers), (3, 1));
    }

    #[test]
    fn four_hands_are_two_passing_jugglers() {
        // Hand pattern 4: four hands in turn; default handspec: hands 1, 2 are the right
        // hands of jugglers 1, 2, hands 3, 4 their left hands.
        let h = conv("3", "4");
        assert_eq!((h.jugglers, h.hands), (2, 4));
        assert_eq!(
            h.notation,
            "<(0,3p2)!|(0,0)!><(0,0)!|(0,3xp1)!><(3p2,0)!|(0,0)!><(0,0)!|(3xp1,0)!>"
        );
        let s = crate::schedule::from_notation(&h.notation).unwrap();
        assert_eq!((s.props, s.jugglers), (3, 2));
        // A 3 from juggler 1's right hand lands 3 beats later in juggler 2's left hand.
    }

    #[test]
    fn handspec_hold_and_dwell_options() {
        // handspec swaps the hands' owners: (left, right) per juggler.
        let h = convert("3", "2", false, true, Some("(2,1)"), 1.3).unwrap();
        assert_eq!(h.notation, "<(0,3)!><(3,0)!>");
        let h = convert("3", "2", false, true, Some("(1,2)"), 1.3).unwrap();
        assert_eq!(h.notation, "<(3,0)!><(0,3)!>");
        // hold: a throw of the hand pattern's value by the same juggler is carried.
        let h = convert("2", "2", true, true, None, 1.3).unwrap();
        assert_eq!(h.notation, "<(0,2H)!><(2H,0)!>");
        // dwellmax=false: the dwell setting, capped by the shortest throw caught less 0.7.
        let h = convert("3", "2", false, false, None, 1.1).unwrap();
        assert_eq!(h.dwell_beats, vec![1.1, 1.1]);
        let h = convert("1", "2", false, false, None, 1.3).unwrap();
        assert!(
            h.dwell_beats.iter().all(|d| (d - 0.3).abs() < 1e-12),
            "{h:?}"
        );
        // A hand throwing on successive beats dwells 0.3.
        let h = convert("3", "1", false, false, None, 1.3).unwrap();
        assert_eq!((h.hands, h.dwell_beats.clone()), (1, vec![0.3]));
        assert!((h.dwell() - 0.3).abs() < 1e-12);
    }

    #[test]
    fn multiplex_and_bounce_suffixes() {
        let h = conv("[43]23", "2");
        // Period lcm(3, 2) = 6; the 4 lands in the same hand, the 3 in the other: no `x`.
        assert_eq!(
            h.notation,
            "<(0,[4 3])!><(2,0)!><(0,3)!><([4 3],0)!><(0,2)!><(3,0)!>"
        );
        assert!(crate::schedule::from_notation(&h.notation).is_ok());
        let h = conv("5BHF1", "2");
        assert_eq!(h.notation, "<(0,5BHF)!><(1,0)!>");
    }

    #[test]
    fn errors_follow_juggling_lab() {
        let err = |p: &str, h: &str, spec: Option<&str>| {
            convert(p, h, false, true, spec, 1.3)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(err("54", "2", None), "Bad average for object pattern");
        assert_eq!(err("432", "2", None), "Object pattern is invalid");
        assert_eq!(
            err("3#", "2", None),
            "Syntax error in object pattern at position 2"
        );
        assert_eq!(err("[3", "2", None), "Syntax error in object pattern");
        assert_eq!(err("3", "21", None), "Bad average for hand pattern");
        assert_eq!(err("3", "321", None), "Hand pattern is invalid");
        assert_eq!(
            err("3", "2-", None),
            "Syntax error in hand pattern at position 2"
        );
        assert_eq!(err("3", "20", None), "No hand to throw object at beat 2");
        assert_eq!(
            err("3", "2", Some("(1,2)(1,2)")),
            "Hand number 1 assigned more than once"
        );
        assert_eq!(
            err("3", "2", Some("(1,1)")),
            "Juggler not assigned to hand 2"
        );
        assert_eq!(
            err("3", "2", Some("(1,3)")),
            "Hand number 3 is out of range in handspec"
        );
        assert_eq!(
            err("3", "2", Some("(,)")),
            "Specify at least one hand for each juggler"
        );
        assert_eq!(err("3", "2", Some("(2,)")), "Hand 1 missing in handspec");
        assert_eq!(
            err("3", "2", Some("x")),
            "Syntax error in handspec syntax at position 1"
        );
        assert_eq!(err("3", "2", Some("")), "Error in handspec syntax");
        assert_eq!(
            err("3", "4", Some("(1,2)")),
            "Juggler not assigned to hand 3"
        );
    }
}
