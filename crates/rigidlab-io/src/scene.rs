//! The versioned JSON scene format that Python and the viewer share: settings, bodies with
//! their shapes and materials, pair overrides, springs, joints, loads, and the state a step
//! reads (time, the contact cache with its warm-start impulses), so a loaded world continues
//! exactly as the saved one would.
//!
//! Bodies are referred to by id. A file names its format and version; a newer version than
//! this build reads, or anything malformed, gives an error naming what is wrong and where.

use std::collections::HashMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::body::{build_body, BodyDesc, BodyHandle, BodyKind, MassSpec, Sleep};
use crate::clock::Clock;
use crate::collision::manifold::{ContactPoint, Manifold, MAX_POINTS};
use crate::dynamics::integrator::IntegratorKind;
use crate::dynamics::joints::{Joint, JointHandle, JointKind, Motor};
use crate::dynamics::loads::{AppliedLoad, Lasting, LoadHandle};
use crate::dynamics::springs::{Spring, SpringHandle};
use crate::error::{Error, Result};
use crate::filter::Filter;
use crate::material::{CombineRule, Material};
use crate::math::{DQuat, DVec2, DVec3};
use crate::shape::hull::{ConvexHull, MassProperties};
use crate::shape::{Outline, Polygon, Shape};
use crate::speed_caps::SpeedCaps;
use crate::world::{Settings, World, WorldState};

pub const FORMAT: &str = "rigidlab-scene";
pub const VERSION: u32 = 1;

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SceneFile {
    pub format: String,
    pub version: u32,
    pub settings: SettingsData,
    pub time: TimeData,
    pub next_id: u64,
    pub next_handle: u64,
    pub bodies: Vec<BodyData>,
    #[serde(default)]
    pub pair_materials: Vec<PairData>,
    /// Pairs of bodies (ids) that never collide.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub apart: Vec<[u64; 2]>,
    /// Pairs of bodies (ids) whose contact was refused: they pass through each other while
    /// they stay in contact.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub passing: Vec<[u64; 2]>,
    /// Pairs of bodies (ids, smaller first) touching at the last step, and (sensor id, body id)
    /// of the bodies inside each sensor: read back, the world reports no begin for them again.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub touching: Vec<[u64; 2]>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sensing: Vec<[u64; 2]>,
    #[serde(default)]
    pub springs: Vec<SpringData>,
    #[serde(default)]
    pub joints: Vec<JointData>,
    #[serde(default)]
    pub loads: Vec<LoadData>,
    #[serde(default)]
    pub contacts: Vec<ManifoldData>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SettingsData {
    pub gravity: DVec3,
    pub dt: f64,
    pub integrator: String,
    pub solver_iterations: u32,
    /// See `Settings::solver_tolerance` (files from before it existed: iterate to the end).
    #[serde(default)]
    pub solver_tolerance: f64,
    pub position_iterations: u32,
    pub restitution_threshold: f64,
    pub linear_slop: f64,
    pub restitution_rule: String,
    pub friction_rule: String,
    /// Whether bodies at rest fall asleep (files from before it existed: yes).
    #[serde(default = "yes")]
    pub sleeping: bool,
    /// A 2D world: every body lies and moves in the x-y plane.
    #[serde(default, skip_serializing_if = "is_false")]
    pub planar: bool,
}

fn yes() -> bool {
    true
}

fn is_false(b: &bool) -> bool {
    !b
}

fn is_zero(x: &f64) -> bool {
    *x == 0.0
}

/// Time is base + steps * dt (kept apart so it does not accumulate rounding).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeData {
    pub base: f64,
    pub steps: u64,
    /// Time asked for and not stepped yet (s), and the time scale of `advance` (clock.rs).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub carried: f64,
    #[serde(default = "unit_scale", skip_serializing_if = "is_unit")]
    pub time_scale: f64,
}

fn unit_scale() -> f64 {
    1.0
}

fn is_unit(x: &f64) -> bool {
    *x == 1.0
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ShapeData {
    Sphere {
        radius: f64,
    },
    Box {
        half_extents: DVec3,
    },
    Capsule {
        radius: f64,
        half_height: f64,
    },
    Convex {
        // Boxed: a hull is large and the other shapes a few numbers.
        hull: Box<ConvexHull>,
        mass_properties: MassProperties,
    },
    Plane,
    /// The shapes of 2D worlds: a convex polygon (corners counter-clockwise about its
    /// centroid), a rectangle, a segment (its two ends about its midpoint, and a radius).
    Polygon {
        vertices: Vec<DVec2>,
    },
    Rectangle {
        half_extents: DVec2,
    },
    Segment {
        vertices: [DVec2; 2],
        radius: f64,
    },
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BodyData {
    pub id: u64,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<[f64; 3]>,
    pub kind: String,
    pub shape: ShapeData,
    /// The shape's mass (kg), whatever the kind; null for a plane (infinite).
    pub mass: Option<f64>,
    pub position: DVec3,
    pub orientation: DQuat,
    pub velocity: DVec3,
    pub angular_velocity: DVec3,
    pub material: Material,
    pub linear_damping: f64,
    pub angular_damping: f64,
    pub quadratic_drag: f64,
    pub gravity_scale: f64,
    /// Whether it sleeps, and how long it has rested (s), so a reloaded world sleeps when the
    /// saved one would have.
    #[serde(default, skip_serializing_if = "is_false")]
    pub asleep: bool,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rested: f64,
    /// How fast it moved when its rest began (m/s).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rest_speed: f64,
    /// A body of a 2D world: its angle about z (rad), whole turns counted (absent: the
    /// orientation's own).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub angle: Option<f64>,
    /// What it collides with (absent: everything).
    #[serde(default, skip_serializing_if = "Filter::is_default")]
    pub filter: Filter,
    /// Whether it only senses what overlaps it.
    #[serde(default, skip_serializing_if = "is_false")]
    pub sensor: bool,
    /// Its largest speed (m/s) and angular speed (rad/s) (absent: no cap).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_speed: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_angular_speed: Option<f64>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PairData {
    pub a: u64,
    pub b: u64,
    pub material: Material,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpringData {
    pub handle: u64,
    pub a: u64,
    pub b: Option<u64>,
    pub anchor_a: DVec3,
    pub anchor_b: DVec3,
    pub stiffness: f64,
    pub damping: f64,
    pub rest_length: f64,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum JointKindData {
    Distance {
        length: f64,
    },
    Rope {
        max_length: f64,
    },
    Ball,
    Hinge {
        axis_a: DVec3,
        axis_b: DVec3,
        reference_a: DVec3,
        reference_b: DVec3,
        limits: Option<(f64, f64)>,
        motor: Option<(f64, f64)>,
    },
    Fixed {
        relative: DQuat,
    },
    Mouse {
        frequency: f64,
        damping_ratio: f64,
        max_force: Option<f64>,
    },
    Pulley {
        ground_a: DVec3,
        ground_b: DVec3,
        ratio: f64,
        length: f64,
    },
    Slider {
        axis_a: DVec3,
        relative: DQuat,
        limits: Option<(f64, f64)>,
        motor: Option<(f64, f64)>,
    },
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JointData {
    pub handle: u64,
    pub a: u64,
    pub b: Option<u64>,
    pub kind: JointKindData,
    pub anchor_a: DVec3,
    pub anchor_b: DVec3,
    pub impulse: DVec3,
    pub angular_impulse: DVec3,
    /// Whether the joined bodies collide with each other (default: no).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub collide: bool,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LoadData {
    pub handle: u64,
    pub body: u64,
    pub force: DVec3,
    pub local_point: Option<DVec3>,
    pub torque: DVec3,
    /// Seconds left; null for the next step only; "until_removed" is `until_removed: true`.
    pub remaining: Option<f64>,
    #[serde(default)]
    pub until_removed: bool,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ManifoldData {
    pub a: u64,
    pub b: u64,
    pub normal: DVec3,
    pub points: Vec<ContactPoint>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sliding: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frame: Option<crate::collision::refresh::PairFrame>,
}

/// An error in a scene file at `path` (a JSON path such as bodies[3].shape).
fn at(path: impl std::fmt::Display, e: Error) -> Error {
    Error::Scene {
        message: format!("{path}: {e}"),
    }
}

fn scene_error(message: impl Into<String>) -> Error {
    Error::Scene {
        message: message.into(),
    }
}

/// An error of the state read from a file is the file's, at the same place (the file's
/// sections are the state's fields).
fn as_file_error(e: Error) -> Error {
    match e {
        Error::State { message } => scene_error(message),
        e => e,
    }
}

fn lasting_data(l: Lasting) -> (Option<f64>, bool) {
    match l {
        Lasting::OneStep => (None, false),
        Lasting::For(t) => (Some(t), false),
        Lasting::UntilRemoved => (None, true),
    }
}

/// A world to and from scene files: what this crate adds to the engine's `World`.
pub trait SceneIo: Sized {
    /// The world as a scene file.
    fn to_scene(&self) -> SceneFile;
    /// The scene as JSON text.
    fn to_json(&self) -> String;
    /// The scene as JSON text without indentation.
    fn to_json_compact(&self) -> String;
    /// A world from JSON text, checked throughout.
    fn from_json(text: &str) -> Result<Self>;
    /// A world from a scene file, checked throughout: every error names where it is.
    fn from_scene(file: SceneFile) -> Result<Self>;
}

impl SceneIo for World {
    fn to_scene(&self) -> SceneFile {
        // Field by field, so that a field added to the state is saved or the compiler says.
        let WorldState {
            settings: s,
            bodies,
            base_time,
            steps_since_base,
            clock,
            next_id,
            next_handle,
            contacts,
            pair_materials,
            apart,
            passing,
            loads,
            springs,
            joints,
        } = self.state();
        let id_of = |h: BodyHandle| bodies.get(h).map_or(u64::MAX, |b| b.id);
        let mut pairs: Vec<PairData> = pair_materials
            .iter()
            .map(|(&(a, b), m)| PairData { a, b, material: *m })
            .collect();
        pairs.sort_by_key(|p| (p.a, p.b));
        SceneFile {
            format: FORMAT.into(),
            version: VERSION,
            settings: SettingsData {
                gravity: s.gravity,
                dt: s.dt,
                integrator: s.integrator.name().into(),
                solver_iterations: s.solver_iterations,
                solver_tolerance: s.solver_tolerance,
                position_iterations: s.position_iterations,
                restitution_threshold: s.restitution_threshold,
                linear_slop: s.linear_slop,
                restitution_rule: s.materials.restitution_rule.name().into(),
                friction_rule: s.materials.friction_rule.name().into(),
                sleeping: s.sleeping,
                planar: s.planar,
            },
            time: TimeData {
                base: *base_time,
                steps: *steps_since_base,
                carried: clock.carried,
                time_scale: clock.time_scale,
            },
            next_id: *next_id,
            next_handle: *next_handle,
            bodies: bodies
                .bodies()
                .iter()
                .map(|b| BodyData {
                    id: b.id,
                    name: b.name.clone(),
                    color: b.color,
                    kind: b.kind.name().into(),
                    shape: match &b.shape {
                        Shape::Sphere { radius } => ShapeData::Sphere { radius: *radius },
                        Shape::Box { half_extents, .. } => ShapeData::Box {
                            half_extents: *half_extents,
                        },
                        Shape::Capsule {
                            radius,
                            half_height,
                        } => ShapeData::Capsule {
                            radius: *radius,
                            half_height: *half_height,
                        },
                        Shape::Convex { hull, mass } => ShapeData::Convex {
                            hull: Box::new((**hull).clone()),
                            mass_properties: *mass,
                        },
                        Shape::Plane => ShapeData::Plane,
                        Shape::Polygon { polygon } => match polygon.outline {
                            Outline::Polygon => ShapeData::Polygon {
                                vertices: polygon.vertices.clone(),
                            },
                            Outline::Box { half_extents } => ShapeData::Rectangle { half_extents },
                            Outline::Segment => ShapeData::Segment {
                                vertices: [polygon.vertices[0], polygon.vertices[1]],
                                radius: polygon.radius,
                            },
                        },
                    },
                    mass: b.shape.can_be_dynamic().then_some(b.shape_mass()),
                    position: b.position,
                    orientation: b.orientation,
                    velocity: b.velocity,
                    angular_velocity: b.angular_velocity,
                    material: b.material,
                    linear_damping: b.linear_damping,
                    angular_damping: b.angular_damping,
                    quadratic_drag: b.quadratic_drag,
                    gravity_scale: b.gravity_scale,
                    asleep: b.sleep.asleep,
                    rested: b.sleep.timer,
                    rest_speed: b.sleep.rest_speed,
                    angle: b.planar.then_some(b.angle),
                    filter: b.filter,
                    sensor: b.sensor,
                    max_speed: b.caps.linear,
                    max_angular_speed: b.caps.angular,
                })
                .collect(),
            pair_materials: pairs,
            apart: apart.iter().map(|&(a, b)| [a, b]).collect(),
            passing: passing.iter().map(|&(a, b)| [a, b]).collect(),
            touching: self
                .events
                .touching()
                .iter()
                .map(|&(a, b)| [a, b])
                .collect(),
            sensing: self.events.sensing.iter().map(|&(a, b)| [a, b]).collect(),
            springs: springs
                .iter()
                .map(|sp| SpringData {
                    handle: sp.handle.0,
                    a: id_of(sp.a),
                    b: sp.b.map(id_of),
                    anchor_a: sp.anchor_a,
                    anchor_b: sp.anchor_b,
                    stiffness: sp.stiffness,
                    damping: sp.damping,
                    rest_length: sp.rest_length,
                })
                .collect(),
            joints: joints
                .iter()
                .map(|j| JointData {
                    handle: j.handle.0,
                    a: id_of(j.a),
                    b: j.b.map(id_of),
                    kind: match &j.kind {
                        JointKind::Distance { length } => {
                            JointKindData::Distance { length: *length }
                        }
                        JointKind::Rope { max_length } => JointKindData::Rope {
                            max_length: *max_length,
                        },
                        JointKind::Ball => JointKindData::Ball,
                        JointKind::Hinge {
                            axis_a,
                            axis_b,
                            reference_a,
                            reference_b,
                            limits,
                            motor,
                        } => JointKindData::Hinge {
                            axis_a: *axis_a,
                            axis_b: *axis_b,
                            reference_a: *reference_a,
                            reference_b: *reference_b,
                            limits: *limits,
                            motor: motor.map(|m| (m.speed, m.max_torque)),
                        },
                        JointKind::Fixed { relative } => JointKindData::Fixed {
                            relative: *relative,
                        },
                        JointKind::Mouse {
                            frequency,
                            damping_ratio,
                            max_force,
                        } => JointKindData::Mouse {
                            frequency: *frequency,
                            damping_ratio: *damping_ratio,
                            max_force: *max_force,
                        },
                        JointKind::Pulley {
                            ground_a,
                            ground_b,
                            ratio,
                            length,
                        } => JointKindData::Pulley {
                            ground_a: *ground_a,
                            ground_b: *ground_b,
                            ratio: *ratio,
                            length: *length,
                        },
                        JointKind::Slider {
                            axis_a,
                            relative,
                            limits,
                            motor,
                        } => JointKindData::Slider {
                            axis_a: *axis_a,
                            relative: *relative,
                            limits: *limits,
                            motor: motor.map(|m| (m.speed, m.max_torque)),
                        },
                    },
                    anchor_a: j.anchor_a,
                    anchor_b: j.anchor_b,
                    impulse: j.impulse,
                    angular_impulse: j.angular_impulse,
                    collide: j.collide,
                })
                .collect(),
            loads: loads
                .iter()
                .map(|l| {
                    let (remaining, until_removed) = lasting_data(l.lasting);
                    LoadData {
                        handle: l.handle.0,
                        body: id_of(l.body),
                        force: l.force,
                        local_point: l.local_point,
                        torque: l.torque,
                        remaining,
                        until_removed,
                    }
                })
                .collect(),
            contacts: contacts
                .manifolds
                .iter()
                .map(|m| ManifoldData {
                    a: id_of(m.a),
                    b: id_of(m.b),
                    normal: m.normal,
                    points: m.points.to_vec(),
                    sliding: m.sliding,
                    frame: m.frame,
                })
                .collect(),
        }
    }

    fn to_json(&self) -> String {
        serde_json::to_string_pretty(&self.to_scene()).expect("a scene always serialises")
    }

    fn to_json_compact(&self) -> String {
        serde_json::to_string(&self.to_scene()).expect("a scene always serialises")
    }

    fn from_json(text: &str) -> Result<World> {
        // Read the header first, so a newer file says so rather than failing on a field.
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| scene_error(format!("not valid JSON: {e}")))?;
        match value.get("format").and_then(|f| f.as_str()) {
            Some(FORMAT) => {}
            Some(other) => {
                return Err(scene_error(format!(
                    "format: expected '{FORMAT}', got '{other}'"
                )))
            }
            None => {
                return Err(scene_error(format!(
                    "format: missing; this is not a {FORMAT} file"
                )))
            }
        }
        match value.get("version").and_then(|v| v.as_u64()) {
            Some(v) if v == VERSION as u64 => {}
            Some(v) if v > VERSION as u64 => return Err(scene_error(format!("version: the file is version {v}, newer than this rigidlab reads ({VERSION}); upgrade rigidlab"))),
            Some(v) => return Err(scene_error(format!("version: unknown version {v}"))),
            None => return Err(scene_error("version: missing or not a whole number")),
        }
        // The error names the field by its path in the file (bodies[3].mass), not a column.
        let mut reader = serde_json::Deserializer::from_str(text);
        let file: SceneFile = serde_path_to_error::deserialize(&mut reader).map_err(|e| {
            let path = e.path().to_string();
            let inner = e.into_inner().to_string();
            // serde_json appends the place in the text; the path says it better.
            let inner = inner
                .split(" at line ")
                .next()
                .unwrap_or(&inner)
                .to_string();
            scene_error(format!("{path}: {inner}"))
        })?;
        World::from_scene(file)
    }

    fn from_scene(file: SceneFile) -> Result<World> {
        let sd = &file.settings;
        let settings = Settings {
            gravity: sd.gravity,
            dt: sd.dt,
            integrator: IntegratorKind::parse("settings.integrator", &sd.integrator)?,
            solver_iterations: sd.solver_iterations,
            solver_tolerance: sd.solver_tolerance,
            position_iterations: sd.position_iterations,
            restitution_threshold: sd.restitution_threshold,
            linear_slop: sd.linear_slop,
            materials: crate::material::MaterialRules {
                restitution_rule: CombineRule::parse(
                    "settings.restitution_rule",
                    &sd.restitution_rule,
                )?,
                friction_rule: CombineRule::parse("settings.friction_rule", &sd.friction_rule)?,
                ..Default::default()
            },
            sleeping: sd.sleeping,
            planar: sd.planar,
        };
        let settings_planar = settings.planar;
        let mut state = WorldState::new(settings);
        state.base_time = file.time.base;
        state.steps_since_base = file.time.steps;
        state.clock = Clock {
            carried: file.time.carried,
            time_scale: file.time.time_scale,
        };
        state.next_id = file.next_id;
        state.next_handle = file.next_handle;

        let mut handles: HashMap<u64, BodyHandle> = HashMap::new();
        for (i, bd) in file.bodies.iter().enumerate() {
            let path = format!("bodies[{i}]");
            let shape = match &bd.shape {
                ShapeData::Sphere { radius } => Shape::sphere(*radius),
                ShapeData::Box { half_extents } => Shape::cuboid(*half_extents),
                ShapeData::Capsule {
                    radius,
                    half_height,
                } => Shape::capsule(*radius, *half_height),
                ShapeData::Convex {
                    hull,
                    mass_properties,
                } => hull
                    .check("hull")
                    .and_then(|_| check_mass_properties(hull, mass_properties))
                    .map(|_| Shape::Convex {
                        hull: Arc::new((**hull).clone().with_bounds()),
                        mass: *mass_properties,
                    }),
                ShapeData::Plane => Ok(Shape::Plane),
                ShapeData::Polygon { vertices } => Polygon::centred(vertices).map(Shape::polygon),
                ShapeData::Rectangle { half_extents } => {
                    Polygon::rectangle(*half_extents).map(Shape::polygon)
                }
                ShapeData::Segment { vertices, radius } => {
                    let [p0, p1] = *vertices;
                    Polygon::segment(p0, p1, *radius).and_then(|(s, mid)| {
                        if mid.length() > 1e-9 * p0.length().max(1e-300) {
                            Err(Error::invalid(
                                "vertices",
                                format!("midpoint {:?}", mid.to_array()),
                                "must be centred on the segment's midpoint (the body's position)",
                            ))
                        } else {
                            Ok(Shape::polygon(s))
                        }
                    })
                }
            }
            .map_err(|e| at(format!("{path}.shape"), e))?;
            let desc = BodyDesc {
                kind: BodyKind::parse("kind", &bd.kind).map_err(|e| at(&path, e))?,
                mass: match (bd.mass, &shape) {
                    (Some(m), _) => MassSpec::Mass(m),
                    (None, s) if !s.can_be_dynamic() => MassSpec::Density(1000.0),
                    (None, _) => {
                        return Err(at(
                            &path,
                            Error::invalid(
                                "mass",
                                "null",
                                "is required for a body of finite volume",
                            ),
                        ))
                    }
                },
                position: bd.position,
                orientation: bd.orientation,
                velocity: bd.velocity,
                angular_velocity: bd.angular_velocity,
                material: bd
                    .material
                    .checked()
                    .map_err(|e| at(format!("{path}.material"), e))?,
                linear_damping: bd.linear_damping,
                angular_damping: bd.angular_damping,
                quadratic_drag: bd.quadratic_drag,
                gravity_scale: bd.gravity_scale,
                name: bd.name.clone(),
                color: bd.color,
                planar: settings_planar,
                angle: bd.angle,
                filter: bd.filter,
                sensor: bd.sensor,
                caps: SpeedCaps {
                    linear: bd.max_speed,
                    angular: bd.max_angular_speed,
                },
                ..BodyDesc::new(shape)
            };
            let mut body = build_body(desc, bd.id).map_err(|e| at(&path, e))?;
            // A saved unit quaternion is kept to the bit (build_body normalises); another one
            // (edited by hand) is taken normalised.
            if (bd.orientation.length() - 1.0).abs() < 1e-9 {
                body.orientation = bd.orientation;
            }
            body.sleep = Sleep {
                asleep: bd.asleep,
                timer: bd.rested,
                rest_speed: bd.rest_speed,
            };
            handles.insert(bd.id, state.bodies.insert(body));
        }
        // Before what names them: ids unique, sleep only for dynamic bodies.
        state.check_bodies().map_err(as_file_error)?;
        // The field naming the body is part of the place an error points at.
        let body = |path: &str, id: u64| -> Result<BodyHandle> {
            handles.get(&id).copied().ok_or_else(|| {
                at(
                    path,
                    Error::invalid("body id", id, "names no body of the file"),
                )
            })
        };
        let opt_body = |path: &str, id: Option<u64>| -> Result<Option<BodyHandle>> {
            id.map(|id| body(path, id)).transpose()
        };

        for (i, p) in file.pair_materials.iter().enumerate() {
            let path = format!("pair_materials[{i}]");
            body(&format!("{path}.a"), p.a)?;
            body(&format!("{path}.b"), p.b)?;
            let m = p.material.checked().map_err(|e| at(&path, e))?;
            if p.a == p.b {
                let e = Error::invalid("b", p.b, "must be a different body from a");
                return Err(at(&path, e));
            }
            state.pair_materials.insert((p.a.min(p.b), p.a.max(p.b)), m);
        }
        for (field, pairs, set) in [
            ("apart", &file.apart, &mut state.apart),
            ("passing", &file.passing, &mut state.passing),
        ] {
            for (i, &[a, b]) in pairs.iter().enumerate() {
                let path = format!("{field}[{i}]");
                body(&path, a)?;
                body(&path, b)?;
                if a == b {
                    let e = Error::invalid("b", b, "must be a different body from a");
                    return Err(at(&path, e));
                }
                set.insert((a.min(b), a.max(b)));
            }
        }
        // Each spring, joint and load passes the check the API makes (its `check`, in
        // `World::from_state`): a file holds nothing a script could not have made.
        for (i, sd) in file.springs.iter().enumerate() {
            let path = format!("springs[{i}]");
            let spring = Spring {
                handle: SpringHandle(sd.handle),
                a: body(&format!("{path}.a"), sd.a)?,
                b: opt_body(&format!("{path}.b"), sd.b)?,
                anchor_a: sd.anchor_a,
                anchor_b: sd.anchor_b,
                stiffness: sd.stiffness,
                damping: sd.damping,
                rest_length: sd.rest_length,
            };
            state.springs.push(spring);
        }
        for (i, jd) in file.joints.iter().enumerate() {
            let path = format!("joints[{i}]");
            let kind = match &jd.kind {
                JointKindData::Distance { length } => JointKind::Distance { length: *length },
                JointKindData::Rope { max_length } => JointKind::Rope {
                    max_length: *max_length,
                },
                JointKindData::Ball => JointKind::Ball,
                JointKindData::Hinge {
                    axis_a,
                    axis_b,
                    reference_a,
                    reference_b,
                    limits,
                    motor,
                } => JointKind::Hinge {
                    axis_a: *axis_a,
                    axis_b: *axis_b,
                    reference_a: *reference_a,
                    reference_b: *reference_b,
                    limits: *limits,
                    motor: motor.map(|(speed, max_torque)| Motor { speed, max_torque }),
                },
                // A quaternion edited by hand is taken normalised, as a body's orientation is.
                JointKindData::Fixed { relative } => JointKind::Fixed {
                    relative: crate::limits::orientation("relative", *relative)
                        .map_err(|e| at(&path, e))?,
                },
                JointKindData::Mouse {
                    frequency,
                    damping_ratio,
                    max_force,
                } => JointKind::Mouse {
                    frequency: *frequency,
                    damping_ratio: *damping_ratio,
                    max_force: *max_force,
                },
                JointKindData::Pulley {
                    ground_a,
                    ground_b,
                    ratio,
                    length,
                } => JointKind::Pulley {
                    ground_a: *ground_a,
                    ground_b: *ground_b,
                    ratio: *ratio,
                    length: *length,
                },
                JointKindData::Slider {
                    axis_a,
                    relative,
                    limits,
                    motor,
                } => JointKind::Slider {
                    axis_a: *axis_a,
                    relative: *relative,
                    limits: *limits,
                    motor: motor.map(|(speed, max_torque)| Motor { speed, max_torque }),
                },
            };
            let joint = Joint {
                handle: JointHandle(jd.handle),
                a: body(&format!("{path}.a"), jd.a)?,
                b: opt_body(&format!("{path}.b"), jd.b)?,
                kind,
                anchor_a: jd.anchor_a,
                anchor_b: jd.anchor_b,
                impulse: jd.impulse,
                angular_impulse: jd.angular_impulse,
                collide: jd.collide,
            };
            state.joints.push(joint);
        }
        for (i, ld) in file.loads.iter().enumerate() {
            let path = format!("loads[{i}]");
            let lasting = match (ld.remaining, ld.until_removed) {
                (_, true) => Lasting::UntilRemoved,
                (Some(t), false) => Lasting::For(
                    crate::error::check_positive("remaining", t).map_err(|e| at(&path, e))?,
                ),
                (None, false) => Lasting::OneStep,
            };
            let load = AppliedLoad {
                handle: LoadHandle(ld.handle),
                body: body(&format!("{path}.body"), ld.body)?,
                force: ld.force,
                local_point: ld.local_point,
                torque: ld.torque,
                lasting,
            };
            state.loads.push(load);
        }
        for (i, md) in file.contacts.iter().enumerate() {
            let path = format!("contacts[{i}]");
            let (a, b) = (
                body(&format!("{path}.a"), md.a)?,
                body(&format!("{path}.b"), md.b)?,
            );
            if md.points.len() > MAX_POINTS {
                let e = Error::invalid(
                    "points",
                    md.points.len(),
                    &format!("a contact keeps at most {MAX_POINTS} points"),
                );
                return Err(at(&path, e));
            }
            // Rows and coefficients are set from the bodies by `World::from_state`.
            state.contacts.manifolds.push(Manifold {
                a,
                b,
                row_a: 0,
                row_b: 0,
                normal: md.normal,
                points: md.points.iter().copied().collect(),
                coefficients: Default::default(),
                sliding: md.sliding,
                frame: md.frame,
            });
        }
        // Each field of the state is read from the file above: one added to WorldState must be
        // read too, and the compiler names it here.
        let WorldState {
            settings: _,
            bodies: _,
            base_time: _,
            steps_since_base: _,
            clock: _,
            next_id: _,
            next_handle: _,
            contacts: _,
            pair_materials: _,
            apart: _,
            passing: _,
            loads: _,
            springs: _,
            joints: _,
        } = &state;
        let mut world = World::from_state(state).map_err(as_file_error)?;
        let listed = |field: &str, pairs: &[[u64; 2]], first_is_sensor: bool| {
            let mut out = Vec::with_capacity(pairs.len());
            for (i, &[a, b]) in pairs.iter().enumerate() {
                let path = format!("{field}[{i}]");
                let ha = body(&path, a)?;
                body(&path, b)?;
                let sensor = world.body(ha).is_ok_and(|x| x.sensor);
                let bad = if first_is_sensor {
                    (!sensor || a == b).then_some("must be a sensor and another body")
                } else {
                    (a >= b).then_some("must be two different bodies, the smaller id first")
                };
                if let Some(message) = bad {
                    return Err(at(
                        &path,
                        Error::invalid("ids", format!("({a}, {b})"), message),
                    ));
                }
                out.push((a, b));
            }
            Ok(out)
        };
        let touching = listed("touching", &file.touching, false)?;
        let sensing = listed("sensing", &file.sensing, true)?;
        world.events = rigidlab_core::events::ContactEvents::resume(touching, sensing);
        Ok(world)
    }
}

/// A hull's stored mass properties: finite, of positive volume, and those of the hull (to a
/// relative 1e-6: they were computed from it when saved).
fn check_mass_properties(
    hull: &crate::shape::ConvexHull,
    m: &crate::shape::hull::MassProperties,
) -> Result<()> {
    let computed = hull.mass_properties();
    let close = |a: f64, b: f64, scale: f64| (a - b).abs() <= 1e-6 * scale;
    let inertia_scale = computed
        .unit_inertia
        .to_cols_array()
        .iter()
        .fold(0.0f64, |s, x| s.max(x.abs()));
    let ok = computed.volume > 0.0
        && m.volume.is_finite()
        && close(m.volume, computed.volume, computed.volume)
        && m.unit_inertia
            .to_cols_array()
            .iter()
            .zip(computed.unit_inertia.to_cols_array())
            .all(|(&a, b)| a.is_finite() && close(a, b, inertia_scale));
    if ok {
        Ok(())
    } else {
        Err(Error::invalid(
            if computed.volume > 0.0 {
                "mass_properties"
            } else {
                "hull"
            },
            format!("volume {}", m.volume),
            &format!(
                "must be those of the hull (volume {}), which must enclose a volume",
                computed.volume
            ),
        ))
    }
}
