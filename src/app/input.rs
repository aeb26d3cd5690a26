//! Keyboard and mouse -> [`Action`]s. The raw events are collected from macroquad each frame;
//! turning them into actions is plain code over plain data ([`Translator`]), unit-tested here.
//!
//! Keys while the pattern field is not being edited: Space pause, arrows or `+`/`-` speed,
//! `.`/`,` step, R reset view, H help, I facts panel, Q quit, PageDown/PageUp the next/previous
//! pattern of the file opened, Enter edit the field, and typing
//! any other letter or digit, `(`, `<` or `[` starts a new pattern. While editing: characters
//! insert, Enter applies, Esc reverts, Backspace/Delete/arrows/Home/End edit.

use glam::Vec2;
use macroquad::miniquad::{EventHandler, KeyCode, KeyMods, MouseButton};

use super::geometry::{Geometry, Region};
use super::state::Action;

/// One raw input event, in the order it happened.
#[derive(Clone, Debug, PartialEq)]
pub enum InputEvent {
    /// A typed character (after keyboard layout).
    Char(char),
    /// A key press (or auto-repeat) of a non-character key.
    Key(KeyCode),
    MouseDown(Vec2),
    MouseUp,
    MouseMove(Vec2),
    /// Wheel notches, positive = away from the user.
    Wheel(f32),
    /// Text pasted with Ctrl+V.
    Paste(String),
    /// A file dropped on the window.
    Dropped(String),
}

/// Collects macroquad's input events between two frames.
#[derive(Debug, Default)]
pub struct Collector {
    pub events: Vec<InputEvent>,
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
        if mods.ctrl && key == KeyCode::V {
            if let Some(text) = macroquad::miniquad::window::clipboard_get() {
                self.events.push(InputEvent::Paste(text));
            }
        } else {
            self.events.push(InputEvent::Key(key));
        }
    }
    fn mouse_button_down_event(&mut self, button: MouseButton, x: f32, y: f32) {
        if button == MouseButton::Left {
            self.events.push(InputEvent::MouseDown(Vec2::new(x, y)));
        }
    }
    fn mouse_button_up_event(&mut self, button: MouseButton, _x: f32, _y: f32) {
        if button == MouseButton::Left {
            self.events.push(InputEvent::MouseUp);
        }
    }
    fn mouse_motion_event(&mut self, x: f32, y: f32) {
        self.events.push(InputEvent::MouseMove(Vec2::new(x, y)));
    }
    fn mouse_wheel_event(&mut self, _x: f32, y: f32) {
        if y != 0.0 {
            self.events.push(InputEvent::Wheel(y));
        }
    }
}

/// What a held mouse button is doing.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
enum Drag {
    #[default]
    None,
    /// Orbiting the camera; the last mouse position.
    Orbit(Vec2),
    /// Scrubbing with the slider.
    Slider,
}

/// Turns raw events into actions, remembering mouse drags between events.
#[derive(Clone, Debug, Default)]
pub struct Translator {
    drag: Drag,
}

impl Translator {
    /// The actions of one event, given the window layout and whether the field is being edited.
    pub fn translate(
        &mut self,
        event: InputEvent,
        geometry: &Geometry,
        editing: bool,
    ) -> Vec<Action> {
        match event {
            InputEvent::Char(c) => char_action(c, editing).into_iter().collect(),
            InputEvent::Key(key) => key_action(key, editing).into_iter().collect(),
            InputEvent::Wheel(y) => vec![Action::Zoom(y.signum())],
            InputEvent::Paste(text) => vec![Action::Paste(text)],
            InputEvent::Dropped(path) => vec![Action::Open(path)],
            InputEvent::MouseDown(p) => {
                // A click anywhere but the field leaves it (keeping what was typed).
                let mut actions = Vec::new();
                let region = geometry.region(p);
                if editing && region != Region::Field {
                    actions.push(Action::Blur);
                }
                match region {
                    Region::Field => {
                        actions.push(Action::ClickField(geometry.field_index_at(p.x)));
                    }
                    Region::Slider => {
                        self.drag = Drag::Slider;
                        actions.push(Action::Scrub(geometry.slider_fraction(p.x)));
                    }
                    Region::Viewport => self.drag = Drag::Orbit(p),
                    Region::Chrome => {}
                }
                actions
            }
            InputEvent::MouseMove(p) => match self.drag {
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
            },
            InputEvent::MouseUp => {
                self.drag = Drag::None;
                Vec::new()
            }
        }
    }
}

/// The action of a typed character.
pub fn char_action(c: char, editing: bool) -> Option<Action> {
    if editing {
        return (!c.is_control()).then_some(Action::Insert(c));
    }
    Some(match c {
        ' ' => Action::TogglePause,
        '+' | '=' => Action::Faster,
        '-' | '_' => Action::Slower,
        '.' | '>' => Action::Step(1),
        ',' => Action::Step(-1),
        'r' | 'R' => Action::ResetView,
        'h' | 'H' | '?' => Action::ToggleHelp,
        'i' | 'I' => Action::ToggleFacts,
        'q' | 'Q' => Action::Quit,
        // Everything else a pattern can start with: throws (0-9, a-z), sync, passing,
        // multiplex, or a settings string (`pattern=...`).
        c if c.is_ascii_alphanumeric() || matches!(c, '(' | '<' | '[') => Action::StartTyping(c),
        _ => return None,
    })
}

/// The action of a non-character key.
pub fn key_action(key: KeyCode, editing: bool) -> Option<Action> {
    Some(match (key, editing) {
        (KeyCode::Enter | KeyCode::KpEnter, true) => Action::Submit,
        (KeyCode::Escape, true) => Action::Revert,
        (KeyCode::Backspace, true) => Action::Backspace,
        (KeyCode::Delete, true) => Action::Delete,
        (KeyCode::Left, true) => Action::CursorLeft,
        (KeyCode::Right, true) => Action::CursorRight,
        (KeyCode::Home, true) => Action::CursorHome,
        (KeyCode::End, true) => Action::CursorEnd,
        (KeyCode::Enter | KeyCode::KpEnter | KeyCode::Tab, false) => Action::FocusField,
        (KeyCode::Escape, false) => Action::Revert,
        (KeyCode::Up | KeyCode::Right, false) => Action::Faster,
        (KeyCode::Down | KeyCode::Left, false) => Action::Slower,
        (KeyCode::F1, false) => Action::ToggleHelp,
        (KeyCode::PageDown, _) => Action::Browse(1),
        (KeyCode::PageUp, _) => Action::Browse(-1),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn geometry() -> Geometry {
        Geometry::new(1280.0, 720.0, 10.0)
    }

    #[test]
    fn shortcut_characters_when_not_editing() {
        let cases = [
            (' ', Some(Action::TogglePause)),
            ('+', Some(Action::Faster)),
            ('-', Some(Action::Slower)),
            ('.', Some(Action::Step(1))),
            (',', Some(Action::Step(-1))),
            ('r', Some(Action::ResetView)),
            ('R', Some(Action::ResetView)),
            ('q', Some(Action::Quit)),
            ('i', Some(Action::ToggleFacts)),
            ('5', Some(Action::StartTyping('5'))),
            ('(', Some(Action::StartTyping('('))),
            ('<', Some(Action::StartTyping('<'))),
            ('b', Some(Action::StartTyping('b'))),
            ('p', Some(Action::StartTyping('p'))),
            ('*', None),
            ('é', None),
        ];
        for (c, expected) in cases {
            assert_eq!(char_action(c, false), expected, "{c:?}");
        }
    }

    #[test]
    fn every_character_types_while_editing() {
        for c in [' ', 'r', 'q', ',', '.', '5', 'x', '*'] {
            assert_eq!(char_action(c, true), Some(Action::Insert(c)));
        }
        assert_eq!(char_action('\u{8}', true), None);
    }

    #[test]
    fn keys_edit_the_field_or_drive_playback() {
        assert_eq!(key_action(KeyCode::Enter, true), Some(Action::Submit));
        assert_eq!(key_action(KeyCode::Escape, true), Some(Action::Revert));
        assert_eq!(key_action(KeyCode::Left, true), Some(Action::CursorLeft));
        assert_eq!(key_action(KeyCode::Enter, false), Some(Action::FocusField));
        assert_eq!(key_action(KeyCode::Left, false), Some(Action::Slower));
        assert_eq!(key_action(KeyCode::Up, false), Some(Action::Faster));
        assert_eq!(key_action(KeyCode::Escape, false), Some(Action::Revert));
        assert_eq!(key_action(KeyCode::Backspace, false), None);
        assert_eq!(
            key_action(KeyCode::PageDown, false),
            Some(Action::Browse(1))
        );
        assert_eq!(key_action(KeyCode::PageUp, true), Some(Action::Browse(-1)));
    }

    #[test]
    fn dragging_in_the_viewport_orbits_by_the_mouse_movement() {
        let g = geometry();
        let mut t = Translator::default();
        assert!(t
            .translate(InputEvent::MouseDown(Vec2::new(600.0, 300.0)), &g, false)
            .is_empty());
        let a = t.translate(InputEvent::MouseMove(Vec2::new(610.0, 295.0)), &g, false);
        assert_eq!(a, vec![Action::Orbit { dx: 10.0, dy: -5.0 }]);
        let a = t.translate(InputEvent::MouseMove(Vec2::new(613.0, 295.0)), &g, false);
        assert_eq!(a, vec![Action::Orbit { dx: 3.0, dy: 0.0 }]);
        t.translate(InputEvent::MouseUp, &g, false);
        assert!(t
            .translate(InputEvent::MouseMove(Vec2::new(700.0, 0.0)), &g, false)
            .is_empty());
    }

    #[test]
    fn dragging_the_slider_scrubs_even_outside_it() {
        let g = geometry(); // slider track x 162..1106
        let mut t = Translator::default();
        let a = t.translate(
            InputEvent::MouseDown(Vec2::new(162.0 + 472.0, 670.0)),
            &g,
            false,
        );
        assert_eq!(a, vec![Action::Scrub(0.5)]);
        let a = t.translate(InputEvent::MouseMove(Vec2::new(2000.0, 100.0)), &g, false);
        assert_eq!(a, vec![Action::Scrub(1.0)]);
        t.translate(InputEvent::MouseUp, &g, false);
        assert!(t
            .translate(InputEvent::MouseMove(Vec2::new(300.0, 670.0)), &g, false)
            .is_empty());
    }

    #[test]
    fn pasting_and_dropping_files() {
        let g = geometry();
        let mut t = Translator::default();
        let a = t.translate(InputEvent::Paste("(4,2x)*".into()), &g, false);
        assert_eq!(a, vec![Action::Paste("(4,2x)*".into())]);
        let a = t.translate(InputEvent::Dropped("/tmp/p.toml".into()), &g, true);
        assert_eq!(a, vec![Action::Open("/tmp/p.toml".into())]);
    }

    #[test]
    fn clicking_outside_the_field_while_editing_leaves_it() {
        let g = geometry();
        let mut t = Translator::default();
        let a = t.translate(InputEvent::MouseDown(Vec2::new(600.0, 300.0)), &g, true);
        assert_eq!(a, vec![Action::Blur]);
        let a = t.translate(InputEvent::MouseMove(Vec2::new(604.0, 300.0)), &g, false);
        assert_eq!(a, vec![Action::Orbit { dx: 4.0, dy: 0.0 }]);
        let a = t.translate(InputEvent::MouseDown(Vec2::new(52.0, 20.0)), &g, true);
        assert_eq!(a, vec![Action::ClickField(3)]);
    }

    #[test]
    fn clicking_the_field_places_the_caret_and_wheel_zooms() {
        let g = geometry();
        let mut t = Translator::default();
        let a = t.translate(InputEvent::MouseDown(Vec2::new(52.0, 20.0)), &g, false);
        assert_eq!(a, vec![Action::ClickField(3)]);
        assert_eq!(
            t.translate(InputEvent::Wheel(1.0), &g, false),
            vec![Action::Zoom(1.0)]
        );
        assert_eq!(
            t.translate(InputEvent::Wheel(-3.0), &g, false),
            vec![Action::Zoom(-1.0)]
        );
    }
}
