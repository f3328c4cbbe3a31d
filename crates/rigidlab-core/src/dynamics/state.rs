//! The whole-world motion state the integrators advance, as arrays indexed by body row.

use crate::math::{DMat3, DQuat, DVec3};

/// Positions, orientations, linear and angular velocities of every body.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct State {
    pub x: Vec<DVec3>,
    pub q: Vec<DQuat>,
    pub v: Vec<DVec3>,
    pub w: Vec<DVec3>,
}

impl State {
    pub fn len(&self) -> usize {
        self.x.len()
    }

    pub fn is_empty(&self) -> bool {
        self.x.is_empty()
    }

    /// Makes the state hold `n` bodies, reusing its buffers.
    pub fn resize(&mut self, n: usize) {
        self.x.resize(n, DVec3::ZERO);
        self.q.resize(n, DQuat::IDENTITY);
        self.v.resize(n, DVec3::ZERO);
        self.w.resize(n, DVec3::ZERO);
    }

    pub fn copy_from(&mut self, other: &State) {
        self.x.clone_from(&other.x);
        self.q.clone_from(&other.q);
        self.v.clone_from(&other.v);
        self.w.clone_from(&other.w);
    }
}

/// Linear and angular accelerations of every body.
#[derive(Clone, Debug, Default)]
pub struct Rates {
    pub a: Vec<DVec3>,
    pub alpha: Vec<DVec3>,
}

impl Rates {
    pub fn resize(&mut self, n: usize) {
        self.a.resize(n, DVec3::ZERO);
        self.alpha.resize(n, DVec3::ZERO);
    }
}

/// Anything that gives accelerations for a state at a time: the world's smooth forces.
pub trait Dynamics {
    /// Linear accelerations in `a`, angular accelerations (Euler's equations, the gyroscopic
    /// term included) in `alpha`.
    fn accelerations(&self, t: f64, s: &State, out: &mut Rates);
    /// Linear accelerations in `a` and the torques (world frame, the gyroscopic term left out)
    /// in `alpha`: what the symplectic integrators kick the angular momentum with.
    fn torques(&self, t: f64, s: &State, out: &mut Rates);
    /// A body's inertia and inverse inertia in its own frame, for one that turns under torques
    /// (None: its angular velocity is held, as a kinematic body's).
    fn inertia_body(&self, i: usize) -> Option<(DMat3, DMat3)>;
}
