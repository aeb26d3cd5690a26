//! The sounds themselves, synthesised from a few decaying partials and a burst of noise:
//! no recorded samples. Every cue starts at full loudness within two milliseconds of its
//! first sample (so it is heard, and found by an onset detector, at its event) and dies away
//! within a quarter of a second.

use super::Cue;
use crate::types::PropKind;

/// One partial: frequency at the start and at the end of the sound (Hz, a glide between
/// them over `glide` seconds), loudness and decay time (seconds to 1/e).
#[derive(Clone, Copy)]
struct Partial {
    from_hz: f64,
    to_hz: f64,
    glide: f64,
    gain: f64,
    decay: f64,
}

impl Partial {
    const fn steady(hz: f64, gain: f64, decay: f64) -> Partial {
        Partial {
            from_hz: hz,
            to_hz: hz,
            glide: 1.0,
            gain,
            decay,
        }
    }
}

/// How one cue sounds: its partials, a noise burst (gain, decay; low-passed by `dull`, 0 =
/// bright, towards 1 = dull), attack time, length and the peak it is scaled to.
struct Recipe {
    partials: &'static [Partial],
    noise_gain: f64,
    noise_decay: f64,
    dull: f64,
    attack: f64,
    length: f64,
    peak: f32,
}

/// A ball landing in a hand: a soft low pat.
const BALL: Recipe = Recipe {
    partials: &[
        Partial {
            from_hz: 240.0,
            to_hz: 150.0,
            glide: 0.04,
            gain: 1.0,
            decay: 0.022,
        },
        Partial::steady(520.0, 0.25, 0.010),
    ],
    noise_gain: 0.5,
    noise_decay: 0.004,
    dull: 0.85,
    attack: 0.0015,
    length: 0.12,
    peak: 0.6,
};

/// A club's handle slapping into a palm: a dry, woody clack.
const CLUB: Recipe = Recipe {
    partials: &[
        Partial::steady(610.0, 1.0, 0.030),
        Partial::steady(1330.0, 0.6, 0.018),
        Partial::steady(2210.0, 0.35, 0.010),
    ],
    noise_gain: 0.7,
    noise_decay: 0.003,
    dull: 0.4,
    attack: 0.001,
    length: 0.14,
    peak: 0.6,
};

/// A ring caught: a bright plastic tick that rings a little.
const RING: Recipe = Recipe {
    partials: &[
        Partial::steady(1480.0, 1.0, 0.060),
        Partial::steady(2380.0, 0.5, 0.045),
        Partial::steady(3950.0, 0.3, 0.025),
    ],
    noise_gain: 0.4,
    noise_decay: 0.002,
    dull: 0.2,
    attack: 0.001,
    length: 0.25,
    peak: 0.55,
};

/// A prop hitting the floor: a rubbery bonk that drops in pitch.
const BOUNCE: Recipe = Recipe {
    partials: &[
        Partial {
            from_hz: 170.0,
            to_hz: 90.0,
            glide: 0.08,
            gain: 1.0,
            decay: 0.05,
        },
        Partial {
            from_hz: 340.0,
            to_hz: 180.0,
            glide: 0.08,
            gain: 0.3,
            decay: 0.03,
        },
    ],
    noise_gain: 0.6,
    noise_decay: 0.006,
    dull: 0.9,
    attack: 0.002,
    length: 0.2,
    peak: 0.65,
};

/// A prop leaving the hand: a quiet swish of air.
const THROW: Recipe = Recipe {
    partials: &[],
    noise_gain: 1.0,
    noise_decay: 0.045,
    dull: 0.6,
    attack: 0.015,
    length: 0.16,
    peak: 0.22,
};

/// A metronome tick.
const BEAT: Recipe = Recipe {
    partials: &[Partial::steady(1200.0, 1.0, 0.012)],
    noise_gain: 0.1,
    noise_decay: 0.002,
    dull: 0.0,
    attack: 0.0005,
    length: 0.06,
    peak: 0.4,
};

/// The accented tick on the first beat of a period: higher and a little louder.
const ACCENT: Recipe = Recipe {
    partials: &[Partial::steady(1800.0, 1.0, 0.014)],
    noise_gain: 0.1,
    noise_decay: 0.002,
    dull: 0.0,
    attack: 0.0005,
    length: 0.06,
    peak: 0.5,
};

fn recipe(cue: Cue) -> &'static Recipe {
    match cue {
        Cue::Catch(PropKind::Ball) => &BALL,
        Cue::Catch(PropKind::Club) => &CLUB,
        Cue::Catch(PropKind::Ring) => &RING,
        Cue::Bounce => &BOUNCE,
        Cue::Throw => &THROW,
        Cue::Beat { accent: false } => &BEAT,
        Cue::Beat { accent: true } => &ACCENT,
    }
}

/// The samples of `cue` at `rate` samples per second, mono, peak at the recipe's level.
pub(super) fn samples(cue: Cue, rate: u32) -> Vec<f32> {
    let r = recipe(cue);
    let rate = f64::from(rate.max(1));
    let n = (r.length * rate).round() as usize;
    let mut noise = Noise(0x9e37_79b9 ^ (cue.index() as u32 + 1).wrapping_mul(0x85eb_ca6b));
    let mut low = 0.0;
    let mut phases = vec![0.0f64; r.partials.len()];
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let t = i as f64 / rate;
        let attack = (t / r.attack).min(1.0);
        // A short fade at the very end so no cue stops with a click.
        let tail = ((r.length - t) / 0.01).clamp(0.0, 1.0);
        let mut v = 0.0;
        for (p, phase) in r.partials.iter().zip(phases.iter_mut()) {
            let glide = (t / p.glide).min(1.0);
            let hz = p.from_hz + (p.to_hz - p.from_hz) * glide;
            *phase += std::f64::consts::TAU * hz / rate;
            v += p.gain * (-t / p.decay).exp() * phase.sin();
        }
        low += (1.0 - r.dull) * (noise.next() - low);
        v += r.noise_gain * (-t / r.noise_decay.max(1e-6)).exp() * low;
        out.push((v * attack * tail) as f32);
    }
    let peak = out.iter().fold(0.0f32, |m, v| m.max(v.abs()));
    if peak > 0.0 {
        let scale = r.peak / peak;
        out.iter_mut().for_each(|v| *v *= scale);
    }
    out
}

/// A small deterministic white-noise source (xorshift), values in [-1, 1].
struct Noise(u32);

impl Noise {
    fn next(&mut self) -> f64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.0 = x;
        f64::from(x) / f64::from(u32::MAX) * 2.0 - 1.0
    }
}
