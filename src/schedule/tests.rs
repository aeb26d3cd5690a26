//! Schedule tests: validation rules with Juggling Lab's messages, throw events, orbits, state.

use proptest::prelude::*;

use super::*;
use crate::types::Hand;

fn schedule(input: &str) -> Schedule {
    from_notation(input).unwrap_or_else(|e| panic!("{input}: {e}"))
}

fn invalid(input: &str) -> Invalid {
    match from_notation(input) {
        Err(PatternError::Invalid(e)) => e,
        Err(e) => panic!("{input}: syntax error {e}"),
        Ok(s) => panic!("{input}: valid with {} props", s.props),
    }
}

fn collision(input: &str) -> (u64, usize, Hand) {
    match invalid(input) {
        Invalid::Collision {
            beat,
            juggler,
            hand,
            ..
        } => (beat, juggler, hand),
        other => panic!("{input}: {other}"),
    }
}

#[test]
fn collisions_name_beat_juggler_and_hand() {
    use Hand::{Left, Right};
    assert_eq!(collision("3R"), (4, 0, Left));
    assert_eq!(collision("5L31"), (6, 0, Left));
    assert_eq!(collision("(3x,3)"), (4, 0, Left));
    assert_eq!(collision("(4,2x)"), (5, 0, Left));
    assert_eq!(collision("33*"), (4, 0, Left));
    assert_eq!(collision("[33]0"), (4, 0, Left));
    assert_eq!(collision("432"), (5, 0, Right));
    assert_eq!(collision("543"), (6, 0, Left));
    assert_eq!(collision("<3p|3>"), (4, 1, Left));
    assert_eq!(
        invalid("432").to_string(),
        "Pattern is not valid: too many objects landing on beat 5 for juggler 1, right hand"
    );
}

#[test]
fn average_rule() {
    assert_eq!(invalid("54"), Invalid::Average { sum: 9, period: 2 });
    // What was written, not Juggling Lab's doubled period (`532` is played as `532*`).
    assert_eq!(invalid("532"), Invalid::Average { sum: 10, period: 3 });
    assert_eq!(invalid("(4,3x)*"), Invalid::Average { sum: 7, period: 2 });
    assert!(matches!(invalid("3(4,4)"), Invalid::Average { .. }));
    assert!(invalid("54")
        .to_string()
        .starts_with("Invalid pattern average"));
}

#[test]
fn later_rules() {
    let e = invalid("40B");
    assert_eq!(e.to_string(), "Can't add modifier 'B' to 0 throw on beat 2");
    assert_eq!(e.beat(), Some(2));
    assert!(matches!(
        invalid("3H"),
        Invalid::HandChangedDuringCarry { beat: 0, .. }
    ));
    assert!(matches!(
        invalid("<3pH|3p>"),
        Invalid::JugglerChangedDuringCarry { juggler: 0, .. }
    ));
    assert_eq!(invalid("R"), Invalid::NoBeats);
    assert_eq!(invalid("<L|L>"), Invalid::NoBeats);
    assert_eq!(invalid("(51^0)"), Invalid::NoBeats);
    // A zero in a multiplex is an empty slot, not a place to land in.
    assert_eq!(schedule("[30]1").props, 2);
    assert!(schedule("40H").throws.iter().all(|t| t.value == 4));
}

#[test]
fn cascade_throw_events() {
    let s = schedule("531");
    assert_eq!(
        (s.period, s.pattern_period, s.props, s.jugglers, s.max_throw),
        (6, 3, 3, 1, 5)
    );
    assert!(s.mirrored && !s.sync && s.ground_state);
    let t = &s.throws[0];
    assert_eq!(
        (t.beat, t.value, t.from.hand, t.to.hand),
        (0, 5, Hand::Right, Hand::Left)
    );
    assert_eq!(t.kind, ThrowKind::Toss);
    // The 5 from beat 0 is caught by the left hand and thrown again on beat 5 (a 1).
    assert_eq!(s.throws[t.next].beat, 5);
    assert_eq!(s.throws[t.next].value, 1);
    assert_eq!(s.orbits.len(), 3);
    let written = s.written_orbits();
    let shape: Vec<(usize, Vec<u32>)> = written
        .iter()
        .map(|o| {
            (
                o.props,
                o.throws.iter().map(|&i| s.throws[i].value).collect(),
            )
        })
        .collect();
    assert_eq!(shape, [(2, vec![5, 1]), (1, vec![3])]);
}

#[test]
fn throw_kinds() {
    // (4,2): the 2 is held.
    let s = schedule("(4,2)");
    let two = s.throws.iter().find(|t| t.value == 2).unwrap();
    assert_eq!((two.from.hand, two.kind), (Hand::Right, ThrowKind::Hold));
    // A 2 whose hand throws on the very next beat is a toss.
    let s = schedule("(2,2)!");
    assert!(s.throws.iter().all(|t| t.kind == ThrowKind::Toss));
    assert_eq!(s.props, 4);
    assert_eq!(schedule("2T").throws[0].kind, ThrowKind::Toss);
    assert_eq!(schedule("2").throws[0].kind, ThrowKind::Hold);
    assert_eq!(schedule("1x").throws[0].kind, ThrowKind::Hold);
    assert_eq!(schedule("3").throws[0].kind, ThrowKind::Toss);
    assert_eq!(schedule("<2p|2p>").throws[0].kind, ThrowKind::Toss);
    let s = schedule("5BBHF");
    assert_eq!(
        s.throws[0].kind,
        ThrowKind::Bounce {
            bounces: 2,
            forced: true,
            hyper: true
        }
    );
    assert_eq!(s.throws[0].modifier, "BBHF");
    assert_eq!(
        schedule("3F").throws[0].kind,
        ThrowKind::Bounce {
            bounces: 1,
            forced: true,
            hyper: false
        }
    );
    assert_eq!(schedule("44H").throws[1].kind, ThrowKind::Hold);
    assert_eq!(schedule("3A").throws[0].kind, ThrowKind::Toss);
}

#[test]
fn states_and_ground_state() {
    let s = schedule("51");
    assert!(!s.ground_state);
    let counts: Vec<(Hand, Vec<u32>)> =
        s.state.iter().map(|l| (l.hand, l.counts.clone())).collect();
    assert_eq!(
        counts,
        [
            (Hand::Left, vec![0, 1, 0, 1, 0]),
            (Hand::Right, vec![1, 0, 0, 0, 0])
        ]
    );
    for (pattern, ground) in [
        ("531", true),
        ("441", true),
        ("423", true),
        ("b97531", true),
        ("4413", true),
        ("552", true),
        ("71", false),
        ("7131", false),
        ("(4,4)", true),
        ("(6x,4)*", true),
        ("(4,2x)*", true),
        ("[43]23", true),
        ("<3p|3p>", true),
        ("<5p|3p>", false),
        ("0", true),
        ("450", false),
        ("55703", false),
        ("50505", false),
    ] {
        assert_eq!(schedule(pattern).ground_state, ground, "{pattern}");
    }
}

#[test]
fn passing_facts() {
    let s = schedule("<3p|3p><3|3>");
    assert_eq!((s.jugglers, s.props, s.period), (2, 6, 2));
    let pass = &s.throws[0];
    assert_eq!(
        (pass.from.juggler, pass.to.juggler, pass.to.hand),
        (0, 1, Hand::Left)
    );
    let s = schedule("<(4xp,4x)|(4xp,4x)>");
    assert!(s.sync);
    assert_eq!(s.props, 8);
}

#[test]
fn pattern_errors_report_kind_column_and_beat() {
    let e = from_notation("3 B").unwrap_err();
    assert_eq!((e.kind(), e.column(), e.beat()), ("syntax", Some(3), None));
    let e = from_notation("543").unwrap_err();
    assert_eq!((e.kind(), e.column(), e.beat()), ("invalid", None, Some(6)));
}

/// The invariants documented on `Schedule`.
fn assert_invariants(s: &Schedule) {
    assert!(s.period >= 1 && s.jugglers >= 1);
    let sum: u64 = s.throws.iter().map(|t| u64::from(t.value)).sum();
    assert_eq!(sum, s.props as u64 * u64::from(s.period));
    let mut seen = vec![false; s.throws.len()];
    for (i, t) in s.throws.iter().enumerate() {
        assert!(t.value > 0 && t.beat < s.period);
        let n = &s.throws[t.next];
        assert_eq!(n.from, t.to, "throw {i}");
        assert_eq!(n.beat, (t.beat + t.value) % s.period, "throw {i}");
        assert!(!seen[t.next]);
        seen[t.next] = true;
    }
    let key = |t: &ThrowEvent| (t.beat, t.from.juggler, t.from.hand == Hand::Left);
    assert!(s.throws.windows(2).all(|w| key(&w[0]) <= key(&w[1])));
    assert_eq!(s.orbits.iter().map(|o| o.props).sum::<usize>(), s.props);
    assert_eq!(
        s.written_orbits().iter().map(|o| o.props).sum::<usize>(),
        s.props
    );
}

#[test]
fn invariants_of_examples() {
    for p in [
        "531",
        "[54][22]2",
        "(4,2x)*",
        "<[3p3p]33|[3p3p]33>",
        "([44],[44])(4,4)",
        "<L|R><3|4xp><4xp|3>",
        "[46]06020",
    ] {
        assert_invariants(&schedule(p));
    }
}

/// A valid vanilla siteswap from a permutation: throw i lands where `perm[i]` says.
fn vanilla_from(perm: &[usize], laps: &[u32]) -> String {
    let n = perm.len();
    perm.iter()
        .enumerate()
        .map(|(i, &p)| {
            let v = ((p + n - i) % n) as u32 + laps[i] * n as u32;
            char::from_digit(v.min(35), 36).unwrap_or('0')
        })
        .collect()
}

proptest! {
    #[test]
    fn generated_vanilla_siteswaps_are_valid(
        perm in (1usize..8).prop_flat_map(|n| Just((0..n).collect::<Vec<_>>()).prop_shuffle()),
        laps in proptest::collection::vec(0u32..3, 8),
    ) {
        let pattern = vanilla_from(&perm, &laps);
        let s = from_notation(&pattern).map_err(|e| TestCaseError::fail(format!("{pattern}: {e}")))?;
        let sum: u32 = pattern.chars().filter_map(|c| c.to_digit(36)).sum();
        prop_assert_eq!(s.props as u32, sum / perm.len() as u32);
        assert_invariants(&s);
    }

    #[test]
    fn notation_alphabet_never_panics(input in "[0-9a-zA-Z()\\[\\]{}<>,|!*^/? pxRLBHT]{0,40}") {
        if let Ok(s) = from_notation(&input) {
            assert_invariants(&s);
        }
    }

    #[test]
    fn structured_strings_never_panic(input in "([1-9a-c]|x|p[0-3]?|\\(|\\)|\\[|\\]|,|\\||<|>|\\*|!|\\^[0-3]|R|L|B|H| ){0,30}") {
        if let Ok(s) = from_notation(&input) {
            assert_invariants(&s);
        }
    }

    #[test]
    fn arbitrary_text_never_panics(input in any::<String>()) {
        if let Err(e) = from_notation(&input) {
            let _ = e.to_string();
        }
        let _ = crate::settings::read(&input);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
        let input = String::from_utf8_lossy(&bytes);
        if let Err(PatternError::Syntax(e)) = from_notation(&input) {
            prop_assert!(e.column >= 1);
            let _ = e.caret();
        }
    }
}

/// A period written several times over keeps its props as written once: each throw's prop goes
/// on to the throw of its copy that the pattern written once gives it. (In slot order, the
/// second copy of `([2x2],[4x2])([2x2],[4x2])` caught a prop from the first copy's 4x and threw
/// it where the pattern written once throws the one it held: a hand held three props at once.)
#[test]
fn a_period_written_twice_keeps_its_props_as_written_once() {
    for (once, times) in [
        ("([2x2],[4x2])", 2),
        ("([2x2],[4x2])", 3),
        ("[43]1", 3),
        ("[32]", 3),
        ("([44],[44])(4,4)", 2),
        ("25[62]", 3),
        ("[54][22]2", 3),
        ("22[43][54]", 2),
    ] {
        let one = schedule(once);
        let many = schedule(&once.repeat(times));
        let n = one.throws.len();
        assert_eq!(many.throws.len(), n * times, "{once} x{times}");
        for (i, t) in many.throws.iter().enumerate() {
            let next = &many.throws[t.next];
            let want = &one.throws[one.throws[i % n].next];
            assert_eq!(
                (next.beat % one.period, next.value, next.from, next.to),
                (want.beat, want.value, want.from, want.to),
                "{once} x{times}: throw {i}"
            );
        }
    }
}
