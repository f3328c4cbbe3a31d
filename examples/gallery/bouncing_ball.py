"""Bouncing ball

A ball with restitution e = 0.8 is dropped from 1 m onto a floor and left to bounce for 4 s.
Each bounce sends it up at e times its impact speed, so the k-th apex should reach
h_k = e^(2k) h. The picture shows the height of the ball's lowest point against time, the
measured apexes, and the theory's apex levels as dashed lines.
"""

import matplotlib.pyplot as plt
import numpy as np
import rigidlab as rl

e, h, r, g = 0.8, 1.0, 0.05, 9.81
w = rl.World()  # g = 9.81 m/s^2, dt = 1/240 s, velocity Verlet
w.add_plane()
ball = w.add_sphere(r, mass=0.1, position=(0, h + r, 0), restitution=e)

rec = w.record(quantities=["positions", "velocities"])
w.run(4.0)
t = rec.time
y = rec.positions[:, ball.index, 1] - r  # height of the ball's lowest point
vy = rec.velocities[:, ball.index, 1]

# Each apex lies after the last upward sample (y, v): free flight climbs v^2 / 2g more in v / g.
i = np.nonzero((vy[:-1] > 0) & (vy[1:] <= 0))[0][:5]
apex, t_apex = y[i] + vy[i] ** 2 / (2 * g), t[i] + vy[i] / g
k = np.arange(1, len(apex) + 1)
theory = e ** (2 * k) * h
for kk, a, th in zip(k, apex, theory):
    print(f"bounce {kk}: apex {a:.6f} m, theory e^(2k) h = {th:.6f} m")
worst = np.max(np.abs(apex / theory - 1))
print(f"worst relative error {worst:.1e}")
assert len(apex) == 5 and worst < 1e-9, f"apex heights off e^(2k) h by {worst:.2e}"

fig, ax = plt.subplots(figsize=(6, 4))
ax.plot(t, y, lw=1.2, label="rigidlab")
for kk, th in zip(k, theory):
    ax.axhline(th, color="gray", ls="--", lw=0.8, label="theory e$^{2k}$ h" if kk == 1 else None)
ax.plot(t_apex, apex, "o", color="C3", label="measured apex")
ax.set_xlabel("time (s)")
ax.set_ylabel("height of the ball's bottom (m)")
ax.set_title(f"Bouncing ball, e = {e}, dropped from {h:g} m")
ax.legend(loc="upper right")
plt.show()
