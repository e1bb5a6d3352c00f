//! usvg's tree turned into nodes of the display tree (the mapping of the module docs).

use std::collections::HashMap;
use std::sync::Arc;

use usvg::{ImageKind, ImageRendering, Node, Paint, tiny_skia_path};

use super::convert::{matrix, stroke_shape, to_path};
use super::warnings::{SvgFeature, SvgWarning, element, num};
use glam::DAffine2;

use crate::{Bitmap, FillRule, Graphic, NodeId, Result, Stage};

/// One group waiting to be filled into its container.
struct Pending<'t> {
    group: &'t usvg::Group,
    node: NodeId,
    /// The nearest id at or above this group, for naming elements without one.
    context: Option<&'t str>,
}

/// Builds one copy of a document into a stage.
pub(super) struct Builder<'a> {
    pub stage: &'a mut Stage,
    /// The document's decoded PNGs, by the address of their bytes.
    pub bitmaps: &'a HashMap<usize, std::result::Result<Bitmap, String>>,
    pub warnings: Vec<SvgWarning>,
    pub ids: Vec<(String, NodeId)>,
}

impl Builder<'_> {
    /// Fills `node` with `group` and everything below it, breadth first with an explicit
    /// stack so that depth costs no call stack. Sibling order is kept because each group's
    /// children get their nodes when the group is filled, in order.
    pub fn build(&mut self, group: &usvg::Group, node: NodeId) -> Result<()> {
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
