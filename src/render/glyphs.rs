//! A small stroke font for [`Shape::Text`]: each character a few polylines on a grid four
//! units wide and six high (the baseline at 0, descenders to -2), drawn as round-capped
//! lines. Both back-ends draw text by turning it into those lines ([`text_lines`]), so a
//! label looks the same in the window, the web page and an exported frame.

use glam::Vec2;

use super::Shape;
use crate::types::Rgba;

/// Font units from one character's left edge to the next's.
const ADVANCE: f32 = 5.6;
/// Font units of the capital height (the text's nominal height).
const CAP: f32 = 6.0;
/// Stroke width as a fraction of the text height.
const STROKE: f32 = 0.14;
/// Width of the halo around the strokes, as a fraction of the text height.
const HALO: f32 = 0.11;

/// Polylines of `c`: points separated by spaces, lines by `;`.
fn strokes(c: char) -> &'static str {
    match c {
        '0' | 'O' => "1,0 3,0 4,1 4,5 3,6 1,6 0,5 0,1 1,0",
        '1' => "0.8,4.8 2,6 2,0;0.8,0 3.2,0",
        '2' => "0,5 1,6 3,6 4,5 4,4 0,0 4,0",
        '3' => "0,5 1,6 3,6 4,5 4,4 3,3 1.5,3;3,3 4,2 4,1 3,0 1,0 0,1",
        '4' => "3,0 3,6 0,2 4,2",
        '5' => "4,6 0.3,6 0,3 3,3 4,2 4,1 3,0 0,0",
        '6' => "3.5,6 1,6 0,5 0,1 1,0 3,0 4,1 4,2 3,3 0,3",
        '7' => "0,6 4,6 1.2,0",
        '8' => "1,3 0,4 0,5 1,6 3,6 4,5 4,4 3,3 1,3 0,2 0,1 1,0 3,0 4,1 4,2 3,3",
        '9' => "4,3 1,3 0,4 0,5 1,6 3,6 4,5 4,1 3,0 0.5,0",
        'a' => "1,4 3,4 4,3 4,0;4,1 3,0 1,0 0,1 0,1.6 1,2.3 4,2.3",
        'b' => "0,6 0,0;0,1 1,0 3,0 4,1 4,3 3,4 1,4 0,3",
        'c' => "4,3.4 3,4 1,4 0,3 0,1 1,0 3,0 4,0.6",
        'd' => "4,6 4,0;4,1 3,0 1,0 0,1 0,3 1,4 3,4 4,3",
        'e' => "0,2 4,2 4,3 3,4 1,4 0,3 0,1 1,0 3.5,0",
        'f' => "4,5.5 3.2,6 2.4,6 1.5,5.2 1.5,0;0,4 3.5,4",
        'g' => "4,4 4,-1 3,-2 1,-2;4,1 3,0 1,0 0,1 0,3 1,4 3,4 4,3",
        'h' => "0,6 0,0;0,3 1,4 3,4 4,3 4,0",
        'i' => "2,4 2,0;2,5.6 2,5.7",
        'j' => "3,4 3,-1 2,-2 0.8,-2;3,5.6 3,5.7",
        'k' => "0,6 0,0;3.8,4 0,1.5;1.4,2.4 4,0",
        'l' => "1.5,6 1.5,1 2.5,0 3.2,0",
        'm' => "0,4 0,0;0,3 0.8,4 1.4,4 2,3 2,0;2,3 2.6,4 3.2,4 4,3 4,0",
        'n' => "0,4 0,0;0,3 1,4 3,4 4,3 4,0",
        'o' => "1,0 3,0 4,1 4,3 3,4 1,4 0,3 0,1 1,0",
        'p' => "0,4 0,-2;0,3 1,4 3,4 4,3 4,1 3,0 1,0 0,1",
        'q' => "4,4 4,-2;4,3 3,4 1,4 0,3 0,1 1,0 3,0 4,1",
        'r' => "0,4 0,0;0,2.4 1.6,4 3.6,4",
        's' => "4,3.4 3,4 1,4 0,3.2 1,2.2 3,1.8 4,0.8 3,0 1,0 0,0.6",
        't' => "1.5,5.5 1.5,1 2.5,0 3.5,0;0,4 3.5,4",
        'u' => "0,4 0,1 1,0 3,0 4,1;4,4 4,0",
        'v' => "0,4 2,0 4,4",
        'w' => "0,4 1,0 2,3 3,0 4,4",
        'x' => "0,4 4,0;0,0 4,4",
        'y' => "0,4 2,0;4,4 1,-2",
        'z' => "0,4 4,4 0,0 4,0",
        'A' => "0,0 2,6 4,0;0.7,2 3.3,2",
        'B' => "0,0 0,6 3,6 4,5 4,4 3,3 0,3;3,3 4,2 4,1 3,0 0,0",
        'C' => "4,5 3,6 1,6 0,5 0,1 1,0 3,0 4,1",
        'D' => "0,0 0,6 2.5,6 4,4.5 4,1.5 2.5,0 0,0",
        'E' => "4,6 0,6 0,0 4,0;0,3 3,3",
        'F' => "4,6 0,6 0,0;0,3 3,3",
        'G' => "4,5 3,6 1,6 0,5 0,1 1,0 3,0 4,1 4,3 2,3",
        'H' => "0,0 0,6;4,0 4,6;0,3 4,3",
        'I' => "1,6 3,6;2,6 2,0;1,0 3,0",
        'J' => "4,6 4,1 3,0 1,0 0,1",
        'K' => "0,0 0,6;4,6 0,2;1.3,3.3 4,0",
        'L' => "0,6 0,0 4,0",
        'M' => "0,0 0,6 2,3 4,6 4,0",
        'N' => "0,0 0,6 4,0 4,6",
        'P' => "0,0 0,6 3,6 4,5 4,4 3,3 0,3",
        'Q' => "1,0 3,0 4,1 4,5 3,6 1,6 0,5 0,1 1,0;2.5,1.5 4,-0.5",
        'R' => "0,0 0,6 3,6 4,5 4,4 3,3 0,3;2,3 4,0",
        'S' => "4,5 3,6 1,6 0,5 0,4 1,3 3,3 4,2 4,1 3,0 1,0 0,1",
        'T' => "0,6 4,6;2,6 2,0",
        'U' => "0,6 0,1 1,0 3,0 4,1 4,6",
        'V' => "0,6 2,0 4,6",
        'W' => "0,6 1,0 2,4 3,0 4,6",
        'X' => "0,6 4,0;0,0 4,6",
        'Y' => "0,6 2,3 4,6;2,3 2,0",
        'Z' => "0,6 4,6 0,0 4,0",
        '[' => "3,6.5 1.5,6.5 1.5,-1 3,-1",
        ']' => "1,6.5 2.5,6.5 2.5,-1 1,-1",
        '(' => "3,6.5 1.8,5 1.5,2.75 1.8,0.5 3,-1",
        ')' => "1,6.5 2.2,5 2.5,2.75 2.2,0.5 1,-1",
        '{' => "3,6.5 2,6 2,3.5 1,2.75 2,2 2,-0.5 3,-1",
        '}' => "1,6.5 2,6 2,3.5 3,2.75 2,2 2,-0.5 1,-1",
        '<' => "4,5 0,3 4,1",
        '>' => "0,5 4,3 0,1",
        '|' => "2,6.5 2,-1",
        '/' => "0.5,-0.5 3.5,6.5",
        ',' => "2,0.6 2,0 1.4,-1",
        '.' => "2,0 2,0.1",
        ':' => "2,0 2,0.1;2,3.5 2,3.6",
        ';' => "2,3.5 2,3.6;2,0.6 2,0 1.4,-1",
        '-' => "0.5,3 3.5,3",
        '+' => "0.5,3 3.5,3;2,1.5 2,4.5",
        '=' => "0.5,4 3.5,4;0.5,2 3.5,2",
        '*' => "2,1.5 2,4.5;0.7,2.2 3.3,3.8;0.7,3.8 3.3,2.2",
        '~' => "0,2.8 1,3.6 3,2.4 4,3.2",
        '!' => "2,6 2,2;2,0 2,0.1",
        '?' => "0,5 1,6 3,6 4,5 4,4 2,3 2,2;2,0 2,0.1",
        '^' => "0.5,4 2,6 3.5,4",
        '#' => "1,0 1.5,6;2.5,0 3,6;0,2 4,2;0,4 4,4",
        '\'' => "2,6 2,4.5",
        '"' => "1.2,6 1.2,4.5;2.8,6 2.8,4.5",
        '_' => "0,-0.8 4,-0.8",
        ' ' => "",
        // Anything else: an empty box.
        _ => "0,0 4,0 4,6 0,6 0,0",
    }
}

/// Width in pixels of `text` written `height` pixels high.
pub(crate) fn text_width(text: &str, height: f32) -> f32 {
    let n = text.chars().count() as f32;
    if n == 0.0 {
        return 0.0;
    }
    (n * ADVANCE - (ADVANCE - 4.0)) * height / CAP
}

/// `text` as round-capped lines: its left end of the baseline at `at`, capitals `height`
/// pixels high, strokes in `color` over a halo of `halo` (drawn first, every halo under
/// every stroke, so neighbouring characters never cover each other).
pub(crate) fn text_lines(at: Vec2, text: &str, height: f32, color: Rgba, halo: Rgba) -> Vec<Shape> {
    if !(height.is_finite() && height > 0.0 && at.is_finite()) {
        return Vec::new();
    }
    let scale = height / CAP;
    let width = STROKE * height;
    let halo_width = width + 2.0 * HALO * height;
    let mut segments = Vec::new();
    for (i, c) in text.chars().enumerate() {
        let left = at.x + i as f32 * ADVANCE * scale;
        for line in strokes(c).split(';') {
            let points: Vec<Vec2> = line
                .split_whitespace()
                .filter_map(|p| {
                    let (x, y) = p.split_once(',')?;
                    Some(Vec2::new(
                        left + x.parse::<f32>().ok()? * scale,
                        at.y - y.parse::<f32>().ok()? * scale,
                    ))
                })
                .collect();
            segments.extend(points.windows(2).map(|w| (w[0], w[1])));
        }
    }
    let line = |(from, to): &(Vec2, Vec2), width: f32, color: Rgba| Shape::Line {
        from: *from,
        to: *to,
        width,
        color,
    };
    let mut out: Vec<Shape> = segments.iter().map(|s| line(s, halo_width, halo)).collect();
    out.extend(segments.iter().map(|s| line(s, width, color)));
    out
}

/// The shapes to draw for `shape`: itself, or for text its lines.
pub(crate) fn drawn(shape: &Shape) -> Vec<Shape> {
    match shape {
        Shape::Text {
            at,
            text,
            height,
            color,
            halo,
        } => text_lines(*at, text, *height, *color, *halo),
        other => vec![other.clone()],
    }
}

/// `shapes` with every text turned into its lines (borrowed as they are when there is none).
pub(crate) fn without_text(shapes: &[Shape]) -> std::borrow::Cow<'_, [Shape]> {
    if shapes.iter().any(|s| matches!(s, Shape::Text { .. })) {
        std::borrow::Cow::Owned(shapes.iter().flat_map(drawn).collect())
    } else {
        std::borrow::Cow::Borrowed(shapes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_glyph_parses_into_points_inside_its_cell() {
        let chars = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ[](){}<>|/,.:;-+=*~!?^#'\"_ ";
        for c in chars.chars() {
            let lines = text_lines(
                Vec2::new(0.0, 60.0),
                &c.to_string(),
                60.0,
                Rgba::rgb(0, 0, 0),
                Rgba::rgb(255, 255, 255),
            );
            if c == ' ' {
                assert!(lines.is_empty());
                continue;
            }
            assert!(!lines.is_empty(), "{c:?}");
            for l in &lines {
                let Shape::Line { from, to, .. } = l else {
                    panic!("{c:?}: not a line")
                };
                for p in [from, to] {
                    assert!(p.x >= 0.0 && p.x <= 40.0 + 1e-3, "{c:?}: {p}");
                    assert!(p.y >= -5.1 && p.y <= 80.0 + 1e-3, "{c:?}: {p}");
                }
            }
        }
        // Halos first, then strokes in the text colour.
        let lines = text_lines(
            Vec2::ZERO,
            "3p",
            20.0,
            Rgba::rgb(1, 2, 3),
            Rgba::rgb(9, 9, 9),
        );
        let half = lines.len() / 2;
        assert!(lines[..half]
            .iter()
            .all(|l| matches!(l, Shape::Line { color, .. } if *color == Rgba::rgb(9, 9, 9))));
        assert!(lines[half..]
            .iter()
            .all(|l| matches!(l, Shape::Line { color, .. } if *color == Rgba::rgb(1, 2, 3))));
        assert!((text_width("3p", 60.0) - 96.0).abs() < 1e-3);
        assert!(text_lines(
            Vec2::ZERO,
            "5",
            f32::NAN,
            Rgba::rgb(0, 0, 0),
            Rgba::rgb(0, 0, 0)
        )
        .is_empty());
    }
}
