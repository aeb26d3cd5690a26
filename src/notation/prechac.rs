//! Prechac notation: fractional passes and juggler delays (`{0,0.5}<3.5p|3.5px>`).
//!
//! Each juggler throws once per beat of their own, alternating hands, but juggler `j` starts
//! `delay[j]` beats late, so a pass of 3.5 beats lands on a beat of a partner half a beat
//! behind. [`super::expand`] walks the sequences in the jugglers' own beats; this module turns
//! them into one schedule on *fine beats*: `subdivision` fine beats per beat, the least that
//! makes every value and delay whole, so the later stages keep their integer beats.
//!
//! Values and delays are read as universal-siteswap reads them: decimals within 0.01 of a
//! fraction with a denominator up to 9 are that fraction (`1.67` = 5/3, `3.33` = 10/3), and
//! with a multiple of 3 jugglers `.3` and `.6` are thirds (`4.3p` = 13/3); anything else is
//! the decimal as written (`3.3` = 33/10 with 2 jugglers).

use std::fmt;

use serde::Serialize;

use super::ast::{DecimalNumber, Decimals};
use super::error::ParseErrorKind;
use super::slot::{hand_order, ExpandError, Slot};

/// An exact non-negative fraction, always reduced (`den >= 1`); 32 bits each, so errors
/// that carry one stay small (a part past `u32::MAX` saturates).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ratio {
    num: u32,
    den: u32,
}

impl Ratio {
    pub const ZERO: Ratio = Ratio { num: 0, den: 1 };

    /// `num / den` reduced; `None` for a zero denominator.
    pub fn new(num: u64, den: u64) -> Option<Ratio> {
        if den == 0 {
            return None;
        }
        let g = gcd(num, den).max(1);
        let part = |n: u64| u32::try_from(n / g).unwrap_or(u32::MAX);
        Some(Ratio {
            num: part(num),
            den: part(den),
        })
    }

    pub fn whole(n: u64) -> Ratio {
        Ratio {
            num: u32::try_from(n).unwrap_or(u32::MAX),
            den: 1,
        }
    }

    pub fn num(self) -> u64 {
        u64::from(self.num)
    }

    pub fn den(self) -> u64 {
        u64::from(self.den)
    }

    pub fn is_whole(self) -> bool {
        self.den == 1
    }

    pub fn to_f64(self) -> f64 {
        f64::from(self.num) / f64::from(self.den)
    }
}

/// Exact decimals where the denominator allows (`3.5`, `0.25`), else two decimals (`3.33`).
impl fmt::Display for Ratio {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (num, den) = (self.num(), self.den());
        let whole = num / den;
        let rest = num % den;
        if rest == 0 {
            return write!(f, "{whole}");
        }
        for places in 1..=4u32 {
            let scale = 10u64.pow(places);
            if (rest * scale).is_multiple_of(den) {
                let digits = rest * scale / den;
                return write!(f, "{whole}.{digits:0width$}", width = places as usize);
            }
        }
        let hundredths = (rest * 100 + den / 2) / den;
        if hundredths >= 100 {
            write!(f, "{}", whole + 1)
        } else {
            write!(f, "{whole}.{hundredths:02}")
        }
    }
}

impl Serialize for Ratio {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(self.to_f64())
    }
}

pub(crate) fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// Least common multiple, saturating at `u64::MAX`.
pub(crate) fn lcm(a: u64, b: u64) -> u64 {
    if a == 0 || b == 0 {
        return a.max(b);
    }
    (a / gcd(a, b)).saturating_mul(b)
}

/// The value of `whole.decimals` (see the module comment for the reading).
pub fn read_decimal(whole: u64, decimals: Option<Decimals>, thirds: bool) -> Ratio {
    let Some(d) = decimals else {
        return Ratio::whole(whole);
    };
    let scale = 10u64.pow(u32::from(d.places));
    let digits = u64::from(d.digits);
    let plus = |num: u64, den: u64| {
        Ratio::new(whole.saturating_mul(den).saturating_add(num), den).unwrap_or(Ratio::ZERO)
    };
    if thirds && d.places == 1 && (d.digits == 3 || d.digits == 6) {
        return plus(u64::from(d.digits / 3), 3);
    }
    for den in 2..10u64 {
        for num in 1..den {
            // |digits / scale - num / den| < 1/100
            let diff = (digits * den).abs_diff(num * scale);
            if diff * 100 < den * scale {
                return plus(num, den);
            }
        }
    }
    plus(digits, scale)
}

/// A delay of the prefix as a fraction.
pub(crate) fn read_delay(d: &DecimalNumber, thirds: bool) -> Ratio {
    read_decimal(d.whole, d.decimals, thirds)
}

/// Each juggler's delay in fine beats: the given ones, or inferred from the passes as
/// universal-siteswap does (juggler 1 at 0, each pass placing its receiver so it lands on a
/// beat), breadth-first from juggler 1; a juggler nobody passes to starts at 0.
/// `slots` are in the jugglers' own beats with fine values.
pub(crate) fn delays(
    slots: &[Slot],
    jugglers: usize,
    subdivision: u64,
    given: Option<&[Ratio]>,
) -> Result<Vec<u64>, ExpandError> {
    if let Some(given) = given {
        for s in slots {
            if s.value > 0
                && s.to_juggler == s.juggler
                && !u64::from(s.value).is_multiple_of(subdivision)
            {
                return Err(ExpandError::new(
                    s.span.start,
                    ParseErrorKind::FractionalSelf,
                ));
            }
        }
        return Ok(given
            .iter()
            .map(|d| d.num().saturating_mul(subdivision / d.den()))
            .collect());
    }
    let mut delay: Vec<Option<u64>> = vec![None; jugglers];
    let mut queue = vec![0usize];
    if jugglers > 0 {
        delay[0] = Some(0);
    }
    while let Some(j) = queue.pop() {
        let from = delay[j].unwrap_or(0);
        for s in slots.iter().filter(|s| s.juggler == j && s.value > 0) {
            let lands = (from + u64::from(s.value)) % subdivision;
            if s.to_juggler == j {
                if lands != from {
                    return Err(ExpandError::new(
                        s.span.start,
                        ParseErrorKind::FractionalSelf,
                    ));
                }
                continue;
            }
            match delay[s.to_juggler] {
                None => {
                    delay[s.to_juggler] = Some(lands);
                    queue.push(s.to_juggler);
                }
                Some(d) if d != lands => {
                    let ratio = |n| Ratio::new(n, subdivision).unwrap_or(Ratio::ZERO);
                    return Err(ExpandError::with_detail(
                        s.span.start,
                        ParseErrorKind::InconsistentDelays,
                        format!(
                            "inconsistent delays: juggler {} would need delays of both {} and {} beats",
                            super::juggler_letter(s.to_juggler),
                            ratio(d),
                            ratio(lands)
                        ),
                    ));
                }
                Some(_) => {}
            }
        }
    }
    Ok(delay.into_iter().map(|d| d.unwrap_or(0)).collect())
}

/// Moves slots from the jugglers' own beats to fine beats: beat `k` of juggler `j` is fine
/// beat `subdivision * k + delay[j]` (modulo the fine period); checks that every throw lands
/// on a beat of its receiver. Returns the slots sorted as [`super::Expansion::slots`].
pub(crate) fn to_fine_beats(
    mut slots: Vec<Slot>,
    subdivision: u64,
    delay: &[u64],
    period: u64,
) -> Result<Vec<Slot>, ExpandError> {
    let fine_period = subdivision.saturating_mul(period).max(1);
    for s in &mut slots {
        let start = subdivision
            .saturating_mul(u64::from(s.beat))
            .saturating_add(delay[s.juggler]);
        if s.value > 0 {
            let lands = start.saturating_add(u64::from(s.value));
            if !(lands % subdivision).eq(&(delay[s.to_juggler] % subdivision)) {
                let time = Ratio::new(lands, subdivision).unwrap_or(Ratio::ZERO);
                return Err(ExpandError::with_detail(
                    s.span.start,
                    ParseErrorKind::LandsOffBeat,
                    format!(
                        "this throw lands at time {time}, between the beats of juggler {}",
                        super::juggler_letter(s.to_juggler)
                    ),
                ));
            }
        }
        s.beat = u32::try_from(start % fine_period).unwrap_or(u32::MAX);
    }
    slots.sort_by_key(|s| (s.beat, s.juggler, hand_order(s.hand), s.index));
    Ok(slots)
}

#[cfg(test)]
mod tests;
