//! The window's own controls, drawn over and around the juggling: the pattern field with its
//! error line and the panel buttons, the facts, the time slider with speed and play state, the
//! key help, the library list and the ladder diagram. None of it draws juggling; that comes
//! only from the `Frame`.

use glam::Vec2;
use macroquad::prelude as mq;
use macroquad::text::Font;

use super::animation::Facts;
use super::diagram_panel;
use super::geometry::{Button, FactsLayout, Geometry, Rect, FIELD_PADDING};
use super::library_list::LibraryList;
use super::state::{AppState, Focus};
use crate::render::gl::draw::{smooth_disc, smooth_polyline, with_flat_material};
use crate::tools::diagram::{orbit_color, Ladder};

const BAR: mq::Color = mq::Color::new(0.118, 0.137, 0.173, 1.0);
const FIELD_BG: mq::Color = mq::Color::new(0.067, 0.082, 0.110, 1.0);
const BORDER: mq::Color = mq::Color::new(0.26, 0.29, 0.35, 1.0);
const FOCUS: mq::Color = mq::Color::new(0.36, 0.61, 0.84, 1.0);
const TEXT: mq::Color = mq::Color::new(0.90, 0.92, 0.95, 1.0);
const DIM: mq::Color = mq::Color::new(0.58, 0.62, 0.69, 1.0);
const ERROR: mq::Color = mq::Color::new(1.0, 0.42, 0.42, 1.0);
const VALID: mq::Color = mq::Color::new(0.45, 0.85, 0.50, 1.0);
const PANEL_BG: mq::Color = mq::Color::new(0.07, 0.085, 0.11, 0.82);
const SIDE_BG: mq::Color = mq::Color::new(0.086, 0.10, 0.13, 1.0);
const SELECTED: mq::Color = mq::Color::new(0.20, 0.33, 0.48, 1.0);
const HIGHLIGHT: mq::Color = mq::Color::new(1.0, 0.92, 0.30, 1.0);

/// The one-line help, longest first; the longest one that fits the window is shown.
pub const HELP_LINES: [&str; 4] = [
    "Space pause · ←→ speed · , . step · drag orbit · wheel zoom · type a pattern + Enter · Ctrl+L library · Ctrl+D diagram · F5 sound · F6 labels · F8 view · F1 help",
    "Space pause · ←→ speed · , . step · drag orbit · wheel zoom · type a pattern + Enter · Ctrl+L library · Ctrl+D diagram · F1 help",
    "Space pause · ←→ speed · drag orbit · type a pattern · Ctrl+L library · F1 help",
    "Space pause · F1 help",
];

/// The full key list shown with F1 (or `?`, or the Help button).
pub const HELP_FULL: [(&str, &str); 24] = [
    ("type", "any letter, digit, ( < [ starts a new pattern: a siteswap, a settings string or a library name; Enter plays it"),
    ("Enter / Tab", "edit the pattern field"),
    ("Esc", "close this help / revert the field / close the list"),
    ("Space", "pause / resume (or click the play state)"),
    ("→ ↑ + =", "faster (up to 4x)"),
    ("← ↓ - _", "slower (down to 0.1x)"),
    (". ,", "step one frame forward / back (pauses)"),
    ("slider", "click or drag to scrub through one loop"),
    ("drag", "orbit the camera (one finger on a touch screen)"),
    ("wheel", "zoom (pinch or drag two fingers on a touch screen)"),
    ("Home, Ctrl+R", "reset the view"),
    ("PgDn / PgUp", "next / previous pattern of the file or library group"),
    ("Ctrl+L, F3", "library list: type to search, ↑ ↓ and Enter, or click"),
    ("Ctrl+D, F4", "ladder diagram; click a throw to highlight its prop"),
    ("Ctrl+I, F2", "show / hide the facts"),
    ("Ctrl+S, F5", "sound on / off: a click at every catch, as the animation passes it (slow motion keeps it on the catch)"),
    ("Ctrl+N, F6", "throw labels: each throw's value (5, 3p, 4x) by its prop as it leaves the hand"),
    ("Ctrl+T, F7", "trail: the path of the highlighted prop (or prop 1) over one loop"),
    ("Ctrl+E, F8", "next view: orbit, front, side, top, mirror (copy it hand for hand), each juggler's eyes"),
    ("Ctrl+→ Ctrl+←", "step to the next / previous throw or catch (pauses)"),
    ("Ctrl+B, F9", "loop beats: press at the first beat, again at the last, a third time to play it all"),
    ("Ctrl+V / drop", "paste a pattern / open a dropped file"),
    ("F1, ?", "this help"),
    ("Ctrl+Q", "quit"),
];

/// Width of the key column of the help, characters.
const HELP_KEY_CHARS: usize = 14;

/// Fonts and measurements for drawing text.
pub struct Text {
    font: Option<Font>,
    /// Device pixels per layout pixel (`dpi_scale`).
    scale: f32,
    /// Advance of one character at [`super::geometry::FONT_SIZE`] (the font is monospace).
    pub char_width: f32,
}

impl Text {
    /// Text drawn with `font`, or macroquad's built-in font when `None`. macroquad rasterises
    /// glyphs at `dpi_scale` device pixels per layout pixel (the web page's devicePixelRatio;
    /// 1 in the window), so the cache is filled at those sizes.
    pub fn new(font: Option<Font>, dpi_scale: f32) -> Self {
        let scale = if dpi_scale.is_finite() && dpi_scale > 0.0 {
            dpi_scale
        } else {
            1.0
        };
        let size = super::geometry::FONT_SIZE;
        // Every glyph the UI and typical typing need, rendered now at both layout sizes: a glyph
        // first met while drawing grows the font atlas mid-frame, and the draw calls already
        // queued then bind the deleted old atlas texture (an error in the browser's WebGL).
        if let Some(font) = &font {
            let glyphs: Vec<char> = (' '..='~').chain("·…←↑→↓é".chars()).collect();
            for s in [size, super::geometry::SMALL_FONT_SIZE] {
                font.populate_font_cache(&glyphs, scaled(s, scale));
            }
        }
        let char_width = mq::measure_text("MMMMMMMMMM", font.as_ref(), size, 1.0).width / 10.0;
        Text {
            font,
            scale,
            char_width,
        }
    }
}

/// A font size in device pixels, as macroquad's `draw_text_ex` works it out.
fn scaled(size: u16, scale: f32) -> u16 {
    (f32::from(size) * scale)
        .ceil()
        .clamp(1.0, f32::from(u16::MAX)) as u16
}

/// Text drawing at one layout's font size.
struct Pen<'a> {
    text: &'a Text,
    size: u16,
    char_width: f32,
}

impl Pen<'_> {
    fn draw(&self, s: &str, x: f32, baseline: f32, color: mq::Color) {
        // On whole device pixels (the page's canvas may have 1.91 of them to a layout pixel:
        // rounding in layout pixels would leave glyphs between device pixels, blurred).
        let device = |v: f32| (v * self.text.scale).round() / self.text.scale;
        mq::draw_text_ex(
            s,
            device(x),
            device(baseline),
            mq::TextParams {
                font: self.text.font.as_ref(),
                font_size: self.size,
                color,
                ..Default::default()
            },
        );
    }

    /// Baseline that centres a line of text vertically in `rect`.
    fn baseline_in(&self, rect: &Rect) -> f32 {
        rect.center_y() + f32::from(self.size) * 0.35
    }

    fn width(&self, s: &str) -> f32 {
        s.chars().count() as f32 * self.char_width
    }

    /// Characters that fit in `pixels`.
    fn chars_in(&self, pixels: f32) -> usize {
        (pixels / self.char_width).floor().max(0.0) as usize
    }
}

/// The diagram as the window shows it.
pub struct DiagramInfo<'a> {
    pub ladder: &'a Ladder,
    pub beats_per_second: f64,
    /// Per arc of the ladder: whether the highlighted prop makes that throw.
    pub highlighted: Vec<bool>,
}

/// Everything the controls show besides the app state.
pub struct UiInfo<'a> {
    pub facts: &'a Facts,
    /// Pattern time shown on the clock (may differ from the playback clock in screenshot mode).
    pub time: f64,
    /// Entry playing and entries in the playlist, when browsing a file's patterns.
    pub playlist: Option<(usize, usize)>,
    pub diagram: Option<DiagramInfo<'a>>,
    /// The highlighted prop in window pixels: centre and radius.
    pub highlight: Option<(Vec2, f32)>,
}

/// Draws what the web page's canvas shows besides the juggling (its controls are the page's
/// own): the highlighted prop and the ladder diagram.
pub fn draw_page(g: &Geometry, text: &Text, info: &UiInfo) {
    let pen = Pen {
        text,
        size: g.font_size,
        char_width: g.char_width,
    };
    draw_highlight(info);
    if let (Some(d), Some(rect)) = (&info.diagram, g.diagram) {
        draw_diagram(g, &rect, &pen, d, info.time);
    }
}

fn draw_highlight(info: &UiInfo) {
    if let Some((centre, radius)) = info.highlight {
        let r = radius.max(4.0) + 5.0;
        mq::draw_circle_lines(centre.x, centre.y, r, 3.0, HIGHLIGHT);
        mq::draw_circle_lines(
            centre.x,
            centre.y,
            r + 3.0,
            1.5,
            mq::Color::new(0.0, 0.0, 0.0, 0.6),
        );
    }
}

/// Draws all controls for the current state.
pub fn draw(g: &Geometry, text: &Text, state: &AppState, info: &UiInfo) {
    let pen = Pen {
        text,
        size: g.font_size,
        char_width: g.char_width,
    };
    draw_highlight(info);
    draw_bars(g);
    draw_field(g, &pen, state);
    draw_buttons(g, &pen, state);
    match g.facts {
        FactsLayout::Panel(r) => draw_facts_panel(&r, g, &pen, state, info),
        FactsLayout::Line(r) => draw_facts_line(&r, &pen, state, info),
        FactsLayout::Hidden => {}
    }
    draw_slider(g, &pen, state, info);
    draw_help_line(g, &pen);
    match (&info.diagram, g.diagram) {
        (Some(d), Some(rect)) => draw_diagram(g, &rect, &pen, d, info.time),
        // The panel is open but the pattern has no ladder (it is given by its events).
        (None, Some(rect)) => draw_diagram_note(
            &rect,
            &pen,
            "no ladder diagram: the pattern has no siteswap",
        ),
        (_, None) => {}
    }
    if let Some(side) = g.side {
        match &state.library {
            Some(list) if g.side_is_library => {
                draw_library(g, &side, &pen, list, state.focus() == Focus::Library);
            }
            _ => draw_full_help(&side, &pen, state.help_scroll),
        }
    }
    draw_learning(g, &pen, state);
    if let Some(err) = &state.error {
        draw_error(g, &pen, &err.message);
    }
}

/// What the learner turned on, in a line (`sound · labels · trail 2 · mirror · beats
/// 2-5`), if anything.
pub fn learning_line(state: &AppState) -> Option<String> {
    let learn = &state.learn;
    let mut parts = Vec::new();
    if learn.sound {
        parts.push(format!("sound ({})", learn.parts.names()));
    }
    if learn.labels {
        parts.push("labels".to_string());
    }
    if let Some(prop) = learn.trail {
        parts.push(format!("trail of prop {}", prop + 1));
    }
    match learn.view {
        crate::render::ViewKind::Auto => {}
        crate::render::ViewKind::Eye(n) => parts.push(format!("juggler {}'s eyes", n + 1)),
        view => parts.push(format!("{} view", view.name())),
    }
    if let Some(stretch) = state.loop_label() {
        parts.push(stretch);
    }
    (!parts.is_empty()).then(|| parts.join(" · "))
}

/// The learning line at the bottom left of the view.
fn draw_learning(g: &Geometry, pen: &Pen, state: &AppState) {
    let Some(line) = learning_line(state) else {
        return;
    };
    let v = &g.viewport;
    let line = truncate(&line, pen.chars_in(v.w - 40.0));
    let h = g.line_height + 6.0;
    let r = Rect::new(v.x + 12.0, v.bottom() - h - 6.0, pen.width(&line) + 16.0, h);
    fill(&r, PANEL_BG);
    pen.draw(&line, r.x + 8.0, pen.baseline_in(&r), TEXT);
}

fn fill(r: &Rect, c: mq::Color) {
    with_flat_material(|| mq::draw_rectangle(r.x, r.y, r.w, r.h, c));
}

fn outline(r: &Rect, thickness: f32, c: mq::Color) {
    with_flat_material(|| mq::draw_rectangle_lines(r.x, r.y, r.w, r.h, thickness, c));
}

fn draw_bars(g: &Geometry) {
    fill(&Rect::new(0.0, 0.0, g.width, g.top_bar), BAR);
    fill(
        &Rect::new(0.0, g.bottom_bar_y, g.width, g.height - g.bottom_bar_y),
        BAR,
    );
}

fn draw_buttons(g: &Geometry, pen: &Pen, state: &AppState) {
    for (b, r) in Button::ALL.iter().zip(&g.buttons) {
        let active = match b {
            Button::Library => state.library.is_some(),
            Button::Diagram => state.diagram,
            Button::Help => state.help,
        };
        fill(r, if active { SELECTED } else { FIELD_BG });
        outline(r, 1.0, if active { FOCUS } else { BORDER });
        let label = b.label(g.narrow);
        let x = r.x + (r.w - pen.width(label)) / 2.0;
        pen.draw(
            label,
            x,
            pen.baseline_in(r),
            if active { TEXT } else { DIM },
        );
    }
}

fn draw_field(g: &Geometry, pen: &Pen, state: &AppState) {
    let field = &g.field;
    let focused = state.field.focused();
    fill(field, FIELD_BG);
    outline(
        field,
        if focused { 2.0 } else { 1.0 },
        if focused { FOCUS } else { BORDER },
    );
    let baseline = pen.baseline_in(field);
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
        let w = g.char_width.max(4.0);
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
    pen.draw(&shown, field.x + FIELD_PADDING, baseline, TEXT);
    if focused {
        let x = g.field_char_x(state.field.cursor() - first);
        mq::draw_line(x, field.y + 6.0, x, field.y + field.h - 6.0, 2.0, FOCUS);
    }
    let hint = if focused {
        "Enter play · Esc revert"
    } else if content == state.playing {
        "type a siteswap or a name"
    } else {
        "Enter edit · Esc revert"
    };
    let hx = field.x + field.w - FIELD_PADDING - pen.width(hint);
    if hx > g.field_char_x(shown.chars().count()) + 20.0 {
        pen.draw(hint, hx, baseline, DIM);
    }
}

fn draw_error(g: &Geometry, pen: &Pen, message: &str) {
    let v = &g.viewport;
    let max_chars = pen.chars_in(v.w - 40.0).max(8);
    let full = format!("{message} · the previous pattern keeps playing");
    let line = if full.chars().count() <= max_chars {
        full
    } else {
        truncate(message, max_chars)
    };
    let r = Rect::new(
        v.x + 12.0,
        v.y + 6.0,
        pen.width(&line) + 16.0,
        g.line_height + 6.0,
    );
    fill(&r, mq::Color::new(0.16, 0.05, 0.06, 0.9));
    outline(&r, 1.0, ERROR);
    pen.draw(&line, r.x + 8.0, pen.baseline_in(&r), ERROR);
}

fn facts_rows(facts: &Facts, value_chars: usize) -> [(&'static str, String); 6] {
    [
        ("pattern", truncate(&facts.name, value_chars)),
        ("jugglers", facts.jugglers.to_string()),
        ("props", facts.props.to_string()),
        ("period", plural(facts.period, "beat")),
        ("beats/s", format!("{:.2}", facts.beats_per_second)),
        ("loop", format!("{:.2} s", facts.loop_seconds)),
    ]
}

fn draw_facts_panel(p: &Rect, g: &Geometry, pen: &Pen, state: &AppState, info: &UiInfo) {
    fill(p, PANEL_BG);
    outline(p, 1.0, BORDER);
    let value_chars = pen.chars_in(p.w - 16.0).saturating_sub(10);
    let mut y = p.y + 8.0 + g.line_height * 0.75;
    let value_x = p.x + 8.0 + 10.0 * g.char_width;
    for (label, value) in facts_rows(info.facts, value_chars) {
        pen.draw(label, p.x + 8.0, y, DIM);
        pen.draw(&value, value_x, y, TEXT);
        y += g.line_height;
    }
    pen.draw("status", p.x + 8.0, y, DIM);
    let (status, color) = match &state.error {
        None => ("valid", VALID),
        Some(_) => ("typed invalid", ERROR),
    };
    pen.draw(status, value_x, y, color);
    if let Some((i, n)) = info.playlist {
        let line = format!("{} of {n} · PgDn/PgUp", i + 1);
        let r = Rect::new(p.x, p.y - g.line_height - 8.0, p.w, g.line_height + 4.0);
        fill(&r, PANEL_BG);
        pen.draw(&line, p.x + 8.0, pen.baseline_in(&r), TEXT);
    }
}

/// The facts as one line (small windows): name, props, period, beats per second.
fn draw_facts_line(r: &Rect, pen: &Pen, state: &AppState, info: &UiInfo) {
    let f = info.facts;
    let mut parts = vec![
        f.name.clone(),
        plural(f.props as u32, "prop"),
        plural(f.period, "beat"),
        format!("{:.2} beats/s", f.beats_per_second),
    ];
    if f.jugglers > 1 {
        parts.insert(1, plural(f.jugglers as u32, "juggler"));
    }
    if let Some((i, n)) = info.playlist {
        parts.push(format!("{} of {n}", i + 1));
    }
    let line = truncate(&parts.join(" · "), pen.chars_in(r.w - 16.0));
    fill(r, BAR);
    let color = if state.error.is_some() { DIM } else { TEXT };
    pen.draw(&line, r.x + 8.0, pen.baseline_in(r), color);
}

fn draw_slider(g: &Geometry, pen: &Pen, state: &AppState, info: &UiInfo) {
    let (pb, time) = (&state.playback, info.time);
    let clock = format!("{:.2} / {:.2} s", time, pb.loop_duration());
    pen.draw(&clock, g.time_label.x, pen.baseline_in(&g.time_label), TEXT);

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
    smooth_disc(Vec2::new(knob, cy), 8.0, TEXT);
    smooth_disc(Vec2::new(knob, cy), 5.0, FOCUS);

    let play = if pb.paused() { "paused" } else { "playing" };
    let speed = format!("{play} · {}", state.speed_label());
    let x = g.speed_label.x + g.speed_label.w - pen.width(&speed);
    let color = if pb.paused() {
        mq::Color::new(1.0, 0.8, 0.4, 1.0)
    } else {
        TEXT
    };
    pen.draw(&speed, x, pen.baseline_in(&g.speed_label), color);
}

fn draw_help_line(g: &Geometry, pen: &Pen) {
    let Some(baseline) = g.help_baseline else {
        return;
    };
    let available = g.width - 24.0;
    let line = HELP_LINES
        .iter()
        .find(|l| pen.width(l) <= available)
        .unwrap_or(&HELP_LINES[3]);
    pen.draw(line, 12.0, baseline, DIM);
}

/// The help as lines of `(key, description)` for a panel `columns` characters wide: two
/// columns (descriptions wrapped) when it is wide enough, else each key on its own line with
/// its description indented under it.
pub fn help_lines(columns: usize) -> Vec<(String, String)> {
    let two_columns = columns >= HELP_KEY_CHARS + 24;
    let mut out = Vec::new();
    for (key, what) in HELP_FULL {
        if two_columns {
            for (i, line) in wrap(what, columns - HELP_KEY_CHARS).into_iter().enumerate() {
                let k = if i == 0 {
                    key.to_string()
                } else {
                    String::new()
                };
                out.push((k, line));
            }
        } else {
            out.push((key.to_string(), String::new()));
            for line in wrap(what, columns.saturating_sub(2).max(8)) {
                out.push((String::new(), format!("  {line}")));
            }
        }
    }
    out
}

/// `s` broken at spaces into lines of at most `width` characters (longer words are cut).
pub fn wrap(s: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in s.split_whitespace() {
        let (n, w) = (line.chars().count(), word.chars().count());
        if n > 0 && n + 1 + w > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
        while line.chars().count() > width {
            let head: String = line.chars().take(width).collect();
            let tail: String = line.chars().skip(width).collect();
            lines.push(head);
            line = tail;
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// The largest useful scroll of the help in layout `g` (lines that do not fit), 0 when the
/// help is closed or fits.
pub fn help_max_scroll(g: &Geometry) -> usize {
    let Some(r) = g.side.filter(|_| !g.side_is_library) else {
        return 0;
    };
    let columns = ((r.w - 24.0) / g.char_width).floor().max(0.0) as usize;
    let lines = help_lines(columns).len();
    lines.saturating_sub(help_rows(&r, g.line_height, lines))
}

/// Help lines shown at once in panel `r` holding `lines` lines: as many as fit below the
/// title, less the last one when they do not all fit (it says how to see more).
fn help_rows(r: &Rect, lh: f32, lines: usize) -> usize {
    let first = r.y + 8.0 + lh * 0.75 + lh * 1.5;
    let fit = (((r.bottom() - 4.0 - first) / lh).floor().max(0.0)) as usize + 1;
    if fit >= lines {
        fit
    } else {
        fit.saturating_sub(1).max(1)
    }
}

fn draw_full_help(r: &Rect, pen: &Pen, scroll: usize) {
    fill(r, SIDE_BG);
    outline(r, 1.0, FOCUS);
    let lh = (f32::from(pen.size) * 1.25).round();
    let columns = pen.chars_in(r.w - 24.0);
    let lines = help_lines(columns);
    let mut y = r.y + 8.0 + lh * 0.75;
    let title = if columns >= 42 {
        "Keys, mouse and touch (Esc or F1 closes)"
    } else {
        "Help (Esc closes)"
    };
    pen.draw(&truncate(title, columns), r.x + 12.0, y, FOCUS);
    y += lh * 1.5;
    let rows = help_rows(r, lh, lines.len());
    let scroll = scroll.min(lines.len().saturating_sub(rows));
    let key_x = r.x + 12.0;
    let what_x = if columns >= HELP_KEY_CHARS + 24 {
        key_x + HELP_KEY_CHARS as f32 * pen.char_width
    } else {
        key_x
    };
    for (key, what) in lines.iter().skip(scroll).take(rows) {
        pen.draw(key, key_x, y, TEXT);
        pen.draw(what, what_x, y, DIM);
        y += lh;
    }
    if scroll + rows < lines.len() {
        let more = "more: wheel or drag";
        pen.draw(
            more,
            r.right() - 12.0 - pen.width(more),
            r.bottom() - 6.0,
            FOCUS,
        );
    }
}

fn draw_library(g: &Geometry, r: &Rect, pen: &Pen, list: &LibraryList, focused: bool) {
    fill(r, SIDE_BG);
    outline(r, 1.0, FOCUS);
    let columns = pen.chars_in(r.w - 24.0);
    let title = if list.match_count() == list.len() {
        format!("Library · {} patterns", list.len())
    } else {
        format!("Library · {} of {}", list.match_count(), list.len())
    };
    let title_rect = Rect::new(r.x + 12.0, r.y + 4.0, r.w - 24.0, g.line_height + 6.0);
    pen.draw(
        &truncate(&title, columns),
        title_rect.x,
        pen.baseline_in(&title_rect),
        FOCUS,
    );
    let hint = "Esc closes";
    if title.chars().count() + hint.len() + 2 <= columns {
        let x = title_rect.right() - pen.width(hint);
        pen.draw(hint, x, pen.baseline_in(&title_rect), DIM);
    }
    let search = g.library_search(r);
    fill(&search, FIELD_BG);
    outline(
        &search,
        if focused { 2.0 } else { 1.0 },
        if focused { FOCUS } else { BORDER },
    );
    let search_chars = pen.chars_in(search.w - 16.0);
    let typed = list.search();
    let baseline = pen.baseline_in(&search);
    if typed.is_empty() {
        pen.draw(
            &truncate("type to search names and siteswaps", search_chars),
            search.x + 8.0,
            baseline,
            DIM,
        );
    } else {
        let n = typed.chars().count();
        let shown: String = typed
            .chars()
            .skip(n.saturating_sub(search_chars.saturating_sub(1)))
            .collect();
        pen.draw(&shown, search.x + 8.0, baseline, TEXT);
    }
    if focused {
        let n = typed.chars().count().min(search_chars.saturating_sub(1));
        let x = search.x + 8.0 + n as f32 * pen.char_width;
        mq::draw_line(x, search.y + 5.0, x, search.bottom() - 5.0, 2.0, FOCUS);
    }
    let row_h = g.library_row_height();
    let mut y = g.library_rows_top(r);
    if list.match_count() == 0 {
        let row = Rect::new(r.x + 12.0, y, r.w - 24.0, row_h);
        pen.draw(
            &truncate("no pattern matches", columns),
            row.x,
            pen.baseline_in(&row),
            DIM,
        );
    }
    for (item, selected) in list.visible() {
        let row = Rect::new(r.x + 4.0, y, r.w - 8.0, row_h);
        if row.bottom() > r.bottom() + 0.5 {
            break;
        }
        if selected {
            fill(&row, SELECTED);
        }
        let baseline = pen.baseline_in(&row);
        // The name on the left, the siteswap right-aligned when there is room for both.
        let notation_chars = item.notation.chars().count().min(columns / 2);
        let name_chars = columns.saturating_sub(notation_chars + 2);
        let name = truncate(&item.name, name_chars.max(4));
        pen.draw(&name, row.x + 8.0, baseline, TEXT);
        if item.notation != item.name && name_chars >= 8 {
            let notation = truncate(&item.notation, notation_chars);
            let x = row.right() - 8.0 - pen.width(&notation);
            pen.draw(&notation, x, baseline, if selected { TEXT } else { DIM });
        }
        y += row_h;
    }
    // Where the rows shown are in the list.
    let total = list.match_count();
    if total > list.rows {
        let top = g.library_rows_top(r);
        let track = r.bottom() - 4.0 - top;
        let h = (track * list.rows as f32 / total as f32).max(12.0);
        let frac = list.first_shown() as f32 / (total - list.rows) as f32;
        fill(
            &Rect::new(r.right() - 5.0, top + (track - h) * frac, 3.0, h),
            BORDER,
        );
    }
}

/// The diagram panel with one line of text instead of a diagram.
fn draw_diagram_note(r: &Rect, pen: &Pen, line: &str) {
    fill(r, SIDE_BG);
    mq::draw_line(r.x, r.y, r.right(), r.y, 1.0, BORDER);
    let row = Rect::new(r.x + 12.0, r.y, r.w - 24.0, r.h);
    pen.draw(
        &truncate(line, pen.chars_in(row.w)),
        row.x,
        pen.baseline_in(&row),
        DIM,
    );
}

fn draw_diagram(g: &Geometry, r: &Rect, pen: &Pen, d: &DiagramInfo, time: f64) {
    let ladder = d.ladder;
    if let Some(line) = diagram_panel::too_large(ladder) {
        draw_diagram_note(r, pen, &line);
        return;
    }
    fill(r, SIDE_BG);
    mq::draw_line(r.x, r.y, r.right(), r.y, 1.0, BORDER);
    let map = diagram_panel::map_for(g, r, ladder);
    let label_w = map.left - r.x;
    // Rails and their names (where rails are too close for a name each, one per juggler).
    let gap = if ladder.rails.len() > 1 {
        map.y_of_rail(1) - map.y_of_rail(0)
    } else {
        g.line_height
    };
    for (i, name) in ladder.rails.iter().enumerate() {
        let y = map.y_of_rail(i);
        mq::draw_line(
            map.left,
            y,
            map.right,
            y,
            2.0,
            mq::Color::new(0.42, 0.45, 0.52, 1.0),
        );
        let label = if gap >= 0.8 * g.line_height {
            Some(name.as_str())
        } else if 2.0 * gap >= 0.8 * g.line_height && i % 2 == 0 {
            name.split(' ').next()
        } else {
            None
        };
        if let Some(label) = label {
            pen.draw(label, r.x + 8.0, y + f32::from(pen.size) * 0.35, DIM);
        }
    }
    // Period boundaries, dashed; a beat number under each boundary when there is room.
    let per_beat = map.x_of_beat(1.0) - map.x_of_beat(0.0);
    let (top, bottom) = (r.y + 4.0, r.bottom() - 4.0);
    for b in (0..=ladder.beats).step_by(ladder.period.max(1) as usize) {
        let x = map.x_of_beat(f64::from(b)) - per_beat / 2.0;
        let mut y = top;
        while y < bottom {
            mq::draw_line(x, y, x, (y + 4.0).min(bottom), 1.0, BORDER);
            y += 8.0;
        }
    }
    let any_highlight = d.highlighted.iter().any(|h| *h);
    for (i, a) in ladder.arcs.iter().enumerate() {
        let c = orbit_color(a.orbit);
        let lit = d.highlighted.get(i).copied().unwrap_or(false);
        let alpha = if any_highlight && !lit { 0.3 } else { 1.0 };
        let color = mq::Color::from_rgba(c.r, c.g, c.b, (alpha * 255.0) as u8);
        let width = if lit { 4.0 } else { 2.0 };
        let points = map.arc_points(a);
        // The arc within the diagram's width, one line per run of joined segments.
        let mut run: Vec<Vec2> = Vec::new();
        for w in points.windows(2) {
            match clip_x(w[0], w[1], map.left, map.right) {
                Some((p, q)) if run.last() == Some(&p) => run.push(q),
                clipped => {
                    smooth_polyline(&run, width, color);
                    run = clipped.map_or(Vec::new(), |(p, q)| vec![p, q]);
                }
            }
        }
        smooth_polyline(&run, width, color);
        let start = points[0];
        if start.x >= map.left && start.x <= map.right {
            smooth_disc(start, if lit { 5.0 } else { 3.5 }, color);
        }
        // The throw's value on its arc, where the beats are wide enough to read it.
        let label_w = pen.width(&a.label);
        if label_w + 4.0 <= per_beat.abs() * 1.6 {
            let at = arc_label_point(&points, a.from_rail.abs_diff(a.to_rail));
            let (x, y) = (at.x - label_w / 2.0, at.y);
            if x >= map.left && x + label_w <= map.right {
                let h = f32::from(pen.size);
                fill(&Rect::new(x - 2.0, y - h * 0.5, label_w + 4.0, h), SIDE_BG);
                pen.draw(&a.label, x, y + h * 0.35, color);
            }
        }
    }
    // The cursor at the current time.
    let x = map.cursor_x(time, d.beats_per_second);
    mq::draw_line(x, top, x, bottom, 2.0, mq::Color::new(1.0, 1.0, 1.0, 0.85));
    mq::draw_triangle(
        mq::vec2(x - 5.0, top),
        mq::vec2(x + 5.0, top),
        mq::vec2(x, top + 7.0),
        mq::Color::new(1.0, 1.0, 1.0, 0.85),
    );
    let hint = if any_highlight {
        "Esc clears the highlight"
    } else {
        "click a throw to highlight its prop"
    };
    if !g.narrow && pen.width(hint) + label_w < r.w {
        let baseline = r.y + f32::from(pen.size) + 2.0;
        pen.draw(hint, r.right() - 10.0 - pen.width(hint), baseline, DIM);
    }
}

/// Where an arc's label is centred: inside the top of a same-rail arc; on a line between
/// rails halfway to the first rail it crosses (lines that cross in their middles, a pass
/// and its partner's, keep their labels apart).
fn arc_label_point(points: &[Vec2], rails_crossed: usize) -> Vec2 {
    let first = points[0];
    let last = points.len() - 1;
    if rails_crossed == 0 {
        let mid = points[last / 2];
        let up = if mid.y < first.y { -1.0 } else { 1.0 };
        mid - Vec2::new(0.0, up * 9.0)
    } else {
        points[(last as f32 * 0.5 / rails_crossed as f32).round() as usize]
    }
}

/// The part of segment `p`–`q` with `left <= x <= right`, if any.
fn clip_x(p: Vec2, q: Vec2, left: f32, right: f32) -> Option<(Vec2, Vec2)> {
    let (a, b) = if p.x <= q.x { (p, q) } else { (q, p) };
    if b.x < left || a.x > right {
        return None;
    }
    let at = |x: f32| {
        if (b.x - a.x).abs() < 1e-6 {
            a
        } else {
            a.lerp(b, (x - a.x) / (b.x - a.x))
        }
    };
    let a2 = if a.x < left { at(left) } else { a };
    let b2 = if b.x > right { at(right) } else { b };
    Some((a2, b2))
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
    fn wrap_breaks_at_spaces_and_cuts_long_words() {
        assert_eq!(wrap("one two three", 7), vec!["one two", "three"]);
        assert_eq!(wrap("abcdefghij", 4), vec!["abcd", "efgh", "ij"]);
        assert_eq!(wrap("", 5), vec![""]);
        for width in [8, 20, 50] {
            for (_, what) in HELP_FULL {
                let lines = wrap(what, width);
                assert!(
                    lines.iter().all(|l| l.chars().count() <= width),
                    "{lines:?}"
                );
                let letters =
                    |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
                assert_eq!(letters(&lines.concat()), letters(what));
            }
        }
    }

    #[test]
    fn help_fits_any_panel_width() {
        for columns in [20, 30, 37, 38, 60, 100] {
            let lines = help_lines(columns);
            for (key, what) in &lines {
                let width = if columns >= HELP_KEY_CHARS + 24 {
                    what.chars().count() + HELP_KEY_CHARS
                } else {
                    key.chars().count().max(what.chars().count())
                };
                assert!(
                    width <= columns.max(HELP_KEY_CHARS),
                    "{columns}: {key} {what}"
                );
            }
            // Every key is listed once.
            let keys: Vec<&String> = lines
                .iter()
                .map(|(k, _)| k)
                .filter(|k| !k.is_empty())
                .collect();
            assert_eq!(keys.len(), HELP_FULL.len(), "{columns}");
        }
        // The help names the moved shortcuts and no single-letter one.
        let all: String = HELP_FULL
            .iter()
            .map(|(k, w)| format!("{k} {w}\n"))
            .collect();
        for key in ["F1", "Esc", "Ctrl+L", "Ctrl+D", "Ctrl+Q", "Home"] {
            assert!(all.contains(key), "{key}");
        }
        for (key, _) in HELP_FULL {
            assert!(!matches!(key, "R" | "H" | "I" | "Q"), "{key}");
        }
    }

    #[test]
    fn the_help_scrolls_only_when_it_does_not_fit() {
        use crate::app::geometry::Panels;
        let panels = Panels {
            help: true,
            facts: true,
            ..Panels::default()
        };
        let big = Geometry::with_panels(1280.0, 1000.0, 9.6, panels);
        assert_eq!(help_max_scroll(&big), 0);
        let small = Geometry::with_panels(500.0, 400.0, 9.6, panels);
        let max = help_max_scroll(&small);
        let columns = ((small.side.unwrap().w - 24.0) / small.char_width) as usize;
        assert!(max > 0 && max < help_lines(columns).len(), "{max}");
        let closed = Geometry::new(500.0, 400.0, 9.6);
        assert_eq!(help_max_scroll(&closed), 0);
    }

    #[test]
    fn clipping_keeps_the_part_between_the_rails_ends() {
        let (p, q) = clip_x(Vec2::new(0.0, 0.0), Vec2::new(10.0, 10.0), 2.0, 5.0).unwrap();
        assert_eq!((p, q), (Vec2::new(2.0, 2.0), Vec2::new(5.0, 5.0)));
        assert!(clip_x(Vec2::new(0.0, 0.0), Vec2::new(1.0, 1.0), 2.0, 5.0).is_none());
    }

    #[test]
    fn truncate_keeps_short_text_and_marks_cuts() {
        assert_eq!(truncate("531", 5), "531");
        assert_eq!(truncate("<3p|3p>", 7), "<3p|3p>");
        assert_eq!(truncate("(4,2x)*(4,2x)", 6), "(4,2x…");
        assert_eq!(truncate("abc", 0), "…");
    }
}
