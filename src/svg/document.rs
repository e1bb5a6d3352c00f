//! A parsed SVG file ([`SvgDocument`]), ready to be added to stages, and what adding it
//! built ([`SvgLoad`]).

use std::collections::HashMap;
use std::fmt;
use std::path::Path as FsPath;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use usvg::{ImageHrefResolver, ImageKind, Node, roxmltree};

use super::build::Builder;
use super::limits::{SVG_EXPANDED, SVG_IMAGE_BYTES, measure, nested_svg_ok, scan_xml};
use super::warnings::{SvgFeature, SvgWarning};
use crate::{Bitmap, Error, ImageLimits, NodeId, Result, Stage};

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

    /// The document's size once expanded, in bytes of what is parsed and built (every
    /// `use`, clip path use, marker instance and SVG image counted), as [`SVG_EXPANDED`] and [`SCENE_SVG_EXPANDED`](super::SCENE_SVG_EXPANDED)
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

fn note(list: &Mutex<Vec<String>>, what: String) {
    if let Ok(mut v) = list.lock() {
        v.push(what);
    }
}

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
}
