//! Prechac notation: universal-siteswap's test vectors (props, jugglers, period, delays) and
//! every error kind with its column.

use crate::notation::*;
use crate::schedule::{build, Invalid, Schedule};
use crate::types::{Hand, HandRef};

fn schedule(input: &str) -> Schedule {
    let pattern = parse(input).unwrap_or_else(|e| panic!("{input}: {e}"));
    build(&pattern).unwrap_or_else(|e| panic!("{input}: {e}"))
}

fn ratio(num: u64, den: u64) -> Ratio {
    Ratio::new(num, den).unwrap()
}

/// Props, jugglers, period in the jugglers' own beats (as universal-siteswap counts it:
/// before the mirror image of an odd period) and delays.
fn assert_pattern(input: &str, props: usize, jugglers: usize, period: u32, delays: &[Ratio]) {
    let s = schedule(input);
    assert_eq!(s.props, props, "{input}: props");
    assert_eq!(s.jugglers, jugglers, "{input}: jugglers");
    assert_eq!(s.pattern_period / s.subdivision, period, "{input}: period");
    assert_eq!(s.delays, delays, "{input}: delays");
}

#[test]
fn seven_club_one_count_with_and_without_delays() {
    let half = [Ratio::ZERO, ratio(1, 2)];
    assert_pattern("{0,0.5} <3.5p|3.5px>", 7, 2, 1, &half);
    assert_pattern("<3.5p|3.5px>", 7, 2, 1, &half);
    // Fine beats: 2 per beat, the odd period played on both sides (4 fine beats); A throws
    // straight passes (right -> B's left), B crossed ones (right -> A's right).
    let s = schedule("<3.5p|3.5px>");
    assert_eq!((s.subdivision, s.period), (2, 4));
    let throws: Vec<(u32, HandRef, HandRef, u32)> = s
        .throws
        .iter()
        .map(|t| (t.beat, t.from, t.to, t.value))
        .collect();
    let (a, b) = (0, 1);
    assert_eq!(
        throws,
        vec![
            (
                0,
                HandRef::new(a, Hand::Right),
                HandRef::new(b, Hand::Left),
                7
            ),
            (
                1,
                HandRef::new(b, Hand::Right),
                HandRef::new(a, Hand::Right),
                7
            ),
            (
                2,
                HandRef::new(a, Hand::Left),
                HandRef::new(b, Hand::Right),
                7
            ),
            (
                3,
                HandRef::new(b, Hand::Left),
                HandRef::new(a, Hand::Left),
                7
            ),
        ]
    );
}

#[test]
fn three_jugglers_read_point_three_as_a_third() {
    let thirds = [Ratio::ZERO, ratio(1, 3), ratio(2, 3)];
    assert_pattern("<3.3p3|3.3p3|4.3p3>", 10, 3, 2, &thirds);
    assert_pattern("{0,0.3,0.6}<3.3p3|3.3p3|4.3p3>", 10, 3, 2, &thirds);
    let s = schedule("<3.3p3|3.3p3|4.3p3>");
    assert_eq!(s.subdivision, 3);
    // The highest throw is 4 1/3 beats: 13 fine beats.
    assert_eq!(s.max_throw, 13);
}

#[test]
fn two_jugglers_read_point_three_as_written() {
    // universal-siteswap's "weird fractional passes": 3.3 and 3.7 tenths, B 0.3 beats late.
    assert_pattern("<3.3p|3.7px>", 7, 2, 1, &[Ratio::ZERO, ratio(3, 10)]);
    assert_eq!(schedule("<3.3p|3.7px>").subdivision, 10);
}

#[test]
fn two_decimals_snap_to_thirds() {
    assert_eq!(
        prechac::read_decimal(
            1,
            Some(Decimals {
                digits: 67,
                places: 2
            }),
            false
        ),
        ratio(5, 3)
    );
    assert_eq!(
        prechac::read_decimal(
            3,
            Some(Decimals {
                digits: 5,
                places: 1
            }),
            false
        ),
        ratio(7, 2)
    );
    assert_eq!(
        prechac::read_decimal(
            4,
            Some(Decimals {
                digits: 3,
                places: 1
            }),
            true
        ),
        ratio(13, 3)
    );
    assert_eq!(ratio(13, 3).to_string(), "4.33");
    assert_eq!(ratio(7, 2).to_string(), "3.5");
    assert_eq!(ratio(3, 10).to_string(), "0.3");
}

#[test]
fn whole_delays_rotate_a_juggler() {
    // universal-siteswap: {0,1}<4p3|4p3> is <4p3|L34p>; passes are straight in Prechac
    // notation whatever their parity.
    assert_pattern("{0,1}<4p3|4p3>", 7, 2, 2, &[Ratio::ZERO, Ratio::whole(1)]);
    assert_pattern(
        "{0,1}<5p34|L345p>",
        8,
        2,
        3,
        &[Ratio::ZERO, Ratio::whole(1)],
    );
}

#[test]
fn four_jugglers_with_inferred_delays() {
    let half = ratio(1, 2);
    assert_pattern(
        "<5.5pB5|6pxC5.5pxA|6pxB5.5pxD|5.5pC5>",
        22,
        4,
        2,
        &[Ratio::ZERO, half, half, Ratio::ZERO],
    );
}

#[test]
fn letters_name_jugglers_in_prechac_notation() {
    let zeros = [Ratio::ZERO; 3];
    assert_pattern("{0,0,0}<3pC33|3pA33|3pB33>", 9, 3, 3, &zeros);
    let s = schedule("{0,0,0}<3pC33|3pA33|3pB33>");
    assert_eq!(s.throws[0].from, HandRef::new(0, Hand::Right));
    assert_eq!(s.throws[0].to, HandRef::new(2, Hand::Left));
    // Without the prefix the text is Juggling Lab's: `C` is a modifier, passes go on.
    assert_eq!(
        schedule("<3pC33|3pA33|3pB33>").throws[0].to,
        HandRef::new(1, Hand::Left)
    );
    // The five-person popcorn star, both versions.
    let five = [Ratio::ZERO; 5];
    assert_pattern(
        "{0,0,0,0,0}<4pxC3353|33534pxD|3534pxE3|534pxA33|34pxB335>",
        18,
        5,
        5,
        &five,
    );
    assert_pattern(
        "{0,0,0,0,0}<4px3353|3534px3|34px335|33534px|534px33>",
        18,
        5,
        5,
        &five,
    );
}

#[test]
fn juggling_lab_passing_is_unchanged() {
    // Juggling Lab: B catches its own 4x and A's 4p in the left hand.
    let pattern = parse("<(4p,4x)|(4p,4x)>").unwrap();
    assert!(matches!(
        build(&pattern),
        Err(Invalid::Collision {
            juggler: 1,
            hand: Hand::Left,
            beat: 5,
            ..
        })
    ));
    // Prechac notation (universal-siteswap): the passes are straight, left to right.
    let s = schedule("{0,0}<(4p,4x)|(4p,4x)>");
    assert_eq!((s.props, s.subdivision, s.period), (8, 1, 2));
    assert_eq!(s.delays, [Ratio::ZERO; 2]);
    // 4p lands in the same hand in Juggling Lab's notation.
    let e = parse("<4p3|4p3>").unwrap().expanded;
    assert!(!e.prechac);
    assert_eq!((e.subdivision, e.period), (1, 2));
    assert_eq!(
        (e.slots[0].to_juggler, e.slots[0].to_hand),
        (1, Hand::Right)
    );
}

fn error(input: &str) -> ParseError {
    match parse(input) {
        Err(e) => e,
        Ok(p) => panic!("{input} parsed: {:?}", p.expanded.slots.len()),
    }
}

#[test]
fn prechac_errors_name_the_column() {
    let e = error("<3.5|3.5>");
    assert_eq!((e.kind, e.column), (ParseErrorKind::FractionalSelf, 2));
    assert_eq!(
        e.to_string(),
        "a throw to oneself cannot have a fractional value (only passes can) (column 2)"
    );

    let e = error("<3.5p|3px>");
    assert_eq!((e.kind, e.column), (ParseErrorKind::InconsistentDelays, 7));
    assert_eq!(
        e.to_string(),
        "inconsistent delays: juggler A would need delays of both 0 and 0.5 beats (column 7)"
    );

    let e = error("{0,0.5}<3.2px|3.8p>");
    assert_eq!((e.kind, e.column), (ParseErrorKind::LandsOffBeat, 9));
    assert_eq!(
        e.to_string(),
        "this throw lands at time 3.2, between the beats of juggler B (column 9)"
    );

    let e = error("{0}<3p|3p>");
    assert_eq!((e.kind, e.column), (ParseErrorKind::DelayCount, 1));
    assert_eq!(e.to_string(), "1 delays given for 2 jugglers (column 1)");

    let e = error("{0,0}<3pC|3p>");
    assert_eq!((e.kind, e.column), (ParseErrorKind::NoSuchJuggler, 9));
    assert_eq!(
        e.to_string(),
        "pass to juggler C of a pattern without one (column 9)"
    );

    let e = error("<3.12345p|3p>");
    assert_eq!((e.kind, e.column), (ParseErrorKind::TooManyDecimals, 8));

    let e = error("<3.p|3p>");
    assert_eq!((e.kind, e.column), (ParseErrorKind::Unexpected, 4));
    assert_eq!(e.expected, "a digit after the decimal point");

    let e = error("{0,0.5,}<3.5p|3.5px>");
    assert_eq!(
        (e.column, e.expected.as_str()),
        (8, "a delay (a number of beats)")
    );
    let e = error("{0,a}<3.5p|3.5px>");
    assert_eq!(
        (e.column, e.expected.as_str()),
        (4, "a delay (a number of beats)")
    );
    let e = error("{0,0.5 0}<3.5p|3.5px>");
    assert_eq!((e.column, e.expected.as_str()), (8, "',' or '}'"));

    // A decimal point outside `<>` is not notation.
    assert_eq!(error("3.5").kind, ParseErrorKind::Unexpected);
}

#[test]
fn prechac_collisions_give_juggler_time_and_hand() {
    let pattern = parse("{0,0.5}<3.5px|3.5p>").unwrap();
    let err = build(&pattern).unwrap_err();
    assert_eq!(
        err,
        Invalid::CollisionAt {
            juggler: 1,
            hand: Hand::Right,
            time: ratio(7, 2),
            span: Span::new(8, 13),
        }
    );
    assert_eq!(
        err.to_string(),
        "Pattern is not valid: too many objects landing at time 3.5 for juggler B, right hand"
    );
    let pattern = parse("{0,0}<3pA|3pA>").unwrap();
    assert!(matches!(
        build(&pattern),
        Err(Invalid::CollisionAt { juggler: 0, .. })
    ));
}

#[test]
fn prechac_average_counts_in_the_jugglers_beats() {
    let pattern = parse("<3.5p 3|3.5px 3>").unwrap();
    let err = build(&pattern).unwrap_err();
    assert_eq!(
        err.to_string(),
        "Invalid pattern average: the throws sum to 13 beats over a period of 2 beats, not a whole number of props"
    );
}

#[test]
fn huge_prechac_patterns_are_refused_before_expanding() {
    // Denominators 7, 8, 9 and 10^4 need 2520 * 10^4 fine beats per beat.
    let e = error("<1.1428p 1.125p 1.1111p 1.0001p|1p 1p 1p 1p>");
    assert_eq!(e.kind, ParseErrorKind::TooLarge);
    // 60 000 beats are 120 000 fine beats, over the budget's 100 000.
    let e = error("(<3.5p|3.5px>^60000)");
    assert_eq!(e.kind, ParseErrorKind::TooLarge);
    assert_eq!(schedule("(<3.5p|3.5px>^40000)").period, 80_000);
}

/// (beat, thrower, catcher, value) of every throw, sorted.
fn throws(s: &Schedule) -> Vec<(u32, HandRef, HandRef, u32)> {
    let mut t: Vec<_> = s
        .throws
        .iter()
        .map(|t| (t.beat, t.from, t.to, t.value))
        .collect();
    t.sort_by_key(|&(beat, from, _, _)| (beat, from.slot()));
    t
}

fn k_handed(input: &str, jugglers: usize) -> Schedule {
    let pattern = parse_k_handed(input, jugglers).unwrap_or_else(|e| panic!("{input}: {e}"));
    build(&pattern).unwrap_or_else(|e| panic!("{input}: {e}"))
}

#[test]
fn holy_grail_is_seven_clubs_all_passes() {
    let s = k_handed("975", 2);
    assert_eq!(
        (s.props, s.jugglers, s.subdivision, s.period),
        (7, 2, 2, 12)
    );
    assert!(s.throws.iter().all(|t| t.from.juggler != t.to.juggler));
    // A right throws the 9 to B's right hand (a crossed double), B right the 7 to A's right.
    assert_eq!(s.throws[0].from, HandRef::new(0, Hand::Right));
    assert_eq!(s.throws[0].to, HandRef::new(1, Hand::Right));
    assert_eq!(s.throws[1].from, HandRef::new(1, Hand::Right));
    assert_eq!(s.throws[1].to, HandRef::new(0, Hand::Right));
    let view = local_view(&parse_k_handed("975", 2).unwrap().expanded);
    let a: Vec<(String, Option<usize>, bool, Option<&str>)> = view[0]
        .iter()
        .take(3)
        .map(|t| (t.value.to_string(), t.to, t.same_side, t.name))
        .collect();
    assert_eq!(
        a,
        vec![
            ("4.5".to_string(), Some(1), true, Some("double")),
            ("2.5".to_string(), Some(1), true, Some("zap")),
            ("3.5".to_string(), Some(1), false, Some("single")),
        ]
    );
    assert_eq!(view[1][0].time, ratio(1, 2));
}

#[test]
fn k_handed_siteswaps_are_universal_siteswaps_prechac_patterns() {
    // universal-siteswap's conversions of k-handed siteswaps: the same throws at the same
    // fine beats.
    for (khss, hands, prechac) in [
        ("86", 4, "{0,0.5}<4|3>"),
        ("79", 4, "{0,0.5}<3.5p|4.5p>"),
        ("97", 4, "{0,0.5}<4.5px|3.5px>"),
        ("966867", 4, "{0,0.5}<4.5px33|343.5px>"),
        ("7", 4, "{0,0.5}<3.5p|3.5px>"),
        ("867", 4, "{0,0.5}<43.5p3|343.5px>"),
        ("975", 4, "{0,0.5}<4.5px2.5px3.5p|3.5px4.5p2.5p>"),
        ("7", 6, "{0,0.3,0.6}<2.3px|2.3px|2.3p>"),
        ("567", 6, "{0,0.3,0.6}<1.6pC|2|2.3p>"),
    ] {
        let a = k_handed(khss, hands / 2);
        let b = schedule(prechac);
        assert_eq!(
            (a.period, a.subdivision),
            (b.period, b.subdivision),
            "{khss}"
        );
        assert_eq!(a.props, b.props, "{khss}");
        assert_eq!(a.delays, b.delays, "{khss}");
        assert_eq!(throws(&a), throws(&b), "{khss} = {prechac}");
    }
}

#[test]
fn k_handed_errors_name_the_column() {
    let e = parse_k_handed("5(4,4)", 2).unwrap_err();
    assert_eq!((e.kind, e.column), (ParseErrorKind::NotKHanded, 2));
    let e = parse_k_handed("<3p|3p>", 2).unwrap_err();
    assert_eq!((e.kind, e.column), (ParseErrorKind::NotKHanded, 1));
    let e = parse_k_handed("53L1", 2).unwrap_err();
    assert_eq!((e.kind, e.column), (ParseErrorKind::NotKHanded, 3));
    assert_eq!(
        parse_k_handed("7", 27).unwrap_err().kind,
        ParseErrorKind::TooManyJugglers
    );
    // The siteswap's own errors keep their columns.
    assert_eq!(parse_k_handed("9#5", 2).unwrap_err().column, 2);
    // One juggler: an ordinary siteswap.
    assert_eq!(k_handed("531", 1).period, 6);
    // Invalid as a siteswap, invalid shared.
    let pattern = parse_k_handed("976", 2).unwrap();
    assert!(build(&pattern).is_err());
}

mod props {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Prechac-like text: an error or a schedule whose invariants hold, never a panic.
        #[test]
        fn prechac_never_panics(
            prefix in "(\\{[0-9.,]{0,8}\\})?",
            body in "<[0-9.pxABCR|() ]{0,24}>",
        ) {
            let text = format!("{prefix}{body}");
            if let Ok(pattern) = parse(&text) {
                if let Ok(s) = build(&pattern) {
                    let sum: u64 = s.throws.iter().map(|t| u64::from(t.value)).sum();
                    prop_assert_eq!(sum, s.props as u64 * u64::from(s.period));
                    for t in &s.throws {
                        let next = &s.throws[t.next];
                        prop_assert_eq!(next.from, t.to);
                        prop_assert_eq!(next.beat, (t.beat + t.value) % s.period);
                    }
                }
            }
        }

        /// Every k-handed reading of a short siteswap is refused or valid with the siteswap's
        /// average.
        #[test]
        fn k_handed_never_panics(text in "[0-9a-c\\[\\]]{1,8}", jugglers in 1usize..6) {
            if let Ok(pattern) = parse_k_handed(&text, jugglers) {
                let _ = build(&pattern);
            }
        }
    }
}

#[test]
fn juggler_beats_divide_out_the_fine_beats() {
    let s = schedule("<3.5p|3.5px>");
    assert_eq!(s.juggler_beats(s.throws[0].value), 3.5);
    assert_eq!(s.juggler_beats(s.period), 2.0);
    assert_eq!(schedule("531").juggler_beats(5), 5.0);
}
