"""Whole-world arrays agree with the bodies at every point: after steps, after edits, after
bodies fall asleep, and after bodies are added or removed."""

import numpy as np
import pytest
import rigidlab as rl


def per_body(w):
    return (
        np.array([b.position for b in w.bodies]),
        np.array([b.orientation for b in w.bodies]),
        np.array([b.velocity for b in w.bodies]),
        np.array([b.angular_velocity for b in w.bodies]),
    )


def arrays(w):
    return w.positions, w.orientations, w.velocities, w.angular_velocities


def check(w):
    for whole, single in zip(arrays(w), per_body(w)):
        assert whole.dtype == np.float64 and whole.flags["C_CONTIGUOUS"]
        assert np.array_equal(whole, single)


def test_arrays_match_the_bodies_through_steps_edits_and_sleep():
    w = rl.World()
    w.add_plane()
    box = w.add_box((0.1, 0.2, 0.3), mass=1.0, position=(0, 0.5, 0), angular_velocity=(1, 2, 3))
    ball = w.add_sphere(0.1, mass=1.0, position=(1, 1, 0), velocity=(0.5, 0, 0))
    check(w)
    w.step(10)
    check(w)
    box.position = (0, 0.8, 0)
    check(w)
    ball.velocity = (0, 1, 0)
    check(w)
    w.set_state(angular_velocities=np.zeros((3, 3)))
    check(w)
    w.step()
    check(w)
    w.run(3.0)  # both fall asleep along the way, their velocities zeroed
    assert box.sleeping and ball.sleeping
    check(w)
    extra = w.add_capsule(0.05, 0.1, mass=1.0, position=(2, 1, 0))
    check(w)
    w.step()
    check(w)
    w.remove(extra)
    check(w)
    w.step(5)
    check(w)


def test_arrays_are_copies():
    w = rl.World()
    w.add_sphere(0.1, mass=1.0, position=(0, 1, 0))
    w.step()
    p = w.positions
    kept = np.array(p)
    with pytest.raises(ValueError, match="read-only"):
        p[0, 1] = 99.0
    w.step()
    np.testing.assert_array_equal(p, kept)
    assert w.positions[0, 1] != kept[0, 1]
