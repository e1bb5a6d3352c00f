"""`pixelhit.pygame` against pygame's own `collide_mask`, `spritecollide` and `groupcollide`
(sprites blitted as they are), its errors, its costs (counted), and issue 28's reproducers."""

import random

import pygame
import pytest

import pixelhit
import pixelhit.pygame as php


def blob(rng, w, h, soft=True):
    """An RGBA surface with a random blob, holes, and alpha levels around 127."""
    s = pygame.Surface((w, h), pygame.SRCALPHA)
    for _ in range(rng.randrange(2, 6)):
        a = rng.choice([255, 200, 128, 127, 60, 1]) if soft else 255
        pygame.draw.circle(s, (200, 90, 40, a), (rng.uniform(0, w), rng.uniform(0, h)), rng.uniform(2, max(w, h) / 2))
    pygame.draw.circle(s, (0, 0, 0, 0), (rng.uniform(0, w), rng.uniform(0, h)), rng.uniform(1, 4))
    return s


class Thing(pygame.sprite.Sprite):
    def __init__(self, image, x, y, angle=0.0):
        super().__init__()
        self.original = image
        self.angle = angle
        self.image = pygame.transform.rotate(image, angle) if angle else image
        self.rect = self.image.get_rect(topleft=(x, y))
        self.mask = None

    def make_mask(self, threshold):
        self.mask = pygame.mask.from_surface(self.image, threshold)


def things(rng, n, soft=True, area=60):
    return [Thing(blob(rng, rng.randrange(3, 24), rng.randrange(3, 24), soft), rng.randrange(area), rng.randrange(area)) for _ in range(n)]


@pytest.mark.parametrize("threshold", [0, 1, 60, 127, 128, 200, 254, 255])
def test_collide_mask_equals_pygame_for_whole_pixel_sprites(threshold):
    rng = random.Random(threshold)
    world = php.World(threshold=threshold)
    pairs = agree_hits = 0
    for _ in range(60):
        a, b = things(rng, 2, area=24)
        for t in (a, b):
            t.make_mask(threshold)
        want = pygame.sprite.collide_mask(a, b)
        got = world.collide_mask(a, b)
        assert got == want, (threshold, a.rect, b.rect, got, want)  # the point pygame finds
        agree_hits += got is not None
        pairs += 1
        world.remove(a, b)
    assert pairs == 60
    if threshold < 255:
        assert agree_hits >= 1


def test_spritecollide_and_groupcollide_equal_pygame_and_kill():
    rng = random.Random(3)
    for round_ in range(15):
        world = php.World()
        ship = things(rng, 1, area=40)[0]
        rocks = pygame.sprite.Group(things(rng, 12, area=40))
        bullets = pygame.sprite.Group(things(rng, 8, area=40))
        for t in [ship, *rocks, *bullets]:
            t.make_mask(127)
        want = pygame.sprite.spritecollide(ship, rocks, False, pygame.sprite.collide_mask)
        assert world.spritecollide(ship, rocks) == want
        want_groups = pygame.sprite.groupcollide(bullets, rocks, False, False, pygame.sprite.collide_mask)
        got_groups = world.groupcollide(bullets, rocks)
        assert got_groups == want_groups
        assert list(got_groups) == list(want_groups)  # groupa's order
        # pygame's own calls take the world's collide_mask as their `collided`.
        assert pygame.sprite.spritecollide(ship, rocks, False, world.collide_mask) == want
        # dokill: killed sprites leave their groups and the stage.
        hit = world.spritecollide(ship, rocks, True)
        assert hit == want
        assert all(not s.alive() and s not in world for s in hit)
        assert world.spritecollide(ship, rocks) == []
        # A sprite the game kills itself is taken off a few calls later (each call looks
        # at as many sprites as it asks about, plus one).
        survivors = list(rocks)
        if survivors:
            victim = survivors[0]
            victim.kill()
            held = len(world)
            for _ in range(held):
                world.collide_mask(ship, ship)
            assert victim not in world and len(world) < held


def test_collidepoint_equals_pygame_mask_for_unrotated_sprites():
    rng = random.Random(4)
    world = php.World()
    for _ in range(20):
        t = things(rng, 1)[0]
        t.make_mask(127)
        for _ in range(100):
            p = (t.rect.x + rng.randrange(-2, t.rect.w + 2), t.rect.y + rng.randrange(-2, t.rect.h + 2))
            inside = t.rect.collidepoint(p) and t.mask.get_at((p[0] - t.rect.x, p[1] - t.rect.y))
            assert world.collidepoint(t, p) == bool(inside)


def test_sprite_data_and_sprite_at():
    rng = random.Random(5)
    world = php.World()
    a, b = things(rng, 2, soft=False)
    b.rect.topleft = a.rect.topleft
    node = world.add(a)
    world.add(b)
    assert node.data is a and world.node(b).data is b
    hits = [p for p in ((a.rect.x + i, a.rect.y + j) for i in range(20) for j in range(20)) if world.collidepoint(b, p)]
    for p in hits:
        assert world.sprite_at(p, [a, b]) is b  # the last in the group is drawn on top
    assert world.sprite_at((-100, -100), [a, b]) is None


def test_thresholds_are_checked():
    with pytest.raises(pixelhit.ArgumentError):
        php.World(threshold=256)
    with pytest.raises(pixelhit.ArgumentError):
        php.tolerance_for(-1)
    assert php.tolerance_for(127) == 127 and php.tolerance_for(0) == 254 and php.tolerance_for(255) is None


class Counted(pygame.sprite.Sprite):
    """A sprite that counts how often its `rect` is read: the work a call does per sprite."""

    reads = 0

    def __init__(self, image, x, y):
        super().__init__()
        self.image = image
        self._rect = image.get_rect(topleft=(x, y))

    @property
    def rect(self):
        Counted.reads += 1
        return self._rect


def test_issue28_ghost_threshold_in_collidepoint_and_sprite_at():
    """Issue 28 class 7: a ghost added with threshold=200 whose alpha is 150 is not hit by
    `collidepoint` or `sprite_at`, as a mask made with its threshold would say; with the
    query's 127 a sprite of the same alpha is."""
    surf = pygame.Surface((10, 10), pygame.SRCALPHA)
    surf.fill((255, 255, 255, 150))
    ghost, solid = Thing(surf, 0, 0), Thing(surf.copy(), 20, 0)
    world = php.World()
    world.add(ghost, threshold=200)
    assert not world.collidepoint(ghost, (5, 5))
    assert world.sprite_at((5, 5), [ghost]) is None
    assert world.collidepoint(solid, (25, 5)) and world.sprite_at((25, 5), [ghost, solid]) is solid
    # The same in the collision calls: the ghost touches nothing, even itself.
    solid.rect.topleft = (3, 3)
    assert world.collide_mask(ghost, solid) is None and world.collide_mask(solid, ghost) is None
    assert world.spritecollide(ghost, [ghost, solid]) == [] and world.among([ghost, solid]) == []
    # pygame's own masks with the ghost's threshold agree.
    gm = pygame.mask.from_surface(ghost.image, 200)
    assert gm.count() == 0
    world.add(ghost, threshold=100)  # a threshold of its own can be changed
    assert world.collidepoint(ghost, (5, 5)) and world.spritecollide(ghost, [ghost, solid]) == [ghost, solid]


def test_issue28_sprite_in_its_own_group_is_one_pass():
    """Issue 28 class 8: `spritecollide(player, all_sprites)` with 1,000 coins and a 400 px
    player. Counted, not timed: each sprite's rect is read once, and the player's first
    solid pixel comes from one mask of its own alpha plane, not a call per pixel."""
    rng = random.Random(28)
    coin = pygame.Surface((6, 6), pygame.SRCALPHA)
    pygame.draw.circle(coin, (255, 200, 0, 255), (3, 3), 3)
    player_img = pygame.Surface((400, 400), pygame.SRCALPHA)
    pygame.draw.circle(player_img, (0, 0, 255, 255), (200, 399), 3)  # solid only at the bottom
    everyone = pygame.sprite.Group()
    player = Counted(player_img, 0, 0)
    coins = [Counted(coin, rng.randrange(-10, 1000), rng.randrange(-10, 1000)) for _ in range(1000)]
    everyone.add(player, *coins)
    world = php.World()
    masks = []
    real = pygame.mask.from_surface
    try:
        pygame.mask.from_surface = lambda *a, **k: masks.append(a) or real(*a, **k)
        Counted.reads = 0
        got = world.spritecollide(player, everyone)
        assert Counted.reads == 1001  # each sprite read once
        assert len(masks) == 1  # the player against itself: one pass
    finally:
        pygame.mask.from_surface = real
    for s in everyone:
        s.mask = pygame.mask.from_surface(s.image)
    want = pygame.sprite.spritecollide(player, everyone, False, pygame.sprite.collide_mask)
    assert got == want and player in got


def test_a_call_reads_only_the_sprites_it_asks_about():
    """A World holding 2,000 sprites: a call about two reads two rects, and pygame's own
    `spritecollide` with the world's `collide_mask` reads each pair once."""
    rng = random.Random(9)
    img = blob(rng, 12, 12)
    many = [Counted(img, rng.randrange(500), rng.randrange(500)) for _ in range(2000)]
    world = php.World()
    world.among(many)  # every sprite on the stage
    a, b = many[0], many[1]
    Counted.reads = 0
    world.collide_mask(a, b)
    assert Counted.reads == 2
    Counted.reads = 0
    world.spritecollide(a, many[:10])
    assert Counted.reads == 10
    assert len(world._arts) == 1  # 2,000 sprites showing one Surface share one bitmap


def test_errors_name_the_sprite_in_pygames_words():
    rng = random.Random(10)
    t = Thing(blob(rng, 10, 10), 0, 0)
    world = php.World()
    # An image turned twice: the rect is not the size of what the game says it blits.
    t.rect.size = (14, 14)
    with pytest.raises(pixelhit.ArgumentError, match=r"rect is 14x14, but its image, blitted as it is .*, is 10x10") as e:
        world.collide_mask(t, t)
    assert repr(t) in str(e.value)
    t.rect.size = (10, 10)
    with pytest.raises(pixelhit.ArgumentError, match="no attribute 'art'"):
        php.World(image="art").spritecollide(t, [t])
    t.original = "a picture"
    with pytest.raises(pixelhit.ArgumentError, match="its original is 'a picture', not a pygame Surface"):
        php.World(image="original").spritecollide(t, [t])
    # Turned art whose rect was not updated: the refusal names the call the World expects.
    t.original, t.angle, t.zoom = blob(rng, 10, 10), 30, 1.5
    turner = php.World(image="original", angle="angle", transform="rotate")
    w, h = pygame.transform.rotate(t.original, 30).get_size()
    with pytest.raises(pixelhit.ArgumentError, match=rf"rect is 10x10, but pygame\.transform\.rotate\(original, angle=30\) of its 10x10 original is {w}x{h}"):
        turner.collide_mask(t, t)
    zoomer = php.World(image="original", angle="angle", scale="zoom", transform="rotozoom")
    w, h = pygame.transform.rotozoom(t.original, 30, 1.5).get_size()
    with pytest.raises(pixelhit.ArgumentError, match=rf"rotozoom\(original, angle=30, zoom=1\.5\) of its 10x10 original is {w}x{h}"):
        zoomer.collide_mask(t, t)
    # A rect-like whose corner is not a pixel pygame can blit at.
    import types

    for corner in (float("inf"), float("nan"), 2**31, -(2**40), 10**400, 0.5, "3"):
        t.rect = types.SimpleNamespace(x=corner, y=0, width=10, height=10)
        with pytest.raises(pixelhit.ArgumentError, match="is not a whole pixel"):
            world.collide_mask(t, t)
    t.rect = pygame.Rect(2**31 - 11, 0, 10, 10)  # the last whole pixels pygame's ints hold
    far = world.collide_mask(t, t)
    t.rect = pygame.Rect(0, 0, 10, 10)
    assert world.collide_mask(t, t) == far  # relative to the rect: the same point
    for bad in (float("nan"), float("inf"), "30", True, 2**2000):
        t.angle = bad
        with pytest.raises(pixelhit.ArgumentError, match=r"its angle is .*, not a finite number"):
            turner.collide_mask(t, t)
    with pytest.raises(pixelhit.ArgumentError, match="angle"):
        php.World(angle="angle")  # "none" blits the image as it is: an angle would be ignored
    with pytest.raises(pixelhit.ArgumentError, match="transform"):
        php.World(transform="spin")
    with pytest.raises(pixelhit.ArgumentError, match="needs angle"):
        php.World(transform="rotate", image="original")
    with pytest.raises(pixelhit.ArgumentError, match="pos"):
        world.collidepoint(Thing(blob(rng, 4, 4), 0, 0), (1.5, 2))


def test_among_is_every_touching_pair_once():
    rng = random.Random(11)
    for _ in range(10):
        group = things(rng, 15, area=40)
        for t in group:
            t.make_mask(127)
        want = [(a, b) for i, a in enumerate(group) for b in group[i + 1 :] if pygame.sprite.collide_mask(a, b)]
        assert php.World().among(group) == want


def test_among_with_thresholds_of_their_own_equals_pygame():
    """Sprites added with a threshold of their own (255: nothing solid) among others that
    take the call's threshold: `among` gives the pairs pygame's `collide_mask` gives on masks
    made with each sprite's threshold, before and after a move."""
    rng = random.Random(29)
    world = php.World()
    seen = set()
    for round_ in range(12):
        group = things(rng, 14, area=36)
        call = rng.choice([None, 0, 60, 127, 200, 255])
        for t in group:
            own = rng.choice([None, None, 0, 127, 200, 255])
            world.add(t, threshold=own)
            t.make_mask(own if own is not None else (php.DEFAULT_THRESHOLD if call is None else call))
        for _ in range(2):
            want = [(a, b) for i, a in enumerate(group) for b in group[i + 1 :] if pygame.sprite.collide_mask(a, b)]
            assert world.among(group, threshold=call) == want, (round_, call)
            seen.add(bool(want))
            for t in group:
                t.rect.move_ip(rng.randrange(-2, 3), rng.randrange(-2, 3))
        world.remove(*group)
    assert seen == {True, False}
