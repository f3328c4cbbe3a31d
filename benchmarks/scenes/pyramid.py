"""Scene 2: a pyramid of cubes standing on a floor."""

from __future__ import annotations

import numpy as np
from timing import medians, run_scene, turns

HALF = 0.5
#: A pyramid whose cubes moved less than this (m) still stands.
STANDS = 0.25


def measure(engines, base, steps, repeats, half=HALF):
    """Rows (engine, build s, stepping s for `steps`, largest movement of a cube m)."""
    runs = {name: [] for name in engines}
    for name in turns(engines, repeats):
        build, per_step, _, start, end, _ = run_scene(engines[name], "pyramid", (base, half), steps)
        moved = float(np.linalg.norm(end - start, axis=1).max())
        runs[name].append((build, per_step * steps, moved))
        print(
            f"  pyramid {base}: {name} {per_step * 1e3:.2f} ms/step, moved {moved:.3f} m",
            flush=True,
        )
    return [(name, *medians(r)) for name, r in runs.items()]


def section(rows, base, steps) -> list[str]:
    ref = next(r[2] for r in rows if r[0] == "rigidlab")
    lines = [
        f"## 2. Box pyramid (base {base}, {base * (base + 1) // 2} cubes of {2 * HALF:g} m, on a floor)",
        "",
        "| engine | ms per step | ratio | build (s) | largest movement (m) | stands |",
        "|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r[0]} | {r[2] / steps * 1e3:.3f} | {r[2] / ref:.2f} | {r[1]:.3f} | {r[3]:.4f} | {'yes' if r[3] < STANDS else 'no'} |"
        )
    return lines
