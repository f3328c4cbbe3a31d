//! What a script can ask the world about its space: ray casts, which bodies hold a point or
//! meet a box, what is inside a sensor.

use crate::collision::ray::{self, RayHit};
use crate::math::DVec3;
use crate::world::World;

impl World {
    /// The first body a ray from `origin` along `direction` meets within `max_distance`, or
    /// None. Planes are skipped when `solids_only`. A ray starting inside a body hits it at 0.
    pub fn ray_cast(
        &self,
        origin: DVec3,
        direction: DVec3,
        max_distance: f64,
        solids_only: bool,
    ) -> Option<RayHit> {
        ray::cast(self.bodies(), origin, direction, max_distance, solids_only)
    }

    /// Every body a ray meets within `max_distance`, where it enters each, nearest first.
    pub fn ray_cast_all(
        &self,
        origin: DVec3,
        direction: DVec3,
        max_distance: f64,
        solids_only: bool,
    ) -> Vec<RayHit> {
        ray::cast_all(self.bodies(), origin, direction, max_distance, solids_only)
    }

    /// The bodies that hold world point `p` (inside or on the surface), in body order.
    pub fn query_point(&self, p: DVec3) -> Vec<crate::body::BodyHandle> {
        let bodies = self.bodies();
        bodies
            .handles()
            .iter()
            .zip(bodies.bodies())
            .filter(|(_, b)| ray::contains(b, p))
            .map(|(h, _)| *h)
            .collect()
    }

    /// The bodies whose bounding boxes meet the box from `lo` to `hi` (what the broad phase
    /// sees; a quick first cut, not an exact overlap), and the planes whose half-space it
    /// reaches, in body order.
    pub fn query_box(&self, lo: DVec3, hi: DVec3) -> Vec<crate::body::BodyHandle> {
        let bodies = self.bodies();
        bodies
            .handles()
            .iter()
            .zip(bodies.bodies())
            .filter(|(_, b)| {
                if matches!(b.shape, crate::shape::Shape::Plane) {
                    // A plane's solid is the half-space below it: the box meets it when its
                    // corner lowest along the normal lies in it.
                    let n = b.orientation * DVec3::Y;
                    let corner = DVec3::select(n.cmpgt(DVec3::ZERO), lo, hi);
                    return n.dot(corner - b.position) <= 0.0;
                }
                let bb = b.shape.aabb(b.position, b.orientation);
                bb.min.cmple(hi).all() && bb.max.cmpge(lo).all()
            })
            .map(|(h, _)| *h)
            .collect()
    }

    /// The bodies overlapping sensor `h` after the last step, in id order.
    pub fn overlaps(&self, h: crate::body::BodyHandle) -> crate::error::Result<Vec<u64>> {
        let id = self.body(h)?.id;
        Ok(self
            .events
            .sensing
            .iter()
            .filter(|k| k.0 == id)
            .map(|k| k.1)
            .collect())
    }
}
