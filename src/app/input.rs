//! Keyboard, mouse and touch -> [`Action`]s. The raw events are collected from macroquad each
//! frame; turning them into actions is plain code over plain data ([`Translator`],
//! [`char_action`], [`key_action`]), unit-tested here.
//!
//! The typing rule: while nothing is being edited, every printable character starts typing a
//! new pattern with that character (`Rubenstein's Revenge`, `High-low shower`, `531`,
//! `(4,4)`, `<3p|3p>`, `pattern=...`), except the few characters that never start a pattern or
//! a library name and are shortcuts: Space pause, `+`/`=` and `-`/`_` speed, `.`/`>` and `,`
//! step, `?` help. Every other shortcut is a key that types nothing: F1 help, Esc close the
//! help / revert, arrows speed, Home reset view, PageDown/PageUp browse, Enter/Tab edit, and
//! Ctrl with a letter (Ctrl+L library list, Ctrl+D diagram, Ctrl+I facts, Ctrl+R reset view,
//! Ctrl+Q quit; F2–F4 do the same as Ctrl+I, L, D). While editing, every character types.
//! With the library list open, characters type into its search and the arrows move its
//! selection.

use glam::Vec2;
use macroquad::miniquad::{EventHandler, KeyCode, KeyMods, MouseButton, TouchPhase};

use super::geometry::{Button, Geometry, Region};
use super::state::{Action, Focus};

/// One raw input event, in the order it happened.
#[derive(Clone, Debug, PartialEq)]
pub enum InputEvent {
    /// A typed character (after keyboard layout).
    Char(char),
    /// A key press (or auto-repeat) of a non-character key, or any key with Ctrl.
    Key {
        key: KeyCode,
        ctrl: bool,
    },
    MouseDown(Vec2),
    MouseUp,
    MouseMove(Vec2),
    /// Wheel notches, positive = away from the user.
    Wheel(f32),
    /// A finger on a touch screen.
    Touch {
        id: u64,
        phase: Phase,
        at: Vec2,
    },
    /// Text pasted with Ctrl+V.
    Paste(String),
    /// A file dropped on the window.
    Dropped(String),
}

/// What a finger did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Started,
    Moved,
    /// Lifted, or cancelled by the system.
    Ended,
}

/// Collects macroquad's input events between two frames, with pointer positions in the
/// window's logical pixels (the page's canvas has `devicePixelRatio` device pixels to one).
#[derive(Debug, Default)]
pub struct Collector {
    pub events: Vec<InputEvent>,
}

/// A point of a raw event (device pixels) in logical pixels.
fn logical(x: f32, y: f32) -> Vec2 {
    let scale = macroquad::miniquad::window::dpi_scale();
    let scale = if scale.is_finite() && scale > 0.0 {
        scale
    } else {
        1.0
    };
    Vec2::new(x / scale, y / scale)
}

impl EventHandler for Collector {
    fn update(&mut self) {}
    fn draw(&mut self) {}
    fn char_event(&mut self, character: char, mods: KeyMods, _repeat: bool) {
        if !mods.ctrl && !mods.logo {
            self.events.push(InputEvent::Char(character));
        }
    }
    fn key_down_event(&mut self, key: KeyCode, mods: KeyMods, _repeat: bool) {
        let ctrl = mods.ctrl || mods.logo;
        if ctrl && key == KeyCode::V {
            if let Some(text) = macroquad::miniquad::window::clipboard_get() {
                self.events.push(InputEvent::Paste(text));
            }
        } else {
            self.events.push(InputEvent::Key { key, ctrl });
        }
    }
    fn mouse_button_down_event(&mut self, button: MouseButton, x: f32, y: f32) {
        if button == MouseButton::Left {
            self.events.push(InputEvent::MouseDown(logical(x, y)));
        }
    }
    fn mouse_button_up_event(&mut self, button: MouseButton, _x: f32, _y: f32) {
        if button == MouseButton::Left {
            self.events.push(InputEvent::MouseUp);
        }
    }
    fn mouse_motion_event(&mut self, x: f32, y: f32) {
        self.events.push(InputEvent::MouseMove(logical(x, y)));
    }
    fn mouse_wheel_event(&mut self, _x: f32, y: f32) {
        if y != 0.0 {
            self.events.push(InputEvent::Wheel(y));
        }
    }
    fn touch_event(&mut self, phase: TouchPhase, id: u64, x: f32, y: f32) {
        let phase = match phase {
            TouchPhase::Started => Phase::Started,
            TouchPhase::Moved => Phase::Moved,
            TouchPhase::Ended | TouchPhase::Cancelled => Phase::Ended,
        };
        self.events.push(InputEvent::Touch {
            id,
            phase,
            at: logical(x, y),
        });
    }
}

/// What a held mouse button (or one finger) is doing.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
enum Drag {
    #[default]
    None,
    /// Orbiting the camera; the last pointer position.
    Orbit(Vec2),
    /// Scrubbing with the slider.
    Slider,
    /// Pressed on a scrollable panel (library list or help): a tap picks `row` on release,
    /// a drag scrolls. `start` and `last` pointer positions, `moved` once it is a drag.
    Panel {
        start: Vec2,
        last: Vec2,
        row: Option<usize>,
        moved: bool,
        library: bool,
    },
}

/// Pixels a press may move and still count as a tap.
const TAP_SLOP: f32 = 8.0;
/// Seconds a finger may stay down and still tap.
const TAP_SECONDS: f64 = 0.35;
/// Seconds and pixels between two taps of a double tap at most.
const DOUBLE_TAP_SECONDS: f64 = 0.4;
const DOUBLE_TAP_PIXELS: f32 = 40.0;
/// Pixels of two-finger vertical movement per zoom notch.
const PIXELS_PER_NOTCH: f32 = 40.0;

/// Turns raw events into actions, remembering drags and fingers between events.
#[derive(Clone, Debug, Default)]
pub struct Translator {
    drag: Drag,
    /// Fingers down, `(id, position)`, in the order they touched.
    touches: Vec<(u64, Vec2)>,
    /// While two fingers are down: their last distance and midpoint.
    pinch: Option<(f32, Vec2)>,
    /// Leftover rows of a panel drag not yet scrolled.
    scroll_rest: f32,
    /// The last mouse position (the wheel scrolls the panel under it).
    pointer: Vec2,
    /// Seconds on the front end's clock (for taps).
    clock: f64,
    /// Where and when the one finger on the view touched, while it may still be a tap.
    touch_start: Option<(Vec2, f64)>,
    /// The last tap on the view: a second one soon after, near it, is a double tap.
    last_tap: Option<(Vec2, f64)>,
}

impl Translator {
    /// Sets the time, seconds, of the events translated next.
    pub fn set_clock(&mut self, now: f64) {
        self.clock = now;
    }

    /// The actions of one event, given the window layout and where keys go.
    pub fn translate(
        &mut self,
        event: InputEvent,
        geometry: &Geometry,
        focus: Focus,
    ) -> Vec<Action> {
        let editing = focus == Focus::Field;
        match event {
            InputEvent::Char(c) => char_action(c, focus).into_iter().collect(),
            InputEvent::Key { key, ctrl } => key_action(key, ctrl, focus).into_iter().collect(),
            InputEvent::Wheel(y) => self.wheel_at(y, self.pointer, geometry),
            InputEvent::Paste(text) => vec![Action::Paste(text)],
            InputEvent::Dropped(path) => vec![Action::Open(path)],
            InputEvent::MouseDown(p) => {
                self.pointer = p;
                self.press(p, geometry, editing)
            }
            InputEvent::MouseMove(p) => {
                self.pointer = p;
                self.move_to(p, geometry)
            }
            InputEvent::MouseUp => self.release(),
            InputEvent::Touch { id, phase, at } => self.touch(id, phase, at, geometry, editing),
        }
    }

    /// The wheel turned by `notches` over `p`: over the library list or the help it scrolls
    /// them, elsewhere it zooms.
    pub fn wheel_at(&mut self, notches: f32, p: Vec2, geometry: &Geometry) -> Vec<Action> {
        match geometry.region(p) {
            Region::LibraryRow(_) | Region::Library => {
                vec![Action::LibraryScroll(-(notches.signum() as i32) * 3)]
            }
            Region::Help => vec![Action::HelpScroll(-(notches.signum() as i32) * 3)],
            _ => vec![Action::Zoom(notches.signum())],
        }
    }

    fn press(&mut self, p: Vec2, geometry: &Geometry, editing: bool) -> Vec<Action> {
        // A click anywhere but the field leaves it (keeping what was typed).
        let mut actions = Vec::new();
        let region = geometry.region(p);
        if editing && region != Region::Field {
            actions.push(Action::Blur);
        }
        self.scroll_rest = 0.0;
        match region {
            Region::Field => actions.push(Action::ClickField(geometry.field_index_at(p.x))),
            Region::Button(Button::Library) => actions.push(Action::ToggleLibrary),
            Region::Button(Button::Diagram) => actions.push(Action::ToggleDiagram),
            Region::Button(Button::Help) => actions.push(Action::ToggleHelp),
            Region::Slider => {
                self.drag = Drag::Slider;
                actions.push(Action::Scrub(geometry.slider_fraction(p.x)));
            }
            Region::PlayState => actions.push(Action::TogglePause),
            Region::LibraryRow(row) => {
                self.drag = Drag::Panel {
                    start: p,
                    last: p,
                    row: Some(row),
                    moved: false,
                    library: true,
                }
            }
            Region::Library | Region::Help => {
                self.drag = Drag::Panel {
                    start: p,
                    last: p,
                    row: None,
                    moved: false,
                    library: region == Region::Library,
                }
            }
            Region::Diagram => actions.push(Action::DiagramClick { x: p.x, y: p.y }),
            Region::Viewport => self.drag = Drag::Orbit(p),
            Region::Chrome => {}
        }
        actions
    }

    fn move_to(&mut self, p: Vec2, geometry: &Geometry) -> Vec<Action> {
        match self.drag {
            Drag::None => Vec::new(),
            Drag::Orbit(last) => {
                self.drag = Drag::Orbit(p);
                let d = p - last;
                if d == Vec2::ZERO {
                    Vec::new()
                } else {
                    vec![Action::Orbit { dx: d.x, dy: d.y }]
                }
            }
            Drag::Slider => vec![Action::Scrub(geometry.slider_fraction(p.x))],
            Drag::Panel {
                start,
                last,
                row,
                moved,
                library,
            } => {
                let moved = moved || p.distance(start) > TAP_SLOP;
                self.drag = Drag::Panel {
                    start,
                    last: p,
                    row,
                    moved,
                    library,
                };
                if !moved {
                    return Vec::new();
                }
                // Dragging up scrolls down, one row per row height moved.
                self.scroll_rest += (last.y - p.y) / geometry.library_row_height();
                let rows = self.scroll_rest.trunc();
                self.scroll_rest -= rows;
                if rows == 0.0 {
                    Vec::new()
                } else if library {
                    vec![Action::LibraryScroll(rows as i32)]
                } else {
                    vec![Action::HelpScroll(rows as i32)]
                }
            }
        }
    }

    fn release(&mut self) -> Vec<Action> {
        let drag = std::mem::take(&mut self.drag);
        match drag {
            Drag::Panel {
                row: Some(row),
                moved: false,
                library: true,
                ..
            } => vec![Action::LibraryPickRow(row)],
            _ => Vec::new(),
        }
    }

    /// One finger works like the mouse; two fingers pinch (or drag up/down) to zoom; a
    /// double tap on the view resets it.
    fn touch(
        &mut self,
        id: u64,
        phase: Phase,
        at: Vec2,
        geometry: &Geometry,
        editing: bool,
    ) -> Vec<Action> {
        match phase {
            Phase::Started => {
                self.touches.retain(|t| t.0 != id);
                self.touches.push((id, at));
                match self.touches.len() {
                    1 => {
                        self.touch_start =
                            (geometry.region(at) == Region::Viewport).then_some((at, self.clock));
                        self.press(at, geometry, editing)
                    }
                    2 => {
                        // A second finger: no tap, no orbit; start pinching.
                        self.touch_start = None;
                        self.last_tap = None;
                        self.drag = Drag::None;
                        self.pinch = Some(self.two_fingers());
                        Vec::new()
                    }
                    _ => Vec::new(),
                }
            }
            Phase::Moved => {
                if let Some(t) = self.touches.iter_mut().find(|t| t.0 == id) {
                    t.1 = at;
                } else {
                    return Vec::new();
                }
                if self
                    .touch_start
                    .is_some_and(|(p, _)| p.distance(at) > TAP_SLOP)
                {
                    self.touch_start = None;
                }
                match (self.touches.len(), self.pinch) {
                    (1, _) => self.move_to(at, geometry),
                    (2, Some((distance, middle))) => {
                        let (new_distance, new_middle) = self.two_fingers();
                        self.pinch = Some((new_distance, new_middle));
                        let notches = pinch_notches(distance, new_distance)
                            + (middle.y - new_middle.y) / PIXELS_PER_NOTCH;
                        if notches.abs() > 1e-4 && notches.is_finite() {
                            vec![Action::Zoom(notches)]
                        } else {
                            Vec::new()
                        }
                    }
                    _ => Vec::new(),
                }
            }
            Phase::Ended => {
                let was = self.touches.len();
                self.touches.retain(|t| t.0 != id);
                if was == 1 && self.touches.is_empty() {
                    let mut actions = self.release();
                    if self.tapped(at) {
                        actions.push(Action::ResetView);
                    }
                    return actions;
                }
                // Lifting one of two fingers ends the pinch; the other starts nothing.
                self.pinch = None;
                self.drag = Drag::None;
                Vec::new()
            }
        }
    }

    /// The one finger on the view lifted at `at`: whether that made a double tap.
    fn tapped(&mut self, at: Vec2) -> bool {
        let Some((start, when)) = self.touch_start.take() else {
            self.last_tap = None;
            return false;
        };
        if start.distance(at) > TAP_SLOP || self.clock - when > TAP_SECONDS {
            self.last_tap = None;
            return false;
        }
        let double = self.last_tap.is_some_and(|(p, t)| {
            p.distance(at) <= DOUBLE_TAP_PIXELS && self.clock - t <= DOUBLE_TAP_SECONDS
        });
        self.last_tap = if double { None } else { Some((at, self.clock)) };
        double
    }

    fn two_fingers(&self) -> (f32, Vec2) {
        let (a, b) = (self.touches[0].1, self.touches[1].1);
        (a.distance(b), (a + b) / 2.0)
    }
}

/// Zoom notches of a pinch from finger distance `from` to `to` pixels: spreading the fingers
/// zooms in as much as the wheel does per notch ([`super::state::Orbit::ZOOM_PER_NOTCH`]), so
/// the picture grows with the fingers.
pub fn pinch_notches(from: f32, to: f32) -> f32 {
    if !(from > 1.0 && to > 1.0) {
        return 0.0;
    }
    (from / to).ln() / super::state::Orbit::ZOOM_PER_NOTCH.ln()
}

/// Characters that are only shortcuts: none of them starts a siteswap, a settings string or a
/// library name.
pub const SHORTCUT_CHARS: [char; 9] = [' ', '+', '=', '-', '_', '.', '>', ',', '?'];

/// The action of a typed character.
pub fn char_action(c: char, focus: Focus) -> Option<Action> {
    if c.is_control() {
        return None;
    }
    match focus {
        Focus::Field => Some(Action::Insert(c)),
        Focus::Library => Some(Action::LibraryInsert(c)),
        Focus::Playing => Some(match c {
            ' ' => Action::TogglePause,
            '+' | '=' => Action::Faster,
            '-' | '_' => Action::Slower,
            '.' | '>' => Action::Step(1),
            ',' => Action::Step(-1),
            '?' => Action::ToggleHelp,
            // Everything else may start a pattern or a name: throws (0-9, a-z), sync `(`,
            // passing `<`, multiplex `[`, settings strings, names in any script, paths.
            c => Action::StartTyping(c),
        }),
    }
}

/// The action of a key that types no character (or any key with Ctrl).
pub fn key_action(key: KeyCode, ctrl: bool, focus: Focus) -> Option<Action> {
    use KeyCode as K;
    if ctrl {
        return Some(match key {
            // A web page never quits (its tab is the browser's).
            #[cfg(not(target_arch = "wasm32"))]
            K::Q => Action::Quit,
            K::R => Action::ResetView,
            K::I => Action::ToggleFacts,
            K::L | K::F => Action::ToggleLibrary,
            K::D => Action::ToggleDiagram,
            K::H => Action::ToggleHelp,
            _ => return None,
        });
    }
    // Keys that do the same whatever has the focus.
    match key {
        K::F1 => return Some(Action::ToggleHelp),
        K::F2 => return Some(Action::ToggleFacts),
        K::F3 => return Some(Action::ToggleLibrary),
        K::F4 => return Some(Action::ToggleDiagram),
        K::Escape => return Some(Action::Escape),
        _ => {}
    }
    Some(match (focus, key) {
        (Focus::Field, K::Enter | K::KpEnter) => Action::Submit,
        (Focus::Field, K::Backspace) => Action::Backspace,
        (Focus::Field, K::Delete) => Action::Delete,
        (Focus::Field, K::Left) => Action::CursorLeft,
        (Focus::Field, K::Right) => Action::CursorRight,
        (Focus::Field, K::Home) => Action::CursorHome,
        (Focus::Field, K::End) => Action::CursorEnd,
        (Focus::Field | Focus::Playing, K::PageDown) => Action::Browse(1),
        (Focus::Field | Focus::Playing, K::PageUp) => Action::Browse(-1),
        (Focus::Library, K::Enter | K::KpEnter) => Action::LibraryPick,
        (Focus::Library, K::Backspace) => Action::LibraryBackspace,
        (Focus::Library, K::Up) => Action::LibraryMove(-1),
        (Focus::Library, K::Down) => Action::LibraryMove(1),
        (Focus::Library, K::PageUp) => Action::LibraryMove(-10),
        (Focus::Library, K::PageDown) => Action::LibraryMove(10),
        (Focus::Library, K::Home) => Action::LibraryMove(i32::MIN / 2),
        (Focus::Library, K::End) => Action::LibraryMove(i32::MAX / 2),
        (Focus::Library | Focus::Playing, K::Tab) => Action::FocusField,
        (Focus::Playing, K::Enter | K::KpEnter) => Action::FocusField,
        (Focus::Playing, K::Up | K::Right) => Action::Faster,
        (Focus::Playing, K::Down | K::Left) => Action::Slower,
        (Focus::Playing, K::Home) => Action::ResetView,
        _ => return None,
    })
}

/// Reads a script of input events (the `--keys` option: what a user would type and click,
/// replayed when the window opens). Plain characters are typed; `{...}` holds a key or a
/// gesture: `{Enter}`, `{Esc}`, `{Tab}`, `{Backspace}`, `{Delete}`, `{Up}`, `{Down}`,
/// `{Left}`, `{Right}`, `{Home}`, `{End}`, `{PageUp}`, `{PageDown}`, `{F1}`..`{F4}`,
/// `{Ctrl+X}` for a letter X, `{click X Y}` (a mouse click at window pixel X, Y), `{wheel N}`,
/// and `{{` / `}}` for literal braces.
pub fn parse_script(script: &str) -> Result<Vec<InputEvent>, String> {
    let mut events = Vec::new();
    let mut chars = script.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                events.push(InputEvent::Char('{'));
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                events.push(InputEvent::Char('}'));
            }
            '{' => {
                let mut name = String::new();
                loop {
                    match chars.next() {
                        Some('}') => break,
                        Some(c) => name.push(c),
                        None => return Err(format!("unclosed {{{name} in the key script")),
                    }
                }
                events.extend(script_token(name.trim())?);
            }
            '}' => return Err("a lone } in the key script (write }} for a brace)".into()),
            c if c.is_control() => {}
            c => events.push(InputEvent::Char(c)),
        }
    }
    Ok(events)
}

fn script_token(name: &str) -> Result<Vec<InputEvent>, String> {
    use KeyCode as K;
    let key = |key| Ok(vec![InputEvent::Key { key, ctrl: false }]);
    let words: Vec<&str> = name.split_whitespace().collect();
    let number = |s: &str| {
        s.parse::<f32>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| format!("{{{name}}}: {s} is not a number"))
    };
    match words.as_slice() {
        ["click", x, y] => {
            let at = Vec2::new(number(x)?, number(y)?);
            return Ok(vec![InputEvent::MouseDown(at), InputEvent::MouseUp]);
        }
        ["wheel", n] => return Ok(vec![InputEvent::Wheel(number(n)?)]),
        _ => {}
    }
    if let Some(letter) = name
        .strip_prefix("Ctrl+")
        .or_else(|| name.strip_prefix("ctrl+"))
    {
        let code = match letter.to_ascii_uppercase().as_str() {
            "D" => K::D,
            "F" => K::F,
            "H" => K::H,
            "I" => K::I,
            "L" => K::L,
            "Q" => K::Q,
            "R" => K::R,
            "V" => K::V,
            _ => return Err(format!("{{{name}}}: no such shortcut")),
        };
        return Ok(vec![InputEvent::Key {
            key: code,
            ctrl: true,
        }]);
    }
    match name.to_ascii_lowercase().as_str() {
        "enter" => key(K::Enter),
        "esc" | "escape" => key(K::Escape),
        "tab" => key(K::Tab),
        "backspace" => key(K::Backspace),
        "delete" => key(K::Delete),
        "up" => key(K::Up),
        "down" => key(K::Down),
        "left" => key(K::Left),
        "right" => key(K::Right),
        "home" => key(K::Home),
        "end" => key(K::End),
        "pageup" => key(K::PageUp),
        "pagedown" => key(K::PageDown),
        "f1" => key(K::F1),
        "f2" => key(K::F2),
        "f3" => key(K::F3),
        "f4" => key(K::F4),
        _ => Err(format!(
            "{{{name}}}: unknown key (try Enter, Esc, Down, F1, Ctrl+L, click X Y)"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::geometry::Panels;

    fn geometry() -> Geometry {
        Geometry::new(1280.0, 720.0, 10.0)
    }

    #[test]
    fn names_and_patterns_type_in_full_from_the_first_character() {
        // Typed into a window that is just playing: the first character starts the field,
        // the rest insert, whatever shortcut letters they hold.
        for text in [
            "Rubenstein's Revenge",
            "High-low shower",
            "Mills Mess",
            "quick",
            "invalid",
            "531",
            "(4,2x)*",
            "<3p|3p>",
            "[54]24",
            "pattern=3;bps=4",
            "/tmp/mine.toml",
            "éclair",
            "*",
        ] {
            let mut chars = text.chars();
            let first = chars.next().unwrap();
            assert_eq!(
                char_action(first, Focus::Playing),
                Some(Action::StartTyping(first)),
                "{text}"
            );
            for c in chars {
                assert_eq!(
                    char_action(c, Focus::Field),
                    Some(Action::Insert(c)),
                    "{text}"
                );
            }
        }
    }

    #[test]
    fn only_characters_that_start_no_pattern_are_shortcuts() {
        let cases = [
            (' ', Action::TogglePause),
            ('+', Action::Faster),
            ('=', Action::Faster),
            ('-', Action::Slower),
            ('_', Action::Slower),
            ('.', Action::Step(1)),
            ('>', Action::Step(1)),
            (',', Action::Step(-1)),
            ('?', Action::ToggleHelp),
        ];
        for (c, expected) in cases.clone() {
            assert_eq!(char_action(c, Focus::Playing), Some(expected), "{c:?}");
        }
        assert_eq!(SHORTCUT_CHARS.len(), cases.len());
        // No shortcut character starts a siteswap, a settings string or a library name.
        let library = crate::files::library::Library::embedded();
        for c in SHORTCUT_CHARS {
            // (Space: typed text is trimmed, so a pattern never starts with one.)
            if c != ' ' {
                for pattern in ["3", "531", "(4,4)"] {
                    let text = format!("{c}{pattern}");
                    assert!(crate::notation::parse(&text).is_err(), "{text}");
                }
            }
            for p in library.patterns() {
                assert!(!p.spec.name.starts_with(c), "{c:?}: {}", p.spec.name);
            }
        }
        // Every letter and digit starts typing (none is a shortcut any more).
        for c in ('a'..='z').chain('A'..='Z').chain('0'..='9') {
            assert_eq!(char_action(c, Focus::Playing), Some(Action::StartTyping(c)));
        }
        assert_eq!(char_action('\u{8}', Focus::Playing), None);
    }

    #[test]
    fn every_character_types_while_editing_or_searching() {
        for c in [' ', 'r', 'q', 'h', ',', '.', '?', '5', 'x', '*'] {
            assert_eq!(char_action(c, Focus::Field), Some(Action::Insert(c)));
            assert_eq!(
                char_action(c, Focus::Library),
                Some(Action::LibraryInsert(c))
            );
        }
        assert_eq!(char_action('\u{8}', Focus::Field), None);
    }

    #[test]
    fn moved_shortcuts_are_keys_that_type_nothing() {
        use KeyCode as K;
        for focus in [Focus::Playing, Focus::Field, Focus::Library] {
            assert_eq!(key_action(K::F1, false, focus), Some(Action::ToggleHelp));
            assert_eq!(key_action(K::Escape, false, focus), Some(Action::Escape));
            assert_eq!(key_action(K::Q, true, focus), Some(Action::Quit));
            assert_eq!(key_action(K::R, true, focus), Some(Action::ResetView));
            assert_eq!(key_action(K::I, true, focus), Some(Action::ToggleFacts));
            assert_eq!(key_action(K::L, true, focus), Some(Action::ToggleLibrary));
            assert_eq!(key_action(K::D, true, focus), Some(Action::ToggleDiagram));
            assert_eq!(key_action(K::F3, false, focus), Some(Action::ToggleLibrary));
            assert_eq!(key_action(K::F4, false, focus), Some(Action::ToggleDiagram));
            // Letters without Ctrl are typed as characters, never keys.
            assert_eq!(key_action(K::Q, false, focus), None);
            assert_eq!(key_action(K::H, false, focus), None);
        }
        assert_eq!(
            key_action(K::Home, false, Focus::Playing),
            Some(Action::ResetView)
        );
        assert_eq!(
            key_action(K::Home, false, Focus::Field),
            Some(Action::CursorHome)
        );
    }

    #[test]
    fn keys_edit_the_field_drive_playback_or_move_in_the_list() {
        use KeyCode as K;
        let (f, p, l) = (Focus::Field, Focus::Playing, Focus::Library);
        assert_eq!(key_action(K::Enter, false, f), Some(Action::Submit));
        assert_eq!(key_action(K::Left, false, f), Some(Action::CursorLeft));
        assert_eq!(key_action(K::Enter, false, p), Some(Action::FocusField));
        assert_eq!(key_action(K::Tab, false, p), Some(Action::FocusField));
        assert_eq!(key_action(K::Left, false, p), Some(Action::Slower));
        assert_eq!(key_action(K::Up, false, p), Some(Action::Faster));
        assert_eq!(key_action(K::Backspace, false, p), None);
        assert_eq!(key_action(K::PageDown, false, p), Some(Action::Browse(1)));
        assert_eq!(key_action(K::PageUp, false, f), Some(Action::Browse(-1)));
        assert_eq!(key_action(K::Down, false, l), Some(Action::LibraryMove(1)));
        assert_eq!(
            key_action(K::PageUp, false, l),
            Some(Action::LibraryMove(-10))
        );
        assert_eq!(key_action(K::Enter, false, l), Some(Action::LibraryPick));
        assert_eq!(
            key_action(K::Backspace, false, l),
            Some(Action::LibraryBackspace)
        );
    }

    #[test]
    fn dragging_in_the_viewport_orbits_by_the_mouse_movement() {
        let g = geometry();
        let mut t = Translator::default();
        let p = Focus::Playing;
        assert!(t
            .translate(InputEvent::MouseDown(Vec2::new(600.0, 300.0)), &g, p)
            .is_empty());
        let a = t.translate(InputEvent::MouseMove(Vec2::new(610.0, 295.0)), &g, p);
        assert_eq!(a, vec![Action::Orbit { dx: 10.0, dy: -5.0 }]);
        let a = t.translate(InputEvent::MouseMove(Vec2::new(613.0, 295.0)), &g, p);
        assert_eq!(a, vec![Action::Orbit { dx: 3.0, dy: 0.0 }]);
        t.translate(InputEvent::MouseUp, &g, p);
        assert!(t
            .translate(InputEvent::MouseMove(Vec2::new(700.0, 0.0)), &g, p)
            .is_empty());
    }

    #[test]
    fn dragging_the_slider_scrubs_even_outside_it() {
        let g = geometry(); // slider track x 162..1106
        let mut t = Translator::default();
        let p = Focus::Playing;
        let a = t.translate(
            InputEvent::MouseDown(Vec2::new(162.0 + 472.0, 670.0)),
            &g,
            p,
        );
        assert_eq!(a, vec![Action::Scrub(0.5)]);
        let a = t.translate(InputEvent::MouseMove(Vec2::new(2000.0, 100.0)), &g, p);
        assert_eq!(a, vec![Action::Scrub(1.0)]);
        t.translate(InputEvent::MouseUp, &g, p);
        assert!(t
            .translate(InputEvent::MouseMove(Vec2::new(300.0, 670.0)), &g, p)
            .is_empty());
    }

    #[test]
    fn buttons_and_the_play_label_work_with_a_click_or_a_tap() {
        let g = geometry();
        let mut t = Translator::default();
        let click = |t: &mut Translator, x: f32, y: f32| {
            t.translate(InputEvent::MouseDown(Vec2::new(x, y)), &g, Focus::Playing)
        };
        assert_eq!(click(&mut t, 1040.0, 20.0), vec![Action::ToggleLibrary]);
        assert_eq!(click(&mut t, 1130.0, 20.0), vec![Action::ToggleDiagram]);
        assert_eq!(click(&mut t, 1240.0, 20.0), vec![Action::ToggleHelp]);
        assert_eq!(click(&mut t, 1200.0, 675.0), vec![Action::TogglePause]);
        let tap = t.translate(
            InputEvent::Touch {
                id: 7,
                phase: Phase::Started,
                at: Vec2::new(1240.0, 20.0),
            },
            &g,
            Focus::Field,
        );
        assert_eq!(tap, vec![Action::Blur, Action::ToggleHelp]);
    }

    #[test]
    fn library_rows_are_picked_by_a_tap_and_scrolled_by_a_drag() {
        let panels = Panels {
            library: true,
            facts: true,
            ..Panels::default()
        };
        let g = Geometry::with_panels(1280.0, 720.0, 10.0, panels);
        let side = g.side.unwrap();
        let row_h = g.library_row_height();
        let row = |r: f32| Vec2::new(100.0, g.library_rows_top(&side) + (r + 0.5) * row_h);
        let l = Focus::Library;
        let mut t = Translator::default();
        assert!(t
            .translate(InputEvent::MouseDown(row(3.0)), &g, l)
            .is_empty());
        // A small wobble is still a tap.
        assert!(t
            .translate(InputEvent::MouseMove(row(3.0) + Vec2::new(3.0, 2.0)), &g, l)
            .is_empty());
        assert_eq!(
            t.translate(InputEvent::MouseUp, &g, l),
            vec![Action::LibraryPickRow(3)]
        );
        // Dragging up by 4 rows scrolls down by 4 and picks nothing.
        let mut actions = Vec::new();
        for (phase, at) in [
            (Phase::Started, row(6.0)),
            (Phase::Moved, row(4.0)),
            (Phase::Moved, row(2.0)),
            (Phase::Ended, row(2.0)),
        ] {
            actions.extend(t.translate(InputEvent::Touch { id: 1, phase, at }, &g, l));
        }
        let scrolled: i32 = actions
            .iter()
            .map(|a| match a {
                Action::LibraryScroll(n) => *n,
                other => panic!("{other:?}"),
            })
            .sum();
        assert_eq!(scrolled, 4);
        // The wheel over the list scrolls it; over the view it zooms.
        assert_eq!(
            t.wheel_at(1.0, row(1.0), &g),
            vec![Action::LibraryScroll(-3)]
        );
        assert_eq!(
            t.wheel_at(-1.0, Vec2::new(900.0, 300.0), &g),
            vec![Action::Zoom(-1.0)]
        );
    }

    #[test]
    fn one_finger_orbits_and_two_fingers_zoom() {
        let g = geometry();
        let mut t = Translator::default();
        let p = Focus::Playing;
        let touch = |t: &mut Translator, id: u64, phase: Phase, x: f32, y: f32| {
            t.translate(
                InputEvent::Touch {
                    id,
                    phase,
                    at: Vec2::new(x, y),
                },
                &g,
                p,
            )
        };
        assert!(touch(&mut t, 1, Phase::Started, 600.0, 300.0).is_empty());
        assert_eq!(
            touch(&mut t, 1, Phase::Moved, 620.0, 290.0),
            vec![Action::Orbit {
                dx: 20.0,
                dy: -10.0
            }]
        );
        // A second finger 100 px away: spreading to 200 px zooms in by ln 2 / -ln 0.9 = 6.58
        // notches (the distance factor 0.9^6.58 = 1/2).
        assert!(touch(&mut t, 2, Phase::Started, 720.0, 290.0).is_empty());
        let a = touch(&mut t, 2, Phase::Moved, 820.0, 290.0);
        let [Action::Zoom(n)] = a.as_slice() else {
            panic!("{a:?}")
        };
        assert!((n - 6.5788).abs() < 1e-3, "{n}");
        assert!((0.9f32.powf(*n) - 0.5).abs() < 1e-4);
        // Both fingers moving up 80 px, one after the other (the distance comes back to what
        // it was): the midpoint rises 80 px, 2 notches closer.
        let mut notches = 0.0;
        for (id, x) in [(1, 620.0), (2, 820.0)] {
            for a in touch(&mut t, id, Phase::Moved, x, 210.0) {
                let Action::Zoom(n) = a else { panic!("{a:?}") };
                notches += n;
            }
        }
        assert!((notches - 2.0).abs() < 1e-3, "{notches}");
        // Lifting a finger ends the pinch; the other finger does not orbit from a stale point.
        assert!(touch(&mut t, 2, Phase::Ended, 820.0, 170.0).is_empty());
        assert!(touch(&mut t, 1, Phase::Moved, 640.0, 210.0).is_empty());
        assert!(touch(&mut t, 1, Phase::Ended, 640.0, 210.0).is_empty());
        assert_eq!(pinch_notches(0.0, 100.0), 0.0);
    }

    #[test]
    fn a_double_tap_on_the_view_resets_it_a_slow_or_moved_one_does_not() {
        let g = geometry();
        let mut t = Translator::default();
        let tap = |t: &mut Translator, at: f64, x: f32, moved: f32| {
            let mut out = Vec::new();
            t.set_clock(at);
            for (phase, dx) in [
                (Phase::Started, 0.0),
                (Phase::Moved, moved),
                (Phase::Ended, moved),
            ] {
                let event = InputEvent::Touch {
                    id: 7,
                    phase,
                    at: Vec2::new(x + dx, 300.0),
                };
                out.extend(t.translate(event, &g, Focus::Playing));
            }
            out.retain(|a| !matches!(a, Action::Orbit { .. }));
            out
        };
        assert!(tap(&mut t, 10.0, 600.0, 0.0).is_empty());
        assert_eq!(tap(&mut t, 10.25, 610.0, 2.0), vec![Action::ResetView]);
        // A third tap starts over; a slow second tap, a far one or a drag is no double tap.
        assert!(tap(&mut t, 10.4, 610.0, 0.0).is_empty());
        assert!(tap(&mut t, 11.0, 610.0, 0.0).is_empty());
        assert!(tap(&mut t, 11.2, 700.0, 0.0).is_empty());
        assert!(tap(&mut t, 11.4, 700.0, 30.0).is_empty());
        assert!(tap(&mut t, 11.5, 700.0, 0.0).is_empty());
        // Taps on the controls are not taps on the view.
        let slider = g.slider;
        let on_slider = |t: &mut Translator, at: f64| {
            t.set_clock(at);
            let p = Vec2::new(slider.x + 5.0, slider.center_y());
            let mut out = Vec::new();
            for phase in [Phase::Started, Phase::Ended] {
                out.extend(t.translate(
                    InputEvent::Touch {
                        id: 1,
                        phase,
                        at: p,
                    },
                    &g,
                    Focus::Playing,
                ));
            }
            out
        };
        on_slider(&mut t, 20.0);
        assert!(!on_slider(&mut t, 20.1).contains(&Action::ResetView));
    }

    #[test]
    fn key_scripts_read_text_keys_and_clicks() {
        let events = parse_script("Mills{Enter}{Ctrl+L}{{x}}{click 10 20.5}{wheel -1}").unwrap();
        let mut expected: Vec<InputEvent> = "Mills".chars().map(InputEvent::Char).collect();
        expected.extend([
            InputEvent::Key {
                key: KeyCode::Enter,
                ctrl: false,
            },
            InputEvent::Key {
                key: KeyCode::L,
                ctrl: true,
            },
            InputEvent::Char('{'),
            InputEvent::Char('x'),
            InputEvent::Char('}'),
            InputEvent::MouseDown(Vec2::new(10.0, 20.5)),
            InputEvent::MouseUp,
            InputEvent::Wheel(-1.0),
        ]);
        assert_eq!(events, expected);
        for bad in [
            "{Enter",
            "{Hyper}",
            "{click 1}",
            "{click a b}",
            "x}",
            "{Ctrl+7}",
        ] {
            assert!(parse_script(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_script("").unwrap(), vec![]);
    }

    #[test]
    fn pasting_and_dropping_files() {
        let g = geometry();
        let mut t = Translator::default();
        let a = t.translate(InputEvent::Paste("(4,2x)*".into()), &g, Focus::Playing);
        assert_eq!(a, vec![Action::Paste("(4,2x)*".into())]);
        let a = t.translate(InputEvent::Dropped("/tmp/p.toml".into()), &g, Focus::Field);
        assert_eq!(a, vec![Action::Open("/tmp/p.toml".into())]);
    }

    #[test]
    fn clicking_outside_the_field_while_editing_leaves_it() {
        let g = geometry();
        let mut t = Translator::default();
        let a = t.translate(
            InputEvent::MouseDown(Vec2::new(600.0, 300.0)),
            &g,
            Focus::Field,
        );
        assert_eq!(a, vec![Action::Blur]);
        let a = t.translate(
            InputEvent::MouseMove(Vec2::new(604.0, 300.0)),
            &g,
            Focus::Playing,
        );
        assert_eq!(a, vec![Action::Orbit { dx: 4.0, dy: 0.0 }]);
        let a = t.translate(
            InputEvent::MouseDown(Vec2::new(52.0, 20.0)),
            &g,
            Focus::Field,
        );
        assert_eq!(a, vec![Action::ClickField(3)]);
    }

    #[test]
    fn clicking_the_field_places_the_caret_and_wheel_zooms() {
        let g = geometry();
        let mut t = Translator::default();
        let a = t.translate(
            InputEvent::MouseDown(Vec2::new(52.0, 20.0)),
            &g,
            Focus::Playing,
        );
        assert_eq!(a, vec![Action::ClickField(3)]);
        assert_eq!(
            t.translate(InputEvent::Wheel(1.0), &g, Focus::Playing),
            vec![Action::Zoom(1.0)]
        );
        assert_eq!(
            t.translate(InputEvent::Wheel(-3.0), &g, Focus::Playing),
            vec![Action::Zoom(-1.0)]
        );
    }
}
