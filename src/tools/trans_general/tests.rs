use super::*;

fn run(a: &str, b: &str, limit: usize) -> Result<Vec<TextTransition>, TransError> {
    let sa = crate::schedule::from_notation(a).unwrap();
    let sb = crate::schedule::from_notation(b).unwrap();
    transitions((a, &sa), (b, &sb), limit)
}

#[test]
fn every_pattern_is_valid_and_juggles_a_then_b() {
    let pairs = [
        ("(4,4)", "(6x,2x)"),
        ("(4,2x)*", "(4,4)(4,0)"),
        ("(6x,4)*", "(4,6x)*"),
        ("(4,4)", "([44],0)"),
        ("(6,4x)(4x,2)", "(4,4)"),
        ("[33]33", "[43]23"),
        ("1[54]2", "24[42]"),
        ("[33]33", "1[54]2"),
        ("<3|3>", "<4p|2p>"),
        ("<3|3>", "<5|1>"),
        ("<3p|3p>", "<3|3>"),
        ("<3|3|3>", "<3p2|3p3|3p1>"),
        ("<(4,4)|(4,4)>", "<(4xp,4xp)|(4xp,4xp)>"),
        ("<[33]|3>", "<3|[33]>"),
    ];
    let mut total = 0;
    for (a, b) in pairs {
        let found = run(a, b, 50).unwrap_or_else(|e| panic!("{a} -> {b}: {e}"));
        assert!(!found.is_empty(), "{a} -> {b}");
        let props = crate::schedule::from_notation(a).unwrap().props;
        let beats = found[0].beats;
        for t in &found {
            let sch = crate::schedule::from_notation(&t.pattern)
                .unwrap_or_else(|e| panic!("{a} -> {b}: {}: {e}", t.pattern));
            assert_eq!(sch.props, props, "{}", t.pattern);
            // A twice, the transition, B twice, the way back, as one period.
            let twice = |x: &str| format!("{x}{x}");
            assert!(t.pattern.starts_with(&twice(&t.from)), "{}", t.pattern);
            assert!(
                t.pattern.contains(&format!("{}{}", t.there, twice(&t.to))),
                "{}",
                t.pattern
            );
            assert!(t.pattern.ends_with(&t.back), "{}", t.pattern);
            // A and B as written describe the same patterns.
            let same = |x: &str, y: &str| {
                let (sx, sy) = (
                    crate::schedule::from_notation(x).unwrap(),
                    crate::schedule::from_notation(y).unwrap(),
                );
                sx.props == sy.props && sx.period == sy.period && sx.state == sy.state
            };
            assert!(
                same(&t.from, a) && same(&t.to, b),
                "{a} {b}: {} {}",
                t.from,
                t.to
            );
            // Shortest first: every listed transition has the same number of beats.
            assert_eq!(t.beats, beats);
        }
        total += found.len();
    }
    assert!(total > 40, "{total}");
}

#[test]
fn sync_transitions_are_juggling_labs_that_keep_the_rhythm() {
    // Juggling Lab 1.6.6 `trans` lists these, plus variants in its hand-by-hand notation
    // (`(7,5x)(1x,1x)!R`) that leave the synchronous rhythm.
    let cases = [
        ("(4,4)", "(6x,2x)", vec!["(6x,4)", "(4x,6)"], "(4,2x)"),
        ("(4,2x)*", "(4,4)(4,0)", vec!["(4,2x)", "(2,4x)"], "(4x,2)"),
        ("(6x,4)*", "(4,6x)*", vec!["(6x,4)", "(4x,6)"], "(6,4x)"),
        ("(4,4)", "(4x,4x)", vec![""], ""),
    ];
    for (a, b, there, back) in cases {
        let found = run(a, b, 50).unwrap();
        let got: Vec<&str> = found.iter().map(|t| t.there.as_str()).collect();
        assert_eq!(got, there, "{a} -> {b}");
        assert_eq!(found[0].back, back, "{a} -> {b}");
    }
}

#[test]
fn passing_transition_worked_example() {
    // <3|3> -> <4p|2p>: two beats. <4p|3><4p|2p>: juggler 1 passes 4s, juggler 2 throws a
    // 3 and then starts the 2p feed; the way back is <4p|4p><2|1p>.
    let found = run("<3|3>", "<4p|2p>", 50).unwrap();
    assert_eq!(found.len(), 12);
    assert_eq!(found[0].there, "<4p|3><4p|2p>");
    assert_eq!(found[0].back, "<4p|4p><2|1p>");
    assert_eq!(
        found[0].pattern,
        "<3|3><3|3><4p|3><4p|2p><4p|2p><4p|2p><4p|4p><2|1p>"
    );
}

#[test]
fn impossible_transitions_say_why() {
    let e = run("(4,4)", "(6x,4)*", 5).unwrap_err();
    assert!(
        matches!(e, TransError::DifferentProps { pa: 4, pb: 5, .. }),
        "{e}"
    );
    let e = run("3", "(4,2x)*", 5).unwrap_err();
    assert!(matches!(e, TransError::MixedRhythm { .. }), "{e}");
    assert!(e.to_string().contains("asynchronous"));
    let e = run("<3|3>", "33", 5).unwrap_err();
    assert!(
        matches!(e, TransError::DifferentJugglers { ja: 2, jb: 1, .. }),
        "{e}"
    );
    let e = run("(4,4)", "(4B,4)", 5);
    assert!(matches!(e, Err(TransError::Modifiers(_))), "{e:?}");
}
