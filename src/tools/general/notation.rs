//! Juggling Lab's notation of one beat of throws in the place model: `[43]`, `(4x,2)`,
//! `<3p|3>`, `<[3p/2]|3>`.

use crate::tools::state::throw_char;

/// The value written `x` (33), which needs a space after a throw so that it is not read as the
/// crossing mark of the throw before.
const VALUE_WRITTEN_X: u16 = 33;

/// Writes beats of throws given per place and multiplex slot.
#[derive(Clone, Debug)]
pub(crate) struct BeatWriter {
    jugglers: usize,
    sync: bool,
    multiplex: usize,
    /// The juggler (1-based) of each place.
    pub(crate) juggler_of: Vec<usize>,
    /// Without multiplexes: each place's text for each throw, made once (see
    /// [`BeatWriter::with_pieces`]).
    pieces: Option<Pieces>,
    /// Without multiplexes, for a few places: each whole beat's text, made once.
    beats: Option<Pieces>,
}

/// The text of one place's part of a beat for every throw (value 0 to `height`, every target),
/// with the marks around it (`<`, `(`, `,`, `)`, `|`, `>`), so that a beat is written by
/// appending one piece per place: index `(place * (height + 1) + value) * places + target`.
#[derive(Clone, Debug)]
struct Pieces {
    height: usize,
    text: String,
    /// Piece `i` is `text[start[i]..start[i + 1]]`.
    start: Vec<u32>,
}

/// Most pieces made (places² × (height + 1)).
const MAX_PIECES: usize = 1 << 16;

/// Most whole beats made ((1 + height × places) ^ places).
const MAX_BEATS: usize = 1 << 12;

impl BeatWriter {
    pub(crate) fn new(jugglers: usize, sync: bool, multiplex: usize) -> BeatWriter {
        let per_juggler = if sync { 2 } else { 1 };
        BeatWriter {
            jugglers,
            sync,
            multiplex,
            juggler_of: (0..jugglers * per_juggler)
                .map(|place| place / per_juggler + 1)
                .collect(),
            pieces: None,
            beats: None,
        }
    }

    /// Makes the text of every single throw once for throws up to `height`, so that
    /// [`BeatWriter::write_beat`] appends ready pieces (without multiplexes, and when the
    /// table stays small).
    pub(crate) fn with_pieces(mut self, height: usize) -> BeatWriter {
        let places = self.places();
        let count = places * places * (height + 1);
        if self.multiplex != 1 || count > MAX_PIECES || height > 35 {
            return self;
        }
        let mut text = String::new();
        let mut start = Vec::with_capacity(count + 1);
        let mut values = vec![0u16; places];
        let mut targets: Vec<u8> = (0..places).map(|p| p as u8).collect();
        for place in 0..places {
            for value in 0..=height {
                for target in 0..places {
                    start.push(text.len() as u32);
                    values[place] = value as u16;
                    targets[place] = target as u8;
                    self.write_place(place, &values, &targets, false, &mut text);
                }
            }
            values[place] = 0;
            targets[place] = place as u8;
        }
        start.push(text.len() as u32);
        self.pieces = Some(Pieces {
            height,
            text,
            start,
        });
        // Whole beats, numbered by each place's throw code (see `beat_key`), place 0 the
        // lowest digit.
        let radix = 1 + height * places;
        let count = u32::try_from(radix)
            .ok()
            .and_then(|r| r.checked_pow(places as u32))
            .map_or(usize::MAX, |n| n as usize);
        if places >= 2 && count <= MAX_BEATS {
            let mut text = String::new();
            let mut start = Vec::with_capacity(count + 1);
            for key in 0..count {
                let mut rest = key;
                for place in 0..places {
                    let code = rest % radix;
                    rest /= radix;
                    (values[place], targets[place]) = if code == 0 {
                        (0, place as u8)
                    } else {
                        (
                            (1 + (code - 1) / places) as u16,
                            ((code - 1) % places) as u8,
                        )
                    };
                }
                start.push(text.len() as u32);
                for place in 0..places {
                    self.write_place(place, &values, &targets, false, &mut text);
                }
            }
            start.push(text.len() as u32);
            self.beats = Some(Pieces {
                height,
                text,
                start,
            });
        }
        self
    }

    fn places(&self) -> usize {
        self.juggler_of.len()
    }

    /// The first place of a juggler (1-based).
    fn first_place(&self, juggler: usize) -> usize {
        self.juggler_of
            .iter()
            .position(|&j| j == juggler)
            .unwrap_or(0)
    }

    /// Appends the throws of `beat` (`values`/`targets`: per place, `multiplex` slots, a 0
    /// value ending a place's throws) to `out`. Nothing on beats where no place throws.
    pub(crate) fn write_beat(&self, beat: usize, values: &[u16], targets: &[u8], out: &mut String) {
        if self.sync && !beat.is_multiple_of(2) {
            return;
        }
        let places = self.places();
        if let Some(beats) = &self.beats {
            let radix = 1 + beats.height * places;
            let mut key = 0;
            let mut weight = 1;
            let mut fits = true;
            for place in 0..places {
                let value = usize::from(values[place]);
                fits &= value <= beats.height;
                if value != 0 {
                    key += weight * (1 + (value - 1) * places + usize::from(targets[place]));
                }
                weight *= radix;
            }
            if fits {
                let (from, to) = (beats.start[key] as usize, beats.start[key + 1] as usize);
                out.push_str(&beats.text[from..to]);
                return;
            }
        }
        if let Some(pieces) = &self.pieces {
            if values.iter().all(|&v| usize::from(v) <= pieces.height) {
                let row = pieces.height + 1;
                for place in 0..places {
                    let value = usize::from(values[place]);
                    // Only a lone juggler's single place writes a throw right after another.
                    if places == 1 && value == usize::from(VALUE_WRITTEN_X) && !out.is_empty() {
                        out.push(' ');
                    }
                    let i = (place * row + value) * places + usize::from(targets[place]);
                    let (from, to) = (pieces.start[i] as usize, pieces.start[i + 1] as usize);
                    out.push_str(&pieces.text[from..to]);
                }
                return;
            }
        }
        let after_throw = !out.is_empty();
        for place in 0..places {
            self.write_place(place, values, targets, after_throw && place == 0, out);
        }
    }

    /// Appends the part of a beat that `place` writes, with the marks before it (`<` and `(`
    /// when it is the first place of the beat or of its juggler) and after it. `after_throw`:
    /// `out` ends with a throw (never so after an earlier place of the beat, which ends with
    /// a mark).
    fn write_place(
        &self,
        place: usize,
        values: &[u16],
        targets: &[u8],
        mut after_throw: bool,
        out: &mut String,
    ) {
        let places = self.places();
        let passing = self.jugglers > 1;
        let juggler = self.juggler_of[place];
        let first = self.first_place(juggler);
        let mut end = first;
        while end < places && self.juggler_of[end] == juggler {
            end += 1;
        }
        let parens = end - first > 1;
        if place == 0 && passing {
            out.push('<');
            after_throw = false;
        }
        if place == first && parens {
            out.push('(');
            after_throw = false;
        }
        let base = place * self.multiplex;
        let multiplex = self.multiplex > 1 && values[base + 1] > 0;
        if multiplex {
            out.push('[');
            after_throw = false;
        }
        let mut any = false;
        for slot in 0..self.multiplex {
            let value = values[base + slot];
            if value == 0 {
                break;
            }
            any = true;
            if value == VALUE_WRITTEN_X && after_throw {
                out.push(' ');
            }
            out.push(throw_char(u32::from(value)));
            after_throw = true;
            if places > 1 {
                let target = usize::from(targets[base + slot]);
                let catcher = self.juggler_of[target];
                if self.sync && target - self.first_place(catcher) != place - first {
                    out.push('x');
                }
                if catcher != juggler {
                    out.push('p');
                    if self.jugglers > 2 {
                        out.push(throw_char(catcher as u32));
                    }
                }
            }
            if multiplex && passing && slot + 1 < self.multiplex && values[base + slot + 1] > 0 {
                out.push('/');
                after_throw = false;
            }
        }
        if !any {
            out.push('0');
        }
        if multiplex {
            out.push(']');
        }
        if place + 1 < end && parens {
            out.push(',');
        }
        if place + 1 == end {
            if parens {
                out.push(')');
            }
            if juggler < self.jugglers {
                out.push('|');
            }
        }
        if place + 1 == places && passing {
            out.push('>');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ready pieces write what the throw-by-throw writer writes, for every throw of
    /// every place, after empty and non-empty text.
    #[test]
    fn pieces_write_what_the_writer_writes() {
        let mut beats = 0;
        for (jugglers, sync) in [(1, false), (1, true), (2, false), (3, false), (2, true)] {
            // Values up to 35 are written; the ready texts stop at 30 (the rest goes the slow
            // way).
            let height = 30;
            let plain = BeatWriter::new(jugglers, sync, 1);
            let fast = BeatWriter::new(jugglers, sync, 1).with_pieces(height);
            assert!(fast.pieces.is_some());
            assert_eq!(fast.beats.is_some(), plain.places() == 2);
            let pieces_only = BeatWriter {
                beats: None,
                ..fast.clone()
            };
            let places = plain.places();
            for beat in 0..2 {
                for first in ["", "5"] {
                    // Each place in turn throws every value to every target, the others a
                    // throw of their own (place-dependent) value.
                    for place in 0..places {
                        for value in 0..=35 {
                            for target in 0..places as u8 {
                                let mut values: Vec<u16> =
                                    (0..places).map(|p| (p as u16 * 7 + 3) % 36).collect();
                                let mut targets: Vec<u8> =
                                    (0..places).map(|p| ((p + 1) % places) as u8).collect();
                                values[place] = value;
                                targets[place] = target;
                                let (mut a, mut b) = (first.to_string(), first.to_string());
                                let mut c = first.to_string();
                                plain.write_beat(beat, &values, &targets, &mut a);
                                fast.write_beat(beat, &values, &targets, &mut b);
                                pieces_only.write_beat(beat, &values, &targets, &mut c);
                                assert_eq!(a, b, "{jugglers} {sync} {values:?} {targets:?}");
                                assert_eq!(a, c, "{jugglers} {sync} {values:?} {targets:?}");
                                beats += 1;
                            }
                        }
                    }
                }
            }
        }
        // 2 beats × 2 starts × 36 values × places² (1, 2, 2, 3 and 4 places).
        assert_eq!(beats, 4 * 36 * (1 + 4 + 4 + 9 + 16));
        // Known texts: a crossing pass, the value written x after a throw, a zero.
        let w = BeatWriter::new(2, true, 1).with_pieces(10);
        let mut out = String::new();
        w.write_beat(0, &[4, 0, 3, 2], &[3, 1, 2, 0], &mut out);
        assert_eq!(out, "<(4xp,0)|(3,2xp)>");
        let w = BeatWriter::new(1, false, 1).with_pieces(35);
        let mut out = "5".to_string();
        w.write_beat(1, &[33], &[0], &mut out);
        assert_eq!(out, "5 x");
    }
}
