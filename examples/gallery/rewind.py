"""Rewinding a bouncing ball

A world made with history=2.0 keeps snapshots of its last 2 s, and w.rewind(seconds) takes it
back onto the state it had then, contacts and all. A ball thrown sideways bounces on a floor
(restitution 0.8, friction 0.3) for 2 s; we rewind 1 s and run that second again. The run is
deterministic, so the second pass must land bit for bit on the first: every position and
velocity equal, not just close. The picture overlays both passes with the rewind point marked.
"""

import matplotlib.pyplot as plt
import numpy as np
import rigidlab as rl

w = rl.World(history=2.0)
w.add_plane(restitution=0.8, friction=0.3)
ball = w.add_sphere(0.1, position=(0, 0.8, 0), velocity=(0.8, 0, 0), restitution=0.8)
quantities = ["positions", "velocities", "angular_velocities"]

first = w.record(quantities=quantities)
w.run(2.0)
first.stop()  # a recording left running would record the rewind's steps again
w.rewind(1.0)
t_rewind = w.time
second = w.record(quantities=quantities)
w.run(1.0)

later = first.time >= t_rewind  # the part of the first pass that the second repeats
same_time = np.array_equal(first.time[later], second.time)
same = all(np.array_equal(getattr(first, q)[later], getattr(second, q)) for q in quantities)
vy = first.velocities[:, ball.index, 1]
bounces = first.time[1:][(vy[:-1] < 0) & (vy[1:] > 0)]
print(f"rewound from 2.0 s to {t_rewind:.4f} s; bounces at {np.round(bounces, 3)} s")
print(f"second pass: {len(second)} samples, equal bit for bit to the first: {same_time and same}")
assert same_time and same, "the re-run after rewind differs from the first pass"

fig, ax = plt.subplots(figsize=(6, 4))
row = ball.index
ax.plot(first.time, first.positions[:, row, 1], lw=3, alpha=0.4, label="first pass, 0 to 2 s")
ax.plot(second.time, second.positions[:, row, 1], "k--", lw=1, label="after rewind(1.0)")
ax.axvline(t_rewind, color="tab:red", ls=":", label=f"rewound to t = {t_rewind:.2f} s")
ax.set(xlabel="time (s)", ylabel="height of the ball's centre (m)", title="Rewind and re-run")
ax.legend()
plt.show()
