//! The method enums: which collision test to run, their names in files and on the command
//! line, and the error of a name that is none.

use std::fmt;
use std::str::FromStr;

use crate::methods::radial::RadialOptions;

/// How a collision test is done. [`Method::Exact`] is the default and the reference the
/// others are measured against.
///
/// Every method applies the same pixel rule (semantics.md, section 4): a pixel is solid when
/// its alpha in the parent's grid is at least `max(1, 255 - tolerance)`, and two targets
/// collide when some pixel is solid in both. The methods differ in how they look for such a
/// pixel, and the approximate ones in how often they are wrong:
///
/// | method | exact? | file name |
/// |---|---|---|
/// | [`Exact`](Method::Exact) | reference | `exact` |
/// | [`Bitmask`](Method::Bitmask) | yes | `bitmask` |
/// | [`LinearScan`](Method::LinearScan) | yes | `linear_scan` |
/// | [`IncrementalScan`](Method::IncrementalScan) | yes | `incremental_scan` |
/// | [`SummedArea`](Method::SummedArea) | yes | `summed_area` |
/// | [`Sampled`](Method::Sampled) | never a false hit, may miss | `sampled:N` |
/// | [`Radial`](Method::Radial) | no, both ways | `radial` |
/// | [`FlashPipeline`](Method::FlashPipeline) | close; `compat` reproduces Flash | `flash`, `flash_compat` |
///
/// With `precise = false` in the options every method answers from the bounds alone, as
/// [`Stage::collision`](crate::Stage::collision) does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Method {
    /// The default: both targets rasterized chunk by chunk and compared pixel by pixel
    /// ([`Stage::collision`](crate::Stage::collision)).
    #[default]
    Exact,
    /// Each target's alpha over the window turned into a bit mask (one bit per pixel, 64 per
    /// word), then compared a word at a time. Exact.
    Bitmask,
    /// Play My Code's per-pixel scan: both targets' whole alpha planes over the window,
    /// visited row by row until a pixel solid in both is found. Exact.
    LinearScan,
    /// Play My Code's incremental scan: like [`Method::LinearScan`], but the window is
    /// visited in steps of `ceil(size / 3)` in each direction first (about 3 x 3 pixels
    /// spread over it), then the offsets in between, so that a large overlap anywhere is
    /// found after a few probes. A dimension under 4 pixels is scanned with step 1. Every
    /// pixel is visited once in the end, so a miss costs what a linear scan costs. Exact.
    IncrementalScan,
    /// A summed-area table of each target's solid pixels: a rectangle's solid count is four
    /// lookups. Starting from the whole window, rectangles where either target has no solid
    /// pixel are rejected, a rectangle where one target is solid everywhere and the other
    /// somewhere is a hit, and the rest are halved along their longer side. Exact.
    SummedArea,
    /// The "n-distributed" test: only every `n`-th pixel of the window in each direction is
    /// tested, on a grid centred in the window. A sample counts only where both targets are
    /// solid, so a hit is always real; a collision between the samples is missed.
    ///
    /// Guards: `n = 0` is taken as 1 (every pixel); in a dimension where the window is not
    /// larger than `n`, the step is lowered to `size - 1` so that both ends of the window
    /// are still tested (a 1-pixel dimension has one sample).
    Sampled {
        /// Test every `n`-th pixel in each direction.
        n: u32,
    },
    /// The radial perimeter test ([`RadialProfile`](crate::RadialProfile)): each target described by the distance
    /// of its farthest solid pixel in N directions from a centre inside it, and two targets
    /// said to collide when the distance between their centres is at most the sum of their
    /// radii facing each other. Cheap once the profiles exist, approximate both ways: see
    /// [`RadialProfile`](crate::RadialProfile) for where it fails. Through [`Stage::collides`](crate::Stage::collides) the profiles are
    /// built on every call; keep them with [`Stage::radial_profile`](crate::Stage::radial_profile) to test in O(1).
    Radial(RadialOptions),
    /// Flash's `getCollisionRect` done literally with tiny-skia: an opaque black RGBA window
    /// over the intersection of the bounds, target A drawn red and target B white through a
    /// colour transform whose alpha offset is the tolerance, B with the Difference blend,
    /// then the bounds of the cyan pixels.
    ///
    /// With `compat = false` the pipeline follows pixelhit's semantics: the window is
    /// `floor(left)..ceil(right)` of the parent's grid, the tolerance offset is applied to
    /// each target's drawn alpha (so that the rule is pixelhit's), the targets' own colour
    /// transforms count, and a hit at the window's corner counts. It then differs from the
    /// exact method only where tiny-skia draws a pixel differently from the exact area
    /// (its anti-aliasing samples 4 x 4 points): slivers at grazing contacts.
    ///
    /// With `compat = true` it reproduces Flash's known quirks, for games ported from Flash
    /// that were tuned against them: the window is `ceil(width) x ceil(height)` pixels from
    /// `floor(left), floor(top)` of the bounds' intersection instead of reaching
    /// `ceil(right), ceil(bottom)` (it drops the last column when the fractions of the left
    /// edge and of the width add up to more than a pixel; only pixel-centre sampling,
    /// `anti_alias = false`, can have a solid pixel there), a lone hit at the window's
    /// top-left pixel is reported as no hit, the tolerance is added to each fill's
    /// and texel's alpha before edges are anti-aliased (a pixel counts when `alpha +
    /// tolerance >= 255`, and anti-aliased edge pixels never count), and the colour
    /// transforms of each target and of its ancestors below the parent are ignored
    /// (`BitmapData.draw` applies only the one it is given, and those inside the target).
    /// Because the tolerance is an offset applied after the multipliers inside the target,
    /// at tolerance 255 even a child made invisible by alpha 0 counts, as it did in Flash.
    FlashPipeline {
        /// Reproduce Flash's quirks (`flash_compat` in scene files).
        compat: bool,
    },
}

impl Method {
    /// Whether the method can give the overlap's rectangle, as
    /// [`Stage::collision_by`](crate::Stage::collision_by) and the scene's `collision_rect`
    /// query need: [`Method::Exact`], [`Method::Bitmask`], [`Method::LinearScan`],
    /// [`Method::SummedArea`] and [`Method::FlashPipeline`] can. The others
    /// ([`Method::IncrementalScan`], [`Method::Sampled`], [`Method::Radial`]) answer yes or
    /// no only: their point is to stop early or to look at less.
    ///
    /// ```
    /// use pixelhit::{Method, RadialOptions};
    /// assert!(Method::Bitmask.gives_rect());
    /// assert!(!Method::Radial(RadialOptions::default()).gives_rect());
    /// ```
    pub fn gives_rect(&self) -> bool {
        match self {
            Method::Exact
            | Method::Bitmask
            | Method::LinearScan
            | Method::SummedArea
            | Method::FlashPipeline { .. } => true,
            Method::IncrementalScan | Method::Sampled { .. } | Method::Radial(_) => false,
        }
    }
}

/// A method name that is not one of the names of [`Method`]'s `FromStr`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseMethodError {
    /// The text that was given.
    pub text: String,
    /// What is wrong with it, as the rest of the sentence after the text, e.g. `is not a
    /// method; the methods are ...`.
    pub reason: String,
}

impl fmt::Display for ParseMethodError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} {}", self.text, self.reason)
    }
}

impl std::error::Error for ParseMethodError {}

/// Why `sampled:N` with a bad N is refused.
const SAMPLED_N: &str = "is not a method: N of sampled:N is a whole number from 1 to 4294967295";

/// The method names of scene files, for messages.
pub(crate) const METHOD_NAMES: &str = "exact, bitmask, linear_scan, incremental_scan, summed_area, \
                                       sampled:N, radial, flash, flash_compat";

/// The error of a method name `text` that names a yes-or-no method where a rectangle is
/// wanted.
pub(crate) fn no_rectangle(text: &str) -> ParseMethodError {
    ParseMethodError {
        text: text.to_string(),
        reason: crate::error::NO_RECTANGLE.to_string(),
    }
}

impl FromStr for Method {
    type Err = ParseMethodError;

    /// Reads a scene file's method name: `exact`, `bitmask`, `linear_scan`,
    /// `incremental_scan`, `summed_area`, `sampled:N` (N a whole number from 1), `radial`
    /// (default [`RadialOptions`]), `flash`, `flash_compat`.
    ///
    /// # Errors
    ///
    /// [`ParseMethodError`] for any other text.
    ///
    /// ```
    /// use pixelhit::Method;
    /// assert_eq!("sampled:4".parse::<Method>(), Ok(Method::Sampled { n: 4 }));
    /// assert!("sampled:0".parse::<Method>().is_err());
    /// assert_eq!(Method::FlashPipeline { compat: true }.to_string(), "flash_compat");
    /// ```
    fn from_str(s: &str) -> std::result::Result<Method, ParseMethodError> {
        let err = |reason: String| ParseMethodError {
            text: s.to_string(),
            reason,
        };
        Ok(match s {
            "exact" => Method::Exact,
            "bitmask" => Method::Bitmask,
            "linear_scan" => Method::LinearScan,
            "incremental_scan" => Method::IncrementalScan,
            "summed_area" => Method::SummedArea,
            "radial" => Method::Radial(RadialOptions::default()),
            "flash" => Method::FlashPipeline { compat: false },
            "flash_compat" => Method::FlashPipeline { compat: true },
            _ => match s.strip_prefix("sampled:") {
                Some(n) if !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit()) => match n.parse::<u32>() {
                    Ok(n) if n >= 1 => Method::Sampled { n },
                    _ => return Err(err(SAMPLED_N.into())),
                },
                Some(_) => return Err(err(SAMPLED_N.into())),
                None => return Err(err(format!("is not a method; the methods are {METHOD_NAMES}"))),
            },
        })
    }
}

impl fmt::Display for Method {
    /// The scene file's name of the method. `Sampled { n: 0 }` is written `sampled:1` (what
    /// it does), and [`Method::Radial`] is written `radial` whatever its options.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Method::Exact => f.write_str("exact"),
            Method::Bitmask => f.write_str("bitmask"),
            Method::LinearScan => f.write_str("linear_scan"),
            Method::IncrementalScan => f.write_str("incremental_scan"),
            Method::SummedArea => f.write_str("summed_area"),
            Method::Sampled { n } => write!(f, "sampled:{}", (*n).max(1)),
            Method::Radial(_) => f.write_str("radial"),
            Method::FlashPipeline { compat: false } => f.write_str("flash"),
            Method::FlashPipeline { compat: true } => f.write_str("flash_compat"),
        }
    }
}
