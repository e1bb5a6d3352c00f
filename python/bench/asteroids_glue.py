#!/usr/bin/env python3
"""The glue's work in asteroids.py's game, for counting with callgrind: the game's poses are
worked out first (12 frames, whatever FRAMES is), then each frame only assigns every rock
its `angle` and `rect` and asks `World.among(rocks)` (renderer-exact), so that pygame's own
turning of the images is not in the frames counted.

    OPENBLAS_NUM_THREADS=1 PYTHONHASHSEED=0 valgrind --tool=callgrind \\
        python bench/asteroids_glue.py 1000 1 rotozoom       # and 1000 11 rotozoom
    # a frame = (11-frame total - 1-frame total) / 10 (12 frames of poses: keep F <= 11)

    python bench/asteroids_glue.py N FRAMES rotate|rotozoom [exact|none]

`none` assigns the poses without asking (the frames' own cost). Prints the number of
touching pairs found over the frames.
"""

import math
import os
import random
import sys

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import pygame  # noqa: E402

import asteroids  # noqa: E402
import pixelhit.pygame as php  # noqa: E402


def main(argv):
    n, frames, transform = int(argv[0]), int(argv[1]), argv[2]
    ask = (argv[3] if len(argv) > 3 else "exact") == "exact"
    rng = random.Random(1)
    images = [asteroids.rock_image(rng, s) for s in (44, 32, 22)]
    field = int(math.sqrt(n) * 34)
    rocks = [asteroids.Rock(rng, rng.choice(images), transform, field) for _ in range(n)]
    group = pygame.sprite.Group(rocks)  # noqa: F841 (as a game keeps them)
    poses = []
    for _ in range(12):
        for r in rocks:
            r.update()
        poses.append([(r.angle, r.rect.copy()) for r in rocks])
    kw = {"scale": "scale"} if transform == "rotozoom" else {}
    world = php.World(image="original", angle="angle", transform=transform, **kw)
    total = 0
    for f in range(frames + 1):  # a first frame puts the rocks on the stage
        for r, (angle, rect) in zip(rocks, poses[f % 12]):
            r.angle, r.rect = angle, rect
        if ask:
            total += len(world.among(rocks))
    print(total)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
