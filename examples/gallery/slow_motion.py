"""Slow motion with a scaled clock

A game loop calls w.advance(frame) once a frame with the frame's real duration; the world takes
whole steps of dt for the real time times w.time_scale, rounded down, and carries the rest to the
next frame. Here a clock of fixed 1/50 s frames drives three worlds (dt = 1/60 s) at time scales
1, 0.5 and 0.25: each world's time must equal its steps times dt and trail scale x real time by
less than one step. The picture shows simulated time against real time for each scale.
"""

import matplotlib.pyplot as plt
import numpy as np
import rigidlab as rl

dt, frame, frames = 1 / 60, 1 / 50, 55  # 1.1 s of real time
real = frame * np.arange(frames + 1)
fig, ax = plt.subplots(figsize=(6, 4))
for k, scale in enumerate([1.0, 0.5, 0.25]):
    w = rl.World(dt=dt)
    w.add_sphere(0.1, position=(0, 10, 0))  # something to simulate
    w.time_scale = scale
    rec = w.record(quantities=["positions"])  # one sample a step: counts the steps
    sim, fractions = [w.time], []
    for _ in range(frames):
        fractions.append(w.advance(frame))
        sim.append(w.time)
    sim = np.array(sim)
    steps = len(rec) - 1
    lag = scale * real[-1] - w.time  # how far the world trails the scaled clock
    print(
        f"scale {scale}: {steps} steps, w.time = {w.time:.6f} s = steps x dt "
        f"({steps * dt:.6f} s); scale x real = {scale * real[-1]:.6f} s, lag {lag / dt:.2f} dt"
    )
    assert w.time == steps * dt, f"w.time {w.time} is not {steps} x dt"
    assert np.all((scale * real - sim >= -1e-12) & (scale * real - sim < dt)), "clock drift"
    assert abs(fractions[-1] - lag / dt) < 1e-9, f"fraction {fractions[-1]} is not lag / dt"
    ax.step(real, sim, where="post", color=f"C{k}", label=f"w.time, time_scale = {scale}")
    ax.plot(real, scale * real, "--", color=f"C{k}", lw=0.8)
ax.plot([], [], "k--", lw=0.8, label="scale x real time")
ax.set(xlabel="real time (s)", ylabel="simulated time (s)", title="w.advance(1/50 s) per frame")
ax.legend()
plt.show()
