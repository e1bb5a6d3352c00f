#!/usr/bin/env python3
"""Collisions of an asteroids-style game, as pygame games write it: time per frame and
answers wrong against the frame actually drawn, for each way of colliding.

    python bench/asteroids.py [--rocks 200 500 1000] [--transform rotate rotozoom]
                              [--frames 60] [--seed 1] [--only exact cached ...] [--warm]

The game (issue 30): N rocks from three shared soft-edged images (lumpy discs with an
anti-aliased rim around pygame's threshold 127, and two holes each), drifting by fractions of
a pixel and turning every frame; each is drawn as `pygame.transform.rotate(original, angle)`
(or `rotozoom(original, angle, scale)`, scale 0.75, 1 or 1.25 per rock) blitted at
`image.get_rect(center=round(pos)).topleft`, the usual pygame way. Each frame asks for every
touching pair of rocks. Contenders, given the same frame one after the other:

- pixelhit, renderer-exact: `World(image="original", angle="angle", transform=...)` and
  `world.among(rocks)` (pygame's picture sampled by pixelhit, no surface or mask built).
  Needs a pixelhit with `Node.set_pygame_transform`; reported as not available otherwise.
- pixelhit, as blitted: `World()` reading each frame's turned `image` (a bitmap per turned
  image and frame), `world.among(rocks)`.
- pygame, rebuilt: `pygame.mask.from_surface(image)` for each rock each frame, then a
  sort-and-sweep over the rects and `mask.overlap` on the pairs whose rects meet.
- pygame, cached per degree: the 19-line cache of the issue (a mask per shared image and
  whole degree, built when first needed, placed centred at the rock's centre), the same
  broad phase and `overlap`.

"Wrong" is measured against the drawn frame: the pairs whose drawn masks overlap (the
rebuilt contender's answer, masks of the blitted surfaces). For each contender it prints the
median time per frame (collisions only; the game's own rotate for drawing is not counted)
and the share of pairs it answers differently (false + missed, over the drawn frame's
touching pairs). Timing is wall-clock on whatever machine runs it: read it as such.

For counting work instead (docs/game-notes.md): `--only` runs some contenders alone (`exact`,
`blitted`, `rebuilt`, `cached`; `none` runs the game alone), without the wrong-answer check,
so that instructions a frame under callgrind are (the run with F frames - the run with 1) /
(F - 1), minus the same for `none`; `--warm` fills the per-degree cache for every degree and
scale first, as a long game would have it.
"""

import argparse
import math
import os
import random
import statistics
import sys
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

import pixelhit  # noqa: E402
import pixelhit.pygame as php  # noqa: E402


def rock_image(rng, size):
    """A lumpy disc: an opaque core, a soft rim (alpha 90 to 160), two holes."""
    s = pygame.Surface((size, size), pygame.SRCALPHA)
    c = size / 2
    pts = [(c + c * rng.uniform(0.7, 0.98) * math.cos(2 * math.pi * k / 13), c + c * rng.uniform(0.7, 0.98) * math.sin(2 * math.pi * k / 13)) for k in range(13)]
    pygame.draw.polygon(s, (150, 140, 120, rng.randrange(90, 160)), pts)
    pygame.draw.polygon(s, (170, 160, 140, 255), [(c + 0.8 * (x - c), c + 0.8 * (y - c)) for x, y in pts])
    for _ in range(2):
        pygame.draw.circle(s, (0, 0, 0, 0), (rng.uniform(0.3, 0.7) * size, rng.uniform(0.3, 0.7) * size), size * 0.1)
    return s


class Rock(pygame.sprite.Sprite):
    def __init__(self, rng, original, transform, field):
        super().__init__()
        self.original, self.transform, self.field = original, transform, field
        self.pos = pygame.Vector2(rng.uniform(0, field), rng.uniform(0, field))
        self.velocity = pygame.Vector2(rng.uniform(-1.3, 1.3), rng.uniform(-1.3, 1.3))
        self.angle, self.spin = rng.uniform(0, 360), rng.uniform(-3, 3)
        self.scale = rng.choice([0.75, 1.0, 1.25]) if transform == "rotozoom" else 1.0  # a few sizes, as games have
        self.update()

    def update(self):
        self.pos += self.velocity
        self.pos.x %= self.field
        self.pos.y %= self.field
        self.angle = (self.angle + self.spin) % 360
        if self.transform == "rotozoom":
            self.image = pygame.transform.rotozoom(self.original, self.angle, self.scale)
        else:
            self.image = pygame.transform.rotate(self.original, self.angle)
        self.rect = self.image.get_rect(center=(round(self.pos.x), round(self.pos.y)))


def sweep_pairs(rects):
    """Index pairs (i < j) whose rects overlap: sort and sweep on the left edges."""
    order = sorted(range(len(rects)), key=lambda i: rects[i].left)
    out, active = [], []
    for i in order:
        r = rects[i]
        active = [j for j in active if rects[j].right > r.left]
        for j in active:
            if r.colliderect(rects[j]):
                out.append((min(i, j), max(i, j)))
        active.append(i)
    return out


def mask_pairs(rects, masks):
    return {(i, j) for i, j in sweep_pairs(rects) if masks[i].overlap(masks[j], (rects[j].x - rects[i].x, rects[j].y - rects[i].y))}


class Rebuilt:
    name = "pygame, rebuilt"
    key = "rebuilt"

    def frame(self, rocks):
        return mask_pairs([r.rect for r in rocks], [pygame.mask.from_surface(r.image) for r in rocks])


class CachedPerDegree:
    name = "pygame, cached per degree"
    key = "cached"

    def __init__(self):
        self.cache = {}

    def mask(self, rock):
        key = (id(rock.original), round(rock.angle) % 360, round(rock.scale, 2))
        m = self.cache.get(key)
        if m is None:
            if rock.transform == "rotozoom":
                turned = pygame.transform.rotozoom(rock.original, key[1], rock.scale)
            else:
                turned = pygame.transform.rotate(rock.original, key[1])
            m = self.cache[key] = pygame.mask.from_surface(turned)
        return m

    def warm(self, rocks):
        for r in {(id(r.original), r.scale): r for r in rocks}.values():
            for degree in range(360):
                r.angle, saved = degree, r.angle
                self.mask(r)
                r.angle = saved

    def frame(self, rocks):
        masks = [self.mask(r) for r in rocks]
        rects = [m.get_rect(center=r.rect.center) for m, r in zip(masks, rocks)]
        return mask_pairs(rects, masks)


class PixelhitWorld:
    def __init__(self, name, key, world):
        self.name, self.key, self.world = name, key, world

    def frame(self, rocks):
        index = {r: i for i, r in enumerate(rocks)}
        return {(index[a], index[b]) for a, b in self.world.among(rocks)}


def contenders(transform):
    out = [Rebuilt(), CachedPerDegree(), PixelhitWorld("pixelhit, as blitted", "blitted", php.World())]
    try:
        kw = {"scale": "scale"} if transform == "rotozoom" else {}
        out.insert(0, PixelhitWorld("pixelhit, renderer-exact", "exact", php.World(image="original", angle="angle", transform=transform, **kw)))
    except pixelhit.ArgumentError as e:
        print(f"  pixelhit, renderer-exact: not available in this build ({e})")
    return out


def run(n, transform, frames, seed, only=None, warm=False):
    rng = random.Random(seed)
    images = [rock_image(rng, s) for s in (44, 32, 22)]
    field = int(math.sqrt(n) * 34)  # about two neighbours per rock
    rocks = [Rock(rng, rng.choice(images), transform, field) for _ in range(n)]
    group = pygame.sprite.Group(rocks)  # noqa: F841 (kept, as a game keeps its sprites in groups)
    ways = [w for w in contenders(transform) if only is None or w.key in only]
    for w in ways:
        if warm and hasattr(w, "warm"):
            w.warm(rocks)
    times = {w.name: [] for w in ways}
    wrong = {w.name: 0 for w in ways}
    truth_total = 0
    for _ in range(frames):
        for r in rocks:
            r.update()
        answers = {}
        for w in ways:
            t0 = time.perf_counter()
            answers[w.name] = w.frame(rocks)
            times[w.name].append(time.perf_counter() - t0)
        if Rebuilt.name not in answers:
            continue  # counting alone: no check
        truth = answers[Rebuilt.name]  # the masks of the surfaces blitted this frame
        truth_total += len(truth)
        for w in ways:
            wrong[w.name] += len(answers[w.name] ^ truth)
    checked = any(isinstance(w, Rebuilt) for w in ways)
    pairs = f"{truth_total / frames:.1f} touching pairs a frame" if checked else "answers not checked"
    print(f"{transform}, {n} rocks, {frames} frames, {pairs}:")
    for w in ways:
        med = statistics.median(times[w.name]) * 1e3
        if not checked:
            print(f"  {w.name:28s} {med:8.2f} ms/frame   (answers not checked: run with rebuilt)")
            continue
        share = wrong[w.name] / max(1, truth_total)
        print(f"  {w.name:28s} {med:8.2f} ms/frame   wrong {share:6.1%} ({wrong[w.name]} pairs)")


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rocks", type=int, nargs="+", default=[200, 500, 1000])
    p.add_argument("--transform", nargs="+", default=["rotate", "rotozoom"], choices=["rotate", "rotozoom"])
    p.add_argument("--frames", type=int, default=60)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--only", nargs="+", choices=["exact", "blitted", "rebuilt", "cached", "none"])
    p.add_argument("--warm", action="store_true", help="fill the per-degree cache first")
    args = p.parse_args(argv)
    print(f"pygame {pygame.version.ver} ({'pygame-ce' if getattr(pygame, 'IS_CE', False) else 'pygame'}), pixelhit {pixelhit.__version__}")
    for transform in args.transform:
        for n in args.rocks:
            run(n, transform, args.frames, args.seed, args.only, args.warm)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
