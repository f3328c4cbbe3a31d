"""Preset scenes: the demos and experiments of the simulators rigidlab grew from, each built in
one call. Every function returns ``(world, bodies)``: a World ready to run and the bodies that
matter to the scene, in a documented order. The viewer's number keys load the same scenes.

    >>> import rigidlab as rl
    >>> w, balls = rl.presets.newtons_cradle()
    >>> w.run(1.0)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Callable

import numpy as np

from ._core import Body, World
from .rotation import Rotation

__all__ = [
    "FEATURE_PAIRS",
    "PRESETS",
    "feature_pair",
    "block_plank_prism",
    "dominoes",
    "box_column",
    "pyramid",
    "ramp_room",
    "bouncing_balls",
    "friction_incline",
    "newtons_cradle",
    "spring_weights",
    "pendulum",
    "axis_angle",
    "slug",
    "export_scenes",
]

#: The six ways two boxes can first touch (the 3D polyhedron engine's demo scenes).
FEATURE_PAIRS = (
    "vertex-vertex",
    "vertex-edge",
    "vertex-face",
    "edge-edge",
    "edge-face",
    "face-face",
)


def axis_angle(axis: Sequence[float], angle: float) -> np.ndarray:
    """The quaternion (x, y, z, w) of a rotation by `angle` (rad) about `axis`
    (rigidlab.Rotation.from_axis_angle(axis, angle).as_quat())."""
    return Rotation.from_axis_angle(axis, angle).as_quat()


def feature_pair(
    kind: str = "face-face", size: float = 0.5, drop: float = 0.3
) -> tuple[World, list[Body]]:
    """Two cubes (half size `size`) that first touch by the given pair of features; one of
    FEATURE_PAIRS. The lower cube is static, held in the orientation the pair needs (a face,
    an edge or a corner up); the upper one falls from `drop` metres above it, turned so that
    its face, edge or corner meets the lower one. Bodies: [lower, upper].
    """
    if kind not in FEATURE_PAIRS:
        raise ValueError(
            f"kind: unknown feature pair {kind!r}; expected one of {', '.join(FEATURE_PAIRS)}"
        )
    low, high = (
        kind.split("-")[::-1]
        if kind in ("vertex-edge", "vertex-face", "edge-face")
        else kind.split("-")
    )
    identity = Rotation.identity()
    up_feature = {
        "face": (identity, size),
        "edge": (Rotation.from_axis_angle((0, 0, 1), np.pi / 4), size * np.sqrt(2.0)),
        "vertex": (Rotation.align((1, 1, 1), (0, 1, 0)), size * np.sqrt(3.0)),
    }
    down_feature = {
        "face": (identity, size),
        # An edge along x, crossing a lower edge (along z) at right angles.
        "edge": (Rotation.from_axis_angle((1, 0, 0), np.pi / 4), size * np.sqrt(2.0)),
        # A corner down, turned about y so no face is parallel to one below.
        "vertex": (
            Rotation.from_axis_angle((0, 1, 0), 0.4) * Rotation.align((1, 1, 1), (0, -1, 0)),
            size * np.sqrt(3.0),
        ),
    }
    q_low, top = up_feature[low]
    q_high, bottom = down_feature[high]
    if high != "face":
        # Tipped by 3 degrees, so that after the first touch it falls over instead of
        # balancing on its edge or corner.
        q_high = Rotation.from_axis_angle((1, 0, 2), 3.0, degrees=True) * q_high
    w = World()
    w.add_plane(name="floor")
    lower_y = top if low != "face" else size
    lower = w.add_box(
        (size,) * 3,
        position=(0.0, lower_y, 0.0),
        orientation=q_low,
        kind="static",
        name=f"lower ({low} up)",
    )
    # A small offset keeps the first touch off the exact centre, as in the 3D polyhedron engine's demos.
    upper = w.add_box(
        (size,) * 3,
        position=(0.05 * size, lower_y + top + bottom + drop, 0.03 * size),
        orientation=q_high,
        mass=1.0,
        name=f"upper ({high} down)",
    )
    return w, [lower, upper]


def block_plank_prism(friction: float = 0.6) -> tuple[World, list[Body]]:
    """The 3D polyhedron engine's stack: a block on a plank on a prism on the floor. The prism's cross-section
    is a trapezoid with a narrow flat top, so the stack balances. Bodies: [prism, plank, block].
    """
    w = World()
    w.add_plane(friction=friction, name="floor")
    prism = w.add_prism(
        [(-0.4, 0.0), (0.4, 0.0), (0.08, 0.4), (-0.08, 0.4)],
        0.6,
        position=(0.0, 0.0, 0.0),
        friction=friction,
        density=500.0,
        name="prism",
    )
    plank = w.add_box(
        (1.0, 0.03, 0.25), position=(0.0, 0.43, 0.0), friction=friction, density=500.0, name="plank"
    )
    block = w.add_box(
        (0.12, 0.12, 0.12),
        position=(0.0, 0.58, 0.0),
        friction=friction,
        density=500.0,
        name="block",
    )
    return w, [prism, plank, block]


def dominoes(
    n: int = 20,
    spacing: float = 0.1,
    size: Sequence[float] = (0.01, 0.1, 0.05),
    push: float = 1.0,
    friction: float = 0.5,
) -> tuple[World, list[Body]]:
    """A row of `n` dominoes (half extents `size`: thickness, height, width) standing `spacing`
    apart along +x, the first one tipped towards the others by spinning it at `push` rad/s.
    Bodies: the dominoes in order.
    """
    hx, hy, hz = size
    w = World()
    w.add_plane(friction=friction, name="floor")
    row = [
        w.add_box(
            (hx, hy, hz),
            position=(i * spacing, hy, 0.0),
            density=700.0,
            friction=friction,
            name=f"domino {i}",
        )
        for i in range(n)
    ]
    # Spin the first about its lower front edge, so it starts falling without sliding.
    pivot = np.array([hx, 0.0, 0.0])
    omega = np.array([0.0, 0.0, -push])
    row[0].angular_velocity = omega
    row[0].velocity = np.cross(omega, np.array([0.0, hy, 0.0]) - pivot)
    return w, row


def box_column(n: int = 10, half: float = 0.5, friction: float = 0.5) -> tuple[World, list[Body]]:
    """`n` cubes of half size `half` stacked in a column on the floor, touching. Bodies: the
    cubes from the bottom up."""
    w = World()
    w.add_plane(friction=friction, name="floor")
    return w, [
        w.add_box(
            (half,) * 3,
            position=(0.0, half * (2 * i + 1), 0.0),
            mass=1.0,
            friction=friction,
            name=f"box {i}",
        )
        for i in range(n)
    ]


def pyramid(base: int = 10, half: float = 0.5, friction: float = 0.5) -> tuple[World, list[Body]]:
    """A pyramid of cubes, `base` on the bottom row and one fewer on each row above, touching.
    Bodies: the cubes row by row from the bottom."""
    w = World()
    w.add_plane(friction=friction, name="floor")
    boxes = []
    for row in range(base):
        count = base - row
        for k in range(count):
            x = (k - (count - 1) / 2.0) * 2.0 * half
            boxes.append(
                w.add_box(
                    (half,) * 3,
                    position=(x, half * (2 * row + 1), 0.0),
                    mass=1.0,
                    friction=friction,
                    name=f"row {row} box {k}",
                )
            )
    return w, boxes


def ramp_room() -> tuple[World, list[Body]]:
    """The XNA library's demo room: a 30-degree ramp (the plane with normal (-0.5, 0.866, 0) through
    (7, -9, 0)), the floor y = -18, walls at x = -28, z = -19 and z = 19.95, and six heavy
    spheres of radius 2.8-4 m, masses 500-2000 kg and restitution 0.5-0.8, under gravity
    (0, -49, 0). Bodies: the six spheres."""
    w = World(gravity=(0.0, -49.0, 0.0))
    n = np.array([-0.5, np.sqrt(3.0) / 2.0, 0.0])
    w.add_plane(normal=n, offset=float(np.dot(n, (7.0, -9.0, 0.0))), name="ramp")
    w.add_plane(normal=(0, 1, 0), offset=-18.0, name="floor")
    w.add_plane(normal=(1, 0, 0), offset=-28.0, name="wall x")
    w.add_plane(normal=(0, 0, 1), offset=-19.0, name="wall -z")
    w.add_plane(normal=(0, 0, -1), offset=-19.95, name="wall +z")
    specs = [
        (2.8, 500.0, 0.5, (5.0, -6.0, -2.0)),
        (3.0, 800.0, 0.6, (11.0, -2.0, 1.0)),
        (3.2, 1000.0, 0.7, (6.0, 3.0, 0.0)),
        (3.5, 1200.0, 0.8, (10.0, 7.0, -1.0)),
        (3.8, 1600.0, 0.55, (5.0, 12.0, 1.0)),
        (4.0, 2000.0, 0.65, (11.0, 12.0, -2.0)),
    ]
    balls = [
        w.add_sphere(r, mass=m, restitution=e, position=p, name=f"sphere {i}")
        for i, (r, m, e, p) in enumerate(specs)
    ]
    return w, balls


def bouncing_balls(
    restitutions: Sequence[float] = (0.2, 0.4, 0.6, 0.8, 1.0),
    height: float = 1.0,
    radius: float = 0.05,
) -> tuple[World, list[Body]]:
    """One ball per restitution coefficient, side by side, their lowest points `height`
    metres above the floor. Theory: each bounce returns a ball to e^2 of its height."""
    from .experiments import bouncing_balls as build

    return build(restitutions, height, radius)


def friction_incline(
    frictions: Sequence[float] = (0.05, 0.2, 0.35, 0.6), angle_deg: float = 25.0
) -> tuple[World, list[Body]]:
    """The 2D sandbox simulator's experiment 3: squares of increasing kinetic friction (static = kinetic) dropped
    side by side on a platform inclined at `angle_deg`. Theory: on the slope each accelerates at
    g (sin - mu cos) while that is positive; the roughest (mu > tan) stops. Bodies: the squares.
    """
    th = np.radians(angle_deg)
    w = World()
    w.add_plane(name="floor", normal=(0, 1, 0), offset=-3.0)
    normal = np.array([np.sin(th), np.cos(th), 0.0])
    w.add_box(
        (4.0, 0.1, 2.0),
        position=tuple(-0.1 * normal),
        orientation=axis_angle((0, 0, 1), -th),
        kind="static",
        name="platform",
    )
    squares = []
    for i, mu in enumerate(frictions):
        z = (i - (len(frictions) - 1) / 2.0) * 0.6
        p = 0.12 * normal + np.array([-2.5 * np.cos(th), 2.5 * np.sin(th), z])
        squares.append(
            w.add_box(
                (0.1, 0.1, 0.1),
                position=tuple(p),
                orientation=axis_angle((0, 0, 1), -th),
                friction=mu,
                mass=1.0,
                name=f"mu={mu:g}",
            )
        )
    return w, squares


def newtons_cradle(
    n: int = 5, radius: float = 0.05, speed: float = 1.0, gap: float = 0.05
) -> tuple[World, list[Body]]:
    """`n` equal balls (e = 1) touching in a row on a frictionless floor, and one more ball
    `gap` metres before the row moving into it at `speed`. Theory: the last ball of the row
    leaves at `speed` and all others stop. Bodies: the striker, then the row."""
    w = World()
    w.add_plane(friction=0.0, restitution=1.0, name="floor")
    striker = w.add_sphere(
        radius,
        mass=0.1,
        position=(-2 * radius - gap, radius, 0.0),
        velocity=(speed, 0.0, 0.0),
        restitution=1.0,
        friction=0.0,
        name="striker",
    )
    row = [
        w.add_sphere(
            radius,
            mass=0.1,
            position=(2 * radius * i, radius, 0.0),
            restitution=1.0,
            friction=0.0,
            name=f"ball {i}",
        )
        for i in range(n - 1)
    ]
    return w, [striker, *row]


def spring_weights(
    mass: float = 3.0,
    stiffness: float = 150.0,
    damping: float = 6.0,
    displacement: float = 0.15,
    plank_mass: float = 3.0,
) -> tuple[World, list[Body]]:
    """The 2D sandbox simulator's experiment 4: weights of `mass` kg hanging from springs of `stiffness` N/m under
    a ceiling at y = 2, each started `displacement` m below its equilibrium: one undamped
    spring, one damped (`damping` N s/m), two undamped springs sharing one weight, and three
    damped springs whose weights carry a plank of `plank_mass` kg. The damped ones come to
    rest; the undamped ones keep their amplitude. Bodies: the four weights of the first three
    groups in order (single undamped, single damped, shared), then the three plank weights and
    the plank. Springs have rest length 1 m."""
    g = 9.81
    w = World(gravity=(0.0, -g, 0.0))
    half = (0.15, 0.1, 0.15)
    top = (0.0, half[1], 0.0)
    ceiling, rest = 2.0, 1.0

    def hang(x: float, load: float, c: float, name: str) -> Body:
        # Equilibrium: k (L - rest) = load g with the spring from (x, ceiling) to the weight's top.
        y_top = ceiling - rest - load * g / stiffness - displacement
        body = w.add_box(
            half, mass=mass, position=(x, y_top - half[1], 0.0), friction=0.5, name=name
        )
        w.add_spring(
            body,
            None,
            stiffness=stiffness,
            damping=c,
            rest_length=rest,
            anchor_a=top,
            anchor_b=(x, ceiling, 0.0),
        )
        return body

    single = hang(-3.0, mass, 0.0, "undamped")
    damped = hang(-1.5, mass, damping, "damped")
    # Two springs in parallel from (0 -+ 0.15, ceiling) to the weight's top corners: each takes
    # half the load.
    y_top = ceiling - rest - 0.5 * mass * g / stiffness - displacement
    shared = w.add_box(half, mass=mass, position=(0.0, y_top - half[1], 0.0), name="shared")
    for side in (-1.0, 1.0):
        corner = (side * half[0], half[1], 0.0)
        w.add_spring(
            shared,
            None,
            stiffness=stiffness,
            rest_length=rest,
            anchor_a=corner,
            anchor_b=(side * half[0], ceiling, 0.0),
        )
    carriers = [
        hang(x, mass + plank_mass / 3.0, damping, f"carrier {i}")
        for i, x in enumerate((1.5, 2.5, 3.5))
    ]
    plank_y = carriers[0].position[1] + half[1] + 0.03
    plank = w.add_box(
        (1.2, 0.03, 0.2), mass=plank_mass, position=(2.5, plank_y, 0.0), friction=0.5, name="plank"
    )
    return w, [single, damped, shared, *carriers, plank]


def pendulum(
    angle_deg: float = 30.0, length: float = 1.0, kind: str = "distance", radius: float = 0.05
) -> tuple[World, list[Body]]:
    """A simple pendulum: a 1 kg ball on a massless rod (kind "distance") or on a ball joint
    at its pivot (kind "ball", so the ball turns too), pivot at the origin, released from
    `angle_deg` at rest. Theory: period 4 sqrt(L/g) K(sin^2(angle/2)). Bodies: the bob."""
    w = World()
    th = np.radians(angle_deg)
    bob = w.add_sphere(
        radius, mass=1.0, position=(length * np.sin(th), -length * np.cos(th), 0.0), name="bob"
    )
    if kind == "distance":
        w.add_distance_joint(bob, None, anchor_b=(0.0, 0.0, 0.0))
    elif kind == "ball":
        w.add_ball_joint(bob, None, anchor=(0.0, 0.0, 0.0))
    else:
        raise ValueError(f"kind: expected 'distance' or 'ball', got {kind!r}")
    return w, [bob]


#: Every preset by name, for menus and the viewer's number keys.
PRESETS: dict[str, Callable[[], tuple[World, list[Body]]]] = {
    **{f"feature pair: {k}": (lambda k=k: feature_pair(k)) for k in FEATURE_PAIRS},
    "block, plank and prism": block_plank_prism,
    "dominoes": dominoes,
    "box column": box_column,
    "pyramid": pyramid,
    "ramp room": ramp_room,
    "bouncing balls": bouncing_balls,
    "friction incline": friction_incline,
    "Newton's cradle": newtons_cradle,
    "spring weights": spring_weights,
    "pendulum": pendulum,
}


def slug(name: str) -> str:
    """The file name (without .json) of a preset's scene: lower case, words joined by '-'."""
    return "-".join("".join(c if c.isalnum() else " " for c in name.lower()).split())


def export_scenes(directory: str) -> list[str]:
    """Saves every preset's scene as `directory/<slug>.json` (the viewer embeds these files)
    and returns the paths written."""
    import os

    os.makedirs(directory, exist_ok=True)
    paths = []
    for name, build in PRESETS.items():
        world, _ = build()
        path = os.path.join(directory, slug(name) + ".json")
        world.save(path)
        paths.append(path)
    return paths
