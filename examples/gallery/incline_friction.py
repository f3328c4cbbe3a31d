"""Incline friction

A block rests on a ramp tilted at angles from 10 to 45 degrees, with static friction
mu_s = 0.5 and kinetic friction mu_k = 0.4, and is let go for 1 s. Coulomb friction says it
sticks while tan(th) <= mu_s (below atan(mu_s) = 26.57 degrees) and above that slides with
a = g (sin th - mu_k cos th). The picture shows the measured acceleration against the angle on
this law, which jumps at atan(mu_s) from 0 to g cos th (mu_s - mu_k).
"""

import matplotlib.pyplot as plt
import numpy as np
from rigidlab.experiments import incline

mu_s, mu_k, g = 0.5, 0.4, 9.81
critical = np.degrees(np.arctan(mu_s))
angles = np.array([10, 15, 20, 24, critical - 0.3, critical + 0.3, 28, 30, 35, 40, 45])


def theory(deg):
    th = np.radians(deg)
    return np.where(np.tan(th) <= mu_s, 0.0, g * (np.sin(th) - mu_k * np.cos(th)))


measured = []
for deg in angles:
    w, block, down = incline(deg, mu_s, mu_k)  # a cube at rest on a static ramp
    start = block.position
    rec = w.record(quantities=["positions"])
    w.run(1.0)
    s = (rec.positions[:, block.index] - start) @ down  # distance slid down the slope
    measured.append(2 * np.polyfit(rec.time, s, 2)[0])  # s = a t^2 / 2: a from a fit
measured = np.array(measured)

for deg, a, a0 in zip(angles, measured, theory(angles)):
    print(f"{deg:6.2f} deg: a = {a:8.5f} m/s^2, theory {a0:8.5f} m/s^2")
worst = np.max(np.abs(measured - theory(angles)))
print(f"atan(mu_s) = {critical:.2f} deg; worst difference {worst:.1e} m/s^2")
assert worst < 1e-9, f"acceleration off Coulomb's law by {worst:.2e} m/s^2"

fig, ax = plt.subplots(figsize=(6, 4))
fine = np.linspace(5, 50, 901)
ax.plot(fine, theory(fine), "k-", lw=1, label="theory: 0, then g (sin - $\\mu_k$ cos)")
ax.plot(angles, measured, "o", color="C3", label="rigidlab")
ax.axvline(critical, color="gray", ls=":", label=f"atan($\\mu_s$) = {critical:.2f}°")
ax.set_xlabel("incline angle (degrees)")
ax.set_ylabel("acceleration down the slope (m/s$^2$)")
ax.set_title(f"Block on an incline, $\\mu_s$ = {mu_s}, $\\mu_k$ = {mu_k}")
ax.legend(loc="upper left")
plt.show()
