//! The work of a motion query, counted before it tests anything
//! ([`CollisionOptions::max_work`](crate::CollisionOptions::max_work), `query::work_budget`):
//! every pose a sweep's schedule may test, every distance a separation may try.

use glam::{DAffine2, DVec2};

use super::MOTION_RESOLUTION;
use super::track::{Schedule, Track, Visit, time_of};
use crate::query::work_budget::{WorkCount, area, window};
use crate::{MotionOptions, Rect};

/// Adds to `count` the work of a sweep of two tracks: each pose its schedule may test (the
/// window of the two boxes there, and the box of each target that moves, drawn at that
/// pose), then the bisection after a first hit, counted at the dearest pose. Stops adding
/// once `count` is over its budget.
pub(crate) fn add_sweep(count: &mut WorkCount, ta: &Track<'_>, tb: &Track<'_>, opts: &MotionOptions) {
    let (schedule, steps) = Schedule::new(ta, tb, opts);
    if steps + 1.0 > opts.max_tests as f64 {
        // Over the pose budget: the sweep refuses it (`check_budget`) before any test.
        return;
    }
    let precise = opts.collision.precise;
    let mut dearest = None;
    let mut k = 0;
    while k <= schedule.n && !count.is_over() {
        match schedule.visit(k, ta, tb) {
            Visit::Done => break,
            Visit::Skip(next) => k = next,
            Visit::Test => {
                let pixels = match precise {
                    true => pose_pixels(ta, tb, time_of(k, schedule.n)),
                    false => 0,
                };
                dearest = Some(dearest.unwrap_or(0).max(pixels));
                count.add(precise, pixels);
                k += 1;
            }
        }
    }
    let Some(dearest) = dearest else { return };
    if schedule.n > 0 {
        // Halving a step until no point moves more than 1/256 px across it.
        let step = ta.speed().max(tb.speed()) / schedule.n as f64;
        for _ in 0..halvings(step) {
            count.add(precise, dearest);
        }
    }
}

/// How many halvings take a span of `length` px down to 1/256 px (at most the bits of an
/// f64, where bisection stops anyway).
fn halvings(length: f64) -> u32 {
    let h = (length / MOTION_RESOLUTION).log2().ceil();
    if h.is_finite() {
        h.clamp(0.0, 1100.0) as u32
    } else {
        0
    }
}

/// The pixels of one pose at time `t`: the window of the two boxes and each moving box.
fn pose_pixels(ta: &Track<'_>, tb: &Track<'_>, t: f64) -> u128 {
    let (Ok(Some(a)), Ok(Some(b))) = (ta.bounds_at(t), tb.bounds_at(t)) else {
        return 0;
    };
    let drawn = |track: &Track<'_>, r: &Rect| match track {
        Track::Moving(_) => area(r),
        Track::Still(_) => 0,
    };
    window(&a, &b)
        .saturating_add(drawn(ta, &a))
        .saturating_add(drawn(tb, &b))
}

/// The pixels of one tested distance of a separation: `a`'s box there, and its window
/// with `b`'s.
fn separation_pixels(a: &Rect, b: &Rect, precise: bool) -> u128 {
    if precise {
        window(a, b).saturating_add(area(a))
    } else {
        0
    }
}

/// Adds to `count` what a separation of `a` (bounds `a_box`) from `b` (`b_box`) does
/// before it knows its direction: the first collision, and the contact details that give
/// the direction.
pub(crate) fn add_separation_start(count: &mut WorkCount, (a_box, b_box): (Rect, Rect), precise: bool) {
    let start = separation_pixels(&a_box, &b_box, precise);
    count.add(precise, start);
    count.add(precise, start);
}

/// Adds to `count` the distances a separation may try after its start: `step`, `2 step`,
/// ... (in 1/256 px) along `dir` up to `last`, until `a`'s box leaves `b`'s, and the
/// bisection after them, counted at the dearest distance.
pub(crate) fn add_separation_scan(
    count: &mut WorkCount,
    (a_box, b_box): (Rect, Rect),
    dir: DVec2,
    (last, step): (u64, u64),
    precise: bool,
) {
    let mut dearest = separation_pixels(&a_box, &b_box, precise);
    let mut units = 0u64;
    while units < last && !count.is_over() {
        units = units.saturating_add(step).min(last);
        let moved = DAffine2::from_translation(dir * (units as f64 * MOTION_RESOLUTION));
        let Some(a) = a_box.transform(moved) else { break };
        let pixels = separation_pixels(&a, &b_box, precise);
        dearest = dearest.max(pixels);
        count.add(precise, pixels);
        if a.intersect(&b_box).is_none() {
            break;
        }
    }
    for _ in 0..halvings(step as f64 * MOTION_RESOLUTION) {
        count.add(precise, dearest);
    }
}
