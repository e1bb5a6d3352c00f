"""The core package's additions (issue 24, item 4) and its one exception hierarchy (issue 22,
item 9): user data on nodes, ContactTracker, debug_image, SVG, OverlapMask to pygame,
pygame.Rect/FRect in, batched set_transforms, and every refusal a PixelhitError subclass."""

import gc
import threading
import weakref

import numpy as np
import pygame
import pytest

import pixelhit
from pixelhit import (
    ArgumentError,
    Bitmap,
    BudgetError,
    BusyError,
    DataError,
    NodeError,
    Path,
    PixelhitError,
    Stage,
)
from support import rect_node


def test_the_hierarchy():
    for cls in (NodeError, ArgumentError, DataError, BudgetError, BusyError):
        assert issubclass(cls, PixelhitError)
    assert issubclass(PixelhitError, ValueError)


def refusals():
    """(name, expected class, call) for every kind of refusal the issue lists, and more."""
    s = Stage()
    root = s.root
    a = rect_node(s, root, 0, 0, 10, 10)
    b = rect_node(s, root, 5, 5, 10, 10)
    gone = rect_node(s, root, 0, 0, 1, 1)
    gone.remove()
    other = Stage()
    foreign = other.add_container(other.root)
    big = rect_node(s, root, 0, 0, 5000, 5000)
    return [
        ("removed node", NodeError, lambda: gone.x),
        ("foreign node", NodeError, lambda: s.bounds(foreign)),
        ("not a descendant", NodeError, lambda: s.collision_rect(a, b, a)),
        ("the root moved", NodeError, lambda: root.remove()),
        ("child index past the end", NodeError, lambda: root.child_at(99)),
        ("negative child index", ArgumentError, lambda: root.child_at(-1)),
        ("huge child index", ArgumentError, lambda: root.child_at(2**70)),
        ("negative add_child_at", ArgumentError, lambda: root.add_child_at(a, -3)),
        ("huge remove_children", ArgumentError, lambda: root.remove_children(0, 2**64)),
        ("huge frame", ArgumentError, lambda: setattr(a, "frame", 2**80)),
        ("tolerance 2**70", ArgumentError, lambda: s.collision_rect(a, b, root, True, 2**70)),
        ("tolerance 256", ArgumentError, lambda: s.collision_rect(a, b, root, True, 256)),
        ("tolerance -1 keyword", ArgumentError, lambda: s.contacts_among([a, b], root, tolerance=-1)),
        ("node tolerance 2**70", ArgumentError, lambda: setattr(a, "tolerance", 2**70)),
        ("min_alpha 300", ArgumentError, lambda: s.pick(1, 1, min_alpha=300)),
        ("3-number scroll_rect", ArgumentError, lambda: setattr(a, "scroll_rect", (1, 2, 3))),
        ("str scroll_rect", ArgumentError, lambda: setattr(a, "scroll_rect", "0 0 1 1")),
        ("5-number matrix", ArgumentError, lambda: setattr(a, "matrix", (1, 0, 0, 1, 0))),
        ("7-number colour transform", ArgumentError, lambda: setattr(a, "color_transform", (1,) * 7)),
        ("NaN position", ArgumentError, lambda: setattr(a, "x", float("nan"))),
        ("float32 pixels", ArgumentError, lambda: Bitmap.from_array(np.zeros((2, 2, 4), np.float32))),
        ("int16 bytes", ArgumentError, lambda: Bitmap.from_rgba(1, 1, np.zeros(2, np.int16))),
        ("huge width", ArgumentError, lambda: Bitmap.from_rgba(2**70, 1, b"")),
        ("bad order", ArgumentError, lambda: Bitmap.from_array(np.zeros((2, 2, 4), np.uint8), order="xy")),
        ("path data", DataError, lambda: Path("M0 0 L")),
        ("png bytes", DataError, lambda: Bitmap.from_png_bytes(b"nope")),
        ("svg text", DataError, lambda: s.load_svg_string(root, "<svg")),
        ("missing svg", DataError, lambda: s.load_svg(root, "/nonexistent/ship.svg")),
        ("pixel budget", BudgetError, lambda: s.collision(big, big, root, max_pixels=100)),
        ("wrong node type", ArgumentError, lambda: s.bounds(3)),
        ("poses of the wrong shape", ArgumentError, lambda: s.set_transforms([a, b], np.zeros((2, 4)))),
        ("poses for fewer nodes", ArgumentError, lambda: s.set_transforms([a, b], [(0, 0, 0)])),
        ("debug query not a triple", ArgumentError, lambda: s.debug_image([(a, b)])),
        ("tracker fed nodes", ArgumentError, lambda: pixelhit.ContactTracker().update([a])),
    ]


@pytest.mark.parametrize("name,cls,call", refusals(), ids=[r[0] for r in refusals()])
def test_every_refusal_is_a_pixelhit_error(name, cls, call):
    with pytest.raises(PixelhitError) as e:
        call()
    assert type(e.value) is cls, f"{name}: {type(e.value).__name__}: {e.value}"
    assert isinstance(e.value.kind, str) and e.value.kind


def test_busy_is_raised_and_nothing_changes():
    s = Stage()
    root = s.root
    sprites = []
    for i in range(400):
        n = s.add_container(root)
        s.add_graphic(n, Path.circle(0, 0, 25))
        n.set_position(i % 20 * 12, i // 20 * 12)
        sprites.append(n)
    seen, stop = [], threading.Event()

    def mover():
        while not stop.is_set():
            before = sprites[0].x
            try:
                sprites[0].x = before + 1
            except BusyError as e:
                assert sprites[0].x == before or not stop.is_set()
                seen.append(e)

    t = threading.Thread(target=mover)
    t.start()
    try:
        for _ in range(30):
            s.contacts_among(sprites, root)
    finally:
        stop.set()
        t.join()
    # Nothing asserts that a conflict happened (it depends on the scheduler), only that any
    # that did was a BusyError; the tests of `read`/`write` below force one.
    assert all(e.kind == "Busy" for e in seen)


def test_user_data_is_kept_by_the_stage():
    s = Stage()
    n = s.add_container(s.root)
    child = s.add_container(n)
    assert n.data is None
    sprite = object()
    n.data = sprite
    assert s.root.children[0].data is sprite  # another handle, the same data
    child.data = [1, 2]
    del n.data
    assert n.data is None and child.data == [1, 2]
    n.data = sprite
    n.remove()
    with pytest.raises(NodeError):
        n.data
    fresh = s.add_container(s.root)  # may reuse the slot: no stale data
    assert fresh.data is None


def test_user_data_cycles_are_collected():
    class Sprite:
        pass

    s = Stage()
    sprite = Sprite()
    sprite.node = s.add_container(s.root)
    sprite.node.data = sprite  # sprite -> node -> stage -> data -> sprite
    ref = weakref.ref(sprite)
    del s, sprite
    gc.collect()
    assert ref() is None


def test_contact_tracker_phases_and_objects():
    s = Stage()
    root = s.root
    a = rect_node(s, root, 0, 0, 10, 10)
    b = rect_node(s, root, 5, 0, 10, 10)
    c = rect_node(s, root, 100, 0, 10, 10)
    tracker = pixelhit.ContactTracker()
    events = tracker.update(s.contacts_among([a, b, c], root))
    assert [(e.phase, e.a, e.b, e.frames) for e in events] == [("began", a, b, 1)]
    assert events[0].contact.rect == (5.0, 0.0, 5.0, 10.0)
    assert tracker.is_touching(b, a) and len(tracker) == 1
    events = tracker.update(s.contacts_among([a, b, c], root))
    assert [(e.phase, e.frames) for e in events] == [("continued", 2)]
    b.x = 50
    events = tracker.update(s.contacts_among([a, b, c], root))
    assert [(e.phase, e.a, e.b, e.contact, e.frames) for e in events] == [("ended", a, b, None, 2)]
    assert events[0].a is a  # the object the game passed in
    assert not tracker.is_touching(a, b) and tracker.frames_touching(a, b) == 0


def test_debug_image_png_and_surface(tmp_path):
    s = Stage()
    root = s.root
    a = rect_node(s, root, 0, 0, 10, 10)
    b = rect_node(s, root, 5, 5, 10, 10)
    pic = s.debug_image([(a, b, root)], area=pygame.Rect(0, 0, 20, 20), zoom=4, notes=["hello"])
    assert pic.width >= 80 and pic.height > 80
    # The overlap pixel (7, 7) is magenta at zoom 4.
    assert pic.pixel(7 * 4 + 2, 7 * 4 + 2) == (255, 0, 255, 255)
    path = tmp_path / "why.png"
    pic.save_png(path)
    assert Bitmap.from_png_file(path) == pic
    surface = pic.to_surface()
    assert surface.get_size() == pic.size
    assert tuple(surface.get_at((30, 30))) == (255, 0, 255, 255)
    if hasattr(pygame, "FRect"):
        s.debug_image([(a, b, root)], area=pygame.FRect(0.5, 0, 20, 20), zoom=1)


def test_overlap_mask_to_pygame():
    s = Stage()
    root = s.root
    a = s.add_container(root)
    s.add_graphic(a, Path.circle(10, 10, 9))
    b = s.add_container(root)
    s.add_graphic(b, Path.circle(20, 14, 8))
    (c,) = s.contacts_among([a, b], root, details=True)
    m = c.mask
    mask = m.to_mask()
    assert mask.get_size() == (m.width, m.height) and mask.count() == m.count()
    bits = np.frombuffer(m.tobytes(), np.uint8).reshape(m.height, m.width)
    for y in range(m.height):
        for x in range(m.width):
            assert bool(mask.get_at((x, y))) == bool(bits[y, x])
    surf = m.to_surface((255, 0, 0), "blue")
    for y in range(m.height):
        for x in range(m.width):
            want = (255, 0, 0, 255) if bits[y, x] else (0, 0, 255, 255)
            assert tuple(surf.get_at((x, y))) == want


def test_rects_in():
    s = Stage()
    n = s.add_container(s.root)
    n.scroll_rect = pygame.Rect(1, 2, 3, 4)
    assert n.scroll_rect == (1, 2, 3, 4)
    n.scroll_rect = [0, 0, 5, 5]
    assert n.scroll_rect == (0, 0, 5, 5)
    if hasattr(pygame, "FRect"):
        n.scroll_rect = pygame.FRect(0.4, 0.6, 5, 5)  # edges rounded to whole pixels when set
        assert n.scroll_rect == s.root.children[0].scroll_rect
    n.scroll_rect = None
    assert n.scroll_rect is None


def test_set_transforms_equals_one_call_each_and_is_all_or_nothing():
    rng = np.random.default_rng(1)
    s = Stage()
    nodes = [s.add_container(s.root) for _ in range(50)]
    one = Stage()
    each = [one.add_container(one.root) for _ in range(50)]
    for width in (3, 5):
        poses = rng.uniform(-100, 100, (50, width))
        if width == 5:
            poses[:, 3:] = rng.uniform(0.2, 3, (50, 2))
        s.set_transforms(nodes, poses)
        for n, p in zip(each, poses):
            n.set_transform(*p)
        assert [n.matrix for n in nodes] == [n.matrix for n in each]
        # The same from lists, from a list of tuples (read without a list a row), and from
        # a non-contiguous view.
        s.set_transforms(nodes, poses.tolist())
        assert [n.matrix for n in nodes] == [n.matrix for n in each]
        s.set_transforms(nodes, [tuple(r) for r in poses.tolist()])
        assert [n.matrix for n in nodes] == [n.matrix for n in each]
        s.set_transforms(nodes[::-1], np.ascontiguousarray(poses)[::-1])
        assert [n.matrix for n in nodes] == [n.matrix for n in each]
    before = [n.matrix for n in nodes]
    bad = rng.uniform(-100, 100, (50, 3))
    bad[30, 1] = np.nan
    with pytest.raises(ArgumentError):
        s.set_transforms(nodes, bad)
    assert [n.matrix for n in nodes] == before
    # Lists of tuples that are not all three numbers go the general way, with its errors.
    rows = [tuple(r) for r in bad.tolist()]
    for spoilt, error in (((1.0, 2.0), ArgumentError), ((1.0, "2", 3.0), ArgumentError), ((1.0, 2.0, float("inf")), ArgumentError)):
        with pytest.raises(error):
            s.set_transforms(nodes, rows[:30] + [spoilt] + rows[31:])
        assert [n.matrix for n in nodes] == before


def _properties(n):
    """Every transform property as its exact repr (so -0.0 and 0.0 differ)."""
    try:
        p = n.pose
        pose = (p.x, p.y, p.rotation, p.scale_x, p.scale_y)
    except NodeError as e:  # a matrix with skew has no pose
        pose = str(e)
    return repr((n.x, n.y, n.rotation, n.scale_x, n.scale_y, n.matrix, pose))


def test_a_refused_set_transforms_leaves_every_property_as_it_was():
    """Issue 28, class 6: a refused call restored nodes by matrix, so a rotation of 370 read
    back as 10 and negative scales as a half turn. Nodes posed every way (rotations past
    360 and below -360, negative and zero scales, a matrix with skew, a position set
    alone after a turn), then a batch with one refused row anywhere (not finite, a removed
    node, a node of another stage): every property reads back exactly as before."""
    rng = np.random.default_rng(28)
    other = Stage()
    foreign = other.add_container(other.root)
    for case in range(300):
        s = Stage()
        nodes = [s.add_container(s.root) for _ in range(int(rng.integers(2, 9)))]
        for n in nodes:
            way = rng.integers(4)
            if way == 0:
                n.set_transform(*rng.uniform(-50, 50, 2), rng.choice([370.0, -725.5, 1080.0, 359.75, -180.0]),
                                rng.choice([-2.0, -0.5, 0.0, 1.0, 3.0]), rng.choice([-1.0, -3.5, 0.25, 2.0]))
            elif way == 1:
                n.matrix = tuple(rng.uniform(-3, 3, 6))
            elif way == 2:
                n.rotation = rng.uniform(-1000, 1000)
                n.scale_y = -rng.uniform(0.1, 4)
                n.x = rng.uniform(-9, 9)
        width = int(rng.choice([3, 5]))
        poses = rng.uniform(-720, 720, (len(nodes), width))
        bad_at = int(rng.integers(len(nodes)))
        batch = list(nodes)
        kind = rng.integers(3)
        if kind == 0:
            poses[bad_at, rng.integers(width)] = rng.choice([np.nan, np.inf, -np.inf])
        elif kind == 1:
            batch[bad_at] = s.add_container(s.root)
            batch[bad_at].remove()
        else:
            batch[bad_at] = foreign
        before = [_properties(n) for n in nodes]
        with pytest.raises(PixelhitError):
            s.set_transforms(batch, poses)
        assert [_properties(n) for n in nodes] == before, case
        # A batch that is accepted sets each node as its own set_transform would.
        good = np.where(np.isfinite(poses), poses, 1.0)
        s.set_transforms(nodes, good)
        for n, row in zip(nodes, good):
            assert (n.x, n.y, n.rotation) == tuple(row[:3])
            assert (n.scale_x, n.scale_y) == (tuple(row[3:]) if width == 5 else (1.0, 1.0))


def test_a_refused_set_transforms_names_the_node_and_value():
    s = Stage()
    a, b, c = (s.add_container(s.root) for _ in range(3))
    b.name = "ghost"
    a.set_transform(1, 2, 370, -2, 3)
    with pytest.raises(ArgumentError, match="rotation of .*ghost") as e:
        s.set_transforms([a, b, c], [(0, 0, 0), (0, 0, float("nan")), (0, 0, 0)])
    assert e.value.kind == "NonFinite"
    assert (a.rotation, a.scale_x, a.scale_y, c.rotation) == (370, -2, 3, 0)


def test_svg_files(tmp_path):
    path = tmp_path / "ship.svg"
    path.write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30">'
        '<g id="ship"><rect id="hull" x="5" y="5" width="30" height="20"/></g><text>hi</text></svg>'
    )
    s = Stage()
    load = s.load_svg(s.root, path)
    assert set(load.ids) == {"ship", "hull"}
    assert load.node("hull") == load.ids["hull"]
    assert s.bounds(load.node("hull")) == (5.0, 5.0, 30.0, 20.0)
    assert load.root.parent == s.root
    assert any("text" in w for w in load.warnings)
    assert s.hit_test_point(load.node("ship"), 10, 10, shape_flag=True)


def test_from_array_orders_agree():
    rng = np.random.default_rng(2)
    img = rng.integers(0, 256, (7, 11, 4), dtype=np.uint8)
    hw = Bitmap.from_array(img)
    wh = Bitmap.from_array(img.transpose(1, 0, 2), order="wh")
    assert hw == wh and hw.size == (11, 7)
    surface = pygame.image.frombytes(img[:, :, :3].tobytes(), (11, 7), "RGB")
    from_surfarray = Bitmap.from_array(pygame.surfarray.array3d(surface), order="wh")
    assert from_surfarray == Bitmap.from_surface(surface)
