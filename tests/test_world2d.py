"""2D worlds (rigidlab.World2D) against theory: mass properties of the 2D shapes, the
guarantees of the 3D engine in the plane, the 2D sandbox simulator's experiments, and the
plane itself (nothing ever leaves it).

Each test states the theory it checks and the tolerance it allows.
"""

import json
import math
import pickle

import numpy as np
import pytest
import rigidlab as rl
from helpers import rel
from scipy.spatial import cKDTree

G = 9.81
STEPS = [1 / 60, 1 / 240, 1 / 1000]


def out_of_plane(w):
    """The largest out-of-plane part of any body's state in the engine's 3D arrays."""
    core = w._world
    return max(
        np.abs(core.positions[:, 2]).max(),
        np.abs(core.velocities[:, 2]).max(),
        np.abs(core.orientations[:, :2]).max(),
        np.abs(core.angular_velocities[:, :2]).max(),
    )


# ---------------------------------------------------------------------------------------------
# mass properties of the 2D shapes


def test_a_disc_turns_with_half_m_r_squared():
    w = rl.World2D()
    d = w.add_circle(0.3, mass=2.0)
    assert rel(d.inertia, 0.5 * 2.0 * 0.3**2) < 1e-15
    dense = w.add_circle(0.3, density=10.0)
    assert rel(dense.mass, 10.0 * math.pi * 0.09) < 1e-15


def test_a_triangle_has_its_centroid_and_polar_moment():
    """Right triangle with legs a, b: area a b / 2, centroid (a/3, b/3), polar moment about
    the centroid m (a^2 + b^2) / 18."""
    a, b, rho = 2.0, 0.5, 3.0
    w = rl.World2D()
    p = w.add_polygon([(0, 0), (a, 0), (0, b)], density=rho, position=(1.0, 2.0))
    assert rel(p.mass, rho * a * b / 2) < 1e-14
    np.testing.assert_allclose(p.position, (1 + a / 3, 2 + b / 3), rtol=0, atol=1e-14)
    assert rel(p.inertia, p.mass * (a * a + b * b) / 18) < 1e-13


def test_a_box_and_a_regular_polygon_match_their_closed_forms():
    w = rl.World2D()
    box = w.add_box((0.4, 0.1), mass=3.0)
    assert rel(box.inertia, 3.0 * (0.8**2 + 0.2**2) / 12) < 1e-15
    # Regular n-gon of circumradius R: I = m R^2 (1 + 2 cos^2(pi/n)) / 6... about its centre:
    # m R^2 / 6 (2 + cos(2 pi / n)).
    n, r = 7, 0.5
    pts = [(r * math.cos(2 * math.pi * k / n), r * math.sin(2 * math.pi * k / n)) for k in range(n)]
    p = w.add_polygon(pts, mass=1.0)
    assert rel(p.inertia, r * r / 6 * (2 + math.cos(2 * math.pi / n))) < 1e-13


def test_a_capsule_is_a_stadium():
    """A stadium's area and polar moment, against a midpoint-rule integral over its box."""
    r, h = 0.2, 0.5
    w = rl.World2D()
    c = w.add_capsule(r, h, density=1.0)
    assert rel(c.mass, 4 * r * h + math.pi * r * r) < 1e-15
    n = 1200
    xs = (np.arange(n) + 0.5) / n * 2 * r - r
    ys = (np.arange(n) + 0.5) / n * 2 * (h + r) - (h + r)
    x, y = np.meshgrid(xs, ys)
    inside = x**2 + (np.abs(y) - np.minimum(np.abs(y), h)) ** 2 <= r * r
    da = (2 * r / n) * (2 * (h + r) / n)
    polar = ((x**2 + y**2) * inside).sum() * da
    assert rel(c.inertia, polar) < 1e-4


# ---------------------------------------------------------------------------------------------
# the textbook integrators, exactly


@pytest.mark.parametrize(
    "integrator,dt,expected",
    [
        # y after 10 s of free fall from y = 0, g = 9.80665 (Table 4.1 of the 2D sandbox
        # simulator's report).
        ("rk4", 1.0, -490.33249999999998),
        ("rk4", 0.1, -490.33250000000027),
        ("euler", 0.1, -485.42917500000027),
        ("euler", 0.01, -489.84216750000547),
        ("euler", 0.001, -490.28346675005253),
    ],
)
def test_free_fall_table_in_2d(integrator, dt, expected):
    w = rl.World2D(gravity=(0, -9.80665), dt=dt, integrator=integrator)
    b = w.add_box((0.1, 0.1), mass=1.0)
    w.step(round(10 / dt))
    assert rel(b.position[1], expected) < 1e-9
    assert b.position[0] == 0.0


# ---------------------------------------------------------------------------------------------
# contacts: the 3D engine's guarantees in the plane


def ramp(w, angle_deg, friction, static_friction=None):
    """A ramp line through the origin rising at `angle_deg` to the right, and its unit
    direction up the slope and normal."""
    a = math.radians(angle_deg)
    up, n = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
    w.add_segment(-20 * up, 20 * up, friction=friction, static_friction=static_friction)
    return up, n


@pytest.mark.parametrize("dt", STEPS)
@pytest.mark.parametrize("angle", [10.0, 30.0])
def test_a_disc_rolls_down_a_ramp_at_two_thirds_g_sin(dt, angle):
    """A disc on a rough ramp rolls without slipping: its centre accelerates at 2/3 g sin
    (1e-9 relative over 1 s), and it turns by distance / r (1e-9)."""
    w = rl.World2D(dt=dt)
    up, n = ramp(w, angle, friction=1.0)
    r = 0.1
    disc = w.add_circle(r, mass=1.0, position=n * r, friction=1.0)
    w.step(round(1.0 / dt))
    s = -np.dot(disc.position - n * r, up)
    a = 2 / 3 * G * math.sin(math.radians(angle))
    assert rel(s, 0.5 * a * w.time**2) < 1e-9
    assert rel(disc.angle, s / r) < 1e-9  # rolling down to the left turns it counter-clockwise
    assert abs(np.dot(disc.position, n) - r) < 1e-9


@pytest.mark.parametrize("dt", STEPS)
def test_a_square_slides_at_g_sin_minus_mu_cos(dt):
    w = rl.World2D(dt=dt)
    angle, mu = 30.0, 0.2
    up, n = ramp(w, angle, friction=mu)
    h = 0.1
    box = w.add_box((h, h), mass=1.0, position=n * h, angle=math.radians(angle), friction=mu)
    w.step(round(1.0 / dt))
    s = -np.dot(box.position - n * h, up)
    th = math.radians(angle)
    assert rel(s, 0.5 * G * (math.sin(th) - mu * math.cos(th)) * w.time**2) < 1e-9
    assert abs(box.angle - th) < 1e-9


@pytest.mark.parametrize("dt", STEPS)
def test_a_square_sticks_below_the_angle_of_repose(dt):
    """tan(angle) < mu_s: the block does not move (1e-9 m over 2 s)."""
    w = rl.World2D(dt=dt)
    mu_s = 0.5
    angle = math.degrees(math.atan(mu_s)) - 1.0
    up, n = ramp(w, angle, friction=0.3, static_friction=mu_s)
    h = 0.1
    box = w.add_box(
        (h, h),
        mass=1.0,
        position=n * h,
        angle=math.radians(angle),
        friction=0.3,
        static_friction=mu_s,
    )
    start = box.position.copy()
    w.step(round(2.0 / dt))
    assert np.abs(box.position - start).max() < 1e-9


@pytest.mark.parametrize("dt", STEPS)
@pytest.mark.parametrize("e", [0.5, 0.8])
def test_a_disc_bounces_to_e_squared_of_its_height(dt, e):
    """Dropped from 1 m onto the ground, the disc's first apex is e^2 m (1e-9 relative)."""
    w = rl.World2D(dt=dt)
    w.add_ground(restitution=e)
    r = 0.05
    disc = w.add_circle(r, mass=1.0, position=(0, 1 + r), restitution=e)
    rising = False
    apex = None
    for _ in range(round(2.0 / dt)):
        w.step()
        vy = disc.velocity[1]
        if vy > 0:
            rising = True
        elif rising:
            # The apex within the last step: the flight is a parabola.
            apex = disc.position[1] - r + vy * vy / (2 * G)
            break
    assert apex is not None
    assert rel(apex, e * e) < 1e-9


def test_newtons_cradle_sends_one_disc_out_for_one_in():
    """Five touching discs in a row, no gravity, e = 1: a sixth arriving at 1 m/s stops and
    the last leaves at 1 m/s; the others stay at rest (1e-9)."""
    w = rl.World2D(gravity=(0, 0))
    r = 0.1
    row = [w.add_circle(r, mass=1.0, position=(2 * r * k, 0), restitution=1.0) for k in range(5)]
    striker = w.add_circle(r, mass=1.0, position=(-1.0, 0), velocity=(1.0, 0), restitution=1.0)
    w.run(1.5)
    v = w.velocities
    assert abs(striker.velocity[0]) < 1e-9
    for b in row[:-1]:
        assert np.abs(b.velocity).max() < 1e-9
    assert abs(row[-1].velocity[0] - 1.0) < 1e-9
    assert np.abs(v[:, 1]).max() < 1e-12


# ---------------------------------------------------------------------------------------------
# the 2D sandbox simulator's experiments


def test_oblique_disc_collision_of_the_sandbox_simulator():
    """Experiment 1 of the 2D sandbox simulator: discs of 1 kg and radius 2 m, no gravity,
    restitution 1, kinetic friction 0.5. A at rest; B arrives at (-1, 0) m/s spinning at
    +2 rad/s and hits A head-on. Measured there and by theory: v'_A = (-1, -0.5),
    v'_B = (0, 0.5) (1e-9)."""
    w, (a, b) = rl.presets2d.oblique_discs()
    w.run(1.0)
    np.testing.assert_allclose(a.velocity, (-1, -0.5), rtol=0, atol=1e-9)
    np.testing.assert_allclose(b.velocity, (0, 0.5), rtol=0, atol=1e-9)
    # Friction's impulse of 0.5 N s at 2 m from each centre: -1 N m s on each.
    assert abs(a.angular_velocity - (-0.5)) < 1e-9
    assert abs(b.angular_velocity - 1.5) < 1e-9


def test_tilted_square_bounces_with_its_energy_kept():
    """Experiment 2 of the 2D sandbox simulator: a tilted square dropped on a pad, no
    friction, restitution 1: potential, translational and rotational energy trade off at
    every bounce while the total stays constant, to 1e-9 of it over 15 s."""
    w, (sq,) = rl.presets2d.tilted_square()
    e0 = w.energy()["total"]
    worst, rotational, bounces, falling = 0.0, 0.0, 0, False
    for _ in range(15 * 60):
        w.step(4)
        e = w.energy()
        worst = max(worst, abs(e["total"] - e0))
        rotational = max(rotational, e["rotational"])
        if sq.velocity[1] < 0:
            falling = True
        elif falling:
            bounces, falling = bounces + 1, False
    assert worst <= 1e-9 * abs(e0)
    assert bounces >= 10
    assert rotational > 0.05 * abs(e0)  # the bounces turn it: energy is traded, not idle
    assert abs(sq.position[0]) < 1e-9  # no friction, no sideways push


def test_squares_of_increasing_friction_on_a_ramp():
    """Experiment 3 of the 2D sandbox simulator: on a 25 degree platform each square slides at
    g (sin - mu cos) (1e-9 relative over 0.5 s) while that is positive; the roughest
    (mu = 0.6 > tan 25) stays where it landed (1e-9 m)."""
    w, squares = rl.presets2d.friction_incline()
    th = math.radians(25.0)
    down = np.array([math.cos(th), -math.sin(th)])
    start = [b.position.copy() for b in squares]
    w.run(0.5)
    g = rl.presets2d.SANDBOX_G
    for b, p0, mu in zip(squares, start, (0.05, 0.2, 0.35, 0.6)):
        s = np.dot(b.position - p0, down)
        a = g * (math.sin(th) - mu * math.cos(th))
        if a > 0:
            assert s > 0
        else:
            # It falls 0.02 m (across the slope) straight down, 0.02 tan down the slope, and
            # its landing stops it there (resting up to the 0.1 mm slop deeper).
            assert abs(s - 0.02 * math.tan(th)) < 1e-4 * math.tan(th)
    # Once landed, each slides at its own rate.
    w.run(0.2)
    v0 = [np.dot(b.velocity, down) for b in squares]
    w.run(0.5)
    for b, v, mu in zip(squares, v0, (0.05, 0.2, 0.35, 0.6)):
        a = g * (math.sin(th) - mu * math.cos(th))
        measured = (np.dot(b.velocity, down) - v) / 0.5
        if a > 0:
            assert rel(measured, a) < 1e-9, (mu, measured, a)
        else:
            assert abs(np.dot(b.velocity, down)) < 1e-9


def test_spring_weights_of_the_sandbox_simulator():
    """Experiment 4 of the 2D sandbox simulator: the undamped weights keep their amplitude and
    swing with period 2 pi sqrt(m / k) (shared by two springs: sqrt(m / 2k)), to 1e-4; the
    damped ones and the plank come to rest."""
    w, (single, damped, shared, *carriers, plank) = rl.presets2d.spring_weights()
    m, k = 3.0, 150.0
    rec = w.record()
    w.run(12.0)
    t = rec.time
    for body, period in [
        (single, 2 * math.pi * math.sqrt(m / k)),
        (shared, 2 * math.pi * math.sqrt(m / (2 * k))),
    ]:
        # Started 0.15 m below its equilibrium.
        y = rec.positions[:, body.index, 1]
        y = y - (y[0] + 0.15)
        ups = np.nonzero((y[:-1] < 0) & (y[1:] >= 0))[0]
        crossings = t[ups] - y[ups] * (t[ups + 1] - t[ups]) / (y[ups + 1] - y[ups])
        measured = (crossings[-1] - crossings[0]) / (len(crossings) - 1)
        assert rel(measured, period) < 1e-4
        assert rel(y[-len(y) // 4 :].max(), 0.15) < 1e-4  # amplitude kept
    for body in (damped, *carriers, plank):
        assert np.abs(body.velocity).max() < 1e-3


def test_the_atwood_preset_and_the_air_table_preset():
    w, (heavy, light) = rl.presets2d.atwood(3.0, 1.0)
    w.run(0.5)
    assert rel(1.0 - heavy.position[1], 0.5 * G * 0.5 * 0.25) < 1e-9
    w, pucks = rl.presets2d.air_table(n=16)
    e0 = w.energy()["kinetic"]
    w.run(5.0)
    assert rel(w.energy()["kinetic"], e0) < 1e-9
    assert np.abs([p.position for p in pucks]).max() < 0.5 - 0.05


# ---------------------------------------------------------------------------------------------
# the plane itself


def mixed_heap(seed=3, n=40):
    rng = np.random.default_rng(seed)
    w = rl.World2D()
    w.add_ground(restitution=0.3)
    w.add_segment((-2, 0), (-2, 4))
    w.add_segment((2, 0), (2, 4))
    for k in range(n):
        pos = (rng.uniform(-1.6, 1.6), 0.3 + 0.25 * k)
        kw = dict(
            position=pos, angle=rng.uniform(0, 6.28), mass=rng.uniform(0.5, 2), restitution=0.3
        )
        kind = k % 4
        if kind == 0:
            w.add_circle(rng.uniform(0.05, 0.12), **kw)
        elif kind == 1:
            w.add_box((rng.uniform(0.05, 0.15), rng.uniform(0.05, 0.12)), **kw)
        elif kind == 2:
            m = rng.integers(3, 8)
            r = rng.uniform(0.06, 0.14)
            corners = [
                (math.cos(2 * math.pi * i / m), math.sin(2 * math.pi * i / m)) for i in range(m)
            ]
            w.add_polygon(r * np.array(corners), **kw)
        else:
            w.add_capsule(rng.uniform(0.03, 0.06), rng.uniform(0.05, 0.12), **kw)
    return w


def test_nothing_ever_leaves_the_plane():
    """A heap of every 2D shape falling into a bin: every body's z, z velocity and tilt are
    exactly zero at every step, in the engine's own 3D state."""
    w = mixed_heap()
    for _ in range(240):
        w.step(2)
        assert out_of_plane(w) == 0.0


def rolling_mechanisms(w):
    """The bodies of `w` that move: together they must be a mechanism that rolls on a disc,
    which nothing in rigid-body mechanics damps (there is no rolling resistance): a disc
    rolling on a level surface, or one carrying a body that leans on it and pivots about a
    contact with the heap. So each touches something, no contact that carries load slips (the
    tangential relative velocity a small fraction of the body's speed), and one of them is a
    disc."""
    contacts = w.contacts()
    moving = {b.id for b in w.bodies if b.kind == "dynamic" and np.hypot(*b.velocity) >= 1e-3}
    for i in moving:
        b = w.bodies[i]
        touching = [
            (a_id if b_id == b.id else b_id, point, normal, load)
            for a_id, b_id, point, normal, load in zip(
                contacts["body_a"],
                contacts["body_b"],
                contacts["point"],
                contacts["normal"],
                contacts["normal_impulse"],
            )
            if b.id in (a_id, b_id)
        ]
        assert touching, b
        for other, point, normal, load in touching:
            if load == 0:
                continue
            relative = b.velocity_at(point[:2]) - w.bodies[int(other)].velocity_at(point[:2])
            slip = abs(relative @ np.array([-normal[1], normal[0]]))
            assert slip < 1e-3 * np.hypot(*b.velocity), (b, slip)
    assert not moving or any(w.bodies[i].shape == "circle" for i in moving), moving
    return moving


def test_a_heap_of_every_shape_comes_to_rest_and_sleeps():
    """After 8 s every body of the heap is at rest, except a mechanism that rolls on a disc
    without slipping (see `rolling_mechanisms`), which keeps the bodies it touches awake. Such
    a disc may also roll into the heap and stop against it, waking what it touched: so
    everything else is asleep a sleep time (0.5 s) later."""
    w = mixed_heap()
    w.run(8.0)
    rolling_mechanisms(w)
    w.run(0.6)
    rolling = rolling_mechanisms(w)
    for b in w.bodies:
        if b.kind == "dynamic" and not b.sleeping:
            assert rolling and np.hypot(*b.velocity) < 1e-3 or b.id in rolling, b


@pytest.mark.parametrize("dt", [1 / 60, 1 / 120])
def test_a_column_landing_beside_a_standing_box_is_held_up_and_sleeps(dt):
    """20 squares of 10 cm dropped in a column, 5 mm apart, beside a standing box 2 m tall that
    they touch. Every square is one contact from the standing box as from the floor, so a
    pass that held each body up by the one a contact nearer the floor held none of them by
    the square beneath, and the column, whose iterations run out as it lands, sank into
    itself: 4 mm deep at 0.5 s and still moving after 2 s at 1/60 s. Held by what it rests
    on, it lands at most a millimetre deep and sleeps within 2 s, each of the 20 contacts
    beneath its squares (the floor's and 19 between squares) keeping between one and two
    linear slops (the sleep rule's limit)."""
    w = rl.World2D(dt=dt)
    w.add_ground()
    h = 0.05
    column = [w.add_box((h, h), position=(0, h + 2.1 * h * k)) for k in range(20)]
    w.add_box((h, 20 * h), position=(2 * h, 20 * h))
    slop = json.loads(w.to_json())["settings"]["linear_slop"]
    w.run(0.5)
    assert w.contacts()["depth"].max() < 1e-3
    w.run(1.5)
    assert all(b.sleeping for b in column)
    sunk = 39 * h - column[-1].position[1]
    assert 20 * slop <= sunk <= 2 * 20 * slop
    assert max(abs(b.position[0]) for b in column) < 1e-3


def test_a_base_20_pyramid_of_boxes_stands():
    """210 boxes in a base-20 pyramid: after 5 s the top has dropped less than the slop
    (1e-4 m) and nothing has moved sideways more than that."""
    w = rl.World2D()
    w.add_ground(friction=0.6)
    h = 0.1
    boxes = []
    for row in range(20):
        for k in range(20 - row):
            x = (k - (19 - row) / 2) * 2 * h
            boxes.append(w.add_box((h, h), mass=1.0, position=(x, h + 2 * h * row), friction=0.6))
    start = w.positions.copy()
    w.run(5.0)
    drift = np.abs(w.positions - start)
    assert drift[:, 1].max() < 1e-4, drift[:, 1].max()
    assert drift[:, 0].max() < 1e-4, drift[:, 0].max()


def test_a_fast_disc_does_not_pass_through_a_thin_segment():
    w = rl.World2D(gravity=(0, 0), dt=1 / 60)
    w.add_segment((1, -1), (1, 1), restitution=1.0)
    d = w.add_circle(0.01, mass=1.0, velocity=(300, 0), restitution=1.0)
    w.step(3)
    assert d.position[0] < 1 - 0.01 + 1e-9
    assert rel(d.velocity[0], -300) < 1e-12


def test_the_angle_counts_whole_turns():
    """A disc rolling 10 m on a rough floor has turned -distance / r, many turns."""
    w = rl.World2D()
    w.add_ground(friction=1.0)
    r = 0.05
    d = w.add_circle(
        r, mass=1.0, position=(0, r), velocity=(5, 0), angular_velocity=-5 / r, friction=1.0
    )
    w.run(2.0)
    assert rel(d.angle, -d.position[0] / r) < 1e-9
    assert d.angle < -60 * math.pi
    rec_w = rl.World2D()
    rec_w.add_ground(friction=1.0)
    d2 = rec_w.add_circle(r, mass=1.0, position=(0, r), velocity=(5, 0), angular_velocity=-5 / r)
    rec = rec_w.record(every=8)
    rec_w.run(2.0)
    np.testing.assert_allclose(rec.angles[:, 1], -rec.positions[:, 1, 0] / r, rtol=1e-9, atol=1e-12)
    assert rec.time[-1] == rec_w.time and rec.angles[-1, 1] == d2.angle


# ---------------------------------------------------------------------------------------------
# arrays, files and processes


def test_whole_world_arrays_and_measures_are_2d():
    w = rl.World2D(gravity=(0, 0))
    a = w.add_circle(0.1, mass=2.0, position=(1, 2), velocity=(3, 4), angular_velocity=5.0)
    w.add_box((0.1, 0.2), mass=1.0, position=(-1, 0), angle=0.5)
    assert w.positions.shape == (2, 2) and w.velocities.shape == (2, 2)
    assert w.angles.shape == (2,) and w.angular_velocities.shape == (2,)
    np.testing.assert_array_equal(w.momentum(), (6, 8))
    # L about the origin: r x m v + I w.
    expected = 2.0 * (1 * 4 - 2 * 3) + 0.5 * 2.0 * 0.01 * 5.0
    assert rel(w.angular_momentum(), expected) < 1e-15
    assert rel(w.energy()["kinetic"], 0.5 * 2 * 25 + 0.5 * a.inertia * 25) < 1e-15
    w.set_state(angles=[1.0, 7.0], angular_velocities=[0.0, 1.0], positions=[[0, 0], [2, 2]])
    np.testing.assert_array_equal(w.angles, (1.0, 7.0))
    np.testing.assert_array_equal(w.positions, [[0, 0], [2, 2]])
    rec = w.record()
    w.step(10)
    assert rec.positions.shape == (11, 2, 2) and rec.angles.shape == (11, 2)
    assert rec.momentum.shape == (11, 2) and rec.angular_momentum.shape == (11,)


def test_saved_and_pickled_2d_worlds_continue_bit_for_bit(tmp_path):
    w = mixed_heap(n=16)
    w.run(0.5)
    w.save(tmp_path / "heap.json")
    assert '"planar": true' in (tmp_path / "heap.json").read_text()
    loaded = rl.World2D.load(tmp_path / "heap.json")
    copied = pickle.loads(pickle.dumps(w))
    for other in (loaded, copied):
        np.testing.assert_array_equal(other.angles, w.angles)
    w.run(0.5)
    loaded.run(0.5)
    rl.step_many([copied], 120)
    for other in (loaded, copied):
        np.testing.assert_array_equal(other.positions, w.positions)
        np.testing.assert_array_equal(other.angles, w.angles)
    with pytest.raises(ValueError, match="3D world"):
        rl.World2D.from_json(rl.World().to_json())


def test_snapshot_and_restore_take_the_angle_back():
    w = rl.World2D()
    w.add_ground(friction=1.0)
    d = w.add_circle(0.1, mass=1.0, position=(0, 0.1), velocity=(3, 0), friction=1.0)
    snap = w.snapshot()
    w.run(1.0)
    end = (d.angle, d.position.copy())
    w.restore(snap)
    assert d.angle == 0.0
    w.run(1.0)
    assert (d.angle, *d.position) == (end[0], *end[1])


# ---------------------------------------------------------------------------------------------
# bad input


@pytest.mark.parametrize(
    "call, error, words",
    [
        (
            lambda w: w.add_polygon([(0, 0), (2, 0), (1, 0.5), (2, 2), (0, 2)]),
            ValueError,
            "points.*not convex",
        ),
        (lambda w: w.add_polygon([(0, 0), (1, 1), (2, 2)]), ValueError, "points.*at least 3"),
        (lambda w: w.add_polygon([(0, 0), (1, 0), (np.nan, 1)]), ValueError, r"points\[2\]"),
        (lambda w: w.add_circle(0.0), ValueError, "radius"),
        (lambda w: w.add_circle(-1.0), ValueError, "radius"),
        (lambda w: w.add_circle(0.1, position=(0, 1, 0)), ValueError, "position.*2 numbers"),
        (lambda w: w.add_box((0.1, 0.1, 0.1)), ValueError, "half_extents"),
        (lambda w: w.add_circle(0.1, angular_velocity=(0, 0, 1)), TypeError, "angular_velocity"),
        (lambda w: w.add_circle(0.1, orientation=(0, 0, 0, 1)), TypeError, "orientation"),
        (lambda w: w.add_segment((0, 0), (0, 0)), ValueError, "p1"),
        (lambda w: w.add_segment((0, 0), (1, 0), kind="dynamic"), ValueError, "kind"),
        (lambda w: w.add_ground(normal=(0, 0)), ValueError, "normal"),
        (lambda w: w.set_state(positions=[[0, 0, 0]]), ValueError, "positions"),
        (lambda w: w.set_state(angles=[np.inf]), ValueError, "angles"),
        (lambda w: setattr(w, "gravity", (0, -9.81, 1)), ValueError, "gravity"),
        (lambda w: w.bodies[0].apply_force((1, 0, 0)), ValueError, "force"),
    ],
)
def test_bad_input_names_the_parameter_and_leaves_the_world_unchanged(call, error, words):
    w = rl.World2D()
    w.add_circle(0.1, mass=1.0, position=(0, 1))
    before = w.to_json()
    with pytest.raises(error, match=words):
        call(w)
    assert w.to_json() == before


def test_3d_bodies_and_states_are_refused_by_the_engine_of_a_2d_world():
    w = rl.World2D()
    core = w._world
    with pytest.raises(ValueError, match="shape.*2D world"):
        core.add_box((0.1, 0.1, 0.1))
    b = w.add_circle(0.1)
    with pytest.raises(ValueError, match="position.*x-y plane"):
        b._body.position = (0, 0, 1)
    with pytest.raises(ValueError, match="orientation.*about z"):
        b._body.orientation = (0.6, 0, 0, 0.8)
    with pytest.raises(ValueError, match="angle.*2D world"):
        rl.World().add_sphere(0.1, angle=1.0)
    assert len(w) == 1


# ---------------------------------------------------------------------------------------------
# springs and joints in the plane


@pytest.mark.parametrize("joint", ["pin", "distance"])
def test_a_disc_on_a_pin_swings_as_a_physical_pendulum(joint):
    """A disc of radius r hung at distance L from a fixed pivot (a pin through a point of a
    light frame, or a distance joint that lets it turn freely) swings with the small-angle
    period 2 pi sqrt(I / (m g L)), I = 1/2 m r^2 + m L^2 when it turns with the rod (pin:
    welded), m L^2 when it does not (distance joint). 1e-4 relative over 4 periods (the
    amplitude is 0.01 rad: the small-angle error is 6e-6); energy kept to 1e-9."""
    w = rl.World2D(dt=1 / 1000)
    r, L, m, th = 0.1, 1.0, 2.0, 0.01
    pos = (L * math.sin(th), -L * math.cos(th))
    disc = w.add_circle(r, mass=m, position=pos, angle=th)
    if joint == "pin":
        w.add_pin_joint(disc, anchor=(0, 0))
        inertia = 0.5 * m * r * r + m * L * L
    else:
        w.add_distance_joint(disc, anchor_b=(0, 0))
        inertia = m * L * L
    period = 2 * math.pi * math.sqrt(inertia / (m * G * L))
    e0 = w.energy()["total"]
    crossings, last_x = [], disc.position[0]
    while len(crossings) < 9:
        w.step()
        x = disc.position[0]
        if (x < 0) != (last_x < 0):
            crossings.append(w.time - w.dt * x / (x - last_x))
        last_x = x
    measured = (crossings[8] - crossings[0]) / 4
    assert rel(measured, period) < 1e-4
    assert abs(w.energy()["total"] - e0) < 1e-9 * abs(e0) + 1e-12
    assert out_of_plane(w) == 0.0


def test_a_3d_body_cannot_join_a_2d_world_and_back():
    w2, w3 = rl.World2D(), rl.World()
    flat = w2.add_circle(0.1)
    ball = w3.add_sphere(0.1)
    with pytest.raises(TypeError, match="a: expected a rigidlab.Body2D"):
        w2.add_pin_joint(ball)
    with pytest.raises(TypeError, match="expected a rigidlab.Body"):
        w3.add_hinge_joint(flat, anchor=(0, 0, 0))
    assert w2.joints == [] and w3.joints == []


def test_links_that_would_leave_the_plane_are_refused_from_the_api_and_from_files():
    w = rl.World2D()
    a = w.add_circle(0.1, mass=1.0, position=(0, -1))
    w.add_pin_joint(a, anchor=(0, 0))
    w.add_spring(a, stiffness=10.0, anchor_b=(1, 0))
    with pytest.raises(ValueError, match="axis.*about z"):
        w._world.add_hinge_joint(a._body, None, (0, 0, 0), (1, 0, 0))
    with pytest.raises(ValueError, match="anchor_b.*x-y plane"):
        w._world.add_spring(a._body, stiffness=1.0, anchor_b=(0, 0, 1))
    assert len(w.joints) == 1 and len(w.springs) == 1
    text = w.to_json()
    scene = json.loads(text)
    scene["springs"][0]["anchor_b"] = [1.0, 0.0, 0.5]
    with pytest.raises(ValueError, match=r"springs\[0\].*anchor_b"):
        rl.World2D.from_json(json.dumps(scene))
    scene = json.loads(text)
    scene["joints"][0]["kind"]["axis_a"] = [0.0, 1.0, 0.0]
    with pytest.raises(ValueError, match=r"joints\[0\].*axis"):
        rl.World2D.from_json(json.dumps(scene))
    scene = json.loads(text)
    scene["bodies"][0]["position"] = [0.0, -1.0, 0.25]
    with pytest.raises(ValueError, match=r"bodies\[0\].*position"):
        rl.World2D.from_json(json.dumps(scene))


def test_bodies_name_their_2d_shapes_and_dimensions():
    w = rl.World2D()
    made = {
        "ground": w.add_ground(normal=(0, 1), offset=-1.0),
        "circle": w.add_circle(0.2),
        "box": w.add_box((0.3, 0.1)),
        "polygon": w.add_polygon([(0, 0), (1, 0), (0, 1)]),
        "capsule": w.add_capsule(0.1, 0.4),
        "segment": w.add_segment((0, 0), (2, 0), radius=0.05),
    }
    for name, body in made.items():
        assert body.shape == name
    assert made["circle"].dimensions == {"radius": 0.2}
    assert made["capsule"].dimensions == {"radius": 0.1, "half_length": 0.4}
    assert made["box"].dimensions["half_extents"] == [0.3, 0.1]
    np.testing.assert_allclose(made["segment"].dimensions["vertices"], [[-1, 0], [1, 0]])
    assert made["segment"].dimensions["radius"] == 0.05
    ground = made["ground"].dimensions
    np.testing.assert_allclose(ground["normal"], (0, 1), atol=1e-15)
    assert ground["offset"] == pytest.approx(-1.0, abs=1e-15)
    assert made["polygon"].dimensions["vertices"].shape == (3, 2)


@pytest.mark.parametrize("dt", STEPS)
def test_an_atwood_machine_accelerates_at_g_times_the_mass_difference_over_the_sum(dt):
    """Two weights on a rope over fixed pulleys: a = g (m1 - m2) / (m1 + m2) (1e-6 relative;
    measured 1e-13), the energy kept, and a saved machine continues bit for bit."""
    w = rl.World2D(dt=dt)
    m1, m2 = 2.0, 1.0
    heavy = w.add_box((0.05, 0.05), mass=m1, position=(-0.5, 1.0))
    light = w.add_box((0.05, 0.05), mass=m2, position=(0.5, 1.0))
    w.add_pulley_joint(heavy, light, (-0.5, 2.0), (0.5, 2.0))
    e0 = w.energy()["total"]
    w.step(round(0.25 / dt))
    copy = rl.World2D.from_json(w.to_json())
    w.step(round(0.25 / dt))
    copy.step(round(0.25 / dt))
    a = G * (m1 - m2) / (m1 + m2)
    assert rel(1.0 - heavy.position[1], 0.5 * a * w.time**2) < 1e-6
    assert rel(light.position[1] - 1.0, 0.5 * a * w.time**2) < 1e-6
    assert abs(w.energy()["total"] - e0) < 1e-9 * abs(e0)
    np.testing.assert_array_equal(copy.positions, w.positions)


def test_a_block_and_tackle_trades_force_for_distance_and_a_slack_rope_lets_go():
    """Ratio r: la + r lb = L. With m_a on the a side and m_b on the b side, lb accelerates at
    -g (r m_a - m_b) / (r^2 m_a + m_b) (1e-6). Thrown up, the lighter weight slackens the rope:
    both fall freely until it is taut again."""
    w = rl.World2D()
    r, ma, mb = 2.0, 1.0, 3.0
    a = w.add_circle(0.05, mass=ma, position=(-1.0, 0.0))
    b = w.add_circle(0.05, mass=mb, position=(1.0, 0.0))
    w.add_pulley_joint(a, b, (-1.0, 2.0), (1.0, 2.0), ratio=r)
    w.run(0.5)
    lb_acc = -G * (r * ma - mb) / (r * r * ma + mb)
    assert rel(2.0 - b.position[1] - 2.0, 0.5 * lb_acc * w.time**2) < 1e-6
    assert rel(a.position[1], r * 0.5 * lb_acc * w.time**2) < 1e-6
    # Slack: b thrown upwards at 5 m/s leaves the rope slack, and falls freely.
    b.velocity = (0.0, 5.0)
    a.velocity = (0.0, 0.0)
    y0, t0 = b.position[1], w.time
    w.step(24)
    t = w.time - t0
    assert abs(b.position[1] - (y0 + 5 * t - 0.5 * G * t * t)) < 1e-9
    with pytest.raises(ValueError, match="b"):
        w._world.add_pulley_joint(a._body, None, (0, 0, 0), (1, 0, 0))


@pytest.mark.parametrize("dt", STEPS)
def test_a_slider_on_a_slope_runs_down_at_g_sin_without_turning_or_leaving_its_line(dt):
    w = rl.World2D(dt=dt)
    th = math.radians(30)
    block = w.add_box((0.1, 0.05), mass=2.0, angle=th)
    slide = w.add_slider_joint(block, anchor=(0, 0), axis=(math.cos(th), math.sin(th)))
    w.step(round(1.0 / dt))
    assert slide.kind == "slider"
    assert rel(slide.translation, -0.5 * G * math.sin(th) * w.time**2) < 1e-9
    assert block.angle == th
    assert abs(np.dot(block.position, (-math.sin(th), math.cos(th)))) < 1e-12


@pytest.mark.parametrize("dt", [1 / 60, 1 / 240, 1 / 1000])
def test_two_bodies_on_a_slider_spinning_free_keep_angular_momentum_exactly(dt):
    """A bar spinning at 3 rad/s with a block free to slide out along it (no gravity): the
    joint's impulses are internal and act at one point, so momentum and angular momentum stay
    to round-off (in the plane, turns add in any order), and energy to second order
    (below 0.1 dt^2 of it; it is 0.04 to 0.054 dt^2) while the block slides out 1.7 m."""
    w = rl.World2D(gravity=(0, 0), dt=dt)
    bar = w.add_box((0.3, 0.05), mass=2.0)
    block = w.add_box((0.04, 0.04), mass=0.5, position=(0.4, 0))
    w.add_slider_joint(block, bar, anchor=(0.4, 0), axis=(1, 0))
    bar.angular_velocity = block.angular_velocity = 3.0
    block.velocity = (0.3, 1.2)
    w.step()
    e0, p0, l0 = w.energy()["total"], np.array(w.momentum()), w.angular_momentum((0, 0))
    w.step(round(1.0 / dt))
    assert abs(w.angular_momentum((0, 0)) - l0) < 1e-12 * abs(l0)
    assert np.linalg.norm(np.array(w.momentum()) - p0) < 1e-12
    assert abs(w.energy()["total"] - e0) < 0.1 * dt**2 * e0
    assert np.linalg.norm(block.position - bar.position) > 1.5


def test_a_slider_motor_drives_it_to_its_speed_and_a_limit_stops_it():
    """No gravity: the motor (1 m/s, at most 100 N on 2 kg) reaches its speed in 0.02 s and
    holds it; at the 0.5 m limit the block stops there, and the motor's reaction reads 0."""
    w = rl.World2D(gravity=(0, 0))
    block = w.add_box((0.1, 0.05), mass=2.0)
    slide = w.add_slider_joint(
        block, anchor=(0, 0), axis=(1, 0), limits=(-0.5, 0.5), motor=(1.0, 100.0)
    )
    w.run(0.25)
    assert abs(block.velocity[0] - 1.0) < 1e-12 and block.velocity[1] == 0.0
    # 0.02 s at 50 m/s^2, then 1 m/s: 0.01 + 0.23 m. A motor acts on velocities at the end of
    # each step (as a hinge's does), so the travel trails that by half a step at its speed,
    # to within a step's share of the ramp.
    assert abs(slide.translation - (0.24 - 0.5 * w.dt)) < 50 * w.dt**2
    w.run(1.0)
    assert abs(slide.translation - 0.5) < 1e-12
    assert abs(block.velocity[0]) < 1e-12
    slide.motor = (-2.0, 100.0)
    w.run(0.5)
    assert abs(block.velocity[0] + 2.0) < 1e-12


def test_a_pin_motor_turns_a_wheel_at_its_speed_within_its_torque():
    """A motor of 3 rad/s and 0.5 N m on a disc of I = 0.01 kg m^2 (no gravity) spins it up at
    50 rad/s^2 for 0.06 s, then holds 3 rad/s; its angle counts on past a turn."""
    w = rl.World2D(gravity=(0, 0))
    wheel = w.add_circle(0.1, mass=2.0)
    pin = w.add_pin_joint(wheel, anchor=(0, 0), motor=(3.0, 0.5))
    w.run(0.06)
    assert abs(wheel.angular_velocity - 3.0) < 0.5 / 0.01 * w.dt + 1e-12
    w.run(3.0)
    assert abs(wheel.angular_velocity - 3.0) < 1e-12
    assert wheel.angle > 2 * math.pi
    assert np.abs(wheel.position).max() < 1e-12
    assert pin.kind == "hinge"


def test_corrupt_2d_scene_files_are_refused_with_where_and_why():
    w = rl.World2D()
    w.add_ground()
    w.add_polygon([(0, 0), (1, 0), (0, 1)], position=(0, 1))
    w.add_box((0.2, 0.1), position=(2, 1), angle=7.0)
    w.add_segment((0, 0), (1, 1))
    base = json.loads(w.to_json())

    def refused(mutate, words):
        scene = json.loads(json.dumps(base))
        mutate(scene)
        with pytest.raises(ValueError, match=words):
            rl.World2D.from_json(json.dumps(scene))

    refused(
        lambda s: s["bodies"][1]["shape"].update(vertices=[[0, 0], [1, 0], [0.2, 0.2], [0, 1]]),
        r"bodies\[1\].shape: vertices: .*not convex",
    )
    refused(
        lambda s: s["bodies"][2].update(shape={"type": "box", "half_extents": [1, 1, 1]}),
        r"bodies\[2\]: shape: has no place in a 2D world",
    )
    refused(lambda s: s["bodies"][2].update(angle=1.0), r"bodies\[2\]: angle")
    refused(lambda s: s["bodies"][3].update(kind="dynamic"), r"bodies\[3\]: kind: a segment")
    refused(lambda s: s["settings"].update(gravity=[0, -9.81, 1]), "settings: gravity")
    refused(lambda s: s["bodies"][1].update(velocity=[0, 0, 1]), r"bodies\[1\]: velocity")
    # A 2D world's polygons in a file that says 3D.
    scene = json.loads(json.dumps(base))
    scene["settings"]["planar"] = False
    for b in scene["bodies"]:
        b.pop("angle", None)
    with pytest.raises(ValueError, match=r"bodies\[1\]: shape: is a shape of 2D worlds"):
        rl.World.from_json(json.dumps(scene))


def test_ray_casts_in_the_plane_meet_each_2d_shape_at_its_surface():
    """Rays along -y onto a circle, a box, a triangle, a bare segment, a rounded segment and the
    ground: the distance to each surface in closed form, the outward normal, the body."""
    w = rl.World2D(gravity=(0, 0))
    ground = w.add_ground(offset=-1.0)
    disc = w.add_circle(0.5, position=(0, 0))
    box = w.add_box((0.3, 0.2), position=(2, 0))
    tri = w.add_polygon([(3.5, 0), (4.5, 0), (4.0, 1.0)])
    bare = w.add_segment((5.5, 0.25), (6.5, -0.25))
    rounded = w.add_segment((7.5, 0), (8.5, 0), radius=0.1)
    cases = [
        (0.3, disc, 5 - math.sqrt(0.25 - 0.09), (0.3 / 0.5, math.sqrt(0.16) / 0.5)),
        (2.1, box, 5 - 0.2, (0, 1)),
        (4.25, tri, 5 - 0.5, (2 / math.sqrt(5), 1 / math.sqrt(5))),
        (6.0, bare, 5.0, (0.5 / math.hypot(1, 0.5), 1 / math.hypot(1, 0.5))),
        (8.0, rounded, 5 - 0.1, (0, 1)),
        (10.0, ground, 6.0, (0, 1)),
    ]
    for x, body, distance, normal in cases:
        hit = w.ray_cast((x, 5.0), (0, -1))
        assert hit["body"] == body, (x, hit["body"])
        assert abs(hit["distance"] - distance) < 1e-12, (x, hit["distance"], distance)
        np.testing.assert_allclose(hit["normal"], normal, atol=1e-12)
        np.testing.assert_allclose(hit["point"], (x, 5.0 - distance), atol=1e-12)
    # Past a bare segment's end, and short of the surface: no hit on it.
    assert w.ray_cast((6.6, 5.0), (0, -1))["body"] == ground
    assert w.ray_cast((0.0, 5.0), (0, -1), max_distance=4.0) is None
    assert w.ray_cast((10.0, 5.0), (0, -1), planes=False) is None
    with pytest.raises(ValueError, match="origin"):
        w.ray_cast((0, 5, 0), (0, -1))


def test_impulses_torques_and_point_velocities_in_the_plane():
    """An impulse J at a point r from the centre: dv = J / m and dw = (r x J) / I; a torque t for
    0.5 s spins a disc up to t T / I; a point's velocity is v + w x r."""
    w = rl.World2D(gravity=(0, 0))
    box = w.add_box((0.3, 0.1), mass=2.0, position=(1.0, 1.0))
    inertia = 2.0 * (0.6**2 + 0.2**2) / 12
    box.apply_impulse((0.0, 3.0), point=(1.3, 1.0))
    np.testing.assert_allclose(box.velocity, (0.0, 1.5), atol=1e-15)
    assert rel(box.angular_velocity, 0.3 * 3.0 / inertia) < 1e-14
    np.testing.assert_allclose(
        box.velocity_at((1.0, 1.1)), (-0.1 * box.angular_velocity, 1.5), atol=1e-15
    )
    disc = w.add_circle(0.2, mass=1.0, position=(-1, 0))
    disc.apply_torque(0.4, duration=0.5)
    w.run(0.6)
    assert rel(disc.angular_velocity, 0.4 * 0.5 / (0.5 * 1.0 * 0.04)) < 1e-9
    np.testing.assert_array_equal(disc.velocity, (0.0, 0.0))


def test_contact_events_of_a_2d_world_come_in_the_plane():
    w = rl.World2D()
    w.add_ground(restitution=0.5)
    w.add_circle(0.1, mass=1.0, position=(0.3, 1.1), restitution=0.5)
    w.run(0.5)
    ev = w.contact_events()
    impacts = [i for i, k in enumerate(ev["kind"]) if k == "impact"]
    assert impacts and ev["point"].shape[1] == 2 and ev["normal"].shape[1] == 2
    first = impacts[0]
    np.testing.assert_allclose(ev["point"][first], (0.3, 0.0), atol=1e-12)
    np.testing.assert_allclose(ev["normal"][first], (0, 1), atol=1e-15)
    assert rel(ev["speed"][first], math.sqrt(2 * G * 1.0)) < 1e-9


@pytest.mark.parametrize("seed", range(4))
def test_random_2d_scenes_never_gain_energy_and_stay_finite_and_flat(seed):
    """Bodies of every 2D shape thrown at random (sizes, masses, materials, spins, dt) into a
    bin on a tilted ground: the total energy never rises above its start (contacts, friction
    and restitution up to 1 only take energy out; 1e-9 relative), every state stays finite and
    exactly in the plane, and nothing ends below the ground."""
    rng = np.random.default_rng(seed)
    dt = [1 / 60, 1 / 120, 1 / 240, 1 / 500][seed]
    w = rl.World2D(dt=dt)
    tilt = rng.uniform(-0.2, 0.2)
    w.add_ground(normal=(tilt, 1), restitution=rng.uniform(0, 1), friction=rng.uniform(0, 1))
    w.add_segment((-1.5, 0), (-1.5, 3), radius=rng.choice([0.0, 0.02]))
    w.add_segment((1.5, 0), (1.5, 3))
    for k in range(24):
        kw = dict(
            position=(rng.uniform(-1.2, 1.2), rng.uniform(0.4, 3)),
            angle=rng.uniform(-3, 3),
            velocity=rng.normal(0, 2, 2),
            angular_velocity=rng.normal(0, 5),
            restitution=rng.uniform(0, 1),
            friction=rng.uniform(0, 1),
            mass=rng.uniform(0.1, 3),
        )
        kind = k % 4
        if kind == 0:
            w.add_circle(rng.uniform(0.02, 0.15), **kw)
        elif kind == 1:
            w.add_box(tuple(rng.uniform(0.02, 0.2, 2)), **kw)
        elif kind == 2:
            # Corners on an ellipse, in order: a convex polygon of 3 to 8 corners.
            t = np.sort(rng.uniform(0, 2 * math.pi, rng.integers(3, 9)))
            a, b = rng.uniform(0.04, 0.15, 2)
            w.add_polygon(np.column_stack([a * np.cos(t), b * np.sin(t)]), **kw)
        else:
            w.add_capsule(rng.uniform(0.02, 0.08), rng.uniform(0.02, 0.15), **kw)
    e0 = w.energy()["total"]
    for _ in range(round(3 / dt) // 10):
        w.step(10)
        assert w.energy()["total"] <= e0 + 1e-9 * abs(e0)
        assert out_of_plane(w) == 0.0
    assert np.isfinite(w._world.positions).all() and np.isfinite(w._world.velocities).all()
    heights = w.positions @ np.array([tilt, 1.0]) / math.hypot(tilt, 1.0)
    assert heights.min() > -1e-3


def tall_heap(n, spacing):
    """n bodies of every 2D shape (5 cm across) on a lattice 7 wide and `spacing` apart
    upwards, over a bin 0.5 m wide of zero-thickness segments."""
    w = rl.World2D()
    side = 0.5
    w.add_segment((-5, 0), (5, 0))
    top = spacing * n / 7 + 2
    w.add_segment((-side / 2, 0), (-side / 2, top))
    w.add_segment((side / 2, 0), (side / 2, top))
    rng = np.random.default_rng(0)
    s = 0.05
    angles = np.linspace(0, 2 * math.pi, 7)[:-1]
    hexagon = 0.6 * s * np.column_stack([np.cos(angles), 0.8 * np.sin(angles)])
    bodies = []
    for k in range(n):
        kw = dict(position=(-side / 2 + 0.06 + 0.0625 * (k % 7), 0.06 + spacing * (k // 7)))
        kind = rng.integers(4)
        if kind == 0:
            bodies.append(w.add_circle(0.6 * s, **kw))
        elif kind == 1:
            bodies.append(w.add_box((0.6 * s, 0.45 * s), **kw))
        elif kind == 2:
            bodies.append(w.add_capsule(0.36 * s, 0.48 * s, **kw))
        else:
            bodies.append(w.add_polygon(hexagon, **kw))
    return w, bodies, side


@pytest.mark.parametrize("depth", [0.01, 0.03, 0.06])
@pytest.mark.parametrize("tilt", [0.2, 0.5, 1.1])
def test_a_corner_placed_deep_in_the_ground_is_pushed_out_in_a_step_without_a_fling(depth, tilt):
    """Position correction turns a body by at most 0.05 rad per contact and pass (10 passes a
    step), and still parts a square whose corner starts up to 6 cm (0.6 of its half side) in
    the ground within one step, to the slop (0.1 mm, and the tenth of it the passes may leave),
    without giving it any speed."""
    w = rl.World2D(gravity=(0, 0))
    w.add_ground()
    h = 0.1
    low = h * (math.cos(tilt) + math.sin(tilt))
    b = w.add_box((h, h), position=(0, low - depth), angle=tilt)
    w.step()
    assert abs(b.angle - tilt) <= 10 * 0.05 + 1e-12
    for _ in range(3):
        w.step()
        assert w.contacts()["depth"].max() <= 1.1e-4
    assert w.energy()["kinetic"] == 0.0


def narrow_bin_column(n, width, top=None, seed=7):
    """n discs (5 cm radius) at random in a column `width` wide and `top` high over a bin of
    zero-thickness segments: each in its own cell of a lattice of rows as wide as the bin,
    moved at random within it (None: high enough that no two touch)."""
    rng = np.random.default_rng(seed)
    r = 0.05
    per_row = int(width // (2.2 * r))
    rows = math.ceil(n / per_row)
    top = rows * 2.2 * r if top is None else top
    pitch = np.array([width / per_row, top / rows])
    w = rl.World2D()
    w.add_segment((-50, 0), (50, 0))
    for x in (-width / 2, width / 2):
        w.add_segment((x, 0), (x, top + 2))
    cells = rng.permutation(per_row * rows)[:n]
    cells = np.column_stack([cells % per_row, cells // per_row])
    jitter = rng.uniform(-1, 1, (n, 2)) * (pitch / 2 - 1.05 * r)
    centres = (cells + 0.5) * pitch + jitter - (width / 2, 0)
    return w, [w.add_circle(r, position=tuple(c), density=100.0) for c in centres]


def largest_disc_overlap(discs, r=0.05):
    p = np.array([d.position for d in discs])
    pairs = np.array(sorted(cKDTree(p).query_pairs(2 * r)))
    if not len(pairs):
        return 0.0
    return float((2 * r - np.linalg.norm(p[pairs[:, 0]] - p[pairs[:, 1]], axis=1)).max())


@pytest.mark.parametrize("width", [0.55, 0.6])
def test_a_column_of_discs_started_overlapping_in_a_narrow_bin_keeps_every_disc(width):
    """2 000 discs (5 cm radius) started at random in a column 0.55 or 0.6 m wide, from the
    floor to only 30 m high: 500 rows of 4 or 400 rows of 5, 60 or 75 mm apart, so that discs
    of neighbouring rows overlap by up to 82 or 54 mm, and the column, standing on the floor
    under its own weight, is pushed apart by position correction (at 0.6 m its top rises 0.4 m
    in 3 s). Position correction moves no disc farther in a step than its contacts were
    searched (a body's search reaches as far as it overlaps), so none is squeezed between its
    neighbours and through a wall (a zero-thickness segment) it had no contact with: not in the
    first step, whose search knew of no overlap, nor when a disc is pushed deeper into another
    by a third; and the overlaps shrink."""
    w, discs = narrow_bin_column(2000, width, 30.0)
    start = largest_disc_overlap(discs)
    assert start > 0.05
    w.run(3.0)
    p = np.array([d.position for d in discs])
    assert (np.abs(p[:, 0]) < width / 2).all() and (p[:, 1] > 0).all()
    assert w.contacts()["depth"].max() < start


@pytest.mark.parametrize(
    ("depth", "gap", "heavier"), [(0.07, 0.009, 1000), (0.07, 0.009, 10), (0.09, 0.03, 1000)]
)
def test_a_disc_placed_deep_in_another_beside_a_wall_is_parted_on_its_side_of_the_wall(
    depth, gap, heavier
):
    """A disc `gap` from a wall (a zero-thickness segment), with a heavier one placed `depth`
    into it from the other side: the first step's search, knowing of no overlap, does not
    reach the wall, and parting the two would push the light disc's centre past it. It is
    held to what was searched and parted over the next steps, against the wall's face: it
    ends touching the wall from its own side, the two discs parted to the slop, all at rest."""
    r, slop = 0.05, 1e-4
    w = rl.World2D(gravity=(0, 0))
    w.add_segment((0, -1), (0, 1))
    a = w.add_circle(r, position=(-(r + gap), 0.0), density=10.0)
    b = w.add_circle(r, position=(-(r + gap) - (2 * r - depth), 0.01), density=10.0 * heavier)
    w.step()
    assert a.position[0] < 0.0
    w.step(20)
    assert -r - slop <= a.position[0] <= -r + 1.1 * slop
    assert np.linalg.norm(np.subtract(a.position, b.position)) >= 2 * r - 1.1 * slop
    assert w.energy()["kinetic"] == 0.0


@pytest.mark.parametrize("dt", [1 / 60, 1 / 240])
def test_a_column_of_random_shapes_started_inside_each_other_keeps_every_body(dt):
    """600 discs, boxes, capsules and hexagons (5 cm) started at random in a column 0.6 m wide
    and 3 m high over a bin of zero-thickness segments: 4.3 m2 of bodies in 1.8 of column, so that
    every body starts deep in its neighbours. Position correction pushes them apart without
    turning any body by more than a quarter radian in a step, so that the points of its contacts
    (fixed in it at the step's start) still face what they touch, and none is turned and pushed
    through a wall. After 2 s every body is in the bin."""
    rng = np.random.default_rng(3)
    width, top, s = 0.6, 3.0, 0.05
    w = rl.World2D(dt=dt)
    w.add_segment((-50, 0), (50, 0))
    for x in (-width / 2, width / 2):
        w.add_segment((x, 0), (x, top + 5))
    hexagon = [(s * math.cos(t), s * math.sin(t)) for t in np.arange(6) * math.pi / 3]
    bodies = []
    for _ in range(600):
        kind = rng.integers(4)
        x, y = rng.uniform(-width / 2 + 0.06, width / 2 - 0.06), rng.uniform(0.06, top)
        kw = dict(position=(x, y), angle=float(rng.uniform(0, 2 * math.pi)), density=100.0)
        if kind == 0:
            bodies.append(w.add_circle(s, **kw))
        elif kind == 1:
            bodies.append(w.add_box((s, 0.7 * s), **kw))
        elif kind == 2:
            bodies.append(w.add_capsule(0.6 * s, 0.8 * s, **kw))
        else:
            bodies.append(w.add_polygon(hexagon, **kw))
    w.run(2.0)
    p = np.array([b.position for b in bodies])
    assert (np.abs(p[:, 0]) < width / 2).all() and (p[:, 1] > 0).all()


@pytest.mark.parametrize("width", [0.55, 0.6])
def test_a_column_of_discs_dropped_into_a_narrow_bin_comes_to_rest_within_the_slop(width):
    """2 000 discs (5 cm radius) dropped at random, none touching, from a column up to 44 or 55
    m high into a bin 5.5 or 6 discs wide: the top lands at some 30 m/s on a column that
    settles some 35 m high.
    Within 5 s every disc is in the bin, at rest, and no two overlap by more than the slop (0.1
    mm), give or take what a step's sinking under the column adds before position correction
    takes it out (5%, as for the 3D pile of spheres)."""
    w, discs = narrow_bin_column(2000, width)
    assert largest_disc_overlap(discs) == 0.0
    w.run(5.0)
    p = np.array([d.position for d in discs])
    assert (np.abs(p[:, 0]) < width / 2).all() and (p[:, 1] > 0).all()
    assert largest_disc_overlap(discs) < 1.05e-4
    assert np.abs(w.velocities).max() < 0.01


@pytest.mark.parametrize("speed", [2.0, 5.0, 12.0])
@pytest.mark.parametrize("depth", [0.01, 0.03])
def test_a_disc_sliding_along_a_wall_it_overlaps_is_pushed_straight_out(speed, depth):
    """A frictionless disc pressed into a wall (a segment) slides along it through the step;
    position correction measures the contact where the disc is at the step's end, against the
    wall's face, so it pushes the disc out along the face's normal only: its height is the free
    motion's to round-off, its overlap is gone to the slop, and its velocity is untouched."""
    dt, r = 1 / 240, 0.05
    w = rl.World2D(gravity=(0, 0), dt=dt)
    w.add_segment((0.5, -5.0), (0.5, 5.0), friction=0.0)
    d = w.add_circle(r, position=(0.5 - r + depth, 0.0), velocity=(0, -speed), friction=0.0)
    w.step()
    assert abs(d.position[1] + speed * dt) <= 1e-12
    assert 0.5 - d.position[0] >= r - 1.1e-4
    assert d.velocity == pytest.approx((0.0, -speed), abs=1e-12)


def test_a_tall_heap_landing_at_speed_keeps_every_body_in_its_bin():
    """500 bodies dropped from up to 10 m into a bin 7 bodies wide: a heap some 70 layers
    high, its top landing at 14 m/s. Nothing is squeezed out through the walls or the floor
    (zero-thickness segments, so a body pressed more than half through one would pass) and
    no two bodies overlap by more than a fifth of their size."""
    w, bodies, side = tall_heap(500, 0.15)
    w.run(2.5)
    p = np.array([b.position for b in bodies])
    assert (np.abs(p[:, 0]) < side / 2).all() and (p[:, 1] > 0).all()
    assert w.contacts()["depth"].max() < 0.01
