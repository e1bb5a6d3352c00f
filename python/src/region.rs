//! `Bitmap.region`: a rectangle of a bitmap that shares its pixels (a frame of a sprite
//! sheet), so that frames of one sheet share its texels and what queries derive from them.

use pixelhit as ph;
use pyo3::prelude::*;

use crate::convert::int_in;
use crate::errors::OrRaise;

/// [`ph::Bitmap::region`] with Python integers: each in `0..=4294967295` (the crate's
/// out-of-range error otherwise), then the crate's checks (inside the bitmap, not empty).
pub(crate) fn region(
    bitmap: &ph::Bitmap,
    x: &Bound<'_, PyAny>,
    y: &Bound<'_, PyAny>,
    width: &Bound<'_, PyAny>,
    height: &Bound<'_, PyAny>,
) -> PyResult<ph::Bitmap> {
    let mut v = [0u32; 4];
    for (slot, (obj, what)) in v.iter_mut().zip([
        (x, "region x"),
        (y, "region y"),
        (width, "region width"),
        (height, "region height"),
    ]) {
        *slot = int_in(obj, what, 0, i64::from(u32::MAX), "0..=4294967295")? as u32;
    }
    let [x, y, w, h] = v;
    bitmap.region(x, y, w, h).or_raise()
}
