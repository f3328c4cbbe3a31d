//! Shapes in their body frame: what a body looks like, its volume and inertia, its bounds.
//! Every shape is centred on its body's centre of mass.

pub mod aabb;
pub mod hull;
pub mod polygon;

use std::sync::Arc;

use crate::error::Result;
use crate::limits;
use crate::math::{DMat3, DQuat, DVec3};
use aabb::Aabb;
pub use hull::{ConvexHull, MassProperties};
pub use polygon::{Outline, Polygon};

/// A collision shape, centred on its body's centre of mass and expressed in the body frame.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// A ball of the given radius.
    Sphere { radius: f64 },
    /// A box with the given half extents along the body axes; `hull` is the same box as a
    /// polyhedron, for the narrow phase.
    Box {
        half_extents: DVec3,
        hull: Arc<ConvexHull>,
    },
    /// The points within `radius` of the segment from -half_height to +half_height on the
    /// body's y axis.
    Capsule { radius: f64, half_height: f64 },
    /// A convex polyhedron with its centroid at the body origin.
    Convex {
        hull: Arc<ConvexHull>,
        mass: MassProperties,
    },
    /// The half-space y <= 0 of the body frame: its surface is the body's x-z plane and its
    /// outward normal the body's +y axis. Only static or kinematic bodies carry planes.
    Plane,
    /// A convex polygon or a segment in the body's x-y plane: a body of a 2D world.
    Polygon { polygon: Arc<Polygon> },
}

/// The kinds of shape, in the order the narrow phase sorts pairs by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ShapeKind {
    Plane,
    Box,
    Convex,
    Polygon,
    Capsule,
    Sphere,
}

impl Shape {
    pub fn sphere(radius: f64) -> Result<Shape> {
        Ok(Shape::Sphere {
            radius: limits::length("radius", radius)?,
        })
    }

    pub fn cuboid(half_extents: DVec3) -> Result<Shape> {
        limits::lengths3("half_extents", half_extents)?;
        let corners: Vec<DVec3> = (0..8)
            .map(|c| half_extents * DVec3::new(sign(c & 1), sign(c & 2), sign(c & 4)))
            .collect();
        let hull = ConvexHull::from_points(&corners)?;
        Ok(Shape::Box {
            half_extents,
            hull: Arc::new(hull),
        })
    }

    pub fn capsule(radius: f64, half_height: f64) -> Result<Shape> {
        Ok(Shape::Capsule {
            radius: limits::length("radius", radius)?,
            half_height: limits::length("half_height", half_height)?,
        })
    }

    /// The convex hull of `points` (body frame), moved so that its centroid is the origin.
    /// Returns the shape and where the centroid was among the given points.
    pub fn convex(points: &[DVec3]) -> Result<(Shape, DVec3)> {
        let hull = ConvexHull::from_points(points)?;
        let mass = hull.mass_properties();
        let hull = hull.translated(-mass.centroid);
        let centred = MassProperties {
            centroid: DVec3::ZERO,
            ..mass
        };
        Ok((
            Shape::Convex {
                hull: Arc::new(hull),
                mass: centred,
            },
            mass.centroid,
        ))
    }

    pub fn kind(&self) -> ShapeKind {
        match self {
            Shape::Plane => ShapeKind::Plane,
            Shape::Box { .. } => ShapeKind::Box,
            Shape::Convex { .. } => ShapeKind::Convex,
            Shape::Capsule { .. } => ShapeKind::Capsule,
            Shape::Sphere { .. } => ShapeKind::Sphere,
            Shape::Polygon { .. } => ShapeKind::Polygon,
        }
    }

    /// The shape's name as Python spells it.
    pub fn type_name(&self) -> &'static str {
        match self {
            Shape::Sphere { .. } => "sphere",
            Shape::Box { .. } => "box",
            Shape::Capsule { .. } => "capsule",
            Shape::Convex { .. } => "convex",
            Shape::Plane => "plane",
            Shape::Polygon { polygon } => match polygon.outline {
                Outline::Polygon => "polygon",
                Outline::Box { .. } => "box",
                Outline::Segment => "segment",
            },
        }
    }

    pub fn polygon(polygon: Polygon) -> Shape {
        Shape::Polygon {
            polygon: Arc::new(polygon),
        }
    }

    /// Whether the shape is bounded by flat sides alone (a polyhedron, or a polygon of a 2D world
    /// without rounding): where two such shapes touch, the normal is a side's and turns only
    /// with it, so their contact can be measured again rather than found again while they
    /// barely move relative to each other (collision/refresh.rs).
    pub fn is_faceted(&self) -> bool {
        match self {
            Shape::Box { .. } | Shape::Convex { .. } => true,
            Shape::Polygon { polygon } => polygon.radius == 0.0,
            _ => false,
        }
    }

    /// Whether a body of this shape can be dynamic: planes are infinite and segments have no
    /// area, so they only bound the others.
    pub fn can_be_dynamic(&self) -> bool {
        !matches!(self, Shape::Plane)
            && !matches!(self, Shape::Polygon { polygon } if polygon.outline == Outline::Segment)
    }

    /// For a body of a 2D world: the area (m^2) and the inertia tensor per unit mass of the
    /// lamina the shape cuts from the x-y plane (a sphere gives a disc, a capsule a stadium).
    /// None for shapes that have no place in a 2D world.
    pub fn planar_mass(&self) -> Option<(f64, DMat3)> {
        use std::f64::consts::PI;
        match self {
            Shape::Sphere { radius: r } => Some((
                PI * r * r,
                polygon::lamina_inertia(r * r / 4.0, r * r / 4.0),
            )),
            Shape::Capsule {
                radius: r,
                half_height: h,
            } => {
                // A 2r x 2h rectangle and a disc whose halves sit at y = +-h.
                let (rect, disc) = (4.0 * r * h, PI * r * r);
                let area = rect + disc;
                let xx = (rect * r * r / 3.0 + disc * r * r / 4.0) / area;
                let yy =
                    (rect * h * h / 3.0 + disc * (h * h + r * r / 4.0) + 8.0 / 3.0 * h * r.powi(3))
                        / area;
                Some((area, polygon::lamina_inertia(xx, yy)))
            }
            Shape::Polygon { polygon } => Some((polygon.area, polygon.unit_inertia())),
            Shape::Plane => Some((
                f64::INFINITY,
                DMat3::from_diagonal(DVec3::splat(f64::INFINITY)),
            )),
            Shape::Box { .. } | Shape::Convex { .. } => None,
        }
    }

    /// The polyhedron of a box or convex shape.
    pub fn hull(&self) -> Option<&ConvexHull> {
        match self {
            Shape::Box { hull, .. } | Shape::Convex { hull, .. } => Some(hull),
            _ => None,
        }
    }

    /// Volume in m^3 (infinite for a plane).
    pub fn volume(&self) -> f64 {
        match self {
            Shape::Sphere { radius } => 4.0 / 3.0 * std::f64::consts::PI * radius.powi(3),
            Shape::Box {
                half_extents: h, ..
            } => 8.0 * h.x * h.y * h.z,
            Shape::Capsule {
                radius: r,
                half_height: h,
            } => std::f64::consts::PI * r * r * (2.0 * h + 4.0 / 3.0 * r),
            Shape::Convex { mass, .. } => mass.volume,
            Shape::Plane => f64::INFINITY,
            // A lamina: its mass is per area (`planar_mass`).
            Shape::Polygon { .. } => 0.0,
        }
    }

    /// Inertia tensor about the centre of mass in the body frame, per kilogram of mass.
    pub fn unit_inertia(&self) -> DMat3 {
        match self {
            Shape::Sphere { radius } => DMat3::from_diagonal(DVec3::splat(0.4 * radius * radius)),
            Shape::Box {
                half_extents: h, ..
            } => {
                let s = *h * *h;
                DMat3::from_diagonal(DVec3::new(s.y + s.z, s.x + s.z, s.x + s.y) / 3.0)
            }
            Shape::Capsule {
                radius: r,
                half_height: h,
            } => {
                // A cylinder of length 2h plus two hemispheres, sharing the mass by volume.
                let (cyl, balls) = (2.0 * h, 4.0 / 3.0 * r);
                let (mc, ms) = (cyl / (cyl + balls), balls / (cyl + balls));
                let axial = mc * r * r / 2.0 + ms * 0.4 * r * r;
                let across =
                    mc * (r * r / 4.0 + h * h / 3.0) + ms * (0.4 * r * r + h * h + 0.75 * h * r);
                DMat3::from_diagonal(DVec3::new(across, axial, across))
            }
            Shape::Convex { mass, .. } => mass.unit_inertia,
            Shape::Plane => DMat3::from_diagonal(DVec3::splat(f64::INFINITY)),
            Shape::Polygon { polygon } => polygon.unit_inertia(),
        }
    }

    /// Distance from the centre to the farthest point of the shape (infinite for a plane).
    pub fn bounding_radius(&self) -> f64 {
        match self {
            Shape::Sphere { radius } => *radius,
            Shape::Box { half_extents, .. } => half_extents.length(),
            Shape::Capsule {
                radius,
                half_height,
            } => radius + half_height,
            Shape::Convex { hull, .. } => hull.radius,
            Shape::Plane => f64::INFINITY,
            Shape::Polygon { polygon } => polygon.bound,
        }
    }

    /// World-space bounding box of the shape placed at `position` with `orientation`.
    pub fn aabb(&self, position: DVec3, orientation: DQuat) -> Aabb {
        match self {
            Shape::Sphere { radius } => Aabb::around(position, DVec3::splat(*radius)),
            Shape::Box { half_extents, .. } => {
                let r = DMat3::from_quat(orientation);
                let abs = DMat3::from_cols(r.x_axis.abs(), r.y_axis.abs(), r.z_axis.abs());
                Aabb::around(position, abs * *half_extents)
            }
            Shape::Capsule {
                radius,
                half_height,
            } => {
                let axis = orientation * DVec3::Y * *half_height;
                Aabb::around(position, axis.abs() + DVec3::splat(*radius))
            }
            Shape::Convex { hull, .. } => {
                let r = DMat3::from_quat(orientation);
                let (mut lo, mut hi) =
                    (DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY));
                for v in &hull.vertices {
                    let p = r * *v;
                    lo = lo.min(p);
                    hi = hi.max(p);
                }
                Aabb {
                    min: position + lo,
                    max: position + hi,
                }
            }
            Shape::Plane => Aabb::everything(),
            Shape::Polygon { polygon } => {
                let r = DMat3::from_quat(orientation);
                let (mut lo, mut hi) =
                    (DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY));
                for v in &polygon.vertices {
                    let p = r * DVec3::new(v.x, v.y, 0.0);
                    lo = lo.min(p);
                    hi = hi.max(p);
                }
                Aabb {
                    min: position + lo,
                    max: position + hi,
                }
                .fattened(polygon.radius)
            }
        }
    }
}

fn sign(bit: i32) -> f64 {
    if bit == 0 {
        -1.0
    } else {
        1.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_close(a: DMat3, b: DMat3, tol: f64) {
        let d = (a - b)
            .to_cols_array()
            .iter()
            .map(|x| x.abs())
            .fold(0.0, f64::max);
        let scale = b
            .to_cols_array()
            .iter()
            .map(|x| x.abs())
            .fold(0.0, f64::max);
        assert!(d <= tol * scale, "{a:?}\n!=\n{b:?}\n(max difference {d})");
    }

    #[test]
    fn box_hull_has_six_square_faces_with_exact_normals() {
        let Shape::Box { hull, .. } = Shape::cuboid(DVec3::new(1.0, 2.0, 3.0)).unwrap() else {
            panic!()
        };
        assert_eq!(
            (
                hull.vertices.len(),
                hull.faces.len(),
                hull.edges.len(),
                hull.edge_directions.len()
            ),
            (8, 6, 12, 3)
        );
        for f in &hull.faces {
            assert_eq!(f.vertices.len(), 4);
            assert_eq!(f.normal.abs().max_element(), 1.0, "normal {:?}", f.normal);
            for &v in &f.vertices {
                assert_eq!(f.normal.dot(hull.vertices[v as usize]), f.offset);
            }
        }
    }

    #[test]
    fn convex_box_matches_the_closed_form() {
        let h = DVec3::new(0.3, 0.7, 1.1);
        let offset = DVec3::new(5.0, -2.0, 1.0);
        // Corners plus points inside and on faces, which the hull drops.
        let mut points: Vec<DVec3> = (0..8)
            .map(|c| offset + h * DVec3::new(sign(c & 1), sign(c & 2), sign(c & 4)))
            .collect();
        points.extend([
            offset,
            offset + DVec3::new(0.3, 0.1, 0.2),
            offset + DVec3::new(0.0, 0.7, 0.0),
        ]);
        let (shape, centroid) = Shape::convex(&points).unwrap();
        assert!((centroid - offset).length() < 1e-12);
        let Shape::Convex { ref hull, .. } = shape else {
            panic!()
        };
        assert_eq!((hull.vertices.len(), hull.faces.len()), (8, 6));
        let exact = Shape::cuboid(h).unwrap();
        assert!((shape.volume() - exact.volume()).abs() < 1e-12 * exact.volume());
        assert_close(shape.unit_inertia(), exact.unit_inertia(), 1e-12);
    }

    #[test]
    fn wedge_matches_the_closed_form() {
        // Right-triangle prism, legs a (x) and b (y), width c (z). Centroid (a/3, b/3, 0);
        // about it: Ixx = m (b^2/18 + c^2/12), Iyy = m (a^2/18 + c^2/12),
        // Izz = m (a^2 + b^2)/18, Ixy = m a b / 36 (product of inertia -> tensor entry +).
        let (a, b, c) = (2.0, 0.5, 0.8);
        let (shape, centroid) = Shape::convex(&ConvexHull::wedge_points(a, b, c)).unwrap();
        assert!((centroid - DVec3::new(a / 3.0, b / 3.0, 0.0)).length() < 1e-12);
        assert!((shape.volume() - a * b * c / 2.0).abs() < 1e-12);
        let mut expected = DMat3::from_diagonal(DVec3::new(
            b * b / 18.0 + c * c / 12.0,
            a * a / 18.0 + c * c / 12.0,
            (a * a + b * b) / 18.0,
        ));
        expected.x_axis.y = a * b / 36.0;
        expected.y_axis.x = a * b / 36.0;
        assert_close(shape.unit_inertia(), expected, 1e-12);
        let Shape::Convex { hull, .. } = shape else {
            panic!()
        };
        assert_eq!(
            (hull.vertices.len(), hull.faces.len(), hull.edges.len()),
            (6, 5, 9)
        );
    }

    #[test]
    fn tessellated_sphere_approaches_the_ball() {
        // Points on a latitude-longitude grid of the unit sphere: volume and inertia converge
        // to the ball's from below, with an error of the order of the squared grid spacing.
        let (rings, segments) = (60, 120);
        let mut points = vec![DVec3::Y, -DVec3::Y];
        for i in 1..rings {
            let theta = std::f64::consts::PI * i as f64 / rings as f64;
            for j in 0..segments {
                let phi = 2.0 * std::f64::consts::PI * j as f64 / segments as f64;
                points.push(DVec3::new(
                    theta.sin() * phi.cos(),
                    theta.cos(),
                    theta.sin() * phi.sin(),
                ));
            }
        }
        let (shape, centroid) = Shape::convex(&points).unwrap();
        assert!(centroid.length() < 1e-12);
        let ball = Shape::sphere(1.0).unwrap();
        let rel = |x: f64, y: f64| (x - y).abs() / y;
        assert!(
            rel(shape.volume(), ball.volume()) < 2e-3,
            "volume {} vs {}",
            shape.volume(),
            ball.volume()
        );
        let (i, ib) = (shape.unit_inertia(), ball.unit_inertia());
        for k in 0..3 {
            assert!(
                rel(i.col(k)[k], ib.col(k)[k]) < 2e-3,
                "I[{k}{k}] = {} vs {}",
                i.col(k)[k],
                ib.col(k)[k]
            );
        }
        assert!(i.x_axis.y.abs() < 1e-9 && i.x_axis.z.abs() < 1e-9 && i.y_axis.z.abs() < 1e-9);
    }

    #[test]
    fn capsule_inertia_matches_a_numerical_integral() {
        let (r, h) = (0.3, 0.5);
        let capsule = Shape::capsule(r, h).unwrap();
        // Midpoint-rule integral over a grid of the bounding box.
        let n = 120;
        let (mut vol, mut ixx, mut iyy) = (0.0, 0.0, 0.0);
        let ext = DVec3::new(r, h + r, r);
        let cell = ext * 2.0 / n as f64;
        for i in 0..n {
            for j in 0..n {
                for k in 0..n {
                    let p =
                        -ext + cell * DVec3::new(i as f64 + 0.5, j as f64 + 0.5, k as f64 + 0.5);
                    let axis = DVec3::new(0.0, p.y.clamp(-h, h), 0.0);
                    if (p - axis).length() <= r {
                        vol += 1.0;
                        ixx += p.y * p.y + p.z * p.z;
                        iyy += p.x * p.x + p.z * p.z;
                    }
                }
            }
        }
        let dv = cell.x * cell.y * cell.z;
        assert!((vol * dv - capsule.volume()).abs() < 2e-3 * capsule.volume());
        let i = capsule.unit_inertia();
        assert!(
            (ixx / vol - i.x_axis.x).abs() < 3e-3 * i.x_axis.x,
            "{} vs {}",
            ixx / vol,
            i.x_axis.x
        );
        assert!(
            (iyy / vol - i.y_axis.y).abs() < 3e-3 * i.y_axis.y,
            "{} vs {}",
            iyy / vol,
            i.y_axis.y
        );
    }

    #[test]
    fn degenerate_point_sets_are_refused() {
        let flat: Vec<DVec3> = (0..6)
            .map(|i| DVec3::new(i as f64, (i * i) as f64, 0.0))
            .collect();
        let err = Shape::convex(&flat).unwrap_err().to_string();
        assert!(
            err.starts_with("points:") && err.contains("coplanar"),
            "{err}"
        );
        assert!(Shape::convex(&[DVec3::ZERO; 3]).is_err());
        let mut nan = vec![DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::Z];
        nan[2].y = f64::NAN;
        assert!(Shape::convex(&nan)
            .unwrap_err()
            .to_string()
            .contains("finite"));
    }

    #[test]
    fn the_inscribed_box_is_the_box_itself_or_fits_inside_the_hull() {
        let Shape::Box { hull, .. } = Shape::cuboid(DVec3::new(1.0, 2.0, 3.0)).unwrap() else {
            panic!()
        };
        assert_eq!(hull.inscribed, DVec3::new(1.0, 2.0, 3.0));
        // A wedge (its centroid inside, faces slanted): every corner of the box is inside every
        // face plane, and one touches (it is as large as its shape allows).
        let (Shape::Convex { hull, .. }, _) =
            Shape::convex(&ConvexHull::wedge_points(1.0, 0.5, 0.4)).unwrap()
        else {
            panic!()
        };
        let h = hull.inscribed;
        assert!(h.min_element() > 0.0);
        let corners: Vec<DVec3> = (0..8)
            .map(|c| {
                h * DVec3::new(
                    if c & 1 == 0 { -1.0 } else { 1.0 },
                    if c & 2 == 0 { -1.0 } else { 1.0 },
                    if c & 4 == 0 { -1.0 } else { 1.0 },
                )
            })
            .collect();
        let reach = |f: &crate::shape::hull::Face| {
            corners
                .iter()
                .map(|c| f.normal.dot(*c) - f.offset)
                .fold(f64::NEG_INFINITY, f64::max)
        };
        assert!(hull.faces.iter().all(|f| reach(f) <= 1e-12));
        assert!(hull.faces.iter().any(|f| reach(f) > -1e-12));
        // Its support is a lower bound of the hull's in every direction.
        for k in 0..50 {
            let d = DVec3::new(
                (k as f64 * 1.3).sin(),
                (k as f64 * 0.7).cos(),
                (k as f64 * 2.1).sin(),
            );
            assert!(d.abs().dot(h) <= hull.support(d).1.dot(d) + 1e-12);
        }
    }
}
