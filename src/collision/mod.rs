//! Finding contacts: bounding boxes, the broad phase (candidate pairs), the narrow phase per
//! shape pair, and persistent manifolds.

pub mod aabb;
pub mod broad_phase;
pub mod manifold;
pub mod narrow_phase;
