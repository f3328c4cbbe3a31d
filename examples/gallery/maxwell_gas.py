"""Maxwell-Boltzmann speeds in a gas of elastic spheres

Two hundred frictionless spheres of 1 kg bounce elastically in a closed box without gravity
(walls: six planes), all started at the same speed of 1 m/s in random directions. Collisions
spread the speeds until they follow Maxwell-Boltzmann, f(v) = 4 pi v^2 (m / 2 pi kT)^(3/2)
exp(-m v^2 / 2 kT), with kT = 2 E / 3N set by the kinetic energy E, which no impact changes:
a check is <v^4> / <v^2>^2 = 5/3 (it is 1 at the start). The picture is the histogram of the
speeds sampled after the gas has relaxed, against that density.
"""

import math

import matplotlib.pyplot as plt
import numpy as np
import rigidlab as rl

N, r, half, m = 200, 0.05, 0.5, 1.0
rng = np.random.default_rng(1)
w = rl.World(gravity=(0, 0, 0))
for normal in np.vstack([np.eye(3), -np.eye(3)]):  # the walls, facing inwards
    w.add_plane(normal=normal, offset=-half, restitution=1.0, friction=0.0)
cells = np.linspace(-half + 1.2 * r, half - 1.2 * r, 6)  # start on a 6 x 6 x 6 lattice
sites = np.array(np.meshgrid(cells, cells, cells)).reshape(3, -1).T
sites = sites[rng.choice(len(sites), N, replace=False)]
heading = rng.normal(size=(N, 3))
heading /= np.linalg.norm(heading, axis=1)[:, None]
balls = [
    w.add_sphere(r, mass=m, position=p, velocity=v, restitution=1.0, friction=0.0)
    for p, v in zip(sites, heading)
]
rows, walls = [b.index for b in balls], [b.id for b in w.bodies[:6]]
energy = w.energy()["kinetic"]
kT = 2 * energy / (3 * N)

w.run(1.0)  # relax: about a dozen collisions per sphere
w.contact_events()  # count collisions from here
rec = w.record(every=12, quantities=["velocities"])  # a sample every 0.05 s
collisions = 0
for _ in range(40):  # 20 s, the events read every 0.5 s so none is dropped
    w.run(0.5)
    ev = w.contact_events()
    collisions += sum(k == "impact" and a not in walls for k, a in zip(ev["kind"], ev["body_a"]))
speeds = np.linalg.norm(rec.velocities[:, rows], axis=2).ravel()

drift = abs(w.energy()["kinetic"] / energy - 1)
flatness = np.mean(speeds**4) / np.mean(speeds**2) ** 2
# A speed is a new sample after each collision: about N + 2 x collisions independent ones,
# for which var(v^4) / <v^4>^2 = 3.2 in Maxwell-Boltzmann sets the error of the ratio.
sigma = 5 / 3 * math.sqrt(3.2 / (N + 2 * collisions))
print(f"{collisions} collisions between spheres in 20 s; kinetic energy kept to {drift:.1e}")
print(f"<v^4>/<v^2>^2 = {flatness:.4f}, Maxwell-Boltzmann 5/3 = {5 / 3:.4f} +- {sigma:.4f}")
assert drift < 1e-12, f"kinetic energy changed by {drift:.1e} of itself"
assert abs(flatness - 5 / 3) < 3 * sigma, f"speeds not Maxwell-Boltzmann: {flatness:.4f}"

v = np.linspace(0, 3, 200)
density = 4 * np.pi * v**2 * (m / (2 * np.pi * kT)) ** 1.5 * np.exp(-m * v**2 / (2 * kT))
fig, ax = plt.subplots(figsize=(6, 4))
ax.hist(speeds, bins=60, density=True, alpha=0.6, label=f"rigidlab, {speeds.size} samples")
ax.plot(v, density, "k", label=f"Maxwell-Boltzmann, kT = {kT:.4f} J")
ax.axvline(1.0, color="tab:red", ls="--", label="every sphere's speed at the start")
ax.set(
    xlabel="speed (m/s)", ylabel="probability density (s/m)", title="Speeds in a hard-sphere gas"
)
ax.legend()
plt.show()
