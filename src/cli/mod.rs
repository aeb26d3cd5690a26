//! Command-line interface: clap definitions and dispatch. Each command lives in its own file
//! and only parses arguments, calls the library and prints; it never holds juggling logic.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

mod check;
mod convert;
mod diagram;
mod export;
mod gen;
mod input;
mod learn;
mod list;
mod pose;
mod tojml;
mod trans;
mod window;

/// The window's keys for learning, after `juggler --help` (F1 in the window lists them all).
const WINDOW_KEYS: &str = "Learning keys in the window: Ctrl+S/F5 sound, Ctrl+N/F6 throw labels, \
Ctrl+T/F7 trail, Ctrl+E/F8 next view (orbit, front, side, top, mirror, each juggler's eyes), \
Ctrl+Right/Ctrl+Left next/previous throw or catch, Ctrl+B/F9 loop beats (press at the first \
beat, at the last, then to clear). F1 in the window lists every key.";

/// Exit codes: 0 success, 1 invalid input (bad pattern, bad file), 2 usage or environment.
pub const EXIT_INVALID: u8 = 1;
pub const EXIT_USAGE: u8 = 2;

/// An error reported at the CLI edge: what to print and which exit code to use.
#[derive(Debug)]
pub struct CliError {
    pub code: u8,
    pub message: String,
}

impl CliError {
    pub fn invalid(message: impl Into<String>) -> Self {
        CliError {
            code: EXIT_INVALID,
            message: message.into(),
        }
    }
    pub fn usage(message: impl Into<String>) -> Self {
        CliError {
            code: EXIT_USAGE,
            message: message.into(),
        }
    }
}

#[derive(Parser, Debug)]
#[command(
    name = "juggler",
    version,
    about = "Juggling pattern animator: type a siteswap and watch it juggled",
    args_conflicts_with_subcommands = true,
    after_help = WINDOW_KEYS
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub view: ViewArgs,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Check siteswaps: validity and pattern facts
    Check(CheckArgs),
    /// Print the positions of hands, arms and props at one time
    Pose(PoseArgs),
    /// Export frames without a window: PNG sequence, animated GIF or PNG, MP4 or WebM video
    Export(ExportArgs),
    /// List the patterns of a directory or file with their facts
    List(ListArgs),
    /// Open a pattern (library name, file or siteswap) in the window
    Show(ViewArgs),
    /// Generate siteswaps: OBJECTS MAXTHROW PERIOD [Juggling Lab's generator options]
    Gen(GenArgs),
    /// Transitions between two siteswaps with the same number of props, and back
    Trans(TransArgs),
    /// Draw a ladder or causal diagram of a pattern as an SVG file
    Diagram(DiagramArgs),
    /// Write a pattern as event-based JML that Juggling Lab reads
    Tojml(TojmlArgs),
    /// Write a pattern as a file of another format: .jif (passist), .jml (Juggling Lab) or .toml
    Convert(ConvertArgs),
}

/// Timing and prop options shared by every command that animates.
#[derive(Args, Debug, Clone, Default)]
pub struct PatternOptions {
    /// Beats per second, 0.1 to 200 (default: chosen from the throw heights)
    #[arg(long)]
    pub bps: Option<String>,
    /// Beats a prop stays in the hand (0 < dwell < 2, default 1.3)
    #[arg(long)]
    pub dwell: Option<String>,
    /// Gravity in m/s², 0.001 to 1000 (default 9.81)
    #[arg(long)]
    pub gravity: Option<String>,
    /// Prop kind: ball, club or ring (every prop, also of a pattern that mixes kinds)
    #[arg(long)]
    pub prop: Option<String>,
    /// Colour props by orbit instead of one colour per prop
    #[arg(long)]
    pub color_by_orbit: bool,
    /// Jugglers sharing a plain siteswap, 1 to 26: `975 --jugglers 2` is the four-handed Holy
    /// Grail (hands A right, B right, A left, B left); a passing pattern must have as many
    #[arg(long, value_name = "N")]
    pub jugglers: Option<String>,
}

/// Camera options shared by the window and the export.
#[derive(Args, Debug, Clone, Default)]
pub struct CameraOptions {
    /// Camera azimuth in degrees around the vertical axis (0 = front)
    #[arg(long, allow_hyphen_values = true)]
    pub azimuth: Option<String>,
    /// Camera elevation in degrees above the horizon, -90 to 90 (the view stops at ±89)
    #[arg(long, allow_hyphen_values = true)]
    pub elevation: Option<String>,
    /// Camera distance in metres, 0.1 to 10000 (default: frame all jugglers)
    #[arg(long)]
    pub distance: Option<String>,
}

/// What the picture shows and plays to help learn a pattern: shared by the window and the
/// export.
#[derive(Args, Debug, Clone, Default)]
pub struct LearnOptions {
    /// Where the camera looks from: front, side, top, mirror (the front view mirrored: what
    /// the juggler sees in a mirror facing the audience) or eye (through a juggler's eyes,
    /// see --juggler); --azimuth, --elevation and --distance apply on top
    #[arg(long, value_name = "VIEW")]
    pub view: Option<String>,
    /// The juggler whose eyes --view eye looks through (1-based, default 1)
    #[arg(long, value_name = "N")]
    pub juggler: Option<usize>,
    /// Write each throw's value (5, 3p, 4x) by its prop as it leaves the hand
    #[arg(long)]
    pub labels: bool,
    /// Draw the path prop N (1-based) travels over one loop
    #[arg(long, value_name = "N")]
    pub trail: Option<usize>,
    /// Animation speed, 0.01 to 100: 1 is real time, 0.5 slow motion at the same beats per
    /// second (sounds stay on their catches)
    #[arg(long, value_name = "X")]
    pub speed: Option<f64>,
    /// Play sounds: catches and bounces, or a list of catches, throws, beats (a metronome)
    /// or all, e.g. --sound=catches,beats (videos get an AAC or Opus track)
    #[arg(
        long,
        value_name = "LIST",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "catches"
    )]
    pub sound: Option<String>,
    /// Play only beats A to B of the pattern, over and over, e.g. 2-5 (export: those beats)
    #[arg(long, value_name = "A-B")]
    pub beats: Option<String>,
}

#[derive(Args, Debug)]
pub struct ViewArgs {
    /// Siteswap, Juggling Lab settings string (pattern=...;bps=...), pattern file or library name
    pub pattern: Option<String>,
    /// Draw one frame, save it as a PNG screenshot and exit
    #[arg(long, value_name = "PNG")]
    pub screenshot: Option<PathBuf>,
    /// Overwrite an existing screenshot file (never a directory or device)
    #[arg(long, requires = "screenshot")]
    pub force: bool,
    /// Time in seconds of the screenshot frame
    #[arg(
        long,
        value_name = "T",
        default_value_t = 0.0,
        allow_hyphen_values = true
    )]
    pub at: f64,
    /// Multisampling in the window: samples per pixel (edges are already smoothed without it;
    /// 4 gives a little more polish on a GPU, costs a lot with software OpenGL)
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=16))]
    pub msaa: u8,
    /// Measure the window's frame rate over N frames and exit (for benchmarks)
    #[arg(long, value_name = "N", hide = true)]
    pub bench_frames: Option<u32>,
    /// Window size in pixels, e.g. 500x400 (default 1280x720)
    #[arg(long, value_name = "WxH")]
    pub size: Option<String>,
    /// Keys and clicks replayed when the window opens, e.g. "Mills{Enter}{F1}" or
    /// "{Ctrl+L}shower{Ctrl+D}" (with --screenshot: what the picture shows)
    #[arg(long, value_name = "SCRIPT")]
    pub keys: Option<String>,
    #[command(flatten)]
    pub choice: ChoiceArgs,
    #[command(flatten)]
    pub options: PatternOptions,
    #[command(flatten)]
    pub camera: CameraOptions,
    #[command(flatten)]
    pub learn: LearnOptions,
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Siteswap or Juggling Lab settings string
    #[arg(required_unless_present = "file")]
    pub pattern: Option<String>,
    /// Check every pattern of a file, one per line (blank lines and # comments skipped)
    #[arg(long, conflicts_with = "pattern")]
    pub file: Option<PathBuf>,
    /// Print JSON instead of a human summary
    #[arg(long)]
    pub json: bool,
    /// Jugglers sharing a plain siteswap (a 2N-handed siteswap: `975 --jugglers 2`)
    #[arg(long, value_name = "N")]
    pub jugglers: Option<String>,
}

#[derive(Args, Debug)]
#[command(after_help = GEN_HELP)]
pub struct GenArgs {
    /// OBJECTS MAXTHROW PERIOD, then options in Juggling Lab's spelling (see below)
    #[arg(
        required = true,
        num_args = 1..,
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "ARGS"
    )]
    pub args: Vec<String>,
}

const GEN_HELP: &str = "MAXTHROW may be '-' (unbounded: objects × period); PERIOD a number or a \
range (1-5, -5, 3-, '-'; an open period needs -prime).
Options (Juggling Lab's spelling):
  -n            print the number of patterns after them     -no   the number only
  -se           no get-in/get-out sequences; excited patterns marked with *
  -x RE ..      exclude patterns containing RE              -i RE ..  must contain RE
  -lame         no '11'
  -g            ground state only     -ng   excited state only
  -f            full listing (composite patterns too)       -prime    prime patterns only
  -rot          every rotation of each pattern
  -m N          multiplexing, at most N props thrown together
  -mf           allow catching props from different places at once (squeezes)
  -mc           no clustered throws such as [33]      -mt   a multiplex that is not a hold
  -s            synchronous patterns (even periods)
  -j N          N jugglers (passing)     -cp   connected patterns only
  -sym          juggler-symmetric patterns only       -jp   every juggler permutation
  -d N          communication delay in beats (implies -g)   -l N  leader for -d
  --json        one JSON object per line: pattern, period, ground_state, get_in, get_out
Regular expressions: [ ] ( ) | stand for themselves; \\[ \\] \\( \\) \\| are the operators.
Example: juggler gen 3 5 3   juggler gen 5 7 1-5 -x 2 3   juggler gen 8 - 9 -no
         juggler gen 4 6 4 -s   juggler gen 5 6 4 -m 2 -g -mt   juggler gen 6 4 2 -j 2";

#[derive(Args, Debug)]
pub struct TransArgs {
    /// The pattern to start from (asynchronous, synchronous, multiplex or passing siteswap)
    pub from: String,
    /// The pattern to go to
    pub to: String,
    /// Print JSON objects, one per line: from, to, throws, back, pattern
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct DiagramArgs {
    /// Siteswap or Juggling Lab settings string
    pub pattern: String,
    /// Output SVG file
    #[arg(long, short)]
    pub out: PathBuf,
    /// Diagram kind: ladder (hands as rails, throws as arcs) or causal (one row per juggler,
    /// each throw an arrow to the throw it causes)
    #[arg(long, default_value = "ladder")]
    pub kind: String,
    /// Replace an existing file
    #[arg(long)]
    pub force: bool,
    /// Jugglers sharing a plain siteswap (a 2N-handed siteswap: `975 --jugglers 2`)
    #[arg(long, value_name = "N")]
    pub jugglers: Option<String>,
}

#[derive(Args, Debug)]
pub struct ConvertArgs {
    /// Siteswap, settings string, pattern file or library name
    pub pattern: String,
    /// Output file; its extension names the format (.jif, .jml or .toml)
    #[arg(long, short)]
    pub out: Option<PathBuf>,
    /// The format to write (jif, jml or toml), e.g. to standard output without --out
    #[arg(long)]
    pub format: Option<String>,
    /// Replace an existing file
    #[arg(long, requires = "out")]
    pub force: bool,
    #[command(flatten)]
    pub choice: ChoiceArgs,
    #[command(flatten)]
    pub options: PatternOptions,
}

#[derive(Args, Debug)]
pub struct TojmlArgs {
    /// Siteswap, settings string, pattern file or library name
    pub pattern: String,
    /// Output JML file (default: standard output)
    #[arg(long, short)]
    pub out: Option<PathBuf>,
    /// Replace an existing file
    #[arg(long, requires = "out")]
    pub force: bool,
    #[command(flatten)]
    pub choice: ChoiceArgs,
    #[command(flatten)]
    pub options: PatternOptions,
}

#[derive(Args, Debug)]
pub struct PoseArgs {
    /// Siteswap, settings string or pattern file
    pub pattern: String,
    /// Time in seconds
    #[arg(long, short, default_value_t = 0.0, allow_hyphen_values = true)]
    pub time: f64,
    /// Print JSON
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub choice: ChoiceArgs,
    #[command(flatten)]
    pub options: PatternOptions,
}

#[derive(Args, Debug)]
pub struct ExportArgs {
    /// Siteswap, settings string, pattern file or library name
    pub pattern: String,
    /// Output: a file ending in .gif, .png/.apng (animated PNG), .mp4 (H.264) or .webm
    /// (VP9; video needs ffmpeg), or a directory for PNG frames
    #[arg(long, short)]
    pub out: PathBuf,
    /// Image size in pixels, WxH
    #[arg(long, default_value = "640x480")]
    pub size: String,
    /// Frames per second
    #[arg(long, default_value_t = 30.0, allow_hyphen_values = true)]
    pub fps: f64,
    /// Number of loops (default 1). When props look alike (one colour, or coloured by
    /// orbit) a loop is one period of the picture; with per-prop colours it lasts until every
    /// prop is back in its own place
    #[arg(long, conflicts_with = "duration")]
    pub loops: Option<u32>,
    /// Duration in seconds (instead of whole loops)
    #[arg(long, allow_hyphen_values = true)]
    pub duration: Option<f64>,
    /// Start time in seconds (of the pattern)
    #[arg(long, default_value_t = 0.0, allow_hyphen_values = true)]
    pub start: f64,
    /// Overwrite existing output
    #[arg(long)]
    pub force: bool,
    /// Video quality for .mp4/.webm (constant rate factor; lower is better and larger;
    /// default 20 for MP4, 32 for WebM)
    #[arg(long)]
    pub crf: Option<u32>,
    /// No progress bar or summary line
    #[arg(long, short)]
    pub quiet: bool,
    #[command(flatten)]
    pub choice: ChoiceArgs,
    #[command(flatten)]
    pub options: PatternOptions,
    #[command(flatten)]
    pub camera: CameraOptions,
    #[command(flatten)]
    pub learn: LearnOptions,
}

#[derive(Args, Debug)]
pub struct ListArgs {
    /// Directory or pattern file (default: the shipped patterns/ library)
    pub path: Option<PathBuf>,
    /// One JSON object per pattern and line: index, file, line, name, siteswap, prop, valid,
    /// props, jugglers, period, or the error when not valid
    #[arg(long)]
    pub json: bool,
    /// Read every plain siteswap as shared by N jugglers, 1 to 26 (a list of four-handed
    /// siteswaps such as `975` with 2); a passing pattern must have as many
    #[arg(long, value_name = "N")]
    pub jugglers: Option<String>,
}

/// Which pattern of a file (or library file) to take.
#[derive(Args, Debug, Clone, Default)]
pub struct ChoiceArgs {
    /// The pattern of a file to use, 1-based, as `juggler list FILE` numbers them
    #[arg(long, value_name = "N", conflicts_with = "name")]
    pub index: Option<usize>,
    /// The pattern of a file to use, by name (case-insensitive; -, _ and spaces alike)
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
}

impl ChoiceArgs {
    pub fn choice(&self) -> juggler::files::argument::Choice {
        juggler::files::argument::Choice {
            index: self.index,
            name: self.name.clone(),
        }
    }
}

/// Writes `text` to standard output. A reader that stopped early (`juggler list | head`) is
/// not an error: the rest of the output is simply dropped.
pub fn print_out(text: &str) -> Result<(), CliError> {
    write_out(text).map(|_| ())
}

/// Like [`print_out`], telling whether the reader is still there (`false` once the pipe is
/// closed), so that a command printing as it goes can stop.
pub fn write_out(text: &str) -> Result<bool, CliError> {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(false),
        Err(e) => Err(CliError::usage(format!(
            "cannot write to standard output: {e}"
        ))),
    }
}

/// Writes `text` to standard error, ignoring failures: a message that cannot be shown (stderr
/// closed or full) must not turn an error into a crash.
pub fn print_err(text: &str) {
    use std::io::Write;
    let mut stderr = std::io::stderr().lock();
    let _ = stderr
        .write_all(text.as_bytes())
        .and_then(|()| stderr.flush());
}

/// Prints clap's help, version or usage error like clap would, but through [`print_out`] /
/// [`print_err`]: `--help > /dev/full` is an error (exit 2), not a silent success.
fn clap_exit(e: &clap::Error) -> ExitCode {
    use std::io::IsTerminal;
    let styled = e.render();
    if e.use_stderr() {
        let text = if std::io::stderr().is_terminal() {
            styled.ansi().to_string()
        } else {
            styled.to_string()
        };
        print_err(&text);
        return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(EXIT_USAGE));
    }
    let text = if std::io::stdout().is_terminal() {
        styled.ansi().to_string()
    } else {
        styled.to_string()
    };
    match print_out(&text) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            // User text inside messages (a pattern, a file's content) is shown escaped.
            let message = juggler::text::escape_control_lines(&err.message);
            print_err(&format!("juggler: {message}\n"));
            ExitCode::from(err.code)
        }
    }
}

/// Parse arguments, run the command, map the result to an exit code.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return clap_exit(&e),
    };
    let result = match cli.command {
        Some(Command::Check(args)) => check::run(&args),
        Some(Command::Pose(args)) => pose::run(&args),
        Some(Command::Export(args)) => export::run(&args),
        Some(Command::List(args)) => list::run(&args),
        Some(Command::Show(args)) => window::run(&args),
        Some(Command::Gen(args)) => gen::run(&args),
        Some(Command::Trans(args)) => trans::run(&args),
        Some(Command::Diagram(args)) => diagram::run(&args),
        Some(Command::Tojml(args)) => tojml::run(&args),
        Some(Command::Convert(args)) => convert::run(&args),
        None => window::run(&cli.view),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(err) => {
            // User text inside messages (a pattern, a file's content) is shown escaped.
            let message = juggler::text::escape_control_lines(&err.message);
            print_err(&format!("juggler: {message}\n"));
            ExitCode::from(err.code)
        }
    }
}
