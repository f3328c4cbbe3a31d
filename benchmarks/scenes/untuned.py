"""Scene 10: scenes nobody tuned for. Bodies dropped from a tall column at random positions and
orientations (spheres, cubes, the heap's mixed shapes) into the bin, a base-40 pyramid, a row
of small pyramids, and hanging chains of ball joints; each with sleeping on and off, Rapier on
one thread and on all cores. Beside each time, what stability it bought: the pile's height,
its largest overlap (spheres) and bodies out of the bin; a pyramid's largest movement; a chain's
largest stretch of a joint."""

from __future__ import annotations

import numpy as np
from engines.base import BIN, CHAIN_PITCH, chain_layout
from timing import STAGES_NOTE, run_scene, sleeping_cases, sleeping_table

from .pile import largest_overlap

SIZE = 0.05
#: A pyramid whose cubes moved less than this (m) still stands.
STANDS = 0.25


def out_of_bin(p: np.ndarray, reach: float) -> int:
    """Bodies whose centre is outside the bin or under the floor."""
    inside = (np.abs(p[:, 0]) < BIN / 2 + reach) & (np.abs(p[:, 2]) < BIN / 2 + reach)
    return int(np.count_nonzero(~inside | (p[:, 1] < 0.0)))


def chain_stretch(p: np.ndarray, count: int, links: int) -> float:
    """The largest change of a joint's length in the chains (m): anchor to first link, and
    link to link, against the pitch they started at."""
    anchors, _ = chain_layout(count, links)
    rows = p.reshape(count, links, 3)
    ends = np.concatenate([anchors[:, None, :], rows], axis=1)
    lengths = np.linalg.norm(np.diff(ends, axis=1), axis=2)
    return float(np.abs(lengths - CHAIN_PITCH).max())


def cases(bodies: int, base: int, pyramids: int, small_base: int, chains: int, links: int):
    """(label, build method, arguments but sleeping, the quality's name, its measure(start, end))."""
    out = []
    for kind, bodies_of in (("sphere", "spheres"), ("cube", "cubes"), ("mixed", "mixed bodies")):
        reach = SIZE * (np.sqrt(3) if kind == "cube" else 1.6)

        def pile(start, end, kind=kind, reach=reach):
            height = float(end[:, 1].max() + SIZE)
            overlap = largest_overlap(end, SIZE) * 1e3 if kind == "sphere" else None
            return height, overlap, out_of_bin(end, reach)

        out.append((f"{bodies} {bodies_of} dropped", "drop", (kind, bodies, SIZE), "pile", pile))
    moved = lambda s, e: (float(np.linalg.norm(e - s, axis=1).max()),)  # noqa: E731
    out.append((f"pyramid, base {base}", "pyramids", (1, base, 0.5), "pyramid", moved))
    out.append(
        (f"{pyramids} pyramids, base {small_base}", "pyramids", (pyramids, small_base, 0.5),
         "pyramid", moved)
    )  # fmt: skip
    out.append(
        (f"{chains} chains of {links} links", "chains", (chains, links), "chain",
         lambda s, e: (chain_stretch(e, chains, links) * 1e3,))
    )  # fmt: skip
    return out


def measure(engines, steps, repeats, **sizes):
    """Rows (label, kind of quality, sleeping, engine, build s, stepping s, quality..., stage
    times)."""

    def engines_of(case):
        # 3D scenes: the engines that build them (pymunk and rigidlab 2D have none).
        build = case[0]
        return [
            name
            for name, engine in engines.items()
            if hasattr(engine, build) and getattr(engine, "dims", "3d") == "3d"
        ]

    def run(name, case, sleeping):
        build, args, judge = case
        r = run_scene(engines[name], build, (*args, sleeping), steps)
        return r, judge(r.start, r.end)

    return sleeping_cases(
        [
            (label, quality, (build, args, judge))
            for label, build, args, quality, judge in cases(**sizes)
        ],
        engines_of,
        run,
        repeats,
    )


def section(rows, steps) -> list[str]:
    lines = [
        f"## 10. Scenes nobody tuned for ({steps} steps)",
        "",
        "Bodies of 5 cm dropped into the 1 m bin from a column up to n/100 m high at random "
        "positions and orientations; pyramids of 1 m cubes; chains of 5 cm balls on ball joints "
        "hanging from fixed points, let go as a straight line at 60 degrees. Each with sleeping "
        "on and off. 'ratio': the engine's time over rigidlab's in the same case.",
        "",
    ]
    lines += sleeping_table(rows, "rigidlab", stability)
    lines += [
        "",
        "Stability: pile height (m), largest overlap between spheres (mm), bodies out of the bin; "
        f"a pyramid's largest movement of a cube (m; it stands below {STANDS} m); a chain's "
        "largest change of a joint's length (mm).",
        "",
        STAGES_NOTE,
    ]
    return lines


def stability(r) -> str:
    # After the times, the quality's measures, then the stage times.
    quality, values = r[1], r[6:-1]
    if quality == "pile":
        height, overlap, out = values
        parts = [f"height {height:.3f} m"]
        if overlap >= 0:
            parts.append(f"overlap {overlap:.2f} mm")
        return ", ".join(parts + [f"{int(out)} out"])
    if quality == "pyramid":
        return f"moved {values[0]:.4f} m ({'stands' if values[0] < STANDS else 'fell'})"
    return f"stretch {values[0]:.3f} mm"
