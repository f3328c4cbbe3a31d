"""The report's figures."""

from __future__ import annotations

import numpy as np


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _rigidlab_first(names):
    return sorted(set(names), key=lambda n: (n != "rigidlab", n))


def step_times(pile_rows, pyramid_rows, steps, path):
    """Sphere pile ms per step against N (log-log) beside the pyramid's ms per step; either may be
    missing (scene not run)."""
    plt = _pyplot()
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4))
    names = _rigidlab_first([r[1] for r in pile_rows] + [r[0] for r in pyramid_rows])
    sizes = sorted({r[0] for r in pile_rows})
    for name in (n for n in names if any(r[1] == n for r in pile_rows)):
        pts = [
            (n, r[3] / steps * 1e3) for n in sizes for r in pile_rows if r[0] == n and r[1] == name
        ]
        ax1.loglog(
            [x for x, _ in pts],
            [y for _, y in pts],
            "o-",
            label=name,
            color=f"C{names.index(name)}",
        )
    ax1.set(xlabel="spheres", ylabel="ms per step", title="Sphere pile")
    if pile_rows:
        ax1.legend()
    ax2.bar(
        [r[0] for r in pyramid_rows],
        [r[2] / steps * 1e3 for r in pyramid_rows],
        color=[f"C{names.index(r[0])}" for r in pyramid_rows],
    )
    ax2.set(ylabel="ms per step", title="Box pyramid")
    ax2.tick_params(axis="x", rotation=20)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def scaling(rows, all_pairs, slopes, path):
    """Step time against N (log-log) per engine with its fitted power law, and the 3D polyhedron engine's
    collision-detection pass for reference."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 5))
    for i, name in enumerate(_rigidlab_first(r[1] for r in rows)):
        ns = np.array([r[0] for r in rows if r[1] == name], dtype=float)
        ts = np.array([r[3] for r in rows if r[1] == name])
        label = f"{name}: whole step" + (f", k = {slopes[name]:.2f}" if name in slopes else "")
        ax.loglog(ns, ts, "o-", color=f"C{i}", label=label)
        if name in slopes:
            ax.loglog(ns, ts[-1] * (ns / ns[-1]) ** slopes[name], ":", color=f"C{i}")
    ax.loglog(
        list(all_pairs),
        list(all_pairs.values()),
        "s--",
        color="gray",
        label=f"the 3D polyhedron engine: collision detection only, k = {slopes['the 3D polyhedron engine']:.2f}",
    )
    ax.set(
        xlabel="bodies",
        ylabel="seconds per step",
        title="Sphere pile: step time against N (time ~ N^k)",
    )
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
