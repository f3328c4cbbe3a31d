//! Sensors: bodies that detect what overlaps them without pushing it (a photogate's beam, a
//! finish line, a region that counts). The broad phase hands their pairs here instead of to
//! the narrow phase's contacts; after each step the world tells which bodies entered or left
//! each sensor, and when within the step: the moment the two shapes began or stopped
//! overlapping along the bodies' paths through it, not the step's end, so a photogate times a
//! falling ball to far better than a step.
//!
//! Within a step each body moves from its pose at the step's start to its pose at the end
//! along x(t) = x0 + v0 t + (x1 - x0 - v0 dt) (t / dt)^2 (its start velocity, and what the
//! step's forces added since, spread as a constant acceleration: the exact path of free flight
//! under gravity with velocity Verlet), turning from q0 to q1 at a steady rate. Crossings are
//! found by sampling the signed distance along those paths, finely enough that a body cannot
//! pass through a sensor between two samples, and bisecting each change of sign.

use crate::body::Body;
use crate::collision::narrow_phase::{NarrowPhase, Posed};
use crate::math::{DQuat, DVec3};

/// A body's pose at the start and end of a step, with its velocity at the start.
#[derive(Clone, Copy, Debug)]
pub struct Path {
    pub x0: DVec3,
    pub q0: DQuat,
    pub v0: DVec3,
    pub x1: DVec3,
    pub q1: DQuat,
}

impl Path {
    fn at(&self, t: f64, dt: f64) -> (DVec3, DQuat) {
        let s = t / dt;
        let x = self.x0 + self.v0 * t + (self.x1 - self.x0 - self.v0 * dt) * (s * s);
        (x, self.q0.slerp(self.q1, s).normalize())
    }
}

/// Most samples of a pair's distance in one step.
const MOST_SAMPLES: usize = 256;

/// Bisections of a crossing: the step's length halved this often is below round-off.
const BISECTIONS: u32 = 60;

/// Finds when the distance between shapes is zero.
#[derive(Default)]
pub struct SensorQuery {
    narrow: NarrowPhase,
}

impl SensorQuery {
    /// The signed distance between two bodies at the given poses (negative: overlapping),
    /// measured up to `reach` (beyond it, `reach`).
    fn distance(&mut self, a: (&Body, DVec3, DQuat), b: (&Body, DVec3, DQuat), reach: f64) -> f64 {
        let (mut pa, mut pb) = (
            Posed {
                shape: &a.0.shape,
                position: a.1,
                orientation: a.2,
                planar: a.0.planar,
            },
            Posed {
                shape: &b.0.shape,
                position: b.1,
                orientation: b.2,
                planar: b.0.planar,
            },
        );
        if pa.shape.kind() > pb.shape.kind() {
            std::mem::swap(&mut pa, &mut pb);
        }
        match self.narrow.collide(pa, pb, reach) {
            Some(_) => self
                .narrow
                .points
                .iter()
                .map(|p| p.separation)
                .fold(reach, f64::min),
            None => reach,
        }
    }

    /// Whether `sensor` and `body` overlap at the step's end, and when within the step (s)
    /// they began (true) or stopped (false) overlapping: every change, in order, from
    /// `was_inside` (whether the body was inside after the step before). `dt` is the step's
    /// length.
    pub fn crossings(
        &mut self,
        sensor: (&Body, &Path),
        body: (&Body, &Path),
        was_inside: bool,
        dt: f64,
        out: &mut Vec<(bool, f64)>,
    ) -> bool {
        out.clear();
        let size = |b: &Body, x, q| {
            let bb = b.shape.aabb(x, q);
            (bb.max - bb.min).min_element()
        };
        // Sampled finely enough that neither passes through the other between two samples:
        // each moves less than half the thinner one's smallest extent from one to the next.
        let (s, b) = (sensor.1, body.1);
        let travel = ((s.x1 - s.x0) - (b.x1 - b.x0)).length()
            + (s.v0 - b.v0).length() * dt
            + rotation_sweep(sensor.0, s)
            + rotation_sweep(body.0, b);
        let thinnest = size(sensor.0, s.x1, s.q1)
            .min(size(body.0, b.x1, b.q1))
            .max(f64::MIN_POSITIVE);
        let n = ((2.0 * travel / thinnest).ceil() as usize).clamp(1, MOST_SAMPLES);
        let reach = travel + thinnest;
        let at = |me: &mut Self, t: f64| {
            let (xs, qs) = s.at(t, dt);
            let (xb, qb) = b.at(t, dt);
            me.distance((sensor.0, xs, qs), (body.0, xb, qb), reach)
        };
        let mut t0 = 0.0;
        let mut d0 = at(self, 0.0);
        // Placed inside (or moved out) since the last step: that happened at its start.
        if (d0 < 0.0) != was_inside {
            out.push((d0 < 0.0, 0.0));
        }
        for k in 1..=n {
            let t1 = dt * k as f64 / n as f64;
            let d1 = at(self, t1);
            if (d0 < 0.0) != (d1 < 0.0) {
                // Bisect [t0, t1] for the moment the sign changes.
                let (mut lo, mut hi) = (t0, t1);
                for _ in 0..BISECTIONS {
                    let mid = 0.5 * (lo + hi);
                    if (at(self, mid) < 0.0) == (d0 < 0.0) {
                        lo = mid;
                    } else {
                        hi = mid;
                    }
                }
                out.push((d1 < 0.0, 0.5 * (lo + hi)));
            }
            (t0, d0) = (t1, d1);
        }
        d0 < 0.0
    }
}

/// How far a body's farthest point can move by turning from q0 to q1 (m).
fn rotation_sweep(body: &Body, path: &Path) -> f64 {
    let r = body.shape.bounding_radius();
    if !r.is_finite() {
        return 0.0;
    }
    r * path.q0.angle_between(path.q1)
}
