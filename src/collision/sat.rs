//! Polyhedron against polyhedron (boxes and convex hulls): the separating axis test over both
//! hulls' face normals and every pair of edge directions, then a manifold.
//! - A face axis wins: the face is the reference, the other hull's face most opposed to it is
//!   the incident face, which is clipped against the reference face's side planes
//!   (Sutherland-Hodgman); each clipped point below the reference plane (or within the margin)
//!   is a contact with its own depth.
//! - An edge pair wins: one point, the closest points of the two edges.
//! Face axes are preferred over edge axes that are barely better, so resting contacts do not
//! flicker between the two.

use super::closest::segment_segment;
use super::manifold::RawPoint;
use crate::math::{DMat3, DQuat, DVec3};
use crate::shape::ConvexHull;

/// An edge axis must beat the best face axis by this much (m) to be used.
const EDGE_TOLERANCE: f64 = 1e-4;
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
        PosedHull { hull, position, rotation: DMat3::from_quat(orientation) }
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
        if f.normal.dot(d_a) - inner_support(b.hull, a_to_b * f.normal) - f.offset + slack < best.0 {
            continue;
        }
        let s = separation(i);
        if s > best.0 || (s == best.0 && i < best.1) {
            best = (s, i);
        }
    }
    best
}

struct EdgeQuery {
    separation: f64,
    axis: DVec3,
    dir_a: DVec3,
    dir_b: DVec3,
}

/// Largest separation along the cross products of edge directions, the axis pointing from A
/// towards B, among those that can exceed `floor`: an axis whose bound from the hulls'
/// inscribed boxes (axis . (B's origin - A's origin) minus both boxes' supports, in A's frame)
/// is not above the floor or the best so far is skipped. Returns a separation of -infinity
/// when no axis can exceed the floor. `b_dirs` is a buffer.
fn edge_query(a: &PosedHull, b: &PosedHull, floor: f64, b_dirs: &mut Vec<DVec3>) -> EdgeQuery {
    let mut best = EdgeQuery { separation: f64::NEG_INFINITY, axis: DVec3::ZERO, dir_a: DVec3::ZERO, dir_b: DVec3::ZERO };
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
            let bound = u.dot(d_a).abs() - inner_support(a.hull, u) - inner_support(b.hull, b_to_a.transpose() * u);
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
                best = EdgeQuery { separation: s, axis, dir_a: da, dir_b: db };
            }
        }
    }
    best
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
pub fn hull_hull(a: &PosedHull, b: &PosedHull, margin: f64, buffers: &mut ClipBuffers, out: &mut Vec<RawPoint>) -> Option<DVec3> {
    let (sep_a, face_a) = face_query(a, b);
    if sep_a > margin {
        return None;
    }
    let (sep_b, face_b) = face_query(b, a);
    if sep_b > margin {
        return None;
    }
    let best_face = sep_a.max(sep_b);
    // Edge axes matter only when they separate the hulls or beat the faces.
    let edge = edge_query(a, b, margin.min(best_face + EDGE_TOLERANCE), &mut buffers.directions);
    if edge.separation > margin {
        return None;
    }
    if edge.separation > best_face + EDGE_TOLERANCE {
        let (ia, pa, qa) = extreme_edge(a, edge.dir_a, edge.axis);
        let (ib, pb, qb) = extreme_edge(b, edge.dir_b, -edge.axis);
        let (on_a, on_b, _, _) = segment_segment(pa, qa, pb, qb);
        let feature = 1u64 << 63 | (ia as u64) << 20 | ib as u64;
        out.push(RawPoint { on_a, on_b, separation: (on_b - on_a).dot(edge.axis), feature });
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
fn clip_faces(reference: &PosedHull, rf: usize, inc: &PosedHull, margin: f64, buffers: &mut ClipBuffers, out: &mut Vec<RawPoint>) -> DVec3 {
    let face = &reference.hull.faces[rf];
    let n = reference.rotation * face.normal;
    let plane = n.dot(reference.position) + face.offset;
    let fi = inc.hull.face_towards(inc.rotation.transpose() * -n);
    let ClipBuffers { polygon, clipped, .. } = buffers;
    polygon.clear();
    polygon.extend(inc.hull.faces[fi].vertices.iter().enumerate().map(|(k, &v)| (inc.vertex(v), k as u64)));
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
            out.push(RawPoint { on_a: p - n * separation, on_b: p, separation, feature: pair | tag });
        }
    }
    n
}

/// Sutherland-Hodgman: keeps the part of `input` with side . p <= offset. A new vertex where
/// an edge crosses the plane is tagged by the edge's two vertex tags and the plane's index.
pub fn clip(input: &[(DVec3, u64)], output: &mut Vec<(DVec3, u64)>, side: DVec3, offset: f64, plane: u64) {
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
            output.push((p + (q - p) * t, 1 << 37 | (plane & 0xFFF) << 24 | (tp & 0xFFF) << 12 | (tq & 0xFFF)));
        }
    }
}
