//! Masks and scroll windows as tiny-skia masks, for what tiny-skia draws: the literal Flash
//! recipe ([`crate::methods::flash`]) and the debug pictures ([`crate::debug`]).

use std::sync::Arc;

use glam::DAffine2;
use tiny_skia::{FillRule as SkFillRule, Mask, Transform};

use crate::geom::path::Polylines;
use crate::geom::polygon;
use crate::geom::tolerance;
use crate::tree::node::NodeId;
use crate::tree::walk::{Clip, ClipLink, Clips, each_clip};
use crate::{FillRule, Rect, Result, Stage};

/// Makes the masks of a drawing's clips, one per list of clips (the leaves under one clip
/// share its list, so each is made once per drawing).
pub(crate) struct SkiaClips {
    width: u32,
    height: u32,
    /// The picture's space is `pre` times the space of `space`.
    space: NodeId,
    pre: DAffine2,
    anti_alias: bool,
    made: Vec<(Arc<ClipLink>, Option<Mask>)>,
}

impl SkiaClips {
    pub fn new(width: u32, height: u32, space: NodeId, pre: DAffine2, anti_alias: bool) -> SkiaClips {
        SkiaClips {
            width,
            height,
            space,
            pre,
            anti_alias,
            made: Vec::new(),
        }
    }

    /// The mask of a list of clips, `None` when there are none (or no mask could be made:
    /// the picture is then drawn unclipped).
    pub fn mask(&mut self, stage: &Stage, clips: &Clips) -> Result<Option<&Mask>> {
        let Some(link) = clips else { return Ok(None) };
        let k = match self.made.iter().position(|(l, _)| Arc::ptr_eq(l, link)) {
            Some(k) => k,
            None => {
                let mask = self.make(stage, clips)?;
                self.made.push((link.clone(), mask));
                self.made.len() - 1
            }
        };
        Ok(self.made[k].1.as_ref())
    }

    fn make(&self, stage: &Stage, clips: &Clips) -> Result<Option<Mask>> {
        let Some(mut all) = Mask::new(self.width, self.height) else {
            return Ok(None);
        };
        all.data_mut().fill(255);
        let bounds = Rect::from_ltrb(
            -2.0,
            -2.0,
            f64::from(self.width) + 2.0,
            f64::from(self.height) + 2.0,
        );
        let mut polys = Polylines::default();
        for clip in each_clip(clips) {
            let Some(mut region) = Mask::new(self.width, self.height) else {
                return Ok(None);
            };
            let mut add = |polys: &Polylines, rule: FillRule| {
                let mut cut = Polylines::default();
                if let Some(b) = &bounds {
                    polygon::clip_to_rect(polys, b, &mut cut);
                }
                if let Some(path) = cut.to_skia_path(|p| p) {
                    let rule = match rule {
                        FillRule::NonZero => SkFillRule::Winding,
                        FillRule::EvenOdd => SkFillRule::EvenOdd,
                    };
                    region.fill_path(&path, rule, self.anti_alias, Transform::identity());
                }
            };
            match *clip {
                Clip::Window { rect, matrix } => {
                    polys.clear();
                    polys.push_contour(rect.corners().map(|c| matrix.transform_point2(c)), true);
                    add(&polys, FillRule::NonZero);
                }
                Clip::Mask(m) => {
                    stage.for_each_region_leaf(m, self.space, self.pre, |piece, m| {
                        polys.clear();
                        // Geometry over the budget is left out (the queries report it).
                        let Some(rule) = piece.outline(m, tolerance::SKIA_CLIP, &mut polys) else {
                            return Ok(());
                        };
                        add(&polys, rule);
                        Ok(())
                    })?;
                }
            }
            for (a, &r) in all.data_mut().iter_mut().zip(region.data()) {
                *a = ((u32::from(*a) * u32::from(r) + 127) / 255) as u8;
            }
        }
        Ok(Some(all))
    }
}
