//! What the window plays: a loaded pattern that yields a `Frame` for any time, orbit and size,
//! plus the facts shown in the panel. The window knows nothing else about juggling.

use glam::Vec2;

use crate::render::{Camera, Frame};
use crate::scene::Scene;
use crate::spec::PatternSpec;
use crate::tools::diagram::Ladder;
use crate::types::PropKind;

use super::state::Orbit;

/// Pattern facts for the panel.
#[derive(Clone, Debug, PartialEq)]
pub struct Facts {
    /// Display name of the pattern.
    pub name: String,
    /// The siteswap as written (for the window title).
    pub notation: String,
    pub jugglers: usize,
    pub props: usize,
    /// Beats in one period.
    pub period: u32,
    pub beats_per_second: f64,
    /// Seconds until the animation repeats exactly.
    pub loop_seconds: f64,
    /// The kind of prop juggled.
    pub prop: PropKind,
}

/// A pattern ready to be drawn at any time.
pub trait Animation {
    /// The frame at pattern time `t` seconds, seen from `orbit`, for a `width` x `height` pixel
    /// viewport. Total: never fails, for any finite `t`.
    fn frame(&self, t: f64, orbit: &Orbit, width: u32, height: u32) -> Frame;

    /// Seconds after which the animation repeats exactly (> 0).
    fn loop_duration(&self) -> f64;

    fn facts(&self) -> Facts;

    /// The camera orbit this pattern is shown from before the user turns it (and after R).
    fn home_orbit(&self) -> Orbit;

    /// The scene behind the animation (what an export renders), if it has one.
    fn scene(&self) -> Option<&Scene> {
        None
    }

    /// The camera of a `width` x `height` picture of the scene seen from `orbit` (the
    /// window's framing for that size), if there is a scene.
    fn camera(&self, _orbit: &Orbit, _width: u32, _height: u32) -> Option<Camera> {
        None
    }

    /// The ladder diagram of the pattern (`tools::diagram::ladder`), if it has one.
    fn ladder(&self) -> Option<&Ladder> {
        None
    }

    /// The prop that makes throw `throw` (an index into the schedule's throws) at beat `beat`
    /// (counted from the pattern's start; any integer, the pattern repeats).
    fn prop_of_throw(&self, _throw: usize, _beat: i64) -> Option<usize> {
        None
    }

    /// Where prop `prop` is drawn at time `t` in a `width` x `height` viewport seen from
    /// `orbit`: its centre in viewport pixels and its radius in pixels.
    fn prop_on_screen(
        &self,
        _t: f64,
        _orbit: &Orbit,
        _width: u32,
        _height: u32,
        _prop: usize,
    ) -> Option<(Vec2, f32)> {
        None
    }
}

/// Why a typed pattern could not be loaded: a one-line message and, when known, the character
/// column (0-based) of the problem in the typed text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    pub message: String,
    pub column: Option<usize>,
}

impl LoadError {
    pub fn new(message: impl Into<String>, column: Option<usize>) -> Self {
        LoadError {
            message: message.into(),
            column,
        }
    }
}

/// Turns pattern text (typed in the field) into an animation.
pub type Loader = Box<dyn FnMut(&str) -> Result<Box<dyn Animation>, LoadError>>;

/// Turns a pattern of the library (picked from the list) into an animation, with the front
/// end's overrides (command-line options, URL settings) applied.
pub type SpecLoader = Box<dyn FnMut(&PatternSpec) -> Result<Box<dyn Animation>, LoadError>>;

/// One pattern of a playlist (the patterns of a file): its text for the field, and how to
/// build it.
pub struct Entry {
    /// Shown in the pattern field while the entry plays.
    pub text: String,
    pub load: Box<dyn Fn() -> Result<Box<dyn Animation>, LoadError>>,
}
