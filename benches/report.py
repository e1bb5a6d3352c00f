#!/usr/bin/env python3
"""Prints the performance tables of docs/performance.md from criterion's results.

Run `cargo bench -p pixelhit-benches --bench collision` and `cargo bench -p pixelhit-benches --bench crowd` first; this reads
target/criterion/<group>/<function>/new/{estimates,benchmark}.json and prints:

- per pair group (aligned_N, rotated_*, near_miss, deep_tree, moving_pair), the median of
  every function and how many times faster it is than the flash_pipeline yardstick;
- for the crowd group, one row per number of sprites with the median frame time of each
  motion (pixelhit = whole-pixel moves, pixelhit_fractional, spinning, still, naive).

Criterion writes a function id such as `spinning/250` to the directory `spinning_250`; the
id is read back from benchmark.json, so the names printed are the ones the benches use.
"""
import json
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "target/criterion")
groups = {}
for est in sorted(root.glob("*/*/new/estimates.json")):
    new = est.parent
    group, function = new.parent.parent.name, new.parent.name
    meta = new / "benchmark.json"
    if meta.exists():
        info = json.loads(meta.read_text())
        group = info.get("group_id") or group
        function = info.get("function_id") or function
        if info.get("value_str"):
            function = f"{function}/{info['value_str']}"
    median_ns = json.loads(est.read_text())["median"]["point_estimate"]
    groups.setdefault(group, {})[function] = median_ns


def fmt(ns):
    if ns >= 1e6:
        return f"{ns / 1e6:.2f} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.1f} µs"
    return f"{ns:.0f} ns"


def natural(s):
    """Sort key that puts aligned_64 before aligned_256."""
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", s)]


CROWD = "crowd"
pair_groups = [g for g in groups if g != CROWD]
if pair_groups:
    print("| group | function | median | vs flash_pipeline |")
    print("|---|---|---|---|")
    for group in sorted(pair_groups, key=natural):
        fns = groups[group]
        flash = fns.get("flash_pipeline")
        for name in sorted(fns, key=lambda n: (n != "pixelhit", n)):
            ratio = f"{flash / fns[name]:.1f}x faster" if flash and name != "flash_pipeline" else ""
            print(f"| {group} | {name} | {fmt(fns[name])} | {ratio} |")

if CROWD in groups:
    # Function ids are `<motion>/<sprites>`.
    motions, table = [], {}
    for fid, ns in groups[CROWD].items():
        motion, _, n = fid.rpartition("/")
        if not n.isdigit():
            motion, n = fid, "?"
        if motion not in motions:
            motions.append(motion)
        table.setdefault(n, {})[motion] = ns
    order = ["pixelhit", "pixelhit_fractional", "spinning", "still", "naive"]
    motions.sort(key=lambda m: (order.index(m) if m in order else len(order), m))
    if pair_groups:
        print()
    print("| sprites | " + " | ".join(motions) + " |")
    print("|---" * (len(motions) + 1) + "|")
    for n in sorted(table, key=natural):
        cells = [fmt(table[n][m]) if m in table[n] else "—" for m in motions]
        print(f"| {n} | " + " | ".join(cells) + " |")
