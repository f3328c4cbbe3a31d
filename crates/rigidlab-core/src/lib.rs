//! rigidlab-core: the engine of rigidlab, plain Rust (f64, glam): shapes, bodies, collision,
//! dynamics and the world with its step. rigidlab-io saves and streams it; the `rigidlab`
//! crate wraps it for Python and shows it in the viewer.
//!
//! A step of `World` (see world.rs) runs the stages of `profile::Stage`, in order:
//! 1. broad_phase: candidate pairs from uniform grids, one per class of box sizes;
//! 2. narrow_phase: contact manifolds (<= 4 points) for every pair of shapes (re-measured
//!    instead of found again for polyhedra that barely moved relative to each other; on several
//!    threads for large scenes if asked), matched to last step's for warm starting (a sleeping
//!    body's contacts are kept as they were); sleeping islands that awake bodies touch wake;
//! 3. integrate: smooth forces (gravity, damping and drag, springs, applied loads, gyroscopic
//!    term) integrated by the world's integrator (explicit Euler, symplectic Euler, velocity
//!    Verlet or RK4);
//! 4. solve: the velocity solve's schedule (dynamics/velocity_solve.rs): joints held at the
//!    step's end (RATTLE's position phase), contacts warm-started, impacts one at a time in the
//!    order they happen within the step, each at its time of impact with the geometry of that
//!    moment, restitution and friction together, then resting contacts with Coulomb friction
//!    (each manifold's friction as a whole, its normal impulses solved together) and joint
//!    velocities iterated together; positions moved by the constrained velocities;
//! 5. correct: leftover penetration removed from positions only;
//! 6. finish: time advanced, finished loads expired, observers (recordings) told;
//! 7. sleep: islands that rested long enough on something fall asleep.
//!
//! With no contact the step is exactly the chosen integrator. A world whose dynamic bodies all
//! sleep (no moving kinematic body, no load) runs no stage: its step only advances the clock.
//! `World::step_times` (profile.rs) tells how long each stage of the last step took.

// Index loops mirror the formulas of the dense algebra and of the union-find over islands,
// where several arrays are indexed together; iterator chains would hide the formulas.
#![allow(clippy::needless_range_loop)]

pub mod batch;
pub mod body;
pub mod clock;
pub mod collision;
pub mod contact_decisions;
pub(crate) mod dense;
pub mod dynamics;
pub mod error;
pub mod events;
pub mod filter;
pub mod history;
pub mod in_plane;
pub mod limits;
pub mod material;
pub mod math;
pub mod measure;
pub mod observer;
pub mod profile;
pub mod reversal;
pub mod sensors;
pub mod shape;
pub mod snapshot;
pub mod speed_caps;
pub mod world;
pub mod world_edit;
pub mod world_links;
pub mod world_query;
pub mod world_state;

pub use body::{Body, BodyDesc, BodyHandle, BodyKind, MassSpec};
pub use dynamics::integrator::IntegratorKind;
pub use error::{Error, Result};
pub use material::{CombineRule, Material};
pub use measure::Energy;
pub use shape::Shape;
pub use world::{Settings, World};
pub use world_edit::StateUpdate;
