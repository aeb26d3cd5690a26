//! Prop flights: exact parabolas under gravity, and bounces off the floor (y = 0) or a
//! surface at another height.

use glam::DVec3;

/// Height of a bouncing prop's centre when it touches the floor: the radius of the standard
/// 10 cm ball, so the ball's surface meets the floor instead of sinking half into it
/// (Juggling Lab bounces the centre at the floor, which it does not draw).
pub(crate) const BOUNCE_CONTACT_Y: f64 = 0.05;

/// Fraction of energy a prop keeps at each bounce (Juggling Lab's `bouncefrac`).
pub(crate) const BOUNCE_ENERGY: f64 = 0.9;

/// How a bounce is thrown and caught.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BounceMode {
    pub bounces: u8,
    /// Thrown down (`F`) rather than lifted up.
    pub forced: bool,
    /// Caught while rising (after the last bounce, before its apex).
    pub catch_rising: bool,
}

/// Most bounces animated for one throw. Each bounce keeps only 90 % of the energy, so a ball
/// asked to bounce more often would need an ever longer flight (126 `B`s slowed a pattern to a
/// beat every few minutes and exhausted memory, found by fuzzing); more `B`s bounce this often.
pub(crate) const MAX_BOUNCES: u8 = 8;

impl BounceMode {
    /// Juggling Lab's meaning of the modifiers: `B` up, caught rising; `BF` down, caught
    /// falling; `BH` up, caught falling; `BHF` down, caught rising. At most `MAX_BOUNCES`.
    pub(crate) fn from_kind(bounces: u8, forced: bool, hyper: bool) -> Self {
        BounceMode {
            bounces: bounces.clamp(1, MAX_BOUNCES),
            forced,
            catch_rising: forced == hyper,
        }
    }

    /// The modes to try in order when this one has no solution: the other catch, the other
    /// throw, then fewer bounces.
    fn fallbacks(self) -> Vec<BounceMode> {
        let mut out = Vec::new();
        for bounces in (1..=self.bounces.max(1)).rev() {
            for (forced, rising) in [
                (self.forced, self.catch_rising),
                (self.forced, !self.catch_rising),
                (!self.forced, self.catch_rising),
                (!self.forced, !self.catch_rising),
            ] {
                out.push(BounceMode {
                    bounces,
                    forced,
                    catch_rising: rising,
                });
            }
        }
        out
    }
}

/// One free-flight arc of a bounce: vertical motion from height `y0` above the contact plane
/// (`BOUNCE_CONTACT_Y`) with upward speed `vy0`, starting `start` seconds after release.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Arc {
    pub(crate) start: f64,
    pub(crate) y0: f64,
    pub(crate) vy0: f64,
}

/// The path of a prop between release and catch.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum FlightPath {
    /// Free flight: `p0 + v0 τ − ½ g τ² ŷ`.
    Parabola { p0: DVec3, v0: DVec3, gravity: f64 },
    /// Constant horizontal velocity; vertical motion in arcs between floor contacts.
    Bounce {
        p0: DVec3,
        horizontal: DVec3,
        arcs: Vec<Arc>,
        gravity: f64,
        /// Height of the surface bounced off (m; 0 = the floor).
        plane: f64,
    },
}

impl FlightPath {
    /// The parabola from `p0` to `p1` taking exactly `duration` seconds.
    pub(crate) fn parabola(p0: DVec3, p1: DVec3, duration: f64, gravity: f64) -> FlightPath {
        let d = duration.max(1e-9);
        let v0 = (p1 - p0) / d + DVec3::new(0.0, 0.5 * gravity * d, 0.0);
        FlightPath::Parabola { p0, v0, gravity }
    }

    /// A bounce from `p0` to `p1` in `duration` seconds in the requested mode, or the first
    /// fallback mode that has a solution, or a parabola when none has.
    #[cfg(test)]
    pub(crate) fn bounce(
        p0: DVec3,
        p1: DVec3,
        duration: f64,
        gravity: f64,
        mode: BounceMode,
    ) -> Self {
        Self::bounce_keeping(p0, p1, duration, gravity, mode, BOUNCE_ENERGY)
    }

    /// `bounce` for a prop keeping the fraction `energy` of its energy at each bounce
    /// (Juggling Lab's `bouncefrac`: the rebound speed is `√energy` of the impact speed);
    /// `energy` outside the range of `keys::BOUNCE_FRACTION` is taken as `BOUNCE_ENERGY`.
    #[cfg(test)]
    pub(crate) fn bounce_keeping(
        p0: DVec3,
        p1: DVec3,
        duration: f64,
        gravity: f64,
        mode: BounceMode,
        energy: f64,
    ) -> Self {
        Self::bounce_off(p0, p1, duration, gravity, mode, energy, 0.0)
    }

    /// `bounce_keeping` off a surface at height `plane` (m; Juggling Lab's `bounceplane`)
    /// instead of the floor; a plane that is not finite is the floor. Endpoints below the
    /// plane have no bounce: a parabola.
    pub(crate) fn bounce_off(
        p0: DVec3,
        p1: DVec3,
        duration: f64,
        gravity: f64,
        mode: BounceMode,
        energy: f64,
        plane: f64,
    ) -> Self {
        let plane = if plane.is_finite() { plane } else { 0.0 };
        let r = restitution(energy);
        // Heights above the contact plane.
        let (h0, h1) = (
            p0.y - plane - BOUNCE_CONTACT_Y,
            p1.y - plane - BOUNCE_CONTACT_Y,
        );
        for m in mode.fallbacks() {
            if let Some(u) = solve_impact_speed(h0, h1, duration, gravity, m, r) {
                let arcs = bounce_arcs(h0, u, gravity, m, r);
                let mut horizontal = (p1 - p0) / duration.max(1e-9);
                horizontal.y = 0.0;
                return FlightPath::Bounce {
                    p0,
                    horizontal,
                    arcs,
                    gravity,
                    plane,
                };
            }
        }
        FlightPath::parabola(p0, p1, duration, gravity)
    }

    /// Where the path starts (the release point).
    pub(crate) fn start(&self) -> DVec3 {
        match self {
            FlightPath::Parabola { p0, .. } | FlightPath::Bounce { p0, .. } => *p0,
        }
    }

    /// Position `tau` seconds after release.
    pub(crate) fn position(&self, tau: f64) -> DVec3 {
        match self {
            FlightPath::Parabola { p0, v0, gravity } => {
                *p0 + *v0 * tau - DVec3::new(0.0, 0.5 * gravity * tau * tau, 0.0)
            }
            FlightPath::Bounce {
                p0,
                horizontal,
                arcs,
                gravity,
                plane,
            } => {
                let arc = current_arc(arcs, tau);
                let s = tau - arc.start;
                let h = arc.y0 + arc.vy0 * s - 0.5 * gravity * s * s;
                let xz = *p0 + *horizontal * tau;
                DVec3::new(xz.x, h.max(0.0) + BOUNCE_CONTACT_Y + plane, xz.z)
            }
        }
    }

    /// Velocity `tau` seconds after release.
    pub(crate) fn velocity(&self, tau: f64) -> DVec3 {
        match self {
            FlightPath::Parabola { v0, gravity, .. } => *v0 - DVec3::new(0.0, gravity * tau, 0.0),
            FlightPath::Bounce {
                horizontal,
                arcs,
                gravity,
                ..
            } => {
                let arc = current_arc(arcs, tau);
                DVec3::new(
                    horizontal.x,
                    arc.vy0 - gravity * (tau - arc.start),
                    horizontal.z,
                )
            }
        }
    }

    /// Seconds after the release of each floor contact (none for a parabola).
    pub(crate) fn contacts(&self) -> Vec<f64> {
        match self {
            FlightPath::Parabola { .. } => Vec::new(),
            FlightPath::Bounce { arcs, .. } => arcs.iter().skip(1).map(|a| a.start).collect(),
        }
    }

    /// Number of floor contacts.
    #[cfg(test)]
    pub(crate) fn bounces(&self) -> usize {
        match self {
            FlightPath::Parabola { .. } => 0,
            FlightPath::Bounce { arcs, .. } => arcs.len() - 1,
        }
    }
}

fn current_arc(arcs: &[Arc], tau: f64) -> Arc {
    let i = arcs.partition_point(|a| a.start <= tau).max(1) - 1;
    arcs[i]
}

/// Vertical speed kept at each bounce by a prop keeping the share `energy` of its energy
/// (`BOUNCE_ENERGY` when `energy` is outside `keys::BOUNCE_FRACTION`'s range).
fn restitution(energy: f64) -> f64 {
    if crate::settings::keys::BOUNCE_FRACTION.contains(energy) {
        energy.sqrt()
    } else {
        BOUNCE_ENERGY.sqrt()
    }
}

/// Flight time of a bounce from height `h0` to `h1` whose first floor impact has speed `u`,
/// or `None` when the last arc does not reach `h1`; `r` is the vertical speed kept at a bounce.
fn bounce_time(h0: f64, h1: f64, u: f64, g: f64, mode: BounceMode, r: f64) -> Option<f64> {
    let vertical = (u * u - 2.0 * g * h0).max(0.0).sqrt();
    let v0 = if mode.forced { -vertical } else { vertical };
    let mut t = (v0 + u) / g;
    let mut w = u * r;
    for _ in 1..mode.bounces {
        t += 2.0 * w / g;
        w *= r;
    }
    let disc = w * w - 2.0 * g * h1;
    if disc < 0.0 {
        return None;
    }
    let root = disc.sqrt();
    let last = if mode.catch_rising {
        w - root
    } else {
        w + root
    };
    Some(t + last / g)
}

/// Least impact speed for which a bounce can be thrown from `h0` and reach `h1`.
fn min_impact_speed(h0: f64, h1: f64, g: f64, mode: BounceMode, r: f64) -> f64 {
    let reach = (2.0 * g * h1.max(0.0)).sqrt() / r.powi(mode.bounces as i32);
    (2.0 * g * h0.max(0.0)).sqrt().max(reach) * (1.0 + 1e-12)
}

const SCAN_STEPS: usize = 400;

/// The smallest first-impact speed giving a flight of exactly `duration`, if any.
fn solve_impact_speed(
    h0: f64,
    h1: f64,
    duration: f64,
    g: f64,
    mode: BounceMode,
    r: f64,
) -> Option<f64> {
    if !(duration > 0.0 && h0 >= 0.0 && h1 >= 0.0) {
        return None;
    }
    let f = |u: f64| bounce_time(h0, h1, u, g, mode, r).map(|t| t - duration);
    let lo = min_impact_speed(h0, h1, g, mode, r);
    let hi = lo + 2.0 * g * duration + 10.0;
    let step = (hi - lo) / SCAN_STEPS as f64;
    let mut a = lo;
    let mut fa = f(a)?;
    if fa == 0.0 {
        return Some(a);
    }
    for k in 1..=SCAN_STEPS {
        let b = lo + step * k as f64;
        let fb = f(b)?;
        if fa.signum() != fb.signum() {
            // Bisect [a, b].
            let (mut x0, mut x1, mut f0) = (a, b, fa);
            for _ in 0..80 {
                let m = 0.5 * (x0 + x1);
                let fm = f(m)?;
                if fm.signum() == f0.signum() {
                    x0 = m;
                    f0 = fm;
                } else {
                    x1 = m;
                }
            }
            return Some(0.5 * (x0 + x1));
        }
        a = b;
        fa = fb;
    }
    None
}

fn bounce_arcs(h0: f64, u: f64, g: f64, mode: BounceMode, r: f64) -> Vec<Arc> {
    let vertical = (u * u - 2.0 * g * h0).max(0.0).sqrt();
    let v0 = if mode.forced { -vertical } else { vertical };
    let mut arcs = vec![Arc {
        start: 0.0,
        y0: h0,
        vy0: v0,
    }];
    let mut t = (v0 + u) / g;
    let mut w = u * r;
    for _ in 0..mode.bounces {
        arcs.push(Arc {
            start: t,
            y0: 0.0,
            vy0: w,
        });
        t += 2.0 * w / g;
        w *= r;
    }
    arcs
}

/// The least flight time of a bounce from `h0` to `h1` in this mode (None if it is never
/// possible) for a prop keeping the share `energy` of its energy at each bounce. Used to slow
/// the automatic tempo like Juggling Lab does.
pub(crate) fn bounce_min_time(
    h0: f64,
    h1: f64,
    mode: BounceMode,
    g: f64,
    energy: f64,
) -> Option<f64> {
    let r = restitution(energy);
    let lo = min_impact_speed(h0, h1, g, mode, r);
    (0..=SCAN_STEPS)
        .filter_map(|k| bounce_time(h0, h1, lo + 0.05 * k as f64, g, mode, r))
        .reduce(f64::min)
}

#[cfg(test)]
mod tests {
    use super::*;

    const G: f64 = 9.81;

    #[test]
    fn parabola_hits_both_ends_and_its_apex_is_g_t2_over_8() {
        let p0 = DVec3::new(-0.12, 1.0, 0.3);
        let p1 = DVec3::new(0.30, 1.0, 0.3);
        let t = 1.7 / 2.9; // a 3 at 2.9 bps, dwell 1.3
        let f = FlightPath::parabola(p0, p1, t, G);
        assert!((f.position(0.0) - p0).length() < 1e-12);
        assert!((f.position(t) - p1).length() < 1e-12);
        let apex = f.position(t / 2.0).y - 1.0;
        assert!((apex - G * t * t / 8.0).abs() < 1e-12);
        assert!((apex - 0.4213).abs() < 1e-4, "{apex}"); // JL: 42 cm
                                                         // Launch speed upward g t / 2.
        assert!((f.velocity(0.0).y - G * t / 2.0).abs() < 1e-12);
    }

    #[test]
    fn a_bounce_keeping_half_its_energy_rebounds_at_sqrt_half_its_impact_speed() {
        let (p0, p1) = (DVec3::new(-0.2, 1.0, 0.3), DVec3::new(0.3, 1.0, 0.3));
        let mode = BounceMode::from_kind(2, false, false);
        let f = FlightPath::bounce_keeping(p0, p1, 2.2, G, mode, 0.5);
        assert!((f.position(0.0) - p0).length() < 1e-9);
        assert!((f.position(2.2) - p1).length() < 1e-9);
        let FlightPath::Bounce { arcs, .. } = &f else {
            panic!("not a bounce: {f:?}")
        };
        assert_eq!(arcs.len(), 3);
        for w in arcs.windows(2) {
            // Speed at impact of the arc before, rebound speed of the next.
            let s = w[1].start - w[0].start;
            let impact = w[0].vy0 - G * s;
            assert!((w[1].vy0 + impact * 0.5f64.sqrt()).abs() < 1e-9, "{arcs:?}");
        }
        // Out of range: the default energy.
        let d = FlightPath::bounce_keeping(p0, p1, 1.4, G, mode, 12.0);
        assert_eq!(d, FlightPath::bounce(p0, p1, 1.4, G, mode));
        // Above 1 a bounce gives energy (a bat): each rebound √1.5 times the impact speed,
        // still from p0 to p1 in the flight's time.
        let bat = FlightPath::bounce_keeping(p0, p1, 2.2, G, mode, 1.5);
        assert!((bat.position(2.2) - p1).length() < 1e-9);
        let FlightPath::Bounce { arcs, .. } = &bat else {
            panic!("not a bounce: {bat:?}")
        };
        for w in arcs.windows(2) {
            let impact = w[0].vy0 - G * (w[1].start - w[0].start);
            assert!((w[1].vy0 + impact * 1.5f64.sqrt()).abs() < 1e-9, "{arcs:?}");
        }
    }

    #[test]
    fn a_bounce_off_a_table_touches_it_and_lands_in_the_hand() {
        // A table top 75 cm high: the prop's centre meets it (plus the ball's radius) and
        // never goes below it; the flight time is that of a floor bounce from 25 cm hands.
        let (p0, p1) = (DVec3::new(-0.2, 1.0, 0.3), DVec3::new(0.3, 1.0, 0.3));
        let mode = BounceMode::from_kind(1, false, false);
        let f = FlightPath::bounce_off(p0, p1, 0.8, G, mode, BOUNCE_ENERGY, 0.75);
        assert!((f.position(0.0) - p0).length() < 1e-9);
        assert!((f.position(0.8) - p1).length() < 1e-9);
        let FlightPath::Bounce { arcs, plane, .. } = &f else {
            panic!("not a bounce: {f:?}")
        };
        assert_eq!(*plane, 0.75);
        let contact = f.position(arcs[1].start).y;
        assert!(
            (contact - 0.75 - BOUNCE_CONTACT_Y).abs() < 1e-9,
            "{contact}"
        );
        let low = (0..=400)
            .map(|k| f.position(0.8 * k as f64 / 400.0).y)
            .fold(f64::INFINITY, f64::min);
        assert!(low >= 0.75 + BOUNCE_CONTACT_Y - 1e-9);
        let floor = FlightPath::bounce(p0 - DVec3::Y * 0.75, p1 - DVec3::Y * 0.75, 0.8, G, mode);
        assert!((f.position(0.3).y - floor.position(0.3).y - 0.75).abs() < 1e-9);
        // A plane above the hands cannot be bounced off: a parabola to the catch.
        let up = FlightPath::bounce_off(p0, p1, 0.8, G, mode, BOUNCE_ENERGY, 1.5);
        assert!(matches!(up, FlightPath::Parabola { .. }));
        assert!((up.position(0.8) - p1).length() < 1e-9);
    }

    fn check_bounce(mode: BounceMode, duration: f64) -> FlightPath {
        let p0 = DVec3::new(-0.2, 1.0, 0.3);
        let p1 = DVec3::new(0.3, 1.0, 0.3);
        let f = FlightPath::bounce(p0, p1, duration, G, mode);
        assert!((f.position(0.0) - p0).length() < 1e-9);
        assert!(
            (f.position(duration) - p1).length() < 1e-6,
            "{:?}",
            f.position(duration)
        );
        for k in 0..=200 {
            assert!(f.position(duration * k as f64 / 200.0).y >= BOUNCE_CONTACT_Y - 1e-12);
        }
        f
    }

    #[test]
    fn single_bounce_lands_in_the_hand_at_the_catch_time() {
        let mode = BounceMode::from_kind(1, false, false);
        let f = check_bounce(mode, 1.2);
        assert_eq!(f.bounces(), 1);
        // Lifted: thrown up; caught rising.
        assert!(f.velocity(0.0).y > 0.0);
        assert!(f.velocity(1.2).y > 0.0);
        // Energy: vertical speed after the bounce is √0.9 of the impact speed.
        if let FlightPath::Bounce { arcs, .. } = &f {
            let impact = arcs[0].vy0 - G * arcs[1].start;
            assert!((arcs[1].vy0 + impact * 0.9f64.sqrt()).abs() < 1e-9);
        }
    }

    #[test]
    fn forced_and_hyper_bounces_take_their_directions() {
        let f = check_bounce(BounceMode::from_kind(1, true, false), 0.9);
        assert!(f.velocity(0.0).y < 0.0, "forced is thrown down");
        assert!(f.velocity(0.9).y < 0.0, "BF is caught falling");
        let f = check_bounce(BounceMode::from_kind(1, false, true), 1.3);
        assert!(f.velocity(0.0).y > 0.0);
        assert!(f.velocity(1.3).y < 0.0, "BH is caught falling");
    }

    #[test]
    fn double_bounce_touches_the_floor_twice() {
        let f = check_bounce(BounceMode::from_kind(2, false, false), 2.0);
        assert_eq!(f.bounces(), 2);
    }

    #[test]
    fn impossible_bounce_falls_back_to_a_valid_path() {
        // 0.2 s is too short to lift a prop to the floor and back; a forced bounce or a
        // parabola must still end in the hand.
        let f = check_bounce(BounceMode::from_kind(1, false, false), 0.2);
        assert!(f.velocity(0.0).y.is_finite());
    }

    #[test]
    fn minimum_lifted_bounce_time_matches_juggling_lab() {
        // JL slows `3B` from 2.90 to 1.628 bps: (3 - 1.3) / 1.628 / 1.01 ≈ 1.034 s needed.
        let min = bounce_min_time(
            1.0,
            1.0,
            BounceMode::from_kind(1, false, false),
            G,
            BOUNCE_ENERGY,
        )
        .unwrap();
        assert!((min - 1.02).abs() < 0.03, "{min}");
    }
}
