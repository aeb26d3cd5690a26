use super::*;
use crate::scene::Scene;
use crate::spec::PatternSpec;

/// Zero crossings per second: a rough pitch, enough to tell the cues apart.
fn crossings_per_second(s: &[f32]) -> f64 {
    let n = s
        .windows(2)
        .filter(|w| (w[0] < 0.0) != (w[1] < 0.0))
        .count();
    n as f64 * f64::from(SAMPLE_RATE) / s.len() as f64
}

fn peak(s: &[f32]) -> f32 {
    s.iter().fold(0.0f32, |m, v| m.max(v.abs()))
}

#[test]
fn every_cue_starts_loud_within_three_milliseconds_and_dies_away() {
    let ms = |n: f64| (n * f64::from(SAMPLE_RATE) / 1000.0) as usize;
    for cue in Cue::ALL {
        let s = cue.samples();
        let p = peak(&s);
        assert!(p > 0.2 && p <= 0.65 + 1e-6, "{cue:?}: peak {p}");
        assert!(s.len() <= ms(250.0), "{cue:?}: {} samples", s.len());
        if cue != Cue::Throw {
            // Half the peak is reached within 3 ms: the sound is heard at its event.
            assert!(peak(&s[..ms(3.0)]) > 0.5 * p, "{cue:?}: slow attack");
        }
        // The last 5 ms are quiet (no click at the end).
        assert!(
            peak(&s[s.len() - ms(5.0)..]) < 0.05 * p,
            "{cue:?}: loud end"
        );
        assert!(s.iter().all(|v| v.is_finite()));
    }
}

#[test]
fn ball_club_and_ring_sound_different_and_rise_in_pitch() {
    let pitch = |k| crossings_per_second(&Cue::Catch(k).samples()[..2400]);
    let (ball, club, ring) = (
        pitch(PropKind::Ball),
        pitch(PropKind::Club),
        pitch(PropKind::Ring),
    );
    assert!(ball < club && club < ring, "{ball} {club} {ring}");
    assert!(
        ring > 1.5 * club && club > 1.5 * ball,
        "{ball} {club} {ring}"
    );
    assert_ne!(Cue::Bounce.samples(), Cue::Catch(PropKind::Ball).samples());
    for (i, cue) in Cue::ALL.iter().enumerate() {
        assert_eq!(cue.index(), i);
    }
}

#[test]
fn sound_parts_read_and_write_their_names() {
    assert_eq!(SoundParts::parse(""), Ok(SoundParts::CATCHES));
    assert_eq!(SoundParts::parse("catches"), Ok(SoundParts::CATCHES));
    let all = SoundParts::parse("all").unwrap();
    assert!(all.catches && all.throws && all.beats);
    let p = SoundParts::parse(" Beats , throws").unwrap();
    assert_eq!((p.catches, p.throws, p.beats), (false, true, true));
    assert_eq!(p.names(), "throws,beats");
    assert_eq!(SoundParts::parse(&p.names()), Ok(p));
    let e = SoundParts::parse("catches,clicks").unwrap_err();
    assert!(e.contains("unknown sound 'clicks'"), "{e}");
    assert!(!SoundParts::CATCHES.is_silent());
}

#[test]
fn a_cue_is_mixed_in_at_its_sample_and_slow_motion_spreads_them() {
    let ball = Cue::Catch(PropKind::Ball);
    let cues = [(1.0, ball), (1.5, ball), (9.0, ball), (0.2, ball)];
    let rate = f64::from(SAMPLE_RATE);
    // A cue's first sample is silent (its attack starts from zero): it starts one before the
    // first sound.
    let first_sound = |track: &[f32], from: usize| {
        from + track[from..].iter().position(|v| v.abs() > 1e-6).unwrap() - 1
    };
    // From pattern time 0.5 at normal speed: the catch at 1.0 s is at sample 24000; the one
    // at 0.2 s (before the start) and at 9 s (after the end) are left out.
    let track = mix(&cues, 0.5, 1.0, (2.0 * rate) as usize);
    assert_eq!(first_sound(&track, 0), 24_000);
    assert_eq!(first_sound(&track, 30_000), 48_000);
    // At half speed the same catches are 1 s and 2 s into the track.
    let slow = mix(&cues, 0.5, 0.5, (3.0 * rate) as usize);
    assert_eq!(first_sound(&slow, 0), 48_000);
    assert_eq!(first_sound(&slow, 60_000), 96_000);
    assert!(slow.iter().all(|v| v.abs() <= 1.0));
    // Nothing for a bad speed.
    assert!(mix(&cues, 0.0, f64::NAN, 100).iter().all(|v| *v == 0.0));
}

#[test]
fn a_wav_file_holds_16_bit_mono_samples_at_48_khz() {
    let bytes = wav(&[0.0, 1.0, -1.0, 0.5]);
    assert_eq!(&bytes[..4], b"RIFF");
    assert_eq!(u32::from_le_bytes(bytes[4..8].try_into().unwrap()), 36 + 8);
    assert_eq!(&bytes[8..16], b"WAVEfmt ");
    assert_eq!(u16::from_le_bytes([bytes[22], bytes[23]]), 1);
    assert_eq!(
        u32::from_le_bytes(bytes[24..28].try_into().unwrap()),
        48_000
    );
    assert_eq!(&bytes[36..40], b"data");
    let samples: Vec<i16> = bytes[44..]
        .chunks(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]))
        .collect();
    assert_eq!(samples, vec![0, 32767, -32767, 16384]);
}

#[test]
fn the_cues_of_a_pattern_are_its_catches_and_with_all_parts_its_throws_and_beats() {
    let scene = Scene::new(&PatternSpec::from_notation("531")).unwrap();
    let loop_s = scene.loop_duration();
    let events = scene.events_between(0.0, loop_s);
    let catches = cues_between(&events, SoundParts::CATCHES);
    let throws = events.iter().filter(|e| e.kind == EventKind::Throw).count();
    assert_eq!(catches.len(), throws);
    assert!(catches
        .iter()
        .all(|(_, c)| *c == Cue::Catch(PropKind::Ball)));
    let mut with_beats = events.clone();
    with_beats.extend(scene.beats_between(0.0, loop_s));
    let all = cues_between(&with_beats, SoundParts::parse("all").unwrap());
    let beats = (loop_s * scene.timing().bps).round() as usize;
    assert_eq!(all.len(), 2 * throws + beats);
    // The accent falls on every third beat of 531.
    let accents = all
        .iter()
        .filter(|(_, c)| *c == Cue::Beat { accent: true })
        .count();
    assert_eq!(accents, beats / 3);
}
