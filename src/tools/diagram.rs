//! Ladder diagrams: every hand a rail, time along the rails, each throw a line or arc from the
//! hand and beat that throws it to the hand and beat that catches it, coloured by orbit with
//! the animation's prop palette. The layout is plain data (`Ladder`); `ladder_svg` writes it
//! as a standalone SVG.

use std::fmt::Write as _;

use crate::notation::Pattern;
use crate::schedule::Schedule;
use crate::types::PALETTE;
use crate::types::{Hand, Rgba};

/// One throw drawn in the diagram.
#[derive(Clone, Debug, PartialEq)]
pub struct LadderArc {
    /// Index into `Schedule::throws`.
    pub throw: usize,
    pub from_rail: usize,
    pub to_rail: usize,
    /// Beat of the throw and of the catch (may lie outside the shown beats: clipped).
    pub start: i64,
    pub end: i64,
    pub value: u32,
    /// Orbit index (colour).
    pub orbit: usize,
    /// The throw as written (`5`, `3p`, `4x`; its value in siteswap digits until
    /// [`Ladder::written_as`] gives the notation).
    pub label: String,
}

/// A ladder diagram as data.
#[derive(Clone, Debug, PartialEq)]
pub struct Ladder {
    /// Rail names, top to bottom ("right", "left"; "J1 right" with several jugglers).
    pub rails: Vec<String>,
    /// Beats shown, from 0.
    pub beats: u32,
    pub period: u32,
    /// Beats of the diagram (the schedule's) per beat of a juggler: more than 1 for Prechac
    /// notation and shared siteswaps, whose beats are fine beats; the beat numbers under the
    /// rails and the arcs' labels count each juggler's beats (`0.5`, `3.5pB`).
    pub subdivision: u32,
    pub arcs: Vec<LadderArc>,
}

/// The label of beat `b` of a diagram with `subdivision` beats to a juggler's beat: the
/// juggler's beats (`1.5`, `0.33`).
pub fn beat_label(b: u32, subdivision: u32) -> String {
    crate::notation::Ratio::new(u64::from(b), u64::from(subdivision.max(1)))
        .map_or_else(|| b.to_string(), |r| r.to_string())
}

/// The rail of a hand: per juggler, right hand above left.
fn rail(juggler: usize, hand: Hand) -> usize {
    juggler * 2 + usize::from(hand == Hand::Left)
}

/// Lays out a ladder diagram over whole periods: at least two and at least 8 beats, at most 64
/// beats unless one period is longer.
pub fn ladder(sch: &Schedule) -> Ladder {
    let period = sch.period.max(1);
    let reps = (8u32.div_ceil(period)).max(2);
    let reps = reps.min((64 / period).max(1));
    let beats = period * reps;
    let mut orbit_of = vec![0usize; sch.throws.len()];
    for (o, orbit) in sch.orbits.iter().enumerate() {
        for &i in &orbit.throws {
            orbit_of[i] = o;
        }
    }
    let mut arcs = Vec::new();
    // Earlier periods too, for throws still in the air at beat 0.
    let max = i64::from(sch.max_throw);
    let first_rep = -((max + i64::from(period) - 1) / i64::from(period));
    for r in first_rep..i64::from(reps) {
        for (i, t) in sch.throws.iter().enumerate() {
            let start = i64::from(t.beat) + r * i64::from(period);
            let end = start + i64::from(t.value);
            if end < 0 || start >= i64::from(beats) {
                continue;
            }
            arcs.push(LadderArc {
                throw: i,
                from_rail: rail(t.from.juggler, t.from.hand),
                to_rail: rail(t.to.juggler, t.to.hand),
                start,
                end,
                value: t.value,
                orbit: orbit_of[i],
                label: crate::schedule::value_text(t.value),
            });
        }
    }
    let rails = (0..sch.jugglers)
        .flat_map(|j| {
            [Hand::Right, Hand::Left].map(|h| {
                if sch.jugglers == 1 {
                    h.name().to_string()
                } else {
                    format!("J{} {}", j + 1, h.name())
                }
            })
        })
        .collect();
    Ladder {
        rails,
        beats,
        period,
        subdivision: sch.subdivision.max(1),
        arcs,
    }
}

impl Ladder {
    /// The arcs labelled with their throws as `notation` (the text `sch` was built from)
    /// writes them: `3p`, `4x`, `5B`.
    pub fn written_as(mut self, sch: &Schedule, notation: &str) -> Ladder {
        for arc in &mut self.arcs {
            if let Some(t) = sch.throws.get(arc.throw) {
                // On fine beats, each juggler's own value (`975` shared: `4.5pB`, not `9`).
                arc.label = sch.own_text(t).unwrap_or_else(|| t.text(notation));
            }
        }
        self
    }
}

/// Where the label of an arc from `(xa, ya)` to `(xb, yb)` goes: on a line between rails
/// halfway to the first rail it crosses (`rails` crossed; lines crossing in their middles, a
/// pass and its partner's, keep their labels apart), inside the top of a same-rail arc
/// (`bend`: `up` = -1 bends up, 1 down, and its height).
pub fn label_point(
    (xa, ya): (f64, f64),
    (xb, yb): (f64, f64),
    rails: usize,
    bend: Option<(f64, f64)>,
) -> (f64, f64) {
    match bend {
        Some((up, height)) => ((xa + xb) / 2.0, ya + up * (height - 9.0)),
        None => {
            let t = 0.5 / rails.max(1) as f64;
            (xa + t * (xb - xa), ya + t * (yb - ya))
        }
    }
}

/// Colour of an orbit, as the animation colours props by orbit.
pub fn orbit_color(orbit: usize) -> Rgba {
    PALETTE[orbit % PALETTE.len()]
}

const BEAT_W: f64 = 36.0;
const RAIL_GAP: f64 = 90.0;
const LEFT: f64 = 90.0;
const TOP: f64 = 70.0;

/// Where beat `b` is on the x axis and rail `r` on the y axis.
pub fn beat_x(b: f64) -> f64 {
    LEFT + BEAT_W * (b + 0.5)
}
pub fn rail_y(r: usize) -> f64 {
    TOP + RAIL_GAP * r as f64
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The diagram as a standalone SVG document with `title` (the pattern) above it.
pub fn ladder_svg(l: &Ladder, title: &str) -> String {
    let width = LEFT + BEAT_W * f64::from(l.beats) + 30.0;
    let rails = l.rails.len().max(1);
    let height = rail_y(rails - 1) + 70.0;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="sans-serif">"#
    );
    let _ = writeln!(s, "  <title>Ladder diagram of {}</title>", escape(title));
    let _ = writeln!(
        s,
        r##"  <rect width="100%" height="100%" fill="#ffffff"/>"##
    );
    let x0 = beat_x(0.0) - BEAT_W * 0.5;
    let x1 = beat_x(f64::from(l.beats)) - BEAT_W * 0.5;
    let _ = writeln!(
        s,
        r#"  <defs><clipPath id="window"><rect x="{x0:.1}" y="0" width="{:.1}" height="{height:.0}"/></clipPath></defs>"#,
        x1 - x0
    );
    let _ = writeln!(
        s,
        r##"  <text x="{LEFT}" y="24" font-size="18" fill="#222">{}</text>"##,
        escape(title)
    );
    // Period boundaries and beat numbers.
    for b in 0..=l.beats {
        let x = beat_x(f64::from(b)) - BEAT_W * 0.5;
        if b % l.period == 0 {
            let _ = writeln!(
                s,
                r##"  <line x1="{x:.1}" y1="{:.1}" x2="{x:.1}" y2="{:.1}" stroke="#c8ced8" stroke-dasharray="4 4"/>"##,
                TOP - 30.0,
                rail_y(rails - 1) + 30.0
            );
        }
        if b < l.beats {
            let _ = writeln!(
                s,
                r##"  <text x="{:.1}" y="{:.1}" font-size="11" fill="#888" text-anchor="middle">{}</text>"##,
                beat_x(f64::from(b)),
                rail_y(rails - 1) + 50.0,
                beat_label(b, l.subdivision)
            );
        }
    }
    for (r, name) in l.rails.iter().enumerate() {
        let y = rail_y(r);
        let _ = writeln!(
            s,
            r##"  <line x1="{x0:.1}" y1="{y:.1}" x2="{x1:.1}" y2="{y:.1}" stroke="#555" stroke-width="2"/>"##
        );
        let _ = writeln!(
            s,
            r##"  <text x="{:.1}" y="{:.1}" font-size="14" fill="#333" text-anchor="end">{}</text>"##,
            LEFT - 10.0,
            y + 5.0,
            escape(name)
        );
    }
    let _ = writeln!(
        s,
        r#"  <g clip-path="url(#window)" fill="none" stroke-width="2.5" stroke-linecap="round">"#
    );
    for a in &l.arcs {
        let c = orbit_color(a.orbit);
        let (xa, ya) = (beat_x(a.start as f64), rail_y(a.from_rail));
        let (xb, yb) = (beat_x(a.end as f64), rail_y(a.to_rail));
        // Same rail: an arc away from the other rail of the juggler, higher for higher throws.
        let path = if a.from_rail == a.to_rail {
            let up = if a.from_rail % 2 == 0 { -1.0 } else { 1.0 };
            let h = (12.0 + 6.0 * f64::from(a.value)).min(RAIL_GAP * 0.45);
            format!(
                "M{xa:.1},{ya:.1} Q{:.1},{:.1} {xb:.1},{yb:.1}",
                (xa + xb) / 2.0,
                ya + up * 2.0 * h
            )
        } else {
            format!("M{xa:.1},{ya:.1} L{xb:.1},{yb:.1}")
        };
        let _ = writeln!(
            s,
            r##"    <path d="{path}" stroke="#{:02x}{:02x}{:02x}" data-throw="{}" data-orbit="{}"/>"##,
            c.r, c.g, c.b, a.throw, a.orbit
        );
        let _ = writeln!(
            s,
            r##"    <circle cx="{xa:.1}" cy="{ya:.1}" r="4" fill="#{:02x}{:02x}{:02x}" stroke="none"/>"##,
            c.r, c.g, c.b
        );
    }
    // Each throw's value on its arc, over a white halo.
    for a in &l.arcs {
        let c = orbit_color(a.orbit);
        let (xa, ya) = (beat_x(a.start as f64), rail_y(a.from_rail));
        let (xb, yb) = (beat_x(a.end as f64), rail_y(a.to_rail));
        let bend = (a.from_rail == a.to_rail).then(|| {
            let up = if a.from_rail % 2 == 0 { -1.0 } else { 1.0 };
            (up, (12.0 + 6.0 * f64::from(a.value)).min(RAIL_GAP * 0.45))
        });
        let (x, y) = label_point((xa, ya), (xb, yb), a.from_rail.abs_diff(a.to_rail), bend);
        let _ = writeln!(
            s,
            r##"    <text x="{x:.1}" y="{:.1}" font-size="11" font-weight="bold" fill="#{:02x}{:02x}{:02x}" stroke="#ffffff" stroke-width="3" paint-order="stroke" text-anchor="middle">{}</text>"##,
            y + 4.0,
            c.r,
            c.g,
            c.b,
            escape(&a.label)
        );
    }
    let _ = writeln!(s, "  </g>");
    let _ = writeln!(s, "</svg>");
    s
}

/// One hand on one beat of a causal diagram: a throw, or an empty hand (a 0).
#[derive(Clone, Debug, PartialEq)]
pub struct CausalNode {
    /// Row: the juggler.
    pub row: usize,
    pub hand: Hand,
    /// Beat (0 ≤ beat < `Causal::beats`).
    pub beat: i64,
    /// The throw as written (`3p`, `4x`; `[33]` for a multiplex; `0` for an empty hand).
    pub label: String,
    /// Nothing is thrown (a 0).
    pub empty: bool,
}

/// An arrow of a causal diagram: the prop thrown at `from` lands in a hand, which must throw
/// at `to` (its previous beat) to be free for the catch. For a 0 (`throw` is `None`) the
/// arrow carries nothing and points to the hand's previous beat.
#[derive(Clone, Debug, PartialEq)]
pub struct CausalArrow {
    /// Index into `Schedule::throws`; `None` for a 0.
    pub throw: Option<usize>,
    /// Orbit of the throw (colour); `None` for a 0.
    pub orbit: Option<usize>,
    pub value: u32,
    pub from_row: usize,
    pub from_hand: Hand,
    /// Beat of the throw (may lie outside the shown beats: clipped).
    pub from: i64,
    pub to_row: usize,
    pub to_hand: Hand,
    /// Beat of the throw it causes: the catching hand's last beat before the catch.
    pub to: i64,
}

/// A causal diagram as data: one row per juggler, the hands' beats along it.
#[derive(Clone, Debug, PartialEq)]
pub struct Causal {
    /// Row names ("J1", "J2", …; empty for a solo pattern).
    pub rows: Vec<String>,
    /// Beats shown, from 0.
    pub beats: u32,
    pub period: u32,
    /// The schedule's beats per beat of a juggler (see [`Ladder::subdivision`]).
    pub subdivision: u32,
    /// Both hands of a juggler act on the same beats (sync): the right hand's nodes are
    /// drawn above the row, the left hand's below.
    pub sync: bool,
    pub nodes: Vec<CausalNode>,
    pub arrows: Vec<CausalArrow>,
}

/// The latest beat before `catch` on which a hand acts, given the beats (sorted, within one
/// period of length `period`) on which it acts; `None` if it never acts.
fn previous_beat(acts: &[u32], period: u32, catch: i64) -> Option<i64> {
    let p = i64::from(period);
    let before = catch - 1;
    let (rep, within) = (before.div_euclid(p), before.rem_euclid(p));
    match acts.partition_point(|&b| i64::from(b) <= within) {
        0 => acts.last().map(|&b| (rep - 1) * p + i64::from(b)),
        k => Some(rep * p + i64::from(acts[k - 1])),
    }
}

/// Lays out a causal diagram over the same beats as [`ladder`] (whole periods, at least two
/// and at least 8 beats). Every non-zero throw gets an arrow from its beat to the beat on
/// which the catching hand last acts before the catch (`value - 2` beats later for a hand
/// that acts every other beat: a 3 points one beat on to the other hand, a 2 to itself, a 1
/// back in time); 0s are empty nodes with a dashed arrow back to their hand's previous beat.
pub fn causal(pattern: &Pattern, sch: &Schedule) -> Causal {
    let ladder = ladder(sch);
    let (period, beats) = (ladder.period, ladder.beats);
    let e = &pattern.expanded;
    let mut orbit_of = vec![0usize; sch.throws.len()];
    for (o, orbit) in sch.orbits.iter().enumerate() {
        for &i in &orbit.throws {
            orbit_of[i] = o;
        }
    }
    // Beats each hand acts on within a period (0s included), per juggler and hand index.
    let mut acts: Vec<[Vec<u32>; 2]> = vec![[Vec::new(), Vec::new()]; e.jugglers];
    for s in &e.slots {
        let v = &mut acts[s.juggler][s.hand.index()];
        if v.last() != Some(&s.beat) {
            v.push(s.beat);
        }
    }
    for a in acts.iter_mut().flatten() {
        a.sort_unstable();
        a.dedup();
    }
    let sync = acts
        .iter()
        .any(|[l, r]| l.iter().any(|b| r.binary_search(b).is_ok()));
    // Nodes: the slots of each (juggler, hand, beat) of one period, shown in every period.
    let mut period_nodes: Vec<CausalNode> = Vec::new();
    let mut groups: Vec<Vec<String>> = Vec::new();
    let mut node_of: std::collections::HashMap<(usize, Hand, u32), usize> =
        std::collections::HashMap::new();
    let sub = sch.subdivision.max(1);
    for s in &e.slots {
        // On fine beats, each juggler's own value (`4.5pB`), as the ladder labels it.
        let own = (sub > 1).then(|| {
            let pass = if s.to_juggler == s.juggler {
                String::new()
            } else {
                format!("p{}", crate::notation::juggler_letter(s.to_juggler))
            };
            format!("{}{pass}", beat_label(s.value, sub))
        });
        let text = pattern.slice(s.span);
        let text = own.unwrap_or_else(|| if text.is_empty() { "?" } else { text }.to_string());
        match node_of.get(&(s.juggler, s.hand, s.beat)).copied() {
            Some(k) => {
                period_nodes[k].empty &= s.value == 0;
                groups[k].push(text);
            }
            None => {
                node_of.insert((s.juggler, s.hand, s.beat), period_nodes.len());
                period_nodes.push(CausalNode {
                    row: s.juggler,
                    hand: s.hand,
                    beat: i64::from(s.beat),
                    label: String::new(),
                    empty: s.value == 0,
                });
                groups.push(vec![text]);
            }
        }
    }
    for (n, g) in period_nodes.iter_mut().zip(&groups) {
        n.label = if g.len() == 1 {
            g[0].clone()
        } else {
            format!("[{}]", g.concat())
        };
    }
    let reps = i64::from(beats / period);
    let p = i64::from(period);
    let mut nodes = Vec::new();
    for r in 0..reps {
        for n in &period_nodes {
            nodes.push(CausalNode {
                beat: n.beat + r * p,
                ..n.clone()
            });
        }
    }
    nodes.sort_by_key(|n| (n.beat, n.row, n.hand != Hand::Right));
    // Arrows from the periods before and after too, for those reaching into the window.
    let mut arrows = Vec::new();
    let reach = i64::from(sch.max_throw) + 2 * p;
    let first_rep = -(reach / p + 1);
    let last_rep = reps + reach / p + 1;
    let shown = |b: i64| (0..i64::from(beats)).contains(&b);
    for r in first_rep..last_rep {
        let mut throw = 0usize;
        for s in &e.slots {
            let index = (s.value > 0).then(|| {
                throw += 1;
                throw - 1
            });
            let from = i64::from(s.beat) + r * p;
            let Some(to) = previous_beat(
                &acts[s.to_juggler][s.to_hand.index()],
                period,
                from + i64::from(s.value),
            ) else {
                continue;
            };
            if !(shown(from) || shown(to)) {
                continue;
            }
            arrows.push(CausalArrow {
                throw: index,
                orbit: index.map(|i| orbit_of[i]),
                value: s.value,
                from_row: s.juggler,
                from_hand: s.hand,
                from,
                to_row: s.to_juggler,
                to_hand: s.to_hand,
                to,
            });
        }
    }
    arrows.sort_by_key(|a| (a.from, a.from_row, a.from_hand != Hand::Right, a.to));
    let rows = (0..e.jugglers)
        .map(|j| {
            if e.jugglers == 1 {
                String::new()
            } else {
                format!("J{}", j + 1)
            }
        })
        .collect();
    Causal {
        rows,
        beats,
        period,
        subdivision: ladder.subdivision,
        sync,
        nodes,
        arrows,
    }
}

const ROW_GAP: f64 = 130.0;
const NODE_R: f64 = 11.0;
/// Vertical offset of a hand's nodes from its row in a sync diagram.
const LANE: f64 = 16.0;

/// Where a hand's node is on the y axis in a causal diagram.
fn causal_y(c: &Causal, row: usize, hand: Hand) -> f64 {
    let y = TOP + 20.0 + ROW_GAP * row as f64;
    match (c.sync, hand) {
        (false, _) => y,
        (true, Hand::Right) => y - LANE,
        (true, Hand::Left) => y + LANE,
    }
}

/// Whether arrows within row `row` bulge upwards when they go forward in time (away from the
/// other jugglers: up for the upper half of the rows, down for the lower half).
fn forward_up(c: &Causal, row: usize) -> bool {
    2 * row < c.rows.len()
}

fn hex(c: Rgba) -> String {
    format!("#{:02x}{:02x}{:02x}", c.r, c.g, c.b)
}

/// The diagram as a standalone SVG document with `title` (the pattern) above it.
pub fn causal_svg(c: &Causal, title: &str) -> String {
    let width = LEFT + BEAT_W * f64::from(c.beats) + 30.0;
    let rows = c.rows.len().max(1);
    let bottom = causal_y(c, rows - 1, Hand::Left) + 60.0;
    let height = bottom + 30.0;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="sans-serif">"#
    );
    let _ = writeln!(s, "  <title>Causal diagram of {}</title>", escape(title));
    let _ = writeln!(
        s,
        r##"  <rect width="100%" height="100%" fill="#ffffff"/>"##
    );
    let x0 = beat_x(0.0) - BEAT_W * 0.5;
    let x1 = beat_x(f64::from(c.beats)) - BEAT_W * 0.5;
    // Arrowheads, one per colour used.
    let mut colours: Vec<Option<usize>> = c
        .arrows
        .iter()
        .map(|a| a.orbit.map(|o| o % PALETTE.len()))
        .collect();
    colours.sort_unstable();
    colours.dedup();
    let _ = writeln!(s, "  <defs>");
    let _ = writeln!(
        s,
        r#"    <clipPath id="window"><rect x="{x0:.1}" y="0" width="{:.1}" height="{height:.0}"/></clipPath>"#,
        x1 - x0
    );
    for colour in &colours {
        let (id, fill) = marker(*colour);
        let _ = writeln!(
            s,
            r#"    <marker id="{id}" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="4" markerHeight="4" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="{fill}"/></marker>"#
        );
    }
    let _ = writeln!(s, "  </defs>");
    let _ = writeln!(
        s,
        r##"  <text x="{LEFT}" y="24" font-size="18" fill="#222">{}</text>"##,
        escape(title)
    );
    for b in 0..=c.beats {
        let x = beat_x(f64::from(b)) - BEAT_W * 0.5;
        if b % c.period == 0 {
            let _ = writeln!(
                s,
                r##"  <line x1="{x:.1}" y1="{:.1}" x2="{x:.1}" y2="{:.1}" stroke="#c8ced8" stroke-dasharray="4 4"/>"##,
                TOP - 20.0,
                bottom - 20.0
            );
        }
        if b < c.beats {
            let _ = writeln!(
                s,
                r##"  <text x="{:.1}" y="{bottom:.1}" font-size="11" fill="#888" text-anchor="middle">{}</text>"##,
                beat_x(f64::from(b)),
                beat_label(b, c.subdivision)
            );
        }
    }
    for (r, name) in c.rows.iter().enumerate() {
        let y = causal_y(c, r, Hand::Right) / 2.0 + causal_y(c, r, Hand::Left) / 2.0;
        let _ = writeln!(
            s,
            r##"  <line x1="{x0:.1}" y1="{y:.1}" x2="{x1:.1}" y2="{y:.1}" stroke="#e3e7ee" stroke-width="8" stroke-linecap="round"/>"##
        );
        if !name.is_empty() {
            let _ = writeln!(
                s,
                r##"  <text x="{:.1}" y="{:.1}" font-size="14" fill="#333" text-anchor="end">{}</text>"##,
                LEFT - 10.0,
                y + 5.0,
                escape(name)
            );
        }
    }
    let _ = writeln!(
        s,
        r#"  <g clip-path="url(#window)" fill="none" stroke-width="2" stroke-linecap="round">"#
    );
    // Arrows joining the same two nodes (a multiplex) fan out.
    let mut seen: std::collections::HashMap<(i64, usize, Hand, i64, usize, Hand), usize> =
        std::collections::HashMap::new();
    for a in &c.arrows {
        let key = (a.from, a.from_row, a.from_hand, a.to, a.to_row, a.to_hand);
        let count = seen.entry(key).or_insert(0);
        let fan = *count;
        *count += 1;
        let (id, colour) = marker(a.orbit.map(|o| o % PALETTE.len()));
        let dash = if a.throw.is_none() {
            r#" stroke-dasharray="3 3""#
        } else {
            ""
        };
        let data = match (a.throw, a.orbit) {
            (Some(t), Some(o)) => format!(r#" data-throw="{t}" data-orbit="{o}""#),
            _ => String::new(),
        };
        let _ = writeln!(
            s,
            r#"    <path d="{}" stroke="{colour}"{dash} marker-end="url(#{id})"{data}/>"#,
            arrow_path(c, a, fan)
        );
    }
    let _ = writeln!(s, "  </g>");
    // Nodes over the arrows: a tile with the hand, the throw written next to it.
    for n in &c.nodes {
        let x = beat_x(n.beat as f64);
        let y = causal_y(c, n.row, n.hand);
        let letter = if n.hand == Hand::Right { "R" } else { "L" };
        let (stroke, text, dash) = if n.empty {
            ("#a0a8b4", "#a0a8b4", r#" stroke-dasharray="2 2""#)
        } else {
            ("#555", "#222", "")
        };
        let _ = writeln!(
            s,
            r##"  <circle cx="{x:.1}" cy="{y:.1}" r="{NODE_R}" fill="#ffffff" stroke="{stroke}" stroke-width="1.5"{dash}/>"##
        );
        let _ = writeln!(
            s,
            r#"  <text x="{x:.1}" y="{:.1}" font-size="11" font-weight="bold" fill="{text}" text-anchor="middle">{letter}</text>"#,
            y + 4.0
        );
        // The throw's value on the side where no forward arrow bulges.
        let below = if c.sync {
            n.hand == Hand::Left
        } else {
            forward_up(c, n.row)
        };
        let ly = if below {
            y + NODE_R + 13.0
        } else {
            y - NODE_R - 5.0
        };
        let _ = writeln!(
            s,
            r##"  <text x="{x:.1}" y="{ly:.1}" font-size="10" fill="#667" text-anchor="middle" stroke="#ffffff" stroke-width="3" stroke-linejoin="round" paint-order="stroke">{}</text>"##,
            escape(&n.label)
        );
    }
    let _ = writeln!(s, "</svg>");
    s
}

/// Marker id and colour of an arrow coloured by palette entry `colour` (grey for none).
fn marker(colour: Option<usize>) -> (String, String) {
    match colour {
        Some(k) => (format!("head{k}"), hex(PALETTE[k])),
        None => ("head-empty".to_string(), "#a0a8b4".to_string()),
    }
}

/// The SVG path of an arrow, from the edge of its start node to the edge of its end node;
/// `fan` > 0 for the later arrows joining the same two nodes, curved further out.
fn arrow_path(c: &Causal, a: &CausalArrow, fan: usize) -> String {
    let fan = fan as f64;
    let (xa, ya) = (beat_x(a.from as f64), causal_y(c, a.from_row, a.from_hand));
    let (xb, yb) = (beat_x(a.to as f64), causal_y(c, a.to_row, a.to_hand));
    // Which way an arrow within one juggler bulges: forward arrows away from the other
    // jugglers, backward ones the other way; in sync diagrams away from the other hand.
    let same_row = a.from_row == a.to_row;
    let up = if c.sync && same_row && a.from_hand == a.to_hand {
        a.from_hand == Hand::Right
    } else {
        forward_up(c, a.from_row) == (a.to >= a.from)
    };
    let sign = if up { -1.0 } else { 1.0 };
    if a.from == a.to && a.from_row == a.to_row && a.from_hand == a.to_hand {
        // A loop on the node itself (a 2 that could be held).
        let (sx, sy) = (xa - 6.0, ya + sign * 9.0);
        let (ex, ey) = (xa + 6.0, ya + sign * 9.0);
        let (w, h) = (20.0 + 6.0 * fan, 38.0 + 12.0 * fan);
        return format!(
            "M{sx:.1},{sy:.1} C{:.1},{:.1} {:.1},{:.1} {ex:.1},{ey:.1}",
            xa - w,
            ya + sign * h,
            xa + w,
            ya + sign * h
        );
    }
    let (mx, my) = ((xa + xb) / 2.0, (ya + yb) / 2.0);
    let (cx, cy) = if same_row && (ya - yb).abs() < 1.0 {
        let span = (xb - xa).abs() / BEAT_W;
        let h = (14.0 + 9.0 * span).min(ROW_GAP * 0.4) + 8.0 * fan;
        (mx, my + sign * h * 2.0)
    } else {
        // Straight, or bent to alternate sides when fanning out.
        let side = if fan as usize % 2 == 1 { 1.0 } else { -1.0 };
        let bend = 24.0 * ((fan + 1.0) / 2.0).floor() * side;
        let (dx, dy) = (xb - xa, yb - ya);
        let d = (dx * dx + dy * dy).sqrt().max(1e-9);
        (mx - dy / d * bend, my + dx / d * bend)
    };
    let toward = |x: f64, y: f64, r: f64| {
        let (dx, dy) = (cx - x, cy - y);
        let d = (dx * dx + dy * dy).sqrt().max(1e-9);
        (x + dx / d * r, y + dy / d * r)
    };
    let (sx, sy) = toward(xa, ya, NODE_R + 1.0);
    let (ex, ey) = toward(xb, yb, NODE_R + 2.0);
    if (cx, cy) == (mx, my) {
        format!("M{sx:.1},{sy:.1} L{ex:.1},{ey:.1}")
    } else {
        format!("M{sx:.1},{sy:.1} Q{cx:.1},{cy:.1} {ex:.1},{ey:.1}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ladder_of_531_has_two_rails_and_the_throws_of_each_shown_beat() {
        let sch = crate::schedule::from_notation("531").unwrap();
        let l = ladder(&sch);
        assert_eq!(l.rails, vec!["right", "left"]);
        assert_eq!(l.period, 6); // 531 is juggled as 531* (6 beats)
        assert_eq!(l.beats, 12);
        // Every beat 0..12 throws once.
        for b in 0..12 {
            assert_eq!(
                l.arcs.iter().filter(|a| a.start == b).count(),
                1,
                "beat {b}"
            );
        }
        // A 5 at beat 0 from the right lands in the left hand at beat 5.
        let a = l.arcs.iter().find(|a| a.start == 0).unwrap();
        assert_eq!((a.value, a.end, a.from_rail, a.to_rail), (5, 5, 0, 1));
        // Throws from before beat 0 that land inside are drawn too.
        assert!(l.arcs.iter().any(|a| a.start < 0 && a.end >= 0));
    }

    #[test]
    fn passing_has_a_rail_per_hand_of_each_juggler() {
        let sch = crate::schedule::from_notation("<3p|3p><3|3>").unwrap();
        let l = ladder(&sch);
        assert_eq!(l.rails, vec!["J1 right", "J1 left", "J2 right", "J2 left"]);
        assert!(l.arcs.iter().any(|a| a.from_rail / 2 != a.to_rail / 2));
    }

    #[test]
    fn fine_beats_are_labelled_in_each_jugglers_beats() {
        // 975 shared by two: fine beats, 2 to a beat; every arc a passer's own value.
        let pattern = crate::notation::parse_k_handed("975", 2).unwrap();
        let sch = crate::schedule::build(&pattern).unwrap();
        let l = ladder(&sch).written_as(&sch, &pattern.text);
        assert_eq!((l.subdivision, l.period, l.beats), (2, 12, 24));
        let mut labels: Vec<&str> = l.arcs.iter().map(|a| a.label.as_str()).collect();
        labels.sort_unstable();
        labels.dedup();
        assert_eq!(
            labels,
            ["2.5pA", "2.5pB", "3.5pA", "3.5pB", "4.5pA", "4.5pB"]
        );
        let svg = ladder_svg(&l, "975");
        assert!(svg.contains(">0.5</text>") && svg.contains(">11.5</text>"));
        assert!(!svg.contains(">23</text>"), "fine beat numbers shown");
        // The causal diagram of a Prechac pattern in thirds.
        let pattern = crate::notation::parse("<3.3p3|3.3p3|4.3p3>").unwrap();
        let sch = crate::schedule::build(&pattern).unwrap();
        let c = causal(&pattern, &sch);
        assert_eq!(c.subdivision, 3);
        let mut labels: Vec<&str> = c.nodes.iter().map(|n| n.label.as_str()).collect();
        labels.sort_unstable();
        labels.dedup();
        assert_eq!(labels, ["3", "3.33pB", "3.33pC", "4.33pA"]);
        let svg = causal_svg(&c, "three");
        assert!(svg.contains(">0.33</text>") && svg.contains(">1.67</text>"));
        assert_eq!(
            (beat_label(4, 3), beat_label(6, 3), beat_label(5, 1)),
            ("1.33".into(), "2".into(), "5".into())
        );
    }

    fn causal_of(notation: &str) -> Causal {
        let pattern = crate::notation::parse(notation).unwrap();
        let sch = crate::schedule::build(&pattern).unwrap();
        causal(&pattern, &sch)
    }

    #[test]
    fn previous_beat_wraps_into_the_period_before() {
        // A hand acting on beats 1 and 3 of a period of 4.
        assert_eq!(previous_beat(&[1, 3], 4, 4), Some(3));
        assert_eq!(previous_beat(&[1, 3], 4, 3), Some(1));
        assert_eq!(previous_beat(&[1, 3], 4, 2), Some(1));
        assert_eq!(previous_beat(&[1, 3], 4, 1), Some(-1));
        assert_eq!(previous_beat(&[1, 3], 4, -3), Some(-5));
        assert_eq!(previous_beat(&[], 4, 9), None);
    }

    #[test]
    fn cascade_arrows_go_one_beat_on_to_the_other_hand() {
        let c = causal_of("3");
        assert_eq!(c.rows, vec![""]);
        assert!(!c.sync);
        assert_eq!(c.beats, 8);
        assert_eq!(c.nodes.len(), 8);
        for (b, n) in c.nodes.iter().enumerate() {
            assert_eq!(n.beat, b as i64);
            let hand = if b % 2 == 0 { Hand::Right } else { Hand::Left };
            assert_eq!((n.hand, n.label.as_str(), n.empty), (hand, "3", false));
        }
        // One arrow from each shown beat, plus the one arriving at beat 0.
        assert_eq!(c.arrows.len(), 9);
        for a in &c.arrows {
            assert_eq!(a.to, a.from + 1);
            assert_ne!(a.from_hand, a.to_hand);
            assert_eq!((a.value, a.orbit), (3, Some(0)));
        }
    }

    #[test]
    fn arrows_of_531_are_the_value_minus_two_beats_long() {
        let c = causal_of("531");
        let mut lengths: Vec<(u32, i64)> =
            c.arrows.iter().map(|a| (a.value, a.to - a.from)).collect();
        lengths.sort_unstable();
        lengths.dedup();
        // 5 -> three beats on, 3 -> one beat on, 1 (a zip) -> one beat back.
        assert_eq!(lengths, vec![(1, -1), (3, 1), (5, 3)]);
        // The 5 thrown by the right hand at beat 0 causes the left hand's throw at beat 3.
        let five = c.arrows.iter().find(|a| a.from == 0).unwrap();
        assert_eq!(
            (five.value, five.from_hand, five.to_hand, five.to),
            (5, Hand::Right, Hand::Left, 3)
        );
    }

    #[test]
    fn passes_of_a_two_count_point_to_the_partner_one_beat_on() {
        let c = causal_of("<3p|3p><3|3>");
        assert_eq!(c.rows, vec!["J1", "J2"]);
        let passes: Vec<&CausalArrow> =
            c.arrows.iter().filter(|a| a.from_row != a.to_row).collect();
        // Every juggler passes from the right hand every other beat: 4 passes each in 8 beats.
        assert_eq!(
            passes.iter().filter(|a| (0..8).contains(&a.from)).count(),
            8
        );
        for a in passes {
            assert_eq!(a.from % 2, 0);
            assert_eq!(
                (a.from_hand, a.to_hand, a.to),
                (Hand::Right, Hand::Left, a.from + 1)
            );
        }
    }

    #[test]
    fn zeros_are_empty_nodes_with_an_arrow_back_to_their_hand() {
        let c = causal_of("330");
        let zero = c.nodes.iter().find(|n| n.beat == 2).unwrap();
        assert_eq!(
            (zero.hand, zero.label.as_str(), zero.empty),
            (Hand::Right, "0", true)
        );
        let back = c.arrows.iter().find(|a| a.from == 2).unwrap();
        assert_eq!((back.throw, back.orbit, back.to), (None, None, 0));
        // The 3 from the left hand at beat 1 lands at 4 in the right hand, which is free
        // since its 0 at beat 2: the arrow points to the empty node.
        let three = c.arrows.iter().find(|a| a.from == 1).unwrap();
        assert_eq!((three.to_hand, three.to), (Hand::Right, 2));
    }

    #[test]
    fn sync_hands_share_beats_and_a_crossing_two_points_across() {
        let c = causal_of("(4,2x)(2x,4)");
        // Juggling Lab's (left, right): the left hand throws the 4, the right the 2x.
        assert!(c.sync);
        assert!(c.nodes.iter().all(|n| n.beat % 2 == 0));
        let two = c
            .arrows
            .iter()
            .find(|a| a.from == 0 && a.value == 2)
            .unwrap();
        assert_eq!(
            (two.from_hand, two.to_hand, two.to),
            (Hand::Right, Hand::Left, 0)
        );
        let four = c
            .arrows
            .iter()
            .find(|a| a.from == 0 && a.value == 4)
            .unwrap();
        assert_eq!(
            (four.from_hand, four.to_hand, four.to),
            (Hand::Left, Hand::Left, 2)
        );
    }

    #[test]
    fn a_multiplex_is_one_node_with_an_arrow_per_prop() {
        let c = causal_of("[33]33");
        let node = c.nodes.iter().find(|n| n.beat == 0).unwrap();
        assert_eq!(node.label, "[33]");
        let from_it: Vec<&CausalArrow> = c.arrows.iter().filter(|a| a.from == 0).collect();
        assert_eq!(from_it.len(), 2);
        assert!(from_it.iter().all(|a| a.to == 1 && a.to_hand == Hand::Left));
        assert_ne!(from_it[0].throw, from_it[1].throw);
    }

    /// Every arrow ends on the catching hand's last beat before the catch: a node of that hand
    /// there, and none between it and the catch.
    #[test]
    fn every_arrow_ends_on_the_catching_hands_last_beat_before_the_catch() {
        for notation in [
            "3",
            "531",
            "441",
            "330",
            "[33]33",
            "(4,2x)(2x,4)",
            "(6x,4)*",
            "<3p|3p><3|3>",
            "<4p|3><2|3p>",
            "<3p2|3p1|3><3p3|3|3p1>",
        ] {
            let c = causal_of(notation);
            let acts = |row: usize, hand: Hand, beat: i64| {
                c.nodes
                    .iter()
                    .any(|n| n.row == row && n.hand == hand && n.beat == beat)
            };
            let shown = |b: i64| (0..i64::from(c.beats)).contains(&b);
            let mut checked = 0;
            for a in &c.arrows {
                let catch = a.from + i64::from(a.value);
                if !(shown(a.to) && shown(catch)) {
                    continue;
                }
                assert!(a.to < catch, "{notation}: {a:?}");
                assert!(acts(a.to_row, a.to_hand, a.to), "{notation}: {a:?}");
                assert!(
                    (a.to + 1..catch).all(|b| !acts(a.to_row, a.to_hand, b)),
                    "{notation}: {a:?}"
                );
                checked += 1;
            }
            assert!(checked >= 4, "{notation}: {checked} arrows checked");
        }
    }
}
