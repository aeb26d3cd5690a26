//! `juggler pose`: where every hand, arm and prop is at one time, as JSON or for humans.

use std::fmt::Write as _;

use glam::Vec3;

use juggler::body::Pose;
use juggler::scene::Scene;
use juggler::types::{Hand, PropKind};

use super::input::load_spec;
use super::{print_out, CliError, PoseArgs};

pub fn run(args: &PoseArgs) -> Result<u8, CliError> {
    juggler::settings::keys::TIME
        .check("--time", args.time)
        .map_err(|e| CliError::usage(e.to_string()))?;
    let spec = load_spec(&args.pattern, &args.choice.choice(), &args.options)?;
    let scene = Scene::new(&spec).map_err(|e| CliError::invalid(e.to_string()))?;
    let pose = scene.pose_at(args.time);
    let text = if args.json {
        juggler::convert::pose::pose_json(&scene, &pose)
    } else {
        human(&scene, &pose)
    };
    print_out(&format!("{text}\n"))?;
    Ok(0)
}

/// A time for people: milliseconds shown, or in scientific notation when it is too large to
/// read digit by digit (`--time 1e300`).
fn seconds(t: f64) -> String {
    if t.abs() < 1e9 {
        format!("{t:.3}")
    } else {
        format!("{t:.3e}")
    }
}

fn v(p: Vec3) -> String {
    format!("({:6.3}, {:6.3}, {:6.3})", p.x, p.y, p.z)
}

/// A readable summary: one block per juggler, one line per prop.
fn human(scene: &Scene, pose: &Pose) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} at t = {} s ({:.2} beats/s, dwell {} beats, loop {:.3} s); metres, y up",
        juggler::text::escape_control(&scene.spec().name),
        seconds(pose.time),
        scene.beats_per_second(),
        // Rounded so a fine beat's share reads as the dwell given (1.3, not 1.2999...).
        (scene.dwell_beats() * 1e9).round() / 1e9,
        scene.loop_duration()
    );
    for (j, juggler) in pose.jugglers.iter().enumerate() {
        let p = juggler.placement;
        let _ = writeln!(
            out,
            "juggler {} at (x {:.2}, z {:.2}) facing {:.0}°, upper arm {:.2}, forearm {:.2}",
            j + 1,
            p.position.x,
            p.position.z,
            p.facing.to_degrees(),
            juggler.dims.upper_arm,
            juggler.dims.forearm
        );
        for hand in Hand::BOTH {
            let a = juggler.arms[hand.index()];
            let _ = writeln!(
                out,
                "  {:<5} hand {}  elbow {}  shoulder {}",
                hand.name(),
                v(a.hand),
                v(a.elbow),
                v(a.shoulder)
            );
        }
    }
    let _ = writeln!(out, "props:");
    for (i, prop) in pose.props.iter().enumerate() {
        let place = match prop.held_by {
            Some(h) => format!("held by juggler {} {}", h.juggler + 1, h.hand.name()),
            None => "in the air".to_string(),
        };
        let axis = match prop.kind {
            PropKind::Ball => String::new(),
            PropKind::Club => format!("  axis {}", v(prop.axis)),
            PropKind::Ring => format!("  normal {}", v(prop.axis)),
        };
        let _ = writeln!(
            out,
            "  {:>2} {:<4} {}  {}{}",
            i + 1,
            prop.kind.name(),
            v(prop.position),
            place,
            axis
        );
    }
    out.trim_end().to_string()
}
