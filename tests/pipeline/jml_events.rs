//! Juggling Lab patterns defined by events (`tests/data/jml_events/`, our own files, each read
//! without errors by Juggling Lab 1.6.6's `verify`): they load, the hand is at every event's
//! position at the event's time, held props sit in their hand, flying props follow parabolas
//! and the animation loops seamlessly.

use glam::{DVec3, Vec3};
use juggler::files::{self, jml_events};
use juggler::layout::Placement;
use juggler::motion::Motion;
use juggler::scene::Scene;
use juggler::spec::PatternSpec;
use juggler::types::{Hand, HandRef, PropKind};

fn data(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/jml_events")
        .join(name)
}

fn load(name: &str) -> PatternSpec {
    let mut specs = files::load_path(&data(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(specs.len(), 1, "{name}");
    specs.remove(0)
}

/// A juggler-local point (metres) in the world.
fn world(p: &Placement, local: DVec3) -> DVec3 {
    p.to_world(local.as_vec3()).as_dvec3()
}

/// The hand's path at `t` must go through the file's event point: `(x, y, z)` in Juggling
/// Lab centimetres for a juggler at `placement` (a hand holding a ball laned forward carries
/// it there, `Motion::hand_at`, the path stays).
fn assert_hand_at(m: &Motion, hand: HandRef, t: f64, placement: &Placement, jl: [f64; 3]) {
    let local = DVec3::new(-jl[0] / 100.0, 1.0 + jl[2] / 100.0, (jl[1] + 30.0) / 100.0);
    let want = world(placement, local);
    let got = m.hand_path_at(hand, t).position.as_dvec3();
    assert!(
        (got - want).length() < 1e-4,
        "{hand:?} at t = {t}: {got} instead of {want}"
    );
}

/// Loop, held-prop and ballistic invariants at many times.
fn assert_invariants(scene: &Scene, gravity: f64) {
    let m = scene.motion();
    let loop_s = scene.loop_duration();
    assert!(loop_s.is_finite() && loop_s > 0.0);
    let samples = 400;
    for k in 0..samples {
        let t = loop_s * k as f64 / samples as f64 + 0.0013;
        let s = m.state_at(t);
        let later = m.state_at(t + loop_s);
        for (a, b) in s.props.iter().zip(&later.props) {
            assert!(a.position.is_finite() && a.velocity.is_finite(), "t = {t}");
            assert!(a.position.distance(b.position) < 1e-3, "loop at t = {t}");
        }
        for (a, b) in s.hands.iter().zip(&later.hands) {
            for h in 0..2 {
                assert!(
                    a[h].position.distance(b[h].position) < 1e-3,
                    "loop at t = {t}"
                );
            }
        }
        for p in &s.props {
            match (p.held_by, p.flight) {
                (Some(h), None) => {
                    let hand = s.hands[h.juggler][h.hand.index()].position;
                    // At the hand, or beside it in a multiplex (spread 10.5 cm per prop).
                    assert!(p.position.distance(hand) < 0.2, "held at t = {t}");
                }
                (None, Some(f)) => {
                    // Ballistic: second difference of the position is gravity.
                    let dt = 1e-3;
                    if t - dt > f.release && t + dt < f.catch {
                        let at = |u: f64| {
                            let st = m.state_at(u);
                            st.props
                                .iter()
                                .find(|q| {
                                    q.flight.is_some_and(|g| {
                                        (g.release - f.release).abs() < 1e-6 && g.from == f.from
                                    })
                                })
                                .map(|q| q.position.as_dvec3())
                        };
                        if let (Some(a), Some(b), Some(c)) = (at(t - dt), at(t), at(t + dt)) {
                            let acc = (a - 2.0 * b + c) / (dt * dt);
                            // A floor bounce inside the window breaks the parabola there.
                            if b.y > 0.1 {
                                assert!(
                                    (acc - DVec3::new(0.0, -gravity, 0.0)).length() < 0.5,
                                    "acceleration {acc} at t = {t}"
                                );
                            }
                        }
                    }
                    assert!(p.position.y >= 0.0, "below the floor at t = {t}");
                }
                other => panic!("prop neither held nor flying: {other:?}"),
            }
        }
    }
}

#[test]
fn a_cascade_written_as_events_is_expanded_by_its_symmetries() {
    let spec = load("cascade.jml");
    assert_eq!(spec.name, "Cascade from events");
    assert!(spec.source.events().is_some());
    let scene = Scene::new(&spec).unwrap();
    let m = scene.motion();
    // delay 0.7 s; pperm (1,3,2) cycles three props through one path: a 2.1 s loop.
    assert_eq!(m.prop_count(), 3);
    assert!((m.hand_period() - 0.7).abs() < 1e-12);
    assert!((scene.loop_duration() - 2.1).abs() < 1e-9);
    // The schedule summary: two throws per loop, one period lasting one loop.
    assert_eq!((scene.period_beats(), scene.props()), (2, 3));
    assert!((scene.period_beats() as f64 / scene.timing().bps - 0.7).abs() < 1e-12);
    let here = m.placement_at(0, 0.0);
    assert_eq!(here.position, Vec3::ZERO);
    let (r, l) = (HandRef::new(0, Hand::Right), HandRef::new(0, Hand::Left));
    // The right hand's own events, and the left's mirror images half a loop later.
    assert_hand_at(m, r, 0.0, &here, [12.0, 0.0, 0.0]);
    assert_hand_at(m, r, 0.25, &here, [30.0, 0.0, 0.0]);
    assert_hand_at(m, l, 0.35, &here, [-12.0, 0.0, 0.0]);
    assert_hand_at(m, l, 0.60, &here, [-30.0, 0.0, 0.0]);
    // Every loop repeats them.
    assert_hand_at(m, r, 1.4, &here, [12.0, 0.0, 0.0]);
    assert_hand_at(m, l, 1.3, &here, [-30.0, 0.0, 0.0]);
    // The right hand's throw at 0 flies to the left hand's catch at 0.6 s.
    let s = m.state_at(0.3);
    let flying: Vec<_> = s.props.iter().filter_map(|p| p.flight).collect();
    assert!(flying.iter().any(|f| f.from == r
        && f.to == l
        && f.release.abs() < 1e-9
        && (f.catch - 0.6).abs() < 1e-9));
    // The prop's colour comes from its <prop mod="color=red">.
    let pose = scene.pose_at(0.1);
    assert!(pose
        .props
        .iter()
        .all(|p| (p.color.r, p.color.g, p.color.b) == (255, 0, 0)));
    assert_invariants(&scene, jml_events::GRAVITY);
}

#[test]
fn bounces_holding_events_and_soft_catches() {
    let spec = load("bounce_hold_soft.jml");
    let scene = Scene::new(&spec).unwrap();
    let m = scene.motion();
    let here = m.placement_at(0, 0.0);
    let (r, l) = (HandRef::new(0, Hand::Right), HandRef::new(0, Hand::Left));
    assert_eq!(m.prop_count(), 2);
    assert!((scene.loop_duration() - 1.6).abs() < 1e-9);
    for (hand, t, p) in [
        (r, 0.0, [20.0, 0.0, 0.0]),
        (l, 0.3, [-25.0, 10.0, 30.0]),
        (l, 0.7, [-30.0, 0.0, 0.0]),
        (l, 0.9, [-20.0, 0.0, 10.0]),
        (l, 1.2, [-25.0, -5.0, -10.0]),
        (r, 1.4, [30.0, 0.0, 0.0]),
    ] {
        assert_hand_at(m, hand, t, &here, p);
    }
    // Path 2 is never thrown: always in the left hand.
    for k in 0..16 {
        let s = m.state_at(0.1 * k as f64);
        assert!(s.props.iter().filter(|p| p.held_by == Some(l)).count() >= 1);
    }
    // The bounce reaches the floor between 0 and 0.7 s.
    let lowest = (0..70)
        .map(|k| {
            let s = m.state_at(0.01 * k as f64);
            s.props
                .iter()
                .filter(|p| p.flight.is_some_and(|f| f.from == r))
                .map(|p| p.position.y)
                .fold(f32::INFINITY, f32::min)
        })
        .fold(f32::INFINITY, f32::min);
    assert!(lowest < 0.1, "lowest {lowest}");
    // Soft catch: the hand moves with the arriving ball.
    let s = m.state_at(1.4 - 1e-4);
    let ball = s.props.iter().find(|p| p.flight.is_some()).unwrap();
    let hand = m.hand_at(r, 1.4);
    assert!(
        (ball.velocity - hand.velocity).length() < 0.05,
        "{} vs {}",
        ball.velocity,
        hand.velocity
    );
    // Colours: {0,0,255} for path 1, yellow for path 2.
    let pose = scene.pose_at(0.0);
    let mut colors: Vec<(u8, u8, u8)> = pose
        .props
        .iter()
        .map(|p| (p.color.r, p.color.g, p.color.b))
        .collect();
    colors.sort();
    assert_eq!(colors[0], (0, 0, 255));
    assert_ne!(colors[1], (0, 0, 255));
    assert_invariants(&scene, jml_events::GRAVITY);
}

#[test]
fn a_switch_symmetry_mirrors_events_onto_the_partner_who_moves() {
    let spec = load("passing_switch.jml");
    assert_eq!(spec.settings.prop, PropKind::Ring);
    let scene = Scene::new(&spec).unwrap();
    let m = scene.motion();
    assert_eq!((m.jugglers(), m.prop_count()), (2, 2));
    // Juggler 1 stands 1 m behind the origin (Juggling Lab's y = -100 cm: our z = -1) and
    // walks 20 cm to its right (-x here) while turning 10°; juggler 2 faces it.
    let j1_0 = m.placement_at(0, 0.0);
    assert!((j1_0.position - Vec3::new(0.0, 0.0, -1.0)).length() < 1e-6);
    let j1_1 = m.placement_at(0, 1.0);
    assert!((j1_1.position - Vec3::new(-0.2, 0.0, -1.0)).length() < 1e-6);
    assert!((j1_1.facing - 10f32.to_radians()).abs() < 1e-6);
    let j1_half = m.placement_at(0, 0.5);
    assert!((j1_half.position.x + 0.1).abs() < 1e-6);
    // Smooth through a keyframe (Juggling Lab's spline), not a sudden reversal.
    let x = |t: f64| m.placement_at(0, t).position.x as f64;
    let (before, after) = ((x(1.0) - x(0.99)) / 0.01, (x(1.01) - x(1.0)) / 0.01);
    assert!((before - after).abs() < 0.02, "{before} then {after}");
    let j2 = m.placement_at(1, 0.3);
    assert!((j2.position - Vec3::new(0.0, 0.0, 1.0)).length() < 1e-6);
    assert!((j2.facing - std::f32::consts::PI).abs() < 1e-5);
    let (r1, l1) = (HandRef::new(0, Hand::Right), HandRef::new(0, Hand::Left));
    let (r2, l2) = (HandRef::new(1, Hand::Right), HandRef::new(1, Hand::Left));
    // Written events, in each juggler's frame at the event's time.
    assert_hand_at(m, r1, 0.0, &m.placement_at(0, 0.0), [20.0, 0.0, 0.0]);
    assert_hand_at(m, l2, 0.8, &m.placement_at(1, 0.8), [-25.0, 0.0, 0.0]);
    assert_hand_at(m, l2, 1.0, &m.placement_at(1, 1.0), [-15.0, 0.0, 0.0]);
    assert_hand_at(m, r1, 1.8, &m.placement_at(0, 1.8), [30.0, 0.0, 0.0]);
    // Switch images: same times, the other juggler, the same hand.
    assert_hand_at(m, r2, 0.0, &m.placement_at(1, 0.0), [20.0, 0.0, 0.0]);
    assert_hand_at(m, l1, 0.8, &m.placement_at(0, 0.8), [-25.0, 0.0, 0.0]);
    assert_hand_at(m, r2, 1.8, &m.placement_at(1, 1.8), [30.0, 0.0, 0.0]);
    // Passes: juggler 1's right to juggler 2's left and back.
    let s = m.state_at(0.4);
    assert!(s
        .props
        .iter()
        .any(|p| p.flight.is_some_and(|f| f.from == r1 && f.to == l2)));
    // The bodies follow the placements.
    let pose = scene.pose_at(1.0);
    let feet = (pose.jugglers[0].feet[0] + pose.jugglers[0].feet[1]) / 2.0;
    assert!(
        (feet.x + 0.2).abs() < 0.1 && (feet.z + 1.0).abs() < 0.2,
        "{feet}"
    );
    assert_invariants(&scene, jml_events::GRAVITY);
}

#[test]
fn jml_1_0_swaps_y_and_z() {
    let spec = load("version_1_0.jml");
    let scene = Scene::new(&spec).unwrap();
    let m = scene.motion();
    let here = m.placement_at(0, 0.0);
    // Written y = 15, z = 10 means y = 10, z = 15 today.
    assert_hand_at(
        m,
        HandRef::new(0, Hand::Right),
        0.0,
        &here,
        [20.0, 10.0, 15.0],
    );
    assert_hand_at(
        m,
        HandRef::new(0, Hand::Left),
        0.6,
        &here,
        [-20.0, 5.0, -10.0],
    );
    assert_invariants(&scene, jml_events::GRAVITY);
}

#[test]
fn the_cli_lists_and_exports_event_patterns() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_juggler"))
        .args(["list", data("passing_switch.jml").to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&out.stdout);
    // After the `#` column (the pattern's number in its file).
    let line = stdout
        .lines()
        .map(|l| {
            l.trim_start_matches(|c: char| c.is_ascii_digit())
                .trim_start()
        })
        .find(|l| l.starts_with("Two balls passed"))
        .unwrap_or_else(|| panic!("{stdout}"));
    let cells: Vec<&str> = line
        .split("  ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect();
    assert_eq!(
        cells[cells.len() - 5..],
        ["(events)", "2 rings", "1", "2", "yes"],
        "{line}"
    );
    // JSON: no siteswap.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_juggler"))
        .args(["list", "--json", data("cascade.jml").to_str().unwrap()])
        .output()
        .unwrap();
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(value["siteswap"], serde_json::Value::Null);
    assert_eq!(
        (value["props"].as_u64(), value["valid"].as_bool()),
        (Some(3), Some(true))
    );
    let dir = tempfile::tempdir().unwrap();
    let gif = dir.path().join("cascade.gif");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_juggler"))
        .args(["export", data("cascade.jml").to_str().unwrap(), "--out"])
        .arg(&gif)
        .args(["--size", "80x60", "--fps", "10", "-q"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(std::fs::metadata(&gif).unwrap().len() > 1000);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_juggler"))
        .args(["check", data("cascade.jml").to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "Cascade from events: valid\n  defined by Juggling Lab events: props 3, jugglers 1, loop 0.7000 s\n"
    );
}

/// Juggling Lab animates a pattern from its events; a base pattern beside them that juggler
/// cannot read (one shipped list writes `pattern=[62]25dwell=1.0…` without `;`) must not make
/// the pattern unloadable, while a good base pattern keeps being used.
#[test]
fn events_are_used_when_the_base_pattern_beside_them_is_broken() {
    let text = std::fs::read_to_string(data("cascade.jml")).unwrap();
    let with_base = |base: &str| {
        text.replacen(
            "<pattern>",
            &format!("<pattern>\n<basepattern notation=\"siteswap\">{base}</basepattern>"),
            1,
        )
    };
    let broken = files::load_str(
        &with_base("pattern=[62]25dwell=1.0bps=5.5"),
        files::FileKind::Jml,
        "broken.jml",
    )
    .unwrap();
    assert_eq!(broken.len(), 1);
    assert!(broken[0].source.events().is_some());
    assert!(Scene::new(&broken[0]).is_ok());
    let good = files::load_str(&with_base("pattern=51"), files::FileKind::Jml, "good.jml").unwrap();
    assert_eq!(good[0].source.text(), "51");
}

/// A throw's own `g=` (Juggling Lab's cm/s²) flies that throw under its gravity: between the
/// same event points and times, a throw with `g=490` rises half as far above the straight
/// line as one under the pattern's 980, and its acceleration is its own gravity.
#[test]
fn a_throw_with_its_own_gravity_flies_the_parabola_of_that_gravity() {
    let text = r#"<?xml version="1.0"?>
<jml version="3"><pattern>
<prop type="ball"/>
<setup jugglers="1" paths="1" props="1"/>
<symmetry type="delay" pperm="(1)" delay="2"/>
<event x="20" y="0" z="0" t="0" hand="1:right"><throw path="1" type="toss" mod="g=490"/></event>
<event x="-20" y="0" z="0" t="0.8" hand="1:left"><catch path="1"/></event>
<event x="-20" y="0" z="0" t="1" hand="1:left"><throw path="1" type="toss"/></event>
<event x="20" y="0" z="0" t="1.8" hand="1:right"><catch path="1"/></event>
</pattern></jml>"#;
    let spec = files::jml::import_str(text, "g.jml").unwrap().remove(0);
    let scene = Scene::new(&spec).unwrap();
    let m = scene.motion();
    let height = |t: f64| f64::from(m.state_at(t).props[0].position.y);
    let acceleration = |t: f64| {
        // f32 positions: a wide step keeps rounding out (a parabola's is exact for any step).
        let dt = 0.02;
        (height(t - dt) - 2.0 * height(t) + height(t + dt)) / (dt * dt)
    };
    // Both flights last 0.8 s between hands at the same height (1 m): the prop rises
    // g T² / 8 above it at mid-flight.
    let rise = |g: f64| g * 0.8 * 0.8 / 8.0;
    assert!(
        (height(0.4) - 1.0 - rise(4.9)).abs() < 1e-3,
        "{}",
        height(0.4)
    );
    assert!(
        (height(1.4) - 1.0 - rise(9.8)).abs() < 1e-3,
        "{}",
        height(1.4)
    );
    for k in 1..8 {
        let u = 0.1 * k as f64;
        assert!((acceleration(u) + 4.9).abs() < 0.05, "{}", acceleration(u));
        assert!(
            (acceleration(1.0 + u) + 9.8).abs() < 0.05,
            "{}",
            acceleration(1.0 + u)
        );
    }
    // The flights still start and end in the hands at the events.
    let here = m.placement_at(0, 0.0);
    assert_hand_at(
        m,
        HandRef::new(0, Hand::Right),
        0.0,
        &here,
        [20.0, 0.0, 0.0],
    );
    assert_hand_at(
        m,
        HandRef::new(0, Hand::Left),
        0.8,
        &here,
        [-20.0, 0.0, 0.0],
    );
    let caught = m.state_at(0.8).props[0].position;
    assert!(caught.distance(m.hand_at(HandRef::new(0, Hand::Left), 0.8).position) < 1e-3);
    // A gravity Juggling Lab would not take is refused with the throw's modifier named.
    let bad = text.replace("g=490", "g=-5");
    let err = files::jml::import_str(&bad, "g.jml")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("throw modifier g must be between 0.1 and 100000 cm/s², not -5"),
        "{err}"
    );
}

/// A bounce's `bouncefrac=` is the share of its energy the prop keeps at the floor: it
/// rebounds at √bouncefrac of the speed it hit with (Juggling Lab's default 0.9; above 1 it
/// gains), and still flies from the thrower's event to the catcher's.
#[test]
fn a_bounce_keeps_the_energy_fraction_of_its_bouncefrac() {
    let text = |frac: &str| {
        format!(
            r#"<jml version="3"><pattern>
<setup jugglers="1" paths="1" props="1"/>
<symmetry type="delay" pperm="(1)" delay="2.4"/>
<event x="20" y="0" z="0" t="0" hand="1:right"><throw path="1" type="bounce" mod="{frac}"/></event>
<event x="-20" y="0" z="0" t="1" hand="1:left"><catch path="1"/></event>
<event x="-20" y="0" z="0" t="1.2" hand="1:left"><throw path="1" type="toss"/></event>
<event x="20" y="0" z="0" t="2.2" hand="1:right"><catch path="1"/></event>
</pattern></jml>"#
        )
    };
    // The ratio of rising to falling vertical speed either side of prop 0's first floor
    // contact after `from` seconds.
    let rebound_after = |scene: &Scene, from: f64| {
        let m = scene.motion();
        let vy = |t: f64| f64::from(m.state_at(t).props[0].velocity.y);
        let step = 1e-4;
        let k = (1..100_000)
            .map(|k| from + k as f64 * step)
            .find(|&t| vy(t) < 0.0 && vy(t + step) > 0.0)
            .expect("the prop bounces");
        -vy(k + step) / vy(k)
    };
    let rebound = |frac: &str| {
        let spec = files::jml::import_str(&text(frac), "b.jml")
            .unwrap()
            .remove(0);
        let scene = Scene::new(&spec).unwrap();
        let m = scene.motion();
        let caught = m.state_at(1.0).props[0].position;
        let hand = m.hand_at(HandRef::new(0, Hand::Left), 1.0).position;
        assert!(
            caught.distance(hand) < 1e-3,
            "{frac}: caught {caught} hand {hand}"
        );
        rebound_after(&scene, 0.0)
    };
    let half = rebound("bouncefrac=0.5");
    assert!((half - 0.5f64.sqrt()).abs() < 0.01, "{half}");
    let default = rebound("bounces=1");
    assert!((default - 0.9f64.sqrt()).abs() < 0.01, "{default}");
    // Above 1 the bounce gives energy, as a bat does (Juggling Lab's "Table Tennis", 1.5).
    let bat = rebound("bouncefrac=1.5");
    assert!((bat - 1.5f64.sqrt()).abs() < 0.01, "{bat}");
    // A settings string's `bouncefrac` holds for every bounce of its siteswap (Juggling Lab's
    // "Table Tennis": `bouncefrac=1.5`).
    for (pattern, want) in [("pattern=3B;bouncefrac=1.5", 1.5), ("pattern=3B", 0.9)] {
        let scene = Scene::new(&PatternSpec::parse(pattern).unwrap()).unwrap();
        let r = rebound_after(&scene, 0.0);
        assert!((r - f64::sqrt(want)).abs() < 0.01, "{pattern}: {r}");
    }
    // Out of range: refused, naming the modifier and the range.
    let err = files::jml::import_str(&text("bouncefrac=20"), "b.jml")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("bouncefrac must be between 0 (excluded) and 10, not 20"),
        "{err}"
    );
}

/// A bounce's `bounceplane=` is the height of the surface it bounces off (Juggling Lab's
/// centimetres above the floor): the prop comes down to that height, not to the floor, and
/// still flies from the thrower's event to the catcher's at the event times (beside them in
/// its flight lane, which runs sideways or in depth, never up or down).
#[test]
fn a_bounce_comes_down_to_its_bounceplane() {
    let text = |modifier: &str| {
        format!(
            r#"<jml version="3"><pattern>
<setup jugglers="1" paths="1" props="1"/>
<symmetry type="delay" pperm="(1)" delay="1.6"/>
<event x="20" y="0" z="0" t="0" hand="1:right"><throw path="1" type="bounce" mod="{modifier}"/></event>
<event x="-20" y="0" z="0" t="0.6" hand="1:left"><catch path="1"/></event>
<event x="-20" y="0" z="0" t="0.8" hand="1:left"><throw path="1" type="toss"/></event>
<event x="20" y="0" z="0" t="1.4" hand="1:right"><catch path="1"/></event>
</pattern></jml>"#
        )
    };
    let lowest = |modifier: &str| {
        let spec = files::jml::import_str(&text(modifier), "b.jml")
            .unwrap()
            .remove(0);
        let scene = Scene::new(&spec).unwrap();
        let m = scene.motion();
        for (t, hand) in [(0.0, Hand::Right), (0.6, Hand::Left)] {
            let prop = m.state_at(t).props[0].position;
            let at = m.hand_at(HandRef::new(0, hand), t).position;
            let aside = (prop - at) * Vec3::new(1.0, 0.0, 1.0);
            assert!(
                (prop.y - at.y).abs() < 1e-3
                    && aside.length() <= juggler::motion::MAX_FLIGHT_LANE as f32 + 1e-3,
                "{modifier} at {t}: {prop} vs {at}"
            );
        }
        (0..=600)
            .map(|k| m.state_at(0.6 * k as f64 / 600.0).props[0].position.y)
            .fold(f32::INFINITY, f32::min)
    };
    // A table 60 cm high: the ball's centre comes down to 60 cm plus its 5 cm radius.
    let table = lowest("bounceplane=60");
    assert!((table - 0.65).abs() < 5e-3, "{table}");
    let floor = lowest("bounces=1");
    assert!((floor - 0.05).abs() < 5e-3, "{floor}");
    let err = files::jml::import_str(&text("bounceplane=up"), "b.jml")
        .unwrap_err()
        .to_string();
    assert!(err.contains("bounceplane=up"), "{err}");
}

/// `tojml` of a pattern that is JML events already writes those events: read back, the same
/// animation (holding waypoints, bounces and soft catches included).
#[test]
fn event_patterns_are_written_as_their_own_events() {
    for name in [
        "bounce_hold_soft.jml",
        "passing_switch.jml",
        "version_1_0.jml",
    ] {
        let spec = load(name);
        let scene = Scene::new(&spec).unwrap();
        let text = juggler::convert::jml::write(&scene);
        assert!(text.starts_with("<?xml"), "{name}");
        assert!(
            text.contains("<!DOCTYPE jml SYSTEM"),
            "{name}: Juggling Lab needs it"
        );
        let back = files::jml::import_str(&text, "back.jml").unwrap().remove(0);
        let read = Scene::new(&back).unwrap();
        let loop_s = scene.loop_duration();
        assert!((read.loop_duration() - loop_s).abs() < 1e-9, "{name}");
        for k in 0..100 {
            let t = 2.0 * loop_s * k as f64 / 100.0;
            let (a, b) = (scene.motion().state_at(t), read.motion().state_at(t));
            for (p, q) in a.props.iter().zip(&b.props) {
                assert!(p.position.distance(q.position) < 1e-6, "{name} at {t}");
            }
            for (p, q) in a.hands.iter().zip(&b.hands) {
                assert!(
                    p[0].position.distance(q[0].position) < 1e-6,
                    "{name} at {t}"
                );
                assert!(
                    p[1].position.distance(q[1].position) < 1e-6,
                    "{name} at {t}"
                );
            }
        }
    }
}
