"""`pixelhit.pygame` against pixelhit's core calls (rotated, fractional poses) and against
pygame's own `collide_mask`, `spritecollide` and `groupcollide` (whole-pixel, unrotated
sprites, where pygame can answer)."""

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
        assert (got is None) == (want is None), (threshold, a.rect, b.rect, got, want)
        if got is not None:
            # A pixel solid in both pygame masks (pygame's scan order is its own).
            x, y = got
            assert a.mask.get_at((x, y))
            bx, by = x + a.rect.x - b.rect.x, y + a.rect.y - b.rect.y
            assert b.mask.get_at((bx, by))
            agree_hits += 1
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
        # A sprite the game kills itself is taken off at the next query.
        survivors = list(rocks)
        if survivors:
            victim = survivors[0]
            victim.kill()
            world.spritecollide(ship, rocks)
            assert victim not in world


def test_turning_sprites_equal_the_core_calls():
    """Rotated sprites at fractional centres: the module's answers are the core stage's,
    asked by hand with two nodes per sprite (a pivot and its art) and tolerance 254 - T."""
    rng = random.Random(8)
    world = php.World(threshold=100)
    core = pixelhit.Stage()
    space = core.add_container(core.root)
    group = pygame.sprite.Group()
    nodes = {}
    for i in range(25):
        img = blob(rng, rng.randrange(6, 30), rng.randrange(6, 30))
        t = Thing(img, 0, 0)
        t.rect = pygame.FRect(0, 0, *img.get_size()) if hasattr(pygame, "FRect") else img.get_rect()
        cx, cy = rng.uniform(0, 80), rng.uniform(0, 80)
        t.angle = rng.uniform(-180, 180)
        t.rect.center = (cx, cy)
        group.add(t)
        world.add(t, img)
        pivot = core.add_container(space)
        art = core.add_bitmap(pivot, pixelhit.Bitmap.from_surface(img))
        art.set_position(-img.get_width() / 2, -img.get_height() / 2)
        r = t.rect
        pivot.set_transform(r.x + r.width / 2, r.y + r.height / 2, -t.angle)
        nodes[t] = pivot
    sprites = list(group)
    for s in sprites[:8]:
        got = world.spritecollide(s, group)
        others = [o for o in sprites if o is not s]
        contacts = core.contacts_against(nodes[s], [nodes[o] for o in others], space, tolerance=154)
        want = [o for o in others if nodes[o] in {c.b for c in contacts}]
        assert [o for o in got if o is not s] == want
    # collidepoint: the shape at a pixel, against the core's pick with min_alpha = T + 1.
    checked = 0
    for s in sprites[:6]:
        solo = pixelhit.Stage()
        pivot = solo.add_container(solo.root)
        art = solo.add_bitmap(pivot, pixelhit.Bitmap.from_surface(s.original))
        art.set_position(-s.original.get_width() / 2, -s.original.get_height() / 2)
        art.interactive = False
        r = s.rect
        pivot.set_transform(r.x + r.width / 2, r.y + r.height / 2, -s.angle)
        for _ in range(150):
            p = (int(r.x) + rng.randrange(-3, int(r.width) + 3), int(r.y) + rng.randrange(-3, int(r.height) + 3))
            want = solo.pick(p[0] + 0.5, p[1] + 0.5, min_alpha=101) == pivot
            assert world.collidepoint(s, p) == want, (p, s.angle)
            checked += want
    assert checked > 20


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
        assert world.sprite_at(p) is b  # the last added is on top
    assert world.sprite_at((-100, -100)) is None


def test_thresholds_are_checked():
    with pytest.raises(pixelhit.ArgumentError):
        php.World(threshold=256)
    with pytest.raises(pixelhit.ArgumentError):
        php.tolerance_for(-1)
    assert php.tolerance_for(127) == 127 and php.tolerance_for(0) == 254 and php.tolerance_for(255) is None
