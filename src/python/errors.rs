//! Engine errors as Python exceptions: ValueError for bad values and names, RemovedBodyError
//! (an IndexError) for handles of removed bodies.

use pyo3::create_exception;
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::PyErr;

use crate::error::Error;

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
        Error::InvalidValue { .. } | Error::UnknownName { .. } | Error::Scene { .. } => {
            PyValueError::new_err(e.to_string())
        }
    }
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
