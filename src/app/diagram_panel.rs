//! The ladder diagram panel under the animation: the layout of `tools::diagram` (its
//! `ladder`, `beat_x` and `rail_y`, the same as the SVG of `juggler diagram`) mapped into the
//! panel's rectangle, the cursor at the current time, and which throw a click hits. Plain
//! arithmetic; `ui` draws what [`PanelMap::arc_points`] returns.

use glam::Vec2;

use crate::tools::diagram::{beat_x, rail_y, Ladder, LadderArc};

use super::geometry::{Geometry, Rect};

/// Longest diagram the panel draws, beats (a longer period is named, not drawn: its arcs
/// would be too many to see or to draw every frame).
pub const MAX_BEATS: u32 = 256;
/// Most rails (two per juggler) the panel draws: more would be under a pixel apart.
pub const MAX_RAILS: usize = 64;
/// Most arcs the panel draws (each frame, [`ARC_SEGMENTS`] segments each).
pub const MAX_ARCS: usize = 4096;

/// Why the panel names `ladder` instead of drawing it (one line for the panel), or `None`
/// when it draws it: too many beats, rails or arcs to see or to draw every frame.
pub fn too_large(ladder: &Ladder) -> Option<String> {
    if ladder.beats > MAX_BEATS {
        Some(format!(
            "{} beats in a period: too long to draw in the window",
            ladder.period
        ))
    } else if ladder.rails.len() > MAX_RAILS {
        Some(format!(
            "{} jugglers: too many to draw in the window (at most {})",
            ladder.rails.len() / 2,
            MAX_RAILS / 2
        ))
    } else if ladder.arcs.len() > MAX_ARCS {
        Some(format!(
            "{} throws shown: too many to draw in the window (at most {MAX_ARCS})",
            ladder.arcs.len()
        ))
    } else {
        None
    }
}

/// Points per drawn arc (a polyline through the curve).
pub const ARC_SEGMENTS: usize = 20;
/// A click this close to an arc (pixels) hits it.
pub const HIT_PIXELS: f32 = 9.0;

/// The affine map from the diagram's own units (`beat_x`, `rail_y`) to window pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PanelMap {
    /// Window pixels of diagram unit (0, 0), and pixels per unit along x and y.
    origin: Vec2,
    scale: Vec2,
    /// Where the rails start and end (window x) and the rails' names end.
    pub left: f32,
    pub right: f32,
    /// Beats shown.
    pub beats: u32,
}

impl PanelMap {
    /// The map that fits `ladder` into `panel`, leaving `label_w` pixels on the left for the
    /// rail names and `pad` pixels above and below the outer rails.
    pub fn new(ladder: &Ladder, panel: &Rect, label_w: f32, pad: f32) -> PanelMap {
        let beats = ladder.beats.max(1);
        let rails = ladder.rails.len().max(1);
        // Diagram units of the shown beats: from the left edge of beat 0 to the right edge of
        // the last beat.
        let x0 = beat_x(0.0) - 0.5 * (beat_x(1.0) - beat_x(0.0));
        let x1 = beat_x(f64::from(beats)) - 0.5 * (beat_x(1.0) - beat_x(0.0));
        let (y0, y1) = (rail_y(0), rail_y(rails - 1));
        let left = panel.x + label_w;
        let right = (panel.right() - 10.0).max(left + 1.0);
        let top = panel.y + pad;
        let bottom = (panel.bottom() - pad).max(top + 1.0);
        let sx = (right - left) / (x1 - x0) as f32;
        // One rail (never: two per juggler) would have no height: centre it.
        let sy = if y1 > y0 {
            (bottom - top) / (y1 - y0) as f32
        } else {
            1.0
        };
        let origin = Vec2::new(left - x0 as f32 * sx, top - y0 as f32 * sy);
        PanelMap {
            origin,
            scale: Vec2::new(sx, sy),
            left,
            right,
            beats,
        }
    }

    fn window_point(&self, x: f64, y: f64) -> Vec2 {
        self.origin + Vec2::new(x as f32, y as f32) * self.scale
    }

    /// Window x of (fractional) beat `b`.
    pub fn x_of_beat(&self, b: f64) -> f32 {
        self.window_point(beat_x(b), 0.0).x
    }

    /// Window y of rail `r`.
    pub fn y_of_rail(&self, r: usize) -> f32 {
        self.window_point(0.0, rail_y(r)).y
    }

    /// Window x of the cursor for pattern time `seconds` at `bps` beats per second: the
    /// diagram repeats every `beats` beats (whole periods), so the cursor wraps.
    pub fn cursor_x(&self, seconds: f64, bps: f64) -> f32 {
        let b = (seconds * bps).rem_euclid(f64::from(self.beats));
        let b = if b.is_finite() { b } else { 0.0 };
        // Beat b is thrown at the centre of its column; the cursor starts at that column's
        // centre too, so it crosses a throw's dot when the throw happens.
        self.x_of_beat(b)
    }

    /// Points along arc `a` in window pixels (the SVG's curve: a line between rails, a
    /// quadratic bend away from the juggler's other hand on the same rail).
    pub fn arc_points(&self, a: &LadderArc) -> Vec<Vec2> {
        let (xa, ya) = (beat_x(a.start as f64), rail_y(a.from_rail));
        let (xb, yb) = (beat_x(a.end as f64), rail_y(a.to_rail));
        let p0 = self.window_point(xa, ya);
        let p2 = self.window_point(xb, yb);
        if a.from_rail != a.to_rail {
            return (0..=ARC_SEGMENTS)
                .map(|i| p0.lerp(p2, i as f32 / ARC_SEGMENTS as f32))
                .collect();
        }
        let gap = rail_y(1) - rail_y(0);
        let up = if a.from_rail.is_multiple_of(2) {
            -1.0
        } else {
            1.0
        };
        let h = (12.0 + 6.0 * f64::from(a.value)).min(gap * 0.45);
        let p1 = self.window_point((xa + xb) / 2.0, ya + up * 2.0 * h);
        (0..=ARC_SEGMENTS)
            .map(|i| {
                let t = i as f32 / ARC_SEGMENTS as f32;
                let u = 1.0 - t;
                p0 * (u * u) + p1 * (2.0 * u * t) + p2 * (t * t)
            })
            .collect()
    }

    /// Index into `ladder.arcs` of the throw nearest to window point `p`, within
    /// [`HIT_PIXELS`], counting only the visible part of arcs (inside the rails' span).
    pub fn hit(&self, ladder: &Ladder, p: Vec2) -> Option<usize> {
        if p.x < self.left - HIT_PIXELS || p.x > self.right + HIT_PIXELS {
            return None;
        }
        let mut best: Option<(f32, usize)> = None;
        for (i, a) in ladder.arcs.iter().enumerate() {
            let points = self.arc_points(a);
            for pair in points.windows(2) {
                let (q0, q1) = (pair[0], pair[1]);
                if q0.x.max(q1.x) < self.left || q0.x.min(q1.x) > self.right {
                    continue;
                }
                let d = distance_to_segment(p, q0, q1);
                if d <= HIT_PIXELS && best.is_none_or(|(bd, _)| d < bd) {
                    best = Some((d, i));
                }
            }
        }
        best.map(|(_, i)| i)
    }
}

/// The map of `ladder` into the diagram strip `rect` of layout `g` (the one the window draws
/// and hit-tests with): the rail names' column on the left, half a rail gap above and below.
pub fn map_for(g: &Geometry, rect: &Rect, ladder: &Ladder) -> PanelMap {
    let label_chars = ladder
        .rails
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(5);
    let label_w = (label_chars as f32 + 2.0) * g.char_width;
    // Half a rail gap above the top rail and below the bottom one: room for the arcs of
    // same-hand throws, which bend away from the juggler's other hand.
    let rails = ladder.rails.len().max(1) as f32;
    let pad = (rect.h / (2.0 * rails)).max(g.line_height * 0.9);
    PanelMap::new(ladder, rect, label_w, pad.min(rect.h / 2.0 - 1.0).max(0.0))
}

/// Distance from `p` to the segment `a`–`b`.
fn distance_to_segment(p: Vec2, a: Vec2, b: Vec2) -> f32 {
    let ab = b - a;
    let len2 = ab.length_squared();
    if len2 <= f32::EPSILON {
        return p.distance(a);
    }
    let t = ((p - a).dot(ab) / len2).clamp(0.0, 1.0);
    p.distance(a + ab * t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::diagram::ladder;

    fn map_of(notation: &str, panel: Rect) -> (Ladder, PanelMap) {
        let l = ladder(&crate::schedule::from_notation(notation).unwrap());
        let m = PanelMap::new(&l, &panel, 60.0, 20.0);
        (l, m)
    }

    /// Issue 27 (budget class): the panel with a 1000-juggler pattern took 9 GB and 26 s
    /// for one frame; a diagram over the panel's limits is named in one line instead.
    #[test]
    fn budget_the_panel_names_a_diagram_too_large_to_draw() {
        let of = |notation: &str| ladder(&crate::schedule::from_notation(notation).unwrap());
        assert_eq!(too_large(&of("531")), None);
        let ring = |n: usize| format!("<{}>", vec!["3"; n].join("|"));
        assert_eq!(too_large(&of(&ring(32))), None);
        assert_eq!(
            too_large(&of(&ring(1000))).as_deref(),
            Some("1000 jugglers: too many to draw in the window (at most 32)")
        );
        let long = "53".repeat(150);
        assert!(too_large(&of(&long))
            .unwrap()
            .contains("300 beats in a period"));
    }

    #[test]
    fn the_ladder_fills_the_panel_right_of_the_labels() {
        let panel = Rect::new(0.0, 500.0, 1000.0, 140.0);
        let (l, m) = map_of("531", panel);
        assert_eq!(l.beats, 12);
        // 12 beats over 1000 - 60 - 10 = 930 px: 77.5 px per beat, beat 0 centred in its column.
        assert!((m.x_of_beat(0.0) - (60.0 + 77.5 / 2.0)).abs() < 1e-3);
        assert!((m.x_of_beat(12.0) - m.x_of_beat(0.0) - 930.0).abs() < 1e-2);
        // Rails 20 px inside the panel's top and bottom.
        assert!((m.y_of_rail(0) - 520.0).abs() < 1e-3);
        assert!((m.y_of_rail(1) - 620.0).abs() < 1e-3);
    }

    #[test]
    fn the_cursor_moves_one_column_per_beat_and_wraps_after_the_shown_beats() {
        let (l, m) = map_of("3", Rect::new(0.0, 0.0, 800.0, 120.0));
        let per_beat = m.x_of_beat(1.0) - m.x_of_beat(0.0);
        let bps = 3.0;
        assert!((m.cursor_x(0.0, bps) - m.x_of_beat(0.0)).abs() < 1e-3);
        assert!((m.cursor_x(1.0, bps) - m.cursor_x(0.0, bps) - 3.0 * per_beat).abs() < 1e-2);
        let wrap = f64::from(l.beats) / bps;
        assert!((m.cursor_x(wrap + 0.5, bps) - m.cursor_x(0.5, bps)).abs() < 1e-3);
        assert!(m.cursor_x(f64::NAN, bps).is_finite());
    }

    #[test]
    fn clicks_on_an_arc_find_its_throw_and_clicks_elsewhere_nothing() {
        let (l, m) = map_of("531", Rect::new(0.0, 0.0, 1000.0, 160.0));
        for (i, a) in l.arcs.iter().enumerate() {
            if a.start < 0 || a.end >= i64::from(l.beats) {
                continue;
            }
            // The middle of a fully visible arc hits that arc (or one crossing it there).
            let points = m.arc_points(a);
            let mid = points[ARC_SEGMENTS / 2];
            let hit = m.hit(&l, mid).expect("hit");
            let other = &l.arcs[hit];
            let d = m
                .arc_points(other)
                .windows(2)
                .map(|w| distance_to_segment(mid, w[0], w[1]))
                .fold(f32::MAX, f32::min);
            assert!(hit == i || d < 1e-3, "arc {i} hit {hit} at {mid}");
        }
        // The throw of beat 0 (a 5 from the right hand): its dot at the top rail.
        let zero = l.arcs.iter().position(|a| a.start == 0).unwrap();
        let dot = Vec2::new(m.x_of_beat(0.0) + 4.0, m.y_of_rail(0) + 2.0);
        assert_eq!(m.hit(&l, dot), Some(zero));
        // Far from every arc: in the label column, or above the top rail between throws.
        assert_eq!(m.hit(&l, Vec2::new(10.0, m.y_of_rail(0))), None);
        assert_eq!(m.hit(&l, Vec2::new(m.x_of_beat(6.5), -50.0)), None);
    }
}
