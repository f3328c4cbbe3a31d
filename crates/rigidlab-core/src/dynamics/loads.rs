//! Forces and torques applied to bodies by the user: for one step, for a while, or until
//! removed through their handle.

use crate::body::BodyHandle;
use crate::error::Result;
use crate::limits;
use crate::math::DVec3;

/// A handle to an applied load, for removing it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LoadHandle(pub u64);

/// How long a load acts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Lasting {
    /// The next step only.
    OneStep,
    /// This many more seconds (whole steps, the last one cut to what is left).
    For(f64),
    /// Until removed through its handle.
    UntilRemoved,
}

/// A force, torque or both acting on a body.
#[derive(Clone, Debug, PartialEq)]
pub struct AppliedLoad {
    pub handle: LoadHandle,
    pub body: BodyHandle,
    /// World vector (N).
    pub force: DVec3,
    /// Body-frame point the force acts at (None: the centre of mass, no torque).
    pub local_point: Option<DVec3>,
    /// World vector (N m).
    pub torque: DVec3,
    pub lasting: Lasting,
}

impl AppliedLoad {
    /// Checks the load against the engine's ranges (its duration is checked where it is
    /// given): the one check of a load, from the API and from a scene file alike.
    pub fn check(&self) -> Result<()> {
        limits::bounded3("force", self.force, limits::LOAD)?;
        limits::bounded3("torque", self.torque, limits::LOAD)?;
        if let Some(p) = self.local_point {
            limits::coordinate3("local_point", p)?;
        }
        Ok(())
    }

    /// The share of the coming step of length dt during which the load acts.
    pub fn share_of_step(&self, dt: f64) -> f64 {
        match self.lasting {
            Lasting::For(t) if t < dt => t / dt,
            _ => 1.0,
        }
    }

    /// Counts down one step; false once the load has finished.
    pub fn advance(&mut self, dt: f64) -> bool {
        match &mut self.lasting {
            Lasting::OneStep => false,
            Lasting::For(t) => {
                *t -= dt;
                *t > 1e-9 * dt
            }
            Lasting::UntilRemoved => true,
        }
    }
}
