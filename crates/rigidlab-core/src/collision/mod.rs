//! Collision detection: broad phase, narrow phase (one file per family of
//! shape pairs) and the persistent manifolds. Public: the narrow phase (a contact query between
//! two posed shapes) and the manifolds the world keeps; the rest is the engine's own.

pub(crate) mod box_box;
pub(crate) mod broad_phase;
pub(crate) mod cell_grid;
pub(crate) mod closest;
pub mod distance;
pub(crate) mod gjk;
pub mod manifold;
pub mod narrow_phase;
pub(crate) mod pair_contacts;
pub(crate) mod planar;
pub mod ray;
pub mod refresh;
pub(crate) mod rounded;
pub(crate) mod sat;
