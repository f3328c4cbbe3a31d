//! Collision detection: broad phase, narrow phase (one file per family of
//! shape pairs) and the persistent manifolds.

pub mod broad_phase;
pub mod cell_grid;
pub mod closest;
pub mod gjk;
pub mod manifold;
pub mod narrow_phase;
pub mod pair_contacts;
pub mod ray;
pub mod refresh;
pub mod rounded;
pub mod sat;
