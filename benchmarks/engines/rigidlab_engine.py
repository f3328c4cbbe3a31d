import numpy as np
import rigidlab as rl

from .base import BIN, DT, WALL, Engine, pyramid_boxes, sphere_grid


class Rigidlab(Engine):
    name = "rigidlab"
    version = rl.__version__

    def _bin(self):
        w = rl.World(dt=DT)
        w.add_plane()
        for x, z, hx, hz in [(BIN / 2 + WALL, 0, WALL, BIN / 2), (-BIN / 2 - WALL, 0, WALL, BIN / 2), (0, BIN / 2 + WALL, BIN / 2 + 2 * WALL, WALL), (0, -BIN / 2 - WALL, BIN / 2 + 2 * WALL, WALL)]:
            w.add_box((hx, 2.0, hz), position=(x, 2.0, z), kind="static")
        return w

    def sphere_pile(self, n, radius):
        self.w = self._bin()
        self.bodies = [self.w.add_sphere(radius, position=tuple(p), density=1000.0) for p in sphere_grid(n, radius)]
        self.rows = np.array([b.index for b in self.bodies])

    def pyramid(self, base, half):
        self.w = rl.World(dt=DT)
        self.w.add_plane()
        self.bodies = [self.w.add_box((half,) * 3, position=tuple(p), mass=1.0) for p in pyramid_boxes(base, half)]
        self.rows = np.array([b.index for b in self.bodies])

    def free_bodies(self, n):
        self.w = rl.World(gravity=(0, 0, 0), dt=DT)
        for i in range(n):
            self.w.add_sphere(0.5, position=(3.0 * (i % 100), 3.0 * (i // 100), 0.0))
        self.rows = np.arange(n)

    def step(self, steps):
        self.w.step(steps)

    def positions(self):
        return self.w.positions[self.rows]

    def export(self):
        return self.w.positions, self.w.orientations
