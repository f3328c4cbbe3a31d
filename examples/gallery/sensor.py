"""Sensor zone timing falling balls

Three balls fall from rest from different heights through a sensor slab, a static box made with
sensor=True that senses the bodies overlapping it but never pushes them. The engine times each
entry and exit within the step along the free-fall path, so the "sensor_begin" and "sensor_end"
events should match free fall, t = sqrt(2 d / g), with d the drop to the slab's top face (entry,
lower edge of the ball) or to its bottom face (exit, upper edge), even at dt = 1/60 s. The
picture shows the balls' heights against time, the slab shaded and the event times marked.
"""

import matplotlib.pyplot as plt
import numpy as np
import rigidlab as rl

g, r = 9.81, 0.05
bottom, top = 0.4, 0.6  # the slab's faces (m)
w = rl.World(dt=1 / 60)
zone = w.add_box((1.0, (top - bottom) / 2, 0.3), kind="static", position=(0, 0.5, 0), sensor=True)
drops = np.array([1.0, 1.5, 2.0])  # starting heights of the balls' centres (m)
balls = [w.add_sphere(r, position=(x, h, 0)) for x, h in zip((-0.5, 0.0, 0.5), drops)]
rows = [b.index for b in balls]

rec = w.record(quantities=["positions"])
inside = []  # which balls w.overlaps(zone) lists after each step
for _ in range(45):
    w.step()
    inside.append([b in w.overlaps(zone) for b in balls])
inside = np.array(inside)

ev = w.contact_events()
kind, who, when = np.array(ev["kind"]), ev["body_b"], ev["time"]
ids = [b.id for b in balls]
t_in = np.array([when[(kind == "sensor_begin") & (who == i)][0] for i in ids])
t_out = np.array([when[(kind == "sensor_end") & (who == i)][0] for i in ids])
theory_in = np.sqrt(2 * (drops - r - top) / g)  # lower edge reaches the top face
theory_out = np.sqrt(2 * (drops + r - bottom) / g)  # upper edge leaves the bottom face
step_ends = rec.time[1:]
steps_inside = [int(((step_ends >= a) & (step_ends <= b)).sum()) for a, b in zip(t_in, t_out)]

for h, a, ta, b, tb in zip(drops, t_in, theory_in, t_out, theory_out):
    print(f"from {h} m: enters at {a:.9f} s (theory {ta:.9f}), leaves at {b:.9f} s ({tb:.9f})")
listed = inside.sum(axis=0).tolist()
print(f"steps w.overlaps(zone) listed each ball: {listed}, expected from the events {steps_inside}")
error = max(np.abs(t_in - theory_in).max(), np.abs(t_out - theory_out).max())
assert error < 1e-12, f"sensor event times off free fall by {error:.1e} s"
assert listed == steps_inside, "overlaps() disagrees with the event times"

fig, ax = plt.subplots(figsize=(6, 4))
ax.axhspan(bottom, top, color="tab:green", alpha=0.2, label="sensor slab")
t = np.linspace(0, rec.time[-1], 300)
for k, (h, row) in enumerate(zip(drops, rows)):
    ax.plot(rec.time, rec.positions[:, row, 1], ".", ms=4, color=f"C{k}", label=f"ball from {h} m")
    theory = "free fall h - g t^2 / 2" if k == 0 else None
    ax.plot(t, h - g * t**2 / 2, "-", lw=0.8, color=f"C{k}", label=theory)
ax.plot(t_in, np.full(3, top + r), "k^", label="sensor_begin")
ax.plot(t_out, np.full(3, bottom - r), "kv", label="sensor_end")
ax.set(xlabel="time (s)", ylabel="height of the ball's centre (m)", ylim=(-0.2, 2.1))
ax.set_title("Balls through a sensor: steps (dots), free fall (lines), events")
ax.legend(fontsize=8, loc="upper right")
plt.show()
