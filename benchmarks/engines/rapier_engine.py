import math

import numpy as np
import rapier3d as r

from .base import (
    BATCH_BALL,
    BIN,
    BOB,
    BOX,
    CAPSULE,
    CHAIN_LINK,
    DENSITY,
    DT,
    PIVOT,
    WALL_HEIGHT,
    Engine,
    G,
    batch_starts,
    bin_walls,
    chain_layout,
    cradle_centres,
    drop_layout,
    gas_layout,
    gas_walls,
    heap_layout,
    heap_volume,
    hull_points,
    incline_pose,
    pendulum_bob,
    pyramid_boxes,
    pyramid_rows,
    sphere_grid,
)


def scaled_axis(quat) -> tuple[float, float, float]:
    """An x y z w quaternion as the rotation vector (axis times angle) Rapier's builders take."""
    v = np.asarray(quat[:3], dtype=float)
    s = float(np.linalg.norm(v))
    return (0.0, 0.0, 0.0) if s == 0.0 else tuple(v / s * 2.0 * math.atan2(s, quat[3]))


class Rapier(Engine):
    name = "rapier"
    version = getattr(r, "__version__", "?")
    materials = "the same value on both colliders (Rapier's default combine rule is the average); one friction coefficient"
    batch_ways = ("loop over PhysicsWorld objects",)
    batch_note = "each world keeps the default thread pool (rayon's, shared): giving each world set_num_threads(1) made the loop 3 to 6 times slower"
    pendulum = "spherical joint to a fixed body at the pivot (a rigid rod)"

    def _world(self, gravity=-G):
        self.w = r.PhysicsWorld(gravity=(0.0, gravity, 0.0))
        self.w.integration_parameters.dt = DT

    def _floor(self, **material):
        self.w.add_collider(
            r.Collider.cuboid(50.0, 0.5, 50.0, translation=(0.0, -0.5, 0.0), **material)
        )

    def _bin(self, side=BIN, height=WALL_HEIGHT):
        self._world()
        self._floor()
        for centre, half in bin_walls(side, height):
            self.w.add_collider(r.Collider.cuboid(*half, translation=centre))

    def _add(self, collider, pos, **body):
        return self.w.add_body(
            r.RigidBody.dynamic(translation=tuple(float(c) for c in pos), **body),
            colliders=[collider],
        )

    def sphere_pile(self, n, radius, side=BIN):
        self._bin(side)
        self.handles = [
            self._add(r.Collider.ball(radius, density=DENSITY), q)
            for q in sphere_grid(n, radius, side)
        ]

    def pyramid(self, base, half):
        self._world()
        self._floor()
        self.handles = [
            self._add(r.Collider.cuboid(half, half, half, mass=1.0), q)
            for q in pyramid_boxes(base, half)
        ]

    def mixed_heap(self, n, size):
        kinds, centres, height = heap_layout(n, size)
        self._bin(height=height)
        shape = {
            "sphere": lambda **kw: r.Collider.ball(size, **kw),
            "box": lambda **kw: r.Collider.cuboid(*(size * f for f in BOX), **kw),
            "capsule": lambda **kw: r.Collider.capsule_y(
                CAPSULE[1] * size, CAPSULE[0] * size, **kw
            ),
            "hull": lambda **kw: r.Collider.convex_hull(hull_points(size), **kw),
        }
        self.handles = [
            self._add(shape[k](mass=DENSITY * heap_volume(k, size)), q)
            for k, q in zip(kinds, centres)
        ]

    def drop(self, kind, n, size, sleeping):
        kinds, centres, quats, height = drop_layout(kind, n, size)
        self._bin(height=height)
        shape = {
            "sphere": lambda **kw: r.Collider.ball(size, **kw),
            "cube": lambda **kw: r.Collider.cuboid(size, size, size, **kw),
            "box": lambda **kw: r.Collider.cuboid(*(size * f for f in BOX), **kw),
            "capsule": lambda **kw: r.Collider.capsule_y(
                CAPSULE[1] * size, CAPSULE[0] * size, **kw
            ),
            "hull": lambda **kw: r.Collider.convex_hull(hull_points(size), **kw),
        }
        self.handles = [
            self._add(shape[k](density=DENSITY), p, rotation=scaled_axis(q), can_sleep=sleeping)
            for k, p, q in zip(kinds, centres, quats)
        ]

    def pyramids(self, count, base, half, sleeping):
        self._world()
        self._floor()
        self.handles = [
            self._add(r.Collider.cuboid(half, half, half, mass=1.0), q, can_sleep=sleeping)
            for q in pyramid_rows(count, base, half)
        ]

    def chains(self, count, links, sleeping):
        anchors, centres = chain_layout(count, links)
        self._world()
        self.handles = []
        for anchor, row in zip(anchors, centres):
            previous = self.w.add_body(r.RigidBody.fixed(translation=tuple(anchor)))
            joint = anchor
            for c in row:
                link = self._add(
                    r.Collider.ball(CHAIN_LINK, density=DENSITY), c, can_sleep=sleeping
                )
                here = self.w.rigid_bodies.get(previous).translation
                self.w.impulse_joints.insert(
                    previous,
                    link,
                    r.SphericalJointBuilder()
                    .local_anchor1(tuple(np.subtract(joint, tuple(here))))
                    .local_anchor2(tuple(np.subtract(joint, c))),
                )
                self.handles.append(link)
                previous, joint = link, c

    def gas(self, n, radius):
        centres, velocities, side = gas_layout(n, radius)
        self._world(0.0)
        for centre, half in gas_walls(side):
            self.w.add_collider(
                r.Collider.cuboid(*half, translation=centre, restitution=1.0, friction=0.0)
            )
        self.handles = [
            self._add(
                r.Collider.ball(radius, density=DENSITY, restitution=1.0, friction=0.0),
                q,
                linvel=tuple(float(c) for c in v),
            )
            for q, v in zip(centres, velocities)
        ]

    def free_bodies(self, n):
        self._world(0.0)
        self.handles = [
            self._add(r.Collider.ball(0.5), (3.0 * (i % 100), 3.0 * (i // 100), 0.0))
            for i in range(n)
        ]

    def _bounce_world(self, height, radius, restitution):
        self._world()
        self._floor(restitution=restitution)
        return self._add(
            r.Collider.ball(radius, density=DENSITY, restitution=restitution),
            (0.0, height + radius, 0.0),
        )

    def bounce(self, height, radius, restitution):
        self.handles = [self._bounce_world(height, radius, restitution)]

    def incline(self, angle, friction, half):
        slab, centre, quat = incline_pose(angle, half)
        self._world()
        self.w.add_collider(
            r.Collider.cuboid(
                5.0,
                0.5,
                5.0,
                translation=tuple(slab),
                rotation=scaled_axis(quat),
                friction=friction,
            )
        )
        self.handles = [
            self._add(
                r.Collider.cuboid(half, half, half, density=DENSITY, friction=friction),
                centre,
                rotation=scaled_axis(quat),
            )
        ]

    def cradle(self, n, radius, gap, speed):
        self._world(0.0)
        self.handles = [
            self._add(
                r.Collider.ball(radius, density=DENSITY, restitution=1.0),
                q,
                linvel=(speed if i == 0 else 0.0, 0.0, 0.0),
            )
            for i, q in enumerate(cradle_centres(n, radius, gap))
        ]

    def _pendulum_world(self, angle):
        self._world()
        pivot = self.w.add_body(r.RigidBody.fixed(translation=PIVOT))
        bob = self._add(r.Collider.ball(BOB, density=DENSITY), pendulum_bob(angle))
        self.w.impulse_joints.insert(
            pivot,
            bob,
            r.SphericalJointBuilder().local_anchor2(tuple(np.subtract(PIVOT, pendulum_bob(angle)))),
        )
        return bob

    def batch(self, n, scene):
        self.batch_worlds, self.batch_handles = [], []
        for s in batch_starts(n, scene):
            handle = (
                self._bounce_world(s, *BATCH_BALL) if scene == "ball" else self._pendulum_world(s)
            )
            self.batch_worlds.append(self.w)
            self.batch_handles.append(handle)

    def step_batch(self, steps, way):
        for w in self.batch_worlds:
            for _ in range(steps):
                w.step()

    def batch_positions(self):
        return np.array(
            [
                tuple(w.rigid_bodies.get(h).translation)
                for w, h in zip(self.batch_worlds, self.batch_handles)
            ],
            dtype=float,
        )

    def step(self, steps):
        for _ in range(steps):
            self.w.step()

    def _bodies(self):
        bodies = self.w.rigid_bodies
        return [bodies.get(h) for h in self.handles]

    def positions(self):
        return np.array([tuple(b.translation) for b in self._bodies()], dtype=float)

    def velocities(self):
        return np.array([tuple(b.linvel) for b in self._bodies()], dtype=float)

    def export(self):
        bodies = self._bodies()
        pos = np.array([tuple(b.translation) for b in bodies], dtype=float)
        rot = np.array([(q.i, q.j, q.k, q.w) for q in (b.rotation for b in bodies)], dtype=float)
        return pos, rot


class RapierOneThread(Rapier):
    name = "rapier 1 thread"

    def _world(self, gravity=-G):
        super()._world(gravity)
        self.w.set_num_threads(1)


Rapier.one_thread = RapierOneThread
