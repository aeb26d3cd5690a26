//! Rings held in a juggler's two hands at once keep their rims apart. Both face the audience,
//! so two rings held side by side lie in one plane, and hands less than a ring's width apart
//! (`8642`'s 8 thrown from beside the other hand's held ring, two stacks held in a
//! synchronous multiplex, a passer holding two rings through a 2) cut each other's rims. A
//! juggler holds one of them a little in front of or behind the other: the held ring slides
//! a few centimetres in depth in its hand while the other ring is near, and back before its own
//! throw or catch, so flights still start and end exactly where they did. A ring in flight
//! passing a held ring (a flight's depth lane can be the held ring's plane) keeps its lane; the
//! held ring slides the same way.

use glam::DVec3;

use super::choreography::{Choreography, PathSegment};
use crate::types::{Hand, HandRef};

/// Sampling step over the hand period, seconds.
const STEP: f64 = 0.005;
/// Longest hand period × jugglers sampled, in steps (longer patterns are left as they are).
const MAX_SAMPLES: usize = 200_000;
/// Most (holds × steps) looked at for one choreography.
const MAX_WORK: usize = 20_000_000;
/// Ring centres closer than this in the juggler's frontal plane cut each other's rims when
/// their planes are closer than `DEPTH_APART`: twice the rim's outer radius (11.25 cm to the
/// middle of the rim + 1.25 cm half width) and 5 mm to spare, metres.
const RIM_REACH: f64 = 0.255;
/// Least distance between the planes of two rings side by side: two half widths and 7 mm.
const DEPTH_APART: f64 = 0.032;
/// Least distance between the planes of two rings held in one hand (a stack is 3.1 cm deep):
/// two half widths and 2 mm.
const STACK_APART: f64 = 0.027;
/// Time a held ring takes to slide to its place and back, seconds (at most; shorter where its
/// hold begins or ends sooner, never under `MIN_RAMP`: Juggling Lab's Follow carries a ring
/// through a 2 with flights passing it until 20 ms before its throw).
const RAMP: f64 = 0.06;
const MIN_RAMP: f64 = 0.015;
/// How long before and after the rims would cut a ring is held apart, where its hold allows.
const LINGER: f64 = 0.06;
/// Cuts of one held ring by flights fewer steps apart than this share one slide (a slide
/// for each would ease in or out where the other still cuts).
const FLIGHT_GAP: usize = 24;
/// Depth steps tried, metres, and the most a ring slides.
const SHIFT_STEP: f64 = 0.005;
const MAX_SHIFT: f64 = 0.08;
/// Offset from the hand's grip to a held ring's centre (the grip is the bottom of the rim).
const GRIP_TO_CENTRE: f64 = 0.11;

/// One held segment of a prop path: in hand slot `slot` over `[a, b]` on the path's time line,
/// offset (juggler-local) from `o0` to `o1`, plus the slides planned for it.
struct Hold {
    path: usize,
    segment: usize,
    slot: usize,
    a: f64,
    b: f64,
    o0: DVec3,
    o1: DVec3,
    slides: Vec<Slide>,
}

/// A planned slide of a held ring: `depth` metres toward the audience from `w0` to `w1` (path
/// time), reached over `ramp` seconds before and left over `ramp` after.
#[derive(Clone, Copy)]
struct Slide {
    w0: f64,
    w1: f64,
    depth: f64,
    ramp: f64,
}

impl Hold {
    /// The path times at which this hold is under way at time `t` (holds repeat every hand
    /// period: the props of a path follow each other one period apart).
    fn taus(&self, t: f64, period: f64) -> impl Iterator<Item = f64> + '_ {
        let first = self.a + (t - self.a).rem_euclid(period);
        (0..)
            .map(move |m| first + m as f64 * period)
            .take_while(move |&tau| tau <= self.b)
    }

    /// The planned depth slide at path time `tau`.
    fn slide(&self, tau: f64) -> f64 {
        self.slides
            .iter()
            .map(
                |&Slide {
                     w0,
                     w1,
                     depth,
                     ramp: r,
                 }| {
                    let up = if tau < w0 { (tau - (w0 - r)) / r } else { 1.0 };
                    let down = if tau > w1 { ((w1 + r) - tau) / r } else { 1.0 };
                    let s = up.min(down).clamp(0.0, 1.0);
                    depth * s * s * (3.0 - 2.0 * s)
                },
            )
            .sum()
    }

    /// Offset of the ring from the hand at path time `tau`, slides included.
    fn offset(&self, tau: f64) -> DVec3 {
        let span = self.b - self.a;
        let f = if span > 1e-12 {
            ((tau - self.a) / span).clamp(0.0, 1.0)
        } else {
            0.0
        };
        self.o0.lerp(self.o1, f) + DVec3::Z * self.slide(tau)
    }
}

/// A hold and the window of its path's time line a slide covers.
type Window = (usize, f64, f64);

/// A ring held at one time: which hold, at which path time, its centre (juggler-local).
#[derive(Clone, Copy)]
struct Held {
    hold: usize,
    tau: f64,
    centre: DVec3,
}

/// The runs of consecutive steps (gaps of up to `gap` steps bridged) in `ks` (sorted), a run
/// through the end of the period of `steps` going on at its start.
fn runs_of(ks: Vec<usize>, steps: usize, gap: usize) -> Vec<Vec<usize>> {
    let mut runs: Vec<Vec<usize>> = Vec::new();
    for k in ks {
        match runs.last_mut() {
            Some(run) if run.last().is_some_and(|&l| k <= l + gap) => run.push(k),
            _ => runs.push(vec![k]),
        }
    }
    if runs.len() > 1
        && runs[0][0] <= 1
        && runs
            .last()
            .and_then(|r| r.last())
            .is_some_and(|&l| l + 2 >= steps)
    {
        let first = runs.remove(0);
        if let Some(last) = runs.last_mut() {
            last.extend(first);
        }
    }
    runs
}

impl Choreography {
    /// Slides rings held in one juggler's two hands at once apart in depth where their rims
    /// would cut, and held rings away from rings in flight (module docs), measured on the
    /// motion built from this choreography: `hand(h, t)` is hand `h`'s position at `t` in its
    /// juggler's frame, `flying(j, t)` the centres of the rings in flight near juggler `j` at
    /// `t` in its frame. True when something moved (the motion must then be built again).
    pub(crate) fn part_held_rings(
        &mut self,
        jugglers: usize,
        hand: impl Fn(HandRef, f64) -> DVec3,
        flying: impl Fn(usize, f64) -> Vec<DVec3>,
    ) -> bool {
        let period = self.hand_period;
        if !(period.is_finite() && period > 0.0) {
            return false;
        }
        let steps = (period / STEP).ceil();
        if steps * jugglers as f64 > MAX_SAMPLES as f64 {
            return false;
        }
        let steps = steps as usize;
        let mut holds: Vec<Hold> = Vec::new();
        for (path, p) in self.paths.iter().enumerate() {
            for (segment, s) in p.segments.iter().enumerate() {
                if let PathSegment::Held {
                    start,
                    end,
                    hand,
                    offset0,
                    offset1,
                } = *s
                {
                    if end - start > 2.0 * (MIN_RAMP + STEP) {
                        holds.push(Hold {
                            path,
                            segment,
                            slot: hand,
                            a: start,
                            b: end,
                            o0: offset0,
                            o1: offset1,
                            slides: Vec::new(),
                        });
                    }
                }
            }
        }
        // Every step looks at every hold of a hand: bounded work.
        if holds.len().saturating_mul(steps) > MAX_WORK {
            return false;
        }
        let mut moved = false;
        for j in 0..jugglers {
            let slots = Hand::BOTH.map(|h| HandRef::new(j, h).slot());
            let mine: [Vec<usize>; 2] =
                slots.map(|s| (0..holds.len()).filter(|&i| holds[i].slot == s).collect());
            if mine[0].is_empty() && mine[1].is_empty() {
                continue;
            }
            // Hands and their held rings at every step.
            let hands: Vec<[DVec3; 2]> = (0..steps)
                .map(|k| {
                    let t = k as f64 * STEP;
                    Hand::BOTH.map(|h| hand(HandRef::new(j, h), t))
                })
                .collect();
            let held_at = |holds: &[Hold], k: usize, side: usize| -> Vec<Held> {
                let t = k as f64 * STEP;
                let mut out = Vec::new();
                for &i in &mine[side] {
                    for tau in holds[i].taus(t, period) {
                        out.push(Held {
                            hold: i,
                            tau,
                            centre: hands[k][side]
                                + holds[i].offset(tau)
                                + DVec3::Y * GRIP_TO_CENTRE,
                        });
                    }
                }
                out
            };
            let cut = |p: DVec3, q: DVec3| {
                let d = p - q;
                d.x.hypot(d.y) < RIM_REACH && d.z.abs() < DEPTH_APART
            };
            // Pairs of holds (left, right) whose rings cut, and the steps where they do.
            let mut pairs: Vec<((usize, usize), Vec<usize>)> = Vec::new();
            let both = !mine[0].is_empty() && !mine[1].is_empty();
            for (k, &[l, r]) in hands.iter().enumerate() {
                if !both || (l - r).truncate().length() > RIM_REACH + 0.25 {
                    continue;
                }
                let (left, right) = (held_at(&holds, k, 0), held_at(&holds, k, 1));
                for a in &left {
                    for b in &right {
                        if cut(a.centre, b.centre) {
                            let key = (a.hold, b.hold);
                            match pairs.iter_mut().find(|(p, _)| *p == key) {
                                Some((_, ks)) => ks.push(k),
                                None => pairs.push((key, vec![k])),
                            }
                        }
                    }
                }
            }
            // Each run of consecutive cutting steps is parted on its own.
            let runs = pairs
                .into_iter()
                .flat_map(|(key, ks)| runs_of(ks, steps, 2).into_iter().map(move |ks| (key, ks)));
            // The rings a slide of hold `own` (of hand `side`) over the steps `ks` moves:
            // every ring that hand holds over the cut moves together (a stack keeps its
            // spacing), each window in its own path's time; `None` where it cannot.
            let group = |holds: &[Hold],
                         side: usize,
                         own: usize,
                         ks: &[usize]|
             -> Option<(Vec<Window>, f64)> {
                let mut out: Vec<Window> = Vec::new();
                for &k in ks {
                    let held = held_at(holds, k, side);
                    let Some(ring) = held.iter().find(|h| h.hold == own) else {
                        continue;
                    };
                    // The ring and those stacked with it.
                    let stacked = |h: &Held| {
                        let d = h.centre - ring.centre;
                        d.x.hypot(d.y) < RIM_REACH && d.z.abs() < 2.0 * DEPTH_APART
                    };
                    for h in held.iter().filter(|h| stacked(h)) {
                        match out.iter_mut().find(|(i, ..)| *i == h.hold) {
                            Some((_, w0, w1)) => {
                                *w0 = w0.min(h.tau);
                                *w1 = w1.max(h.tau);
                            }
                            None => out.push((h.hold, h.tau, h.tau)),
                        }
                    }
                }
                let mut ramp = RAMP;
                for (i, w0, w1) in &mut out {
                    // A window wrapping round the hold (two props in it) is left alone.
                    if *w1 - *w0 >= period - STEP {
                        return None;
                    }
                    // Held apart a little longer where the hold allows (a ring just thrown or
                    // about to be caught still passes the other).
                    let h = &holds[*i];
                    *w0 = (*w0 - LINGER).max(h.a + RAMP).min(*w0);
                    *w1 = (*w1 + LINGER).min(h.b - RAMP).max(*w1);
                    ramp = ramp.min(*w0 - h.a).min(h.b - *w1);
                }
                (ramp >= MIN_RAMP && !out.is_empty()).then_some((out, ramp))
            };
            // The steps a slide over the cutting steps `ks` can be under way in: the run and a
            // slide's linger and ramp on either side.
            let around_of = |ks: &[usize]| -> Vec<usize> {
                let pad = ((LINGER + RAMP) / STEP).ceil() as usize + 1;
                let span = (ks[ks.len() - 1] + steps - ks[0]) % steps + 1 + 2 * pad;
                (0..span.min(steps))
                    .map(|i| (ks[0] + steps - pad % steps + i) % steps)
                    .collect()
            };
            // Slides the rings `members` of hand `side` toward or away from the audience by the
            // least of `SHIFT_STEP`s up to `MAX_SHIFT` that keeps them, at every step of
            // `around` a slide is under way, clear of the other hand's rings, of the rest of
            // their own hand's and of the rings in `flights`; false (nothing moved) if none does.
            let slide = |holds: &mut Vec<Hold>,
                         side: usize,
                         members: &[Window],
                         ramp: f64,
                         around: &[usize],
                         flights: Option<&[Vec<DVec3>]>|
             -> bool {
                let n = (MAX_SHIFT / SHIFT_STEP).round() as i32;
                for m in (1..=n).flat_map(|m| [-m, m]) {
                    let depth = f64::from(m) * SHIFT_STEP;
                    for &(i, w0, w1) in members {
                        holds[i].slides.push(Slide {
                            w0,
                            w1,
                            depth,
                            ramp,
                        });
                    }
                    let moving = |h: &Held| {
                        members.iter().any(|&(i, w0, w1)| {
                            i == h.hold && h.tau > w0 - ramp && h.tau < w1 + ramp
                        })
                    };
                    let clear = around.iter().all(|&k| {
                        let mine = held_at(holds, k, side);
                        let other = held_at(holds, k, 1 - side);
                        let flying = flights
                            .and_then(|f| f.get(k))
                            .map_or(&[][..], Vec::as_slice);
                        mine.iter().filter(|a| moving(a)).all(|a| {
                            !flying.iter().any(|&f| cut(a.centre, f))
                                && !other.iter().any(|b| cut(a.centre, b.centre))
                                && !mine.iter().any(|b| {
                                    let d = a.centre - b.centre;
                                    !moving(b)
                                        && d.x.hypot(d.y) < RIM_REACH
                                        && d.z.abs() < STACK_APART
                                })
                        })
                    });
                    if clear {
                        return true;
                    }
                    for &(i, ..) in members {
                        holds[i].slides.pop();
                    }
                }
                false
            };
            for ((hl, hr), ks) in runs {
                // Which side slides: the side with more room before and after the cut goes
                // first.
                let mut order: Vec<(usize, Vec<Window>, f64)> = [0, 1]
                    .into_iter()
                    .filter_map(|side| {
                        let own = if side == 0 { hl } else { hr };
                        group(&holds, side, own, &ks).map(|(g, r)| (side, g, r))
                    })
                    .collect();
                order.sort_by(|x, y| y.2.total_cmp(&x.2));
                let cuts_at = |holds: &[Hold], k: usize| {
                    let (a, b) = (held_at(holds, k, 0), held_at(holds, k, 1));
                    a.iter()
                        .filter(|x| x.hold == hl)
                        .any(|x| b.iter().any(|y| y.hold == hr && cut(x.centre, y.centre)))
                };
                let around = around_of(&ks);
                for (side, members, ramp) in order {
                    if !ks.iter().any(|&k| cuts_at(&holds, k)) {
                        break;
                    }
                    if slide(&mut holds, side, &members, ramp, &around, None) {
                        moved = true;
                        break;
                    }
                }
            }
            // Rings in flight past a held ring (a crossed hand's ring beside the other hand's
            // throw in the Mills Mess): a flight keeps its lane, the held ring slides.
            let flights: Vec<Vec<DVec3>> = (0..steps).map(|k| flying(j, k as f64 * STEP)).collect();
            for side in 0..2 {
                let mut cut_holds: Vec<(usize, Vec<usize>)> = Vec::new();
                for (k, near) in flights.iter().enumerate() {
                    if near.is_empty() {
                        continue;
                    }
                    for h in held_at(&holds, k, side) {
                        if near.iter().any(|&f| cut(h.centre, f)) {
                            match cut_holds.iter_mut().find(|(i, _)| *i == h.hold) {
                                Some((_, ks)) => {
                                    if ks.last() != Some(&k) {
                                        ks.push(k);
                                    }
                                }
                                None => cut_holds.push((h.hold, vec![k])),
                            }
                        }
                    }
                }
                for (own, run) in cut_holds.into_iter().flat_map(|(own, ks)| {
                    runs_of(ks, steps, FLIGHT_GAP)
                        .into_iter()
                        .map(move |r| (own, r))
                }) {
                    if let Some((members, ramp)) = group(&holds, side, own, &run) {
                        let around = around_of(&run);
                        moved |= slide(&mut holds, side, &members, ramp, &around, Some(&flights));
                    }
                }
            }
        }
        if moved {
            self.apply_slides(&holds);
        }
        moved
    }

    /// Replaces every held segment with slides by linear pieces following them (the ring's
    /// offset is linear within a segment): eight pieces per ramp.
    fn apply_slides(&mut self, holds: &[Hold]) {
        let mut by_path: Vec<Vec<&Hold>> = vec![Vec::new(); self.paths.len()];
        for h in holds.iter().filter(|h| !h.slides.is_empty()) {
            by_path[h.path].push(h);
        }
        for (path, list) in by_path.into_iter().enumerate() {
            if list.is_empty() {
                continue;
            }
            let old = std::mem::take(&mut self.paths[path].segments);
            let mut segments = Vec::with_capacity(old.len() + 32 * list.len());
            for (k, s) in old.into_iter().enumerate() {
                let Some(h) = list.iter().find(|h| h.segment == k) else {
                    segments.push(s);
                    continue;
                };
                let mut cuts = vec![h.a, h.b];
                for &Slide {
                    w0, w1, ramp: r, ..
                } in &h.slides
                {
                    for q in 0..=8 {
                        let f = f64::from(q) / 8.0;
                        cuts.push(w0 - r + r * f);
                        cuts.push(w1 + r * f);
                    }
                }
                cuts.retain(|&c| c >= h.a && c <= h.b);
                cuts.sort_by(f64::total_cmp);
                cuts.dedup_by(|x, y| (*x - *y).abs() < 1e-9);
                for w in cuts.windows(2) {
                    segments.push(PathSegment::Held {
                        start: w[0],
                        end: w[1],
                        hand: h.slot,
                        offset0: h.offset(w[0]),
                        offset1: h.offset(w[1]),
                    });
                }
            }
            self.paths[path].segments = segments;
        }
    }
}
