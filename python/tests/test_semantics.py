"""Figures of docs/semantics.md, asserted from Python (the Rust tests in
tests/integration/semantics.rs and interactivity.rs check the same figures). Expected values
are worked out by hand or by independent arithmetic here, never copied from the library."""

import math

import pytest

import pixelhit
from pixelhit import Graphic, Path, Stage
from support import assert_close, bitmap_node, flat_bitmap, rect_node, shape

# ----- section 1: matrices -----


def test_concatenated_matrix_matches_flash():
    s = Stage()
    root = s.root
    parent = s.add_container(root)
    child = s.add_container(parent)
    parent.matrix = (1.3, 0.2, 0.1, 1.2, 40, 50)
    child.matrix = (1.3, 0.2, 0.2, 1.2, 60, 70)
    got = s.matrix_to(child, root)
    for g, w in zip(got, (1.71, 0.5, 0.38, 1.48, 125, 146)):
        assert abs(g - w) < 1e-9, got
    assert s.matrix_to(child, parent) == (1.3, 0.2, 0.2, 1.2, 60, 70)
    assert s.matrix_to(child, child) == (1, 0, 0, 1, 0, 0)
    gx, gy = child.local_to_global(1, 1)
    assert abs(gx - (125 + 1.71 + 0.38)) < 1e-9 and abs(gy - (146 + 0.5 + 1.48)) < 1e-9


def test_properties_build_the_matrix_in_flash_order():
    s = Stage()
    n = s.add_container(s.root)
    n.scale_x, n.scale_y, n.rotation, n.x, n.y = 2, 3, 30, 5, 7
    sn, cs = math.sin(math.radians(30)), math.cos(math.radians(30))
    want = (2 * cs, 2 * sn, -3 * sn, 3 * cs, 5, 7)
    assert all(abs(g - w) < 1e-12 for g, w in zip(n.matrix, want)), n.matrix
    # A positive rotation turns clockwise on screen (y down): +x goes to +y.
    n.scale_x, n.rotation = 1, 90
    px, py = n.local_to_global(1, 0)
    assert abs(px - 5) < 1e-12 and abs(py - 8) < 1e-12


# ----- section 3: bounds -----


def flash_bounds_scene():
    s = Stage()
    root = s.root
    clip = s.add_container(root)
    clip.matrix = (1.414215, 1.414215, -1.414215, 1.414215, 149.95, 150)
    inner = s.add_container(clip)
    inner.matrix = (0.3535614, 0.3535614, -0.3535461, 0.3535614, 0, 0)
    s.add_graphic(inner, Path.rect(-50, -50, 100, 100))
    child = s.add_container(inner)
    child.matrix = (1, 2, 0, 1, 104.95, -112)
    s.add_graphic(child, Path.rect(0, 0, 50, 50))
    return s, root, clip, inner


def test_flash_bounds_example():
    s, root, clip, inner = flash_bounds_scene()
    assert_close(s.bounds(inner, root), (99.95, 100, 261.95, 304.95), 0.051, "bounds(inner, root)")
    assert_close(s.bounds(inner, clip), (-35.35, -57.25, 94.4, 72.5), 0.051, "bounds(inner, clip)")
    # Flash rounds the local box to twips before mapping it through clip's matrix: half a
    # twip on each coordinate, stretched by |a| + |c| = 2.83 (semantics.rs says why).
    assert_close(s.bounds(clip, root), (3.5, 50, 308.4, 354.9), 0.051 + 0.025 * 2.83, "bounds(clip, root)")
    # Without `space`, the root's.
    assert s.bounds(inner) == s.bounds(inner, root)


def test_curve_bounds_are_exact_not_control_points():
    s = Stage()
    n = s.add_container(s.root)
    s.add_graphic(n, "M0,0 Q10,20 20,0 Z")
    # The peak of the quadratic is at t = 1/2: y = 2 * (1/2)(1/2) * 20 = 10.
    assert_close(s.bounds(n, n), (0, 0, 20, 10), 1e-9, "quad")
    c = s.add_container(s.root)
    s.add_graphic(c, Path.circle(5, 5, 3))
    assert_close(s.bounds(c, c), (2, 2, 8, 8), 1e-9, "circle")


def test_stroke_bounds_grow_by_half_the_width_and_rect_ignores_them():
    s = Stage()
    root = s.root
    n = s.add_container(root)
    s.add_graphic(n, Path.rect(0, 0, 10, 10), stroke=4)
    n.set_transform(100, 50, 0, 2, 2)
    assert s.bounds(n, n) == (-2, -2, 14, 14)
    assert s.rect(n, n) == (0, 0, 10, 10)
    assert s.bounds(n, root) == (96, 46, 28, 28)
    assert s.rect(n, root) == (100, 50, 20, 20)
    # An open line: the box grows by half the width on every side.
    line = s.add_container(root)
    s.add_graphic(line, "M0 0 L10 0", stroke=2)
    assert s.bounds(line, line) == (-1, -1, 12, 2)
    assert s.rect(line, line) == (0, 0, 10, 0)
    # Turned a quarter, its exact box has the round caps at both ends.
    line.rotation = 90
    assert_close(s.tight_bounds(line, root), (-1, -1, 1, 11), 1e-12, "tight stroke")


def test_empty_objects_have_no_box():
    s = Stage()
    e = s.add_container(s.root)
    assert s.bounds(e) is None and s.tight_bounds(e) is None
    assert s.collision_rect(e, s.root, s.root) is None


# ----- section 4: collision_rect -----


@pytest.mark.parametrize("aa", [True, False])
@pytest.mark.parametrize("tol", [0, 1, 128, 254, 255])
def test_overlapping_squares(aa, tol):
    s = Stage()
    root = s.root
    a = rect_node(s, root, 0, 0, 10, 10)
    b = rect_node(s, root, 5, 3, 10, 10)
    want = (5, 3, 5, 7)
    assert s.collision_rect(a, b, root, False) == want
    c = s.collision(a, b, root, anti_alias=aa, tolerance=tol)
    assert (c.rect, c.overlap_pixels) == (want, 35)
    assert c
    # A query that is not precise has no pixel count.
    loose = s.collision(a, b, root, precise=False)
    assert (loose.rect, loose.overlap_pixels) == (want, None)


@pytest.mark.parametrize("x,y", [(10, 0), (0, 10), (10, 10), (-10, 3), (4, -10)])
def test_touching_squares_do_not_collide(x, y):
    s = Stage()
    root = s.root
    a = rect_node(s, root, 0, 0, 10, 10)
    b = rect_node(s, root, x, y, 10, 10)
    assert s.collision_rect(a, b, root, False) is None
    for aa in (True, False):
        c = s.collision(a, b, root, anti_alias=aa)
        assert (c.rect, c.overlap_pixels) == (None, 0)
        assert not c


@pytest.mark.parametrize("x,y,want", [(9, 9, (9, 9)), (-9, -9, (0, 0)), (9, -9, (9, 0)), (-9, 9, (0, 9))])
def test_squares_sharing_one_corner_pixel(x, y, want):
    # The one pixel is at the window's top-left corner for (9, 9): no special case there.
    s = Stage()
    root = s.root
    a = rect_node(s, root, 0, 0, 10, 10)
    b = rect_node(s, root, x, y, 10, 10)
    for aa in (True, False):
        for tol in (0, 255):
            c = s.collision(a, b, root, anti_alias=aa, tolerance=tol)
            assert c.rect == (want[0], want[1], 1, 1)
            assert c.overlap_pixels == 1


def test_fractional_overlap():
    s = Stage()
    root = s.root
    a = rect_node(s, root, 0, 0, 10, 10)
    b = rect_node(s, root, 5.25, 3.75, 10, 10)
    assert s.collision_rect(a, b, root, False) == (5.25, 3.75, 4.75, 6.25)
    # Anti-aliased at tolerance 255: column 5 (3/4 covered) and row 3 (1/4) show.
    c = s.collision(a, b, root)
    assert (c.rect, c.overlap_pixels) == ((5, 3, 5, 7), 5 * 7)
    # At tolerance 0 only fully covered pixels count.
    c = s.collision(a, b, root, tolerance=0)
    assert (c.rect, c.overlap_pixels) == ((6, 4, 4, 6), 4 * 6)
    # Without anti-aliasing the centre decides: 5.5 >= 5.25 is in, 3.5 < 3.75 is out.
    c = s.collision(a, b, root, anti_alias=False)
    assert (c.rect, c.overlap_pixels) == ((5, 4, 5, 6), 5 * 6)


def test_the_window_keeps_its_last_column():
    # Boxes meet over x 0.5..2.4: Flash's ceil(width) = 2 columns would drop column 2.
    s = Stage()
    root = s.root
    a = rect_node(s, root, 0.5, 0, 10, 10)
    b = rect_node(s, root, 0, 0, 2.4, 10)
    r = s.collision_rect(a, b, root, False)
    assert_close(r, (0.5, 0, 2.4, 10), 1e-12)
    c = s.collision(a, b, root)
    assert (c.rect, c.overlap_pixels) == ((0, 0, 3, 10), 30)


@pytest.mark.parametrize("aa", [True, False])
def test_alpha_and_tolerance(aa):
    s = Stage()
    root = s.root
    half = bitmap_node(s, root, flat_bitmap(4, 4, 128), 0, 0)
    clear = bitmap_node(s, root, flat_bitmap(4, 4, 0), 0, 0)
    solid = rect_node(s, root, -3, -3, 10, 10)
    whole = (0, 0, 4, 4)
    # Alpha 128 is solid when 128 >= 255 - tolerance.
    for tol, hit in [(255, True), (128, True), (127, True), (126, False), (0, False)]:
        c = s.collision(half, solid, root, anti_alias=aa, tolerance=tol)
        assert c.rect == (whole if hit else None), tol
        assert c.overlap_pixels == (16 if hit else 0), tol
    # Alpha 0 never counts, even at tolerance 255, but its box does.
    assert s.collision(clear, solid, root, anti_alias=aa).rect is None
    assert s.collision(clear, half, root, anti_alias=aa).rect is None
    assert s.collision_rect(clear, solid, root, False) == whole
    # A fill's own alpha works the same way: 0.2 * 255 = 51.
    faint = s.add_container(root)
    s.add_graphic(faint, Path.rect(0, 0, 4, 4), alpha=0.2)
    assert s.collision_rect(faint, solid, root, True, 204) == whole
    assert s.collision_rect(faint, solid, root, True, 203) is None


def test_hidden_descendants_have_no_pixels_and_hidden_targets_still_collide():
    s = Stage()
    root = s.root
    a = rect_node(s, root, 0, 0, 10, 10)
    b = s.add_container(root)
    left = rect_node(s, b, 0, 0, 5, 10)
    right = rect_node(s, b, 5, 0, 5, 10)
    right.visible = False
    c = s.collision(a, b, root)
    assert (c.rect, c.overlap_pixels) == ((0, 0, 5, 10), 50)
    # The target's own visibility is ignored (you asked about that object)...
    b.visible = False
    assert s.collision(a, b, root).overlap_pixels == 50
    assert not b.is_shown and left.visible
    # ...unless the query skips hidden targets, as games do.
    assert s.contacts_among([a, b], root) != []
    assert s.contacts_among([a, b], root, skip_hidden=True) == []


def test_alpha_multiplier_of_the_target_counts():
    s = Stage()
    root = s.root
    a = rect_node(s, root, 0, 0, 10, 10)
    b = rect_node(s, root, 0, 0, 10, 10)
    a.alpha = 0.5  # 127.5 -> 128
    whole = (0, 0, 10, 10)
    assert s.collision_rect(a, b, root, True, 255) == whole
    assert s.collision_rect(a, b, root, True, 128) == whole
    assert s.collision_rect(a, b, root, True, 126) is None


def test_targets_outside_the_parent_are_an_error():
    s = Stage()
    root = s.root
    p = s.add_container(root)
    a = rect_node(s, p, 0, 0, 10, 10)
    b = rect_node(s, root, 0, 0, 10, 10)
    with pytest.raises(pixelhit.PixelhitError, match="is not .* or one of its descendants") as e:
        s.collision_rect(a, b, p)
    assert e.value.kind == "NotDescendant"


# ----- section 5: point and object tests -----

OCTAGON = [(10, 0), (0, 10), (0, 20), (10, 30), (20, 30), (30, 20), (30, 10), (20, 0)]


@pytest.mark.parametrize("rule", ["nonzero", "evenodd"])
@pytest.mark.parametrize("reversed_", [False, True])
def test_octagon_boundary_points_follow_flash(rule, reversed_):
    s = Stage()
    o = s.add_container(s.root)
    pts = OCTAGON[::-1] if reversed_ else OCTAGON
    s.add_graphic(o, Graphic.fill(Path.polygon(pts), rule))
    o.set_position(10, 10)

    def hit(x, y):
        return s.hit_test_point(o, x, y, True)

    # In root space the octagon spans x 10..40, y 10..40: points on its top and right
    # edges are hits, points on its left and bottom edges are not.
    for t in (20.5, 25, 29.5):
        assert hit(t, 10), f"top edge ({t}, 10)"
        assert hit(40, t), f"right edge (40, {t})"
        assert not hit(10, t), f"left edge (10, {t})"
        assert not hit(t, 40), f"bottom edge ({t}, 40)"
    for x, y in [(25, 25), (11, 20), (39, 20), (25, 11), (25, 39), (20, 12)]:
        assert hit(x, y), (x, y)
    for x, y in [(5, 5), (45, 25), (25, 45), (9.9, 25), (11, 11), (39, 39), (12, 37)]:
        assert not hit(x, y), (x, y)


def test_hit_test_point_without_shape_flag_uses_bounds_edges_included():
    s = Stage()
    c = s.add_container(s.root)
    s.add_graphic(c, Path.circle(0, 0, 10))
    c.set_position(50, 50)
    for x, y in [(60, 60), (40, 40), (60, 50), (50, 40), (40, 60)]:
        assert s.hit_test_point(c, x, y), (x, y)
    for x, y in [(60.001, 50), (50, 39.999), (70, 70)]:
        assert not s.hit_test_point(c, x, y), (x, y)
    # With the shape flag the corners of the box are outside the circle.
    assert not s.hit_test_point(c, 60, 60, True)
    assert not s.hit_test_point(c, 41, 41, True)
    assert s.hit_test_point(c, 50, 50, True)
    assert s.hit_test_point(c, 57, 57, shape_flag=True)
    e = s.add_container(s.root)
    assert not s.hit_test_point(e, 0, 0) and not s.hit_test_point(e, 0, 0, True)


def test_strokes_are_hit_within_half_their_width():
    s = Stage()
    thick = s.add_container(s.root)
    s.add_graphic(thick, "M0 0 L100 0", stroke=10)
    assert s.hit_test_point(thick, 50, 4.9, True)
    assert s.hit_test_point(thick, 50, -4.9, True)
    assert not s.hit_test_point(thick, 50, 5.1, True)
    assert s.hit_test_point(thick, 104.9, 0, True)  # the round cap
    assert not s.hit_test_point(thick, 104, 4, True)


def test_bitmaps_are_hit_where_the_texel_shows():
    s = Stage()
    # Texels: (0, 0) opaque, (1, 0) clear, (0, 1) faint, (1, 1) clear.
    bm = pixelhit.Bitmap.from_rgba(2, 2, bytes([0, 0, 0, 255, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0]))
    n = bitmap_node(s, s.root, bm, 10, 20)

    def hit(x, y):
        return s.hit_test_point(n, x, y, True)

    assert hit(10.5, 20.5) and not hit(11.5, 20.5)
    assert hit(10.5, 21.5) and not hit(11.5, 21.5)
    assert not hit(9.5, 20.5) and not hit(10.5, 22.5)
    assert s.hit_test_point(n, 11.5, 21.5)  # its box, without the shape flag


def test_hit_test_object_uses_flash_boxes_edges_included():
    s = Stage()
    root = s.root
    a = rect_node(s, root, 0, 0, 10, 10)
    b = rect_node(s, root, 10, 10, 10, 10)  # touches a's corner
    c = rect_node(s, root, 5, 5, 10, 10)
    d = rect_node(s, root, 10.5, 0, 10, 10)
    assert s.hit_test_object(a, b) and s.hit_test_object(b, a)
    assert s.hit_test_object(a, c)
    assert not s.hit_test_object(a, d)


# ----- section 6: clipping -----


def test_scroll_rect_maps_points_as_flash_recorded():
    s = Stage()
    n = s.add_container(s.root)
    n.matrix = (1.3, 0.2, 0.1, 1.2, 40, 50)
    n.scroll_rect = (50, 60, 50, 100)
    gx, gy = n.local_to_global(10, 20)
    assert abs(gx + 16) < 1e-9 and abs(gy + 6) < 1e-9
    lx, ly = n.global_to_local(10, 20)
    assert math.hypot(lx - 28.6, ly - 38.6) < 0.051
    assert n.matrix[4:] == (40, 50)


def test_scroll_rect_edges_read_back_rounded_as_flash_recorded():
    s = Stage()
    n = s.add_container(s.root)
    for given, read in [
        ((0.2, 0.2, 0.3, 0.3), (0, 0, 0, 0)),
        ((1.2, 1.2, 0.3, 0.3), (1, 1, 1, 1)),
        ((2.2, 2.2, 0.3, 0.3), (2, 2, 0, 0)),
    ]:
        n.scroll_rect = given
        assert n.scroll_rect == read, given
    n.scroll_rect = None
    assert n.scroll_rect is None


def test_masks_clip_by_their_shape_not_their_box_and_are_never_hit():
    s = Stage()
    root = s.root
    portrait = rect_node(s, root, 0, 0, 100, 100)
    mask = s.add_container(root)
    s.add_graphic(mask, Path.circle(50, 50, 50))
    portrait.mask = mask
    assert portrait.mask == mask
    assert s.hit_test_point(portrait, 50, 50, True)
    assert not s.hit_test_point(portrait, 3, 3, True)
    assert s.hit_test_point(portrait, 3, 3, False)
    assert not s.hit_test_point(mask, 50, 50, True)
    probe = rect_node(s, root, -10, -10, 200, 200)
    n = s.collision(portrait, probe, root, tolerance=0).overlap_pixels
    area = math.pi * 50 * 50
    assert area - 2 * math.pi * 50 * 1.5 < n < area
    assert s.collision(mask, probe, root).rect is None
    portrait.mask = None
    assert s.hit_test_point(portrait, 3, 3, True)
    # The README's picking example (the probe, painted over everything, taken away).
    probe.remove()
    portrait.mask = mask
    assert s.pick(50, 50) == portrait
    assert s.pick(3, 3) is None


# ----- section 7: picking -----


def test_objects_under_point_as_flash_recorded():
    s = Stage()
    root = s.root

    def square(parent, name):
        n = rect_node(s, parent, 0, 0, 10, 10)
        n.name = name
        return n

    s1 = square(root, "s1")
    s3 = square(s1, "s3")
    s5 = square(s3, "s5")
    s2 = square(root, "s2")
    s4 = square(s2, "s4")
    square(root, "s6").visible = False
    s8 = s.add_container(root)
    s9 = square(s8, "s9")
    mask = square(root, "mask")
    masked = square(root, "masked")
    masked.mask = mask
    under = s.objects_under_point(root, 5, 5)
    assert [n.name for n in under] == ["s1", "s3", "s5", "s2", "s4", "s9", "masked"]
    assert under == [s1, s3, s5, s2, s4, s9, masked]
    assert s.objects_under_point(s1, 5, 5) == [s1, s3, s5]
    assert s.objects_under_point(root, 50, 5) == []


def test_picking_follows_the_flash_recording():
    s = Stage()
    root = s.root
    outer = rect_node(s, root, 0, 0, 200, 200)
    normal = s.add_container(outer)
    shape(s, normal, 0, 0, 100, 100)
    no_mouse1 = s.add_container(outer)
    no_mouse1.x = 10
    no_mouse1.mouse_enabled = False
    shape(s, no_mouse1, 0, 0, 30, 30)
    no_mouse2 = s.add_container(outer)
    no_mouse2.x = 60
    no_mouse2.mouse_enabled = False
    shape(s, no_mouse2, 0, 0, 30, 30)
    sub = s.add_container(no_mouse2)
    shape(s, sub, 0, 0, 20, 20)
    assert s.pick(22, 15) == normal
    assert s.pick(74, 15) == sub
    assert s.pick(46, 129) == outer
    assert s.pick(300, 300) is None


def test_rule_2_interactive_children_before_shapes_painted_over_them():
    s = Stage()
    panel = s.add_container(s.root)
    button = rect_node(s, panel, 0, 0, 50, 50)
    shape(s, panel, 0, 0, 50, 50)
    assert s.pick(10, 10) == button
    over = rect_node(s, panel, 0, 0, 20, 20)
    assert s.pick(10, 10) == over
    assert s.pick(30, 30) == button


def test_rule_3_a_hit_on_a_bitmap_makes_its_parent_the_target():
    s = Stage()
    holder = s.add_container(s.root)
    bm = s.add_bitmap(holder, pixelhit.Bitmap.from_rgba(2, 1, bytes([0, 0, 0, 255, 0, 0, 0, 0])))
    bm.scale_x = bm.scale_y = 10
    assert s.pick(5, 5) == holder
    # The transparent texel: not hit by alpha, hit by Flash's box.
    assert s.pick(15, 5) is None
    assert s.pick(15, 5, bitmap_hit="box") == holder
    # A Shape straight under the root: the root is never the target.
    shape(s, s.root, 100, 0, 10, 10)
    assert s.pick(105, 5) is None


def test_rules_4_and_5_mouse_enabled_and_mouse_children():
    s = Stage()
    root = s.root
    panel = s.add_container(root)
    below = rect_node(s, panel, 0, 0, 50, 50)
    disabled = rect_node(s, panel, 0, 0, 100, 100)
    disabled.mouse_enabled = False
    assert s.pick(10, 10) == below
    assert s.pick(80, 80) == panel
    panel.mouse_enabled = False
    assert s.pick(80, 80) is None
    panel.mouse_enabled = True
    panel.mouse_children = False
    assert s.pick(10, 10) == panel


# ----- the game-loop choices -----


def test_a_nodes_own_tolerance_overrides_the_querys():
    s = Stage()
    root = s.root
    ghost = s.add_container(root)
    s.add_graphic(ghost, Path.rect(0, 0, 10, 10), alpha=0.5)
    wall = s.add_container(root)
    s.add_graphic(wall, Path.rect(5, 0, 10, 10))
    assert s.collision(ghost, wall, root).rect is not None
    ghost.tolerance = 0
    assert s.collision(ghost, wall, root).rect is None
    assert s.contacts_among([ghost, wall], root) == []


def test_contacts_between_orders_and_never_pairs_a_group_with_itself():
    s = Stage()
    root = s.root

    def add(x):
        n = s.add_container(root)
        s.add_graphic(n, Path.circle(0, 0, 5))
        n.x = x
        return n

    bullets = [add(0), add(4)]
    enemies = [add(10)]
    hits = s.contacts_between(bullets, enemies, root)
    assert len(hits) == 1
    assert hits[0].a is bullets[1] and hits[0].b is enemies[0]


def test_pivot_example_of_the_front_page():
    s = Stage()
    ship = s.add_container(s.root)
    art = s.add_bitmap(ship, pixelhit.Bitmap.from_rgba(32, 16, bytes([255]) * (32 * 16 * 4)))
    art.set_position(-16, -8)
    ship.set_transform(100, 100, 90, 1, 1)
    assert s.bounds(ship, s.root) == (92, 84, 16, 32)
