#!/usr/bin/env python3
"""Per-frame cost of N rotating, moving sprites: pixelhit against pygame's own ways.

    python bench/rotating_sprites.py [--sprites 100 300 1000] [--frames 120] [--seed 1]
                                     [--tolerance 127]

As a game has them: a few images and many sprites. Every sprite shows one of two shared
rock images (48 and 28 px, lumpy discs with anti-aliased edges), drifting by fractions of a
pixel and turning every frame over a field sized so that each sprite's box meets about two
others. A pixel counts when its alpha is at least 255 - tolerance (pygame: `threshold =
254 - tolerance`, alpha > threshold: the same pixels). Every frame each contender gets the
same poses, one after the other in the same run:

- pixelhit: `stage.set_transforms(sprites, poses)`, every sprite's `(x, y, angle)` in one call (a
  container turned about its centre, the bitmap moved by half its size inside it; the same as
  `node.set_transform(x, y, angle)` for each), then one `stage.contacts_among(sprites,
  world)` (tolerance 255: every pixel that shows; each contact has its overlap rectangle and
  pixel count). Also timed with `parallel=False` (one core), in the same frames.
- pixelhit, yes or no: the same poses (moved by a hair, as the one-core call is) and
  `stage.touching_among(sprites, world)`: the pairs of `contacts_among` without their
  rectangles and counts, the question pygame's `mask.overlap` answers.
- pixelhit, snapped: the same, with every pose snapped as pygame's cached angles snap it
  (angle to a whole degree, position to a whole pixel) before `set_transform`. Each answer
  is exact for the snapped pose, not for the pose asked; turned sprites then come back to
  poses the stage has kept, so they are not drawn again (opt-in, for games that accept
  pygame's rounding; the exact figure is the one above).
- pygame, cached angles (what pygame games do): at load, each shared image turned by
  `pygame.transform.rotate` at every whole degree and its mask built (load time and memory
  reported); per frame only a lookup of the nearest degree, a broad phase (sort and sweep)
  and `mask.overlap` on the close pairs. Its answers are not pixelhit's (the angle is
  rounded to a degree and the sprite to whole pixels): the pairs that differ are counted.
- pygame, rebuilt: for each sprite, `pygame.transform.rotate` its surface and rebuild its
  mask with `pygame.mask.from_surface(turned, threshold)`;
  then a broad phase over the turned surfaces' rectangles, and `mask.overlap` (yes or no,
  the cheapest mask test) for every pair whose rectangles overlap. Two broad phases are
  timed, each in a frame of its own: pygame's `Rect.collidelistall` for each sprite against
  the list, and a sort-and-sweep in Python over the rectangles' left edges (faster at
  1,000 sprites); the ratio is taken against the faster of the two.

Prints the median time per frame of each, the ratios, the pairs each found per frame, and
how many touching pairs the cached-angle answers differ on from pixelhit's (pygame's rotation
samples texels by nearest neighbour at a rounded angle and places the sprite on whole
pixels; pixelhit covers pixels by exact area at the exact pose).
"""

import argparse
import math
import os
import statistics
import sys
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
# numpy's OpenBLAS keeps worker threads spinning after each call (perf showed them taking
# 5 to 12% of the run, on the core pixelhit's second thread needs); the bench's numpy work
# is a few small arrays a frame, so one thread loses nothing.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import numpy as np  # noqa: E402
import pygame  # noqa: E402

import pixelhit  # noqa: E402


def rock(rng, size):
    """A size x size x 4 uint8 rock: a lumpy disc whose edge is anti-aliased (alpha falls
    from 255 to 0 over about a pixel and a half, as a drawn sprite's does), transparent
    corners."""
    yy, xx = np.mgrid[0:size, 0:size]
    c = size / 2
    dx, dy = xx + 0.5 - c, yy + 0.5 - c
    angle = np.arctan2(dy, dx)
    lumps = sum(rng.uniform(0.03, 0.08) * np.cos(k * angle + rng.uniform(0, 6.3)) for k in (3, 5, 7))
    radius = (0.45 + lumps) * size
    edge = np.clip((radius - np.hypot(dx, dy)) / 1.5 + 0.5, 0, 1)
    rgba = rng.integers(60, 200, size=(size, size, 4), dtype=np.uint8)
    rgba[..., 3] = np.round(edge * 255).astype(np.uint8)
    return rgba


IMAGE_SIZES = (48, 28)


class Scene:
    def __init__(self, n, seed, tolerance):
        rng = np.random.default_rng(seed)
        self.tolerance = tolerance
        self.threshold = max(0, 254 - tolerance)  # pygame: alpha > threshold
        self.images = [rock(rng, s) for s in IMAGE_SIZES]
        self.kind = rng.integers(0, len(self.images), size=n)
        mean_area = float(np.mean([IMAGE_SIZES[k] ** 2 for k in self.kind]))
        # About two neighbours per sprite: boxes (grown by turning) meet at this density.
        self.side = math.sqrt(n * mean_area * 2.2)
        self.x = rng.uniform(0, self.side, n)
        self.y = rng.uniform(0, self.side, n)
        self.vx = rng.uniform(-1.5, 1.5, n)
        self.vy = rng.uniform(-1.5, 1.5, n)
        self.angle = rng.uniform(0, 360, n)
        self.spin = rng.uniform(-5, 5, n)
        # The same pixels into both libraries, one image object per shared image.
        self.surfaces = [pygame.image.frombytes(a.tobytes(), (a.shape[1], a.shape[0]), "RGBA") for a in self.images]
        self.stage = pixelhit.Stage()
        self.world = self.stage.add_container(self.stage.root)
        bitmaps = [pixelhit.Bitmap.from_array(a) for a in self.images]
        self.nodes = []
        for k in self.kind:
            sprite = self.stage.add_container(self.world)
            art = self.stage.add_bitmap(sprite, bitmaps[k])
            size = IMAGE_SIZES[k]
            art.set_position(-size / 2, -size / 2)
            self.nodes.append(sprite)
        self.index = {node: i for i, node in enumerate(self.nodes)}
        self.rotations = None

    def load_rotations(self):
        """pygame's rotation cache: every shared image turned at each whole degree, with its
        mask. Returns the seconds it took and the bytes it holds (surfaces at 4 bytes a
        pixel, masks at a bit a pixel in rows of 32-bit words, as pygame's bitmask keeps
        them)."""
        t0 = time.perf_counter()
        self.rotations = []
        nbytes = 0
        for surf in self.surfaces:
            turns = []
            for deg in range(360):
                turned = pygame.transform.rotate(surf, -deg)  # pygame turns counter-clockwise
                w, h = turned.get_size()
                turns.append((pygame.mask.from_surface(turned, self.threshold), w, h))
                nbytes += 4 * w * h + 4 * ((w + 31) // 32) * h
            self.rotations.append(turns)
        return time.perf_counter() - t0, nbytes

    def step(self):
        self.x = (self.x + self.vx) % self.side
        self.y = (self.y + self.vy) % self.side
        self.angle = (self.angle + self.spin) % 360

    def poses(self):
        return list(zip(self.x.tolist(), self.y.tolist(), self.angle.tolist()))

    def pixelhit_frame(self, poses, parallel=True):
        self.stage.set_transforms(self.nodes, poses)
        contacts = self.stage.contacts_among(self.nodes, self.world, tolerance=self.tolerance, parallel=parallel)
        return {pair(self.index[c.a], self.index[c.b]) for c in contacts}

    def pixelhit_touching_frame(self, poses):
        """Which pairs touch, yes or no (`touching_among`): the question the pygame
        contenders' `mask.overlap` answers, and the same pairs as `pixelhit_frame`."""
        self.stage.set_transforms(self.nodes, poses)
        touching = self.stage.touching_among(self.nodes, self.world, tolerance=self.tolerance)
        return {pair(self.index[a], self.index[b]) for a, b in touching}

    def pixelhit_snapped_frame(self, poses):
        return self.pixelhit_frame([(round(x), round(y), round(a) % 360) for x, y, a in poses])

    def pygame_frame(self, poses, sweep):
        masks, rects = [], []
        for k, (x, y, a) in zip(self.kind, poses):
            turned = pygame.transform.rotate(self.surfaces[k], -a)
            masks.append(pygame.mask.from_surface(turned, self.threshold))
            rects.append(turned.get_rect(center=(x, y)))
        return touching(masks, rects, sweep_pairs(rects) if sweep else collidelistall_pairs(rects))

    def cached_frame(self, poses):
        masks, rects = [], []
        for k, (x, y, a) in zip(self.kind, poses):
            mask, w, h = self.rotations[k][round(a) % 360]
            masks.append(mask)
            rects.append(pygame.Rect(round(x - w / 2), round(y - h / 2), w, h))
        return touching(masks, rects, sweep_pairs(rects))


def timed(call):
    """`call()`'s answer and the seconds it took."""
    t0 = time.perf_counter()
    out = call()
    return out, time.perf_counter() - t0


def pair(i, j):
    return (i, j) if i < j else (j, i)


def touching(masks, rects, candidates):
    """The candidate pairs whose masks overlap."""
    hits = set()
    for i, j in candidates:
        ri, rj = rects[i], rects[j]
        if masks[i].overlap(masks[j], (rj.x - ri.x, rj.y - ri.y)) is not None:
            hits.add(pair(i, j))
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


def run(n, frames, seed, tolerance):
    scene = Scene(n, seed, tolerance)
    # The snapped contender on a stage of its own (the same sprites), as a game that snaps
    # would have it: the exact frames' poses do not share its cache.
    snap_scene = Scene(n, seed, tolerance)
    load_s, load_bytes = scene.load_rotations()
    times = {k: [] for k in ("ph", "ph1", "snap", "cached", "sweep", "cla", "yes")}
    found = {k: [] for k in ("ph", "snap", "cached", "sweep")}
    differ, either = 0, 0
    for frame in range(frames):
        scene.step()
        poses = scene.poses()
        # The same poses on both cores and on one: the cache holds what the first call drew,
        # so the second call's sprites are moved by a hair to make its frame as new. The
        # second call still finds the bitmaps' tables and the memory warm, so the two go
        # first on alternate frames.
        hair = [(x + 1e-3, y, a) for x, y, a in poses]
        one_first = frame % 2 == 1
        if one_first:
            t_one = timed(lambda: scene.pixelhit_frame(hair, parallel=False))[1]
        ph, t_par = timed(lambda: scene.pixelhit_frame(poses))
        if not one_first:
            t_one = timed(lambda: scene.pixelhit_frame(hair, parallel=False))[1]
        t2 = time.perf_counter()
        snapped = snap_scene.pixelhit_snapped_frame(poses)
        t2s = time.perf_counter()
        cached = scene.cached_frame(poses)
        t3 = time.perf_counter()
        rebuilt = scene.pygame_frame(poses, sweep=True)
        t4 = time.perf_counter()
        scene.pygame_frame(poses, sweep=False)
        t5 = time.perf_counter()
        # Yes or no on poses moved by another hair, so that none of its pairs is kept.
        scene.pixelhit_touching_frame([(x, y + 1e-3, a) for x, y, a in poses])
        t6 = time.perf_counter()
        for key, dt in zip(times, (t_par, t_one, t2s - t2, t3 - t2s, t4 - t3, t5 - t4, t6 - t5)):
            times[key].append(dt)
        for key, hits in (("ph", ph), ("snap", snapped), ("cached", cached), ("sweep", rebuilt)):
            found[key].append(len(hits))
        differ += len(ph ^ cached)
        either += len(ph | cached)
    skip = min(3, frames - 1)  # the first frames fill caches on both sides
    ph, ph1, snap, cached, sweep, cla, yes = (statistics.median(times[k][skip:]) for k in times)
    rebuilt = min(sweep, cla)
    pairs = {k: statistics.mean(v) for k, v in found.items()}
    print(f"N = {n} sprites of {len(IMAGE_SIZES)} shared images, field {scene.side:.0f} px square, "
          f"tolerance {tolerance}, {frames} frames (median of the last {frames - skip})")
    print(f"  pixelhit (set_transforms + contacts_among, 2 threads): {ms(ph)} / frame, {pairs['ph']:.1f} pairs")
    print(f"  pixelhit, parallel=False (1 thread):                  {ms(ph1)} / frame")
    print(f"  pixelhit, touching_among (yes or no, 2 threads):     {ms(yes)} / frame")
    print(f"  pixelhit, snapped to whole degrees and pixels (2 threads): {ms(snap)} / frame, "
          f"{pairs['snap']:.1f} pairs")
    print(f"  pygame, cached angles (lookup, sort-and-sweep, overlap): {ms(cached)} / frame, "
          f"{pairs['cached']:.1f} pairs; load {load_s:.2f} s, {load_bytes / 2**20:.1f} MiB")
    print(f"    pairs that differ from pixelhit's: {differ} of {either} touching by either "
          f"({100 * differ / max(either, 1):.1f}%)")
    print(f"  pygame, rebuilt (rotate + from_surface x N, sort-and-sweep, overlap): {ms(sweep)} / frame, "
          f"{pairs['sweep']:.1f} pairs")
    print(f"  pygame, rebuilt (rotate + from_surface x N, collidelistall, overlap): {ms(cla)} / frame")
    print(f"  pygame cached / pixelhit: {cached / ph:.2f}x (one thread: {cached / ph1:.2f}x); "
          f"pygame rebuilt (faster broad phase) / pixelhit: {rebuilt / ph:.1f}x (one thread: {rebuilt / ph1:.1f}x); "
          f"pygame cached / pixelhit snapped: {cached / snap:.2f}x")
    return ph, ph1, cached, rebuilt


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sprites", type=int, nargs="+", default=[100, 300, 1000])
    p.add_argument("--frames", type=int, default=120)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--tolerance", type=int, default=127)
    args = p.parse_args()
    pygame.display.init()
    print(f"pixelhit {pixelhit.__version__}, pygame {pygame.version.ver}, numpy {np.__version__}, "
          f"Python {sys.version.split()[0]}, {os.cpu_count()} cores")
    for n in args.sprites:
        run(n, args.frames, args.seed, args.tolerance)


if __name__ == "__main__":
    main()
