//! Plays the pattern's sounds as the animation passes their events: the cues of
//! `sound::cues_between` (synthesised by `sound`, no recordings), each when the clock passes
//! it, so slow motion keeps every catch on its catch. The window plays them through
//! macroquad's audio; the web page through its own Web Audio code (`web/juggler.js`: the page
//! makes its AudioContext when the user turns the sound on, as browsers require).

use crate::scene::PatternEvent;
use crate::sound::{cues_between, Cue, SoundParts};

/// Most sounds started in one frame (a fast pattern of many jugglers at 4x would otherwise
/// pile hundreds of clicks into one).
const MAX_CUES_PER_FRAME: usize = 12;

/// The sounds to start this frame: the cues of `events` (in time order) with `parts` on,
/// at most twelve, each cue once per frame.
pub fn frame_cues(events: &[PatternEvent], parts: SoundParts) -> Vec<Cue> {
    let mut cues: Vec<Cue> = Vec::new();
    for (_, cue) in cues_between(events, parts) {
        if cues.len() >= MAX_CUES_PER_FRAME {
            break;
        }
        if !cues.contains(&cue) {
            cues.push(cue);
        }
    }
    cues
}

/// Whether the window's sound output died (no sound card: macroquad's audio thread gives up
/// at start); then nothing is played, rather than a complaint printed per sound.
static OUTPUT_FAILED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// The sound output died (called by the window's panic hook for a panic off the main thread:
/// the audio thread's).
pub fn mark_output_failed() {
    OUTPUT_FAILED.store(true, std::sync::atomic::Ordering::Relaxed);
}

#[cfg(not(target_arch = "wasm32"))] // the page plays sounds with its own Web Audio code
fn output_failed() -> bool {
    OUTPUT_FAILED.load(std::sync::atomic::Ordering::Relaxed)
}

/// The front end's sound output, ready once [`Player::prepare`] has run.
#[derive(Default)]
pub struct Player {
    #[cfg(not(target_arch = "wasm32"))]
    sounds: Option<Vec<macroquad::audio::Sound>>,
    #[cfg(target_arch = "wasm32")]
    sent: bool,
}

impl Player {
    /// Makes the sounds (once, when the sound is first turned on).
    pub async fn prepare(&mut self) {
        #[cfg(not(target_arch = "wasm32"))]
        if self.sounds.is_none() && !output_failed() {
            let mut sounds = Vec::with_capacity(Cue::ALL.len());
            for cue in Cue::ALL {
                let wav = crate::sound::wav(&cue.samples());
                match macroquad::audio::load_sound_from_bytes(&wav).await {
                    Ok(sound) => sounds.push(sound),
                    // No sound device or format: stay silent.
                    Err(_) => return,
                }
            }
            self.sounds = Some(sounds);
        }
        #[cfg(target_arch = "wasm32")]
        if !self.sent {
            for cue in Cue::ALL {
                super::web::page::sound_bank(cue.index(), &cue.samples());
            }
            self.sent = true;
        }
    }

    /// Starts `cues` now.
    pub fn play(&mut self, cues: &[Cue]) {
        #[cfg(not(target_arch = "wasm32"))]
        if let Some(sounds) = self.sounds.as_ref().filter(|_| !output_failed()) {
            for cue in cues {
                if let Some(sound) = sounds.get(cue.index()) {
                    macroquad::audio::play_sound_once(sound);
                }
            }
        }
        #[cfg(target_arch = "wasm32")]
        if self.sent {
            for cue in cues {
                super::web::page::play_cue(cue.index());
            }
        }
    }
}

/// Keeps ALSA from writing its complaints to the terminal: the window opens its sound output
/// at start (macroquad's audio), and on a machine without a sound card (a server, Xvfb) ALSA
/// would print a dozen lines there while the window stays silent anyway.
#[cfg(all(target_os = "linux", not(target_arch = "wasm32")))]
pub fn quiet_sound_errors() {
    use std::os::raw::{c_char, c_int};
    /// ALSA's error handler is variadic; this one reads none of the variable arguments,
    /// which the Linux C calling conventions (x86-64, AArch64) allow.
    unsafe extern "C" fn ignore(
        _file: *const c_char,
        _line: c_int,
        _function: *const c_char,
        _err: c_int,
        _fmt: *const c_char,
    ) {
    }
    #[link(name = "asound")]
    extern "C" {
        fn snd_lib_error_set_handler(
            handler: Option<
                unsafe extern "C" fn(*const c_char, c_int, *const c_char, c_int, *const c_char),
            >,
        ) -> c_int;
    }
    // SAFETY: sets a process-wide handler that does nothing; called before any sound opens.
    unsafe {
        snd_lib_error_set_handler(Some(ignore));
    }
}

/// Nothing to keep quiet elsewhere.
#[cfg(not(all(target_os = "linux", not(target_arch = "wasm32"))))]
pub fn quiet_sound_errors() {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::PoseSource;
    use crate::scene::Scene;
    use crate::spec::PatternSpec;
    use crate::types::PropKind;

    #[test]
    fn a_frame_plays_each_cue_once_and_not_too_many() {
        let scene = Scene::new(&PatternSpec::from_notation("531")).unwrap();
        let loop_s = scene.loop_duration();
        let events = PoseSource::events_between(&scene, 0.0, loop_s);
        let catches = frame_cues(&events, SoundParts::CATCHES);
        assert_eq!(catches, vec![Cue::Catch(PropKind::Ball)]);
        let all = SoundParts::parse("all").unwrap();
        let cues = frame_cues(&events, all);
        assert!(cues.contains(&Cue::Throw) && cues.contains(&Cue::Beat { accent: true }));
        assert!(cues.len() <= MAX_CUES_PER_FRAME);
        assert!(frame_cues(&events, SoundParts::parse("throws").unwrap()) == vec![Cue::Throw]);
    }
}
