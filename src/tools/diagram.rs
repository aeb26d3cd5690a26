//! Ladder diagrams: every hand a rail, time along the rails, each throw a line or arc from the
//! hand and beat that throws it to the hand and beat that catches it, coloured by orbit with
//! the animation's prop palette. The layout is plain data (`Ladder`); `ladder_svg` writes it
//! as a standalone SVG.

use std::fmt::Write as _;

use crate::body::props::PALETTE;
use crate::schedule::Schedule;
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
}

/// A ladder diagram as data.
#[derive(Clone, Debug, PartialEq)]
pub struct Ladder {
    /// Rail names, top to bottom ("right", "left"; "J1 right" with several jugglers).
    pub rails: Vec<String>,
    /// Beats shown, from 0.
    pub beats: u32,
    pub period: u32,
    pub arcs: Vec<LadderArc>,
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
        arcs,
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
                r##"  <text x="{:.1}" y="{:.1}" font-size="11" fill="#888" text-anchor="middle">{b}</text>"##,
                beat_x(f64::from(b)),
                rail_y(rails - 1) + 50.0
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
    let _ = writeln!(s, "  </g>");
    let _ = writeln!(s, "</svg>");
    s
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
}
