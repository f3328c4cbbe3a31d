//! rigidlab: a rigid-body physics lab. The engine (rigidlab-core, plain Rust: f64, glam) and its
//! files and streams (rigidlab-io) are re-exported here under their module names; `python`
//! wraps them for Python and `viewer` shows a world (with `stream` carrying a running world to
//! it). See rigidlab-core for the step.

pub use rigidlab_core::{
    batch, body, clock, collision, dynamics, error, events, filter, in_plane, limits, material,
    math, measure, observer, profile, shape, snapshot, speed_caps, world, world_edit, world_links,
    world_query,
};
pub use rigidlab_io::{recorder, recording_data, scene, stream};

#[cfg(feature = "viewer")]
pub mod viewer;

#[cfg(feature = "python")]
mod python;

pub use rigidlab_core::{
    Body, BodyDesc, BodyHandle, BodyKind, CombineRule, Energy, Error, IntegratorKind, MassSpec,
    Material, Result, Settings, Shape, StateUpdate, World,
};
