//! Box against box: the separating axis test in closed form over the fifteen axes (each box's
//! three face normals and the nine cross products of their edges; Gottschalk, Lin and Manocha,
//! "OBBTree", SIGGRAPH 1996), then the manifold of the general polyhedron test (sat.rs). What
//! the general test finds with support points over the hulls' vertices follows here from the
//! two rotations and the half extents, so a pair costs a few matrix products instead of a
//! dozen vertex loops; boxes are the commonest shape in a pile, a stack or a wall.
//!
//! The axes are taken in the general test's order (the hulls' faces, then their edge
//! directions), each kept only when strictly better, and the winner's manifold is built by the
//! same code from the same faces and edges: the contact is the general test's to the last bit,
//! unless two axes (or two edges) tie to within round-off.

use super::manifold::RawPoint;
use super::sat::{manifold, ClipBuffers, EdgeQuery, PosedHull, EDGE_TOLERANCE};
use crate::math::{DMat3, DVec3};

/// The axis (0, 1 or 2) a box's face normal or edge direction lies along.
#[inline]
fn axis_of(u: DVec3) -> usize {
    let a = u.abs();
    if a.x >= a.y && a.x >= a.z {
        0
    } else if a.y >= a.z {
        1
    } else {
        2
    }
}

/// The best face of box A against box B: (separation, face index; the first of equals).
/// `t`: B's centre in A's frame; `reach`: how far B reaches from its centre along each of A's
/// axes. A face n (a unit axis of A) is as far from B as n . t - offset - reach along n.
fn face_query(a: &PosedHull, t: DVec3, reach: DVec3) -> (f64, usize) {
    let mut best = (f64::NEG_INFINITY, 0);
    for (f, face) in a.hull.faces.iter().enumerate() {
        let s = face.normal.dot(t) - face.offset - face.normal.abs().dot(reach);
        if s > best.0 {
            best = (s, f);
        }
    }
    best
}

/// The best edge axis: A's edge direction e_i crossed with B's e_j. With u = e_i x B_j in A's
/// frame (r's column j is B_j), B's centre lies |u . t| along it, A reaches
/// a_i1 |r_i2j| + a_i2 |r_i1j| and B reaches b_j1 |r_ij2| + b_j2 |r_ij1| (i1, i2 and j1, j2
/// the other two axes in cyclic order), all over |u|. The winner's axis and edges are then
/// taken in the world as the general test takes them.
/// Only axes above `floor` are considered (an edge axis matters only when it separates the
/// boxes by more than the margin or beats the faces by the general test's tolerance): with
/// none, the query is `EdgeQuery::NONE`, as the general test's.
fn edge_query(
    a: &PosedHull,
    b: &PosedHull,
    [half_a, half_b]: [DVec3; 2],
    (t, r): (DVec3, &DMat3),
    floor: f64,
) -> EdgeQuery {
    let mut best: Option<(f64, DVec3, DVec3)> = None;
    for &ea in &a.hull.edge_directions {
        let i = axis_of(ea);
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        for &eb in &b.hull.edge_directions {
            let j = axis_of(eb);
            let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
            let v = r.col(j);
            let len = (v[i1] * v[i1] + v[i2] * v[i2]).sqrt();
            // Parallel edges: their axis is one of the face axes (the general test's bound).
            if len < 1e-6 {
                continue;
            }
            let along = (t[i2] * v[i1] - t[i1] * v[i2]).abs();
            let reach_a = half_a[i1] * v[i2].abs() + half_a[i2] * v[i1].abs();
            let reach_b = half_b[j1] * r.col(j2)[i].abs() + half_b[j2] * r.col(j1)[i].abs();
            let gap = along - reach_a - reach_b;
            // Most axes of touching boxes are far below the floor: no division for them.
            if gap <= floor * len {
                continue;
            }
            let s = gap / len;
            if best.is_none_or(|(x, _, _)| s > x) {
                best = Some((s, ea, eb));
            }
        }
    }
    let Some((separation, ea, eb)) = best else {
        return EdgeQuery::NONE;
    };
    let (dir_a, dir_b) = (a.rotation * ea, b.rotation * eb);
    let c = dir_a.cross(dir_b);
    let len = c.length();
    if len < 1e-6 {
        return EdgeQuery::NONE;
    }
    let mut axis = c / len;
    if axis.dot(b.position - a.position) < 0.0 {
        axis = -axis;
    }
    let edges = (
        extreme_edge(a, axis_of(ea), a.rotation.transpose() * axis),
        extreme_edge(b, axis_of(eb), b.rotation.transpose() * -axis),
    );
    EdgeQuery {
        separation,
        axis,
        dir_a,
        dir_b,
        edges: edges.0.zip(edges.1),
    }
}

/// The index of the box's edge along its axis k that lies farthest along `dir` (box frame):
/// the one whose corners lie on the side of `dir` on both other axes. None when the hull has
/// no such edge (it is not a box's).
fn extreme_edge(h: &PosedHull, k: usize, dir: DVec3) -> Option<usize> {
    let side = |v: DVec3, i: usize| (v[i] >= 0.0) == (dir[i] >= 0.0);
    let (k1, k2) = ((k + 1) % 3, (k + 2) % 3);
    h.hull.edges.iter().position(|e| {
        let [p, q] = e.map(|v| h.hull.vertices[v as usize]);
        p[k] != q[k] && [p, q].iter().all(|&v| side(v, k1) && side(v, k2))
    })
}

/// Contact of two boxes (half extents `half_a` and `half_b`, their hulls posed in `a` and `b`)
/// closer than `margin`: the normal from A to B, with points in `out`.
pub fn box_box(
    a: &PosedHull,
    b: &PosedHull,
    [half_a, half_b]: [DVec3; 2],
    margin: f64,
    buffers: &mut ClipBuffers,
    out: &mut Vec<RawPoint>,
) -> Option<DVec3> {
    let towards_b = b.position - a.position;
    // In A's frame: B's centre t, and B's axes as the columns of r (r_ij = A_i . B_j).
    let t = a.rotation.transpose() * towards_b;
    let r = a.rotation.transpose() * b.rotation;
    let abs_r = DMat3::from_cols(r.x_axis.abs(), r.y_axis.abs(), r.z_axis.abs());
    // Along A's axis i, B reaches sum_j b_j |r_ij| from its centre; along B's, A likewise.
    let face_a = face_query(a, t, abs_r * half_b);
    if face_a.0 > margin {
        return None;
    }
    let t_b = b.rotation.transpose() * -towards_b;
    let face_b = face_query(b, t_b, abs_r.transpose() * half_a);
    if face_b.0 > margin {
        return None;
    }
    let floor = margin.min(face_a.0.max(face_b.0) + EDGE_TOLERANCE);
    let edge = edge_query(a, b, [half_a, half_b], (t, &r), floor);
    manifold(a, b, [face_a, face_b], &edge, margin, buffers, out)
}

#[cfg(test)]
mod tests {
    use super::super::sat::hull_hull;
    use super::*;
    use crate::math::DQuat;
    use crate::shape::Shape;

    /// A small deterministic generator (xorshift64*), uniform in [0, 1).
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> f64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64
        }

        fn range(&mut self, lo: f64, hi: f64) -> f64 {
            lo + (hi - lo) * self.next()
        }

        fn vector(&mut self, lo: f64, hi: f64) -> DVec3 {
            DVec3::new(self.range(lo, hi), self.range(lo, hi), self.range(lo, hi))
        }

        fn orientation(&mut self) -> DQuat {
            DQuat::from_scaled_axis(self.vector(-3.0, 3.0))
        }

        /// A box turned by a quarter turn or none about one axis, then tilted by 1e-12 to
        /// 1e-2 rad: a box in a stack or on a floor.
        fn nearly_square(&mut self) -> DQuat {
            let quarter = std::f64::consts::FRAC_PI_2 * (self.next() * 4.0).floor();
            let turn = [
                DQuat::from_rotation_x,
                DQuat::from_rotation_y,
                DQuat::from_rotation_z,
            ][(self.next() * 3.0) as usize](quarter);
            let tilt = self.vector(-1.0, 1.0) * 10f64.powf(self.range(-12.0, -2.0));
            DQuat::from_scaled_axis(tilt) * turn
        }
    }

    /// The contact of the general test and of the closed form for one pair: None when apart,
    /// else (points, whether an edge pair's), after asserting that both found the same normal
    /// and points to the last bit.
    fn agree(half: [DVec3; 2], poses: [(DVec3, DQuat); 2], margin: f64) -> Option<(usize, bool)> {
        let shapes = half.map(|h| Shape::cuboid(h).unwrap());
        let [a, b] =
            [0, 1].map(|k| PosedHull::new(shapes[k].hull().unwrap(), poses[k].0, poses[k].1));
        let mut buffers = ClipBuffers::default();
        let (mut general, mut closed) = (Vec::new(), Vec::new());
        let n_general = hull_hull(&a, &b, margin, &mut buffers, &mut general);
        let n_closed = box_box(&a, &b, half, margin, &mut buffers, &mut closed);
        assert_eq!(n_general, n_closed, "{poses:?}");
        n_general?;
        assert_eq!(general.len(), closed.len(), "{poses:?}");
        for (p, q) in general.iter().zip(&closed) {
            assert_eq!(
                (p.on_a, p.on_b, p.separation, p.feature),
                (q.on_a, q.on_b, q.separation, q.feature),
                "{poses:?}"
            );
        }
        Some((general.len(), general.first()?.feature >> 63 == 1))
    }

    #[test]
    fn the_closed_form_finds_the_general_tests_contact_at_random_poses() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let (mut apart, mut edges, mut faces) = (0, 0, 0);
        for _ in 0..20_000 {
            let half = [rng.vector(0.1, 1.0), rng.vector(0.1, 1.0)];
            let pa = rng.vector(-5.0, 5.0);
            // From deep inside to just beyond reach.
            let reach = half[0].length() + half[1].length();
            let pb = pa + rng.orientation() * DVec3::X * rng.range(0.0, 1.05 * reach);
            match agree(
                half,
                [(pa, rng.orientation()), (pb, rng.orientation())],
                0.02,
            ) {
                None => apart += 1,
                Some((_, true)) => edges += 1,
                Some((_, false)) => faces += 1,
            }
        }
        // The draw must exercise both kinds of contact, and pairs out of reach.
        assert!(
            apart > 1_000 && edges > 1_000 && faces > 2_000,
            "{apart} {edges} {faces}"
        );
    }

    #[test]
    fn the_closed_form_finds_the_general_tests_contact_in_stacks() {
        let mut rng = Rng(12345);
        let mut counts = [0; 4];
        for _ in 0..20_000 {
            let half = [rng.vector(0.02, 0.05), rng.vector(0.02, 0.05)];
            let (qa, qb) = (rng.nearly_square(), rng.nearly_square());
            let height = |q: DQuat, h: DVec3| (q * DVec3::Y).abs().dot(h);
            // B on A, within a millimetre of touching, anywhere over it.
            let pa = rng.vector(-1.0, 1.0);
            let up = height(qa, half[0]) + height(qb, half[1]) + rng.range(-1e-3, 1e-3);
            let pb = pa + DVec3::new(rng.range(-0.06, 0.06), up, rng.range(-0.06, 0.06));
            if let Some((n, _)) = agree(half, [(pa, qa), (pb, qb)], 5e-3) {
                counts[n.min(4) - 1] += 1;
            }
        }
        // Mostly faces resting on faces (four points), some corners (one).
        assert!(counts[3] > 15_000 && counts[0] > 50, "{counts:?}");
        // Exactly square: the edge axes are all parallel ones.
        let square = [DVec3::splat(0.5); 2];
        for offset in [
            DVec3::Y,
            DVec3::new(0.3, 0.999, 0.0),
            DVec3::new(0.7, 0.9995, -0.4),
        ] {
            let poses = [(DVec3::ZERO, DQuat::IDENTITY), (offset, DQuat::IDENTITY)];
            assert_eq!(agree(square, poses, 0.01), Some((4, false)));
        }
    }
}
