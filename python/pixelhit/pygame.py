"""pixelhit for pygame games: pixel-exact collisions of turning sprites, called like pygame.

    import pixelhit.pygame as ph

    world = ph.World()                        # threshold=127, as pygame.mask.from_surface
    world.add(ship, ship.original_image)      # the unrotated art; the pivot is its centre
    hits = world.spritecollide(ship, rocks, True)      # like pygame.sprite.spritecollide
    shot = world.groupcollide(bullets, rocks, True, True)
    if world.collide_mask(ship, ufo): ...
    if world.collidepoint(button, event.pos): ...

A `World` is a pixelhit `Stage` whose nodes are your `pygame.sprite.Sprite`s. Each sprite is
shown from its unrotated image (a pygame Surface, read as `pygame.mask.from_surface` reads
it) and turns about the image's centre. Its pose is read from the sprite at every query: the
centre of `sprite.rect` (a `Rect` or an `FRect`) and, when the sprite has one, its `angle`
attribute in pygame's direction (degrees counter-clockwise, as `pygame.transform.rotate`
takes them). So a game that draws `pygame.transform.rotate(original, angle)` centred on
`rect.center` collides exactly what it draws, without building a mask per frame.

Answers are the game's own Sprites. `dokill` kills them (`Sprite.kill`) and takes them off
the stage; a sprite killed by the game itself (it was in a group and is in none now) is taken
off at the next query. Sprites met for the first time in a query are added from their
`image` (or the attribute the world is told to read, such as `original`).

`threshold` means what it means to `pygame.mask.from_surface`: a pixel is solid where its
alpha is above it (default 127; 0 counts every pixel that is not fully transparent, 255
none). A surface with a colour key is solid where it is not the key, whatever the threshold,
as in pygame.

This module is plain Python over `pixelhit.Stage`: `world.stage` and `world.node(sprite)`
give the nodes for everything else pixelhit does (`debug_image`, `ContactTracker`, ...).
"""

import pygame as _pygame  # noqa: F401  (fails early and clearly without pygame)

from . import ArgumentError, Bitmap, Stage

__all__ = ["DEFAULT_THRESHOLD", "World", "tolerance_for"]

#: pygame's default mask threshold (`pygame.mask.from_surface(surface, threshold=127)`).
DEFAULT_THRESHOLD = 127


def tolerance_for(threshold):
    """pixelhit's `tolerance` for pygame's `threshold`: solid where alpha > threshold is
    solid where alpha >= 255 - tolerance, so tolerance = 254 - threshold. `None` for 255
    (nothing is solid, which no tolerance says)."""
    if isinstance(threshold, bool) or not isinstance(threshold, int) or not 0 <= threshold <= 255:
        raise ArgumentError(f"threshold is an integer 0..=255 (pygame's meaning), not {threshold!r}")
    return None if threshold == 255 else 254 - threshold


class _Entry:
    """What the world keeps for one sprite: its node (the pivot, at the image's centre), the
    bitmap node inside it, the bitmap, and whether the sprite was ever in a group."""

    __slots__ = ("node", "art", "bitmap", "size", "was_alive")

    def __init__(self, node, art, bitmap, size):
        self.node, self.art, self.bitmap, self.size = node, art, bitmap, size
        self.was_alive = False


class World:
    """Sprites on a pixelhit stage, tested pixel for pixel as they are drawn.

    `threshold` is the default alpha threshold of every query (pygame's meaning, default
    127); `image` names the sprite attribute holding its unrotated image, read when a
    sprite is first met (default `"image"`; a game that keeps `sprite.original` and draws
    `sprite.image = rotate(sprite.original, angle)` says `image="original"`); `angle` names the sprite attribute holding its rotation in pygame's direction
    (`None`: sprites do not turn); `scale` names an attribute holding a uniform scale, as
    `pygame.transform.rotozoom` takes it (`None`, the default: 1).
    """

    def __init__(self, threshold=DEFAULT_THRESHOLD, *, image="image", angle="angle", scale=None):
        tolerance_for(threshold)
        self.threshold = threshold
        self._image, self._angle, self._scale = image, angle, scale
        self.stage = Stage()
        #: The container of every sprite's node; queries are asked in its space (screen
        #: pixels, y down).
        self.space = self.stage.add_container(self.stage.root)
        self._entries = {}

    # ----- sprites -----

    def add(self, sprite, image=None, *, threshold=None):
        """Puts `sprite` on the stage, showing `image` (default: the sprite's attribute
        named by the world's `image`, `sprite.image` unless said otherwise), the
        sprite's art before any rotation; returns its `pixelhit.Node`. Adding a sprite again
        replaces its image. `threshold` gives this sprite a threshold of its own, used
        instead of the query's (as a mask made with that threshold would be)."""
        image = getattr(sprite, self._image) if image is None else image
        bitmap = Bitmap.from_surface(image)
        self.remove(sprite)
        node = self.stage.add_container(self.space)
        art = self.stage.add_bitmap(node, bitmap)
        w, h = image.get_size()
        art.set_position(-w / 2, -h / 2)
        node.data = sprite
        if threshold is not None:
            t = tolerance_for(threshold)
            if t is None:
                art.visible = False  # nothing solid
            else:
                node.tolerance = t
        self._entries[sprite] = _Entry(node, art, bitmap, (w, h))
        return node

    def set_image(self, sprite, image, *, threshold=None):
        """Shows another unrotated image for `sprite` (an animation frame): `add` again."""
        return self.add(sprite, image, threshold=threshold)

    def remove(self, *sprites):
        """Takes sprites off the stage (those not on it are ignored)."""
        for s in sprites:
            entry = self._entries.pop(s, None)
            if entry is not None and entry.node.alive:
                entry.node.remove()

    def node(self, sprite):
        """The sprite's `pixelhit.Node` (added from `sprite.image` if it is not on the stage)."""
        return self._entry(sprite).node

    def sprites(self):
        """The sprites on the stage, in the order they were added (the paint order)."""
        return list(self._entries)

    def __len__(self):
        return len(self._entries)

    def __contains__(self, sprite):
        return sprite in self._entries

    # ----- queries -----

    def spritecollide(self, sprite, group, dokill=False, *, threshold=None):
        """The sprites of `group` whose pixels touch `sprite`'s, in the group's order, as
        `pygame.sprite.spritecollide(sprite, group, dokill, pygame.sprite.collide_mask)`
        answers for unrotated sprites; with `dokill`, those sprites are killed and taken
        off the stage."""
        others = list(group)
        tol = self._query_tolerance(threshold)
        self._sync([sprite] + others)
        if tol is None or not others:
            return []
        node = self._entries[sprite].node
        contacts = self.stage.collisions_with(
            self.space, node, [self._entries[s].node for s in others], tolerance=tol
        )
        hit = {c.b for c in contacts}
        if sprite in others and self._first_solid(sprite, tol) is not None:
            hit.add(node)  # pygame finds a sprite with a solid pixel in its own group
        found = [s for s in others if self._entries[s].node in hit]
        if dokill:
            self._kill(found)
        return found

    def spritecollideany(self, sprite, group, *, threshold=None):
        """The first sprite of `group` that touches `sprite`, or `None`."""
        found = self.spritecollide(sprite, group, threshold=threshold)
        return found[0] if found else None

    def groupcollide(self, groupa, groupb, dokilla=False, dokillb=False, *, threshold=None):
        """A dict from each sprite of `groupa` that touches sprites of `groupb` to the list
        of those (in `groupb`'s order), as `pygame.sprite.groupcollide(..., collide_mask)`;
        `dokilla`/`dokillb` kill the colliding sprites of either group."""
        a, b = list(groupa), list(groupb)
        tol = self._query_tolerance(threshold)
        self._sync(a + b)
        if tol is None or not a or not b:
            return {}
        contacts = self.stage.collisions_between(
            self.space, [self._entries[s].node for s in a], [self._entries[s].node for s in b], tolerance=tol
        )
        result = {}
        for c in contacts:
            result.setdefault(c.a.data, []).append(c.b.data)
        if dokilla:
            self._kill(list(result))
        if dokillb:
            self._kill(list(dict.fromkeys(s for hits in result.values() for s in hits)))
        return result

    def collide_mask(self, left, right, *, threshold=None):
        """Whether two sprites' pixels touch, as `pygame.sprite.collide_mask(left, right)`:
        the first touching pixel (row by row from the top) relative to `left.rect`'s
        top-left corner, or `None`. Usable as the `collided` argument of pygame's own
        `spritecollide`, `groupcollide` and `spritecollideany`."""
        tol = self._query_tolerance(threshold)
        self._sync([left, right])
        if tol is None:
            return None
        ln, rn = self._entries[left].node, self._entries[right].node
        if ln == rn:
            return self._first_solid(left, tol)
        contacts = self.stage.collisions_with(self.space, ln, [rn], tolerance=tol, details=True)
        if not contacts:
            return None
        x, y = contacts[0].first
        return (x - int(left.rect.x), y - int(left.rect.y))

    def collidepoint(self, sprite, pos, *, threshold=None):
        """Whether the pixel `pos` (a mouse position) shows a solid pixel of `sprite`: its
        shape, not its box (`sprite.rect.collidepoint(pos)` is the box). The pixel's centre
        is tested against the turned image, texel by texel."""
        t = self.threshold if threshold is None else threshold
        tolerance_for(t)
        self._sync([sprite])
        entry = self._entries[sprite]
        if not entry.art.visible:
            return False
        u, v = entry.art.global_to_local(pos[0] + 0.5, pos[1] + 0.5)
        texel = entry.bitmap.pixel(int(u // 1), int(v // 1))
        return texel is not None and texel[3] > t

    def sprite_at(self, pos, *, threshold=None):
        """The topmost sprite (the last added) whose solid pixel is at `pos`, or `None`."""
        t = self.threshold if threshold is None else threshold
        tolerance_for(t)
        self._sync(list(self._entries))
        if t == 255:
            return None
        node = self.stage.pick(pos[0] + 0.5, pos[1] + 0.5, min_alpha=t + 1)
        return None if node is None else node.data

    # ----- plumbing -----

    def _query_tolerance(self, threshold):
        return tolerance_for(self.threshold if threshold is None else threshold)

    def _entry(self, sprite):
        entry = self._entries.get(sprite)
        if entry is None:
            self.add(sprite)
            entry = self._entries[sprite]
        return entry

    def _sync(self, sprites):
        """Takes killed sprites off, adds new ones, and poses every sprite given from its
        rect and angle, in one call."""
        given = set(sprites)
        for s, entry in list(self._entries.items()):
            if s.alive():
                entry.was_alive = True
            elif entry.was_alive and s not in given:
                self.remove(s)
        nodes, poses = [], []
        for s in dict.fromkeys(sprites):
            entry = self._entry(s)
            if s.alive():
                entry.was_alive = True
            r = s.rect
            angle = getattr(s, self._angle, 0) if self._angle else 0
            scale = getattr(s, self._scale, 1) if self._scale else 1
            nodes.append(entry.node)
            # The exact centre of the rect (rect.center rounds down for odd sizes), and
            # pygame's counter-clockwise degrees as pixelhit's clockwise ones.
            poses.append((r.x + r.width / 2, r.y + r.height / 2, -float(angle or 0), scale, scale))
        if nodes:
            self.stage.set_transforms(nodes, poses)

    def _kill(self, sprites):
        for s in sprites:
            s.kill()
        self.remove(*sprites)

    def _first_solid(self, sprite, tolerance):
        """A sprite against itself: its first solid pixel, row by row, relative to its rect."""
        r = sprite.rect
        threshold = 254 - tolerance
        entry = self._entries[sprite]
        box = self.stage.bounds(entry.node, self.space)
        if box is None:
            return None
        x0, y0 = int(box[0] // 1), int(box[1] // 1)
        for y in range(y0, int(-(-(box[1] + box[3]) // 1))):
            for x in range(x0, int(-(-(box[0] + box[2]) // 1))):
                if self.collidepoint(sprite, (x, y), threshold=threshold):
                    return (x - int(r.x), y - int(r.y))
        return None

