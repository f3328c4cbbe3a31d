//! Mouse joints: a body's anchor pulled towards a world target by a soft constraint, a spring
//! and a damper solved implicitly at the step's end (the soft constraints of Catto, "Soft
//! Constraints", GDC 2011, which Box2D's mouse joint uses), acting through the step as the
//! smooth forces do.
//!
//! With K the anchor's effective inverse mass (a 3x3 matrix), d the separation from the anchor
//! to the target and d' its rate, the spring k = w^2 K^-1 and the damper c = 2 z w K^-1 (w the
//! angular frequency, z the damping ratio) give over a step h the impulse
//!   P = -h (k d1 + c d1'),  d1 = d0 + r K P,  d1' = d0' + K P,
//! at the end of the step (d0, d0' what the step gives without the pull; r = the impulse's
//! reach, the integrator's position weight times h). Solved for P:
//!   P = -K^-1 (h w^2 d0 + 2 h z w d0') / (1 + r h w^2 + 2 h z w).
//! The solver's iterations change d and d' through other constraints, so each adds
//!   -(K^-1 (h w^2 d + 2 h z w d') + P_so_far) / (1 + r h w^2 + 2 h z w),
//! which is zero once P is the solution. The damping acts on the whole relative velocity, so a
//! body swinging round its target settles as surely as one pulled straight at it. Implicit, it
//! is stable at any frequency and step, and a frequency far above 1/h acts as a hard joint. At
//! rest under a steady force F the anchor sits K F / w^2 from the target (g / w^2 below it for a
//! body held at its centre), as on a spring of that stiffness.

use super::{arms, Row, Sides};
use crate::dense;
use crate::dynamics::joints::Joint;
use crate::math::DVec3;

/// The softness of a mouse joint: its undamped frequency (Hz), damping ratio and force cap.
pub(super) struct Soft {
    pub frequency: f64,
    pub damping_ratio: f64,
    pub max_force: Option<f64>,
}

/// Velocity phase: the pull towards the target so far made the soft step's (there is no
/// position phase: the pull acts through the step, like a force).
pub(super) fn velocity(joint: &Joint, row: &mut Row, s: &mut Sides, dt: f64, soft: &Soft) {
    let (ra, rb, d) = arms(joint, s);
    let Some(k_inv) = dense::inverse3(s.point_mass(ra, rb)) else {
        return;
    };
    let omega = std::f64::consts::TAU * soft.frequency;
    let reach = s.bodies[s.a].reach;
    let (spring, damper) = (dt * omega * omega, 2.0 * dt * soft.damping_ratio * omega);
    let rate = s.relative_velocity(ra, rb);
    // Impulses are counted on the target's side (b), as every joint's are.
    let mut p =
        -(k_inv * (spring * d + damper * rate) + row.impulse) / (1.0 + reach * spring + damper);
    if let Some(cap) = soft.max_force {
        let total = row.impulse + p;
        let most = cap * dt;
        if total.length() > most {
            p = total * (most / total.length()) - row.impulse;
        }
    }
    if p != DVec3::ZERO {
        s.push(p, ra, rb, reach);
        row.impulse += p;
    }
}
