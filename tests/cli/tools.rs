//! `juggler gen`, `juggler trans` and `check`'s analysis through the binary.
//! Expected generator sets in tests/data/gen were computed with Juggling Lab 1.6.6
//! (scripts/compare_gen.sh --save); each solo asynchronous pattern is written as its greatest
//! rotation, the others (sync, multiplex, passing) as Juggling Lab printed them.

use std::process::Command;

fn juggler(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_juggler"))
        .args(args)
        .output()
        .expect("run juggler");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Solo asynchronous patterns as their greatest rotation; synchronous, multiplex and passing
/// patterns as printed (juggler lists the same rotation as Juggling Lab).
fn greatest_rotation(p: &str) -> String {
    if p.contains(['(', '[', '<']) {
        return p.to_string();
    }
    (0..p.len())
        .map(|i| format!("{}{}", &p[i..], &p[..i]))
        .max()
        .unwrap_or_default()
}

#[test]
fn generator_sets_equal_juggling_labs() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/gen");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(files.len() >= 45, "{} expected-set files", files.len());
    let mut total = 0;
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let header = text.lines().next().unwrap();
        let query = header.split('`').nth(1).unwrap().trim_start_matches("gen ");
        let mut expected: Vec<String> = text
            .lines()
            .skip(1)
            .filter(|l| !l.is_empty())
            .map(String::from)
            .collect();
        expected.sort();
        let mut args = vec!["gen"];
        args.extend(query.split_whitespace());
        args.push("--json");
        let (code, out, err) = juggler(&args);
        assert_eq!(code, 0, "{query}: {err}");
        let mut got: Vec<String> = out
            .lines()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                greatest_rotation(v["pattern"].as_str().unwrap())
            })
            .collect();
        got.sort();
        assert_eq!(got, expected, "gen {query}");
        total += got.len();
    }
    assert!(total > 600, "{total} patterns compared");
}

#[test]
fn gen_output_forms() {
    let (code, out, _) = juggler(&["gen", "3", "5", "3"]);
    assert_eq!(code, 0);
    assert_eq!(out, "     441\n     522\n     531\n  4  450  2\n");
    let (_, out, _) = juggler(&["gen", "3", "5", "3", "-n"]);
    assert!(out.ends_with("\n4 patterns\n"), "{out}");
    let (_, out, _) = juggler(&["gen", "4", "7", "5", "-no"]);
    assert_eq!(out, "64 patterns\n");
    let (_, out, _) = juggler(&["gen", "3", "5", "3", "--json", "-ng"]);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["pattern"], "450");
    assert_eq!(v["ground_state"], false);
    assert_eq!(
        (v["get_in"].as_str(), v["get_out"].as_str()),
        (Some("4"), Some("2"))
    );
}

#[test]
fn gen_sync_multiplex_and_passing_lines_as_juggling_lab_prints_them() {
    // Juggling Lab 1.6.6 `gen 3 4 2 -m 2` (trailing spaces trimmed).
    let (code, out, _) = juggler(&["gen", "3", "4", "2", "-m", "2"]);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "  1  [22]2  [23]\n 23  [42]0  [13]\n  2  3[21]  2[23]\n     1[32]\n     42\n"
    );
    // `gen 6 4 2 -j 2 -g -jp -m 2 -d 1 -l 1`: ground state only, patterns alone.
    let (code, out, _) = juggler(&[
        "gen", "6", "4", "2", "-j", "2", "-g", "-jp", "-m", "2", "-d", "1", "-l", "1",
    ]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 12);
    assert_eq!(lines[0], "<1|3><[3/2]|3>");
    // JSON: the period of a sync pattern counts beats, two per (left,right) pair.
    let (code, out, _) = juggler(&["gen", "4", "6", "4", "-s", "--json", "-n"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 33);
    let v: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(v["period"], 4);
    assert_eq!(lines[32], r#"{"count":32}"#);
}

#[test]
fn gen_refuses_bad_queries_with_exit_2() {
    for args in [
        &["gen", "3", "5"][..],
        &["gen", "x", "5", "3"],
        &["gen", "3", "5", "3", "-bogus"],
        &["gen", "3", "5", "-"],
        // Sync patterns have even periods; -g with several jugglers needs -jp.
        &["gen", "3", "5", "3", "-s"],
        &["gen", "6", "4", "2", "-j", "2", "-g"],
        &["gen", "3", "5", "2", "-m", "0"],
        &["gen", "3", "5", "2", "-j", "10"],
        // Juggling Lab's brackets are literal; written with a backslash they are operators.
        &["gen", "3", "5", "3", "-x", "\\("],
        &["gen", "9", "-", "20"],
        &["gen", "8", "-", "9"],
    ] {
        let (code, out, err) = juggler(args);
        assert_eq!(code, 2, "{args:?}: {out}");
        assert!(
            err.starts_with("juggler: ") && err.len() > 20,
            "{args:?}: {err}"
        );
    }
}

#[test]
fn trans_patterns_are_valid_and_contain_both() {
    let (code, out, err) = juggler(&["trans", "3", "51", "--json"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // Juggling Lab: (3^2)34(51^2)23 and (3^2)52(51^2)23.
    let throws: Vec<&str> = lines
        .iter()
        .map(|v| v["throws"].as_str().unwrap())
        .collect();
    assert_eq!(throws, ["34", "52"]);
    for v in &lines {
        let p = v["pattern"].as_str().unwrap();
        assert!(p.contains("33") && p.contains("5151"), "{p}");
        let (code, _, err) = juggler(&["check", p]);
        assert_eq!(code, 0, "{p}: {err}");
    }
    // Two ground-state patterns need no throws between them, either way: said so, not
    // "(none)", which read as "no transition".
    let (code, out, err) = juggler(&["trans", "531", "441"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("531 -> 441: 1 shortest transition; back 441 -> 531: (none needed)\n")
            && out.contains("  (none needed)  531531441441\n"),
        "{out}"
    );
    let (code, _, err) = juggler(&["trans", "531", "4"]);
    assert_eq!(code, 1);
    assert!(err.contains("3 props") && err.contains("4"), "{err}");
}

#[test]
fn trans_sync_multiplex_and_passing() {
    for (a, b, first) in [
        // Juggling Lab 1.6.6 lists (6x,4) and (4x,6) (and hand-by-hand variants).
        ("(4,4)", "(6x,2x)", "(6x,4)"),
        // Juggling Lab: [43]4, [53]3 and [54]2 (and hand-by-hand variants).
        ("[33]33", "1[54]2", "[54]2"),
        ("<3|3>", "<4p|2p>", "<4p|3><4p|2p>"),
    ] {
        let (code, out, err) = juggler(&["trans", a, b, "--json"]);
        assert_eq!(code, 0, "{a} {b}: {err}");
        let lines: Vec<serde_json::Value> = out
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert!(!lines.is_empty(), "{a} {b}");
        assert_eq!(lines[0]["throws"], first, "{a} {b}");
        for v in &lines {
            let p = v["pattern"].as_str().unwrap();
            assert!(p.starts_with(&format!("{a}{a}")), "{p}");
            let (code, _, err) = juggler(&["check", p]);
            assert_eq!(code, 0, "{p}: {err}");
        }
    }
    // Plain text: the header, then one line per transition.
    let (code, out, _) = juggler(&["trans", "(4,4)", "(6x,2x)"]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with(
            "(4,4) -> (6x,2x): 2 shortest transitions; back (6x,2x) -> (4,4): (4,2x)\n"
        ),
        "{out}"
    );
    assert!(
        out.contains("(6x,4)    (4,4)(4,4)(6x,4)(6x,2x)(6x,2x)(4,2x)\n"),
        "{out}"
    );
    // Why there is none.
    let (code, _, err) = juggler(&["trans", "3", "(4,2x)*"]);
    assert_eq!(code, 1);
    assert!(err.contains("synchronous"), "{err}");
    let (code, _, err) = juggler(&["trans", "<3|3>", "33"]);
    assert_eq!(code, 1);
    assert!(err.contains("jugglers"), "{err}");
}

#[test]
fn check_reports_prime_composite_states_and_get_in_out() {
    let (code, out, _) = juggler(&["check", "423"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("composite: made of the prime cycles 42 + 3"),
        "{out}"
    );
    assert!(out.contains("xxx  xx-x  xxx"), "{out}");
    let (_, out, _) = juggler(&["check", "450", "--json"]);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let a = &v["analysis"];
    assert_eq!(a["prime"], true);
    assert_eq!(a["states"][0], "xx-x");
    assert_eq!(
        (a["get_in"].as_str(), a["get_out"].as_str()),
        (Some("4"), Some("2"))
    );
    let (_, out, _) = juggler(&["check", "(4,4)", "--json"]);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert!(v["analysis"].is_null());
}

#[test]
fn diagram_svg_parses_matches_its_snapshot_and_never_overwrites() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("531.svg");
    let out_s = out.to_str().unwrap();
    let (code, _, err) = juggler(&["diagram", "531", "--out", out_s]);
    assert_eq!(code, 0, "{err}");
    let svg = std::fs::read_to_string(&out).unwrap();
    // Well-formed XML: every element closes; count the drawn throws.
    let mut reader = quick_xml::Reader::from_str(&svg);
    let (mut paths, mut depth) = (0, 0i32);
    loop {
        match reader.read_event().expect("SVG parses as XML") {
            quick_xml::events::Event::Start(_) => depth += 1,
            quick_xml::events::Event::End(_) => depth -= 1,
            quick_xml::events::Event::Empty(e) if e.name().as_ref() == b"path" => paths += 1,
            quick_xml::events::Event::Eof => break,
            _ => {}
        }
    }
    assert_eq!(depth, 0);
    // 12 beats shown, one throw each, plus the throws from before beat 0 landing inside.
    assert!((12..=20).contains(&paths), "{paths} paths");
    // Each throw's value is written on its arc.
    for value in ["5", "3", "1"] {
        let written = svg
            .matches(&format!(
                "paint-order=\"stroke\" text-anchor=\"middle\">{value}</text>"
            ))
            .count();
        assert!(written * 3 >= paths, "{value}: {written} of {paths}");
    }
    let snapshot =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/diagram/531.svg");
    assert_eq!(svg, std::fs::read_to_string(snapshot).unwrap());
    // An existing file is kept without --force (exit 2), replaced with it.
    std::fs::write(&out, "keep").unwrap();
    let (code, _, err) = juggler(&["diagram", "531", "--out", out_s]);
    assert_eq!(code, 2);
    assert!(err.contains("--force"), "{err}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "keep");
    let (code, _, _) = juggler(&["diagram", "531", "--out", out_s, "--force"]);
    assert_eq!(code, 0);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), svg);
    // A directory is never replaced; an invalid pattern exits 1 and writes nothing.
    let (code, _, _) = juggler(&[
        "diagram",
        "531",
        "--out",
        dir.path().to_str().unwrap(),
        "--force",
    ]);
    assert_eq!(code, 2);
    let bad = dir.path().join("bad.svg");
    let (code, _, _) = juggler(&["diagram", "543", "--out", bad.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(!bad.exists());
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        1,
        "no temporary files left"
    );
}

/// Element counts of an SVG document, checking that it parses as XML and every element closes.
fn svg_elements(svg: &str) -> std::collections::HashMap<String, usize> {
    let mut reader = quick_xml::Reader::from_str(svg);
    let (mut counts, mut depth) = (std::collections::HashMap::new(), 0i32);
    loop {
        let name = match reader.read_event().expect("SVG parses as XML") {
            quick_xml::events::Event::Start(e) => {
                depth += 1;
                e.name().as_ref().to_vec()
            }
            quick_xml::events::Event::Empty(e) => e.name().as_ref().to_vec(),
            quick_xml::events::Event::End(_) => {
                depth -= 1;
                continue;
            }
            quick_xml::events::Event::Eof => break,
            _ => continue,
        };
        *counts
            .entry(String::from_utf8(name).unwrap())
            .or_insert(0usize) += 1;
    }
    assert_eq!(depth, 0, "unclosed elements");
    counts
}

#[test]
fn causal_diagrams_parse_and_match_their_snapshots() {
    let dir = tempfile::tempdir().unwrap();
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/diagram");
    // (pattern, snapshot, nodes shown, arrows drawn at least)
    for (pattern, name, nodes, arrows) in [
        ("<3p|3p><3|3>", "causal-2count.svg", 16, 16),
        ("531", "causal-531.svg", 12, 12),
        ("(4,2x)(2x,4)", "causal-sync.svg", 8, 8),
        ("330", "causal-330.svg", 12, 12),
    ] {
        let out = dir.path().join(name);
        let (code, _, err) = juggler(&[
            "diagram",
            pattern,
            "--kind",
            "causal",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{pattern}: {err}");
        let svg = std::fs::read_to_string(&out).unwrap();
        let counts = svg_elements(&svg);
        assert_eq!(
            counts["circle"], nodes,
            "{pattern}: one node per hand and beat"
        );
        let paths = counts["path"] - counts["marker"];
        assert!(paths >= arrows, "{pattern}: {paths} arrows");
        let escaped = pattern.replace('<', "&lt;").replace('>', "&gt;");
        assert!(svg.contains(&format!("<title>Causal diagram of {escaped}</title>")));
        if std::env::var_os("JUGGLER_UPDATE_SNAPSHOTS").is_some() {
            std::fs::write(data.join(name), &svg).unwrap();
        }
        assert_eq!(
            svg,
            std::fs::read_to_string(data.join(name)).unwrap(),
            "{pattern}: differs from tests/data/diagram/{name} \
             (JUGGLER_UPDATE_SNAPSHOTS=1 rewrites it after a deliberate change)"
        );
    }
    // 0s are drawn as empty nodes with dashed arrows.
    let svg = std::fs::read_to_string(dir.path().join("causal-330.svg")).unwrap();
    assert_eq!(svg.matches(r#"stroke-dasharray="2 2""#).count(), 4);
    assert!(svg.matches(r#"stroke-dasharray="3 3""#).count() >= 4);
    // An unknown kind is a usage error and writes nothing.
    let bad = dir.path().join("bad.svg");
    let (code, _, err) = juggler(&[
        "diagram",
        "3",
        "--kind",
        "bogus",
        "--out",
        bad.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("ladder or causal"), "{err}");
    assert!(!bad.exists());
}

/// Runs `juggler ARGS` under a 1 GB address-space cap, reads `lines` lines of its output and
/// closes the pipe: returns them, the seconds to the first line, and the exit code.
fn gen_capped(args: &[&str], lines: usize) -> (Vec<String>, f64, Option<i32>) {
    use std::io::BufRead;
    let started = std::time::Instant::now();
    let mut child = Command::new("prlimit")
        .args(["--as=1000000000", "--"])
        .arg(env!("CARGO_BIN_EXE_juggler"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("prlimit runs");
    let mut reader = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut got = Vec::new();
    let mut first = 0.0;
    let mut line = String::new();
    while got.len() < lines && reader.read_line(&mut line).unwrap() > 0 {
        if got.is_empty() {
            first = started.elapsed().as_secs_f64();
        }
        got.push(line.trim_end().to_string());
        line.clear();
    }
    drop(reader);
    let status = child.wait().unwrap();
    (got, first, status.code())
}

/// Issue 27: `gen` did not stream (`gen 10 20 10` and `gen 6 6 6 -j 2` died at 3.5 GB having
/// printed nothing, `gen 8 17 10 | head -1` needed 2.6 GB and 3.5 s). Now every generator
/// prints each pattern as it is found, in a few MB, and stops quietly on a closed pipe.
#[test]
fn gen_streams_in_bounded_memory_and_stops_on_a_closed_pipe() {
    let cases: [(&[&str], &str); 4] = [
        (&["gen", "8", "17", "10"], "          9999999a07"),
        (&["gen", "10", "20", "10"], "            bbbbbbbbb1"),
        (
            &["gen", "6", "6", "6", "-j", "2"],
            "        <3|4p><2p|4p><2p|4p><5|2><2p|3p><2p|3>",
        ),
        (&["gen", "7", "10", "10", "-s"], ""),
    ];
    for (args, first_line) in cases {
        let (lines, first, code) = gen_capped(args, 2000);
        assert_eq!(lines.len(), 2000, "{args:?}");
        if !first_line.is_empty() {
            assert_eq!(lines[0], first_line, "{args:?}");
        }
        assert!(first < 5.0, "{args:?}: first line after {first} s");
        assert_eq!(code, Some(0), "{args:?}");
    }
}

/// Issue 27: `gen 3 5 10000` overflowed the stack and `gen 3 5 4294967295` asked for 64 GB;
/// every search is now sized against the budget before anything is allocated.
#[test]
fn gen_refuses_absurd_limits_by_the_budget() {
    let cases: [(&[&str], &str); 4] = [
        (
            &["gen", "3", "5", "10000"],
            "10000 beats in a generated pattern's period, more than the limit of 4096",
        ),
        (
            &["gen", "3", "5", "4294967295"],
            "4294967295 beats in a generated pattern's period, more than the limit of 4096",
        ),
        (
            &["gen", "20", "127", "4000", "-j", "9", "-s"],
            "cells in one generator search",
        ),
        (
            &["gen", "4000000000", "5", "2", "-s"],
            "cells in one generator search",
        ),
    ];
    for (args, message) in cases {
        let (lines, _, code) = gen_capped(args, 10);
        assert_eq!(code, Some(2), "{args:?}: {lines:?}");
        let (_, _, err) = juggler(args);
        assert!(err.contains(message), "{args:?}: {err}");
    }
    // Issue 27: `-l 99` printed nothing, with no message.
    for leader in ["0", "3", "99"] {
        let args = [
            "gen", "6", "4", "3", "-j", "2", "-d", "2", "-jp", "-l", leader,
        ];
        let (code, out, err) = juggler(&args);
        assert_eq!(code, 2, "-l {leader}: {out}");
        let message = format!("the leader (-l) must be one of the jugglers, 1 to 2 (got {leader})");
        assert!(err.contains(&message), "{err}");
    }
}

/// Issue 27, modifiers class: `trans 5B 5` and `trans 3 4H2` dropped the bounce and the hold
/// (exit 0), `trans 3~2 3` the spin (it answered "3 -> 3"), and `trans` said "200 shortest transitions" when it had stopped at its limit of 200.
#[test]
fn trans_refuses_modifiers_it_would_drop_and_says_when_it_stopped_at_its_limit() {
    for (a, b) in [
        ("5B", "5"),
        ("3", "4H2"),
        ("3~2", "3"),
        ("(4~1,4)*", "(4,4)"),
    ] {
        let (code, out, err) = juggler(&["trans", a, b]);
        assert_eq!(code, 1, "{a} {b}: {out}");
        assert!(
            err.contains(
                "bounces, spins (~N) and throw modifiers other than x and p are not supported"
            ),
            "{err}"
        );
    }
    // Prechac passes fall between the beats the finder works on: said so, not "marked x".
    let (code, _, err) = juggler(&["trans", "<3.5p|3.5px>", "<3p|3p>"]);
    assert_eq!(code, 1);
    assert!(
        err.contains(
            "<3.5p|3.5px>: a Prechac pattern or shared siteswap (jugglers throwing between"
        ),
        "{err}"
    );
    let (code, out, _) = juggler(&["trans", "9", "h1"]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with(
            "9 -> h1: the first 200 shortest transitions (stopped at the limit of 200); back"
        ),
        "{out}"
    );
    assert_eq!(out.lines().count(), 202);
    let (_, out, _) = juggler(&["trans", "9", "h1", "--json"]);
    assert_eq!(out.lines().count(), 201);
    assert_eq!(out.lines().last(), Some(r#"{"stopped_at_limit":200}"#));
    // 144 transitions: all of them, and said so.
    let (_, out, _) = juggler(&["trans", "7", "d1", "--json"]);
    assert_eq!(out.lines().count(), 144);
    let (_, out, _) = juggler(&["trans", "7", "d1"]);
    assert!(
        out.starts_with("7 -> d1: 144 shortest transitions;"),
        "{out}"
    );
}
