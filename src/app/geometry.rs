//! Where the window's parts sit for a given window size and set of open panels: the pattern
//! field and panel buttons on top, the time slider (and at desktop widths the help line) at the
//! bottom, and between them the juggling view. Open panels take their room from the view
//! instead of covering the juggler: the help or the library list as a column on the left (in a
//! wide window) or a block at the bottom (in a tall one), the ladder diagram as a strip under
//! the animation, the facts in the view's bottom-right corner when it is large and as a line
//! above it when it is small. Small windows use a smaller font. Pure arithmetic, shared by
//! drawing and by mouse hit-testing so the two always agree.

use glam::Vec2;

/// Font size of window text in a normal window, pixels.
pub const FONT_SIZE: u16 = 16;
/// Font size in a small window (narrower than [`SMALL_WIDTH`] or lower than
/// [`SMALL_HEIGHT`]), pixels.
pub const SMALL_FONT_SIZE: u16 = 13;
/// Windows narrower than this use the small font and the two-row bottom bar.
pub const SMALL_WIDTH: f32 = 700.0;
/// Windows lower than this use the small font.
pub const SMALL_HEIGHT: f32 = 500.0;
/// Margin around the window's controls, pixels.
const MARGIN: f32 = 12.0;
/// Space between the field's border and its text, pixels.
pub const FIELD_PADDING: f32 = 10.0;
/// Width of the time label left of the slider and the speed label right of it, characters.
const SLIDER_LABEL_CHARS: f32 = 15.0;
/// Width of the facts panel, characters.
const PANEL_CHARS: f32 = 25.0;
/// Lines of text in the facts panel.
pub const PANEL_LINES: usize = 7;
/// Height of the slider's track area, pixels.
const SLIDER_H: f32 = 24.0;
/// Horizontal padding inside a button, pixels.
const BUTTON_PADDING: f32 = 8.0;
/// The view keeps at least this fraction of the width next to a side panel.
const VIEW_MIN_FRACTION: f32 = 0.38;
/// ... and at least this many pixels.
const VIEW_MIN_PIXELS: f32 = 170.0;
/// The facts panel is drawn in the view's corner only when the view is at least this big;
/// otherwise the facts are one line above the view.
const FULL_FACTS_VIEW: (f32, f32) = (620.0, 380.0);
/// Rows of the help panel (title, then one per key; descriptions may wrap).
pub const HELP_TITLE_ROWS: f32 = 1.5;

/// An axis-aligned rectangle in window pixels (origin top-left, y down).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    pub x: f32,
    pub y: f32,
    pub w: f32,
    pub h: f32,
}

impl Rect {
    pub fn new(x: f32, y: f32, w: f32, h: f32) -> Self {
        Rect {
            x,
            y,
            w: w.max(0.0),
            h: h.max(0.0),
        }
    }

    pub fn contains(&self, p: Vec2) -> bool {
        p.x >= self.x && p.x < self.x + self.w && p.y >= self.y && p.y < self.y + self.h
    }

    pub fn center_y(&self) -> f32 {
        self.y + self.h / 2.0
    }

    pub fn right(&self) -> f32 {
        self.x + self.w
    }

    pub fn bottom(&self) -> f32 {
        self.y + self.h
    }
}

/// The buttons of the top bar, left to right.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Button {
    Library,
    Diagram,
    Help,
}

impl Button {
    pub const ALL: [Button; 3] = [Button::Library, Button::Diagram, Button::Help];

    /// The button's label in a normal and in a narrow window.
    pub fn label(self, narrow: bool) -> &'static str {
        match (self, narrow) {
            (Button::Library, false) => "Library",
            (Button::Library, true) => "List",
            (Button::Diagram, false) => "Diagram",
            (Button::Diagram, true) => "Ladder",
            (Button::Help, false) => "Help",
            (Button::Help, true) => "?",
        }
    }
}

/// Which panels are open (from the app state) and what the layout needs to know about them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Panels {
    pub help: bool,
    pub library: bool,
    pub diagram: bool,
    pub facts: bool,
    /// Rails of the ladder diagram (2 per juggler).
    pub diagram_rails: usize,
}

/// Where the facts go.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FactsLayout {
    Hidden,
    /// The full panel in the view's bottom-right corner.
    Panel(Rect),
    /// One line above the view (small windows).
    Line(Rect),
}

/// The part of the window under a point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Region {
    Field,
    Button(Button),
    Slider,
    /// The play state and speed label (a click or tap pauses or resumes).
    PlayState,
    /// A row of the library list, counted from the first row shown.
    LibraryRow(usize),
    /// The rest of the library panel (its title and search box).
    Library,
    /// The help panel.
    Help,
    /// The ladder diagram.
    Diagram,
    /// The juggling view (drags orbit the camera).
    Viewport,
    /// Bars and labels that do nothing when clicked.
    Chrome,
}

/// Positions of every part of the window at one window size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Geometry {
    pub width: f32,
    pub height: f32,
    /// Font size of all text, pixels.
    pub font_size: u16,
    /// Width of one character of the (monospace) font at [`Geometry::font_size`].
    pub char_width: f32,
    /// Height of a line of text, pixels.
    pub line_height: f32,
    /// Whether the window is narrow (short button labels, two-row bottom bar, no help line).
    pub narrow: bool,
    /// Height of the top bar.
    pub top_bar: f32,
    /// Top of the bottom bar.
    pub bottom_bar_y: f32,
    /// The pattern text field.
    pub field: Rect,
    /// The buttons right of the field, in [`Button::ALL`] order.
    pub buttons: [Rect; 3],
    /// Where the `Frame` is drawn.
    pub viewport: Rect,
    /// The slider's track; its whole height is clickable.
    pub slider: Rect,
    /// Area for the time label.
    pub time_label: Rect,
    /// Area for the play state and speed.
    pub speed_label: Rect,
    /// Baseline of the one-line key help (not in narrow windows).
    pub help_baseline: Option<f32>,
    /// The help or library panel (a column on the left or a block at the bottom).
    pub side: Option<Rect>,
    /// The ladder diagram strip under the view.
    pub diagram: Option<Rect>,
    pub facts: FactsLayout,
    /// Which panel `side` shows: the library list (else the help).
    pub side_is_library: bool,
}

impl Geometry {
    /// The layout for a `width` x `height` window with no panel but the facts open, whose font
    /// is `char_width` pixels wide at [`FONT_SIZE`].
    pub fn new(width: f32, height: f32, char_width: f32) -> Self {
        let panels = Panels {
            facts: true,
            ..Panels::default()
        };
        Geometry::with_panels(width, height, char_width, panels)
    }

    /// The layout for a `width` x `height` window with `panels` open, whose font is
    /// `char_width` pixels wide at [`FONT_SIZE`].
    pub fn with_panels(width: f32, height: f32, char_width: f32, panels: Panels) -> Self {
        let (width, height) = (width.max(1.0), height.max(1.0));
        let small = width < SMALL_WIDTH || height < SMALL_HEIGHT;
        let font_size = if small { SMALL_FONT_SIZE } else { FONT_SIZE };
        let scale = f32::from(font_size) / f32::from(FONT_SIZE);
        let char_width = char_width.max(1.0) * scale;
        let line_height = (f32::from(font_size) * 1.25).round();
        let narrow = width < SMALL_WIDTH;

        // Top bar: the field, then the buttons.
        let top_bar = line_height + 28.0;
        let field_h = top_bar - 16.0;
        let mut buttons = [Rect::new(0.0, 0.0, 0.0, 0.0); 3];
        let mut x = width - MARGIN;
        for (i, b) in Button::ALL.iter().enumerate().rev() {
            let w = b.label(narrow).chars().count() as f32 * char_width + 2.0 * BUTTON_PADDING;
            x -= w;
            buttons[i] = Rect::new(x, 8.0, w, field_h);
            x -= 6.0;
        }
        let field = Rect::new(MARGIN, 8.0, x - 2.0 - MARGIN, field_h);

        // Bottom bar: slider with its labels (one row, or two in a narrow window), help line.
        let label_w = SLIDER_LABEL_CHARS * char_width;
        let (bottom_h, slider, time_label, speed_label, help_baseline) = if narrow {
            let bottom_h = 8.0 + SLIDER_H + 2.0 + line_height + 8.0;
            let y = height - bottom_h + 6.0;
            let slider = Rect::new(MARGIN, y, width - 2.0 * MARGIN, SLIDER_H);
            let row = Rect::new(
                MARGIN,
                y + SLIDER_H + 2.0,
                width - 2.0 * MARGIN,
                line_height,
            );
            let time_label = Rect::new(row.x, row.y, row.w / 2.0, row.h);
            let speed_label = Rect::new(row.x + row.w / 2.0, row.y, row.w / 2.0, row.h);
            (bottom_h, slider, time_label, speed_label, None)
        } else {
            let bottom_h = 8.0 + SLIDER_H + 12.0 + line_height;
            let y = height - bottom_h + 8.0;
            let time_label = Rect::new(MARGIN, y, label_w, SLIDER_H);
            let speed_label = Rect::new(width - MARGIN - label_w, y, label_w, SLIDER_H);
            let slider_x = time_label.right();
            let slider = Rect::new(slider_x, y, speed_label.x - slider_x - MARGIN, SLIDER_H);
            (
                bottom_h,
                slider,
                time_label,
                speed_label,
                Some(height - 12.0),
            )
        };
        let bottom_bar_y = (height - bottom_h).max(top_bar);

        // Between the bars: the diagram strip at the bottom, then the side panel, then the
        // view; the facts line (small views) is taken from the view's top.
        let mut middle = Rect::new(0.0, top_bar, width, bottom_bar_y - top_bar);
        let diagram = panels.diagram.then(|| {
            let rails = panels.diagram_rails.max(2) as f32;
            let wanted = rails * 2.2 * line_height + 2.4 * line_height;
            let h = wanted.min(middle.h * 0.42).max(0.0);
            middle.h -= h;
            Rect::new(0.0, middle.bottom(), width, h)
        });
        let side_open = panels.help || panels.library;
        let side = side_open.then(|| {
            if middle.w >= middle.h {
                let wanted = if panels.library { 46.0 } else { 64.0 } * char_width;
                let keep = (middle.w * VIEW_MIN_FRACTION).max(VIEW_MIN_PIXELS);
                let w = wanted.min(middle.w - keep).max(0.0);
                let r = Rect::new(0.0, middle.y, w, middle.h);
                middle.x += w;
                middle.w -= w;
                r
            } else {
                let wanted = 18.0 * line_height;
                let h = wanted.min(middle.h * 0.5);
                middle.h -= h;
                Rect::new(0.0, middle.bottom(), middle.w, h)
            }
        });
        let mut viewport = Rect::new(middle.x, middle.y, middle.w, middle.h.max(1.0));
        let facts = if !panels.facts {
            FactsLayout::Hidden
        } else if viewport.w >= FULL_FACTS_VIEW.0 && viewport.h >= FULL_FACTS_VIEW.1 {
            let panel_w = PANEL_CHARS * char_width;
            let panel_h = PANEL_LINES as f32 * line_height + 16.0;
            // Bottom-right of the view: over the floor, where jugglers and throws rarely are.
            FactsLayout::Panel(Rect::new(
                viewport.right() - MARGIN - panel_w,
                viewport.bottom() - 10.0 - panel_h,
                panel_w,
                panel_h,
            ))
        } else {
            let h = (line_height + 6.0).min(viewport.h / 3.0);
            let line = Rect::new(viewport.x, viewport.y, viewport.w, h);
            viewport.y += h;
            viewport.h = (viewport.h - h).max(1.0);
            FactsLayout::Line(line)
        };
        Geometry {
            width,
            height,
            font_size,
            char_width,
            line_height,
            narrow,
            top_bar,
            bottom_bar_y,
            field,
            buttons,
            viewport,
            slider,
            time_label,
            speed_label,
            help_baseline,
            side,
            diagram,
            facts,
            side_is_library: panels.library,
        }
    }

    /// The layout of the web page's canvas, whose controls are the page's own (HTML): the
    /// whole canvas is the view, less the ladder diagram's strip at the bottom when it is
    /// open. No control is drawn, none is hit.
    pub fn page(width: f32, height: f32, char_width: f32, panels: Panels) -> Self {
        let mut g = Geometry::with_panels(
            width,
            height,
            char_width,
            Panels {
                help: false,
                library: false,
                facts: false,
                ..panels
            },
        );
        let none = Rect::new(0.0, 0.0, 0.0, 0.0);
        let mut view = Rect::new(0.0, 0.0, g.width, g.height);
        g.diagram = g.diagram.map(|d| {
            let h = d.h.min(view.h * 0.42);
            view.h -= h;
            Rect::new(0.0, view.bottom(), view.w, h)
        });
        g.viewport = Rect::new(view.x, view.y, view.w, view.h.max(1.0));
        g.top_bar = 0.0;
        g.bottom_bar_y = g.height;
        g.field = none;
        g.buttons = [none; 3];
        g.slider = none;
        g.time_label = none;
        g.speed_label = none;
        g.help_baseline = None;
        g.side = None;
        g
    }

    /// The part of the window under `p` (controls are checked before the view).
    pub fn region(&self, p: Vec2) -> Region {
        if self.field.contains(p) {
            return Region::Field;
        }
        for (b, r) in Button::ALL.iter().zip(&self.buttons) {
            if r.contains(p) {
                return Region::Button(*b);
            }
        }
        if self.slider.contains(p) {
            return Region::Slider;
        }
        if self.speed_label.contains(p) {
            return Region::PlayState;
        }
        if let Some(side) = self.side.filter(|s| s.contains(p)) {
            if !self.side_is_library {
                return Region::Help;
            }
            let rows = self.library_rows_top(&side);
            if p.y >= rows {
                let row = ((p.y - rows) / self.library_row_height()).floor();
                return Region::LibraryRow(row.max(0.0) as usize);
            }
            return Region::Library;
        }
        if self.diagram.is_some_and(|d| d.contains(p)) {
            return Region::Diagram;
        }
        if self.viewport.contains(p) {
            Region::Viewport
        } else {
            Region::Chrome
        }
    }

    /// Height of one row of the library list.
    pub fn library_row_height(&self) -> f32 {
        self.line_height + 6.0
    }

    /// The library panel's search box (below its title line).
    pub fn library_search(&self, side: &Rect) -> Rect {
        Rect::new(
            side.x + 8.0,
            side.y + self.line_height + 10.0,
            side.w - 16.0,
            self.line_height + 10.0,
        )
    }

    /// y of the first row of the library list.
    pub fn library_rows_top(&self, side: &Rect) -> f32 {
        let search = self.library_search(side);
        search.bottom() + 6.0
    }

    /// Rows of the library list that fit in its panel (at least 1).
    pub fn library_rows(&self) -> usize {
        match self.side.filter(|_| self.side_is_library) {
            Some(side) => {
                let h = side.bottom() - self.library_rows_top(&side) - 4.0;
                ((h / self.library_row_height()).floor().max(1.0)) as usize
            }
            None => 1,
        }
    }

    /// x of the left edge of character `index` in the field.
    pub fn field_char_x(&self, index: usize) -> f32 {
        self.field.x + FIELD_PADDING + index as f32 * self.char_width
    }

    /// Character index in the field nearest to window x (the caret position a click selects);
    /// may exceed the text length, callers clamp.
    pub fn field_index_at(&self, x: f32) -> usize {
        let i = ((x - self.field.x - FIELD_PADDING) / self.char_width).round();
        if i.is_finite() && i > 0.0 {
            i as usize
        } else {
            0
        }
    }

    /// Characters that fit in the field (at least 1).
    pub fn field_columns(&self) -> usize {
        let c = ((self.field.w - 2.0 * FIELD_PADDING) / self.char_width).floor();
        if c.is_finite() && c >= 1.0 {
            c as usize
        } else {
            1
        }
    }

    /// Fraction of the loop for window x on the slider, clamped to `[0, 1]`.
    pub fn slider_fraction(&self, x: f32) -> f64 {
        if self.slider.w <= 0.0 {
            return 0.0;
        }
        f64::from(((x - self.slider.x) / self.slider.w).clamp(0.0, 1.0))
    }

    /// Window x of the slider knob at `fraction` of the loop.
    pub fn slider_x(&self, fraction: f64) -> f32 {
        self.slider.x + self.slider.w * fraction.clamp(0.0, 1.0) as f32
    }

    /// Viewport size in whole pixels, at least 1x1 (what the `Frame` is built for).
    pub fn viewport_pixels(&self) -> (u32, u32) {
        (
            self.viewport.w.max(1.0) as u32,
            self.viewport.h.max(1.0) as u32,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_canvas_is_all_view_but_the_diagram() {
        let panels = Panels {
            diagram: true,
            diagram_rails: 2,
            help: true,
            facts: true,
            ..Panels::default()
        };
        let g = Geometry::page(390.0, 600.0, 9.6, panels);
        assert_eq!(
            (g.viewport.x, g.viewport.y, g.viewport.w),
            (0.0, 0.0, 390.0)
        );
        let d = g.diagram.unwrap();
        assert_eq!((d.y + d.h, g.viewport.h + d.h), (600.0, 600.0));
        assert_eq!(g.region(Vec2::new(195.0, 10.0)), Region::Viewport);
        assert_eq!(g.region(Vec2::new(10.0, 595.0)), Region::Diagram);
        assert_eq!(g.side, None);
        assert_eq!(g.facts, FactsLayout::Hidden);
        let plain = Geometry::page(800.0, 600.0, 9.6, Panels::default());
        assert_eq!(plain.viewport, Rect::new(0.0, 0.0, 800.0, 600.0));
        assert_eq!(plain.region(Vec2::new(790.0, 10.0)), Region::Viewport);
    }

    fn panels(help: bool, library: bool, diagram: bool) -> Panels {
        Panels {
            help,
            library,
            diagram,
            facts: true,
            diagram_rails: 2,
        }
    }

    fn overlaps(a: &Rect, b: &Rect) -> bool {
        a.x < b.right() && b.x < a.right() && a.y < b.bottom() && b.y < a.bottom()
    }

    #[test]
    fn parts_of_a_1280x720_window() {
        let g = Geometry::new(1280.0, 720.0, 10.0);
        assert_eq!((g.font_size, g.line_height, g.narrow), (16, 20.0, false));
        assert_eq!(g.viewport, Rect::new(0.0, 48.0, 1280.0, 608.0));
        assert_eq!(g.viewport_pixels(), (1280, 608));
        // Help (4 + 2 x 8 px wide), Diagram and Library (7 characters + 16) from the right.
        assert_eq!(g.buttons[2], Rect::new(1212.0, 8.0, 56.0, 32.0));
        assert_eq!(g.buttons[0], Rect::new(1028.0, 8.0, 86.0, 32.0));
        assert_eq!(g.field, Rect::new(12.0, 8.0, 1008.0, 32.0));
        assert_eq!(g.slider, Rect::new(162.0, 664.0, 944.0, 24.0));
        let FactsLayout::Panel(panel) = g.facts else {
            panic!("{:?}", g.facts)
        };
        assert_eq!((panel.right(), panel.bottom()), (1268.0, 646.0));
        assert_eq!(g.help_baseline, Some(708.0));
        assert_eq!((g.side, g.diagram), (None, None));
    }

    #[test]
    fn panels_take_room_from_the_view_instead_of_covering_it() {
        for (w, h) in [
            (1280.0, 720.0),
            (500.0, 400.0),
            (390.0, 844.0),
            (800.0, 600.0),
        ] {
            for (help, library, diagram) in [
                (true, false, false),
                (false, true, false),
                (false, false, true),
                (true, false, true),
                (false, true, true),
            ] {
                let g = Geometry::with_panels(w, h, 9.6, panels(help, library, diagram));
                let what = format!("{w}x{h} help {help} library {library} diagram {diagram}");
                let v = g.viewport;
                let mut parts = vec![];
                parts.extend(g.side);
                parts.extend(g.diagram);
                if let FactsLayout::Line(r) = g.facts {
                    parts.push(r);
                }
                for part in &parts {
                    assert!(!overlaps(&v, part), "{what}: {v:?} and {part:?}");
                    assert!(
                        part.right() <= w + 0.01 && part.bottom() <= h + 0.01,
                        "{what}"
                    );
                }
                // The juggler keeps a useful view: a third of the width (or 170 px) and a
                // fifth of the height.
                assert!(v.w >= (w * 0.38).min(170.0).min(w) - 0.01, "{what}: {v:?}");
                assert!(v.h >= h / 5.0, "{what}: {v:?}");
                assert!(
                    v.y >= g.top_bar && v.bottom() <= g.bottom_bar_y + 0.01,
                    "{what}"
                );
                assert_eq!(g.side.is_some(), help || library, "{what}");
                // Buttons and field stay inside the window and apart.
                assert!(g.field.w > 0.0 && g.buttons[2].right() <= w, "{what}");
                assert!(g.field.right() < g.buttons[0].x, "{what}");
            }
        }
    }

    #[test]
    fn small_windows_use_the_small_font_and_a_two_row_bottom_bar() {
        let g = Geometry::with_panels(390.0, 844.0, 9.6, panels(true, false, false));
        assert_eq!((g.font_size, g.narrow, g.help_baseline), (13, true, None));
        assert!((g.char_width - 9.6 * 13.0 / 16.0).abs() < 1e-4);
        // Full-width slider, labels under it.
        assert_eq!((g.slider.x, g.slider.w), (12.0, 366.0));
        assert!(g.time_label.y > g.slider.bottom() - 0.01);
        // Tall window: the help is a block under the view, as wide as the window.
        let side = g.side.unwrap();
        assert_eq!((side.x, side.w), (0.0, 390.0));
        assert!(side.y >= g.viewport.bottom() - 0.01);
        // The facts are a line above the view.
        assert!(matches!(g.facts, FactsLayout::Line(_)));
        // Wide window: the library list is a column on the left.
        let g = Geometry::with_panels(500.0, 400.0, 9.6, panels(false, true, false));
        let side = g.side.unwrap();
        assert_eq!((side.x, side.y), (0.0, g.top_bar));
        assert!((g.viewport.x - side.w).abs() < 1e-4 && g.viewport.w >= 190.0);
        assert!(g.library_rows() >= 8, "{}", g.library_rows());
    }

    #[test]
    fn regions_under_the_mouse() {
        let g = Geometry::new(1280.0, 720.0, 10.0);
        assert_eq!(g.region(Vec2::new(100.0, 20.0)), Region::Field);
        assert_eq!(g.region(Vec2::new(600.0, 670.0)), Region::Slider);
        assert_eq!(g.region(Vec2::new(600.0, 300.0)), Region::Viewport);
        assert_eq!(g.region(Vec2::new(50.0, 670.0)), Region::Chrome);
        assert_eq!(g.region(Vec2::new(1200.0, 670.0)), Region::PlayState);
        assert_eq!(g.region(Vec2::new(5.0, 20.0)), Region::Chrome);
        assert_eq!(
            g.region(Vec2::new(1230.0, 20.0)),
            Region::Button(Button::Help)
        );
        assert_eq!(
            g.region(Vec2::new(1030.0, 20.0)),
            Region::Button(Button::Library)
        );
        let g = Geometry::with_panels(1280.0, 720.0, 10.0, panels(false, true, true));
        let side = g.side.unwrap();
        let rows = g.library_rows_top(&side);
        let row_h = g.library_row_height();
        assert_eq!(
            g.region(Vec2::new(40.0, rows + 2.5 * row_h)),
            Region::LibraryRow(2)
        );
        assert_eq!(g.region(Vec2::new(40.0, rows - 3.0)), Region::Library);
        let d = g.diagram.unwrap();
        assert_eq!(g.region(Vec2::new(600.0, d.y + 5.0)), Region::Diagram);
    }

    #[test]
    fn slider_maps_x_to_loop_fraction_and_back() {
        let g = Geometry::new(1280.0, 720.0, 10.0);
        assert_eq!(g.slider_fraction(162.0), 0.0);
        assert_eq!(g.slider_fraction(162.0 + 236.0), 0.25);
        assert_eq!(g.slider_fraction(0.0), 0.0);
        assert_eq!(g.slider_fraction(5000.0), 1.0);
        assert_eq!(g.slider_x(0.5), 162.0 + 472.0);
    }

    #[test]
    fn clicks_in_the_field_pick_the_nearest_caret_position() {
        let g = Geometry::new(800.0, 600.0, 10.0);
        // Text starts at 12 + 10 = 22.
        assert_eq!(g.field_index_at(22.0), 0);
        assert_eq!(g.field_index_at(36.0), 1);
        assert_eq!(g.field_index_at(58.0), 4);
        assert_eq!(g.field_index_at(-100.0), 0);
        assert_eq!(g.field_char_x(3), 52.0);
        // The field ends 8 px before the buttons (Library 86, Diagram 86, Help 56 px, two 6 px
        // gaps, 12 px margin): 800 - 12 - 240 - 8 - 12 = 528 px, minus 2 x 10 padding: 50
        // characters of 10 px.
        assert_eq!(g.field_columns(), 50);
    }

    #[test]
    fn tiny_windows_give_empty_but_valid_parts() {
        let g = Geometry::new(50.0, 60.0, 0.0);
        assert!(g.slider.w >= 0.0 && g.field.w >= 0.0 && g.viewport.h >= 1.0);
        assert_eq!(g.viewport_pixels().0, 50);
        assert!(g.viewport_pixels().1 >= 1);
        assert_eq!(g.slider_fraction(10.0), 0.0);
        assert_eq!(g.field_index_at(f32::NAN), 0);
        assert_eq!(g.field_columns(), 1);
        let g = Geometry::with_panels(50.0, 60.0, 0.0, panels(true, false, true));
        assert!(g.viewport.h >= 1.0 && g.viewport.w >= 1.0);
        assert!(g.library_rows() >= 1);
    }
}
