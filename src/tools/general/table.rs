//! The throws a search has chosen: per beat, place and multiplex slot, a value (0 = no throw)
//! and a target place. The throws of one place are listed greatest first.

use std::ops::Range;

#[derive(Clone, Debug)]
pub(crate) struct ThrowTable {
    places: usize,
    multiplex: usize,
    pub(crate) values: Vec<u16>,
    pub(crate) targets: Vec<u8>,
}

impl ThrowTable {
    pub(crate) fn new(beats: usize, places: usize, multiplex: usize) -> ThrowTable {
        let size = beats * places * multiplex;
        ThrowTable {
            places,
            multiplex,
            values: vec![0; size],
            targets: vec![0; size],
        }
    }

    pub(crate) fn index(&self, beat: usize, place: usize, slot: usize) -> usize {
        (beat * self.places + place) * self.multiplex + slot
    }

    /// The value of a throw (0 when the place throws fewer props).
    pub(crate) fn value(&self, beat: usize, place: usize, slot: usize) -> usize {
        usize::from(self.values[self.index(beat, place, slot)])
    }

    /// The place a throw lands in.
    pub(crate) fn target(&self, beat: usize, place: usize, slot: usize) -> usize {
        usize::from(self.targets[self.index(beat, place, slot)])
    }

    /// The throws of a place on a beat, greatest first: (value, target).
    pub(crate) fn throws(
        &self,
        beat: usize,
        place: usize,
    ) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..self.multiplex)
            .map(move |slot| {
                (
                    self.value(beat, place, slot),
                    self.target(beat, place, slot),
                )
            })
            .take_while(|&(value, _)| value > 0)
    }

    /// The indices of one beat's throws.
    pub(crate) fn beat(&self, beat: usize) -> Range<usize> {
        let size = self.places * self.multiplex;
        beat * size..(beat + 1) * size
    }

    /// One beat's throw values and targets (what `BeatWriter::write_beat` writes).
    pub(crate) fn beat_throws(&self, beat: usize) -> (&[u16], &[u8]) {
        let range = self.beat(beat);
        (&self.values[range.clone()], &self.targets[range])
    }

    /// Clears a beat: no throws, every target its own place.
    pub(crate) fn clear_beat(&mut self, beat: usize) {
        if self.multiplex == 1 {
            let range = self.beat(beat);
            self.values[range.clone()].fill(0);
            for (place, target) in self.targets[range].iter_mut().enumerate() {
                *target = place as u8;
            }
            return;
        }
        for place in 0..self.places {
            for slot in 0..self.multiplex {
                let index = self.index(beat, place, slot);
                self.targets[index] = place as u8;
                self.values[index] = 0;
            }
        }
    }
}
