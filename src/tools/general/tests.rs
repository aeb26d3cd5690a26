use super::*;
use crate::tools::query::{standard_regex, GenError, GroundFilter, Listing, Query};

/// The plans, shared as the generator shares them.
fn plan(q: &Query) -> Result<Arc<Plan>, GenError> {
    super::plan(q).map(Arc::new)
}

fn solo_plan(q: &Query) -> Result<Arc<crate::tools::solo::Plan>, GenError> {
    crate::tools::solo::plan(q).map(Arc::new)
}

/// One listed pattern, owned.
#[derive(Clone, Debug, PartialEq, Eq)]
struct FoundText {
    pattern: String,
    ground_state: bool,
    get_in: String,
    get_out: String,
}

fn query(props: u32, max: Option<u32>, period: u32) -> Query {
    Query::new(props, max, period)
}

fn list(q: &Query) -> Vec<FoundText> {
    let mut out = Vec::new();
    plan(q).unwrap().generate(&mut |f| {
        out.push(FoundText {
            pattern: f.pattern.to_string(),
            ground_state: f.ground_state,
            get_in: f.get_in.to_string(),
            get_out: f.get_out.to_string(),
        });
        true
    });
    out
}

#[test]
fn general_search_lists_solo_async_patterns_as_the_fast_search_does() {
    // The bit-set search and J2's general search must agree pattern for pattern, in order,
    // with the same get-in and get-out throws.
    let mut cases = Vec::new();
    for (b, h, l) in [(3, 5, 3), (3, 5, 5), (4, 7, 5), (5, 7, 4), (2, 6, 4)] {
        for opts in ["", "f", "prime", "rot", "g", "ng", "f rot", "lame"] {
            let mut q = query(b, Some(h), l);
            for o in opts.split_whitespace() {
                match o {
                    "f" => q.listing = Listing::Full,
                    "prime" => q.listing = Listing::Prime,
                    "rot" => q.rotations = true,
                    "g" => q.ground = GroundFilter::GroundOnly,
                    "ng" => q.ground = GroundFilter::ExcitedOnly,
                    "lame" => q.lame = true,
                    _ => unreachable!(),
                }
            }
            cases.push(q);
        }
    }
    let mut total = 0;
    for q in cases {
        let mut fast = Vec::new();
        solo_plan(&q).unwrap().generate(&mut |f| {
            fast.push((
                f.pattern.to_string(),
                f.ground_state,
                f.get_in.to_string(),
                f.get_out.to_string(),
            ));
            true
        });
        let mut general: Vec<_> = list(&q)
            .into_iter()
            .map(|f| (f.pattern, f.ground_state, f.get_in, f.get_out))
            .collect();
        if q.listing == Listing::Full && !q.rotations {
            // Under -f the fast search may list another rotation of a composite pattern
            // (45051 is listed as 51450); compare each as its greatest rotation.
            let canon = |v: &mut Vec<(String, bool, String, String)>| {
                for x in v.iter_mut() {
                    let p = x.0.clone();
                    x.0 = (0..p.len())
                        .map(|i| format!("{}{}", &p[i..], &p[..i]))
                        .max()
                        .unwrap_or_default();
                }
                v.sort();
            };
            canon(&mut general);
            canon(&mut fast);
        }
        assert_eq!(general, fast, "{q:?}");
        assert_eq!(plan(&q).unwrap().count(), fast.len() as u64);
        total += fast.len();
    }
    assert!(total > 300, "{total}");
}

#[test]
fn every_generated_pattern_is_a_valid_schedule_with_the_props_asked_for() {
    let mut total = 0;
    for (b, h, l, opts) in [
        (4, 6, 4, "s"),
        (5, 7, 4, "s"),
        (3, 5, 6, "s"),
        (3, 4, 3, "m2"),
        (4, 5, 3, "m2 f"),
        (3, 4, 3, "m2 mf"),
        (4, 4, 4, "s m2"),
        (6, 4, 3, "j2"),
        (4, 4, 2, "j2 s"),
        (3, 3, 2, "j3"),
        (3, 4, 2, "j2 m2 jp"),
    ] {
        let mut q = query(b, Some(h), l);
        for o in opts.split_whitespace() {
            match o {
                "s" => q.sync = true,
                "m2" => q.multiplex = 2,
                "f" => q.listing = Listing::Full,
                "mf" => q.squeeze = true,
                "j2" => q.jugglers = 2,
                "j3" => q.jugglers = 3,
                "jp" => q.permutations = true,
                _ => unreachable!(),
            }
        }
        let found = list(&q);
        assert!(!found.is_empty(), "{b} {h} {l} {opts}");
        for f in &found {
            let sch = crate::schedule::from_notation(&f.pattern)
                .unwrap_or_else(|e| panic!("{b} {h} {l} {opts}: {}: {e}", f.pattern));
            assert_eq!(sch.props as u32, b, "{}", f.pattern);
            assert_eq!(sch.jugglers as u32, q.jugglers, "{}", f.pattern);
            assert!(sch.max_throw <= h, "{}", f.pattern);
            // Ground state patterns need no get-in; excited ones do.
            assert_eq!(f.ground_state, f.get_in.is_empty(), "{}", f.pattern);
            // Juggling Lab's ground state puts an odd prop in the left hand; juggler's check
            // also calls the mirror image ((6,6)(2,6) with 5 props) ground. (For multiplex
            // patterns juggler's check judges ground state differently: 1[42]2 passes through
            // 3 props' ground state but check calls it excited.)
            if q.multiplex == 1 {
                assert!(!f.ground_state || sch.ground_state, "{}", f.pattern);
            }
        }
        assert_eq!(plan(&q).unwrap().count(), found.len() as u64);
        total += found.len();
    }
    assert!(total > 500, "{total}");
}

#[test]
fn worked_examples_in_juggling_labs_notation() {
    // Juggling Lab 1.6.6 `gen 3 4 2 -m 2`: five patterns, these get-ins and get-outs.
    let mut q = query(3, Some(4), 2);
    q.multiplex = 2;
    let got: Vec<_> = list(&q)
        .into_iter()
        .map(|f| format!("{} {} {}", f.get_in, f.pattern, f.get_out))
        .collect();
    assert_eq!(
        got,
        vec![
            "1 [22]2 [23]",
            "23 [42]0 [13]",
            "2 3[21] 2[23]",
            " 1[32] ",
            " 42 "
        ]
    );
    // Synchronous, 4 props, throws up to 4, period 2: (4,4) and its crossed form.
    let mut q = query(4, Some(4), 2);
    q.sync = true;
    let got: Vec<_> = list(&q).into_iter().map(|f| f.pattern).collect();
    assert_eq!(got, vec!["(4,4)", "(4x,4x)"]);
    // Passing, 6 props, throws up to 3, period 1: two jugglers' cascades, and passing every
    // throw.
    let mut q = query(6, Some(3), 1);
    q.jugglers = 2;
    let got: Vec<_> = list(&q).into_iter().map(|f| f.pattern).collect();
    assert_eq!(got, vec!["<3|3>", "<3p|3p>"]);
}

#[test]
fn bad_general_queries_are_refused_with_reasons() {
    let mut q = query(4, Some(6), 3);
    q.sync = true;
    assert_eq!(plan(&q).unwrap_err(), GenError::PeriodMultiple(2));
    let mut q = query(6, Some(4), 2);
    q.jugglers = 2;
    q.ground = GroundFilter::GroundOnly;
    assert_eq!(plan(&q).unwrap_err(), GenError::NeedsPermutations);
    q.permutations = true;
    assert!(plan(&q).is_ok());
    let mut q = query(3, Some(4), 2);
    q.jugglers = 10;
    assert_eq!(plan(&q).unwrap_err(), GenError::Jugglers(10));
    let mut q = query(3, Some(4), 2);
    q.multiplex = 0;
    assert_eq!(plan(&q).unwrap_err(), GenError::Multiplex(0));
    let mut q = query(3, Some(4), 2);
    q.multiplex = 2;
    q.exclude.push("\\(".to_string());
    assert!(matches!(plan(&q).unwrap_err(), GenError::Regex(..)));
}

#[test]
fn juggling_labs_regex_brackets_are_literal() {
    assert_eq!(standard_regex("[33]"), "\\[33\\]");
    assert_eq!(standard_regex("\\[34\\]"), "[34]");
    assert_eq!(standard_regex("(4,4)|<"), "\\(4,4\\)\\|<");
    assert_eq!(standard_regex("\\(4\\|5\\)"), "(4|5)");
}

/// Every pattern of a query found by the search on counts and by the one on bit sets.
fn both_searches(q: &Query) -> (Vec<String>, Vec<String>) {
    let plan = plan(q).unwrap();
    assert!(bits::applies(&plan), "{q:?}");
    let (mut counts, mut bit_sets) = (Vec::new(), Vec::new());
    for (period, start) in plan.tasks() {
        if let Some(mut s) = search::Search::new(&plan, period, &start) {
            while s.step(1000, &mut |t| {
                counts.push(t.to_string());
                true
            }) == search::Progress::Paused
            {}
        }
        if let Some(mut s) = bits::BitSearch::new(&plan, period, &start) {
            while s.step(1000, &mut |t| {
                bit_sets.push(t.to_string());
                true
            }) == search::Progress::Paused
            {}
        }
    }
    (counts, bit_sets)
}

#[test]
fn the_bit_set_search_lists_what_the_search_on_counts_lists_in_the_same_order() {
    let mut total = 0;
    for (b, h, l, opts) in [
        (4, 6, 4, "s"),
        (5, 7, 4, "s f"),
        (4, 6, 6, "s prime"),
        (4, 6, 4, "s rot"),
        (6, 8, 2, "s ng jp"),
        (6, 4, 3, "j2"),
        (6, 4, 3, "j2 f rot"),
        (8, 5, 4, "j2"),
        (6, 5, 4, "j2 jp g"),
        (4, 4, 3, "j2 cp prime"),
        (6, 4, 3, "j2 sym cp"),
        (3, 3, 2, "j3"),
        (6, 4, 3, "j3 jp"),
        (4, 4, 2, "j2 s"),
        (2, 3, 4, "j2 lame"),
        (6, 5, 3, "j2 x"),
    ] {
        let mut q = query(b, Some(h), l);
        for o in opts.split_whitespace() {
            match o {
                "s" => q.sync = true,
                "f" => q.listing = Listing::Full,
                "prime" => q.listing = Listing::Prime,
                "rot" => q.rotations = true,
                "g" => q.ground = GroundFilter::GroundOnly,
                "ng" => q.ground = GroundFilter::ExcitedOnly,
                "j2" => q.jugglers = 2,
                "j3" => q.jugglers = 3,
                "jp" => q.permutations = true,
                "cp" => q.connected = true,
                "sym" => q.symmetric = true,
                "lame" => q.lame = true,
                "x" => q.exclude = vec!["4p".to_string()],
                _ => unreachable!(),
            }
        }
        let (counts, bit_sets) = both_searches(&q);
        assert!(!counts.is_empty(), "{b} {h} {l} {opts}");
        assert_eq!(counts, bit_sets, "{b} {h} {l} {opts}");
        total += counts.len();
    }
    assert!(total > 5000, "{total}");
}
