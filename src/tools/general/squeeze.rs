//! J2's multiplexing filter (on with `-m N` unless `-mf`): what lands in each place on each
//! beat ahead, so that a hand never catches props thrown from two different places, or with
//! two different values, on one beat (a squeeze catch), and a place already promised to a
//! prop of the start state is only filled by a throw no lower than that prop's.

/// A hold: a throw of this value to the throwing place does not count for the filter.
const HOLD: u16 = 2;

/// What the filter knows of one place on one beat.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum SlotKind {
    /// Nothing lands.
    #[default]
    Empty,
    /// Props thrown with `value` from place `from` land.
    Throw,
    /// A prop of the start state lands; throws landing with it must be at least `value` high.
    LowerBound,
}

/// One place on one beat of the filter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Slot {
    pub(crate) kind: SlotKind,
    /// The throwing place.
    pub(crate) from: u8,
    pub(crate) value: u16,
}

impl Slot {
    pub(crate) fn throw(from: usize, value: usize) -> Slot {
        Slot {
            kind: SlotKind::Throw,
            from: from as u8,
            value: value as u16,
        }
    }

    pub(crate) fn lower_bound(from: usize, value: usize) -> Slot {
        Slot {
            kind: SlotKind::LowerBound,
            from: from as u8,
            value: value as u16,
        }
    }

    /// Adds `entry` to this slot of place `place`; `false` when it collides (a squeeze catch,
    /// or a throw lower than the start state's prop landing with it).
    pub(crate) fn admit(&mut self, place: usize, entry: Slot) -> bool {
        match entry.kind {
            SlotKind::Empty => true,
            SlotKind::LowerBound => {
                if self.kind == SlotKind::Empty {
                    *self = entry;
                }
                true
            }
            SlotKind::Throw => {
                if usize::from(entry.from) == place && entry.value == HOLD {
                    return true;
                }
                match self.kind {
                    SlotKind::Empty => {
                        *self = entry;
                        true
                    }
                    SlotKind::LowerBound => {
                        let fits = self.value <= entry.value || self.value <= HOLD;
                        if fits {
                            *self = entry;
                        }
                        fits
                    }
                    SlotKind::Throw => self.from == entry.from && self.value == entry.value,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_place_catches_one_kind_of_throw_per_beat() {
        let mut slot = Slot::default();
        assert!(slot.admit(0, Slot::throw(1, 4)));
        assert!(slot.admit(0, Slot::throw(1, 4)), "a cluster from one place");
        assert!(!slot.admit(0, Slot::throw(1, 5)), "another value");
        assert!(!slot.admit(0, Slot::throw(2, 4)), "another place");
        assert!(slot.admit(0, Slot::throw(0, 2)), "a hold does not count");
        // A start state's prop promised at value 4: a 3 may not land with it, a 5 may.
        let mut slot = Slot::lower_bound(0, 4);
        let mut copy = slot;
        assert!(!copy.admit(0, Slot::throw(1, 3)));
        assert!(slot.admit(0, Slot::throw(1, 5)));
        assert_eq!(slot, Slot::throw(1, 5));
    }
}
