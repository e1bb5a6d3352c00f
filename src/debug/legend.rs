//! The legend band below the scene: one line per query with its targets' swatches, then the notes.

use crate::Result;

use super::colors::ANSWER;
use super::colors::BOUNDS_A;
use super::colors::BOUNDS_B;
use super::colors::OVERLAP;
use super::frame::picture_error;
use super::query::DebugQuery;
use super::scene::fill_rect;
use super::scene::outline;
use super::text::INK;
use super::text::ROW;
use super::text::SWATCH;
use super::text::text;
use super::text::text_width;
use crate::Collision;
use crate::NodeId;
use crate::Stage;
use glam::DVec2;
use tiny_skia::Color;
use tiny_skia::Pixmap;
use tiny_skia::PixmapPaint;
use tiny_skia::Transform;

/// How the legend names a node: its name, or `#index`, cut to 24 characters.
pub(super) fn node_label(stage: &Stage, id: NodeId) -> String {
    match stage.name(id) {
        Ok(Some(n)) if n.chars().count() > 24 => format!("{}..", n.chars().take(22).collect::<String>()),
        Ok(Some(n)) => n.to_string(),
        _ => format!("#{}", id.index()),
    }
}

/// A number for the legend: whole numbers bare, others to two decimals.
pub(super) fn legend_num(v: f64) -> String {
    if v == v.trunc() && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v:.2}")
    }
}

/// One legend line: the query's number, its targets and parent, and its answer (`meet`:
/// whether the targets' bounds overlap).
pub(super) fn legend_line(stage: &Stage, number: usize, q: &DebugQuery, c: &Collision, meet: bool) -> String {
    let who = format!(
        "{number}  {} / {} in {}",
        node_label(stage, q.a),
        node_label(stage, q.b),
        node_label(stage, q.parent)
    );
    let what = match (c.rect, c.overlap_pixels) {
        _ if !meet => "bounds apart".to_string(),
        (Some(r), n) => {
            let [x, y, w, h] = r.to_xywh().map(legend_num);
            match n {
                Some(n) => format!("[{x}, {y}, {w}, {h}], {n} px"),
                None => format!("[{x}, {y}, {w}, {h}] (bounds only)"),
            }
        }
        (None, _) => "no pixel in both".to_string(),
    };
    format!("{who}: {what}")
}

/// The picture with a white band below it: a key to the colours, then one line per query,
/// led by the colours of its two targets (`swatches`, one pair per query line). The band
/// never covers the scene, and the picture widens when the band needs it.
pub(super) fn add_legend(
    pic: Pixmap,
    queries: &[String],
    swatches: &[[[u8; 3]; 2]],
    notes: &[String],
) -> Result<Pixmap> {
    if queries.is_empty() && notes.is_empty() {
        return Ok(pic);
    }
    let lines: Vec<&String> = queries.iter().chain(notes).collect();
    let key = [
        (OVERLAP, true, "pixels in both"),
        (ANSWER, false, "answer"),
        (BOUNDS_A, false, "bounds of a"),
        (BOUNDS_B, false, "bounds of b"),
    ];
    let key_width: f32 = key
        .iter()
        .map(|(.., l)| SWATCH + 4.0 + text_width(l) + 12.0)
        .sum();
    // Every line starts after the swatches, so that the numbers stay in one column.
    let indent = if swatches.is_empty() {
        0.0
    } else {
        2.0 * SWATCH + 8.0
    };
    let widest = lines
        .iter()
        .map(|l| indent + text_width(l))
        .fold(key_width, f32::max);
    let band = legend_height(lines.len());
    let width = pic.width().max((widest + 16.0).ceil() as u32);
    let mut out = Pixmap::new(width, pic.height() + band).ok_or_else(|| picture_error(f64::from(width)))?;
    out.fill(Color::WHITE);
    out.draw_pixmap(
        0,
        0,
        pic.as_ref(),
        &PixmapPaint::default(),
        Transform::identity(),
        None,
    );
    let top = pic.height() as f32;
    fill_rect(&mut out, 0.0, top, width as f32, 1.0, [160, 160, 160], 1.0);
    let mut x = 8.0;
    let y = top + 8.0;
    for (rgb, filled, label) in key {
        if filled {
            fill_rect(&mut out, x, y, SWATCH, SWATCH, rgb, 1.0);
        } else {
            let c = [(x, y), (x + SWATCH, y), (x + SWATCH, y + SWATCH), (x, y + SWATCH)];
            outline(
                &mut out,
                c.map(|(x, y)| DVec2::new(f64::from(x), f64::from(y))),
                rgb,
                2.0,
            );
        }
        x = text(&mut out, x + SWATCH + 4.0, y, label, INK) + 12.0;
    }
    for (i, line) in lines.iter().enumerate() {
        let row = y + (i + 1) as f32 * ROW;
        for (k, rgb) in swatches.get(i).into_iter().flatten().enumerate() {
            fill_rect(
                &mut out,
                8.0 + k as f32 * (SWATCH + 2.0),
                row,
                SWATCH,
                SWATCH,
                *rgb,
                1.0,
            );
        }
        text(&mut out, 8.0 + indent, row, line, INK);
    }
    Ok(out)
}

/// Height of the legend band for `queries` queries (0 for none).
pub(super) fn legend_height(queries: usize) -> u32 {
    if queries == 0 {
        0
    } else {
        (8.0 + (queries + 1) as f32 * ROW + 2.0) as u32
    }
}
