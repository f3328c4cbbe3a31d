"""Physics through the Python API, against closed forms and conservation laws.

Each test states the theory it checks and the tolerance it allows.
"""

import math

import numpy as np
import pytest
import rigidlab as rl
from helpers import quat, rel, rotation_matrix

G = 9.81
INTEGRATORS = ["euler", "symplectic_euler", "verlet", "rk4"]


# ---------------------------------------------------------------------------------------------
# helpers


def record(w, body, steps):
    """Steps the world `steps` times; returns the body's positions and velocities at every
    step, the initial state included (shape (steps + 1, 3) each)."""
    xs = np.empty((steps + 1, 3))
    vs = np.empty((steps + 1, 3))
    xs[0], vs[0] = body.position, body.velocity
    for i in range(steps):
        w.step()
        xs[i + 1], vs[i + 1] = body.position, body.velocity
    return xs, vs


def floor_world(**kw):
    w = rl.World(**kw)
    floor = w.add_plane(name="floor")
    return w, floor


# ---------------------------------------------------------------------------------------------
# free fall: the textbook integrators, exactly


FREE_FALL_TABLE = [
    # integrator, dt, y after 10 s of free fall from rest at y = 0, g = 9.80665 (the 2D sandbox simulator's Table 4.1)
    ("rk4", 1.0, -490.33249999999998),
    ("rk4", 0.1, -490.33250000000027),
    ("euler", 0.1, -485.42917500000027),
    ("euler", 0.01, -489.84216750000547),
    ("euler", 0.001, -490.28346675005253),
]


def free_fall(integrator, dt, seconds=10.0, g=9.80665):
    w = rl.World(gravity=(0, -g, 0), dt=dt, integrator=integrator)
    b = w.add_sphere(0.1, mass=1.0)
    w.step(round(seconds / dt))
    assert w.time == pytest.approx(seconds, rel=1e-12)
    return b


@pytest.mark.parametrize("integrator,dt,expected", FREE_FALL_TABLE)
def test_free_fall_table(integrator, dt, expected):
    b = free_fall(integrator, dt)
    assert rel(b.position[1], expected) < 1e-9, f"y = {b.position[1]!r}, table {expected!r}"
    np.testing.assert_array_equal(b.position[[0, 2]], 0.0)


@pytest.mark.parametrize("dt", [1.0, 0.1, 1 / 240, 0.001])
def test_free_fall_verlet_is_exact(dt):
    b = free_fall("verlet", dt)
    assert rel(b.position[1], -490.3325) < 1e-12
    assert rel(b.velocity[1], -98.0665) < 1e-12


def test_free_fall_symplectic_euler_is_first_order_low():
    """Symplectic Euler's y_n = -g t^2/2 - g t dt/2."""
    b = free_fall("symplectic_euler", 0.1)
    assert b.position[1] == pytest.approx(-490.3325 - 9.80665 * 10 * 0.1 / 2, rel=1e-12)


# ---------------------------------------------------------------------------------------------
# projectile


V0 = (3.0, 4.0)  # (v_x, v_y), launched from the origin
APEX = V0[1] ** 2 / (2 * G)
RANGE = 2 * V0[0] * V0[1] / G


def projectile(integrator, dt):
    """Flies a ball from the origin with v0 = (3, 4, 0) until it is below y = 0 and falling;
    returns (sampled apex, range by linear interpolation of the crossing, range from the last
    sample above ground continued as exact free flight, positions, velocities)."""
    w = rl.World(dt=dt, integrator=integrator)
    b = w.add_sphere(0.05, mass=1.0, velocity=(V0[0], V0[1], 0.0))
    steps = int(1.5 * (2 * V0[1] / G) / dt)
    xs, vs = record(w, b, steps)
    below = np.nonzero((xs[:, 1] < 0) & (vs[:, 1] < 0))[0]
    assert len(below), "never came down"
    k = below[0] - 1  # last sample at or above ground
    y0, y1 = xs[k, 1], xs[k + 1, 1]
    range_lin = xs[k, 0] + (xs[k + 1, 0] - xs[k, 0]) * y0 / (y0 - y1)
    vy = vs[k, 1]
    t = (vy + math.sqrt(vy * vy + 2 * G * y0)) / G
    range_flight = xs[k, 0] + vs[k, 0] * t
    return xs[: k + 2, 1].max(), range_lin, range_flight, xs[: k + 2], vs[: k + 2]


@pytest.mark.parametrize("integrator", ["verlet", "rk4"])
@pytest.mark.parametrize("dt", [1 / 240, 0.01, 0.02])
def test_projectile_exact_integrators(integrator, dt):
    """Verlet and RK4 are exact under uniform gravity: every sample lies on the parabola, so
    the sampled apex misses v_y^2/2g only by the sampling (at most g dt^2/8 below), the energy
    invariant y + v_y^2/2g equals the apex at every step, and the range continued from the last
    sample above ground is 2 v_x v_y / g."""
    apex, _, range_flight, xs, vs = projectile(integrator, dt)
    assert APEX - G * dt * dt / 8 - 1e-12 <= apex <= APEX + 1e-12
    np.testing.assert_allclose(xs[:, 1] + vs[:, 1] ** 2 / (2 * G), APEX, rtol=0, atol=1e-12)
    np.testing.assert_allclose(vs[:, 0], V0[0], rtol=0, atol=1e-13)
    assert rel(range_flight, RANGE) < 1e-12


@pytest.mark.parametrize("integrator,sign", [("euler", +1), ("symplectic_euler", -1)])
def test_projectile_euler_variants_are_first_order(integrator, sign):
    """Explicit Euler's samples lie on y = v_y t - g t^2/2 + g t dt/2: the apex is v_y dt/2
    high and the range v_x dt long (plus O(dt^2)). Symplectic Euler's lie on the same curve
    with -g t dt/2: both errors have the other sign. Halving dt halves them."""
    errors = []
    for dt in (0.01, 0.005):
        apex, range_lin, _, _, _ = projectile(integrator, dt)
        apex_err, range_err = apex - APEX, range_lin - RANGE
        assert apex_err == pytest.approx(sign * V0[1] * dt / 2, rel=0.1), (
            f"dt={dt}: apex error {apex_err}"
        )
        assert range_err == pytest.approx(sign * V0[0] * dt, rel=0.05), (
            f"dt={dt}: range error {range_err}"
        )
        errors.append((apex_err, range_err))
    (a1, r1), (a2, r2) = errors
    assert a1 / a2 == pytest.approx(2.0, rel=0.1)
    assert r1 / r2 == pytest.approx(2.0, rel=0.1)


# ---------------------------------------------------------------------------------------------
# convergence order


@pytest.mark.parametrize(
    "integrator,order", [("euler", 1), ("symplectic_euler", 1), ("verlet", 2), ("rk4", 4)]
)
def test_convergence_order_with_damping(integrator, order):
    """Gravity plus linear damping -c v: with k = c/m and v_inf = g/k,
    x(t) = v_inf t + (v0 - v_inf)(1 - e^{-kt})/k. The error at T = 2 s shrinks as dt^order."""
    m, c = 2.0, 1.0
    k = c / m
    g = np.array([0.0, -G, 0.0])
    v0 = np.array([3.0, 5.0, -1.0])
    v_inf = g / k
    T = 2.0
    x_exact = v_inf * T + (v0 - v_inf) * (1 - math.exp(-k * T)) / k
    v_exact = v_inf + (v0 - v_inf) * math.exp(-k * T)
    errors = []
    for dt in (0.04, 0.02, 0.01):
        w = rl.World(dt=dt, integrator=integrator)
        b = w.add_sphere(0.1, mass=m, velocity=v0, linear_damping=c)
        w.step(round(T / dt))
        assert w.time == pytest.approx(T, rel=1e-12)
        errors.append((np.linalg.norm(b.position - x_exact), np.linalg.norm(b.velocity - v_exact)))
    errors = np.array(errors)
    orders = np.log2(errors[:-1] / errors[1:])
    np.testing.assert_allclose(
        orders, order, atol=0.15, err_msg=f"measured orders {orders.tolist()}"
    )


# ---------------------------------------------------------------------------------------------
# contacts


@pytest.mark.parametrize("integrator", INTEGRATORS)
def test_sphere_resting_on_plane_stays_put(integrator):
    """A sphere placed at y = r at rest on the floor stays there (1e-6 m) for 10 s."""
    w, _ = floor_world(integrator=integrator)
    r = 0.1
    start = np.array([0.3, r, -0.2])
    ball = w.add_sphere(r, mass=1.0, position=start)
    xs, _ = record(w, ball, 2400)
    assert np.abs(xs - start).max() < 1e-6


@pytest.mark.parametrize("integrator", INTEGRATORS)
def test_sphere_resting_on_plane_is_at_rest(integrator):
    """A sphere resting on the floor (it does not move, see above) must also read as at rest:
    velocity ~ 0 and no kinetic energy."""
    w, _ = floor_world(integrator=integrator)
    ball = w.add_sphere(0.1, mass=1.0, position=(0, 0.1, 0))
    _, vs = record(w, ball, 240)
    assert np.abs(vs).max() < 1e-9, (
        f"resting ball reads velocity {vs[np.abs(vs).max(axis=1).argmax()]}"
    )
    assert w.energy()["kinetic"] < 1e-15


def head_on(e, m1, m2, u1, u2):
    """Two spheres approaching along x in zero gravity; both set restitution e."""
    w = rl.World(gravity=(0, 0, 0))
    a = w.add_sphere(0.1, mass=m1, position=(-0.5, 0, 0), velocity=(u1, 0, 0), restitution=e)
    b = w.add_sphere(0.1, mass=m2, position=(0.5, 0, 0), velocity=(u2, 0, 0), restitution=e)
    return w, a, b


@pytest.mark.parametrize(
    "e,m1,m2,u1,u2",
    [
        (1.0, 1.0, 3.0, 2.0, -1.0),
        (0.5, 2.0, 1.0, 1.5, -0.5),
        (0.5, 1.0, 4.0, 3.0, 0.0),
        (1.0, 1.0, 1.0, 1.0, -1.0),
    ],
)
def test_head_on_collision(e, m1, m2, u1, u2):
    """Momentum is conserved; the velocities after are the textbook
    v1' = (m1 u1 + m2 u2 + m2 e (u2 - u1)) / (m1 + m2), v2' = (m1 u1 + m2 u2 + m1 e (u1 - u2)) / (m1 + m2);
    for e = 1 kinetic energy is conserved."""
    w, a, b = head_on(e, m1, m2, u1, u2)
    p0 = w.momentum()
    k0 = w.energy()["kinetic"]
    w.run(1.0)
    assert np.linalg.norm(w.momentum() - p0) <= 1e-12 * np.linalg.norm(p0)
    v1 = (m1 * u1 + m2 * u2 + m2 * e * (u2 - u1)) / (m1 + m2)
    v2 = (m1 * u1 + m2 * u2 + m1 * e * (u1 - u2)) / (m1 + m2)
    np.testing.assert_allclose(a.velocity, [v1, 0, 0], rtol=0, atol=1e-9)
    np.testing.assert_allclose(b.velocity, [v2, 0, 0], rtol=0, atol=1e-9)
    k1 = w.energy()["kinetic"]
    expected_k1 = 0.5 * m1 * v1 * v1 + 0.5 * m2 * v2 * v2
    assert rel(k1, expected_k1) < 1e-9
    if e == 1.0:
        assert rel(k1, k0) < 1e-9
    else:  # the textbook loss: (1 - e^2) mu (u1 - u2)^2 / 2 with mu the reduced mass
        mu = m1 * m2 / (m1 + m2)
        assert k0 - k1 == pytest.approx((1 - e * e) * mu * (u1 - u2) ** 2 / 2, rel=1e-9)
    np.testing.assert_array_equal(a.angular_velocity, 0.0)


def bounce_apexes(e, drop=1.0, r=0.05, seconds=6.0):
    """Drops a ball (lowest point `drop` above the floor) with restitution e; returns the drop
    height and, for each flight after a bounce, (apex height of the lowest point, number of
    steps of the upward flight). The apex of a flight is y + v_y^2/2g at its last step with
    v_y > 0, exact for free flight under velocity Verlet."""
    w, _ = floor_world()
    ball = w.add_sphere(r, mass=0.1, position=(0, drop + r, 0), restitution=e)
    xs, vs = record(w, ball, round(seconds / w.dt))
    y, vy = xs[:, 1], vs[:, 1]
    flights = []
    i, n = 0, len(vy)
    while i < n:
        if vy[i] > 0:
            j = i
            while j + 1 < n and vy[j + 1] > 0:
                j += 1
            flights.append((y[j] + vy[j] ** 2 / (2 * G) - r, j - i + 1))
            i = j + 1
        else:
            i += 1
    return flights


@pytest.mark.parametrize("e", [0.5, 0.8, 0.9])
def test_bounce_apex_ratio_is_e_squared(e):
    """Each bounce returns the ball to e^2 of the height it fell from (within 1%). Only
    bounces with an impact speed well above the 0.1 m/s restitution threshold (here > 1 m/s)
    and a flight longer than 2 steps are counted."""
    flights = bounce_apexes(e)
    previous = 1.0
    counted = 0
    for apex, steps in flights:
        impact_speed = math.sqrt(2 * G * previous)
        if impact_speed < 1.0 or steps <= 2:
            break
        assert apex / previous == pytest.approx(e * e, rel=0.01), (
            f"bounce {counted + 1}: {apex / previous} vs e^2 = {e * e}"
        )
        previous = apex
        counted += 1
    assert counted >= 3, f"only {counted} bounces measured"


def test_tilted_box_settles_flat_and_never_gains_energy():
    """A box dropped tilted onto the floor comes to rest on a face; from then on its total
    energy never rises by more than 1e-6 J over 10 s."""
    w, _ = floor_world()
    h = np.array([0.2, 0.1, 0.15])
    box = w.add_box(h, mass=1.0, position=(0, 0.6, 0), orientation=quat((1.0, 0.5, 0.2), 0.5))
    w.run(3.0)
    R = rotation_matrix(box.orientation)
    up = np.abs(R[1, :])  # |cosine| of each body axis with the world vertical
    axis = int(np.argmax(up))
    assert 1 - up[axis] < 1e-6, (
        f"not flat: body axis {axis} is {math.degrees(math.acos(up[axis]))} deg off vertical"
    )
    assert box.position[1] == pytest.approx(h[axis], abs=2e-4)
    assert np.linalg.norm(box.velocity) < 1e-6 and np.linalg.norm(box.angular_velocity) < 1e-6
    energies = np.empty(2401)
    energies[0] = w.energy()["total"]
    for i in range(2400):
        w.step()
        energies[i + 1] = w.energy()["total"]
    rise = np.max(energies - np.minimum.accumulate(energies))
    assert rise <= 1e-6, f"energy rose by {rise} J"


@pytest.mark.parametrize("mu,v0", [(0.3, 2.0), (0.6, 1.0), (0.2, 1.5)])
def test_box_sliding_stops_after_v0_squared_over_2_mu_g(mu, v0):
    """A box sliding on the floor with kinetic friction mu (the floor sets none, so the box's
    own applies) stops after d = v0^2 / (2 mu g), within 1%, and then stays put."""
    w, _ = floor_world()
    box = w.add_box((0.1, 0.1, 0.1), mass=1.0, position=(0, 0.1, 0), friction=mu)
    w.step(10)  # settle the resting contact
    x0 = box.position[0]
    box.velocity = (v0, 0, 0)
    t_stop = v0 / (mu * G)
    w.run(t_stop + 0.5)
    d = box.position[0] - x0
    assert d == pytest.approx(v0 * v0 / (2 * mu * G), rel=0.01)
    assert np.linalg.norm(box.velocity) < 1e-6
    x_stopped = box.position
    w.run(1.0)
    np.testing.assert_allclose(box.position, x_stopped, rtol=0, atol=1e-6)


# ---------------------------------------------------------------------------------------------
# free rigid-body rotation and damping


def to_body(q, v):
    """v seen in the frames of the orientations q (k, 4), scalar last: R(q)^T v."""
    u, s = -q[:, :3], q[:, 3:]
    t = 2 * np.cross(u, v)
    return v + s * t + np.cross(u, t)


@pytest.mark.parametrize("integrator", ["verlet", "symplectic_euler"])
@pytest.mark.parametrize("dt", [1 / 60, 1 / 240, 1 / 1000])
def test_the_symplectic_integrators_keep_a_tumbling_bodys_momentum_and_energy(integrator, dt):
    """Torque-free, the symplectic integrators turn a body by the exponential midpoint rule on
    Euler's equations, which keeps the world angular momentum (a vector) and the kinetic energy
    exactly: round-off only, at any step, for a hull with a full inertia tensor tumbling about no
    principal axis, its L turning in the body as Euler's equations say."""
    rng = np.random.default_rng(7)
    w = rl.World(gravity=(0, 0, 0), dt=dt, integrator=integrator)
    hull = w.add_convex(
        rng.normal(size=(12, 3)) * (0.3, 0.15, 0.05),
        mass=1.5,
        orientation=quat((1, -2, 0.5), 0.9),
        angular_velocity=(2.0, -7.0, 4.0),
    )
    L0, E0 = hull.angular_momentum(), w.energy()["rotational"]
    body_l0 = to_body(hull.orientation[None], L0)[0]
    steps = round(20.0 / dt)
    rec = w.record(every=max(1, steps // 400), quantities=["orientations", "energy"])
    w.step(steps)
    assert np.linalg.norm(hull.angular_momentum() - L0) / np.linalg.norm(L0) < 1e-11 * steps / 1200
    e = rec.energy["rotational"]
    assert np.max(np.abs(e / E0 - 1)) < 1e-11 * steps / 1200
    # L moved through the body: the motion was not a spin about one axis.
    body_l = to_body(rec.orientations[:, 0], L0)
    assert np.max(np.linalg.norm(body_l - body_l0, axis=1)) > 0.3 * np.linalg.norm(L0)


@pytest.mark.parametrize("spin", [1e3, 1e6])
def test_a_thin_rod_tumbling_fast_keeps_its_momentum_and_energy(spin):
    """A rod 2 m long and 2 mm thick (inertia 3e-7 about its axis, 0.33 across) tumbling at
    `spin` rad/s about all three axes, Verlet at dt = 1/60: turning by hundreds of radians a
    step about axes this uneven, its angular momentum and energy are kept all the same."""
    w = rl.World(gravity=(0, 0, 0), dt=1 / 60)
    rod = w.add_box((1.0, 1e-3, 1e-3), mass=1.0, angular_velocity=(spin, spin, spin))
    L0, E0 = rod.angular_momentum(), w.energy()["rotational"]
    w.step(120)
    assert np.linalg.norm(rod.angular_momentum() - L0) < 1e-12 * np.linalg.norm(L0)
    assert abs(w.energy()["rotational"] / E0 - 1) < 1e-12


def test_spinning_box_conserves_angular_momentum_and_energy():
    """Torque-free rotation of a box with distinct half extents, spinning about a non-principal
    axis: |L| and the rotational energy stay within 1e-6 relative over 10 s with RK4 (and L as
    a vector, which is conserved in the world frame)."""
    w = rl.World(gravity=(0, 0, 0), integrator="rk4")
    box = w.add_box(
        (0.1, 0.2, 0.3),
        mass=2.0,
        orientation=quat((1, 2, 3), 0.7),
        angular_velocity=(1.0, 2.0, 3.0),
    )
    L0 = box.angular_momentum()
    E0 = w.energy()["rotational"]
    assert (
        np.linalg.norm(np.cross(box.inertia @ box.angular_velocity, box.angular_velocity)) > 0.01
    )  # not principal
    worst_norm = worst_vec = worst_e = 0.0
    for _ in range(2400):
        w.step()
        L = box.angular_momentum()
        worst_norm = max(worst_norm, rel(np.linalg.norm(L), np.linalg.norm(L0)))
        worst_vec = max(worst_vec, np.linalg.norm(L - L0) / np.linalg.norm(L0))
        worst_e = max(worst_e, rel(w.energy()["rotational"], E0))
    assert worst_norm < 1e-6
    assert worst_vec < 1e-6
    assert worst_e < 1e-6
    np.testing.assert_array_equal(box.velocity, 0.0)
    # the spin really changed direction (the test is not of a trivially steady spin)
    assert np.linalg.norm(box.angular_velocity - np.array([1.0, 2.0, 3.0])) > 0.05


def test_sphere_spin_is_steady():
    """A torque-free sphere (isotropic inertia) spins at a constant rate about a fixed axis."""
    w = rl.World(gravity=(0, 0, 0))
    om = np.array([0.0, 0.0, 2.0])
    s = w.add_sphere(0.2, mass=1.0, angular_velocity=om)
    steps = w.run(math.pi / 2)  # about half a turn, rounded to whole steps
    np.testing.assert_allclose(s.angular_velocity, om, rtol=1e-12)
    angle = 2.0 * steps * w.dt
    np.testing.assert_allclose(
        s.orientation, [0, 0, math.sin(angle / 2), math.cos(angle / 2)], atol=1e-9
    )


@pytest.mark.parametrize("integrator", ["rk4", "verlet"])
def test_linear_damping_exponential_decay(integrator):
    """Free body, zero gravity, damping force -c v: v(t) = v0 exp(-c t / m). RK4 matches to
    1e-4 relative (in fact far better); Verlet to 1e-4 too at this dt."""
    m, c = 2.0, 0.8
    v0 = np.array([3.0, -1.0, 2.0])
    w = rl.World(gravity=(0, 0, 0), integrator=integrator)
    b = w.add_sphere(0.1, mass=m, velocity=v0, linear_damping=c)
    for _ in range(5):
        w.run(1.0)
        expected_v = v0 * math.exp(-c * w.time / m)
        assert np.linalg.norm(b.velocity - expected_v) <= 1e-4 * np.linalg.norm(expected_v)
        expected_x = v0 * m / c * (1 - math.exp(-c * w.time / m))
        assert np.linalg.norm(b.position - expected_x) <= 1e-4 * np.linalg.norm(expected_x)


def test_angular_damping_exponential_decay():
    """Sphere, zero gravity, damping torque -c_w w: w(t) = w0 exp(-c_w t / I)."""
    m, r, cw = 1.0, 0.5, 0.05
    I = 0.4 * m * r * r
    w0 = np.array([1.0, 2.0, -1.0])
    w = rl.World(gravity=(0, 0, 0), integrator="rk4")
    s = w.add_sphere(r, mass=m, angular_velocity=w0, angular_damping=cw)
    w.run(2.0)
    expected = w0 * math.exp(-cw * w.time / I)
    assert np.linalg.norm(s.angular_velocity - expected) <= 1e-6 * np.linalg.norm(expected)


@pytest.mark.parametrize("threshold, bounces", [(0.3, True), (0.6, False)])
def test_restitution_threshold_decides_whether_a_slow_impact_bounces(threshold, bounces):
    # Dropped from 1 cm, the ball hits at sqrt(2 g h) = 0.443 m/s.
    h, e, r, g = 0.01, 0.5, 0.05, 9.81
    w = rl.World(restitution_threshold=threshold)
    w.add_plane()
    ball = w.add_sphere(r, mass=1.0, position=(0, h + r, 0), restitution=e)
    top = 0.0
    for _ in range(240):
        w.step()
        y, vy = ball.position[1] - r, ball.velocity[1]
        if vy > 0:
            top = max(top, y + vy**2 / (2 * g))
    if bounces:
        assert rel(top, e**2 * h) < 0.01, f"apex {top}, theory {e**2 * h}"
    else:
        assert top == 0.0, f"bounced to {top} below the threshold"
        # It lands inelastically; position correction leaves at most the linear slop (1e-4 m).
        assert abs(ball.position[1] - r) <= 1e-4 + 1e-12 and np.linalg.norm(ball.velocity) < 1e-9


@pytest.mark.parametrize(
    "rule, mu", [("average", 0.4), ("min", 0.2), ("max", 0.6), ("multiply", 0.12)]
)
def test_friction_rule_sets_the_stopping_distance(rule, mu):
    v0, g, hy = 1.5, 9.81, 0.05
    w = rl.World(friction_rule=rule)
    w.add_plane(friction=0.2)
    box = w.add_box(
        (0.1, hy, 0.1), mass=1.0, position=(0, hy, 0), velocity=(v0, 0, 0), friction=0.6
    )
    w.run(2.0)
    assert np.linalg.norm(box.velocity) < 1e-6
    assert rel(box.position[0], v0**2 / (2 * mu * g)) < 0.01
