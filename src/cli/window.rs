//! `juggler [PATTERN]` / `juggler show PATTERN`: the interactive window, its screenshot mode
//! and its hidden frame-rate measurement.

use juggler::app::scene_animation::{load_error, SceneAnimation};
use juggler::app::{
    self, display, screenshot, Animation, Entry, LoadError, Loader, Mode, Outcome, WindowError,
    WindowOptions,
};
use juggler::render::camera::ViewOverrides;
use juggler::spec::PatternSpec;

use super::export::{camera_overrides, merge_camera};
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
        [only] if choice.is_some() => (only.clone(), only.notation.clone()),
        [only] => (only.clone(), text),
        [first, ..] => (first.clone(), first.notation.clone()),
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
    let options = args.options.clone();
    let loader: Loader = Box::new(move |typed: &str| {
        let spec = load_spec(typed, &Choice::default(), &options)
            .map_err(|e| LoadError::new(e.message, None))?;
        animate(typed, &spec, view)
    });
    let outcome = app::run(WindowOptions {
        title: format!("juggler - {}", spec.name),
        text: text.clone(),
        animation,
        loader,
        playlist,
        mode,
        size: app::DEFAULT_SIZE,
        msaa: args.msaa,
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
    match SceneAnimation::new(spec, merge_camera(view, spec)) {
        Ok(animation) => Ok(Box::new(animation)),
        Err(err) => Err(load_error(text, &spec.notation, &err)),
    }
}

/// A playlist entry for one pattern of a file.
fn entry(spec: PatternSpec, view: ViewOverrides) -> Entry {
    Entry {
        text: spec.notation.clone(),
        load: Box::new(move || animate(&spec.notation, &spec, view)),
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

fn no_display_message(text: &str) -> String {
    format!(
        "no display to open the window on (DISPLAY and WAYLAND_DISPLAY are unset); \
         to make an animation without a window use `juggler export {} --out anim.gif`",
        shell_quote(text)
    )
}
