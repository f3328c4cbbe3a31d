//! Motion: the state and its integrators, the smooth forces, and the constraint solvers.
//! Public: the integrators, the state arrays, and the links and loads a world holds (joints,
//! springs, loads) with the sleep timing; the solvers are the engine's own.

pub(crate) mod block_lcp;
pub(crate) mod by_row;
pub(crate) mod colours;
pub(crate) mod contact_solver;
pub(crate) mod forces;
pub(crate) mod free_rotation;
pub(crate) mod friction_patch;
pub(crate) mod impact;
pub mod integrator;
pub(crate) mod joint_solver;
pub(crate) mod joint_tree;
pub mod joints;
pub(crate) mod load_estimate;
pub mod loads;
pub(crate) mod position_correction;
pub mod sleep;
pub(crate) mod solver_body;
pub(crate) mod split;
pub mod springs;
pub mod state;
pub(crate) mod support_levels;
pub(crate) mod tuning;
pub(crate) mod union_find;
pub(crate) mod velocity_solve;
