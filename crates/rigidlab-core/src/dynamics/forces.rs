//! The smooth forces the integrator sees: gravity, linear, quadratic and angular damping,
//! springs, applied loads, and the gyroscopic term of Euler's equations.

use super::springs::SpringRow;
use super::state::{Dynamics, Rates, State};
use crate::math::{DMat3, DVec3};

/// What the force model needs to know of one body (gathered once per step).
#[derive(Clone, Copy, Debug)]
pub struct ForceParams {
    pub dynamic: bool,
    pub inv_mass: f64,
    pub inertia_body: DMat3,
    pub inv_inertia_body: DMat3,
    pub linear_damping: f64,
    pub quadratic_drag: f64,
    pub angular_damping: f64,
    pub gravity_scale: f64,
}

/// A force (and torque) acting on one body for this step, already scaled by the share of the
/// step it acts for. The force is a world vector; when `local_point` is set it acts at that
/// body-frame point and so also gives a torque.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Load {
    pub row: usize,
    pub force: DVec3,
    pub local_point: Option<DVec3>,
    pub torque: DVec3,
}

/// The world's smooth forces over one step.
pub struct SmoothForces<'a> {
    pub gravity: DVec3,
    pub params: &'a [ForceParams],
    pub loads: &'a [Load],
    pub springs: &'a [SpringRow],
}

impl Dynamics for SmoothForces<'_> {
    fn accelerations(&self, t: f64, s: &State, out: &mut Rates) {
        self.torques(t, s, out);
        // alpha = I^-1 (tau - w x I w).
        for i in 0..s.len() {
            let p = &self.params[i];
            if !p.dynamic {
                continue;
            }
            let r = DMat3::from_quat(s.q[i].normalize());
            let w_body = r.transpose() * s.w[i];
            let tau_body = r.transpose() * out.alpha[i];
            let gyro = w_body.cross(p.inertia_body * w_body);
            out.alpha[i] = r * (p.inv_inertia_body * (tau_body - gyro));
        }
    }

    fn inertia_body(&self, i: usize) -> Option<(DMat3, DMat3)> {
        let p = &self.params[i];
        p.dynamic.then_some((p.inertia_body, p.inv_inertia_body))
    }

    fn torques(&self, _t: f64, s: &State, out: &mut Rates) {
        // First gather forces (without gravity) in `a` and torques in `alpha` ...
        for i in 0..s.len() {
            let p = &self.params[i];
            if p.dynamic {
                out.a[i] = -(p.linear_damping + p.quadratic_drag * s.v[i].length()) * s.v[i];
                out.alpha[i] = -p.angular_damping * s.w[i];
            } else {
                out.a[i] = DVec3::ZERO;
                out.alpha[i] = DVec3::ZERO;
            }
        }
        for load in self.loads {
            let i = load.row;
            if !self.params[i].dynamic {
                continue;
            }
            out.a[i] += load.force;
            out.alpha[i] += load.torque;
            if let Some(local) = load.local_point {
                let arm = s.q[i].normalize() * local;
                out.alpha[i] += arm.cross(load.force);
            }
        }
        for spring in self.springs {
            let (f, pa, pb) = spring.force(s);
            let a = spring.a;
            if self.params[a].dynamic {
                out.a[a] += f;
                out.alpha[a] += (pa - s.x[a]).cross(f);
            }
            if let Some(b) = spring.b.filter(|&b| self.params[b].dynamic) {
                out.a[b] -= f;
                out.alpha[b] += (pb - s.x[b]).cross(-f);
            }
        }
        // ... then the forces into accelerations: a = g + F/m.
        for i in 0..s.len() {
            let p = &self.params[i];
            if p.dynamic {
                out.a[i] = self.gravity * p.gravity_scale + out.a[i] * p.inv_mass;
            }
        }
    }
}
