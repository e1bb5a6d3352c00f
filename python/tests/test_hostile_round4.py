"""Hostile input, round four (issue 28, class 1) through Python: a bitmap or a graphic
replaced by new content never answers with the old content's pixels.

The stale answer needed the cache to age out what it kept of the old content's sources while
the old content's whole raster, used every frame, stayed: about 130 ages, each 16 MiB coming
into the cache. Here four 1024 x 1024 bitmaps fade a little every frame (a new texel table
each, 4 MiB a frame) while the target is asked about; then the target's content is replaced
(the old handle dropped first, new content of the same size made right after, so that the
allocator can hand out the old address) and every answer is compared with a fresh stage's.

These did not reproduce the stale answer on the code before the fix (the allocator did not
hand the address out again through Python's calls, and a Python program cannot lower the
cache's age threshold to age it in fewer frames); the reproducers that do fail there are
the Rust ones in src/query/content_change_tests.rs. These check the same replacements
through Python's calls.
"""

import numpy as np

import pixelhit

FRAMES = 140


def opaque(holed: bool) -> pixelhit.Bitmap:
    rgba = np.full((10, 10, 4), 255, dtype=np.uint8)
    if holed:
        rgba[3:7, 3:7, 3] = 0
    return pixelhit.Bitmap.from_rgba(10, 10, rgba.tobytes())


def fresh_copy(stage, kind, big_holed):
    """The same two targets on a new stage: its cache is empty."""
    s = pixelhit.Stage()
    if kind == "bitmap":
        big = s.add_bitmap(s.root, opaque(big_holed))
    else:
        big = s.add_container(s.root)
        s.set_graphics(big, [hole_graphic() if big_holed else square_graphic()])
    small = s.add_container(s.root)
    s.add_graphic(small, pixelhit.Graphic.fill(pixelhit.Path.rect(0, 0, 2, 2)))
    small.set_position(4, 4)
    return s, big, small


def square_graphic():
    return pixelhit.Graphic.fill(pixelhit.Path.rect(0, 0, 10, 10))


def hole_path():
    # The hole winds the other way: the non-zero rule (the replaced fill's) leaves it open.
    return pixelhit.Path("M0,0 L10,0 L10,10 L0,10 Z M3,3 L3,7 L7,7 L7,3 Z")


def hole_graphic():
    return pixelhit.Graphic.fill(hole_path())


def answer(stage, a, b):
    c = stage.collision(a, b, stage.root)
    return (c.rect, c.overlap_pixels)


def replay(kind):
    stage = pixelhit.Stage()
    if kind == "bitmap":
        big = stage.add_bitmap(stage.root, opaque(False))
    else:
        big = stage.add_container(stage.root)
        stage.set_graphics(big, [square_graphic()])
    small = stage.add_container(stage.root)
    stage.add_graphic(small, pixelhit.Graphic.fill(pixelhit.Path.rect(0, 0, 2, 2)))
    small.set_position(4, 4)
    # Fillers: large bitmaps far away, each fading and asked about with a probe every frame.
    texels = np.zeros((1024, 1024, 4), dtype=np.uint8)
    texels[::2, ::2, 3] = 255
    picture = pixelhit.Bitmap.from_rgba(1024, 1024, texels.tobytes())
    fillers = []
    for i in range(4):
        f = stage.add_bitmap(stage.root, picture)
        f.set_position(5000 * (i + 1), 0)
        probe = stage.add_container(stage.root)
        stage.add_graphic(probe, pixelhit.Graphic.fill(pixelhit.Path.rect(0, 0, 4, 4)))
        probe.set_position(5000 * (i + 1) + 100, 100)
        fillers.append((f, probe))
    overlap = ((4.0, 4.0, 2.0, 2.0), 4)
    for frame in range(FRAMES):
        for i, (f, probe) in enumerate(fillers):
            f.alpha = 1.0 - (4 * frame + i) / (8.0 * FRAMES)
            answer(stage, f, probe)
        assert answer(stage, big, small) == overlap, frame
    # What the new content is made of is ready first; then the old content goes, and the
    # new content's shared part (the same size as the old one's) is the next allocation,
    # which is what lets the allocator hand out the old one's address.
    if kind == "bitmap":
        holed = np.full((10, 10, 4), 255, dtype=np.uint8)
        holed[3:7, 3:7, 3] = 0
        holed_bytes = holed.tobytes()
        blank = pixelhit.Bitmap.from_rgba(1, 1, bytes(4))
        big.set_bitmap(blank)
        big.set_bitmap(pixelhit.Bitmap.from_rgba(10, 10, holed_bytes))
    else:
        path = hole_path()
        stage.set_graphics(big, [])
        stage.set_graphics(big, [pixelhit.Graphic.fill(path)])
    fresh, fbig, fsmall = fresh_copy(stage, kind, True)
    assert answer(fresh, fbig, fsmall) == (None, 0)
    assert answer(stage, big, small) == answer(fresh, fbig, fsmall)
    assert answer(stage, small, big) == answer(fresh, fsmall, fbig)


def test_set_bitmap_never_answers_for_the_old_pixels():
    replay("bitmap")


def test_set_graphics_never_answers_for_the_old_fill():
    replay("graphic")
