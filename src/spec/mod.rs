//! What a user asks to see: a pattern source (a siteswap, or a pattern given by its events)
//! plus the settings that shape its animation.
//!
//! Every input route ends here: a bare siteswap on the command line, a Juggling Lab settings
//! string (`pattern=531;bps=4`, read by `settings::read`), a TOML pattern file or a JML
//! pattern list (both in `files`; a JML pattern given by `<event>`s is read once, there, into
//! an [`EventSource`]). `scene::Scene::new(&PatternSpec)` turns it into motion.

mod source;

pub use source::{EventFormat, EventPattern, EventSource, PathProp, PatternSource};

use crate::settings::{self, Settings, SettingsError};

/// A named pattern with its settings.
#[derive(Clone, Debug, PartialEq)]
pub struct PatternSpec {
    /// Display name (defaults to the notation).
    pub name: String,
    /// The pattern itself: a siteswap, or events read from a file.
    pub source: PatternSource,
    /// Free text for pattern libraries.
    pub description: String,
    pub settings: Settings,
}

impl PatternSpec {
    /// A siteswap (in Juggling Lab's notation, see `notation`) with default settings, named
    /// after it.
    pub fn from_notation(notation: &str) -> Self {
        PatternSpec {
            name: notation.trim().to_string(),
            source: PatternSource::Siteswap(notation.trim().to_string()),
            description: String::new(),
            settings: Settings::default(),
        }
    }

    /// A bare siteswap or a Juggling Lab settings string (`pattern=531;bps=4`), read by
    /// `settings::read`: named after its `title`, else its pattern as written.
    pub fn parse(input: &str) -> Result<PatternSpec, SettingsError> {
        let text = settings::read(input)?;
        Ok(PatternSpec {
            name: text.title,
            source: PatternSource::Siteswap(text.pattern),
            description: String::new(),
            settings: text.settings,
        })
    }

    /// The siteswap, when the pattern is one.
    pub fn siteswap(&self) -> Option<&str> {
        self.source.siteswap()
    }
}
