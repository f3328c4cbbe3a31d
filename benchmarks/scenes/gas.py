"""Scene 8: a gas of elastic spheres (restitution 1, no friction, no gravity) in a closed box:
time per step beside how much of its kinetic energy each engine keeps. Every collision of such a
gas is elastic, so the energy at the end should be the energy at the start; kinetic theory labs
measure temperature and pressure from it."""

from __future__ import annotations

import numpy as np
from engines.base import DT, GAS_FILL, GAS_RADIUS
from timing import medians, size_rows, stepped, timed, turns


def kinetic(velocities: np.ndarray) -> float:
    """Kinetic energy of equal spheres, in units of half a sphere's mass: the sum of v^2."""
    return float(np.sum(velocities**2))


def measure(engines, sizes, steps, repeats):
    """Rows (spheres, engine, build s, s per step, relative change of the kinetic energy, steps
    done)."""
    rows = []
    for n in sizes:
        runs = {name: [] for name in engines}
        for name in turns(runs, repeats):
            e = engines[name]()
            build = timed(e.gas, n, GAS_RADIUS)
            before = kinetic(e.velocities())
            per_step, done = stepped(e, steps)
            change = kinetic(e.velocities()) / before - 1
            e.close()
            runs[name].append((build, per_step, change, done))
            print(
                f"  gas {n}: {name} {per_step * 1e3:.2f} ms/step over {done} steps, kinetic energy {change:+.2e}",
                flush=True,
            )
        for name, r in runs.items():
            rows.append((n, name, *medians([x[:3] for x in r]), min(x[3] for x in r)))
    return rows


def section(rows, steps) -> list[str]:
    lines = [
        f"## 8. Gas of elastic spheres (radius {GAS_RADIUS} m, filling {GAS_FILL:.0%} of a closed box, restitution 1, no friction, no gravity)",
        "",
        f"Kinetic energy after {steps} steps ({steps * DT:.2f} s) against the start: it should not change.",
        "",
        "| spheres | engine | ms per step | ratio | build (s) | kinetic energy change |",
        "|---|---|---|---|---|---|",
    ]
    lines += size_rows(
        rows,
        5,
        steps,
        lambda r, ref: f"{r[3] * 1e3:.3f} | {r[3] / ref:.2f} | {r[2]:.3f} | {r[4]:+.2e}",
    )
    lines += [
        "",
        "pymunk's gas is discs filling the same fraction of a square; MuJoCo's restitution is its contact spring-damper's (see the materials notes).",
    ]
    return lines
