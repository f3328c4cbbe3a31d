//! A body as the constraint solvers (contacts and joints) see it: velocities the impulses
//! change, and how far those impulses move it by the end of the step.
//!
//! Each impulse moves the body by its velocity change times its reach (see contact_solver.rs).
//! Most impulses of a step share one reach, the resting contacts' (`reach`), so the body keeps
//! only what the others add beyond it (`dx`, `dtheta`) and works out the sum when asked:
//! `reach` times the whole velocity change, plus that extra. An iteration over resting contacts
//! then changes only velocities.

use crate::math::{integrate_orientation_exact, rotate_tensor, DMat3, DQuat, DVec3};
use crate::dynamics::state::State;

/// Per-body inverse mass and body-frame inverse inertia, as the solvers need them.
#[derive(Clone, Copy, Debug)]
pub struct BodyMass {
    pub inv_mass: f64,
    pub inv_inertia_body: DMat3,
}

/// A solver body that nothing moves (zero inverse mass and inertia) until `touch` gives it its
/// masses; the world, as a joint's missing body, is one.
#[derive(Clone, Copy, Debug)]
pub struct SolverBody {
    pub v: DVec3,
    pub w: DVec3,
    pub inv_mass: f64,
    /// World-frame inverse inertia at the start of the step.
    pub inv_inertia: DMat3,
    /// The velocities before any impulse.
    pub v_free: DVec3,
    pub w_free: DVec3,
    /// The reach most impulses have (s).
    pub reach: f64,
    /// Displacement and rotation (as a rotation vector) that impulses of another reach add
    /// beyond `reach` times their velocity change (see `displacement` and `rotation`).
    pub dx: DVec3,
    pub dtheta: DVec3,
    /// Whether any contact or joint acts on this body this step.
    pub touched: bool,
    /// Largest reach of the impacts that hit this body this step (s).
    pub(crate) impact_reach: f64,
}

impl Default for SolverBody {
    fn default() -> SolverBody {
        SolverBody {
            v: DVec3::ZERO,
            w: DVec3::ZERO,
            inv_mass: 0.0,
            // Not glam's default, which is the identity.
            inv_inertia: DMat3::ZERO,
            v_free: DVec3::ZERO,
            w_free: DVec3::ZERO,
            reach: 0.0,
            dx: DVec3::ZERO,
            dtheta: DVec3::ZERO,
            touched: false,
            impact_reach: 0.0,
        }
    }
}

impl SolverBody {
    /// A body moving at v and w before any impulse, whose impulses mostly have reach `reach`.
    pub fn free(v: DVec3, w: DVec3, reach: f64) -> SolverBody {
        SolverBody { v, w, v_free: v, w_free: w, reach, ..Default::default() }
    }

    /// Marks the body as constrained this step, with its masses at orientation q.
    pub fn touch(&mut self, q: DQuat, mass: &BodyMass) {
        if !self.touched {
            self.touched = true;
            self.inv_mass = mass.inv_mass;
            self.inv_inertia = rotate_tensor(q, mass.inv_inertia_body);
        }
    }

    /// Applies an impulse at lever arm `arm`; it moves the body by the velocity change times
    /// `reach` (s) by the end of the step.
    pub fn apply(&mut self, impulse: DVec3, arm: DVec3, reach: f64) {
        self.change(impulse * self.inv_mass, self.inv_inertia * arm.cross(impulse), reach);
    }

    /// Changes the velocities by dv and dw (worked out by the caller from an impulse); the
    /// change moves the body by itself times `reach` (s) by the end of the step.
    pub fn change(&mut self, dv: DVec3, dw: DVec3, reach: f64) {
        self.v += dv;
        self.w += dw;
        let extra = reach - self.reach;
        if extra != 0.0 {
            self.dx += dv * extra;
            self.dtheta += dw * extra;
        }
    }

    /// Changes the velocities by dv and dw and the end-of-step pose by dx and dtheta beyond
    /// `reach` times dv and dw: several changes, each with its own reach, summed.
    pub fn shift(&mut self, dv: DVec3, dw: DVec3, dx: DVec3, dtheta: DVec3) {
        self.v += dv;
        self.w += dw;
        self.dx += dx;
        self.dtheta += dtheta;
    }

    /// Applies an angular impulse (N m s).
    pub fn apply_angular(&mut self, impulse: DVec3, reach: f64) {
        self.change(DVec3::ZERO, self.inv_inertia * impulse, reach);
    }

    /// How far the impulses so far move the body by the end of the step.
    pub fn displacement(&self) -> DVec3 {
        self.dx + (self.v - self.v_free) * self.reach
    }

    /// How far the impulses so far turn the body by the end of the step (a rotation vector).
    pub fn rotation(&self) -> DVec3 {
        self.dtheta + (self.w - self.w_free) * self.reach
    }

    /// Where the body will be at the end of the step: the free motion plus what the impulses
    /// added so far.
    pub fn end_pose(&self, free: &State, row: usize) -> (DVec3, DQuat) {
        let turn = self.rotation();
        let q = if turn == DVec3::ZERO { free.q[row] } else { integrate_orientation_exact(free.q[row], turn, 1.0) };
        (free.x[row] + self.displacement(), q)
    }
}
