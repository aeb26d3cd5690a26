//! The event layer: one description of a pattern between its source (siteswap schedule,
//! `hands=`/`body=`, hss, JML events) and the motion engine.
//!
//! A [`Choreography`] says, in seconds and metres, which hand throws, catches or holds which
//! prop, when, and where (in the juggler's own frame), and where every juggler stands over
//! time. Every source builds one (`from_schedule` here; the JML event reader in `files`), and
//! [`super::Motion::from_events`] alone turns it into continuous motion (flights, hand paths,
//! prop time lines).
//!
//! Conventions: times in seconds; hand events lie in `[0, hand_period)`; positions are
//! juggler-local (`layout` frame: y up, facing +z, right hand at negative x) in metres; a
//! juggler's placement maps them into the world at the event's time.

use glam::{DVec3, Vec3};

use super::flight::BounceMode;
use super::hand_path;
use super::orbit;
use super::plan::{hand_of_slot, Plan};
use super::positions::{self, DwellSpec};
use super::Timing;
use crate::layout::{Layout, Placement};
use crate::schedule::{Schedule, ThrowKind};
use crate::spec::DwellPoints;
use crate::types::{Hand, HandRef, PropKind};

/// Everything the motion engine needs to animate one pattern.
#[derive(Clone, Debug, PartialEq)]
pub struct Choreography {
    /// Seconds after which every hand repeats its events and every juggler its placement.
    pub hand_period: f64,
    /// Per juggler, where they stand and face over one hand period.
    pub jugglers: Vec<JugglerPath>,
    /// Per hand slot (`juggler * 2 + hand.index()`, see [`hand_slot`]), its events sorted by
    /// time in `[0, hand_period)`.
    pub hands: Vec<Vec<HandEvent>>,
    /// Every flight of one hand period.
    pub tosses: Vec<Toss>,
    /// The prop paths: each is the cycle of flights and holds its props go through.
    pub paths: Vec<PropPath>,
}

impl Choreography {
    /// Turns the lanes of props held or thrown together, which run along the juggler's
    /// left-right axis `MULTIPLEX_SPREAD` apart (every toss offset and held offset of
    /// [`from_schedule`]), to run along `direction` (juggler-local, unit) `spacing` metres
    /// apart: rings held together are stacked face to face, not side by side in one plane.
    pub fn restack_lanes(&mut self, direction: DVec3, spacing: f64) {
        let scale = spacing / hand_path::MULTIPLEX_SPREAD;
        let turn = |o: &mut DVec3| *o = DVec3::new(0.0, o.y, o.z) + direction * (o.x * scale);
        for t in &mut self.tosses {
            turn(&mut t.release_offset);
            turn(&mut t.catch_offset);
        }
        for path in &mut self.paths {
            for s in &mut path.segments {
                if let PathSegment::Held {
                    offset0, offset1, ..
                } = s
                {
                    turn(offset0);
                    turn(offset1);
                }
            }
        }
    }
}

/// One moment of a hand's cycle.
#[derive(Clone, Debug, PartialEq)]
pub struct HandEvent {
    /// Seconds in `[0, hand_period)`.
    pub time: f64,
    /// Where the hand is at `time`, juggler-local, metres.
    pub position: DVec3,
    /// Tosses released here (indices into `Choreography::tosses`).
    pub throws: Vec<usize>,
    /// Tosses caught here.
    pub catches: Vec<usize>,
}

/// How a prop flies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TossKind {
    /// A free parabola from release to catch.
    Toss,
    /// Off the floor.
    Bounce(BounceMode),
}

/// How a hand meets an arriving prop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CatchKind {
    /// The hand moves along the incoming prop (siteswap catches, JML `<catch>`).
    Catch,
    /// JML `<softcatch>`.
    Soft,
}

/// One flight: who throws it when and where, who catches it when and where.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Toss {
    pub from: HandRef,
    pub to: HandRef,
    /// Release and catch times (seconds) on one time line; `catch - release` is the flight
    /// time (positive). The release lies within about a beat of `[0, hand_period)`.
    pub release: f64,
    pub catch: f64,
    /// Offset of this prop from the throwing hand's event position (multiplexes are spread
    /// side by side), juggler-local.
    pub release_offset: DVec3,
    /// Offset of this prop from the catching hand's event position, juggler-local.
    pub catch_offset: DVec3,
    pub kind: TossKind,
    /// Gravity of this flight (m/s²) when it has its own (a JML throw's `g=`); `None` =
    /// the pattern's.
    pub gravity: Option<f64>,
    /// Fraction of its energy a bouncing prop keeps at each bounce (a JML throw's
    /// `bouncefrac=`); `None` = `flight::BOUNCE_ENERGY`.
    pub bounce_energy: Option<f64>,
    /// Height (m) of the surface a bounce hits (a JML throw's `bounceplane=`); `None` = the
    /// floor.
    pub bounce_plane: Option<f64>,
    pub catch_kind: CatchKind,
    /// Siteswap value in beats when the source has one.
    pub value: Option<u32>,
    /// Turns of a spinning prop in flight; `None` = automatic.
    pub spins: Option<f64>,
    /// Index into `Choreography::paths` of the path this flight belongs to.
    pub path: usize,
}

impl Toss {
    /// A plain toss from `from` at `release` to `to` at `catch` (seconds): thrown and caught
    /// at the hand's own event points, under the pattern's gravity, no bounce, spins chosen
    /// automatically, path 0.
    pub fn plain(from: HandRef, to: HandRef, release: f64, catch: f64) -> Self {
        Self {
            from,
            to,
            release,
            catch,
            release_offset: DVec3::ZERO,
            catch_offset: DVec3::ZERO,
            kind: TossKind::Toss,
            gravity: None,
            bounce_energy: None,
            bounce_plane: None,
            catch_kind: CatchKind::Catch,
            value: None,
            spins: None,
            path: 0,
        }
    }
}

/// One piece of a prop path; times in seconds on the path's own time line.
#[derive(Clone, Debug, PartialEq)]
pub enum PathSegment {
    /// In the air: flight `toss` (an index into `Choreography::tosses`).
    Air { start: f64, end: f64, toss: usize },
    /// In hand slot `hand`, offset from the hand (juggler-local) by `offset0` at `start`
    /// moving linearly to `offset1` at `end`.
    Held {
        start: f64,
        end: f64,
        hand: usize,
        offset0: DVec3,
        offset1: DVec3,
    },
}

impl PathSegment {
    pub fn start(&self) -> f64 {
        match self {
            PathSegment::Air { start, .. } | PathSegment::Held { start, .. } => *start,
        }
    }
}

/// The cycle of flights and holds some props travel; prop `p` of a path runs `p` hand
/// periods behind prop 0.
#[derive(Clone, Debug, PartialEq)]
pub struct PropPath {
    /// Segments in time order, covering `[segments[0].start(), + cycle)`; never empty.
    pub segments: Vec<PathSegment>,
    /// Seconds for one prop to come back to where it was.
    pub cycle: f64,
    /// Props travelling this path (`cycle / hand_period`).
    pub props: usize,
    /// The source's orbit number (`Schedule::orbits` index), for colours.
    pub orbit: usize,
}

impl PropPath {
    /// The segment prop `p` is in at time `t` (seconds), and the time on the path's line.
    pub fn locate(&self, p: usize, hand_period: f64, t: f64) -> (&PathSegment, f64) {
        let (i, tau) = self.locate_index(p, hand_period, t);
        (&self.segments[i], tau)
    }

    /// Like [`PropPath::locate`], with the segment's index.
    pub fn locate_index(&self, p: usize, hand_period: f64, t: f64) -> (usize, f64) {
        let t0 = self.segments[0].start();
        let tau = t0 + (t - p as f64 * hand_period - t0).rem_euclid(self.cycle);
        let i = self.segments.partition_point(|s| s.start() <= tau).max(1) - 1;
        (i, tau)
    }
}

/// Where one juggler stands over time.
#[derive(Clone, Debug, PartialEq)]
pub struct JugglerPath {
    /// Keyframes `(time in [0, period), placement)` sorted by time; never empty. `at` moves
    /// linearly between keyframes (facing the short way round), cyclically; `Motion` turns the
    /// same way but moves the position along a smooth periodic curve through the keyframes.
    pub keys: Vec<(f64, Placement)>,
    /// Seconds after which the path repeats.
    pub period: f64,
}

impl JugglerPath {
    /// A juggler who never moves.
    pub fn fixed(placement: Placement) -> Self {
        JugglerPath {
            keys: vec![(0.0, placement)],
            period: 1.0,
        }
    }

    /// The placement at time `t` (any real number).
    pub fn at(&self, t: f64) -> Placement {
        let n = self.keys.len();
        if n <= 1 || self.period.is_nan() || self.period <= 0.0 {
            return self.keys.first().map_or(ORIGIN, |k| k.1);
        }
        let t0 = self.keys[0].0;
        let local = t0 + (t - t0).rem_euclid(self.period);
        let i = self.keys.partition_point(|k| k.0 <= local).max(1) - 1;
        let j = (i + 1) % n;
        let (ta, a) = self.keys[i];
        let (mut tb, b) = self.keys[j];
        if j == 0 {
            tb += self.period;
        }
        let f = if tb > ta {
            ((local - ta) / (tb - ta)).clamp(0.0, 1.0) as f32
        } else {
            0.0
        };
        let turn = (b.facing - a.facing + std::f32::consts::PI).rem_euclid(std::f32::consts::TAU)
            - std::f32::consts::PI;
        Placement {
            position: a.position.lerp(b.position, f),
            facing: a.facing + turn * f,
        }
    }
}

const ORIGIN: Placement = Placement {
    position: Vec3::ZERO,
    facing: 0.0,
};

/// Index of a hand in flat per-hand arrays: `juggler * 2 + hand.index()`.
pub fn hand_slot(h: HandRef) -> usize {
    super::plan::hand_slot(h)
}

/// The hand of a flat per-hand index (the inverse of [`hand_slot`]).
pub fn hand_of(slot: usize) -> HandRef {
    hand_of_slot(slot)
}

/// The events of a valid siteswap `schedule` at `timing`, jugglers placed by `layout`
/// (missing placements from the default circle), at custom dwell points when `hand_positions`
/// is not empty (cycled over each juggler's tosses), else Juggling Lab's table by throw value.
pub fn from_schedule(
    schedule: &Schedule,
    timing: Timing,
    layout: &Layout,
    hand_positions: &[DwellPoints],
) -> Choreography {
    from_schedule_per_juggler(schedule, timing, layout, &[hand_positions.to_vec()])
}

/// Like [`from_schedule`] with custom dwell points per juggler: juggler `j` uses
/// `hands[j % hands.len()]` (Juggling Lab's `hands=` with `|`); an empty list uses the
/// built-in positions.
pub fn from_schedule_per_juggler(
    schedule: &Schedule,
    timing: Timing,
    layout: &Layout,
    hands: &[Vec<DwellPoints>],
) -> Choreography {
    from_schedule_moving(schedule, timing, layout, hands, &[], &[])
}

/// Most repeats of a pattern made to fit its jugglers' `body=` cycles.
const MAX_BODY_COPIES: u128 = 256;

/// A juggler who moves over a cycle of beats (Juggling Lab's `body=`): placements at beat
/// times in `[0, period)`, repeating every `period` beats.
#[derive(Clone, Debug, PartialEq)]
pub struct BeatPath {
    pub period: u32,
    pub keys: Vec<(f64, Placement)>,
}

/// Like [`from_schedule_per_juggler`] with jugglers who move: juggler `j` follows
/// `moves[j]` when it is `Some` (else stands at the layout's place). As Juggling Lab does,
/// the hand period is made a whole number of every such cycle (the pattern repeated).
/// `beat_dwells`, when not empty, is the dwell before each beat's throw (hand siteswaps,
/// cycled), instead of `timing.dwell`.
pub fn from_schedule_moving(
    schedule: &Schedule,
    timing: Timing,
    layout: &Layout,
    hands: &[Vec<DwellPoints>],
    moves: &[Option<BeatPath>],
    beat_dwells: &[f64],
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
        let c = custom_copies(schedule, custom_of(j).len(), j);
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
    let plan = if beat_dwells.is_empty() {
        Plan::new(schedule, copies, timing.dwell)
    } else {
        Plan::with_beat_dwells(schedule, copies, timing.dwell, beat_dwells)
    };
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
    for (t, tt) in plan.throws.iter().zip(&plan.times) {
        let Some(tt) = tt else { continue };
        tosses.push(Toss {
            kind: match t.kind {
                ThrowKind::Bounce {
                    bounces,
                    forced,
                    hyper,
                } => TossKind::Bounce(BounceMode::from_kind(bounces, forced, hyper)),
                _ => TossKind::Toss,
            },
            value: Some(t.value),
            spins: t.spins.map(f64::from),
            ..Toss::plain(t.from, t.to, tt.release * beat, tt.catch * beat)
        });
    }

    // Event points and the spread of props thrown or caught together.
    let mut throw_offset = vec![DVec3::ZERO; plan.throws.len()];
    let mut catch_offset = vec![DVec3::ZERO; plan.throws.len()];
    let hands = plan
        .hand_events
        .iter()
        .enumerate()
        .map(|(slot, events)| {
            let hand = hand_of_slot(slot);
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
                        position: hand_path::event_point(&plan, e, custom_of(hand.juggler))
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
    }
}

/// How much further in front of the body than Juggling Lab's hand plane (0.30 m) hands work
/// with clubs, metres. A club spins about its centre of mass, which flies about 15 cm in front
/// of the hand (the hand grips the handle, the club points forward), and its tip sweeps 28.5 cm
/// around it (plus 4.2 cm of its body's radius): a club spinning at chest or head height needs
/// its centre of mass at least 0.115 + 0.285 + 0.042 = 0.44 m in front of the body's axis to
/// miss the chest and the face whichever way it points. Club jugglers hold their forearms
/// about level, elbows at the sides, so the hands work about 40 cm in front of the body.
pub const CLUB_HANDS_FORWARD: f64 = 0.10;

/// Moves every hand event of `ch` to where hands work with props of `kind` (juggler-local,
/// so every flight, hold and hand path moves with them): clubs `CLUB_HANDS_FORWARD` further
/// in front of the body; balls and rings stay on Juggling Lab's hand plane.
pub fn place_for_prop(ch: &mut Choreography, kind: PropKind) {
    let forward = match kind {
        PropKind::Club => CLUB_HANDS_FORWARD,
        PropKind::Ball | PropKind::Ring => return,
    };
    for event in ch.hands.iter_mut().flatten() {
        event.position.z += forward;
    }
}

/// Offset of element `k` of `m` props thrown or caught together, along the juggler's own
/// left-right axis.
pub fn spread(k: usize, m: usize) -> DVec3 {
    if m <= 1 {
        return DVec3::ZERO;
    }
    DVec3::X * ((k as f64 - (m as f64 - 1.0) / 2.0) * hand_path::MULTIPLEX_SPREAD)
}

/// Props held at the same time in one hand sit in lanes `MULTIPLEX_SPREAD` apart across the
/// hand, each keeping its lane from its catch to its throw (so a squeezed catch or two props
/// meeting from different catches never overlap). Lanes are handed out per hand in order of
/// the holds (modulo the hand period), the lowest lane free of every hold overlapping this one;
/// a hand that never holds two props keeps its offsets (zero). The catch and release offsets
/// of the tosses at both ends of a hold follow its lanes, so flights still end and start
/// exactly at the prop. If a toss would need two lanes (not seen), its hold keeps the original
/// offsets. The JML event reader lanes its props the same way.
///
/// A hold longer than the hand period (the held 2 of `[32]1`: the prop caught from the 1 is
/// still in the hand when the next one arrives) overlaps its own path's next prop, so it is cut
/// into pieces at the hand's throws: the last piece (one period, ending at the throw) and the
/// first (from the catch) get different lanes, and when the throw frees the last piece's lane
/// the prop behind slides over into it during the first half of the time before the next
/// catch ([`hold_pieces`]).
pub fn spread_held_props(paths: &mut [PropPath], tosses: &mut [Toss], period: f64) {
    // Every piece of every hold: (hand, start modulo the period, how long it takes its lane).
    let mut pieces: Vec<(usize, f64, f64)> = Vec::new();
    // Per path and segment, the pieces of a hold (indices into `pieces`) and their bounds.
    type Cut = Option<(Vec<usize>, HoldPieces)>;
    let mut cut: Vec<Vec<Cut>> = Vec::with_capacity(paths.len());
    for path in paths.iter() {
        let flies = path
            .segments
            .iter()
            .any(|s| matches!(s, PathSegment::Air { .. }));
        let mut per_segment = Vec::with_capacity(path.segments.len());
        for seg in &path.segments {
            let PathSegment::Held {
                start, end, hand, ..
            } = *seg
            else {
                per_segment.push(None);
                continue;
            };
            if end.partial_cmp(&start) != Some(std::cmp::Ordering::Greater) {
                per_segment.push(None);
                continue;
            }
            let split = if flies {
                hold_pieces(start, end, period)
            } else {
                // Held forever: one piece, never thrown.
                HoldPieces {
                    bounds: vec![start, end],
                    slide: 0.0,
                }
            };
            let mut ids = Vec::new();
            for w in 0..split.bounds.len() - 1 {
                let (a, b) = (split.bounds[w], split.bounds[w + 1]);
                // A piece that slides out keeps its lane until the slide is over.
                let out = if w + 2 < split.bounds.len() {
                    split.slide
                } else {
                    0.0
                };
                ids.push(pieces.len());
                pieces.push((hand, phase(a, period), (b - a + out).min(period)));
            }
            per_segment.push(Some((ids, split)));
        }
        cut.push(per_segment);
    }
    let lanes = assign_lanes(&pieces, period);
    // Lanes per hand; a hand that never holds two props at once keeps its offsets.
    let mut count: std::collections::HashMap<usize, usize> = Default::default();
    for (q, &l) in pieces.iter().zip(&lanes) {
        let c = count.entry(q.0).or_insert(1);
        *c = (*c).max(l + 1);
    }
    let offsets: Vec<Option<DVec3>> = pieces
        .iter()
        .zip(&lanes)
        .map(|(q, &l)| {
            let c = count.get(&q.0).copied().unwrap_or(1);
            (c >= 2).then(|| spread(l, c))
        })
        .collect();
    // Each toss's catch and release lane; a toss asked for two different lanes keeps its own.
    let n = tosses.len();
    let mut catch_lane: Vec<Option<DVec3>> = vec![None; n];
    let mut release_lane: Vec<Option<DVec3>> = vec![None; n];
    let mut conflict = vec![false; n];
    // The tosses before and after segment `k`.
    let ends = |segments: &[PathSegment], k: usize| {
        let m = segments.len();
        let toss_of = |s: &PathSegment| match *s {
            PathSegment::Air { toss, .. } => Some(toss).filter(|&t| t < n),
            PathSegment::Held { .. } => None,
        };
        (
            toss_of(&segments[(k + m - 1) % m]),
            toss_of(&segments[(k + 1) % m]),
        )
    };
    // The lanes of a cut hold's first and last pieces, when it has lanes.
    let first_last = |ids: &[usize]| -> Option<(DVec3, DVec3)> {
        Some((offsets[*ids.first()?]?, offsets[*ids.last()?]?))
    };
    for (p, per_segment) in cut.iter().enumerate() {
        for (k, entry) in per_segment.iter().enumerate() {
            let Some((first, last)) = entry.as_ref().and_then(|(ids, _)| first_last(ids)) else {
                continue;
            };
            let (before, after) = ends(&paths[p].segments, k);
            for (toss, lane, slot) in [
                (before, first, &mut catch_lane),
                (after, last, &mut release_lane),
            ] {
                if let Some(t) = toss {
                    match slot[t] {
                        Some(l) if l.distance(lane) > 1e-9 => conflict[t] = true,
                        _ => slot[t] = Some(lane),
                    }
                }
            }
        }
    }
    for (p, per_segment) in cut.into_iter().enumerate() {
        let old = std::mem::take(&mut paths[p].segments);
        let mut segments = Vec::with_capacity(old.len());
        for (k, (seg, entry)) in old.iter().zip(per_segment).enumerate() {
            let (before, after) = ends(&old, k);
            let lanes_of = entry.as_ref().and_then(|(ids, _)| {
                ids.iter()
                    .map(|&i| offsets[i])
                    .collect::<Option<Vec<DVec3>>>()
            });
            let (Some(lanes), Some((_, split)), PathSegment::Held { hand, .. }) =
                (lanes_of, entry, seg)
            else {
                segments.push(seg.clone());
                continue;
            };
            if [before, after]
                .iter()
                .any(|t| t.is_some_and(|t| conflict[t]))
            {
                segments.push(seg.clone());
                continue;
            }
            if let Some(t) = before {
                tosses[t].catch_offset = lanes[0];
            }
            if let Some(t) = after {
                tosses[t].release_offset = lanes[lanes.len() - 1];
            }
            let held = |start, end, offset0, offset1| PathSegment::Held {
                start,
                end,
                hand: *hand,
                offset0,
                offset1,
            };
            for (w, &lane) in lanes.iter().enumerate() {
                let (a, b) = (split.bounds[w], split.bounds[w + 1]);
                if w > 0 && split.slide > 0.0 {
                    segments.push(held(a, a + split.slide, lanes[w - 1], lane));
                    segments.push(held(a + split.slide, b, lane, lane));
                } else {
                    segments.push(held(a, b, lane, lane));
                }
            }
        }
        paths[p].segments = segments;
    }
}

/// Where `t` falls in a cycle of `period` seconds, in `[0, period)`; a time a rounding error
/// short of a whole number of periods (a piece of a long hold starting one period before its
/// throw at the end of the loop, or times read back from JML's microseconds) is 0, so the
/// lanes do not depend on how the loop's times were rounded.
fn phase(t: f64, period: f64) -> f64 {
    let p = t.rem_euclid(period);
    if period - p < 1e-6 {
        0.0
    } else {
        p
    }
}

/// The lane of every hold `(hand, start modulo period, length ≤ period)`: in order of hand and
/// start, the lowest lane free of every earlier hold of the same hand it overlaps (circular
/// intervals modulo `period`).
fn assign_lanes(holds: &[(usize, f64, f64)], period: f64) -> Vec<usize> {
    let mut order: Vec<usize> = (0..holds.len()).collect();
    order.sort_by(|&a, &b| {
        let (a, b) = (holds[a], holds[b]);
        a.0.cmp(&b.0).then(a.1.total_cmp(&b.1))
    });
    let overlaps = |a: (usize, f64, f64), b: (usize, f64, f64)| {
        (b.1 - a.1).rem_euclid(period) < a.2 - 1e-9 || (a.1 - b.1).rem_euclid(period) < b.2 - 1e-9
    };
    let mut lanes = vec![0usize; holds.len()];
    let mut used = Vec::new();
    // First position in `order` of the current hand, longest of its holds so far.
    let (mut first, mut longest) = (0, 0.0f64);
    for n in 0..order.len() {
        let i = order[n];
        let (hand, start, length) = holds[i];
        if holds[order[first]].0 != hand {
            (first, longest) = (n, 0.0);
        }
        used.clear();
        // Earlier holds reaching this one's start, and (around the period) holds at the
        // start of the period this one reaches.
        for &j in order[first..n].iter().rev() {
            if start - holds[j].1 >= longest {
                break;
            }
            if overlaps(holds[j], holds[i]) {
                used.push(lanes[j]);
            }
        }
        for &j in &order[first..n] {
            if holds[j].1 + period - start >= length {
                break;
            }
            if overlaps(holds[j], holds[i]) {
                used.push(lanes[j]);
            }
        }
        lanes[i] = (0..).find(|l| !used.contains(l)).unwrap_or(0);
        longest = longest.max(length);
    }
    lanes
}

/// How a hold from `start` to `end` (seconds, `end > start`) is cut at the hand's throws.
#[derive(Clone, Debug, PartialEq)]
struct HoldPieces {
    /// Piece `w` runs from `bounds[w]` to `bounds[w + 1]`; every piece but the first lasts
    /// one period and ends (modulo the period) at the hold's throw.
    bounds: Vec<f64>,
    /// Seconds at the start of every piece but the first in which the prop slides over from
    /// the previous piece's lane: half the time from the throw to the next catch.
    slide: f64,
}

/// Cuts a hold longer than one hand period `period` into one period pieces ending at its
/// throw (modulo the period), the first piece taking the rest; a shorter hold is one piece.
fn hold_pieces(start: f64, end: f64, period: f64) -> HoldPieces {
    let length = end - start;
    if period.is_nan() || period <= 0.0 || length <= period + 1e-9 {
        return HoldPieces {
            bounds: vec![start, end],
            slide: 0.0,
        };
    }
    let count = ((length - 1e-9) / period).ceil().min(64.0) as usize;
    let mut bounds = vec![start];
    for w in 1..count {
        bounds.push(end - (count - w) as f64 * period);
    }
    bounds.push(end);
    HoldPieces {
        bounds,
        slide: 0.5 * (count as f64 * period - length).max(0.0),
    }
}

/// Where a hand with nothing to do rests, juggler-local.
pub fn rest_position(hand: Hand) -> DVec3 {
    positions::HandPoint::on_plane(positions::REST_X).local(hand)
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

/// How many schedule periods one hand period spans so that `custom` dwell points, cycled over
/// juggler `juggler`'s tosses, repeat with the pattern.
fn custom_copies(schedule: &Schedule, custom: usize, juggler: usize) -> u32 {
    if custom <= 1 {
        return 1;
    }
    let mut slots: std::collections::BTreeSet<(usize, Hand, u32)> = Default::default();
    for t in schedule
        .throws
        .iter()
        .filter(|t| t.kind != ThrowKind::Hold && t.from.juggler == juggler)
    {
        slots.insert((t.from.juggler, t.from.hand, t.beat));
    }
    let mut per_juggler: std::collections::BTreeMap<usize, u128> = Default::default();
    for (j, _, _) in slots {
        *per_juggler.entry(j).or_default() += 1;
    }
    let len = custom as u128;
    let copies = per_juggler
        .values()
        .fold(1u128, |acc, &c| lcm(acc, len / gcd(len, c)));
    copies.min(u32::MAX as u128) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::motion::testutil::async_schedule;
    use crate::motion::Motion;

    fn cascade() -> (Choreography, Timing) {
        let timing = Timing {
            bps: 2.9,
            dwell: 1.3,
            gravity: 9.81,
        };
        let ch = from_schedule(&async_schedule("3"), timing, &Layout::circle(1), &[]);
        (ch, timing)
    }

    #[test]
    fn a_cascade_becomes_two_tosses_and_four_hand_events_in_seconds() {
        let (ch, _) = cascade();
        let beat = 1.0 / 2.9;
        assert!((ch.hand_period - 2.0 * beat).abs() < 1e-15);
        assert_eq!(ch.tosses.len(), 2);
        let right = &ch.hands[hand_slot(HandRef::new(0, Hand::Right))];
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
    fn club_hands_work_ten_centimetres_further_in_front() {
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
        let right = &clubs.hands[hand_slot(HandRef::new(0, Hand::Right))];
        assert!((right[0].position - DVec3::new(-0.12, 1.0, 0.4)).length() < 1e-12);
        let m = Motion::from_events(&clubs, timing);
        let s = m.state_at(1e-9);
        assert!(
            s.props
                .iter()
                .any(|p| p.held_by.is_none()
                    && p.position.distance(Vec3::new(-0.12, 1.0, 0.4)) < 1e-5)
        );
        // Balls and rings stay on Juggling Lab's hand plane.
        for kind in [PropKind::Ball, PropKind::Ring] {
            let mut same = balls.clone();
            place_for_prop(&mut same, kind);
            assert_eq!(same, balls);
        }
    }

    #[test]
    fn the_held_2_of_32_1_keeps_a_lane_beside_the_next_catch_and_slides_over_smoothly() {
        let timing = Timing {
            bps: 2.9,
            dwell: 1.3,
            gravity: 9.81,
        };
        let ch = from_schedule(&async_schedule("[32]1"), timing, &Layout::circle(1), &[]);
        // The hold in the right hand lasts 3.3 beats, longer than the 2-beat hand period: cut
        // at the throws into a first piece (1.3 beats), a slide (0.35 beat: half of the 0.7
        // beat before the next catch) and the last period's rest.
        let beat = 1.0 / 2.9;
        let right = hand_slot(HandRef::new(0, Hand::Right));
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
        let h = hand_path::MULTIPLEX_SPREAD / 2.0;
        let want = [(1.3, h, h), (0.35, h, -h), (1.65, -h, -h)];
        assert_eq!(pieces.len(), 3, "{pieces:?}");
        // The left hand, which holds one prop at a time, keeps it at the hand.
        let left = hand_slot(HandRef::new(0, Hand::Left));
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

    #[test]
    fn held_lanes_do_not_depend_on_the_loop_end_rounding() {
        // [32]1's one path as juggler's JML reader builds it from the file's microseconds
        // (loop 2.068965 s of three 0.689655 s hand periods) and as the siteswap times give
        // it (2.9 beats/s): the long hold's last piece starts one period before the loop's
        // end, which modulo the period is 0 (or a rounding error short of 0.689655). Both
        // must give the same lanes: the long-held prop outside, the next catch beside it.
        let right = HandRef::new(0, Hand::Right);
        let left = HandRef::new(0, Hand::Left);
        let lanes = |beat: f64, round: bool| {
            let r = |t: f64| if round { (t * 1e6).round() / 1e6 } else { t };
            let period = r(2.0 * beat);
            let at = |beats: f64| r(beats * beat);
            let toss = |from, to, release, catch| Toss::plain(from, to, release, catch);
            let mut tosses = vec![
                toss(right, left, 0.0, at(1.7)),
                toss(left, right, at(2.4), at(2.7)),
            ];
            let held = |start, end, hand| PathSegment::Held {
                start,
                end,
                hand: hand_slot(hand),
                offset0: DVec3::ZERO,
                offset1: DVec3::ZERO,
            };
            let mut paths = vec![PropPath {
                segments: vec![
                    PathSegment::Air {
                        start: 0.0,
                        end: at(1.7),
                        toss: 0,
                    },
                    held(at(1.7), at(2.4), left),
                    PathSegment::Air {
                        start: at(2.4),
                        end: at(2.7),
                        toss: 1,
                    },
                    held(at(2.7), 3.0 * period, right),
                ],
                cycle: 3.0 * period,
                props: 3,
                orbit: 0,
            }];
            spread_held_props(&mut paths, &mut tosses, period);
            // Catch lane of the 1 and release lane of the held 2.
            (tosses[1].catch_offset.x, tosses[0].release_offset.x)
        };
        let h = hand_path::MULTIPLEX_SPREAD / 2.0;
        assert_eq!(lanes(1.0 / 2.9, false), (h, -h));
        assert_eq!(lanes(1.0 / 2.9, true), (h, -h));
    }

    #[test]
    fn juggler_paths_interpolate_position_and_turn_the_short_way() {
        let path = JugglerPath {
            keys: vec![
                (
                    0.0,
                    Placement {
                        position: Vec3::ZERO,
                        facing: 3.0,
                    },
                ),
                (
                    1.0,
                    Placement {
                        position: Vec3::new(2.0, 0.0, 0.0),
                        facing: -3.0,
                    },
                ),
            ],
            period: 4.0,
        };
        let mid = path.at(0.5);
        assert!((mid.position.x - 1.0).abs() < 1e-6);
        // From 3 rad to -3 rad the short way passes through π.
        assert!(
            (mid.facing - std::f32::consts::PI).abs() < 1e-5,
            "{}",
            mid.facing
        );
        // Back from the second key to the first over the remaining 3 s; periodic.
        assert!((path.at(2.5).position.x - 1.0).abs() < 1e-6);
        assert!((path.at(4.5).position.x - mid.position.x).abs() < 1e-6);
    }

    #[test]
    fn a_hand_made_choreography_passes_its_event_points_and_flies_ballistically() {
        // One ball: right throws at 0 s from (-0.2, 1, 0.3), left catches at 0.6 s at
        // (0.3, 1, 0.3) and throws it back at 1.0 s from (0.2, 1, 0.3), right catches at
        // 1.6 s; the right hand also passes (−0.4, 1.3, 0.2) at 1.8 s holding nothing.
        let (r, l) = (HandRef::new(0, Hand::Right), HandRef::new(0, Hand::Left));
        let toss = |from, to, release, catch| Toss::plain(from, to, release, catch);
        let ev = |time, x: f64, y, z, throws: Vec<usize>, catches: Vec<usize>| HandEvent {
            time,
            position: DVec3::new(x, y, z),
            throws,
            catches,
        };
        let ch = Choreography {
            hand_period: 2.0,
            jugglers: vec![JugglerPath::fixed(Placement {
                position: Vec3::new(1.0, 0.0, 0.0),
                facing: 0.0,
            })],
            hands: vec![
                vec![
                    ev(0.6, 0.3, 1.0, 0.3, vec![], vec![0]),
                    ev(1.0, 0.2, 1.0, 0.3, vec![1], vec![]),
                ],
                vec![
                    ev(0.0, -0.2, 1.0, 0.3, vec![0], vec![]),
                    ev(1.6, -0.3, 1.0, 0.3, vec![], vec![1]),
                    ev(1.8, -0.4, 1.3, 0.2, vec![], vec![]),
                ],
            ],
            tosses: vec![toss(r, l, 0.0, 0.6), toss(l, r, 1.0, 1.6)],
            paths: vec![PropPath {
                segments: vec![
                    PathSegment::Air {
                        start: 0.0,
                        end: 0.6,
                        toss: 0,
                    },
                    PathSegment::Held {
                        start: 0.6,
                        end: 1.0,
                        hand: 0,
                        offset0: DVec3::ZERO,
                        offset1: DVec3::ZERO,
                    },
                    PathSegment::Air {
                        start: 1.0,
                        end: 1.6,
                        toss: 1,
                    },
                    PathSegment::Held {
                        start: 1.6,
                        end: 2.0,
                        hand: 1,
                        offset0: DVec3::ZERO,
                        offset1: DVec3::ZERO,
                    },
                ],
                cycle: 2.0,
                props: 1,
                orbit: 0,
            }],
        };
        let m = Motion::from_events(
            &ch,
            Timing {
                bps: 1.0,
                dwell: 1.0,
                gravity: 9.81,
            },
        );
        assert_eq!((m.prop_count(), m.loop_duration()), (1, 2.0));
        let offset = DVec3::new(1.0, 0.0, 0.0);
        for (slot, events) in ch.hands.iter().enumerate() {
            for e in events {
                let h = m.hand_at(super::super::plan::hand_of_slot(slot), e.time);
                let want = e.position + offset;
                assert!(
                    (h.position.as_dvec3() - want).length() < 1e-5,
                    "slot {slot} at {}: {:?}",
                    e.time,
                    h.position
                );
            }
        }
        // In flight: a parabola from release to catch point, mid-way 9.81 × 0.3² / 2 higher.
        let mid = m.state_at(0.3).props[0];
        assert!(mid.held_by.is_none());
        let chord = DVec3::new(0.05, 1.0, 0.3) + offset;
        let rise = 9.81 * 0.3 * 0.3 / 2.0;
        assert!((mid.position.as_dvec3() - (chord + DVec3::Y * rise)).length() < 1e-5);
        // Held: at its hand; seamless over the loop.
        let held = m.state_at(0.8);
        assert_eq!(held.props[0].held_by, Some(l));
        assert!(held.props[0].position.distance(held.hands[0][0].position) < 1e-6);
        let again = m.state_at(0.8 + 2.0);
        assert!(held.props[0].position.distance(again.props[0].position) < 1e-5);
    }
}
