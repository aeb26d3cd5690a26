//! Flights kept clear of the jugglers' forearms near the hands. A prop falling past an arm
//! that neither throws nor catches it near that arm's hand (a ball falling past the other
//! hand crossed over it in Juggling Lab's Rubenstein's Revenge, a ring sliding down in front
//! of the Statue of Liberty's raised forearm) passes through it whatever the elbow does: the
//! elbow planner (`scene/elbow_room.rs`) turns the elbow on a circle through the hand, which
//! moves the forearm least there. Each flight is measured against the forearms of its thrower
//! and its catcher, from 30% of the way out to the hand (`FROM_ELBOW`), as they are before
//! the lanes (a lane moves a prop, not a hand), away from its own hand's throw and catch
//! (`OWN_ARM`); a lane that clears them is preferred where one exists (`Solver::best_lane`).
//! Flights of a hand holding a prop the solver cannot follow keep the lane the props choose.

use std::cell::{Cell, OnceCell};

use glam::DVec3;

use super::{
    segment_distance, segments_distance, Arc, Lane, Reach, BALL_DIAMETER, CLUB_KNOB, CLUB_RADIUS,
    CLUB_TIP, MAX_FLIGHT_LANE, RING_HALF_WIDTH, RING_MID_RADIUS, SAMPLE_STEP,
};
use crate::types::{HandRef, PropKind};

/// Time after its throw and before its catch during which a prop may touch its own hand's
/// arm, seconds (the window `tests/pipeline/contacts.rs` grants).
const OWN_ARM: f64 = 0.12;
/// Clearance asked between a flying prop and an arm, metres.
const ARM_MARGIN: f64 = 0.01;
/// Most flights measured against arms (larger patterns keep the lanes the props choose: the
/// samples kept per flight would grow with them).
const MAX_FLIGHTS: usize = 400;
/// Most samples of one flight measured against arms (a flight of many seconds is sampled
/// more sparsely).
const MAX_STEPS: usize = 200;
/// Where along the forearm (from the elbow, as a fraction of its length) the part measured
/// begins.
const FROM_ELBOW: f64 = 0.3;

/// One arm segment: its ends and radius (world, metres).
pub(crate) type Capsule = (DVec3, DVec3, f64);

/// The arm segments a flight may meet at one time.
struct Near {
    t: f64,
    capsules: Vec<Capsule>,
}

/// The arms each flight (by index) passes near, sampled once and kept for every lane tried.
pub(super) struct Arms<'a> {
    reach: &'a dyn Reach,
    kind: PropKind,
    near: Vec<OnceCell<Vec<Near>>>,
    /// Hand slots whose flights keep the lane the props choose (`Choreography::holds_unseen`).
    unseen: Vec<bool>,
}

impl<'a> Arms<'a> {
    pub(super) fn new(
        reach: &'a dyn Reach,
        kind: PropKind,
        flights: usize,
        unseen: Vec<bool>,
    ) -> Self {
        Arms {
            reach,
            kind,
            near: (0..flights.min(MAX_FLIGHTS + 1))
                .map(|_| OnceCell::new())
                .collect(),
            unseen,
        }
    }

    /// Farthest a prop's surface reaches from its centre, metres.
    fn prop_reach(&self) -> f64 {
        match self.kind {
            PropKind::Ball => 0.5 * BALL_DIAMETER,
            PropKind::Club => CLUB_TIP + CLUB_RADIUS,
            PropKind::Ring => RING_MID_RADIUS + RING_HALF_WIDTH,
        }
    }

    /// The arm segments flight `p` (index `i`) may reach in any lane, sample by sample.
    fn near(&self, i: usize, p: &Arc, samples: &Cell<u64>) -> &[Near] {
        self.near[i].get_or_init(|| {
            let (from, to) = (HandRef::from_slot(p.hands.0), HandRef::from_slot(p.hands.1));
            let mut jugglers = vec![from.juggler];
            if to.juggler != from.juggler {
                jugglers.push(to.juggler);
            }
            let reach = self.prop_reach() + MAX_FLIGHT_LANE + ARM_MARGIN;
            let steps = (((p.catch - p.release) / SAMPLE_STEP).ceil() as usize).clamp(1, MAX_STEPS);
            let mut out = Vec::new();
            for k in 0..=steps {
                let t = p.release + (p.catch - p.release) * k as f64 / steps as f64;
                let centre = p.pose(t).0;
                let mut capsules = Vec::new();
                for &j in &jugglers {
                    samples.set(samples.get() + 1);
                    let Some(forearms) = self.reach.forearms(j, t, centre, reach) else {
                        continue;
                    };
                    for (side, (elbow, hand, r)) in forearms.into_iter().enumerate() {
                        let slot = 2 * j + side;
                        if (slot == p.hands.0 && t - p.release < OWN_ARM)
                            || (slot == p.hands.1 && p.catch - t < OWN_ARM)
                        {
                            continue;
                        }
                        // The forearm's part by the hand: the elbow planner turns the elbow
                        // aside from props passing the rest of the arm.
                        let half = (elbow.lerp(hand, FROM_ELBOW), hand, r);
                        if segment_distance(centre, half.0, half.1) < r + reach {
                            capsules.push(half);
                        }
                    }
                }
                if !capsules.is_empty() {
                    out.push(Near { t, capsules });
                }
            }
            out
        })
    }

    /// How deep flight `p` (index `i`) in `lane` comes inside the clearance asked of the
    /// arms it passes (metres; 0 when clear).
    /// A flight of a hand holding a prop the solver cannot follow counts as clear.
    pub(super) fn intrusion(&self, i: usize, p: &Arc, lane: Lane, samples: &Cell<u64>) -> f64 {
        let unseen = |slot: usize| self.unseen.get(slot).copied().unwrap_or(true);
        if self.near.len() > MAX_FLIGHTS || unseen(p.hands.0) || unseen(p.hands.1) {
            return 0.0;
        }
        let mut deepest = 0.0f64;
        for near in self.near(i, p, samples) {
            samples.set(samples.get() + near.capsules.len() as u64);
            let (c, u) = p.pose(near.t);
            let c = c + lane.at(p, near.t);
            for &(a, b, r) in &near.capsules {
                deepest = deepest.max(self.depth(c, u, a, b, r));
            }
        }
        deepest
    }

    /// How deep the flights `arcs`, moved by `offsets` (world, at the release and the catch),
    /// come into the forearm of hand `slot` near its hand (as `intrusion` measures it, away
    /// from that hand's own throws and catches): as it is, and with its hand moved by `shift`
    /// (world, at a time; the elbow stays). Metres, 0 when clear; `None` for a pattern too
    /// large to measure.
    pub(super) fn carried_depths(
        &self,
        arcs: &[Option<Arc>],
        offsets: &[(DVec3, DVec3)],
        slot: usize,
        shift: &dyn Fn(f64) -> DVec3,
    ) -> Option<(f64, f64)> {
        if arcs.len() > MAX_FLIGHTS {
            return None;
        }
        let juggler = slot / 2;
        let mut deepest = (0.0f64, 0.0f64);
        for (p, &(at_release, at_catch)) in arcs.iter().zip(offsets) {
            let Some(p) = p else {
                continue;
            };
            if HandRef::from_slot(p.hands.0).juggler != juggler
                && HandRef::from_slot(p.hands.1).juggler != juggler
            {
                continue;
            }
            let steps = (((p.catch - p.release) / SAMPLE_STEP).ceil() as usize).clamp(1, MAX_STEPS);
            for k in 0..=steps {
                let f = k as f64 / steps as f64;
                let t = p.release + (p.catch - p.release) * f;
                if (slot == p.hands.0 && t - p.release < OWN_ARM)
                    || (slot == p.hands.1 && p.catch - t < OWN_ARM)
                {
                    continue;
                }
                let (c, u) = p.pose(t);
                let c = c + at_release.lerp(at_catch, f);
                let moved = shift(t);
                let within = self.prop_reach() + moved.length() + ARM_MARGIN;
                let Some(forearms) = self.reach.forearms(juggler, t, c, within) else {
                    continue;
                };
                let (elbow, hand, r) = forearms[slot % 2];
                let depth = |hand: DVec3| {
                    self.depth(c, u, elbow.lerp(hand, FROM_ELBOW), hand, r)
                        .max(0.0)
                };
                deepest.0 = deepest.0.max(depth(hand));
                deepest.1 = deepest.1.max(depth(hand + moved));
            }
        }
        Some(deepest)
    }

    /// How much the forearm of hand `slot` comes within `clear` of its juggler's other forearm
    /// over one hand period (`period`, sampled every `SAMPLE_STEP`): the shortfall between
    /// the capsules' surfaces integrated over time (metre-seconds), with both hands on their
    /// paths, and with its hand moved by `shift` (world, at a time) and the other hand by
    /// `other`, the arms posed for the hands there. (Integrated, not the closest: forearms
    /// that pass through each other before they are lifted apart are as close as capsules come
    /// all the while they cross.)
    pub(super) fn carried_forearm_shortfall(
        &self,
        slot: usize,
        (period, clear): (f64, f64),
        shift: &dyn Fn(f64) -> DVec3,
        other: &dyn Fn(f64) -> DVec3,
    ) -> (f64, f64) {
        let juggler = slot / 2;
        let steps = ((period / SAMPLE_STEP).ceil() as usize).clamp(1, 20 * MAX_STEPS);
        let dt = period / steps as f64;
        let mut short = (0.0, 0.0);
        for k in 0..steps {
            let t = period * k as f64 / steps as f64;
            let shortfall = |own: DVec3, their: DVec3| {
                let mut moved = [own, their];
                if slot % 2 == 1 {
                    moved.swap(0, 1);
                }
                let forearms = self.reach.forearms_moved(juggler, t, moved);
                let ((e0, h0, r0), (e1, h1, r1)) = (forearms[slot % 2], forearms[1 - slot % 2]);
                let gap = segments_distance(e0, h0, e1, h1) - r0 - r1;
                (clear - gap).max(0.0) * dt
            };
            short.0 += shortfall(DVec3::ZERO, DVec3::ZERO);
            short.1 += shortfall(shift(t), other(t));
        }
        short
    }

    /// How deep a prop at `c` along `u` comes inside the clearance asked of segment `a`–`b`
    /// of radius `r` (metres; negative when clear).
    fn depth(&self, c: DVec3, u: DVec3, a: DVec3, b: DVec3, r: f64) -> f64 {
        let d = segment_distance(c, a, b);
        let reach = self.prop_reach() + r + ARM_MARGIN;
        if d > reach {
            return reach - d;
        }
        match self.kind {
            PropKind::Ball => reach - d,
            PropKind::Club => {
                let (k, t) = (c - u * CLUB_KNOB, c + u * CLUB_TIP);
                CLUB_RADIUS + r + ARM_MARGIN - segments_distance(k, t, a, b)
            }
            PropKind::Ring => {
                let closest = super::rim_points(c, u)
                    .map(|p| segment_distance(p, a, b))
                    .fold(f64::INFINITY, f64::min);
                RING_HALF_WIDTH + r + ARM_MARGIN - closest
            }
        }
    }
}
