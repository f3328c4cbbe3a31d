"""Throughput of a parameter sweep on Dask against step_many alone on the same machine.

10 000 worlds (a ball of restitution e dropped from height h onto a floor, a 100 x 100 grid,
each run for 2 s and measured by its final height) go three ways:
- step_many alone: built and measured here, stepped by rl.step_many on every core;
- rl.sweep on a LocalCluster already running (one single-threaded worker process per core);
- rl.sweep with its embedded cluster: the first call, which starts it, and the calls after,
  which reuse it.
The overhead of Dask is its time over step_many's, best and median of the repeats (this is a
shared 2-core machine: single runs vary). Writes benchmarks/SWEEP.md.

    benchmarks/sweep.sh            # sets up, then runs this
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from pathlib import Path

import numpy as np
import rigidlab as rl
from distributed import Client, LocalCluster
from machine import cpu

HERE = Path(__file__).resolve().parent
SECONDS = 2.0


def drop(e: float, h: float) -> rl.World:
    w = rl.World()
    w.add_plane()
    w.add_sphere(0.05, position=(0, 0.05 + h, 0), restitution=e)
    return w


def height(w: rl.World) -> float:
    return float(w.bodies[1].position[1])


def alone(grid: dict[str, list[float]]) -> tuple[float, np.ndarray]:
    start = time.perf_counter()
    worlds = [drop(e, h) for e in grid["e"] for h in grid["h"]]
    rl.step_many(worlds, round(SECONDS / worlds[0].dt))
    values = np.array([height(w) for w in worlds])
    return time.perf_counter() - start, values


def on_dask(grid: dict[str, list[float]], client: Client | None) -> tuple[float, np.ndarray]:
    start = time.perf_counter()
    ds = rl.sweep(drop, grid, seconds=SECONDS, measure=height, client=client, progress=False)
    return time.perf_counter() - start, ds.value.values.ravel()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--side", type=int, default=100, help="grid side (side^2 worlds)")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--output", default=str(HERE / "SWEEP.md"))
    args = parser.parse_args()
    grid = {
        "e": list(np.round(np.linspace(0.05, 1.0, args.side), 4)),
        "h": list(np.round(np.linspace(0.1, 2.0, args.side), 4)),
    }
    n = args.side**2
    steps = round(SECONDS * 240)
    cores = os.cpu_count() or 1
    times: dict[str, list[float]] = {"alone": [], "cluster": [], "first": [], "embedded": []}
    # The first embedded call starts the cluster; then each repeat runs the three ways in turn,
    # so that the machine's changes of speed fall on all of them alike.
    t, reference = on_dask(grid, None)
    times["first"].append(t)
    with LocalCluster(n_workers=cores, threads_per_worker=1, dashboard_address=None) as cluster:
        with Client(cluster) as client:
            for _ in range(args.repeats):
                for way, on in (("alone", None), ("cluster", client), ("embedded", None)):
                    t, values = alone(grid) if way == "alone" else on_dask(grid, on)
                    times[way].append(t)
                    assert np.array_equal(values, reference), f"{way} differs from the first sweep"
    rl.close_cluster()
    best = {k: min(v) for k, v in times.items()}
    median = {k: float(np.median(v)) for k, v in times.items()}
    rate = {k: n * steps / v for k, v in best.items()}
    lines = [
        "# Sweeps on Dask",
        "",
        f"{n} worlds (a ball dropped on a floor, {steps} steps each) on {cpu()} ({cores} cores), "
        f"Python {platform.python_version()}, rigidlab {rl.__version__}; best and median of "
        f"{args.repeats} runs (the first embedded call once). `benchmarks/sweep.sh` writes this "
        "file. Every way gives the same numbers, bit for bit (checked).",
        "",
        "| how | time (s), best | worlds x steps a second | overhead over step_many, best "
        "| median |",
        "|---|---|---|---|---|",
    ]
    names = {
        "alone": f"`rl.step_many` alone ({cores} threads)",
        "cluster": f"`rl.sweep`, a LocalCluster already running ({cores} workers)",
        "first": "`rl.sweep`, the first call: it starts the embedded LocalCluster",
        "embedded": "`rl.sweep`, later calls: the embedded LocalCluster already started",
    }
    for k in ("alone", "cluster", "first", "embedded"):
        over = [f"{100 * (x[k] / x['alone'] - 1):+.0f}%" for x in (best, median)]
        if k == "alone":
            over = ["", ""]
        elif k == "first":
            over[1] = ""
        lines.append(f"| {names[k]} | {best[k]:.2f} | {rate[k]:.3g} | {over[0]} | {over[1]} |")
    lines += [
        "",
        "Every run's time (s), in the order run: "
        + "; ".join(f"{k} " + ", ".join(f"{x:.2f}" for x in v) for k, v in times.items())
        + ".",
        "",
    ]
    Path(args.output).write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
