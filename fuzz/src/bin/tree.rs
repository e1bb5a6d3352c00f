//! Fuzz target: `pixelhit_fuzz::tree` (see the crate's documentation).

fn main() {
    afl::fuzz!(|data: &[u8]| pixelhit_fuzz::tree(data));
}
