//! What pixelhit's benchmarks and profiling tools share: the benchmark scenes and the
//! yardstick they are measured against (the ActionScript `getCollisionRect` done literally).
//!
//! A package of its own in the workspace, so that criterion and the tools stay out of the
//! library's dev-dependencies: `cargo test` and the demo never build them.

pub mod crowd;
pub mod flash;
pub mod scenes;
