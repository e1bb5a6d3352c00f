//! How scene files and answer lines spell numbers, strings and rectangles.

use crate::Rect;

/// A number in the shortest form that reads back as the same f64: integers below 1e15
/// without a fraction (`10`, never `10.0` or `-0`), others as Rust's shortest round-trip
/// form (`0.1`, `1e300`, `1.5e-7`), which is valid JSON.
pub(super) fn fmt_num(v: f64) -> String {
    if !v.is_finite() {
        // Not produced by the library (rectangles and inputs are finite); JSON has no
        // spelling for it.
        return "null".into();
    }
    if v == v.trunc() && v.abs() < 1e15 {
        return format!("{}", v as i64);
    }
    format!("{v:?}")
}

/// A JSON string literal.
pub(super) fn json_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

pub(super) fn rect_json(r: Option<Rect>) -> String {
    match r {
        None => "null".into(),
        Some(r) => {
            let [x, y, w, h] = r.to_xywh();
            format!("[{}, {}, {}, {}]", fmt_num(x), fmt_num(y), fmt_num(w), fmt_num(h))
        }
    }
}
