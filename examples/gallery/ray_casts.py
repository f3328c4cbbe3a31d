"""Lidar sweep with ray_cast_many

A scanner at the centre of a walled room casts 720 horizontal rays at once with
w.ray_cast_many, all from one point, into a room holding two spheres and two boxes (one turned
by 30 degrees) whose centres sit at the rays' height. Each hit distance is checked against the
exact geometry: a ray aimed at a sphere's centre d away meets it at d - r, and a ray at angle
meets it at b - sqrt(b^2 - d^2 + r^2), with b the distance along the ray to the point nearest
the centre. The picture is the room seen from above (x-z) with the hit points coloured by body.
"""

import matplotlib.pyplot as plt
import numpy as np
import rigidlab as rl

y = 0.5  # the height of the scanner and of every shape's centre (m)
w = rl.World()
for x, z in [(4.1, 0), (-4.1, 0), (0, 3.1), (0, -3.1)]:  # an 8 m x 6 m room
    half = (0.1, 1, 3.2) if x else (4.2, 1, 0.1)
    w.add_box(half, kind="static", position=(x, y, z), name="wall")
ball = w.add_sphere(0.5, kind="static", position=(2.5, y, 0.0))
w.add_sphere(0.4, kind="static", position=(-2.0, y, 1.5))
turn = rl.Rotation.from_axis_angle((0, 1, 0), 30, degrees=True)
w.add_box((0.5, 0.5, 0.5), kind="static", position=(-1.5, y, -1.5), orientation=turn)
w.add_box((0.8, 0.5, 0.3), kind="static", position=(1.0, y, 2.0))

angles = np.linspace(0, 2 * np.pi, 720, endpoint=False)
directions = np.column_stack([np.cos(angles), np.zeros_like(angles), np.sin(angles)])
origin = np.array([0.0, y, 0.0])
hits = w.ray_cast_many(origin, directions)

straight = hits.distance[0]  # the ray along +x, straight at the ball's centre
d, r = np.linalg.norm(ball.position - origin), ball.dimensions["radius"]
print(f"ray at the sphere's centre: {straight:.15f} m, theory d - r = {d - r:.15f} m")
on_ball = hits.body_id == ball.id
b = directions[on_ball] @ (ball.position - origin)
exact = b - np.sqrt(b**2 - d**2 + r**2)
worst = np.abs(hits.distance[on_ball] - exact).max()
print(f"{on_ball.sum()} rays met that sphere; largest error against the closed form {worst:.1e} m")
print(f"{hits.hit.sum()} of {len(hits)} rays hit something")
assert abs(straight - (d - r)) < 1e-12, f"straight ray off by {straight - (d - r):.1e} m"
assert worst < 1e-12, f"rays at angle off the sphere's closed form by {worst:.1e} m"

fig, ax = plt.subplots(figsize=(6, 4.5))
for body in w.bodies:
    x, z = body.position[0], body.position[2]
    if body.shape == "sphere":
        ax.add_patch(plt.Circle((x, z), body.dimensions["radius"], fill=False, color="0.3"))
    else:
        h = body.dimensions["half_extents"]
        corners = np.array([[-1, 0, -1], [1, 0, -1], [1, 0, 1], [-1, 0, 1], [-1, 0, -1]]) * h
        outline = corners @ rl.Rotation(body.orientation).as_matrix().T + body.position
        ax.plot(outline[:, 0], outline[:, 2], color="0.3", lw=1)
for p in hits.point[::12]:
    ax.plot([0, p[0]], [0, p[2]], color="0.85", lw=0.5, zorder=0)
objects = [b.id for b in w.bodies if b.name != "wall"]
colours = [f"C{objects.index(i)}" if i in objects else "0.5" for i in hits.body_id]
ax.scatter(*hits.point[:, [0, 2]].T, c=colours, s=4, label="ray hits (colour: body)")
ax.plot(0, 0, "r*", ms=12, label="scanner")
ax.set(xlabel="x (m)", ylabel="z (m)", aspect="equal", title="Lidar sweep: 720 rays, top view")
ax.legend(loc="upper left", fontsize=8)
plt.show()
