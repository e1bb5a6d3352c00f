//! What is not loaded as the file shows it ([`SvgWarning`], [`SvgFeature`]), and how
//! warnings name elements.

use std::fmt;

/// An SVG feature that pixelhit's display tree cannot show as the file does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SvgFeature {
    /// A miter or bevel join on a corner of a stroked path; drawn round.
    StrokeJoin,
    /// A butt or square cap on an open subpath of a stroked path; drawn round.
    StrokeCap,
    /// A dashed stroke; drawn solid.
    Dashes,
    /// A gradient whose stops have different opacities; drawn with the largest.
    GradientOpacity,
    /// A pattern fill or stroke; drawn solid with the paint's opacity.
    Pattern,
    /// A clip path of a clip path (or of a mask); ignored (the clip path itself masks).
    ClipPath,
    /// A mask on a group that also has a clip path, or a mask of a mask; ignored.
    Mask,
    /// A filter; ignored.
    Filter,
    /// Opacity on a group that draws more than one shape; applied to each shape.
    GroupOpacity,
    /// A `text` element; not loaded.
    Text,
    /// A `foreignObject` element; not loaded.
    ForeignObject,
    /// An image that is not PNG or SVG, cannot be decoded or read, or is an SVG image inside
    /// an SVG image; not loaded.
    Image,
}

/// One element that is not loaded as the file shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SvgWarning {
    /// What kind of difference this is.
    pub feature: SvgFeature,
    /// The element: `path #wing` when it has an id, otherwise its kind, box in the SVG's
    /// canvas and nearest ancestor with an id, e.g. `path at [10, 20, 5, 5] in #ship`, or
    /// its line for elements found in the XML (`text at line 7`).
    pub element: String,
    /// What the file asks for and what pixelhit does instead.
    pub detail: String,
}

impl fmt::Display for SvgWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.element, self.detail)
    }
}

/// How warnings name an element (see [`SvgWarning::element`]).
pub(super) fn element(kind: &str, id: &str, context: Option<&str>, bbox: Option<[f32; 4]>) -> String {
    if !id.is_empty() {
        return format!("{kind} #{id}");
    }
    let mut s = kind.to_string();
    if let Some(b) = bbox {
        let b = b.map(|v| num(f64::from(v)));
        s.push_str(&format!(" at [{}, {}, {}, {}]", b[0], b[1], b[2], b[3]));
    }
    if let Some(c) = context {
        s.push_str(&format!(" in #{c}"));
    }
    s
}

/// A number to one decimal, without a trailing `.0`.
pub(super) fn num(v: f64) -> String {
    let r = (v * 10.0).round() / 10.0;
    format!("{}", r + 0.0)
}
