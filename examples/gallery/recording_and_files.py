"""Recordings and scene files

A ball rolls from rest down a 20 degree ramp while w.record(every=4, ...) samples its state
and energy inside the engine. The energy picture is the theory of rolling without slipping: the
total stays constant while height turns into motion, and the rotational part is 2/5 of the
translational one (I = 2/5 m r^2, v = omega r). The run also goes through files: the recording
is saved with save_npz and read back with rl.Recording.load, and the world saved with w.save
and reloaded with rl.World.load continues exactly as the original does. The picture shows the
energy parts against time from the recording.
"""

import importlib.util
import os
import tempfile

import matplotlib.pyplot as plt
import numpy as np
import rigidlab as rl

th = np.radians(20)
down = np.array([np.cos(th), -np.sin(th), 0])  # down the slope
normal = np.array([np.sin(th), np.cos(th), 0])
w = rl.World()
tilt = rl.Rotation.from_axis_angle((0, 0, 1), -th)
w.add_box((3, 0.1, 0.5), kind="static", orientation=tilt, friction=0.8, name="ramp")
ball = w.add_sphere(0.1, mass=1.0, position=0.2 * normal - 2 * down, friction=0.8, name="ball")

quantities = ["positions", "velocities", "angular_velocities", "energy"]
rec = w.record(every=4, quantities=quantities)
w.run(1.5)
rec.stop()
e = rec.energy
share = e["rotational"][1:] / e["translational"][1:]
drift = np.abs(e["total"] - e["total"][0]).max() / e["total"][0]
print(f"{len(rec)} samples; E_rot / E_tr = {share.min():.12f} to {share.max():.12f} (theory 0.4)")
print(f"total energy kept to {drift:.1e} of itself")
assert np.abs(share - 0.4).max() < 1e-12, f"rolling share off 2/5 by {np.abs(share - 0.4).max()}"
assert drift < 1e-12, f"total energy changed by {drift:.1e} of itself"

if importlib.util.find_spec("pandas"):  # rigidlab's tables need pandas
    table = rec.to_dataframe(long=True)  # one row per sample and body
    print(table[table.body == "ball"][["time", "x", "y", "vx", "vy", "wz"]].tail(3))

folder = tempfile.mkdtemp()
rec.save_npz(os.path.join(folder, "roll.npz"))
back = rl.Recording.load(os.path.join(folder, "roll.npz"))
same_rec = np.array_equal(back.time, rec.time) and all(
    np.array_equal(back.energy[k], e[k]) for k in e
)
same_rec &= all(np.array_equal(getattr(back, q), getattr(rec, q)) for q in quantities[:3])
w.save(os.path.join(folder, "roll.json"))
copy = rl.World.load(os.path.join(folder, "roll.json"))
w.step(120)
copy.step(120)
same_world = np.array_equal(w.positions, copy.positions) and np.array_equal(
    w.angular_velocities, copy.angular_velocities
)
print(f"recording read back equal: {same_rec}; reloaded world continues exactly: {same_world}")
assert same_rec, "the recording read back from the .npz file differs"
assert same_world, "the world reloaded from its scene file went another way"

fig, ax = plt.subplots(figsize=(6, 4))
for key in ("translational", "rotational", "gravitational", "total"):
    ax.plot(rec.time, e[key], label=key)
ax.plot(rec.time, 0.4 * e["translational"], "k:", label="theory: 2/5 of translational")
ax.set(xlabel="time (s)", ylabel="energy (J)", title="A ball rolling down a 20° ramp")
ax.legend()
plt.show()
