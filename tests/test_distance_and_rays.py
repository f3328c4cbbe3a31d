"""World.distance and World.ray_cast_many, checked against geometry they do not use.

A distance is certified without solving the problem again: if the points given lie in the two
bodies and the gap between the bodies' support functions along the normal equals the distance
between the points, nothing can be closer (the support gap along any direction is a lower
bound on the distance, and the points' distance an upper bound). An overlap is the least over
all directions of how far the bodies' extents along it overlap: equal along the normal given,
and no smaller along thousands of random directions. Batched rays are each what a single ray
cast finds, and a fan of rays meets a sphere where the quadratic says."""

import numpy as np
import pytest
import rigidlab as rl


def rotation(q):
    x, y, z, w = q
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
    )


def random_quaternion(rng):
    q = rng.normal(size=4)
    return q / np.linalg.norm(q)


TETRA = np.array([[0.3, 0, 0], [-0.1, 0.25, 0], [-0.1, -0.1, 0.25], [-0.1, -0.12, -0.2]])


def make(w, kind, rng, position):
    q = random_quaternion(rng)
    if kind == "sphere":
        return w.add_sphere(rng.uniform(0.1, 0.4), position=position)
    if kind == "box":
        return w.add_box(rng.uniform(0.05, 0.4, 3), position=position, orientation=q)
    if kind == "capsule":
        return w.add_capsule(
            rng.uniform(0.05, 0.2), rng.uniform(0.1, 0.4), position=position, orientation=q
        )
    return w.add_convex(TETRA * rng.uniform(0.5, 2.0), position=position, orientation=q)


def support(b, n):
    """The body's extent along unit n (or along each row of an (m, 3) array): max over its
    points of n . p."""
    c, r = np.asarray(b.position), rotation(b.orientation)
    d = b.dimensions
    n = np.asarray(n)
    if b.shape == "sphere":
        return n @ c + d["radius"]
    if b.shape == "box":
        return n @ c + np.abs(n @ r) @ np.asarray(d["half_extents"])
    if b.shape == "capsule":
        return n @ c + np.abs(n @ r[:, 1]) * d["half_height"] + d["radius"]
    return np.max((c + np.asarray(d["vertices"]) @ r.T) @ n.T, axis=0)


def contains(b, p, tol=1e-9):
    c, r = np.asarray(b.position), rotation(b.orientation)
    local = r.T @ (np.asarray(p) - c)
    d = b.dimensions
    if b.shape == "sphere":
        return np.linalg.norm(local) <= d["radius"] + tol
    if b.shape == "box":
        return bool(np.all(np.abs(local) <= np.asarray(d["half_extents"]) + tol))
    if b.shape == "capsule":
        y = np.clip(local[1], -d["half_height"], d["half_height"])
        return np.linalg.norm(local - [0, y, 0]) <= d["radius"] + tol
    # A point of a hull lies below every face plane: its support along any direction bounds it.
    rng = np.random.default_rng(0)
    dirs = rng.normal(size=(500, 3))
    dirs /= np.linalg.norm(dirs, axis=1)[:, None]
    return bool(np.all(dirs @ p <= support(b, dirs) + tol))


KINDS = ["sphere", "box", "capsule", "convex"]


@pytest.mark.parametrize("ka", KINDS)
@pytest.mark.parametrize("kb", KINDS)
def test_the_distance_of_bodies_apart_is_certified_by_their_support_functions(ka, kb):
    rng = np.random.default_rng(4 * KINDS.index(ka) + KINDS.index(kb))
    for trial in range(25):
        w = rl.World(gravity=(0, 0, 0))
        a = make(w, ka, rng, rng.uniform(-0.2, 0.2, 3))
        direction = rng.normal(size=3)
        far = rng.uniform(0.9, 2.5)
        b = make(w, kb, rng, np.asarray(a.position) + far * direction / np.linalg.norm(direction))
        d = w.distance(a, b)
        if d.distance <= 0:
            continue  # placed overlapping: the next test's case
        n = d.normal
        assert np.linalg.norm(n) == pytest.approx(1.0, abs=1e-12)
        assert contains(a, d.point_a) and contains(b, d.point_b)
        assert np.linalg.norm(d.point_b - d.point_a) == pytest.approx(d.distance, abs=1e-9)
        gap = -support(b, -n) - support(a, n)
        assert gap == pytest.approx(d.distance, abs=1e-9), trial
        # Seen from b, the same.
        back = w.distance(b, a)
        assert back.distance == pytest.approx(d.distance, abs=1e-9)
        assert np.allclose(back.normal, -n, atol=1e-7)


@pytest.mark.parametrize("ka", KINDS)
@pytest.mark.parametrize("kb", KINDS)
def test_the_depth_of_overlapping_bodies_is_their_least_overlap_over_all_directions(ka, kb):
    rng = np.random.default_rng(100 + 4 * KINDS.index(ka) + KINDS.index(kb))
    dirs = rng.normal(size=(4000, 3))
    dirs /= np.linalg.norm(dirs, axis=1)[:, None]
    checked = 0
    for _ in range(20):
        w = rl.World(gravity=(0, 0, 0))
        a = make(w, ka, rng, (0, 0, 0))
        b = make(w, kb, rng, rng.uniform(-0.15, 0.15, 3))
        d = w.distance(a, b)
        if d.distance >= 0:
            continue  # small bodies placed apart: the test above's case
        along = support(a, d.normal) + support(b, -d.normal)
        assert along == pytest.approx(-d.distance, abs=1e-9)
        least = (support(a, dirs) + support(b, -dirs)).min()
        assert -d.distance <= least + 1e-9
        checked += 1
    assert checked >= 12


def test_distance_to_a_plane_is_the_lowest_point_s_height():
    rng = np.random.default_rng(11)
    w = rl.World(gravity=(0, 0, 0))
    tilt = np.array([0.1, 0.0, 0.05, 1.0])
    tilt /= np.linalg.norm(tilt)
    plane = w.add_plane(normal=rotation(tilt) @ [0, 1, 0], offset=-0.3)
    n = rotation(tilt) @ [0, 1, 0]
    for kind in KINDS:
        for _ in range(10):
            b = make(w, kind, rng, rng.uniform(-1, 1, 3))
            d = w.distance(b, plane)
            height = -support(b, -n) - (-0.3)  # the plane holds points with n . p <= -0.3
            assert d.distance == pytest.approx(height, abs=1e-12)
            assert np.allclose(d.normal, -n, atol=1e-12)
            assert d.point_b @ n == pytest.approx(-0.3, abs=1e-12)
            assert np.linalg.norm(d.point_a - d.point_b) == pytest.approx(abs(height), abs=1e-9)


def test_2d_distance_is_exact_for_circles_polygons_and_segments():
    w = rl.World2D(gravity=(0, 0))
    disc = w.add_circle(0.25, position=(0, 0))
    square = w.add_box((0.5, 0.5), position=(2, 0.2))
    ledge = w.add_segment((-1, -1), (1, -1))
    d = w.distance(disc, square)
    assert d.distance == pytest.approx(2 - 0.5 - 0.25, abs=1e-12)
    assert d.point_a.shape == (2,) and np.allclose(d.normal, [1, 0])
    assert w.distance(disc, ledge).distance == pytest.approx(0.75, abs=1e-12)
    corner = w.add_box((0.5, 0.5), position=(-2, 2))
    # The disc's nearest point of the square is its corner (-1.5, 1.5).
    assert w.distance(disc, corner).distance == pytest.approx(np.hypot(1.5, 1.5) - 0.25, abs=1e-12)


def test_distance_refuses_one_body_twice_two_planes_and_strangers():
    w = rl.World()
    p, q = w.add_plane(), w.add_plane(normal=(1, 0, 0))
    ball = w.add_sphere(0.1, position=(0, 1, 0))
    with pytest.raises(ValueError, match="^b: must be a different body"):
        w.distance(ball, ball)
    with pytest.raises(ValueError, match="two planes"):
        w.distance(p, q)
    with pytest.raises(ValueError, match="^b:"):
        w.distance(ball, rl.World().add_sphere(0.1))
    with pytest.raises(TypeError, match="^a:"):
        w.distance("ball", ball)
    gone = w.add_sphere(0.1, position=(3, 3, 3))
    w.remove(gone)
    with pytest.raises(rl.RemovedBodyError):
        w.distance(ball, gone)


def scene():
    w = rl.World(gravity=(0, 0, 0))
    rng = np.random.default_rng(5)
    w.add_plane(offset=-3)
    for kind in KINDS * 5:
        make(w, kind, rng, rng.uniform(-2, 2, 3))
    return w


@pytest.mark.parametrize("k", [40, 700])  # on one thread, and shared out over the cores
def test_each_ray_of_a_batch_is_what_a_single_ray_cast_finds(k):
    w = scene()
    rng = np.random.default_rng(k)
    origins = rng.uniform(-4, 4, (k, 3))
    directions = rng.normal(size=(k, 3))
    limits = rng.uniform(0.5, 8.0, k)
    hits = w.ray_cast_many(origins, directions, max_distance=limits, planes=False)
    assert len(hits) == k and 0 < hits.hit.sum() < k
    for i in range(k):
        one = w.ray_cast(origins[i], directions[i], limits[i], planes=False)
        if one is None:
            assert not hits.hit[i] and hits.distance[i] == np.inf and hits.body_id[i] == -1
            assert np.isnan(hits.point[i]).all() and hits.bodies[i] is None
        else:
            assert hits.hit[i] and hits.distance[i] == one["distance"]
            assert hits.body_id[i] == one["body"].id and hits.bodies[i].id == one["body"].id
            assert np.array_equal(hits.point[i], one["point"])
            assert np.array_equal(hits.normal[i], one["normal"])


def test_a_fan_of_rays_meets_a_sphere_where_the_quadratic_says():
    w = rl.World(gravity=(0, 0, 0))
    r, c = 0.7, np.array([0.3, -0.2, 4.0])
    ball = w.add_sphere(r, position=c)
    angles = np.linspace(-0.3, 0.3, 301)
    dirs = np.column_stack([np.sin(angles), np.zeros_like(angles), np.cos(angles)])
    hits = w.ray_cast_many((0, 0, 0), dirs)  # one origin for every ray
    b = dirs @ c
    disc = b**2 - (c @ c - r * r)
    expected = np.where(disc >= 0, b - np.sqrt(np.maximum(disc, 0)), np.inf)
    assert np.array_equal(hits.hit, disc >= 0) and hits.hit.any() and not hits.hit.all()
    assert np.allclose(hits.distance[hits.hit], expected[hits.hit], rtol=0, atol=1e-12)
    normals = (hits.point[hits.hit] - c) / r
    assert np.allclose(hits.normal[hits.hit], normals, atol=1e-12)
    assert set(hits.body_id[hits.hit]) == {ball.id}
    # One direction for many origins works the same way; the arrays cannot be written.
    down = w.ray_cast_many(np.column_stack([angles, angles, np.zeros_like(angles)]), (0, 0, 1))
    assert down.hit.any()
    with pytest.raises(ValueError):
        down.distance[0] = 1.0


def test_bad_batches_raise_naming_the_parameter():
    w = scene()
    with pytest.raises(ValueError, match="^origins: expected"):
        w.ray_cast_many(np.zeros((4, 2)), (0, 0, 1))
    with pytest.raises(ValueError, match="4 origins and 3 directions"):
        w.ray_cast_many(np.zeros((4, 3)), np.ones((3, 3)))
    dirs = np.ones((5, 3))
    dirs[3] = (0, np.nan, 1)
    with pytest.raises(ValueError, match=r"^directions\[3\]: must be a finite, non-zero"):
        w.ray_cast_many(np.zeros((5, 3)), dirs)
    with pytest.raises(ValueError, match="^directions: must be a finite, non-zero"):
        w.ray_cast_many((0, 0, 0), (0, 0, 0))
    with pytest.raises(ValueError, match="^max_distance: must be numbers >= 0"):
        w.ray_cast_many(np.zeros((2, 3)), (0, 0, 1), max_distance=[1.0, -1.0])
    with pytest.raises(
        ValueError, match=r"^max_distance: expected a number or an array of shape \(2,\)"
    ):
        w.ray_cast_many(np.zeros((2, 3)), (0, 0, 1), max_distance=[1.0, 1.0, 1.0])
    with pytest.raises(TypeError, match="^origins"):
        w.ray_cast_many("here", (0, 0, 1))


def test_2d_worlds_query_in_the_plane():
    w = rl.World2D(gravity=(0, 0))
    ground = w.add_ground()
    disc = w.add_circle(0.5, position=(0, 2))
    square = w.add_box((0.25, 0.25), position=(3, 2))
    hits = w.ray_cast_many((-2, 2), [(1, 0), (0, -1), (0, 1)])
    assert hits.point.shape == (3, 2) and hits.normal.shape == (3, 2)
    assert hits.distance[0] == pytest.approx(1.5, abs=1e-12) and hits.bodies[0] == disc
    assert hits.distance[1] == pytest.approx(2.0, abs=1e-12) and hits.bodies[1] == ground
    assert not hits.hit[2] and hits.bodies[2] is None
    along = w.ray_cast_all((-2, 2), (1, 0))
    assert [h.body for h in along] == [disc, square]
    assert along[1].distance == pytest.approx(4.75, abs=1e-12) and along[1].point.shape == (2,)
    assert w.query_point((3.1, 2.1)) == [square]
    assert set(w.query_box((-1, 1), (3, 3))) == {disc, square}
    with pytest.raises(ValueError, match="^origins"):
        w.ray_cast_many(np.zeros((3, 3)), (1, 0))


def test_query_results_hold_read_only_vectors_of_one_size():
    w = rl.World(gravity=(0, 0, 0))
    a, b = w.add_sphere(0.5), w.add_sphere(0.5, position=(2, 0, 0))
    d = w.distance(a, b)
    hit = w.ray_cast_all((-3, 0, 0), (1, 0, 0))[0]
    for v in (d.point_a, d.point_b, d.normal, hit.point, hit.normal):
        with pytest.raises(ValueError):
            v[0] = 1.0
    assert "Distance(distance=1.0" in repr(d) and "RayHit(" in repr(hit)
    with pytest.raises(TypeError, match="^point_a, point_b, normal: must be vectors"):
        rl.Distance(1.0, (0, 0, 0), (1, 0), (1, 0, 0))
    with pytest.raises(TypeError, match="^point, normal: must be vectors"):
        rl.RayHit(None, 1.0, (0, 0), (1, 0, 0))
    with pytest.raises(ValueError, match="^distance: must have one row per ray"):
        rl.RayHits([True], [1.0, 2.0], [[0, 0, 0]], [[1, 0, 0]], [0], [None])
