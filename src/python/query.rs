//! What the world's spatial queries hand back: typed hits rather than dicts.

use numpy::{IntoPyArray, PyArray1};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyList;

use super::body::PyBody;
use super::convert::{frozen, frozen_vec};
use super::world::PyWorld;
use crate::math::DVec3;

/// The vectors a result is made of, as read-only arrays, once checked to be all of 3 numbers
/// or all of 2 (in a 2D world).
pub(crate) fn vectors<const K: usize>(
    py: Python<'_>,
    names: &str,
    vectors: [Vec<f64>; K],
) -> PyResult<[Py<PyAny>; K]> {
    let n = vectors[0].len();
    if !(2..=3).contains(&n) || vectors.iter().any(|v| v.len() != n) {
        return Err(PyTypeError::new_err(format!(
            "{names}: must be vectors of 3 numbers each (or all of 2, in a 2D world)"
        )));
    }
    let mut arrays = Vec::with_capacity(K);
    for v in vectors {
        arrays.push(frozen(PyArray1::from_vec(py, v)).into_any().unbind());
    }
    Ok(arrays.try_into().expect("one array per vector"))
}

/// A vector of the engine as a list of numbers.
pub(crate) fn list(v: DVec3) -> Vec<f64> {
    v.to_array().to_vec()
}

/// Where a ray meets a body: the body, the distance along the ray (m), the point where the ray
/// enters it and the surface's outward unit normal there (read-only arrays).
#[pyclass(name = "RayHit", module = "rigidlab", frozen)]
pub struct PyRayHit {
    #[pyo3(get)]
    body: Py<PyAny>,
    #[pyo3(get)]
    distance: f64,
    #[pyo3(get)]
    point: Py<PyAny>,
    #[pyo3(get)]
    normal: Py<PyAny>,
}

#[pymethods]
impl PyRayHit {
    /// A hit from its parts (point and normal of 3 numbers, or of 2 in a 2D world).
    #[new]
    pub fn new(
        py: Python<'_>,
        body: Py<PyAny>,
        distance: f64,
        point: Vec<f64>,
        normal: Vec<f64>,
    ) -> PyResult<PyRayHit> {
        let [point, normal] = vectors(py, "point, normal", [point, normal])?;
        Ok(PyRayHit {
            body,
            distance,
            point,
            normal,
        })
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "RayHit(body={}, distance={:?}, point={}, normal={})",
            self.body.bind(py).repr()?,
            self.distance,
            self.point.bind(py).repr()?,
            self.normal.bind(py).repr()?
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
            Ok(frozen(np.call_method1("array", (a, dtype))?).unbind())
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
            Ok(frozen(a.into_pyarray(py)).into_any().unbind())
        };
        Ok(PyRayHits {
            hit: frozen_vec(py, hit).into_any().unbind(),
            distance: frozen_vec(py, distance).into_any().unbind(),
            point: table(point)?,
            normal: table(normal)?,
            body_id: frozen_vec(py, id).into_any().unbind(),
            bodies: PyList::new(py, bodies)?.unbind(),
        })
    }
}

/// How far apart two bodies are (`World.distance`): `distance` (m; negative when they overlap,
/// by the depth), `point_a` and `point_b` (the closest points, or the deepest points when they
/// overlap) and `normal` (the unit direction from a to b along which it is measured), as
/// read-only arrays.
#[pyclass(name = "Distance", module = "rigidlab", frozen)]
pub struct PyDistance {
    #[pyo3(get)]
    distance: f64,
    #[pyo3(get)]
    point_a: Py<PyAny>,
    #[pyo3(get)]
    point_b: Py<PyAny>,
    #[pyo3(get)]
    normal: Py<PyAny>,
}

#[pymethods]
impl PyDistance {
    /// A separation from its parts (vectors of 3 numbers, or of 2 in a 2D world).
    #[new]
    pub fn new(
        py: Python<'_>,
        distance: f64,
        point_a: Vec<f64>,
        point_b: Vec<f64>,
        normal: Vec<f64>,
    ) -> PyResult<PyDistance> {
        let [point_a, point_b, normal] =
            vectors(py, "point_a, point_b, normal", [point_a, point_b, normal])?;
        Ok(PyDistance {
            distance,
            point_a,
            point_b,
            normal,
        })
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "Distance(distance={:?}, point_a={}, point_b={}, normal={})",
            self.distance,
            self.point_a.bind(py).repr()?,
            self.point_b.bind(py).repr()?,
            self.normal.bind(py).repr()?
        ))
    }
}
