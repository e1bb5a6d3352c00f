//! Scene files (`scene-format.md`): a display tree and queries to run on it, as JSON.
//!
//! Loading is strict on purpose: a scene file is written by people and tools and read back
//! much later, so a typo must not be silently ignored. Every field not named by the format is
//! an error, duplicate keys are errors, and each error names the file and where in it (a
//! line and column for JSON syntax, a field path such as `root.children[1].matrix` for
//! anything else). The whole file is checked and the tree built before any query runs.
//!
//! Numbers are written in their shortest round-trip form and read back exactly (serde_json's
//! `float_roundtrip` feature: its default parser may be off by one unit in the last place).

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path as FsPath;

use glam::DAffine2;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

use crate::{
    Bitmap, CollisionOptions, ColorTransform, Error, FillRule, Graphic, ImageLimits, NodeId, Path, Rect,
    Result, Stage, matrix_from_properties,
};
use crate::{Frame, Method, RectMethod};

/// A display tree loaded from a scene file, with its named objects and its queries.
///
/// ```
/// let text = r#"{
///   "pixelhit_scene": 1,
///   "root": { "name": "stage", "children": [
///     { "name": "box", "x": 5, "graphics": [ { "fill": "M0,0 H10 V10 H0 Z" } ] } ] },
///   "queries": [ { "bounds": { "object": "box", "space": "stage" } } ]
/// }"#;
/// let scene = pixelhit::Scene::from_json(text, "doc.json", std::path::Path::new("."))?;
/// let q = &scene.queries()[0];
/// assert_eq!(scene.run_query(q)?, r#"{"bounds": [5, 0, 10, 10]}"#);
/// # Ok::<(), pixelhit::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Scene {
    /// The display tree. Changing it is allowed; queries look names up when they run, so a
    /// removed node gives a query error, not a wrong answer.
    pub stage: Stage,
    names: HashMap<String, NodeId>,
    queries: Vec<Query>,
    /// The file the scene came from, for messages of query errors.
    file: String,
    /// What the file's SVG objects could not show as their files do.
    warnings: Vec<String>,
}

/// One query of a scene file, with the defaults of `scene-format.md` already applied.
///
/// Objects are referred to by name; a name that is not in the scene is an error of that
/// query when it runs (the other queries still run), not an error of the file.
#[derive(Clone, Debug, PartialEq)]
pub enum Query {
    /// Where `a` and `b` overlap in `parent`'s space ([`Stage::collision`]).
    CollisionRect {
        /// First target.
        a: String,
        /// Second target.
        b: String,
        /// The common parent whose space (and pixel grid) the answer is in.
        parent: String,
        /// Test pixels (default) or only intersect the bounds.
        precise: bool,
        /// A pixel is solid when its alpha is at least `max(1, 255 - tolerance)`; default 255.
        tolerance: u8,
        /// Coverage-weighted edges (default) or pixel-centre sampling.
        anti_alias: bool,
        /// How the pixels are compared ([`Stage::collision_with`]); default exact.
        method: RectMethod,
    },
    /// Flash's `getBounds` of `object` in `space` ([`Stage::bounds`]).
    Bounds {
        /// The object measured.
        object: String,
        /// The object whose coordinates the answer is in.
        space: String,
    },
    /// The exact box of `object`'s geometry in `space` ([`Stage::tight_bounds`]).
    TightBounds {
        /// The object measured.
        object: String,
        /// The object whose coordinates the answer is in.
        space: String,
    },
    /// Whether the point `(x, y)` of the root's space hits `object` ([`Stage::hit_test_point`]).
    HitTestPoint {
        /// The object tested.
        object: String,
        /// x in the root's space.
        x: f64,
        /// y in the root's space.
        y: f64,
        /// Test the shape (true) or only the bounds (false, the default).
        shape_flag: bool,
    },
    /// Whether the tight boxes of `a` and `b` touch ([`Stage::hit_test_object`]).
    HitTestObject {
        /// First object.
        a: String,
        /// Second object.
        b: String,
    },
    /// Whether `a` and `b` collide, tested with `method` ([`Stage::collides`]).
    Collides {
        /// First target.
        a: String,
        /// Second target.
        b: String,
        /// The common parent whose pixel grid is compared in.
        parent: String,
        /// A pixel is solid when its alpha is at least `max(1, 255 - tolerance)`; default 255.
        tolerance: u8,
        /// How the test is done; default exact.
        method: Method,
    },
    /// Every colliding pair among `objects` ([`Stage::collisions`]).
    Collisions {
        /// The common parent whose space (and pixel grid) the answers are in.
        parent: String,
        /// The objects, by name; `None` for `"children"`: the parent's children.
        objects: Option<Vec<String>>,
        /// A pixel is solid when its alpha is at least `max(1, 255 - tolerance)`; default 255.
        tolerance: u8,
        /// Coverage-weighted edges (default) or pixel-centre sampling.
        anti_alias: bool,
        /// Also print each contact's centroid, normal and first pixel (default false).
        details: bool,
    },
}

impl Query {
    /// The query's kind as a scene file spells it, e.g. `collision_rect`.
    pub fn kind(&self) -> &'static str {
        match self {
            Query::CollisionRect { .. } => "collision_rect",
            Query::Bounds { .. } => "bounds",
            Query::TightBounds { .. } => "tight_bounds",
            Query::HitTestPoint { .. } => "hit_test_point",
            Query::HitTestObject { .. } => "hit_test_object",
            Query::Collides { .. } => "collides",
            Query::Collisions { .. } => "collisions",
        }
    }
}

/// Deepest node (the root is depth 0) that a scene file can hold: a node at depth `k` puts
/// its graphics entries at JSON nesting level `2k + 4`, which may not pass
/// [`MAX_NESTING`]. Saving refuses deeper trees so that every saved file loads.
const MAX_SAVE_DEPTH: usize = (MAX_NESTING - 4) / 2;

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

    /// A scene of an existing stage. Names are those of the stage's named nodes; when a name
    /// is used twice the first node in paint order gets it (as [`Stage::find`]).
    pub fn from_stage(stage: Stage, queries: Vec<Query>) -> Scene {
        let mut names = HashMap::new();
        stage.walk(stage.root(), |id, node| {
            if let Some(n) = &node.name {
                names.entry(n.clone()).or_insert(id);
            }
        });
        Scene {
            stage,
            names,
            queries,
            file: "scene".into(),
            warnings: Vec::new(),
        }
    }

    /// The node with this name in the file (or, for [`Scene::from_stage`], in the stage).
    pub fn node(&self, name: &str) -> Option<NodeId> {
        self.names.get(name).copied()
    }

    /// The queries, in file order.
    pub fn queries(&self) -> &[Query] {
        &self.queries
    }

    /// What the file's `svg` objects do not show as their SVG files do (`pixelhit::svg`),
    /// one message per element, each naming the scene file, the object's field and the
    /// element, e.g. `level.json: root.children[2].svg: path #wing: dashed stroke is drawn
    /// solid`. Empty for scenes without `svg` objects.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// Runs one query and gives the output line of `scene-format.md` for it, exactly as
    /// `pixelhit run` prints it (without the newline).
    ///
    /// # Errors
    ///
    /// A query that cannot be answered: [`Error::Scene`] for a name that is not in the
    /// scene, otherwise the error of the stage's query (e.g. [`Error::NotDescendant`] when
    /// `parent` is not above a target). [`Scene::error_line`] turns it into the output line.
    pub fn run_query(&self, q: &Query) -> Result<String> {
        let kind = q.kind();
        match q {
            Query::CollisionRect {
                a,
                b,
                parent,
                precise,
                tolerance,
                anti_alias,
                method,
            } => {
                let a = self.lookup(kind, "a", a)?;
                let b = self.lookup(kind, "b", b)?;
                let parent = self.lookup(kind, "parent", parent)?;
                let opts = CollisionOptions::default()
                    .precise(*precise)
                    .tolerance(*tolerance)
                    .anti_alias(*anti_alias);
                let c = self.stage.collision_with(a, b, parent, &opts, *method)?;
                let mut line = format!("{{\"collision_rect\": {}", rect_json(c.rect));
                if let Some(n) = c.overlap_pixels {
                    let _ = write!(line, ", \"overlap_pixels\": {n}");
                }
                line.push('}');
                Ok(line)
            }
            Query::Bounds { object, space } => {
                let o = self.lookup(kind, "object", object)?;
                let s = self.lookup(kind, "space", space)?;
                let r = self.stage.bounds(o, s)?;
                Ok(format!("{{\"bounds\": {}}}", rect_json(r)))
            }
            Query::TightBounds { object, space } => {
                let o = self.lookup(kind, "object", object)?;
                let s = self.lookup(kind, "space", space)?;
                let r = self.stage.tight_bounds(o, s)?;
                Ok(format!("{{\"tight_bounds\": {}}}", rect_json(r)))
            }
            Query::HitTestPoint {
                object,
                x,
                y,
                shape_flag,
            } => {
                let o = self.lookup(kind, "object", object)?;
                let hit = self.stage.hit_test_point(o, *x, *y, *shape_flag)?;
                Ok(format!("{{\"hit_test_point\": {hit}}}"))
            }
            Query::HitTestObject { a, b } => {
                let a = self.lookup(kind, "a", a)?;
                let b = self.lookup(kind, "b", b)?;
                let hit = self.stage.hit_test_object(a, b)?;
                Ok(format!("{{\"hit_test_object\": {hit}}}"))
            }
            Query::Collides {
                a,
                b,
                parent,
                tolerance,
                method,
            } => {
                let a = self.lookup(kind, "a", a)?;
                let b = self.lookup(kind, "b", b)?;
                let parent = self.lookup(kind, "parent", parent)?;
                let hit = self.stage.collides(a, b, parent, *tolerance, *method)?;
                Ok(format!("{{\"collides\": {hit}}}"))
            }
            Query::Collisions {
                parent,
                objects,
                tolerance,
                anti_alias,
                details,
            } => self.run_collisions(parent, objects.as_deref(), *tolerance, *anti_alias, *details),
        }
    }

    /// The `collisions` query: pairs in tree order, `a` before `b`.
    fn run_collisions(
        &self,
        parent: &str,
        objects: Option<&[String]>,
        tolerance: u8,
        anti_alias: bool,
        details: bool,
    ) -> Result<String> {
        let parent = self.lookup("collisions", "parent", parent)?;
        let mut ids = match objects {
            None => self.stage.children(parent)?.to_vec(),
            Some(names) => names
                .iter()
                .map(|n| self.lookup("collisions", "objects", n))
                .collect::<Result<Vec<_>>>()?,
        };
        let mut order = HashMap::new();
        self.stage.walk(self.stage.root(), |id, _| {
            let next = order.len();
            order.insert(id, next);
        });
        ids.sort_by_key(|id| order.get(id).copied());
        let opts = CollisionOptions::default()
            .tolerance(tolerance)
            .anti_alias(anti_alias);
        let contacts = self.stage.collisions(parent, &ids, &opts, details)?;
        let label = |id: NodeId| match self.stage.name(id) {
            Ok(Some(n)) => json_string(n),
            _ => json_string(&self.stage.describe(id)),
        };
        let mut line = String::from("{\"collisions\": [");
        for (i, c) in contacts.iter().enumerate() {
            if i > 0 {
                line.push_str(", ");
            }
            let _ = write!(
                line,
                "{{\"a\": {}, \"b\": {}, \"rect\": {}, \"overlap_pixels\": {}",
                label(c.a),
                label(c.b),
                rect_json(Some(c.rect)),
                c.overlap_pixels.unwrap_or(0)
            );
            if let Some(d) = &c.details {
                let _ = write!(
                    line,
                    ", \"centroid\": [{}, {}], \"normal\": [{}, {}], \"first\": [{}, {}]",
                    fmt_num(d.centroid.x),
                    fmt_num(d.centroid.y),
                    fmt_num(d.normal.x),
                    fmt_num(d.normal.y),
                    d.first.0,
                    d.first.1
                );
            }
            line.push('}');
        }
        line.push_str("]}");
        Ok(line)
    }

    /// The output line for a query that could not be answered: `{"error": "…"}`. The file
    /// name is left out of the message (the command line already names the file).
    pub fn error_line(err: &Error) -> String {
        let msg = match err {
            Error::Scene { location, reason, .. } => format!("{location}: {reason}"),
            other => other.to_string(),
        };
        format!("{{\"error\": {}}}", json_string(&msg))
    }

    fn lookup(&self, kind: &str, field: &str, name: &str) -> Result<NodeId> {
        self.node(name).ok_or_else(|| Error::Scene {
            file: self.file.clone(),
            location: format!("{kind}.{field}"),
            reason: format!("no object named {}", json_string(name)),
        })
    }

    /// Writes the scene file to `path` and each distinct bitmap beside it as
    /// `<stem>_<n>.png` (n from 0, in paint order), referenced relatively, so that
    /// [`Scene::load`] gives back the same tree and queries.
    ///
    /// # Errors
    ///
    /// As [`Scene::to_json`], and [`Error::Io`] when a file cannot be written.
    pub fn save(&self, path: impl AsRef<FsPath>) -> Result<()> {
        let path = path.as_ref();
        let Some(file_name) = path.file_name() else {
            return Err(Error::Io {
                path: path.display().to_string(),
                reason: "not a file name".into(),
            });
        };
        let (json, pngs) = self.encode(&file_name.to_string_lossy())?;
        let dir = path.parent().unwrap_or(FsPath::new(""));
        for (name, bitmap) in pngs {
            let target = dir.join(&name);
            let bytes = bitmap.to_png_bytes()?;
            std::fs::write(&target, bytes).map_err(|e| Error::Io {
                path: target.display().to_string(),
                reason: e.to_string(),
            })?;
        }
        std::fs::write(path, json).map_err(|e| Error::Io {
            path: path.display().to_string(),
            reason: e.to_string(),
        })
    }

    /// The scene-file text that [`Scene::save`] writes for a file called `file_name`
    /// (bitmaps are referenced as `<stem of file_name>_<n>.png`).
    ///
    /// Matrices that properties describe exactly are written as `x`, `y`, `rotation`,
    /// `scale_x`, `scale_y` (readable, and a sprite scaled to 0 keeps its rotation), others
    /// as `matrix`; an alpha-only colour transform is written as `alpha`.
    ///
    /// # Errors
    ///
    /// [`Error::Scene`] (with `file_name`) when the stage cannot be a scene file: two nodes
    /// share a name, or the tree is deeper than a scene file can hold (131,070 levels below
    /// the root, so that loading, which limits nesting, reads every saved file).
    pub fn to_json(&self, file_name: &str) -> Result<String> {
        Ok(self.encode(file_name)?.0)
    }

    fn encode(&self, file_name: &str) -> Result<(String, Vec<(String, Bitmap)>)> {
        let stem = FsPath::new(file_name)
            .file_stem()
            .map_or_else(|| file_name.to_string(), |s| s.to_string_lossy().into_owned());
        let mut w = Writer {
            stage: &self.stage,
            file: file_name,
            stem,
            pngs: Vec::new(),
            png_index: HashMap::new(),
            names: HashMap::new(),
            places: Places::default(),
        };
        w.check_depth()?;
        let mut out = String::from("{\n  \"pixelhit_scene\": 1,\n  \"root\": ");
        w.tree(&mut out)?;
        if !self.queries.is_empty() {
            out.push_str(",\n  \"queries\": [");
            for (i, q) in self.queries.iter().enumerate() {
                out.push_str(if i == 0 { "\n    " } else { ",\n    " });
                out.push_str(&query_json(q));
            }
            out.push_str("\n  ]");
        }
        out.push_str("\n}\n");
        Ok((out, w.pngs))
    }
}

// ----- output -----

/// A number in the shortest form that reads back as the same f64: integers below 1e15
/// without a fraction (`10`, never `10.0` or `-0`), others as Rust's shortest round-trip
/// form (`0.1`, `1e300`, `1.5e-7`), which is valid JSON.
fn fmt_num(v: f64) -> String {
    if !v.is_finite() {
        // Not produced by the library (rectangles and inputs are finite); JSON has no
        // spelling for it.
        return "null".into();
    }
    if v == v.trunc() && v.abs() < 1e15 {
        return format!("{}", v as i64);
    }
    format!("{v:?}")
}

/// A JSON string literal.
fn json_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

fn rect_json(r: Option<Rect>) -> String {
    match r {
        None => "null".into(),
        Some(r) => {
            let [x, y, w, h] = r.to_xywh();
            format!("[{}, {}, {}, {}]", fmt_num(x), fmt_num(y), fmt_num(w), fmt_num(h))
        }
    }
}

fn query_json(q: &Query) -> String {
    let s = |v: &str| json_string(v);
    let body = match q {
        Query::CollisionRect {
            a,
            b,
            parent,
            precise,
            tolerance,
            anti_alias,
            method,
        } => format!(
            "\"a\": {}, \"b\": {}, \"parent\": {}, \"precise\": {precise}, \"tolerance\": {tolerance}, \"anti_alias\": {anti_alias}{}",
            s(a),
            s(b),
            s(parent),
            method_json(Method::from(*method))
        ),
        Query::Bounds { object, space } | Query::TightBounds { object, space } => {
            format!("\"object\": {}, \"space\": {}", s(object), s(space))
        }
        Query::HitTestPoint {
            object,
            x,
            y,
            shape_flag,
        } => format!(
            "\"object\": {}, \"x\": {}, \"y\": {}, \"shape_flag\": {shape_flag}",
            s(object),
            fmt_num(*x),
            fmt_num(*y)
        ),
        Query::HitTestObject { a, b } => format!("\"a\": {}, \"b\": {}", s(a), s(b)),
        Query::Collides {
            a,
            b,
            parent,
            tolerance,
            method,
        } => format!(
            "\"a\": {}, \"b\": {}, \"parent\": {}, \"tolerance\": {tolerance}{}",
            s(a),
            s(b),
            s(parent),
            method_json(*method)
        ),
        Query::Collisions {
            parent,
            objects,
            tolerance,
            anti_alias,
            details,
        } => {
            let objects = match objects {
                None => s("children"),
                Some(names) => format!("[{}]", names.iter().map(|n| s(n)).collect::<Vec<_>>().join(", ")),
            };
            format!(
                "\"parent\": {}, \"objects\": {objects}, \"tolerance\": {tolerance}, \"anti_alias\": {anti_alias}, \"details\": {details}",
                s(parent)
            )
        }
    };
    format!("{{\"{}\": {{{body}}}}}", q.kind())
}

/// `, "method": NAME` for a query's method, or nothing for the default (so that files
/// without methods are written as before).
fn method_json(m: Method) -> String {
    if m == Method::Exact {
        String::new()
    } else {
        format!(", \"method\": {}", json_string(&m.to_string()))
    }
}

/// State of one save: where bitmaps go and which names were seen.
struct Writer<'a> {
    stage: &'a Stage,
    file: &'a str,
    stem: String,
    pngs: Vec<(String, Bitmap)>,
    /// Bitmaps already written, by identity, so that shared images are written once.
    png_index: HashMap<usize, usize>,
    /// Names written so far, with the place of their object.
    names: HashMap<String, usize>,
    places: Places,
}

/// Indentation stops growing at this level, so that the file of a deep tree grows with
/// the number of its objects, not with the square of its depth.
const MAX_INDENT: usize = 32;

/// The indentation of a line at `level`.
fn indent(level: usize) -> String {
    "  ".repeat(level.min(MAX_INDENT))
}

impl Writer<'_> {
    fn err(&self, location: &str, reason: String) -> Error {
        Error::Scene {
            file: self.file.to_string(),
            location: location.to_string(),
            reason,
        }
    }

    /// Refuses trees too deep for a scene file before writing anything (the stage itself
    /// allows any depth).
    fn check_depth(&self) -> Result<()> {
        let mut stack = vec![(self.stage.root(), 0usize)];
        while let Some((id, depth)) = stack.pop() {
            if depth > MAX_SAVE_DEPTH {
                return Err(self.err(
                    "root",
                    format!(
                        "the tree is more than {MAX_SAVE_DEPTH} levels deep below the root \
                         ({} is at depth {depth}); scene files cannot nest deeper",
                        self.stage.describe(id)
                    ),
                ));
            }
            for &c in self.stage.children(id)? {
                stack.push((c, depth + 1));
            }
        }
        Ok(())
    }

    /// Writes the object tree without recursion (it may be 100,000 levels deep): each
    /// object's own fields, then its children one after another, then what closes it.
    fn tree(&mut self, out: &mut String) -> Result<()> {
        enum Step {
            Object { id: NodeId, place: usize, level: usize },
            Text(String),
        }
        let stage = self.stage;
        let root = self.places.add(None);
        let mut stack = vec![Step::Object {
            id: stage.root(),
            place: root,
            level: 1,
        }];
        while let Some(step) = stack.pop() {
            let (id, place, level) = match step {
                Step::Text(t) => {
                    out.push_str(&t);
                    continue;
                }
                Step::Object { id, place, level } => (id, place, level),
            };
            let pad = indent(level + 1);
            let fields = self.fields(id, place, &pad)?;
            let children = stage.children(id)?;
            if fields.is_empty() && children.is_empty() {
                out.push_str("{}");
                continue;
            }
            out.push_str("{\n");
            for (i, f) in fields.iter().enumerate() {
                if i > 0 {
                    out.push_str(",\n");
                }
                out.push_str(&pad);
                out.push_str(f);
            }
            let end = format!("\n{}}}", indent(level));
            if children.is_empty() {
                out.push_str(&end);
                continue;
            }
            if !fields.is_empty() {
                out.push_str(",\n");
            }
            out.push_str(&pad);
            out.push_str("\"children\": [");
            stack.push(Step::Text(format!("\n{pad}]{end}")));
            for (i, &c) in children.iter().enumerate().rev() {
                let child = self.places.add(Some((place, i)));
                stack.push(Step::Object {
                    id: c,
                    place: child,
                    level: level + 2,
                });
                let sep = if i == 0 { "\n" } else { ",\n" };
                stack.push(Step::Text(format!("{sep}{pad}  ")));
            }
        }
        Ok(())
    }

    /// The fields of one object but its children, each as `"key": value` text; `pad` is
    /// the indentation of the object's fields.
    fn fields(&mut self, id: NodeId, place: usize, pad: &str) -> Result<Vec<String>> {
        let stage = self.stage;
        let mut fields: Vec<String> = Vec::new();
        if let Some(name) = stage.name(id)? {
            if let Some(first) = self.names.get(name) {
                return Err(self.err(
                    &self.places.path(place, "name"),
                    format!(
                        "duplicate name {} (also at {}); names in a scene file are unique",
                        json_string(name),
                        self.places.path(*first, "name")
                    ),
                ));
            }
            self.names.insert(name.to_string(), place);
            fields.push(format!("\"name\": {}", json_string(name)));
        }
        self.transform(&mut fields, id)?;
        if !stage.visible(id)? {
            fields.push("\"visible\": false".into());
        }
        color_fields(&mut fields, &stage.color_transform(id)?);
        let frames = stage.frames(id)?;
        if !frames.is_empty() {
            // An animated node: its frames hold what `bitmap` and `graphics` would.
            let mut list = Vec::with_capacity(frames.len());
            for frame in frames {
                list.push(match frame {
                    Frame::Bitmap { bitmap, smoothing } => {
                        format!("{{{}}}", self.bitmap_field(bitmap, *smoothing))
                    }
                    Frame::Graphics(gs) => format!("{{{}}}", graphics_field(gs, pad)),
                });
            }
            fields.push(format!("\"frames\": [{}]", list.join(", ")));
            fields.push(format!("\"frame\": {}", stage.frame(id)?.unwrap_or(0)));
            return Ok(fields);
        }
        if let Some((bitmap, smoothing)) = stage.bitmap(id)? {
            fields.push(self.bitmap_field(bitmap, smoothing));
        }
        let graphics = stage.graphics(id)?;
        if !graphics.is_empty() {
            fields.push(graphics_field(graphics, pad));
        }
        Ok(fields)
    }

    /// `"bitmap": {...}`, naming the PNG file the bitmap is (or will be) saved to.
    fn bitmap_field(&mut self, bitmap: &Bitmap, smoothing: bool) -> String {
        let n = match self.png_index.get(&bitmap.id()) {
            Some(&n) => n,
            None => {
                let n = self.pngs.len();
                self.pngs.push((format!("{}_{n}.png", self.stem), bitmap.clone()));
                self.png_index.insert(bitmap.id(), n);
                n
            }
        };
        let png = self.pngs.get(n).map_or("", |(name, _)| name.as_str());
        format!(
            "\"bitmap\": {{\"png\": {}, \"smoothing\": {smoothing}}}",
            json_string(png)
        )
    }

    fn transform(&self, fields: &mut Vec<String>, id: NodeId) -> Result<()> {
        let stage = self.stage;
        let m = stage.matrix(id)?;
        let cols = m.to_cols_array();
        if cols == DAffine2::IDENTITY.to_cols_array() {
            return Ok(());
        }
        let props = [
            ("x", stage.x(id)?, 0.0),
            ("y", stage.y(id)?, 0.0),
            ("rotation", stage.rotation(id)?, 0.0),
            ("scale_x", stage.scale_x(id)?, 1.0),
            ("scale_y", stage.scale_y(id)?, 1.0),
        ];
        let [x, y, r, sx, sy] = props.map(|p| p.1);
        if matrix_from_properties(x, y, r, sx, sy).to_cols_array() == cols {
            for (key, v, default) in props {
                if v != default {
                    fields.push(format!("\"{key}\": {}", fmt_num(v)));
                }
            }
        } else {
            let nums: Vec<String> = cols.iter().map(|v| fmt_num(*v)).collect();
            fields.push(format!("\"matrix\": [{}]", nums.join(", ")));
        }
        Ok(())
    }
}

const CT_FIELDS: [&str; 8] = [
    "red_multiplier",
    "green_multiplier",
    "blue_multiplier",
    "alpha_multiplier",
    "red_offset",
    "green_offset",
    "blue_offset",
    "alpha_offset",
];

/// `"graphics": [...]`, one entry per line.
fn graphics_field(graphics: &[Graphic], pad: &str) -> String {
    let mut g = String::from("\"graphics\": [");
    for (i, gr) in graphics.iter().enumerate() {
        g.push_str(if i == 0 { "\n" } else { ",\n" });
        g.push_str(pad);
        g.push_str("  ");
        g.push_str(&graphic_json(gr));
    }
    let _ = write!(g, "\n{pad}]");
    g
}

fn color_fields(fields: &mut Vec<String>, ct: &ColorTransform) {
    let values = ct.to_array();
    let identity = ColorTransform::IDENTITY.to_array();
    let differs: Vec<(&str, f64)> = CT_FIELDS
        .iter()
        .zip(values.iter().zip(identity.iter()))
        .filter(|(_, (v, id))| v != id)
        .map(|(k, (v, _))| (*k, *v))
        .collect();
    match differs.as_slice() {
        [] => {}
        [("alpha_multiplier", a)] if (0.0..=1.0).contains(a) => {
            fields.push(format!("\"alpha\": {}", fmt_num(*a)));
        }
        list => {
            let body: Vec<String> = list
                .iter()
                .map(|(k, v)| format!("\"{k}\": {}", fmt_num(*v)))
                .collect();
            fields.push(format!("\"color_transform\": {{{}}}", body.join(", ")));
        }
    }
}

fn graphic_json(g: &Graphic) -> String {
    match g {
        Graphic::Fill(f) => {
            let rule = match f.rule() {
                FillRule::NonZero => "nonzero",
                FillRule::EvenOdd => "evenodd",
            };
            format!(
                "{{\"fill\": {}, \"fill_rule\": \"{rule}\", \"alpha\": {}}}",
                json_string(&f.path().to_svg()),
                fmt_num(f.alpha())
            )
        }
        Graphic::Stroke(s) => format!(
            "{{\"stroke\": {}, \"width\": {}, \"alpha\": {}}}",
            json_string(&s.path().to_svg()),
            fmt_num(s.width()),
            fmt_num(s.alpha())
        ),
    }
}

// ----- JSON input -----

/// Deepest nesting of arrays and objects that a scene file may have (the top-level object
/// is level 1). Objects nest two levels at a time (an object, then its `children` array),
/// so this lets them go [`MAX_SAVE_DEPTH`] deep, well past the 100,000 levels level editors
/// produce. Parsing holds stack frames for every open level, about 0.5 KiB in an
/// optimized build (several times that in a debug build), so the limit also bounds that
/// memory (to some 130 MiB when optimized) however the file is made.
const MAX_NESTING: usize = 262_144;

/// A JSON value that keeps object keys in file order (so errors come in file order) and
/// refuses duplicate keys while parsing.
///
/// Scene files may nest 100,000 objects deep, so nothing on this type recurses: dropping,
/// comparing and printing walk a stack on the heap (derived impls would recurse once per
/// level and overflow the thread's stack).
enum Json {
    Null,
    Bool(bool),
    Number(f64),
    String(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl Json {
    fn kind(&self) -> &'static str {
        match self {
            Json::Null => "null",
            Json::Bool(_) => "a boolean",
            Json::Number(_) => "a number",
            Json::String(_) => "a string",
            Json::Array(_) => "an array",
            Json::Object(_) => "an object",
        }
    }

    /// Moves the values inside an array or object onto `stack`, leaving it empty.
    fn take_children(&mut self, stack: &mut Vec<Json>) {
        match self {
            Json::Array(items) => stack.append(items),
            Json::Object(fields) => stack.extend(fields.drain(..).map(|(_, v)| v)),
            _ => {}
        }
    }
}

impl Drop for Json {
    fn drop(&mut self) {
        // Each value is emptied before it is dropped, so the drop glue never goes deeper
        // than one level.
        let mut stack = Vec::new();
        self.take_children(&mut stack);
        while let Some(mut v) = stack.pop() {
            v.take_children(&mut stack);
        }
    }
}

impl PartialEq for Json {
    fn eq(&self, other: &Json) -> bool {
        let mut stack = vec![(self, other)];
        while let Some(pair) = stack.pop() {
            match pair {
                (Json::Null, Json::Null) => {}
                (Json::Bool(a), Json::Bool(b)) if a == b => {}
                (Json::Number(a), Json::Number(b)) if a == b => {}
                (Json::String(a), Json::String(b)) if a == b => {}
                (Json::Array(a), Json::Array(b)) if a.len() == b.len() => stack.extend(a.iter().zip(b)),
                (Json::Object(a), Json::Object(b)) if a.len() == b.len() => {
                    for ((ka, va), (kb, vb)) in a.iter().zip(b) {
                        if ka != kb {
                            return false;
                        }
                        stack.push((va, vb));
                    }
                }
                _ => return false,
            }
        }
        true
    }
}

impl std::fmt::Debug for Json {
    /// Compact JSON (numbers in Rust's round-trip form).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        enum Step<'j> {
            Value(&'j Json),
            Key(&'j str),
            Text(&'static str),
        }
        let mut stack = vec![Step::Value(self)];
        while let Some(step) = stack.pop() {
            match step {
                Step::Text(t) => f.write_str(t)?,
                Step::Key(k) => write!(f, "{}: ", json_string(k))?,
                Step::Value(Json::Null) => f.write_str("null")?,
                Step::Value(Json::Bool(b)) => write!(f, "{b}")?,
                Step::Value(Json::Number(n)) => write!(f, "{n:?}")?,
                Step::Value(Json::String(s)) => f.write_str(&json_string(s))?,
                Step::Value(Json::Array(items)) => {
                    f.write_str("[")?;
                    stack.push(Step::Text("]"));
                    for (i, item) in items.iter().enumerate().rev() {
                        stack.push(Step::Value(item));
                        if i > 0 {
                            stack.push(Step::Text(", "));
                        }
                    }
                }
                Step::Value(Json::Object(fields)) => {
                    f.write_str("{")?;
                    stack.push(Step::Text("}"));
                    for (i, (k, v)) in fields.iter().enumerate().rev() {
                        stack.push(Step::Value(v));
                        stack.push(Step::Key(k));
                        if i > 0 {
                            stack.push(Step::Text(", "));
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

/// Reads one JSON value `depth` levels down (the top level is 1), refusing arrays and
/// objects past [`MAX_NESTING`].
#[derive(Clone, Copy)]
struct JsonSeed {
    depth: usize,
}

impl JsonSeed {
    /// The seed for the values inside an array or object at this level, which must not be
    /// past the limit itself.
    fn inner<E: de::Error>(self) -> std::result::Result<JsonSeed, E> {
        if self.depth > MAX_NESTING {
            return Err(E::custom(format!(
                "arrays and objects nest deeper than {MAX_NESTING} levels"
            )));
        }
        Ok(JsonSeed {
            depth: self.depth + 1,
        })
    }
}

impl<'de> DeserializeSeed<'de> for JsonSeed {
    type Value = Json;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> std::result::Result<Json, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for JsonSeed {
    type Value = Json;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_unit<E: de::Error>(self) -> std::result::Result<Json, E> {
        Ok(Json::Null)
    }
    fn visit_none<E: de::Error>(self) -> std::result::Result<Json, E> {
        Ok(Json::Null)
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> std::result::Result<Json, E> {
        Ok(Json::Bool(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> std::result::Result<Json, E> {
        Ok(Json::Number(v as f64))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> std::result::Result<Json, E> {
        Ok(Json::Number(v as f64))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> std::result::Result<Json, E> {
        Ok(Json::Number(v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<Json, E> {
        Ok(Json::String(v.to_string()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> std::result::Result<Json, E> {
        Ok(Json::String(v))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<Json, A::Error> {
        let inner = self.inner()?;
        let mut items = Vec::new();
        while let Some(v) = seq.next_element_seed(inner)? {
            items.push(v);
        }
        Ok(Json::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<Json, A::Error> {
        let inner = self.inner()?;
        let mut fields: Vec<(String, Json)> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if !seen.insert(key.clone()) {
                return Err(de::Error::custom(format!("duplicate key {}", json_string(&key))));
            }
            let value = map.next_value_seed(inner)?;
            fields.push((key, value));
        }
        Ok(Json::Object(fields))
    }
}

/// Parses JSON text, with syntax errors (duplicate keys included) located by line and column.
fn parse_json(bytes: &[u8], file: &str) -> Result<Json> {
    // A byte order mark is not JSON, but editors on some systems add one; it carries no
    // meaning, so it is skipped rather than reported.
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    // Read through `io::Read`, not as a slice: after an error serde_json still closes every
    // enclosing array and object, and with a slice each close works out the line and
    // column by counting from the start of the text, which takes quadratic time on an
    // error deep in a deep file (minutes at 100,000 levels). The reader keeps count.
    let mut de = serde_json::Deserializer::from_reader(bytes);
    // serde_json's own limit (128 levels) would refuse deep scenes; `JsonSeed` limits the
    // depth instead. Reading recurses once per level, so serde_stacker continues on a new
    // stack segment (allocated on the heap) whenever the current one runs low: depth costs
    // memory in proportion to the file, never a stack overflow, on any caller's thread.
    de.disable_recursion_limit();
    JsonSeed { depth: 1 }
        .deserialize(serde_stacker::Deserializer::new(&mut de))
        .and_then(|v| de.end().map(|()| v))
        .map_err(|e| {
            let msg = e.to_string();
            let suffix = format!(" at line {} column {}", e.line(), e.column());
            Error::Scene {
                file: file.to_string(),
                location: format!("line {}, column {}", e.line(), e.column()),
                reason: msg.strip_suffix(&suffix).unwrap_or(&msg).to_string(),
            }
        })
}

// ----- scene building -----

const OBJECT_FIELDS: [&str; 16] = [
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
];

type Setter = fn(&mut Stage, NodeId, f64) -> Result<()>;

const PROPERTIES: [(&str, Setter); 5] = [
    ("x", Stage::set_x),
    ("y", Stage::set_y),
    ("rotation", Stage::set_rotation),
    ("scale_x", Stage::set_scale_x),
    ("scale_y", Stage::set_scale_y),
];

const QUERY_KINDS: &str =
    "collision_rect, bounds, tight_bounds, hit_test_point, hit_test_object, collides, collisions";

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
        warnings: Vec::new(),
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

/// Where the objects of a scene file are: for each, its parent's place and its index in
/// the parent's `children` (`None` for the root). An object's path is only spelled out for
/// a message, because spelling out every path of a file 100,000 levels deep would take
/// time and memory quadratic in the depth.
#[derive(Default)]
struct Places(Vec<Option<(usize, usize)>>);

impl Places {
    /// Adds the root (`None`) or child `index` of the object at `parent`; gives its place.
    fn add(&mut self, parent: Option<(usize, usize)>) -> usize {
        self.0.push(parent);
        self.0.len() - 1
    }

    /// The path of the object at `place`, e.g. `root.children[1].children[0]`, followed by
    /// `.field` when `field` is not empty.
    fn path(&self, place: usize, field: &str) -> String {
        let mut indices = Vec::new();
        let mut cur = place;
        while let Some(Some((parent, index))) = self.0.get(cur) {
            indices.push(*index);
            cur = *parent;
        }
        let mut s = String::from("root");
        for i in indices.iter().rev() {
            let _ = write!(s, ".children[{i}]");
        }
        if !field.is_empty() {
            s.push('.');
            s.push_str(field);
        }
        s
    }
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
    /// Messages of [`Scene::warnings`].
    warnings: Vec<String>,
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
        let children = match get(fields, "children") {
            Some(v) => self.array(v, &join(path, "children"))?,
            None => &[],
        };
        Ok((id, children))
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
                self.svgs.insert(file, doc.clone());
                doc
            }
        };
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
        let flag = |f: &Fields, key: &str, default: bool| -> Result<bool> {
            get(f, key).map_or(Ok(default), |v| self.boolean(v, &join(path, key)))
        };
        let allowed: &[&str] = match kind.as_str() {
            "collision_rect" => &["a", "b", "parent", "precise", "tolerance", "anti_alias", "method"],
            "collides" => &["a", "b", "parent", "tolerance", "method"],
            "bounds" | "tight_bounds" => &["object", "space"],
            "hit_test_point" => &["object", "x", "y", "shape_flag"],
            "hit_test_object" => &["a", "b"],
            "collisions" => &["parent", "objects", "tolerance", "anti_alias", "details"],
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

#[cfg(test)]
mod tests {
    use super::*;

    fn load(text: &str) -> Result<Scene> {
        Scene::from_json(text, "t.json", FsPath::new("."))
    }

    fn location(e: &Error) -> String {
        match e {
            Error::Scene { location, .. } => location.clone(),
            other => panic!("not a scene error: {other}"),
        }
    }

    /// xorshift64*: enough randomness for number tests without a dependency.
    fn rng(seed: &mut u64) -> u64 {
        *seed ^= *seed >> 12;
        *seed ^= *seed << 25;
        *seed ^= *seed >> 27;
        seed.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    #[test]
    fn numbers_print_shortest_and_read_back_exactly() {
        assert_eq!(fmt_num(10.0), "10");
        assert_eq!(fmt_num(-3.0), "-3");
        assert_eq!(fmt_num(-0.0), "0");
        assert_eq!(fmt_num(0.1), "0.1");
        assert_eq!(fmt_num(1.5), "1.5");
        assert_eq!(fmt_num(1e300), "1e300");
        assert_eq!(fmt_num(999_999_999_999_999.0), "999999999999999");
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut values = Vec::new();
        while values.len() < 5000 {
            let bits = rng(&mut seed);
            let v = match values.len() % 4 {
                0 => f64::from_bits(bits),
                1 => (bits >> 11) as f64 / (1u64 << 53) as f64 * 2000.0 - 1000.0,
                2 => ((bits % 2_000_001) as f64 - 1_000_000.0) / 20.0,
                _ => (bits as i64 >> (bits % 60)) as f64,
            };
            if v.is_finite() {
                values.push(v);
            }
        }
        // Rust's parser is exact; the loader must be too (serde_json's default one is not).
        let list: Vec<String> = values.iter().map(|v| fmt_num(*v)).collect();
        for (v, s) in values.iter().zip(&list) {
            let back: f64 = s.parse().unwrap();
            assert!(back == *v, "{v:?} printed as {s}");
        }
        let text = format!("[{}]", list.join(", "));
        let parsed = parse_json(text.as_bytes(), "t").unwrap();
        let Json::Array(items) = &parsed else {
            panic!("not an array")
        };
        for (v, item) in values.iter().zip(items) {
            assert_eq!(*item, Json::Number(*v + 0.0), "{v:?}");
        }
    }

    #[test]
    fn duplicate_keys_are_syntax_errors_with_line_and_column() {
        let e = load("{\"pixelhit_scene\": 1,\n \"root\": {\"x\": 1, \"x\": 2}}").unwrap_err();
        // The colon after the second "x" (the reader has looked at it when the key is checked).
        assert_eq!(location(&e), "line 2, column 22");
        assert!(e.to_string().contains("duplicate key \"x\""), "{e}");
    }

    fn sample_stage() -> (Stage, Vec<Query>) {
        let mut s = Stage::new();
        let root = s.root();
        s.set_name(root, "stage").unwrap();
        let a = s.add_container(root).unwrap();
        s.set_name(a, "a \"quoted\"").unwrap();
        s.set_x(a, 3.25).unwrap();
        s.set_rotation(a, 33.0).unwrap();
        s.set_scale_x(a, 0.0).unwrap(); // keeps its rotation through the file
        s.set_scale_y(a, 0.1).unwrap();
        s.add_graphic(
            a,
            Graphic::fill(
                Path::from_svg("M0,0 L40,0 L20,30 Z").unwrap(),
                FillRule::EvenOdd,
                0.3,
            )
            .unwrap(),
        )
        .unwrap();
        s.add_graphic(
            a,
            Graphic::stroke(Path::from_svg("M0 0 C 10 20 30 40 0.1 0.7").unwrap(), 2.5, 1.0).unwrap(),
        )
        .unwrap();
        let b = s.add_container(a).unwrap();
        s.set_matrix(b, DAffine2::from_cols_array(&[1.3, 0.2, 0.1, 1.2, 1e-7, -4e20]))
            .unwrap();
        s.set_visible(b, false).unwrap();
        s.set_alpha(b, 0.7).unwrap();
        let c = s.add_container(b).unwrap();
        s.set_name(c, "c").unwrap();
        s.set_color_transform(
            c,
            ColorTransform::new([0.5, 1.0, 2.0, 1.5], [10.0, -20.0, 0.0, 0.3]),
        )
        .unwrap();
        s.add_graphic(
            c,
            Graphic::fill(Path::rect(0.0, 0.0, 10.0, 10.0), FillRule::NonZero, 1.0).unwrap(),
        )
        .unwrap();
        let img = Bitmap::from_rgba8(3, 2, (0..24).map(|v| (v * 11) as u8).collect()).unwrap();
        let d = s.add_bitmap(root, img.clone(), true).unwrap();
        s.set_name(d, "d").unwrap();
        s.set_rotation(d, 90.0).unwrap();
        let e = s.add_bitmap(c, img, false).unwrap();
        s.set_name(e, "e").unwrap();
        // Values that serde_json's default float parser reads one unit in the last place off.
        let skew = s.add_container(root).unwrap();
        let m = [
            -1.638344060600543e-227,
            2.6104882325689648e-130,
            0.30000000000000004,
            1.0,
            1e22,
            -0.0,
        ];
        s.set_matrix(skew, DAffine2::from_cols_array(&m)).unwrap();
        let other = Bitmap::from_rgba8(1, 1, vec![1, 2, 3, 4]).unwrap();
        s.add_bitmap(root, other, false).unwrap();
        let queries = vec![
            Query::CollisionRect {
                a: "c".into(),
                b: "d".into(),
                parent: "stage".into(),
                precise: false,
                tolerance: 7,
                anti_alias: false,
                method: RectMethod::Exact,
            },
            Query::Bounds {
                object: "a \"quoted\"".into(),
                space: "stage".into(),
            },
            Query::TightBounds {
                object: "e".into(),
                space: "c".into(),
            },
            Query::HitTestPoint {
                object: "d".into(),
                x: 0.1,
                y: -1e-9,
                shape_flag: true,
            },
            Query::HitTestObject {
                a: "missing".into(),
                b: "d".into(),
            },
        ];
        (s, queries)
    }

    /// Every node's observable state, in paint order.
    fn describe_tree(s: &Stage) -> Vec<String> {
        let mut out = Vec::new();
        s.walk(s.root(), |id, _| {
            let bitmap = s
                .bitmap(id)
                .unwrap()
                .map(|(b, sm)| (b.width(), b.height(), b.rgba().to_vec(), sm));
            out.push(format!(
                "{:?} {:?} {:?} {} {:?} {:?} {:?} {} {:?}",
                s.name(id).unwrap(),
                // -0 is written as 0 (the same number in every computation).
                s.matrix(id).unwrap().to_cols_array().map(|v| v + 0.0),
                (
                    s.rotation(id).unwrap(),
                    s.scale_x(id).unwrap(),
                    s.scale_y(id).unwrap()
                ),
                s.visible(id).unwrap(),
                s.color_transform(id).unwrap().to_array(),
                s.graphics(id).unwrap(),
                bitmap,
                s.children(id).unwrap().len(),
                s.parent(id)
                    .unwrap()
                    .map(|p| s.name(p).unwrap().map(str::to_string)),
            ));
        });
        out
    }

    fn temp_dir(tag: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("pixelhit-scene-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn save_then_load_gives_the_same_tree_and_answers() {
        let (stage, queries) = sample_stage();
        let scene = Scene::from_stage(stage, queries);
        let dir = temp_dir("roundtrip");
        let file = dir.join("level.json");
        scene.save(&file).unwrap();
        assert!(dir.join("level_0.png").exists());
        assert!(dir.join("level_1.png").exists());
        assert!(
            !dir.join("level_2.png").exists(),
            "a shared bitmap is written once"
        );
        let back = Scene::load(&file).unwrap();
        assert_eq!(describe_tree(&scene.stage), describe_tree(&back.stage));
        assert_eq!(scene.queries(), back.queries());
        for name in ["stage", "a \"quoted\"", "c", "d", "e"] {
            assert!(back.node(name).is_some(), "{name}");
        }
        for q in scene.queries() {
            let want = scene.run_query(q).map_err(|e| Scene::error_line(&e));
            let got = back.run_query(q).map_err(|e| Scene::error_line(&e));
            assert_eq!(want, got);
        }
        // Saving what was loaded writes the same text.
        let again = back.to_json("level.json").unwrap();
        assert_eq!(std::fs::read_to_string(&file).unwrap(), again);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn saving_refuses_what_a_file_cannot_hold() {
        let mut s = Stage::new();
        let a = s.add_container(s.root()).unwrap();
        let b = s.add_container(s.root()).unwrap();
        s.set_name(a, "twin").unwrap();
        s.set_name(b, "twin").unwrap();
        let e = Scene::from_stage(s, vec![]).to_json("x.json").unwrap_err();
        assert_eq!(location(&e), "root.children[1].name");

        let mut s = Stage::new();
        let mut cur = s.root();
        for _ in 0..MAX_SAVE_DEPTH {
            cur = s.add_container(cur).unwrap();
        }
        s.add_graphic(
            cur,
            Graphic::fill(Path::rect(0.0, 0.0, 1.0, 1.0), FillRule::NonZero, 1.0).unwrap(),
        )
        .unwrap();
        s.set_alpha(cur, 0.5).unwrap();
        let scene = Scene::from_stage(s, vec![]);
        let text = scene.to_json("deep.json").unwrap();
        let back = load(&text).unwrap();
        assert_eq!(describe_tree(&scene.stage), describe_tree(&back.stage));
        let mut s = scene.stage;
        s.add_container(cur).unwrap();
        assert!(Scene::from_stage(s, vec![]).to_json("deep.json").is_err());
    }

    #[test]
    fn alpha_and_colour_transform_multiply() {
        let scene = load(
            r#"{"pixelhit_scene": 1, "root": {"children": [
                {"name": "n", "alpha": 0.5, "color_transform": {"alpha_multiplier": 0.5, "red_offset": 10}}]}}"#,
        )
        .unwrap();
        let n = scene.node("n").unwrap();
        let ct = scene.stage.color_transform(n).unwrap();
        assert_eq!(
            ct,
            ColorTransform::new([1.0, 1.0, 1.0, 0.25], [10.0, 0.0, 0.0, 0.0])
        );
    }

    #[test]
    fn errors_name_the_field_path() {
        let cases = [
            (
                r#"{"pixelhit_scene": 1, "root": {"children": [{}, {"matrix": [1, 0, 0, 1, 0]}]}}"#,
                "root.children[1].matrix",
            ),
            (
                r#"{"pixelhit_scene": 1, "root": {"matrix": [1, 0, 0, "1", 0, 0]}}"#,
                "root.matrix[3]",
            ),
            (r#"{"pixelhit_scene": 1, "root": {"x": true}}"#, "root.x"),
            (
                r#"{"pixelhit_scene": 1, "root": {"children": [{"graphics": [{"fill": "M0 0 L1 1"}, {"fill": "M0 0 Q"}]}]}}"#,
                "root.children[0].graphics[1].fill",
            ),
            (
                r#"{"pixelhit_scene": 1, "root": {"graphics": [{"stroke": "M0 0 L1 1"}]}}"#,
                "root.graphics[0].width",
            ),
            (
                r#"{"pixelhit_scene": 1, "root": {"graphics": [{"stroke": "M0 0 L1 1", "width": -1}]}}"#,
                "root.graphics[0].width",
            ),
            (
                r#"{"pixelhit_scene": 1, "root": {"graphics": [{"fill": "M0 0 L1 1", "stroke": "M0 0"}]}}"#,
                "root.graphics[0].stroke",
            ),
            (
                r#"{"pixelhit_scene": 1, "root": {"graphics": [{"alpha": 1}]}}"#,
                "root.graphics[0]",
            ),
            (
                r#"{"pixelhit_scene": 1, "root": {"color_transform": {"red": 1}}}"#,
                "root.color_transform.red",
            ),
            (
                r#"{"pixelhit_scene": 1, "root": {"bitmap": {"png": "x.png"}}}"#,
                "root.bitmap",
            ),
            (
                r#"{"pixelhit_scene": 1, "root": {}, "queries": [{"bounds": {"object": "a"}}]}"#,
                "queries[0].bounds.space",
            ),
            (
                r#"{"pixelhit_scene": 1, "root": {}, "queries": [{}]}"#,
                "queries[0]",
            ),
            (
                r#"{"pixelhit_scene": 1, "root": {}, "queries": [{"hit_test_point": {"object": "a", "x": 1, "y": null}}]}"#,
                "queries[0].hit_test_point.y",
            ),
            (
                r#"{"pixelhit_scene": 1, "root": {}, "queries": [{"collision_rect": {"a": "a", "b": "b", "parent": "p", "tolerance": -1}}]}"#,
                "queries[0].collision_rect.tolerance",
            ),
            (r#"{"pixelhit_scene": 1}"#, "root"),
            (r#"{"root": {}}"#, "pixelhit_scene"),
            (r#"[1]"#, "top level"),
        ];
        for (text, want) in cases {
            let e = load(text).unwrap_err();
            assert_eq!(location(&e), want, "{text}: {e}");
        }
    }

    #[test]
    fn bitmap_svg_and_frames_objects_are_leaves() {
        let cases = [
            (
                r#"{"children": [{"bitmap": {"png": "x.png"}, "children": []}]}"#,
                "root.children[0].bitmap",
                "an object with `bitmap` cannot have `children`",
            ),
            (
                r#"{"children": [{"svg": "x.svg", "graphics": [], "bitmap": {"png": "x.png"}}]}"#,
                "root.children[0].bitmap",
                "an object with `bitmap` cannot have `graphics`",
            ),
            (
                r#"{"children": [{"svg": "x.svg", "bitmap": {"png": "x.png"}}]}"#,
                "root.children[0].svg",
                "an object with `svg` cannot have `bitmap`",
            ),
            (
                r#"{"svg": "x.svg"}"#,
                "root.svg",
                "the root cannot be an svg object; give it a child",
            ),
            (
                r#"{"children": [{"frames": [], "svg": "x.svg"}]}"#,
                "root.children[0].frames",
                "an object with `frames` cannot have `svg`",
            ),
            (
                r#"{"frames": []}"#,
                "root.frames",
                "the root is a container; it cannot have frames",
            ),
            (
                r#"{"children": [{"frame": 0}]}"#,
                "root.children[0].frame",
                "`frame` needs `frames`",
            ),
        ];
        for (root, want_at, want_why) in cases {
            let text = format!(r#"{{"pixelhit_scene": 1, "root": {root}}}"#);
            match load(&text) {
                Err(Error::Scene { location, reason, .. }) => {
                    assert_eq!(
                        (location.as_str(), reason.as_str()),
                        (want_at, want_why),
                        "{text}"
                    );
                }
                other => panic!("{text}: {other:?}"),
            }
        }
    }

    #[test]
    fn query_errors_come_from_running_not_loading() {
        let scene = load(
            r#"{"pixelhit_scene": 1, "root": {"name": "r", "children": [{"name": "a"}]},
                "queries": [{"hit_test_object": {"a": "a", "b": "nobody"}},
                            {"collision_rect": {"a": "r", "b": "a", "parent": "a"}}]}"#,
        )
        .unwrap();
        let lines: Vec<String> = scene
            .queries()
            .iter()
            .map(|q| scene.run_query(q).unwrap_or_else(|e| Scene::error_line(&e)))
            .collect();
        assert_eq!(
            lines[0],
            r#"{"error": "hit_test_object.b: no object named \"nobody\""}"#
        );
        assert!(lines[1].starts_with(r#"{"error": "#), "{}", lines[1]);
        assert!(lines[1].contains("\\\"r\\\" is not \\\"a\\\""), "{}", lines[1]);
    }

    #[test]
    fn objects_showing_one_png_share_one_bitmap() {
        let dir = temp_dir("shared");
        let png = Bitmap::from_rgba8(1, 1, vec![0, 0, 0, 255])
            .unwrap()
            .to_png_bytes()
            .unwrap();
        std::fs::write(dir.join("p.png"), png).unwrap();
        let text = r#"{"pixelhit_scene": 1, "root": {"children": [
            {"name": "a", "bitmap": {"png": "p.png"}}, {"name": "b", "bitmap": {"png": "p.png", "smoothing": true}}]}}"#;
        let scene = Scene::from_json(text, "s.json", &dir).unwrap();
        let a = scene.stage.bitmap(scene.node("a").unwrap()).unwrap().unwrap();
        let b = scene.stage.bitmap(scene.node("b").unwrap()).unwrap().unwrap();
        assert!(a.0.ptr_eq(b.0));
        assert_eq!((a.1, b.1), (false, true));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn query_defaults_follow_the_format() {
        let scene = load(
            "\u{FEFF}{\"pixelhit_scene\": 1.0, \"root\": {}, \"queries\": [
               {\"collision_rect\": {\"a\": \"x\", \"b\": \"y\", \"parent\": \"z\", \"tolerance\": 3.0}},
               {\"hit_test_point\": {\"object\": \"x\", \"x\": 1, \"y\": 2}}]}",
        )
        .unwrap();
        assert_eq!(
            scene.queries(),
            [
                Query::CollisionRect {
                    a: "x".into(),
                    b: "y".into(),
                    parent: "z".into(),
                    precise: true,
                    tolerance: 3,
                    anti_alias: true,
                    method: RectMethod::Exact,
                },
                Query::HitTestPoint {
                    object: "x".into(),
                    x: 1.0,
                    y: 2.0,
                    shape_flag: false,
                },
            ]
        );
    }
}
