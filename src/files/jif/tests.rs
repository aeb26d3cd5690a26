//! JIF reading: completion as passist completes, the schedule on fine beats, and every error
//! with its JSON path.

use super::*;
use crate::types::HandRef;

fn data(name: &str) -> String {
    let path = format!("{}/tests/data/jif/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn error(text: &str) -> JifError {
    match read_events(text) {
        Ok(_) => panic!("{text} read"),
        Err(e) => e,
    }
}

#[test]
fn partial_file_is_completed_as_passist_does() {
    let complete = parse(&data("seven_one_count.jif"))
        .unwrap()
        .complete()
        .unwrap();
    // Four limbs named by the throws: two jugglers, right hands first.
    assert_eq!(
        complete.limbs,
        vec![
            (0, Hand::Right),
            (1, Hand::Right),
            (0, Hand::Left),
            (1, Hand::Left)
        ]
    );
    assert_eq!(complete.jugglers[0].name, "A");
    assert_eq!(complete.jugglers[1].name, "B");
    // On a circle of radius 1.2 + 0.2 * 2 m, facing its centre.
    assert_eq!(complete.jugglers[0].position, [1.6, 0.0, 0.0]);
    assert_eq!(complete.jugglers[1].position, [-1.6, 0.0, 0.0]);
    let layout = complete.layout();
    assert!((layout.jugglers[0].facing + std::f32::consts::FRAC_PI_2).abs() < 1e-6);
    assert!((layout.jugglers[1].facing - std::f32::consts::FRAC_PI_2).abs() < 1e-6);
}

#[test]
fn seven_club_one_count_is_the_four_handed_seven() {
    let complete = parse(&data("seven_one_count.jif"))
        .unwrap()
        .complete()
        .unwrap();
    let jif = complete.schedule().unwrap();
    let khss = crate::schedule::build(&crate::notation::parse_k_handed("7", 2).unwrap()).unwrap();
    assert_eq!((jif.props, jif.jugglers, jif.subdivision), (7, 2, 2));
    assert_eq!(jif.period, khss.period);
    let throws = |s: &Schedule| -> Vec<(u32, HandRef, HandRef, u32)> {
        s.throws
            .iter()
            .map(|t| (t.beat, t.from, t.to, t.value))
            .collect()
    };
    assert_eq!(throws(&jif), throws(&khss));
}

#[test]
fn complete_file_keeps_names_places_props_and_spins() {
    let (events, complete) = read_events(&data("cascade_mixed.jif")).unwrap();
    assert_eq!(complete.jugglers[0].name, "Ann");
    assert_eq!(events.jugglers(), 1);
    assert_eq!(events.props(), 3);
    let kinds: Vec<PropKind> = events.path_props().iter().map(|p| p.kind).collect();
    assert_eq!(kinds, [PropKind::Club, PropKind::Club, PropKind::Ball]);
    assert_eq!(events.path_props()[2].color, Some(Rgba::rgb(0, 0, 255)));
    let schedule = complete.schedule().unwrap();
    assert_eq!(schedule.throws[0].spins, Some(1));
    // One juggler throws on every beat: 2.8 beats per second.
    assert!((events.bps() - BEATS_PER_SECOND).abs() < 1e-9);
}

#[test]
fn fractional_times_become_fine_beats() {
    // A 3-count with B half a beat behind: <3.5p 3 3|3 3 3.5px> style times.
    let text = r#"{
        "throws": [
            { "time": 0, "duration": 3.5, "from": 0, "to": 3 },
            { "time": 0.5, "duration": 3.5, "from": 1, "to": 0 }
        ],
        "repetition": { "period": 1, "limbPermutation": [2, 3, 0, 1] }
    }"#;
    let schedule = parse(text).unwrap().complete().unwrap().schedule().unwrap();
    assert_eq!(
        (schedule.subdivision, schedule.period, schedule.props),
        (2, 4, 7)
    );
}

#[test]
fn errors_name_the_json_path() {
    let cases: [(&str, &str); 14] = [
        ("[1, 2]", "a JIF document is a JSON object"),
        ("{\"throws\": 3}", "throws: must be an array"),
        (
            "{\"throws\": [{\"time\": 0, \"duration\": 3, \"from\": 0}]}",
            "throws[0].to: missing",
        ),
        (
            "{\"throws\": [{\"time\": 0, \"duration\": -3, \"from\": 0, \"to\": 1}]}",
            "throws[0].duration: must be a positive number up to 1000000, not -3",
        ),
        (
            "{\"throws\": [{\"time\": \"now\", \"duration\": 3, \"from\": 0, \"to\": 1}]}",
            "throws[0].time: must be a number",
        ),
        (
            "{\"throws\": [{\"time\": 0, \"duration\": 3, \"from\": 0.5, \"to\": 1}]}",
            "throws[0].from: must be a whole number from 0 to 100000",
        ),
        (
            "{\"jugglers\": [{\"position\": [1]}]}",
            "jugglers[0].position: must be an array of 2 or 3 numbers",
        ),
        (
            "{\"props\": [{\"type\": \"knife\"}]}",
            "props[0].type: prop type 'knife' not known (ball, club or ring)",
        ),
        (
            "{\"limbs\": [{\"type\": \"right foot\"}], \"throws\": []}",
            "limbs[0].type: 'right foot': only 'right hand' and 'left hand' can be animated",
        ),
        (
            "{\"throws\": [{\"time\": 0, \"duration\": 3, \"from\": 0, \"to\": 1}]}",
            "repetition: missing: a pattern must repeat (give its period)",
        ),
        (
            "{\"throws\": [{\"time\": 0, \"duration\": 3, \"from\": 0, \"to\": 1}], \"repetition\": {\"period\": 2, \"limbPermutation\": [0, 0]}}",
            "repetition.limbPermutation[1]: not a permutation of the limbs",
        ),
        (
            "{\"throws\": [{\"time\": 0, \"duration\": 4, \"from\": 0, \"to\": 1}, {\"time\": 1, \"duration\": 2, \"from\": 1, \"to\": 1}], \"repetition\": {\"period\": 2}}",
            "throws[0]: Pattern is not valid: too many objects landing at time 4 for juggler A, left hand",
        ),
        (
            "{\"throws\": [{\"time\": 0, \"duration\": 3, \"from\": 0, \"to\": 1}], \"repetition\": {\"period\": 1e9}}",
            "repetition.period: must be a positive number up to 1000000, not 1e9",
        ),
        (
            "{\"throws\": [{\"time\": 0, \"duration\": 3, \"from\": 0, \"to\": 1}], \"repetition\": {\"period\": 200000}}",
            "repetition: too large: 200000 beats in one period, more than the limit of 100000",
        ),
    ];
    for (text, message) in cases {
        assert_eq!(error(text).to_string(), message, "{text}");
    }
    assert_eq!(
        error("{\"meta\": {},}").to_string(),
        "not JSON: trailing comma (line 1, column 13)"
    );
}

#[test]
fn hostile_numbers_never_panic() {
    for text in [
        "{\"timeStretchFactor\": 0.000001, \"throws\": [{\"time\": 0, \"duration\": 3, \"from\": 0, \"to\": 1}], \"repetition\": {\"period\": 1}}",
        "{\"timeStretchFactor\": 0.3333333, \"throws\": [{\"time\": 0.1234567, \"duration\": 3, \"from\": 0, \"to\": 1}], \"repetition\": {\"period\": 1}}",
        "{\"throws\": [{\"time\": 0, \"duration\": 1000000, \"from\": 0, \"to\": 1}], \"repetition\": {\"period\": 1}}",
        "{\"throws\": [{\"time\": 0, \"duration\": 3, \"from\": 100000, \"to\": 1}], \"repetition\": {\"period\": 1}}",
        "{\"jugglers\": [{\"position\": [1e300, 0, 0]}]}",
    ] {
        assert!(read_events(text).is_err(), "{text}");
    }
}

mod props {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Any text: an error or a pattern, never a panic.
        #[test]
        fn any_text_never_panics(text in "\\PC{0,80}") {
            let _ = read_events(&text);
        }

        /// Random throws: an error naming a path, or events with a valid schedule.
        #[test]
        fn random_throws_never_panic(
            throws in proptest::collection::vec((0u32..8, 1u32..12, 0usize..5, 0usize..5), 1..6),
            period in 1u32..5,
            stretch in 1u32..3,
            rotate in any::<bool>(),
        ) {
            let list: Vec<String> = throws
                .iter()
                .map(|(time, duration, from, to)| {
                    format!(
                        "{{\"time\": {}, \"duration\": {}, \"from\": {from}, \"to\": {to}}}",
                        f64::from(*time) / 2.0,
                        f64::from(*duration) / 2.0
                    )
                })
                .collect();
            let limbs = throws.iter().map(|t| t.2.max(t.3) + 1).max().unwrap_or(1);
            let permutation = if rotate {
                let p: Vec<String> = (0..limbs).map(|i| ((i + 1) % limbs).to_string()).collect();
                format!(", \"limbPermutation\": [{}]", p.join(", "))
            } else {
                String::new()
            };
            let text = format!(
                "{{\"timeStretchFactor\": {stretch}, \"throws\": [{}], \"repetition\": {{\"period\": {period}{permutation}}}}}",
                list.join(", ")
            );
            match read_events(&text) {
                Ok((events, _)) => {
                    prop_assert!(events.loop_seconds().is_finite() && events.loop_seconds() > 0.0);
                }
                Err(e) => prop_assert!(!e.message.is_empty()),
            }
        }
    }
}
