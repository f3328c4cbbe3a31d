"""How the scenes are timed: stepping only, in chunks within a budget, engines taking turns to go
first, medians over repetitions."""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NamedTuple

import numpy as np

#: Most seconds of stepping one engine gets for one scene; past it the run stops and the time
#: per step is taken from the steps done.
BUDGET = 60.0

#: An engine slower than this (s per step) at one size is not run at the larger ones.
TOO_SLOW = 0.1


def timed(fn, *args) -> float:
    t = time.perf_counter()
    fn(*args)
    return time.perf_counter() - t


def cores() -> list[int]:
    """The cores this process may run on (one unnamed core where the system cannot say)."""
    return sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else [None]


@contextmanager
def pinned(core: int | None):
    """Keeps the calling thread (only it: threads started before keep their cores) on `core`
    while in the block; None leaves it free."""
    if core is None:
        yield
        return
    free = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {core})
    try:
        yield
    finally:
        os.sched_setaffinity(0, free)


def stepped(e, steps: int) -> tuple[float, int]:
    """Steps in chunks of 10 within the budget: (seconds per step, steps done)."""
    done, spent = 0, 0.0
    while done < steps and spent < BUDGET:
        k = min(10, steps - done)
        spent += timed(e.step, k)
        done += k
    return spent / done, done


class Run(NamedTuple):
    """One timed run of a scene."""

    build: float
    """Seconds to build the scene."""
    per_step: float
    """Seconds per step."""
    done: int
    """Steps done within the budget."""
    start: np.ndarray
    """The bodies' positions before the first step and after the last."""
    end: np.ndarray
    stages: dict[str, float] | None
    """Milliseconds per step in each stage of the engine's step, for an engine that says
    (`Engine.stage_times`)."""


def run_scene(engine, build: str, args: tuple, steps: int, sleeping: bool | None = None) -> Run:
    """Builds a scene in a new instance of `engine` (`build` names the method), switches its
    sleeping on or off when `sleeping` says, and steps it within the budget."""
    e = engine()
    build_s = timed(getattr(e, build), *args)
    if sleeping is not None:
        e.sleep(sleeping)
    start = e.positions()
    per_step, done = stepped(e, steps)
    end = e.positions()
    stages = e.stage_times()
    e.close()
    return Run(build_s, per_step, done, start, end, stages)


def turns(names, repeats: int) -> Iterator[str]:
    """The names once per repetition, each repetition starting one further along, so that no
    engine always goes first."""
    names = list(names)
    for rep in range(repeats):
        k = rep % len(names)
        yield from names[k:] + names[:k]


def medians(runs: list[tuple]) -> tuple:
    """Column by column medians of the runs' tuples of numbers."""
    return tuple(statistics.median(column) for column in zip(*runs))


def size_rows(rows: list[tuple], done: int, steps: int, cells) -> list[str]:
    """Table lines of rows (size, engine, build s, time, ...) grouped by size, each
    "| size | engine (and a note if it stopped early) | cells(row, rigidlab's time) |"; column
    `done` holds the steps the engine did."""
    lines = []
    for n in sorted({r[0] for r in rows}):
        ref = next(r[3] for r in rows if r[0] == n and r[1] == "rigidlab")
        for r in (r for r in rows if r[0] == n):
            note = (
                "" if r[done] == steps else f" (stopped after {r[done]} steps: over {BUDGET:.0f} s)"
            )
            lines.append(f"| {n} | {r[1]}{note} | {cells(r, ref)} |")
    return lines


def mean_stages(runs: list[dict[str, float] | None]) -> dict[str, float] | None:
    """Stage by stage means of runs' stage times (None when the engine gave none)."""
    known = [r for r in runs if r]
    if not known:
        return None
    return {k: statistics.fmean(r[k] for r in known) for k in known[0]}


def sleeping_cases(cases, engines_of, run, repeats: int) -> list[tuple]:
    """Runs each case with sleeping on and off in each of its engines, engines taking turns:
    rows (label, quality, sleeping, engine, medians of (build s, s per step, quality...), mean
    stage times or None). `cases` yields (label, quality, case); `engines_of(case)` the engines
    that build it; `run(engine class, case, sleeping)` one run's `Run` and its quality tuple."""
    rows = []
    for label, quality, case in cases:
        for sleeping in (True, False):
            runs = {name: [] for name in engines_of(case)}
            stages = {name: [] for name in runs}
            for name in turns(runs, repeats):
                r, judged = run(name, case, sleeping)
                runs[name].append((r.build, r.per_step, *judged))
                stages[name].append(r.stages)
                print(
                    f"  {label}, sleeping {'on' if sleeping else 'off'}: {name} "
                    f"{r.per_step * 1e3:.2f} ms/step over {r.done} steps",
                    flush=True,
                )
            for name, r in runs.items():
                numbers = [tuple(-1.0 if x is None else x for x in run) for run in r]
                rows.append(
                    (label, quality, sleeping, name, *medians(numbers), mean_stages(stages[name]))
                )
    return rows


#: The stages `stage_cell` names on their own, largest first; the others are summed as "other".
NAMED_STAGES = ("solve", "narrow_phase", "correct", "broad_phase")


def stage_cell(stages: dict[str, float] | None) -> str:
    """Where an engine's step went: milliseconds per step in its main stages ("-" for an
    engine that does not say)."""
    if not stages:
        return "-"
    named = {k: stages.get(k, 0.0) for k in NAMED_STAGES}
    other = max(stages.get("total", 0.0) - sum(named.values()), 0.0)
    short = {"narrow_phase": "narrow", "broad_phase": "broad"}
    cells = [f"{short.get(k, k)} {v:.3f}" for k, v in named.items()]
    # The solve's largest parts (w.solve_times), where the engine says.
    parts = {k: stages[f"solve.{k}"] for k in SOLVE_PARTS if f"solve.{k}" in stages}
    if parts:
        inside = ", ".join(f"{k.replace('_', ' ')} {v:.3f}" for k, v in parts.items())
        cells[0] += f" ({inside})"
    return ", ".join(cells + [f"other {other:.3f}"])


#: The parts of the solve `stage_cell` shows inside its cell: impacts run on one thread,
#: the iterations split over threads, the hold-up pass stops what they left sinking.
SOLVE_PARTS = ("impacts", "iterate", "hold_up")


#: What the stages column of `sleeping_table` says, for the sections that show it.
STAGES_NOTE = (
    "Stages: where rigidlab's step went, from its own timers (`w.step_times`) on the last step "
    "of every ten, averaged: the velocity solve (impacts, resting contacts and joints; in "
    "brackets its parts from `w.solve_times`: the impacts, the iterations and the hold-up pass), "
    "the narrow phase, position correction, the broad phase, and the rest (integration, "
    "sleeping, bookkeeping)."
)


def sleeping_table(rows, reference: str, stability) -> list[str]:
    """Table lines of `sleeping_cases` rows: case, sleeping, engine, ms per step, its ratio to
    the `reference` engine's time in the same case, build s, stability(row), and where the step
    went (`stage_cell`)."""
    lines = [
        "| case | sleeping | engine | ms per step | ratio | build (s) | stability | stages (ms per step) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for label in dict.fromkeys(r[0] for r in rows):
        for sleeping in (True, False):
            group = [r for r in rows if r[0] == label and r[2] == sleeping]
            ref = next((r[5] for r in group if r[3] == reference), None)
            for r in group:
                ratio = f"{r[5] / ref:.2f}" if ref else "-"
                lines.append(
                    f"| {label} | {'on' if sleeping else 'off'} | {r[3]} | {r[5] * 1e3:.3f} | "
                    f"{ratio} | {r[4]:.3f} | {stability(r)} | {stage_cell(r[-1])} |"
                )
    return lines
