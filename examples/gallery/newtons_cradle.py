"""Newton's cradle

Four equal balls (e = 1) touch in a row on a frictionless floor, and a fifth, the striker, runs
into them at u = 1 m/s from 5 cm away. Theory: the impulse passes down the row as a sequence of
elastic collisions of equal masses, each handing on its whole velocity, so the striker and the
middle balls end at rest and the last ball leaves at u, with momentum m u and energy m u^2 / 2
kept. The picture shows each ball's x-velocity against time.
"""

import matplotlib.pyplot as plt
import numpy as np
import rigidlab as rl

speed, gap = 1.0, 0.05
w, balls = rl.presets.newtons_cradle(n=5, speed=speed, gap=gap)  # the striker, then the row
rows = [b.index for b in balls]
rec = w.record(quantities=["velocities", "energy", "momentum"])
w.run(0.3)
t, vx = rec.time, rec.velocities[:, rows, 0]  # (T, 5)

theory = np.zeros(len(balls))
theory[-1] = speed  # one ball in, one ball out
energy, momentum = rec.energy["kinetic"], rec.momentum[:, 0]
print("final x-velocities (m/s):", np.round(vx[-1], 12), "theory:", theory)
print(
    f"kinetic energy {energy[0]:.6f} -> {energy[-1]:.6f} J, momentum {momentum[0]:.6f} -> "
    f"{momentum[-1]:.6f} kg m/s"
)
worst = np.max(np.abs(vx[-1] - theory))
assert worst < 1e-12, f"final velocities off one-in-one-out by {worst:.1e} m/s"
assert abs(energy[-1] / energy[0] - 1) < 1e-12, "kinetic energy not kept"

fig, ax = plt.subplots(figsize=(6, 4))
styles = ["-", (0, (6, 2)), (0, (2, 2)), (0, (1, 3)), "-"]
for i, (b, ls) in enumerate(zip(balls, styles)):
    ax.plot(
        t, vx[:, i], ls=ls, lw=2.5 if i in (0, 4) else 1.5, label=b.name, drawstyle="steps-post"
    )
ax.axvline(gap / speed, color="gray", lw=0.8, ls=":", label="theory: impact at gap / u")
ax.text(0.12, 0.04, "after the impact: striker, balls 0, 1, 2 at rest", fontsize=8)
ax.text(0.12, 1.03, "ball 3 leaves at u", fontsize=8)
ax.set_ylim(-0.1, 1.2)
ax.set_xlabel("time (s)")
ax.set_ylabel("x-velocity (m/s)")
ax.set_title("Newton's cradle: one ball in, one ball out")
ax.legend(loc="center right", fontsize=8)
plt.show()
