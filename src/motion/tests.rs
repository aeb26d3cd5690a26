//! Whole-motion tests: worked examples with hand-computed numbers and invariants.

use glam::Vec3;

use super::testutil::{async_schedule, passing_3p, sync_44};
use super::*;
use crate::spec::Settings;

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
