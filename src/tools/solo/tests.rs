use super::*;
use crate::tools::state::state_of;

/// The plan, shared as the generator shares it.
fn plan(q: &Query) -> Result<Arc<Plan>, GenError> {
    super::plan(q).map(Arc::new)
}

/// Throw values of a pattern's text (`0`-`9`, `a`-`z`).
fn throws(text: &str) -> Vec<u32> {
    text.chars().map(|c| c.to_digit(36).unwrap()).collect()
}

fn query(props: u32, max: Option<u32>, period: u32) -> Query {
    Query::new(props, max, period)
}

fn list(q: &Query) -> Vec<String> {
    let mut out = Vec::new();
    plan(q).unwrap().generate(&mut |f| {
        out.push(f.pattern.to_string());
        true
    });
    out
}

#[test]
fn all_sequences_with_unbounded_throws_number_b_plus_1_to_the_n_minus_b_to_the_n() {
    // With -f -rot every sequence is listed once (each from the state it implies), so the
    // count is the number of period-n siteswaps with exactly b props: (b+1)^n - b^n.
    for b in 1..=4u32 {
        for n in 1..=4u32 {
            let mut q = query(b, None, n);
            q.listing = Listing::Full;
            q.rotations = true;
            let count = plan(&q).unwrap().count();
            assert_eq!(count, u64::from((b + 1).pow(n) - b.pow(n)), "b={b} n={n}");
        }
    }
}

#[test]
fn counts_match_juggling_lab_for_3_5_5() {
    // Juggling Lab 1.6.6: gen 3 5 5 with each option, -no.
    let cases: [(&str, u64); 7] = [
        ("", 10),
        ("prime", 7),
        ("f", 27),
        ("rot", 78),
        ("f rot", 131),
        ("g", 9),
        ("ng", 1),
    ];
    for (opts, expected) in cases {
        let mut q = query(3, Some(5), 5);
        for o in opts.split_whitespace() {
            match o {
                "prime" => q.listing = Listing::Prime,
                "f" => q.listing = Listing::Full,
                "rot" => q.rotations = true,
                "g" => q.ground = GroundFilter::GroundOnly,
                "ng" => q.ground = GroundFilter::ExcitedOnly,
                _ => unreachable!(),
            }
        }
        assert_eq!(plan(&q).unwrap().count(), expected, "options {opts:?}");
        assert_eq!(list(&q).len() as u64, expected, "options {opts:?}");
    }
}

#[test]
fn period_3_of_3_props_up_to_5_is_juggling_labs_list() {
    // Juggling Lab prints 441, 522, 531 and the excited 450 (get in 4, get out 2); 333 and
    // 423 pass through their start state and are composite.
    let mut found = Vec::new();
    plan(&query(3, Some(5), 3)).unwrap().generate(&mut |f| {
        found.push((
            f.pattern.to_string(),
            f.get_in.to_string(),
            f.get_out.to_string(),
        ));
        true
    });
    let expect = [
        ("441", "", ""),
        ("522", "", ""),
        ("531", "", ""),
        ("450", "4", "2"),
    ];
    let expect: Vec<(String, String, String)> = expect
        .iter()
        .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()))
        .collect();
    assert_eq!(found, expect);
}

#[test]
fn every_generated_pattern_is_valid_and_starts_in_its_state() {
    let mut q = query(4, Some(7), 5);
    q.listing = Listing::Full;
    let mut n = 0;
    plan(&q).unwrap().generate(&mut |f| {
        let text = f.pattern.to_string();
        let state = state_of(&throws(&text)).unwrap();
        let sch =
            crate::schedule::from_notation(&text).unwrap_or_else(|e| panic!("{text} invalid: {e}"));
        assert_eq!(sch.props, 4, "{text}");
        assert!(sch.max_throw <= 7);
        assert_eq!(
            f.ground_state,
            state == crate::tools::state::ground(4),
            "{text}"
        );
        // get-in leads from the ground state into the pattern's state, get-out back.
        let mut s = crate::tools::state::ground(4);
        for t in throws(f.get_in) {
            s = crate::tools::state::after_throw(s, t).unwrap();
        }
        assert_eq!(s, state, "{text} get-in");
        let mut s = state;
        for t in throws(f.get_out) {
            s = crate::tools::state::after_throw(s, t).unwrap();
        }
        assert_eq!(s, crate::tools::state::ground(4), "{text} get-out");
        n += 1;
        true
    });
    // Juggling Lab 1.6.6: gen 4 7 5 -f -no = 89 patterns.
    assert_eq!(n, 89);
}

#[test]
fn filters_exclude_include_lame() {
    // gen 3 5 3 -x 4: no pattern with a 4.
    let mut q = query(3, Some(5), 3);
    q.exclude = vec!["4".into()];
    assert_eq!(list(&q), vec!["522", "531"]);
    let mut q = query(3, Some(5), 3);
    q.include = vec!["^5".into()];
    assert_eq!(list(&q), vec!["522", "531"]);
    let mut q = query(3, Some(5), 4);
    q.lame = true;
    assert!(list(&q).iter().all(|p| !p.contains("11")));
    assert!(list(&query(3, Some(5), 4)).contains(&"5511".to_string()));
    let mut q = query(3, Some(5), 3);
    // Juggling Lab's spelling: a bracket stands for itself, `\\(` opens a group.
    q.exclude = vec!["(".into()];
    assert_eq!(list(&q).len(), 4);
    q.exclude = vec!["\\(".into()];
    assert!(matches!(plan(&q), Err(GenError::Regex(..))));
    q.exclude = vec!["\\(4\\|1\\)".into()];
    assert_eq!(list(&q), vec!["522"]);
}

#[test]
fn bad_queries_are_refused() {
    assert_eq!(plan(&query(0, Some(5), 3)).unwrap_err(), GenError::NoProps);
    let mut q = query(3, Some(5), 3);
    q.period_min = 4;
    assert_eq!(plan(&q).unwrap_err(), GenError::BadPeriod(4, 3));
    q.period_max = None;
    assert_eq!(plan(&q).unwrap_err(), GenError::UnboundedNeedsPrime);
    assert!(matches!(
        plan(&query(9, None, 20)),
        Err(GenError::TooHigh(180))
    ));
}

#[test]
fn unbounded_period_prime_search_ends() {
    // gen 3 5 - -prime: every prime pattern of 3 props up to 5 (Juggling Lab: 26).
    let mut q = query(3, Some(5), 1);
    q.period_max = None;
    q.listing = Listing::Prime;
    let p = plan(&q).unwrap();
    assert_eq!(p.count(), 26);
}
