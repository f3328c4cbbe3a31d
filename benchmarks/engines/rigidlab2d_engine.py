import math

import numpy as np
import rigidlab as rl

from .base import (
    BIN,
    BOB,
    BOX,
    CAPSULE,
    DENSITY,
    DT,
    PIVOT,
    WALL_HEIGHT,
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
from .rigidlab_engine import Rigidlab


class Rigidlab2D(Rigidlab):
    """rigidlab's 2D worlds (rl.World2D) on the scenes pymunk runs: the same discs, squares,
    rectangles, capsules and polygons in the same 2D bins, masses from areas (DENSITY per m^2).
    Stepping and batches are the 3D adapter's (step_many takes 2D worlds alike)."""

    name = "rigidlab 2D"
    dims = "2d"
    # Its one-thread variant (`Rigidlab2DOneThread`) runs in the 2D section only: the 3D
    # sections' scenes are not its.
    one_thread = None

    def _bin(self, side=BIN, height=WALL_HEIGHT, gravity=True):
        self.w = rl.World2D(dt=DT) if gravity else rl.World2D(gravity=(0, 0), dt=DT)
        self.w.add_segment((-50, 0), (50, 0))
        self.w.add_segment((-side / 2, 0), (-side / 2, height))
        self.w.add_segment((side / 2, 0), (side / 2, height))

    def sphere_pile(self, n, radius, side=BIN):
        self._bin(side)
        self._track(
            [
                self.w.add_circle(radius, position=tuple(q[:2]), density=DENSITY)
                for q in sphere_grid(n, radius, side, dims=self.dims)
            ]
        )

    def pyramid(self, base, half):
        self.w = rl.World2D(dt=DT)
        self.w.add_segment((-50, 0), (50, 0))
        self._track(
            [
                self.w.add_box((half, half), position=tuple(q[:2]), mass=1.0)
                for q in pyramid_boxes(base, half)
            ]
        )

    def _adders(self, size):
        """How each kind of body of the heap and the drops is added, in this world."""
        hull = _convex_outline(hull_points(size)[:, :2])
        return {
            "sphere": lambda **kw: self.w.add_circle(size, **kw),
            "cube": lambda **kw: self.w.add_box((size, size), **kw),
            "box": lambda **kw: self.w.add_box((BOX[0] * size, BOX[1] * size), **kw),
            "capsule": lambda **kw: self.w.add_capsule(CAPSULE[0] * size, CAPSULE[1] * size, **kw),
            "hull": lambda **kw: self.w.add_polygon(hull, **kw),
        }

    def mixed_heap(self, n, size):
        kinds, centres, height = heap_layout(n, size, self.dims)
        self._bin(height=height)
        add = self._adders(size)
        self._track(
            [add[k](position=tuple(q[:2]), density=DENSITY) for k, q in zip(kinds, centres)]
        )

    def drop(self, kind, n, size, sleeping):
        kinds, centres, angles, height = drop_layout(kind, n, size, dims=self.dims)
        self._bin(height=height)
        self.w.sleeping = sleeping
        add = self._adders(size)
        self._track(
            [
                add[k](position=tuple(q[:2]), angle=float(a), density=DENSITY)
                for k, q, a in zip(kinds, centres, angles)
            ]
        )

    def gas(self, n, radius):
        centres, velocities, side = gas_layout(n, radius, dims="2d")
        self.w = rl.World2D(gravity=(0, 0), dt=DT)
        h = side / 2
        for a, b in [
            ((-h, -h), (h, -h)),
            ((h, -h), (h, h)),
            ((h, h), (-h, h)),
            ((-h, h), (-h, -h)),
        ]:
            self.w.add_segment(a, b, restitution=1.0, friction=0.0)
        self._track(
            [
                self.w.add_circle(
                    radius,
                    position=tuple(q[:2]),
                    velocity=tuple(v[:2]),
                    density=DENSITY,
                    restitution=1.0,
                    friction=0.0,
                )
                for q, v in zip(centres, velocities)
            ]
        )

    def free_bodies(self, n):
        self.w = rl.World2D(gravity=(0, 0), dt=DT)
        self._track(
            [self.w.add_circle(0.5, position=(3.0 * (i % 100), 3.0 * (i // 100))) for i in range(n)]
        )

    @staticmethod
    def _bounce_world(height, radius, restitution):
        w = rl.World2D(dt=DT)
        w.add_ground(restitution=restitution)
        ball = w.add_circle(
            radius, position=(0.0, height + radius), density=DENSITY, restitution=restitution
        )
        return w, ball

    def bounce(self, height, radius, restitution):
        self.w, ball = self._bounce_world(height, radius, restitution)
        self._track([ball])

    def incline(self, angle, friction, half):
        _, centre, _ = incline_pose(angle, half)
        self.w = rl.World2D(dt=DT)
        along = 5.0 * np.array([math.cos(angle), math.sin(angle)])
        self.w.add_segment(tuple(-along), tuple(along), friction=friction)
        self._track(
            [
                self.w.add_box(
                    (half, half),
                    position=tuple(centre[:2]),
                    angle=angle,
                    density=DENSITY,
                    friction=friction,
                )
            ]
        )

    def cradle(self, n, radius, gap, speed):
        self.w = rl.World2D(gravity=(0, 0), dt=DT)
        self._track(
            [
                self.w.add_circle(radius, position=tuple(q[:2]), density=DENSITY, restitution=1.0)
                for q in cradle_centres(n, radius, gap)
            ]
        )
        self.bodies[0].velocity = (speed, 0.0)

    @staticmethod
    def _pendulum_world(angle):
        w = rl.World2D(dt=DT)
        bob = w.add_circle(BOB, position=tuple(pendulum_bob(angle)[:2]), density=DENSITY)
        w.add_distance_joint(bob, None, anchor_b=PIVOT[:2])
        return w, bob

    def batch_positions(self):
        return np.array([(*w.positions[i], 0.0) for w, i in zip(self.worlds, self.batch_rows)])

    def positions(self):
        return _lift(self.w.positions[self.rows])

    def velocities(self):
        return _lift(self.w.velocities[self.rows])

    def export(self):
        pos = _lift(self.w.positions)
        angle = self.w.angles
        q = np.zeros((len(angle), 4))
        q[:, 2] = np.sin(angle / 2)
        q[:, 3] = np.cos(angle / 2)
        return pos, q


def _lift(xy):
    return np.column_stack([xy, np.zeros(len(xy))])


class Rigidlab2DOneThread(Rigidlab2D):
    """rigidlab's 2D worlds kept on the calling thread (`w.threads = 1`): by default a 2D world
    of 1 024 contacts or more splits its contact solver's sweeps and position correction's
    passes over all cores."""

    name = "rigidlab 2D 1 thread"

    def step(self, steps):
        self.w.threads = 1
        super().step(steps)


def _convex_outline(points):
    """The convex hull of 2D points, counter-clockwise (what pymunk.Poly makes of the same)."""
    pts = sorted(map(tuple, points))

    def half(seq):
        out = []
        for p in seq:
            while (
                len(out) >= 2
                and (out[-1][0] - out[-2][0]) * (p[1] - out[-2][1])
                - (out[-1][1] - out[-2][1]) * (p[0] - out[-2][0])
                <= 0
            ):
                out.pop()
            out.append(p)
        return out

    lower, upper = half(pts), half(reversed(pts))
    return lower[:-1] + upper[:-1]
