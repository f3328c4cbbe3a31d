//! What the world's spatial queries hand back: typed hits rather than dicts.

use numpy::PyArray1;
use pyo3::prelude::*;

use super::body::PyBody;
use crate::math::DVec3;

/// Where a ray meets a body: the body, the distance along the ray (m), the point, and the
/// surface's outward normal there.
#[pyclass(name = "RayHit", module = "rigidlab", frozen)]
pub struct PyRayHit {
    #[pyo3(get)]
    body: Py<PyBody>,
    #[pyo3(get)]
    distance: f64,
    point: DVec3,
    normal: DVec3,
}

impl PyRayHit {
    pub fn new(body: Py<PyBody>, distance: f64, point: DVec3, normal: DVec3) -> PyRayHit {
        PyRayHit {
            body,
            distance,
            point,
            normal,
        }
    }
}

#[pymethods]
impl PyRayHit {
    /// Where the ray enters the body (m).
    #[getter]
    fn point<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        PyArray1::from_slice(py, &self.point.to_array())
    }

    /// The body surface's outward unit normal at the point.
    #[getter]
    fn normal<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        PyArray1::from_slice(py, &self.normal.to_array())
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "RayHit(body={}, distance={}, point={:?}, normal={:?})",
            self.body.borrow(py).id_value(),
            self.distance,
            self.point.to_array(),
            self.normal.to_array()
        )
    }
}
