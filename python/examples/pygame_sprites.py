#!/usr/bin/env python3
"""Rotating sprites colliding, tested by pixelhit.pygame and drawn by pygame.

    python examples/pygame_sprites.py [OUT.png] [--frames N]

Runs headless (SDL_VIDEODRIVER=dummy unless set): rocks and ships, each a
`pygame.sprite.Sprite` with an unrotated `original` Surface (rocks with holes and a faint rim
below pygame's threshold), drift and turn about their centres for N frames (default 90).
A `pixelhit.pygame.World` reads each sprite's image and rect as blitted; each frame asks it which ships
touch which rocks (`groupcollide`, pygame's names and threshold), and the stage under it for
every touching pair with details (`Stage.contacts_among`). The last frame is drawn with pygame and
saved to OUT.png (default: pixelhit_pygame_sprites.png in the temporary folder), twice the
size, with the pixels each pair shares in magenta, each overlap rectangle pixelhit reports
outlined in red, and each contact's normal (from a into b) as a yellow line from the
overlap's centroid.
"""

import math
import os
import random
import sys
import tempfile

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import numpy as np  # noqa: E402
import pygame  # noqa: E402

import pixelhit.pygame  # noqa: E402

W, H, ZOOM = 400, 300, 2
SHIP_POINTS = [(0, -14), (10, 11), (0, 6), (-10, 11)]


def rock_surface(rng, size):
    """A lumpy rock with two craters that are holes (alpha 0) and a soft rim."""
    surf = pygame.Surface((size, size), pygame.SRCALPHA)
    c = size / 2
    pts = []
    for k in range(11):
        a = 2 * math.pi * k / 11
        r = c * rng.uniform(0.65, 0.98)
        pts.append((c + r * math.cos(a), c + r * math.sin(a)))
    pygame.draw.polygon(surf, (150, 140, 120, 110), pts)  # a faint rim: alpha 110 still counts
    inner = [(c + 0.8 * (x - c), c + 0.8 * (y - c)) for x, y in pts]
    pygame.draw.polygon(surf, (170, 160, 140, 255), inner)
    for _ in range(2):
        pygame.draw.circle(surf, (0, 0, 0, 0), (rng.uniform(0.3, 0.7) * size, rng.uniform(0.3, 0.7) * size),
                           size * 0.12)
    return surf


def ship_surface():
    """A ship pointing up."""
    surf = pygame.Surface((21, 26), pygame.SRCALPHA)
    pygame.draw.polygon(surf, (110, 190, 255, 255), [(x + 10, y + 14) for x, y in SHIP_POINTS])
    return surf


class Mover(pygame.sprite.Sprite):
    """A pygame Sprite that drifts and turns; its image is its original turned, as drawn."""

    def __init__(self, rng, kind, *groups):
        super().__init__(*groups)
        self.kind = kind
        self.original = rock_surface(rng, rng.randrange(24, 56)) if kind == "rock" else ship_surface()
        self.x, self.y = rng.uniform(0, W), rng.uniform(0, H)
        self.vx, self.vy = rng.uniform(-1.2, 1.2), rng.uniform(-1.2, 1.2)
        self.angle, self.spin = rng.uniform(0, 360), rng.uniform(-4, 4)
        self.update()

    def update(self):
        self.x = (self.x + self.vx) % W
        self.y = (self.y + self.vy) % H
        self.angle = (self.angle + self.spin) % 360  # pygame's direction: counter-clockwise
        self.image = pygame.transform.rotate(self.original, self.angle)
        self.rect = self.image.get_rect(center=(round(self.x), round(self.y)))


def overlap_surface(mask):
    """The pixels of an OverlapMask as a magenta surface."""
    bits = np.frombuffer(mask.tobytes(), np.uint8).reshape(mask.height, mask.width)
    rgba = np.zeros((mask.height, mask.width, 4), np.uint8)
    rgba[bits == 1] = (255, 0, 255, 255)
    return pygame.image.frombytes(rgba.tobytes(), (mask.width, mask.height), "RGBA")


def main(argv):
    out = os.path.join(tempfile.gettempdir(), "pixelhit_pygame_sprites.png")
    frames = 90
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--frames":
            frames = int(args.pop(0))
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        else:
            out = a

    pygame.display.init()
    pygame.display.set_mode((1, 1))
    rng = random.Random(15)
    world = pixelhit.pygame.World()  # sprite.image at rect.topleft; threshold 127, as pygame's masks
    rocks, ships = pygame.sprite.Group(), pygame.sprite.Group()
    for _ in range(16):
        Mover(rng, "rock", rocks)
    for _ in range(4):
        Mover(rng, "ship", ships)
    sprites = [*rocks, *ships]

    contacts, total, ship_hits = [], 0, {}
    for _ in range(frames):
        rocks.update()
        ships.update()
        ship_hits = world.groupcollide(ships, rocks)  # {ship: [rocks it touches]}
        # Every touching pair, with details, from the stage under the world.
        contacts = world.stage.contacts_among([world.node(s) for s in sprites], world.space, details=True,
                                          tolerance=pixelhit.pygame.tolerance_for(world.threshold))
        total += len(contacts)

    scene = pygame.Surface((W, H), pygame.SRCALPHA)
    scene.fill((18, 20, 32, 255))
    for s in sprites:
        scene.blit(s.image, s.rect)
    for c in contacts:
        m = c.mask
        scene.blit(overlap_surface(m), (m.x, m.y))
    picture = pygame.transform.scale(scene, (W * ZOOM, H * ZOOM))
    for c in contacts:
        x, y, w, h = c.rect
        pygame.draw.rect(picture, (255, 40, 40), pygame.Rect(x * ZOOM, y * ZOOM, w * ZOOM, h * ZOOM), 1)
        (cx, cy), (nx, ny) = c.centroid, c.normal
        start = ((cx + 0.5) * ZOOM, (cy + 0.5) * ZOOM)
        pygame.draw.line(picture, (255, 230, 60), start, (start[0] + nx * 24, start[1] + ny * 24), 2)
    try:
        pygame.font.init()
        font = pygame.font.Font(None, 22)
        legend = f"{len(contacts)} touching pairs: shared pixels magenta, pixelhit's rectangles red, normals yellow"
        picture.blit(font.render(legend, True, (230, 230, 230)), (8, 8))
    except (pygame.error, ImportError):
        pass  # no font module: the picture without its legend
    pygame.image.save(picture, out)

    print(f"{frames} frames of {len(sprites)} turning sprites, {total} contacts in all; "
          f"ships touching rocks in the last frame: {sum(len(v) for v in ship_hits.values())}")
    for c in contacts:
        a, b = c.a.data, c.b.data
        print(f"  {a.kind} x {b.kind}: rect {c.rect}, {c.overlap_pixels} px, "
              f"normal ({c.normal[0]:+.2f}, {c.normal[1]:+.2f})")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
