//! The pattern library is read only for arguments that are neither siteswaps nor files, and
//! then only once (issue 15: every siteswap command used to parse the whole library first).
//! One test in its own process, so no other test has touched the library before it.

use juggler::files::argument::{self, Argument, Source};
use juggler::files::library;

#[test]
fn siteswaps_settings_and_paths_never_read_the_library() {
    for arg in [
        "441",
        "(4,2x)*",
        "<3p|3p>",
        "532",
        "5 3 [",
        "pattern=531;bps=4",
        "mine.toml",
        "./531",
        "abc",
    ] {
        argument::read(arg).ok();
        assert!(!library::is_loaded(), "{arg} read the library");
    }
    let Ok(Argument::Pattern { spec, source }) = argument::read("Mills Mess") else {
        panic!("Mills Mess is in the library");
    };
    assert_eq!(
        (spec.name.as_str(), source),
        ("Mills Mess", Source::Library)
    );
    assert!(library::is_loaded());
    // Read once: the same library object afterwards.
    assert!(std::ptr::eq(library::library(), library::library()));
}
