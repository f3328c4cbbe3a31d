//! What a script can ask the world about its space: ray casts, which bodies hold a point or
//! meet a box, what is inside a sensor.

use crate::body::BodyHandle;
use crate::collision::distance::{separation, Separation};
use crate::collision::narrow_phase::{NarrowPhase, Posed};
use crate::collision::ray::{self, RayHit};
use crate::error::{Error, Result};
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

    /// The first hit of each ray i (from `origins[i]` along `directions[i]` within
    /// `max_distances[i]`), as `ray_cast` finds it; many rays are cast on all cores (each on
    /// its own, so the answers do not depend on how they are shared out).
    pub fn ray_cast_batch(
        &self,
        origins: &[DVec3],
        directions: &[DVec3],
        max_distances: &[f64],
        solids_only: bool,
    ) -> Vec<Option<RayHit>> {
        use rayon::prelude::*;
        // Below this many rays, handing them out costs more than it saves.
        const PARALLEL_RAYS: usize = 256;
        let cast =
            |i: usize| self.ray_cast(origins[i], directions[i], max_distances[i], solids_only);
        if origins.len() < PARALLEL_RAYS {
            (0..origins.len()).map(cast).collect()
        } else {
            (0..origins.len()).into_par_iter().map(cast).collect()
        }
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

    /// How far apart bodies a and b are: their closest points and the distance between them,
    /// or, when they overlap, minus the depth and their deepest points (collision/distance.rs).
    pub fn distance(&self, a: BodyHandle, b: BodyHandle) -> Result<Separation> {
        let (ba, bb) = (self.body(a)?, self.body(b)?);
        if a == b {
            return Err(Error::invalid("b", "a", "must be a different body from a"));
        }
        fn posed(b: &crate::body::Body) -> Posed<'_> {
            Posed {
                shape: &b.shape,
                position: b.position,
                orientation: b.orientation,
                planar: b.planar,
            }
        }
        separation(posed(ba), posed(bb), &mut NarrowPhase::default()).ok_or_else(|| {
            Error::invalid(
                "b",
                "a plane",
                "two planes have no distance (they meet unless parallel)",
            )
        })
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
