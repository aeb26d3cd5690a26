//! Is there a display to open a window on? Checked before macroquad is started, because
//! without one it panics (`XOpenDisplay() failed`).

use std::ffi::OsStr;

/// The kind of display session found in the environment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DisplayKind {
    X11,
    /// Wayland without an X11 `DISPLAY` (no XWayland advertised).
    Wayland,
}

/// The display session named by the `DISPLAY` and `WAYLAND_DISPLAY` values, if any
/// (empty values count as unset). X11 is preferred: XWayland sessions set both.
pub fn detect(display: Option<&OsStr>, wayland_display: Option<&OsStr>) -> Option<DisplayKind> {
    let set = |v: Option<&OsStr>| v.is_some_and(|v| !v.is_empty());
    if set(display) {
        Some(DisplayKind::X11)
    } else if set(wayland_display) {
        Some(DisplayKind::Wayland)
    } else {
        None
    }
}

/// The display session of this process's environment.
pub fn detect_from_env() -> Option<DisplayKind> {
    detect(
        std::env::var_os("DISPLAY").as_deref(),
        std::env::var_os("WAYLAND_DISPLAY").as_deref(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_sessions_from_the_variables() {
        let s = |v: &'static str| Some(OsStr::new(v));
        assert_eq!(detect(s(":0"), None), Some(DisplayKind::X11));
        assert_eq!(detect(s(":0"), s("wayland-0")), Some(DisplayKind::X11));
        assert_eq!(detect(None, s("wayland-0")), Some(DisplayKind::Wayland));
        assert_eq!(detect(s(""), s("wayland-0")), Some(DisplayKind::Wayland));
        assert_eq!(detect(s(""), s("")), None);
        assert_eq!(detect(None, None), None);
    }
}
