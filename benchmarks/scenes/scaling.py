"""Scene 6: the sphere pile from 1k to 64k bodies, the bin widening with N so that the piles are
alike in height: step time against N (and its fitted exponent), and memory per body. Each size is
built in a fresh process, so that its memory growth is its own."""

from __future__ import annotations

import math
import os
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

import numpy as np
from engines.base import BIN
from timing import medians, stepped, timed, turns

RADIUS = 0.05
#: The bin is BIN wide at this many bodies, and its area grows with N.
BASE = 1000
#: The 3D polyhedron engine rigidlab grew from (C++/OpenGL, 2010): seconds for one all-pairs collision-detection pass, by body count, and its
#: memory per body (bytes).
ALL_PAIRS = {500: 1.72, 1000: 6.55, 2000: 26.28, 3500: 80.53}
ALL_PAIRS_BYTES = 1300


def side(n: int) -> float:
    """The bin's inner width for n spheres."""
    return BIN * math.sqrt(n / BASE)


def resident() -> int:
    """This process's resident memory (bytes), from /proc/self/statm."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def one(name: str, n: int, steps: int) -> tuple[float, float, int, int]:
    """In a fresh process: builds the pile of n in engine `name` and steps it. Returns the build
    time (s), the time per step over the last half of the steps (s), and the growth of resident
    memory (bytes) from before building to after building, and to after stepping."""
    from engines import available

    e = available()[name]()
    before = resident()
    build = timed(e.sphere_pile, n, RADIUS, side(n))
    built = resident() - before
    e.step(steps - steps // 2)
    per_step, _ = stepped(e, steps // 2)
    stepped_too = resident() - before
    e.close()
    return build, per_step, built, stepped_too


def apart(name: str, n: int, steps: int) -> tuple[float, float, int, int]:
    """`one` in a process of its own."""
    with ProcessPoolExecutor(1, mp_context=get_context("spawn")) as pool:
        return pool.submit(one, name, n, steps).result()


def exponent(ns, times) -> float:
    """The slope of log(time) against log(N): time grows as N to this power."""
    return float(np.polyfit(np.log(ns), np.log(times), 1)[0])


def measure(engines, sizes, steps, repeats, peer_max):
    """Rows (N, engine, build s, s per step, bytes per body after building, and after stepping);
    peers only up to peer_max."""
    rows = []
    for n in sizes:
        runs = {name: [] for name in engines if name == "rigidlab" or n <= peer_max}
        for name in turns(runs, repeats):
            runs[name].append(apart(name, n, steps))
            print(
                f"  scaling {n}: {name} {runs[name][-1][1] * 1e3:.2f} ms/step, {runs[name][-1][3] / n:.0f} B/body",
                flush=True,
            )
        for name, r in runs.items():
            build, per_step, built, stepped_too = medians(r)
            rows.append((n, name, build, per_step, built / n, stepped_too / n))
    return rows


def fits(rows) -> dict[str, float]:
    """The fitted exponent of each engine measured at two sizes or more, and the 3D polyhedron engine's."""
    out = {}
    for name in dict.fromkeys(r[1] for r in rows):
        mine = [r for r in rows if r[1] == name]
        if len(mine) > 1:
            out[name] = exponent([r[0] for r in mine], [r[3] for r in mine])
    out["the 3D polyhedron engine"] = exponent(list(ALL_PAIRS), list(ALL_PAIRS.values()))
    return out


def section(rows, steps, figure) -> list[str]:
    slopes = fits(rows)
    rl = [r for r in rows if r[1] == "rigidlab"]
    lines = [
        f"## 6. Scaling (sphere pile, {rl[0][0]} to {rl[-1][0]} spheres)",
        "",
        f"The pile of scene 1 with the bin widened to {BIN:g} m x sqrt(N / {BASE}) so every pile is about as high; {steps} steps, the time per step from the "
        f"last {steps // 2}. Each size runs in a fresh process; 'memory per body' is the growth of its resident memory (/proc/self/statm) from before "
        "building to after building, and to after stepping, over N: everything the scene holds, the Python handles to the bodies included; "
        "stepping adds what the contacts need (the pile is still settling at the end).",
        "",
        f"![scaling]({figure})",
        "",
        "| spheres | engine | ms per step | build (s) | memory per body, built (KB) | memory per body, stepped (KB) |",
        "|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r[0]} | {r[1]} | {r[3] * 1e3:.3f} | {r[2]:.3f} | {r[4] / 1000:.2f} | {r[5] / 1000:.2f} |"
        )
    lines += [
        "",
        "Fitted exponent of step time against N (time ~ N^k): "
        + ", ".join(f"{name} k = {k:.2f}" for name, k in slopes.items())
        + ".",
        "",
        f"The 3D polyhedron engine rigidlab grew from (C++/OpenGL, 2010) tested all pairs: one collision-detection pass alone took {ALL_PAIRS[1000]} s at 1000 bodies and {ALL_PAIRS[3500]} s at 3500 "
        f"(k = {slopes['the 3D polyhedron engine']:.2f}, O(N^2)), with about {ALL_PAIRS_BYTES / 1000:.1f} KB per body. rigidlab takes "
        f"{rl[0][3] * 1e3:.2f} ms for a whole step at {rl[0][0]} bodies and {rl[-1][3] * 1e3:.2f} ms at {rl[-1][0]} "
        f"(k = {slopes.get('rigidlab', float('nan')):.2f}), with {rl[-1][4] / 1000:.2f} KB per body at {rl[-1][0]} once built and {rl[-1][5] / 1000:.2f} KB after stepping.",
    ]
    return lines
