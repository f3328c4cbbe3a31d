"""Conveyor belt

A block is set down at rest on a belt: a long kinematic box moving at a constant v = 2 m/s,
with kinetic friction mu_k = 0.3 between them. Theory: friction speeds the block up at
a = mu_k g until it moves with the belt, at t = v / (mu_k g), by which time the belt has slid
v^2 / (2 mu_k g) under it. The picture shows the block's and the belt's speeds over time
against the ramp min(mu_k g t, v).
"""

import matplotlib.pyplot as plt
import numpy as np
import rigidlab as rl

g, mu, v = 9.81, 0.3, 2.0
w = rl.World(gravity=(0, -g, 0))
belt = w.add_box((5, 0.05, 0.5), kind="kinematic", velocity=(v, 0, 0), friction=mu)
block = w.add_box((0.1, 0.1, 0.1), mass=1.0, position=(-4, 0.15, 0), friction=mu)

rec = w.record()
w.run(1.2)
t, vel, pos = rec.time, rec.velocities[:, :, 0], rec.positions[:, :, 0]  # (T,), (T, 2) each
belt_v, block_v = vel[:, belt.index], vel[:, block.index]

a_theory, t_theory = mu * g, v / (mu * g)
sliding = block_v < 0.99 * v  # whole steps of sliding, before the block catches the belt
a_measured = np.polyfit(t[sliding], block_v[sliding], 1)[0]
slip = (pos[-1] - pos[0]) @ [1, -1]  # how far the belt ran ahead of the block: v t / 2
t_measured = 2 * slip / v
print(f"acceleration while sliding: {a_measured:.9f} m/s^2, theory mu_k g = {a_theory:.9f}")
print(f"belt speed reached at t = {t_measured:.6f} s, theory v / (mu_k g) = {t_theory:.6f} s")
print(f"final block speed {block_v[-1]:.9f} m/s, belt {belt_v[-1]:.9f} m/s")
assert abs(a_measured - a_theory) < 1e-9, f"a = {a_measured}, theory {a_theory}"
assert abs(t_measured - t_theory) < 1e-5, f"t = {t_measured}, theory {t_theory}"
assert abs(block_v[-1] - v) < 1e-6, f"the block ends at {block_v[-1]} m/s, not {v}"

fig, ax = plt.subplots(figsize=(6, 4))
ax.plot(t, belt_v, lw=3, alpha=0.5, label="belt (rigidlab)")
ax.plot(t, block_v, lw=3, alpha=0.5, label="block (rigidlab)")
ax.plot(t, np.minimum(a_theory * t, v), "k--", lw=1, label="theory: min(μk g t, v)")
ax.axvline(t_theory, color="grey", lw=0.8, ls=":", label="t = v / (μk g)")
ax.set(xlabel="time (s)", ylabel="speed along the belt (m/s)")
ax.set_title("A block set down on a conveyor belt")
ax.legend(loc="lower right")
plt.show()
