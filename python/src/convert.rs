//! Arguments in and answers out: rectangles (tuples, `pygame.Rect`, `FRect`), matrices,
//! tolerances, integers and buffers read without any exception but `PixelhitError`'s.

use ph::{DAffine2, DVec2, Rect};
use pixelhit as ph;
use pyo3::buffer::PyBuffer;
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyString};

use crate::errors::{argument_from, bad_argument, raise};

/// `(x, y, width, height)`.
pub(crate) type Xywh = (f64, f64, f64, f64);
/// `(a, b, c, d, tx, ty)`.
pub(crate) type Matrix = (f64, f64, f64, f64, f64, f64);
/// `(r_mult, g_mult, b_mult, a_mult, r_off, g_off, b_off, a_off)`.
pub(crate) type ColorTuple = (f64, f64, f64, f64, f64, f64, f64, f64);

/// A crate rectangle as `(x, y, width, height)`.
pub(crate) fn xywh(r: Rect) -> Xywh {
    (r.x(), r.y(), r.width(), r.height())
}

/// A point as `(x, y)`.
pub(crate) fn pair(p: DVec2) -> (f64, f64) {
    (p.x, p.y)
}

/// A matrix as `(a, b, c, d, tx, ty)`.
pub(crate) fn matrix_tuple(m: DAffine2) -> Matrix {
    let [a, b, c, d, tx, ty] = m.to_cols_array();
    (a, b, c, d, tx, ty)
}

/// The name of an object's type, for messages.
pub(crate) fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map_or_else(|_| "an object".to_string(), |n| n.to_string())
}

/// `n` numbers from any sequence (a tuple, a list, a numpy row, a `pygame.Rect`).
fn numbers<const N: usize>(obj: &Bound<'_, PyAny>, what: &str, form: &str) -> PyResult<[f64; N]> {
    let refuse = |got: String| bad_argument(format!("{what} is {form}, not {got}"));
    if obj.is_instance_of::<PyString>() {
        return Err(refuse("a str".into()));
    }
    let v: Vec<f64> = obj.extract().map_err(|_| refuse(type_name(obj)))?;
    <[f64; N]>::try_from(v.as_slice()).map_err(|_| refuse(format!("{} numbers", v.len())))
}

/// A rectangle `[x, y, width, height]` from a 4-sequence, a `pygame.Rect` or a
/// `pygame.FRect` (both are sequences of 4), or any object with `x`, `y`, `w`, `h`.
pub(crate) fn rect_of(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<[f64; 4]> {
    const FORM: &str = "(x, y, width, height), a pygame.Rect or a pygame.FRect";
    match numbers::<4>(obj, what, FORM) {
        Ok(r) => Ok(r),
        Err(e) => {
            let attr = |name: &str| obj.getattr(name).and_then(|v| v.extract::<f64>());
            match (attr("x"), attr("y"), attr("w"), attr("h")) {
                (Ok(x), Ok(y), Ok(w), Ok(h)) => Ok([x, y, w, h]),
                _ => Err(e),
            }
        }
    }
}

/// A matrix from 6 numbers `(a, b, c, d, tx, ty)`.
pub(crate) fn matrix_of(obj: &Bound<'_, PyAny>) -> PyResult<DAffine2> {
    let m = numbers::<6>(obj, "a matrix", "6 numbers (a, b, c, d, tx, ty)")?;
    Ok(DAffine2::from_cols_array(&m))
}

/// An 8-number colour transform.
pub(crate) fn color_of(obj: &Bound<'_, PyAny>) -> PyResult<ph::ColorTransform> {
    let [a, b, c, d, e, f, g, h] = numbers::<8>(
        obj,
        "a colour transform",
        "8 numbers (r_mult, g_mult, b_mult, a_mult, r_off, g_off, b_off, a_off)",
    )?;
    Ok(ph::ColorTransform::new([a, b, c, d], [e, f, g, h]))
}

/// A Python integer as an `i64`, or `None` when it is an integer too large for one;
/// anything that is not an integer is refused.
fn int_of(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Option<i64>> {
    if !obj.is_instance_of::<PyInt>() {
        return Err(bad_argument(format!(
            "{what} is an integer, not {}",
            type_name(obj)
        )));
    }
    Ok(obj.extract::<i64>().ok())
}

/// An integer in `lo..=hi`, refused with the crate's out-of-range message otherwise (also
/// when it is too large for 64 bits).
pub(crate) fn int_in(
    obj: &Bound<'_, PyAny>,
    what: &str,
    lo: i64,
    hi: i64,
    range: &'static str,
) -> PyResult<i64> {
    match int_of(obj, what)? {
        Some(v) if (lo..=hi).contains(&v) => Ok(v),
        v => Err(raise(ph::Error::OutOfRange {
            what: what.to_string(),
            value: v.map_or_else(|| obj.extract::<f64>().unwrap_or(f64::INFINITY), |v| v as f64),
            range,
        })),
    }
}

/// A tolerance or alpha level: 0..=255.
pub(crate) fn level(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<u8> {
    Ok(int_in(obj, what, 0, 255, "0..=255")? as u8)
}

/// A child index or a count: 0 up to `u32::MAX` (no tree holds more nodes).
pub(crate) fn index(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<usize> {
    Ok(int_in(obj, what, 0, i64::from(u32::MAX), "0..=4294967295")? as usize)
}

/// A fill rule by name: `"nonzero"` or `"evenodd"` (case, `-` and `_` ignored).
pub(crate) fn fill_rule(name: &str) -> PyResult<ph::FillRule> {
    match name.to_ascii_lowercase().replace(['-', '_'], "").as_str() {
        "nonzero" => Ok(ph::FillRule::NonZero),
        "evenodd" => Ok(ph::FillRule::EvenOdd),
        _ => Err(bad_argument(format!(
            "fill_rule is {name:?}, not \"nonzero\" or \"evenodd\""
        ))),
    }
}

/// A fill rule's name.
pub(crate) fn fill_rule_name(rule: ph::FillRule) -> &'static str {
    match rule {
        ph::FillRule::EvenOdd => "evenodd",
        _ => "nonzero",
    }
}

/// A buffer of unsigned bytes (`bytes`, `bytearray`, `memoryview`, a numpy `uint8` array),
/// not yet copied; a buffer of another item type is an `ArgumentError`.
pub(crate) fn byte_buffer(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<PyBuffer<u8>> {
    PyBuffer::<u8>::get(obj)
        .map_err(|e| argument_from(&format!("{what} is not a buffer of unsigned bytes"), e))
}

/// The bytes of a buffer in C order, after checking that it holds `expected` of them (a
/// buffer that declares more, such as a numpy view with zero strides, is refused before
/// anything is copied).
pub(crate) fn copy_exact(
    obj: &Bound<'_, PyAny>,
    buf: &PyBuffer<u8>,
    expected: u64,
    what: &str,
) -> PyResult<Vec<u8>> {
    let declared = buf.item_count() as u64;
    if declared != expected {
        return Err(bad_argument(format!(
            "{what} holds {declared} bytes, not the {expected} its size needs"
        )));
    }
    buf.to_vec(obj.py()).map_err(|e| argument_from(what, e))
}

/// A child index, frame index or count argument, 0 or more: a negative or huge value is an
/// `ArgumentError` (not an `OverflowError`).
#[derive(Clone, Copy)]
pub(crate) struct Index(pub(crate) usize);

impl<'a, 'py> FromPyObject<'a, 'py> for Index {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        index(&obj, "an index").map(Index)
    }
}

/// An index argument as [`Index`] checks it, for `#[pyo3(from_py_with = index_arg)]` (a
/// default Python's signature shows, as for `max_tests_arg`).
pub(crate) fn index_arg(obj: &Bound<'_, PyAny>) -> PyResult<usize> {
    index(obj, "an index")
}

/// A motion query's `max_tests`, 0 up to 2^63 - 1: a negative or huge value is an
/// `ArgumentError` (not an `OverflowError`). A parameter's converter
/// (`#[pyo3(from_py_with = max_tests_arg)]`), so that the parameter's default is a plain
/// number that Python's signature shows (a default of a wrapper type shows as `...`).
pub(crate) fn max_tests_arg(obj: &Bound<'_, PyAny>) -> PyResult<u64> {
    Ok(int_in(obj, "max_tests", 0, i64::MAX, "0..=9223372036854775807")? as u64)
}

/// A query's `tolerance`, 0..=255: any other value, however large, is an `ArgumentError`
/// (not an `OverflowError`). For `#[pyo3(from_py_with = tolerance_arg)]`, as `max_tests_arg`.
pub(crate) fn tolerance_arg(obj: &Bound<'_, PyAny>) -> PyResult<u8> {
    level(obj, "tolerance")
}

/// A point or vector `(x, y)` from any sequence of 2 numbers (a tuple, a `pygame.Vector2`).
pub(crate) fn point_of(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<DVec2> {
    let [x, y] = numbers::<2>(obj, what, "(x, y)")?;
    Ok(DVec2::new(x, y))
}
