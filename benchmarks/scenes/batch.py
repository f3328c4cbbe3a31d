"""Scene 5: many independent small worlds, each advanced the same time: a bouncing ball on a floor
in each, or a pendulum in each. Each engine is stepped its own ways (`Engine.batch_ways`)."""

from __future__ import annotations

import os
import statistics

import numpy as np

from engines.base import BATCH_BALL, BOB, DT
from timing import medians, timed, turns

SCENES = ("ball", "pendulum")


def measure(engines, n, steps, repeats):
    """({(scene, engine, way): (build s, stepping s, largest distance m of a body from where the
    engine's first way left it)}, {scene: rigidlab's speed-up on all cores against 1 thread}).

    An engine's ways run back to back within a repetition. The speed-up is the median over the
    repetitions of each one's ratio, so that a slow spell of the machine, which lasts longer than
    one pair of runs, slows both sides of a ratio alike."""
    runs: dict = {}
    first: dict = {}
    pairs: dict = {}
    one, many = engines["rigidlab"].batch_ways[1:]
    for scene in SCENES:
        for name in turns(engines, repeats):
            cls = engines[name]
            took = {}
            for way in cls.batch_ways:
                e = cls()
                build = timed(e.batch, n, scene)
                took[way] = seconds = timed(e.step_batch, steps, way)
                end = e.batch_positions()
                e.close()
                apart = float(np.abs(end - first.setdefault((scene, name), end)).max())
                runs.setdefault((scene, name, way), []).append((build, seconds, apart))
                print(f"  batch {n} x {scene}: {name}, {way}: {seconds:.3f} s", flush=True)
            if name == "rigidlab":
                pairs.setdefault(scene, []).append(took[one] / took[many])
    return {key: medians(r) for key, r in runs.items()}, {scene: statistics.median(r) for scene, r in pairs.items()}


def section(measured, engines, n, steps, repeats) -> list[str]:
    results, cores = measured
    rl = engines["rigidlab"]
    loop, one, many = rl.batch_ways
    ref = {scene: results[(scene, "rigidlab", loop)][1] for scene in SCENES}

    def speedup(scene, way):
        return ref[scene] / results[(scene, "rigidlab", way)][1]

    lines = [f"## 5. Batch ({n} independent small worlds, {steps} steps = {steps * DT:g} s each)", "",
             f"'ball': a ball (radius {BATCH_BALL[0]} m, restitution {BATCH_BALL[1]}) dropped on a floor from 1 to 1.5 m, a different height in each world. "
             f"'pendulum': a bob (radius {BOB} m) on a 1 m rod from a fixed pivot, released at 30 to 90 degrees. Seconds are for all {n} worlds; "
             "building is not timed. 'speed-up' is the rigidlab Python loop's time over the row's. 'apart' is the largest distance (m) between where a "
             "body ends in this way and in the engine's first way: 0 means the same result.", "",
             f"rl.step_many on all {os.cpu_count()} cores against 1 thread: {cores['ball']:.2f}x (ball), {cores['pendulum']:.2f}x (pendulum), the median of "
             f"{repeats} repetitions' ratios (each repetition times the two back to back); against the Python loop: {speedup('ball', many):.2f}x and {speedup('pendulum', many):.2f}x.",
             "", "| engine | way | ball (s) | speed-up | pendulum (s) | speed-up | build, ball / pendulum (s) | apart (m) |", "|---|---|---|---|---|---|---|---|"]
    for name, cls in engines.items():
        for way in cls.batch_ways:
            b, p = results[("ball", name, way)], results[("pendulum", name, way)]
            lines.append(f"| {name} | {way} | {b[1]:.3f} | {ref['ball'] / b[1]:.2f} | {p[1]:.3f} | {ref['pendulum'] / p[1]:.2f} | {b[0]:.3f} / {p[0]:.3f} | {max(b[2], p[2]):.1e} |")
    lines += ["", "The pendulum in each engine: " + "; ".join(f"{name}: {cls.pendulum}" for name, cls in engines.items()) + "."]
    lines += [""] + [f"- {name}: {cls.batch_note}." for name, cls in engines.items() if cls.batch_note]
    return lines
