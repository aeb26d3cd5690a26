//! Transitions: what the finders return ([`TextTransition`], [`TransError`]) and the finder
//! for solo asynchronous siteswaps, on bit-set states.

use super::state::{after_throw, state_of, throws_text, State};

/// One way from pattern A to B and back (solo asynchronous, as throw values).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Transition {
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

/// One way from A to B and back, as text in Juggling Lab's notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextTransition {
    /// A and B as one period each, written out.
    pub from: String,
    pub to: String,
    pub there: String,
    pub back: String,
    /// A twice, `there`, B twice, `back`.
    pub pattern: String,
    /// Beats of `there`.
    pub beats: usize,
}

/// Search steps allowed for one direction of a transition (a few seconds).
pub(crate) const SEARCH_STEPS: u64 = 20_000_000;

/// Why no transition can be listed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TransError {
    #[error("{0}: bounces and throw modifiers other than x and p are not supported by the transition finder")]
    Modifiers(String),
    #[error("{0}: a Prechac pattern or shared siteswap (jugglers throwing between each other's beats) has no place in the transition finder's model of whole beats")]
    FineBeats(String),
    #[error("{0}: an asynchronous throw marked x (crossing when the value says otherwise) has no place in the transition finder's model")]
    CrossedAsync(String),
    #[error("{a} is {ka} and {b} is {kb}; transitions are found between two synchronous or two asynchronous patterns")]
    MixedRhythm {
        a: String,
        ka: &'static str,
        b: String,
        kb: &'static str,
    },
    #[error(
        "no transition: {a} has {ja} juggler(s) and {b} has {jb}; a transition keeps the jugglers"
    )]
    DifferentJugglers {
        a: String,
        ja: usize,
        b: String,
        jb: usize,
    },
    #[error(
        "no transition: {a} has {pa} props and {b} has {pb}; a transition keeps every prop in the pattern, so both need the same number"
    )]
    DifferentProps {
        a: String,
        pa: usize,
        b: String,
        pb: usize,
    },
    #[error("throws up to {0} are too high for the transition finder (at most 35)")]
    TooHigh(u32),
    #[error("{0}")]
    Limits(super::query::GenError),
    #[error("{0}: throws above 35 cannot be written in the result")]
    Unwritable(String),
    #[error("{0} is not a valid siteswap")]
    Invalid(String),
    #[error("the search for a transition grew too large (more than {SEARCH_STEPS} steps); try patterns with fewer props or lower throws")]
    TooLarge,
}

/// Every throw sequence of exactly `beats` throws, none above `height`, from state `from` to
/// state `to`, in increasing order (at most `limit`).
pub(crate) fn sequences(
    from: State,
    to: State,
    beats: u32,
    height: u32,
    limit: usize,
) -> Vec<Vec<u32>> {
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
pub(crate) fn shortest_even(from: State, to: State, height: u32, limit: usize) -> Vec<Vec<u32>> {
    // Waiting `height` beats lets every prop land, so a way exists within 2 * height + 2.
    (0..=height + 1)
        .map(|half| sequences(from, to, 2 * half, height, limit))
        .find(|found| !found.is_empty())
        .unwrap_or_default()
}

/// Every shortest transition from `a` to `b` (at most `limit`), each with the shortest way
/// back. Transitions have an even number of throws, so that A and B keep their hands, and
/// throw no higher than the higher of the two patterns.
pub(crate) fn transitions(
    a: &[u32],
    b: &[u32],
    limit: usize,
) -> Result<Vec<Transition>, TransError> {
    let sa = state_of(a).ok_or_else(|| TransError::Invalid(throws_text(a)))?;
    let sb = state_of(b).ok_or_else(|| TransError::Invalid(throws_text(b)))?;
    if sa.count_ones() != sb.count_ones() {
        return Err(TransError::DifferentProps {
            a: throws_text(a),
            pa: sa.count_ones() as usize,
            b: throws_text(b),
            pb: sb.count_ones() as usize,
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
