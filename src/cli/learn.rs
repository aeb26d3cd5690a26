//! The options that help learn a pattern (`--view`, `--juggler`, `--labels`, `--trail`,
//! `--speed`, `--sound`, `--beats`), read and checked once for the window and the export.

use juggler::render::{trail_of, Picture, PoseSource, ViewKind};
use juggler::sound::SoundParts;

use super::{CliError, LearnOptions};

/// Slowest and fastest `--speed`.
const MIN_SPEED: f64 = 0.01;
const MAX_SPEED: f64 = 100.0;

/// [`LearnOptions`] read and checked.
#[derive(Clone, Debug, PartialEq)]
pub struct Learn {
    pub view: ViewKind,
    pub labels: bool,
    /// 0-based prop.
    pub trail: Option<usize>,
    pub speed: f64,
    pub sound: Option<SoundParts>,
    /// Beats `(from, to)`, `from < to`.
    pub beats: Option<(u32, u32)>,
}

impl Learn {
    pub fn read(options: &LearnOptions) -> Result<Learn, CliError> {
        let mut view = match &options.view {
            Some(v) => ViewKind::parse(v).map_err(|e| CliError::usage(format!("--view: {e}")))?,
            None => ViewKind::Auto,
        };
        if let Some(n) = options.juggler {
            if n == 0 {
                return Err(CliError::usage("--juggler counts from 1"));
            }
            match view {
                ViewKind::Eye(_) => view = ViewKind::Eye(n - 1),
                _ => return Err(CliError::usage("--juggler is for --view eye")),
            }
        }
        if options.trail == Some(0) {
            return Err(CliError::usage("--trail counts props from 1"));
        }
        let speed = options.speed.unwrap_or(1.0);
        if !(MIN_SPEED..=MAX_SPEED).contains(&speed) {
            return Err(CliError::usage(format!(
                "--speed must be a number from {MIN_SPEED} to {MAX_SPEED} (1 = real time), got {speed}"
            )));
        }
        let sound = options
            .sound
            .as_deref()
            .map(SoundParts::parse)
            .transpose()
            .map_err(|e| CliError::usage(format!("--sound: {e}")))?;
        let beats = options.beats.as_deref().map(parse_beats).transpose()?;
        Ok(Learn {
            view,
            labels: options.labels,
            trail: options.trail.map(|n| n - 1),
            speed,
            sound,
            beats,
        })
    }

    /// Checks the options against the pattern: the eye view's juggler and the trail's prop
    /// must exist.
    pub fn check_against(&self, jugglers: usize, props: usize) -> Result<(), CliError> {
        if let ViewKind::Eye(j) = self.view {
            if j >= jugglers {
                return Err(CliError::usage(format!(
                    "--juggler {}: the pattern has {jugglers} juggler{}",
                    j + 1,
                    if jugglers == 1 { "" } else { "s" }
                )));
            }
        }
        if let Some(p) = self.trail {
            if p >= props {
                return Err(CliError::usage(format!(
                    "--trail {}: the pattern has {props} prop{}",
                    p + 1,
                    if props == 1 { "" } else { "s" }
                )));
            }
        }
        Ok(())
    }

    /// The picture of `source` through `camera` with these labels and trail.
    pub fn picture(&self, source: &dyn PoseSource, camera: juggler::render::Camera) -> Picture {
        Picture {
            camera,
            labels: self.labels,
            trail: self.trail.and_then(|p| trail_of(source, p)),
        }
    }
}

/// `A-B`: beats A (included) to B (excluded), whole numbers with A < B.
fn parse_beats(text: &str) -> Result<(u32, u32), CliError> {
    let bad = || {
        CliError::usage(format!(
            "--beats: expected two beats A-B with A < B, e.g. 2-5, got '{}'",
            juggler::text::escape_control(text)
        ))
    };
    let (a, b) = text.trim().split_once('-').ok_or_else(bad)?;
    let a: u32 = a.trim().parse().map_err(|_| bad())?;
    let b: u32 = b.trim().parse().map_err(|_| bad())?;
    if a >= b || b > 100_000 {
        return Err(bad());
    }
    Ok((a, b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(f: impl FnOnce(&mut LearnOptions)) -> Result<Learn, CliError> {
        let mut o = LearnOptions::default();
        f(&mut o);
        Learn::read(&o)
    }

    #[test]
    fn views_jugglers_and_props_are_checked() {
        let l = read(|o| {
            o.view = Some("eye".into());
            o.juggler = Some(2);
        })
        .unwrap();
        assert_eq!(l.view, ViewKind::Eye(1));
        assert!(l.check_against(2, 6).is_ok());
        assert!(l
            .check_against(1, 3)
            .unwrap_err()
            .message
            .contains("has 1 juggler"));
        assert_eq!(
            read(|o| o.view = Some("mirror".into())).unwrap().view,
            ViewKind::Mirror
        );
        let e = read(|o| o.view = Some("back".into())).unwrap_err();
        assert!(e.message.contains("unknown view 'back'"), "{}", e.message);
        assert_eq!(e.code, 2);
        assert!(read(|o| o.juggler = Some(1)).is_err());
        let t = read(|o| o.trail = Some(3)).unwrap();
        assert_eq!(t.trail, Some(2));
        assert!(t.check_against(1, 3).is_ok() && t.check_against(1, 2).is_err());
        assert!(read(|o| o.trail = Some(0)).is_err());
    }

    #[test]
    fn speed_sound_and_beats_are_read() {
        let l = read(|o| {
            o.speed = Some(0.5);
            o.sound = Some("catches,beats".into());
            o.beats = Some("2-5".into());
        })
        .unwrap();
        assert_eq!(l.speed, 0.5);
        assert_eq!(l.sound.map(SoundParts::names), Some("catches,beats".into()));
        assert_eq!(l.beats, Some((2, 5)));
        for bad in ["5-2", "3-3", "a-b", "4", "-1-2"] {
            assert!(read(|o| o.beats = Some(bad.into())).is_err(), "{bad}");
        }
        assert!(read(|o| o.speed = Some(0.0)).is_err());
        assert!(read(|o| o.speed = Some(f64::NAN)).is_err());
        assert!(read(|o| o.sound = Some("pops".into())).is_err());
        assert_eq!(read(|_| {}).unwrap().sound, None);
    }
}
