//! Decodes frame N of an animated GIF (composited) and saves it as a PNG, to look at exports:
//! `cargo run --example gif_frame -- anim.gif N out.png`.
fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 4 {
        eprintln!("usage: gif_frame ANIM.gif N OUT.png");
        std::process::exit(2);
    }
    let n: usize = args[2].parse().expect("frame number");
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut reader = options
        .read_info(std::fs::File::open(&args[1]).expect("open"))
        .expect("gif");
    let (w, h) = (reader.width() as usize, reader.height() as usize);
    let mut canvas = vec![0u8; w * h * 4];
    let mut i = 0;
    while let Some(frame) = reader.read_next_frame().expect("frame") {
        for y in 0..frame.height as usize {
            for x in 0..frame.width as usize {
                let s = 4 * (y * frame.width as usize + x);
                if frame.buffer[s + 3] != 0 {
                    let d = 4 * ((y + frame.top as usize) * w + x + frame.left as usize);
                    canvas[d..d + 4].copy_from_slice(&frame.buffer[s..s + 4]);
                }
            }
        }
        if i == n {
            break;
        }
        i += 1;
    }
    let file = std::fs::File::create(&args[3]).expect("create");
    let mut enc = png::Encoder::new(std::io::BufWriter::new(file), w as u32, h as u32);
    enc.set_color(png::ColorType::Rgba);
    enc.write_header()
        .expect("header")
        .write_image_data(&canvas)
        .expect("write");
}
