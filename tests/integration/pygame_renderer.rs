//! pixelhit's pygame renderers (semantics.md 4.9) against what pygame 2.6.1 and pygame-ce
//! 2.5.8 returned, recorded by python/tools/record_pygame_transforms.py into
//! tests/data/pygame/<flavour>.bin (its docstring gives the format). Every pixel of every
//! case, a margin of 0s around the surface, the output size, pixels computed alone and in
//! rows, and pygame's mask overlaps of two transformed sprites (also as bitmap nodes of a
//! stage drawn by the renderer).

use std::path::Path;

use pixelhit::{Bitmap, BitmapRenderer, CollisionOptions, PygameFlavour, PygameTransform, Stage};

/// One recorded case: the source alpha, the transform, and pygame's output alpha.
struct Case {
    transform: PygameTransform,
    source: Bitmap,
    out_w: u32,
    out_h: u32,
    out: Vec<u8>,
}

/// One recorded pair: pygame's `Mask.overlap_area` and `Mask.overlap` of two outputs.
struct Pair {
    a: usize,
    b: usize,
    dx: i64,
    dy: i64,
    area: u32,
    first: Option<(i64, i64)>,
}

struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn take(&mut self, n: usize) -> &[u8] {
        let (head, tail) = self.0.split_at(n);
        self.0 = tail;
        head
    }
    fn u8(&mut self) -> u8 {
        self.take(1)[0]
    }
    fn u16(&mut self) -> u32 {
        u32::from(u16::from_le_bytes(self.take(2).try_into().unwrap()))
    }
    fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.take(4).try_into().unwrap())
    }
    fn i32(&mut self) -> i64 {
        i64::from(i32::from_le_bytes(self.take(4).try_into().unwrap()))
    }
    fn f32(&mut self) -> f32 {
        f32::from_le_bytes(self.take(4).try_into().unwrap())
    }
}

fn load(flavour: PygameFlavour) -> (Vec<Case>, Vec<Pair>) {
    let name = match flavour {
        PygameFlavour::Pygame => "pygame.bin",
        PygameFlavour::PygameCe => "pygame-ce.bin",
    };
    // PIXELHIT_PYGAME_RECORDINGS points at a larger, uncommitted recording (the recorder's
    // docstring says how to make one).
    let dir = std::env::var_os("PIXELHIT_PYGAME_RECORDINGS").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/pygame"),
        std::path::PathBuf::from,
    );
    let path = dir.join(name);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut r = Reader(&bytes);
    assert_eq!(r.take(4), b"PXPG");
    assert_eq!(r.u32(), 1, "format version");
    let n = r.u32() as usize;
    let mut cases = Vec::with_capacity(n);
    for _ in 0..n {
        let (op, fx, fy, _keyed) = (r.u8(), r.u8() != 0, r.u8() != 0, r.u8());
        let (angle, scale) = (r.f32(), r.f32());
        let (w, h) = (r.u16(), r.u16());
        let alpha = r.take((w * h) as usize);
        let rgba = alpha.iter().flat_map(|&a| [0, 0, 0, a]).collect();
        let source = Bitmap::from_rgba8(w, h, rgba).unwrap();
        let (out_w, out_h) = (r.u16(), r.u16());
        let out = r.take((out_w * out_h) as usize).to_vec();
        let transform = if op == 0 {
            PygameTransform::rotate(f64::from(angle))
        } else {
            PygameTransform::rotozoom(f64::from(angle), f64::from(scale))
        };
        cases.push(Case {
            transform: transform.flip(fx, fy).flavour(flavour),
            source,
            out_w,
            out_h,
            out,
        });
    }
    let pairs = (0..r.u32())
        .map(|_| {
            let (a, b) = (r.u32() as usize, r.u32() as usize);
            let (dx, dy, area) = (r.i32(), r.i32(), r.u32());
            let (fx, fy) = (r.i32(), r.i32());
            Pair {
                a,
                b,
                dx,
                dy,
                area,
                first: (fx >= 0).then_some((fx, fy)),
            }
        })
        .collect();
    assert!(r.0.is_empty(), "{}: trailing bytes", path.display());
    (cases, pairs)
}

/// pixelhit's picture of a case: rows with a 2 px margin of 0s on every side.
fn picture(case: &Case) -> Vec<Vec<u8>> {
    let (w, h) = (i64::from(case.out_w), i64::from(case.out_h));
    (-2..h + 2)
        .map(|y| {
            let mut row = vec![0xAA; (w + 4) as usize];
            case.transform.alpha_row(&case.source, y, -2, &mut row).unwrap();
            row
        })
        .collect()
}

fn check_flavour(flavour: PygameFlavour) {
    let (cases, pairs) = load(flavour);
    assert!(cases.len() >= 100 && pairs.len() >= 100);
    let mut differing = Vec::new();
    for (k, case) in cases.iter().enumerate() {
        let (sw, sh) = (case.source.width(), case.source.height());
        assert_eq!(
            case.transform.output_size(sw, sh),
            (case.out_w, case.out_h),
            "case {k} {:?} of {sw} x {sh}: output size",
            case.transform
        );
        let pic = picture(case);
        let (w, h) = (case.out_w as usize, case.out_h as usize);
        let mut wrong = 0;
        for (py, row) in pic.iter().enumerate() {
            for (px, &v) in row.iter().enumerate() {
                let inside = (2..h + 2).contains(&py) && (2..w + 2).contains(&px);
                let want = if inside {
                    case.out[(py - 2) * w + px - 2]
                } else {
                    0
                };
                wrong += usize::from(v != want);
                // Any pixel computed alone is the same as in its row.
                if (px * 7 + py * 3) % 11 == 0 {
                    let mut one = [0x55];
                    let (x, y) = (px as i64 - 2, py as i64 - 2);
                    case.transform.alpha_row(&case.source, y, x, &mut one).unwrap();
                    assert_eq!(one[0], v, "case {k}: pixel ({x}, {y}) alone");
                }
            }
        }
        if wrong > 0 {
            differing.push((k, wrong, case.transform, sw, sh));
        }
    }
    assert!(
        differing.is_empty(),
        "{flavour:?}: cases differing from pygame: {differing:?}"
    );
    // Two sprites blitted at an offset: pygame's masks (alpha > 127) overlap where pixelhit's
    // pictures do.
    for (k, p) in pairs.iter().enumerate() {
        let (a, b) = (&cases[p.a], &cases[p.b]);
        let solid = |c: &Case, x: i64, y: i64| {
            let mut one = [0];
            c.transform.alpha_row(&c.source, y, x, &mut one).unwrap();
            one[0] > 127
        };
        let mut area = 0;
        let (mut ra, mut rb) = (vec![0; a.out_w as usize], vec![0; a.out_w as usize]);
        for y in 0..i64::from(a.out_h) {
            a.transform.alpha_row(&a.source, y, 0, &mut ra).unwrap();
            b.transform
                .alpha_row(&b.source, y - p.dy, -p.dx, &mut rb)
                .unwrap();
            area += ra
                .iter()
                .zip(&rb)
                .filter(|(va, vb)| **va > 127 && **vb > 127)
                .count() as u32;
        }
        assert_eq!(area, p.area, "pair {k}: overlap area");
        // The same two sprites as bitmap nodes drawn by the renderer, blitted at (0, 0)
        // and (dx, dy): the collision query counts pygame's overlap (alpha > 127 is
        // tolerance 127).
        let mut stage = Stage::new();
        let root = stage.root();
        let mut sprite = |c: &Case, x: i64, y: i64| {
            let n = stage.add_bitmap(root, c.source.clone(), false).unwrap();
            stage
                .set_bitmap_renderer(n, Some(BitmapRenderer::Pygame(c.transform)))
                .unwrap();
            stage.set_position(n, x as f64, y as f64).unwrap();
            n
        };
        let (na, nb) = (sprite(a, 0, 0), sprite(b, p.dx, p.dy));
        let opts = CollisionOptions::default().tolerance(127);
        let got = stage.collision(na, nb, root, &opts).unwrap();
        assert_eq!(
            got.overlap_pixels,
            Some(u64::from(p.area)),
            "pair {k}: stage's overlap count"
        );
        assert_eq!(p.first.is_some(), area > 0, "pair {k}: touching");
        if let Some((x, y)) = p.first {
            assert!(
                solid(a, x, y) && solid(b, x - p.dx, y - p.dy),
                "pair {k}: pygame's point"
            );
        }
    }
}

#[test]
fn pygame_2_6_1_recorded_pictures_and_overlaps() {
    check_flavour(PygameFlavour::Pygame);
}

#[test]
fn pygame_ce_2_5_8_recorded_pictures_and_overlaps() {
    check_flavour(PygameFlavour::PygameCe);
}

#[test]
fn refuses_what_pygame_cannot_compute() {
    let b = Bitmap::from_rgba8(4, 4, vec![255; 64]).unwrap();
    let mut row = [0; 4];
    for t in [
        PygameTransform::rotate(f64::NAN),
        PygameTransform::rotate(2.0e6),
        PygameTransform::rotozoom(10.0, f64::INFINITY),
        PygameTransform::rotozoom(10.0, 100.0),
    ] {
        let err = t.alpha_row(&b, 0, 0, &mut row).unwrap_err().to_string();
        assert!(err.contains("pygame transform"), "{err}");
        assert_eq!(t.output_size(4, 4), (0, 0));
    }
}
