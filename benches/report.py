#!/usr/bin/env python3
"""Prints the README's performance table from criterion's results.

Run `cargo bench --bench collision` first; this reads target/criterion/*/*/new/estimates.json
and prints, per group, the median of every function and how many times faster pixelhit's
steady-state and cold queries are than the flash_pipeline yardstick.
"""
import json
import pathlib
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "target/criterion")
groups = {}
for est in sorted(root.glob("*/*/new/estimates.json")):
    group, function = est.parent.parent.parent.name, est.parent.parent.name
    median_ns = json.loads(est.read_text())["median"]["point_estimate"]
    groups.setdefault(group, {})[function] = median_ns


def fmt(ns):
    if ns >= 1e6:
        return f"{ns / 1e6:.2f} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.1f} µs"
    return f"{ns:.0f} ns"


print("| group | function | median | vs flash_pipeline |")
print("|---|---|---|---|")
for group in sorted(groups):
    fns = groups[group]
    flash = fns.get("flash_pipeline")
    for name in sorted(fns, key=lambda n: (n != "pixelhit", n)):
        ratio = f"{flash / fns[name]:.1f}x faster" if flash and name != "flash_pipeline" else ""
        print(f"| {group} | {name} | {fmt(fns[name])} | {ratio} |")
