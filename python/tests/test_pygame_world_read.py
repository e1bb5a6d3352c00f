"""`pixelhit.pygame.World`'s read of its sprites: the common case is read in Rust
(`_pixelhit._read_posed_sprites`), anything else by the Python read. Over random games (moves,
turns, new art, shared and unsampled art, killed and new sprites, repeated sprites in one
call, and bad values of every kind) a World reading the fast way and one always reading the
Python way must give the same reads, the same errors, the same poses on their nodes and the
same answers; and the fast way must be the one taken on ordinary frames."""

import random
import types

import numpy as np
import pygame
import pytest

import pixelhit
import pixelhit.pygame as php

HAS_RENDERER = hasattr(pixelhit.Node, "set_pygame_transform") and hasattr(pixelhit._pixelhit, "pygame_output_size")
TRANSFORMS = ["none"] + (["rotate", "rotozoom"] if HAS_RENDERER else [])


def art(rng):
    """Per-pixel alpha (sampled by every transform), a colour key (not sampled by
    `rotozoom`), or neither (never sampled when turned)."""
    w, h = rng.randrange(1, 24), rng.randrange(1, 24)
    kind = rng.randrange(4)
    if kind == 3:
        s = pygame.Surface((w, h))
        s.fill((20, 120, 20))
        return s
    if kind == 2:
        s = pygame.Surface((w, h))
        s.fill((255, 0, 255))
        pygame.draw.rect(s, (30, 200, 30), (rng.randrange(w), rng.randrange(h), rng.randrange(1, 9), rng.randrange(1, 9)))
        s.set_colorkey((255, 0, 255))
        return s
    s = pygame.Surface((w, h), pygame.SRCALPHA)
    for _ in range(rng.randrange(1, 4)):
        pygame.draw.circle(s, (200, 90, 40, rng.choice([255, 128, 127, 1])), (rng.uniform(0, w), rng.uniform(0, h)), rng.uniform(1, max(w, h) / 2 + 1))
    return s


class Rock(pygame.sprite.Sprite):
    def __init__(self, original, transform):
        super().__init__()
        self.original, self.transform = original, transform
        self.angle, self.scale = 0.0, 1.0
        self.draw((0, 0))

    def draw(self, topleft):
        if self.transform == "rotate":
            self.image = pygame.transform.rotate(self.original, self.angle)
        elif self.transform == "rotozoom":
            self.image = pygame.transform.rotozoom(self.original, self.angle, self.scale)
        else:
            self.image = self.original
        self.rect = self.image.get_rect(topleft=topleft)


def world_for(transform):
    if transform == "none":
        return php.World(image="original")
    if transform == "rotate":
        return php.World(image="original", angle="angle", transform="rotate")
    return php.World(image="original", angle="angle", scale="scale", transform="rotozoom")


class Counting:
    """A fast read (`_read_posed_sprites`, `_read_pairs_among`) counting the calls it
    answered, or refusing every call."""

    def __init__(self, real, refuse):
        self.real, self.refuse, self.answered = real, refuse, 0

    def __call__(self, *args):
        if self.refuse:
            return None
        out = self.real(*args)
        self.answered += out is not None
        return out


def readers(refuse):
    """The fast reads of a World, answering or refusing: `_read_posed_sprites` and
    `World.among`'s `_read_pairs_among`."""
    return Counting(php._read_posed_sprites, refuse), Counting(php._read_pairs_among, refuse)


def outcome(world, reader, call):
    """What a call gives (or raises), and then the state of every sprite's entry and node."""
    real = php._read_posed_sprites, php._read_pairs_among
    php._read_posed_sprites, php._read_pairs_among = reader
    try:
        try:
            got = ("ok", call(world))
        except Exception as e:  # the two paths must raise the same error
            got = ("error", type(e).__name__, str(e))
    finally:
        php._read_posed_sprites, php._read_pairs_among = real
    state = {}
    for s, e in world._entries.items():
        node = e.node
        state[id(s)] = (node.x, node.y, node.matrix, world.stage.bounds(node, world.space), e.pose, e.was_alive, id(e.surface), e.sampled)
    return got, state


def reads_of(reads):
    return {id(s): (r.x, r.y, r.w, r.h, r.angle, r.scale, r.sprite is s) for s, r in reads.items()}


def spoil(rng, rock):
    """A value the fast read must leave to the Python read: converted, or refused."""
    try:  # a sprite already spoiled may not take another
        spoil_once(rng, rock)
    except (AttributeError, TypeError, ValueError, OverflowError, pygame.error):
        pass


def spoil_once(rng, rock):
    kind = rng.randrange(9)
    if kind == 0:
        rock.angle = rng.choice([True, float("nan"), float("inf"), "30", None, 2**2000])
    elif kind == 1:
        rock.angle = rng.choice([np.float64(rng.uniform(-400, 400)), np.float32(12.5), np.int64(45), 90, -720])
        rock.draw(rock.rect.topleft)
    elif kind == 2:
        rock.rect = types.SimpleNamespace(x=float(rock.rect.x), y=rock.rect.y, width=rock.rect.width, height=rock.rect.height)
    elif kind == 3:
        rock.rect = types.SimpleNamespace(x=rock.rect.x + 0.5, y=rock.rect.y, width=rock.rect.width, height=rock.rect.height)
    elif kind == 4:
        rock.rect.size = (rock.rect.width + 1, rock.rect.height)
    elif kind == 5:
        del rock.rect
    elif kind == 6:
        rock.original = "not a surface"
    elif kind == 7:
        rock.scale = rng.choice([0.0, -1.0, 1e-9, 1e9, np.float64(0.75)])
        if 0.2 <= rock.scale <= 2.5:
            rock.draw(rock.rect.topleft)
    else:
        rock.rect = types.SimpleNamespace(x=np.int64(rock.rect.x), y=rock.rect.y, width=rock.rect.width, height=rock.rect.height)


@pytest.mark.parametrize("transform", TRANSFORMS)
def test_fast_read_equals_the_python_read(transform):
    rng = random.Random(TRANSFORMS.index(transform) + 1)  # not hash(): str hashes vary by process
    arts = [art(rng) for _ in range(5)]
    fast, slow = world_for(transform), world_for(transform)
    fast_reader, slow_reader = readers(False), readers(True)
    group = pygame.sprite.Group()
    rocks = [Rock(rng.choice(arts), transform) for _ in range(12)]
    group.add(rocks[:8])
    frames = errors = 0
    for step in range(400):
        for r in rocks:
            try:  # a spoiled sprite stays spoiled until a refused call mends it
                r.angle = (r.angle + rng.uniform(-7, 7)) if rng.random() < 0.8 else rng.choice([0, 90, 180, -90, 360])
                r.scale = rng.choice([0.5, 1.0, 1.25, rng.uniform(0.2, 2.5)]) if transform == "rotozoom" else 1.0
                r.draw((r.rect.x + rng.randrange(-3, 4), r.rect.y + rng.randrange(-3, 4)))
            except (AttributeError, TypeError, ValueError, OverflowError, pygame.error):
                pass
        event = rng.random()
        if event < 0.1:
            rng.choice(rocks).original = rng.choice(arts)  # new art, rect not updated: refused
        elif event < 0.2:
            r = rng.choice(rocks)
            r.original = rng.choice(arts)
            r.draw(getattr(r, "rect", pygame.Rect(0, 0, 0, 0)).topleft)
        elif event < 0.3:
            spoil(rng, rng.choice(rocks))
        elif event < 0.35:
            rng.choice(rocks).kill()
        elif event < 0.4:
            rocks.append(Rock(rng.choice(arts), transform))
            group.add(rocks[-1])
        asked = rng.sample(rocks, rng.randrange(1, min(len(rocks), 10) + 1))
        asked += rng.sample(asked, rng.randrange(0, min(3, len(asked) + 1)))  # a sprite twice in one call
        a = outcome(fast, fast_reader, lambda w: reads_of(w._read(list(asked))))
        b = outcome(slow, slow_reader, lambda w: reads_of(w._read(list(asked))))
        assert a == b, (step, a[0], b[0])
        if a[0][0] == "ok":
            frames += 1
            # Whether the read, made again, takes the fast way (the poses are already given).
            unique = list(dict.fromkeys(asked))
            again = php._read_posed_sprites(unique, fast._entries, fast._image, fast._angle, fast._scale, fast.transform)
            answered = fast_reader[1].answered
            pairs = outcome(fast, fast_reader, lambda w: [(id(p), id(q)) for p, q in w.among(asked)])
            assert pairs == outcome(slow, slow_reader, lambda w: [(id(p), id(q)) for p, q in w.among(asked)])
            # `among` takes its own fast way exactly when that read does.
            assert fast_reader[1].answered == answered + (again is not None)
        else:
            errors += 1
            # A refused call changes nothing; the game mends the sprite and goes on.
            for r in asked:
                if not isinstance(r.original, pygame.Surface):
                    r.original = rng.choice(arts)
                r.angle = r.angle if type(r.angle) in (int, float) and abs(r.angle) < 1e6 else 0.0
                r.scale = 1.0 if transform != "rotozoom" or not (0.2 <= r.scale <= 2.5) else float(r.scale)
                r.draw((int(getattr(r, "rect", pygame.Rect(0, 0, 0, 0)).x), 0))
    assert frames > 150 and errors > 10, (frames, errors)
    assert fast_reader[1].answered > 30, fast_reader[1].answered
    # Ordinary frames (sprites on the stage, art with per-pixel alpha, sampled by every
    # transform): after each sprite's first call, the fast read answers every call.
    alpha_art = [a for a in arts if a.get_masks()[3]] or [art_with_alpha(rng)]
    for r in rocks:
        r.original, r.angle, r.scale = rng.choice(alpha_art), 0.0, 1.0
        r.draw((rng.randrange(40), rng.randrange(40)))
    outcome(fast, fast_reader, lambda w: w._read(list(rocks)))
    outcome(slow, slow_reader, lambda w: w._read(list(rocks)))
    before = fast_reader[0].answered
    for step in range(40):
        for r in rocks:
            r.angle += rng.uniform(-7, 7)
            r.scale = rng.uniform(0.5, 2.0) if transform == "rotozoom" else 1.0
            r.draw((r.rect.x + rng.randrange(-2, 3), r.rect.y + rng.randrange(-2, 3)))
        a = outcome(fast, fast_reader, lambda w: reads_of(w._read(list(rocks))))
        assert a[0][0] == "ok" and a == outcome(slow, slow_reader, lambda w: reads_of(w._read(list(rocks))))
    assert fast_reader[0].answered == before + 40


def art_with_alpha(rng):
    s = pygame.Surface((rng.randrange(2, 20), rng.randrange(2, 20)), pygame.SRCALPHA)
    s.fill((10, 200, 10, 200))
    return s
