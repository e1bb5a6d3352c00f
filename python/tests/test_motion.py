"""Motion (semantics.md section 8) from Python: `Pose`, `Stage.sweep`, `sweeps_against`,
`sweeps_between` and `separation`.

Every answer is checked by an independent computation with the package's own discrete
`collision` at poses the test sets itself: the pose at `t` overlaps (with the answer's
rectangle and count), the pose at `last_clear` does not, a contact that dense sampling sees
lasting while the node moves `max_step` px is never missed, and a node pushed out by
`separation` shares no pixel while 1/256 px less still does.
"""

import math
import random

import pytest

import pixelhit
from pixelhit import Pose

RES = 1.0 / 256.0


def shape_node(stage, parent, kind, size):
    """A container under `parent` drawing a shape centred on its origin (so that the origin,
    whose motion is the translation's, is a point of the shape's bounds)."""
    n = stage.add_container(parent)
    h = size / 2
    if kind == "rect":
        path = pixelhit.Path.rect(-h, -h, size, size * 0.6)
    elif kind == "circle":
        path = pixelhit.Path.circle(0, 0, h)
    else:  # a concave L
        path = pixelhit.Path.polygon([(-h, -h), (h, -h), (h, -h / 3), (-h / 3, -h / 3), (-h / 3, h), (-h, h)])
    stage.add_graphic(n, path)
    return n


def overlaps_at(stage, node, pose, other, parent, **opts):
    """The package's discrete collision with `node` set to `pose` (put back afterwards)."""
    saved = node.pose
    node.pose = pose
    try:
        return stage.collision(node, other, parent, **opts)
    finally:
        node.pose = saved


# ----- Pose -----


def test_pose_reads_sets_and_interpolates():
    stage = pixelhit.Stage()
    n = stage.add_container(stage.root)
    n.set_transform(5, 6, 370, 2, 3)
    p = n.pose
    assert isinstance(p, Pose)
    assert tuple(p) == (5, 6, 370, 2, 3)  # 370 stays 370
    assert p == Pose(5, 6, 370, 2, 3) and hash(p) == hash(Pose(5, 6, 370, 2, 3))
    assert p != Pose(5, 6, 10, 2, 3)
    assert Pose() == Pose(0, 0, 0, 1, 1) and Pose(y=4) == Pose(0, 4)
    assert Pose(0, 0, 350).lerp(Pose(10, 0, 370), 0.5) == Pose(5, 0, 360)
    assert Pose(0, 0, 350).lerp((10, 0, 10), 0.5).rotation == 180  # 340 degrees back
    n.pose = (1, 2)
    assert tuple(n.pose) == (1, 2, 0, 1, 1) and n.matrix == (1, 0, 0, 1, 1, 2)
    n.pose = Pose(1, 2, 90, 2, 1)
    assert n.pose == Pose(1, 2, 90, 2, 1)
    n.matrix = (1, 0, 0, -1, 0, 0)  # a mirror reads as a negative scale_y
    assert n.pose == Pose(0, 0, 0, 1, -1)


def test_pose_refusals():
    stage = pixelhit.Stage()
    n = stage.add_container(stage.root)
    n.matrix = (1, 0, 0.5, 1, 0, 0)
    with pytest.raises(pixelhit.NodeError) as e:
        n.pose
    assert e.value.kind == "Skew"
    for bad in ("ab", (1,), (1, 2, 3, 4), None, 3):
        with pytest.raises(pixelhit.ArgumentError):
            n.pose = bad
    n.pose = Pose(3, 4)  # drops the skew
    assert n.matrix == (1, 0, 0, 1, 3, 4)


# ----- sweep -----


def bullet_and_wall(stage, wall_thickness=1.0, bullet=2.0):
    root = stage.root
    wall = stage.add_container(root)
    stage.add_graphic(wall, pixelhit.Path.rect(100, 0, wall_thickness, 200))
    b = shape_node(stage, root, "circle", bullet)
    return root, wall, b


def test_a_bullet_that_tunnels_between_frames_is_stopped():
    stage = pixelhit.Stage()
    root, wall, bullet = bullet_and_wall(stage)
    last_frame = Pose(20, 100)
    bullet.pose = last_frame
    assert not stage.collision(bullet, wall, root)
    bullet.x = 180
    # Both frames miss the wall: the discrete queries see nothing...
    assert not stage.collision(bullet, wall, root)
    assert stage.contacts_against(bullet, [wall], root) == []
    # ...the step does not.
    hit = stage.sweep(bullet, wall, root, a_from=last_frame)
    assert hit and 0 < hit.t < 1 and hit.last_clear is not None
    x = 20 + hit.t * 160
    assert 98.9 < x < 99.1  # the bullet's right edge (radius 1) at the wall's left edge, 100
    assert (hit.t - hit.last_clear) * 160 <= RES + 1e-12
    # The pose at t overlaps with exactly the answer; the last clear pose does not.
    at = overlaps_at(stage, bullet, last_frame.lerp(bullet.pose, hit.t), wall, root)
    assert at.rect == hit.rect and at.overlap_pixels == hit.overlap_pixels
    assert not overlaps_at(stage, bullet, last_frame.lerp(bullet.pose, hit.last_clear), wall, root)
    # The tree is the query's: nothing moved.
    assert bullet.pose == Pose(180, 100)
    [h] = stage.sweeps_against(bullet, last_frame, [wall], root)
    assert h.mover is bullet and h.other is wall
    assert (h.t, h.rect, h.overlap_pixels, h.last_clear) == (hit.t, hit.rect, hit.overlap_pixels, hit.last_clear)


@pytest.mark.parametrize("size", [1.0, 3.0])
def test_no_tunnelling_at_any_angle_and_speed(size):
    # Walls max_step (0.5) and 1 px thick; bullets of 1 and 3 px crossing them at every
    # angle, at up to 400 px a step; both frames are clear of the wall every time.
    for thickness in (0.5, 1.0):
        for deg in range(-75, 76, 15):
            for speed in (30.0, 120.0, 400.0):
                stage = pixelhit.Stage()
                root = stage.root
                wall = stage.add_container(root)
                stage.add_graphic(wall, pixelhit.Path.rect(0, -1000, thickness, 2000))
                b = shape_node(stage, root, "circle", size)
                a = math.radians(deg)
                dx, dy = math.cos(a) * speed, math.sin(a) * speed
                start = Pose(-dx / 2 - 0.37, -dy / 2)
                b.pose = (start.x + dx, start.y + dy)
                what = f"size {size}, wall {thickness}, {deg} deg, {speed} px"
                assert not overlaps_at(stage, b, start, wall, root), what
                assert not stage.collision(b, wall, root), what
                hit = stage.sweep(b, wall, root, a_from=start)
                assert hit is not None, what
                assert overlaps_at(stage, b, start.lerp(b.pose, hit.t), wall, root), what
                assert not overlaps_at(stage, b, start.lerp(b.pose, hit.last_clear), wall, root), what


def random_pose(rng, near, spread, turn, scale):
    return Pose(
        near[0] + rng.uniform(-spread, spread),
        near[1] + rng.uniform(-spread, spread),
        rng.uniform(-turn, turn),
        rng.uniform(1 - scale, 1 + scale),
        rng.uniform(1 - scale, 1 + scale),
    )


def test_random_sweeps_hold_against_dense_sampling():
    rng = random.Random(23)
    max_step = 2.0
    checked_hits = long_runs = 0
    for case in range(60):
        stage = pixelhit.Stage()
        root = stage.root
        parent = stage.add_container(root)
        # Every fourth case asks in the root's space, through a parent scaled 1.5 times: the
        # motion is measured in the root's pixels there.
        nested = case % 4 == 0
        parent.set_transform(3, -2, 0, 1.5, 1.5)
        space, outer = (root, 1.5) if nested else (parent, 1.0)
        kinds = ("rect", "circle", "L")
        a = shape_node(stage, parent, kinds[case % 3], rng.uniform(3, 12))
        b = shape_node(stage, parent, kinds[(case // 3) % 3], rng.uniform(4, 20))
        b.pose = random_pose(rng, (0, 0), 3, 180, 0.3)
        frm = random_pose(rng, (0, 0), 30, 20, 0.2)
        to = random_pose(rng, (0, 0), 30, 20, 0.2)
        a.pose = to
        hit = stage.sweep(a, b, space, a_from=frm, max_step=max_step)
        # Dense sampling: the origin (a point of a's bounds) moves |dp| * outer per unit of
        # time; sample so that it moves at most max_step / 8 between samples.
        origin_speed = math.hypot(to.x - frm.x, to.y - frm.y) * outer
        n = max(8, math.ceil(origin_speed / (max_step / 8)))
        ts = [i / n for i in range(n + 1)]
        hits = [bool(overlaps_at(stage, a, frm.lerp(to, t), b, space)) for t in ts]
        # The first run of overlapping samples over which the origin alone moves max_step.
        first_long_end = None
        i = 0
        while i <= n and first_long_end is None:
            if hits[i]:
                j = i
                while j + 1 <= n and hits[j + 1]:
                    j += 1
                if (ts[j] - ts[i]) * origin_speed >= max_step:
                    first_long_end = ts[j]
                    long_runs += 1
                i = j + 1
            else:
                i += 1
        what = f"case {case}: from {frm} to {to}, answer {hit}"
        if first_long_end is not None:
            assert hit is not None and hit.t <= first_long_end + 1e-12, what
        if hits[0]:
            assert hit is not None and hit.t == 0 and hit.last_clear is None, what
        if hit is None:
            continue
        checked_hits += 1
        at = overlaps_at(stage, a, frm.lerp(to, hit.t), b, space)
        assert at.rect == hit.rect and at.overlap_pixels == hit.overlap_pixels, what
        if hit.t > 0:
            assert hit.last_clear is not None and hit.last_clear < hit.t, what
            assert not overlaps_at(stage, a, frm.lerp(to, hit.last_clear), b, space), what
            # No point moves more than 1/256 px between them: the origin neither.
            assert (hit.t - hit.last_clear) * origin_speed <= RES + 1e-9, what
        # Nothing of the tree changed.
        assert a.pose == to
    # The cases exercise both answers and long contacts (not a suite of misses).
    print("sweeps answered", checked_hits, "long contacts", long_runs)
    assert checked_hits >= 15 and long_runs >= 10, (checked_hits, long_runs)


def test_both_moving_and_boxes():
    stage = pixelhit.Stage()
    root = stage.root
    a = shape_node(stage, root, "rect", 10)
    b = shape_node(stage, root, "rect", 10)
    a.pose, b.pose = (100, 0), (0, 0)
    a_from, b_from = Pose(0, 0), Pose(100, 0)
    # They swap places, 100 px apart: their 10 px boxes meet when the gap is 10 px.
    hit = stage.sweep(a, b, root, a_from=a_from, b_from=b_from)
    assert hit and 0.4 < hit.t < 0.5
    a.pose, b.pose = a_from.lerp((100, 0), hit.t), b_from.lerp((0, 0), hit.t)
    assert stage.collision(a, b, root).rect == hit.rect
    boxes = stage.sweep(a, b, root, a_from=a_from, b_from=b_from, precise=False)
    assert boxes.overlap_pixels is None


def test_overlap_at_the_start_is_t_zero_and_still_pairs_sweep_like_collision():
    stage = pixelhit.Stage()
    root = stage.root
    a = shape_node(stage, root, "rect", 10)
    b = shape_node(stage, root, "rect", 10)
    b.x = 5
    hit = stage.sweep(a, b, root, a_from=(0, 0))
    assert hit.t == 0 and hit.last_clear is None
    assert hit.rect == stage.collision(a, b, root).rect
    b.x = 50
    assert stage.sweep(a, b, root) is None  # nothing moves, nothing overlaps


# ----- sweeps_against, sweeps_between -----


def test_sweeps_against_equals_sweep_per_pair_in_order_of_t():
    rng = random.Random(7)
    stage = pixelhit.Stage()
    root = stage.root
    rocks = []
    for _ in range(30):
        r = shape_node(stage, root, rng.choice(["rect", "circle", "L"]), rng.uniform(4, 15))
        r.pose = random_pose(rng, (100, 100), 90, 180, 0.3)
        rocks.append(r)
    bullet = shape_node(stage, root, "circle", 2)
    seen = 0
    for _ in range(20):
        frm = Pose(rng.uniform(0, 200), rng.uniform(0, 200))
        bullet.pose = (rng.uniform(0, 200), rng.uniform(0, 200))
        others = rocks + [bullet, rocks[0]]  # the mover and a repeat are ignored
        hits = stage.sweeps_against(bullet, frm, others, root)
        want = []
        for r in rocks:
            s = stage.sweep(bullet, r, root, a_from=frm)
            if s is not None:
                want.append((s.t, r, s))
        ts = [h.t for h in hits]
        assert ts == sorted(ts)
        assert sorted((h.t, h.other.index) for h in hits) == sorted((t, r.index) for t, r, _ in want)
        for h in hits:
            assert h.mover is bullet and any(h.other is r for r in rocks)
            s = stage.sweep(bullet, h.other, root, a_from=frm)
            assert (h.t, h.rect, h.overlap_pixels, h.last_clear) == (s.t, s.rect, s.overlap_pixels, s.last_clear)
        seen += len(hits)
        between = stage.sweeps_between(root, [(bullet, frm)], rocks)
        assert [(h.t, h.other) for h in between] == [(h.t, h.other) for h in hits]
    print("sweep hits", seen)
    assert seen >= 10
    # The former name, parent first, warns at the caller and gives the same hits.
    with pytest.warns(DeprecationWarning, match=r"is deprecated: call Stage\.sweeps_against") as w:
        old = stage.sweeps_with(root, bullet, frm, rocks, tolerance=128)
    new = stage.sweeps_against(bullet, frm, rocks, root, tolerance=128)
    assert [(h.t, h.other, h.rect) for h in old] == [(h.t, h.other, h.rect) for h in new]
    assert [x.filename for x in w] == [__file__]


def test_sweeps_between_is_sweeps_against_per_mover():
    stage = pixelhit.Stage()
    root = stage.root
    wall = stage.add_container(root)
    stage.add_graphic(wall, "M 50 0 h 1 v 100 h -1 Z")
    b1 = shape_node(stage, root, "circle", 2)
    b2 = shape_node(stage, root, "circle", 2)
    b1.pose, b2.pose = (90, 10), (40, 80)
    movers = {b1: Pose(10, 10), b2: (30, 80)}
    hits = stage.sweeps_between(root, movers.items(), [wall, b1])
    assert [(h.mover, h.other) for h in hits] == [(b1, wall)]
    assert hits[0].mover is b1
    assert hits[0].t == stage.sweeps_against(b1, movers[b1], [wall], root)[0].t
    with pytest.raises(pixelhit.ArgumentError):
        stage.sweeps_between(root, [b1], [wall])
    with pytest.raises(pixelhit.ArgumentError):
        stage.sweeps_between(root, [(b1, "far")], [wall])


# ----- separation -----


def test_separation_pushes_out_by_exactly_enough():
    rng = random.Random(11)
    answered = 0
    for case in range(80):
        stage = pixelhit.Stage()
        root = stage.root
        a = shape_node(stage, root, rng.choice(["rect", "circle", "L"]), rng.uniform(2, 14))
        b = shape_node(stage, root, rng.choice(["rect", "circle", "L"]), rng.uniform(2, 20))
        a.pose = random_pose(rng, (0, 0), 6, 180, 0.3)
        b.pose = random_pose(rng, (0, 0), 2, 180, 0.3)
        if case % 4 == 3:
            direction = None
        else:
            ang = rng.uniform(0, 2 * math.pi)
            direction = (math.cos(ang) * 3, math.sin(ang) * 3)  # any length
        d = stage.separation(a, b, root, direction=direction)
        start = a.pose
        what = f"case {case}: a {start}, b {b.pose}, direction {direction}, d {d}"
        if not stage.collision(a, b, root):
            assert d == 0.0, what
            continue
        if direction is None:
            [c] = stage.contacts_against(a, [b], root, details=True)
            nx, ny = c.normal
            if (nx, ny) == (0, 0):
                continue
            # Against the contact normal, as if given.
            assert d == stage.separation(a, b, root, direction=(-nx, -ny)), what
            ux, uy = -nx / math.hypot(nx, ny), -ny / math.hypot(nx, ny)
        else:
            ux, uy = direction[0] / 3, direction[1] / 3
        assert d is not None and d > 0, what
        assert d * 256 == round(d * 256), what
        moved = Pose(start.x + d * ux, start.y + d * uy, start.rotation, start.scale_x, start.scale_y)
        assert not overlaps_at(stage, a, moved, b, root), what
        less = d - RES
        short = Pose(start.x + less * ux, start.y + less * uy, start.rotation, start.scale_x, start.scale_y)
        assert overlaps_at(stage, a, short, b, root), what
        assert a.pose == start
        answered += 1
    print("separations answered", answered)
    assert answered >= 30


def test_separation_without_room_and_the_readme_crate():
    stage = pixelhit.Stage()
    root = stage.root
    ground = stage.add_container(root)
    stage.add_graphic(ground, pixelhit.Path.rect(0, 100, 200, 20))
    box = stage.add_container(root)
    stage.add_graphic(box, pixelhit.Path.rect(0, 0, 10, 10))
    box.set_position(50, 93.5)  # sunk 3.5 px
    assert stage.separation(box, ground, root, direction=(0, -1)) == 3.5
    assert stage.separation(box, ground, root) == 3.5
    assert stage.separation(box, ground, root, direction=(0, -1), max_distance=2) is None


# ----- errors -----


def test_motion_errors():
    stage = pixelhit.Stage()
    root = stage.root
    a = shape_node(stage, root, "rect", 10)
    b = shape_node(stage, root, "rect", 10)
    b.x = 40
    a.matrix = (1, 0, 0.5, 1, 30, 0)  # skew
    with pytest.raises(pixelhit.NodeError) as e:
        stage.sweep(a, b, root, a_from=(0, 0))
    assert e.value.kind == "Skew"
    with pytest.raises(pixelhit.NodeError):
        stage.sweeps_against(a, (0, 0), [b], root)
    # A node with skew may stay put.
    b.x = 0
    assert stage.sweep(b, a, root, a_from=(80, 0)) is not None
    b.x = 40
    a.pose = (0, 0)
    with pytest.raises(pixelhit.BudgetError) as e:
        stage.sweep(a, b, root, a_from=(-100000, 0), max_tests=1000)
    assert e.value.kind == "MotionBudget"
    with pytest.raises(pixelhit.ArgumentError) as e:
        stage.sweep(a, b, root, a_from=(0, 0), max_step=0.01)
    assert "max_step" in str(e.value)
    with pytest.raises(pixelhit.ArgumentError):
        stage.sweep(a, b, root, a_from=(float("nan"), 0))
    with pytest.raises(pixelhit.ArgumentError):
        stage.sweep(a, b, root, a_from="here")
    with pytest.raises(pixelhit.ArgumentError):
        stage.sweep(a, b, root, a_from=(0, 0), max_tests=-1)
    with pytest.raises(pixelhit.ArgumentError):
        stage.sweep(a, b, root, a_from=(0, 0), tolerance=300)
    b.x = 5
    with pytest.raises(pixelhit.BudgetError):
        stage.separation(a, b, root, direction=(1, 0), max_step=1 / 64, max_tests=10)
    with pytest.raises(pixelhit.ArgumentError):
        stage.separation(a, b, root, direction=(0, 0))
    with pytest.raises(pixelhit.ArgumentError):
        stage.separation(a, b, root, direction=(1, 2, 3))
    with pytest.raises(pixelhit.ArgumentError):
        stage.separation(a, b, root, max_distance=-1)
    other = pixelhit.Stage()
    stray = other.add_container(other.root)
    inner = stage.add_container(a)
    with pytest.raises(pixelhit.NodeError):
        stage.sweep(a, b, inner, a_from=(0, 0))
    with pytest.raises(pixelhit.NodeError):
        stage.sweeps_against(a, (0, 0), [stray], root)
    # Refused queries left the tree as it was.
    assert a.pose == Pose(0, 0) and b.pose == Pose(5, 0)
