//! A polyhedron against a rounded shape: a core (one point for a sphere, a segment for a
//! capsule) grown by a radius. Works in the hull's body frame.
//! - Core outside the hull: GJK gives the closest points and the normal. When the closest
//!   feature is a face and a capsule lies parallel to it, the segment clipped to the face gives
//!   two points, so the capsule rests flat.
//! - Core touching or inside the hull: the separating axis test over the hull's face normals
//!   (and, for a segment, the cross products of its direction with the hull's edges) finds the
//!   shallowest way out.

use super::closest::segment_segment;
use super::gjk;
use super::manifold::RawPoint;
use super::sat::{clip, ClipBuffers, PosedHull};
use crate::math::DVec3;
use crate::shape::ConvexHull;

/// How closely a normal must match a face normal to count as that face's contact.
const FACE_ALIGNMENT: f64 = 0.9999;
/// An edge axis must beat the best face axis by this much (m).
const EDGE_TOLERANCE: f64 = 1e-4;

/// Contact of a hull (A) with a core of one or two world points grown by `radius` (B).
pub fn hull_core(
    h: &PosedHull,
    core_world: &[DVec3],
    radius: f64,
    margin: f64,
    buffers: &mut ClipBuffers,
    out: &mut Vec<RawPoint>,
) -> Option<DVec3> {
    let rt = h.rotation.transpose();
    let mut core = [DVec3::ZERO; 2];
    for (c, w) in core.iter_mut().zip(core_world) {
        *c = rt * (*w - h.position);
    }
    let core = &core[..core_world.len()];
    let hull = h.hull;
    // Farther from the hull's origin than its farthest vertex (with the radius and margin):
    // apart, without GJK.
    if distance_to_origin(core) > hull.radius + radius + margin {
        return None;
    }
    let local_normal = match gjk::distance(&hull.vertices, core) {
        Some(c) => {
            if c.distance - radius > margin {
                return None;
            }
            let n = (c.on_b - c.on_a) / c.distance;
            let f = hull.face_towards(n);
            if core.len() == 2
                && hull.faces[f].normal.dot(n) > FACE_ALIGNMENT
                && face_points(hull, f, core, radius, margin, buffers, out)
            {
                hull.faces[f].normal
            } else {
                out.push(RawPoint {
                    on_a: c.on_a,
                    on_b: c.on_b - n * radius,
                    separation: c.distance - radius,
                    feature: 1 << 40,
                });
                n
            }
        }
        None => deepest_exit(hull, core, radius, margin, buffers, out)?,
    };
    for p in out.iter_mut() {
        p.on_a = h.world(p.on_a);
        p.on_b = h.world(p.on_b);
    }
    Some(h.rotation * local_normal)
}

/// Distance from the origin to a point or a segment.
fn distance_to_origin(core: &[DVec3]) -> f64 {
    match core {
        [p, q] => {
            let d = *q - *p;
            let t = if d == DVec3::ZERO {
                0.0
            } else {
                (-p.dot(d) / d.length_squared()).clamp(0.0, 1.0)
            };
            (*p + d * t).length()
        }
        _ => core[0].length(),
    }
}

/// A box (A, half extents `half`) against a sphere (B): while the centre is outside the box,
/// the closest point of the box is the centre clamped to it (what GJK would find, in closed
/// form); otherwise as for any hull.
pub fn box_sphere(
    h: &PosedHull,
    half: DVec3,
    centre: DVec3,
    radius: f64,
    margin: f64,
    buffers: &mut ClipBuffers,
    out: &mut Vec<RawPoint>,
) -> Option<DVec3> {
    let c = h.rotation.transpose() * (centre - h.position);
    let closest = c.clamp(-half, half);
    let d = c - closest;
    let distance = d.length();
    if distance == 0.0 {
        return hull_core(h, &[centre], radius, margin, buffers, out);
    }
    if distance - radius > margin {
        return None;
    }
    let n = d / distance;
    out.push(RawPoint {
        on_a: h.world(closest),
        on_b: h.world(c - n * radius),
        separation: distance - radius,
        feature: 1 << 40,
    });
    Some(h.rotation * n)
}

/// Points of the core over face `f` (clipped to its side planes), each with its own depth.
/// Returns false when no part of the core lies over the face.
fn face_points(
    hull: &ConvexHull,
    f: usize,
    core: &[DVec3],
    radius: f64,
    margin: f64,
    buffers: &mut ClipBuffers,
    out: &mut Vec<RawPoint>,
) -> bool {
    let face = &hull.faces[f];
    let n = face.normal;
    let ClipBuffers {
        polygon: seg,
        clipped,
        ..
    } = buffers;
    seg.clear();
    seg.extend(core.iter().enumerate().map(|(k, &p)| (p, k as u64)));
    let m = face.vertices.len();
    for k in 0..m {
        let p = hull.vertices[face.vertices[k] as usize];
        let q = hull.vertices[face.vertices[(k + 1) % m] as usize];
        let side = (q - p).cross(n).normalize();
        // A segment is a degenerate polygon: clipping its two-vertex loop keeps its inside part.
        clip(seg, clipped, side, side.dot(p), k as u64);
        std::mem::swap(seg, clipped);
        if seg.is_empty() {
            return false;
        }
    }
    // What is left of the segment: its two extreme points (clipping repeats crossing points).
    if core.len() == 2 {
        let d = core[1] - core[0];
        let lo = seg
            .iter()
            .copied()
            .min_by(|x, y| d.dot(x.0).total_cmp(&d.dot(y.0)));
        let hi = seg
            .iter()
            .copied()
            .max_by(|x, y| d.dot(x.0).total_cmp(&d.dot(y.0)));
        seg.clear();
        seg.extend(lo);
        seg.extend(hi.filter(|h| lo.is_none_or(|l| (h.0 - l.0).length_squared() > 1e-24)));
    }
    let before = out.len();
    for &(p, tag) in seg.iter() {
        let height = n.dot(p) - face.offset;
        if height - radius < margin {
            out.push(RawPoint {
                on_a: p - n * height,
                on_b: p - n * radius,
                separation: height - radius,
                feature: (f as u64) << 20 | tag,
            });
        }
    }
    out.len() > before
}

/// The core reaches into the hull: the axis along which it is least deep, and its points.
fn deepest_exit(
    hull: &ConvexHull,
    core: &[DVec3],
    radius: f64,
    margin: f64,
    buffers: &mut ClipBuffers,
    out: &mut Vec<RawPoint>,
) -> Option<DVec3> {
    let mut best_face = (f64::NEG_INFINITY, 0);
    for (i, f) in hull.faces.iter().enumerate() {
        let s = core
            .iter()
            .map(|&p| f.normal.dot(p) - f.offset)
            .fold(f64::INFINITY, f64::min);
        if s > best_face.0 {
            best_face = (s, i);
        }
    }
    if core.len() == 2 {
        let d = core[1] - core[0];
        let mid = 0.5 * (core[0] + core[1]);
        let mut best_edge = (f64::NEG_INFINITY, DVec3::ZERO);
        for &e in &hull.edge_directions {
            let c = e.cross(d);
            if c.length_squared() < 1e-12 * d.length_squared() {
                continue;
            }
            let mut axis = c.normalize();
            if axis.dot(mid) < 0.0 {
                axis = -axis;
            }
            let s = axis.dot(core[0]).min(axis.dot(core[1])) - axis.dot(hull.support(axis).1);
            if s > best_edge.0 {
                best_edge = (s, axis);
            }
        }
        if best_edge.0 > best_face.0 + EDGE_TOLERANCE {
            let axis = best_edge.1;
            let (p, q) = hull
                .edges
                .iter()
                .map(|e| (hull.vertices[e[0] as usize], hull.vertices[e[1] as usize]))
                .filter(|(p, q)| (*q - *p).cross(d).normalize().dot(axis).abs() > 1.0 - 1e-9)
                .max_by(|x, y| axis.dot(x.0 + x.1).total_cmp(&axis.dot(y.0 + y.1)))?;
            let (on_hull, on_core, _, _) = segment_segment(p, q, core[0], core[1]);
            let separation = (on_core - on_hull).dot(axis) - radius;
            out.push(RawPoint {
                on_a: on_hull,
                on_b: on_core - axis * radius,
                separation,
                feature: 1 << 41,
            });
            return Some(axis);
        }
    }
    let f = best_face.1;
    let n = hull.faces[f].normal;
    if core.len() == 1 || !face_points(hull, f, core, radius, margin, buffers, out) {
        // The deepest core point, taken straight out through the face.
        let p = core
            .iter()
            .copied()
            .min_by(|x, y| n.dot(*x).total_cmp(&n.dot(*y)))?;
        let height = n.dot(p) - hull.faces[f].offset;
        out.push(RawPoint {
            on_a: p - n * height,
            on_b: p - n * radius,
            separation: height - radius,
            feature: (f as u64) << 20 | 1 << 42,
        });
    }
    Some(n)
}
