//! The exception hierarchy: every refusal is a `PixelhitError` subclass, named by what was
//! refused, with the crate's message and its variant as `kind`.
//!
//! ```text
//! PixelhitError (ValueError)
//! ├── NodeError      a removed or foreign node, not a descendant, a cycle, a bad child index,
//! │                  a node with skew in a motion...
//! ├── ArgumentError  a number out of range or not finite, a wrong shape, dtype or length
//! ├── DataError      path data, an image, a file, an SVG document that cannot be read
//! ├── BudgetError    a query or a file over its pixel, work, geometry or motion budget
//! └── BusyError      the stage is being changed or queried by another thread
//! ```

use pixelhit as ph;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

pyo3::create_exception!(
    pixelhit,
    PixelhitError,
    PyValueError,
    "A call that pixelhit refuses. Every refusal raises a subclass: NodeError, \
     ArgumentError, DataError, BudgetError or BusyError. The message is the Rust crate's \
     `Error` as it prints; `kind` names its variant (`\"StaleNode\"`, `\"PathData\"`, ...), \
     `\"Argument\"` for arguments refused before they reach the crate, `\"Busy\"` for a \
     stage in use by another thread."
);
pyo3::create_exception!(
    pixelhit,
    NodeError,
    PixelhitError,
    "A node refused: removed, of another stage, outside the query's parent, a cycle, the \
     root where it cannot go, a child index out of range, a bitmap where a container goes, \
     a node with skew in a motion query (only x, y, rotation and scales can move)..."
);
pyo3::create_exception!(
    pixelhit,
    ArgumentError,
    PixelhitError,
    "A value refused: out of range, not finite, a singular matrix, a buffer of the wrong \
     shape, dtype or length, a name that means nothing."
);
pyo3::create_exception!(
    pixelhit,
    DataError,
    PixelhitError,
    "Data that cannot be read: SVG path data (with its byte offset), an image, a file, a \
     scene or an SVG document."
);
pyo3::create_exception!(
    pixelhit,
    BudgetError,
    PixelhitError,
    "A query or a file over its budget of pixels, work, geometry or tested poses (a motion \
     query's max_tests): refused before the memory or time is spent."
);
pyo3::create_exception!(
    pixelhit,
    BusyError,
    PixelhitError,
    "The stage is in use by another thread: a change while a query runs (or a query while \
     a change runs). Nothing was changed; try again when the other call is done."
);

/// Every exception class, for the module to export.
pub(crate) fn add_classes(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("PixelhitError", py.get_type::<PixelhitError>())?;
    m.add("NodeError", py.get_type::<NodeError>())?;
    m.add("ArgumentError", py.get_type::<ArgumentError>())?;
    m.add("DataError", py.get_type::<DataError>())?;
    m.add("BudgetError", py.get_type::<BudgetError>())?;
    m.add("BusyError", py.get_type::<BusyError>())?;
    Ok(())
}

/// The Python exception for a crate error: the subclass of its variant, its message, and
/// the variant's name as `kind`.
pub(crate) fn raise(e: ph::Error) -> PyErr {
    let debug = format!("{e:?}");
    let kind: String = debug.chars().take_while(|c| c.is_alphanumeric()).collect();
    let message = e.to_string();
    let err = match e {
        ph::Error::StaleNode { .. }
        | ph::Error::ForeignNode { .. }
        | ph::Error::NotDescendant { .. }
        | ph::Error::Cycle { .. }
        | ph::Error::Root
        | ph::Error::ChildIndex { .. }
        | ph::Error::NotChild { .. }
        | ph::Error::NotContainer { .. }
        | ph::Error::Mask { .. }
        | ph::Error::NotInteractive { .. }
        | ph::Error::NotBitmap { .. }
        | ph::Error::RendererPlacement { .. }
        | ph::Error::Skew { .. } => NodeError::new_err(message),
        ph::Error::PathData { .. }
        | ph::Error::Image { .. }
        | ph::Error::Io { .. }
        | ph::Error::Scene { .. } => DataError::new_err(message),
        ph::Error::GeometryBudget { .. }
        | ph::Error::WorkBudget { .. }
        | ph::Error::PixelBudget { .. }
        | ph::Error::MotionBudget { .. } => BudgetError::new_err(message),
        // NonFinite, Singular, OutOfRange, and any variant added later.
        _ => ArgumentError::new_err(message),
    };
    with_kind(err, &kind)
}

/// `err` with its `kind` attribute set.
fn with_kind(err: PyErr, kind: &str) -> PyErr {
    Python::attach(|py| {
        // Setting an attribute on a fresh exception instance cannot fail in practice; if it
        // did, the error is still raised, without `kind`.
        let _ = err.value(py).setattr("kind", kind);
        err
    })
}

/// An `ArgumentError` for an argument refused here, before it reaches the crate.
pub(crate) fn bad_argument(message: String) -> PyErr {
    with_kind(ArgumentError::new_err(message), "Argument")
}

/// A `BusyError`: the stage is borrowed the other way by another thread.
pub(crate) fn busy(wanted: &str) -> PyErr {
    with_kind(
        BusyError::new_err(format!(
            "the stage is in use by another thread (this call {wanted} it): nothing was done"
        )),
        "Busy",
    )
}

/// An `ArgumentError` for a Python exception raised while reading an argument (a buffer of
/// the wrong dtype, an integer that does not fit): `what` and Python's own message.
pub(crate) fn argument_from(what: &str, e: PyErr) -> PyErr {
    let text = Python::attach(|py| e.value(py).to_string());
    bad_argument(format!("{what}: {text}"))
}

/// `?` on a crate result raises the matching `PixelhitError` subclass.
pub(crate) trait OrRaise<T> {
    /// The value, or the crate's error as a Python exception.
    fn or_raise(self) -> PyResult<T>;
}

impl<T> OrRaise<T> for ph::Result<T> {
    fn or_raise(self) -> PyResult<T> {
        self.map_err(raise)
    }
}

/// Warns that a deprecated call was made (a `DeprecationWarning` pointing at the caller's
/// line); raises instead when the warnings filter turns it into an error.
pub(crate) fn warn_renamed(py: Python<'_>, message: &std::ffi::CStr) -> PyResult<()> {
    let category = py.get_type::<pyo3::exceptions::PyDeprecationWarning>();
    PyErr::warn(py, category.as_any(), message, 1)
}
