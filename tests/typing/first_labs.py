"""What a first lab writes, checked by pyright against rigidlab's types (tests/test_typing.py):
no cast, no ignore, every line typed."""

import math

import numpy as np
import rigidlab as rl

w = rl.World(gravity=(0, -9.81, 0), dt=1 / 240)
w.gravity = (0, -1.62, 0)
floor = w.add_plane(restitution=0.5, name="floor")
ball = w.add_sphere(0.1, mass=1.0, position=(0, 1, 0), restitution=0.8, name="ball")
box = w.add_box((0.1, 0.2, 0.3), orientation=rl.Rotation.from_euler("z", 30, degrees=True))
ramp = w.add_wedge(1.0, 0.3, 0.5, kind="static", anchor="centroid")
ball.velocity = (3, 0, 0)
ball.position = np.array([0.0, 2.0, 0.0])
ball.orientation = rl.Rotation.identity()
ball.velocity += (0.0, 1.0, 0.0)
w.velocities = np.zeros((len(w), 3))
w.run(1.0)
height: float = float(ball.position[1])
speed: float = float(np.linalg.norm(ball.velocity))
total: float = w.energy()["total"]
kinetic: float = w.energy()["kinetic"]
radius: float = ball.dimensions["radius"]
half: np.ndarray = box.dimensions["half_extents"]
hit = w.ray_cast((0, 5, 0), (0, -1, 0))
if hit is not None:
    name: str | None = hit["body"].name
    distance: float = hit["distance"]
    point: np.ndarray = hit["point"]
events = w.contact_events()
times: np.ndarray = events["time"]
kinds: list[str] = events["kind"]
dropped: int = events["dropped"]
contacts = w.contacts()
depths: np.ndarray = contacts["depth"]
first: int = int(contacts["body_a"][0]) if len(depths) else -1
same = w["ball"] == ball and w.body(ball.id) == ball and "ball" in w
rec = w.record(every=2, quantities=["positions", "energy"])
w.step(10)
ys: np.ndarray = rec.positions[:, 0, 1]
energies: np.ndarray = rec.energy["total"]
axis, angle = rl.Rotation(ball.orientation).as_axis_angle()
tilt: float = math.degrees(angle)

w2 = rl.World2D(gravity=(0, -9.81))
disc = w2.add_circle(0.1, position=(0, 1))
disc.velocity = (1, 0)
w2.run(0.5)
x2: float = float(disc.position[0])
