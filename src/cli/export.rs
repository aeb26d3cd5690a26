//! `juggler export PATTERN --out DIR|FILE.gif|FILE.png|FILE.mp4|FILE.webm`: headless PNG
//! frames, an animated GIF or PNG, or a video.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use juggler::export::{self, ExportOptions, ExportRequest, ExportSummary, Format, Progress};
use juggler::render::{camera_with, PoseSource, ViewOverrides};
use juggler::scene::Scene;
use juggler::settings::keys;
use juggler::spec::PatternSpec;

use super::input::load_spec;
use super::learn::Learn;
use super::{CameraOptions, CliError, ExportArgs};

pub fn run(args: &ExportArgs) -> Result<u8, CliError> {
    // Every argument is checked before the pattern is loaded or anything is written.
    let learn = Learn::read(&args.learn)?;
    if learn.beats.is_some()
        && (args.loops.is_some() || args.duration.is_some() || args.start != 0.0)
    {
        return Err(CliError::usage(
            "give either --beats or --start, --loops and --duration, not both",
        ));
    }
    let mut request = ExportRequest {
        out: args.out.clone(),
        size: args.size.clone(),
        fps: args.fps,
        loops: args.loops,
        duration: args.duration,
        start: args.start,
        force: args.force,
        crf: args.crf,
        speed: learn.speed,
        sound: learn.sound,
    };
    let options = ExportOptions::new(&request).map_err(|e| CliError::usage(e.to_string()))?;
    // Ctrl-C, kill and hang-up remove the staging output before the process ends.
    export::staging::install_signal_cleanup()
        .map_err(|e| CliError::usage(format!("cannot set up signal handling: {e}")))?;
    let camera_args = camera_overrides(&args.camera)?;

    let spec = load_spec(&args.pattern, &args.choice.choice(), &args.options)?;
    let scene = Scene::new(&spec).map_err(|e| CliError::invalid(e.to_string()))?;
    learn.check_against(scene.jugglers(), scene.props())?;
    // `--beats A-B`: the pattern time of those beats (each juggler's beats).
    let options = match learn.beats {
        Some((from, to)) => {
            let bps = scene.beats_per_second();
            request.start = f64::from(from) / bps;
            request.duration = Some(f64::from(to - from) / bps);
            ExportOptions::new(&request).map_err(|e| CliError::usage(e.to_string()))?
        }
        None => options,
    };
    let source: &dyn PoseSource = &scene;
    let overrides = ViewOverrides {
        view: learn.view,
        ..camera_args
    }
    .over_pattern(&spec);
    let aspect = options.width() as f32 / options.height() as f32;
    let picture = learn.picture(source, camera_with(source, aspect, &overrides));

    let started = Instant::now();
    let progress = Bar::new(!args.quiet && std::io::stderr().is_terminal());
    let result = export::export(source, &picture, &options, &progress);
    progress.finish();
    // A signal arrived: its handler removes the staging output and ends the process with the
    // signal; an error caused by that removal is not reported.
    while export::staging::interrupted() {
        std::thread::park_timeout(Duration::from_millis(100));
    }
    let summary = result.map_err(|e| CliError::usage(e.to_string()))?;
    if !args.quiet {
        let line = describe(&spec, &summary, started.elapsed());
        super::print_out(&format!("{line}\n"))?;
    }
    Ok(0)
}

/// Camera angles and distance from the command line, checked against the settings table
/// (`settings::keys`, the ranges TOML's `camera` has too).
pub(super) fn camera_overrides(camera: &CameraOptions) -> Result<ViewOverrides, CliError> {
    let read = |number: &keys::Number, option: &str, text: &Option<String>| {
        text.as_deref()
            .map(|t| number.parse(option, t).map(|v| v as f32))
            .transpose()
            .map_err(|e| CliError::usage(e.to_string()))
    };
    let azimuth = read(&keys::AZIMUTH, "--azimuth", &camera.azimuth)?;
    let elevation = read(&keys::ELEVATION, "--elevation", &camera.elevation)?;
    let distance = read(&keys::CAMERA_DISTANCE, "--distance", &camera.distance)?;
    Ok(ViewOverrides {
        azimuth: azimuth.map(f32::to_radians),
        elevation: elevation.map(f32::to_radians),
        distance,
        ..ViewOverrides::default()
    })
}

/// The final line: what was written, how many frames, how long it took (then a note on the
/// loop, on a line of its own). The pattern's name and the path are escaped.
fn describe(spec: &PatternSpec, s: &ExportSummary, took: Duration) -> String {
    let path = s.path.display().to_string();
    let path = juggler::text::escape_control(&path);
    let what = match s.format {
        Format::PngFrames => format!("PNG frames in {path}"),
        Format::Apng if s.frames == 1 => format!("PNG {path}"),
        Format::Apng => format!("animated PNG {path}"),
        other => format!("{} {path}", other.name()),
    };
    let mut line = format!(
        "{}: wrote {what}: {} frames, {}x{}, {:.2} s of animation, {} in {:.2} s",
        juggler::text::escape_control(&spec.name),
        s.frames,
        s.width,
        s.height,
        s.duration,
        human_bytes(s.bytes),
        took.as_secs_f64()
    );
    if let Some(note) = loop_note(s) {
        line.push('\n');
        line.push_str(&note);
    }
    line
}

/// Loops longer than this are pointed out when the length was chosen by default.
const LONG_LOOP: f64 = 10.0;

/// What the user should know about the loop the export is made of.
fn loop_note(s: &ExportSummary) -> Option<String> {
    if !s.default_length {
        return None;
    }
    if s.loop_duration < s.full_loop - 1e-9 {
        Some(format!(
            "one loop of the picture ({:.2} s); props that look alike trade places, every prop is back in its own place after {:.2} s",
            s.loop_duration, s.full_loop
        ))
    } else if s.full_loop > LONG_LOOP {
        Some(format!(
            "the loop lasts {:.2} s, until every prop is back in its own place (props have their own colours): choose a length with --loops or --duration, or --color-by-orbit for a shorter loop",
            s.full_loop
        ))
    } else {
        None
    }
}

fn human_bytes(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 20 => format!("{:.1} MiB", b as f64 / (1 << 20) as f64),
        b if b >= 1 << 10 => format!("{:.0} KiB", b as f64 / (1 << 10) as f64),
        b => format!("{b} bytes"),
    }
}

/// An indicatif bar on stderr, or nothing.
struct Bar(Option<ProgressBar>);

impl Bar {
    fn new(visible: bool) -> Bar {
        Bar(visible.then(|| {
            let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
            if let Ok(style) = ProgressStyle::with_template(
                "{spinner} [{bar:40}] {pos}/{len} frames ({per_sec}, {eta})",
            ) {
                bar.set_style(style.progress_chars("=> "));
            }
            bar
        }))
    }

    fn finish(&self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}

impl Progress for Bar {
    fn start(&self, total: usize) {
        if let Some(bar) = &self.0 {
            bar.set_length(total as u64);
        }
    }
    fn advance(&self, frames: usize) {
        if let Some(bar) = &self.0 {
            bar.inc(frames as u64);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_counts_read_well() {
        assert_eq!(human_bytes(512), "512 bytes");
        assert_eq!(human_bytes(2048), "2 KiB");
        assert_eq!(human_bytes(3 * 1024 * 1024 + 512 * 1024), "3.5 MiB");
    }

    #[test]
    fn command_line_camera_wins_over_the_pattern() {
        let mut spec = PatternSpec::from_notation("3");
        spec.settings.camera = Some(juggler::settings::CameraSpec {
            azimuth_deg: 90.0,
            elevation_deg: 30.0,
            distance: Some(4.0),
        });
        let cli = ViewOverrides {
            azimuth: Some(0.5),
            elevation: None,
            distance: None,
            ..ViewOverrides::default()
        };
        let merged = cli.over_pattern(&spec);
        assert_eq!(merged.azimuth, Some(0.5));
        assert!((merged.elevation.unwrap() - 30f32.to_radians()).abs() < 1e-6);
        assert_eq!(merged.distance, Some(4.0));
    }

    #[test]
    fn bad_camera_options_are_usage_errors() {
        let bad = |c: CameraOptions| camera_overrides(&c).unwrap_err().code;
        assert_eq!(
            bad(CameraOptions {
                azimuth: Some("NaN".into()),
                ..Default::default()
            }),
            2
        );
        assert_eq!(
            bad(CameraOptions {
                elevation: Some("95".into()),
                ..Default::default()
            }),
            2
        );
        assert_eq!(
            bad(CameraOptions {
                distance: Some("0".into()),
                ..Default::default()
            }),
            2
        );
        assert!(camera_overrides(&CameraOptions {
            azimuth: Some("-30".into()),
            ..Default::default()
        })
        .is_ok());
    }
}
