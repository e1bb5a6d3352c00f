//! The budgets an SVG document is held to, counted from its XML before usvg expands
//! anything: nesting depth, size once expanded, CSS work, decoded images.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use usvg::roxmltree;

use super::warnings::{SvgFeature, SvgWarning};

/// Deepest element nesting accepted (see the module docs).
pub(super) const MAX_DEPTH: usize = 128;

/// Bytes one element costs once usvg has parsed it and one copy of it is built into a
/// stage, counted high: a `use` chain of 4,096 rectangles took 207 B per counted element to
/// parse, 177 B to build and 94 B to query (issue 22). Elements were counted as one unit
/// each before, which let a document of 4 million elements (2,000 groups sharing a clip
/// path of 2,000 rectangles) take 2.4 GB.
pub(super) const ELEMENT_BYTES: u64 = 512;

/// Bytes one path point costs once parsed and built (17 B to parse and 17 B to build in the
/// same measure; the query's share is held to the query's own vertex budget).
pub(super) const POINT_BYTES: u64 = 64;

/// The most one document may grow to once usvg has expanded it, in bytes of what is
/// parsed and built: counted before usvg runs as 512 bytes per element and 64 per path
/// point, with every `use`, every use of a clip path, mask or
/// pattern, and every marker instance (a marker is drawn at each vertex of the path that
/// names it) counted again, and the SVG images it shows counted with it. A 157 KB file of
/// markers took over 6 GB, an image of an SVG per element 918 MB, 2,000 groups sharing one
/// clip path of 2,000 rectangles 2.4 GB; past this budget (256 MiB) a document is refused
/// (a nested SVG image is not loaded, with a warning).
pub const SVG_EXPANDED: u64 = 1 << 28;

/// The most all the SVG objects of one scene file may add together, by the same count
/// (a document shown by 16 objects counts 16 times), 1 GiB: 16 references to one file
/// took 1.9 GB.
pub const SCENE_SVG_EXPANDED: u64 = 1 << 30;

/// The most CSS work a document may ask of usvg, as style rules times elements (each rule
/// is matched against each element): 1.5 MB of rules and elements took 30 s.
pub const SVG_CSS_MATCHES: u64 = 1 << 24;

/// The most bytes the PNGs of one SVG document may take decoded, together (each one is also
/// within [`ImageLimits::default`](crate::ImageLimits::default)): without it a document of many small PNG bombs could
/// take any amount of memory. PNGs past it are not loaded, with a warning.
pub const SVG_IMAGE_BYTES: u64 = 1 << 30;

/// Checks an SVG image before usvg parses it: not inside another SVG image, and not nested
/// too deep. Bytes that are not XML pass: usvg refuses them itself, and that is reported.
pub(super) fn nested_svg_ok(
    data: &[u8],
    nested: &AtomicUsize,
    expanded: &AtomicU64,
) -> std::result::Result<(), String> {
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
            "would take the document past {SVG_EXPANDED} bytes once expanded and built \
             (svg::SVG_EXPANDED)"
        ));
    }
    Ok(())
}

/// Checks nesting depth and finds the elements usvg drops without a word (text without the
/// fonts feature, `foreignObject`).
pub(super) fn scan_xml(xml: &roxmltree::Document<'_>) -> std::result::Result<Vec<SvgWarning>, String> {
    let size = measure(xml)?;
    if size > SVG_EXPANDED {
        return Err(format!(
            "it would take about {size} bytes once expanded and built (every `use`, clip path \
             and marker instance counted), more than the budget of {SVG_EXPANDED} bytes \
             (svg::SVG_EXPANDED)"
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
/// a 2 MB stack. Returns the document's size once expanded, in bytes: each element counts
/// [`ELEMENT_BYTES`] and [`POINT_BYTES`] per path point, plus what its children and
/// references bring, a reference counted
/// every time it is drawn (a marker at every vertex of its path). One pass, without
/// recursion: each element measured once (a reference back to an element being measured
/// is a cycle, which usvg drops, and counts nothing).
pub(super) fn measure(xml: &roxmltree::Document<'_>) -> std::result::Result<u64, String> {
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
                size[i] = done.iter().fold(
                    ELEMENT_BYTES + POINT_BYTES * path_points(elements[i]),
                    |sum, &(j, times)| sum.saturating_add(size[j].saturating_mul(times)),
                );
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
