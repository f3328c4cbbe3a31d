"""The interface every engine adapter has, and the scenes' shared geometry."""

from __future__ import annotations

import importlib
import math

import numpy as np

DT = 1.0 / 240.0
G = 9.81
BIN = 1.0  # inner width of the sphere bin (m)
WALL = 0.05  # half thickness of its walls
WALL_HEIGHT = 4.0  # height of its walls (m)
DENSITY = 1000.0  # of every body whose mass the scene does not set (kg/m^3)


def bin_walls(
    side: float = BIN, height: float = WALL_HEIGHT
) -> list[tuple[tuple[float, float, float], tuple[float, float, float]]]:
    """The four static walls of a square bin of inner width `side` standing on the floor (y = 0):
    (centre, half extents) of each box."""
    h = height / 2
    return [
        ((side / 2 + WALL, h, 0.0), (WALL, h, side / 2)),
        ((-side / 2 - WALL, h, 0.0), (WALL, h, side / 2)),
        ((0.0, h, side / 2 + WALL), (side / 2 + 2 * WALL, h, WALL)),
        ((0.0, h, -side / 2 - WALL), (side / 2 + 2 * WALL, h, WALL)),
    ]


def sphere_grid(n: int, radius: float, side: float = BIN, dims: str = "3d") -> np.ndarray:
    """Starting centres of n bodies of bounding radius `radius`: layers of a square lattice inside a
    bin of width `side`, 5% apart (in 2D one row across the bin per layer, z = 0)."""
    pitch = 2.1 * radius
    per_row = int((side - 2 * radius) // pitch) + 1
    rows = per_row if dims == "3d" else 1
    k = np.arange(n)
    x = (k % per_row) * pitch - (per_row - 1) * pitch / 2
    z = ((k // per_row) % rows) * pitch - (rows - 1) * pitch / 2
    y = radius * 1.05 + (k // (per_row * rows)) * pitch
    return np.stack([x, y, z], axis=1)


def pyramid_boxes(base: int, half: float) -> np.ndarray:
    """Centres of a pyramid of cubes of half size `half`: `base` on the bottom row, one fewer
    on each row above, touching, in the x-y plane."""
    out = []
    for row in range(base):
        count = base - row
        for k in range(count):
            out.append(((k - (count - 1) / 2.0) * 2.0 * half, half * (2 * row + 1), 0.0))
    return np.array(out)


# --- The gas (scene 8) ----------------------------------------------------------------------------

#: Radius of the gas's spheres (m) and the fraction of the box they fill.
GAS_RADIUS = 0.05
GAS_FILL = 0.05
GAS_WALL = 0.1  # half thickness of its walls


def gas_layout(
    n: int, radius: float = GAS_RADIUS, fill: float = GAS_FILL, dims: str = "3d", seed: int = 1
) -> tuple[np.ndarray, np.ndarray, float]:
    """n spheres (discs in 2D) in a closed cube (square) centred on the origin: centres on a
    lattice with random offsets that keep them apart, velocities from a normal distribution of
    1 m/s per component (z = 0 in 2D), and the inner side of the box (m), which they fill to
    `fill` of its volume (area)."""
    d = 3 if dims == "3d" else 2
    unit = 4 / 3 * math.pi * radius**3 if d == 3 else math.pi * radius**2
    side = (n * unit / fill) ** (1 / d)
    per_row = math.ceil(n ** (1 / d))
    pitch = side / per_row
    rng = np.random.default_rng(seed)
    k = np.arange(n)
    cells = np.stack([(k // per_row**i) % per_row for i in range(d)], axis=1)
    slack = pitch - 2 * radius
    centres = -side / 2 + (cells + 0.5) * pitch + rng.uniform(-0.45 * slack, 0.45 * slack, (n, d))
    velocities = rng.normal(0.0, 1.0, (n, d))
    if d == 2:
        centres = np.c_[centres, np.zeros(n)]
        velocities = np.c_[velocities, np.zeros(n)]
    return centres, velocities, side


def gas_walls(side: float) -> list[tuple[tuple[float, float, float], tuple[float, float, float]]]:
    """The six static walls (centre, half extents) closing the cube of inner side `side`."""
    out = []
    for axis in range(3):
        for sign in (1.0, -1.0):
            centre = [0.0, 0.0, 0.0]
            centre[axis] = sign * (side / 2 + GAS_WALL)
            half = [side / 2 + 2 * GAS_WALL] * 3
            half[axis] = GAS_WALL
            out.append((tuple(centre), tuple(half)))
    return out


# --- The mixed heap (scene 3) -------------------------------------------------------------------

HEAP_KINDS = ("sphere", "box", "capsule", "hull")
#: Box half extents, and capsule (radius, half height of the axis segment), as fractions of size.
BOX = (1.0, 0.75, 0.5)
CAPSULE = (0.6, 0.8)
#: The hull: an icosahedron of circumradius `size`, stretched by these factors along x, y, z.
HULL_STRETCH = (1.0, 0.8, 0.6)


def hull_points(size: float) -> np.ndarray:
    """The 12 vertices of the heap's convex hull, centred on its centroid (body frame)."""
    phi = (1 + math.sqrt(5)) / 2
    base = [(0, a, b * phi) for a in (-1, 1) for b in (-1, 1)]
    ico = np.array(
        [p[i:] + p[:i] for p in base for i in range(3)], dtype=float
    )  # cyclic permutations
    return ico / math.sqrt(1 + phi * phi) * size * np.array(HULL_STRETCH)


def heap_volume(kind: str, size: float) -> float:
    """Volume of one heap body (m^3)."""
    if kind == "sphere":
        return 4 / 3 * math.pi * size**3
    if kind == "box":
        return 8 * math.prod(BOX) * size**3
    if kind == "capsule":
        r, hh = CAPSULE[0] * size, CAPSULE[1] * size
        return math.pi * r * r * 2 * hh + 4 / 3 * math.pi * r**3
    # A regular icosahedron of edge a has volume 5 (3 + sqrt 5) a^3 / 12; here a = 2 on the
    # circumradius sqrt(1 + phi^2) of the points above, then scaled and stretched.
    phi = (1 + math.sqrt(5)) / 2
    scale = size / math.sqrt(1 + phi * phi)
    return 5 * (3 + math.sqrt(5)) / 12 * (2 * scale) ** 3 * math.prod(HULL_STRETCH)


def heap_radius(kind: str, size: float) -> float:
    """Radius of the sphere around one heap body's centre that holds it."""
    if kind == "box":
        return size * math.hypot(*BOX)
    if kind == "capsule":
        return size * sum(CAPSULE)
    return size


def heap_layout(n: int, size: float, dims: str = "3d") -> tuple[list[str], np.ndarray, float]:
    """The heap's bodies: their kinds (a quarter each, shuffled the same way every run), starting
    centres on a lattice in the bin (as for the sphere pile), and the bin's wall height, which
    stands 1 m over the highest start."""
    kinds = [
        HEAP_KINDS[k] for k in np.random.default_rng(0).permutation(np.arange(n) % len(HEAP_KINDS))
    ]
    centres = sphere_grid(n, max(heap_radius(k, size) for k in HEAP_KINDS), dims=dims)
    return kinds, centres, float(centres[:, 1].max()) + 1.0


# --- Accuracy beside speed (scene 7) and the batch of small worlds (scene 5) --------------------


def incline_pose(angle: float, half: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A slab tilted by `angle` (rad) about z, rising towards +x, whose top face passes through the
    origin, and a cube of half size `half` resting on it: (slab centre, cube centre, orientation of
    both as a quaternion x y z w). The slab is 10 m x 1 m x 10 m."""
    normal = np.array([-math.sin(angle), math.cos(angle), 0.0])
    quat = np.array([0.0, 0.0, math.sin(angle / 2), math.cos(angle / 2)])
    return -0.5 * normal, half * normal, quat


def downhill(angle: float) -> np.ndarray:
    """The unit vector down the incline of `incline_pose`."""
    return np.array([-math.cos(angle), -math.sin(angle), 0.0])


def cradle_centres(n: int, radius: float, gap: float) -> np.ndarray:
    """Centres of a Newton's cradle on the x axis: ball 0 `gap` short of touching the next, the
    other n - 1 touching in a row."""
    x = np.arange(n) * 2 * radius
    x[0] -= gap
    return np.stack([x, np.zeros(n), np.zeros(n)], axis=1)


def batch_starts(n: int, scene: str) -> np.ndarray:
    """What differs between the n small worlds of the batch scene: a ball's drop height (m, of its
    lowest point), or a pendulum's starting angle from the vertical (rad)."""
    if scene == "ball":
        return 1.0 + 0.5 * np.arange(n) / n
    return np.radians(30.0 + 60.0 * np.arange(n) / n)


#: The batch scene's bodies: the ball's radius and restitution, the pendulum's bob radius, length
#: and pivot (the bob starts at `pendulum_bob(angle)`).
BATCH_BALL = (0.1, 0.5)
BOB = 0.05
PIVOT = (0.0, 1.0, 0.0)


def pendulum_bob(angle: float, length: float = 1.0) -> tuple[float, float, float]:
    """The bob's centre when the rod makes `angle` with the downward vertical, in the x-y plane."""
    return (PIVOT[0] + length * math.sin(angle), PIVOT[1] - length * math.cos(angle), PIVOT[2])


class Engine:
    """A scene built in one engine. Subclasses fill in the builders and the readers."""

    name = "?"
    version = "?"
    #: "3d", or "2d" for an engine that simulates in a plane (x-y)
    dims = "3d"
    #: How the scenes' restitution and friction (each the pair's coefficient) are set.
    materials = ""
    #: The ways this engine can advance a batch of small worlds, best last.
    batch_ways: tuple[str, ...] = ()
    #: The batch ways that run on the calling thread alone. Scene 5 times each of them once on
    #: every core in turn (pinned to it) and takes the time at the cores' mean speed, as the
    #: machine's cores need not be equally fast.
    serial_ways: tuple[str, ...] = ()
    #: What a batch world's pendulum is in this engine, when it is not a distance joint.
    pendulum = "distance joint"
    #: Why the batch ways are the ones they are, where that needs saying.
    batch_note = ""
    #: For an engine that steps one world on several threads by default: its adapter
    #: restricted to one thread, timed beside it in the contact scenes (1 to 3), whose target
    #: is single-threaded.
    one_thread: type | None = None

    def sphere_pile(self, n: int, radius: float, side: float = BIN) -> None:
        """n spheres on a lattice (`sphere_grid`) falling into a walled bin of width `side`."""
        raise NotImplementedError

    def pyramid(self, base: int, half: float) -> None:
        raise NotImplementedError

    def mixed_heap(self, n: int, size: float) -> None:
        """The bodies of `heap_layout` (density DENSITY) falling into the bin of the sphere pile."""
        raise NotImplementedError

    def gas(self, n: int, radius: float) -> None:
        """The spheres of `gas_layout` (density DENSITY) in zero gravity inside `gas_walls`,
        restitution 1 and no friction between all of them."""
        raise NotImplementedError

    def free_bodies(self, n: int) -> None:
        """n unit spheres in zero gravity, far apart (the state-export scene)."""
        raise NotImplementedError

    def bounce(self, height: float, radius: float, restitution: float) -> None:
        """A ball whose lowest point is `height` above a floor (y = 0), at rest; the pair's
        restitution is `restitution`."""
        raise NotImplementedError

    def incline(self, angle: float, friction: float, half: float) -> None:
        """A cube at rest on the slab of `incline_pose`; the pair's friction (static and kinetic
        where the engine tells them apart) is `friction`."""
        raise NotImplementedError

    def cradle(self, n: int, radius: float, gap: float, speed: float) -> None:
        """n equal balls at `cradle_centres` in zero gravity, ball 0 moving at `speed` along +x,
        restitution 1 between the balls."""
        raise NotImplementedError

    def batch(self, n: int, scene: str) -> None:
        """n independent small worlds, each with one body: a ball (`BATCH_BALL`) dropped from
        `batch_starts` onto a floor, or a pendulum bob (`BOB`) on a rod of 1 m from `PIVOT`,
        released at `batch_starts`."""
        raise NotImplementedError

    def step_batch(self, steps: int, way: str) -> None:
        """Advances every world of the batch by `steps` steps, in the given way (`batch_ways`)."""
        raise NotImplementedError

    def batch_positions(self) -> np.ndarray:
        """The centre of each batch world's body, shape (n, 3)."""
        raise NotImplementedError

    def step(self, steps: int) -> None:
        raise NotImplementedError

    def stage_times(self) -> dict[str, float] | None:
        """Milliseconds per step in each stage of the engine's step, and in all (key "total"),
        over the steps stepped so far; None for an engine that does not report them."""
        return None

    def positions(self) -> np.ndarray:
        """Centres of the dynamic bodies, shape (n, 3) (z = 0 in 2D)."""
        raise NotImplementedError

    def velocities(self) -> np.ndarray:
        """Velocities of the dynamic bodies' centres, shape (n, 3) (z = 0 in 2D)."""
        raise NotImplementedError

    def export(self) -> tuple[np.ndarray, np.ndarray]:
        """Positions (n, 3) and orientations (n, 4, x y z w) of the dynamic bodies as numpy
        arrays: what a user does to read the whole state."""
        raise NotImplementedError

    def close(self) -> None:
        """Frees what the engine holds outside Python's reach (a pybullet client)."""


def with_one_thread(engines: dict[str, type]) -> dict[str, type]:
    """The engines, each followed by its one-thread variant where it has one."""
    out = {}
    for name, cls in engines.items():
        out[name] = cls
        if cls.one_thread is not None:
            out[cls.one_thread.name] = cls.one_thread
    return out


def available() -> dict[str, type]:
    """The adapters whose engines import here, by name."""
    found = {}
    for module, cls in [
        ("rigidlab_engine", "Rigidlab"),
        ("rigidlab2d_engine", "Rigidlab2D"),
        ("pybullet_engine", "PyBullet"),
        ("mujoco_engine", "MuJoCo"),
        ("rapier_engine", "Rapier"),
        ("pymunk_engine", "Pymunk"),
    ]:
        try:
            mod = importlib.import_module(f".{module}", __package__)
            found[getattr(mod, cls).name] = getattr(mod, cls)
        except ImportError:
            continue
    return found


# --- Scenes nobody tuned for (scene 10) ---------------------------------------------------------


def drop_layout(
    kind: str, n: int, size: float, seed: int = 7, dims: str = "3d"
) -> tuple[list[str], np.ndarray, np.ndarray, float]:
    """n bodies dropped into the bin from a tall column: their kinds ("sphere" or "cube" for all,
    or the mixed heap's four shuffled), centres at random in the column (each in its own cell of
    a coarse lattice, moved anywhere within it, so none overlap and none sit on a lattice), up to
    n/100 m high (landing at 20 to 30 m/s for thousands), random orientations (x y z w; spheres'
    too), and the bin's wall height, 1 m over the highest start. In 2D ("2d") the column is the
    bin's width in x and y (z = 0), and the orientations are angles about z (rad)."""
    rng = np.random.default_rng(seed)
    if kind == "mixed":
        kinds = [HEAP_KINDS[k] for k in rng.permutation(np.arange(n) % len(HEAP_KINDS))]
    else:
        kinds = [kind] * n
    reach = max(math.sqrt(3) * size if k == "cube" else heap_radius(k, size) for k in set(kinds))
    per_row = int(BIN // (2.2 * reach))
    deep = 1 if dims == "2d" else per_row
    layers = math.ceil(n / (per_row * deep))
    top = max(n / 100.0, layers * 2.2 * reach)
    pitch = np.array([BIN / per_row, top / layers, BIN / deep])
    k = rng.permutation(per_row * deep * layers)[:n]
    cell = np.stack([k % per_row, k // (per_row * deep), (k // per_row) % deep], axis=1)
    edge = np.array([-BIN / 2, 0.0, -BIN / 2])
    slack = pitch - 2 * reach
    centres = edge + cell * pitch + reach + rng.uniform(0.0, 1.0, (n, 3)) * slack
    if dims == "2d":
        centres[:, 2] = 0.0
        return kinds, centres, rng.uniform(-math.pi, math.pi, n), float(centres[:, 1].max()) + 1.0
    quats = rng.normal(size=(n, 4))
    quats /= np.linalg.norm(quats, axis=1, keepdims=True)
    return kinds, centres, quats, float(centres[:, 1].max()) + 1.0


def pyramid_rows(count: int, base: int, half: float) -> np.ndarray:
    """Centres of `count` pyramids of base `base` in a row along z, 1 m apart."""
    one = pyramid_boxes(base, half)
    gap = 2 * half + 1.0
    return np.concatenate([one + (0.0, 0.0, (i - (count - 1) / 2) * gap) for i in range(count)])


#: The chains: links (spheres of this radius, this far apart centre to centre) hanging from
#: fixed points 1 m apart, started swinging as a straight line at 60 degrees from the vertical.
CHAIN_LINK = 0.05
CHAIN_PITCH = 0.12
CHAIN_TOP = 10.0


def chain_layout(count: int, links: int) -> tuple[np.ndarray, np.ndarray]:
    """Fixed anchor points (count, 3), and link centres (count, links, 3): link 0 hangs from
    the anchor, link i + 1 from link i, each joined by a ball joint at the midpoint."""
    anchors = np.stack(
        [np.zeros(count), np.full(count, CHAIN_TOP), np.arange(count) - (count - 1) / 2], axis=1
    )
    direction = np.array([math.sin(math.radians(60)), -math.cos(math.radians(60)), 0.0])
    k = np.arange(1, links + 1)[:, None] * CHAIN_PITCH * direction
    return anchors, anchors[:, None, :] + k[None, :, :]
