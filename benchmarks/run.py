"""rigidlab beside pybullet, MuJoCo, Rapier and pymunk: the same scenes in each engine, in one
run on one machine, engines alternating, several repetitions, medians. Only stepping is timed;
building a scene is reported on its own. Writes benchmarks/RESULTS.md and benchmarks/*.png.

    benchmarks/bench.sh                      # sets up its own virtualenv, then runs this
    benchmarks/bench.sh --sizes 1000 --repeats 1 --steps 200    # a quick look
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time

import numpy as np

from engines import available
from engines.base import DT
from machine import cpu

HERE = os.path.dirname(os.path.abspath(__file__))


def largest_overlap(centres: np.ndarray, radius: float) -> float:
    """The deepest overlap between equal spheres (m), from a grid of cells one diameter wide."""
    cells: dict = {}
    keys = np.floor(centres / (2 * radius)).astype(int)
    for i, k in enumerate(map(tuple, keys)):
        cells.setdefault(k, []).append(i)
    worst = 0.0
    offsets = [(a, b, c) for a in (-1, 0, 1) for b in (-1, 0, 1) for c in (-1, 0, 1)]
    for k, members in cells.items():
        near = [j for o in offsets for j in cells.get((k[0] + o[0], k[1] + o[1], k[2] + o[2]), ())]
        if len(near) < 2:
            continue
        a = centres[members]
        b = centres[near]
        d = np.linalg.norm(a[:, None, :] - b[None, :, :], axis=2)
        d[d == 0.0] = np.inf
        worst = max(worst, 2 * radius - d.min())
    return max(worst, 0.0)


#: Most seconds of stepping one engine gets for one scene; past it the run stops and the time
#: per step is taken from the steps done.
BUDGET = 60.0


def stepped(e, steps: int) -> tuple[float, int]:
    """Steps in chunks of 10 within the budget: (seconds per step, steps done)."""
    done, spent = 0, 0.0
    while done < steps and spent < BUDGET:
        k = min(10, steps - done)
        spent += timed(e.step, k)
        done += k
    return spent / done, done


def timed(fn, *args) -> float:
    t = time.perf_counter()
    fn(*args)
    return time.perf_counter() - t


#: An engine slower than this (s per step) at one size is not run at the larger ones.
TOO_SLOW = 0.1


def sphere_pile(engines, sizes, steps, repeats, radius=0.05):
    rows = []
    skipped: dict = {}
    for n in sizes:
        runs = {name: [] for name in engines if name not in skipped}
        for rep in range(repeats):
            order = list(runs)
            order = order[rep % len(order):] + order[: rep % len(order)]  # alternate who goes first
            for name in order:
                e = engines[name]()
                build = timed(e.sphere_pile, n, radius)
                per_step, done = stepped(e, steps)
                p = e.positions()
                runs[name].append((build, per_step * steps, float(p[:, 1].max() + radius), largest_overlap(p, radius), done))
                print(f"  sphere pile {n}: {name} {per_step * 1e3:.2f} ms/step over {done} steps", flush=True)
        for name, r in runs.items():
            rows.append((n, name, *(statistics.median(x[i] for x in r) for i in range(4)), min(x[4] for x in r)))
            if statistics.median(x[1] for x in r) / steps > TOO_SLOW:
                skipped[name] = n
    return rows, skipped


def pyramids(engines, base, steps, repeats, half=0.5):
    rows = []
    runs = {name: [] for name in engines}
    for rep in range(repeats):
        order = list(engines)
        order = order[rep % len(order):] + order[: rep % len(order)]
        for name in order:
            e = engines[name]()
            build = timed(e.pyramid, base, half)
            start = e.positions()
            per_step, done = stepped(e, steps)
            stepping = per_step * steps
            moved = float(np.linalg.norm(e.positions() - start, axis=1).max())
            runs[name].append((build, stepping, moved))
            print(f"  pyramid {base}: {name} {stepping / steps * 1e3:.2f} ms/step, moved {moved:.3f} m", flush=True)
    for name, r in runs.items():
        rows.append((name, *(statistics.median(x[i] for x in r) for i in range(3))))
    return rows


def export(engines, n, calls):
    rows = []
    floor = np.zeros((n, 7))
    t_copy = statistics.median(timed(np.copy, floor) for _ in range(calls))
    for name, cls in engines.items():
        e = cls()
        e.free_bodies(n)
        e.step(1)
        t = statistics.median(timed(e.export) for _ in range(calls))
        rows.append((name, t))
        print(f"  export {n}: {name} {t * 1e3:.3f} ms", flush=True)
    return rows, t_copy


def plot(pile_rows, pyramid_rows, steps, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4))
    names = sorted({r[1] for r in pile_rows}, key=lambda n: (n != "rigidlab", n))
    sizes = sorted({r[0] for r in pile_rows})
    for name in names:
        pts = [(n, r[3] / steps * 1e3) for n in sizes for r in pile_rows if r[0] == n and r[1] == name]
        ax1.loglog([x for x, _ in pts], [y for _, y in pts], "o-", label=name)
    ax1.set(xlabel="spheres", ylabel="ms per step", title="Sphere pile")
    ax1.legend()
    ax2.bar([r[0] for r in pyramid_rows], [r[2] / steps * 1e3 for r in pyramid_rows], color=[f"C{names.index(r[0]) if r[0] in names else 0}" for r in pyramid_rows])
    ax2.set(ylabel="ms per step", title="Box pyramid, base 20")
    ax2.tick_params(axis="x", rotation=20)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,4000,16000", help="sphere counts for the pile")
    parser.add_argument("--steps", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--base", type=int, default=20, help="pyramid base")
    parser.add_argument("--export-bodies", type=int, default=10000)
    parser.add_argument("--engines", default="all", help="comma-separated names, or all")
    parser.add_argument("--output", default=os.path.join(HERE, "RESULTS.md"))
    args = parser.parse_args()
    engines = available()
    if args.engines != "all":
        wanted = args.engines.split(",")
        engines = {k: v for k, v in engines.items() if k.split()[0] in wanted}
    if "rigidlab" not in engines:
        sys.exit("rigidlab is not importable: run benchmarks/bench.sh")
    sizes = [int(s) for s in args.sizes.split(",")]
    print(f"engines: {', '.join(f'{k} {v.version}' for k, v in engines.items())}")
    pile, skipped = sphere_pile(engines, sizes, args.steps, args.repeats)
    pyr = pyramids(engines, args.base, args.steps, args.repeats)
    exp, t_copy = export(engines, args.export_bodies, 50)
    # The plot goes beside the report, which links it.
    plot(pile, pyr, args.steps, os.path.join(os.path.dirname(os.path.abspath(args.output)), "results.png"))

    def ratio(value, reference):
        return f"{value / reference:.2f}"

    lines = [
        "# Benchmarks",
        "",
        f"Machine: {cpu()}, {os.cpu_count()} cores; {platform.system()} {platform.release()}; Python {platform.python_version()}.",
        "Engines: " + ", ".join(f"{k} {v.version}" for k, v in engines.items()) + ".",
        f"Parameters: dt = 1/{round(1 / DT)} s, {args.steps} steps, {args.repeats} repetitions (engines alternating which goes first), medians; each engine's defaults otherwise (solver iterations, sleeping, threads).",
        "Timings are of stepping only; building is reported separately. 'ratio' is the engine's time over rigidlab's (above 1: rigidlab is faster).",
        f"An engine gets at most {BUDGET:.0f} s of stepping per scene; past it the time per step comes from the steps done, which favours it (a pile gets dearer as it settles).",
        "pymunk is 2D: its pile is discs in a 1 m wide bin, its pyramid squares; it is there for scale, not as the same scene.",
        "",
        "![step times](results.png)",
        "",
        "## 1. Sphere pile (radius 0.05 m into a 1 m x 1 m walled bin)",
        "",
        "| spheres | engine | ms per step | ratio | build (s) | pile height (m) | largest overlap (mm) |",
        "|---|---|---|---|---|---|---|",
    ]
    for n in sizes:
        ref = next(r[3] for r in pile if r[0] == n and r[1] == "rigidlab")
        for r in (r for r in pile if r[0] == n):
            note = "" if r[6] == args.steps else f" (stopped after {r[6]} steps: over {BUDGET:.0f} s)"
            lines.append(f"| {n} | {r[1]}{note} | {r[3] / args.steps * 1e3:.3f} | {ratio(r[3], ref)} | {r[2]:.3f} | {r[4]:.3f} | {r[5] * 1e3:.2f} |")
    for name, n in skipped.items():
        lines.append(f"\n{name} took over {TOO_SLOW * 1e3:.0f} ms a step at {n} spheres, so it was not run with more.")
    ref = next(r[2] for r in pyr if r[0] == "rigidlab")
    lines += ["", f"## 2. Box pyramid (base {args.base}, {args.base * (args.base + 1) // 2} cubes of 1 m, on a floor)", "",
              "| engine | ms per step | ratio | build (s) | largest movement (m) | stands |", "|---|---|---|---|---|---|"]
    for r in pyr:
        lines.append(f"| {r[0]} | {r[2] / args.steps * 1e3:.3f} | {ratio(r[2], ref)} | {r[1]:.3f} | {r[3]:.4f} | {'yes' if r[3] < 0.25 else 'no'} |")
    lines += ["", f"## 4. State export ({args.export_bodies} bodies: positions and orientations into numpy)", "",
              f"A plain numpy copy of an array of the same size ({args.export_bodies} x 7 float64) takes {t_copy * 1e3:.3f} ms: the floor for this operation.", "",
              "| engine | ms per call | times the numpy copy |", "|---|---|---|"]
    for name, t in exp:
        lines.append(f"| {name} | {t * 1e3:.3f} | {t / t_copy:.1f} |")
    lines += ["", "Scene 3 (a heap of mixed shapes) is not in this suite yet.", ""]
    with open(args.output, "w") as f:
        f.write("\n".join(lines))
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
