"""Stage.erase and Stage.paint: a bitmap node's pixels edited with a disc, a path or another
bitmap; the edited pixels against a per-texel loop here, and the queries against a fresh
stage built from them."""

import random

import numpy as np
import pytest

from pixelhit import Bitmap, Path, PixelhitError, Stage


def nearest(num, den):
    """The nearest whole number to num / den, the larger on a tie."""
    return (2 * num + den) // (2 * den)


def pixels(node):
    b = node.bitmap
    return [b.pixel(x, y) for y in range(b.height) for x in range(b.width)]


@pytest.mark.parametrize("seed", range(30))
def test_discs_match_a_per_texel_loop_and_a_fresh_stage(seed):
    rng = random.Random(seed)
    w, h = rng.randint(4, 24), rng.randint(4, 24)
    rgba = np.zeros((h, w, 4), dtype=np.uint8)
    rgba[..., 3] = np.array([[rng.choice([0, 255, 200, 9]) for _ in range(w)] for _ in range(h)])
    rgba[..., 0] = 77
    stage = Stage()
    node = stage.add_bitmap(stage.root, Bitmap.from_array(rgba))
    probe = stage.add_bitmap(stage.root, Bitmap.from_array(np.full((5, 5, 4), 255, dtype=np.uint8)))
    want = [list(p) for p in pixels(node)]
    for _ in range(12):
        cx, cy, r = rng.uniform(-2, w + 2), rng.uniform(-2, h + 2), rng.uniform(0, 6)
        alpha = rng.choice([1.0, 0.5, rng.random()])
        e = round(alpha * 255)
        paint = rng.random() < 0.5
        color = tuple(rng.randint(0, 255) for _ in range(4))
        if paint:
            stage.paint(node, color, disc=(cx, cy, r), alpha=alpha)
        else:
            stage.erase(node, disc=(cx, cy, r), alpha=alpha)
        for k, p in enumerate(want):
            i, j = k % w, k // w
            if (i + 0.5 - cx) ** 2 + (j + 0.5 - cy) ** 2 > r * r:
                continue
            if paint:
                s = nearest(color[3] * e, 255)
                if s == 0:
                    continue
                a = p[3]
                out = s * 255 + a * (255 - s)
                for c in range(3):
                    p[c] = nearest(color[c] * s * 255 + p[c] * a * (255 - s), out)
                p[3] = nearest(out, 255)
            else:
                p[3] = nearest(p[3] * (255 - e), 255)
        assert [list(p) for p in pixels(node)] == want
        probe.x, probe.y = rng.randint(-3, w), rng.randint(-3, h)
        fresh = Stage()
        fnode = fresh.add_bitmap(fresh.root, Bitmap.from_array(np.array(want, dtype=np.uint8).reshape(h, w, 4)))
        fprobe = fresh.add_bitmap(fresh.root, Bitmap.from_array(np.full((5, 5, 4), 255, dtype=np.uint8)))
        fprobe.x, fprobe.y = probe.x, probe.y
        got = stage.collision(node, probe, stage.root)
        fresh_answer = fresh.collision(fnode, fprobe, fresh.root)
        assert (got.rect, got.overlap_pixels) == (fresh_answer.rect, fresh_answer.overlap_pixels)


def test_paths_stamps_and_sharing():
    ground = Bitmap.from_array(np.full((8, 16, 4), 255, dtype=np.uint8))
    stage = Stage()
    a = stage.add_bitmap(stage.root, ground)
    b = stage.add_bitmap(stage.root, ground)
    triangle = Path.from_svg("M0 0 L8 0 L0 8 Z")
    stage.erase(a, path=triangle, fill_rule="evenodd")
    assert a.bitmap.pixel(1, 1)[3] == 0 and a.bitmap.pixel(7, 7)[3] == 255
    # The other node showing the same bitmap, and the Bitmap object, keep their pixels.
    assert b.bitmap.pixel(1, 1)[3] == 255 and ground.pixel(1, 1)[3] == 255
    stamp = np.zeros((2, 2, 4), dtype=np.uint8)
    stamp[..., 3] = 255
    stage.paint(a, (255, 255, 255, 255), bitmap=Bitmap.from_array(stamp), at=(0, 0))
    assert a.bitmap.pixel(0, 0) == (0, 0, 0, 255)
    assert a.bitmap.pixel(2, 0)[3] == 0


def test_bad_edits_raise_and_change_nothing():
    stage = Stage()
    node = stage.add_bitmap(stage.root, Bitmap.from_array(np.full((4, 4, 4), 255, dtype=np.uint8)))
    node.name = "rock"
    before = pixels(node)
    with pytest.raises(PixelhitError, match="rock"):
        stage.erase(node, disc=(1, 1, 1), alpha=2.0)
    with pytest.raises(PixelhitError, match="one brush"):
        stage.erase(node)
    with pytest.raises(PixelhitError, match="one brush"):
        stage.erase(node, disc=(1, 1, 1), path=Path.from_svg("M0 0 L1 0 L1 1 Z"))
    with pytest.raises(PixelhitError, match="color"):
        stage.paint(node, (1, 2, 3), disc=(1, 1, 1))
    with pytest.raises(PixelhitError, match="color"):
        stage.paint(node, (1, 2, 3, 256), disc=(1, 1, 1))
    with pytest.raises(PixelhitError, match="not a bitmap"):
        stage.erase(stage.root, disc=(1, 1, 1))
    assert pixels(node) == before
