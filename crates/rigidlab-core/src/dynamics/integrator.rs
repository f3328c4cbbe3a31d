//! The four integrators a world can use, each advancing the whole state by one step under the
//! smooth forces. With no contact or joint active, a world step is exactly one of these.

use super::free_rotation::free_rotation;
use super::state::{Dynamics, Rates, State};
use crate::error::{Error, Result};
use crate::math::{
    integrate_orientation_exact, integrate_orientation_linear, quat_derivative, DMat3, DQuat, DVec3,
};

/// World angular momentum of a body at orientation q turning at w (world frame).
fn momentum(q: DQuat, inertia_body: DMat3, w: DVec3) -> DVec3 {
    q * (inertia_body * (q.inverse() * w))
}

/// World angular velocity of a body at orientation q with angular momentum l.
fn velocity(q: DQuat, inv_inertia_body: DMat3, l: DVec3) -> DVec3 {
    q * (inv_inertia_body * (q.inverse() * l))
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum IntegratorKind {
    /// Explicit (forward) Euler: x += v dt, v += a dt, both from the start of the step.
    /// First order; gains energy on oscillators.
    Euler,
    /// Semi-implicit (symplectic) Euler: v += a dt, then x += v_new dt. First order, symplectic.
    SymplecticEuler,
    /// Velocity Verlet: x += v dt + a dt^2/2, v += (a + a_new) dt/2. Second order, symplectic,
    /// exact under uniform gravity.
    #[default]
    Verlet,
    /// Classical fourth-order Runge-Kutta.
    Rk4,
}

impl IntegratorKind {
    pub const NAMES: &'static str = "'euler', 'symplectic_euler', 'verlet', 'rk4'";

    pub fn parse(param: &str, name: &str) -> Result<IntegratorKind> {
        match name {
            "euler" => Ok(IntegratorKind::Euler),
            "symplectic_euler" => Ok(IntegratorKind::SymplecticEuler),
            "verlet" => Ok(IntegratorKind::Verlet),
            "rk4" => Ok(IntegratorKind::Rk4),
            _ => Err(Error::UnknownName {
                param: param.into(),
                what: "integrator".into(),
                value: name.into(),
                choices: Self::NAMES.into(),
            }),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            IntegratorKind::Euler => "euler",
            IntegratorKind::SymplecticEuler => "symplectic_euler",
            IntegratorKind::Verlet => "verlet",
            IntegratorKind::Rk4 => "rk4",
        }
    }

    /// How an integrator moves positions within a step, as the weight of the end velocity
    /// against the start velocity: 0 for explicit Euler (x += v_start dt), 1 for symplectic
    /// Euler (x += v_end dt), 1/2 for Verlet and RK4 (the mean of the two, exact under constant
    /// acceleration). The contact solver uses it to predict how a gap closes and how far an
    /// impulse moves a supported body by the end of the step.
    pub fn position_weight(self) -> f64 {
        match self {
            IntegratorKind::Euler => 0.0,
            IntegratorKind::SymplecticEuler => 1.0,
            IntegratorKind::Verlet | IntegratorKind::Rk4 => 0.5,
        }
    }
}

/// An integrator with its scratch buffers (reused from step to step).
#[derive(Default)]
pub struct Integrator {
    pub kind: IntegratorKind,
    k0: Rates,
    k1: Rates,
    stage: State,
    /// RK4: rates of the latest stage (x: v, q: dq/dt, v: a, w: alpha).
    rate: State,
    sum: State,
    /// `step_back`: the forward step of its guess.
    ahead: State,
}

/// Most refining passes of `step_back`; they stop once the miss no longer shrinks (a few
/// passes at lab time steps).
const REFINE_PASSES: usize = 20;

impl Integrator {
    pub fn new(kind: IntegratorKind) -> Integrator {
        Integrator {
            kind,
            ..Default::default()
        }
    }

    /// Takes `s1` (at time t) back by one step of dt into `out`: the state whose forward step
    /// is `s1`. Velocity Verlet is its own adjoint (the step with -dt undoes a step of
    /// position-only forces), symplectic Euler's adjoint is its position-first variant with
    /// -dt (x -= v dt, then v -= a(x) dt); that first guess is then refined until its forward
    /// step lands on `s1` to round-off (for velocity-dependent terms, as a tumbling body's
    /// gyroscopic torque, the adjoint alone is only close). Explicit Euler and RK4 are not
    /// symmetric in time, run with -dt they do not retrace their path, and they are refused.
    pub fn step_back(
        &mut self,
        dyn_: &impl Dynamics,
        t: f64,
        dt: f64,
        s1: &State,
        out: &mut State,
    ) -> Result<()> {
        let n = s1.len();
        out.resize(n);
        self.k0.resize(n);
        self.k1.resize(n);
        match self.kind {
            IntegratorKind::Verlet => self.verlet(dyn_, t, -dt, s1, out),
            IntegratorKind::SymplecticEuler => {
                out.copy_from(s1);
                for i in 0..n {
                    out.x[i] = s1.x[i] - s1.v[i] * dt;
                    out.q[i] = integrate_orientation_linear(s1.q[i], s1.w[i], -dt);
                }
                dyn_.accelerations(t - dt, out, &mut self.k0);
                for i in 0..n {
                    out.v[i] = s1.v[i] - self.k0.a[i] * dt;
                    out.w[i] = s1.w[i] - self.k0.alpha[i] * dt;
                }
            }
            kind => {
                return Err(Error::invalid(
                    "n",
                    "a negative number of steps",
                    &format!(
                        "the '{}' integrator is not symmetric in time: run backwards it does \
                         not retrace its path. Velocity Verlet ('verlet') and symplectic Euler \
                         ('symplectic_euler') step back exactly; any integrator goes back \
                         through World(history=seconds) and rewind()",
                        kind.name()
                    ),
                ))
            }
        }
        // Newton's iteration with the identity for the Jacobian (a step is the identity to
        // first order in dt): each pass shrinks the miss by a factor of order dt.
        let mut ahead = std::mem::take(&mut self.ahead);
        let mut last = f64::INFINITY;
        for _ in 0..REFINE_PASSES {
            self.step(dyn_, t - dt, dt, out, &mut ahead);
            let mut miss: f64 = 0.0;
            for i in 0..n {
                let (dx, dv, dw) = (
                    s1.x[i] - ahead.x[i],
                    s1.v[i] - ahead.v[i],
                    s1.w[i] - ahead.w[i],
                );
                let dq = s1.q[i] - ahead.q[i];
                out.x[i] += dx;
                out.v[i] += dv;
                out.w[i] += dw;
                out.q[i] = (out.q[i] + dq).normalize();
                miss = miss
                    .max(dx.abs().max_element())
                    .max(dv.abs().max_element())
                    .max(dw.abs().max_element())
                    .max(dq.length());
            }
            if miss == 0.0 || miss >= last {
                break;
            }
            last = miss;
        }
        self.ahead = ahead;
        Ok(())
    }

    /// Advances `s0` (at time t) by dt into `out`.
    pub fn step(&mut self, dyn_: &impl Dynamics, t: f64, dt: f64, s0: &State, out: &mut State) {
        let n = s0.len();
        out.resize(n);
        self.k0.resize(n);
        self.k1.resize(n);
        match self.kind {
            IntegratorKind::Euler => self.euler(dyn_, t, dt, s0, out),
            IntegratorKind::SymplecticEuler => self.symplectic_euler(dyn_, t, dt, s0, out),
            IntegratorKind::Verlet => self.verlet(dyn_, t, dt, s0, out),
            IntegratorKind::Rk4 => self.rk4(dyn_, t, dt, s0, out),
        }
    }

    fn euler(&mut self, d: &impl Dynamics, t: f64, dt: f64, s0: &State, out: &mut State) {
        d.accelerations(t, s0, &mut self.k0);
        for i in 0..s0.len() {
            out.x[i] = s0.x[i] + s0.v[i] * dt;
            out.v[i] = s0.v[i] + self.k0.a[i] * dt;
            out.q[i] = integrate_orientation_linear(s0.q[i], s0.w[i], dt);
            out.w[i] = s0.w[i] + self.k0.alpha[i] * dt;
        }
    }

    /// Semi-implicit Euler: kick, then drift. The angular part kicks the angular momentum
    /// with the torques and then turns the body freely with it (free_rotation.rs), so a
    /// tumbling body keeps its angular momentum and energy as the method promises.
    fn symplectic_euler(
        &mut self,
        d: &impl Dynamics,
        t: f64,
        dt: f64,
        s0: &State,
        out: &mut State,
    ) {
        d.torques(t, s0, &mut self.k0);
        for i in 0..s0.len() {
            out.v[i] = s0.v[i] + self.k0.a[i] * dt;
            out.x[i] = s0.x[i] + out.v[i] * dt;
            match d.inertia_body(i) {
                Some((inertia, inv)) => {
                    let l1 = momentum(s0.q[i], inertia, s0.w[i]) + self.k0.alpha[i] * dt;
                    out.q[i] = free_rotation(s0.q[i], l1, inv, dt);
                    out.w[i] = velocity(out.q[i], inv, l1);
                }
                None => {
                    out.w[i] = s0.w[i];
                    out.q[i] = integrate_orientation_linear(s0.q[i], out.w[i], dt);
                }
            }
        }
    }

    /// Velocity Verlet: half a kick, a drift, half a kick. Forces that depend on velocity
    /// (damping) are evaluated at the end of the step with a predicted velocity, which keeps
    /// the method second order; for position-only forces it is the textbook scheme. The angular
    /// part kicks the angular momentum with the torques and turns the body freely with it in
    /// between (free_rotation.rs): torque-free, the angular momentum and the energy are kept to
    /// round-off, and the step stays symmetric in time.
    fn verlet(&mut self, d: &impl Dynamics, t: f64, dt: f64, s0: &State, out: &mut State) {
        d.torques(t, s0, &mut self.k0);
        for i in 0..s0.len() {
            let a0 = self.k0.a[i];
            out.x[i] = s0.x[i] + s0.v[i] * dt + a0 * (0.5 * dt * dt);
            out.v[i] = s0.v[i] + a0 * dt;
            match d.inertia_body(i) {
                Some((inertia, inv)) => {
                    // The half-kicked momentum, kept until the end kick.
                    let l_half =
                        momentum(s0.q[i], inertia, s0.w[i]) + self.k0.alpha[i] * (0.5 * dt);
                    out.q[i] = free_rotation(s0.q[i], l_half, inv, dt);
                    self.k0.alpha[i] = l_half;
                    out.w[i] = velocity(out.q[i], inv, l_half);
                }
                None => {
                    out.q[i] = integrate_orientation_exact(s0.q[i], s0.w[i], dt);
                    out.w[i] = s0.w[i];
                }
            }
        }
        d.torques(t + dt, out, &mut self.k1);
        for i in 0..s0.len() {
            out.v[i] = s0.v[i] + (self.k0.a[i] + self.k1.a[i]) * (0.5 * dt);
            if let Some((_, inv)) = d.inertia_body(i) {
                let l1 = self.k0.alpha[i] + self.k1.alpha[i] * (0.5 * dt);
                out.w[i] = velocity(out.q[i], inv, l1);
            }
        }
    }

    /// Classical RK4 on (x, q, v, w) with dq/dt = (w, 0) q / 2; q is renormalised at the end.
    fn rk4(&mut self, d: &impl Dynamics, t: f64, dt: f64, s0: &State, out: &mut State) {
        let n = s0.len();
        self.stage.resize(n);
        self.rate.resize(n);
        self.sum.resize(n);
        // Stage 1 at s0, weight 1.
        d.accelerations(t, s0, &mut self.k0);
        for i in 0..n {
            self.rate.x[i] = s0.v[i];
            self.rate.q[i] = quat_derivative(s0.q[i], s0.w[i]);
            self.rate.v[i] = self.k0.a[i];
            self.rate.w[i] = self.k0.alpha[i];
        }
        self.sum.copy_from(&self.rate);
        // Stages 2-4 at s0 + c dt (previous stage's rates), weights 2, 2, 1.
        for (c, weight) in [(0.5, 2.0), (0.5, 2.0), (1.0, 1.0)] {
            let h = c * dt;
            for i in 0..n {
                self.stage.x[i] = s0.x[i] + self.rate.x[i] * h;
                self.stage.q[i] = s0.q[i] + self.rate.q[i] * h;
                self.stage.v[i] = s0.v[i] + self.rate.v[i] * h;
                self.stage.w[i] = s0.w[i] + self.rate.w[i] * h;
            }
            d.accelerations(t + h, &self.stage, &mut self.k0);
            for i in 0..n {
                self.rate.x[i] = self.stage.v[i];
                self.rate.q[i] = quat_derivative(self.stage.q[i], self.stage.w[i]);
                self.rate.v[i] = self.k0.a[i];
                self.rate.w[i] = self.k0.alpha[i];
                self.sum.x[i] += self.rate.x[i] * weight;
                self.sum.q[i] = self.sum.q[i] + self.rate.q[i] * weight;
                self.sum.v[i] += self.rate.v[i] * weight;
                self.sum.w[i] += self.rate.w[i] * weight;
            }
        }
        let h6 = dt / 6.0;
        for i in 0..n {
            out.x[i] = s0.x[i] + self.sum.x[i] * h6;
            out.q[i] = (s0.q[i] + self.sum.q[i] * h6).normalize();
            out.v[i] = s0.v[i] + self.sum.v[i] * h6;
            out.w[i] = s0.w[i] + self.sum.w[i] * h6;
        }
    }
}
