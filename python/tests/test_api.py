"""The Python API itself: errors and their messages, attributes that round-trip, bitmaps
from every source, contacts, and a stage that raises instead of panicking."""

import math
import random
import struct
import threading
import zlib

import numpy as np
import pygame
import pytest

import pixelhit
from pixelhit import Bitmap, Graphic, Path, PixelhitError, Stage
from support import rect_node

# ----- errors -----


def test_errors_are_value_errors_with_the_crates_messages():
    assert issubclass(PixelhitError, ValueError)
    with pytest.raises(PixelhitError) as e:
        Path("M0 0 L1")
    assert str(e.value) == "path data at byte 7: expected a number"
    assert e.value.kind == "PathData"


@pytest.mark.parametrize(
    "data,offset",
    [("L1 1", 0), ("M0 0 X 3", 5), ("M 1 2 L 3", 9), ("M0,0 A5 5 0 2 0 10 0", 12), ("M1e999 0", 1)],
)
def test_bad_path_data_names_the_byte_offset(data, offset):
    with pytest.raises(PixelhitError, match=f"^path data at byte {offset}: "):
        Path(data)
    s = Stage()
    n = s.add_container(s.root)
    with pytest.raises(PixelhitError, match=f"at byte {offset}"):
        s.add_graphic(n, data)
    with pytest.raises(PixelhitError, match=f"at byte {offset}"):
        Graphic.stroke(data, 2)
    assert n.graphics == []


def test_a_removed_node_raises_everywhere():
    s = Stage()
    root = s.root
    ship = s.add_container(root)
    ship.name = "ship"
    wing = rect_node(s, ship, 0, 0, 10, 10)
    other = rect_node(s, root, 0, 0, 10, 10)
    ship.remove()
    assert not ship.alive and not wing.alive and other.alive
    assert repr(wing) == f"<Node #{wing.index} (removed)>"
    for read in (
        lambda: wing.x,
        lambda: wing.matrix,
        lambda: wing.parent,
        lambda: s.bounds(wing),
        lambda: s.collision_rect(wing, other, root),
        lambda: s.contacts_among([other, wing], root),
        lambda: s.hit_test_point(wing, 1, 1),
    ):
        with pytest.raises(PixelhitError, match="was removed") as e:
            read()
        assert e.value.kind == "StaleNode"
    with pytest.raises(PixelhitError, match=r"^node #\d+ was removed$"):
        wing.x = 5
    with pytest.raises(PixelhitError, match="was removed"):
        s.add_container(ship)
    with pytest.raises(PixelhitError, match="was removed"):
        ship.remove()
    # The slot is reused; the old handle still refuses.
    fresh = s.add_container(root)
    assert fresh.index in (ship.index, wing.index)
    with pytest.raises(PixelhitError):
        ship.name
    assert len(s) == 3


def test_misuse_raises_with_the_crates_messages():
    s = Stage()
    root = s.root
    a = s.add_container(root)
    a.name = "ship"
    with pytest.raises(PixelhitError, match="the root cannot be removed or moved"):
        root.remove()
    with pytest.raises(PixelhitError, match='alpha of "ship" is 1.5, outside 0..=1'):
        a.alpha = 1.5
    with pytest.raises(PixelhitError, match='"ship".* is not finite'):
        a.x = float("nan")
    with pytest.raises(PixelhitError, match="tolerance is 300, outside 0..=255") as e:
        a.tolerance = 300
    assert e.value.kind == "OutOfRange"
    with pytest.raises(PixelhitError, match="tolerance is -1, outside 0..=255"):
        s.collision_rect(a, a, root, True, -1)
    b = s.add_container(a)
    with pytest.raises(PixelhitError, match="cannot move"):
        a.set_parent(b)
    bm = s.add_bitmap(root, Bitmap.from_rgba(1, 1, b"\0\0\0\xff"))
    with pytest.raises(PixelhitError, match="is a bitmap: it has no children or graphics"):
        s.add_graphic(bm, "M0 0 L1 0 L1 1 Z")
    with pytest.raises(PixelhitError, match="fill_rule"):
        s.add_graphic(a, "M0 0 L1 0 L1 1 Z", fill_rule="winding")
    with pytest.raises(PixelhitError, match="stroke width is -1"):
        s.add_graphic(a, "M0 0 L1 0", stroke=-1)
    with pytest.raises(PixelhitError, match="adds nothing"):
        s.add_graphic(a, "M0 0 L1 0", fill=False)
    with pytest.raises(PixelhitError, match="a matrix is 6 numbers"):
        a.matrix = (1, 0, 0, 1)
    with pytest.raises(PixelhitError, match="expected a Node, not int"):
        s.bounds(3)
    with pytest.raises(PixelhitError, match="child index 5"):
        root.child_at(5)


def test_nodes_of_another_stage_are_refused():
    one, two = Stage(), Stage()
    a = one.add_container(one.root)
    with pytest.raises(PixelhitError, match="belongs to another stage") as e:
        two.add_container(a)
    assert e.value.kind == "ForeignNode"
    assert not two.contains(a) and one.contains(a)


# ----- attributes -----


def test_attributes_round_trip():
    s = Stage()
    root = s.root
    n = s.add_container(root)
    assert (n.x, n.y, n.rotation, n.scale_x, n.scale_y) == (0, 0, 0, 1, 1)
    assert (n.alpha, n.visible, n.name, n.tolerance) == (1, True, None, None)
    n.x, n.y = 12.5, -3.25
    assert (n.x, n.y) == (12.5, -3.25)
    n.rotation = 30
    assert abs(n.rotation - 30) < 1e-12
    n.scale_x, n.scale_y = 2, 0.5
    assert abs(n.scale_x - 2) < 1e-12 and abs(n.scale_y - 0.5) < 1e-12
    assert abs(n.rotation - 30) < 1e-12
    n.alpha = 0.25
    n.visible = False
    n.name = "hero"
    n.tolerance = 0
    assert (n.alpha, n.visible, n.name, n.tolerance) == (0.25, False, "hero", 0)
    n.tolerance = None
    assert n.tolerance is None
    assert s.find("hero") == n and s.find("nobody") is None
    n.matrix = [0, -3, 2, 0, 5, 6]
    assert n.matrix == (0, -3, 2, 0, 5, 6)
    assert (n.rotation, n.scale_x, n.scale_y) == (-90, 3, 2)
    n.set_transform(100, 50, 90, 2, 2)
    assert n.matrix == (0, 2, -2, 0, 100, 50)
    n.set_position(1.5, 2.5)
    assert n.matrix == (0, 2, -2, 0, 1.5, 2.5)
    n.set_scale(1)
    assert abs(n.scale_x - 1) < 1e-12
    n.color_transform = (0.5, 1, 1, 0.5, 10, 0, 0, 0)
    assert n.color_transform == (0.5, 1, 1, 0.5, 10, 0, 0, 0)
    assert n.alpha == 0.5
    assert n.interactive and n.mouse_enabled and n.mouse_children
    n.mouse_enabled = False
    n.mouse_children = False
    assert not n.mouse_enabled and not n.mouse_children
    area = s.add_container(root)
    n.hit_area = area
    assert n.hit_area == area
    n.hit_area = None
    assert n.hit_area is None
    assert n.parent == root and root.parent is None
    assert root.children == [n, area]
    root.swap_children(n, area)
    assert root.children == [area, n] and root.child_index(n) == 1
    root.set_child_index(n, 0)
    assert root.child_at(0) == n
    extra = s.add_container(root)
    root.add_child_at(extra, 0)
    assert root.children == [extra, n, area]
    assert root.remove_children(1) == 2
    assert root.children == [extra] and not n.alive


def test_nodes_compare_and_hash_by_node():
    s = Stage()
    a = s.add_container(s.root)
    again = s.root.children[0]
    assert a == again and a is not again and hash(a) == hash(again)
    assert {a: 1}[again] == 1
    assert a != s.root and a != "a"
    assert a.stage is s
    other = Stage()
    b = other.add_container(other.root)
    assert a.index == b.index and a != b


# ----- bitmaps -----


def png_bytes(w, h, rgba):
    """A minimal RGBA PNG, written here without pixelhit."""

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    raw = b"".join(b"\0" + rgba[y * w * 4 : (y + 1) * w * 4] for y in range(h))
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


def test_bitmaps_from_every_source_agree(tmp_path):
    rng = np.random.default_rng(1)
    arr = rng.integers(0, 256, size=(7, 5, 4), dtype=np.uint8)
    raw = arr.tobytes()
    from_array = Bitmap.from_array(arr)
    assert from_array.size == (5, 7) and (from_array.width, from_array.height) == (5, 7)
    assert from_array.tobytes() == raw
    assert Bitmap.from_rgba(5, 7, raw) == from_array
    assert Bitmap.from_rgba(5, 7, bytearray(raw)) == from_array
    assert Bitmap.from_rgba(5, 7, memoryview(raw)) == from_array
    assert Bitmap.from_rgba(5, 7, arr) == from_array
    assert Bitmap.from_png_bytes(png_bytes(5, 7, raw)) == from_array
    assert Bitmap.from_png_bytes(from_array.to_png_bytes()) == from_array
    path = tmp_path / "sprite.png"
    path.write_bytes(png_bytes(5, 7, raw))
    assert Bitmap.from_png_file(path) == from_array
    assert Bitmap.from_png_file(str(path)) == from_array
    surface = pygame.image.frombytes(raw, (5, 7), "RGBA")
    assert Bitmap.from_surface(surface) == from_array
    assert from_array.pixel(4, 6) == tuple(int(v) for v in arr[6, 4])
    assert from_array.pixel(5, 0) is None and from_array.pixel(-1, 0) is None
    # A strided view (every other column) is copied in C order.
    wide = rng.integers(0, 256, size=(3, 8, 4), dtype=np.uint8)
    assert Bitmap.from_array(wide[:, ::2]).tobytes() == np.ascontiguousarray(wide[:, ::2]).tobytes()


def test_surfaces_become_the_pixels_pygames_mask_sees():
    """Per-pixel alpha as it is; no alpha channel: opaque (whatever the unused byte holds);
    a colour key: transparent where the key is. Each against pygame.mask.from_surface."""
    rng = np.random.default_rng(3)
    rgba = rng.integers(0, 256, size=(6, 9, 4), dtype=np.uint8)
    rgba[1, 2, :3] = (10, 20, 30)
    with_alpha = pygame.image.frombytes(rgba.tobytes(), (9, 6), "RGBA")
    fresh = pygame.Surface((9, 6))  # no alpha channel; its pixels' 4th byte is 0
    keyed = pygame.image.frombytes(rgba[..., :3].tobytes(), (9, 6), "RGB")
    keyed.set_colorkey((10, 20, 30))
    for surface in (with_alpha, fresh, keyed):
        bitmap = Bitmap.from_surface(surface)
        mask = pygame.mask.from_surface(surface, 0)
        shown = [[bitmap.pixel(x, y)[3] > 0 for x in range(9)] for y in range(6)]
        assert shown == [[bool(mask.get_at((x, y))) for x in range(9)] for y in range(6)]
    assert Bitmap.from_surface(fresh).pixel(0, 0) == (0, 0, 0, 255)
    assert Bitmap.from_surface(keyed).pixel(2, 1) == (10, 20, 30, 0)
    assert Bitmap.from_surface(keyed).pixel(0, 0) == tuple(int(v) for v in rgba[0, 0, :3]) + (255,)


def test_bad_bitmaps_raise(tmp_path):
    with pytest.raises(pixelhit.ArgumentError, match="RGBA data holds 11 bytes, not the 16 its size needs") as e:
        Bitmap.from_rgba(2, 2, bytes(11))
    assert e.value.kind == "Argument"
    with pytest.raises(PixelhitError, match="is empty"):
        Bitmap.from_rgba(0, 3, b"")
    with pytest.raises(pixelhit.ArgumentError, match="width is -1, outside"):
        Bitmap.from_rgba(-1, 3, b"")
    with pytest.raises(pixelhit.ArgumentError, match=r"shape \(height, width, 4\) or \(height, width, 3\), not \[4, 4, 2\]"):
        Bitmap.from_array(np.zeros((4, 4, 2), np.uint8))
    with pytest.raises(pixelhit.ArgumentError, match="not a buffer of unsigned bytes"):
        Bitmap.from_array(np.zeros((4, 4, 4), np.float32))
    with pytest.raises(PixelhitError, match="^image bytes: ") as e:
        Bitmap.from_png_bytes(b"not a png")
    missing = tmp_path / "missing.png"
    with pytest.raises(PixelhitError, match="missing.png") as e:
        Bitmap.from_png_file(missing)
    assert e.value.kind == "Io"
    # A PNG header that claims 100000 x 100000 pixels is refused before decoding.
    bomb = png_bytes(1, 1, b"\0\0\0\0").replace(struct.pack(">II", 1, 1), struct.pack(">II", 100000, 100000), 1)
    with pytest.raises(PixelhitError, match="^image bytes"):
        Bitmap.from_png_bytes(bomb)


# ----- graphics -----


def test_graphics_and_paths():
    ring = Path("M0 0 H20 V20 H0 Z M5 5 H15 V15 H5 Z")
    assert Path.from_svg(ring.to_svg()) == ring
    assert Path("").is_empty and not ring.is_empty
    s = Stage()
    n = s.add_container(s.root)
    s.add_graphic(n, Graphic.fill(ring, "evenodd"))
    assert not s.hit_test_point(n, 10, 10, True)
    n2 = s.add_container(s.root)
    s.add_graphic(n2, ring)  # non-zero: both squares turn the same way, the hole is filled
    assert s.hit_test_point(n2, 10, 10, True)
    g = n.graphics[0]
    assert (g.kind, g.fill_rule, g.alpha, g.width) == ("fill", "evenodd", 1.0, None)
    assert g.path == ring and g == Graphic.fill(ring, "evenodd")
    line = s.add_container(s.root)
    s.add_graphic(line, "M0 0 L10 0", stroke=2, alpha=0.5)
    s.add_graphic(line, Path.circle(0, 0, 1), fill=True, stroke=1)
    kinds = [(g.kind, g.width, g.alpha) for g in line.graphics]
    assert kinds == [("stroke", 2, 0.5), ("fill", None, 1.0), ("stroke", 1, 1.0)]
    s.set_graphics(line, [Graphic.stroke("M0 0 L5 5", 3)])
    assert len(line.graphics) == 1
    assert Path.polygon([(0, 0), (4, 0), (0, 4)]) == Path("M0 0 L4 0 L0 4 Z")
    assert Path.polygon(np.array([[0, 0], [4, 0], [0, 4]])) == Path("M0 0 L4 0 L0 4 Z")
    with pytest.raises(PixelhitError, match=r"points are \(x, y\) pairs, not \(1, 2, 3\)"):
        Path.polygon([(0, 0), (1, 2, 3)])
    assert s.bounds(s.add_container(s.root)) is None


def test_frames_switch_what_collides():
    s = Stage()
    root = s.root
    wall = rect_node(s, root, 10, 0, 10, 10)
    small = [Graphic.fill(Path.rect(0, 0, 5, 5))]
    big = Bitmap.from_rgba(15, 5, bytes([0, 0, 0, 255]) * 75)
    anim = s.add_frames(root, [small, (big, False)])
    assert (anim.frame, anim.frame_count) == (0, 2)
    assert s.collision_rect(anim, wall, root) is None
    anim.frame = 1
    assert s.collision_rect(anim, wall, root) == (10, 0, 5, 5)
    assert anim.bitmap == big
    with pytest.raises(PixelhitError):
        anim.frame = 2


# ----- many sprites -----


def test_contacts_hand_back_the_nodes_given_with_details():
    s = Stage()
    root = s.root
    boxes = [rect_node(s, root, x, 0, 10, 10) for x in (0, 8, 30)]
    contacts = s.contacts_among(boxes, root, details=True)
    assert len(contacts) == 1
    c = contacts[0]
    assert c.a is boxes[0] and c.b is boxes[1]
    assert c.rect == (8, 0, 2, 10) and c.overlap_pixels == 20
    nx, ny = c.normal
    assert nx > 0.99 and abs(ny) < 0.1
    assert c.centroid == (9, 5)
    assert c.first == (8, 0)
    m = c.mask
    assert (m.x, m.y, m.width, m.height, m.count()) == (8, 0, 2, 10, 20)
    assert m.tobytes() == b"\1" * 20 and m.contains(9, 9) and not m.contains(10, 0)
    assert c.other(boxes[0]) is boxes[1] and c.other(boxes[2]) is None
    plain = s.contacts_among(boxes, root)[0]
    assert plain.normal is None and plain.mask is None and plain.centroid is None
    # A generator works as well as a list, and the order of the list decides a and b.
    back = s.contacts_among((b for b in reversed(boxes)), root)
    assert back[0].a is boxes[1] or back[0].a == boxes[1]
    assert s.contacts_against(boxes[1], boxes, root)[0].b is boxes[0]
    assert s.contacts_among([], root) == []
    with pytest.raises(PixelhitError, match="not a str"):
        s.contacts_among("abc", root)


def test_touching_among_gives_the_contacts_pairs_as_the_nodes_given():
    """Random turned and scaled bitmaps and discs: `touching_among` gives exactly the pairs
    of `contacts_among` with the same options, in its order, as the node objects given."""
    rng = random.Random(30)
    seen_pairs = 0
    for case in range(40):
        s = Stage()
        root = s.root
        nodes = []
        for _ in range(rng.randrange(2, 14)):
            n = s.add_container(root)
            if rng.random() < 0.5:
                w, h = rng.randrange(1, 20), rng.randrange(1, 20)
                alpha = np.array([[rng.choice([0, 60, 127, 128, 255]) for _ in range(w)] for _ in range(h)], dtype=np.uint8)
                rgba = np.zeros((h, w, 4), dtype=np.uint8)
                rgba[..., 3] = alpha
                s.add_bitmap(n, Bitmap.from_array(rgba))
            else:
                s.add_graphic(n, Graphic.fill(Path.circle(0, 0, rng.uniform(1, 9))))
            scale = rng.uniform(0.3, 2.5)
            n.set_transform(rng.uniform(0, 40), rng.uniform(0, 40), rng.uniform(-360, 360), scale, scale)
            nodes.append(n)
        opts = dict(tolerance=rng.choice([0, 127, 255]), anti_alias=rng.random() < 0.5, parallel=rng.random() < 0.5)
        want = [(c.a, c.b) for c in s.contacts_among(nodes, root, **opts)]
        got = s.touching_among(nodes, root, **opts)
        assert got == want, case
        assert all(a is nodes[nodes.index(a)] and b is nodes[nodes.index(b)] for a, b in got)
        seen_pairs += len(got)
    assert seen_pairs > 20
    empty = Stage()
    assert empty.touching_among([], empty.root) == []


def _answers(contacts):
    return [(c.a, c.b, c.rect, c.overlap_pixels, c.normal, c.first) for c in contacts]


def test_contacts_names_take_the_crates_order_and_the_old_names_warn_and_agree():
    """`contacts_among(nodes, parent)`, `contacts_against(node, others, parent)` and
    `contacts_between(group_a, group_b, parent)` find exactly the pairs `collision` finds;
    the former names (`collisions`, `collisions_with`, `collisions_between`, parent first)
    give the same answers with a DeprecationWarning pointing at the caller."""
    rng = random.Random(30)
    for case in range(40):
        s = Stage()
        root = s.root
        layer = s.add_container(root)
        layer.set_transform(rng.uniform(-5, 5), rng.uniform(-5, 5), rng.uniform(-30, 30))
        nodes = []
        for _ in range(rng.randrange(2, 9)):
            n = s.add_container(rng.choice([root, layer]))
            s.add_graphic(n, Path.circle(0, 0, rng.uniform(2, 9)) if rng.random() < 0.5
                          else Path.rect(0, 0, rng.uniform(2, 12), rng.uniform(2, 12)))
            n.set_transform(rng.uniform(0, 30), rng.uniform(0, 30), rng.uniform(-360, 360))
            n.visible = rng.random() < 0.9
            nodes.append(n)
        opts = dict(details=rng.random() < 0.5, skip_hidden=rng.random() < 0.5,
                    tolerance=rng.choice([255, 128, 0]), parallel=rng.random() < 0.5)
        shown = [n for n in nodes if n.visible or not opts["skip_hidden"]]
        touching = lambda a, b: s.collision(a, b, root, tolerance=opts["tolerance"])

        among = s.contacts_among(nodes, root, **opts)
        want = [(a, b) for i, a in enumerate(shown) for b in shown[i + 1:] if touching(a, b)]
        assert [(c.a, c.b) for c in among] == want, case
        for c in among:
            assert c.rect == touching(c.a, c.b).rect
        me, others = nodes[0], nodes[1:]
        against = s.contacts_against(me, others, root, **opts)
        if me in shown:
            assert [c.b for c in against] == [o for o in shown if o is not me and touching(me, o)]
        else:
            assert against == []
        k = rng.randrange(len(nodes) + 1)
        between = s.contacts_between(nodes[:k], nodes[k:], root, **opts)
        assert [(c.a, c.b) for c in between] == [
            (a, b) for a in shown[: sum(1 for n in nodes[:k] if n in shown)]
            for b in shown if b not in nodes[:k] and touching(a, b)
        ], case

        for old, args, new in [
            (s.collisions, (root, nodes), among),
            (s.collisions_with, (root, me, others), against),
            (s.collisions_between, (root, nodes[:k], nodes[k:]), between),
        ]:
            with pytest.warns(DeprecationWarning, match=r"is deprecated: call Stage\.contacts_") as w:
                got = old(*args, **opts)
            assert _answers(got) == _answers(new), (case, old.__name__)
            assert [x.filename for x in w] == [__file__]


def test_old_contacts_names_raise_when_warnings_are_errors():
    s = Stage()
    a, b = rect_node(s, s.root, 0, 0, 10, 10), rect_node(s, s.root, 5, 0, 10, 10)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        with pytest.raises(DeprecationWarning, match="contacts_among"):
            s.collisions(s.root, [a, b])
        assert len(s.contacts_among([a, b], s.root)) == 1


def test_stage_pick_and_bounds_accept_nodes_of_any_origin():
    s = Stage()
    n = rect_node(s, s.root, 0, 0, 10, 10)
    assert s.pick(5, 5) == n
    assert s.bounds(n, None) == (0, 0, 10, 10) == s.visible_bounds(n)
    assert "Stage" in repr(s) and len(s) == 2
    assert s.cache_bytes >= 0
    s.clear_cache()


def test_queries_release_the_gil_and_changes_during_them_raise_or_wait():
    """Queries run with the GIL released; a change from another thread while one runs is
    refused with a BusyError (a PixelhitError), never a crash."""
    s = Stage()
    root = s.root
    sprites = []
    for i in range(300):
        n = s.add_container(root)
        s.add_graphic(n, Path.circle(0, 0, 20))
        n.set_position(i % 20 * 15, i // 20 * 15)
        sprites.append(n)
    errors = []
    stop = threading.Event()

    def mover():
        while not stop.is_set():
            try:
                sprites[0].rotation += 1
            except PixelhitError as e:
                errors.append(e)

    t = threading.Thread(target=mover)
    t.start()
    try:
        for _ in range(20):
            s.contacts_among(sprites, root)
    finally:
        stop.set()
        t.join()
    assert all(isinstance(e, pixelhit.BusyError) and e.kind == "Busy" for e in errors), errors


def test_hostile_calls_raise_and_never_panic():
    """Random calls with hostile numbers: each either works or raises an ordinary
    exception (a Rust panic would surface as pyo3's PanicException, a BaseException)."""
    rng = random.Random(5)
    numbers = [0, -0.0, 1, -1, 0.5, 1e-300, 1e300, -1e300, float("inf"), float("-inf"), float("nan"), 2**40]
    s = Stage()
    root = s.root
    nodes = [root]
    for _ in range(40):
        try:
            n = s.add_container(rng.choice(nodes))
            s.add_graphic(n, Path.rect(0, 0, 5, 5))
            nodes.append(n)
        except PixelhitError:
            pass
    for _ in range(1500):
        a, b, p = rng.choice(nodes), rng.choice(nodes), rng.choice(nodes)
        v = rng.choice(numbers)
        op = rng.randrange(14)
        try:
            if op == 0:
                setattr(a, rng.choice(["x", "y", "rotation", "scale_x", "scale_y", "alpha"]), v)
            elif op == 1:
                a.matrix = tuple(rng.choice(numbers) for _ in range(6))
            elif op == 2:
                s.collision(a, b, p, tolerance=rng.randrange(-5, 300), anti_alias=rng.random() < 0.5,
                            max_pixels=rng.choice([None, 0, 1, 10**6]))
            elif op == 3:
                s.contacts_among(rng.sample(nodes, k=min(6, len(nodes))), p, details=True)
            elif op == 4:
                s.hit_test_point(a, v, rng.choice(numbers), rng.random() < 0.5)
            elif op == 5:
                s.pick(v, rng.choice(numbers))
            elif op == 6:
                s.bounds(a, b)
                s.tight_bounds(a, b)
            elif op == 7:
                a.set_parent(b)
            elif op == 8 and rng.random() < 0.1:
                a.remove()
            elif op == 9:
                a.scroll_rect = tuple(rng.choice(numbers) for _ in range(4))
            elif op == 10:
                a.mask = b
            elif op == 11:
                s.add_graphic(a, Path.circle(v, v, abs(v) if v == v else 1), stroke=abs(v) if v == v else 1)
            elif op == 12:
                a.set_transform(v, v, v, rng.choice(numbers), rng.choice(numbers))
            else:
                a.local_to_global(v, v)
                a.global_to_local(v, v)
        except (PixelhitError, ValueError, TypeError, OverflowError, RuntimeError):
            pass
    # Whatever happened, the stage still answers.
    assert len(s) >= 1 and s.root.alive
    assert math.isfinite(s.root.x)
