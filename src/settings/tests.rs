use super::*;
use crate::types::{PropKind, Rgba};

fn settings_of(input: &str) -> Settings {
    read(input)
        .unwrap_or_else(|e| panic!("{input}: {e}"))
        .settings
}

fn error_of(input: &str) -> String {
    match read(input) {
        Ok(text) => panic!("{input}: expected an error, got {:?}", text.settings),
        Err(e) => e.to_string(),
    }
}

#[test]
fn bare_siteswap_is_a_pattern() {
    let text = read(" 531\r\n").unwrap();
    assert_eq!((text.pattern.as_str(), text.title.as_str()), ("531", "531"));
    assert_eq!(text.settings, Settings::default());
    assert_eq!(read("  \r\n"), Err(SettingsError::NoPattern));
}

#[test]
fn settings_map_with_units() {
    let text = read(
        "pattern=(4,2x)*;BPS=4.5; dwell = 1 ;gravity=490;prop=ring;colors={red}{0,128,255};title=Box",
    )
    .unwrap();
    assert_eq!(text.pattern, "(4,2x)*");
    assert_eq!(text.title, "Box");
    let s = &text.settings;
    assert_eq!(
        (s.bps, s.dwell.value(), s.gravity, s.prop),
        (Some(4.5), 1.0, 4.9, PropKind::Ring)
    );
    assert_eq!(s.colors, [Rgba::rgb(255, 0, 0), Rgba::rgb(0, 128, 255)]);
}

#[test]
fn last_value_wins_and_empty_entries_are_skipped() {
    let text = string::read_string(";pattern=3;;pattern=531;bps=0;").unwrap();
    assert_eq!(text.pattern, "531");
    assert_eq!(text.settings.bps, None, "bps <= 0 means computed");
}

#[test]
fn hands_become_dwell_points_in_metres() {
    let s = settings_of("pattern=3;hands=(10)(32.5).(32.5)(10).");
    assert_eq!(s.hands.len(), 1, "one juggler");
    let h = s.hands_of(0);
    // Each throw pairs with the catch its own hand made two entries earlier.
    assert_eq!(
        h,
        [
            DwellPoints {
                throw: [0.1, 0.0, 0.0],
                catch: [0.325, 0.0, 0.0]
            },
            DwellPoints {
                throw: [0.325, 0.0, 0.0],
                catch: [0.1, 0.0, 0.0]
            }
        ]
    );
    let s = settings_of("pattern=3;hands=(10)(30).(20)(40).(5)(50).");
    let catches: Vec<f32> = s.hands_of(0).iter().map(|p| p.catch[0]).collect();
    assert_eq!(catches, [0.4, 0.5, 0.3], "throw i takes entry i-2's catch");
    // T marks the first point, C a catch before the last; `-` is a placeholder point.
    let s = settings_of("pattern=3;hands=T(10,-5,0)(0,5,0)C(30,0,20)-(15).");
    assert_eq!(
        s.hands_of(0)[0],
        DwellPoints {
            throw: [0.1, -0.05, 0.0],
            catch: [0.3, 0.0, 0.2]
        }
    );
}

#[test]
fn hands_per_juggler_in_every_juggling_lab_form() {
    // `<...|...>`, `{...|...}` and `!` separate jugglers; repeats `(...)^N` expand.
    let forms = [
        "<(10)(32.5).|(32.5)(10).>",
        "{(10)(32.5).|(32.5)(10).}",
        "(10)(32.5).!(32.5)(10).",
        "<((10)(32.5).)^1|(32.5) (10) .>",
    ];
    for form in forms {
        let s = settings_of(&format!("pattern=<3p|3p>;hands={form}"));
        assert_eq!(s.hands.len(), 2, "{form}");
        assert_eq!(s.hands_of(0)[0].throw, [0.1, 0.0, 0.0]);
        assert_eq!(s.hands_of(0)[0].catch, [0.325, 0.0, 0.0]);
        assert_eq!(s.hands_of(1)[0].throw, [0.325, 0.0, 0.0]);
        assert_eq!(s.hands_of(1)[0].catch, [0.1, 0.0, 0.0]);
        // Cycled over jugglers, like Juggling Lab.
        assert_eq!(s.hands_of(2), s.hands_of(0));
    }
    // Repeats: four entries, each juggler's own catch rotation (entry i takes i-2's catch).
    let s = settings_of("pattern=3;hands=((10)(20).(30)(40).)^2");
    assert_eq!(s.hands.len(), 1);
    let catches: Vec<f32> = s.hands_of(0).iter().map(|p| p.catch[0]).collect();
    assert_eq!(catches, [0.2, 0.4, 0.2, 0.4]);
    assert!(Settings::default().hands_of(3).is_empty());
}

#[test]
fn hands_errors_follow_juggling_lab() {
    let cases = [
        ("(10)(32.5)", "hands specifier must end with '.'"),
        ("(10)T(32.5).", "'T' must be first coordinate"),
        ("TT(10)(32.5).", "can only specify one throw coordinate"),
        (
            "C(10)(32.5).",
            "first coordinate in 'hands' must be a throw",
        ),
        ("(10)C(20)C(32.5).", "can only specify one catch coordinate"),
        ("-(10).", "must specify throw coordinate"),
        ("(10)C-(5).", "must specify catch coordinate"),
        ("(10)x(20).", "unknown character 'x' in hands specifier"),
        ("(10)(20", "missing ')' in hands coordinate"),
        ("(10)(20).|", "juggler 2 has no hand positions"),
        ("(10)(20)|(1)(2).", "hands specifier must end with '.'"),
        ("(10).", "must have at least 2 coordinates per throw"),
        ("(1,2,3,4)(5).", "too many coordinates in '(1,2,3,4)'"),
    ];
    for (hands, message) in cases {
        assert_eq!(
            error_of(&format!("pattern=3;hands={hands}")),
            format!("Error in 'hands' setting: {message}"),
            "{hands}"
        );
    }
}

#[test]
fn body_forms_and_errors() {
    for form in [
        "<(0,-50,0).|(180,50,100).>",
        "{(0,-50).|(180,50,100,90).}",
        "(0,-50,0)(0,-50).-.!-.(180,50,100).",
    ] {
        let s = settings_of(&format!("pattern=<3p|3p>;body={form}"));
        let p = s.placements();
        assert_eq!(p.len(), 2, "{form}");
        assert_eq!((p[0].x, p[0].z, p[0].facing_deg), (0.5, 0.0, 0.0), "{form}");
        assert_eq!(
            (p[1].x, p[1].z, p[1].facing_deg),
            (-0.5, 1.0, 180.0),
            "{form}"
        );
        assert!(!s.moving(), "{form}");
    }
    for (body, message) in [
        ("(0,0,0)", "body specifier must end with '.'"),
        ("(0,0,0", "missing ')' in body coordinate"),
        ("(0,0).|-.", "juggler 2 has no position"),
        ("(0,0).*", "unknown character '*' in body specifier"),
        ("(0,1,2,3,4).", "too many numbers in '(0,1,2,3,4)'"),
        (
            "(0,0).((5,0).)^300",
            "too large: 301 beats in one juggler's `body` cycle, more than the limit of 256",
        ),
    ] {
        assert_eq!(
            error_of(&format!("pattern=3;body={body}")),
            format!("Error in 'body' setting: {message}"),
            "{body}"
        );
    }
    assert_eq!(
        error_of("pattern=3;body=(0,a)."),
        "body x must be between -100000 and 100000 cm, not a"
    );
}

#[test]
fn moving_bodies_keep_every_beat() {
    let at = |facing_deg, x, z| Some(PlacementSpec { x, z, facing_deg });
    // Juggler 1: two positions in beat 0, one left out in beat 1, an empty beat 2 (one
    // left-out position); juggler 2 stands still over two beats.
    let positions = parse_body("<(0,-50,0)(45,-50,20).-(90,0,50).-.|(180,50,0).-.>").unwrap();
    assert_eq!(
        positions,
        vec![
            vec![
                vec![at(0.0, 0.5, 0.0), at(45.0, 0.5, 0.2)],
                vec![None, at(90.0, 0.0, 0.5)],
                vec![None],
            ],
            vec![vec![at(180.0, -0.5, 0.0)], vec![None]],
        ]
    );
    let s = Settings {
        positions: positions.clone(),
        ..Settings::default()
    };
    assert!(s.moving());
    assert_eq!(s.placements()[1], at(180.0, -0.5, 0.0).unwrap());
    // Written back as the same body (an empty beat as one `-`).
    assert_eq!(
        format_body(&positions),
        "(0,-50,0)(45,-50,20).-(90,0,50).-.|(180,50,0).-."
    );
    // Nobody moves: one place each, standing still (repeats of one place, too).
    let still_ones = parse_body("(0,0).|(180,50).").unwrap();
    assert!(still_ones.iter().all(|b| b.len() == 1 && b[0].len() == 1));
    assert_eq!(
        parse_body("(10,5).-.(10,5).").unwrap(),
        vec![still(at(10.0, -0.05, 0.0).unwrap())]
    );
    assert_eq!(
        format_body(&parse_body("(10,5).|(0,-20,3).").unwrap()),
        "(10,5,0).|(0,-20,3)."
    );
}

#[test]
fn color_forms() {
    let colors = |v: &str| parse_colors(v).map_err(|e| e.to_string());
    let (list, by_orbit) = colors("({red})^2{0,0,255}{Blue}").unwrap();
    assert_eq!(
        list,
        [
            Rgba::rgb(255, 0, 0),
            Rgba::rgb(255, 0, 0),
            Rgba::rgb(0, 0, 255),
            Rgba::rgb(0, 0, 255)
        ]
    );
    assert!(!by_orbit);
    let (list, by_orbit) = colors(" orbits ").unwrap();
    assert_eq!(
        (list.len(), list[0], by_orbit),
        (10, Rgba::rgb(255, 0, 0), true)
    );
    assert_eq!(colors("mixed").unwrap().0[9], Rgba::rgb(0, 0, 0));
    assert_eq!(colors("{1,2,3,4}"), Err("Error in color format".into()));
    assert_eq!(colors("{256,0,0}"), Err("Error in color format".into()));
    assert_eq!(colors(""), Err("Error in color format".into()));
    assert_eq!(
        colors("{mauve}"),
        Err("Prop color 'mauve' not recognized".into())
    );
    assert!(settings_of("pattern=3;colors=orbits").color_by_orbit);
    assert_eq!(
        settings_of("pattern=3;colors=mixed").colors[1],
        Rgba::rgb(0, 255, 0)
    );
}

#[test]
fn hand_siteswaps_keep_each_beat_s_dwell() {
    // 5 with hand pattern 423: three hands free 4, 2 and 3 beats dwell 3.3, 1.3 and 2.3
    // beats before their throws (Juggling Lab's dwellmax): the prop thrown at beat b was
    // caught that long before.
    let spec = crate::spec::PatternSpec::parse("pattern=5;hss=423").unwrap();
    let dwell = &spec.settings.dwell;
    assert_eq!(dwell.value(), 1.3);
    let want = [1.3, 3.3, 2.3, 1.3, 3.3, 2.3];
    assert_eq!(dwell.per_beat().len(), 6);
    for (d, w) in dwell.per_beat().iter().zip(want) {
        assert!((d - w).abs() < 1e-9, "{dwell:?}");
    }
    let scene = crate::scene::Scene::new(&spec).unwrap();
    let m = scene.motion();
    let bps = m.bps();
    // Every flight of every prop over two loops: (release, catch) in seconds.
    let mut flights: Vec<Vec<(f64, f64)>> = vec![Vec::new(); m.prop_count()];
    let loop_s = scene.loop_duration();
    for k in 0..4000 {
        let state = m.state_at(2.0 * loop_s * k as f64 / 4000.0);
        for (p, prop) in state.props.iter().enumerate() {
            if let Some(f) = prop.flight {
                if flights[p]
                    .last()
                    .is_none_or(|l| (l.0 - f.release).abs() > 1e-6)
                {
                    flights[p].push((f.release, f.catch));
                }
            }
        }
    }
    let mut checked = 0;
    for f in &flights {
        for w in f.windows(2) {
            let beat = (w[1].0 * bps).round() as usize;
            let dwell = (w[1].0 - w[0].1) * bps;
            assert!(
                (dwell - want[beat % 6]).abs() < 1e-6,
                "beat {beat}: {dwell}"
            );
            checked += 1;
        }
    }
    assert!(checked > 30, "{checked}");
    // TOML keeps them.
    let toml = crate::convert::toml::to_toml(std::slice::from_ref(&spec)).unwrap();
    assert!(toml.contains("beat_dwells = [1.3, 3.3"), "{toml}");
    assert!(!toml.contains("\ndwell"), "{toml}");
    let back = crate::files::from_toml_str(&toml, "hss.toml").unwrap();
    assert_eq!(back[0].settings, spec.settings);
    // One dwell for every beat: no list.
    assert!(settings_of("pattern=3;hss=2").dwell.per_beat().is_empty());
}

#[test]
fn errors_with_juggling_lab_messages() {
    let cases = [
        ("pattern=3;bps", "Parameter 'bps' has no value"),
        ("pattern=3;foo=1", "Unused input parameter: \"foo\""),
        (
            "pattern=3;foo=1;bar=2",
            "Unused input parameters: \"foo\", \"bar\"",
        ),
        ("bps=3", "No pattern specified"),
        ("pattern=3;prop=cube", "Prop type 'cube' not recognized"),
        ("pattern=3;colors={1,2}", "Error in color format"),
        (
            "pattern=3;colors={mauve}",
            "Prop color 'mauve' not recognized",
        ),
    ];
    for (input, message) in cases {
        assert_eq!(error_of(input), message, "{input}");
    }
    assert_eq!(
        read("pattern=3;hold=true"),
        Err(SettingsError::Unused(vec!["hold".into()]))
    );
    assert_eq!(
        read("pattern=3;hss=3").unwrap().pattern,
        "<(0,3x)!|(0,0)!><(0,0)!|(0,3x)!><(3x,0)!|(0,0)!>"
    );
}

/// Issue 27: every number of every key is read strictly, in one message form (key, value,
/// range), where Juggling Lab ignored some.
#[test]
fn a_bad_number_is_an_error_in_every_key() {
    let cases = [
        (
            "bps=fast",
            "bps must be between 0.1 and 200 beats per second, not fast",
        ),
        (
            "bps=NaN",
            "bps must be between 0.1 and 200 beats per second, not NaN",
        ),
        (
            "bps=Infinity",
            "bps must be between 0.1 and 200 beats per second, not Infinity",
        ),
        (
            "bps=1e-308",
            "bps must be between 0.1 and 200 beats per second, not 1e-308",
        ),
        (
            "dwell=2",
            "dwell must be between 0 (excluded) and 2 (excluded) beats, not 2",
        ),
        (
            "dwell=x",
            "dwell must be between 0 (excluded) and 2 (excluded) beats, not x",
        ),
        (
            "gravity=abc",
            "gravity must be between 0.1 and 100000 cm/s², not abc",
        ),
        (
            "gravity=1e308",
            "gravity must be between 0.1 and 100000 cm/s², not 1e308",
        ),
        (
            "gravity=-980",
            "gravity must be between 0.1 and 100000 cm/s², not -980",
        ),
        (
            "propdiam=abc",
            "propdiam must be between 0 (excluded) and 1000 cm, not abc",
        ),
        (
            "propdiam=0",
            "propdiam must be between 0 (excluded) and 1000 cm, not 0",
        ),
        (
            "bouncefrac=-5",
            "bouncefrac must be between 0 (excluded) and 10, not -5",
        ),
        (
            "squeezebeats=lots",
            "squeezebeats must be between 0 and 2 beats, not lots",
        ),
        (
            "hands=(10)(1e9).",
            "hands coordinate must be between -1000 and 1000 cm, not 1e9",
        ),
        (
            "hands=(10(20).",
            "hands coordinate must be between -1000 and 1000 cm, not 10(20",
        ),
        (
            "body=(9999).",
            "body angle must be between -3600 and 3600 degrees, not 9999",
        ),
        (
            "body=(0,0,1e40).",
            "body y must be between -100000 and 100000 cm, not 1e40",
        ),
    ];
    for (setting, message) in cases {
        let input = format!("pattern=3;{setting}");
        assert_eq!(error_of(&input), message, "{input}");
        assert!(
            matches!(read(&input), Err(SettingsError::Value(_))),
            "{input}"
        );
    }
    // Control characters and long values are echoed escaped and cut.
    let long = format!("pattern=3;bps=\u{1b}[31m{}", "9".repeat(100));
    let message = error_of(&long);
    assert!(
        message.ends_with(&format!("not \\e[31m{}...", "9".repeat(34))),
        "{message}"
    );
}

/// Issue 27: inputs a fuzzer finds (marks without points, empty groups, `^0`, nested and
/// unclosed repeats) are refused with a message, never a panic, in every value parser.
#[test]
fn settings_never_panic_on_fuzz_like_values() {
    let values = [
        "(10)(20)C.",
        "C.",
        "T.",
        "TC.",
        "(10)C.",
        "(10)T.",
        ".",
        "..",
        "|",
        "!",
        "()",
        "().",
        "()^0",
        "(())^0.",
        "((10)(20).)^0",
        "((10)(20).)^0(5)(6).",
        "(((10)(20).)^2)^3",
        "((((((10)^1)^1)^1)^1)^1)^1",
        "(10)(20)^",
        "(10)^(20).",
        "^5",
        ")^5(",
        "(,)(,).",
        "(-)(-).",
        "(1e39)(1).",
        "(é)(ü).",
        "{}",
        "{",
        "}",
        "({)^2}",
        "({red}(A…)^0)^3",
        "<|>",
        "<(10)(20).|>",
        "-",
        "(0,0)-.",
        "\u{0}",
        "(\u{202e})",
    ];
    for key in ["hands", "body", "colors"] {
        for value in values {
            let input = format!("pattern=<3|3>;{key}={value}");
            let _ = read(&input);
            let _ = parse_hands(value);
            let _ = parse_body(value);
            let _ = parse_colors(value);
        }
    }
    // The panic, now a message.
    assert_eq!(
        error_of("pattern=3;hands=(10)(20)C."),
        "Error in 'hands' setting: 'C' must be followed by a coordinate"
    );
    // A repeat of nothing, however often, is nothing; a repeat of 0 leaves no beat.
    assert!(
        settings_of("pattern=3;hands=(10)(20).(()^99999999999)^99999999999").hands[0].len() == 1
    );
    assert_eq!(
        error_of("pattern=3;hands=((10)(20).)^0"),
        "Error in 'hands' setting: juggler 1 has no hand positions"
    );
}

/// Issue 27: 57 bytes asked for 41 GB, 33 bytes took 3.8 GB; sizes are now computed before
/// anything is expanded and refused with the limit named.
#[test]
fn settings_expansion_checked_before_allocating() {
    assert_eq!(
        error_of("pattern=<3|3>;hands=<((10)(20).)^9973|((10)(20).)^9967>"),
        "Error in 'hands' setting: too large: 19940 dwell paths in `hands`, more than the \
         limit of 10000"
    );
    assert_eq!(
        error_of("pattern=3;body=((0,1)(0,2))^5000."),
        "Error in 'body' setting: too large: 10000 positions in one juggler's `body` cycle, \
         more than the limit of 256"
    );
    assert!(error_of("pattern=3;hands=((10)(20).)^999999999")
        .contains("items in one settings value after expanding its repeats"));
    assert!(error_of("pattern=3;colors=({red})^99999").contains("colours in `colors`"));
    assert!(error_of("pattern=3;body=((0,0).|)^200000(0,0).").contains("positions, `-`"));
}

/// The animated cycle: the period repeated until hands and body cycles fit (Juggling Lab's
/// rule, `motion::from_schedule`), the same count the motion plans.
#[test]
fn the_checked_cycle_is_the_one_the_motion_plans() {
    for input in [
        "3",
        "pattern=3;hands=(10)(20).(30)(40).(5)(6).",
        "pattern=<3p|3p>;hands=<(10)(20).|(10)(20).(30)(40).(5)(6).>",
        "pattern=(4,4);hands=(10)(20).(30)(40).(5)(6).",
        "pattern=531;body=(0,0).(90,10).(0,20).",
        "pattern=<3|3>;body=<(0,0).(90,10).|(180,50).-.>;hands=(10)(20).(5)(6).(7)(8).",
        "pattern=5;hss=423",
        "pattern=35223;hands=(32.5,40)(7.5,30).(-25,-15)(-2.5).(-30,10)(-5,10).(30,10)(7.5,5).",
        "pattern=(4x,4x)(0,4x)(4x,4x)(4x,0);hands=((1)(2).(3)(4).(5)(6).)^3(7)(8).",
    ] {
        let spec = crate::spec::PatternSpec::parse(input).unwrap();
        let schedule = crate::schedule::from_notation(spec.source.text()).unwrap();
        let scene = crate::scene::Scene::new(&spec).unwrap();
        let planned = scene.motion().hand_period() * scene.motion().bps();
        let copies = spec.settings.cycle_copies(&schedule);
        assert_eq!(
            (copies * u128::from(schedule.period)) as f64,
            planned.round(),
            "{input}"
        );
        assert_eq!(spec.settings.check_cycle(&schedule), Ok(()));
    }
    // Primes over jugglers: the cycle is refused with its count, before any is planned.
    let spec = crate::spec::PatternSpec::parse(
        "pattern=<3|3|3>;hands=<((10)(20).)^97|((10)(20).)^89|((10)(20).)^83>",
    )
    .unwrap();
    let schedule = crate::schedule::from_notation(spec.source.text()).unwrap();
    let err = spec.settings.check_cycle(&schedule).unwrap_err();
    assert_eq!(err.limit, crate::budget::CYCLE_BEATS);
    assert!(crate::scene::Scene::new(&spec).is_err());
    // With `hands` every juggler's hands go to their points on every beat, 0s included: 26
    // jugglers, 25 of them idle, over 7 694 beats are 200 044 hand beats, refused.
    let idle = "|0".repeat(25);
    let spec =
        crate::spec::PatternSpec::parse(&format!("pattern=<3{idle}>;hands=((10)(20).)^3847"))
            .unwrap();
    let schedule = crate::schedule::from_notation(spec.source.text()).unwrap();
    let err = spec.settings.check_cycle(&schedule).unwrap_err();
    assert_eq!(err.limit, crate::budget::CYCLE_THROWS);
    assert!(crate::scene::Scene::new(&spec).is_err());
}

#[test]
fn every_setting_is_checked() {
    assert_eq!(Settings::default().check(), Ok(()));
    let ok = Settings::default;
    let at = |x, z, facing_deg| PlacementSpec { x, z, facing_deg };
    let bad: Vec<(Settings, &str)> = vec![
        (
            Settings {
                bps: Some(1e-308),
                ..ok()
            },
            "bps must be",
        ),
        (
            Settings {
                gravity: 1e308,
                ..ok()
            },
            "gravity must be",
        ),
        (
            Settings {
                dwell: Dwell::Uniform(0.0),
                ..ok()
            },
            "dwell must be",
        ),
        (
            Settings {
                dwell: Dwell::PerBeat(vec![1.0, -1.0]),
                ..ok()
            },
            "beat_dwells must be",
        ),
        (
            Settings {
                positions: vec![still(at(0.0, 1e9, 0.0))],
                ..ok()
            },
            "z must be between -1000 and 1000 metres, not 1e9",
        ),
        (
            Settings {
                positions: vec![still(at(0.0, 0.0, f32::NAN))],
                ..ok()
            },
            "facing must be",
        ),
        (
            Settings {
                positions: vec![vec![vec![None]]],
                ..ok()
            },
            "juggler 1 has no position",
        ),
        (
            Settings {
                hands: vec![vec![DwellPoints {
                    catch: [0.0; 3],
                    throw: [0.0, 1e30, 0.0],
                }]],
                ..ok()
            },
            "hands coordinate must be between -10 and 10 metres, not 1e30",
        ),
        (
            Settings {
                bodies: Bodies {
                    shared: BodySpec {
                        forearm: Some(1e6),
                        ..BodySpec::default()
                    },
                    jugglers: Vec::new(),
                },
                ..ok()
            },
            "forearm must be between 0.01 and 5 metres",
        ),
        (
            Settings {
                bodies: Bodies {
                    shared: BodySpec::default(),
                    jugglers: vec![BodySpec {
                        shoulder_height: Some(0.0),
                        ..BodySpec::default()
                    }],
                },
                ..ok()
            },
            "shoulder_height must be between 0.1 and 5 metres",
        ),
        (
            Settings {
                camera: Some(CameraSpec {
                    azimuth_deg: 0.0,
                    elevation_deg: 0.0,
                    distance: Some(0.0),
                }),
                ..ok()
            },
            "distance must be between 0.1 and 10000 metres, not 0",
        ),
        (
            Settings {
                spins: vec![(3, 10)],
                ..ok()
            },
            "spins must be between 0 and 9 turns",
        ),
        (
            Settings {
                colors: vec![Rgba::rgb(0, 0, 0); 10_001],
                ..ok()
            },
            "colours in `colors`",
        ),
    ];
    for (settings, message) in bad {
        let err = settings.check().unwrap_err().to_string();
        assert!(err.contains(message), "{err}");
    }
}

#[test]
fn bodies_are_a_shared_spec_with_overrides() {
    let bodies = Bodies {
        shared: BodySpec {
            forearm: Some(0.3),
            upper_arm: Some(0.28),
            ..BodySpec::default()
        },
        jugglers: vec![
            BodySpec::default(),
            BodySpec {
                forearm: Some(0.25),
                ..BodySpec::default()
            },
        ],
    };
    assert_eq!(bodies.of(0), bodies.shared);
    assert_eq!(
        (bodies.of(1).forearm, bodies.of(1).upper_arm),
        (Some(0.25), Some(0.28))
    );
    assert_eq!(bodies.of(7), bodies.shared);
}

#[test]
fn dwell_per_beat_derives_the_pattern_s_dwell() {
    assert_eq!(Dwell::default().value(), DEFAULT_DWELL);
    assert_eq!(Dwell::of_beats(vec![1.3, 0.0, 1.3]), Dwell::Uniform(1.3));
    let per_beat = Dwell::of_beats(vec![3.3, 0.0, 2.3]);
    assert_eq!(per_beat.per_beat(), [3.3, 0.0, 2.3]);
    assert_eq!(
        per_beat.value(),
        1.95,
        "the shortest, within the dwell's range"
    );
    assert_eq!(Dwell::PerBeat(vec![0.5, 0.7]).value(), 0.5);
}

/// docs/notation.md's settings table is the table of keys (regenerate it from
/// `keys::markdown()` when a key changes).
#[test]
fn the_docs_settings_table_is_the_table_of_keys() {
    let docs = include_str!("../../docs/notation.md");
    let table = keys::markdown();
    assert!(
        docs.contains(&table),
        "docs/notation.md's settings table differs from settings::keys; it should read:\n{table}"
    );
    // Every settings-string key reads, every number's range is stated in its unit.
    for key in keys::KEYS {
        if let Some(name) = key.string {
            assert!(is_settings_key(name) && is_settings_key(&name.to_uppercase()));
        }
        for n in key.numbers {
            assert!(n.min < n.max, "{}", n.what);
        }
    }
    assert!(!is_settings_key("siteswap"));
}

mod props {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Fuzz-like values of every value parser: an error or a value, never a panic, and
        /// what reads is within the budget and the ranges.
        #[test]
        fn settings_never_panic_on_any_value(
            value in "[()^0-9.,|!<>{}TCtc \\-a-z]{0,40}",
            key in prop_oneof![Just("hands"), Just("body"), Just("colors")],
        ) {
            if let Ok(text) = read(&format!("pattern=3;{key}={value}")) {
                prop_assert_eq!(text.settings.check(), Ok(()));
            }
        }

        #[test]
        fn settings_never_panic_on_any_string(input in "\\PC{0,60}") {
            let _ = read(&input);
        }
    }
}

/// Issue 27, panic class (found by the `settings_keys` fuzz target): a colour starting with a
/// character of more than one byte (`colors=Ǎ`) sliced inside it and panicked (exit 101 in
/// every command); now it is an unknown colour.
#[test]
fn fuzz_panic_multibyte_colour_names_are_errors() {
    for text in [
        "pattern=3;colors=\u{1cd}\0",
        "pattern=3;colors=é{red}",
        "pattern=3;colors=(ß)^2",
    ] {
        let err = crate::settings::read(text).expect_err(text).to_string();
        assert!(err.contains("not recognized"), "{text}: {err}");
    }
}
