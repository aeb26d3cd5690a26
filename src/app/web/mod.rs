//! The web page front end: the same application, compiled to `wasm32-unknown-unknown` by
//! `scripts/web.sh` and run by `web/index.html` (miniquad's `gl.js` loader, the page's
//! controls and `web/juggler.js`, a miniquad plugin).
//!
//! The page's controls are HTML elements (`Chrome::Page`: the canvas shows only the juggling
//! and the ladder diagram). They ask for named actions (`actions`: one table of names) and
//! read back the app's state, which `front::Front` publishes as JSON once per frame.
//!
//! * `link`: share links (`?pattern=531&prop=club&speed=0.5...`, a file's pattern packed in
//!   the fragment), read once at start, kept equal to what is on screen.
//! * `export_job`: GIF and animated PNG encoded in the page, video frames for the browser's
//!   encoder; `tools_job`: the generator and transitions, a piece per frame.
//! * `front`: the page's state around the app's session (link, jobs, library search) and
//!   what it sends the page; `page` (wasm only): the JavaScript side and the page's start.
//!
//! Everything but `page` is plain Rust, tested natively.

pub(crate) mod actions;
pub(crate) mod export_job;
pub(crate) mod front;
pub(crate) mod link;
pub(crate) mod tools_job;

use crate::files::argument::{self, Argument};
use crate::spec::PatternSpec;

use super::scene_animation::{load_error, SceneAnimation};
use super::{Animation, LoadError};
pub(crate) use link::LinkQuery;

/// The pattern a page without a pattern in its link shows.
pub(crate) const DEFAULT_PATTERN: &str = "3";

/// What plays, as a link says it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Playing {
    /// Text as typed (siteswap, settings string, library name).
    Text(String),
    /// A pattern of a user's file.
    File(Box<PatternSpec>),
}

/// Loads pattern text as the page does (the command line's reading rule, then the link's
/// settings and camera): the loader of typed patterns and of the link's pattern.
pub(crate) fn load_pattern(text: &str, link: &LinkQuery) -> Result<Box<dyn Animation>, LoadError> {
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

/// The animation of `spec` (typed as `text`, or a file's pattern shown as `text`) with the
/// link's settings applied.
pub(crate) fn animate(
    text: &str,
    spec: &mut PatternSpec,
    link: &LinkQuery,
) -> Result<Box<dyn Animation>, LoadError> {
    link.apply(spec, text);
    match SceneAnimation::new(spec, link.view(spec)) {
        Ok(animation) => Ok(Box::new(animation)),
        Err(err) => Err(load_error(text, spec.source.text(), &err)),
    }
}

/// What the Pattern field shows for a file's pattern: its siteswap, or the name of a pattern
/// made of Juggling Lab events (whose notation is a whole JML text).
pub(crate) fn field_text(spec: &PatternSpec) -> String {
    match spec.source.siteswap() {
        Some(siteswap) => siteswap.to_string(),
        None => spec.name.clone(),
    }
}

/// The patterns of a user's file (`name` gives its kind by extension), every siteswap
/// checked; else a one-line message.
pub(crate) fn file_patterns(name: &str, text: &str) -> Result<Vec<PatternSpec>, String> {
    use crate::files::{self, FileKind};
    let shown = crate::text::escape_control(&crate::text::truncate(name, 200)).into_owned();
    let kind = FileKind::of_path(std::path::Path::new(name)).ok_or_else(|| {
        format!("{shown}: not a pattern file (open a .toml, .jml, .xml, .jif or .txt file)")
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
pub(crate) struct Startup {
    /// The pattern text playing (and shown in the field unless `error` says otherwise).
    pub text: String,
    pub playing: Playing,
    pub animation: Box<dyn Animation>,
    /// Shown as a failed load once the app runs: the link's pattern text and why it could not
    /// be played, or why a link option was refused.
    pub error: Option<(String, LoadError)>,
}

/// The link's pattern (a file's pattern in its fragment first), or the default pattern when
/// the link has none or a bad one; either way with the first problem of the link to show.
pub(crate) fn startup(link: &LinkQuery) -> Startup {
    let refused = link
        .problems
        .first()
        .map(|p| LoadError::new(p.clone(), None));
    if let Some(file) = &link.file {
        let loaded = file
            .spec()
            .map_err(|e| LoadError::new(e, None))
            .and_then(|spec| {
                let text = field_text(&spec);
                animate(&text, &mut spec.clone(), link).map(|animation| (text, spec, animation))
            });
        match loaded {
            Ok((text, spec, animation)) => {
                return Startup {
                    error: refused.map(|e| (text.clone(), e)),
                    text,
                    playing: Playing::File(Box::new(spec)),
                    animation,
                }
            }
            Err(e) => return default_startup(link, Some(("(the link's pattern)".into(), e))),
        }
    }
    let wanted = link
        .pattern
        .as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty());
    if let Some(text) = wanted {
        return match load_pattern(text, link) {
            Ok(animation) => Startup {
                text: text.to_string(),
                playing: Playing::Text(text.to_string()),
                animation,
                error: refused.map(|e| (text.to_string(), e)),
            },
            Err(e) => default_startup(link, Some((text.to_string(), e))),
        };
    }
    default_startup(link, refused.map(|e| (DEFAULT_PATTERN.to_string(), e)))
}

/// The default pattern with the link's settings (they are checked, so it loads; without
/// them as a last resort), and what to show as a failure.
fn default_startup(link: &LinkQuery, error: Option<(String, LoadError)>) -> Startup {
    let animation = match load_pattern(DEFAULT_PATTERN, link) {
        Ok(animation) => animation,
        Err(_) => load_pattern(DEFAULT_PATTERN, &LinkQuery::default())
            .unwrap_or_else(|e| unreachable!("the default pattern loads: {}", e.message)),
    };
    Startup {
        text: DEFAULT_PATTERN.to_string(),
        playing: Playing::Text(DEFAULT_PATTERN.to_string()),
        animation,
        error,
    }
}

#[cfg(target_arch = "wasm32")]
mod page;
#[cfg(target_arch = "wasm32")]
pub(super) use page::frame;
#[cfg(target_arch = "wasm32")]
pub use page::main;

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(field_text(&specs[0]), "531");
        assert_eq!(notations, ["531", "(4,2x)*"]);
        let bad = file_patterns("mine.txt", "531\n532\n").unwrap_err();
        assert!(bad.contains("532"), "{bad}");
        let kind = file_patterns("photo.png", "\u{89}PNG").unwrap_err();
        assert!(kind.contains("not a pattern file"), "{kind}");
        assert!(file_patterns("empty.txt", "# nothing\n").is_err());
        // A JIF file, and its share link carrying it whole.
        let jif = include_str!("../../../tests/data/jif/seven_one_count.jif");
        let specs = file_patterns("grail.jif", jif).unwrap();
        assert_eq!(specs[0].name, "7 club one count");
        let linked = LinkQuery::parse(&LinkQuery::default().with_file(&specs[0]).to_address());
        let file = linked.file.expect("the link carries the file");
        assert_eq!(file.kind, crate::files::FileKind::Jif);
        assert_eq!(file.spec().unwrap().source, specs[0].source);
    }

    #[test]
    fn a_link_to_the_third_pattern_of_a_jml_file_opens_it() {
        let jml = include_str!("../../../tests/data/three_patterns.jml");
        let specs = file_patterns("mine.jml", jml).unwrap();
        assert_eq!(specs.len(), 3);
        assert!(specs[2].source.events().is_some());
        // The clubs with their colours, through the TOML in the fragment.
        let clubs = startup(&LinkQuery::parse(
            &LinkQuery::default().with_file(&specs[1]).to_address(),
        ));
        assert_eq!(clubs.playing, Playing::File(Box::new(specs[1].clone())));
        assert_eq!(
            (clubs.text.as_str(), clubs.animation.facts().prop),
            ("531", crate::types::PropKind::Club)
        );
        let link = LinkQuery::default().with_file(&specs[2]);
        let opened = startup(&LinkQuery::parse(&link.to_address()));
        assert!(
            opened.error.is_none(),
            "{:?}",
            opened.error.map(|e| e.1.message)
        );
        assert_eq!(opened.playing, Playing::File(Box::new(specs[2].clone())));
        assert_eq!(opened.animation.facts().name, specs[2].name);
        assert!(!opened.text.contains('<'), "{}", opened.text);
        // A damaged fragment: the default plays and the problem shows.
        let bad = startup(&LinkQuery::parse("#jml=AAAA"));
        assert_eq!(bad.text, DEFAULT_PATTERN);
        assert!(bad.error.unwrap().1.message.starts_with("jml= in the link"));
    }

    #[test]
    fn the_page_starts_with_the_links_pattern_or_the_default_and_the_reason() {
        let ok = startup(&LinkQuery::parse("pattern=531&prop=ring"));
        assert_eq!(ok.text, "531");
        assert!(ok.error.is_none());
        assert_eq!(ok.animation.facts().props, 3);
        // passist's link: a four-handed siteswap, shown as its settings string.
        let grail = startup(&LinkQuery::parse("pattern=975&jugglers=2"));
        assert_eq!(grail.text, "975;jugglers=2");
        assert!(grail.error.is_none());
        assert_eq!(grail.animation.facts().props, 7);

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
