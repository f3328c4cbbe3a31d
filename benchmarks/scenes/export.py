"""Scene 4: reading the whole state (positions and orientations) into numpy."""

from __future__ import annotations

import statistics

import numpy as np
from timing import timed


def measure(engines, n, calls):
    """Rows (engine, s per call), and the time of a plain numpy copy of as many numbers."""
    rows = []
    floor = np.zeros((n, 7))
    t_copy = statistics.median(timed(np.copy, floor) for _ in range(calls))
    for name, cls in engines.items():
        e = cls()
        e.free_bodies(n)
        e.step(1)
        t = statistics.median(timed(e.export) for _ in range(calls))
        e.close()
        rows.append((name, t))
        print(f"  export {n}: {name} {t * 1e3:.3f} ms", flush=True)
    return rows, t_copy


def section(rows, t_copy, n) -> list[str]:
    lines = [
        f"## 4. State export ({n} bodies: positions and orientations into numpy)",
        "",
        f"A plain numpy copy of an array of the same size ({n} x 7 float64) takes {t_copy * 1e3:.3f} ms: the floor for this operation.",
        "",
        "| engine | ms per call | times the numpy copy |",
        "|---|---|---|",
    ]
    for name, t in rows:
        lines.append(f"| {name} | {t * 1e3:.3f} | {t / t_copy:.1f} |")
    return lines
