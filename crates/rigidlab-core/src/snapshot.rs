//! Snapshots: the whole state of a world, taken and put back in memory. A restored world
//! repeats its run bit for bit, since everything a step reads is in the snapshot: the world's
//! state (bodies, time, settings, the contact cache with its warm-start impulses, loads,
//! springs and joints) and which pairs touched.

use crate::events::ContactEvents;
use crate::world::{World, WorldState};

/// A copy of a world's state (see `World::snapshot`).
#[derive(Clone)]
pub struct Snapshot {
    state: WorldState,
    /// Which pairs touched, for begin and end events (no unread events).
    events: ContactEvents,
}

impl Snapshot {
    /// Simulated time of the snapshot (s).
    pub fn time(&self) -> f64 {
        self.state.time()
    }

    pub fn body_count(&self) -> usize {
        self.state.bodies.len()
    }

    /// A new world in the snapshot's state (to write a snapshot out as a scene).
    pub fn to_world(&self) -> World {
        let mut w = World::from_state(self.state.clone())
            .expect("a snapshot holds the state of a world, which passed every check");
        w.restore(self);
        w
    }
}

impl World {
    /// Copies the world's state.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            state: self.state.clone(),
            events: self.events.without_unread(),
        }
    }

    /// Puts a snapshot's state back: bodies added since are gone, removed ones are back, and
    /// the next steps repeat the steps that followed the snapshot exactly. Unread contact
    /// events are dropped.
    pub fn restore(&mut self, s: &Snapshot) {
        // Field by field, so that a field added to the state is restored or the compiler says.
        let WorldState {
            settings,
            bodies,
            base_time,
            steps_since_base,
            clock,
            next_id,
            next_handle,
            contacts,
            pair_materials,
            apart,
            passing,
            loads,
            springs,
            joints,
        } = &s.state;
        self.unstage();
        let state = &mut self.state;
        state.settings = settings.clone();
        // Slot generations only grow: a handle made since the snapshot names no body after it.
        state.bodies.restore_from(bodies);
        state.base_time = *base_time;
        state.steps_since_base = *steps_since_base;
        state.clock = *clock;
        // Ids and spring/joint handles only grow, for the same reason.
        state.next_id = state.next_id.max(*next_id);
        state.next_handle = state.next_handle.max(*next_handle);
        state.contacts = contacts.clone();
        state.pair_materials = pair_materials.clone();
        state.apart = apart.clone();
        state.passing = passing.clone();
        state.loads = loads.clone();
        state.springs = springs.clone();
        state.joints = joints.clone();
        self.events = s.events.clone();
        self.bodies_changed();
    }
}
