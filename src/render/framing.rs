//! Framing a scene: where the camera looks from (automatic angles for one, two or more
//! jugglers, or the user's [`ViewOverrides`]) and how far, so that every juggler and prop of
//! poses sampled over a loop stays in the image; and how long the picture's loop is
//! ([`picture_loop`]: props that look alike may trade places). The window and the export both
//! take their camera from here ([`camera_with`]), so they show the same view.

use glam::Vec3;

use super::camera::{
    Camera, Follow, DEFAULT_FOV_Y, FRAME_FILL, MAX_ELEVATION, NEAR, SOLO_ELEVATION,
};
use crate::body::Pose;
use crate::scene::PatternEvent;
use crate::settings::CameraSpec;

/// Passing view: like Juggling Lab, 20° off the side view and 20° down.
const PASSING_AZIMUTH_OFFSET: f32 = -20.0 * std::f32::consts::PI / 180.0;
const PASSING_ELEVATION: f32 = 20.0 * std::f32::consts::PI / 180.0;
/// Three or more jugglers: a bit higher, to see into the circle.
const GROUP_ELEVATION: f32 = 30.0 * std::f32::consts::PI / 180.0;

/// Where the camera looks from (`--view`). The fixed angles of [`ViewOverrides`] apply on
/// top of it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ViewKind {
    /// The automatic view: a solo juggler from the front, passers 20° off the side, groups
    /// from higher up.
    #[default]
    Auto,
    /// The audience's view: in front of a solo juggler; two passers side by side in profile;
    /// a group turned so that nobody stands in front of anyone.
    Front,
    /// A quarter turn from the front: a solo juggler's right side, where the depth of the
    /// pattern shows; along the passing line of two passers.
    Side,
    /// From above, the front view's audience at the bottom of the picture.
    Top,
    /// The front view mirrored left to right: what juggler 1 sees in a mirror facing the
    /// audience, to copy the pattern hand for hand.
    Mirror,
    /// Through the eyes of juggler `n` (0-based), looking at the pattern.
    Eye(usize),
}

impl ViewKind {
    /// The names [`ViewKind::parse`] reads.
    pub const NAMES: &'static str = "auto, front, side, top, mirror, eye";

    /// One of [`ViewKind::NAMES`] (any case); `eye` is juggler 1's eyes (`eye2` juggler 2's).
    pub fn parse(text: &str) -> Result<ViewKind, String> {
        let word = text.trim().to_ascii_lowercase();
        Ok(match word.as_str() {
            "auto" => ViewKind::Auto,
            "front" => ViewKind::Front,
            "side" => ViewKind::Side,
            "top" => ViewKind::Top,
            "mirror" => ViewKind::Mirror,
            "eye" => ViewKind::Eye(0),
            other => match other.strip_prefix("eye").map(str::parse::<usize>) {
                Some(Ok(n)) if n >= 1 => ViewKind::Eye(n - 1),
                _ => {
                    return Err(format!(
                        "unknown view '{}': expected {}",
                        crate::text::escape_control(text.trim()),
                        ViewKind::NAMES
                    ))
                }
            },
        })
    }

    /// The name [`ViewKind::parse`] reads back (`eye` for juggler 1, `eye2` for juggler 2).
    pub fn name(self) -> String {
        match self {
            ViewKind::Auto => "auto".into(),
            ViewKind::Front => "front".into(),
            ViewKind::Side => "side".into(),
            ViewKind::Top => "top".into(),
            ViewKind::Mirror => "mirror".into(),
            ViewKind::Eye(0) => "eye".into(),
            ViewKind::Eye(n) => format!("eye{}", n + 1),
        }
    }

    /// The next view of the app's view key: auto, front, side, top, mirror, then the eyes of
    /// each of `jugglers` jugglers, then auto again.
    pub fn next(self, jugglers: usize) -> ViewKind {
        match self {
            ViewKind::Auto => ViewKind::Front,
            ViewKind::Front => ViewKind::Side,
            ViewKind::Side => ViewKind::Top,
            ViewKind::Top => ViewKind::Mirror,
            ViewKind::Mirror => ViewKind::Eye(0),
            ViewKind::Eye(n) if n + 1 < jugglers => ViewKind::Eye(n + 1),
            ViewKind::Eye(_) => ViewKind::Auto,
        }
    }
}

/// View settings fixed by the user; `None` = automatic. Angles in radians, distance in metres.
/// For the eye view the angles say where the eyes look, and the distance does not apply.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ViewOverrides {
    pub azimuth: Option<f32>,
    pub elevation: Option<f32>,
    pub distance: Option<f32>,
    pub view: ViewKind,
}

impl ViewOverrides {
    /// These settings (from the command line or a share link) over the pattern's own camera:
    /// each one given here wins, the others come from `spec`.
    pub fn over_pattern(self, spec: &crate::spec::PatternSpec) -> ViewOverrides {
        let own = spec
            .settings
            .camera
            .as_ref()
            .map(ViewOverrides::from)
            .unwrap_or_default();
        // A view chosen here replaces the pattern's angles (not its distance).
        let own_angles = self.view == ViewKind::Auto;
        ViewOverrides {
            azimuth: self.azimuth.or(own.azimuth.filter(|_| own_angles)),
            elevation: self.elevation.or(own.elevation.filter(|_| own_angles)),
            distance: self.distance.or(own.distance),
            view: self.view,
        }
    }
}

impl From<&CameraSpec> for ViewOverrides {
    fn from(spec: &CameraSpec) -> Self {
        ViewOverrides {
            azimuth: Some(spec.azimuth_deg.to_radians()),
            elevation: Some(spec.elevation_deg.to_radians()),
            distance: spec.distance,
            view: ViewKind::Auto,
        }
    }
}

/// Something that can say where everything is at any time: a pattern's scene.
pub trait PoseSource: Sync {
    /// The whole scene at `t` seconds.
    fn pose_at(&self, t: f64) -> Pose;
    /// Seconds after which the animation repeats exactly (every prop back in its place).
    fn loop_duration(&self) -> f64;
    /// Seconds after which the picture repeats: every prop is where a prop that looks the
    /// same was (same colour and kind), so the animation loops seamlessly although props
    /// may have changed places. Divides [`PoseSource::loop_duration`]; by default equal.
    fn picture_loop_duration(&self) -> f64 {
        self.loop_duration()
    }
    /// Labels `(prop, text)` to write by the props at `t` (each throw's value while its prop
    /// rises); none by default.
    fn labels_at(&self, _t: f64) -> Vec<(usize, String)> {
        Vec::new()
    }
    /// Throws, floor contacts, catches and beats with `from <= time < to`, in time order
    /// (what one hears); none by default.
    fn events_between(&self, _from: f64, _to: f64) -> Vec<PatternEvent> {
        Vec::new()
    }
}

impl PoseSource for crate::scene::Scene {
    fn pose_at(&self, t: f64) -> Pose {
        crate::scene::Scene::pose_at(self, t)
    }
    fn loop_duration(&self) -> f64 {
        crate::scene::Scene::loop_duration(self)
    }
    fn picture_loop_duration(&self) -> f64 {
        // One period of the schedule; a pattern given by its events repeats its events
        // every loop of them (`period_beats` at the pattern's bps).
        let beats = self
            .schedule()
            .map_or(self.period_beats(), |schedule| schedule.period);
        let period = self.timing().seconds(f64::from(beats));
        picture_loop(self, period)
    }
    fn labels_at(&self, t: f64) -> Vec<(usize, String)> {
        crate::scene::Scene::labels_at(self, t)
    }
    fn events_between(&self, from: f64, to: f64) -> Vec<PatternEvent> {
        let mut events = crate::scene::Scene::events_between(self, from, to);
        events.extend(self.beats_between(from, to));
        events.sort_by(|a, b| a.time.total_cmp(&b.time).then(a.kind.cmp(&b.kind)));
        events
    }
}

/// Largest full loop, in periods, whose divisors `picture_loop` tries.
const MAX_DIVISOR_SEARCH: u64 = 10_000_000;
/// Periods `picture_loop` tries for a longer full loop.
const MAX_SHORT_LOOP: u64 = 1000;

/// The shortest whole number of `period`s after which `source` looks the same as at the
/// start, among the divisors of its full loop (checked on poses at four times of the
/// period: jugglers in the same posture, and props matched one to one with a prop of the
/// same look at the same place and attitude). The full loop when no shorter one is found.
/// A full loop of more than [`MAX_DIVISOR_SEARCH`] periods (orbits of many prime lengths:
/// `<3|5|7|b|d|h|j|n>` repeats after 111 546 435) is searched among its first
/// [`MAX_SHORT_LOOP`] multiples of the period, so a picture that repeats every period is
/// found without factoring the loop.
pub(crate) fn picture_loop(source: &dyn PoseSource, period: f64) -> f64 {
    let full = source.loop_duration();
    if !(period.is_finite() && period > 0.0 && full.is_finite() && full > period) {
        return full;
    }
    let n = (full / period).round();
    if (n * period - full).abs() > 1e-9 * full {
        return full;
    }
    let divisors: Vec<u64> = if n <= MAX_DIVISOR_SEARCH as f64 {
        let n = n as u64;
        let mut divisors: Vec<u64> = (1..)
            .take_while(|d| d * d <= n)
            .filter(|d| n.is_multiple_of(*d))
            .flat_map(|d| [d, n / d])
            .filter(|&d| d < n)
            .collect();
        divisors.sort_unstable();
        divisors.dedup();
        divisors
    } else {
        (1..=MAX_SHORT_LOOP).collect()
    };
    let samples: Vec<(f64, Pose)> = [0.0, 0.29, 0.53, 0.81]
        .iter()
        .map(|f| {
            let t = f * period;
            (t, source.pose_at(t))
        })
        .collect();
    divisors
        .into_iter()
        .find(|&d| {
            let shift = d as f64 * period;
            samples
                .iter()
                .all(|(t, pose)| looks_same(pose, &source.pose_at(t + shift)))
        })
        .map_or(full, |d| d as f64 * period)
}

/// Whether two poses draw the same picture (up to 0.1 mm and props trading places).
fn looks_same(a: &Pose, b: &Pose) -> bool {
    const EPS: f32 = 1e-4;
    let near = |p: glam::Vec3, q: glam::Vec3| (p - q).abs().max_element() <= EPS;
    if a.jugglers.len() != b.jugglers.len() || a.props.len() != b.props.len() {
        return false;
    }
    let same_body = a.jugglers.iter().zip(&b.jugglers).all(|(x, y)| {
        near(x.head, y.head)
            && x.arms
                .iter()
                .zip(&y.arms)
                .all(|(p, q)| near(p.hand, q.hand) && near(p.elbow, q.elbow))
    });
    if !same_body {
        return false;
    }
    // Props of `b` sorted along x: each prop of `a` looks only at those within EPS in x.
    let mut order: Vec<usize> = (0..b.props.len()).collect();
    order.sort_by(|&i, &k| b.props[i].position.x.total_cmp(&b.props[k].position.x));
    let xs: Vec<f32> = order.iter().map(|&i| b.props[i].position.x).collect();
    let mut used = vec![false; b.props.len()];
    a.props.iter().all(|p| {
        let from = xs.partition_point(|&x| x < p.position.x - EPS);
        let found = order[from..]
            .iter()
            .zip(&xs[from..])
            .take_while(|(_, &x)| x <= p.position.x + EPS)
            .map(|(&k, _)| k)
            .find(|&k| {
                let q = &b.props[k];
                !used[k]
                    && q.color == p.color
                    && q.kind == p.kind
                    && near(q.position, p.position)
                    && near(q.axis, p.axis)
            });
        found.map(|k| used[k] = true).is_some()
    })
}

/// A camera that frames the whole animation of `source` (poses sampled over one loop, so it
/// stays still while the props fly), honouring the pattern's camera settings.
pub fn auto_camera(source: &dyn PoseSource, aspect: f32, spec: Option<&CameraSpec>) -> Camera {
    let overrides = spec.map(ViewOverrides::from).unwrap_or_default();
    camera_with(source, aspect, &overrides)
}

/// [`auto_camera`] with some view settings fixed by the user.
pub fn camera_with(source: &dyn PoseSource, aspect: f32, overrides: &ViewOverrides) -> Camera {
    const SAMPLES: usize = 24;
    let duration = source.loop_duration();
    let duration = if duration.is_finite() && duration > 0.0 {
        duration
    } else {
        1.0
    };
    let poses: Vec<Pose> = (0..SAMPLES)
        .map(|i| source.pose_at(duration * i as f64 / SAMPLES as f64))
        .collect();
    match overrides.view {
        ViewKind::Eye(juggler) => Camera::eye_view(&poses, juggler, aspect, overrides),
        _ => Camera::framing_with(&poses, aspect, overrides),
    }
}

impl Camera {
    /// A camera that frames every juggler and prop of `pose` in an image of the given aspect
    /// ratio (width / height), with the automatic view angles.
    pub fn framing(pose: &Pose, aspect: f32) -> Camera {
        Camera::framing_all(std::slice::from_ref(pose), aspect, None)
    }

    /// A camera that frames everything in all of `poses` (e.g. poses sampled over a loop, so
    /// the camera stays put during an animation). `spec` overrides the angles and, when it
    /// gives one, the distance. Solo: front view from slightly above. Passing: 20° off the
    /// side view (juggler 0 on the left, like Juggling Lab's 340°), 20° down; three or more
    /// jugglers: 30° down.
    pub(crate) fn framing_all(poses: &[Pose], aspect: f32, spec: Option<&CameraSpec>) -> Camera {
        let overrides = spec.map(ViewOverrides::from).unwrap_or_default();
        Camera::framing_with(poses, aspect, &overrides)
    }

    /// [`Camera::framing_all`] with each of azimuth, elevation and distance optionally fixed
    /// (the others automatic; the distance still frames everything from the fixed angles).
    pub(crate) fn framing_with(poses: &[Pose], aspect: f32, overrides: &ViewOverrides) -> Camera {
        let points = framing_points(poses);
        let jugglers: Vec<Vec3> = poses
            .first()
            .map(|p| p.jugglers.iter().map(|j| j.placement.position).collect())
            .unwrap_or_default();
        let (mut azimuth, mut elevation) = automatic_angles(&jugglers);
        let facing = poses
            .first()
            .and_then(|p| p.jugglers.first())
            .map_or(0.0, |j| j.placement.facing);
        if let Some(angles) = view_angles(overrides.view, &jugglers, facing) {
            (azimuth, elevation) = angles;
        }
        if let Some(a) = overrides.azimuth.filter(|a| a.is_finite()) {
            azimuth = a;
        }
        if let Some(e) = overrides.elevation.filter(|e| e.is_finite()) {
            elevation = e.clamp(-MAX_ELEVATION, MAX_ELEVATION);
        }
        let fixed_distance = overrides.distance.filter(|d| d.is_finite() && *d > NEAR);
        Camera {
            mirror: overrides.view == ViewKind::Mirror,
            ..Camera::fit(
                &points,
                azimuth,
                elevation,
                DEFAULT_FOV_Y,
                aspect,
                fixed_distance,
            )
        }
    }

    /// The view through juggler `juggler`'s eyes (the last juggler's beyond the end) in
    /// `poses`: the camera in the head ([`eye_point`]), looking at the middle of the angles
    /// the props (and the other jugglers) take up as seen from there over the poses, with a
    /// field of view that holds them (40° to 110°; when they need more, the lowest, the
    /// hands, stay in the picture). Fixed angles in `overrides` turn the eyes, the field of
    /// view staying. The camera follows the juggler when it moves.
    pub(crate) fn eye_view(
        poses: &[Pose],
        juggler: usize,
        aspect: f32,
        overrides: &ViewOverrides,
    ) -> Camera {
        const MIN_FOV: f32 = 40.0 * std::f32::consts::PI / 180.0;
        const MAX_FOV: f32 = 110.0 * std::f32::consts::PI / 180.0;
        let Some(first) = poses.first() else {
            return Camera::default();
        };
        let Some(j) = first
            .jugglers
            .get(juggler)
            .or(first.jugglers.last())
            .filter(|j| j.head.is_finite())
        else {
            return Camera::default();
        };
        let juggler = juggler.min(first.jugglers.len() - 1);
        let placement = j.placement;
        let eye = eye_point(j);
        // What the juggler looks at: the props, and the other jugglers (passing partners).
        let mut points: Vec<Vec3> = poses
            .iter()
            .flat_map(|p| p.props.iter().map(|q| q.position))
            .collect();
        for pose in poses.iter().take(1) {
            let others: Vec<Pose> = vec![Pose {
                time: pose.time,
                jugglers: pose
                    .jugglers
                    .iter()
                    .enumerate()
                    .filter(|(k, _)| *k != juggler)
                    .map(|(_, o)| o.clone())
                    .collect(),
                props: Vec::new(),
            }];
            points.extend(framing_points(&others));
        }
        // Angles of the points seen from the eye, in the juggler's own frame: yaw to the
        // left (+x own) and pitch up, of those in front of the eyes.
        let (mut yaw, mut pitch) = ((f32::MAX, f32::MIN), (f32::MAX, f32::MIN));
        for p in points.iter().filter(|p| p.is_finite()) {
            let d = placement.to_local(*p) - placement.to_local(eye);
            if d.z < 0.05 {
                continue;
            }
            let (y, x) = (d.x.atan2(d.z), d.y.atan2(d.z.hypot(d.x)));
            yaw = (yaw.0.min(y), yaw.1.max(y));
            pitch = (pitch.0.min(x), pitch.1.max(x));
        }
        if yaw.0 > yaw.1 {
            // Nothing in front: straight ahead and a little down.
            (yaw, pitch) = ((0.0, 0.0), (-0.5, 0.1));
        }
        let aim_yaw = 0.5 * (yaw.0 + yaw.1);
        let tan_x = (0.5 * (yaw.1 - yaw.0)).min(1.5).tan() / aspect.max(0.1);
        let half_y = (0.5 * (pitch.1 - pitch.0)).max(tan_x.atan()) / FRAME_FILL;
        let fov_y = (2.0 * half_y).clamp(MIN_FOV, MAX_FOV);
        // When it all does not fit (high throws), the hands stay in the picture and the
        // peaks leave it at the top.
        let aim_pitch = (0.5 * (pitch.0 + pitch.1))
            .min(pitch.0 + 0.5 * fov_y * FRAME_FILL)
            .clamp(-MAX_ELEVATION, MAX_ELEVATION);
        // The camera's angles are those of the direction from the target to the eye.
        let looking = placement.rotate(Vec3::new(
            aim_yaw.sin() * aim_pitch.cos(),
            aim_pitch.sin(),
            aim_yaw.cos() * aim_pitch.cos(),
        ));
        let mut azimuth = (-looking.x).atan2(-looking.z);
        let mut elevation = (-looking.y).clamp(-1.0, 1.0).asin();
        if let Some(a) = overrides.azimuth.filter(|a| a.is_finite()) {
            azimuth = a;
        }
        if let Some(e) = overrides.elevation.filter(|e| e.is_finite()) {
            elevation = e.clamp(-MAX_ELEVATION, MAX_ELEVATION);
        }
        let camera = Camera {
            target: Vec3::ZERO,
            azimuth,
            elevation,
            distance: EYE_TARGET_DISTANCE,
            fov_y,
            mirror: false,
            follow: Some(Follow {
                juggler,
                anchor: placement,
            }),
        };
        Camera {
            target: eye - camera.direction() * EYE_TARGET_DISTANCE,
            ..camera
        }
    }
}

/// How far in front of the eye view's eye its target lies (metres; any distance gives the
/// same picture).
const EYE_TARGET_DISTANCE: f32 = 1.0;

/// Where the eye view's camera sits for juggler `j`: in the head, at the height of the eyes
/// (a quarter of the head's radius above its centre). From the eyes themselves a pattern
/// 15 cm away would fill the picture; from the middle of the head it is seen as the juggler
/// takes it in, hands and peaks together. The rider's head and body are not drawn.
pub(crate) fn eye_point(j: &crate::body::JugglerPose) -> Vec3 {
    j.head + Vec3::Y * (0.25 * j.dims.head_radius())
}

/// The points that must be visible: each juggler's head top, feet, joints and hands, and
/// each prop's extent.
fn framing_points(poses: &[Pose]) -> Vec<Vec3> {
    let mut points = Vec::new();
    // A ball of radius r around c: its six extreme points.
    let mut sphere = |c: Vec3, r: f32| {
        for d in [Vec3::X, Vec3::Y, Vec3::Z] {
            points.push(c + d * r);
            points.push(c - d * r);
        }
    };
    for pose in poses {
        for j in &pose.jugglers {
            sphere(j.head, j.dims.head_radius() * 1.15);
            for p in j.feet.iter().chain(&j.knees) {
                sphere(*p, 0.08);
            }
            for arm in &j.arms {
                sphere(arm.shoulder, 0.08);
                sphere(arm.elbow, 0.07);
                sphere(arm.hand, 0.07);
            }
        }
        for prop in &pose.props {
            sphere(prop.position, 0.5 * prop.size.max(0.0) + 0.01);
        }
    }
    points
}

/// Azimuth and elevation of the named views (`None` for the automatic and the eye view) for
/// jugglers standing at these floor positions, juggler 1 facing `facing`. A solo juggler is
/// seen from the front, the right side or above. A group is seen as the audience sees it:
/// *front* from the audience, two passers side by side in profile (juggler 1 on the left, the
/// passes crossing between them), three or more turned so that no juggler stands in front of
/// another (the widest spread of the jugglers across the picture, nearest to juggler 1's
/// front); *side* a quarter turn from the front, along the passing line (from behind juggler
/// 1); *top* from above with the front view's left and right.
fn view_angles(view: ViewKind, jugglers: &[Vec3], facing: f32) -> Option<(f32, f32)> {
    use std::f32::consts::FRAC_PI_2;
    let (front, side, elevation) = match jugglers.len() {
        0 | 1 => (facing, facing - FRAC_PI_2, SOLO_ELEVATION),
        2 => {
            // From above enough to see the far passer over the near one's head.
            let front = automatic_angles(jugglers).0 - PASSING_AZIMUTH_OFFSET;
            (front, front - FRAC_PI_2, GROUP_ELEVATION)
        }
        _ => {
            let front = widest_spread_azimuth(jugglers, facing);
            (
                front,
                widest_spread_azimuth(jugglers, front - FRAC_PI_2),
                GROUP_ELEVATION,
            )
        }
    };
    match view {
        ViewKind::Front | ViewKind::Mirror if jugglers.len() == 2 => Some((front, SOLO_ELEVATION)),
        ViewKind::Front | ViewKind::Mirror => Some((front, elevation)),
        ViewKind::Side => Some((side, elevation)),
        ViewKind::Top => Some((front, MAX_ELEVATION)),
        ViewKind::Auto | ViewKind::Eye(_) => None,
    }
}

/// The azimuth, in half-degree steps, from which the jugglers' floor positions lie furthest
/// apart across the picture (the largest smallest gap between neighbours left to right), so
/// that none hides another; among those within 2 % of the best, the nearest to `preferred`.
fn widest_spread_azimuth(jugglers: &[Vec3], preferred: f32) -> f32 {
    const STEPS: usize = 720;
    let spread = |azimuth: f32| {
        // Camera right = (cos az, 0, -sin az).
        let (s, c) = azimuth.sin_cos();
        let mut across: Vec<f32> = jugglers.iter().map(|p| c * p.x - s * p.z).collect();
        across.sort_by(f32::total_cmp);
        across
            .windows(2)
            .map(|w| w[1] - w[0])
            .fold(f32::INFINITY, f32::min)
    };
    let candidates: Vec<(f32, f32)> = (0..STEPS)
        .map(|i| {
            let azimuth = preferred + std::f32::consts::TAU * i as f32 / STEPS as f32;
            (azimuth, spread(azimuth))
        })
        .collect();
    let best = candidates
        .iter()
        .map(|c| c.1)
        .filter(|s| s.is_finite())
        .fold(0.0, f32::max);
    let turn = |a: f32| {
        let d = (a - preferred).rem_euclid(std::f32::consts::TAU);
        d.min(std::f32::consts::TAU - d)
    };
    candidates
        .into_iter()
        .filter(|c| c.1 >= 0.98 * best)
        .min_by(|a, b| turn(a.0).total_cmp(&turn(b.0)))
        .map_or(preferred, |c| c.0)
}

/// Automatic azimuth and elevation for jugglers standing at these floor positions.
fn automatic_angles(jugglers: &[Vec3]) -> (f32, f32) {
    if jugglers.len() < 2 {
        let facing = 0.0;
        return (facing, SOLO_ELEVATION);
    }
    // The main axis of the group on the floor (for two jugglers: the line between them),
    // oriented from juggler 0 toward juggler 1.
    let axis = principal_axis(jugglers);
    // Camera right = (cos az, 0, -sin az); put juggler 0 on the left: right ≈ axis.
    let base = (-axis.z).atan2(axis.x);
    let elevation = if jugglers.len() == 2 {
        PASSING_ELEVATION
    } else {
        GROUP_ELEVATION
    };
    (base + PASSING_AZIMUTH_OFFSET, elevation)
}

/// Unit floor direction of the largest spread of the points (x/z), oriented from the first
/// point toward the second. Falls back to first -> second when the spread is round.
fn principal_axis(points: &[Vec3]) -> Vec3 {
    let n = points.len() as f32;
    let mean = points.iter().copied().sum::<Vec3>() / n;
    let (mut sxx, mut sxz, mut szz) = (0.0f32, 0.0f32, 0.0f32);
    for p in points {
        let d = *p - mean;
        sxx += d.x * d.x;
        sxz += d.x * d.z;
        szz += d.z * d.z;
    }
    let first_to_second = {
        let d = points[1] - points[0];
        Vec3::new(d.x, 0.0, d.z).try_normalize().unwrap_or(Vec3::X)
    };
    // Eigenvalues of [[sxx, sxz], [sxz, szz]].
    let half_trace = 0.5 * (sxx + szz);
    let det = sxx * szz - sxz * sxz;
    let disc = (half_trace * half_trace - det).max(0.0).sqrt();
    let (l1, l2) = (half_trace + disc, half_trace - disc);
    if l1 <= 1e-6 || l1 < 1.2 * l2 {
        return first_to_second;
    }
    let axis = if sxz.abs() > 1e-6 {
        Vec3::new(l1 - szz, 0.0, sxz).normalize()
    } else if sxx >= szz {
        Vec3::X
    } else {
        Vec3::Z
    };
    if axis.dot(first_to_second) < 0.0 {
        -axis
    } else {
        axis
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f32, b: f32, eps: f32) -> bool {
        (a - b).abs() <= eps
    }

    #[test]
    fn passing_view_puts_juggler_0_on_the_left_and_looks_down_20_degrees() {
        let jugglers = [Vec3::new(0.0, 0.0, -1.2), Vec3::new(0.0, 0.0, 1.2)];
        let (az, el) = automatic_angles(&jugglers);
        assert!(close(el.to_degrees(), 20.0, 1e-4));
        let cam = Camera {
            target: Vec3::ZERO,
            azimuth: az,
            elevation: el,
            ..Camera::default()
        };
        let a = cam.project(jugglers[0], 640, 480).unwrap().0;
        let b = cam.project(jugglers[1], 640, 480).unwrap().0;
        assert!(a.x < 200.0 && b.x > 440.0, "{a} {b}");
        // 20° off the perpendicular of the line between them.
        let d = cam.direction();
        let off = Vec3::new(d.x, 0.0, d.z)
            .normalize()
            .dot(Vec3::Z)
            .asin()
            .to_degrees()
            .abs();
        assert!(close(off, 20.0, 1e-3), "{off}");
    }

    fn scene(notation: &str) -> crate::scene::Scene {
        crate::scene::Scene::new(&crate::spec::PatternSpec::from_notation(notation)).unwrap()
    }

    #[test]
    fn views_are_named_read_back_and_cycled() {
        for v in [
            ViewKind::Auto,
            ViewKind::Front,
            ViewKind::Side,
            ViewKind::Top,
            ViewKind::Mirror,
            ViewKind::Eye(0),
            ViewKind::Eye(2),
        ] {
            assert_eq!(ViewKind::parse(&v.name()), Ok(v));
        }
        assert_eq!(ViewKind::parse(" Mirror "), Ok(ViewKind::Mirror));
        assert!(ViewKind::parse("eye0").is_err() && ViewKind::parse("back").is_err());
        let mut v = ViewKind::Auto;
        let mut seen = Vec::new();
        for _ in 0..8 {
            v = v.next(2);
            seen.push(v.name());
        }
        assert_eq!(
            seen,
            ["front", "side", "top", "mirror", "eye", "eye2", "auto", "front"]
        );
    }

    #[test]
    fn front_side_top_and_mirror_look_from_around_juggler_1() {
        let s = scene("3");
        let view = |view| {
            camera_with(
                &s,
                1.0,
                &ViewOverrides {
                    view,
                    ..ViewOverrides::default()
                },
            )
        };
        let front = view(ViewKind::Front);
        assert!(front.eye().z > 2.0 && !front.mirror, "{:?}", front.eye());
        // From the juggler's right (negative x), the juggler facing right on screen.
        let side = view(ViewKind::Side);
        assert!(
            side.eye().x < -2.0 && side.eye().z.abs() < 1.0,
            "{:?}",
            side.eye()
        );
        let top = view(ViewKind::Top);
        assert!(close(top.elevation, MAX_ELEVATION, 1e-6));
        let mirror = view(ViewKind::Mirror);
        assert!(mirror.mirror);
        assert_eq!(
            Camera {
                mirror: false,
                ..mirror
            },
            front
        );
        // A fixed angle wins over the view's.
        let turned = camera_with(
            &s,
            1.0,
            &ViewOverrides {
                view: ViewKind::Side,
                elevation: Some(0.5),
                ..ViewOverrides::default()
            },
        );
        assert!(close(turned.elevation, 0.5, 1e-6) && close(turned.azimuth, side.azimuth, 1e-6));
    }

    /// Pixel positions of every juggler's head and feet and every prop over a loop, seen
    /// through `view`'s camera in a 640x480 picture.
    fn seen(spec: &str, view: ViewKind) -> (Vec<Vec<glam::Vec2>>, Vec<glam::Vec2>) {
        let s = crate::scene::Scene::new(&crate::spec::PatternSpec::parse(spec).unwrap()).unwrap();
        let camera = camera_with(
            &s,
            640.0 / 480.0,
            &ViewOverrides {
                view,
                ..ViewOverrides::default()
            },
        );
        let screen = camera.view(640, 480);
        let px = |p: Vec3| screen.project(p).expect("in front of the camera").0;
        let (mut heads, mut props) = (vec![Vec::new(); s.jugglers()], Vec::new());
        for i in 0..40 {
            let pose = s.pose_at(s.loop_duration() * f64::from(i) / 40.0);
            for (k, j) in pose.jugglers.iter().enumerate() {
                heads[k].push(px(j.head));
                props.extend(j.feet.iter().map(|f| px(*f)));
            }
            props.extend(pose.props.iter().map(|p| px(p.position)));
        }
        (heads, props)
    }

    #[test]
    fn every_view_of_passers_holds_every_head_and_prop_and_the_front_shows_them_apart() {
        let inside = |p: &glam::Vec2| (0.0..=640.0).contains(&p.x) && (0.0..=480.0).contains(&p.y);
        for spec in [
            "975;jugglers=2;prop=club",
            "<3p|3p>;prop=club",
            "<3.3p3|3.3p3|4.3p3>;prop=club",
            "<3p2|3p3|3p4|3p1>",
        ] {
            for view in [
                ViewKind::Front,
                ViewKind::Side,
                ViewKind::Top,
                ViewKind::Auto,
            ] {
                let (heads, props) = seen(spec, view);
                for (k, head) in heads.iter().enumerate() {
                    assert!(
                        head.iter().all(inside),
                        "{spec} {view:?}: juggler {} at {:?}",
                        k + 1,
                        head.iter().find(|p| !inside(p))
                    );
                }
                assert!(
                    props.iter().all(inside),
                    "{spec} {view:?}: {:?}",
                    props.iter().find(|p| !inside(p))
                );
                // Front and top: no juggler's head within 12 % of the picture's width of
                // another's, left to right (two passers: 40 %).
                if matches!(view, ViewKind::Front | ViewKind::Top) {
                    let mut xs: Vec<f32> = heads.iter().map(|h| h[0].x).collect();
                    xs.sort_by(f32::total_cmp);
                    let gap = xs.windows(2).map(|w| w[1] - w[0]).fold(640.0, f32::min);
                    let least = if heads.len() == 2 { 256.0 } else { 77.0 };
                    assert!(gap > least, "{spec} {view:?}: heads {xs:?}");
                }
            }
        }
        // Two passers from the front: juggler 1 on the left; from the side, juggler 1 nearest.
        let (heads, _) = seen("975;jugglers=2;prop=club", ViewKind::Front);
        assert!(heads[0][0].x < 320.0 && heads[1][0].x > 320.0);
        let (heads, _) = seen("975;jugglers=2;prop=club", ViewKind::Side);
        assert!(heads[0][0].y > heads[1][0].y + 50.0, "{heads:?}");
        assert!((heads[0][0].x - heads[1][0].x).abs() < 20.0, "{heads:?}");
    }

    #[test]
    fn the_eye_view_puts_the_camera_in_the_head_looking_at_the_pattern() {
        for (notation, juggler) in [("3", 0), ("531", 0), ("<3p|3p>", 0), ("<3p|3p>", 1)] {
            let s = scene(notation);
            let camera = camera_with(
                &s,
                4.0 / 3.0,
                &ViewOverrides {
                    view: ViewKind::Eye(juggler),
                    ..ViewOverrides::default()
                },
            );
            let pose = s.pose_at(0.0);
            let head = &pose.jugglers[juggler];
            let eye = camera.eye();
            // In the head, at the eyes' height.
            assert!(
                eye.distance(head.head) < head.dims.head_radius(),
                "{notation} juggler {juggler}: eye {eye} head {}",
                head.head
            );
            assert!(eye.y > head.head.y);
            assert_eq!(camera.follow.map(|f| f.juggler), Some(juggler));
            // Looking forward, the way the juggler faces, at the props.
            let view = camera.view(640, 480);
            assert!(
                view.forward.dot(head.placement.forward()) > 0.3,
                "{notation}"
            );
            let centre =
                pose.props.iter().map(|p| p.position).sum::<Vec3>() / pose.props.len() as f32;
            assert!(
                view.forward.dot((centre - eye).normalize()) > 0.5,
                "{notation}"
            );
            // Every prop held in juggler's hands is in the picture.
            for p in pose
                .props
                .iter()
                .filter(|p| p.held_by.is_some_and(|h| h.juggler == juggler))
            {
                let (px, _) = view.project(p.position).expect("in front");
                assert!(
                    px.x >= 0.0 && px.x <= 640.0 && px.y >= 0.0 && px.y <= 480.0,
                    "{notation}: {px}"
                );
            }
            assert!((40f32.to_radians()..=110f32.to_radians()).contains(&camera.fov_y));
        }
    }

    #[test]
    fn a_camera_that_follows_a_juggler_moves_and_turns_with_it() {
        let s = scene("3");
        let mut pose = s.pose_at(0.0);
        let camera = Camera::eye_view(
            std::slice::from_ref(&pose),
            0,
            1.0,
            &ViewOverrides::default(),
        );
        assert_eq!(camera.for_pose(&pose), camera);
        // The juggler steps 1 m to the left (+x) and turns a quarter to face +x.
        let before = pose.jugglers[0].placement;
        pose.jugglers[0].placement = crate::layout::Placement {
            position: before.position + Vec3::X,
            facing: std::f32::consts::FRAC_PI_2,
        };
        let moved = camera.for_pose(&pose);
        let local = |c: &Camera, p: crate::layout::Placement| p.to_local(c.eye());
        assert!(local(&moved, pose.jugglers[0].placement).distance(local(&camera, before)) < 1e-5);
        assert!(close(
            moved.azimuth - camera.azimuth,
            std::f32::consts::FRAC_PI_2,
            1e-5
        ));
        // A camera that follows nobody stays.
        let still = Camera::default();
        assert_eq!(still.for_pose(&pose), still);
    }

    #[test]
    fn spec_overrides_angles_and_distance() {
        let spec = CameraSpec {
            azimuth_deg: 90.0,
            elevation_deg: 10.0,
            distance: Some(7.0),
        };
        let pose = Pose {
            time: 0.0,
            jugglers: vec![],
            props: vec![],
        };
        let cam = Camera::framing_all(&[pose], 1.5, Some(&spec));
        assert!(close(cam.azimuth, std::f32::consts::FRAC_PI_2, 1e-6));
        assert!(close(cam.elevation.to_degrees(), 10.0, 1e-4));
        assert!(close(cam.distance, 7.0, 1e-6));
    }
}
