#!/usr/bin/env bash
# CI of the Python package, as a user gets it: build the sdist and ONE wheel with maturin
# (abi3, every CPython from 3.11; manylinux as this machine's glibc allows), then install that
# wheel with pip alone, no Rust on the PATH, into two clean virtual environments, one with
# pygame and one with pygame-ce (the two install the same `pygame` module and cannot share
# one), and in each run the tests; in the pygame one also the examples and every Python
# snippet of python/README.md and of the root README's Python section.
#
#   bash python/ci.sh
#
# Needs Rust (cargo) and Python 3.11 or newer (the abi3 wheel's floor). Writes nothing into
# the repository: the environments, the sdist, the wheel and the examples' pictures go to a
# temporary folder that is removed at the end; the Rust build to $CARGO_TARGET_DIR (a folder
# under the temporary folder when unset, kept between runs so that a second run only links).
# The build is `--locked`: a python/Cargo.lock that no longer matches the crate fails here
# (update it with `cargo update --workspace --manifest-path python/Cargo.toml`).
set -euo pipefail

cd "$(dirname "$0")/.."
repo="$PWD"
PYTHON="${PYTHON:-python3}"
work="$(mktemp -d "${TMPDIR:-/tmp}/pixelhit-python-ci.XXXXXX")"
trap 'rm -rf "$work"' EXIT
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-${TMPDIR:-/tmp}/pixelhit-python-target}"
export CARGO_TERM_COLOR=never
export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy PYGAME_HIDE_SUPPORT_PROMPT=1
export PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONDONTWRITEBYTECODE=1
start=$SECONDS
# The pins the tests were run with (wheels exist for CPython 3.11 to 3.13 on manylinux).
MATURIN="maturin==1.16.0"
TEST_DEPS=("pytest>=8,<10" "numpy==2.4.6")
PYGAME="pygame==2.6.1"
PYGAME_CE="pygame-ce==2.5.8"
MYPY="mypy==2.4.1"

echo "== release metadata: one version, one licence text"
crate_version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
python_version=$(sed -n 's/^version = "\(.*\)"/\1/p' python/Cargo.toml | head -1)
[ "$crate_version" = "$python_version" ] || {
    echo "python/Cargo.toml is version $python_version, the crate $crate_version"; exit 1; }
for f in LICENSE-MIT LICENSE-APACHE; do
    [ "$(readlink "python/$f")" = "../$f" ] || { echo "python/$f is not a link to ../$f"; exit 1; }
done
if grep -n '](\.\./' python/README.md; then
    echo "python/README.md links outside the package (../): it must render on its own"; exit 1
fi

echo "== maturin ($MATURIN) in $work/build ($("$PYTHON" --version))"
"$PYTHON" -m venv "$work/build"
"$work/build/bin/pip" install --quiet --progress-bar off "$MATURIN"

echo "== sdist"
"$work/build/bin/maturin" sdist --manifest-path python/Cargo.toml --out "$work/dist" 2>&1 | tail -1
"$work/build/bin/python" - "$work"/dist/*.tar.gz <<'EOF'
import sys, tarfile
sdist = tarfile.open(sys.argv[1])
names = sdist.getnames()
info = sdist.extractfile(next(n for n in names if n.endswith("/PKG-INFO"))).read().decode()
for want in ("License-Expression: MIT OR Apache-2.0", "License-File: LICENSE-MIT", "License-File: LICENSE-APACHE"):
    assert want in info, f"{want!r} is not in the sdist's PKG-INFO"
for want in ("LICENSE-MIT", "LICENSE-APACHE", "README.md", "pyproject.toml", "Cargo.lock",
             "pixelhit/__init__.py", "pixelhit/pygame.py", "src/lib.rs"):
    assert any(n.endswith("/" + want) for n in names), f"{want} is not in the sdist"
print(f"{sys.argv[1].rsplit('/', 1)[1]}: {len(names)} files")
EOF

echo "== wheel (maturin build --release --locked --features abi3)"
"$work/build/bin/maturin" build --release --locked --features abi3 \
    --manifest-path python/Cargo.toml --out "$work/dist" 2>&1 | grep -E "Built wheel|warning|error" || true
wheel=$(ls "$work"/dist/*.whl)
case "$(basename "$wheel")" in
    *-cp311-abi3-manylinux_*) echo "$(basename "$wheel")" ;;
    *) echo "unexpected wheel tag: $wheel"; exit 1 ;;
esac
"$work/build/bin/python" - "$wheel" <<'EOF'
import sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
for want in ("licenses/LICENSE-MIT", "licenses/LICENSE-APACHE", "pixelhit/py.typed",
             "pixelhit/__init__.pyi", "pixelhit/_pixelhit.pyi", "pixelhit/pygame.py"):
    assert any(n.endswith(want) for n in names), f"{want} is not in the wheel"
meta = zipfile.ZipFile(sys.argv[1]).read(next(n for n in names if n.endswith("METADATA"))).decode()
assert "License-Expression: MIT OR Apache-2.0" in meta, "no SPDX licence in the metadata"
EOF

# pip alone from here on: a PATH without cargo or rustc, and wheels only.
plain_path=$(tr ':' '\n' <<<"$PATH" | grep -v -e '\.cargo' -e rustup | paste -sd: -)
install() { # venv, pygame requirement
    "$PYTHON" -m venv "$1"
    PATH="$plain_path" "$1/bin/pip" install --quiet --progress-bar off --only-binary :all: \
        "$wheel" "${TEST_DEPS[@]}" "$2"
    ! PATH="$plain_path" command -v cargo >/dev/null || { echo "cargo is still on the PATH"; exit 1; }
    "$1/bin/python" -c 'import pixelhit, pygame; print("pixelhit", pixelhit.__version__, "with", pygame.__name__, pygame.version.ver, "from", pixelhit.__file__)'
}
run_tests() { # venv
    (cd "$work" && PATH="$plain_path" "$1/bin/python" -m pytest "$repo/python/tests" -q -p no:cacheprovider)
}

echo "== venv with $PYGAME: install the wheel, run the tests"
install "$work/pygame" "$PYGAME"
"$work/pygame/bin/python" -c "import pixelhit; assert pixelhit.__version__ == '$crate_version', pixelhit.__version__"
run_tests "$work/pygame"

echo "== the stubs against the installed wheel ($MYPY's stubtest)"
# Stubtest sees every name, parameter and default of the module (the Rust signatures give
# their defaults as plain numbers, which Python's signatures show); its allowlist holds only
# what it cannot compare, each line with its reason.
PATH="$plain_path" "$work/pygame/bin/pip" install --quiet --progress-bar off --only-binary :all: "$MYPY"
(cd "$work" && PATH="$plain_path" "$work/pygame/bin/python" -m mypy.stubtest pixelhit --allowlist "$repo/python/stubtest-allowlist.txt")

echo "== venv with $PYGAME_CE: install the same wheel, run the tests"
install "$work/pygame-ce" "$PYGAME_CE"
"$work/pygame-ce/bin/python" -c 'import pygame; assert getattr(pygame, "IS_CE", False), "not pygame-ce"'
run_tests "$work/pygame-ce"

py="$work/pygame/bin/python"
echo "== README snippets (python/README.md, README.md's Python section)"
PATH="$plain_path" "$py" python/tools/run_readme_snippets.py python/README.md README.md

echo "== examples"
PATH="$plain_path" "$py" python/examples/pygame_sprites.py "$work/pygame_sprites.png"
PATH="$plain_path" "$py" python/examples/asteroids.py --frames 300 --out "$work/asteroids.png"
"$py" - "$work/pygame_sprites.png" "$work/asteroids.png" <<'EOF'
import sys, pygame
for path in sys.argv[1:]:
    w, h = pygame.image.load(path).get_size()
    assert w > 0 and h > 0, path
    print(f"{path.rsplit('/', 1)[1]}: a {w}x{h} PNG")
EOF
"$py" python/tools/collision_lines.py python/examples/asteroids.py
PATH="$plain_path" "$py" python/examples/asteroids.py --collisions pygame --frames 300 --out "$work/asteroids_pygame.png"

echo "== python/ci.sh passed in $((SECONDS - start)) s"
