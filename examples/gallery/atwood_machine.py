"""Atwood machine

Two weights of m1 = 3 kg and m2 = 1 kg hang at the ends of a rope that runs over two fixed,
massless pulleys (a pulley joint in a 2D world), released from rest at the same height. Theory:
the heavier one falls with a = g (m1 - m2) / (m1 + m2) and the rope's tension is
T = 2 m1 m2 g / (m1 + m2). The picture shows both heights over time against y0 -/+ a t^2 / 2.
"""

import matplotlib.pyplot as plt
import numpy as np
import rigidlab as rl

g, m1, m2, y0 = 9.81, 3.0, 1.0, 1.0
w = rl.World2D(gravity=(0, -g))
heavy = w.add_box((0.05, 0.05), mass=m1, position=(-0.5, y0))
light = w.add_box((0.05, 0.05), mass=m2, position=(0.5, y0))
rope = w.add_pulley_joint(heavy, light, ground_a=(-0.5, 2.0), ground_b=(0.5, 2.0))

rec = w.record()
w.run(0.5)  # the light weight rises 0.6 m, still below its pulley at y = 2 m
t, y = rec.time, rec.positions[:, :, 1]  # (T,), (T, 2)

a_theory = g * (m1 - m2) / (m1 + m2)
a_measured = -2 * np.polyfit(t, y[:, 0], 2)[0]  # y = y0 - a t^2 / 2
tension_theory = 2 * m1 * m2 * g / (m1 + m2)
tension = rope.reaction_force[1]  # the rope's pull on the light weight in the last step (N)
print(f"acceleration: {a_measured:.12f} m/s^2, theory {a_theory:.12f} m/s^2")
print(f"tension:      {tension:.12f} N,     theory {tension_theory:.12f} N")
assert abs(a_measured - a_theory) < 1e-11, f"a = {a_measured}, theory {a_theory}"
assert abs(tension - tension_theory) < 1e-11, f"T = {tension}, theory {tension_theory}"

fig, ax = plt.subplots(figsize=(6, 4))
ax.plot(t, y[:, 0], lw=3, alpha=0.5, label=f"m1 = {m1:g} kg (rigidlab)")
ax.plot(t, y[:, 1], lw=3, alpha=0.5, label=f"m2 = {m2:g} kg (rigidlab)")
ax.plot(t, y0 - a_theory * t**2 / 2, "k--", lw=1, label="theory: y0 ∓ a t²/2")
ax.plot(t, y0 + a_theory * t**2 / 2, "k--", lw=1)
ax.set(xlabel="time (s)", ylabel="height (m)")
ax.set_title(f"Atwood machine: a = {a_measured:.6f} m/s² (theory {a_theory:.6f})")
ax.legend()
plt.show()
