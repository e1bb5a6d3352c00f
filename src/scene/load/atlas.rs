//! The atlas form of an animated object's `frames`: `{"atlas": FILE, "names": [...],
//! "smoothing": false}`, the frames of a TexturePacker or Aseprite atlas (`scene::atlas`),
//! each a region of the sheet drawn at its trim offset.

use std::path::PathBuf;
use std::sync::Arc;

use super::{Fields, Loader, get, join};
use crate::scene::atlas::{Atlas, AtlasFile, parse_atlas};
use crate::scene::text::json_string;
use crate::{Frame, Result};

impl Loader<'_> {
    /// The frames of the atlas named in `fields` (the object at `path`): all of them in the
    /// file's order, those listed in `names` in that order, or those of Aseprite's `tag`.
    pub(super) fn atlas_frames(&mut self, fields: &Fields, path: &str) -> Result<Vec<Frame>> {
        self.check_keys(
            fields,
            path,
            &["atlas", "names", "tag", "smoothing"],
            "an atlas's frames",
        )?;
        let at = join(path, "atlas");
        let file = self
            .base_dir
            .join(self.string(self.required(fields, path, "atlas")?, &at)?);
        let smoothing = match get(fields, "smoothing") {
            Some(s) => self.boolean(s, &join(path, "smoothing"))?,
            None => false,
        };
        let atlas = self.atlas(&file, &at)?;
        if let (Some(_), Some(_)) = (get(fields, "names"), get(fields, "tag")) {
            return Err(self.err(&join(path, "tag"), "give `names` or `tag`, not both"));
        }
        let mut frames = match (get(fields, "names"), get(fields, "tag")) {
            (None, None) => atlas.frames(),
            (_, Some(t)) => {
                let tag_at = join(path, "tag");
                let name = self.string(t, &tag_at)?;
                atlas.tag(name).ok_or_else(|| {
                    let known: Vec<String> = atlas.tag_names().map(json_string).collect();
                    self.err(
                        &tag_at,
                        format!(
                            "no tag named {} in {} (its tags: {})",
                            json_string(name),
                            file.display(),
                            if known.is_empty() {
                                "none".to_string()
                            } else {
                                known.join(", ")
                            }
                        ),
                    )
                })?
            }
            (Some(v), None) => {
                let names_at = join(path, "names");
                let items = self.array(v, &names_at)?;
                if items.is_empty() {
                    return Err(self.err(&names_at, "an animated object needs at least one frame"));
                }
                let mut out = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    let item_at = format!("{names_at}[{i}]");
                    let name = self.string(item, &item_at)?;
                    let Some(f) = atlas.frame(name) else {
                        return Err(self.err(
                            &item_at,
                            format!("no frame named {} in {}", json_string(name), file.display()),
                        ));
                    };
                    out.push(f.clone());
                }
                out
            }
        };
        for f in &mut frames {
            if let Frame::Bitmap { smoothing: s, .. } = f {
                *s = smoothing;
            }
        }
        Ok(frames)
    }

    /// The atlas file `file` with its sheet, read and cut into frames once per load (an
    /// atlas shown by many objects costs its frames once); errors at `at`.
    fn atlas(&mut self, file: &PathBuf, at: &str) -> Result<Arc<Atlas>> {
        if let Some(a) = self.atlases.get(file) {
            return Ok(a.clone());
        }
        let name = file.display().to_string();
        let bytes = crate::error::read_file(file).map_err(|e| self.err(at, e.to_string()))?;
        // Where in the atlas file, under the scene's field that names it.
        let parsed: AtlasFile = parse_atlas(&bytes, &name).map_err(|e| self.err(at, e.to_string()))?;
        let image = file
            .parent()
            .unwrap_or(std::path::Path::new(""))
            .join(&parsed.image);
        let sheet = self.png_file(image, at)?;
        let atlas = Atlas::from_parsed(&parsed, &name, sheet).map_err(|e| self.err(at, e.to_string()))?;
        let atlas = Arc::new(atlas);
        self.atlases.insert(file.clone(), atlas.clone());
        Ok(atlas)
    }
}
