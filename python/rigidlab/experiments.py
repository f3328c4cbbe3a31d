"""Ready-made labs: each builds a world, runs it, and measures what theory predicts.

Every function documents the theory it tests. They return plain data (numpy arrays) so a
script or notebook can print, plot or assert on it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from ._core import Body, World

__all__ = ["bouncing_balls", "restitution_lab", "RestitutionResult", "bounce_apexes"]


def bouncing_balls(
    restitutions: Sequence[float] = (0.2, 0.4, 0.6, 0.8, 1.0),
    height: float = 1.0,
    radius: float = 0.05,
    spacing: float = 0.3,
    dt: float = 1.0 / 240.0,
    integrator: str = "verlet",
) -> tuple[World, list[Body]]:
    """A floor and one ball per restitution coefficient, side by side, their lowest points
    `height` metres above the floor, at rest.

    The floor sets no restitution of its own, so each ball bounces with its own e.
    Theory: each bounce returns the ball to e^2 times the height it fell from.
    """
    w = World(dt=dt, integrator=integrator)
    w.add_plane(name="floor")
    balls = [
        w.add_sphere(radius, mass=0.1, position=(i * spacing, height + radius, 0.0), restitution=float(e), name=f"e={e:g}")
        for i, e in enumerate(restitutions)
    ]
    return w, balls


def bounce_apexes(time: np.ndarray, height: np.ndarray, velocity: np.ndarray, g: float) -> np.ndarray:
    """Apex heights of a bouncing body from sampled height and vertical velocity.

    An apex lies between the last sample moving up and the first moving down; from the last
    upward sample (y, v) free flight reaches y + v^2 / 2g, exact under uniform gravity.
    """
    up = (velocity[:-1] > 0.0) & (velocity[1:] <= 0.0)
    i = np.nonzero(up)[0]
    return height[i] + velocity[i] ** 2 / (2.0 * g)


@dataclass
class RestitutionResult:
    """What `restitution_lab` measured."""

    restitutions: np.ndarray
    drop_height: float
    #: times of the samples (s), shape (T,)
    time: np.ndarray
    #: height of each ball's lowest point above the floor (m), shape (T, n)
    heights: np.ndarray
    #: apex heights after each bounce, one array per ball
    apexes: list = field(default_factory=list)
    #: apex / previous apex (the first divided by the drop height), one array per ball
    ratios: list = field(default_factory=list)
    #: impact speed (m/s) of each bounce that was measured, one array per ball
    impact_speeds: list = field(default_factory=list)

    def table(self) -> str:
        """The measured ratios beside e^2, as text."""
        n = max((len(r) for r in self.ratios), default=0)
        head = f"{'e':>5} {'e^2':>7} " + " ".join(f"{'bounce ' + str(k + 1):>9}" for k in range(n)) + f" {'worst error':>12}"
        lines = [head]
        for e, r in zip(self.restitutions, self.ratios):
            cells = [f"{x:9.4f}" for x in r] + [f"{'-':>9}"] * (n - len(r))
            worst = f"{100 * np.max(np.abs(r / e**2 - 1.0)):11.3f}%" if len(r) and e > 0 else f"{'-':>12}"
            lines.append(f"{e:5.2f} {e * e:7.4f} " + " ".join(cells) + f" {worst}")
        return "\n".join(lines)


def restitution_lab(
    restitutions: Sequence[float] = (0.2, 0.4, 0.6, 0.8, 1.0),
    drop_height: float = 1.0,
    radius: float = 0.05,
    bounces: int = 3,
    seconds: float = 4.0,
    dt: float = 1.0 / 240.0,
    integrator: str = "verlet",
) -> RestitutionResult:
    """Drops one ball per restitution coefficient and measures the bounce-height ratios.

    Theory: a ball hitting the floor at speed v leaves at e v, so it rises to e^2 of the height
    it fell from. Bounces whose impact speed is below the world's restitution threshold do not
    bounce, and bounces whose flight lasts less than two steps cannot be measured from samples
    taken once a step; neither is reported.
    """
    w, balls = bouncing_balls(restitutions, drop_height, radius, dt=dt, integrator=integrator)
    rows = [b.index for b in balls]
    g = float(-w.gravity[1])
    steps = int(round(seconds / dt))
    time = np.empty(steps + 1)
    y = np.empty((steps + 1, len(rows)))
    vy = np.empty_like(y)
    for k in range(steps + 1):
        if k:
            w.step()
        time[k] = w.time
        y[k] = w.positions[rows, 1] - radius
        vy[k] = w.velocities[rows, 1]
    result = RestitutionResult(np.asarray(restitutions, dtype=float), drop_height, time, y)
    for j in range(len(rows)):
        apexes = bounce_apexes(time, y[:, j], vy[:, j], g)
        # Sampling once a step resolves only flights of two steps or more: stop at the first
        # bounce too short to measure.
        measurable = (apexes > 0.0) & (2.0 * np.sqrt(2.0 * np.maximum(apexes, 0.0) / g) >= 2.0 * dt)
        apexes = apexes[: int(np.argmin(measurable)) if not measurable.all() else len(apexes)][:bounces]
        previous = np.concatenate([[drop_height], apexes[:-1]])
        result.apexes.append(apexes)
        result.ratios.append(apexes / previous)
        result.impact_speeds.append(np.sqrt(2.0 * g * previous))
    return result
