//! Ray casts against shapes and bodies: what a viewer's mouse click picks, and what a script
//! can ask ("what does this laser hit first?").

use crate::body::{BodyHandle, BodySet};
use crate::math::{DQuat, DVec3};
use crate::shape::{ConvexHull, Polygon, Shape};

/// The first point a ray meets: at `origin + t * direction` (direction of unit length), on
/// `body`, with the surface's outward normal.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayHit {
    pub body: BodyHandle,
    pub t: f64,
    pub point: DVec3,
    pub normal: DVec3,
}

/// The entry of a ray (body frame, unit direction) into a shape: distance and outward normal.
/// A ray starting inside a solid hits it at t = 0.
pub fn ray_shape(shape: &Shape, origin: DVec3, dir: DVec3, max_t: f64) -> Option<(f64, DVec3)> {
    match shape {
        Shape::Sphere { radius } => ray_sphere(DVec3::ZERO, *radius, origin, dir, max_t),
        Shape::Box { hull, .. } | Shape::Convex { hull, .. } => ray_hull(hull, origin, dir, max_t),
        Shape::Capsule {
            radius,
            half_height,
        } => ray_capsule(*radius, *half_height, origin, dir, max_t),
        Shape::Plane => ray_half_space(origin, dir, max_t),
        Shape::Polygon { polygon } => ray_polygon(polygon, origin, dir, max_t),
    }
}

fn ray_sphere(
    centre: DVec3,
    radius: f64,
    origin: DVec3,
    dir: DVec3,
    max_t: f64,
) -> Option<(f64, DVec3)> {
    let m = origin - centre;
    let c = m.length_squared() - radius * radius;
    if c <= 0.0 {
        return Some((0.0, m.normalize_or(DVec3::Y)));
    }
    let b = m.dot(dir);
    let disc = b * b - c;
    if b > 0.0 || disc < 0.0 {
        return None;
    }
    let t = -b - disc.sqrt();
    (t <= max_t).then(|| (t, (m + dir * t) / radius))
}

/// Clips the ray against every face plane (Cyrus-Beck).
fn ray_hull(hull: &ConvexHull, origin: DVec3, dir: DVec3, max_t: f64) -> Option<(f64, DVec3)> {
    let planes = hull
        .faces
        .iter()
        .map(|f| (f.normal.dot(origin) - f.offset, f.normal.dot(dir), f.normal));
    let (t, normal) = clip(planes, max_t)?;
    Some((t, normal.unwrap_or(-dir)))
}

/// Clips a ray, from 0 to `max_t`, by half-spaces given as the ray origin's height above each
/// plane, the rate at which the ray climbs it, and the plane's normal: where it enters them
/// all, and the normal of the plane it enters last (None: it starts inside).
fn clip<N: Copy>(
    planes: impl Iterator<Item = (f64, f64, N)>,
    max_t: f64,
) -> Option<(f64, Option<N>)> {
    let (mut enter, mut leave) = (0.0, max_t);
    let mut normal = None;
    for (height, rate, n) in planes {
        if rate == 0.0 {
            if height > 0.0 {
                return None;
            }
            continue;
        }
        let t = -height / rate;
        if rate < 0.0 {
            if t > enter {
                enter = t;
                normal = Some(n);
            }
        } else {
            leave = leave.min(t);
        }
        if enter > leave {
            return None;
        }
    }
    Some((enter, normal))
}

/// A polygon of a 2D world, for a ray in its plane: clipped by every edge (Cyrus-Beck), or, for
/// a segment, crossing it (a bare edge) or entering the capsule about it (a rounded one).
fn ray_polygon(p: &Polygon, origin: DVec3, dir: DVec3, max_t: f64) -> Option<(f64, DVec3)> {
    let (o, d) = (origin.truncate(), dir.truncate());
    let v = &p.vertices;
    if v.len() == 2 {
        let along = v[1] - v[0];
        let half = along.length() / 2.0;
        let (axis, n) = (along / (2.0 * half), p.normals[0]);
        if p.radius > 0.0 {
            // In the frame whose y axis runs along the segment, it is a capsule.
            let local = |u: DVec3| DVec3::new(u.truncate().dot(n), u.truncate().dot(axis), u.z);
            let (t, m) = ray_capsule(p.radius, half, local(origin), local(dir), max_t)?;
            return Some((t, (n * m.x + axis * m.y).extend(m.z)));
        }
        let (height, rate) = (n.dot(o - v[0]), n.dot(d));
        let t = -height / rate;
        let q = o + d * t;
        let inside = (q - (v[0] + v[1]) * 0.5).dot(axis).abs() <= half;
        return (rate != 0.0 && (0.0..=max_t).contains(&t) && inside)
            .then(|| (t, if rate < 0.0 { n } else { -n }.extend(0.0)));
    }
    let planes = v
        .iter()
        .zip(&p.normals)
        .map(|(&vi, &n)| (n.dot(o - vi), n.dot(d), n));
    let (t, normal) = clip(planes, max_t)?;
    Some((t, normal.map_or(-dir, |n| n.extend(0.0))))
}

fn ray_capsule(
    radius: f64,
    half_height: f64,
    origin: DVec3,
    dir: DVec3,
    max_t: f64,
) -> Option<(f64, DVec3)> {
    // The side: the infinite cylinder about y, kept where |y| <= half_height.
    let mut best: Option<(f64, DVec3)> = None;
    let (o, d) = (
        DVec3::new(origin.x, 0.0, origin.z),
        DVec3::new(dir.x, 0.0, dir.z),
    );
    let a = d.length_squared();
    let c = o.length_squared() - radius * radius;
    if c <= 0.0 && origin.y.abs() <= half_height {
        return Some((0.0, o.normalize_or(DVec3::X)));
    }
    if a > 0.0 {
        let b = o.dot(d);
        let disc = b * b - a * c;
        if disc >= 0.0 {
            let t = (-b - disc.sqrt()) / a;
            let p = origin + dir * t;
            if t >= 0.0 && t <= max_t && p.y.abs() <= half_height {
                best = Some((t, DVec3::new(p.x, 0.0, p.z) / radius));
            }
        }
    }
    for cap in [-half_height, half_height] {
        if let Some(hit) = ray_sphere(DVec3::new(0.0, cap, 0.0), radius, origin, dir, max_t) {
            if best.is_none_or(|b| hit.0 < b.0) {
                best = Some(hit);
            }
        }
    }
    best
}

/// The half-space y <= 0 of a plane body.
fn ray_half_space(origin: DVec3, dir: DVec3, max_t: f64) -> Option<(f64, DVec3)> {
    if origin.y <= 0.0 {
        return Some((0.0, DVec3::Y));
    }
    let t = -origin.y / dir.y;
    (dir.y < 0.0 && t <= max_t).then_some((t, DVec3::Y))
}

/// The first body of `bodies` a ray from `origin` along `direction` meets within
/// `max_distance`, or None. Planes are skipped when `solids_only`. A ray starting inside a body
/// hits it at 0.
pub fn cast(
    bodies: &BodySet,
    origin: DVec3,
    direction: DVec3,
    max_distance: f64,
    solids_only: bool,
) -> Option<RayHit> {
    let mut best: Option<RayHit> = None;
    each_hit(
        bodies,
        origin,
        direction,
        solids_only,
        max_distance,
        |hit| {
            // Within the limit, so nearer than the best so far.
            best = Some(hit);
            hit.t
        },
    );
    best
}

/// Every body of `bodies` a ray meets within `max_distance`, each where the ray enters it,
/// nearest first (ties in body order).
pub fn cast_all(
    bodies: &BodySet,
    origin: DVec3,
    direction: DVec3,
    max_distance: f64,
    solids_only: bool,
) -> Vec<RayHit> {
    let mut hits = Vec::new();
    each_hit(
        bodies,
        origin,
        direction,
        solids_only,
        max_distance,
        |hit| {
            hits.push(hit);
            max_distance
        },
    );
    hits.sort_by(|a, b| a.t.total_cmp(&b.t));
    hits
}

/// Calls `found` with the entry of the ray into each body it meets within `limit`, which
/// `found` then sets (the nearest hit so far, for the first hit alone).
fn each_hit(
    bodies: &BodySet,
    origin: DVec3,
    direction: DVec3,
    solids_only: bool,
    mut limit: f64,
    mut found: impl FnMut(RayHit) -> f64,
) {
    let dir = direction.normalize_or_zero();
    if dir == DVec3::ZERO || !origin.is_finite() {
        return;
    }
    for (&h, b) in bodies.handles().iter().zip(bodies.bodies()) {
        if solids_only && matches!(b.shape, Shape::Plane) {
            continue;
        }
        let inv: DQuat = b.orientation.inverse();
        if let Some((t, n)) = ray_shape(&b.shape, inv * (origin - b.position), inv * dir, limit) {
            limit = found(RayHit {
                body: h,
                t,
                point: origin + dir * t,
                normal: b.orientation * n,
            });
        }
    }
}

/// Whether world point `p` lies inside body `b` (on its surface counts).
pub fn contains(b: &crate::body::Body, p: DVec3) -> bool {
    let inv: DQuat = b.orientation.inverse();
    // A ray starting inside a solid meets it at once (any direction does).
    ray_shape(&b.shape, inv * (p - b.position), DVec3::Y, 0.0).is_some_and(|(t, _)| t == 0.0)
}
