//! Removes the penetration left after a step by moving bodies apart along the contact normals
//! (non-linear Gauss-Seidel on positions, as Box2D v2 does). Velocities are not touched, so no
//! energy enters the motion.
//!
//! Each pass removes most of every overlap beyond the slop (`factor`): an overshoot only leaves
//! a gap that gravity closes, while a small factor leaves a deep pile compressed for seconds (the
//! bottom of a column carries the corrections of everything above). Passes stop as soon as no
//! contact overlaps beyond the slop, so a settled scene pays for one.

use crate::collision::manifold::Manifold;
use crate::dynamics::solver_body::BodyMass;
use crate::dynamics::state::State;
use crate::math::{integrate_orientation_exact, rotate_tensor, DVec3};

#[derive(Clone, Copy, Debug)]
pub struct CorrectionSettings {
    pub iterations: u32,
    /// Penetration allowed without correction (m).
    pub slop: f64,
    /// Fraction of the remaining penetration removed per iteration.
    pub factor: f64,
    /// Largest correction per point and iteration (m).
    pub max_correction: f64,
}

pub fn correct_positions(manifolds: &[Manifold], masses: &[BodyMass], state: &mut State, set: &CorrectionSettings) {
    for _ in 0..set.iterations {
        let mut moved = false;
        for m in manifolds {
            let (a, b) = (m.row_a, m.row_b);
            let (ma, mb) = (masses[a], masses[b]);
            if ma.inv_mass == 0.0 && mb.inv_mass == 0.0 {
                continue;
            }
            for p in &m.points {
                let pa = state.x[a] + state.q[a] * p.local_a;
                let pb = state.x[b] + state.q[b] * p.local_b;
                let s = (pb - pa).dot(m.normal);
                let c = (set.factor * (s + set.slop)).clamp(-set.max_correction, 0.0);
                if c >= 0.0 {
                    continue;
                }
                let mid = 0.5 * (pa + pb);
                let (ra, rb) = (mid - state.x[a], mid - state.x[b]);
                let (ia, ib) = (rotate_tensor(state.q[a], ma.inv_inertia_body), rotate_tensor(state.q[b], mb.inv_inertia_body));
                let (ca, cb) = (ra.cross(m.normal), rb.cross(m.normal));
                let k = ma.inv_mass + mb.inv_mass + ca.dot(ia * ca) + cb.dot(ib * cb);
                if k <= 0.0 {
                    continue;
                }
                let impulse = m.normal * (-c / k);
                moved = true;
                move_body(state, a, -impulse, ma.inv_mass, ia * ra.cross(-impulse));
                move_body(state, b, impulse, mb.inv_mass, ib * rb.cross(impulse));
            }
        }
        if !moved {
            break;
        }
    }
}

fn move_body(state: &mut State, row: usize, impulse: DVec3, inv_mass: f64, rotation: DVec3) {
    state.x[row] += impulse * inv_mass;
    if rotation != DVec3::ZERO {
        state.q[row] = integrate_orientation_exact(state.q[row], rotation, 1.0);
    }
}
