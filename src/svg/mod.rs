//! SVG assets (cargo feature `svg`): an SVG file as a subtree of the display tree.
//!
//! ```
//! use pixelhit::Stage;
//! use pixelhit::svg::SvgDocument;
//!
//! let svg = r#"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40">
//!   <g id="ship" transform="translate(20 20) rotate(90)">
//!     <path d="M-10,-10 L10,0 L-10,10 Z" fill="teal"/>
//!   </g>
//! </svg>"#;
//! let doc = SvgDocument::from_str(svg)?;
//! let mut stage = Stage::new();
//! let root = stage.root();
//! let sprite = doc.add_to(&mut stage, root)?;
//! assert!(sprite.warnings.is_empty());
//! let ship = sprite.node("ship").expect("groups with an id are looked up by it");
//! // The triangle points down after the quarter turn: its tip is at (20, 30).
//! assert!(stage.hit_test_point(ship, 20.0, 29.0, true)?);
//! assert!(!stage.hit_test_point(ship, 29.0, 20.0, true)?);
//! # Ok::<(), pixelhit::Error>(())
//! ```
//!
//! # Why usvg, and what the mapping is
//!
//! SVG is a large format: CSS, `use` references, markers, nested viewports, units, basic
//! shapes, inherited attributes. usvg, the parser behind the resvg renderer, resolves all of
//! that into a small tree of groups (with a transform and an opacity), paths (with a fill and
//! a stroke) and images, which is almost exactly pixelhit's display tree. So this module does
//! not parse SVG; it maps usvg's tree onto nodes:
//!
//! | usvg (SVG) | pixelhit |
//! |---|---|
//! | group (`g`, `use`, a nested `svg`, or an element with its own `transform` or `opacity`) | container, with the group's matrix and its opacity as `alpha` |
//! | path (`path`, `rect`, `circle`, `ellipse`, `line`, `polyline`, `polygon`, markers) | a [`Graphic::fill`](crate::Graphic::fill) with its fill rule and fill opacity, and a [`Graphic::stroke`](crate::Graphic::stroke) with its width and stroke opacity, in the path's paint order |
//! | image: PNG, embedded (`data:`) or linked (relative to the SVG file) | bitmap node, smoothed unless `image-rendering` asks for speed or pixels |
//! | image: another SVG | its own subtree, the same way |
//!
//! Paint order is kept: a path drawn after a group goes into a container of its own after
//! that group, because a container draws its own graphics below its children. Colours are
//! not kept: pixelhit's tree holds coverage and alpha, which is all a collision depends on.
//! For the same reason a gradient whose stops all have one opacity is exact, and blend modes
//! (which change colours, not alpha) are ignored.
//!
//! Every group or path with an `id` gets its own node, found with [`SvgLoad::node`]; other
//! paths share their parent's node. Node names are not set, so that one file can be loaded
//! many times into one stage (and that stage saved as a scene file, whose names are unique).
//!
//! # What is not supported, and how you hear about it
//!
//! Whatever the tree cannot show as the file does is listed in [`SvgLoad::warnings`], one
//! [`SvgWarning`] per element and feature, saying what was done instead; nothing is dropped
//! silently. Loading still succeeds, because most of these change a shape's edge or opacity
//! a little, and refusing the file would leave a game with nothing to collide:
//!
//! - stroke joins other than round, where the path turns by more than 1 degree, and caps
//!   other than round on open subpaths: drawn round (pixelhit's strokes are round);
//! - dashes: drawn solid;
//! - a gradient whose stops have different opacities: drawn with the largest; a pattern:
//!   drawn as a solid fill with the fill's opacity;
//! - clip paths and masks become masks (a node beside the group, holding the region's
//!   shapes): a mask's luminance and opacity do not count, only its shapes' region, as in
//!   Flash; a clip path or mask of a clip path or mask, and a mask on a group that also has
//!   a clip path, are ignored;
//! - filters: ignored, the content is drawn unfiltered;
//! - group opacity: applied to each shape inside, as Flash applies `alpha`, where a browser
//!   applies it once to the group's picture; reported only when the group draws more than one
//!   shape (where they overlap they are more opaque than a browser shows them);
//! - `text` and `foreignObject` elements: not loaded (no fonts);
//! - images that are JPEG, GIF or WebP, that cannot be decoded, or linked files that cannot
//!   be read: not loaded; nor SVG images inside SVG images (one level of SVG images is
//!   loaded).
//!
//! Elements that are invalid for usvg itself (a zero-size rectangle, coordinates beyond f32,
//! a transform that scales to nothing) draw nothing in a browser either; usvg leaves them
//! out and so does the tree.
//!
//! Errors are for files that are not SVG at all: unreadable, not XML, not an `svg` root, no
//! usable size, more than a million elements, or nested more than 128 elements deep,
//! counting what `use` and `url(#…)` references bring in (usvg walks all of it recursively;
//! the limit keeps it from overflowing even a 2 MB thread stack in a debug build).
//!
//! # Precision
//!
//! usvg keeps coordinates and transforms in f32 (7 significant digits): values such as
//! `0.5`, `90` degree turns or whole numbers come through exactly; others are off by less
//! than a millionth of their size. Everything after that is f64, as in the rest of the crate.

//!
//! # The parts
//!
//! - `document`: [`SvgDocument`], a parsed file, and [`SvgLoad`], what adding it built.
//! - `limits`: the budgets a document is held to before usvg expands it.
//! - `build`: usvg's tree turned into nodes.
//! - `convert`: usvg's paths and transforms as pixelhit's.
//! - `warnings`: what is not loaded as the file shows it, and how elements are named.

pub(crate) mod build;
pub(crate) mod convert;
pub(crate) mod document;
pub(crate) mod limits;
pub(crate) mod warnings;

pub use document::{SvgDocument, SvgLoad, load_svg};
pub use limits::{SCENE_SVG_EXPANDED, SVG_CSS_MATCHES, SVG_EXPANDED, SVG_IMAGE_BYTES};
pub use warnings::{SvgFeature, SvgWarning};
