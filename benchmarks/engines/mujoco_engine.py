import math
import os

import mujoco
import numpy as np
from mujoco import rollout

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

#: MuJoCo's default contact time constant (s), the time scale of the contact springs below.
TIMECONST = 0.02
#: The state mujoco.rollout starts from and returns.
STATE = mujoco.mjtState.mjSTATE_FULLPHYSICS


def contact_spring(restitution: float) -> str:
    """MuJoCo has no restitution coefficient: a contact is a damped spring. Its solref in the
    direct form (-stiffness, -damping), mass-normalised, with the stiffness of MuJoCo's default
    time constant and the damping ratio zeta that makes a linear spring-damper rebound with
    `restitution` (e = exp(-pi zeta / sqrt(1 - zeta^2)))."""
    log_e = math.log(restitution)
    zeta = abs(log_e) / math.sqrt(math.pi**2 + log_e**2)
    return f"-{1 / TIMECONST**2:.6g} -{2 * zeta / TIMECONST:.6g}"


class MuJoCo(Engine):
    name = "mujoco"
    version = mujoco.__version__
    materials = (
        "the same value on every geom (friction combines by max, solref by average); one friction coefficient; restitution only approximated: "
        f"a contact spring-damper, solref = (-1/{TIMECONST}^2, -2 zeta/{TIMECONST}) with zeta from e (contact_spring in engines/mujoco_engine.py)"
    )
    batch_ways = (
        "mj_step per world (one model, n MjData)",
        "mujoco.rollout, 1 thread",
        "mujoco.rollout, all cores",
    )
    serial_ways = batch_ways[:2]
    pendulum = "ball joint at the pivot, the bob a geom 1 m below it (a rigid rod)"

    def _load(self, bodies: str, statics: str, gravity=-G, defaults: str = "", assets: str = ""):
        xml = f"""<mujoco><option timestep="{DT}" gravity="0 0 {gravity}"/>
        <size memory="2G"/><default>{defaults}</default><asset>{assets}</asset>
        <worldbody>{statics}{bodies}</worldbody></mujoco>"""
        self.model = mujoco.MjModel.from_xml_string(xml)
        self.data = mujoco.MjData(self.model)
        mujoco.mj_forward(self.model, self.data)  # body poses are computed, not stored

    # MuJoCo is z-up: scenes are built with y and z swapped, and read back swapped. The swap is a
    # reflection, so a rotation keeps its angle and turns about the swapped axis the other way.
    @staticmethod
    def _zup(q):
        return f"{q[0]} {q[2]} {q[1]}"

    @staticmethod
    def _zup_wxyz(q):
        """An x y z w quaternion of the scene as MuJoCo's w x y z in its frame."""
        return np.array([q[3], -q[0], -q[2], -q[1]], dtype=float)

    @classmethod
    def _zup_quat(cls, q):
        return " ".join(map(str, cls._zup_wxyz(q)))

    @staticmethod
    def _yup(xyz):
        return np.stack([xyz[:, 0], xyz[:, 2], xyz[:, 1]], axis=1)

    def _box(self, half, centre, extra=""):
        return f'<geom type="box" size="{self._zup(half)}" pos="{self._zup(centre)}" {extra}/>'

    def _floor(self):
        return '<geom type="plane" size="50 50 1"/>'

    def _bin(self, side=BIN, height=WALL_HEIGHT):
        return self._floor() + "".join(
            self._box(half, centre) for centre, half in bin_walls(side, height)
        )

    def _free(self, pos, geom, quat=None):
        orientation = f' quat="{self._zup_quat(quat)}"' if quat is not None else ""
        return f'<body pos="{self._zup(pos)}"{orientation}><freejoint/>{geom}</body>'

    def sphere_pile(self, n, radius, side=BIN):
        bodies = "".join(
            self._free(q, f'<geom type="sphere" size="{radius}" density="{DENSITY}"/>')
            for q in sphere_grid(n, radius, side)
        )
        self._load(bodies, self._bin(side))

    def pyramid(self, base, half):
        bodies = "".join(
            self._free(q, f'<geom type="box" size="{half} {half} {half}" mass="1"/>')
            for q in pyramid_boxes(base, half)
        )
        self._load(bodies, self._floor())

    def mixed_heap(self, n, size):
        kinds, centres, height = heap_layout(n, size)
        geoms = {
            "sphere": f'type="sphere" size="{size}"',
            "box": f'type="box" size="{self._zup([size * f for f in BOX])}"',
            "capsule": f'type="capsule" size="{CAPSULE[0] * size} {CAPSULE[1] * size}"',  # along z: up
            "hull": 'type="mesh" mesh="hull"',  # collides as the convex hull of its vertices
        }
        hull = " ".join(self._zup(q) for q in hull_points(size))
        bodies = "".join(
            self._free(q, f'<geom {geoms[k]} mass="{DENSITY * heap_volume(k, size)}"/>')
            for k, q in zip(kinds, centres)
        )
        self._load(bodies, self._bin(height=height), assets=f'<mesh name="hull" vertex="{hull}"/>')

    def gas(self, n, radius):
        centres, velocities, side = gas_layout(n, radius)
        walls = "".join(self._box(half, centre) for centre, half in gas_walls(side))
        self._load(
            "".join(self._ball(radius, q) for q in centres),
            walls,
            gravity=0.0,
            defaults=f'<geom solref="{contact_spring(1.0)}" friction="0 0 0"/>',
        )
        for i, v in enumerate(velocities):
            self.data.qvel[6 * i : 6 * i + 3] = (
                v[0],
                v[2],
                v[1],
            )  # a free joint's linear velocity, world frame, z up
        mujoco.mj_forward(self.model, self.data)

    def free_bodies(self, n):
        bodies = "".join(
            f'<body pos="{3.0 * (i % 100)} 0 {3.0 * (i // 100)}"><freejoint/><geom type="sphere" size="0.5"/></body>'
            for i in range(n)
        )
        self._load(bodies, "", gravity=0.0)

    def _ball(self, radius, pos):
        return self._free(pos, f'<geom type="sphere" size="{radius}" density="{DENSITY}"/>')

    def bounce(self, height, radius, restitution):
        self._load(
            self._ball(radius, (0.0, height + radius, 0.0)),
            self._floor(),
            defaults=f'<geom solref="{contact_spring(restitution)}"/>',
        )

    def incline(self, angle, friction, half):
        slab, centre, quat = incline_pose(angle, half)
        box = self._free(
            centre, f'<geom type="box" size="{half} {half} {half}" density="{DENSITY}"/>', quat
        )
        self._load(
            box,
            self._box((5.0, 0.5, 5.0), slab, f'quat="{self._zup_quat(quat)}"'),
            defaults=f'<geom friction="{friction} 0.005 0.0001"/>',
        )

    def cradle(self, n, radius, gap, speed):
        self._load(
            "".join(self._ball(radius, q) for q in cradle_centres(n, radius, gap)),
            "",
            gravity=0.0,
            defaults=f'<geom solref="{contact_spring(1.0)}"/>',
        )
        self.data.qvel[0] = speed
        mujoco.mj_forward(self.model, self.data)

    def batch(self, n, scene):
        starts = batch_starts(n, scene)
        if scene == "ball":
            self.bounce(starts[0], *BATCH_BALL)
        else:
            bob = f'<geom type="sphere" size="{BOB}" density="{DENSITY}" pos="0 0 {-math.dist(PIVOT, pendulum_bob(0.0))}"/>'
            self._load(f'<body pos="{self._zup(PIVOT)}"><joint type="ball"/>{bob}</body>', "")
        self.batch_data = []
        for s in starts:
            d = mujoco.MjData(self.model)
            if scene == "ball":
                d.qpos[2] = s + BATCH_BALL[0]
            else:
                d.qpos[:4] = self._zup_wxyz((0.0, 0.0, math.sin(s / 2), math.cos(s / 2)))
            mujoco.mj_forward(self.model, d)
            self.batch_data.append(d)

    def step_batch(self, steps, way):
        if way == self.batch_ways[0]:
            for d in self.batch_data:
                mujoco.mj_step(self.model, d, nstep=steps)
            return
        states = np.empty((len(self.batch_data), mujoco.mj_stateSize(self.model, STATE)))
        for d, s in zip(self.batch_data, states):
            mujoco.mj_getState(self.model, d, s, STATE)
        threads = 1 if way == self.batch_ways[1] else os.cpu_count()
        out, _ = rollout.rollout(
            self.model, self.batch_data[:threads], initial_state=states, nstep=steps
        )
        for d, s in zip(self.batch_data, out[:, -1]):
            mujoco.mj_setState(self.model, d, s, STATE)

    def batch_positions(self):
        for d in self.batch_data:
            mujoco.mj_kinematics(self.model, d)
        return self._yup(np.array([d.geom_xpos[-1] for d in self.batch_data]))

    def step(self, steps):
        mujoco.mj_step(self.model, self.data, nstep=steps)

    def positions(self):
        return self._yup(self.data.xpos[1:])

    def velocities(self):
        v = np.empty(6)
        out = []
        for body in range(1, self.model.nbody):
            mujoco.mj_objectVelocity(self.model, self.data, mujoco.mjtObj.mjOBJ_BODY, body, v, 0)
            out.append(v[3:].copy())  # rotational first, then linear
        return self._yup(np.array(out))

    def export(self):
        # MuJoCo keeps quaternions w x y z; reorder to x y z w as the others.
        q = self.data.xquat[1:]
        return self.positions(), np.concatenate([q[:, 1:], q[:, :1]], axis=1)
