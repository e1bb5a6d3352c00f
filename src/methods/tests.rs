//! The scans and summed areas against plain loops.

use super::Method;
use super::method::METHOD_NAMES;
use super::scans::*;
use super::summed_area::*;
use crate::geom::rect::PixelRect;
use crate::query::pipeline::Planes;

fn planes(w: i64, h: i64, a: &[u8], b: &[u8]) -> Planes {
    Planes {
        window: PixelRect {
            x0: -3,
            y0: 7,
            x1: -3 + w,
            y1: 7 + h,
        },
        a: a.to_vec(),
        b: b.to_vec(),
    }
}

#[test]
fn incremental_scan_visits_every_pixel_once() {
    for (w, h) in [(1, 1), (3, 7), (4, 4), (10, 3), (17, 23)] {
        let n = (w * h) as usize;
        let p = planes(w, h, &vec![0; n], &vec![0; n]);
        assert_eq!(incremental_scan(&p, 1), (false, n as u64), "{w}x{h}");
        // A lone hit anywhere is found.
        for i in 0..n {
            let mut a = vec![0; n];
            a[i] = 255;
            let p = planes(w, h, &a, &a);
            assert!(incremental_scan(&p, 1).0);
        }
    }
}

#[test]
fn incremental_scan_finds_a_far_overlap_early() {
    let (w, h) = (30usize, 30usize);
    let mut a = vec![0u8; w * h];
    for y in 19..25 {
        for x in 19..25 {
            a[y * w + x] = 255;
        }
    }
    let p = planes(w as i64, h as i64, &a, &a);
    // Steps of 10: the first pass probes (20, 20) as its 9th pixel.
    assert_eq!(incremental_scan(&p, 1), (true, 9));
    assert_eq!(linear_scan(&p, 1), (true, 19 * 30 + 20));
}

#[test]
fn samples_cover_both_ends_when_n_is_larger_than_the_window() {
    assert_eq!(sample_axis(1, 8).collect::<Vec<_>>(), [0]);
    assert_eq!(sample_axis(2, 8).collect::<Vec<_>>(), [0, 1]);
    assert_eq!(sample_axis(5, 8).collect::<Vec<_>>(), [0, 4]);
    assert_eq!(sample_axis(9, 4).collect::<Vec<_>>(), [0, 4, 8]);
    assert_eq!(sample_axis(10, 4).collect::<Vec<_>>(), [0, 4, 8]);
    assert_eq!(sample_axis(11, 4).collect::<Vec<_>>(), [1, 5, 9]);
    assert_eq!(sample_axis(6, 0).count(), 6);
    assert_eq!(sample_axis(0, 3).count(), 0);
}

#[test]
fn summed_areas_agree_with_the_linear_scan() {
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for _ in 0..2000 {
        let (w, h) = (1 + next() % 40, 1 + next() % 40);
        let n = (w * h) as usize;
        let (da, db) = (next() % 100, next() % 100);
        let blob = |d: u64, next: &mut dyn FnMut() -> u64| -> Vec<u8> {
            // Rectangles of solid pixels, so that full areas occur.
            let mut v = vec![0u8; n];
            for _ in 0..next() % 4 {
                let (x0, y0) = (next() % w, next() % h);
                let (x1, y1) = (x0 + 1 + next() % (w - x0), y0 + 1 + next() % (h - y0));
                for y in y0..y1 {
                    for x in x0..x1 {
                        v[(y * w + x) as usize] = 255;
                    }
                }
            }
            for p in v.iter_mut() {
                if next() % 100 < d {
                    *p = (next() % 256) as u8;
                }
            }
            v
        };
        let a = blob(da, &mut next);
        let b = blob(db, &mut next);
        let p = planes(w as i64, h as i64, &a, &b);
        let t = (1 + next() % 255) as u8;
        let want = linear_overlap(&p, t);
        let sat = SummedAreas::new(&p, t);
        assert_eq!(sat.overlap(), want);
        assert_eq!(sat.any().0, want.1 > 0);
        assert_eq!(linear_scan(&p, t).0, want.1 > 0);
        assert_eq!(incremental_scan(&p, t).0, want.1 > 0);
    }
}

#[test]
fn method_names_round_trip() {
    for name in METHOD_NAMES.split(", ") {
        let name = name.replace('N', "7");
        let m: Method = name.parse().unwrap();
        assert_eq!(m.to_string(), name);
    }
    for bad in [
        "",
        "Exact",
        "sampled",
        "sampled:",
        "sampled:0",
        "sampled:-1",
        "sampled:+3",
        "sampled:1e3",
        "radial:2",
    ] {
        assert!(bad.parse::<Method>().is_err(), "{bad}");
    }
    for (name, rect) in [
        ("exact", true),
        ("bitmask", true),
        ("linear_scan", true),
        ("incremental_scan", false),
        ("summed_area", true),
        ("sampled:3", false),
        ("radial", false),
        ("flash", true),
        ("flash_compat", true),
    ] {
        assert_eq!(name.parse::<Method>().unwrap().gives_rect(), rect, "{name}");
    }
}
