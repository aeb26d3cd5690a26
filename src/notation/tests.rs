//! Parser tests: every notation feature, every error kind with its exact column.

use super::*;
use crate::schedule::{build, Invalid};
use crate::types::Hand;

/// Props of a valid pattern (panics with the error otherwise).
fn props(input: &str) -> usize {
    let pattern = parse(input).unwrap_or_else(|e| panic!("{input}: {e}"));
    build(&pattern)
        .unwrap_or_else(|e| panic!("{input}: {e}"))
        .props
}

fn syntax(input: &str) -> ParseError {
    match parse(input) {
        Err(e) => e,
        Ok(_) => panic!("{input} parsed"),
    }
}

fn invalid(input: &str) -> Invalid {
    let pattern = parse(input).unwrap_or_else(|e| panic!("{input}: {e}"));
    match build(&pattern) {
        Err(e) => e,
        Ok(s) => panic!("{input} valid with {} props", s.props),
    }
}

macro_rules! props_cases {
    ($($name:ident: $input:expr => $props:expr;)*) => {$(
        #[test]
        fn $name() {
            assert_eq!(props($input), $props, "{}", $input);
        }
    )*};
}

props_cases! {
    async_vanilla: "531" => 3;
    base36_letters: "b97531" => 6;
    zero_props: "00" => 0;
    space_ends_a_throw: "3 x" => 18;
    solo_p_is_value_25: "3p" => 14;
    x_as_value_then_cross: "xx" => 33;
    hand_spec_at_start: "L3" => 3;
    sync_pair: "(4,4)" => 4;
    sync_bang: "(3,3)!" => 6;
    mixed_async_sync: "23(4,3)" => 3;
    mixed_13_44: "13(4,4)" => 3;
    mixed_53_40: "53(4,0)" => 3;
    async_then_bang_pair: "3(3,0)!" => 3;
    star_6x_2x: "(6x,2x)*" => 4;
    star_4x_2: "(4x,2)*" => 3;
    star_box: "(4,2x)*" => 3;
    multiplex: "[43]1" => 4;
    multiplex_braces: "{43}1" => 4;
    multiplex_twos: "[22]" => 4;
    multiplex_in_pair: "(4,[44])" => 6;
    zero_inside_multiplex: "[50]" => 5;
    one_element_multiplex: "[5]5" => 5;
    multiplex_spaces: "[ 4 3 ]23" => 4;
    pass_self: "<3p1|3p2>" => 6;
    pass_sync: "<(4xp,4x)|(4xp,4x)>" => 8;
    pass_specifiers: "<L|R><3|4xp><4xp|3>" => 7;
    three_jugglers: "<3|3|3>" => 9;
    pass_mixed: "<5p|3p>" => 8;
    pass_uppercase: "<3P|3P>" => 6;
    pass_uppercase_target: "<5P2|5P3|5P1>" => 15;
    pass_digits_in_range: "<[3p3p]33|[3p3p]33>" => 8;
    pass_space_after_p: "<3p 3|3p 3>" => 6;
    one_juggler_group: "<33>" => 3;
    groups_in_a_row: "<3|3> <3p|3p>" => 6;
    hold_modifier: "44H" => 4;
    double_bounce: "5BB" => 5;
    bounce_letters: "5BBHF" => 5;
    toss_modifier: "2T" => 2;
    repeat_with_spaces: "(3 3 ^2)" => 3;
    repeat_pairs: "((4,4)^2)" => 4;
    repeat_zero: "(3^0)3" => 3;
    group_once: "(44)" => 4;
    slashes: "5/5/5/1/4" => 4;
    tab_is_skipped: "3\tx" => 3;
    line_breaks_deleted: "5\r\n31" => 3;
    leading_and_trailing_spaces: "  531  " => 3;
    nested_star_in_group: "((4,2x)*^2)" => 3;
}

#[test]
fn repeat_keeps_the_period() {
    let p = parse("(3^10)").unwrap();
    assert_eq!(p.expanded.period, 10);
    assert!(!p.expanded.auto_mirrored);
}

#[test]
fn auto_mirror_doubles_odd_vanilla_patterns() {
    let p = parse("531").unwrap();
    assert_eq!(p.expanded.period, 6);
    assert!(p.expanded.auto_mirrored && p.expanded.mirrored);
    let hands: Vec<Hand> = p.expanded.slots.iter().map(|s| s.hand).collect();
    use Hand::{Left as L, Right as R};
    assert_eq!(hands, [R, L, R, L, R, L]);
    // `3x` is not vanilla: one-handed, period 1.
    let p = parse("3x").unwrap();
    assert_eq!(p.expanded.period, 1);
    assert_eq!(p.expanded.slots[0].hand, Hand::Right);
    assert_eq!(p.expanded.slots[0].to_hand, Hand::Right);
}

#[test]
fn first_slot_of_a_pair_is_the_left_hand() {
    let p = parse("(4,0)").unwrap();
    let four = p.expanded.slots.iter().find(|s| s.value == 4).unwrap();
    assert_eq!(
        (four.hand, four.to_hand, four.sync),
        (Hand::Left, Hand::Left, true)
    );
}

#[test]
fn star_swaps_hands_and_doubles_beats() {
    let p = parse("(4,2x)*").unwrap();
    assert_eq!(p.expanded.period, 4);
    let at2: Vec<(Hand, u32)> = p
        .expanded
        .slots
        .iter()
        .filter(|s| s.beat == 2)
        .map(|s| (s.hand, s.value))
        .collect();
    assert_eq!(at2, [(Hand::Right, 4), (Hand::Left, 2)]);
}

#[test]
fn passes_resolve_jugglers() {
    let p = parse("<3p|3p3>").unwrap_err();
    assert_eq!(p.kind, ParseErrorKind::InconsistentBeats);
    let p = parse("<5P2|5P3|5P1>").unwrap();
    let targets: Vec<(usize, usize)> = p.expanded.slots[..3]
        .iter()
        .map(|s| (s.juggler, s.to_juggler))
        .collect();
    assert_eq!(targets, [(0, 1), (1, 2), (2, 0)]);
    // `p` alone goes to the next juggler, the last to the first.
    let p = parse("<3p|3p|3p>").unwrap();
    let targets: Vec<usize> = p.expanded.slots[..3].iter().map(|s| s.to_juggler).collect();
    assert_eq!(targets, [1, 2, 0]);
}

#[test]
fn spans_point_at_the_throw_text() {
    let p = parse("[54] 3x (2,4xp)").unwrap_err();
    assert_eq!(p.column, 14, "solo p after x is the value 25: {p}");
    let p = parse("[54] 3xBH/2").unwrap();
    let texts: Vec<&str> = p
        .expanded
        .slots
        .iter()
        .take(4)
        .map(|s| p.slice(s.span))
        .collect();
    assert_eq!(texts, ["5", "4", "3xBH/", "2"]);
    let m = p.expanded.slots[2].modifier.unwrap();
    assert_eq!(p.slice(m.span), "BH");
    assert_eq!(
        m.kind,
        ModifierKind::Bounce {
            bounces: 1,
            forced: false,
            hyper: true
        }
    );
}

#[test]
fn modifier_meanings() {
    assert_eq!(
        Modifier::classify("BBHF"),
        ModifierKind::Bounce {
            bounces: 2,
            forced: true,
            hyper: true
        }
    );
    assert_eq!(Modifier::classify("FH"), ModifierKind::Forced);
    assert_eq!(Modifier::classify("H"), ModifierKind::Hold);
    assert_eq!(Modifier::classify("TB"), ModifierKind::Toss);
    assert_eq!(Modifier::classify("A"), ModifierKind::Other);
    // `3BL3` is two throws, the first with modifier BL; `3B L3` puts a hand specifier between.
    let p = parse("3BL3").unwrap();
    assert_eq!(p.expanded.slots.iter().filter(|s| s.value == 3).count(), 2);
    assert_eq!(p.slice(p.expanded.slots[0].modifier.unwrap().span), "BL");
    let p = parse("3B L3").unwrap();
    assert_eq!(p.expanded.slots[1].hand, Hand::Left);
}

#[test]
fn ast_keeps_structure() {
    let p = parse("(3^2)<3|3>").unwrap_err();
    assert_eq!(p.kind, ParseErrorKind::InconsistentJugglers);
    let p = parse("(33^2)[43](4,2x)!").unwrap();
    assert_eq!(p.root.elements.len(), 2);
    let Element::Group(g) = &p.root.elements[0] else {
        panic!("group expected")
    };
    assert_eq!((g.repeats, g.span), (2, Span::new(0, 6)));
    let Element::Solo(items) = &p.root.elements[1] else {
        panic!("solo expected")
    };
    let Item::Pair(pair) = &items[1] else {
        panic!("pair expected")
    };
    assert!(pair.bang);
    assert_eq!(pair.right.throws[0].value, 2);
    assert!(pair.right.throws[0].cross);
}

/// (input, kind, column, found)
fn check_error(input: &str, kind: ParseErrorKind, column: usize, found: &str) {
    let e = syntax(input);
    assert_eq!(
        (e.kind, e.column, e.found.as_str()),
        (kind, column, found),
        "{input}: {e}"
    );
}

macro_rules! error_cases {
    ($($name:ident: $input:expr => $kind:ident at $col:expr, $found:expr;)*) => {$(
        #[test]
        fn $name() {
            check_error($input, ParseErrorKind::$kind, $col, $found);
        }
    )*};
}

error_cases! {
    uppercase_is_no_value: "A" => Unexpected at 1, "A";
    modifier_without_throw: "B3" => Unexpected at 1, "B";
    space_before_modifier: "3 B" => Unexpected at 3, "B";
    space_before_bang: "(2,2) !" => Unexpected at 7, "!";
    space_after_group: "(33) 33" => Unexpected at 5, " ";
    bang_after_async: "3!" => Unexpected at 2, "!";
    double_bang: "(4,4)!!" => Unexpected at 7, "!";
    star_not_last: "3*3" => Unexpected at 3, "3";
    mismatched_closer: "[33}" => Unexpected at 4, "}";
    empty_multiplex: "{}" => Unexpected at 2, "}";
    empty_brackets: "[]" => Unexpected at 2, "]";
    nested_multiplex: "[[33]]" => Unexpected at 2, "[";
    caret_outside_group: "3^2" => Unexpected at 2, "^";
    caret_after_group: "(3)^2" => Unexpected at 4, "^";
    space_opens_a_pair: "( 44)" => Unexpected at 4, "4";
    space_before_slash: "3 /3" => Unexpected at 3, "/";
    unclosed_group: "(3" => Unexpected at 2, "";
    unclosed_pair: "(4,4" => Unexpected at 4, "";
    missing_right_throw: "(6x,)*" => Unexpected at 5, ")";
    foreign_char_last: "3#" => Unexpected at 2, "#";
    foreign_char_inside: "3#3" => Unexpected at 2, "#";
    non_ascii: "3é3" => Unexpected at 2, "é";
    space_before_repeat_close: "(3^2 )" => Unexpected at 5, " ";
    hand_in_multiplex: "[3R3]" => Unexpected at 3, "R";
    nested_pass_group: "<3|<3>>" => Unexpected at 4, "<";
    group_inside_pass: "<(3^2)|33>" => Unexpected at 4, "^";
    empty_juggler: "<|3>" => Unexpected at 2, "|";
    empty_input: "" => Empty at 1, "";
    only_spaces: "   " => Empty at 1, "";
    wildcard: "3?" => Wildcard at 2, "?";
    lone_wildcard: "?" => Wildcard at 1, "?";
    pass_in_solo: "3P" => PassInSolo at 2, "P";
    uneven_beats: "<33|3>" => InconsistentBeats at 1, "<";
    juggler_count_mismatch: "<3|3><3|3|3>" => InconsistentJugglers at 6, "<";
    solo_beside_passing: "<3|3>3" => InconsistentJugglers at 6, "3";
    repeat_overflow: "(3^99999999999999999999999)" => NumberTooLarge at 4, "9";
    repeat_too_large: "(3^99999999999)" => TooLarge at 1, "(";
    tab_keeps_columns: "3\t B" => Unexpected at 4, "B";
}

#[test]
fn too_deep_nesting_is_refused() {
    let deep = format!("{}3{}", "(".repeat(10_000), ")".repeat(10_000));
    assert_eq!(syntax(&deep).kind, ParseErrorKind::TooDeep);
    let ok = format!("{}3{}", "(".repeat(MAX_NESTING), ")".repeat(MAX_NESTING));
    assert_eq!(props(&ok), 3);
    let pair_inside = format!(
        "{}(4,4){}",
        "(".repeat(MAX_NESTING),
        ")".repeat(MAX_NESTING)
    );
    assert_eq!(props(&pair_inside), 4);
    check_error(&"[".repeat(1000), ParseErrorKind::Unexpected, 2, "[");
    let over = format!(
        "{}3{}",
        "(".repeat(MAX_NESTING + 1),
        ")".repeat(MAX_NESTING + 1)
    );
    assert_eq!(syntax(&over).kind, ParseErrorKind::TooDeep);
}

#[test]
fn size_limit_is_checked_before_expanding() {
    assert_eq!(syntax("((3^1000)^101)").kind, ParseErrorKind::TooLarge);
    assert_eq!(parse("((3^1000)^100)").unwrap().expanded.period, 100_000);
    // The limit counts throws too: 25 000 beats of a 4-multiplex are at it, one more is over.
    assert_eq!(
        parse("([4444]^25000)").unwrap().expanded.slots.len(),
        100_000
    );
    assert_eq!(syntax("([4444]^25001)").kind, ParseErrorKind::TooLarge);
    assert_eq!(syntax("([4444]^1000000)").kind, ParseErrorKind::TooLarge);
    // Auto-mirroring may not push it over the limit either.
    assert_eq!(syntax("(3^999999)").kind, ParseErrorKind::TooLarge);
    // Repeating something without beats is cheap, however often.
    assert_eq!(invalid("(R^99999999999)"), Invalid::NoBeats);
}

#[test]
fn error_messages_and_caret() {
    let e = syntax("3 B");
    assert_eq!(
        e.to_string(),
        "cannot parse 'B' at column 3: expected a throw, '*' or end of pattern"
    );
    assert_eq!(
        e.caret(),
        "3 B\n  ^ expected a throw, '*' or end of pattern"
    );
    let e = syntax("[33}");
    assert_eq!(e.expected, "a throw value or ']'");
    let e = syntax("3?");
    assert_eq!(e.to_string(), "wildcard '?' is not supported (column 2)");
}

#[test]
fn large_input_parses_in_linear_time() {
    let big = "531".repeat(33_000);
    let p = parse(&big).unwrap();
    assert_eq!(p.expanded.period, 99_000);
    let garbage = "(".repeat(50) + &"[3".repeat(50_000);
    assert!(parse(&garbage).is_err());
}

/// Spins per throw, `~N` after the throw's modifier letters (juggler's own notation; `~` is
/// outside Juggling Lab's alphabet, so every pattern Juggling Lab accepts keeps its meaning).
#[test]
fn spins_follow_a_throw() {
    let spins = |input: &str| -> Vec<(u32, Option<u32>)> {
        let pattern = parse(input).unwrap_or_else(|e| panic!("{input}: {e}"));
        build(&pattern)
            .unwrap_or_else(|e| panic!("{input}: {e}"))
            .throws
            .iter()
            .map(|t| (t.value, t.spins))
            .collect()
    };
    assert_eq!(spins("3~2"), [(3, Some(2)), (3, Some(2))]);
    // Odd periods are mirrored: the flat 3 is thrown by each hand in turn.
    assert_eq!(
        spins("53~01"),
        [
            (5, None),
            (3, Some(0)),
            (1, None),
            (5, None),
            (3, Some(0)),
            (1, None)
        ]
    );
    let mut pair = spins("(4x~0,4x~1)");
    pair.sort();
    assert_eq!(pair, [(4, Some(0)), (4, Some(1))]);
    assert_eq!(spins("[5~2 4]1")[..2], [(5, Some(2)), (4, None)]);
    assert_eq!(spins("5B~1 1")[0], (5, Some(1)));
    assert_eq!(spins("5~9/1")[0], (5, Some(9)));
    // One digit only: the next digit is the next throw (3 with 2 spins, then a 1).
    assert_eq!(spins("3~21"), [(3, Some(2)), (1, None)]);
    assert_eq!(props("<3p~1|3p~1>"), 6);
    // The spins change nothing else: same props, values and hands as without them.
    for (with, without) in [
        ("531~2", "531"),
        ("(4~1,2x)*", "(4,2x)*"),
        ("[43~0]23", "[43]23"),
    ] {
        let a = build(&parse(with).unwrap()).unwrap();
        let b = build(&parse(without).unwrap()).unwrap();
        assert_eq!(a.props, b.props);
        let strip = |s: &crate::schedule::Schedule| -> Vec<_> {
            s.throws
                .iter()
                .map(|t| (t.beat, t.from, t.to, t.value, t.next))
                .collect()
        };
        assert_eq!(strip(&a), strip(&b), "{with}");
    }
}

#[test]
fn bad_spins_name_the_column() {
    for (input, column, expected) in [
        ("3~", 2, "a number of spins (0 to 9)"),
        ("3~x3", 3, "a number of spins (0 to 9)"),
        ("3~~1", 3, "a number of spins (0 to 9)"),
        ("3~-1", 3, "a number of spins (0 to 9)"),
        ("3 ~1", 3, ""),
    ] {
        let e = syntax(input);
        assert_eq!(e.column, column, "{input}: {e}");
        if !expected.is_empty() {
            assert!(e.expected.contains(expected), "{input}: {}", e.expected);
        }
    }
}
