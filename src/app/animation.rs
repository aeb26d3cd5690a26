//! What the window plays: a loaded pattern that yields a `Frame` for any time, orbit and size,
//! plus the facts shown in the panel. The window knows nothing else about juggling.

use crate::render::Frame;

use super::state::Orbit;

/// Pattern facts for the panel.
#[derive(Clone, Debug, PartialEq)]
pub struct Facts {
    /// Display name of the pattern.
    pub name: String,
    pub jugglers: usize,
    pub props: usize,
    /// Beats in one period.
    pub period: u32,
    pub beats_per_second: f64,
    /// Seconds until the animation repeats exactly.
    pub loop_seconds: f64,
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

/// One pattern of a playlist (the patterns of a file): its text for the field, and how to
/// build it.
pub struct Entry {
    /// Shown in the pattern field while the entry plays.
    pub text: String,
    pub load: Box<dyn Fn() -> Result<Box<dyn Animation>, LoadError>>,
}
