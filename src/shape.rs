//! Shapes in their body frame: what a body looks like, its volume and inertia, its bounds.

use crate::collision::aabb::Aabb;
use crate::error::{check_finite3, check_positive, Error, Result};
use crate::math::{DMat3, DQuat, DVec3};

/// A collision shape, centred on its body's centre of mass and expressed in the body frame.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// A ball of the given radius.
    Sphere { radius: f64 },
    /// A box with the given half extents along the body axes.
    Box { half_extents: DVec3 },
    /// The half-space y <= 0 of the body frame: its surface is the body's x-z plane and its
    /// outward normal the body's +y axis. Only static or kinematic bodies carry planes.
    Plane,
}

/// The kinds of shape, in the order the narrow phase sorts pairs by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ShapeKind {
    Plane,
    Box,
    Sphere,
}

impl Shape {
    pub fn sphere(radius: f64) -> Result<Shape> {
        Ok(Shape::Sphere { radius: check_positive("radius", radius)? })
    }

    pub fn cuboid(half_extents: DVec3) -> Result<Shape> {
        check_finite3("half_extents", half_extents)?;
        if half_extents.min_element() <= 0.0 {
            return Err(Error::invalid("half_extents", format!("{:?}", half_extents.to_array()), "every half extent must be positive"));
        }
        Ok(Shape::Box { half_extents })
    }

    pub fn kind(&self) -> ShapeKind {
        match self {
            Shape::Plane => ShapeKind::Plane,
            Shape::Box { .. } => ShapeKind::Box,
            Shape::Sphere { .. } => ShapeKind::Sphere,
        }
    }

    /// The shape's name as Python spells it.
    pub fn type_name(&self) -> &'static str {
        match self {
            Shape::Sphere { .. } => "sphere",
            Shape::Box { .. } => "box",
            Shape::Plane => "plane",
        }
    }

    /// Volume in m^3 (infinite for a plane).
    pub fn volume(&self) -> f64 {
        match self {
            Shape::Sphere { radius } => 4.0 / 3.0 * std::f64::consts::PI * radius.powi(3),
            Shape::Box { half_extents: h } => 8.0 * h.x * h.y * h.z,
            Shape::Plane => f64::INFINITY,
        }
    }

    /// Inertia tensor about the centre of mass in the body frame, per kilogram of mass.
    pub fn unit_inertia(&self) -> DMat3 {
        match self {
            Shape::Sphere { radius } => DMat3::from_diagonal(DVec3::splat(0.4 * radius * radius)),
            Shape::Box { half_extents: h } => {
                let s = *h * *h;
                DMat3::from_diagonal(DVec3::new(s.y + s.z, s.x + s.z, s.x + s.y) / 3.0)
            }
            Shape::Plane => DMat3::from_diagonal(DVec3::splat(f64::INFINITY)),
        }
    }

    /// Distance from the centre to the farthest point of the shape (infinite for a plane).
    pub fn bounding_radius(&self) -> f64 {
        match self {
            Shape::Sphere { radius } => *radius,
            Shape::Box { half_extents } => half_extents.length(),
            Shape::Plane => f64::INFINITY,
        }
    }

    /// World-space bounding box of the shape placed at `position` with `orientation`.
    pub fn aabb(&self, position: DVec3, orientation: DQuat) -> Aabb {
        match self {
            Shape::Sphere { radius } => Aabb::around(position, DVec3::splat(*radius)),
            Shape::Box { half_extents } => {
                let r = DMat3::from_quat(orientation);
                let abs = DMat3::from_cols(r.x_axis.abs(), r.y_axis.abs(), r.z_axis.abs());
                Aabb::around(position, abs * *half_extents)
            }
            Shape::Plane => Aabb::everything(),
        }
    }
}
