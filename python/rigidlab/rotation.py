"""Rotations: one object for every way of writing an orientation.

rigidlab keeps orientations as unit quaternions in the order **(x, y, z, w), scalar last** (as
glam, scipy and pybullet order them; MuJoCo, Eigen's constructor and transforms3d put the scalar
first). A :class:`Rotation` says which it is by how it was made, so an orientation never depends
on remembering the order::

    import rigidlab as rl
    tilt = rl.Rotation.from_axis_angle((0, 0, 1), 30, degrees=True)
    w.add_box((0.5, 0.1, 0.2), orientation=tilt)     # every orientation= takes a Rotation
    rl.Rotation.from_euler("xyz", [10, 20, 30], degrees=True)
    rl.Rotation.from_quat((1, 0, 0, 0), scalar_first=True)   # a (w, x, y, z) quaternion
    b.orientation = rl.Rotation.from_matrix(R)

Every ``orientation=`` also takes a scipy ``Rotation`` (anything with ``as_quat()`` in scalar-last
order) and a 3x3 rotation matrix. The Euler conventions are scipy's: lower-case axes ("xyz") are
extrinsic (about the fixed world axes), upper-case ("XYZ") intrinsic (about the body's own).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

_AXES = {"x": 0, "y": 1, "z": 2}


def _unit(v: Any, param: str) -> np.ndarray:
    a = np.asarray(v, dtype=float)
    if a.shape != (3,) or not np.isfinite(a).all():
        raise ValueError(f"{param}: expected 3 finite numbers, got {v!r}")
    n = float(np.linalg.norm(a))
    if n == 0.0:
        raise ValueError(f"{param}: a direction cannot be zero")
    return a / n


def _angle(value: Any, param: str, degrees: bool) -> float:
    try:
        angle = float(value)
    except (TypeError, ValueError):
        raise TypeError(f"{param}: expected a number, got {value!r}") from None
    if not math.isfinite(angle):
        raise ValueError(f"{param}: must be finite (got {angle})")
    return math.radians(angle) if degrees else angle


def _product(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The quaternion product a b (b applied first), both (x, y, z, w)."""
    (ax, ay, az, aw), (bx, by, bz, bw) = a, b
    return np.array(
        [
            aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw,
            aw * bw - ax * bx - ay * by - az * bz,
        ]
    )


class Rotation:
    """A rotation in 3D, made from any of its usual descriptions and read back as any other.

    Compose with ``*`` (``a * b`` applies b, then a), invert with :meth:`inv`, rotate vectors
    with :meth:`apply`. Pass it wherever rigidlab takes an ``orientation``.
    """

    __slots__ = ("_q",)

    def __init__(self, quat: Any = (0.0, 0.0, 0.0, 1.0)) -> None:
        """From a quaternion (x, y, z, w), scalar last; see from_quat for scalar first."""
        q = np.asarray(quat, dtype=float)
        if q.shape != (4,) or not np.isfinite(q).all():
            raise ValueError(f"quat: expected 4 finite numbers (x, y, z, w), got {quat!r}")
        n = float(np.linalg.norm(q))
        if n < 1e-12:
            raise ValueError("quat: a quaternion of length zero is no rotation")
        self._q = q / n

    # Making one.

    @classmethod
    def identity(cls) -> Rotation:
        """No rotation."""
        return cls()

    @classmethod
    def from_quat(cls, quat: Any, *, scalar_first: bool = False) -> Rotation:
        """From a quaternion: (x, y, z, w) by default, (w, x, y, z) with scalar_first=True.
        Normalised; any non-zero length is accepted."""
        q = np.asarray(quat, dtype=float)
        if scalar_first and q.shape == (4,):
            q = np.array([q[1], q[2], q[3], q[0]])
        return cls(q)

    @classmethod
    def from_axis_angle(
        cls, axis: Sequence[float] | npt.ArrayLike, angle: float, *, degrees: bool = False
    ) -> Rotation:
        """A turn by `angle` (rad, or degrees) about `axis` (any length), right-handed."""
        a = _unit(axis, "axis")
        t = _angle(angle, "angle", degrees)
        return cls(np.concatenate([a * math.sin(t / 2.0), [math.cos(t / 2.0)]]))

    @classmethod
    def from_rotvec(
        cls, rotvec: Sequence[float] | npt.ArrayLike, *, degrees: bool = False
    ) -> Rotation:
        """From a rotation vector: its direction the axis, its length the angle."""
        v = np.asarray(rotvec, dtype=float)
        if v.shape != (3,) or not np.isfinite(v).all():
            raise ValueError(f"rotvec: expected 3 finite numbers, got {rotvec!r}")
        t = float(np.linalg.norm(v))
        if t == 0.0:
            return cls()
        return cls.from_axis_angle(v, t, degrees=degrees)

    @classmethod
    def from_euler(
        cls, seq: str, angles: float | Sequence[float] | npt.ArrayLike, *, degrees: bool = False
    ) -> Rotation:
        """From Euler angles, scipy's convention: `seq` of one to three axes, lower case
        extrinsic ("xyz": about the world's x, then y, then z), upper case intrinsic ("ZYX":
        about the body's z, then its new y, then its new x); proper Euler sequences ("zxz")
        too. One angle per axis."""
        if (
            not isinstance(seq, str)
            or not 1 <= len(seq) <= 3
            or not (seq.islower() or seq.isupper())
            or any(c not in _AXES for c in seq.lower())
            or any(a == b for a, b in zip(seq.lower(), seq.lower()[1:]))
        ):
            raise ValueError(
                f"seq: expected 1 to 3 axes from 'xyz', all lower case (extrinsic) or all upper "
                f"case (intrinsic), no axis twice in a row, got {seq!r}"
            )
        values = np.atleast_1d(np.asarray(angles, dtype=float))
        if values.shape != (len(seq),):
            raise ValueError(f"angles: expected {len(seq)} angles for {seq!r}, got {angles!r}")
        q = np.array([0.0, 0.0, 0.0, 1.0])
        for axis, t in zip(seq.lower(), values):
            e = np.zeros(3)
            e[_AXES[axis]] = 1.0
            step = cls.from_axis_angle(e, float(t), degrees=degrees)._q
            # Extrinsic turns are about fixed axes: each applies after the last (on the left);
            # intrinsic ones are about the turned body's axes (on the right).
            q = _product(step, q) if seq.islower() else _product(q, step)
        return cls(q)

    @classmethod
    def from_matrix(cls, matrix: npt.ArrayLike) -> Rotation:
        """From a 3x3 rotation matrix (orthonormal, determinant +1, within 1e-6)."""
        m = np.asarray(matrix, dtype=float)
        if m.shape != (3, 3) or not np.isfinite(m).all():
            raise ValueError(f"matrix: expected a 3x3 rotation matrix, got shape {m.shape}")
        if np.abs(m.T @ m - np.eye(3)).max() > 1e-6 or np.linalg.det(m) < 0:
            raise ValueError(
                "matrix: not a rotation (its columns must be orthonormal and its determinant +1)"
            )
        t = np.trace(m)
        # Shepperd's method: from the largest of w, x, y, z, so no division is by a small number.
        if t > max(m[0, 0], m[1, 1], m[2, 2]):
            s = 2.0 * math.sqrt(1.0 + t)
            q = [(m[2, 1] - m[1, 2]) / s, (m[0, 2] - m[2, 0]) / s, (m[1, 0] - m[0, 1]) / s, s / 4]
        else:
            i = int(np.argmax(np.diag(m)))
            j, k = (i + 1) % 3, (i + 2) % 3
            s = 2.0 * math.sqrt(1.0 + m[i, i] - m[j, j] - m[k, k])
            q = [0.0, 0.0, 0.0, (m[k, j] - m[j, k]) / s]
            q[i] = s / 4
            q[j] = (m[j, i] + m[i, j]) / s
            q[k] = (m[k, i] + m[i, k]) / s
        return cls(q)

    @classmethod
    def align(cls, a: npt.ArrayLike, b: npt.ArrayLike) -> Rotation:
        """The smallest rotation that turns direction `a` onto direction `b`."""
        u, v = _unit(a, "a"), _unit(b, "b")
        c = float(np.dot(u, v))
        if c < -1.0 + 1e-12:
            # Opposite directions: a half turn about any axis perpendicular to them.
            other = np.eye(3)[int(np.argmin(np.abs(u)))]
            return cls.from_axis_angle(np.cross(u, other), math.pi)
        return cls(np.concatenate([np.cross(u, v), [1.0 + c]]))

    # Reading it back.

    def as_quat(self, *, scalar_first: bool = False) -> np.ndarray:
        """The unit quaternion, (x, y, z, w) by default, (w, x, y, z) with scalar_first=True."""
        return np.roll(self._q, 1) if scalar_first else self._q.copy()

    def as_matrix(self) -> np.ndarray:
        """The 3x3 rotation matrix (columns: the body's axes in the world frame)."""
        x, y, z, w = self._q
        return np.array(
            [
                [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
            ]
        )

    def as_axis_angle(self, *, degrees: bool = False) -> tuple[np.ndarray, float]:
        """(unit axis, angle in [0, pi]); the identity gives the axis (1, 0, 0) and angle 0."""
        q = self._q if self._q[3] >= 0 else -self._q
        s = float(np.linalg.norm(q[:3]))
        angle = 2.0 * math.atan2(s, float(q[3]))
        axis = q[:3] / s if s > 0 else np.array([1.0, 0.0, 0.0])
        return axis, math.degrees(angle) if degrees else angle

    def as_rotvec(self, *, degrees: bool = False) -> np.ndarray:
        """The rotation vector: axis times angle."""
        axis, angle = self.as_axis_angle(degrees=degrees)
        return axis * angle

    def as_euler(self, seq: str, *, degrees: bool = False) -> np.ndarray:
        """Three Euler angles for `seq` (three axes, scipy's convention as in from_euler): the
        middle one in [0, pi] for proper sequences ("zxz"), [-pi/2, pi/2] otherwise. At gimbal
        lock the first angle is 0."""
        if (
            not isinstance(seq, str)
            or len(seq) != 3
            or not (seq.islower() or seq.isupper())
            or any(c not in _AXES for c in seq.lower())
            or seq[0].lower() == seq[1].lower()
            or seq[1].lower() == seq[2].lower()
        ):
            raise ValueError(f"seq: expected three axes as for from_euler, got {seq!r}")
        extrinsic = seq.islower()
        order = seq.lower() if extrinsic else seq.lower()[::-1]
        i, j, k = (_AXES[c] for c in order)
        proper = i == k
        if proper:
            k = 3 - i - j
        # Bernardes and Viollet (2022), "Quaternion to Euler angles conversion: a direct,
        # general and computationally efficient method", PLoS ONE 17(11): e0276302.
        sign = (i - j) * (j - k) * (k - i) // 2
        x = self._q[:3]
        w = self._q[3]
        if proper:
            a, b, c, d = w, x[i], x[j], x[k] * sign
        else:
            a, b, c, d = w - x[j], x[i] + x[k] * sign, x[j] + w, x[k] * sign - x[i]
        second = 2.0 * math.atan2(math.hypot(c, d), math.hypot(a, b))
        plus, minus = math.atan2(b, a), math.atan2(d, c)
        if abs(second) < 1e-9:
            first, third = 0.0, 2.0 * plus
        elif abs(second - math.pi) < 1e-9:
            first, third = 0.0, 2.0 * minus
        else:
            first, third = plus - minus, plus + minus
        if not proper:
            third *= sign
            second -= math.pi / 2
        if not extrinsic:
            first, third = third, first
        angles = (np.array([first, second, third]) + math.pi) % (2 * math.pi) - math.pi
        if proper:
            angles[1] = second
        return np.degrees(angles) if degrees else angles

    # Using it.

    def apply(self, vectors: npt.ArrayLike) -> np.ndarray:
        """The vector (3,) or vectors (n, 3), rotated."""
        v = np.asarray(vectors, dtype=float)
        if v.shape[-1:] != (3,) or v.ndim > 2:
            raise ValueError(f"vectors: expected shape (3,) or (n, 3), got {v.shape}")
        return v @ self.as_matrix().T

    def inv(self) -> Rotation:
        """The inverse rotation."""
        x, y, z, w = self._q
        return Rotation((-x, -y, -z, w))

    def magnitude(self, *, degrees: bool = False) -> float:
        """The angle turned (rad, or degrees), in [0, pi]."""
        return self.as_axis_angle(degrees=degrees)[1]

    def __mul__(self, other: Rotation) -> Rotation:
        if not isinstance(other, Rotation):
            return NotImplemented
        return Rotation(_product(self._q, other._q))

    def __eq__(self, other: object) -> bool:
        # q and -q are the same rotation.
        if not isinstance(other, Rotation):
            return NotImplemented
        return bool(abs(float(np.dot(self._q, other._q))) > 1.0 - 1e-12)

    def __hash__(self) -> int:
        q = self._q if self._q[3] >= 0 else -self._q
        return hash(tuple(np.round(q, 12)))

    def __repr__(self) -> str:
        x, y, z, w = (float(v) for v in self._q)
        return f"Rotation.from_quat([{x:.6g}, {y:.6g}, {z:.6g}, {w:.6g}])  # (x, y, z, w)"
