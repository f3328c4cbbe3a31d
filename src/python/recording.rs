//! `rigidlab.Recording` and `rigidlab.Snapshot`: time series filled inside the engine, and
//! saved world states.

use std::sync::{Arc, MutexGuard};

use numpy::ndarray::Array3;
use numpy::{IntoPyArray, PyArray1};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::convert::{frozen, table};
use crate::recorder::{Recording, SharedRecording, ENERGY_TERMS};
use crate::snapshot::Snapshot;
use crate::stream::replay::Replay;

/// A recording of a run (from World.record). It fills while the world steps, with no Python
/// per step. Per-body arrays have shape (T, n, k) for the n bodies present when recording
/// began (in row order); a body removed since reads NaN.
#[pyclass(name = "Recording", module = "rigidlab", frozen)]
pub struct PyRecording {
    inner: SharedRecording,
}

impl PyRecording {
    pub fn new(inner: SharedRecording) -> PyRecording {
        PyRecording { inner }
    }

    fn lock(&self) -> MutexGuard<'_, Recording> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn per_body<'py>(
        &self,
        py: Python<'py>,
        name: &str,
        k: usize,
        pick: impl Fn(&Recording) -> (bool, &Vec<f64>),
    ) -> PyResult<Bound<'py, PyAny>> {
        let rec = self.lock();
        let (recorded, data) = pick(&rec);
        if !recorded {
            return Err(not_recorded(name));
        }
        let (t, n) = (rec.len(), rec.body_count());
        Ok(frozen(
            Array3::from_shape_vec((t, n, k), data.clone())
                .expect("recorded shape")
                .into_pyarray(py),
        )
        .into_any())
    }
}

fn not_recorded(name: &str) -> PyErr {
    PyValueError::new_err(format!(
        "{name}: not recorded; pass quantities including '{name}' to World.record"
    ))
}

#[pymethods]
impl PyRecording {
    /// Sample times (s), shape (T,).
    #[getter]
    fn time<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        frozen(PyArray1::from_slice(py, &self.lock().time))
    }

    /// Ids of the recorded bodies, shape (n,).
    #[getter]
    fn body_ids<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u64>> {
        frozen(PyArray1::from_slice(py, &self.lock().body_ids))
    }

    /// Steps between samples.
    #[getter]
    fn every(&self) -> u64 {
        self.lock().every
    }

    /// The recorded quantities' names.
    #[getter]
    fn quantities(&self) -> Vec<&'static str> {
        let q = self.lock().quantities;
        [
            ("positions", q.positions),
            ("orientations", q.orientations),
            ("velocities", q.velocities),
            ("angular_velocities", q.angular_velocities),
            ("energy", q.energy),
            ("momentum", q.momentum),
            ("angular_momentum", q.angular_momentum),
            ("contacts", q.contacts),
        ]
        .into_iter()
        .filter_map(|(n, on)| on.then_some(n))
        .collect()
    }

    /// Whether the recording is still filling.
    #[getter]
    fn active(&self) -> bool {
        self.lock().active
    }

    /// Stops recording; the samples stay.
    fn stop(&self) {
        self.lock().active = false;
    }

    /// Saves the recording for replay in the viewer (`rigidlab-view path`): the scene when
    /// recording began and one frame per sample. Needs positions and orientations recorded.
    fn save(&self, path: &Bound<'_, PyAny>) -> PyResult<()> {
        let path = super::convert::path(path, "path")?;
        let replay = Replay::from_recording(&self.lock()).map_err(PyValueError::new_err)?;
        replay
            .save(&path)
            .map_err(|e| PyOSError::new_err(format!("path: cannot write {}: {e}", path.display())))
    }

    /// Positions, shape (T, n, 3).
    #[getter]
    fn positions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.per_body(py, "positions", 3, |r| {
            (r.quantities.positions, &r.positions)
        })
    }

    /// For a 2D world: angles (rad, whole turns counted), shape (T, n); recorded with the
    /// orientations.
    #[getter]
    fn angles<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let rec = self.lock();
        if !rec.quantities.orientations || rec.angles.len() != rec.len() * rec.body_count() {
            return Err(PyValueError::new_err(
                "angles: not recorded; a 2D world records them with 'orientations'",
            ));
        }
        let (t, n) = (rec.len(), rec.body_count());
        let a = numpy::ndarray::Array2::from_shape_vec((t, n), rec.angles.clone())
            .expect("recorded shape");
        Ok(frozen(a.into_pyarray(py)).into_any())
    }

    /// Orientations (x, y, z, w), shape (T, n, 4).
    #[getter]
    fn orientations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.per_body(py, "orientations", 4, |r| {
            (r.quantities.orientations, &r.orientations)
        })
    }

    /// Velocities, shape (T, n, 3).
    #[getter]
    fn velocities<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.per_body(py, "velocities", 3, |r| {
            (r.quantities.velocities, &r.velocities)
        })
    }

    /// Angular velocities (world frame), shape (T, n, 3).
    #[getter]
    fn angular_velocities<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.per_body(py, "angular_velocities", 3, |r| {
            (r.quantities.angular_velocities, &r.angular_velocities)
        })
    }

    /// Energy terms as a dict of (T,) arrays: translational, rotational, kinetic,
    /// gravitational, elastic, total.
    #[getter]
    fn energy<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let rec = self.lock();
        if !rec.quantities.energy {
            return Err(not_recorded("energy"));
        }
        let d = PyDict::new(py);
        for (name, v) in ENERGY_TERMS.iter().zip(&rec.energy) {
            d.set_item(*name, frozen(PyArray1::from_slice(py, v)))?;
        }
        Ok(d)
    }

    /// Total linear momentum, shape (T, 3).
    #[getter]
    fn momentum<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let rec = self.lock();
        if !rec.quantities.momentum {
            return Err(not_recorded("momentum"));
        }
        Ok(table(py, rec.momentum.clone(), 3).into_any())
    }

    /// Total angular momentum about the origin, shape (T, 3).
    #[getter]
    fn angular_momentum<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let rec = self.lock();
        if !rec.quantities.angular_momentum {
            return Err(not_recorded("angular_momentum"));
        }
        Ok(table(py, rec.angular_momentum.clone(), 3).into_any())
    }

    /// Number of contact points after each sampled step, shape (T,).
    #[getter]
    fn contacts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<u64>>> {
        let rec = self.lock();
        if !rec.quantities.contacts {
            return Err(not_recorded("contacts"));
        }
        Ok(frozen(PyArray1::from_slice(py, &rec.contacts)))
    }

    /// Everything recorded as a dict of numpy arrays (energy as a nested dict).
    fn to_dict<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(slf.py());
        d.set_item("time", slf.getattr("time")?)?;
        d.set_item("body_ids", slf.getattr("body_ids")?)?;
        for name in slf.get().quantities() {
            d.set_item(name, slf.getattr(name)?)?;
        }
        Ok(d)
    }

    /// A pandas DataFrame with one row per sample (needs pandas): time, the energy terms,
    /// contacts, momentum and angular momentum components, and per body columns such as
    /// "x[3]" or "vy[3]" named by body id.
    fn to_dataframe<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        super::hooks::borrowed(slf.py(), "recording_frame", "Recording.to_dataframe")?.call1((slf,))
    }

    fn __len__(&self) -> usize {
        self.lock().len()
    }

    fn __repr__(&self) -> String {
        let rec = self.lock();
        format!(
            "<Recording: {} samples of {} bodies, every {} steps{}>",
            rec.len(),
            rec.body_count(),
            rec.every,
            if rec.active { "" } else { ", stopped" }
        )
    }
}

/// A saved world state (from World.snapshot), put back with World.restore.
#[pyclass(name = "Snapshot", module = "rigidlab", frozen)]
pub struct PySnapshot {
    pub(crate) inner: Arc<Snapshot>,
    pub(crate) world_id: usize,
}

#[pymethods]
impl PySnapshot {
    /// Simulated time of the snapshot (s).
    #[getter]
    fn time(&self) -> f64 {
        self.inner.time()
    }

    fn __repr__(&self) -> String {
        format!(
            "<Snapshot at t={:.6} s of {} bodies>",
            self.inner.time(),
            self.inner.body_count()
        )
    }
}
