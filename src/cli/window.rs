//! `juggler [PATTERN]` / `juggler show PATTERN`: the interactive window, its screenshot mode
//! and its hidden frame-rate measurement.

use juggler::render::window::{
    self, demo::Demo, display, Animation, LoadError, Loader, Mode, Outcome, WindowError,
    WindowOptions,
};

use super::{CliError, PatternOptions, ViewArgs};

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
    let animation =
        load(&text, &args.options).map_err(|e| CliError::invalid(describe(&text, &e)))?;
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
    let loader: Loader = Box::new(move |typed: &str| load(typed, &options));
    let outcome = window::run(WindowOptions {
        title: format!("juggler - {text}"),
        text: text.clone(),
        animation,
        loader,
        mode,
        size: window::DEFAULT_SIZE,
        msaa: args.msaa,
    });
    match outcome {
        Ok(Outcome::Closed) => Ok(0),
        Ok(Outcome::Screenshot {
            path,
            width,
            height,
        }) => {
            println!(
                "saved {}x{} screenshot to {}",
                width,
                height,
                path.display()
            );
            Ok(0)
        }
        Ok(Outcome::Bench { frames, seconds }) => {
            let fps = f64::from(frames) / seconds.max(1e-9);
            println!("{text}: {frames} frames in {seconds:.2} s = {fps:.1} frames/s");
            Ok(0)
        }
        Err(WindowError::NoDisplay) => Err(CliError::usage(no_display_message(&text))),
        Err(err @ WindowError::Backend(_)) => Err(CliError::usage(format!(
            "{err}; without a window, try `juggler export {text} --out anim.gif`"
        ))),
        Err(err @ WindowError::Screenshot(_)) => Err(CliError::usage(err.to_string())),
    }
}

/// Turns a pattern argument or typed text into an animation.
fn load(text: &str, _options: &PatternOptions) -> Result<Box<dyn Animation>, LoadError> {
    Ok(Box::new(Demo::load(text)?))
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
         to make an animation without a window use `juggler export {text} --out anim.gif`"
    )
}
