//! Flight lanes: props in flight never pass through each other.
//!
//! Two flights that would meet in the air (crossing throws of a synchronous pattern, the
//! multiplexed props of `[43]14` parting, a high throw passing a low one, passes between two
//! jugglers in opposite directions along one lane, rings crossing in one plane) are moved
//! apart as a whole: a flight's prop is released and caught a few centimetres off its hands'
//! event points (`Toss::release_offset`/`catch_offset`), the same world offset at both ends,
//! so it still flies an exact parabola, only beside the other one. A held prop slides
//! linearly from the lane it arrived in to the lane it leaves in (`PathSegment::Held`
//! offsets), so it stays in the hand; the hands themselves do not move.
//!
//! Lanes run where they separate props of each kind: balls and rings thrown by a juggler to
//! themselves in depth (rings facing the audience then fly in parallel planes), clubs (which
//! spin in the thrower's sagittal plane) and every pass sideways, toward the thrower's right,
//! as passers keep their right-hand passes to one side. Clubs and rings thrown together
//! share one lane (their multiplex lanes and ring stacks shift alike), and those held together
//! in one hand (a multiplex, a squeezed catch) fly and are held in one constant lane, so a
//! stack never slides into itself.
//!
//! Props are measured as they are drawn (`FlightShape`, given by the scene): a ball's sphere,
//! a club's capsule from knob to tip turning with its spins about its centre of mass, a
//! ring's rim; every 10 ms, five times finer where two come within 6 cm.
//!
//! A lane belongs to a kind of throw, not to one toss of the choreography: flights that repeat
//! one another within the hand period (same hands, flight time, release and catch points, a
//! whole pattern cycle apart) form one class, and the classes of one pattern cycle are laned
//! in the order of their release phase within that cycle, flight time and release point, each
//! taking the first lane that keeps it clear of every class laned before it and of every
//! repeat (its own included), or the least bad one. So a pattern and its JIF, JML or TOML
//! read-back (a hand period several cycles long, tosses in another order, rounded times) lane
//! alike.

use glam::DVec3;

use super::choreography::{Choreography, PathSegment, Toss, TossKind, ORIGIN};
use crate::layout::Placement;
use crate::types::PropKind;

/// Farthest a prop is moved off its hand's event point by its flight lane, metres (three
/// lane steps of the widest kind).
pub const MAX_FLIGHT_LANE: f64 = 3.0 * 0.055;
/// Intrusions (metres) below this count as clear, so that points rounded differently (a JML
/// export read back) lane alike.
const CLEAR: f64 = 1e-4;
/// Most tosses per hand period laned (larger patterns keep their flights as they are).
const MAX_TOSSES: usize = 2000;
/// Time between two compared points of two flights, seconds.
const SAMPLE_STEP: f64 = 0.01;
/// Samples the lane search may take for one pattern (about a second): beyond it the flights
/// not yet laned keep their own lane. A 57-prop multiplex of 30s (`[15uuu…upg]`, 1667 props,
/// every flight overlapping every other's 60 copies) took 40 s before (fuzzing found it).
const MAX_SAMPLES: u64 = 30_000_000;
/// Extra clearance asked between two props, metres.
const MARGIN: f64 = 0.01;
/// Extra clearance asked between two rings' rims, metres (a ring's depth lane is sized to a
/// rim's width, 4 cm, so a whole centimetre more would ask two steps).
const RIM_MARGIN: f64 = 0.003;

/// A flying prop's shape as the lane solver measures it (the sizes `body::props` draws and
/// `tests/pipeline/contacts.rs` measures): a ball's sphere, a club's capsule from knob to tip,
/// a ring's rim.
#[derive(Clone, Copy, Debug)]
struct Clearance {
    kind: PropKind,
}

/// A ball's diameter, metres.
const BALL_DIAMETER: f64 = 0.10;
/// A club's knob and tip from its centre of mass along its axis, and its widest radius.
const CLUB_KNOB: f64 = 0.20;
const CLUB_TIP: f64 = 0.285;
const CLUB_RADIUS: f64 = 0.0418;
/// A ring's rim: the circle halfway between its edges, and the rim's half width.
const RING_MID_RADIUS: f64 = 0.1125;
const RING_HALF_WIDTH: f64 = 0.0125;
/// Points of a ring's rim measured against the other ring.
const RIM_POINTS: usize = 16;

fn clearance(kind: PropKind) -> Clearance {
    Clearance { kind }
}

/// Offset between neighbouring lanes (metres) of props of `kind` (rings thrown `flat`) whose
/// lanes run sideways or in depth: rings facing the audience need a rim's width plus a
/// little between parallel planes, and far more side by side in one plane.
fn lane_step(kind: PropKind, flat: bool, sideways: bool) -> f64 {
    match kind {
        PropKind::Ring if flat || sideways => 0.055,
        PropKind::Ring => 0.04,
        PropKind::Ball => 0.055,
        PropKind::Club => 0.05,
    }
}

impl Clearance {
    /// How deep two props, centres `a` and `b` with axes `u` and `v` (unit), come inside
    /// each other plus `MARGIN` (metres; 0 or less when clear).
    fn depth(self, a: DVec3, u: DVec3, b: DVec3, v: DVec3) -> f64 {
        let d = a.distance(b);
        match self.kind {
            PropKind::Ball => BALL_DIAMETER + MARGIN - d,
            PropKind::Club => {
                let reach = 2.0 * (CLUB_TIP + CLUB_RADIUS) + MARGIN;
                if d > reach {
                    return reach - d;
                }
                let (a0, a1) = (a - u * CLUB_KNOB, a + u * CLUB_TIP);
                let (b0, b1) = (b - v * CLUB_KNOB, b + v * CLUB_TIP);
                2.0 * CLUB_RADIUS + MARGIN - segments_distance(a0, a1, b0, b1)
            }
            PropKind::Ring => {
                let reach = 2.0 * (RING_MID_RADIUS + RING_HALF_WIDTH) + RIM_MARGIN;
                if d > reach {
                    return reach - d;
                }
                let closest = rim_points(a, u)
                    .map(|p| circle_distance(p, b, v))
                    .fold(f64::INFINITY, f64::min);
                2.0 * RING_HALF_WIDTH + RIM_MARGIN - closest
            }
        }
    }
}

/// Points of the rim (mid circle) of a ring centred at `c` with normal `n`.
fn rim_points(c: DVec3, n: DVec3) -> impl Iterator<Item = DVec3> {
    let u = n.any_orthonormal_vector();
    let v = n.cross(u);
    (0..RIM_POINTS).map(move |k| {
        let a = std::f64::consts::TAU * k as f64 / RIM_POINTS as f64;
        c + (u * a.cos() + v * a.sin()) * RING_MID_RADIUS
    })
}

/// Distance from `p` to the mid circle of a ring centred at `c` with normal `n`.
fn circle_distance(p: DVec3, c: DVec3, n: DVec3) -> f64 {
    let d = p - c;
    let h = d.dot(n);
    let q = (d - n * h).length();
    (h * h + (q - RING_MID_RADIUS).powi(2)).sqrt()
}

/// Distance from `p` to the segment `a`–`b`.
fn segment_distance(p: DVec3, a: DVec3, b: DVec3) -> f64 {
    let ab = b - a;
    let s = ((p - a).dot(ab) / ab.length_squared().max(1e-12)).clamp(0.0, 1.0);
    p.distance(a + ab * s)
}

/// Closest distance between the segments `p0`–`p1` and `q0`–`q1`.
fn segments_distance(p0: DVec3, p1: DVec3, q0: DVec3, q1: DVec3) -> f64 {
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

/// How a flying prop of a toss is turned and where its centre is: for the toss, its
/// progress (0 at the release, 1 at the catch) and the jugglers' placements at its release,
/// the offset from the grip (the hands' point) to the prop's centre and the prop's axis
/// (unit; a ring's normal), world directions.
pub(crate) type FlightShape<'a> = &'a dyn Fn(&Toss, f64, &[Placement]) -> (DVec3, DVec3);

/// Axes sampled per flight, at most.
const MAX_AXES: usize = 400;

/// One flight as the lane solver sees it: a parabola in the world.
#[derive(Clone, Debug)]
pub(crate) struct Arc {
    release: f64,
    catch: f64,
    p0: DVec3,
    v0: DVec3,
    gravity: f64,
    /// World offset of this flight's neighbouring lane (direction times the lane step).
    lane: DVec3,
    /// Whether it moves only together with the props thrown with it: clubs and rings thrown
    /// or caught by a hand that holds several props at once (their multiplex lanes and ring
    /// stacks stay as they are, all shifted alike).
    together: bool,
    /// Hand slots of the thrower and the catcher.
    hands: (usize, usize),
    /// Offsets from the grip to the prop's centre at the release and at the catch (the
    /// centre's offset runs linearly in between).
    grip: (DVec3, DVec3),
    /// The prop's axis at evenly spaced progress of the flight, release to catch.
    axes: Vec<DVec3>,
}

impl Arc {
    /// The flight of toss `t` from hand point `points.0` to `points.1` (juggler-local, its
    /// lane offsets added) with the thrower and catcher placed at `places`, in no lane of its
    /// own yet; `None` for a bounce or a flight that is not finite.
    pub(crate) fn of(
        t: &Toss,
        points: (DVec3, DVec3),
        places: (Placement, Placement),
        gravity: f64,
        shape: FlightShape,
        placements: &[Placement],
    ) -> Option<Arc> {
        let duration = t.catch - t.release;
        if t.kind != TossKind::Toss || !duration.is_finite() || duration <= 0.0 {
            return None;
        }
        let (from, to) = places;
        let p0 = from.position.as_dvec3() + rotate(from.facing, points.0 + t.release_offset);
        let p1 = to.position.as_dvec3() + rotate(to.facing, points.1 + t.catch_offset);
        let g = t
            .gravity
            .filter(|g| g.is_finite() && *g > 0.0)
            .unwrap_or(gravity);
        let v0 = (p1 - p0) / duration + DVec3::Y * (0.5 * g * duration);
        let count = ((duration / (0.5 * SAMPLE_STEP)).ceil() as usize).clamp(8, MAX_AXES);
        let axes: Vec<DVec3> = (0..=count)
            .map(|k| shape(t, k as f64 / count as f64, placements).1)
            .collect();
        let grip = (shape(t, 0.0, placements).0, shape(t, 1.0, placements).0);
        let finite = grip.0.is_finite() && grip.1.is_finite() && axes.iter().all(|a| a.is_finite());
        (p0.is_finite() && v0.is_finite() && finite).then_some(Arc {
            release: t.release,
            catch: t.catch,
            p0,
            v0,
            gravity: g,
            lane: DVec3::ZERO,
            together: false,
            hands: (t.from.slot(), t.to.slot()),
            grip,
            axes,
        })
    }

    fn at(&self, t: f64) -> DVec3 {
        let s = t - self.release;
        self.p0 + self.v0 * s - DVec3::Y * (0.5 * self.gravity * s * s)
    }

    /// The prop's centre (on its own lane's grip parabola `at`) and axis at `t`.
    fn pose(&self, t: f64) -> (DVec3, DVec3) {
        let f = ((t - self.release) / (self.catch - self.release)).clamp(0.0, 1.0);
        let centre = self.at(t) + self.grip.0.lerp(self.grip.1, f);
        let last = self.axes.len().saturating_sub(1);
        let x = f * last as f64;
        let k = (x.floor() as usize).min(last.saturating_sub(1));
        let axis = match (self.axes.get(k), self.axes.get(k + 1)) {
            (Some(a), Some(b)) => a.lerp(*b, x - k as f64).normalize_or(*a),
            (Some(a), None) => *a,
            _ => DVec3::Y,
        };
        (centre, axis)
    }
}

fn rotate(facing: f32, local: DVec3) -> DVec3 {
    let (s, c) = f64::from(facing).sin_cos();
    DVec3::new(
        c * local.x + s * local.z,
        local.y,
        -s * local.x + c * local.z,
    )
}

fn unrotate(facing: f32, world: DVec3) -> DVec3 {
    rotate(-facing, world)
}

impl Choreography {
    /// Moves flights that would meet in the air into lanes beside each other (see the module
    /// doc), for props of `kind` (rings thrown `flat` or facing the audience) under `gravity`
    /// (m/s², for flights without their own), each flying prop turned and centred on its grip
    /// as `shape` says.
    pub(crate) fn separate_flights(
        &mut self,
        kind: PropKind,
        flat: bool,
        gravity: f64,
        shape: FlightShape,
    ) {
        let n = self.tosses.len();
        let period_ok = self.hand_period.is_finite() && self.hand_period > 0.0;
        if !(1..=MAX_TOSSES).contains(&n) || !period_ok || !gravity.is_finite() {
            return;
        }
        let rule = clearance(kind);
        let place =
            |juggler: usize, t: f64| self.jugglers.get(juggler).map_or(ORIGIN, |path| path.at(t));
        // Event points of every toss's release and catch.
        let mut release_at: Vec<Option<DVec3>> = vec![None; n];
        let mut catch_at: Vec<Option<DVec3>> = vec![None; n];
        for events in &self.hands {
            for e in events {
                for &i in &e.throws {
                    if let Some(slot) = release_at.get_mut(i) {
                        *slot = Some(e.position);
                    }
                }
                for &i in &e.catches {
                    if let Some(slot) = catch_at.get_mut(i) {
                        *slot = Some(e.position);
                    }
                }
            }
        }
        // Hand slots that hold several props at once: their tosses have lane offsets.
        let mut several = vec![false; self.hands.len().max(1)];
        for t in &self.tosses {
            for (slot, offset) in [
                (t.from.slot(), t.release_offset),
                (t.to.slot(), t.catch_offset),
            ] {
                if offset != DVec3::ZERO {
                    if let Some(s) = several.get_mut(slot) {
                        *s = true;
                    }
                }
            }
        }
        let holds_several = |slot: usize| several.get(slot).copied().unwrap_or(false);
        let arcs: Vec<Option<Arc>> = self
            .tosses
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let (a, b) = (release_at[i]?, catch_at[i]?);
                let from = place(t.from.juggler, t.release);
                let to = place(t.to.juggler, t.catch);
                let placements: Vec<Placement> = (0..self.jugglers.len().max(1))
                    .map(|j| place(j, t.release))
                    .collect();
                let mut arc = Arc::of(t, (a, b), (from, to), gravity, shape, &placements)?;
                let sideways = kind == PropKind::Club || t.from.juggler != t.to.juggler;
                arc.lane = if sideways {
                    rotate(from.facing, DVec3::NEG_X)
                } else {
                    rotate(from.facing, DVec3::Z)
                } * lane_step(kind, flat, sideways);
                // Depth lanes leave side-by-side multiplex lanes of balls as they are.
                arc.together = (kind != PropKind::Ball || sideways)
                    && (holds_several(t.from.slot()) || holds_several(t.to.slot()));
                Some(arc)
            })
            .collect();
        // Lanes are chosen for one flight of each kind the pattern repeats (same hands, flight
        // time, release phase within the pattern's own cycle and path) and shared by its
        // repeats, so a choreography written over several cycles (a JIF or JML read back)
        // lanes as the pattern itself.
        let cycle = Cycle::of(&arcs, self.hand_period);
        let representatives: Vec<Option<Arc>> = arcs
            .iter()
            .enumerate()
            .map(|(i, arc)| arc.as_ref().filter(|_| cycle.class[i] == i).cloned())
            .collect();
        let stacks = self.held_together(&cycle.class, &arcs);
        let mut offsets = assign(&representatives, &stacks, cycle.period, rule);
        for i in 0..n {
            offsets[i] = offsets[cycle.class[i]];
        }
        if offsets.iter().all(|o| *o == (DVec3::ZERO, DVec3::ZERO)) {
            return;
        }
        // The world offsets into the thrower's and the catcher's own frames.
        let mut release_shift = vec![DVec3::ZERO; n];
        let mut catch_shift = vec![DVec3::ZERO; n];
        for (i, t) in self.tosses.iter_mut().enumerate() {
            let (at_release, at_catch) = offsets[i];
            release_shift[i] = unrotate(place(t.from.juggler, t.release).facing, at_release);
            catch_shift[i] = unrotate(place(t.to.juggler, t.catch).facing, at_catch);
            t.release_offset += release_shift[i];
            t.catch_offset += catch_shift[i];
        }
        // Held props slide from the lane they arrived in to the lane they leave in.
        for path in &mut self.paths {
            let spans = path.hold_spans();
            let m = path.segments.len();
            let air = |k: usize| match path.segments[k % m] {
                PathSegment::Air { toss, .. } => Some(toss),
                PathSegment::Held { .. } => None,
            };
            let shifts: Vec<Option<(DVec3, DVec3)>> = (0..m)
                .map(|k| {
                    let PathSegment::Held { start, end, .. } = path.segments[k] else {
                        return None;
                    };
                    let arrived = (1..=m).map(|d| (k + m - d) % m).find_map(air);
                    let leaves = (1..=m).map(|d| (k + d) % m).find_map(air);
                    let from = arrived.map_or(DVec3::ZERO, |i| catch_shift[i]);
                    let to = leaves.map_or(DVec3::ZERO, |i| release_shift[i]);
                    let (s0, s1) = spans[k];
                    let f = |t: f64| {
                        if s1 > s0 {
                            ((t - s0) / (s1 - s0)).clamp(0.0, 1.0)
                        } else {
                            0.0
                        }
                    };
                    Some((from.lerp(to, f(start)), from.lerp(to, f(end))))
                })
                .collect();
            for (segment, shift) in path.segments.iter_mut().zip(shifts) {
                if let (
                    PathSegment::Held {
                        offset0, offset1, ..
                    },
                    Some((a, b)),
                ) = (segment, shift)
                {
                    *offset0 += a;
                    *offset1 += b;
                }
            }
        }
    }
}

/// Flights that must share one lane (props held together in one hand).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stack {
    id: usize,
    /// Whether the lane is the same at release and catch (props held together for part of
    /// their holds only).
    constant: bool,
}

impl Choreography {
    /// For each flight (by its class), the stack it belongs to: clubs and rings held in one
    /// hand at the same time keep their multiplex lanes only if they slide alike. Props caught
    /// and thrown together (`[33]`) arrive in one lane and leave in one; props held together
    /// for part of their holds (a squeezed catch, a split multiplex) fly and are held in one
    /// constant lane with every flight into and out of those holds (`None`: a flight of its
    /// own).
    fn held_together(&self, class: &[usize], arcs: &[Option<Arc>]) -> Vec<Option<Stack>> {
        let n = self.tosses.len();
        let mut parent: Vec<usize> = (0..n).collect();
        fn root(parent: &mut [usize], mut i: usize) -> usize {
            while parent[i] != i {
                parent[i] = parent[parent[i]];
                i = parent[i];
            }
            i
        }
        let period = self.hand_period;
        // Every hold: its hand slot, the flight it arrived by and the one it leaves by, and
        // its time span (the release moved past the catch by whole hand periods).
        let mut holds: Vec<(usize, usize, usize, f64, f64)> = Vec::new();
        for path in &self.paths {
            let m = path.segments.len();
            let air = |k: usize| match path.segments[k % m] {
                PathSegment::Air { toss, .. } => Some(toss),
                PathSegment::Held { .. } => None,
            };
            for k in 0..m {
                let PathSegment::Held { hand, .. } = path.segments[k] else {
                    continue;
                };
                let arrived = (1..=m).map(|d| (k + m - d) % m).find_map(air);
                let leaves = (1..=m).map(|d| (k + d) % m).find_map(air);
                let (Some(a), Some(b)) = (arrived, leaves) else {
                    continue;
                };
                let (Some(ta), Some(tb)) = (self.tosses.get(a), self.tosses.get(b)) else {
                    continue;
                };
                let start = ta.catch;
                let laps = ((start - tb.release) / period).ceil().max(0.0);
                let end = tb.release + laps * period;
                if end.is_finite() && end - start < 64.0 * period {
                    holds.push((hand, a, b, start, end));
                }
            }
        }
        let together = |i: usize| {
            arcs.get(i)
                .and_then(Option::as_ref)
                .is_some_and(|a| a.together)
        };
        let mut joined = vec![false; n];
        let mut constant = vec![false; n];
        for (x, &(hand, a1, b1, s1, e1)) in holds.iter().enumerate() {
            for &(other, a2, b2, s2, e2) in &holds[x + 1..] {
                if hand != other || !(together(a1) || together(a2)) {
                    continue;
                }
                let laps = ((e1 - s2) / period).floor() as i64;
                let Some(shift) = (laps - 64..=laps)
                    .map(|k| k as f64 * period)
                    .find(|shift| s2 + shift < e1 - 1e-9 && s1 < e2 + shift - 1e-9)
                else {
                    continue;
                };
                let ids = [a1, b1, a2, b2].map(|i| class.get(i).copied().unwrap_or(i));
                let mut join = |x: usize, y: usize| {
                    let (r0, r1) = (root(&mut parent, x), root(&mut parent, y));
                    parent[r1] = r0;
                };
                // Caught together and thrown together: the two slide alike when they arrive
                // in one lane and leave in one lane. Otherwise one constant lane for all.
                let same_span = (s2 + shift - s1).abs() < 1e-6 && (e2 + shift - e1).abs() < 1e-6;
                if same_span {
                    join(ids[0], ids[2]);
                    join(ids[1], ids[3]);
                } else {
                    join(ids[0], ids[1]);
                    join(ids[0], ids[2]);
                    join(ids[0], ids[3]);
                    for i in ids {
                        constant[i] = true;
                    }
                }
                for i in ids {
                    joined[i] = true;
                }
            }
        }
        let mut constant_root = vec![false; n];
        for (i, _) in constant.iter().enumerate().filter(|(_, c)| **c) {
            let r = root(&mut parent, i);
            constant_root[r] = true;
        }
        (0..n)
            .map(|i| {
                let c = class.get(i).copied().unwrap_or(i);
                joined[c].then(|| {
                    let r = root(&mut parent, c);
                    Stack {
                        id: r,
                        constant: constant_root[r],
                    }
                })
            })
            .collect()
    }
}

/// Times (seconds) and distances (metres) within which two flights count as repeats of
/// one another (times and points written rounded read back within them).
const SAME_TIME: f64 = 1e-3;
const SAME_PLACE: f64 = 2e-3;
/// Most repeats of the pattern looked for within one hand period.
const MAX_REPEATS: usize = 64;

/// The pattern's own cycle: the shortest time after which every flight repeats, and for each
/// flight the one it repeats (its class: the repeat released first within the cycle).
struct Cycle {
    period: f64,
    class: Vec<usize>,
}

impl Cycle {
    fn of(arcs: &[Option<Arc>], hand_period: f64) -> Self {
        let n = arcs.len();
        let phase = |a: &Arc| a.release.rem_euclid(hand_period);
        // Flights in order of their release phase, for looking up repeats.
        let mut by_phase: Vec<usize> = (0..n).filter(|&i| arcs[i].is_some()).collect();
        by_phase.sort_by(|&i, &j| {
            let (a, b) = (arcs[i].as_ref(), arcs[j].as_ref());
            a.map(phase)
                .unwrap_or(0.0)
                .total_cmp(&b.map(phase).unwrap_or(0.0))
        });
        let phases: Vec<f64> = by_phase
            .iter()
            .filter_map(|&i| arcs[i].as_ref().map(phase))
            .collect();
        // The flight that is `a` moved `shift` seconds later, if any.
        let repeat_of = |a: &Arc, shift: f64| -> Option<usize> {
            let target = (a.release + shift).rem_euclid(hand_period);
            let first = phases.partition_point(|&p| p < target - SAME_TIME);
            let near = |k: usize| {
                let d = (phases[k] - target).abs();
                d.min(hand_period - d) < SAME_TIME
            };
            let candidates = (first..phases.len())
                .take_while(|&k| phases[k] <= target + SAME_TIME)
                .chain((0..phases.len()).take_while(|&k| near(k)))
                .chain((0..phases.len()).rev().take_while(|&k| near(k)));
            candidates
                .map(|k| by_phase[k])
                .find(|&j| arcs[j].as_ref().is_some_and(|b| a.repeats_as(b)))
        };
        let count = by_phase.len();
        let repeats = (2..=MAX_REPEATS.min(count))
            .rev()
            .filter(|&k| count.is_multiple_of(k))
            .find(|&k| {
                let shift = hand_period / k as f64;
                by_phase.iter().all(|&i| {
                    arcs[i]
                        .as_ref()
                        .is_some_and(|a| repeat_of(a, shift).is_some())
                })
            })
            .unwrap_or(1);
        let period = hand_period / repeats as f64;
        let class = (0..n)
            .map(|i| {
                let Some(a) = arcs[i].as_ref() else {
                    return i;
                };
                let back =
                    (a.release.rem_euclid(hand_period) / period + SAME_TIME / period).floor();
                if repeats == 1 || back < 1.0 {
                    return i;
                }
                repeat_of(a, -back * period).unwrap_or(i)
            })
            .collect();
        Cycle { period, class }
    }
}

impl Arc {
    /// Whether `other` flies as this flight does (its release time, moved by a whole number
    /// of cycles, is matched by the caller): same hands, flight time, release and catch points.
    fn repeats_as(&self, other: &Arc) -> bool {
        let duration = |a: &Arc| a.catch - a.release;
        let p1 = |a: &Arc| a.at(a.catch);
        self.hands == other.hands
            && self.together == other.together
            && (duration(self) - duration(other)).abs() < SAME_TIME
            && self.p0.distance(other.p0) < SAME_PLACE
            && p1(self).distance(p1(other)) < SAME_PLACE
            && self.lane.distance(other.lane) < 1e-6
    }
}

/// A flight's lane: its offset along its lane direction at the release and at the catch
/// (in lane steps), moving linearly in between.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Lane {
    release: f64,
    catch: f64,
}

impl Lane {
    fn at(self, arc: &Arc, t: f64) -> DVec3 {
        let f = ((t - arc.release) / (arc.catch - arc.release)).clamp(0.0, 1.0);
        arc.lane * (self.release + (self.catch - self.release) * f)
    }
}

/// How far two flights (the second `shift` seconds later than its own times) come inside
/// each other's clearance in lanes `a` and `b` (metres; 0 when clear).
/// Counts its samples in `samples`.
fn intrusion(
    p: &Arc,
    a: Lane,
    q: &Arc,
    b: Lane,
    shift: f64,
    rule: Clearance,
    samples: &std::cell::Cell<u64>,
) -> f64 {
    let start = p.release.max(q.release + shift);
    let end = p.catch.min(q.catch + shift);
    if end <= start {
        return 0.0;
    }
    let steps = ((end - start) / SAMPLE_STEP).ceil().clamp(1.0, 400.0) as usize;
    samples.set(samples.get() + steps as u64 + 1);
    let depth_at = |t: f64| {
        let (c0, u) = p.pose(t);
        let (c1, v) = q.pose(t - shift);
        rule.depth(c0 + a.at(p, t), u, c1 + b.at(q, t - shift), v)
    };
    let dt = (end - start) / steps as f64;
    let mut worst = 0.0f64;
    for k in 0..=steps {
        let t = start + dt * k as f64;
        let depth = depth_at(t);
        worst = worst.max(depth);
        // Props this close may meet and part again between two samples (passes crossing
        // at several metres a second): look between them more finely.
        if depth > -NEAR && k < steps {
            samples.set(samples.get() + FINE_STEPS as u64);
            for f in 1..FINE_STEPS {
                worst = worst.max(depth_at(t + dt * f as f64 / FINE_STEPS as f64));
            }
        }
    }
    worst
}

impl Arc {
    /// This flight (of toss `t`) moved to fly from hand point `points.0` to `points.1`
    /// (juggler-local) with the thrower and catcher placed at `places`: the same times,
    /// gravity and attitudes.
    pub(crate) fn moved(
        &self,
        t: &Toss,
        points: (DVec3, DVec3),
        places: (Placement, Placement),
    ) -> Arc {
        let (from, to) = places;
        let duration = self.catch - self.release;
        let p0 = from.position.as_dvec3() + rotate(from.facing, points.0 + t.release_offset);
        let p1 = to.position.as_dvec3() + rotate(to.facing, points.1 + t.catch_offset);
        let v0 = (p1 - p0) / duration + DVec3::Y * (0.5 * self.gravity * duration);
        Arc {
            p0,
            v0,
            ..self.clone()
        }
    }
}

/// How far two flights of props of `kind` (the second and its repeats every `period`
/// seconds, itself not when `same`) come inside each other's clearance (metres, with the lane
/// solver's margin; 0 when clear), as the lane solver measures them.
pub(crate) fn pair_intrusion(p: &Arc, q: &Arc, (period, same): (f64, bool), kind: PropKind) -> f64 {
    let samples = std::cell::Cell::new(0);
    let none = Lane::default();
    let lo = ((p.release - q.catch) / period).ceil().max(-64.0) as i64;
    let hi = ((p.catch - q.release) / period).floor().min(64.0) as i64;
    (lo..=hi)
        .filter(|&m| !(same && m == 0))
        .map(|m| {
            let shift = m as f64 * period;
            intrusion(p, none, q, none, shift, clearance(kind), &samples)
        })
        .fold(0.0, f64::max)
}

/// Props within this distance of touching at a sample are looked at `FINE_STEPS` times as
/// often until the next one (metres; what props closing at 6 m/s cover in one step).
const NEAR: f64 = 0.06;
const FINE_STEPS: usize = 5;

/// Lanes tried for a flight, in order of preference (in lane steps): none, drifting across
/// its lane during the flight (so that its rising and falling copies in other hand periods
/// part), beside it, both.
const CANDIDATES: [(f64, f64); 15] = [
    (0.0, 0.0),
    (-1.0, 1.0),
    (1.0, -1.0),
    (1.0, 1.0),
    (-1.0, -1.0),
    (2.0, 2.0),
    (-2.0, -2.0),
    (0.0, 2.0),
    (2.0, 0.0),
    (0.0, -2.0),
    (-2.0, 0.0),
    (-2.0, 2.0),
    (2.0, -2.0),
    (3.0, 3.0),
    (-3.0, -3.0),
];

/// A world offset at release and catch per flight: greedily, in order of release, the first
/// lane that keeps the flight clear of those laned before it and of its own copies, else the
/// least bad one.
fn assign(
    arcs: &[Option<Arc>],
    stacks: &[Option<Stack>],
    period: f64,
    rule: Clearance,
) -> Vec<(DVec3, DVec3)> {
    let n = arcs.len();
    let mut lanes = vec![Lane::default(); n];
    let mut order: Vec<usize> = (0..n).filter(|&i| arcs[i].is_some()).collect();
    // In order of release within the hand period (to the millisecond, a release just short of
    // a period counting as 0), then of flight time and release point, so that a pattern and its
    // JML export (other toss order, rounded times) lane alike.
    let key = |i: usize| {
        arcs[i].as_ref().map_or([0; 5], |t| {
            let ms = |x: f64| (x * 1000.0).round() as i64;
            let phase = ms(t.release.rem_euclid(period)) % ms(period).max(1);
            let cm = |x: f64| (x * 100.0).round() as i64;
            [
                phase,
                ms(t.catch - t.release),
                cm(t.p0.x),
                cm(t.p0.y),
                cm(t.p0.z),
            ]
        })
    };
    order.sort_by_key(|&i| key(i));
    let mut laned: Vec<usize> = Vec::with_capacity(n);
    let mut done = vec![false; n];
    let samples = std::cell::Cell::new(0u64);
    for &i in &order {
        if samples.get() > MAX_SAMPLES {
            // Over the work budget: the rest keep their own lanes.
            break;
        }
        let Some(p) = arcs[i].as_ref() else {
            continue;
        };
        if done[i] {
            continue;
        }
        // Props thrown together from one hand (a multiplex) share one lane: their own lanes
        // (side by side, rings stacked) keep them apart from each other.
        let group: Vec<usize> = order
            .iter()
            .copied()
            .filter(|&j| {
                j == i
                    || (!done[j]
                        && stacks[i].is_some()
                        && stacks[j].map(|s| s.id) == stacks[i].map(|s| s.id))
                    || (p.together
                        && !done[j]
                        && arcs[j].as_ref().is_some_and(|q| {
                            q.together
                                && q.hands.0 == p.hands.0
                                && (q.release - p.release).abs() < 1e-6
                        }))
            })
            .collect();
        for &g in &group {
            done[g] = true;
            laned.push(g);
        }
        // Flights laned so far (and this group's own copies) that share some time with a
        // flight of the group.
        let mut near: Vec<(usize, usize, f64)> = Vec::new();
        for &g in &group {
            let Some(p) = arcs[g].as_ref() else {
                continue;
            };
            for &j in &laned {
                let Some(q) = arcs[j].as_ref() else {
                    continue;
                };
                let lo = ((p.release - q.catch) / period).ceil() as i64;
                let hi = ((p.catch - q.release) / period).floor() as i64;
                for m in lo.max(-64)..=hi.min(64) {
                    if !(group.contains(&j) && m == 0) {
                        near.push((g, j, m as f64 * period));
                    }
                }
            }
        }
        let badness = |lane: Lane| {
            near.iter()
                .map(|&(g, j, shift)| {
                    if samples.get() > MAX_SAMPLES {
                        return 0.0;
                    }
                    let p = arcs[g].as_ref().expect("laned flights have arcs");
                    let q = arcs[j].as_ref().expect("laned flights have arcs");
                    let other = if group.contains(&j) { lane } else { lanes[j] };
                    intrusion(p, lane, q, other, shift, rule, &samples)
                })
                .fold(0.0, f64::max)
        };
        let mut best = (f64::INFINITY, Lane::default());
        // A stack flies and is held in one constant lane.
        let stacked = group.iter().any(|&g| stacks[g].is_some_and(|s| s.constant));
        for &(r, c) in CANDIDATES.iter().filter(|(r, c)| !stacked || r == c) {
            let lane = Lane {
                release: r,
                catch: c,
            };
            let b = badness(lane);
            if b < CLEAR {
                best = (0.0, lane);
                break;
            }
            if b < best.0 - CLEAR {
                best = (b, lane);
            }
        }
        for &g in &group {
            lanes[g] = best.1;
        }
    }
    (0..n)
        .map(|i| match arcs[i].as_ref() {
            Some(arc) => (arc.lane * lanes[i].release, arc.lane * lanes[i].catch),
            None => (DVec3::ZERO, DVec3::ZERO),
        })
        .collect()
}
