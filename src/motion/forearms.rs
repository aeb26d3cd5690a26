//! Crossed forearms pass one over the other. Where a juggler's hands cross (the Mills Mess, the
//! windmill, a crossed-arm cascade, Juggling Lab's files whose events all lie at one depth) the
//! two forearms cross in the top view, and drawn as solid capsules they would pass through each
//! other unless one of them is higher where they cross. A juggler's arm crossing over the other
//! goes over it: through each stretch of time in which the forearms come within reach of each
//! other, one arm stays on top (the one that needs the least lifting to be, which is the one
//! already above as the stretch begins), its hand rising and the other hand sinking just enough
//! that the forearm capsules keep apart, and that neither forearm cuts a prop the other hand
//! holds. (The body does its part: with both arms crossed, the elbow of the arm whose hand is
//! lower hangs under the other forearm, `body::juggler`.)
//!
//! The lift is a smooth vertical offset of each hand over the hand period ([`HandLift`], part of
//! the choreography); the motion engine adds it to the hand's path and to the throw and catch
//! points of the hand's events, so every flight is still an exact parabola from the lifted
//! release to the lifted catch. It is planned with the arms in view ([`ForearmLifts`]): the
//! scene measures the body's forearms in the motion, the planner raises and lowers the hands
//! where they cut, the scene builds the motion again and measures again, a few rounds (the
//! elbows follow the hands, so the gain is measured, not assumed). This file uses nothing in
//! `motion` but the choreography's types.

use glam::Vec3;

use super::choreography::{Choreography, HandEvent, HandLift};

/// Sampling step over the hand period, seconds.
const STEP: f64 = 0.005;
/// Most samples (hand period / step × jugglers whose hands cross) measured in one round;
/// longer patterns are left as they are.
const MAX_SAMPLES: usize = 50_000;
/// A juggler whose hands have no event closer than this to the body's middle line (or
/// across it) is not measured (metres; a cascade's hands throw 5–10 cm from it).
const NEAR_MIDDLE: f64 = 0.12;
/// Rounds of measuring and lifting, and the share of the last round's lack under which a
/// round's lack must fall for lifting to go on.
const ROUNDS: usize = 12;
const STALL: f32 = 0.9;
/// Rounds in a row that may stall before lifting stops.
const PATIENCE: usize = 2;
/// Clearance sought between the two forearm capsules, metres, and between a forearm and a prop
/// the other hand holds (less the prop's slack, `Forearms::held`).
const MARGIN: f32 = 0.01;
const PROP_MARGIN: f32 = 0.004;
/// Deficits under this are left (metres).
const TOLERANCE: f32 = 0.002;
/// Half width (seconds) over which a needed lift is held before and after it is needed, and of
/// the window that smooths it: the lift's acceleration stays under `2π/W²` × its size (a 10 cm
/// lift: 98 m/s² at 0.08 s).
const HOLD: f64 = 0.08;
const SMOOTH: f64 = 0.08;
/// Time (seconds) over which a lift is levelled before a hand's throw or catch and after a
/// throw, and after a catch (its give).
const LEVEL: f64 = 0.07;
const GIVE_LEVEL: f64 = 0.25;
/// Acceleration (m/s²) a levelling may add to a hand (a steep lift is levelled over longer).
const LEVEL_ACCELERATION: f64 = 50.0;
/// Largest lift or sink of a hand, metres (approached smoothly).
const MAX_LIFT: f64 = 0.24;
/// Least share of a hand's lift that reaches the point where the forearms cross (the point's
/// fraction of the way from the elbow to the hand; the elbow follows in part; a held prop
/// takes all of it).
const MIN_REACH: f32 = 0.35;

/// One juggler's forearms at an instant, juggler-local (y up): elbow and hand of the left and
/// the right arm, the forearms' thickness, and what each hand holds, as capsules (`held[side]`:
/// segment ends, radius, and the slack: how far the capsule stands out of the prop, which the
/// other forearm may enter; a ring's chords stand out of its rim by up to 8.6 mm) that move
/// with that hand.
#[derive(Clone, Debug)]
pub struct Forearms {
    pub elbows: [Vec3; 2],
    pub hands: [Vec3; 2],
    pub width: f32,
    pub held: [Vec<(Vec3, Vec3, f32, f32)>; 2],
}

/// What one sample says about the two arms: how much more the left one must be above the
/// right one where they cross (`left.0`, metres; negative = it may be that much below) and the
/// share of a lift of both hands that reaches there (`left.1`: the sum of each hand's share);
/// the same for the right one over the left (`right`).
#[derive(Clone, Copy, Debug)]
struct Crossing {
    left: (f32, f32),
    right: (f32, f32),
}

/// One capsule of an arm: segment ends, radius, and the share of its hand's lift each end
/// takes (a forearm: none at the elbow, all at the hand; a held prop: all).
#[derive(Clone, Copy)]
struct Part {
    a: Vec3,
    b: Vec3,
    radius: f32,
    lift_a: f32,
    lift_b: f32,
}

/// Closest points of two segments `p0–p1` and `q0–q1`: parameters along each (0..1) and their
/// distance.
fn closest(p0: Vec3, p1: Vec3, q0: Vec3, q1: Vec3) -> (f32, f32, f32) {
    let (d1, d2, r) = (p1 - p0, q1 - q0, p0 - q0);
    let (a, e, f) = (d1.dot(d1), d2.dot(d2), d2.dot(r));
    let (s, t) = if a <= 1e-12 && e <= 1e-12 {
        (0.0, 0.0)
    } else if a <= 1e-12 {
        (0.0, (f / e).clamp(0.0, 1.0))
    } else {
        let c = d1.dot(r);
        if e <= 1e-12 {
            ((-c / a).clamp(0.0, 1.0), 0.0)
        } else {
            let b = d1.dot(d2);
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
            (s, t)
        }
    };
    (s, t, (p0 + d1 * s).distance(q0 + d2 * t))
}

/// How two capsules `p` (left arm) and `q` (right arm) cross, if they come within reach of
/// each other in the top view.
fn part_crossing(p: Part, q: Part, margin: f32) -> Option<Crossing> {
    let flat = |v: Vec3| Vec3::new(v.x, 0.0, v.z);
    let reach = p.radius + q.radius + margin;
    let (s, t, dh) = closest(flat(p.a), flat(p.b), flat(q.a), flat(q.b));
    if dh >= reach {
        return None;
    }
    // The vertical gap the capsules need where they cross in the top view, and the one they
    // have.
    let need = (reach * reach - dh * dh).sqrt();
    let y = |c: Part, u: f32| c.a.y + (c.b.y - c.a.y) * u;
    let v = y(p, s) - y(q, t);
    let (mut left, mut right) = (need - v, need + v);
    // Where they are closest in space (not always above that point), the part above there
    // lacks what the distance lacks.
    let (s3, t3, d3) = closest(p.a, p.b, q.a, q.b);
    if d3 < reach {
        if y(p, s3) >= y(q, t3) {
            left = left.max(reach - d3);
        } else {
            right = right.max(reach - d3);
        }
    }
    let share = |c: Part, u: f32| (c.lift_a + (c.lift_b - c.lift_a) * u).max(MIN_REACH);
    let shares = share(p, s) + share(q, t);
    Some(Crossing {
        left: (left, shares),
        right: (right, shares),
    })
}

/// Where the two arms (forearms and held props; a hand's own props are not measured against
/// its own forearm, nor props against props) come within reach of each other in the top view,
/// the vertical gap each order (left on top, right on top) still lacks there; `None` when they
/// are apart in the top view.
fn crossing(f: &Forearms) -> Option<Crossing> {
    let [el, er] = f.elbows;
    let [hl, hr] = f.hands;
    if !(el.is_finite() && er.is_finite() && hl.is_finite() && hr.is_finite()) {
        return None;
    }
    let fore = |e: Vec3, h: Vec3| Part {
        a: e,
        b: h,
        radius: 0.5 * f.width,
        lift_a: 0.0,
        lift_b: 1.0,
    };
    let held = |side: usize| {
        f.held[side]
            .iter()
            .filter(|(a, b, r, slack)| {
                a.is_finite() && b.is_finite() && r.is_finite() && slack.is_finite()
            })
            .map(|&(a, b, radius, slack)| {
                let part = Part {
                    a,
                    b,
                    radius,
                    lift_a: 1.0,
                    lift_b: 1.0,
                };
                (part, PROP_MARGIN - slack)
            })
    };
    let (fl, fr) = (fore(el, hl), fore(er, hr));
    let pairs = std::iter::once((fl, fr, MARGIN))
        .chain(held(1).map(|(q, margin)| (fl, q, margin)))
        .chain(held(0).map(|(p, margin)| (p, fr, margin)));
    let mut out: Option<Crossing> = None;
    for (p, q, margin) in pairs {
        let Some(c) = part_crossing(p, q, margin) else {
            continue;
        };
        out = Some(match out {
            None => c,
            Some(o) => Crossing {
                left: if c.left.0 > o.left.0 { c.left } else { o.left },
                right: if c.right.0 > o.right.0 {
                    c.right
                } else {
                    o.right
                },
            },
        });
    }
    out
}

/// Grows `need` (cyclic samples) to its largest value within `hold` samples either side, then
/// averages it over a Hann window of `smooth` samples either side: a smooth curve at least
/// `need` everywhere.
fn envelope(need: &[f64], hold: usize, smooth: usize) -> Vec<f64> {
    let n = need.len();
    if n == 0 || need.iter().all(|&v| v <= 0.0) {
        return vec![0.0; n];
    }
    let at = |k: isize| need[k.rem_euclid(n as isize) as usize];
    let held: Vec<f64> = (0..n as isize)
        .map(|k| {
            (-(hold as isize)..=hold as isize)
                .map(|d| at(k + d))
                .fold(0.0, f64::max)
        })
        .collect();
    let w = smooth.max(1) as isize;
    let kernel: Vec<f64> = (-w..=w)
        .map(|d| 1.0 + (std::f64::consts::PI * d as f64 / (w + 1) as f64).cos())
        .collect();
    let total: f64 = kernel.iter().sum();
    (0..n as isize)
        .map(|k| {
            (-w..=w)
                .zip(&kernel)
                .map(|(d, c)| c * held[(k + d).rem_euclid(n as isize) as usize])
                .sum::<f64>()
                / total
        })
        .collect()
}

/// The plan of hand lifts for one choreography, improved round by round: the scene measures
/// the forearms of the motion built from the lifted choreography and hands them to
/// [`ForearmLifts::round`] until it has nothing left to lift.
#[derive(Clone, Debug)]
pub struct ForearmLifts {
    period: f64,
    /// Samples over the hand period and the step between them (seconds).
    n: usize,
    step: f64,
    /// Jugglers whose hands come near the middle, measured.
    jugglers: Vec<usize>,
    /// Per measured juggler: the lifts so far (left, right), before their smooth saturation.
    raw: Vec<[Vec<f64>; 2]>,
    /// Per measured juggler: the least sum of lacks measured so far and the lifts it was
    /// measured with (taken back to when lifting stops).
    best: Vec<(f32, [Vec<f64>; 2])>,
    /// Per measured juggler: rounds in a row whose lack did not fall by a tenth.
    stalled: Vec<usize>,
    /// Per measured juggler: the sum of the lacks of the last round (metres × samples);
    /// infinite once nothing is left to do for that juggler.
    lack: Vec<f32>,
    /// Rounds done.
    rounds: usize,
}

impl ForearmLifts {
    /// The plan for `ch` with `jugglers` jugglers: `None` when no juggler's hands come near
    /// the middle (within `NEAR_MIDDLE` of it or across, at some event) or the pattern is too
    /// long to measure.
    pub fn new(ch: &Choreography, jugglers: usize) -> Option<ForearmLifts> {
        let period = ch.hand_period;
        if !(period.is_finite() && period > 0.0) {
            return None;
        }
        // Slots 2j, 2j + 1: left, right; a left hand's own side is +x.
        let crossing: Vec<usize> = (0..jugglers)
            .filter(|&j| {
                [(2 * j, 1.0), (2 * j + 1, -1.0)]
                    .iter()
                    .any(|&(slot, side)| {
                        ch.hands.get(slot).is_some_and(|events| {
                            events.iter().any(|e| e.position.x * side < NEAR_MIDDLE)
                        })
                    })
            })
            .collect();
        let n = (period / STEP).ceil().max(8.0);
        if crossing.is_empty() || n * crossing.len() as f64 > MAX_SAMPLES as f64 {
            return None;
        }
        let n = n as usize;
        Some(ForearmLifts {
            period,
            n,
            step: period / n as f64,
            raw: vec![[vec![0.0; n], vec![0.0; n]]; crossing.len()],
            best: vec![(f32::INFINITY, [vec![0.0; n], vec![0.0; n]]); crossing.len()],
            stalled: vec![0; crossing.len()],
            lack: vec![f32::MAX; crossing.len()],
            jugglers: crossing,
            rounds: 0,
        })
    }

    /// One round: measures `forearms(juggler, t)` (the body's forearms in the motion of `ch` as
    /// it is now lifted) over the hand period, adds the lifts still lacking and writes them to
    /// `ch.lifts`. Returns whether anything was lifted (then the motion must be built again and
    /// measured again); false once nothing lacks or after `ROUNDS` rounds.
    pub fn round(
        &mut self,
        ch: &mut Choreography,
        forearms: impl Fn(usize, f64) -> Forearms,
    ) -> bool {
        // The round after the last measures the last lifts only (and takes them back if an
        // earlier round's were better).
        self.rounds += 1;
        let measure_only = self.rounds > ROUNDS;
        let (n, step) = (self.n, self.step);
        let hold = (HOLD / step).round() as usize;
        let smooth = (SMOOTH / step).round() as usize;
        let mut more = false;
        for ((((&j, lift), best), stalled), last) in self
            .jugglers
            .iter()
            .zip(&mut self.raw)
            .zip(&mut self.best)
            .zip(&mut self.stalled)
            .zip(&mut self.lack)
        {
            if !last.is_finite() {
                continue;
            }
            let samples: Vec<Option<Crossing>> = (0..n)
                .map(|k| crossing(&forearms(j, k as f64 * step)))
                .collect();
            let mut need: [Vec<f64>; 2] = [vec![0.0; n], vec![0.0; n]];
            let mut any = false;
            let mut total = 0.0;
            for (a, b) in stretches(&samples) {
                let range = || (a..b).map(|k| k % n);
                let lack = |left: bool| -> f32 {
                    range()
                        .filter_map(|k| samples[k])
                        .map(|c| if left { c.left.0 } else { c.right.0 }.max(0.0))
                        .sum()
                };
                let left_on_top = lack(true) <= lack(false);
                for k in range() {
                    let Some(c) = samples[k] else { continue };
                    let (lack, shares) = if left_on_top { c.left } else { c.right };
                    if lack <= TOLERANCE {
                        continue;
                    }
                    any = true;
                    total += lack;
                    // Each hand moves by `d`, the top one up, the other down.
                    let d = f64::from(1.1 * lack / shares);
                    let (up, down) = if left_on_top { (0, 1) } else { (1, 0) };
                    need[up][k] = need[up][k].max(d);
                    need[down][k] = need[down][k].min(-d);
                }
            }
            if total < best.0 {
                *best = (total, lift.clone());
            }
            // Done, or lifting no longer helps (a lack the hands cannot make up, or one that
            // grows: two rounds in a row whose lack did not fall by a tenth; a round may make
            // it grow where the lifts bring a held prop within reach and the other arm must
            // then go over it): the lifts measured with the least lack stay.
            *stalled = if total > STALL * *last {
                *stalled + 1
            } else {
                0
            };
            if !any || *stalled >= PATIENCE || measure_only {
                if any && best.0 < total {
                    *lift = best.1.clone();
                    more = true;
                }
                *last = f32::INFINITY;
                continue;
            }
            *last = total;
            more = true;
            for side in 0..2 {
                let mut ups: Vec<f64> = need[side].iter().map(|v| v.max(0.0)).collect();
                let mut downs: Vec<f64> = need[side].iter().map(|v| (-v).max(0.0)).collect();
                // Levelling holds the lift at its value at each throw and catch: what is
                // needed around one must be had at it.
                let events = ch.hands.get(2 * j + side).map_or(&[][..], Vec::as_slice);
                need_at_levelled_events(&mut ups, events, step);
                need_at_levelled_events(&mut downs, events, step);
                let (u, d) = (envelope(&ups, hold, smooth), envelope(&downs, hold, smooth));
                for k in 0..n {
                    lift[side][k] += u[k] - d[k];
                }
            }
        }
        if more {
            let period = self.period;
            ch.lifts = self
                .jugglers
                .iter()
                .zip(&self.raw)
                .flat_map(|(&j, pair)| {
                    pair.iter().enumerate().map(move |(side, values)| HandLift {
                        slot: 2 * j + side,
                        period,
                        // Saturated smoothly (a clamp would kink the path).
                        values: values
                            .iter()
                            .map(|v| MAX_LIFT * (v / MAX_LIFT).tanh())
                            .collect(),
                    })
                })
                .map(|mut lift| {
                    let events = ch.hands.get(lift.slot).map_or(&[][..], Vec::as_slice);
                    level_at_events(&mut lift, events);
                    lift
                })
                .filter(|l| l.values.iter().any(|v| *v != 0.0))
                .collect();
        }
        more
    }
}

/// Levels `lift` around each throw and catch in `events` (`LEVEL` before, `LEVEL` or
/// `GIVE_LEVEL` after):
/// the lift keeps its value there but stops changing, so a hand meets a prop moving as the
/// path says (a catch's give, a throw's push), not faster or slower by the lift's rate.
fn level_at_events(lift: &mut HandLift, events: &[HandEvent]) {
    let n = lift.values.len();
    if n == 0 {
        return;
    }
    let step = lift.period / n as f64;
    for e in levelled(events) {
        let (held, rate) = lift.at(e.time);
        // Levelling a lift changing at `rate` over a window `w` accelerates the hand by about
        // `π·rate/w`: the window widens to keep that under `LEVEL_ACCELERATION`.
        let (before, after) =
            level_window(e, std::f64::consts::PI * rate.abs() / LEVEL_ACCELERATION);
        let (centre, window) = window_samples(e.time, (before, after), step);
        for d in window {
            let k = (centre + d).rem_euclid(n as isize) as usize;
            let dt = (centre + d) as f64 * step - e.time;
            let x = if dt < 0.0 { -dt / before } else { dt / after };
            if x < 1.0 {
                // 1 at the event, falling to 0 at the window's ends with zero slope there.
                let w = 0.5 * (1.0 + (std::f64::consts::PI * x).cos());
                lift.values[k] += (held - lift.values[k]) * w;
            }
        }
    }
}

/// The events of `events` a lift is levelled around: its throws and catches.
fn levelled(events: &[HandEvent]) -> impl Iterator<Item = &HandEvent> {
    events
        .iter()
        .filter(|e| !(e.throws.is_empty() && e.catches.is_empty()))
}

/// The sample nearest `time` (samples `step` apart, not wrapped) and the offsets from it of
/// the samples within `before` and `after` seconds of it.
fn window_samples(
    time: f64,
    (before, after): (f64, f64),
    step: f64,
) -> (isize, std::ops::RangeInclusive<isize>) {
    let centre = (time / step).round() as isize;
    let from = -((before / step).ceil() as isize);
    (centre, from..=(after / step).ceil() as isize)
}

/// The seconds before and after event `e` over which a lift is levelled there, each at least
/// `least`: `LEVEL` either side, and a catch over its give as well (`GIVE_LEVEL` after).
fn level_window(e: &HandEvent, least: f64) -> (f64, f64) {
    let before = LEVEL.max(least);
    let after = if e.catches.is_empty() {
        before
    } else {
        GIVE_LEVEL.max(least)
    };
    (before, after)
}

/// Raises `need` (cyclic samples `step` apart) at each throw and catch of `events` to the
/// most it asks for in the window over which `level_at_events` holds the lift at its value
/// there: a lift needed in that window is only had if the hand has it at the event.
fn need_at_levelled_events(need: &mut [f64], events: &[HandEvent], step: f64) {
    let n = need.len() as isize;
    if n == 0 {
        return;
    }
    for e in levelled(events) {
        let (centre, window) = window_samples(e.time, level_window(e, 0.0), step);
        let most = window
            .map(|d| need[(centre + d).rem_euclid(n) as usize])
            .fold(0.0, f64::max);
        let k = centre.rem_euclid(n) as usize;
        need[k] = need[k].max(most);
    }
}

/// The stretches (`a..b`, sample indices, `b` may pass `n` and wraps) of consecutive samples
/// where the forearms are within reach in the top view.
fn stretches<T>(samples: &[Option<T>]) -> Vec<(usize, usize)> {
    let n = samples.len();
    let Some(start) = (0..n).find(|&k| samples[k].is_none()) else {
        return if n > 0 { vec![(0, n)] } else { Vec::new() };
    };
    let mut out = Vec::new();
    let mut k = start;
    let end = start + n;
    while k < end {
        if samples[k % n].is_some() {
            let a = k;
            while k < end && samples[k % n].is_some() {
                k += 1;
            }
            out.push((a, k));
        } else {
            k += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lift_interpolates_its_samples_smoothly_and_periodically() {
        let lift = HandLift {
            slot: 0,
            period: 1.0,
            values: (0..100)
                .map(|k| 0.1 * (std::f64::consts::TAU * k as f64 / 100.0).sin())
                .collect(),
        };
        for k in 0..1000 {
            let t = k as f64 / 1000.0;
            let (v, r) = lift.at(t);
            let want = 0.1 * (std::f64::consts::TAU * t).sin();
            let rate = 0.1 * std::f64::consts::TAU * (std::f64::consts::TAU * t).cos();
            assert!((v - want).abs() < 1e-5, "{t}: {v} vs {want}");
            assert!((r - rate).abs() < 2e-3, "{t}: {r} vs {rate}");
            assert!((lift.at(t + 3.0).0 - v).abs() < 1e-9);
        }
    }

    #[test]
    fn a_lift_needed_where_it_is_held_level_is_asked_for_at_the_event() {
        // 1 s in 200 samples; a catch at 0.5 s (levelled 0.07 s before, 0.25 s after) and a
        // throw at 0.9 s (0.07 s either side) of one hand.
        let event = |time: f64, catch: bool| HandEvent {
            time,
            position: glam::DVec3::ZERO,
            throws: if catch { vec![] } else { vec![0] },
            catches: if catch { vec![1] } else { vec![] },
        };
        let events = [event(0.5, true), event(0.9, false), {
            let mut held = event(0.2, false);
            held.throws.clear();
            held
        }];
        let mut need = vec![0.0; 200];
        need[140] = 0.05; // 0.2 s after the catch: within its give.
        need[192] = 0.03; // 0.06 s after the throw, and 0.08 s before the start.
        need[36] = 0.04; // 0.02 s before an event without throws or catches.
        need_at_levelled_events(&mut need, &events, 0.005);
        assert_eq!(need[100], 0.05);
        assert_eq!(need[180], 0.03);
        assert_eq!(need[40], 0.0);
        // The samples asked for stay.
        assert_eq!((need[140], need[192], need[36]), (0.05, 0.03, 0.04));
        assert_eq!(need.iter().filter(|&&v| v > 0.0).count(), 5);
    }

    #[test]
    fn envelope_covers_the_need_and_stays_smooth() {
        let mut need = vec![0.0; 200];
        for v in &mut need[50..60] {
            *v = 0.1;
        }
        need[120] = 0.05;
        let e = envelope(&need, 16, 16);
        for (k, (&e, &w)) in e.iter().zip(&need).enumerate() {
            assert!(e >= w - 1e-12, "sample {k}: {e} < {w}");
        }
        // Zero far from any need; second differences bounded by the window.
        assert_eq!(e[0], 0.0);
        assert_eq!(e[180], 0.0);
        let second = (1..199)
            .map(|k| (e[k + 1] - 2.0 * e[k] + e[k - 1]).abs())
            .fold(0.0, f64::max);
        assert!(
            second < 0.1 * 2.0 * std::f64::consts::PI / (17.0 * 17.0),
            "{second}"
        );
    }

    #[test]
    fn forearms_crossing_in_the_top_view_need_the_gap_the_other_lacks() {
        // Left forearm from (0.25, 1.0, 0.1) to (-0.2, 1.0, 0.4); the right one mirrored,
        // both at one height: each order lacks the whole width plus the margin (8.5 cm), and
        // where they cross (halfway) half a hand's lift reaches each.
        let f = Forearms {
            elbows: [Vec3::new(0.25, 1.0, 0.1), Vec3::new(-0.25, 1.0, 0.1)],
            hands: [Vec3::new(-0.2, 1.0, 0.4), Vec3::new(0.2, 1.0, 0.4)],
            width: 0.075,
            held: [Vec::new(), Vec::new()],
        };
        let c = crossing(&f).unwrap();
        assert!((c.left.0 - 0.085).abs() < 1e-4, "{c:?}");
        assert!((c.right.0 - 0.085).abs() < 1e-4);
        assert!((c.left.1 - 2.0 * 0.25 / 0.45).abs() < 1e-3, "{c:?}");
        // The left one 10 cm higher at the crossing (both ends up 10 cm): nothing lacks on top.
        let up = Vec3::Y * 0.1;
        let g = Forearms {
            elbows: [f.elbows[0] + up, f.elbows[1]],
            hands: [f.hands[0] + up, f.hands[1]],
            ..f.clone()
        };
        let c = crossing(&g).unwrap();
        assert!(c.left.0 < 0.0 && (c.right.0 - 0.185).abs() < 1e-4, "{c:?}");
        // Uncrossed arms are apart in the top view...
        let h = Forearms {
            hands: [Vec3::new(0.1, 1.0, 0.4), Vec3::new(-0.1, 1.0, 0.4)],
            ..f.clone()
        };
        assert!(crossing(&h).is_none());
        // ... unless the right hand holds a ball (10 cm) 3 cm over the left forearm: the ball's
        // radius, the forearm's and the margin lack 3 cm less with the right arm on top, 3 cm
        // more with the left on top; a held prop takes all of its hand's lift.
        let ball = Vec3::new(0.175, 1.03, 0.25);
        let k = Forearms {
            held: [Vec::new(), vec![(ball, ball, 0.05, 0.0)]],
            ..h
        };
        let c = crossing(&k).unwrap();
        let reach = 0.05 + 0.0375 + PROP_MARGIN;
        assert!((c.right.0 - (reach - 0.03)).abs() < 1e-3, "{c:?}");
        assert!((c.left.0 - (reach + 0.03)).abs() < 1e-3, "{c:?}");
        assert!(c.left.1 > 1.0, "{c:?}");
    }

    #[test]
    fn lifts_that_make_the_forearms_cut_deeper_are_taken_back() {
        // The cascade with its left hand throwing from the middle, so its juggler is measured.
        // The forearms handed to the planner cross at one height over the first half of the
        // hand period in the first round and over all of it after that, whatever the lifts:
        // the first round lifts, the second finds the cut deeper (twice the lack) and lifts
        // more, the third finds it as deep (a second stall) and takes back to the lifts of the
        // first round's measure: none.
        use crate::layout::Layout;
        use crate::motion::{from_schedule, testutil::async_schedule, Timing};
        use crate::settings::Settings;
        let schedule = async_schedule("3");
        let timing = Timing::new(&schedule, &Settings::default()).expect("valid settings");
        let mut ch = from_schedule(&schedule, timing, &Layout::circle(1), &[]);
        let period = ch.hand_period;
        ch.hands[0][0].position.x = 0.0;
        let mut plan = ForearmLifts::new(&ch, 1).expect("a hand at the middle");
        let crossed = Forearms {
            elbows: [Vec3::new(0.25, 1.0, 0.1), Vec3::new(-0.25, 1.0, 0.1)],
            hands: [Vec3::new(-0.2, 1.0, 0.4), Vec3::new(0.2, 1.0, 0.4)],
            width: 0.075,
            held: [Vec::new(), Vec::new()],
        };
        let apart = Forearms {
            hands: [Vec3::new(0.1, 1.0, 0.4), Vec3::new(-0.1, 1.0, 0.4)],
            ..crossed.clone()
        };
        let round = std::cell::Cell::new(0);
        let arms = |_: usize, t: f64| {
            if round.get() > 1 || t < 0.5 * period {
                crossed.clone()
            } else {
                apart.clone()
            }
        };
        round.set(1);
        assert!(plan.round(&mut ch, arms));
        assert_eq!(ch.lifts.len(), 2);
        assert!(ch
            .lifts
            .iter()
            .all(|l| l.values.iter().any(|v| v.abs() > 0.05)));
        round.set(2);
        assert!(plan.round(&mut ch, arms), "one stall lifts on");
        assert_eq!(ch.lifts.len(), 2);
        round.set(3);
        assert!(
            plan.round(&mut ch, arms),
            "taking lifts back rebuilds the motion"
        );
        assert!(ch.lifts.is_empty(), "{:?}", ch.lifts.len());
        round.set(4);
        assert!(!plan.round(&mut ch, arms));
    }

    #[test]
    fn stretches_wrap_round_the_period() {
        let s = [Some(1), None, None, Some(1), Some(1), None, Some(1)];
        assert_eq!(stretches(&s), vec![(3, 5), (6, 8)]);
        assert_eq!(stretches(&[Some(1); 3]), vec![(0, 3)]);
        assert!(stretches::<u8>(&[None; 3]).is_empty());
    }
}
