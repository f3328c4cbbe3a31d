//! What the user asks of the viewer (the app turns keys and the mouse into `Command`s): the
//! clock, selection, sandbox edits, dragging with the mouse, presets, toggles and replay
//! frames.

use glam::{DVec2, DVec3};

use super::{presets, Mode, Toggle, ViewerState};
use crate::body::{BodyDesc, BodyKind, MassSpec};
use crate::dynamics::joints::JointHandle;
use crate::dynamics::loads::Lasting;
use crate::scene::SceneIo;
use crate::shape::{Polygon, Shape};
use crate::world::World;
use crate::world_links::MouseOptions;

/// How far one press of `,` or `.` scrubs a simulation (s).
const SCRUB_SECONDS: f64 = 0.1;

/// A body held by the mouse at a point fixed in the body, through an engine mouse joint.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Drag {
    pub body: u64,
    pub local_point: DVec3,
    pub target: DVec3,
    pub joint: JointHandle,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Command {
    TogglePause,
    /// Pauses if running; otherwise advances one step (or one replay frame).
    StepOnce,
    Reset,
    /// Multiplies the time scale.
    ScaleTime(f64),
    NormalSpeed,
    Select(Option<u64>),
    Delete,
    ToggleStatic,
    /// A sphere (or a cube) of the given radius (half size) at a point.
    Spawn {
        sphere: bool,
        at: DVec3,
        size: f64,
    },
    BeginDrag {
        body: u64,
        point: DVec3,
    },
    DragTo(DVec3),
    EndDrag,
    Toggle(Toggle),
    /// A number key: its preset scene, or the next variant on pressing it again.
    Preset(usize),
    /// Replay: jump to a fraction of the recording's length.
    Seek(f64),
    /// Replay: frames forward (positive) or back.
    StepFrames(i64),
    /// The next drawing tool (2D view).
    NextTool,
    /// A disc (2D) of `radius` centred at `centre`, drawn with the circle tool.
    AddCircle {
        centre: DVec3,
        radius: f64,
    },
    /// A box (2D) with opposite corners a and b, drawn with the box tool.
    AddBox {
        a: DVec3,
        b: DVec3,
    },
    /// A corner of the polygon being drawn.
    SketchPoint(DVec3),
    /// The polygon drawn so far becomes a body (if it is a convex one).
    FinishSketch,
    CancelSketch,
    /// Saves the world to `save_path`.
    Save,
}

/// What the left mouse button does in the 2D view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Tool {
    /// Select and pull bodies.
    #[default]
    Drag,
    /// Drag from a centre out to the rim: a disc.
    Circle,
    /// Drag from one corner to the opposite one: a box.
    Box,
    /// Click the corners, then right click (or Enter): a convex polygon.
    Polygon,
}

impl Tool {
    pub fn name(self) -> &'static str {
        match self {
            Tool::Drag => "pull",
            Tool::Circle => "draw circles",
            Tool::Box => "draw boxes",
            Tool::Polygon => "draw polygons",
        }
    }

    fn next(self) -> Tool {
        match self {
            Tool::Drag => Tool::Circle,
            Tool::Circle => Tool::Box,
            Tool::Box => Tool::Polygon,
            Tool::Polygon => Tool::Drag,
        }
    }
}

/// Drawn bodies smaller than this (m) are taken for slips of the mouse and not made.
const SMALLEST_DRAWN: f64 = 1e-3;
/// Areal density (kg/m^2) of the bodies drawn in a 2D world (that of 2D worlds by default).
const DRAWN_DENSITY: f64 = 1.0;

/// The mouse joint that drags a body: 2 Hz, a little under critical damping, so any body
/// follows the cursor the same way, without a cap (the user is in charge). The viewer also
/// carries the body's weight at the held point, so a held body settles on the cursor instead
/// of sagging g / w^2 (6 cm at 2 Hz) below it, and hangs from it like a pendulum.
const DRAG: MouseOptions = MouseOptions {
    frequency: 2.0,
    damping_ratio: 0.7,
    max_force: None,
};

impl ViewerState {
    fn editable(&mut self) -> bool {
        match self.mode {
            Mode::Simulation => true,
            Mode::Stream => {
                self.note = Some("the script is in charge: edit the world in Python".into());
                false
            }
            Mode::Replay => {
                self.note = Some("a replay cannot be edited".into());
                false
            }
        }
    }

    pub fn apply(&mut self, cmd: Command) {
        match cmd {
            Command::TogglePause => self.paused = !self.paused,
            Command::StepOnce => {
                if !self.paused {
                    self.paused = true;
                } else {
                    match self.mode {
                        Mode::Simulation => {
                            self.step_world();
                            self.refresh();
                        }
                        Mode::Replay => self.show_replay_frame(self.cursor + 1),
                        Mode::Stream => {}
                    }
                }
            }
            Command::Reset => match self.mode {
                Mode::Simulation => {
                    if let Some(scene) = self.initial.clone() {
                        match World::from_scene(*scene) {
                            Ok(w) => {
                                self.load_world(w);
                                self.scene_changed = false;
                            }
                            Err(e) => self.note = Some(e.to_string()),
                        }
                    }
                }
                Mode::Replay => self.show_replay_frame(0),
                Mode::Stream => {
                    self.note = Some("the script is in charge: it cannot be reset from here".into())
                }
            },
            Command::ScaleTime(f) => {
                let (slowest, fastest) = crate::clock::TIME_SCALES;
                self.time_scale = (self.time_scale * f).clamp(slowest, fastest)
            }
            Command::NormalSpeed => self.time_scale = 1.0,
            Command::Select(id) => {
                self.selected = id;
            }
            Command::Delete => {
                if let Some(h) = self.selected.and_then(|id| self.handle(id)) {
                    if self.editable() {
                        let _ = self.world.remove(h);
                        self.selected = None;
                        self.drag = None;
                        self.index_rows();
                        self.refresh();
                    }
                }
            }
            Command::ToggleStatic => {
                if let Some(h) = self.selected.and_then(|id| self.handle(id)) {
                    if self.editable() {
                        let kind = if self.world.body(h).is_ok_and(|b| b.is_dynamic()) {
                            BodyKind::Static
                        } else {
                            BodyKind::Dynamic
                        };
                        if let Err(e) = self.world.set_kind(h, kind) {
                            self.note = Some(e.to_string());
                        }
                        self.refresh();
                    }
                }
            }
            Command::Spawn { sphere, at, size } => {
                let planar = self.world.settings().planar;
                let shape = match (sphere, planar) {
                    (true, _) => Shape::sphere(size),
                    (false, false) => Shape::cuboid(DVec3::splat(size)),
                    (false, true) => Polygon::rectangle(DVec2::splat(size)).map(Shape::polygon),
                };
                self.add_drawn(shape, at);
            }
            Command::NextTool => {
                self.tool = self.tool.next();
                self.sketch.clear();
            }
            Command::AddCircle { centre, radius } => {
                if radius >= SMALLEST_DRAWN {
                    self.add_drawn(Shape::sphere(radius), centre);
                }
            }
            Command::AddBox { a, b } => {
                let half = ((b - a).abs() * 0.5).truncate();
                if half.min_element() >= SMALLEST_DRAWN {
                    self.add_drawn(Polygon::rectangle(half).map(Shape::polygon), (a + b) * 0.5);
                }
            }
            Command::SketchPoint(p) => self.sketch.push(p),
            Command::FinishSketch => {
                let corners: Vec<DVec2> = self.sketch.drain(..).map(|p| p.truncate()).collect();
                match Polygon::convex(&corners) {
                    Ok((polygon, centroid)) => {
                        self.add_drawn(Ok(Shape::polygon(polygon)), centroid.extend(0.0))
                    }
                    Err(e) => self.note = Some(format!("not drawn: {e}")),
                }
            }
            Command::CancelSketch => self.sketch.clear(),
            Command::Save => match std::fs::write(&self.save_path, self.world.to_json()) {
                Ok(()) => self.note = Some(format!("saved to {}", self.save_path.display())),
                Err(e) => {
                    self.note = Some(format!("cannot save to {}: {e}", self.save_path.display()))
                }
            },
            Command::BeginDrag { body, point } => {
                if let Some(h) = self.handle(body) {
                    self.selected = Some(body);
                    let Ok(b) = self.world.body(h) else { return };
                    let (dynamic, local_point) = (b.is_dynamic(), b.local_point(point));
                    if dynamic && self.editable() {
                        self.end_drag();
                        match self.world.add_mouse_joint(h, point, point, DRAG) {
                            Ok(joint) => {
                                self.drag = Some(Drag {
                                    body,
                                    local_point,
                                    target: point,
                                    joint,
                                })
                            }
                            Err(e) => self.note = Some(e.to_string()),
                        }
                    }
                }
            }
            Command::DragTo(p) => {
                if let Some(d) = &mut self.drag {
                    if self.world.set_mouse_target(d.joint, p).is_ok() {
                        d.target = p;
                    }
                }
            }
            Command::EndDrag => self.end_drag(),
            Command::Toggle(t) => {
                let g = &mut self.toggles;
                let flag = match t {
                    Toggle::Contacts => &mut g.contacts,
                    Toggle::Velocities => &mut g.velocities,
                    Toggle::Aabbs => &mut g.aabbs,
                    Toggle::Trails => &mut g.trails,
                    Toggle::Links => &mut g.links,
                    Toggle::Graph => &mut g.graph,
                    Toggle::Hud => &mut g.hud,
                    Toggle::Help => &mut g.help,
                };
                *flag = !*flag;
                if !self.toggles.trails {
                    self.trails.points.clear();
                }
            }
            Command::Preset(key) => self.load_preset(key),
            Command::Seek(fraction) => {
                if self.mode == Mode::Replay {
                    let k = (fraction.clamp(0.0, 1.0) * (self.replay_len() - 1) as f64).round()
                        as usize;
                    self.show_replay_frame(k);
                }
            }
            Command::StepFrames(n) => match self.mode {
                Mode::Replay => {
                    let k =
                        (self.cursor as i64 + n).clamp(0, self.replay_len() as i64 - 1) as usize;
                    self.show_replay_frame(k);
                }
                Mode::Simulation => self.scrub(n as f64 * SCRUB_SECONDS),
                Mode::Stream => {}
            },
        }
    }

    /// Adds a body of `shape` (dynamic) at `at`, selects it; in a 2D world drawn bodies are
    /// laminae of the default areal density, in the plane.
    fn add_drawn(&mut self, shape: crate::error::Result<Shape>, at: DVec3) {
        if !self.editable() {
            return;
        }
        let planar = self.world.settings().planar;
        let made = shape.and_then(|shape| {
            let mut desc = BodyDesc::new(shape);
            desc.position = if planar {
                at.truncate().extend(0.0)
            } else {
                at
            };
            if planar {
                desc.mass = MassSpec::Density(DRAWN_DENSITY);
            }
            self.world.add_body(desc)
        });
        match made {
            Ok(h) => {
                self.selected = self.world.body(h).ok().map(|b| b.id);
                self.index_rows();
                self.refresh();
            }
            Err(e) => self.note = Some(e.to_string()),
        }
    }

    fn load_preset(&mut self, key: usize) {
        if self.mode == Mode::Stream {
            self.note = Some("the script is in charge: presets open in a viewer of their own (rigidlab-view --preset)".into());
            return;
        }
        let variant = match self.preset {
            Some((k, v)) if k == key => v + 1,
            _ => 0,
        };
        let Some(p) = presets::for_key(key, variant) else {
            return;
        };
        match p.scene() {
            Ok(scene) => match ViewerState::simulate(scene, p.name) {
                Ok(mut s) => {
                    s.toggles = self.toggles;
                    s.time_scale = self.time_scale;
                    s.preset = Some((key, p.variant));
                    *self = s;
                }
                Err(e) => self.note = Some(e),
            },
            Err(e) => self.note = Some(e),
        }
    }

    /// Lets go of the held body (its mouse joint is removed).
    fn end_drag(&mut self) {
        if let Some(d) = self.drag.take() {
            self.world.remove_joint(d.joint);
        }
    }

    /// The held body's weight, carried at the held point for the coming step (the mouse
    /// joint does the pulling).
    pub(super) fn carry_dragged_body(&mut self) {
        let Some(d) = self.drag else {
            return;
        };
        let Some(h) = self.handle(d.body) else {
            return;
        };
        if let Ok(b) = self.world.body(h) {
            let weight = -self.world.settings().gravity * b.gravity_scale * b.mass();
            let _ = self.world.apply_load(
                h,
                weight,
                Some(d.local_point),
                DVec3::ZERO,
                Lasting::OneStep,
            );
        }
    }
}
