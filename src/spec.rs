//! What a user asks to see: a siteswap plus the settings that shape its animation.
//!
//! Every input route ends here: a bare siteswap on the command line, a Juggling Lab settings
//! string (`pattern=531;bps=4`, read by `settings::read`), a TOML pattern file or a JML
//! pattern list (both in `files`). `scene::Scene::new(&PatternSpec)` turns it into motion.

use serde::{Deserialize, Serialize};

use crate::settings::{self, Settings, SettingsError};

/// A named pattern with its settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PatternSpec {
    /// Display name (defaults to the notation).
    pub name: String,
    /// The siteswap, in Juggling Lab's notation (see `notation`).
    pub notation: String,
    /// Free text for pattern libraries.
    pub description: String,
    pub settings: Settings,
}

impl PatternSpec {
    /// A spec with default settings, named after its notation.
    pub fn from_notation(notation: &str) -> Self {
        PatternSpec {
            name: notation.trim().to_string(),
            notation: notation.trim().to_string(),
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
            notation: text.pattern,
            description: String::new(),
            settings: text.settings,
        })
    }
}
