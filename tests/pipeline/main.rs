//! Tests of the library's stages together, over the shipped library, the shared vectors and
//! Juggling Lab files: one test binary, a module per area.

mod common;
mod contacts;

mod body_properties;
mod files_import;
mod files_library;
mod fuzz_regressions;
mod invariants;
mod jml_events;
mod motion_realism;
mod passing;
mod pose_golden;
mod stage_order;
mod vectors;
