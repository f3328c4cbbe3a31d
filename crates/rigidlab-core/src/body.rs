//! Bodies, their handles (slot index + generation), and the store that keeps them in order.

use crate::error::{Error, Result};
use crate::filter::Filter;
use crate::limits;
use crate::material::Material;
use crate::math::{rotate_tensor, DMat3, DQuat, DVec3};
use crate::shape::Shape;
use crate::speed_caps::SpeedCaps;

/// How a body moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyKind {
    /// Moved by forces, contacts and joints.
    Dynamic,
    /// Never moves; infinite mass.
    Static,
    /// Moves with the velocity it is given, unaffected by forces or contacts; infinite mass.
    Kinematic,
}

impl BodyKind {
    pub const NAMES: &'static str = "'dynamic', 'static', 'kinematic'";

    pub fn parse(param: &str, name: &str) -> Result<BodyKind> {
        match name {
            "dynamic" => Ok(BodyKind::Dynamic),
            "static" => Ok(BodyKind::Static),
            "kinematic" => Ok(BodyKind::Kinematic),
            _ => Err(Error::UnknownName {
                param: param.into(),
                what: "body kind".into(),
                value: name.into(),
                choices: Self::NAMES.into(),
            }),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            BodyKind::Dynamic => "dynamic",
            BodyKind::Static => "static",
            BodyKind::Kinematic => "kinematic",
        }
    }
}

/// A reference to a body: the slot it lives in and the slot's generation when it was made.
/// A removed body's handle no longer matches its slot's generation and is rejected.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BodyHandle {
    pub index: u32,
    pub generation: u32,
}

/// How much a body weighs: either a mass or a density (kg/m^3) to multiply the volume by.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MassSpec {
    Mass(f64),
    Density(f64),
}

/// Everything needed to create a body. `Default` gives a dynamic body of density 1000 kg/m^3
/// at the origin, at rest.
#[derive(Clone, Debug, PartialEq)]
pub struct BodyDesc {
    pub shape: Shape,
    pub kind: BodyKind,
    pub mass: MassSpec,
    pub position: DVec3,
    pub orientation: DQuat,
    pub velocity: DVec3,
    pub angular_velocity: DVec3,
    pub material: Material,
    pub linear_damping: f64,
    pub angular_damping: f64,
    /// Quadratic drag coefficient c2 in the force -c2 |v| v (kg/m).
    pub quadratic_drag: f64,
    /// Multiplies the world's gravity for this body (0: no gravity).
    pub gravity_scale: f64,
    /// Its largest speed and angular speed (see speed_caps.rs).
    pub caps: SpeedCaps,
    /// What it collides with (see filter.rs).
    pub filter: Filter,
    /// A sensor detects the bodies that overlap it and never pushes them (see sensors.rs).
    pub sensor: bool,
    pub name: Option<String>,
    /// Display colour (r, g, b) in [0, 1] for the viewer and plots; None picks one by id.
    pub color: Option<[f64; 3]>,
    /// A body of a 2D world (see in_plane.rs); the world sets it.
    pub planar: bool,
    /// For a body of a 2D world, its angle about z (rad), whole turns counted: the angle of
    /// `orientation` plus a whole number of turns (None: the orientation's own, in (-pi, pi]).
    pub angle: Option<f64>,
}

impl BodyDesc {
    pub fn new(shape: Shape) -> BodyDesc {
        BodyDesc {
            shape,
            kind: BodyKind::Dynamic,
            mass: MassSpec::Density(1000.0),
            position: DVec3::ZERO,
            orientation: DQuat::IDENTITY,
            velocity: DVec3::ZERO,
            angular_velocity: DVec3::ZERO,
            material: Material::default(),
            linear_damping: 0.0,
            angular_damping: 0.0,
            quadratic_drag: 0.0,
            gravity_scale: 1.0,
            caps: SpeedCaps::default(),
            filter: Filter::default(),
            sensor: false,
            name: None,
            color: None,
            planar: false,
            angle: None,
        }
    }

    /// Takes the desc's position as where the origin of the frame a hull's points were given
    /// in goes (`Shape::convex` returns the hull centred on its centroid, and the centroid's
    /// place in that frame): the body's position becomes the centroid's place in the world.
    pub fn place_frame_origin(&mut self, centroid: DVec3) {
        if self.orientation.is_finite() && self.orientation.length() > 0.0 {
            self.position += self.orientation.normalize() * centroid;
        }
    }

    /// The infinite plane {x : normal . x = offset}, solid on the side opposite the normal: a
    /// static body at the plane's point nearest the origin, its y axis along the normal.
    pub fn plane(normal: DVec3, offset: f64) -> Result<BodyDesc> {
        let n = limits::direction("normal", normal)?;
        let offset = limits::within("offset", offset, -limits::COORDINATE, limits::COORDINATE)?;
        Ok(BodyDesc {
            kind: BodyKind::Static,
            position: n * offset,
            orientation: DQuat::from_rotation_arc(DVec3::Y, n),
            ..BodyDesc::new(Shape::Plane)
        })
    }
}

/// A body's sleep state (dynamics/sleep.rs decides it).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Sleep {
    pub asleep: bool,
    /// How long it has rested (s).
    pub timer: f64,
    /// How fast it moved when its rest began (m/s).
    pub rest_speed: f64,
}

/// A rigid body. Position is the centre of mass; orientation maps body to world frame.
#[derive(Clone, Debug)]
pub struct Body {
    /// Unique for the life of the world, never reused.
    pub id: u64,
    pub name: Option<String>,
    /// Display colour (r, g, b) in [0, 1]; None picks one by id.
    pub color: Option<[f64; 3]>,
    pub kind: BodyKind,
    pub shape: Shape,
    pub position: DVec3,
    pub orientation: DQuat,
    pub velocity: DVec3,
    pub angular_velocity: DVec3,
    pub material: Material,
    /// Linear damping coefficient c in the force -c v (N s/m).
    pub linear_damping: f64,
    /// Angular damping coefficient c_w in the torque -c_w w (N m s).
    pub angular_damping: f64,
    /// Quadratic drag coefficient c2 in the force -c2 |v| v (kg/m).
    pub quadratic_drag: f64,
    /// Multiplies the world's gravity for this body (0: no gravity).
    pub gravity_scale: f64,
    /// Its largest speed and angular speed (see speed_caps.rs).
    pub caps: SpeedCaps,
    /// What it collides with (see filter.rs).
    pub filter: Filter,
    /// Whether it only senses what overlaps it (see sensors.rs).
    pub sensor: bool,
    /// The mass the shape and density give, whatever the kind.
    pub(crate) shape_mass: f64,
    /// Body-frame inertia tensor about the centre of mass, for the shape mass.
    pub(crate) shape_inertia: DMat3,
    /// Its inverse, kept so no step has to invert it.
    pub(crate) shape_inv_inertia: DMat3,
    /// Whether it sleeps, and how long it has rested (see dynamics/sleep.rs).
    pub sleep: Sleep,
    /// A body of a 2D world: it lies and moves in the x-y plane (see in_plane.rs).
    pub planar: bool,
    /// For a body of a 2D world, its angle about z (rad), whole turns counted (0 otherwise).
    pub angle: f64,
}

impl Body {
    /// Mass as the dynamics sees it: infinite unless dynamic.
    /// The mass its shape was given, whatever its kind (a static body's is kept for the day it
    /// is made dynamic).
    pub fn shape_mass(&self) -> f64 {
        self.shape_mass
    }

    pub fn mass(&self) -> f64 {
        if self.kind == BodyKind::Dynamic {
            self.shape_mass
        } else {
            f64::INFINITY
        }
    }

    pub fn inv_mass(&self) -> f64 {
        if self.kind == BodyKind::Dynamic {
            1.0 / self.shape_mass
        } else {
            0.0
        }
    }

    /// Body-frame inertia tensor (infinite unless dynamic).
    pub fn inertia_body(&self) -> DMat3 {
        if self.kind == BodyKind::Dynamic {
            self.shape_inertia
        } else {
            DMat3::from_diagonal(DVec3::splat(f64::INFINITY))
        }
    }

    /// Body-frame inverse inertia tensor (zero unless dynamic).
    pub fn inv_inertia_body(&self) -> DMat3 {
        if self.kind == BodyKind::Dynamic {
            self.shape_inv_inertia
        } else {
            DMat3::ZERO
        }
    }

    /// World-frame inertia tensor R I R^T.
    pub fn inertia_world(&self) -> DMat3 {
        if self.kind == BodyKind::Dynamic {
            rotate_tensor(self.orientation, self.shape_inertia)
        } else {
            self.inertia_body()
        }
    }

    /// World-frame inverse inertia tensor R I^-1 R^T.
    pub fn inv_inertia_world(&self) -> DMat3 {
        rotate_tensor(self.orientation, self.inv_inertia_body())
    }

    /// A body-frame point in world coordinates.
    pub fn world_point(&self, local: DVec3) -> DVec3 {
        self.position + self.orientation * local
    }

    /// A world point in the body's frame (the inverse of `world_point`).
    pub fn local_point(&self, world: DVec3) -> DVec3 {
        self.orientation.inverse() * (world - self.position)
    }

    /// Velocity of the material point at world position p.
    pub fn velocity_at(&self, p: DVec3) -> DVec3 {
        self.velocity + self.angular_velocity.cross(p - self.position)
    }

    pub fn is_dynamic(&self) -> bool {
        self.kind == BodyKind::Dynamic
    }

    /// Dynamic and not asleep: the bodies a step moves.
    pub fn is_awake(&self) -> bool {
        self.is_dynamic() && !self.sleep.asleep
    }
}

/// Checks a body description and builds the body with id `id` (no world is touched): how a
/// world's bodies are made, and how a saved state's are made again.
pub fn build_body(desc: BodyDesc, id: u64) -> Result<Body> {
    use crate::error::check_positive;
    use crate::limits;
    limits::coordinate3("position", desc.position)?;
    limits::bounded3("velocity", desc.velocity, limits::SPEED)?;
    limits::bounded3(
        "angular_velocity",
        desc.angular_velocity,
        limits::ANGULAR_SPEED,
    )?;
    let q = limits::orientation("orientation", desc.orientation)?;
    limits::coefficient("linear_damping", desc.linear_damping)?;
    limits::coefficient("angular_damping", desc.angular_damping)?;
    limits::coefficient("quadratic_drag", desc.quadratic_drag)?;
    limits::within(
        "gravity_scale",
        desc.gravity_scale,
        -limits::GRAVITY_SCALE,
        limits::GRAVITY_SCALE,
    )?;
    SpeedCaps::check("max_speed", desc.caps.linear)?;
    SpeedCaps::check("max_angular_speed", desc.caps.angular)?;
    if !desc.shape.can_be_dynamic() && desc.kind == BodyKind::Dynamic {
        return Err(Error::invalid(
            "kind",
            "'dynamic'",
            &format!(
                "a {} only bounds other bodies and cannot be dynamic; use 'static' or 'kinematic'",
                desc.shape.type_name()
            ),
        ));
    }
    let angle = if desc.planar {
        crate::in_plane::check_body(desc.position, q, desc.velocity, desc.angular_velocity)?;
        let own = crate::in_plane::angle_of(q);
        let angle = desc.angle.unwrap_or(own);
        let angle = limits::within("angle", angle, -limits::COORDINATE, limits::COORDINATE)?;
        let off = own - angle;
        if (off - (off / std::f64::consts::TAU).round() * std::f64::consts::TAU).abs() > 1e-9 {
            return Err(Error::invalid(
                "angle",
                angle,
                "must be the angle of the orientation plus whole turns",
            ));
        }
        angle
    } else {
        0.0
    };
    if desc.kind == BodyKind::Static {
        for (param, v) in [
            ("velocity", desc.velocity),
            ("angular_velocity", desc.angular_velocity),
        ] {
            if v != DVec3::ZERO {
                return Err(Error::invalid(
                    param,
                    format!("{:?}", v.to_array()),
                    "a static body cannot move; use kind='kinematic'",
                ));
            }
        }
    }
    // A 2D world's bodies are laminae: their density is per area (kg/m^2).
    let (volume, unit_inertia) = if desc.planar {
        desc.shape.planar_mass().ok_or_else(|| {
            Error::invalid(
                "shape",
                desc.shape.type_name(),
                "has no place in a 2D world (circles, polygons, boxes, capsules, segments and \
                 ground lines do)",
            )
        })?
    } else if matches!(desc.shape, Shape::Polygon { .. }) {
        return Err(Error::invalid(
            "shape",
            desc.shape.type_name(),
            "is a shape of 2D worlds (rigidlab.World2D); a 3D world takes prisms and hulls",
        ));
    } else {
        (desc.shape.volume(), desc.shape.unit_inertia())
    };
    let (param, given, shape_mass) = match desc.mass {
        MassSpec::Mass(m) => ("mass", m, check_positive("mass", m)?),
        MassSpec::Density(rho) => ("density", rho, check_positive("density", rho)? * volume),
    };
    // A plane's volume, and so its mass, is infinite: it never moves. A segment has no area:
    // it is never dynamic, and its mass is never used.
    if volume.is_finite() && desc.shape.can_be_dynamic() {
        limits::mass(param, given, shape_mass)?;
    }
    let shape_inertia = unit_inertia * shape_mass;
    Ok(Body {
        id,
        name: desc.name,
        color: check_color("color", desc.color)?,
        kind: desc.kind,
        shape: desc.shape,
        position: desc.position,
        orientation: q,
        velocity: desc.velocity,
        angular_velocity: desc.angular_velocity,
        material: desc.material,
        linear_damping: desc.linear_damping,
        angular_damping: desc.angular_damping,
        quadratic_drag: desc.quadratic_drag,
        gravity_scale: desc.gravity_scale,
        caps: desc.caps,
        filter: desc.filter,
        sensor: desc.sensor,
        shape_mass,
        shape_inertia,
        shape_inv_inertia: shape_inertia.inverse(),
        sleep: Default::default(),
        planar: desc.planar,
        angle,
    })
}

#[derive(Clone)]
struct Slot {
    generation: u32,
    /// Position of the body in `BodySet::order`, when occupied.
    dense: Option<u32>,
    /// The highest generation the slot has ever had, across restored snapshots: a freed slot
    /// takes the next one, so no handle is ever issued twice.
    newest: u32,
}

/// The bodies of a world, in the order they were added (the row order of whole-world arrays).
/// Handles are slot indices with generations; removing a body frees its slot for reuse with a
/// new generation, so stale handles are caught.
#[derive(Clone, Default)]
pub struct BodySet {
    slots: Vec<Slot>,
    free: Vec<u32>,
    bodies: Vec<Body>,
    handles: Vec<BodyHandle>,
    /// False while every body's sleep state is known to be the default (awake, no rest
    /// begun), so that waking all bodies, which every edit does, costs nothing while a scene
    /// is being built.
    sleep_may_be_set: bool,
}

impl BodySet {
    pub fn len(&self) -> usize {
        self.bodies.len()
    }

    pub fn is_empty(&self) -> bool {
        self.bodies.is_empty()
    }

    pub fn insert(&mut self, body: Body) -> BodyHandle {
        let dense = self.bodies.len() as u32;
        let handle = match self.free.pop() {
            Some(index) => {
                let slot = &mut self.slots[index as usize];
                slot.dense = Some(dense);
                BodyHandle {
                    index,
                    generation: slot.generation,
                }
            }
            None => {
                self.slots.push(Slot {
                    generation: 0,
                    dense: Some(dense),
                    newest: 0,
                });
                BodyHandle {
                    index: self.slots.len() as u32 - 1,
                    generation: 0,
                }
            }
        };
        self.sleep_may_be_set |= body.sleep != Default::default();
        self.bodies.push(body);
        self.handles.push(handle);
        handle
    }

    /// Row of the body in whole-world arrays, if the handle is live.
    pub fn dense_index(&self, h: BodyHandle) -> Option<usize> {
        let slot = self.slots.get(h.index as usize)?;
        if slot.generation != h.generation {
            return None;
        }
        slot.dense.map(|d| d as usize)
    }

    pub fn contains(&self, h: BodyHandle) -> bool {
        self.dense_index(h).is_some()
    }

    pub fn get(&self, h: BodyHandle) -> Option<&Body> {
        self.dense_index(h).map(|i| &self.bodies[i])
    }

    pub fn get_mut(&mut self, h: BodyHandle) -> Option<&mut Body> {
        self.dense_index(h).map(move |i| &mut self.bodies[i])
    }

    /// Removes a body, keeping the others in order. O(n), as removal is rare.
    pub fn remove(&mut self, h: BodyHandle) -> Option<Body> {
        let i = self.dense_index(h)?;
        let body = self.bodies.remove(i);
        self.handles.remove(i);
        for (j, hj) in self.handles.iter().enumerate().skip(i) {
            self.slots[hj.index as usize].dense = Some(j as u32);
        }
        let slot = &mut self.slots[h.index as usize];
        slot.dense = None;
        slot.newest = slot.newest.wrapping_add(1);
        slot.generation = slot.newest;
        self.free.push(h.index);
        Some(body)
    }

    /// Becomes the body set `s` (a snapshot's), keeping the handles honest: a handle made
    /// since the snapshot, whose body the restore removes, never names a body again, however
    /// its slot is reused. (Snapshot bodies keep their handles.)
    pub fn restore_from(&mut self, s: &BodySet) {
        let newest: Vec<u32> = self.slots.iter().map(|slot| slot.newest).collect();
        *self = s.clone();
        for (i, slot) in self.slots.iter_mut().enumerate() {
            slot.newest = slot.newest.max(newest.get(i).copied().unwrap_or(0));
            if slot.dense.is_none() {
                slot.newest = slot.newest.wrapping_add(1);
                slot.generation = slot.newest;
            }
        }
        // Slots made since the snapshot stay, free, on a generation none of their handles has.
        for &n in &newest[self.slots.len().min(newest.len())..] {
            self.free.push(self.slots.len() as u32);
            self.slots.push(Slot {
                generation: n.wrapping_add(1),
                dense: None,
                newest: n.wrapping_add(1),
            });
        }
        self.sleep_may_be_set = true;
    }

    pub fn bodies(&self) -> &[Body] {
        &self.bodies
    }

    pub fn bodies_mut(&mut self) -> &mut [Body] {
        self.sleep_may_be_set = true;
        &mut self.bodies
    }

    /// Wakes every body and restarts its rest.
    pub fn wake_all(&mut self) {
        if std::mem::take(&mut self.sleep_may_be_set) {
            for b in &mut self.bodies {
                b.sleep = Default::default();
            }
        }
    }

    pub fn handles(&self) -> &[BodyHandle] {
        &self.handles
    }
}

/// Checks a display colour: three numbers in [0, 1].
pub fn check_color(param: &str, color: Option<[f64; 3]>) -> Result<Option<[f64; 3]>> {
    match color {
        Some(c) if !c.iter().all(|x| (0.0..=1.0).contains(x)) => Err(Error::invalid(
            param,
            format!("{c:?}"),
            "must be three numbers (r, g, b) in [0, 1]",
        )),
        c => Ok(c),
    }
}
