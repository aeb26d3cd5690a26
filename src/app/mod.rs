//! The interactive application (macroquad window): type a siteswap and watch it juggled.
//!
//! Submodules: `state` (playback, orbit, text field: plain data), `input` (events -> actions),
//! `geometry` (where the controls sit), `ui` (the controls), `animation` /
//! `scene_animation` (what plays), `screenshot` (PNG), `display` (is there a display at all).
//! The juggling itself is drawn by the render back-end `render::gl` (a `Frame` onto the
//! window). `app/` and `render/gl/` are the only places in the crate that import macroquad.
//!
//! [`run`] opens the window and returns when it is closed, after a screenshot, or after a
//! frame-rate measurement. It never panics for lack of a display: check [`display::detect_from_env`]
//! first, and backend failures come back as [`WindowError::Backend`].

pub mod animation;
pub mod display;
pub mod geometry;
pub mod input;
pub mod scene_animation;
pub mod screenshot;
pub mod state;
pub mod ui;
pub mod web;

use std::cell::RefCell;
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::Mutex;

use glam::Vec2;
use macroquad::prelude as mq;
use thiserror::Error;

use crate::render::gl::draw;
pub use animation::{Animation, Entry, Facts, LoadError, Loader};
use display::DisplayKind;
use geometry::Geometry;
use input::{Collector, InputEvent, Translator};
pub use screenshot::ScreenshotError;
pub use state::Orbit;
use state::{AppState, Effect};

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

/// Everything [`run`] needs.
pub struct WindowOptions {
    pub title: String,
    /// The pattern text shown in the field for the first pattern.
    pub text: String,
    pub animation: Box<dyn Animation>,
    /// Loads patterns typed in the field.
    pub loader: Loader,
    /// Patterns PageDown/PageUp browse (the file's patterns; `animation` is entry 0). Empty or
    /// one entry: no browsing.
    pub playlist: Vec<Entry>,
    pub mode: Mode,
    /// Window size in pixels.
    pub size: (i32, i32),
    /// Multisample anti-aliasing samples per pixel (1 = off).
    pub msaa: u8,
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
    let result: Rc<RefCell<Option<Result<Outcome, WindowError>>>> = Rc::new(RefCell::new(None));
    let slot = Rc::clone(&result);

    static PANIC_MESSAGE: Mutex<Option<String>> = Mutex::new(None);
    let previous_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|info| {
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
        window_title: options.title.clone(),
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

/// The pattern playing and everything the user has done to it.
struct Session {
    app: AppState,
    animation: Box<dyn Animation>,
    loader: Loader,
    playlist: Vec<Entry>,
    translator: Translator,
}

impl Session {
    /// Applies one input event; returns `true` when the user asked to quit.
    fn handle(&mut self, event: InputEvent, g: &Geometry) -> bool {
        for action in self
            .translator
            .translate(event, g, self.app.field.focused())
        {
            match self.app.apply(action) {
                Some(Effect::Quit) => return true,
                Some(Effect::Load(pattern)) => self.load(&pattern),
                Some(Effect::LoadEntry(i)) => self.load_entry(i),
                None => {}
            }
        }
        false
    }

    /// Loads `pattern`: plays it from its start, or shows why it cannot be played.
    fn load(&mut self, pattern: &str) {
        match (self.loader)(pattern) {
            Ok(loaded) => {
                self.app
                    .loaded(pattern, loaded.loop_duration(), loaded.home_orbit());
                #[cfg(target_arch = "wasm32")]
                web::applied(pattern, &loaded.facts().name);
                self.animation = loaded;
            }
            Err(err) => self.app.load_failed(pattern, err.message, err.column),
        }
    }

    /// Loads entry `i` of the playlist.
    fn load_entry(&mut self, i: usize) {
        let Some(entry) = self.playlist.get(i) else {
            return;
        };
        match (entry.load)() {
            Ok(loaded) => {
                let home = loaded.home_orbit();
                self.app
                    .loaded_entry(i, &entry.text, loaded.loop_duration(), home);
                #[cfg(target_arch = "wasm32")]
                web::applied(&entry.text, &loaded.facts().name);
                self.animation = loaded;
            }
            Err(err) => self.app.load_failed(&entry.text, err.message, err.column),
        }
    }

    /// Draws the frame at pattern time `t` and the controls.
    fn draw(&self, g: &Geometry, text: &ui::Text, material: Option<&mq::Material>, t: f64) {
        let (vw, vh) = g.viewport_pixels();
        let frame = self.animation.frame(t, &self.app.orbit, vw, vh);
        draw::draw_frame(&frame, Vec2::new(g.viewport.x, g.viewport.y), material);
        let facts = self.animation.facts();
        let playlist = match (self.playlist.len(), self.app.entry) {
            (n, Some(i)) if n > 1 => Some((i, n)),
            _ => None,
        };
        let info = ui::UiInfo {
            facts: &facts,
            time: t,
            playlist,
        };
        ui::draw(g, text, &self.app, &info);
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
        playlist,
        mode,
        ..
    } = options;
    let text = ui::Text::new(mq::load_ttf_font_from_bytes(FONT).ok());
    let material = draw::shape_material();
    let mut app = AppState::new(&initial, animation.loop_duration(), animation.home_orbit());
    app.playlist_len = playlist.len();
    app.entry = (playlist.len() > 1).then_some(0);
    let mut session = Session {
        app,
        animation,
        loader,
        playlist,
        translator: Translator::default(),
    };
    let mut collector = Collector::default();
    let subscriber = macroquad::input::utils::register_input_subscriber();

    // Screenshot mode shows exactly time `at`, paused, and takes no input.
    let fixed_time = match &mode {
        Mode::Screenshot { at, .. } => {
            session.app.playback.set_time(*at);
            session.app.playback.set_paused(true);
            Some(*at)
        }
        _ => None,
    };

    let mut frames: u32 = 0;
    // Clock: macroquad's seconds since start (std's Instant does not exist in the web build).
    let mut bench_start: Option<f64> = None;
    let mut work_seconds = 0.0;
    loop {
        let g = Geometry::new(mq::screen_width(), mq::screen_height(), text.char_width);
        session.app.field_columns = g.field_columns();
        macroquad::input::utils::repeat_all_miniquad_input(&mut collector, subscriber);
        for file in mq::get_dropped_files() {
            if let Some(path) = file.path {
                collector
                    .events
                    .push(InputEvent::Dropped(path.display().to_string()));
            }
        }
        #[cfg(target_arch = "wasm32")]
        web::frame(&mut session);
        for event in collector.events.drain(..) {
            if mode == Mode::Interactive && session.handle(event, &g) {
                return Ok(Outcome::Closed);
            }
        }
        if fixed_time.is_none() {
            let dt = f64::from(mq::get_frame_time()).min(MAX_FRAME_DT);
            session.app.playback.advance(dt);
        }

        let work = mq::get_time();
        let t = fixed_time.unwrap_or(session.app.playback.time());
        session.draw(&g, &text, material.as_ref(), t);
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
