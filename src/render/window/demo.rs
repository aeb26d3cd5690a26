//! Development stand-in for the scene: hand-made frames of a stick figure juggling a cascade,
//! used until `scene` and `render::build_frame` land on main. Accepts only plain digit strings
//! whose average is a whole number.

use glam::Vec2;

use crate::render::{Frame, Shape};
use crate::types::Rgba;

use super::animation::{Animation, Facts, LoadError};
use super::state::Orbit;

/// A cascade of `props` balls drawn by hand.
pub struct Demo {
    name: String,
    props: usize,
    period: u32,
}

const BPS: f64 = 4.0;

impl Demo {
    /// Parses a digit-only siteswap whose digits average to a whole number.
    pub fn load(text: &str) -> Result<Demo, LoadError> {
        let text = text.trim();
        let mut sum = 0u32;
        for (i, c) in text.chars().enumerate() {
            match c.to_digit(10) {
                Some(d) => sum += d,
                None => {
                    return Err(LoadError::new(
                        format!("unexpected '{c}' at column {}", i + 1),
                        Some(i),
                    ))
                }
            }
        }
        let period = text.chars().count() as u32;
        if period == 0 || !sum.is_multiple_of(period) {
            return Err(LoadError::new(
                "the average of the throws is not a whole number",
                None,
            ));
        }
        Ok(Demo {
            name: text.to_string(),
            props: (sum / period) as usize,
            period,
        })
    }
}

impl Animation for Demo {
    fn frame(&self, t: f64, orbit: &Orbit, width: u32, height: u32) -> Frame {
        let (w, h) = (width as f32, height as f32);
        let scale = h / 2.6 / orbit.zoom;
        let turn = orbit.azimuth_deg.to_radians().cos();
        let origin = Vec2::new(w / 2.0, h * 0.92);
        let p = |x: f32, y: f32| origin + Vec2::new(x * scale * turn, -y * scale);
        let skin = Rgba::rgb(230, 190, 160);
        let shirt = Rgba::rgb(60, 90, 150);
        let mut shapes = vec![
            Shape::Polygon {
                points: vec![p(-1.5, -0.05), p(1.5, -0.05), p(1.5, 0.0), p(-1.5, 0.0)],
                color: Rgba::rgb(170, 175, 185),
            },
            Shape::Line {
                from: p(-0.1, 0.9),
                to: p(-0.15, 0.0),
                width: 0.1 * scale,
                color: Rgba::rgb(40, 50, 70),
            },
            Shape::Line {
                from: p(0.1, 0.9),
                to: p(0.15, 0.0),
                width: 0.1 * scale,
                color: Rgba::rgb(40, 50, 70),
            },
            Shape::Polygon {
                points: vec![p(-0.18, 0.9), p(0.18, 0.9), p(0.22, 1.45), p(-0.22, 1.45)],
                color: shirt,
            },
            Shape::Circle {
                center: p(0.0, 1.62),
                radius: 0.11 * scale,
                color: skin,
            },
        ];
        let beat = t * BPS;
        let throw_time = 3.0 * self.props.max(1) as f64 / BPS / 3.0 * 0.8;
        for side in [-1.0f32, 1.0] {
            let hand_x = side * (0.25 + 0.05 * ((beat * std::f64::consts::PI).sin() as f32));
            shapes.push(Shape::Line {
                from: p(side * 0.2, 1.42),
                to: p(side * 0.3, 1.12),
                width: 0.07 * scale,
                color: shirt,
            });
            shapes.push(Shape::Line {
                from: p(side * 0.3, 1.12),
                to: p(hand_x, 1.0),
                width: 0.06 * scale,
                color: skin,
            });
        }
        for i in 0..self.props {
            let phase = ((beat + i as f64 * 3.0 / self.props as f64) / 3.0).fract();
            let s = phase as f32;
            let x = (0.5 - s) * 0.5 * if i % 2 == 0 { 1.0 } else { -1.0 };
            let flight = throw_time as f32;
            let time = s * flight;
            let y = 1.0 + 4.9 * time * (flight - time);
            shapes.push(Shape::Circle {
                center: p(x, y),
                radius: 0.045 * scale,
                color: Rgba::rgb(220, 60, 60),
            });
        }
        Frame {
            width,
            height,
            background: Rgba::rgb(236, 239, 244),
            shapes,
        }
    }

    fn loop_duration(&self) -> f64 {
        3.0 / BPS
    }

    fn facts(&self) -> Facts {
        Facts {
            name: self.name.clone(),
            jugglers: 1,
            props: self.props,
            period: self.period,
            beats_per_second: BPS,
            loop_seconds: self.loop_duration(),
        }
    }

    fn home_orbit(&self) -> Orbit {
        Orbit::new(0.0, 10.0)
    }
}
