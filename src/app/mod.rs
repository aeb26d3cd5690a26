//! The interactive application (macroquad window): type a siteswap and watch it juggled.
//!
//! Submodules: `state` (playback, orbit, text field, open panels: plain data), `input`
//! (events -> actions, the typing rule), `learn` (sound, labels, trail, view, loop of beats,
//! stepping by throw and catch: plain data), `audio` (the sounds as the clock passes their
//! events), `geometry` (where the controls and panels sit), `ui`
//! (the controls), `library_list` (the searchable library), `diagram_panel` (the ladder
//! diagram under the animation), `title` (the window title), `animation` /
//! `scene_animation` (what plays), `screenshot` (PNG), `display` (is there a display at all).
//! The juggling itself is drawn by the render back-end `render::gl` (a `Frame` onto the
//! window). `app/` and `render/gl/` are the only places in the crate that import macroquad.
//!
//! [`run`] opens the window and returns when it is closed, after a screenshot, or after a
//! frame-rate measurement. It never panics for lack of a display: check [`display::detect_from_env`]
//! first, and backend failures come back as [`WindowError::Backend`].

pub mod animation;
pub mod audio;
pub mod diagram_panel;
pub mod display;
pub mod geometry;
pub mod input;
pub mod learn;
pub mod library_list;
pub mod scene_animation;
pub mod screenshot;
pub mod state;
pub mod title;
pub mod ui;
// The page's front end is used by the wasm build only; natively its plain parts are tested.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub mod web;

use std::cell::RefCell;
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::Mutex;

use glam::Vec2;
use macroquad::prelude as mq;
use thiserror::Error;

use crate::render::gl::draw;
pub use animation::{Animation, Entry, Facts, LoadError, Loader, Look, SpecLoader};
use display::DisplayKind;
use geometry::{Geometry, Panels};
pub use input::InputEvent;
use input::{Collector, Translator};
pub use screenshot::ScreenshotError;
pub use state::Orbit;
use state::{Action, AppState, Effect};

/// Default window size, pixels.
pub const DEFAULT_SIZE: (i32, i32) = (1280, 720);

/// The monospace font of all window text (DejaVu Sans Mono, Bitstream Vera licence).
static FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSansMono.ttf");

/// What the window does after opening.
#[derive(Clone, Debug, PartialEq)]
pub enum Mode {
    /// Play until the user closes the window or presses Q.
    Interactive,
    /// Draw exactly the frame at pattern time `at` seconds (paused, no input), save the window
    /// as a PNG at `path` and close.
    Screenshot { path: PathBuf, at: f64 },
    /// Play `frames` frames as fast as possible (no vsync) and report the frame rate.
    Bench { frames: u32 },
}

/// Who draws the controls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chrome {
    /// The window draws them (the desktop window).
    Window,
    /// The web page has them as HTML elements: the canvas shows the juggling and the ladder
    /// diagram only, and every part of it is the view.
    Page,
}

/// Everything [`run`] needs.
pub struct WindowOptions {
    pub title: String,
    /// The pattern text shown in the field for the first pattern.
    pub text: String,
    pub animation: Box<dyn Animation>,
    /// Loads patterns typed in the field.
    pub loader: Loader,
    /// Loads patterns picked from the library list (with the front end's overrides applied).
    pub spec_loader: SpecLoader,
    /// Input replayed when the window opens, before anything is drawn (`--keys`; see
    /// [`input::parse_script`]); also in screenshot mode, which otherwise takes no input.
    pub script: Vec<InputEvent>,
    /// Patterns PageDown/PageUp browse (the file's patterns; `animation` is entry 0). Empty or
    /// one entry: no browsing.
    pub playlist: Vec<Entry>,
    pub mode: Mode,
    /// Window size in pixels.
    pub size: (i32, i32),
    /// Multisample anti-aliasing samples per pixel (1 = off).
    pub msaa: u8,
    pub chrome: Chrome,
    /// Sound, labels, trail, view, speed and loop of beats to start with (the command
    /// line's learning options).
    pub learn: learn::Seed,
}

/// How the window ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// The user closed it.
    Closed,
    /// A screenshot of `width` x `height` pixels was saved.
    Screenshot {
        path: PathBuf,
        width: u32,
        height: u32,
    },
    /// `frames` frames were drawn in `seconds` (after a short warm-up), of which `work_seconds`
    /// went into building and submitting the frames (the rest is OpenGL drawing and waiting).
    Bench {
        frames: u32,
        seconds: f64,
        work_seconds: f64,
    },
}

/// Why the window could not do its job.
#[derive(Debug, Error)]
pub enum WindowError {
    #[error("no display to open a window on (neither DISPLAY nor WAYLAND_DISPLAY is set)")]
    NoDisplay,
    #[error("cannot open a window: {0}")]
    Backend(String),
    #[error(transparent)]
    Screenshot(#[from] ScreenshotError),
}

/// Frames drawn before a screenshot is taken, so the window has its final size.
const SCREENSHOT_FRAMES: u32 = 3;
/// Frames drawn before the frame-rate clock starts.
const BENCH_WARMUP: u32 = 10;
/// The longest wall-clock step the animation takes in one frame (after a stall), seconds.
const MAX_FRAME_DT: f64 = 0.1;

/// Opens the window and runs it to completion. Must be called at most once per process
/// (macroquad keeps global state).
pub fn run(options: WindowOptions) -> Result<Outcome, WindowError> {
    let kind = display::detect_from_env().ok_or(WindowError::NoDisplay)?;
    let conf = window_conf(&options, kind);
    audio::quiet_sound_errors();
    let result: Rc<RefCell<Option<Result<Outcome, WindowError>>>> = Rc::new(RefCell::new(None));
    let slot = Rc::clone(&result);

    static PANIC_MESSAGE: Mutex<Option<String>> = Mutex::new(None);
    let previous_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|info| {
        // Off the main thread: macroquad's audio thread, which found no sound output.
        if std::thread::current().name() != Some("main") {
            audio::mark_output_failed();
            return;
        }
        if let Ok(mut m) = PANIC_MESSAGE.lock() {
            *m = Some(info.to_string());
        }
    }));
    let started = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || {
        macroquad::Window::from_config(conf, async move {
            let outcome = main_loop(options).await;
            *slot.borrow_mut() = Some(outcome);
        });
    }));
    std::panic::set_hook(previous_hook);

    if started.is_err() {
        let message = PANIC_MESSAGE
            .lock()
            .ok()
            .and_then(|mut m| m.take())
            .unwrap_or_else(|| "the window backend failed".to_string());
        return Err(WindowError::Backend(backend_message(&message)));
    }
    let outcome = result.borrow_mut().take();
    outcome.unwrap_or(Ok(Outcome::Closed))
}

/// A one-line explanation of a backend panic message.
fn backend_message(panic: &str) -> String {
    if panic.contains("XOpenDisplay") {
        let display = std::env::var("DISPLAY").unwrap_or_default();
        format!("cannot connect to the X display '{display}'")
    } else if panic.contains("Wayland backend failed") {
        let display = std::env::var("WAYLAND_DISPLAY").unwrap_or_default();
        format!("cannot connect to the Wayland display '{display}'")
    } else if panic.contains("LibraryNotFound") || panic.contains("backend failed") {
        "the X11/OpenGL libraries could not be loaded (install libx11, libxi and libgl)".to_string()
    } else {
        panic.lines().next().unwrap_or(panic).to_string()
    }
}

fn window_conf(options: &WindowOptions, kind: DisplayKind) -> macroquad::miniquad::conf::Conf {
    use macroquad::miniquad::conf::{Conf, LinuxBackend, Platform};
    Conf {
        // On X11 the window opens under a marker title that `title::TitleSetter` finds and
        // replaces with the pattern's title.
        window_title: match kind {
            DisplayKind::X11 => title::marker(),
            DisplayKind::Wayland => options.title.clone(),
        },
        window_width: options.size.0.max(200),
        window_height: options.size.1.max(200),
        window_resizable: true,
        high_dpi: false,
        sample_count: i32::from(options.msaa.max(1)),
        platform: Platform {
            linux_backend: match kind {
                DisplayKind::X11 => LinuxBackend::X11Only,
                DisplayKind::Wayland => LinuxBackend::WaylandOnly,
            },
            // Vsync while interactive (no busy loop), none when measuring.
            swap_interval: match options.mode {
                Mode::Bench { .. } => Some(0),
                Mode::Interactive => Some(1),
                Mode::Screenshot { .. } => None,
            },
            ..Default::default()
        },
        ..Default::default()
    }
}

/// The patterns PageDown/PageUp browse.
enum Playlist {
    /// The patterns of the file given to the front end.
    Entries(Vec<Entry>),
    /// The patterns of library file `file` (`files::library::files()`), after one of them was
    /// picked from the library list.
    Library { file: usize },
}

impl Playlist {
    fn len(&self) -> usize {
        match self {
            Playlist::Entries(entries) => entries.len(),
            Playlist::Library { file } => crate::files::library::files()
                .get(*file)
                .map_or(0, |f| f.patterns.len()),
        }
    }
}

/// A front end's own list of patterns (a file the user opened) becomes the playlist.
impl FromIterator<Entry> for Playlist {
    fn from_iter<I: IntoIterator<Item = Entry>>(entries: I) -> Self {
        Playlist::Entries(entries.into_iter().collect())
    }
}

/// Which arcs of the ladder the highlighted prop makes, for one repetition of the diagram.
struct HighlightCache {
    prop: usize,
    repetition: i64,
    arcs: Vec<bool>,
}

/// The pattern playing and everything the user has done to it.
struct Session {
    app: AppState,
    animation: Box<dyn Animation>,
    loader: Loader,
    spec_loader: SpecLoader,
    playlist: Playlist,
    translator: Translator,
    /// A typed text checked while an error was shown, and its animation if it was valid (so
    /// Enter does not build it again).
    checked: Option<(String, Box<dyn Animation>)>,
    highlight_cache: Option<HighlightCache>,
    title: title::TitleSetter,
    marker: String,
    chrome: Chrome,
    player: audio::Player,
}

impl Session {
    /// Applies one input event; returns `true` when the user asked to quit.
    fn handle(&mut self, event: InputEvent, g: &Geometry, t: f64) -> bool {
        let focus = self.app.focus();
        for action in self.translator.translate(event, g, focus) {
            if self.chrome == Chrome::Page && !web::actions::page_allows(&action) {
                continue;
            }
            if self.act(action, g, t) {
                return true;
            }
        }
        // A touch screen's keyboard comes up while the pattern field is edited (not for the
        // library list, which is mostly scrolled and tapped; miniquad implements this on the
        // web and Android only, and complains elsewhere).
        #[cfg(any(target_arch = "wasm32", target_os = "android"))]
        {
            let now = self.app.focus();
            if now != focus && self.chrome == Chrome::Window {
                macroquad::miniquad::window::show_keyboard(now == state::Focus::Field);
            }
        }
        #[cfg(not(any(target_arch = "wasm32", target_os = "android")))]
        let _ = focus;
        false
    }

    /// Applies one action; returns `true` when the user asked to quit.
    fn act(&mut self, action: Action, g: &Geometry, t: f64) -> bool {
        match self.app.apply(action) {
            Some(Effect::Quit) => return true,
            Some(Effect::Load(pattern)) => self.load(&pattern),
            Some(Effect::LoadEntry(i)) => self.load_entry(i),
            Some(Effect::LoadLibrary { file, index }) => self.load_library(file, index),
            Some(Effect::Revalidate(text)) => self.revalidate(text),
            Some(Effect::DiagramClick { x, y }) => {
                let prop = self.prop_at(g, Vec2::new(x, y), t);
                self.app.apply(Action::Highlight(prop));
                if self.app.learn.trail.is_some() {
                    // The trail follows the prop picked.
                    self.app.learn.trail = Some(prop.unwrap_or(0));
                }
            }
            Some(Effect::View(view)) => {
                let home = self.animation.set_view(view);
                self.app.viewed(home);
            }
            None => {}
        }
        false
    }

    /// The prop of the throw drawn at window point `p` of the diagram, at pattern time `t`.
    fn prop_at(&self, g: &Geometry, p: Vec2, t: f64) -> Option<usize> {
        let rect = g.diagram?;
        let ladder = self
            .animation
            .ladder()
            .filter(|l| diagram_panel::too_large(l).is_none())?;
        let map = diagram_panel::map_for(g, &rect, ladder);
        let arc = &ladder.arcs[map.hit(ladder, p)?];
        let repetition = self.repetition(t, ladder);
        self.animation
            .prop_of_throw(arc.throw, arc.start + repetition * i64::from(ladder.beats))
    }

    /// Which repetition of `ladder`'s beats pattern time `t` is in (its beats are fine
    /// beats, `subdivision` to each juggler's beat).
    fn repetition(&self, t: f64, ladder: &crate::tools::diagram::Ladder) -> i64 {
        let bps = self.animation.facts().beats_per_second * f64::from(ladder.subdivision);
        let b = t * bps / f64::from(ladder.beats.max(1));
        if b.is_finite() {
            b.floor() as i64
        } else {
            0
        }
    }

    /// Per arc of the ladder, whether the highlighted prop makes it (in the repetition of
    /// the diagram that time `t` is in).
    fn highlighted_arcs(&mut self, t: f64) -> Vec<bool> {
        let (Some(prop), Some(ladder)) = (self.app.highlight, self.animation.ladder()) else {
            return Vec::new();
        };
        if diagram_panel::too_large(ladder).is_some() {
            return Vec::new();
        }
        let repetition = self.repetition(t, ladder);
        if let Some(c) = &self.highlight_cache {
            if c.prop == prop && c.repetition == repetition {
                return c.arcs.clone();
            }
        }
        let offset = repetition * i64::from(ladder.beats);
        let arcs: Vec<bool> = ladder
            .arcs
            .iter()
            .map(|a| self.animation.prop_of_throw(a.throw, a.start + offset) == Some(prop))
            .collect();
        self.highlight_cache = Some(HighlightCache {
            prop,
            repetition,
            arcs: arcs.clone(),
        });
        arcs
    }

    /// Plays pattern `index` of library file `file`, and browses that file from then on.
    fn load_library(&mut self, file: usize, index: usize) {
        self.playlist = Playlist::Library { file };
        self.app.playlist_len = self.playlist.len();
        self.load_entry(index);
    }

    /// A new animation plays: forget what belonged to the old one.
    fn replace(&mut self, animation: Box<dyn Animation>) {
        self.animation = animation;
        self.checked = None;
        self.highlight_cache = None;
        self.app.set_rhythm(self.animation.rhythm());
        if self
            .app
            .learn
            .trail
            .is_some_and(|p| p >= self.animation.facts().props)
        {
            self.app.learn.trail = Some(0);
        }
        self.update_title();
    }

    /// The orbit a newly loaded animation is seen from: the view chosen, kept across
    /// patterns.
    fn home_of(&self, animation: &mut Box<dyn Animation>) -> Orbit {
        let view = self.app.learn.view;
        let view = match view {
            crate::render::ViewKind::Eye(n) => {
                crate::render::ViewKind::Eye(n.min(animation.facts().jugglers.max(1) - 1))
            }
            other => other,
        };
        animation.set_view(view)
    }

    /// Plays the sounds of the events in the spans of pattern time the clock passed.
    fn sound(&mut self, spans: &[(f64, f64)]) {
        let learn = &self.app.learn;
        if !learn.sound || learn.parts.is_silent() || spans.is_empty() {
            return;
        }
        let events: Vec<_> = spans
            .iter()
            .flat_map(|&(from, to)| self.animation.events_between(from, to))
            .collect();
        let cues = audio::frame_cues(&events, learn.parts);
        self.player.play(&cues);
    }

    fn update_title(&mut self) {
        let title = title::window_title(&self.animation.facts());
        self.title.set(&title, &self.marker);
    }

    /// Loads `pattern`: plays it from its start, or shows why it cannot be played.
    fn load(&mut self, pattern: &str) {
        let result = match self.checked.take() {
            Some((text, animation)) if text == pattern => Ok(animation),
            _ => (self.loader)(pattern),
        };
        self.show(pattern, result);
    }

    /// Plays the pattern typed as `pattern` once loaded, or shows why it cannot be played.
    fn show(&mut self, pattern: &str, result: Result<Box<dyn Animation>, LoadError>) {
        match result {
            Ok(mut loaded) => {
                let home = self.home_of(&mut loaded);
                self.app.loaded(pattern, loaded.loop_duration(), home);
                self.replace(loaded);
            }
            Err(err) => self.app.load_failed(pattern, err.message, err.column),
        }
    }

    /// Checks `text` again while an error is shown.
    fn revalidate(&mut self, text: String) {
        match (self.loader)(&text) {
            Ok(animation) => {
                self.app.revalidated(&text, None);
                self.checked = Some((text, animation));
            }
            Err(err) => {
                self.app.revalidated(&text, Some((err.message, err.column)));
                self.checked = None;
            }
        }
    }

    /// Loads entry `i` of the playlist.
    fn load_entry(&mut self, i: usize) {
        let (text, result) = match &self.playlist {
            Playlist::Entries(entries) => {
                let Some(entry) = entries.get(i) else {
                    return;
                };
                (entry.text.clone(), (entry.load)())
            }
            Playlist::Library { file } => {
                let files = crate::files::library::files();
                let Some(pattern) = files.get(*file).and_then(|f| f.patterns.get(i)) else {
                    return;
                };
                let spec = &pattern.spec;
                (spec.name.clone(), (self.spec_loader)(spec))
            }
        };
        match result {
            Ok(mut loaded) => {
                let home = self.home_of(&mut loaded);
                self.app
                    .loaded_entry(i, &text, loaded.loop_duration(), home);
                if let (Playlist::Library { file }, Some(list)) =
                    (&self.playlist, self.app.library.as_mut())
                {
                    list.select_item(*file, i);
                }
                self.replace(loaded);
            }
            Err(err) => self.app.load_failed(&text, err.message, err.column),
        }
    }

    /// Tells the state what fits in layout `g`: field columns, library rows, help lines.
    fn fit(&mut self, g: &Geometry) {
        self.app.field_columns = g.field_columns();
        if let Some(list) = self.app.library.as_mut() {
            list.set_rows(g.library_rows());
        }
        self.app.help_scroll = self.app.help_scroll.min(ui::help_max_scroll(g));
    }

    /// The layout for the window's size and the panels open now.
    fn geometry(&self, text: &ui::Text) -> Geometry {
        let panels = Panels {
            help: self.app.help,
            library: self.app.library.is_some() && !self.app.help,
            diagram: self.app.diagram,
            facts: self.app.facts,
            diagram_rails: if self.app.diagram {
                // A diagram named instead of drawn takes one line's room.
                self.animation.ladder().map_or(2, |l| {
                    if diagram_panel::too_large(l).is_some() {
                        2
                    } else {
                        l.rails.len()
                    }
                })
            } else {
                2
            },
        };
        let layout = match self.chrome {
            Chrome::Window => Geometry::with_panels,
            Chrome::Page => Geometry::page,
        };
        layout(
            mq::screen_width(),
            mq::screen_height(),
            text.char_width,
            panels,
        )
    }

    /// Draws the frame at pattern time `t` and the controls.
    fn draw(&mut self, g: &Geometry, text: &ui::Text, materials: Option<&draw::Materials>, t: f64) {
        let (vw, vh) = g.viewport_pixels();
        let look = Look {
            labels: self.app.learn.labels,
            trail: self.app.learn.trail,
        };
        let frame = self.animation.frame(t, &self.app.orbit, vw, vh, &look);
        let origin = Vec2::new(g.viewport.x, g.viewport.y);
        draw::draw_frame(&frame, origin, materials);
        let facts = self.animation.facts();
        let playlist = match (self.app.playlist_len, self.app.entry) {
            (n, Some(i)) if n > 1 => Some((i, n)),
            _ => None,
        };
        let highlighted = if self.app.diagram {
            self.highlighted_arcs(t)
        } else {
            Vec::new()
        };
        let highlight = self.app.highlight.and_then(|prop| {
            self.animation
                .prop_on_screen(t, &self.app.orbit, vw, vh, prop)
                .map(|(c, r)| (c + origin, r))
        });
        let diagram = match (self.app.diagram, self.animation.ladder()) {
            (true, Some(ladder)) => Some(ui::DiagramInfo {
                // The diagram's beats (fine beats on Prechac patterns).
                beats_per_second: facts.beats_per_second * f64::from(ladder.subdivision),
                ladder,
                highlighted,
            }),
            _ => None,
        };
        let info = ui::UiInfo {
            facts: &facts,
            time: t,
            playlist,
            diagram,
            highlight,
        };
        match self.chrome {
            Chrome::Window => ui::draw(g, text, &self.app, &info),
            Chrome::Page => ui::draw_page(g, text, &info),
        }
    }
}

/// Saves what the window shows now as a PNG at `path`.
fn capture(path: &std::path::Path) -> Result<Outcome, WindowError> {
    let mut image = mq::get_screen_data();
    let (width, height) = (u32::from(image.width), u32::from(image.height));
    screenshot::flip_rows(&mut image.bytes, width, height);
    screenshot::write_png(path, width, height, &image.bytes)?;
    Ok(Outcome::Screenshot {
        path: path.to_path_buf(),
        width,
        height,
    })
}

/// The window's frame loop.
async fn main_loop(options: WindowOptions) -> Result<Outcome, WindowError> {
    let WindowOptions {
        text: initial,
        animation,
        loader,
        spec_loader,
        playlist,
        mode,
        script,
        chrome,
        learn,
        ..
    } = options;
    let text = ui::Text::new(
        mq::load_ttf_font_from_bytes(FONT).ok(),
        macroquad::miniquad::window::dpi_scale(),
    );
    let materials = draw::materials();
    // Touches are handled as touches (one finger like the mouse, two to zoom), not turned
    // into mouse events by macroquad.
    mq::simulate_mouse_with_touch(false);
    let mut app = AppState::new(&initial, animation.loop_duration(), animation.home_orbit());
    app.playlist_len = playlist.len();
    app.entry = (playlist.len() > 1).then_some(0);
    app.set_rhythm(animation.rhythm());
    app.seed(&learn);
    let mut session = Session {
        app,
        animation,
        loader,
        spec_loader,
        playlist: Playlist::Entries(playlist),
        translator: Translator::default(),
        checked: None,
        highlight_cache: None,
        title: title::TitleSetter::default(),
        marker: title::marker(),
        chrome,
        player: audio::Player::default(),
    };
    let mut collector = Collector::default();
    let subscriber = macroquad::input::utils::register_input_subscriber();

    // Screenshot mode shows exactly time `at`, paused, and takes no input but the script.
    let fixed_time = match &mode {
        Mode::Screenshot { at, .. } => {
            session.app.playback.set_time(*at);
            session.app.playback.set_paused(true);
            Some(*at)
        }
        _ => None,
    };
    let mut script = Some(script);

    let mut frames: u32 = 0;
    // Clock: macroquad's seconds since start (std's Instant does not exist in the web build).
    let mut bench_start: Option<f64> = None;
    let mut work_seconds = 0.0;
    loop {
        let g = session.geometry(&text);
        session.fit(&g);
        let now = fixed_time.unwrap_or(session.app.playback.time());
        if let Some(events) = script.take() {
            session.update_title();
            for event in events {
                // The layout changes as panels open: hit-test each event against it.
                let g = session.geometry(&text);
                session.fit(&g);
                if session.handle(event, &g, now) && mode == Mode::Interactive {
                    return Ok(Outcome::Closed);
                }
            }
            if fixed_time.is_some() {
                // Loading a pattern restarts the clock; a screenshot still shows time `at`.
                session.app.playback.set_time(now);
                session.app.playback.set_paused(true);
            }
        }
        macroquad::input::utils::repeat_all_miniquad_input(&mut collector, subscriber);
        session.translator.set_clock(mq::get_time());
        for file in mq::get_dropped_files() {
            if let Some(path) = file.path {
                collector
                    .events
                    .push(InputEvent::Dropped(path.display().to_string()));
            }
        }
        #[cfg(target_arch = "wasm32")]
        web::frame(&mut session, &g);
        for event in collector.events.drain(..) {
            if mode == Mode::Interactive && session.handle(event, &g, now) {
                return Ok(Outcome::Closed);
            }
        }
        if fixed_time.is_none() {
            let dt = f64::from(mq::get_frame_time()).min(MAX_FRAME_DT);
            let spans = session.app.playback.advance(dt);
            if session.app.learn.sound && mode == Mode::Interactive {
                session.player.prepare().await;
                session.sound(&spans);
            }
        }
        // Panels opened by the input above change the layout of this frame.
        let g = session.geometry(&text);
        session.fit(&g);

        let work = mq::get_time();
        let t = fixed_time.unwrap_or(session.app.playback.time());
        session.draw(&g, &text, materials.as_ref(), t);
        frames += 1;
        if bench_start.is_some() {
            work_seconds += mq::get_time() - work;
        }

        match &mode {
            Mode::Screenshot { path, .. } if frames >= SCREENSHOT_FRAMES => return capture(path),
            Mode::Bench { frames: wanted } => {
                if frames == BENCH_WARMUP {
                    bench_start = Some(mq::get_time());
                }
                let measured = frames.saturating_sub(BENCH_WARMUP);
                if let Some(start) = bench_start.filter(|_| measured >= *wanted) {
                    return Ok(Outcome::Bench {
                        frames: measured,
                        seconds: mq::get_time() - start,
                        work_seconds,
                    });
                }
            }
            _ => {}
        }
        mq::next_frame().await;
    }
}
