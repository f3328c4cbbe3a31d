"""Tennis racket

A 1 kg box with half extents 0.2, 0.1 and 0.025 m (moments I1 < I2 < I3 about x, y, z) spins in
zero gravity at 10 rad/s about y, its intermediate axis, with a 1% wobble about x. Euler's
equations make this spin unstable: the body turns over, again and again, while its angular
momentum L and energy stay fixed. Theory (Landau and Lifshitz, section 37): the body-frame spin
is periodic, with T = 4 K(k) sqrt(I1 I2 I3 / ((I2 - I1)(2 E I3 - L^2))),
k^2 = (I3 - I2)(L^2 - 2 E I1) / ((I2 - I1)(2 E I3 - L^2)), so w_y reverses at T/4 + n T/2.
The picture shows the body-frame angular velocity against these times, and |L| and E kept.
"""

import matplotlib.pyplot as plt
import numpy as np
import rigidlab as rl
from rigidlab.experiments import zero_crossings

w0 = np.array([0.1, 10.0, 0.0])  # rad/s, in the body frame (the box starts unrotated)
w = rl.World(gravity=(0, 0, 0), integrator="rk4", dt=1e-3)
box = w.add_box((0.2, 0.1, 0.025), mass=1.0, angular_velocity=tuple(w0))
rec = w.record(quantities=["orientations", "angular_velocities", "energy", "angular_momentum"])
w.run(10.0)

t, q, omega = rec.time, rec.orientations[:, 0], rec.angular_velocities[:, 0]
u, s = -q[:, :3], q[:, 3:]  # the inverse rotation, world to body
c = 2 * np.cross(u, omega)
w_body = omega + s * c + np.cross(u, c)
L = np.linalg.norm(rec.angular_momentum, axis=1)  # about the origin, where the box stays
E = rec.energy["kinetic"]

I1, I2, I3 = np.diag(box.inertia_body)
E2, L2 = w0 @ (np.array([I1, I2, I3]) * w0), np.sum((np.array([I1, I2, I3]) * w0) ** 2)
k = np.sqrt((I3 - I2) * (L2 - E2 * I1) / ((I2 - I1) * (E2 * I3 - L2)))
a, b = 1.0, np.sqrt(1 - k * k)  # K(k) = pi / (2 AGM(1, sqrt(1 - k^2)))
while abs(a - b) > 1e-15:
    a, b = (a + b) / 2, np.sqrt(a * b)
T = 4 * np.pi / (2 * a) * np.sqrt(I1 * I2 * I3 / ((I2 - I1) * (E2 * I3 - L2)))
flips = np.sort(np.r_[zero_crossings(t, w_body[:, 1]), zero_crossings(t, w_body[:, 1], False)])
predicted = T / 4 + T / 2 * np.arange(len(flips))
dL, dE = np.max(np.abs(L / L[0] - 1)), np.max(np.abs(E / E[0] - 1))
print(f"flips of w_y at {np.round(flips, 4)} s; theory {np.round(predicted, 4)} s")
print(f"|L| kept to {dL:.1e}, energy to {dE:.1e} (relative)")
assert len(flips) >= 5 and np.max(np.abs(flips - predicted)) < 1e-5, "flip times off theory"
assert dL < 1e-9 and dE < 1e-9, f"|L| or E not kept: {dL:.1e}, {dE:.1e}"

fig, (ax, ax2) = plt.subplots(1, 2, figsize=(9, 4))
for i, name in enumerate("xyz"):
    ax.plot(t, w_body[:, i], label=f"$\\omega_{name}$ (body)")
for tf in predicted:
    ax.axvline(tf, color="gray", ls=":", lw=0.8)
ax.plot([], [], color="gray", ls=":", label="theory: flips at T/4 + n T/2")
ax.set_xlabel("time (s)")
ax.set_ylabel("angular velocity, body frame (rad/s)")
ax.set_title("Spin about the intermediate axis")
ax.set_ylim(-11, 16)
ax.legend(loc="upper center", ncol=2, fontsize=8)
ax2.plot(t, L / L[0] - 1, label="|L| / |L$_0$| - 1")
ax2.plot(t, E / E[0] - 1, label="E / E$_0$ - 1")
ax2.set_xlabel("time (s)")
ax2.set_ylabel("relative change")
ax2.set_title("|L| and E kept (RK4, dt = 1 ms)")
ax2.legend()
plt.show()
