"""Scene 11: 2D worlds beside pymunk, each scene with sleeping on and off. rigidlab 2D
(rl.World2D) and pymunk run the very same 2D scenes: the disc piles of scene 1, the square
pyramid of scene 2 and the mixed heap of scene 3. pymunk does not sleep unless asked: with
sleeping on it gets the same idle time as rigidlab (0.5 s below its idle speed)."""

from __future__ import annotations

import numpy as np
from engines.base import BIN
from timing import medians, stepped, timed, turns

from .heap import escaped
from .pile import largest_overlap

RADIUS = 0.05
HALF = 0.5
SIZE = 0.05
#: A pyramid whose squares moved less than this (m) still stands.
STANDS = 0.25
#: The 2D engines: rigidlab's, and the peer this scene compares it with.
ENGINES = ("rigidlab 2D", "pymunk (2D)")


def cases(sizes: list[int], base: int, heap_bodies: int):
    """(label, build method, its arguments, the quality's name)."""
    out = [(f"{n} discs", "sphere_pile", (n, RADIUS), "pile") for n in sizes]
    out.append((f"pyramid, base {base}", "pyramid", (base, HALF), "pyramid"))
    out.append((f"{heap_bodies} mixed bodies", "mixed_heap", (heap_bodies, SIZE), "heap"))
    return out


def judge(quality: str, start: np.ndarray, end: np.ndarray) -> tuple:
    if quality == "pile":
        return (
            float(end[:, 1].max() + RADIUS),
            largest_overlap(end, RADIUS) * 1e3,
            escaped(end),
        )
    if quality == "pyramid":
        return (float(np.linalg.norm(end - start, axis=1).max()),)
    return (float(end[:, 1].max()), escaped(end))


def run(engine, build: str, args: tuple, sleeping: bool, steps: int):
    """(build s, s per step, steps done, positions before and after) of one run."""
    e = engine()
    build_s = timed(getattr(e, build), *args)
    e.sleep(sleeping)
    start = e.positions()
    per_step, done = stepped(e, steps)
    end = e.positions()
    e.close()
    return build_s, per_step, done, start, end


def measure(engines, steps, repeats, sizes, base, heap_bodies):
    """Rows (label, quality, sleeping, engine, build s, stepping s, quality...)."""
    chosen = {k: v for k, v in engines.items() if k in ENGINES}
    rows = []
    for label, build, args, quality in cases(sizes, base, heap_bodies):
        for sleeping in (True, False):
            runs = {name: [] for name in chosen}
            for name in turns(runs, repeats):
                b, per_step, done, start, end = run(chosen[name], build, args, sleeping, steps)
                runs[name].append((b, per_step, *judge(quality, start, end)))
                print(
                    f"  {label}, sleeping {'on' if sleeping else 'off'}: {name} "
                    f"{per_step * 1e3:.2f} ms/step over {done} steps",
                    flush=True,
                )
            for name, r in runs.items():
                rows.append((label, quality, sleeping, name, *medians(r)))
    return rows


def section(rows, steps) -> list[str]:
    lines = [
        f"## 11. 2D worlds beside pymunk, sleeping on and off ({steps} steps)",
        "",
        "The 2D scenes of sections 1 to 3 in rigidlab's 2D worlds and in pymunk: discs of "
        f"radius {RADIUS} m started on a lattice over a bin {BIN} m wide, a pyramid of 1 m "
        "squares, a heap of discs, rectangles, capsules and polygons falling into the bin. "
        "'speed-up': pymunk's time over rigidlab 2D's in the same case (above 1: rigidlab 2D "
        "is faster).",
        "",
        "| case | sleeping | engine | ms per step | speed-up | build (s) | stability |",
        "|---|---|---|---|---|---|---|",
    ]
    for label in dict.fromkeys(r[0] for r in rows):
        for sleeping in (True, False):
            group = [r for r in rows if r[0] == label and r[2] == sleeping]
            ref = next((r[5] for r in group if r[3] == "rigidlab 2D"), None)
            peer = next((r[5] for r in group if r[3] != "rigidlab 2D"), None)
            for r in group:
                ratio = f"{peer / ref:.2f}" if ref and peer and r[3] == "rigidlab 2D" else ""
                lines.append(
                    f"| {label} | {'on' if sleeping else 'off'} | {r[3]} | {r[5] * 1e3:.3f} | "
                    f"{ratio} | {r[4]:.3f} | {stability(r)} |"
                )
    lines += [
        "",
        "Stability: a pile's height (m), its largest overlap between discs (mm) and discs out "
        f"of the bin; a pyramid's largest movement of a square (m; it stands below {STANDS} "
        "m); a heap's height (m) and bodies out of the bin.",
    ]
    return lines


def stability(r) -> str:
    quality, values = r[1], r[6:]
    if quality == "pile":
        height, overlap, out = values
        return f"height {height:.3f} m, overlap {overlap:.2f} mm, {int(out)} out"
    if quality == "pyramid":
        return f"moved {values[0]:.4f} m ({'stands' if values[0] < STANDS else 'fell'})"
    height, out = values
    return f"height {height:.3f} m, {int(out)} out"
