//! Reading a scene file into a [`Scene`]: the loader, its limits, and the checks every field
//! goes through; the tree is built in file order.
//!
//! - this file: [`SceneLimits`], the entry points ([`Scene::load`] and the like), and the
//!   loader with its checks of JSON values.
//! - [`objects`]: the tree's objects, their properties, content and links; [`renderer`]:
//!   a bitmap's `renderer` field; [`atlas`]: the frames of a texture atlas; [`edits`]: a
//!   bitmap object's edits.
//! - [`queries`]: the queries; [`motion`]: the motion queries.

mod atlas;
mod edits;
mod motion;
mod objects;
mod queries;
mod renderer;

use std::collections::HashMap;
use std::path::Path as FsPath;

use super::json::{Json, parse_json};
use super::places::Places;
use super::text::{fmt_num, json_string};
use super::{Query, Scene};
use crate::{Bitmap, Error, FillRule, ImageLimits, NodeId, Result, Stage};

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
        atlases: HashMap::new(),
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
    /// Atlases already read (with their sheets, cut into frames), by path.
    atlases: HashMap<std::path::PathBuf, std::sync::Arc<super::atlas::Atlas>>,
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

    /// The `fill_rule` field of `fields` (at `path`): `"nonzero"` (the default) or
    /// `"evenodd"`.
    fn fill_rule(&self, fields: &Fields, path: &str) -> Result<FillRule> {
        let Some(r) = get(fields, "fill_rule") else {
            return Ok(FillRule::NonZero);
        };
        let at = join(path, "fill_rule");
        match self.string(r, &at)? {
            "nonzero" => Ok(FillRule::NonZero),
            "evenodd" => Ok(FillRule::EvenOdd),
            other => Err(self.err(
                &at,
                format!(
                    "expected \"nonzero\" or \"evenodd\", found {}",
                    json_string(other)
                ),
            )),
        }
    }

    /// The PNG file `png` (relative to the scene file; named at `png_path`), read once
    /// however many objects show it, within the image limits.
    fn png(&mut self, png: &str, png_path: &str) -> Result<Bitmap> {
        let file = self.base_dir.join(png);
        self.png_file(file, png_path)
    }

    /// The PNG `file`, read once per load (objects showing one file share its bitmap);
    /// errors at `png_path`.
    fn png_file(&mut self, file: std::path::PathBuf, png_path: &str) -> Result<Bitmap> {
        if let Some(b) = self.pngs.get(&file) {
            return Ok(b.clone());
        }
        let bitmap = Bitmap::from_png_file_with_limits(&file, &self.limits.images).map_err(|e| {
            let reason = match e {
                // The image error names its source; an I/O error names the path already.
                Error::Io { .. } | Error::Image { .. } => e.to_string(),
                other => format!("{}: {other}", file.display()),
            };
            self.err(png_path, reason)
        })?;
        let what = format!("image {}", file.display());
        let bytes = 4 * u64::from(bitmap.width()) * u64::from(bitmap.height());
        self.count_image_bytes(bytes, png_path, &what)?;
        self.pngs.insert(file, bitmap.clone());
        Ok(bitmap)
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
}
