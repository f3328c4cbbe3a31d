//! Watching the world step: what a recording (or any other watcher a layer above the engine
//! makes) is told after each step.

use std::sync::{Arc, Mutex};

use crate::world::World;

/// Told after every step of the world it watches, with the world as the step left it. Returns
/// whether it still wants to be told: a stopped recording says no and is forgotten.
pub trait StepObserver: Send {
    fn after_step(&mut self, world: &World) -> bool;
}

/// An observer shared between the world, which tells it, and whoever reads it. The world
/// forgets one nobody else holds.
pub type SharedObserver = Arc<Mutex<dyn StepObserver>>;
