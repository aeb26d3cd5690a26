//! The output side of pattern data: what a scene or pattern is written as (JSON of poses).
//! Readers of pattern files live in `files`; this module only writes.

pub mod pose;
