//! Engine errors as Python exceptions: ValueError for bad values and names, RemovedBodyError
//! (an IndexError) for handles of removed bodies.

use pyo3::create_exception;
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::PyErr;

use crate::error::Error;

create_exception!(
    rigidlab,
    SimulationError,
    pyo3::exceptions::PyRuntimeError,
    "Raised when a step would take a body outside the ranges the engine simulates (a \
     position, speed or spin that is not finite or too large): the bodies and the time \
     stay as they were before that step."
);

create_exception!(
    rigidlab,
    RemovedBodyError,
    PyIndexError,
    "Raised when a Body handle is used after its body was removed from the world."
);

pub fn to_py(e: Error) -> PyErr {
    match e {
        Error::RemovedBody => RemovedBodyError::new_err(e.to_string()),
        Error::RemovedLink { .. } => PyIndexError::new_err(e.to_string()),
        Error::InvalidValue { .. }
        | Error::UnknownName { .. }
        | Error::Scene { .. }
        | Error::State { .. } => PyValueError::new_err(e.to_string()),
        Error::Diverged { .. } => SimulationError::new_err(e.to_string()),
        Error::Undecided { .. } => pyo3::exceptions::PyRuntimeError::new_err(e.to_string()),
    }
}

/// A handle used while its world is busy with another call (see `PyWorld::get`).
pub fn in_use() -> PyErr {
    pyo3::exceptions::PyRuntimeError::new_err(
        "the world is in the middle of another call (a handle was passed where a value is expected?)",
    )
}

/// `?` on engine results inside binding functions.
pub trait IntoPyResult<T> {
    fn py(self) -> pyo3::PyResult<T>;
}

impl<T> IntoPyResult<T> for crate::error::Result<T> {
    fn py(self) -> pyo3::PyResult<T> {
        self.map_err(to_py)
    }
}
