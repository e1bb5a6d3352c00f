//! Fuzz target: `pixelhit_fuzz::png` (see the crate's documentation).

fn main() {
    afl::fuzz!(|data: &[u8]| pixelhit_fuzz::png(data));
}
