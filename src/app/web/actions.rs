//! The page's named actions: every button, key and panel of the web page asks the app for
//! something by name (`toggle-pause`, `prop` with `club`, ...) through one message, and this
//! table says what each name does. Adding a control to the page is one entry here plus one
//! element in `web/index.html` (`data-action="NAME"`); the app's state comes back to the page
//! as JSON every frame (`page::publish`).

use serde::Deserialize;

use crate::export::Format;
use crate::types::PropKind;

use super::super::state::Action;

/// What the page asked for.
#[derive(Clone, Debug, PartialEq)]
pub enum PageAction {
    /// An action of the app itself, as a key or click in the window would give.
    App(Action),
    /// Play this pattern text (the Pattern field's Enter).
    Load(String),
    /// Check this text again while an error is shown (the field's live error).
    Check(String),
    /// Play the pattern with this prop.
    Prop(PropKind),
    /// Playback speed, the nearest of the speeds offered.
    Speed(f64),
    /// Pause (`true`) or play.
    Pause(bool),
    /// Filter the library list.
    LibrarySearch(String),
    /// Play pattern `index` of library file `file` (and browse that file).
    LibraryPlay { file: usize, index: usize },
    /// Export the pattern playing.
    Export(ExportSettings),
    /// Stop the export running.
    CancelExport,
    /// Offer the pattern playing as a JML file (what `juggler tojml` writes).
    DownloadJml,
    /// Run the generator or the transition finder.
    Tools(ToolsRequest),
    /// Stop the search running.
    CancelTools,
    /// Play result `index` of the last search.
    PlayResult(usize),
}

/// What the page's export panel asks for.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ExportSettings {
    /// `gif`, `png` (animated PNG), `webm` or `mp4`.
    pub format: String,
    /// `WxH`.
    pub size: String,
    /// Whole loops of the pattern.
    #[serde(default = "one")]
    pub loops: u32,
    #[serde(default = "thirty")]
    pub fps: f64,
}

fn one() -> u32 {
    1
}

fn thirty() -> f64 {
    30.0
}

impl ExportSettings {
    pub fn format(&self) -> Result<Format, String> {
        match self.format.as_str() {
            "gif" => Ok(Format::Gif),
            "png" | "apng" => Ok(Format::Apng),
            "webm" => Ok(Format::WebM),
            "mp4" => Ok(Format::Mp4),
            other => Err(format!("cannot export as {other}")),
        }
    }
}

/// What the page's tools panel asks for.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(tag = "tool", rename_all = "lowercase", deny_unknown_fields)]
pub enum ToolsRequest {
    /// `juggler gen`'s main options.
    Generate {
        props: u32,
        #[serde(default)]
        max_throw: Option<u32>,
        #[serde(default)]
        period: Option<u32>,
        #[serde(default)]
        sync: bool,
        #[serde(default = "one")]
        jugglers: u32,
        /// `all`, `ground` or `excited`.
        #[serde(default)]
        ground: String,
        #[serde(default)]
        include: Vec<String>,
        #[serde(default)]
        exclude: Vec<String>,
    },
    /// Transitions from the pattern playing (or `from`) to `to` and back.
    Transitions {
        #[serde(default)]
        from: Option<String>,
        to: String,
    },
}

impl PageAction {
    /// The action named `name` with its `value` (empty when it takes none). The one table of
    /// the page's actions.
    pub fn parse(name: &str, value: &str) -> Result<PageAction, String> {
        let number = || -> Result<f64, String> {
            value
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| format!("{name}: {value:?} is not a number"))
        };
        let integer = || -> Result<i32, String> {
            value
                .trim()
                .parse::<i32>()
                .map_err(|_| format!("{name}: {value:?} is not a whole number"))
        };
        let json = |e: serde_json::Error| format!("{name}: {e}");
        Ok(match name {
            "toggle-pause" => PageAction::App(Action::TogglePause),
            "play" => PageAction::Pause(false),
            "pause" => PageAction::Pause(true),
            "faster" => PageAction::App(Action::Faster),
            "slower" => PageAction::App(Action::Slower),
            "speed" => PageAction::Speed(number()?),
            "step" => PageAction::App(Action::Step(integer()?)),
            "scrub" => PageAction::App(Action::Scrub(number()?)),
            "reset-view" => PageAction::App(Action::ResetView),
            "zoom" => PageAction::App(Action::Zoom(number()? as f32)),
            "toggle-diagram" => PageAction::App(Action::ToggleDiagram),
            "escape" => PageAction::App(Action::Escape),
            "browse" => PageAction::App(Action::Browse(integer()?)),
            "load" => PageAction::Load(value.to_string()),
            "check" => PageAction::Check(value.to_string()),
            "prop" => PageAction::Prop(value.parse()?),
            "library-search" => PageAction::LibrarySearch(value.to_string()),
            "library-play" => {
                let (file, index) = value
                    .split_once(':')
                    .and_then(|(f, i)| Some((f.trim().parse().ok()?, i.trim().parse().ok()?)))
                    .ok_or_else(|| format!("{name}: expected FILE:INDEX, got {value:?}"))?;
                PageAction::LibraryPlay { file, index }
            }
            "export" => PageAction::Export(serde_json::from_str(value).map_err(json)?),
            "export-cancel" => PageAction::CancelExport,
            "download-jml" => PageAction::DownloadJml,
            "tools" => PageAction::Tools(serde_json::from_str(value).map_err(json)?),
            "tools-cancel" => PageAction::CancelTools,
            "tools-play" => PageAction::PlayResult(
                usize::try_from(integer()?).map_err(|_| format!("{name}: {value:?}"))?,
            ),
            _ => return Err(format!("the page asked for an unknown action {name:?}")),
        })
    }
}

/// Whether the canvas's input may do `action` on the page. The page's controls are HTML
/// (`Chrome::Page`): the canvas's own text field, library list, help and facts panel are not
/// shown there, so the keys and clicks that would open or edit them do nothing (the page's
/// script takes typing into its Pattern field); quitting is the browser's.
pub fn page_allows(action: &Action) -> bool {
    matches!(
        action,
        Action::TogglePause
            | Action::Faster
            | Action::Slower
            | Action::Step(_)
            | Action::Scrub(_)
            | Action::ResetView
            | Action::Orbit { .. }
            | Action::Zoom(_)
            | Action::ToggleDiagram
            | Action::Escape
            | Action::Browse(_)
            | Action::DiagramClick { .. }
            | Action::Highlight(_)
            | Action::Open(_)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_canvas_never_opens_what_the_page_does_not_show_nor_quits() {
        for hidden in [
            Action::Quit,
            Action::ToggleLibrary,
            Action::ToggleHelp,
            Action::ToggleFacts,
            Action::FocusField,
            Action::StartTyping('5'),
            Action::Insert('5'),
            Action::Submit,
            Action::LibraryInsert('m'),
        ] {
            assert!(!page_allows(&hidden), "{hidden:?}");
        }
        for shown in [
            Action::TogglePause,
            Action::ResetView,
            Action::Zoom(1.0),
            Action::Step(-1),
            Action::Browse(1),
        ] {
            assert!(page_allows(&shown), "{shown:?}");
        }
    }

    #[test]
    fn every_name_reads_with_its_value() {
        let cases: [(&str, &str, PageAction); 12] = [
            ("toggle-pause", "", PageAction::App(Action::TogglePause)),
            ("pause", "", PageAction::Pause(true)),
            ("step", "-1", PageAction::App(Action::Step(-1))),
            ("scrub", "0.25", PageAction::App(Action::Scrub(0.25))),
            ("speed", "0.5", PageAction::Speed(0.5)),
            ("reset-view", "", PageAction::App(Action::ResetView)),
            ("load", " 531 ", PageAction::Load(" 531 ".into())),
            ("prop", "Club", PageAction::Prop(PropKind::Club)),
            (
                "library-play",
                "3:12",
                PageAction::LibraryPlay { file: 3, index: 12 },
            ),
            ("browse", "1", PageAction::App(Action::Browse(1))),
            ("download-jml", "", PageAction::DownloadJml),
            ("tools-play", "4", PageAction::PlayResult(4)),
        ];
        for (name, value, want) in cases {
            assert_eq!(PageAction::parse(name, value), Ok(want), "{name}");
        }
        let export =
            PageAction::parse("export", r#"{"format":"gif","size":"320x240","loops":2}"#).unwrap();
        let PageAction::Export(settings) = export else {
            panic!("{export:?}")
        };
        assert_eq!((settings.loops, settings.fps), (2, 30.0));
        assert_eq!(settings.format(), Ok(Format::Gif));
        let gen = PageAction::parse(
            "tools",
            r#"{"tool":"generate","props":3,"max_throw":5,"period":3}"#,
        )
        .unwrap();
        assert!(
            matches!(
                gen,
                PageAction::Tools(ToolsRequest::Generate {
                    props: 3,
                    max_throw: Some(5),
                    period: Some(3),
                    jugglers: 1,
                    ..
                })
            ),
            "{gen:?}"
        );
    }

    #[test]
    fn bad_names_and_values_are_errors_not_panics() {
        for (name, value) in [
            ("fly", ""),
            ("step", "x"),
            ("scrub", "NaN"),
            ("speed", "inf"),
            ("prop", "knife"),
            ("library-play", "3"),
            ("export", "{"),
            ("export", r#"{"format":"gif","size":"1x1","colour":1}"#),
            ("tools", r#"{"tool":"juggle"}"#),
            ("tools-play", "-1"),
        ] {
            assert!(PageAction::parse(name, value).is_err(), "{name} {value}");
        }
    }
}
