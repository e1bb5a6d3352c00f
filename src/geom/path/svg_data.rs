//! SVG path data: parsed into a path with error offsets, and written back exactly.

use std::fmt::Write as _;

use glam::DVec2;

use super::{Path, Verb};
use crate::error::Error;

impl Path {
    /// Parses SVG path data: `M L H V C S Q T A Z`, upper case (absolute) and lower case
    /// (relative), implicit repeated commands, numbers like `1e-3` or `-.5.5`, arc flags
    /// written without separators, commas or whitespace between numbers.
    ///
    /// Arcs become cubic Béziers within 1e-9 of the radius; an arc with a zero radius is a
    /// straight line and one that ends where it starts is left out, as SVG says. An empty or
    /// blank string is an empty path.
    ///
    /// Errors: [`Error::PathData`] with the byte offset of an unknown command, a missing
    /// number or flag, a number that is not finite (including coordinates that overflow when
    /// relative offsets are added up), or data that does not start with `M`/`m`.
    ///
    /// ```
    /// use pixelhit::Path;
    /// let p = Path::from_svg("M0 0 h10 v10 h-10 z").unwrap();
    /// assert_eq!(p, pixelhit::Path::rect(0.0, 0.0, 10.0, 10.0));
    /// assert!(Path::from_svg("L1 1").is_err());
    /// ```
    pub fn from_svg(data: &str) -> crate::Result<Path> {
        Parser {
            s: data,
            b: data.as_bytes(),
            i: 0,
        }
        .run()
    }

    /// SVG path data for this path using only absolute `M L Q C Z` and the shortest
    /// decimal form of every number, so that [`Path::from_svg`] gives back an equal path.
    /// (Non-finite coordinates print as `NaN`/`inf`, which do not parse.)
    pub fn to_svg(&self) -> String {
        let mut s = String::new();
        let mut pts = self.points.iter();
        for verb in &self.verbs {
            let (letter, count) = match verb {
                Verb::Move => ('M', 1),
                Verb::Line => ('L', 1),
                Verb::Quad => ('Q', 2),
                Verb::Cubic => ('C', 3),
                Verb::Close => ('Z', 0),
            };
            if !s.is_empty() {
                s.push(' ');
            }
            s.push(letter);
            for k in 0..count {
                let Some(p) = pts.next() else { break };
                if k > 0 {
                    s.push(' ');
                }
                push_number(&mut s, p.x);
                s.push(' ');
                push_number(&mut s, p.y);
            }
        }
        s
    }
}

/// Appends `v` in its shortest round-trip decimal form, choosing between plain and
/// exponent notation by length (1e300 should not print 300 zeros).
pub(super) fn push_number(s: &mut String, v: f64) {
    let start = s.len();
    // Writing to a String cannot fail.
    let _ = write!(s, "{v}");
    // Exponent notation can only be shorter when the plain form pads with zeros.
    let plain_len = s.len() - start;
    if plain_len > 3 && s.get(start..).is_some_and(|t| t.contains("00")) {
        let exp = format!("{v:e}");
        if exp.len() < plain_len {
            s.truncate(start);
            s.push_str(&exp);
        }
    }
}

/// A single-pass parser over the bytes of SVG path data. Every step advances at least one
/// byte or returns, so parsing is linear and cannot loop.
struct Parser<'a> {
    s: &'a str,
    b: &'a [u8],
    i: usize,
}

fn is_wsp(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c')
}

impl Parser<'_> {
    fn err(&self, offset: usize, reason: impl Into<String>) -> Error {
        Error::PathData {
            offset,
            reason: reason.into(),
        }
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn skip_wsp(&mut self) {
        while self.peek().is_some_and(is_wsp) {
            self.i += 1;
        }
    }

    fn skip_comma_wsp(&mut self) {
        self.skip_wsp();
        if self.peek() == Some(b',') {
            self.i += 1;
            self.skip_wsp();
        }
    }

    fn skip_digits(&mut self) -> bool {
        let from = self.i;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
        }
        self.i > from
    }

    fn number(&mut self) -> crate::Result<f64> {
        self.skip_wsp();
        let start = self.i;
        if matches!(self.peek(), Some(b'+' | b'-')) {
            self.i += 1;
        }
        let int = self.skip_digits();
        let mut frac = false;
        if self.peek() == Some(b'.') {
            self.i += 1;
            frac = self.skip_digits();
        }
        if !int && !frac {
            self.i = start;
            return Err(self.err(start, "expected a number"));
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            let mark = self.i;
            self.i += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.i += 1;
            }
            if !self.skip_digits() {
                // Not an exponent after all ("1em" is a number and an unknown command).
                self.i = mark;
            }
        }
        let text = self.s.get(start..self.i).unwrap_or("");
        let v: f64 = text
            .parse()
            .map_err(|_| self.err(start, format!("cannot read number {text:?}")))?;
        if !v.is_finite() {
            return Err(self.err(start, format!("number {text} is not finite")));
        }
        self.skip_comma_wsp();
        Ok(v)
    }

    fn flag(&mut self) -> crate::Result<bool> {
        self.skip_wsp();
        let v = match self.peek() {
            Some(b'0') => false,
            Some(b'1') => true,
            _ => return Err(self.err(self.i, "expected an arc flag (0 or 1)")),
        };
        self.i += 1;
        self.skip_comma_wsp();
        Ok(v)
    }

    fn pair(&mut self) -> crate::Result<DVec2> {
        let x = self.number()?;
        let y = self.number()?;
        Ok(DVec2::new(x, y))
    }

    fn at_number(&self) -> bool {
        matches!(self.peek(), Some(b'0'..=b'9' | b'+' | b'-' | b'.'))
    }

    fn run(mut self) -> crate::Result<Path> {
        let mut path = Path::new();
        let mut prev: Option<u8> = None;
        // Second control point of the last C/S, control point of the last Q/T, for the
        // reflections of S and T; any other command clears them.
        let mut last_cubic: Option<DVec2> = None;
        let mut last_quad: Option<DVec2> = None;
        loop {
            self.skip_wsp();
            let Some(c) = self.peek() else { break };
            let cmd_at = self.i;
            let cmd = if c.is_ascii_alphabetic() {
                if !b"MmLlHhVvCcSsQqTtAaZz".contains(&c) {
                    return Err(self.err(cmd_at, format!("unknown command {:?}", c as char)));
                }
                self.i += 1;
                c
            } else if self.at_number() && prev.is_some_and(|p| !matches!(p, b'Z' | b'z')) {
                match prev {
                    Some(b'M') => b'L',
                    Some(b'm') => b'l',
                    Some(p) => p,
                    None => b'L',
                }
            } else if prev.is_none() {
                return Err(self.err(cmd_at, "path data must start with M or m"));
            } else {
                let ch = self.s.get(cmd_at..).and_then(|s| s.chars().next());
                return Err(self.err(
                    cmd_at,
                    format!("expected a command, found {:?}", ch.unwrap_or('?')),
                ));
            };
            if prev.is_none() && !matches!(cmd, b'M' | b'm') {
                return Err(self.err(cmd_at, "path data must start with M or m"));
            }
            prev = Some(cmd);
            self.skip_wsp();
            let args_at = self.i;
            let rel = cmd.is_ascii_lowercase();
            let cur = path.current;
            let base = if rel { cur } else { DVec2::ZERO };
            let overflow = |p: &Parser| p.err(args_at, "coordinate is not finite (overflow)");
            let (cubic, quad) = match cmd.to_ascii_uppercase() {
                b'M' => {
                    let p = base + self.pair()?;
                    if !p.is_finite() {
                        return Err(overflow(&self));
                    }
                    path.move_to(p.x, p.y);
                    (None, None)
                }
                b'L' => {
                    let p = base + self.pair()?;
                    if !p.is_finite() {
                        return Err(overflow(&self));
                    }
                    path.line_to_p(p);
                    (None, None)
                }
                b'H' => {
                    let x = base.x + self.number()?;
                    if !x.is_finite() {
                        return Err(overflow(&self));
                    }
                    path.line_to(x, cur.y);
                    (None, None)
                }
                b'V' => {
                    let y = base.y + self.number()?;
                    if !y.is_finite() {
                        return Err(overflow(&self));
                    }
                    path.line_to(cur.x, y);
                    (None, None)
                }
                b'C' | b'S' => {
                    let c1 = if cmd.eq_ignore_ascii_case(&b'C') {
                        base + self.pair()?
                    } else {
                        last_cubic.map_or(cur, |k| cur * 2.0 - k)
                    };
                    let c2 = base + self.pair()?;
                    let p = base + self.pair()?;
                    if !(c1.is_finite() && c2.is_finite() && p.is_finite()) {
                        return Err(overflow(&self));
                    }
                    path.cubic_to_p(c1, c2, p);
                    (Some(c2), None)
                }
                b'Q' | b'T' => {
                    let c1 = if cmd.eq_ignore_ascii_case(&b'Q') {
                        base + self.pair()?
                    } else {
                        last_quad.map_or(cur, |k| cur * 2.0 - k)
                    };
                    let p = base + self.pair()?;
                    if !(c1.is_finite() && p.is_finite()) {
                        return Err(overflow(&self));
                    }
                    path.quad_to(c1.x, c1.y, p.x, p.y);
                    (None, Some(c1))
                }
                b'A' => {
                    let rx = self.number()?;
                    let ry = self.number()?;
                    let rot = self.number()?;
                    let large = self.flag()?;
                    let sweep = self.flag()?;
                    let p = base + self.pair()?;
                    if !p.is_finite() {
                        return Err(overflow(&self));
                    }
                    path.svg_arc(rx, ry, rot, large, sweep, p);
                    (None, None)
                }
                _ => {
                    path.close();
                    (None, None)
                }
            };
            last_cubic = cubic;
            last_quad = quad;
        }
        Ok(path)
    }
}
