//! Framing a scene: where the camera looks from (automatic angles for one, two or more
//! jugglers, or the user's [`ViewOverrides`]) and how far, so that every juggler and prop of
//! poses sampled over a loop stays in the image; and how long the picture's loop is
//! ([`picture_loop`]: props that look alike may trade places). The window and the export both
//! take their camera from here ([`camera_with`]), so they show the same view.

use glam::Vec3;

use super::camera::{Camera, DEFAULT_FOV_Y, MAX_ELEVATION, NEAR, SOLO_ELEVATION};
use crate::body::Pose;
use crate::settings::CameraSpec;

/// Passing view: like Juggling Lab, 20° off the side view and 20° down.
const PASSING_AZIMUTH_OFFSET: f32 = -20.0 * std::f32::consts::PI / 180.0;
const PASSING_ELEVATION: f32 = 20.0 * std::f32::consts::PI / 180.0;
/// Three or more jugglers: a bit higher, to see into the circle.
const GROUP_ELEVATION: f32 = 30.0 * std::f32::consts::PI / 180.0;

/// View settings fixed by the user; `None` = automatic. Angles in radians, distance in metres.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ViewOverrides {
    pub azimuth: Option<f32>,
    pub elevation: Option<f32>,
    pub distance: Option<f32>,
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
        ViewOverrides {
            azimuth: self.azimuth.or(own.azimuth),
            elevation: self.elevation.or(own.elevation),
            distance: self.distance.or(own.distance),
        }
    }
}

impl From<&CameraSpec> for ViewOverrides {
    fn from(spec: &CameraSpec) -> Self {
        ViewOverrides {
            azimuth: Some(spec.azimuth_deg.to_radians()),
            elevation: Some(spec.elevation_deg.to_radians()),
            distance: spec.distance,
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
    Camera::framing_with(&poses, aspect, overrides)
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
        if let Some(a) = overrides.azimuth.filter(|a| a.is_finite()) {
            azimuth = a;
        }
        if let Some(e) = overrides.elevation.filter(|e| e.is_finite()) {
            elevation = e.clamp(-MAX_ELEVATION, MAX_ELEVATION);
        }
        let fixed_distance = overrides.distance.filter(|d| d.is_finite() && *d > NEAR);
        Camera::fit(
            &points,
            azimuth,
            elevation,
            DEFAULT_FOV_Y,
            aspect,
            fixed_distance,
        )
    }
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
