"""Scene 1: spheres falling into a walled bin."""

from __future__ import annotations

import numpy as np
from engines.base import BIN
from timing import TOO_SLOW, medians, run_scene, size_rows, turns

RADIUS = 0.05


def largest_overlap(centres: np.ndarray, radius: float) -> float:
    """The deepest overlap between equal spheres (m), from a grid of cells one diameter wide."""
    cells: dict = {}
    keys = np.floor(centres / (2 * radius)).astype(int)
    for i, k in enumerate(map(tuple, keys)):
        cells.setdefault(k, []).append(i)
    worst = 0.0
    offsets = [(a, b, c) for a in (-1, 0, 1) for b in (-1, 0, 1) for c in (-1, 0, 1)]
    for k, members in cells.items():
        near = [j for o in offsets for j in cells.get((k[0] + o[0], k[1] + o[1], k[2] + o[2]), ())]
        if len(near) < 2:
            continue
        a = centres[members]
        b = centres[near]
        d = np.linalg.norm(a[:, None, :] - b[None, :, :], axis=2)
        d[d == 0.0] = np.inf
        worst = max(worst, 2 * radius - d.min())
    return max(worst, 0.0)


def measure(engines, sizes, steps, repeats, radius=RADIUS):
    """Rows (spheres, engine, build s, stepping s for `steps`, pile height, largest overlap, fewest
    steps done), and the engines left out of the larger sizes (name: size where too slow)."""
    rows = []
    skipped: dict = {}
    for n in sizes:
        runs = {name: [] for name in engines if name not in skipped}
        for name in turns(runs, repeats):
            build, per_step, done, _, p, _ = run_scene(
                engines[name], "sphere_pile", (n, radius), steps
            )
            runs[name].append(
                (
                    build,
                    per_step * steps,
                    float(p[:, 1].max() + radius),
                    largest_overlap(p, radius),
                    done,
                )
            )
            print(
                f"  sphere pile {n}: {name} {per_step * 1e3:.2f} ms/step over {done} steps",
                flush=True,
            )
        for name, r in runs.items():
            rows.append((n, name, *medians([x[:4] for x in r]), min(x[4] for x in r)))
            if rows[-1][3] / steps > TOO_SLOW:
                skipped[name] = n
    return rows, skipped


def section(rows, skipped, steps) -> list[str]:
    lines = [
        f"## 1. Sphere pile (radius {RADIUS} m into a {BIN:g} m x {BIN:g} m walled bin)",
        "",
        "| spheres | engine | ms per step | ratio | build (s) | pile height (m) | largest overlap (mm) |",
        "|---|---|---|---|---|---|---|",
    ]
    lines += size_rows(
        rows,
        6,
        steps,
        lambda r, ref: (
            f"{r[3] / steps * 1e3:.3f} | {r[3] / ref:.2f} | {r[2]:.3f} | {r[4]:.3f} | {r[5] * 1e3:.2f}"
        ),
    )
    for name, n in skipped.items():
        lines.append(
            f"\n{name} took over {TOO_SLOW * 1e3:.0f} ms a step at {n} spheres, so it was not run with more."
        )
    return lines
