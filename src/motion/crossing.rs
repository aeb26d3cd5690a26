//! Hands whose events meet: where a pattern puts one hand's catch or throw almost on top of the
//! other hand (Juggling Lab's Rubenstein's Revenge hands, written all at depth 0, bring the
//! hands within 0.5 cm while one holds a ball), the events are parted in depth before anything
//! is built from them, so the flights still start and end exactly at the hand. The hand further
//! across the body (the one crossing over) comes forward, the other goes back; sideways and
//! vertical places stay as written. The hand paths between events are parted by
//! `hand_path::separate_hands`.

use glam::DVec3;

use super::choreography::Choreography;
use super::hand_path::HANDS_APART;

/// Event points of one hand closer than this (centres, metres) to the other hand at that time
/// are parted to `HANDS_APART`.
const EVENT_TRIGGER: f64 = 0.09;

/// The position of a hand (`times` sorted in `[0, period)`, `points` juggler-local) at `t`, on
/// the straight lines between its events (periodic).
fn between(times: &[f64], points: &[DVec3], period: f64, t: f64) -> Option<DVec3> {
    let n = times.len();
    if n == 0 {
        return None;
    }
    if n == 1 {
        return Some(points[0]);
    }
    let t = t.rem_euclid(period);
    let next = times.partition_point(|&e| e <= t);
    let (a, b) = ((next + n - 1) % n, next % n);
    let span = (times[b] - times[a]).rem_euclid(period);
    let since = (t - times[a]).rem_euclid(period);
    let f = if span > 1e-9 { since / span } else { 0.0 };
    Some(points[a].lerp(points[b], f.clamp(0.0, 1.0)))
}

/// The depth offset of a hand event at `p` when its juggler's other hand is at `q` (`left`:
/// `p` is the left hand's; juggler-local, metres): none unless they are closer than
/// `EVENT_TRIGGER`, else half the depth that puts them `HANDS_APART` apart (the other hand's
/// events take the other half).
fn offset(p: DVec3, q: DVec3, left: bool) -> DVec3 {
    let d = p - q;
    if d.length() >= EVENT_TRIGGER {
        return DVec3::ZERO;
    }
    let flat = DVec3::new(d.x, d.y, 0.0);
    let depth = (HANDS_APART * HANDS_APART - flat.length_squared())
        .max(0.0)
        .sqrt();
    let need = (depth - d.z.abs()).max(0.0);
    // Across the body: the left hand's own side is +x.
    let (across_p, across_q) = if left { (-p.x, q.x) } else { (p.x, -q.x) };
    let front = if d.z.abs() > 0.01 {
        d.z > 0.0
    } else {
        across_p > across_q || (across_p == across_q && !left)
    };
    DVec3::Z * (0.5 * need * if front { 1.0 } else { -1.0 })
}

impl Choreography {
    /// Parts the events of a juggler's two hands that meet (see the module doc). A second call
    /// changes nothing.
    pub fn part_meeting_hands(&mut self) {
        let period = self.hand_period;
        if !(period.is_finite() && period > 0.0) {
            return;
        }
        for j in 0..self.hands.len() / 2 {
            let slots = [2 * j, 2 * j + 1];
            let times = slots.map(|s| self.hands[s].iter().map(|e| e.time).collect::<Vec<_>>());
            let points =
                slots.map(|s| self.hands[s].iter().map(|e| e.position).collect::<Vec<_>>());
            for (side, &slot) in slots.iter().enumerate() {
                for e in &mut self.hands[slot] {
                    let Some(q) = between(&times[1 - side], &points[1 - side], period, e.time)
                    else {
                        continue;
                    };
                    let d = offset(e.position, q, side == 0);
                    if d.is_finite() {
                        e.position += d;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meeting_events_part_in_depth_and_others_stay() {
        // The right hand (own side −x) 2 cm across the left one, both at depth 0.3.
        let l = DVec3::new(-0.01, 1.0, 0.3);
        let r = DVec3::new(0.01, 1.0, 0.3);
        let (dl, dr) = (offset(l, r, true), offset(r, l, false));
        // Equally far across: the right one in front; 11.8 cm apart in depth in all.
        let depth = (HANDS_APART * HANDS_APART - 0.02 * 0.02).sqrt();
        assert!((dr.z - 0.5 * depth).abs() < 1e-9 && (dl.z + 0.5 * depth).abs() < 1e-9);
        assert!(((l + dl).distance(r + dr) - HANDS_APART).abs() < 1e-9);
        // Once apart, nothing more; hands 9 cm apart or more stay.
        assert_eq!(offset(l + dl, r + dr, true), DVec3::ZERO);
        let far = DVec3::new(-0.08, 1.0, 0.3);
        assert_eq!(offset(far, r, true), DVec3::ZERO);
        // The left hand further across comes forward.
        let across = DVec3::new(-0.05, 1.0, 0.3);
        assert!(offset(across, r, true).z > 0.0 && offset(r, across, false).z < 0.0);
    }
}
