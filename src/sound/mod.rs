//! Sound: the pattern's events (throws, floor contacts, catches and beats, from
//! `scene::Scene::events_between` and `beats_between`) turned into short synthesised sounds.
//! One design for every front end: the window and the web page play the [`Cue`]s of
//! [`cues_between`] as the animation passes their events (at its own speed, so slow motion
//! keeps each sound on its catch), and the video export mixes a whole track with
//! [`mix`] and writes it with [`wav`]. Pure: no audio device here (the window's and the
//! page's players are in `app`).
//!
//! Files: `synth.rs` (the sounds of the cues: decaying partials and noise, no recordings).

mod synth;

use crate::scene::{EventKind, PatternEvent};
use crate::types::PropKind;

/// Samples per second of every sound (Opus's own rate; AAC and the web page take it too).
pub const SAMPLE_RATE: u32 = 48_000;

/// Which sounds are heard: catches (with floor contacts of bounces), throws, beats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SoundParts {
    pub catches: bool,
    pub throws: bool,
    pub beats: bool,
}

impl Default for SoundParts {
    /// Catches and bounces only.
    fn default() -> Self {
        SoundParts::CATCHES
    }
}

impl SoundParts {
    /// Catches and bounces only.
    pub const CATCHES: SoundParts = SoundParts {
        catches: true,
        throws: false,
        beats: false,
    };

    /// The names [`SoundParts::parse`] reads.
    pub const NAMES: &'static str = "catches, throws, beats, all";

    /// A comma-separated list of `catches`, `throws`, `beats` or `all` (any case, spaces
    /// allowed); an empty text is [`SoundParts::CATCHES`].
    pub fn parse(text: &str) -> Result<SoundParts, String> {
        let mut parts = SoundParts {
            catches: false,
            throws: false,
            beats: false,
        };
        let mut any = false;
        for word in text.split(',').map(str::trim).filter(|w| !w.is_empty()) {
            any = true;
            match word.to_ascii_lowercase().as_str() {
                "catches" | "catch" => parts.catches = true,
                "throws" | "throw" => parts.throws = true,
                "beats" | "beat" | "metronome" => parts.beats = true,
                "all" => {
                    parts = SoundParts {
                        catches: true,
                        throws: true,
                        beats: true,
                    }
                }
                other => {
                    return Err(format!(
                        "unknown sound '{}': expected {}",
                        crate::text::escape_control(other),
                        SoundParts::NAMES
                    ))
                }
            }
        }
        Ok(if any { parts } else { SoundParts::CATCHES })
    }

    /// The parts as [`SoundParts::parse`] reads them back (`catches,beats`), `none` for none.
    pub fn names(self) -> String {
        let names: Vec<&str> = [
            (self.catches, "catches"),
            (self.throws, "throws"),
            (self.beats, "beats"),
        ]
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, name)| *name)
        .collect();
        if names.is_empty() {
            "none".to_string()
        } else {
            names.join(",")
        }
    }

    /// Whether nothing is heard.
    pub fn is_silent(self) -> bool {
        !(self.catches || self.throws || self.beats)
    }
}

/// One sound.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cue {
    /// A prop of this kind lands in a hand.
    Catch(PropKind),
    /// A prop hits the floor.
    Bounce,
    /// A prop leaves a hand.
    Throw,
    /// A metronome tick, `accent` on the first beat of a period.
    Beat { accent: bool },
}

impl Cue {
    /// Every cue, in [`Cue::index`] order.
    pub const ALL: [Cue; 7] = [
        Cue::Catch(PropKind::Ball),
        Cue::Catch(PropKind::Club),
        Cue::Catch(PropKind::Ring),
        Cue::Bounce,
        Cue::Throw,
        Cue::Beat { accent: false },
        Cue::Beat { accent: true },
    ];

    /// The cue's place in [`Cue::ALL`] (the web page's sound number).
    pub fn index(self) -> usize {
        Cue::ALL.iter().position(|c| *c == self).unwrap_or(0)
    }

    /// The cue's sound at [`SAMPLE_RATE`], mono, in [-1, 1].
    pub fn samples(self) -> Vec<f32> {
        synth::samples(self, SAMPLE_RATE)
    }

    /// The cue that `event` makes with `parts` on, if any.
    pub fn of(event: &PatternEvent, parts: SoundParts) -> Option<Cue> {
        match event.kind {
            EventKind::Catch if parts.catches => Some(Cue::Catch(event.prop)),
            EventKind::Bounce if parts.catches => Some(Cue::Bounce),
            EventKind::Throw if parts.throws => Some(Cue::Throw),
            EventKind::Beat { accent } if parts.beats => Some(Cue::Beat { accent }),
            _ => None,
        }
    }
}

/// The cues of `events` with `parts` on, each with its event's time.
pub fn cues_between(events: &[PatternEvent], parts: SoundParts) -> Vec<(f64, Cue)> {
    events
        .iter()
        .filter_map(|e| Cue::of(e, parts).map(|c| (e.time, c)))
        .collect()
}

/// A sound track of `length` samples at [`SAMPLE_RATE`]: every cue of `cues` (pattern time,
/// seconds) starts at sample `round((time − start) / speed × rate)`, the track showing
/// pattern time `start` at its first sample and running at `speed` (0.5: slow motion, the
/// track twice as long as the pattern time it covers). Overlapping cues add up; the sum is
/// clipped to [-1, 1].
pub fn mix(cues: &[(f64, Cue)], start: f64, speed: f64, length: usize) -> Vec<f32> {
    let mut track = vec![0.0f32; length];
    if !(speed.is_finite() && speed > 0.0 && start.is_finite()) {
        return track;
    }
    let mut bank: Vec<(Cue, Vec<f32>)> = Vec::new();
    for &(time, cue) in cues {
        let at = ((time - start) / speed * f64::from(SAMPLE_RATE)).round();
        if !(at >= 0.0 && at < length as f64) {
            continue;
        }
        let samples = match bank.iter().position(|(c, _)| *c == cue) {
            Some(i) => &bank[i].1,
            None => {
                bank.push((cue, cue.samples()));
                &bank[bank.len() - 1].1
            }
        };
        let at = at as usize;
        for (out, v) in track[at..].iter_mut().zip(samples) {
            *out += v;
        }
    }
    track.iter_mut().for_each(|v| *v = v.clamp(-1.0, 1.0));
    track
}

/// `samples` (mono, [-1, 1]) as a 16-bit PCM WAV file at [`SAMPLE_RATE`].
pub fn wav(samples: &[f32]) -> Vec<u8> {
    let data_bytes = (samples.len() * 2).min(u32::MAX as usize - 36) as u32;
    let mut out = Vec::with_capacity(44 + data_bytes as usize);
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + data_bytes).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes()); // PCM
    out.extend_from_slice(&1u16.to_le_bytes()); // mono
    out.extend_from_slice(&SAMPLE_RATE.to_le_bytes());
    out.extend_from_slice(&(SAMPLE_RATE * 2).to_le_bytes());
    out.extend_from_slice(&2u16.to_le_bytes());
    out.extend_from_slice(&16u16.to_le_bytes());
    out.extend_from_slice(b"data");
    out.extend_from_slice(&data_bytes.to_le_bytes());
    for v in samples.iter().take(data_bytes as usize / 2) {
        let s = (v.clamp(-1.0, 1.0) * 32767.0).round() as i16;
        out.extend_from_slice(&s.to_le_bytes());
    }
    out
}

#[cfg(test)]
mod tests;
