#!/usr/bin/env python3
"""Draws bench/run-scale.sh's figures as an SVG: a panel per database, a line per mix,
each point the mix's requests/s over /healthz of the same run at that size, divided by
the same ratio at the smallest size (1 = costs what it cost at the smallest size; the
issue's bound, 0.8, is drawn dashed). Python's standard library only.

    bench/plot-scale.py bench/scale.jsonl > docs/scale.svg
"""

import json
import math
import sys
from html import escape

WIDTH, HEIGHT = 460, 340
LEFT, RIGHT, TOP, BOTTOM = 56, 150, 40, 48
COLOURS = [
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
    "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#ad494a", "#637939",
]


def load(path):
    """The last line of each (database, size): {database: {size: line}}."""
    runs = {}
    with open(path) as f:
        for text in f:
            if not text.strip():
                continue
            line = json.loads(text)
            if line.get("bench") == "scale":
                runs.setdefault(line["database"], {})[line["assets"]] = line
    return runs


def panel(database, by_size, x0, out):
    sizes = sorted(by_size)
    base = by_size[sizes[0]]["ratio_to_healthz"]
    mixes = [m for m in base if m != "healthz"]
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    lo, hi = math.log10(sizes[0]), math.log10(sizes[-1])
    growth = {
        m: [by_size[s]["ratio_to_healthz"][m] / base[m] for s in sizes if base[m] > 0]
        for m in mixes
    }
    top = max(1.4, max(max(v) for v in growth.values()) * 1.05)

    def x(size):
        return x0 + LEFT + (math.log10(size) - lo) / max(hi - lo, 1e-9) * plot_w

    def y(value):
        return TOP + (1 - value / top) * plot_h

    out.append(f'<text x="{x0 + LEFT}" y="22" font-weight="bold">{escape(database)}</text>')
    out.append(
        f'<rect x="{x0 + LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" '
        'fill="none" stroke="#999"/>'
    )
    step = 0.2 if top <= 2 else 0.5
    tick = 0.0
    while tick <= top + 1e-9:
        out.append(
            f'<line x1="{x0 + LEFT - 4}" x2="{x0 + LEFT}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" stroke="#999"/>'
            f'<text x="{x0 + LEFT - 6}" y="{y(tick) + 4:.1f}" text-anchor="end">{tick:.1f}</text>'
        )
        tick += step
    for value, dash in ((1.0, ""), (0.8, ' stroke-dasharray="4 3"')):
        out.append(
            f'<line x1="{x0 + LEFT}" x2="{x0 + LEFT + plot_w}" y1="{y(value):.1f}" '
            f'y2="{y(value):.1f}" stroke="#bbb"{dash}/>'
        )
    for s in sizes:
        out.append(
            f'<text x="{x(s):.1f}" y="{TOP + plot_h + 16}" text-anchor="middle">{s:,}</text>'
        )
    out.append(
        f'<text x="{x0 + LEFT + plot_w / 2}" y="{HEIGHT - 10}" text-anchor="middle">'
        "fixed assets in the company (log scale)</text>"
    )
    for i, m in enumerate(mixes):
        colour = COLOURS[i % len(COLOURS)]
        points = " ".join(f"{x(s):.1f},{y(v):.1f}" for s, v in zip(sizes, growth[m]))
        out.append(f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2"/>')
        ly = TOP + 6 + i * 17
        out.append(
            f'<line x1="{x0 + WIDTH - RIGHT + 10}" x2="{x0 + WIDTH - RIGHT + 26}" y1="{ly}" '
            f'y2="{ly}" stroke="{colour}" stroke-width="2"/>'
            f'<text x="{x0 + WIDTH - RIGHT + 30}" y="{ly + 4}">{escape(m)}</text>'
        )


def main():
    runs = load(sys.argv[1] if len(sys.argv) > 1 else "bench/scale.jsonl")
    if not runs:
        sys.exit("no scale figures: run bench/run-scale.sh first")
    out = []
    for i, database in enumerate(sorted(runs, key=lambda d: d != "sqlite")):
        panel(database, runs[database], i * WIDTH, out)
    width = WIDTH * len(runs)
    print(
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{HEIGHT + 20}" '
        f'viewBox="0 0 {width} {HEIGHT + 20}" font-family="sans-serif" font-size="11">'
        f'<rect width="{width}" height="{HEIGHT + 20}" fill="white"/>'
        f'<text x="8" y="{HEIGHT + 14}" fill="#555">requests/s over /healthz of the same run, '
        "divided by the same at the smallest size (1 = no dearer; dashed: 0.8)</text>"
    )
    print("\n".join(out))
    print("</svg>")


if __name__ == "__main__":
    main()
