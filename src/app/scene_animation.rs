//! The window's [`Animation`] of a real pattern: a `scene::Scene` seen through the camera the
//! export would use (`render::camera_with`: everything framed over one loop), turned and
//! zoomed by the user's [`Orbit`]. Frames come from `render::build_frame`, as in the export, so
//! a window frame and an exported frame of the same pattern, time and camera are the same.

use std::cell::RefCell;

use glam::Vec2;

use crate::render::{
    camera_with, trail_of, Camera, Frame, Picture, PoseSource, Trail, ViewKind, ViewOverrides,
};
use crate::scene::{EventKind, PatternEvent, Scene, SceneError};
use crate::schedule::PatternError;
use crate::spec::PatternSpec;
use crate::tools::diagram::{ladder, Ladder};

use super::animation::{Animation, Facts, LoadError, Look};
use super::learn::Rhythm;
use super::state::Orbit;

/// Aspect ratio used to choose the first view before the window's size is known.
const DEFAULT_ASPECT: f32 = 16.0 / 9.0;

/// Narrowest and widest field of view the eye view zooms to.
const EYE_MIN_FOV: f32 = 10.0 * std::f32::consts::PI / 180.0;
const EYE_MAX_FOV: f32 = 150.0 * std::f32::consts::PI / 180.0;

/// A camera framed for one viewport size, view and pair of orbit angles.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Framed {
    width: u32,
    height: u32,
    azimuth_deg: f32,
    elevation_deg: f32,
    view: ViewKind,
    camera: Camera,
}

/// A pattern, ready to be drawn by the window.
pub struct SceneAnimation {
    scene: Scene,
    /// The distance fixed by the user or the pattern, if any (angles come from the orbit).
    distance: Option<f32>,
    /// Where the camera looks from (the orbit's angles turn it).
    view: ViewKind,
    home: Orbit,
    facts: Facts,
    /// The trail last drawn, and its prop.
    trail: RefCell<Option<(usize, Option<Trail>)>>,
    /// The ladder diagram, made when first asked for.
    ladder: std::cell::OnceCell<Ladder>,
    /// The last framing, reused while the size and angles stay the same.
    framed: RefCell<Option<Framed>>,
}

impl SceneAnimation {
    /// Builds the scene of `spec` (fails exactly when `Scene::new` does). `view` holds the
    /// camera settings fixed by the user or the pattern; the rest is chosen automatically.
    pub fn new(spec: &PatternSpec, view: ViewOverrides) -> Result<SceneAnimation, SceneError> {
        let scene = Scene::new(spec)?;
        let home = home_orbit(&scene, &view);
        let facts = Facts {
            name: spec.name.clone(),
            notation: spec.source.text().to_string(),
            // Counted in the motion: a pattern given by its events has no schedule.
            jugglers: scene.motion().jugglers(),
            props: scene.motion().prop_count(),
            period: scene.period_beats(),
            // Each juggler's beats, as `period` counts them.
            beats_per_second: scene.beats_per_second(),
            loop_seconds: scene.loop_duration(),
            prop: spec.settings.prop,
        };
        Ok(SceneAnimation {
            scene,
            distance: view.distance,
            view: view.view,
            home,
            facts,
            trail: RefCell::new(None),
            ladder: std::cell::OnceCell::new(),
            framed: RefCell::new(None),
        })
    }

    /// The camera for a viewport and orbit: the export's framing for the orbit's angles and
    /// the viewport's aspect, then zoomed.
    pub fn framed_camera(&self, orbit: &Orbit, width: u32, height: u32) -> Camera {
        let key = (
            width,
            height,
            orbit.azimuth_deg,
            orbit.elevation_deg,
            self.view,
        );
        let mut framed = self.framed.borrow_mut();
        let camera = match *framed {
            Some(f) if (f.width, f.height, f.azimuth_deg, f.elevation_deg, f.view) == key => {
                f.camera
            }
            _ => {
                // The eyes look where they look until the user turns them (the orbit keeps
                // elevations above -30°, the eyes may look further up).
                let eye_home = matches!(self.view, ViewKind::Eye(_))
                    && (orbit.azimuth_deg, orbit.elevation_deg)
                        == (self.home.azimuth_deg, self.home.elevation_deg);
                let view = ViewOverrides {
                    azimuth: (!eye_home).then(|| orbit.azimuth_deg.to_radians()),
                    elevation: (!eye_home).then(|| orbit.elevation_deg.to_radians()),
                    distance: self.distance,
                    view: self.view,
                };
                let aspect = width.max(1) as f32 / height.max(1) as f32;
                let camera = camera_with(&self.scene, aspect, &view);
                *framed = Some(Framed {
                    width,
                    height,
                    azimuth_deg: orbit.azimuth_deg,
                    elevation_deg: orbit.elevation_deg,
                    view: self.view,
                    camera,
                });
                camera
            }
        };
        if camera.follow.is_some() {
            // The eyes stay in the head: zooming narrows or widens what they see.
            Camera {
                fov_y: (camera.fov_y * orbit.zoom).clamp(EYE_MIN_FOV, EYE_MAX_FOV),
                ..camera
            }
        } else {
            Camera {
                distance: camera.distance * orbit.zoom,
                ..camera
            }
        }
    }

    /// The trail of prop `prop`, made once while it stays the one asked for.
    fn trail(&self, prop: Option<usize>) -> Option<Trail> {
        let prop = prop?;
        let mut cached = self.trail.borrow_mut();
        match &*cached {
            Some((p, trail)) if *p == prop => trail.clone(),
            _ => {
                let trail = trail_of(&self.scene, prop);
                *cached = Some((prop, trail.clone()));
                trail
            }
        }
    }

    /// The scene being shown.
    pub fn scene(&self) -> &Scene {
        &self.scene
    }
}

impl Animation for SceneAnimation {
    fn frame(&self, t: f64, orbit: &Orbit, width: u32, height: u32, look: &Look) -> Frame {
        let picture = Picture {
            camera: self.framed_camera(orbit, width, height),
            labels: look.labels,
            trail: self.trail(look.trail),
        };
        picture.frame(&self.scene, t, width, height)
    }

    fn set_view(&mut self, view: ViewKind) -> Orbit {
        self.view = view;
        self.home = home_orbit(
            &self.scene,
            &ViewOverrides {
                azimuth: None,
                elevation: None,
                distance: self.distance,
                view,
            },
        );
        self.home
    }

    fn rhythm(&self) -> Rhythm {
        let loop_duration = self.scene.loop_duration();
        let times = self
            .scene
            .events_between(0.0, loop_duration)
            .into_iter()
            .filter(|e| matches!(e.kind, EventKind::Throw | EventKind::Catch))
            .map(|e| e.time)
            .collect();
        Rhythm::new(
            times,
            loop_duration,
            // A loop of beats (`--beats A-B`) counts each juggler's beats.
            1.0 / self.scene.beats_per_second(),
            self.facts.jugglers,
        )
    }

    fn events_between(&self, from: f64, to: f64) -> Vec<PatternEvent> {
        PoseSource::events_between(&self.scene, from, to)
    }

    fn loop_duration(&self) -> f64 {
        self.scene.loop_duration()
    }

    fn facts(&self) -> Facts {
        self.facts.clone()
    }

    fn home_orbit(&self) -> Orbit {
        self.home
    }

    fn scene(&self) -> Option<&Scene> {
        Some(&self.scene)
    }

    fn camera(&self, orbit: &Orbit, width: u32, height: u32) -> Option<Camera> {
        Some(self.framed_camera(orbit, width, height))
    }

    fn ladder(&self) -> Option<&Ladder> {
        // A pattern given by its events has no siteswap to draw.
        let schedule = self.scene.schedule()?;
        Some(self.ladder.get_or_init(|| {
            let written = self.scene.spec().source.siteswap().unwrap_or("");
            ladder(schedule).written_as(schedule, written)
        }))
    }

    fn prop_of_throw(&self, throw: usize, beat: i64) -> Option<usize> {
        let schedule = self.scene.schedule()?;
        let t = schedule.throws.get(throw)?;
        // Throws alike in every way (a multiplex of equal throws) are told apart by their
        // order: the k-th of them is made by the k-th matching prop.
        let rank = schedule.throws[..throw]
            .iter()
            .filter(|o| o.beat == t.beat && o.from == t.from && o.to == t.to && o.value == t.value)
            .count();
        let bps = self.scene.timing().bps;
        let at = |beats: f64| self.scene.motion().state_at(beats / bps);
        let b = beat as f64;
        // Just after the release the prop flies this throw (a 1 is released 0.6 beat early).
        for (when, released) in [(b + 0.05, b), (b - 0.55, b - 0.6)] {
            let state = at(when);
            let found = state
                .props
                .iter()
                .enumerate()
                .filter(|(_, p)| {
                    p.flight.is_some_and(|f| {
                        f.from == t.from
                            && f.to == t.to
                            && f.value == t.value
                            && (f.release * bps - released).abs() < 0.2
                    })
                })
                .map(|(i, _)| i)
                .nth(rank);
            if found.is_some() {
                return found;
            }
        }
        // A carry (`H`, a held 2): the prop stays in the hand.
        let state = at(b + 0.05);
        state
            .props
            .iter()
            .enumerate()
            .filter(|(_, p)| p.held_by == Some(t.from))
            .map(|(i, _)| i)
            .nth(rank)
    }

    fn prop_on_screen(
        &self,
        t: f64,
        orbit: &Orbit,
        width: u32,
        height: u32,
        prop: usize,
    ) -> Option<(Vec2, f32)> {
        let pose = self.scene.pose_at(t);
        let p = pose.props.get(prop)?;
        let camera = self.framed_camera(orbit, width, height);
        let view = camera.view(width, height);
        let (centre, depth) = view.project(p.position)?;
        Some((centre, 0.5 * p.size * view.scale(depth)))
    }
}

/// The orbit `view` looks at `scene` from (before the user turns it).
fn home_orbit(scene: &Scene, view: &ViewOverrides) -> Orbit {
    let camera = camera_with(scene, DEFAULT_ASPECT, view);
    Orbit::new(camera.azimuth.to_degrees(), camera.elevation.to_degrees())
}

/// The window's error for a pattern typed as `typed` whose spec has `notation` and failed with
/// `err`: the message, and the character column in `typed` of the problem when known (a
/// syntax error's column, or the first character of the throw at fault).
pub fn load_error(typed: &str, notation: &str, err: &SceneError) -> LoadError {
    let column_in_notation = match err {
        SceneError::Pattern(PatternError::Syntax(e)) => Some(e.column.saturating_sub(1)),
        SceneError::Pattern(PatternError::Invalid(e)) => e.span().map(|span| {
            notation
                .get(..span.start)
                .map_or(0, |before| before.chars().count())
        }),
        _ => None,
    };
    // Where the notation sits in what was typed (a settings string has `pattern=` before it).
    let notation_start = typed.find(notation).map(|i| typed[..i].chars().count());
    let column = column_in_notation.and_then(|c| notation_start.map(|s| s + c));
    LoadError::new(err.to_string(), column)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::{build_layers, Part, Style};
    use crate::types::Hand;

    fn animation(notation: &str) -> SceneAnimation {
        SceneAnimation::new(
            &PatternSpec::from_notation(notation),
            ViewOverrides::default(),
        )
        .expect("valid pattern")
    }

    fn load(typed: &str, notation: &str) -> LoadError {
        match SceneAnimation::new(
            &PatternSpec::from_notation(notation),
            ViewOverrides::default(),
        ) {
            Ok(_) => panic!("{notation} should fail"),
            Err(e) => load_error(typed, notation, &e),
        }
    }

    #[test]
    fn facts_of_a_cascade_and_a_passing_pattern() {
        let f = animation("531").facts();
        assert_eq!((f.name.as_str(), f.jugglers, f.props), ("531", 1, 3));
        assert!(f.beats_per_second > 0.0 && f.loop_seconds > 0.0);
        let p = animation("<3p|3p>").facts();
        assert_eq!((p.jugglers, p.props), (2, 6));
        // Passers' beats: 975 shared by two has period 3 at each juggler's 3 beats/s
        // (the motion's fine beats run at 6).
        let spec = PatternSpec::parse("975;jugglers=2;bps=3").unwrap();
        let g = SceneAnimation::new(&spec, ViewOverrides::default())
            .unwrap()
            .facts();
        assert_eq!((g.jugglers, g.props, g.period), (2, 7, 3));
        assert!((g.beats_per_second - 3.0).abs() < 1e-12);
    }

    #[test]
    fn solo_home_view_is_from_the_front_and_passing_from_elsewhere() {
        let solo = animation("3").home_orbit();
        assert!(solo.azimuth_deg.abs() < 1e-3 || (solo.azimuth_deg - 360.0).abs() < 1e-3);
        assert!(
            solo.elevation_deg > 0.0 && solo.elevation_deg < 20.0,
            "{solo:?}"
        );
        let passing = animation("<3p|3p>").home_orbit();
        assert_ne!(passing, solo);
    }

    #[test]
    fn fixed_view_settings_set_the_home_view_and_distance() {
        let view = ViewOverrides {
            azimuth: Some(45f32.to_radians()),
            elevation: Some(30f32.to_radians()),
            distance: Some(7.0),
            ..ViewOverrides::default()
        };
        let a = SceneAnimation::new(&PatternSpec::from_notation("3"), view).expect("valid");
        let home = a.home_orbit();
        assert!((home.azimuth_deg - 45.0).abs() < 1e-3 && (home.elevation_deg - 30.0).abs() < 1e-3);
        assert!((a.framed_camera(&home, 800, 600).distance - 7.0).abs() < 1e-4);
    }

    #[test]
    fn the_home_view_is_the_export_camera() {
        let a = animation("(4,4)");
        let camera = a.framed_camera(&a.home_orbit(), 1280, 608);
        let export_camera = camera_with(a.scene(), 1280.0 / 608.0, &ViewOverrides::default());
        assert!((camera.distance - export_camera.distance).abs() < 1e-3);
        assert!(camera.target.distance(export_camera.target) < 1e-3);
        assert!((camera.azimuth - export_camera.azimuth).abs() < 1e-5);
    }

    #[test]
    fn zoom_scales_the_framed_distance_and_resizing_reframes() {
        let a = animation("3");
        let mut orbit = a.home_orbit();
        let wide = a.framed_camera(&orbit, 1280, 600);
        orbit.zoom = 0.5;
        let near = a.framed_camera(&orbit, 1280, 600);
        assert!((near.distance - 0.5 * wide.distance).abs() < 1e-4);
        // A narrow viewport needs the camera further away to keep the juggler in view.
        orbit.zoom = 1.0;
        let narrow = a.framed_camera(&orbit, 120, 600);
        assert!(
            narrow.distance > wide.distance,
            "{} vs {}",
            narrow.distance,
            wide.distance
        );
    }

    /// The layers the window draws at `t` from `orbit` (the frame is these layers' shapes).
    fn layers(a: &SceneAnimation, t: f64, orbit: &Orbit) -> Vec<crate::render::Layer> {
        let camera = a.framed_camera(orbit, 1280, 608);
        build_layers(&a.scene().pose_at(t), &camera, 1280, 608, &Style::default())
    }

    #[test]
    fn every_prop_and_limb_is_drawn() {
        for (notation, jugglers, props) in [
            ("3", 1, 3),
            ("(4,4)", 1, 4),
            ("<3p|3p>", 2, 6),
            ("531", 1, 3),
        ] {
            let a = animation(notation);
            for t in [0.0, 0.21, 0.77] {
                let layers = layers(&a, t, &a.home_orbit());
                let count =
                    |f: &dyn Fn(&Part) -> bool| layers.iter().filter(|l| f(&l.part)).count();
                assert_eq!(
                    count(&|p| matches!(p, Part::Prop { .. })),
                    props,
                    "{notation} t={t}"
                );
                assert_eq!(
                    count(&|p| matches!(p, Part::Body { .. })),
                    jugglers,
                    "{notation}"
                );
                assert_eq!(
                    count(&|p| matches!(p, Part::UpperArm { .. })),
                    2 * jugglers,
                    "{notation}"
                );
                assert_eq!(
                    count(&|p| matches!(p, Part::Forearm { .. })),
                    2 * jugglers,
                    "{notation}"
                );
                // The frame is exactly these layers' shapes, in this order.
                let frame = a.frame(t, &a.home_orbit(), 1280, 608, &Look::default());
                let shapes: Vec<_> = layers.into_iter().flat_map(|l| l.shapes).collect();
                assert_eq!(frame.shapes, shapes, "{notation}");
            }
        }
    }

    #[test]
    fn props_behind_the_body_are_drawn_before_it() {
        // Seen from behind (azimuth 180), the props in the hands in front of the juggler are
        // behind the body; seen from the front they are in front of it.
        let a = animation("3");
        for (azimuth, behind) in [(180.0, true), (0.0, false)] {
            let orbit = Orbit::new(azimuth, 10.0);
            let layers = layers(&a, 0.0, &orbit);
            let body = layers
                .iter()
                .position(|l| matches!(l.part, Part::Body { .. }))
                .expect("body");
            let held: Vec<usize> = a
                .scene()
                .pose_at(0.0)
                .props
                .iter()
                .enumerate()
                .filter(|(_, p)| p.held_by.is_some())
                .map(|(i, _)| i)
                .collect();
            assert!(!held.is_empty());
            for index in held {
                let at = layers
                    .iter()
                    .position(|l| l.part == Part::Prop { index })
                    .expect("prop layer");
                assert_eq!(
                    at < body,
                    behind,
                    "azimuth {azimuth}: prop {index} at {at}, body at {body}"
                );
            }
        }
        // The hands too: from behind, both forearms come before the body.
        let layers = layers(&a, 0.0, &Orbit::new(180.0, 10.0));
        let body = layers
            .iter()
            .position(|l| matches!(l.part, Part::Body { .. }))
            .expect("body");
        for hand in Hand::BOTH {
            let forearm = layers
                .iter()
                .position(|l| l.part == Part::Forearm { juggler: 0, hand })
                .expect("forearm");
            assert!(forearm < body, "{hand:?}");
        }
    }

    #[test]
    fn the_prop_of_a_throw_makes_that_throws_next_throw() {
        // Whatever prop throws throw i at beat b throws `next` at beat b + value: the identity
        // of props along the diagram follows the schedule.
        for notation in [
            "3", "531", "(4,4)", "<3p|3p>", "[33]33", "(4,2x)*", "51", "4H2",
        ] {
            let a = animation(notation);
            let sch = a.scene().schedule().unwrap().clone();
            let period = i64::from(sch.period);
            for rep in [0i64, 1, 3] {
                for (i, t) in sch.throws.iter().enumerate() {
                    let beat = i64::from(t.beat) + rep * period;
                    let prop = a.prop_of_throw(i, beat);
                    assert!(prop.is_some(), "{notation}: throw {i} at beat {beat}");
                    if !matches!(t.kind, crate::schedule::ThrowKind::Hold) {
                        let next = a.prop_of_throw(t.next, beat + i64::from(t.value));
                        assert_eq!(prop, next, "{notation}: throw {i} at beat {beat}");
                    }
                }
            }
            // Within one beat, different throws are made by different props.
            for b in 0..period {
                let props: Vec<usize> = sch
                    .throws
                    .iter()
                    .enumerate()
                    .filter(|(_, t)| i64::from(t.beat) == b)
                    .filter_map(|(i, _)| a.prop_of_throw(i, b))
                    .collect();
                let mut unique = props.clone();
                unique.sort_unstable();
                unique.dedup();
                assert_eq!(unique.len(), props.len(), "{notation} beat {b}: {props:?}");
            }
        }
        assert_eq!(animation("3").prop_of_throw(99, 0), None);
    }

    #[test]
    fn a_prop_on_screen_is_inside_the_viewport_with_a_ball_sized_radius() {
        let a = animation("3");
        let orbit = a.home_orbit();
        for prop in 0..3 {
            let (c, r) = a
                .prop_on_screen(0.3, &orbit, 1280, 608, prop)
                .expect("visible");
            assert!(c.x > 0.0 && c.x < 1280.0 && c.y > 0.0 && c.y < 608.0, "{c}");
            assert!(r > 2.0 && r < 40.0, "{r}");
        }
        assert_eq!(a.prop_on_screen(0.3, &orbit, 1280, 608, 3), None);
    }

    #[test]
    fn syntax_errors_point_at_their_column_also_inside_settings_strings() {
        let e = load("5%4", "5%4");
        assert_eq!(e.column, Some(1), "{e:?}");
        assert!(e.message.contains("column 2"), "{e:?}");
        let e = load("pattern=5%4;bps=3", "5%4");
        assert_eq!(e.column, Some(9), "{e:?}");
    }

    #[test]
    fn collisions_point_at_the_throw_at_fault_and_bad_averages_have_no_column() {
        // 432: the 4 (beat 0) and the 3 (beat 1) both land on beat 4.
        let e = load("432", "432");
        assert_eq!(e.column, Some(1), "{e:?}");
        let e = load("4432", "4432");
        assert_eq!(e.column, None, "{e:?}");
        assert!(e.message.contains("average"), "{e:?}");
    }
}
