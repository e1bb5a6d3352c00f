//! Whole numbers from floats without the library call.
//!
//! On x86-64's baseline (no SSE4.1) `f64::floor`, `ceil` and `round` are calls into libm,
//! about 20 instructions each, and the frame engine makes thousands of them a frame (a
//! pose's boxes and snapped corners, a pair's window, the plan's boxes). These give the
//! same integers from a truncation and a compare, for the magnitudes the callers work in.

/// `x.floor()` for `|x| < 2^63`: truncated, and one less when that went up (from 2^52 up
/// every float is whole and the truncation exact). NaN gives 0.
#[inline(always)]
pub(crate) fn floor_small(x: f64) -> i64 {
    let t = x as i64;
    t - i64::from(t as f64 > x)
}

/// `x.ceil()` for `|x| < 2^63`, as [`floor_small`].
#[inline(always)]
pub(crate) fn ceil_small(x: f64) -> i64 {
    let t = x as i64;
    t + i64::from((t as f64) < x)
}

/// `x.round()` (half away from zero) for `|x| < 2^63`: truncated, and moved one
/// away from zero when the part cut off is at least a half. Below 2^52 that part is exact
/// (`x` and its truncation share their leading bits); from 2^52 up every float is whole and
/// the part is zero. NaN gives 0.
#[inline(always)]
pub(crate) fn round_small(x: f64) -> i64 {
    let t = x as i64;
    let cut = x - t as f64;
    t + i64::from(cut >= 0.5) - i64::from(cut <= -0.5)
}

#[cfg(test)]
mod tests {
    use super::{ceil_small, floor_small, round_small};

    /// Against the library's own floor, ceil and round on halves, near-halves, whole
    /// numbers, and 20,000 random values of every magnitude below 2^63.
    #[test]
    fn floor_ceil_and_round_without_the_library_match_it() {
        let mut state = 0x3c6e_f372_fe94_f82b_u64;
        let mut values = vec![
            0.0,
            -0.0,
            0.5,
            -0.5,
            1.0,
            -1.0,
            1.5,
            -1.5,
            2.5,
            -2.5,
            0.49999999999999994,
            -0.49999999999999994,
            0.5000000000000001,
            1e15 + 0.5,
            -1e15 - 0.5,
            (1u64 << 52) as f64 - 0.5,
            -((1u64 << 52) as f64) + 0.5,
            (1u64 << 52) as f64 + 1.0,
            (1u64 << 53) as f64 - 1.0,
            (1u64 << 61) as f64,
            -((1u64 << 61) as f64),
            9.2e18,
            -9.2e18,
        ];
        for _ in 0..20_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let mag = f64::from((state % 63) as u32).exp2();
            let frac = (state >> 11) as f64 / (1u64 << 53) as f64;
            let x = (frac - 0.5) * 2.0 * mag;
            // And the nearest halves, where round turns.
            values.extend([x, x.trunc() + 0.5, x.trunc() - 0.5]);
        }
        for x in values {
            assert_eq!(floor_small(x), x.floor() as i64, "{x}");
            assert_eq!(ceil_small(x), x.ceil() as i64, "{x}");
            assert_eq!(round_small(x), x.round() as i64, "{x}");
        }
        assert_eq!(
            (floor_small(f64::NAN), ceil_small(f64::NAN), round_small(f64::NAN)),
            (0, 0, 0)
        );
    }
}
