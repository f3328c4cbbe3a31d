//! Removes the penetration left after a step by moving bodies apart along the contact normals
//! (non-linear Gauss-Seidel on positions, as Box2D v2 does). Velocities are not touched, so no
//! energy enters the motion.
//!
//! The points of a manifold are corrected together (the same small complementarity problem as
//! the velocity solver's blocks, on displacements): one point at a time, the first corner of a
//! box's face would be pushed out alone and tilt the box, the next would tilt it back, and a
//! tall stack would wander sideways and tremble. Each pass removes most of every overlap
//! beyond the slop (`factor`): an overshoot only leaves a gap that gravity closes, while a small
//! factor leaves a deep pile compressed for seconds (the bottom of a column carries the
//! corrections of everything above). Passes stop once no contact overlaps the slop by more
//! than a tenth of it, so a settled scene pays for one.

use crate::collision::manifold::Manifold;
use crate::dynamics::block_lcp;
use crate::dynamics::solver_body::BodyMass;
use crate::dynamics::state::State;
use crate::math::{integrate_orientation_linear, rotate_tensor, DMat3, DVec3};

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

/// Overlap beyond the slop, as a fraction of the slop, that does not call for another pass.
const SETTLED: f64 = 0.1;

/// Corrects the positions in `state`. `inv_inertia` is a buffer for the bodies' world inverse
/// inertias, taken once at the stage's start: the corrections turn bodies by far less than a
/// degree, so working them out again at every pass would change nothing that matters. `radii`
/// holds each body's radius if it is a sphere (0 otherwise): two spheres overlap by what their
/// centres say, along the line between them (the contact points found at the step's start say
/// nothing true of two balls that passed each other since).
pub fn correct_positions(
    manifolds: &[Manifold],
    masses: &[BodyMass],
    radii: &[f64],
    state: &mut State,
    set: &CorrectionSettings,
    inv_inertia: &mut Vec<DMat3>,
) {
    inv_inertia.clear();
    inv_inertia.extend(masses.iter().zip(&state.q).map(|(m, &q)| {
        if m.inv_mass > 0.0 {
            rotate_tensor(q, m.inv_inertia_body)
        } else {
            DMat3::ZERO
        }
    }));
    for _ in 0..set.iterations {
        let deepest = manifolds
            .iter()
            .map(|m| correct_manifold(m, masses, radii, inv_inertia, state, set))
            .fold(0.0, f64::max);
        if deepest <= SETTLED * set.slop {
            break;
        }
    }
}

/// One manifold's correction. Returns its deepest overlap beyond the slop before it (m).
fn correct_manifold(
    m: &Manifold,
    masses: &[BodyMass],
    radii: &[f64],
    inv_inertia: &[DMat3],
    state: &mut State,
    set: &CorrectionSettings,
) -> f64 {
    let (a, b) = (m.row_a, m.row_b);
    let (ma, mb) = (masses[a], masses[b]);
    if (ma.inv_mass == 0.0 && mb.inv_mass == 0.0) || m.points.is_empty() {
        return 0.0;
    }
    if radii[a] > 0.0 && radii[b] > 0.0 {
        let d = state.x[b] - state.x[a];
        let (len, n) = (d.length(), d.normalize_or_zero());
        let beyond = len - (radii[a] + radii[b]) + set.slop;
        if beyond >= 0.0 || n == DVec3::ZERO {
            return 0.0;
        }
        // Through both centres: no turn.
        let push = -(set.factor * beyond).max(-set.max_correction) / (ma.inv_mass + mb.inv_mass);
        move_body(state, a, -n * push * ma.inv_mass, DVec3::ZERO);
        move_body(state, b, n * push * mb.inv_mass, DVec3::ZERO);
        return -beyond;
    }
    let n = m.points.len().min(block_lcp::MAX);
    // Per point: lever arms and the separation change allowed (negative: required).
    let mut ra = [DVec3::ZERO; block_lcp::MAX];
    let mut rb = [DVec3::ZERO; block_lcp::MAX];
    let mut c = [0.0; block_lcp::MAX];
    let mut deepest: f64 = 0.0;
    for (i, p) in m.points.iter().take(n).enumerate() {
        let pa = state.x[a] + state.q[a] * p.local_a;
        let pb = state.x[b] + state.q[b] * p.local_b;
        let beyond = (pb - pa).dot(m.normal) + set.slop;
        deepest = deepest.max(-beyond);
        c[i] = if beyond < 0.0 {
            (set.factor * beyond).max(-set.max_correction)
        } else {
            beyond
        };
        let mid = 0.5 * (pa + pb);
        (ra[i], rb[i]) = (mid - state.x[a], mid - state.x[b]);
    }
    if c[..n].iter().all(|&ci| ci >= 0.0) {
        return 0.0;
    }
    let (ia, ib) = (inv_inertia[a], inv_inertia[b]);
    let push = if n == 1 {
        // One point (a ball's contact): the push that removes its overlap, in closed form.
        let (ca, cb) = (ra[0].cross(m.normal), rb[0].cross(m.normal));
        let k = ma.inv_mass + mb.inv_mass + ca.dot(ia * ca) + cb.dot(ib * cb);
        if k <= 0.0 {
            return deepest;
        }
        let mut push = [0.0; block_lcp::MAX];
        push[0] = -c[0] / k;
        push
    } else {
        let k = block_lcp::coupling(
            m.normal,
            ma.inv_mass + mb.inv_mass,
            ia,
            ib,
            &ra[..n],
            &rb[..n],
        );
        let all = (1u32 << n) - 1;
        let Some(push) = block_lcp::solve(&k, &c, n, all, None, None) else {
            return deepest;
        };
        push
    };
    let (mut impulse, mut arm_a, mut arm_b) = (0.0, DVec3::ZERO, DVec3::ZERO);
    for i in 0..n {
        impulse += push[i];
        arm_a += ra[i].cross(m.normal) * push[i];
        arm_b += rb[i].cross(m.normal) * push[i];
    }
    if impulse > 0.0 {
        move_body(state, a, -m.normal * impulse * ma.inv_mass, ia * -arm_a);
        move_body(state, b, m.normal * impulse * mb.inv_mass, ib * arm_b);
    }
    deepest
}

/// Moves a body by a small shift and rotation (a rotation vector: a correction turns a body by
/// far less than a degree, so the first-order update is as good as the exact one and cheaper).
fn move_body(state: &mut State, row: usize, shift: DVec3, rotation: DVec3) {
    state.x[row] += shift;
    if rotation != DVec3::ZERO {
        state.q[row] = integrate_orientation_linear(state.q[row], rotation, 1.0);
    }
}
