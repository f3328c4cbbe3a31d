"""Time reversal of a spring pendulum

A bob on a spring swings from a fixed point under gravity (an elastic pendulum, whose motion
mixes swinging and bouncing without ever repeating). Velocity Verlet is symmetric in time, so
w.step(-n) undoes n forward steps: 10 000 steps forward (42 s) and 10 000 back should bring
the bob back to its start to round-off, about 1e-12 m. The picture shows the path forward
and back in the x-y plane, and how far the backward run is from the forward one at each time.
"""

import matplotlib.pyplot as plt
import numpy as np
import rigidlab as rl

n = 10_000
w = rl.World()  # velocity Verlet, dt = 1/240 s
bob = w.add_sphere(0.05, mass=0.5, position=(0.8, -0.9, 0.0))
w.add_spring(bob, None, stiffness=60.0, rest_length=1.0)  # anchored at the origin
start, start_velocity = bob.position, bob.velocity

rec = w.record(quantities=["positions"])  # records the steps back as well
w.step(n)
w.step(-n)
xy = rec.positions[:, bob.index, :2]
forward, backward = xy[: n + 1], xy[n:][::-1]  # both ordered by time, 0 to n dt
apart = np.linalg.norm(backward - forward, axis=1)

error = np.abs(bob.position - start).max()
speed_error = np.abs(bob.velocity - start_velocity).max()
print(f"after {n} steps forward and {n} back: t = {w.time} s")
print(f"position back to {error:.1e} m, velocity to {speed_error:.1e} m/s (theory: round-off)")
assert error < 1e-12, f"the bob came back {error:.1e} m from its start"
assert speed_error < 1e-12, f"the bob's velocity came back off by {speed_error:.1e} m/s"

t = rec.time[: n + 1]
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(9, 4))
ax1.plot(*forward.T, lw=1.5, alpha=0.5, label=f"forward {t[-1]:.0f} s")
ax1.plot(*backward.T, "k", lw=0.3, label="backward")
ax1.plot(*start[:2], "ro", label="start and end")
ax1.plot(0, 0, "k+", ms=10, label="spring anchor")
ax1.set(xlabel="x (m)", ylabel="y (m)", aspect="equal", title="Elastic pendulum, there and back")
ax1.legend(fontsize=8, loc="upper right")
ax2.semilogy(t[-1] - t, np.maximum(apart, 1e-17), label="position backward - forward")
ax2.axhline(1e-12, color="k", ls=":", label="tolerance asserted at the end")
ax2.set(xlabel="time run backwards (s)", ylabel="distance (m)", title="Gap between the two runs")
ax2.legend(fontsize=8)
fig.tight_layout()
plt.show()
