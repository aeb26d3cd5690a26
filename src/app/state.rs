//! The window's application state as plain data: playback clock, speed, pause, camera orbit,
//! the pattern text field, the open panels and the last error. No macroquad here: every rule of the window's
//! behaviour is a method on these types and is unit-tested without a display.

use super::library_list::LibraryList;

/// Playback speeds offered by the speed keys, slowest first.
pub const SPEEDS: [f64; 10] = [0.1, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 3.0, 4.0];

/// Index of 1x in [`SPEEDS`].
const NORMAL_SPEED: usize = 4;

/// Seconds of pattern time one `.`/`,` step moves (one frame at 60 frames per second).
pub const STEP_SECONDS: f64 = 1.0 / 60.0;

/// The animation clock: where in the pattern's loop we are and how fast time runs.
#[derive(Clone, Debug, PartialEq)]
pub struct Playback {
    /// Pattern time in seconds, always in `[0, loop_duration)`.
    time: f64,
    /// Length of one full loop of the pattern in seconds (> 0).
    loop_duration: f64,
    speed_index: usize,
    paused: bool,
}

impl Playback {
    /// A running clock at time 0 and 1x speed for a loop of `loop_duration` seconds
    /// (non-finite or non-positive durations are treated as 1 s so the clock stays total).
    pub fn new(loop_duration: f64) -> Self {
        Playback {
            time: 0.0,
            loop_duration: sanitize_duration(loop_duration),
            speed_index: NORMAL_SPEED,
            paused: false,
        }
    }

    /// Pattern time in seconds, in `[0, loop_duration)`.
    pub fn time(&self) -> f64 {
        self.time
    }

    pub fn loop_duration(&self) -> f64 {
        self.loop_duration
    }

    /// Playback speed multiplier (1.0 = real time).
    pub fn speed(&self) -> f64 {
        SPEEDS[self.speed_index]
    }

    pub fn paused(&self) -> bool {
        self.paused
    }

    /// Where the clock is within the loop, 0 at the start, approaching 1 at the end.
    pub fn fraction(&self) -> f64 {
        self.time / self.loop_duration
    }

    /// Moves the clock by `dt` seconds of wall time (scaled by the speed) unless paused.
    pub fn advance(&mut self, dt: f64) {
        if !self.paused && dt.is_finite() && dt > 0.0 {
            self.set_time(self.time + dt * self.speed());
        }
    }

    /// Jumps to pattern time `t`, wrapped into the loop.
    pub fn set_time(&mut self, t: f64) {
        if t.is_finite() {
            let wrapped = t.rem_euclid(self.loop_duration);
            // rem_euclid can round up to exactly the duration for tiny negative inputs.
            self.time = if wrapped >= self.loop_duration {
                0.0
            } else {
                wrapped
            };
        }
    }

    /// Jumps to a fraction of the loop (clamped to `[0, 1]`; 1 is the loop's start again).
    pub fn scrub(&mut self, fraction: f64) {
        if fraction.is_finite() {
            self.set_time(fraction.clamp(0.0, 1.0) * self.loop_duration);
        }
    }

    pub fn set_paused(&mut self, paused: bool) {
        self.paused = paused;
    }

    pub fn toggle_pause(&mut self) {
        self.paused = !self.paused;
    }

    /// The offered speed nearest to `speed` (ignored when not a positive number).
    pub fn set_speed(&mut self, speed: f64) {
        if speed.is_finite() && speed > 0.0 {
            let distance = |s: f64| (s.ln() - speed.ln()).abs();
            self.speed_index = (0..SPEEDS.len())
                .min_by(|&a, &b| distance(SPEEDS[a]).total_cmp(&distance(SPEEDS[b])))
                .unwrap_or(NORMAL_SPEED);
        }
    }

    /// Next faster speed; stays at the fastest.
    pub fn faster(&mut self) {
        self.speed_index = (self.speed_index + 1).min(SPEEDS.len() - 1);
    }

    /// Next slower speed; stays at the slowest.
    pub fn slower(&mut self) {
        self.speed_index = self.speed_index.saturating_sub(1);
    }

    /// Pauses and moves `frames` steps of [`STEP_SECONDS`] (negative = backwards).
    pub fn step(&mut self, frames: i32) {
        self.paused = true;
        self.set_time(self.time + f64::from(frames) * STEP_SECONDS);
    }

    /// A new pattern: new loop length, back to its start; speed and pause are kept.
    pub fn restart(&mut self, loop_duration: f64) {
        self.loop_duration = sanitize_duration(loop_duration);
        self.time = 0.0;
    }
}

fn sanitize_duration(d: f64) -> f64 {
    if d.is_finite() && d > 0.0 {
        d
    } else {
        1.0
    }
}

/// The camera's orbit around the scene, as the user has turned and zoomed it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Orbit {
    /// Degrees around the vertical axis (0 = looking at the front of juggler 1).
    pub azimuth_deg: f32,
    /// Degrees above the horizon, in `[MIN_ELEVATION, MAX_ELEVATION]`.
    pub elevation_deg: f32,
    /// Distance multiplier applied to the automatic framing distance (1 = frame everyone),
    /// in `[MIN_ZOOM, MAX_ZOOM]`.
    pub zoom: f32,
}

impl Orbit {
    pub const MIN_ELEVATION: f32 = -30.0;
    pub const MAX_ELEVATION: f32 = 89.0;
    pub const MIN_ZOOM: f32 = 0.2;
    pub const MAX_ZOOM: f32 = 5.0;
    /// Degrees turned per pixel of mouse drag.
    pub const DEGREES_PER_PIXEL: f32 = 0.4;
    /// Distance factor per wheel notch (wheel up = closer).
    pub const ZOOM_PER_NOTCH: f32 = 0.9;

    /// An orbit with the given angles, clamped into range, at zoom 1.
    pub fn new(azimuth_deg: f32, elevation_deg: f32) -> Self {
        let mut orbit = Orbit {
            azimuth_deg: 0.0,
            elevation_deg: 0.0,
            zoom: 1.0,
        };
        orbit.set_angles(azimuth_deg, elevation_deg);
        orbit
    }

    fn set_angles(&mut self, azimuth_deg: f32, elevation_deg: f32) {
        if azimuth_deg.is_finite() {
            self.azimuth_deg = azimuth_deg.rem_euclid(360.0);
        }
        if elevation_deg.is_finite() {
            self.elevation_deg = elevation_deg.clamp(Self::MIN_ELEVATION, Self::MAX_ELEVATION);
        }
    }

    /// Turns the camera by a mouse drag of `(dx, dy)` pixels: dragging right turns the scene
    /// right (the camera moves left around it), dragging down looks from higher up.
    pub fn drag(&mut self, dx: f32, dy: f32) {
        self.set_angles(
            self.azimuth_deg - dx * Self::DEGREES_PER_PIXEL,
            self.elevation_deg + dy * Self::DEGREES_PER_PIXEL,
        );
    }

    /// Zooms by `notches` wheel notches (positive = closer).
    pub fn zoom_by(&mut self, notches: f32) {
        if notches.is_finite() {
            let zoom = self.zoom * Self::ZOOM_PER_NOTCH.powf(notches);
            self.zoom = zoom.clamp(Self::MIN_ZOOM, Self::MAX_ZOOM);
        }
    }
}

/// A one-line text editor holding the pattern being typed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TextField {
    text: String,
    /// Cursor position in characters, `0..=text.chars().count()`.
    cursor: usize,
    focused: bool,
}

impl TextField {
    /// A field showing `text`, cursor at its end, not focused.
    pub fn new(text: &str) -> Self {
        TextField {
            text: text.to_string(),
            cursor: text.chars().count(),
            focused: false,
        }
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    /// Cursor position in characters.
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    pub fn focused(&self) -> bool {
        self.focused
    }

    /// Focuses the field, keeping its text, cursor at the end.
    pub fn focus(&mut self) {
        self.focused = true;
        self.cursor = self.len();
    }

    /// Leaves the field, keeping its text.
    pub fn blur(&mut self) {
        self.focused = false;
    }

    /// Replaces the text and leaves the field unfocused (after a pattern is applied or reverted).
    pub fn reset(&mut self, text: &str) {
        *self = TextField::new(text);
    }

    /// Starts typing a new pattern: clears the field, focuses it and inserts `c`.
    pub fn start_with(&mut self, c: char) {
        self.start_fresh();
        self.insert(c);
    }

    /// Clears the field and focuses it.
    pub fn start_fresh(&mut self) {
        self.text.clear();
        self.cursor = 0;
        self.focused = true;
    }

    fn len(&self) -> usize {
        self.text.chars().count()
    }

    fn byte_index(&self, char_index: usize) -> usize {
        self.text
            .char_indices()
            .nth(char_index)
            .map_or(self.text.len(), |(i, _)| i)
    }

    /// Inserts a printable character at the cursor (control characters are ignored).
    pub fn insert(&mut self, c: char) {
        if c.is_control() {
            return;
        }
        let at = self.byte_index(self.cursor);
        self.text.insert(at, c);
        self.cursor += 1;
    }

    /// Deletes the character before the cursor.
    pub fn backspace(&mut self) {
        if self.cursor > 0 {
            self.cursor -= 1;
            let at = self.byte_index(self.cursor);
            self.text.remove(at);
        }
    }

    /// Deletes the character after the cursor.
    pub fn delete(&mut self) {
        if self.cursor < self.len() {
            let at = self.byte_index(self.cursor);
            self.text.remove(at);
        }
    }

    pub fn left(&mut self) {
        self.cursor = self.cursor.saturating_sub(1);
    }

    pub fn right(&mut self) {
        self.cursor = (self.cursor + 1).min(self.len());
    }

    pub fn home(&mut self) {
        self.cursor = 0;
    }

    pub fn end(&mut self) {
        self.cursor = self.len();
    }

    /// The first character shown when `columns` characters fit: 0 unless the focused caret
    /// would be past the right edge.
    pub fn scroll(&self, columns: usize) -> usize {
        if self.focused && self.cursor >= columns {
            self.cursor + 1 - columns.max(1)
        } else {
            0
        }
    }

    /// Moves the cursor to character `index` (clamped to the text) and focuses the field.
    pub fn click_at(&mut self, index: usize) {
        self.focused = true;
        self.cursor = index.min(self.len());
    }
}

/// A pattern the user typed that could not be loaded, shown under the text field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    /// The text as typed.
    pub text: String,
    /// The explanation, one line.
    pub message: String,
    /// Character column (0-based) in `text` of the problem, when known.
    pub column: Option<usize>,
}

/// What the user asked for, whatever the key or mouse gesture.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    TogglePause,
    Faster,
    Slower,
    /// Step frames while paused (pauses first); negative = backwards.
    Step(i32),
    /// Jump to a fraction of the loop (the slider).
    Scrub(f64),
    ResetView,
    /// Mouse drag, in pixels.
    Orbit {
        dx: f32,
        dy: f32,
    },
    /// Wheel notches (or a pinch), positive = closer.
    Zoom(f32),
    ToggleHelp,
    /// Show or hide the facts panel.
    ToggleFacts,
    /// Open or close the searchable list of the pattern library.
    ToggleLibrary,
    /// Show or hide the ladder diagram under the animation.
    ToggleDiagram,
    /// Esc: close the help, else revert the field, else close the library list, else clear
    /// the error and the highlighted prop.
    Escape,
    /// Focus the pattern field, keeping its text.
    FocusField,
    /// Leave the pattern field, keeping its text (a click elsewhere).
    Blur,
    /// Focus the field and place the cursor at a character position counted from the field's
    /// left edge (a click in the field; the state adds the scroll).
    ClickField(usize),
    /// Start typing a new pattern with this character.
    StartTyping(char),
    /// Edit the focused field.
    Insert(char),
    Backspace,
    Delete,
    CursorLeft,
    CursorRight,
    CursorHome,
    CursorEnd,
    /// Insert pasted text (one line of it) at the cursor, or start a new pattern with it.
    Paste(String),
    /// Load this pattern (a dropped file) right away.
    Open(String),
    /// The next (+1) or previous (-1) pattern of the playlist, wrapping around.
    Browse(i32),
    /// Apply the field's text (Enter).
    Submit,
    /// Revert the field to the playing pattern.
    Revert,
    /// Type into the library list's search text.
    LibraryInsert(char),
    LibraryBackspace,
    /// Move the library list's selection by this many rows (negative = up).
    LibraryMove(i32),
    /// Scroll the library list by this many rows without moving the selection.
    LibraryScroll(i32),
    /// Play the selected pattern of the library list (Enter).
    LibraryPick,
    /// Play the pattern in this row of the list as shown (a click or tap).
    LibraryPickRow(usize),
    /// Scroll the help by this many rows.
    HelpScroll(i32),
    /// A click or tap on the diagram at window pixel `(x, y)`: the window finds the throw.
    DiagramClick {
        x: f32,
        y: f32,
    },
    /// Highlight this prop in the animation (a click on a throw of the diagram); `None`
    /// clears the highlight.
    Highlight(Option<usize>),
    Quit,
}

/// Something the window loop must do after an action: the state cannot do it alone.
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    /// Load this pattern text; report back with [`AppState::loaded`] or [`AppState::load_failed`].
    Load(String),
    /// Load entry `i` of the playlist (the patterns of the file being browsed).
    LoadEntry(usize),
    /// Load pattern `index` of library file `file` (`files::library::files()`), and browse
    /// that file from then on.
    LoadLibrary {
        file: usize,
        index: usize,
    },
    /// The field's text changed while an error was shown: check it again, so the error goes
    /// away as soon as the text is valid ([`AppState::revalidated`]).
    Revalidate(String),
    /// The diagram was clicked at window pixel `(x, y)`: highlight the prop of the throw
    /// there, if any.
    DiagramClick {
        x: f32,
        y: f32,
    },
    Quit,
}

/// Which part of the window the keyboard is typing into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Focus {
    /// Nothing: keys are shortcuts, and a character that can start a pattern starts one.
    Playing,
    /// The pattern field.
    Field,
    /// The library list's search.
    Library,
}

/// Everything the window remembers between frames, apart from the loaded pattern itself.
#[derive(Clone, Debug, PartialEq)]
pub struct AppState {
    pub playback: Playback,
    pub orbit: Orbit,
    /// The orbit R returns to (the pattern's or command line's camera).
    pub home_orbit: Orbit,
    pub field: TextField,
    /// The text of the pattern that is playing.
    pub playing: String,
    /// The last pattern that failed to load, until the next success or revert.
    pub error: Option<InputError>,
    /// Whether the full key help is shown (the one-line help is always shown).
    pub help: bool,
    /// Whether the facts panel is shown.
    pub facts: bool,
    /// Whether the ladder diagram is shown under the animation.
    pub diagram: bool,
    /// The searchable library list, while it is open.
    pub library: Option<LibraryList>,
    /// The prop highlighted by a click on the diagram.
    pub highlight: Option<usize>,
    /// First row of the help shown (it scrolls when the window is small).
    pub help_scroll: usize,
    /// Characters the field shows at once (set from the window layout every frame).
    pub field_columns: usize,
    /// Patterns in the playlist (0 or 1: no browsing).
    pub playlist_len: usize,
    /// The playlist entry playing, `None` while a typed pattern plays.
    pub entry: Option<usize>,
    /// The playlist entry browsed last: PageDown goes on from here even after a typed pattern.
    pub browsed: usize,
    /// Patterns loaded so far (a front end sees that another pattern plays).
    pub loads: u64,
}

impl AppState {
    /// State for a freshly opened pattern `text` whose loop lasts `loop_duration` seconds.
    pub fn new(text: &str, loop_duration: f64, home_orbit: Orbit) -> Self {
        AppState {
            playback: Playback::new(loop_duration),
            orbit: home_orbit,
            home_orbit,
            field: TextField::new(text),
            playing: text.to_string(),
            error: None,
            help: false,
            facts: true,
            diagram: false,
            library: None,
            highlight: None,
            help_scroll: 0,
            field_columns: usize::MAX,
            playlist_len: 0,
            entry: None,
            browsed: 0,
            loads: 0,
        }
    }

    /// Where typed keys go.
    pub fn focus(&self) -> Focus {
        if self.field.focused() {
            Focus::Field
        } else if self.library.is_some() {
            Focus::Library
        } else {
            Focus::Playing
        }
    }

    /// Applies one user action; returns what the caller must do, if anything.
    pub fn apply(&mut self, action: Action) -> Option<Effect> {
        let before = self.field.text().to_string();
        let effect = self.apply_inner(action);
        // While an error is shown, every edit is checked again (live errors).
        if effect.is_none() && self.error.is_some() && self.field.text() != before {
            let text = self.field.text().trim().to_string();
            if !text.is_empty() {
                return Some(Effect::Revalidate(text));
            }
        }
        effect
    }

    fn apply_inner(&mut self, action: Action) -> Option<Effect> {
        match action {
            Action::TogglePause => self.playback.toggle_pause(),
            Action::Faster => self.playback.faster(),
            Action::Slower => self.playback.slower(),
            Action::Step(frames) => self.playback.step(frames),
            Action::Scrub(fraction) => self.playback.scrub(fraction),
            Action::ResetView => self.orbit = self.home_orbit,
            Action::Orbit { dx, dy } => self.orbit.drag(dx, dy),
            Action::Zoom(notches) => self.orbit.zoom_by(notches),
            Action::ToggleHelp => {
                self.help = !self.help;
                // One side panel at a time: the help replaces the library list.
                if self.help {
                    self.library = None;
                }
            }
            Action::ToggleFacts => self.facts = !self.facts,
            Action::ToggleLibrary => {
                if self.library.is_some() {
                    self.library = None;
                } else {
                    self.open_library(LibraryList::new(crate::files::library::files()));
                }
            }
            Action::ToggleDiagram => self.diagram = !self.diagram,
            Action::Escape => {
                if self.help {
                    self.help = false;
                } else if self.field.focused() {
                    self.revert();
                } else if self.library.is_some() {
                    self.library = None;
                } else {
                    self.revert();
                    self.highlight = None;
                }
            }
            Action::FocusField => self.field.focus(),
            Action::Blur => self.field.blur(),
            Action::ClickField(index) => {
                let first = self.field.scroll(self.field_columns);
                self.field.click_at(first + index);
            }
            Action::StartTyping(c) => self.field.start_with(c),
            Action::Insert(c) => self.field.insert(c),
            Action::Backspace => self.field.backspace(),
            Action::Delete => self.field.delete(),
            Action::CursorLeft => self.field.left(),
            Action::CursorRight => self.field.right(),
            Action::CursorHome => self.field.home(),
            Action::CursorEnd => self.field.end(),
            Action::Submit => {
                let text = self.field.text().trim().to_string();
                if text.is_empty() {
                    self.revert();
                    return None;
                }
                return Some(Effect::Load(text));
            }
            Action::Paste(text) => {
                let line = text.lines().next().unwrap_or("").trim();
                if let (Some(list), false) = (self.library.as_mut(), self.field.focused()) {
                    line.chars().for_each(|c| list.insert(c));
                    return None;
                }
                if !self.field.focused() {
                    self.field.start_fresh();
                }
                line.chars().for_each(|c| self.field.insert(c));
            }
            Action::Open(text) => {
                self.field.reset(&text);
                return Some(Effect::Load(text));
            }
            Action::Browse(step) => {
                let n = self.playlist_len;
                if n > 1 {
                    // From the entry playing; after a typed pattern, from the one browsed last.
                    let current = self.entry.unwrap_or(self.browsed) as i64;
                    let next = (current + i64::from(step)).rem_euclid(n as i64) as usize;
                    return Some(Effect::LoadEntry(next));
                }
            }
            Action::Revert => self.revert(),
            Action::LibraryInsert(c) => {
                if let Some(list) = self.library.as_mut() {
                    list.insert(c);
                }
            }
            Action::LibraryBackspace => {
                if let Some(list) = self.library.as_mut() {
                    list.backspace();
                }
            }
            Action::LibraryMove(rows) => {
                if let Some(list) = self.library.as_mut() {
                    list.move_selection(rows);
                }
            }
            Action::LibraryScroll(rows) => {
                if let Some(list) = self.library.as_mut() {
                    list.scroll_by(rows);
                }
            }
            Action::LibraryPick => {
                let item = self.library.as_ref().and_then(LibraryList::selected_item);
                if let Some(item) = item {
                    return Some(Effect::LoadLibrary {
                        file: item.file,
                        index: item.index,
                    });
                }
            }
            Action::LibraryPickRow(row) => {
                let item = self.library.as_mut().and_then(|list| {
                    list.select_row(row);
                    list.selected_item()
                });
                if let Some(item) = item {
                    self.field.blur();
                    return Some(Effect::LoadLibrary {
                        file: item.file,
                        index: item.index,
                    });
                }
            }
            Action::Highlight(prop) => self.highlight = prop,
            Action::HelpScroll(rows) => {
                let target = self.help_scroll as i64 + i64::from(rows);
                self.help_scroll = target.max(0) as usize;
            }
            Action::DiagramClick { x, y } => return Some(Effect::DiagramClick { x, y }),
            Action::Quit => return Some(Effect::Quit),
        }
        None
    }

    /// Opens the library list `list` (closing the help: one side panel at a time).
    pub fn open_library(&mut self, list: LibraryList) {
        self.library = Some(list);
        self.help = false;
        self.field.blur();
    }

    fn revert(&mut self) {
        self.field.reset(&self.playing);
        self.error = None;
    }

    /// Playlist entry `entry`, shown as `text`, loaded: as [`AppState::loaded`], remembering
    /// the entry for browsing on.
    pub fn loaded_entry(
        &mut self,
        entry: usize,
        text: &str,
        loop_duration: f64,
        home_orbit: Orbit,
    ) {
        self.loaded(text, loop_duration, home_orbit);
        self.entry = Some(entry);
        self.browsed = entry;
    }

    /// The pattern `text` loaded: play it from its start. Its `home_orbit` becomes the view R
    /// returns to, and the current view too unless the user had turned or zoomed it.
    pub fn loaded(&mut self, text: &str, loop_duration: f64, home_orbit: Orbit) {
        self.loads += 1;
        self.entry = None;
        if self.orbit == self.home_orbit {
            self.orbit = home_orbit;
        }
        self.home_orbit = home_orbit;
        self.playing = text.to_string();
        self.field.reset(text);
        self.error = None;
        self.highlight = None;
        self.playback.restart(loop_duration);
    }

    /// The pattern `text` failed to load: keep playing the old one, keep the typed text in the
    /// (still focused) field so it can be corrected, and show the error.
    pub fn load_failed(&mut self, text: &str, message: String, column: Option<usize>) {
        self.error = Some(InputError {
            text: text.to_string(),
            message,
            column,
        });
        self.field.focused = true;
    }

    /// The answer to [`Effect::Revalidate`] for `text`: `None` when it is valid (the error
    /// goes away), else the new message and column. Ignored when the field has changed since.
    pub fn revalidated(&mut self, text: &str, problem: Option<(String, Option<usize>)>) {
        if self.field.text().trim() != text {
            return;
        }
        match problem {
            None => self.error = None,
            Some((message, column)) => {
                if self.error.is_some() {
                    // The column counts in the trimmed text.
                    let typed = self.field.text();
                    let leading = typed.chars().take_while(|c| c.is_whitespace()).count();
                    self.error = Some(InputError {
                        text: typed.to_string(),
                        message,
                        column: column.map(|c| c + leading),
                    });
                }
            }
        }
    }

    /// Speed as shown to the user, e.g. `0.5x`, `1x`, `1.25x`.
    pub fn speed_label(&self) -> String {
        let s = self.playback.speed();
        let text = format!("{s:.2}");
        let text = text.trim_end_matches('0').trim_end_matches('.');
        format!("{text}x")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn playback_advances_by_wall_time_times_speed_and_wraps_at_the_loop() {
        let mut p = Playback::new(2.0);
        p.advance(0.5);
        assert!(close(p.time(), 0.5));
        p.faster(); // 1.25x
        p.advance(0.4);
        assert!(close(p.time(), 1.0));
        p.advance(1.6); // + 2.0 s of pattern time: a full loop
        assert!(close(p.time(), 1.0));
        p.advance(0.9); // 1.0 + 1.125 = 2.125 -> 0.125
        assert!(close(p.time(), 0.125), "{}", p.time());
    }

    #[test]
    fn paused_playback_does_not_move_but_steps_do() {
        let mut p = Playback::new(1.0);
        p.toggle_pause();
        p.advance(0.3);
        assert_eq!(p.time(), 0.0);
        p.step(3);
        assert!(close(p.time(), 3.0 / 60.0));
        p.step(-4); // before 0: wraps to the loop's end
        assert!(close(p.time(), 1.0 - 1.0 / 60.0), "{}", p.time());
    }

    #[test]
    fn stepping_while_playing_pauses() {
        let mut p = Playback::new(1.0);
        p.step(1);
        assert!(p.paused());
        assert!(close(p.time(), 1.0 / 60.0));
    }

    #[test]
    fn a_speed_is_the_nearest_offered() {
        let mut p = Playback::new(1.0);
        for (asked, got) in [
            (0.5, 0.5),
            (0.3, 0.25),
            (1.1, 1.0),
            (2.6, 3.0),
            (99.0, 4.0),
            (0.01, 0.1),
        ] {
            p.set_speed(asked);
            assert_eq!(p.speed(), got, "{asked}");
        }
        p.set_speed(f64::NAN);
        p.set_speed(-1.0);
        assert_eq!(p.speed(), 0.1);
    }

    #[test]
    fn speed_is_clamped_to_the_table_ends() {
        let mut p = Playback::new(1.0);
        for _ in 0..20 {
            p.faster();
        }
        assert_eq!(p.speed(), 4.0);
        for _ in 0..20 {
            p.slower();
        }
        assert_eq!(p.speed(), 0.1);
    }

    #[test]
    fn scrub_maps_fractions_onto_the_loop_and_clamps() {
        let mut p = Playback::new(4.0);
        p.scrub(0.25);
        assert!(close(p.time(), 1.0));
        assert!(close(p.fraction(), 0.25));
        p.scrub(-3.0);
        assert_eq!(p.time(), 0.0);
        p.scrub(1.0); // the end of the loop is its start
        assert_eq!(p.time(), 0.0);
        p.scrub(f64::NAN);
        assert_eq!(p.time(), 0.0);
    }

    #[test]
    fn bad_loop_durations_fall_back_to_one_second() {
        for d in [0.0, -2.0, f64::NAN, f64::INFINITY] {
            let mut p = Playback::new(d);
            assert_eq!(p.loop_duration(), 1.0);
            p.advance(0.25);
            assert!(close(p.time(), 0.25));
        }
    }

    #[test]
    fn restart_keeps_speed_and_pause_and_goes_to_the_start() {
        let mut p = Playback::new(3.0);
        p.faster();
        p.set_paused(true);
        p.set_time(2.5);
        p.restart(1.5);
        assert_eq!(
            (p.time(), p.loop_duration(), p.speed(), p.paused()),
            (0.0, 1.5, 1.25, true)
        );
    }

    #[test]
    fn orbit_drag_turns_and_clamps_elevation() {
        let mut o = Orbit::new(0.0, 10.0);
        o.drag(100.0, 0.0); // 40 degrees to the right
        assert!((o.azimuth_deg - 320.0).abs() < 1e-4);
        o.drag(0.0, 50.0);
        assert!((o.elevation_deg - 30.0).abs() < 1e-4);
        o.drag(0.0, 10_000.0);
        assert_eq!(o.elevation_deg, Orbit::MAX_ELEVATION);
        o.drag(0.0, -10_000.0);
        assert_eq!(o.elevation_deg, Orbit::MIN_ELEVATION);
        o.drag(f32::NAN, f32::NAN);
        assert_eq!(o.elevation_deg, Orbit::MIN_ELEVATION);
    }

    #[test]
    fn zoom_multiplies_per_notch_and_clamps() {
        let mut o = Orbit::new(0.0, 0.0);
        o.zoom_by(2.0);
        assert!((o.zoom - 0.81).abs() < 1e-6);
        o.zoom_by(-2.0);
        assert!((o.zoom - 1.0).abs() < 1e-6);
        o.zoom_by(100.0);
        assert_eq!(o.zoom, Orbit::MIN_ZOOM);
        o.zoom_by(-100.0);
        assert_eq!(o.zoom, Orbit::MAX_ZOOM);
    }

    #[test]
    fn text_field_edits_at_the_cursor_with_multibyte_text() {
        let mut f = TextField::new("531");
        assert_eq!(f.cursor(), 3);
        f.left();
        f.insert('é');
        assert_eq!((f.text(), f.cursor()), ("53é1", 3));
        f.backspace();
        f.backspace();
        assert_eq!((f.text(), f.cursor()), ("51", 1));
        f.home();
        f.delete();
        assert_eq!((f.text(), f.cursor()), ("1", 0));
        f.left();
        f.backspace();
        assert_eq!((f.text(), f.cursor()), ("1", 0));
        f.end();
        f.right();
        f.delete();
        f.insert('\n'); // control characters are not typed
        assert_eq!((f.text(), f.cursor()), ("1", 1));
    }

    #[test]
    fn long_text_scrolls_to_keep_the_caret_visible() {
        let mut f = TextField::new("0123456789");
        assert_eq!(f.scroll(4), 0); // unfocused: shows the start
        f.focus(); // caret at 10
        assert_eq!(f.scroll(4), 7); // shows 7, 8, 9 and the caret
        f.home();
        assert_eq!(f.scroll(4), 0);
        assert_eq!(f.scroll(20), 0);
        let mut s = AppState::new("0123456789", 1.0, Orbit::new(0.0, 0.0));
        s.field_columns = 4;
        s.apply(Action::FocusField);
        s.apply(Action::ClickField(1)); // the second visible character: index 8
        assert_eq!(s.field.cursor(), 8);
    }

    #[test]
    fn typing_a_digit_starts_a_new_pattern() {
        let mut s = AppState::new("3", 1.0, Orbit::new(0.0, 0.0));
        s.apply(Action::StartTyping('5'));
        s.apply(Action::Insert('3'));
        s.apply(Action::Insert('1'));
        assert!(s.field.focused());
        assert_eq!(s.apply(Action::Submit), Some(Effect::Load("531".into())));
    }

    #[test]
    fn invalid_pattern_keeps_the_old_one_playing_and_shows_the_error() {
        let mut s = AppState::new("3", 1.2, Orbit::new(0.0, 0.0));
        s.playback.set_time(0.7);
        s.apply(Action::StartTyping('5'));
        s.apply(Action::Insert('4'));
        assert_eq!(s.apply(Action::Submit), Some(Effect::Load("54".into())));
        s.load_failed("54", "collision at beat 1".into(), Some(1));
        assert_eq!(s.playing, "3");
        assert!(close(s.playback.time(), 0.7));
        assert_eq!(s.field.text(), "54");
        assert!(s.field.focused());
        assert_eq!(s.error.as_ref().map(|e| e.column), Some(Some(1)));
        // Clicking away keeps the typed text and the error; Esc reverts both.
        s.apply(Action::Blur);
        assert_eq!(
            (s.field.text(), s.field.focused(), s.error.is_some()),
            ("54", false, true)
        );
        s.apply(Action::Revert);
        assert_eq!(
            (s.field.text(), s.field.focused(), s.error.is_none()),
            ("3", false, true)
        );
    }

    #[test]
    fn loading_a_pattern_restarts_playback_and_clears_the_error() {
        let mut s = AppState::new("3", 1.2, Orbit::new(0.0, 0.0));
        s.load_failed("x", "bad".into(), None);
        s.playback.set_time(0.9);
        s.loaded("531", 3.0, Orbit::new(0.0, 0.0));
        assert_eq!(
            (s.playing.as_str(), s.field.text(), s.field.focused()),
            ("531", "531", false)
        );
        assert_eq!((s.playback.time(), s.playback.loop_duration()), (0.0, 3.0));
        assert!(s.error.is_none());
    }

    #[test]
    fn pasting_inserts_one_line_and_dropping_a_file_loads_it() {
        let mut s = AppState::new("3", 1.0, Orbit::new(0.0, 0.0));
        s.apply(Action::Paste(" <3p|3p>\nsecond line".into()));
        assert_eq!((s.field.text(), s.field.focused()), ("<3p|3p>", true));
        s.apply(Action::CursorHome);
        s.apply(Action::Paste("x".into()));
        assert_eq!(s.field.text(), "x<3p|3p>");
        let open = s.apply(Action::Open("/p/clubs.toml".into()));
        assert_eq!(open, Some(Effect::Load("/p/clubs.toml".into())));
        assert_eq!((s.field.text(), s.playing.as_str()), ("/p/clubs.toml", "3"));
    }

    #[test]
    fn submitting_an_empty_field_reverts_instead_of_loading() {
        let mut s = AppState::new("3", 1.0, Orbit::new(0.0, 0.0));
        s.apply(Action::FocusField);
        for _ in 0..3 {
            s.apply(Action::Backspace);
        }
        s.apply(Action::Insert(' '));
        assert_eq!(s.apply(Action::Submit), None);
        assert_eq!(s.field.text(), "3");
    }

    #[test]
    fn a_new_pattern_brings_its_view_unless_the_user_turned_the_camera() {
        let solo = Orbit::new(0.0, 8.0);
        let passing = Orbit::new(340.0, 20.0);
        let mut s = AppState::new("3", 1.0, solo);
        s.loaded("<3p|3p>", 2.0, passing);
        assert_eq!((s.orbit, s.home_orbit), (passing, passing));
        s.apply(Action::Orbit { dx: 10.0, dy: 0.0 });
        let turned = s.orbit;
        s.loaded("3", 1.0, solo);
        assert_eq!((s.orbit, s.home_orbit), (turned, solo));
        s.apply(Action::ResetView);
        assert_eq!(s.orbit, solo);
    }

    #[test]
    fn browsing_the_playlist_wraps_around() {
        let mut s = AppState::new("3", 1.0, Orbit::new(0.0, 0.0));
        assert_eq!(s.apply(Action::Browse(1)), None); // no playlist
        s.playlist_len = 3;
        s.entry = Some(0);
        assert_eq!(s.apply(Action::Browse(-1)), Some(Effect::LoadEntry(2)));
        s.loaded_entry(2, "531", 1.0, Orbit::new(0.0, 0.0));
        assert_eq!(s.apply(Action::Browse(1)), Some(Effect::LoadEntry(0)));
        // After typing another pattern, PageDown goes on from the entry browsed last.
        s.apply(Action::Browse(1));
        s.loaded_entry(0, "3", 1.0, Orbit::new(0.0, 0.0));
        s.apply(Action::Browse(1));
        s.loaded_entry(1, "441", 1.0, Orbit::new(0.0, 0.0));
        s.loaded("97531", 1.0, Orbit::new(0.0, 0.0));
        assert_eq!((s.entry, s.browsed), (None, 1));
        assert_eq!(s.apply(Action::Browse(1)), Some(Effect::LoadEntry(2)));
        assert_eq!(s.apply(Action::Browse(-1)), Some(Effect::LoadEntry(0)));
    }

    #[test]
    fn reset_view_returns_to_the_home_orbit() {
        let home = Orbit::new(340.0, 20.0);
        let mut s = AppState::new("<3p|3p>", 1.0, home);
        s.apply(Action::Orbit {
            dx: 30.0,
            dy: -12.0,
        });
        s.apply(Action::Zoom(3.0));
        assert_ne!(s.orbit, home);
        s.apply(Action::ResetView);
        assert_eq!(s.orbit, home);
    }

    #[test]
    fn help_and_facts_toggle() {
        let mut s = AppState::new("3", 1.0, Orbit::new(0.0, 0.0));
        assert!(!s.help && s.facts);
        s.apply(Action::ToggleHelp);
        s.apply(Action::ToggleFacts);
        assert!(s.help && !s.facts);
        s.apply(Action::ToggleFacts);
        assert!(s.facts);
    }

    #[test]
    fn typing_a_name_with_shortcut_letters_keeps_every_letter() {
        use crate::app::input::char_action;
        for name in ["Rubenstein's Revenge", "High-low shower", "quit", "invert"] {
            let mut s = AppState::new("3", 1.0, Orbit::new(0.0, 0.0));
            for c in name.chars() {
                if let Some(a) = char_action(c, s.focus()) {
                    assert_eq!(s.apply(a), None);
                }
            }
            assert!(!s.help && s.facts, "{name}: a shortcut fired");
            assert_eq!(s.apply(Action::Submit), Some(Effect::Load(name.into())));
        }
    }

    #[test]
    fn escape_closes_the_help_first_then_reverts_then_closes_the_list() {
        let mut s = AppState::new("3", 1.0, Orbit::new(0.0, 0.0));
        s.apply(Action::StartTyping('5'));
        s.apply(Action::ToggleHelp);
        s.apply(Action::Escape);
        assert!(!s.help);
        assert_eq!((s.field.text(), s.field.focused()), ("5", true));
        s.apply(Action::Escape);
        assert_eq!((s.field.text(), s.field.focused()), ("3", false));
        s.apply(Action::ToggleLibrary);
        assert_eq!(s.focus(), Focus::Library);
        s.apply(Action::Highlight(Some(2)));
        s.apply(Action::Escape);
        assert!(s.library.is_none());
        assert_eq!(s.highlight, Some(2));
        s.apply(Action::Escape);
        assert_eq!(s.highlight, None);
        // One side panel at a time.
        s.apply(Action::ToggleLibrary);
        s.apply(Action::ToggleHelp);
        assert!(s.help && s.library.is_none());
        s.apply(Action::ToggleLibrary);
        assert!(!s.help && s.library.is_some());
    }

    #[test]
    fn the_error_is_checked_again_on_every_edit_and_clears_once_valid() {
        let mut s = AppState::new("3", 1.0, Orbit::new(0.0, 0.0));
        s.apply(Action::StartTyping('5'));
        s.apply(Action::Insert('4'));
        assert_eq!(s.apply(Action::Submit), Some(Effect::Load("54".into())));
        s.load_failed("54", "collision".into(), Some(1));
        // Editing asks for a check of the new text; a still-invalid text updates the error.
        assert_eq!(
            s.apply(Action::Backspace),
            Some(Effect::Revalidate("5".into()))
        );
        s.revalidated("5", Some(("average is not whole".into(), None)));
        let e = s.error.clone().unwrap();
        assert_eq!(
            (e.text.as_str(), e.message.as_str()),
            ("5", "average is not whole")
        );
        assert_eq!(
            s.apply(Action::Insert('1')),
            Some(Effect::Revalidate("51".into()))
        );
        // An answer for text the field no longer holds is ignored.
        s.revalidated("5", None);
        assert!(s.error.is_some());
        s.revalidated("51", None);
        assert!(s.error.is_none());
        // Without an error shown, edits ask for nothing.
        assert_eq!(s.apply(Action::Insert('1')), None);
        assert_eq!(s.playing, "3");
    }

    #[test]
    fn picking_from_the_library_list_loads_and_browses_that_file() {
        let mut s = AppState::new("3", 1.0, Orbit::new(0.0, 0.0));
        s.apply(Action::ToggleLibrary);
        for c in "mills mess".chars() {
            s.apply(Action::LibraryInsert(c));
        }
        let item = s.library.as_ref().unwrap().selected_item().unwrap();
        assert_eq!(item.name, "Mills Mess");
        let effect = s.apply(Action::LibraryPick);
        assert_eq!(
            effect,
            Some(Effect::LoadLibrary {
                file: item.file,
                index: item.index
            })
        );
        // The window loads it as an entry of its file; PageDown goes to the next one.
        s.playlist_len = item.index + 5;
        s.loaded_entry(item.index, "Mills Mess", 1.0, Orbit::new(0.0, 0.0));
        assert_eq!(
            s.apply(Action::Browse(1)),
            Some(Effect::LoadEntry(item.index + 1))
        );
        // A tap on a row picks that row.
        s.apply(Action::LibraryBackspace);
        let effect = s.apply(Action::LibraryPickRow(0));
        assert!(
            matches!(effect, Some(Effect::LoadLibrary { .. })),
            "{effect:?}"
        );
        // Nothing matching: Enter picks nothing.
        s.apply(Action::LibraryInsert('#'));
        s.apply(Action::LibraryInsert('#'));
        assert_eq!(s.apply(Action::LibraryPick), None);
    }

    #[test]
    fn speed_labels_are_short() {
        let mut s = AppState::new("3", 1.0, Orbit::new(0.0, 0.0));
        assert_eq!(s.speed_label(), "1x");
        s.apply(Action::Faster);
        assert_eq!(s.speed_label(), "1.25x");
        for _ in 0..3 {
            s.apply(Action::Slower);
        }
        assert_eq!(s.speed_label(), "0.5x");
        s.apply(Action::Slower);
        s.apply(Action::Slower);
        assert_eq!(s.speed_label(), "0.1x");
    }
}
