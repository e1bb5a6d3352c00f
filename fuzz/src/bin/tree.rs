//! Fuzz target: `pixelhit_fuzz::tree` (see the crate's documentation), run by libFuzzer.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| pixelhit_fuzz::tree(data));
