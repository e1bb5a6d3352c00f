//! A bitmap object's `renderer` field (semantics.md 4.9): pygame's `rotate` or `rotozoom`,
//! with flips and a flavour, read with errors at the field.

use super::{Fields, Loader, get, join};
use crate::scene::json::Json;
use crate::{BitmapRenderer, Error, NodeId, PygameFlavour, PygameTransform, Result};

impl Loader<'_> {
    /// Reads `renderer` at `path` and sets it on the bitmap node `id`.
    pub(super) fn renderer(&mut self, v: &Json, path: &str, id: NodeId) -> Result<()> {
        let fields = self.object(v, path)?;
        let allowed = ["pygame", "angle", "scale", "flip_x", "flip_y", "flavour"];
        self.check_keys(fields, path, &allowed, "a renderer")?;
        let call_path = join(path, "pygame");
        let rotozoom = match self.string(self.required(fields, path, "pygame")?, &call_path)? {
            "rotate" => false,
            "rotozoom" => true,
            other => {
                return Err(self.err(
                    &call_path,
                    format!("expected \"rotate\" or \"rotozoom\", found {other:?}"),
                ));
            }
        };
        let angle = self.number(self.required(fields, path, "angle")?, &join(path, "angle"))?;
        let scale = match get(fields, "scale") {
            Some(_) if !rotozoom => {
                return Err(self.err(&join(path, "scale"), "only \"rotozoom\" has a scale"));
            }
            Some(s) => self.number(s, &join(path, "scale"))?,
            None => 1.0,
        };
        let flip_x = self.flag(fields, path, "flip_x")?;
        let flip_y = self.flag(fields, path, "flip_y")?;
        let flavour_path = join(path, "flavour");
        let flavour = match get(fields, "flavour") {
            None => PygameFlavour::Pygame,
            Some(f) => match self.string(f, &flavour_path)? {
                "pygame" => PygameFlavour::Pygame,
                "pygame-ce" => PygameFlavour::PygameCe,
                other => {
                    return Err(self.err(
                        &flavour_path,
                        format!("expected \"pygame\" or \"pygame-ce\", found {other:?}"),
                    ));
                }
            },
        };
        let t = match rotozoom {
            true => PygameTransform::rotozoom(angle, scale),
            false => PygameTransform::rotate(angle),
        };
        let t = t.flip(flip_x, flip_y).flavour(flavour);
        self.stage
            .set_bitmap_renderer(id, Some(BitmapRenderer::Pygame(t)))
            .map_err(|e| {
                // A value pygame cannot take is reported at its field.
                let at = match &e {
                    Error::OutOfRange { what, .. } if what.ends_with("angle") => join(path, "angle"),
                    Error::OutOfRange { what, .. } if what.ends_with("scale") => join(path, "scale"),
                    _ => path.to_string(),
                };
                self.err(&at, e.to_string())
            })
    }

    /// An optional boolean field, false when absent.
    fn flag(&self, fields: &Fields, path: &str, key: &str) -> Result<bool> {
        match get(fields, key) {
            Some(v) => self.boolean(v, &join(path, key)),
            None => Ok(false),
        }
    }
}
