//! `rigidlab.Body`: a handle to one body of a world, with its state as numpy arrays.

use crate::speed_caps::SpeedCaps;
use numpy::{PyArray1, PyArray2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::convert::{
    array3, array4, float, matrix3, opt_float, quat, settable, string, table, vec3, vec3_or,
};
use super::errors::{IntoPyResult, RemovedBodyError};
use super::links::{lasting, PyLoad};
use super::world::PyWorld;
use crate::body::{Body, BodyHandle, BodyKind};
use crate::material::Material;
use crate::math::DVec3;
use crate::shape::Shape;

/// A body in a World. Properties read and write the live world; numpy arrays are copies.
/// After `World.remove(body)`, using the handle raises RemovedBodyError (an IndexError).
#[pyclass(name = "Body", module = "rigidlab", frozen)]
pub struct PyBody {
    world: Py<PyWorld>,
    pub(crate) handle: BodyHandle,
    id: u64,
}

impl PyBody {
    pub fn new(world: Py<PyWorld>, handle: BodyHandle, id: u64) -> PyBody {
        PyBody { world, handle, id }
    }

    fn removed(&self) -> PyErr {
        RemovedBodyError::new_err(format!("body {} has been removed from the world", self.id))
    }

    /// Runs `f` on the live body.
    fn read<T>(&self, py: Python<'_>, f: impl FnOnce(&Body) -> T) -> PyResult<T> {
        let w = PyWorld::get(&self.world, py)?;
        match w.inner.body(self.handle) {
            Ok(b) if b.id == self.id => Ok(f(b)),
            _ => Err(self.removed()),
        }
    }

    /// Runs `f` on the world, after checking that the body is live. (A restored snapshot can
    /// put another body in this handle's slot, so the id is checked too.)
    fn edit<T>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut crate::world::World) -> crate::error::Result<T>,
    ) -> PyResult<T> {
        let mut w = PyWorld::get_mut(&self.world, py)?;
        if !w.inner.body(self.handle).is_ok_and(|b| b.id == self.id) {
            return Err(self.removed());
        }
        f(&mut w.inner).py()
    }

    /// The contact force and torque on this body in the last step.
    fn contact(&self, py: Python<'_>) -> PyResult<(crate::math::DVec3, crate::math::DVec3)> {
        let w = PyWorld::get(&self.world, py)?;
        match w.inner.bodies().dense_index(self.handle) {
            Some(row) if w.inner.body(self.handle).is_ok_and(|b| b.id == self.id) => {
                Ok(w.inner.contact_force_on(row))
            }
            _ => Err(self.removed()),
        }
    }

    /// Changes the body's collision filter with `change`.
    fn edit_filter(
        &self,
        py: Python<'_>,
        change: impl FnOnce(&mut crate::filter::Filter),
    ) -> PyResult<()> {
        self.edit(py, |w| {
            let mut filter = w.body(self.handle)?.filter;
            change(&mut filter);
            w.set_filter(self.handle, filter)
        })
    }

    /// The handle, if the body is still in `world`.
    pub fn live_handle(&self, world: &crate::world::World) -> Option<BodyHandle> {
        world
            .body(self.handle)
            .ok()
            .filter(|b| b.id == self.id)
            .map(|_| self.handle)
    }

    /// Whether the body belongs to `world`.
    pub fn world_is(&self, world: &Bound<'_, PyWorld>) -> bool {
        self.world.is(world)
    }

    pub fn id_value(&self) -> u64 {
        self.id
    }

    fn material(&self, py: Python<'_>) -> PyResult<Material> {
        self.read(py, |b| b.material)
    }
}

#[pymethods]
impl PyBody {
    /// The body with id `id` of `world`, as a pickle holds it (a removed one stays removed).
    #[staticmethod]
    fn _of(world: Bound<'_, PyWorld>, id: u64) -> PyBody {
        let handle = {
            let w = world.borrow();
            let bodies = w.inner.bodies();
            bodies
                .handles()
                .iter()
                .zip(bodies.bodies())
                .find(|(_, b)| b.id == id)
                .map(|(h, _)| *h)
        };
        // No slot has this handle: every use of it raises RemovedBodyError.
        let gone = BodyHandle {
            index: u32::MAX,
            generation: u32::MAX,
        };
        PyBody::new(world.unbind(), handle.unwrap_or(gone), id)
    }

    /// Pickles as a reference into its world, which is pickled with it (once, when both are
    /// in one pickle: a pickled list of bodies and their world comes back as one world).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> super::Reduced<'py, (Py<PyWorld>, u64)> {
        let me = slf.get();
        Ok((
            slf.get_type().getattr("_of")?,
            (me.world.clone_ref(slf.py()), me.id),
        ))
    }

    /// Unique id of the body in its world (never reused).
    #[getter]
    fn id(&self) -> u64 {
        self.id
    }

    /// The World the body belongs to.
    #[getter]
    fn world(&self, py: Python<'_>) -> Py<PyWorld> {
        self.world.clone_ref(py)
    }

    /// False once the body has been removed.
    #[getter]
    fn alive(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(self
            .live_handle(&PyWorld::get(&self.world, py)?.inner)
            .is_some())
    }

    /// Row of the body in the world's whole-world arrays (changes when earlier bodies are
    /// removed).
    #[getter]
    fn index(&self, py: Python<'_>) -> PyResult<usize> {
        PyWorld::get(&self.world, py)?
            .inner
            .row(self.handle)
            .map_err(|_| self.removed())
    }

    /// Position of the centre of mass (m).
    #[getter]
    fn position<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<f64>>> {
        Ok(settable(
            array3(py, self.read(py, |b| b.position)?),
            "b.position = (x, y, z)",
        ))
    }

    #[setter(position)]
    fn set_position(&self, py: Python<'_>, v: &Bound<'_, PyAny>) -> PyResult<()> {
        let v = vec3(v, "position")?;
        self.edit(py, |w| w.set_position(self.handle, v))
    }

    /// Orientation as a unit quaternion (x, y, z, w); set values are normalised.
    #[getter]
    fn orientation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<f64>>> {
        Ok(settable(
            array4(py, self.read(py, |b| b.orientation)?),
            "b.orientation = (x, y, z, w)",
        ))
    }

    #[setter(orientation)]
    fn set_orientation(&self, py: Python<'_>, q: &Bound<'_, PyAny>) -> PyResult<()> {
        let q = quat(q, "orientation")?;
        self.edit(py, |w| w.set_orientation(self.handle, q))
    }

    /// For a body of a 2D world: its angle about z (rad), whole turns counted.
    #[getter]
    fn angle(&self, py: Python<'_>) -> PyResult<f64> {
        self.read(py, |b| b.angle)
    }

    #[setter(angle)]
    fn set_angle(&self, py: Python<'_>, angle: &Bound<'_, PyAny>) -> PyResult<()> {
        let a = float(angle, "angle")?;
        self.edit(py, |w| w.set_angle(self.handle, a))
    }

    /// Velocity of the centre of mass (m/s).
    #[getter]
    fn velocity<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<f64>>> {
        Ok(settable(
            array3(py, self.read(py, |b| b.velocity)?),
            "b.velocity = (vx, vy, vz)",
        ))
    }

    #[setter(velocity)]
    fn set_velocity(&self, py: Python<'_>, v: &Bound<'_, PyAny>) -> PyResult<()> {
        let v = vec3(v, "velocity")?;
        self.edit(py, |w| w.set_velocity(self.handle, v))
    }

    /// Angular velocity in the world frame (rad/s).
    #[getter]
    fn angular_velocity<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<f64>>> {
        Ok(settable(
            array3(py, self.read(py, |b| b.angular_velocity)?),
            "b.angular_velocity = (wx, wy, wz)",
        ))
    }

    #[setter(angular_velocity)]
    fn set_angular_velocity(&self, py: Python<'_>, v: &Bound<'_, PyAny>) -> PyResult<()> {
        let v = vec3(v, "angular_velocity")?;
        self.edit(py, |w| w.set_angular_velocity(self.handle, v))
    }

    /// Mass in kg (inf for static and kinematic bodies).
    #[getter]
    fn mass(&self, py: Python<'_>) -> PyResult<f64> {
        self.read(py, Body::mass)
    }

    /// Inertia tensor about the centre of mass in the world frame, R I R^T (kg m^2), 3x3.
    #[getter]
    fn inertia<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f64>>> {
        Ok(matrix3(py, self.read(py, Body::inertia_world)?))
    }

    /// Inertia tensor about the centre of mass in the body frame (kg m^2), 3x3.
    #[getter]
    fn inertia_body<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f64>>> {
        Ok(matrix3(py, self.read(py, Body::inertia_body)?))
    }

    /// Whether the body sleeps (see `World.sleeping`): it rests and is not simulated until
    /// something touches it or the world is edited.
    #[getter]
    fn sleeping(&self, py: Python<'_>) -> PyResult<bool> {
        self.read(py, |b| b.sleep.asleep)
    }

    /// "dynamic", "static" or "kinematic". Settable: making a body static stops it.
    #[getter]
    fn kind(&self, py: Python<'_>) -> PyResult<&'static str> {
        self.read(py, |b| b.kind.name())
    }

    #[setter(kind)]
    fn set_kind(&self, py: Python<'_>, kind: &Bound<'_, PyAny>) -> PyResult<()> {
        let kind = BodyKind::parse("kind", &string(kind, "kind")?).py()?;
        self.edit(py, |w| w.set_kind(self.handle, kind))
    }

    /// The body's name (None if not given).
    #[getter]
    fn name(&self, py: Python<'_>) -> PyResult<Option<String>> {
        self.read(py, |b| b.name.clone())
    }

    #[setter(name)]
    fn set_name(&self, py: Python<'_>, name: &Bound<'_, PyAny>) -> PyResult<()> {
        let name = if name.is_none() {
            None
        } else {
            Some(string(name, "name")?)
        };
        self.edit(py, |w| w.set_name(self.handle, name))
    }

    /// Display colour (r, g, b) in [0, 1] used by the viewer, or None for one picked by id.
    #[getter]
    fn color(&self, py: Python<'_>) -> PyResult<Option<(f64, f64, f64)>> {
        self.read(py, |b| b.color.map(|[r, g, b]| (r, g, b)))
    }

    #[setter(color)]
    fn set_color(&self, py: Python<'_>, color: &Bound<'_, PyAny>) -> PyResult<()> {
        let color = if color.is_none() {
            None
        } else {
            Some(vec3(color, "color")?.to_array())
        };
        self.edit(py, |w| w.set_color(self.handle, color))
    }

    /// The shape's type: "sphere", "box", "capsule", "convex" or "plane"; in a 2D world also
    /// "polygon" and "segment" (rigidlab.Body2D names them in 2D).
    #[getter]
    fn shape(&self, py: Python<'_>) -> PyResult<&'static str> {
        self.read(py, |b| b.shape.type_name())
    }

    /// The shape's dimensions: {"radius": r}, {"half_extents": array}, {"radius": r,
    /// "half_height": h}, {"vertices": (m, 3) array in the body frame about the centre of
    /// mass, "faces": list of vertex-index lists, counter-clockwise seen from outside} or, for a
    /// plane, {"normal": array, "offset": d} in world coordinates.
    #[getter]
    fn dimensions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let (shape, pos, q) = self.read(py, |b| (b.shape.clone(), b.position, b.orientation))?;
        let d = PyDict::new(py);
        match shape {
            Shape::Sphere { radius } => d.set_item("radius", radius)?,
            Shape::Box { half_extents, .. } => {
                d.set_item("half_extents", array3(py, half_extents))?
            }
            Shape::Capsule {
                radius,
                half_height,
            } => {
                d.set_item("radius", radius)?;
                d.set_item("half_height", half_height)?;
            }
            Shape::Convex { hull, .. } => {
                d.set_item(
                    "vertices",
                    table(
                        py,
                        hull.vertices.iter().flat_map(|v| v.to_array()).collect(),
                        3,
                    ),
                )?;
                d.set_item(
                    "faces",
                    hull.faces
                        .iter()
                        .map(|f| f.vertices.clone())
                        .collect::<Vec<_>>(),
                )?;
            }
            Shape::Plane => {
                let n = q * DVec3::Y;
                d.set_item("normal", array3(py, n))?;
                d.set_item("offset", n.dot(pos))?;
            }
            Shape::Polygon { polygon } => {
                let flat: Vec<f64> = polygon.vertices.iter().flat_map(|v| v.to_array()).collect();
                match polygon.outline {
                    crate::shape::Outline::Box { half_extents } => {
                        d.set_item("half_extents", half_extents.to_array().to_vec())?
                    }
                    crate::shape::Outline::Segment => {
                        d.set_item("radius", polygon.radius)?;
                        d.set_item("vertices", table(py, flat, 2))?;
                    }
                    crate::shape::Outline::Polygon => d.set_item("vertices", table(py, flat, 2))?,
                }
            }
        }
        Ok(d)
    }

    /// Restitution coefficient, or None when unset (the pair then uses the other body's).
    #[getter]
    fn restitution(&self, py: Python<'_>) -> PyResult<Option<f64>> {
        Ok(self.material(py)?.restitution)
    }

    #[setter(restitution)]
    fn set_restitution(
        &self,
        py: Python<'_>,
        restitution: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let m = Material {
            restitution: opt_float(restitution, "restitution")?,
            ..self.material(py)?
        };
        self.edit(py, |w| w.set_material(self.handle, m))
    }

    /// Kinetic friction coefficient, or None when unset.
    #[getter]
    fn friction(&self, py: Python<'_>) -> PyResult<Option<f64>> {
        Ok(self.material(py)?.friction)
    }

    #[setter(friction)]
    fn set_friction(&self, py: Python<'_>, friction: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let m = Material {
            friction: opt_float(friction, "friction")?,
            ..self.material(py)?
        };
        self.edit(py, |w| w.set_material(self.handle, m))
    }

    /// Static friction coefficient, or None when unset (then equal to friction).
    #[getter]
    fn static_friction(&self, py: Python<'_>) -> PyResult<Option<f64>> {
        Ok(self.material(py)?.static_friction)
    }

    #[setter(static_friction)]
    fn set_static_friction(
        &self,
        py: Python<'_>,
        static_friction: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let m = Material {
            static_friction: opt_float(static_friction, "static_friction")?,
            ..self.material(py)?
        };
        self.edit(py, |w| w.set_material(self.handle, m))
    }

    /// Tangential restitution beta in [-1, 1], or None when unset (the pair then uses the other
    /// body's, else 0): in an impact, the slip of the surfaces at the contact becomes -beta
    /// times itself as far as friction allows. 0 stops the slip; 1 reverses it and keeps the
    /// energy (perfectly rough spheres, with friction high enough to hold).
    #[getter]
    fn tangential_restitution(&self, py: Python<'_>) -> PyResult<Option<f64>> {
        Ok(self.material(py)?.tangential_restitution)
    }

    #[setter(tangential_restitution)]
    fn set_tangential_restitution(
        &self,
        py: Python<'_>,
        tangential_restitution: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let m = Material {
            tangential_restitution: opt_float(tangential_restitution, "tangential_restitution")?,
            ..self.material(py)?
        };
        self.edit(py, |w| w.set_material(self.handle, m))
    }

    /// Linear damping coefficient c of the force -c v (N s/m).
    #[getter]
    fn linear_damping(&self, py: Python<'_>) -> PyResult<f64> {
        self.read(py, |b| b.linear_damping)
    }

    #[setter(linear_damping)]
    fn set_linear_damping(
        &self,
        py: Python<'_>,
        linear_damping: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let c = float(linear_damping, "linear_damping")?;
        let angular = self.read(py, |b| b.angular_damping)?;
        self.edit(py, |w| w.set_damping(self.handle, c, angular))
    }

    /// Angular damping coefficient c_w of the torque -c_w w (N m s).
    #[getter]
    fn angular_damping(&self, py: Python<'_>) -> PyResult<f64> {
        self.read(py, |b| b.angular_damping)
    }

    #[setter(angular_damping)]
    fn set_angular_damping(
        &self,
        py: Python<'_>,
        angular_damping: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let c = float(angular_damping, "angular_damping")?;
        let linear = self.read(py, |b| b.linear_damping)?;
        self.edit(py, |w| w.set_damping(self.handle, linear, c))
    }

    /// Quadratic drag coefficient c2 (kg/m) of the force -c2 |v| v.
    #[getter]
    fn quadratic_drag(&self, py: Python<'_>) -> PyResult<f64> {
        self.read(py, |b| b.quadratic_drag)
    }

    #[setter(quadratic_drag)]
    fn set_quadratic_drag(
        &self,
        py: Python<'_>,
        quadratic_drag: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let c = float(quadratic_drag, "quadratic_drag")?;
        self.edit(py, |w| w.set_quadratic_drag(self.handle, c))
    }

    /// The largest speed of the body's centre (m/s), or None (no cap). After each step's
    /// velocity solve a faster dynamic body is slowed to it along its own direction: a cap only
    /// ever takes kinetic energy away (what lies above m v_max^2 / 2 is lost where it acts).
    #[getter]
    fn max_speed(&self, py: Python<'_>) -> PyResult<Option<f64>> {
        self.read(py, |b| b.caps.linear)
    }

    #[setter(max_speed)]
    fn set_max_speed(&self, py: Python<'_>, value: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let cap = opt_float(value, "max_speed")?;
        self.edit(py, |w| {
            let caps = w.body(self.handle)?.caps;
            w.set_speed_caps(
                self.handle,
                SpeedCaps {
                    linear: cap,
                    ..caps
                },
            )
        })
    }

    /// The largest angular speed (rad/s), or None (no cap); as `max_speed`, for rotation.
    #[getter]
    fn max_angular_speed(&self, py: Python<'_>) -> PyResult<Option<f64>> {
        self.read(py, |b| b.caps.angular)
    }

    #[setter(max_angular_speed)]
    fn set_max_angular_speed(
        &self,
        py: Python<'_>,
        value: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let cap = opt_float(value, "max_angular_speed")?;
        self.edit(py, |w| {
            let caps = w.body(self.handle)?.caps;
            w.set_speed_caps(
                self.handle,
                SpeedCaps {
                    angular: cap,
                    ..caps
                },
            )
        })
    }

    /// How much of the world's gravity acts on this body (1: all, 0: none).
    #[getter]
    fn gravity_scale(&self, py: Python<'_>) -> PyResult<f64> {
        self.read(py, |b| b.gravity_scale)
    }

    #[setter(gravity_scale)]
    fn set_gravity_scale(&self, py: Python<'_>, gravity_scale: &Bound<'_, PyAny>) -> PyResult<()> {
        let g = float(gravity_scale, "gravity_scale")?;
        self.edit(py, |w| w.set_gravity_scale(self.handle, g))
    }

    /// Whether the body is a sensor: it senses the bodies that overlap it (World.overlaps, and
    /// "sensor_begin"/"sensor_end" events timed within the step) and never pushes them.
    #[getter]
    fn sensor(&self, py: Python<'_>) -> PyResult<bool> {
        self.read(py, |b| b.sensor)
    }

    #[setter(sensor)]
    fn set_sensor(&self, py: Python<'_>, sensor: &Bound<'_, PyAny>) -> PyResult<()> {
        let v = super::convert::boolean(sensor, "sensor")?;
        self.edit(py, |w| w.set_sensor(self.handle, v))
    }

    /// The collision categories the body belongs to (32 bits; default 1). Two bodies collide
    /// when each one's category shares a bit with the other's `collides_with`, and they are not
    /// in the same non-zero `group`.
    #[getter]
    fn category(&self, py: Python<'_>) -> PyResult<u32> {
        self.read(py, |b| b.filter.category)
    }

    #[setter(category)]
    fn set_category(&self, py: Python<'_>, category: &Bound<'_, PyAny>) -> PyResult<()> {
        let v = super::convert::bits32(category, "category")?;
        self.edit_filter(py, |f| f.category = v)
    }

    /// The categories the body collides with (32 bits; default all, 0xFFFFFFFF).
    #[getter]
    fn collides_with(&self, py: Python<'_>) -> PyResult<u32> {
        self.read(py, |b| b.filter.collides_with)
    }

    #[setter(collides_with)]
    fn set_collides_with(&self, py: Python<'_>, collides_with: &Bound<'_, PyAny>) -> PyResult<()> {
        let v = super::convert::bits32(collides_with, "collides_with")?;
        self.edit_filter(py, |f| f.collides_with = v)
    }

    /// Bodies in the same non-zero group never collide with each other (the links of a chain
    /// or a ragdoll); 0 (the default) is no group.
    #[getter]
    fn group(&self, py: Python<'_>) -> PyResult<u32> {
        self.read(py, |b| b.filter.group)
    }

    #[setter(group)]
    fn set_group(&self, py: Python<'_>, group: &Bound<'_, PyAny>) -> PyResult<()> {
        let v = super::convert::bits32(group, "group")?;
        self.edit_filter(py, |f| f.group = v)
    }

    /// Kinetic energy, translational plus rotational (J).
    #[getter]
    fn kinetic_energy(&self, py: Python<'_>) -> PyResult<f64> {
        self.read(py, |b| b.translational_energy() + b.rotational_energy())
    }

    /// The force (N) contacts exerted on this body in the last step: their impulses over dt
    /// (see `World.contact_forces`).
    #[getter]
    fn contact_force<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<f64>>> {
        Ok(array3(py, self.contact(py)?.0))
    }

    /// The torque (N m) contacts exerted on this body about its centre of mass in the last
    /// step.
    #[getter]
    fn contact_torque<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<f64>>> {
        Ok(array3(py, self.contact(py)?.1))
    }

    /// Linear momentum m v (kg m/s).
    #[getter]
    fn momentum<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<f64>>> {
        Ok(array3(py, self.read(py, Body::momentum)?))
    }

    /// Angular momentum about a world point (kg m^2/s).
    #[pyo3(signature = (about=None))]
    fn angular_momentum<'py>(
        &self,
        py: Python<'py>,
        about: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let p = vec3_or(about, "about", DVec3::ZERO)?;
        if !p.is_finite() {
            return Err(PyValueError::new_err(format!(
                "about: must be finite (got {:?})",
                p.to_array()
            )));
        }
        Ok(array3(py, self.read(py, |b| b.angular_momentum(p))?))
    }

    /// Applies a force (N, world vector) and returns its Load.
    ///
    /// It acts at the centre of mass, at a world `point` or at a body-frame `local_point`
    /// (either moves with the body and gives a torque), for the next step (duration=None), for
    /// `duration` seconds, or until removed (duration=math.inf; `load.remove()` stops it).
    #[pyo3(signature = (force, point=None, duration=None, *, local_point=None))]
    fn apply_force(
        &self,
        py: Python<'_>,
        force: &Bound<'_, PyAny>,
        point: Option<&Bound<'_, PyAny>>,
        duration: Option<&Bound<'_, PyAny>>,
        local_point: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyLoad> {
        let f = vec3(force, "force")?;
        let lasting = lasting(opt_float(duration, "duration")?);
        let p = point
            .filter(|p| !p.is_none())
            .map(|p| vec3(p, "point"))
            .transpose()?;
        let lp = local_point
            .filter(|p| !p.is_none())
            .map(|p| vec3(p, "local_point"))
            .transpose()?;
        if p.is_some() && lp.is_some() {
            return Err(PyValueError::new_err(
                "point, local_point: give one or the other, not both",
            ));
        }
        let handle = self.edit(py, |w| {
            let local = match p {
                Some(p) => {
                    crate::limits::coordinate3("point", p)?;
                    let b = w.body(self.handle)?;
                    Some(b.local_point(p))
                }
                None => lp
                    .map(|p| crate::limits::bounded3("local_point", p, crate::limits::LENGTH.1))
                    .transpose()?,
            };
            w.apply_load(self.handle, f, local, DVec3::ZERO, lasting)
        })?;
        Ok(PyLoad::new(self.world.clone_ref(py), handle))
    }

    /// Applies a torque (N m, world vector) for the next step, for `duration` seconds, or
    /// until removed (duration=math.inf); returns its Load.
    #[pyo3(signature = (torque, duration=None))]
    fn apply_torque(
        &self,
        py: Python<'_>,
        torque: &Bound<'_, PyAny>,
        duration: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyLoad> {
        let t = vec3(torque, "torque")?;
        let lasting = lasting(opt_float(duration, "duration")?);
        let handle = self.edit(py, |w| {
            w.apply_load(self.handle, DVec3::ZERO, None, t, lasting)
        })?;
        Ok(PyLoad::new(self.world.clone_ref(py), handle))
    }

    /// Changes the momentum at once by an impulse (N s), at the centre of mass or at a world
    /// point (which also changes the spin).
    #[pyo3(signature = (impulse, point=None))]
    fn apply_impulse(
        &self,
        py: Python<'_>,
        impulse: &Bound<'_, PyAny>,
        point: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let j = vec3(impulse, "impulse")?;
        let p = point
            .filter(|p| !p.is_none())
            .map(|p| vec3(p, "point"))
            .transpose()?;
        self.edit(py, |w| w.apply_impulse(self.handle, j, p))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyBody>()
            .map(|o| o.get().id == self.id && o.get().world.is(&self.world))
            .unwrap_or(false)
    }

    fn __hash__(&self) -> u64 {
        self.id ^ (self.world.as_ptr() as u64).rotate_left(32)
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        match self.read(py, |b| {
            (
                b.shape.type_name(),
                b.kind.name(),
                b.name.clone(),
                b.position,
            )
        }) {
            Ok((shape, kind, name, p)) => {
                let name = name.map(|n| format!(" '{n}'")).unwrap_or_default();
                format!(
                    "<Body {}{name}: {kind} {shape} at ({:.4}, {:.4}, {:.4})>",
                    self.id, p.x, p.y, p.z
                )
            }
            Err(e) if e.is_instance_of::<RemovedBodyError>(py) => {
                format!("<Body {} (removed)>", self.id)
            }
            Err(_) => format!("<Body {}>", self.id),
        }
    }
}
