"""Small matplotlib helpers for labs: the energy split over time, trajectories, and a
measurement against theory with its residuals. Each returns the axes it drew on, so a plot can
be refined with the usual matplotlib calls. Needs matplotlib (``pip install rigidlab[plot]``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["energy", "trajectory", "against_theory"]


def _axes(ax: Axes | None) -> Axes:
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    return plt.subplots(figsize=(7, 4))[1]


def energy(
    recording: Any,
    ax: Axes | None = None,
    parts: Sequence[str] = ("kinetic", "gravitational", "elastic", "total"),
    relative: bool = False,
) -> Axes:
    """Energy terms of a Recording (or a dict with 'time' and 'energy') against time. With
    relative=True the total is drawn as (E - E0) / |E0|, the drift a lab checks."""
    ax = _axes(ax)
    time = recording["time"] if isinstance(recording, dict) else recording.time
    terms = recording["energy"] if isinstance(recording, dict) else recording.energy
    if relative:
        total = np.asarray(terms["total"])
        ax.plot(time, (total - total[0]) / abs(total[0]), label="(E - E0) / |E0|")
        ax.set(xlabel="time (s)", ylabel="relative energy change")
    else:
        for name in parts:
            style = "k-" if name == "total" else "-"
            ax.plot(time, terms[name], style, label=name)
        ax.set(xlabel="time (s)", ylabel="energy (J)")
    ax.legend()
    return ax


def trajectory(
    positions: npt.ArrayLike,
    axes: tuple[int, int] = (0, 1),
    ax: Axes | None = None,
    labels: Sequence[str] | None = None,
    **style: Any,
) -> Axes:
    """Paths of bodies in a plane: positions of shape (T, 3) for one body or (T, n, 3) for
    several (as Recording.positions), projected on the two coordinate `axes` (0 x, 1 y, 2 z)."""
    ax = _axes(ax)
    p = np.asarray(positions, dtype=float)
    if p.ndim == 2:
        p = p[:, None, :]
    i, j = axes
    for k in range(p.shape[1]):
        label = labels[k] if labels is not None else None
        ax.plot(p[:, k, i], p[:, k, j], label=label, **style)
    ax.set(xlabel="xyz"[i] + " (m)", ylabel="xyz"[j] + " (m)")
    ax.set_aspect("equal", adjustable="datalim")
    if labels is not None:
        ax.legend()
    return ax


def against_theory(
    x: npt.ArrayLike,
    measured: npt.ArrayLike,
    theory: npt.ArrayLike | Callable[[np.ndarray], npt.ArrayLike],
    xlabel: str = "",
    ylabel: str = "",
    label: str = "rigidlab",
    theory_label: str = "theory",
    relative: bool = False,
    axes: tuple[Axes, Axes] | None = None,
) -> tuple[Axes, Axes]:
    """Measured values (points) against theory (a line) above their residuals
    (measured - theory, or relative to theory). `theory` is an array over x, or a function of
    x drawn smoothly. Returns the two axes (values, residuals)."""
    import matplotlib.pyplot as plt

    x = np.asarray(x, dtype=float)
    measured = np.asarray(measured, dtype=float)
    if axes is None:
        _, axes = plt.subplots(
            2, 1, figsize=(7, 5), sharex=True, gridspec_kw={"height_ratios": [3, 1]}
        )
    top, bottom = axes
    if callable(theory):
        fine = np.linspace(x.min(), x.max(), 400)
        top.plot(fine, theory(fine), "k-", label=theory_label)
        expected = np.asarray(theory(x), dtype=float)
    else:
        expected = np.asarray(theory, dtype=float)
        top.plot(x, expected, "k-", label=theory_label)
    top.plot(x, measured, "o", mfc="none", color="C3", label=label)
    top.set(ylabel=ylabel)
    top.legend()
    residual = (measured - expected) / np.abs(expected) if relative else measured - expected
    bottom.axhline(0.0, color="k", lw=0.8)
    bottom.plot(x, residual, "o", color="C3", ms=4)
    bottom.set(xlabel=xlabel, ylabel="relative residual" if relative else "residual")
    return top, bottom
