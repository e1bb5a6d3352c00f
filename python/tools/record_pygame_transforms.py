"""Record what pygame's rotate / rotozoom / flip return, for pixelhit's Rust tests.

Run once under pygame 2.6.1 and once under pygame-ce 2.5.8 (the versions CI pins):

    python python/tools/record_pygame_transforms.py tests/data/pygame

It writes `<flavour>.bin` there: a fixed list of seeded random cases (source alpha, the
transform, the alpha of the surface pygame returns, read as `pygame.mask.from_surface`
reads it) and, per case pair, the overlap pygame's masks report for two transformed
sprites. tests/integration/pygame_renderer.rs reads the files; the format is little-endian:

    b"PXPG" u32 version(1) u32 cases
    per case: u8 op (0 rotate, 1 rotozoom) u8 flip_x u8 flip_y u8 keyed
              f32 angle f32 scale u16 w u16 h, w*h source alpha bytes (row-major),
              u16 ow u16 oh, ow*oh output alpha bytes
    u32 pairs; per pair: u32 case_a u32 case_b i32 dx i32 dy u32 overlap_area
              i32 first_x i32 first_y   (first = mask.overlap's point, -1 -1 when none)

Cases are small (sizes 1 to 20 px, scales to 1.6) to keep the files about 100 KB; the Python tests
cover sizes up to 300 px against the live pygame.
"""

import os
import random
import struct
import sys

import numpy
import pygame

# The committed files use the defaults; larger runs (sizes to 300, scales to 5) check more
# without being kept: PXPG_CASES=300 PXPG_MAX_SIDE=300 PXPG_MAX_SCALE=5 PXPG_SEED=7 python ...
CASES = int(os.environ.get("PXPG_CASES", "200"))
PAIRS = int(os.environ.get("PXPG_PAIRS", "200"))
MAX_SIDE = int(os.environ.get("PXPG_MAX_SIDE", "20"))
MAX_SCALE = float(os.environ.get("PXPG_MAX_SCALE", "1.6"))
SEED = int(os.environ.get("PXPG_SEED", "20261127"))


def flavour():
    return "pygame-ce" if getattr(pygame, "IS_CE", False) else "pygame"


def random_angle(rng):
    kind = rng.randrange(5)
    if kind == 0:
        return float(rng.choice([-450, -360, -270, -180, -90, 0, 90, 180, 270, 360, 450, 720]))
    if kind == 1:
        return rng.choice([-90, 0, 90, 180, 270, 360]) + rng.choice([-1, 1]) * rng.choice(
            [1e-4, 1e-3, 0.0011, 0.01, 0.5]
        )
    return rng.uniform(-800.0, 800.0)


def make_source(rng, w, h, keyed):
    """A soft-edged blob with holes (per-pixel alpha) or a keyed 24-bit image."""
    if keyed:
        s = pygame.Surface((w, h), 0, 24)
        key = (255, 0, 255)
        s.fill(key)
        s.set_colorkey(key)
        for _ in range(rng.randrange(1, 5)):
            r = pygame.Rect(rng.randrange(w), rng.randrange(h), rng.randrange(1, w + 1), rng.randrange(1, h + 1))
            s.fill((rng.randrange(200), rng.randrange(256), rng.randrange(256)), r)
        alpha = bytes(0 if s.get_at((x, y))[:3] == key else 255 for y in range(h) for x in range(w))
        return s, alpha
    s = pygame.Surface((w, h), pygame.SRCALPHA, 32)
    cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    rad = rng.uniform(0.3, 0.8) * max(w, h)
    vals = []
    for y in range(h):
        for x in range(w):
            d = ((x + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2) ** 0.5
            a = max(0, min(255, int(255 * (1.2 - d / rad))))
            if rng.random() < 0.1:
                a = rng.choice([0, 255, rng.randrange(256)])
            vals.append(a)
            s.set_at((x, y), (rng.randrange(256), rng.randrange(256), rng.randrange(256), a))
    return s, bytes(vals)


def surface_alpha(s):
    """The alpha as pygame.mask.from_surface reads it: a colour key decides where there is
    one, else the per-pixel alpha, else 255."""
    w, h = s.get_size()
    if w == 0 or h == 0:
        return b""
    if s.get_colorkey() is not None:
        plane = pygame.surfarray.array_colorkey(s)
    elif s.get_flags() & pygame.SRCALPHA:
        plane = pygame.surfarray.array_alpha(s)
    else:
        return bytes([255]) * (w * h)
    # surfarray is indexed [x][y]; the file is row-major.
    return numpy.ascontiguousarray(plane.T, dtype=numpy.uint8).tobytes()


def apply(src, op, angle, scale, fx, fy):
    s = pygame.transform.flip(src, fx, fy) if (fx or fy) else src
    if op == 0:
        return pygame.transform.rotate(s, angle)
    return pygame.transform.rotozoom(s, angle, scale)


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else "tests/data/pygame"
    rng = random.Random(SEED)
    cases = []
    blob = bytearray()
    for _ in range(CASES):
        w, h = rng.randrange(1, MAX_SIDE + 1), rng.randrange(1, MAX_SIDE + 1)
        op = rng.randrange(2)
        keyed = rng.random() < 0.25
        fx, fy = rng.random() < 0.3, rng.random() < 0.3
        angle = struct.unpack("<f", struct.pack("<f", random_angle(rng)))[0]
        scale = struct.unpack("<f", struct.pack("<f", rng.uniform(0.1, MAX_SCALE)))[0]
        src, alpha = make_source(rng, w, h, keyed)
        dst = apply(src, op, angle, scale, fx, fy)
        ow, oh = dst.get_size()
        out = surface_alpha(dst)
        cases.append(dst)
        blob += struct.pack("<BBBBffHH", op, fx, fy, keyed, angle, scale, w, h) + alpha
        blob += struct.pack("<HH", ow, oh) + out
    pairs = bytearray()
    for _ in range(PAIRS):
        a, b = rng.randrange(CASES), rng.randrange(CASES)
        sa, sb = cases[a], cases[b]
        dx = rng.randrange(-sb.get_width(), sa.get_width() + 1)
        dy = rng.randrange(-sb.get_height(), sa.get_height() + 1)
        ma, mb = pygame.mask.from_surface(sa), pygame.mask.from_surface(sb)
        area = ma.overlap_area(mb, (dx, dy))
        first = ma.overlap(mb, (dx, dy)) or (-1, -1)
        pairs += struct.pack("<IIiiIii", a, b, dx, dy, area, first[0], first[1])
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, flavour() + ".bin")
    with open(path, "wb") as f:
        f.write(b"PXPG" + struct.pack("<II", 1, CASES) + blob + struct.pack("<I", PAIRS) + pairs)
    print(path, os.path.getsize(path), "bytes")


if __name__ == "__main__":
    main()
