"""Slider joint with a motor and limits

A 2 kg carriage rides a horizontal slider joint whose motor drives it at v = 0.5 m/s with at
most F = 4 N, from rest, until the upper limit 0.6 m stops it. Theory: it speeds up at F / m
for t1 = m v / F (travelling F t^2 / 2m), cruises at v, and stays at the limit from
t1 + (0.6 - x1) / v on. The motor acts on the velocities at the end of each step, so the
travel trails that curve by half a step's travel, v dt / 2. The picture shows the travel
(joint.translation) over time against theory.
"""

import matplotlib.pyplot as plt
import numpy as np
import rigidlab as rl

m, v, force, upper = 2.0, 0.5, 4.0, 0.6
w = rl.World()
carriage = w.add_box((0.1, 0.05, 0.05), mass=m, position=(0, 1, 0))
rail = w.add_slider_joint(
    carriage, None, anchor=(0, 1, 0), axis=(1, 0, 0), limits=(-0.1, upper), motor=(v, force)
)

t, travel = [], []
for _ in range(600):  # 2.5 s
    w.step()
    t.append(w.time)
    travel.append(rail.translation)
t, travel = np.array(t), np.array(travel)

t1 = m * v / force
x1 = force / (2 * m) * t1**2
t_stop = t1 + (upper - x1) / v
theory = np.minimum(np.where(t < t1, force / (2 * m) * t**2, x1 + v * (t - t1)), upper)
cruise = (t > t1 + 0.05) & (t < t_stop - 0.05)
speed = np.polyfit(t[cruise], travel[cruise], 1)[0]
lag = np.abs(travel - theory).max()
print(f"cruising speed {speed:.12f} m/s (motor {v} m/s); final travel {travel[-1]:.12f} m")
print(f"largest lag behind theory {lag:.4e} m, half a step's travel v dt / 2 = {v * w.dt / 2:.4e}")
print(f"stops at the limit at t = {t_stop:.4f} s (theory)")
assert abs(speed - v) < 1e-12, f"cruising at {speed} m/s, motor speed {v}"
assert abs(travel[-1] - upper) < 1e-12, f"ends at {travel[-1]} m, limit {upper} m"
assert lag <= v * w.dt / 2 + 1e-12, f"trails theory by {lag} m, more than v dt / 2"

fig, ax = plt.subplots(figsize=(6, 4))
ax.plot(t, travel, lw=3, alpha=0.5, label="carriage (rigidlab)")
ax.plot(t, theory, "k--", lw=1, label="theory: F t²/2m, then v t, then the limit")
ax.axhline(upper, color="grey", lw=0.8, ls=":", label=f"upper limit {upper} m")
ax.set(xlabel="time (s)", ylabel="travel along the slider (m)")
ax.set_title(f"Slider motor (v = {v} m/s, F ≤ {force:g} N) driving a carriage to its limit")
ax.legend(loc="lower right")
plt.show()
