//! `rigidlab.Recording` and `rigidlab.Snapshot`: time series filled inside the engine, and
//! saved world states.

use std::sync::{Arc, MutexGuard};

use numpy::ndarray::Array3;
use numpy::{IntoPyArray, PyArray1, PyArrayMethods};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use super::convert::{frozen, table};
use crate::recorder::{Recording, SharedRecording, ENERGY_TERMS};
use crate::recording_data::{RecordingArrays, RecordingHeader, LAYOUT};
use crate::scene::SceneIo;
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

impl PyRecording {
    /// The header (as a 0-d string array) and every recorded array, by name, with its shape.
    fn arrays<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let rec = self.lock();
        let header = rec.header();
        let d = PyDict::new(py);
        let np = py.import("numpy")?;
        d.set_item("header", np.call_method1("array", (header.to_json(),))?)?;
        d.set_item("time", PyArray1::from_slice(py, &rec.time))?;
        let t = rec.len();
        for (name, _, _) in LAYOUT {
            if !header.has(name) {
                continue;
            }
            let flat = PyArray1::from_vec(py, rec.array(name));
            let shape = header.shape(name, t);
            let mut array = flat.into_any().call_method1("reshape", (shape,))?;
            if name == "contacts" {
                array = array.call_method1("astype", ("uint64",))?;
            }
            d.set_item(name, array)?;
        }
        if rec.quantities.contact_points {
            d.set_item("contact_points", table(py, rec.contact_points.clone(), 3))?;
            d.set_item(
                "contact_point_counts",
                PyArray1::from_slice(py, &rec.contact_point_counts),
            )?;
        }
        Ok(d)
    }
}

/// `value` as float64 numbers (with `shape`, when given), flat; the errors name `name`.
fn numbers(
    np: &Bound<'_, PyModule>,
    value: &Bound<'_, PyAny>,
    name: &str,
    shape: Option<&[usize]>,
) -> PyResult<Vec<f64>> {
    let array = np
        .call_method1("ascontiguousarray", (value, "float64"))
        .map_err(|e| PyValueError::new_err(format!("{name}: not an array of numbers ({e})")))?;
    let got: Vec<usize> = array.getattr("shape")?.extract()?;
    match shape {
        Some(want) if got != want => {
            return Err(PyValueError::new_err(format!(
                "{name}: expected shape {want:?}, got {got:?}"
            )))
        }
        None if got.len() != 1 => {
            return Err(PyValueError::new_err(format!(
                "{name}: expected one dimension, got shape {got:?}"
            )))
        }
        _ => {}
    }
    let array = array.cast_into::<numpy::PyArrayDyn<f64>>()?;
    let view = array.readonly();
    Ok(view
        .as_slice()
        .map_err(|e| PyValueError::new_err(format!("{name}: {e}")))?
        .to_vec())
}

/// `value` as counts (whole numbers, not negative) with `shape`; the errors name `name`.
fn counts(
    np: &Bound<'_, PyModule>,
    value: &Bound<'_, PyAny>,
    name: &str,
    shape: Option<&[usize]>,
) -> PyResult<Vec<u64>> {
    let v = numbers(np, value, name, shape)?;
    if v.iter()
        .any(|c| *c < 0.0 || c.fract() != 0.0 || !c.is_finite())
    {
        return Err(PyValueError::new_err(format!(
            "{name}: must be counts (whole numbers, not negative)"
        )));
    }
    Ok(v.iter().map(|&c| c as u64).collect())
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
        self.lock().quantities.names()
    }

    /// The recorded bodies' names (None for a body without one), in the order of body_ids.
    #[getter]
    fn body_names(&self) -> Vec<Option<String>> {
        self.lock()
            .start
            .bodies
            .iter()
            .map(|b| b.name.clone())
            .collect()
    }

    /// Whether this is a recording of a 2D world.
    #[getter]
    fn planar(&self) -> bool {
        self.lock().start.settings.planar
    }

    /// The world as it was when recording began: a new World built from the recording's start
    /// scene (its bodies' shapes, colours, springs and joints), apart from the one recorded.
    fn start_world(&self) -> PyResult<super::world::PyWorld> {
        let scene = (*self.lock().start).clone();
        let world = crate::world::World::from_scene(scene)
            .map_err(|e| PyValueError::new_err(format!("start scene: {e}")))?;
        Ok(super::world::PyWorld::wrap(world))
    }

    /// Plays the recording in a notebook: an interactive 3D view (2D worlds: from the front,
    /// orthographic) with play/pause, a time slider and the speed, bodies coloured as in the
    /// viewer, springs and joints drawn. Keywords: fps=30 (samples a second of simulated time
    /// sent to the browser, played smoothly between them), height=420 (pixels), limits (the
    /// box the camera fits). Needs anywidget (pip install anywidget). See rigidlab.webview.
    #[pyo3(signature = (**options))]
    fn show<'py>(
        slf: &Bound<'py, Self>,
        options: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let show = super::hooks::borrowed(slf.py(), "show_recording", "Recording.show")?;
        show.call((slf,), options)
    }

    /// Writes the recording as a standalone HTML file that plays it in any browser, offline
    /// (the player of `show`, with the data inside the file): for lab reports. Keywords as for
    /// `show`, and title. Returns the path written.
    #[pyo3(signature = (path, **options))]
    fn to_html<'py>(
        slf: &Bound<'py, Self>,
        path: &Bound<'py, PyAny>,
        options: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let write = super::hooks::borrowed(slf.py(), "recording_html", "Recording.to_html")?;
        write.call((slf, path), options)
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
    /// Where the contact points were at each sample (world points): a list of T arrays, one
    /// (k, 3) array a sample (k its number of points). Recorded with 'contact_points' (not by
    /// default: a heap has thousands of points at every sample).
    #[getter]
    fn contact_points<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let rec = self.lock();
        if !rec.quantities.contact_points {
            return Err(not_recorded("contact_points"));
        }
        let mut start = 0;
        let mut out = Vec::with_capacity(rec.len());
        for &k in &rec.contact_point_counts {
            let end = start + 3 * k as usize;
            out.push(table(py, rec.contact_points[start..end].to_vec(), 3));
            start = end;
        }
        PyList::new(py, out)
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

    /// A pandas DataFrame (needs pandas). Wide (the default): one row per sample with time,
    /// the energy terms, contacts, momentum and angular momentum components, and per body
    /// columns such as "x[3]" or "vy[3]" named by body id. Long (`long=True`), the tidy form
    /// for grouping and plotting: one row per sample and body, with columns time, body_id,
    /// body (its name) and the recorded per-body quantities (x, y, z, qx, ..., vx, ..., wx, ...).
    #[pyo3(signature = (*, long=false))]
    fn to_dataframe<'py>(slf: &Bound<'py, Self>, long: bool) -> PyResult<Bound<'py, PyAny>> {
        let frame = super::hooks::borrowed(slf.py(), "recording_frame", "Recording.to_dataframe")?;
        let kwargs = PyDict::new(slf.py());
        kwargs.set_item("long", long)?;
        frame.call((slf,), Some(&kwargs))
    }

    /// Saves the recording's data as a numpy .npz file (compressed): its arrays under their
    /// names (time, positions, ...; energy as (T, 6) with its terms in the header) and a JSON
    /// header (what was recorded, the bodies, the world when it began). Read it back with
    /// Recording.load, or with numpy.load.
    fn save_npz(&self, path: &Bound<'_, PyAny>) -> PyResult<()> {
        let py = path.py();
        let target = super::convert::path(path, "path")?;
        let arrays = self.arrays(py)?;
        py.import("numpy")?
            .getattr("savez_compressed")?
            .call((target.clone(),), Some(&arrays))
            .map_err(|e| {
                PyOSError::new_err(format!("path: cannot write {}: {e}", target.display()))
            })?;
        Ok(())
    }

    /// A recording saved with save_npz. The header and every array's shape are checked: a
    /// corrupt or foreign file raises ValueError naming what is wrong.
    #[staticmethod]
    fn load(path: &Bound<'_, PyAny>) -> PyResult<PyRecording> {
        let py = path.py();
        let source = super::convert::path(path, "path")?;
        if !source.is_file() {
            return Err(PyOSError::new_err(format!(
                "path: no such file {}",
                source.display()
            )));
        }
        let np = py.import("numpy")?;
        let kwargs = PyDict::new(py);
        kwargs.set_item("allow_pickle", false)?;
        let file = np
            .call_method("load", (source.clone(),), Some(&kwargs))
            .map_err(|e| {
                PyValueError::new_err(format!(
                    "path: {} is not a recording saved by save_npz ({e})",
                    source.display()
                ))
            })?;
        let arrays = PyDict::new(py);
        let read = || -> PyResult<()> {
            for key in file.getattr("files")?.try_iter()? {
                let key = key?;
                arrays.set_item(&key, file.get_item(&key)?)?;
            }
            Ok(())
        };
        let outcome = read();
        let _ = file.call_method0("close");
        outcome.map_err(|e| {
            PyValueError::new_err(format!(
                "path: {} is not a recording saved by save_npz ({e})",
                source.display()
            ))
        })?;
        Self::_from_arrays(&arrays)
            .map_err(|e| PyValueError::new_err(format!("{}: {}", source.display(), e.value(py))))
    }

    /// The recording from the arrays of save_npz (a dict-like of name to array).
    #[staticmethod]
    fn _from_arrays(arrays: &Bound<'_, PyAny>) -> PyResult<PyRecording> {
        let py = arrays.py();
        let np = py.import("numpy")?;
        let get = |name: &str| -> PyResult<Bound<'_, PyAny>> {
            arrays.get_item(name).map_err(|_| {
                PyValueError::new_err(format!("{name}: missing from the recording's arrays"))
            })
        };
        let header = get("header")?;
        let header: String = np
            .call_method1("asarray", (header,))?
            .call_method0("item")?
            .extract()
            .map_err(|_| PyValueError::new_err("header: expected JSON text"))?;
        let header = RecordingHeader::from_json(&header).map_err(PyValueError::new_err)?;
        let time: Vec<f64> = numbers(&np, &get("time")?, "time", None)?;
        let t = time.len();
        let mut data = RecordingArrays {
            time,
            ..RecordingArrays::default()
        };
        for (name, _, _) in LAYOUT {
            if !header.has(name) {
                continue;
            }
            let shape = header.shape(name, t);
            let value = get(name)?;
            if name == "contacts" {
                data.contacts = counts(&np, &value, name, Some(&shape))?;
                continue;
            }
            let v = numbers(&np, &value, name, Some(&shape))?;
            if let Some(field) = data.numbers_mut(name) {
                *field = v;
            }
        }
        if header.has("contact_points") {
            let c = counts(
                &np,
                &get("contact_point_counts")?,
                "contact_point_counts",
                Some(&[t]),
            )?;
            let k = c.iter().sum::<u64>() as usize;
            data.contact_points = numbers(
                &np,
                &get("contact_points")?,
                "contact_points",
                Some(&[k, 3]),
            )?;
            data.contact_point_counts = c;
        }
        let rec = Recording::from_data(header, data).map_err(PyValueError::new_err)?;
        Ok(PyRecording::new(Arc::new(std::sync::Mutex::new(rec))))
    }

    /// Pickles as its data (a recording still filling pickles what it holds so far, stopped).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> super::Reduced<'py, (Bound<'py, PyDict>,)> {
        let from_arrays = slf.get_type().getattr("_from_arrays")?;
        Ok((from_arrays, (slf.get().arrays(slf.py())?,)))
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
    /// The world it was taken of: the only one it can be restored into.
    pub(crate) world: Py<super::world::PyWorld>,
}

#[pymethods]
impl PySnapshot {
    /// The snapshot a pickle holds, of `world` (unpickled with it): the state as scene JSON.
    #[staticmethod]
    fn _of(world: Bound<'_, super::world::PyWorld>, text: &str) -> PyResult<PySnapshot> {
        let state = crate::world::World::from_json(text)
            .map_err(|e| PyValueError::new_err(format!("text: not a snapshot's scene ({e})")))?;
        Ok(PySnapshot {
            inner: Arc::new(state.snapshot()),
            world: world.unbind(),
        })
    }

    /// Pickles with its world (pickled once, when both are in one pickle), so an unpickled
    /// snapshot restores into the unpickled world.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> super::Reduced<'py, (Py<super::world::PyWorld>, String)> {
        let of = slf.get_type().getattr("_of")?;
        let snap = slf.get();
        let text = snap.inner.to_world().to_json_compact();
        Ok((of, (snap.world.clone_ref(slf.py()), text)))
    }

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
