"""The interface every engine adapter has, and the scenes' shared geometry."""

from __future__ import annotations

import importlib

import numpy as np

DT = 1.0 / 240.0
G = 9.81
BIN = 1.0  # inner width of the sphere bin (m)
WALL = 0.05  # half thickness of its walls


def sphere_grid(n: int, radius: float) -> np.ndarray:
    """Starting centres of n spheres: layers of a square lattice inside the bin, 5% apart."""
    pitch = 2.1 * radius
    per_row = int((BIN - 2 * radius) // pitch) + 1
    k = np.arange(n)
    x = (k % per_row) * pitch - (per_row - 1) * pitch / 2
    z = ((k // per_row) % per_row) * pitch - (per_row - 1) * pitch / 2
    y = radius * 1.05 + (k // (per_row * per_row)) * pitch
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


class Engine:
    """A scene built in one engine. Subclasses fill in the three builders and the readers."""

    name = "?"
    version = "?"
    #: "3d", or "2d" for an engine that simulates in a plane (x-y)
    dims = "3d"

    def sphere_pile(self, n: int, radius: float) -> None:
        raise NotImplementedError

    def pyramid(self, base: int, half: float) -> None:
        raise NotImplementedError

    def free_bodies(self, n: int) -> None:
        """n unit spheres in zero gravity, far apart (the state-export scene)."""
        raise NotImplementedError

    def step(self, steps: int) -> None:
        raise NotImplementedError

    def positions(self) -> np.ndarray:
        """Centres of the dynamic bodies, shape (n, 3) (z = 0 in 2D)."""
        raise NotImplementedError

    def export(self) -> tuple[np.ndarray, np.ndarray]:
        """Positions (n, 3) and orientations (n, 4, x y z w) of the dynamic bodies as numpy
        arrays: what a user does to read the whole state."""
        raise NotImplementedError


def available() -> dict[str, type]:
    """The adapters whose engines import here, by name."""
    found = {}
    for module, cls in [("rigidlab_engine", "Rigidlab"), ("pybullet_engine", "PyBullet"), ("mujoco_engine", "MuJoCo"), ("rapier_engine", "Rapier"), ("pymunk_engine", "Pymunk")]:
        try:
            mod = importlib.import_module(f".{module}", __package__)
            found[getattr(mod, cls).name] = getattr(mod, cls)
        except ImportError:
            continue
    return found
