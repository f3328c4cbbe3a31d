//! What a script can ask the world about its space: ray casts, what is inside a sensor.

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
