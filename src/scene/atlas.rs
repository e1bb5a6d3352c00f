//! Texture atlases: the JSON that TexturePacker ("JSON (Hash)" and "JSON (Array)") and
//! Aseprite (`--format json-hash` or `json-array`) write beside a sprite sheet, read into
//! each frame's rectangle of the sheet and its trim offset.
//!
//! The layouts share one frame entry: `frame` (the rectangle in the sheet), `rotated`,
//! `trimmed`, `spriteSourceSize` (where the trimmed rectangle lies in the untrimmed frame)
//! and `sourceSize` (the untrimmed frame's size); `frames` is an object keyed by frame name
//! (hash) or an array whose entries carry a `filename` (array); `meta.image` names the
//! sheet. Other fields (pivots, durations, layers, slices) are left alone. Frames keep the
//! file's order, which is the animation's in both tools (the scene parser keeps keys in
//! order; a plain map would sort `"run 10"` before `"run 2"`).

use std::collections::HashMap;
use std::path::Path as FsPath;

use super::json::{Json, parse_json};
use super::text::{fmt_num, json_string};
use crate::{Bitmap, Error, Frame, Result};

/// A texture atlas: a sprite sheet and its named frames, as TexturePacker ("JSON (Hash)",
/// "JSON (Array)") and Aseprite (`json-hash`, `json-array`) export them. Each frame is a
/// [`Frame::Bitmap`] showing its region of the sheet ([`Bitmap::region`], no copy) at its
/// trim offset (`spriteSourceSize.x`, `.y`), so the node's origin is the untrimmed frame's
/// top-left corner (docs/art.md, "Trimmed frames"). Frames keep the file's order.
///
/// ```
/// use pixelhit::{Atlas, Bitmap, Frame, Stage};
/// let json = br#"{"frames": {
///     "idle": {"frame": {"x": 0, "y": 0, "w": 2, "h": 2}},
///     "hit": {"frame": {"x": 2, "y": 0, "w": 1, "h": 1}, "trimmed": true,
///             "spriteSourceSize": {"x": 1, "y": 1, "w": 1, "h": 1}, "sourceSize": {"w": 2, "h": 2}}},
///   "meta": {"image": "sheet.png"}}"#;
/// let sheet = Bitmap::from_rgba8(3, 2, vec![255; 24])?;
/// let atlas = Atlas::from_json(json, "hero.json", sheet)?;
/// assert_eq!(atlas.names().collect::<Vec<_>>(), ["idle", "hit"]);
/// assert!(matches!(atlas.frame("hit"), Some(Frame::Bitmap { offset: (1, 1), .. })));
/// let mut stage = Stage::new();
/// let root = stage.root();
/// let hero = stage.add_frames(root, atlas.frames())?;
/// # Ok::<(), pixelhit::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Atlas {
    sheet: Bitmap,
    frames: Vec<(String, Frame)>,
    /// Each name's first frame, so that a scene listing many names of a large atlas costs
    /// a lookup per name.
    by_name: HashMap<String, usize>,
    /// Aseprite's tags: each animation's name and its frames `from..=to`.
    tags: Vec<(String, usize, usize)>,
}

impl Atlas {
    /// Reads an atlas file and the PNG its `meta.image` names (relative to the file), with
    /// the default [`ImageLimits`](crate::ImageLimits).
    ///
    /// # Errors
    ///
    /// [`Error::Io`] when a file cannot be read, [`Error::Image`] for the PNG, and as
    /// [`Atlas::from_json`].
    pub fn from_file(path: impl AsRef<FsPath>) -> Result<Atlas> {
        let path = path.as_ref();
        let bytes = crate::error::read_file(path)?;
        let name = path.display().to_string();
        let parsed = parse_atlas(&bytes, &name)?;
        let image = path.parent().unwrap_or(FsPath::new("")).join(&parsed.image);
        Atlas::from_parsed(&parsed, &name, Bitmap::from_png_file(image)?)
    }

    /// An atlas from the JSON `bytes` of its file (called `file_name` in errors) and its
    /// sheet, already loaded (its `meta.image` is not read).
    ///
    /// # Errors
    ///
    /// [`Error::Scene`] naming `file_name` and the field (`frames["run 0"].frame.w`): JSON
    /// syntax, a missing or mistyped field, a rotated frame (not supported: export without
    /// rotation), a `spriteSourceSize` of another size than `frame` or reaching outside
    /// `sourceSize`, a frame reaching outside the sheet, no frames at all.
    pub fn from_json(bytes: &[u8], file_name: &str, sheet: Bitmap) -> Result<Atlas> {
        Atlas::from_parsed(&parse_atlas(bytes, file_name)?, file_name, sheet)
    }

    /// Each parsed frame as its region of `sheet`.
    pub(crate) fn from_parsed(parsed: &AtlasFile, file_name: &str, sheet: Bitmap) -> Result<Atlas> {
        let mut frames = Vec::with_capacity(parsed.frames.len());
        for f in &parsed.frames {
            let [x, y, w, h] = f.rect;
            let bitmap = sheet.region(x, y, w, h).map_err(|e| Error::Scene {
                file: file_name.to_string(),
                location: format!("{}.frame", f.at),
                reason: e.to_string(),
            })?;
            let frame = Frame::Bitmap {
                bitmap,
                smoothing: false,
                offset: f.offset,
            };
            frames.push((f.name.clone(), frame));
        }
        let mut by_name = HashMap::with_capacity(frames.len());
        for (k, (name, _)) in frames.iter().enumerate() {
            by_name.entry(name.clone()).or_insert(k);
        }
        Ok(Atlas {
            sheet,
            frames,
            by_name,
            tags: parsed.tags.clone(),
        })
    }

    /// The sheet every frame is a region of.
    pub fn sheet(&self) -> &Bitmap {
        &self.sheet
    }

    /// The frames' names (hash keys, or `filename`s; `#i` for an array entry without one),
    /// in the file's order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.frames.iter().map(|(n, _)| n.as_str())
    }

    /// The frame named `name` (the first, if several have it), with nearest sampling (set
    /// `smoothing` in it for bilinear).
    pub fn frame(&self, name: &str) -> Option<&Frame> {
        let &k = self.by_name.get(name)?;
        self.frames.get(k).map(|(_, f)| f)
    }

    /// The frames of the animation Aseprite tagged `name` (`meta.frameTags`: frames `from`
    /// to `to`, in the file's order; playing them forward, backward or back and forth is
    /// the game's choice of `set_frame`), or `None` when no tag has that name (the first
    /// tag of that name, if several have it).
    pub fn tag(&self, name: &str) -> Option<Vec<Frame>> {
        let &(_, from, to) = self.tags.iter().find(|(n, _, _)| n == name)?;
        let frames = self.frames.get(from..=to)?;
        Some(frames.iter().map(|(_, f)| f.clone()).collect())
    }

    /// The names of Aseprite's tags, in the file's order (none for TexturePacker).
    pub fn tag_names(&self) -> impl Iterator<Item = &str> {
        self.tags.iter().map(|(n, _, _)| n.as_str())
    }

    /// Every frame in the file's order, ready for [`Stage::add_frames`](crate::Stage::add_frames)
    /// (cheap: each holds a handle to the shared sheet).
    pub fn frames(&self) -> Vec<Frame> {
        self.frames.iter().map(|(_, f)| f.clone()).collect()
    }
}

/// One frame of an atlas.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct AtlasFrame {
    /// Its key (hash) or `filename` (array; `#i` for an entry without one).
    pub name: String,
    /// `[x, y, w, h]` of the trimmed pixels in the sheet.
    pub rect: [u32; 4],
    /// Where they go in the untrimmed frame (`spriteSourceSize.x`, `.y`).
    pub offset: (i32, i32),
    /// Where it is in the atlas file, for messages (`frames["run 0"]`).
    pub at: String,
}

/// What an atlas file says: the sheet's file name (relative to the atlas file) and its
/// frames in file order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct AtlasFile {
    pub image: String,
    pub frames: Vec<AtlasFrame>,
    /// Aseprite's `meta.frameTags`: each animation's name and its frames `from..=to`.
    pub tags: Vec<(String, usize, usize)>,
}

/// Reads an atlas file's bytes; `file` names it in errors.
///
/// # Errors
///
/// [`Error::Scene`] naming `file` and the field (`frames["run 0"].frame.w`): JSON syntax,
/// a missing or mistyped field, a rotated frame (not supported: export without rotation),
/// a `spriteSourceSize` of another size than `frame` or reaching outside `sourceSize`.
pub(crate) fn parse_atlas(bytes: &[u8], file: &str) -> Result<AtlasFile> {
    let json = parse_json(bytes, file)?;
    let r = Reader { file };
    let top = r.object(&json, "top level")?;
    let meta = r.object(r.required(top, "", "meta")?, "meta")?;
    let image = r
        .string(r.required(meta, "meta", "image")?, "meta.image")?
        .to_string();
    let frames = match r.required(top, "", "frames")? {
        Json::Object(entries) => entries
            .iter()
            .map(|(name, v)| r.frame(v, name.clone(), format!("frames[{}]", json_string(name))))
            .collect::<Result<Vec<_>>>()?,
        Json::Array(entries) => {
            let mut out = Vec::with_capacity(entries.len());
            for (i, v) in entries.iter().enumerate() {
                let at = format!("frames[{i}]");
                let name = match get(r.object(v, &at)?, "filename") {
                    Some(n) => r.string(n, &format!("{at}.filename"))?.to_string(),
                    None => format!("#{i}"),
                };
                out.push(r.frame(v, name, at)?);
            }
            out
        }
        other => {
            return Err(r.err(
                "frames",
                format!(
                    "expected an object of frames by name (hash layout) or an array of frames \
                     (array layout), found {}",
                    other.kind()
                ),
            ));
        }
    };
    if frames.is_empty() {
        return Err(r.err("frames", "the atlas has no frames"));
    }
    let mut tags = Vec::new();
    if let Some(v) = get(meta, "frameTags") {
        let Json::Array(items) = v else {
            return Err(r.err("meta.frameTags", format!("expected an array, found {}", v.kind())));
        };
        let last = (frames.len() - 1) as f64;
        for (i, item) in items.iter().enumerate() {
            let at = format!("meta.frameTags[{i}]");
            let fields = r.object(item, &at)?;
            let name = r.string(r.required(fields, &at, "name")?, &format!("{at}.name"))?;
            let from = r.whole(r.required(fields, &at, "from")?, &format!("{at}.from"), 0.0, last)?;
            let to = r.whole(r.required(fields, &at, "to")?, &format!("{at}.to"), from, last)?;
            tags.push((name.to_string(), from as usize, to as usize));
        }
    }
    Ok(AtlasFile { image, frames, tags })
}

fn get<'j>(fields: &'j [(String, Json)], key: &str) -> Option<&'j Json> {
    fields.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

/// Checks of one atlas file's values, each error at its field.
struct Reader<'a> {
    file: &'a str,
}

impl Reader<'_> {
    fn err(&self, location: &str, reason: impl Into<String>) -> Error {
        Error::Scene {
            file: self.file.to_string(),
            location: location.to_string(),
            reason: reason.into(),
        }
    }

    fn object<'j>(&self, v: &'j Json, at: &str) -> Result<&'j [(String, Json)]> {
        match v {
            Json::Object(f) => Ok(f),
            other => Err(self.err(at, format!("expected an object, found {}", other.kind()))),
        }
    }

    fn string<'j>(&self, v: &'j Json, at: &str) -> Result<&'j str> {
        match v {
            Json::String(s) => Ok(s),
            other => Err(self.err(at, format!("expected a string, found {}", other.kind()))),
        }
    }

    fn required<'j>(&self, fields: &'j [(String, Json)], at: &str, key: &str) -> Result<&'j Json> {
        let place = if at.is_empty() {
            key.to_string()
        } else {
            format!("{at}.{key}")
        };
        get(fields, key).ok_or_else(|| self.err(&place, "missing (this field is required)"))
    }

    /// A whole number in `lo..=hi`.
    fn whole(&self, v: &Json, at: &str, lo: f64, hi: f64) -> Result<f64> {
        match v {
            Json::Number(n) if n.fract() == 0.0 && (lo..=hi).contains(n) => Ok(*n),
            Json::Number(n) => Err(self.err(
                at,
                format!(
                    "expected a whole number from {} to {}, found {}",
                    fmt_num(lo),
                    fmt_num(hi),
                    fmt_num(*n)
                ),
            )),
            other => Err(self.err(at, format!("expected a number, found {}", other.kind()))),
        }
    }

    /// The fields `keys` of the object at `at`, whole numbers in `lo..=hi`.
    fn numbers<const N: usize>(&self, v: &Json, at: &str, keys: [&str; N], lo: f64) -> Result<[f64; N]> {
        let fields = self.object(v, at)?;
        let mut out = [0.0; N];
        for (slot, key) in out.iter_mut().zip(keys) {
            *slot = self.whole(
                self.required(fields, at, key)?,
                &format!("{at}.{key}"),
                lo,
                f64::from(u32::MAX),
            )?;
        }
        Ok(out)
    }

    fn flag(&self, fields: &[(String, Json)], at: &str, key: &str) -> Result<bool> {
        match get(fields, key) {
            None => Ok(false),
            Some(Json::Bool(b)) => Ok(*b),
            Some(other) => Err(self.err(
                &format!("{at}.{key}"),
                format!("expected true or false, found {}", other.kind()),
            )),
        }
    }

    fn frame(&self, v: &Json, name: String, at: String) -> Result<AtlasFrame> {
        let fields = self.object(v, &at)?;
        if self.flag(fields, &at, "rotated")? {
            return Err(self.err(
                &format!("{at}.rotated"),
                "rotated frames are not supported: export the atlas without rotation \
                 (TexturePacker: untick \"Allow rotation\")",
            ));
        }
        let trimmed = self.flag(fields, &at, "trimmed")?;
        let frame_at = format!("{at}.frame");
        let [x, y, w, h] = self.numbers(
            self.required(fields, &at, "frame")?,
            &frame_at,
            ["x", "y", "w", "h"],
            0.0,
        )?;
        if w == 0.0 || h == 0.0 {
            return Err(self.err(
                &frame_at,
                format!("the frame is empty ({}x{})", fmt_num(w), fmt_num(h)),
            ));
        }
        let mut offset = (0.0, 0.0);
        if let Some(s) = get(fields, "spriteSourceSize") {
            let s_at = format!("{at}.spriteSourceSize");
            let fs = self.object(s, &s_at)?;
            let lo = f64::from(i32::MIN);
            let sx = self.whole(
                self.required(fs, &s_at, "x")?,
                &format!("{s_at}.x"),
                lo,
                f64::from(i32::MAX),
            )?;
            let sy = self.whole(
                self.required(fs, &s_at, "y")?,
                &format!("{s_at}.y"),
                lo,
                f64::from(i32::MAX),
            )?;
            let [sw, sh] = self.numbers(s, &s_at, ["w", "h"], 0.0)?;
            if (sw, sh) != (w, h) {
                return Err(self.err(
                    &s_at,
                    format!(
                        "its size {}x{} is not the frame's {}x{} (scaled frames are not supported)",
                        fmt_num(sw),
                        fmt_num(sh),
                        fmt_num(w),
                        fmt_num(h)
                    ),
                ));
            }
            if let Some(size) = get(fields, "sourceSize") {
                let size_at = format!("{at}.sourceSize");
                let [uw, uh] = self.numbers(size, &size_at, ["w", "h"], 0.0)?;
                if sx < 0.0 || sy < 0.0 || sx + sw > uw || sy + sh > uh {
                    return Err(self.err(
                        &s_at,
                        format!(
                            "the trimmed rectangle at ({}, {}) of {}x{} reaches outside the {}x{} of sourceSize",
                            fmt_num(sx),
                            fmt_num(sy),
                            fmt_num(sw),
                            fmt_num(sh),
                            fmt_num(uw),
                            fmt_num(uh)
                        ),
                    ));
                }
            }
            offset = (sx, sy);
        } else if trimmed {
            return Err(self.err(
                &at,
                "a trimmed frame needs `spriteSourceSize` (where its pixels go in the untrimmed frame)",
            ));
        }
        Ok(AtlasFrame {
            name,
            rect: [x as u32, y as u32, w as u32, h as u32],
            offset: (offset.0 as i32, offset.1 as i32),
            at,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(name: &str, rect: [u32; 4], offset: (i32, i32), at: &str) -> AtlasFrame {
        AtlasFrame {
            name: name.into(),
            rect,
            offset,
            at: at.into(),
        }
    }

    #[test]
    fn hash_and_array_layouts_give_the_frames_in_file_order() {
        let hash = br#"{"frames": {
            "run 2": {"frame": {"x": 0, "y": 0, "w": 3, "h": 4}, "rotated": false, "trimmed": true,
                      "spriteSourceSize": {"x": 1, "y": 2, "w": 3, "h": 4}, "sourceSize": {"w": 8, "h": 8},
                      "duration": 100},
            "run 10": {"frame": {"x": 3, "y": 0, "w": 5, "h": 5}, "rotated": false, "trimmed": false,
                       "spriteSourceSize": {"x": 0, "y": 0, "w": 5, "h": 5}, "sourceSize": {"w": 5, "h": 5}}},
            "meta": {"app": "x", "image": "sheet.png", "size": {"w": 8, "h": 5}, "scale": "1"}}"#;
        let a = parse_atlas(hash, "a.json").unwrap();
        assert_eq!(a.image, "sheet.png");
        assert_eq!(
            a.frames,
            vec![
                frame("run 2", [0, 0, 3, 4], (1, 2), "frames[\"run 2\"]"),
                frame("run 10", [3, 0, 5, 5], (0, 0), "frames[\"run 10\"]"),
            ]
        );
        let array = br#"{"frames": [
            {"filename": "b", "frame": {"x": 2, "y": 1, "w": 1, "h": 1}},
            {"frame": {"x": 0, "y": 0, "w": 2, "h": 2}}], "meta": {"image": "s.png"}}"#;
        let a = parse_atlas(array, "b.json").unwrap();
        assert_eq!(
            a.frames,
            vec![
                frame("b", [2, 1, 1, 1], (0, 0), "frames[0]"),
                frame("#1", [0, 0, 2, 2], (0, 0), "frames[1]")
            ]
        );
    }

    #[test]
    fn bad_atlases_are_refused_at_the_field() {
        let cases: [(&str, &str, &str); 8] = [
            (r#"{"frames": []}"#, "meta", "missing"),
            (
                r#"{"frames": [], "meta": {"image": "s.png"}}"#,
                "frames",
                "no frames",
            ),
            (
                r#"{"frames": 3, "meta": {"image": "s.png"}}"#,
                "frames",
                "hash layout",
            ),
            (
                r#"{"frames": {"a": {"frame": {"x": 0, "y": 0, "w": 1.5, "h": 1}}}, "meta": {"image": "s.png"}}"#,
                r#"frames["a"].frame.w"#,
                "whole number",
            ),
            (
                r#"{"frames": [{"frame": {"x": 0, "y": 0, "w": 2, "h": 1}, "rotated": true}], "meta": {"image": "s"}}"#,
                "frames[0].rotated",
                "not supported",
            ),
            (
                r#"{"frames": [{"frame": {"x": 0, "y": 0, "w": 2, "h": 1}, "trimmed": true}], "meta": {"image": "s"}}"#,
                "frames[0]",
                "spriteSourceSize",
            ),
            (
                r#"{"frames": [{"frame": {"x": 0, "y": 0, "w": 2, "h": 1},
                   "spriteSourceSize": {"x": 0, "y": 0, "w": 1, "h": 1}}], "meta": {"image": "s"}}"#,
                "frames[0].spriteSourceSize",
                "not the frame's 2x1",
            ),
            (
                r#"{"frames": [{"frame": {"x": 0, "y": 0, "w": 2, "h": 1},
                   "spriteSourceSize": {"x": 3, "y": 0, "w": 2, "h": 1}, "sourceSize": {"w": 4, "h": 1}}],
                   "meta": {"image": "s"}}"#,
                "frames[0].spriteSourceSize",
                "outside the 4x1",
            ),
        ];
        for (text, location, reason) in cases {
            match parse_atlas(text.as_bytes(), "a.json") {
                Err(Error::Scene {
                    file,
                    location: l,
                    reason: r,
                }) => {
                    assert_eq!((file.as_str(), l.as_str()), ("a.json", location), "{r}");
                    assert!(r.contains(reason), "{l}: {r}");
                }
                other => panic!("{text}: {other:?}"),
            }
        }
        assert!(parse_atlas(b"{\"frames\": ", "a.json").is_err());
        let tagged = |tags: &str| {
            format!(
                r#"{{"frames": [{{"frame": {{"x": 0, "y": 0, "w": 1, "h": 1}}}}, {{"frame": {{"x": 0, "y": 0, "w": 1, "h": 1}}}}],
                    "meta": {{"image": "s", "frameTags": {tags}}}}}"#
            )
        };
        let ok = parse_atlas(
            tagged(r#"[{"name": "a", "from": 0, "to": 1}, {"name": "b", "from": 1, "to": 1}]"#).as_bytes(),
            "t.json",
        );
        assert_eq!(
            ok.unwrap().tags,
            vec![("a".to_string(), 0, 1), ("b".to_string(), 1, 1)]
        );
        for (tags, location) in [
            (r#"[{"name": "a", "from": 0, "to": 2}]"#, "meta.frameTags[0].to"),
            (r#"[{"name": "a", "from": 1, "to": 0}]"#, "meta.frameTags[0].to"),
            (r#"[{"from": 0, "to": 0}]"#, "meta.frameTags[0].name"),
            (r#"{}"#, "meta.frameTags"),
        ] {
            match parse_atlas(tagged(tags).as_bytes(), "t.json") {
                Err(Error::Scene { location: l, .. }) => assert_eq!(l, location, "{tags}"),
                other => panic!("{tags}: {other:?}"),
            }
        }
    }
}
