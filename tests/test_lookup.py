"""Finding bodies by name or id: w.body(key), w[key] and `key in w`, in 3D and 2D."""

import numpy as np
import pytest
import rigidlab as rl


def world():
    w = rl.World()
    w.add_plane(name="floor")
    ball = w.add_sphere(0.1, position=(0, 1, 0), name="ball")
    box = w.add_box((0.1, 0.1, 0.1), position=(1, 1, 0))
    return w, ball, box


def test_a_name_finds_its_body():
    w, ball, _ = world()
    assert w.body("ball") == ball and w["ball"] == ball
    assert w["floor"].shape == "plane"
    w["ball"].velocity = (1, 0, 0)
    np.testing.assert_array_equal(ball.velocity, [1, 0, 0])


def test_an_id_finds_its_body_and_ids_survive_removal():
    w, ball, box = world()
    assert w.body(box.id) == box and w[np.int64(box.id)] == box
    w.remove(ball)
    # Rows shift after a removal; ids and names do not.
    assert box.index == 1 and w[box.id] == box
    with pytest.raises(KeyError, match=f"no body with id {ball.id}"):
        w[ball.id]
    with pytest.raises(KeyError, match="no body named 'ball'"):
        w["ball"]


def test_unknown_ambiguous_and_wrong_keys_raise_clearly():
    w, _, _ = world()
    with pytest.raises(KeyError, match="no body named 'bal'.*names include 'floor', 'ball'"):
        w.body("bal")
    w.add_sphere(0.1, name="ball")
    with pytest.raises(ValueError, match="2 bodies are named 'ball'; look them up by id"):
        w["ball"]
    for bad in (1.0, True, None, ("ball",)):
        with pytest.raises(TypeError, match="key: a body's name"):
            w[bad]
    with pytest.raises(KeyError, match="no body named"):
        rl.World()["x"]


def test_membership():
    w, ball, _ = world()
    other = rl.World().add_sphere(0.1, name="ball")
    assert "ball" in w and ball in w and ball.id in w
    assert "nothing" not in w and other not in w and 10**6 not in w and 1.5 not in w
    w.remove(ball)
    assert ball not in w and "ball" not in w


def test_2d_worlds_find_their_bodies():
    w = rl.World2D()
    disc = w.add_circle(0.1, position=(0, 1), name="disc")
    found = w["disc"]
    assert isinstance(found, rl.Body2D) and found == disc and w.body(disc.id) == disc
    np.testing.assert_array_equal(found.position, [0, 1])
    assert "disc" in w and disc in w
    with pytest.raises(KeyError):
        w["nothing"]
