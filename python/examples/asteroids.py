#!/usr/bin/env python3
"""Asteroids, as a pygame game writes it, with its collisions by pixelhit.pygame or by pygame.

    python examples/asteroids.py [--collisions pixelhit|pygame] [--frames N] [--out PICTURE.png] [--window]

A turning ship fires at lumpy, spinning rocks with holes; a shot rock splits in two; a rock
that hits the ship is destroyed (and counted). Every sprite keeps its unrotated art in `original` and draws
`image = pygame.transform.rotate(original, angle)` centred on its position, as pygame games
do. Headless by default (SDL's dummy driver): it plays N frames (default 600) on its own and
saves the last one to PICTURE.png (default: the temporary folder); `--window` shows it.

The two ways of colliding are the two classes between the `collisions:` markers below;
`python tools/collision_lines.py examples/asteroids.py` counts their lines. pixelhit's answers
are pygame's, on the images exactly as they are blitted.
"""

import argparse
import math
import os
import random
import sys
import tempfile

if "--window" not in sys.argv:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

import pixelhit.pygame  # noqa: E402

W, H = 480, 360


# --- collisions: pixelhit ---
class PixelhitCollisions:
    def __init__(self):
        self.world = pixelhit.pygame.World()  # sprite.image, blitted at rect.topleft

    def shots(self, bullets, rocks):
        return self.world.groupcollide(bullets, rocks, True, True)

    def crashes(self, ship, rocks):
        return self.world.spritecollide(ship, rocks, True)
# --- end ---


# --- collisions: pygame ---
class PygameCollisions:
    def shots(self, bullets, rocks):
        for s in (*bullets, *rocks):
            s.mask = pygame.mask.from_surface(s.image)
        return pygame.sprite.groupcollide(bullets, rocks, True, True, pygame.sprite.collide_mask)

    def crashes(self, ship, rocks):
        ship.mask = pygame.mask.from_surface(ship.image)
        return pygame.sprite.spritecollide(ship, rocks, True, pygame.sprite.collide_mask)
# --- end ---


class Body(pygame.sprite.Sprite):
    """A sprite that drifts, turns and wraps around the screen."""

    def __init__(self, original, pos, velocity, angle=0.0, spin=0.0, *groups):
        super().__init__(*groups)
        self.original = original
        self.pos = pygame.Vector2(pos)
        self.velocity = pygame.Vector2(velocity)
        self.angle, self.spin = angle, spin
        self.turn()

    def turn(self):
        self.image = pygame.transform.rotate(self.original, self.angle)
        self.rect = self.image.get_rect(center=(round(self.pos.x), round(self.pos.y)))

    def update(self):
        self.pos += self.velocity
        self.pos.x %= W
        self.pos.y %= H
        self.angle = (self.angle + self.spin) % 360
        self.turn()


def rock_art(rng, size):
    """A lumpy rock with a soft rim (alpha 90, below pygame's threshold) and two holes."""
    s = pygame.Surface((size, size), pygame.SRCALPHA)
    c = size / 2
    pts = [(c + c * rng.uniform(0.6, 0.98) * math.cos(a), c + c * rng.uniform(0.6, 0.98) * math.sin(a))
           for a in (2 * math.pi * k / 9 for k in range(9))]
    pygame.draw.polygon(s, (150, 140, 120, 90), pts)
    pygame.draw.polygon(s, (170, 160, 140, 255), [(c + 0.85 * (x - c), c + 0.85 * (y - c)) for x, y in pts])
    for _ in range(2):
        pygame.draw.circle(s, (0, 0, 0, 0), (rng.uniform(0.3, 0.7) * size, rng.uniform(0.3, 0.7) * size), size * 0.12)
    return s


def ship_art():
    s = pygame.Surface((24, 24), pygame.SRCALPHA)
    pygame.draw.polygon(s, (120, 200, 255, 255), [(23, 12), (2, 3), (7, 12), (2, 21)])  # nose to the right
    return s


def play(collisions, frames, seed=24, screen=None):
    rng = random.Random(seed)
    rocks, bullets = pygame.sprite.Group(), pygame.sprite.Group()
    ship = Body(ship_art(), (W / 2, H / 2), (0, 0), 0, 2.5)
    bullet_art = pygame.Surface((3, 3), pygame.SRCALPHA)
    bullet_art.fill((255, 240, 120, 255))
    for _ in range(10):
        size = rng.randrange(28, 56)
        pos = (rng.uniform(0, W), rng.uniform(0, H))
        if pygame.Vector2(pos).distance_to(ship.pos) > 90:
            Body(rock_art(rng, size), pos, (rng.uniform(-1.5, 1.5), rng.uniform(-1.5, 1.5)),
                 rng.uniform(0, 360), rng.uniform(-3, 3), rocks)
    crashes, score, ages = 0, 0, {}
    scene = pygame.Surface((W, H))
    for frame in range(frames):
        ship.update()
        if frame % 8 == 0:
            heading = pygame.Vector2(1, 0).rotate(-ship.angle)  # pygame's angles turn counter-clockwise
            b = Body(bullet_art, ship.pos + heading * 14, heading * 6, 0, 0, bullets)
            ages[b] = 0
        rocks.update()
        bullets.update()
        for b in list(bullets):
            ages[b] += 1
            if ages[b] > 60:
                b.kill()
        for bullet, hit in collisions.shots(bullets, rocks).items():
            for rock in hit:
                score += 1
                size = rock.original.get_width() * 2 // 3
                if size >= 16:
                    for _ in range(2):
                        Body(rock_art(rng, size), rock.pos, rock.velocity.rotate(rng.uniform(-60, 60)) * 1.3,
                             rng.uniform(0, 360), rng.uniform(-4, 4), rocks)
        crashes += len(collisions.crashes(ship, rocks))
        scene.fill((10, 12, 24))
        rocks.draw(scene)
        bullets.draw(scene)
        scene.blit(ship.image, ship.rect)
        if screen is not None:
            screen.blit(scene, (0, 0))
            pygame.display.flip()
            pygame.event.pump()
    return scene, score, crashes, len(rocks)


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--collisions", choices=("pixelhit", "pygame"), default="pixelhit")
    p.add_argument("--frames", type=int, default=600)
    p.add_argument("--out", default=os.path.join(tempfile.gettempdir(), "pixelhit_asteroids.png"))
    p.add_argument("--window", action="store_true")
    args = p.parse_args(argv)
    pygame.display.init()
    screen = pygame.display.set_mode((W, H)) if args.window else None
    collisions = PixelhitCollisions() if args.collisions == "pixelhit" else PygameCollisions()
    scene, score, crashes, rocks = play(collisions, args.frames, screen=screen)
    pygame.image.save(scene, args.out)
    print(f"{args.collisions}: {args.frames} frames, {score} rocks shot, {crashes} rocks hit the ship, "
          f"{rocks} rocks in play; last frame in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
