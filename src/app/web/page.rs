//! The JavaScript side (`web/juggler.js`, a miniquad plugin) and the page's start.
//!
//! The page posts messages the app takes once per frame (`query` once at start with the
//! address's query and fragment, `file` with a name and text, `error`, and `action` with a
//! name and value); the app answers through the imports below: JSON documents
//! (`juggler_publish`), downloads, video frames, the address and the title.

use std::cell::RefCell;

use super::super::geometry::Geometry;
use super::super::{main_loop, Chrome, Mode, Session, WindowOptions};
use super::actions::PageAction;
use super::front::{Front, PageOut};
use super::{startup, LinkQuery, Startup};

#[link(wasm_import_module = "env")]
extern "C" {
    /// Bytes of the next message from the page, or -1 when there is none.
    fn juggler_message_len() -> i32;
    /// Copies the next message (exactly `len` bytes) to `ptr` and drops it.
    fn juggler_message_take(ptr: *mut u8, len: u32);
    /// Replaces the address's query and fragment (`history.replaceState`, no reload).
    fn juggler_set_address(ptr: *const u8, len: u32);
    fn juggler_set_title(ptr: *const u8, len: u32);
    /// A JSON document for the page: kind, then text.
    fn juggler_publish(kind: *const u8, kind_len: u32, ptr: *const u8, len: u32);
    /// A file for the user to save: name, MIME type, bytes.
    fn juggler_download(
        name: *const u8,
        name_len: u32,
        mime: *const u8,
        mime_len: u32,
        ptr: *const u8,
        len: u32,
    );
    /// A video frame (RGBA) for the page's encoder.
    fn juggler_video_frame(index: u32, timestamp_us: f64, width: u32, height: u32, ptr: *const u8);
    /// Frames the page's video encoder still holds.
    fn juggler_video_backlog() -> u32;
    fn console_error(msg: *const std::ffi::c_char);
}

/// miniquad checks a plugin's version against this export.
#[no_mangle]
pub extern "C" fn juggler_crate_version() -> u32 {
    1
}

/// Milliseconds of each frame the export and the searches may use.
const WORK_SECONDS: f64 = 0.035;

thread_local! {
    static FRONT: RefCell<Option<Front>> = const { RefCell::new(None) };
}

/// The page's answers, through the imports.
struct Page;

impl PageOut for Page {
    fn publish(&mut self, kind: &str, json: &str) {
        // SAFETY: plain calls into the page's plugin, which copies the bytes before returning.
        unsafe {
            juggler_publish(
                kind.as_ptr(),
                kind.len() as u32,
                json.as_ptr(),
                json.len() as u32,
            )
        }
    }

    fn download(&mut self, name: &str, mime: &str, bytes: &[u8]) {
        // SAFETY: as above.
        unsafe {
            juggler_download(
                name.as_ptr(),
                name.len() as u32,
                mime.as_ptr(),
                mime.len() as u32,
                bytes.as_ptr(),
                bytes.len() as u32,
            )
        }
    }

    fn video_frame(&mut self, index: usize, timestamp_us: f64, size: (u32, u32), rgba: &[u8]) {
        if rgba.len() == 4 * size.0 as usize * size.1 as usize {
            // SAFETY: as above; the page reads exactly width x height x 4 bytes.
            unsafe {
                juggler_video_frame(index as u32, timestamp_us, size.0, size.1, rgba.as_ptr())
            }
        }
    }

    fn video_backlog(&self) -> usize {
        // SAFETY: a plain call.
        unsafe { juggler_video_backlog() as usize }
    }

    fn set_address(&mut self, address: &str) {
        // SAFETY: as above.
        unsafe { juggler_set_address(address.as_ptr(), address.len() as u32) }
    }

    fn set_title(&mut self, title: &str) {
        // SAFETY: as above.
        unsafe { juggler_set_title(title.as_ptr(), title.len() as u32) }
    }
}

/// The next message from the page: `kind`, newline, payload.
fn next_message() -> Option<(String, String)> {
    // SAFETY: plain calls into the page's plugin; the buffer is exactly `len` bytes.
    let len = unsafe { juggler_message_len() };
    let len = usize::try_from(len).ok()?;
    let mut buf = vec![0u8; len];
    unsafe { juggler_message_take(buf.as_mut_ptr(), len as u32) };
    let text = String::from_utf8_lossy(&buf).into_owned();
    let (kind, payload) = text.split_once('\n').unwrap_or((&text, ""));
    Some((kind.to_string(), payload.to_string()))
}

/// The page's entry point (`main` of the wasm binary).
pub fn main() {
    std::panic::set_hook(Box::new(|info| {
        let text = std::ffi::CString::new(format!("juggler: {info}")).unwrap_or_default();
        // SAFETY: a NUL-terminated string that outlives the call.
        unsafe { console_error(text.as_ptr()) };
    }));
    let mut address = String::new();
    while let Some((kind, payload)) = next_message() {
        if kind == "query" {
            address = payload;
            break;
        }
    }
    let link = LinkQuery::parse(&address);
    let Startup {
        text,
        playing,
        animation,
        error,
    } = startup(&link);
    Page.set_title(&super::super::title::window_title(&animation.facts()));
    let front = Front::new(link, playing, error);
    let (loader, spec_loader) = front.loaders();
    FRONT.with(|f| *f.borrow_mut() = Some(front));
    let options = WindowOptions {
        title: "juggler".to_string(),
        text,
        animation,
        loader,
        spec_loader,
        script: Vec::new(),
        playlist: Vec::new(),
        mode: Mode::Interactive,
        size: super::super::DEFAULT_SIZE,
        msaa: 1,
        chrome: Chrome::Page,
    };
    let conf = macroquad::miniquad::conf::Conf {
        window_title: "juggler".to_string(),
        // The canvas has devicePixelRatio pixels to a CSS pixel (juggler.js caps their number
        // where drawing is done in software).
        high_dpi: true,
        ..Default::default()
    };
    macroquad::Window::from_config(conf, async move {
        let _ = main_loop(options).await;
    });
}

/// Called once per frame: the page's messages, then the front end's frame.
pub(in crate::app) fn frame(session: &mut Session, g: &Geometry) {
    FRONT.with(|f| {
        let mut front = f.borrow_mut();
        let Some(front) = front.as_mut() else {
            return;
        };
        let mut out = Page;
        while let Some((kind, payload)) = next_message() {
            match kind.as_str() {
                "file" => {
                    let (name, contents) = payload.split_once('\n').unwrap_or((&payload, ""));
                    front.open_file(session, name, contents);
                }
                "error" => {
                    let text = session.app.field.text().to_string();
                    session.app.load_failed(&text, payload, None);
                }
                "action" => {
                    let (name, value) = payload.split_once('\n').unwrap_or((&payload, ""));
                    match PageAction::parse(name, value) {
                        Ok(action) => front.act(session, g, action, &mut out),
                        Err(message) => {
                            let text = std::ffi::CString::new(format!("juggler: {message}"))
                                .unwrap_or_default();
                            // SAFETY: a NUL-terminated string that outlives the call.
                            unsafe { console_error(text.as_ptr()) };
                        }
                    }
                }
                _ => {}
            }
        }
        let now = macroquad::miniquad::date::now;
        let deadline = now() + WORK_SECONDS;
        front.frame(session, &now, deadline, &mut out);
    });
}
