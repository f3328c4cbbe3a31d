"""Photogate

Two photogates (thin sensor slabs, 1 mm thick) 0.5 m apart time a 2 cm ball falling from rest,
stepped at dt = 1/60 s. With d1, d2 the falls to each gate's upper face and t1, t2 the times the
ball enters them, free fall gives g = 2 (d2 - d1) / (t2^2 - t1^2), to compare with 9.81 m/s^2.
The picture shows the ball's height at each step on the free-fall curve, the two gates, and
the entry times they report, which fall between the steps.
"""

import matplotlib.pyplot as plt
import numpy as np
import rigidlab as rl
from rigidlab.experiments import photogate

r, top, g = 0.02, 1.0, 9.81
w = rl.World(dt=1 / 60)  # a coarse step: the gates still time the ball within it
ball = w.add_sphere(r, position=(0, top, 0))
gate_heights = (0.8, 0.3)
upper, lower = (photogate(w, (0, y, 0), thickness=1e-3) for y in gate_heights)
rec = w.record(quantities=["positions"])
w.run(0.45)

(t1,), _ = upper.times(ball)  # when the ball entered each gate
(t2,), _ = lower.times(ball)
d1, d2 = (top - r - (y + 0.0005) for y in gate_heights)  # fall to each gate's upper face
g_measured = 2 * (d2 - d1) / (t2**2 - t1**2)
(v2,) = lower.speeds(2 * r, ball, acceleration=g_measured)  # when the centre crosses its centre
v2_theory = np.sqrt(2 * g * (top - gate_heights[1]))
print(f"t1 = {t1:.6f} s, t2 = {t2:.6f} s (steps of {w.dt:.4f} s)")
print(f"g measured {g_measured:.9f} m/s^2, set 9.81 m/s^2")
print(f"speed at the lower gate {v2:.6f} m/s, theory sqrt(2 g h) = {v2_theory:.6f} m/s")
assert abs(g_measured - g) < 1e-9 * g, f"g from the gates: {g_measured}"
assert abs(v2 - v2_theory) < 1e-9 * v2_theory, f"speed through the lower gate: {v2}"

fig, ax = plt.subplots(figsize=(6, 4))
t = np.linspace(0, 0.45, 200)
ax.plot(t, top - r - g * t**2 / 2, "k--", label="free fall: top - r - g t$^2$/2")
y_steps = rec.positions[:, ball.index, 1] - r
ax.plot(rec.time, y_steps, "s", ms=4, mfc="none", label="rigidlab, each step")
for i, (tt, d) in enumerate(((t1, d1), (t2, d2))):
    ax.axhline(top - r - d, color="C1", lw=4, alpha=0.4, label="gates" if i == 0 else None)
    ax.plot(tt, top - r - d, "o", color="C3", label="entry times" if i == 0 else None)
    ax.annotate(f"t = {tt:.4f} s", (tt, top - r - d), xytext=(8, 6), textcoords="offset points")
ax.set_xlim(-0.02, 0.5)
ax.set_xlabel("time since release (s)")
ax.set_ylabel("height of the ball's bottom (m)")
ax.set_title(f"Photogates at dt = 1/60 s: g = {g_measured:.6f} m/s$^2$")
ax.legend(loc="lower left")
plt.show()
