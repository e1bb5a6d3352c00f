"""Small builders shared by the tests."""

import pixelhit


def rect_node(stage, parent, x, y, w, h):
    """A container under `parent` at (x, y) holding a filled `w` x `h` rectangle at its
    origin."""
    n = stage.add_container(parent)
    stage.add_graphic(n, pixelhit.Path.rect(0, 0, w, h))
    n.x, n.y = x, y
    return n


def shape(stage, parent, x, y, w, h):
    """A Flash Shape: a non-interactive container with a rectangle."""
    n = rect_node(stage, parent, x, y, w, h)
    n.interactive = False
    return n


def flat_bitmap(w, h, alpha):
    """A `w` x `h` bitmap whose every texel has alpha `alpha`."""
    return pixelhit.Bitmap.from_rgba(w, h, bytes([200, 100, 50, alpha]) * (w * h))


def bitmap_node(stage, parent, bitmap, x, y):
    n = stage.add_bitmap(parent, bitmap)
    n.set_position(x, y)
    return n


def ltrb(r):
    """(x, y, w, h) -> (left, top, right, bottom)."""
    x, y, w, h = r
    return (x, y, x + w, y + h)


def assert_close(got, want, tol, what=""):
    """`got` (x, y, w, h) against `want` (left, top, right, bottom), each within `tol`."""
    assert got is not None, what
    g = ltrb(got)
    assert all(abs(a - b) <= tol for a, b in zip(g, want)), f"{what}: got {g}, want {want} (+-{tol})"
