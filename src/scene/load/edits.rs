//! A bitmap object's `edits`: erases and paints applied in file order once the object is
//! made (docs/scene-format.md, docs/art.md "Editable bitmaps").

use glam::DVec2;

use super::{Loader, get, join};
use crate::scene::json::Json;
use crate::{Brush, NodeId, Path, Result};

impl Loader<'_> {
    /// Applies the `edits` array at `path` to the bitmap object `node`: each entry is
    /// `{"erase": BRUSH}` or `{"paint": BRUSH, "color": [r, g, b, a]}`, with an optional
    /// `"alpha"` (0..1, default 1).
    pub(super) fn edits(&mut self, v: &Json, path: &str, node: NodeId) -> Result<()> {
        for (i, e) in self.array(v, path)?.iter().enumerate() {
            let at = format!("{path}[{i}]");
            let fields = self.object(e, &at)?;
            self.check_keys(fields, &at, &["erase", "paint", "color", "alpha"], "an edit")?;
            let (paint, key) = match (get(fields, "erase"), get(fields, "paint")) {
                (Some(_), None) => (false, "erase"),
                (None, Some(_)) => (true, "paint"),
                _ => return Err(self.err(&at, "an edit has either `erase` or `paint`")),
            };
            let brush = self.brush(self.required(fields, &at, key)?, &join(&at, key))?;
            let alpha = match get(fields, "alpha") {
                Some(a) => self.unit_interval(a, &join(&at, "alpha"))?,
                None => 1.0,
            };
            let color = match (get(fields, "color"), paint) {
                (Some(c), true) => self.color(c, &join(&at, "color"))?,
                (None, _) => [255; 4],
                (Some(_), false) => {
                    return Err(self.err(&join(&at, "color"), "an erase has no colour"));
                }
            };
            match paint {
                true => self.stage.paint(node, &brush, color, alpha),
                false => self.stage.erase(node, &brush, alpha),
            }
            .map_err(|e| self.err(&at, e.to_string()))?;
        }
        Ok(())
    }

    /// A brush: `{"disc": [x, y, radius]}`, `{"path": SVG_PATH_DATA, "fill_rule": ...}` or
    /// `{"png": FILE, "x": column, "y": row}`, in the edited bitmap's texels.
    fn brush(&mut self, v: &Json, path: &str) -> Result<Brush> {
        let fields = self.object(v, path)?;
        self.check_keys(
            fields,
            path,
            &["disc", "path", "fill_rule", "png", "x", "y"],
            "a brush",
        )?;
        let kinds = ["disc", "path", "png"].map(|k| get(fields, k).is_some());
        if kinds.iter().filter(|&&k| k).count() != 1 {
            return Err(self.err(path, "a brush has one of `disc`, `path` or `png`"));
        }
        if let Some(d) = get(fields, "disc") {
            let at = join(path, "disc");
            let n = self.array(d, &at)?;
            if n.len() != 3 {
                return Err(self.err(&at, format!("expected [x, y, radius], found {} numbers", n.len())));
            }
            let [x, y, r] = [0, 1, 2].map(|k| self.number(&n[k], &format!("{at}[{k}]")));
            return Ok(Brush::Disc {
                centre: DVec2::new(x?, y?),
                radius: r?,
            });
        }
        if let Some(p) = get(fields, "path") {
            let at = join(path, "path");
            let data = self.string(p, &at)?;
            let parsed = Path::from_svg(data).map_err(|e| self.err(&at, e.to_string()))?;
            return Ok(Brush::Path {
                path: parsed,
                rule: self.fill_rule(fields, path)?,
            });
        }
        let png_path = join(path, "png");
        let file = self.string(self.required(fields, path, "png")?, &png_path)?;
        let bitmap = self.png(file, &png_path)?;
        let mut at = [0i64; 2];
        for (k, key) in ["x", "y"].into_iter().enumerate() {
            if let Some(v) = get(fields, key) {
                let kat = join(path, key);
                let n = self.number(v, &kat)?;
                if n.fract() != 0.0 || n.abs() > 1e15 {
                    return Err(self.err(&kat, format!("expected a whole number of texels, found {n}")));
                }
                at[k] = n as i64;
            }
        }
        Ok(Brush::Bitmap {
            bitmap,
            x: at[0],
            y: at[1],
        })
    }

    /// `[r, g, b, a]`, each a whole number in 0..=255.
    fn color(&self, v: &Json, path: &str) -> Result<[u8; 4]> {
        let items = self.array(v, path)?;
        if items.len() != 4 {
            return Err(self.err(
                path,
                format!("expected [r, g, b, a], found {} numbers", items.len()),
            ));
        }
        let mut out = [0u8; 4];
        for (k, item) in items.iter().enumerate() {
            let at = format!("{path}[{k}]");
            let n = self.number(item, &at)?;
            if n.fract() != 0.0 || !(0.0..=255.0).contains(&n) {
                return Err(self.err(&at, format!("expected a whole number in 0..255, found {n}")));
            }
            out[k] = n as u8;
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use crate::{Bitmap, Brush, DVec2, Error, FillRule, Path, Scene, Stage};

    fn dir(tag: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("pixelhit-edits-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        let ground = Bitmap::from_rgba8(16, 8, vec![200; 16 * 8 * 4]).unwrap();
        std::fs::write(d.join("ground.png"), ground.to_png_bytes().unwrap()).unwrap();
        let mut stamp = vec![0u8; 3 * 3 * 4];
        for (k, px) in stamp.chunks_exact_mut(4).enumerate() {
            px.copy_from_slice(&[10, 20, 30, if k % 2 == 0 { 255 } else { 100 }]);
        }
        let stamp = Bitmap::from_rgba8(3, 3, stamp).unwrap();
        std::fs::write(d.join("stamp.png"), stamp.to_png_bytes().unwrap()).unwrap();
        d
    }

    /// Edits in a scene file give the pixels the same calls give, in order; the other
    /// object showing the same PNG keeps its pixels.
    #[test]
    fn edits_in_a_scene_are_the_calls_in_order() {
        let d = dir("order");
        let text = r#"{"pixelhit_scene": 1, "root": {"children": [
            {"name": "g", "bitmap": {"png": "ground.png", "edits": [
                {"erase": {"disc": [4, 4, 2.5]}},
                {"paint": {"path": "M8 0 L14 0 L11 7 Z", "fill_rule": "evenodd"}, "color": [1, 2, 3, 255], "alpha": 0.5},
                {"erase": {"png": "stamp.png", "x": 12, "y": 5}, "alpha": 0.75},
                {"paint": {"png": "stamp.png", "x": -1, "y": -1}}
            ]}},
            {"name": "plain", "bitmap": {"png": "ground.png"}}]}}"#;
        let scene = Scene::from_json(text, "s.json", &d).unwrap();
        let ground = Bitmap::from_png_file(d.join("ground.png")).unwrap();
        let stamp = Bitmap::from_png_file(d.join("stamp.png")).unwrap();
        let mut stage = Stage::new();
        let n = stage.add_bitmap(stage.root(), ground.clone(), false).unwrap();
        let disc = Brush::Disc {
            centre: DVec2::new(4.0, 4.0),
            radius: 2.5,
        };
        stage.erase(n, &disc, 1.0).unwrap();
        let tri = Brush::Path {
            path: Path::from_svg("M8 0 L14 0 L11 7 Z").unwrap(),
            rule: FillRule::EvenOdd,
        };
        stage.paint(n, &tri, [1, 2, 3, 255], 0.5).unwrap();
        let at = |x, y| Brush::Bitmap {
            bitmap: stamp.clone(),
            x,
            y,
        };
        stage.erase(n, &at(12, 5), 0.75).unwrap();
        stage.paint(n, &at(-1, -1), [255; 4], 1.0).unwrap();
        let pixels = |s: &Stage, id| s.bitmap(id).unwrap().unwrap().0.rgba().to_vec();
        let edited = pixels(&scene.stage, scene.node("g").unwrap());
        assert_eq!(edited, pixels(&stage, n));
        assert_ne!(edited, &*ground.rgba());
        assert_eq!(
            pixels(&scene.stage, scene.node("plain").unwrap()),
            &*ground.rgba()
        );
        let _ = std::fs::remove_dir_all(&d);
    }

    /// Bad edits are refused with the field's path.
    #[test]
    fn bad_edits_name_their_field() {
        let d = dir("bad");
        let cases = [
            (r#"[{"erase": {"disc": [1, 2]}}]"#, "edits[0].erase.disc"),
            (
                r#"[{"erase": {"disc": [1, 2, 3]}, "color": [0, 0, 0, 0]}]"#,
                "edits[0].color",
            ),
            (
                r#"[{"paint": {"disc": [1, 2, 3]}, "color": [0, 0, 256, 0]}]"#,
                "edits[0].color[2]",
            ),
            (
                r#"[{"erase": {"disc": [1, 2, 3], "png": "stamp.png"}}]"#,
                "edits[0].erase",
            ),
            (r#"[{"erase": {"disc": [1, 2, -3]}}]"#, "edits[0]"),
            (
                r#"[{"erase": {"png": "stamp.png", "x": 0.5}}]"#,
                "edits[0].erase.x",
            ),
            (r#"[{"smear": {}}]"#, "edits[0].smear"),
            (r#"[{"erase": {"path": "M0 0 L"}}]"#, "edits[0].erase.path"),
        ];
        for (edits, want) in cases {
            let text = format!(
                r#"{{"pixelhit_scene": 1, "root": {{"children": [{{"bitmap": {{"png": "ground.png", "edits": {edits}}}}}]}}}}"#
            );
            match Scene::from_json(&text, "s.json", &d) {
                Err(Error::Scene { location, .. }) => {
                    assert!(location.ends_with(want), "{location} for {edits}")
                }
                other => panic!("{edits}: {other:?}"),
            }
        }
        let frames = r#"{"pixelhit_scene": 1, "root": {"children": [{"frames": [{"bitmap": {"png": "ground.png", "edits": []}}]}]}}"#;
        let e = Scene::from_json(frames, "s.json", &d).unwrap_err();
        assert!(e.to_string().contains("not frames"), "{e}");
        let _ = std::fs::remove_dir_all(&d);
    }
}
