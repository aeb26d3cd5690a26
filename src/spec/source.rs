//! The pattern itself, typed: a siteswap, or a pattern given by its events (a file's explicit
//! throws and catches), read once where the file is read and carried with its text.

use std::sync::Arc;

use crate::motion::Choreography;
use crate::types::{PropKind, Rgba};

/// What a pattern is given as.
#[derive(Clone, Debug, PartialEq)]
pub enum PatternSource {
    /// A siteswap in Juggling Lab's notation (not necessarily valid: `scene::Scene::new` and
    /// `schedule::from_notation` say where it is wrong).
    Siteswap(String),
    /// A pattern given by its events, already read (files of events are checked where they
    /// are read).
    Events(Arc<EventSource>),
}

impl PatternSource {
    /// The pattern as text: the siteswap, or the self-contained document of the events (what
    /// the window's field shows and a share link carries).
    pub fn text(&self) -> &str {
        match self {
            PatternSource::Siteswap(siteswap) => siteswap,
            PatternSource::Events(events) => &events.text,
        }
    }

    /// The siteswap, when the pattern is one.
    pub fn siteswap(&self) -> Option<&str> {
        match self {
            PatternSource::Siteswap(siteswap) => Some(siteswap),
            PatternSource::Events(_) => None,
        }
    }

    /// The events, when the pattern is given by them.
    pub fn events(&self) -> Option<&EventSource> {
        match self {
            PatternSource::Siteswap(_) => None,
            PatternSource::Events(events) => Some(events),
        }
    }
}

/// The formats that give patterns by their events.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventFormat {
    /// Juggling Lab's JML `<pattern>` with `<event>`s and `<symmetry>`s.
    Jml,
    /// The Juggling Interchange Format (passist's JSON), read by `files::jif`.
    Jif,
}

/// A pattern given by its events: the text it was read from (a self-contained document of
/// its format) and what was read from it, together.
#[derive(Clone, Debug, PartialEq)]
pub struct EventSource {
    pub format: EventFormat,
    /// A self-contained document of `format` holding just this pattern.
    pub text: String,
    pub pattern: EventPattern,
}

/// A prop as a pattern of events declares it for one of its paths.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PathProp {
    pub kind: PropKind,
    /// `None`: the default palette.
    pub color: Option<Rgba>,
}

/// A pattern of events, read: the motion's choreography of one loop and what the file says
/// about its props.
#[derive(Clone, Debug, PartialEq)]
pub struct EventPattern {
    pub(crate) title: Option<String>,
    pub(crate) choreography: Choreography,
    pub(crate) jugglers: usize,
    /// Number of paths (props) as the file declares them.
    pub(crate) paths: usize,
    /// Per motion prop (in `Motion` order: per prop path, its props), the file's path
    /// (0-based) it is at time 0.
    pub(crate) path_of_prop: Vec<usize>,
    /// Per file path, its prop.
    pub(crate) path_props: Vec<PathProp>,
    /// Times the busiest juggler throws in one loop (throws at one time once; at least 1):
    /// the loop's nominal beats.
    pub(crate) throws_per_loop: u32,
}

impl EventPattern {
    /// The pattern's own title, if it has one.
    pub fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    /// The choreography of one loop (`hand_period` seconds).
    pub fn choreography(&self) -> &Choreography {
        &self.choreography
    }

    pub fn jugglers(&self) -> usize {
        self.jugglers
    }

    /// Props, as the file declares them (its paths).
    pub fn props(&self) -> usize {
        self.paths
    }

    /// Seconds after which the events repeat (the props possibly permuted).
    pub fn loop_seconds(&self) -> f64 {
        self.choreography.hand_period
    }

    /// Per path, its prop.
    pub fn path_props(&self) -> &[PathProp] {
        &self.path_props
    }

    /// Times the busiest juggler throws in one loop: the loop's nominal beats.
    pub fn throws_per_loop(&self) -> u32 {
        self.throws_per_loop
    }

    /// The nominal beats per second: the busiest juggler's throws per second.
    pub fn bps(&self) -> f64 {
        f64::from(self.throws_per_loop) / self.choreography.hand_period
    }
}
