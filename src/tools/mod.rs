//! Siteswap tools on top of `notation` and `schedule`: the pattern generator (`gen`), the
//! transition finder (`trans`), pattern analysis for `check` (`analysis`) and ladder/causal
//! diagrams as pure data and SVG text (`diagram`). Pure: no I/O.
//!
//! The generator and the transition finder work on solo asynchronous siteswaps, whose state is
//! a bit set (`State`): bit `k` set = a prop lands `k` beats from now.

pub mod analysis;
pub mod diagram;
// The generators search on all cores (rayon): command-line tools, not in the web build
// (nor the general transitions, which build on the generator's query).
#[cfg(not(target_arch = "wasm32"))]
pub mod gen;
#[cfg(not(target_arch = "wasm32"))]
pub mod multi;
pub mod state;
pub mod trans;
#[cfg(not(target_arch = "wasm32"))]
pub mod trans_general;
