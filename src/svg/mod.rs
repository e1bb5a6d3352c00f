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
//! | path (`path`, `rect`, `circle`, `ellipse`, `line`, `polyline`, `polygon`, markers) | a [`Graphic::fill`] with its fill rule and fill opacity, and a [`Graphic::stroke`] with its width and stroke opacity, in the path's paint order |
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

use std::collections::HashMap;
use std::fmt;
use std::path::Path as FsPath;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use glam::DAffine2;
use usvg::tiny_skia_path::{self, PathSegment, Point};
use usvg::{ImageHrefResolver, ImageKind, ImageRendering, Node, Paint, roxmltree};

use crate::{Bitmap, Error, FillRule, Graphic, ImageLimits, NodeId, Path, Result, Stage};

/// Deepest element nesting accepted (see the module docs).
const MAX_DEPTH: usize = 128;

/// The most one document may grow to once usvg has expanded it, counted before usvg runs
/// as elements plus path points, with every `use` and every marker instance (a marker is
/// drawn at each vertex of the path that names it) counted again, and the SVG images it
/// shows counted with it. A 157 KB file of markers took over 6 GB, and an image of an SVG
/// per element 918 MB; past this budget a document is refused (a nested SVG image is not
/// loaded, with a warning).
pub const SVG_EXPANDED: u64 = 1 << 22;

/// The most all the SVG objects of one scene file may add together, by the same count
/// (a document shown by 16 objects counts 16 times): 16 references to one file took 1.9 GB.
pub const SCENE_SVG_EXPANDED: u64 = 1 << 24;

/// The most CSS work a document may ask of usvg, as style rules times elements (each rule
/// is matched against each element): 1.5 MB of rules and elements took 30 s.
pub const SVG_CSS_MATCHES: u64 = 1 << 24;

/// Joins where a path turns by less than this (radians, 1 degree) look the same with every
/// join style: the styles differ there by less than 1/10000 of the stroke width.
const SMOOTH_TURN: f64 = std::f64::consts::PI / 180.0;

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

/// What [`SvgDocument::add_to`] (or [`load_svg`]) built.
#[derive(Clone, Debug, PartialEq)]
pub struct SvgLoad {
    /// The container holding the SVG's content, added as the last child of the parent given;
    /// its local space is the SVG's canvas (the `width` x `height` viewport, y down).
    pub root: NodeId,
    /// Everything not loaded as the file shows it, in document order (see the module docs).
    pub warnings: Vec<SvgWarning>,
    ids: Vec<(String, NodeId)>,
}

impl SvgLoad {
    /// The node made for the group, path or image with this SVG `id` (the first one, if the
    /// file repeats it, e.g. through `use`).
    pub fn node(&self, id: &str) -> Option<NodeId> {
        self.ids.iter().find(|(k, _)| k == id).map(|(_, n)| *n)
    }

    /// Every SVG id that got a node, in the order they were found.
    pub fn ids(&self) -> impl Iterator<Item = (&str, NodeId)> {
        self.ids.iter().map(|(k, n)| (k.as_str(), *n))
    }
}

/// A parsed SVG file, ready to be added to stages any number of times.
///
/// Parsing (XML, CSS, `use`, decoding PNG images) happens once; [`SvgDocument::add_to`] only
/// creates nodes, and images are shared between the copies. Cloning is cheap.
#[derive(Clone)]
pub struct SvgDocument(Arc<Inner>);

struct Inner {
    tree: usvg::Tree,
    /// Warnings found while parsing (text, unreadable images), given with every load.
    warnings: Vec<SvgWarning>,
    /// Decoded PNG images by the address of their bytes in the tree, or why they failed.
    bitmaps: HashMap<usize, std::result::Result<Bitmap, String>>,
    /// Its size once expanded, as [`SVG_EXPANDED`] counts it (SVG images included).
    expanded: u64,
}

impl fmt::Debug for SvgDocument {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (w, h) = self.size();
        f.debug_struct("SvgDocument")
            .field("size", &(w, h))
            .field("warnings", &self.0.warnings.len())
            .finish_non_exhaustive()
    }
}

/// Reads an SVG file and adds it under `parent`: shorthand for [`SvgDocument::from_file`]
/// then [`SvgDocument::add_to`].
///
/// ```no_run
/// let mut stage = pixelhit::Stage::new();
/// let root = stage.root();
/// let ship = pixelhit::svg::load_svg(&mut stage, root, "assets/ship.svg")?;
/// for w in &ship.warnings {
///     eprintln!("ship.svg: {w}");
/// }
/// stage.set_x(ship.root, 100.0)?;
/// # Ok::<(), pixelhit::Error>(())
/// ```
///
/// # Errors
///
/// As [`SvgDocument::from_file`] and [`SvgDocument::add_to`].
pub fn load_svg(stage: &mut Stage, parent: NodeId, path: impl AsRef<FsPath>) -> Result<SvgLoad> {
    SvgDocument::from_file(path)?.add_to(stage, parent)
}

impl SvgDocument {
    /// Reads and parses an SVG file; linked images are looked up relative to its folder.
    ///
    /// # Errors
    ///
    /// [`Error::Io`] when the file cannot be read; [`Error::Image`] naming the file when it
    /// is not an SVG document (see [`SvgDocument::from_data`]).
    pub fn from_file(path: impl AsRef<FsPath>) -> Result<SvgDocument> {
        let path = path.as_ref();
        let name = path.display().to_string();
        let bytes = crate::error::read_file(path)?;
        let dir = path.parent().unwrap_or(FsPath::new(""));
        // An empty folder means the current one; usvg needs it spelled out.
        let dir = if dir.as_os_str().is_empty() {
            FsPath::new(".")
        } else {
            dir
        };
        SvgDocument::from_data(&bytes, &name, Some(dir))
    }

    /// Parses SVG text. Linked image files are not read (there is no folder to read them
    /// from) and are reported; embedded `data:` images are loaded.
    ///
    /// # Errors
    ///
    /// As [`SvgDocument::from_data`].
    #[allow(clippy::should_implement_trait)]
    pub fn from_str(text: &str) -> Result<SvgDocument> {
        SvgDocument::from_data(text.as_bytes(), "SVG text", None)
    }

    /// Parses SVG bytes (UTF-8; compressed SVGZ is not supported), naming them `source` in
    /// errors and reading linked images relative to `resources_dir` (none: not read).
    ///
    /// # Errors
    ///
    /// [`Error::Image`] naming `source` when the bytes are not UTF-8 or not well-formed XML
    /// (with line and column), the root is not `svg`, the size is missing or not positive,
    /// there are more than a million elements, or elements nest more than 128 deep (counting
    /// what `use` and `url(#…)` references bring in).
    pub fn from_data(bytes: &[u8], source: &str, resources_dir: Option<&FsPath>) -> Result<SvgDocument> {
        let bad = |reason: String| Error::Image {
            source: source.to_string(),
            reason,
        };
        let text = std::str::from_utf8(bytes).map_err(|e| {
            if bytes.starts_with(&[0x1f, 0x8b]) {
                bad("compressed SVG (SVGZ) is not supported; decompress it first".into())
            } else {
                bad(format!("not UTF-8 text ({e})"))
            }
        })?;
        let xml_options = roxmltree::ParsingOptions {
            allow_dtd: true,
            ..roxmltree::ParsingOptions::default()
        };
        let xml = roxmltree::Document::parse_with_options(text, xml_options)
            .map_err(|e| bad(format!("not well-formed XML: {e}")))?;
        let root = xml.root_element();
        if root.tag_name().name() != "svg" {
            return Err(bad(format!(
                "the root element is <{}>, not <svg>",
                root.tag_name().name()
            )));
        }
        let mut warnings = scan_xml(&xml).map_err(bad)?;

        // usvg skips images it cannot resolve with a log line only; these wrappers keep a
        // list so that every skipped image becomes a warning. They also check SVG images
        // before usvg parses them (its recursion needs the same depth limit as the file's),
        // and allow one level of them: an SVG image inside an SVG image is not loaded.
        let skipped = Arc::new(Mutex::new(Vec::<String>::new()));
        let (on_data, on_string) = (Arc::clone(&skipped), Arc::clone(&skipped));
        let nested = Arc::new(AtomicUsize::new(0));
        let nested_too = Arc::clone(&nested);
        // The document's own size, and the SVG images' added as usvg parses them.
        let own_size = measure(&xml).map_err(bad)?;
        let expanded = Arc::new(AtomicU64::new(own_size));
        let expanded_too = Arc::clone(&expanded);
        let expanded_total = Arc::clone(&expanded);
        let default_data = ImageHrefResolver::default_data_resolver();
        let default_string = ImageHrefResolver::default_string_resolver();
        let has_dir = resources_dir.is_some();
        let options = usvg::Options {
            resources_dir: resources_dir.map(FsPath::to_path_buf),
            image_href_resolver: ImageHrefResolver {
                resolve_data: Box::new(move |mime, data, opts| {
                    let svg = !is_raster(&data);
                    if svg {
                        if let Err(why) = nested_svg_ok(&data, &nested, &expanded) {
                            note(&on_data, format!("embedded SVG image {why}"));
                            return None;
                        }
                        nested.fetch_add(1, Ordering::SeqCst);
                    }
                    let kind = default_data(mime, data, opts);
                    if svg {
                        nested.fetch_sub(1, Ordering::SeqCst);
                    }
                    if kind.is_none() {
                        note(
                            &on_data,
                            format!("embedded image of type {mime:?} cannot be read"),
                        );
                    }
                    kind
                }),
                resolve_string: Box::new(move |href, opts| {
                    let path = opts.get_abs_path(FsPath::new(href));
                    let svg = has_dir
                        && path
                            .extension()
                            .and_then(|e| e.to_str())
                            .is_some_and(|e| e.eq_ignore_ascii_case("svg"));
                    if svg {
                        let data = crate::error::read_file(&path).unwrap_or_default();
                        if let Err(why) = nested_svg_ok(&data, &nested_too, &expanded_too) {
                            note(&on_string, format!("linked SVG image {href:?} {why}"));
                            return None;
                        }
                        nested_too.fetch_add(1, Ordering::SeqCst);
                    }
                    let kind = if has_dir { default_string(href, opts) } else { None };
                    if svg {
                        nested_too.fetch_sub(1, Ordering::SeqCst);
                    }
                    if kind.is_none() {
                        let why = if has_dir {
                            "is not a readable PNG, JPEG, GIF, WebP or SVG file"
                        } else {
                            "is not read: SVG text given without a folder"
                        };
                        note(&on_string, format!("linked image {href:?} {why}"));
                    }
                    kind
                }),
            },
            ..usvg::Options::default()
        };
        let tree = usvg::Tree::from_xmltree(&xml, &options).map_err(|e| bad(e.to_string()))?;
        drop(options);
        let skipped = match Arc::try_unwrap(skipped) {
            Ok(m) => m.into_inner().unwrap_or_else(|e| e.into_inner()),
            Err(shared) => shared.lock().map(|v| v.clone()).unwrap_or_default(),
        };
        for detail in skipped {
            warnings.push(SvgWarning {
                feature: SvgFeature::Image,
                element: "image".into(),
                detail: format!("{detail}; not loaded"),
            });
        }
        let bitmaps = decode_images(&tree, SVG_IMAGE_BYTES);
        Ok(SvgDocument(Arc::new(Inner {
            tree,
            warnings,
            bitmaps,
            expanded: expanded_total.load(Ordering::SeqCst).min(SVG_EXPANDED),
        })))
    }

    /// The document's size once expanded (elements and points, every `use`, marker
    /// instance and SVG image counted), as [`SVG_EXPANDED`] and [`SCENE_SVG_EXPANDED`]
    /// count it.
    pub fn expanded_size(&self) -> u64 {
        self.0.expanded
    }

    /// Bytes the document's decoded PNGs take (RGBA), for limits over many documents.
    pub(crate) fn image_bytes(&self) -> u64 {
        self.0
            .bitmaps
            .values()
            .filter_map(|b| b.as_ref().ok())
            .map(|b| b.rgba().len() as u64)
            .sum()
    }

    /// The SVG's canvas size (`width` and `height`, or the `viewBox` size), in pixels.
    pub fn size(&self) -> (f64, f64) {
        let s = self.0.tree.size();
        (f64::from(s.width()), f64::from(s.height()))
    }

    /// Adds the SVG as a new container, the last child of `parent`, and returns it with the
    /// nodes of its ids and the warnings (see the module docs).
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`] for a removed `parent`, [`Error::NotContainer`] when it is a
    /// bitmap. The stage is left as it was on error.
    pub fn add_to(&self, stage: &mut Stage, parent: NodeId) -> Result<SvgLoad> {
        let root = stage.add_container(parent)?;
        let mut b = Builder {
            stage,
            bitmaps: &self.0.bitmaps,
            warnings: self.0.warnings.clone(),
            ids: Vec::new(),
        };
        match b.build(self.0.tree.root(), root) {
            Ok(()) => Ok(SvgLoad {
                root,
                warnings: b.warnings,
                ids: b.ids,
            }),
            Err(e) => {
                // Leave no half-built subtree behind.
                let _ = b.stage.remove(root);
                Err(e)
            }
        }
    }
}

/// Whether image bytes are PNG, JPEG, GIF or WebP (usvg takes anything else for SVG).
fn is_raster(data: &[u8]) -> bool {
    data.starts_with(b"\x89PNG")
        || data.starts_with(&[0xFF, 0xD8, 0xFF])
        || data.starts_with(b"GIF8")
        || (data.starts_with(b"RIFF") && data.get(8..12) == Some(b"WEBP"))
}

/// Checks an SVG image before usvg parses it: not inside another SVG image, and not nested
/// too deep. Bytes that are not XML pass: usvg refuses them itself, and that is reported.
fn nested_svg_ok(data: &[u8], nested: &AtomicUsize, expanded: &AtomicU64) -> std::result::Result<(), String> {
    if nested.load(Ordering::SeqCst) > 0 {
        return Err("inside another SVG image (one level of SVG images is loaded)".into());
    }
    let Ok(text) = std::str::from_utf8(data) else {
        return Ok(());
    };
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..roxmltree::ParsingOptions::default()
    };
    let Ok(xml) = roxmltree::Document::parse_with_options(text, options) else {
        return Ok(());
    };
    let size = measure(&xml)?;
    // Each image is parsed on its own, so each counts, with the document's own size.
    let before = expanded.fetch_add(size, Ordering::SeqCst);
    if before.saturating_add(size) > SVG_EXPANDED {
        return Err(format!(
            "would take the document past {SVG_EXPANDED} elements and points once expanded \
             (svg::SVG_EXPANDED)"
        ));
    }
    Ok(())
}

fn note(list: &Mutex<Vec<String>>, what: String) {
    if let Ok(mut v) = list.lock() {
        v.push(what);
    }
}

/// Checks nesting depth and finds the elements usvg drops without a word (text without the
/// fonts feature, `foreignObject`).
fn scan_xml(xml: &roxmltree::Document<'_>) -> std::result::Result<Vec<SvgWarning>, String> {
    let size = measure(xml)?;
    if size > SVG_EXPANDED {
        return Err(format!(
            "it would expand to {size} elements and points (every `use` and marker instance \
             counted), more than the budget of {SVG_EXPANDED} (svg::SVG_EXPANDED)"
        ));
    }
    check_css(xml)?;
    let mut warnings = Vec::new();
    // Text inside `defs` is reported once where it is written, even if `use` shows it twice.
    for n in xml.descendants().filter(roxmltree::Node::is_element) {
        let (feature, what) = match n.tag_name().name() {
            "text" => (SvgFeature::Text, "text is not loaded (pixelhit has no fonts)"),
            "foreignObject" => (SvgFeature::ForeignObject, "foreignObject content is not loaded"),
            _ => continue,
        };
        let element = match n.attribute("id") {
            Some(id) if !id.is_empty() => format!("{} #{id}", n.tag_name().name()),
            _ => format!(
                "{} at line {}",
                n.tag_name().name(),
                xml.text_pos_at(n.range().start).row
            ),
        };
        warnings.push(SvgWarning {
            feature,
            element,
            detail: what.into(),
        });
    }
    Ok(warnings)
}

/// Refuses documents that nest more than [`MAX_DEPTH`] elements deep, counting what `use`
/// and `url(#…)` references (clip paths, masks, markers, patterns) put inside an element:
/// usvg converts all of them recursively, and a chain of 300 `use` elements would overflow
/// a 2 MB stack. Returns the document's size once expanded: each element counts one and
/// its path points, plus what its children and references bring, a reference counted
/// every time it is drawn (a marker at every vertex of its path). One pass, without
/// recursion: each element measured once (a reference back to an element being measured
/// is a cycle, which usvg drops, and counts nothing).
fn measure(xml: &roxmltree::Document<'_>) -> std::result::Result<u64, String> {
    let elements: Vec<roxmltree::Node<'_, '_>> = xml.descendants().filter(|n| n.is_element()).collect();
    let index: HashMap<roxmltree::NodeId, usize> =
        elements.iter().enumerate().map(|(i, n)| (n.id(), i)).collect();
    let by_id: HashMap<&str, usize> = elements
        .iter()
        .enumerate()
        .filter_map(|(i, n)| Some((n.attribute("id")?, i)))
        .collect();
    // An element's successors, each with how many times it is drawn there.
    let successors = |i: usize| -> Vec<(usize, u64)> {
        let n = elements[i];
        let points = path_points(n);
        let markers = n
            .attributes()
            .any(|a| a.name().starts_with("marker") || (a.name() == "style" && a.value().contains("marker")));
        let mut out: Vec<(usize, u64)> = n
            .children()
            .filter_map(|c| index.get(&c.id()).map(|&j| (j, 1)))
            .collect();
        for a in n.attributes() {
            let v = a.value().trim();
            if a.name() == "href"
                && let Some(&j) = v.strip_prefix('#').and_then(|id| by_id.get(id))
            {
                out.push((j, 1));
            }
            let mut rest = v;
            while let Some(at) = rest.find("url(#") {
                rest = &rest[at + 5..];
                let id = rest.split([')', '"', '\'']).next().unwrap_or("");
                if let Some(&j) = by_id.get(id.trim()) {
                    out.push((j, if markers { points + 2 } else { 1 }));
                }
            }
        }
        out
    };
    // 0: not seen, 1: being measured, 2: measured.
    let mut state = vec![0u8; elements.len()];
    let mut depth = vec![0usize; elements.len()];
    let mut size = vec![0u64; elements.len()];
    for start in 0..elements.len() {
        if state[start] != 0 {
            continue;
        }
        let mut stack = vec![(start, false)];
        while let Some((i, children_done)) = stack.pop() {
            if children_done {
                let done: Vec<(usize, u64)> = successors(i)
                    .into_iter()
                    .filter(|&(j, _)| state[j] == 2)
                    .collect();
                depth[i] = done.iter().map(|&(j, _)| depth[j]).max().unwrap_or(0) + 1;
                size[i] = done
                    .iter()
                    .fold(1 + path_points(elements[i]), |sum, &(j, times)| {
                        sum.saturating_add(size[j].saturating_mul(times))
                    });
                state[i] = 2;
                if depth[i] > MAX_DEPTH {
                    let pos = xml.text_pos_at(elements[i].range().start);
                    return Err(format!(
                        "elements nest more than {MAX_DEPTH} deep, counting what `use` and other \
                         references bring in (line {}, column {})",
                        pos.row, pos.col
                    ));
                }
            } else if state[i] == 0 {
                state[i] = 1;
                stack.push((i, true));
                stack.extend(
                    successors(i)
                        .into_iter()
                        .filter(|&(j, _)| state[j] == 0)
                        .map(|(j, _)| (j, false)),
                );
            }
        }
    }
    Ok(index.get(&xml.root_element().id()).map_or(0, |&root| size[root]))
}

/// About how many points an element's geometry has (`d` or `points`): half its numbers.
fn path_points(n: roxmltree::Node<'_, '_>) -> u64 {
    let data = n.attribute("d").or_else(|| n.attribute("points")).unwrap_or("");
    let mut numbers = 0u64;
    let mut in_number = false;
    for c in data.bytes() {
        let digit = c.is_ascii_digit() || c == b'.';
        if digit && !in_number {
            numbers += 1;
        }
        in_number = digit;
    }
    numbers.div_ceil(2)
}

/// Refuses style sheets whose matching would take more than [`SVG_CSS_MATCHES`]: usvg
/// matches every rule against every element.
fn check_css(xml: &roxmltree::Document<'_>) -> std::result::Result<(), String> {
    let elements = xml.descendants().filter(roxmltree::Node::is_element).count() as u64;
    let rules: u64 = xml
        .descendants()
        .filter(|n| n.is_element() && n.tag_name().name() == "style")
        .flat_map(|n| n.children())
        .filter_map(|t| t.text())
        .map(|css| css.bytes().filter(|&b| b == b'{').count() as u64)
        .sum();
    let matches = rules.saturating_mul(elements);
    if matches > SVG_CSS_MATCHES {
        return Err(format!(
            "its style sheets would match {rules} rules against {elements} elements ({matches} \
             matches), more than the budget of {SVG_CSS_MATCHES} (svg::SVG_CSS_MATCHES)"
        ));
    }
    Ok(())
}

/// The most bytes the PNGs of one SVG document may take decoded, together (each one is also
/// within [`ImageLimits::default`]): without it a document of many small PNG bombs could
/// take any amount of memory. PNGs past it are not loaded, with a warning.
pub const SVG_IMAGE_BYTES: u64 = 1 << 30;

/// Decodes every PNG the tree shows, once per distinct byte buffer, within `total` bytes of
/// decoded pixels for them all.
fn decode_images(tree: &usvg::Tree, total: u64) -> HashMap<usize, std::result::Result<Bitmap, String>> {
    let mut left = total;
    let mut out = HashMap::new();
    let mut stack = vec![tree.root()];
    while let Some(g) = stack.pop() {
        for child in g.children() {
            match child {
                Node::Group(g) => stack.push(g),
                Node::Image(img) => match img.kind() {
                    ImageKind::PNG(data) => {
                        let key = Arc::as_ptr(data) as usize;
                        out.entry(key).or_insert_with(|| {
                            let each = ImageLimits::default();
                            let limits = ImageLimits {
                                max_bytes: each.max_bytes.min(left),
                                ..each
                            };
                            let decoded = Bitmap::decode_png(data, "embedded PNG", &limits).map_err(|e| {
                                match limits.max_bytes < each.max_bytes {
                                    true => format!("{e} (what is left of the {total} bytes all the document's PNGs may take)"),
                                    false => e.to_string(),
                                }
                            });
                            if let Ok(b) = &decoded {
                                left = left.saturating_sub(b.rgba().len() as u64);
                            }
                            decoded
                        });
                    }
                    ImageKind::SVG(t) => stack.push(t.root()),
                    _ => {}
                },
                _ => {}
            }
        }
    }
    out
}

/// One group waiting to be filled into its container.
struct Pending<'t> {
    group: &'t usvg::Group,
    node: NodeId,
    /// The nearest id at or above this group, for naming elements without one.
    context: Option<&'t str>,
}

struct Builder<'a> {
    stage: &'a mut Stage,
    bitmaps: &'a HashMap<usize, std::result::Result<Bitmap, String>>,
    warnings: Vec<SvgWarning>,
    ids: Vec<(String, NodeId)>,
}

impl Builder<'_> {
    /// Fills `node` with `group` and everything below it, breadth first with an explicit
    /// stack so that depth costs no call stack. Sibling order is kept because each group's
    /// children get their nodes when the group is filled, in order.
    fn build(&mut self, group: &usvg::Group, node: NodeId) -> Result<()> {
        self.configure(group, node, None)?;
        let mut stack = vec![Pending {
            group,
            node,
            context: None,
        }];
        while let Some(p) = stack.pop() {
            let base = stack.len();
            // Paths go into the container's own graphics while it has no child yet; after a
            // child they go into a container of their own, to be drawn above that child.
            let mut has_child = false;
            let mut tail: Option<NodeId> = None;
            for child in p.group.children() {
                match child {
                    Node::Group(g) => {
                        let id = self.stage.add_container(p.node)?;
                        self.configure(g, id, p.context)?;
                        let context = if g.id().is_empty() {
                            p.context
                        } else {
                            Some(g.id())
                        };
                        stack.push(Pending {
                            group: g,
                            node: id,
                            context,
                        });
                        has_child = true;
                        tail = None;
                    }
                    Node::Path(path) => {
                        let graphics = self.graphics(path, p.context)?;
                        if graphics.is_empty() {
                            continue;
                        }
                        let target = if !path.id().is_empty() || !path.is_visible() {
                            let id = self.stage.add_container(p.node)?;
                            if !path.id().is_empty() {
                                self.ids.push((path.id().to_string(), id));
                            }
                            self.stage.set_visible(id, path.is_visible())?;
                            has_child = true;
                            tail = None;
                            id
                        } else if !has_child {
                            p.node
                        } else if let Some(t) = tail {
                            t
                        } else {
                            let t = self.stage.add_container(p.node)?;
                            tail = Some(t);
                            t
                        };
                        for g in graphics {
                            self.stage.add_graphic(target, g)?;
                        }
                    }
                    Node::Image(img) => {
                        if self.image(img, p.node, p.context, &mut stack)? {
                            has_child = true;
                            tail = None;
                        }
                    }
                    Node::Text(t) => self.warn(
                        SvgFeature::Text,
                        element("text", t.id(), p.context, None),
                        "text is not loaded (pixelhit has no fonts)".into(),
                    ),
                }
            }
            // The children were pushed in order; reversed, they are filled in order, so
            // that warnings come in document order.
            stack[base..].reverse();
        }
        Ok(())
    }

    fn warn(&mut self, feature: SvgFeature, element: String, detail: String) {
        self.warnings.push(SvgWarning {
            feature,
            element,
            detail,
        });
    }

    /// The shapes of a clip path's or mask's group, as fills of `node` and its containers.
    fn region(&mut self, group: &usvg::Group, node: NodeId) -> Result<()> {
        let mut stack = vec![(group, node)];
        while let Some((g, n)) = stack.pop() {
            for child in g.children() {
                match child {
                    usvg::Node::Group(inner) => {
                        let c = self.stage.add_container(n)?;
                        self.stage.set_matrix(c, matrix(inner.transform()))?;
                        stack.push((inner, c));
                    }
                    usvg::Node::Path(p) => {
                        let rule = match p.fill().map(|f| f.rule()) {
                            Some(usvg::FillRule::EvenOdd) => FillRule::EvenOdd,
                            _ => FillRule::NonZero,
                        };
                        self.stage
                            .add_graphic(n, Graphic::fill(to_path(p.data()), rule, 1.0)?)?;
                    }
                    usvg::Node::Image(_) | usvg::Node::Text(_) => {}
                }
            }
        }
        Ok(())
    }

    /// Sets a group's matrix and opacity on its container and reports what it cannot show.
    fn configure(&mut self, g: &usvg::Group, node: NodeId, context: Option<&str>) -> Result<()> {
        self.stage.set_matrix(node, matrix(g.transform()))?;
        let opacity = f64::from(g.opacity().get());
        if opacity < 1.0 {
            self.stage.set_alpha(node, opacity.clamp(0.0, 1.0))?;
        }
        if !g.id().is_empty() {
            self.ids.push((g.id().to_string(), node));
        }
        let name = || {
            let b = g.abs_bounding_box();
            element(
                "group",
                g.id(),
                context,
                Some([b.x(), b.y(), b.width(), b.height()]),
            )
        };
        if opacity < 1.0 && shapes_at_least(g, 2) {
            self.warn(
                SvgFeature::GroupOpacity,
                name(),
                format!(
                    "opacity {} is applied to each shape in the group (as Flash applies alpha), \
                     not to the group as one picture: where its shapes overlap they are more opaque",
                    num(opacity)
                ),
            );
        }
        // A clip path or a mask becomes a mask node beside the group (semantics.md 6): the
        // region of its shapes, whatever their luminance or opacity, as Flash masks. A node
        // has one mask, so a group with both keeps the clip path.
        let mut clipped = false;
        let regions = [
            g.clip_path()
                .map(|c| (c.root(), c.transform(), c.clip_path().is_some())),
            g.mask().map(|m| {
                (
                    m.root(),
                    tiny_skia_path::Transform::identity(),
                    m.mask().is_some(),
                )
            }),
        ];
        for (k, region) in regions.into_iter().enumerate() {
            let Some((root, transform, nested)) = region else {
                continue;
            };
            let what = ["clip path", "mask"][k];
            let feature = [SvgFeature::ClipPath, SvgFeature::Mask][k];
            if clipped {
                self.warn(
                    feature,
                    name(),
                    format!("{what} is ignored: the group has a clip path, and a node has one mask"),
                );
                continue;
            }
            if nested {
                self.warn(
                    feature,
                    name(),
                    format!("the {what} of the {what} is ignored: its own region masks"),
                );
            }
            if let Some(parent) = self.stage.parent(node)? {
                let mask = self.stage.add_container(parent)?;
                self.stage
                    .set_matrix(mask, matrix(g.transform()) * matrix(transform))?;
                self.stage.set_interactive(mask, false)?;
                self.region(root, mask)?;
                self.stage.set_mask(node, Some(mask))?;
                clipped = true;
            }
        }
        let ignored = [(!g.filters().is_empty(), SvgFeature::Filter, "filter")];
        for (present, feature, what) in ignored {
            if present {
                self.warn(
                    feature,
                    name(),
                    format!("{what} is ignored: the content is drawn without it"),
                );
            }
        }
        Ok(())
    }

    /// The fill and stroke of a path, in paint order, with warnings for what they lose.
    fn graphics(&mut self, p: &usvg::Path, context: Option<&str>) -> Result<Vec<Graphic>> {
        let b = p.abs_bounding_box();
        let name = element(
            "path",
            p.id(),
            context,
            Some([b.x(), b.y(), b.width(), b.height()]),
        );
        let path = to_path(p.data());
        let mut fill = None;
        if let Some(f) = p.fill() {
            let alpha = self.paint_alpha(f.paint(), f.opacity().get(), "fill", &name);
            let rule = match f.rule() {
                usvg::FillRule::NonZero => FillRule::NonZero,
                usvg::FillRule::EvenOdd => FillRule::EvenOdd,
            };
            fill = Some(Graphic::fill(path.clone(), rule, alpha)?);
        }
        let mut stroke = None;
        if let Some(s) = p.stroke() {
            let alpha = self.paint_alpha(s.paint(), s.opacity().get(), "stroke", &name);
            let (open, corner) = stroke_shape(p.data());
            if s.dasharray().is_some() {
                self.warn(
                    SvgFeature::Dashes,
                    name.clone(),
                    "dashed stroke is drawn solid".into(),
                );
            }
            if open && s.linecap() != usvg::LineCap::Round {
                let cap = match s.linecap() {
                    usvg::LineCap::Butt => "butt",
                    _ => "square",
                };
                self.warn(
                    SvgFeature::StrokeCap,
                    name.clone(),
                    format!("stroke-linecap {cap} is drawn round"),
                );
            }
            if corner && s.linejoin() != usvg::LineJoin::Round {
                let join = match s.linejoin() {
                    usvg::LineJoin::Bevel => "bevel",
                    usvg::LineJoin::MiterClip => "miter-clip",
                    _ => "miter",
                };
                self.warn(
                    SvgFeature::StrokeJoin,
                    name.clone(),
                    format!("stroke-linejoin {join} is drawn round"),
                );
            }
            stroke = Some(Graphic::stroke(path, f64::from(s.width().get()), alpha)?);
        }
        Ok(match p.paint_order() {
            usvg::PaintOrder::FillAndStroke => fill.into_iter().chain(stroke).collect(),
            usvg::PaintOrder::StrokeAndFill => stroke.into_iter().chain(fill).collect(),
        })
    }

    /// The alpha a paint gives its fill or stroke: only its opacity matters to coverage.
    fn paint_alpha(&mut self, paint: &Paint, opacity: f32, what: &str, name: &str) -> f64 {
        let opacity = f64::from(opacity).clamp(0.0, 1.0);
        let stops = match paint {
            Paint::Color(_) => return opacity,
            Paint::Pattern(_) => {
                self.warn(
                    SvgFeature::Pattern,
                    name.to_string(),
                    format!("{what} pattern is drawn as a solid {what}"),
                );
                return opacity;
            }
            Paint::LinearGradient(g) => g.stops(),
            Paint::RadialGradient(g) => g.stops(),
        };
        let ops = stops.iter().map(|s| f64::from(s.opacity().get()));
        let (lo, hi) = ops.fold((1.0f64, 0.0f64), |(lo, hi), o| (lo.min(o), hi.max(o)));
        if !stops.is_empty() && hi - lo > 1e-6 {
            self.warn(
                SvgFeature::GradientOpacity,
                name.to_string(),
                format!(
                    "{what} gradient opacity varies from {} to {}: drawn with {} everywhere",
                    num(lo),
                    num(hi),
                    num(hi)
                ),
            );
        }
        (opacity * hi).clamp(0.0, 1.0)
    }

    /// Adds an image under `parent`; true when a node was added.
    fn image<'t>(
        &mut self,
        img: &'t usvg::Image,
        parent: NodeId,
        context: Option<&'t str>,
        stack: &mut Vec<Pending<'t>>,
    ) -> Result<bool> {
        let b = img.abs_bounding_box();
        let name = || {
            element(
                "image",
                img.id(),
                context,
                Some([b.x(), b.y(), b.width(), b.height()]),
            )
        };
        let node = match img.kind() {
            ImageKind::PNG(data) => match self.bitmaps.get(&(Arc::as_ptr(data) as usize)) {
                Some(Ok(bitmap)) => {
                    let smoothing = !matches!(
                        img.rendering_mode(),
                        ImageRendering::OptimizeSpeed
                            | ImageRendering::CrispEdges
                            | ImageRendering::Pixelated
                    );
                    let id = self.stage.add_bitmap(parent, bitmap.clone(), smoothing)?;
                    // usvg gives the image's size in its own pixels; a bitmap's texel is one
                    // unit of its node, so any difference becomes a scale.
                    let size = img.size();
                    let sx = f64::from(size.width()) / f64::from(bitmap.width());
                    let sy = f64::from(size.height()) / f64::from(bitmap.height());
                    if sx != 1.0 || sy != 1.0 {
                        self.stage.set_matrix(id, DAffine2::from_scale((sx, sy).into()))?;
                    }
                    id
                }
                other => {
                    let why = match other {
                        Some(Err(e)) => e.clone(),
                        _ => "it was not decoded".into(),
                    };
                    self.warn(SvgFeature::Image, name(), format!("PNG not loaded: {why}"));
                    return Ok(false);
                }
            },
            ImageKind::SVG(tree) => {
                let id = self.stage.add_container(parent)?;
                self.configure(tree.root(), id, context)?;
                stack.push(Pending {
                    group: tree.root(),
                    node: id,
                    context,
                });
                id
            }
            ImageKind::JPEG(_) | ImageKind::GIF(_) | ImageKind::WEBP(_) => {
                let format = match img.kind() {
                    ImageKind::JPEG(_) => "JPEG",
                    ImageKind::GIF(_) => "GIF",
                    _ => "WebP",
                };
                self.warn(
                    SvgFeature::Image,
                    name(),
                    format!("{format} image not loaded (pixelhit reads PNG only)"),
                );
                return Ok(false);
            }
        };
        if !img.id().is_empty() {
            self.ids.push((img.id().to_string(), node));
        }
        self.stage.set_visible(node, img.is_visible())?;
        Ok(true)
    }
}

/// Whether the group draws at least `n` fills, strokes or images (stops counting there).
fn shapes_at_least(g: &usvg::Group, n: usize) -> bool {
    let mut count = 0;
    let mut stack = vec![g];
    while let Some(g) = stack.pop() {
        for child in g.children() {
            count += match child {
                Node::Group(g) => {
                    stack.push(g);
                    0
                }
                Node::Path(p) => usize::from(p.fill().is_some()) + usize::from(p.stroke().is_some()),
                Node::Image(_) | Node::Text(_) => 1,
            };
            if count >= n {
                return true;
            }
        }
    }
    false
}

/// How warnings name an element (see [`SvgWarning::element`]).
fn element(kind: &str, id: &str, context: Option<&str>, bbox: Option<[f32; 4]>) -> String {
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
fn num(v: f64) -> String {
    let r = (v * 10.0).round() / 10.0;
    format!("{}", r + 0.0)
}

/// usvg's transform (f32, `sx ky kx sy tx ty`) as a matrix `[a, b, c, d, tx, ty]`.
fn matrix(t: tiny_skia_path::Transform) -> DAffine2 {
    DAffine2::from_cols_array(&[t.sx, t.ky, t.kx, t.sy, t.tx, t.ty].map(f64::from))
}

fn to_path(data: &tiny_skia_path::Path) -> Path {
    let mut p = Path::new();
    let f = |pt: Point| (f64::from(pt.x), f64::from(pt.y));
    for seg in data.segments() {
        match seg {
            PathSegment::MoveTo(a) => {
                let (x, y) = f(a);
                p.move_to(x, y);
            }
            PathSegment::LineTo(a) => {
                let (x, y) = f(a);
                p.line_to(x, y);
            }
            PathSegment::QuadTo(c, a) => {
                let ((cx, cy), (x, y)) = (f(c), f(a));
                p.quad_to(cx, cy, x, y);
            }
            PathSegment::CubicTo(c1, c2, a) => {
                let ((c1x, c1y), (c2x, c2y), (x, y)) = (f(c1), f(c2), f(a));
                p.cubic_to(c1x, c1y, c2x, c2y, x, y);
            }
            PathSegment::Close => {
                p.close();
            }
        }
    }
    p
}

/// Whether a stroked path has caps (an open subpath that draws something) and corners
/// (joins where it turns by more than [`SMOOTH_TURN`]), the places where stroke styles
/// differ from pixelhit's round ones.
fn stroke_shape(data: &tiny_skia_path::Path) -> (bool, bool) {
    #[derive(Default)]
    struct Sub {
        start: (f64, f64),
        last: (f64, f64),
        first_dir: Option<(f64, f64)>,
        last_dir: Option<(f64, f64)>,
        drawn: bool,
    }
    let mut open = false;
    let mut corner = false;
    let mut sub = Sub::default();
    let turns = |a: (f64, f64), b: (f64, f64)| {
        let cross = a.0 * b.1 - a.1 * b.0;
        let dot = a.0 * b.0 + a.1 * b.1;
        cross.abs().atan2(dot) > SMOOTH_TURN
    };
    // Adds a segment from `sub.last` through `pts` (controls, then the end point).
    let segment = |sub: &mut Sub, pts: &[(f64, f64)], corner: &mut bool| {
        sub.drawn = true;
        let Some(&end) = pts.last() else { return };
        let from = sub.last;
        let dir = |a: (f64, f64), b: (f64, f64)| (b.0 - a.0, b.1 - a.1);
        let start_dir = pts.iter().find(|&&q| q != from).map(|&q| dir(from, q));
        let end_dir = std::iter::once(&from)
            .chain(pts.iter())
            .rev()
            .find(|&&q| q != end)
            .map(|&q| dir(q, end));
        if let (Some(prev), Some(next)) = (sub.last_dir, start_dir)
            && turns(prev, next)
        {
            *corner = true;
        }
        if sub.first_dir.is_none() {
            sub.first_dir = start_dir;
        }
        if end_dir.is_some() {
            sub.last_dir = end_dir;
        }
        sub.last = end;
    };
    let f = |pt: Point| (f64::from(pt.x), f64::from(pt.y));
    for seg in data.segments() {
        match seg {
            PathSegment::MoveTo(a) => {
                open |= sub.drawn;
                sub = Sub {
                    start: f(a),
                    last: f(a),
                    ..Sub::default()
                };
            }
            PathSegment::LineTo(a) => segment(&mut sub, &[f(a)], &mut corner),
            PathSegment::QuadTo(c, a) => segment(&mut sub, &[f(c), f(a)], &mut corner),
            PathSegment::CubicTo(c1, c2, a) => segment(&mut sub, &[f(c1), f(c2), f(a)], &mut corner),
            PathSegment::Close => {
                if sub.drawn {
                    if sub.last != sub.start {
                        let start = sub.start;
                        segment(&mut sub, &[start], &mut corner);
                    }
                    if let (Some(prev), Some(first)) = (sub.last_dir, sub.first_dir)
                        && turns(prev, first)
                    {
                        corner = true;
                    }
                }
                // A closed subpath has no caps.
                sub = Sub {
                    start: sub.start,
                    last: sub.start,
                    ..Sub::default()
                };
            }
        }
    }
    open |= sub.drawn;
    (open, corner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_documents_pngs_share_one_byte_limit() {
        let dir = std::env::temp_dir().join(format!("pixelhit-svg-share-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // Three 4 x 2 PNGs, 32 bytes each decoded, as three files.
        for (i, name) in ["a.png", "b.png", "c.png"].iter().enumerate() {
            let rgba = vec![i as u8 + 1; 32];
            let png = Bitmap::from_rgba8(4, 2, rgba).unwrap().to_png_bytes().unwrap();
            std::fs::write(dir.join(name), png).unwrap();
        }
        let text = r#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">
            <image width="4" height="2" href="a.png"/>
            <image width="4" height="2" href="b.png"/>
            <image width="4" height="2" href="c.png"/>
        </svg>"#;
        let doc = SvgDocument::from_data(text.as_bytes(), "three.svg", Some(&dir)).unwrap();
        assert_eq!(doc.image_bytes(), 96);
        // Room for two: the third is refused, saying why.
        let images = decode_images(&doc.0.tree, 70);
        let (ok, refused): (Vec<_>, Vec<_>) = images.values().partition(|r| r.is_ok());
        assert_eq!((ok.len(), refused.len()), (2, 1));
        let why = refused[0].as_ref().unwrap_err();
        assert!(why.contains("all the document's PNGs may take"), "{why}");
        assert_eq!(
            decode_images(&doc.0.tree, 96)
                .values()
                .filter(|r| r.is_ok())
                .count(),
            3
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    fn svg(body: &str) -> String {
        format!(r#"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">{body}</svg>"#)
    }

    fn shape(d: &str) -> (bool, bool) {
        let doc =
            SvgDocument::from_str(&svg(&format!(r#"<path d="{d}" stroke="black" fill="none"/>"#))).unwrap();
        let Node::Path(p) = &doc.0.tree.root().children()[0] else {
            panic!("not a path")
        };
        stroke_shape(p.data())
    }

    #[test]
    fn caps_and_corners_are_found_where_they_are() {
        assert_eq!(shape("M0 0 L10 0"), (true, false));
        assert_eq!(shape("M0 0 L10 0 L10 10"), (true, true));
        assert_eq!(shape("M0 0 L10 0 L10 10 Z"), (false, true));
        // A circle's four arcs meet smoothly, and it is closed.
        assert_eq!(
            shape("M10 0 A10 10 0 1 1 -10 0 A10 10 0 1 1 10 0 Z"),
            (false, false)
        );
        // Collinear pieces do not make a corner.
        assert_eq!(shape("M0 0 L5 0 L10 0"), (true, false));
        // A second, open subpath after a closed one has caps.
        assert_eq!(shape("M0 0 H10 V10 Z M20 0 Q 25 5 30 0"), (true, true));
    }
}
