"""Restitution sweep on Dask

rl.sweep builds a world for every point of a grid of restitution e and drop height h (a ball
dropped onto a floor of the same e), runs them in parallel on a Dask LocalCluster and returns the
measured first-bounce apex over the grid. Theory: a ball that hits the floor at speed v leaves
at e v, so it climbs back to e^2 h whatever the height. The picture shows apex / h against e
for each drop height, beside the curve e^2.
"""

import matplotlib.pyplot as plt
import numpy as np
import rigidlab as rl

G, R = 9.81, 0.05


def drop(e, h):
    w = rl.World()
    w.add_plane(restitution=e)
    w.add_sphere(R, position=(0, R + h, 0), restitution=e)
    return w


def first_apex(w, rec):
    y, v = rec.positions[:, 1, 1], rec.velocities[:, 1, 1]
    up = int(np.argmax(v > 0))  # the first sample after the bounce
    return y[up] + v[up] ** 2 / (2 * G) - R  # and the rest of the climb in free flight


if __name__ == "__main__":  # Dask starts worker processes that import this file
    grid = {"e": [0.2, 0.4, 0.6, 0.8, 1.0], "h": [0.25, 0.5, 1.0]}
    ds = rl.sweep(drop, grid, seconds=1.5, measure=first_apex, record=["positions", "velocities"])
    e, h = ds.e.values, ds.h.values
    ratio = ds.value.values / h  # shape (5, 3): one row per e, one column per h
    error = np.abs(ratio / e[:, None] ** 2 - 1).max()
    for ei, row in zip(e, ratio):
        print(f"e = {ei}: apex / h = {np.round(row, 9)}, theory e^2 = {ei**2:.9f}")
    print(f"largest relative difference from e^2 over {ratio.size} drops: {error:.1e}")
    assert error < 1e-12, f"bounce heights off e^2 by {error:.1e} (relative)"

    fig, ax = plt.subplots(figsize=(6, 4))
    fine = np.linspace(0, 1, 100)
    ax.plot(fine, fine**2, "k-", lw=1, label="theory: e^2")
    for k, hk in enumerate(h):
        ax.plot(e, ratio[:, k], "os^"[k], ms=8 - 2 * k, mfc="none", label=f"h = {hk} m")
    ax.set(
        xlabel="restitution e",
        ylabel="first apex / drop height",
        title="First bounce over an e x h grid (rl.sweep)",
    )
    ax.legend()
    plt.show()
