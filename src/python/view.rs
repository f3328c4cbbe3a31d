//! The viewer inside the wheel: `rigidlab-view` and `python -m rigidlab.view` call this.

use pyo3::prelude::*;

/// Runs the viewer with command-line arguments (the first is the program name) and returns its
/// exit code. Blocks until the window closes; the GIL is released meanwhile.
#[pyfunction]
pub fn view_main(py: Python<'_>, argv: Vec<String>) -> i32 {
    py.detach(|| crate::viewer::main(argv))
}
