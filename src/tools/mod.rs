//! Siteswap tools on top of `notation` and `schedule`: the pattern generator (`gen`), the
//! transition finder (`trans`), pattern analysis for `check` (`analysis`) and ladder/causal
//! diagrams as pure data and SVG text (`diagram`). Pure: no I/O.
//!
//! Solo asynchronous siteswaps use a bit set as their state (`State`: bit `k` set = a prop lands
//! `k` beats from now; `gen`, `trans`); synchronous, multiplex and passing patterns use counts per
//! throwing place and beat (`multi`, `trans_general`).

pub mod analysis;
pub mod diagram;
// The generators search on all cores (rayon); in the web page rayon's pool is the page's one
// thread.
pub mod gen;
pub mod multi;
pub mod state;
pub mod trans;
pub mod trans_general;
