"""`Bitmap.from_surface` against `pygame.mask.from_surface` on every surface format pygame
(or pygame-ce) offers, with and without a colour key (RLE or not) and a surface-wide alpha,
at every threshold: a texel is solid (alpha > threshold) exactly where pygame's mask has a
bit (issue 22, item 2).

The one threshold left out for keyed surfaces is 255: pygame ignores the threshold when a
surface has a colour key, so its mask at 255 is every non-key pixel, while no alpha is above
255 (`pixelhit.pygame` treats 255 as "nothing solid" everywhere). Every other threshold is
checked, and 255 is checked for surfaces without a key.
"""

import itertools
import random

import numpy as np
import pygame
import pytest

from pixelhit import Bitmap

W, H = 9, 7
THRESHOLDS = sorted(set(range(0, 256, 17)) | {1, 126, 127, 128, 254, 255})


@pytest.fixture(scope="module", autouse=True)
def display():
    # `convert()` and `convert_alpha()` need a display mode (the dummy driver has one).
    pygame.display.init()
    pygame.display.set_mode((1, 1))
    yield


def painted(surface, rng):
    """Random pixels, alpha levels around the thresholds included."""
    levels = [0, 1, 60, 126, 127, 128, 200, 254, 255]
    for y in range(H):
        for x in range(W):
            surface.set_at((x, y), (rng.randrange(256), rng.randrange(256), rng.randrange(256), rng.choice(levels)))
    return surface


def formats():
    """(name, make(rng) -> Surface) for every depth and flag pygame accepts, plus the
    converted forms a game makes with `convert()` and `convert_alpha()`."""
    out = []
    for depth, flags in itertools.product((8, 16, 24, 32), (0, pygame.SRCALPHA)):
        try:
            pygame.Surface((W, H), flags, depth)
        except (pygame.error, ValueError):
            continue  # pygame itself refuses this format
        out.append((f"{depth}-bit{' SRCALPHA' if flags else ''}", lambda rng, d=depth, f=flags: pygame.Surface((W, H), f, d)))
    out.append(("convert()", lambda rng: pygame.Surface((W, H)).convert()))
    out.append(("convert_alpha()", lambda rng: pygame.Surface((W, H), pygame.SRCALPHA).convert_alpha()))
    return out


def palette_with_duplicates(surface, rng):
    """An 8-bit palette where colours repeat, and pixels using both copies."""
    pal = [(rng.randrange(256), rng.randrange(256), rng.randrange(256)) for _ in range(8)]
    pal = pal + pal  # indices i and i + 8 show the same colour
    pal += [(0, 0, 0)] * (256 - len(pal))
    surface.set_palette(pal)
    for y in range(H):
        for x in range(W):
            surface.set_at((x, y), pal[rng.randrange(16)])
    # set_at maps a colour to its first index: write the second copies through the pixel
    # array so that both indices occur.
    arr = pygame.PixelArray(surface)
    for _ in range(12):
        x, y = rng.randrange(W), rng.randrange(H)
        arr[x, y] = rng.randrange(8) + 8
    del arr
    return pal


def cases():
    for (name, make), key, rle, surface_alpha in itertools.product(
        formats(), ("none", "present"), (False, True), (None, 128)
    ):
        if key == "none" and rle:
            continue  # RLE only applies to a colour key
        yield pytest.param(name, make, key, rle, surface_alpha, id=f"{name}-key={key}{'-rle' if rle else ''}-alpha={surface_alpha}")


@pytest.mark.parametrize("name,make,key,rle,surface_alpha", list(cases()))
def test_from_surface_equals_pygame_mask(name, make, key, rle, surface_alpha):
    rng = random.Random(f"{name}{key}{rle}{surface_alpha}")
    checked = 0
    for trial in range(3):
        surface = make(rng)
        if surface.get_bitsize() == 8:
            pal = palette_with_duplicates(surface, rng)
            key_color = pal[rng.randrange(8)]
        else:
            painted(surface, rng)
            key_color = surface.get_at((rng.randrange(W), rng.randrange(H)))
        if key == "present":
            if rle:
                surface.set_colorkey(key_color, pygame.RLEACCEL)
            else:
                surface.set_colorkey(key_color)
        if surface_alpha is not None:
            surface.set_alpha(surface_alpha)
        bitmap = Bitmap.from_surface(surface)
        assert bitmap.size == (W, H)
        alpha = np.frombuffer(bitmap.tobytes(), np.uint8).reshape(H, W, 4)[:, :, 3]
        for t in THRESHOLDS:
            if t == 255 and surface.get_colorkey() is not None:
                continue  # see the module's docstring
            mask = pygame.mask.from_surface(surface, t)
            want = np.array([[mask.get_at((x, y)) for x in range(W)] for y in range(H)], bool)
            got = alpha > t
            assert (got == want).all(), (
                f"{name}, key={key} rle={rle} alpha={surface_alpha}, trial {trial}, threshold {t}:\n"
                f"pixelhit\n{got.astype(int)}\npygame\n{want.astype(int)}"
            )
            checked += 1
        # The colours survive where pygame's RGBA bytes give them.
        rgba = np.frombuffer(pygame.image.tobytes(surface, "RGB"), np.uint8).reshape(H, W, 3)
        assert (np.frombuffer(bitmap.tobytes(), np.uint8).reshape(H, W, 4)[:, :, :3] == rgba).all()
    assert checked >= 3 * (len(THRESHOLDS) - 1)


def test_every_format_was_tried():
    """The list of formats is pygame's, not an empty one: 8, 16, 24 and 32 bits, and
    per-pixel alpha at 32 bits at least."""
    names = [n for n, _ in formats()]
    for want in ("8-bit", "16-bit", "24-bit", "32-bit", "32-bit SRCALPHA", "convert()", "convert_alpha()"):
        assert want in names, names


# ----- the four reproducers of issue 22, item 2, by name -----


def solid(bitmap, t=127):
    w, h = bitmap.size
    alpha = np.frombuffer(bitmap.tobytes(), np.uint8).reshape(h, w, 4)[:, :, 3]
    return alpha > t


def pygame_solid(surface, t=127):
    mask = pygame.mask.from_surface(surface, t)
    w, h = surface.get_size()
    return np.array([[mask.get_at((x, y)) for x in range(w)] for y in range(h)], bool)


def test_16_bit_colour_key_is_applied():
    s = pygame.Surface((4, 3), 0, 16)
    s.fill((200, 40, 40))
    s.fill((0, 0, 248), pygame.Rect(1, 1, 2, 1))
    s.set_colorkey((0, 0, 248))
    got = solid(Bitmap.from_surface(s))
    assert not got[1, 1] and not got[1, 2] and got.sum() == 10
    assert (got == pygame_solid(s)).all()


def test_32_bit_surface_alpha_does_not_read_the_padding_byte():
    s = pygame.Surface((4, 3)).convert()  # XRGB: the padding byte means nothing
    s.fill((10, 20, 30))
    s.set_alpha(40)  # the usual fade: pygame's masks ignore it
    for t in (0, 127, 254):
        assert solid(Bitmap.from_surface(s), t).all()
        assert pygame_solid(s, t).all()


def test_per_pixel_alpha_with_a_key_compares_the_whole_pixel():
    s = pygame.Surface((3, 1), pygame.SRCALPHA, 32)
    s.set_at((0, 0), (9, 9, 9, 255))
    s.set_at((1, 0), (9, 9, 9, 100))  # same RGB as the key, another alpha: not the key
    s.set_at((2, 0), (50, 50, 50, 255))
    s.set_colorkey((9, 9, 9, 255))
    got, want = solid(Bitmap.from_surface(s)), pygame_solid(s)
    assert (got == want).all(), (got, want)
    assert not got[0, 0] and got[0, 2]


def test_8_bit_palette_with_duplicate_colours_under_a_key():
    s = pygame.Surface((4, 1), 0, 8)
    pal = [(0, 0, 0)] * 256
    pal[1] = pal[2] = (255, 0, 0)  # two indices, one colour
    pal[3] = (0, 255, 0)
    s.set_palette(pal)
    arr = pygame.PixelArray(s)
    arr[0, 0], arr[1, 0], arr[2, 0], arr[3, 0] = 1, 2, 3, 1
    del arr
    s.set_colorkey((255, 0, 0))  # maps to index 1: pixels of index 2 stay
    got, want = solid(Bitmap.from_surface(s)), pygame_solid(s)
    assert (got == want).all(), (got, want)
