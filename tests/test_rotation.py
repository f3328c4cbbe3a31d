"""rigidlab.Rotation against scipy's rotations (every Euler sequence, matrices, rotation
vectors), and every orientation= taking rotations, matrices and scipy's Rotation, with the
scalar-first identity never taken silently."""

import itertools
import math
import warnings

import numpy as np
import pytest
import rigidlab as rl
from scipy.spatial.transform import Rotation as ScipyRotation

SEQUENCES = [
    "".join(p) for p in itertools.product("xyz", repeat=3) if p[0] != p[1] and p[1] != p[2]
]
SEQUENCES += [s.upper() for s in SEQUENCES]


@pytest.mark.parametrize("seq", SEQUENCES)
def test_euler_angles_agree_with_scipy_both_ways(seq):
    rng = np.random.default_rng(sum(map(ord, seq)))
    for _ in range(100):
        angles = rng.uniform(-math.pi, math.pi, 3)
        ours = rl.Rotation.from_euler(seq, angles).as_matrix()
        np.testing.assert_allclose(
            ours, ScipyRotation.from_euler(seq, angles).as_matrix(), rtol=0, atol=1e-14
        )
        q = rng.normal(size=4)
        np.testing.assert_allclose(
            rl.Rotation(q).as_euler(seq), ScipyRotation.from_quat(q).as_euler(seq), atol=1e-9
        )
    # Gimbal lock: the middle angle at its limit; the angles still give back the rotation.
    middle = 0.0 if seq[0].lower() == seq[2].lower() else math.pi / 2
    r = rl.Rotation.from_euler(seq, [0.3, middle, -0.7])
    assert rl.Rotation.from_euler(seq, r.as_euler(seq)) == r


def test_matrices_quaternions_and_rotation_vectors_agree_with_scipy():
    rng = np.random.default_rng(7)
    for _ in range(500):
        q = rng.normal(size=4)
        theirs = ScipyRotation.from_quat(q)
        ours = rl.Rotation(q)
        np.testing.assert_allclose(ours.as_matrix(), theirs.as_matrix(), atol=1e-14)
        assert rl.Rotation.from_matrix(theirs.as_matrix()) == ours
        np.testing.assert_allclose(ours.as_rotvec(), theirs.as_rotvec(), atol=1e-12)
        np.testing.assert_allclose(
            ours.as_quat(scalar_first=True), np.roll(ours.as_quat(), 1), atol=0
        )
        v = rng.normal(size=(5, 3))
        np.testing.assert_allclose(ours.apply(v), theirs.apply(v), atol=1e-13)
        other = rl.Rotation(rng.normal(size=4))
        np.testing.assert_allclose(
            (ours * other).as_matrix(), ours.as_matrix() @ other.as_matrix(), atol=1e-14
        )
        assert ours * ours.inv() == rl.Rotation.identity()


def test_named_constructors_mean_what_they_say():
    quarter = rl.Rotation.from_axis_angle((0, 0, 2), 90, degrees=True)
    np.testing.assert_allclose(quarter.apply((1, 0, 0)), (0, 1, 0), atol=1e-15)
    assert quarter == rl.Rotation.from_rotvec((0, 0, math.pi / 2))
    assert quarter == rl.Rotation.from_quat((math.cos(math.pi / 4), 0, 0, math.sin(math.pi / 4)),
                                            scalar_first=True)  # fmt: skip
    assert quarter.magnitude(degrees=True) == pytest.approx(90.0, abs=1e-12)
    for a, b in [((1, 1, 1), (0, 1, 0)), ((1, 0, 0), (-1, 0, 0)), ((0, 2, 0), (0, 1, 0))]:
        turned = rl.Rotation.align(a, b).apply(np.asarray(a, float) / np.linalg.norm(a))
        np.testing.assert_allclose(turned, np.asarray(b, float) / np.linalg.norm(b), atol=1e-15)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: rl.Rotation.from_euler("xxy", [1, 2, 3]), "seq: expected"),
        (lambda: rl.Rotation.from_euler("xYz", [1, 2, 3]), "seq: expected"),
        (lambda: rl.Rotation.from_euler("xyz", [1, 2]), "angles: expected 3"),
        (lambda: rl.Rotation.from_axis_angle((0, 0, 0), 1.0), "axis: a direction cannot be zero"),
        (lambda: rl.Rotation.from_axis_angle((0, 0, 1), math.nan), "angle: must be finite"),
        (lambda: rl.Rotation((0, 0, 0, 0)), "length zero"),
        (lambda: rl.Rotation.from_matrix(np.diag([1.0, 1.0, -1.0])), "matrix: not a rotation"),
        (lambda: rl.Rotation.from_matrix(np.eye(2)), "matrix: expected a 3x3"),
        (lambda: rl.Rotation.identity().as_euler("xy"), "seq: expected three axes"),
    ],
)
def test_bad_rotations_are_refused_clearly(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_every_orientation_takes_rotations_matrices_and_scipy():
    w = rl.World(gravity=(0, 0, 0))
    tilt = rl.Rotation.from_euler("XYZ", [10, 20, 30], degrees=True)
    expected = tilt.as_quat()
    made = [
        w.add_box((0.3, 0.1, 0.1), orientation=tilt),
        w.add_box((0.3, 0.1, 0.1), orientation=tilt.as_matrix()),
        w.add_box((0.3, 0.1, 0.1), orientation=ScipyRotation.from_quat(expected)),
        w.add_capsule(0.1, 0.2, orientation=tilt),
        w.add_convex(np.eye(3).tolist() + [[0, 0, 0]], orientation=tilt),
    ]
    for body in made:
        got = rl.Rotation(body.orientation)
        assert got == tilt, (body, got)
    b = made[0]
    b.orientation = rl.Rotation.from_axis_angle((0, 1, 0), 0.5)
    assert rl.Rotation(b.orientation) == rl.Rotation.from_axis_angle((0, 1, 0), 0.5)
    stack = ScipyRotation.from_euler("z", np.linspace(0, 1, len(w))[:, None])
    w.set_state(orientations=stack)
    np.testing.assert_allclose(np.abs(w.orientations), np.abs(stack.as_quat()), atol=1e-15)
    kept = np.array(b.orientation)
    for bad in (np.eye(3) * 2, np.diag([1.0, -1.0, 1.0]), np.full((3, 3), np.nan)):
        with pytest.raises(ValueError, match="orientation: a 3x3 matrix must be a rotation"):
            b.orientation = bad
    np.testing.assert_array_equal(b.orientation, kept)


def test_the_scalar_first_identity_is_never_taken_silently():
    w = rl.World()
    with pytest.warns(UserWarning, match=r"half turn about x .* identity is \(0, 0, 0, 1\)"):
        b = w.add_box((0.1, 0.2, 0.3), orientation=(1, 0, 0, 0))
    # Still the rotation it says, a half turn about x, as documented.
    np.testing.assert_array_equal(b.orientation, [1, 0, 0, 0])
    with pytest.warns(UserWarning):
        b.orientation = (-1.0, 0.0, 0.0, 0.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        b.orientation = (0, 0, 0, 1)
        b.orientation = rl.Rotation.from_axis_angle((1, 0, 0), math.pi)
        b.orientation = (0.6, 0, 0, 0.8)
    assert rl.Rotation(b.orientation) == rl.Rotation((0.6, 0, 0, 0.8))
