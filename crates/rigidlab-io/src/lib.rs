//! rigidlab-io: the engine's world in files and streams: the JSON scene format, recordings (the
//! step's observers) and the live link to the viewer with its replays. It uses only the
//! engine's public API (rigidlab-core).

// The engine's modules under the names the files here use.
use rigidlab_core::{
    body, clock, collision, dynamics, error, filter, limits, material, math, observer, shape,
    speed_caps, world,
};

pub mod recorder;
pub mod recording_data;
pub mod scene;
pub mod stream;
