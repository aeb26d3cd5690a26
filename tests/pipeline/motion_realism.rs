//! Props fly as real props, over every pattern of the shipped library and every valid shared
//! vector, with balls, clubs and rings, at 500 sampled times each:
//! - a flying ball accelerates at exactly gravity (fitted g within 1 %, no sideways
//!   acceleration) except around a bounce (patterns with `B`), and so does the centre of mass
//!   (`PropPose::position`) of a flying club or ring wherever the ball in the same pattern does;
//! - a ring shows its face to the audience: in flight its normal lies within 45° of some
//!   juggler's facing direction (the thrower's and catcher's facings are the ends of its turn),
//!   in the hand within 45° of the holder's.

use crate::common;

use glam::Vec3;

use juggler::body::props::{CLUB_LENGTH, CLUB_PIVOT_FROM_KNOB};
use juggler::scene::Scene;
use juggler::spec::PatternSpec;
use juggler::types::{Hand, HandRef, PropKind};

const SAMPLES: usize = 500;
/// Time step of the second difference, seconds.
const H: f64 = 0.02;

fn all_specs() -> Vec<PatternSpec> {
    common::vector_and_library_specs()
}

fn with_prop(spec: &PatternSpec, kind: PropKind) -> Scene {
    let mut spec = spec.clone();
    spec.settings.prop = kind;
    Scene::new(&spec).expect("valid pattern")
}

/// Fastest change over `scene`'s loop, sampled every millisecond: the largest of `change`
/// (between one pose and the next) per second, and when it happened.
fn fastest_per_ms(
    scene: &Scene,
    change: impl Fn(&juggler::body::Pose, &juggler::body::Pose) -> f32,
) -> (f32, f64) {
    let dt = 0.001;
    let mut fastest = (0.0_f32, 0.0);
    let mut prev = scene.pose_at(0.0);
    for k in 1..=(scene.loop_duration() / dt).ceil() as usize {
        let t = k as f64 * dt;
        let pose = scene.pose_at(t);
        let v = change(&prev, &pose) / dt as f32;
        if v > fastest.0 {
            fastest = (v, t);
        }
        prev = pose;
    }
    fastest
}

/// How far the elbows of the first juggler moved from `a` to `b` (the farther of the two).
fn elbows_moved(a: &juggler::body::Pose, b: &juggler::body::Pose) -> f32 {
    (0..2)
        .map(|side| {
            b.jugglers[0].arms[side]
                .elbow
                .distance(a.jugglers[0].arms[side].elbow)
        })
        .fold(0.0, f32::max)
}

/// Second difference of prop `i`'s position around `t`, or `None` unless it flies throughout.
fn acceleration(scene: &Scene, i: usize, t: f64) -> Option<Vec3> {
    let p: Vec<_> = [t - H, t, t + H]
        .iter()
        .map(|&s| scene.pose_at(s).props[i])
        .collect();
    if p.iter().any(|p| p.held_by.is_some()) {
        return None;
    }
    let a = (p[2].position.as_dvec3() - 2.0 * p[1].position.as_dvec3() + p[0].position.as_dvec3())
        / (H * H);
    Some(a.as_vec3())
}

/// Clubs thrown to oneself that no lane beside clears look once more, in depth too, with
/// every flight laned (`flight_lanes.rs`): in `722[65][21]` the held club and a club rising
/// past it met (−2.9 cm); now clear (+1.1).
#[test]
fn a_club_no_lane_beside_clears_passes_in_front_or_behind() {
    let scene = with_prop(&PatternSpec::from_notation("722[65][21]"), PropKind::Club);
    let c = crate::contacts::measure(&scene, 480.0);
    eprintln!(
        "722[65][21] clubs: {:+.4} m ({})",
        c.props.value, c.props.what
    );
    assert!(c.props.value > 0.0, "{}", c.props.what);
}

/// A juggler who turns while props are in the air (Juggling Lab's "Turning in circles" and
/// "5 ball half-pirouettes" bodies): clubs and rings still fly exact parabolas. A flying
/// prop's attitude runs from the thrower's attitude at the release to the catcher's at the
/// catch; taken from where the jugglers stand at each moment instead, the centre of mass of a
/// club (offset from the grip along its axis) swung with the turn (0.5 m/s² off g in the first,
/// 0.9 sideways in the second).
#[test]
fn a_turning_jugglers_clubs_and_rings_fly_parabolas() {
    for text in [
        "pattern=5;body=(0)...(90)...(180)...(270)...",
        "pattern=555555888222;bps=5;body=(90).........(90).(180).(270).(270).........(270).(0).(90).",
    ] {
        let spec = PatternSpec::parse(text).expect("valid pattern");
        for kind in [PropKind::Club, PropKind::Ring] {
            let scene = with_prop(&spec, kind);
            let g = scene.timing().gravity;
            let (mut checked, mut worst) = (0, 0.0f32);
            let steps = 400;
            for k in 0..steps {
                let t = 0.5 * H + scene.loop_duration() * k as f64 / steps as f64;
                for i in 0..scene.pose_at(t).props.len() {
                    let Some(a) = acceleration(&scene, i, t) else {
                        continue;
                    };
                    let off = (a + Vec3::Y * g as f32).length();
                    worst = worst.max(off);
                    checked += 1;
                }
            }
            eprintln!("{text} {kind:?}: {checked} samples, off g by at most {worst:.4} m/s²");
            assert!(checked > 300, "{text} {kind:?}: only {checked} samples in flight");
            assert!(worst < 0.01 * g as f32, "{text} {kind:?}: {worst} m/s² off g");
        }
    }
}

#[test]
fn clubs_and_rings_fly_ballistically_and_rings_face_the_audience() {
    let (mut checked, mut balls_checked) = (0usize, 0usize);
    let mut off_parabola: Vec<String> = Vec::new();
    let mut worst_g = 0.0f64;
    let (mut worst_ring, mut worst_held_ring, mut worst_pass_ring) = (0.0f32, 0.0f32, 0.0f32);
    for spec in all_specs() {
        let name = format!("{} ({})", spec.name, spec.source.text());
        let balls = with_prop(&spec, PropKind::Ball);
        let g = balls.timing().gravity;
        let step = balls.loop_duration() / SAMPLES as f64;
        let scenes = [
            with_prop(&spec, PropKind::Club),
            with_prop(&spec, PropKind::Ring),
        ];
        for k in 0..SAMPLES {
            let t = 0.5 * H + k as f64 * step;
            for i in 0..balls.pose_at(t).props.len() {
                // Only where the ball itself flies a clean parabola (no bounce within ±H).
                let Some(ball) = acceleration(&balls, i, t) else {
                    continue;
                };
                if (f64::from(ball.y) + g).abs() > 0.01 * g || ball.x.abs() + ball.z.abs() > 0.05 {
                    if !spec.source.text().contains('B') {
                        off_parabola.push(format!("{name} ball {i} t={t:.4}: {ball:?}"));
                    }
                    continue;
                }
                balls_checked += 1;
                for scene in &scenes {
                    let Some(a) = acceleration(scene, i, t) else {
                        continue;
                    };
                    let fitted = -f64::from(a.y);
                    let error = (fitted - g).abs() / g;
                    worst_g = worst_g.max(error);
                    assert!(
                        error < 0.01 && f64::from(a.x.abs() + a.z.abs()) < 0.01 * g,
                        "{name}, prop {i} ({:?}) at t={t:.4}: acceleration {a:?}, g = {g}",
                        scene.spec().settings.prop
                    );
                    checked += 1;
                }
            }
            // Ring faces in flight (toward some juggler's facing) and in the hand (toward the
            // holder's, or turned edge on about the vertical for a pass); a pass flies edge
            // first (its normal across the way it travels).
            let pose = scenes[1].pose_at(t);
            let state = scenes[1].motion().state_at(t);
            for (i, ring) in pose.props.iter().enumerate() {
                let angle = |j: &juggler::body::JugglerPose| {
                    let facing = j.placement.rotate(Vec3::Z);
                    ring.axis.dot(facing).abs().clamp(0.0, 1.0).acos()
                };
                let pass = state.props[i]
                    .flight
                    .filter(|f| f.from.juggler != f.to.juggler);
                let best = match (ring.held_by, pass) {
                    (Some(h), _) => {
                        // Upright, turned about the vertical only next to a pass.
                        assert!(ring.axis.y.abs() < 1e-4, "{name}, ring {i}: held upright");
                        let p = &state.props[i];
                        let passing = [p.dwell_from, p.dwell_to]
                            .iter()
                            .any(|o| o.is_some_and(|o| o.juggler != h.juggler));
                        if passing {
                            0.0
                        } else {
                            let held = angle(&pose.jugglers[h.juggler]);
                            worst_held_ring = worst_held_ring.max(held);
                            held
                        }
                    }
                    (None, Some(_)) => {
                        let v = state.props[i].velocity;
                        let travel = Vec3::new(v.x, 0.0, v.z).normalize_or_zero();
                        let off = ring.axis.dot(travel).abs().clamp(0.0, 1.0).asin();
                        worst_pass_ring = worst_pass_ring.max(off);
                        off
                    }
                    (None, None) => {
                        let flying = pose
                            .jugglers
                            .iter()
                            .map(angle)
                            .fold(f32::INFINITY, f32::min);
                        worst_ring = worst_ring.max(flying);
                        flying
                    }
                };
                assert!(
                    best <= 45f32.to_radians() + 1e-4,
                    "{name}, ring {i} at t={t:.4}: normal {:?} is {:.1}° from every facing",
                    ring.axis,
                    best.to_degrees()
                );
            }
        }
    }
    eprintln!(
        "{checked} flying club/ring samples; worst fitted-g error {:.4} %, worst ring angle \
         {:.2}° in flight, {:.2}° in the hand, passes {:.2}° from edge first",
        worst_g * 100.0,
        worst_ring.to_degrees(),
        worst_held_ring.to_degrees(),
        worst_pass_ring.to_degrees()
    );
    eprintln!("{balls_checked} flying ball samples on the parabola");
    assert!(
        off_parabola.is_empty(),
        "balls off the parabola (no bounce): {off_parabola:#?}"
    );
    assert!(checked > 10_000, "only {checked} samples checked");
}

use crate::contacts::{
    segment_distance, segments_distance, CLUB_RADIUS, RING_HALF_WIDTH, RING_MID_RADIUS,
};
/// Points on a ring's rim checked against a torso (the chord misses the circle by 0.5 mm).
const RING_POINTS: usize = 32;

/// Clearance (metres, negative = overlap) of one prop from one juggler's head sphere and from
/// the torso capsule (`neck`, the base of the neck, to the middle of the hips; its upper cap
/// covers the neck up to the head) exactly as `juggler pose --json` reports them.
fn clearance(prop: &juggler::body::PropPose, j: &juggler::body::JugglerPose) -> (f32, f32) {
    let waist = (j.hips[0] + j.hips[1]) * 0.5;
    let (head, head_r, neck) = (j.head, j.dims.head_radius(), j.neck);
    let torso_r = j.dims.torso_radius();
    match prop.kind {
        PropKind::Ball => {
            let r = 0.5 * prop.size;
            (
                prop.position.distance(head) - head_r - r,
                segment_distance(prop.position, neck, waist) - torso_r - r,
            )
        }
        PropKind::Club => {
            let knob = prop.position - prop.axis * CLUB_PIVOT_FROM_KNOB;
            let tip = knob + prop.axis * CLUB_LENGTH;
            (
                segment_distance(head, knob, tip) - head_r - CLUB_RADIUS,
                segments_distance(knob, tip, neck, waist) - torso_r - CLUB_RADIUS,
            )
        }
        PropKind::Ring => {
            let n = prop.axis.normalize_or(Vec3::Z);
            // The rim point nearest the head: the head centre's direction within the ring plane.
            let d = head - prop.position;
            let inplane = (d - n * d.dot(n)).normalize_or(n.any_orthonormal_vector());
            let rim = prop.position + inplane * RING_MID_RADIUS;
            let (u, v) = (
                n.any_orthonormal_vector(),
                n.any_orthonormal_vector().cross(n),
            );
            let torso = (0..RING_POINTS)
                .map(|k| {
                    let a = std::f32::consts::TAU * k as f32 / RING_POINTS as f32;
                    let p = prop.position + (u * a.cos() + v * a.sin()) * RING_MID_RADIUS;
                    segment_distance(p, neck, waist)
                })
                .fold(f32::INFINITY, f32::min);
            (
                head.distance(rim) - head_r - RING_HALF_WIDTH,
                torso - torso_r - RING_HALF_WIDTH,
            )
        }
    }
}

/// Samples per second of the clearance check (a club tip at 8 m/s moves 3.3 cm between two).
const CLEARANCE_RATE: f64 = 240.0;

/// A closest approach: clearance (metres) and where it happens.
#[derive(Clone)]
struct Approach {
    clearance: f32,
    what: String,
}

impl Approach {
    fn none() -> Self {
        Approach {
            clearance: f32::INFINITY,
            what: String::new(),
        }
    }

    fn keep_least(&mut self, other: &Approach) {
        if other.clearance < self.clearance {
            *self = other.clone();
        }
    }
}

/// The closest approach of every `kind` prop of `spec` to any head and to any torso over the
/// loop, at least `SAMPLES` times and `CLEARANCE_RATE` times a second.
fn closest_approach(spec: &PatternSpec, kind: PropKind) -> (Approach, Approach, usize) {
    let scene = with_prop(spec, kind);
    let samples = SAMPLES.max((scene.loop_duration() * CLEARANCE_RATE).ceil() as usize);
    let step = scene.loop_duration() / samples as f64;
    let (mut head, mut torso) = ((f32::INFINITY, 0, 0, 0.0), (f32::INFINITY, 0, 0, 0.0));
    for k in 0..samples {
        let t = k as f64 * step;
        let pose = scene.pose_at(t);
        for (i, prop) in pose.props.iter().enumerate() {
            for (jn, j) in pose.jugglers.iter().enumerate() {
                let (h, b) = clearance(prop, j);
                if h < head.0 {
                    head = (h, i, jn, t);
                }
                if b < torso.0 {
                    torso = (b, i, jn, t);
                }
            }
        }
    }
    let describe = |(c, i, jn, t): (f32, usize, usize, f64), part: &str| {
        let held = scene
            .pose_at(t)
            .props
            .get(i)
            .is_some_and(|p| p.held_by.is_some());
        Approach {
            clearance: c,
            what: format!(
                "{} ({}), {kind:?} {i} {} at t={t:.3} s, juggler {}'s {part}",
                spec.name,
                spec.source.text(),
                if held { "held" } else { "flying" },
                jn + 1
            ),
        }
    };
    (describe(head, "head"), describe(torso, "torso"), samples)
}

/// No prop, held or flying, ever enters a head, neck or torso, its own juggler's or a
/// partner's: every ball (sphere), club (capsule from knob to tip at its widest radius) and
/// ring (rim) keeps clear of every juggler's head sphere and torso capsule (whose upper cap
/// covers the neck), over every library pattern (custom hand positions too) and every valid
/// shared vector, at least 500 times per loop and 240 times a second. A failure names every
/// pattern that enters a body, worst first.
#[test]
fn props_keep_clear_of_heads_necks_and_torsos() {
    let specs = all_specs();
    let started = std::time::Instant::now();
    let mut failures: Vec<Approach> = Vec::new();
    let mut poses = 0;
    for kind in [PropKind::Ball, PropKind::Club, PropKind::Ring] {
        let (mut head, mut torso) = (Approach::none(), Approach::none());
        for spec in &specs {
            let (h, b, samples) = closest_approach(spec, kind);
            poses += samples;
            head.keep_least(&h);
            torso.keep_least(&b);
            let worse = if h.clearance < b.clearance { h } else { b };
            if worse.clearance < 0.0 {
                failures.push(worse);
            }
        }
        eprintln!(
            "{kind:?}: closest to a head {:+.1} cm ({}); to a torso {:+.1} cm ({})",
            head.clearance * 100.0,
            head.what,
            torso.clearance * 100.0,
            torso.what
        );
    }
    eprintln!(
        "{} patterns × 3 props, {poses} poses in {:.2} s",
        specs.len(),
        started.elapsed().as_secs_f64()
    );
    assert!(specs.len() > 200, "only {} patterns", specs.len());
    failures.sort_by(|a, b| a.clearance.total_cmp(&b.clearance));
    let list: Vec<String> = failures
        .iter()
        .map(|f| format!("{:+.1} cm: {}", f.clearance * 100.0, f.what))
        .collect();
    assert!(
        failures.is_empty(),
        "{} pattern/prop pairs enter a body; the worst: {}\n{list:#?}",
        failures.len(),
        list[0]
    );
}

/// Highest centre of mass of any club over the loop.
fn club_peak(notation: &str) -> f32 {
    let spec = PatternSpec::from_notation(notation);
    let scene = with_prop(&spec, PropKind::Club);
    let step = scene.loop_duration() / 2000.0;
    (0..2000)
        .flat_map(|k| scene.pose_at(k as f64 * step).props)
        .map(|p| p.position.y)
        .fold(f32::MIN, f32::max)
}

#[test]
fn a_three_club_cascade_of_singles_peaks_above_the_head() {
    let spec = PatternSpec::from_notation("3");
    let scene = with_prop(&spec, PropKind::Club);
    let pose = scene.pose_at(0.0);
    let head_top = pose.jugglers[0].head.y + pose.jugglers[0].dims.head_radius();
    let peak = club_peak("3");
    eprintln!(
        "3-club peak {peak:.3} m, head top {head_top:.3} m, bps {}",
        scene.timing().bps
    );
    assert!(
        peak >= head_top,
        "peak {peak} below the head top {head_top}"
    );
    // Balls keep Juggling Lab's tempo.
    assert_eq!(with_prop(&spec, PropKind::Ball).timing().bps, 2.9);
}

/// Closest pair of props held in the same hand over the loop: the distance of their centres,
/// and for rings the distance of their planes (their centres' separation along the normal).
fn closest_in_one_hand(spec: &PatternSpec, kind: PropKind) -> (f32, f32) {
    let scene = with_prop(spec, kind);
    let step = scene.loop_duration() / SAMPLES as f64;
    let mut closest = (f32::INFINITY, f32::INFINITY);
    for k in 0..SAMPLES {
        let pose = scene.pose_at(k as f64 * step);
        for (i, a) in pose.props.iter().enumerate() {
            for b in &pose.props[i + 1..] {
                if a.held_by.is_some() && a.held_by == b.held_by {
                    let d = b.position - a.position;
                    closest.0 = closest.0.min(d.length());
                    closest.1 = closest.1.min(d.dot(a.axis).abs());
                }
            }
        }
    }
    closest
}

/// Props held together in one hand never overlap, from the catch to the throw: thrown together
/// (`[33]`), after a squeezed catch (`[54][22]2`), meeting from different catches (`[43]23`),
/// the held 2 of `[32]1` beside the prop caught from the 1, held forever (`[22]`), held
/// forever beside the props the hand juggles (`[32]`, `5[32]`, `[42]2`, `(2,[42])`: the lane
/// search slid the caught ring into the plane of the one held, 2.4 cm through its rim, until
/// it measured props held throughout), and in every multiplex of the library and the shared
/// vectors. Balls and clubs: centres at least a ball diameter (10 cm, wider than a club's
/// body) apart. Rings are stacked face to face: their planes at least 2 cm apart (a ring is
/// under 1 cm thick).
#[test]
fn props_held_in_one_hand_are_a_diameter_apart() {
    let named = [
        "[33]",
        "[32]1",
        "[43]23",
        "[54][22]2",
        "[32]",
        "5[32]",
        "[42]2",
        "(2,[42])",
    ]
    .map(PatternSpec::from_notation);
    let multiplexes = all_specs()
        .into_iter()
        .filter(|s| s.source.text().contains('['));
    let specs: Vec<_> = named.into_iter().chain(multiplexes).collect();
    assert!(specs.len() > 20, "only {} multiplex patterns", specs.len());
    for kind in [PropKind::Ball, PropKind::Club, PropKind::Ring] {
        let mut least = f32::INFINITY;
        for spec in &specs {
            let (centres, planes) = closest_in_one_hand(spec, kind);
            let d = if kind == PropKind::Ring {
                planes
            } else {
                centres
            };
            if ["[32]1", "[32]"].contains(&spec.source.text()) {
                eprintln!(
                    "{} {kind:?}: closest two in one hand {d:.4} m",
                    spec.source.text()
                );
            }
            let need = if kind == PropKind::Ring { 0.02 } else { 0.10 };
            assert!(d >= need, "{} {kind:?}: {d} m apart", spec.source.text());
            least = least.min(d);
        }
        eprintln!(
            "{kind:?}: least spacing {least:.4} m over {} patterns",
            specs.len()
        );
    }
}

/// One catch seen in the sampled poses.
struct CatchSample {
    value: u32,
    /// Prop speed just before the catch, m/s, and its direction's vertical share.
    speed: f32,
    down: f32,
    /// Hand speed along the prop's path / prop speed.
    ratio: f32,
    /// How far the hand moves down after the catch before turning up, metres.
    give: f32,
}

/// Every catch of one loop of `scene`, sampled at `rate` Hz.
fn catches(scene: &Scene, rate: f64) -> Vec<CatchSample> {
    let dt = 1.0 / rate;
    let steps = (scene.loop_duration() / dt) as usize;
    let poses: Vec<_> = (0..steps + 2)
        .map(|k| scene.pose_at(k as f64 * dt))
        .collect();
    let mut out = Vec::new();
    for k in 2..steps + 1 {
        for (i, p) in poses[k].props.iter().enumerate() {
            let prev = &poses[k - 1].props[i];
            let Some(h) = p.held_by.filter(|_| prev.held_by.is_none()) else {
                continue;
            };
            let Some(flight) = scene.motion().state_at((k - 1) as f64 * dt).props[i].flight else {
                continue;
            };
            let hand = |q: &juggler::body::Pose| q.jugglers[h.juggler].arms[h.hand.index()].hand;
            let prop_v = (prev.position - poses[k - 2].props[i].position) / dt as f32;
            let hand_v = (hand(&poses[k + 1]) - hand(&poses[k - 1])) / (2.0 * dt as f32);
            // At the catch instant itself (the motion's exact velocities) when it is known.
            let arrival = scene.motion().state_at(flight.catch - 1e-7).props[i];
            let ratio = if arrival.flight.is_some() {
                let hand_v = scene.motion().hand_at(h, flight.catch).velocity;
                hand_v.dot(arrival.velocity.normalize()) / arrival.velocity.length()
            } else {
                hand_v.dot(prop_v.normalize()) / prop_v.length()
            };
            let y0 = hand(&poses[k]).y;
            let mut low = y0;
            // The loop repeats: follow the hand past its end.
            for m in 0..steps {
                let y = hand(&poses[(k + m) % steps]).y;
                if y > low + 1e-4 {
                    break;
                }
                low = y;
            }
            out.push(CatchSample {
                value: flight.value,
                speed: prop_v.length(),
                down: -prop_v.normalize().y,
                ratio,
                give: y0 - low,
            });
        }
    }
    out
}

/// Least ratio (hand speed along the prop's path / prop speed) over every catch of a throw
/// ≥ 3, and least distance the hand moves down after such a catch before turning up, sampled
/// at 960 Hz.
fn catch_give(notation: &str, kind: PropKind) -> (f32, f32) {
    let scene = with_prop(&PatternSpec::from_notation(notation), kind);
    catches(&scene, 960.0)
        .iter()
        .filter(|c| c.value >= 3)
        .fold((f32::INFINITY, f32::INFINITY), |(r, g), c| {
            (r.min(c.ratio), g.min(c.give))
        })
}

/// Catches give: the catching hand moves along the incoming prop at ≥ 40 % of its speed
/// (45 % planned, `CATCH_MIN_SPEED_FRACTION`) and moves ≥ 5 cm down after the catch before
/// turning up (6.5 cm planned, `CATCH_GIVE`), for every catch of a throw ≥ 3, with balls,
/// clubs and rings.
#[test]
fn catching_hands_move_with_the_prop() {
    for notation in ["3", "5", "51", "531", "441"] {
        for kind in [PropKind::Ball, PropKind::Club, PropKind::Ring] {
            let (ratio, give) = catch_give(notation, kind);
            eprintln!(
                "{notation} {kind:?}: least catch speed ratio {ratio:.3}, least give {give:.3} m"
            );
            assert!(
                ratio >= 0.40,
                "{notation} {kind:?}: hand at {ratio} of the prop's speed"
            );
            assert!(
                give >= 0.05,
                "{notation} {kind:?}: the hand gives only {give} m"
            );
        }
    }
}

/// The same over the library and the shared vectors with balls, clubs and rings (480 Hz, at
/// least 500 samples a loop), for
/// every catch of a throw ≥ 3 arriving downward (a bounce caught rising is not one). The one
/// exception, by design: the hand's least catch speed is capped at `CATCH_MIN_SPEED_CAP`
/// (4 m/s), so a prop arriving faster than 4 / 0.45 ≈ 8.9 m/s (a 10 or higher at 2.9 beats per
/// second) meets a hand at 4 m/s, not 40 % of its speed; those catches must still give 5 cm.
#[test]
fn catches_give_over_the_library_with_every_prop() {
    use juggler::motion::{CATCH_MIN_SPEED_CAP, CATCH_MIN_SPEED_FRACTION};
    let capped_above = (CATCH_MIN_SPEED_CAP / CATCH_MIN_SPEED_FRACTION) as f32;
    let (mut count, mut capped, mut least_give, mut least_ratio) =
        (0, 0, f32::INFINITY, f32::INFINITY);
    let mut bad = Vec::new();
    for spec in all_specs() {
        for kind in [PropKind::Ball, PropKind::Club, PropKind::Ring] {
            let scene = with_prop(&spec, kind);
            for c in catches(&scene, 480f64.max(500.0 / scene.loop_duration())) {
                if c.value < 3 || c.down < 0.3 {
                    continue;
                }
                count += 1;
                least_give = least_give.min(c.give);
                if c.speed > capped_above {
                    capped += 1;
                } else {
                    least_ratio = least_ratio.min(c.ratio);
                }
                let slow = c.ratio < 0.40 && c.speed <= capped_above;
                if c.give < 0.05 || slow {
                    bad.push(format!(
                        "{} {kind:?}: a {} caught at {:.2} m/s, hand at {:.3} of it, give {:.3} m",
                        spec.source.text(),
                        c.value,
                        c.speed,
                        c.ratio,
                        c.give
                    ));
                }
            }
        }
    }
    eprintln!(
        "{count} catches ({capped} above {capped_above:.1} m/s): least give {least_give:.4} m, \
         least speed ratio {least_ratio:.3}"
    );
    assert!(count > 1000, "only {count} catches seen");
    assert!(bad.is_empty(), "{} catches fail: {bad:#?}", bad.len());
}

/// The contact measures (`contacts.rs`) of every library pattern, shared vector and JML test
/// file with balls, clubs and rings, at 160 poses a second (at least 500 a loop).
fn library_contacts() -> Vec<crate::contacts::Contacts> {
    let mut specs = all_specs();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/jml_events");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("jml_events readable")
        .map(|e| e.expect("dir entry").path())
        .collect();
    files.sort();
    for file in files {
        specs.extend(juggler::files::load_path(&file).unwrap_or_else(|e| panic!("{e}")));
    }
    let mut out = Vec::new();
    for spec in &specs {
        for kind in [PropKind::Ball, PropKind::Club, PropKind::Ring] {
            out.push(crate::contacts::measure(&with_prop(spec, kind), 160.0));
        }
    }
    out
}

/// Picks one measure of a scene's contacts.
type Pick = fn(&crate::contacts::Contacts) -> &crate::contacts::Worst;

/// The worst of one measure over `all`, printed with how many scenes pass `ok`; the scenes
/// that fail it.
fn report(
    all: &[crate::contacts::Contacts],
    label: &str,
    pick: Pick,
    ok: impl Fn(f32) -> bool,
) -> Vec<String> {
    let failing: Vec<String> = all
        .iter()
        .map(pick)
        .filter(|w| !ok(w.value))
        .map(|w| format!("{:+.4}: {}", w.value, w.what))
        .collect();
    let worst = all
        .iter()
        .map(pick)
        .min_by(|a, b| {
            if ok(f32::NEG_INFINITY) {
                b.value.total_cmp(&a.value)
            } else {
                a.value.total_cmp(&b.value)
            }
        })
        .expect("scenes measured");
    eprintln!(
        "{label}: {} of {} scenes fail; worst {:+.4} ({})",
        failing.len(),
        all.len(),
        worst.value,
        worst.what
    );
    failing
}

/// Contacts over the library, the shared vectors and the JML test files, with every prop:
/// elbows no more than 5 cm behind the shoulders' frontal plane, no two props overlapping by
/// more than 1 cm, hands no closer than 6 cm, no prop in an arm away from its own throw and
/// catch, hand acceleration within 200 m/s². These hold for most scenes; the scenes that still
/// fail (clubs crossing in synchronous patterns and multiplexes, rings thrown in one column by
/// one hand, hands meeting in synchronous fountains, short dwells in custom hand paths) may not
/// grow in number. The counts and the worst cases are printed.
#[test]
fn props_hands_and_arms_keep_clear_over_the_library() {
    let started = std::time::Instant::now();
    let all = library_contacts();
    let samples: usize = all.iter().map(|c| c.samples).sum();
    eprintln!(
        "{} scenes, {samples} poses in {:.1} s",
        all.len(),
        started.elapsed().as_secs_f64()
    );
    assert!(all.len() > 600, "only {} scenes", all.len());
    let of_kind = |kind: &str| -> Vec<crate::contacts::Contacts> {
        all.iter()
            .filter(|c| c.props.what.contains(kind))
            .cloned()
            .collect()
    };
    // Scenes that still fail, by measure (limits, not goals: see the doc above). Elbows: none,
    // since pass wind-ups go down, not back, and elbows the body puts far behind are turned
    // forward (`scene/elbow_forward.rs`); hands: none, since events lying on the other hand
    // are parted; clubs overlapping: 1, `o` (docs/motion.md: props on one parabola; 2 before
    // held clubs leaned aside, `scene/held_leans.rs`: Juggling Lab's Rubenstein's Revenge
    // hands, −7.3 → +1.5 cm); balls and rings overlapping: none (1 each, `o`, before a
    // flight meeting its own repeat was laned over three cycles, `flight_lanes.rs`: −5.6 →
    // +1.7 cm and −1.1 → −0.4 cm); props in an arm:
    // none, the issue's limit (2 before hands stepped aside for a prop's last moments before
    // its catch, `scene/catch_dips.rs`: the bounced ring and club of the JML file "Bounce,
    // soft catches and a held ball", −4.7 and −0.35 cm; 3 before forearm lifts kept 4 mm from
    // a held club: the Mills Mess with Juggling Lab's hands and clubs, −0.04 → +0.63 cm); hand
    // acceleration: none (19 before gives could end moving, 13 before a catch and a throw next
    // to a piece still too sharp could go without their give and push: `711`, 11 before props
    // gathered for a multiplex were caught at one point without a give each: `[43]41`, 9
    // before a path still well above 200 m/s² could sweep through its catches: `4(6,2)`,
    // `53(4,0)`, the JML 1.0 test file, 2 before a hand on its own side of the body sweeps as
    // soon as its path is above 200: `13(4,4)` with balls and rings, a hand that throws and
    // must catch 28 cm further out 93 ms later, 202 → 181 m/s²).
    let limits: [(&str, Pick, f32, bool, usize); 8] = [
        (
            "elbow behind the shoulders (m)",
            |c| &c.elbow_behind,
            0.05,
            true,
            0,
        ),
        ("ball overlap (m)", |c| &c.props, -0.01, false, 0),
        ("ring overlap (m)", |c| &c.props, -0.01, false, 0),
        ("club overlap (m)", |c| &c.props, -0.01, false, 1),
        ("hands apart (m)", |c| &c.hands, 0.06, false, 0),
        ("forearms apart (m)", |c| &c.forearms, 0.0, false, 0),
        ("prop-arm clearance (m)", |c| &c.arms, 0.0, false, 0),
        (
            "hand acceleration (m/s²)",
            |c| &c.acceleration,
            200.0,
            true,
            0,
        ),
    ];
    let mut over = Vec::new();
    for (label, pick, limit, high_is_bad, allowed) in limits {
        let scenes = match label.split(' ').next() {
            Some("ball") => of_kind("Ball:"),
            Some("ring") => of_kind("Ring:"),
            Some("club") => of_kind("Club:"),
            _ => all.clone(),
        };
        let failing = report(&scenes, label, pick, |v| {
            if high_is_bad {
                v <= limit
            } else {
                v >= limit
            }
        });
        if std::env::var_os("CONTACTS_LIST").is_some() {
            eprintln!("{failing:#?}");
        }
        if failing.len() > allowed {
            over.push(format!(
                "{label}: {} scenes fail (at most {allowed}): {failing:#?}",
                failing.len()
            ));
        }
    }
    assert!(over.is_empty(), "{}", over.join("\n"));
}

/// The siteswaps a juggler types: every pattern `juggler gen` lists for 3 props up to 9
/// (periods 1–5), 4 up to 10 and 5 up to 11 (1–4), 6 up to 12 and 7 up to 11 (1–3), and the
/// synchronous ones of 4 props up to 8 and 5 up to 9 (periods 2–4) and 6 up to 10 (2):
/// 598 patterns, excited ones too, with balls, clubs and rings, at 160 poses a second. None
/// has props overlapping by more than 1 cm, a prop in an arm away from its own throw and
/// catch, hands closer than 6 cm, forearms through each other, an elbow more than 5 cm
/// behind the shoulders or a hand above 200 m/s² (`(8x,8x)(0,0)`'s clubs met 1.6 cm deep
/// until synchronous crossings could fly 36 cm apart in height, `80061`'s ring elbow was
/// 5.2 cm behind until the elbow plan weighed elbows past its trigger twice as much).
/// (Multiplexes are left to the library's test: of `gen 3 5 1-3 -m 2`'s 26, `4[11][21]` and
/// `1[51]2` with clubs still fail.)
#[test]
fn props_hands_and_arms_keep_clear_over_generated_siteswaps() {
    use juggler::tools::{generate, Query};
    let started = std::time::Instant::now();
    let sets: [(u32, u32, u32, u32, bool); 8] = [
        (3, 9, 1, 5, false),
        (4, 10, 1, 4, false),
        (5, 11, 1, 4, false),
        (6, 12, 1, 3, false),
        (7, 11, 1, 3, false),
        (4, 8, 2, 4, true),
        (5, 9, 2, 4, true),
        (6, 10, 2, 2, true),
    ];
    let mut patterns = std::collections::BTreeSet::new();
    for (props, max, lo, hi, sync) in sets {
        let mut query = Query::new(props, Some(max), lo);
        query.period_max = Some(hi);
        query.sync = sync;
        query.sequences = false;
        let generator = generate(&query).expect("a valid query");
        generator.for_each(&mut |found| {
            patterns.insert(found.pattern.to_string());
            true
        });
    }
    assert_eq!(patterns.len(), 598, "the generator's lists changed");
    let specs: Vec<PatternSpec> = patterns
        .iter()
        .map(|p| PatternSpec::from_notation(p))
        .collect();
    assert_every_measure_holds(&specs, started);
}

/// The four-handed siteswaps passers know by name (`tests/data/four_handed.txt`, passist's
/// named patterns, 93), each for two jugglers, with balls, clubs and rings at 160 poses a
/// second: every measure of `props_hands_and_arms_keep_clear_over_generated_siteswaps` holds.
#[test]
fn props_hands_and_arms_keep_clear_over_passist_named_patterns() {
    let started = std::time::Instant::now();
    let specs: Vec<PatternSpec> = common::four_handed()
        .into_iter()
        .map(|s| PatternSpec::parse(&format!("{s};jugglers=2")).expect("a valid pattern"))
        .collect();
    assert_eq!(specs.len(), 93);
    assert_every_measure_holds(&specs, started);
}

/// Measures `specs` with balls, clubs and rings at 160 poses a second and asserts that no
/// scene has props overlapping by more than 1 cm, a prop in an arm away from its own throw
/// and catch, hands closer than 6 cm, forearms through each other, an elbow more than 5 cm
/// behind the shoulders or a hand above 200 m/s².
fn assert_every_measure_holds(specs: &[PatternSpec], started: std::time::Instant) {
    let mut all = Vec::new();
    for spec in specs {
        for kind in [PropKind::Ball, PropKind::Club, PropKind::Ring] {
            all.push(crate::contacts::measure(&with_prop(spec, kind), 160.0));
        }
    }
    eprintln!(
        "{} scenes in {:.1} s",
        all.len(),
        started.elapsed().as_secs_f64()
    );
    let limits: [(&str, Pick, f32, bool); 6] = [
        (
            "elbow behind the shoulders (m)",
            |c| &c.elbow_behind,
            0.05,
            true,
        ),
        ("prop overlap (m)", |c| &c.props, -0.01, false),
        ("hands apart (m)", |c| &c.hands, 0.06, false),
        ("forearms apart (m)", |c| &c.forearms, 0.0, false),
        ("prop-arm clearance (m)", |c| &c.arms, 0.0, false),
        ("hand acceleration (m/s²)", |c| &c.acceleration, 200.0, true),
    ];
    let mut over = Vec::new();
    for (label, pick, limit, high_is_bad) in limits {
        let failing = report(&all, label, pick, |v| {
            if high_is_bad {
                v <= limit
            } else {
                v >= limit
            }
        });
        if !failing.is_empty() {
            over.push(format!("{label}: {failing:#?}"));
        }
    }
    assert!(over.is_empty(), "{}", over.join("\n"));
}

/// Patterns issue 25 names, with the props it names: balls of `b97531` and the synchronous
/// crossing `(4x,4x)` and rings of 633 and `(4x,4x)` keep every two props at least as far
/// apart as allowed (1 cm of overlap); the balls of passes `<5p|5p>` too; the synchronous
/// crossing clubs of `(4x,4x)` (+1.6 cm, was −8.4 cm) and `(6x,6x)(2x,2x)` (+3.6 mm, was
/// −8.4 cm) do not touch: one hand's flights are higher and in front (`sync_crossing.rs`).
/// Where that is not reached yet the test holds the least clearance measured now (metres),
/// so it cannot grow: the passes of `<5p|5p|5p>` cross in the middle of the triangle; in
/// `[43]14` the 3 crossing to the other hand passed the club just caught there (−2.9 cm, was
/// −5.3; now −0.2: the flights laned before it make room, `flight_lanes.rs`; its rings, −2.3
/// cm while a multiplexed stack flew in one constant lane, are clear). `(6x,6x)` clubs are
/// clear (+1.6 cm; overlapped 8.4 cm, then 0.5). Clubs held
/// side by side while the hands scoop in before a synchronous throw no longer cross (columns
/// `(4,0)(4,4)` and `(4,4)(4x,0)(4,4)(0,4x)`, −2.1 cm: each turned 6° inward; now held
/// parallel when the hands are 15 cm apart, `scene::held_club_parted`). In the Tarim
/// triangle a self thrown across rose through the club the other hand held wound up for a
/// pass (−7.2 cm); flights now keep clear of every held club (`flight_lanes.rs`).
#[test]
fn named_patterns_keep_their_props_apart() {
    for (notation, kind, least) in [
        ("b97531", PropKind::Ball, -0.01),
        ("(4x,4x)", PropKind::Ball, -0.01),
        ("<5p|5p>", PropKind::Ball, -0.01),
        ("<5p|5p|5p>", PropKind::Ball, -0.01),
        ("633", PropKind::Ring, -0.01),
        ("(4x,4x)", PropKind::Ring, -0.01),
        ("531", PropKind::Ring, -0.01),
        ("(4x,4x)", PropKind::Club, 0.0),
        ("(6x,6x)(2x,2x)", PropKind::Club, 0.0),
        ("(6x,6x)", PropKind::Club, 0.0),
        ("(8x,8x)(0,0)", PropKind::Club, -0.01),
        ("<5p|5p|5p>", PropKind::Club, -0.046),
        ("[43]14", PropKind::Club, -0.005),
        ("[43]14", PropKind::Ring, -0.003),
        ("(4,0)(4,4)", PropKind::Club, 0.0),
        ("(4,4)(4x,0)(4,4)(0,4x)", PropKind::Club, 0.0),
        ("<3p2|3p3|3p1> <3p3|3|3p1> <3|3|3>", PropKind::Club, 0.0),
    ] {
        let scene = with_prop(&PatternSpec::from_notation(notation), kind);
        let c = crate::contacts::measure(&scene, 480.0);
        eprintln!(
            "{notation} {kind:?}: least prop clearance {:+.4} m",
            c.props.value
        );
        assert!(
            c.props.value >= least,
            "{} (at least {least}): {}",
            c.props.value,
            c.props.what
        );
    }
}

/// A flight that meets its own repeat a cycle later (`o`: a hand's balls two beats apart on
/// one parabola pass 4.4 cm apart near the top, whatever lane the flight takes) is laned over
/// several cycles, so successive throws of a hand fly in lanes of their own: `o`'s balls
/// −5.6 → +1.7 cm, its rings −1.1 → −0.4 cm (480 Hz). Written to JML and read back (events
/// over its three cycles), it lanes alike; written to JIF (a schedule over its whole loop, 12
/// cycles) and read back, its loop lasts as long (it was laned over three times those cycles,
/// three times as long) and its balls keep as clear.
#[test]
fn successive_throws_of_a_hand_take_lanes_of_their_own() {
    for (kind, least) in [(PropKind::Ball, 0.015), (PropKind::Ring, -0.005)] {
        let scene = with_prop(&PatternSpec::from_notation("o"), kind);
        let c = crate::contacts::measure(&scene, 480.0);
        eprintln!("o {kind:?}: least prop clearance {:+.4} m", c.props.value);
        assert!(c.props.value >= least, "{kind:?}: {}", c.props.what);
        if kind == PropKind::Ball {
            let text = juggler::convert::jml::write(&scene);
            let back = juggler::files::jml::import_str(&text, "o.jml")
                .expect("reads back")
                .remove(0);
            let read = Scene::new(&back).expect("builds");
            let r = crate::contacts::measure(&read, 480.0);
            assert!(
                (r.props.value - c.props.value).abs() < 0.002,
                "read back {} against {}",
                r.props.value,
                c.props.value
            );
            let text = juggler::convert::jif::write(&scene).expect("writes JIF");
            let back = juggler::files::read_str(&text, juggler::files::FileKind::Jif, "o.jif")
                .expect("reads back")
                .remove(0);
            let read = Scene::new(&back.spec).expect("builds");
            assert!((read.loop_duration() - scene.loop_duration()).abs() < 1e-9);
            let r = crate::contacts::measure(&read, 480.0);
            assert!(r.props.value >= least, "JIF read back: {}", r.props.what);
        }
    }
}

/// Balls that cross fast are laned apart: in `xvtrpnljhfdb97531` a ball rising at 30 m/s
/// passes one falling 3.2 m up, 50 m/s between them, further than a prop's width between two
/// of the lane search's samples 10 ms apart, so they flew in one lane and met 7.1 cm deep
/// (5.3 cm at the audit's 160 Hz). The search now looks between its samples as finely for each
/// centimetre two flights close (`closing_rate`). Measured at 4 kHz (1.3 cm of their closing
/// a sample): clear.
#[test]
fn balls_crossing_fast_are_laned_apart() {
    let scene = with_prop(
        &PatternSpec::from_notation("xvtrpnljhfdb97531"),
        PropKind::Ball,
    );
    let c = crate::contacts::measure(&scene, 4000.0);
    eprintln!(
        "xvtrpnljhfdb97531 balls: least prop clearance {:+.4} m",
        c.props.value
    );
    assert!(c.props.value >= 0.0, "{}", c.props.what);
}

/// A bounce and a toss between the same hands, points and times are two flights, not one
/// thrown twice: in `(4xB,2x)(4x,2x)` the lane search took the 4x for a repeat of the 4xB
/// (same hands, flight time and ends) and laned both as the bounce, so the 4x, never
/// measured, fell through the 2x crossing under it (clubs at 4.13 beats a second, Juggling
/// Lab's Alanz file's tempo: 3.4 cm into each other). Flights now repeat one another
/// only with the same launch and turning too (`Arc::repeats_as`): 1 mm (at 480 Hz).
#[test]
fn a_bounce_and_a_toss_alike_in_time_and_place_are_laned_apart() {
    let spec = PatternSpec::parse("pattern=(4xB,2x)(4x,2x);bps=4.13").expect("settings");
    let c = crate::contacts::measure(&with_prop(&spec, PropKind::Club), 480.0);
    eprintln!(
        "(4xB,2x)(4x,2x) clubs: least prop clearance {:+.4} m",
        c.props.value
    );
    assert!(c.props.value >= -0.01, "{}", c.props.what);
}

/// A club falling past a crossed arm into the hand under it (the Mills Mess, the crossed-arm
/// cascade, Juggling Lab's Mills Mess hands) no longer passes through that arm: the scene
/// turns the crossed arm's elbow aside on its circle for the moment (`scene/elbow_room.rs`),
/// hands and props untouched. Least clearance of a prop from an arm that neither throws nor
/// catches it, at 480 Hz, before → now: −6.0 → +4.1 cm, −4.2 → +2.2, −7.4 → −1.04 (there the
/// elbow would have to go into the chest to clear the club; asked ≥ −1.1); the elbows still
/// move smoothly (`arms_keep_their_lengths_stay_finite_and_never_jump`).
#[test]
fn clubs_falling_past_a_crossed_arm_find_its_elbow_turned_aside() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/jml_events");
    let mut specs: Vec<PatternSpec> = ["Mills Mess", "Crossed-arm reverse cascade"]
        .iter()
        .map(|n| juggler::files::library::find_in_library(n).expect(n))
        .collect();
    specs.extend(juggler::files::load_path(&dir.join("mills_mess_jl_hands.toml")).expect("file"));
    let mut bad = Vec::new();
    for (spec, least) in specs.iter().zip([0.03, 0.015, -0.011]) {
        let c = crate::contacts::measure(&with_prop(spec, PropKind::Club), 480.0);
        eprintln!(
            "{} clubs: props from arms {:+.4} m",
            spec.name, c.arms.value
        );
        if c.arms.value < least {
            bad.push(c.arms.what);
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
}

/// A club or ring whose last moments before its catch sweep through the arm waiting for it
/// finds the hand stepped aside (`scene/catch_dips.rs`): the bounced ring of the JML test file
/// "Bounce, soft catches and a held ball" rose into its catching forearm from below 0.17 s
/// before the catch (−4.7 cm; the hand now waits 12 cm further out), its bounced club −0.35
/// cm, and a club of `[b9753]0020[22]0[222]0[2222]0` turned its body through the catching
/// forearm 0.2 s before the catch of its half-second flight (−3.3 cm); with Juggling Lab's
/// hands, a club of `4[43]1` (−0.5 cm) and one passing the other arm of 1Up-2Up B (−1.6 cm,
/// a hand stepping aside between its throws and catches); with Juggling Lab's hands, a ring of
/// Dancey's Devilment `3[53]22[32]` (−1.6 cm in a forearm, cleared by the hand stepping aside
/// for the ring passing the one it holds), and a ring of `(4xB,4xB)` with one of its column
/// hands (−1.1 cm, the step eased at 75 m/s², was 50). Least clearance of a prop from an arm away from
/// its own throw and catch, at 480 Hz, must be ≥ 0 now; the hands still throw and catch where
/// and as fast as their paths do (every dip is none, at rest, at each throw and catch), and an
/// idle hand passed all the time does not jump where a step would meet itself.
#[test]
fn a_hand_steps_aside_for_the_last_turn_of_the_prop_it_waits_for() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/jml_events");
    let bounce = juggler::files::load_path(&dir.join("bounce_hold_soft.jml")).expect("file");
    let mut cases: Vec<(PatternSpec, PropKind)> = vec![
        (bounce[0].clone(), PropKind::Ring),
        (bounce[0].clone(), PropKind::Club),
        (
            PatternSpec::from_notation("[b9753]0020[22]0[222]0[2222]0"),
            PropKind::Club,
        ),
        (
            PatternSpec::parse("pattern=4[43]1;bps=3.5;hands=(10)(32.5).").unwrap(),
            PropKind::Club,
        ),
        (
            PatternSpec::parse(
                "pattern=(4,4)(4x,0)(4,4)(0,4x);bps=4;hands=(17.5)(35).(17.5)(17.5).(0)(17.5).\
                 (17.5)(17.5).(17.5)(17.5).(17.5)(35).(17.5)(17.5).(0)(17.5).",
            )
            .unwrap(),
            PropKind::Club,
        ),
        (
            PatternSpec::parse(
                "pattern=3[53]22[32];dwell=1.0;bps=4.124;hands=(32.5,40)(7.5,30).(-25,-15)\
                 (-2.5).(-30,10)(-5,10).(30,10)(7.5,5).(-25,-10)(17.5,-10).",
            )
            .unwrap(),
            PropKind::Ring,
        ),
        (
            PatternSpec::parse(
                "pattern=(4xB,4xB);hands=(33,0,0)(33,0,12).(33,0,12)(33,0,24).(33,0,30)\
                 (33,0,12).(33,0,12)(33,0,0).",
            )
            .unwrap(),
            PropKind::Ring,
        ),
    ];
    let mut bad = Vec::new();
    for (spec, kind) in cases.drain(..) {
        let scene = with_prop(&spec, kind);
        let c = crate::contacts::measure(&scene, 480.0);
        eprintln!(
            "{} {kind:?}: props from arms {:+.4} m",
            spec.name, c.arms.value
        );
        if c.arms.value < 0.0 {
            bad.push(c.arms.what.clone());
        }
        // Where each hand throws and catches, it is on its path, moving with it: the path as
        // drawn before and after each event joins (no step of the dips left there).
        let motion = scene.motion();
        for f in motion.flight_times() {
            for (hand, t) in [(f.from, f.release), (f.to, f.catch)] {
                let at = |dt: f64| motion.hand_at(hand, t + dt);
                let (a, b) = (at(-1e-4), at(1e-4));
                assert!(
                    a.position.distance(b.position) < 2e-3,
                    "{}: {hand:?} at {t:.3}",
                    spec.name
                );
            }
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
    // A hand that never throws, passed by flights all the time (the one-handed `[oqsuwy]0`'s
    // idle left hand), takes no step longer than the loop: it would meet itself there and jump
    // (a second difference over 1 ms of 2 mm is 2 000 m/s²).
    let scene = with_prop(&PatternSpec::from_notation("[oqsuwy]0"), PropKind::Ball);
    let motion = scene.motion();
    let period = motion.hand_period();
    let at = |t: f64| motion.hand_at(HandRef::new(0, Hand::Left), t).position;
    let mut t = 1e-3;
    while t < 2.0 * period {
        let jump = (at(t + 1e-3) - 2.0 * at(t) + at(t - 1e-3)).length();
        assert!(jump < 0.002, "the idle hand jumps {jump} m at {t:.3}");
        t += 1e-3;
    }
}

/// Hands that the forearm lifts raise into each other are still parted: the parting measures
/// the hands where they are drawn, lifts included. Juggling Lab's 4-Mills Simultaneous and
/// 4-ball Burke's Barrage hand movements (their `hands=`), whose lifts took one hand up to the
/// other's height, brought the hands within 0.4–1.8 and 0.8 cm while the parting measured the
/// paths before their lifts; now 11.4–12.1 and 9.5–10.1 cm (240 Hz), and Burke's forearms,
/// −6.7 cm through each other then, clear.
#[test]
fn hands_raised_by_forearm_lifts_are_still_parted() {
    let list = r#"<?xml version="1.0"?>
<jml version="3">
<patternlist>
<line display="Mills hands, synchronous" notation="siteswap">
pattern=(4x,4x);bps=6;dwell=1.5;hands=(-25,10)(-10).(-25,-5)(-10,-15).(30,40)(15,50).(30,40)(15,50).(-25,-5)(-10,-15).(-25,10)(-10).(30,40)(15,50).(30,40)(15,50).
</line>
<line display="Burke's hands" notation="siteswap">
pattern=525;bps=6;hands=(-12.5,-10)(0).(-22.5,70)(35,70).(7.5)(-22.5,15).
</line>
</patternlist>
</jml>
"#;
    let specs = juggler::files::load_str(list, juggler::files::FileKind::Jml, "test")
        .expect("pattern list");
    assert_eq!(specs.len(), 2);
    let mut bad = Vec::new();
    for spec in &specs {
        for kind in [PropKind::Ball, PropKind::Club, PropKind::Ring] {
            let c = crate::contacts::measure(&with_prop(spec, kind), 240.0);
            eprintln!(
                "{} {kind:?}: hands {:+.4} m, forearms {:+.4} m",
                spec.name, c.hands.value, c.forearms.value
            );
            if c.hands.value < 0.08 {
                bad.push(c.hands.what);
            }
            if spec.name.starts_with("Burke") && c.forearms.value < 0.0 {
                bad.push(c.forearms.what);
            }
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
}

/// A prop passing an arm near its hand is not helped by turning the elbow (the hand stays
/// put): its flight takes a lane beside the forearm (`motion/flight_lanes/arms.rs`), moving
/// flights laned before it aside where that makes room. Least clearance of a prop from an
/// arm that neither throws nor catches it, at 480 Hz, before → now: the Statue of Liberty's
/// clubs −7.9 → +2.9 cm (the club the raised hand has just thrown turned its end through
/// that forearm; the club rising to that hand now takes the lane beside it), its rings −1.2 →
/// 0.0, `(2x,4x)` rings −0.95 → 0.0.
#[test]
fn props_passing_a_hand_fly_beside_its_forearm() {
    let mut bad = Vec::new();
    for (name, kind, least) in [
        ("Statue of Liberty", PropKind::Club, 0.02),
        ("Statue of Liberty", PropKind::Ring, -0.002),
        ("(2x,4x)", PropKind::Ring, -0.002),
    ] {
        let spec = juggler::files::argument::load(name).expect(name).remove(0);
        let c = crate::contacts::measure(&with_prop(&spec, kind), 480.0);
        eprintln!("{name} {kind:?}: props from arms {:+.4} m", c.arms.value);
        if c.arms.value < least {
            bad.push(format!(
                "{:+.4} (at least {least}): {}",
                c.arms.value, c.arms.what
            ));
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
}

/// Flights still cutting a prop or an arm once every flight is laned look once more, with
/// lanes drifting across three steps too (`flight_lanes.rs`, `LAST_CANDIDATES`): a flight that
/// needs the far lane where it passes a forearm or a held club, and a lane apart from its own
/// repeat. Least clearance at 480 Hz, before → now: Juggling Lab's Mills Mess 552 (its list's
/// hand points) with clubs, props −3.8 → +0.2 cm; `622[62][43]` with clubs, a prop from an arm
/// that neither throws nor catches it −6.2 → +0.8 cm; the 9-ring cascade, rims −0.4 → 0.0 cm.
/// A club still in an arm or overlapping by more than 1 cm tries lanes four steps out where its
/// juggler juggles alone with hands on their own sides (`FAR_CANDIDATES`): the bounced clubs of
/// `(6B,0)(2x,4B)*` and `(6B,2x)(2x,4B)(0,4x)*`, falling past a forearm, −5.8 → +1.2 cm (the
/// second +1.0 cm since its clubs come nearer the fists that catch them, `bring_to_hands`).
#[test]
fn flights_still_cutting_look_for_lanes_drifting_further() {
    let bad = clearances_short(&[
        (
            "pattern=552;bps=3.8;hands=(-25)(2.5).(25)(-2.5).(-25)(0).",
            PropKind::Club,
            0.0,
            // A forearm still meets the club the other hand holds (docs/motion.md).
            f32::NEG_INFINITY,
        ),
        ("622[62][43]", PropKind::Club, -0.01, 0.0),
        ("9", PropKind::Ring, -0.002, 0.0),
        ("(6B,0)(2x,4B)*", PropKind::Club, -0.01, 0.01),
        ("(6B,2x)(2x,4B)(0,4x)*", PropKind::Club, -0.01, 0.005),
    ]);
    assert!(bad.is_empty(), "{bad:#?}");
}

/// The least clearance of props from props and from arms (at 480 Hz) of each case (a pattern
/// as the command line reads it, its prop, the least each may be), and every one short of it.
fn clearances_short(cases: &[(&str, PropKind, f32, f32)]) -> Vec<String> {
    let mut bad = Vec::new();
    for &(name, kind, props, arms) in cases {
        let spec = juggler::files::argument::load(name).expect(name).remove(0);
        let c = crate::contacts::measure(&with_prop(&spec, kind), 480.0);
        eprintln!(
            "{name} {kind:?}: props {:+.4} m, props from arms {:+.4} m",
            c.props.value, c.arms.value
        );
        if c.props.value < props {
            bad.push(format!(
                "{:+.4} (at least {props}): {}",
                c.props.value, c.props.what
            ));
        }
        if c.arms.value < arms {
            bad.push(format!(
                "{:+.4} (at least {arms}): {}",
                c.arms.value, c.arms.what
            ));
        }
    }
    bad
}

/// Hands Juggling Lab's event files put far out to the side, 30 cm in front of the shoulders
/// (`wide_catches.jml`: a cascade caught 50 cm out), and Juggling Lab's Rubenstein's Revenge
/// hands, whose hands come in close to the body: the body's elbow went up to 8.3 cm and 5.4
/// cm behind the shoulders' frontal plane (the chicken wing opened outward, toward the
/// circle's backmost point). The scene turns such an elbow on its circle, planned over the
/// loop (`scene/elbow_forward.rs`), and it now stays within 4.5 cm with every prop, hands and
/// props untouched, and moves smoothly: sampled every millisecond no elbow moves faster than
/// 7 m/s, as where forearms cross (measured 2.6 in the cascade; 5.3 where Rubenstein's Revenge
/// crosses the arms with balls and rings, 6.45 with clubs since its crossing hands carry their
/// clubs' lanes, 15 cm across, `motion/flight_lanes.rs` `CROSSED_CLEAR`).
#[test]
fn elbows_of_hands_far_out_or_close_in_stay_near_the_shoulders_plane() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/jml_events");
    let mut bad = Vec::new();
    for file in ["wide_catches.jml", "rubensteins_revenge_jl_hands.toml"] {
        let spec = juggler::files::load_path(&dir.join(file))
            .expect(file)
            .remove(0);
        for kind in [PropKind::Ball, PropKind::Club, PropKind::Ring] {
            let scene = with_prop(&spec, kind);
            let c = crate::contacts::measure(&scene, 480.0);
            let (fastest, _) = fastest_per_ms(&scene, elbows_moved);
            eprintln!(
                "{file} {kind:?}: elbow behind {:+.4} m, fastest elbow {fastest:.2} m/s",
                c.elbow_behind.value
            );
            if c.elbow_behind.value > 0.045 || fastest > 7.0 {
                bad.push(format!("{fastest:.2} m/s; {}", c.elbow_behind.what));
            }
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
}

/// Held clubs lean out of the way (`scene/held_leans.rs`): in Juggling Lab's Rubenstein's
/// Revenge hands the two hands pass 14.5 cm apart, one above the other, each holding a club
/// pointing forward and up, and the lower hand's club went 7.3 cm into the other's; the
/// juggler now tips it aside with the wrist (+1.5 cm), and no prop comes within 1 cm of
/// overlapping. In the Windmill a club held as the hand sweeps across met the other forearm
/// (−0.6 cm, now clear). The lean eases in and out: sampled every millisecond, no held club
/// turns faster than 14 rad/s (measured 11.9 and 13.1, the Windmill's as fast as without the
/// leans: the hand turning the club from its catch to its throw attitude in its short dwell;
/// a club in the air spins at 12–13).
#[test]
fn held_clubs_lean_aside_of_what_passes_them_and_turn_smoothly() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/jml_events");
    let mut specs = juggler::files::load_path(&dir.join("rubensteins_revenge_jl_hands.toml"))
        .expect("Rubenstein's Revenge");
    specs.push(juggler::files::library::find_in_library("Windmill").expect("Windmill"));
    let mut bad = Vec::new();
    for spec in &specs {
        let scene = with_prop(spec, PropKind::Club);
        let c = crate::contacts::measure(&scene, 480.0);
        // The largest turn of a prop held by one hand from one millisecond to the next.
        let (fastest, _) = fastest_per_ms(&scene, |prev, pose| {
            prev.props
                .iter()
                .zip(&pose.props)
                .filter(|(a, b)| a.held_by.is_some() && a.held_by == b.held_by)
                .map(|(a, b)| a.axis.dot(b.axis).clamp(-1.0, 1.0).acos())
                .fold(0.0, f32::max)
        });
        eprintln!(
            "{}: props {:+.4} m, arms {:+.4} m, fastest held club {fastest:.1} rad/s",
            spec.name, c.props.value, c.arms.value
        );
        if c.props.value < -0.01 || c.arms.value < 0.0 || fastest > 14.0 {
            bad.push(format!(
                "{fastest:.1} rad/s; {:+.4} {}; {:+.4} {}",
                c.props.value, c.props.what, c.arms.value, c.arms.what
            ));
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
}

/// Where no lean of up to 0.6 rad clears a held prop, a larger one (up to 1.35 rad) may:
/// Juggling Lab's No Through Mills Mess with rings, a ring thrown past the other hand's held
/// ring (−1.9 cm with leans of at most 0.6 rad, now −0.2), and its Mills Mess 552 with clubs,
/// a held club in the other forearm (−2.9 cm, now clear).
#[test]
fn held_props_lean_further_where_small_leans_do_not_clear() {
    let bad = clearances_short(&[
        (
            "pattern=3;bps=4;hands=(-30,5)(-5,10).(30,10)(-5,5).(-15,-20)(15,-15).",
            PropKind::Ring,
            -0.01,
            0.0,
        ),
        (
            "pattern=552;bps=3.8;hands=(-25)(2.5).(25)(-2.5).(-25)(0).",
            PropKind::Club,
            -0.01,
            0.0,
        ),
    ]);
    assert!(bad.is_empty(), "{bad:#?}");
}

/// Held clubs are measured as drawn when they lean (a handle 1.3 cm thick in radius, not the
/// body's 4.2 cm): in Juggling Lab's Mills Mess Box the two clubs held as the hands cross
/// (−1.35 cm, drawn, with leans planned on the widest capsule) and See Saw Shuffle's held
/// club and the 2x passing it (−2.8 cm) now clear.
#[test]
fn held_clubs_lean_by_their_drawn_shape() {
    let bad = clearances_short(&[
        (
            "pattern=612;bps=5;hands=(-25)(2.5).(25)(-2.5).(-25)(0).",
            PropKind::Club,
            -0.003,
            f32::NEG_INFINITY,
        ),
        (
            "pattern=(2x,4)(4,2x);bps=4.5;hands=(35,50)(25,-15).(15)(25).(15)(25).(35,50)(25,-15).",
            PropKind::Club,
            -0.003,
            f32::NEG_INFINITY,
        ),
    ]);
    assert!(bad.is_empty(), "{bad:#?}");
}

/// Clubs the flight lanes leave cutting other props (laned as one capsule of the body's radius)
/// are laned again measured as drawn, handles a third as thick as bodies, and those lanes kept
/// where they leave less than half the cut and the arms no deeper
/// (`flight_lanes::RELANE`): in the synchronous multiplex `(2x,[42])(2,[4x2])`, which
/// `juggler gen 4 5 4 -m 2 -s` lists, the two clubs held together cut each other 2.1 cm and a
/// club went 3.6 cm into the forearm; both now clear.
#[test]
fn clubs_laned_as_one_thick_capsule_are_laned_again_as_drawn() {
    let bad = clearances_short(&[("(2x,[42])(2,[4x2])", PropKind::Club, -0.003, 0.0)]);
    assert!(bad.is_empty(), "{bad:#?}");
}

/// An elbow turns aside (`scene/elbow_room.rs`) by up to 2 rad, eased at up to 6 rad/s over
/// at least 80 ms: in Juggling Lab's Mills 44133 with clubs a club passed 7.6 cm into the
/// crossed arm with turns of up to 1.2 rad at 3 rad/s (now +0.2 cm); its 5-ball Mills Mess and
/// Half Mess with clubs −0.7 and −0.2 cm (now +2.3 and +1.1); its 6-ball Mills Mess with
/// clubs −3.3 cm with turns eased over at least 120 ms (now +1.1); its Mills Mess 315 and
/// Robot with clubs −0.8 and −0.2 cm with turns eased at 5 rad/s (now +1.2 and +1.3).
#[test]
fn elbows_turn_wide_and_quick_enough_for_clubs_past_the_arm() {
    let cases = [
        "pattern=44133;bps=4;hands=(-30,25)(0,10).(30)(25).(-7.5)(17.5,-10).(25,10)(-5).(-25,-15)(5,-10).",
        "pattern=5;hands=(-30)(2.5).(30)(-2.5).(-30)(0).",
        "pattern=3;bps=3.5;hands=(25)(0,10).(-25,-15)(0,-15).(-25,10)(25).(-15)(0).",
        "pattern=6;hands=(-30)(2.5).(30)(-2.5).(-30)(0).",
        "pattern=315;bps=4;hands=(-25)(2.5).(25)(-2.5).(-25)(0).",
        "pattern=242334;dwell=1.0;bps=5;hands=(25,-15)(25,-15).(25)(0).(25,65)(25,65).(0)(15).(-25,65)(12.5,20).(15)(25).",
    ];
    let mut bad = Vec::new();
    for notation in cases {
        let spec = PatternSpec::parse(notation).expect("valid settings");
        let c = crate::contacts::measure(&with_prop(&spec, PropKind::Club), 480.0);
        eprintln!(
            "{notation}: arms {:+.4} m, elbow behind {:.4} m",
            c.arms.value, c.elbow_behind.value
        );
        if c.arms.value < 0.0 || c.elbow_behind.value > 0.05 {
            bad.push(format!(
                "{notation}: {:+.4} {}; {:.4} {}",
                c.arms.value, c.arms.what, c.elbow_behind.value, c.elbow_behind.what
            ));
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
}

/// An elbow the plan turns forward is not left past its trigger (4.5 cm behind the shoulders'
/// plane) for less lift: in Juggling Lab's hand-siteswap passing pattern `7` with `hss=426`
/// and `handspec=(2,1)(4,3)` (its list "2 unequal passers") the second juggler's left elbow
/// stayed 5.15 cm behind, the plan keeping the last 2 mm for less lift; now 4.9 cm at most.
#[test]
fn an_elbow_turned_forward_is_not_left_past_its_trigger_for_less_lift() {
    let spec = PatternSpec::parse("pattern=7;hss=426;handspec=(2,1)(4,3)").expect("hss");
    for kind in [PropKind::Ball, PropKind::Ring] {
        let c = crate::contacts::measure(&with_prop(&spec, kind), 160.0);
        eprintln!("{kind:?}: elbow behind {:+.4} m", c.elbow_behind.value);
        assert!(c.elbow_behind.value < 0.05, "{}", c.elbow_behind.what);
    }
}

/// Where the hands cross (the Mills Mess, Windmill, the crossed-arm cascade and Juggling Lab's
/// Mills Mess, Rubenstein's Revenge and 4-Mills Simultaneous hands) one forearm passes over
/// the other (`motion/forearms.rs`: the hand on top rises, the other sinks, planned on the
/// body's arms), and the elbows, turned forward and out (`elbow::cross_swivel`), still move
/// continuously: sampled every millisecond, no elbow moves faster than 7 m/s (measured 1.8–6.1
/// m/s; an elbow chosen afresh each frame to part the forearms jumped at 230–300 m/s). Forearm
/// clearance with balls at 480 Hz, before any lifts → now: Mills Mess −7.4 → +3.7 cm (+2.8
/// before the lifts were planned to be had at the throws and catches, where they are held
/// level), Windmill −7.5 → +1.7, Rubenstein's Revenge (Juggling Lab's hands) −7.5 → +1.0,
/// Juggling Lab's Mills Mess −7.3 → +0.9, crossed-arm cascade −7.5 → +0.8 (the lower arm's
/// elbow hangs under the other forearm, `body::juggler`; docs/motion.md "Forearms"). In the
/// Mills Mess the arm on top changes from one crossing to the next, as a juggler's arms cross
/// over each other in turn.
#[test]
fn crossed_forearms_pass_one_over_the_other_and_elbows_move_smoothly() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/jml_events");
    let mut specs: Vec<PatternSpec> = ["Mills Mess", "Windmill", "Crossed-arm reverse cascade"]
        .iter()
        .map(|n| juggler::files::library::find_in_library(n).expect(n))
        .collect();
    for file in [
        "mills_mess_jl_hands.toml",
        "rubensteins_revenge_jl_hands.toml",
    ] {
        specs.extend(juggler::files::load_path(&dir.join(file)).expect(file));
    }
    // Juggling Lab's 4-Mills Simultaneous (its list's timing and hand points): the hands cross
    // on every beat, so nearly all of a hand's path lies in the windows where its lifts are
    // held level at throws and catches; the lifts are planned to be had at those events
    // (−0.2 cm before, +3.3 then, +0.8 since its hands sweep from catch to throw without give
    // and push, 307 → 184 m/s²).
    specs.push(
        PatternSpec::parse(
            "pattern=(4x,4x);bps=6;dwell=1.5;hands=(-25,10)(-10).(-25,-5)(-10,-15).\
             (30,40)(15,50).(30,40)(15,50).(-25,-5)(-10,-15).(-25,10)(-10).(30,40)(15,50).\
             (30,40)(15,50).;title=4-Mills Simultaneous",
        )
        .expect("4-Mills Simultaneous"),
    );
    // Juggling Lab's Reverse Mills Mess (its list's hand points): hands 30 cm across the
    // middle, the forearms cross near the elbows, and the hands reach the lifts' bound (−0.04
    // cm with lifts of at most 20 cm, +0.85 with 24).
    specs.push(
        PatternSpec::parse(
            "pattern=3;hands=(-2.5)(-30).(0)(-30).(2.5)(30).;title=Reverse Mills Mess",
        )
        .expect("Reverse Mills Mess"),
    );
    // Least forearm clearance allowed, metres, in the order of `specs`.
    let least = [0.03, 0.0, 0.0, 0.0, 0.0, 0.005, 0.0];
    let mut bad = Vec::new();
    for (spec, least) in specs.iter().zip(least) {
        let scene = with_prop(spec, PropKind::Ball);
        let fastest = fastest_per_ms(&scene, elbows_moved);
        let c = crate::contacts::measure(&scene, 480.0);
        eprintln!(
            "{}: fastest elbow {:.2} m/s at t={:.3}; forearms {:+.4} m",
            spec.name, fastest.0, fastest.1, c.forearms.value
        );
        if fastest.0 >= 7.0 {
            bad.push(format!("{}: elbow at {:?}", spec.name, fastest));
        }
        if c.forearms.value < least {
            bad.push(format!("{}: {}", spec.name, c.forearms.what));
        }
    }
    // Juggling Lab's Half Mess (its list's hand points) with rings: the first round's lifts
    // bring the held ring within the other forearm's reach, so the second lacks more (the
    // arm on top must now clear the ring); lifting stopped there and took its lifts back,
    // leaving the forearms −2.1 cm into each other; now it stops after two such rounds in a
    // row, keeping the lifts measured with the least lack (+0.9 cm).
    let half_mess = PatternSpec::parse(
        "pattern=3;bps=3.5;hands=(25)(0,10).(-25,-15)(0,-15).(-25,10)(25).(-15)(0).;\
         title=Half Mess",
    )
    .expect("Half Mess");
    let c = crate::contacts::measure(&with_prop(&half_mess, PropKind::Ring), 480.0);
    eprintln!("Half Mess rings: forearms {:+.4} m", c.forearms.value);
    if c.forearms.value < 0.0 {
        bad.push(format!("Half Mess rings: {}", c.forearms.what));
    }
    assert!(bad.is_empty(), "{bad:#?}");

    // The Mills Mess: where the forearms cross in the top view, which one is above there.
    let scene = with_prop(&specs[0], PropKind::Ball);
    let flat = |v: Vec3| Vec3::new(v.x, 0.0, v.z);
    let (mut left_over, mut right_over) = (0, 0);
    let steps = 2000;
    for k in 0..steps {
        let pose = scene.pose_at(scene.loop_duration() * k as f64 / steps as f64);
        let [l, r] = pose.jugglers[0].arms;
        if crate::contacts::segments_distance(
            flat(l.elbow),
            flat(l.hand),
            flat(r.elbow),
            flat(r.hand),
        ) > 1e-4
        {
            continue;
        }
        // Heights of the two forearms over their crossing point (a fine search along the left).
        let (mut best, mut over) = (f32::INFINITY, 0.0);
        for i in 0..=200 {
            let p = l.elbow.lerp(l.hand, i as f32 / 200.0);
            let d = crate::contacts::segment_distance(flat(p), flat(r.elbow), flat(r.hand));
            if d < best {
                let q = (0..=200)
                    .map(|j| r.elbow.lerp(r.hand, j as f32 / 200.0))
                    .min_by(|a, b| {
                        flat(*a)
                            .distance(flat(p))
                            .total_cmp(&flat(*b).distance(flat(p)))
                    })
                    .unwrap();
                best = d;
                over = p.y - q.y;
            }
        }
        if over > 0.0 {
            left_over += 1;
        } else {
            right_over += 1;
        }
    }
    eprintln!("Mills Mess: left forearm on top in {left_over} samples, right in {right_over}");
    assert!(
        left_over > steps / 20 && right_over > steps / 20,
        "{left_over} {right_over}"
    );
}

/// Synchronous crossing clubs part as jugglers part them (`motion/sync_crossing.rs`): in
/// `(4x,4x)` both hands still throw and catch at the schedule's times (in beats the same as
/// with balls, which fly at another tempo), but the crossing throws leave from the hands' sides (32.5 cm
/// out, was 10) and the right hand's club flies 14 cm higher and 10 cm in front of the left
/// hand's: the hands' throw points differ by that much, the catch points the other way round.
/// Balls keep Juggling Lab's points (mirror images).
#[test]
fn synchronous_crossing_clubs_fly_one_above_the_other() {
    let spec = PatternSpec::from_notation("(4x,4x)");
    let (clubs, balls) = (
        with_prop(&spec, PropKind::Club),
        with_prop(&spec, PropKind::Ball),
    );
    let times = |s: &Scene| -> Vec<f64> {
        s.events_between(0.0, s.loop_duration())
            .iter()
            .map(|e| e.time * s.beats_per_second())
            .collect()
    };
    let (tc, tb) = (times(&clubs), times(&balls));
    assert_eq!(tc.len(), tb.len());
    assert!(tc.iter().zip(&tb).all(|(a, b)| (a - b).abs() < 1e-6));
    // The hands' paths (a hand also carries its club's lane, a step here).
    let hand =
        |s: &Scene, side: Hand, t: f64| s.motion().hand_path_at(HandRef::new(0, side), t).position;
    // The throw at 0 s (world: right hand at negative x, facing +z).
    let (r, l) = (
        hand(&clubs, Hand::Right, 0.0),
        hand(&clubs, Hand::Left, 0.0),
    );
    assert!((r.y - l.y - 0.14).abs() < 1e-4, "{r} {l}");
    assert!((r.z - l.z - 0.10).abs() < 1e-4, "{r} {l}");
    assert!(
        (r.x + 0.325).abs() < 1e-4 && (l.x - 0.325).abs() < 1e-4,
        "{r} {l}"
    );
    let (rb, lb) = (
        hand(&balls, Hand::Right, 0.0),
        hand(&balls, Hand::Left, 0.0),
    );
    assert!((rb.y - lb.y).abs() < 1e-6 && (rb.x + lb.x).abs() < 1e-6);
    let c = crate::contacts::measure(&clubs, 480.0);
    assert!(c.props.value > 0.0, "{}", c.props.what);
    // Repeated 200 times, every repeat's throws part the same way (each distinct pair is
    // searched once: `((4x,4x)^500)` built in 4.7 s before, 0.08 s after).
    let long = with_prop(&PatternSpec::from_notation("((4x,4x)^200)"), PropKind::Club);
    let beat = 1.0 / long.beats_per_second();
    for k in [1, 57, 199] {
        let t = 2.0 * beat * k as f64;
        for side in [Hand::Right, Hand::Left] {
            let (a, b) = (hand(&long, side, 0.0), hand(&long, side, t));
            assert!(a.distance(b) < 1e-4, "repeat {k} {side:?}: {a} vs {b}");
        }
    }
}

/// A crossing prop thrown with another (a synchronous multiplex holding a `2x`) is parted from
/// its mirror image off the hands' points: `(2,2)([42x],[42x])`'s two 2x clubs met axis
/// through axis (−8.4 cm) in the middle.
#[test]
fn multiplexed_crossing_clubs_part_off_their_hands() {
    let spec = PatternSpec::from_notation("(2,2)([42x],[42x])");
    let clubs = with_prop(&spec, PropKind::Club);
    let c = crate::contacts::measure(&clubs, 480.0);
    assert!(c.props.value > 0.0, "{} {}", c.props.value, c.props.what);
    // Off their hands by no more than the multiplex lanes and half the parting (12 cm at most
    // between the two): a held club's centre stays within 21 cm of its fist.
    assert!(
        c.held_off.value < 0.21,
        "{} {}",
        c.held_off.value,
        c.held_off.what
    );
    // A pair that is not a mirror image (the 4x caught beside a held multiplexed club) is
    // parted too, by moving the hands' points: it met 8.1 cm deep.
    let clubs = with_prop(
        &PatternSpec::from_notation("(0,[44])(4x,4x)"),
        PropKind::Club,
    );
    let c = crate::contacts::measure(&clubs, 480.0);
    assert!(c.props.value > 0.0, "{} {}", c.props.value, c.props.what);
}

/// Synchronous fountains throw at least 10 cm out (`from_schedule::SYNC_THROW_X`; Juggling
/// Lab's table throws 6s and 8s from 5 cm, made for hands taking turns), so the hands throwing
/// together keep their fists, forearms and held props apart (at 5 cm: `(6,6)` held balls
/// −4.8 cm, forearms −0.2 cm, `(8,8)` forearms −1.2 cm). Least clearances at 480 Hz, metres:
/// forearms +6.8 cm, hand centres 14.3 cm (`(6,6)`; `(8,8)` +4.9 cm and 12.4 cm, its hands
/// stopping within 10 cm after an 8's release, `hand_path::MAX_FOLLOW_DISTANCE`, and scooping
/// 1 cm further in), balls +4.3 cm (`(6,6)`) and +1.9 cm (`(8,8)`), rings +0.1 cm.
#[test]
fn synchronous_fountains_keep_their_fists_apart() {
    for (notation, kind, forearms, hands, props) in [
        ("(6,6)", PropKind::Ball, 0.065, 0.14, 0.04),
        ("(6,6)", PropKind::Ring, 0.065, 0.14, 0.0),
        ("(8,8)", PropKind::Ball, 0.045, 0.12, 0.018),
        ("(8,8)", PropKind::Ring, 0.045, 0.12, 0.0),
    ] {
        let scene = with_prop(&PatternSpec::from_notation(notation), kind);
        let c = crate::contacts::measure(&scene, 480.0);
        eprintln!(
            "{notation} {kind:?}: forearms {:+.4} m, hands {:.4} m, props {:+.4} m",
            c.forearms.value, c.hands.value, c.props.value
        );
        assert!(c.forearms.value >= forearms, "{}", c.forearms.what);
        assert!(c.hands.value >= hands, "{}", c.hands.what);
        assert!(c.props.value >= props, "{}", c.props.what);
    }
}

/// Two causes of props passing through arms, cleared: a synchronous `2x` with clubs leaves
/// from the side (25 cm out, where a 2 is caught; balls keep Juggling Lab's 17 cm), so its tip,
/// swinging down and back halfway across, misses the catching forearm (was −1.4 to −2.1 cm);
/// a hand stops within 10 cm after a high release, so `753`'s left hand no longer rises 20 cm
/// after its 7 into the 3 it catches next (balls −3.1, rings −4.7 cm before); a club's 1 is
/// thrown 10 cm below the hand plane, under the low 3 arriving in that hand (`b97531` −2.5 cm
/// before, and its clubs overlapped 3.3 cm). Least clearance of a prop from an arm away from
/// its own throw and catch, 480 Hz, metres: box and Factory clubs +1.6 cm, showers +1.0 cm,
/// `753` balls +0.8 cm, rings +3.0 cm, `b97531` clubs +2.2 cm (props +1.6 cm apart).
#[test]
fn sync_twos_and_high_throws_keep_props_out_of_arms() {
    use juggler::types::{Hand, HandRef};
    let right_at_zero = |kind: PropKind| {
        let scene = with_prop(&PatternSpec::from_notation("(4,2x)(2x,4)"), kind);
        let p = scene
            .motion()
            .hand_at(HandRef::new(0, Hand::Right), 0.0)
            .position;
        p.x
    };
    // The right hand throws the 2x at time 0 (world x negative on the right).
    assert!((right_at_zero(PropKind::Club) + 0.25).abs() < 1e-4);
    assert!((right_at_zero(PropKind::Ball) + 0.17).abs() < 1e-4);
    for (notation, kind, least) in [
        ("(4,2x)(2x,4)", PropKind::Club, 0.012),
        ("(2x,4x)", PropKind::Club, 0.007),
        ("(4x,2x)", PropKind::Club, 0.007),
        ("(2,4)(2,4x)(2x,4)", PropKind::Club, 0.012),
        ("753", PropKind::Ball, 0.005),
        ("753", PropKind::Ring, 0.025),
        ("b97531", PropKind::Club, 0.018),
    ] {
        let scene = with_prop(&PatternSpec::from_notation(notation), kind);
        let c = crate::contacts::measure(&scene, 480.0);
        eprintln!(
            "{notation} {kind:?}: prop-arm clearance {:+.4} m",
            c.arms.value
        );
        assert!(c.arms.value >= least, "{}: {}", c.arms.value, c.arms.what);
    }
    let scene = with_prop(&PatternSpec::from_notation("b97531"), PropKind::Club);
    assert!(crate::contacts::measure(&scene, 480.0).props.value >= 0.01);
    // The 1 of 441 leaves 10 cm below the hand plane (1.00 m) with clubs, from it with balls.
    let one = |kind: PropKind| {
        let scene = with_prop(&PatternSpec::from_notation("441"), kind);
        let motion = scene.motion();
        let flight = (0..100)
            .flat_map(|k| motion.state_at(k as f64 * 0.02).props)
            .filter_map(|p| p.flight)
            .find(|f| f.value == 1)
            .expect("441 throws a 1");
        motion.hand_at(flight.from, flight.release).position.y
    };
    let (club, ball) = (one(PropKind::Club), one(PropKind::Ball));
    assert!((club - 0.90).abs() < 1e-4, "{club}");
    assert!((ball - 1.00).abs() < 1e-4, "{ball}");
}

/// Rings held in both hands at once lie in one plane (both face the audience): where the hands
/// come closer than a ring's width with a ring in each (`8642`'s 8 thrown beside the other
/// hand's ring, two stacks of a synchronous multiplex passing), one ring slides a few
/// centimetres in depth in its hand (`Choreography::part_held_rings`). Before: rims cut 2.5 cm
/// (`8642`) and 1.4 cm (`([44],[44])`).
#[test]
fn rings_held_in_both_hands_keep_their_rims_apart() {
    for (notation, least) in [("8642", 0.0), ("([44],[44])", 0.0)] {
        let scene = with_prop(&PatternSpec::from_notation(notation), PropKind::Ring);
        let c = crate::contacts::measure(&scene, 480.0);
        eprintln!(
            "{notation} rings: least prop clearance {:+.4} m",
            c.props.value
        );
        assert!(c.props.value >= least, "{}", c.props.what);
    }
}

/// A ring in flight passing a ring held in the other hand (both face the audience, so the
/// flight's depth lane and the held ring's plane can coincide): the held ring slides in depth
/// while the flight passes, the flight keeps its lane (`Choreography::part_held_rings`).
/// Before: rims cut 2.5 cm in Burke's Barrage (Juggling Lab's hand positions: the throw from
/// high across the body passes the ring the other hand holds) and 1.2 cm in `9BBBHL1`; 2.4 cm
/// in Juggling Lab's Follow, where flights pass the ring carried through a 2 for most of its
/// hold, in two cuts 55 ms apart (each slide eased in or out where the other cut) and until
/// 20 ms before its throw.
#[test]
fn a_ring_in_flight_passes_beside_a_held_ring() {
    let burke = "pattern=423;dwell=1.0;bps=5;hands=(-15,-10)(0,25).(-15,60)(30,60).(0,25)(-15,25).";
    let follow = "pattern=423;bps=5;dwell=1.0;hands=(-25,20)(0,20).(25,50)(-25,50).(0,10)(25,-15).";
    for notation in [burke, "9BBBHL1", follow] {
        let scene = with_prop(&PatternSpec::parse(notation).unwrap(), PropKind::Ring);
        let c = crate::contacts::measure(&scene, 480.0);
        eprintln!(
            "{notation} rings: least prop clearance {:+.4} m",
            c.props.value
        );
        assert!(c.props.value >= 0.0, "{}", c.props.what);
    }
}

/// Multiplexes: props held together in one hand are laned one by one (not one constant lane
/// for a whole stack), flights are kept clear of the props held beside them and held props of
/// each other, and props thrown together part on release where one lane cannot keep them
/// clear (`motion::flight_lanes`). Before (least clearance, 160 Hz): clubs `25[62]` −8.3 cm,
/// `22[43][54]` −8.2, `25[53]` −5.1, `[43]14` −5.1, `[32]1` −2.7; rings `4[43]1` −2.5, `[32]1`
/// −2.4, `25[62]` −2.0, `[43]14` −2.0, `[54][22]2` −1.95, `22[43][54]` −1.7; balls `[32]1`
/// −2.1, `[43]14` −1.0. Now every one clear but `[43]14` clubs (−0.2 cm, was −2.9 before the
/// flights laned before it made room: the 3 arriving from the left hand passes the 4 just
/// caught).
#[test]
fn multiplexed_props_pass_beside_each_other() {
    let cases = [
        ("25[62]", PropKind::Club, -0.003),
        ("22[43][54]", PropKind::Club, -0.003),
        ("25[53]", PropKind::Club, -0.003),
        ("[43]14", PropKind::Club, -0.005),
        ("[32]1", PropKind::Club, -0.003),
        ("4[43]1", PropKind::Ring, -0.003),
        ("[32]1", PropKind::Ring, -0.003),
        ("25[62]", PropKind::Ring, -0.003),
        ("[43]14", PropKind::Ring, -0.003),
        ("[54][22]2", PropKind::Ring, -0.003),
        ("22[43][54]", PropKind::Ring, -0.003),
        ("[32]1", PropKind::Ball, -0.003),
        ("[43]14", PropKind::Ball, -0.003),
    ];
    let mut bad = Vec::new();
    for (notation, kind, least) in cases {
        let scene = with_prop(&PatternSpec::from_notation(notation), kind);
        let c = crate::contacts::measure(&scene, 160.0);
        eprintln!(
            "{notation} {kind:?}: least prop clearance {:+.4} m",
            c.props.value
        );
        if c.props.value < least {
            bad.push(format!("{:+.4} < {least}: {}", c.props.value, c.props.what));
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
}

/// Bounces fly in lanes as tosses do (`motion::flight_lanes`): a bounced ball coming up from
/// the floor passes beside the one going down and beside the arms. Before (least clearance,
/// 160 Hz), props: balls `(4xB,4xB)` −9.9 cm, `(6xB,6xB)` −10.0, `9BBBHL1` −8.1, `(4B,2x)(2x,4B)`
/// −5.5, `7BHL` −5.4; rings `(4xB,4xB)`, `4B`, `5B`, `5BBF` −2.5 each; props in an arm: rings
/// `3B` −4.8, `3BHL` −4.7, `5BBF` −4.8, `7BHL` −4.7, balls `9BBBHL1` −3.8, `3BHL` −1.4. Now
/// every one clear (clubs, which nobody bounces, still meet in `5B` and `9BBBHL1`).
#[test]
fn bounced_props_pass_beside_each_other_and_the_arms() {
    let props = [
        ("(4xB,4xB)", PropKind::Ball),
        ("(6xB,6xB)", PropKind::Ball),
        ("9BBBHL1", PropKind::Ball),
        ("(4B,2x)(2x,4B)", PropKind::Ball),
        ("7BHL", PropKind::Ball),
        ("(4xB,4xB)", PropKind::Ring),
        ("4B", PropKind::Ring),
        ("5B", PropKind::Ring),
        ("5BBF", PropKind::Ring),
    ];
    let arms = [
        ("3B", PropKind::Ring),
        ("3BHL", PropKind::Ring),
        ("5BBF", PropKind::Ring),
        ("7BHL", PropKind::Ring),
        ("9BBBHL1", PropKind::Ball),
        ("3BHL", PropKind::Ball),
    ];
    let mut bad = Vec::new();
    for (list, arm) in [(&props[..], false), (&arms[..], true)] {
        for &(notation, kind) in list {
            let scene = with_prop(&PatternSpec::from_notation(notation), kind);
            let c = crate::contacts::measure(&scene, 160.0);
            let worst = if arm { &c.arms } else { &c.props };
            eprintln!("{notation} {kind:?}: {:+.4} m {}", worst.value, worst.what);
            if worst.value < -0.003 {
                bad.push(format!("{:+.4}: {}", worst.value, worst.what));
            }
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
}

/// How far the props held alone in `scene` are from their hands over one loop at 480 Hz: at
/// most (`ends`), and half-way through their holds (`middle`, over `middles` samples); and how
/// far a hand goes off its path carrying its props' lanes (`carried`).
struct HeldOff {
    ends: f32,
    middle: f32,
    middles: usize,
    carried: f32,
}

fn held_off(scene: &Scene) -> HeldOff {
    let m = scene.motion();
    let mut out = HeldOff {
        ends: 0.0,
        middle: 0.0,
        middles: 0,
        carried: 0.0,
    };
    for k in 0..(scene.loop_duration() * 480.0) as usize {
        let t = k as f64 / 480.0;
        let s = m.state_at(t);
        for j in 0..s.hands.len() {
            for h in Hand::BOTH {
                let hand = HandRef::new(j, h);
                let off = m.hand_at(hand, t).position - m.hand_path_at(hand, t).position;
                out.carried = out.carried.max(off.length());
            }
        }
        for p in &s.props {
            let Some(by) = p.held_by else { continue };
            if s.props.iter().filter(|q| q.held_by == Some(by)).count() > 1 {
                continue;
            }
            let off = p
                .position
                .distance(s.hands[by.juggler][by.hand.index()].position);
            out.ends = out.ends.max(off);
            if (0.45..=0.55).contains(&p.dwell_progress) {
                out.middle = out.middle.max(off);
                out.middles += 1;
            }
        }
    }
    out
}

/// A laned ball or club held alone is in its hand from its catch to its throw. Flight lanes
/// (two lane steps, 10–11 cm, in depth or across in 645, 753, 97531 and 855) move a prop off
/// its hand's path at the catch and the throw. A ball's hand carries the forward part of its
/// lanes (all of it here): before, the ball was caught and thrown 11 cm in front of the fist,
/// and before that it slid from one lane to the other beside the hand the whole hold. A club's
/// hand carries its lanes sideways too: before, the club came into the middle of its hand
/// half-way and was caught and thrown with its handle 10 cm beside the fist (in the 8-club
/// two-count `<5p 3|5p 3>`, whose passes are laned sideways, 15 cm beside it); not where that
/// would take the hand above 185 m/s².
#[test]
fn a_laned_ball_or_club_is_in_its_hand_from_catch_to_throw() {
    let kinds = [PropKind::Ball, PropKind::Club];
    for (notation, kind) in ["645", "753", "97531", "855"]
        .into_iter()
        .flat_map(|n| kinds.map(|k| (n, k)))
        .chain([("<5p 3|5p 3>", PropKind::Club)])
    {
        let scene = with_prop(&PatternSpec::from_notation(notation), kind);
        let HeldOff {
            ends: worst_ends,
            middle: worst_middle,
            middles,
            carried,
        } = held_off(&scene);
        eprintln!(
            "{notation} {kind:?}: held off its hand {worst_middle} m half-way, {worst_ends} m; \
             hands carry {carried} m"
        );
        assert!(middles > 10, "{notation} {kind:?}: {middles}");
        assert!(
            worst_middle < 0.01,
            "{notation} {kind:?}: {worst_middle} m half-way"
        );
        // In the hand all through: the hand carries the lanes (two steps).
        assert!(worst_ends < 0.002, "{notation} {kind:?}: {worst_ends} m");
        assert!(carried > 0.095, "{notation} {kind:?}: carried {carried} m");
    }
    // A ring is held by its rim in the fist from catch to throw: the hand carries the forward
    // part of its lanes (a ring's grip sat 4 cm in front of the fist in the plain cascade,
    // 8 cm in the Statue of Liberty).
    for notation in ["3", "531", "645", "(4,2x)(2x,4)"] {
        let scene = with_prop(&PatternSpec::from_notation(notation), PropKind::Ring);
        let HeldOff {
            ends: worst,
            carried,
            ..
        } = held_off(&scene);
        eprintln!("{notation} rings: grip off its hand {worst} m; hands carry {carried} m");
        assert!(worst < 0.002, "{notation} rings: {worst} m");
        assert!(carried > 0.035, "{notation} rings: carried {carried} m");
    }
    // A hand that holds several balls at once carries the mean of their lanes forward: a ball
    // it holds alone sits beside the fist by the multiplex's sideways lanes, no longer in front
    // of it by their depth lanes too (`22[43][54]` 17.3 cm off, `([46],[46])(0,6)(2,2)` 12.2);
    // `[43]14`'s left hand, which the acceleration bound lets carry only a share of the mean,
    // holds its ball alone 6.0 cm off (5.8 before shares).
    for notation in ["22[43][54]", "([46],[46])(0,6)(2,2)", "[43]14", "24[54]"] {
        let scene = with_prop(&PatternSpec::from_notation(notation), PropKind::Ball);
        let worst = held_off(&scene).ends;
        eprintln!("{notation} balls held alone: {worst} m off the hand");
        assert!(worst < 0.062, "{notation} balls: {worst} m");
    }
    // A club whose hand does not carry its lane takes the lane nearest the fist that is as
    // clear (`bring_to_hands` in `flight_lanes.rs`): the passing triangles' clubs were caught
    // 8.7 cm beside the fist.
    for notation in [
        "<3p2|3p1|3> <3p3|3|3p1> <3|3p3|3p2>",
        "<3p2 3 3|3p1 3p3 3|3 3p2 3>",
    ] {
        let scene = with_prop(&PatternSpec::from_notation(notation), PropKind::Club);
        let worst = held_off(&scene).ends;
        eprintln!("{notation} clubs: held {worst} m off the hand");
        assert!(worst < 0.01, "{notation} clubs: {worst} m");
    }
    // A hand that crosses the body carries its lanes where its forearm stays as clear of the
    // other forearm: Juggling Lab's Rubenstein's Revenge (clubs held 14.9 cm off the fist,
    // balls 5.5 cm before) and Yo-Yo (its left hand over the right: 15 and 11 cm); its Mills
    // Mess, whose forearms pass within centimetres, keeps its hands to their paths.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/jml_events");
    let rubenstein = juggler::files::load_path(&dir.join("rubensteins_revenge_jl_hands.toml"))
        .expect("Rubenstein's Revenge")
        .remove(0);
    let yoyo = PatternSpec::parse(
        "pattern=(4,2);dwell=1.0;bps=4.43;hands=(-12.5)(12.5,-5).(12.5,15)(12.5,65).\
         (12.5)(-12.5,-5).(12.5,65)(12.5,10).;title=Yo-Yo",
    )
    .expect("Yo-Yo");
    for (name, spec) in [("Rubenstein's Revenge", &rubenstein), ("Yo-Yo", &yoyo)] {
        for kind in [PropKind::Ball, PropKind::Club] {
            let scene = with_prop(spec, kind);
            let HeldOff {
                ends: worst,
                carried,
                ..
            } = held_off(&scene);
            eprintln!("{name} {kind:?}: held {worst} m off the hand; hands carry {carried} m");
            assert!(worst < 0.005, "{name} {kind:?}: {worst} m");
            assert!(carried > 0.05, "{name} {kind:?}: carried {carried} m");
        }
    }
    let mills = juggler::files::load_path(&dir.join("mills_mess_jl_hands.toml"))
        .expect("Mills Mess")
        .remove(0);
    for kind in [PropKind::Ball, PropKind::Club, PropKind::Ring] {
        let carried = held_off(&with_prop(&mills, kind)).carried;
        assert!(carried < 1e-6, "Mills Mess {kind:?}: carried {carried} m");
    }
    // A hand that carrying all of its lanes would take above the carrying's acceleration
    // bound (185 m/s²) carries the largest share that keeps within it: the 10-ball fountain's
    // hands with clubs (176 m/s² on their paths; before, they carried none and held their
    // clubs 10 cm beside the fist), and Juggling Lab's `7131` with clubs (its clubs 15 cm
    // beside the fist, its left hand at 344 m/s² and a club through its upper arm before).
    let high_low =
        PatternSpec::parse("pattern=7131;bps=5.0;hands=(25)(12.5).(12.5)(25).").expect("7131");
    for (name, spec) in [("a", PatternSpec::from_notation("a")), ("7131", high_low)] {
        let scene = with_prop(&spec, PropKind::Club);
        let HeldOff {
            ends: worst,
            carried,
            ..
        } = held_off(&scene);
        let c = crate::contacts::measure(&scene, 240.0);
        eprintln!(
            "{name} clubs: held {worst} m off the hand; hands carry {carried} m; {} m/s², \
             props {} m from arms, forearms {} m apart",
            c.acceleration.value, c.arms.value, c.forearms.value
        );
        // Measured: 2.5 and 3.7 cm off, hands carrying 7.6 and 16 cm, 183.5 and 184.7 m/s².
        assert!(worst < 0.04, "{name}: {worst} m");
        assert!(carried > 0.07, "{name}: carried {carried} m");
        assert!(c.acceleration.value < 190.0, "{}", c.acceleration.what);
        assert!(c.arms.value > 0.0, "{}", c.arms.what);
        assert!(c.forearms.value > 0.0, "{}", c.forearms.what);
    }
}

/// Props a hand gathers one after another for a multiplex at one point (Juggling Lab's
/// 35-Multi Shower, `[9bdfh][11111]` with `hands=(25)(12.5).(12.5)(25).`: its left hand
/// catches five props 18 ms apart where it stands) are met, the last of them, no faster than
/// the hand can start sinking since the one before; the hand gives once they are all in.
/// Met at the last prop's own catch speed, the hand rose and fell a centimetre between two
/// catches at 490 m/s² (balls; 499 clubs, 489 rings).
#[test]
fn props_gathered_at_one_point_are_met_within_the_hands_bound() {
    let spec = PatternSpec::parse("pattern=[9bdfh][11111];hands=(25)(12.5).(12.5)(25).")
        .expect("35-Multi Shower");
    for kind in [PropKind::Ball, PropKind::Club, PropKind::Ring] {
        let scene = with_prop(&spec, kind);
        let c = crate::contacts::measure_for(&scene, 480.0, 2.0);
        eprintln!(
            "{kind:?}: {} m/s² ({})",
            c.acceleration.value, c.acceleration.what
        );
        // Measured: 176, 176 and 176 m/s²; the left hand sinks 6.4 cm.
        assert!(
            c.acceleration.value < 200.0,
            "{kind:?}: {}",
            c.acceleration.what
        );
    }
}

/// A club's 1 from the throw point Juggling Lab's `hands=` give it (a ball juggler's points) is
/// handed across at least 16 cm below the hand plane (`CLUB_ONE_DROP_GIVEN`), under the club
/// the other hand has just thrown: at its points Mills Mess 315's clubs met 4.6 cm deep,
/// `4[43]1`'s 3.1 cm, `7131`'s 8.3 cm and 441 Shuffle's 7.6 cm (its 1 handed from 50 cm up),
/// and 441 Shuffle's flying club cut 7.7 cm into a forearm.
#[test]
fn a_clubs_one_is_handed_across_below_its_given_throw_point() {
    for (text, props, arms) in [
        (
            "pattern=315;bps=4;hands=(-25)(2.5).(25)(-2.5).(-25)(0).",
            true,
            false,
        ),
        ("pattern=4[43]1;bps=3.5;hands=(10)(32.5).", true, false),
        (
            "pattern=441;bps=5.5;hands=(12.5,-10)(37.5,20).(15)(12,5,-10).(22.5,50)(15).",
            true,
            true,
        ),
        (
            "pattern=7131;bps=5;hands=(25)(12.5).(12.5)(25).",
            true,
            true,
        ),
        (
            "pattern=913131;bps=5.0;hands=(25)(12.5).(12.5)(25).",
            true,
            false,
        ),
    ] {
        let spec = PatternSpec::parse(text).expect(text);
        let c = crate::contacts::measure(&with_prop(&spec, PropKind::Club), 240.0);
        eprintln!(
            "{text}: props {} m apart, {} m from arms",
            c.props.value, c.arms.value
        );
        // Measured: 315 +0.2 cm, 4[43]1 +2.1 cm, 441 +3.3 cm, 7131 +2.0 cm, 913131 +0.1 cm
        // apart; 441 +4.0 cm, 7131 +4.1 cm from their arms.
        assert!(!props || c.props.value > -0.01, "{}", c.props.what);
        assert!(!arms || c.arms.value > 0.0, "{}", c.arms.what);
    }
}

/// Clubs are measured as drawn (`contacts::prop_clearance`, `CLUB_PIECES`): two clubs side by
/// side 5 cm apart touch at their bodies (4.17 cm in radius each) but not at their handles
/// (1.26 cm), so handles crossing 5 cm apart are clear where one capsule of the body's radius
/// along the whole club counted 3.4 cm of overlap.
#[test]
fn clubs_are_measured_as_drawn_thin_handles_thick_bodies() {
    let club = |position: Vec3, axis: Vec3| juggler::body::PropPose {
        kind: PropKind::Club,
        position,
        axis: axis.normalize(),
        held_by: None,
        orbit: 0,
        color: juggler::types::Rgba::rgb(200, 50, 50),
        size: CLUB_LENGTH,
    };
    // Parallel, 5 cm apart: the bodies overlap by 2 × 4.17 − 5 = 3.34 cm.
    let a = club(Vec3::ZERO, Vec3::Y);
    let b = club(Vec3::new(0.05, 0.0, 0.0), Vec3::Y);
    let side_by_side = crate::contacts::prop_clearance(&a, &b);
    assert!((side_by_side + 0.0334).abs() < 5e-4, "{side_by_side}");
    // Crossed at right angles, handles 5 cm apart (10 cm from each knob, the handle 1.26 cm
    // thick in radius): clear by 5 − 2 × 1.26 = 2.48 cm.
    let knob_to_pivot = CLUB_PIVOT_FROM_KNOB;
    let c = club(Vec3::new(0.0, knob_to_pivot - 0.10, 0.0), Vec3::Y);
    let d = club(Vec3::new(knob_to_pivot - 0.10, 0.0, 0.05), Vec3::X);
    let handles = crate::contacts::prop_clearance(&c, &d);
    assert!((handles - 0.0248).abs() < 5e-4, "{handles}");
    // The same handles against a forearm 4 cm thick 4 cm away: clear by 4 − 1.26 − 2 cm.
    let arm = crate::contacts::capsule_clearance(
        &c,
        Vec3::new(-0.2, 0.0, 0.04),
        Vec3::new(0.2, 0.0, 0.04),
        0.02,
    );
    assert!((arm - 0.0074).abs() < 5e-4, "{arm}");
}
