//! Snapshots: the whole state of a world, taken and put back in memory. A restored world
//! repeats its run bit for bit, since everything a step reads is in the snapshot: bodies,
//! time, settings, the contact cache with its warm-start impulses, loads, springs and joints.

use std::collections::HashMap;

use crate::body::BodySet;
use crate::collision::manifold::Manifold;
use crate::dynamics::joints::Joint;
use crate::dynamics::loads::AppliedLoad;
use crate::dynamics::springs::Spring;
use crate::events::ContactEvents;
use crate::material::Material;
use crate::world::{Settings, World};

/// A copy of a world's state (see `World::snapshot`).
#[derive(Clone)]
pub struct Snapshot {
    settings: Settings,
    bodies: BodySet,
    base_time: f64,
    steps_since_base: u64,
    next_id: u64,
    next_handle: u64,
    manifolds: Vec<Manifold>,
    pair_materials: HashMap<(u64, u64), Material>,
    loads: Vec<AppliedLoad>,
    springs: Vec<Spring>,
    joints: Vec<Joint>,
    /// Which pairs touched, for begin and end events (no unread events).
    events: ContactEvents,
}

impl Snapshot {
    /// Simulated time of the snapshot (s).
    pub fn time(&self) -> f64 {
        self.base_time + self.steps_since_base as f64 * self.settings.dt
    }

    pub fn body_count(&self) -> usize {
        self.bodies.len()
    }
}

impl World {
    /// Copies the world's state.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            settings: self.settings.clone(),
            bodies: self.bodies.clone(),
            base_time: self.base_time,
            steps_since_base: self.steps_since_base,
            next_id: self.next_id,
            next_handle: self.next_handle,
            manifolds: self.contacts.manifolds.clone(),
            pair_materials: self.pair_materials.clone(),
            loads: self.loads.clone(),
            springs: self.springs.clone(),
            joints: self.joints.clone(),
            events: self.events.without_unread(),
        }
    }

    /// Puts a snapshot's state back: bodies added since are gone, removed ones are back, and
    /// the next steps repeat the steps that followed the snapshot exactly. Unread contact
    /// events are dropped.
    pub fn restore(&mut self, s: &Snapshot) {
        self.settings = s.settings.clone();
        self.bodies.restore_from(&s.bodies);
        self.base_time = s.base_time;
        self.steps_since_base = s.steps_since_base;
        // Ids and spring/joint handles only grow: one made since the snapshot must not name
        // a body, spring or joint made after the restore.
        self.next_id = self.next_id.max(s.next_id);
        self.next_handle = self.next_handle.max(s.next_handle);
        self.contacts.clear();
        self.contacts.manifolds = s.manifolds.clone();
        self.pair_materials = s.pair_materials.clone();
        self.loads = s.loads.clone();
        self.springs = s.springs.clone();
        self.joints = s.joints.clone();
        self.events = s.events.clone();
        self.bodies_changed();
    }
}
