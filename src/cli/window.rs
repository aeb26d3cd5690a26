//! `juggler [PATTERN]` / `juggler show PATTERN`: the interactive window, its screenshot mode
//! and its hidden frame-rate measurement.

use juggler::app::scene_animation::{load_error, SceneAnimation};
use juggler::app::{
    self, display, input, screenshot, Animation, Entry, LoadError, Loader, Mode, Outcome,
    SpecLoader, WindowError, WindowOptions,
};
use juggler::render::ViewOverrides;
use juggler::spec::PatternSpec;

use super::export::camera_overrides;
use super::input::{apply_options, load_spec, load_specs};
use super::{print_out, CliError, PatternOptions, ViewArgs};
use juggler::files::argument::Choice;
use juggler::text::{escape_control, shell_quote};

/// The pattern shown when none is given.
pub const DEFAULT_PATTERN: &str = "3";

pub fn run(args: &ViewArgs) -> Result<u8, CliError> {
    let text = args
        .pattern
        .clone()
        .unwrap_or_else(|| DEFAULT_PATTERN.to_string());
    if !args.at.is_finite() {
        return Err(CliError::usage(format!(
            "--at must be a finite time in seconds, got {}",
            args.at
        )));
    }
    if let Some(path) = &args.screenshot {
        screenshot::check_target(path, args.force).map_err(|e| {
            CliError::usage(juggler::text::escape_control(&e.to_string()).into_owned())
        })?;
    }
    let view = camera_overrides(&args.camera)?;
    let size = match &args.size {
        Some(s) => parse_size(s).map_err(CliError::usage)?,
        None => app::DEFAULT_SIZE,
    };
    let script = match &args.keys {
        Some(keys) => input::parse_script(keys)
            .map_err(|e| CliError::usage(format!("--keys: {}", escape_control(&e))))?,
        None => Vec::new(),
    };
    // The learning options are drawn by `juggler export` only so far: say so rather than
    // open a window that ignores them.
    let learn = &args.learn;
    let given: Vec<&str> = [
        ("--view", learn.view.is_some()),
        ("--juggler", learn.juggler.is_some()),
        ("--labels", learn.labels),
        ("--trail", learn.trail.is_some()),
        ("--speed", learn.speed.is_some()),
        ("--sound", learn.sound.is_some()),
        ("--beats", learn.beats.is_some()),
    ]
    .into_iter()
    .filter_map(|(name, set)| set.then_some(name))
    .collect();
    if !given.is_empty() {
        return Err(CliError::usage(format!(
            "{} work in `juggler export` only; the window does not show them yet",
            given.join(", ")
        )));
    }
    let choice = args.choice.choice();
    // A chosen pattern of a file plays alone; a whole file plays as a list.
    let mut specs = if choice.is_some() {
        vec![load_spec(&text, &choice, &PatternOptions::default())?]
    } else {
        load_specs(&text)?
    };
    for spec in &mut specs {
        apply_options(spec, &args.options)?;
    }
    // A file of several patterns plays the first; PageDown/PageUp browse the others.
    let (spec, text) = match specs.as_slice() {
        [] => return Err(CliError::invalid(format!("{text}: no pattern"))),
        // The field shows the chosen pattern's siteswap (the file would reload its first).
        [only] if choice.is_some() => (only.clone(), only.source.text().to_string()),
        [only] => (only.clone(), with_jugglers(text, &args.options)),
        [first, ..] => (first.clone(), first.source.text().to_string()),
    };
    let animation =
        animate(&text, &spec, view).map_err(|e| CliError::invalid(describe(&text, &e)))?;
    let playlist = if specs.len() > 1 {
        specs.into_iter().map(|spec| entry(spec, view)).collect()
    } else {
        Vec::new()
    };
    if display::detect_from_env().is_none() {
        return Err(CliError::usage(no_display_message(&text)));
    }
    let mode = match (&args.screenshot, args.bench_frames) {
        (Some(path), _) => Mode::Screenshot {
            path: path.clone(),
            at: args.at,
        },
        (None, Some(frames)) => Mode::Bench {
            frames: frames.max(1),
        },
        (None, None) => Mode::Interactive,
    };
    // `--jugglers` is the given pattern's (a typed passing pattern has its own jugglers).
    let options = PatternOptions {
        jugglers: None,
        ..args.options.clone()
    };
    let loader: Loader = Box::new(move |typed: &str| {
        let spec = load_spec(typed, &Choice::default(), &options)
            .map_err(|e| LoadError::new(first_line(&e.message), None))?;
        animate(typed, &spec, view)
    });
    let options = PatternOptions {
        jugglers: None,
        ..args.options.clone()
    };
    let spec_loader: SpecLoader = Box::new(move |spec| {
        let mut spec = spec.clone();
        apply_options(&mut spec, &options)
            .map_err(|e| LoadError::new(first_line(&e.message), None))?;
        animate(spec.source.text(), &spec, view)
    });
    let title = app::title::window_title(&animation.facts());
    let outcome = app::run(WindowOptions {
        title,
        text: text.clone(),
        animation,
        loader,
        spec_loader,
        script,
        playlist,
        mode,
        size,
        msaa: args.msaa,
        chrome: app::Chrome::Window,
    });
    match outcome {
        Ok(Outcome::Closed) => Ok(0),
        Ok(Outcome::Screenshot {
            path,
            width,
            height,
        }) => {
            print_out(&format!(
                "saved {}x{} screenshot to {}\n",
                width,
                height,
                escape_control(&path.display().to_string())
            ))?;
            Ok(0)
        }
        Ok(Outcome::Bench {
            frames,
            seconds,
            work_seconds,
        }) => {
            let fps = f64::from(frames) / seconds.max(1e-9);
            let work_ms = 1000.0 * work_seconds / f64::from(frames.max(1));
            print_out(&format!(
                "{}: {frames} frames in {seconds:.2} s = {fps:.1} frames/s \
                 ({work_ms:.2} ms per frame building and submitting it)\n",
                escape_control(&text)
            ))?;
            Ok(0)
        }
        Err(WindowError::NoDisplay) => Err(CliError::usage(no_display_message(&text))),
        Err(err @ WindowError::Backend(_)) => Err(CliError::usage(format!(
            "{err}; without a window, try `juggler export {} --out anim.gif`",
            shell_quote(&text)
        ))),
        Err(err @ WindowError::Screenshot(_)) => Err(CliError::usage(err.to_string())),
    }
}

/// The animation of `spec` (loaded from `text`), with the camera settings of the command
/// line winning over the pattern's own.
fn animate(
    text: &str,
    spec: &PatternSpec,
    view: ViewOverrides,
) -> Result<Box<dyn Animation>, LoadError> {
    match SceneAnimation::new(spec, view.over_pattern(spec)) {
        Ok(animation) => Ok(Box::new(animation)),
        Err(err) => Err(load_error(text, spec.source.text(), &err)),
    }
}

/// A playlist entry for one pattern of a file.
fn entry(spec: PatternSpec, view: ViewOverrides) -> Entry {
    Entry {
        text: spec.source.text().to_string(),
        load: Box::new(move || animate(spec.source.text(), &spec, view)),
    }
}

/// The error of an invalid pattern, with a caret under the problem when its column is known.
fn describe(text: &str, err: &LoadError) -> String {
    match err.column {
        Some(col) => format!(
            "invalid pattern: {}\n  {text}\n  {}^",
            err.message,
            " ".repeat(col)
        ),
        None => format!("invalid pattern '{text}': {}", err.message),
    }
}

/// The first line of a message (the window shows one line; the CLI adds hints below it).
fn first_line(message: &str) -> String {
    message.lines().next().unwrap_or("").trim().to_string()
}

/// `WxH` in pixels, each 200..=8192.
fn parse_size(s: &str) -> Result<(i32, i32), String> {
    let bad = || {
        format!(
            "--size: expected WIDTHxHEIGHT in pixels (200 to 8192 each), e.g. 500x400, got '{}'",
            escape_control(s)
        )
    };
    let (w, h) = s.trim().split_once(['x', 'X']).ok_or_else(bad)?;
    let w: i32 = w.trim().parse().map_err(|_| bad())?;
    let h: i32 = h.trim().parse().map_err(|_| bad())?;
    if !(200..=8192).contains(&w) || !(200..=8192).contains(&h) {
        return Err(bad());
    }
    Ok((w, h))
}

fn no_display_message(text: &str) -> String {
    format!(
        "no display to open the window on (DISPLAY and WAYLAND_DISPLAY are unset); \
         to make an animation without a window use `juggler export {} --out anim.gif`",
        shell_quote(text)
    )
}

/// The field's text of a typed siteswap or settings string with `--jugglers N` written in
/// (`975;jugglers=2`), so that it reloads as shown; other text as it is.
fn with_jugglers(text: String, options: &PatternOptions) -> String {
    use juggler::files::argument::{self, Argument, Source};
    let typed = matches!(
        argument::read(&text),
        Ok(Argument::Pattern {
            source: Source::Siteswap | Source::Settings,
            ..
        })
    );
    match &options.jugglers {
        Some(n) if typed => format!("{};jugglers={}", text.trim(), n.trim()),
        _ => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_field_shows_jugglers_given_on_the_command_line() {
        let options = PatternOptions {
            jugglers: Some("2".into()),
            ..PatternOptions::default()
        };
        assert_eq!(with_jugglers("975".into(), &options), "975;jugglers=2");
        assert_eq!(
            with_jugglers("pattern=975;bps=3".into(), &options),
            "pattern=975;bps=3;jugglers=2"
        );
        assert_eq!(with_jugglers("Mills Mess".into(), &options), "Mills Mess");
        assert_eq!(
            with_jugglers("975".into(), &PatternOptions::default()),
            "975"
        );
    }

    #[test]
    fn window_sizes() {
        assert_eq!(parse_size("500x400"), Ok((500, 400)));
        assert_eq!(parse_size(" 390X844 "), Ok((390, 844)));
        for bad in [
            "500", "x400", "0x400", "100x100", "9000x400", "-5x400", "axb", "",
        ] {
            assert!(
                parse_size(bad).unwrap_err().starts_with("--size: expected"),
                "{bad}"
            );
        }
    }

    #[test]
    fn an_unknown_name_typed_in_the_window_says_so_on_one_line() {
        let options = super::super::PatternOptions::default();
        let err = load_spec("Rubinstein's Revenge", &Choice::default(), &options).unwrap_err();
        let line = first_line(&err.message);
        assert_eq!(
            line,
            "no pattern named \"Rubinstein's Revenge\"; close matches: \"Rubenstein's Revenge\""
        );
        let err = load_spec("shower cascade", &Choice::default(), &options).unwrap_err();
        assert!(first_line(&err.message).starts_with("no pattern named \"shower cascade\""));
        // A mistyped siteswap is still a siteswap error with its column.
        let spec = load_spec("532", &Choice::default(), &options).unwrap();
        let err = animate("532", &spec, ViewOverrides::default())
            .err()
            .unwrap();
        assert!(!err.message.contains("no pattern named"), "{err:?}");
    }
}
