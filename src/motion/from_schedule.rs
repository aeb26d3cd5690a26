//! Builds the [`Choreography`] of a valid siteswap schedule with Juggling Lab's rules: the
//! builders every siteswap source (`hands=`, `body=`, hand siteswaps) goes through.
//!
//! Steps, all in beats until the last: `plan` times every toss (release, catch) and lists
//! each hand's events over one hand period (the schedule repeated so that custom dwell points
//! and `body=` cycles fit whole); `event_point` places each event (Juggling Lab's table by
//! throw value, or custom `DwellPoints` cycled over the juggler's beats); `orbit` gives each
//! orbit's cycle of flights and holds; `lanes` spreads props held together. Everything is then
//! scaled to seconds and written as a `Choreography`. Where a flight of balls or rings would
//! meet its own repeat in the air (`o`), it is built again over several cycles, which the
//! flight lanes part (`lane_copies`). `place_for_prop` moves the hands where they work with a
//! prop (clubs further forward).

use glam::DVec3;

use super::choreography::{
    Choreography, HandEvent, JugglerPath, PathSegment, Toss, TossKind, ORIGIN,
};
use super::flight::BounceMode;
use super::lanes::{spread, spread_held_props};
use super::orbit;
use super::plan::{self, Plan};
use super::positions::{catch_x, throw_x, DwellSpec, HandPoint};
use super::timing::Timing;
use crate::layout::{Layout, Placement};
use crate::schedule::{Schedule, ThrowKind};
use crate::settings::DwellPoints;
use crate::types::{HandRef, PropKind};

/// The events of a valid siteswap `schedule` at `timing`, jugglers placed by `layout`
/// (missing placements from the default circle), at custom dwell points when `hand_positions`
/// is not empty (cycled over each juggler's beats), else Juggling Lab's table by throw value.
pub fn from_schedule(
    schedule: &Schedule,
    timing: Timing,
    layout: &Layout,
    hand_positions: &[DwellPoints],
) -> Choreography {
    from_schedule_per_juggler(
        schedule,
        timing,
        layout,
        &[hand_positions.to_vec()],
        PropKind::Ball,
    )
}

/// Like [`from_schedule`] with custom dwell points per juggler: juggler `j` uses
/// `hands[j % hands.len()]` (Juggling Lab's `hands=` with `|`); an empty list uses the
/// built-in positions. `kind` is the prop the hands are placed for: clubs throw a
/// synchronous `2x` from the side (`event_point`); [`from_schedule`] places them for balls.
pub(crate) fn from_schedule_per_juggler(
    schedule: &Schedule,
    timing: Timing,
    layout: &Layout,
    hands: &[Vec<DwellPoints>],
    kind: PropKind,
) -> Choreography {
    from_schedule_moving(schedule, timing, layout, hands, &[], &[], kind)
}

/// Most repeats of a pattern made to fit its jugglers' `body=` cycles.
const MAX_BODY_COPIES: u128 = 256;

/// A juggler who moves over a cycle of beats (Juggling Lab's `body=`): placements at beat
/// times in `[0, period)`, repeating every `period` beats.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct BeatPath {
    pub(crate) period: u32,
    pub(crate) keys: Vec<(f64, Placement)>,
}

/// Like [`from_schedule_per_juggler`] with jugglers who move: juggler `j` follows
/// `moves[j]` when it is `Some` (else stands at the layout's place). As Juggling Lab does,
/// the hand period is made a whole number of every such cycle (the pattern repeated).
/// `beat_dwells`, when not empty, is the dwell before each beat's throw (hand siteswaps,
/// cycled), instead of `timing.dwell`.
pub(crate) fn from_schedule_moving(
    schedule: &Schedule,
    timing: Timing,
    layout: &Layout,
    hands: &[Vec<DwellPoints>],
    moves: &[Option<BeatPath>],
    beat_dwells: &[f64],
    kind: PropKind,
) -> Choreography {
    let per_juggler: Vec<Vec<DwellSpec>> = hands
        .iter()
        .map(|h| h.iter().copied().map(DwellSpec::from).collect())
        .collect();
    let no_custom: Vec<DwellSpec> = Vec::new();
    let custom_of = |juggler: usize| -> &Vec<DwellSpec> {
        if per_juggler.is_empty() {
            &no_custom
        } else {
            &per_juggler[juggler % per_juggler.len()]
        }
    };
    let copies = (0..schedule.jugglers.max(1)).fold(1u32, |acc, j| {
        let c = crate::settings::hands_copies(custom_of(j).len(), schedule.period)
            .min(u128::from(u32::MAX)) as u32;
        lcm(u128::from(acc), u128::from(c)).min(u128::from(u32::MAX)) as u32
    });
    // (At most MAX_BODY_COPIES repeats: beyond that a juggler keeps its own cycle but the
    // loop is not a whole number of them.)
    let copies = moves.iter().flatten().fold(copies, |acc, m| {
        let (b, p) = (
            u128::from(m.period.max(1)),
            u128::from(schedule.period.max(1)),
        );
        let c = lcm(u128::from(acc), b / gcd(b, p));
        if c <= MAX_BODY_COPIES {
            c as u32
        } else {
            acc
        }
    });
    let every_beat = per_juggler.iter().any(|c| !c.is_empty());
    let build = |copies: u32| {
        build_choreography(
            schedule,
            timing,
            (layout, moves, beat_dwells),
            &custom_of,
            (copies, every_beat),
            kind,
        )
    };
    let choreography = build(copies);
    // A flight that would meet its own repeat in the air (props on one parabola a hand's
    // throw apart: `o`, `z`) needs successive throws in lanes of their own: the pattern is
    // written over more of its cycles, each laned apart.
    match lane_copies(&choreography, kind) {
        Some(k) => Choreography {
            lane_copies: k,
            ..build(copies.saturating_mul(k))
        },
        None => choreography,
    }
}

/// Copies of its cycle a choreography is laned over where a flight of props of `kind` meets
/// its own repeat (`Choreography::flights_meet_their_repeats`): at least three (with two, the
/// third throw flies in the first one's lane, 8.8 cm behind it in `o`: still 1.2 cm into it),
/// the fewest from 3 to 8 that divide its loop (the least common multiple of the props per
/// path, in hand periods), so that the loop lasts no longer (`z`'s 35 balls: 5), else 3.
/// `None` where no flight does, where the hand period already holds three cycles or more
/// (a JIF written over the whole loop: the lanes part them as they are, `flight_lanes.rs`), or
/// where the copies' tosses would be more than the lane search takes (`MAX_LANED_TOSSES`).
fn lane_copies(choreography: &Choreography, kind: PropKind) -> Option<u32> {
    let tosses = choreography.tosses.len();
    if tosses.saturating_mul(3) > super::MAX_LANED_TOSSES {
        return None;
    }
    let repeat = choreography.flights_meet_their_repeats(kind)?;
    if choreography.hand_period / repeat > 2.5 {
        return None;
    }
    let periods = choreography.paths.iter().fold(1u128, |acc, p| {
        lcm(acc, p.props.max(1) as u128).min(u128::from(u64::MAX))
    });
    let k = (3..=8).find(|&k| periods % k == 0).unwrap_or(3);
    (tosses.saturating_mul(k as usize) <= super::MAX_LANED_TOSSES).then_some(k as u32)
}

/// The choreography of `schedule` repeated `copies` times (see [`from_schedule_moving`]).
fn build_choreography<'a>(
    schedule: &Schedule,
    timing: Timing,
    (layout, moves, beat_dwells): (&Layout, &[Option<BeatPath>], &[f64]),
    custom_of: &dyn Fn(usize) -> &'a Vec<DwellSpec>,
    (copies, every_beat): (u32, bool),
    kind: PropKind,
) -> Choreography {
    let plan = Plan::with_beat_dwells(schedule, copies, timing.dwell, beat_dwells, every_beat);
    let beat = timing.beat_seconds();
    let hand_period = plan.period as f64 * beat;
    let placements = placements(layout, plan.jugglers);

    // Plan throws that fly, numbered as tosses.
    let mut toss_of = vec![None; plan.throws.len()];
    let mut count = 0;
    for (i, tt) in plan.times.iter().enumerate() {
        if tt.is_some() {
            toss_of[i] = Some(count);
            count += 1;
        }
    }
    let mut tosses: Vec<Toss> = Vec::with_capacity(count);
    for (i, (t, tt)) in plan.throws.iter().zip(&plan.times).enumerate() {
        let Some(tt) = tt else { continue };
        tosses.push(Toss {
            throw: plan.original.get(i).copied(),
            kind: match t.kind {
                ThrowKind::Bounce {
                    bounces,
                    forced,
                    hyper,
                } => TossKind::Bounce(BounceMode::from_kind(bounces, forced, hyper)),
                _ => TossKind::Toss,
            },
            value: Some(plan.juggler_value(i)),
            spins: t.spins.map(f64::from),
            ..Toss::plain(t.from, t.to, tt.release * beat, tt.catch * beat)
        });
    }

    // Event points and the spread of props thrown or caught together.
    let mut throw_offset = vec![DVec3::ZERO; plan.throws.len()];
    let mut catch_offset = vec![DVec3::ZERO; plan.throws.len()];
    // Whether the juggler's other hand throws at the same time as this event.
    let sync = |slot: usize, e: &plan::HandEvent| {
        !e.throws.is_empty()
            && plan.hand_events.get(slot ^ 1).is_some_and(|other| {
                // Events are sorted by time: look only at those at `e.time`.
                let first = other.partition_point(|o| o.time < e.time - 1e-9);
                other[first..]
                    .iter()
                    .take_while(|o| o.time <= e.time + 1e-9)
                    .any(|o| !o.throws.is_empty())
            })
    };
    let hands = plan
        .hand_events
        .iter()
        .enumerate()
        .map(|(slot, events)| {
            let hand = HandRef::from_slot(slot);
            events
                .iter()
                .map(|e| {
                    for (k, &i) in e.throws.iter().enumerate() {
                        throw_offset[i] = spread(k, e.throws.len());
                    }
                    for &i in &e.catches {
                        let (k, m) = plan.catch_slot[i];
                        catch_offset[i] = spread(k, m);
                    }
                    let toss = |&i: &usize| toss_of[i];
                    HandEvent {
                        time: e.time * beat,
                        position: event_point(
                            &plan,
                            e,
                            custom_of(hand.juggler),
                            sync(slot, e),
                            kind,
                        )
                        .local(hand.hand),
                        throws: e.throws.iter().filter_map(toss).collect(),
                        catches: e.catches.iter().filter_map(toss).collect(),
                    }
                })
                .collect()
        })
        .collect();
    for (i, k) in toss_of.iter().enumerate() {
        if let Some(k) = *k {
            tosses[k].release_offset = throw_offset[i];
            tosses[k].catch_offset = catch_offset[i];
        }
    }

    let mut paths = orbit::tracks(
        &plan,
        schedule,
        &catch_offset,
        &throw_offset,
        &toss_of,
        beat,
    );
    spread_held_props(&mut paths, &mut tosses, hand_period);
    for (p, path) in paths.iter().enumerate() {
        for s in &path.segments {
            if let PathSegment::Air { toss, .. } = *s {
                tosses[toss].path = p;
            }
        }
    }
    Choreography {
        hand_period,
        jugglers: placements
            .into_iter()
            .enumerate()
            .map(|(j, p)| match moves.get(j) {
                Some(Some(m)) if !m.keys.is_empty() => JugglerPath {
                    keys: m.keys.iter().map(|&(b, p)| (b * beat, p)).collect(),
                    period: f64::from(m.period.max(1)) * beat,
                },
                _ => JugglerPath {
                    keys: vec![(0.0, p)],
                    period: hand_period,
                },
            })
            .collect(),
        hands,
        tosses,
        paths,
        lifts: Vec::new(),
        hands_carry: Vec::new(),
        lane_copies: 1,
    }
}

/// How far (metres) a hand sinks from the first to the last of the catches it gathers one
/// after another for one multiplex throw (half above its catch height, half below).
pub(crate) const GATHER_DROP: f64 = 0.06;

/// How much further in front of the body than Juggling Lab's hand plane (0.30 m) hands work
/// with clubs, metres. A club spins about its centre of mass, which flies about 15 cm in front
/// of the hand (the hand grips the handle, the club points forward), and its tip sweeps 28.5 cm
/// around it (plus 4.2 cm of its body's radius): a club spinning at chest or head height needs
/// its centre of mass at least 0.115 + 0.285 + 0.042 = 0.44 m in front of the body's axis to
/// miss the chest and the face whichever way it points. Club jugglers hold their forearms
/// about level, elbows at the sides, so the hands work about 40 cm in front of the body.
pub(crate) const CLUB_HANDS_FORWARD: f64 = 0.10;

/// How much further in front of the body than Juggling Lab's hand plane hands work with
/// balls and rings, metres. With the hands 30 cm in front of the body and 40 cm below the
/// shoulders, 41 cm arm segments put the elbow 10 cm behind the shoulders (Juggling Lab's
/// look, elbows against the back); 8 cm further forward the forearms are about level and the
/// elbows hang by the sides, 2–3 cm behind (gunswap's hand plane is 41 cm forward).
pub(crate) const BALL_HANDS_FORWARD: f64 = 0.08;

/// Moves every hand event of `ch` to where hands work with props of `kind` (juggler-local,
/// so every flight, hold and hand path moves with them): clubs `CLUB_HANDS_FORWARD` further
/// in front of the body, balls and rings `BALL_HANDS_FORWARD`.
pub(crate) fn place_for_prop(ch: &mut Choreography, kind: PropKind) {
    let forward = match kind {
        PropKind::Club => CLUB_HANDS_FORWARD,
        PropKind::Ball | PropKind::Ring => BALL_HANDS_FORWARD,
    };
    for event in ch.hands.iter_mut().flatten() {
        event.position.z += forward;
    }
}

/// Least distance from the centre line of a throw made while the other hand throws too (a
/// synchronous 4's, metres).
const SYNC_THROW_X: f64 = 0.10;

/// How far below the hand plane a hand throws a club's 1 (metres): the 1 is handed across
/// underneath. Thrown at the plane, the hand throwing `b97531`'s 1 stood under the low 3 it
/// catches next, whose tip, pointing down as the club turns, passed 2.5 cm into its forearm.
const CLUB_ONE_DROP: f64 = 0.10;

/// How far below the hand plane at least (metres) a hand throws a club's 1 from a given throw
/// point (Juggling Lab's `hands=`; a point lower still is kept): those points are a ball
/// juggler's, and a club handed across at them passes through the club the other hand has
/// just thrown. In `7131` and `913131` with Juggling Lab's hands the hand carrying
/// its 1 across meets the 3 the other hand has just thrown rising past it, whose knob,
/// swinging down as the club turns, is at the hand's height there (8.3 cm into the held club
/// 6 cm below the point, 2.0 cm clear at 16 cm); 441 Shuffle hands its 1 from 50 cm up, over
/// the club arriving in the other hand (7.6 cm deep; 3.3 cm clear); Mills Mess 315's and
/// `4[43]1`'s clubs met 4.6 and 3.1 cm deep at the plane. Measured over Juggling Lab's lists
/// with clubs: 6 cm below the point cleared Mills Mess 315 and `4[43]1` only, 10 and 12 cm
/// below the plane leave `7131` 4.7 and 2.4 cm deep, 14 cm clears it but holds its club 9.8 cm
/// beside the fist as the hand dives after the catch (3.7 cm at 16), 18 cm put Mills Mess
/// Box's clubs 1.2 cm into each other. The cost at 16: Mills Mess Box's crossed hand hands its
/// 1 beside the club the other hand holds, the two held clubs 2.3 cm into each other (1.2 cm
/// apart 6 cm below the point).
const CLUB_ONE_DROP_GIVEN: f64 = 0.16;

/// The point (in hand terms) of one plan event: a throw point when it throws, else a
/// catch point; custom dwell points when given (cycled over the juggler's beats as Juggling
/// Lab's `hands=` entries, see `plan::HandEvent::dwell_index`).
///
/// Two hands throwing at once (a synchronous beat) throw at least `SYNC_THROW_X` out:
/// Juggling Lab's table puts the throws of 6 and higher 5 cm from the centre line, made for
/// hands taking turns; both hands there at once would hold their props against each other and
/// cross their forearms.
///
/// With clubs a synchronous `2x` (the box's, the shower's, the shuffle's) leaves from where a
/// 2 is caught, `catch_x(2)` = 25 cm out, not 17: the hands stay at their sides and the club
/// flies straight across. Thrown from 17 cm, its tip, swinging down and back under its centre
/// halfway across, met the catching hand's forearm 0.125 s before the catch (1.4–2.1 cm deep).
/// With clubs a 1 is handed across `CLUB_ONE_DROP` below the hand plane, under the club
/// arriving in that hand next (at least `CLUB_ONE_DROP_GIVEN` below the plane from a given
/// throw point).
fn event_point(
    plan: &Plan,
    event: &plan::HandEvent,
    custom: &[DwellSpec],
    sync: bool,
    kind: PropKind,
) -> HandPoint {
    // A club's 1 thrown alone or with other 1s is handed across low.
    let club_one = kind == PropKind::Club
        && !event.throws.is_empty()
        && event.throws.iter().all(|&i| plan.juggler_value(i) == 1);
    if !custom.is_empty() {
        let spec = custom[event.dwell_index % custom.len()];
        return if event.at_throw {
            let mut point = spec.throw;
            if club_one {
                point.up = point.up.min(-CLUB_ONE_DROP_GIVEN);
            }
            point
        } else {
            spec.catch
        };
    }
    let mean = |xs: Vec<f64>| xs.iter().sum::<f64>() / xs.len().max(1) as f64;
    if event.throws.is_empty() {
        // Props gathered one after another for one multiplex are caught with the hand
        // sinking `GATHER_DROP` from the first catch to the last, as it gives once for them
        // all, instead of rising again after each.
        let xs = event
            .catches
            .iter()
            .map(|&i| catch_x(plan.juggler_value(i)))
            .collect();
        let mut point = HandPoint::on_plane(mean(xs));
        if let Some((k, count)) = event.catches.iter().find_map(|&i| plan.gathered[i]) {
            point.up = GATHER_DROP * (0.5 - k as f64 / (count - 1).max(1) as f64);
        }
        point
    } else {
        let xs = event
            .throws
            .iter()
            .map(|&i| {
                let t = &plan.throws[i];
                let (value, crossing) = (plan.juggler_value(i), t.to.hand != t.from.hand);
                if sync && crossing && value == 2 && kind == PropKind::Club {
                    catch_x(2)
                } else {
                    throw_x(value, crossing)
                }
            })
            .collect();
        let out = mean(xs);
        let mut point = HandPoint::on_plane(if sync { out.max(SYNC_THROW_X) } else { out });
        if club_one {
            point.up = -CLUB_ONE_DROP;
        }
        point
    }
}

/// The placement of every juggler: the layout's, or the default circle's where the layout
/// has none or a non-finite one.
fn placements(layout: &Layout, jugglers: usize) -> Vec<Placement> {
    let circle = Layout::circle(jugglers);
    (0..jugglers)
        .map(|j| match layout.jugglers.get(j) {
            Some(p) if p.position.is_finite() && p.facing.is_finite() => *p,
            _ => circle.jugglers.get(j).copied().unwrap_or(ORIGIN),
        })
        .collect()
}

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// Least common multiple (saturating).
pub(super) fn lcm(a: u128, b: u128) -> u128 {
    (a / gcd(a, b).max(1)).saturating_mul(b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::motion::lanes::MULTIPLEX_SPREAD;
    use crate::motion::testutil::async_schedule;
    use crate::motion::Motion;
    use crate::types::Hand;
    use glam::Vec3;

    /// The choreography of the solo siteswap `pattern` at `bps`, dwell 1.3, and its timing.
    fn solo(pattern: &str, bps: f64) -> (Choreography, Timing) {
        let timing = Timing {
            bps,
            dwell: 1.3,
            gravity: 9.81,
        };
        let ch = from_schedule(&async_schedule(pattern), timing, &Layout::circle(1), &[]);
        (ch, timing)
    }

    fn cascade() -> (Choreography, Timing) {
        solo("3", 2.9)
    }

    /// Props a hand gathers one after another for a multiplex (`SQUEEZE_BEATS`) are caught at
    /// their own catch points across (`[234]57`'s right hand: the 7 at 50 cm, the 5 at 45, the
    /// 3 at 30, as Juggling Lab's throw-height table has them), the hand sinking
    /// `GATHER_DROP` from the first catch to the last.
    #[test]
    fn props_gathered_for_a_multiplex_are_caught_sinking() {
        let (ch, _) = solo("[234]57", 3.85);
        let right = &ch.hands[HandRef::new(0, Hand::Right).slot()];
        let catches: Vec<&HandEvent> = right.iter().filter(|e| e.throws.is_empty()).collect();
        let gathered: Vec<&&HandEvent> = catches
            .iter()
            .filter(|e| {
                catches
                    .iter()
                    .any(|o| !std::ptr::eq(**e, *o) && (o.time - e.time).abs() < 0.11)
            })
            .collect();
        assert_eq!(gathered.len(), 3, "{right:?}");
        let xs: Vec<f64> = gathered.iter().map(|e| e.position.x).collect();
        let ys: Vec<f64> = gathered.iter().map(|e| e.position.y).collect();
        // Right hand: x negative, juggler-local.
        for (x, want) in xs.iter().zip([-0.50, -0.45, -0.30]) {
            assert!((x - want).abs() < 1e-9, "{xs:?}");
        }
        assert!((ys[0] - ys[1] - 0.5 * GATHER_DROP).abs() < 1e-9, "{ys:?}");
        assert!((ys[1] - ys[2] - 0.5 * GATHER_DROP).abs() < 1e-9, "{ys:?}");
        // A lone catch keeps its height.
        let lone = catches.iter().find(|e| !gathered.contains(e)).unwrap();
        assert!((lone.position.y - ys[1]).abs() < 1e-9, "{lone:?} {ys:?}");
    }

    #[test]
    fn a_cascade_becomes_two_tosses_and_four_hand_events_in_seconds() {
        let (ch, _) = cascade();
        let beat = 1.0 / 2.9;
        assert!((ch.hand_period - 2.0 * beat).abs() < 1e-15);
        assert_eq!(ch.tosses.len(), 2);
        let right = &ch.hands[HandRef::new(0, Hand::Right).slot()];
        assert_eq!(right.len(), 2);
        // Throw at 0 from 12 cm right of centre, catch 0.7 beat later 30 cm out (JL's table).
        assert_eq!(right[0].time, 0.0);
        assert!((right[0].position - DVec3::new(-0.12, 1.0, 0.3)).length() < 1e-12);
        assert!((right[1].time - 0.7 * beat).abs() < 1e-12);
        assert!((right[1].position - DVec3::new(-0.30, 1.0, 0.3)).length() < 1e-12);
        let toss = &ch.tosses[right[0].throws[0]];
        assert_eq!((toss.from.hand, toss.to.hand), (Hand::Right, Hand::Left));
        assert!((toss.catch - toss.release - 1.7 * beat).abs() < 1e-12);
        assert_eq!(
            (toss.value, toss.kind, toss.spins),
            (Some(3), TossKind::Toss, None)
        );
        // One path of three props; every toss belongs to it.
        assert_eq!(ch.paths.len(), 1);
        assert_eq!(ch.paths[0].props, 3);
        assert!((ch.paths[0].cycle - 6.0 * beat).abs() < 1e-12);
    }

    #[test]
    fn club_hands_work_ten_and_ball_hands_eight_centimetres_further_in_front() {
        let (balls, timing) = cascade();
        let mut clubs = balls.clone();
        place_for_prop(&mut clubs, PropKind::Club);
        for (a, b) in balls
            .hands
            .iter()
            .flatten()
            .zip(clubs.hands.iter().flatten())
        {
            assert!((b.position - a.position - DVec3::Z * 0.10).length() < 1e-12);
            assert_eq!(
                (a.time, &a.throws, &a.catches),
                (b.time, &b.throws, &b.catches)
            );
        }
        // The right hand throws 40 cm in front of the body's axis; the flight and the hands
        // move with it (a club's centre of mass then flies ≥ 45 cm in front).
        let right = &clubs.hands[HandRef::new(0, Hand::Right).slot()];
        assert!((right[0].position - DVec3::new(-0.12, 1.0, 0.4)).length() < 1e-12);
        let m = Motion::from_events(&clubs, timing);
        let s = m.state_at(1e-9);
        assert!(
            s.props
                .iter()
                .any(|p| p.held_by.is_none()
                    && p.position.distance(Vec3::new(-0.12, 1.0, 0.4)) < 1e-5)
        );
        // Balls and rings work 8 cm in front of Juggling Lab's hand plane.
        for kind in [PropKind::Ball, PropKind::Ring] {
            let mut moved = balls.clone();
            place_for_prop(&mut moved, kind);
            for (a, b) in balls
                .hands
                .iter()
                .flatten()
                .zip(moved.hands.iter().flatten())
            {
                assert!((b.position - a.position - DVec3::Z * 0.08).length() < 1e-12);
            }
        }
    }

    #[test]
    fn the_held_2_of_32_1_keeps_a_lane_beside_the_next_catch_and_slides_over_smoothly() {
        let (ch, timing) = solo("[32]1", 2.9);
        // The hold in the right hand lasts 3.3 beats, longer than the 2-beat hand period: cut
        // at the throws into a first piece (1.3 beats), a slide (0.35 beat: half of the 0.7
        // beat before the next catch) and the last period's rest.
        let beat = 1.0 / 2.9;
        let right = HandRef::new(0, Hand::Right).slot();
        let pieces: Vec<(f64, f64, f64)> = ch.paths[0]
            .segments
            .iter()
            .filter_map(|s| match *s {
                PathSegment::Held {
                    start,
                    end,
                    hand,
                    offset0,
                    offset1,
                } if hand == right => Some(((end - start) / beat, offset0.x, offset1.x)),
                _ => None,
            })
            .collect();
        let h = MULTIPLEX_SPREAD / 2.0;
        let want = [(1.3, h, h), (0.35, h, -h), (1.65, -h, -h)];
        assert_eq!(pieces.len(), 3, "{pieces:?}");
        // The left hand, which holds one prop at a time, keeps it at the hand.
        let left = HandRef::new(0, Hand::Left).slot();
        assert!(ch.paths[0].segments.iter().all(|s| match *s {
            PathSegment::Held {
                hand,
                offset0,
                offset1,
                ..
            } => hand != left || offset0 == DVec3::ZERO && offset1 == DVec3::ZERO,
            PathSegment::Air { .. } => true,
        }));
        for (got, want) in pieces.iter().zip(want) {
            assert!(
                (got.0 - want.0).abs() < 1e-9
                    && (got.1 - want.1).abs() < 1e-12
                    && (got.2 - want.2).abs() < 1e-12,
                "{pieces:?}"
            );
        }
        // Sampled: two props in the right hand are always a lane apart, and a held prop never
        // jumps in the hand; its dwell progress runs once from 0 to 1 over the whole hold.
        let m = Motion::from_events(&ch, timing);
        let dt = m.loop_duration() / 4000.0;
        let mut last: Option<crate::motion::MotionState> = None;
        for k in 0..=4000 {
            let s = m.state_at(k as f64 * dt);
            let hand = s.hands[0][Hand::Right.index()].position;
            let held: Vec<_> = s
                .props
                .iter()
                .filter(|p| p.held_by == Some(HandRef::new(0, Hand::Right)))
                .collect();
            if held.len() == 2 {
                let d = held[0].position.distance(held[1].position);
                assert!(d > 0.105 - 1e-5, "t={}: {d}", s.time);
            }
            if let Some(prev) = &last {
                let before = prev.hands[0][Hand::Right.index()].position;
                for (p, q) in s.props.iter().zip(&prev.props) {
                    if p.held_by.is_some() && q.held_by == p.held_by {
                        let moved = (p.position - hand).distance(q.position - before);
                        assert!(moved < 0.002, "t={}: {moved}", s.time);
                        assert!(p.dwell_progress >= q.dwell_progress);
                    }
                }
            }
            last = Some(s);
        }
    }
}
