import mujoco
import numpy as np

from .base import BIN, DT, G, WALL, Engine, pyramid_boxes, sphere_grid


class MuJoCo(Engine):
    name = "mujoco"
    version = mujoco.__version__

    def _load(self, bodies: str, statics: str, gravity=-G):
        xml = f"""<mujoco><option timestep="{DT}" gravity="0 0 {gravity}"/>
        <size memory="2G"/>
        <worldbody>{statics}{bodies}</worldbody></mujoco>"""
        self.model = mujoco.MjModel.from_xml_string(xml)
        self.data = mujoco.MjData(self.model)
        mujoco.mj_forward(self.model, self.data)  # body poses are computed, not stored

    # MuJoCo is z-up: scenes are built with y and z swapped, and read back swapped.
    @staticmethod
    def _zup(q):
        return f"{q[0]} {q[2]} {q[1]}"

    def sphere_pile(self, n, radius):
        walls = "".join(f'<geom type="box" size="{hx} {hz} 2" pos="{x} {z} 2"/>' for x, z, hx, hz in [(BIN / 2 + WALL, 0, WALL, BIN / 2), (-BIN / 2 - WALL, 0, WALL, BIN / 2), (0, BIN / 2 + WALL, BIN / 2 + 2 * WALL, WALL), (0, -BIN / 2 - WALL, BIN / 2 + 2 * WALL, WALL)])
        statics = '<geom type="plane" size="50 50 1"/>' + walls
        bodies = "".join(f'<body pos="{self._zup(q)}"><freejoint/><geom type="sphere" size="{radius}" density="1000"/></body>' for q in sphere_grid(n, radius))
        self._load(bodies, statics)

    def pyramid(self, base, half):
        bodies = "".join(f'<body pos="{self._zup(q)}"><freejoint/><geom type="box" size="{half} {half} {half}" mass="1"/></body>' for q in pyramid_boxes(base, half))
        self._load(bodies, '<geom type="plane" size="50 50 1"/>')

    def free_bodies(self, n):
        bodies = "".join(f'<body pos="{3.0 * (i % 100)} 0 {3.0 * (i // 100)}"><freejoint/><geom type="sphere" size="0.5"/></body>' for i in range(n))
        self._load(bodies, "", gravity=0.0)

    def step(self, steps):
        mujoco.mj_step(self.model, self.data, nstep=steps)

    def positions(self):
        xyz = self.data.xpos[1:]
        return np.stack([xyz[:, 0], xyz[:, 2], xyz[:, 1]], axis=1)

    def export(self):
        # MuJoCo keeps quaternions w x y z; reorder to x y z w as the others.
        q = self.data.xquat[1:]
        return self.positions(), np.concatenate([q[:, 1:], q[:, :1]], axis=1)
