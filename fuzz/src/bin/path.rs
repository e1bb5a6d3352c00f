//! Fuzz target: `pixelhit_fuzz::path` (see the crate's documentation).

fn main() {
    afl::fuzz!(|data: &[u8]| pixelhit_fuzz::path(data));
}
