import numpy as np
import pymunk

from .base import BIN, DT, G, Engine, pyramid_boxes


class Pymunk(Engine):
    """Pymunk is 2D: the sphere pile becomes discs in a 1 m wide bin, the pyramid squares."""

    name = "pymunk (2D)"
    version = pymunk.version
    dims = "2d"

    def _space(self, gravity=-G):
        self.space = pymunk.Space()
        self.space.gravity = (0.0, gravity)

    def _static(self, a, b, radius=0.0):
        seg = pymunk.Segment(self.space.static_body, a, b, radius)
        seg.friction = 0.5
        self.space.add(seg)

    def sphere_pile(self, n, radius):
        self._space()
        self._static((-50, 0), (50, 0))
        self._static((-BIN / 2, 0), (-BIN / 2, 4))
        self._static((BIN / 2, 0), (BIN / 2, 4))
        self.bodies = []
        mass = 1000.0 * np.pi * radius**2
        # Rows of discs across the bin, stacked upwards (the 2D form of the 3D lattice).
        pitch = 2.1 * radius
        per_row = int((BIN - 2 * radius) // pitch) + 1
        for k in range(n):
            body = pymunk.Body(mass, pymunk.moment_for_circle(mass, 0, radius))
            body.position = ((k % per_row) * pitch - (per_row - 1) * pitch / 2, radius * 1.05 + (k // per_row) * pitch)
            shape = pymunk.Circle(body, radius)
            shape.friction = 0.5
            self.space.add(body, shape)
            self.bodies.append(body)

    def pyramid(self, base, half):
        self._space()
        self._static((-50, 0), (50, 0))
        self.bodies = []
        for q in pyramid_boxes(base, half):
            body = pymunk.Body(1.0, pymunk.moment_for_box(1.0, (2 * half, 2 * half)))
            body.position = (float(q[0]), float(q[1]))
            shape = pymunk.Poly.create_box(body, (2 * half, 2 * half))
            shape.friction = 0.5
            self.space.add(body, shape)
            self.bodies.append(body)

    def free_bodies(self, n):
        self._space(0.0)
        self.bodies = []
        for i in range(n):
            body = pymunk.Body(1.0, pymunk.moment_for_circle(1.0, 0, 0.5))
            body.position = (3.0 * (i % 100), 3.0 * (i // 100))
            self.space.add(body, pymunk.Circle(body, 0.5))
            self.bodies.append(body)

    def step(self, steps):
        for _ in range(steps):
            self.space.step(DT)

    def positions(self):
        return np.array([(b.position.x, b.position.y, 0.0) for b in self.bodies])

    def export(self):
        pos = self.positions()
        angle = np.array([b.angle for b in self.bodies])
        q = np.zeros((len(self.bodies), 4))
        q[:, 2] = np.sin(angle / 2)
        q[:, 3] = np.cos(angle / 2)
        return pos, q
