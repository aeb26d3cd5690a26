//! Periodic piecewise-cubic (Hermite) curves through knots, with the free knot velocities
//! chosen to minimise the integral of squared acceleration (Juggling Lab's `MINIMIZE_RMSACCEL`).
//!
//! Each knot fixes a position and constrains its velocity: fixed (a throw matches the prop's
//! launch velocity), along a direction with free speed (a catch moves with the incoming prop),
//! or free (a waypoint). Position and velocity are continuous everywhere; at free knots the
//! optimum also makes acceleration continuous.

use glam::DVec3;

/// Least speed of a catching hand along the incoming prop, as a fraction of the prop's speed
/// (`KnotVelocity::Along::max_speed`): the hand meets the prop moving with it and absorbs it
/// over a distance instead of stopping it dead.
pub const CATCH_MIN_SPEED_FRACTION: f64 = 0.45;
/// The least catch speed above never exceeds this (m/s): very high throws arrive at up to
/// 20 m/s, and a hand matching 45 % of that would be dragged toward the floor.
pub const CATCH_MIN_SPEED_CAP: f64 = 4.0;

/// What a knot says about the curve's velocity there.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum KnotVelocity {
    /// Exactly this velocity.
    Fixed(DVec3),
    /// `speed × direction` with the speed chosen in `[min, max_speed]`, `min` being
    /// `CATCH_MIN_SPEED_FRACTION × max_speed` capped at `CATCH_MIN_SPEED_CAP` (a catch).
    Along { direction: DVec3, max_speed: f64 },
    /// Any velocity.
    Free,
    /// A vertical velocity of `vertical` (m/s, up positive) and any horizontal one: a catch
    /// swept through on the way to a throw soon after, the hand sinking with the prop while
    /// it moves across, or such a throw, the hand rising into it.
    Sweep { vertical: f64 },
}

/// A knot to fit: time (seconds), position, velocity constraint.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Knot {
    pub(crate) time: f64,
    pub(crate) position: DVec3,
    pub(crate) velocity: KnotVelocity,
}

/// A closed curve of period `period` seconds through knots at increasing times.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PeriodicSpline {
    times: Vec<f64>,
    positions: Vec<DVec3>,
    velocities: Vec<DVec3>,
    period: f64,
}

impl PeriodicSpline {
    /// Fit a curve through `knots` (at least one; times strictly increasing and spanning less
    /// than `period`).
    pub(crate) fn fit(knots: &[Knot], period: f64) -> PeriodicSpline {
        let mut constraints: Vec<KnotVelocity> =
            knots.iter().map(|k| normalise(k.velocity)).collect();
        let times: Vec<f64> = knots.iter().map(|k| k.time).collect();
        let positions: Vec<DVec3> = knots.iter().map(|k| k.position).collect();
        // Solve; whenever a catch speed leaves its range, pin it at the bound and solve again.
        let velocities = loop {
            let velocities = solve(&times, &positions, &constraints, period);
            let mut changed = false;
            for (c, v) in constraints.iter_mut().zip(&velocities) {
                if let KnotVelocity::Along {
                    direction,
                    max_speed,
                } = *c
                {
                    let speed = v.dot(direction);
                    let min_speed = (CATCH_MIN_SPEED_FRACTION * max_speed).min(CATCH_MIN_SPEED_CAP);
                    if !(min_speed..=max_speed).contains(&speed) {
                        *c = KnotVelocity::Fixed(direction * speed.clamp(min_speed, max_speed));
                        changed = true;
                    }
                }
            }
            if !changed {
                break velocities;
            }
        };
        PeriodicSpline {
            times,
            positions,
            velocities,
            period,
        }
    }

    /// A curve resting at one point.
    pub(crate) fn constant(position: DVec3) -> PeriodicSpline {
        PeriodicSpline {
            times: vec![0.0],
            positions: vec![position],
            velocities: vec![DVec3::ZERO],
            period: 1.0,
        }
    }

    /// The largest acceleration (m/s²) of each segment (knot `i` to knot `i + 1`, the last one
    /// wrapping to knot 0): a cubic's acceleration is linear in time, so it is the larger of
    /// its two ends.
    pub(crate) fn segment_peaks(&self) -> Vec<f64> {
        let n = self.times.len();
        (0..n)
            .map(|i| {
                let j = (i + 1) % n;
                let d = if j == 0 {
                    self.times[0] + self.period - self.times[i]
                } else {
                    self.times[j] - self.times[i]
                }
                .max(1e-12);
                let (p0, p1, v0, v1) = (
                    self.positions[i],
                    self.positions[j],
                    self.velocities[i],
                    self.velocities[j],
                );
                let slope = (p1 - p0) / d;
                let start = (slope * 6.0 - v0 * 4.0 - v1 * 2.0) / d;
                let end = (slope * -6.0 + v0 * 2.0 + v1 * 4.0) / d;
                start.length().max(end.length())
            })
            .collect()
    }

    /// Position and velocity at time `t` (any real number; the curve repeats every period).
    pub(crate) fn eval(&self, t: f64) -> (DVec3, DVec3) {
        let n = self.times.len();
        if n == 1 && self.velocities[0] == DVec3::ZERO {
            return (self.positions[0], DVec3::ZERO);
        }
        let t0 = self.times[0];
        let local = t0 + (t - t0).rem_euclid(self.period);
        let i = self.times.partition_point(|&k| k <= local).max(1) - 1;
        let j = (i + 1) % n;
        let end = if j == 0 {
            t0 + self.period
        } else {
            self.times[j]
        };
        hermite(
            self.positions[i],
            self.velocities[i],
            self.positions[j],
            self.velocities[j],
            end - self.times[i],
            local - self.times[i],
        )
    }
}

fn normalise(v: KnotVelocity) -> KnotVelocity {
    match v {
        KnotVelocity::Along {
            direction,
            max_speed,
        } => {
            let len = direction.length();
            if len > 1e-9 && len.is_finite() {
                KnotVelocity::Along {
                    direction: direction / len,
                    max_speed: max_speed.max(0.0),
                }
            } else {
                KnotVelocity::Free
            }
        }
        other => other,
    }
}

/// Cubic Hermite segment of duration `d` evaluated `s` seconds after its start.
fn hermite(p0: DVec3, v0: DVec3, p1: DVec3, v1: DVec3, d: f64, s: f64) -> (DVec3, DVec3) {
    let d = d.max(1e-12);
    let u = (s / d).clamp(0.0, 1.0);
    let (u2, u3) = (u * u, u * u * u);
    let h00 = 2.0 * u3 - 3.0 * u2 + 1.0;
    let h10 = u3 - 2.0 * u2 + u;
    let h01 = -2.0 * u3 + 3.0 * u2;
    let h11 = u3 - u2;
    let pos = p0 * h00 + v0 * (d * h10) + p1 * h01 + v1 * (d * h11);
    let dh00 = 6.0 * u2 - 6.0 * u;
    let dh10 = 3.0 * u2 - 4.0 * u + 1.0;
    let dh01 = -6.0 * u2 + 6.0 * u;
    let dh11 = 3.0 * u2 - 2.0 * u;
    let vel = (p0 * dh00 + p1 * dh01) / d + v0 * dh10 + v1 * dh11;
    (pos, vel)
}

/// Velocities at every knot minimising Σ ∫|a|² under the constraints. The problem splits at
/// fixed knots into independent chains; a curve with no fixed knot is one cyclic chain.
fn solve(
    times: &[f64],
    positions: &[DVec3],
    constraints: &[KnotVelocity],
    period: f64,
) -> Vec<DVec3> {
    let n = times.len();
    let mut velocities: Vec<DVec3> = constraints
        .iter()
        .map(|c| match c {
            KnotVelocity::Fixed(v) => *v,
            KnotVelocity::Sweep { vertical } => DVec3::Y * *vertical,
            _ => DVec3::ZERO,
        })
        .collect();
    let fixed: Vec<usize> = (0..n)
        .filter(|&i| matches!(constraints[i], KnotVelocity::Fixed(_)))
        .collect();
    let chains: Vec<Vec<usize>> = if fixed.is_empty() {
        // One cyclic chain over all knots: knot 0 appears at both ends.
        vec![(0..=n).map(|i| i % n).collect()]
    } else {
        fixed
            .iter()
            .enumerate()
            .map(|(k, &a)| {
                let b = fixed[(k + 1) % fixed.len()];
                let mut chain = vec![a];
                let mut i = (a + 1) % n;
                while i != b {
                    chain.push(i);
                    i = (i + 1) % n;
                }
                chain.push(b);
                chain
            })
            .collect()
    };
    for chain in chains {
        solve_chain(
            &chain,
            times,
            positions,
            constraints,
            period,
            &mut velocities,
        );
    }
    velocities
}

/// Solve one chain of knots (`chain[0]` and `chain[last]` fixed, or the same knot for a
/// cyclic chain) by assembling the normal equations of the free parameters.
fn solve_chain(
    chain: &[usize],
    times: &[f64],
    positions: &[DVec3],
    constraints: &[KnotVelocity],
    period: f64,
    velocities: &mut [DVec3],
) {
    let cyclic =
        chain.first() == chain.last() && !matches!(constraints[chain[0]], KnotVelocity::Fixed(_));
    // Unknown blocks: chain positions 1..last (and 0 for a cyclic chain, shared with last).
    let slots: Vec<usize> = if cyclic {
        (0..chain.len() - 1).collect()
    } else {
        (1..chain.len() - 1).collect()
    };
    if slots.is_empty() {
        return;
    }
    // Offsets of each slot's parameters; basis vectors of its velocity.
    let mut offset = vec![usize::MAX; chain.len()];
    let mut bases: Vec<Vec<DVec3>> = vec![Vec::new(); chain.len()];
    let mut m = 0;
    for &s in &slots {
        offset[s] = m;
        bases[s] = match constraints[chain[s]] {
            KnotVelocity::Along { direction, .. } => vec![direction],
            KnotVelocity::Free => vec![DVec3::X, DVec3::Y, DVec3::Z],
            KnotVelocity::Sweep { .. } => vec![DVec3::X, DVec3::Z],
            KnotVelocity::Fixed(_) => Vec::new(),
        };
        m += bases[s].len();
    }
    if cyclic {
        let last = chain.len() - 1;
        offset[last] = offset[0];
        bases[last] = bases[0].clone();
    }
    let mut h = vec![vec![0.0; m]; m];
    let mut rhs = vec![0.0; m];
    // Gradient of a segment's cost wrt its end velocities (vi, vj):
    //   ∂/∂vi = (8 vi + 4 vj)/T − 12Δ/T²,  ∂/∂vj = (4 vi + 8 vj)/T − 12Δ/T².
    for k in 0..chain.len() - 1 {
        let (i, j) = (chain[k], chain[k + 1]);
        let mut d = times[j] - times[i];
        if d <= 0.0 {
            d += period;
        }
        let d = d.max(1e-9);
        let delta = positions[j] - positions[i];
        let ends = [(k, [8.0 / d, 4.0 / d]), (k + 1, [4.0 / d, 8.0 / d])];
        for (row_slot, coef) in ends {
            for (ra, ba) in bases[row_slot].iter().enumerate() {
                let r = offset[row_slot] + ra;
                let mut known = -12.0 * delta.dot(*ba) / (d * d);
                for (col_slot, c) in [(k, coef[0]), (k + 1, coef[1])] {
                    // The given part of the velocity (all of a fixed knot's, a sweep's
                    // vertical; zero for the others).
                    known += c * velocities[chain[col_slot]].dot(*ba);
                    for (cb, bb) in bases[col_slot].iter().enumerate() {
                        h[r][offset[col_slot] + cb] += c * ba.dot(*bb);
                    }
                }
                rhs[r] -= known;
            }
        }
    }
    if let Some(x) = gauss_solve(h, rhs) {
        for &s in &slots {
            let v = bases[s]
                .iter()
                .enumerate()
                .fold(velocities[chain[s]], |acc, (b, basis)| {
                    acc + *basis * x[offset[s] + b]
                });
            velocities[chain[s]] = v;
        }
    }
}

/// Solve `a x = b` by Gaussian elimination with partial pivoting; `None` if singular.
fn gauss_solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 || !a[pivot][col].is_finite() {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        let (top, bottom) = a.split_at_mut(col + 1);
        let pivot_row = &top[col];
        for (k, row) in bottom.iter_mut().enumerate() {
            let f = row[col] / pivot_row[col];
            if f != 0.0 {
                for (x, p) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                    *x -= f * p;
                }
                b[col + 1 + k] -= f * b[col];
            }
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let s: f64 = (row + 1..n).map(|c| a[row][c] * x[c]).sum();
        x[row] = (b[row] - s) / a[row][row];
    }
    x.iter().all(|v| v.is_finite()).then_some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn knot(time: f64, position: DVec3, velocity: KnotVelocity) -> Knot {
        Knot {
            time,
            position,
            velocity,
        }
    }

    #[test]
    fn passes_through_knots_with_fixed_velocities() {
        let knots = [
            knot(
                0.0,
                DVec3::new(0.0, 1.0, 0.0),
                KnotVelocity::Fixed(DVec3::new(1.0, 2.0, 0.0)),
            ),
            knot(0.4, DVec3::new(0.3, 1.0, 0.0), KnotVelocity::Free),
        ];
        let s = PeriodicSpline::fit(&knots, 1.0);
        let (p, v) = s.eval(0.0);
        assert!((p - knots[0].position).length() < 1e-12);
        assert!((v - DVec3::new(1.0, 2.0, 0.0)).length() < 1e-12);
        assert!((s.eval(0.4).0 - knots[1].position).length() < 1e-12);
        // Periodic, including negative times.
        assert!((s.eval(-0.75).0 - s.eval(0.25).0).length() < 1e-12);
        assert!((s.eval(3.25).1 - s.eval(0.25).1).length() < 1e-9);
    }

    #[test]
    fn free_knot_makes_acceleration_continuous() {
        // Fixed at 0, free at 0.5, period 1: by symmetry of a straight segment the optimum of
        // p(0)=0, v(0)=0 and p(0.5)=1 is found numerically; check C² at the free knot.
        let knots = [
            knot(0.0, DVec3::ZERO, KnotVelocity::Fixed(DVec3::ZERO)),
            knot(0.3, DVec3::X, KnotVelocity::Free),
            knot(0.6, DVec3::new(0.5, 0.2, 0.0), KnotVelocity::Free),
        ];
        let s = PeriodicSpline::fit(&knots, 1.0);
        for t in [0.3, 0.6] {
            let e = 1e-5;
            let a_before = (s.eval(t - e).1 - s.eval(t - 2.0 * e).1) / e;
            let a_after = (s.eval(t + 2.0 * e).1 - s.eval(t + e).1) / e;
            assert!((a_before - a_after).length() < 1e-2 * a_before.length().max(1.0));
        }
    }

    #[test]
    fn optimum_beats_nearby_velocities() {
        let knots = vec![
            knot(
                0.0,
                DVec3::ZERO,
                KnotVelocity::Fixed(DVec3::new(0.0, 3.0, 0.0)),
            ),
            knot(
                0.25,
                DVec3::new(0.3, 0.0, 0.0),
                KnotVelocity::Along {
                    direction: DVec3::new(0.5, -1.0, 0.0),
                    // The optimum (about 1.7 m/s) lies inside the catch speed range 1.08..2.4 m/s.
                    max_speed: 2.4,
                },
            ),
        ];
        let cost = |s: &PeriodicSpline| {
            let n = 4000;
            (0..n)
                .map(|k| {
                    let t = k as f64 / n as f64;
                    let e = 1e-4;
                    let a = (s.eval(t + e).1 - s.eval(t - e).1) / (2.0 * e);
                    a.length_squared() / n as f64
                })
                .sum::<f64>()
        };
        let best = PeriodicSpline::fit(&knots, 0.7);
        let c0 = cost(&best);
        let speed = best.velocities[1].length();
        for delta in [-0.3, 0.3] {
            let mut k2 = knots.clone();
            let dir = DVec3::new(0.5, -1.0, 0.0).normalize();
            k2[1].velocity = KnotVelocity::Fixed(dir * (speed + delta));
            assert!(cost(&PeriodicSpline::fit(&k2, 0.7)) > c0);
        }
    }

    #[test]
    fn catch_speed_stays_within_bounds() {
        let knots = [
            knot(
                0.0,
                DVec3::ZERO,
                KnotVelocity::Fixed(DVec3::new(0.0, 5.0, 0.0)),
            ),
            // The direction points against the natural motion: speed clamps to 0.
            knot(
                0.2,
                DVec3::new(0.0, -0.5, 0.0),
                KnotVelocity::Along {
                    direction: DVec3::Y,
                    max_speed: 2.0,
                },
            ),
        ];
        let s = PeriodicSpline::fit(&knots, 0.6);
        let v = s.eval(0.2).1;
        assert!(v.y >= -1e-12 && v.y <= 2.0 + 1e-12, "{v}");
    }

    #[test]
    fn a_sweep_keeps_its_vertical_speed_and_chooses_the_rest() {
        // Knots at rest 0.5 s either side of a sweep 1 m along x from each: the least-effort
        // speed through the middle is 3 Δ / (2 T) = 3 m/s along x; the vertical is as given.
        let knots = [
            knot(0.0, DVec3::ZERO, KnotVelocity::Fixed(DVec3::ZERO)),
            knot(0.5, DVec3::X, KnotVelocity::Sweep { vertical: -1.0 }),
            knot(1.0, DVec3::X * 2.0, KnotVelocity::Fixed(DVec3::ZERO)),
        ];
        let s = PeriodicSpline::fit(&knots, 2.0);
        let (p, v) = s.eval(0.5);
        assert!((p - DVec3::X).length() < 1e-12);
        assert!((v - DVec3::new(3.0, -1.0, 0.0)).length() < 1e-9, "{v}");
    }

    #[test]
    fn cyclic_chain_without_fixed_knots() {
        let knots = [
            knot(0.0, DVec3::ZERO, KnotVelocity::Free),
            knot(0.5, DVec3::X, KnotVelocity::Free),
        ];
        let s = PeriodicSpline::fit(&knots, 1.0);
        let (p, _) = s.eval(0.5);
        assert!((p - DVec3::X).length() < 1e-12);
        // Symmetric back-and-forth: zero velocity at the turning points.
        assert!(s.eval(0.0).1.length() < 1e-9);
        assert!(s.eval(0.25).1.x > 0.0);
    }
}
