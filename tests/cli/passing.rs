//! Passing as passers write it, end to end: `check` of Prechac notation, `convert` to JIF and
//! back, JIF files read by every command.

use std::process::{Command, Output};

fn juggler(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_juggler"))
        .args(args)
        .output()
        .expect("juggler runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn check_shows_each_jugglers_view_of_a_prechac_pattern() {
    let out = juggler(&["check", "<3.5p|3.5px>"]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    assert!(
        text.contains("props 7, period 1, jugglers 2, async, ground state, max throw 3.5"),
        "{text}"
    );
    assert!(text.contains("delays (beats): A 0, B 0.5"), "{text}");
    assert!(
        text.contains("A: 0 R 3.5pB straight (single), 1 L 3.5pB straight (single)"),
        "{text}"
    );
    assert!(
        text.contains("B: 0.5 R 3.5pA crossed (single), 1.5 L 3.5pA crossed (single)"),
        "{text}"
    );
    let out = juggler(&["check", "<3.3p3|3.3p3|4.3p3>"]);
    assert!(stdout(&out).contains("props 10, period 2, jugglers 3"));
}

#[test]
fn check_names_the_column_of_prechac_errors() {
    let out = juggler(&["check", "<3.5p|3px>"]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(
        text.contains(
            "inconsistent delays: juggler A would need delays of both 0 and 0.5 beats (column 7)"
        ),
        "{text}"
    );
}

#[test]
fn convert_writes_jif_that_reads_back() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("grail.jif");
    let file_arg = file.to_str().unwrap();
    let out = juggler(&[
        "convert",
        "{0,0.5}<4.5px2.5px3.5p|3.5px4.5p2.5p>",
        "--out",
        file_arg,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let jif: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(jif["timeStretchFactor"], 2);
    assert_eq!(jif["jugglers"].as_array().unwrap().len(), 2);
    assert_eq!(jif["props"].as_array().unwrap().len(), 7);
    assert_eq!(jif["limbs"][1]["type"], "right hand");
    assert_eq!(jif["limbs"][1]["juggler"], 1);
    // Read back by every command.
    let out = juggler(&["check", file_arg]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("props 7, jugglers 2"),
        "{}",
        stdout(&out)
    );
    let out = juggler(&["pose", file_arg, "--time", "0.4", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // An existing file is kept without --force.
    let out = juggler(&["convert", "531", "--out", file_arg]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("exists; use --force"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn convert_chooses_the_format_by_extension() {
    let out = juggler(&["convert", "531", "--format", "toml"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        stdout(&out).contains("siteswap = \"531\""),
        "{}",
        stdout(&out)
    );
    let out = juggler(&["convert", "531", "--format", "jml"]);
    assert!(
        stdout(&out).contains("<jml version=\"3\">"),
        "{}",
        stdout(&out)
    );
    let out = juggler(&["convert", "531", "--out", "x.png"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("give a file name ending in .jif, .jml or .toml"),
        "{}",
        stderr(&out)
    );
    let out = juggler(&["convert", "531"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn malformed_jif_names_the_json_path() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.jif");
    std::fs::write(
        &file,
        r#"{"throws": [{"time": 0, "duration": 3, "from": 0}], "repetition": {"period": 1}}"#,
    )
    .unwrap();
    let out = juggler(&["pose", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("bad.jif: throws[0].to: missing"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn jugglers_key_and_flag_read_a_plain_siteswap_as_four_handed() {
    // The settings string's key and the option say the same: the Holy Grail, 7 props.
    for args in [
        vec!["check", "975;jugglers=2"],
        vec!["check", "975", "--jugglers", "2"],
        vec!["check", "pattern=975;jugglers=2"],
    ] {
        let out = juggler(&args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        let text = stdout(&out);
        assert!(
            text.contains("props 7, period 3, jugglers 2, async, ground state, max throw 4.5"),
            "{text}"
        );
        assert!(text.contains("delays (beats): A 0, B 0.5"), "{text}");
        assert!(
            text.contains(
                "A: 0 R 4.5pB crossed (double), 1 L 2.5pB crossed (zap), 2 R 3.5pB straight (single)"
            ),
            "{text}"
        );
    }
    // Without the key, 975 is one juggler's 7-ball pattern.
    assert!(stdout(&juggler(&["check", "975"])).contains("props 7, period 3, jugglers 1"));
    // Every command that takes a pattern takes the option.
    let pose = juggler(&["pose", "975", "--jugglers", "2", "--prop", "club", "--json"]);
    assert_eq!(pose.status.code(), Some(0), "{}", stderr(&pose));
    let v: serde_json::Value = serde_json::from_slice(&pose.stdout).unwrap();
    assert_eq!(v["jugglers"].as_array().unwrap().len(), 2);
    assert_eq!(v["props"].as_array().unwrap().len(), 7);
    assert!(v["props"]
        .as_array()
        .unwrap()
        .iter()
        .all(|p| p["kind"] == "club"));
    let toml = juggler(&["convert", "975;jugglers=2", "--format", "toml"]);
    assert_eq!(stdout(&toml), "siteswap = \"975\"\njugglers = 2\n");
    let jif = juggler(&["convert", "975", "--jugglers", "2", "--format", "jif"]);
    let v: serde_json::Value = serde_json::from_slice(&jif.stdout).unwrap();
    assert_eq!(v["jugglers"].as_array().unwrap().len(), 2, "{v}");
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("grail.svg");
    let out = juggler(&[
        "diagram",
        "975",
        "--jugglers",
        "2",
        "--out",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // A TOML file's number form.
    let file = dir.path().join("grail.toml");
    std::fs::write(&file, "siteswap = \"975\"\njugglers = 2\nprop = \"club\"\n").unwrap();
    let v: serde_json::Value =
        serde_json::from_slice(&juggler(&["pose", file.to_str().unwrap(), "--json"]).stdout)
            .unwrap();
    assert_eq!(v["jugglers"].as_array().unwrap().len(), 2);
    let out = juggler(&["check", file.to_str().unwrap()]);
    assert!(
        stdout(&out).contains("props 7, period 3, jugglers 2"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn jugglers_errors_say_what_is_wrong() {
    let out = juggler(&["check", "975;jugglers=0"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains("jugglers must be a whole number between 1 and 26, not 0"),
        "{}",
        stdout(&out)
    );
    let out = juggler(&["check", "<3p|3p>;jugglers=3"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains("the pattern is written for 2 jugglers, not the 3 of jugglers=3"),
        "{}",
        stdout(&out)
    );
    // A passing pattern of as many jugglers is read as written.
    assert_eq!(
        juggler(&["check", "<3p|3p>;jugglers=2"]).status.code(),
        Some(0)
    );
    for args in [
        vec!["pose", "975", "--jugglers", "27"],
        vec!["check", "975", "--jugglers", "0"],
        vec!["export", "975", "--jugglers", "1.5", "--out", "x.gif"],
    ] {
        let out = juggler(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&out).contains("--jugglers must be a whole number between 1 and 26"),
            "{args:?}: {}",
            stderr(&out)
        );
    }
    let out = juggler(&["pose", "(4,4)", "--jugglers", "2"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("must be asynchronous"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn mixed_props_show_in_pose_and_in_an_exported_frame() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/jif/club_and_two_balls.jif"
    );
    let out = juggler(&["pose", file, "--json", "--time", "0.2"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let kinds: Vec<&str> = v["props"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["club", "ball", "ball"]);
    // The club has an axis (it spins), the balls none.
    assert!(v["props"][0]["axis"].is_array() && v["props"][1]["axis"].is_null());
    // One frame: the red club and the blue ball both painted.
    let dir = tempfile::tempdir().unwrap();
    let png_path = dir.path().join("mixed.png");
    let out = juggler(&[
        "export",
        file,
        "--out",
        png_path.to_str().unwrap(),
        "--start",
        "0.2",
        "--duration",
        "0.04",
        "--fps",
        "25",
        "--azimuth",
        "40",
        "-q",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let decoder = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(&png_path).unwrap(),
    ));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    let count = |want: fn(&[u8]) -> bool| {
        buf[..info.buffer_size()]
            .chunks(channels)
            .filter(|p| want(p))
            .count()
    };
    let red = count(|p| p[0] > 200 && p[1] < 60 && p[2] < 60);
    let blue = count(|p| p[2] > 200 && p[0] < 60 && p[1] < 60);
    // A club's body covers more than a ball's disc.
    assert!(
        red > 300 && blue > 100 && red > blue,
        "red {red}, blue {blue}"
    );
}

/// Beats told one way: `check` (text and JSON), `list` and `pose` of a shared siteswap and a
/// Prechac pattern count each juggler's beats, and JSON names the fine beats.
#[test]
fn check_list_and_pose_count_each_jugglers_beats() {
    // 975 shared by two: each passer's 4.5p 2.5p 3.5p, period 3 beats (6 fine beats).
    let text = stdout(&juggler(&["check", "975", "--jugglers", "2"]));
    assert!(
        text.contains("props 7, period 3, jugglers 2, async, ground state, max throw 4.5"),
        "{text}"
    );
    assert!(text.contains("3 props: A 4.5pB, B 4.5pA"), "{text}");
    assert!(
        text.contains("state (props landing on the next fine beats, 2 to a beat):"),
        "{text}"
    );
    let json: serde_json::Value = serde_json::from_str(&stdout(&juggler(&[
        "check",
        "975",
        "--jugglers",
        "2",
        "--json",
    ])))
    .unwrap();
    assert_eq!(json["period"], 3);
    assert_eq!(json["max_throw"], 4.5);
    assert_eq!(json["fine_beats_per_beat"], 2);
    assert_eq!(json["delays"], serde_json::json!([0, 0.5]));
    let first = &json["orbits"][0]["throws"][0];
    assert_eq!(
        (&first["beat"], &first["value"], &first["fine_value"]),
        (&0.into(), &4.5.into(), &9.into())
    );
    // The same seven-club one-count written two ways: one period of 1 beat.
    for pattern in ["7;jugglers=2", "<3.5p|3.5px>"] {
        let json: serde_json::Value =
            serde_json::from_str(&stdout(&juggler(&["check", pattern, "--json"]))).unwrap();
        assert_eq!(
            (&json["period"], &json["max_throw"]),
            (&1.into(), &3.5.into()),
            "{pattern}"
        );
    }
    // A solo pattern's JSON has no fine beats.
    let json = stdout(&juggler(&["check", "531", "--json"]));
    assert!(!json.contains("fine"), "{json}");
    // list: a text list of four-handed siteswaps read as shared by two.
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("four.txt");
    std::fs::write(&list, "975\n867\n77722\n").unwrap();
    let out = juggler(&["list", list.to_str().unwrap(), "--jugglers", "2", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let rows: Vec<(u64, u64, u64)> = stdout(&out)
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            (
                v["props"].as_u64().unwrap(),
                v["period"].as_u64().unwrap(),
                v["jugglers"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(rows, [(7, 3, 2), (7, 3, 2), (5, 5, 2)]);
    let out = juggler(&["list", list.to_str().unwrap(), "--jugglers", "0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--jugglers"), "{}", stderr(&out));
    // pose: each juggler's beats per second and dwell (the motion's fine beats are twice
    // as many); --bps sets each juggler's.
    let text = stdout(&juggler(&[
        "pose",
        "975",
        "--jugglers",
        "2",
        "--bps",
        "3",
        "--dwell",
        "1.2",
    ]));
    assert!(
        text.contains("(3.00 beats/s, dwell 1.2 beats, loop 6.000 s)"),
        "{text}"
    );
    let json: serde_json::Value = serde_json::from_str(&stdout(&juggler(&[
        "pose",
        "975",
        "--jugglers",
        "2",
        "--bps",
        "3",
        "--json",
    ])))
    .unwrap();
    assert_eq!(
        (&json["bps"], &json["fine_beats_per_beat"]),
        (&3.0.into(), &2.into())
    );
}

/// `--prop` switches every prop of a pattern that mixes kinds.
#[test]
fn the_prop_option_switches_every_prop_of_a_mixed_pattern() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mixed.toml");
    std::fs::write(
        &file,
        "siteswap = \"3\"\nprops = [\"club\", \"ball\", \"ball\"]\n",
    )
    .unwrap();
    let kinds = |extra: &[&str]| -> Vec<String> {
        let mut args = vec!["pose", file.to_str().unwrap(), "--json"];
        args.extend_from_slice(extra);
        let v: serde_json::Value = serde_json::from_str(&stdout(&juggler(&args))).unwrap();
        v["props"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["kind"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(kinds(&[]), ["club", "ball", "ball"]);
    assert_eq!(kinds(&["--prop", "ring"]), ["ring", "ring", "ring"]);
}

/// `--beats A-B` of passers counts each juggler's beats: beats 0-3 at 3 beats per second
/// last one second, whatever fine beats the pattern is timed on.
#[test]
fn export_beats_of_passers_are_each_jugglers_beats() {
    let dir = tempfile::tempdir().unwrap();
    for (i, pattern) in ["975;jugglers=2", "<3.5p|3.5px>", "<3p|3p>"]
        .iter()
        .enumerate()
    {
        let out = dir.path().join(format!("frames{i}"));
        let o = juggler(&[
            "export",
            pattern,
            "--bps",
            "3",
            "--beats",
            "0-3",
            "--fps",
            "10",
            "--size",
            "32x24",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(0), "{pattern}: {}", stderr(&o));
        let frames = std::fs::read_dir(&out).unwrap().count();
        assert_eq!(frames, 10, "{pattern}");
    }
}

/// `trans` refuses patterns on fine beats with a message that says why, the shared
/// siteswap of a settings string too (not a parse error at its `;`).
#[test]
fn trans_refuses_prechac_and_shared_siteswaps_clearly() {
    for (from, named) in [
        ("<3.5p|3.5px>", "<3.5p|3.5px>"),
        ("975;jugglers=2", "975;jugglers=2"),
    ] {
        let out = juggler(&["trans", from, "<3p|3p>"]);
        assert_eq!(out.status.code(), Some(1), "{from}");
        assert_eq!(
            stderr(&out),
            format!(
                "juggler: {named}: a Prechac pattern or shared siteswap (jugglers throwing between \
                 each other's beats) has no place in the transition finder's model of whole beats\n"
            ),
            "{from}"
        );
    }
    // A settings string of one juggler is read for its siteswap.
    let out = juggler(&["trans", "531;bps=3", "51"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

/// A collision of a Prechac pattern names its time in the jugglers' beats, in JSON too.
#[test]
fn check_json_of_a_prechac_collision_names_its_time() {
    for (pattern, time) in [
        ("<3.5p|3.5p>", serde_json::json!(4)),
        ("{0,0.5}<3.5px|3.5p>", serde_json::json!(3.5)),
    ] {
        let out = juggler(&["check", pattern, "--json"]);
        assert_eq!(out.status.code(), Some(1));
        let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
        assert_eq!(v["error"]["time"], time, "{pattern}: {v}");
        assert!(v["error"]["beat"].is_null());
    }
    // Juggling Lab's collisions keep their beat and have no time.
    let v: serde_json::Value =
        serde_json::from_str(&stdout(&juggler(&["check", "543", "--json"]))).unwrap();
    assert_eq!(v["error"]["beat"], 6);
    assert!(v["error"].get("time").is_none(), "{v}");
}
