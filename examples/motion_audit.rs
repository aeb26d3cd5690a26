//! Motion audit: samples a pattern over one loop and prints what a juggler would check:
//! hand extremes in each juggler's own frame, hand speed/acceleration, prop/hand gaps at
//! catches and releases, flight apexes by throw value, lowest prop, sync simultaneity.
//!
//! `cargo run --example motion_audit -- PATTERN [--bps B] [--dwell D]`
//!
//! `cargo run --release --example motion_audit -- --contacts [FILE_OR_DIR...]` measures
//! contacts instead (`tests/pipeline/contacts.rs`) over the shared vectors, the library, the
//! JML test files and the given pattern files, with balls, clubs and rings, and prints the
//! worst cases of each measure (a loop longer than two minutes over its first two minutes;
//! `AUDIT_TOP=N` lists N cases of each, `AUDIT_PROGRESS=1` times each scene on stderr,
//! `AUDIT_KINDS=ball,ring` measures those kinds only, `AUDIT_RATE=HZ` samples HZ poses a second
//! instead of 160).

#![allow(clippy::needless_range_loop)]

#[path = "../tests/pipeline/contacts.rs"]
mod contacts;

use std::collections::BTreeMap;

use juggler::scene::Scene;
use juggler::spec::PatternSpec;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--contacts") {
        audit_contacts(&args[1..]);
        return;
    }
    let Some(pattern) = args.first() else {
        eprintln!("usage: motion_audit PATTERN [--bps B] [--dwell D]");
        std::process::exit(2);
    };
    let mut spec = juggler::files::library::find_in_library(pattern)
        .unwrap_or_else(|| PatternSpec::from_notation(pattern));
    let mut i = 1;
    while i + 1 < args.len() {
        let v: f64 = args[i + 1].parse().unwrap_or(f64::NAN);
        match args[i].as_str() {
            "--bps" => spec.settings.bps = Some(v),
            "--dwell" => spec.settings.dwell = juggler::settings::Dwell::Uniform(v),
            _ => {}
        }
        i += 2;
    }
    let scene = match Scene::new(&spec) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let motion = scene.motion();
    let layout = scene.layout();
    let timing = motion.timing();
    let period = motion.loop_duration();
    println!(
        "== {pattern}: bps {:.3} dwell {} loop {:.3}s hand period {:.3}s props {}",
        timing.bps,
        timing.dwell,
        period,
        motion.hand_period(),
        motion.prop_count()
    );
    let dt = 0.0005;
    let steps = (period / dt).ceil() as usize;
    let jugglers = motion.jugglers();
    // per hand: min/max local, max speed, max accel, max dist from (0,1.0,0)
    let mut lo = vec![[f32::INFINITY; 3]; jugglers * 2];
    let mut hi = vec![[f32::NEG_INFINITY; 3]; jugglers * 2];
    let mut vmax = vec![0f32; jugglers * 2];
    let mut amax = vec![(0f32, 0f64); jugglers * 2];
    let mut dmax = vec![0f32; jugglers * 2];
    let mut prev = motion.state_at(-dt);
    let mut prev_v: Vec<[glam::Vec3; 2]> = prev
        .hands
        .iter()
        .map(|h| [h[0].velocity, h[1].velocity])
        .collect();
    let mut apex: BTreeMap<u32, (f32, f32)> = BTreeMap::new();
    let mut min_prop_y = f32::INFINITY;
    let mut max_prop_jump = (0f32, 0f64, 0usize);
    let mut catch_gaps: Vec<(f64, usize, f32, u32)> = Vec::new();
    let mut release_gaps: Vec<(f64, usize, f32, u32)> = Vec::new();
    let mut releases: Vec<(f64, usize, u32)> = Vec::new();
    for k in 0..steps {
        let t = k as f64 * dt;
        let s = motion.state_at(t);
        for j in 0..jugglers {
            let pl = &layout.jugglers[j];
            for h in 0..2 {
                let slot = j * 2 + h;
                let hs = s.hands[j][h];
                let local = pl.to_local(hs.position);
                for a in 0..3 {
                    lo[slot][a] = lo[slot][a].min(local[a]);
                    hi[slot][a] = hi[slot][a].max(local[a]);
                }
                let d = (local - glam::Vec3::new(0.0, 1.0, 0.0)).length();
                dmax[slot] = dmax[slot].max(d);
                vmax[slot] = vmax[slot].max(hs.velocity.length());
                let acc = ((hs.velocity - prev_v[j][h]) / dt as f32).length();
                if acc > amax[slot].0 {
                    amax[slot] = (acc, t);
                }
            }
        }
        prev_v = s
            .hands
            .iter()
            .map(|h| [h[0].velocity, h[1].velocity])
            .collect();
        for (p, ps) in s.props.iter().enumerate() {
            min_prop_y = min_prop_y.min(ps.position.y);
            let pp = &prev.props[p];
            let expected = ps.velocity.length() * dt as f32;
            let jump = (ps.position - pp.position).length() - expected;
            if jump > max_prop_jump.0 {
                max_prop_jump = (jump, t, p);
            }
            if let Some(f) = ps.flight {
                let rel = f.release;
                let from = f.from;
                let hand_at_release = motion.hand_at(from, rel).position;
                let e = apex.entry(f.value).or_insert((f32::NEG_INFINITY, 0.0));
                let base = hand_at_release.y;
                e.0 = e.0.max(ps.position.y - base);
                e.1 = ((f.catch - f.release) as f32).max(e.1);
                // first sample of a flight: gap between prop and releasing hand at release
                if pp.flight.is_none() {
                    let pos_at = ps.position - ps.velocity * (t - rel) as f32;
                    release_gaps.push((rel, p, (pos_at - hand_at_release).length(), f.value));
                    releases.push((rel, from.slot(), f.value));
                }
            }
            // catch: previous sample flying, now held
            if let (Some(f), Some(by)) = (pp.flight, ps.held_by) {
                let hand = motion.hand_at(by, f.catch).position;
                // prop position at catch extrapolated from previous sample
                let pos_at = pp.position + pp.velocity * (f.catch - prev.time) as f32;
                catch_gaps.push((f.catch, p, (pos_at - hand).length(), f.value));
            }
        }
        prev = s;
    }
    let names = ["L", "R"];
    for j in 0..jugglers {
        for h in 0..2 {
            let slot = j * 2 + h;
            println!(
                "  j{j}{}: x[{:+.3},{:+.3}] y[{:.3},{:.3}] z[{:+.3},{:+.3}] maxdist(0,1,0) {:.3} vmax {:.2} amax {:.1} @{:.3}",
                names[h], lo[slot][0], hi[slot][0], lo[slot][1], hi[slot][1], lo[slot][2], hi[slot][2],
                dmax[slot], vmax[slot], amax[slot].0, amax[slot].1
            );
        }
    }
    for (v, (a, ft)) in &apex {
        println!(
            "  value {v}: apex above release hand {:.3} m, flight {:.3} s",
            a, ft
        );
    }
    println!("  lowest prop y {:.3}", min_prop_y);
    println!(
        "  max prop jump beyond v*dt {:.4} m at t {:.3} prop {}",
        max_prop_jump.0, max_prop_jump.1, max_prop_jump.2
    );
    let worst_c = catch_gaps
        .iter()
        .cloned()
        .fold((0.0, 0, 0f32, 0), |a, b| if b.2 > a.2 { b } else { a });
    let worst_r = release_gaps
        .iter()
        .cloned()
        .fold((0.0, 0, 0f32, 0), |a, b| if b.2 > a.2 { b } else { a });
    println!(
        "  worst catch gap {:.4} m (t {:.3} prop {} value {})",
        worst_c.2, worst_c.0, worst_c.1, worst_c.3
    );
    println!(
        "  worst release gap {:.4} m (t {:.3} prop {} value {})",
        worst_r.2, worst_r.0, worst_r.1, worst_r.3
    );
    releases.sort_by(|a, b| a.0.total_cmp(&b.0));
    let line: Vec<String> = releases
        .iter()
        .map(|(t, slot, v)| format!("{:.3}:{}{}={}", t, slot / 2, names[slot % 2], v))
        .collect();
    println!("  releases: {}", line.join(" "));
}

/// Every pattern to measure: the shared vectors, the library, the JML test files and `extra`.
fn contact_specs(extra: &[String]) -> Vec<PatternSpec> {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut specs = Vec::new();
    // `--only A B ...`: just these patterns, files or directories.
    if extra.first().map(String::as_str) == Some("--only") {
        let mut files = Vec::new();
        for e in &extra[1..] {
            let p = std::path::PathBuf::from(e);
            if p.is_dir() {
                add_files(&mut files, &p);
            } else if p.is_file() {
                files.push(p);
            } else {
                // A settings string, siteswap or library name, read as the command line does.
                match juggler::files::argument::load(e) {
                    Ok(found) => specs.extend(found),
                    Err(err) => eprintln!("{e}: {err}"),
                }
            }
        }
        for f in files {
            specs.extend(
                juggler::files::read_path_lenient(&f)
                    .0
                    .into_iter()
                    .map(|p| p.spec),
            );
        }
        return specs;
    }
    let vectors = std::fs::read_to_string(root.join("../shared/vectors/siteswaps.tsv"))
        .or_else(|_| std::fs::read_to_string(root.join("tests/data/siteswaps.tsv")))
        .unwrap_or_default();
    for line in vectors.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        if cols.get(1) == Some(&"true") {
            specs.push(PatternSpec::from_notation(cols[0]));
        }
    }
    let add_dir = add_files;
    let mut files = Vec::new();
    add_dir(&mut files, &juggler::files::library_dir());
    add_dir(&mut files, &root.join("tests/data/jml_events"));
    for e in extra {
        let p = std::path::PathBuf::from(e);
        if p.is_dir() {
            add_dir(&mut files, &p);
        } else {
            files.push(p);
        }
    }
    for f in files {
        let (patterns, _) = juggler::files::read_path_lenient(&f);
        specs.extend(patterns.into_iter().map(|p| p.spec));
    }
    specs
}

fn audit_contacts(extra: &[String]) {
    use juggler::types::PropKind;
    use rayon::prelude::*;
    let specs = contact_specs(extra);
    // AUDIT_KINDS=ball,ring: only those kinds (default all three).
    let wanted = std::env::var("AUDIT_KINDS")
        .unwrap_or_default()
        .to_lowercase();
    let kinds: Vec<PropKind> = [PropKind::Ball, PropKind::Club, PropKind::Ring]
        .into_iter()
        .filter(|k| wanted.is_empty() || wanted.contains(&format!("{k:?}").to_lowercase()))
        .collect();
    let jobs: Vec<(PatternSpec, PropKind)> = specs
        .iter()
        .flat_map(|s| {
            kinds.iter().map(|&k| {
                let mut s = s.clone();
                s.settings.prop = k;
                (s, k)
            })
        })
        .collect();
    // AUDIT_PROGRESS=1: each scene's time on stderr as it is measured.
    let progress = std::env::var("AUDIT_PROGRESS").is_ok();
    // AUDIT_RATE=HZ: poses sampled per second (160 unless given).
    let rate = std::env::var("AUDIT_RATE")
        .ok()
        .and_then(|r| r.parse::<f64>().ok())
        .filter(|r| r.is_finite() && *r >= 1.0)
        .unwrap_or(160.0);
    let results: Vec<contacts::Contacts> = jobs
        .par_iter()
        .filter_map(|(spec, _)| {
            let started = std::time::Instant::now();
            if progress {
                eprintln!("start {} {:?}", spec.name, spec.settings.prop);
            }
            let scene = Scene::new(spec).ok()?;
            let built = started.elapsed().as_secs_f64();
            // Loops longer than two minutes are measured over their first two minutes.
            let c = contacts::measure_for(&scene, rate, 120.0);
            if progress {
                eprintln!(
                    "{:7.2} s ({built:.2} s to build) {:6} poses  {} {:?}",
                    started.elapsed().as_secs_f64(),
                    c.samples,
                    spec.name,
                    spec.settings.prop
                );
            }
            Some(c)
        })
        .collect();
    println!("{} patterns, {} scenes", specs.len(), results.len());
    for kind in ["Ball:", "Club:", "Ring:"] {
        let of_kind: Vec<&contacts::Contacts> = results
            .iter()
            .filter(|c| c.props.what.contains(kind))
            .collect();
        let bad = of_kind.iter().filter(|c| c.props.value < -0.01).count();
        let worst = of_kind
            .iter()
            .map(|c| c.props.value)
            .fold(f32::INFINITY, f32::min);
        println!(
            "   {kind} {bad} of {} scenes overlap > 1 cm, worst {worst:+.4}",
            of_kind.len()
        );
    }
    type Pick = fn(&contacts::Contacts) -> &contacts::Worst;
    let measures: [(&str, Pick, bool, f32); 7] = [
        ("prop-prop clearance m", |c| &c.props, false, -0.01),
        ("hand-hand distance m", |c| &c.hands, false, 0.06),
        ("forearm-forearm clearance m", |c| &c.forearms, false, 0.0),
        ("prop-arm clearance m", |c| &c.arms, false, 0.0),
        ("hand acceleration m/s2", |c| &c.acceleration, true, 200.0),
        ("elbow behind shoulders m", |c| &c.elbow_behind, true, 0.05),
        ("held prop off its hand m", |c| &c.held_off, true, 0.05),
    ];
    for (label, pick, high_is_bad, limit) in measures {
        let mut worst: Vec<&contacts::Worst> = results.iter().map(pick).collect();
        worst.sort_by(|a, b| {
            if high_is_bad {
                b.value.total_cmp(&a.value)
            } else {
                a.value.total_cmp(&b.value)
            }
        });
        let bad = worst
            .iter()
            .filter(|w| {
                if high_is_bad {
                    w.value > limit
                } else {
                    w.value < limit
                }
            })
            .count();
        println!("== {label}: {bad} scenes beyond {limit}");
        let top = std::env::var("AUDIT_TOP")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(8);
        for w in worst.iter().take(top) {
            println!("   {:+.4}  {}", w.value, w.what);
        }
    }
    // Hands above 200 m/s² whose throw and catch points ask for no more: the path's doing.
    let mut ours: Vec<&contacts::Contacts> = results
        .iter()
        .filter(|c| c.acceleration.value > 200.0 && c.points_need <= 200.0)
        .collect();
    ours.sort_by(|a, b| b.acceleration.value.total_cmp(&a.acceleration.value));
    println!(
        "== hand acceleration where the hand's points need at most 200 m/s2: {} scenes beyond 200",
        ours.len()
    );
    for c in ours {
        println!(
            "   {:+.1} (points need {:.1})  {}",
            c.acceleration.value, c.points_need, c.acceleration.what
        );
    }
}

/// The pattern files (TOML, JML) of `dir`, sorted, appended to `files`.
fn add_files(files: &mut Vec<std::path::PathBuf>, dir: &std::path::Path) {
    let mut found: Vec<_> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.extension()
                .is_some_and(|e| e == "toml" || e == "jml" || e == "xml")
        })
        .collect();
    found.sort();
    files.extend(found);
}
