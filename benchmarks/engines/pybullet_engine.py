import math

import numpy as np
import pybullet as p

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
    bin_walls,
    cradle_centres,
    gas_layout,
    gas_walls,
    heap_layout,
    heap_volume,
    hull_points,
    incline_pose,
    pendulum_bob,
    pyramid_boxes,
    sphere_grid,
)

#: Bullet's capsules lie along their z axis; this turns z to y, the axis the scenes use.
Z_TO_Y = (-math.sqrt(0.5), 0.0, 0.0, math.sqrt(0.5))


def sphere_mass(radius: float) -> float:
    """Bullet takes a body's mass, not its density."""
    return DENSITY * 4.0 / 3.0 * math.pi * radius**3


class PyBullet(Engine):
    name = "pybullet"
    version = str(p.getAPIVersion())
    # Bullet multiplies the two bodies' coefficients (btManifoldResult::calculateCombined*).
    materials = "the moving body gets the coefficient, the static one 1 (Bullet multiplies the two); one friction coefficient for static and kinetic"
    batch_ways = ("one client, the n worlds' bodies side by side (3 m apart)",)
    serial_ways = batch_ways
    batch_note = "a DIRECT client holds about 28 MB, so one client per world (1000) does not fit in this machine's memory; the balls share one floor"
    pendulum = "point-to-point constraint to the world at the pivot (a rigid rod)"

    def _world(self, gravity=-G):
        self.close()
        self.client = p.connect(p.DIRECT)
        p.setGravity(0, gravity, 0, physicsClientId=self.client)
        p.setTimeStep(DT, physicsClientId=self.client)

    def close(self):
        if getattr(self, "client", None) is not None:
            p.disconnect(self.client)
            self.client = None

    def _shape(self, kind, **kw):
        return p.createCollisionShape(kind, physicsClientId=self.client, **kw)

    def _body(self, mass, shape, pos, orientation=(0, 0, 0, 1)):
        return p.createMultiBody(
            mass,
            shape,
            basePosition=tuple(float(c) for c in pos),
            baseOrientation=tuple(orientation),
            physicsClientId=self.client,
        )

    def _material(self, body, **kw):
        p.changeDynamics(body, -1, physicsClientId=self.client, **kw)

    def _static_box(self, half, pos, orientation=(0, 0, 0, 1)):
        return self._body(0, self._shape(p.GEOM_BOX, halfExtents=half), pos, orientation)

    def _floor(self):
        return self._static_box((50, 0.5, 50), (0, -0.5, 0))

    def _bin(self, side=BIN, height=WALL_HEIGHT):
        self._world()
        self._floor()
        for centre, half in bin_walls(side, height):
            self._static_box(half, centre)

    def sphere_pile(self, n, radius, side=BIN):
        self._bin(side)
        shape = self._shape(p.GEOM_SPHERE, radius=radius)
        self.ids = [self._body(sphere_mass(radius), shape, q) for q in sphere_grid(n, radius, side)]

    def pyramid(self, base, half):
        self._world()
        self._floor()
        shape = self._shape(p.GEOM_BOX, halfExtents=(half,) * 3)
        self.ids = [self._body(1.0, shape, q) for q in pyramid_boxes(base, half)]

    def mixed_heap(self, n, size):
        kinds, centres, height = heap_layout(n, size)
        self._bin(height=height)
        shapes = {
            "sphere": self._shape(p.GEOM_SPHERE, radius=size),
            "box": self._shape(p.GEOM_BOX, halfExtents=[size * f for f in BOX]),
            "capsule": self._shape(
                p.GEOM_CAPSULE,
                radius=CAPSULE[0] * size,
                height=2 * CAPSULE[1] * size,
                collisionFrameOrientation=Z_TO_Y,
            ),
            "hull": self._shape(p.GEOM_MESH, vertices=hull_points(size).tolist()),
        }
        self.ids = [
            self._body(DENSITY * heap_volume(k, size), shapes[k], q) for k, q in zip(kinds, centres)
        ]

    def gas(self, n, radius):
        centres, velocities, side = gas_layout(n, radius)
        self._world(0.0)
        for centre, half in gas_walls(side):
            self._material(self._static_box(half, centre), restitution=1.0, lateralFriction=0.0)
        shape = self._shape(p.GEOM_SPHERE, radius=radius)
        self.ids = [self._body(sphere_mass(radius), shape, q) for q in centres]
        for body, v in zip(self.ids, velocities):
            self._material(
                body, restitution=1.0, lateralFriction=0.0, linearDamping=0.0, angularDamping=0.0
            )
            p.resetBaseVelocity(
                body, linearVelocity=tuple(float(c) for c in v), physicsClientId=self.client
            )

    def free_bodies(self, n):
        self._world(0.0)
        shape = self._shape(p.GEOM_SPHERE, radius=0.5)
        self.ids = [
            self._body(1.0, shape, (3.0 * (i % 100), 3.0 * (i // 100), 0.0)) for i in range(n)
        ]

    def _ball(self, radius, pos, restitution):
        body = self._body(sphere_mass(radius), self._shape(p.GEOM_SPHERE, radius=radius), pos)
        self._material(body, restitution=restitution)
        return body

    def _bouncy_floor(self):
        self._world()
        self._material(self._floor(), restitution=1.0)

    def bounce(self, height, radius, restitution):
        self._bouncy_floor()
        self.ids = [self._ball(radius, (0.0, height + radius, 0.0), restitution)]

    def incline(self, angle, friction, half):
        slab, centre, quat = incline_pose(angle, half)
        self._world()
        self._material(self._static_box((5.0, 0.5, 5.0), slab, quat), lateralFriction=1.0)
        box = self._body(
            DENSITY * 8 * half**3, self._shape(p.GEOM_BOX, halfExtents=(half,) * 3), centre, quat
        )
        self._material(box, lateralFriction=friction)
        self.ids = [box]

    def cradle(self, n, radius, gap, speed):
        self._world(0.0)
        self.ids = [self._ball(radius, q, 1.0) for q in cradle_centres(n, radius, gap)]
        p.resetBaseVelocity(
            self.ids[0], linearVelocity=(speed, 0.0, 0.0), physicsClientId=self.client
        )

    def batch(self, n, scene):
        starts = batch_starts(n, scene)
        offsets = [(3.0 * (i % 100), 0.0, 3.0 * (i // 100)) for i in range(n)]
        if scene == "ball":
            self._bouncy_floor()  # one floor under all the balls
            self.ids = [
                self._ball(BATCH_BALL[0], np.add(o, (0.0, h + BATCH_BALL[0], 0.0)), BATCH_BALL[1])
                for o, h in zip(offsets, starts)
            ]
        else:
            self._world()
            shape = self._shape(p.GEOM_SPHERE, radius=BOB)
            self.ids = [
                self._body(sphere_mass(BOB), shape, np.add(o, pendulum_bob(a)))
                for o, a in zip(offsets, starts)
            ]
            for body, o, a in zip(self.ids, offsets, starts):
                p.createConstraint(
                    body,
                    -1,
                    -1,
                    -1,
                    p.JOINT_POINT2POINT,
                    (0, 0, 0),
                    np.subtract(PIVOT, pendulum_bob(a)).tolist(),
                    np.add(o, PIVOT).tolist(),
                    physicsClientId=self.client,
                )
        self.offsets = np.array(offsets)

    def step_batch(self, steps, way):
        self.step(steps)

    def batch_positions(self):
        return self.positions() - self.offsets

    def step(self, steps):
        for _ in range(steps):
            p.stepSimulation(physicsClientId=self.client)

    def positions(self):
        return np.array(
            [p.getBasePositionAndOrientation(i, physicsClientId=self.client)[0] for i in self.ids]
        )

    def velocities(self):
        return np.array([p.getBaseVelocity(i, physicsClientId=self.client)[0] for i in self.ids])

    def export(self):
        states = [p.getBasePositionAndOrientation(i, physicsClientId=self.client) for i in self.ids]
        return np.array([s[0] for s in states]), np.array([s[1] for s in states])
