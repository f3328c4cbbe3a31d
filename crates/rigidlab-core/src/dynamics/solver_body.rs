//! A body as the constraint solvers (contacts and joints) see it: velocities the impulses
//! change, and how far those impulses move it by the end of the step.
//!
//! Each impulse moves the body by its velocity change times its reach (see contact_solver.rs).
//! Most impulses of a step share one reach, the resting contacts' (`reach`), so the body keeps
//! only what the others add beyond it (`dx`, `dtheta`) and works out the sum when asked:
//! `reach` times the whole velocity change, plus that extra. An iteration over resting contacts
//! then changes only velocities.

use crate::dynamics::state::State;
use crate::math::{integrate_orientation_exact, rotate_tensor, DMat3, DQuat, DVec3};
use std::ops::{Index, IndexMut};

/// The solver bodies a solve may change, by row: all of them (a slice), or the two of one
/// contact (`Pair`), when the blocks of a colour are solved on several threads at once.
pub trait Bodies: IndexMut<usize, Output = SolverBody> {}

impl<T: IndexMut<usize, Output = SolverBody> + ?Sized> Bodies for T {}

/// The two bodies of one contact, rows `a` and the other: a solve of that contact reads and
/// changes no others.
pub struct Pair<'a> {
    pub a: usize,
    pub body_a: &'a mut SolverBody,
    pub body_b: &'a mut SolverBody,
}

impl Index<usize> for Pair<'_> {
    type Output = SolverBody;

    #[inline(always)]
    fn index(&self, row: usize) -> &SolverBody {
        if row == self.a {
            self.body_a
        } else {
            self.body_b
        }
    }
}

impl IndexMut<usize> for Pair<'_> {
    #[inline(always)]
    fn index_mut(&mut self, row: usize) -> &mut SolverBody {
        if row == self.a {
            self.body_a
        } else {
            self.body_b
        }
    }
}

/// Per-body inverse mass and body-frame inverse inertia, as the solvers need them.
#[derive(Clone, Copy, Debug)]
pub struct BodyMass {
    pub inv_mass: f64,
    pub inv_inertia_body: DMat3,
}

/// A solver body that nothing moves (zero inverse mass and inertia) until `touch` gives it its
/// masses; the world, as a joint's missing body, is one.
///
/// The fields every impulse reads and writes come first, together (`repr(C)` keeps them in
/// this order, 64-byte aligned): an iteration over resting contacts then reads two cache lines
/// of each body, three with the inertia.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
pub struct SolverBody {
    pub v: DVec3,
    pub w: DVec3,
    pub inv_mass: f64,
    /// The reach most impulses have (s).
    pub reach: f64,
    /// Displacement and rotation (as a rotation vector) that impulses of another reach add
    /// beyond `reach` times their velocity change (see `displacement` and `rotation`).
    pub dx: DVec3,
    pub dtheta: DVec3,
    /// World-frame inverse inertia at the start of the step.
    pub inv_inertia: DMat3,
    /// The velocities before any impulse.
    pub v_free: DVec3,
    pub w_free: DVec3,
    /// Whether any contact or joint acts on this body this step.
    pub touched: bool,
    /// The velocities at the step's start.
    pub v_start: DVec3,
    pub w_start: DVec3,
    /// What this step's impacts added so far: the velocity changes, and how far they move the
    /// body by the step's end (each change times the time left after its impact).
    pub v_impact: DVec3,
    pub w_impact: DVec3,
    pub x_impact: DVec3,
    pub theta_impact: DVec3,
    /// The angular impulse (N m s, world frame, about the centre) of this step's impacts.
    pub l_impact: DVec3,
    /// When the latest of them happened (s from the step's start).
    pub t_impact: f64,
    /// Normals (pointing into the body) of the resting contacts by which bodies that cannot
    /// move hold it up, at most `MAX_SUPPORTS` (see `motion`).
    pub supports: [DVec3; MAX_SUPPORTS],
    pub support_count: usize,
    /// How far from where it started the step it was at the farthest of its impacts (m): with
    /// where it ends, the corners of its path (the path between them is straight but for what
    /// the smooth forces bend it).
    pub impact_reach: f64,
}

/// Most supports a body's motion within the step heeds: a floor and a wall, or the two sides
/// of a groove.
pub const MAX_SUPPORTS: usize = 2;

/// A body's motion within the step as a quadratic in the time t from the step's start:
/// displacement (or rotation vector) c0 + c1 t + c2 t^2, velocity c1 + 2 c2 t. Valid from the
/// latest impact on.
#[derive(Clone, Copy, Debug, Default)]
pub struct Motion {
    pub c0: DVec3,
    pub c1: DVec3,
    pub c2: DVec3,
}

impl Motion {
    pub fn at(&self, t: f64) -> DVec3 {
        self.c0 + (self.c1 + self.c2 * t) * t
    }

    pub fn rate(&self, t: f64) -> DVec3 {
        self.c1 + self.c2 * (2.0 * t)
    }
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
            v_start: DVec3::ZERO,
            w_start: DVec3::ZERO,
            v_impact: DVec3::ZERO,
            w_impact: DVec3::ZERO,
            x_impact: DVec3::ZERO,
            theta_impact: DVec3::ZERO,
            l_impact: DVec3::ZERO,
            t_impact: 0.0,
            supports: [DVec3::ZERO; MAX_SUPPORTS],
            support_count: 0,
            impact_reach: 0.0,
        }
    }
}

impl SolverBody {
    /// A body that started the step at v0 and w0 and reaches v and w before any impulse,
    /// whose impulses mostly have reach `reach`.
    pub fn free((v0, w0): (DVec3, DVec3), v: DVec3, w: DVec3, reach: f64) -> SolverBody {
        SolverBody {
            v,
            w,
            v_free: v,
            w_free: w,
            reach,
            v_start: v0,
            w_start: w0,
            ..Default::default()
        }
    }

    /// An impact's velocity change at time t of a step of length dt: it acts from t on. `dl`
    /// is its angular impulse, `dw` what that does to the angular velocity at t.
    pub fn impact_change(&mut self, dv: DVec3, dw: DVec3, dl: DVec3, t: f64, dt: f64) {
        self.v += dv;
        self.w += dw;
        self.impact_moves(dv, dw, dl, t, dt);
    }

    /// What `impact_change` notes beyond the velocities, which the caller changed by dv and dw
    /// already (the sum of several impacts at the same time t, see `impact_events.rs`).
    pub fn impact_moves(&mut self, dv: DVec3, dw: DVec3, dl: DVec3, t: f64, dt: f64) {
        let at = self.v_start * t + self.x_impact - self.v_impact * (dt - t);
        self.impact_reach = self.impact_reach.max(at.length());
        let extra = (dt - t) - self.reach;
        if extra != 0.0 {
            self.dx += dv * extra;
            self.dtheta += dw * extra;
        }
        self.l_impact += dl;
        self.v_impact += dv;
        self.w_impact += dw;
        self.x_impact += dv * (dt - t);
        self.theta_impact += dw * (dt - t);
        self.t_impact = t;
    }

    /// Notes that a body that cannot move holds this one up by a resting contact of normal n
    /// (pointing into this body).
    pub fn rest_on(&mut self, n: DVec3) {
        if self.support_count < MAX_SUPPORTS {
            self.supports[self.support_count] = n;
            self.support_count += 1;
        }
    }

    /// The body's translation and rotation within the step, from the latest impact on (see
    /// `Motion`). The free motion starts at the start velocity and ends where the integrator
    /// put it, moved by `weight` (the integrator's position weight) of the velocity change;
    /// impulses of the common reach act the same way, like a force through the step; each
    /// impact acts from its time on. What of that change would push the body into a support
    /// that cannot move (`rest_on`) the support takes up: a box resting on the floor does not
    /// sink under the ball about to strike it (it would meet the ball slower by g t), and a
    /// ball rolling on a block does not dip below the edge of the next one.
    pub fn motion(&self, dt: f64, weight: f64) -> (Motion, Motion) {
        self.motion_seeing(self.support_count, dt, weight)
    }

    /// `motion` as the first `seen` of its supports shape it.
    pub fn motion_seeing(&self, seen: usize, dt: f64, weight: f64) -> (Motion, Motion) {
        let mut smooth_v = self.v - self.v_impact - self.v_start;
        for n in &self.supports[..seen.min(self.support_count)] {
            smooth_v -= *n * smooth_v.dot(*n).min(0.0);
        }
        let smooth_w = self.w - self.w_impact - self.w_start;
        let k = weight / dt;
        let linear = Motion {
            c0: self.x_impact - self.v_impact * dt,
            c1: self.v_start + self.v_impact,
            c2: smooth_v * k,
        };
        let angular = Motion {
            c0: self.theta_impact - self.w_impact * dt,
            c1: self.w_start + self.w_impact,
            c2: smooth_w * k,
        };
        (linear, angular)
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
        self.change(
            impulse * self.inv_mass,
            self.inv_inertia * arm.cross(impulse),
            reach,
        );
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

    /// `change` of a body of a 2D world, whose velocity changes along x and y and spin
    /// changes about z: `dv` along x and y, `dw` about z.
    #[inline]
    pub fn change_in_plane(&mut self, dv: (f64, f64), dw: f64, reach: f64) {
        self.v.x += dv.0;
        self.v.y += dv.1;
        self.w.z += dw;
        let extra = reach - self.reach;
        if extra != 0.0 {
            self.dx.x += dv.0 * extra;
            self.dx.y += dv.1 * extra;
            self.dtheta.z += dw * extra;
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

    /// Carries the impacts' angular impulse to the end of the step, for a body with inverse
    /// inertia `inv_body` (body frame) that the integrator alone took to orientation `q_free`
    /// and angular velocity `w_free`. Free motion keeps the angular momentum and the impacts add
    /// theirs, so the impacts' share of the end angular velocity is worked out from the
    /// momentum at the orientation the body now ends the step at. (Leaving it as the velocity
    /// change at the impact's orientation lets a tumbling body's inertia turn under a change it
    /// did not make: an elastic bounce would gain or lose energy in proportion to the step.)
    /// Made once the impacts are done and before the resting solve, which then holds the
    /// contacts with this velocity; it moves nothing within the step.
    pub fn carry_impacts_to_end(&mut self, inv_body: DMat3, (q_free, w_free): (DQuat, DVec3)) {
        if self.l_impact == DVec3::ZERO || inv_body.determinant() == 0.0 {
            return;
        }
        let q = integrate_orientation_exact(q_free, self.rotation(), 1.0);
        let momentum = rotate_tensor(q_free, inv_body.inverse()) * w_free + self.l_impact;
        let w = rotate_tensor(q, inv_body) * momentum;
        self.change(DVec3::ZERO, w - (w_free + self.w_impact), 0.0);
    }

    /// Where the body will be at the end of the step: the free motion plus what the impulses
    /// added so far.
    pub fn end_pose(&self, free: &State, row: usize) -> (DVec3, DQuat) {
        let turn = self.rotation();
        let q = if turn == DVec3::ZERO {
            free.q[row]
        } else {
            integrate_orientation_exact(free.q[row], turn, 1.0)
        };
        (free.x[row] + self.displacement(), q)
    }
}
