//! Motion: the state and its integrators, the smooth forces, and the constraint solvers.

pub mod block_lcp;
pub mod contact_solver;
pub mod forces;
pub mod friction_patch;
pub mod impact;
pub mod integrator;
pub mod joint_solver;
pub mod joint_tree;
pub mod joints;
pub mod load_estimate;
pub mod loads;
pub mod position_correction;
pub mod sleep;
pub mod solver_body;
pub mod springs;
pub mod state;
pub mod tuning;
pub mod velocity_solve;
