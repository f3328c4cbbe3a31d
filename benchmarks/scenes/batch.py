"""Scene 5: many independent small worlds, each advanced the same time: a bouncing ball on a floor
in each, or a pendulum in each. Each engine is stepped its own ways (`Engine.batch_ways`)."""

from __future__ import annotations

import os
import statistics

import numpy as np
from engines.base import BATCH_BALL, BOB, DT
from timing import cores, medians, pinned, timed, turns

SCENES = ("ball", "pendulum")


def measure(engines, n, steps, repeats):
    """({(scene, engine, way): (build s, stepping s, largest distance m of a body from where the
    engine's first way left it)}, {scene: rigidlab's speed-up on all cores against 1 thread},
    {scene: rigidlab's 1-thread seconds on each core}).

    An engine's ways run back to back within a repetition; a serial way (`Engine.serial_ways`)
    runs once on each core in turn and its time is that at the cores' mean speed (the harmonic
    mean of the times: the mean of the times would favour the all-cores way when the cores'
    speeds differ). The speed-up is the median over the repetitions of each one's ratio, so
    that a slow spell of the machine, which lasts longer than one pair of runs, slows both sides
    of a ratio alike."""
    runs: dict = {}
    first: dict = {}
    pairs: dict = {}
    per_core: dict = {}
    one, many = engines["rigidlab"].batch_ways[1:]
    for scene in SCENES:
        for name in turns(engines, repeats):
            cls = engines[name]
            took = {}
            for way in cls.batch_ways:
                builds, times, apart = [], [], 0.0
                for core in cores() if way in cls.serial_ways else [None]:
                    e = cls()
                    builds.append(timed(e.batch, n, scene))
                    with pinned(core):
                        times.append(timed(e.step_batch, steps, way))
                    end = e.batch_positions()
                    e.close()
                    apart = max(
                        apart, float(np.abs(end - first.setdefault((scene, name), end)).max())
                    )
                took[way] = statistics.harmonic_mean(times)
                runs.setdefault((scene, name, way), []).append(
                    (statistics.mean(builds), took[way], apart)
                )
                if (name, way) == ("rigidlab", one):
                    per_core.setdefault(scene, []).append(times)
                print(
                    f"  batch {n} x {scene}: {name}, {way}: {' / '.join(f'{t:.3f}' for t in times)} s",
                    flush=True,
                )
            if name == "rigidlab":
                pairs.setdefault(scene, []).append(took[one] / took[many])
    return (
        {key: medians(r) for key, r in runs.items()},
        {scene: statistics.median(r) for scene, r in pairs.items()},
        {scene: [statistics.median(c) for c in zip(*r)] for scene, r in per_core.items()},
    )


def section(measured, engines, n, steps, repeats) -> list[str]:
    results, speedup_cores, per_core = measured
    rl = engines["rigidlab"]
    loop, one, many = rl.batch_ways
    ref = {scene: results[(scene, "rigidlab", loop)][1] for scene in SCENES}

    def speedup(scene, way):
        return ref[scene] / results[(scene, "rigidlab", way)][1]

    lines = [
        f"## 5. Batch ({n} independent small worlds, {steps} steps = {steps * DT:g} s each)",
        "",
        f"'ball': a ball (radius {BATCH_BALL[0]} m, restitution {BATCH_BALL[1]}) dropped on a floor from 1 to 1.5 m, a different height in each world. "
        f"'pendulum': a bob (radius {BOB} m) on a 1 m rod from a fixed pivot, released at 30 to 90 degrees. Seconds are for all {n} worlds; "
        "building is not timed. 'speed-up' is the rigidlab Python loop's time over the row's. 'apart' is the largest distance (m) between where a "
        "body ends in this way and in the engine's first way: 0 means the same result.",
        "",
        f"rl.step_many on all {os.cpu_count()} cores against 1 thread: {speedup_cores['ball']:.2f}x (ball), {speedup_cores['pendulum']:.2f}x (pendulum), the median of "
        f"{repeats} repetitions' ratios (each repetition times the two back to back); against the Python loop: {speedup('ball', many):.2f}x and {speedup('pendulum', many):.2f}x.",
        "",
        "A serial way (one thread: the Python loops, rl.step_many and mujoco.rollout on 1 thread, pymunk, pybullet) is timed once on each core in turn, "
        "pinned to it, and its time is that at the cores' mean speed (the harmonic mean of the times), because the cores of a shared machine need not run equally fast. rl.step_many on 1 thread took "
        + "; ".join(
            f"{scene} " + " / ".join(f"{t:.3f}" for t in per_core[scene]) + " s" for scene in SCENES
        )
        + " on the cores in turn (medians).",
        "",
        "| engine | way | ball (s) | speed-up | pendulum (s) | speed-up | build, ball / pendulum (s) | apart (m) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, cls in engines.items():
        for way in cls.batch_ways:
            b, p = results[("ball", name, way)], results[("pendulum", name, way)]
            lines.append(
                f"| {name} | {way} | {b[1]:.3f} | {ref['ball'] / b[1]:.2f} | {p[1]:.3f} | {ref['pendulum'] / p[1]:.2f} | {b[0]:.3f} / {p[0]:.3f} | {max(b[2], p[2]):.1e} |"
            )
    lines += [
        "",
        "The pendulum in each engine: "
        + "; ".join(f"{name}: {cls.pendulum}" for name, cls in engines.items())
        + ".",
    ]
    lines += [""] + [
        f"- {name}: {cls.batch_note}." for name, cls in engines.items() if cls.batch_note
    ]
    return lines
