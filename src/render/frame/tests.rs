use glam::{Vec2, Vec3};

use super::order::in_front_of_cylinder;
use super::paint::convex_hull;
use super::*;
use crate::body::{JugglerPose, PropPose};
use crate::layout::Placement;
use crate::render::fixture::{ball, standing, Cascade};
use crate::render::Shape;
use crate::types::{PropKind, Rgba};

const W: u32 = 640;
const H: u32 = 480;

/// A solo juggler at the origin, hands in front at hip height, with the given props.
fn solo(props: Vec<PropPose>) -> Pose {
    let placement = Placement {
        position: Vec3::ZERO,
        facing: 0.0,
    };
    let juggler = standing(
        placement,
        [Vec3::new(0.3, 1.0, 0.3), Vec3::new(-0.3, 1.0, 0.3)],
    );
    Pose {
        time: 0.0,
        jugglers: vec![juggler],
        props,
    }
}

fn front_camera() -> Camera {
    Camera {
        target: Vec3::new(0.0, 1.0, 0.0),
        azimuth: 0.0,
        elevation: 0.1,
        distance: 5.0,
        ..Camera::default()
    }
}

fn index_of(layers: &[Layer], part: Part) -> usize {
    layers
        .iter()
        .position(|l| l.part == part)
        .unwrap_or_else(|| panic!("{part:?} missing"))
}

fn red() -> Rgba {
    Rgba::rgb(220, 30, 30)
}

/// A red club of the default length (0.485 m) flying at `position` along `axis`.
fn club_pose(position: Vec3, axis: Vec3) -> PropPose {
    PropPose {
        kind: PropKind::Club,
        axis,
        size: 0.485,
        ..ball(position, red())
    }
}

#[test]
fn one_layer_per_limb_and_prop_and_five_discs_per_ball() {
    let pose = solo(vec![
        ball(Vec3::new(0.0, 1.6, 0.3), red()),
        ball(Vec3::new(0.3, 1.0, 0.3), red()),
        ball(Vec3::new(-0.2, 1.9, 0.3), red()),
    ]);
    let layers = build_layers(&pose, &front_camera(), W, H, &Style::default());
    let count = |f: &dyn Fn(&Part) -> bool| layers.iter().filter(|l| f(&l.part)).count();
    assert_eq!(count(&|p| matches!(p, Part::Body { juggler: 0 })), 1);
    assert_eq!(count(&|p| matches!(p, Part::UpperArm { .. })), 2);
    assert_eq!(count(&|p| matches!(p, Part::Forearm { .. })), 2);
    assert_eq!(count(&|p| matches!(p, Part::Hand { .. })), 2);
    assert_eq!(count(&|p| matches!(p, Part::Prop { .. })), 3);
    assert_eq!(count(&|p| matches!(p, Part::Shadow { juggler: None })), 3);
    for l in layers
        .iter()
        .filter(|l| matches!(l.part, Part::Prop { .. }))
    {
        assert_eq!(l.shapes.len(), 5);
        assert!(l.shapes.iter().all(|s| matches!(s, Shape::Circle { .. })));
    }
    // Each limb is an outlined thick line: outline + fill.
    for l in layers
        .iter()
        .filter(|l| matches!(l.part, Part::UpperArm { .. } | Part::Forearm { .. }))
    {
        assert_eq!(l.shapes.len(), 2);
        assert!(l.shapes.iter().all(|s| matches!(s, Shape::Line { .. })));
    }
    // The frame is exactly the layers flattened.
    let frame = build_frame(&pose, &front_camera(), W, H);
    assert_eq!(
        frame.shapes.len(),
        layers.iter().map(|l| l.shapes.len()).sum::<usize>()
    );
    assert_eq!((frame.width, frame.height), (W, H));
}

#[test]
fn prop_behind_the_body_is_drawn_before_it_and_prop_in_front_after() {
    let behind = ball(Vec3::new(0.05, 1.2, -0.3), red());
    let front = ball(Vec3::new(-0.05, 1.2, 0.3), Rgba::rgb(30, 30, 220));
    let pose = solo(vec![behind, front]);
    let layers = build_layers(&pose, &front_camera(), W, H, &Style::default());
    let body = index_of(&layers, Part::Body { juggler: 0 });
    assert!(index_of(&layers, Part::Prop { index: 0 }) < body);
    assert!(index_of(&layers, Part::Prop { index: 1 }) > body);

    // The same in the flat frame: the torso is the polygon in the shirt colour.
    let frame = build_frame(&pose, &front_camera(), W, H);
    let shirt = Style::default().shirt(0);
    let torso = frame
        .shapes
        .iter()
        .position(|s| matches!(s, Shape::Polygon { color, .. } if *color == shirt))
        .expect("torso");
    let first_of = |c: Rgba| {
        frame
            .shapes
            .iter()
            .position(|s| matches!(s, Shape::Circle { color, .. } if *color == c))
            .expect("prop")
    };
    assert!(first_of(red()) < torso);
    assert!(first_of(Rgba::rgb(30, 30, 220)) > torso);

    // Seen from behind, the order flips.
    let back = Camera {
        azimuth: std::f32::consts::PI,
        ..front_camera()
    };
    let layers = build_layers(&pose, &back, W, H, &Style::default());
    let body = index_of(&layers, Part::Body { juggler: 0 });
    assert!(index_of(&layers, Part::Prop { index: 0 }) > body);
    assert!(index_of(&layers, Part::Prop { index: 1 }) < body);
}

#[test]
fn cylinder_test_tells_front_from_behind_along_the_ray() {
    let eye = Vec3::new(0.0, 1.0, 5.0);
    let axis = Vec3::ZERO;
    // Straight in front of / behind the body at chest height.
    assert_eq!(
        in_front_of_cylinder(eye, Vec3::new(0.0, 1.0, 0.4), axis, 0.17, 1.7),
        Some(true)
    );
    assert_eq!(
        in_front_of_cylinder(eye, Vec3::new(0.0, 1.0, -0.4), axis, 0.17, 1.7),
        Some(false)
    );
    // Well to the side: the ray misses the body.
    assert_eq!(
        in_front_of_cylinder(eye, Vec3::new(0.6, 1.0, -0.4), axis, 0.17, 1.7),
        None
    );
    // Above the head, behind: from a level eye the ray passes over the body.
    assert_eq!(
        in_front_of_cylinder(eye, Vec3::new(0.0, 2.5, -0.3), axis, 0.17, 1.7),
        None
    );
    // From high above, a point low in front of the legs is in front.
    let high = Vec3::new(0.0, 6.0, 3.0);
    assert_eq!(
        in_front_of_cylinder(high, Vec3::new(0.0, 0.8, 0.3), axis, 0.17, 1.7),
        Some(true)
    );
    // ... and one behind the back at the same height is behind.
    assert_eq!(
        in_front_of_cylinder(high, Vec3::new(0.0, 0.8, -0.3), axis, 0.17, 1.7),
        Some(false)
    );
}

#[test]
fn prop_held_low_in_front_is_drawn_over_the_legs_even_from_high_above() {
    // Depth alone would put it behind: from 60° up, lower points are farther.
    let low_front = ball(Vec3::new(0.05, 0.75, 0.3), red());
    let cam = Camera {
        elevation: 60f32.to_radians(),
        ..front_camera()
    };
    let placement = Placement {
        position: Vec3::ZERO,
        facing: 0.0,
    };
    let juggler = standing(
        placement,
        [Vec3::new(0.12, 0.9, 0.3), Vec3::new(-0.12, 0.9, 0.3)],
    );
    let pose = Pose {
        time: 0.0,
        jugglers: vec![juggler],
        props: vec![low_front],
    };
    let layers = build_layers(&pose, &cam, W, H, &Style::default());
    let body = index_of(&layers, Part::Body { juggler: 0 });
    assert!(index_of(&layers, Part::Prop { index: 0 }) > body);
    // Both hands (in front of the hips, over the legs on screen) too.
    for hand in Hand::BOTH {
        assert!(
            index_of(&layers, Part::Hand { juggler: 0, hand }) > body,
            "{hand:?}"
        );
    }
}

#[test]
fn far_arm_is_drawn_before_the_torso_and_near_arm_after() {
    // Camera on the juggler's left (+x): the left arm is near, the right arm far.
    let side = Camera {
        azimuth: std::f32::consts::FRAC_PI_2,
        ..front_camera()
    };
    let layers = build_layers(&solo(vec![]), &side, W, H, &Style::default());
    let body = index_of(&layers, Part::Body { juggler: 0 });
    for part in [
        Part::UpperArm {
            juggler: 0,
            hand: Hand::Right,
        },
        Part::Forearm {
            juggler: 0,
            hand: Hand::Right,
        },
    ] {
        assert!(index_of(&layers, part) < body, "{part:?}");
    }
    for part in [
        Part::UpperArm {
            juggler: 0,
            hand: Hand::Left,
        },
        Part::Forearm {
            juggler: 0,
            hand: Hand::Left,
        },
    ] {
        assert!(index_of(&layers, part) > body, "{part:?}");
    }
}

#[test]
fn floor_and_shadows_come_first() {
    let pose = solo(vec![ball(Vec3::new(0.0, 2.0, 0.3), red())]);
    let layers = build_layers(&pose, &front_camera(), W, H, &Style::default());
    assert_eq!(layers[0].part, Part::Floor);
    let last_floor = layers.iter().rposition(|l| l.depth.is_infinite()).unwrap();
    assert!(layers[..=last_floor]
        .iter()
        .all(|l| matches!(l.part, Part::Floor | Part::Shadow { .. })));
    assert!(layers[last_floor + 1..]
        .iter()
        .all(|l| !matches!(l.part, Part::Floor | Part::Shadow { .. })));
    // Non-floor layers are ordered far to near.
    assert!(layers[last_floor + 1..]
        .windows(2)
        .all(|w| w[0].depth >= w[1].depth));
}

#[test]
fn ball_size_scales_with_perspective() {
    let near = ball(Vec3::new(-0.5, 1.0, 1.0), red());
    let far = ball(Vec3::new(0.5, 1.0, -4.0), red());
    let cam = Camera {
        elevation: 0.0,
        ..front_camera()
    };
    let layers = build_layers(&solo(vec![near, far]), &cam, W, H, &Style::default());
    let radius = |i: usize| match &layers[index_of(&layers, Part::Prop { index: i })].shapes[1] {
        Shape::Circle { radius, .. } => *radius,
        s => panic!("{s:?}"),
    };
    // Depths 4 and 9 m: radii in the ratio 9:4; focal = 240 / tan(15°).
    let focal = 240.0 / (15f32.to_radians()).tan();
    assert!((radius(0) - 0.05 * focal / 4.0).abs() < 1e-3);
    assert!((radius(1) - 0.05 * focal / 9.0).abs() < 1e-3);
}

#[test]
fn ball_is_centred_on_its_projection() {
    let pos = Vec3::new(0.4, 1.7, 0.2);
    let cam = front_camera();
    let layers = build_layers(&solo(vec![ball(pos, red())]), &cam, W, H, &Style::default());
    let expected = cam.project(pos, W, H).unwrap().0;
    match &layers[index_of(&layers, Part::Prop { index: 0 })].shapes[0] {
        Shape::Circle { center, .. } => assert!(center.distance(expected) < 1e-4),
        s => panic!("{s:?}"),
    }
}

#[test]
fn club_spins_visibly_and_ring_shows_its_plane() {
    let cam = Camera {
        elevation: 0.0,
        ..front_camera()
    };
    let club = |axis: Vec3| club_pose(Vec3::new(0.0, 1.8, 0.3), axis);
    let extent = |prop: PropPose| {
        let layers = build_layers(&solo(vec![prop]), &cam, W, H, &Style::default());
        let shapes = &layers[index_of(&layers, Part::Prop { index: 0 })].shapes;
        let mut lo = Vec2::splat(f32::MAX);
        let mut hi = Vec2::splat(f32::MIN);
        for s in shapes {
            if let Shape::Polygon { points, .. } = s {
                for p in points {
                    lo = lo.min(*p);
                    hi = hi.max(*p);
                }
            }
        }
        hi - lo
    };
    let upright = extent(club(Vec3::Y));
    let flat = extent(club(Vec3::X));
    assert!(upright.y > 3.0 * upright.x, "{upright}");
    assert!(flat.x > 3.0 * flat.y, "{flat}");
    // Club length on screen: 0.485 m at depth 4.7 m.
    let focal = 240.0 / (15f32.to_radians()).tan();
    assert!((upright.y - 0.485 * focal / 4.7).abs() < 4.0, "{upright}");

    // A ring facing the camera is a round band; edge-on it is a thin bar.
    let ring = |axis: Vec3| PropPose {
        kind: PropKind::Ring,
        size: 0.25,
        ..club(axis)
    };
    let line_extent = |prop: PropPose| {
        let layers = build_layers(&solo(vec![prop]), &cam, W, H, &Style::default());
        let shapes = &layers[index_of(&layers, Part::Prop { index: 0 })].shapes;
        let mut lo = Vec2::splat(f32::MAX);
        let mut hi = Vec2::splat(f32::MIN);
        for s in shapes {
            if let Shape::Line { from, to, .. } = s {
                lo = lo.min(*from).min(*to);
                hi = hi.max(*from).max(*to);
            }
        }
        hi - lo
    };
    let face = line_extent(ring(Vec3::Z));
    let edge = line_extent(ring(Vec3::X));
    assert!((face.x - face.y).abs() < 1.0, "{face}");
    assert!(edge.x < 0.5 && edge.y > 0.9 * face.y, "{edge} {face}");
}

#[test]
fn eyes_only_when_the_face_is_seen() {
    let eye_color = Rgba::rgb(40, 32, 30);
    let eyes = |cam: &Camera| {
        build_frame(&solo(vec![]), cam, W, H)
            .shapes
            .iter()
            .filter(|s| matches!(s, Shape::Circle { color, .. } if *color == eye_color))
            .count()
    };
    assert_eq!(eyes(&front_camera()), 2);
    assert_eq!(
        eyes(&Camera {
            azimuth: std::f32::consts::PI,
            ..front_camera()
        }),
        0
    );
    assert_eq!(
        eyes(&Camera {
            azimuth: std::f32::consts::FRAC_PI_2,
            ..front_camera()
        }),
        1
    );
}

/// Pixel bounding box of a shape.
fn bounds(s: &Shape) -> (Vec2, Vec2) {
    match s {
        Shape::Circle { center, radius, .. } => (
            *center - Vec2::splat(*radius),
            *center + Vec2::splat(*radius),
        ),
        Shape::Line {
            from, to, width, ..
        } => (
            from.min(*to) - Vec2::splat(0.5 * width),
            from.max(*to) + Vec2::splat(0.5 * width),
        ),
        Shape::Polygon { points, .. } => points.iter().fold(
            (Vec2::splat(f32::MAX), Vec2::splat(f32::MIN)),
            |(lo, hi), p| (lo.min(*p), hi.max(*p)),
        ),
        Shape::Text { at, height, .. } => (*at - Vec2::new(0.0, *height), *at),
    }
}

#[test]
fn default_framing_keeps_the_figure_and_props_inside_the_image() {
    for kind in [PropKind::Ball, PropKind::Club, PropKind::Ring] {
        let cascade = Cascade {
            kind,
            ..Cascade::default()
        };
        let poses: Vec<Pose> = (0..24)
            .map(|i| cascade.pose_at(i as f64 * cascade.loop_duration() / 24.0))
            .collect();
        for (w, h) in [(640, 480), (400, 450), (200, 600)] {
            let cam = Camera::framing_all(&poses, w as f32 / h as f32, None);
            for pose in &poses {
                for layer in build_layers(pose, &cam, w, h, &Style::default()) {
                    if matches!(layer.part, Part::Floor | Part::Shadow { .. }) {
                        continue;
                    }
                    for s in &layer.shapes {
                        let (lo, hi) = bounds(s);
                        assert!(
                            lo.x >= 0.0 && lo.y >= 0.0 && hi.x <= w as f32 && hi.y <= h as f32,
                            "{kind:?} {w}x{h} {:?}: {lo} {hi}",
                            layer.part
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn convex_hull_of_a_square_with_inner_points() {
    let pts = vec![
        Vec2::new(0.0, 0.0),
        Vec2::new(1.0, 0.0),
        Vec2::new(0.5, 0.5),
        Vec2::new(1.0, 1.0),
        Vec2::new(0.0, 1.0),
        Vec2::new(0.5, 0.0),
        Vec2::new(0.2, 0.7),
    ];
    let hull = convex_hull(pts);
    assert_eq!(hull.len(), 4);
    for corner in [Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::Y] {
        assert!(hull.contains(&corner));
    }
}

#[test]
fn points_behind_the_camera_never_produce_non_finite_shapes() {
    // The camera sits inside the scene: parts are clipped, nothing is NaN.
    let cam = Camera {
        target: Vec3::new(0.0, 1.2, 0.2),
        distance: 0.3,
        ..front_camera()
    };
    let pose = Cascade::default().pose_at(0.2);
    let frame = build_frame(&pose, &cam, W, H);
    for s in &frame.shapes {
        let (lo, hi) = bounds(s);
        assert!(lo.is_finite() && hi.is_finite(), "{s:?}");
    }
}

mod proptests {
    use super::*;
    use crate::body::dims::BodyDims;
    use crate::body::ArmPose;
    use crate::layout::Placement;
    use crate::render::raster::rasterize;
    use proptest::prelude::*;

    fn coord() -> impl Strategy<Value = f32> {
        prop_oneof![
            8 => -20.0f32..20.0,
            1 => Just(f32::NAN),
            1 => Just(f32::INFINITY),
            1 => Just(0.0f32),
        ]
    }

    fn point() -> impl Strategy<Value = Vec3> {
        (coord(), coord(), coord()).prop_map(|(x, y, z)| Vec3::new(x, y, z))
    }

    fn juggler() -> impl Strategy<Value = JugglerPose> {
        (
            proptest::collection::vec(point(), 15),
            -10.0f32..10.0,
            coord(),
        )
            .prop_map(|(p, facing, r)| {
                let arm = |i: usize| ArmPose {
                    shoulder: p[i],
                    elbow: p[i + 1],
                    wrist: p[i + 2],
                    hand: p[i + 3],
                };
                JugglerPose {
                    placement: Placement {
                        position: p[0],
                        facing,
                    },
                    head: p[1],
                    gaze: Vec3::Z,
                    neck: p[2],
                    hips: [p[3], p[4]],
                    knees: [p[5], p[6]],
                    feet: [p[13], p[14]],
                    arms: [arm(7), arm(9)],
                    // A head of radius `r`.
                    dims: BodyDims {
                        head_width: 2.0 * r,
                        head_height: 2.0 * r,
                        ..BodyDims::default()
                    },
                }
            })
    }

    fn prop() -> impl Strategy<Value = PropPose> {
        (0..3usize, point(), point(), coord()).prop_map(|(k, position, axis, size)| PropPose {
            kind: [PropKind::Ball, PropKind::Club, PropKind::Ring][k],
            position,
            axis,
            held_by: None,
            orbit: 0,
            color: Rgba::rgb(200, 40, 40),
            size,
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn any_pose_and_camera_give_a_frame_without_panicking(
            jugglers in proptest::collection::vec(juggler(), 0..3),
            props in proptest::collection::vec(prop(), 0..5),
            target in point(),
            azimuth in -10.0f32..10.0,
            elevation in -2.0f32..2.0,
            distance in prop_oneof![Just(0.0f32), 0.01f32..30.0, Just(f32::NAN)],
        ) {
            let pose = Pose { time: 0.0, jugglers, props };
            let camera = Camera { target, azimuth, elevation, distance, ..Camera::default() };
            let frame = build_frame(&pose, &camera, 64, 48);
            prop_assert!(rasterize(&frame).is_some());
            // Automatic framing of any pose is total too.
            let framed = Camera::framing(&pose, 4.0 / 3.0);
            let _ = build_frame(&pose, &framed, 64, 48);
        }
    }
}

/// A club pointing at the camera shows its body's end: the widest section as a disc, a
/// stripe ring and a dark end cap in the middle, not a ball's light spot (in the Mills Mess
/// with clubs both held clubs point at the audience for a moment and looked like balls);
/// pointing away, its knob and handle lie in front of the body and no cap shows.
#[test]
fn a_club_seen_end_on_shows_its_end_cap_not_a_highlight() {
    let cam = Camera {
        elevation: 0.0,
        ..front_camera()
    };
    let club = |axis: Vec3| club_pose(Vec3::new(0.0, 1.2, 0.3), axis);
    let circles = |prop: PropPose| -> Vec<(Vec2, f32, Rgba)> {
        let layers = build_layers(&solo(vec![prop]), &cam, W, H, &Style::default());
        layers[index_of(&layers, Part::Prop { index: 0 })]
            .shapes
            .iter()
            .filter_map(|s| match s {
                Shape::Circle {
                    center,
                    radius,
                    color,
                } => Some((*center, *radius, *color)),
                _ => None,
            })
            .collect()
    };
    let light = |c: Rgba| u32::from(c.r) + u32::from(c.g) + u32::from(c.b);
    let facing = circles(club(Vec3::Z));
    let (disc_c, disc_r, _) = facing
        .iter()
        .copied()
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .expect("circles");
    let &(cap_c, cap_r, cap) = facing.last().expect("circles");
    assert!(
        cap_c.distance(disc_c) < 0.2 * disc_r && cap_r < 0.5 * disc_r,
        "cap {cap_c} {cap_r}, disc {disc_c} {disc_r}"
    );
    assert!(light(cap) < light(red()), "{cap:?}");
    // No small light spot off the middle (a ball's highlight).
    assert!(
        !facing.iter().any(|&(c, r, color)| r < 0.5 * disc_r
            && c.distance(disc_c) > 0.2 * disc_r
            && light(color) > light(red())),
        "{facing:?}"
    );
    let away = circles(club(-Vec3::Z));
    assert!(away.iter().all(|&(_, _, color)| color != cap), "{away:?}");
}
