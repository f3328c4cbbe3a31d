"""Ready-made labs: each builds a world, runs it, and measures what theory predicts.

Every function documents the theory it tests. They return plain data (numpy arrays) so a
script or notebook can print, plot or assert on it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ._core import Body, World
from .presets import axis_angle

__all__ = [
    "bouncing_balls",
    "restitution_lab",
    "RestitutionResult",
    "bounce_apexes",
    "incline",
    "sliding_box",
    "oscillator",
    "coupled_oscillators",
    "head_on",
    "pendulum_period",
    "double_pendulum",
    "spinning_top",
    "zero_crossings",
    "photogate",
    "Photogate",
]


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
        w.add_sphere(
            radius,
            mass=0.1,
            position=(i * spacing, height + radius, 0.0),
            restitution=float(e),
            name=f"e={e:g}",
        )
        for i, e in enumerate(restitutions)
    ]
    return w, balls


def bounce_apexes(
    time: np.ndarray, height: np.ndarray, velocity: np.ndarray, g: float
) -> np.ndarray:
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
    apexes: list[np.ndarray] = field(default_factory=list)
    #: apex / previous apex (the first divided by the drop height), one array per ball
    ratios: list[np.ndarray] = field(default_factory=list)
    #: impact speed (m/s) of each bounce that was measured, one array per ball
    impact_speeds: list[np.ndarray] = field(default_factory=list)

    def table(self) -> str:
        """The measured ratios beside e^2, as text."""
        n = max((len(r) for r in self.ratios), default=0)
        head = (
            f"{'e':>5} {'e^2':>7} "
            + " ".join(f"{'bounce ' + str(k + 1):>9}" for k in range(n))
            + f" {'worst error':>12}"
        )
        lines = [head]
        for e, r in zip(self.restitutions, self.ratios):
            cells = [f"{x:9.4f}" for x in r] + [f"{'-':>9}"] * (n - len(r))
            worst = (
                f"{100 * np.max(np.abs(r / e**2 - 1.0)):11.3f}%"
                if len(r) and e > 0
                else f"{'-':>12}"
            )
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
        apexes = apexes[: int(np.argmin(measurable)) if not measurable.all() else len(apexes)][
            :bounces
        ]
        previous = np.concatenate([[drop_height], apexes[:-1]])
        result.apexes.append(apexes)
        result.ratios.append(apexes / previous)
        result.impact_speeds.append(np.sqrt(2.0 * g * previous))
    return result


def incline(
    angle_deg: float,
    mu_s: float = 0.5,
    mu_k: float = 0.4,
    body: str = "box",
    size: float = 0.1,
    dt: float = 1.0 / 240.0,
) -> tuple[World, Body, np.ndarray]:
    """A block (body="box", a cube of half size `size`) or a solid ball (body="ball", radius
    `size`) at rest on a static ramp inclined at `angle_deg`, with static and kinetic friction
    `mu_s` and `mu_k` (the ramp sets none, so the body's apply). Returns the world, the body and
    the unit vector pointing down the slope.

    Theory: a block sticks while tan(angle) <= mu_s and otherwise slides with
    a = g (sin - mu_k cos); a ball rolls without slipping at a = (5/7) g sin while
    tan(angle) <= (7/2) mu_s.
    """
    th = np.radians(angle_deg)
    n = np.array([np.sin(th), np.cos(th), 0.0])
    down = np.array([np.cos(th), -np.sin(th), 0.0])
    w = World(dt=dt)
    w.add_box(
        (20.0, 0.5, 2.0),
        position=tuple(-0.5 * n),
        orientation=axis_angle((0, 0, 1), -th),
        kind="static",
        name="ramp",
    )
    if body == "box":
        b = w.add_box(
            (size,) * 3,
            position=tuple(size * n),
            orientation=axis_angle((0, 0, 1), -th),
            mass=1.0,
            friction=mu_k,
            static_friction=mu_s,
            name="block",
        )
    elif body == "ball":
        b = w.add_sphere(
            size,
            position=tuple(size * n - 8.0 * down),
            mass=1.0,
            friction=mu_k,
            static_friction=mu_s,
            name="ball",
        )
    else:
        raise ValueError(f"body: expected 'box' or 'ball', got {body!r}")
    return w, b, down


def sliding_box(v0: float, mu_k: float, size: float = 0.1) -> tuple[World, Body]:
    """A cube of half size `size` resting on a floor (kinetic friction `mu_k`, static the same),
    then launched along +x at `v0`. Theory: it stops after v0^2 / (2 mu_k g), at t = v0 / (mu_k g).
    """
    w = World()
    w.add_plane(name="floor")
    box = w.add_box((size,) * 3, mass=1.0, position=(0.0, size, 0.0), friction=mu_k, name="box")
    w.step(10)  # settle the resting contact
    box.velocity = (v0, 0.0, 0.0)
    return w, box


def oscillator(
    mass: float = 1.0,
    stiffness: float = 100.0,
    damping: float = 0.0,
    displacement: float = 0.1,
    dt: float = 1.0 / 240.0,
    integrator: str = "verlet",
) -> tuple[World, Body]:
    """A body on a spring to a fixed point, in zero gravity, released `displacement` metres from
    equilibrium (along x, at rest). Theory: x(t) = A exp(-zeta w0 t) cos(wd t) with
    w0 = sqrt(k/m), zeta = c / (2 sqrt(k m)), wd = w0 sqrt(1 - zeta^2); the period is 2 pi / wd.
    """
    w = World(gravity=(0.0, 0.0, 0.0), dt=dt, integrator=integrator)
    b = w.add_sphere(0.05, mass=mass, position=(1.0 + displacement, 0.0, 0.0), name="mass")
    w.add_spring(
        b, None, stiffness=stiffness, damping=damping, rest_length=1.0, anchor_b=(0.0, 0.0, 0.0)
    )
    return w, b


def coupled_oscillators(
    mass: float = 1.0,
    stiffness: float = 100.0,
    coupling: float = 20.0,
    x1: float = 0.1,
    x2: float = 0.0,
) -> tuple[World, list[Body]]:
    """Two equal masses in a row between two walls, each held by a spring `stiffness` to its wall
    and coupled by a spring `coupling`, in zero gravity, released from displacements x1 and x2.
    Theory: the normal modes have w1 = sqrt(k/m) (in phase) and w2 = sqrt((k + 2 kc)/m)
    (opposite phase); any motion is a sum of the two.
    """
    w = World(gravity=(0.0, 0.0, 0.0))
    a = w.add_sphere(0.05, mass=mass, position=(-0.5 + x1, 0.0, 0.0), name="left")
    b = w.add_sphere(0.05, mass=mass, position=(0.5 + x2, 0.0, 0.0), name="right")
    w.add_spring(a, None, stiffness=stiffness, rest_length=1.0, anchor_b=(-1.5, 0.0, 0.0))
    w.add_spring(b, None, stiffness=stiffness, rest_length=1.0, anchor_b=(1.5, 0.0, 0.0))
    w.add_spring(a, b, stiffness=coupling, rest_length=1.0)
    return w, [a, b]


def head_on(
    m1: float, m2: float, v1: float, v2: float, e: float, radius: float = 0.1
) -> tuple[World, list[Body]]:
    """Two balls on the x axis in zero gravity, 1 m apart, moving at v1 and v2 with restitution
    e (both). Theory: momentum is conserved, and the separation speed is e times the approach
    speed: v1' = (m1 v1 + m2 v2 - m2 e (v1 - v2)) / (m1 + m2), v2' = v1' + e (v1 - v2).
    """
    w = World(gravity=(0.0, 0.0, 0.0))
    a = w.add_sphere(
        radius, mass=m1, position=(-0.5, 0.0, 0.0), velocity=(v1, 0.0, 0.0), restitution=e, name="1"
    )
    b = w.add_sphere(
        radius, mass=m2, position=(0.5, 0.0, 0.0), velocity=(v2, 0.0, 0.0), restitution=e, name="2"
    )
    return w, [a, b]


def zero_crossings(t: np.ndarray, x: np.ndarray, rising: bool = True) -> np.ndarray:
    """Times at which x crosses zero upwards (or downwards), by linear interpolation."""
    x = np.asarray(x, dtype=float)
    if rising:
        i = np.nonzero((x[:-1] < 0.0) & (x[1:] >= 0.0))[0]
    else:
        i = np.nonzero((x[:-1] > 0.0) & (x[1:] <= 0.0))[0]
    return t[i] - x[i] * (t[i + 1] - t[i]) / (x[i + 1] - x[i])


def pendulum_period(
    angle_deg: float, length: float = 1.0, periods: int = 3, dt: float = 1.0 / 240.0
) -> float:
    """The measured period of a simple pendulum (a 1 kg ball on a massless rod) released from
    rest at `angle_deg`, from the times its bob crosses the vertical going one way.
    Theory: T = 4 sqrt(L / g) K(sin^2(angle / 2)) (K the complete elliptic integral of the first
    kind), which tends to 2 pi sqrt(L / g) for small angles."""
    w = World(dt=dt)
    th = np.radians(angle_deg)
    bob = w.add_sphere(
        0.02, mass=1.0, position=(length * np.sin(th), -length * np.cos(th), 0.0), name="bob"
    )
    w.add_distance_joint(bob, None, anchor_b=(0.0, 0.0, 0.0))
    g = float(-w.gravity[1])
    rec = w.record(quantities=["positions"])
    w.run((periods + 0.6) * 2 * np.pi * np.sqrt(length / g) * (1 + th**2 / 8 + th**4 / 40))
    crossings = zero_crossings(rec.time, rec.positions[:, 0, 0], rising=False)
    return float(np.mean(np.diff(crossings)))


def double_pendulum(
    angle1_deg: float = 120.0,
    angle2_deg: float = 120.0,
    length: float = 0.5,
    mass: float = 1.0,
    nudge: float = 0.0,
    dt: float = 1.0 / 240.0,
    integrator: str = "verlet",
) -> tuple[World, list[Body]]:
    """Two bobs on massless rods of `length`, the first pivoting on the origin, released at rest
    with the rods at `angle1_deg` and `angle2_deg` from the downward vertical; `nudge` moves
    the second bob's starting angle by that many radians. Theory: energy is conserved, and the
    motion is chaotic: runs that start 1e-9 apart separate exponentially."""
    w = World(dt=dt, integrator=integrator)
    t1 = np.radians(angle1_deg)
    t2 = np.radians(angle2_deg) + nudge
    p1 = np.array([np.sin(t1), -np.cos(t1), 0.0]) * length
    p2 = p1 + np.array([np.sin(t2), -np.cos(t2), 0.0]) * length
    a = w.add_sphere(0.03, mass=mass, position=tuple(p1), name="bob 1")
    b = w.add_sphere(0.03, mass=mass, position=tuple(p2), name="bob 2")
    w.add_distance_joint(a, None, anchor_b=(0.0, 0.0, 0.0))
    w.add_distance_joint(a, b)
    return w, [a, b]


def spinning_top(
    spin: float = 100.0,
    tilt_deg: float = 20.0,
    half_width: float = 0.1,
    half_length: float = 0.02,
    arm: float = 0.05,
    dt: float = 1.0 / 1000.0,
    integrator: str = "rk4",
) -> tuple[World, Body, dict[str, float]]:
    """A symmetric top: a square plate (half sizes `half_width`, `half_length` along its axis)
    whose centre is `arm` metres along its axis from a fixed pivot (a ball joint at the origin),
    the axis tilted `tilt_deg` from the vertical, spinning at `spin` rad/s about its axis and
    started on the slow steady precession (so it does not nod).

    Theory (the gyroscope): the axis turns about the vertical at the rate Omega that solves
    I1' Omega^2 cos(tilt) - I3 w3 Omega + m g arm = 0 (I1' the transverse inertia about the
    pivot, I3 the axial inertia, w3 the angular velocity along the axis); for a fast top
    Omega ~ m g arm / (I3 w3). A fast spin needs a short step: spin * dt = 0.1 rad by default.
    Returns the world, the top and these quantities."""
    w = World(dt=dt, integrator=integrator)
    m = 1.0
    a, h = half_width, half_length
    th = np.radians(tilt_deg)
    axis = np.array([np.sin(th), np.cos(th), 0.0])
    q = axis_angle((0, 0, 1), -th)
    top = w.add_box((a, h, a), mass=m, position=tuple(arm * axis), orientation=q, name="top")
    w.add_ball_joint(top, None, anchor=(0.0, 0.0, 0.0))
    g = float(-w.gravity[1])
    i3 = m * (a * a + a * a) / 3.0
    i1 = m * (a * a + h * h) / 3.0 + m * arm * arm
    # Steady precession: w3 = spin + Omega cos(tilt); solve the quadratic for Omega.
    omega = m * g * arm / (i3 * spin)
    for _ in range(50):
        w3 = spin + omega * np.cos(th)
        disc = (i3 * w3) ** 2 - 4.0 * i1 * np.cos(th) * m * g * arm
        if disc < 0:
            raise ValueError(
                f"spin: {spin} rad/s is too slow for this top to precess steadily; spin it faster"
            )
        omega_new = (i3 * w3 - np.sqrt(disc)) / (2.0 * i1 * np.cos(th))
        omega, done = omega_new, abs(omega_new - omega) < 1e-15
        if done:
            break
    top.angular_velocity = tuple(spin * axis + omega * np.array([0.0, 1.0, 0.0]))
    # The centre moves on its circle: v = Omega y x r.
    top.velocity = tuple(np.cross([0.0, omega, 0.0], arm * axis))
    theory = {
        "precession": omega,
        "fast_top": m * g * arm / (i3 * spin),
        "i1": i1,
        "i3": i3,
        "w3": spin + omega * np.cos(th),
        "tilt": th,
    }
    return w, top, theory


@dataclass
class Photogate:
    """A photogate: a thin sensor slab across a body's path (see `photogate`)."""

    world: object
    #: The sensor body (a rigidlab Body, or a Body2D in a 2D world).
    sensor: object
    #: The slab's thickness along the path (m).
    thickness: float

    def times(self, body: Any = None) -> tuple[np.ndarray, np.ndarray]:
        """When bodies entered and left the slab (s), in order: the "sensor_begin" and
        "sensor_end" events of the world's unread events (read without clearing them, so read
        the gate before clearing them with `world.contact_events()`). With `body`, only that
        body's. Each time is the moment the shapes began or stopped overlapping, within the
        step, not rounded to it."""
        events = self.world.contact_events(clear=False)
        kinds = np.asarray(events["kind"])
        mine = np.asarray(events["body_a"]) == self.sensor.id
        if body is not None:
            mine &= np.asarray(events["body_b"]) == body.id
        t = np.asarray(events["time"])
        return t[mine & (kinds == "sensor_begin")], t[mine & (kinds == "sensor_end")]

    def speeds(
        self, size: float, body: Any = None, acceleration: float | None = None
    ) -> np.ndarray:
        """The speed through the gate of a body `size` long along the path (a ball's
        diameter), for each passage. A school photogate reports the mean speed, L / dt_gate
        with L = size + thickness; given the body's `acceleration` along the path (g for a
        falling ball, from two gates), the speed when its centre crosses the gate's centre
        under that constant acceleration instead: v^2 = (L / dt_gate - a dt_gate / 2)^2 + a L."""
        enter, leave = self.times(body)
        k = min(len(enter), len(leave))
        passage = leave[:k] - enter[:k]
        length = size + self.thickness
        if acceleration is None:
            return length / passage
        entering = length / passage - acceleration * passage / 2
        return np.sqrt(entering**2 + acceleration * length)


def photogate(
    world: Any,
    position: Any,
    normal: Any = None,
    width: float = 0.2,
    thickness: float = 1e-3,
    name: str | None = None,
) -> Photogate:
    """Puts a photogate in `world` (a World or a World2D): a static sensor slab `thickness`
    thin along `normal` (the direction bodies cross it; default up, y) and `width` wide across,
    centred at `position`. Bodies pass through it unhindered; `Photogate.times()` gives when
    each entered and left it, timed within the step (the moment the shapes began or stopped
    overlapping along the bodies' paths), so two gates on a falling ball measure g to
    round-off even at dt = 1/60."""
    if width <= 0 or thickness <= 0 or not np.isfinite(width) or not np.isfinite(thickness):
        raise ValueError(
            f"width, thickness: must be positive and finite (got {width!r}, {thickness!r})"
        )
    planar = hasattr(world, "add_circle")
    if normal is None:
        normal = (0.0, 1.0) if planar else (0.0, 1.0, 0.0)
    n = np.asarray(normal, float)
    if n.shape != ((2,) if planar else (3,)) or not np.all(np.isfinite(n)) or not n.any():
        raise ValueError(
            f"normal: expected a non-zero {'2' if planar else '3'}-vector, got {normal!r}"
        )
    n = n / np.linalg.norm(n)
    if planar:
        sensor = world.add_box(
            (width / 2, thickness / 2),
            kind="static",
            position=position,
            angle=float(np.arctan2(-n[0], n[1])),
            sensor=True,
            name=name,
        )
    else:
        # The slab's thin axis, y, turned onto n.
        y = np.array([0.0, 1.0, 0.0])
        axis = np.cross(y, n)
        angle = float(np.arctan2(np.linalg.norm(axis), y @ n))
        q = axis_angle(axis if np.linalg.norm(axis) > 1e-12 else (1.0, 0.0, 0.0), angle)
        sensor = world.add_box(
            (width / 2, thickness / 2, width / 2),
            kind="static",
            position=position,
            orientation=tuple(q),
            sensor=True,
            name=name,
        )
    return Photogate(world, sensor, thickness)
