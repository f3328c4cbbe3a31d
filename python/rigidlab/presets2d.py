"""Preset 2D scenes: the 2D sandbox simulator's four experiments and the classic 2D labs, each
built in one call. Every function returns ``(world, bodies)``: a World2D ready to run and the
bodies that matter to the scene, in a documented order.

    >>> import rigidlab as rl
    >>> w, (a, b) = rl.presets2d.oblique_discs()
    >>> w.run(1.0)
    >>> a.velocity, b.velocity        # (-1, -0.5) and (0, 0.5)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Callable

from .world2d import Body2D, World2D

__all__ = [
    "PRESETS_2D",
    "oblique_discs",
    "tilted_square",
    "friction_incline",
    "spring_weights",
    "atwood",
    "air_table",
]

#: The 2D sandbox simulator's gravity (m/s^2).
SANDBOX_G = 9.80665


def oblique_discs() -> tuple[World2D, list[Body2D]]:
    """The 2D sandbox simulator's experiment 1: discs of 1 kg and radius 2 m, no gravity,
    restitution 1, kinetic friction 0.5. A rests at the origin; B arrives from the right at
    (-1, 0) m/s spinning at +2 rad/s and hits A head-on. Theory (and the simulator's
    measurement): v'_A = (-1, -0.5), v'_B = (0, 0.5). Bodies: A, B."""
    w = World2D(gravity=(0.0, 0.0))
    a = w.add_circle(2.0, mass=1.0, restitution=1.0, friction=0.5, name="A")
    b = w.add_circle(
        2.0,
        mass=1.0,
        position=(4.5, 0.0),
        velocity=(-1.0, 0.0),
        angular_velocity=2.0,
        restitution=1.0,
        friction=0.5,
        name="B",
    )
    return w, [a, b]


def tilted_square(angle: float = 0.4, height: float = 1.5) -> tuple[World2D, list[Body2D]]:
    """The 2D sandbox simulator's experiment 2: a square of side 0.4 m tilted by `angle` (rad)
    dropped from `height` onto a pad, no friction, restitution 1. Potential, translational and
    rotational energy trade off at every bounce while the total stays constant. Bodies: the
    square."""
    w = World2D(gravity=(0.0, -SANDBOX_G))
    w.add_box(
        (3.0, 0.25), kind="static", position=(0.0, -0.25), restitution=1.0, friction=0.0, name="pad"
    )
    square = w.add_box(
        (0.2, 0.2),
        mass=1.0,
        position=(0.0, height),
        angle=angle,
        restitution=1.0,
        friction=0.0,
        name="square",
    )
    return w, [square]


def friction_incline(
    frictions: Sequence[float] = (0.05, 0.2, 0.35, 0.6), angle_deg: float = 25.0
) -> tuple[World2D, list[Body2D]]:
    """The 2D sandbox simulator's experiment 3: squares of increasing kinetic friction (static =
    kinetic) dropped onto a platform inclined at `angle_deg`, the least rough lowest on the
    slope so none catches another. Theory: each slides at g (sin - mu cos) while that is
    positive; a square with mu > tan stops. Bodies: the squares, least rough first."""
    th = math.radians(angle_deg)
    w = World2D(gravity=(0.0, -SANDBOX_G))
    down = (math.cos(th), -math.sin(th))
    normal = (math.sin(th), math.cos(th))
    w.add_segment((-4.0 * down[0], -4.0 * down[1]), (4.0 * down[0], 4.0 * down[1]), name="platform")
    w.add_ground(offset=-3.0, name="floor")
    squares = []
    h = 0.1
    for i, mu in enumerate(frictions):
        along = 1.0 - 0.8 * i
        position = (along * down[0] + 1.2 * h * normal[0], along * down[1] + 1.2 * h * normal[1])
        squares.append(
            w.add_box(
                (h, h), mass=1.0, position=position, angle=-th, friction=mu, name=f"mu={mu:g}"
            )
        )
    return w, squares


def spring_weights(
    mass: float = 3.0,
    stiffness: float = 150.0,
    damping: float = 6.0,
    displacement: float = 0.15,
    plank_mass: float = 3.0,
) -> tuple[World2D, list[Body2D]]:
    """The 2D sandbox simulator's experiment 4: weights of `mass` kg hanging from springs of
    `stiffness` N/m (rest length 1 m) under a ceiling at y = 2, each started `displacement` m
    below its equilibrium: one undamped spring, one damped (`damping` N s/m), two undamped
    springs sharing one weight, and three damped springs whose weights carry a plank of
    `plank_mass` kg. The damped ones come to rest; the undamped ones keep their amplitude
    (period 2 pi sqrt(m / k), sqrt(m / 2k) for the shared weight). Bodies: the single
    undamped, the single damped and the shared weight, the three carriers, the plank."""
    g = SANDBOX_G
    w = World2D(gravity=(0.0, -g))
    half = (0.15, 0.1)
    ceiling, rest = 2.0, 1.0

    def hang(x: float, load: float, c: float, name: str) -> Body2D:
        y_top = ceiling - rest - load * g / stiffness - displacement
        body = w.add_box(half, mass=mass, position=(x, y_top - half[1]), name=name)
        w.add_spring(
            body,
            stiffness=stiffness,
            damping=c,
            rest_length=rest,
            anchor_a=(0.0, half[1]),
            anchor_b=(x, ceiling),
        )
        return body

    single = hang(-3.0, mass, 0.0, "undamped")
    damped = hang(-1.5, mass, damping, "damped")
    y_top = ceiling - rest - 0.5 * mass * g / stiffness - displacement
    shared = w.add_box(half, mass=mass, position=(0.0, y_top - half[1]), name="shared")
    for side in (-1.0, 1.0):
        w.add_spring(
            shared,
            stiffness=stiffness,
            rest_length=rest,
            anchor_a=(side * half[0], half[1]),
            anchor_b=(side * half[0], ceiling),
        )
    carriers = [
        hang(x, mass + plank_mass / 3.0, damping, f"carrier {i}")
        for i, x in enumerate((1.5, 2.5, 3.5))
    ]
    plank_y = carriers[0].position[1] + half[1] + 0.03
    plank = w.add_box((1.2, 0.03), mass=plank_mass, position=(2.5, plank_y), name="plank")
    return w, [single, damped, shared, *carriers, plank]


def atwood(m1: float = 2.0, m2: float = 1.0, gap: float = 1.0) -> tuple[World2D, list[Body2D]]:
    """An Atwood machine: weights of m1 and m2 kg on a rope over two pulleys `gap` m apart at
    y = 2, both starting at y = 1 at rest. Theory: the heavier one falls at
    a = g (m1 - m2) / (m1 + m2), the rope's tension is 2 g m1 m2 / (m1 + m2). Bodies: the
    weights, m1 first."""
    w = World2D()
    x = gap / 2
    heavy = w.add_box((0.05, 0.05), mass=m1, position=(-x, 1.0), name="m1")
    light = w.add_box((0.05, 0.05), mass=m2, position=(x, 1.0), name="m2")
    w.add_pulley_joint(heavy, light, (-x, 2.0), (x, 2.0))
    return w, [heavy, light]


def air_table(
    n: int = 12, radius: float = 0.05, side: float = 1.0, speed: float = 0.5, seed: int = 0
) -> tuple[World2D, list[Body2D]]:
    """Pucks on an air table: `n` discs of 0.1 kg in a box of `side` m with elastic walls, no
    gravity and no friction, started at random (seeded) with speeds of `speed` m/s. Momentum
    changes only at the walls; kinetic energy is kept. Bodies: the pucks."""
    import numpy as np

    rng = np.random.default_rng(seed)
    w = World2D(gravity=(0.0, 0.0))
    h = side / 2
    for a, b in [((-h, -h), (h, -h)), ((h, -h), (h, h)), ((h, h), (-h, h)), ((-h, h), (-h, -h))]:
        w.add_segment(a, b, restitution=1.0, friction=0.0)
    cells = int(math.ceil(math.sqrt(n)))
    pitch = side / cells
    pucks = []
    for k in range(n):
        i, j = divmod(k, cells)
        centre = (-h + pitch * (j + 0.5), -h + pitch * (i + 0.5))
        heading = rng.uniform(0.0, 2 * math.pi)
        pucks.append(
            w.add_circle(
                radius,
                mass=0.1,
                position=centre,
                velocity=(speed * math.cos(heading), speed * math.sin(heading)),
                restitution=1.0,
                friction=0.0,
                name=f"puck {k}",
            )
        )
    return w, pucks


#: Every 2D preset by name.
PRESETS_2D: dict[str, Callable[[], tuple[World2D, list[Body2D]]]] = {
    "oblique discs": oblique_discs,
    "tilted square": tilted_square,
    "friction incline 2D": friction_incline,
    "spring weights 2D": spring_weights,
    "Atwood machine": atwood,
    "air table": air_table,
}
