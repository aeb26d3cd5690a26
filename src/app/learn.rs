//! What helps a learner, as plain data: sound on or off (and which sounds), throw labels, a
//! prop's trail, the view (orbit, front, side, top, mirror, a juggler's eyes), a stretch of
//! beats played over and over, and stepping from throw to catch. The pattern's side of it
//! ([`Rhythm`]: when its throws and catches happen, how long a beat is) is handed in by the
//! front end after every load; no macroquad here.

use crate::render::ViewKind;
use crate::sound::SoundParts;

/// A moment closer than this (seconds) to the clock counts as the moment it is on: stepping
/// goes on to the next one.
const SAME_MOMENT: f64 = 1e-9;

/// When the pattern playing throws and catches, and its tempo.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Rhythm {
    /// Every throw and catch time of one loop, in `[0, loop)`, sorted, each once.
    pub event_times: Vec<f64>,
    /// Seconds per beat (> 0).
    pub beat_seconds: f64,
    /// Beats in one loop of the animation.
    pub loop_beats: u32,
    pub jugglers: usize,
}

impl Rhythm {
    /// A rhythm with these throw and catch `times` (any order, repeats allowed; those
    /// outside `[0, loop_duration)` or not finite are dropped).
    pub fn new(mut times: Vec<f64>, loop_duration: f64, beat_seconds: f64, jugglers: usize) -> Self {
        times.retain(|t| t.is_finite() && *t >= 0.0 && *t < loop_duration);
        times.sort_by(f64::total_cmp);
        times.dedup_by(|a, b| (*a - *b).abs() < SAME_MOMENT);
        let beat_seconds = if beat_seconds.is_finite() && beat_seconds > 0.0 {
            beat_seconds
        } else {
            1.0
        };
        let beats = (loop_duration / beat_seconds).round();
        Rhythm {
            event_times: times,
            beat_seconds,
            loop_beats: if beats.is_finite() && beats >= 1.0 {
                beats.min(f64::from(u32::MAX)) as u32
            } else {
                1
            },
            jugglers: jugglers.max(1),
        }
    }
}

/// Beats `from` (included) to `to` (excluded) played over and over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BeatLoop {
    pub from: u32,
    pub to: u32,
}

/// The learner's choices.
#[derive(Clone, Debug, PartialEq)]
pub struct Learning {
    /// Whether the sounds play.
    pub sound: bool,
    /// Which sounds play when they do.
    pub parts: SoundParts,
    /// Each throw's value written by its prop.
    pub labels: bool,
    /// The prop (0-based) whose path over one loop is drawn.
    pub trail: Option<usize>,
    pub view: ViewKind,
    /// The stretch of beats played over and over.
    pub beat_loop: Option<BeatLoop>,
    /// The first beat of a stretch being marked (the loop key's first press).
    pub loop_mark: Option<u32>,
}

impl Default for Learning {
    /// Silent, unlabelled, the automatic view, the whole loop.
    fn default() -> Self {
        Learning {
            sound: false,
            parts: SoundParts::CATCHES,
            labels: false,
            trail: None,
            view: ViewKind::Auto,
            beat_loop: None,
            loop_mark: None,
        }
    }
}

impl Learning {
    /// The view asked for: another view, or (asking for the eyes while looking through
    /// them) the next juggler's eyes.
    pub fn choose_view(&mut self, view: ViewKind, jugglers: usize) {
        self.view = match (self.view, view) {
            (ViewKind::Eye(now), ViewKind::Eye(0)) if jugglers > 1 => {
                ViewKind::Eye((now + 1) % jugglers)
            }
            (_, ViewKind::Eye(n)) => ViewKind::Eye(n.min(jugglers.max(1) - 1)),
            (_, other) => other,
        };
    }

    /// The trail key: off, else on for `prop` (the highlighted prop, or the first).
    pub fn toggle_trail(&mut self, prop: Option<usize>) {
        self.trail = match self.trail {
            Some(_) => None,
            None => Some(prop.unwrap_or(0)),
        };
    }

    /// The loop key at beat `beat` of a pattern of `loop_beats` beats: the first press marks
    /// where the stretch starts, the second where it ends (after the beat it is on; a stretch
    /// wraps past the loop's end), the third plays the whole loop again.
    pub fn mark_loop(&mut self, beat: u32, loop_beats: u32) {
        if self.beat_loop.take().is_some() {
            self.loop_mark = None;
            return;
        }
        match self.loop_mark.take() {
            None => self.loop_mark = Some(beat),
            Some(from) => {
                let mut to = beat.saturating_add(1);
                if to <= from {
                    to = to.saturating_add(loop_beats.max(1));
                }
                self.beat_loop = Some(BeatLoop { from, to });
            }
        }
    }
}

/// What the window starts with (the command line's `--sound --labels --trail --view
/// --juggler --speed --beats`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Seed {
    pub learning: Learning,
    /// Playback speed (any in `[MIN_SPEED, MAX_SPEED]`, not only the offered ones).
    pub speed: Option<f64>,
}

impl Seed {
    /// Gives `app` these choices (after its first pattern's rhythm is set).
    pub fn seed(&self, app: &mut super::state::AppState) {
        let beat_loop = self.learning.beat_loop;
        app.learn = Learning {
            beat_loop: None,
            ..self.learning.clone()
        };
        if let Some(speed) = self.speed {
            app.playback.set_exact_speed(speed);
        }
        app.apply(super::state::Action::LoopBeats(beat_loop));
    }
}

/// Which way to step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Forward,
    Back,
}

/// The throw or catch time to step to from time `now`, in the cycle of `length` seconds from
/// `start` within a loop of `loop_duration` (the whole loop, or a stretch of it): the next one
/// after `now` (or the previous one), round the cycle; one of `times` exactly. `None` when no
/// time lies in the cycle.
pub fn step_target(
    times: &[f64],
    now: f64,
    (start, length): (f64, f64),
    loop_duration: f64,
    direction: Direction,
) -> Option<f64> {
    let offset = |t: f64| (t - start).rem_euclid(loop_duration);
    let inside: Vec<(f64, f64)> = times
        .iter()
        .map(|&t| (offset(t), t))
        .filter(|(o, _)| *o < length)
        .collect();
    let here = offset(now);
    // A clock outside the stretch steps to the stretch's first or last moment.
    let here = if here < length {
        here
    } else if direction == Direction::Forward {
        -1.0
    } else {
        f64::MAX
    };
    let by_offset = |a: &&(f64, f64), b: &&(f64, f64)| a.0.total_cmp(&b.0);
    let found = match direction {
        Direction::Forward => inside
            .iter()
            .filter(|(o, _)| *o > here + SAME_MOMENT)
            .min_by(by_offset)
            .or_else(|| inside.iter().min_by(by_offset)),
        Direction::Back => inside
            .iter()
            .filter(|(o, _)| *o < here - SAME_MOMENT)
            .max_by(by_offset)
            .or_else(|| inside.iter().max_by(by_offset)),
    };
    found.map(|(_, t)| *t)
}
