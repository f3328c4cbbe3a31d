//! The viewer's state machine, apart from any window: what is shown (a world simulated here, a
//! stream from a script, or a replay), the clock (fixed steps from an accumulator, time scale,
//! pause and single step), selection, the mouse spring, edits, toggles, and the histories the
//! HUD draws. The app turns input into `Command`s and draws what this holds; tests drive it
//! directly.

use std::collections::{HashMap, VecDeque};

use glam::DVec3;

use super::presets;
use crate::body::{BodyDesc, BodyKind};
use crate::dynamics::loads::Lasting;
use crate::scene::SceneFile;
use crate::shape::Shape;
use crate::stream::reader::Inbox;
use crate::stream::replay::Replay;
use crate::stream::{ContactMark, Frame, Message};
use crate::world::World;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A scene file or preset, stepped by the viewer.
    Simulation,
    /// A script's world, stepped by the script and streamed here.
    Stream,
    /// A saved recording played back.
    Replay,
}

/// What is drawn besides the bodies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Toggles {
    pub contacts: bool,
    pub velocities: bool,
    pub aabbs: bool,
    pub trails: bool,
    pub links: bool,
    pub graph: bool,
    pub hud: bool,
    pub help: bool,
}

impl Default for Toggles {
    fn default() -> Self {
        Toggles {
            contacts: false,
            velocities: false,
            aabbs: false,
            trails: false,
            links: true,
            graph: true,
            hud: true,
            help: false,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Toggle {
    Contacts,
    Velocities,
    Aabbs,
    Trails,
    Links,
    Graph,
    Hud,
    Help,
}

/// A body held by the mouse spring at a point fixed in the body.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Drag {
    pub body: u64,
    pub local_point: DVec3,
    pub target: DVec3,
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
}

/// A bounded history of the energy terms for the live graph.
pub struct History {
    capacity: usize,
    pub time: VecDeque<f64>,
    pub energy: VecDeque<[f64; 6]>,
}

impl History {
    pub fn new(capacity: usize) -> History {
        History {
            capacity,
            time: VecDeque::with_capacity(capacity),
            energy: VecDeque::with_capacity(capacity),
        }
    }

    pub fn push(&mut self, t: f64, e: [f64; 6]) {
        if self.time.back().is_some_and(|&last| t < last) {
            self.clear();
        }
        if self.time.len() == self.capacity {
            self.time.pop_front();
            self.energy.pop_front();
        }
        self.time.push_back(t);
        self.energy.push_back(e);
    }

    pub fn clear(&mut self) {
        self.time.clear();
        self.energy.clear();
    }
}

/// The last positions of every body, a bounded number each.
#[derive(Default)]
pub struct Trails {
    pub points: HashMap<u64, VecDeque<DVec3>>,
}

pub const TRAIL_LENGTH: usize = 240;

impl Trails {
    fn push(&mut self, w: &World, present: &[bool]) {
        for (row, b) in w.bodies().bodies().iter().enumerate() {
            if !b.is_dynamic() || !present.get(row).copied().unwrap_or(true) {
                continue;
            }
            let trail = self
                .points
                .entry(b.id)
                .or_insert_with(|| VecDeque::with_capacity(TRAIL_LENGTH));
            if trail.len() == TRAIL_LENGTH {
                trail.pop_front();
            }
            trail.push_back(b.position);
        }
    }
}

/// Real-time factor over the last half second of real time.
#[derive(Default)]
struct RealTimeFactor {
    samples: VecDeque<(f64, f64)>,
    real: f64,
    sim: f64,
}

impl RealTimeFactor {
    fn add(&mut self, real: f64, sim: f64) {
        self.samples.push_back((real, sim));
        self.real += real;
        self.sim += sim;
        while self.real > 0.5 && self.samples.len() > 1 {
            let (r, s) = self.samples.pop_front().unwrap_or_default();
            self.real -= r;
            self.sim -= s;
        }
    }

    fn value(&self) -> f64 {
        if self.real > 0.0 {
            self.sim / self.real
        } else {
            0.0
        }
    }
}

/// Mouse-spring stiffness and damping per unit mass: about 2 Hz, near critical damping, so any
/// body follows the cursor the same way. The spring also carries the body's weight, so a held
/// body settles on the cursor instead of sagging g / omega^2 below it.
const DRAG_OMEGA: f64 = std::f64::consts::TAU * 2.0;
const DRAG_ZETA: f64 = 0.7;

pub struct ViewerState {
    pub world: World,
    pub mode: Mode,
    pub title: String,
    /// The scene Reset returns to (simulation).
    initial: Option<Box<SceneFile>>,
    replay: Option<Replay>,
    pub cursor: usize,
    playback_time: f64,
    /// Row of each body id (stream and replay).
    rows: HashMap<u64, usize>,
    /// Whether each row is in the current frame (a replay leaves out removed bodies).
    pub present: Vec<bool>,
    /// The revision of the scene a stream frame must belong to.
    revision: u64,
    pub paused: bool,
    pub time_scale: f64,
    accumulator: f64,
    /// Simulation: at most this many steps per frame; a slower world runs slower than real time.
    pub max_steps_per_frame: usize,
    pub steps_last_frame: usize,
    pub contacts: Vec<ContactMark>,
    pub energy: Option<[f64; 6]>,
    pub history: History,
    pub trails: Trails,
    pub selected: Option<u64>,
    pub drag: Option<Drag>,
    pub toggles: Toggles,
    /// The stream ended (the script finished or closed it).
    pub ended: bool,
    /// A message for the user, shown until the next one.
    pub note: Option<String>,
    /// The last thing wrong with the stream (a line that is not a message, a frame that does
    /// not fit its scene), shown on the HUD.
    pub stream_error: Option<String>,
    /// Number key and variant of the preset shown.
    pub preset: Option<(usize, usize)>,
    /// Set when a different scene is loaded (the app refits the camera).
    pub scene_changed: bool,
    /// Counts the worlds loaded (a reset or a new scene from a stream too): meshes made for
    /// one world are not reused for the next.
    pub generation: u64,
    rtf: RealTimeFactor,
    /// Stream: simulated time shown since the last frame drawn.
    pending_sim_time: f64,
    pub frames_received: u64,
}

impl ViewerState {
    fn with_world(world: World, mode: Mode, title: String) -> ViewerState {
        let mut s = ViewerState {
            world,
            mode,
            title,
            initial: None,
            replay: None,
            cursor: 0,
            playback_time: 0.0,
            rows: HashMap::new(),
            present: Vec::new(),
            revision: 0,
            paused: false,
            time_scale: 1.0,
            accumulator: 0.0,
            max_steps_per_frame: 64,
            steps_last_frame: 0,
            contacts: Vec::new(),
            energy: None,
            history: History::new(600),
            trails: Trails::default(),
            selected: None,
            drag: None,
            toggles: Toggles::default(),
            ended: false,
            note: None,
            stream_error: None,
            preset: None,
            scene_changed: true,
            generation: 0,
            rtf: RealTimeFactor::default(),
            pending_sim_time: 0.0,
            frames_received: 0,
        };
        s.index_rows();
        s.refresh();
        s
    }

    /// A scene simulated here in real time.
    pub fn simulate(scene: SceneFile, title: impl Into<String>) -> Result<ViewerState, String> {
        let initial = Box::new(scene.clone());
        let world = World::from_scene(scene).map_err(|e| e.to_string())?;
        let mut s = ViewerState::with_world(world, Mode::Simulation, title.into());
        s.initial = Some(initial);
        Ok(s)
    }

    /// Waiting for a script's stream.
    pub fn stream() -> ViewerState {
        let mut s = ViewerState::with_world(World::default(), Mode::Stream, "live".into());
        s.note = Some("waiting for the script".into());
        s
    }

    /// A replay from its first frame, playing.
    pub fn replay(replay: Replay, title: impl Into<String>) -> Result<ViewerState, String> {
        let world = World::from_scene((*replay.scene).clone()).map_err(|e| e.to_string())?;
        let mut s = ViewerState::with_world(world, Mode::Replay, title.into());
        s.revision = replay.revision;
        s.index_rows();
        s.replay = Some(replay);
        s.show_replay_frame(0);
        Ok(s)
    }

    fn index_rows(&mut self) {
        self.rows = self
            .world
            .bodies()
            .bodies()
            .iter()
            .enumerate()
            .map(|(row, b)| (b.id, row))
            .collect();
        self.present = vec![true; self.world.bodies().len()];
    }

    /// A new world replaces the shown one.
    fn load_world(&mut self, world: World) {
        self.world = world;
        self.generation += 1;
        self.index_rows();
        self.selected = None;
        self.drag = None;
        self.accumulator = 0.0;
        self.history.clear();
        self.trails.points.clear();
        self.scene_changed = true;
        self.refresh();
    }

    /// Contacts, energy and the histories after the world changed.
    fn refresh(&mut self) {
        if self.mode == Mode::Simulation {
            crate::stream::protocol::contact_marks(&self.world, &mut self.contacts);
            self.energy = Some(self.world.energy().terms());
        }
        if let Some(e) = self.energy {
            self.history.push(self.world.time(), e);
        }
        if self.toggles.trails {
            self.trails.push(&self.world, &self.present);
        }
    }

    pub fn replay_len(&self) -> usize {
        self.replay.as_ref().map_or(0, |r| r.frames.len())
    }

    fn show_replay_frame(&mut self, k: usize) {
        let Some(replay) = &self.replay else { return };
        let k = k.min(replay.frames.len() - 1);
        let frame = &replay.frames[k];
        frame.apply_to(&mut self.world, &self.rows, &mut self.present);
        self.energy = frame.energy;
        self.contacts.clone_from(&frame.contacts);
        self.playback_time = frame.time;
        if k < self.cursor {
            self.history.clear();
            self.trails.points.clear();
        }
        self.cursor = k;
        self.refresh();
    }

    /// One message of a live stream.
    pub fn receive(&mut self, msg: Message) {
        match msg {
            Message::Scene { revision, scene } => match World::from_scene(*scene) {
                Ok(world) => {
                    // Frame the first scene, and one that follows a world with nothing to
                    // frame; when the same script's world gains or loses bodies, keep the camera.
                    let refit = self.bounds().is_none();
                    self.revision = revision;
                    let keep = self.selected;
                    self.load_world(world);
                    self.scene_changed = refit;
                    self.selected = keep.filter(|id| self.rows.contains_key(id));
                    self.note = None;
                }
                Err(e) => self.stream_error = Some(format!("bad scene: {e}")),
            },
            Message::Frame(frame) => self.show_frame(&frame),
            Message::End => self.end_stream(),
        }
    }

    fn show_frame(&mut self, frame: &Frame) {
        if frame.revision != self.revision || frame.check().is_err() {
            return;
        }
        let before = self.world.time();
        let unknown = frame.apply_to(&mut self.world, &self.rows, &mut self.present);
        if unknown > 0 {
            self.stream_error = Some(format!(
                "the frame at t = {} names {unknown} bodies its scene lacks",
                frame.time
            ));
        }
        self.frames_received += 1;
        self.pending_sim_time += (frame.time - before).max(0.0);
        self.energy = frame.energy;
        self.contacts.clone_from(&frame.contacts);
        self.refresh();
    }

    fn end_stream(&mut self) {
        if !self.ended {
            self.ended = true;
            self.note = Some("the script has ended: this is its last frame".into());
        }
    }

    /// Whether to take what a stream brings: not while paused, so the picture holds still
    /// (the reader keeps only the newest scene and frame meanwhile).
    pub fn accepts_stream(&self) -> bool {
        !(self.mode == Mode::Stream && self.paused)
    }

    /// What a stream reader gathered since the last frame.
    pub fn receive_inbox(&mut self, inbox: Inbox) {
        if let Some((revision, scene)) = inbox.scene {
            self.receive(Message::Scene { revision, scene });
        }
        if let Some(frame) = inbox.frame {
            self.show_frame(&frame);
        }
        if let Some(e) = inbox.error {
            self.stream_error = Some(e);
        }
        if inbox.ended {
            self.end_stream();
        }
    }

    /// Advances by a frame's real time: whole steps from the accumulator (the remainder kept for
    /// the next frame), or the replay's clock. Returns the steps taken.
    pub fn advance(&mut self, real_dt: f64) -> usize {
        let real_dt = real_dt.clamp(0.0, 0.25);
        let before = self.world.time();
        self.steps_last_frame = 0;
        match self.mode {
            Mode::Simulation if !self.paused => {
                let dt = self.world.settings().dt;
                self.accumulator += real_dt * self.time_scale;
                let mut steps = (self.accumulator / dt).floor() as usize;
                if steps > self.max_steps_per_frame {
                    steps = self.max_steps_per_frame;
                    self.accumulator = 0.0;
                } else {
                    self.accumulator -= steps as f64 * dt;
                }
                for _ in 0..steps {
                    self.step_world();
                }
                self.steps_last_frame = steps;
                if steps > 0 {
                    self.refresh();
                }
            }
            Mode::Replay if !self.paused => {
                let len = self.replay_len();
                self.playback_time += real_dt * self.time_scale;
                let times = &self
                    .replay
                    .as_ref()
                    .expect("replay mode has a replay")
                    .frames;
                let mut k = self.cursor;
                // A frame is due when the clock reaches its time, give or take rounding.
                while k + 1 < len && times[k + 1].time <= self.playback_time + 1e-9 {
                    k += 1;
                }
                if k != self.cursor {
                    let t = self.playback_time;
                    self.show_replay_frame(k);
                    self.playback_time = t;
                }
                if k + 1 == len {
                    self.paused = true;
                }
            }
            _ => {}
        }
        let sim = match self.mode {
            Mode::Stream => std::mem::take(&mut self.pending_sim_time),
            _ => (self.world.time() - before).max(0.0),
        };
        self.rtf.add(real_dt, sim);
        self.steps_last_frame
    }

    /// One step with the mouse spring pulling.
    fn step_world(&mut self) {
        if let Some(d) = self.drag {
            if let Some(h) = self.handle(d.body) {
                if let Ok(b) = self.world.body(h) {
                    let p = b.world_point(d.local_point);
                    let weight = -self.world.settings().gravity * b.gravity_scale;
                    let force = b.mass()
                        * (DRAG_OMEGA * DRAG_OMEGA * (d.target - p)
                            - 2.0 * DRAG_ZETA * DRAG_OMEGA * b.velocity_at(p)
                            + weight);
                    let _ = self.world.apply_load(
                        h,
                        force,
                        Some(d.local_point),
                        DVec3::ZERO,
                        Lasting::OneStep,
                    );
                }
            }
        }
        // A step the engine refuses (the scene diverged) pauses the simulation with the reason.
        if let Err(e) = self.world.step() {
            self.paused = true;
            self.note = Some(e.to_string());
        }
    }

    pub fn real_time_factor(&self) -> f64 {
        self.rtf.value()
    }

    pub fn handle(&self, id: u64) -> Option<crate::body::BodyHandle> {
        let bodies = self.world.bodies();
        bodies
            .bodies()
            .iter()
            .position(|b| b.id == id)
            .map(|row| bodies.handles()[row])
    }

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
                self.time_scale = (self.time_scale * f).clamp(1.0 / 64.0, 16.0)
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
                if self.editable() {
                    let shape = if sphere {
                        Shape::sphere(size)
                    } else {
                        Shape::cuboid(DVec3::splat(size))
                    };
                    let desc = BodyDesc {
                        position: at,
                        ..BodyDesc::new(shape.expect("a positive size"))
                    };
                    match self.world.add_body(desc) {
                        Ok(h) => {
                            self.selected = self.world.body(h).ok().map(|b| b.id);
                            self.index_rows();
                            self.refresh();
                        }
                        Err(e) => self.note = Some(e.to_string()),
                    }
                }
            }
            Command::BeginDrag { body, point } => {
                if let Some(h) = self.handle(body) {
                    self.selected = Some(body);
                    let Ok(b) = self.world.body(h) else { return };
                    let (dynamic, local_point) = (b.is_dynamic(), b.local_point(point));
                    if dynamic && self.editable() {
                        self.drag = Some(Drag {
                            body,
                            local_point,
                            target: point,
                        });
                    }
                }
            }
            Command::DragTo(p) => {
                if let Some(d) = &mut self.drag {
                    d.target = p;
                }
            }
            Command::EndDrag => self.drag = None,
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
            Command::StepFrames(n) => {
                if self.mode == Mode::Replay {
                    let k =
                        (self.cursor as i64 + n).clamp(0, self.replay_len() as i64 - 1) as usize;
                    self.show_replay_frame(k);
                }
            }
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

    /// Whether the world lies in the x-y plane: every solid at z = 0 moving only in that plane,
    /// and gravity in it, so a 2D view shows everything.
    pub fn is_planar(&self) -> bool {
        let w = &self.world;
        let solids: Vec<_> = w
            .bodies()
            .bodies()
            .iter()
            .filter(|b| !matches!(b.shape, Shape::Plane))
            .collect();
        let flat = |v: DVec3| v.z.abs() < 1e-9;
        !solids.is_empty()
            && w.settings().gravity.z == 0.0
            && solids.iter().all(|b| {
                flat(b.position)
                    && flat(b.velocity)
                    && b.angular_velocity.x.abs() < 1e-9
                    && b.angular_velocity.y.abs() < 1e-9
            })
    }

    /// The box around every solid shown and every spring and joint anchor (planes left out).
    pub fn bounds(&self) -> Option<(DVec3, DVec3)> {
        let mut out: Option<(DVec3, DVec3)> = None;
        let mut add = |lo: DVec3, hi: DVec3| {
            out = Some(out.map_or((lo, hi), |(a, b)| (a.min(lo), b.max(hi))));
        };
        let bodies = self.world.bodies();
        for (row, b) in bodies.bodies().iter().enumerate() {
            if matches!(b.shape, Shape::Plane) || !self.present.get(row).copied().unwrap_or(true) {
                continue;
            }
            let a = b.shape.aabb(b.position, b.orientation);
            add(a.min, a.max);
        }
        let springs = self
            .world
            .springs()
            .iter()
            .filter_map(|s| s.world_anchors(bodies));
        for (a, b) in springs.chain(
            self.world
                .joints()
                .iter()
                .filter_map(|j| j.world_anchors(bodies)),
        ) {
            add(a.min(b), a.max(b));
        }
        out
    }

    /// The HUD's lines.
    pub fn hud_lines(&self, fps: f64) -> Vec<String> {
        let mode = match self.mode {
            Mode::Simulation => "simulation",
            Mode::Stream => "live from Python",
            Mode::Replay => "replay",
        };
        let mut lines = vec![
            format!(
                "{}  [{mode}]{}",
                self.title,
                if self.paused { "  PAUSED" } else { "" }
            ),
            format!(
                "FPS {fps:.0}   t = {:.3} s   real-time factor {:.2}   time scale {}",
                self.world.time(),
                self.real_time_factor(),
                format_scale(self.time_scale)
            ),
            format!(
                "bodies {}   contacts {}   dt {:.5} s   steps/frame {}",
                self.present.iter().filter(|&&p| p).count(),
                self.contacts.len(),
                self.world.settings().dt,
                self.steps_last_frame
            ),
        ];
        if let Some(e) = self.energy {
            lines.push(format!(
                "energy {:.4} J: kinetic {:.4} (translation {:.4}, rotation {:.4})",
                e[5], e[2], e[0], e[1]
            ));
            lines.push(format!(
                "       gravitational {:.4}, elastic {:.4}",
                e[3], e[4]
            ));
        }
        if self.mode == Mode::Replay {
            lines.push(format!("frame {} / {}", self.cursor + 1, self.replay_len()));
        }
        if let Some(e) = &self.stream_error {
            lines.push(format!("stream: {e}"));
        }
        lines
    }

    /// The selected body's description.
    pub fn selection_lines(&self) -> Vec<String> {
        let Some(b) = self
            .selected
            .and_then(|id| self.handle(id))
            .and_then(|h| self.world.body(h).ok())
        else {
            return Vec::new();
        };
        let name = b
            .name
            .as_deref()
            .map(|n| format!(" '{n}'"))
            .unwrap_or_default();
        let m = &b.material;
        let coefficient = |c: Option<f64>| c.map_or("default".to_string(), |c| format!("{c}"));
        let v = b.velocity;
        let w = b.angular_velocity;
        let ke = 0.5 * b.mass() * v.length_squared() + 0.5 * w.dot(b.inertia_world() * w);
        let mass = if b.mass().is_finite() {
            format!("{:.4} kg", b.mass())
        } else {
            "infinite".into()
        };
        vec![
            format!(
                "body {}{name}: {} {}, {}",
                b.id,
                b.kind.name(),
                b.shape.type_name(),
                mass
            ),
            format!(
                "position ({:.3}, {:.3}, {:.3}) m",
                b.position.x, b.position.y, b.position.z
            ),
            format!(
                "velocity ({:.3}, {:.3}, {:.3}) m/s, |v| = {:.3}",
                v.x,
                v.y,
                v.z,
                v.length()
            ),
            format!(
                "angular velocity ({:.3}, {:.3}, {:.3}) rad/s",
                w.x, w.y, w.z
            ),
            format!("kinetic energy {ke:.4} J"),
            format!(
                "restitution {}, friction {} (static {})",
                coefficient(m.restitution),
                coefficient(m.friction),
                coefficient(m.static_friction)
            ),
            format!(
                "tangential restitution {}",
                coefficient(m.tangential_restitution)
            ),
        ]
    }
}

fn format_scale(s: f64) -> String {
    if s >= 1.0 {
        format!("{s}x")
    } else {
        format!("1/{}x", (1.0 / s).round())
    }
}
