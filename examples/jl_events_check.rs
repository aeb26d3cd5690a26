//! Local check, not run in CI: over every event-defined pattern of the Juggling Lab files given,
//! the hand is at each event's position at its time, the loop is seamless and held props stay
//! at their hand. `cargo run --example jl_events_check -- /path/to/patterns/*.jml`
use juggler::files::jml;
use juggler::motion::Motion;
use juggler::types::HandRef;
fn main() {
    let (mut n, mut good) = (0, 0);
    let mut worst_event = 0.0f64;
    let mut worst_loop = 0.0f32;
    let mut worst_held = 0.0f32;
    for path in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&path).unwrap();
        let import = jml::import_lenient(&text, &path).unwrap();
        for p in &import.patterns {
            let Some(source) = p.spec.source.events() else {
                continue;
            };
            n += 1;
            let ev = &source.pattern;
            let timing = juggler::motion::Timing {
                bps: ev.bps(),
                dwell: 1.3,
                gravity: 9.8,
            };
            let m = Motion::from_events(ev.choreography(), timing);
            let mut ok = true;
            for (slot, events) in ev.choreography().hands.iter().enumerate() {
                for e in events {
                    let h = HandRef::from_slot(slot);
                    let pl = m.placement_at(h.juggler, e.time);
                    let want = pl.to_world(e.position.as_vec3()).as_dvec3();
                    let got = m.hand_at(h, e.time).position.as_dvec3();
                    let d = (got - want).length();
                    worst_event = worst_event.max(d);
                    if d > 1e-3 {
                        ok = false;
                    }
                }
            }
            let l = m.loop_duration();
            for k in 0..200 {
                let t = l * k as f64 / 200.0 + 0.001;
                let a = m.state_at(t);
                let b = m.state_at(t + l);
                for (x, y) in a.props.iter().zip(&b.props) {
                    if !x.position.is_finite() {
                        ok = false;
                    }
                    worst_loop = worst_loop.max(x.position.distance(y.position));
                    if let Some(h) = x.held_by {
                        let d = x
                            .position
                            .distance(a.hands[h.juggler][h.hand.index()].position);
                        worst_held = worst_held.max(d);
                    }
                }
            }
            if ok {
                good += 1
            } else {
                println!("FAIL {}", p.spec.name);
            }
        }
    }
    println!("{good}/{n} event patterns: hand at every event (worst {worst_event:.2e} m), loop worst {worst_loop:.2e} m, held prop to hand worst {worst_held:.3} m");
}
