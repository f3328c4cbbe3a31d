"""Pendulum period

A simple pendulum (a 1 kg bob on a massless 1 m rod, a distance joint) is released from rest at
amplitudes from 5 to 175 degrees, and its period is timed from the bob's crossings of the
vertical. Theory: T = 4 sqrt(L/g) K(sin(th0/2)), with K the complete elliptic integral of the
first kind of modulus k, computed here from the arithmetic-geometric mean,
K(k) = pi / (2 AGM(1, sqrt(1 - k^2))). The picture shows T / T0, with T0 = 2 pi sqrt(L/g),
against the amplitude, beside the small-angle estimate 1 + th0^2 / 16.
"""

import matplotlib.pyplot as plt
import numpy as np
from rigidlab.experiments import pendulum_period

L, g = 1.0, 9.81
T0 = 2 * np.pi * np.sqrt(L / g)


def K(k):
    """Complete elliptic integral of the first kind, modulus k, by the AGM."""
    a, b = 1.0, np.sqrt(1 - k * k)
    while abs(a - b) > 1e-15 * a:
        a, b = (a + b) / 2, np.sqrt(a * b)
    return np.pi / (2 * a)


def theory(deg):
    return 4 * np.sqrt(L / g) * K(np.sin(np.radians(deg) / 2))


amplitudes = np.array([5, 20, 40, 60, 80, 100, 120, 140, 160, 170, 175])
measured = np.array([pendulum_period(a, length=L) for a in amplitudes])  # 1/240 s steps
expected = np.array([theory(a) for a in amplitudes])
for a, T, Tt in zip(amplitudes, measured, expected):
    print(f"{a:3d} deg: T = {T:.6f} s, theory 4 sqrt(L/g) K = {Tt:.6f} s ({T / Tt - 1:+.1e})")
worst = np.max(np.abs(measured / expected - 1))
assert worst < 5e-5, f"period off the elliptic integral by {worst:.1e}"

fig, ax = plt.subplots(figsize=(6, 4))
fine = np.linspace(0.5, 178, 400)
ax.plot(
    fine, [theory(a) / T0 for a in fine], "k-", lw=1, label="theory 4 sqrt(L/g) K(sin(θ$_0$/2))"
)
ax.plot(fine, 1 + np.radians(fine) ** 2 / 16, "k:", lw=1, label="small angles: 1 + θ$_0^2$/16")
ax.plot(amplitudes, measured / T0, "o", color="C3", label="rigidlab")
ax.set_ylim(0.9, 3.2)
ax.set_xlabel("amplitude θ$_0$ (degrees)")
ax.set_ylabel("T / T$_0$,  T$_0$ = 2π sqrt(L/g)")
ax.set_title("Pendulum period against amplitude (L = 1 m)")
ax.legend(loc="upper left")
plt.show()
