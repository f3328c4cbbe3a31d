"""Spring integrators

A 1 kg mass on a spring of k = 100 N/m in zero gravity (w = sqrt(k/m) = 10 rad/s) is released
10 cm from rest length and run for 10 s at dt = 1/240 s with each integrator. Theory: explicit
Euler multiplies the energy by (1 + w^2 dt^2) every step, RK4 by about 1 - (w dt)^6 / 72, and
symplectic Euler and velocity Verlet keep it within bands of w dt / 2 and (w dt)^2 / 4; Verlet's
period should be 2 pi sqrt(m/k). The picture shows each integrator's relative energy error
against time.
"""

import matplotlib.pyplot as plt
import numpy as np
from rigidlab.experiments import oscillator, zero_crossings

m, k, dt, seconds = 1.0, 100.0, 1 / 240, 10.0
wdt = np.sqrt(k / m) * dt
errors, period = {}, np.nan
for name in ("euler", "symplectic_euler", "verlet", "rk4"):
    w, mass = oscillator(mass=m, stiffness=k, displacement=0.1, dt=dt, integrator=name)
    rec = w.record(quantities=["positions", "energy"])
    w.run(seconds)
    energy = rec.energy["total"]  # kinetic + elastic
    errors[name] = energy / energy[0] - 1
    if name == "verlet":
        x = rec.positions[:, mass.index, 0] - 1.0  # stretch of the spring
        period = np.mean(np.diff(zero_crossings(rec.time, x)))
t = rec.time

# Per step Euler multiplies the energy by |1 + i w dt|^2 and RK4 by |1 + z + ... + z^4/24|^2.
z, n = 1j * wdt, np.arange(len(t))
euler_theory = abs(1 + z) ** (2 * n) - 1
rk4_theory = abs(1 + z + z**2 / 2 + z**3 / 6 + z**4 / 24) ** (2 * n) - 1
bands = {"symplectic_euler": wdt / 2, "verlet": wdt**2 / 4}
for name, err in errors.items():
    print(f"{name:>16}: largest |E/E0 - 1| = {np.max(np.abs(err)):.3e}, at the end {err[-1]:+.3e}")
print(
    f"at 10 s: Euler {errors['euler'][-1]:.4f}, theory (1 + w^2 dt^2)^n - 1 = {euler_theory[-1]:.4f}"
)
print(f"at 10 s: RK4 {errors['rk4'][-1]:.4e}, theory {rk4_theory[-1]:.4e}")
T0 = 2 * np.pi * np.sqrt(m / k)
print(f"Verlet period {period:.6f} s, theory 2 pi sqrt(m/k) = {T0:.6f} s")
assert abs(errors["euler"][-1] / euler_theory[-1] - 1) < 1e-9, "Euler's energy gain"
assert abs(errors["rk4"][-1] / rk4_theory[-1] - 1) < 1e-4, "RK4's energy loss"
for name, band in bands.items():
    worst = np.max(np.abs(errors[name]))
    assert worst < 1.05 * band, f"{name}: energy error {worst:.2e} out of its band {band:.2e}"
assert abs(period / T0 - 1) < 1e-4, f"Verlet period {period} (its own error is (w dt)^2/24)"

fig, ax = plt.subplots(figsize=(6, 4))
for i, (name, err) in enumerate(errors.items()):
    ax.plot(
        t, np.abs(err) + 1e-16, color=f"C{i}", lw=3 if name in ("euler", "rk4") else 0.8, label=name
    )
ax.plot(t, euler_theory, "k--", lw=1, label="theory, Euler and RK4")
ax.plot(t, -rk4_theory, "k--", lw=1)
ax.axhline(bands["symplectic_euler"], color="C1", ls=":", label="band w dt / 2")
ax.axhline(bands["verlet"], color="C2", ls=":", label="band (w dt)$^2$ / 4")
ax.set_yscale("log")
ax.set_ylim(1e-14, 1e4)
ax.set_xlabel("time (s)")
ax.set_ylabel("relative energy error |E/E$_0$ - 1|")
ax.set_title("Mass on a spring, w dt = 0.042, by integrator")
ax.legend(loc="lower center", ncol=2, fontsize=8)
plt.show()
