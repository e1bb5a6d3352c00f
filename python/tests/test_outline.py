"""Stage.outline: a pixel centre is inside the outline (even-odd) exactly when the pixel
is solid, for random bitmaps placed on whole pixels, simplified or not."""

import random

import numpy as np
import pytest

from pixelhit import Bitmap, PixelhitError, Stage


def inside_even_odd(loops, x, y):
    odd = False
    for loop in loops:
        for i, (ax, ay) in enumerate(loop):
            bx, by = loop[(i + 1) % len(loop)]
            if (ay > y) != (by > y) and x < ax + (y - ay) * (bx - ax) / (by - ay):
                odd = not odd
    return odd


@pytest.mark.parametrize("seed", range(40))
def test_outline_matches_the_pixels(seed):
    rng = random.Random(seed)
    w, h = rng.randint(1, 12), rng.randint(1, 12)
    alpha = np.array([[rng.choice([0, 0, 255, 128, 1]) for _ in range(w)] for _ in range(h)], dtype=np.uint8)
    rgba = np.zeros((h, w, 4), dtype=np.uint8)
    rgba[..., 3] = alpha
    stage = Stage()
    node = stage.add_bitmap(stage.root, Bitmap.from_array(rgba))
    node.x, node.y = rng.randint(-5, 5), rng.randint(-5, 5)
    tolerance = rng.choice([0, 127, 254, 255])
    simplify = rng.choice([0.0, 0.3, 0.49])
    loops = stage.outline(node, stage.root, tolerance, simplify=simplify)
    solid_from = max(1, 255 - tolerance)
    for j in range(-1, h + 1):
        for i in range(-1, w + 1):
            a = alpha[j, i] if 0 <= i < w and 0 <= j < h else 0
            centre = (node.x + i + 0.5, node.y + j + 0.5)
            assert inside_even_odd(loops, *centre) == (a >= solid_from), (seed, i, j)


def test_a_ring_keeps_its_hole_and_bad_distances_raise():
    rgba = np.zeros((5, 5, 4), dtype=np.uint8)
    rgba[..., 3] = 255
    rgba[2, 2, 3] = 0
    stage = Stage()
    node = stage.add_bitmap(stage.root, Bitmap.from_array(rgba))
    loops = stage.outline(node, stage.root)
    assert sorted(len(l) for l in loops) == [4, 4]
    assert all(isinstance(p, tuple) and len(p) == 2 for l in loops for p in l)
    with pytest.raises(PixelhitError, match="simplify"):
        stage.outline(node, stage.root, simplify=-1.0)
