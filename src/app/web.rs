//! The web page front end: the same application, compiled to `wasm32-unknown-unknown` by
//! `scripts/web.sh` and run by `web/index.html` (miniquad's `gl.js` loader plus the small
//! plugin `web/juggler.js`).
//!
//! * Share links: the page's query (`index.html?pattern=531&bps=4`) is read once at start by
//!   [`LinkQuery::parse`]; `pattern` is read like a command-line argument
//!   (`files::argument::read`: siteswap, Juggling Lab settings string, library name), the other
//!   keys are the command line's options (`prop`, `bps`, `dwell`, `gravity`, `azimuth`,
//!   `elevation`, `distance`) and apply to every pattern loaded afterwards.
//! * Whenever a pattern is applied (Enter, a playlist or library entry) the address bar is
//!   replaced in place by [`LinkQuery::to_query`] of what plays, and the title says what plays.
//! * A pattern file of the user's (TOML, JML, .txt) comes in through the page (file picker or
//!   drop) as text and becomes the playlist (PageDown/PageUp).
//!
//! The query parsing and formatting here is plain Rust (tested natively); only [`page`]
//! talks to JavaScript.

use crate::files::argument::{self, Argument};
use crate::render::ViewOverrides;
use crate::settings::{keys, Dwell};
use crate::spec::PatternSpec;
use crate::types::PropKind;

use super::scene_animation::{load_error, SceneAnimation};
use super::{Animation, LoadError};

/// The pattern a page without `?pattern=` shows.
pub const DEFAULT_PATTERN: &str = "3";

/// What a share link asks for. Numbers are checked against the same ranges as the command
/// line; a bad value is left out and described in `problems`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LinkQuery {
    /// Pattern text, as typed (siteswap, settings string or library name).
    pub pattern: Option<String>,
    pub prop: Option<PropKind>,
    pub bps: Option<f64>,
    pub dwell: Option<f64>,
    pub gravity: Option<f64>,
    /// Camera angles in degrees, distance in metres.
    pub azimuth: Option<f32>,
    pub elevation: Option<f32>,
    pub distance: Option<f32>,
    /// Open paused at this pattern time, seconds (a moment to look at).
    pub at: Option<f64>,
    /// One message per key whose value was refused (unknown keys are ignored, like any
    /// page's tracking parameters).
    pub problems: Vec<String>,
}

impl LinkQuery {
    /// Reads a query string, with or without its leading `?`. Later keys win over earlier
    /// ones; `+` is a space and `%XX` a byte (invalid UTF-8 is replaced, a lone `%` kept).
    pub fn parse(query: &str) -> LinkQuery {
        let mut q = LinkQuery::default();
        let query = query.strip_prefix('?').unwrap_or(query);
        for pair in query.split('&').filter(|p| !p.is_empty()) {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            let key = percent_decode(key);
            let value = percent_decode(value);
            if let Err(problem) = q.set(key.trim(), &value) {
                q.problems.push(problem);
            }
        }
        q
    }

    fn set(&mut self, key: &str, value: &str) -> Result<(), String> {
        // The settings table's numbers, named as the link names them.
        let number = |number: keys::Number| -> Result<f64, String> {
            number
                .parse(key, value)
                .map_err(|e| format!("{key}={value} in the link: {e}"))
        };
        match key {
            "pattern" => self.pattern = Some(value.to_string()),
            "prop" => {
                self.prop = Some(
                    value
                        .parse()
                        .map_err(|e| format!("prop={value} in the link: {e}"))?,
                )
            }
            "bps" => self.bps = Some(number(keys::BPS)?),
            "dwell" => self.dwell = Some(number(keys::DWELL)?),
            "gravity" => self.gravity = Some(number(keys::GRAVITY)?),
            "azimuth" => self.azimuth = Some(number(keys::AZIMUTH)? as f32),
            // The view stops 1° short of straight up and down (`render::framing`).
            "elevation" => self.elevation = Some(number(keys::ELEVATION)? as f32),
            "distance" => self.distance = Some(number(keys::CAMERA_DISTANCE)? as f32),
            "at" => self.at = Some(number(keys::TIME)?),
            _ => {}
        }
        Ok(())
    }

    /// The query string for this link (`?pattern=...&...`, keys in a fixed order), or `""`
    /// when it asks for nothing. `parse(to_query(q))` gives `q` back.
    pub fn to_query(&self) -> String {
        let mut pairs: Vec<(&str, String)> = Vec::new();
        if let Some(p) = &self.pattern {
            pairs.push(("pattern", p.clone()));
        }
        if let Some(p) = self.prop {
            pairs.push(("prop", p.name().to_string()));
        }
        let numbers = [
            ("bps", self.bps),
            ("dwell", self.dwell),
            ("gravity", self.gravity),
            ("azimuth", self.azimuth.map(f64::from)),
            ("elevation", self.elevation.map(f64::from)),
            ("distance", self.distance.map(f64::from)),
            ("at", self.at),
        ];
        for (key, value) in numbers {
            if let Some(v) = value {
                pairs.push((key, format!("{v}")));
            }
        }
        if pairs.is_empty() {
            return String::new();
        }
        let body: Vec<String> = pairs
            .iter()
            .map(|(k, v)| format!("{k}={}", percent_encode(v)))
            .collect();
        format!("?{}", body.join("&"))
    }

    /// The same link showing `pattern` instead (playing from its start).
    pub fn with_pattern(&self, pattern: &str) -> LinkQuery {
        LinkQuery {
            pattern: Some(pattern.to_string()),
            at: None,
            problems: Vec::new(),
            ..self.clone()
        }
    }

    /// Applies the link's pattern settings to `spec` (they win over the pattern's own).
    pub fn apply(&self, spec: &mut PatternSpec) {
        let s = &mut spec.settings;
        if let Some(prop) = self.prop {
            s.prop = prop;
        }
        if let Some(bps) = self.bps {
            s.bps = Some(bps);
        }
        if let Some(dwell) = self.dwell {
            s.dwell = Dwell::Uniform(dwell);
        }
        if let Some(gravity) = self.gravity {
            s.gravity = gravity;
        }
    }

    /// The link's camera (degrees turned to radians), over the pattern's own camera settings.
    pub fn view(&self, spec: &PatternSpec) -> ViewOverrides {
        ViewOverrides {
            azimuth: self.azimuth.map(f32::to_radians),
            elevation: self.elevation.map(f32::to_radians),
            distance: self.distance,
        }
        .over_pattern(spec)
    }
}

/// Decodes `%XX` escapes and `+` (a space in form encoding). A `%` not followed by two hex
/// digits stays as it is; invalid UTF-8 becomes U+FFFD.
pub fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => match (
                bytes.get(i + 1).and_then(|&b| hex(b)),
                bytes.get(i + 2).and_then(|&b| hex(b)),
            ) {
                (Some(h), Some(l)) => {
                    out.push((h * 16 + l) as u8);
                    i += 3;
                    continue;
                }
                _ => out.push(b'%'),
            },
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Escapes everything but letters, digits and `-_.~()*,!:/@` (which stay readable in a
/// link: `(4,2x)*` is written as it is), so the value survives any query parser.
pub fn percent_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~()*,!:/@".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Loads pattern text as the page does (the command line's reading rule, then the link's
/// settings and camera): the loader of typed patterns and of the link's pattern.
pub fn load_pattern(text: &str, link: &LinkQuery) -> Result<Box<dyn Animation>, LoadError> {
    match argument::read(text) {
        Ok(Argument::Pattern { mut spec, .. }) => animate(text, &mut spec, link),
        Ok(Argument::File(path)) => Err(LoadError::new(
            format!(
                "{}: a web page cannot read files by name; open the file with the \
                 \"Open file\" button or drop it on the page",
                crate::text::escape_control(&crate::text::truncate(&path, 200))
            ),
            None,
        )),
        Err(e) => Err(LoadError::new(e.to_string(), None)),
    }
}

/// The animation of `spec` (from `text`) with the link's settings applied.
pub fn animate(
    text: &str,
    spec: &mut PatternSpec,
    link: &LinkQuery,
) -> Result<Box<dyn Animation>, LoadError> {
    link.apply(spec);
    match SceneAnimation::new(spec, link.view(spec)) {
        Ok(animation) => Ok(Box::new(animation)),
        Err(err) => Err(load_error(text, spec.source.text(), &err)),
    }
}

/// The patterns of a user's file (`name` gives its kind by extension), every siteswap
/// checked; else a one-line message.
pub fn file_patterns(name: &str, text: &str) -> Result<Vec<PatternSpec>, String> {
    use crate::files::{self, FileKind};
    let shown = crate::text::escape_control(&crate::text::truncate(name, 200)).into_owned();
    let kind = FileKind::of_path(std::path::Path::new(name)).ok_or_else(|| {
        format!("{shown}: not a pattern file (open a .toml, .jml, .xml or .txt file)")
    })?;
    if text.len() as u64 > files::MAX_FILE_BYTES {
        return Err(format!(
            "{shown}: larger than {} MiB",
            files::MAX_FILE_BYTES >> 20
        ));
    }
    files::load_str(text, kind, name).map_err(|e| {
        crate::text::escape_control(&e.to_string())
            .lines()
            .next()
            .unwrap_or("")
            .to_string()
    })
}

/// What the page opens with.
pub struct Startup {
    /// The pattern text playing (and shown in the field unless `error` says otherwise).
    pub text: String,
    pub animation: Box<dyn Animation>,
    /// Shown as a failed load once the app runs: the link's pattern text and why it could not
    /// be played, or why a link option was refused.
    pub error: Option<(String, LoadError)>,
}

/// The link's pattern, or the default pattern when the link has none or a bad one; either way
/// with the first problem of the link to show.
pub fn startup(link: &LinkQuery) -> Startup {
    let refused = link
        .problems
        .first()
        .map(|p| LoadError::new(p.clone(), None));
    let wanted = link
        .pattern
        .as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty());
    if let Some(text) = wanted {
        match load_pattern(text, link) {
            Ok(animation) => {
                return Startup {
                    text: text.to_string(),
                    animation,
                    error: refused.map(|e| (text.to_string(), e)),
                }
            }
            Err(e) => {
                return Startup {
                    text: DEFAULT_PATTERN.to_string(),
                    animation: default_animation(link),
                    error: Some((text.to_string(), e)),
                }
            }
        }
    }
    Startup {
        text: DEFAULT_PATTERN.to_string(),
        animation: default_animation(link),
        error: refused.map(|e| (DEFAULT_PATTERN.to_string(), e)),
    }
}

/// The default pattern with the link's settings (they are checked, so it loads; without
/// them as a last resort).
fn default_animation(link: &LinkQuery) -> Box<dyn Animation> {
    match load_pattern(DEFAULT_PATTERN, link) {
        Ok(animation) => animation,
        Err(_) => load_pattern(DEFAULT_PATTERN, &LinkQuery::default())
            .unwrap_or_else(|e| unreachable!("the default pattern loads: {}", e.message)),
    }
}

#[cfg(target_arch = "wasm32")]
pub use page::main;
#[cfg(target_arch = "wasm32")]
pub(super) use page::{applied, frame};

/// The JavaScript side (web/juggler.js) and the page's start.
#[cfg(target_arch = "wasm32")]
mod page {
    use std::cell::RefCell;

    use super::super::title::window_title;
    use super::super::{
        main_loop, Entry, Facts, Loader, Mode, Playlist, Session, SpecLoader, WindowOptions,
    };
    use super::*;

    #[link(wasm_import_module = "env")]
    extern "C" {
        /// Bytes of the next message from the page, or -1 when there is none.
        fn juggler_message_len() -> i32;
        /// Copies the next message (exactly `len` bytes) to `ptr` and drops it.
        fn juggler_message_take(ptr: *mut u8, len: u32);
        /// Replaces the address's query (`history.replaceState`, no reload).
        fn juggler_set_address(ptr: *const u8, len: u32);
        fn juggler_set_title(ptr: *const u8, len: u32);
        /// What the app shows, as JSON (`window.jugglerState`, read by the browser tests).
        fn juggler_set_state(ptr: *const u8, len: u32);
        fn console_error(msg: *const std::ffi::c_char);
    }

    /// miniquad checks a plugin's version against this export.
    #[no_mangle]
    pub extern "C" fn juggler_crate_version() -> u32 {
        1
    }

    thread_local! {
        static LINK: RefCell<LinkQuery> = RefCell::new(LinkQuery::default());
        /// Frames drawn so far.
        static FRAMES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
        /// Something to show once the app runs (a bad link), as a load failure of this text.
        static STARTUP_ERROR: RefCell<Option<(String, LoadError)>> = const { RefCell::new(None) };
    }

    /// The next message from the page: `kind`, newline, payload.
    fn next_message() -> Option<(String, String)> {
        // SAFETY: plain calls into the page's plugin; the buffer is exactly `len` bytes.
        let len = unsafe { juggler_message_len() };
        let len = usize::try_from(len).ok()?;
        let mut buf = vec![0u8; len];
        unsafe { juggler_message_take(buf.as_mut_ptr(), len as u32) };
        let text = String::from_utf8_lossy(&buf).into_owned();
        let (kind, payload) = text.split_once('\n').unwrap_or((&text, ""));
        Some((kind.to_string(), payload.to_string()))
    }

    fn set_address(query: &str) {
        // SAFETY: the page copies the bytes out before returning.
        unsafe { juggler_set_address(query.as_ptr(), query.len() as u32) }
    }

    fn set_title(title: &str) {
        unsafe { juggler_set_title(title.as_ptr(), title.len() as u32) }
    }

    /// The page's entry point (`main` of the wasm binary).
    pub fn main() {
        std::panic::set_hook(Box::new(|info| {
            let text = std::ffi::CString::new(format!("juggler: {info}")).unwrap_or_default();
            // SAFETY: a NUL-terminated string that outlives the call.
            unsafe { console_error(text.as_ptr()) };
        }));
        let mut search = String::new();
        while let Some((kind, payload)) = next_message() {
            if kind == "query" {
                search = payload;
                break;
            }
        }
        let link = LinkQuery::parse(&search);
        let Startup {
            text,
            animation,
            error,
        } = startup(&link);
        STARTUP_ERROR.with(|s| *s.borrow_mut() = error);
        set_title(&window_title(&animation.facts()));
        let loader_link = link.clone();
        let spec_link = link.clone();
        LINK.with(|l| *l.borrow_mut() = link);
        let loader: Loader = Box::new(move |typed: &str| load_pattern(typed, &loader_link));
        let spec_loader: SpecLoader = Box::new(move |spec| {
            let mut spec = spec.clone();
            let text = spec.source.text().to_string();
            animate(&text, &mut spec, &spec_link)
        });
        let options = WindowOptions {
            title: "juggler".to_string(),
            text,
            animation,
            loader,
            spec_loader,
            script: Vec::new(),
            playlist: Vec::new(),
            mode: Mode::Interactive,
            size: super::super::DEFAULT_SIZE,
            msaa: 1,
        };
        let conf = macroquad::miniquad::conf::Conf {
            window_title: "juggler".to_string(),
            high_dpi: false,
            ..Default::default()
        };
        macroquad::Window::from_config(conf, async move {
            let _ = main_loop(options).await;
        });
    }

    /// Called once per frame: shows a bad link's error, takes files the user opened, and
    /// tells the page what plays.
    pub(in crate::app) fn frame(session: &mut Session) {
        let frames = FRAMES.with(|f| {
            f.set(f.get() + 1);
            f.get()
        });
        if frames == 1 {
            if let Some(at) = LINK.with(|l| l.borrow().at) {
                session.app.playback.set_time(at);
                session.app.playback.set_paused(true);
            }
        }
        if let Some((text, err)) = STARTUP_ERROR.with(|s| s.borrow_mut().take()) {
            session.app.field.reset(&text);
            session.app.load_failed(&text, err.message, err.column);
        }
        publish(session, frames);
        while let Some((kind, payload)) = next_message() {
            match kind.as_str() {
                "file" => {
                    let (name, contents) = payload.split_once('\n').unwrap_or((&payload, ""));
                    open_file(session, name, contents);
                }
                "error" => {
                    let text = session.app.field.text().to_string();
                    session.app.load_failed(&text, payload, None);
                }
                _ => {}
            }
        }
    }

    /// Sets `window.jugglerState` for the page (and its tests): what plays and what shows.
    fn publish(session: &Session, frames: u64) {
        let facts = session.animation.facts();
        let app = &session.app;
        let state = serde_json::json!({
            "frames": frames,
            "field": app.field.text(),
            "editing": app.field.focused(),
            "playing": app.playing,
            "error": app.error.as_ref().map(|e| e.message.clone()),
            "time": app.playback.time(),
            "paused": app.playback.paused(),
            "name": facts.name,
            "jugglers": facts.jugglers,
            "props": facts.props,
            "period": facts.period,
            "bps": facts.beats_per_second,
            "entry": app.entry,
            "playlist": session.playlist.len(),
        })
        .to_string();
        // SAFETY: the page copies the bytes out before returning.
        unsafe { juggler_set_state(state.as_ptr(), state.len() as u32) }
    }

    /// Makes the patterns of a user's file the playlist and plays the first.
    fn open_file(session: &mut Session, name: &str, contents: &str) {
        let specs = match file_patterns(name, contents) {
            Ok(specs) => specs,
            Err(message) => {
                let text = session.app.field.text().to_string();
                session.app.load_failed(&text, message, None);
                return;
            }
        };
        let link = LINK.with(|l| l.borrow().clone());
        let entries = specs
            .into_iter()
            .map(|spec| {
                let link = link.clone();
                Entry {
                    text: spec.source.text().to_string(),
                    load: Box::new(move || {
                        let mut spec = spec.clone();
                        let text = spec.source.text().to_string();
                        animate(&text, &mut spec, &link)
                    }),
                }
            })
            .collect();
        session.playlist = Playlist::Entries(entries);
        session.app.playlist_len = session.playlist.len();
        session.load_entry(0);
    }

    /// A pattern now plays: the address and title say so.
    pub(in crate::app) fn applied(text: &str, facts: &Facts) {
        let query = LINK.with(|l| l.borrow().with_pattern(text).to_query());
        set_address(&query);
        set_title(&window_title(facts));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_query_with_every_key_is_read_with_numbers_and_the_prop() {
        let q = LinkQuery::parse(
            "?pattern=531&prop=club&bps=4.5&dwell=0.8&gravity=3.7&azimuth=-30&elevation=15&distance=7&at=1.25",
        );
        assert_eq!(q.pattern.as_deref(), Some("531"));
        assert_eq!(q.prop, Some(PropKind::Club));
        assert_eq!(q.bps, Some(4.5));
        assert_eq!(q.dwell, Some(0.8));
        assert_eq!(q.gravity, Some(3.7));
        assert_eq!(q.azimuth, Some(-30.0));
        assert_eq!(q.elevation, Some(15.0));
        assert_eq!(q.distance, Some(7.0));
        assert_eq!(q.at, Some(1.25));
        assert!(q.problems.is_empty(), "{:?}", q.problems);
    }

    #[test]
    fn escapes_and_plus_decode_to_the_typed_pattern() {
        // A passing pattern, a settings string and a library name, as browsers encode them.
        assert_eq!(
            LinkQuery::parse("pattern=%3C 3p%7C3p %3E")
                .pattern
                .as_deref(),
            Some("< 3p|3p >")
        );
        assert_eq!(
            LinkQuery::parse("pattern=pattern%3D531%3Bbps%3D4%3Bprop%3Dring")
                .pattern
                .as_deref(),
            Some("pattern=531;bps=4;prop=ring")
        );
        assert_eq!(
            LinkQuery::parse("?pattern=Mills+Mess").pattern.as_deref(),
            Some("Mills Mess")
        );
        assert_eq!(
            LinkQuery::parse("?pattern=Rubenstein%E2%80%99s%20Revenge")
                .pattern
                .as_deref(),
            Some("Rubenstein\u{2019}s Revenge")
        );
        // A bare `%` or a bad escape stays; invalid UTF-8 is replaced, never a panic.
        assert_eq!(percent_decode("50%"), "50%");
        assert_eq!(percent_decode("%zz%4"), "%zz%4");
        assert_eq!(percent_decode("%FF"), "\u{FFFD}");
        assert_eq!(percent_decode("a%2Bb+c"), "a+b c");
    }

    #[test]
    fn bad_values_are_reported_and_left_out_unknown_keys_ignored() {
        let q =
            LinkQuery::parse("pattern=3&bps=fast&dwell=2.5&prop=knife&elevation=91&utm_source=x");
        assert_eq!(q.pattern.as_deref(), Some("3"));
        assert_eq!(
            (q.bps, q.dwell, q.prop, q.elevation),
            (None, None, None, None)
        );
        assert_eq!(q.problems.len(), 4, "{:?}", q.problems);
        assert_eq!(
            q.problems[0],
            "bps=fast in the link: bps must be between 0.1 and 200 beats per second, not fast"
        );
        assert!(q.problems[1].starts_with("dwell=2.5 in the link"));
        assert!(q.problems[2].contains("knife"));
        assert!(q.problems[3].contains("-90 and 90"), "{}", q.problems[3]);
        // Hostile numbers: not finite, overflowing, empty.
        for bad in [
            "at=nan",
            "at=inf",
            "bps=1e400",
            "azimuth=",
            "distance=-1",
            "gravity=NaN",
        ] {
            let q = LinkQuery::parse(bad);
            assert_eq!(q.problems.len(), 1, "{bad}: {:?}", q.problems);
            assert_eq!(
                LinkQuery {
                    problems: vec![],
                    ..q
                },
                LinkQuery::default(),
                "{bad}"
            );
        }
        assert_eq!(LinkQuery::parse("bps=0.05").problems.len(), 1);
        assert_eq!(LinkQuery::parse("bps=260").problems.len(), 1);
        assert_eq!(LinkQuery::parse("").pattern, None);
        assert_eq!(LinkQuery::parse("?&&pattern").pattern.as_deref(), Some(""));
        // The last of a repeated key wins.
        assert_eq!(
            LinkQuery::parse("pattern=3&pattern=531").pattern.as_deref(),
            Some("531")
        );
    }

    #[test]
    fn the_address_round_trips_and_keeps_notation_readable() {
        let q = LinkQuery::parse("?bps=4&prop=ring").with_pattern("(4,2x)*");
        assert_eq!(q.to_query(), "?pattern=(4,2x)*&prop=ring&bps=4");
        // A new pattern plays from its start: the moment of the old link is dropped.
        let paused = LinkQuery::parse("pattern=531&at=0.5&bps=4").with_pattern("3");
        assert_eq!(paused.to_query(), "?pattern=3&bps=4");
        let tricky = LinkQuery::default().with_pattern("<3p|3p> & #1 = 50%+[33]");
        let text = tricky.to_query();
        assert_eq!(
            text,
            "?pattern=%3C3p%7C3p%3E%20%26%20%231%20%3D%2050%25%2B%5B33%5D"
        );
        assert_eq!(LinkQuery::parse(&text), tricky);
        assert_eq!(LinkQuery::default().to_query(), "");
        let all = LinkQuery::parse("pattern=3&azimuth=12.5&elevation=-20&distance=4&gravity=9");
        assert_eq!(LinkQuery::parse(&all.to_query()), all);
    }

    #[test]
    fn link_settings_apply_over_the_patterns_own() {
        let link = LinkQuery::parse("bps=3&prop=club&azimuth=90");
        let mut spec = match argument::read("pattern=531;bps=5;prop=ring").unwrap() {
            Argument::Pattern { spec, .. } => *spec,
            other => panic!("{other:?}"),
        };
        link.apply(&mut spec);
        assert_eq!(spec.settings.bps, Some(3.0));
        assert_eq!(spec.settings.prop, PropKind::Club);
        let view = link.view(&spec);
        assert!((view.azimuth.unwrap() - std::f32::consts::FRAC_PI_2).abs() < 1e-6);
        assert_eq!(view.elevation, None);
    }

    #[test]
    fn the_page_loader_reads_siteswaps_settings_and_names_and_refuses_paths() {
        let link = LinkQuery::default();
        let two = load_pattern("<3p|3p>", &link)
            .map_err(|e| e.message)
            .unwrap();
        assert_eq!(two.facts().jugglers, 2);
        assert_eq!(two.facts().props, 6);
        let settings = load_pattern("pattern=531;bps=4", &link)
            .map_err(|e| e.message)
            .unwrap();
        assert_eq!(settings.facts().beats_per_second, 4.0);
        assert_eq!(settings.facts().props, 3);
        let bad = load_pattern("532", &link).err().unwrap();
        assert!(bad.message.contains("average"), "{}", bad.message);
        let file = load_pattern("mine.toml", &link).err().unwrap();
        assert!(
            file.message.contains("cannot read files by name"),
            "{}",
            file.message
        );
        let unknown = load_pattern("Rubenstein's Revange", &link).err().unwrap();
        assert!(
            unknown.message.starts_with("no pattern named"),
            "{}",
            unknown.message
        );
        let with_bps = load_pattern("3", &LinkQuery::parse("bps=2")).unwrap();
        assert_eq!(with_bps.facts().beats_per_second, 2.0);
    }

    #[test]
    fn a_users_file_is_read_by_its_extension() {
        let specs = file_patterns("mine.txt", "# my list\n531\n(4,2x)*\n").unwrap();
        let notations: Vec<&str> = specs.iter().map(|s| s.source.text()).collect();
        assert_eq!(notations, ["531", "(4,2x)*"]);
        let bad = file_patterns("mine.txt", "531\n532\n").unwrap_err();
        assert!(bad.contains("532"), "{bad}");
        let kind = file_patterns("photo.png", "\u{89}PNG").unwrap_err();
        assert!(kind.contains("not a pattern file"), "{kind}");
        assert!(file_patterns("empty.txt", "# nothing\n").is_err());
    }

    #[test]
    fn the_page_starts_with_the_links_pattern_or_the_default_and_the_reason() {
        let ok = startup(&LinkQuery::parse("pattern=531&prop=ring"));
        assert_eq!(ok.text, "531");
        assert!(ok.error.is_none());
        assert_eq!(ok.animation.facts().props, 3);

        let bad = startup(&LinkQuery::parse("pattern=532&bps=2"));
        assert_eq!(bad.text, DEFAULT_PATTERN);
        let (text, err) = bad.error.unwrap();
        assert_eq!(text, "532");
        assert!(err.message.contains("average"), "{}", err.message);
        assert_eq!(bad.animation.facts().beats_per_second, 2.0);

        // A refused option is reported while the pattern plays; an empty pattern is none.
        let option = startup(&LinkQuery::parse("pattern=441&bps=fast"));
        assert_eq!(option.text, "441");
        let (text, err) = option.error.unwrap();
        assert_eq!(text, "441");
        assert!(
            err.message.starts_with("bps=fast in the link"),
            "{}",
            err.message
        );
        let empty = startup(&LinkQuery::parse("?pattern=%20"));
        assert_eq!(empty.text, DEFAULT_PATTERN);
        assert!(empty.error.is_none());
        assert_eq!(empty.animation.facts().props, 3);
    }
}
