//! Renders a few hand-built poses to PNG files in a directory (default: the current one):
//! `cargo run --example render_demo -- OUTDIR`.
use std::path::PathBuf;

use juggler::layout::Layout;
use juggler::render::fixture::Cascade;
use juggler::render::raster::rasterize;
use juggler::render::{build_frame, Camera};
use juggler::types::PropKind;

fn save(path: &PathBuf, img: &juggler::render::raster::RgbImage) {
    let file = std::fs::File::create(path).expect("create");
    let mut enc = png::Encoder::new(std::io::BufWriter::new(file), img.width, img.height);
    enc.set_color(png::ColorType::Rgb);
    enc.write_header()
        .expect("header")
        .write_image_data(&img.pixels)
        .expect("data");
}

fn main() {
    let dir: PathBuf = std::env::args().nth(1).unwrap_or_else(|| ".".into()).into();
    let (w, h) = (640u32, 480u32);
    for (name, kind, t) in [
        ("balls", PropKind::Ball, 0.1),
        ("clubs", PropKind::Club, 0.25),
        ("rings", PropKind::Ring, 0.4),
    ] {
        let c = Cascade {
            kind,
            ..Cascade::default()
        };
        let poses: Vec<_> = (0..12)
            .map(|i| c.pose_at(i as f64 * c.loop_duration() / 12.0))
            .collect();
        let cam = Camera::framing_all(&poses, w as f32 / h as f32, None);
        let img = rasterize(&build_frame(&c.pose_at(t), &cam, w, h)).expect("size");
        save(&dir.join(format!("{name}.png")), &img);
    }
    // Two passers, side-ish view.
    let layout = Layout::circle(2);
    let mut poses = Vec::new();
    for t in 0..12 {
        let mut pose = juggler::body::Pose {
            time: 0.0,
            jugglers: vec![],
            props: vec![],
        };
        for p in &layout.jugglers {
            let c = Cascade {
                placement: *p,
                kind: PropKind::Club,
                ..Cascade::default()
            };
            let q = c.pose_at(t as f64 * 0.1);
            pose.jugglers.extend(q.jugglers);
            pose.props.extend(q.props);
        }
        poses.push(pose);
    }
    let cam = Camera::framing_all(&poses, w as f32 / h as f32, None);
    let img = rasterize(&build_frame(&poses[3], &cam, w, h)).expect("size");
    save(&dir.join("passing.png"), &img);

    // The body model's figure (body::juggler) with the cascade's hands and balls.
    let c = Cascade::default();
    let dims = juggler::body::dims::BodyDims::from_spec(None).expect("adult");
    let mut pose = c.pose_at(0.1);
    let hands = [pose.jugglers[0].arms[0].hand, pose.jugglers[0].arms[1].hand];
    pose.jugglers[0] = juggler::body::juggler::juggler_pose(&c.placement, &dims, hands);
    let cam = Camera::framing(&pose, w as f32 / h as f32);
    let img = rasterize(&build_frame(&pose, &cam, w, h)).expect("size");
    save(&dir.join("body_model.png"), &img);

    // The cascade seen from behind-left and from high above.
    let c = Cascade {
        kind: PropKind::Club,
        ..Cascade::default()
    };
    let poses: Vec<_> = (0..12)
        .map(|i| c.pose_at(i as f64 * c.loop_duration() / 12.0))
        .collect();
    for (name, az, el) in [("behind", 200.0f32, 15.0f32), ("above", 30.0, 60.0)] {
        let overrides = juggler::render::camera::ViewOverrides {
            azimuth: Some(az.to_radians()),
            elevation: Some(el.to_radians()),
            distance: None,
        };
        let cam = Camera::framing_with(&poses, w as f32 / h as f32, &overrides);
        let img = rasterize(&build_frame(&c.pose_at(0.25), &cam, w, h)).expect("size");
        save(&dir.join(format!("{name}.png")), &img);
    }
}
