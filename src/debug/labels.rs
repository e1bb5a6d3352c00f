//! The answers' number labels: placed touching their own answer's box on screen, never on each other.

use super::colors::ANSWER;
use super::scene::fill_rect;
use super::text::DOT;
use super::text::text;
use super::text::text_width;
use glam::DVec2;
use tiny_skia::Pixmap;

/// The query's number on a white label, so that several answers can be told apart and
/// matched with the legend; `rect` comes from [`place_labels`]. A thin frame keeps labels
/// placed side by side from reading as one number.
pub(super) fn draw_label(pic: &mut Pixmap, rect: [f32; 4], number: usize) {
    const FRAME: [u8; 3] = [150, 150, 150];
    let [x, y, r, b] = rect;
    let (w, h) = (r - x, b - y);
    fill_rect(pic, x, y, w, h, [255, 255, 255], 0.9);
    for (fx, fy, fw, fh) in [
        (x, y, w, 1.0),
        (x, b - 1.0, w, 1.0),
        (x, y, 1.0, h),
        (r - 1.0, y, 1.0, h),
    ] {
        fill_rect(pic, fx, fy, fw, fh, FRAME, 1.0);
    }
    text(pic, x + 2.0, y + 2.0, &number.to_string(), ANSWER);
}

/// Width and height of the label of answer `number`: its digits with a margin of 2 pixels
/// (the frame and 1 pixel of white).
pub(super) fn label_size(number: usize) -> [f32; 2] {
    [text_width(&number.to_string()) + 2.0, 5.0 * DOT + 4.0]
}

/// Blank space between a label and its answer's box.
pub(super) const LABEL_GAP: f32 = 1.0;
/// Coordinates of answers are kept within this many pixels of the picture, so that label
/// arithmetic stays on whole numbers that f32 holds exactly.
pub(super) const LABEL_FAR: f32 = 1e6;

/// A label to place: its answer's rectangle as a quad in the picture, and its size.
#[derive(Clone, Copy, Debug)]
pub(super) struct LabelFor {
    pub(super) quad: [DVec2; 4],
    pub(super) size: [f32; 2],
}

/// Where each label goes (`[left, top, right, bottom]` in the picture, whole pixels), in
/// order, each overlapping none placed before it.
///
/// A label touches its answer's box on screen (the bounding box of the quad) wherever it
/// can: first above it, sliding right from the quad's topmost corner and then left, then
/// below, right and left of it the same way; then those sides pulled into the picture
/// (onto the box, when it reaches past the picture's edge); then in rings further out; then
/// wherever the picture still has room, as near the box as the search finds; and only when
/// the picture is full, below everything placed. Sliding jumps past the labels in the way,
/// so it finds the first free spot on each side exactly.
pub(super) fn place_labels(wanted: &[LabelFor], picture: [f32; 2]) -> Vec<[f32; 4]> {
    let mut placed: Vec<[f32; 4]> = Vec::with_capacity(wanted.len());
    for w in wanted {
        let spot = Spot::new(&w.quad);
        let at = spot
            .touching(&placed, w.size, picture, false)
            .or_else(|| spot.touching(&placed, w.size, picture, true))
            .or_else(|| spot.clamped(picture).rings(&placed, w.size, picture))
            .or_else(|| spot.nearest_free(&placed, w.size, picture))
            .unwrap_or_else(|| {
                let below = placed.iter().map(|p| p[3]).fold(picture[1], f32::max);
                [spot.l.clamp(0.0, (picture[0] - w.size[0]).max(0.0)), below]
            });
        placed.push([at[0], at[1], at[0] + w.size[0], at[1] + w.size[1]]);
    }
    placed
}

/// An answer as the labels see it: its box in whole picture pixels, and where along each
/// side the quad reaches the box (its corner there), so that a label starting there touches
/// the quad itself, not only its box.
#[derive(Clone, Copy, Debug)]
pub(super) struct Spot {
    pub(super) l: f32,
    pub(super) t: f32,
    pub(super) r: f32,
    pub(super) b: f32,
    /// The x of the topmost and of the bottommost corner, the y of the rightmost and of the
    /// leftmost; the leftmost or topmost of those where several tie.
    pub(super) anchors: [f32; 4],
}

impl Spot {
    pub(super) fn new(quad: &[DVec2; 4]) -> Spot {
        let pts = quad.map(|c| [c.x, c.y].map(|v| (v as f32).clamp(-LABEL_FAR, LABEL_FAR)));
        // NaN never comes from a finite matrix, but a label must not loop on one either.
        let pts = pts.map(|p| p.map(|v| if v.is_nan() { 0.0 } else { v }));
        // The other coordinate of the corner furthest along `axis` (`least`: furthest back).
        let extreme = |axis: usize, least: bool| {
            let key = |p: &[f32; 2]| (if least { p[axis] } else { -p[axis] }, p[1 - axis]);
            let best = pts[1..]
                .iter()
                .fold(pts[0], |best, p| if key(p) < key(&best) { *p } else { best });
            best[1 - axis].round()
        };
        let least = |axis: usize| pts.iter().map(|p| p[axis]).fold(f32::INFINITY, f32::min);
        let most = |axis: usize| pts.iter().map(|p| p[axis]).fold(f32::NEG_INFINITY, f32::max);
        Spot {
            l: least(0).floor(),
            t: least(1).floor(),
            r: most(0).ceil(),
            b: most(1).ceil(),
            anchors: [
                extreme(1, true),
                extreme(1, false),
                extreme(0, false),
                extreme(0, true),
            ],
        }
    }

    /// The first free spot touching the box's outside, side after side. `pull_in` moves a
    /// side lying past the picture's edge onto that edge instead of leaving it out.
    pub(super) fn touching(
        &self,
        placed: &[[f32; 4]],
        size: [f32; 2],
        picture: [f32; 2],
        pull_in: bool,
    ) -> Option<[f32; 2]> {
        let [w, h] = size;
        let g = LABEL_GAP;
        // (axis that stays fixed, its value, where the slide starts, how far it may go)
        let sides = [
            (1, self.t - h - g, self.anchors[0], self.l - w, self.r),
            (1, self.b + g, self.anchors[1], self.l - w, self.r),
            (0, self.r + g, self.anchors[2], self.t - h, self.b),
            (0, self.l - w - g, self.anchors[3], self.t - h, self.b),
        ];
        for (fixed_axis, fixed, start, lo, hi) in sides {
            let moving = 1 - fixed_axis;
            let fixed_max = (picture[fixed_axis] - size[fixed_axis]).max(0.0);
            let fixed = match (0.0..=fixed_max).contains(&fixed) {
                true => fixed,
                false if pull_in => fixed.clamp(0.0, fixed_max),
                false => continue,
            };
            let (lo, hi) = (lo.max(0.0), hi.min((picture[moving] - size[moving]).max(0.0)));
            if lo > hi {
                continue;
            }
            let mut pos = [0.0; 2];
            pos[fixed_axis] = fixed;
            pos[moving] = start.clamp(lo, hi);
            let found = slide(placed, size, pos, moving, hi).or_else(|| slide(placed, size, pos, moving, lo));
            if found.is_some() {
                return found;
            }
        }
        None
    }

    /// The box cut to the picture (a box wholly outside becomes a line on its edge), so
    /// that rings around it start near what is seen.
    pub(super) fn clamped(&self, picture: [f32; 2]) -> Spot {
        let [w, h] = picture;
        Spot {
            l: self.l.clamp(0.0, w),
            t: self.t.clamp(0.0, h),
            r: self.r.clamp(0.0, w),
            b: self.b.clamp(0.0, h),
            anchors: self.anchors,
        }
    }

    /// The first free spot on rings one label height apart around the box, until the rings
    /// hold the whole picture.
    pub(super) fn rings(&self, placed: &[[f32; 4]], size: [f32; 2], picture: [f32; 2]) -> Option<[f32; 2]> {
        let step = size[1] + LABEL_GAP;
        for k in 1.. {
            let d = k as f32 * step;
            let ring = Spot {
                l: self.l - d,
                t: self.t - d,
                r: self.r + d,
                b: self.b + d,
                anchors: self.anchors,
            };
            if let Some(at) = ring.touching(placed, size, picture, false) {
                return Some(at);
            }
            if ring.l - size[0] <= 0.0
                && ring.t - size[1] <= 0.0
                && ring.r >= picture[0]
                && ring.b >= picture[1]
            {
                return None;
            }
        }
        None
    }

    /// The free spot of the picture nearest the box among the first free ones of each row
    /// a label can rest in. Any free spot can move up until a label's bottom or the
    /// picture's top stops it, so those rows find room wherever there is some.
    pub(super) fn nearest_free(
        &self,
        placed: &[[f32; 4]],
        size: [f32; 2],
        picture: [f32; 2],
    ) -> Option<[f32; 2]> {
        let (x_max, y_max) = (picture[0] - size[0], picture[1] - size[1]);
        if x_max < 0.0 || y_max < 0.0 {
            return None;
        }
        let mut rows: Vec<f32> = std::iter::once(0.0)
            .chain(placed.iter().map(|p| p[3]))
            .filter(|y| (0.0..=y_max).contains(y))
            .collect();
        rows.sort_by(f32::total_cmp);
        rows.dedup();
        let start = self.l.clamp(0.0, x_max);
        let own = [self.l, self.t, self.r, self.b];
        let away = |at: &[f32; 2]| {
            let r = [at[0], at[1], at[0] + size[0], at[1] + size[1]];
            let dx = (own[0] - r[2]).max(r[0] - own[2]).max(0.0);
            let dy = (own[1] - r[3]).max(r[1] - own[3]).max(0.0);
            dx.hypot(dy)
        };
        rows.into_iter()
            .flat_map(|y| {
                [
                    slide(placed, size, [start, y], 0, x_max),
                    slide(placed, size, [start, y], 0, 0.0),
                ]
            })
            .flatten()
            .fold(None, |best: Option<[f32; 2]>, at| match best {
                Some(b) if away(&b) <= away(&at) => Some(b),
                _ => Some(at),
            })
    }
}

/// Moves a label of `size` from `pos` along `axis` towards `to` (either way) until it
/// overlaps nothing placed; `None` when it passes `to` first. Each step jumps past the
/// label in the way, so the spot found is the first free one and the steps are at most
/// one per placed label.
pub(super) fn slide(
    placed: &[[f32; 4]],
    size: [f32; 2],
    mut pos: [f32; 2],
    axis: usize,
    to: f32,
) -> Option<[f32; 2]> {
    let forward = to >= pos[axis];
    loop {
        if (forward && pos[axis] > to) || (!forward && pos[axis] < to) {
            return None;
        }
        let rect = [pos[0], pos[1], pos[0] + size[0], pos[1] + size[1]];
        match placed.iter().find(|p| overlaps(p, &rect)) {
            None => return Some(pos),
            Some(p) if forward => pos[axis] = p[axis + 2],
            Some(p) => pos[axis] = p[axis] - size[axis],
        }
    }
}

/// Whether two rectangles share more than an edge.
pub(super) fn overlaps(a: &[f32; 4], b: &[f32; 4]) -> bool {
    a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]
}
