//! The window's own controls, drawn over and around the juggling: the pattern field with its
//! error line, the facts panel, the time slider with speed and play state, and the key help.
//! None of it draws juggling; that comes only from the `Frame`.

use macroquad::prelude as mq;
use macroquad::text::Font;

use super::animation::Facts;
use super::geometry::{Geometry, Rect, FIELD_PADDING, FONT_SIZE, LINE_HEIGHT};
use super::state::AppState;

const BAR: mq::Color = mq::Color::new(0.118, 0.137, 0.173, 1.0);
const FIELD_BG: mq::Color = mq::Color::new(0.067, 0.082, 0.110, 1.0);
const BORDER: mq::Color = mq::Color::new(0.26, 0.29, 0.35, 1.0);
const FOCUS: mq::Color = mq::Color::new(0.36, 0.61, 0.84, 1.0);
const TEXT: mq::Color = mq::Color::new(0.90, 0.92, 0.95, 1.0);
const DIM: mq::Color = mq::Color::new(0.58, 0.62, 0.69, 1.0);
const ERROR: mq::Color = mq::Color::new(1.0, 0.42, 0.42, 1.0);
const VALID: mq::Color = mq::Color::new(0.45, 0.85, 0.50, 1.0);
const PANEL_BG: mq::Color = mq::Color::new(0.07, 0.085, 0.11, 0.82);

/// The one-line help, longest first; the longest one that fits the window is shown.
const HELP_LINES: [&str; 3] = [
    "Space pause · ←→ or +- speed · , . step · drag orbit · wheel zoom · R reset view · type a pattern + Enter · Esc revert · H help · Q quit",
    "Space pause · ←→ +- speed · ,. step · drag orbit · wheel zoom · R reset · Enter edit · H help",
    "Space pause · +- speed · H help",
];

/// The full key list shown with H.
const HELP_FULL: [(&str, &str); 15] = [
    ("Space", "pause / resume"),
    ("→ ↑ + =", "faster (up to 4x)"),
    ("← ↓ - _", "slower (down to 0.1x)"),
    (". ,", "step one frame forward / back (pauses)"),
    ("slider", "click or drag to scrub through one loop"),
    ("drag", "orbit the camera"),
    ("wheel", "zoom"),
    ("R", "reset the view"),
    ("0-9 a-z ( < [", "start typing a new pattern (not r h i q)"),
    ("Enter / Tab", "edit the pattern; Enter plays it"),
    ("Ctrl+V / drop", "paste a pattern / open a dropped file"),
    ("PgDn / PgUp", "next / previous pattern of the file"),
    ("Esc", "revert the field to the playing pattern"),
    ("I", "show / hide the facts panel"),
    ("H ?  /  Q", "this help  /  quit"),
];

/// Fonts and measurements for drawing text.
pub struct Text {
    font: Option<Font>,
    /// Advance of one character at [`FONT_SIZE`] (the font is monospace).
    pub char_width: f32,
}

impl Text {
    /// Text drawn with `font`, or macroquad's built-in font when `None`.
    pub fn new(font: Option<Font>) -> Self {
        // Every glyph the UI and typical typing need, rendered now: a glyph first met while
        // drawing grows the font atlas mid-frame, and the draw calls already queued then bind
        // the deleted old atlas texture (an error in the browser's WebGL).
        if let Some(font) = &font {
            let glyphs: Vec<char> = (' '..='~').chain("·…←↑→↓é".chars()).collect();
            font.populate_font_cache(&glyphs, FONT_SIZE);
        }
        let char_width = mq::measure_text("MMMMMMMMMM", font.as_ref(), FONT_SIZE, 1.0).width / 10.0;
        Text { font, char_width }
    }

    fn draw(&self, s: &str, x: f32, baseline: f32, color: mq::Color) {
        mq::draw_text_ex(
            s,
            x.round(),
            baseline.round(),
            mq::TextParams {
                font: self.font.as_ref(),
                font_size: FONT_SIZE,
                color,
                ..Default::default()
            },
        );
    }

    /// Baseline that centres a line of text vertically in `rect`.
    fn baseline_in(&self, rect: &Rect) -> f32 {
        rect.center_y() + FONT_SIZE as f32 * 0.35
    }

    fn width(&self, s: &str) -> f32 {
        s.chars().count() as f32 * self.char_width
    }
}

/// Everything the controls show besides the app state.
pub struct UiInfo<'a> {
    pub facts: &'a Facts,
    /// Pattern time shown on the clock (may differ from the playback clock in screenshot mode).
    pub time: f64,
    /// Entry playing and entries in the playlist, when browsing a file's patterns.
    pub playlist: Option<(usize, usize)>,
}

/// Draws all controls for the current state.
pub fn draw(g: &Geometry, text: &Text, state: &AppState, info: &UiInfo) {
    draw_bars(g);
    draw_field(g, text, state);
    if state.facts {
        draw_panel(g, text, state, info);
    }
    draw_slider(g, text, state, info);
    draw_help_line(g, text);
    if let Some(err) = &state.error {
        draw_error(g, text, &err.message);
    }
    if state.help {
        draw_full_help(g, text);
    }
}

fn fill(r: &Rect, c: mq::Color) {
    mq::draw_rectangle(r.x, r.y, r.w, r.h, c);
}

fn outline(r: &Rect, thickness: f32, c: mq::Color) {
    mq::draw_rectangle_lines(r.x, r.y, r.w, r.h, thickness, c);
}

fn draw_bars(g: &Geometry) {
    fill(&Rect::new(0.0, 0.0, g.width, g.viewport.y), BAR);
    let bottom = g.viewport.y + g.viewport.h;
    fill(&Rect::new(0.0, bottom, g.width, g.height - bottom), BAR);
}

fn draw_field(g: &Geometry, text: &Text, state: &AppState) {
    let field = &g.field;
    let focused = state.field.focused();
    fill(field, FIELD_BG);
    outline(
        field,
        if focused { 2.0 } else { 1.0 },
        if focused { FOCUS } else { BORDER },
    );
    let baseline = text.baseline_in(field);
    let content = state.field.text();
    let columns = g.field_columns();
    // Long text scrolls to keep the caret in view; unfocused, it shows its start.
    let first = state.field.scroll(columns);
    let length = content.chars().count();
    let rest: String = content.chars().skip(first).collect();
    let shown = if !focused && length > first + columns {
        truncate(&rest, columns)
    } else {
        rest.chars().take(columns).collect()
    };
    // The problem's column, highlighted while the field still holds the text that failed.
    let bad_column = state
        .error
        .as_ref()
        .filter(|e| e.text == content)
        .and_then(|e| e.column)
        .filter(|&c| c >= first && c < first + columns);
    if let Some(col) = bad_column {
        let x = g.field_char_x(col - first);
        let w = text.char_width.max(4.0);
        fill(
            &Rect::new(x, field.y + 4.0, w, field.h - 8.0),
            mq::Color::new(1.0, 0.3, 0.3, 0.35),
        );
        let tip = field.y + field.h + 1.0;
        mq::draw_triangle(
            mq::vec2(x + w / 2.0, tip),
            mq::vec2(x + w / 2.0 - 6.0, tip + 8.0),
            mq::vec2(x + w / 2.0 + 6.0, tip + 8.0),
            ERROR,
        );
    }
    text.draw(&shown, field.x + FIELD_PADDING, baseline, TEXT);
    if focused {
        let x = g.field_char_x(state.field.cursor() - first);
        mq::draw_line(x, field.y + 6.0, x, field.y + field.h - 6.0, 2.0, FOCUS);
    }
    let hint = if focused {
        "Enter play · Esc revert"
    } else if content == state.playing {
        "type a siteswap to change the pattern"
    } else {
        "Enter edit · Esc revert"
    };
    let hx = field.x + field.w - FIELD_PADDING - text.width(hint);
    if hx > g.field_char_x(shown.chars().count()) + 20.0 {
        text.draw(hint, hx, baseline, DIM);
    }
}

fn draw_error(g: &Geometry, text: &Text, message: &str) {
    let max_chars = ((g.width - 40.0) / text.char_width).max(8.0) as usize;
    let full = format!("{message} · the previous pattern keeps playing");
    let line = if full.chars().count() <= max_chars {
        full
    } else {
        truncate(message, max_chars)
    };
    let r = Rect::new(
        g.field.x,
        g.viewport.y + 6.0,
        text.width(&line) + 16.0,
        LINE_HEIGHT + 6.0,
    );
    fill(&r, mq::Color::new(0.16, 0.05, 0.06, 0.9));
    outline(&r, 1.0, ERROR);
    text.draw(&line, r.x + 8.0, text.baseline_in(&r), ERROR);
}

fn draw_panel(g: &Geometry, text: &Text, state: &AppState, info: &UiInfo) {
    let facts = info.facts;
    let p = &g.panel;
    fill(p, PANEL_BG);
    outline(p, 1.0, BORDER);
    let value_chars = ((p.w - 16.0) / text.char_width) as usize;
    let value_chars = value_chars.saturating_sub(10);
    let rows = [
        ("pattern", truncate(&facts.name, value_chars)),
        ("jugglers", facts.jugglers.to_string()),
        ("props", facts.props.to_string()),
        ("period", plural(facts.period, "beat")),
        ("beats/s", format!("{:.2}", facts.beats_per_second)),
        ("loop", format!("{:.2} s", facts.loop_seconds)),
    ];
    let mut y = p.y + 8.0 + LINE_HEIGHT * 0.75;
    for (label, value) in rows {
        text.draw(label, p.x + 8.0, y, DIM);
        text.draw(&value, p.x + 8.0 + 10.0 * text.char_width, y, TEXT);
        y += LINE_HEIGHT;
    }
    text.draw("status", p.x + 8.0, y, DIM);
    let (status, color) = match &state.error {
        None => ("valid", VALID),
        Some(_) => ("typed invalid", ERROR),
    };
    text.draw(status, p.x + 8.0 + 10.0 * text.char_width, y, color);
    if let Some((i, n)) = info.playlist {
        let line = format!("{} of {n} · PgDn/PgUp", i + 1);
        let r = Rect::new(p.x, p.y - LINE_HEIGHT - 8.0, p.w, LINE_HEIGHT + 4.0);
        fill(&r, PANEL_BG);
        text.draw(&line, p.x + 8.0, text.baseline_in(&r), TEXT);
    }
}

fn draw_slider(g: &Geometry, text: &Text, state: &AppState, info: &UiInfo) {
    let (pb, time) = (&state.playback, info.time);
    let clock = format!("{:.2} / {:.2} s", time, pb.loop_duration());
    text.draw(
        &clock,
        g.time_label.x,
        text.baseline_in(&g.time_label),
        TEXT,
    );

    let s = &g.slider;
    let cy = s.center_y();
    let knob = g.slider_x(pb.fraction());
    mq::draw_rectangle(s.x, cy - 2.0, s.w, 4.0, BORDER);
    mq::draw_rectangle(s.x, cy - 2.0, knob - s.x, 4.0, FOCUS);
    // A tick per beat, when they are far enough apart to read.
    for fraction in beat_ticks(info.facts.beats_per_second, pb.loop_duration(), s.w) {
        let x = g.slider_x(fraction).round();
        mq::draw_line(x, cy - 6.0, x, cy + 6.0, 1.0, DIM);
    }
    mq::draw_circle(knob, cy, 8.0, TEXT);
    mq::draw_circle(knob, cy, 5.0, FOCUS);

    let play = if pb.paused() { "paused" } else { "playing" };
    let speed = format!("{play} · {}", state.speed_label());
    let x = g.speed_label.x + g.speed_label.w - text.width(&speed);
    let color = if pb.paused() {
        mq::Color::new(1.0, 0.8, 0.4, 1.0)
    } else {
        TEXT
    };
    text.draw(&speed, x, text.baseline_in(&g.speed_label), color);
}

fn draw_help_line(g: &Geometry, text: &Text) {
    let available = g.width - 24.0;
    let line = HELP_LINES
        .iter()
        .find(|l| text.width(l) <= available)
        .unwrap_or(&HELP_LINES[2]);
    text.draw(line, 12.0, g.help_baseline, DIM);
}

fn draw_full_help(g: &Geometry, text: &Text) {
    let key_w = 16.0 * text.char_width;
    let w = key_w + 44.0 * text.char_width + 24.0;
    let h = HELP_FULL.len() as f32 * LINE_HEIGHT + 48.0;
    let r = Rect::new(24.0, g.viewport.y + 44.0, w, h);
    fill(&r, mq::Color::new(0.07, 0.085, 0.11, 0.93));
    outline(&r, 1.0, FOCUS);
    let mut y = r.y + 12.0 + LINE_HEIGHT * 0.75;
    text.draw("Keys and mouse (H closes)", r.x + 12.0, y, FOCUS);
    y += LINE_HEIGHT * 1.5;
    for (key, what) in HELP_FULL {
        text.draw(key, r.x + 12.0, y, TEXT);
        text.draw(what, r.x + 12.0 + key_w, y, DIM);
        y += LINE_HEIGHT;
    }
}

/// Loop fractions of the beats inside a loop of `loop_seconds` at `bps` (the loop's start and
/// end excluded), or none when they would be closer than 6 pixels on a `width`-pixel slider.
pub fn beat_ticks(bps: f64, loop_seconds: f64, width: f32) -> Vec<f64> {
    let beats = bps * loop_seconds;
    if !(beats.is_finite() && beats >= 1.0) || f64::from(width) / beats < 6.0 {
        return Vec::new();
    }
    let step = 1.0 / beats;
    (1..)
        .map(|i| f64::from(i) * step)
        .take_while(|f| *f < 1.0 - step / 2.0)
        .collect()
}

/// `n` and a noun, plural unless `n` is 1: `1 beat`, `3 beats`.
pub fn plural(n: u32, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// `s` cut to at most `max` characters, ending in `…` when cut.
pub fn truncate(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut out: String = s.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_tick_per_beat_inside_the_loop() {
        // 2 s at 3 beats/s: 6 beats, ticks at 1/6 .. 5/6.
        let ticks = beat_ticks(3.0, 2.0, 600.0);
        assert_eq!(ticks.len(), 5);
        assert!((ticks[0] - 1.0 / 6.0).abs() < 1e-12 && (ticks[4] - 5.0 / 6.0).abs() < 1e-12);
        // Too crowded, or nonsense, gives none.
        assert!(beat_ticks(10.0, 20.0, 600.0).is_empty());
        assert!(beat_ticks(f64::NAN, 2.0, 600.0).is_empty());
        assert!(beat_ticks(0.0, 2.0, 600.0).is_empty());
    }

    #[test]
    fn plural_nouns() {
        assert_eq!(plural(1, "beat"), "1 beat");
        assert_eq!(plural(0, "beat"), "0 beats");
        assert_eq!(plural(10, "beat"), "10 beats");
    }

    #[test]
    fn truncate_keeps_short_text_and_marks_cuts() {
        assert_eq!(truncate("531", 5), "531");
        assert_eq!(truncate("<3p|3p>", 7), "<3p|3p>");
        assert_eq!(truncate("(4,2x)*(4,2x)", 6), "(4,2x…");
        assert_eq!(truncate("abc", 0), "…");
    }
}
