"""pixelhit: pixel-exact hit testing for Flash-style display trees.

Build a tree of nested, transformed nodes on a `Stage` (containers with vector fills and
strokes from SVG path data or SVG files, bitmaps from PNG files, numpy arrays or pygame
Surfaces) and ask whether two of them touch on screen and exactly where, with rotation,
scale, alpha and visibility applied. Every sprite of a frame at once: `Stage.contacts_among`.

`pixelhit.pygame` puts the same answers behind calls that read like pygame's
(`spritecollide`, `groupcollide`, `collide_mask`, `collidepoint`) for `pygame.sprite.Sprite`s.

Every refusal raises a subclass of `PixelhitError` (itself a `ValueError`): `NodeError`,
`ArgumentError`, `DataError`, `BudgetError`, `BusyError`.
"""

from ._pixelhit import (
    DEFAULT_MAX_PIXELS,
    DEFAULT_MAX_STEP,
    DEFAULT_MAX_TESTS,
    DEFAULT_MAX_WORK,
    MAX_CLOSE_PAIRS,
    MIN_MAX_STEP,
    ArgumentError,
    Atlas,
    Bitmap,
    BudgetError,
    BusyError,
    Collision,
    Contact,
    ContactEvent,
    ContactTracker,
    DataError,
    Graphic,
    Node,
    NodeError,
    OverlapMask,
    Path,
    PixelhitError,
    Pose,
    Stage,
    SvgLoad,
    Sweep,
    SweepHit,
    __version__,
    pygame_alpha_plane,
    pygame_output_size,
)

__all__ = [
    "DEFAULT_MAX_PIXELS",
    "DEFAULT_MAX_STEP",
    "DEFAULT_MAX_TESTS",
    "DEFAULT_MAX_WORK",
    "MAX_CLOSE_PAIRS",
    "MIN_MAX_STEP",
    "ArgumentError",
    "Atlas",
    "Bitmap",
    "BudgetError",
    "BusyError",
    "Collision",
    "Contact",
    "ContactEvent",
    "ContactTracker",
    "DataError",
    "Graphic",
    "Node",
    "NodeError",
    "OverlapMask",
    "Path",
    "PixelhitError",
    "Pose",
    "Stage",
    "SvgLoad",
    "Sweep",
    "SweepHit",
    "__version__",
    "pygame_alpha_plane",
    "pygame_output_size",
]
