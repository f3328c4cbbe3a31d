"""Contact forces in a column of boxes

Five boxes of 5, 4, 3, 2 and 1 kg (heaviest at the bottom) are stacked on the floor and left
for 2 s. In balance the contacts on each box must carry its weight, so the net contact force
on box k is m_k g upward; each interface carries the weight of the boxes above it, and the
floor the whole column's, (sum of m) g, downward. The picture shows the measured forces
(w.contact_forces() and the contact points' normal impulses over dt) beside those values.
"""

import matplotlib.pyplot as plt
import numpy as np
import rigidlab as rl

g, h = 9.81, 0.1
masses = np.array([5.0, 4.0, 3.0, 2.0, 1.0])
w = rl.World(gravity=(0, -g, 0))
floor = w.add_plane()
boxes = [
    w.add_box((0.2, h, 0.2), mass=m, position=(0, h + 2 * h * k, 0)) for k, m in enumerate(masses)
]
w.run(2.0)

net = w.contact_forces()[:, 1]  # the vertical contact force on every body (N), floor first
weights = masses * g
contacts = w.contacts()  # every contact point: the ids of its bodies, its normal impulse, ...
pairs = list(zip(contacts["body_a"], contacts["body_b"]))


def load(a, b):  # what the interface between bodies a and b carries (N): its points' impulses / dt
    between = [{i, j} == {a.id, b.id} for i, j in pairs]
    return contacts["normal_impulse"][between].sum() / w.dt


loads = np.array([load(a, b) for a, b in zip([floor, *boxes], boxes)])
above = weights[::-1].cumsum()[::-1]  # the weight resting on each interface
print(f"net contact force on the boxes: {np.round(net[1:], 9)} N")
print(f"their weights m g:              {weights} N")
print(f"the floor: {net[0]:.9f} N, theory -(sum m) g = {-weights.sum():.9f} N")
assert np.abs(net[1:] - weights).max() < 1e-9, f"contact forces {net[1:]} != m g {weights}"
assert abs(net[0] + weights.sum()) < 1e-9, f"the floor carries {net[0]} N"
assert np.abs(loads - above).max() < 1e-9, f"interface loads {loads} != {above}"

fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(9, 4), layout="constrained")
k = np.arange(1, 6)
ax1.bar(k - 0.2, net[1:], 0.4, label="rigidlab: contact force")
ax1.bar(k + 0.2, weights, 0.4, label="theory: m g")
ax1.set(xlabel="box (1 = bottom)", ylabel="upward contact force (N)", title="Net force on each box")
ax1.legend()
names = ["floor / 1", "1 / 2", "2 / 3", "3 / 4", "4 / 5"]
ax2.bar(k - 0.2, loads, 0.4, label="rigidlab: normal impulses / dt")
ax2.bar(k + 0.2, above, 0.4, label="theory: weight above")
ax2.set_xticks(k, names)
ax2.set(xlabel="interface", ylabel="load (N)", title="Load across each interface")
ax2.legend()
fig.suptitle("A column of five boxes at rest on the floor")
plt.show()
