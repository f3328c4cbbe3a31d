import numpy as np
import rigidlab as rl

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


class Rigidlab(Engine):
    name = "rigidlab"
    version = rl.__version__
    materials = "restitution and friction given to both bodies (the pair takes their average); static friction = kinetic friction"
    batch_ways = (
        "Python loop: w.step(n) per world",
        "rl.step_many, 1 thread",
        "rl.step_many, all cores",
    )
    serial_ways = batch_ways[:2]
    batch_note = "rl.step_many starts its pool of threads at its first call in a process; the batch builder makes that call (one step of one spare world), so the timings are of stepping alone"
    #: Stage times summed over the sampled steps (see `step`), and how many were sampled; each
    #: step call replaces the dict rather than changing it, so the class's empty one is shared
    #: only until then.
    _stages: dict[str, float] = {}
    _samples = 0

    @staticmethod
    def _bin(side=BIN, height=WALL_HEIGHT):
        w = rl.World(dt=DT)
        w.add_plane()
        for centre, half in bin_walls(side, height):
            w.add_box(half, position=centre, kind="static")
        return w

    def _track(self, bodies):
        """The dynamic bodies whose rows positions() reads."""
        self.bodies = bodies
        self.rows = np.array([b.index for b in bodies])

    def sphere_pile(self, n, radius, side=BIN):
        self.w = self._bin(side)
        self._track(
            [
                self.w.add_sphere(radius, position=tuple(p), density=DENSITY)
                for p in sphere_grid(n, radius, side)
            ]
        )

    def pyramid(self, base, half):
        self.w = rl.World(dt=DT)
        self.w.add_plane()
        self._track(
            [
                self.w.add_box((half,) * 3, position=tuple(p), mass=1.0)
                for p in pyramid_boxes(base, half)
            ]
        )

    def mixed_heap(self, n, size):
        kinds, centres, height = heap_layout(n, size)
        self.w = self._bin(height=height)
        add = {
            "sphere": lambda **kw: self.w.add_sphere(size, **kw),
            "box": lambda **kw: self.w.add_box(tuple(size * f for f in BOX), **kw),
            "capsule": lambda **kw: self.w.add_capsule(CAPSULE[0] * size, CAPSULE[1] * size, **kw),
            "hull": lambda **kw: self.w.add_convex(hull_points(size), **kw),
        }
        self._track(
            [
                add[k](position=tuple(p), mass=DENSITY * heap_volume(k, size))
                for k, p in zip(kinds, centres)
            ]
        )

    def drop(self, kind, n, size, sleeping):
        kinds, centres, quats, height = drop_layout(kind, n, size)
        self.w = self._bin(height=height)
        self.w.sleeping = sleeping
        add = {
            "sphere": lambda **kw: self.w.add_sphere(size, **kw),
            "cube": lambda **kw: self.w.add_box((size,) * 3, **kw),
            "box": lambda **kw: self.w.add_box(tuple(size * f for f in BOX), **kw),
            "capsule": lambda **kw: self.w.add_capsule(CAPSULE[0] * size, CAPSULE[1] * size, **kw),
            "hull": lambda **kw: self.w.add_convex(hull_points(size), **kw),
        }
        self._track(
            [
                add[k](position=tuple(p), orientation=tuple(q), density=DENSITY)
                for k, p, q in zip(kinds, centres, quats)
            ]
        )

    def pyramids(self, count, base, half, sleeping):
        self.w = rl.World(dt=DT, sleeping=sleeping)
        self.w.add_plane()
        self._track(
            [
                self.w.add_box((half,) * 3, position=tuple(p), mass=1.0)
                for p in pyramid_rows(count, base, half)
            ]
        )

    def chains(self, count, links, sleeping):
        anchors, centres = chain_layout(count, links)
        self.w = rl.World(dt=DT, sleeping=sleeping)
        bodies = []
        for anchor, row in zip(anchors, centres):
            previous, joint = None, anchor
            for c in row:
                link = self.w.add_sphere(CHAIN_LINK, position=tuple(c), density=DENSITY)
                self.w.add_ball_joint(link, previous, anchor=tuple(joint))
                bodies.append(link)
                previous, joint = link, c
        self._track(bodies)

    def gas(self, n, radius):
        centres, velocities, side = gas_layout(n, radius)
        self.w = rl.World(gravity=(0, 0, 0), dt=DT)
        for centre, half in gas_walls(side):
            self.w.add_box(half, position=centre, kind="static", restitution=1.0, friction=0.0)
        self._track(
            [
                self.w.add_sphere(
                    radius,
                    position=tuple(q),
                    velocity=tuple(v),
                    density=DENSITY,
                    restitution=1.0,
                    friction=0.0,
                )
                for q, v in zip(centres, velocities)
            ]
        )

    def free_bodies(self, n):
        self.w = rl.World(gravity=(0, 0, 0), dt=DT)
        self._track(
            [
                self.w.add_sphere(0.5, position=(3.0 * (i % 100), 3.0 * (i // 100), 0.0))
                for i in range(n)
            ]
        )

    @staticmethod
    def _bounce_world(height, radius, restitution):
        w = rl.World(dt=DT)
        w.add_plane(restitution=restitution)
        ball = w.add_sphere(
            radius, position=(0.0, height + radius, 0.0), density=DENSITY, restitution=restitution
        )
        return w, ball

    def bounce(self, height, radius, restitution):
        self.w, ball = self._bounce_world(height, radius, restitution)
        self._track([ball])

    def incline(self, angle, friction, half):
        slab, centre, quat = incline_pose(angle, half)
        self.w = rl.World(dt=DT)
        self.w.add_box(
            (5.0, 0.5, 5.0),
            position=tuple(slab),
            orientation=tuple(quat),
            kind="static",
            friction=friction,
        )
        self._track(
            [
                self.w.add_box(
                    (half,) * 3,
                    position=tuple(centre),
                    orientation=tuple(quat),
                    density=DENSITY,
                    friction=friction,
                )
            ]
        )

    def cradle(self, n, radius, gap, speed):
        self.w = rl.World(gravity=(0, 0, 0), dt=DT)
        self._track(
            [
                self.w.add_sphere(radius, position=tuple(p), density=DENSITY, restitution=1.0)
                for p in cradle_centres(n, radius, gap)
            ]
        )
        self.bodies[0].velocity = (speed, 0.0, 0.0)

    @staticmethod
    def _pendulum_world(angle):
        w = rl.World(dt=DT)
        bob = w.add_sphere(BOB, position=pendulum_bob(angle), density=DENSITY)
        w.add_distance_joint(bob, None, anchor_b=PIVOT)
        return w, bob

    def batch(self, n, scene):
        made = [
            self._bounce_world(s, *BATCH_BALL) if scene == "ball" else self._pendulum_world(s)
            for s in batch_starts(n, scene)
        ]
        self.worlds = [w for w, _ in made]
        self.batch_rows = [b.index for _, b in made]
        rl.step_many([self._bounce_world(1.0, *BATCH_BALL)[0]], 1)

    def step_batch(self, steps, way):
        if way == self.batch_ways[0]:
            for w in self.worlds:
                w.step(steps)
        else:
            rl.step_many(self.worlds, steps, threads=1 if way == self.batch_ways[1] else None)

    def batch_positions(self):
        return np.array([w.positions[i] for w, i in zip(self.worlds, self.batch_rows)])

    def sleep(self, on):
        """Lets bodies at rest fall asleep, or keeps every body awake."""
        self.w.sleeping = on

    def step(self, steps):
        self.w.step(steps)
        # The world reports the stages of its last step: the last of each call is a sample of
        # them (the benchmarks step in chunks of 10).
        sample = self.w.step_times | {f"solve.{k}": v for k, v in self.w.solve_times.items()}
        self._stages = {k: self._stages.get(k, 0.0) + v for k, v in sample.items()}
        self._samples += 1

    def stage_times(self):
        return {k: v / self._samples for k, v in self._stages.items()} if self._samples else None

    def positions(self):
        return self.w.positions[self.rows]

    def velocities(self):
        return self.w.velocities[self.rows]

    def export(self):
        return self.w.positions, self.w.orientations


class RigidlabOneThread(Rigidlab):
    """rigidlab with every world kept on the calling thread (`w.threads = 1`): by default a
    world finds the contacts of a scene of many 3D polyhedra on all cores."""

    name = "rigidlab 1 thread"

    def step(self, steps):
        self.w.threads = 1
        super().step(steps)


Rigidlab.one_thread = RigidlabOneThread
