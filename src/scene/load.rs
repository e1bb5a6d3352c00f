//! Reading a scene file into a [`Scene`]: its limits, the checks of every field, and the
//! tree built in file order.

use std::collections::HashMap;
use std::path::Path as FsPath;

use glam::DAffine2;

mod motion;

use super::json::{Json, parse_json};
use super::places::Places;
use super::text::{fmt_num, json_string};
use super::{CT_FIELDS, Query, Scene};
use crate::{
    Bitmap, ColorTransform, Error, FillRule, Frame, Graphic, ImageLimits, NodeId, Path, Result, Stage,
};

/// What loading a scene file may take, so that a hostile or broken file is refused with a
/// message instead of filling the memory. `SceneLimits::default()` is what [`Scene::load`]
/// uses.
///
/// Objects may in any case nest at most 131,070 levels below the root (JSON nesting of
/// 262,144 levels), which bounds the memory parsing needs for its stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SceneLimits {
    /// Largest scene file read, in bytes (default 256 MiB). Loading takes memory in
    /// proportion to the file: about 20 times its size at most (1,000,000 objects in a
    /// file of 90 MB peak at 1.8 GB), so this bounds it to about 5 GiB.
    pub max_file_bytes: u64,
    /// Limits of each PNG the scene shows (default [`ImageLimits::default`]).
    pub images: ImageLimits,
    /// Largest total of decoded PNG pixels, in bytes (RGBA: 4 per pixel), over all the
    /// distinct files the scene shows, PNGs inside its SVG files included (default 1 GiB).
    pub max_image_bytes: u64,
}

impl Default for SceneLimits {
    fn default() -> Self {
        SceneLimits {
            max_file_bytes: 256 << 20,
            images: ImageLimits::default(),
            max_image_bytes: 1 << 30,
        }
    }
}

impl SceneLimits {
    /// Sets `max_file_bytes`.
    pub fn max_file_bytes(mut self, bytes: u64) -> Self {
        self.max_file_bytes = bytes;
        self
    }
    /// Sets `images`.
    pub fn images(mut self, limits: ImageLimits) -> Self {
        self.images = limits;
        self
    }
    /// Sets `max_image_bytes`.
    pub fn max_image_bytes(mut self, bytes: u64) -> Self {
        self.max_image_bytes = bytes;
        self
    }
}

impl Scene {
    /// Reads a scene file; bitmap paths in it are relative to the file's folder.
    ///
    /// # Errors
    ///
    /// [`Error::Io`] when the file cannot be read, [`Error::Scene`] naming the file and the
    /// place of the first problem otherwise (PNG errors included, at the `png` field), also
    /// when the file or its images exceed [`SceneLimits::default`].
    pub fn load(path: impl AsRef<FsPath>) -> Result<Scene> {
        Scene::load_with_limits(path, &SceneLimits::default())
    }

    /// [`Scene::load`] with explicit limits.
    ///
    /// # Errors
    ///
    /// As [`Scene::load`], with `limits`.
    pub fn load_with_limits(path: impl AsRef<FsPath>, limits: &SceneLimits) -> Result<Scene> {
        use std::io::Read as _;
        let path = path.as_ref();
        let name = path.display().to_string();
        let io_err = |e: std::io::Error| Error::Io {
            path: name.clone(),
            reason: e.to_string(),
        };
        // One byte past the limit is read, so that a file over it is told apart without
        // reading all of it (it may be endless, like /dev/zero).
        let mut bytes = Vec::new();
        std::fs::File::open(path)
            .map_err(io_err)?
            .take(limits.max_file_bytes.saturating_add(1))
            .read_to_end(&mut bytes)
            .map_err(io_err)?;
        let base = path.parent().unwrap_or(FsPath::new(""));
        parse_scene(&bytes, &name, base, limits)
    }

    /// Parses scene-file text; `file_name` is what error messages call it and bitmap paths
    /// are relative to `base_dir`.
    ///
    /// # Errors
    ///
    /// [`Error::Scene`] as for [`Scene::load`].
    pub fn from_json(text: &str, file_name: &str, base_dir: &FsPath) -> Result<Scene> {
        parse_scene(text.as_bytes(), file_name, base_dir, &SceneLimits::default())
    }

    /// Parses the bytes of a scene file (read from anywhere: the network, an archive) with
    /// explicit limits; as [`Scene::from_json`] otherwise. Text that is not UTF-8 is an
    /// error located by line and column.
    ///
    /// # Errors
    ///
    /// [`Error::Scene`] as for [`Scene::load`], with `limits`.
    pub fn from_bytes(
        bytes: &[u8],
        file_name: &str,
        base_dir: &FsPath,
        limits: &SceneLimits,
    ) -> Result<Scene> {
        parse_scene(bytes, file_name, base_dir, limits)
    }
}

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

const QUERY_KINDS: &str = "collision_rect, bounds, tight_bounds, hit_test_point, hit_test_object, collides, \
     collisions, pick, objects_under_point, rect, visible_bounds, local_to_global, global_to_local, scroll_rect, \
     sweep, sweeps_with, separation";

type Fields = [(String, Json)];

fn get<'j>(fields: &'j Fields, key: &str) -> Option<&'j Json> {
    fields.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

fn parse_scene(bytes: &[u8], file: &str, base_dir: &FsPath, limits: &SceneLimits) -> Result<Scene> {
    if bytes.len() as u64 > limits.max_file_bytes {
        return Err(Error::Scene {
            file: file.to_string(),
            location: "the whole file".into(),
            // `load` stops reading one byte past the limit, so the size is not known.
            reason: format!(
                "more than {} bytes, the limit for a scene file",
                limits.max_file_bytes
            ),
        });
    }
    let json = parse_json(bytes, file)?;
    let mut loader = Loader {
        file,
        base_dir,
        limits,
        stage: Stage::new(),
        names: HashMap::new(),
        pngs: HashMap::new(),
        image_bytes: 0,
        places: Places::default(),
        at: None,
        #[cfg(feature = "svg")]
        svgs: HashMap::new(),
        #[cfg(feature = "svg")]
        svg_expanded: 0,
        warnings: Vec::new(),
        pending: Vec::new(),
    };
    let queries = loader.scene(&json)?;
    Ok(Scene {
        stage: loader.stage,
        names: loader.names.into_iter().map(|(k, (id, _))| (k, id)).collect(),
        queries,
        file: file.to_string(),
        warnings: loader.warnings,
    })
}

/// State of one load: the tree built so far and the names given (with where, for the
/// duplicate-name message).
struct Loader<'a> {
    file: &'a str,
    base_dir: &'a FsPath,
    limits: &'a SceneLimits,
    stage: Stage,
    names: HashMap<String, (NodeId, usize)>,
    /// PNGs already read, by path, so that objects showing one file share one bitmap.
    pngs: HashMap<std::path::PathBuf, Bitmap>,
    /// Decoded bytes of the PNGs read so far.
    image_bytes: u64,
    places: Places,
    /// The place of the object being read, which the locations given to `err` are relative
    /// to; `None` outside the object tree, where locations are complete.
    at: Option<usize>,
    /// SVG files already parsed, by path, so that objects showing one file parse it once.
    #[cfg(feature = "svg")]
    svgs: HashMap<std::path::PathBuf, crate::svg::SvgDocument>,
    /// What the SVG objects added so far count against [`crate::svg::SCENE_SVG_EXPANDED`].
    #[cfg(feature = "svg")]
    svg_expanded: u64,
    /// Messages of [`Scene::warnings`].
    warnings: Vec<String>,
    /// `mask` and `hit_area` fields, set once every name is known: the object, the field,
    /// the name it gives, and the object's place.
    pending: Vec<(NodeId, &'static str, String, usize)>,
}

impl Loader<'_> {
    fn err(&self, location: &str, reason: impl Into<String>) -> Error {
        let location = match self.at {
            Some(place) => self.places.path(place, location),
            None => location.to_string(),
        };
        Error::Scene {
            file: self.file.to_string(),
            location,
            reason: reason.into(),
        }
    }

    fn expected(&self, path: &str, what: &str, v: &Json) -> Error {
        self.err(path, format!("expected {what}, found {}", v.kind()))
    }

    fn object<'j>(&self, v: &'j Json, path: &str) -> Result<&'j Fields> {
        match v {
            Json::Object(f) => Ok(f),
            other => Err(self.expected(path, "an object", other)),
        }
    }

    fn array<'j>(&self, v: &'j Json, path: &str) -> Result<&'j [Json]> {
        match v {
            Json::Array(a) => Ok(a),
            other => Err(self.expected(path, "an array", other)),
        }
    }

    fn string<'j>(&self, v: &'j Json, path: &str) -> Result<&'j str> {
        match v {
            Json::String(s) => Ok(s),
            other => Err(self.expected(path, "a string", other)),
        }
    }

    fn boolean(&self, v: &Json, path: &str) -> Result<bool> {
        match v {
            Json::Bool(b) => Ok(*b),
            other => Err(self.expected(path, "true or false", other)),
        }
    }

    fn number(&self, v: &Json, path: &str) -> Result<f64> {
        match v {
            Json::Number(n) if n.is_finite() => Ok(*n),
            Json::Number(n) => Err(self.err(path, format!("expected a finite number, found {n}"))),
            other => Err(self.expected(path, "a number", other)),
        }
    }

    fn unit_interval(&self, v: &Json, path: &str) -> Result<f64> {
        let a = self.number(v, path)?;
        if (0.0..=1.0).contains(&a) {
            Ok(a)
        } else {
            Err(self.err(path, format!("alpha must be in 0..1, found {}", fmt_num(a))))
        }
    }

    fn check_keys(&self, fields: &Fields, path: &str, allowed: &[&str], what: &str) -> Result<()> {
        for (k, _) in fields {
            if !allowed.contains(&k.as_str()) {
                return Err(self.err(
                    &join(path, k),
                    format!(
                        "unknown field {} ({what} has {})",
                        json_string(k),
                        allowed.join(", ")
                    ),
                ));
            }
        }
        Ok(())
    }

    fn required<'j>(&self, fields: &'j Fields, path: &str, key: &str) -> Result<&'j Json> {
        get(fields, key).ok_or_else(|| self.err(&join(path, key), "missing (this field is required)"))
    }

    fn scene(&mut self, json: &Json) -> Result<Vec<Query>> {
        let fields = match json {
            Json::Object(f) => f,
            other => return Err(self.expected("top level", "an object", other)),
        };
        // The version comes first: a file of another version may have other fields.
        match get(fields, "pixelhit_scene") {
            None => {
                return Err(self.err(
                    "pixelhit_scene",
                    "missing: a scene file has \"pixelhit_scene\": 1",
                ));
            }
            Some(Json::Number(v)) if *v == 1.0 => {}
            Some(Json::Number(v)) => {
                return Err(self.err(
                    "pixelhit_scene",
                    format!("unsupported version {}; this tool reads version 1", fmt_num(*v)),
                ));
            }
            Some(other) => return Err(self.expected("pixelhit_scene", "the number 1", other)),
        }
        self.check_keys(fields, "", &["pixelhit_scene", "root", "queries"], "a scene file")?;
        let root = self.required(fields, "", "root")?;
        self.tree(root)?;
        let mut queries = Vec::new();
        if let Some(q) = get(fields, "queries") {
            for (i, item) in self.array(q, "queries")?.iter().enumerate() {
                queries.push(self.query(item, &format!("queries[{i}]"))?);
            }
        }
        Ok(queries)
    }

    /// Reads the object tree without recursion (objects may nest 100,000 deep), in file
    /// order: each object's own fields, then its children's subtrees one after another.
    fn tree(&mut self, root: &Json) -> Result<()> {
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
    fn links(&mut self) -> Result<()> {
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
    fn node<'j>(
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
            Some(b) => Some(self.bitmap(b, &bitmap_path)?),
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
    fn interactivity(&mut self, fields: &Fields, id: NodeId, place: usize) -> Result<()> {
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

    /// The `frames` of an animated object: each `{"bitmap": ...}` or `{"graphics": [...]}`.
    fn frames(&mut self, v: &Json, path: &str) -> Result<Vec<Frame>> {
        let items = self.array(v, path)?;
        if items.is_empty() {
            return Err(self.err(path, "an animated object needs at least one frame"));
        }
        let mut frames = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let at = format!("{path}[{i}]");
            let f = self.object(item, &at)?;
            self.check_keys(f, &at, &["bitmap", "graphics"], "a frame")?;
            frames.push(match (get(f, "bitmap"), get(f, "graphics")) {
                (Some(b), None) => {
                    let (bitmap, smoothing) = self.bitmap(b, &join(&at, "bitmap"))?;
                    Frame::Bitmap { bitmap, smoothing }
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

    /// Adds the content of the SVG file named at `path` under the object `id`, and keeps its
    /// warnings with their place in the scene file.
    #[cfg(feature = "svg")]
    fn svg(&mut self, v: &Json, path: &str, id: NodeId, place: usize) -> Result<()> {
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
                    "the scene's SVG objects would add more than {} elements and points in all \
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
    fn svg(&mut self, v: &Json, path: &str, _id: NodeId, _place: usize) -> Result<()> {
        self.string(v, path)?;
        Err(self.err(
            path,
            "this pixelhit was built without SVG support (cargo feature `svg`)",
        ))
    }

    fn bitmap(&mut self, v: &Json, path: &str) -> Result<(Bitmap, bool)> {
        let fields = self.object(v, path)?;
        self.check_keys(fields, path, &["png", "smoothing"], "a bitmap")?;
        let png_path = join(path, "png");
        let png = self.string(self.required(fields, path, "png")?, &png_path)?;
        let smoothing = match get(fields, "smoothing") {
            Some(s) => self.boolean(s, &join(path, "smoothing"))?,
            None => false,
        };
        let file = self.base_dir.join(png);
        if let Some(b) = self.pngs.get(&file) {
            return Ok((b.clone(), smoothing));
        }
        let bitmap = Bitmap::from_png_file_with_limits(&file, &self.limits.images).map_err(|e| {
            let reason = match e {
                // The image error names its source; an I/O error names the path already.
                Error::Io { .. } | Error::Image { .. } => e.to_string(),
                other => format!("{}: {other}", file.display()),
            };
            self.err(&png_path, reason)
        })?;
        let what = format!("image {}", file.display());
        self.count_image_bytes(bitmap.rgba().len() as u64, &png_path, &what)?;
        self.pngs.insert(file, bitmap.clone());
        Ok((bitmap, smoothing))
    }

    /// Adds decoded image bytes to the scene's total: each image is within its own limits,
    /// but many of them could still fill the memory.
    fn count_image_bytes(&mut self, bytes: u64, path: &str, what: &str) -> Result<()> {
        self.image_bytes += bytes;
        if self.image_bytes > self.limits.max_image_bytes {
            return Err(self.err(
                path,
                format!(
                    "{what}: the scene's images take more than {} bytes decoded, its limit",
                    self.limits.max_image_bytes
                ),
            ));
        }
        Ok(())
    }

    fn graphic(&self, v: &Json, path: &str) -> Result<Graphic> {
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
                let rule = match get(fields, "fill_rule") {
                    None => FillRule::NonZero,
                    Some(r) => {
                        let at = join(path, "fill_rule");
                        match self.string(r, &at)? {
                            "nonzero" => FillRule::NonZero,
                            "evenodd" => FillRule::EvenOdd,
                            other => {
                                return Err(self.err(
                                    &at,
                                    format!(
                                        "expected \"nonzero\" or \"evenodd\", found {}",
                                        json_string(other)
                                    ),
                                ));
                            }
                        }
                    }
                };
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

    fn query(&self, v: &Json, path: &str) -> Result<Query> {
        let fields = self.object(v, path)?;
        let [(kind, body)] = fields else {
            return Err(self.err(
                path,
                format!(
                    "a query is an object with exactly one key, its kind ({QUERY_KINDS}); found {} keys",
                    fields.len()
                ),
            ));
        };
        let path = join(path, kind);
        let path = path.as_str();
        let name = |f: &Fields, key: &str| -> Result<String> {
            Ok(self
                .string(self.required(f, path, key)?, &join(path, key))?
                .to_string())
        };
        let number = |f: &Fields, key: &str| -> Result<f64> {
            self.number(self.required(f, path, key)?, &join(path, key))
        };
        let flag = |f: &Fields, key: &str, default: bool| -> Result<bool> {
            get(f, key).map_or(Ok(default), |v| self.boolean(v, &join(path, key)))
        };
        // The motion queries are read in load/motion.rs.
        if let Some(q) = self.motion_query(kind, body, path)? {
            return Ok(Query::Motion(q));
        }
        let allowed: &[&str] = match kind.as_str() {
            "collision_rect" => &["a", "b", "parent", "precise", "tolerance", "anti_alias", "method"],
            "collides" => &["a", "b", "parent", "tolerance", "method"],
            "bounds" | "tight_bounds" => &["object", "space"],
            "hit_test_point" => &["object", "x", "y", "shape_flag"],
            "hit_test_object" => &["a", "b"],
            "collisions" => &["parent", "objects", "tolerance", "anti_alias", "details"],
            "pick" => &["x", "y", "bitmap_hit"],
            "objects_under_point" => &["container", "x", "y"],
            "rect" | "visible_bounds" => &["object", "space"],
            "local_to_global" | "global_to_local" => &["object", "x", "y"],
            "scroll_rect" => &["object"],
            other => {
                return Err(self.err(
                    path,
                    format!(
                        "unknown query kind {} (the kinds are {QUERY_KINDS})",
                        json_string(other)
                    ),
                ));
            }
        };
        let f = self.object(body, path)?;
        self.check_keys(f, path, allowed, &format!("a {kind} query"))?;
        Ok(match kind.as_str() {
            "collision_rect" => {
                let a = name(f, "a")?;
                let b = name(f, "b")?;
                let parent = name(f, "parent")?;
                let precise = flag(f, "precise", true)?;
                let tolerance = match get(f, "tolerance") {
                    None => 255,
                    Some(t) => self.tolerance(t, &join(path, "tolerance"))?,
                };
                let anti_alias = flag(f, "anti_alias", true)?;
                let method = self.method(f, path)?;
                Query::CollisionRect {
                    a,
                    b,
                    parent,
                    precise,
                    tolerance,
                    anti_alias,
                    method,
                }
            }
            "collides" => Query::Collides {
                a: name(f, "a")?,
                b: name(f, "b")?,
                parent: name(f, "parent")?,
                tolerance: match get(f, "tolerance") {
                    None => 255,
                    Some(t) => self.tolerance(t, &join(path, "tolerance"))?,
                },
                method: self.method(f, path)?,
            },
            "bounds" => Query::Bounds {
                object: name(f, "object")?,
                space: name(f, "space")?,
            },
            "tight_bounds" => Query::TightBounds {
                object: name(f, "object")?,
                space: name(f, "space")?,
            },
            "hit_test_point" => Query::HitTestPoint {
                object: name(f, "object")?,
                x: self.number(self.required(f, path, "x")?, &join(path, "x"))?,
                y: self.number(self.required(f, path, "y")?, &join(path, "y"))?,
                shape_flag: flag(f, "shape_flag", false)?,
            },
            "collisions" => Query::Collisions {
                parent: name(f, "parent")?,
                objects: self.object_list(f, path)?,
                tolerance: match get(f, "tolerance") {
                    None => 255,
                    Some(t) => self.tolerance(t, &join(path, "tolerance"))?,
                },
                anti_alias: flag(f, "anti_alias", true)?,
                details: flag(f, "details", false)?,
            },
            "pick" => Query::Pick {
                x: number(f, "x")?,
                y: number(f, "y")?,
                bitmap_hit: match get(f, "bitmap_hit") {
                    None => crate::BitmapHit::default(),
                    Some(Json::String(s)) if s == "alpha" => crate::BitmapHit::default(),
                    Some(Json::String(s)) if s == "box" => crate::BitmapHit::Box,
                    Some(other) => {
                        return Err(self.expected(&join(path, "bitmap_hit"), "\"alpha\" or \"box\"", other));
                    }
                },
            },
            "objects_under_point" => Query::ObjectsUnderPoint {
                container: name(f, "container")?,
                x: number(f, "x")?,
                y: number(f, "y")?,
            },
            "rect" => Query::Rect {
                object: name(f, "object")?,
                space: name(f, "space")?,
            },
            "visible_bounds" => Query::VisibleBounds {
                object: name(f, "object")?,
                space: name(f, "space")?,
            },
            "local_to_global" => Query::LocalToGlobal {
                object: name(f, "object")?,
                x: number(f, "x")?,
                y: number(f, "y")?,
            },
            "global_to_local" => Query::GlobalToLocal {
                object: name(f, "object")?,
                x: number(f, "x")?,
                y: number(f, "y")?,
            },
            "scroll_rect" => Query::ScrollRect {
                object: name(f, "object")?,
            },
            _ => Query::HitTestObject {
                a: name(f, "a")?,
                b: name(f, "b")?,
            },
        })
    }

    /// The `objects` of a `collisions` query: a list of names, or `"children"` (`None`).
    fn object_list(&self, f: &Fields, path: &str) -> Result<Option<Vec<String>>> {
        let here = join(path, "objects");
        match self.required(f, path, "objects")? {
            Json::String(s) if s == "children" => Ok(None),
            Json::Array(items) => items
                .iter()
                .enumerate()
                .map(|(i, v)| Ok(self.string(v, &format!("{here}[{i}]"))?.to_string()))
                .collect::<Result<Vec<_>>>()
                .map(Some),
            other => Err(self.expected(&here, "a list of names or \"children\"", other)),
        }
    }

    /// The optional `method` of a query (default exact): any method for `collides`, one
    /// that can give a rectangle (`RectMethod`) for `collision_rect`. An unknown name is an
    /// error at `path.method`.
    fn method<M>(&self, f: &Fields, path: &str) -> Result<M>
    where
        M: Default + std::str::FromStr<Err = crate::ParseMethodError>,
    {
        let Some(v) = get(f, "method") else {
            return Ok(M::default());
        };
        let at = join(path, "method");
        self.string(v, &at)?
            .parse()
            .map_err(|e: crate::ParseMethodError| self.err(&at, e.to_string()))
    }

    fn tolerance(&self, v: &Json, path: &str) -> Result<u8> {
        let t = self.number(v, path)?;
        if t == t.trunc() && (0.0..=255.0).contains(&t) {
            Ok(t as u8)
        } else {
            Err(self.err(
                path,
                format!("expected an integer in 0..255, found {}", fmt_num(t)),
            ))
        }
    }
}
