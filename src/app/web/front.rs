//! The page's side of the app: what the web page adds around the app's session. It applies
//! the page's named actions ([`PageAction`]), keeps the link's options (shared with the
//! session's loaders), runs the export and tools jobs a piece per frame, keeps the address
//! equal to what is on screen, and publishes the state the page's controls show.
//!
//! It talks to the page only through [`PageOut`], so everything here runs natively in tests.

use std::cell::RefCell;
use std::rc::Rc;

use serde_json::json;

use super::super::geometry::Geometry;
use super::super::library_list::LibraryList;
use super::super::state::Action;
use super::super::title::window_title;
use super::super::{Animation, Entry, LoadError, Loader, Playlist, Session, SpecLoader};
use super::actions::{ExportSettings, PageAction, ToolsRequest};
use super::export_job::{file_stem, ExportJob, Step};
use super::link::{settings_keys, with_setting, LinkQuery};
use super::tools_job::{self, ToolsJob};
use super::{animate, field_text, file_patterns, load_pattern, Playing};
use crate::export::Format;
use crate::spec::PatternSpec;
use crate::types::PropKind;

/// What the front end sends to the page.
pub trait PageOut {
    /// A JSON document of `kind`: `state` every frame; `library`, `tools` and `video` when
    /// they have news.
    fn publish(&mut self, kind: &str, json: &str);
    /// A file for the user to save.
    fn download(&mut self, name: &str, mime: &str, bytes: &[u8]);
    /// Frame `index` (RGBA) for the browser's video encoder.
    fn video_frame(&mut self, index: usize, timestamp_us: f64, size: (u32, u32), rgba: &[u8]);
    /// Frames the browser's video encoder has not finished.
    fn video_backlog(&self) -> usize;
    /// Replaces the address's query and fragment (no reload).
    fn set_address(&mut self, address: &str);
    fn set_title(&mut self, title: &str);
}

/// Frames the browser's video encoder may hold before the export waits for it.
const VIDEO_BACKLOG: usize = 4;
/// Seconds between two address changes at most while the view moves (browsers limit how
/// often a page may replace its address).
const ADDRESS_SECONDS: f64 = 0.35;

/// How the last export went, for the page's progress.
#[derive(Clone, Debug, PartialEq)]
enum Status {
    Idle,
    Running,
    Done,
    Failed(String),
}

impl Status {
    fn name(&self) -> &'static str {
        match self {
            Status::Idle => "idle",
            Status::Running => "running",
            Status::Done => "done",
            Status::Failed(_) => "failed",
        }
    }

    fn message(&self) -> Option<&str> {
        match self {
            Status::Failed(m) => Some(m),
            _ => None,
        }
    }
}

/// The page's state around the session.
pub struct Front {
    /// The link's options, applied to every pattern loaded (shared with the loaders).
    link: Rc<RefCell<LinkQuery>>,
    /// What plays, as the link says it.
    playing: Playing,
    /// The patterns of the user's file being browsed.
    file_specs: Vec<PatternSpec>,
    /// `AppState::loads` when last seen: another pattern plays when it changes.
    loads_seen: u64,
    /// Shown once the app runs: a bad link's text and problem.
    startup_error: Option<(String, LoadError)>,
    frames: u64,
    export: Option<ExportJob>,
    export_status: Status,
    export_file: String,
    tools: Option<ToolsJob>,
    tools_status: Status,
    /// Results of the last search already sent to the page.
    tools_sent: usize,
    library: Option<LibraryList>,
    /// The address set last, and when.
    address: String,
    address_at: f64,
}

impl Front {
    /// The front end of a page opened with `link`, playing `playing`, with `error` (the
    /// link's problem) to show.
    pub fn new(link: LinkQuery, playing: Playing, error: Option<(String, LoadError)>) -> Front {
        Front {
            link: Rc::new(RefCell::new(link)),
            playing,
            file_specs: Vec::new(),
            loads_seen: 0,
            startup_error: error,
            frames: 0,
            export: None,
            export_status: Status::Idle,
            export_file: String::new(),
            tools: None,
            tools_status: Status::Idle,
            tools_sent: 0,
            library: None,
            address: String::new(),
            address_at: f64::NEG_INFINITY,
        }
    }

    /// The session's loaders: typed text and library patterns, with the link's options as
    /// they are when the pattern loads.
    pub fn loaders(&self) -> (Loader, SpecLoader) {
        let typed = Rc::clone(&self.link);
        let library = Rc::clone(&self.link);
        (
            Box::new(move |text: &str| load_pattern(text, &typed.borrow())),
            Box::new(move |spec: &PatternSpec| {
                let mut spec = spec.clone();
                let text = spec.source.text().to_string();
                animate(&text, &mut spec, &library.borrow())
            }),
        )
    }

    /// Once per frame, before the input: the start's settings, what loaded, a slice of the
    /// jobs (until `now()` passes `deadline`), the state for the page and the address.
    pub(in crate::app) fn frame(
        &mut self,
        session: &mut Session,
        now: &dyn Fn() -> f64,
        deadline: f64,
        out: &mut dyn PageOut,
    ) {
        self.frames += 1;
        if self.frames == 1 {
            self.start(session);
        }
        let loaded = self.notice_load(session, out);
        self.work(session, now, deadline, out);
        let address = self.current_link(session).to_address();
        let t = now();
        if address != self.address && (loaded || t - self.address_at >= ADDRESS_SECONDS) {
            out.set_address(&address);
            self.address = address.clone();
            self.address_at = t;
        }
        out.publish("state", &self.state(session, &address));
    }

    /// The link's moment, speed and zoom, and its problem, on the first frame.
    fn start(&mut self, session: &mut Session) {
        let link = self.link.borrow().clone();
        let app = &mut session.app;
        if let Some(at) = link.at {
            app.playback.set_time(at);
            app.playback.set_paused(true);
        }
        if let Some(speed) = link.speed {
            app.playback.set_speed(speed);
        }
        if let Some(zoom) = link.zoom {
            app.orbit.zoom = zoom;
        }
        // The link's view, labels, trail and loop of beats; its angles turn the view.
        let learn = &link.learn;
        app.learn.labels = learn.labels;
        app.learn.trail = learn.trail.filter(|p| *p < session.animation.facts().props);
        app.apply(Action::LoopBeats(learn.beats));
        if let Some(view) = learn.view {
            app.learn.choose_view(view, app.rhythm.jugglers);
            let home = session.animation.set_view(app.learn.view);
            app.viewed(home);
            let turned = super::super::Orbit::new(
                link.azimuth.unwrap_or(home.azimuth_deg),
                link.elevation.unwrap_or(home.elevation_deg),
            );
            app.orbit = super::super::Orbit {
                zoom: app.orbit.zoom,
                ..turned
            };
        }
        if let Some((text, err)) = self.startup_error.take() {
            app.field.reset(&text);
            app.load_failed(&text, err.message, err.column);
        }
        self.loads_seen = app.loads;
    }

    /// Whether another pattern plays since the last frame; if so the link and title say it.
    fn notice_load(&mut self, session: &Session, out: &mut dyn PageOut) -> bool {
        if session.app.loads == self.loads_seen {
            return false;
        }
        self.loads_seen = session.app.loads;
        self.playing = match (&session.playlist, session.app.entry) {
            (Playlist::Entries(_), Some(i)) if i < self.file_specs.len() => {
                Playing::File(Box::new(self.file_specs[i].clone()))
            }
            _ => Playing::Text(session.app.playing.clone()),
        };
        let mut link = self.link.borrow_mut();
        *link = match &self.playing {
            Playing::Text(text) => link.with_pattern(text),
            Playing::File(spec) => link.with_file(spec),
        };
        out.set_title(&window_title(&session.animation.facts()));
        true
    }

    /// The link of what is on screen now: the pattern, its options, speed, view, and the
    /// moment when paused.
    pub(in crate::app) fn current_link(&self, session: &Session) -> LinkQuery {
        let mut link = self.link.borrow().clone();
        let app = &session.app;
        let round = |v: f64, places: i32| {
            let k = 10f64.powi(places);
            (v * k).round() / k
        };
        let speed = app.playback.speed();
        link.speed = (speed != 1.0).then_some(speed);
        let (orbit, home) = (app.orbit, app.home_orbit);
        if (orbit.azimuth_deg, orbit.elevation_deg) != (home.azimuth_deg, home.elevation_deg) {
            link.azimuth = Some(round(f64::from(orbit.azimuth_deg), 1) as f32);
            link.elevation = Some(round(f64::from(orbit.elevation_deg), 1) as f32);
        }
        link.zoom =
            ((orbit.zoom - 1.0).abs() > 1e-3).then(|| round(f64::from(orbit.zoom), 2) as f32);
        link.at = app.playback.paused().then(|| round(app.playback.time(), 3));
        link.learn = super::super::learn::LearnLink::of(&app.learn);
        link.problems.clear();
        link
    }

    /// Applies one action of the page.
    pub(in crate::app) fn act(
        &mut self,
        session: &mut Session,
        g: &Geometry,
        action: PageAction,
        out: &mut dyn PageOut,
    ) {
        let t = session.app.playback.time();
        match action {
            PageAction::App(action) => {
                // A page never quits: the tab is the browser's.
                let _ = session.act(action, g, t);
            }
            PageAction::Load(text) => {
                let text = text.trim();
                if text.is_empty() {
                    session.app.apply(Action::Revert);
                } else {
                    // The page's field is the HTML one: the app's holds what it shows.
                    session.app.field.reset(text);
                    session.load(text);
                }
            }
            PageAction::Check(text) => {
                if session.app.error.is_some() {
                    session.app.field.reset(&text);
                    let trimmed = text.trim();
                    if !trimmed.is_empty() {
                        session.revalidate(trimmed.to_string());
                    }
                }
            }
            PageAction::Prop(kind) => self.set_prop(session, kind),
            PageAction::Speed(speed) => session.app.playback.set_speed(speed),
            PageAction::Pause(paused) => session.app.playback.set_paused(paused),
            PageAction::LibrarySearch(text) => {
                let list = self
                    .library
                    .get_or_insert_with(|| LibraryList::new(crate::files::library::files()));
                list.set_search(&text);
                publish_library(list, out);
            }
            PageAction::LibraryPlay { file, index } => session.load_library(file, index),
            PageAction::Export(settings) => self.start_export(session, &settings, out),
            PageAction::CancelExport => {
                if self.export.take().is_some() {
                    self.export_status = Status::Failed("cancelled".into());
                }
            }
            PageAction::DownloadJml => match session.animation.scene() {
                Some(scene) => {
                    let text = crate::convert::jml::write(scene);
                    let name = format!("{}.jml", file_stem(&session.animation.facts().name));
                    out.download(&name, "application/xml", text.as_bytes());
                }
                None => {
                    let shown = session.app.field.text().to_owned();
                    let message = "this pattern cannot be written as JML".to_string();
                    session.app.load_failed(&shown, message, None);
                }
            },
            PageAction::Tools(request) => self.start_tools(session, &request, out),
            PageAction::CancelTools => {
                if let Some(job) = self.tools.as_mut() {
                    job.cancel();
                }
            }
            PageAction::PlayResult(i) => {
                let pattern = self
                    .tools
                    .as_ref()
                    .and_then(|job| job.results().get(i))
                    .map(|r| r.pattern.clone());
                if let Some(pattern) = pattern {
                    session.load(&pattern);
                }
            }
        }
    }

    /// Plays the pattern with props of `kind`, at the same moment. A settings string that
    /// names its prop gets the new one written in (the field shows it); otherwise the link's
    /// prop changes and the pattern loads again.
    fn set_prop(&mut self, session: &mut Session, kind: PropKind) {
        let (time, paused) = (session.app.playback.time(), session.app.playback.paused());
        session.checked = None;
        match (&self.playing, session.app.entry) {
            (Playing::Text(text), None) if settings_keys(text).iter().any(|k| k == "prop") => {
                let text = with_setting(text, "prop", kind.name());
                session.load(&text);
            }
            (_, entry) => {
                self.link.borrow_mut().prop = Some(kind);
                match entry {
                    Some(i) => session.load_entry(i),
                    None => {
                        let text = session.app.playing.clone();
                        session.load(&text);
                    }
                }
            }
        }
        session.app.playback.set_time(time);
        session.app.playback.set_paused(paused);
    }

    /// Makes the patterns of a user's file (`name`, `text`) the playlist and plays the first.
    pub(in crate::app) fn open_file(&mut self, session: &mut Session, name: &str, text: &str) {
        let specs = match file_patterns(name, text) {
            Ok(specs) => specs,
            Err(message) => {
                let shown = session.app.field.text().to_string();
                session.app.load_failed(&shown, message, None);
                return;
            }
        };
        let entries = specs
            .iter()
            .map(|spec| {
                let link = Rc::clone(&self.link);
                let spec = spec.clone();
                let text = field_text(&spec);
                Entry {
                    text: text.clone(),
                    load: Box::new(move || animate(&text, &mut spec.clone(), &link.borrow())),
                }
            })
            .collect();
        self.file_specs = specs;
        session.playlist = Playlist::Entries(entries);
        session.app.playlist_len = session.playlist.len();
        session.load_entry(0);
    }

    fn start_export(
        &mut self,
        session: &Session,
        settings: &ExportSettings,
        out: &mut dyn PageOut,
    ) {
        let animation: &dyn Animation = session.animation.as_ref();
        let Some(scene) = animation.scene() else {
            self.export_status = Status::Failed("this pattern cannot be exported".into());
            return;
        };
        let orbit = session.app.orbit;
        let camera = |w: u32, h: u32| {
            animation.camera(&orbit, w, h).unwrap_or_else(|| {
                crate::render::auto_camera(scene, w as f32 / h.max(1) as f32, None)
            })
        };
        match ExportJob::new(scene.clone(), camera, &animation.facts().name, settings) {
            Ok(job) => {
                if matches!(job.format(), Format::WebM | Format::Mp4) {
                    let (width, height) = job.size();
                    let start = json!({
                        "format": settings.format,
                        "width": width,
                        "height": height,
                        "fps": job.fps(),
                        "frames": job.frames(),
                        "name": job.file_name,
                    });
                    out.publish("video", &start.to_string());
                }
                self.export_file = job.file_name.clone();
                self.export = Some(job);
                self.export_status = Status::Running;
            }
            Err(message) => self.export_status = Status::Failed(message),
        }
    }

    fn start_tools(&mut self, session: &Session, request: &ToolsRequest, out: &mut dyn PageOut) {
        self.tools_sent = 0;
        match ToolsJob::new(request, &session.app.playing) {
            Ok(job) => {
                self.tools = Some(job);
                self.tools_status = Status::Running;
                out.publish("tools", &json!({"start": 0, "results": []}).to_string());
            }
            Err(message) => {
                self.tools = None;
                self.tools_status = Status::Failed(message);
            }
        }
    }

    /// Runs the jobs until `now()` passes `deadline`: the export first, then the search.
    fn work(
        &mut self,
        _session: &Session,
        now: &dyn Fn() -> f64,
        deadline: f64,
        out: &mut dyn PageOut,
    ) {
        while now() < deadline {
            if let Some(job) = self.export.as_mut() {
                let video = matches!(job.format(), Format::WebM | Format::Mp4);
                if video && out.video_backlog() >= VIDEO_BACKLOG {
                    break;
                }
                let size = job.size();
                let mime = match job.format() {
                    Format::Gif => "image/gif",
                    _ => "image/png",
                };
                let timestamp = job.timestamp_us(job.done());
                match job.step() {
                    Ok(Step::Encoded) => {}
                    Ok(Step::VideoFrame { index, rgba }) => {
                        out.video_frame(index, timestamp, size, rgba)
                    }
                    Ok(Step::Done(bytes)) => {
                        if !bytes.is_empty() {
                            out.download(&self.export_file, mime, &bytes);
                        }
                        self.export = None;
                        self.export_status = Status::Done;
                    }
                    Err(message) => {
                        self.export = None;
                        self.export_status = Status::Failed(message);
                    }
                }
                continue;
            }
            // The search takes a slice of what is left of the frame, once per frame.
            if let Some(job) = self.tools.as_mut() {
                let seconds = (deadline - now()).min(tools_job::STEP_SECONDS);
                job.step(&mut || now(), seconds);
            }
            break;
        }
        if let Some(job) = &self.tools {
            let results = job.results();
            if results.len() > self.tools_sent
                || (job.done() && self.tools_status == Status::Running)
            {
                let news =
                    json!({"start": self.tools_sent, "results": &results[self.tools_sent..]});
                out.publish("tools", &news.to_string());
                self.tools_sent = results.len();
            }
            if job.done() {
                self.tools_status = Status::Done;
            }
        }
    }

    /// The state the page's controls show, as JSON.
    fn state(&self, session: &Session, address: &str) -> String {
        let app = &session.app;
        let facts = session.animation.facts();
        let orbit = |o: &super::super::Orbit| json!({"azimuth": o.azimuth_deg, "elevation": o.elevation_deg, "zoom": o.zoom});
        let export = json!({
            "state": self.export_status.name(),
            "message": self.export_status.message(),
            "done": self.export.as_ref().map_or(0, ExportJob::done),
            "total": self.export.as_ref().map_or(0, ExportJob::frames),
            "file": self.export_file,
        });
        let tools = json!({
            "state": self.tools_status.name(),
            "message": self.tools_status.message(),
            "count": self.tools.as_ref().map_or(0, |j| j.results().len()),
        });
        json!({
            "frames": self.frames,
            "field": app.field.text(),
            "playing": app.playing,
            "error": app.error.as_ref().map(|e| json!({
                "text": e.text, "message": e.message, "column": e.column,
            })),
            "time": app.playback.time(),
            "loop": app.playback.loop_duration(),
            "paused": app.playback.paused(),
            "speed": app.playback.speed(),
            "speedLabel": app.speed_label(),
            "name": facts.name,
            "jugglers": facts.jugglers,
            "props": facts.props,
            "period": facts.period,
            "bps": facts.beats_per_second,
            "prop": facts.prop.name(),
            "entry": app.entry,
            "playlist": session.playlist.len(),
            "diagram": app.diagram,
            "sound": app.learn.sound,
            "soundParts": app.learn.parts.names(),
            "labels": app.learn.labels,
            "trail": app.learn.trail,
            "view": app.learn.view.name(),
            "loopLabel": app.loop_label(),
            "loopBeats": app.learn.beat_loop.map(|b| format!("{}-{}", b.from, b.to)),
            "highlight": app.highlight,
            "orbit": orbit(&app.orbit),
            "home": orbit(&app.home_orbit),
            "link": address,
            "export": export,
            "tools": tools,
        })
        .to_string()
    }
}

/// Sends the library list's matches to the page.
fn publish_library(list: &LibraryList, out: &mut dyn PageOut) {
    let items: Vec<serde_json::Value> = list
        .matching()
        .map(|item| {
            json!({
                "file": item.file,
                "index": item.index,
                "name": item.name,
                "notation": item.notation,
                "group": item.group,
            })
        })
        .collect();
    out.publish(
        "library",
        &json!({"search": list.search(), "items": items}).to_string(),
    );
}
