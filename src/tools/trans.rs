//! Transitions between two solo asynchronous siteswaps with the same number of props.

use super::state::{after_throw, state_of, throws_text, State};

/// One way from pattern A to B and back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transition {
    /// Throws from A's state to B's state (empty when A and B share a state).
    pub there: Vec<u32>,
    /// Throws from B's state back to A's state.
    pub back: Vec<u32>,
    /// One complete pattern: A twice, `there`, B twice, `back`.
    pub pattern: Vec<u32>,
}

impl Transition {
    pub fn pattern_text(&self) -> String {
        throws_text(&self.pattern)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TransError {
    #[error(
        "no transition: {a} has {pa} props and {b} has {pb}; a transition keeps every prop in the pattern, so both need the same number"
    )]
    DifferentProps {
        a: String,
        pa: u32,
        b: String,
        pb: u32,
    },
    #[error("{0} is not a valid siteswap")]
    Invalid(String),
}

/// Every throw sequence of exactly `beats` throws, none above `height`, from state `from` to
/// state `to`, in increasing order (at most `limit`).
pub fn sequences(from: State, to: State, beats: u32, height: u32, limit: usize) -> Vec<Vec<u32>> {
    fn go(
        s: State,
        to: State,
        left: u32,
        height: u32,
        cur: &mut Vec<u32>,
        out: &mut Vec<Vec<u32>>,
        limit: usize,
    ) {
        if out.len() >= limit {
            return;
        }
        // Props still in the air after the remaining beats must already be where `to` has them.
        let rest = if left >= 128 { 0 } else { s >> left };
        if rest & !to != 0 {
            return;
        }
        if left == 0 {
            if s == to {
                out.push(cur.clone());
            }
            return;
        }
        let values = if s & 1 == 0 { 0..=0 } else { 1..=height };
        for v in values {
            if let Some(next) = after_throw(s, v) {
                cur.push(v);
                go(next, to, left - 1, height, cur, out, limit);
                cur.pop();
            }
        }
    }
    let mut out = Vec::new();
    go(from, to, beats, height, &mut Vec::new(), &mut out, limit);
    out
}

/// The shortest transitions from state `from` to `to` of an even number of throws (so that
/// each hand keeps its throws of the written pattern, as Juggling Lab's transitions do), no
/// throw above `height`; at most `limit`.
pub fn shortest_even(from: State, to: State, height: u32, limit: usize) -> Vec<Vec<u32>> {
    // Waiting `height` beats lets every prop land, so a way exists within 2 * height + 2.
    (0..=height + 1)
        .map(|half| sequences(from, to, 2 * half, height, limit))
        .find(|found| !found.is_empty())
        .unwrap_or_default()
}

/// Every shortest transition from `a` to `b` (at most `limit`), each with the shortest way
/// back. Transitions have an even number of throws, so that A and B keep their hands, and
/// throw no higher than the higher of the two patterns.
pub fn transitions(a: &[u32], b: &[u32], limit: usize) -> Result<Vec<Transition>, TransError> {
    let sa = state_of(a).ok_or_else(|| TransError::Invalid(throws_text(a)))?;
    let sb = state_of(b).ok_or_else(|| TransError::Invalid(throws_text(b)))?;
    if sa.count_ones() != sb.count_ones() {
        return Err(TransError::DifferentProps {
            a: throws_text(a),
            pa: sa.count_ones(),
            b: throws_text(b),
            pb: sb.count_ones(),
        });
    }
    let height = a.iter().chain(b).copied().max().unwrap_or(1).max(1);
    let back = shortest_even(sb, sa, height, 1)
        .into_iter()
        .next()
        .unwrap_or_default();
    Ok(shortest_even(sa, sb, height, limit)
        .into_iter()
        .map(|there| {
            let mut pattern = Vec::new();
            pattern.extend_from_slice(a);
            pattern.extend_from_slice(a);
            pattern.extend_from_slice(&there);
            pattern.extend_from_slice(b);
            pattern.extend_from_slice(b);
            pattern.extend_from_slice(&back);
            Transition {
                there,
                back: back.clone(),
                pattern,
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Vec<u32> {
        s.chars().map(|c| c.to_digit(36).unwrap()).collect()
    }

    #[test]
    fn juggling_labs_examples() {
        // jl trans 3 51: 34 or 52 there, 23 back; jl trans 531 441: none needed.
        let r = transitions(&t("3"), &t("51"), 10).unwrap();
        let there: Vec<String> = r.iter().map(|x| throws_text(&x.there)).collect();
        assert_eq!(there, vec!["34", "52"]);
        assert!(r.iter().all(|x| throws_text(&x.back) == "23"));
        assert_eq!(r[0].pattern_text(), "3334515123");
        let r = transitions(&t("531"), &t("441"), 10).unwrap();
        assert_eq!(r.len(), 1);
        assert!(r[0].there.is_empty() && r[0].back.is_empty());
        assert_eq!(r[0].pattern_text(), "531531441441");
    }

    #[test]
    fn every_pattern_is_valid_and_contains_both() {
        let pairs = [
            ("3", "441"),
            ("531", "50505"),
            ("5", "744"),
            ("a", "db97"),
            ("51", "3"),
        ];
        for (a, b) in pairs {
            for x in transitions(&t(a), &t(b), 50).unwrap() {
                let text = x.pattern_text();
                let sch = crate::schedule::from_notation(&text)
                    .unwrap_or_else(|e| panic!("{a}->{b}: {text}: {e}"));
                assert_eq!(sch.props as u32, state_of(&t(a)).unwrap().count_ones());
                assert!(text.contains(&format!("{a}{a}")) && text.contains(&format!("{b}{b}")));
            }
        }
    }

    #[test]
    fn different_prop_counts_have_no_transition() {
        let e = transitions(&t("531"), &t("4"), 10).unwrap_err();
        assert!(matches!(e, TransError::DifferentProps { pa: 3, pb: 4, .. }));
        assert!(e.to_string().contains("same number"));
        assert!(matches!(
            transitions(&t("54"), &t("3"), 1),
            Err(TransError::Invalid(_))
        ));
    }
}
