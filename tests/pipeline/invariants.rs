//! Whole-pipeline invariants, over every pattern of the shipped library and every valid shared
//! vector, at 1000 sampled times each: pattern -> scene -> pose -> frame description.
//! - nothing is NaN or infinite, no prop sinks through the floor;
//! - the upper arm always keeps its length, the forearm too whenever the hand is in reach;
//! - a held prop is at its hand (balls exactly, clubs and rings within their own size);
//! - the loop is seamless: the pose at t + loop duration equals the pose at t;
//! - the frame description is non-empty, and every juggler and prop shape lies inside the image.

use crate::common;

use glam::Vec2;

use juggler::body::Pose;
use juggler::motion::{MAX_FLIGHT_LANE, MULTIPLEX_SPREAD};
use juggler::render::{auto_camera, build_layers, Part, Shape, Style};
use juggler::scene::Scene;
use juggler::schedule::Schedule;
use juggler::spec::PatternSpec;
use juggler::types::{Hand, PropKind};

const SAMPLES: usize = 1000;
const WIDTH: u32 = 480;
const HEIGHT: u32 = 360;

fn all_specs() -> Vec<PatternSpec> {
    common::vector_and_library_specs()
}

/// The most props one hand throws at once.
fn largest_multiplex(schedule: Option<&Schedule>) -> usize {
    let Some(schedule) = schedule else {
        return 1;
    };
    let mut counts = std::collections::HashMap::new();
    for throw in &schedule.throws {
        *counts.entry((throw.beat, throw.from)).or_insert(0) += 1;
    }
    counts.into_values().max().unwrap_or(1)
}

fn all_finite(pose: &Pose) -> bool {
    pose.jugglers.iter().all(|j| {
        j.arms
            .iter()
            .flat_map(|a| [a.shoulder, a.elbow, a.wrist, a.hand])
            .chain([j.head, j.neck])
            .chain(j.hips)
            .chain(j.knees)
            .chain(j.feet)
            .all(|p| p.is_finite())
    }) && pose
        .props
        .iter()
        .all(|p| p.position.is_finite() && p.axis.is_finite())
}

fn max_difference(a: &Pose, b: &Pose) -> f32 {
    let joints = a.jugglers.iter().zip(&b.jugglers).flat_map(|(x, y)| {
        x.arms
            .iter()
            .zip(&y.arms)
            .flat_map(|(p, q)| [p.elbow.distance(q.elbow), p.hand.distance(q.hand)])
    });
    let props = a
        .props
        .iter()
        .zip(&b.props)
        .map(|(p, q)| p.position.distance(q.position));
    joints.chain(props).fold(0.0, f32::max)
}

fn inside(p: Vec2, margin: f32) -> bool {
    p.is_finite()
        && p.x >= -margin
        && p.y >= -margin
        && p.x <= WIDTH as f32 + margin
        && p.y <= HEIGHT as f32 + margin
}

fn shape_inside(shape: &Shape) -> bool {
    // Half a prop's width may poke out at the very top of a throw; centres and joints may not.
    match shape {
        Shape::Circle { center, .. } => inside(*center, 0.0),
        Shape::Line { from, to, .. } => inside(*from, 0.0) && inside(*to, 0.0),
        Shape::Polygon { points, .. } => points.iter().all(|p| inside(*p, 4.0)),
        Shape::Text { at, .. } => inside(*at, 0.0),
    }
}

#[test]
fn every_pattern_animates_and_draws_correctly_at_1000_times() {
    let specs = all_specs();
    assert!(specs.len() >= 130, "library + vectors: {}", specs.len());
    let style = Style::default();
    for spec in &specs {
        let name = format!("{} ({})", spec.name, spec.source.text());
        let scene = Scene::new(spec).unwrap_or_else(|e| panic!("{name}: {e}"));
        let loop_duration = scene.loop_duration();
        assert!(loop_duration.is_finite() && loop_duration > 0.0, "{name}");
        // Props of one multiplex sit side by side, MULTIPLEX_SPREAD apart, around the hand,
        // and a prop may be off the hand's point by its flight lane.
        let multiplex = largest_multiplex(scene.schedule());
        let ball_gap =
            1e-4 + (MULTIPLEX_SPREAD * (multiplex - 1) as f64 / 2.0 + MAX_FLIGHT_LANE) as f32;
        let camera = auto_camera(&scene, WIDTH as f32 / HEIGHT as f32, None);
        for k in 0..SAMPLES {
            let t = loop_duration * k as f64 / SAMPLES as f64;
            let at = format!("{name} at t={t:.4}");
            let pose = scene.pose_at(t);
            assert!(all_finite(&pose), "{at}: not finite: {pose:?}");
            assert_eq!(pose.props.len(), scene.props(), "{at}");

            for (j, juggler) in pose.jugglers.iter().enumerate() {
                let dims = scene.dims(j);
                let reach = dims.upper_arm + dims.forearm;
                for side in Hand::BOTH {
                    let arm = juggler.arms[side.index()];
                    let upper = arm.shoulder.distance(arm.elbow);
                    assert!(
                        (upper - dims.upper_arm).abs() < 1e-5,
                        "{at}: upper arm {upper}"
                    );
                    // In reach of the shoulder at rest (the shoulder may shrug toward a far hand).
                    let rest = juggler.placement.to_world(dims.shoulder(side));
                    if rest.distance(arm.hand) <= reach {
                        let fore = arm.elbow.distance(arm.hand);
                        assert!((fore - dims.forearm).abs() < 1e-5, "{at}: forearm {fore}");
                    }
                }
            }

            for (i, prop) in pose.props.iter().enumerate() {
                // Nothing sinks through the floor or flies off to infinity.
                assert!(
                    prop.size > 0.0 && prop.position.y > -0.3 && prop.position.length() < 50.0,
                    "{at}: prop {i} at {:?}, size {}",
                    prop.position,
                    prop.size
                );
                if let Some(holder) = prop.held_by {
                    let hand = pose.jugglers[holder.juggler].arms[holder.hand.index()].hand;
                    let gap = prop.position.distance(hand);
                    let allowed = match prop.kind {
                        PropKind::Ball => ball_gap,
                        PropKind::Club | PropKind::Ring => prop.size,
                    };
                    assert!(gap <= allowed, "{at}: prop {i} is {gap} m from its hand");
                }
            }

            let later = scene.pose_at(t + loop_duration);
            let drift = max_difference(&pose, &later);
            assert!(drift < 1e-3, "{at}: loop not seamless, {drift} m apart");

            let layers = build_layers(&pose, &camera, WIDTH, HEIGHT, &style);
            assert!(
                layers.iter().any(|l| !l.shapes.is_empty()),
                "{at}: empty frame"
            );
            for layer in &layers {
                if matches!(layer.part, Part::Floor | Part::Shadow { .. }) {
                    continue;
                }
                for shape in &layer.shapes {
                    assert!(
                        shape_inside(shape),
                        "{at}: {:?} outside: {shape:?}",
                        layer.part
                    );
                }
            }
        }
    }
}
