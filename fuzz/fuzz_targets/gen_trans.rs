//! `gen` and `trans` arguments: any query the command line can write is refused or searched
//! in bounded steps (the generator's `Steps`, a few batches), and any two short siteswaps give
//! transitions or an error, never a panic, hang or unbounded memory.
#![no_main]

use juggler::schedule;
use juggler::tools::{self, GroundFilter, Listing, Query};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() < 10 {
        return;
    }
    let n = |i: usize, m: u32| u32::from(data[i]) % m;
    let max_throw = match data[1] {
        0 => None,
        b => Some(u32::from(b) % 40),
    };
    let mut q = Query::new(n(0, 12), max_throw, n(2, 10));
    q.period_max = match data[3] {
        255 => None,
        b => Some(q.period_min + u32::from(b) % 5),
    };
    q.period_from_rhythm = data[3] & 0x40 != 0;
    let f = data[4];
    q.ground = [GroundFilter::Both, GroundFilter::GroundOnly, GroundFilter::ExcitedOnly]
        [usize::from(f % 3)];
    q.listing = [Listing::Default, Listing::Full, Listing::Prime][usize::from((f / 3) % 3)];
    q.rotations = f & 0x10 != 0;
    q.lame = f & 0x20 != 0;
    q.sync = f & 0x40 != 0;
    q.squeeze = f & 0x80 != 0;
    let g = data[5];
    q.clustered = g & 1 == 0;
    q.true_multiplex = g & 2 != 0;
    q.connected = g & 4 != 0;
    q.symmetric = g & 8 != 0;
    q.permutations = g & 0x10 != 0;
    q.sequences = g & 0x20 == 0;
    q.multiplex = n(6, 4);
    q.jugglers = n(7, 4);
    q.delay = n(8, 6);
    q.leader = n(9, 5);
    let text = std::str::from_utf8(&data[10..]).unwrap_or("");
    let (regex, pair) = text.split_once('\n').unwrap_or(("", text));
    if !regex.is_empty() && regex.len() < 64 {
        if g & 0x40 != 0 {
            q.include.push(regex.to_string());
        } else {
            q.exclude.push(regex.to_string());
        }
    }
    if let Ok(generator) = tools::generate(&q) {
        let mut steps = generator.steps();
        for _ in 0..4 {
            for p in steps.next_batch(50) {
                assert!(!p.pattern.is_empty());
                assert!(p.period >= 1);
            }
            if steps.is_done() {
                break;
            }
        }
    }
    // trans A B: two short siteswaps.
    let Some((a, b)) = pair.split_once(' ') else { return };
    if a.len() > 24 || b.len() > 24 {
        return;
    }
    let (Ok(sa), Ok(sb)) = (schedule::from_notation(a), schedule::from_notation(b)) else {
        return;
    };
    if let Ok(found) = tools::transitions((a, &sa), (b, &sb), 3) {
        assert!(found.len() <= 3);
        for t in found {
            // The whole pattern it prints is a valid siteswap.
            assert!(
                schedule::from_notation(&t.pattern).is_ok(),
                "{a} -> {b}: {}",
                t.pattern
            );
        }
    }
});
