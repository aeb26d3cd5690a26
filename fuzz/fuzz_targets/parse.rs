//! Any string: the parser returns a pattern or an error, never panics or hangs.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Err(err) = juggler::notation::parse(text) {
            // The error must render (column and caret) without panicking.
            let _ = err.to_string();
        }
    }
});
