"""One `pixelhit.pygame.World` over many frames of a game, against pygame on the sprites as
drawn each frame: the World keeps what it worked out for a sprite (its node's pose and
renderer, the size of the drawn surface) while the sprite's pose is unchanged, so every way a
sprite can change between frames must be seen the next frame, never a stale answer. Each
frame every sprite does one of: nothing (the same pose exactly), a move, a turn, a new scale,
a move and a turn, another shared Surface (rect updated), a new Surface object with the same
pixels, new pixels in a new Surface of another size; and now and then one gets an image
without its rect being updated, which must be refused (naming the sprite) and answered
right once the game mends it."""

import random

import pygame
import pytest

import pixelhit
import pixelhit.pygame as php

from test_pygame_world_exact import HAS_RENDERER, art
from test_pygame_world_read import Rock, world_for

TRANSFORMS = ["none"] + (["rotate", "rotozoom"] if HAS_RENDERER else [])


def rock(original, transform, angle, scale, topleft):
    """A sprite drawn the usual way: `image`, blitted at `rect.topleft`, made from
    `original` by the game's transform (no `mask`: pygame's `collide_mask` makes one from
    `image`)."""
    r = Rock(original, transform)
    r.angle, r.scale = angle, scale
    r.draw(topleft)
    return r


def drawn_pairs(sprites):
    """Every touching pair, from pygame's masks of the surfaces drawn this frame."""
    masks = [pygame.mask.from_surface(s.image) for s in sprites]
    return [
        (a, b)
        for i, a in enumerate(sprites)
        for j, b in enumerate(sprites[i + 1 :], i + 1)
        if masks[i].overlap(masks[j], (b.rect.x - a.rect.x, b.rect.y - a.rect.y))
    ]


def some_art(rng, transform):
    """`art`, redrawn while pixelhit would not sample it (a colour key under `rotozoom` is
    read from pygame's drawn surface by the Python read, every call: tested elsewhere)."""
    while True:
        a = art(rng)
        if transform != "rotozoom" or a.get_colorkey() is None:
            return a


def change(rng, rock, shared):
    """One frame's change of a sprite; the kinds a World could miss are all here."""
    x, y = rock.rect.topleft
    # A new image sends the whole call to the Python read: rarer, so that most frames are
    # read by the fast one.
    kind = rng.randrange(5) if rng.random() < 0.95 else rng.randrange(5, 8)
    if kind == 1:
        x, y = x + rng.randrange(-3, 4), y + rng.randrange(-3, 4)
    elif kind == 2:
        rock.angle += rng.choice([0.5, -7.0, 90.0, rng.uniform(-30, 30)])
    elif kind == 3:
        rock.scale = rng.choice([0.5, 1.0, 1.5, rng.uniform(0.3, 2.0)])
    elif kind == 4:
        x, rock.angle = x + 1, rock.angle + 1.0
    elif kind == 5:
        rock.original = rng.choice(shared)
    elif kind == 6:
        rock.original = rock.original.copy()  # the same pixels, another Surface
    elif kind == 7:
        rock.original = some_art(rng, rock.transform)  # new pixels, most likely another size
    rock.draw((x, y))


class Counting:
    """`World.among`'s fast read, counting the calls it answered."""

    def __init__(self, real):
        self.real, self.answered = real, 0

    def __call__(self, *args):
        out = self.real(*args)
        self.answered += out is not None
        return out


@pytest.mark.parametrize("transform", TRANSFORMS)
def test_every_change_between_frames_is_seen_the_next_frame(transform, monkeypatch):
    fast = Counting(php._read_pairs_among)
    monkeypatch.setattr(php, "_read_pairs_among", fast)
    rng = random.Random(f"frames-{transform}")
    shared = [some_art(rng, transform) for _ in range(4)]
    world = world_for(transform)
    sprites = [
        rock(rng.choice(shared), transform, rng.uniform(0, 360), rng.choice([0.75, 1.0, 1.25]), (rng.randrange(40), rng.randrange(40)))
        for _ in range(10)
    ]
    group_a, group_b = pygame.sprite.Group(sprites[:5]), pygame.sprite.Group(sprites[5:])
    touching = refused = 0
    for frame in range(150):
        for s in sprites:
            change(rng, s, shared)
        if frame % 10 == 9:
            # A new image whose rect the game forgot to update: refused, naming the sprite.
            bad = rng.choice(sprites)
            while True:
                other = some_art(rng, transform)
                if other.get_size() != bad.original.get_size():
                    break
            bad.original = other
            if transform == "none" or bad.image.get_size() != rock(other, transform, bad.angle, bad.scale, (0, 0)).rect.size:
                with pytest.raises(pixelhit.ArgumentError, match="rect"):
                    world.among(sprites)
                refused += 1
            bad.draw(bad.rect.topleft)
        want = drawn_pairs(sprites)
        assert world.among(sprites) == want, frame
        touching += len(want)
        # The point pygame's overlap finds moves with the smallest change of a picture.
        for i, left in enumerate(sprites):
            for right in sprites[i + 1 :]:
                assert world.collide_mask(left, right) == pygame.sprite.collide_mask(left, right), (frame, i)
        want_ab = pygame.sprite.groupcollide(group_a, group_b, False, False, pygame.sprite.collide_mask)
        got_ab = world.groupcollide(group_a, group_b)
        assert got_ab == want_ab and list(got_ab) == list(want_ab), frame
    assert touching > 75 and refused >= 10, (touching, refused)
    assert fast.answered > 50, fast.answered
