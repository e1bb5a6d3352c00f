#!/usr/bin/env bash
# CI of the Python package: build it with pip (maturin and pyo3 from the registries) into a
# fresh virtual environment in a temporary folder, run its tests, and run the pygame example.
# Needs Rust (cargo) and Python 3 (3.9 or newer; the pins below have wheels for 3.11).
#
#   bash python/ci.sh
#
# Writes nothing into the repository: the virtual environment and the example's picture go
# to a temporary folder that is removed at the end, and the Rust build to $CARGO_TARGET_DIR
# (a folder under the temporary folder when unset, kept between runs so that a second run
# only links). The build is `--locked`: a python/Cargo.lock that no longer matches the crate
# fails here instead of being rewritten (update it with
# `cargo update --workspace --manifest-path python/Cargo.toml`).
set -euo pipefail

cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
work="$(mktemp -d "${TMPDIR:-/tmp}/pixelhit-python-ci.XXXXXX")"
trap 'rm -rf "$work"' EXIT
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-${TMPDIR:-/tmp}/pixelhit-python-target}"
export CARGO_TERM_COLOR=never
export MATURIN_PEP517_ARGS="--locked"
export SDL_VIDEODRIVER=dummy PYGAME_HIDE_SUPPORT_PROMPT=1
start=$SECONDS

echo "== venv ($("$PYTHON" --version)) in $work/venv; Rust build in $CARGO_TARGET_DIR"
"$PYTHON" -m venv "$work/venv"
py="$work/venv/bin/python"

echo "== pip install ./python pytest numpy pygame (builds the extension in release mode)"
"$py" -m pip install --quiet --progress-bar off ./python "pytest>=8,<10" "numpy==2.4.6" "pygame==2.6.1"
"$py" -c 'import pixelhit; print("pixelhit", pixelhit.__version__, "from", pixelhit.__file__)'
# The stubs ship in the wheel (PEP 561).
"$py" - <<'EOF'
import os, pixelhit
folder = os.path.dirname(pixelhit.__file__)
missing = [f for f in ("__init__.pyi", "py.typed") if not os.path.exists(os.path.join(folder, f))]
assert not missing, f"not in the installed package: {missing}"
EOF

echo "== pytest python/tests -q"
# From the temporary folder, so that nothing (.pytest_cache, __pycache__) lands in the repository.
repo="$PWD"
(cd "$work" && PYTHONDONTWRITEBYTECODE=1 "$py" -m pytest "$repo/python/tests" -q -p no:cacheprovider)

echo "== examples/pygame_sprites.py"
picture="$work/pygame_sprites.png"
PYTHONDONTWRITEBYTECODE=1 "$py" python/examples/pygame_sprites.py "$picture"
"$py" - "$picture" <<'EOF'
import sys, pygame
surface = pygame.image.load(sys.argv[1])
w, h = surface.get_size()
assert (w, h) == (800, 600), (w, h)
print(f"the picture is a {w}x{h} PNG")
EOF

echo "== python/ci.sh passed in $((SECONDS - start)) s"
