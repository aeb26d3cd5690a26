//! Transitions between synchronous, multiplex and passing patterns with the same number of
//! props and jugglers: the fewest beats of throws from A's state to B's, and back.
//!
//! A pattern is read into throwing places (one per juggler when asynchronous, one per hand
//! when synchronous) and beats; its state counts the props landing in each place on each
//! coming beat. A transition of `n` beats makes, on every beat where the rhythm throws, one
//! throw per prop landing, so that after `n` beats the state is B's. Throws go no higher than
//! the higher of the two patterns, at most as many props land together as either pattern
//! multiplexes (1 without multiplexes), and props landing together in one hand were thrown
//! together from one place (no squeeze catches). Asynchronous transitions have an even number
//! of beats and synchronous ones a whole number of (left,right) pairs, so that every hand
//! keeps its throws of the written patterns.

use super::general::notation::BeatWriter;
use super::query::{GenError, MAX_JUGGLERS, MAX_MULTIPLEX};
use super::trans::{TextTransition, TransError, SEARCH_STEPS};
use crate::schedule::{Schedule, ThrowKind};

/// A pattern in the place-and-beat model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Placed {
    pub jugglers: usize,
    pub sync: bool,
    /// `throws[beat][place]`: (value, target place), greatest first.
    pub throws: Vec<Vec<Vec<(u32, usize)>>>,
}

impl Placed {
    fn places(&self) -> usize {
        if self.sync {
            2 * self.jugglers
        } else {
            self.jugglers
        }
    }

    fn height(&self) -> u32 {
        self.throws
            .iter()
            .flatten()
            .flatten()
            .map(|t| t.0)
            .max()
            .unwrap_or(1)
    }

    fn multiplex(&self) -> usize {
        self.throws
            .iter()
            .flatten()
            .map(Vec::len)
            .max()
            .unwrap_or(1)
            .max(1)
    }

    /// Props landing per (beat ahead, place) before beat 0, as if always running; index
    /// `k * places + place`, `height` beats.
    fn state(&self, height: usize) -> Vec<u8> {
        let places = self.places();
        let period = self.throws.len() as i64;
        let mut s = vec![0u8; height * places];
        for (b, beat) in self.throws.iter().enumerate() {
            for place in beat {
                for &(v, to) in place {
                    let mut land = b as i64 + i64::from(v) - period;
                    while land >= 0 {
                        if (land as usize) < height {
                            s[land as usize * places + to] += 1;
                        }
                        land -= period;
                    }
                }
            }
        }
        s
    }
}

/// Refuses bounces and modifiers other than `x` and `p`: the transition finders would
/// silently drop them.
pub(crate) fn only_passes_and_crossings(text: &str, sch: &Schedule) -> Result<(), TransError> {
    // A spin (`3~2`) is a modifier too: the transition's text could not carry it.
    let modified = |t: &crate::schedule::ThrowEvent| {
        matches!(t.kind, ThrowKind::Bounce { .. })
            || t.spins.is_some()
            || t.modifier
                .chars()
                .any(|c| !matches!(c, 'x' | 'X' | 'p' | 'P'))
    };
    if sch.subdivision > 1 {
        return Err(TransError::FineBeats(text.to_string()));
    }
    if sch.throws.iter().any(modified) {
        return Err(TransError::Modifiers(text.to_string()));
    }
    Ok(())
}

/// Reads a schedule into places and beats.
pub(crate) fn placed(text: &str, sch: &Schedule) -> Result<Placed, TransError> {
    let places_per = if sch.sync { 2 } else { 1 };
    // Auto-mirrored asynchronous patterns are read as written; sync `*` patterns in full.
    let period = if sch.sync {
        sch.period
    } else {
        sch.pattern_period
    } as usize;
    let mut throws = vec![vec![Vec::new(); sch.jugglers * places_per]; period];
    only_passes_and_crossings(text, sch)?;
    for t in &sch.throws {
        let b = t.beat as usize;
        if b >= period {
            continue;
        }
        let place = |hand: crate::types::HandRef| {
            if sch.sync {
                hand.slot()
            } else {
                hand.juggler
            }
        };
        if !sch.sync && (t.from.hand != t.to.hand) != (t.value % 2 == 1) {
            return Err(TransError::CrossedAsync(text.to_string()));
        }
        throws[b][place(t.from)].push((t.value, place(t.to)));
    }
    for beat in &mut throws {
        for place in beat.iter_mut() {
            place.sort_unstable_by(|a, b| b.cmp(a));
        }
    }
    Ok(Placed {
        jugglers: sch.jugglers,
        sync: sch.sync,
        throws,
    })
}

/// A beat's throws per place, (value, target), greatest first.
type Beat = Vec<Vec<(u32, usize)>>;

struct Finder<'a> {
    places: usize,
    sync: bool,
    height: usize,
    mult: u8,
    /// Props thrown from different places may land together (only when nothing else works).
    squeeze: bool,
    to: &'a [u8],
    limit: usize,
    out: Vec<Vec<Beat>>,
    /// Search steps left before giving up.
    budget: u64,
}

impl Finder<'_> {
    fn throws_on(&self, beat: usize) -> bool {
        !self.sync || beat.is_multiple_of(2)
    }

    /// All transitions of exactly `left` more beats from state `s` (index `k * places + p`),
    /// `src` = where the props in each slot were thrown from (`None` = before the transition).
    fn go(
        &mut self,
        beat: usize,
        left: usize,
        s: &[u8],
        src: &[Option<(usize, usize)>],
        cur: &mut Vec<Beat>,
    ) {
        if self.out.len() >= self.limit {
            return;
        }
        let p = self.places;
        // Props landing after the remaining beats must already be where B has them.
        for k in left..self.height {
            for q in 0..p {
                let t = if k - left < self.height {
                    self.to[(k - left) * p + q]
                } else {
                    0
                };
                if s[k * p + q] > t {
                    return;
                }
            }
        }
        if left == 0 {
            if s == self.to {
                self.out.push(cur.clone());
            }
            return;
        }
        if !self.throws_on(beat) && (0..p).any(|q| s[q] > 0) {
            return;
        }
        // Next state: shift by one beat, then the throws of this beat.
        let mut next = vec![0u8; s.len()];
        next[..s.len() - p].copy_from_slice(&s[p..]);
        let mut next_src = vec![None; src.len()];
        next_src[..src.len() - p].copy_from_slice(&src[p..]);
        let landing: Vec<usize> = (0..p).map(|q| usize::from(s[q])).collect();
        let mut beat_throws: Beat = vec![Vec::new(); p];
        self.assign(
            beat,
            left,
            0,
            &landing,
            &mut next,
            &mut next_src,
            &mut beat_throws,
            cur,
        );
    }

    /// Chooses the throws of place `q` onwards on this beat.
    #[allow(clippy::too_many_arguments)]
    fn assign(
        &mut self,
        beat: usize,
        left: usize,
        q: usize,
        landing: &[usize],
        next: &mut Vec<u8>,
        src: &mut Vec<Option<(usize, usize)>>,
        bt: &mut Beat,
        cur: &mut Vec<Beat>,
    ) {
        if self.out.len() >= self.limit || self.budget == 0 {
            return;
        }
        self.budget -= 1;
        let p = self.places;
        if q == p {
            cur.push(bt.clone());
            let (n, s) = (next.clone(), src.clone());
            self.go(beat + 1, left - 1, &n, &s, cur);
            cur.pop();
            return;
        }
        if bt[q].len() == landing[q] {
            self.assign(beat, left, q + 1, landing, next, src, bt, cur);
            return;
        }
        // Throws of one place in decreasing order (a multiplex is a set).
        let (max_v, max_to) = bt[q].last().copied().unwrap_or((self.height as u32, p - 1));
        for v in (1..=max_v).rev() {
            let land = beat + v as usize;
            if !self.throws_on(land) {
                continue;
            }
            let top = if v == max_v { max_to } else { p - 1 };
            for to in (0..=top).rev() {
                let idx = (v as usize - 1) * p + to;
                if next[idx] >= self.mult {
                    continue;
                }
                // Props landing together were thrown together from one place.
                let me = Some((beat, q));
                if !self.squeeze && next[idx] > 0 && src[idx] != me {
                    continue;
                }
                let old = src[idx];
                next[idx] += 1;
                src[idx] = me;
                bt[q].push((v, to));
                self.assign(beat, left, q, landing, next, src, bt, cur);
                bt[q].pop();
                next[idx] -= 1;
                src[idx] = old;
            }
        }
    }
}

/// Every transition of the fewest beats (an even number; at most `limit`) from state `from`
/// to `to`.
#[allow(clippy::too_many_arguments)]
fn shortest(
    places: usize,
    sync: bool,
    height: usize,
    mult: u8,
    from: &[u8],
    to: &[u8],
    limit: usize,
) -> Result<(usize, Vec<Vec<Beat>>), TransError> {
    // Waiting `height` beats lets every prop land, so a way exists within height + 2 beats
    // (with squeeze catches when B's state has props from different places landing
    // together).
    let mut budget = SEARCH_STEPS;
    for squeeze in [false, true] {
        let mut beats = 0;
        while beats <= height + 2 {
            let mut f = Finder {
                places,
                sync,
                height,
                mult,
                squeeze,
                to,
                limit,
                out: Vec::new(),
                budget,
            };
            let src = vec![None; from.len()];
            f.go(0, beats, from, &src, &mut Vec::new());
            if !f.out.is_empty() {
                return Ok((beats, f.out));
            }
            if f.budget == 0 {
                return Err(TransError::TooLarge);
            }
            budget = f.budget;
            beats += 2;
        }
    }
    Ok((0, Vec::new()))
}

/// Transitions between two patterns given as text and their schedules (sync, multiplex or
/// passing; solo asynchronous ones too). At most `limit` ways there, each with the first
/// shortest way back.
pub(crate) fn transitions(
    a: (&str, &Schedule),
    b: (&str, &Schedule),
    limit: usize,
) -> Result<Vec<TextTransition>, TransError> {
    let pa = placed(a.0, a.1)?;
    let pb = placed(b.0, b.1)?;
    if pa.sync != pb.sync {
        let kind = |s: bool| if s { "synchronous" } else { "asynchronous" };
        return Err(TransError::MixedRhythm {
            a: a.0.to_string(),
            ka: kind(pa.sync),
            b: b.0.to_string(),
            kb: kind(pb.sync),
        });
    }
    if pa.jugglers != pb.jugglers {
        return Err(TransError::DifferentJugglers {
            a: a.0.to_string(),
            ja: pa.jugglers,
            b: b.0.to_string(),
            jb: pb.jugglers,
        });
    }
    if a.1.props != b.1.props {
        return Err(TransError::DifferentProps {
            a: a.0.to_string(),
            pa: a.1.props,
            b: b.0.to_string(),
            pb: b.1.props,
        });
    }
    let height = pa.height().max(pb.height());
    if height > 35 {
        return Err(TransError::TooHigh(height));
    }
    let mult = pa.multiplex().max(pb.multiplex());
    let places = pa.places();
    if pa.jugglers > MAX_JUGGLERS as usize {
        return Err(TransError::Limits(GenError::Jugglers(pa.jugglers as u32)));
    }
    if mult > MAX_MULTIPLEX as usize {
        return Err(TransError::Limits(GenError::Multiplex(mult as u32)));
    }
    let writer = BeatWriter::new(pa.jugglers, pa.sync, mult);
    let h = height as usize;
    let sa = pa.state(h);
    let sb = pb.state(h);
    let write = |beats: &[Beat]| write_beats(&writer, mult, places, beats);
    let from_text = write(&pa.throws);
    let to_text = write(&pb.throws);
    let (_, back) = shortest(places, pa.sync, h, mult as u8, &sb, &sa, 1)?;
    let back = back.first().map(|x| write(x)).unwrap_or_default();
    let (beats, there) = shortest(places, pa.sync, h, mult as u8, &sa, &sb, limit)?;
    Ok(there
        .iter()
        .map(|t| {
            let there = write(t);
            TextTransition {
                pattern: format!("{from_text}{from_text}{there}{to_text}{to_text}{back}"),
                from: from_text.clone(),
                to: to_text.clone(),
                there,
                back: back.clone(),
                beats,
            }
        })
        .collect())
}

fn write_beats(writer: &BeatWriter, mult: usize, places: usize, beats: &[Beat]) -> String {
    let mut out = String::new();
    for (i, beat) in beats.iter().enumerate() {
        let mut values = vec![0u16; places * mult];
        let mut to: Vec<u8> = (0..places * mult).map(|x| (x / mult) as u8).collect();
        for (p, throws) in beat.iter().enumerate() {
            for (k, &(v, t)) in throws.iter().enumerate() {
                values[p * mult + k] = v as u16;
                to[p * mult + k] = t as u8;
            }
        }
        writer.write_beat(i, &values, &to, &mut out);
    }
    out
}

#[cfg(test)]
#[path = "trans_general/tests.rs"]
mod tests;
