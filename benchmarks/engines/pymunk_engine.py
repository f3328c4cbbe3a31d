import math

import numpy as np
import pymunk

from .base import (
    BATCH_BALL,
    BIN,
    BOB,
    BOX,
    CAPSULE,
    DENSITY,
    DT,
    PIVOT,
    WALL_HEIGHT,
    Engine,
    G,
    batch_starts,
    cradle_centres,
    drop_layout,
    gas_layout,
    heap_layout,
    hull_points,
    incline_pose,
    pendulum_bob,
    pyramid_boxes,
    sphere_grid,
)

#: How long a body must stay idle before it sleeps (s): rigidlab's SLEEP_TIME.
SLEEP_TIME = 0.5


class Pymunk(Engine):
    """Pymunk is 2D: the sphere pile becomes discs in a bin 1 m wide, the pyramid squares, the heap
    discs, rectangles, capsules (segments with a radius) and polygons (the hull's outline in x-y).
    Masses come from areas (DENSITY per m^2)."""

    name = "pymunk (2D)"
    version = pymunk.version
    dims = "2d"
    materials = "the moving body gets the coefficient, the static one 1 (Chipmunk multiplies the two); one friction coefficient"
    batch_ways = ("loop over Space objects",)
    serial_ways = batch_ways
    pendulum = "PinJoint to the space's static body at the pivot (a distance joint)"

    def _space(self, gravity=-G):
        self.space = pymunk.Space()
        self.space.gravity = (0.0, gravity)
        self.bodies = []

    def _static(self, a, b, radius=0.0, friction=0.5, elasticity=0.0):
        seg = pymunk.Segment(self.space.static_body, a, b, radius)
        seg.friction = friction
        seg.elasticity = elasticity
        self.space.add(seg)

    def _bin(self, side=BIN, height=WALL_HEIGHT):
        self._space()
        self._static((-50, 0), (50, 0))
        self._static((-side / 2, 0), (-side / 2, height))
        self._static((side / 2, 0), (side / 2, height))

    def _add(self, body, shape, pos, friction=0.5, elasticity=0.0):
        """Puts a dynamic body with one shape at pos (x, y, ...); a shape without a mass gets
        DENSITY."""
        body.position = (float(pos[0]), float(pos[1]))
        shape.friction = friction
        shape.elasticity = elasticity
        if body.mass == 0:
            shape.density = DENSITY
        self.space.add(body, shape)
        self.bodies.append(body)
        return body

    def sphere_pile(self, n, radius, side=BIN):
        self._bin(side)
        mass = DENSITY * np.pi * radius**2
        for q in sphere_grid(n, radius, side, dims=self.dims):
            body = pymunk.Body(mass, pymunk.moment_for_circle(mass, 0, radius))
            self._add(body, pymunk.Circle(body, radius), q)

    def pyramid(self, base, half):
        self._space()
        self._static((-50, 0), (50, 0))
        for q in pyramid_boxes(base, half):
            body = pymunk.Body(1.0, pymunk.moment_for_box(1.0, (2 * half, 2 * half)))
            self._add(body, pymunk.Poly.create_box(body, (2 * half, 2 * half)), q)

    @staticmethod
    def _shapes(size):
        """Each kind of body of the heap and the drops as a pymunk shape on a body."""
        return {
            "sphere": lambda b: pymunk.Circle(b, size),
            "cube": lambda b: pymunk.Poly.create_box(b, (2 * size, 2 * size)),
            "box": lambda b: pymunk.Poly.create_box(b, (2 * BOX[0] * size, 2 * BOX[1] * size)),
            "capsule": lambda b: pymunk.Segment(
                b, (0, -CAPSULE[1] * size), (0, CAPSULE[1] * size), CAPSULE[0] * size
            ),
            "hull": lambda b: pymunk.Poly(
                b, [tuple(q) for q in hull_points(size)[:, :2]]
            ),  # Poly takes the hull of the points
        }

    def mixed_heap(self, n, size):
        kinds, centres, height = heap_layout(n, size, self.dims)
        self._bin(height=height)
        shape = self._shapes(size)
        for k, q in zip(kinds, centres):
            body = pymunk.Body()
            self._add(body, shape[k](body), q)

    def drop(self, kind, n, size, sleeping):
        kinds, centres, angles, height = drop_layout(kind, n, size, dims=self.dims)
        self._bin(height=height)
        self.sleep(sleeping)
        shape = self._shapes(size)
        for k, q, a in zip(kinds, centres, angles):
            body = pymunk.Body()
            body.angle = float(a)
            self._add(body, shape[k](body), q)

    def gas(self, n, radius):
        centres, velocities, side = gas_layout(n, radius, dims="2d")
        self._space(0.0)
        h = side / 2
        for a, b in [
            ((-h, -h), (h, -h)),
            ((h, -h), (h, h)),
            ((h, h), (-h, h)),
            ((-h, h), (-h, -h)),
        ]:
            self._static(a, b, friction=0.0, elasticity=1.0)
        for q, v in zip(centres, velocities):
            body = pymunk.Body()
            self._add(body, pymunk.Circle(body, radius), q, friction=0.0, elasticity=1.0)
            body.velocity = (float(v[0]), float(v[1]))

    def free_bodies(self, n):
        self._space(0.0)
        for i in range(n):
            body = pymunk.Body(1.0, pymunk.moment_for_circle(1.0, 0, 0.5))
            self._add(body, pymunk.Circle(body, 0.5), (3.0 * (i % 100), 3.0 * (i // 100)))

    def _ball(self, radius, pos, elasticity):
        body = pymunk.Body()
        return self._add(body, pymunk.Circle(body, radius), pos, elasticity=elasticity)

    def bounce(self, height, radius, restitution):
        self._space()
        self._static((-50, 0), (50, 0), elasticity=1.0)
        self._ball(radius, (0.0, height + radius), restitution)

    def incline(self, angle, friction, half):
        _, centre, _ = incline_pose(angle, half)
        self._space()
        along = 5.0 * np.array([math.cos(angle), math.sin(angle)])
        self._static(tuple(-along), tuple(along), friction=1.0)
        body = pymunk.Body()
        body.angle = angle
        self._add(
            body, pymunk.Poly.create_box(body, (2 * half, 2 * half)), centre, friction=friction
        )

    def cradle(self, n, radius, gap, speed):
        self._space(0.0)
        for q in cradle_centres(n, radius, gap):
            self._ball(radius, q, 1.0)
        self.bodies[0].velocity = (speed, 0.0)

    def _pendulum_space(self, angle):
        self._space()
        bob = pymunk.Body()
        self._add(bob, pymunk.Circle(bob, BOB), pendulum_bob(angle))
        self.space.add(pymunk.PinJoint(bob, self.space.static_body, (0, 0), PIVOT[:2]))

    def batch(self, n, scene):
        self.spaces = []
        for s in batch_starts(n, scene):
            if scene == "ball":
                self.bounce(s, *BATCH_BALL)
            else:
                self._pendulum_space(s)
            self.spaces.append(self.space)

    def step_batch(self, steps, way):
        for space in self.spaces:
            for _ in range(steps):
                space.step(DT)

    def batch_positions(self):
        return np.array(
            [(b.position.x, b.position.y, 0.0) for space in self.spaces for b in space.bodies]
        )

    def sleep(self, on):
        """Chipmunk's sleeping, which pymunk leaves off: bodies idle for rigidlab's idle time
        (0.5 s) fall asleep; or every body stays awake."""
        self.space.sleep_time_threshold = SLEEP_TIME if on else math.inf

    def step(self, steps):
        for _ in range(steps):
            self.space.step(DT)

    def positions(self):
        return np.array([(b.position.x, b.position.y, 0.0) for b in self.bodies])

    def velocities(self):
        return np.array([(b.velocity.x, b.velocity.y, 0.0) for b in self.bodies])

    def export(self):
        pos = self.positions()
        angle = np.array([b.angle for b in self.bodies])
        q = np.zeros((len(self.bodies), 4))
        q[:, 2] = np.sin(angle / 2)
        q[:, 3] = np.cos(angle / 2)
        return pos, q
