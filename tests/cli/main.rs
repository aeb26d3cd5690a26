//! End-to-end tests of the `juggler` binary: one test binary (one link of the crate), a module
//! per command or area. Window tests run the binary on a display (Xvfb under scripts/test.sh).

mod window_support;

mod check;
mod export;
mod export_formats;
mod files;
mod hardening;
mod learn;
mod passing;
mod pose;
mod soak;
mod tools;
mod window_matches_export;
mod window_no_display;
mod window_panels;
mod window_screenshot;
