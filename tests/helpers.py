"""Helpers shared by the pytest files: rotations and tensors computed independently in numpy."""

import math

import numpy as np


def quat(axis, angle):
    """Unit quaternion (x, y, z, w) for a rotation by `angle` about `axis`."""
    axis = np.asarray(axis, dtype=float)
    axis = axis / np.linalg.norm(axis)
    return np.r_[axis * math.sin(angle / 2), math.cos(angle / 2)]


def rotation_matrix(q):
    """Rotation matrix of a quaternion (x, y, z, w), scalar last (normalised here)."""
    x, y, z, w = np.asarray(q, dtype=float) / np.linalg.norm(q)
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
    )


def box_inertia(m, h):
    """Inertia tensor of a solid box of mass m and half extents h about its centre."""
    a, b, c = h
    return np.diag([m / 3 * (b * b + c * c), m / 3 * (a * a + c * c), m / 3 * (a * a + b * b)])


def rel(a, b):
    return abs(a - b) / abs(b)
