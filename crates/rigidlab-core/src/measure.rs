//! What a lab measures: energies, linear and angular momentum, contact forces. Only dynamic
//! bodies carry energy and momentum (static and kinematic bodies have infinite mass).

use crate::body::Body;
use crate::math::DVec3;
use crate::world::World;

/// The energy of a world, split into its parts (J).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Energy {
    pub translational: f64,
    pub rotational: f64,
    pub kinetic: f64,
    /// -m g . x summed: zero at the origin (y = 0 for the default gravity).
    pub gravitational: f64,
    /// Stored in springs.
    pub elastic: f64,
    pub total: f64,
}

impl Energy {
    /// The terms in the order of `recorder::ENERGY_TERMS`.
    pub fn terms(&self) -> [f64; 6] {
        [
            self.translational,
            self.rotational,
            self.kinetic,
            self.gravitational,
            self.elastic,
            self.total,
        ]
    }
}

impl Body {
    pub fn translational_energy(&self) -> f64 {
        if self.is_dynamic() {
            0.5 * self.mass() * self.velocity.length_squared()
        } else {
            0.0
        }
    }

    pub fn rotational_energy(&self) -> f64 {
        if self.is_dynamic() {
            0.5 * self
                .angular_velocity
                .dot(self.inertia_world() * self.angular_velocity)
        } else {
            0.0
        }
    }

    pub fn momentum(&self) -> DVec3 {
        if self.is_dynamic() {
            self.velocity * self.mass()
        } else {
            DVec3::ZERO
        }
    }

    /// Angular momentum about a world point: (x - about) x m v + I w.
    pub fn angular_momentum(&self, about: DVec3) -> DVec3 {
        if !self.is_dynamic() {
            return DVec3::ZERO;
        }
        (self.position - about).cross(self.momentum())
            + self.inertia_world() * self.angular_velocity
    }
}

impl World {
    pub fn energy(&self) -> Energy {
        let g = self.state.settings.gravity;
        let mut e = Energy::default();
        for b in self.state.bodies.bodies().iter().filter(|b| b.is_dynamic()) {
            e.translational += b.translational_energy();
            e.rotational += b.rotational_energy();
            e.gravitational -= b.mass() * g.dot(b.position);
        }
        e.elastic = self
            .state
            .springs
            .iter()
            .fold(0.0, |sum, s| sum + s.energy(&self.state.bodies));
        e.kinetic = e.translational + e.rotational;
        e.total = e.kinetic + e.gravitational + e.elastic;
        e
    }

    pub fn momentum(&self) -> DVec3 {
        self.state.bodies.bodies().iter().map(Body::momentum).sum()
    }

    pub fn angular_momentum(&self, about: DVec3) -> DVec3 {
        self.state
            .bodies
            .bodies()
            .iter()
            .map(|b| b.angular_momentum(about))
            .sum()
    }
}

impl World {
    /// The force and torque (about its centre of mass) that contacts exerted on each body in
    /// the last step, by row: every contact impulse of the step (resting, impacts and their
    /// friction) over dt, so the mean force of the step. A floor under a resting stack feels
    /// its weight; a step with an impact feels the impact spread over the step.
    pub fn contact_forces(&self) -> Vec<(DVec3, DVec3)> {
        let mut out = vec![(DVec3::ZERO, DVec3::ZERO); self.bodies().len()];
        self.each_contact_push(|row, push| {
            out[row].0 += push.0;
            out[row].1 += push.1;
        });
        out
    }

    /// `contact_forces` of the body in `row` alone.
    pub fn contact_force_on(&self, row: usize) -> (DVec3, DVec3) {
        let mut sum = (DVec3::ZERO, DVec3::ZERO);
        self.each_contact_push(|r, push| {
            if r == row {
                sum.0 += push.0;
                sum.1 += push.1;
            }
        });
        sum
    }

    /// Calls `push` with (row, (force, torque about its centre)) for each body at each contact
    /// point of the last step.
    fn each_contact_push(&self, mut push: impl FnMut(usize, (DVec3, DVec3))) {
        let bodies = self.bodies().bodies();
        let dt = self.settings().dt;
        for m in self.manifolds() {
            let (a, b) = (m.row_a, m.row_b);
            let (ba, bb) = (&bodies[a], &bodies[b]);
            for p in &m.points {
                // The impulse on B; A takes the opposite, each at its own surface point.
                let j = (m.normal * p.normal_impulse + p.tangent_impulse) / dt;
                let arm_a = ba.orientation * p.local_a;
                let arm_b = bb.orientation * p.local_b;
                push(a, (-j, -arm_a.cross(j)));
                push(b, (j, arm_b.cross(j)));
            }
        }
    }
}
