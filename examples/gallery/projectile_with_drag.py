"""Projectile with drag

Two balls are launched at 45 degrees and 20 m/s, one in vacuum and one with air's quadratic drag
(force -c2 |v| v, c2 = rho Cd A / 2), and a third is dropped from rest with the same drag.
Without drag the path is the parabola y = x tan(th) - g x^2 / (2 v^2 cos^2 th), with range
v^2 sin(2 th) / g; with drag it falls short, and the dropped ball reaches the terminal
velocity sqrt(m g / c2). The picture shows both trajectories over the parabola.
"""

import matplotlib.pyplot as plt
import numpy as np
import rigidlab as rl

g, m, r, v0, th = 9.81, 0.1, 0.05, 20.0, np.radians(45)
c2 = 0.5 * 1.2 * 0.47 * np.pi * r**2  # air (1.2 kg/m^3), a sphere's Cd = 0.47
w = rl.World()  # no floor: the balls fall on below y = 0; they never meet (collides_with=0)
v = (v0 * np.cos(th), v0 * np.sin(th), 0)
vacuum = w.add_sphere(r, mass=m, position=(0, 0, 0), velocity=v, collides_with=0)
air = w.add_sphere(r, mass=m, position=(0, 0, 1), velocity=v, quadratic_drag=c2, collides_with=0)
drop = w.add_sphere(r, mass=m, position=(0, 0, 2), quadratic_drag=c2, collides_with=0)

rec = w.record(quantities=["positions", "velocities"])
w.run(20.0)
p = rec.positions


def flight(b):
    """x, y of a ball until it comes back down to y = 0, and where it crosses y = 0."""
    x, y = p[:, b.index, 0], p[:, b.index, 1]
    k = np.nonzero((y[1:] < 0) & (y[:-1] >= 0))[0][0] + 1  # first sample below y = 0
    return x[: k + 1], y[: k + 1], x[k - 1] - y[k - 1] * (x[k] - x[k - 1]) / (y[k] - y[k - 1])


xv, yv, range_vacuum = flight(vacuum)
xa, ya, range_air = flight(air)
parabola = xv * np.tan(th) - g * xv**2 / (2 * v0**2 * np.cos(th) ** 2)
v_terminal = -rec.velocities[-1, drop.index, 1]
range_theory = v0**2 * np.sin(2 * th) / g
print(f"vacuum range {range_vacuum:.4f} m, theory v^2 sin(2 th) / g = {range_theory:.4f} m")
print(f"with drag: range {range_air:.3f} m, {100 * (1 - range_air / range_vacuum):.1f}% shorter")
v_theory = np.sqrt(m * g / c2)
print(f"terminal velocity {v_terminal:.6f} m/s, theory sqrt(m g / c2) = {v_theory:.6f} m/s")
assert np.max(np.abs(yv - parabola)) < 1e-9, "vacuum path off the parabola"
assert abs(range_vacuum / range_theory - 1) < 1e-6, "vacuum range off v^2 sin(2 th) / g"
assert range_air < 0.9 * range_vacuum, "drag should shorten the range"
assert abs(v_terminal / v_theory - 1) < 1e-6, "terminal velocity off sqrt(m g / c2)"

fig, ax = plt.subplots(figsize=(6, 4))
xs = np.linspace(0, range_theory, 200)
ax.plot(xs, xs * np.tan(th) - g * xs**2 / (2 * v0**2 * np.cos(th) ** 2), "k--", label="parabola")
ax.plot(xv[::8], yv[::8], "o", ms=3, label="rigidlab, vacuum")
ax.plot(xa, ya, lw=2, label=f"rigidlab, quadratic drag c2 = {c2:.4f} kg/m")
ax.set_xlabel("x (m)")
ax.set_ylabel("y (m)")
ax.set_ylim(0, 14)
ax.set_title("Projectile launched at 45 deg, 20 m/s")
ax.legend(loc="upper right", fontsize=9)
plt.show()
