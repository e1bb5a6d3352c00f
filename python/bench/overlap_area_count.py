#!/usr/bin/env python3
"""pygame's side of issue 29's `aligned_256` comparison, for counting instructions: two
256 px blobs' masks (threshold 127), `Mask.overlap_area` asked N times at the offset of
`benches/src/scenes.rs`'s `aligned(256)` (B moved by half the size across and an eighth
down), the offset moving a whole pixel and back between asks, as `prof_pair_again` moves
its sprite.

    valgrind --tool=callgrind python bench/overlap_area_count.py 1     # and 1001
    # a call = (total at 1001 - total at 1) / 1000

The blobs are drawn with pygame (nine opaque discs each), not the Rust scene's anti-aliased
ones: `overlap_area`'s work follows the masks' overlap in words, not their content.
"""

import os
import random
import sys

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

SIZE = 256


def blob(seed):
    rng = random.Random(seed)
    surface = pygame.Surface((SIZE, SIZE), pygame.SRCALPHA)
    for _ in range(9):
        centre = (rng.uniform(0.3, 0.7) * SIZE, rng.uniform(0.3, 0.7) * SIZE)
        pygame.draw.circle(surface, (200, 120, 60, 255), centre, rng.uniform(0.18, 0.3) * SIZE)
    return pygame.mask.from_surface(surface, 127)


def main(asks):
    a, b = blob(1), blob(2)
    dx, dy = SIZE // 2, SIZE // 8
    total = 0
    for k in range(asks):
        total += a.overlap_area(b, (dx + (k & 1), dy))
    print(f"{asks} asks, {total} overlap pixels in all")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
