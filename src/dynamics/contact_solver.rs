//! Sequential-impulse contact solver, in stages: prepare, warm start, solve, restitution,
//! store impulses.
//!
//! The solver starts from the velocities the integrator reached without contacts (v*, w*) and
//! changes them by impulses. Every impulse also records how far it moves its bodies by the end of
//! the step (its `reach` times the velocity change), so positions are integrated with the
//! constrained velocities without undoing the integrator's exact free flight:
//! - a contact that holds a body up acts all through the step, like the smooth forces, and its
//!   reach is the integrator's position weight times dt (dt for Euler, dt/2 for Verlet and RK4);
//! - an impact (approach faster than the restitution threshold) happens at its time of impact
//!   t_c inside the step, found from the free motion; its impulse changes the velocity for the
//!   rest of the step, so its reach is dt - t_c, and the bounce is taken against the approach
//!   speed at t_c. Under uniform gravity this makes a ball's bounce exact.
//!
//! Penetration is never removed through velocities (that would add energy); the position
//! correction stage does it.

use crate::collision::manifold::Manifold;
use crate::dynamics::state::State;
use crate::math::{rotate_tensor, DMat3, DVec3};

/// Solver settings taken from the world.
#[derive(Clone, Copy, Debug)]
pub struct SolverSettings {
    pub dt: f64,
    pub iterations: u32,
    /// Approach speeds below this (m/s) do not bounce.
    pub restitution_threshold: f64,
    /// The integrator's position weight (see `IntegratorKind::position_weight`).
    pub position_weight: f64,
}

/// A body as the solver sees it.
#[derive(Clone, Copy, Debug, Default)]
pub struct SolverBody {
    pub v: DVec3,
    pub w: DVec3,
    pub inv_mass: f64,
    pub inv_inertia: DMat3,
    /// Displacement and rotation (as a rotation vector) that the impulses add by step end.
    pub dx: DVec3,
    pub dtheta: DVec3,
    /// Whether any contact touches this body this step.
    pub touched: bool,
}

impl SolverBody {
    fn apply(&mut self, impulse: DVec3, arm: DVec3, reach: f64) {
        let dv = impulse * self.inv_mass;
        let dw = self.inv_inertia * arm.cross(impulse);
        self.v += dv;
        self.w += dw;
        self.dx += dv * reach;
        self.dtheta += dw * reach;
    }
}

#[derive(Clone, Copy, Debug)]
struct SolverPoint {
    manifold: usize,
    index: usize,
    a: usize,
    b: usize,
    ra: DVec3,
    rb: DVec3,
    n: DVec3,
    normal_mass: f64,
    mu_s: f64,
    mu_k: f64,
    /// How far the bodies move per unit velocity change by the end of the step (s).
    reach: f64,
    /// Lowest relative normal velocity the main solve allows at step end.
    target: f64,
    /// For impacts: the relative normal velocity at step end after the bounce.
    bounce_target: Option<f64>,
    normal_impulse: f64,
    /// Accumulated friction impulse, a world vector in the tangent plane.
    tangent_impulse: DVec3,
}

/// The contact solver with its buffers (reused from step to step).
#[derive(Default)]
pub struct ContactSolver {
    pub bodies: Vec<SolverBody>,
    points: Vec<SolverPoint>,
}

/// Per-body inverse mass and body-frame inverse inertia, as the solver needs them.
#[derive(Clone, Copy, Debug)]
pub struct BodyMass {
    pub inv_mass: f64,
    pub inv_inertia_body: DMat3,
}

fn effective_mass(ba: &SolverBody, bb: &SolverBody, ra: DVec3, rb: DVec3, d: DVec3) -> f64 {
    let ca = ra.cross(d);
    let cb = rb.cross(d);
    let k = ba.inv_mass + bb.inv_mass + ca.dot(ba.inv_inertia * ca) + cb.dot(bb.inv_inertia * cb);
    if k > 0.0 { 1.0 / k } else { 0.0 }
}

fn relative_velocity(ba: &SolverBody, bb: &SolverBody, ra: DVec3, rb: DVec3) -> DVec3 {
    (bb.v + bb.w.cross(rb)) - (ba.v + ba.w.cross(ra))
}

/// Earliest time in [0, dt] at which a gap s closing as s + v t + a t^2 / 2 reaches zero.
fn time_of_impact(s: f64, v: f64, a: f64, dt: f64) -> Option<f64> {
    if s <= 0.0 {
        return Some(0.0);
    }
    let (qa, qb, qc) = (0.5 * a, v, s);
    let t = if qa.abs() < 1e-300 {
        if qb < 0.0 { -qc / qb } else { return None }
    } else {
        let disc = qb * qb - 4.0 * qa * qc;
        if disc < 0.0 {
            return None;
        }
        let q = -0.5 * (qb + qb.signum() * disc.sqrt());
        let roots = [q / qa, if q != 0.0 { qc / q } else { f64::INFINITY }];
        roots.into_iter().filter(|t| *t >= 0.0).fold(f64::INFINITY, f64::min)
    };
    (t <= dt).then_some(t)
}

impl ContactSolver {
    /// Stage 1: builds solver bodies from the free state and solver points from the manifolds.
    pub fn prepare(&mut self, manifolds: &[Manifold], start: &State, free: &State, masses: &[BodyMass], set: &SolverSettings) {
        let n = start.len();
        self.bodies.clear();
        self.bodies.extend((0..n).map(|i| SolverBody { v: free.v[i], w: free.w[i], ..Default::default() }));
        for m in manifolds {
            for row in [m.row_a, m.row_b] {
                let body = &mut self.bodies[row];
                if !body.touched {
                    body.touched = true;
                    body.inv_mass = masses[row].inv_mass;
                    body.inv_inertia = rotate_tensor(start.q[row], masses[row].inv_inertia_body);
                }
            }
        }
        self.points.clear();
        let dt = set.dt;
        for (mi, m) in manifolds.iter().enumerate() {
            let (a, b) = (m.row_a, m.row_b);
            let n_ = m.normal;
            for (pi, p) in m.points.iter().enumerate() {
                let pa = start.x[a] + start.q[a] * p.local_a;
                let pb = start.x[b] + start.q[b] * p.local_b;
                let c = 0.5 * (pa + pb);
                let (ra, rb) = (c - start.x[a], c - start.x[b]);
                let s = (pb - pa).dot(n_);
                let vel0 = (start.v[b] + start.w[b].cross(rb)) - (start.v[a] + start.w[a].cross(ra));
                let vel_free = (free.v[b] + free.w[b].cross(rb)) - (free.v[a] + free.w[a].cross(ra));
                let (vn0, vn_free) = (vel0.dot(n_), vel_free.dot(n_));
                // How much the gap closes without contact forces, from the contact point's
                // velocities at fixed lever arms (a material point of a rolling ball would
                // rise off the floor and fake a separation). Exact for translation under
                // uniform gravity.
                let w_pos = set.position_weight;
                let d_free = ((1.0 - w_pos) * vn0 + w_pos * vn_free) * dt;
                let an = (vn_free - vn0) / dt;
                let (ba, bb) = (&self.bodies[a], &self.bodies[b]);
                let impact = time_of_impact(s, vn0, an, dt)
                    .map(|tc| (tc, vn0 + an * tc))
                    .filter(|&(_, vc)| vc < -set.restitution_threshold);
                let (reach, target, bounce_target) = match impact {
                    Some((tc, vc)) => {
                        let e = m.coefficients.restitution;
                        (dt - tc, vn_free - vc, Some(vn_free - (1.0 + e) * vc))
                    }
                    None => {
                        let reach = w_pos * dt;
                        let gap = s.max(0.0) + d_free;
                        // The end-of-step gap if the relative normal velocity ends at v,
                        // gap + reach (v - vn_free), must not be negative. When impulses cannot
                        // move bodies within the step (explicit Euler), keep next step's motion
                        // v dt out of the surface instead. Never ask for separation.
                        let target = if reach > 0.0 { vn_free - gap / reach } else { -gap / dt };
                        (reach, target.min(0.0), None)
                    }
                };
                let warm = impact.is_none();
                self.points.push(SolverPoint {
                    manifold: mi,
                    index: pi,
                    a,
                    b,
                    ra,
                    rb,
                    n: n_,
                    normal_mass: effective_mass(ba, bb, ra, rb, n_),
                    mu_s: m.coefficients.static_friction,
                    mu_k: m.coefficients.friction,
                    reach,
                    target,
                    bounce_target,
                    normal_impulse: if warm { p.normal_impulse } else { 0.0 },
                    tangent_impulse: if warm { p.tangent_impulse - n_ * p.tangent_impulse.dot(n_) } else { DVec3::ZERO },
                });
            }
        }
    }

    fn apply(bodies: &mut [SolverBody], p: &SolverPoint, impulse: DVec3) {
        bodies[p.a].apply(-impulse, p.ra, p.reach);
        bodies[p.b].apply(impulse, p.rb, p.reach);
    }

    /// Stage 2: applies last step's impulses of the points that persisted.
    pub fn warm_start(&mut self) {
        for p in &self.points {
            let impulse = p.n * p.normal_impulse + p.tangent_impulse;
            if impulse != DVec3::ZERO {
                Self::apply(&mut self.bodies, p, impulse);
            }
        }
    }

    /// Coulomb friction: the contact sticks while the impulse that stops sliding is within
    /// mu_s times the normal impulse; otherwise it slides with mu_k times it. Each correction
    /// is taken along the current slip velocity (with the effective mass in that direction), so
    /// a sliding contact's impulse ends up opposing its slip, not pushing it sideways.
    fn solve_friction(bodies: &mut [SolverBody], p: &mut SolverPoint) {
        let vel = relative_velocity(&bodies[p.a], &bodies[p.b], p.ra, p.rb);
        let slip = vel - p.n * vel.dot(p.n);
        let speed = slip.length();
        let old = p.tangent_impulse;
        let mut new = old;
        if speed > 0.0 {
            let dir = slip / speed;
            new -= dir * (effective_mass(&bodies[p.a], &bodies[p.b], p.ra, p.rb, dir) * speed);
        }
        let len = new.length();
        if len > p.mu_s * p.normal_impulse {
            new *= if len > 0.0 { p.mu_k * p.normal_impulse / len } else { 0.0 };
        }
        p.tangent_impulse = new;
        if new != old {
            Self::apply(bodies, p, new - old);
        }
    }

    /// Pushes the relative normal velocity up to `target`, keeping the total impulse >= 0.
    fn solve_normal(bodies: &mut [SolverBody], p: &mut SolverPoint, target: f64) {
        let vn = relative_velocity(&bodies[p.a], &bodies[p.b], p.ra, p.rb).dot(p.n);
        let new = (p.normal_impulse - p.normal_mass * (vn - target)).max(0.0);
        let d = new - p.normal_impulse;
        p.normal_impulse = new;
        if d != 0.0 {
            Self::apply(bodies, p, p.n * d);
        }
    }

    /// Stage 3: Gauss-Seidel iterations over friction and non-penetration.
    pub fn solve(&mut self, iterations: u32) {
        for _ in 0..iterations {
            for p in self.points.iter_mut() {
                Self::solve_friction(&mut self.bodies, p);
                Self::solve_normal(&mut self.bodies, p, p.target);
            }
        }
    }

    /// Stage 4: impacts bounce against the approach speed at their time of impact, with
    /// friction re-solved against the larger normal impulse.
    pub fn restitution(&mut self, iterations: u32) {
        if self.points.iter().all(|p| p.bounce_target.is_none()) {
            return;
        }
        for _ in 0..iterations {
            for p in self.points.iter_mut() {
                if let Some(target) = p.bounce_target {
                    Self::solve_normal(&mut self.bodies, p, target);
                    Self::solve_friction(&mut self.bodies, p);
                }
            }
        }
    }

    /// Stage 5: keeps the accumulated impulses in the manifolds for next step's warm start
    /// and for `World::contacts`.
    pub fn store_impulses(&self, manifolds: &mut [Manifold]) {
        for p in &self.points {
            let cp = &mut manifolds[p.manifold].points[p.index];
            cp.normal_impulse = p.normal_impulse;
            cp.tangent_impulse = p.tangent_impulse;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::time_of_impact;

    #[test]
    fn time_of_impact_of_a_falling_gap() {
        // s = 0.01 m closing at 2 m/s under -9.81 m/s^2: s - 2t - 4.905 t^2 = 0.
        let (s, v, a, dt) = (0.01, -2.0, -9.81, 1.0 / 60.0);
        let t = time_of_impact(s, v, a, dt).unwrap();
        assert!((s + v * t + 0.5 * a * t * t).abs() < 1e-15);
        assert!(t > 0.0 && t < dt);
        // Touching or overlapping: at once.
        assert_eq!(time_of_impact(0.0, -1.0, 0.0, dt), Some(0.0));
        assert_eq!(time_of_impact(-0.001, 1.0, 0.0, dt), Some(0.0));
        // Separating, too far, or turning back before reaching the surface: no impact.
        assert_eq!(time_of_impact(0.01, 1.0, 0.0, dt), None);
        assert_eq!(time_of_impact(1.0, -1.0, 0.0, dt), None);
        assert_eq!(time_of_impact(0.01, -0.1, 20.0, dt), None);
        // Constant speed: s / v.
        assert!((time_of_impact(0.01, -1.0, 0.0, dt).unwrap() - 0.01).abs() < 1e-15);
    }
}
