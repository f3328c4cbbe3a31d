//! `rigidlab.World`: the world a script builds and runs.

use crate::speed_caps::SpeedCaps;
use numpy::{PyArray1, PyArray2};
use pyo3::exceptions::{PyOSError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::body::PyBody;
use super::convert::{
    any_rows, array3, boolean, copied, float, frozen_vec, int, opt_float, quat, rows3, rows4,
    settable, string, table, thread_count, values, vec2, vec3, vec3_or,
};
use super::decisions::{not_deciding, step_asking, ContactCallback};
use super::errors::{in_use, IntoPyResult, RemovedBodyError};
use super::links::{
    attachment, hinge_options, pivot, PyJoint, PySpring, HINGE_UNITS, SLIDER_UNITS,
};
use super::recording::{PyRecording, PySnapshot};
use crate::body::{BodyDesc, BodyKind, MassSpec};
use crate::dynamics::integrator::IntegratorKind;
use crate::dynamics::state::State;
use crate::material::{CombineRule, Material};
use crate::math::DVec3;
use crate::recorder::{Quantities, Recording};
use crate::scene::SceneIo;
use crate::shape::{ConvexHull, Shape};
use crate::stream::link::Link;
use crate::world::{Settings, World};
use crate::world_edit::StateUpdate;
use crate::world_links::MouseOptions;

/// Keywords every add_* method takes, and those only bodies with volume take.
/// The keywords of the add_* methods of solids, for their help texts (the same list is
/// SOLID_KEYS and COMMON_KEYS below).
macro_rules! solid_keywords_doc {
    () => {
        "\nKeywords (all optional):\n\n\
- mass (kg) or density (kg/m^3, default 1000): one or the other\n\
- position (m, default the origin), orientation (a quaternion (x, y, z, w), a \
rigidlab.Rotation, a scipy Rotation or a 3x3 matrix; default none), velocity (m/s), \
angular_velocity (rad/s, world frame)\n\
- kind: \"dynamic\" (default), \"static\" (never moves) or \"kinematic\" (moves at its \
velocity, pushed by nothing)\n\
- restitution, friction (kinetic), static_friction (default: friction), \
tangential_restitution (in impacts: -1 keeps the slip, 0 stops it, 1 reverses it; default 0); \
None uses the world's combine rule with the other body's\n\
- name (find it again with w[name]), color ((r, g, b) in 0..1, for the viewer)\n\
- linear_damping (force -c v), angular_damping (torque -c w), quadratic_drag (force \
-c2 |v| v), gravity_scale (share of the world's gravity, default 1)\n\
- max_speed (m/s), max_angular_speed (rad/s): caps, None for none\n\
- category, collides_with (32-bit masks, default 1 and all), group (same non-zero group: \
never collide), sensor (True: reports overlaps, pushes nothing)"
    };
}

/// The text signature of the keywords of solids' add_* methods.
macro_rules! solid_keywords_signature {
    () => {
        "*, mass=None, density=None, position=(0, 0, 0), orientation=(0, 0, 0, 1), \
velocity=(0, 0, 0), angular_velocity=(0, 0, 0), kind='dynamic', restitution=None, \
friction=None, static_friction=None, tangential_restitution=None, name=None, color=None, \
linear_damping=0.0, angular_damping=0.0, quadratic_drag=0.0, gravity_scale=1.0, \
max_speed=None, max_angular_speed=None, category=1, collides_with=4294967295, group=0, \
sensor=False"
    };
}

const COMMON_KEYS: &[&str] = &[
    "restitution",
    "friction",
    "static_friction",
    "tangential_restitution",
    "kind",
    "name",
    "color",
    "velocity",
    "angular_velocity",
    "angle",
    "category",
    "collides_with",
    "group",
    "sensor",
];
const SOLID_KEYS: &[&str] = &[
    "mass",
    "density",
    "position",
    "orientation",
    "linear_damping",
    "angular_damping",
    "quadratic_drag",
    "gravity_scale",
    "max_speed",
    "max_angular_speed",
];

/// The handle of a Body of this world; other objects and bodies of other worlds are refused.
pub(crate) fn own_body(
    world: &Bound<'_, PyWorld>,
    obj: &Bound<'_, PyAny>,
    param: &str,
) -> PyResult<crate::body::BodyHandle> {
    let body = obj.cast::<PyBody>().map_err(|_| {
        let t = obj
            .get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_default();
        PyTypeError::new_err(format!("{param}: expected a rigidlab.Body, got {t}"))
    })?;
    let body = body.get();
    if !body.world_is(world) {
        return Err(PyValueError::new_err(format!(
            "{param}: body {} belongs to another World",
            body.id_value()
        )));
    }
    body.live_handle(&world.borrow().inner).ok_or_else(|| {
        RemovedBodyError::new_err(format!(
            "{param}: body {} has been removed from the world",
            body.id_value()
        ))
    })
}

fn not_none<'a, 'py>(o: Option<&'a Bound<'py, PyAny>>) -> Option<&'a Bound<'py, PyAny>> {
    o.filter(|v| !v.is_none())
}

/// Reads the keyword arguments of an add_* method into a body description.
/// `base` holds the defaults the keywords override.
/// Where `position` puts a hull or polygon made from points (the `anchor` keyword, taken out of
/// `kwargs`): the origin of the points' frame ("origin", the default), or their centroid
/// ("centroid"), which is also what `b.position` reads back.
fn centroid_anchor(kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<bool> {
    let Some(kw) = kwargs else { return Ok(false) };
    let Some(anchor) = kw.get_item("anchor")? else {
        return Ok(false);
    };
    kw.del_item("anchor")?;
    if anchor.is_none() {
        return Ok(false);
    }
    match string(&anchor, "anchor")?.as_str() {
        "origin" => Ok(false),
        "centroid" => Ok(true),
        other => Err(PyValueError::new_err(format!(
            "anchor: expected 'origin' or 'centroid', got '{other}'"
        ))),
    }
}

fn body_desc(
    func: &str,
    base: BodyDesc,
    kwargs: Option<&Bound<'_, PyDict>>,
    solid: bool,
) -> PyResult<BodyDesc> {
    let mut desc = base;
    let Some(kw) = kwargs else { return Ok(desc) };
    for key in kw.keys() {
        let key: String = key.extract()?;
        if !(COMMON_KEYS.contains(&key.as_str()) || (solid && SOLID_KEYS.contains(&key.as_str()))) {
            return Err(PyTypeError::new_err(format!(
                "{func}() got an unexpected keyword argument '{key}'"
            )));
        }
    }
    let get = |k: &str| -> PyResult<Option<Bound<'_, PyAny>>> {
        Ok(kw.get_item(k)?.filter(|v| !v.is_none()))
    };
    let float = |k: &str| -> PyResult<Option<f64>> { opt_float(get(k)?.as_ref(), k) };
    desc.mass = match (float("mass")?, float("density")?) {
        (Some(_), Some(_)) => {
            return Err(PyValueError::new_err(
                "mass, density: give one or the other, not both",
            ))
        }
        (Some(m), None) => MassSpec::Mass(m),
        (None, Some(rho)) => MassSpec::Density(rho),
        (None, None) => desc.mass,
    };
    desc.position = vec3_or(get("position")?.as_ref(), "position", desc.position)?;
    if let Some(q) = get("orientation")? {
        desc.orientation = quat(&q, "orientation")?;
    }
    desc.velocity = vec3_or(get("velocity")?.as_ref(), "velocity", desc.velocity)?;
    desc.angular_velocity = vec3_or(
        get("angular_velocity")?.as_ref(),
        "angular_velocity",
        desc.angular_velocity,
    )?;
    desc.material = Material {
        restitution: float("restitution")?,
        friction: float("friction")?,
        static_friction: float("static_friction")?,
        tangential_restitution: float("tangential_restitution")?,
    }
    .checked()
    .py()?;
    if let Some(k) = get("kind")? {
        desc.kind = BodyKind::parse("kind", &string(&k, "kind")?).py()?;
    }
    if let Some(n) = get("name")? {
        desc.name = Some(string(&n, "name")?);
    }
    if let Some(c) = get("color")? {
        desc.color = Some(vec3(&c, "color")?.to_array());
    }
    desc.linear_damping = float("linear_damping")?.unwrap_or(desc.linear_damping);
    desc.angular_damping = float("angular_damping")?.unwrap_or(desc.angular_damping);
    desc.quadratic_drag = float("quadratic_drag")?.unwrap_or(desc.quadratic_drag);
    desc.gravity_scale = float("gravity_scale")?.unwrap_or(desc.gravity_scale);
    desc.caps = SpeedCaps {
        linear: float("max_speed")?,
        angular: float("max_angular_speed")?,
    };
    if let Some(v) = get("sensor")? {
        desc.sensor = super::convert::boolean(&v, "sensor")?;
    }
    for (key, field) in [
        ("category", &mut desc.filter.category),
        ("collides_with", &mut desc.filter.collides_with),
        ("group", &mut desc.filter.group),
    ] {
        if let Some(v) = get(key)? {
            *field = super::convert::bits32(&v, key)?;
        }
    }
    if let Some(a) = float("angle")? {
        if get("orientation")?.is_some() {
            return Err(PyValueError::new_err(
                "angle, orientation: give one or the other, not both",
            ));
        }
        desc.orientation = crate::in_plane::turn(a);
        desc.angle = Some(a);
    }
    Ok(desc)
}

/// A ray's arguments, checked: origin, direction, max_distance (None: no limit), planes.
fn ray_arguments(
    origin: &Bound<'_, PyAny>,
    direction: &Bound<'_, PyAny>,
    max_distance: Option<&Bound<'_, PyAny>>,
    planes: Option<&Bound<'_, PyAny>>,
) -> PyResult<(DVec3, DVec3, f64, bool)> {
    let planes = planes.map_or(Ok(true), |p| boolean(p, "planes"))?;
    let origin = crate::error::check_finite3("origin", vec3(origin, "origin")?).py()?;
    let direction = crate::limits::direction("direction", vec3(direction, "direction")?).py()?;
    let max_distance = match max_distance.filter(|m| !m.is_none()) {
        Some(m) => {
            let m = float(m, "max_distance")?;
            if m.is_nan() || m < 0.0 {
                return Err(PyValueError::new_err(format!(
                    "max_distance: must be a number >= 0 (got {m})"
                )));
            }
            m
        }
        None => f64::INFINITY,
    };
    Ok((origin, direction, max_distance, planes))
}

/// (m, 2) points of a 2D outline.
fn points2(obj: &Bound<'_, PyAny>, param: &str) -> PyResult<Vec<crate::math::DVec2>> {
    Ok(any_rows(obj, param, 2)?
        .chunks_exact(2)
        .map(|p| crate::math::DVec2::new(p[0], p[1]))
        .collect())
}

/// The Python arguments of a joint at a world point along a world axis (a hinge, a slider).
struct AxisJoint<'a, 'py> {
    a: &'a Bound<'py, PyAny>,
    b: Option<&'a Bound<'py, PyAny>>,
    anchor: Option<&'a Bound<'py, PyAny>>,
    axis: Option<&'a Bound<'py, PyAny>>,
    limits: Option<&'a Bound<'py, PyAny>>,
    motor: Option<&'a Bound<'py, PyAny>>,
}

/// How the world makes a joint along an axis.
type MakeAxisJoint = fn(
    &mut World,
    crate::body::BodyHandle,
    Option<crate::body::BodyHandle>,
    DVec3,
    DVec3,
    crate::world_links::HingeOptions,
) -> crate::error::Result<crate::dynamics::joints::JointHandle>;

impl AxisJoint<'_, '_> {
    /// Reads the arguments (the axis defaults to `axis`, limits and motor in `units`) and
    /// makes the joint with `make`.
    fn make(
        &self,
        world: &Bound<'_, PyWorld>,
        axis: DVec3,
        units: super::links::Units,
        make: MakeAxisJoint,
    ) -> PyResult<crate::dynamics::joints::JointHandle> {
        let (ha, hb, p) = pivot(world, self.a, self.b, self.anchor)?;
        let axis = vec3_or(self.axis, "axis", axis)?;
        let options = hinge_options(self.limits, self.motor, units)?;
        make(&mut world.borrow_mut().inner, ha, hb, p, axis, options).py()
    }
}

/// A world of rigid bodies: build it, run it, read it back as numpy arrays.
///
/// Parameters
/// ----------
/// gravity : 3 numbers, default (0, -9.81, 0)
///     Gravitational acceleration in m/s^2 (y is up).
/// dt : float, default 1/240
///     Fixed time step in seconds.
/// integrator : {"verlet", "rk4", "symplectic_euler", "euler"}, default "verlet"
///     How smooth forces are integrated. Velocity Verlet is symplectic, second order and exact
///     under uniform gravity; RK4 is fourth order; symplectic Euler is first order and keeps
///     energy bounded; explicit Euler is first order and gains energy on oscillators.
/// solver_iterations : int, default 10
///     Most Gauss-Seidel iterations of the contact solver per step. Once only a few contacts
///     still change (a body wedged between others in a pile at rest), or when the iterations
///     run out with only those, the solver sweeps on over them alone until they settle.
/// solver_tolerance : float, default 1e-5
///     The solver stops iterating once an iteration after the first changes no contact's
///     relative velocity by more than this (m/s): a hundredth of the speed below which bodies
///     may sleep. 0 runs every iteration, and no more.
/// restitution_threshold : float, default 0
///     Impacts slower than this (m/s) do not bounce: they stop at their time of impact. By
///     default every impact bounces however slow (an elastic gas keeps its energy, a slow
///     bounce rises to e^2 of its height); bodies at rest on each other do not bounce, and the
///     ever shorter hops of a bounce that dies out within a step end in it.
/// restitution_rule, friction_rule : {"average", "min", "max", "multiply"}, default "average"
///     How two bodies' coefficients combine when both set one. When only one body sets a
///     coefficient, the pair uses it; when neither does, restitution is 0 and friction 0.5.
#[pyclass(name = "World", module = "rigidlab")]
pub struct PyWorld {
    pub(crate) inner: World,
    /// The viewer this world streams to, once `view()` was called.
    link: Option<Link>,
    /// The functions `on_contact` registered, in order.
    pub(crate) on_contact: Vec<ContactCallback>,
    /// Whether those functions are being asked (a step is half-way).
    pub(crate) deciding: bool,
    /// The notebook views following this world (see `_watch`).
    watchers: Vec<Watcher>,
}

/// A function told of each new state (a notebook view, rigidlab.webview): called with the
/// world and whether the state is the last of a call (`run`'s end, a `step`); it rates
/// itself, and asks to be dropped by returning False.
struct Watcher {
    callback: Py<PyAny>,
    /// Whether `run` paces itself to real time by default while it watches.
    realtime: bool,
}

impl Drop for PyWorld {
    /// The viewer gets the final state, then End; it keeps showing it.
    fn drop(&mut self) {
        if let Some(link) = &mut self.link {
            link.offer(&self.inner, true);
        }
    }
}

impl PyWorld {
    pub(crate) fn wrap(inner: World) -> PyWorld {
        PyWorld {
            inner,
            link: None,
            on_contact: Vec::new(),
            deciding: false,
            watchers: Vec::new(),
        }
    }

    /// Whether `run` paces itself to real time by default: while a viewer is open or a
    /// notebook view that asked for it follows the world.
    fn paced(&mut self) -> bool {
        self.viewer_open() || self.watchers.iter().any(|w| w.realtime)
    }

    /// Tells the watchers (notebook views) of the state as it is now; `last`: the last state of
    /// this call. Those that return False are dropped.
    pub(crate) fn notify(slf: &Bound<'_, Self>, last: bool) -> PyResult<()> {
        let py = slf.py();
        let callbacks: Vec<Py<PyAny>> = {
            let w = slf.borrow();
            if w.watchers.is_empty() {
                return Ok(());
            }
            w.watchers
                .iter()
                .map(|w| w.callback.clone_ref(py))
                .collect()
        };
        let mut gone = Vec::new();
        for callback in callbacks {
            let answer = callback.bind(py).call1((slf, last))?;
            if answer.is_instance_of::<pyo3::types::PyBool>() && !answer.extract::<bool>()? {
                gone.push(callback);
            }
        }
        if !gone.is_empty() {
            slf.borrow_mut()
                .watchers
                .retain(|w| !gone.iter().any(|g| g.is(&w.callback)));
        }
        Ok(())
    }

    /// The world behind a handle (Body, Spring, ...), or an error while a call of the world
    /// itself is changing it: a handle passed to such a call in place of a number is read
    /// (its repr, for the error message) while the world is borrowed.
    pub(crate) fn get<'py>(w: &'py Py<PyWorld>, py: Python<'py>) -> PyResult<PyRef<'py, PyWorld>> {
        w.try_borrow(py).map_err(|_| in_use())
    }

    /// As `get`, to change the world.
    pub(crate) fn get_mut<'py>(
        w: &'py Py<PyWorld>,
        py: Python<'py>,
    ) -> PyResult<PyRefMut<'py, PyWorld>> {
        w.try_borrow_mut(py).map_err(|_| in_use())
    }

    /// The Joint of a joint just made, its bodies set to collide with each other if asked.
    fn joint_made(
        slf: &Bound<'_, Self>,
        h: crate::dynamics::joints::JointHandle,
        collide: bool,
    ) -> PyResult<PyJoint> {
        if collide {
            slf.borrow_mut().inner.set_joint_collide(h, true).py()?;
        }
        Ok(PyJoint::new(slf.clone().unbind(), h))
    }

    fn viewer_open(&mut self) -> bool {
        self.link.as_mut().is_some_and(|l| l.is_open())
    }

    /// Steps `n` times without the GIL, offering each step's state to the viewer.
    /// Steps n times: at once without the GIL, or asking the `on_contact` callbacks at each
    /// step when there are any.
    pub(crate) fn step_bound(slf: &Bound<'_, Self>, n: u64) -> PyResult<()> {
        let mut w = slf.borrow_mut();
        not_deciding(&w)?;
        if w.on_contact.is_empty() {
            return w.step_detached(slf.py(), n);
        }
        drop(w);
        step_asking(slf, n)
    }

    pub(crate) fn step_detached(&mut self, py: Python<'_>, n: u64) -> PyResult<()> {
        let PyWorld { inner, link, .. } = self;
        py.detach(|| match link {
            Some(link) => {
                for _ in 0..n {
                    inner.step()?;
                    link.offer(inner, false);
                }
                Ok(())
            }
            None => inner.step_n(n),
        })
        .py()
    }

    /// One step, unless a contact it begins waits for an answer (false: the step is not
    /// taken, and `new_contacts` lists what waits).
    pub(crate) fn step_unless_undecided(&mut self, py: Python<'_>) -> PyResult<bool> {
        let PyWorld { inner, link, .. } = self;
        match py.detach(|| inner.step()) {
            Err(crate::error::Error::Undecided { .. }) => Ok(false),
            stepped => {
                stepped.py()?;
                if let Some(link) = link {
                    link.offer(inner, false);
                }
                Ok(true)
            }
        }
    }

    /// Gives the viewer (if one is open) the world's state as it is now.
    pub(crate) fn offer_to_viewer(&mut self) {
        if let Some(link) = &mut self.link {
            link.offer(&self.inner, false);
        }
    }

    /// One of the whole-state arrays: copied at once from the last step's arrays when they are
    /// current, else gathered from the bodies.
    fn state_table<'py, const K: usize, T: bytemuck::Pod>(
        &self,
        py: Python<'py>,
        array: impl Fn(&State) -> &[T],
        row: impl Fn(&crate::body::Body) -> [f64; K],
    ) -> Bound<'py, numpy::PyArray2<f64>> {
        match self.inner.state_arrays() {
            Some(s) => copied(py, bytemuck::cast_slice(array(s)), K),
            None => self.per_body(py, row),
        }
    }

    /// An (n, K) array with one row per body, filled in one pass into a buffer of the final size.
    fn per_body<'py, const K: usize>(
        &self,
        py: Python<'py>,
        row: impl Fn(&crate::body::Body) -> [f64; K],
    ) -> Bound<'py, numpy::PyArray2<f64>> {
        let bodies = self.inner.bodies().bodies();
        let mut data = Vec::with_capacity(bodies.len() * K);
        for b in bodies {
            data.extend_from_slice(&row(b));
        }
        table(py, data, K)
    }

    /// Adds the hull of `points` (body frame) with its body origin at the desc's position: the
    /// body's position becomes the hull's centroid.
    fn add_hull(
        slf: &Bound<'_, Self>,
        func: &str,
        points: &[DVec3],
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyBody> {
        // The points of a wedge or prism are made from its polygon and sizes: an error about
        // them is about the polygon.
        let (shape, centroid) = Shape::convex(points)
            .map_err(|e| match (func, e) {
                ("add_prism", crate::error::Error::InvalidValue { value, message, .. }) => {
                    crate::error::Error::InvalidValue {
                        param: "polygon".into(),
                        value,
                        message,
                    }
                }
                (_, e) => e,
            })
            .py()?;
        let at_centroid = centroid_anchor(kwargs)?;
        let mut desc = body_desc(func, BodyDesc::new(shape), kwargs, true)?;
        if !at_centroid {
            desc.place_frame_origin(centroid);
        }
        Self::add(slf, desc)
    }

    /// The handle and id of the body a name (str) or id (int) names.
    fn lookup(&self, key: &Bound<'_, PyAny>) -> PyResult<(crate::body::BodyHandle, u64)> {
        let bodies = self.inner.bodies();
        let rows = || bodies.handles().iter().zip(bodies.bodies());
        if let Ok(name) = key.cast::<pyo3::types::PyString>() {
            let name = name.to_cow()?;
            let name = name.as_ref();
            let mut found = rows().filter(|(_, b)| b.name.as_deref() == Some(name));
            return match (found.next(), found.count()) {
                (Some((h, b)), 0) => Ok((*h, b.id)),
                (Some(_), more) => Err(PyValueError::new_err(format!(
                    "key: {} bodies are named '{name}'; look them up by id",
                    more + 1
                ))),
                (None, _) => {
                    let names: Vec<String> = rows()
                        .filter_map(|(_, b)| b.name.as_ref().map(|n| format!("'{n}'")))
                        .take(10)
                        .collect();
                    let known = if names.is_empty() {
                        "no body has a name (give one with name=...)".to_string()
                    } else {
                        format!("names include {}", names.join(", "))
                    };
                    Err(pyo3::exceptions::PyKeyError::new_err(format!(
                        "key: no body named '{name}'; {known}"
                    )))
                }
            };
        }
        // Ints and numpy's integers (what w.positions' row ids and rec.body_ids hold); a bool is
        // an int to Python, but never an id.
        if key.is_instance_of::<pyo3::types::PyBool>() || !key.hasattr("__index__")? {
            let t = key.get_type().name()?.to_string();
            return Err(PyTypeError::new_err(format!(
                "key: a body's name (str) or id (int), got {t}"
            )));
        }
        let id: i128 = key.call_method0("__index__")?.extract()?;
        rows()
            .find(|(_, b)| i128::from(b.id) == id)
            .map(|(h, b)| (*h, b.id))
            .ok_or_else(|| {
                pyo3::exceptions::PyKeyError::new_err(format!(
                    "key: no body with id {id} (removed, or never in this world)"
                ))
            })
    }

    /// Body handles of this world as Python Bodies.
    fn handles_to_bodies(
        slf: &Bound<'_, Self>,
        handles: &[crate::body::BodyHandle],
    ) -> Vec<PyBody> {
        let w = slf.borrow();
        handles
            .iter()
            .filter_map(|&h| {
                let id = w.inner.body(h).ok()?.id;
                Some(PyBody::new(slf.clone().unbind(), h, id))
            })
            .collect()
    }

    fn add(slf: &Bound<'_, Self>, desc: BodyDesc) -> PyResult<PyBody> {
        if desc.angle.is_some() && !slf.borrow().inner.settings().planar {
            return Err(PyValueError::new_err(
                "angle: only bodies of a 2D world (rigidlab.World2D) have an angle; give an orientation",
            ));
        }
        let handle = slf.borrow_mut().inner.add_body(desc).py()?;
        let id = slf.borrow().inner.body(handle).py()?.id;
        Ok(PyBody::new(slf.clone().unbind(), handle, id))
    }
}

#[pymethods]
impl PyWorld {
    #[new]
    #[pyo3(signature = (gravity=None, dt=None, integrator=None, *, solver_iterations=None, solver_tolerance=None, restitution_threshold=None, restitution_rule=None, friction_rule=None, sleeping=None, history=None, planar=false))]
    #[pyo3(
        text_signature = "(gravity=(0, -9.81, 0), dt=0.004166666666666667, integrator='verlet', *, solver_iterations=10, solver_tolerance=1e-5, restitution_threshold=0.0, restitution_rule='average', friction_rule='average', sleeping=True, history=None)"
    )]
    // One argument per keyword the Python constructor takes.
    #[allow(clippy::too_many_arguments)]
    fn new(
        gravity: Option<&Bound<'_, PyAny>>,
        dt: Option<&Bound<'_, PyAny>>,
        integrator: Option<&Bound<'_, PyAny>>,
        solver_iterations: Option<&Bound<'_, PyAny>>,
        solver_tolerance: Option<&Bound<'_, PyAny>>,
        restitution_threshold: Option<&Bound<'_, PyAny>>,
        restitution_rule: Option<&Bound<'_, PyAny>>,
        friction_rule: Option<&Bound<'_, PyAny>>,
        sleeping: Option<&Bound<'_, PyAny>>,
        history: Option<&Bound<'_, PyAny>>,
        planar: bool,
    ) -> PyResult<Self> {
        let mut w = PyWorld::wrap(World::new(if planar {
            Settings::planar()
        } else {
            Settings::default()
        }));
        if planar && gravity.is_none() {
            w.inner.set_gravity(DVec3::new(0.0, -9.81, 0.0)).py()?;
        }
        if let Some(g) = gravity {
            w.set_gravity(g)?;
        }
        if let Some(v) = dt {
            w.set_dt(v)?;
        }
        if let Some(v) = integrator {
            w.set_integrator(v)?;
        }
        if let Some(v) = solver_iterations {
            w.set_solver_iterations(v)?;
        }
        if let Some(v) = solver_tolerance {
            w.set_solver_tolerance(v)?;
        }
        if let Some(v) = restitution_threshold {
            w.set_restitution_threshold(v)?;
        }
        let rule = |o: Option<&Bound<'_, PyAny>>, param: &str| -> PyResult<CombineRule> {
            o.map(|v| CombineRule::parse(param, &string(v, param)?).py())
                .unwrap_or(Ok(CombineRule::Average))
        };
        w.inner.set_combine_rules(
            rule(restitution_rule, "restitution_rule")?,
            rule(friction_rule, "friction_rule")?,
        );
        if let Some(v) = sleeping {
            w.set_sleeping(v)?;
        }
        w.set_history(history)?;
        Ok(w)
    }

    /// Simulated time in seconds.
    #[getter]
    fn time(&self) -> f64 {
        self.inner.time()
    }

    #[setter(time)]
    fn set_time(&mut self, time: &Bound<'_, PyAny>) -> PyResult<()> {
        self.inner.set_time(float(time, "time")?).py()
    }

    /// Time step in seconds.
    #[getter]
    fn dt(&self) -> f64 {
        self.inner.settings().dt
    }

    #[setter(dt)]
    fn set_dt(&mut self, dt: &Bound<'_, PyAny>) -> PyResult<()> {
        self.inner.set_dt(float(dt, "dt")?).py()
    }

    /// Gravitational acceleration (m/s^2) as a numpy array.
    #[getter]
    fn gravity<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        settable(
            array3(py, self.inner.settings().gravity),
            "w.gravity = (gx, gy, gz)",
        )
    }

    #[setter(gravity)]
    fn set_gravity(&mut self, g: &Bound<'_, PyAny>) -> PyResult<()> {
        self.inner.set_gravity(vec3(g, "gravity")?).py()
    }

    /// The integrator's name: "euler", "symplectic_euler", "verlet" or "rk4".
    #[getter]
    fn integrator(&self) -> &'static str {
        self.inner.settings().integrator.name()
    }

    #[setter(integrator)]
    fn set_integrator(&mut self, integrator: &Bound<'_, PyAny>) -> PyResult<()> {
        self.inner.set_integrator(
            IntegratorKind::parse("integrator", &string(integrator, "integrator")?).py()?,
        );
        Ok(())
    }

    /// Whether islands of bodies resting on something fall asleep (stop being simulated until
    /// touched or edited) after moving slower than 1 mm/s, and not speeding up, for 0.5 s. Bodies on joints
    /// never sleep. False wakes every body and keeps them awake.
    #[getter]
    fn sleeping(&self) -> bool {
        self.inner.settings().sleeping
    }

    #[setter(sleeping)]
    fn set_sleeping(&mut self, on: &Bound<'_, PyAny>) -> PyResult<()> {
        self.inner.set_sleeping(boolean(on, "sleeping")?);
        Ok(())
    }

    /// The threads a large scene's step runs on: its narrow phase (over 512 candidate pairs),
    /// the contact solver's sweeps and position correction's passes (a world of 1 024 contacts
    /// or more sweeps them in colours, no two of a colour on one moving body, and shares a
    /// sweep out from 256 contacts per thread) and, in such a step, the broad phase's search
    /// (from 256 bodies per thread). None (default): the process's pool of one thread per core
    /// where it pays (the narrow phase: 500 or more awake 3D boxes, hulls and capsules, and 500
    /// or more contacts in the last step; other pairs are found faster than the threads' work
    /// is joined); 1, the calling thread; n, a pool of n of this world's own, always. A sweep
    /// whose threads mostly wait for each other (cores busy with other work) leaves the next
    /// 200 sweeps to the calling thread. Results are the same, bit for bit, on any number.
    #[getter]
    fn threads(&self) -> Option<usize> {
        self.inner.threads()
    }

    #[setter(threads)]
    fn set_threads(&mut self, n: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        self.inner.set_threads(thread_count(n, "threads")?).py()
    }

    /// Where the last step's time went: a dict of milliseconds per stage, in step order
    /// (broad_phase, narrow_phase, integrate, solve, correct, finish, sleep), and the total.
    /// All zero after a step in which every body slept (no stage ran).
    #[getter]
    fn step_times<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        milliseconds(py, self.inner.step_times().named())
    }

    /// Where the last step's solve stage went: a dict of milliseconds per part, in the order
    /// they run: prepare (solver points from the contacts), joint_positions (joints held at
    /// the step's end), impacts (one at a time in time order, on one thread), warm_start,
    /// iterate (the resting contacts' and joints' iterations, split over threads in a large
    /// pile), hold_up (the pass that stops what the iterations left sinking) and store. They
    /// add up to nearly all of step_times["solve"]. All zero after a step that solved nothing
    /// (no contact and no joint, or every body asleep).
    #[getter]
    fn solve_times<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        milliseconds(py, self.inner.solve_times().named())
    }

    /// Gauss-Seidel iterations of the contact solver.
    #[getter]
    fn solver_iterations(&self) -> u32 {
        self.inner.settings().solver_iterations
    }

    #[setter(solver_iterations)]
    fn set_solver_iterations(&mut self, solver_iterations: &Bound<'_, PyAny>) -> PyResult<()> {
        let n = int(solver_iterations, "solver_iterations")?;
        let n = u32::try_from(n).map_err(|_| {
            PyValueError::new_err(format!(
                "solver_iterations: must be between 1 and {} (got {n})",
                u32::MAX
            ))
        })?;
        self.inner.set_solver_iterations(n).py()
    }

    /// The contact solver stops iterating once an iteration after the first changes no
    /// contact's relative velocity by more than this (m/s); 0 runs all `solver_iterations`. Worlds with joints run
    /// them all.
    #[getter]
    fn solver_tolerance(&self) -> f64 {
        self.inner.settings().solver_tolerance
    }

    #[setter(solver_tolerance)]
    fn set_solver_tolerance(&mut self, solver_tolerance: &Bound<'_, PyAny>) -> PyResult<()> {
        self.inner
            .set_solver_tolerance(float(solver_tolerance, "solver_tolerance")?)
            .py()
    }

    /// Velocity-solver iterations the last step ran: at most `solver_iterations` (twice that
    /// when static friction let go of a contact), fewer once converged.
    #[getter]
    fn solver_iterations_done(&self) -> u32 {
        self.inner.solver_iterations_done()
    }

    /// Impacts slower than this (m/s) do not bounce.
    #[getter]
    fn restitution_threshold(&self) -> f64 {
        self.inner.settings().restitution_threshold
    }

    #[setter(restitution_threshold)]
    fn set_restitution_threshold(
        &mut self,
        restitution_threshold: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        self.inner
            .set_restitution_threshold(float(restitution_threshold, "restitution_threshold")?)
            .py()
    }

    #[doc = concat!("add_sphere($self, radius, ", solid_keywords_signature!(), ")\n--\n")]
    /// Adds a sphere of the given radius (m) and returns its Body.
    #[doc = solid_keywords_doc!()]
    #[pyo3(signature = (radius, **kwargs), text_signature = None)]
    fn add_sphere(
        slf: &Bound<'_, Self>,
        radius: &Bound<'_, PyAny>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyBody> {
        let shape = Shape::sphere(float(radius, "radius")?).py()?;
        Self::add(
            slf,
            body_desc("add_sphere", BodyDesc::new(shape), kwargs, true)?,
        )
    }

    #[doc = concat!("add_box($self, half_extents, ", solid_keywords_signature!(), ")\n--\n")]
    /// Adds a box with the given half extents (m, along the body axes) and returns its Body.
    #[doc = solid_keywords_doc!()]
    #[pyo3(signature = (half_extents, **kwargs), text_signature = None)]
    fn add_box(
        slf: &Bound<'_, Self>,
        half_extents: &Bound<'_, PyAny>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyBody> {
        let shape = Shape::cuboid(vec3(half_extents, "half_extents")?).py()?;
        Self::add(
            slf,
            body_desc("add_box", BodyDesc::new(shape), kwargs, true)?,
        )
    }

    #[doc = concat!(
        "add_capsule($self, radius, half_height, ",
        solid_keywords_signature!(),
        ")\n--\n"
    )]
    /// Adds a capsule: the points within `radius` of a segment of length 2 * half_height along
    /// the body's y axis (m), and returns its Body.
    #[doc = solid_keywords_doc!()]
    #[pyo3(signature = (radius, half_height, **kwargs), text_signature = None)]
    fn add_capsule(
        slf: &Bound<'_, Self>,
        radius: &Bound<'_, PyAny>,
        half_height: &Bound<'_, PyAny>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyBody> {
        let shape =
            Shape::capsule(float(radius, "radius")?, float(half_height, "half_height")?).py()?;
        Self::add(
            slf,
            body_desc("add_capsule", BodyDesc::new(shape), kwargs, true)?,
        )
    }

    #[doc = concat!(
        "add_convex($self, points, ",
        solid_keywords_signature!(),
        ", anchor='origin')\n--\n"
    )]
    /// Adds the convex hull of `points` (an (m, 3) array, m >= 4, not all in one plane).
    ///
    /// Where it goes, one rule for every body made from points (add_convex, add_wedge,
    /// add_prism, and World2D.add_polygon): `position` places the origin of the points' frame
    /// (`anchor="origin"`, the default: points given in world coordinates with no position
    /// stay where they are), or their centroid (`anchor="centroid"`). Either way the body's
    /// position is its centre of mass: `b.position` reads the centroid. Mass, centroid and
    /// inertia come from splitting the hull into tetrahedra (uniform density).
    #[doc = solid_keywords_doc!()]
    #[pyo3(signature = (points, **kwargs), text_signature = None)]
    fn add_convex(
        slf: &Bound<'_, Self>,
        points: &Bound<'_, PyAny>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyBody> {
        let pts: Vec<DVec3> = any_rows(points, "points", 3)?
            .chunks_exact(3)
            .map(DVec3::from_slice)
            .collect();
        for &p in &pts {
            crate::limits::bounded3("points", p, crate::limits::LENGTH.1).py()?;
        }
        Self::add_hull(slf, "add_convex", &pts, kwargs)
    }

    #[doc = concat!(
        "add_wedge($self, length, height, width, ",
        solid_keywords_signature!(),
        ", anchor='origin')\n--\n"
    )]
    /// Adds a wedge (a ramp): a right triangle with legs `length` (along x) and `height` (along
    /// y), extruded by `width` along z. The slope rises towards -x at atan(height / length).
    ///
    /// `position` places the corner under the high end, on the bottom face at mid-width (the
    /// origin of the body frame), or with `anchor="centroid"` the centroid; `b.position` reads
    /// the centroid.
    #[doc = solid_keywords_doc!()]
    #[pyo3(signature = (length, height, width, **kwargs), text_signature = None)]
    fn add_wedge(
        slf: &Bound<'_, Self>,
        length: &Bound<'_, PyAny>,
        height: &Bound<'_, PyAny>,
        width: &Bound<'_, PyAny>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyBody> {
        let (l, h, w) = (
            float(length, "length")?,
            float(height, "height")?,
            float(width, "width")?,
        );
        for (name, v) in [("length", l), ("height", h), ("width", w)] {
            crate::limits::length(name, v).py()?;
        }
        Self::add_hull(slf, "add_wedge", &ConvexHull::wedge_points(l, h, w), kwargs)
    }

    #[doc = concat!(
        "add_prism($self, polygon, depth, ",
        solid_keywords_signature!(),
        ", anchor='origin')\n--\n"
    )]
    /// Adds a prism: a convex polygon in the body's x-y plane (a (k, 2) array) extruded along
    /// z by `depth`, centred on z = 0. `position` places the polygon's origin, or with
    /// `anchor="centroid"` the centroid; `b.position` reads the centroid.
    #[doc = solid_keywords_doc!()]
    #[pyo3(signature = (polygon, depth, **kwargs), text_signature = None)]
    fn add_prism(
        slf: &Bound<'_, Self>,
        polygon: &Bound<'_, PyAny>,
        depth: &Bound<'_, PyAny>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyBody> {
        let poly: Vec<[f64; 2]> = any_rows(polygon, "polygon", 2)?
            .chunks_exact(2)
            .map(|c| [c[0], c[1]])
            .collect();
        let depth = crate::limits::length("depth", float(depth, "depth")?).py()?;
        for p in &poly {
            crate::limits::bounded3(
                "polygon",
                DVec3::new(p[0], p[1], 0.0),
                crate::limits::LENGTH.1,
            )
            .py()?;
        }
        if poly.len() < 3 {
            return Err(PyValueError::new_err(format!(
                "polygon: needs at least 3 points (got {})",
                poly.len()
            )));
        }
        Self::add_hull(
            slf,
            "add_prism",
            &ConvexHull::prism_points(&poly, depth),
            kwargs,
        )
    }

    /// Adds an infinite plane {x : normal . x = offset}, solid on the side opposite the normal.
    ///
    ///
    /// Keywords (all optional):
    ///
    /// - kind: "static" (default) or "kinematic" (moving at its velocity, as a conveyor)
    /// - velocity (m/s), angular_velocity (rad/s) of a kinematic plane
    /// - restitution, friction (kinetic), static_friction, tangential_restitution, as for
    ///   add_sphere
    /// - name, color, category, collides_with, group, sensor, as for add_sphere
    #[pyo3(signature = (normal=None, offset=None, **kwargs))]
    #[pyo3(
        text_signature = "($self, normal=(0, 1, 0), offset=0.0, *, kind='static', velocity=(0, 0, 0), angular_velocity=(0, 0, 0), restitution=None, friction=None, static_friction=None, tangential_restitution=None, name=None, color=None, category=1, collides_with=4294967295, group=0, sensor=False)"
    )]
    fn add_plane(
        slf: &Bound<'_, Self>,
        normal: Option<&Bound<'_, PyAny>>,
        offset: Option<&Bound<'_, PyAny>>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyBody> {
        let normal = vec3_or(normal, "normal", DVec3::Y)?;
        let offset = opt_float(offset, "offset")?.unwrap_or(0.0);
        let base = BodyDesc::plane(normal, offset).py()?;
        let desc = body_desc("add_plane", base, kwargs, false)?;
        Self::add(slf, desc)
    }

    /// Whether this is the engine of a 2D world (rigidlab.World2D): every body in the x-y
    /// plane.
    #[getter]
    fn planar(&self) -> bool {
        self.inner.settings().planar
    }

    /// For a 2D world: adds the convex polygon with corners `points` ((m, 2), in order) in the
    /// body frame, whose origin goes to `position`; the body's position is its centroid.
    #[pyo3(signature = (points, **kwargs))]
    fn _add_polygon(
        slf: &Bound<'_, Self>,
        points: &Bound<'_, PyAny>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyBody> {
        let (polygon, centroid) =
            crate::shape::Polygon::convex(&points2(points, "points")?).py()?;
        let at_centroid = centroid_anchor(kwargs)?;
        let mut desc = body_desc(
            "add_polygon",
            BodyDesc::new(Shape::polygon(polygon)),
            kwargs,
            true,
        )?;
        if !at_centroid {
            desc.place_frame_origin(centroid.extend(0.0));
        }
        Self::add(slf, desc)
    }

    /// For a 2D world: adds a rectangle of half extents (hx, hy).
    #[pyo3(signature = (half_extents, **kwargs))]
    fn _add_rectangle(
        slf: &Bound<'_, Self>,
        half_extents: &Bound<'_, PyAny>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyBody> {
        let h = vec2(half_extents, "half_extents")?;
        let shape = Shape::polygon(crate::shape::Polygon::rectangle(h).py()?);
        Self::add(
            slf,
            body_desc("add_box", BodyDesc::new(shape), kwargs, true)?,
        )
    }

    /// For a 2D world: adds a static segment from p0 to p1 grown by `radius`.
    #[pyo3(signature = (p0, p1, radius, **kwargs))]
    fn _add_segment(
        slf: &Bound<'_, Self>,
        p0: &Bound<'_, PyAny>,
        p1: &Bound<'_, PyAny>,
        radius: &Bound<'_, PyAny>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyBody> {
        let (segment, mid) = crate::shape::Polygon::segment(
            vec2(p0, "p0")?,
            vec2(p1, "p1")?,
            float(radius, "radius")?,
        )
        .py()?;
        let base = BodyDesc {
            kind: BodyKind::Static,
            position: mid.extend(0.0),
            ..BodyDesc::new(Shape::polygon(segment))
        };
        Self::add(slf, body_desc("add_segment", base, kwargs, false)?)
    }

    /// Removes a body (with its springs, joints and loads), or a Spring or Joint; the handle is
    /// invalid afterwards.
    fn remove(slf: &Bound<'_, Self>, body: &Bound<'_, PyAny>) -> PyResult<()> {
        if let Ok(s) = body.cast::<PySpring>() {
            return s.get().remove(slf.py()).map(|_| ());
        }
        if let Ok(j) = body.cast::<PyJoint>() {
            return j.get().remove(slf.py()).map(|_| ());
        }
        let h = own_body(slf, body, "body")?;
        slf.borrow_mut().inner.remove(h).py().map(|_| ())
    }

    /// Adds a damped linear spring between anchor_a on a and anchor_b on b (body-frame points),
    /// or, with b=None, from a to the world point anchor_b. Its force is
    /// stiffness * (L - rest_length) + damping * dL/dt along the line of the anchors (N);
    /// rest_length defaults to the anchors' current distance. Springs are smooth forces,
    /// integrated by the world's integrator, and their energy is w.energy()["elastic"].
    #[pyo3(signature = (a, b=None, *, stiffness, damping=None, rest_length=None, anchor_a=None, anchor_b=None))]
    #[pyo3(
        text_signature = "($self, a, b=None, *, stiffness, damping=0.0, rest_length=None, anchor_a=(0, 0, 0), anchor_b=(0, 0, 0))"
    )]
    #[allow(clippy::too_many_arguments)]
    fn add_spring(
        slf: &Bound<'_, Self>,
        a: &Bound<'_, PyAny>,
        b: Option<&Bound<'_, PyAny>>,
        stiffness: &Bound<'_, PyAny>,
        damping: Option<&Bound<'_, PyAny>>,
        rest_length: Option<&Bound<'_, PyAny>>,
        anchor_a: Option<&Bound<'_, PyAny>>,
        anchor_b: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PySpring> {
        let at = attachment(slf, a, b, anchor_a, anchor_b)?;
        let k = float(stiffness, "stiffness")?;
        let c = opt_float(damping, "damping")?.unwrap_or(0.0);
        let rest = opt_float(rest_length, "rest_length")?;
        let h = slf.borrow_mut().inner.add_spring(at, k, c, rest).py()?;
        Ok(PySpring::new(slf.clone().unbind(), h))
    }

    /// Adds a rigid massless rod between anchor_a on a and anchor_b on b (body-frame points),
    /// or, with b=None, from a to the world point anchor_b. length defaults to the anchors'
    /// current distance.
    /// collide=True keeps a and b colliding with each other (jointed bodies do not, by default).
    #[pyo3(signature = (a, b=None, anchor_a=None, anchor_b=None, length=None, *, collide=false))]
    #[pyo3(
        text_signature = "($self, a, b=None, anchor_a=(0, 0, 0), anchor_b=(0, 0, 0), length=None, *, collide=False)"
    )]
    fn add_distance_joint(
        slf: &Bound<'_, Self>,
        a: &Bound<'_, PyAny>,
        b: Option<&Bound<'_, PyAny>>,
        anchor_a: Option<&Bound<'_, PyAny>>,
        anchor_b: Option<&Bound<'_, PyAny>>,
        length: Option<&Bound<'_, PyAny>>,
        collide: bool,
    ) -> PyResult<PyJoint> {
        let at = attachment(slf, a, b, anchor_a, anchor_b)?;
        let l = opt_float(length, "length")?;
        let h = slf.borrow_mut().inner.add_distance_joint(at, l).py()?;
        Self::joint_made(slf, h, collide)
    }

    /// Adds a rope: the anchors (as for add_distance_joint) stay at most max_length apart and
    /// may come closer. max_length defaults to their current distance.
    /// collide=True keeps a and b colliding with each other (jointed bodies do not, by default).
    #[pyo3(signature = (a, b=None, anchor_a=None, anchor_b=None, max_length=None, *, collide=false))]
    #[pyo3(
        text_signature = "($self, a, b=None, anchor_a=(0, 0, 0), anchor_b=(0, 0, 0), max_length=None, *, collide=False)"
    )]
    fn add_rope_joint(
        slf: &Bound<'_, Self>,
        a: &Bound<'_, PyAny>,
        b: Option<&Bound<'_, PyAny>>,
        anchor_a: Option<&Bound<'_, PyAny>>,
        anchor_b: Option<&Bound<'_, PyAny>>,
        max_length: Option<&Bound<'_, PyAny>>,
        collide: bool,
    ) -> PyResult<PyJoint> {
        let at = attachment(slf, a, b, anchor_a, anchor_b)?;
        let l = opt_float(max_length, "max_length")?;
        let h = slf.borrow_mut().inner.add_rope_joint(at, l).py()?;
        Self::joint_made(slf, h, collide)
    }

    /// Adds a rope from anchor_a on a (body frame) up over a fixed pulley at the world point
    /// ground_a, across to a second fixed pulley at ground_b and down to anchor_b on b: the
    /// lengths la + ratio * lb stay at most `length` (default: as now). The taut rope pulls
    /// both anchors towards their pulleys, with ratio times the tension on b (a ratio other
    /// than 1 is a block and tackle), and goes slack otherwise. Two weights on it make an
    /// Atwood machine. The pulleys are fixed and massless.
    #[pyo3(signature = (a, b, ground_a, ground_b, anchor_a=None, anchor_b=None, ratio=None, length=None, *, collide=false))]
    #[pyo3(
        text_signature = "($self, a, b, ground_a, ground_b, anchor_a=(0, 0, 0), anchor_b=(0, 0, 0), ratio=1.0, length=None, *, collide=False)"
    )]
    #[allow(clippy::too_many_arguments)] // one per keyword of the Python signature
    fn add_pulley_joint(
        slf: &Bound<'_, Self>,
        a: &Bound<'_, PyAny>,
        b: &Bound<'_, PyAny>,
        ground_a: &Bound<'_, PyAny>,
        ground_b: &Bound<'_, PyAny>,
        anchor_a: Option<&Bound<'_, PyAny>>,
        anchor_b: Option<&Bound<'_, PyAny>>,
        ratio: Option<&Bound<'_, PyAny>>,
        length: Option<&Bound<'_, PyAny>>,
        collide: bool,
    ) -> PyResult<PyJoint> {
        let at = attachment(slf, a, Some(b), anchor_a, anchor_b)?;
        let ground_a = crate::limits::coordinate3("ground_a", vec3(ground_a, "ground_a")?).py()?;
        let ground_b = crate::limits::coordinate3("ground_b", vec3(ground_b, "ground_b")?).py()?;
        let ratio = opt_float(ratio, "ratio")?.unwrap_or(1.0);
        let l = opt_float(length, "length")?;
        let h = slf
            .borrow_mut()
            .inner
            .add_pulley_joint(at, ground_a, ground_b, ratio, l)
            .py()?;
        Self::joint_made(slf, h, collide)
    }

    /// Adds a ball-and-socket joint at the world point `anchor`: a and b (or a and the world)
    /// keep that point in common and turn freely about it.
    /// collide=True keeps a and b colliding with each other (jointed bodies do not, by default).
    #[pyo3(signature = (a, b=None, anchor=None, *, collide=false))]
    fn add_ball_joint(
        slf: &Bound<'_, Self>,
        a: &Bound<'_, PyAny>,
        b: Option<&Bound<'_, PyAny>>,
        anchor: Option<&Bound<'_, PyAny>>,
        collide: bool,
    ) -> PyResult<PyJoint> {
        let (ha, hb, p) = pivot(slf, a, b, anchor)?;
        let h = slf.borrow_mut().inner.add_ball_joint(ha, hb, p).py()?;
        Self::joint_made(slf, h, collide)
    }

    /// Adds a hinge at the world point `anchor` turning about the world direction `axis`.
    /// limits: (lower, upper) angle in radians within [-pi, pi], measured from the pose now;
    /// motor: (speed rad/s, max_torque N m) or a dict with those keys.
    /// collide=True keeps a and b colliding with each other (jointed bodies do not, by default).
    #[pyo3(signature = (a, b=None, anchor=None, axis=None, limits=None, motor=None, *, collide=false))]
    #[pyo3(
        text_signature = "($self, a, b=None, anchor=None, axis=(0, 0, 1), limits=None, motor=None, *, collide=False)"
    )]
    #[allow(clippy::too_many_arguments)] // one per keyword of the Python signature
    fn add_hinge_joint(
        slf: &Bound<'_, Self>,
        a: &Bound<'_, PyAny>,
        b: Option<&Bound<'_, PyAny>>,
        anchor: Option<&Bound<'_, PyAny>>,
        axis: Option<&Bound<'_, PyAny>>,
        limits: Option<&Bound<'_, PyAny>>,
        motor: Option<&Bound<'_, PyAny>>,
        collide: bool,
    ) -> PyResult<PyJoint> {
        let args = AxisJoint {
            a,
            b,
            anchor,
            axis,
            limits,
            motor,
        };
        let h = args.make(slf, DVec3::Z, HINGE_UNITS, World::add_hinge_joint)?;
        Self::joint_made(slf, h, collide)
    }

    /// Adds a slider (prismatic joint) at the world point `anchor` along the world direction
    /// `axis`: b (or the world) keeps its orientation against a, and its anchor on the line
    /// through a's along the axis, which turns with a; b only slides along it.
    /// limits: (lower, upper) travel in metres along the axis from where it is now;
    /// motor: (speed m/s, max force N) or a dict {"speed", "max_torque"}.
    /// collide=True keeps a and b colliding with each other (jointed bodies do not, by default).
    #[pyo3(signature = (a, b=None, anchor=None, axis=None, limits=None, motor=None, *, collide=false))]
    #[pyo3(
        text_signature = "($self, a, b=None, anchor=None, axis=(1, 0, 0), limits=None, motor=None, *, collide=False)"
    )]
    #[allow(clippy::too_many_arguments)] // one per keyword of the Python signature
    fn add_slider_joint(
        slf: &Bound<'_, Self>,
        a: &Bound<'_, PyAny>,
        b: Option<&Bound<'_, PyAny>>,
        anchor: Option<&Bound<'_, PyAny>>,
        axis: Option<&Bound<'_, PyAny>>,
        limits: Option<&Bound<'_, PyAny>>,
        motor: Option<&Bound<'_, PyAny>>,
        collide: bool,
    ) -> PyResult<PyJoint> {
        let args = AxisJoint {
            a,
            b,
            anchor,
            axis,
            limits,
            motor,
        };
        let h = args.make(slf, DVec3::X, SLIDER_UNITS, World::add_slider_joint)?;
        Self::joint_made(slf, h, collide)
    }

    /// Welds a to b (or to the world) in their present relative pose.
    /// collide=True keeps a and b colliding with each other (jointed bodies do not, by default).
    #[pyo3(signature = (a, b=None, *, collide=false))]
    fn add_fixed_joint(
        slf: &Bound<'_, Self>,
        a: &Bound<'_, PyAny>,
        b: Option<&Bound<'_, PyAny>>,
        collide: bool,
    ) -> PyResult<PyJoint> {
        let ha = own_body(slf, a, "a")?;
        let hb = b
            .filter(|o| !o.is_none())
            .map(|o| own_body(slf, o, "b"))
            .transpose()?;
        let h = slf.borrow_mut().inner.add_fixed_joint(ha, hb).py()?;
        Self::joint_made(slf, h, collide)
    }

    /// Adds a mouse joint: pulls body a's point `point` (a world point, default a's centre;
    /// fixed to a from now on) towards the world point `target` softly, as a hand or a mouse
    /// drags a body: a spring and a damper acting alike in every direction, with undamped
    /// `frequency` (Hz) and `damping_ratio` (1 is critical) whatever the body's mass, and at
    /// most `max_force` newtons (None: no cap). Solved implicitly, so stable at any frequency;
    /// at rest under a steady force F the point sits F / (m w^2) from the target (w = 2 pi
    /// frequency, m the body's effective mass there): g / w^2 below it for a body held at its
    /// centre. Only the point is held: the body turns freely about it, as on a pivot. Move
    /// the target with joint.target = (x, y, z).
    #[pyo3(signature = (a, target, point=None, *, frequency=None, damping_ratio=None, max_force=None))]
    #[pyo3(
        text_signature = "($self, a, target, point=None, *, frequency=5.0, damping_ratio=0.7, max_force=None)"
    )]
    #[allow(clippy::too_many_arguments)] // one per keyword of the Python signature
    fn add_mouse_joint(
        slf: &Bound<'_, Self>,
        a: &Bound<'_, PyAny>,
        target: &Bound<'_, PyAny>,
        point: Option<&Bound<'_, PyAny>>,
        frequency: Option<&Bound<'_, PyAny>>,
        damping_ratio: Option<&Bound<'_, PyAny>>,
        max_force: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyJoint> {
        let ha = own_body(slf, a, "a")?;
        let target = vec3(target, "target")?;
        let point = match point.filter(|o| !o.is_none()) {
            Some(p) => vec3(p, "point")?,
            None => slf.borrow().inner.body(ha).py()?.position,
        };
        let default = MouseOptions::default();
        let options = MouseOptions {
            frequency: opt_float(frequency, "frequency")?.unwrap_or(default.frequency),
            damping_ratio: opt_float(damping_ratio, "damping_ratio")?
                .unwrap_or(default.damping_ratio),
            max_force: opt_float(max_force, "max_force")?,
        };
        let h = slf
            .borrow_mut()
            .inner
            .add_mouse_joint(ha, point, target, options)
            .py()?;
        Ok(PyJoint::new(slf.clone().unbind(), h))
    }

    /// The springs, in the order they were added.
    #[getter]
    fn springs(slf: &Bound<'_, Self>) -> Vec<PySpring> {
        slf.borrow()
            .inner
            .springs()
            .iter()
            .map(|s| PySpring::new(slf.clone().unbind(), s.handle))
            .collect()
    }

    /// The joints, in the order they were added.
    #[getter]
    fn joints(slf: &Bound<'_, Self>) -> Vec<PyJoint> {
        slf.borrow()
            .inner
            .joints()
            .iter()
            .map(|j| PyJoint::new(slf.clone().unbind(), j.handle))
            .collect()
    }

    fn __len__(&self) -> usize {
        self.inner.bodies().len()
    }

    /// The body named `key` (a str, the `name=` it was given) or with the id `key` (an int, its
    /// `id`). `w["ball"]` is the same. Raises KeyError when no live body has that name or id,
    /// and ValueError when several bodies share the name (look those up by id).
    #[pyo3(signature = (key, /))]
    fn body(slf: &Bound<'_, Self>, key: &Bound<'_, PyAny>) -> PyResult<PyBody> {
        let (handle, id) = slf.borrow().lookup(key)?;
        Ok(PyBody::new(slf.clone().unbind(), handle, id))
    }

    /// `w[key]`: the body with that name or id, as `w.body(key)`.
    fn __getitem__(slf: &Bound<'_, Self>, key: &Bound<'_, PyAny>) -> PyResult<PyBody> {
        Self::body(slf, key)
    }

    /// `key in w`: a live body of this world, or a name or id one of its bodies has.
    fn __contains__(slf: &Bound<'_, Self>, key: &Bound<'_, PyAny>) -> bool {
        if let Ok(body) = key.cast::<PyBody>() {
            let body = body.get();
            return body.world_is(slf) && body.live_handle(&slf.borrow().inner).is_some();
        }
        match slf.borrow().lookup(key) {
            Ok(_) => true,
            Err(e) => {
                !e.is_instance_of::<pyo3::exceptions::PyKeyError>(slf.py())
                    && !e.is_instance_of::<PyTypeError>(slf.py())
            }
        }
    }

    /// The bodies in row order (the order of the whole-world arrays).
    #[getter]
    fn bodies(slf: &Bound<'_, Self>) -> Vec<PyBody> {
        let w = slf.borrow();
        w.inner
            .bodies()
            .handles()
            .iter()
            .zip(w.inner.bodies().bodies())
            .map(|(h, b)| PyBody::new(slf.clone().unbind(), *h, b.id))
            .collect()
    }

    /// The bodies overlapping `sensor` (a body made with sensor=True) after the last step,
    /// in id order. Their entries and exits, timed within the step, are the "sensor_begin" and
    /// "sensor_end" events of contact_events().
    fn overlaps(slf: &Bound<'_, Self>, sensor: &Bound<'_, PyAny>) -> PyResult<Vec<PyBody>> {
        let h = own_body(slf, sensor, "sensor")?;
        let w = slf.borrow();
        if !w.inner.body(h).py()?.sensor {
            return Err(PyValueError::new_err(
                "sensor: this body is not a sensor (make it with sensor=True, or set body.sensor = True)",
            ));
        }
        let ids = w.inner.overlaps(h).py()?;
        let bodies = w.inner.bodies();
        Ok(bodies
            .handles()
            .iter()
            .zip(bodies.bodies())
            .filter(|(_, b)| ids.contains(&b.id))
            .map(|(h, b)| PyBody::new(slf.clone().unbind(), *h, b.id))
            .collect())
    }

    /// The first body a ray meets: from `origin` along `direction` (any length), at most
    /// `max_distance` away. Returns None, or a dict with the body, the distance along the ray,
    /// the point and the surface's outward normal. A ray starting inside a body meets it at
    /// distance 0. planes=False ignores planes.
    #[pyo3(signature = (origin, direction, max_distance=None, planes=None))]
    #[pyo3(text_signature = "($self, origin, direction, max_distance=None, planes=True)")]
    fn ray_cast<'py>(
        slf: &Bound<'py, Self>,
        origin: &Bound<'py, PyAny>,
        direction: &Bound<'py, PyAny>,
        max_distance: Option<&Bound<'py, PyAny>>,
        planes: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        let py = slf.py();
        let (origin, direction, max_distance, planes) =
            ray_arguments(origin, direction, max_distance, planes)?;
        let hit = slf
            .borrow()
            .inner
            .ray_cast(origin, direction, max_distance, !planes);
        let Some(hit) = hit else { return Ok(None) };
        let id = slf.borrow().inner.body(hit.body).py()?.id;
        let out = PyDict::new(py);
        out.set_item("body", PyBody::new(slf.clone().unbind(), hit.body, id))?;
        out.set_item("distance", hit.t)?;
        out.set_item("point", array3(py, hit.point))?;
        out.set_item("normal", array3(py, hit.normal))?;
        Ok(Some(out))
    }

    /// Every body a ray meets: from `origin` along `direction`, at most `max_distance` away,
    /// each where the ray enters it, nearest first, as RayHit(body, distance, point, normal).
    /// A ray starting inside a body meets it at distance 0. planes=False ignores planes.
    #[pyo3(signature = (origin, direction, max_distance=None, planes=None))]
    #[pyo3(text_signature = "($self, origin, direction, max_distance=None, planes=True)")]
    fn ray_cast_all(
        slf: &Bound<'_, Self>,
        origin: &Bound<'_, PyAny>,
        direction: &Bound<'_, PyAny>,
        max_distance: Option<&Bound<'_, PyAny>>,
        planes: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<super::query::PyRayHit>> {
        let (origin, direction, max_distance, planes) =
            ray_arguments(origin, direction, max_distance, planes)?;
        let w = slf.borrow();
        let hits = w
            .inner
            .ray_cast_all(origin, direction, max_distance, !planes);
        hits.iter()
            .map(|hit| {
                let id = w.inner.body(hit.body).py()?.id;
                let body = Py::new(slf.py(), PyBody::new(slf.clone().unbind(), hit.body, id))?;
                super::query::PyRayHit::new(
                    slf.py(),
                    body.into_any(),
                    hit.t,
                    super::query::list(hit.point),
                    super::query::list(hit.normal),
                )
            })
            .collect()
    }

    /// The first hit of each of many rays, from numpy arrays: `origins` and `directions` of
    /// shape (k, 3) (either may be a single (3,) vector shared by every ray, as for a fan of
    /// rays from one point), `max_distance` None, a number or (k,) numbers. Returns a
    /// `RayHits` of arrays with one row per ray (misses marked: hit False, distance inf, point
    /// and normal NaN, body_id -1). Many rays are cast on all cores, with the GIL released.
    #[pyo3(signature = (origins, directions, max_distance=None, planes=None))]
    #[pyo3(text_signature = "($self, origins, directions, max_distance=None, planes=True)")]
    fn ray_cast_many(
        slf: &Bound<'_, Self>,
        origins: &Bound<'_, PyAny>,
        directions: &Bound<'_, PyAny>,
        max_distance: Option<&Bound<'_, PyAny>>,
        planes: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<super::query::PyRayHits> {
        let planes = planes.map_or(Ok(true), |p| boolean(p, "planes"))?;
        let origins = super::convert::vectors_or_one(origins, "origins")?;
        let directions = super::convert::vectors_or_one(directions, "directions")?;
        let k = match (origins.len(), directions.len()) {
            (1, k) | (k, 1) => k,
            (a, b) if a == b => a,
            (a, b) => {
                return Err(PyValueError::new_err(format!(
                    "origins, directions: {a} origins and {b} directions; give as many of each, \
                     or one of either"
                )))
            }
        };
        let each = |v: &[DVec3], i: usize| v[if v.len() == 1 { 0 } else { i }];
        let mut o = Vec::with_capacity(k);
        let mut d = Vec::with_capacity(k);
        for i in 0..k {
            let name = |p: &str| {
                if k == 1 {
                    p.to_string()
                } else {
                    format!("{p}[{i}]")
                }
            };
            o.push(crate::error::check_finite3(&name("origins"), each(&origins, i)).py()?);
            d.push(crate::limits::direction(&name("directions"), each(&directions, i)).py()?);
        }
        let limits = match not_none(max_distance) {
            None => vec![f64::INFINITY; k],
            Some(m) => {
                let m = super::convert::numbers_or_one(m, "max_distance", k)?;
                if let Some(bad) = m.iter().find(|x| x.is_nan() || **x < 0.0) {
                    return Err(PyValueError::new_err(format!(
                        "max_distance: must be numbers >= 0 (got {bad})"
                    )));
                }
                m
            }
        };
        let py = slf.py();
        let hits = {
            let w = slf.borrow();
            let world = &w.inner;
            py.detach(|| world.ray_cast_batch(&o, &d, &limits, !planes))
        };
        super::query::PyRayHits::from_hits(slf, &hits)
    }

    /// How far apart bodies a and b are: a `Distance` with the distance between their closest
    /// points (m), negative when they overlap (minus the depth, measured as the contact solver
    /// measures it), the points (`point_a` on a, `point_b` on b: the closest, or the deepest
    /// when they overlap) and the unit `normal` from a to b. Exact for every pair of shapes
    /// apart; a plane's distance is the other body's lowest point's height above it.
    fn distance(
        slf: &Bound<'_, Self>,
        a: &Bound<'_, PyAny>,
        b: &Bound<'_, PyAny>,
    ) -> PyResult<super::query::PyDistance> {
        let (ha, hb) = (own_body(slf, a, "a")?, own_body(slf, b, "b")?);
        let s = slf.borrow().inner.distance(ha, hb).py()?;
        let list = super::query::list;
        super::query::PyDistance::new(
            slf.py(),
            s.distance,
            list(s.on_a),
            list(s.on_b),
            list(s.normal),
        )
    }

    /// The bodies that hold the world point `point` (inside or on the surface; below a plane
    /// counts as inside it), in the order of `bodies`.
    fn query_point(slf: &Bound<'_, Self>, point: &Bound<'_, PyAny>) -> PyResult<Vec<PyBody>> {
        let p = crate::error::check_finite3("point", vec3(point, "point")?).py()?;
        let handles = slf.borrow().inner.query_point(p);
        Ok(Self::handles_to_bodies(slf, &handles))
    }

    /// The bodies whose bounding boxes meet the box from corner `lo` to corner `hi` (a quick
    /// first cut, as the broad phase makes: a body listed may miss the box by up to its bounding
    /// box's slack), and the planes whose half-space it reaches, in the order of `bodies`.
    fn query_box(
        slf: &Bound<'_, Self>,
        lo: &Bound<'_, PyAny>,
        hi: &Bound<'_, PyAny>,
    ) -> PyResult<Vec<PyBody>> {
        let lo = crate::error::check_finite3("lo", vec3(lo, "lo")?).py()?;
        let hi = crate::error::check_finite3("hi", vec3(hi, "hi")?).py()?;
        if !lo.cmple(hi).all() {
            return Err(PyValueError::new_err(format!(
                "lo, hi: lo must not exceed hi in any coordinate (got {:?} and {:?})",
                lo.to_array(),
                hi.to_array()
            )));
        }
        let handles = slf.borrow().inner.query_box(lo, hi);
        Ok(Self::handles_to_bodies(slf, &handles))
    }

    /// Calls `callback(a, b, contact)` once when a pair of bodies first comes into contact
    /// (not again while they stay in contact): a and b are the bodies, `contact` a
    /// `rigidlab.Contact` (point, normal from a to b, depth, approach speed) as found at the
    /// start of the step that begins it, before any impulse acts; the bodies are where they
    /// were then. Answering False lets the pair pass through each other for as long as they
    /// keep overlapping (within the contact margin); once apart they are asked again when they
    /// next meet. True or None lets them touch. Sensors are not asked (they never touch).
    ///
    /// With `body`, the callback is asked only about that body's pairs, with that body as a.
    /// One callback per target: registering again replaces it, and `callback=None` removes it.
    /// The pair passes through if any callback that concerns it answers False. Callbacks run
    /// with the GIL held (a world without callbacks steps without it) in the order the pairs
    /// are found, which is the same on every run. An exception raised in one surfaces from
    /// `step()` (or `run()`) as that exception, with the world as it was before that step. A
    /// callback may read and edit the world, but not step it. Callbacks are not copied with
    /// the world (copy, pickle, snapshot, scene file); the pairs passing through are.
    #[pyo3(signature = (callback, *, body=None))]
    fn on_contact(
        slf: &Bound<'_, Self>,
        callback: &Bound<'_, PyAny>,
        body: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let body = not_none(body)
            .map(|b| own_body(slf, b, "body"))
            .transpose()?;
        let function =
            if callback.is_none() {
                None
            } else if callback.is_callable() {
                Some(callback.clone().unbind())
            } else {
                return Err(PyTypeError::new_err(format!(
                "callback: must be callable, as callback(a, b, contact) -> bool, or None (got {})",
                callback.get_type().name().map(|n| n.to_string()).unwrap_or_default()
            )));
            };
        let mut w = slf.borrow_mut();
        let at = w.on_contact.iter().position(|c| c.body == body);
        match (at, function) {
            (Some(i), Some(f)) => w.on_contact[i].function = f,
            (None, Some(f)) => w.on_contact.push(ContactCallback { body, function: f }),
            (Some(i), None) => {
                w.on_contact.remove(i);
            }
            (None, None) => {}
        }
        let asks = !w.on_contact.is_empty();
        w.inner.ask_before_contact(asks);
        Ok(())
    }

    fn __traverse__(&self, visit: pyo3::PyVisit<'_>) -> Result<(), pyo3::PyTraverseError> {
        for c in &self.on_contact {
            visit.call(&c.function)?;
        }
        Ok(())
    }

    fn __clear__(&mut self) {
        self.on_contact.clear();
        self.inner.ask_before_contact(false);
    }

    /// Advances the world by n steps of dt (the GIL is released while stepping, but for the
    /// calls of `on_contact` callbacks).
    ///
    /// A negative n steps back: time runs backwards, each step undoing a forward one to
    /// round-off, for velocity Verlet and symplectic Euler (through its adjoint) in a world
    /// that nothing irreversible acts on (no contact, joint, damping, drag, load, speed cap or
    /// sleeping body); after 10 000 steps forward and as many back a spring or a tumbling box
    /// is back where it started to about 1e-12. Explicit Euler and RK4 are refused (they are
    /// not symmetric in time), as are worlds where something irreversible acts: the error
    /// says why; `World(history=seconds)` and `rewind` go back in any world.
    #[pyo3(signature = (n=None))]
    #[pyo3(text_signature = "($self, n=1)")]
    fn step(slf: &Bound<'_, Self>, n: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let n = n.map(|n| int(n, "n")).transpose()?.unwrap_or(1);
        if n < 0 {
            let mut w = slf.borrow_mut();
            not_deciding(&w)?;
            w.inner.step_back(n.unsigned_abs()).py()?;
            w.offer_to_viewer();
            drop(w);
            return Self::notify(slf, true);
        }
        Self::step_bound(slf, n as u64)?;
        Self::notify(slf, true)
    }

    /// Runs the world for `seconds` of simulated time and returns the number of steps taken.
    /// The world moves by whole steps of dt only (`time` stays steps times dt): the run takes
    /// the nearest whole number of steps to the time asked so far and carries the rest into
    /// the next call, so any sequence of runs ends within dt/2 of the sum of their seconds
    /// (100 runs of 0.01 s at dt = 0.004 s end at t = 1.0 s), and a run shorter than dt steps
    /// once the carried time reaches half a step. `step` leaves the carried time as it is.
    /// With progress=True a progress bar is shown (tqdm.auto: a widget in a notebook, text in
    /// a terminal). With
    /// realtime=True the run takes `seconds` of wall-clock time; by default it does so while a
    /// viewer is open (see `view`) and otherwise runs as fast as it can.
    #[pyo3(signature = (seconds, progress=None, realtime=None))]
    #[pyo3(text_signature = "($self, seconds, progress=False, realtime=None)")]
    fn run(
        slf: &Bound<'_, Self>,
        seconds: &Bound<'_, PyAny>,
        progress: Option<&Bound<'_, PyAny>>,
        realtime: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<u64> {
        let seconds = float(seconds, "seconds")?;
        let progress = progress
            .filter(|p| !p.is_none())
            .map(|p| boolean(p, "progress"))
            .transpose()?
            .unwrap_or(false);
        // Asked for, or (by default) while a viewer is open: it stops when the viewer closes.
        let asked = realtime
            .filter(|r| !r.is_none())
            .map(|r| boolean(r, "realtime"))
            .transpose()?;
        let mut realtime = asked.unwrap_or_else(|| slf.borrow_mut().paced());
        let py = slf.py();
        let dt = slf.borrow().inner.settings().dt;
        let (steps, _) = slf.borrow().inner.plan_run(seconds).py()?;
        let bar = if progress {
            let bar = py.import("tqdm.auto").and_then(|m| {
                m.getattr("tqdm")?
                    .call((), Some(&[("total", steps)].into_py_dict(py)?))
            });
            Some(bar.map_err(|e| {
                pyo3::exceptions::PyImportError::new_err(format!(
                    "progress: the progress bar needs tqdm (pip install tqdm): {e}"
                ))
            })?)
        } else {
            None
        };
        slf.borrow_mut().inner.run_steps(seconds).py()?;
        let watched = !slf.borrow().watchers.is_empty();
        let chunk = if realtime || watched {
            // About one display frame of steps at a time.
            ((1.0 / 60.0) / dt).ceil().max(1.0) as u64
        } else if bar.is_some() {
            (steps / 100).max(1)
        } else {
            steps.max(1)
        };
        let start = std::time::Instant::now();
        let mut done = 0;
        while done < steps {
            let k = chunk.min(steps - done);
            Self::step_bound(slf, k)?;
            done += k;
            if realtime && asked.is_none() && !slf.borrow_mut().paced() {
                realtime = false;
            }
            if watched && done < steps {
                Self::notify(slf, false)?;
            }
            if realtime {
                let due = std::time::Duration::from_secs_f64(done as f64 * dt);
                py.detach(|| std::thread::sleep(due.saturating_sub(start.elapsed())));
            }
            if let Some(b) = &bar {
                b.call_method1("update", (k,))?;
            }
            py.check_signals()?;
        }
        if let Some(b) = &bar {
            b.call_method0("close")?;
        }
        {
            let PyWorld { inner, link, .. } = &mut *slf.borrow_mut();
            if let Some(link) = link {
                link.offer(inner, true);
            }
        }
        Self::notify(slf, true)?;
        Ok(steps)
    }

    /// The game loop's clock: advances the world by `real_seconds` of wall-clock time times
    /// `time_scale`, in whole steps of dt (rounded down, so the world is never ahead of the
    /// real clock), carrying the rest to the next call, and returns the fraction of a step the
    /// real clock is past the world's state, in [0, 1): a renderer draws the state that far
    /// from the previous step towards the last. Call it once a frame with the frame's duration.
    /// `most_steps` bounds the steps of one call: a longer frame drops the backlog, so a world
    /// slower than real time runs slower instead of falling further behind each frame.
    #[pyo3(signature = (real_seconds, *, most_steps=None))]
    #[pyo3(text_signature = "($self, real_seconds, *, most_steps=None)")]
    fn advance(
        slf: &Bound<'_, Self>,
        real_seconds: &Bound<'_, PyAny>,
        most_steps: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<f64> {
        let real = float(real_seconds, "real_seconds")?;
        let most = most_steps
            .filter(|m| !m.is_none())
            .map(|m| int(m, "most_steps"))
            .transpose()?;
        if let Some(m) = most.filter(|&m| m < 1) {
            return Err(PyValueError::new_err(format!(
                "most_steps: must be at least 1 (got {m})"
            )));
        }
        let a = slf
            .borrow_mut()
            .inner
            .advance_steps(real, most.map(|m| m as u64))
            .py()?;
        Self::step_bound(slf, a.steps)?;
        Self::notify(slf, false)?;
        Ok(a.fraction)
    }

    /// Simulated seconds per real second in `advance` (and in the viewer): 1/64 (slow motion)
    /// to 64. `run` and `step` are in simulated time and do not heed it.
    #[getter]
    fn time_scale(&self) -> f64 {
        self.inner.time_scale()
    }

    #[setter(time_scale)]
    fn set_time_scale(&mut self, scale: &Bound<'_, PyAny>) -> PyResult<()> {
        let s = float(scale, "time_scale")?;
        self.inner.set_time_scale(s).py()
    }

    /// Simulated seconds asked of `run` and `advance` that no step has taken yet (negative:
    /// a run stepped ahead of what was asked, by at most half a step).
    #[getter]
    fn carried_time(&self) -> f64 {
        self.inner.carried_time()
    }

    /// How far back (s) the world keeps its past for `rewind`, or None (the default): a
    /// snapshot every 0.05 s of simulated time and at the first step after each edit, the
    /// older ones dropped, so the memory is about 20 snapshots of the world per second of
    /// history: some 20 kB per body per second (measured: 1 000 spheres with 10 s of history
    /// took 198 MB more). Setting it starts a new history.
    #[getter]
    fn history(&self) -> Option<f64> {
        self.inner.history().map(|h| h.seconds)
    }

    #[setter(history)]
    fn set_history(&mut self, seconds: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let s = opt_float(seconds, "history")?;
        self.inner.set_history(s).py()
    }

    /// Takes the world back `seconds` of simulated time (whole steps), bit for bit onto the
    /// state it had then, whatever acted (contacts, friction, joints, damping): it restores
    /// the latest kept snapshot before that step and steps forward again from it (calling any
    /// `on_contact` callbacks again; recordings record those steps again). Needs a history
    /// (`World(history=seconds)`) that reaches that far back.
    #[pyo3(text_signature = "($self, seconds)")]
    fn rewind(slf: &Bound<'_, Self>, seconds: &Bound<'_, PyAny>) -> PyResult<()> {
        let s = float(seconds, "seconds")?;
        let steps = {
            let mut w = slf.borrow_mut();
            not_deciding(&w)?;
            w.inner.rewind_to(s).py()?
        };
        Self::step_bound(slf, steps)?;
        slf.borrow_mut().offer_to_viewer();
        Self::notify(slf, true)
    }

    /// Opens the viewer on this world without blocking the script: a window of its own (another
    /// process) shows each step's state, at most `rate` frames a second (frames are dropped,
    /// never queued, when the viewer is slower). Python stays in charge: bodies added or removed
    /// here appear or vanish there; `run` paces itself to real time while the viewer is open.
    /// Closing the window does not stop the script; when the script ends the viewer keeps the
    /// last frame. Calling it again while the viewer is open does nothing.
    ///
    /// `command` replaces the viewer program (a list of strings: program and arguments; it gets
    /// the stream on its standard input); by default `rigidlab.view.stream_command()`.
    #[pyo3(signature = (*, rate=None, command=None))]
    #[pyo3(text_signature = "($self, *, rate=60.0, command=None)")]
    fn view(
        &mut self,
        py: Python<'_>,
        rate: Option<&Bound<'_, PyAny>>,
        command: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let command: Option<Vec<String>> = match command.filter(|c| !c.is_none()) {
            None => None,
            // A string is a sequence of strings too: "python" would run "p".
            Some(c) if c.is_instance_of::<pyo3::types::PyString>() => {
                return Err(PyTypeError::new_err(
                    "command: must be a list of strings (program and arguments), not one string",
                ))
            }
            Some(c) => Some(c.extract().map_err(|_| {
                PyTypeError::new_err("command: must be a list of strings (program and arguments)")
            })?),
        };
        let rate = rate
            .filter(|r| !r.is_none())
            .map(|r| float(r, "rate"))
            .transpose()?
            .unwrap_or(60.0);
        if !(0.1..=1000.0).contains(&rate) {
            return Err(PyValueError::new_err(format!(
                "rate: must be between 0.1 and 1000 frames per second (got {rate})"
            )));
        }
        if self.viewer_open() {
            return Ok(());
        }
        let command = match command {
            Some(c) if c.is_empty() => {
                return Err(PyValueError::new_err("command: must name a program"))
            }
            Some(c) => c,
            None => super::hooks::borrowed(py, "stream_command", "World.view")?
                .call0()?
                .extract()?,
        };
        let mut link = Link::spawn(&command, rate).map_err(|e| {
            PyOSError::new_err(format!("command: cannot start the viewer {command:?}: {e}"))
        })?;
        link.offer(&self.inner, true);
        self.link = Some(link);
        Ok(())
    }

    /// Runs the world for `seconds` (it advances) and returns an animation of it drawn with
    /// matplotlib in a coordinate plane: in a notebook it plays inline, headless too, with no
    /// viewer. Keywords: fps=30, plane="xy" ("xz" from above, "zy"), size=(6, 4), limits,
    /// save="file.gif". See rigidlab.animation.animate.
    #[pyo3(signature = (seconds, **options))]
    fn animate<'py>(
        slf: &Bound<'py, Self>,
        seconds: &Bound<'py, PyAny>,
        options: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let animate = super::hooks::borrowed(slf.py(), "animate", "World.animate")?;
        animate.call((slf, seconds), options)
    }

    /// True while a viewer opened by `view` is showing this world.
    #[getter]
    fn viewing(&mut self) -> bool {
        self.viewer_open()
    }

    /// Shows the world in a notebook: an interactive 3D view (a widget: orbit with the left
    /// button, pan with the right one or shift, zoom with the wheel, double-click to fit) that
    /// follows the world as it runs, over the notebook's own connection. While it does, `run`
    /// paces itself to real time (realtime=False: it runs as fast as it can and the view shows
    /// what it reaches). Keywords: fps=30 (most updates a second), height=420 (pixels),
    /// limits (the box the camera fits: ((x0, x1), (y0, y1), (z0, z1))), contacts=False (mark
    /// the contact points), realtime=True. Needs anywidget (pip install anywidget). The
    /// widget's `save(path)` writes the view as a standalone HTML file. See rigidlab.webview.
    #[pyo3(signature = (**options))]
    fn show<'py>(
        slf: &Bound<'py, Self>,
        options: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let show = super::hooks::borrowed(slf.py(), "show_world", "World.show")?;
        show.call((slf,), options)
    }

    /// Calls `callback(world, last)` with each new state (rigidlab.webview's views): after
    /// `step`, `advance`, `rewind`, `restore` and through `run` at every frame's worth of steps.
    /// `realtime`: `run` paces itself to real time by default while it is watched. The callback
    /// returning False stops it being called.
    #[pyo3(signature = (callback, realtime=false))]
    fn _watch(&mut self, callback: Bound<'_, PyAny>, realtime: bool) -> PyResult<()> {
        if !callback.is_callable() {
            return Err(PyTypeError::new_err("callback: must be callable"));
        }
        self.watchers.push(Watcher {
            callback: callback.unbind(),
            realtime,
        });
        Ok(())
    }

    /// How many times what the world holds has changed (bodies, shapes, links; not their
    /// state): a view reloads its scene when it changes.
    #[getter]
    fn _revision(&self) -> u64 {
        self.inner.revision()
    }

    /// Closes the viewer opened by `view` (its window goes away); the world is unchanged.
    fn close_view(&mut self) {
        if let Some(mut link) = self.link.take() {
            link.kill();
        }
    }

    /// Positions of all bodies' centres of mass, shape (n, 3).
    #[getter]
    fn positions<'py>(&self, py: Python<'py>) -> Bound<'py, numpy::PyArray2<f64>> {
        let table = self.state_table(py, |s| &s.x, |b| b.position.to_array());
        settable(table, "w.positions = ... (or w.set_state(positions=...))")
    }

    #[setter(positions)]
    fn set_positions(&mut self, v: &Bound<'_, PyAny>) -> PyResult<()> {
        self.set_state(Some(v), None, None, None, None)
    }

    /// For a 2D world: every body's angle about z (rad, whole turns counted), shape (n,).
    #[getter]
    fn angles<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        let a: Vec<f64> = self
            .inner
            .bodies()
            .bodies()
            .iter()
            .map(|b| b.angle)
            .collect();
        settable(
            frozen_vec(py, a),
            "w.angles = ... (or w.set_state(angles=...))",
        )
    }

    #[setter(angles)]
    fn set_angles(&mut self, v: &Bound<'_, PyAny>) -> PyResult<()> {
        self.set_state(None, None, None, None, Some(v))
    }

    /// Orientations of all bodies as quaternions (x, y, z, w), shape (n, 4).
    #[getter]
    fn orientations<'py>(&self, py: Python<'py>) -> Bound<'py, numpy::PyArray2<f64>> {
        let table = self.state_table(py, |s| &s.q, |b| b.orientation.to_array());
        settable(
            table,
            "w.orientations = ... (or w.set_state(orientations=...))",
        )
    }

    #[setter(orientations)]
    fn set_orientations(&mut self, v: &Bound<'_, PyAny>) -> PyResult<()> {
        self.set_state(None, Some(v), None, None, None)
    }

    /// Linear velocities of all bodies, shape (n, 3).
    #[getter]
    fn velocities<'py>(&self, py: Python<'py>) -> Bound<'py, numpy::PyArray2<f64>> {
        let table = self.state_table(py, |s| &s.v, |b| b.velocity.to_array());
        settable(table, "w.velocities = ... (or w.set_state(velocities=...))")
    }

    #[setter(velocities)]
    fn set_velocities(&mut self, v: &Bound<'_, PyAny>) -> PyResult<()> {
        self.set_state(None, None, Some(v), None, None)
    }

    /// Angular velocities of all bodies (world frame, rad/s), shape (n, 3).
    #[getter]
    fn angular_velocities<'py>(&self, py: Python<'py>) -> Bound<'py, numpy::PyArray2<f64>> {
        let table = self.state_table(py, |s| &s.w, |b| b.angular_velocity.to_array());
        settable(
            table,
            "w.angular_velocities = ... (or w.set_state(angular_velocities=...))",
        )
    }

    #[setter(angular_velocities)]
    fn set_angular_velocities(&mut self, v: &Bound<'_, PyAny>) -> PyResult<()> {
        self.set_state(None, None, None, Some(v), None)
    }

    /// Sets any of the whole-world arrays at once (one row per body, in row order).
    /// Everything is checked first; on error nothing changes.
    #[pyo3(signature = (positions=None, orientations=None, velocities=None, angular_velocities=None, *, angles=None))]
    fn set_state(
        &mut self,
        positions: Option<&Bound<'_, PyAny>>,
        orientations: Option<&Bound<'_, PyAny>>,
        velocities: Option<&Bound<'_, PyAny>>,
        angular_velocities: Option<&Bound<'_, PyAny>>,
        angles: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let n = self.inner.bodies().len();
        let update = StateUpdate {
            positions: not_none(positions)
                .map(|a| rows3(a, "positions", n))
                .transpose()?,
            orientations: not_none(orientations)
                .map(|a| rows4(a, "orientations", n))
                .transpose()?,
            velocities: not_none(velocities)
                .map(|a| rows3(a, "velocities", n))
                .transpose()?,
            angular_velocities: not_none(angular_velocities)
                .map(|a| rows3(a, "angular_velocities", n))
                .transpose()?,
            angles: not_none(angles)
                .map(|a| values(a, "angles", n))
                .transpose()?,
        };
        self.inner.set_state(update).py()
    }

    /// Energy in joules: dict with translational, rotational, kinetic, gravitational
    /// (-m g . x, zero at the origin), elastic and total.
    fn energy<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in crate::recorder::ENERGY_TERMS
            .iter()
            .zip(self.inner.energy().terms())
        {
            d.set_item(k, v)?;
        }
        Ok(d)
    }

    /// The force (N) contacts exerted on each body in the last step, (n, 3) by row: every
    /// contact impulse of the step (resting, impacts, friction) over dt, the step's mean force.
    /// A floor under a resting stack feels the stack's weight.
    fn contact_forces<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f64>> {
        let f = self.inner.contact_forces();
        table(py, f.iter().flat_map(|(f, _)| f.to_array()).collect(), 3)
    }

    /// The torque (N m) contacts exerted on each body about its centre of mass in the last
    /// step, (n, 3) by row (see `contact_forces`).
    fn contact_torques<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f64>> {
        let f = self.inner.contact_forces();
        table(py, f.iter().flat_map(|(_, t)| t.to_array()).collect(), 3)
    }

    /// Total linear momentum (kg m/s) of the dynamic bodies.
    fn momentum<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        array3(py, self.inner.momentum())
    }

    /// Total angular momentum (kg m^2/s) about a world point.
    #[pyo3(signature = (about=None))]
    fn angular_momentum<'py>(
        &self,
        py: Python<'py>,
        about: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let p = crate::limits::coordinate3("about", vec3_or(about, "about", DVec3::ZERO)?).py()?;
        Ok(array3(py, self.inner.angular_momentum(p)))
    }

    /// This step's contact points as a dict of arrays: body_a, body_b (body ids), point,
    /// normal (from a to b), depth (positive when overlapping), normal_impulse,
    /// tangent_impulse (world vector; a contact's friction shared out over its points by their
    /// loads, with its twist as forces across them), all as of the last step.
    fn contacts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let (mut ia, mut ib, mut point, mut normal, mut depth, mut jn, mut jt) =
            (vec![], vec![], vec![], vec![], vec![], vec![], vec![]);
        let bodies = &self.inner.bodies();
        for m in self.inner.manifolds() {
            let (Some(a), Some(b)) = (bodies.get(m.a), bodies.get(m.b)) else {
                continue;
            };
            for p in &m.points {
                ia.push(a.id as i64);
                ib.push(b.id as i64);
                point.extend(p.point.to_array());
                normal.extend(m.normal.to_array());
                depth.push(-p.separation);
                jn.push(p.normal_impulse);
                jt.extend(p.tangent_impulse.to_array());
            }
        }
        let d = PyDict::new(py);
        d.set_item("body_a", frozen_vec(py, ia))?;
        d.set_item("body_b", frozen_vec(py, ib))?;
        d.set_item("point", table(py, point, 3))?;
        d.set_item("normal", table(py, normal, 3))?;
        d.set_item("depth", frozen_vec(py, depth))?;
        d.set_item("normal_impulse", frozen_vec(py, jn))?;
        d.set_item("tangent_impulse", table(py, jt, 3))?;
        Ok(d)
    }

    /// Contacts that began or ended, and impacts, since the events were last read (and
    /// cleared).
    ///
    /// A dict of arrays, one entry per event in the order they happened: kind ("begin",
    /// "impact" or "end"; "sensor_begin" and "sensor_end" when a body enters or leaves a
    /// sensor, body_a the sensor, at the moment within the step the shapes began or stopped
    /// overlapping), body_a, body_b (ids), time (s: a begin or impact at its time of impact
    /// within the step, an end at the start of the step in which the pair no longer touches),
    /// point and normal (k, 3; NaN for an end), speed (m/s, the approach speed;
    /// NaN for an end), impulse (N s, an impact's normal impulse on body_b; 0 for a begin,
    /// NaN for an end), and dropped (events lost because 65 536 were waiting unread: read
    /// them with clear=True as the world runs to keep them all).
    /// Every impact faster than the restitution threshold is one event, however many points
    /// of the pair touch in it, with the point (the points weighted by their impulses) and the
    /// normal at the time of impact; the repeated bounces of a hop shorter than a step are
    /// events of their own. With clear=False the events stay.
    #[pyo3(signature = (clear=None))]
    #[pyo3(text_signature = "($self, clear=True)")]
    fn contact_events<'py>(
        &mut self,
        py: Python<'py>,
        clear: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let clear = clear.map_or(Ok(true), |c| boolean(c, "clear"))?;
        let ev = &self.inner.events;
        let d = PyDict::new(py);
        d.set_item(
            "kind",
            ev.events.iter().map(|e| e.kind.name()).collect::<Vec<_>>(),
        )?;
        d.set_item(
            "body_a",
            frozen_vec(py, ev.events.iter().map(|e| e.body_a as i64).collect()),
        )?;
        d.set_item(
            "body_b",
            frozen_vec(py, ev.events.iter().map(|e| e.body_b as i64).collect()),
        )?;
        d.set_item(
            "time",
            frozen_vec(py, ev.events.iter().map(|e| e.time).collect()),
        )?;
        d.set_item(
            "point",
            table(
                py,
                ev.events.iter().flat_map(|e| e.point.to_array()).collect(),
                3,
            ),
        )?;
        d.set_item(
            "normal",
            table(
                py,
                ev.events.iter().flat_map(|e| e.normal.to_array()).collect(),
                3,
            ),
        )?;
        d.set_item(
            "speed",
            frozen_vec(py, ev.events.iter().map(|e| e.speed).collect()),
        )?;
        d.set_item(
            "impulse",
            frozen_vec(py, ev.events.iter().map(|e| e.impulse).collect()),
        )?;
        d.set_item("dropped", ev.dropped)?;
        if clear {
            self.inner.events.events.clear();
            self.inner.events.dropped = 0;
        }
        Ok(d)
    }

    /// Overrides the coefficients used between bodies a and b (None keeps the combine rule),
    /// and with `collide=False` sets the pair apart: they pass through each other (no contact,
    /// no event; the broad phase drops the pair). `collide=True` lets the bodies' filters
    /// decide again.
    #[pyo3(signature = (a, b, restitution=None, friction=None, static_friction=None, tangential_restitution=None, *, collide=None))]
    // One argument per keyword the Python method takes.
    #[allow(clippy::too_many_arguments)]
    fn set_pair(
        slf: &Bound<'_, Self>,
        a: &Bound<'_, PyAny>,
        b: &Bound<'_, PyAny>,
        restitution: Option<&Bound<'_, PyAny>>,
        friction: Option<&Bound<'_, PyAny>>,
        static_friction: Option<&Bound<'_, PyAny>>,
        tangential_restitution: Option<&Bound<'_, PyAny>>,
        collide: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let (ha, hb) = (own_body(slf, a, "a")?, own_body(slf, b, "b")?);
        let m = Material {
            restitution: opt_float(restitution, "restitution")?,
            friction: opt_float(friction, "friction")?,
            static_friction: opt_float(static_friction, "static_friction")?,
            tangential_restitution: opt_float(tangential_restitution, "tangential_restitution")?,
        }
        .checked()
        .py()?;
        let collide = not_none(collide)
            .map(|c| super::convert::boolean(c, "collide"))
            .transpose()?;
        let mut w = slf.borrow_mut();
        // Both checked before either changes the world.
        if ha == hb {
            return w.inner.set_pair(ha, hb, m).py();
        }
        if collide.is_none() || m != Material::default() {
            w.inner.set_pair(ha, hb, m).py()?;
        }
        if let Some(c) = collide {
            w.inner.set_pair_collide(ha, hb, c).py()?;
        }
        Ok(())
    }

    /// Whether bodies a and b may collide as a pair (False once set apart with
    /// `set_pair(a, b, collide=False)`); their filters decide besides.
    fn pair_collides(
        slf: &Bound<'_, Self>,
        a: &Bound<'_, PyAny>,
        b: &Bound<'_, PyAny>,
    ) -> PyResult<bool> {
        let (ha, hb) = (own_body(slf, a, "a")?, own_body(slf, b, "b")?);
        slf.borrow().inner.pair_collides(ha, hb).py()
    }

    /// How many pairs of bodies the broad phase passed to the narrow phase in the last step:
    /// pairs whose bounding boxes overlap, less those that filters or `set_pair(...,
    /// collide=False)` keep apart (those never reach the narrow phase).
    #[getter]
    fn candidate_pairs(&self) -> usize {
        self.inner.candidate_pairs()
    }

    /// Starts recording: samples now and every `every` steps while the world runs, inside
    /// the engine. quantities: names among "positions", "orientations", "velocities",
    /// "angular_velocities", "energy", "momentum", "angular_momentum", "contacts" (their
    /// number), "contact_points" (where they are; rec.show draws them) (default: all but
    /// "contact_points"). Returns the Recording, which fills until rec.stop() or until it is
    /// dropped.
    #[pyo3(signature = (every=None, quantities=None))]
    #[pyo3(text_signature = "($self, every=1, quantities=None)")]
    fn record(
        &mut self,
        every: Option<&Bound<'_, PyAny>>,
        quantities: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyRecording> {
        let k = every.map(|e| int(e, "every")).transpose()?.unwrap_or(1);
        if k < 1 {
            return Err(PyValueError::new_err(format!(
                "every: must be at least 1 (got {k})"
            )));
        }
        let q = match quantities.filter(|q| !q.is_none()) {
            None => Quantities::all(),
            Some(obj) => {
                if obj.is_instance_of::<pyo3::types::PyString>() {
                    return Err(PyTypeError::new_err(
                        "quantities: expected a list of names, got a string",
                    ));
                }
                let mut q = Quantities::none();
                let items = obj
                    .try_iter()
                    .map_err(|_| PyTypeError::new_err("quantities: expected a list of names"))?;
                for item in items {
                    q.add("quantities", &string(&item?, "quantities")?).py()?;
                }
                q
            }
        };
        Ok(PyRecording::new(
            Recording::start(&mut self.inner, k as u64, q).py()?,
        ))
    }

    /// The whole state (bodies, time, settings, contact cache and warm-start impulses, loads,
    /// springs, joints); w.restore(snap) puts it back and the run repeats bit for bit.
    fn snapshot(slf: &Bound<'_, Self>) -> PySnapshot {
        PySnapshot {
            inner: std::sync::Arc::new(slf.borrow().inner.snapshot()),
            world: slf.clone().unbind(),
        }
    }

    /// Puts back a snapshot of this world. Bodies added since are removed (their handles
    /// raise RemovedBodyError); bodies removed since come back under their old handles.
    fn restore(slf: &Bound<'_, Self>, snapshot: &Bound<'_, PyAny>) -> PyResult<()> {
        let snap = snapshot.cast::<PySnapshot>().map_err(|_| {
            PyTypeError::new_err("snapshot: expected a rigidlab.Snapshot from World.snapshot()")
        })?;
        let snap = snap.get();
        if !snap.world.bind(slf.py()).is(slf) {
            return Err(PyValueError::new_err("snapshot: taken from another World"));
        }
        slf.borrow_mut().inner.restore(&snap.inner);
        Self::notify(slf, true)
    }

    /// The world as scene JSON text (the format of World.save).
    fn to_json(&self) -> String {
        self.inner.to_json()
    }

    /// A world from scene JSON text; ValueError says what is wrong and where.
    #[staticmethod]
    fn from_json(text: &Bound<'_, PyAny>) -> PyResult<PyWorld> {
        let text = string(text, "text")?;
        Ok(PyWorld::wrap(World::from_json(&text).py()?))
    }

    /// Saves the world as a versioned JSON scene file: settings, bodies, shapes, materials,
    /// pair overrides, springs, joints, loads and the state (contact cache included), so
    /// World.load continues exactly where this world is.
    fn save(&self, path: &Bound<'_, PyAny>) -> PyResult<()> {
        let path = super::convert::path(path, "path")?;
        std::fs::write(&path, self.inner.to_json())
            .map_err(|e| PyOSError::new_err(format!("path: cannot write {}: {e}", path.display())))
    }

    /// Loads a scene file written by World.save (or by hand). A corrupt file or one from a
    /// newer rigidlab raises ValueError naming what is wrong and where.
    #[staticmethod]
    fn load(path: &Bound<'_, PyAny>) -> PyResult<PyWorld> {
        let path = super::convert::path(path, "path")?;
        let text = std::fs::read_to_string(&path).map_err(|e| {
            PyOSError::new_err(format!("path: cannot read {}: {e}", path.display()))
        })?;
        let inner = World::from_json(&text)
            .map_err(|e| PyValueError::new_err(format!("{}: {e}", path.display())))?;
        Ok(PyWorld::wrap(inner))
    }

    /// Pickles as the scene JSON (state included), so an unpickled world continues exactly.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let from_json = slf.get_type().getattr("from_json")?;
        Ok((from_json, (slf.borrow().inner.to_json_compact(),)))
    }

    fn __repr__(&self) -> String {
        let s = self.inner.settings();
        format!(
            "World({} bodies, t={:.6} s, dt={} s, integrator='{}', gravity={:?})",
            self.inner.bodies().len(),
            self.inner.time(),
            s.dt,
            s.integrator.name(),
            s.gravity.to_array()
        )
    }
}

use pyo3::types::IntoPyDict;

/// A dict of milliseconds from named seconds, in their order.
fn milliseconds<'py, const N: usize>(
    py: Python<'py>,
    named: [(&'static str, f64); N],
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (name, seconds) in named {
        d.set_item(name, seconds * 1e3)?;
    }
    Ok(d)
}
