//! Helpers of the window tests: run the binary on a display (Xvfb when there is none) and
//! read back the PNG screenshots it writes.

#![allow(dead_code)]

use std::path::Path;
use std::process::{Command, Output};

/// Window size the screenshots have (the binary's default window size).
pub const WIDTH: usize = 1280;
pub const HEIGHT: usize = 720;
/// The juggling viewport: below the 48-pixel pattern bar, above the 64-pixel slider bar.
pub const VIEW_TOP: usize = 48;
pub const VIEW_BOTTOM: usize = HEIGHT - 64;
/// Left edge of the facts panel (bottom-right corner of the view, 250 wide, 12 from the edge).
pub const PANEL_LEFT: usize = WIDTH - 12 - 250;

/// `juggler ARGS` on a display: the current one, or a fresh Xvfb via `xvfb-run` when
/// `DISPLAY` is unset. Panics with a hint when neither is available.
pub fn run_on_display(args: &[&str]) -> Output {
    // One window at a time: `xvfb-run -a` picks display numbers racily.
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _guard = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let exe = env!("CARGO_BIN_EXE_juggler");
    let has_display = std::env::var_os("DISPLAY").is_some_and(|d| !d.is_empty());
    let mut command = if has_display {
        Command::new(exe)
    } else {
        let mut c = Command::new("xvfb-run");
        c.args(["-a", "-s", "-screen 0 1280x720x24", exe]);
        c
    };
    command.args(args);
    match command.output() {
        Ok(out) => out,
        Err(e) => panic!(
            "cannot run the window test ({e}): it needs an X display or xvfb-run \
             (./scripts/setup.sh installs Xvfb)"
        ),
    }
}

/// An RGB image read from a PNG.
pub struct Image {
    pub width: usize,
    pub height: usize,
    /// RGB triples, row by row from the top.
    pub pixels: Vec<[u8; 3]>,
}

impl Image {
    pub fn read(path: &Path) -> Image {
        let file = std::fs::File::open(path).expect("screenshot exists");
        let mut reader = png::Decoder::new(file).read_info().expect("a PNG");
        let mut buf = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut buf).expect("PNG data");
        let channels = info.color_type.samples();
        let pixels = buf[..info.buffer_size()]
            .chunks_exact(channels)
            .map(|p| [p[0], p[1], p[2]])
            .collect();
        Image {
            width: info.width as usize,
            height: info.height as usize,
            pixels,
        }
    }

    pub fn at(&self, x: usize, y: usize) -> [u8; 3] {
        self.pixels[y * self.width + x]
    }

    /// The most common colour in the rectangle: the background.
    pub fn dominant(&self, x0: usize, y0: usize, x1: usize, y1: usize) -> [u8; 3] {
        let mut counts = std::collections::HashMap::new();
        for y in y0..y1 {
            for x in x0..x1 {
                *counts.entry(self.at(x, y)).or_insert(0usize) += 1;
            }
        }
        counts
            .into_iter()
            .max_by_key(|&(_, n)| n)
            .map(|(c, _)| c)
            .unwrap_or([0, 0, 0])
    }

    /// Pixels of the rectangle that differ clearly (by more than 40 in some channel) from `bg`.
    pub fn count_unlike(&self, bg: [u8; 3], x0: usize, y0: usize, x1: usize, y1: usize) -> usize {
        let mut n = 0;
        for y in y0..y1 {
            for x in x0..x1 {
                let p = self.at(x, y);
                if (0..3).any(|i| p[i].abs_diff(bg[i]) > 40) {
                    n += 1;
                }
            }
        }
        n
    }

    /// Pixels of the rectangle that differ between two images of the same size.
    pub fn count_different(
        &self,
        other: &Image,
        x0: usize,
        y0: usize,
        x1: usize,
        y1: usize,
    ) -> usize {
        let mut n = 0;
        for y in y0..y1 {
            for x in x0..x1 {
                if self.at(x, y) != other.at(x, y) {
                    n += 1;
                }
            }
        }
        n
    }
}
