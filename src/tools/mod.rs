//! Siteswap tools on top of `notation` and `schedule`: the pattern generator (`gen`), the
//! transition finder (`trans`), pattern analysis for `check` (`analysis`) and ladder/causal
//! diagrams as pure data and SVG text (`diagram`). Pure: no I/O.
//!
//! The generator and the transition finder work on solo asynchronous siteswaps, whose state is
//! a bit set (`State`): bit `k` set = a prop lands `k` beats from now.

pub mod analysis;
pub mod diagram;
// The generator searches on all cores (rayon): a command-line tool, not in the web build.
#[cfg(not(target_arch = "wasm32"))]
pub mod gen;
// Sync, multiplex and passing search and transitions build on `gen` (rayon): not on the web.
#[cfg(not(target_arch = "wasm32"))]
pub mod multi;
pub mod state;
pub mod trans;
#[cfg(not(target_arch = "wasm32"))]
pub mod trans_general;
