//! Timing: beats per second (Juggling Lab's automatic table), dwell and gravity, validated.

use thiserror::Error;

use super::flight::{self, BounceMode, BOUNCE_CONTACT_Y};
use super::positions::HAND_PLANE_Y;
use crate::schedule::{Schedule, ThrowKind};
use crate::settings::{keys, Settings};

/// Timing of the animation in seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Timing {
    /// Beats per second.
    pub bps: f64,
    /// Beats a hand holds a prop before throwing it.
    pub dwell: f64,
    /// m/s².
    pub gravity: f64,
}

/// Why a `Timing` could not be built: a setting out of its range.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum MotionError {
    /// `bps` outside [`keys::BPS`].
    #[error("{}", keys::BPS.error("bps", &keys::show(*.0)))]
    Bps(f64),
    /// `dwell` outside [`keys::DWELL`].
    #[error("{}", keys::DWELL.error("dwell", &keys::show(*.0)))]
    Dwell(f64),
    /// `gravity` outside [`keys::GRAVITY`].
    #[error("{}", keys::GRAVITY.error("gravity", &keys::show(*.0)))]
    Gravity(f64),
}

/// Beats per second Juggling Lab uses for patterns with no throw higher than 2.
pub(crate) const DEFAULT_BPS_LOW: f64 = 2.0;

/// Automatic tempo for clubs as a fraction of the ball tempo. Clubs are thrown higher and
/// slower than balls: a club must turn a whole number of times and is caught at the handle, so a
/// 3-club cascade of singles peaks at or above the top of the juggler's head (about 1.7 m for
/// the default adult), where the ball cascade peaks near the eyes. At 0.75 × 2.9 = 2.175 beats
/// per second the 3-club cascade's centres of mass peak about 0.8 m above the hands.
pub(crate) const CLUB_TEMPO: f64 = 0.75;

/// Juggling Lab's automatic tempo for one throw value (only values above 2 count).
fn bps_for_value(value: u32) -> f64 {
    match value {
        0..=3 => 2.90,
        4 => 3.40,
        5 => 4.10,
        6 => 4.25,
        7 | 8 => 5.00,
        _ => 5.50,
    }
}

/// Juggling Lab's automatic beats per second: the mean of a per-height tempo over every throw
/// element with value > 2 in one period; 2.0 when there is none.
///
/// A pattern on fine beats (Prechac, `Schedule::subdivision` of them per juggler beat) is timed
/// by its throws in the jugglers' own beats (a `3.5p` as a 4, rounded to the nearest), and its
/// tempo is in fine beats: the jugglers throw at the tempo of the same pattern in whole beats.
pub(crate) fn auto_bps(schedule: &Schedule) -> f64 {
    let fine = f64::from(schedule.subdivision.max(1));
    let (sum, count) = schedule
        .throws
        .iter()
        .map(|t| (f64::from(t.value) / fine).round() as u32)
        .filter(|&value| value > 2)
        .fold((0.0, 0usize), |(s, n), value| {
            (s + bps_for_value(value), n + 1)
        });
    fine * if count == 0 {
        DEFAULT_BPS_LOW
    } else {
        sum / count as f64
    }
}

impl Timing {
    /// Validated timing for a schedule: the user's bps, or Juggling Lab's automatic choice
    /// (slowed down, like Juggling Lab, when a bounce has too little time to reach the floor).
    pub fn new(schedule: &Schedule, settings: &Settings) -> Result<Timing, MotionError> {
        let dwell = settings.dwell.value();
        if !keys::DWELL.contains(dwell) {
            return Err(MotionError::Dwell(dwell));
        }
        let gravity = settings.gravity;
        if !keys::GRAVITY.contains(gravity) {
            return Err(MotionError::Gravity(gravity));
        }
        // The dwell is given in the jugglers' beats; the motion counts fine beats.
        let dwell = dwell * f64::from(schedule.subdivision.max(1));
        // The user's beats per second are the jugglers' beats too; the motion counts fine
        // beats.
        let bps = match settings.bps {
            Some(bps) if keys::BPS.contains(bps) => bps * f64::from(schedule.subdivision.max(1)),
            Some(bps) => return Err(MotionError::Bps(bps)),
            None => {
                let auto = auto_bps(schedule);
                let auto = if settings.prop == crate::types::PropKind::Club {
                    auto * CLUB_TEMPO
                } else {
                    auto
                };
                slow_for_bounces(
                    schedule,
                    auto,
                    dwell,
                    gravity,
                    settings.bounce_energy.unwrap_or(flight::BOUNCE_ENERGY),
                )
            }
        };
        Ok(Timing {
            bps,
            dwell,
            gravity,
        })
    }

    /// Seconds per beat.
    pub(crate) fn beat_seconds(&self) -> f64 {
        1.0 / self.bps
    }

    /// Convert a time in beats to seconds.
    pub(crate) fn seconds(&self, beats: f64) -> f64 {
        beats / self.bps
    }
}

/// Juggling Lab's rule: when a bounce's flight is shorter than the least time it needs,
/// divide bps by 1.01 × the worst ratio of needed to available time (props keeping the share
/// `energy` of their energy at each bounce).
fn slow_for_bounces(schedule: &Schedule, bps: f64, dwell: f64, gravity: f64, energy: f64) -> f64 {
    let mut worst: f64 = 1.0;
    for t in &schedule.throws {
        if let ThrowKind::Bounce {
            bounces,
            forced,
            hyper,
        } = t.kind
        {
            let mode = BounceMode::from_kind(bounces, forced, hyper);
            let available = (t.value as f64 - dwell) / bps;
            let h = HAND_PLANE_Y - BOUNCE_CONTACT_Y;
            if let Some(min) = flight::bounce_min_time(h, h, mode, gravity, energy) {
                if available > 0.0 && min > available {
                    worst = worst.max(min / available);
                }
            }
        }
    }
    if worst > 1.0 {
        bps / (1.01 * worst)
    } else {
        bps
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::motion::testutil::async_schedule;
    use crate::settings::Dwell;

    fn timing(pattern: &str, settings: &Settings) -> Result<Timing, MotionError> {
        Timing::new(&async_schedule(pattern), settings)
    }

    /// A Prechac pattern on half beats is timed like its whole-beat neighbour: `3.5p` as a
    /// 4 (3.40 juggler beats per second, 6.8 half beats), the dwell 1.3 juggler beats.
    #[test]
    fn fine_beats_are_timed_in_the_jugglers_beats() {
        let schedule = crate::schedule::from_notation("<3.5p|3.5px>").unwrap();
        assert_eq!(schedule.subdivision, 2);
        let t = Timing::new(&schedule, &Settings::default()).unwrap();
        assert!((t.bps - 6.8).abs() < 1e-12, "{}", t.bps);
        assert!((t.dwell - 2.6).abs() < 1e-12, "{}", t.dwell);
        let whole = timing("<4p|4p>", &Settings::default()).unwrap();
        assert!((t.bps / 2.0 - whole.bps).abs() < 1e-12);
    }

    #[test]
    fn automatic_bps_follows_juggling_labs_table() {
        let s = Settings::default();
        assert_eq!(timing("3", &s).unwrap().bps, 2.90);
        assert_eq!(timing("5", &s).unwrap().bps, 4.10);
        // 531: (4.10 + 2.90) / 2, the 1 does not count.
        assert!((timing("531", &s).unwrap().bps - 3.5).abs() < 1e-12);
        // 97531: (5.50 + 5.00 + 4.10 + 2.90) / 4.
        assert!((timing("97531", &s).unwrap().bps - 4.375).abs() < 1e-12);
        // Only 2s and 1s: JL's 2.0.
        assert_eq!(timing("20", &s).unwrap().bps, 2.0);
    }

    #[test]
    fn user_bps_dwell_and_gravity_are_kept() {
        let s = Settings {
            bps: Some(4.0),
            dwell: Dwell::Uniform(1.0),
            gravity: 9.0,
            ..Settings::default()
        };
        let t = timing("3", &s).unwrap();
        assert_eq!((t.bps, t.dwell, t.gravity), (4.0, 1.0, 9.0));
        assert_eq!(t.beat_seconds(), 0.25);
        assert_eq!(t.seconds(3.0), 0.75);
    }

    #[test]
    fn out_of_range_settings_are_named() {
        let bad = |s: Settings| timing("3", &s).unwrap_err();
        let d = Settings::default;
        assert_eq!(
            bad(Settings {
                dwell: Dwell::Uniform(0.0),
                ..d()
            }),
            MotionError::Dwell(0.0)
        );
        assert_eq!(
            bad(Settings {
                dwell: Dwell::Uniform(2.0),
                ..d()
            }),
            MotionError::Dwell(2.0)
        );
        assert!(matches!(
            bad(Settings {
                dwell: Dwell::Uniform(f64::NAN),
                ..d()
            }),
            MotionError::Dwell(_)
        ));
        assert_eq!(
            bad(Settings {
                bps: Some(0.0),
                ..d()
            }),
            MotionError::Bps(0.0)
        );
        assert_eq!(
            bad(Settings {
                bps: Some(-3.0),
                ..d()
            }),
            MotionError::Bps(-3.0)
        );
        assert!(matches!(
            bad(Settings {
                bps: Some(f64::INFINITY),
                ..d()
            }),
            MotionError::Bps(_)
        ));
        assert_eq!(
            bad(Settings {
                gravity: 0.0,
                ..d()
            }),
            MotionError::Gravity(0.0)
        );
        assert!(bad(Settings {
            dwell: Dwell::Uniform(2.5),
            ..d()
        })
        .to_string()
        .contains("dwell"));
        assert!(bad(Settings {
            gravity: -1.0,
            ..d()
        })
        .to_string()
        .contains("gravity"));
    }
}
