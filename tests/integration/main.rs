//! pixelhit's integration tests, one binary: each module below was a test file of its own,
//! and linking one binary instead of twelve takes a large part off the first `cargo test`.
//! `cargo test --test integration svg::` runs one module.
//!
//! `tests/no_alloc.rs` stays a binary of its own: it replaces the global allocator.

mod common;

mod bitmap_sampling;
mod cli;
mod crowd;
mod exactness;
mod fast_paths;
mod fill_kernel;
mod frame_engine;
mod fuzz_regressions;
mod game_api;
mod hostile;
mod hostile_budget;
mod interactivity;
mod interop;
mod methods;
mod motion;
mod outline;
mod planned_renderer;
mod properties;
mod pygame_bits;
mod pygame_renderer;
mod pygame_stage;
mod raster_check;
mod regions;
mod semantics;
mod span_scan;
mod svg;
