"""Hostile buffers into `Bitmap` (issue 22, items 1 and 9): sizes are checked before anything
is copied, every refusal is a `PixelhitError` subclass, and a fuzz run over random numpy
shapes, strides, dtypes and orders agrees with numpy's own reading of the array."""

import array
import os
import subprocess
import sys

import numpy as np
import pytest

import pixelhit
from pixelhit import Bitmap, PixelhitError

# Each reproducer runs in a child process limited to 1 GiB of address space, and must answer
# within 5 s: before the fix, the first one aborted the interpreter (a 40 GB allocation) and
# the 20,000 x 20,000 ones took 1.6 to 3.1 GB and 4 to 13 s.
REPRODUCERS = {
    "zero_stride_100000_squared_from_array": (
        "Bitmap.from_array(huge(100_000, 100_000))",
        "DataError",
        "100000x100000 exceeds the limits",
    ),
    "zero_stride_100000_squared_from_rgba": (
        "Bitmap.from_rgba(100_000, 100_000, huge(100_000, 100_000))",
        "DataError",
        "100000x100000 exceeds the limits",
    ),
    "zero_stride_100000_squared_from_png_bytes": (
        "Bitmap.from_png_bytes(huge(100_000, 100_000))",
        "DataError",
        "40000000000 bytes of PNG data exceed the limit",
    ),
    "zero_stride_20000_squared_from_array": (
        "Bitmap.from_array(huge(20_000, 20_000))",
        "DataError",
        "20000x20000 exceeds the limits",
    ),
    "zero_stride_20000_squared_from_array_wh": (
        "Bitmap.from_array(huge(20_000, 20_000), order='wh')",
        "DataError",
        "20000x20000 exceeds the limits",
    ),
    "buffer_larger_than_the_size_says": (
        "Bitmap.from_rgba(2, 2, huge(20_000, 20_000))",
        "ArgumentError",
        "holds 1600000000 bytes, not the 16 its size needs",
    ),
    "largest_allowed_zero_stride_array_is_read": (
        "Bitmap.from_array(huge(8192, 8192)).size",
        None,
        "(8192, 8192)",
    ),
}

CHILD = """
import resource, sys, time
resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
import numpy as np
import pixelhit
from pixelhit import Bitmap

def huge(h, w):
    # 16 real bytes seen as an h x w x 4 image: every texel is the same 4 bytes.
    return np.lib.stride_tricks.as_strided(np.arange(16, dtype=np.uint8), shape=(h, w, 4), strides=(0, 0, 1))

start = time.monotonic()
try:
    answer = repr({expr})
    kind = None
except pixelhit.PixelhitError as e:
    answer, kind = str(e), type(e).__name__
print(kind)
print(answer)
print(time.monotonic() - start)
"""


@pytest.mark.parametrize("name", sorted(REPRODUCERS))
def test_hostile_size_is_refused_fast_and_small(name):
    expr, kind, message = REPRODUCERS[name]
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    run = subprocess.run(
        [sys.executable, "-c", CHILD.replace("{expr}", expr)], capture_output=True, text=True, timeout=60, env=env
    )
    assert run.returncode == 0, f"{name}: the child died ({run.returncode}): {run.stderr[-2000:]}"
    got_kind, answer, seconds = run.stdout.strip().split("\n")
    assert got_kind == str(kind), (name, got_kind, answer)
    assert message in answer, (name, answer)
    assert float(seconds) < 5.0, (name, seconds)


# ----- the fuzz harness for Python buffer shapes -----

DTYPES = [np.uint8, np.int8, np.uint16, np.int32, np.float32, np.float64, np.bool_]


def random_view(rng):
    """A random array: dtype, number of dimensions, sizes (0 included), then views with
    steps, negative strides, transposes, zero strides and Fortran order."""
    dtype = DTYPES[0] if rng.random() < 0.6 else DTYPES[rng.integers(len(DTYPES))]
    ndim = int(rng.choice([1, 2, 3, 3, 3, 3, 4]))
    shape = [int(rng.integers(0, 7)) for _ in range(ndim)]
    if ndim == 3 and rng.random() < 0.8:
        shape[-1] = int(rng.choice([3, 4, 4]))
    big = [s * 2 + 1 for s in shape]
    base = (rng.integers(0, 256, size=big)).astype(dtype)
    if rng.random() < 0.3:
        base = np.asfortranarray(base)
    index = []
    for s, b in zip(shape, big):
        if rng.random() < 0.3:
            index.append(slice(None, None, -1) if s == b else slice(b - 1, b - 1 - 2 * s if b - 1 - 2 * s >= 0 else None, -2))
        else:
            index.append(slice(0, 2 * s, 2) if rng.random() < 0.5 else slice(0, s))
    view = base[tuple(index)]
    if ndim >= 2 and rng.random() < 0.2:
        axes = list(range(ndim))
        axes[0], axes[1] = axes[1], axes[0]
        view = view.transpose(axes)
    if rng.random() < 0.1 and view.size:
        view = np.broadcast_to(view[(0,) * (ndim - 1)], view.shape)
    return view


def expected(arr, order):
    """numpy's reading of the array as an image, or None when it is not one."""
    if arr.dtype != np.uint8 or arr.ndim != 3 or arr.shape[2] not in (3, 4):
        return None
    img = arr if order == "hw" else arr.transpose(1, 0, 2)
    h, w, c = img.shape
    if w == 0 or h == 0:
        return None
    out = np.full((h, w, 4), 255, np.uint8)
    out[:, :, :c] = img
    return out


def test_fuzz_random_buffer_shapes_strides_and_dtypes():
    rng = np.random.default_rng(22)
    accepted = refused = 0
    for case in range(3000):
        arr = random_view(rng)
        order = "hw" if rng.random() < 0.5 else "wh"
        want = expected(arr, order)
        try:
            got = Bitmap.from_array(arr, order=order)
        except PixelhitError as e:
            assert want is None, f"case {case}: {arr.dtype} {arr.shape} {arr.strides} {order} refused: {e}"
            refused += 1
            continue
        assert want is not None, f"case {case}: {arr.dtype} {arr.shape} {arr.strides} {order} accepted"
        assert got.size == (want.shape[1], want.shape[0])
        assert got.tobytes() == want.tobytes(), f"case {case}: {arr.shape} {arr.strides} {order}"
        accepted += 1
        # The same bytes through from_rgba, from any buffer (a non-contiguous view included).
        if want.shape[2] == 4 and arr.shape[2] == 4 and order == "hw":
            again = Bitmap.from_rgba(arr.shape[1], arr.shape[0], arr)
            assert again.tobytes() == got.tobytes()
    assert accepted > 300 and refused > 300, (accepted, refused)


def test_other_buffer_kinds_are_refused_or_read():
    assert Bitmap.from_rgba(1, 1, bytearray(b"\x01\x02\x03\x04")).pixel(0, 0) == (1, 2, 3, 4)
    assert Bitmap.from_rgba(1, 1, memoryview(b"\x01\x02\x03\x04")).pixel(0, 0) == (1, 2, 3, 4)
    for bad in (array.array("H", [1, 2]), memoryview(b"abcdefgh").cast("i"), np.zeros(4, np.float32)):
        with pytest.raises(pixelhit.ArgumentError, match="not a buffer of unsigned bytes"):
            Bitmap.from_rgba(1, 1, bad)
        with pytest.raises(pixelhit.ArgumentError):
            Bitmap.from_png_bytes(bad)
    for bad in ("abcd", 12, None, [1, 2, 3, 4]):
        with pytest.raises(pixelhit.ArgumentError):
            Bitmap.from_rgba(1, 1, bad)
    rng = np.random.default_rng(9)
    for _ in range(200):
        junk = rng.integers(0, 256, size=int(rng.integers(0, 64)), dtype=np.uint8)
        if rng.random() < 0.5:
            junk[:8] = list(b"\x89PNG\r\n\x1a\n")[: len(junk[:8])]
        with pytest.raises(pixelhit.DataError):
            Bitmap.from_png_bytes(junk[::-1] if rng.random() < 0.3 else junk)
