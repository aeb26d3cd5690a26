//! The window title: the pattern playing, by name and siteswap (`Mills Mess (3) - juggler`).
//!
//! macroquad 0.4 sets the title only when the window opens. On X11 the window is opened
//! under a unique marker title ([`marker`]); [`TitleSetter`] then finds that window over its
//! own connection to the X server (libX11 is loaded at run time, as miniquad does) and renames
//! it whenever the pattern changes. Elsewhere (Wayland) the title stays the one the window
//! opened with; the web front end sets the page title itself from [`window_title`].

use super::animation::Facts;

/// Longest siteswap shown in a title, characters.
const TITLE_NOTATION_CHARS: usize = 60;

/// The title for a pattern: `NAME (SITESWAP) - juggler`, or `SITESWAP - juggler` when the name
/// is the siteswap itself. Control characters are escaped; long siteswaps are cut with `…`.
pub fn window_title(facts: &Facts) -> String {
    let clean = |s: &str| crate::text::escape_control(s.trim()).into_owned();
    let name = clean(&facts.name);
    let notation = super::ui::truncate(&clean(&facts.notation), TITLE_NOTATION_CHARS);
    if name.is_empty() || name == notation || name == clean(&facts.notation) {
        format!("{notation} - juggler")
    } else {
        format!("{} ({notation}) - juggler", super::ui::truncate(&name, 80))
    }
}

/// The title the window opens with on X11, unique to this process, so that [`TitleSetter`]
/// can find it (elsewhere it is never shown).
pub fn marker() -> String {
    #[cfg(target_os = "linux")]
    {
        format!("juggler (process {})", std::process::id())
    }
    #[cfg(not(target_os = "linux"))]
    {
        "juggler".to_string()
    }
}

/// Renames the window. Does nothing where that is not possible.
#[derive(Default)]
pub struct TitleSetter {
    #[cfg(target_os = "linux")]
    x11: Option<x11::Connection>,
    /// The last title set, so that an unchanged title costs nothing.
    current: String,
    /// Whether the window cannot be renamed (tried and failed).
    given_up: bool,
}

impl TitleSetter {
    /// Sets the title to `title` if it changed. `marker` is the title the window opened with.
    pub fn set(&mut self, title: &str, marker: &str) {
        if self.given_up || self.current == title {
            return;
        }
        if self.rename(title, marker) {
            self.current = title.to_string();
        }
    }

    #[cfg(target_os = "linux")]
    fn rename(&mut self, title: &str, marker: &str) -> bool {
        if std::env::var_os("DISPLAY").is_none_or(|d| d.is_empty()) {
            self.given_up = true;
            return false;
        }
        if self.x11.is_none() {
            match x11::Connection::open() {
                Some(c) => self.x11 = Some(c),
                None => {
                    self.given_up = true;
                    return false;
                }
            }
        }
        match self.x11.as_mut() {
            Some(c) => c.rename(marker, title),
            None => false,
        }
    }

    #[cfg(not(target_os = "linux"))]
    fn rename(&mut self, _title: &str, _marker: &str) -> bool {
        self.given_up = true;
        false
    }
}

/// A minimal libX11 binding: find a window by its name and rename it.
#[cfg(target_os = "linux")]
mod x11 {
    use std::ffi::{c_char, c_int, c_uchar, c_uint, c_ulong, c_void, CStr, CString};

    type Display = c_void;
    type Window = c_ulong;
    type Atom = c_ulong;

    type OpenDisplay = unsafe extern "C" fn(*const c_char) -> *mut Display;
    type CloseDisplay = unsafe extern "C" fn(*mut Display) -> c_int;
    type DefaultRoot = unsafe extern "C" fn(*mut Display) -> Window;
    type QueryTree = unsafe extern "C" fn(
        *mut Display,
        Window,
        *mut Window,
        *mut Window,
        *mut *mut Window,
        *mut c_uint,
    ) -> c_int;
    type FetchName = unsafe extern "C" fn(*mut Display, Window, *mut *mut c_char) -> c_int;
    type Free = unsafe extern "C" fn(*mut c_void) -> c_int;
    type InternAtom = unsafe extern "C" fn(*mut Display, *const c_char, c_int) -> Atom;
    type ChangeProperty = unsafe extern "C" fn(
        *mut Display,
        Window,
        Atom,
        Atom,
        c_int,
        c_int,
        *const c_uchar,
        c_int,
    ) -> c_int;
    type Flush = unsafe extern "C" fn(*mut Display) -> c_int;

    struct Lib {
        handle: *mut c_void,
        open_display: OpenDisplay,
        close_display: CloseDisplay,
        default_root: DefaultRoot,
        query_tree: QueryTree,
        fetch_name: FetchName,
        free: Free,
        intern_atom: InternAtom,
        change_property: ChangeProperty,
        flush: Flush,
    }

    impl Lib {
        fn load() -> Option<Lib> {
            // SAFETY: dlopen/dlsym with NUL-terminated names; every symbol is checked for NULL
            // and cast to the signature libX11 documents for it.
            unsafe {
                let mut handle = std::ptr::null_mut();
                for name in [c"libX11.so.6", c"libX11.so"] {
                    handle = libc::dlopen(name.as_ptr(), libc::RTLD_LAZY | libc::RTLD_LOCAL);
                    if !handle.is_null() {
                        break;
                    }
                }
                if handle.is_null() {
                    return None;
                }
                let sym = |name: &CStr| {
                    let p = libc::dlsym(handle, name.as_ptr());
                    (!p.is_null()).then_some(p)
                };
                macro_rules! get {
                    ($name:expr, $t:ty) => {
                        std::mem::transmute::<*mut c_void, $t>(sym($name)?)
                    };
                }
                Some(Lib {
                    handle,
                    open_display: get!(c"XOpenDisplay", OpenDisplay),
                    close_display: get!(c"XCloseDisplay", CloseDisplay),
                    default_root: get!(c"XDefaultRootWindow", DefaultRoot),
                    query_tree: get!(c"XQueryTree", QueryTree),
                    fetch_name: get!(c"XFetchName", FetchName),
                    free: get!(c"XFree", Free),
                    intern_atom: get!(c"XInternAtom", InternAtom),
                    change_property: get!(c"XChangeProperty", ChangeProperty),
                    flush: get!(c"XFlush", Flush),
                })
            }
        }
    }

    /// Our own connection to the X server.
    pub struct Connection {
        lib: Lib,
        display: *mut Display,
        /// The window, once found.
        window: Option<Window>,
    }

    impl Connection {
        pub fn open() -> Option<Connection> {
            let lib = Lib::load()?;
            // SAFETY: XOpenDisplay(NULL) opens $DISPLAY; NULL on failure is checked.
            let display = unsafe { (lib.open_display)(std::ptr::null()) };
            if display.is_null() {
                // SAFETY: the handle came from dlopen and nothing of it is in use.
                unsafe { libc::dlclose(lib.handle) };
                return None;
            }
            Some(Connection {
                lib,
                display,
                window: None,
            })
        }

        /// Renames the window called `marker` (found once) to `title`.
        pub fn rename(&mut self, marker: &str, title: &str) -> bool {
            if self.window.is_none() {
                // SAFETY: display is open; the root is a valid window.
                let root = unsafe { (self.lib.default_root)(self.display) };
                self.window = self.find(root, marker, 0);
            }
            let Some(window) = self.window else {
                return false;
            };
            let Ok(text) = CString::new(title.replace('\0', " ")) else {
                return false;
            };
            let len = c_int::try_from(text.as_bytes().len()).unwrap_or(0);
            // SAFETY: atoms are interned on an open display; the data pointer is valid for
            // `len` bytes of 8-bit format.
            unsafe {
                let utf8 = (self.lib.intern_atom)(self.display, c"UTF8_STRING".as_ptr(), 0);
                for property in [c"_NET_WM_NAME", c"WM_NAME", c"_NET_WM_ICON_NAME"] {
                    let atom = (self.lib.intern_atom)(self.display, property.as_ptr(), 0);
                    (self.lib.change_property)(
                        self.display,
                        window,
                        atom,
                        utf8,
                        8,
                        0, // PropModeReplace
                        text.as_ptr().cast(),
                        len,
                    );
                }
                (self.lib.flush)(self.display);
            }
            true
        }

        /// The window named `marker` under `w` (depth-first, a few levels: window managers
        /// put frames around top-level windows).
        fn find(&self, w: Window, marker: &str, depth: u32) -> Option<Window> {
            let mut name: *mut c_char = std::ptr::null_mut();
            // SAFETY: XFetchName stores a string to be freed with XFree, or leaves NULL.
            unsafe {
                if (self.lib.fetch_name)(self.display, w, &mut name) != 0 && !name.is_null() {
                    let matches = CStr::from_ptr(name).to_bytes() == marker.as_bytes();
                    (self.lib.free)(name.cast());
                    if matches {
                        return Some(w);
                    }
                }
            }
            if depth >= 4 {
                return None;
            }
            let (mut root, mut parent) = (0, 0);
            let mut children: *mut Window = std::ptr::null_mut();
            let mut count: c_uint = 0;
            // SAFETY: XQueryTree fills the children array (freed with XFree) of `count`.
            let kids: Vec<Window> = unsafe {
                if (self.lib.query_tree)(
                    self.display,
                    w,
                    &mut root,
                    &mut parent,
                    &mut children,
                    &mut count,
                ) == 0
                    || children.is_null()
                {
                    Vec::new()
                } else {
                    let v = std::slice::from_raw_parts(children, count as usize).to_vec();
                    (self.lib.free)(children.cast());
                    v
                }
            };
            kids.into_iter()
                .rev()
                .find_map(|k| self.find(k, marker, depth + 1))
        }
    }

    impl Drop for Connection {
        fn drop(&mut self) {
            // SAFETY: the display was opened by us and is closed once.
            unsafe {
                (self.lib.close_display)(self.display);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(name: &str, notation: &str) -> Facts {
        Facts {
            name: name.into(),
            notation: notation.into(),
            jugglers: 1,
            props: 3,
            period: 1,
            beats_per_second: 3.0,
            loop_seconds: 1.0,
            prop: crate::types::PropKind::Ball,
        }
    }

    #[test]
    fn titles_name_the_pattern_and_its_siteswap() {
        assert_eq!(window_title(&facts("531", "531")), "531 - juggler");
        assert_eq!(
            window_title(&facts("Mills Mess", "(-1,2)(2,...)")),
            "Mills Mess ((-1,2)(2,...)) - juggler"
        );
        assert_eq!(
            window_title(&facts("Rubenstein's Revenge", "(4,2x)*")),
            "Rubenstein's Revenge ((4,2x)*) - juggler"
        );
        assert_eq!(window_title(&facts("", "3")), "3 - juggler");
        // Control characters are shown escaped, long siteswaps cut.
        assert_eq!(window_title(&facts("a\u{1b}b", "3")), "a\\eb (3) - juggler");
        let long = "5".repeat(200);
        let t = window_title(&facts(&long, &long));
        assert_eq!(t.chars().count(), 60 + " - juggler".len());
        assert!(t.contains('…'));
        assert!(marker().contains(&std::process::id().to_string()));
    }
}
