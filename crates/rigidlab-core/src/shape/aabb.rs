//! Axis-aligned bounding boxes.

use crate::math::DVec3;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aabb {
    pub min: DVec3,
    pub max: DVec3,
}

impl Aabb {
    pub fn around(centre: DVec3, half: DVec3) -> Aabb {
        Aabb {
            min: centre - half,
            max: centre + half,
        }
    }

    /// The box that overlaps every other box (for infinite shapes).
    pub fn everything() -> Aabb {
        Aabb {
            min: DVec3::splat(f64::NEG_INFINITY),
            max: DVec3::splat(f64::INFINITY),
        }
    }

    pub fn is_infinite(&self) -> bool {
        !(self.min.is_finite() && self.max.is_finite())
    }

    /// The box grown by `margin` on every side.
    pub fn fattened(&self, margin: f64) -> Aabb {
        Aabb {
            min: self.min - DVec3::splat(margin),
            max: self.max + DVec3::splat(margin),
        }
    }

    /// The least of n . c over the box's corners c: how far along `n` its lowest corner lies.
    pub fn lowest_along(&self, n: DVec3) -> f64 {
        (n * self.min).min(n * self.max).element_sum()
    }

    pub fn overlaps(&self, other: &Aabb) -> bool {
        self.min.cmple(other.max).all() && other.min.cmple(self.max).all()
    }
}
