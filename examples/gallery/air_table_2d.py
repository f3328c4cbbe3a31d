"""Oblique collision on an air table

Two equal pucks (discs) on a frictionless air table, a 2D world with gravity (0, 0): B slides
at v = 1 m/s towards A at rest, aimed off centre by half a radius, so they meet with the line of
centres n at 30 degrees to v. Elastic and frictionless, the impact pushes only along n: A leaves
with (v . n) n and B with v - (v . n) n, at right angles to each other, momentum and kinetic
energy kept. The picture shows the pucks' paths, the pucks at the moment of impact and their
velocities after it, measured (arrows) and from the closed form (dashed).
"""

import matplotlib.pyplot as plt
import numpy as np
import rigidlab as rl

r, aim = 0.1, 0.1  # radius and aiming offset (m)
w = rl.World2D(gravity=(0, 0))
puck = dict(mass=0.2, restitution=1.0, friction=0.0)
a = w.add_circle(r, **puck)
b = w.add_circle(r, position=(-0.6, aim), velocity=(1.0, 0.0), **puck)
v = b.velocity
p0, e0 = w.momentum(), w.energy()["kinetic"]

rec = w.record(quantities=["positions"])
w.run(1.0)
ev = w.contact_events()
hit = ev["kind"].index("impact")
n = -ev["normal"][hit]  # from B to A at the impact
s = aim / (2 * r)
n_theory = np.array([np.sqrt(1 - s**2), -s])
va, vb = (v @ n_theory) * n_theory, v - (v @ n_theory) * n_theory
error = max(np.abs(a.velocity - va).max(), np.abs(b.velocity - vb).max())
dp, de = np.abs(w.momentum() - p0).max(), abs(w.energy()["kinetic"] - e0) / e0
print(f"line of centres {np.degrees(np.arctan2(-n[1], n[0])):.9f} deg (theory 30)")
print(f"A: {a.velocity} (theory {va}); B: {b.velocity} (theory {vb}); off by {error:.1e} m/s")
cos_ab = a.velocity @ b.velocity / np.linalg.norm(a.velocity) / np.linalg.norm(b.velocity)
print(f"angle between them after: {np.degrees(np.arccos(cos_ab)):.9f} deg (theory 90)")
print(f"momentum kept to {dp:.1e} kg m/s, kinetic energy to {de:.1e} of itself")
assert error < 1e-12, f"velocities after the impact off the closed form by {error:.1e} m/s"
assert dp < 1e-15 and de < 1e-12, f"momentum changed by {dp:.1e}, energy by {de:.1e}"

fig, ax = plt.subplots(figsize=(6, 4))
at_impact = [np.zeros(2), 2 * r * -n]  # A's centre, B's centre when they touch
ax.plot(*np.array([at_impact[1] - 0.5 * r * n, 1.5 * r * n]).T, "k:", lw=1, label="line of centres")
ax.arrow(-0.6, aim, *(0.2 * v), color="0.5", width=0.006, label="B's velocity before")
for k, (body, centre, theory) in enumerate(zip((a, b), at_impact, (va, vb))):
    ax.plot(*rec.positions[:, body.index].T, color=f"C{k}", lw=1, label=f"path of {'AB'[k]}")
    ax.add_patch(plt.Circle((centre[0], centre[1]), r, fill=False, color=f"C{k}"))
    ax.arrow(*centre, *(0.4 * body.velocity), color=f"C{k}", width=0.006)
    ax.plot(*np.array([centre, centre + 0.4 * theory]).T, "k--", lw=1)
ax.plot([], [], "k--", lw=1, label="closed form (v . n) n, v - (v . n) n")
ax.set(xlabel="x (m)", ylabel="y (m)", aspect="equal", title="Equal pucks, elastic, no friction")
ax.legend(fontsize=8, loc="lower left")
plt.show()
