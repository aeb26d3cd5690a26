//! Plain-text pattern lists: one siteswap or Juggling Lab settings string per line; blank
//! lines and `#` comments (whole lines or line ends) are skipped.

use super::error::{FileError, Location};
use super::settings_spec;
use super::LoadedPattern;

/// Reads a text list; `origin` names it in errors.
pub fn read_text_list(text: &str, origin: &str) -> Result<Vec<LoadedPattern>, FileError> {
    let mut patterns = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let content = raw.split('#').next().unwrap_or("");
        let trimmed = content.trim();
        if trimmed.is_empty() {
            continue;
        }
        let indent = content.len() - content.trim_start().len();
        let at = Location {
            origin: origin.to_string(),
            line: index + 1,
            column: content[..indent].chars().count() + 1,
        };
        let spec = settings_spec(trimmed).map_err(|message| FileError::BadSetting {
            at: at.clone(),
            message,
        })?;
        patterns.push(LoadedPattern { spec, at });
    }
    Ok(patterns)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_comments_and_settings() {
        let text = "# my list\n3\n\n  531   # the classic\npattern=(4,4);bps=3;title=Sync\n";
        let got = read_text_list(text, "l.txt").unwrap();
        let names: Vec<&str> = got.iter().map(|p| p.spec.name.as_str()).collect();
        assert_eq!(names, ["3", "531", "Sync"]);
        assert_eq!(got[1].spec.notation, "531");
        assert_eq!((got[1].at.line, got[1].at.column), (4, 3));
        assert_eq!(got[2].spec.settings.bps, Some(3.0));
    }

    #[test]
    fn bad_settings_line_is_located() {
        let err = read_text_list("3\npattern=3;dwell=7\n", "l.txt").unwrap_err();
        assert_eq!(
            err.to_string(),
            "l.txt:2:1: 'Dwell' value should be between 0 and 2"
        );
    }
}
