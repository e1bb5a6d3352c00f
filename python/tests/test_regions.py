"""Regions of a shared image (issue 32, part 1): `Bitmap.region`, frames at a trim offset,
and pygame subsurfaces read as regions of their sheet, each against the same pixels copied."""

import os
import random

import pygame
import pytest

import pixelhit
import pixelhit.pygame as php


def sheet_bytes(rng, w, h):
    """Random RGBA with clear texels, opaque ones and partial alpha."""
    out = bytearray()
    for _ in range(w * h):
        a = rng.choice([0, 0, 255, 255, 255, rng.randrange(256)])
        out += bytes([rng.randrange(256), rng.randrange(256), rng.randrange(256), a])
    return bytes(out)


def copy_of(data, sheet_w, x, y, w, h):
    """The rectangle's bytes, copied by index from the sheet's."""
    return b"".join(data[4 * ((y + j) * sheet_w + x) : 4 * ((y + j) * sheet_w + x + w)] for j in range(h))


def test_a_region_reads_and_collides_as_its_pixels_copied():
    rng = random.Random(32)
    compared = 0
    for case in range(400):
        sw, sh = rng.randrange(2, 30), rng.randrange(2, 30)
        data = sheet_bytes(rng, sw, sh)
        sheet = pixelhit.Bitmap.from_rgba(sw, sh, data)
        x, y = rng.randrange(sw), rng.randrange(sh)
        w, h = rng.randrange(1, sw - x + 1), rng.randrange(1, sh - y + 1)
        region = sheet.region(x, y, w, h)
        copy = pixelhit.Bitmap.from_rgba(w, h, copy_of(data, sw, x, y, w, h))
        assert region == copy and region.size == (w, h), case
        assert region.tobytes() == copy.tobytes()
        assert region.pixel(w - 1, h - 1) == copy.pixel(w - 1, h - 1)
        offset = (rng.randrange(-3, 6), rng.randrange(-3, 6))
        answers, smoothing = [], rng.random() < 0.5
        for shown in (region, copy):
            stage = pixelhit.Stage()
            anim = stage.add_frames(stage.root, [(shown, smoothing, offset)])
            if case % 2:
                anim.matrix = (1.0, 0.3, -0.2, 1.1, 2.5, 1.25)
            other = stage.add_bitmap(stage.root, copy)
            other.x, other.y = 1.5, 2
            answers.append(
                [stage.collision(anim, other, stage.root, tolerance=t).overlap_pixels for t in (0, 127, 255)]
                + [stage.bounds(anim, stage.root)]
            )
        assert answers[0] == answers[1], case
        compared += sum(answers[0][:3])
    assert compared > 1500


def test_bad_regions_are_refused():
    sheet = pixelhit.Bitmap.from_rgba(4, 2, bytes(32))
    with pytest.raises(pixelhit.DataError, match=r"\(3, 0\).*4x2"):
        sheet.region(3, 0, 2, 1)
    with pytest.raises(pixelhit.DataError, match="empty"):
        sheet.region(0, 0, 0, 1)
    with pytest.raises(pixelhit.ArgumentError, match="region x"):
        sheet.region(-1, 0, 1, 1)


def random_sheet(rng, w, h, flags=pygame.SRCALPHA):
    s = pygame.Surface((w, h), flags)
    for _ in range(w * h // 24):
        color = (rng.randrange(256), rng.randrange(256), rng.randrange(256), rng.choice([255, 255, 128, 1, 0]))
        pygame.draw.circle(s, color, (rng.uniform(0, w), rng.uniform(0, h)), rng.uniform(1, 6))
    return s


def test_a_subsurface_is_a_region_of_its_sheet():
    rng = random.Random(7)
    for case in range(40):
        sheet = random_sheet(rng, 40, 24)
        if case % 4 == 3:
            # Without per-pixel alpha and with a colour key, as pygame's own masks see it.
            plain = pygame.Surface((40, 24))
            plain.blit(sheet, (0, 0))
            plain.set_colorkey(plain.get_at((0, 0)))
            sheet = plain
        outer = sheet.subsurface(pygame.Rect(rng.randrange(0, 10), rng.randrange(0, 6), 24, 14))
        inner = outer.subsurface(pygame.Rect(rng.randrange(0, 8), rng.randrange(0, 6), 12, 6))
        whole = pixelhit.Bitmap.from_surface(sheet)
        for sub in (outer, inner):
            region = whole.region(*sub.get_abs_offset(), *sub.get_size())
            assert region == pixelhit.Bitmap.from_surface(sub), case


class Frame(pygame.sprite.Sprite):
    def __init__(self, image, x, y):
        super().__init__()
        self.image = image
        self.rect = image.get_rect(topleft=(x, y))


def test_the_world_reads_a_sheet_once_and_its_frames_as_regions():
    rng = random.Random(11)
    sheet = random_sheet(rng, 64, 16)
    frames = [sheet.subsurface(pygame.Rect(16 * k, 0, 16, 16)) for k in range(4)]
    world = php.World()
    sprites = [Frame(frames[k % 4], rng.randrange(16), rng.randrange(16)) for k in range(12)]
    hits = 0
    for _ in range(30):
        a, b = rng.sample(sprites, 2)
        want = pygame.sprite.collide_mask(a, b)
        assert world.collide_mask(a, b) == want
        hits += want is not None
        for s in (a, b):
            s.image = rng.choice(frames)
            s.rect = s.image.get_rect(topleft=(rng.randrange(16), rng.randrange(16)))
    assert hits > 10
    # Drawn on in place, then forgotten: the sheet and every frame of it are read again.
    a, b = sprites[0], sprites[1]
    a.rect.topleft, b.rect.topleft = (0, 0), (100, 100)
    assert world.collide_mask(a, b) is None
    b.image = frames[(frames.index(a.image) + 1) % 4]
    b.rect = b.image.get_rect(topleft=(0, 0))
    a.image.fill((0, 0, 0, 0))
    b.image.fill((0, 0, 0, 0))
    pygame.draw.rect(a.image, (9, 9, 9, 255), (3, 3, 2, 2))
    pygame.draw.rect(b.image, (9, 9, 9, 255), (3, 3, 2, 2))
    world.forget_image(a.image)
    assert world.collide_mask(a, b) == pygame.sprite.collide_mask(a, b) == (3, 3)


ATLAS = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data", "atlas")


@pytest.mark.parametrize("layout", ["texturepacker_hash", "texturepacker_array", "aseprite_hash", "aseprite_array"])
def test_atlases_give_regions_of_their_sheet_at_their_trim_offsets(layout):
    atlas = pixelhit.Atlas.from_file(os.path.join(ATLAS, layout + ".json"))
    sheet = pixelhit.Bitmap.from_png_file(os.path.join(ATLAS, "hero.png"))
    assert atlas.sheet == sheet and len(atlas) == 3
    suffix = ".png" if layout.startswith("texturepacker") else ".aseprite"
    assert atlas.names == [f"hero {k}{suffix}" for k in (8, 9, 10)]
    data = sheet.tobytes()
    want = [((0, 0, 5, 6), (2, 1)), ((5, 0, 6, 7), (1, 1)), ((11, 0, 8, 8), (0, 0))]
    for (bitmap, smoothing, offset), ((x, y, w, h), trim) in zip(atlas.frames(), want):
        assert bitmap == pixelhit.Bitmap.from_rgba(w, h, copy_of(data, 20, x, y, w, h))
        assert (smoothing, offset) == (False, trim)
    assert atlas.frame(atlas.names[1])[2] == (1, 1) and atlas.frame("nope") is None
    if layout.startswith("aseprite"):
        assert atlas.tag_names == ["run", "fall"]
        assert [f[2] for f in atlas.tag("run")] == [(2, 1), (1, 1), (0, 0)] and len(atlas.tag("fall")) == 1
    else:
        assert atlas.tag_names == [] and atlas.tag("run") is None
    stage = pixelhit.Stage()
    hero = stage.add_frames(stage.root, atlas.frames())
    hero.frame = 0
    assert stage.bounds(hero) == (2, 1, 5, 6)
    with open(os.path.join(ATLAS, layout + ".json")) as f:
        text = f.read()
    with pytest.raises(pixelhit.DataError, match=r"a\.json: frames.*\.frame: .*12x8"):
        pixelhit.Atlas.from_json(text, sheet.region(0, 0, 12, 8), "a.json")
