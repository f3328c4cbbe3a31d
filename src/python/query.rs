//! What the world's spatial queries hand back: typed hits rather than dicts.

use numpy::{IntoPyArray, PyArray1};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyList;

use super::body::PyBody;
use super::world::PyWorld;
use crate::math::DVec3;

/// Checks that the vectors a result is made of all have 3 numbers, or all 2 (in a 2D world).
pub(crate) fn same_vectors(names: &str, vectors: &[&Vec<f64>]) -> PyResult<()> {
    let n = vectors[0].len();
    if !(2..=3).contains(&n) || vectors.iter().any(|v| v.len() != n) {
        return Err(PyTypeError::new_err(format!(
            "{names}: must be vectors of 3 numbers each (or all of 2, in a 2D world)"
        )));
    }
    Ok(())
}

/// Where a ray meets a body: the body, the distance along the ray (m), the point, and the
/// surface's outward normal there.
#[pyclass(name = "RayHit", module = "rigidlab", frozen)]
pub struct PyRayHit {
    #[pyo3(get)]
    body: Py<PyAny>,
    #[pyo3(get)]
    distance: f64,
    point: Vec<f64>,
    normal: Vec<f64>,
}

impl PyRayHit {
    pub fn new(body: Py<PyBody>, distance: f64, point: DVec3, normal: DVec3) -> PyRayHit {
        PyRayHit {
            body: body.into_any(),
            distance,
            point: point.to_array().to_vec(),
            normal: normal.to_array().to_vec(),
        }
    }
}

#[pymethods]
impl PyRayHit {
    /// A hit from its parts (point and normal of 3 numbers, or of 2 in a 2D world).
    #[new]
    fn py_new(
        body: Py<PyAny>,
        distance: f64,
        point: Vec<f64>,
        normal: Vec<f64>,
    ) -> PyResult<PyRayHit> {
        same_vectors("point, normal", &[&point, &normal])?;
        Ok(PyRayHit {
            body,
            distance,
            point,
            normal,
        })
    }

    /// Where the ray enters the body (m).
    #[getter]
    fn point<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        PyArray1::from_slice(py, &self.point)
    }

    /// The body surface's outward unit normal at the point.
    #[getter]
    fn normal<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        PyArray1::from_slice(py, &self.normal)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "RayHit(body={}, distance={}, point={:?}, normal={:?})",
            self.body.bind(py).repr()?,
            self.distance,
            self.point,
            self.normal
        ))
    }
}

/// The first hits of many rays at once, as arrays with one row per ray: `hit` (bool),
/// `distance` (m; inf for a miss), `point` and `normal` (NaN for a miss), `body_id` (-1 for a
/// miss), and `bodies` (the Body hit, or None). The arrays are read-only.
#[pyclass(name = "RayHits", module = "rigidlab", frozen)]
pub struct PyRayHits {
    #[pyo3(get)]
    hit: Py<PyAny>,
    #[pyo3(get)]
    distance: Py<PyAny>,
    #[pyo3(get)]
    point: Py<PyAny>,
    #[pyo3(get)]
    normal: Py<PyAny>,
    #[pyo3(get)]
    body_id: Py<PyAny>,
    #[pyo3(get)]
    bodies: Py<PyList>,
}

/// `array`, made read-only.
fn frozen_array(array: Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    array.call_method1("setflags", (false,))?;
    Ok(array.unbind())
}

#[pymethods]
impl PyRayHits {
    /// The hits from their arrays (each with one row per ray) and the bodies hit.
    #[new]
    fn py_new(
        hit: &Bound<'_, PyAny>,
        distance: &Bound<'_, PyAny>,
        point: &Bound<'_, PyAny>,
        normal: &Bound<'_, PyAny>,
        body_id: &Bound<'_, PyAny>,
        bodies: &Bound<'_, PyAny>,
    ) -> PyResult<PyRayHits> {
        let py = hit.py();
        let np = py.import("numpy")?;
        let array = |a: &Bound<'_, PyAny>, dtype: &str| -> PyResult<Py<PyAny>> {
            frozen_array(np.call_method1("array", (a, dtype))?)
        };
        let hits = PyRayHits {
            hit: array(hit, "bool")?,
            distance: array(distance, "float64")?,
            point: array(point, "float64")?,
            normal: array(normal, "float64")?,
            body_id: array(body_id, "int64")?,
            bodies: PyList::new(py, bodies.try_iter()?.collect::<PyResult<Vec<_>>>()?)?.unbind(),
        };
        let k = hits.bodies.bind(py).len();
        for (name, a) in [
            ("hit", &hits.hit),
            ("distance", &hits.distance),
            ("point", &hits.point),
            ("normal", &hits.normal),
            ("body_id", &hits.body_id),
        ] {
            if a.bind(py).len()? != k {
                return Err(PyValueError::new_err(format!(
                    "{name}: must have one row per ray ({k}, as bodies)"
                )));
            }
        }
        Ok(hits)
    }

    fn __len__(&self, py: Python<'_>) -> usize {
        self.bodies.bind(py).len()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let hits: usize = self.hit.bind(py).call_method0("sum")?.extract()?;
        Ok(format!("RayHits({} rays, {hits} hits)", self.__len__(py)))
    }
}

impl PyRayHits {
    /// The hits of a batch cast in `world`: one per ray, None for a miss.
    pub fn from_hits(
        world: &Bound<'_, PyWorld>,
        hits: &[Option<crate::collision::ray::RayHit>],
    ) -> PyResult<PyRayHits> {
        let py = world.py();
        let k = hits.len();
        let (mut hit, mut distance, mut id) =
            (vec![false; k], vec![f64::INFINITY; k], vec![-1i64; k]);
        let (mut point, mut normal) = (vec![f64::NAN; 3 * k], vec![f64::NAN; 3 * k]);
        let mut bodies: Vec<Py<PyAny>> = Vec::with_capacity(k);
        let w = world.borrow();
        for (i, h) in hits.iter().enumerate() {
            let found = h.and_then(|h| Some((h, w.inner.body(h.body).ok()?.id)));
            let Some((h, body_id)) = found else {
                bodies.push(py.None());
                continue;
            };
            hit[i] = true;
            distance[i] = h.t;
            id[i] = body_id as i64;
            point[3 * i..3 * i + 3].copy_from_slice(&h.point.to_array());
            normal[3 * i..3 * i + 3].copy_from_slice(&h.normal.to_array());
            let body = PyBody::new(world.clone().unbind(), h.body, body_id);
            bodies.push(Py::new(py, body)?.into_any());
        }
        let table = |v: Vec<f64>| -> PyResult<Py<PyAny>> {
            let a = numpy::ndarray::Array2::from_shape_vec((k, 3), v).expect("k rows of 3");
            frozen_array(a.into_pyarray(py).into_any())
        };
        Ok(PyRayHits {
            hit: frozen_array(PyArray1::from_vec(py, hit).into_any())?,
            distance: frozen_array(PyArray1::from_vec(py, distance).into_any())?,
            point: table(point)?,
            normal: table(normal)?,
            body_id: frozen_array(PyArray1::from_vec(py, id).into_any())?,
            bodies: PyList::new(py, bodies)?.unbind(),
        })
    }
}

/// How far apart two bodies are (`World.distance`): `distance` (m; negative when they overlap,
/// by the depth), `point_a` and `point_b` (the closest points, or the deepest points when they
/// overlap) and `normal` (the unit direction from a to b along which it is measured).
#[pyclass(name = "Distance", module = "rigidlab", frozen)]
pub struct PyDistance {
    #[pyo3(get)]
    distance: f64,
    point_a: Vec<f64>,
    point_b: Vec<f64>,
    normal: Vec<f64>,
}

#[pymethods]
impl PyDistance {
    /// A separation from its parts (vectors of 3 numbers, or of 2 in a 2D world).
    #[new]
    fn py_new(
        distance: f64,
        point_a: Vec<f64>,
        point_b: Vec<f64>,
        normal: Vec<f64>,
    ) -> PyResult<PyDistance> {
        same_vectors("point_a, point_b, normal", &[&point_a, &point_b, &normal])?;
        Ok(PyDistance {
            distance,
            point_a,
            point_b,
            normal,
        })
    }

    /// The point of a nearest b (deepest inside b when they overlap).
    #[getter]
    fn point_a<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        PyArray1::from_slice(py, &self.point_a)
    }

    /// The point of b nearest a (deepest inside a when they overlap).
    #[getter]
    fn point_b<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        PyArray1::from_slice(py, &self.point_b)
    }

    /// The unit direction from a to b.
    #[getter]
    fn normal<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        PyArray1::from_slice(py, &self.normal)
    }

    fn __repr__(&self) -> String {
        format!(
            "Distance(distance={}, point_a={:?}, point_b={:?}, normal={:?})",
            self.distance, self.point_a, self.point_b, self.normal
        )
    }
}

impl PyDistance {
    pub fn of(s: crate::collision::distance::Separation) -> PyDistance {
        PyDistance {
            distance: s.distance,
            point_a: s.on_a.to_array().to_vec(),
            point_b: s.on_b.to_array().to_vec(),
            normal: s.normal.to_array().to_vec(),
        }
    }
}
