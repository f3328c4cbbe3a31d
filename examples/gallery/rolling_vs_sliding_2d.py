"""Rolling disc against sliding square in 2D

In a 2D world (rl.World2D) a disc and a square of equal mass start from rest on a 20 degree
ramp made of one static segment. The disc has enough friction to roll without slipping, so it
speeds up at a = 2/3 g sin(th) (a disc's moment of inertia is m r^2 / 2); the square slides
with kinetic friction mu_k = 0.15, at a = g (sin(th) - mu_k cos(th)). The picture shows the
distance each has gone down the ramp against time, beside the theory curves a t^2 / 2.
"""

import matplotlib.pyplot as plt
import numpy as np
import rigidlab as rl

g, th, mu = 9.81, np.radians(20), 0.15
up = np.array([np.cos(th), np.sin(th)])  # along the ramp, uphill
normal = np.array([-np.sin(th), np.cos(th)])
w = rl.World2D()  # gravity (0, -9.81)
w.add_segment(-20 * up, 20 * up)  # the ramp, its friction left to the bodies
disc = w.add_circle(0.1, mass=1.0, position=0.1 * normal, friction=0.8)
square = w.add_box((0.1, 0.1), mass=1.0, position=0.1 * normal - 0.5 * up, angle=th, friction=mu)

rec = w.record(quantities=["positions"])
w.run(1.5)
t, xy = rec.time, rec.positions
s_disc = -(xy[:, disc.index] - xy[0, disc.index]) @ up  # distance down the ramp
s_square = -(xy[:, square.index] - xy[0, square.index]) @ up

a_disc, a_square = (np.polyfit(t, s, 2)[0] * 2 for s in (s_disc, s_square))
theory_disc = 2 / 3 * g * np.sin(th)
theory_square = g * (np.sin(th) - mu * np.cos(th))
print(f"disc rolls:    a = {a_disc:.9f} m/s^2, theory 2/3 g sin = {theory_disc:.9f}")
print(f"square slides: a = {a_square:.9f} m/s^2, theory g (sin - mu cos) = {theory_square:.9f}")
rolling = disc.angular_velocity * 0.1 / np.linalg.norm(disc.velocity)
print(f"disc's spin / (v / r) at the end: {rolling:.12f} (rolling without slipping: 1)")
off_disc, off_square = a_disc / theory_disc - 1, a_square / theory_square - 1
assert abs(off_disc) < 1e-12, f"rolling acceleration off theory by {off_disc:.1e} (relative)"
assert abs(off_square) < 1e-12, f"sliding acceleration off theory by {off_square:.1e} (relative)"

fig, ax = plt.subplots(figsize=(6, 4))
ax.plot(t, s_disc, lw=3, alpha=0.5, label="disc (rolls)")
ax.plot(t, theory_disc * t**2 / 2, "k:", label="2/3 g sin(th) t^2 / 2")
ax.plot(t, s_square, lw=3, alpha=0.5, label=f"square (slides, mu_k = {mu})")
ax.plot(t, theory_square * t**2 / 2, "k--", label="g (sin(th) - mu_k cos(th)) t^2 / 2")
ax.set(
    xlabel="time (s)",
    ylabel="distance down the ramp (m)",
    title="Rolling against sliding, 20° ramp",
)
ax.legend()
plt.show()
