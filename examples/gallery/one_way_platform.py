"""One-way platform

A ball of radius 0.1 m is thrown straight up at 6 m/s from 0.3 m, under a static ledge whose
top face is at 1.05 m. A w.on_contact callback lets the ball through whenever it meets the
ledge moving up, and lets it land when it comes down. Theory: the ball flies freely,
y = y0 + v0 t - g t^2 / 2, up through the ledge to its apex y0 + v0^2 / 2g, and comes to rest on
the ledge at 1.05 m + r. The picture shows the height over time against the free flight, with
the ledge.
"""

import matplotlib.pyplot as plt
import numpy as np
import rigidlab as rl

g, r, y0, v0 = 9.81, 0.1, 0.3, 6.0
w = rl.World(gravity=(0, -g, 0))
ledge = w.add_box((1, 0.05, 1), kind="static", position=(0, 1, 0))
ball = w.add_sphere(r, position=(0, y0, 0), velocity=(0, v0, 0))
answers = []


def one_way(me, other, contact):  # asked once each time the ball first touches something
    answers.append((w.time, bool(me.velocity[1] <= 0)))
    return me.velocity[1] <= 0  # False: pass through while they overlap


w.on_contact(one_way, body=ball)
rec = w.record(quantities=["positions"])
w.run(2.0)
t, y = rec.time, rec.positions[:, ball.index, 1]

top = 1.05 + r  # where the ball's centre rests on the ledge
flight = y0 + v0 * t - g * t**2 / 2
t_land = (v0 + np.sqrt(v0**2 - 2 * g * (top - y0))) / g  # the free flight comes down to `top`
free = t < t_land
print(f"callback answers (time s, let it touch): {[(round(s, 4), a) for s, a in answers]}")
print(f"highest sample {y.max():.6f} m (apex y0 + v0^2 / 2g = {y0 + v0**2 / (2 * g):.6f} m)")
print(f"final height {y[-1]:.9f} m, theory 1.05 m + r = {top:.9f} m")
print(f"free flight before landing: largest gap {np.abs(y - flight)[free].max():.1e} m")
assert abs(y[-1] - top) < 1e-9, f"the ball ends at {y[-1]} m, not on the ledge at {top} m"
assert np.abs(y - flight)[free].max() < 1e-12, "the ball left its free flight before landing"
assert [a for _, a in answers] == [False, True], f"callback answers {answers}"

fig, ax = plt.subplots(figsize=(6, 4))
ax.plot(t, y, lw=3, alpha=0.5, label="ball (rigidlab)")
ax.plot(t[free], flight[free], "k--", lw=1, label="free flight y0 + v0 t - g t²/2")
ax.axhspan(0.95, 1.05, color="grey", alpha=0.4, label="ledge (one way)")
ax.axhline(top, color="grey", lw=0.8, ls=":", label="resting on it: 1.05 m + r")
ax.set(xlabel="time (s)", ylabel="height of the centre (m)")
ax.set_title("A one-way platform made with w.on_contact")
ax.legend(loc="lower right")
plt.show()
