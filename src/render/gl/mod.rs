//! The macroquad back-end: draws a `Frame` onto the window (OpenGL / WebGL). `tessellate`
//! turns shapes into anti-aliased triangles (plain data, unit-tested), `draw` uploads them.
//! The application around it (state, input, UI) lives in `crate::app`.

pub(crate) mod draw;
pub(crate) mod tessellate;
