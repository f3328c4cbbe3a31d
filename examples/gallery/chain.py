"""Hanging chain released from horizontal

A chain of 20 links (rods of 0.1 m and 0.1 kg, pin joints, one collision group so the links
pass through each other) hangs from a pin at the origin and is let go held out horizontally.
Nothing takes energy out, so the total energy should stay at its start, and every joint should
keep its two link ends together. The picture shows the chain's shape at several times (left)
and the energy change over time, as a fraction of the M g L / 2 it falls through, at
dt = 1/1000 s and at the default 1/240 s (right): the folded chain cracks like a whip.
"""

import matplotlib.pyplot as plt
import numpy as np
import rigidlab as rl

n, length, mass = 20, 0.1, 0.1
scale = n * mass * 9.81 * n * length / 2  # M g L / 2: the energy the fall releases (J)


def release(dt):
    w = rl.World2D(dt=dt)
    link = None
    for i in range(n):
        upper = link
        link = w.add_box((length / 2, 0.01), mass=mass, position=((i + 0.5) * length, 0), group=1)
        w.add_pin_joint(link, upper, anchor=(i * length, 0))  # upper None: pinned to the world
    rec = w.record(quantities=["positions", "orientations", "energy"])
    w.run(4.0)
    energy = rec.energy["total"]
    return rec, (energy - energy[0]) / scale


rec, drift = release(1 / 1000)
coarse, coarse_drift = release(1 / 240)
half = length / 2 * np.stack([np.cos(rec.angles), np.sin(rec.angles)], axis=-1)
ends = rec.positions - half, rec.positions + half  # each link's two ends, (T, n, 2) each
gap = max(np.abs(ends[0][:, 1:] - ends[1][:, :-1]).max(), np.abs(ends[0][:, 0]).max())
print(f"dt = 1/1000 s: energy within {np.abs(drift).max():.2e} of M g L / 2 over 4 s")
print(f"dt = 1/240 s:  energy within {np.abs(coarse_drift).max():.2e} (the whip at 3.2 s)")
print(f"largest gap at a joint: {gap:.1e} m")
assert np.abs(drift).max() < 0.015, f"energy drifts by {np.abs(drift).max():.3e} of M g L / 2"
assert gap < 2e-12, f"a joint opened by {gap:.2e} m"

fig, (left, right) = plt.subplots(1, 2, figsize=(9, 4), layout="constrained", width_ratios=(1.4, 1))
for when in (0.0, 0.3, 0.5, 0.7, 0.9, 1.2):
    k = np.argmin(np.abs(rec.time - when))
    shape = np.vstack([ends[0][k, :1], ends[1][k]])  # the pin, then every link's far end
    left.plot(shape[:, 0], shape[:, 1], ".-", ms=3, label=f"t = {when:g} s")
left.set(xlabel="x (m)", ylabel="y (m)", aspect="equal", title="The chain's shape")
left.set_ylim(-2.2, 0.2)
left.legend(fontsize=8, ncols=2, loc="lower right")
right.plot(coarse.time, coarse_drift, label="dt = 1/240 s")
right.plot(rec.time, drift, label="dt = 1/1000 s")
right.set(xlabel="time (s)", ylabel="energy change / (M g L / 2)", title="Energy kept")
right.legend()
fig.suptitle("A chain of 20 pinned links falling from horizontal")
plt.show()
