"""Mouse joint: how far a held body sags

A 1 kg ball is held at its centre by a mouse joint (a soft spring and damper towards a fixed
target, critically damped here), released at the target and left to settle for 10 s, once for
each of nine frequencies f from 0.5 Hz to 200 Hz. Theory: at rest the spring carries the
weight, m w^2 s = m g with w = 2 pi f, so the ball hangs s = g / (2 pi f)^2 below the target
whatever its mass. The picture shows the sag against the frequency on log-log axes, measured
against that line.
"""

import matplotlib.pyplot as plt
import numpy as np
import rigidlab as rl

g, target = 9.81, np.array([0.0, 1.0, 0.0])
frequencies = np.array([0.5, 1, 2, 5, 10, 20, 50, 100, 200])
sags, pulls = [], []
for f in frequencies:
    w = rl.World(gravity=(0, -g, 0))
    ball = w.add_sphere(0.05, mass=1.0, position=target)
    hand = w.add_mouse_joint(ball, target=target, frequency=f, damping_ratio=1.0)
    w.run(10.0)
    sags.append(target[1] - ball.position[1])
    pulls.append(-hand.reaction_force[1])  # reaction_force is on the target side (N)
sags, pulls = np.array(sags), np.array(pulls)

theory = g / (2 * np.pi * frequencies) ** 2
error = np.abs(sags / theory - 1)
for f, s, s0 in zip(frequencies[::4], sags[::4], theory[::4]):
    print(f"f = {f:5g} Hz: sag {s:.12e} m, theory g / (2 pi f)^2 = {s0:.12e} m")
print(f"largest relative error {error.max():.1e}; pull {pulls.min():.9f} N (m g = {g} N)")
assert error.max() < 1e-9, f"sag off theory by {error.max():.2e} (relative)"
assert np.abs(pulls - g).max() < 1e-9, f"the joint pulls {pulls}, not m g = {g}"

fig, ax = plt.subplots(figsize=(6, 4))
ax.loglog(frequencies, theory, "k--", lw=1, label="theory: g / (2π f)²")
ax.loglog(frequencies, sags, "o", ms=8, alpha=0.6, label="rigidlab, after 10 s")
ax.set(xlabel="mouse joint frequency f (Hz)", ylabel="sag below the target (m)")
ax.set_title("A ball held by a mouse joint hangs g / (2π f)² low")
ax.legend()
plt.show()
