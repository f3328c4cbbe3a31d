import numpy as np
import pybullet as p

from .base import BIN, DT, G, WALL, Engine, pyramid_boxes, sphere_grid


class PyBullet(Engine):
    name = "pybullet"
    version = str(p.getAPIVersion())

    def _world(self, gravity=-G):
        if getattr(self, "client", None) is not None:
            p.disconnect(self.client)
        self.client = p.connect(p.DIRECT)
        p.setGravity(0, gravity, 0, physicsClientId=self.client)
        p.setTimeStep(DT, physicsClientId=self.client)

    def _static_box(self, half, pos):
        shape = p.createCollisionShape(p.GEOM_BOX, halfExtents=half, physicsClientId=self.client)
        p.createMultiBody(0, shape, basePosition=pos, physicsClientId=self.client)

    def _floor(self):
        self._static_box((50, 0.5, 50), (0, -0.5, 0))

    def sphere_pile(self, n, radius):
        self._world()
        self._floor()
        for x, z, hx, hz in [(BIN / 2 + WALL, 0, WALL, BIN / 2), (-BIN / 2 - WALL, 0, WALL, BIN / 2), (0, BIN / 2 + WALL, BIN / 2 + 2 * WALL, WALL), (0, -BIN / 2 - WALL, BIN / 2 + 2 * WALL, WALL)]:
            self._static_box((hx, 2.0, hz), (x, 2.0, z))
        shape = p.createCollisionShape(p.GEOM_SPHERE, radius=radius, physicsClientId=self.client)
        mass = 1000.0 * 4.0 / 3.0 * np.pi * radius**3
        self.ids = [p.createMultiBody(mass, shape, basePosition=tuple(q), physicsClientId=self.client) for q in sphere_grid(n, radius)]

    def pyramid(self, base, half):
        self._world()
        self._floor()
        shape = p.createCollisionShape(p.GEOM_BOX, halfExtents=(half,) * 3, physicsClientId=self.client)
        self.ids = [p.createMultiBody(1.0, shape, basePosition=tuple(q), physicsClientId=self.client) for q in pyramid_boxes(base, half)]

    def free_bodies(self, n):
        self._world(0.0)
        shape = p.createCollisionShape(p.GEOM_SPHERE, radius=0.5, physicsClientId=self.client)
        self.ids = [p.createMultiBody(1.0, shape, basePosition=(3.0 * (i % 100), 3.0 * (i // 100), 0.0), physicsClientId=self.client) for i in range(n)]

    def step(self, steps):
        for _ in range(steps):
            p.stepSimulation(physicsClientId=self.client)

    def positions(self):
        return np.array([p.getBasePositionAndOrientation(i, physicsClientId=self.client)[0] for i in self.ids])

    def export(self):
        states = [p.getBasePositionAndOrientation(i, physicsClientId=self.client) for i in self.ids]
        return np.array([s[0] for s in states]), np.array([s[1] for s in states])
