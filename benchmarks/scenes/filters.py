"""Scene 9: what collision filters save. The pile of scene 1 (10 000 spheres dropped into the
1 m bin) in rigidlab alone, three ways: every pair colliding; two species that pass through each
other (each sphere's category is its species, its mask its species and the bin); and two groups
whose spheres never collide with each other nor across (each sphere meets only the bin and the
floor). A filtered pair is dropped in the broad phase, so it should cost nothing beyond it."""

from __future__ import annotations

import statistics

import rigidlab as rl
from engines.base import BIN, DT, bin_walls, sphere_grid
from timing import timed

RADIUS = 0.05
BIN_BITS = 1  # the bin's and the floor's category


def filters(mode: str, i: int) -> dict[str, int]:
    """The filter keywords of sphere i."""
    species = 2 << (i % 2)
    if mode == "species":
        return {"category": species, "collides_with": species | BIN_BITS}
    if mode == "groups":
        return {"category": species, "collides_with": BIN_BITS, "group": 1 + i % 2}
    return {}


def build(n: int, mode: str) -> rl.World:
    w = rl.World(dt=DT, sleeping=False)
    w.add_plane(category=BIN_BITS)
    for centre, half in bin_walls():
        w.add_box(half, position=centre, kind="static", category=BIN_BITS)
    for i, c in enumerate(sphere_grid(n, RADIUS, BIN)):
        w.add_sphere(RADIUS, position=tuple(c), **filters(mode, i))
    return w


MODES = (
    ("all", "every pair collides"),
    ("species", "two species passing through each other"),
    ("groups", "no sphere meets another"),
)


def measure(n: int, steps: int, repeats: int):
    """Rows (mode, s per step, candidate pairs at the end, contact points at the end)."""
    rows = []
    for mode, _ in MODES:
        runs = []
        for _ in range(repeats):
            w = build(n, mode)
            per_step = timed(w.step, steps) / steps
            runs.append((per_step, w.candidate_pairs, len(w.contacts()["depth"])))
        per = statistics.median(r[0] for r in runs)
        rows.append((mode, per, runs[-1][1], runs[-1][2]))
        print(f"  filters {n}: {mode} {per * 1e3:.2f} ms/step", flush=True)
    return rows


def section(rows, n: int, steps: int) -> list[str]:
    base = rows[0][1]
    lines = [
        f"## 9. Collision filters: {n} spheres dropped into the bin, rigidlab alone",
        "",
        f"{steps} steps from the lattice, sleeping off. 'faster' is the time of the colliding pile over the filtered one.",
        "",
        "| spheres | ms per step | faster | candidate pairs at the end | contact points at the end |",
        "|---|---|---|---|---|",
    ]
    for (_, per, pairs, contacts), (_, words) in zip(rows, MODES):
        lines.append(f"| {words} | {per * 1e3:.2f} | {base / per:.2f} | {pairs} | {contacts} |")
    lines += [
        "",
        "Two species passing through each other are no cheaper: each still piles up on itself, and the two overlapping piles pack more densely than one (the lattice the spheres start from puts every sphere beside spheres of the other species). With no sphere meeting another, what is left is the broad phase and each sphere's contact with the floor.",
    ]
    return lines
