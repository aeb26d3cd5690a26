//! Why settings cannot be used: Juggling Lab's messages where it has one, the one form of
//! [`ValueError`] for every bad number, and the budget's for values that expand too far.

use thiserror::Error;

use super::keys::ValueError;
use crate::budget::BudgetError;
use crate::notation::hss::HssError;

/// Why a settings string or settings value cannot be used.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum SettingsError {
    #[error("Parameter '{0}' has no value")]
    NoValue(String),
    #[error("Unused input parameter{}: {}", if .0.len() > 1 { "s" } else { "" }, quote_list(.0))]
    Unused(Vec<String>),
    #[error("No pattern specified")]
    NoPattern,
    /// A number that does not parse or is outside its range (the table's one form).
    #[error(transparent)]
    Value(Box<ValueError>),
    #[error("Prop type '{0}' not recognized")]
    Prop(String),
    #[error("Error in color format")]
    ColorFormat,
    #[error("Prop color '{0}' not recognized")]
    Color(String),
    /// A `hands`, `body` or `colors` value that does not read (what is wrong, in words).
    #[error("Error in '{key}' setting: {message}")]
    Form { key: &'static str, message: String },
    /// A value that would expand past the resource budget.
    #[error("Error in '{key}' setting: {error}")]
    Budget {
        key: &'static str,
        error: BudgetError,
    },
    /// A hand siteswap that cannot be converted.
    #[error("{0}")]
    Hss(HssError),
    /// `dwell` and `beat_dwells` that disagree (files give one or the other).
    #[error(
        "dwell {dwell} is not the dwell of beat_dwells ({derived}, their shortest): give one of them"
    )]
    DwellMismatch { dwell: f64, derived: f64 },
}

impl From<ValueError> for SettingsError {
    fn from(e: ValueError) -> SettingsError {
        SettingsError::Value(Box::new(e))
    }
}

impl SettingsError {
    /// The error of a `key` value that does not read.
    pub(crate) fn form(key: &'static str, message: impl Into<String>) -> SettingsError {
        SettingsError::Form {
            key,
            message: message.into(),
        }
    }
}

fn quote_list(keys: &[String]) -> String {
    keys.iter()
        .map(|k| format!("\"{}\"", crate::text::escape_control(k)))
        .collect::<Vec<_>>()
        .join(", ")
}
