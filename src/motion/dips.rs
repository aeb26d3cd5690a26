//! Hands stepping off their paths where a prop would pass through their arms (a club's last
//! turn sweeping its body through the forearm waiting for it, a club falling past a crossed
//! arm; planned by the scene, `scene/catch_dips.rs`).

use std::f64::consts::PI;

use glam::DVec3;

/// One step of a hand off its path: none before `start`, easing (a raised cosine) to
/// `offset` (juggler-local metres: x toward the juggler's left, y up, z forward) by
/// `low_from`, that far until `low_to`, easing back to none at `end` (seconds, `start ≤
/// low_from ≤ low_to ≤ end`, times of a loop of the period the dips of a hand are planned
/// over; `end` may pass it). None at the ends and no speed there: the hand's throws and
/// catches are untouched.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct HandDip {
    pub(crate) start: f64,
    pub(crate) low_from: f64,
    pub(crate) low_to: f64,
    pub(crate) end: f64,
    pub(crate) offset: DVec3,
}

impl HandDip {
    /// The share of its offset the dip takes the hand at `s` seconds after `start`, and the
    /// rate of that share (per second).
    pub(crate) fn share_at(&self, s: f64) -> (f64, f64) {
        let (rise, hold, fall) = (
            self.low_from - self.start,
            self.low_to - self.low_from,
            self.end - self.low_to,
        );
        if !(s >= 0.0 && s < rise + hold + fall && self.offset.is_finite()) {
            return (0.0, 0.0);
        }
        // A raised cosine from 0 to 1 over `span`, at `u` seconds in, and its rate.
        let ease = |u: f64, span: f64| {
            if span <= 0.0 {
                (1.0, 0.0)
            } else {
                let a = PI * (u / span).clamp(0.0, 1.0);
                (0.5 - 0.5 * a.cos(), 0.5 * PI / span * a.sin())
            }
        };
        let (share, rate) = if s < rise {
            ease(s, rise)
        } else if s < rise + hold {
            (1.0, 0.0)
        } else {
            let (e, r) = ease(s - rise - hold, fall);
            (1.0 - e, -r)
        };
        (share, rate)
    }
}

impl HandDip {
    /// The dip with its start moved into `[0, period)`.
    pub(crate) fn shifted(self, period: f64) -> HandDip {
        let start = self.start.rem_euclid(period);
        let by = start - self.start;
        HandDip {
            start,
            low_from: self.low_from + by,
            low_to: self.low_to + by,
            end: self.end + by,
            offset: self.offset,
        }
    }
}

/// The dips of one hand (not overlapping, sorted by `start` in `[0, period)`): how far off
/// its path they take it at `t` (any real number; periodic; juggler-local) and the rate of
/// that.
pub(crate) fn dip_at(dips: &[HandDip], period: f64, t: f64) -> (DVec3, DVec3) {
    if dips.is_empty() || !(period.is_finite() && period > 0.0) || !t.is_finite() {
        return (DVec3::ZERO, DVec3::ZERO);
    }
    let s = t.rem_euclid(period);
    // The last dip starting at or before `s`, else the last one (it may wrap past the end).
    let k = dips.partition_point(|d| d.start <= s);
    let dip = &dips[if k == 0 { dips.len() - 1 } else { k - 1 }];
    let (share, rate) = dip.share_at((s - dip.start).rem_euclid(period));
    (dip.offset * share, dip.offset * rate)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dip_eases_down_and_up_and_is_none_outside() {
        let dip = HandDip {
            start: 0.1,
            low_from: 0.2,
            low_to: 0.3,
            end: 0.5,
            offset: DVec3::new(0.0, -0.06, 0.0),
        };
        let dips = [dip];
        let at = |t| {
            let (d, r) = dip_at(&dips, 1.0, t);
            (-d.y, -r.y)
        };
        assert_eq!(at(0.05), (0.0, 0.0));
        assert_eq!(at(0.6), (0.0, 0.0));
        // Half-way down at the middle of the easing, at its steepest: π/2 · 6 cm / 0.1 s.
        let (d, r) = at(0.15);
        assert!((d - 0.03).abs() < 1e-9 && (r - 0.5 * PI * 0.06 / 0.1).abs() < 1e-9);
        assert_eq!(at(0.25), (0.06, 0.0));
        let (d, r) = at(0.4);
        assert!((d - 0.03).abs() < 1e-9 && (r + 0.5 * PI * 0.06 / 0.2).abs() < 1e-9);
        // Periodic, and one wrapping past the end of the period still applies after 0.
        assert_eq!(at(1.25), (0.06, 0.0));
        let wrap = [HandDip {
            start: 0.9,
            low_from: 1.0,
            low_to: 1.05,
            end: 1.2,
            offset: DVec3::new(0.04, 0.0, 0.0),
        }];
        assert_eq!(dip_at(&wrap, 1.0, 0.02).0, DVec3::new(0.04, 0.0, 0.0));
        assert_eq!(dip_at(&wrap, 1.0, 0.3).0, DVec3::ZERO);
        // Continuous where the easing meets the hold and the ends.
        for t in [0.1, 0.2, 0.3, 0.5] {
            let (a, b) = (at(t - 1e-7).0, at(t + 1e-7).0);
            assert!((a - b).abs() < 1e-6, "{t}: {a} {b}");
        }
    }
}
