#!/usr/bin/env python3
"""Counts the lines of code between `# --- collisions: NAME ---` and `# --- end ---` markers
(blank lines and comments left out) and checks that pixelhit's are no more than pygame's.

    python tools/collision_lines.py examples/asteroids.py
"""

import sys


def regions(path):
    out, name = {}, None
    for line in open(path, encoding="utf-8"):
        s = line.strip()
        if s.startswith("# --- collisions:"):
            name = s[len("# --- collisions:"):].strip(" -")
            out[name] = 0
        elif s.startswith("# --- end"):
            name = None
        elif name and s and not s.startswith("#"):
            out[name] += 1
    return out


def main(paths):
    counts = {}
    for p in paths:
        counts.update(regions(p))
    print("collision code, lines:", ", ".join(f"{k} {v}" for k, v in counts.items()))
    if counts.get("pixelhit", 0) > counts.get("pygame", 0) or not counts.get("pixelhit"):
        print("pixelhit's collision code is longer than pygame's (or missing)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
