//! Permutations of paths and jugglers as JML writes them (`pperm`, `jperm`), and the powers of
//! the loop's path permutation.

use std::collections::{HashMap, HashSet};

use super::error::EventErrorKind;

/// A path permutation, 0-based: `map[p]` is where path `p` goes.
pub(super) type Perm = Vec<usize>;

/// Juggler permutation with hand switches: juggler `j` goes to juggler `map[j].0`, with its
/// hands switched when `map[j].1`.
pub(super) type JPerm = Vec<(usize, bool)>;

/// A path permutation in cycle notation `(1,2)(3)` or as a list `2,1,3`.
pub(super) fn path_perm(text: &str, n: usize) -> Result<Perm, EventErrorKind> {
    let signed = signed_perm(text, n, false)?;
    Ok((1..=n as i64)
        .map(|i| (signed(i).unsigned_abs() as usize) - 1)
        .collect())
}

/// A juggler permutation; `2*` means juggler 2 with hands switched.
pub(super) fn juggler_perm(text: &str, n: usize) -> Result<JPerm, EventErrorKind> {
    let signed = signed_perm(text, n, true)?;
    Ok((1..=n as i64)
        .map(|i| {
            let v = signed(i);
            (v.unsigned_abs() as usize - 1, v < 0)
        })
        .collect())
}

/// Parses a permutation of `1..=n` (with `*` marking reversed elements when `reverses`) into
/// its signed map.
fn signed_perm(
    text: &str,
    n: usize,
    reverses: bool,
) -> Result<impl Fn(i64) -> i64, EventErrorKind> {
    let bad = |problem: String| EventErrorKind::Permutation {
        text: text.to_string(),
        problem,
    };
    let mut map: HashMap<i64, i64> = HashMap::new();
    let element = |s: &str| -> Result<i64, EventErrorKind> {
        let s = s.trim();
        let (s, neg) = match s.strip_suffix('*') {
            Some(rest) if reverses => (rest.trim(), true),
            _ => (s, false),
        };
        match s.parse::<i64>() {
            Ok(v) if v >= 1 && v <= n as i64 => Ok(if neg { -v } else { v }),
            _ => Err(bad(format!("has '{s}', not a number from 1 to {n}"))),
        }
    };
    if text.trim().is_empty() {
        // Identity.
    } else if !text.contains('(') {
        let items: Vec<&str> = text.split(',').collect();
        if items.len() != n {
            return Err(bad(format!("lists {} elements for {n}", items.len())));
        }
        for (i, s) in items.iter().enumerate() {
            map.insert(i as i64 + 1, element(s)?);
        }
    } else {
        for cycle in text.split(')').filter(|c| !c.trim().is_empty()) {
            let body = cycle
                .trim()
                .strip_prefix('(')
                .ok_or_else(|| bad("is not in cycle notation".into()))?;
            let items = body
                .split(',')
                .map(element)
                .collect::<Result<Vec<i64>, _>>()?;
            for (k, &a) in items.iter().enumerate() {
                let b = items[(k + 1) % items.len()];
                if map.insert(a, b).is_some() {
                    return Err(bad("uses an element twice".into()));
                }
            }
        }
    }
    // Complete: -a maps to -map(a); check it is one-to-one.
    let mut full: HashMap<i64, i64> = map.clone();
    for (&a, &b) in &map {
        full.entry(-a).or_insert(-b);
    }
    let mut seen = HashSet::new();
    for i in 1..=n as i64 {
        let v = full.get(&i).copied().unwrap_or(i);
        if !seen.insert(v.abs()) {
            return Err(bad("is not one-to-one".into()));
        }
    }
    Ok(move |i: i64| full.get(&i).copied().unwrap_or(i))
}

/// `then` after `first`: path `p` goes to `then[first[p]]`.
pub(super) fn compose(first: &Perm, then: &Perm) -> Perm {
    first.iter().map(|&p| then[p]).collect()
}

pub(super) fn inverse(p: &Perm) -> Perm {
    let mut inv = vec![0; p.len()];
    for (i, &v) in p.iter().enumerate() {
        inv[v] = i;
    }
    inv
}

/// How many times a juggler permutation with hand switches must be applied to bring every
/// juggler back to itself with its hands unswitched: per cycle its length, twice that when
/// the cycle switches hands an odd number of times; the least common multiple of those.
pub(super) fn jorder(perm: &JPerm) -> usize {
    let mut seen = vec![false; perm.len()];
    let mut order = 1;
    for start in 0..perm.len() {
        if seen[start] {
            continue;
        }
        let (mut k, mut switched, mut length) = (start, false, 0);
        loop {
            seen[k] = true;
            let (next, switch) = perm[k];
            k = next;
            switched ^= switch;
            length += 1;
            if k == start || seen[k] || length > perm.len() {
                break;
            }
        }
        order = lcm(order, if switched { 2 * length } else { length });
    }
    order
}

/// Least common multiple (saturating at `usize::MAX`).
pub(super) fn lcm(a: usize, b: usize) -> usize {
    fn gcd(a: usize, b: usize) -> usize {
        if b == 0 {
            a
        } else {
            gcd(b, a % b)
        }
    }
    (a / gcd(a, b).max(1)).saturating_mul(b)
}

/// The cycles of a permutation, for its powers in time linear in the paths (not in the
/// power): where each element sits in its cycle.
pub(super) struct Cycles {
    cycles: Vec<Vec<usize>>,
    /// Per element: (its cycle, its place in that cycle).
    place: Vec<(usize, usize)>,
}

impl Cycles {
    /// The cycles of `perm`, each followed from its smallest element along `perm`.
    pub(super) fn of(perm: &[usize]) -> Cycles {
        let mut place = vec![(0usize, 0usize); perm.len()];
        let mut cycles: Vec<Vec<usize>> = Vec::new();
        let mut seen = vec![false; perm.len()];
        for start in 0..perm.len() {
            if seen[start] {
                continue;
            }
            let mut cycle = Vec::new();
            let mut p = start;
            while !seen[p] {
                seen[p] = true;
                place[p] = (cycles.len(), cycle.len());
                cycle.push(p);
                p = perm[p];
            }
            cycles.push(cycle);
        }
        Cycles { cycles, place }
    }

    /// The permutation applied `k` times to `p` (its inverse `-k` times for negative `k`).
    pub(super) fn power(&self, p: usize, k: i64) -> usize {
        let (c, i) = self.place[p];
        let cycle = &self.cycles[c];
        let len = cycle.len() as i64;
        cycle[(i as i64 + k).rem_euclid(len) as usize]
    }

    /// The length of the cycle `p` is in.
    pub(super) fn length(&self, p: usize) -> usize {
        self.cycles[self.place[p].0].len()
    }
}
