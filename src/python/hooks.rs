//! What the Python package lends the compiled core: functions written in Python (the
//! matplotlib animation, the pandas frame of a recording, the command that starts the viewer)
//! that methods of the core's classes hand their work to. The package lends them when it is
//! imported, so the core never imports the package it sits under.

use std::sync::OnceLock;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

static LENT: OnceLock<Py<PyDict>> = OnceLock::new();

fn lent(py: Python<'_>) -> &Bound<'_, PyDict> {
    LENT.get_or_init(|| PyDict::new(py).unbind()).bind(py)
}

/// Lends the core a Python function by name (called by the rigidlab package on import).
#[pyfunction]
pub fn _lend(py: Python<'_>, name: &str, function: Bound<'_, PyAny>) -> PyResult<()> {
    lent(py).set_item(name, function)
}

/// The function the package lent under `name`, for `what` (the method that needs it).
pub fn borrowed<'py>(py: Python<'py>, name: &str, what: &str) -> PyResult<Bound<'py, PyAny>> {
    lent(py).get_item(name)?.ok_or_else(|| {
        PyRuntimeError::new_err(format!(
            "{what} needs the rigidlab package: import rigidlab (not only rigidlab._core)"
        ))
    })
}

/// The object the package lent under `name`, if it did (`name` interned by hot callers).
pub fn lent_item<'py>(
    py: Python<'py>,
    name: &Bound<'py, pyo3::types::PyString>,
) -> Option<Bound<'py, PyAny>> {
    lent(py).get_item(name).ok().flatten()
}
