//! JML files: any text imports or is refused with a located error (strict and lenient
//! readers agree), and every imported pattern has its settings inside their documented ranges.
#![no_main]

use juggler::files::jml;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let lenient = jml::import_lenient(text, "fuzz.jml");
    let strict = jml::read_str(text, "fuzz.jml");
    match (&lenient, &strict) {
        (Ok(import), Ok(patterns)) => {
            assert!(import.problems.is_empty());
            assert_eq!(import.patterns.len(), patterns.len());
        }
        (Ok(import), Err(_)) => assert!(!import.problems.is_empty()),
        (Err(_), Ok(_)) => panic!("strict reader accepted what the lenient one refused"),
        (Err(_), Err(_)) => {}
    }
    if let Ok(import) = lenient {
        for p in import.patterns {
            assert_eq!(p.spec.settings.check(), Ok(()), "{:?}", p.spec.settings);
            assert!(p.at.line >= 1 && p.at.column >= 1);
        }
    }
});
