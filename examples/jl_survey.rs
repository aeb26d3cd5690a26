//! Local survey, not run in CI: how many patterns of Juggling Lab's shipped pattern lists load
//! and animate (no NaN over a loop). Juggling Lab's files are GPL and not in this repository:
//! fetch them (github.com/jkboyce/jugglinglab, `patterns/` at a tag) and pass them:
//! `cargo run --example jl_survey -- /path/to/patterns/*.jml` (`V=1` lists what fails and why).
use juggler::files::jml;
use juggler::scene::Scene;
fn main() {
    let mut total = (0, 0, 0, 0);
    let verbose = std::env::var("V").is_ok();
    for path in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&path).unwrap();
        let import = match jml::import_lenient(&text, &path) {
            Ok(i) => i,
            Err(e) => {
                println!("FILE ERR {path}: {e}");
                continue;
            }
        };
        let n = import.patterns.len() + import.problems.len();
        let (mut ok, mut anim) = (0, 0);
        for p in &import.problems {
            if verbose {
                println!("  refused: {p}");
            }
        }
        for p in &import.patterns {
            match Scene::new(&p.spec) {
                Ok(scene) => {
                    ok += 1;
                    if p.spec.source.events().is_some() {
                        total.3 += 1;
                    }
                    let d = scene.loop_duration();
                    let mut good = d.is_finite() && d > 0.0;
                    for k in 0..100 {
                        let pose = scene.pose_at(d * k as f64 / 100.0);
                        if format!("{pose:?}").contains("NaN") {
                            good = false;
                        }
                    }
                    if good {
                        anim += 1
                    } else {
                        println!("  NaN/bad: {}", p.spec.name);
                    }
                }
                Err(e) => {
                    if verbose {
                        println!("  scene err {}: {e}", p.spec.name)
                    }
                }
            }
        }
        println!("{path}: {n} patterns, {ok} load, {anim} animate");
        total.0 += n;
        total.1 += ok;
        total.2 += anim;
    }
    println!(
        "TOTAL {} patterns, {} load, {} animate, {} of them event-based",
        total.0, total.1, total.2, total.3
    );
}
