#!/usr/bin/env python3
"""Per-frame cost of N rotating, moving sprites: pixelhit against pygame's own way.

    python bench/rotating_sprites.py [--sprites 100 1000] [--frames 60] [--seed 1]

Sprites are random RGBA blobs (numpy arrays, 24 to 64 px, with holes and soft alpha)
drifting by fractions of a pixel and turning every frame over a field sized so that each
sprite's box meets about two others. Every frame both sides get the same poses, one after
the other in the same run:

- pixelhit: `node.set_transform(x, y, angle)` for each sprite (a container turned about its
  centre, the bitmap moved by half its size inside it), then one `stage.collisions(world,
  sprites)` (tolerance 255: every pixel that shows; each contact has its overlap rectangle
  and pixel count). Also timed with `parallel=False` (one core), in the same frames.
- pygame: for each sprite, `pygame.transform.rotate` its surface and rebuild its mask with
  `pygame.mask.from_surface(turned, 0)` (alpha > 0, the same pixels as tolerance 255);
  then a broad phase over the turned surfaces' rectangles, and `mask.overlap` (yes or no,
  the cheapest mask test) for every pair whose rectangles overlap. Two broad phases are
  timed, each in a frame of its own: pygame's `Rect.collidelistall` for each sprite against
  the list, and a sort-and-sweep in Python over the rectangles' left edges (faster at
  1,000 sprites); the ratio is taken against the faster of the two.

Prints the median time per frame of each, the ratios, and the pairs each found per frame
(they differ a little: pygame's rotation samples texels by nearest neighbour and moves the
sprite by whole pixels, pixelhit covers pixels by exact area at the fractional pose).
"""

import argparse
import math
import os
import statistics
import sys
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import numpy as np  # noqa: E402
import pygame  # noqa: E402

import pixelhit  # noqa: E402


def blob(rng, w, h):
    """An H x W x 4 uint8 sprite: one or two ellipses, a hole, alpha from a few levels."""
    yy, xx = np.mgrid[0:h, 0:w]
    inside = np.zeros((h, w), bool)
    for _ in range(rng.integers(1, 3)):
        cx, cy = rng.uniform(0.3 * w, 0.7 * w), rng.uniform(0.3 * h, 0.7 * h)
        rx, ry = rng.uniform(0.3 * w, 0.5 * w), rng.uniform(0.3 * h, 0.5 * h)
        inside |= ((xx + 0.5 - cx) / rx) ** 2 + ((yy + 0.5 - cy) / ry) ** 2 <= 1
    hx, hy, hr = rng.uniform(0.3 * w, 0.7 * w), rng.uniform(0.3 * h, 0.7 * h), 0.12 * min(w, h)
    inside &= (xx + 0.5 - hx) ** 2 + (yy + 0.5 - hy) ** 2 > hr * hr
    rgba = rng.integers(40, 256, size=(h, w, 4), dtype=np.uint8)
    rgba[..., 3] = np.where(inside, rng.choice(np.array([90, 200, 255, 255], np.uint8), size=(h, w)), 0)
    return rgba


class Scene:
    def __init__(self, n, seed):
        rng = np.random.default_rng(seed)
        sizes = rng.integers(24, 65, size=(n, 2))
        mean_area = float(np.mean(sizes[:, 0] * sizes[:, 1]))
        # About two neighbours per sprite: boxes (grown by turning) meet at this density.
        self.side = math.sqrt(n * mean_area * 2.2)
        self.arrays = [blob(rng, int(w), int(h)) for w, h in sizes]
        self.x = rng.uniform(0, self.side, n)
        self.y = rng.uniform(0, self.side, n)
        self.vx = rng.uniform(-1.5, 1.5, n)
        self.vy = rng.uniform(-1.5, 1.5, n)
        self.angle = rng.uniform(0, 360, n)
        self.spin = rng.uniform(-5, 5, n)
        # The same pixels into both libraries.
        self.surfaces = [pygame.image.frombytes(a.tobytes(), (a.shape[1], a.shape[0]), "RGBA") for a in self.arrays]
        self.stage = pixelhit.Stage()
        self.world = self.stage.add_container(self.stage.root)
        self.nodes = []
        for a in self.arrays:
            sprite = self.stage.add_container(self.world)
            art = self.stage.add_bitmap(sprite, pixelhit.Bitmap.from_array(a))
            art.set_position(-a.shape[1] / 2, -a.shape[0] / 2)
            self.nodes.append(sprite)

    def step(self):
        self.x = (self.x + self.vx) % self.side
        self.y = (self.y + self.vy) % self.side
        self.angle = (self.angle + self.spin) % 360

    def poses(self):
        return list(zip(self.x.tolist(), self.y.tolist(), self.angle.tolist()))

    def pixelhit_frame(self, poses, parallel=True):
        for node, (x, y, a) in zip(self.nodes, poses):
            node.set_transform(x, y, a)
        return len(self.stage.collisions(self.world, self.nodes, parallel=parallel))

    def pygame_frame(self, poses, sweep):
        masks, rects = [], []
        for surf, (x, y, a) in zip(self.surfaces, poses):
            turned = pygame.transform.rotate(surf, -a)  # pygame turns counter-clockwise
            masks.append(pygame.mask.from_surface(turned, 0))
            rects.append(turned.get_rect(center=(x, y)))
        hits = 0
        for i, j in (sweep_pairs(rects) if sweep else collidelistall_pairs(rects)):
            ri, rj = rects[i], rects[j]
            if masks[i].overlap(masks[j], (rj.x - ri.x, rj.y - ri.y)) is not None:
                hits += 1
        return hits


def collidelistall_pairs(rects):
    """pygame's broad phase: each rectangle against the whole list, in C."""
    for i, r in enumerate(rects):
        for j in r.collidelistall(rects):
            if j > i:
                yield i, j


def sweep_pairs(rects):
    """Sort and sweep over the left edges, in Python: the rectangles still open at each
    left edge are the only candidates."""
    active = []
    for i in sorted(range(len(rects)), key=lambda k: rects[k].left):
        r = rects[i]
        left = r.left
        active = [k for k in active if rects[k].right > left]
        for k in active:
            if r.colliderect(rects[k]):
                yield (k, i) if k < i else (i, k)
        active.append(i)


def ms(seconds):
    return f"{seconds * 1e3:.2f} ms"


def run(n, frames, seed):
    scene = Scene(n, seed)
    t_ph, t_ph1, t_pg, t_pgc, pairs_ph, pairs_pg = [], [], [], [], [], []
    for _ in range(frames):
        scene.step()
        poses = scene.poses()
        t0 = time.perf_counter()
        pairs_ph.append(scene.pixelhit_frame(poses))
        t1 = time.perf_counter()
        # The same poses again on one core: the cache holds what the first call drew, so
        # move every sprite by a hair to make this frame as new as the first.
        scene.pixelhit_frame([(x + 1e-3, y, a) for x, y, a in poses], parallel=False)
        t2 = time.perf_counter()
        pairs_pg.append(scene.pygame_frame(poses, sweep=True))
        t3 = time.perf_counter()
        scene.pygame_frame(poses, sweep=False)
        t4 = time.perf_counter()
        t_ph.append(t1 - t0)
        t_ph1.append(t2 - t1)
        t_pg.append(t3 - t2)
        t_pgc.append(t4 - t3)
    skip = min(3, frames - 1)  # the first frames fill caches on both sides
    ph, ph1, pgs, pgc = (statistics.median(t[skip:]) for t in (t_ph, t_ph1, t_pg, t_pgc))
    pg = min(pgs, pgc)
    print(f"N = {n} sprites, field {scene.side:.0f} px square, {frames} frames (median of the last {frames - skip})")
    print(f"  pixelhit (set_transform x N + collisions, 2 threads): {ms(ph)} / frame, "
          f"{statistics.mean(pairs_ph):.1f} pairs")
    print(f"  pixelhit, parallel=False (1 thread):                  {ms(ph1)} / frame")
    print(f"  pygame (rotate + from_surface x N, sort-and-sweep, overlap): {ms(pgs)} / frame, "
          f"{statistics.mean(pairs_pg):.1f} pairs")
    print(f"  pygame (rotate + from_surface x N, collidelistall, overlap): {ms(pgc)} / frame")
    print(f"  pygame's faster way / pixelhit: {pg / ph:.1f}x (pixelhit on one thread: {pg / ph1:.1f}x)")
    return ph, ph1, pg


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sprites", type=int, nargs="+", default=[100, 1000])
    p.add_argument("--frames", type=int, default=60)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    pygame.display.init()
    print(f"pixelhit {pixelhit.__version__}, pygame {pygame.version.ver}, numpy {np.__version__}, "
          f"Python {sys.version.split()[0]}, {os.cpu_count()} cores")
    for n in args.sprites:
        run(n, args.frames, args.seed)


if __name__ == "__main__":
    main()
