//! Analysis of a solo asynchronous siteswap: the states it visits, prime or composite with the
//! decomposition into prime cycles, and the way in and out of the ground state.

use serde::Serialize;

use super::state::{ground, shortest_transition, states_of, throws_text, State};
use crate::schedule::Schedule;
use crate::types::Hand;

/// The throw values of one written period of a solo asynchronous pattern without multiplexes
/// whose throws go where the plain numbers send them (odd to the other hand, even to the same
/// hand). `None` for sync, passing, multiplex or `x`-modified patterns.
pub fn vanilla_throws(sch: &Schedule) -> Option<Vec<u32>> {
    if sch.jugglers != 1 || sch.sync {
        return None;
    }
    let period = sch.period as usize;
    let mut values = vec![0u32; period];
    let mut seen = vec![false; period];
    for t in &sch.throws {
        let b = t.beat as usize;
        if b >= period || seen[b] {
            return None; // multiplex
        }
        seen[b] = true;
        let crosses = t.from.hand != t.to.hand;
        if crosses != (t.value % 2 == 1) {
            return None;
        }
        values[b] = t.value;
    }
    let written = sch.pattern_period as usize;
    if written == 0 || written > period || !period.is_multiple_of(written) {
        return None;
    }
    // An auto-mirrored pattern repeats its written values.
    values.truncate(written);
    Some(values)
}

/// A state as Juggling Lab's x/- string, beat 0 first ("xx-x" = props land now, next beat and
/// three beats from now). Trailing empty beats are left out.
pub fn state_text(s: State) -> String {
    let len = 128 - s.leading_zeros();
    (0..len)
        .map(|k| if s >> k & 1 == 1 { 'x' } else { '-' })
        .collect()
}

/// The analysis of one pattern.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Analysis {
    /// The state before each throw of the written period, as x/- strings.
    pub states: Vec<String>,
    /// No state is visited twice in one period.
    pub prime: bool,
    /// The prime cycles the period is made of, in the order they close (one entry, the
    /// pattern itself, when prime).
    pub decomposition: Vec<String>,
    pub ground_state: bool,
    /// Throws from the ground state into the pattern's start (empty when ground state).
    pub get_in: String,
    /// Throws from the pattern's start back to the ground state.
    pub get_out: String,
}

/// Analyses a solo asynchronous throw sequence; `None` if it is not a valid siteswap.
pub fn analyse(throws: &[u32]) -> Option<Analysis> {
    let states = states_of(throws)?;
    let props = states[0].count_ones();
    let g = ground(props);
    let mut distinct = states.clone();
    distinct.sort_unstable();
    distinct.dedup();
    Some(Analysis {
        states: states.iter().map(|&s| state_text(s)).collect(),
        prime: distinct.len() == states.len(),
        decomposition: decompose(throws, &states)
            .iter()
            .map(|c| throws_text(c))
            .collect(),
        ground_state: states[0] == g,
        get_in: throws_text(&shortest_transition(g, states[0])?),
        get_out: throws_text(&shortest_transition(states[0], g)?),
    })
}

/// Splits a period into prime cycles: walk the states, and whenever a state repeats, the
/// throws since its first visit form a cycle that visits no state twice; cut it out and go on.
fn decompose(throws: &[u32], states: &[State]) -> Vec<Vec<u32>> {
    let mut cycles = Vec::new();
    let mut path: Vec<(State, u32)> = Vec::new();
    for (i, &t) in throws.iter().enumerate() {
        path.push((states[i], t));
        let next = states[(i + 1) % states.len()];
        if let Some(p) = path.iter().position(|&(s, _)| s == next) {
            cycles.push(path.drain(p..).map(|(_, t)| t).collect());
        }
    }
    cycles
}

/// The hand a throw at `beat` is made by in an asynchronous pattern (right on even beats).
pub fn async_hand(beat: u32) -> Hand {
    if beat.is_multiple_of(2) {
        Hand::Right
    } else {
        Hand::Left
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn throws(s: &str) -> Vec<u32> {
        s.chars().map(|c| c.to_digit(36).unwrap()).collect()
    }

    #[test]
    fn prime_ground_pattern() {
        let a = analyse(&throws("531")).unwrap();
        assert_eq!(a.states, vec!["xxx", "xx--x", "x-xx"]);
        assert!(a.prime);
        assert_eq!(a.decomposition, vec!["531"]);
        assert!(a.ground_state);
        assert_eq!((a.get_in.as_str(), a.get_out.as_str()), ("", ""));
    }

    #[test]
    fn composite_patterns_split_into_prime_cycles() {
        let a = analyse(&throws("423")).unwrap();
        assert!(!a.prime);
        assert_eq!(a.decomposition, vec!["42", "3"]);
        let a = analyse(&throws("333")).unwrap();
        assert_eq!(a.decomposition, vec!["3", "3", "3"]);
        let a = analyse(&throws("744")).unwrap();
        assert!(a.prime);
        let a = analyse(&throws("441423")).unwrap();
        assert_eq!(a.decomposition, vec!["441", "42", "3"]);
    }

    #[test]
    fn excited_pattern_has_get_in_and_out() {
        // Juggling Lab lists 450 with get-in 4 and get-out 2.
        let a = analyse(&throws("450")).unwrap();
        assert!(!a.ground_state);
        assert_eq!(a.states[0], "xx-x");
        assert_eq!((a.get_in.as_str(), a.get_out.as_str()), ("4", "2"));
        assert!(analyse(&throws("543")).is_none());
    }
}
