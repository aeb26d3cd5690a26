//! Any string: parse + validation (schedule) and the settings-string route never panic, and a
//! valid schedule keeps its invariants.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(schedule) = juggler::schedule::from_notation(text) {
        let total: u64 = schedule.throws.iter().map(|t| u64::from(t.value)).sum();
        assert_eq!(total, schedule.props as u64 * u64::from(schedule.period));
        let mut seen = vec![false; schedule.throws.len()];
        for throw in &schedule.throws {
            assert!(!seen[throw.next], "next is not a permutation");
            seen[throw.next] = true;
        }
    }
    let _ = juggler::settings::read(text);
});
