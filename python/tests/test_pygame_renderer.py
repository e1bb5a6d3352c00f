"""pixelhit's pygame renderers (semantics.md 4.9) against the live pygame (python/ci.sh runs
this under pygame and under pygame-ce): every pixel of the alpha of the surface
`pygame.transform.rotate` / `rotozoom` (after `flip`) returns, and its size, over random
cases: sizes 1 to 300 px, per-pixel alpha and colour keys, angles negative, past 360, at and
near multiples of 90, scales 0.1 to 5, flips."""

import random
import struct

import numpy as np
import pygame
import pytest

import pixelhit


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def random_angle(rng):
    kind = rng.randrange(5)
    if kind == 0:
        return float(rng.choice([-450, -360, -270, -180, -90, 0, 90, 180, 270, 360, 450, 720]))
    if kind == 1:
        near = rng.choice([-90, 0, 90, 180, 270, 360])
        return near + rng.choice([-1, 1]) * rng.choice([1e-4, 1e-3, 0.0011, 0.01, 0.5])
    return rng.uniform(-800.0, 800.0)


def source(rng, w, h, keyed):
    if keyed:
        s = pygame.Surface((w, h), 0, 24)
        key = (255, 0, 255)
        s.fill(key)
        s.set_colorkey(key)
        for _ in range(rng.randrange(1, 5)):
            r = pygame.Rect(rng.randrange(w), rng.randrange(h), rng.randrange(1, w + 1), rng.randrange(1, h + 1))
            s.fill((rng.randrange(200), rng.randrange(256), rng.randrange(256)), r)
        return s
    s = pygame.Surface((w, h), pygame.SRCALPHA, 32)
    nrng = np.random.default_rng(rng.randrange(1 << 30))
    yy, xx = np.mgrid[0:h, 0:w]
    cx, cy, rad = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(0.3, 0.8) * max(w, h)
    d = np.hypot(xx + 0.5 - cx, yy + 0.5 - cy)
    alpha = np.clip(255 * (1.2 - d / rad), 0, 255).astype(np.uint8)
    holes = nrng.random((h, w)) < 0.1
    alpha[holes] = nrng.integers(0, 256, size=int(holes.sum()), dtype=np.uint8)
    pygame.surfarray.pixels3d(s)[...] = nrng.integers(0, 256, size=(w, h, 3), dtype=np.uint8)
    pygame.surfarray.pixels_alpha(s)[...] = alpha.T
    return s


def pygame_alpha(s):
    """The alpha as pygame.mask.from_surface reads it, row-major."""
    if s.get_width() == 0 or s.get_height() == 0:
        return b""
    if s.get_colorkey() is not None:
        plane = pygame.surfarray.array_colorkey(s)
    else:
        plane = pygame.surfarray.array_alpha(s)
    return np.ascontiguousarray(plane.T, dtype=np.uint8).tobytes()


@pytest.mark.parametrize("seed", range(4))
def test_every_pixel_equals_pygames_surface(seed):
    rng = random.Random(1000 + seed)
    for case in range(150):
        # Mostly small sprites, some up to 300 px a side.
        side = 300 if case % 10 == 0 else 48
        w, h = rng.randrange(1, side + 1), rng.randrange(1, side + 1)
        op = rng.choice(["rotate", "rotozoom"])
        fx, fy = rng.random() < 0.3, rng.random() < 0.3
        angle = f32(random_angle(rng))
        scale = f32(rng.uniform(0.1, 5.0 if side == 48 else 1.5))
        src = source(rng, w, h, keyed=rng.random() < 0.25)
        flipped = pygame.transform.flip(src, fx, fy)
        if op == "rotate":
            drawn = pygame.transform.rotate(flipped, angle)
        else:
            drawn = pygame.transform.rotozoom(flipped, angle, scale)
        what = f"{op} {angle!r} x{scale!r} flip {fx, fy} of {w} x {h}"
        assert pixelhit.pygame_output_size(w, h, op, angle, scale) == drawn.get_size(), what
        bitmap = pixelhit.Bitmap.from_surface(src)
        ow, oh, plane = pixelhit.pygame_alpha_plane(bitmap, op, angle, scale, fx, fy)
        assert (ow, oh) == drawn.get_size(), what
        assert plane == pygame_alpha(drawn), what


def test_flavour_and_transform_names():
    b = pixelhit.Bitmap.from_rgba(1, 1, bytes([0, 0, 0, 255]))
    with pytest.raises(pixelhit.ArgumentError, match="rotate"):
        pixelhit.pygame_alpha_plane(b, "spin", 10.0)
    with pytest.raises(pixelhit.ArgumentError, match="pygame-ce"):
        pixelhit.pygame_alpha_plane(b, "rotate", 10.0, flavour="sdl")
    with pytest.raises(pixelhit.PixelhitError, match="angle"):
        pixelhit.pygame_output_size(4, 4, "rotate", float("nan"))


@pytest.mark.parametrize("seed", range(2))
def test_nodes_with_a_pygame_transform_collide_as_pygames_masks(seed):
    """Two bitmap nodes drawn by `set_pygame_transform` (the imported pygame's flavour) at
    whole-pixel positions: the collision's overlap count is `Mask.overlap_area` of the masks
    pygame makes from the surfaces it returns, at every threshold asked."""
    rng = random.Random(2000 + seed)
    stage = pixelhit.Stage()
    root = stage.root
    first = pixelhit.Bitmap.from_rgba(1, 1, bytes([0, 0, 0, 255]))
    nodes = [stage.add_bitmap(root, first), stage.add_bitmap(root, first)]
    touching = 0
    for case in range(150):
        drawn, where = [], []
        for node in nodes:
            w, h = rng.randrange(1, 40), rng.randrange(1, 40)
            op = rng.choice(["rotate", "rotozoom"])
            fx, fy = rng.random() < 0.3, rng.random() < 0.3
            angle, scale = random_angle(rng), rng.uniform(0.1, 2.5)
            src = source(rng, w, h, keyed=op == "rotate" and rng.random() < 0.25)
            flipped = pygame.transform.flip(src, fx, fy)
            if op == "rotate":
                out = pygame.transform.rotate(flipped, angle)
            else:
                out = pygame.transform.rotozoom(flipped, angle, scale)
            node.set_bitmap(pixelhit.Bitmap.from_surface(src))
            node.set_pygame_transform(op, angle, scale, fx, fy)
            x, y = rng.randrange(-5, 20), rng.randrange(-5, 20)
            node.set_position(x, y)
            drawn.append(out)
            where.append((x, y))
        threshold = rng.choice([0, 127, 254])
        masks = [pygame.mask.from_surface(s, threshold) for s in drawn]
        offset = (where[1][0] - where[0][0], where[1][1] - where[0][1])
        want = masks[0].overlap_area(masks[1], offset)
        got = stage.collision(nodes[0], nodes[1], root, tolerance=254 - threshold)
        assert (got.overlap_pixels or 0) == want, (case, threshold)
        touching += want > 0
    assert touching > 50
    nodes[0].clear_pygame_transform()
    nodes[0].set_position(0.5, 0)
    nodes[1].set_position(0.5, 0)
    with pytest.raises(pixelhit.NodeError, match="whole pixels"):
        stage.collision(nodes[0], nodes[1], root)
    with pytest.raises(pixelhit.NodeError, match="not a bitmap node"):
        root.set_pygame_transform("rotate", 10.0)
