//! Hand paths: the smooth periodic curve of one hand through its choreography events (catch
//! on the outside, scoop, throw near the centre for a cascade), with a throwing push before
//! each throw and a give after each catch.

use glam::DVec3;

use super::choreography::{CatchKind, HandEvent, Toss};
use super::flight::FlightPath;
use super::spline::{
    Knot, KnotVelocity, PeriodicSpline, CATCH_MIN_SPEED_CAP, CATCH_MIN_SPEED_FRACTION,
};

/// Longest stretch of a hand path without a knot; longer gaps get waypoints (seconds).
pub(crate) const MAX_GAP_SECONDS: f64 = 0.5;
/// Bound on the waypoints of one gap, so a very slow pattern cannot grow the path without end.
const MAX_WAYPOINTS_PER_GAP: usize = 64;
/// Fastest a hand moves at a throw, m/s (about an 11-ball throw's launch speed).
pub(crate) const MAX_THROW_HAND_SPEED: f64 = 8.0;
/// Limits on (hand speed at a throw) × (time to the previous / next knot), metres. Juggling
/// Lab's exact velocity match makes the scoop before a high throw and the follow-through after
/// it grow with the launch speed (a 24 dips to the floor); these keep them near what a 9 in a
/// 9-ball cascade needs, and leave every throw up to that unchanged.
const MAX_WINDUP: f64 = 2.2;
const MAX_FOLLOW_THROUGH: f64 = 1.2;
/// Shortest throwing push before the release, metres (a 3-ball cascade's).
pub(crate) const WINDUP_DISTANCE: f64 = 0.12;
/// Longest throwing push, metres (high throws).
pub(crate) const MAX_WINDUP_DISTANCE: f64 = 0.25;
/// Acceleration of the push that sets its length between those bounds: `speed² / (2 a)`.
const PUSH_ACCELERATION: f64 = 60.0;
/// Largest share of the gap to the previous knot the push may take.
const PUSH_TIME_SHARE: f64 = 0.4;
/// Deceleration of the hand after a release (m/s²): the hand stops `speed² / (2 a)` past the
/// throw point instead of rising with the prop (a 3-ball cascade's hand 3.5 cm, a 5's 8 cm),
/// so it does not run up through a club's turning handle or into the next catch's path.
const FOLLOW_DECELERATION: f64 = 120.0;
/// Longest follow-through (metres): a hand releasing faster than √(2 · 120 · 0.10) = 4.9 m/s
/// (a 7 and higher) decelerates harder, to stop within it, as jugglers do after a high throw.
/// At 120 m/s² the left hand of `753` rose 20 cm after its 7 and stood in the path of the 3 it
/// catches 0.175 s later (the 3 cut 3.1 cm into its forearm, a ring 4.7 cm).
const MAX_FOLLOW_DISTANCE: f64 = 0.10;
/// Largest share of the gap to the next knot the follow-through may take.
const FOLLOW_TIME_SHARE: f64 = 0.4;
/// How far the hand sinks after a catch before turning up (vertical drop), metres.
pub(crate) const CATCH_GIVE: f64 = 0.065;
/// How far the hand travels along the path of a prop arriving flat or rising (a pass, a
/// bounce) while it absorbs it, metres.
pub(crate) const FLAT_CATCH_GIVE: f64 = 0.08;
/// A catch followed by the hand's next catch sooner than this (seconds), with nothing thrown
/// between, is passed through without a give of its own (`hand_spline`).
const GATHER_SECONDS: f64 = 0.1;
/// Share of `SMOOTH_TARGET` × the time since the previous gathered catch that the last
/// catch of a gathering is met at, at the least (`hand_spline`).
const GATHER_REACH: f64 = 0.25;
/// Largest share of the gap to the next knot the give may take.
const GIVE_TIME_SHARE: f64 = 0.35;
/// Largest share of that gap the give may take when the preferred share is too short.
const GIVE_TIME_SHARE_MAX: f64 = 0.7;
/// A give leaves the hand time to reach its next point, when that is a point it only passes
/// (not a throw), at no more than this mean speed (m/s): a hand that carries its catch across
/// (Juggling Lab's Rubenstein's Revenge, 45 cm in 0.2 s) gives less instead of stopping and
/// then rushing over.
const GIVE_TRAVEL_SPEED: f64 = 2.5;

/// Hand acceleration the path is eased toward where the timing allows (m/s²): the issue's
/// 200 m/s² with a margin.
pub(crate) const MAX_HAND_ACCELERATION: f64 = 200.0;
const SMOOTH_TARGET: f64 = 0.97 * MAX_HAND_ACCELERATION;
/// Rounds of easing, the factor each round applies to a hand speed at a throw or catch next to
/// a too sharp segment, and the least share of the prop's speed it may come down to.
const SMOOTHING_ROUNDS: usize = 12;
const SMOOTHING_STEP: f64 = 0.85;
const MIN_SPEED_SCALE: f64 = 0.3;
/// Least share of a catch's speed bound and of its give the easing keeps.
const MIN_CATCH_SPEED_SCALE: f64 = 0.9;
const MIN_GIVE_SHARE: f64 = 0.9;
/// Deceleration of a hand absorbing a fast catch (m/s²): the give grows beyond `CATCH_GIVE` to
/// `v² / (2 GIVE_ACCELERATION)` for a hand meeting the prop at `v`, up to `MAX_CATCH_GIVE`.
const GIVE_ACCELERATION: f64 = 90.0;
pub(crate) const MAX_CATCH_GIVE: f64 = 0.14;

/// The periodic path (period `period` seconds) of one hand through its events
/// (`positions[k]` is the point of `events[k]` in `frame`). At a throw the hand moves with the mean
/// launch velocity of its props; at a catch it moves along the mean incoming velocity, no
/// faster than the props; an event that neither throws nor catches (a JML `<holding>`) only
/// fixes the position. A hand without events rests at `rest`.
pub(crate) fn hand_spline(
    events: &[HandEvent],
    positions: &[DVec3],
    flights: &[FlightPath],
    tosses: &[Toss],
    period: f64,
    frame: HandFrame,
    passing: &[Knot],
) -> PeriodicSpline {
    if events.is_empty() {
        return PeriodicSpline::constant(frame.rest);
    }
    let mut knots: Vec<Knot> = Vec::new();
    // Whether event `k` is a catch with the hand's next catch close behind it and nothing
    // thrown between (props gathered one after another for a multiplex, `SQUEEZE_BEATS`
    // apart).
    let gathers = |k: usize| {
        let (e, next) = (&events[k], &events[(k + 1) % events.len()]);
        events.len() > 1
            && e.throws.is_empty()
            && next.throws.is_empty()
            && !next.catches.is_empty()
            && gap(e.time, next.time, period) < GATHER_SECONDS
    };
    for (k, e) in events.iter().enumerate() {
        // A flight's velocity at the event, as seen in the frame.
        let seen = |v: DVec3| match frame.velocity {
            Some(f) => f(e.time, positions[k], v),
            None => v,
        };
        // A gathered catch: the hand passes through its point on its way to the next, and
        // gives after the last.
        let gathering = gathers(k);
        let soft = |e: &HandEvent| {
            e.catches.iter().all(|&i| {
                tosses
                    .get(i)
                    .is_some_and(|t| t.catch_kind == CatchKind::Soft)
            })
        };
        let velocity = if e.throws.is_empty() && (e.catches.is_empty() || gathering && !soft(e)) {
            KnotVelocity::Free
        } else if e.throws.is_empty() {
            let arrivals: Vec<DVec3> = e
                .catches
                .iter()
                .filter_map(|&i| {
                    let toss = tosses.get(i)?;
                    Some(seen(flights.get(i)?.velocity(toss.catch - toss.release)))
                })
                .collect();
            let n = arrivals.len().max(1) as f64;
            let mean = arrivals.iter().copied().sum::<DVec3>() / n;
            let speed = arrivals.iter().map(|v| v.length()).sum::<f64>() / n;
            // Props caught together arrive from slightly different directions: the speed
            // bound is raised so that the least catch speed along the mean direction is the
            // planned share of every prop's own speed along its path.
            // A low throw (a 1 or 2 handed across) caught with a high one must not tilt the
            // hand away from the high one's path: the direction follows the throws ≥ 3.
            let high: Vec<DVec3> = e
                .catches
                .iter()
                .filter_map(|&i| {
                    let toss = tosses.get(i)?;
                    (toss.value.unwrap_or(3) >= 3)
                        .then(|| {
                            flights
                                .get(i)
                                .map(|f| seen(f.velocity(toss.catch - toss.release)))
                        })
                        .flatten()
                })
                .collect();
            let mean = if high.is_empty() || high.len() == arrivals.len() {
                mean
            } else {
                high.iter().copied().sum::<DVec3>() / high.len() as f64
            };
            let axis = mean.normalize_or_zero();
            let speed = arrivals
                .iter()
                .map(|v| {
                    let cos = axis.dot(v.normalize_or_zero());
                    if cos > 0.5 {
                        v.length() / cos
                    } else {
                        v.length()
                    }
                })
                .fold(speed, f64::max);
            // The last of props gathered one after another for a multiplex is met no faster
            // than the hand can start sinking since it caught the one before (Juggling Lab's
            // hands gather them all at one point).
            let before = (k + events.len() - 1) % events.len();
            let prev = &events[before];
            let speed = if !prev.catches.is_empty() && gathers(before) {
                let since = gap(prev.time, e.time, period);
                speed.min(GATHER_REACH * SMOOTH_TARGET * since / CATCH_MIN_SPEED_FRACTION)
            } else {
                speed
            };
            if soft(e) {
                // A soft catch (JML): the hand moves exactly with the arriving prop.
                KnotVelocity::Fixed(mean)
            } else {
                KnotVelocity::Along {
                    direction: mean,
                    max_speed: speed,
                }
            }
        } else {
            let n = e.throws.len() as f64;
            KnotVelocity::Fixed(
                e.throws
                    .iter()
                    .filter_map(|&i| flights.get(i))
                    .map(|f| seen(f.velocity(0.0)))
                    .sum::<DVec3>()
                    / n,
            )
        };
        knots.push(Knot {
            time: e.time,
            position: positions[k],
            velocity,
        });
    }
    // Waypoints on long gaps, on the straight line between the neighbouring events.
    let mut all = Vec::with_capacity(knots.len());
    for k in 0..knots.len() {
        let a = knots[k];
        let b = knots[(k + 1) % knots.len()];
        let mut gap = b.time - a.time;
        if k + 1 == knots.len() {
            gap += period;
        }
        all.push(a);
        let extra = ((gap / MAX_GAP_SECONDS).ceil() as usize).min(MAX_WAYPOINTS_PER_GAP);
        for w in 1..extra.max(1) {
            let f = w as f64 / extra as f64;
            all.push(Knot {
                time: a.time + gap * f,
                position: a.position.lerp(b.position, f),
                velocity: KnotVelocity::Free,
            });
        }
    }
    // Where the other hand passes close by: waypoints in front of or behind the path
    // (`separate_hands`), away from this hand's own knots.
    for p in passing {
        let clear = all.iter().all(|k| {
            let d = (p.time - k.time).rem_euclid(period);
            d.min(period - d) >= PASSING_KNOT_GAP
        });
        if clear {
            all.push(*p);
        }
    }
    // Waypoints after the last event may pass the period: keep times in one period.
    let t0 = all[0].time;
    let mut wrapped: Vec<Knot> = all
        .into_iter()
        .map(|mut k| {
            k.time = t0 + (k.time - t0).rem_euclid(period);
            k
        })
        .collect();
    wrapped.sort_by(|a, b| a.time.total_cmp(&b.time));
    limit_throw_speeds(&mut wrapped, period);
    // Knots at events the hand only passes (nothing thrown or caught: Juggling Lab's held
    // beats), found once here rather than in every easing round.
    // (Ordered within the period, so each knot looks at its two neighbours only: a hand of
    // 90 000 events, a third of them passed, compared every pair.)
    let mut pass_times: Vec<f64> = events
        .iter()
        .filter(|e| e.throws.is_empty() && e.catches.is_empty())
        .map(|e| e.time.rem_euclid(period))
        .collect();
    pass_times.sort_by(f64::total_cmp);
    let passes: Vec<bool> = wrapped
        .iter()
        .map(|k| {
            let Some((&first, &last)) = pass_times.first().zip(pass_times.last()) else {
                return false;
            };
            let at = k.time.rem_euclid(period);
            let i = pass_times.partition_point(|&t| t < at);
            let before = if i == 0 { last } else { pass_times[i - 1] };
            let after = pass_times.get(i).copied().unwrap_or(first);
            [before, after].into_iter().any(|t| {
                let d = (t - k.time).rem_euclid(period);
                d.min(period - d) < 1e-9
            })
        })
        .collect();
    let sweep_from = if frame.crosses {
        SWEEP_FROM
    } else {
        MAX_HAND_ACCELERATION
    };
    smooth_spline(&wrapped, period, frame.forward, &passes, sweep_from)
}

/// The frame a hand's path is fitted in: where the hand rests when it has no events and the
/// way its juggler faces (a horizontal unit; zero when unknown), both in that frame. The world
/// for a juggler who stands still; the juggler's own frame for one who moves or turns, where
/// `velocity` gives a flight's world velocity `v` at time `t` at the frame's point `p` as
/// seen in the frame (the hand then travels with the body between its events). `crosses`:
/// the hand has events on the other side of its juggler's middle (a Mills Mess, a windmill),
/// whose path sweeps through catches and throws only well above the limit (`SWEEP_FROM`).
#[derive(Clone, Copy)]
pub(crate) struct HandFrame<'a> {
    pub rest: DVec3,
    pub forward: DVec3,
    pub velocity: Option<&'a dyn Fn(f64, DVec3, DVec3) -> DVec3>,
    pub crosses: bool,
}

/// What a knot of the fitted path comes from: base knot `i` itself (an event or a waypoint),
/// the throwing push before it or the give after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Origin {
    Base(usize),
    Push(usize),
    Give(usize),
    Follow(usize),
}

/// Fits the path through `base` (events and waypoints) with its pushes and gives, then eases it
/// where a segment accelerates harder than `MAX_HAND_ACCELERATION`: the hand's speed at the
/// throws and catches next to such a segment (and at the throw or catch whose push or give the
/// segment is) is lowered step by step, down to `MIN_SPEED_SCALE` of the prop's, so the hand
/// gathers and sheds less speed in the time it has (a give next to it first ends moving).
/// Positions and times never move. A path still too sharp then tries the throws and catches
/// next to its sharp pieces without their pushes, gives and follow-throughs (one sweep from
/// catch to throw), and one still above `sweep_from` (the limit, or `SWEEP_FROM` for a hand
/// that crosses its juggler's middle) sweeps through the catches next to them:
/// the hand sinks with the prop it meets and moves across as the path needs (Juggling Lab's
/// `71` with its `hands=`: the left hand catching the 7 at 25 cm and throwing the 1 from
/// 12.5 cm 0.14 s later, 233 → 157 m/s²), and one still above it with its catches swept sweeps
/// through the throws next to its sharp pieces as well: the hand rises into the release at a
/// share of the prop's vertical launch speed (`THROW_SWEEP_RISES`) and moves across as the path
/// needs (`[234]57`'s right hand, throwing its 5 at 18 cm and catching 32 cm further out 78 ms
/// later, 250 → 157 m/s²). A path whose knots are too close in space and time for any speed
/// keeps its peak (docs/motion.md).
fn smooth_spline(
    base: &[Knot],
    period: f64,
    forward: DVec3,
    passes: &[bool],
    sweep_from: f64,
) -> PeriodicSpline {
    let n = base.len();
    let none = vec![0u8; n];
    let (peak, spline, sharp) = smooth_spline_with(base, period, forward, true, &none, passes);
    if peak <= SMOOTH_TARGET {
        return spline;
    }
    // Where even the eased path is too sharp, the path without follow-throughs is taken when it
    // is smoother: stopping after a release never costs acceleration.
    let (plain_peak, plain, plain_sharp) =
        smooth_spline_with(base, period, forward, false, &none, passes);
    let follow_through = plain_peak >= peak;
    let (mut peak, mut spline, mut sharp) = if follow_through {
        (peak, spline, sharp)
    } else {
        (plain_peak, plain, plain_sharp)
    };
    // Still too sharp: the throws and catches next to the sharp pieces go without their
    // pushes, gives and follow-throughs, the hand turning from a catch to a throw in one sweep
    // (`711`'s 1s: caught at 5.7 m/s and thrown back the other way 0.14 s later, which the
    // minimum-acceleration cubic does at 81 m/s², stopping in a give first at over 250).
    // Taken only where that brings the path within the limit and the hand still sinks with
    // every prop arriving downward as a give would: a path that stays too sharp (events too
    // close for any speed) keeps its pushes and gives.
    let mut bare = vec![0u8; n];
    // The sharp pieces of the path fitted last, with `bare` as it is now.
    let mut latest = sharp.clone();
    for _ in 0..BARE_ROUNDS {
        if sharp.iter().all(|&(b, part)| bare[b] & part == part) {
            break;
        }
        for &(b, part) in &sharp {
            bare[b] |= part;
        }
        let (p, s, sh) = smooth_spline_with(base, period, forward, follow_through, &bare, passes);
        latest.clone_from(&sh);
        if !sinks_enough(&s, base, &bare, period) {
            break;
        }
        if p < peak {
            (peak, spline) = (p, s);
        }
        if peak <= SMOOTH_TARGET {
            break;
        }
        sharp = sh;
    }
    // Still above `sweep_from`: the catches next to the pieces still too sharp are swept
    // through (`KnotVelocity::Sweep`), the hand sinking with the prop as it meets it but free
    // to move across toward its next point instead of along the prop's way, without a give.
    if peak > sweep_from {
        let mut swept = base.to_vec();
        let mut any = false;
        for &(b, _) in sharp.iter().chain(&latest) {
            if let KnotVelocity::Along {
                direction,
                max_speed,
            } = base[b].velocity
            {
                let least = (CATCH_MIN_SPEED_FRACTION * max_speed).min(CATCH_MIN_SPEED_CAP);
                swept[b].velocity = KnotVelocity::Sweep {
                    vertical: direction.normalize_or_zero().y * least,
                };
                bare[b] |= BARE_GIVE;
                any = true;
            }
        }
        if any {
            let (p, s, sh) =
                smooth_spline_with(&swept, period, forward, follow_through, &bare, passes);
            if p < peak {
                (peak, spline) = (p, s);
            }
            latest = sh;
        } else {
            latest.extend_from_slice(&sharp);
        }
        // Still above `sweep_from`: the throws next to the pieces still too sharp are
        // swept too, the hand rising into the release at a share of the prop's vertical
        // launch speed (the largest of `THROW_SWEEP_RISES` that brings the path within the
        // limit, else the smoothest) and moving across as the path needs.
        if peak > sweep_from {
            let throws: Vec<usize> = latest
                .iter()
                .map(|&(b, _)| b)
                .filter(|&b| matches!(base[b].velocity, KnotVelocity::Fixed(_)))
                .collect();
            if !throws.is_empty() {
                for &b in &throws {
                    bare[b] |= BARE_PUSH | BARE_FOLLOW;
                }
                for rise in THROW_SWEEP_RISES {
                    for &b in &throws {
                        if let KnotVelocity::Fixed(v) = base[b].velocity {
                            swept[b].velocity = KnotVelocity::Sweep {
                                vertical: v.y * rise,
                            };
                        }
                    }
                    let (p, s, _) =
                        smooth_spline_with(&swept, period, forward, follow_through, &bare, passes);
                    if p < peak {
                        (peak, spline) = (p, s);
                    }
                    if peak <= SMOOTH_TARGET {
                        break;
                    }
                }
            }
        }
    }
    spline
}

/// Peak acceleration (m/s²) above which the path of a hand that crosses its juggler's middle,
/// still too sharp after the easing, sweeps through the catches next to its sharp pieces
/// (`smooth_spline`; a hand on its own side sweeps above `MAX_HAND_ACCELERATION`): the Mills
/// Mess with Juggling Lab's hands, 201–205 m/s² on its path, measured below 200 and sweeping
/// put its clubs and rings through its forearms and each other (so did Mills Mess 414, 315 and
/// Box, swept above 199).
const SWEEP_FROM: f64 = 1.05 * MAX_HAND_ACCELERATION;

/// Shares of a prop's vertical launch speed a hand swept through a throw rises at, tried in
/// turn (`smooth_spline`).
const THROW_SWEEP_RISES: [f64; 3] = [0.8, 0.65, 0.5];

/// Least drop (metres) of a hand after a catch of a prop arriving downward whose give knot is
/// left out (`smooth_spline`): the sweep must still sink with the prop, as a give does (the
/// library's catches give at least 5 cm).
const SWEEP_LEAST_DROP: f64 = 0.055;

/// Whether, in `spline`, the hand sinks at least `SWEEP_LEAST_DROP` after every catch of a prop
/// arriving downward whose give `bare` leaves out, before it turns up (sampled up to the next
/// base knot).
fn sinks_enough(spline: &PeriodicSpline, base: &[Knot], bare: &[u8], period: f64) -> bool {
    const SAMPLES: usize = 48;
    let n = base.len();
    (0..n)
        .filter(|&b| bare[b] & BARE_GIVE != 0 && arrives_downward(base[b].velocity))
        .all(|b| {
            let t0 = base[b].time;
            let span = gap(t0, base[(b + 1) % n].time, period);
            let y0 = spline.eval(t0).0.y;
            let mut low = y0;
            for k in 1..=SAMPLES {
                let (p, v) = spline.eval(t0 + span * k as f64 / SAMPLES as f64);
                low = low.min(p.y);
                if v.y > 0.0 {
                    break;
                }
            }
            y0 - low >= SWEEP_LEAST_DROP
        })
}

/// Rounds of leaving pushes, gives and follow-throughs out next to pieces still too sharp.
const BARE_ROUNDS: usize = 3;
/// What of a base knot's additions is left out (bits of `bare`): the push before it, the give
/// after it, the follow-through after it.
const BARE_PUSH: u8 = 1;
const BARE_GIVE: u8 = 2;
const BARE_FOLLOW: u8 = 4;
/// A base knot and what of its additions to leave out (`BARE_*` bits).
type Bare = (usize, u8);

/// `smooth_spline` with the pushes, gives and follow-throughs of the base knots marked `bare`
/// left out: the least peak acceleration reached, its path, and the base knots next to its
/// pieces still above `SMOOTH_TARGET`.
fn smooth_spline_with(
    base: &[Knot],
    period: f64,
    forward: DVec3,
    follow_through: bool,
    bare: &[u8],
    passes: &[bool],
) -> (f64, PeriodicSpline, Vec<Bare>) {
    let mut scale = vec![1.0_f64; base.len()];
    // Shares of each throw's push and each catch's give kept (way and time alike).
    let keep = |b: usize, part: u8| {
        if bare.get(b).is_some_and(|m| m & part != 0) {
            0.0
        } else {
            1.0_f64
        }
    };
    let mut push: Vec<f64> = (0..base.len()).map(|b| keep(b, BARE_PUSH)).collect();
    let mut give: Vec<f64> = (0..base.len()).map(|b| keep(b, BARE_GIVE)).collect();
    // Gives that end moving (on toward the next knot) instead of at rest.
    let mut give_moving = vec![false; base.len()];
    let mut follow: Vec<f64> = if follow_through {
        (0..base.len()).map(|b| keep(b, BARE_FOLLOW)).collect()
    } else {
        vec![0.0; base.len()]
    };
    let mut best: Option<(f64, PeriodicSpline, Vec<Bare>)> = None;
    for _ in 0..=SMOOTHING_ROUNDS {
        let scaled: Vec<Knot> = base
            .iter()
            .zip(&scale)
            .map(|(k, &s)| Knot {
                velocity: match k.velocity {
                    KnotVelocity::Fixed(v) => KnotVelocity::Fixed(v * s),
                    KnotVelocity::Along {
                        direction,
                        max_speed,
                    } => KnotVelocity::Along {
                        direction,
                        max_speed: max_speed * s,
                    },
                    other @ (KnotVelocity::Free | KnotVelocity::Sweep { .. }) => other,
                },
                ..*k
            })
            .collect();
        let tagged: Vec<(Knot, Origin)> = scaled
            .iter()
            .enumerate()
            .map(|(i, k)| (*k, Origin::Base(i)))
            .collect();
        let tagged = add_throw_pushes(&tagged, period, &push, forward);
        let tagged = add_catch_gives(&tagged, period, &give, &give_moving, passes);
        let tagged = add_follow_throughs(&tagged, period, &follow);
        let knots: Vec<Knot> = tagged.iter().map(|(k, _)| *k).collect();
        let spline = PeriodicSpline::fit(&knots, period);
        let peaks = spline.segment_peaks();
        let peak = peaks.iter().copied().fold(0.0, f64::max);
        let better = best.as_ref().is_none_or(|(p, _, _)| peak < *p);
        if better {
            // The base knots next to the pieces still too sharp (and those whose push, give
            // or follow-through such a piece is).
            let m = tagged.len();
            let mut sharp: Vec<Bare> = Vec::new();
            for (i, &p) in peaks.iter().enumerate() {
                if p > SMOOTH_TARGET {
                    // A piece from a knot: what that knot adds after it; into one: before it.
                    for (d, after) in [(0, true), (1, false)] {
                        let mark = match tagged[(i + d) % m].1 {
                            Origin::Push(b) => (b, BARE_PUSH),
                            Origin::Give(b) => (b, BARE_GIVE),
                            Origin::Follow(b) => (b, BARE_FOLLOW),
                            Origin::Base(b) if after => (b, BARE_GIVE | BARE_FOLLOW),
                            Origin::Base(b) => (b, BARE_PUSH),
                        };
                        sharp.push(mark);
                    }
                }
            }
            best = Some((peak, spline, sharp));
        }
        if peak <= SMOOTH_TARGET {
            break;
        }
        let n = tagged.len();
        let mut changed = false;
        for (i, &p) in peaks.iter().enumerate() {
            if p <= SMOOTH_TARGET {
                continue;
            }
            let (from, to) = (tagged[i].1, tagged[(i + 1) % n].1);
            // A catch shedding its speed into its give, or a push gathering a throw's speed: the
            // speed is eased. A segment from a give or into a push lacks time: that give or push
            // is shortened (and left out once small).
            let ends: &[(Origin, bool)] = match (from, to) {
                (Origin::Base(a), Origin::Give(b))
                | (Origin::Push(a), Origin::Base(b))
                | (Origin::Base(a), Origin::Follow(b))
                    if a == b =>
                {
                    &[(from, true)]
                }
                _ => &[(from, false), (to, false)],
            };
            // A follow-through next to a sharp piece (a throw soon followed by a catch that
            // arrives fast from the other side) is shortened too: the hand stopping after the
            // release leaves it less time to turn.
            for d in [n - 1, 0, 1, 2] {
                if let Origin::Follow(b) = tagged[(i + d) % n].1 {
                    let s = follow[b] * SMOOTHING_STEP;
                    if s < follow[b] && follow[b] > MIN_SPEED_SCALE {
                        follow[b] = s;
                        changed = true;
                    }
                }
            }
            for &(origin, speed) in ends {
                // A piece from or to the end of a give lacks time (a throw or a turn soon after
                // a catch): the give first ends moving, the hand sinking through its lowest
                // point on its way instead of stopping there; only then is it shortened.
                if let Origin::Give(b) = origin {
                    if !speed && !give_moving[b] && arrives_downward(base[b].velocity) {
                        give_moving[b] = true;
                        changed = true;
                        continue;
                    }
                }
                let (factor, b) = match origin {
                    Origin::Give(b) if !speed => (&mut give[b], b),
                    Origin::Push(b) if !speed => (&mut push[b], b),
                    Origin::Follow(b) if !speed => (&mut follow[b], b),
                    Origin::Base(b) | Origin::Give(b) | Origin::Push(b) | Origin::Follow(b) => {
                        (&mut scale[b], b)
                    }
                };
                if matches!(
                    base[b].velocity,
                    KnotVelocity::Free | KnotVelocity::Sweep { .. }
                ) {
                    continue;
                }
                // Catches keep most of their speed and give (the hand meets a prop at ≥ 40 %
                // of its speed and gives ≥ 5 cm); throws and pushes may come down further.
                let floor = match (origin, base[b].velocity) {
                    (Origin::Give(_), _) if !speed => MIN_GIVE_SHARE,
                    (_, KnotVelocity::Along { .. }) => MIN_CATCH_SPEED_SCALE,
                    _ => MIN_SPEED_SCALE,
                };
                let s = (*factor * SMOOTHING_STEP).max(floor);
                if s < *factor {
                    *factor = s;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    best.unwrap_or_else(|| (f64::INFINITY, PeriodicSpline::fit(base, period), Vec::new()))
}

/// Whether a knot is a catch of props arriving downward (steeper than about 17°), whose give
/// drops `CATCH_GIVE`; one arriving flat or rising is absorbed along its path.
fn arrives_downward(velocity: KnotVelocity) -> bool {
    matches!(velocity, KnotVelocity::Along { direction, .. }
        if direction.normalize_or_zero().y <= -0.3)
}

/// Before every throw knot, a knot where the throwing push starts: back along the launch
/// velocity by `speed² / (2 PUSH_ACCELERATION)`, within `WINDUP_DISTANCE..=MAX_WINDUP_DISTANCE`,
/// reached in the time a constant acceleration from rest would take (`2 d / speed`) but at
/// most `PUSH_TIME_SHARE` of the gap to the previous knot. Real hands gather speed in a short
/// push; without this knot the minimum-acceleration curve spreads the push over the whole
/// dwell and the hand sinks 25-40 cm below the hand plane with the arm hanging straight
/// (Juggling Lab's look). After the release the hand stops (`add_follow_throughs`).
fn add_throw_pushes(
    knots: &[(Knot, Origin)],
    period: f64,
    share: &[f64],
    forward: DVec3,
) -> Vec<(Knot, Origin)> {
    let n = knots.len();
    let mut out = Vec::with_capacity(n * 2);
    for (i, &(k, origin)) in knots.iter().enumerate() {
        let KnotVelocity::Fixed(v) = k.velocity else {
            out.push((k, origin));
            continue;
        };
        let speed = v.length();
        let Origin::Base(b) = origin else {
            out.push((k, origin));
            continue;
        };
        if speed.is_nan() || speed <= 1e-6 {
            out.push((k, origin));
            continue;
        }
        let before = gap(knots[(i + n - 1) % n].0.time, k.time, period);
        let push =
            (speed * speed / (2.0 * PUSH_ACCELERATION)).clamp(WINDUP_DISTANCE, MAX_WINDUP_DISTANCE);
        let t_in = (2.0 * push / speed).min(PUSH_TIME_SHARE * before) * share[b];
        if share[b] <= MIN_SPEED_SCALE {
            out.push((k, origin));
            continue;
        }
        out.push((
            Knot {
                time: k.time - t_in,
                position: k.position + push_way(-v * (0.5 * t_in), forward),
                velocity: KnotVelocity::Free,
            },
            Origin::Push(b),
        ));
        out.push((k, origin));
    }
    wrap_sorted(&mut out, period);
    out
}

/// How far back (against the juggler's forward direction) a throwing push may start, metres: a
/// throw forward (a pass) winds up this far back and the rest of its way down, not straight back
/// past the shoulders, which would take the elbow behind the back.
const MAX_PUSH_BACK: f64 = 0.05;
/// Share of the length taken off the push's way back that it goes down instead.
const PUSH_DOWN_SHARE: f64 = 0.5;

/// Where a push starts relative to its throw, from the way `back` straight back along the launch
/// velocity: its part against `forward` (a horizontal unit, or zero: no limit) capped at
/// `MAX_PUSH_BACK`, half the length taken off it added downward (the hand still rises into the
/// throw, and stays above the waist). Throws up or sideways keep their push.
fn push_way(back: DVec3, forward: DVec3) -> DVec3 {
    let behind = -back.dot(forward);
    if behind.is_nan() || behind <= MAX_PUSH_BACK {
        return back;
    }
    let kept = back + forward * (behind - MAX_PUSH_BACK);
    let down = (back.length_squared() - kept.length_squared())
        .max(0.0)
        .sqrt();
    kept - DVec3::Y * (PUSH_DOWN_SHARE * down)
}

/// Time from `from` on to `to` on a loop of `period` seconds; a whole period when they fall
/// together (a path with one knot).
fn gap(from: f64, to: f64, period: f64) -> f64 {
    let d = (to - from).rem_euclid(period);
    if d > 0.0 {
        d
    } else {
        period
    }
}

/// Brings knot times into one period from the earliest and sorts them.
fn wrap_sorted(out: &mut [(Knot, Origin)], period: f64) {
    let t0 = out.iter().map(|k| k.0.time).fold(f64::INFINITY, f64::min);
    let t0 = if t0.is_finite() { t0 } else { 0.0 };
    for (k, _) in out.iter_mut() {
        k.time = t0 + (k.time - t0).rem_euclid(period);
    }
    out.sort_by(|a, b| a.0.time.total_cmp(&b.0.time));
}

/// After every catch knot, a knot where the give ends, at rest: for a prop arriving downward
/// `CATCH_GIVE` lower (sideways along the incoming path, at most a quarter of that), for one
/// arriving flat or rising `FLAT_CATCH_GIVE` along its path; reached
/// in the time a steady deceleration from the hand's least catch speed takes (`2 d / v`),
/// within `GIVE_TIME_SHARE` of the gap to the next knot, stretched to at most
/// `GIVE_TIME_SHARE_MAX` of it when the hand needs that long even at the prop's own speed.
/// Only when even that is too short (`d > v_prop t / 2`, no library pattern) the give shrinks
/// to `v_prop t / 2`.
fn add_catch_gives(
    knots: &[(Knot, Origin)],
    period: f64,
    share: &[f64],
    moving: &[bool],
    passes: &[bool],
) -> Vec<(Knot, Origin)> {
    let n = knots.len();
    let mut out = Vec::with_capacity(n * 2);
    for (i, &(k, origin)) in knots.iter().enumerate() {
        out.push((k, origin));
        let Origin::Base(b) = origin else {
            continue;
        };
        let KnotVelocity::Along {
            direction,
            max_speed,
        } = k.velocity
        else {
            continue;
        };
        let dir = direction.normalize_or_zero();
        if dir == DVec3::ZERO || max_speed.is_nan() || max_speed <= 1e-6 {
            continue;
        }
        let downward = arrives_downward(k.velocity);
        // The hand's speed at the catch lies between the planned least share of the prop's
        // speed and the prop's speed (`KnotVelocity::Along`).
        let slow = (CATCH_MIN_SPEED_FRACTION * max_speed).clamp(1e-3, CATCH_MIN_SPEED_CAP);
        let after = gap(k.time, knots[(i + 1) % n].0.time, period);
        // A drop of `CATCH_GIVE`, along the incoming direction; a prop arriving flat (a pass)
        // or rising is absorbed over `FLAT_CATCH_GIVE` along its path, so the hand stops in
        // front of the body instead of swinging back into it.
        // A fast catch (a high throw) is absorbed over a longer way, at a bearable deceleration.
        let fast = (slow * slow / (2.0 * GIVE_ACCELERATION)).min(MAX_CATCH_GIVE);
        let along = if downward {
            CATCH_GIVE.max(fast) / -dir.y
        } else {
            FLAT_CATCH_GIVE.max(fast)
        };
        // The give takes the time a steady deceleration from the least catch speed needs, within
        // `GIVE_TIME_SHARE` of the gap to the next knot; when that is too short, up to
        // `GIVE_TIME_SHARE_MAX` so the hand can still give fully at up to the prop's speed.
        let full_at_prop_speed = 2.0 * along / max_speed;
        let t = (2.0 * along / slow).min(
            (GIVE_TIME_SHARE * after).max(full_at_prop_speed.min(GIVE_TIME_SHARE_MAX * after)),
        );
        // Where the hand next only passes a point (it holds the prop on, as Juggling Lab's
        // hands on a held beat), the rest of the gap must carry it there.
        let (next, next_origin) = knots[(i + 1) % n];
        let passed = matches!(next_origin, Origin::Base(nb) if passes.get(nb) == Some(&true));
        let room = if passed {
            (after - k.position.distance(next.position) / GIVE_TRAVEL_SPEED).max(0.0)
        } else {
            f64::INFINITY
        };
        let fits = if t > room { room / t } else { 1.0 };
        if fits < 0.2 || share[b] <= 0.0 {
            continue;
        }
        // Even at the prop's full speed there is no time for the whole give: shrink it.
        let d = along.min(0.5 * max_speed * t) * share[b] * fits;
        let t = t * share[b] * fits;
        // Sideways the give follows the prop at most a quarter as far as down, so a shallow
        // arrival cannot carry the hand out of reach.
        let offset = dir * d;
        let side = DVec3::new(offset.x, 0.0, offset.z);
        let side = if downward {
            side.clamp_length_max(0.25 * -offset.y)
        } else {
            side
        };
        let position = k.position + DVec3::new(side.x, offset.y, side.z);
        // The give ends at rest, at the bottom: the hand has absorbed the prop and turns
        // toward the next knot from there (a sideways speed there swings the hand out). Where
        // the easing finds no time for that after a prop arriving downward, it ends moving:
        // the hand passes through the bottom on its way, so it still sinks at least that far
        // (one arriving flat or rising, a pass or a bounce, is still stopped: moving on, the
        // hand would swing out along its path).
        out.push((
            Knot {
                time: k.time + t,
                position,
                velocity: if moving[b] && downward {
                    KnotVelocity::Free
                } else {
                    KnotVelocity::Fixed(DVec3::ZERO)
                },
            },
            Origin::Give(b),
        ));
    }
    wrap_sorted(&mut out, period);
    out
}

/// After every throw knot, a knot where the hand has stopped: on along the launch velocity by
/// `speed² / (2 FOLLOW_DECELERATION)`, reached in `speed / FOLLOW_DECELERATION`, at rest (a hand
/// faster than a 5's stops harder, within `MAX_FOLLOW_DISTANCE`); when that is more than
/// `FOLLOW_TIME_SHARE` of the gap to the next knot, the hand slows at the same rate for that
/// share and keeps the speed left. A hand that has let go of a prop stops
/// within a few centimetres instead of following it up (Juggling Lab's path rises 13 cm after a
/// 3-ball cascade's throw, 19 cm after 531's 5); its way then turns toward the next catch. A
/// share at or below `MIN_SPEED_SCALE` (0 when the path is fitted without them) leaves it out.
fn add_follow_throughs(
    knots: &[(Knot, Origin)],
    period: f64,
    share: &[f64],
) -> Vec<(Knot, Origin)> {
    let n = knots.len();
    let mut out = Vec::with_capacity(n * 2);
    for (i, &(k, origin)) in knots.iter().enumerate() {
        out.push((k, origin));
        let Origin::Base(b) = origin else {
            continue;
        };
        let KnotVelocity::Fixed(v) = k.velocity else {
            continue;
        };
        let speed = v.length();
        if speed.is_nan() || speed <= 1e-6 || share[b] <= MIN_SPEED_SCALE {
            continue;
        }
        let after = gap(k.time, knots[(i + 1) % n].0.time, period);
        // Where the gap is too short to stop, the hand slows at the same rate for the time it
        // has and leaves the knot with the speed left.
        let decel = FOLLOW_DECELERATION.max(speed * speed / (2.0 * MAX_FOLLOW_DISTANCE));
        let t = (speed / decel).min(FOLLOW_TIME_SHARE * after) * share[b];
        let left = v * (1.0 - decel * t / speed).max(0.0);
        out.push((
            Knot {
                time: k.time + t,
                position: k.position + (v + left) * (0.5 * t),
                velocity: KnotVelocity::Fixed(left),
            },
            Origin::Follow(b),
        ));
    }
    wrap_sorted(&mut out, period);
    out
}

/// Scale the hand's velocity at each throw down (direction kept) to the limits above.
fn limit_throw_speeds(knots: &mut [Knot], period: f64) {
    let n = knots.len();
    let times: Vec<f64> = knots.iter().map(|k| k.time).collect();
    for (i, knot) in knots.iter_mut().enumerate() {
        if let KnotVelocity::Fixed(v) = knot.velocity {
            let before = gap(times[(i + n - 1) % n], times[i], period);
            let after = gap(times[i], times[(i + 1) % n], period);
            let limit = MAX_THROW_HAND_SPEED
                .min(MAX_WINDUP / before)
                .min(MAX_FOLLOW_THROUGH / after);
            let speed = v.length();
            if speed > limit {
                knot.velocity = KnotVelocity::Fixed(v * (limit / speed));
            }
        }
    }
}

/// Least centre distance the two hands of a juggler keep where they pass each other (metres):
/// crossing hands (Mills Mess, Rubenstein's Revenge, Juggling Lab files whose events all lie
/// in one plane) pass this far apart, one in front of and a little above the other.
pub(crate) const HANDS_APART: f64 = 0.12;
/// Hands closer than this (centres, metres) are parted to `HANDS_APART`; hands passing
/// between the two (a synchronous fountain's) are left as they are.
const PASSING_TRIGGER: f64 = 0.09;
/// Passing waypoints keep at least this far in time from a hand's own knots (seconds): the
/// catch and throw points stay where the pattern puts them.
const PASSING_KNOT_GAP: f64 = 0.03;
/// Samples per hand period searched for hands passing close.
const PASSING_SAMPLES: usize = 360;

/// Waypoints that part a juggler's two hands (`left`, `right` fitted without them, each moved
/// by `shift(side, t)`: raised where the forearm lifts put it over the other, carried with its
/// props' lanes) where they
/// come closer than `PASSING_TRIGGER`: at each closest approach the hand further across the body
/// (the one crossing over) moves forward and a little up, the other back, so their centres are
/// `HANDS_APART` apart; a hand that has a knot within `PASSING_KNOT_GAP` of that time stays and
/// the other moves the whole way. `event_times` are the hands' event times, `forward(t)` the
/// juggler's forward direction and `inward(side, p, t)` how far point `p` lies across the
/// body from that side's shoulder line. Empty when the hands never come close.
pub(crate) fn separate_hands(
    hands: [&PeriodicSpline; 2],
    shift: impl Fn(usize, f64) -> DVec3,
    event_times: [&[f64]; 2],
    period: f64,
    forward: impl Fn(f64) -> DVec3,
    inward: impl Fn(usize, DVec3, f64) -> f64,
) -> [Vec<Knot>; 2] {
    let mut out = [Vec::new(), Vec::new()];
    if period.is_nan() || period <= 0.0 || !period.is_finite() {
        return out;
    }
    let dt = period / PASSING_SAMPLES as f64;
    // Where a hand is: its path plus its shift (the waypoints are placed on the path).
    let at = |side: usize, t: f64| hands[side].eval(t).0 + shift(side, t);
    let dist = |t: f64| at(0, t).distance(at(1, t));
    let d: Vec<f64> = (0..PASSING_SAMPLES).map(|k| dist(k as f64 * dt)).collect();
    let n = d.len();
    let near_knot = |side: usize, t: f64| {
        event_times[side].iter().any(|&e| {
            let g = (t - e).rem_euclid(period);
            g.min(period - g) < PASSING_KNOT_GAP
        })
    };
    for k in 0..n {
        let (prev, next) = (d[(k + n - 1) % n], d[(k + 1) % n]);
        if !(d[k] < PASSING_TRIGGER && d[k] <= prev && d[k] < next) {
            continue;
        }
        let t = k as f64 * dt;
        let p = [at(0, t), at(1, t)];
        let f = forward(t);
        // Depth apart so that the centres are `HANDS_APART` apart (the part of their offset
        // already along the forward direction counts).
        let offset = p[0] - p[1];
        let flat = offset - f * offset.dot(f);
        let depth = (HANDS_APART * HANDS_APART - flat.length_squared())
            .max(0.0)
            .sqrt();
        let front = if inward(0, p[0], t) >= inward(1, p[1], t) {
            0
        } else {
            1
        };
        // Keep the order in depth they already have when one is clearly in front.
        let ahead = offset.dot(f) * if front == 0 { 1.0 } else { -1.0 };
        let front = if ahead < -0.02 { 1 - front } else { front };
        let have = (p[front] - p[1 - front]).dot(f);
        let need = (depth - have.max(0.0)).max(0.0);
        if need <= 0.0 {
            continue;
        }
        let stays = [near_knot(0, t), near_knot(1, t)];
        let share = match (stays[front], stays[1 - front]) {
            (true, true) => continue,
            (false, true) => [1.0, 0.0],
            (true, false) => [0.0, 1.0],
            (false, false) => [0.5, 0.5],
        };
        let up = DVec3::Y;
        if share[0] > 0.0 {
            out[front].push(Knot {
                time: t,
                position: p[front] - shift(front, t) + (f + up * 0.3) * (need * share[0]),
                velocity: KnotVelocity::Free,
            });
        }
        if share[1] > 0.0 {
            out[1 - front].push(Knot {
                time: t,
                position: p[1 - front] - shift(1 - front, t) - f * (need * share[1]),
                velocity: KnotVelocity::Free,
            });
        }
    }
    out
}
