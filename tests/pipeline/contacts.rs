//! Contact measures of one animated pattern, sampled over its loop: how deep props cut into
//! each other and into arms, how close a juggler's two hands come, how hard a hand
//! accelerates, how far an elbow goes behind the shoulders, how far a held prop is off its
//! hand. Shared by the tests in `motion_realism.rs` and `examples/motion_audit.rs` (which
//! includes this file).
#![allow(dead_code)]

use glam::Vec3;

use juggler::body::props::{club_capsules, CLUB_LENGTH, CLUB_PIVOT_FROM_KNOB};
use juggler::body::{JugglerPose, PropPose};
use juggler::scene::Scene;
use juggler::types::{Hand, HandRef, PropKind};

/// A club's widest radius (the drawn profile's 8.6 % of its 48.5 cm length), metres: a capsule
/// of it from knob to tip holds the whole club; where that one touches something, the club is
/// measured as drawn, by the pieces of its profile (`CLUB_PIECES`: a handle 1.3 cm thick in
/// radius, a body 4.2 cm).
pub const CLUB_RADIUS: f32 = juggler::body::props::CLUB_RADIUS;
/// A ring's rim: the circle halfway between its outer and inner edges, and the rim's half
/// width around it (metres).
pub const RING_MID_RADIUS: f32 = 0.1125;
pub const RING_HALF_WIDTH: f32 = 0.0125;
/// Points of a ring's rim measured against another ring or an arm.
const RIM_POINTS: usize = 48;
/// Seconds after its own release or before its own catch in which a prop may touch the arm
/// of the hand that throws or catches it.
pub const OWN_HAND_WINDOW: f64 = 0.12;

/// Distance from `p` to the segment `a`–`b`.
pub fn segment_distance(p: Vec3, a: Vec3, b: Vec3) -> f32 {
    let ab = b - a;
    let s = ((p - a).dot(ab) / ab.length_squared().max(1e-12)).clamp(0.0, 1.0);
    p.distance(a + ab * s)
}

/// Closest distance between the segments `p0`–`p1` and `q0`–`q1`.
pub fn segments_distance(p0: Vec3, p1: Vec3, q0: Vec3, q1: Vec3) -> f32 {
    let (d1, d2, r) = (p1 - p0, q1 - q0, p0 - q0);
    let (a, e, f) = (d1.length_squared(), d2.length_squared(), d2.dot(r));
    if a < 1e-12 {
        return segment_distance(p0, q0, q1);
    }
    if e < 1e-12 {
        return segment_distance(q0, p0, p1);
    }
    let (b, c) = (d1.dot(d2), d1.dot(r));
    let denom = a * e - b * b;
    let mut s = if denom > 1e-12 {
        ((b * f - c * e) / denom).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let mut t = (b * s + f) / e;
    if t < 0.0 {
        t = 0.0;
        s = (-c / a).clamp(0.0, 1.0);
    } else if t > 1.0 {
        t = 1.0;
        s = ((b - c) / a).clamp(0.0, 1.0);
    }
    (p0 + d1 * s).distance(q0 + d2 * t)
}

/// Points on a ring's rim (its mid circle).
fn rim(ring: &PropPose) -> impl Iterator<Item = Vec3> + '_ {
    let n = ring.axis.normalize_or(Vec3::Z);
    let u = n.any_orthonormal_vector();
    let v = n.cross(u);
    (0..RIM_POINTS).map(move |k| {
        let a = std::f32::consts::TAU * k as f32 / RIM_POINTS as f32;
        ring.position + (u * a.cos() + v * a.sin()) * RING_MID_RADIUS
    })
}

/// Distance from `p` to a ring's mid circle.
fn circle_distance(p: Vec3, ring: &PropPose) -> f32 {
    let n = ring.axis.normalize_or(Vec3::Z);
    let d = p - ring.position;
    let h = d.dot(n);
    let q = (d - n * h).length();
    (h * h + (q - RING_MID_RADIUS).powi(2)).sqrt()
}

/// A club's knob and tip.
fn club_ends(club: &PropPose) -> (Vec3, Vec3) {
    let knob = club.position - club.axis * CLUB_PIVOT_FROM_KNOB;
    (knob, knob + club.axis * CLUB_LENGTH)
}

/// Clearance between two props of the same kind (metres, negative = overlap).
pub fn prop_clearance(a: &PropPose, b: &PropPose) -> f32 {
    match a.kind {
        PropKind::Ball => a.position.distance(b.position) - 0.5 * (a.size + b.size),
        PropKind::Club => {
            let ((a0, a1), (b0, b1)) = (club_ends(a), club_ends(b));
            let whole = segments_distance(a0, a1, b0, b1) - 2.0 * CLUB_RADIUS;
            if whole > 0.0 {
                return whole;
            }
            club_capsules(a.position, a.axis)
                .flat_map(|p| club_capsules(b.position, b.axis).map(move |q| (p, q)))
                .map(|(p, q)| segments_distance(p.0, p.1, q.0, q.1) - p.2 - q.2)
                .fold(f32::INFINITY, f32::min)
        }
        PropKind::Ring => {
            if a.position.distance(b.position) > 2.0 * (RING_MID_RADIUS + RING_HALF_WIDTH) {
                return a.position.distance(b.position) - 2.0 * (RING_MID_RADIUS + RING_HALF_WIDTH);
            }
            rim(a)
                .map(|p| circle_distance(p, b))
                .fold(f32::INFINITY, f32::min)
                - 2.0 * RING_HALF_WIDTH
        }
    }
}

/// Clearance of a prop from a capsule `a`–`b` of radius `r`.
pub fn capsule_clearance(prop: &PropPose, a: Vec3, b: Vec3, r: f32) -> f32 {
    match prop.kind {
        PropKind::Ball => segment_distance(prop.position, a, b) - r - 0.5 * prop.size,
        PropKind::Club => {
            let (k, t) = club_ends(prop);
            let whole = segments_distance(k, t, a, b) - r - CLUB_RADIUS;
            if whole > 0.0 {
                return whole;
            }
            club_capsules(prop.position, prop.axis)
                .map(|p| segments_distance(p.0, p.1, a, b) - r - p.2)
                .fold(f32::INFINITY, f32::min)
        }
        PropKind::Ring => {
            if segment_distance(prop.position, a, b) > RING_MID_RADIUS + RING_HALF_WIDTH + r {
                return segment_distance(prop.position, a, b)
                    - RING_MID_RADIUS
                    - RING_HALF_WIDTH
                    - r;
            }
            rim(prop)
                .map(|p| segment_distance(p, a, b))
                .fold(f32::INFINITY, f32::min)
                - r
                - RING_HALF_WIDTH
        }
    }
}

/// The worst of one measure over a loop: its value and where it happened.
#[derive(Clone, Debug)]
pub struct Worst {
    pub value: f32,
    pub what: String,
}

impl Worst {
    fn least() -> Self {
        Worst {
            value: f32::INFINITY,
            what: String::new(),
        }
    }

    fn most() -> Self {
        Worst {
            value: f32::NEG_INFINITY,
            what: String::new(),
        }
    }

    fn keep_least(&mut self, value: f32, what: impl FnOnce() -> String) {
        if value < self.value {
            self.value = value;
            self.what = what();
        }
    }

    fn keep_most(&mut self, value: f32, what: impl FnOnce() -> String) {
        if value > self.value {
            self.value = value;
            self.what = what();
        }
    }
}

/// The contact measures of one scene.
#[derive(Clone, Debug)]
pub struct Contacts {
    /// Least clearance between two props (metres, negative = overlap).
    pub props: Worst,
    /// Least distance between the centres of one juggler's two hands (metres).
    pub hands: Worst,
    /// Least clearance between one juggler's two forearms (elbow–hand capsules; metres,
    /// negative = one through the other).
    pub forearms: Worst,
    /// Least clearance of a prop from an arm (upper arm and forearm capsules), except the arm
    /// of a hand holding it or within `OWN_HAND_WINDOW` of throwing or catching it.
    pub arms: Worst,
    /// Largest hand acceleration (m/s²).
    pub acceleration: Worst,
    /// The least peak acceleration (m/s²) any path through the throw and catch points of the
    /// hand that accelerates hardest, at their times, would need (`points_need`): what its
    /// events ask for, whatever the path between them.
    pub points_need: f32,
    /// Largest distance of an elbow behind its shoulders' frontal plane (metres).
    pub elbow_behind: Worst,
    /// Largest distance of a prop a hand holds alone from that hand's centre (metres): a
    /// ball's centre, a club's knob–tip axis, a ring's rim.
    pub held_off: Worst,
    /// Poses sampled.
    pub samples: usize,
}

/// Clearances beyond this (metres) are not looked for between props far apart: the measures
/// are exact wherever their least is below it.
const FAR: f32 = 1.0;

/// Radius of a sphere about a prop's position that holds the whole prop.
fn prop_bound(prop: &PropPose) -> f32 {
    match prop.kind {
        PropKind::Ball => 0.5 * prop.size,
        PropKind::Club => {
            CLUB_PIVOT_FROM_KNOB.max(CLUB_LENGTH - CLUB_PIVOT_FROM_KNOB) + CLUB_RADIUS
        }
        PropKind::Ring => RING_MID_RADIUS + RING_HALF_WIDTH,
    }
}

/// Whether `prop` may touch the arm of `hand` at `t`: held by it, or within the window of
/// its own release from it or catch by it, also where it is already caught by the other hand
/// (a 1 handed across arrives in 0.1 s, beside the arm that threw it) or still held by the
/// hand that throws it there.
fn own_arm(scene: &Scene, i: usize, hand: HandRef, t: f64, prop: &PropPose) -> bool {
    if prop.held_by == Some(hand) {
        return true;
    }
    let motion = scene.motion();
    if let Some(flight) = motion.state_at(t).props[i].flight {
        if (flight.from == hand && t - flight.release < OWN_HAND_WINDOW)
            || (flight.to == hand && flight.catch - t < OWN_HAND_WINDOW)
        {
            return true;
        }
    }
    // In `hand` a window before or after, not now: thrown by it or caught by it within the
    // window.
    let held_then = |dt: f64| {
        let then = scene.loop_time(t + dt);
        motion.state_at(then).props[i].held_by == Some(hand)
    };
    held_then(-OWN_HAND_WINDOW) || held_then(OWN_HAND_WINDOW)
}

/// Samples `scene` over one loop at `rate` poses per second (at least 500 a loop).
pub fn measure(scene: &Scene, rate: f64) -> Contacts {
    measure_for(scene, rate, f64::INFINITY)
}

/// Samples `scene` like `measure`, over its first `span` seconds when its loop is longer (a
/// multiplex of many orbits, `[rstuvw]`, loops only after millions of beats).
pub fn measure_for(scene: &Scene, rate: f64, span: f64) -> Contacts {
    let name = format!(
        "{} ({}) {:?}",
        scene.spec().name,
        scene
            .spec()
            .source
            .text()
            .chars()
            .take(60)
            .collect::<String>(),
        scene.spec().settings.prop
    );
    let duration = scene.loop_duration().min(span);
    let samples = 500usize.max((duration * rate).ceil() as usize);
    let dt = duration / samples as f64;
    let mut c = Contacts {
        props: Worst::least(),
        hands: Worst::least(),
        forearms: Worst::least(),
        arms: Worst::least(),
        acceleration: Worst::most(),
        points_need: 0.0,
        elbow_behind: Worst::most(),
        held_off: Worst::most(),
        samples,
    };
    // The hand slot of the hardest acceleration.
    let mut hardest = 0;
    let motion = scene.motion();
    let jugglers = motion.jugglers();
    let velocity = |t: f64| -> Vec<Vec3> {
        (0..jugglers)
            .flat_map(|j| Hand::BOTH.map(|h| motion.hand_at(HandRef::new(j, h), t).velocity))
            .collect()
    };
    for k in 0..samples {
        let t = k as f64 * dt;
        let pose = scene.pose_at(t);
        // Props against props: swept in order of x, each against those whose bounds come
        // within `FAR` of its own along x (farther ones are further apart than `FAR`, so the
        // least clearance is exact wherever it is below `FAR`; patterns of thousands of props
        // measure in time).
        let bound = pose.props.iter().map(prop_bound).fold(0.0, f32::max);
        let mut by_x: Vec<usize> = (0..pose.props.len()).collect();
        by_x.sort_by(|&a, &b| {
            pose.props[a]
                .position
                .x
                .total_cmp(&pose.props[b].position.x)
        });
        for (n, &i) in by_x.iter().enumerate() {
            let a = &pose.props[i];
            for &j in &by_x[n + 1..] {
                let b = &pose.props[j];
                if b.position.x - a.position.x > 2.0 * bound + FAR {
                    break;
                }
                let (i, j, a, b) = if i < j { (i, j, a, b) } else { (j, i, b, a) };
                let d = prop_clearance(a, b);
                c.props.keep_least(d, || {
                    format!(
                        "{name}: props {i} ({}) and {j} ({}) at t={t:.3}",
                        state(a),
                        state(b)
                    )
                });
            }
        }
        for (jn, jp) in pose.jugglers.iter().enumerate() {
            let [l, r] = jp.arms;
            c.hands.keep_least(l.hand.distance(r.hand), || {
                format!("{name}: juggler {}'s hands at t={t:.3}", jn + 1)
            });
            let fore = segments_distance(l.elbow, l.hand, r.elbow, r.hand) - jp.dims.forearm_width;
            c.forearms.keep_least(fore, || {
                format!("{name}: juggler {}'s forearms at t={t:.3}", jn + 1)
            });
            for side in Hand::BOTH {
                let behind = elbow_behind(jp, side);
                c.elbow_behind.keep_most(behind, || {
                    format!("{name}: juggler {}'s {side:?} elbow at t={t:.3}", jn + 1)
                });
            }
            // The arms' reach: a sphere about each elbow holding both its capsules.
            let reach = jp.arms.map(|arm| {
                arm.elbow
                    .distance(arm.shoulder)
                    .max(arm.elbow.distance(arm.hand))
                    + 0.5 * jp.dims.upper_arm_width.max(jp.dims.forearm_width)
            });
            // Only the props within that reach along x (in index order, as measured before).
            let (lo, hi) = (0..2).fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), k| {
                let x = jp.arms[k].elbow.x;
                (lo.min(x - reach[k]), hi.max(x + reach[k]))
            });
            let x_of = |k: &usize| pose.props[*k].position.x;
            let first = by_x.partition_point(|k| x_of(k) < lo - bound - FAR);
            let last = by_x.partition_point(|k| x_of(k) <= hi + bound + FAR);
            let mut near: Vec<usize> = by_x[first..last.max(first)].to_vec();
            near.sort_unstable();
            for i in near {
                let prop = &pose.props[i];
                for side in Hand::BOTH {
                    let hand = HandRef::new(jn, side);
                    let arm = jp.arms[side.index()];
                    // Farther than `FAR` from both capsules: exact wherever the least is below.
                    if prop.position.distance(arm.elbow)
                        > reach[side.index()] + prop_bound(prop) + FAR
                    {
                        continue;
                    }
                    let upper = capsule_clearance(
                        prop,
                        arm.shoulder,
                        arm.elbow,
                        0.5 * jp.dims.upper_arm_width,
                    );
                    let fore =
                        capsule_clearance(prop, arm.elbow, arm.hand, 0.5 * jp.dims.forearm_width);
                    let d = upper.min(fore);
                    if d < c.arms.value && !own_arm(scene, i, hand, t, prop) {
                        c.arms.keep_least(d, || {
                            format!(
                                "{name}: prop {i} ({}) and juggler {}'s {side:?} {} at t={t:.3}",
                                state(prop),
                                jn + 1,
                                if upper < fore { "upper arm" } else { "forearm" }
                            )
                        });
                    }
                }
            }
        }
        // Props held alone: how far from their hands.
        for (i, prop) in pose.props.iter().enumerate() {
            let Some(by) = prop.held_by else {
                continue;
            };
            if pose.props.iter().filter(|q| q.held_by == Some(by)).count() > 1 {
                continue;
            }
            let Some(jp) = pose.jugglers.get(by.juggler) else {
                continue;
            };
            let hand = jp.arms[by.hand.index()].hand;
            let off = match prop.kind {
                PropKind::Ball => hand.distance(prop.position),
                PropKind::Club => {
                    let (knob, tip) = club_ends(prop);
                    segment_distance(hand, knob, tip)
                }
                PropKind::Ring => circle_distance(hand, prop),
            };
            c.held_off.keep_most(off, || {
                format!(
                    "{name}: prop {i} and juggler {}'s {:?} hand at t={t:.3}",
                    by.juggler + 1,
                    by.hand
                )
            });
        }
        // Hand acceleration: central difference of the exact hand velocities.
        let h = 0.5 * dt.min(1.0 / 480.0);
        let (before, after) = (velocity(t - h), velocity(t + h));
        for (slot, (a, b)) in before.iter().zip(&after).enumerate() {
            let acc = (*b - *a).length() / (2.0 * h) as f32;
            if acc > c.acceleration.value {
                hardest = slot;
            }
            c.acceleration.keep_most(acc, || {
                format!(
                    "{name}: juggler {}'s {:?} hand at t={t:.3}",
                    slot / 2 + 1,
                    HandRef::from_slot(slot).hand
                )
            });
        }
    }
    c.points_need = points_need(scene, HandRef::from_slot(hardest), duration);
    c
}

/// The least peak acceleration (m/s²) of any path of `hand` through the points where it is at
/// its events (throws, catches and the source's other points, [`Motion::hand_event_times`])
/// over the first `span` seconds and a hand period either side, at their times, releasing each
/// ball at the ball's own velocity (a hand throws a ball by moving with it; clubs and rings,
/// which turn about the hand as they leave it, are taken at their points only). A velocity
/// that changes at most `A` per second differs between two times by at most `A` times their
/// distance; between its events `i` and `i + 1` the hand's mean velocity is fixed, `v̄ᵢ =
/// (pᵢ₊₁ − pᵢ) / (tᵢ₊₁ − tᵢ)`, so averaging over those spans bounds `A` from below by `|v̄ⱼ −
/// v̄ᵢ|` over the distance of their midpoints, `|v̄ᵢ − u|` over the distance of the midpoint
/// from a release at velocity `u`, and `|u − u'|` over the time between two releases; a
/// straight velocity ramp meets each bound. Points where the hand is at two places at once
/// need infinite acceleration.
pub fn points_need(scene: &Scene, hand: HandRef, span: f64) -> f32 {
    use juggler::scene::EventKind;
    let motion = scene.motion();
    let period = motion.hand_period();
    let times = motion.hand_event_times(hand);
    if period.is_nan() || period <= 0.0 || times.is_empty() {
        return 0.0;
    }
    let cycles = (span / period).ceil().clamp(1.0, 1e6);
    let (from, to) = (-period, (cycles + 1.0) * period);
    // The hand's points at its events, in time order.
    let mut points: Vec<(f64, Vec3)> = Vec::new();
    for n in -1..=cycles as i64 {
        for &t in times {
            let t = t + n as f64 * period;
            let p = motion.hand_at(hand, t).position;
            match points.last() {
                Some(&(s, q)) if t - s < 1e-7 => {
                    if p.distance(q) > 1e-3 {
                        return f32::INFINITY;
                    }
                }
                _ => points.push((t, p)),
            }
        }
    }
    // Velocities the hand must have: each ball's at its release.
    let mut releases: Vec<(f64, Vec3)> = Vec::new();
    if scene.spec().settings.prop == PropKind::Ball {
        for e in scene.events_between(from, to) {
            if e.hand != Some(hand) || e.kind != EventKind::Throw {
                continue;
            }
            let eps = 1e-5;
            let state = motion.state_at(e.time + eps);
            let ball = state.props.iter().find(|p| {
                p.flight
                    .is_some_and(|f| f.from == hand && (f.release - e.time).abs() < 1e-6)
            });
            if let Some(ball) = ball {
                let g = scene.timing().gravity as f32;
                releases.push((e.time, ball.velocity + Vec3::Y * g * eps as f32));
            }
        }
    }
    // Mean velocity and midpoint time of each span between events, and each release, in time
    // order: (time, velocity).
    let mut known: Vec<(f64, Vec3)> = points
        .windows(2)
        .map(|w| {
            let dt = w[1].0 - w[0].0;
            (0.5 * (w[0].0 + w[1].0), (w[1].1 - w[0].1) / dt as f32)
        })
        .chain(releases)
        .collect();
    known.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut need = 0.0f32;
    for (i, &(ti, vi)) in known.iter().enumerate() {
        for &(tj, vj) in known.iter().skip(i + 1).take(12) {
            if tj - ti > 1e-9 {
                need = need.max((vj - vi).length() / (tj - ti) as f32);
            }
        }
    }
    need
}

fn state(p: &PropPose) -> &'static str {
    if p.held_by.is_some() {
        "held"
    } else {
        "flying"
    }
}

/// How far an elbow is behind the frontal plane of its juggler's shoulders (metres, in the
/// juggler's own frame; negative = in front).
pub fn elbow_behind(j: &JugglerPose, side: Hand) -> f32 {
    let local = |p: Vec3| j.placement.to_local(p);
    let shoulders = 0.5 * (local(j.arms[0].shoulder).z + local(j.arms[1].shoulder).z);
    shoulders - local(j.arms[side.index()].elbow).z
}
