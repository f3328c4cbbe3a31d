"""Hinge motor spinning up a wheel

A square plate of 2 kg and 0.4 m sides (I = m (a^2 + b^2) / 12 about its axle) is hinged to
the world at its centre, with a motor of speed 10 rad/s and at most 0.5 N m, starting at rest.
Theory: the motor pushes with its full torque, so the plate spins up at alpha = tau_max / I
until it turns at the motor's speed, at t = omega I / tau_max, and holds it from then on. The
picture shows the angular speed over time against that ramp and plateau.
"""

import matplotlib.pyplot as plt
import numpy as np
import rigidlab as rl

mass, side, omega, tau = 2.0, 0.4, 10.0, 0.5
w = rl.World()
plate = w.add_box((side / 2, side / 2, 0.01), mass=mass)
hinge = w.add_hinge_joint(plate, None, anchor=(0, 0, 0), axis=(0, 0, 1), motor=(omega, tau))
inertia = plate.inertia_body[2, 2]
assert abs(inertia - mass * 2 * side**2 / 12) < 1e-15

rec = w.record()
w.run(0.5)
torque = -hinge.reaction_torque[2]  # the world feels -tau; the plate gets +tau (N m)
w.run(1.5)
t, spin = rec.time, rec.angular_velocities[:, 0, 2]  # about the axle (rad/s)

alpha_theory, t_theory = tau / inertia, omega * inertia / tau
ramp = spin < 0.99 * omega
alpha = np.polyfit(t[ramp], spin[ramp], 1)[0]
theory = np.minimum(alpha_theory * t, omega)
print(f"angular acceleration {alpha:.12f} rad/s^2, theory tau / I = {alpha_theory:.12f}")
print(f"motor torque {torque:.12f} N m (max_torque {tau}); speed reached at {t_theory:.4f} s")
print(f"largest gap from min(alpha t, omega): {np.abs(spin - theory).max():.1e} rad/s")
assert abs(alpha - alpha_theory) < 1e-10, f"alpha = {alpha}, theory {alpha_theory}"
assert np.abs(spin - theory).max() < 1e-10, "the spin leaves the ramp-then-flat theory"

fig, ax = plt.subplots(figsize=(6, 4))
ax.plot(t, spin, lw=3, alpha=0.5, label="plate (rigidlab)")
ax.plot(t, theory, "k--", lw=1, label="theory: min(τ t / I, ω)")
ax.axvline(t_theory, color="grey", lw=0.8, ls=":", label="t = ω I / τ")
ax.set(xlabel="time (s)", ylabel="angular speed (rad/s)")
ax.set_title(f"Hinge motor (ω = {omega:g} rad/s, τ = {tau:g} N m) spinning up a plate")
ax.legend(loc="lower right")
plt.show()
