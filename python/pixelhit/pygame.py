"""pixelhit for pygame games: the collisions of the sprites as the game draws them, with
pygame's answers.

    import pixelhit.pygame as ph

    world = ph.World()                                  # sprite.image blitted at rect.topleft
    hits = world.spritecollide(ship, rocks, True)       # pygame.sprite.spritecollide's answer
    shot = world.groupcollide(bullets, rocks, True, True)
    if world.collide_mask(ship, ufo): ...
    if world.collidepoint(button, event.pos): ...

A `World` is told how the game draws its sprites, and answers for exactly that picture:

- `transform="none"` (the default): the game blits `sprite.image` (the attribute named by
  `image`) as it is at `sprite.rect.topleft`. A game that turns its sprites itself
  (`sprite.image = pygame.transform.rotate(original, angle)`) and blits the result is this.
- `transform="rotate"`: the game blits `pygame.transform.rotate(art, angle)` at
  `sprite.rect.topleft`, where `art` is the attribute named by `image` (the unturned art,
  say `image="original"`) and `angle` the attribute named by `angle`.
- `transform="rotozoom"`: the same with `pygame.transform.rotozoom(art, angle, scale)`
  (`scale` names an attribute, or `None` for 1).

The answers are pygame's own on the drawn sprites: `collide_mask` is what
`pygame.sprite.collide_mask` returns (the point included), `spritecollide`,
`spritecollideany` and `groupcollide` are pygame's results with that `collided` (order,
self-pairs and killing included). `among(group)` gives every touching pair of one group once.

Nothing is guessed: a sprite without an attribute the world reads, or whose `rect` is not the
size the declared transform gives its art (an image turned twice, a rect not updated), is an
`ArgumentError` naming the sprite. A call reads only the sprites it is asked about, so its
cost follows them, not the number of sprites the world holds. Sprites showing one Surface share
one bitmap. A subsurface (`sheet.subsurface(rect)`, a frame of a sprite sheet) is a region of
its sheet's bitmap: the sheet is read once, and each frame's tables are made once whichever
sprites show it. A Surface changed in place (drawn on after it was first seen) is not read
again: give the sprite a new Surface, or call `world.forget_image(surface)` (for a
subsurface, its sheet and every frame of it are read again).

`threshold` means what it means to `pygame.mask.from_surface`: a pixel is solid where its
alpha is above it (default 127; 0 counts every pixel that is not fully transparent, 255 none).
A surface with a colour key is solid where it is not the key, as in pygame.
"""

from __future__ import annotations

import ctypes
import math
from typing import Any, Dict, Iterable, List, Literal, Mapping, Optional, Sequence, Set, Tuple, TypeAlias

import pygame as _pygame

from . import ArgumentError, Bitmap, Node, Stage
from ._pixelhit import _SpriteEntry as _Entry
from ._pixelhit import _SpriteRead as _Read
from ._pixelhit import _read_pairs_among, _read_posed_sprites, _sprite_pairs_among

__all__ = ["DEFAULT_THRESHOLD", "Transform", "World", "tolerance_for"]

#: pygame's default mask threshold (`pygame.mask.from_surface(surface, threshold=127)`).
DEFAULT_THRESHOLD = 127

#: How the game draws a sprite's art: `"none"`, `"rotate"` or `"rotozoom"`.
Transform: TypeAlias = Literal["none", "rotate", "rotozoom"]

_TRANSFORMS = ("none", "rotate", "rotozoom")

# pygame kills each sprite of groupa as groupcollide passes it (so with one group twice the
# later sprites no longer see it); pygame-ce kills them all after the loop.
_KILLS_A_AT_THE_END = bool(getattr(_pygame, "IS_CE", False))

Sprite = Any  # a pygame.sprite.Sprite, or anything with the attributes the world reads
Point = Tuple[int, int]


def tolerance_for(threshold: int) -> Optional[int]:
    """pixelhit's `tolerance` for pygame's `threshold`: solid where alpha > threshold is
    solid where alpha >= 255 - tolerance, so tolerance = 254 - threshold. `None` for 255
    (nothing is solid, which no tolerance says).

    # Errors
    `ArgumentError` for anything but an integer 0..=255.

    >>> tolerance_for(127), tolerance_for(0), tolerance_for(255)
    (127, 254, None)
    """
    if isinstance(threshold, bool) or not isinstance(threshold, int) or not 0 <= threshold <= 255:
        raise ArgumentError(f"threshold is an integer 0..=255 (pygame's meaning), not {threshold!r}")
    return None if threshold == 255 else 254 - threshold


#: pygame's blit positions are C `int`s: a rect's corner must lie within them.
_BLIT_LIMIT = 2**31


class _Art:
    """One Surface's bitmap, shared by every sprite showing it; `users` counts them so the
    bitmap goes when the last one changes image (the Surface is kept so its id stays
    unique while the entry lives). `sampled`: whether pixelhit samples pygame's turned
    picture of it (semantics 4.9: art with per-pixel alpha, or a colour key under
    `rotate`); otherwise each pose's drawn surface is read from pygame. A subsurface's
    bitmap is `rect` of its `sheet`'s (the sheet's art counts the subsurface among its
    users)."""

    __slots__ = ("surface", "bitmap", "users", "sampled", "sheet", "rect")

    def __init__(
        self,
        surface: Any,
        bitmap: Bitmap,
        sampled: bool,
        sheet: Optional["_Art"] = None,
        rect: Tuple[int, int, int, int] = (0, 0, 0, 0),
    ) -> None:
        self.surface, self.bitmap, self.users, self.sampled = surface, bitmap, 0, sampled
        self.sheet, self.rect = sheet, rect


def _reads_as_its_sheet(surface: Any, sheet: Any) -> bool:
    """Whether `pygame.mask.from_surface` reads `surface`'s pixels as it reads the same
    pixels of `sheet`: a subsurface inherits its sheet's format and colour key, but either
    can be changed afterwards."""
    return bool(
        surface.get_masks() == sheet.get_masks()
        and surface.get_losses() == sheet.get_losses()
        and surface.get_bitsize() == sheet.get_bitsize()
        and surface.get_colorkey() == sheet.get_colorkey()
    )


class World:
    """Sprites on a pixelhit stage, tested pixel for pixel as the game draws them.

    `threshold` is the default alpha threshold of every query (pygame's meaning, default
    127). `transform` says how the game draws a sprite (see the module's text): `"none"`
    blits the sprite's `image` attribute as it is, `"rotate"` and `"rotozoom"` blit
    `pygame.transform.rotate(art, angle)` / `rotozoom(art, angle, scale)` of it. `image`
    names the attribute holding the art (default `"image"`), `angle` the attribute holding
    the angle in pygame's degrees (needed by `"rotate"` and `"rotozoom"`, refused by
    `"none"`), `scale` the attribute holding `rotozoom`'s scale (`None`: 1).

    # Errors
    `ArgumentError` for an unknown transform, a threshold outside 0..=255, an `angle`
    missing where the transform turns or given where it does not, a `scale` without
    `"rotozoom"`, and a `"rotate"`/`"rotozoom"` world on a pixelhit built without pygame
    renderer sampling.

    >>> import pygame, pixelhit.pygame as ph
    >>> world = ph.World()
    >>> a, b = pygame.sprite.Sprite(), pygame.sprite.Sprite()
    >>> for s, x in ((a, 0), (b, 5)):
    ...     s.image = pygame.Surface((8, 8), pygame.SRCALPHA); s.image.fill((9, 9, 9, 255))
    ...     s.rect = s.image.get_rect(topleft=(x, 0))
    >>> world.collide_mask(a, b)
    (5, 0)
    """

    def __init__(
        self,
        threshold: int = DEFAULT_THRESHOLD,
        *,
        image: str = "image",
        angle: Optional[str] = None,
        scale: Optional[str] = None,
        transform: Transform = "none",
    ) -> None:
        tolerance_for(threshold)
        if transform not in _TRANSFORMS:
            raise ArgumentError(f"transform is one of {', '.join(map(repr, _TRANSFORMS))}, not {transform!r}")
        for what, name in (("image", image), ("angle", angle), ("scale", scale)):
            if name is not None and not isinstance(name, str):
                raise ArgumentError(f"{what} names a sprite attribute (a str), not {name!r}")
        if transform == "none" and angle is not None:
            raise ArgumentError(
                f'transform="none" blits the sprite\'s {image!r} as it is, so angle={angle!r} would be '
                'ignored; a game that blits pygame.transform.rotate(art, angle) says transform="rotate"'
            )
        if transform != "none" and angle is None:
            raise ArgumentError(f'transform="{transform}" needs angle= naming the sprite attribute that holds the angle')
        if scale is not None and transform != "rotozoom":
            raise ArgumentError(f'scale={scale!r} is read only with transform="rotozoom"')
        if transform != "none":
            from . import _pixelhit

            self._output_size = _pixelhit.pygame_output_size
        self.threshold = threshold
        self.transform: Transform = transform
        self._image, self._angle, self._scale = image, angle, scale
        self.stage = Stage()
        #: The container of every sprite's node; queries are asked in its space (screen
        #: pixels, y down).
        self.space = self.stage.add_container(self.stage.root)
        self._entries: Dict[Sprite, _Entry] = {}
        self._arts: Dict[int, _Art] = {}
        self._probe = self.stage.add_bitmap(self.space, Bitmap.from_rgba(1, 1, bytes([0, 0, 0, 255])))
        self._probe.visible = False
        self._sweep: List[Sprite] = []

    # ----- sprites -----

    def add(self, sprite: Sprite, *, threshold: Optional[int] = None) -> Node:
        """Puts `sprite` on the stage (a sprite met in a query is added by itself) and
        returns its `pixelhit.Node`; `threshold` gives it a threshold of its own, used in
        every call instead of the call's (as a mask made with that threshold would be).
        Adding a sprite again sets its threshold again.

        # Errors
        `ArgumentError` for a threshold outside 0..=255 or a sprite without the image
        attribute the world reads (nothing is changed then).
        """
        if threshold is not None:
            tolerance_for(threshold)
        surface = self._attribute(sprite, self._image)
        entry = self._entries.get(sprite)
        if entry is None:
            art = self._acquire(sprite, surface)
            node = self.stage.add_bitmap(self.space, art.bitmap)
            node.data = sprite
            entry = _Entry(node, art.surface, art.sampled, threshold)
            self._entries[sprite] = entry
        entry.threshold = threshold
        tol = None if threshold is None else tolerance_for(threshold)
        entry.node.tolerance = tol
        return entry.node

    def remove(self, *sprites: Sprite) -> None:
        """Takes sprites off the stage (those not on it are ignored)."""
        for s in sprites:
            entry = self._entries.pop(s, None)
            if entry is not None:
                self._release(entry.surface)
                if entry.node.alive:
                    entry.node.remove()

    def forget_image(self, surface: Any) -> None:
        """Reads `surface` again at the next call that meets it (after the game drew on
        it in place)."""
        art = self._arts.get(id(surface))
        if art is None or art.surface is not surface:
            return
        if art.sheet is not None:
            self.forget_image(art.sheet.surface)
            return
        art.bitmap = Bitmap.from_surface(surface)
        renewed = {id(surface): art}
        for other in self._arts.values():
            if other.sheet is art:
                other.bitmap = art.bitmap.region(*other.rect)
                renewed[id(other.surface)] = other
        for entry in self._entries.values():
            shown = renewed.get(id(entry.surface))
            if shown is not None and shown.surface is entry.surface:
                entry.node.set_bitmap(shown.bitmap)
                entry.pose = None

    def node(self, sprite: Sprite) -> Node:
        """The sprite's `pixelhit.Node` (the bitmap as drawn), added if need be."""
        return self._entry(sprite).node

    def sprites(self) -> List[Sprite]:
        """The sprites on the stage, in the order they were added."""
        return list(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, sprite: object) -> bool:
        return sprite in self._entries

    # ----- queries -----

    def spritecollide(self, sprite: Sprite, group: Iterable[Sprite], dokill: bool = False, *, threshold: Optional[int] = None) -> List[Sprite]:
        """What `pygame.sprite.spritecollide(sprite, group, dokill,
        pygame.sprite.collide_mask)` returns on the drawn sprites: the sprites of `group`
        whose solid pixels touch `sprite`'s, in the group's order (`sprite` itself when it
        is in `group` and has a solid pixel); with `dokill` they are killed and taken off
        the stage.

        # Errors
        `ArgumentError` for a bad threshold or a sprite the world cannot read (see the
        class); nothing is killed then.
        """
        others = list(group)
        tol = self._query_tolerance(threshold)
        reads = self._read([sprite] + others)
        me = reads[sprite]
        found = [others[i] for i in self._hits(me, [reads[o] for o in others], tol)]
        if dokill:
            self._kill(found)
        return found

    def spritecollideany(self, sprite: Sprite, group: Iterable[Sprite], *, threshold: Optional[int] = None) -> Optional[Sprite]:
        """The first sprite of `group` that touches `sprite`, or `None`, as
        `pygame.sprite.spritecollideany(sprite, group, collide_mask)`.

        # Errors
        As `spritecollide`.
        """
        found = self.spritecollide(sprite, group, threshold=threshold)
        return found[0] if found else None

    def groupcollide(
        self,
        groupa: Iterable[Sprite],
        groupb: Iterable[Sprite],
        dokilla: bool = False,
        dokillb: bool = False,
        *,
        threshold: Optional[int] = None,
    ) -> Dict[Sprite, List[Sprite]]:
        """What `pygame.sprite.groupcollide(groupa, groupb, dokilla, dokillb,
        collide_mask)` returns on the drawn sprites: each sprite of `groupa` (in its
        order) that touches sprites of `groupb`, to the list of those (in `groupb`'s
        order). With one group twice, a sprite lists itself too, as pygame's does. With
        `dokillb` a sprite of `groupb` killed for one sprite of `groupa` is not found by
        the later ones; with `dokilla` the same holds for a sprite in both groups under
        pygame, which kills as it goes, and not under pygame-ce, which kills at the end.

        # Errors
        As `spritecollide`.
        """
        a, b = list(groupa), list(groupb)
        tol = self._query_tolerance(threshold)
        reads = self._read(a + b)
        pairs = self._pairs_between([reads[s] for s in a], [reads[s] for s in b], tol)
        result: Dict[Sprite, List[Sprite]] = {}
        killed: Set[Sprite] = set()  # gone from groupb for the sprites of groupa after it
        for i, sa in enumerate(a):
            hits = [b[j] for j in pairs.get(i, ()) if b[j] not in killed]
            if hits:
                result[sa] = hits
                if dokillb:
                    killed.update(hits)
                if dokilla and not _KILLS_A_AT_THE_END:
                    killed.add(sa)
        if dokilla:
            killed.update(result)
        self._kill(list(dict.fromkeys(s for s in a + b if s in killed)))
        return result

    def among(self, group: Iterable[Sprite], *, threshold: Optional[int] = None) -> List[Tuple[Sprite, Sprite]]:
        """Every touching pair of `group` once, `(a, b)` with `a` before `b` in the group's
        order, sorted by `a` then `b` (no sprite with itself).

        # Errors
        As `spritecollide`.
        """
        members = dict.fromkeys(group)
        tol = self._query_tolerance(threshold)
        order = list(members)
        pairs = _read_pairs_among(order, self._entries, self._image, self._angle, self._scale, self.transform, self.stage, self.space, tol)
        if pairs is not None:
            self._sweep_killed(len(order) + 1, members)
            return pairs
        reads = self._read_each(order)
        return _sprite_pairs_among(self.stage, [reads[s] for s in order], self.space, tol)

    def collide_mask(self, left: Sprite, right: Sprite, *, threshold: Optional[int] = None) -> Optional[Point]:
        """What `pygame.sprite.collide_mask(left, right)` returns on the drawn sprites
        (masks made with the threshold): the point pygame's `Mask.overlap` finds, relative
        to `left.rect`'s top-left corner, or `None`. Usable as the `collided` argument of
        pygame's own `spritecollide`, `groupcollide` and `spritecollideany`: pairs whose
        rects do not meet are answered without touching the stage.

        # Errors
        As `spritecollide`.
        """
        tol = self._query_tolerance(threshold)
        reads = self._read([left, right])
        lr, rr = reads[left], reads[right]
        if left is right:
            own = self._tolerance(lr, tol)
            if own is None:
                return None
            # One sprite with itself: pygame's first set bit of its own drawn mask (one pass
            # over its alpha plane, in C).
            mask = _pygame.mask.from_surface(self._drawn(lr), 254 - own)
            return mask.overlap(mask, (0, 0))
        if self._tolerance(lr, tol) is None or self._tolerance(rr, tol) is None or not lr.touches_box(rr):
            return None
        contacts = self.stage.contacts_against(
            lr.entry.node, [rr.entry.node], self.space, tolerance=tol or 0, anti_alias=False, details=True
        )
        if not contacts or contacts[0].mask is None:
            return None
        m = contacts[0].mask
        return _pygame_overlap_point(m.tobytes(), m.width, m.height, m.x - lr.x, m.y - lr.y, rr.x - lr.x)

    def collidepoint(self, sprite: Sprite, pos: Sequence[int], *, threshold: Optional[int] = None) -> bool:
        """Whether the pixel `pos` (a mouse position) shows a solid pixel of `sprite` as
        drawn: `sprite.mask.get_at` for the drawn mask, where `sprite.rect.collidepoint(pos)`
        is the box. The sprite's own threshold, if it has one, is used.

        # Errors
        As `spritecollide`, and `ArgumentError` for a `pos` that is not two integers.
        """
        px, py = _point(pos)
        tol = self._query_tolerance(threshold)
        r = self._read([sprite])[sprite]
        return self._point_hits(r, px, py, tol)

    def sprite_at(self, pos: Sequence[int], group: Iterable[Sprite], *, threshold: Optional[int] = None) -> Optional[Sprite]:
        """The topmost sprite of `group` (the last in its order, as `Group.draw` paints
        them) with a solid pixel at `pos`, or `None`. Each sprite's own threshold is used.

        # Errors
        As `collidepoint`.
        """
        px, py = _point(pos)
        tol = self._query_tolerance(threshold)
        members = list(group)
        reads = self._read(members)
        for s in reversed(members):
            r = reads[s]
            if r.x <= px < r.x + r.w and r.y <= py < r.y + r.h and self._point_hits(r, px, py, tol):
                return s
        return None

    # ----- plumbing -----

    def _query_tolerance(self, threshold: Optional[int]) -> Optional[int]:
        return tolerance_for(self.threshold if threshold is None else threshold)

    def _threshold(self, r: _Read, threshold: Optional[int]) -> int:
        own = r.entry.threshold
        if own is not None:
            return own
        return self.threshold if threshold is None else threshold

    @staticmethod
    def _tolerance(r: _Read, query: Optional[int]) -> Optional[int]:
        own = r.entry.threshold
        return query if own is None else tolerance_for(own)

    def _hits(self, me: _Read, others: List[_Read], tol: Optional[int]) -> List[int]:
        """Indices of `others` touching `me` (`me` itself included when it has a solid
        pixel), in `others`' order."""
        if self._tolerance(me, tol) is None:
            return []
        near = [i for i, o in enumerate(others) if o is not me and self._tolerance(o, tol) is not None and me.touches_box(o)]
        hit: Set[Node] = set()
        if near:
            contacts = self.stage.contacts_against(
                me.entry.node, [others[i].entry.node for i in near], self.space, tolerance=tol or 0, anti_alias=False
            )
            hit = {c.b for c in contacts}
        selfhit = any(o is me for o in others) and self._has_solid(me, tol)
        return [i for i, o in enumerate(others) if (o is me and selfhit) or (o is not me and o.entry.node in hit)]

    def _pairs_between(self, a: List[_Read], b: List[_Read], tol: Optional[int]) -> Dict[int, List[int]]:
        """For each index of `a`, the indices of `b` it touches, ascending (self-pairs of a
        sprite in both lists included when it has a solid pixel)."""
        out: Dict[int, List[int]] = {}
        na = [r for r in a if self._tolerance(r, tol) is not None]
        nb = [r for r in b if self._tolerance(r, tol) is not None]
        if not na or not nb:
            return out
        index_a: Dict[Node, List[int]] = {}
        for i, r in enumerate(a):
            index_a.setdefault(r.entry.node, []).append(i)
        index_b: Dict[Node, List[int]] = {}
        for j, r in enumerate(b):
            index_b.setdefault(r.entry.node, []).append(j)
        ua = list(dict.fromkeys(r.entry.node for r in na))
        ub = list(dict.fromkeys(r.entry.node for r in nb))
        found: Dict[int, Set[int]] = {}
        if any(n in index_b for n in index_a):
            # Groups that share sprites: every pair of their union once, read both ways.
            union = list(dict.fromkeys(ua + ub))
            contacts = self.stage.contacts_among(union, self.space, tolerance=tol or 0, anti_alias=False)
            ends = [(c.a, c.b) for c in contacts] + [(c.b, c.a) for c in contacts]
        else:
            contacts = self.stage.contacts_between(ua, ub, self.space, tolerance=tol or 0, anti_alias=False)
            ends = [(c.a, c.b) for c in contacts]
        for na_, nb_ in ends:
            if na_ in index_a and nb_ in index_b and na_ != nb_:
                for i in index_a[na_]:
                    found.setdefault(i, set()).update(index_b[nb_])
        for node, idx in index_a.items():
            if node in index_b and self._has_solid(a[idx[0]], tol):
                for i in idx:
                    found.setdefault(i, set()).update(index_b[node])
        for i in sorted(found):
            out[i] = sorted(found[i])
        return out

    def _has_solid(self, r: _Read, tol: Optional[int]) -> bool:
        """Whether the drawn sprite has a solid pixel: one pass over its own alpha plane
        (pygame's mask of the drawn surface, in C)."""
        own = self._tolerance(r, tol)
        if own is None:
            return False
        return _pygame.mask.from_surface(self._drawn(r), 254 - own).count() > 0

    def _point_hits(self, r: _Read, px: int, py: int, tol: Optional[int]) -> bool:
        own = self._tolerance(r, tol)
        if own is None or not (r.x <= px < r.x + r.w and r.y <= py < r.y + r.h):
            return False
        self._probe.set_position(px, py)
        return self.stage.collision_rect(r.entry.node, self._probe, self.space, tolerance=own) is not None

    def _drawn(self, r: _Read) -> Any:
        """The Surface the game blits for this sprite (built by pygame for the turning
        transforms; only for answers that need pygame's own scan order)."""
        return self._turned(r.entry.surface, r.angle, r.scale)

    def _turned(self, art: Any, angle: float, scale: float) -> Any:
        if self.transform == "rotate":
            return _pygame.transform.rotate(art, angle)
        if self.transform == "rotozoom":
            return _pygame.transform.rotozoom(art, angle, scale)
        return art

    def _sampled(self, surface: Any) -> bool:
        """Whether pixelhit's pygame renderer gives exactly the mask of this art as the game
        draws it. Not for art without per-pixel alpha under `rotozoom` (pygame drops its colour
        key and makes it opaque, pygame-ce compares interpolated colours with the key) nor for
        art with neither alpha nor key (its turned background is opaque): pygame's own
        surface is read for those, each pose."""
        if self.transform == "none":
            return True
        per_pixel_alpha = surface.get_masks()[3] != 0
        keyed = surface.get_colorkey() is not None
        if self.transform == "rotate":
            return per_pixel_alpha or keyed
        return per_pixel_alpha and not keyed

    def _attribute(self, sprite: Sprite, name: str) -> Any:
        try:
            return getattr(sprite, name)
        except AttributeError:
            raise ArgumentError(f"sprite {sprite!r} has no attribute {name!r} (the World reads it: {name}=...)") from None

    def _number(self, sprite: Sprite, name: str) -> float:
        value = self._attribute(sprite, name)
        try:
            number = float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else math.nan
        except OverflowError:  # an int past the floats
            number = math.inf
        if not math.isfinite(number):
            raise ArgumentError(f"sprite {sprite!r}: its {name} is {value!r}, not a finite number")
        return number

    def _acquire(self, sprite: Sprite, surface: Any) -> _Art:
        art = self._arts.get(id(surface))
        if art is None or art.surface is not surface:
            if not isinstance(surface, _pygame.Surface):
                raise ArgumentError(f"sprite {sprite!r}: its {self._image} is {surface!r}, not a pygame Surface")
            art = self._art_of(surface)
            self._arts[id(surface)] = art
        art.users += 1
        return art

    def _art_of(self, surface: Any) -> _Art:
        """A new art for `surface`: its own pixels, or for a subsurface, the region of its
        sheet's bitmap (the sheet read once, when first met)."""
        sheet_surface = surface.get_abs_parent()
        if sheet_surface is surface or not _reads_as_its_sheet(surface, sheet_surface):
            return _Art(surface, Bitmap.from_surface(surface), self._sampled(surface))
        sheet = self._arts.get(id(sheet_surface))
        if sheet is None or sheet.surface is not sheet_surface:
            sheet = _Art(sheet_surface, Bitmap.from_surface(sheet_surface), self._sampled(sheet_surface))
            self._arts[id(sheet_surface)] = sheet
        sheet.users += 1
        (x, y), (w, h) = surface.get_abs_offset(), surface.get_size()
        return _Art(surface, sheet.bitmap.region(x, y, w, h), self._sampled(surface), sheet, (x, y, w, h))

    def _release(self, surface: Any) -> None:
        art = self._arts.get(id(surface))
        if art is not None and art.surface is surface:
            art.users -= 1
            if art.users <= 0:
                del self._arts[id(surface)]
                if art.sheet is not None:
                    self._release(art.sheet.surface)

    def _entry(self, sprite: Sprite) -> _Entry:
        entry = self._entries.get(sprite)
        if entry is None:
            self.add(sprite)
            entry = self._entries[sprite]
        return entry

    def _read(self, sprites: List[Sprite]) -> Dict[Sprite, _Read]:
        """Reads each sprite given once (image, rect, angle, scale), checks the rect against
        the declared transform, and poses the nodes that moved. Everything is read and
        checked before any node changes, so a refused call changes nothing."""
        fast = _read_posed_sprites(sprites, self._entries, self._image, self._angle, self._scale, self.transform)
        if fast is not None:
            self._sweep_killed(len(fast) + 1, fast)
            return fast
        return self._read_each(sprites)

    def _read_each(self, sprites: List[Sprite]) -> Dict[Sprite, _Read]:
        """`_read` for any call: the common case (sprites on the stage showing the same
        art, in whole-pixel rects of the right size, at finite angles and scales) is read by
        `_pixelhit._read_posed_sprites`, the same reads and poses as this."""
        unique = list(dict.fromkeys(sprites))
        read: Dict[Sprite, Tuple[Any, int, int, int, int, float, float]] = {}
        for s in unique:
            surface = self._attribute(s, self._image)
            if not isinstance(surface, _pygame.Surface):
                raise ArgumentError(f"sprite {s!r}: its {self._image} is {surface!r}, not a pygame Surface")
            rect = self._attribute(s, "rect")
            try:
                x, y, w, h = rect.x, rect.y, rect.width, rect.height
            except AttributeError:
                raise ArgumentError(f"sprite {s!r}: its rect is {rect!r}, not a pygame Rect") from None
            try:  # pygame blits at whole pixels that fit a C int
                whole = x == int(x) and y == int(y) and max(abs(int(x)), abs(int(y))) < _BLIT_LIMIT
            except (OverflowError, ValueError, TypeError):  # inf, nan, not a number
                whole = False
            if not whole:
                raise ArgumentError(f"sprite {s!r}: its rect's topleft {(x, y)} is not a whole pixel (pygame blits at whole pixels)")
            angle = self._number(s, self._angle) if self._angle else 0.0
            scale = self._number(s, self._scale) if self._scale else 1.0
            aw, ah = surface.get_size()
            # Every sprite is read on every call: the refusal's text is built only when it
            # is needed (formatting it first was most of a read).
            want = (aw, ah) if self.transform == "none" else self._output_size(aw, ah, self.transform, angle, scale)
            if (w, h) != want:
                raise self._size_refusal(s, (w, h), (aw, ah), angle, scale, want)
            read[s] = (surface, int(x), int(y), int(w), int(h), angle, scale)
        out: Dict[Sprite, _Read] = {}
        for s in unique:
            surface, x, y, w, h, angle, scale = read[s]
            entry = self._entry(s)
            if s.alive() if hasattr(s, "alive") else False:
                entry.was_alive = True
            if surface is not entry.surface:
                art = self._acquire(s, surface)
                self._release(entry.surface)
                entry.surface, entry.sampled = surface, art.sampled
                entry.node.set_bitmap(art.bitmap)
                entry.pose = None
            pose = (x, y, angle, scale)
            if pose != entry.pose:
                entry.node.set_position(x, y)
                if self.transform != "none":
                    if self._arts[id(surface)].sampled:
                        entry.node.set_pygame_transform(self.transform, angle, scale)
                    else:
                        entry.node.clear_pygame_transform()
                        entry.node.set_bitmap(Bitmap.from_surface(self._turned(surface, angle, scale)))
                entry.pose = pose
            out[s] = _Read(s, entry, x, y, w, h, angle, scale)
        self._sweep_killed(len(unique) + 1, out)
        return out

    def _size_refusal(
        self, s: Sprite, drawn: Tuple[int, int], art: Tuple[int, int], angle: float, scale: float, want: Tuple[int, int]
    ) -> ArgumentError:
        """The error for a sprite whose rect is not the size the declared transform gives."""
        (w, h), (aw, ah) = drawn, art
        if self.transform == "none":
            how = f'its {self._image}, blitted as it is (transform="none"),'
        else:
            call = f"pygame.transform.{self.transform}({self._image}, {self._angle}={angle:g}"
            call += f", {self._scale}={scale:g})" if self.transform == "rotozoom" else ")"
            how = f"{call} of its {aw}x{ah} {self._image}"
        return ArgumentError(
            f"sprite {s!r}: its rect is {w}x{h}, but {how} is {want[0]}x{want[1]}; the World must be told "
            "what the game blits (an image turned twice, or a rect not updated after the image changed?)"
        )

    def _sweep_killed(self, budget: int, asked: Mapping[Sprite, Any]) -> None:
        """Takes off up to `budget` sprites the game killed (in a group once, in none now),
        walking the world a little per call, so a call's cost follows what it asks."""
        while budget > 0:
            if not self._sweep:
                if len(self._entries) <= len(asked):
                    return
                self._sweep = list(self._entries)
            s = self._sweep.pop()
            budget -= 1
            entry = self._entries.get(s)
            if entry is not None and s not in asked and entry.was_alive and hasattr(s, "alive") and not s.alive():
                self.remove(s)

    def _kill(self, sprites: List[Sprite]) -> None:
        for s in sprites:
            s.kill()
        self.remove(*sprites)


#: The width of a word of pygame's bitmask (`BITMASK_W`, a C `unsigned long`): its masks are
#: stored and scanned in vertical stripes this wide.
_STRIPE = 8 * ctypes.sizeof(ctypes.c_ulong)


def _pygame_overlap_point(data: bytes, w: int, h: int, x0: int, y0: int, xoffset: int) -> Optional[Point]:
    """The point `Mask.overlap(other, (xoffset, _))` returns, from the pixels the two masks
    share (`data`: `w` x `h` bytes, 1 where shared, its top-left at `(x0, y0)` in the left
    mask's coordinates).

    pygame scans in stripes of `_STRIPE` columns: the columns where a stripe of the left
    mask meets a stripe of the right one form a segment; it visits the segments by the
    right mask's stripe, then the left's (swapped when `xoffset` is negative), which is
    left to right since both grow with x; and each segment row by row from the top, the
    lowest x of a row first."""
    cuts = {x0, x0 + w}
    for origin in (0, xoffset):
        k = (x0 - origin) // _STRIPE + 1
        while origin + k * _STRIPE < x0 + w:
            cuts.add(origin + k * _STRIPE)
            k += 1
    edges = sorted(cuts)
    for c0, c1 in zip(edges, edges[1:]):
        for j in range(h):
            start = j * w + c0 - x0
            i = data.find(1, start, start + c1 - c0)
            if i >= 0:
                return (c0 + i - start, y0 + j)
    return None


def _point(pos: Sequence[int]) -> Point:
    try:
        x, y = pos
    except (TypeError, ValueError):
        raise ArgumentError(f"pos is two integers (x, y), not {pos!r}") from None
    if x != int(x) or y != int(y):
        raise ArgumentError(f"pos is a whole pixel (x, y), not {pos!r}")
    return int(x), int(y)
