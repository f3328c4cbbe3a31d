//! Narrow phase: for a pair of shapes, the contact normal and points (with signed separation)
//! of every feature closer than a margin. Pairs are taken in `ShapeKind` order (plane, box,
//! sphere), so each function below handles one ordered pair; the normal points from A to B.

use super::manifold::{reduce_to_four, RawPoint};
use crate::math::{DMat3, DQuat, DVec3};
use crate::shape::Shape;

/// A shape placed in the world.
#[derive(Clone, Copy, Debug)]
pub struct Posed<'a> {
    pub shape: &'a Shape,
    pub position: DVec3,
    pub orientation: DQuat,
}

/// Finds the contact between `a` and `b` (with `a.shape.kind() <= b.shape.kind()`).
/// Points farther apart than `margin` are left out. Returns the normal (from A to B), with the
/// points in `out`, or None when the pair is farther apart than the margin or the pair of
/// shapes has no contact model.
pub fn collide(a: Posed, b: Posed, margin: f64, out: &mut Vec<RawPoint>) -> Option<DVec3> {
    out.clear();
    let normal = match (a.shape, b.shape) {
        (Shape::Plane, Shape::Sphere { radius }) => plane_sphere(a, b.position, *radius, out),
        (Shape::Plane, Shape::Box { half_extents }) => plane_box(a, b, *half_extents, margin, out),
        (Shape::Sphere { radius: ra }, Shape::Sphere { radius: rb }) => sphere_sphere(a.position, *ra, b.position, *rb, out),
        (Shape::Box { half_extents }, Shape::Sphere { radius }) => box_sphere(a, *half_extents, b.position, *radius, out),
        _ => return None,
    };
    out.retain(|p| p.separation < margin);
    if out.is_empty() {
        return None;
    }
    reduce_to_four(out, normal);
    Some(normal)
}

fn plane_normal(plane: Posed) -> DVec3 {
    plane.orientation * DVec3::Y
}

fn plane_sphere(plane: Posed, centre: DVec3, radius: f64, out: &mut Vec<RawPoint>) -> DVec3 {
    let n = plane_normal(plane);
    let height = n.dot(centre - plane.position);
    out.push(RawPoint { on_a: centre - n * height, on_b: centre - n * radius, separation: height - radius, feature: 0 });
    n
}

fn plane_box(plane: Posed, bx: Posed, h: DVec3, margin: f64, out: &mut Vec<RawPoint>) -> DVec3 {
    let n = plane_normal(plane);
    for corner in 0..8u32 {
        let local = DVec3::new(
            if corner & 1 == 0 { -h.x } else { h.x },
            if corner & 2 == 0 { -h.y } else { h.y },
            if corner & 4 == 0 { -h.z } else { h.z },
        );
        let v = bx.position + bx.orientation * local;
        let height = n.dot(v - plane.position);
        if height < margin {
            out.push(RawPoint { on_a: v - n * height, on_b: v, separation: height, feature: corner });
        }
    }
    n
}

fn sphere_sphere(ca: DVec3, ra: f64, cb: DVec3, rb: f64, out: &mut Vec<RawPoint>) -> DVec3 {
    let d = cb - ca;
    let dist = d.length();
    // Coincident centres: any direction separates them; pick +y for determinism.
    let n = if dist > 1e-12 { d / dist } else { DVec3::Y };
    out.push(RawPoint { on_a: ca + n * ra, on_b: cb - n * rb, separation: dist - ra - rb, feature: 0 });
    n
}

fn box_sphere(bx: Posed, h: DVec3, centre: DVec3, radius: f64, out: &mut Vec<RawPoint>) -> DVec3 {
    let r = DMat3::from_quat(bx.orientation);
    let local = r.transpose() * (centre - bx.position);
    let clamped = local.clamp(-h, h);
    let (normal_local, surface_local, gap) = if clamped != local {
        // Centre outside the box: the closest point of the box is the clamped centre.
        let d = local - clamped;
        let dist = d.length();
        (d / dist, clamped, dist)
    } else {
        // Centre inside: leave through the nearest face.
        let depth = h - local.abs();
        let axis = if depth.x <= depth.y && depth.x <= depth.z { 0 } else if depth.y <= depth.z { 1 } else { 2 };
        let mut n = DVec3::ZERO;
        n[axis] = if local[axis] >= 0.0 { 1.0 } else { -1.0 };
        let mut surface = local;
        surface[axis] = h[axis] * n[axis];
        (n, surface, -depth[axis])
    };
    let n = r * normal_local;
    let on_a = bx.position + r * surface_local;
    out.push(RawPoint { on_a, on_b: centre - n * radius, separation: gap - radius, feature: 0 });
    n
}
