//! juggler: a juggling pattern animator.
//!
//! Pipeline, one module per stage, data flowing one way (see ARCHITECTURE.md):
//! `notation` (text -> AST) -> `schedule` (validity, throws) -> `motion` (hands and props at t)
//! -> `body` (arms, bodies) -> `scene` (all of it for one pattern) -> `render` (frame) ->
//! `render::raster` / `render::gl`, `export`. `files` loads pattern files into a `spec`;
//! `settings` is what every source builds besides the pattern (one table of keys, checked
//! where built) and `budget` the limits of everything that expands.
//! `app` is the interactive application (state, input, UI) drawing through `render::gl`.
//!
//! From text to a pose, the way every front end does it:
//!
//! ```
//! use juggler::scene::Scene;
//! use juggler::spec::PatternSpec;
//!
//! // A siteswap with Juggling Lab settings: 5 beats per second.
//! let spec = PatternSpec::parse("pattern=531;bps=5").unwrap();
//! let scene = Scene::new(&spec).unwrap();
//! assert_eq!((scene.jugglers(), scene.props()), (1, 3));
//! // One period of 531 is 3 beats; both hands throw in turn, so the pattern repeats after
//! // 6 beats: 1.2 s at 5 beats per second.
//! assert!((scene.loop_duration() - 1.2).abs() < 1e-9);
//!
//! // Where everything is a quarter of a second in: every prop is in a hand or in the air,
//! // every held prop sits at its hand.
//! let pose = scene.pose_at(0.25);
//! assert_eq!(pose.props.len(), 3);
//! for prop in &pose.props {
//!     assert!(prop.position.is_finite());
//!     if let Some(hand) = prop.held_by {
//!         let arm = &pose.jugglers[hand.juggler].arms[hand.hand.index()];
//!         assert!(prop.position.distance(arm.hand) < 0.15);
//!     }
//! }
//!
//! // A bad siteswap is an error that says where: 532 does not average to a whole number.
//! let bad = Scene::new(&PatternSpec::from_notation("532"));
//! assert!(bad.unwrap_err().to_string().contains("average"));
//! ```

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
pub mod sound;
pub mod spec;
pub mod text;
pub mod tools;
pub mod types;
