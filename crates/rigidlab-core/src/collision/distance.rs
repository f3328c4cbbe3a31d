//! How far apart two placed shapes are: the closest points and the separation, negative when
//! they overlap (then by the depth the narrow phase measures along its contact normal).
//!
//! Every shape but the plane is a convex core (a point, a segment, a polyhedron's or polygon's
//! vertices) grown by a radius, so while the cores are apart GJK on the cores gives the answer
//! exactly, overlap of the rounded parts included. Once the cores themselves overlap, the depth
//! is the least overlap over all directions, and the radii add to it: for cores in space the
//! least is found among the separating axes of two polytopes (each one's face normals and the
//! cross products of their edges), for the polygons of a 2D world by the narrow phase's own
//! axes in the plane. A plane is a half-space: the other shape's lowest point along its normal.

use super::gjk;
use super::narrow_phase::{NarrowPhase, Posed};
use crate::math::DVec3;
use crate::shape::Shape;

/// Where two shapes come nearest.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Separation {
    /// The separation (m): the distance between the closest points, or minus the depth.
    pub distance: f64,
    /// The point of A nearest B (the deepest point of A inside B when they overlap).
    pub on_a: DVec3,
    /// The point of B nearest A (the deepest point of B inside A when they overlap).
    pub on_b: DVec3,
    /// The unit direction from A to B along which the separation is measured.
    pub normal: DVec3,
}

impl Separation {
    /// The same, seen from B.
    fn swapped(self) -> Separation {
        Separation {
            distance: self.distance,
            on_a: self.on_b,
            on_b: self.on_a,
            normal: -self.normal,
        }
    }
}

/// The core of a shape in world space and its radius; None for a plane.
fn core(p: &Posed) -> Option<(Vec<DVec3>, f64)> {
    let place = |v: DVec3| p.position + p.orientation * v;
    match p.shape {
        Shape::Sphere { radius } => Some((vec![p.position], *radius)),
        Shape::Capsule {
            radius,
            half_height,
        } => {
            let h = DVec3::new(0.0, *half_height, 0.0);
            Some((vec![place(-h), place(h)], *radius))
        }
        Shape::Box { hull, .. } | Shape::Convex { hull, .. } => {
            Some((hull.vertices.iter().map(|&v| place(v)).collect(), 0.0))
        }
        Shape::Polygon { polygon } => Some((
            polygon
                .vertices
                .iter()
                .map(|v| place(DVec3::new(v.x, v.y, 0.0)))
                .collect(),
            polygon.radius,
        )),
        Shape::Plane => None,
    }
}

/// The separation of `a` and `b`; None for two planes (they meet unless parallel, and then
/// one holds the other).
pub fn separation(a: Posed, b: Posed, narrow: &mut NarrowPhase) -> Option<Separation> {
    match (core(&a), core(&b)) {
        (None, None) => None,
        (None, Some(cb)) => Some(plane_core(&a, cb)),
        (Some(ca), None) => Some(plane_core(&b, ca).swapped()),
        (Some((ca, ra)), Some((cb, rb))) => {
            if let Some(c) = gjk::distance(&ca, &cb).filter(|c| c.distance > 0.0) {
                let n = (c.on_b - c.on_a) / c.distance;
                return Some(Separation {
                    distance: c.distance - ra - rb,
                    on_a: c.on_a + ra * n,
                    on_b: c.on_b - rb * n,
                    normal: n,
                });
            }
            if matches!(a.shape, Shape::Polygon { .. }) || matches!(b.shape, Shape::Polygon { .. })
            {
                return deepest(a, b, narrow);
            }
            least_overlap((&ca, ra, axes(&a)), (&cb, rb, axes(&b)))
                .or_else(|| deepest(a, b, narrow))
        }
    }
}

/// A core's face normals and edge directions in world space: the separating axes it brings.
fn axes(p: &Posed) -> (Vec<DVec3>, Vec<DVec3>) {
    let turn = |v: &DVec3| p.orientation * *v;
    match p.shape {
        Shape::Box { hull, .. } | Shape::Convex { hull, .. } => (
            hull.faces.iter().map(|f| turn(&f.normal)).collect(),
            hull.edge_directions.iter().map(turn).collect(),
        ),
        Shape::Capsule { .. } => (Vec::new(), vec![turn(&DVec3::Y)]),
        _ => (Vec::new(), Vec::new()),
    }
}

type SatCore<'a> = (&'a [DVec3], f64, (Vec<DVec3>, Vec<DVec3>));

/// Overlapping cores in space: the axis along which they overlap least. None when the cores
/// bring no axis (two points, or a point on a segment: they meet along any direction).
fn least_overlap((pa, ra, (fa, ea)): SatCore, (pb, rb, (fb, eb)): SatCore) -> Option<Separation> {
    // The points of a core lowest and highest along n.
    let extent = |points: &[DVec3], n: DVec3| {
        let along = |p: &&DVec3, q: &&DVec3| n.dot(**p).total_cmp(&n.dot(**q));
        let lowest = *points.iter().min_by(along).expect("a core has points");
        let highest = *points.iter().max_by(along).expect("a core has points");
        (lowest, highest)
    };
    let crosses = ea.iter().flat_map(|x| eb.iter().map(move |y| x.cross(*y)));
    let mut best: Option<(f64, DVec3, DVec3, DVec3)> = None;
    for axis in fa.iter().chain(&fb).copied().chain(crosses) {
        let len = axis.length();
        // Parallel edges give no axis of their own.
        if len < 1e-9 {
            continue;
        }
        let n = axis / len;
        let (a_lo, a_hi) = extent(pa, n);
        let (b_lo, b_hi) = extent(pb, n);
        // B pushed along +n, or along -n: the smaller of the two overlaps.
        for (overlap, n, on_a, on_b) in [
            (n.dot(a_hi - b_lo), n, a_hi, b_lo),
            (n.dot(b_hi - a_lo), -n, a_lo, b_hi),
        ] {
            if best.is_none_or(|b| overlap < b.0) {
                best = Some((overlap, n, on_a, on_b));
            }
        }
    }
    let (overlap, n, on_a, on_b) = best?;
    Some(Separation {
        distance: -(overlap + ra + rb),
        on_a: on_a + ra * n,
        on_b: on_b - rb * n,
        normal: n,
    })
}

/// A core (with its radius) against the plane of `plane`: its point lowest along the normal.
fn plane_core(plane: &Posed, (core, radius): (Vec<DVec3>, f64)) -> Separation {
    let n = plane.orientation * DVec3::Y;
    let lowest = core
        .iter()
        .copied()
        .min_by(|p, q| n.dot(*p).total_cmp(&n.dot(*q)))
        .expect("a core has points");
    let on_b = lowest - radius * n;
    let height = n.dot(on_b - plane.position);
    Separation {
        distance: height,
        on_a: on_b - height * n,
        on_b,
        normal: n,
    }
}

/// Overlapping cores: the narrow phase's deepest point, with the pair in the order it takes.
fn deepest(a: Posed, b: Posed, narrow: &mut NarrowPhase) -> Option<Separation> {
    if a.shape.kind() > b.shape.kind() {
        return deepest(b, a, narrow).map(Separation::swapped);
    }
    let normal = narrow.collide(a, b, 0.0)?;
    let p = narrow
        .points
        .iter()
        .min_by(|x, y| x.separation.total_cmp(&y.separation))?;
    Some(Separation {
        distance: p.separation,
        on_a: p.on_a,
        on_b: p.on_b,
        normal,
    })
}
