//! Flight lanes: props in flight never pass through each other.
//!
//! Two flights that would meet in the air (crossing throws of a synchronous pattern, the
//! multiplexed props of `[43]14` parting, a high throw passing a low one, passes between two
//! jugglers in opposite directions along one lane, rings crossing in one plane) are moved
//! apart as a whole: a flight's prop is released and caught a few centimetres off its hands'
//! event points (`Toss::release_offset`/`catch_offset`), the same world offset at both ends,
//! so it still flies an exact parabola, only beside the other one (a bounce too: lanes run
//! sideways or in depth, so it still comes down to its floor, bounces and rises to the
//! catch). A held prop slides linearly from the lane it arrived in to the lane it leaves in
//! (`PathSegment::Held` offsets); the hands' paths do not move, so a held prop is off its
//! hand's centre by its lanes (up to `MAX_FLIGHT_LANE`), except that a hand holding one ball
//! or club at a time on its own side of the body carries the lanes (`carry.rs`: a ball's
//! forward part, a club's forward and sideways parts, unless that takes its forearm deeper
//! into flights passing it or the hand above `CARRIED_ACCELERATION`; a hand that crosses the
//! body, where that keeps its forearm as clear of the other, `CROSSED_CLEAR`), and that a ball or a
//! club held alone comes into the middle of its hand half-way otherwise (`held_lane`: a ball
//! laned two steps sat 11 cm in front of the fist, a club's handle 10 cm beside it; a ring,
//! held by its rim, stays as near its hand in its lanes as in a plain cascade).
//!
//! Lanes run where they separate props of each kind: balls and rings thrown by a juggler to
//! themselves in depth (rings facing the audience then fly in parallel planes), clubs (which
//! spin in the thrower's sagittal plane) and every pass sideways, toward the thrower's right,
//! as passers keep their right-hand passes to one side. Clubs and rings thrown to oneself that
//! still cut a prop or an arm once every flight is laned look once more with lanes the other
//! way too (`OTHER_CANDIDATES`: a club rising past a held club or a crossed forearm passes in
//! front of or behind it, a ring beside another) and lanes drifting across three steps
//! (`LAST_CANDIDATES`: a long flight falling past a forearm needs the far lane there and its
//! repeat a period later a lane apart from it), and a club still overlapping or in an arm,
//! lanes four steps out (`FAR_CANDIDATES`); tried first come, first served, such a lane
//! that cleared a flight at its turn was met by flights laned after it. Clubs and rings
//! thrown together share one lane (their multiplex lanes and ring stacks shift alike) where it
//! keeps them clear, else they part on release, each in a lane of its own; props caught and
//! thrown together share one. Held props are measured too (`Hold`): every held ball and club (a
//! self thrown across rises past the club the other hand holds wound up for a pass, as in the
//! Tarim triangle), and rings in a hand that holds several at once (a multiplex, a squeezed
//! catch), so a single throw leaves beside them, an arriving prop comes in beside them and
//! held props never slide into each other. A ring held alone is left to `held_rings`, which
//! slides it in depth after the lanes are chosen (measuring it here put a flight and a held
//! ring in one plane in Juggling Lab's Mills Mess, −2.4 cm).
//!
//! Props are measured as they are drawn (`FlightShape`, given by the scene): a ball's sphere,
//! a club's capsule from knob to tip turning with its spins about its centre of mass, a
//! ring's rim; every 10 ms, five times finer where two come within 6 cm. A club's capsule has
//! the body's radius all along, a margin on the handle; where clubs laned so still cut other
//! props (by more than `RELANE` in all, measured as drawn: `types::CLUB_PIECES`), they are
//! laned again measured as drawn, and those lanes kept where they leave less than
//! `RELANE_SHARE` of the cut and the arms no deeper.
//!
//! A lane belongs to a kind of throw, not to one toss of the choreography: flights that repeat
//! one another within the hand period (same hands, flight time, release and catch points, a
//! whole pattern cycle apart) form one class, and the classes of one pattern cycle are laned
//! in the order of their release phase within that cycle, flight time and release point, each
//! taking the first lane that keeps it clear of every class laned before it and of every
//! repeat (its own included), or the least bad one. So a pattern and its JIF, JML or TOML
//! read-back (a hand period several cycles long, tosses in another order, rounded times) lane
//! alike. Where props still cut into each other, two groups at a time look for lanes together
//! (passes crossing in the middle of a triangle, where neither clears by moving alone).
//!
//! Hands lifted where forearms cross (`forearms.rs`) throw and catch from their lifted points;
//! the scene lanes the flights again once the lifts are planned.

use glam::DVec3;

mod arms;

use super::carry::Carried;
use super::choreography::{Carrying, Choreography, HandCarry, PathSegment, Toss, ORIGIN};
use super::flight::FlightPath;
use crate::layout::Placement;
use crate::types::{HandRef, PropKind};

/// Farthest a prop is moved off its hand's event point by its flight lane, metres (four lane
/// steps of the widest kind: `FAR_CANDIDATES`).
pub const MAX_FLIGHT_LANE: f64 = 4.0 * 0.055;
/// Intrusions (metres) below this count as clear, so that points rounded differently (a JML
/// export read back) lane alike.
const CLEAR: f64 = 1e-4;
/// How deep (metres, summed over the groups) clubs laned as one capsule of the body's radius
/// must still cut other props, measured as drawn, to be laned again as drawn (`<5p|5p|5p>`'s
/// 2.2 cm of millimetre cuts are not, and build in 19 ms, not 29); and the share of that the
/// lanes as drawn must leave at most to be kept (with arms no deeper).
const RELANE: f64 = 0.03;
const RELANE_SHARE: f64 = 0.5;
/// Most tosses per hand period laned (larger patterns keep their flights as they are).
pub(crate) const MAX_TOSSES: usize = 2000;
/// Time between two compared points of two flights, seconds.
const SAMPLE_STEP: f64 = 0.01;
/// Samples the lane search may take for one pattern (about a second): beyond it the flights
/// not yet laned keep their own lane. A 57-prop multiplex of 30s (`[15uuu…upg]`, 1667 props,
/// every flight overlapping every other's 60 copies) took 40 s before (fuzzing found it).
const MAX_SAMPLES: u64 = 30_000_000;
/// Most props thrown together that the lane search parts on release (each laned alone costs
/// as much as the group).
const MAX_PARTED: usize = 4;
/// Samples after which the lane search takes no second look at the groups it laned (large
/// patterns keep their first lanes: a second look costs as much again).
const SECOND_LOOK: u64 = MAX_SAMPLES / 10;
/// Extra clearance asked between two props, metres.
const MARGIN: f64 = 0.01;
/// Most coarse samples of pairs' poses one lane search keeps while it tries its lanes (a
/// sample is 96 bytes).
const MAX_KEPT_POSES: usize = 100_000;
/// Most measures kept by one lane search, of held props and of pairs of flights each (about
/// 100 bytes a measure).
const MAX_KEPT_MEASURES: usize = 200_000;
/// Extra clearance asked between two rings' rims, metres (a ring's depth lane is sized to a
/// rim's width, 4 cm, so a whole centimetre more would ask two steps).
const RIM_MARGIN: f64 = 0.003;
/// Extra clearance asked between a held prop and another prop, metres.
const HELD_MARGIN: f64 = 0.002;

/// A flying prop's shape as the lane solver measures it (the sizes `body::props` draws and
/// `tests/pipeline/contacts.rs` measures): a ball's sphere, a club's capsule from knob to tip,
/// a ring's rim.
#[derive(Clone, Copy, Debug)]
struct Clearance {
    kind: PropKind,
    /// Extra clearance asked between two props, and between two rings' rims (metres).
    margin: f64,
    rim_margin: f64,
    /// Clubs measured as drawn (`CLUB_PIECES`: a handle a third as thick as the body) instead
    /// of as one capsule of the body's radius along the whole club.
    drawn: bool,
}

/// A ball's diameter, metres.
const BALL_DIAMETER: f64 = 0.10;
/// A club's knob and tip from its centre of mass along its axis, and its widest radius.
const CLUB_KNOB: f64 = 0.20;
const CLUB_TIP: f64 = 0.285;
const CLUB_RADIUS: f64 = 0.0418;

/// A club with centre `c` and axis `u` as the pieces of its drawn profile (`types::CLUB_PIECES`):
/// segment ends and radius.
fn club_pieces(c: DVec3, u: DVec3) -> impl Iterator<Item = (DVec3, DVec3, f64)> {
    let knob = c - u * CLUB_KNOB;
    let length = CLUB_KNOB + CLUB_TIP;
    crate::types::CLUB_PIECES.iter().map(move |&(a, b, r)| {
        (
            knob + u * (f64::from(a) * length),
            knob + u * (f64::from(b) * length),
            f64::from(r) * length,
        )
    })
}

/// How deep a club (centre `c`, axis `u`) comes inside a capsule `a`–`b` of radius `r` plus
/// `margin` (metres; 0 or less when clear): one capsule of the club's widest radius first, its
/// profile's pieces where that one is inside.
fn club_in_capsule(c: DVec3, u: DVec3, (a, b, r): (DVec3, DVec3, f64), margin: f64) -> f64 {
    let whole =
        CLUB_RADIUS + r + margin - segments_distance(c - u * CLUB_KNOB, c + u * CLUB_TIP, a, b);
    if whole <= 0.0 {
        return whole;
    }
    club_pieces(c, u)
        .map(|(p0, p1, pr)| pr + r + margin - segments_distance(p0, p1, a, b))
        .fold(f64::NEG_INFINITY, f64::max)
}

/// A ring's rim: the circle halfway between its edges, and the rim's half width.
const RING_MID_RADIUS: f64 = 0.1125;
const RING_HALF_WIDTH: f64 = 0.0125;
/// Points of a ring's rim measured against the other ring.
const RIM_POINTS: usize = 16;

fn clearance(kind: PropKind) -> Clearance {
    Clearance {
        kind,
        margin: MARGIN,
        rim_margin: RIM_MARGIN,
        drawn: false,
    }
}

impl Clearance {
    /// The clearance asked of props held together (`held_clearance`).
    fn held(self) -> Clearance {
        Clearance {
            drawn: self.drawn,
            ..held_clearance(self.kind)
        }
    }

    /// The same clearance with clubs measured as drawn.
    fn drawn(self) -> Clearance {
        Clearance {
            drawn: true,
            ..self
        }
    }
}

/// The clearance asked of a held prop: props held together in one hand sit a lane
/// (`lanes::MULTIPLEX_SPREAD`, 10.5 cm) apart, so a prop leaving or arriving beside them
/// is asked to keep only a few millimetres more.
fn held_clearance(kind: PropKind) -> Clearance {
    Clearance {
        kind,
        margin: HELD_MARGIN,
        rim_margin: HELD_MARGIN,
        drawn: false,
    }
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
            PropKind::Ball => BALL_DIAMETER + self.margin - d,
            PropKind::Club => {
                let reach = 2.0 * (CLUB_TIP + CLUB_RADIUS) + self.margin;
                if d > reach {
                    return reach - d;
                }
                let (a0, a1) = (a - u * CLUB_KNOB, a + u * CLUB_TIP);
                let (b0, b1) = (b - v * CLUB_KNOB, b + v * CLUB_TIP);
                let whole = 2.0 * CLUB_RADIUS + self.margin - segments_distance(a0, a1, b0, b1);
                if whole <= 0.0 || !self.drawn {
                    return whole;
                }
                club_pieces(b, v)
                    .map(|piece| club_in_capsule(a, u, piece, self.margin))
                    .fold(f64::NEG_INFINITY, f64::max)
            }
            PropKind::Ring => {
                let reach = 2.0 * (RING_MID_RADIUS + RING_HALF_WIDTH) + self.rim_margin;
                if d > reach {
                    return reach - d;
                }
                let closest = rim_points(a, u)
                    .map(|p| circle_distance_squared(p, b, v))
                    .fold(f64::INFINITY, f64::min)
                    .sqrt();
                2.0 * RING_HALF_WIDTH + self.rim_margin - closest
            }
        }
    }
}

/// Points of the rim (mid circle) of a ring centred at `c` with normal `n`.
fn rim_points(c: DVec3, n: DVec3) -> impl Iterator<Item = DVec3> {
    // The cosines and sines of the points' angles, worked out once (the lane search measures
    // rings against rings millions of times in a large pattern).
    static TURNS: std::sync::LazyLock<[(f64, f64); RIM_POINTS]> = std::sync::LazyLock::new(|| {
        std::array::from_fn(|k| {
            let a = std::f64::consts::TAU * k as f64 / RIM_POINTS as f64;
            (a.cos(), a.sin())
        })
    });
    let u = n.any_orthonormal_vector();
    let v = n.cross(u);
    TURNS
        .iter()
        .map(move |&(cos, sin)| c + (u * cos + v * sin) * RING_MID_RADIUS)
}

/// Squared distance from `p` to the mid circle of a ring centred at `c` with normal `n`.
fn circle_distance_squared(p: DVec3, c: DVec3, n: DVec3) -> f64 {
    let d = p - c;
    let h = d.dot(n);
    let q = (d - n * h).length();
    h * h + (q - RING_MID_RADIUS).powi(2)
}

/// Distance from `p` to the segment `a`–`b`.
fn segment_distance(p: DVec3, a: DVec3, b: DVec3) -> f64 {
    let ab = b - a;
    let s = ((p - a).dot(ab) / ab.length_squared().max(1e-12)).clamp(0.0, 1.0);
    p.distance(a + ab * s)
}

/// Closest distance between the segments `p0`–`p1` and `q0`–`q1`.
pub(crate) fn segments_distance(p0: DVec3, p1: DVec3, q0: DVec3, q1: DVec3) -> f64 {
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
/// progress (0 at the release, 1 at the catch) and the thrower's placement at the release and
/// the catcher's at the catch, the offset from the grip (the hands' point) to the prop's
/// centre and the prop's axis (unit; a ring's normal), world directions.
pub(crate) type FlightShape<'a> = &'a dyn Fn(&Toss, f64, (Placement, Placement)) -> (DVec3, DVec3);

/// Axes sampled per flight, at most.
const MAX_AXES: usize = 400;

/// One flight as the lane solver sees it: a parabola in the world.
#[derive(Clone, Debug)]
pub(crate) struct Arc {
    release: f64,
    catch: f64,
    /// The grip's path from the release: a parabola, or a bounce off the floor (a lane moves
    /// it sideways or in depth, never up, so a bounce stays one).
    path: FlightPath,
    /// The pattern's gravity (a toss may have its own).
    gravity: f64,
    /// World offset of this flight's neighbouring lane (direction times the lane step).
    lane: DVec3,
    /// The same the other way, for the lanes tried that way in a last look (`Lane::other`): in
    /// depth (the thrower's forward direction) for clubs thrown to oneself, beside for rings
    /// thrown to oneself; zero for other flights.
    other: DVec3,
    /// Whether it moves only together with the props thrown with it: clubs and rings thrown
    /// or caught by a hand that holds several props at once (their multiplex lanes and ring
    /// stacks stay as they are, all shifted alike).
    together: bool,
    /// Whether its last look may take lanes four steps out (`FAR_CANDIDATES`): a juggler
    /// juggling alone whose throwing and catching hands stay on their own sides of the body.
    far: bool,
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
    /// own yet; `None` for a flight that is not finite.
    pub(crate) fn of(
        t: &Toss,
        points: (DVec3, DVec3),
        places: (Placement, Placement),
        gravity: f64,
        shape: FlightShape,
    ) -> Option<Arc> {
        let duration = t.catch - t.release;
        if !duration.is_finite() || duration <= 0.0 || !gravity.is_finite() {
            return None;
        }
        let (from, to) = places;
        let p0 = from.position.as_dvec3() + rotate(from.facing, points.0 + t.release_offset);
        let p1 = to.position.as_dvec3() + rotate(to.facing, points.1 + t.catch_offset);
        let path = t.flight_path(p0, p1, gravity);
        let v0 = path.velocity(0.0);
        let count = ((duration / (0.5 * SAMPLE_STEP)).ceil() as usize).clamp(8, MAX_AXES);
        let axes: Vec<DVec3> = (0..=count)
            .map(|k| shape(t, k as f64 / count as f64, places).1)
            .collect();
        let grip = (shape(t, 0.0, places).0, shape(t, 1.0, places).0);
        let finite = grip.0.is_finite() && grip.1.is_finite() && axes.iter().all(|a| a.is_finite());
        (p0.is_finite() && v0.is_finite() && finite).then_some(Arc {
            release: t.release,
            catch: t.catch,
            path,
            gravity,
            lane: DVec3::ZERO,
            other: DVec3::ZERO,
            together: false,
            far: false,
            hands: (t.from.slot(), t.to.slot()),
            grip,
            axes,
        })
    }

    fn at(&self, t: f64) -> DVec3 {
        self.path.position(t - self.release)
    }

    /// The prop's centre (on its own lane's grip parabola `at`) and axis at `t`.
    fn pose(&self, t: f64) -> (DVec3, DVec3) {
        let f = ((t - self.release) / (self.catch - self.release)).clamp(0.0, 1.0);
        let centre = self.at(t) + self.grip.0.lerp(self.grip.1, f);
        if let [axis] = self.axes[..] {
            return (centre, axis);
        }
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
    /// as `shape` says; `bodies` gives the jugglers' hands and arms as they move, for
    /// measuring flights against held props and arms.
    pub(crate) fn separate_flights(
        &mut self,
        kind: PropKind,
        flat: bool,
        gravity: f64,
        shape: FlightShape,
        bodies: Bodies,
    ) {
        let n = self.tosses.len();
        let period_ok = self.hand_period.is_finite() && self.hand_period > 0.0;
        if !(1..=MAX_TOSSES).contains(&n) || !period_ok || !gravity.is_finite() {
            return;
        }
        let rule = clearance(kind);
        // Jugglers placed as the motion will move them (a flight planned with them is the one
        // drawn).
        let stances = super::stances(self);
        let place = |juggler: usize, t: f64| stances.get(juggler).map_or(ORIGIN, |s| s.at(t));
        // Event points of every toss's release and catch.
        let (release_at, catch_at) = self.toss_points();
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
        // A hand that holds one prop at a time (or balls, several: then the mean of their
        // forward parts) and stays on its own side carries its props' lanes (`carry.rs`): a
        // ball's forward part, a club's forward and sideways parts (its handle is in the fist
        // at the catch and the throw), a ring's forward part from the lane it is caught in to
        // the one it is thrown in (its rim in the fist; not the quick slides of
        // `held_rings.rs` between, nor a sideways lane: rings held side by side in two hands
        // would meet, the reason rings do not come into the hand); but a bounced prop rising
        // into its hand from below would pass its forearm, so a hand that catches bounces
        // catches its props beside it, in their lanes.
        let catches_bounces = |slot: usize| {
            self.tosses.iter().any(|t| {
                t.to.slot() == slot && matches!(t.kind, super::choreography::TossKind::Bounce(_))
            })
        };
        let way = match kind {
            PropKind::Ball => Some(Carrying::Forward),
            PropKind::Club => Some(Carrying::ForwardAndSideways),
            PropKind::Ring => Some(Carrying::ForwardLanes),
        };
        let on_its_side: Vec<bool> = self
            .hands
            .iter()
            .enumerate()
            .map(|(slot, events)| super::carry::stays_on_its_side(slot, events))
            .collect();
        self.hands_carry = (0..self.hands.len())
            .map(|slot| {
                way.filter(|_| {
                    !catches_bounces(slot)
                        && (kind == PropKind::Ball || !holds_several(slot))
                        && on_its_side[slot]
                })
                .map(HandCarry::all)
            })
            .collect();
        let arcs: Vec<Option<Arc>> = self
            .tosses
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let (a, b) = (release_at[i]?, catch_at[i]?);
                let from = place(t.from.juggler, t.release);
                let to = place(t.to.juggler, t.catch);
                let mut arc = Arc::of(t, (a, b), (from, to), gravity, shape)?;
                if kind == PropKind::Ball {
                    // A ball is measured by its centre alone: one axis spares the search
                    // turning it along the flight.
                    arc.axes.truncate(1);
                }
                let sideways = kind == PropKind::Club || t.from.juggler != t.to.juggler;
                arc.lane = if sideways {
                    rotate(from.facing, DVec3::NEG_X)
                } else {
                    rotate(from.facing, DVec3::Z)
                } * lane_step(kind, flat, sideways);
                if t.from.juggler == t.to.juggler {
                    arc.other = match kind {
                        PropKind::Club => {
                            rotate(from.facing, DVec3::Z) * lane_step(kind, flat, false)
                        }
                        PropKind::Ring => {
                            rotate(from.facing, DVec3::NEG_X) * lane_step(kind, flat, true)
                        }
                        _ => DVec3::ZERO,
                    };
                }
                // Depth lanes leave side-by-side multiplex lanes of balls as they are.
                arc.together = (kind != PropKind::Ball || sideways)
                    && (holds_several(t.from.slot()) || holds_several(t.to.slot()));
                arc.far = self.hands.len() <= 2
                    && [t.from.slot(), t.to.slot()]
                        .iter()
                        .all(|&slot| on_its_side.get(slot).copied().unwrap_or(false));
                Some(arc)
            })
            .collect();
        // Lanes are chosen for one flight of each kind the pattern repeats (same hands, flight
        // time, release phase within the pattern's own cycle and path) and shared by its
        // repeats, so a choreography written over several cycles (a JIF or JML read back)
        // lanes as the pattern itself.
        let mut cycle = Cycle::of(&arcs, self.hand_period, self.lane_copies);
        // A choreography already written over three or more cycles whose flights meet their
        // own repeats (`o` exported to JML and read back) lanes its cycles apart as the
        // builder's copies do.
        if self.lane_copies == 1 && self.flights_meet_their_repeats(kind).is_some() {
            let cycles = (self.hand_period / cycle.period).round();
            if (3.0..=MAX_REPEATS as f64).contains(&cycles) {
                cycle = Cycle::of(&arcs, self.hand_period, cycles as u32);
            }
        }
        let representatives: Vec<Option<Arc>> = arcs
            .iter()
            .enumerate()
            .map(|(i, arc)| arc.as_ref().filter(|_| cycle.class[i] == i).cloned())
            .collect();
        let stacks = self.held_together(&cycle.class, &arcs);
        // Held props (rings only beside others): flights are kept clear of them, and they of
        // each other.
        let measured = if kind == PropKind::Ring {
            several.clone()
        } else {
            vec![true; several.len()]
        };
        let mut holds = self.holds_of(&arcs, &cycle.class, &measured, &several, kind, &stances);
        let reach = bodies(self);
        // Where each hand holding measured props goes over one hand period.
        let mut bounds: Vec<Option<(DVec3, f64)>> = vec![None; self.hands.len().max(1)];
        for hold in &mut holds {
            if let Some(bound) = bounds.get_mut(hold.hand) {
                let hand = hold.hand;
                let period = self.hand_period;
                hold.bound =
                    Some(*bound.get_or_insert_with(|| hand_bounds(reach.as_ref(), hand, period)));
            }
        }
        let kept = std::cell::RefCell::new(KeptMeasures::default());
        let held = (!holds.is_empty()).then(|| Held {
            holds: &holds,
            reach: reach.as_ref(),
            hand_period: self.hand_period,
            rule: held_clearance(kind),
            kept: &kept,
        });
        let arms = arms::Arms::new(reach.as_ref(), kind, n, self.holds_unseen(&arcs));
        // What of a flight's lanes its thrower's and catcher's hands carry, and whether either
        // holds several props at once (`bring_to_hands`, clubs only).
        let ends: Vec<FlightEnds> = self
            .tosses
            .iter()
            .filter(|_| kind == PropKind::Club)
            .map(|t| {
                let end = |slot: usize, juggler: usize, at: f64| {
                    self.hands_carry
                        .get(slot)
                        .copied()
                        .flatten()
                        .map(|way| Carried::of(place(juggler, at).facing, way))
                };
                FlightEnds {
                    release: end(t.from.slot(), t.from.juggler, t.release),
                    catch: end(t.to.slot(), t.to.juggler, t.catch),
                    several: holds_several(t.from.slot()) || holds_several(t.to.slot()),
                }
            })
            .collect();
        let (mut offsets, left) = assign(
            &representatives,
            &stacks,
            cycle.period,
            rule,
            held,
            Some(&arms),
            &ends,
        );
        // Clubs still cutting something (measured as drawn): laned again with clubs as drawn
        // (handles a third as thick as the bodies), the lanes that leave less kept. Measured
        // as drawn from the start, the lanes laid early flights nearer each other and left
        // no room for later ones (Juggling Lab's Burke's Barrage, Crossed Arm Reverse).
        if left.0 > RELANE {
            let kept_drawn = std::cell::RefCell::new(KeptMeasures::default());
            let (drawn, left_drawn) = assign(
                &representatives,
                &stacks,
                cycle.period,
                rule.drawn(),
                held.map(|h| h.drawn(&kept_drawn)),
                Some(&arms),
                &ends,
            );
            if left_drawn.0 < RELANE_SHARE * left.0 && left_drawn.1 <= left.1 + CLEAR {
                offsets = drawn;
            }
        }
        for i in 0..n {
            offsets[i] = offsets[cycle.class[i]];
        }
        if offsets.iter().all(|o| *o == (DVec3::ZERO, DVec3::ZERO)) {
            return;
        }
        // A hand that would carry its clubs' or rings' lanes into flights passing its forearm
        // (the lanes kept them clear of it where it was) carries the largest share of them
        // (`CARRIED_SHARES`) that takes it no deeper, else keeps to its path: the Statue of
        // Liberty's raised hand, carried forward to its ring, met the ring thrown up past it.
        // (Balls' hands carry the forward part only: sideways, a hand passing balls moved in
        // put its elbow into the torso in PPS.)
        // The shift of hand `slot` carrying `c`, where that takes its forearm no deeper.
        let no_deeper = |slot: usize, c: HandCarry| {
            let shift = CarriedShift::of(&self.tosses, &offsets, slot, self.hand_period, &place, c);
            let depths = arms.carried_depths(&arcs, &offsets, slot, &|t| shift.at(t));
            depths
                .is_some_and(|(before, after)| after <= before + deeper(c))
                .then_some(shift)
        };
        for slot in 0..self.hands_carry.len() {
            let Some(carry) = self.hands_carry[slot].filter(|_| kind != PropKind::Ball) else {
                continue;
            };
            self.hands_carry[slot] = CARRIED_SHARES
                .iter()
                .map(|&share| HandCarry { share, ..carry })
                .find(|&c| no_deeper(slot, c).is_some());
        }
        // A hand that crosses to the other side of the body carries its lanes too where that
        // brings its forearm no nearer its other forearm than its path does (within
        // `CROSSED_CLEAR` of it for no longer or deeper, `CROSSED_SHORT` at most, the arms
        // posed for the carried hands) nor deeper into flights passing it: a hand that crosses
        // under, over or far past the other (its path measured with both hands on theirs,
        // carried with the other hand carrying where it already does; Juggling Lab's
        // Rubenstein's Revenge, Yo-Yo, Reachover, Tornado, Weave) holds its prop in its fist,
        // where it held it up to 15 cm in front or beside; in the Mills Mess, where the
        // forearms pass within centimetres of each other, carried hands took them into each
        // other. Where all of the lanes fail that, the largest share that passes is carried.
        if self.hands.len() <= MAX_CROSSING_HANDS {
            let slots = self.hands_carry.len();
            for (slot, &own_side) in on_its_side.iter().enumerate().take(slots) {
                let Some(way) = way.filter(|_| {
                    !own_side
                        && !catches_bounces(slot)
                        && (kind == PropKind::Ball || !holds_several(slot))
                }) else {
                    continue;
                };
                let other = slot ^ 1;
                let other_shift = self.hands_carry.get(other).copied().flatten().map(|w| {
                    CarriedShift::of(&self.tosses, &offsets, other, self.hand_period, &place, w)
                });
                let fits = |c: HandCarry| {
                    let Some(shift) = no_deeper(slot, c) else {
                        return false;
                    };
                    let (before, after) = arms.carried_forearm_shortfall(
                        slot,
                        (self.hand_period, CROSSED_CLEAR),
                        &|t| shift.at(t),
                        &|t| other_shift.as_ref().map_or(DVec3::ZERO, |s| s.at(t)),
                    );
                    after <= (before + CROSSED_SLACK).min(CROSSED_SHORT)
                };
                if let Some(c) = CARRIED_SHARES
                    .iter()
                    .map(|&share| HandCarry { way, share })
                    .find(|&c| fits(c))
                {
                    self.hands_carry[slot] = Some(c);
                }
            }
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
        // Held props slide from the lane they arrived in to the lane they leave in; a ball or
        // a club (laned two steps it would sit 10–11 cm off the fist) comes into the middle of
        // its hand on the way (`held_lane`), where its hand never holds several props at once
        // (props held together keep the lanes that part them).
        // (Twice where a hand carrying its lanes would go above `CARRIED_ACCELERATION`: then
        // it carries a smaller share of them, or none.)
        let placed_paths = self
            .hands_carry
            .iter()
            .any(Option::is_some)
            .then(|| self.paths.clone());
        self.lay_held(kind, &several, (&catch_shift, &release_shift));
        if let Some(placed) = placed_paths.filter(|_| self.carry_slower(&*reach, &place)) {
            self.paths = placed;
            self.lay_held(kind, &several, (&catch_shift, &release_shift));
        }
    }

    /// Lays each held prop's offsets from the lane it arrived in (`shifts.0`, per toss, the
    /// catcher's frame) to the lane it leaves in (`shifts.1`, the thrower's), into its hand on
    /// the way (`held_lane`) and less what its hand carries (`hands_carry`).
    fn lay_held(&mut self, kind: PropKind, several: &[bool], shifts: (&[DVec3], &[DVec3])) {
        let (catch_shift, release_shift) = shifts;
        let carrying = &self.hands_carry;
        for path in &mut self.paths {
            let spans = path.hold_spans();
            let m = path.segments.len();
            let air = |k: usize| match path.segments[k % m] {
                PathSegment::Air { toss, .. } => Some(toss),
                PathSegment::Held { .. } => None,
            };
            let mut segments = Vec::with_capacity(m);
            for (k, segment) in path.segments.iter().enumerate() {
                let PathSegment::Held {
                    start,
                    end,
                    hand,
                    offset0,
                    offset1,
                } = *segment
                else {
                    segments.push(segment.clone());
                    continue;
                };
                let arrived = (1..=m).map(|d| (k + m - d) % m).find_map(air);
                let leaves = (1..=m).map(|d| (k + d) % m).find_map(air);
                let from = arrived.map_or(DVec3::ZERO, |i| catch_shift[i]);
                let to = leaves.map_or(DVec3::ZERO, |i| release_shift[i]);
                let (s0, s1) = spans[k];
                let to_hand = comes_to_hand(kind, several, hand);
                // The share of the whole hold gone by at `t`.
                let share = |t: f64| {
                    if s1 > s0 {
                        ((t - s0) / (s1 - s0)).clamp(0.0, 1.0)
                    } else {
                        0.0
                    }
                };
                let carry = carrying
                    .get(hand)
                    .copied()
                    .flatten()
                    .map(|way| Carried::of(0.0, way));
                let lane = |t: f64| held_lane(from, to, share(t), to_hand, carry);
                let base = |t: f64| {
                    if end > start {
                        offset0.lerp(offset1, ((t - start) / (end - start)).clamp(0.0, 1.0))
                    } else {
                        offset0
                    }
                };
                // Cut where the prop's way into the hand bends, so that each piece slides
                // linearly.
                let mut cuts = vec![start];
                if (to_hand || carry.is_some_and(|c| !c.lanes_only())) && s1 > s0 {
                    cuts.extend(
                        (1..HELD_PIECES)
                            .map(|j| s0 + (s1 - s0) * j as f64 / HELD_PIECES as f64)
                            .filter(|&t| t > start + 1e-9 && t < end - 1e-9),
                    );
                }
                cuts.push(end);
                for w in cuts.windows(2) {
                    let (a, b) = (w[0], w[1]);
                    segments.push(PathSegment::Held {
                        start: a,
                        end: b,
                        hand,
                        offset0: base(a) + lane(a),
                        offset1: base(b) + lane(b),
                    });
                }
            }
            path.segments = segments;
        }
    }
}

/// A hand that crosses the body carries its lanes (`separate_flights`) where its forearm comes
/// within `CROSSED_CLEAR` metres (surface to surface) of its other forearm no more than on its
/// path (the shortfall integrated over the hand period, metre-seconds, `CROSSED_SLACK` to
/// spare) and for at most `CROSSED_SHORT`. Measured: Juggling Lab's Rubenstein's Revenge 0.010
/// on its path, 0.007–0.009 carried; its Mills Mess 0.0095 → 0.0103 (not carried); before the
/// forearms are lifted apart, the Mills Messes' pass through each other, 0.03–0.06 either way.
const CROSSED_CLEAR: f64 = 0.05;
const CROSSED_SLACK: f64 = 1e-5;
const CROSSED_SHORT: f64 = 0.02;
/// Most hand slots whose crossing hands are measured for carrying (each measure poses the
/// juggler twice every 10 ms of the hand period).
const MAX_CROSSING_HANDS: usize = 64;

/// How much deeper (metres) carrying its clubs' lanes may take a hand's forearm into flights
/// passing it (`Choreography::separate_flights`).
const CARRIED_DEEPER: f64 = 0.001;

/// Shares of its lanes a hand is tried carrying, most first, until one passes the checks.
const CARRIED_SHARES: [f64; 4] = [1.0, 0.75, 0.5, 0.25];

/// How much deeper (metres) carrying `c` may take a hand's forearm into flights passing it:
/// `CARRIED_DEEPER` carrying all of the lanes, none carrying a share of them (the measure
/// moves the hand by that share of the lanes at its catches and throws, straight between,
/// which the carry only approximates: the Quintuple box's right hand carrying half its clubs'
/// lanes, measured 0.5 mm deeper, took a club 1.0 cm into its forearm).
fn deeper(c: HandCarry) -> f64 {
    if c.share < 1.0 {
        0.0
    } else {
        CARRIED_DEEPER
    }
}

/// Most acceleration (m/s²) a hand carrying its lanes may reach (`carry_slower`), unless it reached
/// more on its path: then no more than `CARRIED_MARGIN` above that. With 1 m/s², hands already at
/// 185–195 on their paths gave up carrying for a metre per second squared more: `88581` and the
/// synchronous `(6,8)(8x,2x)` family with clubs held them 10–15 cm beside the fist, now within 2
/// mm. A hand that would go above it carrying all of its lanes carries the largest share that keeps
/// within it: Juggling Lab's `7131` with clubs (its left hand at 344 m/s² with its hands on their
/// paths and its clubs 15 cm beside the fist, the right now carrying three quarters: 185 m/s², 3.7
/// cm), `o` and `a` with clubs (10 cm → 2.5 cm). Until stop 68 only hands carrying sideways,
/// crossing the body or carrying several balls' mean were held to it; a ball's hand carrying
/// forward alone went to 212–214 m/s² in Juggling Lab's passing files (`oss: 5 hss: 1124`, the
/// carry taking a ball's lane back in the short hold of its 1).
const CARRIED_ACCELERATION: f64 = 185.0;
const CARRIED_MARGIN: f64 = 5.0;

impl Choreography {
    /// Hands carrying their lanes that would so go above `CARRIED_ACCELERATION`
    /// (or above what they reached on their paths, `reach`, where that is more) carry the largest
    /// of the smaller `CARRIED_SHARES` that keeps within it, else keep to their paths: sampled
    /// every millisecond over the hand period, the path's acceleration plus the carrying's
    /// (`carry.rs`, as the motion builds it from the held props' offsets laid; a smaller share as
    /// that share of it). Whether any hand was changed.
    fn carry_slower(&mut self, reach: &dyn Reach, place: &dyn Fn(usize, f64) -> Placement) -> bool {
        const STEP: f64 = 0.001;
        const H: f64 = 0.0005;
        let period = self.hand_period;
        if !(self.hands_carry.iter().any(Option::is_some) && period.is_finite() && period > 0.0) {
            return false;
        }
        let carries = super::carry::hand_carry(self, self.hands.len());
        let steps = ((period / STEP).ceil() as usize).min(100_000);
        let mut changed = false;
        for (slot, carry) in carries.iter().enumerate() {
            let Some(carry) = carry else {
                continue;
            };
            let juggler = HandRef::from_slot(slot).juggler;
            // The carrying's acceleration scales with its share: each share no larger than
            // the one laid is measured as that share of it.
            let Some(laid) = self.hands_carry.get(slot).copied().flatten() else {
                continue;
            };
            let tried: Vec<f64> = CARRIED_SHARES
                .iter()
                .copied()
                .filter(|&s| s <= laid.share)
                .collect();
            let mut plain = 0.0f64;
            let mut carried = vec![0.0f64; tried.len()];
            for k in 0..steps {
                let t = period * k as f64 / steps as f64;
                let path = (reach.hand(slot, t + H) - 2.0 * reach.hand(slot, t)
                    + reach.hand(slot, t - H))
                    / (H * H);
                let local = (carry.at(t + H).1 - carry.at(t - H).1) / (2.0 * H);
                let moved = rotate(place(juggler, t).facing, local);
                plain = plain.max(path.length());
                for (c, &s) in carried.iter_mut().zip(&tried) {
                    *c = c.max((path + moved * (s / laid.share)).length());
                }
            }
            let limit = CARRIED_ACCELERATION.max(plain + CARRIED_MARGIN);
            let kept = tried
                .iter()
                .zip(&carried)
                .find(|&(_, &c)| c <= limit)
                .map(|(&share, _)| HandCarry { share, ..laid });
            if kept != Some(laid) {
                self.hands_carry[slot] = kept;
                changed = true;
            }
        }
        changed
    }
}

/// Where the hand of a slot carrying its clubs' or rings' lanes (`Carrying`) is moved, world,
/// about: the carried part of its flights' offsets at its catches and throws (`knots`: time
/// within the hand period, offset), linear in between. (`carry.rs` joins them smoothly; this
/// is for measuring.)
struct CarriedShift {
    knots: Vec<(f64, DVec3)>,
    period: f64,
}

impl CarriedShift {
    /// For hand `slot`, from the flights' offsets (`offsets`, per toss, world, at the release
    /// and the catch).
    fn of(
        tosses: &[Toss],
        offsets: &[(DVec3, DVec3)],
        slot: usize,
        period: f64,
        place: &dyn Fn(usize, f64) -> Placement,
        carry: HandCarry,
    ) -> CarriedShift {
        let part = |juggler: usize, t: f64, offset: DVec3| {
            Carried::of(place(juggler, t).facing, carry).part(offset)
        };
        let mut knots: Vec<(f64, DVec3)> = Vec::new();
        for (t, &(at_release, at_catch)) in tosses.iter().zip(offsets) {
            if t.to.slot() == slot {
                knots.push((
                    t.catch.rem_euclid(period),
                    part(t.to.juggler, t.catch, at_catch),
                ));
            }
            if t.from.slot() == slot {
                knots.push((
                    t.release.rem_euclid(period),
                    part(t.from.juggler, t.release, at_release),
                ));
            }
        }
        knots.sort_by(|a, b| a.0.total_cmp(&b.0));
        CarriedShift { knots, period }
    }

    /// The knots on either side of `u` (within the period), the second a period on where it
    /// wraps.
    fn around(&self, u: f64) -> ((f64, DVec3), (f64, DVec3)) {
        let n = self.knots.len();
        let i = self.knots.partition_point(|k| k.0 <= u);
        if i == 0 || i == n {
            let (a, b) = (self.knots[n - 1], self.knots[0]);
            (a, (b.0 + self.period, b.1))
        } else {
            (self.knots[i - 1], self.knots[i])
        }
    }

    /// The offset at `t` (seconds, any).
    fn at(&self, t: f64) -> DVec3 {
        if self.knots.is_empty() || !t.is_finite() {
            return DVec3::ZERO;
        }
        let u = t.rem_euclid(self.period);
        let (a, b) = self.around(u);
        let u = if u < a.0 { u + self.period } else { u };
        if b.0 - a.0 <= 1e-9 {
            return b.1;
        }
        a.1.lerp(b.1, ((u - a.0) / (b.0 - a.0)).clamp(0.0, 1.0))
    }
}

/// Whether a prop of `kind` held alone by hand slot `hand` comes into the middle of its hand
/// half-way (`held_lane`): a ball or a club (not a ring: held by its rim, which its hand's
/// carry keeps in the fist where the lanes run forward and which stays within 6 cm of the hand
/// in its other lanes; drawing rings held side by side into their hands made 31 more of
/// Juggling Lab's patterns overlap), in a hand that never holds several props at once
/// (`several`, per slot).
fn comes_to_hand(kind: PropKind, several: &[bool], hand: usize) -> bool {
    kind != PropKind::Ring && !several.get(hand).copied().unwrap_or(true)
}

/// Pieces a held prop's way from its lane into the middle of its hand and out to the next
/// lane is cut into (each slides linearly).
const HELD_PIECES: usize = 8;

/// Where a held prop that arrived in lane `from` and leaves in lane `to` is off its hand by
/// its lanes when share `f` (0 to 1) of its whole hold has gone by: sliding linearly from one
/// to the other; a ball or club (`to_hand`) also comes into the middle of the hand on the
/// way, by `cos²`, so it is in its lanes (with the same slide rate) at the catch and the
/// throw, and in the hand half-way. A hand that `carry`s its lanes takes their carried part
/// with it; only the rest is off the hand.
fn held_lane(from: DVec3, to: DVec3, f: f64, to_hand: bool, carry: Option<Carried>) -> DVec3 {
    let Some(carried) = carry.filter(|c| !c.lanes_only()) else {
        return into_hand(from, to, f, to_hand);
    };
    // The hand carries the forward part of the lanes (`carry.rs`): that part moves with it,
    // smoothly (no faster than the hand's path at the catch and the throw, so the ball leaves
    // the hand as fast as the hand throws it); the rest comes into the hand.
    let (a, b) = (carried.part(from), carried.part(to));
    a.lerp(b, f * f * (3.0 - 2.0 * f)) + into_hand(from - a, to - b, f, to_hand)
}

/// `held_lane` of a hand that carries none of its props' lanes.
fn into_hand(from: DVec3, to: DVec3, f: f64, to_hand: bool) -> DVec3 {
    let slide = from.lerp(to, f);
    if to_hand {
        slide * (std::f64::consts::PI * f).cos().powi(2)
    } else {
        slide
    }
}

/// Flights that must share one lane (props caught and thrown together by one hand).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stack {
    id: usize,
}

impl Choreography {
    /// For each flight (by its class), the stack it belongs to: clubs and rings caught and
    /// thrown together by one hand (`[33]`) arrive in one lane and leave in one, so that they
    /// slide alike in the hand (`None`: a flight of its own). Props held together for part of
    /// their holds only (a squeezed catch, a split multiplex) are laned one by one, kept clear
    /// of each other in the hand (`Hold`).
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
            for (k, &(arrived, leaves)) in path.hold_tosses().iter().enumerate() {
                let PathSegment::Held { hand, .. } = path.segments[k] else {
                    continue;
                };
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
                // in one lane and leave in one lane.
                let same_span = (s2 + shift - s1).abs() < 1e-6 && (e2 + shift - e1).abs() < 1e-6;
                if same_span {
                    join(ids[0], ids[2]);
                    join(ids[1], ids[3]);
                    for i in ids {
                        joined[i] = true;
                    }
                }
            }
        }
        (0..n)
            .map(|i| {
                let c = class.get(i).copied().unwrap_or(i);
                joined[c].then(|| Stack {
                    id: root(&mut parent, c),
                })
            })
            .collect()
    }
}

/// Times (seconds) and distances (metres) within which two flights count as repeats of
/// one another (times and points written rounded read back within them).
const SAME_TIME: f64 = 1e-3;
const SAME_PLACE: f64 = 2e-3;
/// Launch speeds (m/s) this close are one flight's (its path is then the same to `SAME_PLACE`).
const SAME_SPEED: f64 = 0.02;
/// A flight whose props pass their repeat a cycle later closer than this (centres, metres)
/// needs its successive throws laned apart (`Choreography::flights_meet_their_repeats`).
const OWN_REPEAT_APART: f64 = 0.06;

impl Choreography {
    /// The event points (juggler-local) every toss is released from and caught at, by toss:
    /// hands lifted where forearms cross throw and catch from their lifted points.
    fn toss_points(&self) -> (Vec<Option<DVec3>>, Vec<Option<DVec3>>) {
        let n = self.tosses.len();
        let mut release_at: Vec<Option<DVec3>> = vec![None; n];
        let mut catch_at: Vec<Option<DVec3>> = vec![None; n];
        for (hand, events) in self.hands.iter().enumerate() {
            let lift = self.lifts.iter().find(|l| l.slot == hand);
            for e in events {
                let up = lift.map_or(0.0, |l| l.offset(e.time).y);
                let point = e.position + DVec3::Y * up;
                for &i in &e.throws {
                    if let Some(slot) = release_at.get_mut(i) {
                        *slot = Some(point);
                    }
                }
                for &i in &e.catches {
                    if let Some(slot) = catch_at.get_mut(i) {
                        *slot = Some(point);
                    }
                }
            }
        }
        (release_at, catch_at)
    }

    /// Where a flight of props of `kind` would meet its own repeat in the air, so that the
    /// pattern is to be laned over several of its cycles (`lane_copies`), the soonest such
    /// repeat (seconds): two props on one parabola `P` seconds apart are level where they are
    /// the parabola's horizontal speed times `P` apart, whatever lane both take. Passes and
    /// bounces are not looked at, nor patterns of more tosses than the lane search takes
    /// (`MAX_TOSSES`; each flight is compared with every other).
    pub(crate) fn flights_meet_their_repeats(&self, kind: PropKind) -> Option<f64> {
        let n = self.tosses.len();
        let period = self.hand_period;
        if !((1..=MAX_TOSSES).contains(&n) && period.is_finite() && period > 0.0) {
            return None;
        }
        // Props level with their repeat closer than this (centres, metres) are laned over
        // several cycles: a ball's width and a centimetre would be the measure, but lanes
        // drifting from release to catch part a flight from its repeat by a little more (the
        // library's `cake` balls, 9.6 cm, and `a`, 10.3 cm, are clear on one cycle, and laned
        // over three `a`'s left hand went 184 → 190 m/s²), so only as close as 6 cm: `o`, `z`,
        // `z1`. Rings as balls (their rims in parallel planes once laned in depth). Not clubs:
        // their lanes run sideways, along the way such props are apart, and in depth along
        // their own length where they lie level near the top (over three cycles `o`'s clubs
        // met 6.0 cm deep instead of 2.9).
        let apart = match kind {
            PropKind::Ball | PropKind::Ring => OWN_REPEAT_APART,
            PropKind::Club => return None,
        };
        // (Measured across: a hand's lift does not change it.)
        let (release_at, catch_at) = self.toss_points();
        let flight = |i: usize| {
            let t = &self.tosses[i];
            let (Some(a), Some(b)) = (release_at[i], catch_at[i]) else {
                return None;
            };
            let plain =
                t.kind == super::choreography::TossKind::Toss && t.from.juggler == t.to.juggler;
            let duration = t.catch - t.release;
            (plain && duration > 0.0).then_some((
                t,
                a + t.release_offset,
                b + t.catch_offset,
                duration,
            ))
        };
        let flights: Vec<_> = (0..n).map(flight).collect();
        flights.iter().flatten().find_map(|&(t, a, b, duration)| {
            // The soonest repeat of this flight: the same hands, time and points.
            let repeat = flights
                .iter()
                .flatten()
                .filter(|(u, c, d, other)| {
                    u.from == t.from
                        && u.to == t.to
                        && (other - duration).abs() < SAME_TIME
                        && c.distance(a) < SAME_PLACE
                        && d.distance(b) < SAME_PLACE
                })
                .map(|(u, ..)| (u.release - t.release).rem_euclid(period))
                .filter(|&shift| shift > SAME_TIME && shift < period - SAME_TIME)
                .fold(period, f64::min);
            let across = DVec3::new(b.x - a.x, 0.0, b.z - a.z).length();
            (repeat < duration && across / duration * repeat < apart).then_some(repeat)
        })
    }
}

/// Most repeats of the pattern looked for within one hand period.
const MAX_REPEATS: usize = 64;

/// The pattern's own cycle: the shortest time after which every flight repeats, and for each
/// flight the one it repeats (its class: the repeat released first within the cycle).
struct Cycle {
    period: f64,
    class: Vec<usize>,
}

impl Cycle {
    fn of(arcs: &[Option<Arc>], hand_period: f64, copies: u32) -> Self {
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
        // Where the hand period holds `copies` cycles laned apart, a class spans that many.
        let copies = (copies.max(1) as usize).min(MAX_REPEATS);
        let repeats = (2..=MAX_REPEATS.min(count))
            .rev()
            .filter(|&k| count.is_multiple_of(k) && k.is_multiple_of(copies))
            .find(|&k| {
                let shift = hand_period / k as f64;
                by_phase.iter().all(|&i| {
                    arcs[i]
                        .as_ref()
                        .is_some_and(|a| repeat_of(a, shift).is_some())
                })
            })
            .map_or(1, |k| (k / copies).max(1));
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
    /// of cycles, is matched by the caller): same hands, flight time, release and catch
    /// points, launch and turning (a bounce and a toss between the same points in the same
    /// time, as `(4xB,2x)(4x,2x)`'s, or a club's single and double spin, are not one flight).
    fn repeats_as(&self, other: &Arc) -> bool {
        let duration = |a: &Arc| a.catch - a.release;
        let p1 = |a: &Arc| a.at(a.catch);
        let v0 = |a: &Arc| a.path.velocity(0.0);
        // (Looked at last: up to `MAX_AXES` axes each.)
        let same_turning = || {
            self.axes.len() == other.axes.len()
                && self
                    .axes
                    .iter()
                    .zip(&other.axes)
                    .all(|(a, b)| a.dot(*b) > 0.999)
        };
        self.hands == other.hands
            && self.together == other.together
            && (duration(self) - duration(other)).abs() < SAME_TIME
            && self.path.start().distance(other.path.start()) < SAME_PLACE
            && p1(self).distance(p1(other)) < SAME_PLACE
            && v0(self).distance(v0(other)) < SAME_SPEED
            && self.lane.distance(other.lane) < 1e-6
            && same_turning()
    }
}

/// A flight's lane: its offset along its lane direction at the release and at the catch
/// (in lane steps), moving linearly in between.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Lane {
    release: f64,
    catch: f64,
    /// Along the flight's other direction (`Arc::other`) instead of its lane direction.
    other: bool,
}

impl Lane {
    /// A lane along the flight's own lane direction.
    const fn beside(release: f64, catch: f64) -> Lane {
        Lane {
            release,
            catch,
            other: false,
        }
    }

    /// The world direction (times the lane step) this lane runs along for `arc`.
    fn direction(self, arc: &Arc) -> DVec3 {
        Self::along((arc.lane, arc.other), self)
    }

    /// `lane`'s direction of a flight whose lane and other directions are `directions`.
    fn along(directions: (DVec3, DVec3), lane: Lane) -> DVec3 {
        if lane.other {
            directions.1
        } else {
            directions.0
        }
    }

    fn at(self, arc: &Arc, t: f64) -> DVec3 {
        let f = ((t - arc.release) / (arc.catch - arc.release)).clamp(0.0, 1.0);
        self.direction(arc) * (self.release + (self.catch - self.release) * f)
    }

    /// Offset `offset` of this lane as a key for kept measures: lanes the other way apart
    /// from the others (offsets are at most three steps).
    fn key(self, offset: f64) -> u64 {
        (offset + if self.other { 100.0 } else { 0.0 }).to_bits()
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
    intrusion_with(p, a, q, b, shift, rule, samples, None)
}

/// The two flights' poses (centre and axis of each, the second `shift` seconds later) at the
/// coarse samples `intrusion` takes, for trying many lanes on one pair (a lane moves a flight
/// as a whole, so its poses stay).
fn pair_poses(p: &Arc, q: &Arc, shift: f64) -> Vec<[DVec3; 4]> {
    let Some((start, end)) = shared_span(p, q, shift) else {
        return Vec::new();
    };
    let (steps, dt) = sample_steps(start, end);
    (0..=steps)
        .map(|k| {
            let t = start + dt * k as f64;
            let ((c0, u), (c1, v)) = (p.pose(t), q.pose(t - shift));
            [c0, u, c1, v]
        })
        .collect()
}

/// `intrusion`, reading the coarse samples' poses from `poses` (`pair_poses` of the same
/// flights and shift) where given.
#[allow(clippy::too_many_arguments)]
fn intrusion_with(
    p: &Arc,
    a: Lane,
    q: &Arc,
    b: Lane,
    shift: f64,
    rule: Clearance,
    samples: &std::cell::Cell<u64>,
    poses: Option<&[[DVec3; 4]]>,
) -> f64 {
    let Some((start, end)) = shared_span(p, q, shift) else {
        return 0.0;
    };
    let depth_of = |t: f64, [c0, u, c1, v]: [DVec3; 4]| {
        rule.depth(c0 + a.at(p, t), u, c1 + b.at(q, t - shift), v)
    };
    let depth_at = |t: f64| {
        let ((c0, u), (c1, v)) = (p.pose(t), q.pose(t - shift));
        depth_of(t, [c0, u, c1, v])
    };
    let rate = closing_rate((p, a), (q, b), shift, (start, end));
    deepest_with(
        start,
        end,
        |k, t| {
            poses
                .and_then(|poses| poses.get(k))
                .map_or_else(|| depth_at(t), |&pose| depth_of(t, pose))
        },
        depth_at,
        rate,
        samples,
    )
}

/// How fast (m/s) two flights' centres close at most while both fly (from `span.0` to
/// `span.1`; the second `shift` seconds later) in lanes `a` and `b`: their relative velocity,
/// constant for two parabolas under one gravity (a bounce turns it: taken at nine times),
/// with their lanes' and grips' drift. (Spinning ends are what `NEAR` a step allows for.)
fn closing_rate((p, a): (&Arc, Lane), (q, b): (&Arc, Lane), shift: f64, span: (f64, f64)) -> f64 {
    const TIMES: usize = 8;
    let drift = |arc: &Arc, lane: Lane| {
        let duration = arc.catch - arc.release;
        if duration > 0.0 {
            (lane.direction(arc) * (lane.catch - lane.release) + arc.grip.1 - arc.grip.0) / duration
        } else {
            DVec3::ZERO
        }
    };
    let steady = drift(p, a) - drift(q, b);
    let (start, end) = span;
    (0..=TIMES)
        .map(|k| {
            let t = start + (end - start) * k as f64 / TIMES as f64;
            let relative = p.path.velocity(t - p.release) - q.path.velocity(t - shift - q.release);
            (relative + steady).length()
        })
        .fold(0.0, f64::max)
}

/// The time two flights (the second `shift` seconds later) are both in the air, if any.
fn shared_span(p: &Arc, q: &Arc, shift: f64) -> Option<(f64, f64)> {
    let start = p.release.max(q.release + shift);
    let end = p.catch.min(q.catch + shift);
    (end > start).then_some((start, end))
}

/// Coarse samples from `start` to `end`: their number less one, and the step.
fn sample_steps(start: f64, end: f64) -> (usize, f64) {
    let steps = ((end - start) / SAMPLE_STEP).ceil().clamp(1.0, 400.0) as usize;
    (steps, (end - start) / steps as f64)
}

/// The deepest of `depth_at` from `start` to `end` (seconds), sampled every `SAMPLE_STEP`
/// and `FINE_STEPS` times as often where it comes within `NEAR` of touching (metres; 0 when
/// clear). Counts its samples in `samples`.
fn deepest(
    start: f64,
    end: f64,
    depth_at: impl Fn(f64) -> f64,
    samples: &std::cell::Cell<u64>,
) -> f64 {
    deepest_with(start, end, |_, t| depth_at(t), &depth_at, 0.0, samples)
}

/// `deepest`, with the coarse samples measured by `coarse(k, t)` (sample `k` at `t`), for
/// props whose clearance changes by at most `rate` m/s (0: by no more than `NEAR` a step).
fn deepest_with(
    start: f64,
    end: f64,
    coarse: impl Fn(usize, f64) -> f64,
    depth_at: impl Fn(f64) -> f64,
    rate: f64,
    samples: &std::cell::Cell<u64>,
) -> f64 {
    let (steps, dt) = sample_steps(start, end);
    samples.set(samples.get() + steps as u64 + 1);
    // Props closing faster than `NEAR` a step (a ball rising at 30 m/s past one falling)
    // are looked at from further off, as finely for each centimetre they close.
    let near = NEAR.max(rate * dt);
    let fine = if near > NEAR {
        ((near / NEAR) * FINE_STEPS as f64)
            .ceil()
            .min(MAX_FINE_STEPS as f64) as usize
    } else {
        FINE_STEPS
    };
    let mut worst = 0.0f64;
    for k in 0..=steps {
        let t = start + dt * k as f64;
        let depth = coarse(k, t);
        worst = worst.max(depth);
        // Props this close may meet and part again between two samples (passes crossing
        // at several metres a second): look between them more finely.
        if depth > -near && k < steps {
            samples.set(samples.get() + fine as u64);
            for f in 1..fine {
                worst = worst.max(depth_at(t + dt * f as f64 / fine as f64));
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
        let p0 = from.position.as_dvec3() + rotate(from.facing, points.0 + t.release_offset);
        let p1 = to.position.as_dvec3() + rotate(to.facing, points.1 + t.catch_offset);
        Arc {
            path: t.flight_path(p0, p1, self.gravity),
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
/// The most fine samples between two coarse ones, for props closing fastest.
const MAX_FINE_STEPS: usize = 100;

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

/// `CANDIDATES` for balls: lanes whose ends are both in front first (a hand carries the
/// forward part of its ball's lanes, `carry.rs`, so a ball in them is caught and thrown in the
/// fist), then as for the others.
const BALL_CANDIDATES: [(f64, f64); 15] = [
    (0.0, 0.0),
    (1.0, 1.0),
    (2.0, 2.0),
    (0.0, 2.0),
    (2.0, 0.0),
    (-1.0, 1.0),
    (1.0, -1.0),
    (-1.0, -1.0),
    (3.0, 3.0),
    (-2.0, -2.0),
    (0.0, -2.0),
    (-2.0, 0.0),
    (-2.0, 2.0),
    (2.0, -2.0),
    (-3.0, -3.0),
];

/// Lanes the other way (`Arc::other`) tried in a last look, in lane steps: a club thrown to
/// oneself passes in front of or behind a held club or a crossed forearm it rises past, a ring
/// beside another where their planes would cut.
const OTHER_CANDIDATES: [(f64, f64); 4] = [(1.0, 1.0), (-1.0, -1.0), (2.0, 2.0), (-2.0, -2.0)];

/// Lanes drifting across three steps tried in the last look too (`search` with `either_way`):
/// a long flight falling past a forearm needs the far lane there, and its repeat a period later
/// a lane apart from it.
const LAST_CANDIDATES: [(f64, f64); 8] = [
    (-3.0, -1.0),
    (-1.0, -3.0),
    (3.0, 1.0),
    (1.0, 3.0),
    (-3.0, 0.0),
    (0.0, -3.0),
    (3.0, 0.0),
    (0.0, 3.0),
];

/// Lanes four steps out, tried in the last look after `LAST_CANDIDATES` by clubs that would
/// still cut a prop by more than `FAR_CUT` or come into an arm (`FAR_ARMS`: touching it), of a
/// juggler juggling alone whose hands stay on their own sides (`Arc::far`): a bounced club
/// falling past a forearm farther than three steps reach. Taken only where they clear the
/// props. (Tried for less, or where they only eased a cut, they took clubs 20 cm off the fists
/// of hands that do not carry them for millimetres, in 7131 and Juggling Lab's Rubenstein's
/// Revenge; for crossing hands, Juggling Lab's Mills Mess Box's held clubs into the other
/// forearm; for passers, one-count triangles' clubs 20 cm off fists too fast to carry them and
/// a walking juggler's upper arm.)
const FAR_CANDIDATES: [(f64, f64); 6] = [
    (-4.0, -4.0),
    (4.0, 4.0),
    (-4.0, -2.0),
    (-2.0, -4.0),
    (4.0, 2.0),
    (2.0, 4.0),
];
/// How deep inside the clearance (metres) a club's cut of another prop (1 cm of overlap) or of
/// an arm (touching it) must be for `FAR_CANDIDATES`.
const FAR_CUT: f64 = MARGIN + 0.01;
const FAR_ARMS: f64 = 0.01;

/// The lanes tried for props of `kind`, in order of preference.
fn candidates(kind: PropKind) -> impl Iterator<Item = Lane> + Clone {
    let beside = if kind == PropKind::Ball {
        &BALL_CANDIDATES
    } else {
        &CANDIDATES
    };
    let other: &[(f64, f64)] = if kind == PropKind::Ball {
        &[]
    } else {
        &OTHER_CANDIDATES
    };
    beside
        .iter()
        .map(|&(release, catch)| Lane::beside(release, catch))
        .chain(other.iter().map(|&(release, catch)| Lane {
            release,
            catch,
            other: true,
        }))
}

/// A world offset at release and catch per flight: greedily, in order of release, the first
/// lane that keeps the flight clear of those laned before it and of its own copies, else the
/// least bad one.
fn assign(
    arcs: &[Option<Arc>],
    stacks: &[Option<Stack>],
    period: f64,
    rule: Clearance,
    held: Option<Held>,
    arms: Option<&arms::Arms>,
    carried: &[FlightEnds],
) -> (Vec<(DVec3, DVec3)>, (f64, f64)) {
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
            let p0 = t.path.start();
            [phase, ms(t.catch - t.release), cm(p0.x), cm(p0.y), cm(p0.z)]
        })
    };
    order.sort_by_key(|&i| key(i));
    let mut laned: Vec<usize> = Vec::with_capacity(n);
    let mut done = vec![false; n];
    let samples = std::cell::Cell::new(0u64);
    let kept = std::cell::RefCell::new(KeptMeasures::default());
    // The groups laned together (or, parted, one by one), and whether one is not clear.
    let mut units: Vec<Vec<usize>> = Vec::new();
    // Per unit, whether the second look passes it by.
    let mut hopeless: Vec<bool> = Vec::new();
    let several = held.is_some_and(|h| h.holds.iter().any(|hold| hold.beside));
    let solo = arcs
        .iter()
        .flatten()
        .all(|a| a.hands.0 < 2 && a.hands.1 < 2);
    let mut troubled = false;
    // The solver's fields but the classes laned so far, which grow group by group.
    let base = Solver {
        arcs,
        laned: &[],
        period,
        rule,
        held,
        arms,
        samples: &samples,
        kept: &kept,
    };
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
        let solver = Solver {
            laned: &laned,
            ..base
        };
        let mut best = solver.best_lane(&group, &lanes, None);
        for &g in &group {
            lanes[g] = best.1;
        }
        let mut parted = false;
        // Props thrown together that one lane cannot keep clear (of each other, of what flies
        // or is held near them) part on release: each takes a lane of its own where that
        // leaves less overlap.
        if best.0 > 0.0 && (2..=MAX_PARTED).contains(&group.len()) && samples.get() < SECOND_LOOK {
            let joint = lanes.clone();
            for &g in &group {
                lanes[g] = Lane::default();
            }
            let mut worst = 0.0f64;
            for &g in &group {
                let own = solver.best_lane(&[g], &lanes, None);
                lanes[g] = own.1;
                worst = worst.max(own.0);
            }
            if worst >= best.0 - CLEAR {
                lanes = joint;
            } else {
                parted = true;
            }
        }
        // Clear of the props but in an arm: flights laned before may make room.
        if !parted && best.0 < CLEAR && samples.get() < SECOND_LOOK {
            let deep = solver.arms_depth(&group, lanes[i]);
            if deep >= CLEAR {
                let saves = |lane: Lane| solver.arms_depth(&group, lane) < deep - ARMS_WORTH;
                if let Some(trial) = solver.make_room(&group, &units, &lanes, &saves) {
                    lanes = trial;
                }
            }
        }
        // In no lane clear of the props: flights laned before may make room (in small
        // patterns of one juggler: each try re-lanes every group laned before, and passes
        // crossing between jugglers rarely find room).
        if !parted
            && best.0 >= CLEAR
            && solo
            && units.len() <= MAX_ROOM_UNITS
            && samples.get() < SECOND_LOOK
        {
            let deep = solver.arms_depth(&group, lanes[i]);
            let saves = |lane: Lane| solver.arms_depth(&group, lane) <= deep + CLEAR;
            if let Some(trial) = solver.make_room(&group, &units, &lanes, &saves) {
                lanes = trial;
                best.0 = 0.0;
            }
        }
        troubled |= best.0 > 0.0;
        if parted {
            units.extend(group.iter().map(|&g| vec![g]));
            hopeless.extend(group.iter().map(|_| false));
        } else {
            units.push(group.clone());
            hopeless.push(best.0 > 0.0 && !several);
        }
    }
    // Where a flight laned early meets one laned after it, each group looks again for a
    // lane clear of all the others (keeping its own unless another is better), twice at most;
    // in patterns without a hand holding several props, not the groups that found no clear
    // lane of their own when laned (passes crossing in the middle of a triangle: looking
    // again costs as much as laning, and cannot part them).
    let solver = Solver {
        laned: &laned,
        ..base
    };
    if troubled && held.is_some() && samples.get() < SECOND_LOOK {
        for _ in 0..2 {
            let mut changed = false;
            for (unit, _) in units.iter().zip(&hopeless).filter(|(_, h)| !**h) {
                if samples.get() > 2 * SECOND_LOOK {
                    break;
                }
                let current = lanes[unit[0]];
                let (_, lane) = solver.best_lane(unit, &lanes, Some(current));
                if lane != current {
                    changed = true;
                    for &g in unit {
                        lanes[g] = lane;
                    }
                }
            }
            if !changed {
                break;
            }
        }
    }
    // Where flights still meet, two groups at a time look for lanes together (passes crossing
    // in the middle of a triangle, a flight rising past a prop that a crossed hand holds:
    // neither clears by moving alone).
    if troubled && units.len() <= MAX_ROOM_UNITS && samples.get() < SECOND_LOOK {
        solver.pair_moves(&units, &mut lanes);
    }
    // Clubs and rings thrown to oneself still cutting a prop or an arm look once more, the
    // other way too: a club rising past a crossed forearm or a club the other hand holds
    // passes in front of or behind it, a ring beside another (tried only now, with every
    // flight laned: taken first come, first served, a lane the other way that clears a flight
    // at its turn is met by flights laned after it). Twice: a group moved may free another.
    if rule.kind != PropKind::Ball && samples.get() < SECOND_LOOK {
        for unit in units.iter().chain(&units) {
            let current = lanes[unit[0]];
            let (cut, depth) = (
                solver.props_in(unit, &lanes, current),
                solver.arms_depth(unit, current),
            );
            if cut < CLEAR && depth < CLEAR {
                continue;
            }
            // Not deeper into the arms than before (a lane four steps out that is, makes way
            // for the best of the others).
            let deeper = |lane: Lane| solver.arms_depth(unit, lane) > depth + CLEAR;
            let far = cut >= FAR_CUT || depth >= FAR_ARMS;
            let (_, mut lane) = solver.best_lane_either_way(unit, &lanes, current, far);
            if far && deeper(lane) {
                lane = solver.best_lane_either_way(unit, &lanes, current, false).1;
            }
            if lane != current && !deeper(lane) {
                for &g in unit {
                    lanes[g] = lane;
                }
            }
        }
    }
    // Clubs caught or thrown beside a fist that does not carry their lane come nearer it
    // where a lane closer to their hands is as clear.
    if rule.kind == PropKind::Club {
        solver.bring_to_hands(&units, &mut lanes, carried);
    }
    // Clubs the lanes left cutting something: how deep, measured as drawn, summed over the
    // groups (props and arms; `separate_flights` lanes them again with clubs as drawn and
    // keeps the lanes that leave less).
    let left =
        if rule.kind == PropKind::Club && (troubled || rule.drawn) && samples.get() < SECOND_LOOK {
            let (kept, kept_held, samples) = (
                std::cell::RefCell::new(KeptMeasures::default()),
                std::cell::RefCell::new(KeptMeasures::default()),
                std::cell::Cell::new(0u64),
            );
            let judge = Solver {
                rule: rule.drawn(),
                held: held.map(|h| h.drawn(&kept_held)),
                samples: &samples,
                kept: &kept,
                ..solver
            };
            units.iter().fold((0.0, 0.0), |(props, arms), unit| {
                let lane = lanes[unit[0]];
                (
                    props + judge.props_in(unit, &lanes, lane).max(0.0),
                    arms + judge.arms_depth(unit, lane).max(0.0),
                )
            })
        } else {
            (0.0, 0.0)
        };
    let offsets = (0..n)
        .map(|i| match arcs[i].as_ref() {
            Some(arc) => {
                let d = lanes[i].direction(arc);
                (d * lanes[i].release, d * lanes[i].catch)
            }
            None => (DVec3::ZERO, DVec3::ZERO),
        })
        .collect();
    (offsets, left)
}

/// The clearance asked of two flights (the second `shift` seconds later): props thrown
/// together leave a multiplex lane apart, so they are asked only the clearance of props held
/// together.
fn pair_rule(rule: Clearance, p: &Arc, q: &Arc, shift: f64) -> Clearance {
    let mates = p.together
        && q.together
        && p.hands.0 == q.hands.0
        && (p.release - q.release - shift).abs() < 1e-6;
    if mates {
        rule.held()
    } else {
        rule
    }
}

/// What the lane search needs to lane one group of flights.
#[derive(Clone, Copy)]
struct Solver<'a> {
    arcs: &'a [Option<Arc>],
    /// Classes laned so far, the group's own included.
    laned: &'a [usize],
    period: f64,
    rule: Clearance,
    held: Option<Held<'a>>,
    arms: Option<&'a arms::Arms<'a>>,
    samples: &'a std::cell::Cell<u64>,
    /// Measures of two flights already taken, kept for the lanes tried again.
    kept: &'a std::cell::RefCell<KeptMeasures>,
}

impl Solver<'_> {
    /// How deep flights `g` in lane `a` and `j` in lane `b` (`shift` seconds later) come
    /// inside the clearance asked of them (`intrusion`): measured once for each pair of lanes
    /// and kept (counting its samples again when asked again, so the search's budget runs as
    /// if measured anew); `poses`, where given, are the pair's coarse samples.
    fn pair_depth(
        &self,
        (g, a): (usize, Lane),
        (j, b): (usize, Lane),
        shift: f64,
        poses: Option<&[[DVec3; 4]]>,
    ) -> f64 {
        let (Some(p), Some(q)) = (self.arcs[g].as_ref(), self.arcs[j].as_ref()) else {
            return 0.0;
        };
        let key = (
            [g as u64, j as u64, shift.to_bits(), 2],
            [
                a.key(a.release),
                a.key(a.catch),
                b.key(b.release),
                b.key(b.catch),
            ],
        );
        KeptMeasures::get_or_measure(self.kept, key, self.samples, || {
            let rule = pair_rule(self.rule, p, q, shift);
            intrusion_with(p, a, q, b, shift, rule, self.samples, poses)
        })
    }

    /// Where props still cut into each other (`PAIR_DEPTH` inside the margin asked): the
    /// group that comes deepest and each group it meets that deep look for lanes together
    /// (every pair of lanes beside), taking the pair that leaves both shallowest, if shallower than the deepest
    /// was, and neither deeper in the arms; up to `PAIR_ROUNDS` times. Each pair of lanes is
    /// measured only between the two groups; what each meets besides is measured once per
    /// lane of its own.
    fn pair_moves(&self, units: &[Vec<usize>], lanes: &mut [Lane]) {
        let set = |unit: &[usize], lane: Lane, trial: &mut [Lane]| {
            for &g in unit {
                trial[g] = lane;
            }
        };
        // Lanes beside, not drifting across (7 × 7 pairs rather than 15 × 15: a third of the
        // cost, most of the gain).
        let candidates: Vec<Lane> = candidates(self.rule.kind)
            .filter(|lane| lane.release == lane.catch && !lane.other)
            .collect();
        for _ in 0..PAIR_ROUNDS {
            let bad: Vec<f64> = units
                .iter()
                .map(|u| self.props_in(u, lanes, lanes[u[0]]))
                .collect();
            // The first of the deepest (to within `CLEAR`, so that a pattern and its export,
            // times and points rounded, pick the same).
            let worst = bad.iter().copied().fold(0.0, f64::max);
            let Some(w) = bad.iter().position(|&b| b > worst - CLEAR) else {
                return;
            };
            // Only props that cut into each other (`PAIR_DEPTH` inside the margin asked of
            // them, not just near).
            if worst < self.rule.margin + PAIR_DEPTH || self.samples.get() > 2 * SECOND_LOOK {
                return;
            }
            let unit_w = &units[w];
            let arms_w = self.arms_depth(unit_w, lanes[unit_w[0]]);
            let mut trial = lanes.to_vec();
            // The best pair of lanes so far: depth, the other group, the two lanes.
            let mut best: Option<(f64, usize, Lane, Lane)> = None;
            // The groups the deepest one meets that deep (the measure of a pair is the same
            // from both sides, so they come as deep themselves).
            for (v, unit_v) in units
                .iter()
                .enumerate()
                .filter(|&(v, _)| v != w && bad[v] > worst - CLEAR)
            {
                if self.samples.get() > 2 * SECOND_LOOK {
                    return;
                }
                let arms_v = self.arms_depth(unit_v, lanes[unit_v[0]]);
                // What each of the two meets besides the other, lane by lane (`None`: deeper
                // in the arms than now).
                let others = |unit: &[usize], of: &[usize], arms: f64| -> Vec<Option<f64>> {
                    candidates
                        .iter()
                        .map(|&lane| {
                            if self.arms_depth(unit, lane) > arms + CLEAR {
                                return None;
                            }
                            let mut trial = lanes.to_vec();
                            set(unit, lane, &mut trial);
                            Some(self.depth_split(unit, &trial, of, false))
                        })
                        .collect()
                };
                let rest_w = others(unit_w, unit_v, arms_w);
                let rest_v = others(unit_v, unit_w, arms_v);
                for (a, &lw) in candidates.iter().enumerate() {
                    for (b, &lv) in candidates.iter().enumerate() {
                        // Better than the best so far by more than `CLEAR` (the first of
                        // pairs alike wins).
                        let bar = best.map_or(worst, |b| b.0) - CLEAR;
                        let (Some(rw), Some(rv)) = (rest_w[a], rest_v[b]) else {
                            continue;
                        };
                        if rw.max(rv) >= bar {
                            continue;
                        }
                        set(unit_w, lw, &mut trial);
                        set(unit_v, lv, &mut trial);
                        let between = self.depth_split(unit_w, &trial, unit_v, true);
                        set(unit_w, lanes[unit_w[0]], &mut trial);
                        set(unit_v, lanes[unit_v[0]], &mut trial);
                        let depth = rw.max(rv).max(between);
                        if depth < bar {
                            best = Some((depth, v, lw, lv));
                        }
                    }
                }
            }
            let Some((_, v, lw, lv)) = best else {
                return;
            };
            set(unit_w, lw, lanes);
            set(&units[v], lv, lanes);
        }
    }

    /// How deep the flights of `group` (in their lanes in `lanes`) come inside the clearance
    /// asked of the props: with `between`, measured only against the flights and holds of
    /// `other`; without, against everything else (metres; 0 when clear).
    fn depth_split(&self, group: &[usize], lanes: &[Lane], other: &[usize], between: bool) -> f64 {
        let (arcs, period, samples) = (self.arcs, self.period, self.samples);
        let wanted = |j: usize| other.contains(&j) == between;
        let mut depth = 0.0f64;
        for &g in group {
            let Some(p) = arcs[g].as_ref() else {
                continue;
            };
            for &j in self.laned.iter().filter(|&&j| wanted(j)) {
                let Some(q) = arcs[j].as_ref() else {
                    continue;
                };
                let lo = ((p.release - q.catch) / period).ceil() as i64;
                let hi = ((p.catch - q.release) / period).floor() as i64;
                for m in lo.max(-64)..=hi.min(64) {
                    if m == 0 && group.contains(&j) && j <= g {
                        continue;
                    }
                    if samples.get() > MAX_SAMPLES {
                        return depth;
                    }
                    let shift = m as f64 * period;
                    depth = depth.max(self.pair_depth((g, lanes[g]), (j, lanes[j]), shift, None));
                }
            }
        }
        if let Some(h) = self.held {
            for check in h.checks(arcs, group, self.laned, period) {
                if h.involves(&check, other) == between {
                    depth = depth.max(h.intrusion(arcs, check, &|j| lanes[j], samples));
                }
            }
        }
        depth
    }

    /// How deep the flights of `group` in `lane` come into the arms they pass (metres; 0 when
    /// clear).
    fn arms_depth(&self, group: &[usize], lane: Lane) -> f64 {
        self.arms.map_or(0.0, |arms| {
            group
                .iter()
                .filter_map(|&g| {
                    Some(arms.intrusion(g, self.arcs[g].as_ref()?, lane, self.samples))
                })
                .fold(0.0, f64::max)
        })
    }

    /// Lanes that keep `group` out of the arms (it comes `deep` metres into them in its lane
    /// now) by moving flights laned before it (`units`) aside: the first lane of the group's
    /// that saves more than `ARMS_WORTH` where every earlier unit then finds a lane clear of
    /// the props and no deeper in the arms than before, and all stay clear; `None` if none.
    fn make_room(
        &self,
        group: &[usize],
        units: &[Vec<usize>],
        lanes: &[Lane],
        saves: &dyn Fn(Lane) -> bool,
    ) -> Option<Vec<Lane>> {
        let stays =
            |unit: &[usize], trial: &[Lane]| self.props_in(unit, trial, trial[unit[0]]) < CLEAR;
        // How deep each earlier unit is in the arms in its lane now (no move may deepen it).
        let before: Vec<f64> = units
            .iter()
            .map(|unit| self.arms_depth(unit, lanes[unit[0]]))
            .collect();
        'lanes: for lane in candidates(self.rule.kind).filter(|lane| !lane.other) {
            if self.samples.get() > 2 * SECOND_LOOK {
                return None;
            }
            if !saves(lane) {
                continue;
            }
            let mut trial = lanes.to_vec();
            for &g in group {
                trial[g] = lane;
            }
            for (unit, &before) in units.iter().zip(&before) {
                let current = trial[unit[0]];
                let (props, moved) = self.best_lane(unit, &trial, Some(current));
                if props >= CLEAR || self.arms_depth(unit, moved) > before + CLEAR {
                    continue 'lanes;
                }
                for &g in unit {
                    trial[g] = moved;
                }
            }
            if stays(group, &trial) && units.iter().all(|unit| stays(unit, &trial)) {
                return Some(trial);
            }
        }
        None
    }

    /// The first lane of `CANDIDATES` (after `current`, if given) that keeps the flights of
    /// `group` clear of those laned so far (in `lanes`), of each other's and their own copies
    /// and of held props, else the least bad one (`current` unless another is better), with
    /// how deep it comes inside the clearance (metres, 0 when clear).
    fn best_lane(&self, group: &[usize], lanes: &[Lane], current: Option<Lane>) -> (f64, Lane) {
        self.search(group, lanes, current, true, (false, false))
    }

    /// `best_lane` with the lanes the other way tried too (`Arc::other`).
    /// (`far`: lanes four steps out too.)
    fn best_lane_either_way(
        &self,
        group: &[usize],
        lanes: &[Lane],
        current: Lane,
        far: bool,
    ) -> (f64, Lane) {
        self.search(group, lanes, Some(current), true, (true, far))
    }

    /// How deep the flights of `group` in `lane` come inside the clearance asked of the
    /// props (metres; 0 when clear), the others in `lanes`.
    fn props_in(&self, group: &[usize], lanes: &[Lane], lane: Lane) -> f64 {
        self.search(group, lanes, Some(lane), false, (false, false))
            .0
    }

    /// `best_lane`, or with `others` false the badness of `current` alone; with `either_way`
    /// the lanes the other way too, and with `far` (clubs) those four steps out.
    fn search(
        &self,
        group: &[usize],
        lanes: &[Lane],
        current: Option<Lane>,
        others: bool,
        (either_way, far): (bool, bool),
    ) -> (f64, Lane) {
        let (arcs, period, held, samples) = (self.arcs, self.period, self.held, self.samples);
        let laned = self.laned;
        // Flights laned so far (and this group's own copies) that share some time with a
        // flight of the group.
        let mut near: Vec<(usize, usize, f64)> = Vec::new();
        for &g in group {
            let Some(p) = arcs[g].as_ref() else {
                continue;
            };
            for &j in laned {
                let Some(q) = arcs[j].as_ref() else {
                    continue;
                };
                let lo = ((p.release - q.catch) / period).ceil() as i64;
                let hi = ((p.catch - q.release) / period).floor() as i64;
                for m in lo.max(-64)..=hi.min(64) {
                    // The group's own flights thrown with it (the same lane) only where
                    // they part differently (clubs of a multiplex spinning apart).
                    if !(m == 0 && group.contains(&j) && j <= g) {
                        near.push((g, j, m as f64 * period));
                    }
                }
            }
        }
        let checks = held.map_or_else(Vec::new, |h| h.checks(arcs, group, laned, period));
        // Each pair's poses, sampled once for all the lanes tried (within `MAX_KEPT_POSES`).
        let kept: Vec<std::cell::OnceCell<Vec<[DVec3; 4]>>> =
            if others && near.len() * 401 <= MAX_KEPT_POSES {
                near.iter().map(|_| std::cell::OnceCell::new()).collect()
            } else {
                Vec::new()
            };
        let measure = |n: usize, lane: Lane, other: Lane| {
            if samples.get() > MAX_SAMPLES {
                return 0.0;
            }
            let (g, j, shift) = near[n];
            let p = arcs[g].as_ref().expect("laned flights have arcs");
            let q = arcs[j].as_ref().expect("laned flights have arcs");
            let poses = kept
                .get(n)
                .map(|cell| cell.get_or_init(|| pair_poses(p, q, shift)).as_slice());
            self.pair_depth((g, lane), (j, other), shift, poses)
        };
        // Two flights of the group at the same time in one lane direction part alike in
        // every lane: measured once.
        let alike = |&(g, j, shift): &(usize, usize, f64)| {
            shift == 0.0
                && group.contains(&j)
                && arcs[g].as_ref().map(|a| a.lane) == arcs[j].as_ref().map(|a| a.lane)
        };
        let floor = (0..near.len())
            .filter(|&n| alike(&near[n]))
            .map(|n| measure(n, Lane::default(), Lane::default()))
            .fold(0.0, f64::max);
        let badness = |lane: Lane| {
            let lane_of = |j: usize| if group.contains(&j) { lane } else { lanes[j] };
            let flights = (0..near.len())
                .filter(|&n| !alike(&near[n]))
                .map(|n| measure(n, lane, lane_of(near[n].1)))
                .fold(floor, f64::max);
            let beside = held.map_or(0.0, |h| {
                checks
                    .iter()
                    .map(|check| {
                        if samples.get() > MAX_SAMPLES {
                            return 0.0;
                        }
                        h.intrusion(arcs, *check, &lane_of, samples)
                    })
                    .fold(0.0, f64::max)
            });
            flights.max(beside)
        };
        // How deep the group's flights in `lane` come into the arms they pass (metres).
        let arms_depth = |lane: Lane| self.arms_depth(group, lane);
        // Props first, arms second: the first lane clear of both; where there is none, the
        // first clear of props, unless another as clear of props keeps more than `ARMS_WORTH`
        // further out of the arms; where no lane is clear of props, the least bad.
        let mut best = (f64::INFINITY, Lane::default());
        let mut first_clear: Option<(f64, Lane)> = None;
        let mut kindest: Option<(f64, Lane)> = None;
        // Lanes the other way only when asked, for groups with a flight that has them.
        let other_way = either_way
            && group
                .iter()
                .any(|&g| arcs[g].as_ref().is_some_and(|a| a.other != DVec3::ZERO));
        let last = if either_way {
            &LAST_CANDIDATES[..]
        } else {
            &[]
        };
        let far = if far
            && self.rule.kind == PropKind::Club
            && group
                .iter()
                .all(|&g| arcs[g].as_ref().is_some_and(|a| a.far))
        {
            &FAR_CANDIDATES[..]
        } else {
            &[]
        };
        let tries = current
            .into_iter()
            .chain(candidates(self.rule.kind).filter(|lane| other_way || !lane.other))
            .chain(last.iter().map(|&(r, c)| Lane::beside(r, c)))
            .map(|lane| (lane, false))
            .chain(far.iter().map(|&(r, c)| (Lane::beside(r, c), true)));
        for (k, (lane, far)) in tries.enumerate() {
            let b = badness(lane);
            if !others {
                return (b, lane);
            }
            // A lane four steps out only where it clears the props.
            if far && b >= CLEAR {
                continue;
            }
            if b < CLEAR {
                let a = arms_depth(lane);
                if a < CLEAR {
                    return (0.0, lane);
                }
                first_clear.get_or_insert((a, lane));
                if kindest.is_none_or(|(least, _)| a < least) {
                    kindest = Some((a, lane));
                }
            } else if first_clear.is_none() && (b < best.0 - CLEAR || (k == 0 && current.is_some()))
            {
                best = (b, lane);
            }
        }
        match (first_clear, kindest) {
            (Some((a, lane)), Some((least, kind))) => {
                (0.0, if least < a - ARMS_WORTH { kind } else { lane })
            }
            _ => best,
        }
    }
}

/// How far (metres) the ends of `unit`'s flights in `lane` are off their hands' fists (what the
/// hands, `carried`, do not carry: the larger end, plus a tenth of both so that of two lanes
/// as far out at one end the one nearer at the other counts less), and how far the hands must
/// carry them (the larger end).
fn off_fists(
    arcs: &[Option<Arc>],
    carried: &[FlightEnds],
    unit: &[usize],
    lane: Lane,
) -> (f64, f64) {
    unit.iter()
        .filter_map(|&g| {
            let arc = arcs[g].as_ref()?;
            let d = lane.direction(arc);
            let ends = carried.get(g).copied().unwrap_or_default();
            let part = |c: Option<Carried>, e: DVec3| c.map_or(DVec3::ZERO, |c| c.part(e));
            let (r, c) = (d * lane.release, d * lane.catch);
            let (pr, pc) = (part(ends.release, r), part(ends.catch, c));
            let (lr, lc) = ((r - pr).length(), (c - pc).length());
            Some((lr.max(lc) + 0.1 * (lr + lc), pr.length().max(pc.length())))
        })
        .fold((0.0, 0.0), |(o, c), (a, b)| (o.max(a), c.max(b)))
}

/// What the hands at a flight's ends carry of its lanes (`carry.rs`; `None`: the hand keeps
/// to its path), and whether either hand holds several props at once.
#[derive(Clone, Copy, Debug, Default)]
struct FlightEnds {
    release: Option<Carried>,
    catch: Option<Carried>,
    several: bool,
}

/// How much nearer its fists (metres) a lane must bring a flight for `bring_to_hands`.
const NEARER: f64 = 0.01;

impl Solver<'_> {
    /// The last look: each unit whose flights are caught or thrown beside a fist that does not
    /// carry their lanes (a hand that keeps to its path, crossing over or catching bounces; the
    /// back part of a lane, as a pass's lane beside its thrower is partly behind a catcher
    /// facing another way) takes the lane nearest its fists among those that keep it clear of
    /// the props (taken only where its own lane is clear: a lane clear of everything cannot
    /// hide a new cut behind a deeper one), no deeper in the arms, and needing the hands to
    /// carry no further. Units with a hand holding several props (a hand carries their mean,
    /// `carry.rs`) keep their lanes. Passing triangles' clubs were caught 8–9 cm beside the fist.
    fn bring_to_hands(&self, units: &[Vec<usize>], lanes: &mut [Lane], carried: &[FlightEnds]) {
        let arcs = self.arcs;
        let tried: Vec<Lane> = candidates(self.rule.kind)
            .chain(LAST_CANDIDATES.iter().map(|&(r, c)| Lane::beside(r, c)))
            .collect();
        for unit in units {
            if self.samples.get() > 2 * SECOND_LOOK {
                break;
            }
            if unit
                .iter()
                .any(|&g| carried.get(g).is_none_or(|e| e.several))
            {
                continue;
            }
            let current = lanes[unit[0]];
            let (now, carrying) = off_fists(arcs, carried, unit, current);
            if now < NEARER || self.props_in(unit, lanes, current) >= CLEAR {
                continue;
            }
            let depth = self.arms_depth(unit, current);
            let other_way = arcs[unit[0]]
                .as_ref()
                .is_some_and(|a| a.other != DVec3::ZERO);
            let mut nearer: Vec<(f64, Lane)> = tried
                .iter()
                .filter(|lane| other_way || !lane.other)
                .filter_map(|&lane| {
                    let (off, carry) = off_fists(arcs, carried, unit, lane);
                    (off < now - NEARER && carry <= carrying + 1e-9).then_some((off, lane))
                })
                .collect();
            nearer.sort_by(|a, b| a.0.total_cmp(&b.0));
            if let Some((_, lane)) = nearer.into_iter().find(|&(_, lane)| {
                self.props_in(unit, lanes, lane) < CLEAR
                    && self.arms_depth(unit, lane) <= depth.max(0.0) + CLEAR
            }) {
                for &g in unit {
                    lanes[g] = lane;
                }
            }
        }
    }
}

/// Most pair moves looked for after the lanes are chosen.
const PAIR_ROUNDS: usize = 8;
/// Least overlap of two props (metres) that has two groups look for lanes together.
const PAIR_DEPTH: f64 = 0.005;
/// Depth into the arms (metres) a lane must save to be taken instead of the one the props
/// alone choose, where no lane clears both.
const ARMS_WORTH: f64 = 0.01;
/// Most groups laned before one that finds no lane clear of the props for them to make
/// room (each try of the search re-lanes every one of them).
const MAX_ROOM_UNITS: usize = 24;

/// The hands' paths, built on demand from the choreography: the world position of a hand
/// slot at a time (seconds).
pub(crate) type Bodies<'a> = &'a dyn Fn(&Choreography) -> Box<dyn Reach + 'a>;

/// The jugglers as the lane solver sees them: as they move before the lanes (a lane moves a
/// prop, not its hand).
pub(crate) trait Reach {
    /// World position of hand slot `slot` at `t` (seconds).
    fn hand(&self, slot: usize, t: f64) -> DVec3;
    /// Juggler `juggler`'s left and right forearms at `t` as capsules from elbow to hand
    /// (ends and radius, world, metres); `None` when no part of the arms can come within
    /// `within` metres of `near`.
    fn forearms(
        &self,
        juggler: usize,
        t: f64,
        near: DVec3,
        within: f64,
    ) -> Option<[arms::Capsule; 2]>;
    /// Juggler `juggler`'s forearms at `t` (as `forearms`) with the left and right hands moved
    /// by `moved` (world, metres): the arms posed for the hands there.
    fn forearms_moved(&self, juggler: usize, t: f64, moved: [DVec3; 2]) -> [arms::Capsule; 2];
}

/// Least time a flight or hold must share with a hold to be measured against it, seconds
/// (more than two repeats' rounding, so a prop's own flights, which meet its hold only at
/// the catch or the throw, are not).
const OVERLAP: f64 = 2.0 * SAME_TIME;
/// Most hand periods a hold may span and still be kept clear of (longer ones are left).
const MAX_HOLD_PERIODS: f64 = 64.0;

/// A hold (catch to throw), as the lane solver sees it: the prop sits at the hand, in its multiplex lane, sliding from the flight lane it
/// arrived in to the one it leaves in; it turns from its attitude at the catch to the one at
/// the throw.
#[derive(Clone, Debug)]
struct Hold {
    hand: usize,
    /// Classes of the flights it arrives by and leaves by, and their lane directions (their
    /// own and the other way, `Lane::along`).
    classes: (usize, usize),
    lanes: ((DVec3, DVec3), (DVec3, DVec3)),
    /// Seconds of the catch and the throw (the hold repeats every hand period).
    start: f64,
    end: f64,
    /// Its multiplex lane: pieces of (start, end, world offset at both) in time order.
    pieces: Vec<(f64, f64, DVec3, DVec3)>,
    /// Offsets from the grip to the prop's centre, and the prop's axis, at catch and throw.
    grip: (DVec3, DVec3),
    axis: (DVec3, DVec3),
    /// Whether its hand holds several props at once (then held props are kept apart from
    /// each other too; a prop held alone is kept clear of flights only).
    beside: bool,
    /// A sphere (centre, radius; world) its hand stays in (`hand_bounds`).
    bound: Option<(DVec3, f64)>,
    /// Whether it is a ball or club held alone, which comes into the middle of its hand
    /// half-way (`held_lane`).
    to_hand: bool,
    /// Which part of its lanes its hand carries (`carry.rs`; world directions, the juggler
    /// placed as at the hold's start).
    carry: Option<Carried>,
}

/// Farthest any part of a prop reaches from its hand or its centre (a club's grip 15 cm
/// from its centre, its tip 28.5 cm beyond with its radius; a ring's rim), metres, with the
/// lanes that may move it.
const PROP_REACH: f64 = 0.15 + CLUB_TIP + CLUB_RADIUS + MAX_FLIGHT_LANE;

/// A sphere (centre, radius; world) hand slot `hand` stays in over a hand period `period`
/// (sampled at 200 points, with 2 cm to spare), or one that holds everything when the hand
/// travels (a juggler walking).
fn hand_bounds(reach: &dyn Reach, hand: usize, period: f64) -> (DVec3, f64) {
    const POINTS: usize = 200;
    let points: Vec<DVec3> = (0..POINTS)
        .map(|k| reach.hand(hand, period * k as f64 / POINTS as f64))
        .collect();
    let centre = points.iter().copied().sum::<DVec3>() / POINTS as f64;
    let radius = points
        .iter()
        .map(|p| p.distance(centre))
        .fold(0.0, f64::max);
    // Samples 1/200 of a period apart: the hand moves less than 2 cm between them unless
    // it is very fast.
    let step = points
        .windows(2)
        .map(|w| w[0].distance(w[1]))
        .fold(0.0, f64::max);
    let moved = points[0].distance(reach.hand(hand, period));
    if !(radius.is_finite() && moved < 0.01) {
        return (centre, f64::INFINITY);
    }
    (centre, radius + step + 0.02)
}

impl Hold {
    /// Whether flight `q`, `shift` seconds later than its own times, comes near enough the
    /// hold for a prop of either to touch the other (sampled every `SAMPLE_STEP`, the
    /// distance covered in a step to spare).
    fn may_meet(&self, q: &Arc, shift: f64) -> bool {
        let Some((centre, radius)) = self.bound else {
            return true;
        };
        let (start, end) = (
            (q.release + shift).max(self.start),
            (q.catch + shift).min(self.end),
        );
        if end <= start {
            return false;
        }
        let steps = (((end - start) / SAMPLE_STEP).ceil() as usize).clamp(1, 1000);
        (0..=steps).any(|k| {
            let t = start + (end - start) * k as f64 / steps as f64 - shift;
            let speed = q.path.velocity(t - q.release).length();
            q.at(t).distance(centre) < radius + 2.0 * PROP_REACH + speed * SAMPLE_STEP
        })
    }

    /// The prop's centre and axis at `t` (within the hold), the hand at `hand`, its flight
    /// lanes `slide` (world offsets of the flights it arrives by and leaves by).
    fn pose(&self, t: f64, hand: DVec3, slide: (DVec3, DVec3)) -> (DVec3, DVec3) {
        let f = ((t - self.start) / (self.end - self.start)).clamp(0.0, 1.0);
        // The prop turns in the hand as the scene turns it (eased: `body::props`).
        let turn = f * f * (3.0 - 2.0 * f);
        let lane = self
            .pieces
            .iter()
            .find(|p| t <= p.1)
            .or(self.pieces.last())
            .map_or(DVec3::ZERO, |&(s, e, a, b)| {
                a.lerp(
                    b,
                    if e > s {
                        ((t - s) / (e - s)).clamp(0.0, 1.0)
                    } else {
                        0.0
                    },
                )
            });
        let slide = held_lane(slide.0, slide.1, f, self.to_hand, self.carry);
        let centre = hand + lane + slide + self.grip.0.lerp(self.grip.1, turn);
        let axis = self
            .axis
            .0
            .lerp(self.axis.1, turn)
            .normalize_or(self.axis.0);
        (centre, axis)
    }
}

impl Choreography {
    /// Hand slots holding a prop the lane solver cannot follow (one held throughout, or
    /// arriving or leaving by a flight without an arc, one whose times or points are not
    /// finite): moving a flight of such a hand could slide the prop it holds into that one
    /// unseen.
    fn holds_unseen(&self, arcs: &[Option<Arc>]) -> Vec<bool> {
        let mut out = vec![false; self.hands.len().max(1)];
        let has_arc =
            |i: Option<usize>| i.is_some_and(|i| arcs.get(i).is_some_and(Option::is_some));
        for path in &self.paths {
            for (segment, &(a, b)) in path.segments.iter().zip(&path.hold_tosses()) {
                if let PathSegment::Held { hand, .. } = *segment {
                    if !(has_arc(a) && has_arc(b)) {
                        if let Some(slot) = out.get_mut(hand) {
                            *slot = true;
                        }
                    }
                }
            }
        }
        out
    }

    /// The holds of the hand slots marked in `measured` between two flights with arcs
    /// (`stances`: the jugglers as the motion moves them).
    fn holds_of(
        &self,
        arcs: &[Option<Arc>],
        class: &[usize],
        measured: &[bool],
        several: &[bool],
        kind: PropKind,
        stances: &[super::Stance],
    ) -> Vec<Hold> {
        let period = self.hand_period;
        // Which way the juggler of hand slot `hand` faces at `t` (its hold offsets are
        // juggler-local).
        let facing_at = |hand: usize, t: f64| {
            self.jugglers
                .get(HandRef::from_slot(hand).juggler)
                .map_or(ORIGIN, |p| p.at(t))
                .facing
        };
        let mut out = Vec::new();
        for path in &self.paths {
            let m = path.segments.len();
            let spans = path.hold_spans();
            let tosses = path.hold_tosses();
            let held_by = |k: usize| match path.segments[k % m] {
                PathSegment::Held { hand, .. } => Some(hand),
                PathSegment::Air { .. } => None,
            };
            for (k, span) in spans.iter().enumerate() {
                let Some(hand) = held_by(k) else {
                    continue;
                };
                // Each hold once, from its first piece.
                if !measured.get(hand).copied().unwrap_or(false) || held_by(k + m - 1) == Some(hand)
                {
                    continue;
                }
                let (Some(a), Some(b)) = tosses[k] else {
                    continue;
                };
                let (Some(ta), Some(tb)) = (self.tosses.get(a), self.tosses.get(b)) else {
                    continue;
                };
                let (Some(Some(pa)), Some(Some(pb))) = (arcs.get(a), arcs.get(b)) else {
                    continue;
                };
                let start = ta.catch;
                let laps = ((start - tb.release) / period).ceil().max(0.0);
                let end = tb.release + laps * period;
                if !(end > start && end - start < MAX_HOLD_PERIODS * period) {
                    continue;
                }
                let delta = start - span.0;
                let facing = facing_at(hand, start);
                let mut pieces = Vec::new();
                let mut wrap = 0.0;
                for d in 0..m {
                    let i = (k + d) % m;
                    if d > 0 && i == 0 {
                        wrap += path.cycle;
                    }
                    match path.segments[i] {
                        PathSegment::Held {
                            hand: h,
                            start: s,
                            end: e,
                            offset0,
                            offset1,
                        } if h == hand => pieces.push((
                            s + wrap + delta,
                            e + wrap + delta,
                            rotate(facing, offset0),
                            rotate(facing, offset1),
                        )),
                        _ => break,
                    }
                }
                // A hold longer than the hand period is cut into pieces: it ends with its last.
                let end = pieces.last().map_or(end, |p| p.1);
                if !(end > start && end - start < MAX_HOLD_PERIODS * period) {
                    continue;
                }
                let first_axis = |a: &Arc| a.axes.first().copied().unwrap_or(DVec3::Y);
                let last_axis = |a: &Arc| a.axes.last().copied().unwrap_or(DVec3::Y);
                out.push(Hold {
                    hand,
                    classes: (
                        class.get(a).copied().unwrap_or(a),
                        class.get(b).copied().unwrap_or(b),
                    ),
                    lanes: ((pa.lane, pa.other), (pb.lane, pb.other)),
                    start,
                    end,
                    pieces,
                    grip: (pa.grip.1, pb.grip.0),
                    axis: (last_axis(pa), first_axis(pb)),
                    beside: several.get(hand).copied().unwrap_or(false),
                    bound: None,
                    to_hand: comes_to_hand(kind, several, hand),
                    carry: self.hands_carry.get(hand).copied().flatten().map(|way| {
                        let j = HandRef::from_slot(hand).juggler;
                        let facing = stances.get(j).map_or(ORIGIN, |s| s.at(start)).facing;
                        Carried::of(facing, way)
                    }),
                });
            }
        }
        // A prop held throughout (the 2 of `[32]`, held while its hand juggles the 3s) is
        // no flight's to move, but the flights and the props caught beside it must keep
        // clear of it: it sits in its multiplex lane, in the attitude its hand gives the
        // props it catches.
        let flown = out.len();
        for path in &self.paths {
            let Some(&PathSegment::Held { hand, .. }) = path.segments.first() else {
                continue;
            };
            let throughout = path
                .segments
                .iter()
                .all(|s| matches!(*s, PathSegment::Held { hand: h, .. } if h == hand));
            if !throughout || !measured.get(hand).copied().unwrap_or(false) {
                continue;
            }
            let Some(like) = out[..flown].iter().find(|h| h.hand == hand) else {
                continue;
            };
            // It rests halfway between its hand's catch and throw attitudes (as the scene
            // holds a prop that is never thrown).
            let rest = (
                like.grip.0.lerp(like.grip.1, 0.5),
                like.axis.0.lerp(like.axis.1, 0.5).normalize_or(like.axis.0),
            );
            let start = path.segments[0].start();
            let end = start + path.cycle;
            if !(end > start && path.cycle < MAX_HOLD_PERIODS * period) {
                continue;
            }
            let facing = facing_at(hand, start);
            let pieces = path
                .segments
                .iter()
                .filter_map(|s| match *s {
                    PathSegment::Held {
                        start,
                        end,
                        offset0,
                        offset1,
                        ..
                    } => Some((start, end, rotate(facing, offset0), rotate(facing, offset1))),
                    PathSegment::Air { .. } => None,
                })
                .collect();
            out.push(Hold {
                hand,
                classes: (NO_FLIGHT, NO_FLIGHT),
                lanes: ((DVec3::ZERO, DVec3::ZERO), (DVec3::ZERO, DVec3::ZERO)),
                start,
                end,
                pieces,
                grip: (rest.0, rest.0),
                axis: (rest.1, rest.1),
                beside: like.beside,
                bound: None,
                to_hand: false,
                carry: None,
            });
        }
        out
    }
}

/// The flight class of the ends of a hold that has none (a prop held throughout).
const NO_FLIGHT: usize = usize::MAX;

/// What the lane solver keeps clear of held props.
#[derive(Clone, Copy)]
struct Held<'a> {
    holds: &'a [Hold],
    reach: &'a dyn Reach,
    hand_period: f64,
    rule: Clearance,
    /// Measures already taken (`intrusion`), kept for the lanes tried again.
    kept: &'a std::cell::RefCell<KeptMeasures>,
}

/// A held measure's check and the lane offsets it reads, as bits.
type MeasureKey = ([u64; 4], [u64; 4]);

/// Measures taken (of held props, or of pairs of flights), with the samples each took.
#[derive(Default)]
struct KeptMeasures {
    measures: std::collections::HashMap<MeasureKey, (f64, u64)>,
}

impl KeptMeasures {
    /// The measure of `key` as kept, its samples counted again in `samples` (so a search's
    /// budget runs as if it were measured anew), else taken by `measure` and kept (while
    /// fewer than `MAX_KEPT_MEASURES` are).
    fn get_or_measure(
        kept: &std::cell::RefCell<KeptMeasures>,
        key: MeasureKey,
        samples: &std::cell::Cell<u64>,
        measure: impl FnOnce() -> f64,
    ) -> f64 {
        if let Some(&(depth, taken)) = kept.borrow().measures.get(&key) {
            samples.set(samples.get() + taken);
            return depth;
        }
        let before = samples.get();
        let depth = measure();
        let mut kept = kept.borrow_mut();
        if kept.measures.len() < MAX_KEPT_MEASURES {
            kept.measures.insert(key, (depth, samples.get() - before));
        }
        depth
    }
}

/// One measure of the lane solver involving a held prop.
#[derive(Clone, Copy, Debug)]
enum HeldCheck {
    /// A flight (class), `shift` seconds later than its own times, against a hold.
    Flight {
        flight: usize,
        hold: usize,
        shift: f64,
    },
    /// Two holds of one juggler's hands, the second `shift` seconds later.
    Holds { a: usize, b: usize, shift: f64 },
}

impl<'a> Held<'a> {
    /// The same held props measured with clubs as drawn, their measures kept in `kept`.
    fn drawn<'b>(self, kept: &'b std::cell::RefCell<KeptMeasures>) -> Held<'b>
    where
        'a: 'b,
    {
        Held {
            rule: self.rule.drawn(),
            kept,
            ..self
        }
    }
}

impl Held<'_> {
    /// Whether a measure concerns a flight of `classes` (its flight, or one that brings or
    /// takes a prop it measures).
    fn involves(&self, check: &HeldCheck, classes: &[usize]) -> bool {
        let hold = |k: usize| {
            self.holds
                .get(k)
                .is_some_and(|h| classes.contains(&h.classes.0) || classes.contains(&h.classes.1))
        };
        match *check {
            HeldCheck::Flight {
                flight, hold: k, ..
            } => classes.contains(&flight) || hold(k),
            HeldCheck::Holds { a, b, .. } => hold(a) || hold(b),
        }
    }

    /// The measures to take when the flights of `group` are laned (`laned` lists the classes
    /// laned so far, `group` included): holds arriving or leaving by one of them against
    /// every laned flight and every hold of their juggler's hands; the group's flights against the
    /// other holds (those not laned yet in the lane they have so far, none).
    fn checks(
        &self,
        arcs: &[Option<Arc>],
        group: &[usize],
        laned: &[usize],
        period: f64,
    ) -> Vec<HeldCheck> {
        let touched = |h: &Hold| group.contains(&h.classes.0) || group.contains(&h.classes.1);
        let mut out = Vec::new();
        // Shifts by whole `step`s that make `a..b` overlap `c..d` (by more than two repeats'
        // rounding: a prop's own flight and hold meet only at its catch or throw).
        let shifts = |(a, b): (f64, f64), (c, d): (f64, f64), step: f64| {
            let lo = ((c - b) / step).floor().max(-128.0) as i64;
            let hi = ((d - a) / step).ceil().min(128.0) as i64;
            (lo..=hi)
                .map(move |m| m as f64 * step)
                .filter(move |s| (b + s).min(d) - (a + s).max(c) > OVERLAP)
        };
        let flight_against = |j: usize, k: usize, h: &Hold, out: &mut Vec<HeldCheck>| {
            if let Some(q) = arcs.get(j).and_then(Option::as_ref) {
                for shift in shifts((q.release, q.catch), (h.start, h.end), period) {
                    if !h.may_meet(q, shift) {
                        continue;
                    }
                    out.push(HeldCheck::Flight {
                        flight: j,
                        hold: k,
                        shift,
                    });
                }
            }
        };
        for (k, h) in self.holds.iter().enumerate() {
            if touched(h) {
                for &j in laned {
                    flight_against(j, k, h, &mut out);
                }
                for (k2, h2) in self.holds.iter().enumerate() {
                    let juggler = |slot: usize| HandRef::from_slot(slot).juggler;
                    if juggler(h2.hand) != juggler(h.hand)
                        || (touched(h2) && k2 < k)
                        || !(h.beside && h2.beside)
                    {
                        continue;
                    }
                    for shift in shifts((h2.start, h2.end), (h.start, h.end), self.hand_period) {
                        if k2 != k || shift.abs() > 1e-9 {
                            out.push(HeldCheck::Holds { a: k, b: k2, shift });
                        }
                    }
                }
            } else {
                for &g in group {
                    flight_against(g, k, h, &mut out);
                }
            }
        }
        out
    }

    /// How deep one measure comes inside the clearance asked of held props (metres; 0 when
    /// clear), with flights' lanes `lane_of` their class; two holds count only where they
    /// come closer than in no flight lanes at all.
    fn intrusion(
        &self,
        arcs: &[Option<Arc>],
        check: HeldCheck,
        lane_of: &dyn Fn(usize) -> Lane,
        samples: &std::cell::Cell<u64>,
    ) -> f64 {
        // The measure depends on the check and the lanes it reads: measured once for each,
        // counting its samples again when asked again (so the search's budget runs as if
        // measured anew).
        let measure = || self.measure(arcs, check, lane_of, samples);
        match self.measure_key(check, lane_of) {
            Some(key) => KeptMeasures::get_or_measure(self.kept, key, samples, measure),
            None => measure(),
        }
    }

    /// What a held measure depends on: the check and the lane offsets it reads (bits).
    fn measure_key(&self, check: HeldCheck, lane_of: &dyn Fn(usize) -> Lane) -> Option<MeasureKey> {
        let slides = |h: &Hold| {
            if h.classes.0 == NO_FLIGHT {
                return [0, 0];
            }
            let (a, b) = (lane_of(h.classes.0), lane_of(h.classes.1));
            [a.key(a.catch), b.key(b.release)]
        };
        Some(match check {
            HeldCheck::Flight {
                flight,
                hold,
                shift,
            } => {
                let lane = lane_of(flight);
                let h = self.holds.get(hold)?;
                let [s0, s1] = slides(h);
                (
                    [0, flight as u64, hold as u64, shift.to_bits()],
                    [lane.key(lane.release), lane.key(lane.catch), s0, s1],
                )
            }
            HeldCheck::Holds { a, b, shift } => {
                let [a0, a1] = slides(self.holds.get(a)?);
                let [b0, b1] = slides(self.holds.get(b)?);
                ([1, a as u64, b as u64, shift.to_bits()], [a0, a1, b0, b1])
            }
        })
    }

    /// `intrusion`, measured.
    fn measure(
        &self,
        arcs: &[Option<Arc>],
        check: HeldCheck,
        lane_of: &dyn Fn(usize) -> Lane,
        samples: &std::cell::Cell<u64>,
    ) -> f64 {
        let slide = |h: &Hold, lanes: bool| {
            if lanes && h.classes.0 != NO_FLIGHT {
                (
                    Lane::along(h.lanes.0, lane_of(h.classes.0)) * lane_of(h.classes.0).catch,
                    Lane::along(h.lanes.1, lane_of(h.classes.1)) * lane_of(h.classes.1).release,
                )
            } else {
                (DVec3::ZERO, DVec3::ZERO)
            }
        };
        match check {
            HeldCheck::Flight {
                flight,
                hold,
                shift,
            } => {
                let (Some(Some(p)), Some(h)) = (arcs.get(flight), self.holds.get(hold)) else {
                    return 0.0;
                };
                let lane = lane_of(flight);
                let (start, end) = (
                    (p.release + shift).max(h.start),
                    (p.catch + shift).min(h.end),
                );
                if end - start <= OVERLAP {
                    return 0.0;
                }
                let slide = slide(h, true);
                deepest(
                    start,
                    end,
                    |t| {
                        let (c0, u) = p.pose(t - shift);
                        let (c1, v) = h.pose(t, self.reach.hand(h.hand, t), slide);
                        self.rule.depth(c0 + lane.at(p, t - shift), u, c1, v)
                    },
                    samples,
                )
            }
            HeldCheck::Holds { a, b, shift } => {
                let (Some(h), Some(k)) = (self.holds.get(a), self.holds.get(b)) else {
                    return 0.0;
                };
                let (start, end) = (h.start.max(k.start + shift), h.end.min(k.end + shift));
                if end - start <= OVERLAP {
                    return 0.0;
                }
                // In one hand only their offsets from it matter.
                let hands = |t: f64| {
                    if h.hand == k.hand {
                        (DVec3::ZERO, DVec3::ZERO)
                    } else {
                        (self.reach.hand(h.hand, t), self.reach.hand(k.hand, t))
                    }
                };
                let measure = |lanes: bool| {
                    let (sh, sk) = (slide(h, lanes), slide(k, lanes));
                    deepest(
                        start,
                        end,
                        |t| {
                            let (at_h, at_k) = hands(t);
                            let (c0, u) = h.pose(t, at_h, sh);
                            let (c1, v) = k.pose(t - shift, at_k, sk);
                            self.rule.depth(c0, u, c1, v)
                        },
                        samples,
                    )
                };
                let moved = measure(true);
                if moved < CLEAR || moved <= measure(false) + CLEAR {
                    0.0
                } else {
                    moved
                }
            }
        }
    }
}
