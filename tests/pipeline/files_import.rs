//! Loading pattern files from disk: JML samples, TOML and text lists, malformed files.

use std::path::{Path, PathBuf};

use juggler::files::{self, jml, FileError};
use juggler::settings::{Dwell, DwellPoints};
use juggler::types::{PropKind, Rgba};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn load_err(name: &str) -> String {
    match files::load_path(&data(name)) {
        Ok(specs) => panic!("{name}: expected an error, got {specs:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn jml_pattern_list_with_settings() {
    let specs = files::load_path(&data("list.jml")).unwrap();
    let names: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "3 (cascade)",
            "Slow 531",
            "Reverse Cascade",
            "2-count rings",
            "Eating an apple"
        ]
    );

    assert_eq!(specs[1].source.text(), "531");
    assert_eq!(specs[1].settings.bps, Some(2.5));
    assert_eq!(specs[1].settings.dwell, Dwell::Uniform(0.8));

    assert_eq!(
        specs[2].settings.hands,
        vec![vec![DwellPoints {
            throw: [0.325, 0.0, 0.0],
            catch: [0.1, 0.0, 0.0]
        }]]
    );

    let rings = &specs[3];
    assert_eq!(rings.source.text(), "<3p 3|3p 3>");
    assert_eq!(rings.settings.prop, PropKind::Ring);
    assert_eq!(
        rings.settings.colors,
        vec![Rgba::rgb(255, 0, 0), Rgba::rgb(0, 128, 255)]
    );
    assert!(
        (rings.settings.gravity - 4.9).abs() < 1e-12,
        "490 cm/s² = 4.9 m/s²"
    );

    let apple = &specs[4];
    assert_eq!(apple.source.text(), "33333423");
    assert_eq!(apple.settings.bps, Some(3.572));
    assert_eq!(apple.settings.colors, vec![Rgba::rgb(0, 255, 0)]);
}

#[test]
fn jml_lines_are_located() {
    let loaded = files::read_path(&data("list.jml")).unwrap();
    let lines: Vec<usize> = loaded.iter().map(|p| p.at.line).collect();
    assert_eq!(lines, [9, 12, 15, 22, 27]);
    assert!(loaded[0].at.origin.ends_with("tests/data/list.jml"));
}

#[test]
fn single_jml_pattern() {
    let specs = files::load_path(&data("single.jml")).unwrap();
    assert_eq!(specs.len(), 1);
    assert_eq!(specs[0].name, "Seven rings");
    assert_eq!(specs[0].source.text(), "7");
    assert_eq!(specs[0].settings.bps, Some(5.0));
    assert_eq!(specs[0].settings.prop, PropKind::Ring);
    assert_eq!(
        specs[0].settings.colors,
        vec![Rgba::rgb(255, 0, 0), Rgba::rgb(0, 0, 255)]
    );
}

#[test]
fn inconsistent_event_pattern_is_a_clear_error() {
    let msg = load_err("events.jml");
    assert!(
        msg.contains(
            "tests/data/events.jml:15:1: pattern 'Tornado': path 2 is thrown by juggler 1's right hand at t=0.2058 s but never caught"
        ),
        "{msg}"
    );

    // The lenient import keeps what it can and reports the rest.
    let text = std::fs::read_to_string(data("events.jml")).unwrap();
    let import = jml::import_lenient(&text, "events.jml").unwrap();
    assert_eq!(import.patterns.len(), 1);
    assert_eq!(import.patterns[0].spec.source.text(), "4");
    assert!(matches!(
        import.problems.as_slice(),
        [FileError::Events { .. }]
    ));
}

#[test]
fn malformed_xml_names_file_and_line() {
    let msg = load_err("malformed.jml");
    assert!(msg.contains("tests/data/malformed.jml:6:"), "{msg}");
    assert!(msg.contains("malformed XML"), "{msg}");
}

#[test]
fn malformed_toml_files_name_file_line_and_problem() {
    let msg = load_err("bad_syntax.toml");
    assert!(msg.contains("tests/data/bad_syntax.toml:6:"), "{msg}");

    let msg = load_err("unknown_key.toml");
    assert!(msg.contains("tests/data/unknown_key.toml:3:1: "), "{msg}");
    assert!(msg.contains("unknown field `dwel`"), "{msg}");

    let msg = load_err("wrong_type.toml");
    assert!(msg.contains("tests/data/wrong_type.toml:3:7: "), "{msg}");
    assert!(
        msg.contains("bps must be between 0.1 and 200 beats per second, not \"fast\""),
        "{msg}"
    );
}

#[test]
fn text_list() {
    let specs = files::load_path(&data("list.txt")).unwrap();
    let notations: Vec<&str> = specs.iter().map(|s| s.source.text()).collect();
    assert_eq!(notations, ["3", "531", "(4,4)"]);
    assert_eq!(specs[2].name, "Sync fountain");
    assert_eq!(specs[2].settings.bps, Some(3.5));
}

#[test]
fn unreadable_and_unknown_files() {
    let msg = files::load_path(&data("missing.toml"))
        .unwrap_err()
        .to_string();
    assert!(msg.contains("missing.toml: cannot read"), "{msg}");
    let msg = files::load_path(&data("notes.md")).unwrap_err().to_string();
    assert!(msg.contains("notes.md: unknown pattern file type"), "{msg}");

    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.txt");
    std::fs::write(&empty, "# nothing here\n\n").unwrap();
    let msg = files::load_path(&empty).unwrap_err().to_string();
    assert!(
        msg.ends_with("empty.txt: no patterns in this file"),
        "{msg}"
    );

    let binary = dir.path().join("binary.toml");
    std::fs::write(&binary, [0xff, 0xfe, 0x00, 0x41]).unwrap();
    let msg = files::load_path(&binary).unwrap_err().to_string();
    assert!(msg.contains("binary.toml: cannot read"), "{msg}");
}

#[test]
fn written_file_loads_back() {
    let dir = tempfile::tempdir().unwrap();
    let specs = files::load_path(&data("list.jml")).unwrap();
    let out = dir.path().join("converted.toml");
    std::fs::write(&out, juggler::convert::toml::to_toml(&specs).unwrap()).unwrap();
    assert_eq!(files::load_path(&out).unwrap(), specs);
}

/// Juggling Lab's settings forms of `hands`, `body` and `colors`, in a settings string, a JML
/// list line and a TOML file, all animate the same: each juggler's own hands, at its place.
#[test]
fn juggling_lab_hands_body_and_colors_forms_animate_per_juggler() {
    use juggler::scene::Scene;
    use juggler::types::{Hand, HandRef};
    let settings = "pattern=<3p|3p>;hands=<(10)(32.5).|(32.5)(10).>;\
                    body=<(0,-100,0).|(180,100,0).>;colors=({red})^2{0,0,255}";
    let jml = format!(
        "<jml version=\"3\"><patternlist><line display=\"Two\" notation=\"siteswap\">{}\
         </line></patternlist></jml>",
        settings.replace('<', "&lt;").replace('>', "&gt;")
    );
    let toml = "siteswap = \"<3p|3p>\"\nhands = \"<(10)(32.5).|(32.5)(10).>\"\n\
                jugglers = \"<(0,-100,0).|(180,100,0).>\"\ncolors = \"({red})^2{0,0,255}\"\n";
    let specs = [
        juggler::spec::PatternSpec::parse(settings).unwrap(),
        jml::import_str(&jml, "two.jml").unwrap().remove(0),
        files::from_toml_str(toml, "two.toml").unwrap().remove(0),
    ];
    for spec in &specs {
        let s = &spec.settings;
        assert_eq!(
            s.colors[..3],
            [
                Rgba::rgb(255, 0, 0),
                Rgba::rgb(255, 0, 0),
                Rgba::rgb(0, 0, 255)
            ]
        );
        assert_eq!(s.hands.len(), 2);
        let scene = Scene::new(spec).unwrap();
        let placements = &scene.layout().jugglers;
        assert!(
            (placements[0].position.x - 1.0).abs() < 1e-6,
            "JL x -100 cm -> juggler x +1 m"
        );
        assert!((placements[1].position.x + 1.0).abs() < 1e-6);
        // At t = 0 both right hands throw: juggler 1 at 10 cm from its centre line, juggler 2
        // at 32.5 cm (right hands are at negative own x).
        for (juggler, x) in [(0, -0.10f32), (1, -0.325)] {
            let world = scene
                .motion()
                .hand_at(
                    HandRef {
                        juggler,
                        hand: Hand::Right,
                    },
                    0.0,
                )
                .position;
            let local = placements[juggler].to_local(world);
            assert!((local.x - x).abs() < 1e-4, "juggler {juggler}: {local}");
        }
    }
    assert_eq!(specs[0].settings, specs[1].settings);
    assert_eq!(specs[0].settings, specs[2].settings);
    // Written as TOML lists (`juggler_hands`, `jugglers`, `colors`), read back the same.
    let written = juggler::convert::toml::to_toml(&specs[2..]).unwrap();
    assert!(written.contains("juggler_hands = [["), "{written}");
    let back = files::from_toml_str(&written, "back.toml").unwrap();
    assert_eq!(back[0].settings, specs[2].settings);
}

/// `tojml` round trips: the JML juggler writes, read back by juggler's JML event reader,
/// animates the same (every prop, known by its colour, and every hand within 5 mm at 200
/// times over two loops), multiplexes whose hands gather props from different catches too.
#[test]
fn written_jml_reads_back_to_the_same_animation() {
    use juggler::scene::Scene;
    use juggler::spec::PatternSpec;
    for pattern in [
        "3",
        "531",
        "(4,2x)*",
        "[43]23",
        "24[54]",
        "[33]",
        "[54][22]2",
        // The held 2 stays in the hand longer than a hand period: its lane must not depend
        // on the loop's end falling a rounding error short of a whole number of periods.
        "[32]1",
        "[32]3",
        "pattern=[43]23;prop=ring",
        // Clubs (read back with the pattern's prop kind); synchronous crossing clubs, one
        // hand's flights higher and in front of the other's.
        "pattern=3;prop=club",
        "pattern=(6x,6x)(2x,2x);prop=club",
        "([4x4],2)*",
        "(2,[42])([42],2)",
        "<[3p3]|[3p3]>",
        "<3p|3p>",
        "<4p 3|3 4p>",
        "3B",
        "5BBF",
        "pattern=531;gravity=490",
        "pattern=5B;gravity=1500",
        "pattern=534;hss=3",
        "pattern=6;hss=4;handspec=(3,1)(4,2)",
        "pattern=5;hss=423",
        "pattern=<3p|3p>;hands=<(10)(32.5).|(32.5)(10).>;body=<(0,-100,0).|(180,100,0).>",
        "pattern=<3p|3p>;body=<(0,-100,0).(90,-100,50).-.|(180,100,0).>",
        "pattern=[43]23;body=(0,0,0).(0,40,0)(30,40,20).",
    ] {
        let spec = PatternSpec::parse(pattern).unwrap();
        let original = Scene::new(&spec).unwrap();
        let text = juggler::convert::jml::write(&original);
        let mut back = jml::import_str(&text, "rt.jml")
            .unwrap_or_else(|e| panic!("{pattern}: {e}\n{text}"))
            .remove(0);
        back.settings.prop = spec.settings.prop;
        let read = Scene::new(&back).unwrap_or_else(|e| panic!("{pattern}: {e}"));
        let loop_s = original.loop_duration();
        assert!(
            (read.loop_duration() - loop_s).abs() < 1e-4,
            "{pattern}: loop {} vs {loop_s}",
            read.loop_duration()
        );
        let (mut worst, mut by_colour) = (0.0f32, 0.0f32);
        for k in 0..200 {
            let t = 2.0 * loop_s * k as f64 / 200.0;
            let (a, b) = (original.pose_at(t), read.pose_at(t));
            assert_eq!(a.props.len(), b.props.len(), "{pattern}");
            // The reader numbers props its own way; a prop is known by its colour (the
            // writer gives every path its colour).
            for p in &a.props {
                let nearest = |same_colour: bool| {
                    b.props
                        .iter()
                        .filter(|q| !same_colour || q.color == p.color)
                        .map(|q| p.position.distance(q.position))
                        .fold(f32::INFINITY, f32::min)
                };
                worst = worst.max(nearest(false));
                by_colour = by_colour.max(nearest(true));
            }
            for (j, (x, y)) in a.jugglers.iter().zip(&b.jugglers).enumerate() {
                for h in 0..2 {
                    let d = x.arms[h].hand.distance(y.arms[h].hand);
                    assert!(
                        d < 0.005,
                        "{pattern}: juggler {j} hand {h} off by {d} m at {t}"
                    );
                }
            }
        }
        // Props held together in one hand keep the same lanes (the JML holds one hand period
        // with its prop permutation; the reader lanes held props as juggler's motion does):
        // multiplexes read back within the same 5 mm as everything else.
        let tolerance = 0.005;
        assert!(
            worst < tolerance,
            "{pattern}: props differ by up to {worst} m"
        );
        assert!(
            by_colour < tolerance,
            "{pattern}: a prop is {by_colour} m off"
        );
        eprintln!(
            "{pattern}: props within {:.2} mm ({:.2} mm by colour)",
            worst * 1000.0,
            by_colour * 1000.0
        );
    }
}

/// Juggling Lab's `body=` with jugglers who move (several positions over the beats, `-` left
/// out): at every given beat the juggler stands at the given place facing the given angle,
/// the hands keep their own (juggler-local) throw and catch points while the juggler moves,
/// and the loop is seamless; the same in a settings string, a JML list line and TOML, and
/// TOML writes it back.
#[test]
fn body_moves_jugglers_through_its_positions_beat_by_beat() {
    use juggler::scene::Scene;
    use juggler::spec::PatternSpec;
    use juggler::types::{Hand, HandRef};
    // Juggler 1 (period 3 beats): beat 0 at JL (-100, 0) facing 0, beat 1 at (-100, 50)
    // facing 90, beat 2 left out; a second position half-way through beat 0 at (-80, 0)
    // facing 20. Juggler 2 stands still at (100, 0) facing 180.
    let body = "<(0,-100,0)(20,-80,0).(90,-100,50).-.|(180,100,0).>";
    let settings = format!("pattern=<3p|3p>;bps=3;body={body}");
    let jml = format!(
        "<jml version=\"3\"><patternlist><line display=\"Moving\" notation=\"siteswap\">{}\
         </line></patternlist></jml>",
        settings.replace('<', "&lt;").replace('>', "&gt;")
    );
    let toml = format!("siteswap = \"<3p|3p>\"\nbps = 3.0\njugglers = \"{body}\"\n");
    let specs = [
        PatternSpec::parse(&settings).unwrap(),
        jml::import_str(&jml, "moving.jml").unwrap().remove(0),
        files::from_toml_str(&toml, "moving.toml")
            .unwrap()
            .remove(0),
    ];
    let still = Scene::new(&PatternSpec::parse("pattern=<3p|3p>;bps=3").unwrap()).unwrap();
    for spec in &specs {
        assert!(spec.settings.moving());
        assert_eq!(spec.settings.positions.len(), 2);
        assert_eq!(spec.settings.positions[0].len(), 3, "three beats");
        assert_eq!(spec.settings.positions[0][2], [None]);
        let scene = Scene::new(spec).unwrap();
        let m = scene.motion();
        let beat = 1.0 / 3.0;
        // (time in beats, world x, world z, facing in degrees), three cycles of 3 beats.
        let keys = [
            (0.0, 1.0, 0.0, 0.0),
            (0.5, 0.8, 0.0, 20.0),
            (1.0, 1.0, 0.5, 90.0),
        ];
        for cycle in 0..3 {
            for (b, x, z, facing) in keys {
                let t = (b + 3.0 * cycle as f64) * beat;
                let p = m.placement_at(0, t);
                assert!(
                    (p.position.x - x).abs() < 1e-5 && (p.position.z - z).abs() < 1e-5,
                    "t = {t}: {:?}",
                    p.position
                );
                assert!((p.facing.to_degrees() - facing).abs() < 1e-3, "t = {t}");
                let other = m.placement_at(1, t);
                assert!((other.position.x + 1.0).abs() < 1e-6);
                assert!((other.facing.to_degrees() - 180.0).abs() < 1e-3);
            }
        }
        // Beat 2 is left out: the juggler is on the way back (a smooth curve), at neither key.
        let between = m.placement_at(0, 2.0 * beat).position;
        assert!(between.z > 0.05 && between.z < 0.7, "{between:?}");
        assert!(between.distance(glam::Vec3::new(1.0, 0.0, 0.5)) > 0.05);
        // The loop is a whole number of body cycles and seamless.
        let loop_s = scene.loop_duration();
        let cycles = loop_s / (3.0 * beat);
        assert!((cycles - cycles.round()).abs() < 1e-9, "{loop_s}");
        for k in 0..50 {
            let t = loop_s * k as f64 / 50.0 + 0.0123;
            let (a, b) = (scene.pose_at(t), scene.pose_at(t + loop_s));
            for (p, q) in a.props.iter().zip(&b.props) {
                assert!(p.position.distance(q.position) < 1e-4, "t = {t}");
            }
            for (p, q) in a.jugglers.iter().zip(&b.jugglers) {
                let d = p.placement.position.distance(q.placement.position);
                assert!(d < 1e-5 && p.head.distance(q.head) < 1e-4, "t = {t}");
            }
        }
        // The hands' paths throw where they would standing still, in the juggler's own frame
        // (the right hand on even beats, the left on odd ones; the lanes a hand carries its
        // balls in are chosen apart for a juggler who moves).
        for k in 0..12 {
            let t = k as f64 * beat;
            {
                let hand = if k % 2 == 0 { Hand::Right } else { Hand::Left };
                let h = HandRef { juggler: 0, hand };
                let local = m.placement_at(0, t).to_local(m.hand_path_at(h, t).position);
                let fixed =
                    still.layout().jugglers[0].to_local(still.motion().hand_path_at(h, t).position);
                assert!(local.distance(fixed) < 1e-4, "t = {t}: {local} vs {fixed}");
            }
        }
    }
    assert_eq!(specs[0].settings, specs[1].settings);
    assert_eq!(specs[0].settings, specs[2].settings);
    // TOML writes the moves as Juggling Lab's body string and reads them back the same.
    let written = juggler::convert::toml::to_toml(&specs[2..]).unwrap();
    assert!(
        written.contains("jugglers = \"(0,-100,0)(20,-80,0).(90,-100,50).-.|(180,100,0).\""),
        "{written}"
    );
    let back = files::from_toml_str(&written, "back.toml").unwrap();
    assert_eq!(back[0].settings, specs[2].settings);
}
