//! Frames per second of the interactive window (pattern + all controls, vsync off), measured by
//! running `juggler PATTERN --bench-frames N` on the current display, or under Xvfb when there
//! is none. Run with `cargo bench --bench window_fps`; the goal is 60 frames/s for all three.

use std::process::Command;

/// Ten jugglers, each running a 10-ball fountain: 100 props.
const TEN_JUGGLERS: &str = "<a|a|a|a|a|a|a|a|a|a>";

fn main() {
    // `cargo bench` passes `--bench`; under `cargo test --all-targets` this is only a quick
    // check that the measurement runs.
    let measuring = std::env::args().any(|a| a == "--bench");
    let frames = match std::env::var("JUGGLER_BENCH_FRAMES") {
        Ok(n) => n,
        Err(_) if measuring => "600".into(),
        Err(_) => "20".into(),
    };
    let exe = env!("CARGO_BIN_EXE_juggler");
    let has_display = std::env::var_os("DISPLAY").is_some_and(|d| !d.is_empty());
    for pattern in ["3", "97531", TEN_JUGGLERS] {
        let mut command = if has_display {
            Command::new(exe)
        } else {
            let mut c = Command::new("xvfb-run");
            c.args(["-a", "-s", "-screen 0 1280x720x24", exe]);
            c
        };
        command.args([pattern, "--bench-frames", &frames]);
        match command.output() {
            Ok(out) if out.status.success() => print!("{}", String::from_utf8_lossy(&out.stdout)),
            Ok(out) => eprintln!(
                "{pattern}: failed: {}",
                String::from_utf8_lossy(&out.stderr)
            ),
            Err(e) => {
                eprintln!("cannot run the window benchmark ({e}): needs a display or xvfb-run")
            }
        }
    }
}
