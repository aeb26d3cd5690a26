//! The documented range of every physical setting, checked in this one place for command-line
//! options, Juggling Lab settings strings, TOML and JML pattern files (and again by
//! `scene::Scene::new` for any other route). Inside these ranges every stage is finite: no
//! `NaN` or infinite position can come out of accepted input.
//!
//! | setting | range | unit |
//! |---|---|---|
//! | bps | 0.1 – 50 | beats per second |
//! | dwell | 0 – 2, both excluded | beats |
//! | gravity | 0.1 – 1000 | m/s² (settings strings: 10 – 100 000 cm/s²) |
//! | juggler position x, z | −1000 – 1000 | metres |
//! | juggler facing | −3600 – 3600 | degrees |
//! | hand (dwell) points x, y, z | −10 – 10 | metres |
//! | shoulder width, upper arm, forearm, hand | 0.01 – 5 | metres |
//! | shoulder height | 0.1 – 5 | metres |
//! | camera azimuth | −3600 – 3600 | degrees |
//! | camera elevation | −90 – 90 | degrees |
//! | camera distance | 0.1 – 10 000 | metres |
//! | times (`--time`, `--at`, ...) | any finite number | seconds (reduced modulo the loop) |

use std::fmt;

use crate::spec::{BodySpec, Settings};

/// A closed (or, where marked, open) interval of allowed values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Range {
    /// What the value is, as named in messages.
    pub what: &'static str,
    pub min: f64,
    pub max: f64,
    /// The bounds themselves are excluded.
    pub open: bool,
    /// Unit, for messages (may be empty).
    pub unit: &'static str,
}

pub const BPS: Range = Range::closed("bps (beats per second)", 0.1, 200.0, "");
pub const DWELL: Range = Range {
    what: "dwell",
    min: 0.0,
    max: 2.0,
    open: true,
    unit: "beats",
};
/// One beat's dwell of a hand siteswap (a hand free for many beats may hold that long).
pub const BEAT_DWELL: Range = Range::closed("beat dwell", 0.0, 10_000.0, "beats");
pub const GRAVITY: Range = Range::closed("gravity", 0.001, 1000.0, "m/s²");
/// Gravity as Juggling Lab settings strings write it.
pub const GRAVITY_CM: Range = Range::closed("gravity", 0.1, 100_000.0, "cm/s²");
pub const POSITION: Range = Range::closed("juggler position", -1000.0, 1000.0, "metres");
pub const FACING: Range = Range::closed("juggler facing", -3600.0, 3600.0, "degrees");
pub const HAND_POINT: Range = Range::closed("hand point coordinate", -10.0, 10.0, "metres");
pub const BODY_LENGTH: Range = Range::closed("body length", 0.01, 5.0, "metres");
pub const SHOULDER_HEIGHT: Range = Range::closed("shoulder height", 0.1, 5.0, "metres");
pub const AZIMUTH: Range = Range::closed("camera azimuth", -3600.0, 3600.0, "degrees");
pub const ELEVATION: Range = Range::closed("camera elevation", -90.0, 90.0, "degrees");
pub const CAMERA_DISTANCE: Range = Range::closed("camera distance", 0.1, 10_000.0, "metres");
pub const TIME: Range = Range::closed("time", f64::MIN, f64::MAX, "seconds");

/// A value outside its [`Range`].
#[derive(Clone, Debug, PartialEq)]
pub struct RangeError {
    pub range: Range,
    /// The value as given (in the checked unit).
    pub value: f64,
}

impl fmt::Display for RangeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = &self.range;
        let unit = if r.unit.is_empty() {
            String::new()
        } else {
            format!(" {}", r.unit)
        };
        if r.min == f64::MIN && r.max == f64::MAX {
            return write!(
                f,
                "{} must be a finite number of {}, not {}",
                r.what, r.unit, self.value
            );
        }
        let excluded = if r.open { " (excluded)" } else { "" };
        write!(
            f,
            "{} must be between {} and {}{excluded}{unit}, not {}",
            r.what,
            show(r.min),
            show(r.max),
            show(self.value)
        )
    }
}

impl std::error::Error for RangeError {}

/// A number as written in messages: plain, or in exponent form when very large or small.
pub fn show(v: f64) -> String {
    let a = v.abs();
    if a != 0.0 && a.is_finite() && !(1e-4..1e6).contains(&a) {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

impl Range {
    const fn closed(what: &'static str, min: f64, max: f64, unit: &'static str) -> Range {
        Range {
            what,
            min,
            max,
            open: false,
            unit,
        }
    }

    /// Whether `value` is allowed (never for NaN or infinities).
    pub fn contains(&self, value: f64) -> bool {
        value.is_finite()
            && if self.open {
                value > self.min && value < self.max
            } else {
                value >= self.min && value <= self.max
            }
    }

    /// `value` when it is allowed, else the error naming the range.
    pub fn check(&self, value: f64) -> Result<f64, RangeError> {
        if self.contains(value) {
            Ok(value)
        } else {
            Err(RangeError {
                range: *self,
                value,
            })
        }
    }

    /// The same range under another name (`"--bps"`, `"forearm"`).
    pub const fn named(self, what: &'static str) -> Range {
        Range { what, ..self }
    }
}

/// An `f32` setting as the `f64` it was written as (`1e30`, not `1.0000000150474662e30`).
fn wide(v: f32) -> f64 {
    v.to_string().parse().unwrap_or(f64::from(v))
}

fn check_body(body: &BodySpec) -> Result<(), RangeError> {
    let lengths = [
        ("shoulder width", body.shoulder_width),
        ("upper arm", body.upper_arm),
        ("forearm", body.forearm),
        ("hand", body.hand),
    ];
    for (name, value) in lengths {
        if let Some(v) = value {
            BODY_LENGTH.named(name).check(wide(v))?;
        }
    }
    if let Some(h) = body.shoulder_height {
        SHOULDER_HEIGHT.check(wide(h))?;
    }
    Ok(())
}

/// Checks every physical value of `settings` against its range.
pub fn check_settings(settings: &Settings) -> Result<(), RangeError> {
    if let Some(bps) = settings.bps {
        BPS.check(bps)?;
    }
    DWELL.check(settings.dwell)?;
    for d in &settings.beat_dwells {
        BEAT_DWELL.check(*d)?;
    }
    GRAVITY.check(settings.gravity)?;
    let moves = settings.body_moves.iter().flatten().flatten().flatten();
    for p in settings.placements.iter().chain(moves) {
        POSITION.check(wide(p.x))?;
        POSITION.check(wide(p.z))?;
        FACING.check(wide(p.facing_deg))?;
    }
    for points in settings
        .hand_positions
        .iter()
        .chain(settings.juggler_hand_positions.iter().flatten())
    {
        for v in points.throw.iter().chain(&points.catch) {
            HAND_POINT.check(wide(*v))?;
        }
    }
    if let Some(body) = &settings.body {
        check_body(body)?;
    }
    for body in &settings.bodies {
        check_body(body)?;
    }
    if let Some(camera) = &settings.camera {
        AZIMUTH.check(wide(camera.azimuth_deg))?;
        ELEVATION.check(wide(camera.elevation_deg))?;
        if let Some(d) = camera.distance {
            CAMERA_DISTANCE.check(wide(d))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::{CameraSpec, DwellPoints, PlacementSpec};

    #[test]
    fn ranges_include_their_bounds_unless_open() {
        assert!(
            BPS.contains(0.1) && BPS.contains(200.0) && BPS.contains(3.0) && !BPS.contains(200.1)
        );
        assert!(!BPS.contains(0.099) && !BPS.contains(1e-308) && !BPS.contains(f64::NAN));
        assert!(!DWELL.contains(0.0) && !DWELL.contains(2.0) && DWELL.contains(1.999));
        assert!(!GRAVITY.contains(1e308) && !GRAVITY.contains(f64::INFINITY));
        assert!(TIME.contains(1e17) && TIME.contains(-1e300) && !TIME.contains(f64::NAN));
        assert_eq!(
            BPS.check(0.05).unwrap_err().to_string(),
            "bps (beats per second) must be between 0.1 and 200, not 0.05"
        );
        assert_eq!(
            DWELL.check(2.0).unwrap_err().to_string(),
            "dwell must be between 0 and 2 (excluded) beats, not 2"
        );
        assert_eq!(GRAVITY.check(1e308).unwrap_err().value, 1e308);
        assert_eq!(
            TIME.named("--time")
                .check(f64::NAN)
                .unwrap_err()
                .to_string(),
            "--time must be a finite number of seconds, not NaN"
        );
    }

    #[test]
    fn every_setting_is_checked() {
        let ok = Settings::default();
        assert_eq!(check_settings(&ok), Ok(()));
        let bad: Vec<(Settings, &str)> = vec![
            (
                Settings {
                    bps: Some(1e-308),
                    ..ok.clone()
                },
                "bps (beats per second)",
            ),
            (
                Settings {
                    gravity: 1e308,
                    ..ok.clone()
                },
                "gravity",
            ),
            (
                Settings {
                    dwell: 0.0,
                    ..ok.clone()
                },
                "dwell",
            ),
            (
                Settings {
                    placements: vec![PlacementSpec {
                        x: 0.0,
                        z: 1e9,
                        facing_deg: 0.0,
                    }],
                    ..ok.clone()
                },
                "juggler position",
            ),
            (
                Settings {
                    placements: vec![PlacementSpec {
                        x: 0.0,
                        z: 0.0,
                        facing_deg: f32::NAN,
                    }],
                    ..ok.clone()
                },
                "juggler facing",
            ),
            (
                Settings {
                    hand_positions: vec![DwellPoints {
                        catch: [0.0; 3],
                        throw: [0.0, 1e30, 0.0],
                    }],
                    ..ok.clone()
                },
                "hand point coordinate",
            ),
            (
                Settings {
                    body: Some(BodySpec {
                        forearm: Some(1e6),
                        ..BodySpec::default()
                    }),
                    ..ok.clone()
                },
                "forearm",
            ),
            (
                Settings {
                    bodies: vec![BodySpec {
                        shoulder_height: Some(0.0),
                        ..BodySpec::default()
                    }],
                    ..ok.clone()
                },
                "shoulder height",
            ),
            (
                Settings {
                    camera: Some(CameraSpec {
                        azimuth_deg: 0.0,
                        elevation_deg: 0.0,
                        distance: Some(0.0),
                    }),
                    ..ok.clone()
                },
                "camera distance",
            ),
        ];
        for (settings, what) in bad {
            let err = check_settings(&settings).unwrap_err();
            assert_eq!(err.range.what, what, "{err}");
        }
    }
}
