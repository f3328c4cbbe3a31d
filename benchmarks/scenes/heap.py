"""Scene 3: a heap of mixed shapes (spheres, boxes, capsules, convex hulls) falling into the bin of
the sphere pile."""

from __future__ import annotations

import numpy as np
from engines.base import BIN, BOX, CAPSULE, HEAP_KINDS, HULL_STRETCH, heap_layout, heap_radius
from timing import BUDGET, medians, run_scene, turns

SIZE = 0.05


def escaped(centres: np.ndarray) -> int:
    """How many bodies left the bin: centre outside its walls or under the floor."""
    outside = (
        (np.abs(centres[:, 0]) > BIN / 2)
        | (np.abs(centres[:, 2]) > BIN / 2)
        | (centres[:, 1] < 0.0)
    )
    return int(outside.sum())


def measure(engines, n, steps, repeats, size=SIZE):
    """Rows (engine, build s, stepping s for `steps`, heap height m, most bodies out of the bin,
    fewest steps done)."""
    radii = np.array([heap_radius(k, size) for k in heap_layout(n, size)[0]])
    runs = {name: [] for name in engines}
    for name in turns(engines, repeats):
        build, per_step, done, _, p, _ = run_scene(engines[name], "mixed_heap", (n, size), steps)
        runs[name].append(
            (build, per_step * steps, float((p[:, 1] + radii).max()), escaped(p), done)
        )
        print(
            f"  mixed heap {n}: {name} {per_step * 1e3:.2f} ms/step over {done} steps, {runs[name][-1][3]} out of the bin",
            flush=True,
        )
    return [
        (name, *medians([x[:3] for x in r]), max(x[3] for x in r), min(x[4] for x in r))
        for name, r in runs.items()
    ]


def section(rows, n, steps, size=SIZE) -> list[str]:
    ref = next(r[2] for r in rows if r[0] == "rigidlab")
    lines = [
        f"## 3. Mixed heap ({n} bodies, a quarter each of {', '.join(HEAP_KINDS)}, into the {BIN:g} m x {BIN:g} m bin)",
        "",
        f"Sizes: spheres of radius {size} m; boxes of half extents {' x '.join(f'{size * f:g}' for f in BOX)} m; capsules of radius {CAPSULE[0] * size:g} m "
        f"and axis {2 * CAPSULE[1] * size:g} m long, standing; hulls of 12 points (an icosahedron of circumradius {size} m stretched by "
        f"{' x '.join(f'{f:g}' for f in HULL_STRETCH)}). Density 1000 kg/m^3. They start on a lattice like the pile's, in an order shuffled the same way "
        "each run, and fall for the whole run; the walls stand 1 m over the highest start. 'heap height' is the highest point of a body's bounding "
        "sphere; 'in the bin' fails when any centre ends outside the walls or under the floor.",
        "",
        "pymunk (2D) drops discs, rectangles, capsules (segments with a radius) and polygons (the hull's outline in x-y) into a 2D bin as wide: its heap is far taller.",
        "",
        "| engine | ms per step | ratio | build (s) | heap height (m) | in the bin |",
        "|---|---|---|---|---|---|",
    ]
    for r in rows:
        note = "" if r[5] == steps else f" (stopped after {r[5]} steps: over {BUDGET:.0f} s)"
        inside = "yes" if r[4] == 0 else f"no: {r[4]} out"
        lines.append(
            f"| {r[0]}{note} | {r[2] / steps * 1e3:.3f} | {r[2] / ref:.2f} | {r[1]:.3f} | {r[3]:.3f} | {inside} |"
        )
    return lines
