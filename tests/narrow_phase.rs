//! Narrow phase against geometry: the six feature pairs of two boxes (the 3D polyhedron engine's demo scenes),
//! hulls, capsules and spheres. Depths are checked against an independent oracle: the smallest
//! overlap of the two shapes' projections over a dense set of directions.

use glam::{DQuat, DVec3};
use rigidlab::collision::narrow_phase::{NarrowPhase, Posed};
use rigidlab::shape::{ConvexHull, Shape};
use std::f64::consts::{FRAC_PI_4, PI};

const S: f64 = 0.5;
const D: f64 = 0.01;

fn cube() -> Shape {
    Shape::cuboid(DVec3::splat(S)).unwrap()
}

/// Turns the body diagonal (1, 1, 1) to point along `dir`.
fn corner_towards(dir: DVec3) -> DQuat {
    DQuat::from_rotation_arc(DVec3::ONE.normalize(), dir)
}

fn world_vertices(shape: &Shape, x: DVec3, q: DQuat) -> Vec<DVec3> {
    shape
        .hull()
        .unwrap()
        .vertices
        .iter()
        .map(|v| x + q * *v)
        .collect()
}

/// How far A's and B's projections on d overlap (B pushed along +d).
fn overlap(a: &[DVec3], b: &[DVec3], d: DVec3) -> f64 {
    let max_a = a.iter().map(|p| p.dot(d)).fold(f64::NEG_INFINITY, f64::max);
    let min_b = b.iter().map(|p| p.dot(d)).fold(f64::INFINITY, f64::min);
    max_a - min_b
}

/// Minimum over directions of the overlap of A's and B's projections (an upper bound on the
/// penetration depth), with the direction: golden-spiral sampling of the sphere, then local
/// refinement.
fn oracle_depth(a: &[DVec3], b: &[DVec3]) -> (f64, DVec3) {
    let overlap = |d: DVec3| overlap(a, b, d);
    let n = 200_000;
    let mut best = (f64::INFINITY, DVec3::Y);
    for i in 0..n {
        let y = 1.0 - 2.0 * (i as f64 + 0.5) / n as f64;
        let r = (1.0 - y * y).sqrt();
        let phi = PI * (3.0 - 5f64.sqrt()) * i as f64;
        let d = DVec3::new(r * phi.cos(), y, r * phi.sin());
        let o = overlap(d);
        if o < best.0 {
            best = (o, d);
        }
    }
    let mut step = 0.01;
    while step > 1e-9 {
        let mut improved = false;
        let (u, v) = best.1.any_orthonormal_pair();
        for d in [u, -u, v, -v] {
            let cand = (best.1 + d * step).normalize();
            let o = overlap(cand);
            if o < best.0 {
                best = (o, cand);
                improved = true;
            }
        }
        if !improved {
            step *= 0.5;
        }
    }
    best
}

struct Case {
    a: Shape,
    xa: DVec3,
    qa: DQuat,
    b: Shape,
    xb: DVec3,
    qb: DQuat,
}

impl Case {
    fn boxes(qa: DQuat, xb: DVec3, qb: DQuat) -> Case {
        Case {
            a: cube(),
            xa: DVec3::ZERO,
            qa,
            b: cube(),
            xb,
            qb,
        }
    }

    /// Collides with no margin: only overlapping points. Returns normal, depths and points.
    fn collide(&self) -> (DVec3, Vec<f64>, Vec<DVec3>) {
        let mut np = NarrowPhase::default();
        let pa = Posed {
            shape: &self.a,
            position: self.xa,
            orientation: self.qa,
            planar: false,
        };
        let pb = Posed {
            shape: &self.b,
            position: self.xb,
            orientation: self.qb,
            planar: false,
        };
        let n = np.collide(pa, pb, 0.0).expect("shapes overlap");
        let depths = np.points.iter().map(|p| -p.separation).collect();
        let points = np.points.iter().map(|p| 0.5 * (p.on_a + p.on_b)).collect();
        (n, depths, points)
    }

    /// Checks that the deepest point's depth is the shapes' overlap along the normal and that
    /// no sampled direction overlaps less (so it is the penetration depth); returns the number
    /// of points.
    fn check(&self, expected_depth: Option<f64>, expected_normal: Option<DVec3>) -> usize {
        let (n, depths, _) = self.collide();
        let deepest = depths.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let (va, vb) = (
            world_vertices(&self.a, self.xa, self.qa),
            world_vertices(&self.b, self.xb, self.qb),
        );
        assert!(
            (deepest - overlap(&va, &vb, n)).abs() < 1e-12,
            "depth {deepest} but along {n:?} the shapes overlap by {}",
            overlap(&va, &vb, n)
        );
        let (od, on) = oracle_depth(&va, &vb);
        assert!(
            deepest <= od + 1e-12,
            "depth {deepest} but the shapes overlap by only {od} along {on:?}"
        );
        if let Some(d) = expected_depth {
            assert!((deepest - d).abs() < 1e-12, "depth {deepest}, expected {d}");
        }
        if let Some(e) = expected_normal {
            assert!((n - e).length() < 1e-12, "normal {n:?}, expected {e:?}");
        }
        for d in &depths {
            assert!(*d >= -1e-12 && *d <= deepest + 1e-12, "depths {depths:?}");
        }
        depths.len()
    }
}

#[test]
fn face_face_gives_four_points_at_equal_depth() {
    let c = Case::boxes(
        DQuat::IDENTITY,
        DVec3::new(0.1, 2.0 * S - D, 0.2),
        DQuat::IDENTITY,
    );
    assert_eq!(c.check(Some(D), Some(DVec3::Y)), 4);
    let (_, depths, points) = c.collide();
    assert!(depths.iter().all(|d| (d - D).abs() < 1e-12));
    // The overlap of the two faces: x in [-0.4, 0.5], z in [-0.3, 0.5].
    for p in points {
        assert!(
            (p.x - 0.05).abs() - 0.45 < 1e-12
                && (p.z - 0.1).abs() - 0.4 < 1e-12
                && (p.x.abs() - 0.45 - 0.05).abs() < 0.1
        );
    }
}

#[test]
fn edge_face_gives_the_two_ends_of_the_edge() {
    let qb = DQuat::from_rotation_z(FRAC_PI_4);
    let c = Case::boxes(
        DQuat::IDENTITY,
        DVec3::new(0.0, S + S * 2f64.sqrt() - D, 0.0),
        qb,
    );
    assert_eq!(c.check(Some(D), Some(DVec3::Y)), 2);
    let (_, _, points) = c.collide();
    let mut z: Vec<f64> = points.iter().map(|p| p.z).collect();
    z.sort_by(f64::total_cmp);
    assert!(
        (z[0] + S).abs() < 1e-12 && (z[1] - S).abs() < 1e-12,
        "{points:?}"
    );
}

#[test]
fn vertex_face_gives_one_point_at_the_corner() {
    let qb = corner_towards(-DVec3::Y);
    let c = Case::boxes(
        DQuat::IDENTITY,
        DVec3::new(0.1, S + S * 3f64.sqrt() - D, -0.1),
        qb,
    );
    assert_eq!(c.check(Some(D), Some(DVec3::Y)), 1);
    let (_, _, points) = c.collide();
    assert!(
        (points[0] - DVec3::new(0.1, S - D / 2.0, -0.1)).length() < 1e-12,
        "{points:?}"
    );
}

#[test]
fn edge_edge_gives_one_point_where_the_edges_cross() {
    // A's top is a ridge along z, B's bottom a ridge along x.
    let qa = DQuat::from_rotation_z(FRAC_PI_4);
    let qb = DQuat::from_rotation_x(FRAC_PI_4);
    let ridge = S * 2f64.sqrt();
    let c = Case::boxes(qa, DVec3::new(0.0, 2.0 * ridge - D, 0.0), qb);
    assert_eq!(c.check(Some(D), Some(DVec3::Y)), 1);
    let (_, _, points) = c.collide();
    assert!(
        (points[0] - DVec3::new(0.0, ridge - D / 2.0, 0.0)).length() < 1e-9,
        "{points:?}"
    );
}

#[test]
fn vertex_edge_gives_one_point() {
    // B's lowest corner presses on A's ridge: one point, pushed out across the ridge.
    let qa = DQuat::from_rotation_z(FRAC_PI_4);
    let qb = DQuat::from_rotation_y(0.3) * corner_towards(-DVec3::Y);
    let c = Case::boxes(
        qa,
        DVec3::new(0.0, S * 2f64.sqrt() + S * 3f64.sqrt() - D, 0.1),
        qb,
    );
    assert_eq!(c.check(None, None), 1);
}

#[test]
fn vertex_vertex_gives_one_point() {
    let qa = corner_towards(DVec3::Y);
    let qb = DQuat::from_rotation_y(0.4) * corner_towards(-DVec3::Y);
    let c = Case::boxes(qa, DVec3::new(0.0, 2.0 * S * 3f64.sqrt() - D, 0.0), qb);
    assert_eq!(c.check(None, None), 1);
}

#[test]
fn hulls_collide_like_the_boxes_they_equal() {
    // A box given as a point cloud collides exactly like the box.
    let corners: Vec<DVec3> = (0..8)
        .map(|c| {
            DVec3::new(
                if c & 1 == 0 { -S } else { S },
                if c & 2 == 0 { -S } else { S },
                if c & 4 == 0 { -S } else { S },
            )
        })
        .collect();
    let (hull, _) = Shape::convex(&corners).unwrap();
    let qb = DQuat::from_rotation_z(0.3) * DQuat::from_rotation_x(0.2);
    let xb = DVec3::new(0.2, 1.1, 0.1);
    let boxes = Case::boxes(DQuat::IDENTITY, xb, qb).collide();
    let hulls = Case {
        a: hull.clone(),
        xa: DVec3::ZERO,
        qa: DQuat::IDENTITY,
        b: hull,
        xb,
        qb,
    }
    .collide();
    assert!((boxes.0 - hulls.0).length() < 1e-12);
    assert_eq!(boxes.1.len(), hulls.1.len());
}

/// The 12 vertices of an icosahedron of circumradius r, stretched by (1, 0.8, 0.6).
fn stretched_icosahedron(r: f64) -> Shape {
    let phi = (1.0 + 5f64.sqrt()) / 2.0;
    let mut points = Vec::new();
    for (s1, s2) in [(1.0, 1.0), (1.0, -1.0), (-1.0, 1.0), (-1.0, -1.0)] {
        points.extend([
            DVec3::new(0.0, s1, s2 * phi),
            DVec3::new(s1, s2 * phi, 0.0),
            DVec3::new(s2 * phi, 0.0, s1),
        ]);
    }
    let scale = r / (1.0 + phi * phi).sqrt();
    let points: Vec<DVec3> = points
        .into_iter()
        .map(|p| p * scale * DVec3::new(1.0, 0.8, 0.6))
        .collect();
    Shape::convex(&points).unwrap().0
}

#[test]
fn hulls_in_many_poses_report_their_penetration_depth() {
    // Stretched icosahedra and a box, turned every which way and pushed into each other along
    // assorted directions: the deepest point is the penetration depth (no direction separates
    // them by less), whether a face or an edge pair wins.
    let shapes = [
        stretched_icosahedron(0.5),
        stretched_icosahedron(0.4),
        cube(),
    ];
    let mut overlapping = 0;
    for k in 0..24 {
        let t = k as f64;
        let qa = DQuat::from_euler(glam::EulerRot::XYZ, 0.7 * t, 1.3 * t, 0.4 * t);
        let qb = DQuat::from_euler(glam::EulerRot::XYZ, 1.1 * t + 0.2, 0.3 * t, 0.9 * t + 0.5);
        let u = DVec3::new((1.7 * t).sin(), (0.9 * t).cos(), (2.3 * t + 1.0).sin()).normalize();
        let (a, b) = (shapes[k % 3].clone(), shapes[(k / 3) % 3].clone());
        let extent = |s: &Shape, q: DQuat, d: DVec3| {
            s.hull()
                .unwrap()
                .vertices
                .iter()
                .map(|v| (q * *v).dot(d))
                .fold(f64::NEG_INFINITY, f64::max)
        };
        let xb = u * (extent(&a, qa, u) + extent(&b, qb, -u) - 0.12);
        let case = Case {
            a,
            xa: DVec3::ZERO,
            qa,
            b,
            xb,
            qb,
        };
        let (va, vb) = (
            world_vertices(&case.a, case.xa, case.qa),
            world_vertices(&case.b, case.xb, case.qb),
        );
        if oracle_depth(&va, &vb).0 > 1e-6 {
            case.check(None, None);
            overlapping += 1;
        }
    }
    assert!(overlapping >= 16, "only {overlapping} of the poses overlap");
}

#[test]
fn wedge_on_a_box_rests_on_its_face() {
    let (wedge, _) = Shape::convex(&ConvexHull::wedge_points(1.0, 0.5, 0.4)).unwrap();
    // The wedge's bottom face is at y = -1/6 of its centroid.
    let c = Case {
        a: cube(),
        xa: DVec3::ZERO,
        qa: DQuat::IDENTITY,
        b: wedge,
        xb: DVec3::new(0.0, S + 0.5 / 3.0 - D, 0.0),
        qb: DQuat::IDENTITY,
    };
    assert_eq!(c.check(Some(D), Some(DVec3::Y)), 4);
}

#[test]
fn sphere_and_capsule_against_a_box() {
    let r = 0.2;
    // Sphere near an edge of the box, outside: closest point on the edge.
    let sphere = Shape::sphere(r).unwrap();
    let centre = DVec3::new(S + 0.1, S + 0.1, 0.0);
    let c = Case {
        a: cube(),
        xa: DVec3::ZERO,
        qa: DQuat::IDENTITY,
        b: sphere.clone(),
        xb: centre,
        qb: DQuat::IDENTITY,
    };
    let (n, depths, _) = c.collide();
    assert!((n - DVec3::new(1.0, 1.0, 0.0).normalize()).length() < 1e-9);
    assert!((depths[0] - (r - 0.1 * 2f64.sqrt())).abs() < 1e-12);
    // A turned box near a corner: the same contact as the box given as a hull (found by GJK).
    let corners: Vec<DVec3> = (0..8)
        .map(|c| {
            DVec3::new(
                if c & 1 == 0 { -S } else { S },
                if c & 2 == 0 { -S } else { S },
                if c & 4 == 0 { -S } else { S },
            )
        })
        .collect();
    let (hull, _) = Shape::convex(&corners).unwrap();
    let qa = DQuat::from_rotation_y(0.4) * DQuat::from_rotation_x(0.3);
    let near_corner = qa * DVec3::new(S + 0.05, S + 0.1, -S - 0.08);
    let as_box = Case {
        a: cube(),
        xa: DVec3::ZERO,
        qa,
        b: sphere.clone(),
        xb: near_corner,
        qb: DQuat::IDENTITY,
    }
    .collide();
    let as_hull = Case {
        a: hull,
        xa: DVec3::ZERO,
        qa,
        b: sphere.clone(),
        xb: near_corner,
        qb: DQuat::IDENTITY,
    }
    .collide();
    assert!(
        (as_box.0 - as_hull.0).length() < 1e-9
            && (as_box.1[0] - as_hull.1[0]).abs() < 1e-9
            && (as_box.2[0] - as_hull.2[0]).length() < 1e-9
    );
    assert!((as_box.1[0] - (r - (0.05f64 * 0.05 + 0.1 * 0.1 + 0.08 * 0.08).sqrt())).abs() < 1e-12);
    // Sphere centre inside the box: out through the nearest face.
    let c = Case {
        xb: DVec3::new(0.1, S - 0.05, 0.0),
        ..c
    };
    let (n, depths, _) = c.collide();
    assert!((n - DVec3::Y).length() < 1e-12 && (depths[0] - (r + 0.05)).abs() < 1e-12);
    // A capsule lying on the box top: two points, one at each end of its segment.
    let capsule = Shape::capsule(r, 0.3).unwrap();
    let lying = DQuat::from_rotation_z(PI / 2.0);
    let c = Case {
        a: cube(),
        xa: DVec3::ZERO,
        qa: DQuat::IDENTITY,
        b: capsule.clone(),
        xb: DVec3::new(0.0, S + r - D, 0.0),
        qb: lying,
    };
    let (n, depths, points) = c.collide();
    assert!((n - DVec3::Y).length() < 1e-12, "{n:?}");
    assert_eq!(depths.len(), 2);
    assert!(depths.iter().all(|d| (d - D).abs() < 1e-12), "{depths:?}");
    assert!(
        points.iter().all(|p| (p.x.abs() - 0.3).abs() < 1e-12),
        "{points:?}"
    );
    // Lying across the box edge, partly over the face: clipped at the edge.
    let c = Case {
        xb: DVec3::new(S, S + r - D, 0.0),
        ..c
    };
    let (_, depths, points) = c.collide();
    assert_eq!(depths.len(), 2);
    let mut x: Vec<f64> = points.iter().map(|p| p.x).collect();
    x.sort_by(f64::total_cmp);
    assert!(
        (x[0] - (S - 0.3)).abs() < 1e-12 && (x[1] - S).abs() < 1e-12,
        "{points:?}"
    );
    // Standing on the box: one point under its lower end.
    let c = Case {
        xb: DVec3::new(0.1, S + 0.3 + r - D, 0.0),
        qb: DQuat::IDENTITY,
        ..c
    };
    let (n, depths, _) = c.collide();
    assert!((n - DVec3::Y).length() < 1e-12 && depths.len() == 1 && (depths[0] - D).abs() < 1e-12);
    // Core pushed through the face: still out through the top, by the right depth.
    let c = Case {
        xb: DVec3::new(0.1, S + 0.3 - 0.1, 0.0),
        ..c
    };
    let (n, depths, _) = c.collide();
    assert!(
        (n - DVec3::Y).length() < 1e-12 && (depths[0] - (r + 0.1)).abs() < 1e-12,
        "{n:?} {depths:?}"
    );
}

#[test]
fn capsules_against_capsules_spheres_and_planes() {
    let (r, h) = (0.1, 0.4);
    let capsule = Shape::capsule(r, h).unwrap();
    let lying = DQuat::from_rotation_z(PI / 2.0);
    let mut np = NarrowPhase::default();
    // Two parallel capsules, one on the other, offset along their axes: two points.
    let a = Posed {
        shape: &capsule,
        position: DVec3::ZERO,
        orientation: lying,
        planar: false,
    };
    let b = Posed {
        shape: &capsule,
        position: DVec3::new(0.3, 2.0 * r - D, 0.0),
        orientation: lying,
        planar: false,
    };
    let n = np.collide(a, b, 0.0).unwrap();
    assert!((n - DVec3::Y).length() < 1e-12);
    let mut x: Vec<f64> = np.points.iter().map(|p| p.on_a.x).collect();
    x.sort_by(f64::total_cmp);
    assert_eq!(x.len(), 2);
    assert!(
        (x[0] + 0.1).abs() < 1e-12 && (x[1] - 0.4).abs() < 1e-12,
        "{x:?}"
    );
    assert!(np.points.iter().all(|p| (p.separation + D).abs() < 1e-12));
    // Crossed capsules: one point.
    let crossed = DQuat::from_rotation_x(PI / 2.0);
    let b = Posed {
        shape: &capsule,
        position: DVec3::new(0.0, 2.0 * r - D, 0.0),
        orientation: crossed,
        planar: false,
    };
    np.collide(a, b, 0.0).unwrap();
    assert_eq!(np.points.len(), 1);
    assert!((np.points[0].separation + D).abs() < 1e-12);
    // A sphere against the capsule's rounded end.
    let sphere = Shape::sphere(0.2).unwrap();
    let b = Posed {
        shape: &sphere,
        position: DVec3::new(h + r + 0.2 - D, 0.0, 0.0),
        orientation: DQuat::IDENTITY,
        planar: false,
    };
    let n = np.collide(a, b, 0.0).unwrap();
    assert!((n - DVec3::X).length() < 1e-12 && (np.points[0].separation + D).abs() < 1e-12);
    // A plane under a tilted capsule: only the lower end touches.
    let plane = Shape::Plane;
    let floor = Posed {
        shape: &plane,
        position: DVec3::ZERO,
        orientation: DQuat::IDENTITY,
        planar: false,
    };
    let tilted = DQuat::from_rotation_z(0.3);
    let low_end = tilted * DVec3::new(0.0, -h, 0.0);
    let c = Posed {
        shape: &capsule,
        position: DVec3::new(0.0, r - D, 0.0) - low_end,
        orientation: tilted,
        planar: false,
    };
    let n = np.collide(floor, c, 0.0).unwrap();
    assert!(
        (n - DVec3::Y).length() < 1e-12
            && np.points.len() == 1
            && (np.points[0].separation + D).abs() < 1e-12
    );
}

#[test]
fn separated_shapes_within_the_margin_give_speculative_points() {
    let c = Case::boxes(
        DQuat::IDENTITY,
        DVec3::new(0.0, 2.0 * S + 0.05, 0.0),
        DQuat::IDENTITY,
    );
    let mut np = NarrowPhase::default();
    let pa = Posed {
        shape: &c.a,
        position: c.xa,
        orientation: c.qa,
        planar: false,
    };
    let pb = Posed {
        shape: &c.b,
        position: c.xb,
        orientation: c.qb,
        planar: false,
    };
    assert!(np.collide(pa, pb, 0.04).is_none());
    let n = np.collide(pa, pb, 0.06).unwrap();
    assert!((n - DVec3::Y).length() < 1e-12);
    assert_eq!(np.points.len(), 4);
    assert!(np
        .points
        .iter()
        .all(|p| (p.separation - 0.05).abs() < 1e-12));
}
