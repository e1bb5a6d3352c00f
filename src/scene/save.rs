//! Writing a [`Scene`] as a scene file, with its bitmaps beside it as PNG files.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path as FsPath;

use glam::DAffine2;

use super::json::MAX_NESTING;
use super::places::Places;
use super::text::{fmt_num, json_string};
use super::{CT_FIELDS, Query, Scene};
use crate::{
    Bitmap, BitmapRenderer, ColorTransform, Error, FillRule, Frame, Graphic, Method, NodeId, PygameFlavour,
    Result, Stage, matrix_from_properties,
};

/// Deepest node (the root is depth 0) that a scene file can hold: a node at depth `k` puts
/// its graphics entries at JSON nesting level `2k + 4`, which may not pass
/// [`MAX_NESTING`]. Saving refuses deeper trees so that every saved file loads.
pub(super) const MAX_SAVE_DEPTH: usize = (MAX_NESTING - 4) / 2;

impl Scene {
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
            method_json(*method)
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
        Query::ContactsAmong {
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
        Query::Pick { x, y, bitmap_hit } => {
            let hit = match bitmap_hit {
                crate::BitmapHit::Box => ", \"bitmap_hit\": \"box\"",
                crate::BitmapHit::Alpha { .. } => "",
            };
            format!("\"x\": {}, \"y\": {}{hit}", fmt_num(*x), fmt_num(*y))
        }
        Query::ObjectsUnderPoint { container, x, y } => format!(
            "\"container\": {}, \"x\": {}, \"y\": {}",
            s(container),
            fmt_num(*x),
            fmt_num(*y)
        ),
        Query::Rect { object, space } | Query::VisibleBounds { object, space } => {
            format!("\"object\": {}, \"space\": {}", s(object), s(space))
        }
        Query::LocalToGlobal { object, x, y } | Query::GlobalToLocal { object, x, y } => format!(
            "\"object\": {}, \"x\": {}, \"y\": {}",
            s(object),
            fmt_num(*x),
            fmt_num(*y)
        ),
        Query::ScrollRect { object } => format!("\"object\": {}", s(object)),
        Query::Motion(m) => m.body_json(),
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
    png_index: HashMap<u64, usize>,
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

    /// The fields of scene-format.md's "Interactivity" that differ from their defaults.
    /// Masks and hit areas are written by name, so they need one.
    fn interactivity(&mut self, fields: &mut Vec<String>, id: NodeId, place: usize) -> Result<()> {
        let stage = self.stage;
        if let Some(r) = stage.scroll_rect(id)? {
            let [x, y, w, h] = r.to_xywh().map(fmt_num);
            fields.push(format!("\"scroll_rect\": [{x}, {y}, {w}, {h}]"));
        }
        let leaf = stage.bitmap(id)?.is_some() || !stage.frames(id)?.is_empty();
        let interactive = stage.interactive(id)?;
        if !interactive && !leaf {
            fields.push("\"interactive\": false".into());
        }
        if interactive {
            for (key, on) in [
                ("mouse_enabled", stage.mouse_enabled(id)?),
                ("mouse_children", stage.mouse_children(id)?),
            ] {
                if !on {
                    fields.push(format!("\"{key}\": false"));
                }
            }
        }
        for (key, other) in [("mask", stage.mask(id)?), ("hit_area", stage.hit_area(id)?)] {
            let Some(other) = other else { continue };
            match stage.name(other)? {
                Some(n) => fields.push(format!("\"{key}\": {}", json_string(n))),
                None => {
                    return Err(self.err(
                        &self.places.path(place, key),
                        format!(
                            "its {key} {} has no name, and scene files refer to objects by name",
                            stage.describe(other)
                        ),
                    ));
                }
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
        if let Some(t) = stage.tolerance(id)? {
            fields.push(format!("\"tolerance\": {t}"));
        }
        color_fields(&mut fields, &stage.color_transform(id)?);
        self.interactivity(&mut fields, id, place)?;
        let frames = stage.frames(id)?;
        if !frames.is_empty() {
            // An animated node: its frames hold what `bitmap` and `graphics` would.
            let mut list = Vec::with_capacity(frames.len());
            for frame in frames {
                list.push(match frame {
                    Frame::Bitmap {
                        bitmap,
                        smoothing,
                        offset,
                    } => {
                        let field = self.bitmap_field(bitmap, *smoothing, None);
                        match offset {
                            (0, 0) => format!("{{{field}}}"),
                            (x, y) => format!("{{{field}, \"offset\": [{x}, {y}]}}"),
                        }
                    }
                    Frame::Graphics(gs) => format!("{{{}}}", graphics_field(gs, pad)),
                });
            }
            fields.push(format!("\"frames\": [{}]", list.join(", ")));
            fields.push(format!("\"frame\": {}", stage.frame(id)?.unwrap_or(0)));
            return Ok(fields);
        }
        if let Some((bitmap, smoothing)) = stage.bitmap(id)? {
            fields.push(self.bitmap_field(bitmap, smoothing, stage.bitmap_renderer(id)?));
        }
        let graphics = stage.graphics(id)?;
        if !graphics.is_empty() {
            fields.push(graphics_field(graphics, pad));
        }
        Ok(fields)
    }

    /// `"bitmap": {...}`, naming the PNG file the bitmap is (or will be) saved to, with its
    /// renderer if it has one. A region of an image names the image's file (saved once for
    /// all its regions) and its rectangle.
    fn bitmap_field(&mut self, bitmap: &Bitmap, smoothing: bool, renderer: Option<BitmapRenderer>) -> String {
        let (image, region) = bitmap.image();
        let n = match self.png_index.get(&image.id()) {
            Some(&n) => n,
            None => {
                let n = self.pngs.len();
                self.pngs.push((format!("{}_{n}.png", self.stem), image.clone()));
                self.png_index.insert(image.id(), n);
                n
            }
        };
        let png = self.pngs.get(n).map_or("", |(name, _)| name.as_str());
        let region = match region {
            Some([x, y, w, h]) => format!(", \"region\": [{x}, {y}, {w}, {h}]"),
            None => String::new(),
        };
        let renderer = renderer.map_or(String::new(), |r| {
            format!(", \"renderer\": {}", renderer_json(&r))
        });
        format!(
            "\"bitmap\": {{\"png\": {}, \"smoothing\": {smoothing}{region}{renderer}}}",
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

/// A renderer as the scene field `renderer` spells it (its angle and scale are f32s, which
/// an f64 holds exactly, so they read back the same).
fn renderer_json(r: &BitmapRenderer) -> String {
    let BitmapRenderer::Pygame(t) = r;
    let call = if t.is_rotozoom() { "rotozoom" } else { "rotate" };
    let scale = match t.is_rotozoom() {
        true => format!(", \"scale\": {}", fmt_num(f64::from(t.scale()))),
        false => String::new(),
    };
    let (flip_x, flip_y) = t.flips();
    let flavour = match t.flavour_of() {
        PygameFlavour::Pygame => "pygame",
        PygameFlavour::PygameCe => "pygame-ce",
    };
    format!(
        "{{\"pygame\": \"{call}\", \"angle\": {}{scale}, \"flip_x\": {flip_x}, \"flip_y\": {flip_y}, \"flavour\": \"{flavour}\"}}",
        fmt_num(f64::from(t.angle()))
    )
}
