"""rigidlab beside pybullet, MuJoCo, Rapier and pymunk: the same scenes in each engine, in one
run on one machine, engines alternating, several repetitions, medians. Only stepping is timed;
building a scene is reported on its own. Writes benchmarks/RESULTS.md and, beside it, results.png
and scaling.png.

    benchmarks/bench.sh                      # sets up its own virtualenv, then runs this
    benchmarks/bench.sh --sizes 1000 --repeats 1 --steps 200    # a quick look
    benchmarks/bench.sh --scenes 5,7 --output /tmp/quick/RESULTS.md   # some scenes, elsewhere
"""

from __future__ import annotations

import argparse
import os
import platform
import sys

import plots
from engines import available
from engines.base import DT, with_one_thread
from machine import cpu
from scenes import (
    accuracy,
    batch,
    export,
    filters,
    flat,
    gas,
    heap,
    pile,
    pyramid,
    scaling,
    untuned,
)
from timing import BUDGET

HERE = os.path.dirname(os.path.abspath(__file__))
SCENES = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)


#: Largest disc pile of scene 11 (the sizes of scene 1 up to it): pymunk takes over 100 ms a
#: step beyond it (section 1).
FLAT_MOST_DISCS = 4000


def arguments():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--scenes", default=",".join(map(str, SCENES)), help="comma-separated scene numbers (1-11)"
    )
    parser.add_argument(
        "--sizes", default="1000,4000,16000", help="sphere counts for the pile (scene 1)"
    )
    parser.add_argument("--steps", type=int, default=1000, help="steps of scenes 1-3 and 11")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--base", type=int, default=20, help="pyramid base (scenes 2 and 11)")
    parser.add_argument(
        "--heap-bodies", type=int, default=1000, help="bodies in the mixed heap (scenes 3 and 11)"
    )
    parser.add_argument("--export-bodies", type=int, default=10000, help="scene 4")
    parser.add_argument("--batch-worlds", type=int, default=1000, help="scene 5")
    parser.add_argument("--batch-steps", type=int, default=240, help="scene 5")
    parser.add_argument(
        "--batch-repeats",
        type=int,
        default=9,
        help="repetitions of scene 5 (its runs are short, so their timings vary more)",
    )
    parser.add_argument(
        "--scaling-min",
        type=int,
        default=1000,
        help="smallest pile of scene 6; sizes double up to --scaling-max",
    )
    parser.add_argument("--scaling-max", type=int, default=64000, help="scene 6")
    parser.add_argument(
        "--scaling-steps",
        type=int,
        default=100,
        help="scene 6: steps per size, timed over the last half",
    )
    parser.add_argument(
        "--scaling-peers",
        default="rapier",
        help="scene 6: comma-separated peers run beside rigidlab, or none",
    )
    parser.add_argument(
        "--scaling-peer-max", type=int, default=16000, help="scene 6: largest pile the peers get"
    )
    parser.add_argument("--gas-sizes", default="1000,10000", help="spheres in the gas (scene 8)")
    parser.add_argument("--gas-steps", type=int, default=1000, help="scene 8")
    parser.add_argument("--filter-spheres", type=int, default=10000, help="scene 9")
    parser.add_argument("--filter-steps", type=int, default=300, help="scene 9")
    parser.add_argument("--untuned-bodies", type=int, default=1000, help="scene 10: each drop")
    parser.add_argument("--untuned-base", type=int, default=40, help="scene 10: the big pyramid")
    parser.add_argument(
        "--untuned-pyramids", default="10,10", help="scene 10: how many small pyramids, base"
    )
    parser.add_argument("--untuned-chains", default="20,20", help="scene 10: chains, links")
    parser.add_argument("--untuned-steps", type=int, default=500, help="scene 10")
    parser.add_argument("--engines", default="all", help="comma-separated names, or all")
    parser.add_argument(
        "--output",
        default=os.path.join(HERE, "RESULTS.md"),
        help="the report; its figures go beside it",
    )
    return parser.parse_args()


def chosen_engines(wanted: str) -> dict[str, type]:
    engines = available()
    if wanted != "all":
        names = wanted.split(",")
        engines = {k: v for k, v in engines.items() if k.split()[0] in names}
    if "rigidlab" not in engines:
        sys.exit("rigidlab is not importable: run benchmarks/bench.sh")
    return engines


def doubling(smallest: int, largest: int) -> list[int]:
    sizes = [smallest]
    while sizes[-1] * 2 <= largest:
        sizes.append(sizes[-1] * 2)
    return sizes


def header(engines, args) -> list[str]:
    return [
        "# Benchmarks",
        "",
        f"Machine: {cpu()}, {os.cpu_count()} cores; {platform.system()} {platform.release()}; Python {platform.python_version()}.",
        "Engines: " + ", ".join(f"{k} {v.version}" for k, v in engines.items()) + ".",
        f"Parameters: dt = 1/{round(1 / DT)} s, {args.steps} steps, {args.repeats} repetitions (engines alternating which goes first), medians; each engine's defaults otherwise (solver iterations, sleeping, threads); rigidlab and Rapier step a world on all cores by default where it pays (rigidlab: the narrow phase of scenes of 500 or more 3D boxes, hulls or capsules), and both are also timed on one thread in scenes 1 to 3 and 10, whose speed targets are single-threaded.",
        "Timings are of stepping only; building is reported separately. 'ratio' is the engine's time over rigidlab's (above 1: rigidlab is faster).",
        f"An engine gets at most {BUDGET:.0f} s of stepping per scene; past it the time per step comes from the steps done, which favours it (a pile gets dearer as it settles).",
        "pymunk is 2D: its pile is discs in a 1 m wide bin, its pyramid squares. rigidlab 2D (rl.World2D) runs the very same 2D scenes, so the two compare directly; against the 3D engines they are there for scale, not as the same scene.",
        "",
    ]


def main():
    args = arguments()
    engines = chosen_engines(args.engines)
    scenes = {int(s) for s in args.scenes.split(",")}
    out_dir = os.path.dirname(os.path.abspath(args.output))
    os.makedirs(out_dir, exist_ok=True)
    print(f"engines: {', '.join(f'{k} {v.version}' for k, v in engines.items())}")
    sections = {}
    pile_rows, pyramid_rows = [], []
    contact = with_one_thread(engines)
    if 1 in scenes:
        pile_rows, skipped = pile.measure(
            contact, [int(s) for s in args.sizes.split(",")], args.steps, args.repeats
        )
        sections[1] = pile.section(pile_rows, skipped, args.steps)
    if 2 in scenes:
        pyramid_rows = pyramid.measure(contact, args.base, args.steps, args.repeats)
        sections[2] = pyramid.section(pyramid_rows, args.base, args.steps)
    if 3 in scenes:
        sections[3] = heap.section(
            heap.measure(contact, args.heap_bodies, args.steps, args.repeats),
            args.heap_bodies,
            args.steps,
        )
    if 4 in scenes:
        sections[4] = export.section(
            *export.measure(engines, args.export_bodies, 50), args.export_bodies
        )
    if 5 in scenes:
        sections[5] = batch.section(
            batch.measure(engines, args.batch_worlds, args.batch_steps, args.batch_repeats),
            engines,
            args.batch_worlds,
            args.batch_steps,
            args.batch_repeats,
        )
    if 6 in scenes:
        peers = {
            k: v
            for k, v in engines.items()
            if k == "rigidlab" or k.split()[0] in args.scaling_peers.split(",")
        }
        rows = scaling.measure(
            peers,
            doubling(args.scaling_min, args.scaling_max),
            args.scaling_steps,
            args.repeats,
            args.scaling_peer_max,
        )
        plots.scaling(
            rows, scaling.ALL_PAIRS, scaling.fits(rows), os.path.join(out_dir, "scaling.png")
        )
        sections[6] = scaling.section(rows, args.scaling_steps, "scaling.png")
    if 7 in scenes:
        sections[7] = accuracy.section(accuracy.measure(engines), engines)
    if 8 in scenes:
        sections[8] = gas.section(
            gas.measure(
                contact, [int(s) for s in args.gas_sizes.split(",")], args.gas_steps, args.repeats
            ),
            args.gas_steps,
        )
    if 9 in scenes:
        sections[9] = filters.section(
            filters.measure(args.filter_spheres, args.filter_steps, args.repeats),
            args.filter_spheres,
            args.filter_steps,
        )
    if 10 in scenes:
        pyramids, small_base = (int(x) for x in args.untuned_pyramids.split(","))
        chains, links = (int(x) for x in args.untuned_chains.split(","))
        sections[10] = untuned.section(
            untuned.measure(
                contact,
                args.untuned_steps,
                args.repeats,
                bodies=args.untuned_bodies,
                base=args.untuned_base,
                pyramids=pyramids,
                small_base=small_base,
                chains=chains,
                links=links,
            ),
            args.untuned_steps,
        )
    if 11 in scenes:
        sections[11] = flat.section(
            flat.measure(
                engines,
                args.steps,
                args.repeats,
                [int(s) for s in args.sizes.split(",") if int(s) <= FLAT_MOST_DISCS],
                args.base,
                args.heap_bodies,
            ),
            args.steps,
        )
    lines = header(engines, args)
    if pile_rows or pyramid_rows:
        plots.step_times(pile_rows, pyramid_rows, args.steps, os.path.join(out_dir, "results.png"))
        lines += ["![step times](results.png)", ""]
    for number in sorted(sections):
        lines += sections[number] + [""]
    with open(args.output, "w") as f:
        f.write("\n".join(lines))
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
