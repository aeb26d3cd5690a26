//! juggler: a juggling pattern animator.
//!
//! Pipeline, one module per stage, data flowing one way (see ARCHITECTURE.md):
//! `notation` (text -> AST) -> `schedule` (validity, throws) -> `motion` (hands and props at t)
//! -> `body` (arms, bodies) -> `scene` (all of it for one pattern) -> `render` (frame) ->
//! `render::raster` / `render::gl`, `export`. `files` loads pattern files into a `spec`;
//! `settings` is what every source builds besides the pattern (one table of keys, checked
//! where built) and `budget` the limits of everything that expands.
//! `app` is the interactive application (state, input, UI) drawing through `render::gl`.

pub mod app;
pub mod body;
pub mod budget;
pub mod convert;
pub mod export;
pub mod files;
pub mod layout;
pub mod motion;
pub mod notation;
pub mod render;
pub mod scene;
pub mod schedule;
pub mod settings;
pub mod spec;
pub mod text;
pub mod tools;
pub mod types;
