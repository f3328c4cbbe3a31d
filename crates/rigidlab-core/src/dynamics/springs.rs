//! Damped linear springs between anchor points of two bodies, or from a body to a fixed world
//! point. Springs are smooth forces: the world's integrator evaluates them at its stages.

use crate::body::{BodyHandle, BodySet};
use crate::dynamics::state::State;
use crate::error::{Error, Result};
use crate::limits;
use crate::math::DVec3;

/// A handle to a spring, for reading and removing it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SpringHandle(pub u64);

/// A spring of stiffness k (N/m) and damping c (N s/m) along the line between its anchors:
/// force k (L - rest_length) + c dL/dt pulling the anchors together.
#[derive(Clone, Debug, PartialEq)]
pub struct Spring {
    pub handle: SpringHandle,
    pub a: BodyHandle,
    /// None: the spring is fixed to the world at `anchor_b`.
    pub b: Option<BodyHandle>,
    /// Body-frame anchor on a.
    pub anchor_a: DVec3,
    /// Body-frame anchor on b, or a world point when b is None.
    pub anchor_b: DVec3,
    pub stiffness: f64,
    pub damping: f64,
    pub rest_length: f64,
}

impl Spring {
    /// Checks what the spring holds against the engine's ranges: the one check of a spring,
    /// made from the API and from a scene file alike.
    pub fn check(&self) -> Result<()> {
        check_ends(self.a, self.b)?;
        limits::coordinate3("anchor_a", self.anchor_a)?;
        limits::coordinate3("anchor_b", self.anchor_b)?;
        limits::coefficient("stiffness", self.stiffness)?;
        limits::coefficient("damping", self.damping)?;
        limits::within("rest_length", self.rest_length, 0.0, limits::SPAN)?;
        Ok(())
    }
}

/// A spring's or joint's two ends must be two bodies (or a body and the world).
pub(crate) fn check_ends(a: BodyHandle, b: Option<BodyHandle>) -> Result<()> {
    if b == Some(a) {
        return Err(Error::invalid(
            "b",
            "the same body as a",
            "must be a different body from a (or None for the world)",
        ));
    }
    Ok(())
}

/// A spring as one step sees it: its bodies as rows.
#[derive(Clone, Copy, Debug)]
pub struct SpringRow {
    pub a: usize,
    pub b: Option<usize>,
    pub anchor_a: DVec3,
    pub anchor_b: DVec3,
    pub stiffness: f64,
    pub damping: f64,
    pub rest_length: f64,
}

/// An anchor's world position and velocity in a state.
fn anchor(s: &State, row: Option<usize>, local: DVec3) -> (DVec3, DVec3) {
    match row {
        Some(i) => {
            let arm = s.q[i].normalize() * local;
            (s.x[i] + arm, s.v[i] + s.w[i].cross(arm))
        }
        None => (local, DVec3::ZERO),
    }
}

impl Spring {
    /// The anchors' world positions (a, b), or None if a body is gone.
    pub fn world_anchors(&self, bodies: &BodySet) -> Option<(DVec3, DVec3)> {
        let pa = bodies.get(self.a)?.world_point(self.anchor_a);
        let pb = match self.b {
            Some(b) => bodies.get(b)?.world_point(self.anchor_b),
            None => self.anchor_b,
        };
        Some((pa, pb))
    }

    pub fn length(&self, bodies: &BodySet) -> f64 {
        self.world_anchors(bodies)
            .map_or(f64::NAN, |(pa, pb)| (pb - pa).length())
    }

    /// Elastic energy k (L - rest)^2 / 2.
    pub fn energy(&self, bodies: &BodySet) -> f64 {
        0.5 * self.stiffness * (self.length(bodies) - self.rest_length).powi(2)
    }
}

impl SpringRow {
    /// The force on a's anchor (b's is its opposite) and the two anchors, in state s.
    pub fn force(&self, s: &State) -> (DVec3, DVec3, DVec3) {
        let (pa, va) = anchor(s, Some(self.a), self.anchor_a);
        let (pb, vb) = anchor(s, self.b, self.anchor_b);
        let d = pb - pa;
        let len = d.length();
        if len < 1e-12 {
            // Anchors together: no direction, and only a zero-rest-length spring is relaxed
            // there; its force k d vanishes with d.
            return (d * self.stiffness + (vb - va) * self.damping, pa, pb);
        }
        let u = d / len;
        let stretch_rate = (vb - va).dot(u);
        (
            u * (self.stiffness * (len - self.rest_length) + self.damping * stretch_rate),
            pa,
            pb,
        )
    }
}
