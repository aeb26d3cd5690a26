//! Where the window's parts sit for a given window size: the pattern field on top, the
//! viewport with the juggling in the middle, the time slider and help line at the bottom, the
//! facts panel in the viewport's bottom-right corner. Pure arithmetic, shared by drawing and by
//! mouse hit-testing so the two always agree.

use glam::Vec2;

/// Height of the top bar holding the pattern field, pixels.
pub const TOP_BAR: f32 = 48.0;
/// Height of the bottom bar holding the slider and the help line, pixels.
pub const BOTTOM_BAR: f32 = 64.0;
/// Font size of all window text, pixels.
pub const FONT_SIZE: u16 = 16;
/// Margin around the window's controls, pixels.
const MARGIN: f32 = 12.0;
/// Space between the field's border and its text, pixels.
pub const FIELD_PADDING: f32 = 10.0;
/// Width of the time label left of the slider and the speed label right of it.
const SLIDER_LABEL: f32 = 150.0;
const PANEL_WIDTH: f32 = 250.0;
/// Lines of text in the facts panel.
pub const PANEL_LINES: usize = 7;
/// Line height in the panel, pixels.
pub const LINE_HEIGHT: f32 = 20.0;

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
}

/// The part of the window under a point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Region {
    Field,
    Slider,
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
    /// Width of one character of the (monospace) font at [`FONT_SIZE`].
    pub char_width: f32,
    /// The pattern text field.
    pub field: Rect,
    /// Where the `Frame` is drawn.
    pub viewport: Rect,
    /// The slider's track; its whole height is clickable.
    pub slider: Rect,
    /// Area left of the slider for the time label.
    pub time_label: Rect,
    /// Area right of the slider for the play state and speed.
    pub speed_label: Rect,
    /// Baseline of the one-line key help.
    pub help_baseline: f32,
    /// The facts panel.
    pub panel: Rect,
}

impl Geometry {
    /// The layout for a `width` x `height` window whose font is `char_width` pixels wide.
    pub fn new(width: f32, height: f32, char_width: f32) -> Self {
        let (width, height) = (width.max(1.0), height.max(1.0));
        let field = Rect::new(MARGIN, 8.0, width - 2.0 * MARGIN, TOP_BAR - 16.0);
        let viewport_h = (height - TOP_BAR - BOTTOM_BAR).max(1.0);
        let viewport = Rect::new(0.0, TOP_BAR, width, viewport_h);
        let slider_y = height - BOTTOM_BAR + 8.0;
        let time_label = Rect::new(MARGIN, slider_y, SLIDER_LABEL, 24.0);
        let speed_label = Rect::new(width - MARGIN - SLIDER_LABEL, slider_y, SLIDER_LABEL, 24.0);
        let slider_x = time_label.x + time_label.w;
        let slider = Rect::new(slider_x, slider_y, speed_label.x - slider_x - MARGIN, 24.0);
        let panel_h = PANEL_LINES as f32 * LINE_HEIGHT + 16.0;
        // Bottom-right of the view: over the floor, where jugglers and throws rarely are.
        let panel = Rect::new(
            width - MARGIN - PANEL_WIDTH,
            TOP_BAR + viewport_h - 10.0 - panel_h,
            PANEL_WIDTH,
            panel_h,
        );
        Geometry {
            width,
            height,
            char_width: char_width.max(1.0),
            field,
            viewport,
            slider,
            time_label,
            speed_label,
            help_baseline: height - 12.0,
            panel,
        }
    }

    /// The part of the window under `p` (the field and slider are checked first).
    pub fn region(&self, p: Vec2) -> Region {
        if self.field.contains(p) {
            Region::Field
        } else if self.slider.contains(p) {
            Region::Slider
        } else if self.viewport.contains(p) {
            Region::Viewport
        } else {
            Region::Chrome
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
    fn parts_of_a_1280x720_window() {
        let g = Geometry::new(1280.0, 720.0, 10.0);
        assert_eq!(g.viewport, Rect::new(0.0, 48.0, 1280.0, 608.0));
        assert_eq!(g.viewport_pixels(), (1280, 608));
        assert_eq!(g.field, Rect::new(12.0, 8.0, 1256.0, 32.0));
        assert_eq!(g.slider, Rect::new(162.0, 664.0, 944.0, 24.0));
        assert_eq!(g.panel.x + g.panel.w, 1268.0);
        assert_eq!(g.panel.y + g.panel.h, 646.0);
        assert_eq!(g.help_baseline, 708.0);
    }

    #[test]
    fn regions_under_the_mouse() {
        let g = Geometry::new(1280.0, 720.0, 10.0);
        assert_eq!(g.region(Vec2::new(100.0, 20.0)), Region::Field);
        assert_eq!(g.region(Vec2::new(600.0, 670.0)), Region::Slider);
        assert_eq!(g.region(Vec2::new(600.0, 300.0)), Region::Viewport);
        assert_eq!(g.region(Vec2::new(50.0, 670.0)), Region::Chrome);
        assert_eq!(g.region(Vec2::new(5.0, 20.0)), Region::Chrome);
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
        // 800 - 24 wide, minus 2 x 10 padding: 75 characters of 10 px.
        assert_eq!(g.field_columns(), 75);
    }

    #[test]
    fn tiny_windows_give_empty_but_valid_parts() {
        let g = Geometry::new(50.0, 60.0, 0.0);
        assert!(g.slider.w >= 0.0 && g.field.w >= 0.0 && g.viewport.h >= 1.0);
        assert_eq!(g.viewport_pixels(), (50, 1));
        assert_eq!(g.slider_fraction(10.0), 0.0);
        assert_eq!(g.field_index_at(f32::NAN), 0);
        // 26 px field minus padding, characters at least 1 px wide.
        assert_eq!(g.field_columns(), 6);
        assert_eq!(Geometry::new(20.0, 60.0, 10.0).field_columns(), 1);
    }
}
