//! Building and editing a world: adding and removing bodies, setting their state, applying
//! loads, material overrides and settings. Every call checks its input first and leaves the
//! world unchanged when it fails.

use crate::body::{build_body, Body, BodyDesc, BodyHandle, BodyKind};
use crate::dynamics::integrator::IntegratorKind;
use crate::dynamics::loads::{AppliedLoad, Lasting, LoadHandle};
use crate::error::{check_non_negative, check_positive, Error, Result};
use crate::in_plane;
use crate::limits;
use crate::material::{CombineRule, Material};
use crate::math::{DQuat, DVec3};
use crate::speed_caps::SpeedCaps;
use crate::world::World;

/// New values for some or all of the bodies' state, one entry per body row.
#[derive(Clone, Debug, Default)]
pub struct StateUpdate {
    pub positions: Option<Vec<DVec3>>,
    pub orientations: Option<Vec<DQuat>>,
    pub velocities: Option<Vec<DVec3>>,
    pub angular_velocities: Option<Vec<DVec3>>,
    /// For a 2D world: each body's angle about z (rad), whole turns counted; it sets the
    /// orientation (give one or the other).
    pub angles: Option<Vec<f64>>,
}

fn check_can_move(param: &str, body: &Body, v: DVec3) -> Result<()> {
    if body.kind == BodyKind::Static && v != DVec3::ZERO {
        return Err(Error::invalid(
            param,
            format!("{:?}", v.to_array()),
            "a static body cannot move; make it 'kinematic' to give it a velocity",
        ));
    }
    Ok(())
}

impl World {
    /// Adds a body; fails (naming the parameter) on invalid input.
    /// In a 2D world the body is a lamina in its plane (see in_plane.rs).
    pub fn add_body(&mut self, mut desc: BodyDesc) -> Result<BodyHandle> {
        desc.planar = self.state.settings.planar;
        let body = build_body(desc, self.state.next_id)?;
        self.state.next_id += 1;
        let h = self.state.bodies.insert(body);
        self.bodies_changed();
        Ok(h)
    }

    /// The row of a live body, or an error for a removed one.
    pub fn row(&self, h: BodyHandle) -> Result<usize> {
        self.state.bodies.dense_index(h).ok_or(Error::RemovedBody)
    }

    pub fn body(&self, h: BodyHandle) -> Result<&Body> {
        self.state.bodies.get(h).ok_or(Error::RemovedBody)
    }

    /// A body to edit: every edit wakes the world first (see `World::edited`).
    fn body_mut(&mut self, h: BodyHandle) -> Result<&mut Body> {
        self.state.bodies.get(h).ok_or(Error::RemovedBody)?;
        self.edited();
        self.state.bodies.get_mut(h).ok_or(Error::RemovedBody)
    }

    /// Removes a body with its contacts, loads, springs, joints and pair overrides.
    pub fn remove(&mut self, h: BodyHandle) -> Result<Body> {
        let row = self.state.bodies.dense_index(h).ok_or(Error::RemovedBody)?;
        self.unstage();
        let body = self.state.bodies.remove(h).ok_or(Error::RemovedBody)?;
        self.state.contacts.body_removed(h, row);
        self.state.loads.retain(|l| l.body != h);
        self.state.springs.retain(|s| s.a != h && s.b != Some(h));
        self.state.joints.retain(|j| j.a != h && j.b != Some(h));
        self.state
            .pair_materials
            .retain(|k, _| k.0 != body.id && k.1 != body.id);
        self.state
            .apart
            .retain(|k| k.0 != body.id && k.1 != body.id);
        self.state
            .passing
            .retain(|k| k.0 != body.id && k.1 != body.id);
        self.bodies_changed();
        Ok(body)
    }

    /// Checks a vector (a point, a velocity, a force) against the plane of a 2D world.
    pub(crate) fn planar_vector(&self, param: &str, v: DVec3) -> Result<DVec3> {
        if self.state.settings.planar {
            in_plane::check_vector(param, v)?;
        }
        Ok(v)
    }

    /// Checks an angular velocity or a torque against the plane of a 2D world.
    pub(crate) fn planar_spin(&self, param: &str, w: DVec3) -> Result<DVec3> {
        if self.state.settings.planar {
            in_plane::check_spin(param, w)?;
        }
        Ok(w)
    }

    pub fn set_position(&mut self, h: BodyHandle, p: DVec3) -> Result<()> {
        limits::coordinate3("position", p)?;
        self.planar_vector("position", p)?;
        self.body_mut(h)?.position = p;
        Ok(())
    }

    /// Sets the orientation; a body of a 2D world takes its angle (in (-pi, pi]).
    pub fn set_orientation(&mut self, h: BodyHandle, q: DQuat) -> Result<()> {
        let q = limits::orientation("orientation", q)?;
        if self.state.settings.planar {
            in_plane::check_turn("orientation", q)?;
        }
        let body = self.body_mut(h)?;
        body.orientation = q;
        if body.planar {
            body.angle = in_plane::angle_of(q);
        }
        Ok(())
    }

    /// Turns a body of a 2D world to `angle` (rad) about z; its angle reads back as given.
    pub fn set_angle(&mut self, h: BodyHandle, angle: f64) -> Result<()> {
        let angle = limits::within("angle", angle, -limits::COORDINATE, limits::COORDINATE)?;
        if !self.body(h)?.planar {
            return Err(Error::invalid(
                "angle",
                angle,
                "only a body of a 2D world has an angle; set its orientation",
            ));
        }
        let body = self.body_mut(h)?;
        body.orientation = in_plane::turn(angle);
        body.angle = angle;
        Ok(())
    }

    pub fn set_velocity(&mut self, h: BodyHandle, v: DVec3) -> Result<()> {
        limits::bounded3("velocity", v, limits::SPEED)?;
        self.planar_vector("velocity", v)?;
        check_can_move("velocity", self.body(h)?, v)?;
        self.body_mut(h)?.velocity = v;
        Ok(())
    }

    pub fn set_angular_velocity(&mut self, h: BodyHandle, w: DVec3) -> Result<()> {
        limits::bounded3("angular_velocity", w, limits::ANGULAR_SPEED)?;
        self.planar_spin("angular_velocity", w)?;
        check_can_move("angular_velocity", self.body(h)?, w)?;
        self.body_mut(h)?.angular_velocity = w;
        Ok(())
    }

    /// Changes how a body moves. Becoming static stops it.
    pub fn set_kind(&mut self, h: BodyHandle, kind: BodyKind) -> Result<()> {
        let body = self.body(h)?;
        if kind == BodyKind::Dynamic && !body.shape.can_be_dynamic() {
            return Err(Error::invalid(
                "kind",
                "'dynamic'",
                &format!(
                    "a {} only bounds other bodies and cannot be dynamic",
                    body.shape.type_name()
                ),
            ));
        }
        let body = self.body_mut(h)?;
        body.kind = kind;
        if kind == BodyKind::Static {
            body.velocity = DVec3::ZERO;
            body.angular_velocity = DVec3::ZERO;
        }
        self.state.contacts.forget_body(h);
        self.content_changed();
        Ok(())
    }

    pub fn set_material(&mut self, h: BodyHandle, material: Material) -> Result<()> {
        let m = material.checked()?;
        self.body_mut(h)?.material = m;
        self.content_changed();
        Ok(())
    }

    pub fn set_damping(&mut self, h: BodyHandle, linear: f64, angular: f64) -> Result<()> {
        limits::coefficient("linear_damping", linear)?;
        limits::coefficient("angular_damping", angular)?;
        let b = self.body_mut(h)?;
        b.linear_damping = linear;
        b.angular_damping = angular;
        self.content_changed();
        Ok(())
    }

    /// Sets the quadratic drag coefficient c2 of the force -c2 |v| v (kg/m).
    pub fn set_quadratic_drag(&mut self, h: BodyHandle, c2: f64) -> Result<()> {
        limits::coefficient("quadratic_drag", c2)?;
        self.body_mut(h)?.quadratic_drag = c2;
        self.content_changed();
        Ok(())
    }

    /// Sets a body's largest speed (m/s) and largest angular speed (rad/s); None: no cap (see
    /// speed_caps.rs).
    pub fn set_speed_caps(&mut self, h: BodyHandle, caps: SpeedCaps) -> Result<()> {
        SpeedCaps::check("max_speed", caps.linear)?;
        SpeedCaps::check("max_angular_speed", caps.angular)?;
        self.body_mut(h)?.caps = caps;
        self.content_changed();
        Ok(())
    }

    /// Sets how much of the world's gravity acts on a body (0: none, 1: all).
    pub fn set_gravity_scale(&mut self, h: BodyHandle, scale: f64) -> Result<()> {
        limits::within(
            "gravity_scale",
            scale,
            -limits::GRAVITY_SCALE,
            limits::GRAVITY_SCALE,
        )?;
        self.body_mut(h)?.gravity_scale = scale;
        self.content_changed();
        Ok(())
    }

    pub fn set_name(&mut self, h: BodyHandle, name: Option<String>) -> Result<()> {
        self.body_mut(h)?.name = name;
        self.content_changed();
        Ok(())
    }

    pub fn set_color(&mut self, h: BodyHandle, color: Option<[f64; 3]>) -> Result<()> {
        let color = crate::body::check_color("color", color)?;
        self.body_mut(h)?.color = color;
        self.content_changed();
        Ok(())
    }

    /// Sets any of the whole-world arrays (one entry per body, in row order). Everything is
    /// checked before anything changes.
    pub fn set_state(&mut self, update: StateUpdate) -> Result<()> {
        let n = self.state.bodies.len();
        let check_len = |param: &str, len: Option<usize>| -> Result<()> {
            match len {
                Some(l) if l != n => Err(Error::invalid(
                    param,
                    format!("{l} rows"),
                    &format!("must have one row per body ({n})"),
                )),
                _ => Ok(()),
            }
        };
        check_len("positions", update.positions.as_ref().map(Vec::len))?;
        check_len("orientations", update.orientations.as_ref().map(Vec::len))?;
        check_len("velocities", update.velocities.as_ref().map(Vec::len))?;
        check_len(
            "angular_velocities",
            update.angular_velocities.as_ref().map(Vec::len),
        )?;
        check_len("angles", update.angles.as_ref().map(Vec::len))?;
        let planar = self.state.settings.planar;
        if let Some(angles) = &update.angles {
            if !planar {
                return Err(Error::invalid(
                    "angles",
                    format!("{} angles", angles.len()),
                    "only the bodies of a 2D world have angles; set orientations",
                ));
            }
            if update.orientations.is_some() {
                return Err(Error::invalid(
                    "angles",
                    format!("{} angles", angles.len()),
                    "give orientations or angles, not both",
                ));
            }
            for (i, a) in angles.iter().enumerate() {
                limits::within(
                    &format!("angles[{i}]"),
                    *a,
                    -limits::COORDINATE,
                    limits::COORDINATE,
                )?;
            }
        }
        let bodies = self.state.bodies.bodies();
        if let Some(p) = &update.positions {
            for (i, v) in p.iter().enumerate() {
                limits::coordinate3(&format!("positions[{i}]"), *v)?;
                self.planar_vector(&format!("positions[{i}]"), *v)?;
            }
        }
        let orientations = match &update.orientations {
            Some(qs) => Some(
                qs.iter()
                    .enumerate()
                    .map(|(i, q)| {
                        let param = format!("orientations[{i}]");
                        let q = limits::orientation(&param, *q)?;
                        if planar {
                            in_plane::check_turn(&param, q)?;
                        }
                        Ok(q)
                    })
                    .collect::<Result<Vec<_>>>()?,
            ),
            None => None,
        };
        for (param, arr, max) in [
            ("velocities", &update.velocities, limits::SPEED),
            (
                "angular_velocities",
                &update.angular_velocities,
                limits::ANGULAR_SPEED,
            ),
        ] {
            if let Some(vs) = arr {
                for (i, v) in vs.iter().enumerate() {
                    let name = format!("{param}[{i}]");
                    limits::bounded3(&name, *v, max)?;
                    if param == "velocities" {
                        self.planar_vector(&name, *v)?;
                    } else {
                        self.planar_spin(&name, *v)?;
                    }
                    check_can_move(&name, &bodies[i], *v)?;
                }
            }
        }
        self.edited();
        for (i, b) in self.state.bodies.bodies_mut().iter_mut().enumerate() {
            if let Some(p) = &update.positions {
                b.position = p[i];
            }
            if let Some(q) = &orientations {
                b.orientation = q[i];
                if b.planar {
                    b.angle = in_plane::angle_of(q[i]);
                }
            }
            if let Some(a) = &update.angles {
                b.orientation = in_plane::turn(a[i]);
                b.angle = a[i];
            }
            if let Some(v) = &update.velocities {
                b.velocity = v[i];
            }
            if let Some(w) = &update.angular_velocities {
                b.angular_velocity = w[i];
            }
        }
        Ok(())
    }

    /// Applies a force (world vector, N) and a torque (world vector, N m) to a body, the force
    /// at the centre of mass or at a body-frame point (which gives a torque too), for as long
    /// as `lasting` says. Returns a handle for `remove_load`.
    pub fn apply_load(
        &mut self,
        h: BodyHandle,
        force: DVec3,
        local_point: Option<DVec3>,
        torque: DVec3,
        lasting: Lasting,
    ) -> Result<LoadHandle> {
        let load = AppliedLoad {
            handle: LoadHandle(self.state.next_handle),
            body: h,
            force,
            local_point,
            torque,
            lasting,
        };
        load.check()?;
        self.planar_vector("force", force)?;
        if let Some(p) = local_point {
            self.planar_vector("point", p)?;
        }
        self.planar_spin("torque", torque)?;
        if let Lasting::For(d) = lasting {
            check_positive("duration", d)?;
        }
        moved_by_forces(self.body(h)?)?;
        self.state.next_handle += 1;
        self.edited();
        let handle = load.handle;
        self.state.loads.push(load);
        Ok(handle)
    }

    /// Applies a force at the centre of mass or at a world point (taken as fixed to the body
    /// from now on), for one step (duration None) or `duration` seconds.
    pub fn apply_force(
        &mut self,
        h: BodyHandle,
        force: DVec3,
        point: Option<DVec3>,
        duration: Option<f64>,
    ) -> Result<LoadHandle> {
        if let Some(p) = point {
            limits::coordinate3("point", p)?;
            self.planar_vector("point", p)?;
        }
        let b = self.body(h)?;
        let local_point = point.map(|p| b.local_point(p));
        self.apply_load(
            h,
            force,
            local_point,
            DVec3::ZERO,
            duration.map_or(Lasting::OneStep, Lasting::For),
        )
    }

    /// Applies a torque for one step (duration None) or `duration` seconds.
    pub fn apply_torque(
        &mut self,
        h: BodyHandle,
        torque: DVec3,
        duration: Option<f64>,
    ) -> Result<LoadHandle> {
        self.apply_load(
            h,
            DVec3::ZERO,
            None,
            torque,
            duration.map_or(Lasting::OneStep, Lasting::For),
        )
    }

    /// Stops a load. Returns whether it was still acting.
    pub fn remove_load(&mut self, handle: LoadHandle) -> bool {
        let before = self.state.loads.len();
        self.state.loads.retain(|l| l.handle != handle);
        self.state.loads.len() != before
    }

    /// Whether a load is still acting.
    pub fn load_active(&self, handle: LoadHandle) -> bool {
        self.state.loads.iter().any(|l| l.handle == handle)
    }

    /// Changes a dynamic body's momentum at once by `impulse` (N s), at the centre of mass or
    /// at a world point. Has no effect on static and kinematic bodies.
    pub fn apply_impulse(
        &mut self,
        h: BodyHandle,
        impulse: DVec3,
        point: Option<DVec3>,
    ) -> Result<()> {
        limits::bounded3("impulse", impulse, limits::LOAD)?;
        self.planar_vector("impulse", impulse)?;
        if let Some(p) = point {
            limits::coordinate3("point", p)?;
            self.planar_vector("point", p)?;
        }
        moved_by_forces(self.body(h)?)?;
        let b = self.body_mut(h)?;
        b.velocity += impulse * b.inv_mass();
        if let Some(p) = point {
            let dw = b.inv_inertia_world() * (p - b.position).cross(impulse);
            b.angular_velocity += dw;
        }
        Ok(())
    }

    /// Overrides the material coefficients used between two bodies (None keeps the rule).
    pub fn set_pair(&mut self, a: BodyHandle, b: BodyHandle, material: Material) -> Result<()> {
        let m = material.checked()?;
        let (ia, ib) = (self.body(a)?.id, self.body(b)?.id);
        if ia == ib {
            return Err(Error::invalid("b", ib, "must be a different body from a"));
        }
        self.state
            .pair_materials
            .insert((ia.min(ib), ia.max(ib)), m);
        self.content_changed();
        Ok(())
    }

    /// Sets whether bodies a and b may collide with each other (their filters permitting):
    /// false sets the pair apart, true lets the filters decide again.
    pub fn set_pair_collide(&mut self, a: BodyHandle, b: BodyHandle, collide: bool) -> Result<()> {
        let (ia, ib) = (self.body(a)?.id, self.body(b)?.id);
        if ia == ib {
            return Err(Error::invalid("b", ib, "must be a different body from a"));
        }
        let key = (ia.min(ib), ia.max(ib));
        let changed = if collide {
            self.state.apart.remove(&key)
        } else {
            self.state.apart.insert(key)
        };
        if changed {
            self.content_changed();
        }
        Ok(())
    }

    /// Whether bodies a and b were set apart (`set_pair_collide`).
    pub fn pair_collides(&self, a: BodyHandle, b: BodyHandle) -> Result<bool> {
        let (ia, ib) = (self.body(a)?.id, self.body(b)?.id);
        Ok(!self.state.apart.contains(&(ia.min(ib), ia.max(ib))))
    }

    /// Makes a body a sensor (it senses what overlaps it and pushes nothing) or a solid again.
    pub fn set_sensor(&mut self, h: BodyHandle, sensor: bool) -> Result<()> {
        let body = self.body_mut(h)?;
        if body.sensor != sensor {
            body.sensor = sensor;
            self.content_changed();
        }
        Ok(())
    }

    /// Sets a body's collision filter (see filter.rs).
    pub fn set_filter(&mut self, h: BodyHandle, filter: crate::filter::Filter) -> Result<()> {
        let body = self.body_mut(h)?;
        if body.filter != filter {
            body.filter = filter;
            self.content_changed();
        }
        Ok(())
    }

    pub fn set_gravity(&mut self, g: DVec3) -> Result<()> {
        limits::bounded3("gravity", g, limits::GRAVITY)?;
        self.state.settings.gravity = self.planar_vector("gravity", g)?;
        self.content_changed();
        Ok(())
    }

    pub fn set_dt(&mut self, dt: f64) -> Result<()> {
        limits::within("dt", dt, limits::DT.0, limits::DT.1)?;
        self.content_changed();
        self.state.base_time = self.time();
        self.state.steps_since_base = 0;
        self.state.settings.dt = dt;
        Ok(())
    }

    pub fn set_time(&mut self, t: f64) -> Result<()> {
        crate::error::check_finite("time", t)?;
        self.state.base_time = t;
        self.state.steps_since_base = 0;
        Ok(())
    }

    pub fn set_integrator(&mut self, kind: IntegratorKind) {
        self.content_changed();
        self.state.settings.integrator = kind;
    }

    pub fn set_solver_iterations(&mut self, n: u32) -> Result<()> {
        // Beyond this many the iterations only repeat round-off, at a cost a step never
        // returns from (each joint's position phase runs 25 sweeps per iteration).
        const MOST: u32 = 10_000;
        if !(1..=MOST).contains(&n) {
            return Err(Error::invalid(
                "solver_iterations",
                n,
                &format!("must lie in [1, {MOST}]"),
            ));
        }
        self.content_changed();
        self.state.settings.solver_iterations = n;
        Ok(())
    }

    pub fn set_solver_tolerance(&mut self, v: f64) -> Result<()> {
        let v = check_non_negative("solver_tolerance", v)?;
        self.content_changed();
        self.state.settings.solver_tolerance = v;
        Ok(())
    }

    pub fn set_restitution_threshold(&mut self, v: f64) -> Result<()> {
        self.state.settings.restitution_threshold = check_non_negative("restitution_threshold", v)?;
        self.content_changed();
        Ok(())
    }

    /// The threads the narrow phase of large scenes runs on: None (the default), the process's
    /// pool (one per core) where it pays, in scenes of many 3D boxes, hulls and capsules in
    /// contact (`Threads::splits`); 1, the calling thread; n, a pool of n of the world's own, always.
    /// Results are the same, bit for bit, on any number.
    pub fn set_threads(&mut self, n: Option<usize>) -> Result<()> {
        self.threads = match n {
            None => crate::collision::pair_contacts::Threads::Shared,
            // More threads than cores only wait on each other; this many cannot even start.
            Some(n) if !(1..=1024).contains(&n) => {
                return Err(Error::invalid("threads", n, "must lie in [1, 1024]"))
            }
            Some(n) => crate::collision::pair_contacts::Threads::new(n)
                .map_err(|e| Error::invalid("threads", n, &format!("no pool of threads: {e}")))?,
        };
        Ok(())
    }

    /// See `set_threads`.
    pub fn threads(&self) -> Option<usize> {
        self.threads.count()
    }

    /// Turns sleeping on or off (off wakes every body and keeps them awake).
    pub fn set_sleeping(&mut self, on: bool) {
        self.content_changed();
        self.state.settings.sleeping = on;
    }

    pub fn set_combine_rules(&mut self, restitution: CombineRule, friction: CombineRule) {
        self.content_changed();
        self.state.settings.materials.restitution_rule = restitution;
        self.state.settings.materials.friction_rule = friction;
    }
}

/// Only a dynamic body answers forces, torques and impulses: on a static or kinematic one they
/// would do nothing, which a caller should hear about rather than find out.
fn moved_by_forces(b: &Body) -> Result<()> {
    if b.is_dynamic() {
        return Ok(());
    }
    Err(Error::invalid(
        "body",
        format!("{} body {}", b.kind.name(), b.id),
        "only a dynamic body moves under forces, torques and impulses (make it dynamic with \
         kind=\"dynamic\"; a kinematic body moves at the velocity it is given)",
    ))
}
