"""Collision filters: which balls a shelf stops

Balls of radius 0.1 m fall onto a shelf (top face at 1.05 m) above the floor. The shelf
collides only with the RED category, so the BLUE ball drops through it to the floor; one red
ball is set apart from the shelf with set_pair(collide=False) and falls through too; two red
balls dropped one above the other share a group, so they pass through each other and both
come to rest on the shelf at once. Theory: each ball ends at rest r above whatever its filters
let it touch, 1.15 m on the shelf or 0.1 m on the floor. The picture shows the height of each
ball over time against those two levels.
"""

import matplotlib.pyplot as plt
import numpy as np
import rigidlab as rl

RED, BLUE = 0b01, 0b10  # category bits
r = 0.1
w = rl.World()
floor = w.add_plane()
shelf = w.add_box((2.5, 0.05, 0.5), kind="static", position=(0, 1, 0), collides_with=RED)
balls = [
    w.add_sphere(r, position=(-1.5, 1.6, 0), category=RED, name="red"),
    w.add_sphere(r, position=(-0.5, 2, 0), category=BLUE, name="blue"),
    w.add_sphere(r, position=(0.5, 1.8, 0), category=RED, name="red, set apart from the shelf"),
    w.add_sphere(r, position=(1.5, 1.3, 0), category=RED, group=1, name="red, group 1, low"),
    w.add_sphere(r, position=(1.5, 1.9, 0), category=RED, group=1, name="red, group 1, high"),
]
w.set_pair(balls[2], shelf, collide=False)

rec = w.record(quantities=["positions"])
w.run(1.5)
heights = rec.positions[:, [b.index for b in balls], 1]  # (T, 5)

on_shelf, on_floor = 1.05 + r, r
expected = np.array([on_shelf, on_floor, on_floor, on_shelf, on_shelf])
for ball, y, y0 in zip(balls, heights[-1], expected):
    print(f"{ball.name:32s} ends at {y:.9f} m, filters say {y0:.2f} m")
assert np.abs(heights[-1] - expected).max() < 1e-9, f"final heights {heights[-1]}"

fig, ax = plt.subplots(figsize=(6, 4))
colors = ["tab:red", "tab:blue", "tab:brown", "tab:orange", "tab:pink"]
for ball, y, color in zip(balls, heights.T, colors):
    ax.plot(rec.time, y, color=color, lw=2, label=ball.name)
ax.axhline(on_shelf, color="grey", lw=0.8, ls=":")
ax.axhline(on_floor, color="grey", lw=0.8, ls=":")
ax.text(0.75, on_shelf + 0.03, "on the shelf: 1.05 m + r", color="grey")
ax.text(0.75, on_floor + 0.03, "on the floor: r", color="grey")
ax.set(xlabel="time (s)", ylabel="height of the centre (m)", ylim=(0, 2.1))
ax.set_title("A shelf that stops only the red balls")
ax.legend(fontsize=8, loc="upper right", framealpha=1)
plt.show()
