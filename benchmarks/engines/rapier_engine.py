import numpy as np
import rapier3d as r

from .base import BIN, DT, G, WALL, Engine, pyramid_boxes, sphere_grid


class Rapier(Engine):
    name = "rapier"
    version = getattr(r, "__version__", "?")

    def _world(self, gravity=-G):
        self.w = r.PhysicsWorld(gravity=(0.0, gravity, 0.0))
        self.w.integration_parameters.dt = DT

    def _floor(self):
        self.w.add_collider(r.Collider.cuboid(50.0, 0.5, 50.0, translation=(0.0, -0.5, 0.0)))

    def _add(self, collider, pos):
        return self.w.add_body(r.RigidBody.dynamic(translation=tuple(float(c) for c in pos)), colliders=[collider])

    def sphere_pile(self, n, radius):
        self._world()
        self._floor()
        for x, z, hx, hz in [(BIN / 2 + WALL, 0, WALL, BIN / 2), (-BIN / 2 - WALL, 0, WALL, BIN / 2), (0, BIN / 2 + WALL, BIN / 2 + 2 * WALL, WALL), (0, -BIN / 2 - WALL, BIN / 2 + 2 * WALL, WALL)]:
            self.w.add_collider(r.Collider.cuboid(hx, 2.0, hz, translation=(x, 2.0, z)))
        self.handles = [self._add(r.Collider.ball(radius, density=1000.0), q) for q in sphere_grid(n, radius)]

    def pyramid(self, base, half):
        self._world()
        self._floor()
        self.handles = [self._add(r.Collider.cuboid(half, half, half, mass=1.0), q) for q in pyramid_boxes(base, half)]

    def free_bodies(self, n):
        self._world(0.0)
        self.handles = [self._add(r.Collider.ball(0.5), (3.0 * (i % 100), 3.0 * (i // 100), 0.0)) for i in range(n)]

    def step(self, steps):
        for _ in range(steps):
            self.w.step()

    def _bodies(self):
        bodies = self.w.rigid_bodies
        return [bodies.get(h) for h in self.handles]

    def positions(self):
        return np.array([tuple(b.translation) for b in self._bodies()], dtype=float)

    def export(self):
        bodies = self._bodies()
        pos = np.array([tuple(b.translation) for b in bodies], dtype=float)
        rot = np.array([(q.i, q.j, q.k, q.w) for q in (b.rotation for b in bodies)], dtype=float)
        return pos, rot
