"""Scene 11: 2D worlds beside pymunk, each scene with sleeping on and off. rigidlab 2D
(rl.World2D) and pymunk run the very same 2D scenes: the disc piles of scene 1, the square
pyramid of scene 2 and the mixed heap of scene 3. pymunk does not sleep unless asked: with
sleeping on it gets the same idle time as rigidlab (0.5 s below its idle speed)."""

from __future__ import annotations

import numpy as np
from engines.base import BIN
from engines.rigidlab2d_engine import Rigidlab2DOneThread
from timing import STAGES_NOTE, run_scene, sleeping_cases, sleeping_table

from .heap import escaped
from .pile import largest_overlap
from .untuned import STANDS, stability

RADIUS = 0.05
HALF = 0.5
SIZE = 0.05
#: The 2D engines: rigidlab's (on all cores where it pays, and on one thread), and the peer
#: this scene compares it with.
ENGINES = ("rigidlab 2D", Rigidlab2DOneThread.name, "pymunk (2D)")


def cases(sizes: list[int], base: int, heap_bodies: int):
    """(label, build method, its arguments, the quality's name: a heap is judged as a pile
    without overlaps)."""
    out = [(f"{n} discs", "sphere_pile", (n, RADIUS), "pile") for n in sizes]
    out.append((f"pyramid, base {base}", "pyramid", (base, HALF), "pyramid"))
    out.append((f"{heap_bodies} mixed bodies", "mixed_heap", (heap_bodies, SIZE), "heap"))
    # Dropped at random from a column n/100 m high, as in scene 10: no lattice to favour anyone.
    for n in sizes:
        out.append((f"{n} discs dropped", "drop", ("sphere", n, RADIUS, True), "pile"))
    out.append(
        (f"{heap_bodies} mixed bodies dropped", "drop", ("mixed", heap_bodies, SIZE, True), "heap")
    )
    return out


def judge(quality: str, start: np.ndarray, end: np.ndarray) -> tuple:
    if quality == "pyramid":
        return (float(np.linalg.norm(end - start, axis=1).max()),)
    if quality == "pile":
        return (float(end[:, 1].max() + RADIUS), largest_overlap(end, RADIUS) * 1e3, escaped(end))
    return (float(end[:, 1].max()), None, escaped(end))


def measure(engines, steps, repeats, sizes, base, heap_bodies):
    """Rows (label, quality, sleeping, engine, build s, stepping s, quality..., stage times)."""
    if "rigidlab 2D" in engines:
        engines = {**engines, Rigidlab2DOneThread.name: Rigidlab2DOneThread}
    chosen = [k for k in ENGINES if k in engines]

    def one(name, case, sleeping):
        build, args, quality = case
        r = run_scene(engines[name], build, args, steps, sleeping)
        return r, judge(quality, r.start, r.end)

    return sleeping_cases(
        [
            # A heap is shown as a pile without overlaps (untuned.stability).
            (label, "pyramid" if quality == "pyramid" else "pile", (build, args, quality))
            for label, build, args, quality in cases(sizes, base, heap_bodies)
        ],
        lambda _: chosen,
        one,
        repeats,
    )


def section(rows, steps) -> list[str]:
    lines = [
        f"## 11. 2D worlds beside pymunk, sleeping on and off ({steps} steps)",
        "",
        "The 2D scenes of sections 1 to 3 in rigidlab's 2D worlds and in pymunk: discs of "
        f"radius {RADIUS} m started on a lattice over a bin {BIN} m wide, a pyramid of 1 m "
        "squares, a heap of discs, rectangles, capsules and polygons falling into the bin; then "
        "discs and the mixed bodies dropped at random from a column n/100 m high (as in "
        "section 10). 'rigidlab 2D' runs with its default threads (a world of 1 024 contacts "
        "or more splits its solver's sweeps over all cores), 'rigidlab 2D 1 thread' on the "
        "calling thread alone; pymunk runs on one. "
        "'ratio': the engine's time over rigidlab 2D's in the same case (above 1: rigidlab 2D "
        "is faster).",
        "",
    ]
    lines += sleeping_table(rows, "rigidlab 2D", stability)
    lines += [
        "",
        "Stability: a pile's height (m), its largest overlap between discs (mm) and discs out "
        f"of the bin; a pyramid's largest movement of a square (m; it stands below {STANDS} "
        "m); a heap's height (m) and bodies out of the bin.",
        "",
        STAGES_NOTE,
    ]
    return lines
