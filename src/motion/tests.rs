//! Whole-motion tests: worked examples with hand-computed numbers and invariants.

use glam::{DVec3, Vec3};

use super::testutil::{async_schedule, passing_3p, sync_44};
use super::*;
use crate::settings::{Dwell, Settings};
use crate::types::PropKind;

fn motion(schedule: &Schedule, bps: Option<f64>) -> Motion {
    let settings = Settings {
        bps,
        ..Settings::default()
    };
    let timing = Timing::new(schedule, &settings).expect("valid settings");
    Motion::new(schedule, timing, &Layout::circle(schedule.jugglers), &[])
}

#[test]
fn cascade_worked_example() {
    // 3 at 2.9 bps, dwell 1.3: throws every 1/2.9 s, flight (3 - 1.3)/2.9 = 0.5862 s,
    // apex g t²/8 = 0.4214 m above the hands, catches 1.3 beats before the next throw.
    let m = motion(&async_schedule("3"), None);
    assert_eq!(m.bps(), 2.9);
    assert_eq!(m.prop_count(), 3);
    // Each prop is back after 3 throws of 3 beats: 6 beats (period 2 x 3 props).
    assert!((m.loop_duration() - 6.0 / 2.9).abs() < 1e-12);
    assert!((m.hand_period() - 2.0 / 2.9).abs() < 1e-12);
    let flight = 1.7 / 2.9;
    // At t = 0 the right hand throws; just after, one prop flies from the right hand.
    let s = m.state_at(1e-9);
    let flying: Vec<&PropState> = s.props.iter().filter(|p| p.held_by.is_none()).collect();
    let just_thrown = flying
        .iter()
        .find(|p| p.flight.is_some_and(|f| f.release.abs() < 1e-6))
        .expect("a prop released at t = 0");
    let f = just_thrown.flight.unwrap();
    assert!((f.catch - f.release - flight).abs() < 1e-9);
    assert_eq!(
        (f.from.hand, f.to.hand, f.value),
        (Hand::Right, Hand::Left, 3)
    );
    // Released at the right hand's throw point (-0.12, 1.0, 0.3).
    assert!(just_thrown.position.distance(Vec3::new(-0.12, 1.0, 0.3)) < 1e-5);
    // Apex halfway; lands at the left catch point (0.30, 1.0, 0.3).
    let mid = m.state_at(flight / 2.0);
    let apex = mid
        .props
        .iter()
        .map(|p| p.position.y)
        .fold(f32::MIN, f32::max);
    assert!((apex - 1.4214).abs() < 1e-3, "apex {apex}");
    let end = m.state_at(flight - 1e-9);
    assert!(end
        .props
        .iter()
        .any(|p| p.position.distance(Vec3::new(0.30, 1.0, 0.3)) < 1e-5));
}

#[test]
fn held_props_sit_in_their_hand_and_the_loop_is_seamless() {
    for schedule in [
        async_schedule("531"),
        async_schedule("42"),
        sync_44(),
        passing_3p(),
    ] {
        let m = motion(&schedule, None);
        let l = m.loop_duration();
        for k in 0..200 {
            let t = -3.0 + k as f64 * 0.0371;
            let s = m.state_at(t);
            let later = m.state_at(t + l);
            for (a, b) in s.props.iter().zip(&later.props) {
                assert!(a.position.distance(b.position) < 1e-4);
                assert_eq!(a.held_by, b.held_by);
            }
            for p in &s.props {
                if let Some(h) = p.held_by {
                    let hand = s.hands[h.juggler][h.hand.index()].position;
                    assert!(p.position.distance(hand) < 1e-5);
                } else {
                    assert!(p.position.y > 0.0);
                }
            }
        }
    }
}

fn motion_with(schedule: &Schedule, settings: Settings, custom: &[DwellPoints]) -> Motion {
    let timing = Timing::new(schedule, &settings).expect("valid settings");
    Motion::new(schedule, timing, &Layout::circle(schedule.jugglers), custom)
}

/// The flight of the prop that `state` shows released closest to `release`.
fn flight_released_at(state: &MotionState, release: f64) -> (usize, Flight) {
    state
        .props
        .iter()
        .enumerate()
        .filter_map(|(i, p)| p.flight.map(|f| (i, f)))
        .min_by(|a, b| {
            (a.1.release - release)
                .abs()
                .total_cmp(&(b.1.release - release).abs())
        })
        .expect("a prop in the air")
}

#[test]
fn five_ball_apex_is_about_one_metre() {
    // 5 at 4.1 bps: flight (5 - 1.3)/4.1 = 0.90244 s; apex g t²/8 = 0.99866 m above the hands.
    let m = motion(&async_schedule("5"), None);
    let t = 3.7 / 4.1;
    let (i, f) = flight_released_at(&m.state_at(1e-9), 0.0);
    assert!((f.catch - f.release - t).abs() < 1e-9);
    let apex = m.state_at(t / 2.0).props[i].position.y;
    assert!(
        (apex - (1.0 + 9.81 * t * t / 8.0) as f32).abs() < 1e-4,
        "{apex}"
    );
    assert!((apex - 1.99866).abs() < 1e-4);
}

#[test]
fn catch_and_release_times_at_3_bps_dwell_1() {
    // 3 at 3 bps, dwell 1: the right hand's throw at t = 0 is caught by the left at
    // (3 - 1)/3 s and thrown again by it at beat 3 = 1 s.
    let settings = Settings {
        bps: Some(3.0),
        dwell: Dwell::Uniform(1.0),
        ..Settings::default()
    };
    let m = motion_with(&async_schedule("3"), settings, &[]);
    let (i, f) = flight_released_at(&m.state_at(0.01), 0.0);
    assert!(f.release.abs() < 1e-9);
    assert!((f.catch - 2.0 / 3.0).abs() < 1e-9);
    let held = m.state_at(0.8).props[i];
    assert_eq!(held.held_by, Some(HandRef::new(0, Hand::Left)));
    let thrown = m.state_at(1.01).props[i];
    let f2 = thrown.flight.expect("thrown again at 1 s");
    assert!((f2.release - 1.0).abs() < 1e-9);
    assert_eq!(f2.from, HandRef::new(0, Hand::Left));
}

#[test]
fn ones_are_handed_across_low_and_early() {
    // 51 at 4.1 bps: the 1 thrown on beat 1 leaves 0.6 beat early (0.4 beat = 0.09756 s)
    // and flies 0.3 beat, rising g (0.3/4.1)²/8 = 6.6 mm.
    let m = motion(&async_schedule("51"), None);
    let release = 0.4 / 4.1;
    let (i, f) = flight_released_at(&m.state_at(release + 1e-6), release);
    assert_eq!(f.value, 1);
    assert!((f.release - release).abs() < 1e-9);
    assert!((f.catch - 0.7 / 4.1).abs() < 1e-9);
    let mid = m.state_at(release + 0.15 / 4.1).props[i].position.y;
    let rise = 9.81 * (0.3f64 / 4.1).powi(2) / 8.0;
    assert!((mid as f64 - 1.0 - rise).abs() < 1e-4, "{mid}");
}

#[test]
fn held_twos_never_fly_and_loop_after_the_lcm() {
    // 42: the left hand holds one prop; the 4s have 2 props: loop = 2 beats x lcm(2, 1).
    let m = motion(&async_schedule("42"), None);
    assert_eq!(m.bps(), 3.4);
    assert!((m.loop_duration() - 4.0 / 3.4).abs() < 1e-12);
    let left = HandRef::new(0, Hand::Left);
    let s0 = m.state_at(0.0);
    let held: Vec<usize> = (0..3)
        .filter(|&i| s0.props[i].held_by == Some(left))
        .collect();
    assert_eq!(held.len(), 1);
    for k in 0..50 {
        let s = m.state_at(k as f64 * 0.05);
        assert_eq!(s.props[held[0]].held_by, Some(left));
        // A hand with nothing to do rests 0.25 m out.
        assert!(s.hands[0][0].position.distance(Vec3::new(0.25, 1.0, 0.3)) < 1e-6);
    }
}

#[test]
fn sync_hands_throw_together_and_passes_land_in_the_partners_frame() {
    let m = motion(&sync_44(), None);
    let s = m.state_at(1e-9);
    let released: Vec<_> = s
        .props
        .iter()
        .filter_map(|p| p.flight)
        .filter(|f| f.release.abs() < 1e-6)
        .collect();
    assert_eq!(released.len(), 2);
    assert!(released.iter().all(|f| f.from == f.to));

    let schedule = passing_3p();
    let m = motion(&schedule, None);
    let layout = Layout::circle(2);
    let (i, f) = flight_released_at(&m.state_at(1e-9), 0.0);
    assert_eq!(
        (f.from, f.to),
        (HandRef::new(0, Hand::Right), HandRef::new(1, Hand::Left))
    );
    let end = m.state_at(f.catch - 1e-9).props[i].position;
    let expected = layout.jugglers[1].to_world(Vec3::new(0.30, 1.0, 0.3));
    assert!(end.distance(expected) < 1e-4, "{end} vs {expected}");
}

#[test]
fn synchronous_throws_stay_ten_centimetres_out() {
    // Juggling Lab's table throws a 6 or an 8 from 5 cm out; hands throwing at once throw from
    // 10 cm (a synchronous 4's point), hands taking turns keep 5 cm.
    for (pattern, out) in [
        ("(6,6)", 0.10),
        ("(8,8)", 0.10),
        ("(4,4)", 0.10),
        ("6", 0.05),
    ] {
        let m = motion(&super::testutil::schedule(pattern), None);
        let s = m.state_at(1e-9);
        let (_, f) = flight_released_at(&s, 0.0);
        let hand = m.state_at(f.release).hands[0][f.from.hand.index()].position;
        assert!(
            (hand.x.abs() - out).abs() < 1e-4,
            "{pattern}: throws from {} out",
            hand.x.abs()
        );
    }
}

#[test]
fn multiplex_props_fly_side_by_side() {
    let m = motion(&async_schedule("[33]"), None);
    assert_eq!(m.prop_count(), 6);
    let s = m.state_at(0.05);
    let pair: Vec<&PropState> = s
        .props
        .iter()
        .filter(|p| p.flight.is_some_and(|f| f.release.abs() < 1e-9))
        .collect();
    assert_eq!(pair.len(), 2);
    let gap = pair[0].position.distance(pair[1].position);
    assert!((gap - MULTIPLEX_SPREAD as f32).abs() < 1e-4, "{gap}");
}

#[test]
fn bounce_slows_the_automatic_tempo_and_touches_the_floor() {
    // JL runs 3B at 1.628 bps instead of 2.90 (the lift needs about 1.03 s with the centre
    // falling 1.00 m to the floor); the ball's centre stops 5 cm above the floor here, so
    // the lift is a little shorter and the tempo 1.671 bps.
    let m = motion(&async_schedule("3B"), None);
    assert!((m.bps() - 1.671).abs() < 0.005, "{}", m.bps());
    let (i, f) = flight_released_at(&m.state_at(1e-9), 0.0);
    let lowest = (0..=4000)
        .map(|k| {
            m.state_at(f.release + (f.catch - f.release) * k as f64 / 4000.0)
                .props[i]
                .position
                .y
        })
        .fold(f32::MAX, f32::min);
    // The 10 cm ball's surface touches the floor: its centre bottoms out at its radius,
    // never inside the floor (regression: the centre used to reach y = 0).
    assert!((0.05..0.0515).contains(&lowest), "{lowest}");
}

#[test]
fn custom_points_make_a_reverse_cascade() {
    let reverse = [DwellPoints {
        catch: [0.1, 0.0, 0.0],
        throw: [0.3, 0.05, 0.0],
    }];
    let m = motion_with(&async_schedule("3"), Settings::default(), &reverse);
    // The right hand throws at t = 0 from 0.30 m out, 5 cm above the hand plane.
    let s = m.state_at(0.0);
    assert!(s.hands[0][1].position.distance(Vec3::new(-0.3, 1.05, 0.3)) < 1e-6);
    let (_, f) = flight_released_at(&m.state_at(1e-9), 0.0);
    let catch = m.state_at(f.catch).hands[0][0].position;
    assert!(catch.distance(Vec3::new(0.1, 1.0, 0.3)) < 1e-5, "{catch}");
}

#[test]
fn cascade_hand_path_scoops_like_a_juggler() {
    // Regression: Juggling Lab's minimum-acceleration path spreads the throwing push over the
    // whole dwell, so the hand sank 25 cm below the hand plane (thigh level, arm hanging
    // straight). With a 12 cm push before the release and a 6.5 cm give after the catch the
    // 3-ball hand dips about 13 cm. After the release the hand stops within 3.6 cm (2.99 m/s at
    // 120 m/s²) and drifts up 2 cm more on its way out, 5.3 cm in all (Juggling Lab's path
    // follows the ball up 13 cm). Catch
    // outside (giving 1.6 cm further out along the ball's path), carry down and inward, throw
    // near the centre.
    let m = motion(&async_schedule("3"), None);
    let (mut low, mut high, mut inner, mut outer) = (f32::MAX, f32::MIN, f32::MAX, f32::MIN);
    let mut low_x = 0.0;
    for k in 0..1000 {
        let p = m.state_at(m.hand_period() * k as f64 / 1000.0).hands[0][1].position;
        if p.y < low {
            low = p.y;
            low_x = -p.x;
        }
        high = high.max(p.y);
        inner = inner.min(-p.x);
        outer = outer.max(-p.x);
        assert!((p.z - 0.3).abs() < 1e-6, "stays in the hand plane");
    }
    assert!((1.0 - low - 0.128).abs() < 0.005, "dip {}", 1.0 - low);
    assert!((high - 1.0 - 0.053).abs() < 0.005, "rise {}", high - 1.0);
    // The bottom of the scoop lies between the catch (0.30 out) and the throw (0.12 out).
    assert!((0.15..0.25).contains(&low_x), "bottom at {low_x} out");
    assert!(inner > 0.09 && outer < 0.32, "{inner}..{outer}");
    // 12 cm below the throw point along the launch direction, 2 x 0.12 / 2.99 s before the
    // release, the push starts (launch velocity (0.717, 2.900) m/s).
    let v = DVec3::new(0.42 / (1.7 / 2.9), 9.81 * 1.7 / 2.9 / 2.0, 0.0);
    let tau = 2.0 * hand_path::WINDUP_DISTANCE / v.length();
    let start = m.state_at(m.hand_period() - tau).hands[0][1]
        .position
        .as_dvec3();
    let expected = DVec3::new(-0.12, 1.0, 0.3) - v * (tau / 2.0);
    assert!(start.distance(expected) < 1e-6, "{start} vs {expected}");
}

#[test]
fn a_hand_catching_a_flat_pass_stops_in_front_of_the_body() {
    // `<3p|2p>`: juggler 2's 2p is a fast flat pass (about 7 m/s toward the catcher's chest).
    // The catching hand meets it moving with it, then stops `FLAT_CATCH_GIVE` (8 cm) along
    // its path: within 0.15 s of every catch the hand moves at most 9 cm further along the
    // prop's horizontal direction. Without that give it swung 24 cm back, to 8 cm in front of the body's
    // axis, and the hands came within 18.4 cm of the axis (a held ring's rim entered the torso).
    let schedule = async_schedule("<3p|2p>");
    let m = motion(&schedule, None);
    let steps = 2000;
    let step = m.loop_duration() / steps as f64;
    let (mut catches, mut farthest, mut nearest_axis) = (0, 0.0f32, f32::INFINITY);
    for k in 0..steps {
        let (t0, t1) = (k as f64 * step, (k + 1) as f64 * step);
        let (before, after) = (m.state_at(t0), m.state_at(t1));
        for (a, b) in before.props.iter().zip(&after.props) {
            let (Some(by), Some(flight)) = (b.held_by, a.flight) else {
                continue;
            };
            catches += 1;
            let at = m.hand_at(by, flight.catch).position;
            let v = a.velocity;
            let along = Vec3::new(v.x, 0.0, v.z).normalize_or_zero();
            for q in 0..=75 {
                let t = flight.catch + 0.002 * q as f64;
                farthest = farthest.max((m.hand_at(by, t).position - at).dot(along));
            }
        }
        for (j, hands) in after.hands.iter().enumerate() {
            let place = m.placement_at(j, t1);
            for h in hands {
                let local = place.to_local(h.position);
                nearest_axis = nearest_axis.min(Vec3::new(local.x, 0.0, local.z).length());
            }
        }
    }
    assert_eq!(
        catches, 20,
        "two catches a beat (one per juggler) over the 10-beat loop"
    );
    let give = hand_path::FLAT_CATCH_GIVE as f32;
    assert!(
        farthest <= give + 0.01,
        "a hand moves {farthest} m on after a catch"
    );
    assert!(
        nearest_axis >= 0.20,
        "a hand comes {nearest_axis} m from the body's axis"
    );
}

#[test]
fn very_high_throws_keep_the_hand_near_the_hand_plane() {
    // A 24 leaves at 20 m/s; matching that speed exactly would drag the hand to the floor
    // (JL: 8 cm above it). The hand's speed at the throw is capped, direction kept.
    let m = motion(&async_schedule("o"), None);
    let (mut low, mut high) = (f32::MAX, f32::MIN);
    for k in 0..2000 {
        let h = m.state_at(m.hand_period() * k as f64 / 2000.0).hands[0][1];
        low = low.min(h.position.y);
        high = high.max(h.position.y);
        assert!(h.velocity.length() <= hand_path::MAX_THROW_HAND_SPEED as f32 + 0.5);
    }
    assert!(low > 0.6 && high < 1.25, "{low}..{high}");
}

#[test]
fn flights_that_meet_their_own_repeat_are_laned_over_several_cycles() {
    // In `o` (24 balls at 4.4 bps) a hand throws every 2 beats, each ball 4.4 cm behind the
    // last along one parabola, so two of them level near the top are 4.4 cm apart whatever
    // lane the flight takes: the choreography is written over three cycles, whose flights
    // the lanes part; `z` over five, which divide its loop of 35 hand periods (three would
    // make it three times as long). `a` (10.3 cm), 9 and 531 keep one cycle, as do clubs
    // (laned sideways).
    let copies = |notation: &str, kind: PropKind| {
        let schedule = async_schedule(notation);
        let timing = Timing::new(&schedule, &Settings::default()).expect("valid settings");
        let layout = Layout::circle(schedule.jugglers);
        // Clubs keep one cycle: the hand period to compare with.
        let plain = from_schedule_per_juggler(&schedule, timing, &layout, &[], PropKind::Club);
        let c = from_schedule_per_juggler(&schedule, timing, &layout, &[], kind);
        (
            c.lane_copies,
            c.hand_period / plain.hand_period,
            c.tosses.len(),
        )
    };
    let (k, stretch, tosses) = copies("o", PropKind::Ball);
    assert_eq!(k, 3);
    assert!((stretch - 3.0).abs() < 1e-9, "{stretch}");
    assert_eq!(tosses, 6, "three throws of each hand");
    assert_eq!(copies("z", PropKind::Ring).0, 5);
    for (notation, kind) in [
        ("a", PropKind::Ball),
        ("9", PropKind::Ball),
        ("531", PropKind::Ring),
        ("o", PropKind::Club),
    ] {
        assert_eq!(
            copies(notation, kind),
            (1, 1.0, copies(notation, kind).2),
            "{notation}"
        );
    }
}

#[test]
fn higher_cascades_dip_more_but_stay_at_waist_level() {
    // The push before a throw grows with the launch speed (speed² / 120 m/s², 12 to 25 cm),
    // so higher cascades dip deeper, yet far less than Juggling Lab's 27-29 cm for 5 and 7
    // (the give after each catch ends at rest 6.5 cm down, and the scoop runs on from there).
    let mut previous = 0.0;
    for (pattern, dip_expected) in [("3", 0.128), ("5", 0.17), ("7", 0.2485)] {
        let m = motion(&async_schedule(pattern), None);
        let lowest = (0..1000)
            .map(|k| {
                m.state_at(m.hand_period() * k as f64 / 1000.0).hands[0][0]
                    .position
                    .y
            })
            .fold(f32::MAX, f32::min);
        let dip = 1.0 - lowest;
        assert!((dip - dip_expected).abs() < 0.005, "{pattern}: dip {dip}");
        assert!(dip > previous, "{pattern}: deeper than the lower cascade");
        previous = dip;
    }
}

#[test]
fn missing_or_broken_placements_fall_back_to_the_circle() {
    let schedule = passing_3p();
    let timing = Timing::new(&schedule, &Settings::default()).expect("valid");
    let broken = Layout {
        jugglers: vec![crate::layout::Placement {
            position: Vec3::new(f32::NAN, 0.0, 0.0),
            facing: 0.0,
        }],
    };
    let m = Motion::new(&schedule, timing, &broken, &[]);
    let reference = motion(&schedule, None);
    for k in 0..100 {
        let t = k as f64 * 0.0173;
        let (a, b) = (m.state_at(t), reference.state_at(t));
        assert_eq!(a.hands.len(), 2);
        for (p, q) in a.props.iter().zip(&b.props) {
            assert!(p.position.distance(q.position) < 1e-6);
        }
    }
    // Non-finite times are read as 0 rather than poisoning the state.
    let s = m.state_at(f64::NAN);
    assert!(s.props.iter().all(|p| p.position.is_finite()));
}

#[test]
fn custom_points_cycle_over_the_jugglers_tosses_like_juggling_lab_beats() {
    // Two entries on a cascade: the right hand (even beats) always uses the first, the left
    // hand (odd beats) the second, as Juggling Lab's per-beat `hands=` list does.
    let points = [
        DwellPoints {
            catch: [0.3, 0.0, 0.0],
            throw: [0.1, 0.0, 0.0],
        },
        DwellPoints {
            catch: [0.4, 0.0, 0.0],
            throw: [0.2, 0.0, 0.0],
        },
    ];
    let m = motion_with(&async_schedule("3"), Settings::default(), &points);
    assert!(
        (m.hand_period() - 2.0 / 2.9).abs() < 1e-12,
        "no extra repeats needed"
    );
    let beat = 1.0 / 2.9;
    for k in 0..6 {
        let s = m.state_at(k as f64 * beat);
        let (side, out) = if k % 2 == 0 { (1, -0.1) } else { (0, 0.2) };
        let p = s.hands[0][side].position;
        assert!((p.x - out).abs() < 1e-5, "beat {k}: {p}");
    }
}

/// Juggling Lab's `hands=` entry `i` belongs to beat `i` (a synchronous beat's right hand
/// `i + 1`), also where the hand holds (a 2) or is empty (a 0), and the hand goes to that
/// entry's points on such a beat too. Rubenstein's Revenge (35223, 5 beats a second, dwell 1)
/// with Juggling Lab's own points: its right hand catches on beat 1 and carries the ball
/// across to beat 2's entry (-30, 10) cm, where Juggling Lab's event for the held 2 is (its
/// `tojml`: x -30 z 10 at t 0.4), then on to (-5, 10) at 0.6 and throws from (-25, -10) at
/// 0.8. Counting only the tosses, as before, put its 0.4 s at x -2.5 cm on the wrong side.
/// The 3-Mills Simultaneous ((4x,4x)(0,4x)(4x,4x)(4x,0)) left hand, empty on beat 2, crosses
/// to that beat's entry (30, 40) (Juggling Lab: x -30 z 40 at t 0.3333, the left's x
/// mirrored).
#[test]
fn custom_points_go_by_beat_through_holds_and_empty_beats_like_juggling_lab() {
    let motion_of = |text: &str| {
        let text = crate::settings::read(text).expect(text);
        let (schedule, read) = (super::testutil::schedule(&text.pattern), text.settings);
        let timing = Timing::new(&schedule, &read).expect("valid settings");
        Motion::new(&schedule, timing, &Layout::circle(1), read.hands_of(0))
    };
    // World x of the hand = -(Juggling Lab's x) for both hands; height 1 m + z.
    let check = |m: &Motion, side: usize, t: f64, x_cm: f32, z_cm: f32| {
        let p = m.state_at(t).hands[0][side].position;
        let want = Vec3::new(-x_cm / 100.0, 1.0 + z_cm / 100.0, p.z);
        assert!(
            p.distance(want) < 0.012,
            "t {t} side {side}: {p} want {want}"
        );
    };
    let m = motion_of(
        "pattern=35223;bps=5;dwell=1.0;hands=(32.5,40)(7.5,30).(-25,-15)(-2.5).\
         (-30,10)(-5,10).(30,10)(7.5,5).(-25,-10)(17.5,-10).",
    );
    for (t, x, z) in [
        (0.0, 32.5, 40.0),
        (0.4, -30.0, 10.0),
        (0.6, -5.0, 10.0),
        (0.8, -25.0, -10.0),
    ] {
        check(&m, 1, t, x, z);
    }
    // Carried across without stopping first: at most 3.5 m/s on the way (a give that stopped
    // the hand sent it over at 6.4 m/s).
    let fastest = (0..100)
        .map(|k| {
            let t = 0.2 + 0.002 * k as f64;
            let (a, b) = (m.state_at(t), m.state_at(t + 0.002));
            a.hands[0][1].position.distance(b.hands[0][1].position) / 0.002
        })
        .fold(0.0, f32::max);
    assert!(fastest < 3.5, "{fastest} m/s");
    let m = motion_of(
        "pattern=(4x,4x)(0,4x)(4x,4x)(4x,0);bps=6;dwell=1.5;hands=(-25,10)(-10).\
         (-25,-5)(-10,-15).(30,40)(15,50).(30,40)(15,50).(-25,-5)(-10,-15).(-25,10)(-10).\
         (30,40)(15,50).(30,40)(15,50).",
    );
    check(&m, 0, 2.0 / 6.0, -30.0, 40.0);
    check(&m, 1, 2.0 / 6.0, 30.0, 40.0);
}

#[test]
fn motion_can_be_shared_across_threads() {
    fn shareable<T: Send + Sync>() {}
    shareable::<Motion>();
    shareable::<MotionState>();
}

/// Largest hand acceleration over one loop (m/s²), central differences of the exact hand
/// velocities at 2 kHz.
fn peak_hand_acceleration(m: &Motion) -> f64 {
    let h = 1e-4;
    let steps = (m.loop_duration() * 2000.0).ceil() as usize;
    let mut peak = 0.0_f64;
    for k in 0..steps {
        let t = k as f64 / 2000.0;
        for slot in 0..m.jugglers() * 2 {
            let hand = HandRef::from_slot(slot);
            let a = (m.hand_at(hand, t + h).velocity - m.hand_at(hand, t - h).velocity)
                / (2.0 * h) as f32;
            peak = peak.max(f64::from(a.length()));
        }
    }
    peak
}

#[test]
fn hands_are_eased_to_200_m_s2_where_the_timing_allows() {
    // Before easing: 801 332 m/s², b97531 227, 9 (a 9-ball cascade) 186; 91 339 (216 while
    // every give ended at rest: the 1 is thrown soon after the 9 is caught, so that give now
    // ends moving toward the throw); 711 301, then 271 with the catch keeping its give (the 1
    // caught at 5.7 m/s is thrown back the other way 0.14 s later: without the give and the
    // push the hand turns in one sweep, 159). Props gathered one after another for a
    // multiplex are caught with the hand sinking through their catches and giving after the
    // last (`[43]41` 251 while each of its gathered catches gave). `4(6,2)`'s right hand
    // throws the 2 and must catch 30 cm further out 78 ms later, `53(4,0)`'s left hand 87 ms
    // after a throw: 264 and 229 while the hand met every prop moving along its way; they now
    // sweep through those catches, sinking with the prop as they move across. `[234]57`'s
    // right hand throws its 5 at 18 cm and catches the 7 (the first of the three props it
    // gathers) 32 cm further out 78 ms later: 1 270 m/s² while it gave after each gathered
    // catch, 250 with the catch swept; it now sweeps through the throw too, rising into it at
    // a share of the 5's vertical speed.
    for pattern in [
        "801", "b97531", "9", "3", "531", "91", "711", "[43]41", "4(6,2)", "53(4,0)", "[234]57",
    ] {
        let m = motion(&async_schedule(pattern), None);
        let peak = peak_hand_acceleration(&m);
        eprintln!("{pattern}: {peak:.1} m/s²");
        assert!(peak <= 200.0, "{pattern}: {peak:.1} m/s²");
        // Swept or not, a hand meets every prop falling onto it moving down and rises into
        // every throw above a 2.
        for f in m.flight_times().iter().filter(|f| f.value >= 3) {
            let hand = m.hand_at(f.to, f.catch).velocity;
            assert!(
                hand.y < 0.0,
                "{pattern}: hand at {:.3} s moves {hand}",
                f.catch
            );
            let hand = m.hand_at(f.from, f.release).velocity;
            assert!(
                hand.y > 0.5,
                "{pattern}: hand at the throw at {:.3} s moves {hand}",
                f.release
            );
        }
    }
}

/// A choreography's hand lift (`Choreography::lifts`) moves the hand's whole path, its throw
/// and catch points with it: the hand still meets every event it throws or catches at, lifted,
/// held props stay in the hand, and each flight is a parabola from the lifted release point to
/// the lifted catch point.
#[test]
fn lifted_hands_throw_and_catch_at_their_lifted_points() {
    let schedule = async_schedule("3");
    let timing = Timing::new(&schedule, &Settings::default()).expect("valid settings");
    let mut ch = from_schedule(&schedule, timing, &Layout::circle(1), &[]);
    let plain = Motion::from_events(&ch, timing);
    let period = ch.hand_period;
    // The right hand (slot 1) rises and sinks 5 cm once a hand period.
    let lift = |t: f64| 0.05 * (std::f64::consts::TAU * t / period).sin();
    ch.lifts = vec![HandLift {
        slot: 1,
        period,
        values: (0..200).map(|k| lift(period * k as f64 / 200.0)).collect(),
    }];
    let lifted = Motion::from_events(&ch, timing);
    let right = HandRef::new(0, Hand::Right);
    let left = HandRef::new(0, Hand::Left);
    for k in 0..100 {
        let t = period * k as f64 / 100.0 + 0.003;
        // Held props are in their hands; flying ones are on their parabolas.
        let s = lifted.state_at(t);
        for p in &s.props {
            if let Some(by) = p.held_by {
                let hand = s.hands[by.juggler][by.hand.index()].position;
                assert!(p.position.distance(hand) < 1e-5);
            }
        }
    }
    // The right hand meets its events lifted.
    for e in &ch.hands[right.slot()] {
        let (a, b) = (plain.hand_at(right, e.time), lifted.hand_at(right, e.time));
        let want = a.position.as_dvec3() + DVec3::Y * lift(e.time);
        assert!(b.position.as_dvec3().distance(want) < 2e-4, "{}", e.time);
    }
    // The left hand is not lifted: it meets its events where it did (it moves a little
    // differently between them, meeting flights that arrive a little differently).
    for e in &ch.hands[left.slot()] {
        let (a, b) = (plain.hand_at(left, e.time), lifted.hand_at(left, e.time));
        assert!(a.position.distance(b.position) < 1e-6, "{}", e.time);
    }
    // Every flight of the right hand leaves from its lifted path and every flight to it ends there.
    for (i, toss) in ch.tosses.iter().enumerate() {
        let f = &lifted.flights[i];
        let duration = toss.catch - toss.release;
        if toss.from == right {
            let hand = lifted.hand_at(right, toss.release).position.as_dvec3();
            assert!(f.position(0.0).distance(hand) < 1e-6, "toss {i}");
        }
        if toss.to == right {
            let hand = lifted.hand_at(right, toss.catch).position.as_dvec3();
            assert!(f.position(duration).distance(hand) < 1e-6, "toss {i}");
        }
        // Still a free parabola under g.
        let (v0, v1) = (f.velocity(0.0), f.velocity(duration));
        assert!(((v0.y - v1.y) / duration - timing.gravity).abs() < 1e-6);
    }
}

#[test]
fn hands_of_a_juggler_who_walks_and_turns_travel_with_the_body() {
    // The cascade's juggler walks to one side and back and turns each way once a hand period:
    // the hands are fitted in the juggler's own frame, so they stay in front of the body all
    // the time (fitted in the world, the left hand crosses 20 cm past the middle while the
    // body turns a radian between its events at 1 beat a second), meet every flight where it
    // starts and ends, and throw with the prop's velocity as a standing juggler's hands do.
    let walk = |bps: f64, way: f32, turn: f32| {
        let schedule = async_schedule("3");
        let settings = Settings {
            bps: Some(bps),
            ..Settings::default()
        };
        let timing = Timing::new(&schedule, &settings).expect("valid settings");
        let mut ch = from_schedule(&schedule, timing, &Layout::circle(1), &[]);
        let standing = Motion::from_events(&ch, timing);
        let period = ch.hand_period;
        let key = |f: f64, x: f32, facing: f32| {
            (
                period * f,
                Placement {
                    position: Vec3::new(x, 0.0, 0.0),
                    facing,
                },
            )
        };
        ch.jugglers = vec![JugglerPath {
            keys: vec![
                key(0.0, 0.0, 0.0),
                key(0.25, way, turn),
                key(0.5, 0.0, 0.0),
                key(0.75, -way, -turn),
            ],
            period,
        }];
        let walking = Motion::from_events(&ch, timing);
        (ch, standing, walking)
    };
    // Slowly (a hand period of 2 s), far: the hands stay in front.
    let (_, _, walking) = walk(1.0, 0.3, 1.0);
    let period = walking.hand_period();
    for k in 0..500 {
        let t = period * k as f64 / 500.0;
        let place = walking.placement_at(0, t);
        for hand in Hand::BOTH {
            let local = place.to_local(walking.hand_at(HandRef::new(0, hand), t).position);
            assert!(local.z > 0.2 && local.z < 0.6, "t={t:.3} {hand:?} {local}");
            assert!(
                local.x * hand.side_sign() > -0.12,
                "t={t:.3} {hand:?} {local}"
            );
        }
    }
    // At the cascade's own tempo (2.9 beats a second), 15 cm and 0.3 rad each way.
    let (ch, standing, walking) = walk(2.9, 0.15, 0.3);
    for (i, toss) in ch.tosses.iter().enumerate() {
        let f = &walking.flights[i];
        let duration = toss.catch - toss.release;
        let at = |m: &Motion, h: HandRef, t: f64| m.hand_at(h, t);
        let thrower = at(&walking, toss.from, toss.release);
        assert!(f.position(0.0).distance(thrower.position.as_dvec3()) < 1e-5);
        let catcher = at(&walking, toss.to, toss.catch);
        assert!(f.position(duration).distance(catcher.position.as_dvec3()) < 1e-5);
        // The hand leaves with the prop as closely as a standing juggler's does.
        let gap = |m: &Motion, h: HandRef| {
            (m.flights[i].velocity(0.0) - at(m, h, toss.release).velocity.as_dvec3()).length()
        };
        let (walk, stand) = (gap(&walking, toss.from), gap(&standing, toss.from));
        assert!(walk < stand + 1e-3, "toss {i}: {walk} vs {stand}");
    }
}
