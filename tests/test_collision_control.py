"""Collision control: categories and masks, groups, pairs set apart. A pair filtered out
never reaches the narrow phase (the world counts the pairs that do), never touches and never
makes an event; everything else is as before."""

import itertools
import json
import pickle

import numpy as np
import pytest
import rigidlab as rl
from test_bad_input import populated, rejects


def touching_pairs(w):
    c = w.contacts()
    return {tuple(sorted(p)) for p in zip(c["body_a"].tolist(), c["body_b"].tolist())}


def collide(fa, fb):
    """The rule, written out: each one's category in the other's mask, and not both in the
    same non-zero group."""
    (ca, ma, ga), (cb, mb, gb) = fa, fb
    return bool(ca & mb) and bool(cb & ma) and not (ga != 0 and ga == gb)


# Three categories, each body's mask one of these, groups 0, 1 or 2.
CATEGORIES = [0b001, 0b010, 0b100]
MASKS = [0b111, 0b001, 0b110, 0b000, 0xFFFFFFFF]
GROUPS = [0, 1, 2]


def test_a_truth_table_of_categories_masks_and_groups():
    # Every combination of two filters, each pair of overlapping balls alone in the world.
    filters = list(itertools.product(CATEGORIES, MASKS, GROUPS))
    w = rl.World(gravity=(0, 0, 0))
    expected = set()
    for k, (fa, fb) in enumerate(itertools.product(filters, filters)):
        x, z = 3.0 * (k % 45), 3.0 * (k // 45)
        kw = [dict(zip(("category", "collides_with", "group"), f)) for f in (fa, fb)]
        a = w.add_sphere(0.1, position=(x, 0, z), **kw[0])
        b = w.add_sphere(0.1, position=(x + 0.15, 0, z), **kw[1])
        assert (a.category, a.collides_with, a.group) == fa
        if collide(fa, fb):
            expected.add((a.id, b.id))
    w.step()
    assert 0 < len(expected) < 45 * 45
    assert touching_pairs(w) == expected
    # Only the pairs that collide were passed on to the narrow phase.
    assert w.candidate_pairs == len(expected)


def test_filtered_bodies_pass_through_each_other_and_make_no_event():
    w = rl.World(gravity=(0, 0, 0))
    a = w.add_sphere(0.1, mass=1.0, position=(0, 0, 0), velocity=(2, 0, 0), category=2)
    b = w.add_sphere(0.1, mass=1.0, position=(1, 0, 0), collides_with=~2 & 0xFFFFFFFF)
    w.run(1.0)
    # Straight through, at the speed it had.
    np.testing.assert_allclose(a.velocity, (2, 0, 0), atol=1e-15)
    np.testing.assert_allclose(b.velocity, 0, atol=1e-15)
    ev = w.contact_events()
    assert len(ev["time"]) == 0
    # Let them collide: the next crossing is a collision.
    b.collides_with = 0xFFFFFFFF
    a.velocity = (-2, 0, 0)
    w.run(1.0)
    # Equal masses, perfectly plastic: they go on together at half the speed.
    np.testing.assert_allclose([a.velocity[0], b.velocity[0]], [-1.0, -1.0], atol=1e-12)
    assert len(w.contact_events()["time"]) > 0


def test_a_group_never_collides_within_itself():
    # A chain of overlapping capsules in group 1 hangs through each other; a ball of another
    # group still lands on them.
    w = rl.World()
    w.add_plane()
    links = [
        w.add_capsule(
            0.05,
            0.1,
            position=(0.15 * i, 0.05, 0),
            orientation=(0, 0, 0.7071067811865476, 0.7071067811865476),
            group=1,
        )
        for i in range(5)
    ]
    ball = w.add_sphere(0.05, position=(0.3, 0.5, 0), group=2)
    w.run(1.0)
    pairs = touching_pairs(w)
    ids = {b.id for b in links}
    assert not any(a in ids and b in ids for a, b in pairs)
    assert any(ball.id in p for p in pairs)
    assert ball.position[1] > 0.1 + 0.04


def test_a_pair_set_apart_passes_through_and_can_be_brought_back():
    w = rl.World()
    w.add_plane()
    low = w.add_box((0.5, 0.1, 0.5), position=(0, 0.1, 0))
    high = w.add_box((0.2, 0.2, 0.2), position=(0, 1.0, 0))
    w.set_pair(low, high, collide=False)
    assert not w.pair_collides(low, high)
    w.run(1.5)
    # The upper box fell through the lower onto the floor.
    assert high.position[1] == pytest.approx(0.2, abs=1e-3)
    assert (min(low.id, high.id), max(low.id, high.id)) not in touching_pairs(w)
    # Saved, loaded, restored and pickled alike.
    for copy in (rl.World.from_json(w.to_json()), pickle.loads(pickle.dumps(w))):
        a, b = copy.bodies[1], copy.bodies[2]
        assert not copy.pair_collides(a, b)
    snap = w.snapshot()
    w.set_pair(low, high, collide=True)
    assert w.pair_collides(low, high)
    w.restore(snap)
    assert not w.pair_collides(low, high)
    # Brought back: they overlap, and the correction parts them.
    w.set_pair(low, high, collide=True)
    w.step()
    assert (min(low.id, high.id), max(low.id, high.id)) in touching_pairs(w)
    # Removing one forgets the pair.
    w.remove(high)
    assert "apart" not in w.to_json()


def test_filters_are_saved_loaded_and_pickled():
    w = rl.World()
    b = w.add_sphere(0.1, category=4, collides_with=5, group=9)
    plain = w.add_sphere(0.1, position=(1, 0, 0))
    text = w.to_json()
    assert '"filter"' in text and text.count('"filter"') == 1  # the default is not written
    for copy in (rl.World.from_json(text), pickle.loads(pickle.dumps(w))):
        c, p = copy.bodies[0], copy.bodies[1]
        assert (c.category, c.collides_with, c.group) == (4, 5, 9)
        assert (p.category, p.collides_with, p.group) == (1, 0xFFFFFFFF, 0)
    snap = w.snapshot()
    b.group = 0
    w.restore(snap)
    assert b.group == 9
    assert plain.category == 1


def test_a_scene_file_naming_a_missing_body_in_a_pair_set_apart_is_refused():
    w = rl.World()
    a, b = w.add_sphere(0.1), w.add_sphere(0.1, position=(1, 0, 0))
    w.set_pair(a, b, collide=False)
    doc = json.loads(w.to_json())
    doc["apart"] = [[a.id, 77]]
    with pytest.raises(ValueError, match="apart"):
        rl.World.from_json(json.dumps(doc))
    doc["apart"] = [[a.id, a.id]]
    with pytest.raises(ValueError, match="apart"):
        rl.World.from_json(json.dumps(doc))
    doc["apart"] = [[a.id, b.id]]
    doc["bodies"][0]["filter"] = {"category": 1, "collides_with": 2, "group": 0, "extra": 1}
    with pytest.raises(ValueError):
        rl.World.from_json(json.dumps(doc))
    doc["bodies"][0]["filter"] = {"category": -1, "collides_with": 2, "group": 0}
    with pytest.raises(ValueError):
        rl.World.from_json(json.dumps(doc))


def test_filtered_pairs_never_reach_the_narrow_phase():
    # 400 balls heaped into one another: in one group, none of their pairs is a candidate.
    w = rl.World(gravity=(0, 0, 0))
    rng = np.random.default_rng(1)
    for p in rng.uniform(-0.5, 0.5, (400, 3)):
        w.add_sphere(0.1, position=tuple(p), group=7)
    w.step()
    assert w.candidate_pairs == 0
    assert len(w.contacts()["body_a"]) == 0
    for b in w.bodies:
        b.group = 0
    w.step()
    assert w.candidate_pairs > 1000


@pytest.mark.parametrize("param", ["category", "collides_with", "group"])
@pytest.mark.parametrize(
    "value, exc",
    [(-1, ValueError), (2**32, ValueError), (1.5, TypeError), (True, TypeError), ("1", TypeError)],
)
def test_bad_filters_are_refused_naming_the_parameter(param, value, exc):
    w, _, ball, *_ = populated()
    rejects(w, exc, param, w.add_sphere, 0.1, **{param: value})
    rejects(w, exc, param, setattr, ball, param, value)


def test_a_bad_collide_flag_is_refused():
    w, _, ball, box, _ = populated()
    rejects(w, TypeError, "collide", w.set_pair, ball, box, collide=1)
    rejects(w, ValueError, "b", w.set_pair, ball, ball, collide=False)
    rejects(w, TypeError, "collide", w.set_pair, ball, box, friction=0.1, collide="no")


def test_2d_bodies_filter_alike():
    w = rl.World2D()
    w.add_ground()
    a = w.add_circle(0.1, position=(0, 0.1), category=2, collides_with=1)
    b = w.add_box((0.1, 0.1), position=(0, 0.5), category=2, collides_with=1)
    assert (b.category, b.collides_with, b.group) == (2, 1, 0)
    w.run(1.0)
    assert b.position[1] == pytest.approx(0.1, abs=1e-3)  # through the circle, onto the ground
    w.set_pair(a, b, collide=False)
    assert not w.pair_collides(a, b)
    copy = pickle.loads(pickle.dumps(w))
    assert not copy.pair_collides(copy.bodies[1], copy.bodies[2])
    assert copy.bodies[2].collides_with == 1


def test_a_hinge_chain_of_overlapping_capsules_hangs_still():
    # Each capsule (axis 0.3 m long with its caps) overlaps the next by 6 cm at the hinge
    # between them: linked bodies do not collide, so nothing pushes them apart.
    w = rl.World()
    top = (0.0, 2.0, 0.0)
    links, above = [], None
    for i in range(6):
        y = top[1] - 0.12 - 0.24 * i
        link = w.add_capsule(0.05, 0.1, mass=1.0, position=(0.0, y, 0.0))
        anchor = (0.0, y + 0.12, 0.0)
        w.add_hinge_joint(link, above, anchor=anchor, axis=(0, 0, 1))
        links.append(link)
        above = link
    e0 = w.energy()["total"]
    w.sleeping = False
    for _ in range(4):
        w.run(0.5)
        assert len(w.contacts()["body_a"]) == 0
        assert np.abs(w.velocities).max() < 1e-9
        assert w.energy()["total"] <= e0 + 1e-9 * abs(e0)


# ---------------------------------------------------------------------------------------------
# Contact forces


G = 9.81


@pytest.mark.parametrize("dt", [1 / 60, 1 / 240, 1 / 1000])
@pytest.mark.parametrize("k", [1, 3, 5])
def test_the_floor_under_a_resting_stack_feels_its_weight(dt, k):
    w = rl.World(dt=dt)
    floor = w.add_plane()
    boxes = [
        w.add_box((0.1, 0.1, 0.1), mass=1.0 + i, position=(0, 0.1 + 0.2 * i, 0)) for i in range(k)
    ]
    w.sleeping = False
    w.run(1.0)
    weight = sum(b.mass for b in boxes) * G
    np.testing.assert_allclose(floor.contact_force, (0, -weight, 0), rtol=1e-9, atol=1e-9 * weight)
    forces = w.contact_forces()
    np.testing.assert_array_equal(forces[0], floor.contact_force)
    # Each box is held up by the one below and pressed by those above: in all, its weight.
    for i, b in enumerate(boxes):
        np.testing.assert_allclose(forces[i + 1], (0, b.mass * G, 0), rtol=1e-9, atol=1e-9 * weight)
    # No torque: every stack is square on its support.
    assert np.abs(w.contact_torques()).max() < 1e-9 * weight


def test_a_taller_stack_feels_its_weight_once_the_iterations_converge():
    # Ten iterations hold 8 boxes at rest to the solver's tolerance (1e-5 m/s); run all of them
    # and the floor's force is the weight to round-off.
    w = rl.World(dt=1 / 60, solver_tolerance=0.0)
    floor = w.add_plane()
    boxes = [
        w.add_box((0.1, 0.1, 0.1), mass=1.0 + i, position=(0, 0.1 + 0.2 * i, 0)) for i in range(8)
    ]
    w.sleeping = False
    w.run(1.0)
    weight = sum(b.mass for b in boxes) * G
    assert abs(-floor.contact_force[1] / weight - 1) < 1e-9


@pytest.mark.parametrize("dt", [1 / 60, 1 / 240])
@pytest.mark.parametrize("degrees", [10, 30])
def test_a_block_held_on_a_ramp_feels_m_g_cos_and_m_g_sin(dt, degrees):
    a = np.radians(degrees)
    q = (0.0, 0.0, np.sin(a / 2), np.cos(a / 2))
    n = np.array([-np.sin(a), np.cos(a), 0.0])
    up = np.array([np.cos(a), np.sin(a), 0.0])
    w = rl.World(dt=dt)
    w.add_box((2, 0.1, 1), kind="static", orientation=q, position=tuple(-0.1 * n))
    m = 2.0
    block = w.add_box((0.1, 0.1, 0.1), mass=m, orientation=q, position=tuple(0.1 * n), friction=0.8)
    w.sleeping = False
    w.run(1.0)
    f = block.contact_force
    assert f @ n == pytest.approx(m * G * np.cos(a), rel=1e-9)
    assert f @ up == pytest.approx(m * G * np.sin(a), rel=1e-9)
    assert abs(f[2]) < 1e-9 * m * G
    # The block rests: the contact force is all that balances gravity.
    np.testing.assert_allclose(f, (0, m * G, 0), atol=1e-9 * m * G)


def test_contact_forces_in_2d_and_in_a_bounce():
    w = rl.World2D(dt=1 / 240)
    w.add_ground()
    disc = w.add_circle(0.1, mass=3.0, position=(0, 0.1))
    w.sleeping = False
    w.run(0.5)
    np.testing.assert_allclose(disc.contact_force, (0, 3.0 * G), rtol=1e-9)
    np.testing.assert_allclose(w.contact_forces()[0], (0, -3.0 * G), rtol=1e-9)
    assert w.contact_torques().shape == (2,) and isinstance(disc.contact_torque, float)
    # A ball landing: the step of the impact feels its momentum change over dt.
    w3 = rl.World(dt=1 / 240)
    w3.add_plane()
    ball = w3.add_sphere(0.1, mass=1.0, position=(0, 0.1 + 0.05, 0), velocity=(0, -2, 0))
    for _ in range(10):
        v0 = ball.velocity.copy()
        w3.step()
        if np.abs(ball.contact_force).max() > 0:
            break
    expected = (ball.velocity - v0) / w3.dt + np.array([0, G, 0])
    np.testing.assert_allclose(ball.contact_force, expected, rtol=1e-9)


# ---------------------------------------------------------------------------------------------
# Sensors and photogates


def sensor_events(w, clear=True):
    ev = w.contact_events(clear)
    return [
        (k, int(a), int(b), float(t))
        for k, a, b, t in zip(ev["kind"], ev["body_a"], ev["body_b"], ev["time"])
        if k.startswith("sensor")
    ]


@pytest.mark.parametrize("dt", [1 / 60, 1 / 240, 1 / 1000])
@pytest.mark.parametrize("planar", [False, True])
def test_two_photogates_measure_g_and_the_speed_at_a_gate(dt, planar):
    # A ball dropped from rest through two gates: the entry times give g, the passage through
    # the lower gate its speed there, sqrt(2 g h). At dt = 1/60 the ball crosses a gate within
    # about two steps, so only times within the step can do it.
    from rigidlab.experiments import photogate

    r, top, gates = 0.02, 1.0, (0.8, 0.3)
    w = rl.World2D(dt=dt) if planar else rl.World(dt=dt)
    ball = w.add_circle(r, position=(0, top)) if planar else w.add_sphere(r, position=(0, top, 0))
    pos = (lambda y: (0.0, y)) if planar else (lambda y: (0.0, y, 0.0))
    upper, lower = (photogate(w, pos(y), thickness=1e-3) for y in gates)
    w.run(0.7)
    (t1,), _ = upper.times(ball)
    (t2,), (t2_out,) = lower.times(ball)
    fall = [top - r - (y + 0.0005) for y in gates]  # to each gate's upper face
    g = 2 * (fall[1] - fall[0]) / (t2**2 - t1**2)
    assert abs(g / G - 1) < 1e-4
    (v,) = lower.speeds(2 * r, ball, acceleration=g)
    assert abs(v / np.sqrt(2 * G * (top - gates[1])) - 1) < 1e-4
    # Nothing pushed the ball: it fell freely all along.
    assert ball.velocity[1] == pytest.approx(-G * 0.7, rel=1e-12)
    assert t2 < t2_out


def test_a_sensor_senses_any_body_and_pushes_none():
    w = rl.World(gravity=(0, 0, 0))
    zone = w.add_box((0.5, 0.5, 0.5), kind="static", sensor=True)
    # Bodies of every shape crossing it along x at 1 m/s, 1.5 m out at the start.
    movers = [
        w.add_sphere(0.1, position=(-1.5, 0, -0.3), velocity=(1, 0, 0)),
        w.add_box((0.1, 0.1, 0.1), position=(-1.5, 0, 0), velocity=(1, 0, 0)),
        w.add_capsule(0.05, 0.1, position=(-1.5, 0, 0.3), velocity=(1, 0, 0)),
    ]
    w.run(1.05)
    assert {b.id for b in w.overlaps(zone)} == {b.id for b in movers}
    w.run(2.0)
    assert w.overlaps(zone) == []
    for b in movers:
        np.testing.assert_allclose(b.velocity, (1, 0, 0), atol=1e-15)
    ev = sensor_events(w)
    for b, reach in zip(movers, (0.1, 0.1, 0.05)):
        mine = [(k, t) for k, s, o, t in ev if o == b.id and s == zone.id]
        # Enters when its leading side meets the zone's face, leaves when its trailing side
        # passes the other.
        assert [k for k, _ in mine] == ["sensor_begin", "sensor_end"]
        assert mine[0][1] == pytest.approx(1.5 - 0.5 - reach, abs=1e-9)
        assert mine[1][1] == pytest.approx(1.5 + 0.5 + reach, abs=1e-9)
    assert len(w.contacts()["body_a"]) == 0


def test_a_fast_body_crossing_a_thin_sensor_within_one_step_is_seen():
    w = rl.World(gravity=(0, 0, 0), dt=1 / 60)
    gate = w.add_box((0.5, 0.5, 0.0005), kind="static", position=(0, 0, 0), sensor=True)
    ball = w.add_sphere(0.01, position=(0, 0, -0.5), velocity=(0, 0, 30))
    w.run(0.1)
    ev = sensor_events(w)
    assert [k for k, *_ in ev] == ["sensor_begin", "sensor_end"]
    assert ev[0][3] == pytest.approx((0.5 - 0.0105) / 30, abs=1e-12)
    assert ev[1][3] == pytest.approx((0.5 + 0.0105) / 30, abs=1e-12)
    assert w.overlaps(gate) == []
    assert ball.velocity[2] == 30


def test_moving_and_dynamic_sensors_and_a_body_placed_inside():
    w = rl.World()
    w.add_plane()
    # A dynamic sensor falls through the floor (it pushes nothing and nothing pushes it).
    probe = w.add_sphere(0.1, position=(0, 1, 0), sensor=True)
    # A kinematic sensor sweeping over resting boxes, clear of the floor.
    sweep = w.add_box(
        (0.1, 1, 1), kind="kinematic", position=(-2, 1.05, 0), velocity=(1, 0, 0), sensor=True
    )
    boxes = [w.add_box((0.1, 0.1, 0.1), position=(x, 0.1, 0)) for x in (-1.0, 0.0, 1.0)]
    w.run(2.0)
    assert probe.position[1] < -1
    assert {b.id for b in w.overlaps(sweep)} == {boxes[1].id}
    ev = sensor_events(w)
    begins = sorted(t for k, s, _, t in ev if k == "sensor_begin" and s == sweep.id)
    np.testing.assert_allclose(begins, [0.8, 1.8], atol=1e-9)
    # A body placed inside a sensor is inside from the next step's start.
    inside = w.add_sphere(0.05, position=(sweep.position[0], 1.0, 0), kind="static")
    t0 = w.time
    w.step()
    assert inside in w.overlaps(sweep)
    assert [(k, t) for k, _, o, t in sensor_events(w) if o == inside.id] == [("sensor_begin", t0)]


def test_sensors_are_saved_pickled_and_checked():
    w, floor, ball, box, _ = populated()
    s = w.add_box((1, 1, 1), kind="static", sensor=True)
    assert s.sensor and not ball.sensor
    for copy in (rl.World.from_json(w.to_json()), pickle.loads(pickle.dumps(w))):
        assert [b.sensor for b in copy.bodies] == [b.sensor for b in w.bodies]
    rejects(w, TypeError, "sensor", w.add_sphere, 0.1, sensor=1)
    rejects(w, TypeError, "sensor", setattr, ball, "sensor", "yes")
    rejects(w, ValueError, "sensor", w.overlaps, ball)
    ball.sensor = True
    assert ball.sensor


# ---------------------------------------------------------------------------------------------
# Queries


def test_a_ray_cast_all_meets_every_body_in_its_path_nearest_first():
    w = rl.World()
    floor = w.add_plane()
    balls = [w.add_sphere(0.1, position=(x, 0.5, 0)) for x in (3.0, 1.0, 2.0)]
    box = w.add_box(
        (0.2, 0.2, 0.2),
        position=(4.0, 0.5, 0),
        orientation=(0, 0, 0.3826834323650898, 0.9238795325119648),
    )
    hits = w.ray_cast_all((0, 0.5, 0), (1, 0, 0))
    assert [h.body for h in hits] == [balls[1], balls[2], balls[0], box]
    np.testing.assert_allclose([h.distance for h in hits[:3]], [0.9, 1.9, 2.9], atol=1e-12)
    # The box turned 45 degrees about z: the ray meets its corner edge at 4 - 0.2 sqrt(2).
    assert hits[3].distance == pytest.approx(4 - 0.2 * np.sqrt(2), abs=1e-12)
    for h in hits[:3]:
        np.testing.assert_allclose(h.normal, (-1, 0, 0), atol=1e-12)
        np.testing.assert_allclose(h.point, (h.distance, 0.5, 0), atol=1e-12)
    assert isinstance(hits[0], rl.RayHit) and "RayHit" in repr(hits[0])
    # Limited, and down through a ball to the floor; the first hit is ray_cast's.
    assert [h.body for h in w.ray_cast_all((0, 0.5, 0), (1, 0, 0), max_distance=2.0)] == balls[1:]
    down = w.ray_cast_all((1, 2, 0), (0, -1, 0))
    assert [h.body for h in down] == [balls[1], floor]
    assert down[0].distance == w.ray_cast((1, 2, 0), (0, -1, 0))["distance"]
    assert [h.body for h in w.ray_cast_all((1, 2, 0), (0, -1, 0), planes=False)] == [balls[1]]
    # A ray starting inside a body meets it at 0.
    assert w.ray_cast_all((1, 0.5, 0), (1, 0, 0))[0].distance == 0.0


def test_query_point_and_query_box():
    w = rl.World()
    floor = w.add_plane()
    ball = w.add_sphere(0.5, position=(0, 1, 0))
    cube = w.add_box(
        (0.5, 0.5, 0.5),
        position=(3, 1, 0),
        orientation=(0, 0.3826834323650898, 0, 0.9238795325119648),
    )
    capsule = w.add_capsule(0.2, 0.5, position=(-3, 1, 0))
    assert w.query_point((0, 1.4, 0)) == [ball]
    assert w.query_point((0, 1.6, 0)) == []
    assert w.query_point((0, -0.1, 0)) == [floor]
    # The cube turned 45 degrees about y: its corner reaches 0.5 sqrt(2) along x.
    assert w.query_point((3 + 0.7, 1, 0)) == [cube]
    assert w.query_point((3 + 0.72, 1, 0)) == []
    assert w.query_point((-3, 1.69, 0)) == [capsule] and w.query_point((-3, 1.71, 0)) == []
    assert set(b.id for b in w.query_box((-1, 0.5, -1), (1, 2, 1))) == {ball.id}
    assert set(b.id for b in w.query_box((-10, -1, -1), (10, 0.01, 1))) == {floor.id}
    assert w.query_box((5, 5, 5), (6, 6, 6)) == []
    w2 = rl.World()
    rejects(w2, ValueError, "lo", w2.query_box, (1, 0, 0), (0, 1, 1))
    rejects(w2, ValueError, "point", w2.query_point, (np.nan, 0, 0))
    rejects(w2, ValueError, "direction", w2.ray_cast_all, (0, 0, 0), (0, 0, 0))


def test_a_photogate_takes_any_normal_and_refuses_bad_sizes():
    from rigidlab.experiments import photogate

    w = rl.World(gravity=(0, 0, 0))
    # A gate across a ball moving along a slanted line, its normal given as an array.
    d = np.array([1.0, 2.0, 2.0]) / 3.0
    ball = w.add_sphere(0.05, position=tuple(-d), velocity=tuple(2 * d))
    gate = photogate(w, (0, 0, 0), normal=d, width=0.5, thickness=0.01)
    w.run(1.0)
    (t_in,), (t_out,) = gate.times(ball)
    assert t_in == pytest.approx((1 - 0.05 - 0.005) / 2, abs=1e-12)
    assert t_out == pytest.approx((1 + 0.05 + 0.005) / 2, abs=1e-12)
    np.testing.assert_allclose(gate.speeds(0.1, ball), [2.0], rtol=1e-12)
    with pytest.raises(ValueError, match="width"):
        photogate(w, (0, 0, 0), width=-1.0)
    with pytest.raises(ValueError, match="thickness"):
        photogate(w, (0, 0, 0), thickness=float("nan"))
    with pytest.raises(ValueError, match="normal"):
        photogate(w, (0, 0, 0), normal=(0, 0, 0))
    with pytest.raises(ValueError, match="normal"):
        photogate(w, (0, 0, 0), normal=(0, 1))


@pytest.mark.parametrize("seed", range(6))
def test_random_bodies_falling_through_a_sensor_enter_when_their_lowest_point_meets_it(seed):
    # Random shapes, sizes, heights, spins about the vertical and time steps: a body falling
    # freely from rest (turning about y leaves its lowest point where it is) enters the
    # sensor slab when its lowest point reaches the slab's top, in closed form.
    rng = np.random.default_rng(seed)
    dt = rng.choice([1 / 60, 1 / 240, 1 / 1000])
    w = rl.World(dt=dt)
    top = 0.3
    zone = w.add_box((2, 0.1, 2), kind="static", position=(0, top - 0.1, 0), sensor=True)
    cases = []
    for k in range(4):
        x = -1.5 + k
        kind = rng.choice(["sphere", "box", "capsule"])
        size = rng.uniform(0.02, 0.2)
        h = rng.uniform(0.5, 2.0)
        spin = (0, rng.uniform(-3, 3), 0)
        if kind == "sphere":
            b, low = w.add_sphere(size, position=(x, h, 0), angular_velocity=spin), size
        elif kind == "box":
            half = (size, rng.uniform(0.02, 0.2), size)
            b, low = w.add_box(half, position=(x, h, 0), angular_velocity=spin), half[1]
        else:
            length = rng.uniform(0.02, 0.2)
            b = w.add_capsule(size, length, position=(x, h, 0), angular_velocity=spin)
            low = size + length
        cases.append((b, np.sqrt(2 * (h - low - top) / G)))
    w.run(1.0)
    ev = sensor_events(w)
    for b, t in cases:
        begins = [tt for k, s, o, tt in ev if k == "sensor_begin" and o == b.id and s == zone.id]
        assert begins == [pytest.approx(t, abs=1e-9)]


def test_a_scene_file_remembers_what_touches_and_what_is_inside_a_sensor(tmp_path):
    w = rl.World(dt=1 / 240, sleeping=False)  # awake, the pairs are looked at every step
    w.add_plane()
    w.add_box((0.1, 0.1, 0.1), position=(0, 0.1, 0))
    zone = w.add_box((1, 1, 1), kind="static", sensor=True)
    w.run(0.5)
    kinds = w.contact_events()["kind"]
    assert "begin" in kinds and "sensor_begin" in kinds
    path = tmp_path / "resting.json"
    w.save(path)
    for again in (rl.World.load(path), w):
        again.run(0.5)
        assert again.contact_events()["kind"] == []  # nothing began again
        assert [b.id for b in again.overlaps(again.bodies[zone.index])] == [1]
    # Bad lists are named by their place in the file.
    data = json.loads(path.read_text())
    for field, pair, message in [
        ("touching", [1, 0], r"touching\[0\].*smaller id first"),
        ("sensing", [1, 2], r"sensing\[0\].*must be a sensor"),
        ("sensing", [2, 9], r"sensing\[0\].*names no body"),
        ("passing", [1, 1], r"passing\[0\].*different body"),
        ("passing", [0, 7], r"passing\[0\].*names no body"),
    ]:
        bad = dict(data, **{field: [pair]})
        (tmp_path / "bad.json").write_text(json.dumps(bad))
        with pytest.raises(ValueError, match=message):
            rl.World.load(tmp_path / "bad.json")
