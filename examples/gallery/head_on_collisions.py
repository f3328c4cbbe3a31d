"""Head-on collisions

Two balls of 1 kg and 2 kg meet head on in zero gravity at u1 = 2 m/s and u2 = -0.5 m/s, with
restitutions e from 0 (plastic) to 1 (elastic). Theory: momentum is kept and the balls part at
e times their approach speed, so v1' = (m1 u1 + m2 u2 + m2 e (u2 - u1)) / (m1 + m2) and
v2' = (m1 u1 + m2 u2 + m1 e (u1 - u2)) / (m1 + m2). The picture shows the measured final
velocities as markers on these lines.
"""

import matplotlib.pyplot as plt
import numpy as np
from rigidlab.experiments import head_on

m1, m2, u1, u2 = 1.0, 2.0, 2.0, -0.5
restitutions = np.linspace(0, 1, 6)
final, momentum_error = [], []
for e in restitutions:
    w, (a, b) = head_on(m1, m2, u1, u2, e)  # 1 m apart on the x axis, radius 0.1 m
    p0 = w.momentum()
    w.run(1.0)  # they meet at t = 0.8 / 2.5 s
    final.append((a.velocity[0], b.velocity[0]))
    momentum_error.append(np.max(np.abs(w.momentum() - p0)))
v1, v2 = np.array(final).T

p = m1 * u1 + m2 * u2
theory1 = (p + m2 * restitutions * (u2 - u1)) / (m1 + m2)
theory2 = (p + m1 * restitutions * (u1 - u2)) / (m1 + m2)
for e, x1, x2, t1, t2 in zip(restitutions, v1, v2, theory1, theory2):
    print(
        f"e = {e:.1f}: v1' = {x1:+.6f} (theory {t1:+.6f}), v2' = {x2:+.6f} (theory {t2:+.6f}) m/s"
    )
worst = max(np.max(np.abs(v1 - theory1)), np.max(np.abs(v2 - theory2)))
print(f"worst velocity error {worst:.1e} m/s, momentum kept to {max(momentum_error):.1e} kg m/s")
assert worst < 1e-12, f"final velocities off the closed forms by {worst:.1e} m/s"
assert max(momentum_error) < 1e-12, f"momentum changed by {max(momentum_error):.1e} kg m/s"

fig, ax = plt.subplots(figsize=(6, 4))
es = np.linspace(0, 1, 50)
ax.plot(es, (p + m2 * es * (u2 - u1)) / (m1 + m2), "C0-", label="theory v1'")
ax.plot(es, (p + m1 * es * (u1 - u2)) / (m1 + m2), "C1-", label="theory v2'")
ax.plot(restitutions, v1, "o", color="C0", label=f"rigidlab, ball 1 ({m1:g} kg)")
ax.plot(restitutions, v2, "s", color="C1", label=f"rigidlab, ball 2 ({m2:g} kg)")
ax.axhline(p / (m1 + m2), color="gray", ls=":", label="centre-of-mass velocity")
ax.set_xlabel("restitution e")
ax.set_ylabel("velocity after the impact (m/s)")
ax.set_title(f"Head-on collision, u1 = {u1:+g} m/s, u2 = {u2:+g} m/s")
ax.legend(fontsize=8)
plt.show()
