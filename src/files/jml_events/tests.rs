use glam::{DVec3, Vec3};

use super::build::default_placement;
use super::perm::{jorder, juggler_perm, path_perm};
use super::raw::{bounce_fraction, bounce_plane, color_value, throw_gravity, throw_kind};
use super::*;
use crate::files::color::parse_color;
use crate::files::xml::parse_tree;
use crate::motion::{BounceMode, CatchKind, TossKind};
use crate::types::{Hand, HandRef, Rgba};

/// Reads the first `<pattern>` of a JML text; errors as their messages.
fn read(text: &str) -> Result<EventPattern, String> {
    let root = parse_tree(text, "t.jml").map_err(|e| e.to_string())?;
    let version = root.attr("version").unwrap_or("3").trim().to_string();
    let pattern = if root.name == "pattern" {
        &root
    } else {
        root.child("pattern").ok_or("no <pattern> element")?
    };
    read_pattern(pattern, &version).map_err(|e| e.to_string())
}

/// One juggler, one ball from hand to hand; `extra` goes inside `<pattern>`.
fn one_ball(symmetry: &str, events: &str) -> String {
    format!(
        "<jml version=\"3\"><pattern><setup jugglers=\"1\" paths=\"1\"/>{symmetry}{events}</pattern></jml>"
    )
}

const ROUND_TRIP: &str = "<event x=\"20\" t=\"0\" hand=\"1:right\"><throw path=\"1\"/></event>\
    <event x=\"-25\" t=\"0.5\" hand=\"1:left\"><softcatch path=\"1\"/></event>\
    <event x=\"-20\" t=\"0.6\" hand=\"1:left\"><throw path=\"1\"/></event>\
    <event x=\"25\" t=\"1.1\" hand=\"1:right\"><catch path=\"1\" type=\"grab\"/></event>";

#[test]
fn permutations_in_cycle_and_list_notation() {
    assert_eq!(path_perm("(1,3,2)", 3).unwrap(), vec![2, 0, 1]);
    assert_eq!(path_perm("(1)(2,3)", 3).unwrap(), vec![0, 2, 1]);
    assert_eq!(path_perm("2,3,1", 3).unwrap(), vec![1, 2, 0]);
    assert_eq!(path_perm("", 2).unwrap(), vec![0, 1]);
    // Juggler 1 to itself with hands switched; 1 -> 2 -> 1 with a switch.
    assert_eq!(juggler_perm("(1,1*)", 1).unwrap(), vec![(0, true)]);
    assert_eq!(jorder(&juggler_perm("(1,1*)", 1).unwrap()), 2);
    assert_eq!(
        juggler_perm("(1,2*)", 2).unwrap(),
        vec![(1, true), (0, true)]
    );
    assert_eq!(jorder(&juggler_perm("(1,2)", 2).unwrap()), 2);
    assert!(path_perm("(1,4)", 3)
        .unwrap_err()
        .to_string()
        .contains("not a number from 1 to 3"));
    assert!(path_perm("(1,2)(2,3)", 3)
        .unwrap_err()
        .to_string()
        .contains("twice"));
    assert!(path_perm("1,1,2", 3)
        .unwrap_err()
        .to_string()
        .contains("one-to-one"));
}

#[test]
fn softcatch_and_grab_elements_are_catches() {
    let p = read(&one_ball(
        "<symmetry type=\"delay\" pperm=\"(1)\" delay=\"1.2\"/>",
        ROUND_TRIP,
    ))
    .unwrap();
    let ch = &p.choreography;
    assert_eq!(ch.tosses.len(), 2);
    let kinds: Vec<CatchKind> = ch.tosses.iter().map(|t| t.catch_kind).collect();
    assert_eq!(kinds, [CatchKind::Soft, CatchKind::Catch]);
    // Right hand (slot 1) at x = 20 cm: 0.2 m toward negative x, hand plane height.
    let right = &ch.hands[1];
    assert_eq!(right[0].position, DVec3::new(-0.2, 1.0, 0.3));
    assert_eq!((right[0].time, right[1].time), (0.0, 1.1));
    // 2 throws per 1.2 s loop.
    assert!((p.bps() - 2.0 / 1.2).abs() < 1e-12);
    assert_eq!(
        (p.jugglers, p.paths, p.path_of_prop.clone()),
        (1, 1, vec![0])
    );
}

#[test]
fn props_held_together_keep_lanes_a_hand_width_apart() {
    // Each hand catches ball 1, then ball 2 before throwing ball 1: both are in the left
    // hand from 0.8 s to 1.0 s and in the right from 1.8 s to 2.0 s.
    let events = "<event x=\"20\" t=\"0\" hand=\"1:right\"><throw path=\"1\"/></event>\
        <event x=\"20\" t=\"0.2\" hand=\"1:right\"><throw path=\"2\"/></event>\
        <event x=\"-25\" t=\"0.5\" hand=\"1:left\"><catch path=\"1\"/></event>\
        <event x=\"-25\" t=\"0.8\" hand=\"1:left\"><catch path=\"2\"/></event>\
        <event x=\"-20\" t=\"1.0\" hand=\"1:left\"><throw path=\"1\"/></event>\
        <event x=\"-20\" t=\"1.3\" hand=\"1:left\"><throw path=\"2\"/></event>\
        <event x=\"25\" t=\"1.5\" hand=\"1:right\"><catch path=\"1\"/></event>\
        <event x=\"25\" t=\"1.8\" hand=\"1:right\"><catch path=\"2\"/></event>";
    let text = format!(
        "<jml version=\"3\"><pattern><setup jugglers=\"1\" paths=\"2\"/>\
         <symmetry type=\"delay\" pperm=\"(1)(2)\" delay=\"2\"/>{events}</pattern></jml>"
    );
    let p = read(&text).unwrap();
    let timing = crate::motion::Timing {
        bps: p.bps(),
        dwell: 1.0,
        gravity: GRAVITY,
    };
    let m = crate::motion::Motion::from_events(&p.choreography, timing);
    for (t, hand) in [(0.9, Hand::Left), (1.9, Hand::Right)] {
        let s = m.state_at(t);
        let held: Vec<Vec3> = s
            .props
            .iter()
            .filter(|q| q.held_by == Some(HandRef::new(0, hand)))
            .map(|q| q.position)
            .collect();
        assert_eq!(held.len(), 2, "t = {t}");
        // Side by side across the juggler (x), 10.5 cm apart, about the hand.
        let d = held[0] - held[1];
        assert!((d.x.abs() - 0.105).abs() < 1e-5, "t = {t}: {d}");
        assert!(d.y.abs() < 1e-6 && d.z.abs() < 1e-6, "t = {t}: {d}");
        let hand_at = s.hands[0][hand.index()].position;
        assert!(((held[0] + held[1]) / 2.0).distance(hand_at) < 1e-5);
    }
    // Alone in the hand, a prop sits at the hand... but keeps its lane from catch to
    // throw: ball 1 caught at 0.5 s is already in the lane it shares from 0.8 s.
    let s = m.state_at(0.6);
    let left = s.hands[0][0].position;
    let one = s.props.iter().find(|q| q.held_by.is_some()).unwrap();
    assert!((one.position.distance(left) - 0.0525).abs() < 1e-5);
}

#[test]
fn events_outside_the_loop_are_moved_into_it() {
    // The same pattern written one loop later and with a negative time.
    let shifted = ROUND_TRIP
        .replace("t=\"0\"", "t=\"1.2\"")
        .replace("t=\"1.1\"", "t=\"-0.1\"");
    let p = read(&one_ball(
        "<symmetry type=\"delay\" pperm=\"(1)\" delay=\"1.2\"/>",
        &shifted,
    ))
    .unwrap();
    let right = &p.choreography.hands[1];
    assert_eq!(right.len(), 2);
    assert!(right[0].time.abs() < 1e-9 && (right[1].time - 1.1).abs() < 1e-9);
}

#[test]
fn inconsistent_patterns_are_explained() {
    let delay = "<symmetry type=\"delay\" pperm=\"(1)\" delay=\"1.2\"/>";
    let err = |s: &str, e: &str| read(&one_ball(s, e)).unwrap_err();
    assert_eq!(
        err("", ROUND_TRIP),
        "the pattern has no delay <symmetry> (its loop)"
    );
    assert!(err(
        "<symmetry type=\"delay\" pperm=\"(1)\" delay=\"-1\"/>",
        ROUND_TRIP
    )
    .contains("not between 0.01 and 10000 seconds"));
    assert_eq!(
        err(
            delay,
            "<event x=\"1\" t=\"0\" hand=\"1:right\"><throw path=\"1\"/></event>"
        ),
        "path 1 is thrown by juggler 1's right hand at t=0.0000 s but never caught"
    );
    // Caught by the left hand, thrown again by the right.
    let wrong_hand = "<event x=\"20\" t=\"0\" hand=\"1:right\"><throw path=\"1\"/></event>\
        <event x=\"-25\" t=\"0.5\" hand=\"1:left\"><catch path=\"1\"/></event>";
    assert_eq!(
        err(delay, wrong_hand),
        "path 1 is caught by juggler 1's left hand at t=0.5000 s but next thrown by juggler 1's right hand"
    );
    assert!(err(delay, &ROUND_TRIP.replace("1:left", "3:left")).contains("outside 1..1"));
    assert!(err(delay, &ROUND_TRIP.replace("1:left", "1:middle")).contains("not like 1:left"));
    assert!(err(delay, &ROUND_TRIP.replace("x=\"20\"", "x=\"NaN\"")).contains("finite"));
    assert!(err(delay, &ROUND_TRIP.replace("path=\"1\"", "path=\"2\"")).contains("from 1 to 1"));
    assert!(err(
        delay,
        &ROUND_TRIP.replacen(
            "<throw path=\"1\"/>",
            "<throw path=\"1\" type=\"spin\"/>",
            1
        )
    )
    .contains("not toss or bounce"));
    assert!(read("<jml><pattern><setup paths=\"0\"/></pattern></jml>")
        .unwrap_err()
        .contains("paths=\"0\""));
    // Hostile numbers: a kilometre-wide throw, a loop of a microsecond.
    assert!(err(delay, &ROUND_TRIP.replace("x=\"20\"", "x=\"1e9\""))
        .contains("is outside -100000..100000"));
    assert!(err(
        "<symmetry type=\"delay\" pperm=\"(1)\" delay=\"0.000001\"/>",
        ROUND_TRIP
    )
    .contains("not between"));
}

#[test]
fn bounce_modifiers_and_colours() {
    assert_eq!(throw_kind("toss", "g=500").unwrap(), TossKind::Toss);
    assert_eq!(throw_gravity("g=500").unwrap(), Some(5.0));
    assert_eq!(throw_gravity("bounces=2; G = 1960 ").unwrap(), Some(19.6));
    assert_eq!(throw_gravity("bounces=2").unwrap(), None);
    assert!(throw_gravity("g=0").is_err());
    assert!(throw_gravity("g=lots").is_err());
    assert_eq!(
        bounce_fraction("bounces=2;bouncefrac=0.5").unwrap(),
        Some(0.5)
    );
    assert_eq!(bounce_fraction("bounces=2").unwrap(), None);
    assert_eq!(
        bounce_plane("bounces=2;bounceplane=75").unwrap(),
        Some(0.75)
    );
    assert_eq!(bounce_plane("bounces=2").unwrap(), None);
    assert!(bounce_plane("bounceplane=high").is_err());
    assert!(bounce_plane("bounceplane=1e9").is_err());
    // Above 1 a bounce gives energy (Juggling Lab's "Table Tennis" has 1.5), up to 10.
    assert_eq!(bounce_fraction("bouncefrac=1.5").unwrap(), Some(1.5));
    assert!(bounce_fraction("bouncefrac=0").is_err());
    assert!(bounce_fraction("bouncefrac=10.5").is_err());
    assert!(bounce_fraction("bouncefrac=NaN").is_err());
    assert_eq!(
        throw_kind("bounce", "bounces=2;forced=true;hyper=true").unwrap(),
        TossKind::Bounce(BounceMode::from_kind(2, true, true))
    );
    assert!(throw_kind("bounce", "bounces=0").is_err());
    assert_eq!(
        color_value("{250,0,10}"),
        Some(Rgba {
            r: 250,
            g: 0,
            b: 10,
            a: 255
        })
    );
    assert_eq!(color_value("{1,2}"), None);
    assert_eq!(color_value("red"), parse_color("red").ok());
}

#[test]
fn default_places_follow_juggling_lab() {
    // Two jugglers 1.4 m apart facing each other; six on a circle wide enough for 1.3 m
    // between neighbours.
    let a = default_placement(0, 2);
    let b = default_placement(1, 2);
    assert!((a.position - Vec3::new(-0.7, 0.0, 0.0)).length() < 1e-6);
    assert!((b.position - Vec3::new(0.7, 0.0, 0.0)).length() < 1e-5);
    assert!((a.forward() - Vec3::X).length() < 1e-6);
    assert!((b.forward() + Vec3::X).length() < 1e-5);
    let p0 = default_placement(0, 6).position;
    let p1 = default_placement(1, 6).position;
    assert!((p0.distance(p1) - 1.3).abs() < 1e-5);
}

#[test]
fn errors_point_at_the_element_at_fault_with_hand_and_time() {
    let delay = "<symmetry type=\"delay\" pperm=\"(1)\" delay=\"1.2\"/>";
    let text = one_ball(
        delay,
        "<event x=\"1\" t=\"0.25\" hand=\"1:left\"><throw path=\"1\"/></event>",
    );
    let root = parse_tree(&text, "t.jml").unwrap();
    let pattern = root.child("pattern").unwrap();
    let err = read_pattern(pattern, "3").unwrap_err();
    assert_eq!(err.at, text.find("<event").unwrap());
    assert_eq!(
        err.kind,
        EventErrorKind::NeverCaught {
            path: 1,
            by: HandRef::new(0, Hand::Left),
            time: 0.25
        }
    );
    // A bad path is at its <throw>; a missing <setup> at the <pattern>.
    let text = one_ball(delay, &ROUND_TRIP.replacen("path=\"1\"", "path=\"7\"", 1));
    let root = parse_tree(&text, "t.jml").unwrap();
    let err = read_pattern(root.child("pattern").unwrap(), "3").unwrap_err();
    assert_eq!(err.at, text.find("<throw").unwrap());
    let text = "<jml><pattern><event x=\"1\" t=\"0\" hand=\"1:left\"/></pattern></jml>";
    let root = parse_tree(text, "t.jml").unwrap();
    let err = read_pattern(root.child("pattern").unwrap(), "3").unwrap_err();
    assert_eq!(err.at, text.find("<pattern").unwrap());
    assert_eq!(err.to_string(), "the pattern has no <setup>");
}

/// A loop's events far from time 0 and a long path cycle are brought into the loop by
/// the permutation's cycles, not one loop at a time: an event 9 million loops away reads
/// at once, as if written within the loop.
#[test]
fn far_events_are_moved_into_the_loop_in_one_step() {
    let symmetry = "<symmetry type=\"delay\" pperm=\"(1,2)\" delay=\"0.01\"/>";
    let events = |shift: f64| {
        format!(
            "<event x=\"20\" t=\"{}\" hand=\"1:right\"><throw path=\"1\"/></event>\
             <event x=\"-20\" t=\"{}\" hand=\"1:left\"><catch path=\"1\"/></event>\
             <event x=\"-20\" t=\"{}\" hand=\"1:left\"><throw path=\"1\"/></event>\
             <event x=\"20\" t=\"{}\" hand=\"1:right\"><catch path=\"1\"/></event>",
            shift,
            shift + 0.003,
            shift + 0.005,
            shift + 0.008
        )
    };
    let text = |shift: f64| {
        format!(
            "<jml version=\"3\"><pattern><setup jugglers=\"1\" paths=\"2\"/>{symmetry}{}</pattern></jml>",
            events(shift)
        )
    };
    let near = read(&text(0.0)).unwrap();
    let started = std::time::Instant::now();
    let far = read(&text(90_000.0)).unwrap();
    assert!(started.elapsed().as_secs_f64() < 1.0);
    assert_eq!(near.path_of_prop, far.path_of_prop);
    assert_eq!(
        near.choreography.tosses.len(),
        far.choreography.tosses.len()
    );
    for (a, b) in near
        .choreography
        .tosses
        .iter()
        .zip(&far.choreography.tosses)
    {
        assert!((a.release - b.release).abs() < 1e-6, "{a:?} {b:?}");
    }
}
