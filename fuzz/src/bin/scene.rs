//! Fuzz target: `pixelhit_fuzz::scene` (see the crate's documentation).

fn main() {
    afl::fuzz!(|data: &[u8]| pixelhit_fuzz::scene(data));
}
