"""Springs, joints, forces and free rotation against theory: the oscillator's period and each
integrator's energy behaviour, damping envelopes, the pendulum against the complete elliptic
integral, conservation with springs, the Dzhanibekov flip, joint drift, limits and motors."""

import math

import numpy as np
import pytest
import rigidlab as rl

G = 9.81


def ellipk(m):
    """Complete elliptic integral of the first kind K(m), m = k^2, by the arithmetic-geometric
    mean."""
    a, b = 1.0, math.sqrt(1.0 - m)
    while abs(a - b) > 1e-15 * a:
        a, b = 0.5 * (a + b), math.sqrt(a * b)
    return math.pi / (2.0 * a)


def upward_crossings(t, x):
    """Times at which x crosses zero upwards, linearly interpolated."""
    i = np.where((x[:-1] < 0) & (x[1:] >= 0))[0]
    return t[i] + (t[i + 1] - t[i]) * (-x[i]) / (x[i + 1] - x[i])


def oscillator(integrator, k=100.0, m=1.0, amplitude=0.1, dt=1 / 240, damping=0.0):
    w = rl.World(gravity=(0, 0, 0), dt=dt, integrator=integrator)
    b = w.add_sphere(0.05, mass=m, position=(amplitude, 0, 0))
    s = w.add_spring(b, None, stiffness=k, damping=damping, rest_length=0.0, anchor_b=(0, 0, 0))
    return w, b, s


def run_recorded(w, seconds, quantities=("positions", "energy")):
    rec = w.record(every=1, quantities=list(quantities))
    w.run(seconds)
    return rec


# ---------------------------------------------------------------------------------------------
# mass on a spring


@pytest.mark.parametrize("integrator", ["symplectic_euler", "verlet", "rk4"])
@pytest.mark.parametrize(
    "k, m, dt", [(100.0, 1.0, 1 / 240), (40.0, 2.5, 1 / 120), (400.0, 0.5, 1 / 480)]
)
def test_spring_period(integrator, k, m, dt):
    w, b, _ = oscillator(integrator, k=k, m=m, dt=dt)
    rec = run_recorded(w, 20.0)
    crossings = upward_crossings(rec.time, rec.positions[:, 0, 0])
    period = np.mean(np.diff(crossings))
    assert period == pytest.approx(2 * math.pi * math.sqrt(m / k), rel=1e-3)


@pytest.mark.parametrize("integrator", ["symplectic_euler", "verlet"])
def test_symplectic_energy_is_bounded_without_trend(integrator):
    """Over 100 s the energy oscillates about its start and does not drift. Symplectic Euler's
    energy swings by w dt / 2 of itself (it conserves E - k x v dt / 2 instead), about 2% at
    k = 100, dt = 1/240, which is what theory gives; Verlet's swing is (w dt)^2 / 4."""
    k, m, dt = 100.0, 1.0, 1 / 240
    w, b, _ = oscillator(integrator, k=k, m=m, dt=dt)
    rec = run_recorded(w, 100.0, ("positions", "velocities", "energy"))
    e = rec.energy["total"]
    e0 = e[0]
    omega_dt = math.sqrt(k / m) * dt
    swing = omega_dt / 2 if integrator == "symplectic_euler" else omega_dt**2 / 4
    assert np.max(np.abs(e / e0 - 1)) < 1.05 * swing
    if integrator == "verlet":
        assert np.max(np.abs(e / e0 - 1)) < 0.01
    period_steps = int(round(2 * math.pi * math.sqrt(m / k) / dt))
    # No trend: the swing's top and bottom over the first and last ten periods agree.
    first, last = e[: 10 * period_steps], e[-10 * period_steps :]
    assert abs(last.max() - first.max()) / e0 < 1e-3 * swing
    assert abs(last.min() - first.min()) / e0 < 1e-3 * swing
    if integrator == "symplectic_euler":
        x, v = rec.positions[:, 0, 0], rec.velocities[:, 0, 0]
        # The invariant of symplectic Euler for x' = v, v' = -k x / m (v taken after the kick).
        shadow = 0.5 * m * v**2 + 0.5 * k * x**2 - 0.5 * k * dt * x * v
        assert np.max(np.abs(shadow / shadow[0] - 1)) < 1e-9


def test_rk4_energy_drift_is_tiny():
    w, b, _ = oscillator("rk4")
    rec = run_recorded(w, 100.0)
    e = rec.energy["total"]
    assert np.max(np.abs(e / e[0] - 1)) < 1e-5


def test_explicit_euler_gains_energy_as_theory_says():
    """Explicit Euler multiplies the oscillator's energy by 1 + (w dt)^2 every step."""
    k, m, dt = 100.0, 1.0, 1 / 240
    w, b, _ = oscillator("euler", k=k, m=m, dt=dt)
    rec = run_recorded(w, 10.0)
    e = rec.energy["total"]
    assert np.all(np.diff(e) > 0)
    steps = len(e) - 1
    assert e[-1] / e[0] == pytest.approx((1 + k / m * dt**2) ** steps, rel=1e-9)


def test_elastic_energy_is_reported():
    w, b, s = oscillator("verlet", k=100.0, amplitude=0.1)
    assert w.energy()["elastic"] == pytest.approx(0.5 * 100.0 * 0.1**2, rel=1e-12)
    assert s.elastic_energy == pytest.approx(0.5, rel=1e-12) or s.elastic_energy == pytest.approx(
        0.5 * 100 * 0.01
    )
    assert s.length == pytest.approx(0.1)


def test_rest_length_defaults_to_the_initial_distance():
    w = rl.World(gravity=(0, 0, 0))
    a = w.add_sphere(0.1, position=(0, 0, 0))
    b = w.add_sphere(0.1, position=(0.7, 0.2, 0))
    s = w.add_spring(a, b, stiffness=10.0, anchor_a=(0.1, 0, 0), anchor_b=(-0.1, 0, 0))
    assert s.rest_length == pytest.approx(math.hypot(0.5, 0.2))
    assert w.energy()["elastic"] == 0.0


# ---------------------------------------------------------------------------------------------
# damping


@pytest.mark.parametrize("c", [0.5, 2.0])
@pytest.mark.parametrize("integrator", ["verlet", "rk4"])
def test_damped_envelope(c, integrator):
    """Peaks of an underdamped oscillator decay as exp(-c t / 2m)."""
    k, m = 100.0, 1.0
    w, b, _ = oscillator(integrator, k=k, m=m, damping=c, dt=1 / 1000)
    rec = run_recorded(w, 6.0)
    t, x = rec.time, rec.positions[:, 0, 0]
    i = np.where((x[1:-1] > x[:-2]) & (x[1:-1] >= x[2:]))[0] + 1
    i = i[x[i] > 1e-4]
    assert len(i) >= 4
    # Peak by parabola through the three samples around each maximum.
    y0, y1, y2 = x[i - 1], x[i], x[i + 1]
    shift = 0.5 * (y0 - y2) / (y0 - 2 * y1 + y2)
    peak = y1 - 0.25 * (y0 - y2) * shift
    tp = t[i] + shift * (t[1] - t[0])
    omega_d = math.sqrt(k / m - (c / (2 * m)) ** 2)
    # The exact solution's maxima lie on A exp(-c t / 2m) cos(phi) with the same factor.
    envelope = peak[0] * np.exp(-c * (tp - tp[0]) / (2 * m))
    assert np.allclose(peak, envelope, rtol=1e-2)
    assert np.mean(np.diff(tp)) == pytest.approx(2 * math.pi / omega_d, rel=1e-3)


@pytest.mark.parametrize("ratio", [1.0, 2.0])
def test_critical_and_over_damping_do_not_overshoot(ratio):
    k, m = 100.0, 1.0
    c = ratio * 2 * math.sqrt(k * m)
    w, b, _ = oscillator("verlet", k=k, m=m, damping=c)
    rec = run_recorded(w, 5.0)
    x = rec.positions[:, 0, 0]
    assert np.all(x > 0)
    assert x[-1] < 1e-6
    if ratio == 1.0:
        t = rec.time
        exact = 0.1 * (1 + math.sqrt(k / m) * t) * np.exp(-math.sqrt(k / m) * t)
        # Verlet's error is second order: about (w dt)^2 / 10 of the amplitude here.
        assert np.max(np.abs(x - exact)) < 1e-3 * 0.1


# ---------------------------------------------------------------------------------------------
# pendulum


def pendulum(kind, degrees, length=1.0, integrator="verlet", dt=1 / 240):
    w = rl.World(dt=dt, integrator=integrator)
    th = math.radians(degrees)
    bob = w.add_sphere(0.01, mass=1.0, position=(length * math.sin(th), -length * math.cos(th), 0))
    if kind == "distance":
        j = w.add_distance_joint(bob, None, anchor_b=(0, 0, 0))
    else:
        j = w.add_ball_joint(bob, None, anchor=(0, 0, 0))
    return w, bob, j


def measured_period(w, seconds):
    rec = w.record(every=1, quantities=["positions"])
    w.run(seconds)
    crossings = upward_crossings(rec.time, rec.positions[:, 0, 0])
    return np.mean(np.diff(crossings)), rec


@pytest.mark.parametrize("kind", ["distance", "ball"])
@pytest.mark.parametrize("length", [1.0, 0.5])
def test_small_pendulum_period(kind, length):
    w, bob, _ = pendulum(kind, 5.0, length)
    period, _ = measured_period(w, 20.0)
    small = 2 * math.pi * math.sqrt(length / G)
    assert period == pytest.approx(small, rel=5e-3)
    # Better still against the exact period at 5 degrees.
    exact = 4 * math.sqrt(length / G) * ellipk(math.sin(math.radians(2.5)) ** 2)
    assert period == pytest.approx(exact, rel=1e-4)


@pytest.mark.parametrize("kind", ["distance", "ball"])
@pytest.mark.parametrize("degrees", [30.0, 60.0, 90.0, 150.0])
@pytest.mark.parametrize("integrator", ["verlet", "rk4"])
def test_large_pendulum_period_matches_elliptic_integral(kind, degrees, integrator):
    w, bob, _ = pendulum(kind, degrees, integrator=integrator)
    period, _ = measured_period(w, 20.0)
    exact = 4 * math.sqrt(1.0 / G) * ellipk(math.sin(math.radians(degrees) / 2) ** 2)
    # The ball joint makes a physical pendulum (the bob turns): I = m L^2 + 2/5 m r^2.
    if kind == "ball":
        exact *= math.sqrt(1.0 + 0.4 * 0.01**2)
    assert period == pytest.approx(exact, rel=5e-3)
    assert period == pytest.approx(exact, rel=1e-4)


@pytest.mark.parametrize("kind", ["distance", "ball"])
def test_rod_length_holds_for_60_seconds(kind):
    w, bob, j = pendulum(kind, 120.0)
    rec = w.record(every=1, quantities=["positions", "energy"])
    w.run(60.0)
    lengths = np.linalg.norm(rec.positions[:, 0, :], axis=1)
    assert np.max(np.abs(lengths - 1.0)) < 1e-4
    assert np.max(np.abs(lengths - 1.0)) < 1e-12
    e = rec.energy["total"]
    assert np.max(np.abs(e - e[0])) / (G * 1.0) < 1e-3


@pytest.mark.parametrize("dt", [1 / 60, 1 / 240, 1 / 1000])
def test_a_chain_of_ball_joints_solved_together_holds_every_joint_to_round_off(dt):
    # Ten links hung from a fixed point and let go as a straight line at 60 degrees: the joints
    # are solved all at once (a tree), each of the three components of an anchor gap to 1e-12 m,
    # so no gap exceeds sqrt(3) 1e-12 m at any step, whether or not the sweeps after run.
    w = rl.World(dt=dt)
    d = np.array([math.sin(math.radians(60)), -math.cos(math.radians(60)), 0.0])
    previous = None
    for i in range(10):
        link = w.add_sphere(0.02, mass=1.0, position=tuple(d * 0.1 * (i + 1)))
        w.add_ball_joint(link, previous, anchor=tuple(d * 0.1 * i))
        previous = link
    e0 = w.energy()["total"]
    worst = 0.0
    for _ in range(round(2.0 / dt)):
        w.step()
        worst = max(worst, max(j.length for j in w.joints))
    assert worst < math.sqrt(3) * 1e-12
    # Energy stays in the symplectic band (docs/concepts/joints.md), O(dt^2).
    assert abs(w.energy()["total"] - e0) <= 5e-3 * abs(e0) * max(dt * 60, 0.25) ** 2


@pytest.mark.parametrize("kind", ["distance", "ball"])
@pytest.mark.parametrize("pivot", [(3.0, 2.0, -4.0), (30.0, 0.0, 0.0), (-0.5, 7.0, 12.0)])
def test_a_pendulum_pivoted_anywhere_swings_as_one_pivoted_at_the_origin(kind, pivot):
    """Where the world holds the pivot must not matter: the rod keeps its length, the bob never
    moves along the rod, and it swings in the period of the elliptic integral."""
    p = np.array(pivot)
    w = rl.World()
    th = math.radians(60.0)
    bob = w.add_sphere(0.01, mass=1.0, position=tuple(p + [math.sin(th), -math.cos(th), 0.0]))
    if kind == "distance":
        w.add_distance_joint(bob, None, anchor_b=pivot)
    else:
        w.add_ball_joint(bob, None, anchor=pivot)
    rec = w.record(every=1, quantities=["positions", "velocities"])
    w.run(10.0)
    d = rec.positions[:, 0, :] - p
    lengths = np.linalg.norm(d, axis=1)
    assert np.max(np.abs(lengths - 1.0)) < 1e-12
    along_rod = np.einsum("ij,ij->i", rec.velocities[:, 0, :], d / lengths[:, None])
    assert np.max(np.abs(along_rod)) < 1e-12
    period = np.mean(np.diff(upward_crossings(rec.time, d[:, 0])))
    exact = 4 * math.sqrt(1.0 / G) * ellipk(math.sin(th / 2) ** 2)
    if kind == "ball":
        exact *= math.sqrt(1.0 + 0.4 * 0.01**2)
    assert period == pytest.approx(exact, rel=1e-4)


@pytest.mark.parametrize("anchor", [(0.0, 0.0, 0.0), (3.0, 2.0, -4.0), (-20.0, 5.0, 1.0)])
@pytest.mark.parametrize("mass", [1.0, 100.0])
def test_a_door_hinged_to_the_world_anywhere_turns_only_about_its_hinge(anchor, mass):
    a = np.array(anchor)
    w = rl.World(gravity=(0, 0, 0))
    door = w.add_box((0.5, 1.0, 0.02), mass=mass, position=tuple(a + [0.5, 0.0, 0.0]))
    w.add_hinge_joint(door, None, anchor=anchor, axis=(0, 1, 0), motor=(2.0, 50.0 * mass))
    for _ in range(240):
        w.step()
        spin = np.array(door.angular_velocity)
        assert abs(spin[0]) + abs(spin[2]) < 1e-12
        # The door's centre stays 0.5 m from the hinge line, level with the anchor.
        offset = np.array(door.position) - a
        assert math.hypot(offset[0], offset[2]) == pytest.approx(0.5, abs=1e-12)
        assert offset[1] == pytest.approx(0.0, abs=1e-12)
    assert spin[1] == pytest.approx(2.0, abs=1e-9)


def test_pendulum_reaction_force_is_the_rod_tension():
    """At the bottom of a swing from angle a the rod pulls with m g (3 - 2 cos a)."""
    w, bob, j = pendulum("distance", 60.0)
    best = None
    for _ in range(2400):
        w.step()
        x = bob.position[0]
        if best is None or abs(x) < best[0]:
            best = (abs(x), np.linalg.norm(j.reaction_force))
        if bob.velocity[0] > 0 and x > 0.1:
            break
    assert best[1] == pytest.approx(G * (3 - 2 * math.cos(math.radians(60))), rel=2e-2)


def test_rope_goes_slack_and_catches():
    w = rl.World()
    bob = w.add_sphere(0.05, mass=1.0, position=(0, -0.5, 0), velocity=(0, 3, 0))
    w.add_rope_joint(bob, None, anchor_b=(0, 0, 0), max_length=1.0)
    heights = []
    for _ in range(600):
        w.step()
        heights.append(bob.position[1])
        assert np.linalg.norm(bob.position) <= 1.0 + 1e-9
    # Thrown up: free flight (slack) to 0.5 + 9 / (2 g), then falls until the rope catches.
    assert max(heights) == pytest.approx(-0.5 + 9 / (2 * G), abs=1e-3)
    assert min(heights) == pytest.approx(-1.0, abs=1e-6)


def test_hinge_limits_and_motor():
    """A door driven by a motor speeds up at tau / I about the hinge, turns at the motor's
    speed, and stops at its limit; the hinge line stays put."""
    w = rl.World(gravity=(0, 0, 0))
    door = w.add_box((0.5, 1.0, 0.02), mass=10.0, position=(0.5, 0, 0))
    hinge = w.add_hinge_joint(
        door, None, anchor=(0, 0, 0), axis=(0, 1, 0), limits=(-1.0, 1.0), motor=(2.0, 50.0)
    )
    inertia = 10.0 * (1.0**2 + 0.04**2) / 12 + 10.0 * 0.5**2
    alpha = 50.0 / inertia
    w.run(0.25)
    assert door.angular_velocity == pytest.approx([0, 2.0, 0], abs=1e-6)
    assert hinge.angle == pytest.approx(2.0 * 0.25 - 2.0**2 / (2 * alpha), abs=2 * 2.0 * w.dt)
    w.run(2.0)
    assert hinge.angle == pytest.approx(1.0, abs=1e-6)
    assert np.linalg.norm(door.angular_velocity) < 1e-6
    # The centre of mass stays 0.5 from the hinge line (the y axis).
    assert np.linalg.norm(door.position[[0, 2]]) == pytest.approx(0.5, abs=1e-9)
    assert door.position[1] == pytest.approx(0.0, abs=1e-9)
    hinge.motor = None
    assert hinge.motor is None


def test_motor_torque_is_limited():
    """A motor weaker than the load turns at the rate its torque allows: I alpha = tau."""
    w = rl.World(gravity=(0, 0, 0))
    wheel = w.add_box((0.5, 0.5, 0.05), mass=4.0)
    w.add_hinge_joint(wheel, None, anchor=(0, 0, 0), axis=(0, 0, 1), motor=(100.0, 1.0))
    w.run(1.0)
    inertia = 4.0 * (0.5**2 + 0.5**2) * 4 / 12
    assert wheel.angular_velocity[2] == pytest.approx(1.0 / inertia * 1.0, rel=1e-3)


def test_fixed_joint_welds_bodies():
    w = rl.World()
    a = w.add_box((0.1, 0.1, 0.1), position=(0, 1, 0))
    b = w.add_box(
        (0.1, 0.1, 0.1), position=(0.3, 1, 0), orientation=(0, 0, math.sin(0.2), math.cos(0.2))
    )
    w.add_fixed_joint(a, b)
    w.add_ball_joint(a, None, anchor=(-0.1, 1.1, 0))

    def relative(q1, q2):
        # The angle of the rotation taking q1 to q2 (quaternions x, y, z, w).
        return 2 * math.acos(min(1.0, abs(float(np.dot(q1, q2)))))

    d0, turn0 = np.linalg.norm(b.position - a.position), relative(a.orientation, b.orientation)
    w.run(3.0)
    # a swings about the ball joint and b moves with it: same distance, same relative turn.
    assert np.linalg.norm(a.angular_velocity) > 1.0
    assert np.linalg.norm(b.position - a.position) == pytest.approx(d0, abs=1e-9)
    assert relative(a.orientation, b.orientation) == pytest.approx(turn0, abs=1e-7)
    assert np.linalg.norm(a.angular_velocity - b.angular_velocity) < 0.01 * np.linalg.norm(
        a.angular_velocity
    )


# ---------------------------------------------------------------------------------------------
# sliders (prismatic joints)


def unit(v):
    v = np.asarray(v, dtype=float)
    return v / np.linalg.norm(v)


@pytest.mark.parametrize("dt", [1 / 60, 1 / 240, 1 / 1000])
def test_a_slider_on_a_tilted_rail_runs_down_at_g_along_it_without_turning(dt):
    """A box on a rail tilted 30 degrees from the horizontal (b the world) slides at g sin 30
    along it, exactly (uniform acceleration), keeping its orientation and its line."""
    w = rl.World(dt=dt)
    th = math.radians(30)
    axis = np.array([math.cos(th), -math.sin(th), 0.0])
    box = w.add_box((0.1, 0.05, 0.08), mass=2.0, position=(0, 1, 0))
    slide = w.add_slider_joint(box, anchor=(0, 1, 0), axis=tuple(axis))
    w.step(round(1.0 / dt))
    travelled = box.position - np.array([0, 1, 0])
    assert abs(np.dot(travelled, axis) - 0.5 * G * math.sin(th) * w.time**2) < 1e-9
    assert abs(slide.translation) == pytest.approx(0.5 * G * math.sin(th) * w.time**2, abs=1e-9)
    assert np.linalg.norm(travelled - axis * np.dot(travelled, axis)) < 1e-12
    assert np.allclose(box.orientation, (0, 0, 0, 1), atol=1e-12)


def test_a_slider_motor_drives_at_its_speed_and_its_limit_stops_it():
    """No gravity: a motor of 1 m/s and at most 100 N on 2 kg reaches its speed and holds it;
    at the 0.5 m limit the box stops there and stays on its line."""
    w = rl.World(gravity=(0, 0, 0))
    axis = unit((1, 2, -2))
    box = w.add_box((0.1, 0.05, 0.08), mass=2.0)
    slide = w.add_slider_joint(
        box, anchor=(0, 0, 0), axis=tuple(axis), limits=(-0.5, 0.5), motor=(1.0, 100.0)
    )
    w.run(0.25)
    assert np.allclose(box.velocity, axis, atol=1e-12)
    w.run(1.0)
    assert slide.translation == pytest.approx(0.5, abs=1e-12)
    assert np.linalg.norm(box.velocity) < 1e-12
    assert np.linalg.norm(box.position - 0.5 * axis) < 1e-12


@pytest.mark.parametrize("dt", [1 / 60, 1 / 240, 1 / 1000])
def test_a_bead_on_a_spinning_rod_slides_out_as_cosh(dt):
    """A bead free to slide along a rod spinning at a steady omega (the rod a billion times
    heavier) moves out as r(t) = r0 cosh(omega t) + (v0 / omega) sinh(omega t), the closed
    form in the rod's frame (no force along it, only the centrifugal pull); the rod's axis, its
    spin axis and the bead's start are set at random. RATTLE is second order: the error is
    below 5 dt^2 (it is 2.8 dt^2), and the bead never leaves the rod."""
    rng = np.random.default_rng(7)
    spin = unit(rng.normal(size=3))
    along = unit(np.cross(spin, rng.normal(size=3)))
    omega, r0, v0, seconds = 3.0, 0.4, 0.3, 0.5
    w = rl.World(gravity=(0, 0, 0), dt=dt)
    rod = w.add_box((0.3, 0.05, 0.05), mass=1e9)
    rod.orientation = tuple(rotation_taking((1, 0, 0), along))
    bead = w.add_box((0.02, 0.02, 0.02), mass=0.5, position=tuple(r0 * along))
    w.add_slider_joint(bead, rod, anchor=tuple(r0 * along), axis=tuple(along))
    rod.angular_velocity = bead.angular_velocity = tuple(omega * spin)
    bead.velocity = tuple(v0 * along + omega * r0 * np.cross(spin, along))
    w.step(round(seconds / dt))
    r = np.linalg.norm(bead.position)
    exact = r0 * math.cosh(omega * seconds) + v0 / omega * math.sinh(omega * seconds)
    assert abs(r - exact) < 5 * dt**2
    rod_axis = rotate(rod.orientation, (1, 0, 0))
    assert np.linalg.norm(np.cross(rod_axis, bead.position)) < 1e-9


def rotation_taking(u, v):
    """The quaternion (x, y, z, w) of the shortest rotation taking unit u to unit v."""
    u, v = unit(u), unit(v)
    q = np.append(np.cross(u, v), 1.0 + np.dot(u, v))
    return q / np.linalg.norm(q)


def rotate(q, v):
    """Vector v rotated by the quaternion q (x, y, z, w)."""
    x, y, z, s = q
    u = np.array([x, y, z])
    v = np.asarray(v, dtype=float)
    return v + 2 * s * np.cross(u, v) + 2 * np.cross(u, np.cross(u, v))


@pytest.mark.parametrize("dt", [1 / 60, 1 / 240, 1 / 1000])
def test_two_bodies_on_a_slider_spinning_free_keep_their_energy_and_momenta(dt):
    """Two free bodies joined by a slider, spinning about a tilted axis while one slides out
    along the other (no gravity): the joint's impulses are internal, so momentum is kept to
    round-off, energy to second order (below 0.2 dt^2 of it; it is 0.05 dt^2, as for a ball or
    fixed joint) and angular momentum to first order (below 0.1 dt of it; it is 0.056 dt).
    Pushed at the wrong point, the pair once gained 47% energy and 27% angular momentum in
    2 s, at any step."""
    w = rl.World(gravity=(0, 0, 0), dt=dt)
    a = w.add_box((0.3, 0.05, 0.05), mass=2.0)
    b = w.add_box((0.04, 0.04, 0.04), mass=0.5, position=(0.4, 0, 0))
    w.add_slider_joint(b, a, anchor=(0.4, 0, 0), axis=(1, 0, 0))
    omega = np.array([0.3, 0.5, 3.0])
    a.angular_velocity = b.angular_velocity = tuple(omega)
    b.velocity = tuple(np.cross(omega, (0.4, 0, 0)) + (0.3, 0, 0))
    w.step()
    e0, p0 = w.energy()["total"], np.array(w.momentum())
    l0 = np.array(w.angular_momentum((0, 0, 0)))
    w.step(round(2.0 / dt))
    assert abs(w.energy()["total"] - e0) < 0.2 * dt**2 * e0
    assert np.linalg.norm(np.array(w.momentum()) - p0) < 1e-12
    l_now = np.array(w.angular_momentum((0, 0, 0)))
    assert np.linalg.norm(l_now - l0) < 0.1 * dt * np.linalg.norm(l0)
    # b slid out to 3.2 m from a's centre, still on a's axis.
    assert np.linalg.norm(b.position - a.position) > 3.0
    along = rotate(a.orientation, (1, 0, 0))
    assert np.linalg.norm(np.cross(along, b.position - a.position)) < 1e-9


@pytest.mark.parametrize("dt", [1 / 60, 1 / 240, 1 / 1000])
def test_a_pendulum_carrying_a_slider_keeps_its_energy_to_second_order(dt):
    """A box swinging on a ball joint carries a second box on a slider along its long axis,
    which slides out 1.7 m as it swings (an arm thrown out by the swing). Every joint holds,
    and the energy drifts at second order in dt, as a pendulum's does. The slider's push once
    acted at the wrong point: the pair gained 0.8 J in 0.5 s at any step, then flew apart."""
    w = rl.World(dt=dt)
    arm = w.add_box((0.1, 0.05, 0.2), mass=2.0, position=(0, 0, 3.0))
    w.add_ball_joint(arm, None, anchor=(0, 0, 3.2))
    weight = w.add_box((0.04, 0.04, 0.12), mass=0.8, position=(0.06, 0, 2.65))
    slide = w.add_slider_joint(weight, arm, anchor=(0.06, 0, 2.8), axis=(0, 0, 1))
    e0 = w.energy()["total"]
    w.step(round(0.6 / dt))
    assert slide.translation < -1.5
    assert abs(w.energy()["total"] - e0) < 30 * dt**2
    # The weight is still on the arm's axis through the anchor, turned with the arm.
    axis = rotate(arm.orientation, (0, 0, 1))
    anchor_on_arm = arm.position + rotate(arm.orientation, (0.06, 0, -0.2))
    off = weight.position + rotate(weight.orientation, (0, 0, 0.15)) - anchor_on_arm
    assert np.linalg.norm(np.cross(axis, off)) < 1e-9
    assert np.allclose(weight.orientation, arm.orientation, atol=1e-9)


@pytest.mark.parametrize("dt", [1 / 60, 1 / 240, 1 / 1000])
def test_a_crank_and_slider_follow_their_kinematics_and_keep_their_energy(dt):
    """A crank (r = 0.1 m) hinged to the world drives a rod (l = 0.3 m) hinged to a piston on
    a slider, a closed loop (no gravity): the piston stays at x = r cos(theta) + sqrt(l^2 -
    r^2 sin^2(theta)) for the crank's angle theta (to 1e-9 m; 1.3e-12 measured), and the energy
    of the freely turning mechanism drifts at second order in dt (below 40 dt^2 J; 19 dt^2)."""
    r, length = 0.1, 0.3
    w = rl.World(gravity=(0, 0, 0), dt=dt)
    crank = w.add_box((r / 2, 0.01, 0.01), mass=0.5, position=(r / 2, 0, 0))
    w.add_hinge_joint(crank, None, anchor=(0, 0, 0), axis=(0, 0, 1))
    rod = w.add_box((length / 2, 0.01, 0.01), mass=0.3, position=(r + length / 2, 0, 0))
    w.add_hinge_joint(rod, crank, anchor=(r, 0, 0), axis=(0, 0, 1))
    piston = w.add_box((0.03, 0.03, 0.03), mass=1.0, position=(r + length, 0, 0))
    w.add_hinge_joint(piston, rod, anchor=(r + length, 0, 0), axis=(0, 0, 1))
    w.add_slider_joint(piston, None, anchor=(r + length, 0, 0), axis=(1, 0, 0))
    # Set going at 10 rad/s from the dead centre, where the piston is at rest and the rod turns
    # back at r / l of the crank's rate.
    omega = np.array([0, 0, 10.0])
    crank.angular_velocity = tuple(omega)
    crank.velocity = tuple(np.cross(omega, (r / 2, 0, 0)))
    rod.angular_velocity = tuple(-r / length * omega)
    rod.velocity = tuple(
        np.cross(omega, (r, 0, 0)) + np.cross(-r / length * omega, (length / 2, 0, 0))
    )
    w.step()
    e0, worst, turned, last = w.energy()["total"], 0.0, 0.0, 0.0
    for _ in range(round(1.0 / dt)):
        w.step()
        tip = 2 * crank.position
        theta = math.atan2(tip[1], tip[0])
        x = r * math.cos(theta) + math.sqrt(length**2 - (r * math.sin(theta)) ** 2)
        worst = max(worst, abs(piston.position[0] - x), abs(piston.position[1]))
        turned += (theta - last + math.pi) % (2 * math.pi) - math.pi
        last = theta
    assert worst < 1e-9
    assert turned > 3.0
    assert abs(w.energy()["total"] - e0) < 40 * dt**2


@pytest.mark.parametrize("dt", [1 / 60, 1 / 240])
def test_a_pendulums_sliding_weight_stops_at_its_limit(dt):
    """The pendulum above with the weight's travel limited to 0.3 m: thrown out by the swing,
    it reaches its limit and never passes it by more than 1e-9 m, stays on the arm's axis, and
    the energy never rises above where it started."""
    w = rl.World(dt=dt)
    arm = w.add_box((0.1, 0.05, 0.2), mass=2.0, position=(0, 0, 3.0))
    w.add_ball_joint(arm, None, anchor=(0, 0, 3.2))
    weight = w.add_box((0.04, 0.04, 0.12), mass=0.8, position=(0.06, 0, 2.65))
    slide = w.add_slider_joint(
        weight, arm, anchor=(0.06, 0, 2.8), axis=(0, 0, 1), limits=(-0.3, 0.3)
    )
    start, reached = w.energy()["total"], 0.0
    for _ in range(round(1.5 / dt)):
        w.step()
        assert abs(slide.translation) <= 0.3 + 1e-9
        assert w.energy()["total"] <= start + 1e-9
        reached = max(reached, abs(slide.translation))
    assert reached == pytest.approx(0.3, abs=1e-9)
    axis = rotate(arm.orientation, (0, 0, 1))
    anchor_on_arm = arm.position + rotate(arm.orientation, (0.06, 0, -0.2))
    off = weight.position + rotate(weight.orientation, (0, 0, 0.15)) - anchor_on_arm
    assert np.linalg.norm(np.cross(axis, off)) < 1e-9


@pytest.mark.parametrize("dt", [1 / 60, 1 / 240])
def test_a_chain_of_hinges_with_limits_holds_them_and_never_gains_energy(dt):
    """Ten links hinged end to end with limits of +-0.5 rad, let go level from a fixed hinge:
    the chain folds onto its limits (solved with its joints at once, limits included). Every
    hinge holds its anchors to 1e-9 m, no angle goes past its limit by more than 1e-9 rad
    (solved one joint at a time, the sweeps ran out and left angles 0.11 rad past at dt = 1/60,
    0.02 at 1/240), and the energy never rises above where it started (a limit stops a link
    dead, as a plastic impact)."""
    w = rl.World(dt=dt, sleeping=False)
    links, hinges, prev = [], [], None
    for i in range(10):
        link = w.add_capsule(0.03, 0.05, mass=0.3, position=(0.16 * i + 0.08, 2.0, 0))
        link.orientation = tuple(rotation_taking((0, 0, 1), (1, 0, 0)))
        hinges.append(
            w.add_hinge_joint(
                link, prev, anchor=(0.16 * i, 2.0, 0), axis=(0, 0, 1), limits=(-0.5, 0.5)
            )
        )
        links.append(link)
        prev = link
    start = w.energy()["total"]
    at_limit = 0
    for _ in range(round(2.0 / dt)):
        w.step()
        assert w.energy()["total"] <= start + 1e-9
        angles = np.array([h.angle for h in hinges])
        assert np.all(np.abs(angles) <= 0.5 + 1e-9)
        at_limit = max(at_limit, int(np.sum(np.abs(angles) > 0.5 - 1e-6)))
    assert at_limit >= 3
    # Each link's start on the hinge it hangs from: the fixed one, then the last link's end.
    ends = [np.array([0, 2.0, 0])]
    for link in links:
        axis = rotate(link.orientation, (0, 0, 1))
        assert np.linalg.norm(link.position - 0.08 * axis - ends[-1]) < 1e-9
        ends.append(link.position + 0.08 * axis)


# ---------------------------------------------------------------------------------------------
# conservation with springs, free rotation


@pytest.mark.parametrize("integrator", ["verlet", "symplectic_euler"])
@pytest.mark.parametrize("anchored_off_centre", [False, True])
def test_spring_pair_conserves_momenta(integrator, anchored_off_centre):
    """Two bodies joined by a damped spring, thrown and spinning, no gravity: the spring's
    forces are equal, opposite and along the line of the anchors, so linear and angular
    momentum are conserved; the symplectic integrators keep them to round-off."""
    w = rl.World(gravity=(0, 0, 0), integrator=integrator)
    a = w.add_sphere(
        0.1, mass=2.0, position=(0, 0, 0), velocity=(1, 2, 0), angular_velocity=(0, 0, 3)
    )
    b = w.add_sphere(0.1, mass=1.0, position=(1, 0.5, 0), velocity=(-1, 0, 1))
    anchors = dict(anchor_a=(0.1, 0.05, 0), anchor_b=(0, 0.1, 0)) if anchored_off_centre else {}
    w.add_spring(a, b, stiffness=50.0, damping=0.3, rest_length=0.8, **anchors)
    p0, l0 = w.momentum(), w.angular_momentum()
    rec = w.record(every=1, quantities=["momentum", "angular_momentum"])
    w.run(10.0)
    assert np.max(np.abs(rec.momentum - p0)) / np.linalg.norm(p0) < 1e-12
    assert np.max(np.abs(rec.angular_momentum - l0)) / np.linalg.norm(l0) < 1e-9


def test_rk4_angular_momentum_error_is_fourth_order():
    """RK4 is not symplectic: with a spring its angular momentum error is its truncation
    error, which falls at least as fast as dt^4."""
    errors = []
    for dt in (1 / 60, 1 / 120):
        w = rl.World(gravity=(0, 0, 0), integrator="rk4", dt=dt)
        a = w.add_sphere(0.1, mass=2.0, velocity=(1, 2, 0))
        b = w.add_sphere(0.1, mass=1.0, position=(1, 0.5, 0), velocity=(-1, 0, 1))
        w.add_spring(a, b, stiffness=50.0, rest_length=0.8)
        l0 = w.angular_momentum()
        w.run(5.0)
        errors.append(np.linalg.norm(w.angular_momentum() - l0) / np.linalg.norm(l0))
    assert errors[1] < 1e-6
    assert math.log2(errors[0] / errors[1]) > 3.7


@pytest.mark.parametrize(
    "integrator, tol", [("rk4", 1e-4), ("verlet", 1e-11), ("symplectic_euler", 1e-11)]
)
def test_dzhanibekov_flip(integrator, tol):
    """Spun about its intermediate axis with a small perturbation, a free body flips over and
    back, keeping kinetic energy and |L|."""
    w = rl.World(gravity=(0, 0, 0), integrator=integrator)
    # Principal moments differ: x smallest... box with half extents 0.3, 0.2, 0.1.
    body = w.add_box((0.1, 0.3, 0.2), mass=1.0, angular_velocity=(0.01, 0, 10.0))
    inertia = np.diag(body.inertia_body)
    assert inertia[0] > inertia[2] > inertia[1]  # z is the intermediate axis
    rec = w.record(
        every=1, quantities=["orientations", "angular_velocities", "energy", "angular_momentum"]
    )
    w.run(20.0)
    e = rec.energy["kinetic"]
    lmag = np.linalg.norm(rec.angular_momentum, axis=1)
    assert np.max(np.abs(e / e[0] - 1)) < tol
    assert np.max(np.abs(lmag / lmag[0] - 1)) < tol
    # The body's z axis (its intermediate axis) turns over: its world z component changes sign.
    q = rec.orientations[:, 0, :]
    x, y, z, ww = q.T
    zz = 1 - 2 * (x**2 + y**2)
    assert zz.min() < -0.9 and zz.max() > 0.9
    flips = np.count_nonzero(np.diff(np.sign(zz)) != 0)
    assert flips >= 2


# ---------------------------------------------------------------------------------------------
# forces


def test_timed_force_gives_its_impulse():
    w = rl.World(gravity=(0, 0, 0))
    b = w.add_sphere(0.1, mass=2.0)
    load = b.apply_force((4.0, 0, 0), duration=0.5 + 1 / 480)  # not a whole number of steps
    w.run(1.0)
    assert not load.active
    assert b.velocity[0] == pytest.approx(4.0 * (0.5 + 1 / 480) / 2.0, rel=1e-12)


def test_force_until_removed():
    w = rl.World(gravity=(0, 0, 0))
    b = w.add_sphere(0.1, mass=1.0)
    load = b.apply_force((1.0, 0, 0), duration=math.inf)
    w.run(2.0)
    assert load.active
    assert load.remove()
    w.run(1.0)
    assert b.velocity[0] == pytest.approx(2.0, rel=1e-12)
    assert not load.active and not load.remove()


def test_force_at_local_point_gives_torque():
    w = rl.World(gravity=(0, 0, 0), integrator="rk4")
    b = w.add_sphere(0.1, mass=1.0)
    b.apply_force((0, 1.0, 0), local_point=(0.1, 0, 0))
    w.step()
    inertia = 0.4 * 1.0 * 0.1**2
    assert b.angular_velocity[2] == pytest.approx(0.1 * 1.0 * w.dt / inertia, rel=1e-6)
    assert b.velocity[1] == pytest.approx(w.dt, rel=1e-12)


@pytest.mark.parametrize("scale", [0.0, 0.5, -1.0])
def test_gravity_scale(scale):
    w = rl.World()
    b = w.add_sphere(0.1, gravity_scale=scale, position=(0, 5, 0))
    w.run(1.0)
    assert b.position[1] == pytest.approx(5 - 0.5 * scale * G, abs=1e-12)


def test_quadratic_drag_terminal_velocity():
    """Falling under -c2 |v| v, a body reaches v_t = sqrt(m g / c2) and follows
    v(t) = v_t tanh(g t / v_t)."""
    m, c2 = 2.0, 0.5
    w = rl.World(integrator="rk4", dt=1 / 240)
    b = w.add_sphere(0.1, mass=m, quadratic_drag=c2, position=(0, 1000, 0))
    w.run(3.0)
    vt = math.sqrt(m * G / c2)
    assert -b.velocity[1] == pytest.approx(vt * math.tanh(G * 3.0 / vt), rel=1e-9)


# Mouse joints: a soft pull towards a world point


def test_a_held_body_follows_its_mouse_target_and_hangs_g_over_omega_squared_below_it():
    # At rest the joint carries the weight as a spring m w^2 would: g / w^2 under the target.
    w = rl.World(dt=1 / 240)
    ball = w.add_sphere(0.1, mass=2.0, position=(0, 1, 0))
    j = w.add_mouse_joint(ball, (0, 1, 0), frequency=4.0, damping_ratio=1.0)
    assert j.kind == "mouse" and j.body_b is None
    j.target = (0.5, 1.5, -0.3)
    np.testing.assert_array_equal(j.target, [0.5, 1.5, -0.3])
    w.run(8.0)
    omega = 2 * math.pi * 4.0
    np.testing.assert_allclose(ball.position, [0.5, 1.5 - G / omega**2, -0.3], atol=1e-9)
    # It carries the weight: the world (its b) feels the weight's pull, the ball the opposite.
    np.testing.assert_allclose(j.reaction_force, [0, -2.0 * G, 0], atol=1e-9)


def test_a_mouse_joint_is_saved_and_loaded_with_the_scene(tmp_path):
    w = rl.World()
    ball = w.add_sphere(0.1, position=(0, 1, 0))
    w.add_mouse_joint(ball, (1, 2, 0), frequency=3.0, damping_ratio=0.5, max_force=40.0)
    path = tmp_path / "held.json"
    w.save(str(path))
    again = rl.World.load(str(path))
    (j,) = again.joints
    assert j.kind == "mouse"
    np.testing.assert_array_equal(j.target, [1, 2, 0])
    w.run(0.5)
    again.run(0.5)
    np.testing.assert_array_equal(w.positions, again.positions)
