//! Narrow phase: for a pair of shapes, the contact normal and points (with signed separation)
//! of every feature closer than a margin. Pairs are taken in `ShapeKind` order (plane, box,
//! convex, capsule, sphere), so each function below handles one ordered pair; the normal
//! points from A to B.
//!
//! Boxes and convex hulls share the polyhedron code (sat.rs); two boxes answer its separating
//! axis test in closed form (box_box.rs). Spheres and capsules are a core (a point or a
//! segment) with a radius: against a polyhedron, GJK gives the closest points of the core
//! while it is outside, and the separating axis test its deepest direction once it is inside
//! (rounded.rs). The polygons of 2D worlds meet in their plane (planar.rs).

use super::box_box::box_box;
use super::closest::{point_on_segment, segment_segment};
use super::manifold::{reduce_to_four, RawPoint};
use super::planar::{self, Frame};
use super::rounded::{box_sphere, hull_core};
use super::sat::{hull_hull, ClipBuffers, PosedHull};
use crate::math::{DQuat, DVec3};
use crate::shape::Shape;

/// A shape placed in the world.
#[derive(Clone, Copy, Debug)]
pub struct Posed<'a> {
    pub shape: &'a Shape,
    pub position: DVec3,
    pub orientation: DQuat,
    /// A body of a 2D world: it lies in the x-y plane and turns about z.
    pub planar: bool,
}

impl Posed<'_> {
    /// A capsule's segment in world space (a sphere's is its centre, twice).
    fn core(&self) -> [DVec3; 2] {
        match self.shape {
            Shape::Capsule { half_height, .. } => {
                let h = self.orientation * DVec3::Y * *half_height;
                [self.position - h, self.position + h]
            }
            _ => [self.position; 2],
        }
    }

    /// The core and radius of a rounded shape (a sphere's centre twice, a capsule's segment);
    /// None for other shapes.
    pub(crate) fn rounded_core(&self) -> Option<([DVec3; 2], f64)> {
        match self.shape {
            Shape::Sphere { radius } | Shape::Capsule { radius, .. } => {
                Some((self.core(), *radius))
            }
            _ => None,
        }
    }
}

/// The narrow phase with its reusable buffers.
#[derive(Default)]
pub struct NarrowPhase {
    /// The points of the last pair collided.
    pub points: Vec<RawPoint>,
    clip: ClipBuffers,
}

impl NarrowPhase {
    /// Finds the contact between `a` and `b` (with `a.shape.kind() <= b.shape.kind()`).
    /// Points farther apart than `margin` are left out. Returns the normal (from A to B), with
    /// the points in `self.points`, or None when the pair is farther apart than the margin or
    /// the pair of shapes cannot touch (two planes).
    pub fn collide(&mut self, a: Posed, b: Posed, margin: f64) -> Option<DVec3> {
        let out = &mut self.points;
        out.clear();
        let frame = |p: &Posed| Frame::of(p.position, p.orientation);
        let normal = match (a.shape, b.shape) {
            (Shape::Plane, Shape::Polygon { polygon }) => planar::ground_polygon(
                plane_normal(a),
                a.position,
                polygon,
                &frame(&b),
                margin,
                out,
            ),
            (Shape::Polygon { polygon: pa }, Shape::Polygon { polygon: pb }) => {
                planar::polygon_polygon(pa, &frame(&a), pb, &frame(&b), margin, out)?
            }
            (Shape::Polygon { polygon }, Shape::Sphere { radius }) => {
                planar::polygon_circle(polygon, &frame(&a), b.position, *radius, margin, out)?
            }
            (Shape::Polygon { polygon }, Shape::Capsule { radius, .. }) => {
                planar::polygon_capsule(polygon, &frame(&a), b.core(), *radius, margin, out)?
            }
            (Shape::Plane, Shape::Sphere { radius } | Shape::Capsule { radius, .. }) => {
                plane_core(a, &b.core(), *radius, margin, out)
            }
            (Shape::Plane, other) => plane_hull(
                a,
                &PosedHull::new(other.hull()?, b.position, b.orientation),
                margin,
                out,
            ),
            (Shape::Sphere { radius: ra }, Shape::Sphere { radius: rb }) => {
                sphere_sphere(a.position, *ra, b.position, *rb, out)
            }
            (Shape::Capsule { radius: ra, .. }, Shape::Sphere { radius: rb }) => {
                capsule_sphere(a.core(), *ra, b.position, *rb, out)
            }
            (Shape::Capsule { radius: ra, .. }, Shape::Capsule { radius: rb, .. })
                if a.planar && b.planar =>
            {
                planar::capsule_capsule((a.core(), *ra), (b.core(), *rb), margin, out)?
            }
            (Shape::Capsule { radius: ra, .. }, Shape::Capsule { radius: rb, .. }) => {
                capsule_capsule(a.core(), *ra, b.core(), *rb, out)
            }
            (Shape::Box { half_extents, hull }, Shape::Sphere { radius }) => box_sphere(
                &PosedHull::new(hull, a.position, a.orientation),
                *half_extents,
                b.position,
                *radius,
                margin,
                &mut self.clip,
                out,
            )?,
            (ha, Shape::Sphere { radius } | Shape::Capsule { radius, .. }) => {
                let hull = PosedHull::new(ha.hull()?, a.position, a.orientation);
                let core = b.core();
                let core = if core[0] == core[1] {
                    &core[..1]
                } else {
                    &core[..]
                };
                hull_core(&hull, core, *radius, margin, &mut self.clip, out)?
            }
            (
                Shape::Box {
                    half_extents: ha,
                    hull: hull_a,
                },
                Shape::Box {
                    half_extents: hb,
                    hull: hull_b,
                },
            ) => box_box(
                &PosedHull::new(hull_a, a.position, a.orientation),
                &PosedHull::new(hull_b, b.position, b.orientation),
                [*ha, *hb],
                margin,
                &mut self.clip,
                out,
            )?,
            (ha, hb) => {
                let pa = PosedHull::new(ha.hull()?, a.position, a.orientation);
                let pb = PosedHull::new(hb.hull()?, b.position, b.orientation);
                hull_hull(&pa, &pb, margin, &mut self.clip, out)?
            }
        };
        out.retain(|p| p.separation < margin);
        if out.is_empty() {
            return None;
        }
        reduce_to_four(out, normal);
        Some(normal)
    }
}

fn plane_normal(plane: Posed) -> DVec3 {
    plane.orientation * DVec3::Y
}

/// A plane against a sphere (one core point) or a capsule (its two ends).
fn plane_core(
    plane: Posed,
    core: &[DVec3; 2],
    radius: f64,
    margin: f64,
    out: &mut Vec<RawPoint>,
) -> DVec3 {
    let n = plane_normal(plane);
    let ends = if core[0] == core[1] { 1 } else { 2 };
    for (k, &c) in core[..ends].iter().enumerate() {
        let height = n.dot(c - plane.position);
        if height - radius < margin || ends == 1 {
            out.push(RawPoint {
                on_a: c - n * height,
                on_b: c - n * radius,
                separation: height - radius,
                feature: k as u64,
            });
        }
    }
    n
}

/// A plane against the vertices of a polyhedron.
fn plane_hull(plane: Posed, hull: &PosedHull, margin: f64, out: &mut Vec<RawPoint>) -> DVec3 {
    let n = plane_normal(plane);
    for (i, &v) in hull.hull.vertices.iter().enumerate() {
        let v = hull.world(v);
        let height = n.dot(v - plane.position);
        if height < margin {
            out.push(RawPoint {
                on_a: v - n * height,
                on_b: v,
                separation: height,
                feature: i as u64,
            });
        }
    }
    n
}

fn sphere_sphere(ca: DVec3, ra: f64, cb: DVec3, rb: f64, out: &mut Vec<RawPoint>) -> DVec3 {
    let d = cb - ca;
    let dist = d.length();
    // Coincident centres: any direction separates them; pick +y for determinism.
    let n = if dist > 1e-12 { d / dist } else { DVec3::Y };
    out.push(RawPoint {
        on_a: ca + n * ra,
        on_b: cb - n * rb,
        separation: dist - ra - rb,
        feature: 0,
    });
    n
}

fn capsule_sphere(seg: [DVec3; 2], ra: f64, cb: DVec3, rb: f64, out: &mut Vec<RawPoint>) -> DVec3 {
    sphere_sphere(point_on_segment(cb, seg[0], seg[1]), ra, cb, rb, out)
}

/// Two capsules: the closest points of their segments; when the segments are nearly parallel
/// and overlap, both ends of the overlap, so a capsule lying on another does not rock.
fn capsule_capsule(
    sa: [DVec3; 2],
    ra: f64,
    sb: [DVec3; 2],
    rb: f64,
    out: &mut Vec<RawPoint>,
) -> DVec3 {
    let (pa, pb, _, _) = segment_segment(sa[0], sa[1], sb[0], sb[1]);
    let n = sphere_sphere(pa, ra, pb, rb, out);
    let (da, db) = (sa[1] - sa[0], sb[1] - sb[0]);
    if da.cross(db).length() > 0.02 * da.length() * db.length() {
        return n;
    }
    let len2 = da.length_squared();
    let (t0, t1) = (
        (sb[0] - sa[0]).dot(da) / len2,
        (sb[1] - sa[0]).dot(da) / len2,
    );
    let (lo, hi) = (t0.min(t1).max(0.0), t0.max(t1).min(1.0));
    if hi - lo < 1e-9 {
        return n;
    }
    out.clear();
    for (k, s) in [lo, hi].into_iter().enumerate() {
        let on_seg_a = sa[0] + da * s;
        let on_seg_b = point_on_segment(on_seg_a, sb[0], sb[1]);
        let separation = (on_seg_b - on_seg_a).dot(n) - ra - rb;
        out.push(RawPoint {
            on_a: on_seg_a + n * ra,
            on_b: on_seg_b - n * rb,
            separation,
            feature: k as u64 + 1,
        });
    }
    n
}
