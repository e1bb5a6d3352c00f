#!/usr/bin/env python3
"""Runs every ```python block of the given Markdown files, as written, in a temporary folder.

    python tools/run_readme_snippets.py python/README.md README.md

The blocks of one file run in order in one namespace (later snippets use what earlier ones
made, as a reader going down the page would); for the root README only the "From Python"
section's blocks run. A block that raises fails the run with the file and the line of its
first line. Blocks fenced as ```py-norun are shown but not run (none are, today).
"""

import os
import re
import sys
import tempfile
import traceback

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


def blocks(path):
    text = open(path, encoding="utf-8").read()
    section = re.search(r"^## From Python.*?(?=^## |\Z)", text, re.S | re.M)
    if not os.path.abspath(path).endswith(os.path.join("python", "README.md")) and section:
        offset = text[: section.start()].count("\n")
        text = section.group(0)
    else:
        offset = 0
    for m in re.finditer(r"^```python\n(.*?)^```", text, re.S | re.M):
        yield offset + text[: m.start()].count("\n") + 2, m.group(1)


def main(paths):
    failed = ran = 0
    for path in paths:
        namespace = {"__name__": "__readme__"}
        with tempfile.TemporaryDirectory() as folder:
            cwd = os.getcwd()
            os.chdir(folder)
            try:
                for line, code in blocks(os.path.join(cwd, path)):
                    ran += 1
                    try:
                        exec(compile(code, f"{path}:{line}", "exec"), namespace)
                    except Exception:
                        failed += 1
                        print(f"{path}, the block at line {line} raised:")
                        traceback.print_exc()
            finally:
                os.chdir(cwd)
    print(f"{ran} README snippets run, {failed} failed")
    return 1 if failed or not ran else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
