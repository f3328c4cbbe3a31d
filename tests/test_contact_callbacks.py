"""A veto from Python: `w.on_contact(callback)` is asked once when a pair first comes into
contact; False lets the pair pass through each other while they overlap. Checked against free
flight (a body passing through loses nothing), against a world without a callback (a callback
that accepts everything changes nothing, bit for bit), and for what a failing callback leaves."""

import gc
import weakref

import numpy as np
import pytest
import rigidlab as rl

G = 9.81
PLATFORM_Y, PLATFORM_HALF = 1.0, 0.05


def one_way_platform(dt, v0, radius=0.1, y0=0.3):
    """A ball thrown up from below a thin static platform that lets bodies through from below
    (the game's one-way platform): the ball's callback refuses contacts while it rises."""
    w = rl.World(dt=dt, gravity=(0, -G, 0), sleeping=False)
    platform = w.add_box((1.0, PLATFORM_HALF, 1.0), kind="static", position=(0, PLATFORM_Y, 0))
    ball = w.add_sphere(radius, mass=1.0, position=(0, y0, 0), velocity=(0, v0, 0))
    asked = []

    def through_from_below(me, other, contact):
        asked.append((other.id, me.velocity[1], contact.speed))
        return me.velocity[1] <= 0.0

    w.on_contact(through_from_below, body=ball)
    return w, platform, ball, asked


@pytest.mark.parametrize("dt", [1 / 60, 1 / 240, 1 / 1000])
@pytest.mark.parametrize("v0", [5.0, 7.5])
def test_a_one_way_platform_lets_a_ball_up_through_and_holds_it_when_it_falls(dt, v0):
    y0, r = 0.3, 0.1
    w, platform, ball, asked = one_way_platform(dt, v0, r, y0)
    apex_time = v0 / G
    heights = []
    for _ in range(int(2.5 * apex_time / dt)):
        w.step()
        heights.append(ball.position[1])
    # Passing through took nothing: the apex is free flight's, v0^2 / 2g above the start
    # (velocity Verlet follows constant gravity exactly, up to the sampling by steps).
    n_apex = round(apex_time / dt)
    t = n_apex * dt
    free = y0 + v0 * t - 0.5 * G * t * t
    assert max(heights) == pytest.approx(y0 + v0**2 / (2 * G), abs=0.5 * G * dt * dt + 1e-12)
    assert heights[n_apex - 1] == pytest.approx(free, abs=1e-9)
    # Asked twice about the platform: once rising (refused), once falling onto it (accepted).
    assert [a[0] for a in asked] == [platform.id, platform.id]
    assert asked[0][1] > 0 and asked[1][1] <= 0
    # The approach speed is the ball's along the normal, positive when closing.
    assert asked[0][2] == pytest.approx(abs(asked[0][1]), rel=1e-12)
    # It rests on top.
    w.run(1.0)
    assert ball.position[1] == pytest.approx(PLATFORM_Y + PLATFORM_HALF + r, abs=2e-4)
    assert np.linalg.norm(ball.velocity) < 1e-6


def test_a_pair_is_asked_once_while_it_stays_in_contact_and_again_when_it_meets_again():
    w = rl.World(dt=1 / 240)
    floor = w.add_plane()
    box = w.add_box((0.1, 0.1, 0.1), position=(0, 0.3, 0))
    asked = []
    w.on_contact(lambda a, b, c: asked.append({a.id, b.id}))
    w.run(2.0)
    assert asked == [{floor.id, box.id}]
    assert len(w.contacts()["body_a"]) == 4  # it rests on the floor, on its four corners
    box.position = (0, 0.5, 0)  # lifted off: apart, then landing again
    w.run(1.0)
    assert asked == [{floor.id, box.id}] * 2


def test_a_refused_pair_passes_through_unchanged_while_it_overlaps_and_is_asked_on_meeting_again():
    # No gravity: a small ball slides through a big static ball and out the other side.
    w = rl.World(dt=1 / 240, gravity=(0, 0, 0))
    big = w.add_sphere(0.5, kind="static")
    ball = w.add_sphere(0.1, position=(-1, 0, 0), velocity=(1.5, 0, 0))
    asked = []

    def refuse(a, b, c):
        asked.append((a.id, b.id))
        return False

    w.on_contact(refuse)
    inside = False
    for _ in range(round(2.0 / w.dt)):
        w.step()
        inside |= float(np.linalg.norm(ball.position)) < 0.5
        assert len(w.contacts()["body_a"]) == 0
    assert inside
    assert asked == [(big.id, ball.id)]
    assert np.array_equal(ball.velocity, [1.5, 0, 0])
    assert ball.position[0] == pytest.approx(-1 + 1.5 * 2.0, abs=1e-9)
    # Sent back, it meets the big ball again: a new contact, asked again.
    ball.velocity = (-1.5, 0, 0)
    w.run(1.0)
    assert asked == [(big.id, ball.id)] * 2
    assert not w.contact_events()["kind"].count("begin")


def pile(dt=1 / 120):
    w = rl.World(dt=dt)
    w.add_plane()
    rng = np.random.default_rng(3)
    for i in range(20):
        x, z = rng.uniform(-0.3, 0.3, 2)
        if i % 2:
            w.add_box((0.1, 0.07, 0.05), position=(x, 0.2 + 0.25 * i, z))
        else:
            w.add_sphere(0.08, position=(x, 0.2 + 0.25 * i, z))
    return w


def test_a_callback_that_accepts_everything_changes_nothing_bit_for_bit():
    plain, asked = pile(), pile()
    calls = []
    asked.on_contact(lambda a, b, c: calls.append(1) or True)
    plain.run(3.0)
    asked.run(3.0)
    assert len(calls) > 20
    for name in ("positions", "orientations", "velocities", "angular_velocities"):
        assert np.array_equal(getattr(plain, name), getattr(asked, name)), name
    # And step_many steps an asking world just as step does.
    again = pile()
    again.on_contact(lambda a, b, c: True)
    rl.step_many([again, pile()], round(3.0 / again.dt))
    assert np.array_equal(again.positions, plain.positions)


def cradle(gap=1e-3, dt=1 / 60):
    """Five elastic 1 kg balls of radius 5 cm in a row, `gap` apart, without gravity; the
    first moves at 1 m/s. At 1/60 s each impact sets the next ball off within the step that struck it, so
    a step can take a ball beyond what its own search reached at the step's start."""
    w = rl.World(gravity=(0, 0, 0), dt=dt)
    xs = [k * (0.1 + gap) for k in range(5)]
    for k, x in enumerate(xs):
        w.add_sphere(
            0.05,
            mass=1.0,
            position=(x, 0, 0),
            velocity=(1.0 if k == 0 else 0, 0, 0),
            restitution=1.0,
            friction=0,
        )
    return w, xs


def test_a_contact_found_within_a_step_by_a_wider_search_is_asked_about_once():
    plain, asked = cradle()[0], cradle()[0]
    pairs = []
    asked.on_contact(lambda a, b, c: pairs.append(tuple(sorted((a.id, b.id)))) or True)
    plain.run(0.8)
    asked.run(0.8)
    assert sorted(pairs) == [(0, 1), (1, 2), (2, 3), (3, 4)]
    for name in ("positions", "velocities"):
        assert np.array_equal(getattr(plain, name), getattr(asked, name)), name
    np.testing.assert_allclose(plain.velocities[:, 0], [0, 0, 0, 0, 1.0], atol=1e-12)


def test_a_contact_refused_within_a_step_lets_the_ball_through_to_the_next():
    # The third ball passes through the fourth and strikes the fifth: it stops touching the
    # fifth where that stood, the fourth never moves, the fifth leaves at 1 m/s.
    w, xs = cradle()
    w.on_contact(lambda a, b, c: {a.id, b.id} != {2, 3})
    w.run(0.8)
    np.testing.assert_allclose(w.velocities[:, 0], [0, 0, 0, 0, 1.0], atol=1e-12)
    assert w.positions[3, 0] == xs[3]
    assert abs(w.positions[2, 0] - (xs[4] - 0.1)) < 1e-9


class Refused(Exception):
    pass


def test_an_exception_in_the_callback_surfaces_from_step_with_the_world_as_before_that_step():
    w, twin = pile(), pile()
    w.run(0.5)
    twin.run(0.5)
    state = [getattr(w, n) for n in ("positions", "velocities")]
    before, time = w.contacts(), w.time

    def fail(a, b, c):
        raise Refused(f"{a.id}-{b.id}")

    w.on_contact(fail)
    for _ in range(200):
        try:
            w.step()
            twin.step()
            state = [getattr(w, n) for n in ("positions", "velocities")]
            before, time = w.contacts(), w.time
        except Refused:
            break
    else:
        pytest.fail("no new contact in 200 steps")
    assert w.time == time
    for a, b in zip(state, [getattr(w, n) for n in ("positions", "velocities")]):
        assert np.array_equal(a, b)
    after = w.contacts()
    assert after.keys() == before.keys()
    for k in before:
        assert np.array_equal(after[k], before[k]), k
    # It raises again on retrying; without the callback the world steps on as its twin.
    with pytest.raises(Refused):
        w.step()
    w.on_contact(None)
    w.run(1.0)
    twin.run(1.0)
    assert np.array_equal(w.positions, twin.positions)


def test_a_callback_may_edit_the_world_and_is_still_asked_once():
    w = rl.World(dt=1 / 240)
    floor = w.add_plane()
    ball = w.add_sphere(0.1, position=(0, 0.5, 0))
    asked = []

    def kick(a, b, c):
        asked.append(w.time)
        ball.velocity = (0, 3.0, 0)  # sent back up by hand, and let through this once
        return False

    w.on_contact(kick, body=floor)
    w.step(round(0.5 / w.dt))
    assert len(asked) == 1
    assert ball.velocity[1] > 0


def test_callbacks_per_body_see_their_body_first_and_sensors_and_filtered_pairs_are_not_asked():
    w = rl.World(dt=1 / 240)
    floor = w.add_plane()
    a = w.add_sphere(0.1, position=(0, 0.3, 0))
    b = w.add_sphere(0.1, position=(1, 0.3, 0), group=1)
    box = w.add_box((0.1, 0.1, 0.1), position=(1, 0.6, 0), group=1)  # through b: same group
    w.add_box((0.5, 0.5, 0.5), position=(0, 0.2, 0), kind="static", sensor=True)
    firsts, every = [], []
    w.on_contact(lambda me, other, c: firsts.append((me.id, other.id, c.normal[1])), body=a)
    w.on_contact(lambda x, y, c: every.append({x.id, y.id}))
    w.run(1.0)
    assert firsts == [(a.id, floor.id, -1.0)]  # the normal points away from a
    assert sorted(map(sorted, every)) == [[floor.id, x.id] for x in (a, b, box)]
    # Removing the world's callback leaves the body's.
    w.on_contact(None)
    a.position = (0, 0.5, 0)
    w.run(1.0)
    assert len(firsts) == 2 and len(every) == 3


def test_bad_callbacks_and_bodies_raise_naming_the_parameter_and_leave_the_world_unchanged():
    w = rl.World()
    w.add_plane()
    ball = w.add_sphere(0.1, position=(0, 0.12, 0))
    other = rl.World().add_sphere(0.1)
    with pytest.raises(TypeError, match="callback: must be callable"):
        w.on_contact(3)
    with pytest.raises(ValueError, match="body"):
        w.on_contact(lambda a, b, c: True, body=other)
    with pytest.raises(TypeError, match="body"):
        w.on_contact(lambda a, b, c: True, body="ball")
    w.step()  # nothing registered: no callback asked, no error
    gone = w.add_sphere(0.1, position=(3, 3, 3))
    w.remove(gone)
    with pytest.raises(rl.RemovedBodyError):
        w.on_contact(lambda a, b, c: True, body=gone)
    ball.position = (0, 0.5, 0)
    w.on_contact(lambda a, b, c: "yes")
    with pytest.raises(TypeError, match="must return True, False or None"):
        w.run(1.0)
    t = w.time
    w.on_contact(lambda a, b, c: w.step())
    with pytest.raises(RuntimeError, match="inside its on_contact callback"):
        w.run(1.0)
    assert w.time == t
    w.on_contact(lambda a, b, c: np.bool_(True))  # numpy's booleans answer too
    w.run(1.0)
    assert ball.position[1] == pytest.approx(0.1, abs=2e-4)


def test_a_world_holding_its_own_callback_is_collected():
    class Token:
        pass

    def make():
        w, token = rl.World(), Token()
        w.add_plane()
        w.on_contact(lambda a, b, c: (token, w.time) is not None)  # a cycle: w, callback, w
        return weakref.ref(token)

    ref = make()
    gc.collect()
    assert ref() is None


def test_a_pair_passing_through_keeps_passing_in_a_snapshot_and_a_scene_file(tmp_path):
    w = rl.World(dt=1 / 240, gravity=(0, 0, 0))
    w.add_sphere(0.5, kind="static")
    ball = w.add_sphere(0.1, position=(-1, 0, 0), velocity=(1.5, 0, 0))
    w.on_contact(lambda a, b, c: False)
    w.run(0.5)  # inside the big ball now
    assert float(np.linalg.norm(ball.position)) < 0.5
    path = tmp_path / "passing.json"
    w.save(path)
    snap = w.snapshot()
    w.on_contact(None)
    for other in (rl.World.load(path), w):
        if other is w:
            w.restore(snap)
        other.run(1.5)
        moved = other.bodies[1]
        assert np.array_equal(moved.velocity, [1.5, 0, 0])
        assert moved.position[0] == pytest.approx(-1 + 1.5 * 2.0, abs=1e-9)


def test_2d_worlds_ask_with_2d_bodies_and_contacts():
    w = rl.World2D(dt=1 / 240)
    ledge = w.add_segment((-1, 1), (1, 1))
    ball = w.add_circle(0.1, position=(0, 0.3), velocity=(0, 6))
    asked = []

    def from_below(me, other, c):
        asked.append((type(me).__name__, c.point.shape, c.normal.shape))
        return me.velocity[1] <= 0

    w.on_contact(from_below, body=ball)
    w.run(2.0)
    assert asked == [("Body2D", (2,), (2,))] * 2
    assert ball.position[1] == pytest.approx(1.1, abs=2e-4)
    assert ledge.position.shape == (2,)
    with pytest.raises(TypeError, match="callback"):
        w.on_contact("no")


def test_a_pair_passing_through_stays_so_while_it_sleeps_and_after_it_wakes():
    w = rl.World(dt=1 / 120)
    w.add_plane()
    low = w.add_box((0.2, 0.1, 0.2), position=(0, 0.1, 0))
    high = w.add_box((0.2, 0.1, 0.2), position=(0, 0.5, 0))
    # A body moving far away keeps the world stepping while the two sleep.
    w.add_box((0.1, 0.1, 0.1), kind="kinematic", position=(5, 1, 0), velocity=(0, 0, 0.1))
    asked = []

    def not_these_two(a, b, c):
        asked.append({a.id, b.id})
        return {a.id, b.id} != {low.id, high.id}

    w.on_contact(not_these_two)
    w.run(3.0)  # high sinks through low to the floor; both fall asleep there, overlapping
    assert low.sleeping and high.sleeping
    assert high.position[1] == pytest.approx(0.1, abs=1e-6)
    high.apply_impulse((0, 1e-4, 0))  # woken: still let through, not pushed apart
    w.run(0.2)
    assert high.position[1] == pytest.approx(0.1, abs=1e-4)
    assert low.position[1] == pytest.approx(0.1, abs=1e-4)
    assert asked.count({low.id, high.id}) == 1  # never apart: asked once


def test_a_contact_is_built_from_two_vectors_of_one_size_and_keeps_them_read_only():
    c = rl.Contact((1, 2, 3), (0, 1, 0), 0.01, 2.0)
    assert c.point.tolist() == [1, 2, 3] and c.depth == 0.01 and c.speed == 2.0
    with pytest.raises(ValueError):
        c.point[0] = 5.0
    with pytest.raises(TypeError, match="^point, normal: must be vectors of 3 numbers"):
        rl.Contact((1, 2, 3), (0, 1), 0.0, 0.0)
    with pytest.raises(TypeError, match="^point, normal"):
        rl.Contact((1,), (0,), 0.0, 0.0)
