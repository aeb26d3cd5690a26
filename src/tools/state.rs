//! States of solo asynchronous siteswaps as bit sets, and the throws between two states.

/// A landing schedule: bit `k` set = a prop lands `k` beats from now. Throws are at most 127.
pub type State = u128;

/// Largest throw value the bit-set states can hold.
pub const MAX_HEIGHT: u32 = 127;

/// The ground state of `props` props: they land on the next `props` beats.
pub fn ground(props: u32) -> State {
    if props >= 128 {
        State::MAX
    } else {
        (1u128 << props) - 1
    }
}

/// The state after throwing `value` from state `s` (`value` 0 only when nothing lands now).
/// `None` when the throw is impossible (a collision, or a 0 with a prop landing, or a throw
/// with nothing landing).
pub fn after_throw(s: State, value: u32) -> Option<State> {
    let lands = s & 1 == 1;
    let base = s >> 1;
    match (lands, value) {
        (false, 0) => Some(base),
        (true, v) if (1..=MAX_HEIGHT).contains(&v) => {
            let bit = 1u128 << (v - 1);
            (base & bit == 0).then_some(base | bit)
        }
        _ => None,
    }
}

/// The state a periodic throw sequence is in just before its first throw, as if it had always
/// been running. `None` if the sequence is not a valid siteswap (collision or bad average) or
/// a throw is above [`MAX_HEIGHT`].
pub fn state_of(throws: &[u32]) -> Option<State> {
    let period = throws.len();
    if period == 0 || throws.iter().any(|&t| t > MAX_HEIGHT) {
        return None;
    }
    let mut landed = vec![false; period];
    for (i, &t) in throws.iter().enumerate() {
        if t > 0 {
            let slot = (i + t as usize) % period;
            if landed[slot] {
                return None;
            }
            landed[slot] = true;
        }
    }
    // Every beat that throws must have a landing, and vice versa.
    if throws.iter().zip(&landed).any(|(&t, &l)| (t > 0) != l) {
        return None;
    }
    let mut s: State = 0;
    for (i, &t) in throws.iter().enumerate() {
        // Copies thrown m periods earlier at beat i - m*period, landing at i + t - m*period.
        let mut land = i as i64 + i64::from(t) - period as i64;
        while land >= 0 {
            s |= 1u128 << land;
            land -= period as i64;
        }
    }
    Some(s)
}

/// The states a periodic throw sequence visits: `states[i]` is the state before throw `i`.
pub fn states_of(throws: &[u32]) -> Option<Vec<State>> {
    let mut s = state_of(throws)?;
    let mut out = Vec::with_capacity(throws.len());
    for &t in throws {
        out.push(s);
        s = after_throw(s, t)?;
    }
    Some(out)
}

/// The shortest throw sequence from state `from` to state `to` (same number of props), in
/// Juggling Lab's choice: wait the fewest beats `b` with `from >> b` inside `to`, and send the
/// props landing in those beats, in order, to the lowest free places of `to`.
/// `None` when the prop counts differ.
pub fn shortest_transition(from: State, to: State) -> Option<Vec<u32>> {
    if from.count_ones() != to.count_ones() {
        return None;
    }
    let beats = (0..=128u32).find(|&b| {
        let rest = if b >= 128 { 0 } else { from >> b };
        rest & !to == 0
    })?;
    let rest = if beats >= 128 { 0 } else { from >> beats };
    let mut free = to & !rest;
    let mut out = Vec::with_capacity(beats as usize);
    for i in 0..beats {
        if from >> i & 1 == 1 {
            let k = free.trailing_zeros();
            free &= free - 1;
            out.push(k + beats - i);
        } else {
            out.push(0);
        }
    }
    Some(out)
}

/// A throw value as one character (0-9, then a-z), as Juggling Lab prints it.
pub fn throw_char(v: u32) -> char {
    char::from_digit(v, 36).unwrap_or('?')
}

/// A throw sequence as text (`[5, 3, 1]` -> "531"); throws above 35 have no single-character
/// form and print as '?' (the generator refuses such heights).
pub fn throws_text(throws: &[u32]) -> String {
    throws.iter().map(|&t| throw_char(t)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_of_worked_examples() {
        // 531: before the 5 the props land at beats 0, 1 and 2 (ground state).
        assert_eq!(state_of(&[5, 3, 1]), Some(0b111));
        // 450: before the 4, props land at 0, 1 and 3.
        assert_eq!(state_of(&[4, 5, 0]), Some(0b1011));
        assert_eq!(state_of(&[5, 4, 3]), None); // collision
        assert_eq!(states_of(&[4, 4, 1]).unwrap(), vec![0b111, 0b1011, 0b1101]);
    }

    #[test]
    fn transitions_worked_examples() {
        // Ground 3 props to 450's state (props at 0, 1, 3): one 4, as Juggling Lab prints.
        assert_eq!(shortest_transition(0b111, 0b1011), Some(vec![4]));
        assert_eq!(shortest_transition(0b1011, 0b111), Some(vec![2]));
        assert_eq!(shortest_transition(0b111, 0b111), Some(vec![]));
        assert_eq!(shortest_transition(0b111, 0b1111), None);
        // Ground 3 props to props at 2, 3, 4: three throws, any matching of the three props
        // to the three places (3! = 6 sequences), 555 among them.
        let beats = shortest_transition(0b111, 0b11100).unwrap().len() as u32;
        let all = crate::tools::trans::sequences(0b111, 0b11100, beats, 35, 10);
        assert_eq!(all.len(), 6);
        assert_eq!(all[0], vec![5, 5, 5]);
        assert!(all.contains(&vec![6, 4, 5]));
        for t in &all {
            let mut s = 0b111;
            for &v in t {
                s = after_throw(s, v).unwrap();
            }
            assert_eq!(s, 0b11100);
        }
    }
}
