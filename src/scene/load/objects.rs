//! The objects of a scene file: each object's fields checked and turned into a node, its
//! properties, content (graphics, bitmaps, frames, SVG) and links (masks, hit areas).

use glam::DAffine2;

use super::{Fields, Loader, get, join};
use crate::scene::CT_FIELDS;
use crate::scene::json::Json;
use crate::scene::text::{fmt_num, json_string};
use crate::{Bitmap, ColorTransform, Frame, Graphic, NodeId, Path, Result, Stage};

const OBJECT_FIELDS: [&str; 23] = [
    "name",
    "matrix",
    "x",
    "y",
    "rotation",
    "scale_x",
    "scale_y",
    "visible",
    "alpha",
    "color_transform",
    "graphics",
    "children",
    "bitmap",
    "svg",
    "frames",
    "frame",
    "mask",
    "scroll_rect",
    "interactive",
    "mouse_enabled",
    "mouse_children",
    "hit_area",
    "tolerance",
];

type Setter = fn(&mut Stage, NodeId, f64) -> Result<()>;

const PROPERTIES: [(&str, Setter); 5] = [
    ("x", Stage::set_x),
    ("y", Stage::set_y),
    ("rotation", Stage::set_rotation),
    ("scale_x", Stage::set_scale_x),
    ("scale_y", Stage::set_scale_y),
];

impl Loader<'_> {
    /// Reads the object tree without recursion (objects may nest 100,000 deep), in file
    /// order: each object's own fields, then its children's subtrees one after another.
    pub(super) fn tree(&mut self, root: &Json) -> Result<()> {
        let mut stack = vec![(root, None, self.places.add(None))];
        while let Some((v, parent, place)) = stack.pop() {
            let (id, children) = self.node(v, parent, place)?;
            for (i, child) in children.iter().enumerate().rev() {
                stack.push((child, Some(id), self.places.add(Some((place, i)))));
            }
        }
        self.at = None;
        self.links()
    }

    /// Sets the `mask` and `hit_area` fields, once every object (and so every name) is
    /// known: a name may come later in the file than the object that uses it.
    pub(super) fn links(&mut self) -> Result<()> {
        for (id, field, name, place) in std::mem::take(&mut self.pending) {
            self.at = Some(place);
            let Some(&(other, _)) = self.names.get(&name) else {
                return Err(self.err(field, format!("no object is named {}", json_string(&name))));
            };
            let set = match field {
                "mask" => self.stage.set_mask(id, Some(other)),
                _ => self.stage.set_hit_area(id, Some(other)),
            };
            set.map_err(|e| self.err(field, e.to_string()))?;
        }
        self.at = None;
        Ok(())
    }

    /// Reads one object at `place` and adds it under `parent` (or fills in the root);
    /// gives its id and its children, which the caller reads next.
    pub(super) fn node<'j>(
        &mut self,
        v: &'j Json,
        parent: Option<NodeId>,
        place: usize,
    ) -> Result<(NodeId, &'j [Json])> {
        self.at = Some(place);
        // Locations inside the object are relative to it (see `err`).
        let path = "";
        let fields = self.object(v, path)?;
        self.check_keys(fields, path, &OBJECT_FIELDS, "an object")?;
        if get(fields, "matrix").is_some() {
            for (p, _) in PROPERTIES {
                if get(fields, p).is_some() {
                    return Err(self.err(
                        &join(path, "matrix"),
                        format!("`matrix` cannot be combined with `{p}`: give one or the other"),
                    ));
                }
            }
        }
        let (bitmap_path, svg_path, frames_path) =
            (join(path, "bitmap"), join(path, "svg"), join(path, "frames"));
        // `bitmap`, `svg` and `frames` objects are leaves: that field is their only content.
        let leaves: [(&str, &str, &[&str], &str); 3] = [
            (
                "bitmap",
                &bitmap_path,
                &["graphics", "children"],
                "the root is a container; it cannot have a bitmap",
            ),
            (
                "svg",
                &svg_path,
                &["graphics", "children", "bitmap"],
                "the root cannot be an svg object; give it a child",
            ),
            (
                "frames",
                &frames_path,
                &["graphics", "children", "bitmap", "svg"],
                "the root is a container; it cannot have frames",
            ),
        ];
        for (kind, at, others, at_root) in leaves {
            if get(fields, kind).is_none() {
                continue;
            }
            if let Some(k) = others.iter().find(|k| get(fields, k).is_some()) {
                return Err(self.err(at, format!("an object with `{kind}` cannot have `{k}`")));
            }
            if parent.is_none() {
                return Err(self.err(at, at_root));
            }
        }
        if get(fields, "frames").is_none() && get(fields, "frame").is_some() {
            return Err(self.err(&join(path, "frame"), "`frame` needs `frames`"));
        }
        let name = match get(fields, "name") {
            None => None,
            Some(n) => {
                let at = join(path, "name");
                let n = self.string(n, &at)?;
                if let Some((_, first)) = self.names.get(n) {
                    let first = self.places.path(*first, "name");
                    return Err(self.err(
                        &at,
                        format!("duplicate name {} (first used at {first})", json_string(n)),
                    ));
                }
                Some((n, at))
            }
        };
        let bitmap = match get(fields, "bitmap") {
            Some(b) => Some(self.bitmap(b, &bitmap_path, true)?),
            None => None,
        };
        let frames = match get(fields, "frames") {
            Some(v) => Some(self.frames(v, &frames_path)?),
            None => None,
        };
        let id = match (parent, bitmap, frames) {
            (None, _, _) => Ok(self.stage.root()),
            (Some(p), _, Some(frames)) => self.stage.add_frames(p, frames),
            (Some(p), Some((bm, smoothing)), None) => self.stage.add_bitmap(p, bm, smoothing),
            (Some(p), None, None) => self.stage.add_container(p),
        }
        .map_err(|e| self.err(path, e.to_string()))?;
        if let Some(Json::Object(b)) = get(fields, "bitmap") {
            if let Some(edits) = get(b, "edits") {
                self.edits(edits, &join(&bitmap_path, "edits"), id)?;
            }
            if let Some(r) = get(b, "renderer") {
                self.renderer(r, &join(&bitmap_path, "renderer"), id)?;
            }
        }
        if let Some(v) = get(fields, "frame") {
            let at = join(path, "frame");
            let x = self.number(v, &at)?;
            let count = self.stage.frame_count(id).unwrap_or(0);
            if x.fract() != 0.0 || x < 0.0 || x >= count as f64 {
                return Err(self.err(
                    &at,
                    format!(
                        "expected a frame index, a whole number from 0 to {}; found {x}",
                        count.saturating_sub(1)
                    ),
                ));
            }
            self.stage
                .set_frame(id, x as usize)
                .map_err(|e| self.err(&at, e.to_string()))?;
        }
        if let Some((n, at)) = name {
            self.stage
                .set_name(id, n)
                .map_err(|e| self.err(&at, e.to_string()))?;
            self.names.insert(n.to_string(), (id, place));
        }
        if let Some(m) = get(fields, "matrix") {
            let at = join(path, "matrix");
            let items = self.array(m, &at)?;
            if items.len() != 6 {
                return Err(self.err(
                    &at,
                    format!("expected 6 numbers [a, b, c, d, tx, ty], found {}", items.len()),
                ));
            }
            let mut cols = [0.0; 6];
            for (i, (slot, item)) in cols.iter_mut().zip(items).enumerate() {
                *slot = self.number(item, &format!("{at}[{i}]"))?;
            }
            self.stage
                .set_matrix(id, DAffine2::from_cols_array(&cols))
                .map_err(|e| self.err(&at, e.to_string()))?;
        }
        for (p, set) in PROPERTIES {
            if let Some(v) = get(fields, p) {
                let at = join(path, p);
                let x = self.number(v, &at)?;
                set(&mut self.stage, id, x).map_err(|e| self.err(&at, e.to_string()))?;
            }
        }
        if let Some(v) = get(fields, "visible") {
            let visible = self.boolean(v, &join(path, "visible"))?;
            self.stage
                .set_visible(id, visible)
                .map_err(|e| self.err(path, e.to_string()))?;
        }
        if let Some(v) = get(fields, "tolerance") {
            let t = self.tolerance(v, &join(path, "tolerance"))?;
            self.stage
                .set_tolerance(id, Some(t))
                .map_err(|e| self.err(path, e.to_string()))?;
        }
        let mut ct = ColorTransform::IDENTITY;
        let ct_path = join(path, "color_transform");
        if let Some(v) = get(fields, "color_transform") {
            let f = self.object(v, &ct_path)?;
            self.check_keys(f, &ct_path, &CT_FIELDS, "a colour transform")?;
            let mut values = ct.to_array();
            for (slot, key) in values.iter_mut().zip(CT_FIELDS) {
                if let Some(x) = get(f, key) {
                    *slot = self.number(x, &join(&ct_path, key))?;
                }
            }
            let [rm, gm, bm, am, ro, go, bo, ao] = values;
            ct = ColorTransform::new([rm, gm, bm, am], [ro, go, bo, ao]);
        }
        if let Some(v) = get(fields, "alpha") {
            ct.alpha_multiplier *= self.unit_interval(v, &join(path, "alpha"))?;
        }
        self.stage
            .set_color_transform(id, ct)
            .map_err(|e| self.err(&ct_path, e.to_string()))?;
        if let Some(v) = get(fields, "graphics") {
            let at = join(path, "graphics");
            for (i, item) in self.array(v, &at)?.iter().enumerate() {
                let g = self.graphic(item, &format!("{at}[{i}]"))?;
                self.stage
                    .add_graphic(id, g)
                    .map_err(|e| self.err(&at, e.to_string()))?;
            }
        }
        if let Some(v) = get(fields, "svg") {
            self.svg(v, &svg_path, id, place)?;
        }
        self.interactivity(fields, id, place)?;
        let children = match get(fields, "children") {
            Some(v) => self.array(v, &join(path, "children"))?,
            None => &[],
        };
        Ok((id, children))
    }

    /// The fields of semantics.md sections 6 and 7 (scene-format.md, "Interactivity").
    pub(super) fn interactivity(&mut self, fields: &Fields, id: NodeId, place: usize) -> Result<()> {
        let leaf = ["bitmap", "svg", "frames"]
            .into_iter()
            .find(|k| get(fields, k).is_some());
        if let Some(v) = get(fields, "scroll_rect") {
            let at = "scroll_rect";
            let items = self.array(v, at)?;
            if items.len() != 4 {
                let found = items.len();
                return Err(self.err(at, format!("expected 4 numbers [x, y, w, h], found {found}")));
            }
            let mut xywh = [0.0; 4];
            for (i, (slot, item)) in xywh.iter_mut().zip(items).enumerate() {
                *slot = self.number(item, &format!("{at}[{i}]"))?;
            }
            self.stage
                .set_scroll_rect(id, Some(xywh))
                .map_err(|e| self.err(at, e.to_string()))?;
        }
        // Bitmaps and animated leaves are never interactive; an SVG object is artwork, a
        // Flash Shape, so it is not either.
        let interactive = match get(fields, "interactive") {
            Some(v) => {
                let yes = self.boolean(v, "interactive")?;
                if let (true, Some(k)) = (yes, leaf) {
                    return Err(self.err(
                        "interactive",
                        format!("an object with `{k}` is never interactive (a Flash Shape or Bitmap)"),
                    ));
                }
                yes
            }
            None => leaf.is_none() && self.stage.interactive(id).unwrap_or(false),
        };
        self.stage
            .set_interactive(id, interactive)
            .map_err(|e| self.err("interactive", e.to_string()))?;
        for (key, set) in [
            (
                "mouse_enabled",
                Stage::set_mouse_enabled as fn(&mut Stage, NodeId, bool) -> Result<()>,
            ),
            ("mouse_children", Stage::set_mouse_children),
        ] {
            if let Some(v) = get(fields, key) {
                let on = self.boolean(v, key)?;
                if !interactive {
                    return Err(self.err(key, format!("`{key}` belongs to interactive objects only")));
                }
                set(&mut self.stage, id, on).map_err(|e| self.err(key, e.to_string()))?;
            }
        }
        for key in ["mask", "hit_area"] {
            if let Some(v) = get(fields, key) {
                let name = self.string(v, key)?.to_string();
                if key == "hit_area" && !interactive {
                    return Err(self.err(key, "`hit_area` belongs to interactive objects only"));
                }
                self.pending.push((id, key, name, place));
            }
        }
        Ok(())
    }

    /// The `frames` of an animated object: each `{"bitmap": ...}` or `{"graphics": [...]}`,
    /// or the frames of an atlas (`{"atlas": ...}`, [`Loader::atlas_frames`]).
    pub(super) fn frames(&mut self, v: &Json, path: &str) -> Result<Vec<Frame>> {
        if let Json::Object(fields) = v {
            return self.atlas_frames(fields, path);
        }
        let items = self.array(v, path)?;
        if items.is_empty() {
            return Err(self.err(path, "an animated object needs at least one frame"));
        }
        let mut frames = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let at = format!("{path}[{i}]");
            let f = self.object(item, &at)?;
            self.check_keys(f, &at, &["bitmap", "graphics", "offset"], "a frame")?;
            if get(f, "graphics").is_some() && get(f, "offset").is_some() {
                return Err(self.err(&join(&at, "offset"), "`offset` belongs to bitmap frames"));
            }
            frames.push(match (get(f, "bitmap"), get(f, "graphics")) {
                (Some(b), None) => {
                    let bat = join(&at, "bitmap");
                    if let Json::Object(fields) = b
                        && get(fields, "edits").is_some()
                    {
                        return Err(
                            self.err(&join(&bat, "edits"), "edits are for bitmap objects, not frames")
                        );
                    }
                    let (bitmap, smoothing) = self.bitmap(b, &bat, false)?;
                    let offset = match get(f, "offset") {
                        Some(o) => self.offset(o, &join(&at, "offset"))?,
                        None => (0, 0),
                    };
                    Frame::Bitmap {
                        bitmap,
                        smoothing,
                        offset,
                    }
                }
                (None, Some(g)) => {
                    let gat = join(&at, "graphics");
                    let mut list = Vec::new();
                    for (k, item) in self.array(g, &gat)?.iter().enumerate() {
                        list.push(self.graphic(item, &format!("{gat}[{k}]"))?);
                    }
                    Frame::Graphics(list)
                }
                _ => return Err(self.err(&at, "a frame has either `bitmap` or `graphics`")),
            });
        }
        Ok(frames)
    }

    /// A frame's `offset`: two whole numbers `[x, y]` that fit in an i32.
    pub(super) fn offset(&self, v: &Json, path: &str) -> Result<(i32, i32)> {
        let items = self.array(v, path)?;
        if items.len() != 2 {
            let found = items.len();
            return Err(self.err(
                path,
                format!("expected 2 whole numbers [x, y], found {found} items"),
            ));
        }
        let mut xy = [0i32; 2];
        for (i, (slot, item)) in xy.iter_mut().zip(items).enumerate() {
            let at = format!("{path}[{i}]");
            let x = self.number(item, &at)?;
            if x.fract() != 0.0 || x < f64::from(i32::MIN) || x > f64::from(i32::MAX) {
                return Err(self.err(
                    &at,
                    format!("expected a whole number of texels, found {}", fmt_num(x)),
                ));
            }
            *slot = x as i32;
        }
        Ok((xy[0], xy[1]))
    }

    /// Adds the content of the SVG file named at `path` under the object `id`, and keeps its
    /// warnings with their place in the scene file.
    #[cfg(feature = "svg")]
    pub(super) fn svg(&mut self, v: &Json, path: &str, id: NodeId, place: usize) -> Result<()> {
        let file = self.base_dir.join(self.string(v, path)?);
        let doc = match self.svgs.get(&file) {
            Some(doc) => doc.clone(),
            None => {
                let doc =
                    crate::svg::SvgDocument::from_file(&file).map_err(|e| self.err(path, e.to_string()))?;
                // Its PNGs count with the scene's own, once per file like them.
                self.count_image_bytes(doc.image_bytes(), path, &file.display().to_string())?;
                self.svgs.insert(file.clone(), doc.clone());
                doc
            }
        };
        // Each object showing the document gets a copy of its tree: they count together.
        self.svg_expanded = self.svg_expanded.saturating_add(doc.expanded_size());
        if self.svg_expanded > crate::svg::SCENE_SVG_EXPANDED {
            return Err(self.err(
                path,
                format!(
                    "the scene's SVG objects would add more than {} bytes in all \
                     (svg::SCENE_SVG_EXPANDED; {} counts {} each time it is shown)",
                    crate::svg::SCENE_SVG_EXPANDED,
                    file.display(),
                    doc.expanded_size()
                ),
            ));
        }
        let load = doc
            .add_to(&mut self.stage, id)
            .map_err(|e| self.err(path, e.to_string()))?;
        let at = self.places.path(place, path);
        for w in load.warnings {
            self.warnings.push(format!("{}: {at}: {w}", self.file));
        }
        Ok(())
    }

    #[cfg(not(feature = "svg"))]
    pub(super) fn svg(&mut self, v: &Json, path: &str, _id: NodeId, _place: usize) -> Result<()> {
        self.string(v, path)?;
        Err(self.err(
            path,
            "this pixelhit was built without SVG support (cargo feature `svg`)",
        ))
    }

    /// A `bitmap` field: `{"png", "smoothing", "region"}`, and `renderer` too (read by the
    /// caller, once the node exists) only with `with_renderer` (an object's bitmap, not a
    /// frame's).
    pub(super) fn bitmap(&mut self, v: &Json, path: &str, with_renderer: bool) -> Result<(Bitmap, bool)> {
        let fields = self.object(v, path)?;
        let keys: &[&str] = match with_renderer {
            true => &["png", "smoothing", "region", "renderer", "edits"],
            false => &["png", "smoothing", "region"],
        };
        self.check_keys(fields, path, keys, "a bitmap")?;
        let png_path = join(path, "png");
        let png = self.string(self.required(fields, path, "png")?, &png_path)?;
        let smoothing = match get(fields, "smoothing") {
            Some(s) => self.boolean(s, &join(path, "smoothing"))?,
            None => false,
        };
        let bitmap = self.png(png, &png_path)?;
        let Some(r) = get(fields, "region") else {
            return Ok((bitmap, smoothing));
        };
        let at = join(path, "region");
        let items = self.array(r, &at)?;
        if items.len() != 4 {
            let found = items.len();
            return Err(self.err(
                &at,
                format!("expected 4 whole numbers [x, y, w, h], found {found} items"),
            ));
        }
        let mut xywh = [0u32; 4];
        for (i, (slot, item)) in xywh.iter_mut().zip(items).enumerate() {
            let n = self.number(item, &format!("{at}[{i}]"))?;
            if n.fract() != 0.0 || !(0.0..=f64::from(u32::MAX)).contains(&n) {
                return Err(self.err(
                    &format!("{at}[{i}]"),
                    format!("expected a whole number of texels, found {}", fmt_num(n)),
                ));
            }
            *slot = n as u32;
        }
        let [x, y, w, h] = xywh;
        let region = bitmap
            .region(x, y, w, h)
            .map_err(|e| self.err(&at, e.to_string()))?;
        Ok((region, smoothing))
    }

    pub(super) fn graphic(&self, v: &Json, path: &str) -> Result<Graphic> {
        let fields = self.object(v, path)?;
        self.check_keys(
            fields,
            path,
            &["fill", "fill_rule", "stroke", "width", "alpha"],
            "a graphics entry",
        )?;
        let alpha = match get(fields, "alpha") {
            Some(a) => self.unit_interval(a, &join(path, "alpha"))?,
            None => 1.0,
        };
        let svg = |key: &str, data: &Json| -> Result<Path> {
            let at = join(path, key);
            let s = self.string(data, &at)?;
            Path::from_svg(s).map_err(|e| self.err(&at, e.to_string()))
        };
        match (get(fields, "fill"), get(fields, "stroke")) {
            (Some(_), Some(_)) => Err(self.err(
                &join(path, "stroke"),
                "a graphics entry is a fill or a stroke, not both",
            )),
            (None, None) => Err(self.err(path, "a graphics entry needs a `fill` or a `stroke`")),
            (Some(data), None) => {
                if get(fields, "width").is_some() {
                    return Err(self.err(
                        &join(path, "width"),
                        "`width` belongs to strokes; this entry is a fill",
                    ));
                }
                let p = svg("fill", data)?;
                let rule = self.fill_rule(fields, path)?;
                Graphic::fill(p, rule, alpha).map_err(|e| self.err(&join(path, "fill"), e.to_string()))
            }
            (None, Some(data)) => {
                if get(fields, "fill_rule").is_some() {
                    return Err(self.err(
                        &join(path, "fill_rule"),
                        "`fill_rule` belongs to fills; this entry is a stroke",
                    ));
                }
                let p = svg("stroke", data)?;
                let at = join(path, "width");
                let width = self.number(
                    get(fields, "width").ok_or_else(|| self.err(&at, "missing: a stroke needs a width"))?,
                    &at,
                )?;
                if width < 0.0 {
                    return Err(self.err(&at, format!("expected a width >= 0, found {}", fmt_num(width))));
                }
                Graphic::stroke(p, width, alpha).map_err(|e| self.err(&join(path, "stroke"), e.to_string()))
            }
        }
    }
}
