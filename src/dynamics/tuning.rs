//! The solver's tuning numbers that are not physics: how hard it works and what it treats as
//! the same. Each says why it is what it is and what was measured.

/// Gauss-Seidel sweeps of the joints' position phase per solver iteration (250 at the
/// default 10 iterations). Joint trees of two or more joints are solved by Newton's method
/// instead (joint_tree.rs); the sweeps hold what that leaves: closed loops, ropes, hinge
/// limits and lone joints. The sweeps stop once every joint is within the position tolerance.
pub const JOINT_POSITION_SWEEPS: u32 = 25;
