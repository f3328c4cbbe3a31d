//! Polyhedron against polyhedron (boxes and convex hulls): the separating axis test over both
//! hulls' face normals and every pair of edge directions, then a manifold.
//! - A face axis wins: the face is the reference, the other hull's face most opposed to it is
//!   the incident face, which is clipped against the reference face's side planes
//!   (Sutherland-Hodgman); each clipped point below the reference plane (or within the margin)
//!   is a contact with its own depth.
//! - An edge pair wins: one point, the closest points of the two edges. Hulls with many edge
//!   directions pair only the edges whose arcs cross on the Gauss map (`gauss_edge_query`).
//!
//! Face axes are preferred over edge axes that are barely better, so resting contacts do not
//! flicker between the two.

use super::closest::segment_segment;
use super::manifold::RawPoint;
use crate::math::{DMat3, DQuat, DVec3};
use crate::shape::ConvexHull;

/// An edge axis must beat the best face axis by this much (m) to be used.
pub(super) const EDGE_TOLERANCE: f64 = 1e-4;
/// B's face must beat A's by this much (m) to be the reference face.
const FACE_TOLERANCE: f64 = 1e-5;

/// A hull placed in the world.
#[derive(Clone, Copy)]
pub struct PosedHull<'a> {
    pub hull: &'a ConvexHull,
    pub position: DVec3,
    pub rotation: DMat3,
}

impl<'a> PosedHull<'a> {
    pub fn new(hull: &'a ConvexHull, position: DVec3, orientation: DQuat) -> Self {
        PosedHull {
            hull,
            position,
            rotation: DMat3::from_quat(orientation),
        }
    }

    #[inline]
    pub fn world(&self, local: DVec3) -> DVec3 {
        self.position + self.rotation * local
    }

    #[inline]
    pub fn vertex(&self, i: u32) -> DVec3 {
        self.world(self.hull.vertices[i as usize])
    }

    /// The hull's extreme point along the world direction d.
    #[inline]
    pub fn support(&self, d: DVec3) -> DVec3 {
        self.world(self.hull.support(self.rotation.transpose() * d).1)
    }
}

/// Work buffers for clipping, reused from pair to pair.
#[derive(Default)]
pub struct ClipBuffers {
    pub(crate) polygon: Vec<(DVec3, u64)>,
    pub(crate) clipped: Vec<(DVec3, u64)>,
    /// B's edge directions in A's frame (the edge query).
    pub(crate) directions: Vec<DVec3>,
    /// B's vertices, face normals (negated) and edges in A's frame, and the side of each of
    /// those normals from the great circle of one of A's edges (the Gauss map edge query).
    vertices: Vec<DVec3>,
    normals: Vec<DVec3>,
    arcs: Vec<Arc>,
    sides: Vec<f64>,
}

/// An edge of B seen from A's frame for the Gauss map test: its first vertex, its direction,
/// its two faces (whose normals negated, c and d, end the arc of B's edge on the Gauss map of
/// A - B) and d x c.
#[derive(Clone, Copy)]
struct Arc {
    point: DVec3,
    direction: DVec3,
    faces: [u32; 2],
    d_x_c: DVec3,
}

/// A lower bound of a hull's support along the body-frame direction u: its inscribed box's.
#[inline]
fn inner_support(h: &ConvexHull, u: DVec3) -> f64 {
    u.abs().dot(h.inscribed)
}

/// Rounding allowance for the bounds below, so a bound equal to the separation (a box's is
/// exact) never skips an axis that ties.
fn slack(towards_b: DVec3) -> f64 {
    1e-9 * towards_b.length() + 1e-15
}

/// Largest separation of B from A's faces: (separation, face index; the first of equals).
///
/// B's support along -n is at least its inscribed box's, so the separation from face n is at
/// most n . (B's origin - A's origin) - (B's box support) - offset: a face whose bound cannot
/// beat the best so far needs no support point. The face towards B, taken first, is usually
/// the best. Bounds are taken in A's frame.
fn face_query(a: &PosedHull, b: &PosedHull) -> (f64, usize) {
    let towards_b = b.position - a.position;
    let d_a = a.rotation.transpose() * towards_b;
    let a_to_b = b.rotation.transpose() * a.rotation;
    let slack = slack(towards_b);
    let separation = |i: usize| {
        let f = &a.hull.faces[i];
        let n = a.rotation * f.normal;
        n.dot(b.support(-n) - a.position) - f.offset
    };
    let first = a.hull.face_towards(d_a);
    let mut best = (separation(first), first);
    for (i, f) in a.hull.faces.iter().enumerate() {
        if i == first {
            continue;
        }
        if f.normal.dot(d_a) - inner_support(b.hull, a_to_b * f.normal) - f.offset + slack < best.0
        {
            continue;
        }
        let s = separation(i);
        if s > best.0 || (s == best.0 && i < best.1) {
            best = (s, i);
        }
    }
    best
}

pub(super) struct EdgeQuery {
    pub(super) separation: f64,
    pub(super) axis: DVec3,
    pub(super) dir_a: DVec3,
    pub(super) dir_b: DVec3,
    /// The edges themselves, when the query found them (the Gauss map query).
    pub(super) edges: Option<(usize, usize)>,
}

impl EdgeQuery {
    pub(super) const NONE: EdgeQuery = EdgeQuery {
        separation: f64::NEG_INFINITY,
        axis: DVec3::ZERO,
        dir_a: DVec3::ZERO,
        dir_b: DVec3::ZERO,
        edges: None,
    };
}

/// Whether to pair the hulls' edges on the Gauss map rather than all their edge directions:
/// when the direction pairs are at least a quarter as many as the edge pairs (the Gauss map test
/// per edge pair is a few dot products; a direction pair may need both hulls' support points).
fn use_gauss_map(a: &ConvexHull, b: &ConvexHull) -> bool {
    !a.edge_faces.is_empty()
        && !b.edge_faces.is_empty()
        && 4 * a.edge_directions.len() * b.edge_directions.len() >= a.edges.len() * b.edges.len()
}

/// Largest separation along the cross products of edge pairs that form a face of the
/// Minkowski difference (Gregorius, "The separating axis test between convex polyhedra", GDC
/// 2013): those whose arcs on the Gauss map (between the normals of the faces either side)
/// cross. Where the hulls overlap only these can be the separating axis test's answer, and
/// each pair's own edges are the support points along its axis, so no vertex loop is needed.
/// Works in A's frame; A's origin must lie inside A (it is the centre of mass).
fn gauss_edge_query(a: &PosedHull, b: &PosedHull, buffers: &mut ClipBuffers) -> EdgeQuery {
    let (ha, hb) = (a.hull, b.hull);
    let to_a = a.rotation.transpose();
    let b_to_a = to_a * b.rotation;
    let offset = to_a * (b.position - a.position);
    let ClipBuffers {
        vertices,
        normals,
        arcs,
        sides,
        ..
    } = buffers;
    vertices.clear();
    vertices.extend(hb.vertices.iter().map(|&v| b_to_a * v + offset));
    normals.clear();
    normals.extend(hb.faces.iter().map(|f| b_to_a * -f.normal));
    arcs.clear();
    arcs.extend(hb.edges.iter().zip(&hb.edge_faces).map(|(e, f)| {
        let (c, d) = (normals[f[0] as usize], normals[f[1] as usize]);
        let point = vertices[e[0] as usize];
        Arc {
            point,
            direction: vertices[e[1] as usize] - point,
            faces: *f,
            d_x_c: d.cross(c),
        }
    }));
    let mut best = EdgeQuery::NONE;
    for (i, (e, f)) in ha.edges.iter().zip(&ha.edge_faces).enumerate() {
        let (na, nb) = (
            ha.faces[f[0] as usize].normal,
            ha.faces[f[1] as usize].normal,
        );
        let b_x_a = nb.cross(na);
        let p = ha.vertices[e[0] as usize];
        let dir = ha.vertices[e[1] as usize] - p;
        // Which side of this edge's great circle each of B's (negated) normals lies on: an arc
        // of B crosses the circle when its ends lie on opposite sides.
        sides.clear();
        sides.extend(normals.iter().map(|n| n.dot(b_x_a)));
        for (j, arc) in arcs.iter().enumerate() {
            let (cba, dba) = (sides[arc.faces[0] as usize], sides[arc.faces[1] as usize]);
            if cba * dba >= 0.0 {
                continue;
            }
            let adc = na.dot(arc.d_x_c);
            let bdc = nb.dot(arc.d_x_c);
            if adc * bdc >= 0.0 || cba * bdc <= 0.0 {
                continue;
            }
            let c = dir.cross(arc.direction);
            let len2 = c.length_squared();
            // Parallel edges: their axis is one of the face axes.
            if len2 < 1e-12 * dir.length_squared() * arc.direction.length_squared() {
                continue;
            }
            let mut axis = c / len2.sqrt();
            if axis.dot(p) < 0.0 {
                axis = -axis;
            }
            let s = axis.dot(arc.point - p);
            if s > best.separation {
                best = EdgeQuery {
                    separation: s,
                    axis,
                    dir_a: dir,
                    dir_b: arc.direction,
                    edges: Some((i, j)),
                };
            }
        }
    }
    if best.edges.is_some() {
        best.axis = a.rotation * best.axis;
        best.dir_a = a.rotation * best.dir_a;
        best.dir_b = a.rotation * best.dir_b;
    }
    best
}

/// Largest separation along the cross products of edge directions, the axis pointing from A
/// towards B, among those that can exceed `floor`: an axis whose bound from the hulls'
/// inscribed boxes (axis . (B's origin - A's origin) minus both boxes' supports, in A's frame)
/// is not above the floor or the best so far is skipped. Returns a separation of -infinity
/// when no axis can exceed the floor. `b_dirs` is a buffer.
fn edge_query(a: &PosedHull, b: &PosedHull, floor: f64, b_dirs: &mut Vec<DVec3>) -> EdgeQuery {
    let mut best = EdgeQuery::NONE;
    let towards_b = b.position - a.position;
    let d_a = a.rotation.transpose() * towards_b;
    let b_to_a = a.rotation.transpose() * b.rotation;
    let slack = slack(towards_b);
    b_dirs.clear();
    b_dirs.extend(b.hull.edge_directions.iter().map(|&e| b_to_a * e));
    for &ea in &a.hull.edge_directions {
        for (j, &eb) in b_dirs.iter().enumerate() {
            let c = ea.cross(eb);
            let len = c.length();
            // Parallel edges: their axis is one of the face axes.
            if len < 1e-6 {
                continue;
            }
            let u = c / len;
            let bound = u.dot(d_a).abs()
                - inner_support(a.hull, u)
                - inner_support(b.hull, b_to_a.transpose() * u);
            if bound + slack <= best.separation.max(floor) {
                continue;
            }
            let (da, db) = (a.rotation * ea, b.rotation * b.hull.edge_directions[j]);
            let c = da.cross(db);
            let len = c.length();
            if len < 1e-6 {
                continue;
            }
            let mut axis = c / len;
            if axis.dot(towards_b) < 0.0 {
                axis = -axis;
            }
            let s = axis.dot(b.support(-axis)) - axis.dot(a.support(axis));
            if s > best.separation {
                best = EdgeQuery {
                    separation: s,
                    axis,
                    dir_a: da,
                    dir_b: db,
                    edges: None,
                };
            }
        }
    }
    best
}

/// Edge i of the hull: its index and its ends in the world.
fn posed_edge(h: &PosedHull, i: usize) -> (usize, DVec3, DVec3) {
    let e = h.hull.edges[i];
    (i, h.vertex(e[0]), h.vertex(e[1]))
}

/// The edge of the hull parallel to `dir` that lies farthest along `axis`: its index and ends.
fn extreme_edge(h: &PosedHull, dir: DVec3, axis: DVec3) -> (usize, DVec3, DVec3) {
    let mut best = (0, DVec3::ZERO, DVec3::ZERO);
    let mut best_dot = f64::NEG_INFINITY;
    for (i, e) in h.hull.edges.iter().enumerate() {
        let (p, q) = (h.vertex(e[0]), h.vertex(e[1]));
        let d = q - p;
        if d.cross(dir).length_squared() > 1e-12 * d.length_squared() {
            continue;
        }
        let x = axis.dot(p + q);
        if x > best_dot {
            best_dot = x;
            best = (i, p, q);
        }
    }
    best
}

/// Contact of two hulls closer than `margin`: the normal from A to B, with points in `out`.
pub fn hull_hull(
    a: &PosedHull,
    b: &PosedHull,
    margin: f64,
    buffers: &mut ClipBuffers,
    out: &mut Vec<RawPoint>,
) -> Option<DVec3> {
    let face_a = face_query(a, b);
    if face_a.0 > margin {
        return None;
    }
    let face_b = face_query(b, a);
    if face_b.0 > margin {
        return None;
    }
    let best_face = face_a.0.max(face_b.0);
    // Edge axes matter only when they separate the hulls or beat the faces.
    let edge = if use_gauss_map(a.hull, b.hull) {
        gauss_edge_query(a, b, buffers)
    } else {
        edge_query(
            a,
            b,
            margin.min(best_face + EDGE_TOLERANCE),
            &mut buffers.directions,
        )
    };
    manifold(a, b, [face_a, face_b], &edge, margin, buffers, out)
}

/// The contact the separating axis test's answers give: none when an axis separates the
/// hulls by more than `margin`; one point between two edges when the best edge axis beats the
/// faces; else the incident face clipped against the better reference face (`faces`: A's
/// best face against B and B's against A, as (separation, face index)).
pub(super) fn manifold(
    a: &PosedHull,
    b: &PosedHull,
    [(sep_a, face_a), (sep_b, face_b)]: [(f64, usize); 2],
    edge: &EdgeQuery,
    margin: f64,
    buffers: &mut ClipBuffers,
    out: &mut Vec<RawPoint>,
) -> Option<DVec3> {
    if edge.separation > margin {
        return None;
    }
    if edge.separation > sep_a.max(sep_b) + EDGE_TOLERANCE {
        let ((ia, pa, qa), (ib, pb, qb)) = match edge.edges {
            Some((ia, ib)) => (posed_edge(a, ia), posed_edge(b, ib)),
            None => (
                extreme_edge(a, edge.dir_a, edge.axis),
                extreme_edge(b, edge.dir_b, -edge.axis),
            ),
        };
        let (on_a, on_b, _, _) = segment_segment(pa, qa, pb, qb);
        let feature = 1u64 << 63 | (ia as u64) << 20 | ib as u64;
        out.push(RawPoint {
            on_a,
            on_b,
            separation: (on_b - on_a).dot(edge.axis),
            feature,
        });
        return Some(edge.axis);
    }
    if sep_b > sep_a + FACE_TOLERANCE {
        let n = clip_faces(b, face_b, a, margin, buffers, out);
        for p in out.iter_mut() {
            std::mem::swap(&mut p.on_a, &mut p.on_b);
            p.feature |= 1 << 62;
        }
        Some(-n)
    } else {
        Some(clip_faces(a, face_a, b, margin, buffers, out))
    }
}

/// Clips the incident face of `inc` against the side planes of face `rf` of `reference`;
/// pushes the points as (on reference, on incident) and returns the reference face's normal.
fn clip_faces(
    reference: &PosedHull,
    rf: usize,
    inc: &PosedHull,
    margin: f64,
    buffers: &mut ClipBuffers,
    out: &mut Vec<RawPoint>,
) -> DVec3 {
    let face = &reference.hull.faces[rf];
    let n = reference.rotation * face.normal;
    let plane = n.dot(reference.position) + face.offset;
    let fi = inc.hull.face_towards(inc.rotation.transpose() * -n);
    let ClipBuffers {
        polygon, clipped, ..
    } = buffers;
    polygon.clear();
    polygon.extend(
        inc.hull.faces[fi]
            .vertices
            .iter()
            .enumerate()
            .map(|(k, &v)| (inc.vertex(v), k as u64)),
    );
    let m = face.vertices.len();
    for k in 0..m {
        let p = reference.vertex(face.vertices[k]);
        let q = reference.vertex(face.vertices[(k + 1) % m]);
        let side = (q - p).cross(n).normalize();
        clip(polygon, clipped, side, side.dot(p), k as u64);
        std::mem::swap(polygon, clipped);
        if polygon.is_empty() {
            break;
        }
    }
    let pair = (rf as u64) << 50 | (fi as u64) << 38;
    for &(p, tag) in polygon.iter() {
        let separation = n.dot(p) - plane;
        if separation < margin {
            out.push(RawPoint {
                on_a: p - n * separation,
                on_b: p,
                separation,
                feature: pair | tag,
            });
        }
    }
    n
}

/// Sutherland-Hodgman: keeps the part of `input` with side . p <= offset. A new vertex where
/// an edge crosses the plane is tagged by the edge's two vertex tags and the plane's index.
pub fn clip(
    input: &[(DVec3, u64)],
    output: &mut Vec<(DVec3, u64)>,
    side: DVec3,
    offset: f64,
    plane: u64,
) {
    output.clear();
    let n = input.len();
    for k in 0..n {
        let (p, tp) = input[k];
        let (q, tq) = input[(k + 1) % n];
        let (dp, dq) = (side.dot(p) - offset, side.dot(q) - offset);
        if dp <= 0.0 {
            output.push((p, tp));
        }
        if (dp <= 0.0) != (dq <= 0.0) {
            let t = dp / (dp - dq);
            output.push((
                p + (q - p) * t,
                1 << 37 | (plane & 0xFFF) << 24 | (tp & 0xFFF) << 12 | (tq & 0xFFF),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn icosahedron(r: f64, stretch: DVec3) -> ConvexHull {
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
        ConvexHull::from_points(
            &points
                .into_iter()
                .map(|p| p * scale * stretch)
                .collect::<Vec<_>>(),
        )
        .unwrap()
    }

    #[test]
    fn every_edge_joins_two_faces() {
        let h = icosahedron(1.0, DVec3::ONE);
        assert_eq!(
            (h.faces.len(), h.edges.len(), h.edge_faces.len()),
            (20, 30, 30)
        );
        for (e, f) in h.edges.iter().zip(&h.edge_faces) {
            for face in f.map(|i| &h.faces[i as usize]) {
                assert!(e.iter().all(|v| face.vertices.contains(v)));
            }
            assert_ne!(f[0], f[1]);
        }
    }

    #[test]
    fn gauss_map_edges_give_the_same_separating_axis_test() {
        // Overlapping hulls: the deepest separation over face axes and edge pairs is the same
        // whether all edge directions are paired or only the edges the Gauss map keeps.
        let (ha, hb) = (
            icosahedron(0.5, DVec3::new(1.0, 0.8, 0.6)),
            icosahedron(0.4, DVec3::new(0.7, 1.0, 0.9)),
        );
        let mut buffers = ClipBuffers::default();
        let mut edge_wins = 0;
        for k in 0..200 {
            let t = k as f64;
            let qa = DQuat::from_euler(glam::EulerRot::XYZ, 0.7 * t, 1.3 * t, 0.4 * t);
            let qb = DQuat::from_euler(glam::EulerRot::XYZ, 1.1 * t + 0.2, 0.3 * t, 0.9 * t + 0.5);
            let u = DVec3::new((1.7 * t).sin(), (0.9 * t).cos(), (2.3 * t + 1.0).sin()).normalize();
            let (a, b) = (
                PosedHull::new(&ha, DVec3::new(0.1, -0.2, 0.3), qa),
                PosedHull::new(&hb, DVec3::new(0.1, -0.2, 0.3) + u * (0.3 + 0.004 * t), qb),
            );
            let faces = face_query(&a, &b).0.max(face_query(&b, &a).0);
            if faces >= 0.0 {
                continue;
            }
            let all = edge_query(&a, &b, f64::NEG_INFINITY, &mut buffers.directions);
            let gauss = gauss_edge_query(&a, &b, &mut buffers);
            assert!(
                (faces.max(all.separation) - faces.max(gauss.separation)).abs() < 1e-12,
                "pose {k}: {} against {}",
                all.separation,
                gauss.separation
            );
            // The Gauss map's edges are the support features along its axis.
            let (ia, ib) = gauss.edges.unwrap();
            let (_, pa, _) = posed_edge(&a, ia);
            let (_, pb, _) = posed_edge(&b, ib);
            assert!(
                (gauss.axis.dot(a.support(gauss.axis) - pa)).abs() < 1e-12
                    && (gauss.axis.dot(b.support(-gauss.axis) - pb)).abs() < 1e-12
            );
            edge_wins += (gauss.separation > faces) as usize;
        }
        assert!(
            edge_wins >= 5,
            "only {edge_wins} poses where an edge pair wins"
        );
    }
}
