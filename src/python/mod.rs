//! pyo3 bindings: argument checking and conversion only; the physics lives in the engine.

mod batch;
mod body;
mod convert;
mod decisions;
mod errors;
mod hooks;
mod links;
mod query;
mod recording;
#[cfg(feature = "viewer")]
mod view;
mod world;

use pyo3::prelude::*;

/// What a `__reduce__` returns: the callable that rebuilds the object, and its arguments.
type Reduced<'py, A> = PyResult<(Bound<'py, PyAny>, A)>;

/// The compiled core of rigidlab. Import `rigidlab` rather than this module.
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<world::PyWorld>()?;
    m.add_class::<body::PyBody>()?;
    m.add_class::<links::PyLoad>()?;
    m.add_class::<links::PySpring>()?;
    m.add_class::<links::PyJoint>()?;
    m.add_class::<recording::PyRecording>()?;
    m.add_class::<recording::PySnapshot>()?;
    m.add_class::<query::PyRayHit>()?;
    m.add_class::<query::PyRayHits>()?;
    m.add_class::<query::PyDistance>()?;
    m.add_class::<decisions::PyContact>()?;
    m.add_function(wrap_pyfunction!(batch::step_many, m)?)?;
    m.add_function(wrap_pyfunction!(hooks::_lend, m)?)?;
    m.add(
        "RemovedBodyError",
        m.py().get_type::<errors::RemovedBodyError>(),
    )?;
    m.add(
        "SimulationError",
        m.py().get_type::<errors::SimulationError>(),
    )?;
    #[cfg(feature = "viewer")]
    m.add_function(wrap_pyfunction!(view::view_main, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
