"""`pixelhit.pygame.World` against pygame itself on the sprites as the game draws them: random
art (soft edges, holes, thin bars, colour keys), angles and scales, every answer compared with
`pygame.sprite.collide_mask` (touching or not, and the point), `spritecollide` and
`groupcollide` (one group twice included) on masks pygame builds from the drawn surfaces.

transform="none" is the game turning its images itself; "rotate" and "rotozoom" are pixelhit
sampling pygame's renderer (semantics 4.9). On a pixelhit built without that sampling the
turning worlds must refuse to be made, which is checked instead."""

import random

import pygame
import pytest

import pixelhit
import pixelhit.pygame as php

HAS_RENDERER = hasattr(pixelhit.Node, "set_pygame_transform") and hasattr(pixelhit._pixelhit, "pygame_output_size")


def art(rng):
    """A random Surface: per-pixel alpha with soft edges and holes, thin bars, or a colour key."""
    w, h = rng.randrange(1, 40), rng.randrange(1, 40)
    kind = rng.randrange(3)
    if kind == 2:
        s = pygame.Surface((w, h))
        s.fill((255, 0, 255))
        for _ in range(rng.randrange(1, 4)):
            pygame.draw.rect(s, (30, 200, 30), (rng.randrange(w), rng.randrange(h), rng.randrange(1, 12), rng.randrange(1, 12)))
        s.set_colorkey((255, 0, 255))
        return s
    s = pygame.Surface((w, h), pygame.SRCALPHA)
    for _ in range(rng.randrange(1, 5)):
        a = rng.choice([255, 200, 128, 127, 126, 60, 1])
        if kind == 0:
            pygame.draw.circle(s, (200, 90, 40, a), (rng.uniform(0, w), rng.uniform(0, h)), rng.uniform(1, max(w, h) / 2 + 1))
        else:  # thin bars
            x = rng.randrange(w)
            pygame.draw.line(s, (90, 90, 200, a), (x, 0), (x, h - 1))
            y = rng.randrange(h)
            pygame.draw.line(s, (90, 90, 200, a), (0, y), (w - 1, y))
    pygame.draw.circle(s, (0, 0, 0, 0), (rng.uniform(0, w), rng.uniform(0, h)), rng.uniform(0.5, 4))
    return s


class Rock(pygame.sprite.Sprite):
    """A sprite drawn the usual way: `image` is what is blitted at `rect.topleft`, made from
    `original` by the game's transform."""

    def __init__(self, original, transform, angle, scale, topleft):
        super().__init__()
        self.original, self.angle, self.scale, self.transform = original, angle, scale, transform
        if transform == "rotate":
            self.image = pygame.transform.rotate(original, angle)
        elif transform == "rotozoom":
            self.image = pygame.transform.rotozoom(original, angle, scale)
        else:
            self.image = original
        self.rect = self.image.get_rect(topleft=topleft)
        self.mask = None

    def drawn_mask(self, threshold):
        self.mask = pygame.mask.from_surface(self.image, threshold)


def world_for(transform, threshold):
    if transform == "none":
        return php.World(threshold=threshold)
    if transform == "rotate":
        return php.World(threshold=threshold, image="original", angle="angle", transform="rotate")
    return php.World(threshold=threshold, image="original", angle="angle", scale="scale", transform="rotozoom")


def rocks(rng, transform, n, shared, area):
    out = []
    for _ in range(n):
        angle = rng.choice([0, 90, -90, 180, 270, 360, 450, -720, 89.5, 90.25, rng.uniform(-400, 400)])
        scale = rng.choice([1.0, 0.5, 2.0, rng.uniform(0.1, 3.0)])
        g = Rock(rng.choice(shared), transform, angle, scale, (rng.randrange(-10, area), rng.randrange(-10, area)))
        out.append(g)
    return out


@pytest.mark.parametrize("transform", ["none", "rotate", "rotozoom"])
def test_world_equals_pygame_on_the_drawn_sprites(transform):
    if transform != "none" and not HAS_RENDERER:
        with pytest.raises(pixelhit.ArgumentError, match="renderer"):
            world_for(transform, 127)
        return
    rng = random.Random(f"exact-{transform}")
    touching = compared = 0
    for round_ in range(40):
        threshold = rng.choice([0, 1, 127, 200, 254])
        world = world_for(transform, threshold)
        shared = [art(rng) for _ in range(4)]
        sprites = rocks(rng, transform, 14, shared, 50)
        for s in sprites:
            s.drawn_mask(threshold)
        a, b = pygame.sprite.Group(sprites[:7]), pygame.sprite.Group(sprites[7:])
        for left in sprites[:7]:
            for right in sprites:
                want = pygame.sprite.collide_mask(left, right)
                assert world.collide_mask(left, right) == want, (transform, round_, left.rect, right.rect)
                touching += want is not None
                compared += 1
        assert world.spritecollide(sprites[0], a) == pygame.sprite.spritecollide(sprites[0], a, False, pygame.sprite.collide_mask)
        assert world.spritecollide(sprites[1], b) == pygame.sprite.spritecollide(sprites[1], b, False, pygame.sprite.collide_mask)
        want_ab = pygame.sprite.groupcollide(a, b, False, False, pygame.sprite.collide_mask)
        got_ab = world.groupcollide(a, b)
        assert got_ab == want_ab and list(got_ab) == list(want_ab)
        everyone = pygame.sprite.Group(sprites)
        want_self = pygame.sprite.groupcollide(everyone, everyone, False, False, pygame.sprite.collide_mask)
        got_self = world.groupcollide(everyone, everyone)
        assert got_self == want_self and list(got_self) == list(want_self)
        pairs = [(x, y) for i, x in enumerate(sprites) for y in sprites[i + 1 :] if pygame.sprite.collide_mask(x, y)]
        assert world.among(sprites) == pairs
    assert compared == 40 * 7 * 14
    assert touching > compared // 10  # the random scenes are not trivially apart


@pytest.mark.parametrize("dokilla,dokillb", [(True, False), (False, True), (True, True)])
def test_groupcollide_kills_as_pygame_does_with_one_group_twice(dokilla, dokillb):
    rng = random.Random(f"kill-{dokilla}-{dokillb}")
    for _ in range(10):
        shared = [art(rng) for _ in range(3)]
        mine = rocks(rng, "none", 12, shared, 30)
        theirs = [Rock(s.original, "none", 0, 1, s.rect.topleft) for s in mine]
        twin = dict(zip(theirs, mine))
        g_mine, g_theirs = pygame.sprite.Group(mine), pygame.sprite.Group(theirs)
        for s in theirs:
            s.drawn_mask(127)
        want = pygame.sprite.groupcollide(g_theirs, g_theirs, dokilla, dokillb, pygame.sprite.collide_mask)
        got = php.World().groupcollide(g_mine, g_mine, dokilla, dokillb)
        assert got == {twin[k]: [twin[v] for v in vs] for k, vs in want.items()}
        assert [s.alive() for s in mine] == [s.alive() for s in theirs]
