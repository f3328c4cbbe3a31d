//! `World.on_contact`: Python functions that decide whether a pair of bodies beginning a
//! contact may touch. The engine asks (contact_decisions.rs); this file holds the functions,
//! calls them between the step's narrow phase and the rest of it, and hands back the answers.

use pyo3::exceptions::{PyRuntimeError, PyTypeError};
use pyo3::prelude::*;

use super::body::PyBody;
use super::errors::IntoPyResult;
use super::query::{list, vectors};
use super::world::PyWorld;
use crate::body::BodyHandle;
use crate::math::DVec3;
use crate::World;

/// A function registered with `on_contact`, for every pair (body None) or for the pairs of one
/// body.
pub(crate) struct ContactCallback {
    pub body: Option<BodyHandle>,
    pub function: Py<PyAny>,
}

/// The contact a pair of bodies begins, as the step that begins it finds it: its deepest point,
/// the normal from the first body to the second (read-only arrays), the depth (m; negative
/// while the bodies are still apart, by less than they can close within the step) and the
/// speed at which they approach along the normal at that point (m/s; positive when closing).
#[pyclass(name = "Contact", module = "rigidlab", frozen)]
pub struct PyContact {
    #[pyo3(get)]
    point: Py<PyAny>,
    #[pyo3(get)]
    normal: Py<PyAny>,
    #[pyo3(get)]
    depth: f64,
    #[pyo3(get)]
    speed: f64,
}

#[pymethods]
impl PyContact {
    /// A contact at `point` with unit `normal` (both of 3 numbers, or of 2 in a 2D world).
    #[new]
    fn new(
        py: Python<'_>,
        point: Vec<f64>,
        normal: Vec<f64>,
        depth: f64,
        speed: f64,
    ) -> PyResult<PyContact> {
        let [point, normal] = vectors(py, "point, normal", [point, normal])?;
        Ok(PyContact {
            point,
            normal,
            depth,
            speed,
        })
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "Contact(point={}, normal={}, depth={:?}, speed={:?})",
            self.point.bind(py).repr()?,
            self.normal.bind(py).repr()?,
            self.depth,
            self.speed
        ))
    }
}

/// A contact the engine asks about, copied out so that no borrow of the world is held while
/// Python answers.
struct Ask {
    a: (BodyHandle, u64),
    b: (BodyHandle, u64),
    point: DVec3,
    normal: DVec3,
    depth: f64,
    speed: f64,
}

impl Ask {
    /// This step's manifold `i`, at its deepest point.
    fn of(world: &World, i: usize) -> Ask {
        let m = &world.manifolds()[i];
        let bodies = world.bodies().bodies();
        let (ba, bb) = (&bodies[m.row_a], &bodies[m.row_b]);
        let p = m
            .points
            .iter()
            .min_by(|x, y| x.separation.total_cmp(&y.separation))
            .expect("a manifold has points");
        let at = |b: &crate::Body| b.velocity + b.angular_velocity.cross(p.point - b.position);
        Ask {
            a: (m.a, ba.id),
            b: (m.b, bb.id),
            point: p.point,
            normal: m.normal,
            depth: -p.separation,
            speed: (at(ba) - at(bb)).dot(m.normal),
        }
    }

    /// The contact as `first` sees it (the normal points away from it).
    fn contact(&self, py: Python<'_>, flipped: bool) -> PyResult<PyContact> {
        let s = if flipped { -1.0 } else { 1.0 };
        PyContact::new(
            py,
            list(self.point),
            list(s * self.normal),
            self.depth,
            self.speed,
        )
    }

    /// Every callback that concerns this pair, called in the order they were registered; the
    /// pair may touch unless one of them answers False.
    fn answer(
        &self,
        world: &Bound<'_, PyWorld>,
        callbacks: &[(Option<BodyHandle>, Py<PyAny>)],
    ) -> PyResult<bool> {
        let py = world.py();
        let body =
            |(h, id): (BodyHandle, u64)| Py::new(py, PyBody::new(world.clone().unbind(), h, id));
        let mut accept = true;
        for (only, f) in callbacks {
            let flipped = match only {
                None => false,
                Some(h) if *h == self.a.0 => false,
                Some(h) if *h == self.b.0 => true,
                Some(_) => continue,
            };
            let (first, second) = if flipped {
                (self.b, self.a)
            } else {
                (self.a, self.b)
            };
            let contact = Py::new(py, self.contact(py, flipped)?)?;
            let got = f.bind(py).call1((body(first)?, body(second)?, contact))?;
            if got.is_none() {
                continue;
            }
            accept &= got.extract::<bool>().map_err(|_| {
                PyTypeError::new_err(format!(
                    "on_contact callback {}: must return True, False or None (got {})",
                    f.bind(py).repr().map(|r| r.to_string()).unwrap_or_default(),
                    got.repr().map(|r| r.to_string()).unwrap_or_default()
                ))
            })?;
        }
        Ok(accept)
    }
}

/// Steps `world` n times, first asking its on_contact callbacks about the contacts each step
/// would begin.
pub(crate) fn step_asking(world: &Bound<'_, PyWorld>, n: u64) -> PyResult<()> {
    let py = world.py();
    for _ in 0..n {
        // A step whose search had to be widened may find contacts that wait too: they are
        // asked about, and the step goes on from there.
        loop {
            decide(world)?;
            if world.borrow_mut().step_unless_undecided(py)? {
                break;
            }
        }
    }
    Ok(())
}

/// Asks the callbacks about every contact the coming step would begin, until none waits (a
/// callback that edits the world makes the engine run the stages again, which may find new
/// pairs; the answers given are kept). If a callback raises, the stages are taken back and the
/// world is as before the step.
fn decide(world: &Bound<'_, PyWorld>) -> PyResult<()> {
    let py = world.py();
    loop {
        let asks: Vec<Ask> = {
            let mut w = world.borrow_mut();
            let new = w.inner.new_contacts().py()?;
            new.iter().map(|&i| Ask::of(&w.inner, i)).collect()
        };
        if asks.is_empty() {
            return Ok(());
        }
        let callbacks: Vec<_> = world
            .borrow()
            .on_contact
            .iter()
            .map(|c| (c.body, c.function.clone_ref(py)))
            .collect();
        world.borrow_mut().deciding = true;
        let answers: PyResult<Vec<bool>> =
            asks.iter().map(|a| a.answer(world, &callbacks)).collect();
        let mut w = world.borrow_mut();
        w.deciding = false;
        match answers {
            Ok(answers) => {
                for (ask, yes) in asks.iter().zip(answers) {
                    w.inner.decide_contact(ask.a.1, ask.b.1, yes);
                }
            }
            Err(e) => {
                w.inner.cancel_contacts();
                return Err(e);
            }
        }
    }
}

/// Refuses to step a world from inside its own callback (the step it is part of would start
/// again inside itself).
pub(crate) fn not_deciding(world: &PyWorld) -> PyResult<()> {
    if world.deciding {
        return Err(PyRuntimeError::new_err(
            "cannot step a world from inside its on_contact callback (the step that asks is not \
             over); step it after the callback returns",
        ));
    }
    Ok(())
}
