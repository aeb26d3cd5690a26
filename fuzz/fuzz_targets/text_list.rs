//! Plain-text lists: the streaming reader never panics, agrees with the in-memory reader, and
//! yields trimmed, comment-free entries.
#![no_main]

use juggler::files::text_list::{read_text_list, TextEntries};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let entries: Vec<_> = TextEntries::new(data).collect();
    for entry in entries.iter().flatten() {
        assert!(!entry.text.is_empty() && !entry.text.contains('#'));
        assert_eq!(entry.text.trim(), entry.text);
        assert!(!entry.text.contains(['\r', '\n']));
    }
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(patterns) = read_text_list(text, "fuzz.txt") {
            let ok: Vec<_> = entries.iter().flatten().collect();
            assert_eq!(patterns.len(), ok.len());
        }
    }
});
