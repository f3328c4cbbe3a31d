//! Motion: the state and its integrators, the smooth forces, and the constraint solvers.

pub mod block_lcp;
pub mod contact_solver;
pub mod forces;
pub mod integrator;
pub mod position_correction;
pub mod state;
