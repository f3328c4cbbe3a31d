//! `step_many`: many worlds stepped in parallel, without the GIL.

use super::convert::{int, thread_count};
use super::errors::IntoPyResult;
use super::world::PyWorld;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

/// Advances every world in `worlds` by `steps` steps, in parallel on `threads` threads (default:
/// one per core), with the GIL released. Each world steps exactly as `world.step(steps)` would,
/// whatever the number of threads. A world may appear only once. Worlds may be World or
/// World2D. Worlds with `on_contact` callbacks step one after another with the GIL held, after
/// the others.
#[pyfunction]
#[pyo3(signature = (worlds, steps=None, *, threads=None))]
#[pyo3(text_signature = "(worlds, steps=1, *, threads=None)")]
pub fn step_many(
    py: Python<'_>,
    worlds: &Bound<'_, PyAny>,
    steps: Option<&Bound<'_, PyAny>>,
    threads: Option<&Bound<'_, PyAny>>,
) -> PyResult<()> {
    let steps = steps.map(|s| int(s, "steps")).transpose()?.unwrap_or(1);
    if steps < 0 {
        return Err(PyValueError::new_err(format!(
            "steps: must not be negative (got {steps})"
        )));
    }
    let threads = thread_count(threads, "threads")?;
    let mut held: Vec<PyRefMut<'_, PyWorld>> = Vec::new();
    // Worlds with on_contact callbacks step one by one with the GIL, after the others.
    let mut asking: Vec<Bound<'_, PyWorld>> = Vec::new();
    for (i, item) in worlds
        .try_iter()
        .map_err(|_| PyTypeError::new_err("worlds: must be a sequence of World"))?
        .enumerate()
    {
        let mut item = item?;
        // A World2D holds its engine's World.
        if !item.is_instance_of::<PyWorld>() {
            if let Ok(inner) = item.getattr("_world") {
                item = inner;
            }
        }
        let world = item.cast::<PyWorld>().map_err(|_| {
            PyTypeError::new_err(format!(
                "worlds[{i}]: must be a World (got {})",
                item.get_type()
                    .name()
                    .map(|n| n.to_string())
                    .unwrap_or_default()
            ))
        })?;
        let borrowed = world.try_borrow_mut().map_err(|_| {
            PyValueError::new_err(format!(
                "worlds[{i}]: appears more than once (or is in use)"
            ))
        })?;
        super::decisions::not_deciding(&borrowed)?;
        if borrowed.on_contact.is_empty() {
            held.push(borrowed);
        } else {
            drop(borrowed);
            if asking.iter().any(|w| w.is(world)) {
                return Err(PyValueError::new_err(format!(
                    "worlds[{i}]: appears more than once (or is in use)"
                )));
            }
            asking.push(world.clone());
        }
    }
    let mut inners: Vec<&mut crate::World> = held.iter_mut().map(|w| &mut w.inner).collect();
    py.detach(|| crate::batch::step_many(&mut inners, steps as u64, threads))
        .py()?;
    for w in held.iter_mut() {
        w.offer_to_viewer();
    }
    drop(held);
    for w in &asking {
        PyWorld::step_bound(w, steps as u64)?;
        w.borrow_mut().offer_to_viewer();
    }
    Ok(())
}
