//! A built-in 3 x 5 pixel font, so that a picture needs no font files.

use super::scene::fill_rect;
use tiny_skia::Pixmap;

/// Glyphs of a 3 x 5 pixel font, rows top to bottom, 3 bits each: digits, capitals and the
/// punctuation the legend uses. Lower case is drawn as capitals, anything else as `?`.
pub(super) const FONT: [(char, u16); 56] = [
    ('0', 0b111_101_101_101_111),
    ('1', 0b010_110_010_010_111),
    ('2', 0b111_001_111_100_111),
    ('3', 0b111_001_111_001_111),
    ('4', 0b101_101_111_001_001),
    ('5', 0b111_100_111_001_111),
    ('6', 0b111_100_111_101_111),
    ('7', 0b111_001_001_001_001),
    ('8', 0b111_101_111_101_111),
    ('9', 0b111_101_111_001_111),
    ('A', 0b010_101_111_101_101),
    ('B', 0b110_101_110_101_110),
    ('C', 0b011_100_100_100_011),
    ('D', 0b110_101_101_101_110),
    ('E', 0b111_100_110_100_111),
    ('F', 0b111_100_110_100_100),
    ('G', 0b011_100_101_101_011),
    ('H', 0b101_101_111_101_101),
    ('I', 0b111_010_010_010_111),
    ('J', 0b001_001_001_101_010),
    ('K', 0b101_101_110_101_101),
    ('L', 0b100_100_100_100_111),
    ('M', 0b101_111_111_101_101),
    ('N', 0b110_101_101_101_101),
    ('O', 0b010_101_101_101_010),
    ('P', 0b110_101_110_100_100),
    ('Q', 0b010_101_101_110_011),
    ('R', 0b110_101_110_101_101),
    ('S', 0b011_100_010_001_110),
    ('T', 0b111_010_010_010_010),
    ('U', 0b101_101_101_101_111),
    ('V', 0b101_101_101_101_010),
    ('W', 0b101_101_111_111_101),
    ('X', 0b101_101_010_101_101),
    ('Y', 0b101_101_010_010_010),
    ('Z', 0b111_001_010_100_111),
    (' ', 0),
    ('.', 0b000_000_000_000_010),
    (',', 0b000_000_000_010_100),
    (':', 0b000_010_000_010_000),
    ('(', 0b001_010_010_010_001),
    (')', 0b100_010_010_010_100),
    ('[', 0b011_010_010_010_011),
    (']', 0b110_010_010_010_110),
    ('-', 0b000_000_111_000_000),
    ('+', 0b000_010_111_010_000),
    ('/', 0b001_001_010_100_100),
    ('#', 0b101_111_101_111_101),
    ('_', 0b000_000_000_000_111),
    ('=', 0b000_111_000_111_000),
    ('"', 0b101_101_000_000_000),
    ('\'', 0b010_010_000_000_000),
    ('!', 0b010_010_010_000_010),
    ('<', 0b001_010_100_010_001),
    ('>', 0b100_010_001_010_100),
    ('?', 0b110_001_010_000_010),
];
/// Picture pixels per font pixel.
pub(super) const DOT: f32 = 2.0;
/// Width of one character cell (3 dots and a space).
pub(super) const ADVANCE: f32 = 4.0 * DOT;
/// Height of one legend row.
pub(super) const ROW: f32 = 16.0;
/// Side of a legend swatch.
pub(super) const SWATCH: f32 = 10.0;
pub(super) const INK: [u8; 3] = [30, 30, 30];

pub(super) fn glyph(ch: char) -> u16 {
    let ch = ch.to_ascii_uppercase();
    FONT.iter()
        .find(|(c, _)| *c == ch)
        .or_else(|| FONT.iter().find(|(c, _)| *c == '?'))
        .map_or(0, |(_, b)| *b)
}

/// Writes `s` with its top-left corner at `(x, y)`; returns the x after it.
pub(super) fn text(pm: &mut Pixmap, mut x: f32, y: f32, s: &str, rgb: [u8; 3]) -> f32 {
    for ch in s.chars() {
        let bits = glyph(ch);
        for k in 0..15 {
            if bits & (1 << (14 - k)) != 0 {
                let (col, row) = ((k % 3) as f32, (k / 3) as f32);
                fill_rect(pm, x + col * DOT, y + row * DOT, DOT, DOT, rgb, 1.0);
            }
        }
        x += ADVANCE;
    }
    x
}

pub(super) fn text_width(s: &str) -> f32 {
    s.chars().count() as f32 * ADVANCE
}
