//! End-to-end tests of `juggler pose`.

use std::process::Command;

use serde_json::Value;

fn juggler(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_juggler"))
        .args(args)
        .output()
        .expect("run the juggler binary");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn pose_json(args: &[&str]) -> Value {
    let mut all = vec!["pose"];
    all.extend_from_slice(args);
    all.push("--json");
    let (code, stdout, stderr) = juggler(&all);
    assert_eq!(code, 0, "stderr: {stderr}");
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"))
}

fn vec3(v: &Value) -> [f64; 3] {
    let a = v.as_array().expect("array");
    assert_eq!(a.len(), 3);
    [0, 1, 2].map(|i| a[i].as_f64().expect("number"))
}

fn dist(a: [f64; 3], b: [f64; 3]) -> f64 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
}

#[test]
fn cascade_pose_has_arms_of_the_right_length() {
    let v = pose_json(&["3", "--time", "0.5"]);
    assert_eq!(v["time"].as_f64(), Some(0.5));
    assert!(
        (v["bps"].as_f64().unwrap() - 2.9).abs() < 1e-9,
        "JL's bps for a 3: {}",
        v["bps"]
    );
    let jugglers = v["jugglers"].as_array().unwrap();
    assert_eq!(jugglers.len(), 1);
    let j = &jugglers[0];
    assert_eq!(
        j["upper_arm"].as_f64().map(|x| (x * 100.0).round()),
        Some(41.0)
    );
    assert_eq!(
        j["forearm"].as_f64().map(|x| (x * 100.0).round()),
        Some(41.0)
    );
    for (side, sign) in [("left", 1.0), ("right", -1.0)] {
        let arm = &j[side];
        let (s, e, h) = (
            vec3(&arm["shoulder"]),
            vec3(&arm["elbow"]),
            vec3(&arm["hand"]),
        );
        // The shoulder follows the hand a little: at most 3.5 cm up, 1 cm down (no knee dip
        // in a 3-ball cascade), never sideways.
        assert!(
            (s[0] - sign * 0.23).abs() < 1e-6 && (-0.01..=0.035).contains(&(s[1] - 1.40)),
            "{side} {s:?}"
        );
        assert!((dist(s, e) - 0.41).abs() < 1e-5, "{side}");
        assert!((dist(e, h) - 0.41).abs() < 1e-5, "{side}");
        assert!(
            e[0] * sign > s[0] * sign,
            "{side} elbow outside the shoulder: {e:?}"
        );
    }
    let props = v["props"].as_array().unwrap();
    assert_eq!(props.len(), 3);
    for p in props {
        assert_eq!(p["kind"], "ball");
        assert!(p.get("axis").is_none());
        vec3(&p["position"]);
        let held = &p["held_by"];
        assert!(
            held.is_null() || (held["juggler"] == 0 && held["hand"].is_string()),
            "{held}"
        );
    }
}

#[test]
fn clubs_report_a_unit_axis_and_rings_a_normal() {
    for (prop, key) in [("club", "axis"), ("ring", "normal")] {
        let v = pose_json(&["531", "--time", "1.234", "--prop", prop]);
        for p in v["props"].as_array().unwrap() {
            assert_eq!(p["kind"], prop);
            let a = vec3(&p[key]);
            assert!((dist(a, [0.0; 3]) - 1.0).abs() < 1e-4, "{prop}: {a:?}");
        }
    }
}

#[test]
fn passing_jugglers_face_each_other_about_2_4_m_apart() {
    let v = pose_json(&["<3p|3p>", "--time", "0.3"]);
    let j = v["jugglers"].as_array().unwrap();
    assert_eq!(j.len(), 2);
    let (a, b) = (vec3(&j[0]["position"]), vec3(&j[1]["position"]));
    assert!((dist(a, b) - 2.4).abs() < 1e-4);
    let facing = [
        j[0]["facing"].as_f64().unwrap(),
        j[1]["facing"].as_f64().unwrap(),
    ];
    assert!(
        ((facing[0] - facing[1]).abs() - 180.0).abs() < 1e-3,
        "{facing:?}"
    );
    assert_eq!(v["props"].as_array().unwrap().len(), 6);
}

#[test]
fn options_change_the_timing() {
    let v = pose_json(&["3", "--time", "0", "--bps", "4", "--dwell", "1.0"]);
    assert_eq!(v["bps"].as_f64(), Some(4.0));
    assert_eq!(v["dwell"].as_f64(), Some(1.0));
}

#[test]
fn human_output_lists_jugglers_and_props() {
    let (code, stdout, _) = juggler(&["pose", "3", "--time", "0.25"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("juggler 1"), "{stdout}");
    assert!(stdout.contains("left  hand"), "{stdout}");
    assert_eq!(
        stdout.lines().filter(|l| l.contains(" ball ")).count(),
        3,
        "{stdout}"
    );
}

#[test]
fn bad_input_exits_1_and_bad_arguments_exit_2() {
    let (code, _, stderr) = juggler(&["pose", "532", "--json"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(!stderr.is_empty());
    let (code, _, _) = juggler(&["pose", "3(", "--json"]);
    assert_eq!(code, 1);
    for args in [
        &["pose", "3", "--bps", "-1"][..],
        &["pose", "3", "--dwell", "2.5"],
        &["pose", "3", "--prop", "banana"],
        &["pose", "3", "--time", "NaN"],
    ] {
        let (code, _, stderr) = juggler(args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
    }
}

#[test]
fn settings_strings_and_pattern_files_are_accepted() {
    let v = pose_json(&["pattern=3;bps=3.5;prop=club", "--time", "0.2"]);
    assert_eq!(v["bps"].as_f64(), Some(3.5));
    assert!(v["props"]
        .as_array()
        .unwrap()
        .iter()
        .all(|p| p["kind"] == "club"));
    // The first pattern of the shipped club file: a 3-club cascade.
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/patterns/clubs.toml");
    let v = pose_json(&[file, "--time", "0.7"]);
    let props = v["props"].as_array().unwrap();
    assert_eq!(props.len(), 3);
    assert!(props
        .iter()
        .all(|p| p["kind"] == "club" && p["axis"].is_array()));
    // Command-line options win over the file.
    let v = pose_json(&[file, "--prop", "ring"]);
    assert!(v["props"]
        .as_array()
        .unwrap()
        .iter()
        .all(|p| p["kind"] == "ring"));
}

#[test]
fn a_held_club_points_forward_from_the_hand() {
    // At t = 0.4 s the left hand of a 3-club cascade (clubs' tempo, 2.175 beats/s) is about to
    // throw: the club it holds points forward and a little in (toward −x for the left hand), its
    // pivot 15 cm along it from the hand; the right hand has just caught, its club's body up and
    // forward.
    let v = pose_json(&["3", "--prop", "club", "--time", "0.4"]);
    assert_eq!(v["bps"], 2.175);
    let held = |hand: &str| -> Vec<Value> {
        let props = v["props"].as_array().unwrap();
        props
            .iter()
            .filter(|p| p["held_by"]["hand"] == hand)
            .cloned()
            .collect()
    };
    let (left, right) = (held("left"), held("right"));
    assert_eq!((left.len(), right.len()), (1, 1));
    let axis = vec3(&left[0]["axis"]);
    assert!(axis[2] > 0.95 && axis[0] < 0.0, "{axis:?}");
    let hand = vec3(&v["jugglers"][0]["left"]["hand"]);
    // Beside that point by the club's flight lane: sideways only, at most three 5 cm steps.
    let expected = [0, 1, 2].map(|i| hand[i] + 0.15 * axis[i]);
    let pos = vec3(&left[0]["position"]);
    let lane = [0, 1, 2].map(|i| pos[i] - expected[i]);
    assert!(
        lane[1].abs() + lane[2].abs() < 1e-4 && lane[0].abs() <= 0.15 + 1e-4,
        "{pos:?} vs {expected:?}"
    );
    let caught = vec3(&right[0]["axis"]);
    assert!(caught[1] > 0.8 && caught[2] > 0.3, "{caught:?}");
    // Knob 20 cm behind the centre of mass along the axis, tip 48.5 cm beyond the knob.
    let knob = vec3(&left[0]["knob"]);
    let tip = vec3(&left[0]["tip"]);
    assert!(
        dist(knob, [0, 1, 2].map(|i| pos[i] - 0.20 * axis[i])) < 1e-4,
        "{knob:?}"
    );
    assert!((dist(knob, tip) - 0.485).abs() < 1e-4, "{knob:?} {tip:?}");
    // The head's radius and the torso capsule of the default adult.
    let j = &v["jugglers"][0];
    assert!((j["head_radius"].as_f64().unwrap() - 0.115).abs() < 1e-6);
    assert_eq!(vec3(&j["torso"]["top"]), [0.0, 1.4, 0.0]);
    assert_eq!(vec3(&j["torso"]["bottom"]), [0.0, 0.95, 0.0]);
    // Half the chest's depth (23 cm), not half the hip span (17 cm, too deep in front).
    assert!((j["torso"]["radius"].as_f64().unwrap() - 0.115).abs() < 1e-6);
    // A 3-club cascade is not high enough to dip the knees; the head looks up at its peak.
    let gaze = vec3(&j["gaze"]);
    assert!(
        gaze[0].abs() < 1e-6 && gaze[1] > 0.1 && gaze[2] > 0.5,
        "{gaze:?}"
    );
    assert!((gaze.iter().map(|g| g * g).sum::<f64>() - 1.0).abs() < 1e-5);
    // Balls report neither knob nor tip.
    let balls = pose_json(&["3", "--time", "0.4"]);
    assert!(balls["props"][0].get("knob").is_none() && balls["props"][0].get("tip").is_none());
}

#[test]
fn three_jugglers_stand_on_a_circle_facing_its_centre() {
    let v = pose_json(&["<5P2|5P3|5P1>", "--time", "0.4"]);
    let j = v["jugglers"].as_array().unwrap();
    assert_eq!(j.len(), 3);
    for k in 0..3 {
        let (a, b) = (vec3(&j[k]["position"]), vec3(&j[(k + 1) % 3]["position"]));
        assert!(
            (dist(a, b) - 2.4).abs() < 1e-4,
            "neighbours {k}: {}",
            dist(a, b)
        );
        // Facing (degrees, 0 = +z, 90 = +x) points at the centre (the origin).
        let f = j[k]["facing"].as_f64().unwrap().to_radians();
        let to_centre = [-a[0], -a[2]];
        let n = (to_centre[0].powi(2) + to_centre[1].powi(2)).sqrt();
        assert!(
            (f.sin() * to_centre[0] + f.cos() * to_centre[1]) / n > 0.9999,
            "juggler {k}"
        );
    }
    assert_eq!(v["props"].as_array().unwrap().len(), 15);
}

#[test]
fn a_huge_time_is_shown_in_scientific_notation_and_poses_without_nan() {
    let (code, stdout, stderr) = juggler(&["pose", "3", "--time", "1e300"]);
    assert_eq!(code, 0, "stderr: {stderr}");
    let header = stdout.lines().next().expect("a header line");
    assert!(header.starts_with("3 at t = 1.000e300 s ("), "{header}");
    assert!(header.len() < 120, "{header}");
    assert!(!stdout.contains("NaN"), "{stdout}");
    // Ordinary times keep their milliseconds.
    let (_, stdout, _) = juggler(&["pose", "3", "--time", "0.25"]);
    assert!(stdout.starts_with("3 at t = 0.250 s ("), "{stdout}");
}
