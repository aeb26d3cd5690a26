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
}

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
        }
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
        let passing = self.jugglers > 1;
        // A space is needed before a throw written `x` right after another throw.
        let mut after_throw = !out.is_empty();
        if passing {
            out.push('<');
            after_throw = false;
        }
        for juggler in 1..=self.jugglers {
            let first = self.first_place(juggler);
            let mut end = first;
            while end < places && self.juggler_of[end] == juggler {
                end += 1;
            }
            let parens = end - first > 1;
            if parens {
                out.push('(');
                after_throw = false;
            }
            for place in first..end {
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
                    if multiplex
                        && passing
                        && slot + 1 < self.multiplex
                        && values[base + slot + 1] > 0
                    {
                        out.push('/');
                        after_throw = false;
                    }
                }
                if !any {
                    out.push('0');
                    after_throw = true;
                }
                if multiplex {
                    out.push(']');
                    after_throw = false;
                }
                if place + 1 < end && parens {
                    out.push(',');
                    after_throw = false;
                }
            }
            if parens {
                out.push(')');
                after_throw = false;
            }
            if juggler < self.jugglers {
                out.push('|');
                after_throw = false;
            }
        }
        if passing {
            out.push('>');
        }
    }
}
