"""Agreement with pygame.mask on aligned bitmaps (semantics.md 4, closing paragraph).

Random RGBA blobs (numpy arrays) placed at whole-pixel offsets, unrotated and unscaled:
pixelhit's overlap count and rectangle must be pygame's `overlap_area` and the union of
`overlap_mask(...).get_bounding_rects()`, with `pygame.mask.from_surface(surface, T)`
setting a bit where alpha > T, which is pixelhit's tolerance `254 - T` (tolerance 255, the
default, and T = 0 both mean "every pixel that shows at all").
"""

import numpy as np
import pygame
import pytest

import pixelhit

CASES = 300
ALPHAS = np.array([0, 0, 0, 1, 60, 127, 128, 200, 254, 255, 255, 255], dtype=np.uint8)


def blob(rng, w, h):
    """An H x W x 4 uint8 array: a random ellipse (sometimes two) with holes, alpha drawn from
    a few levels (0, 1, 127, 128, 254, 255...), random colours."""
    yy, xx = np.mgrid[0:h, 0:w]
    inside = np.zeros((h, w), bool)
    for _ in range(rng.integers(1, 3)):
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        rx, ry = rng.uniform(0.5, w), rng.uniform(0.5, h)
        inside |= ((xx + 0.5 - cx) / rx) ** 2 + ((yy + 0.5 - cy) / ry) ** 2 <= 1
    alpha = rng.choice(ALPHAS, size=(h, w))
    alpha[~inside] = 0
    rgba = rng.integers(0, 256, size=(h, w, 4), dtype=np.uint8)
    rgba[..., 3] = alpha
    return rgba


def surface_of(rgba):
    h, w = rgba.shape[:2]
    return pygame.image.frombytes(rgba.tobytes(), (w, h), "RGBA")


def bitmap_of(rgba, surface, how):
    """The same pixels into pixelhit by each of the three routes."""
    if how == 0:
        return pixelhit.Bitmap.from_array(rgba)
    if how == 1:
        return pixelhit.Bitmap.from_surface(surface)
    h, w = rgba.shape[:2]
    return pixelhit.Bitmap.from_rgba(w, h, rgba.tobytes())


def pygame_answer(sa, sb, xa, ya, xb, yb, threshold):
    ma = pygame.mask.from_surface(sa, threshold)
    mb = pygame.mask.from_surface(sb, threshold)
    offset = (xb - xa, yb - ya)
    count = ma.overlap_area(mb, offset)
    overlap = ma.overlap_mask(mb, offset)
    w, h = overlap.get_size()
    if w == 1:
        # pygame 2.6.1's get_bounding_rects crashes (a segmentation fault) on masks one
        # pixel wide with several components and 4 rows or more: the same pixels in a mask
        # with an empty second column give the same rectangles.
        wide = pygame.mask.Mask((2, h))
        wide.draw(overlap, (0, 0))
        overlap = wide
    rects = overlap.get_bounding_rects()
    if not rects:
        return count, None
    r = rects[0].unionall(rects[1:])
    return count, (r.x + xa, r.y + ya, r.w, r.h)


def test_pygame_agrees_on_random_aligned_pairs():
    rng = np.random.default_rng(2024)
    hits = 0
    for case in range(CASES):
        wa, ha, wb, hb = (int(v) for v in rng.integers(1, 41, size=4))
        a, b = blob(rng, wa, ha), blob(rng, wb, hb)
        sa, sb = surface_of(a), surface_of(b)
        xa, ya = (int(v) for v in rng.integers(-50, 50, size=2))
        # b placed so that the boxes overlap most of the time, and sometimes only touch.
        xb = xa + int(rng.integers(-wb, wa + 1))
        yb = ya + int(rng.integers(-hb, ha + 1))
        tolerance = 255 if case % 3 else int(rng.integers(0, 255))
        threshold = 0 if tolerance == 255 else 254 - tolerance

        stage = pixelhit.Stage()
        root = stage.root
        na = stage.add_bitmap(root, bitmap_of(a, sa, case % 3))
        nb = stage.add_bitmap(root, bitmap_of(b, sb, (case + 1) % 3))
        na.set_position(xa, ya)
        nb.set_position(xb, yb)
        got = stage.collision(na, nb, root, tolerance=tolerance)
        want = pygame_answer(sa, sb, xa, ya, xb, yb, threshold)
        assert (got.overlap_pixels, got.rect) == want, f"case {case}: sizes {wa}x{ha}, {wb}x{hb}"
        assert stage.collision_rect(na, nb, root, True, tolerance) == want[1]
        hits += want[0] > 0
    # The layout is meant to give both answers often.
    assert CASES // 4 < hits < CASES * 3 // 4, hits


def test_collisions_of_a_crowd_agree_with_pygame_pair_by_pair():
    rng = np.random.default_rng(7)
    for round_ in range(4):
        stage = pixelhit.Stage()
        world = stage.add_container(stage.root)
        world.set_position(13, -7)  # answers are in the world's space: the camera does not matter
        sprites = []
        for _ in range(40):
            w, h = (int(v) for v in rng.integers(4, 33, size=2))
            rgba = blob(rng, w, h)
            x, y = (int(v) for v in rng.integers(0, 160, size=2))
            node = stage.add_bitmap(world, pixelhit.Bitmap.from_array(rgba))
            node.set_position(x, y)
            sprites.append((node, surface_of(rgba), x, y))
        contacts = stage.contacts_among([s[0] for s in sprites], world)
        got = {(c.a, c.b): (c.overlap_pixels, c.rect) for c in contacts}
        want = {}
        for i, (na, sa, xa, ya) in enumerate(sprites):
            for nb, sb, xb, yb in sprites[i + 1 :]:
                count, rect = pygame_answer(sa, sb, xa, ya, xb, yb, 0)
                if count:
                    want[(na, nb)] = (count, rect)
        assert got == want, f"round {round_}"
        assert len(want) > 5


@pytest.mark.parametrize("threshold", [0, 127, 254])
def test_flat_alpha_edges(threshold):
    """Every alpha level against pygame's threshold, one texel each."""
    levels = np.arange(256, dtype=np.uint8)
    a = np.zeros((16, 16, 4), np.uint8)
    a[..., 3] = levels.reshape(16, 16)
    b = np.full((16, 16, 4), 255, np.uint8)
    stage = pixelhit.Stage()
    na = stage.add_bitmap(stage.root, pixelhit.Bitmap.from_array(a))
    nb = stage.add_bitmap(stage.root, pixelhit.Bitmap.from_array(b))
    got = stage.collision(na, nb, stage.root, tolerance=254 - threshold)
    want = pygame_answer(surface_of(a), surface_of(b), 0, 0, 0, 0, threshold)
    assert (got.overlap_pixels, got.rect) == want
    assert got.overlap_pixels == 255 - threshold
