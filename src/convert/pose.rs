//! Output formats written from a scene: the JSON contract of `juggler pose --json`.

use glam::Vec3;
use serde::Serialize;

use crate::body::props::{CLUB_LENGTH, CLUB_PIVOT_FROM_KNOB};
use crate::body::{ArmPose, JugglerPose, Pose, PropPose};
use crate::scene::Scene;
use crate::types::{Hand, HandRef, PropKind, Rgba};

/// `juggler pose --json`: the scene's pose at `pose.time` as one line of JSON (positions in
/// metres rounded to the micrometre).
pub fn pose_json(scene: &Scene, pose: &Pose) -> String {
    serde_json::to_string(&PoseReport::new(scene, pose)).unwrap_or_default()
}

fn is_one(n: &u32) -> bool {
    *n == 1
}

/// The JSON contract of `juggler pose --json` (issues 4 and 5).
#[derive(Serialize)]
struct PoseReport {
    time: f64,
    /// Each juggler's beats per second and dwell in its beats.
    bps: f64,
    dwell: f64,
    /// Fine beats per beat of a juggler (Prechac notation, shared siteswaps); left out
    /// when 1.
    #[serde(skip_serializing_if = "is_one")]
    fine_beats_per_beat: u32,
    loop_duration: f64,
    jugglers: Vec<JugglerReport>,
    props: Vec<PropReport>,
}

#[derive(Serialize)]
struct JugglerReport {
    position: [f64; 3],
    /// Degrees about +y; 0 faces +z.
    facing: f64,
    left: ArmReport,
    right: ArmReport,
    upper_arm: f32,
    forearm: f32,
    head: [f64; 3],
    /// Radius of the head sphere around `head`, metres.
    head_radius: f32,
    /// The torso as a capsule: the segment from the base of the neck to the middle of the hips,
    /// swept by a sphere of `radius` (half the chest's depth, 11.5 cm for the default adult).
    torso: CapsuleReport,
    /// Unit vector the head looks along.
    gaze: [f64; 3],
}

#[derive(Serialize)]
struct CapsuleReport {
    top: [f64; 3],
    bottom: [f64; 3],
    radius: f64,
}

#[derive(Serialize)]
struct ArmReport {
    hand: [f64; 3],
    shoulder: [f64; 3],
    elbow: [f64; 3],
    wrist: [f64; 3],
}

#[derive(Serialize)]
struct PropReport {
    kind: PropKind,
    position: [f64; 3],
    held_by: Option<HandRef>,
    orbit: usize,
    color: String,
    size: f32,
    /// Clubs: unit vector from the knob toward the body.
    #[serde(skip_serializing_if = "Option::is_none")]
    axis: Option<[f64; 3]>,
    /// Rings: unit normal of the ring's plane.
    #[serde(skip_serializing_if = "Option::is_none")]
    normal: Option<[f64; 3]>,
    /// Clubs: the knob (handle end) and the tip (body end); `position` is the centre of mass.
    #[serde(skip_serializing_if = "Option::is_none")]
    knob: Option<[f64; 3]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tip: Option<[f64; 3]>,
}

impl PoseReport {
    fn new(scene: &Scene, pose: &Pose) -> PoseReport {
        PoseReport {
            time: pose.time,
            bps: scene.beats_per_second(),
            dwell: scene.dwell_beats(),
            fine_beats_per_beat: scene.subdivision(),
            loop_duration: scene.loop_duration(),
            jugglers: pose.jugglers.iter().map(JugglerReport::new).collect(),
            props: pose.props.iter().map(PropReport::new).collect(),
        }
    }
}

impl JugglerReport {
    fn new(j: &JugglerPose) -> JugglerReport {
        JugglerReport {
            position: r3(j.placement.position),
            facing: round(f64::from(j.placement.facing.to_degrees())),
            left: ArmReport::new(&j.arms[Hand::Left.index()]),
            right: ArmReport::new(&j.arms[Hand::Right.index()]),
            upper_arm: j.dims.upper_arm,
            forearm: j.dims.forearm,
            head: r3(j.head),
            head_radius: j.dims.head_radius(),
            torso: CapsuleReport {
                top: r3(j.neck),
                bottom: r3((j.hips[0] + j.hips[1]) * 0.5),
                radius: round(f64::from(j.dims.torso_radius())),
            },
            gaze: r3(j.gaze),
        }
    }
}

impl ArmReport {
    fn new(a: &ArmPose) -> ArmReport {
        ArmReport {
            hand: r3(a.hand),
            shoulder: r3(a.shoulder),
            elbow: r3(a.elbow),
            wrist: r3(a.wrist),
        }
    }
}

impl PropReport {
    fn new(p: &PropPose) -> PropReport {
        let club = p.kind == PropKind::Club;
        let knob = p.position - p.axis * CLUB_PIVOT_FROM_KNOB;
        PropReport {
            kind: p.kind,
            position: r3(p.position),
            held_by: p.held_by,
            orbit: p.orbit,
            color: hex(p.color),
            size: p.size,
            axis: (p.kind == PropKind::Club).then(|| r3(p.axis)),
            normal: (p.kind == PropKind::Ring).then(|| r3(p.axis)),
            knob: club.then(|| r3(knob)),
            tip: club.then(|| r3(knob + p.axis * CLUB_LENGTH)),
        }
    }
}

/// A point or direction for JSON: rounded to the micrometre (hiding f32 noise such as
/// `1.049e-7` or `-0.0`), which keeps lengths checkable to 1e-5.
fn r3(v: Vec3) -> [f64; 3] {
    v.to_array().map(|x| round(f64::from(x)))
}

fn round(x: f64) -> f64 {
    let r = (x * 1e6).round() / 1e6;
    if r == 0.0 {
        0.0
    } else {
        r
    }
}

fn hex(c: Rgba) -> String {
    format!("#{:02x}{:02x}{:02x}", c.r, c.g, c.b)
}
