"""pixelhit: pixel-exact hit testing for Flash-style display trees.

Build a tree of nested, transformed nodes on a `Stage` (containers with vector fills and
strokes from SVG path data, bitmaps from PNG files, numpy arrays or pygame Surfaces) and
ask whether two of them touch on screen and exactly where, with rotation, scale, alpha and
visibility applied. Every sprite of a frame at once: `Stage.contacts_among`.

Units are pixels, y points down, rotations are degrees clockwise on screen. Rectangles are
`(x, y, width, height)` tuples of floats; matrices are `(a, b, c, d, tx, ty)` with
`x' = a*x + c*y + tx`, `y' = b*x + d*y + ty`.
"""

from os import PathLike
from typing import Any, Dict, Iterable, Iterator, List, Literal, Optional, Sequence, Tuple, Union, final

from typing_extensions import deprecated

__version__: str

def pygame_output_size(
    width: int, height: int, transform: str, angle: float, scale: float = 1.0
) -> tuple[int, int]:
    """The size of the surface `pygame.transform.rotate` ("rotate") or `rotozoom`
    ("rotozoom") returns for a `width` x `height` source, exactly as pygame computes it."""

def pygame_alpha_plane(
    bitmap: Bitmap,
    transform: str,
    angle: float,
    scale: float = 1.0,
    flip_x: bool = False,
    flip_y: bool = False,
    flavour: str | None = None,
) -> tuple[int, int, bytes]:
    """`(width, height, alpha)`: the row-major alpha plane of the surface pygame's `rotate`
    or `rotozoom` (after `flip`) returns for `bitmap`, bit for bit, without pygame. `flavour`
    is "pygame", "pygame-ce" or None for the imported pygame's."""

#: The default pixel budget of a precise query: 2^28 pixels.
DEFAULT_MAX_PIXELS: int
#: Most pairs of overlapping boxes a many-object query tests; past it the query raises.
MAX_CLOSE_PAIRS: int
#: The default `max_step` of a motion query: half a pixel.
DEFAULT_MAX_STEP: float
#: The smallest `max_step` allowed: 1/64 px.
MIN_MAX_STEP: float
#: The default `max_tests` of a motion query: 2^18 tested poses per pair.
DEFAULT_MAX_TESTS: int
#: The default `max_work` of a many-object or motion query: 2^26 pixel tests per call.
DEFAULT_MAX_WORK: int

@final
class _SpriteEntry:
    """What a `pixelhit.pygame.World` keeps for one sprite (internal)."""

    node: Node
    surface: Any
    sampled: bool
    pose: Optional[Tuple[float, float, float, float]]
    threshold: Optional[int]
    was_alive: bool
    def __new__(cls, node: Node, surface: Any, sampled: bool, threshold: Optional[int]) -> _SpriteEntry: ...

@final
class _SpriteRead:
    """One sprite as a `pixelhit.pygame.World` call reads it (internal)."""

    sprite: Any
    entry: _SpriteEntry
    x: int
    y: int
    w: int
    h: int
    angle: float
    scale: float
    def __new__(cls, sprite: Any, entry: _SpriteEntry, x: int, y: int, w: int, h: int, angle: float, scale: float) -> _SpriteRead: ...
    def touches_box(self, other: _SpriteRead) -> bool: ...

def _read_posed_sprites(
    sprites: List[Any], entries: Dict[Any, _SpriteEntry], image: str, angle: Optional[str], scale: Optional[str], transform: str
) -> Optional[Dict[Any, _SpriteRead]]:
    """`pixelhit.pygame.World`'s read of its sprites in the common case, or None (internal)."""

def _sprite_pairs_among(stage: Stage, reads: List[_SpriteRead], parent: Node, tolerance: Optional[int]) -> List[Tuple[Any, Any]]:
    """`pixelhit.pygame.World.among`'s touching pairs of sprites from their reads (internal)."""

def _read_pairs_among(
    sprites: List[Any],
    entries: Dict[Any, _SpriteEntry],
    image: str,
    angle: Optional[str],
    scale: Optional[str],
    transform: str,
    stage: Stage,
    parent: Node,
    tolerance: Optional[int],
) -> Optional[List[Tuple[Any, Any]]]:
    """`pixelhit.pygame.World.among` in the common case, or None (internal)."""

__all__ = [
    "_SpriteEntry",
    "_SpriteRead",
    "_read_pairs_among",
    "_read_posed_sprites",
    "_sprite_pairs_among",
    "ArgumentError",
    "Atlas",
    "Bitmap",
    "BudgetError",
    "BusyError",
    "Collision",
    "Contact",
    "ContactEvent",
    "ContactTracker",
    "DEFAULT_MAX_PIXELS",
    "DEFAULT_MAX_STEP",
    "DEFAULT_MAX_TESTS",
    "DEFAULT_MAX_WORK",
    "DataError",
    "Graphic",
    "MAX_CLOSE_PAIRS",
    "MIN_MAX_STEP",
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

# A rectangle going in: `(x, y, width, height)`, a `pygame.Rect` or a `pygame.FRect`.
_RectLike = Any

# `(x, y, width, height)`.
_Rect = Tuple[float, float, float, float]
# `(a, b, c, d, tx, ty)`.
_Matrix = Tuple[float, float, float, float, float, float]
# `(r_mult, g_mult, b_mult, a_mult, r_off, g_off, b_off, a_off)`.
_ColorTuple = Tuple[float, float, float, float, float, float, float, float]
# SVG path data or a Path.
_PathArg = Union[str, "Path"]
_FillRule = Literal["nonzero", "evenodd"]
# One end of a motion: a Pose, `(x, y)`, `(x, y, rotation)` or `(x, y, rotation, scale_x,
# scale_y)`.
_PoseLike = Union["Pose", Sequence[float]]

class PixelhitError(ValueError):
    """A call that pixelhit refuses. Every refusal raises a subclass: `NodeError`,
    `ArgumentError`, `DataError`, `BudgetError` or `BusyError`. The message is the Rust
    crate's `Error` as it prints; `kind` names its variant (`"StaleNode"`, `"PathData"`,
    ...), `"Argument"` for arguments refused before they reach the crate, `"Busy"` for a
    stage in use by another thread."""

    kind: str

class NodeError(PixelhitError):
    """A node refused: removed, of another stage, outside the query's parent, a cycle, the
    root where it cannot go, a child index out of range, a bitmap where a container goes..."""

class ArgumentError(PixelhitError):
    """A value refused: out of range (however large), not finite, a singular matrix, a
    buffer of the wrong shape, dtype or length, a name that means nothing."""

class DataError(PixelhitError):
    """Data that cannot be read: SVG path data (with its byte offset), an image (or one
    over the size limits), a file, a scene or an SVG document."""

class BudgetError(PixelhitError):
    """A query or a file over its budget of pixels, work or geometry."""

class BusyError(PixelhitError):
    """The stage is in use by another thread (a change while a query runs): nothing was
    done."""

@final
class Path:
    """Vector geometry: a path made from SVG path data (`Path("M0 0 L10 0 L5 8 Z")`) or one
    of the shapes `Path.rect`, `Path.rounded_rect`, `Path.circle`, `Path.ellipse`,
    `Path.polygon`. Immutable; coordinates are in the local space of the node that draws
    it."""

    def __new__(cls, data: str) -> Path:
        """Parses SVG path data: `M L H V C S Q T A Z`, absolute (upper case) and relative
        (lower case). Raises `PixelhitError` with the byte offset of the problem."""
    @staticmethod
    def from_svg(data: str) -> Path:
        """The same as `Path(data)`."""
    @staticmethod
    def rect(x: float, y: float, w: float, h: float) -> Path:
        """A `w` x `h` rectangle with its top-left corner at `(x, y)`."""
    @staticmethod
    def rounded_rect(x: float, y: float, w: float, h: float, r: float) -> Path:
        """A rectangle with circular corners of radius `r` (clamped to half the shorter
        side)."""
    @staticmethod
    def circle(cx: float, cy: float, r: float) -> Path:
        """A circle of radius `r` about `(cx, cy)`."""
    @staticmethod
    def ellipse(cx: float, cy: float, rx: float, ry: float) -> Path:
        """An axis-aligned ellipse of radii `rx`, `ry` about `(cx, cy)`."""
    @staticmethod
    def polygon(points: Iterable[Sequence[float]]) -> Path:
        """A closed polygon through `points`, a sequence of `(x, y)` pairs (tuples, lists,
        or the rows of an N x 2 array)."""
    def to_svg(self) -> str:
        """SVG path data for this path (absolute `M L Q C Z`), which parses back to an
        equal path."""
    @property
    def is_empty(self) -> bool:
        """Whether the path has no segment."""
    def __eq__(self, other: object, /) -> bool: ...

@final
class Graphic:
    """One fill or stroke of a container: `Graphic.fill(path, fill_rule="nonzero",
    alpha=1.0)` or `Graphic.stroke(path, width, alpha=1.0)` (round joins and caps), where
    `path` is SVG path data or a `Path`. Immutable."""

    @staticmethod
    def fill(path: _PathArg, fill_rule: _FillRule = "nonzero", alpha: float = 1.0) -> Graphic:
        """A filled path. `fill_rule` is `"nonzero"` (the default) or `"evenodd"`; `alpha`
        is 0..1."""
    @staticmethod
    def stroke(path: _PathArg, width: float, alpha: float = 1.0) -> Graphic:
        """A stroked path `width` wide (in the node's local space), round joins and caps."""
    @property
    def kind(self) -> Literal["fill", "stroke"]:
        """`"fill"` or `"stroke"`."""
    @property
    def path(self) -> Path:
        """The path filled or stroked."""
    @property
    def alpha(self) -> float:
        """The graphic's own alpha, 0..1."""
    @property
    def width(self) -> Optional[float]:
        """A stroke's width; `None` for a fill."""
    @property
    def fill_rule(self) -> Optional[_FillRule]:
        """A fill's rule, `"nonzero"` or `"evenodd"`; `None` for a stroke."""
    def __eq__(self, other: object, /) -> bool: ...

@final
class Bitmap:
    """An RGBA8 image (straight alpha, rows from the top), shared by every node that shows
    it. Texel `(i, j)` covers `[i, i+1) x [j, j+1)` of the node's local space, so a bitmap
    turns and scales about its top-left corner. Immutable."""

    @staticmethod
    def from_png_file(path: Union[str, PathLike[str]]) -> Bitmap:
        """Reads and decodes a PNG file. Images over 16384 x 16384 pixels or 256 MiB are
        refused before they are decoded."""
    @staticmethod
    def from_png_bytes(data: Any) -> Bitmap:
        """Decodes PNG data from any bytes-like object (`bytes`, `bytearray`,
        `memoryview`)."""
    @staticmethod
    def from_rgba(width: int, height: int, data: Any) -> Bitmap:
        """A bitmap from `4 * width * height` bytes of straight RGBA, rows from the top,
        given as any bytes-like object (`bytes`, `bytearray`, `memoryview`, a `uint8`
        array)."""
    @staticmethod
    def from_array(array: Any, order: Literal["hw", "wh"] = "hw") -> Bitmap:
        """A bitmap from a `uint8` array through the buffer protocol (one copy, no loop in
        Python; slices and negative strides are copied right). `order="hw"` (the default):
        `(height, width, channels)` as numpy, PIL and `pygame.image.tobytes` lay images
        out; `order="wh"`: `(width, height, channels)` as `pygame.surfarray` does.
        `channels` is 4 (RGBA, straight alpha) or 3 (RGB, opaque). The shape is checked
        against the image limits before anything is copied."""
    @staticmethod
    def from_surface(surface: Any) -> Bitmap:
        """A bitmap from a pygame `Surface` (pygame or pygame-ce) whose pixels are solid
        exactly where `pygame.mask.from_surface(surface, threshold)` sets a bit, for every
        threshold below 255, in every format: per-pixel alpha kept (fewer-than-8-bit alpha
        scaled as SDL does); no per-pixel alpha: opaque (surface alpha is ignored, as by
        pygame's masks); with a colour key, the pixels pygame's own mask leaves out are
        transparent and the others opaque. Needs pygame installed."""
    @property
    def width(self) -> int:
        """Width in texels."""
    @property
    def height(self) -> int:
        """Height in texels."""
    @property
    def size(self) -> Tuple[int, int]:
        """`(width, height)`."""
    def tobytes(self) -> bytes:
        """The straight RGBA bytes, rows from the top (`4 * width * height` of them)."""
    def to_png_bytes(self) -> bytes:
        """The image encoded as PNG."""
    def save_png(self, path: Union[str, PathLike[str]]) -> None:
        """Writes the image to a PNG file."""
    def to_surface(self) -> Any:
        """The image as a pygame Surface with per-pixel alpha. Needs pygame."""
    def region(self, x: int, y: int, width: int, height: int) -> Bitmap:
        """The `width` x `height` rectangle whose top-left texel is `(x, y)`, as a bitmap
        that shares this one's pixels (a frame of a sprite sheet): it answers every query
        as the same pixels copied, and frames of one sheet share the tables made from
        them. A pygame subsurface's frame: `sheet.region(*sub.get_abs_offset(),
        *sub.get_size())`. Raises `DataError` for an empty rectangle or one reaching
        outside, `ArgumentError` for a negative number."""
    def pixel(self, x: int, y: int) -> Optional[Tuple[int, int, int, int]]:
        """The texel `(r, g, b, a)` at `(x, y)`, or `None` outside the image."""
    def __eq__(self, other: object, /) -> bool: ...

@final
class Atlas:
    """A texture atlas (TexturePacker's JSON hash or array, Aseprite's json-hash or
    json-array): its sheet and its named frames, each a region of the sheet drawn at its
    trim offset, in the file's order. Immutable."""

    @staticmethod
    def from_file(path: Union[str, PathLike[str]]) -> Atlas:
        """Reads an atlas file and the PNG its `meta.image` names, relative to the file.
        Raises `DataError` naming the file and the field (`frames["run 0"].frame.w`) for a
        bad atlas, a rotated frame or a frame outside the sheet."""
    @staticmethod
    def from_json(text: str, sheet: Bitmap, name: str = "atlas.json") -> Atlas:
        """An atlas from its JSON text and its sheet, already loaded; `name` is what
        errors call the JSON."""
    @property
    def sheet(self) -> Bitmap:
        """The sheet every frame is a region of."""
    @property
    def names(self) -> list[str]:
        """The frames' names, in the file's order."""
    def frames(self) -> list[Tuple[Bitmap, bool, Tuple[int, int]]]:
        """Every frame as `(bitmap, smoothing, (x, y))`, in the file's order, ready for
        `Stage.add_frames`."""
    def frame(self, name: str) -> Optional[Tuple[Bitmap, bool, Tuple[int, int]]]:
        """The frame named `name` as `(bitmap, smoothing, (x, y))`, or `None`."""
    def tag(self, name: str) -> Optional[list[Tuple[Bitmap, bool, Tuple[int, int]]]]:
        """The frames of the animation Aseprite tagged `name` (`meta.frameTags`: `from`
        to `to`, in the file's order) as `(bitmap, smoothing, (x, y))`, or `None`."""
    @property
    def tag_names(self) -> list[str]:
        """The names of Aseprite's tags, in the file's order (empty for TexturePacker)."""
    def __len__(self) -> int: ...

# A frame of `Stage.add_frames`: a bitmap, with its smoothing flag, and with the offset of
# its top-left corner in the node's space (a trimmed atlas frame's trim offset).
_Frame = Union[Bitmap, Tuple[Bitmap, bool], Tuple[Bitmap, bool, Tuple[int, int]], Sequence[Graphic]]

@final
class Node:
    """A handle to one node of a `Stage`: its properties are attributes (`node.x = 10`),
    and it keeps its stage alive. Two `Node` objects for the same node compare equal and
    hash alike. Using a node after it (or an ancestor) was removed raises
    `PixelhitError`."""

    @property
    def stage(self) -> Stage:
        """The stage this node belongs to."""
    @property
    def index(self) -> int:
        """The node's slot index in its stage (stable while it lives; reused after
        removal)."""
    @property
    def alive(self) -> bool:
        """Whether the node still lives (it and its ancestors were not removed)."""
    data: Any
    """Any Python object the game attaches to the node (its Sprite, say), or `None`. Kept
    by the stage, so every `Node` object of this node sees it; dropped when the node is
    removed; `del node.data` drops it."""
    @property
    def name(self) -> Optional[str]:
        """The node's name, or `None` until one is set. Names need not be unique;
        `stage.find(name)` finds the first."""
    @name.setter
    def name(self, value: str) -> None: ...
    x: float
    """x position in the parent (the matrix's `tx`); setting it changes nothing else."""
    y: float
    """y position in the parent (the matrix's `ty`); setting it changes nothing else."""
    rotation: float
    """Rotation in degrees, clockwise on screen, about the node's own origin; setting it
    keeps the scales and any skew."""
    scale_x: float
    """Horizontal scale (the length of the matrix's x axis)."""
    scale_y: float
    """Vertical scale (the length of the matrix's y axis)."""
    @property
    def pose(self) -> Pose:
        """The node's pose now (x, y, rotation as it was set, scales): keep it as last
        frame's for `Stage.sweep`. Setting one (or 2, 3 or 5 numbers) sets all five
        properties, as `set_transform` (any skew is dropped). Reading a node with skew
        raises `NodeError`; a mirror set through `matrix` reads as a negative `scale_y`."""
    @pose.setter
    def pose(self, value: _PoseLike) -> None: ...
    @property
    def matrix(self) -> _Matrix:
        """The matrix `(a, b, c, d, tx, ty)` mapping the node's space into its parent's. Set
        it to any 6 numbers (skew allowed)."""
    @matrix.setter
    def matrix(self, m: Sequence[float]) -> None: ...
    alpha: float
    """The alpha multiplier, 0..1 (a node at 0 has no solid pixel)."""
    visible: bool
    """Whether the node is drawn. A hidden descendant has no pixels; a hidden query target
    still collides unless the query has `skip_hidden=True` (as in Flash)."""
    @property
    def is_shown(self) -> bool:
        """Whether the node and every ancestor up to the root are visible."""
    tolerance: Optional[int]
    """The node's own collision tolerance (0..255), used instead of the query's whenever
    the node is a collision target, or `None` to use the query's."""
    color_transform: _ColorTuple
    """The colour transform `(r_mult, g_mult, b_mult, a_mult, r_off, g_off, b_off,
    a_off)`; offsets in 0..255 units; its alpha multiplier is `alpha`."""
    @property
    def parent(self) -> Optional[Node]:
        """The parent node, or `None` for the root."""
    @property
    def children(self) -> list[Node]:
        """The children in paint order (index 0 at the back); empty for a bitmap."""
    mask: Optional[Node]
    """The node whose fills clip this node and its subtree, or `None`."""
    @property
    def scroll_rect(self) -> Optional[_Rect]:
        """The scroll window `(x, y, width, height)` of the node's content space (edges
        rounded to whole pixels when set), or `None`. Set it to a 4-sequence, a
        `pygame.Rect`, a `pygame.FRect` or `None`."""
    @scroll_rect.setter
    def scroll_rect(self, value: Optional[_RectLike]) -> None: ...
    interactive: bool
    """Whether the node is a target of clicks itself (a Flash Sprite; containers by
    default) rather than content of its parent (a Shape or Bitmap)."""
    mouse_enabled: bool
    """Flash's `mouseEnabled` (interactive nodes only)."""
    mouse_children: bool
    """Flash's `mouseChildren` (interactive nodes only)."""
    hit_area: Optional[Node]
    """Flash's `hitArea`: the node whose fills stand for this one's content when picking,
    or `None`."""
    @property
    def bitmap(self) -> Optional[Bitmap]:
        """The bitmap shown (a bitmap node, or an animated node showing a bitmap frame), or
        `None`."""
    def set_bitmap(self, bitmap: Bitmap, smoothing: bool = False) -> None:
        """Replaces a bitmap node's image and smoothing flag."""
    def set_pygame_transform(
        self,
        transform: Literal["rotate", "rotozoom"],
        angle: float,
        scale: float = 1.0,
        flip_x: bool = False,
        flip_y: bool = False,
        flavour: Literal["pygame", "pygame-ce"] | None = None,
    ) -> None:
        """Draws this bitmap node as `pygame.transform.rotate(image, angle)` or
        `rotozoom(image, angle, scale)` after `flip(image, flip_x, flip_y)` does, blitted at
        the node's whole-pixel x, y; every query sees that surface bit for bit. `flavour`
        None: the imported pygame's."""
    def clear_pygame_transform(self) -> None:
        """Draws this bitmap node by pixelhit's own rule again."""
    @property
    def graphics(self) -> list[Graphic]:
        """The container's graphics (or those of the frame shown)."""
    @property
    def frame(self) -> Optional[int]:
        """The frame shown by an animated node (`None` for other nodes); set it to show
        another."""
    @frame.setter
    def frame(self, index: int) -> None: ...
    @property
    def frame_count(self) -> int:
        """How many frames an animated node has (0 for other nodes)."""
    def set_transform(
        self,
        x: float,
        y: float,
        rotation: float = 0.0,
        scale_x: float = 1.0,
        scale_y: float = 1.0,
    ) -> None:
        """Sets position, rotation (degrees, clockwise) and both scales in one call, as a
        game does every frame; any skew is dropped. The node turns about its own origin:
        for a sprite turning about its centre, put the art in a child moved by half its
        size."""
    def set_position(self, x: float, y: float) -> None:
        """Places the node at `(x, y)` in its parent (only the translation changes)."""
    def set_scale(self, s: float) -> None:
        """Sets both scales to `s`, keeping rotation and skew."""
    def local_to_global(self, x: float, y: float) -> Tuple[float, float]:
        """Maps a point of this node's space into the root's."""
    def global_to_local(self, x: float, y: float) -> Tuple[float, float]:
        """Maps a point of the root's space into this node's."""
    def remove(self) -> None:
        """Removes the node and its subtree from the stage."""
    def set_parent(self, parent: Node) -> None:
        """Moves the node under `parent` as its last child (it keeps its own matrix)."""
    def add_child_at(self, child: Node, index: int) -> None:
        """Moves `child` (from wherever it is) into this container at paint index `index`
        (Flash's `addChildAt`)."""
    def child_at(self, index: int) -> Node:
        """The child at paint index `index`."""
    def child_index(self, child: Node) -> int:
        """The paint index of `child` among this container's children."""
    def set_child_index(self, child: Node, index: int) -> None:
        """Moves `child` to paint index `index` among this container's children."""
    def swap_children(self, a: Node, b: Node) -> None:
        """Swaps the paint order of two children of this container."""
    def remove_children(self, start: int = 0, end: Optional[int] = None) -> int:
        """Removes the children with paint indices `start` up to `end` (excluded; all the
        rest when `None`) with their subtrees, and returns how many were removed."""
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Collision:
    """The answer of `Stage.collision`. True when the targets overlap."""

    @property
    def rect(self) -> Optional[_Rect]:
        """The overlap's rectangle `(x, y, width, height)` in the parent's space, or
        `None`."""
    @property
    def overlap_pixels(self) -> Optional[int]:
        """Pixels solid in both targets (`None` when the query was not precise)."""
    def __bool__(self) -> bool: ...

@final
class Pose:
    """Where a node is at one end of a motion: `x`, `y`, `rotation` (degrees clockwise, as
    given: 370 is not reduced to 10) and `scale_x`, `scale_y`. `node.pose` reads a node's
    current one; wherever a pose is asked for, `(x, y)`, `(x, y, rotation)` or 5 numbers
    work too. Iterates as its five numbers; equal when they are."""

    def __new__(
        cls,
        x: float = 0.0,
        y: float = 0.0,
        rotation: float = 0.0,
        scale_x: float = 1.0,
        scale_y: float = 1.0,
    ) -> Pose: ...
    @property
    def x(self) -> float: ...
    @property
    def y(self) -> float: ...
    @property
    def rotation(self) -> float:
        """Degrees, clockwise on screen, as given."""
    @property
    def scale_x(self) -> float: ...
    @property
    def scale_y(self) -> float: ...
    def lerp(self, to: _PoseLike, t: float) -> Pose:
        """The pose at time `t` of the motion from this pose to `to`: where a sweep's moving
        node is at the answer's `t`."""
    def __iter__(self) -> Iterator[float]: ...
    def __len__(self) -> int: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Sweep:
    """The first contact of `Stage.sweep`. Always true."""

    @property
    def t(self) -> float:
        """The time of the contact in the step: 0 is the `from` poses, 1 the current
        ones."""
    @property
    def rect(self) -> _Rect:
        """What `Stage.collision` answers with the nodes at their poses at `t`: the
        overlap's `(x, y, width, height)` in the parent's space."""
    @property
    def overlap_pixels(self) -> Optional[int]:
        """Pixels solid in both at `t` (`None` for a query that is not precise)."""
    @property
    def last_clear(self) -> Optional[float]:
        """The last time tested before `t` at which the nodes do not overlap (no point moved
        more than 1/256 px since); `None` when `t` is 0."""
    def __bool__(self) -> bool: ...

@final
class SweepHit:
    """One node that a mover meets during a step (`Stage.sweeps_against`,
    `Stage.sweeps_between`), with its first contact as in `Sweep`."""

    @property
    def mover(self) -> Node:
        """The moving node (the object given)."""
    @property
    def other(self) -> Node:
        """The node met (the object given)."""
    @property
    def t(self) -> float: ...
    @property
    def rect(self) -> _Rect: ...
    @property
    def overlap_pixels(self) -> Optional[int]: ...
    @property
    def last_clear(self) -> Optional[float]: ...

@final
class OverlapMask:
    """The pixels two nodes share, over the overlap's rectangle, in the parent's pixel
    grid."""

    @property
    def x(self) -> int:
        """Left edge, in the parent's pixels."""
    @property
    def y(self) -> int:
        """Top edge, in the parent's pixels."""
    @property
    def width(self) -> int:
        """Width in pixels."""
    @property
    def height(self) -> int:
        """Height in pixels."""
    def count(self) -> int:
        """How many pixels overlap."""
    def contains(self, x: int, y: int) -> bool:
        """Whether pixel `(x, y)` of the parent's grid is in the overlap."""
    def to_mask(self) -> Any:
        """The mask as a `pygame.mask.Mask` of `width` x `height` (bit `(i, j)` is pixel
        `(x + i, y + j)` of the parent's grid). Needs pygame."""
    def to_surface(self, setcolor: Any = None, unsetcolor: Any = None) -> Any:
        """The mask as a pygame Surface with per-pixel alpha, `setcolor` (default opaque
        white) where the pixels overlap and `unsetcolor` (default transparent) elsewhere, as
        `Mask.to_surface` colours them. Blit it at `(x, y)`. Needs pygame."""
    def tobytes(self) -> bytes:
        """The mask as `width * height` bytes, rows from the top: 1 where the pixels
        overlap, 0 elsewhere."""

@final
class Contact:
    """One colliding pair of a many-object query."""

    @property
    def a(self) -> Node:
        """The first node of the pair (earlier in the list given; the object given)."""
    @property
    def b(self) -> Node:
        """The second node of the pair."""
    @property
    def rect(self) -> _Rect:
        """The overlap's rectangle `(x, y, width, height)` in the parent's space."""
    @property
    def overlap_pixels(self) -> Optional[int]:
        """Pixels solid in both (`None` for a query that is not precise)."""
    @property
    def normal(self) -> Optional[Tuple[float, float]]:
        """A unit vector `(x, y)` from `a` into `b` (how to push `b` out), or `None`
        without `details=True`."""
    @property
    def centroid(self) -> Optional[Tuple[float, float]]:
        """The mean `(x, y)` of the overlapping pixels' centres, or `None` without
        details."""
    @property
    def first(self) -> Optional[Tuple[int, int]]:
        """The first overlapping pixel `(x, y)` in row-major order, or `None` without
        details."""
    @property
    def mask(self) -> Optional[OverlapMask]:
        """The overlapping pixels, or `None` without details."""
    def other(self, node: Node) -> Optional[Node]:
        """The other node of the pair: `b` for `a`, `a` for `b`, `None` for any other
        node."""

@final
class Stage:
    """The display tree, and every question asked of it.

    `Stage()` holds an empty root container (`stage.root`). Add nodes with
    `add_container`, `add_bitmap` and `add_frames`, give containers fills and strokes with
    `add_graphic`, and set each node's properties as attributes of its `Node`. Queries
    answer in the space of the node given as `parent` or `space`."""

    def __new__(cls) -> Stage:
        """A stage holding only an empty root container."""
    @property
    def root(self) -> Node:
        """The root container (it cannot be removed or moved)."""
    def __len__(self) -> int:
        """How many nodes live, the root included."""
    def find(self, name: str) -> Optional[Node]:
        """The first node named `name`, in tree order, or `None`."""
    def contains(self, node: Node) -> bool:
        """Whether `node` is a live node of this stage."""
    @property
    def cache_bytes(self) -> int:
        """Bytes the stage's raster cache holds now (at most 128 MiB)."""
    def clear_cache(self) -> None:
        """Frees the rasters kept between queries (answers never depend on them)."""

    # ----- building -----
    def add_container(self, parent: Node) -> Node:
        """Adds an empty container as the last child of `parent` and returns it."""
    def add_bitmap(self, parent: Node, bitmap: Bitmap, smoothing: bool = False) -> Node:
        """Adds a node showing `bitmap` as the last child of `parent` and returns it.
        `smoothing` samples the bitmap bilinearly when it is scaled or turned."""
    def add_frames(self, parent: Node, frames: Iterable[_Frame]) -> Node:
        """Adds an animated leaf showing one of `frames` at a time (the first to begin
        with; `node.frame` picks another). Each frame is a `Bitmap`, a
        `(Bitmap, smoothing)` pair, a `(Bitmap, smoothing, (x, y))` triple (the bitmap's
        top-left corner at `(x, y)` of the node's space: a trimmed atlas frame's offset),
        or a list of `Graphic`s."""
    def add_graphic(
        self,
        node: Node,
        path: Union[str, Path, Graphic],
        *,
        fill: Optional[bool] = None,
        stroke: Optional[float] = None,
        alpha: float = 1.0,
        fill_rule: _FillRule = "nonzero",
    ) -> None:
        """Appends fills and strokes to a container's graphics (drawn below its children,
        in order). `path` is SVG path data, a `Path`, or a ready `Graphic` (then the other
        arguments are not used). By default the path is filled; with `stroke=WIDTH` it is
        stroked instead, and with `fill=True, stroke=WIDTH` filled and then stroked."""
    def set_graphics(self, node: Node, graphics: Iterable[Graphic]) -> None:
        """Replaces a container's graphics."""
    def set_transforms(self, nodes: Iterable[Node], poses: Any) -> None:
        """Poses many nodes in one call: `poses` is an `(N, 3)` array of `(x, y, rotation)`
        or an `(N, 5)` array of `(x, y, rotation, scale_x, scale_y)` rows (a float64 numpy
        array, or any sequence of rows), one per node. All or nothing."""
    def load_svg(self, parent: Node, path: Union[str, PathLike[str]]) -> SvgLoad:
        """Reads an SVG file and adds it under `parent`."""
    def load_svg_string(self, parent: Node, text: str) -> SvgLoad:
        """`load_svg` from the text of an SVG document."""
    def debug_image(
        self,
        queries: Optional[Iterable[Tuple[Node, Node, Node]]] = None,
        *,
        tolerance: int = 255,
        area: Optional[_RectLike] = None,
        zoom: Optional[int] = None,
        legend: bool = True,
        notes: Optional[Sequence[str]] = None,
        max_queries: Optional[int] = None,
        highlight: Optional[Node] = None,
    ) -> Bitmap:
        """A picture of the stage and of each query `(a, b, parent)`: pixels solid in both
        (magenta), both targets' bounds (blue, green), the answer (red), a legend. Returns a
        `Bitmap` (`save_png`, `to_surface`)."""
    def remove(self, node: Node) -> None:
        """Removes `node` and its whole subtree; their `Node` objects raise from then
        on."""

    # ----- collisions -----
    def collision_rect(
        self,
        a: Node,
        b: Node,
        parent: Node,
        precise: bool = True,
        tolerance: int = 255,
    ) -> Optional[_Rect]:
        """Where `a` and `b` overlap in `parent`'s space: `None`, or `(x, y, width,
        height)`. With `precise` the smallest whole-pixel rectangle holding every pixel
        solid in both (alpha at least `max(1, 255 - tolerance)`, anti-aliased); without
        it, the intersection of their bounds. `a` and `b` must be `parent` or inside it."""
    def collision(
        self,
        a: Node,
        b: Node,
        parent: Node,
        *,
        precise: bool = True,
        tolerance: int = 255,
        anti_alias: bool = True,
        max_pixels: Optional[int] = None,
    ) -> Collision:
        """`collision_rect` with every option, also counting the overlapping pixels.
        `anti_alias=False` tests pixel centres instead of covered areas; `max_pixels`
        bounds the pixels a precise query may compare (default 2^28)."""
    def contacts_among(
        self,
        nodes: Iterable[Node],
        parent: Node,
        *,
        tolerance: int = 255,
        details: bool = False,
        skip_hidden: bool = False,
        precise: bool = True,
        anti_alias: bool = True,
        parallel: bool = True,
        max_pixels: Optional[int] = None,
        max_work: Optional[int] = None,
    ) -> list[Contact]:
        """Every colliding pair among `nodes` in `parent`'s space, the same answers as
        `collision` on every pair, found by a broad phase over their bounds and tested on
        all cores (`parallel=False` keeps it on this thread). Pairs come in the order of
        `nodes` (`a` before `b`); `contact.a` and `contact.b` are the objects given.
        `details=True` adds each contact's `normal`, `centroid`, `first` and `mask`;
        `skip_hidden=True` leaves out nodes that are not shown."""
    def touching_among(
        self,
        nodes: Iterable[Node],
        parent: Node,
        *,
        tolerance: int = 255,
        skip_hidden: bool = False,
        precise: bool = True,
        anti_alias: bool = True,
        parallel: bool = True,
        max_pixels: Optional[int] = None,
        max_work: Optional[int] = None,
    ) -> list[tuple[Node, Node]]:
        """Which pairs among `nodes` touch in `parent`'s space, yes or no: the pairs of
        `contacts_among` with the same options, as `(a, b)` tuples of the objects given,
        in the same order, without rectangles or counts. Each pair stops at its first
        shared word of pixels."""
    def contacts_against(
        self,
        node: Node,
        others: Iterable[Node],
        parent: Node,
        *,
        tolerance: int = 255,
        details: bool = False,
        skip_hidden: bool = False,
        precise: bool = True,
        anti_alias: bool = True,
        parallel: bool = True,
        max_pixels: Optional[int] = None,
        max_work: Optional[int] = None,
    ) -> list[Contact]:
        """Every node of `others` that collides with `node`, in the order of `others`
        (`node` is always `a`). Options as `contacts_among`."""
    def contacts_between(
        self,
        group_a: Iterable[Node],
        group_b: Iterable[Node],
        parent: Node,
        *,
        tolerance: int = 255,
        details: bool = False,
        skip_hidden: bool = False,
        precise: bool = True,
        anti_alias: bool = True,
        parallel: bool = True,
        max_pixels: Optional[int] = None,
        max_work: Optional[int] = None,
    ) -> list[Contact]:
        """Every colliding pair with `a` from `group_a` and `b` from `group_b` (bullets
        against enemies, without testing bullets against bullets), ordered by `a`'s place
        in `group_a`, then `b`'s in `group_b`. Options as `contacts_among`."""
    @deprecated("call contacts_among(nodes, parent): the crate's name and order")
    def collisions(
        self,
        parent: Node,
        nodes: Iterable[Node],
        *,
        tolerance: int = 255,
        details: bool = False,
        skip_hidden: bool = False,
        precise: bool = True,
        anti_alias: bool = True,
        parallel: bool = True,
        max_pixels: Optional[int] = None,
    ) -> list[Contact]:
        """Deprecated: `contacts_among(nodes, parent, ...)` under its former name and
        argument order (a `DeprecationWarning`, then the same answers)."""
    @deprecated("call contacts_against(node, others, parent): the crate's name and order")
    def collisions_with(
        self,
        parent: Node,
        node: Node,
        others: Iterable[Node],
        *,
        tolerance: int = 255,
        details: bool = False,
        skip_hidden: bool = False,
        precise: bool = True,
        anti_alias: bool = True,
        parallel: bool = True,
        max_pixels: Optional[int] = None,
    ) -> list[Contact]:
        """Deprecated: `contacts_against(node, others, parent, ...)` under its former name
        and argument order (a `DeprecationWarning`, then the same answers)."""
    @deprecated("call contacts_between(group_a, group_b, parent): the crate's name and order")
    def collisions_between(
        self,
        parent: Node,
        group_a: Iterable[Node],
        group_b: Iterable[Node],
        *,
        tolerance: int = 255,
        details: bool = False,
        skip_hidden: bool = False,
        precise: bool = True,
        anti_alias: bool = True,
        parallel: bool = True,
        max_pixels: Optional[int] = None,
    ) -> list[Contact]:
        """Deprecated: `contacts_between(group_a, group_b, parent, ...)` under its former
        name and argument order (a `DeprecationWarning`, then the same answers)."""

    # ----- motion -----
    def sweep(
        self,
        a: Node,
        b: Node,
        parent: Node,
        *,
        a_from: Optional[_PoseLike] = None,
        b_from: Optional[_PoseLike] = None,
        precise: bool = True,
        tolerance: int = 255,
        anti_alias: bool = True,
        max_pixels: Optional[int] = None,
        max_step: float = 0.5,
        max_tests: int = 262144,
        max_work: Optional[int] = None,
    ) -> Optional[Sweep]:
        """The first contact of `a` and `b` while they move from `a_from` and `b_from`
        (`None`: that node stays put) to their current poses, or `None` when they do not
        meet. Poses are tested so that no point moves more than `max_step` px (at least
        1/64) between two of them, so a wall at least `max_step` thick stops any bullet;
        the contact is narrowed to 1/256 px of motion. More than `max_tests` poses raise
        `BudgetError`; a moving node with skew raises `NodeError`. Other options as
        `collision`."""
    def sweeps_against(
        self,
        mover: Node,
        from_pose: _PoseLike,
        others: Iterable[Node],
        parent: Node,
        *,
        tolerance: int = 255,
        skip_hidden: bool = False,
        precise: bool = True,
        anti_alias: bool = True,
        parallel: bool = True,
        max_pixels: Optional[int] = None,
        max_step: float = 0.5,
        max_tests: int = 262144,
        max_work: Optional[int] = None,
    ) -> list[SweepHit]:
        """Every node of `others` that `mover` meets while it moves from `from_pose` to its
        current pose (the others stay put), each with its first contact, in order of `t`,
        then of the tree. The mover is never among the answers; a node listed twice counts
        once. Options as `sweep` and `contacts_among`."""
    @deprecated("call sweeps_against(mover, from_pose, others, parent): the crate's name and order")
    def sweeps_with(
        self,
        parent: Node,
        mover: Node,
        from_pose: _PoseLike,
        others: Iterable[Node],
        *,
        tolerance: int = 255,
        skip_hidden: bool = False,
        precise: bool = True,
        anti_alias: bool = True,
        parallel: bool = True,
        max_pixels: Optional[int] = None,
        max_step: float = 0.5,
        max_tests: int = 262144,
        max_work: Optional[int] = None,
    ) -> list[SweepHit]:
        """Deprecated: `sweeps_against(mover, from_pose, others, parent, ...)` under its
        former name and argument order (a `DeprecationWarning`, then the same answers)."""
    def sweeps_between(
        self,
        parent: Node,
        movers: Iterable[Tuple[Node, _PoseLike]],
        others: Iterable[Node],
        *,
        tolerance: int = 255,
        skip_hidden: bool = False,
        precise: bool = True,
        anti_alias: bool = True,
        parallel: bool = True,
        max_pixels: Optional[int] = None,
        max_step: float = 0.5,
        max_tests: int = 262144,
        max_work: Optional[int] = None,
    ) -> list[SweepHit]:
        """`sweeps_against` for every `(node, from_pose)` of `movers` in one call (a dict's
        `.items()` works), ordered by mover, then `t`, then the tree. Movers do not meet
        each other; a mover listed among `others` is left out of them."""
    def separation(
        self,
        a: Node,
        b: Node,
        parent: Node,
        *,
        direction: Optional[Sequence[float]] = None,
        max_distance: Optional[float] = None,
        precise: bool = True,
        tolerance: int = 255,
        anti_alias: bool = True,
        max_pixels: Optional[int] = None,
        max_step: float = 0.5,
        max_tests: int = 262144,
        max_work: Optional[int] = None,
    ) -> Optional[float]:
        """How far to push `a` out of `b`: the smallest `d` (px, a multiple of 1/256) such
        that `a` moved by `d` along `direction` shares no solid pixel with `b` while `d -
        1/256` still does; `0.0` when they do not overlap, `None` when nothing up to
        `max_distance` (default: the diagonal of both bounds together) separates them.
        Without a direction `a` is pushed against the contact normal. The tree is not
        changed."""

    # ----- points, bounds, picking -----
    def hit_test_point(self, node: Node, x: float, y: float, shape_flag: bool = False) -> bool:
        """Whether the point `(x, y)` of the root's space hits `node`: without
        `shape_flag`, inside its bounds (edges included); with it, inside a fill by its
        fill rule, within half a stroke's width of a stroke, or on a bitmap texel whose
        alpha is not 0."""
    def hit_test_object(self, a: Node, b: Node) -> bool:
        """Whether the bounds of `a` and `b` in the root's space overlap or touch (Flash's
        `hitTestObject`: boxes, not pixels)."""
    def pick(
        self,
        x: float,
        y: float,
        *,
        bitmap_hit: Literal["alpha", "box"] = "alpha",
        min_alpha: Optional[int] = None,
    ) -> Optional[Node]:
        """The node that a click at `(x, y)` (root space) goes to, by Flash's rules, or
        `None`. Bitmaps are hit where their texel's alpha is at least `min_alpha` (1 when
        `None`), or
        anywhere on their rectangle with `bitmap_hit="box"`."""
    def objects_under_point(self, container: Node, x: float, y: float) -> list[Node]:
        """Every node in `container`'s subtree (itself included) whose own content is under
        `(x, y)` (root space), bottom to top, as Flash's `getObjectsUnderPoint`."""
    def erase(
        self,
        node: Node,
        *,
        disc: Optional[Tuple[float, float, float]] = None,
        path: Optional[Path] = None,
        fill_rule: Literal["nonzero", "evenodd"] = "nonzero",
        bitmap: Optional[Bitmap] = None,
        at: Optional[Tuple[int, int]] = None,
        alpha: float = 1.0,
    ) -> None:
        """Erases from a bitmap node's pixels the texels a brush covers, each texel's alpha
        scaled by `1 - alpha` (times the brush texel's alpha for a bitmap brush). One brush,
        in the bitmap's texels: `disc=(x, y, radius)` (texel centres within it), `path=Path`
        with `fill_rule` (centres inside it), or `bitmap=Bitmap` with its top-left texel at
        `at` (`(column, row)`, `(0, 0)` when `None`). Another node showing the same bitmap
        keeps its pixels; the stage makes again only what the edited rectangle touches. See
        docs/art.md, "Editable bitmaps"."""
    def paint(
        self,
        node: Node,
        color: Sequence[int],
        *,
        disc: Optional[Tuple[float, float, float]] = None,
        path: Optional[Path] = None,
        fill_rule: Literal["nonzero", "evenodd"] = "nonzero",
        bitmap: Optional[Bitmap] = None,
        at: Optional[Tuple[int, int]] = None,
        alpha: float = 1.0,
    ) -> None:
        """Paints `color` (`(r, g, b, a)`, straight alpha) over the texels a brush covers,
        source-over with strength `round(a x alpha)`; a bitmap brush paints its own texels
        times `color` (white keeps them). Brushes as for `erase`."""
    def outline(
        self,
        node: Node,
        parent: Node,
        tolerance: int = 255,
        simplify: float = 0.0,
        anti_alias: bool = True,
    ) -> list[list[Tuple[float, float]]]:
        """The boundary of `node`'s solid pixels in `parent`'s pixel grid (alpha at least
        `max(1, 255 - tolerance)`) as closed polygons of `(x, y)` tuples: by the even-odd
        rule a pixel's centre is inside exactly when the pixel is solid, holes included.
        `simplify` (pixels) drops vertices within that distance; below 0.5 no pixel centre
        changes side."""
    def bounds(self, node: Node, space: Optional[Node] = None) -> Optional[_Rect]:
        """Flash's `getBounds`: the box of `node` and its descendants in `space`'s
        coordinates (the root's when `None`), strokes included, or `None` when it draws
        nothing."""
    def rect(self, node: Node, space: Optional[Node] = None) -> Optional[_Rect]:
        """Flash's `getRect`: as `bounds`, with strokes counted by their centre line
        only."""
    def tight_bounds(self, node: Node, space: Optional[Node] = None) -> Optional[_Rect]:
        """The exact box of `node`'s geometry in `space` (never larger than `bounds`)."""
    def visible_bounds(self, node: Node, space: Optional[Node] = None) -> Optional[_Rect]:
        """`bounds` cut by every mask and scroll window that clips `node`."""
    def matrix_to(self, node: Node, ancestor: Optional[Node] = None) -> _Matrix:
        """The matrix mapping `node`'s space into `ancestor`'s (the root's when `None`)."""

@final
class SvgLoad:
    """What `Stage.load_svg` built."""

    @property
    def root(self) -> Node:
        """The container holding the SVG's content (its local space is the SVG's canvas)."""
    @property
    def ids(self) -> dict[str, Node]:
        """The node made for each SVG `id`."""
    @property
    def warnings(self) -> list[str]:
        """What was not loaded as the file shows it."""
    def node(self, id: str) -> Optional[Node]:
        """The node made for the element with this `id`, or `None`."""

@final
class ContactEvent:
    """One change (or continuation) of a pair's contact."""

    @property
    def phase(self) -> Literal["began", "continued", "ended"]: ...
    @property
    def a(self) -> Node: ...
    @property
    def b(self) -> Node: ...
    @property
    def contact(self) -> Optional[Contact]:
        """This frame's contact of the pair; `None` for `ended`."""
    @property
    def frames(self) -> int:
        """Frames the pair has touched in a row (for `ended`: the run that ended)."""

@final
class ContactTracker:
    """Follows contacts from frame to frame: `events = tracker.update(contacts)`."""

    def __new__(cls) -> ContactTracker: ...
    def update(self, contacts: Iterable[Contact]) -> list[ContactEvent]:
        """`began` and `continued` in the order of `contacts`, then `ended`."""
    def is_touching(self, a: Node, b: Node) -> bool: ...
    def frames_touching(self, a: Node, b: Node) -> int: ...
    def __len__(self) -> int: ...
    def clear(self) -> None: ...
