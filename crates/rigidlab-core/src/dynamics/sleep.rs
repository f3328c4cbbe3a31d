//! Islands and sleeping: bodies that rest on something stop being simulated until something
//! touches or changes them.
//!
//! An island is a set of dynamic bodies joined by touching contacts, joints or springs (static
//! and kinematic bodies join nothing). An island falls asleep when
//! - every body in it has moved slower than `SLEEP_SPEED` (centre and, through its rotation, its
//!   extent) for `SLEEP_TIME`,
//! - none is speeding up: each moves no faster than when its rest began, or slower than
//!   `STILL_SPEED`, so a block that starts to creep down a slope keeps going, and a swaying
//!   stack sleeps at the end of a sway, not in the middle of it,
//! - none carries an applied load,
//! - position correction has finished with its contacts (none overlaps by more than
//!   `SETTLED_SLOPS` linear slops),
//! - and it rests on something (a contact with a static, kinematic or sleeping body): a
//!   pendulum or a weight on a spring never sleeps, a heap that has settled does.
//!
//! Its bodies' velocities are set to zero then (they were below the threshold). A body slower
//! than 1 mm/s for half a second moves less than half a millimetre meanwhile, below what a lab
//! measures; `Settings::sleeping = false` keeps every body awake.
//!
//! A sleeping body keeps its contacts (frozen, for reading and for warm starting) and acts as
//! an immovable body. Its island wakes when an awake body touches any of its bodies, and the
//! whole world wakes on any edit (see `World::wake_all`).

use crate::body::{Body, Sleep};
use crate::collision::manifold::Manifold;
use crate::dynamics::union_find::UnionFind;

/// Speed (m/s) below which a body counts as resting.
pub const SLEEP_SPEED: f64 = 1e-3;
/// Speed (m/s) below which a resting body counts as still, whether or not it speeds up.
pub const STILL_SPEED: f64 = 1e-4;
/// How long (s) an island must rest before it sleeps.
pub const SLEEP_TIME: f64 = 0.5;
/// Overlap, in linear slops, above which a contact is still being pushed apart.
pub const SETTLED_SLOPS: f64 = 2.0;

/// Islands by union-find over body rows, with buffers reused from step to step.
#[derive(Default)]
pub struct Islands {
    sets: UnionFind,
    /// Per root: the island's shortest rest, whether it rests on something, whether it holds
    /// a body that must stay awake (or one that speeds up).
    rest: Vec<f64>,
    supported: Vec<bool>,
    woken: Vec<bool>,
}

impl Islands {
    fn awake_dynamic(b: &Body) -> bool {
        b.is_dynamic() && !b.sleep.asleep
    }

    /// Wakes every sleeping island that an awake dynamic or moving kinematic body touches.
    /// Sleeping bodies touching one another form one island (found by union-find over their
    /// contacts), so one pass wakes all that must. Returns whether any woke.
    pub fn wake_touched(&mut self, bodies: &mut [Body], manifolds: &[Manifold]) -> bool {
        if !bodies.iter().any(|b| b.sleep.asleep) {
            return false;
        }
        let n = bodies.len();
        self.sets.reset(n);
        let touching = || manifolds.iter().filter(|m| !m.points.is_empty());
        for m in touching() {
            if bodies[m.row_a].sleep.asleep && bodies[m.row_b].sleep.asleep {
                self.sets.union(m.row_a, m.row_b);
            }
        }
        self.woken.clear();
        self.woken.resize(n, false);
        let mut any = false;
        for m in touching() {
            for (sleeper, other) in [(m.row_a, m.row_b), (m.row_b, m.row_a)] {
                if bodies[sleeper].sleep.asleep && Self::stirs(&bodies[other]) {
                    let root = self.sets.find(sleeper);
                    self.woken[root] = true;
                    any = true;
                }
            }
        }
        if any {
            for i in 0..n {
                let root = self.sets.find(i);
                if bodies[i].sleep.asleep && self.woken[root] {
                    bodies[i].sleep = Sleep::default();
                }
            }
        }
        any
    }

    /// Whether a body wakes a sleeping one it touches (an awake dynamic body or a moving
    /// kinematic one).
    pub fn stirs(b: &Body) -> bool {
        Self::awake_dynamic(b)
            || (b.kind == crate::body::BodyKind::Kinematic
                && (b.velocity != glam::DVec3::ZERO || b.angular_velocity != glam::DVec3::ZERO))
    }

    /// After a step: advances each awake dynamic body's rest timer, builds the islands from
    /// `links` (contacts, joints and springs as pairs of rows) and puts to sleep those that
    /// rested long enough on something. `loaded[row]` marks bodies with an applied load.
    /// Returns whether any body fell asleep (its velocities were zeroed).
    pub fn update(
        &mut self,
        bodies: &mut [Body],
        manifolds: &[Manifold],
        links: &[(usize, Option<usize>)],
        loaded: &[bool],
        dt: f64,
        slop: f64,
    ) -> bool {
        let n = bodies.len();
        self.sets.reset(n);
        for m in manifolds.iter().filter(|m| !m.points.is_empty()) {
            if Self::awake_dynamic(&bodies[m.row_a]) && Self::awake_dynamic(&bodies[m.row_b]) {
                self.sets.union(m.row_a, m.row_b);
            }
        }
        self.woken.clear();
        self.woken.resize(n, false);
        for &(a, b) in links {
            match b {
                Some(b) if Self::awake_dynamic(&bodies[a]) && Self::awake_dynamic(&bodies[b]) => {
                    self.sets.union(a, b)
                }
                // A joint or spring to a fixed point or a body that is not awake: the island
                // hangs on it, so it is not resting on something; keep it awake.
                _ => {
                    self.woken[a] = true;
                    if let Some(b) = b {
                        self.woken[b] = true;
                    }
                }
            }
        }
        // Contacts that position correction still pushes apart keep their bodies awake.
        for m in manifolds.iter().filter(|m| {
            m.points
                .iter()
                .any(|p| p.separation < -SETTLED_SLOPS * slop)
        }) {
            self.woken[m.row_a] = true;
            self.woken[m.row_b] = true;
        }
        self.rest.clear();
        self.rest.resize(n, f64::INFINITY);
        self.supported.clear();
        self.supported.resize(n, false);
        for (i, b) in bodies.iter_mut().enumerate() {
            if !Self::awake_dynamic(b) {
                continue;
            }
            let speed = b
                .velocity
                .length()
                .max(b.angular_velocity.length() * b.shape.bounding_radius());
            if speed < SLEEP_SPEED && !loaded[i] {
                if b.sleep.timer == 0.0 {
                    b.sleep.rest_speed = speed;
                }
                b.sleep.timer += dt;
                self.woken[i] |= speed > b.sleep.rest_speed.max(STILL_SPEED);
            } else {
                b.sleep.timer = 0.0;
            }
        }
        for i in 0..n {
            if !Self::awake_dynamic(&bodies[i]) {
                continue;
            }
            let root = self.sets.find(i);
            self.rest[root] = self.rest[root].min(bodies[i].sleep.timer);
            if self.woken[i] {
                self.woken[root] = true;
            }
        }
        for m in manifolds
            .iter()
            .filter(|m| m.points.iter().any(|p| p.normal_impulse > 0.0))
        {
            for (body, other) in [(m.row_a, m.row_b), (m.row_b, m.row_a)] {
                if Self::awake_dynamic(&bodies[body])
                    && !Self::awake_dynamic(&bodies[other])
                    && !Self::stirs(&bodies[other])
                {
                    let root = self.sets.find(body);
                    self.supported[root] = true;
                }
            }
        }
        let mut any = false;
        for i in 0..n {
            if !Self::awake_dynamic(&bodies[i]) {
                continue;
            }
            let root = self.sets.find(i);
            if self.supported[root] && !self.woken[root] && self.rest[root] >= SLEEP_TIME {
                let b = &mut bodies[i];
                b.sleep.asleep = true;
                b.velocity = glam::DVec3::ZERO;
                b.angular_velocity = glam::DVec3::ZERO;
                any = true;
            }
        }
        any
    }
}
