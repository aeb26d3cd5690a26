//! Juggling Lab's get-in and get-out throws between the ground state and a start state.

use super::plan::Plan;

/// The throws from the ground state into `start` and from `start` back, as text.
pub(crate) fn get_in_and_out(plan: &Plan, start: &[u8]) -> (String, String) {
    let (height, ground_beats) = (plan.height, plan.ground_beats);
    let ground = &plan.ground;
    let get_in = transition(plan, ground, ground_beats, start, height);
    let get_out = transition(plan, start, height, ground, ground_beats);
    (get_in, get_out)
}

/// The shortest throws from state `from` (`from_beats` long) to `to` (`to_beats` long): wait
/// the fewest whole rhythms until `from`'s remaining props fit under `to`, then throw the
/// props landing in the meantime, place by place and slot by slot, to the lowest free places
/// of `to`.
fn transition(plan: &Plan, from: &[u8], from_beats: usize, to: &[u8], to_beats: usize) -> String {
    let (places, multiplex) = (plan.places, plan.multiplex);
    let mut beats = 0;
    let mut free = vec![0u8; to_beats * places];
    'wait: loop {
        for place in 0..places {
            for k in 0..to_beats {
                let still = if k + beats < from_beats {
                    from[(k + beats) * places + place]
                } else {
                    0
                };
                let index = k * places + place;
                if still > to[index] {
                    beats += plan.rhythm;
                    continue 'wait;
                }
                free[index] = to[index] - still;
            }
        }
        break;
    }
    let mut out = String::new();
    for beat in 0..beats {
        let mut values = vec![0u16; places * multiplex];
        let mut targets: Vec<u8> = (0..places * multiplex)
            .map(|x| (x / multiplex) as u8)
            .collect();
        if beat < from_beats {
            for place in 0..places {
                for slot in 0..usize::from(from[beat * places + place]) {
                    if let Some(index) = free.iter().position(|&n| n > 0) {
                        free[index] -= 1;
                        values[place * multiplex + slot] = (index / places + beats - beat) as u16;
                        targets[place * multiplex + slot] = (index % places) as u8;
                    }
                }
            }
        }
        plan.writer.write_beat(beat, &values, &targets, &mut out);
    }
    out
}
