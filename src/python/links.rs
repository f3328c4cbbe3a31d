//! `rigidlab.Load`, `rigidlab.Spring` and `rigidlab.Joint`: handles to what acts between or on
//! bodies, and the World methods that make springs and joints.

use numpy::PyArray1;
use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;

use super::body::PyBody;
use super::convert::{array3, float, vec3, vec3_or};
use super::errors::IntoPyResult;
use super::world::{own_body, PyWorld};
use crate::body::BodyHandle;
use crate::dynamics::joints::{Joint, JointHandle, JointKind, Motor};
use crate::dynamics::loads::{Lasting, LoadHandle};
use crate::dynamics::springs::{Spring, SpringHandle};
use crate::math::DVec3;
use crate::world::World;
use crate::world_links::{Attachment, HingeOptions};

/// How long a load lasts from the `duration` argument: None one step, inf until removed.
pub fn lasting(duration: Option<f64>) -> Lasting {
    match duration {
        None => Lasting::OneStep,
        Some(d) if d == f64::INFINITY => Lasting::UntilRemoved,
        Some(d) => Lasting::For(d),
    }
}

/// The Body of this world with handle h.
fn body_object(world: &Py<PyWorld>, py: Python<'_>, h: BodyHandle) -> PyResult<PyBody> {
    let id = PyWorld::get(world, py)?.inner.body(h).py()?.id;
    Ok(PyBody::new(world.clone_ref(py), h, id))
}

fn optional_body(
    world: &Bound<'_, PyWorld>,
    obj: Option<&Bound<'_, PyAny>>,
    param: &str,
) -> PyResult<Option<BodyHandle>> {
    obj.filter(|o| !o.is_none())
        .map(|o| own_body(world, o, param))
        .transpose()
}

/// Body a, optional body b and their anchors (b's a world point when b is None).
pub fn attachment(
    world: &Bound<'_, PyWorld>,
    a: &Bound<'_, PyAny>,
    b: Option<&Bound<'_, PyAny>>,
    anchor_a: Option<&Bound<'_, PyAny>>,
    anchor_b: Option<&Bound<'_, PyAny>>,
) -> PyResult<Attachment> {
    Ok(Attachment {
        a: own_body(world, a, "a")?,
        b: optional_body(world, b, "b")?,
        anchor_a: vec3_or(anchor_a, "anchor_a", DVec3::ZERO)?,
        anchor_b: vec3_or(anchor_b, "anchor_b", DVec3::ZERO)?,
    })
}

/// Body a, optional body b and a required world anchor point.
pub fn pivot(
    world: &Bound<'_, PyWorld>,
    a: &Bound<'_, PyAny>,
    b: Option<&Bound<'_, PyAny>>,
    anchor: Option<&Bound<'_, PyAny>>,
) -> PyResult<(BodyHandle, Option<BodyHandle>, DVec3)> {
    let anchor = anchor.filter(|o| !o.is_none()).ok_or_else(|| {
        PyTypeError::new_err("anchor: the joint's world point (x, y, z) is required")
    })?;
    Ok((
        own_body(world, a, "a")?,
        optional_body(world, b, "b")?,
        vec3(anchor, "anchor")?,
    ))
}

/// The units a joint's limits and motor are given in: a hinge's turn, a slider's slide.
#[derive(Clone, Copy)]
pub struct Units {
    pub limits: &'static str,
    pub motor: &'static str,
}

pub const HINGE_UNITS: Units = Units {
    limits: "radians",
    motor: "speed in rad/s and max_torque in N m",
};

pub const SLIDER_UNITS: Units = Units {
    limits: "metres",
    motor: "speed in m/s and max_torque, the most force, in N",
};

/// Limits (lower, upper) and a motor (speed, max_torque) or dict, of a hinge or a slider.
pub fn hinge_options(
    limits: Option<&Bound<'_, PyAny>>,
    motor: Option<&Bound<'_, PyAny>>,
    units: Units,
) -> PyResult<HingeOptions> {
    let limits = match limits.filter(|o| !o.is_none()) {
        None => None,
        Some(l) => {
            let expected = format!("limits: expected (lower, upper) in {}", units.limits);
            let v: Vec<Bound<'_, PyAny>> = l
                .try_iter()
                .and_then(|it| it.collect())
                .map_err(|_| PyTypeError::new_err(expected.clone()))?;
            if v.len() != 2 {
                return Err(PyValueError::new_err(format!(
                    "{expected}, got {} values",
                    v.len()
                )));
            }
            Some((float(&v[0], "limits")?, float(&v[1], "limits")?))
        }
    };
    Ok(HingeOptions {
        limits,
        motor: motor_arg(motor, units)?,
    })
}

fn motor_arg(motor: Option<&Bound<'_, PyAny>>, units: Units) -> PyResult<Option<Motor>> {
    let Some(m) = motor.filter(|o| !o.is_none()) else {
        return Ok(None);
    };
    let (speed, torque) = if let Ok(d) = m.cast::<pyo3::types::PyDict>() {
        let get = |k: &str| {
            d.get_item(k).ok().flatten().ok_or_else(|| {
                PyValueError::new_err(format!("motor: missing '{k}' (give {})", units.motor))
            })
        };
        (get("speed")?, get("max_torque")?)
    } else {
        let v: Vec<Bound<'_, PyAny>> = m.try_iter().and_then(|it| it.collect()).map_err(|_| {
            PyTypeError::new_err("motor: expected (speed, max_torque) or a dict with those keys")
        })?;
        if v.len() != 2 {
            return Err(PyValueError::new_err("motor: expected (speed, max_torque)"));
        }
        (v[0].clone(), v[1].clone())
    };
    Ok(Some(Motor {
        speed: float(&speed, "motor speed")?,
        max_torque: float(&torque, "motor max_torque")?,
    }))
}

/// A force or torque applied to a body (from Body.apply_force / apply_torque).
#[pyclass(name = "Load", module = "rigidlab", frozen)]
pub struct PyLoad {
    world: Py<PyWorld>,
    handle: LoadHandle,
}

impl PyLoad {
    pub fn new(world: Py<PyWorld>, handle: LoadHandle) -> PyLoad {
        PyLoad { world, handle }
    }
}

#[pymethods]
impl PyLoad {
    /// The load with this handle number in `world`, as a pickle holds it.
    #[staticmethod]
    fn _of(world: Bound<'_, PyWorld>, handle: u64) -> PyLoad {
        PyLoad::new(world.unbind(), LoadHandle(handle))
    }

    /// Pickles as a reference into its world, which is pickled with it.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> super::Reduced<'py, (Py<PyWorld>, u64)> {
        let me = slf.get();
        Ok((
            slf.get_type().getattr("_of")?,
            (me.world.clone_ref(slf.py()), me.handle.0),
        ))
    }

    /// Whether the load still acts.
    #[getter]
    fn active(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(PyWorld::get(&self.world, py)?
            .inner
            .load_active(self.handle))
    }

    /// Stops the load; returns whether it was still acting.
    pub fn remove(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(PyWorld::get_mut(&self.world, py)?
            .inner
            .remove_load(self.handle))
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "<Load {}{}>",
            self.handle.0,
            match self.active(py) {
                Ok(false) => " (finished)",
                _ => "",
            }
        )
    }
}

/// A damped linear spring (from World.add_spring). Properties read the live world.
#[pyclass(name = "Spring", module = "rigidlab", frozen)]
pub struct PySpring {
    world: Py<PyWorld>,
    handle: SpringHandle,
}

impl PySpring {
    pub fn new(world: Py<PyWorld>, handle: SpringHandle) -> PySpring {
        PySpring { world, handle }
    }

    fn read<T>(&self, py: Python<'_>, f: impl FnOnce(&Spring, &World) -> T) -> PyResult<T> {
        let w = PyWorld::get(&self.world, py)?;
        let s = w.inner.spring(self.handle).ok_or_else(|| {
            PyIndexError::new_err(format!(
                "spring {} has been removed from the world",
                self.handle.0
            ))
        })?;
        Ok(f(s, &w.inner))
    }

    fn set(&self, py: Python<'_>, change: impl FnOnce(&mut (f64, f64, f64))) -> PyResult<()> {
        let mut v = self.read(py, |s, _| (s.stiffness, s.damping, s.rest_length))?;
        change(&mut v);
        PyWorld::get_mut(&self.world, py)?
            .inner
            .set_spring(self.handle, v.0, v.1, v.2)
            .py()
    }
}

#[pymethods]
impl PySpring {
    /// The spring with this handle number in `world`, as a pickle holds it.
    #[staticmethod]
    fn _of(world: Bound<'_, PyWorld>, handle: u64) -> PySpring {
        PySpring::new(world.unbind(), SpringHandle(handle))
    }

    /// Pickles as a reference into its world, which is pickled with it.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> super::Reduced<'py, (Py<PyWorld>, u64)> {
        let me = slf.get();
        Ok((
            slf.get_type().getattr("_of")?,
            (me.world.clone_ref(slf.py()), me.handle.0),
        ))
    }

    /// The body at anchor_a.
    #[getter]
    fn body_a(&self, py: Python<'_>) -> PyResult<PyBody> {
        body_object(&self.world, py, self.read(py, |s, _| s.a)?)
    }

    /// The other body, or None when the spring is fixed to a world point.
    #[getter]
    fn body_b(&self, py: Python<'_>) -> PyResult<Option<PyBody>> {
        self.read(py, |s, _| s.b)?
            .map(|h| body_object(&self.world, py, h))
            .transpose()
    }

    /// Stiffness k (N/m).
    #[getter]
    fn stiffness(&self, py: Python<'_>) -> PyResult<f64> {
        self.read(py, |s, _| s.stiffness)
    }

    #[setter(stiffness)]
    fn set_stiffness(&self, py: Python<'_>, stiffness: &Bound<'_, PyAny>) -> PyResult<()> {
        let k = float(stiffness, "stiffness")?;
        self.set(py, |v| v.0 = k)
    }

    /// Damping c (N s/m) along the spring.
    #[getter]
    fn damping(&self, py: Python<'_>) -> PyResult<f64> {
        self.read(py, |s, _| s.damping)
    }

    #[setter(damping)]
    fn set_damping(&self, py: Python<'_>, damping: &Bound<'_, PyAny>) -> PyResult<()> {
        let c = float(damping, "damping")?;
        self.set(py, |v| v.1 = c)
    }

    /// Rest length (m).
    #[getter]
    fn rest_length(&self, py: Python<'_>) -> PyResult<f64> {
        self.read(py, |s, _| s.rest_length)
    }

    #[setter(rest_length)]
    fn set_rest_length(&self, py: Python<'_>, rest_length: &Bound<'_, PyAny>) -> PyResult<()> {
        let l = float(rest_length, "rest_length")?;
        self.set(py, |v| v.2 = l)
    }

    /// Anchor on a (body frame).
    #[getter]
    fn anchor_a<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<f64>>> {
        Ok(array3(py, self.read(py, |s, _| s.anchor_a)?))
    }

    /// Anchor on b (body frame), or the world point when b is None.
    #[getter]
    fn anchor_b<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<f64>>> {
        Ok(array3(py, self.read(py, |s, _| s.anchor_b)?))
    }

    /// Current distance between the anchors (m).
    #[getter]
    fn length(&self, py: Python<'_>) -> PyResult<f64> {
        self.read(py, |s, w| s.length(w.bodies()))
    }

    /// Elastic energy k (L - rest_length)^2 / 2 (J).
    #[getter]
    fn elastic_energy(&self, py: Python<'_>) -> PyResult<f64> {
        self.read(py, |s, w| s.energy(w.bodies()))
    }

    /// Whether the spring is still in the world.
    #[getter]
    fn alive(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(PyWorld::get(&self.world, py)?
            .inner
            .spring(self.handle)
            .is_some())
    }

    /// Removes the spring; returns whether it was still there.
    pub fn remove(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(PyWorld::get_mut(&self.world, py)?
            .inner
            .remove_spring(self.handle))
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        match self.read(py, |s, w| {
            (s.stiffness, s.damping, s.rest_length, s.length(w.bodies()))
        }) {
            Ok((k, c, l0, l)) => format!(
                "<Spring {}: k={k} N/m, c={c} N s/m, rest {l0} m, now {l:.6} m>",
                self.handle.0
            ),
            Err(e) if e.is_instance_of::<PyIndexError>(py) => {
                format!("<Spring {} (removed)>", self.handle.0)
            }
            Err(_) => format!("<Spring {}>", self.handle.0),
        }
    }
}

/// A joint (from the World.add_*_joint methods). Properties read the live world.
#[pyclass(name = "Joint", module = "rigidlab", frozen)]
pub struct PyJoint {
    world: Py<PyWorld>,
    handle: JointHandle,
}

impl PyJoint {
    pub fn new(world: Py<PyWorld>, handle: JointHandle) -> PyJoint {
        PyJoint { world, handle }
    }

    fn read<T>(&self, py: Python<'_>, f: impl FnOnce(&Joint, &World) -> T) -> PyResult<T> {
        let w = PyWorld::get(&self.world, py)?;
        let j = w.inner.joint(self.handle).ok_or_else(|| {
            PyIndexError::new_err(format!(
                "joint {} has been removed from the world",
                self.handle.0
            ))
        })?;
        Ok(f(j, &w.inner))
    }
}

#[pymethods]
impl PyJoint {
    /// The joint with this handle number in `world`, as a pickle holds it.
    #[staticmethod]
    fn _of(world: Bound<'_, PyWorld>, handle: u64) -> PyJoint {
        PyJoint::new(world.unbind(), JointHandle(handle))
    }

    /// Pickles as a reference into its world, which is pickled with it.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> super::Reduced<'py, (Py<PyWorld>, u64)> {
        let me = slf.get();
        Ok((
            slf.get_type().getattr("_of")?,
            (me.world.clone_ref(slf.py()), me.handle.0),
        ))
    }

    /// Whether the two joined bodies collide with each other (default False: a joint's bodies
    /// pass through each other where they meet, as links of a chain do).
    #[getter]
    fn collide(&self, py: Python<'_>) -> PyResult<bool> {
        self.read(py, |j, _| j.collide)
    }

    #[setter(collide)]
    fn set_collide(&self, py: Python<'_>, collide: bool) -> PyResult<()> {
        PyWorld::get_mut(&self.world, py)?
            .inner
            .set_joint_collide(self.handle, collide)
            .py()
    }

    /// "distance", "rope", "ball", "hinge" or "fixed".
    #[getter]
    fn kind(&self, py: Python<'_>) -> PyResult<&'static str> {
        self.read(py, |j, _| j.kind.name())
    }

    /// The body at anchor_a.
    #[getter]
    fn body_a(&self, py: Python<'_>) -> PyResult<PyBody> {
        body_object(&self.world, py, self.read(py, |j, _| j.a)?)
    }

    /// The other body, or None when the joint holds a to the world.
    #[getter]
    fn body_b(&self, py: Python<'_>) -> PyResult<Option<PyBody>> {
        self.read(py, |j, _| j.b)?
            .map(|h| body_object(&self.world, py, h))
            .transpose()
    }

    /// Anchor on a (body frame).
    #[getter]
    fn anchor_a<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<f64>>> {
        Ok(array3(py, self.read(py, |j, _| j.anchor_a)?))
    }

    /// Anchor on b (body frame), or the world point when b is None.
    #[getter]
    fn anchor_b<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<f64>>> {
        Ok(array3(py, self.read(py, |j, _| j.anchor_b)?))
    }

    /// Current distance between the anchors (m).
    #[getter]
    fn length(&self, py: Python<'_>) -> PyResult<f64> {
        self.read(py, |j, w| {
            j.world_anchors(w.bodies())
                .map_or(f64::NAN, |(a, b)| (b - a).length())
        })
    }

    /// The rod length of a distance joint, the maximum length of a rope or of a pulley's rope
    /// (la + ratio lb), None otherwise.
    #[getter]
    fn target_length(&self, py: Python<'_>) -> PyResult<Option<f64>> {
        self.read(py, |j, _| match j.kind {
            JointKind::Distance { length } => Some(length),
            JointKind::Rope { max_length } => Some(max_length),
            JointKind::Pulley { length, .. } => Some(length),
            _ => None,
        })
    }

    /// A slider's travel (m): how far a has slid along the axis relative to b (or the world)
    /// since the joint was made; None for other joints.
    #[getter]
    fn translation(&self, py: Python<'_>) -> PyResult<Option<f64>> {
        self.read(py, |j, w| j.translation(w.bodies()))
    }

    /// A hinge's angle (rad): how far a has turned about the axis relative to b (or the world)
    /// since the joint was made; None for other joints.
    #[getter]
    fn angle(&self, py: Python<'_>) -> PyResult<Option<f64>> {
        self.read(py, |j, w| j.angle(w.bodies()))
    }

    /// A hinge's limits (lower, upper) in radians, a slider's in metres, or None.
    #[getter]
    fn limits(&self, py: Python<'_>) -> PyResult<Option<(f64, f64)>> {
        self.read(py, |j, _| match j.kind {
            JointKind::Hinge { limits, .. } | JointKind::Slider { limits, .. } => limits,
            _ => None,
        })
    }

    /// A hinge's motor as (speed rad/s of a relative to b about the axis, max_torque N m), a
    /// slider's as (speed m/s of a along the axis relative to b, max force N), or None.
    /// Settable (None turns it off).
    #[getter]
    fn motor(&self, py: Python<'_>) -> PyResult<Option<(f64, f64)>> {
        self.read(py, |j, _| match j.kind {
            JointKind::Hinge { motor, .. } | JointKind::Slider { motor, .. } => {
                motor.map(|m| (m.speed, m.max_torque))
            }
            _ => None,
        })
    }

    #[setter(motor)]
    fn set_motor(&self, py: Python<'_>, motor: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let slider = self.read(py, |j, _| matches!(j.kind, JointKind::Slider { .. }))?;
        let m = motor_arg(motor, if slider { SLIDER_UNITS } else { HINGE_UNITS })?;
        PyWorld::get_mut(&self.world, py)?
            .inner
            .set_hinge_motor(self.handle, m)
            .py()
    }

    /// A mouse joint's target (world point), None for other joints. Settable: the body
    /// follows it from the next step on.
    #[getter]
    fn target<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyArray1<f64>>>> {
        let t = self.read(py, |j, _| {
            matches!(j.kind, JointKind::Mouse { .. }).then_some(j.anchor_b)
        })?;
        Ok(t.map(|t| array3(py, t)))
    }

    #[setter(target)]
    fn set_target(&self, py: Python<'_>, target: &Bound<'_, PyAny>) -> PyResult<()> {
        let t = vec3(target, "target")?;
        PyWorld::get_mut(&self.world, py)?
            .inner
            .set_mouse_target(self.handle, t)
            .py()
    }

    /// Reaction impulse (N s, world vector) the joint gave body b in the last step; body a got
    /// its opposite.
    #[getter]
    fn impulse<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<f64>>> {
        Ok(array3(py, self.read(py, |j, _| j.impulse)?))
    }

    /// Angular reaction impulse (N m s) on b in the last step, besides the moment of `impulse`.
    #[getter]
    fn angular_impulse<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<f64>>> {
        Ok(array3(py, self.read(py, |j, _| j.angular_impulse)?))
    }

    /// Mean reaction force (N) on b over the last step: impulse / dt. When b is the world (a
    /// joint to a fixed point, a mouse joint's target) this is the force on the world; the force
    /// the joint exerts on a is its negative (a body held by a mouse joint: its weight, upwards).
    #[getter]
    fn reaction_force<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<f64>>> {
        Ok(array3(
            py,
            self.read(py, |j, w| j.impulse / w.settings().dt)?,
        ))
    }

    /// Mean reaction torque (N m) on b over the last step: angular_impulse / dt.
    #[getter]
    fn reaction_torque<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<f64>>> {
        Ok(array3(
            py,
            self.read(py, |j, w| j.angular_impulse / w.settings().dt)?,
        ))
    }

    /// Whether the joint is still in the world.
    #[getter]
    fn alive(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(PyWorld::get(&self.world, py)?
            .inner
            .joint(self.handle)
            .is_some())
    }

    /// Removes the joint; returns whether it was still there.
    pub fn remove(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(PyWorld::get_mut(&self.world, py)?
            .inner
            .remove_joint(self.handle))
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        match self.read(py, |j, _| j.kind.name()) {
            Ok(kind) => format!("<Joint {}: {kind}>", self.handle.0),
            Err(e) if e.is_instance_of::<PyIndexError>(py) => {
                format!("<Joint {} (removed)>", self.handle.0)
            }
            Err(_) => format!("<Joint {}>", self.handle.0),
        }
    }
}
