#!/usr/bin/env python3
"""pygame.mask on the sprites of pixelhit's `aligned_N` benchmarks, for the table of docs/performance.md.

    cargo run --release -p pixelhit-benches --example bench_sprites -- /tmp/sprites
    pip install pygame==2.6.1      # or pygame-ce; not needed by CI
    python3 benches/pygame_compare.py /tmp/sprites

For each size it loads aN.png and bN.png, builds their masks (a bit where alpha > 0, which is
pixelhit's default tolerance of 255), checks that pygame finds the overlap pixelhit wrote in
pairs.txt (count and rectangle), and prints a Markdown table of median times per call:
`overlap_area` (the count), `overlap_mask` + `get_bounding_rects` (the rectangle), and both
masks built again with `from_surface` before `overlap_area` (what a turning sprite costs).
"""
import os
import statistics
import sys
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402


def per_call_ns(fn):
    """Median over 15 batches; a batch runs long enough (20 ms) for the clock to be exact."""
    calls = 1
    while True:
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        if time.perf_counter() - start > 0.02:
            break
        calls *= 2
    batches = []
    for _ in range(15):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        batches.append((time.perf_counter() - start) / calls)
    return statistics.median(batches) * 1e9


def show(ns):
    if ns < 1e3:
        return f"{ns:.0f} ns"
    if ns < 1e6:
        return f"{ns / 1e3:.1f} µs"
    return f"{ns / 1e6:.2f} ms"


def bounding(mask):
    rects = mask.get_bounding_rects()
    if not rects:
        return None
    r = rects[0].unionall(rects[1:])
    return (r.x, r.y, r.w, r.h)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    folder = sys.argv[1]
    pygame.display.init()
    pygame.display.set_mode((1, 1))
    print(f"pygame {pygame.version.ver}")
    print("| size | overlap_area | overlap_mask + get_bounding_rects | from_surface x 2 + overlap_area |")
    print("|---|---|---|---|")
    with open(os.path.join(folder, "pairs.txt")) as pairs:
        for line in pairs:
            size, dx, dy, count, x, y, w, h = (int(v) for v in line.split())
            a = pygame.image.load(os.path.join(folder, f"a{size}.png")).convert_alpha()
            b = pygame.image.load(os.path.join(folder, f"b{size}.png")).convert_alpha()
            ma, mb = pygame.mask.from_surface(a, 0), pygame.mask.from_surface(b, 0)
            offset = (dx, dy)
            got = (ma.overlap_area(mb, offset), bounding(ma.overlap_mask(mb, offset)))
            if got != (count, (x, y, w, h)):
                sys.exit(f"size {size}: pygame found {got}, pixelhit {(count, (x, y, w, h))}")
            times = [
                per_call_ns(lambda: ma.overlap_area(mb, offset)),
                per_call_ns(lambda: bounding(ma.overlap_mask(mb, offset))),
                per_call_ns(lambda: pygame.mask.from_surface(a, 0).overlap_area(
                    pygame.mask.from_surface(b, 0), offset)),
            ]
            print(f"| {size} | " + " | ".join(show(t) for t in times) + " |")


if __name__ == "__main__":
    main()
