//! A perspective camera orbiting a target point, its projection to pixels, and fitting a set
//! of points into the image (`Camera::fit`; choosing the view for a scene is `framing.rs`).
//!
//! Angles: `azimuth` turns the camera around the vertical axis through `target`
//! (0 = camera on the +z side looking toward -z, i.e. in front of a solo juggler; positive
//! azimuth moves the camera toward +x); `elevation` is the angle above the horizon
//! (positive looks down on the scene).

use glam::{Vec2, Vec3};

use crate::body::Pose;
use crate::layout::Placement;

/// Nearest depth (metres in front of the eye) that projects; closer points are clipped.
pub(crate) const NEAR: f32 = 0.05;

/// Default vertical field of view: 30°, a moderate telephoto-free perspective.
pub(crate) const DEFAULT_FOV_Y: f32 = 30.0 * std::f32::consts::PI / 180.0;

/// Elevation of the solo front view: slightly from above.
pub(super) const SOLO_ELEVATION: f32 = 10.0 * std::f32::consts::PI / 180.0;
/// Elevation is kept inside ±89° so the view basis never degenerates.
pub(super) const MAX_ELEVATION: f32 = 89.0 * std::f32::consts::PI / 180.0;
/// Fraction of the half-image the framed points may use (the rest is margin).
pub(super) const FRAME_FILL: f32 = 0.88;
/// The camera never frames from closer than this (metres).
const MIN_DISTANCE: f32 = 1.0;

/// A perspective camera orbiting `target`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// The point looked at (world, metres); it projects to the image centre.
    pub target: Vec3,
    /// Radians around the vertical axis; 0 = camera on the +z side.
    pub azimuth: f32,
    /// Radians above the horizon; positive looks down.
    pub elevation: f32,
    /// Metres from `target` to the eye.
    pub distance: f32,
    /// Vertical field of view in radians.
    pub fov_y: f32,
    /// The picture mirrored left to right: what a juggler sees of this view in a mirror.
    pub mirror: bool,
    /// The camera rides along with a juggler (the juggler's-eye view): as placed here while
    /// that juggler stood at `anchor`, moved and turned with the juggler since.
    pub follow: Option<Follow>,
}

/// Which juggler a camera rides along with, and where that juggler stood when the camera
/// was placed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Follow {
    /// 0-based juggler.
    pub juggler: usize,
    pub anchor: Placement,
}

impl Default for Camera {
    /// Front view of a solo juggler standing at the origin.
    fn default() -> Self {
        Camera {
            target: Vec3::new(0.0, 1.1, 0.1),
            azimuth: 0.0,
            elevation: SOLO_ELEVATION,
            distance: 5.5,
            fov_y: DEFAULT_FOV_Y,
            mirror: false,
            follow: None,
        }
    }
}

/// A camera prepared for one image size: eye, orthonormal basis and focal length in pixels.
/// Build it once per frame with [`Camera::view`] and project many points with it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct View {
    pub eye: Vec3,
    /// Unit vectors: screen right, screen up, and into the screen.
    pub right: Vec3,
    pub up: Vec3,
    pub forward: Vec3,
    /// Pixels per metre at a depth of one metre.
    pub focal: f32,
    pub center: Vec2,
}

impl View {
    /// Depth of a world point: metres in front of the eye along the view direction.
    pub(crate) fn depth(&self, p: Vec3) -> f32 {
        (p - self.eye).dot(self.forward)
    }

    /// Pixel position (origin top-left, y down) and depth of a world point, or `None` when it
    /// is closer than [`NEAR`] (behind the camera).
    pub(crate) fn project(&self, p: Vec3) -> Option<(Vec2, f32)> {
        let rel = p - self.eye;
        let depth = rel.dot(self.forward);
        if depth.is_nan() || depth < NEAR {
            return None;
        }
        let s = self.focal / depth;
        Some((
            Vec2::new(
                self.center.x + rel.dot(self.right) * s,
                self.center.y - rel.dot(self.up) * s,
            ),
            depth,
        ))
    }

    /// Pixels per metre for an object at this depth.
    pub(crate) fn scale(&self, depth: f32) -> f32 {
        self.focal / depth.max(NEAR)
    }
}

impl Camera {
    /// Unit vector from `target` toward the eye.
    pub(crate) fn direction(&self) -> Vec3 {
        let el = self.elevation.clamp(-MAX_ELEVATION, MAX_ELEVATION);
        let (sa, ca) = self.azimuth.sin_cos();
        let (se, ce) = el.sin_cos();
        Vec3::new(sa * ce, se, ca * ce)
    }

    /// World position of the eye.
    pub(crate) fn eye(&self) -> Vec3 {
        self.target + self.direction() * self.distance
    }

    /// The camera prepared for an image of `width` × `height` pixels.
    pub(crate) fn view(&self, width: u32, height: u32) -> View {
        let forward = -self.direction();
        let right = forward.cross(Vec3::Y).normalize();
        let up = right.cross(forward);
        let fov = self.fov_y.clamp(0.01, 3.0);
        View {
            eye: self.eye(),
            // A mirror swaps left and right on screen; up and depth stay.
            right: if self.mirror { -right } else { right },
            up,
            forward,
            focal: 0.5 * height as f32 / (0.5 * fov).tan(),
            center: Vec2::new(0.5 * width as f32, 0.5 * height as f32),
        }
    }

    /// The camera for `pose`: itself, or when it follows a juggler, moved and turned with
    /// that juggler from where it stood at the anchor to where it stands in `pose`.
    pub fn for_pose(&self, pose: &Pose) -> Camera {
        let Some(follow) = self.follow else {
            return *self;
        };
        let Some(now) = pose.jugglers.get(follow.juggler).map(|j| j.placement) else {
            return *self;
        };
        if now == follow.anchor {
            return *self;
        }
        let target = now.to_world(follow.anchor.to_local(self.target));
        let azimuth = self.azimuth + (now.facing - follow.anchor.facing);
        if !(target.is_finite() && azimuth.is_finite()) {
            return *self;
        }
        Camera {
            target,
            azimuth,
            ..*self
        }
    }

    /// Pixel position (origin top-left, y down) and depth (metres in front of the eye) of a
    /// world point in an image of `width` × `height`; `None` behind the camera.
    pub fn project(&self, p: Vec3, width: u32, height: u32) -> Option<(Vec2, f32)> {
        self.view(width, height).project(p)
    }

    /// Frame `points` from the given angles: the target and (unless `fixed_distance`) the
    /// distance are chosen so that every point lies in the central `FRAME_FILL` of the image.
    pub(crate) fn fit(
        points: &[Vec3],
        azimuth: f32,
        elevation: f32,
        fov_y: f32,
        aspect: f32,
        fixed_distance: Option<f32>,
    ) -> Camera {
        let mut camera = Camera {
            target: Camera::default().target,
            azimuth,
            elevation,
            distance: fixed_distance.unwrap_or(Camera::default().distance),
            fov_y,
            ..Camera::default()
        };
        let points: Vec<Vec3> = points.iter().copied().filter(|p| p.is_finite()).collect();
        if points.is_empty() {
            return camera;
        }
        let aspect = if aspect.is_finite() && aspect > 0.0 {
            aspect
        } else {
            4.0 / 3.0
        };
        let (lo, hi) = points.iter().fold(
            (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)),
            |(lo, hi), p| (lo.min(*p), hi.max(*p)),
        );
        camera.target = 0.5 * (lo + hi);
        let tan_y = (0.5 * fov_y).tan() * FRAME_FILL;
        let tan_x = tan_y * aspect;
        // Two rounds: fit the distance, then re-centre the target on the projected extent.
        for _ in 0..3 {
            let forward = -camera.direction();
            let right = forward.cross(Vec3::Y).normalize();
            let up = right.cross(forward);
            if fixed_distance.is_none() {
                let needed = points
                    .iter()
                    .map(|p| {
                        let rel = *p - camera.target;
                        let z = rel.dot(forward);
                        (rel.dot(right).abs() / tan_x - z).max(rel.dot(up).abs() / tan_y - z)
                    })
                    .fold(MIN_DISTANCE, f32::max);
                camera.distance = needed;
            }
            // Re-centre: shift the target by the middle of the projected extent.
            let eye = camera.eye();
            let (mut x0, mut x1, mut y0, mut y1) = (f32::MAX, f32::MIN, f32::MAX, f32::MIN);
            for p in &points {
                let rel = *p - eye;
                let depth = rel.dot(forward).max(NEAR);
                let (x, y) = (rel.dot(right) / depth, rel.dot(up) / depth);
                (x0, x1, y0, y1) = (x0.min(x), x1.max(x), y0.min(y), y1.max(y));
            }
            let shift = right * (0.5 * (x0 + x1)) + up * (0.5 * (y0 + y1));
            camera.target += shift * camera.distance;
        }
        camera
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f32, b: f32, eps: f32) -> bool {
        (a - b).abs() <= eps
    }

    fn to_pixel(view: &View, p: Vec3) -> Option<Vec2> {
        view.project(p).map(|(px, _)| px)
    }

    #[test]
    fn target_projects_to_the_image_centre() {
        let cam = Camera {
            target: Vec3::new(0.3, 1.2, -0.4),
            ..Camera::default()
        };
        let (px, depth) = cam.project(cam.target, 640, 480).expect("in front");
        assert!(close(px.x, 320.0, 1e-3) && close(px.y, 240.0, 1e-3), "{px}");
        assert!(close(depth, cam.distance, 1e-4));
    }

    #[test]
    fn front_camera_projects_known_points() {
        // Camera at (0, 1, 5) looking toward -z, fov 90°: focal = 240 px on a 480 px image.
        let cam = Camera {
            target: Vec3::new(0.0, 1.0, 0.0),
            azimuth: 0.0,
            elevation: 0.0,
            distance: 5.0,
            fov_y: std::f32::consts::FRAC_PI_2,
            ..Camera::default()
        };
        // One metre to the right and up at the target's depth: 240/5 = 48 px per metre.
        let (px, depth) = cam.project(Vec3::new(1.0, 2.0, 0.0), 640, 480).unwrap();
        assert!(close(px.x, 368.0, 1e-3) && close(px.y, 192.0, 1e-3), "{px}");
        assert!(close(depth, 5.0, 1e-5));
        // Twice as far away: half the offset.
        let (px, depth) = cam.project(Vec3::new(1.0, 1.0, -5.0), 640, 480).unwrap();
        assert!(close(px.x, 344.0, 1e-3) && close(px.y, 240.0, 1e-3), "{px}");
        assert!(close(depth, 10.0, 1e-5));
        // Behind the eye: not projected.
        assert!(cam.project(Vec3::new(0.0, 1.0, 6.0), 640, 480).is_none());
    }

    #[test]
    fn solo_juggler_right_hand_appears_on_the_left_of_a_front_view() {
        let cam = Camera {
            elevation: 0.0,
            ..Camera::default()
        };
        let right_hand = cam.project(Vec3::new(-0.3, 1.0, 0.3), 640, 480).unwrap().0;
        let left_hand = cam.project(Vec3::new(0.3, 1.0, 0.3), 640, 480).unwrap().0;
        assert!(right_hand.x < 320.0 && left_hand.x > 320.0);
    }

    #[test]
    fn positive_elevation_looks_down() {
        let cam = Camera {
            elevation: 0.5,
            ..Camera::default()
        };
        assert!(cam.eye().y > cam.target.y);
        // A point on the floor below the target is lower on screen than the target.
        let floor = cam
            .project(Vec3::new(cam.target.x, 0.0, cam.target.z), 640, 480)
            .unwrap()
            .0;
        assert!(floor.y > 240.0);
    }

    #[test]
    fn azimuth_ninety_degrees_looks_from_plus_x() {
        let cam = Camera {
            azimuth: std::f32::consts::FRAC_PI_2,
            elevation: 0.0,
            ..Camera::default()
        };
        let eye = cam.eye();
        assert!(
            close(eye.x - cam.target.x, cam.distance, 1e-4) && close(eye.z, cam.target.z, 1e-4)
        );
    }

    #[test]
    fn fit_keeps_every_point_inside_the_image() {
        let points = [
            Vec3::new(-0.5, 0.0, 0.0),
            Vec3::new(0.5, 0.0, 0.2),
            Vec3::new(0.0, 3.5, 0.3),
            Vec3::new(0.2, 1.0, -0.3),
        ];
        for (az, el) in [(0.0f32, 0.1f32), (1.0, 0.3), (-2.5, -0.2), (3.0, 1.2)] {
            for (w, h) in [(640u32, 480u32), (400, 450), (300, 900)] {
                let cam = Camera::fit(&points, az, el, DEFAULT_FOV_Y, w as f32 / h as f32, None);
                let view = cam.view(w, h);
                for p in points {
                    let px = to_pixel(&view, p).expect("in front");
                    assert!(
                        px.x >= 0.0 && px.x <= w as f32,
                        "az {az} el {el} {w}x{h}: {px}"
                    );
                    assert!(
                        px.y >= 0.0 && px.y <= h as f32,
                        "az {az} el {el} {w}x{h}: {px}"
                    );
                }
            }
        }
    }

    #[test]
    fn fit_uses_most_of_the_image() {
        // A tall thin column: its height should fill about FRAME_FILL of the image height.
        let points = [Vec3::new(0.0, 0.0, 0.0), Vec3::new(0.0, 2.0, 0.0)];
        let cam = Camera::fit(&points, 0.0, 0.0, DEFAULT_FOV_Y, 1.0, None);
        let view = cam.view(500, 500);
        let top = to_pixel(&view, points[1]).unwrap();
        let bottom = to_pixel(&view, points[0]).unwrap();
        let used = (bottom.y - top.y) / 500.0;
        assert!(close(used, FRAME_FILL, 0.01), "{used}");
        assert!(close(0.5 * (top.y + bottom.y), 250.0, 0.5));
    }

    #[test]
    fn extreme_elevation_keeps_a_valid_basis() {
        let cam = Camera {
            elevation: 10.0,
            ..Camera::default()
        };
        let view = cam.view(100, 100);
        assert!(view.right.is_finite() && view.up.is_finite());
        assert!(close(view.right.length(), 1.0, 1e-4));
    }
}
