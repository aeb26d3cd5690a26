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
    pub fn new(
        mut times: Vec<f64>,
        loop_duration: f64,
        beat_seconds: f64,
        jugglers: usize,
    ) -> Self {
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

/// The learning choices a share link carries: `view=mirror`, `labels=1`, `trail=2` (a prop
/// counted from 1), `beats=2-5`. Sound is not among them: a page may start sound only after
/// the user asks for it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LearnLink {
    pub view: Option<ViewKind>,
    pub labels: bool,
    /// 0-based prop.
    pub trail: Option<usize>,
    pub beats: Option<BeatLoop>,
}

impl LearnLink {
    /// The keys [`LearnLink::set`] reads.
    pub const KEYS: [&'static str; 4] = ["view", "labels", "trail", "beats"];

    /// The link's `key=value` (one of [`LearnLink::KEYS`]); a bad value is an error.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), String> {
        let bad = |what: &str| format!("{key}={value} in the link: {what}");
        let value = value.trim();
        match key {
            "view" => self.view = Some(ViewKind::parse(value).map_err(|e| bad(&e))?),
            "labels" => {
                self.labels = match value {
                    "1" | "true" | "on" | "" => true,
                    "0" | "false" | "off" => false,
                    _ => return Err(bad("expected 1 or 0")),
                }
            }
            "trail" => match value.parse::<usize>() {
                Ok(n) if n >= 1 => self.trail = Some(n - 1),
                _ => return Err(bad("expected a prop, counted from 1")),
            },
            "beats" => {
                let stretch = value.split_once('-').and_then(|(a, b)| {
                    Some(BeatLoop {
                        from: a.trim().parse().ok()?,
                        to: b.trim().parse().ok()?,
                    })
                });
                match stretch {
                    Some(s) if s.from < s.to => self.beats = Some(s),
                    _ => return Err(bad("expected A-B with A < B")),
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// The link's pairs, in [`LearnLink::KEYS`] order, for what is chosen.
    pub fn pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs = Vec::new();
        if let Some(view) = self.view.filter(|v| *v != ViewKind::Auto) {
            pairs.push(("view", view.name()));
        }
        if self.labels {
            pairs.push(("labels", "1".to_string()));
        }
        if let Some(prop) = self.trail {
            pairs.push(("trail", (prop + 1).to_string()));
        }
        if let Some(b) = self.beats {
            pairs.push(("beats", format!("{}-{}", b.from, b.to)));
        }
        pairs
    }

    /// The link of what `learning` shows.
    pub fn of(learning: &Learning) -> LearnLink {
        LearnLink {
            view: Some(learning.view),
            labels: learning.labels,
            trail: learning.trail,
            beats: learning.beat_loop,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::animation::Animation;
    use crate::app::scene_animation::SceneAnimation;
    use crate::app::state::{Action, AppState, Orbit};
    use crate::scene::{EventKind, Scene};
    use crate::spec::PatternSpec;

    fn app_playing(notation: &str) -> (AppState, Scene) {
        let spec = if notation.contains(';') {
            PatternSpec::parse(notation).unwrap()
        } else {
            PatternSpec::from_notation(notation)
        };
        let animation = SceneAnimation::new(&spec, Default::default()).unwrap();
        let mut app = AppState::new(notation, animation.loop_duration(), Orbit::new(0.0, 10.0));
        app.set_rhythm(animation.rhythm());
        (app, Scene::new(&spec).unwrap())
    }

    /// Every throw and catch time of one loop, as the scene reports them.
    fn throws_and_catches(scene: &Scene) -> Vec<f64> {
        let mut times: Vec<f64> = scene
            .events_between(0.0, scene.loop_duration())
            .into_iter()
            .filter(|e| matches!(e.kind, EventKind::Throw | EventKind::Catch))
            .map(|e| e.time)
            .collect();
        times.sort_by(f64::total_cmp);
        // Two hands' events a rounding error apart (a sync pattern's) are one moment.
        times.dedup_by(|a, b| (*a - *b).abs() < SAME_MOMENT);
        times
    }

    #[test]
    fn stepping_lands_exactly_on_every_throw_and_catch_in_order() {
        for notation in ["531", "(4,2x)*", "<3p|3p>", "[33]33"] {
            let (mut app, scene) = app_playing(notation);
            let times = throws_and_catches(&scene);
            assert!(times.len() >= 4, "{notation}");
            // Forward from the start: each event in turn, exactly, then round again.
            app.apply(Action::Scrub(0.0));
            let start = usize::from(times[0] == 0.0);
            let mut landed = Vec::new();
            for _ in 0..times.len() + 1 {
                app.apply(Action::StepEvent(Direction::Forward));
                landed.push(app.playback.time());
            }
            assert!(app.playback.paused(), "{notation}");
            let expected: Vec<f64> = times
                .iter()
                .cycle()
                .skip(start)
                .take(times.len() + 1)
                .copied()
                .collect();
            assert_eq!(landed, expected, "{notation}");
            // Back: the same moments in reverse order.
            let mut back = Vec::new();
            for _ in 0..times.len() {
                app.apply(Action::StepEvent(Direction::Back));
                back.push(app.playback.time());
            }
            let n = times.len();
            let here = times.iter().position(|t| *t == expected[n]).unwrap();
            let reversed: Vec<f64> = (1..=n).map(|k| times[(here + n - k) % n]).collect();
            assert_eq!(back, reversed, "{notation}");
            // What lies there: a prop leaves or reaches a hand at that very time.
            for &t in &times {
                let at = scene.events_between(t, t + 1e-12);
                assert!(
                    at.iter()
                        .any(|e| e.time == t
                            && matches!(e.kind, EventKind::Throw | EventKind::Catch)),
                    "{notation} {t}"
                );
            }
        }
    }

    #[test]
    fn a_loop_of_beats_keeps_the_clock_and_the_steps_inside_it() {
        let (mut app, scene) = app_playing("531");
        let beat = 1.0 / scene.timing().bps;
        app.apply(Action::LoopBeats(Some(BeatLoop { from: 1, to: 3 })));
        assert!((app.playback.time() - beat).abs() < 1e-12);
        assert_eq!(app.loop_label().as_deref(), Some("beats 1-3"));
        // Running: the clock stays in [1, 3) beats; the spans it passed cover the stretch.
        let mut covered = 0.0;
        for _ in 0..200 {
            for (from, to) in app.playback.advance(0.013) {
                assert!(
                    from >= beat - 1e-9 && to <= 3.0 * beat + 1e-9,
                    "{from} {to}"
                );
                covered += to - from;
            }
            let t = app.playback.time();
            assert!(t >= beat - 1e-9 && t < 3.0 * beat, "{t}");
        }
        assert!((covered - 200.0 * 0.013).abs() < 1e-9, "{covered}");
        // Steps go round the stretch's throws and catches only.
        let inside: Vec<f64> = throws_and_catches(&scene)
            .into_iter()
            .filter(|t| *t >= beat && *t < 3.0 * beat)
            .collect();
        let mut seen = Vec::new();
        for _ in 0..inside.len() {
            app.apply(Action::StepEvent(Direction::Forward));
            seen.push(app.playback.time());
        }
        seen.sort_by(f64::total_cmp);
        assert_eq!(seen, inside);
        // The whole loop again.
        app.apply(Action::LoopBeats(None));
        assert_eq!(app.playback.cycle(), (0.0, app.playback.loop_duration()));
    }

    #[test]
    fn a_loop_of_beats_of_passers_counts_each_jugglers_beats() {
        // Prechac and a shared siteswap: the schedule counts fine beats (2 to a beat), the
        // loop of beats 1-3 each juggler's beats: two throws of each hand of juggler A.
        for pattern in ["975;jugglers=2;bps=3", "<3.5p|3.5px>;bps=3"] {
            let (mut app, scene) = app_playing(pattern);
            assert_eq!(scene.subdivision(), 2, "{pattern}");
            assert!((scene.beats_per_second() - 3.0).abs() < 1e-12, "{pattern}");
            assert!((scene.timing().bps - 6.0).abs() < 1e-12, "{pattern}");
            app.apply(Action::LoopBeats(Some(BeatLoop { from: 1, to: 3 })));
            let (from, length) = app.playback.cycle();
            let to = from + length;
            assert!(
                (from - 1.0 / 3.0).abs() < 1e-12 && (to - 1.0).abs() < 1e-12,
                "{pattern}: {from} {to}"
            );
            // Juggler A throws at 1 and 2 beats (1/3 s and 2/3 s), B at 1.5 and 2.5.
            let throws: Vec<f64> = scene
                .events_between(from, to)
                .into_iter()
                .filter(|e| e.kind == EventKind::Throw)
                .map(|e| (e.time * 3.0 * 100.0).round() / 100.0)
                .collect();
            assert_eq!(throws, [1.0, 1.5, 2.0, 2.5], "{pattern}");
        }
    }

    #[test]
    fn the_loop_key_marks_a_start_an_end_and_then_clears() {
        let (mut app, scene) = app_playing("531");
        let beat = 1.0 / scene.timing().bps;
        app.playback.set_time(2.5 * beat);
        app.apply(Action::MarkLoop);
        assert_eq!(app.learn.loop_mark, Some(2));
        assert_eq!(app.loop_label().as_deref(), Some("from beat 2…"));
        app.playback.set_time(4.2 * beat);
        app.apply(Action::MarkLoop);
        assert_eq!(app.learn.beat_loop, Some(BeatLoop { from: 2, to: 5 }));
        assert!((app.playback.cycle().1 - 3.0 * beat).abs() < 1e-12);
        app.apply(Action::MarkLoop);
        assert_eq!((app.learn.beat_loop, app.learn.loop_mark), (None, None));
        // Marked backwards: the stretch runs on past the loop's end.
        app.playback.set_time(4.5 * beat);
        app.apply(Action::MarkLoop);
        app.playback.set_time(0.5 * beat);
        app.apply(Action::MarkLoop);
        let loop_beats = app.rhythm.loop_beats;
        assert_eq!(
            app.learn.beat_loop,
            Some(BeatLoop {
                from: 4,
                to: 1 + loop_beats
            })
        );
    }

    #[test]
    fn toggles_views_and_trails() {
        let (mut app, _) = app_playing("<3p|3p>");
        assert_eq!(app.rhythm.jugglers, 2);
        assert!(!app.learn.sound && !app.learn.labels);
        app.apply(Action::ToggleSound);
        app.apply(Action::ToggleLabels);
        assert!(app.learn.sound && app.learn.labels);
        app.apply(Action::Highlight(Some(4)));
        app.apply(Action::ToggleTrail);
        assert_eq!(app.learn.trail, Some(4));
        app.apply(Action::ToggleTrail);
        assert_eq!(app.learn.trail, None);
        // The eyes again: the other juggler's, then the first's.
        let views: Vec<ViewKind> = (0..3)
            .map(|_| {
                app.apply(Action::View(ViewKind::Eye(0)));
                app.learn.view
            })
            .collect();
        assert_eq!(
            views,
            [ViewKind::Eye(0), ViewKind::Eye(1), ViewKind::Eye(0)]
        );
        let mut names = Vec::new();
        app.apply(Action::View(ViewKind::Auto));
        for _ in 0..7 {
            app.apply(Action::NextView);
            names.push(app.learn.view.name());
        }
        assert_eq!(
            names,
            ["front", "side", "top", "mirror", "eye", "eye2", "auto"]
        );
    }

    #[test]
    fn a_speed_from_the_command_line_is_kept_exactly_and_the_keys_go_on_from_it() {
        let (mut app, _) = app_playing("3");
        app.playback.set_exact_speed(0.3);
        assert_eq!(app.playback.speed(), 0.3);
        assert_eq!(app.speed_label(), "0.3x");
        app.apply(Action::Faster);
        assert_eq!(app.playback.speed(), 0.5);
        app.playback.set_exact_speed(0.3);
        app.apply(Action::Slower);
        assert_eq!(app.playback.speed(), 0.25);
        app.playback.set_exact_speed(1e9);
        assert_eq!(app.playback.speed(), crate::app::state::MAX_SPEED);
    }

    #[test]
    fn a_link_carries_view_labels_trail_and_beats_and_refuses_bad_ones() {
        use crate::app::web::LinkQuery;
        let link = LinkQuery::parse("?pattern=531&view=eye2&labels=1&trail=2&beats=1-3");
        assert!(link.problems.is_empty(), "{:?}", link.problems);
        assert_eq!(
            link.learn,
            LearnLink {
                view: Some(ViewKind::Eye(1)),
                labels: true,
                trail: Some(1),
                beats: Some(BeatLoop { from: 1, to: 3 }),
            }
        );
        let address = link.to_address();
        assert!(
            address.ends_with("view=eye2&labels=1&trail=2&beats=1-3"),
            "{address}"
        );
        assert_eq!(LinkQuery::parse(&address).learn, link.learn);
        let bad = LinkQuery::parse("?view=back&trail=0&beats=5-2&labels=maybe");
        assert_eq!(bad.problems.len(), 4, "{:?}", bad.problems);
        assert_eq!(bad.learn, LearnLink::default());
        // The automatic view and no choices write nothing.
        assert!(LearnLink::of(&Learning::default()).pairs().is_empty());
    }
}
