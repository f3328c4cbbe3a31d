"""A world's narrow phase, contact solver and position correction may run on several threads;
its results do not depend on how many. The solver and the correction sweep a world's contacts
in colours (no two of a colour on one moving body) once it has 1 024 contacts or more, on one
thread or many, and split the sweeps from 256 contacts per thread: the scenes here have more."""

import itertools

import numpy as np
import pytest
import rigidlab as rl


def packed_heap(threads):
    # 800 spheres, boxes and hulls packed a hair apart in a bin: a few thousand candidate pairs
    # from the first step, enough for the narrow phase to split them over threads, and over 500
    # boxes and hulls, enough for the default (None) to split them too.
    w = rl.World()
    w.threads = threads
    w.add_plane()
    for sx, sz in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        half = (0.05, 0.5, 0.6) if sx else (0.6, 0.5, 0.05)
        w.add_box(half, position=(sx * 0.55, 0.5, sz * 0.55), kind="static")
    t = (1 + 5**0.5) / 2
    ico = 0.03 * np.array(
        [
            p
            for a, b in itertools.product((1, -1), (t, -t))
            for p in ((0, a, b), (a, b, 0), (b, 0, a))
        ]
    )
    for k, (i, j, l) in enumerate(itertools.product(range(10), range(8), range(10))):
        position = (-0.45 + 0.1001 * i, 0.0501 + 0.1001 * j, -0.45 + 0.1001 * l)
        if k % 3 == 0:
            w.add_sphere(0.05, position=position, density=1000.0)
        elif k % 3 == 1:
            w.add_box(
                (0.05, 0.04, 0.045),
                position=position,
                density=1000.0,
                orientation=(0, np.sin(0.1 * k), 0, np.cos(0.1 * k)),
            )
        else:
            w.add_convex(ico, position=position, density=1000.0)
    return w


def test_a_heap_steps_the_same_bit_for_bit_on_one_two_or_all_threads():
    results = []
    for threads in (1, 2, None):
        w = packed_heap(threads)
        w.step(60)
        c = w.contacts()
        assert len(c["depth"]) > 1000
        results.append(
            (w.positions, w.orientations, w.velocities, c["normal_impulse"], c["tangent_impulse"])
        )
    for other in results[1:]:
        for a, b in zip(results[0], other):
            assert np.array_equal(a, b)


def test_contact_callbacks_and_events_are_the_same_on_one_two_or_all_threads():
    # The pairs that begin to touch and the ones let through each other are found by the
    # threads' runs of pairs and joined in pair order: the callback is asked the same pairs in
    # the same order, and refused pairs pass through each other alike.
    results = []
    for threads in (1, 2, 3, None):
        w = packed_heap(threads)
        asked = []

        def every_fifth_passes(a, b, contact, asked=asked):
            asked.append((a.id, b.id))
            return (a.id + b.id) % 5 != 0

        w.on_contact(every_fifth_passes)
        w.step(60)
        events = w.contact_events()
        assert len(asked) > 1000
        results.append((asked, list(events["kind"]), events["body_a"], events["body_b"]))
        results[-1] += (events["impulse"], w.positions, w.velocities)
    for other in results[1:]:
        assert other[:2] == results[0][:2]
        for a, b in zip(results[0][2:], other[2:]):
            # An event that is not an impact has no impulse (NaN).
            assert np.array_equal(a, b, equal_nan=True)


def test_a_heap_partly_asleep_steps_the_same_bit_for_bit_on_one_two_or_all_threads():
    # A layer of 625 boxes falls asleep; some 300 more dropped on half of it wake part of it.
    # The sleeping contacts are kept ahead of those the threads find, which are joined after
    # them: the split and the single-thread steps must agree on every index.
    rng = np.random.default_rng(3)
    drops = [(x, z, h) for x, z, h in rng.uniform((-1.2, -1.2, 0.5), (1.2, 1.2, 3.2), (600, 3))]
    results = []
    for threads in (1, 2, None):
        w = rl.World(sleeping=True)
        w.threads = threads
        w.add_plane()
        for i, j in itertools.product(range(25), range(25)):
            w.add_box((0.045, 0.045, 0.045), position=(-1.2 + 0.1 * i, 0.045, -1.2 + 0.1 * j))
        w.run(1.0)
        assert all(b.sleeping for b in w.bodies if b.kind == "dynamic")
        for x, z, h in drops:
            if x < 0:
                w.add_box((0.04, 0.03, 0.035), position=(x, h, z))
        w.run(1.5)
        asleep = sum(b.sleeping for b in w.bodies)
        assert 100 < asleep < 625
        results.append((asleep, w.positions, w.velocities, w.contacts()["normal_impulse"]))
    for other in results[1:]:
        assert other[0] == results[0][0]
        for a, b in zip(results[0][1:], other[1:]):
            assert np.array_equal(a, b)


def test_a_2d_heap_landing_steps_the_same_bit_for_bit_on_one_two_or_three_threads():
    # 1 600 discs and boxes dropped into a bin, landing: impacts, the resting solve's sweeps
    # and position correction all at work, over some 2 000 contacts.
    drops = np.random.default_rng(7).uniform((-0.95, 0.05), (0.95, 6.0), (1600, 2))
    results = []
    for threads in (1, 2, 3, None):
        w = rl.World2D()
        w.threads = threads
        w.add_ground()
        for x in (-1.0, 1.0):
            w.add_segment((x, 0.0), (x, 8.0))
        for k, (x, y) in enumerate(drops):
            if k % 2:
                w.add_circle(0.03, position=(x, y), density=1000.0)
            else:
                w.add_box((0.03, 0.02), position=(x, y), angle=k, density=1000.0)
        w.step(240)
        assert len(w.contacts()["depth"]) > 1500
        results.append((w.positions, w.angles, w.velocities, w.angular_velocities))
    for other in results[1:]:
        for a, b in zip(results[0], other):
            assert np.array_equal(a, b)


def test_balls_landing_on_balls_at_rest_step_the_same_bit_for_bit_on_one_two_or_three_threads():
    # 900 balls dropped into a bin onto a layer at rest: pairs of balls about to meet, whose
    # free motion heeds what holds each up (the floor, a wall) as far as the contacts before
    # theirs found it, made while the other contacts are made on the threads.
    drops = np.random.default_rng(11).uniform((-0.45, 0.3, -0.45), (0.45, 4.0, 0.45), (500, 3))
    results = []
    for threads in (1, 2, 3):
        w = rl.World(sleeping=False)
        w.threads = threads
        w.add_plane()
        for sx, sz in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            half = (0.05, 2.0, 0.6) if sx else (0.6, 2.0, 0.05)
            w.add_box(half, position=(sx * 0.55, 2.0, sz * 0.55), kind="static")
        for i, j in itertools.product(range(20), range(20)):
            w.add_sphere(0.025, position=(-0.475 + 0.05 * i, 0.025, -0.475 + 0.05 * j))
        for x, y, z in drops:
            w.add_sphere(0.025, position=(x, y, z))
        w.step(240)
        c = w.contacts()
        assert len(c["depth"]) > 1500
        results.append((w.positions, w.velocities, c["normal_impulse"]))
    for other in results[1:]:
        for a, b in zip(results[0], other):
            assert np.array_equal(a, b)


def test_a_pyramid_at_rest_steps_the_same_bit_for_bit_on_one_two_or_three_threads():
    # 820 cubes, sleeping off: some 1 600 contacts of four points each, every step.
    results = []
    for threads in (1, 2, 3):
        w = rl.World(sleeping=False)
        w.threads = threads
        w.add_plane()
        for row in range(40):
            for k in range(40 - row):
                w.add_box((0.5, 0.5, 0.5), position=(k - (39 - row) / 2, 0.5 + row, 0.0))
        w.step(30)
        c = w.contacts()
        results.append((w.positions, w.orientations, w.velocities, c["normal_impulse"]))
    for other in results[1:]:
        for a, b in zip(results[0], other):
            assert np.array_equal(a, b)


def test_threads_is_none_or_a_count_of_at_least_one():
    w = rl.World()
    assert w.threads is None
    w.threads = 1
    assert w.threads == 1
    w.threads = None
    assert w.threads is None
    w.threads = 3
    assert w.threads == 3
    for bad, error in [
        (0, ValueError),
        (-2, ValueError),
        (1.5, TypeError),
        (True, TypeError),
        ("2", TypeError),
    ]:
        with pytest.raises(error, match="threads"):
            w.threads = bad
        assert w.threads == 3
    w.threads = 1
    assert w.threads == 1
